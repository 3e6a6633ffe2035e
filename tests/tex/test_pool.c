/* Pools, handles, header-binding mode, invalid indices and the descriptor cache. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "texvm/tex.h"
#include "tex/tex_internal.h"

#define HDR_BASE 0x100000ull
#define SMP_BASE 0x200000ull

typedef struct fixture {
    tv_memory *mem;
    tv_tex_unit *unit;
    uint32_t headers[64][8];
    uint32_t samplers[64][8];
    uint8_t texels[4096];
} fixture;

/* Header i: a 2D RGBA8 texture of width i+1; sampler i: border colour R = i. */
static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    f->mem = tv_memory_create();
    f->unit = tv_tex_create(f->mem);
    for (int i = 0; i < 64; i++) {
        tv_tic tic;
        tv_tic_from_format(&tic, TV_FORMAT_R8G8B8A8_UNORM, NULL);
        tic.header_version = TV_TIC_PITCH;
        tic.texture_type = TV_TEX_2D;
        tic.address = 0x300000;
        tic.pitch = 256;
        tic.width_minus_one = (uint32_t)i;
        tic.normalized_coords = true;
        tv_tic_encode(&tic, f->headers[i]);
        tv_tsc tsc;
        memset(&tsc, 0, sizeof tsc);
        tsc.border_color[0] = (uint32_t)i;
        tsc.mag_filter = TV_MAG_LINEAR;
        tsc.max_anisotropy = 7;
        tsc.mip_lod_bias = -384;   /* -1.5 */
        tsc.min_lod_clamp = 0x100; /* 1.0 */
        tsc.max_lod_clamp = 0xc80; /* 12.5 */
        tsc.cubemap_interface_filtering = 2;
        tv_tsc_encode(&tsc, f->samplers[i]);
    }
    tv_memory_map(f->mem, HDR_BASE, f->headers, sizeof f->headers, NULL);
    tv_memory_map(f->mem, SMP_BASE, f->samplers, sizeof f->samplers, NULL);
    tv_memory_map(f->mem, 0x300000, f->texels, sizeof f->texels, NULL);
    tv_tex_set_header_pool(f->unit, HDR_BASE, 63);
    tv_tex_set_sampler_pool(f->unit, SMP_BASE, 63);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    tv_tex_destroy(f->unit);
    tv_memory_destroy(f->mem);
    free(f);
    return 0;
}

static void handle_layout(void **state)
{
    (void)state;
    assert_int_equal(tv_tex_handle(5, 7), (7u << 20) | 5u);
    assert_int_equal(tv_tex_handle(0xfffff, 0xfff), 0xffffffffu);
    assert_int_equal(tv_tex_handle(0x123456, 1), (1u << 20) | 0x23456u);
}

static void independent_indices(void **state)
{
    fixture *f = *state;
    tv_tic tic;
    tv_tsc tsc;
    assert_true(tv_tex_lookup(f->unit, tv_tex_handle(10, 20), &tic, &tsc));
    assert_int_equal(tic.width_minus_one, 10);
    assert_int_equal(tsc.border_color[0], 20);
    const tex_view *v;
    const tex_sampler *s;
    assert_true(tex_resolve(f->unit, tv_tex_handle(3, 63), &v, &s));
    assert_int_equal(v->width, 4);
    assert_int_equal(s->tsc.border_color[0], 63);
    /* the sampler's float forms */
    assert_true(s->lod_bias == -1.5f);
    assert_true(s->min_lod == 1.0f);
    assert_true(s->max_lod == 12.5f);
    assert_int_equal(s->max_aniso, 16);
    assert_true(s->seamless_cube);
}

static void invalid_indices(void **state)
{
    fixture *f = *state;
    tv_tic tic;
    tv_tsc tsc;
    const tex_view *v;
    const tex_sampler *s;
    /* maximum inclusive: 63 is valid, 64 is not (for either pool) */
    assert_true(tv_tex_lookup(f->unit, tv_tex_handle(63, 63), &tic, &tsc));
    assert_false(tv_tex_lookup(f->unit, tv_tex_handle(64, 0), &tic, &tsc));
    assert_int_equal(tic.width_minus_one, 0);
    assert_false(tv_tex_lookup(f->unit, tv_tex_handle(0, 64), &tic, &tsc));
    assert_false(tex_resolve(f->unit, tv_tex_handle(0xfffff, 0), &v, &s));
    assert_null(v);
    assert_null(s);
    assert_false(tex_resolve(f->unit, tv_tex_handle(0, 0xfff), &v, &s));
    /* header-only resolve ignores the sampler index */
    assert_true(tex_resolve_header(f->unit, 63, &v));
    assert_false(tex_resolve_header(f->unit, 64, &v));
    /* shrinking the pool invalidates what lies past the new maximum */
    tv_tex_set_header_pool(f->unit, HDR_BASE, 9);
    assert_true(tv_tex_lookup(f->unit, tv_tex_handle(9, 0), NULL, NULL));
    assert_false(tv_tex_lookup(f->unit, tv_tex_handle(10, 0), NULL, NULL));
}

