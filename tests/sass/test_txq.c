/* TXQ (spec/sass-txq.txt): the TEX_HEADER_DIMENSION return table for every texture type
 * (incl. the MODE_1X1 rule and levels past the last), TEX_HEADER_TEXTURE_TYPE,
 * TEX_HEADER_SAMPLER_POS ({4.12, 4.12}), Ra packing (.B handle then LOD), the Rd/Ra
 * alignment rules, the page example, invalid header/sampler pointers, header binding,
 * the legacy #tidU08, #smpU05 form, and write-mask compaction. */
#include "sass_env.h"

#include <stdio.h>

typedef struct tex_case {
    const char *name;
    unsigned type, w, h, d, levels, ms;
    unsigned level;
    uint32_t want[4];   /* from the page's table, by hand */
} tex_case;

/* The page's table, one row per type (several levels for some). MS codes: 0 MODE_1X1,
 * 2 MODE_2X2. CUBEMAP_ARRAY "length" is the layer count (6 per cube; docs/sass.md). */
static const tex_case cases[] = {
    {"ONE_D", TV_TEX_1D, 16, 1, 1, 5, 0, 0, {16, 0, 0, 5}},
    {"ONE_D lod 2", TV_TEX_1D, 16, 1, 1, 5, 0, 2, {4, 0, 0, 5}},
    {"TWO_D", TV_TEX_2D, 16, 8, 1, 4, 0, 0, {16, 8, 0, 4}},
    {"TWO_D lod 3", TV_TEX_2D, 16, 8, 1, 4, 0, 3, {2, 1, 0, 4}},
    {"TWO_D multisample", TV_TEX_2D, 8, 4, 1, 1, 2, 0, {8, 4, 1, 1}},
    {"THREE_D lod 1", TV_TEX_3D, 8, 4, 16, 3, 0, 1, {4, 2, 8, 3}},
    {"CUBEMAP", TV_TEX_CUBE, 8, 8, 1, 4, 0, 0, {8, 8, 0, 4}},
    {"CUBEMAP lod 1", TV_TEX_CUBE, 8, 8, 1, 4, 0, 1, {4, 4, 0, 4}},
    {"ONE_D_ARRAY lod 1", TV_TEX_1D_ARRAY, 8, 1, 5, 2, 0, 1, {4, 5, 0, 2}},
    {"TWO_D_ARRAY", TV_TEX_2D_ARRAY, 8, 4, 3, 2, 0, 0, {8, 4, 3, 2}},
    {"TWO_D_NO_MIPMAP", TV_TEX_2D_NO_MIPMAP, 8, 4, 1, 1, 0, 0, {8, 4, 0, 1}},
    {"TWO_D_NO_MIPMAP multisample", TV_TEX_2D_NO_MIPMAP, 8, 4, 3, 1, 2, 0, {8, 4, 3, 1}},
    {"CUBEMAP_ARRAY", TV_TEX_CUBE_ARRAY, 8, 8, 2, 3, 0, 0, {8, 8, 12, 3}},
    /* a level past the last: zeros for the sizes, the level count still returned */
    {"ONE_D past", TV_TEX_1D, 16, 1, 1, 5, 0, 5, {0, 0, 0, 5}},
    {"TWO_D past", TV_TEX_2D, 16, 8, 1, 4, 0, 9, {0, 0, 0, 4}},
    {"TWO_D multisample past", TV_TEX_2D, 8, 4, 1, 1, 2, 1, {0, 0, 0, 1}},
    {"THREE_D past", TV_TEX_3D, 8, 4, 16, 3, 0, 3, {0, 0, 0, 3}},
    {"CUBEMAP_ARRAY past", TV_TEX_CUBE_ARRAY, 8, 8, 2, 3, 0, 7, {0, 0, 0, 3}},
};

static void put(senv *E, unsigned idx, unsigned type, unsigned w, unsigned h, unsigned d,
                unsigned levels, unsigned ms)
{
    tv_tic t;
    senv_tic(&t, TV_FORMAT_R8G8B8A8_UNORM, type, w, h, d, levels);
    t.multi_sample_count = (uint8_t)ms;
    senv_put_tic(E, idx, &t);
}

