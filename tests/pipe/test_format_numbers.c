/* Gallium format numbers in the pipe layer (src/pipe/pipe_format.c: one number -> row,
 * texture-unit format and caps table, filled once per process): against the list itself
 * (include/texvm/gallium_formats.def, read here independently), for every number up to
 * 1023 — its name, the round trip through tv_pipe_format_from_name, SAMPLER caps exactly for
 * texture-unit formats, VERTEX caps at least for the 32-bit float vertex formats — and the
 * first use racing on four threads (each must see the whole table). */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "texvm/pipe.h"
#include "texvm/tex.h"

typedef struct def_row {
    const char *name;
    uint32_t virgl;
} def_row;

static const def_row def_rows[] = {
#define TV_GALLIUM_FORMAT(name, virgl, tgsi) {#name, virgl},
#include "texvm/gallium_formats.def"
#undef TV_GALLIUM_FORMAT
};

#define MAXN 1024u

/* the .def's name for a number (0 and numbers without a row: NULL) */
static const char *def_name(uint32_t n)
{
    for (size_t i = 0; n && i < sizeof def_rows / sizeof def_rows[0]; i++)
        if (def_rows[i].virgl == n)
            return def_rows[i].name;
    return NULL;
}

static unsigned first_caps[4][MAXN];

static void *first_use(void *arg)
{
    unsigned *out = arg;
    for (uint32_t n = 0; n < MAXN; n++)
        out[n] = tv_pipe_format_caps(n);
    return NULL;
}

/* first: nothing in this process has asked for a format yet */
static void test_first_use_on_four_threads(void **state)
{
    (void)state;
    pthread_t t[4];
    for (unsigned i = 0; i < 4; i++)
        assert_int_equal(pthread_create(&t[i], NULL, first_use, first_caps[i]), 0);
    for (unsigned i = 0; i < 4; i++)
        assert_int_equal(pthread_join(t[i], NULL), 0);
    for (unsigned i = 1; i < 4; i++)
        assert_memory_equal(first_caps[i], first_caps[0], sizeof first_caps[0]);
    unsigned with_caps = 0;
    for (uint32_t n = 0; n < MAXN; n++)
        with_caps += first_caps[0][n] != 0;
    assert_true(with_caps >= 100); /* the table was complete for every thread */
}

static void test_numbers_against_the_list(void **state)
{
    (void)state;
    unsigned named = 0, sampled = 0;
    for (uint32_t n = 0; n < MAXN; n++) {
        const char *want = def_name(n), *got = tv_pipe_format_name(n);
        unsigned caps = tv_pipe_format_caps(n);
        assert_int_equal(caps, first_caps[0][n]);
        if (!want) {
            assert_null(got);
            assert_int_equal(caps, 0);
            continue;
        }
        named++;
        assert_non_null(got);
        assert_string_equal(got, want);
        assert_int_equal(tv_pipe_format_from_name(want), n);
        char pipe_name[64];
        snprintf(pipe_name, sizeof pipe_name, "PIPE_FORMAT_%s", want);
        /* a tex_formats.def row names it in its pipe column */
        bool tex = tv_format_from_pipe_name(pipe_name) != TV_FORMAT_NONE;
        assert_int_equal((caps & TV_PIPE_FORMAT_SAMPLER) != 0, tex);
        if (!tex)
            assert_int_equal(caps & (TV_PIPE_FORMAT_RENDER | TV_PIPE_FORMAT_DEPTH_STENCIL), 0);
        sampled += tex;
    }
    assert_true(named >= 120);
    assert_true(sampled >= 60);
    static const char *const floats[] = {"R32_FLOAT", "R32G32_FLOAT", "R32G32B32_FLOAT",
                                         "R32G32B32A32_FLOAT"};
    for (unsigned i = 0; i < 4; i++)
        assert_true(tv_pipe_format_caps(tv_pipe_format_from_name(floats[i])) &
                    TV_PIPE_FORMAT_VERTEX);
    assert_true(tv_pipe_format_caps(tv_pipe_format_from_name("Z32_FLOAT")) &
                TV_PIPE_FORMAT_DEPTH_STENCIL);
    assert_true(tv_pipe_format_caps(tv_pipe_format_from_name("R8G8B8A8_UNORM")) &
                TV_PIPE_FORMAT_RENDER);
}

/* The block-compressed formats by virgl's numbers (virgl_hw.h: DXT 105-112, RGTC 113-116,
 * BPTC 255-258): sampler views only, with their blocks (S3TC/RGTC 4x4 of 8 or 16 bytes,
 * BPTC 4x4 of 16). Their texture-unit names differ from Gallium's (BC7_UNORM is
 * BPTC_RGBA_UNORM): a lookup by the unit's own name found none of them. */
static void test_block_formats(void **state)
{
    (void)state;
    static const struct {
        uint32_t num;
        const char *name;
        unsigned bytes;
    } want[] = {{105, "DXT1_RGB", 8},        {106, "DXT1_RGBA", 8},
                {107, "DXT3_RGBA", 16},      {108, "DXT5_RGBA", 16},
                {109, "DXT1_SRGB", 8},       {110, "DXT1_SRGBA", 8},
                {111, "DXT3_SRGBA", 16},     {112, "DXT5_SRGBA", 16},
                {113, "RGTC1_UNORM", 8},     {114, "RGTC1_SNORM", 8},
                {115, "RGTC2_UNORM", 16},    {116, "RGTC2_SNORM", 16},
                {255, "BPTC_RGBA_UNORM", 16}, {256, "BPTC_SRGBA", 16},
                {257, "BPTC_RGB_FLOAT", 16}, {258, "BPTC_RGB_UFLOAT", 16}};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        assert_string_equal(tv_pipe_format_name(want[i].num), want[i].name);
        assert_int_equal(tv_pipe_format_caps(want[i].num), TV_PIPE_FORMAT_SAMPLER);
        unsigned bw = 0, bh = 0;
        assert_int_equal(tv_pipe_format_block(want[i].num, &bw, &bh), want[i].bytes);
        assert_int_equal(bw, 4);
        assert_int_equal(bh, 4);
        assert_false(tv_pipe_format_clearable(want[i].num));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_first_use_on_four_threads),
        cmocka_unit_test(test_numbers_against_the_list),
        cmocka_unit_test(test_block_formats),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
