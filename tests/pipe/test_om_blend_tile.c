/* The whole-tile blend of RGBA32 float pixels (src/pipe/pipe_om_blend_tile.c) against the
 * per-pixel blend om_blend_color, bit for bit: every pair of served RGB factors under
 * every pair of served equations, the alpha factors drawn at random, with and without
 * alpha-to-one and a second colour; sources, destinations and the constant drawn from
 * NaNs of both signs with payloads (quiet and signalling), infinities, signed zeros,
 * denormals, huge values and plain numbers; rows a stride apart that is not a multiple of
 * the 64-byte vector, beside guard bytes that must not change. The common states
 * (glBlendFunc's usual arguments) each with its own kernel, the same way. And which states
 * the tile blend takes (om_tile_blend_init): the rest must fall to the lane rows. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "util/cpu_isa.h"
#include "pipe/pipe_om.h"
#include "util/half.h"

#include <math.h>
#include <stdint.h>
#include <string.h>
#include "common_rng.h"

/* every Gallium factor but SRC_ALPHA_SATURATE (not served) */
static const uint8_t served[] = {
    OM_BF_ONE, OM_BF_SRC_COLOR, OM_BF_SRC_ALPHA, OM_BF_DST_ALPHA, OM_BF_DST_COLOR,
    OM_BF_CONST_COLOR, OM_BF_CONST_ALPHA, OM_BF_SRC1_COLOR, OM_BF_SRC1_ALPHA, OM_BF_ZERO,
    OM_BF_INV_SRC_COLOR, OM_BF_INV_SRC_ALPHA, OM_BF_INV_DST_ALPHA, OM_BF_INV_DST_COLOR,
    OM_BF_INV_CONST_COLOR, OM_BF_INV_CONST_ALPHA, OM_BF_INV_SRC1_COLOR, OM_BF_INV_SRC1_ALPHA};
#define NSERVED (sizeof served / sizeof served[0])
static const uint8_t funcs[] = {OM_BLEND_ADD, OM_BLEND_SUBTRACT, OM_BLEND_REVERSE_SUBTRACT};

static const uint32_t specials[] = {
    0x7fc00000u, 0xffc00000u, 0x7fc12345u, 0xffe00001u, 0x7f800001u, 0xff812345u, /* NaNs */
    0x7f800000u, 0xff800000u, 0x00000000u, 0x80000000u, 0x3f800000u, 0xbf800000u,
    0x00000001u, 0x807fffffu, 0x7f7fffffu, 0xff7fffffu, 0x3f000000u, 0x40200000u};
#define NSPECIAL (sizeof specials / sizeof specials[0])

static uint32_t value(uint32_t *s)
{
    if (tc_rng_next(s) % 3 == 0)
        return specials[tc_rng_next(s) % NSPECIAL];
    float f = (float)(tc_rng_next(s) & 0xffffff) / (float)0x1000000 * 4.0f - 1.5f;
    return tv_f32_bits(f);
}

static om_target rgba32f(void)
{
    om_target t;
    assert_true(om_target_init(&t, tv_format_from_name("R32G32B32A32_FLOAT")));
    assert_true(t.raw32);
    return t;
}

/* lane l's pixel in the tile (docs/vm-fragments.md §1 "Fragment tiles") */
static unsigned lane_x(unsigned l)
{
    return ((l >> 2) & 3u) * 2u + (l & 1u);
}

static unsigned lane_y(unsigned l)
{
    return (l >> 4) * 2u + ((l >> 1) & 1u);
}

enum { STRIDE = 8 * 16 + 48, GUARD = 64, BYTES = GUARD + 4 * STRIDE + GUARD };