static void test_dimension_table(void **state)
{
    senv *E = *state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const tex_case *c = &cases[i];
        put(E, 1, c->type, c->w, c->h, c->d, c->levels, c->ms);
        senv_bind(E, 0, tv_tex_handle(1, 0));
        set_all(E, 6, c->level);
        for (unsigned r = 0; r < 4; r++)
            set_all(E, r, 0xdeadbeef);
        run_ok(E, "TXQ  R0, R6, TEX_HEADER_DIMENSION, 0, 0xf;");
        for (unsigned k = 0; k < 4; k++) {
            if (reg(E, k, 0) != c->want[k])
                fprintf(stderr, "%s: component %u = %u, want %u\n", c->name, k, reg(E, k, 0),
                        c->want[k]);
            assert_int_equal(reg(E, k, 0), c->want[k]);
            assert_int_equal(reg(E, k, 31), c->want[k]);
        }
    }
    /* ONE_D_BUFFER: (width, 0, 0, 1) */
    tv_tic t;
    senv_tic(&t, TV_FORMAT_R8G8B8A8_UNORM, TV_TEX_1D_BUFFER, 100, 1, 1, 1);
    t.header_version = TV_TIC_ONE_D_BUFFER;
    t.normalized_coords = false;
    senv_put_tic(E, 1, &t);
    set_all(E, 6, 0);
    run_ok(E, "TXQ R0, R6, TEX_HEADER_DIMENSION, 0, 0xf");
    assert_int_equal(reg(E, 0, 5), 100);
    assert_int_equal(reg(E, 1, 5), 0);
    assert_int_equal(reg(E, 2, 5), 0);
    assert_int_equal(reg(E, 3, 5), 1);
}

/* The example: reads R6, writes R0..R3. Per-lane LODs. */
static void test_example_reads_writes(void **state)
{
    senv *E = *state;
    put(E, 1, TV_TEX_2D, 32, 16, 1, 6, 0);
    senv_bind(E, 0, tv_tex_handle(1, 0));
    for (unsigned lane = 0; lane < 32; lane++)
        tv_sass_set_reg(E->w, 6, lane, lane % 7);
    run_ok(E, "TXQ  R0, R6, TEX_HEADER_DIMENSION, 0, 0xf;");
    unsigned got[16], n = reads_of(E, got);
    assert_regs(got, n, (unsigned[]){6}, 1);
    n = writes_of(E, got);
    assert_regs(got, n, (unsigned[]){0, 1, 2, 3}, 4);
    for (unsigned lane = 0; lane < 32; lane++) {
        unsigned lod = lane % 7;
        assert_int_equal(reg(E, 0, lane), lod < 6 ? (32u >> lod ? 32u >> lod : 1u) : 0u);
        assert_int_equal(reg(E, 1, lane), lod < 6 ? (16u >> lod ? 16u >> lod : 1u) : 0u);
        assert_int_equal(reg(E, 3, lane), 6);
    }
    /* write-mask compaction: 0xc -> R0 = B, R1 = A; 0x2 -> R0 = G */
    set_all(E, 6, 1);
    set_all(E, 1, 0x777);
    run_ok(E, "TXQ R0, R6, TEX_HEADER_DIMENSION, 0x0, 0xc");
    assert_int_equal(reg(E, 0, 0), 0);
    assert_int_equal(reg(E, 1, 0), 6);
    n = writes_of(E, got);
    assert_regs(got, n, (unsigned[]){0, 1}, 2);
    run_ok(E, "TXQ R5, R6, TEX_HEADER_DIMENSION, 0x0, 0x2");
    assert_int_equal(reg(E, 5, 0), 8);
    /* the default #wmskU04 is 0xf */
    run_ok(E, "TXQ R8, R6, TEX_HEADER_DIMENSION, 0x0");
    n = writes_of(E, got);
    assert_regs(got, n, (unsigned[]){8, 9, 10, 11}, 4);
}