static void unusable_header(void **state)
{
    fixture *f = *state;
    /* header 5: COMPONENTS code 0 (not a format) -> invalid texture */
    memset(f->headers[5], 0, 32);
    tv_tex_invalidate(f->unit);
    const tex_view *v;
    const tex_sampler *s;
    assert_false(tex_resolve(f->unit, tv_tex_handle(5, 0), &v, &s));
    assert_false(tv_tex_lookup(f->unit, tv_tex_handle(5, 0), NULL, NULL));
    /* a 1D-buffer header version with a 2D type is unusable too */
    tv_tic tic;
    tv_tic_from_format(&tic, TV_FORMAT_R8_UNORM, NULL);
    tic.header_version = TV_TIC_ONE_D_BUFFER;
    tic.texture_type = TV_TEX_2D;
    tv_tic_encode(&tic, f->headers[6]);
    tv_tex_invalidate(f->unit);
    assert_false(tex_resolve(f->unit, tv_tex_handle(6, 0), &v, &s));
    /* a header pool in unmapped memory reads as zeros: invalid */
    tv_tex_set_header_pool(f->unit, 0x900000, 10);
    assert_false(tex_resolve(f->unit, tv_tex_handle(1, 0), &v, &s));
}

static void header_binding(void **state)
{
    fixture *f = *state;
    tv_tic tic;
    tv_tsc tsc;
    tv_tex_set_header_binding(f->unit, true);
    /* the sampler index bits are ignored; the sampler is the header's index */
    assert_true(tv_tex_lookup(f->unit, tv_tex_handle(12, 40), &tic, &tsc));
    assert_int_equal(tic.width_minus_one, 12);
    assert_int_equal(tsc.border_color[0], 12);
    /* a header index past the sampler pool is invalid in this mode */
    tv_tex_set_sampler_pool(f->unit, SMP_BASE, 11);
    assert_false(tv_tex_lookup(f->unit, tv_tex_handle(12, 0), &tic, &tsc));
    assert_true(tv_tex_lookup(f->unit, tv_tex_handle(11, 0xfff), &tic, &tsc));
    tv_tex_set_header_binding(f->unit, false);
    assert_false(tv_tex_lookup(f->unit, tv_tex_handle(11, 0xfff), &tic, &tsc));
    assert_true(tv_tex_lookup(f->unit, tv_tex_handle(11, 3), &tic, &tsc));
    assert_int_equal(tsc.border_color[0], 3);
}

static void cache_and_invalidate(void **state)
{
    fixture *f = *state;
    tv_tic tic;
    tv_tsc tsc;
    const tex_view *v1, *v2;
    const tex_sampler *s1, *s2;
    assert_true(tex_resolve(f->unit, tv_tex_handle(2, 2), &v1, &s1));
    assert_true(tex_resolve(f->unit, tv_tex_handle(2, 2), &v2, &s2));
    assert_ptr_equal(v1, v2);               /* cached */
    assert_ptr_equal(s1, s2);
    /* rewrite the entries in memory: the cache keeps the old decode until invalidated */
    tv_tic t;
    tv_tic_decode(f->headers[2], &t);
    t.width_minus_one = 99;
    tv_tic_encode(&t, f->headers[2]);
    tv_tsc s;
    tv_tsc_decode(f->samplers[2], &s);
    s.border_color[0] = 777;
    tv_tsc_encode(&s, f->samplers[2]);
    assert_true(tv_tex_lookup(f->unit, tv_tex_handle(2, 2), &tic, &tsc));
    assert_int_equal(tic.width_minus_one, 2);
    assert_int_equal(tsc.border_color[0], 2);
    tv_tex_invalidate(f->unit);
    assert_true(tv_tex_lookup(f->unit, tv_tex_handle(2, 2), &tic, &tsc));
    assert_int_equal(tic.width_minus_one, 99);
    assert_int_equal(tsc.border_color[0], 777);
    /* moving a pool drops its cache too */
    t.width_minus_one = 55;
    tv_tic_encode(&t, f->headers[2]);
    tv_tex_set_header_pool(f->unit, HDR_BASE, 63);
    assert_true(tv_tex_lookup(f->unit, tv_tex_handle(2, 2), &tic, &tsc));
    assert_int_equal(tic.width_minus_one, 55);
    /* many distinct entries: all resolvable, all distinct */
    for (int i = 0; i < 64; i++) {
        assert_true(tex_resolve(f->unit, tv_tex_handle((uint32_t)i, (uint32_t)(63 - i)), &v1, &s1));
        assert_int_equal(v1->width, i == 2 ? 56 : i + 1);
        assert_int_equal(s1->tsc.border_color[0], 63 - i == 2 ? 777u : (uint32_t)(63 - i));
    }
}