/* One tile under RT; returns whether the tile blend served it. */
static bool one_tile(const om_rt_blend *rt, uint32_t *s, unsigned round)
{
    om_target t = rgba32f();
    om_tile_blend tb;
    om_tile_blend_init(&tb, rt, &t);
    uint32_t c0[4][32], c1[4][32];
    float k[4];
    for (unsigned c = 0; c < 4; c++) {
        k[c] = tv_bits_f32(value(s));
        for (unsigned l = 0; l < 32; l++) {
            c0[c][l] = value(s);
            c1[c][l] = value(s);
        }
    }
    bool alpha_one = tc_rng_next(s) % 4 == 0;
    _Alignas(64) uint8_t mem[BYTES], before[BYTES];
    for (unsigned i = 0; i < BYTES; i += 4) {
        uint32_t v = value(s);
        memcpy(mem + i, &v, 4);
    }
    memcpy(before, mem, BYTES);
    const uint32_t *s0r[4] = {c0[0], c0[1], c0[2], c0[3]};
    const uint32_t *s1r[4] = {c1[0], c1[1], c1[2], c1[3]};
    uint8_t *t0 = mem + GUARD;
    if (!om_tile_blend_run(&tb, s0r, s1r, alpha_one, k, t0, STRIDE)) {
        assert_false(tb.ok);
        assert_memory_equal(mem, before, BYTES);   /* nothing done */
        return false;
    }
    for (unsigned l = 0; l < 32; l++) {
        size_t at = GUARD + lane_y(l) * STRIDE + lane_x(l) * 16;
        float a0[4], a1[4], d[4], ref[4], got[4];
        for (unsigned c = 0; c < 4; c++) {
            a0[c] = tv_bits_f32(c0[c][l]);
            a1[c] = tv_bits_f32(c1[c][l]);
        }
        if (alpha_one)
            a0[3] = 1.0f;
        memcpy(d, before + at, 16);
        om_blend_color(rt, OM_CLASS_FLOAT, a0, a1, d, k, ref);
        memcpy(got, mem + at, 16);
        for (unsigned c = 0; c < 4; c++)
            if (tv_f32_bits(got[c]) != tv_f32_bits(ref[c]))
                fail_msg("round %u (factors %02x %02x %02x %02x, equations %u %u) lane %u "
                         "channel %u: %08x, per pixel %08x", round, rt->rgb_src_factor,
                         rt->rgb_dst_factor, rt->alpha_src_factor, rt->alpha_dst_factor,
                         rt->rgb_func, rt->alpha_func, l, c, tv_f32_bits(got[c]),
                         tv_f32_bits(ref[c]));
        memcpy(before + at, mem + at, 16);   /* (the guard comparison below) */
    }
    /* the guard bytes and the bytes between the rows are as they were */
    assert_memory_equal(mem, before, BYTES);
    return true;
}

/* a machine with one of the tile blend's variants (AVX-512F or AVX2) */
static bool served_here(void)
{
    return tv_cpu_avx512f() || tv_cpu_avx2();
}

static void test_tile_equals_blend_color(void **state)
{
    (void)state;
    if (!served_here())
        skip();   /* the tile blend has AVX-512 and AVX2 variants alone */
    uint32_t s = 0x2468aceu;
    unsigned round = 0;
    for (unsigned a = 0; a < NSERVED; a++)
        for (unsigned b = 0; b < NSERVED; b++)
            for (unsigned e = 0; e < 9; e++) {
                om_rt_blend rt;
                memset(&rt, 0, sizeof rt);
                rt.blend_enable = true;
                rt.colormask = 15;
                rt.rgb_src_factor = served[a];
                rt.rgb_dst_factor = served[b];
                /* the alpha factors: the RGB ones in a third of the rounds */
                bool same = tc_rng_next(&s) % 3 == 0;
                rt.alpha_src_factor = same ? served[a] : served[tc_rng_next(&s) % NSERVED];
                rt.alpha_dst_factor = same ? served[b] : served[tc_rng_next(&s) % NSERVED];
                rt.rgb_func = funcs[e % 3];
                rt.alpha_func = funcs[e / 3];
                assert_true(one_tile(&rt, &s, round++));
            }
}

/* glBlendFunc's usual states, each with a kernel of its own (om_tile_blend.kernel), which
 * must give the same bits as the per-pixel blend too */