static void test_texture_type(void **state)
{
    senv *E = *state;
    static const struct { unsigned ms, samples; } rows[] = {
        {0, 1}, {1, 2}, {2, 4}, {3, 8}, {6, 16},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        put(E, 2, TV_TEX_2D, 8, 8, 1, 1, rows[i].ms);
        senv_bind(E, 3, tv_tex_handle(2, 0));
        for (unsigned r = 0; r < 4; r++)
            set_all(E, r, 0xdeadbeef);
        run_ok(E, "TXQ R0, R6, TEX_HEADER_TEXTURE_TYPE, 0x3, 0xf");
        assert_int_equal(reg(E, 0, 0), 0);   /* reserved for "type" */
        assert_int_equal(reg(E, 1, 0), 0);   /* reserved for "format" */
        assert_int_equal(reg(E, 2, 0), rows[i].samples);
        assert_int_equal(reg(E, 3, 0), 0);
        unsigned got[16];
        assert_int_equal(reads_of(E, got), 0);   /* "No input data register required" */
    }
    /* Ra may be RZ when nothing is packed in it */
    run_ok(E, "TXQ R4, RZ, TEX_HEADER_TEXTURE_TYPE, 0x3, 0x4");
    assert_int_equal(reg(E, 4, 0), 16);
}

/* {4.12, 4.12}: dx in [15:0], dy in [31:16], signed offsets from the pixel centre. The
 * D3D standard 4-sample pattern (1/16 pixel): (-2,-6), (6,-2), (-6,2), (2,6). */
static void test_sampler_pos(void **state)
{
    senv *E = *state;
    put(E, 2, TV_TEX_2D, 8, 8, 1, 1, 2);
    senv_bind(E, 3, tv_tex_handle(2, 0));
    static const int pat[4][2] = {{-2, -6}, {6, -2}, {-6, 2}, {2, 6}};
    for (unsigned lane = 0; lane < 32; lane++)
        tv_sass_set_reg(E->w, 6, lane, lane % 5);
    run_ok(E, "TXQ R0, R6, TEX_HEADER_SAMPLER_POS, 0x3, 0xf");
    for (unsigned lane = 0; lane < 32; lane++) {
        unsigned s = lane % 5;
        uint32_t want = 0;
        if (s < 4) {
            uint32_t dx = (uint32_t)(pat[s][0] * 4096 / 16) & 0xffffu;
            uint32_t dy = (uint32_t)(pat[s][1] * 4096 / 16) & 0xffffu;
            want = dy << 16 | dx;
        }
        assert_int_equal(reg(E, 0, lane), want);
        assert_int_equal(reg(E, 1, lane), 0);
        assert_int_equal(reg(E, 2, lane), 0);
        assert_int_equal(reg(E, 3, lane), 0);
    }
    assert_int_equal(reg(E, 0, 0), 0xfa00fe00u);
}

static void test_bindless_and_rules(void **state)
{
    senv *E = *state;
    put(E, 4, TV_TEX_3D, 16, 8, 4, 2, 0);
    /* .B: Ra = handle, Ra+1 = LOD */
    set_all(E, 6, tv_tex_handle(4, 0));
    set_all(E, 7, 1);
    run_ok(E, "TXQ.B R0, R6, TEX_HEADER_DIMENSION, 0x0, 0xf");
    unsigned got[16], n = reads_of(E, got);
    assert_regs(got, n, (unsigned[]){6, 7}, 2);
    assert_int_equal(reg(E, 0, 0), 8);
    assert_int_equal(reg(E, 1, 0), 4);
    assert_int_equal(reg(E, 2, 0), 2);
    assert_int_equal(reg(E, 3, 0), 2);
    /* .B with no other parameter: Ra = handle only, any register */
    set_all(E, 5, tv_tex_handle(4, 0));
    run_ok(E, "TXQ.B R0, R5, TEX_HEADER_TEXTURE_TYPE, 0x0, 0x4");
    assert_int_equal(reg(E, 0, 0), 1);
    /* rules: Rd aligned to the components written, Ra aligned to its count, Ra not RZ */
    tv_error err;
    assert_int_equal(run_status(E, "TXQ R2, R6, TEX_HEADER_DIMENSION, 0x0, 0xf", &err),
                     TV_ERR_RUNTIME);
    assert_non_null(strstr(err.message, "misaligned"));
    assert_int_equal(run_status(E, "TXQ R1, R6, TEX_HEADER_DIMENSION, 0x0, 0x9", &err),
                     TV_ERR_RUNTIME);
    assert_int_equal(run_status(E, "TXQ R4, R6, TEX_HEADER_DIMENSION, 0x0, 0x7", &err),
                     TV_OK);
    assert_int_equal(run_status(E, "TXQ R2, R6, TEX_HEADER_DIMENSION, 0x0, 0x7", &err),
                     TV_ERR_RUNTIME);
    assert_int_equal(run_status(E, "TXQ.B R0, R5, TEX_HEADER_DIMENSION, 0x0, 0xf", &err),
                     TV_ERR_RUNTIME);
    assert_int_equal(run_status(E, "TXQ R0, RZ, TEX_HEADER_DIMENSION, 0x0, 0xf", &err),
                     TV_ERR_RUNTIME);
    assert_non_null(strstr(err.message, "must not be RZ"));
    /* .B takes no texture index */
    tv_sass_insn in;
    assert_int_equal(tv_sass_parse("TXQ.B R0, R6, TEX_HEADER_DIMENSION, 0x5, 0xf", &in, &err),
                     TV_ERR_INVALID);
}