static void pool_in_remapped_memory(void **state)
{
    fixture *f = *state;
    const tex_view *v;
    const tex_sampler *s;
    assert_true(tex_resolve(f->unit, tv_tex_handle(1, 1), &v, &s));
    assert_non_null(v->host);             /* texels mapped: direct host access */
    tv_memory_unmap(f->mem, 0x300000);
    assert_true(tex_resolve(f->unit, tv_tex_handle(1, 1), &v, &s));
    assert_null(v->host);                  /* revalidated after the unmap */
    uint32_t out[4] = {9, 9, 9, 9};
    tex_load_texel(f->unit, v, 0, 0, 0, 0, 0, 0, false, out);
    assert_int_equal(out[0], 0);           /* unmapped texels read as zero bytes */
    assert_int_equal(out[3], 0);
}

/* Several threads resolving the same and different handles at once get the right
 * descriptors (the cache is shared and locked). */
static void *resolver(void *arg)
{
    fixture *f = arg;
    for (int it = 0; it < 20000; it++) {
        uint32_t hi = (uint32_t)(it * 7 % 64), si = (uint32_t)(it * 13 % 64);
        const tex_view *v;
        const tex_sampler *s;
        if (!tex_resolve(f->unit, tv_tex_handle(hi, si), &v, &s) || v->width != hi + 1 ||
            s->tsc.border_color[0] != si)
            return (void *)1;
    }
    return NULL;
}

static void concurrent_resolve(void **state)
{
    fixture *f = *state;
    pthread_t th[4];
    for (int i = 0; i < 4; i++)
        pthread_create(&th[i], NULL, resolver, f);
    for (int i = 0; i < 4; i++) {
        void *r;
        pthread_join(th[i], &r);
        assert_null(r);
    }
}

/* The per-thread memo of the last resolve is keyed by the unit, not its address: a unit
 * created where a destroyed one lived, or a second unit over other pools, never sees the
 * other's descriptors. */
static void memo_per_unit(void **state)
{
    fixture *f = *state;
    const tex_view *v;
    const tex_sampler *s;
    uint32_t other[8];
    tv_tic t;
    tv_tic_decode(f->headers[5], &t);
    t.width_minus_one = 40;
    tv_tic_encode(&t, other);
    tv_memory *m2 = tv_memory_create();
    tv_memory_map(m2, HDR_BASE, other, sizeof other, NULL);
    tv_memory_map(m2, SMP_BASE, f->samplers, sizeof f->samplers, NULL);
    for (int round = 0; round < 4; round++) {
        assert_true(tex_resolve(f->unit, tv_tex_handle(0, 0), &v, &s));
        assert_int_equal(v->width, 1);
        tv_tex_unit *u2 = tv_tex_create(m2);
        tv_tex_set_header_pool(u2, HDR_BASE, 0);
        tv_tex_set_sampler_pool(u2, SMP_BASE, 63);
        assert_true(tex_resolve(u2, tv_tex_handle(0, 0), &v, &s));
        assert_int_equal(v->width, 41);
        assert_true(tex_resolve(f->unit, tv_tex_handle(0, 0), &v, &s));
        assert_int_equal(v->width, 1);
        assert_true(tex_resolve(u2, tv_tex_handle(0, 0), &v, &s));
        assert_int_equal(v->width, 41);
        tv_tex_destroy(u2);     /* the next round's unit may reuse the address */
    }
    tv_memory_destroy(m2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(handle_layout),
        cmocka_unit_test_setup_teardown(independent_indices, setup, teardown),
        cmocka_unit_test_setup_teardown(invalid_indices, setup, teardown),
        cmocka_unit_test_setup_teardown(unusable_header, setup, teardown),
        cmocka_unit_test_setup_teardown(header_binding, setup, teardown),
        cmocka_unit_test_setup_teardown(cache_and_invalidate, setup, teardown),
        cmocka_unit_test_setup_teardown(pool_in_remapped_memory, setup, teardown),
        cmocka_unit_test_setup_teardown(concurrent_resolve, setup, teardown),
        cmocka_unit_test_setup_teardown(memo_per_unit, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