static void test_common_states(void **state)
{
    (void)state;
    if (!served_here())
        skip();
    static const uint8_t states[][4] = {
        {OM_BF_SRC_ALPHA, OM_BF_INV_SRC_ALPHA, OM_BF_SRC_ALPHA, OM_BF_INV_SRC_ALPHA},
        {OM_BF_ONE, OM_BF_INV_SRC_ALPHA, OM_BF_ONE, OM_BF_INV_SRC_ALPHA},
        {OM_BF_SRC_ALPHA, OM_BF_INV_SRC_ALPHA, OM_BF_ONE, OM_BF_INV_SRC_ALPHA},
        {OM_BF_ONE, OM_BF_ONE, OM_BF_ONE, OM_BF_ONE}};
    om_target t = rgba32f();
    uint32_t s = 0x13579bdu;
    bool seen[8] = {false};
    for (unsigned i = 0; i < sizeof states / sizeof states[0]; i++) {
        om_rt_blend rt;
        memset(&rt, 0, sizeof rt);
        rt.blend_enable = true;
        rt.colormask = 15;
        rt.rgb_src_factor = states[i][0];
        rt.rgb_dst_factor = states[i][1];
        rt.alpha_src_factor = states[i][2];
        rt.alpha_dst_factor = states[i][3];
        om_tile_blend tb;
        om_tile_blend_init(&tb, &rt, &t);
        assert_true(tb.ok);
        assert_true(tb.kernel != 0 && tb.kernel < 8);
        assert_false(seen[tb.kernel]);   /* a kernel per state */
        seen[tb.kernel] = true;
        for (unsigned round = 0; round < 300; round++)
            assert_true(one_tile(&rt, &s, round));
    }
}

static void test_states_refused(void **state)
{
    (void)state;
    om_target t = rgba32f(), unorm;
    assert_true(om_target_init(&unorm, tv_format_from_name("R8G8B8A8_UNORM")));
    om_rt_blend base;
    memset(&base, 0, sizeof base);
    base.blend_enable = true;
    base.colormask = 15;
    base.rgb_src_factor = base.alpha_src_factor = OM_BF_SRC_ALPHA;
    base.rgb_dst_factor = base.alpha_dst_factor = OM_BF_INV_SRC_ALPHA;
    om_tile_blend tb;
    om_tile_blend_init(&tb, &base, &t);
    assert_int_equal(tb.ok, served_here());
    assert_int_equal(tb.isa, tv_cpu_avx512f() ? 2 : served_here() ? 1 : 0);
    om_rt_blend r = base;
    r.blend_enable = false;
    om_tile_blend_init(&tb, &r, &t);
    assert_false(tb.ok);
    r = base;
    r.colormask = 7;
    om_tile_blend_init(&tb, &r, &t);
    assert_false(tb.ok);
    r = base;
    r.alpha_dst_factor = OM_BF_SRC_ALPHA_SATURATE;
    om_tile_blend_init(&tb, &r, &t);
    assert_false(tb.ok);
    r = base;
    r.rgb_func = OM_BLEND_MIN;
    om_tile_blend_init(&tb, &r, &t);
    assert_false(tb.ok);
    r = base;
    r.alpha_func = OM_BLEND_MAX;
    om_tile_blend_init(&tb, &r, &t);
    assert_false(tb.ok);
    r = base;
    r.rgb_src_factor = 0x1f;   /* no such factor */
    om_tile_blend_init(&tb, &r, &t);
    assert_false(tb.ok);
    om_tile_blend_init(&tb, &base, &unorm);   /* clamps: the lane rows' */
    assert_false(tb.ok);
    uint32_t s = 1;
    r = base;
    r.blend_enable = false;
    assert_false(one_tile(&r, &s, 0));   /* refused: the run leaves the target alone */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tile_equals_blend_color),
        cmocka_unit_test(test_common_states),
        cmocka_unit_test(test_states_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