static void test_invalid_and_binding(void **state)
{
    senv *E = *state;
    put(E, 1, TV_TEX_2D, 16, 16, 1, 2, 0);
    set_all(E, 6, 0);
    /* header pointer past the header pool's maximum: zeros, levels included */
    senv_bind(E, 9, tv_tex_handle(ENV_ENTRIES, 0));
    set_all(E, 3, 0x99);
    run_ok(E, "TXQ R0, R6, TEX_HEADER_DIMENSION, 0x9, 0xf");
    for (unsigned k = 0; k < 4; k++)
        assert_int_equal(reg(E, k, 0), 0);
    /* sampler pointer past the sampler pool's maximum: invalid too (the TXQ page) */
    senv_bind(E, 9, tv_tex_handle(1, ENV_ENTRIES));
    set_all(E, 3, 0x99);
    run_ok(E, "TXQ R0, R6, TEX_HEADER_DIMENSION, 0x9, 0xf");
    assert_int_equal(reg(E, 3, 0), 0);
    /* ViaHeaderBinding: the headerPtr is the samplerPtr as well */
    tv_sass_binding b;
    tv_sass_get_binding(E->w, &b);
    b.header_binding = true;
    tv_error err;
    assert_int_equal(tv_sass_set_binding(E->w, &b, &err), TV_OK);
    run_ok(E, "TXQ R0, R6, TEX_HEADER_DIMENSION, 0x9, 0xf");
    assert_int_equal(reg(E, 0, 0), 16);
    assert_int_equal(reg(E, 3, 0), 2);
    b.header_binding = false;
    assert_int_equal(tv_sass_set_binding(E->w, &b, &err), TV_OK);
    /* legacy #tidU08, #smpU05: tsPtrIdx = smp << 8 | tid */
    senv_bind(E, 0x110, tv_tex_handle(1, 0));
    set_all(E, 0, 0);
    run_ok(E, "TXQ R0, R6, TEX_HEADER_DIMENSION, 0x10, 0x1, 0xf");
    assert_int_equal(reg(E, 0, 0), 16);
    tv_sass_insn in;
    assert_int_equal(tv_sass_parse("TXQ R0, R6, TEX_HEADER_DIMENSION, 0x10, 0x1, 0xf", &in,
                                   &err), TV_OK);
    assert_int_equal(in.tid, 0x110);
    char buf[128];
    tv_sass_print(&in, buf, sizeof buf);
    assert_string_equal(buf, "TXQ R0, R6, TEX_HEADER_DIMENSION, 0x10, 0x1, 0xf");
    /* the sampler queries are illegal encodings of TXQ (NVIDIA's instruction tables) */
    assert_int_equal(run_status(E, "TXQ R0, R6, TEX_SAMPLER_WRAP, 0x9, 0xf", &err),
                     TV_ERR_INVALID);
    assert_non_null(strstr(err.message, "illegal encodings"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dimension_table),
        cmocka_unit_test(test_example_reads_writes),
        cmocka_unit_test(test_texture_type),
        cmocka_unit_test(test_sampler_pos),
        cmocka_unit_test(test_bindless_and_rules),
        cmocka_unit_test(test_invalid_and_binding),
    };
    return cmocka_run_group_tests(tests, senv_setup, senv_teardown);
}
