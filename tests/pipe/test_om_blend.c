/* Blending, compare functions and logic ops of the output merger (src/pipe/pipe_om_blend.c)
 * against an independent float64 reference written here from GL 4.6 §17.3.6 (every
 * Gallium factor for RGB and alpha, every equation, fixed-point clamping), hand-worked
 * cases, and the sixteen logic ops written out by name. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "pipe/pipe_om.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

static const uint8_t all_factors[] = {
    OM_BF_ONE, OM_BF_SRC_COLOR, OM_BF_SRC_ALPHA, OM_BF_DST_ALPHA, OM_BF_DST_COLOR,
    OM_BF_SRC_ALPHA_SATURATE, OM_BF_CONST_COLOR, OM_BF_CONST_ALPHA, OM_BF_SRC1_COLOR,
    OM_BF_SRC1_ALPHA, OM_BF_ZERO, OM_BF_INV_SRC_COLOR, OM_BF_INV_SRC_ALPHA, OM_BF_INV_DST_ALPHA,
    OM_BF_INV_DST_COLOR, OM_BF_INV_CONST_COLOR, OM_BF_INV_CONST_ALPHA, OM_BF_INV_SRC1_COLOR,
    OM_BF_INV_SRC1_ALPHA};
#define NF (sizeof all_factors / sizeof all_factors[0])

/* The reference: GL's table 17.2, in double. */
static double ref_factor(uint8_t f, int c, const double s[4], const double s1[4],
                         const double d[4], const double k[4])
{
    switch (f) {
    case OM_BF_ZERO: return 0;
    case OM_BF_ONE: return 1;
    case OM_BF_SRC_COLOR: return s[c];
    case OM_BF_INV_SRC_COLOR: return 1 - s[c];
    case OM_BF_DST_COLOR: return d[c];
    case OM_BF_INV_DST_COLOR: return 1 - d[c];
    case OM_BF_SRC_ALPHA: return s[3];
    case OM_BF_INV_SRC_ALPHA: return 1 - s[3];
    case OM_BF_DST_ALPHA: return d[3];
    case OM_BF_INV_DST_ALPHA: return 1 - d[3];
    case OM_BF_CONST_COLOR: return k[c];
    case OM_BF_INV_CONST_COLOR: return 1 - k[c];
    case OM_BF_CONST_ALPHA: return k[3];
    case OM_BF_INV_CONST_ALPHA: return 1 - k[3];
    case OM_BF_SRC_ALPHA_SATURATE: return c == 3 ? 1 : (s[3] < 1 - d[3] ? s[3] : 1 - d[3]);
    case OM_BF_SRC1_COLOR: return s1[c];
    case OM_BF_INV_SRC1_COLOR: return 1 - s1[c];
    case OM_BF_SRC1_ALPHA: return s1[3];
    case OM_BF_INV_SRC1_ALPHA: return 1 - s1[3];
    }
    fail_msg("factor %u has no reference", f);
    return 0;
}

static double clampd(double x, double lo, double hi)
{
    return x < lo ? lo : x > hi ? hi : x;
}

static double ref_blend(uint8_t func, uint8_t sf, uint8_t df, int c, bool fixed, double lo,
                        const double s[4], const double s1[4], const double d[4],
                        const double k[4])
{
    double a = ref_factor(sf, c, s, s1, d, k), b = ref_factor(df, c, s, s1, d, k);
    if (fixed) {
        a = clampd(a, lo, 1);
        b = clampd(b, lo, 1);
    }
    double r;
    switch (func) {
    case OM_BLEND_ADD: r = s[c] * a + d[c] * b; break;
    case OM_BLEND_SUBTRACT: r = s[c] * a - d[c] * b; break;
    case OM_BLEND_REVERSE_SUBTRACT: r = d[c] * b - s[c] * a; break;
    case OM_BLEND_MIN: r = s[c] < d[c] ? s[c] : d[c]; break;
    default: r = s[c] > d[c] ? s[c] : d[c]; break;
    }
    return fixed ? clampd(r, lo, 1) : r;
}

static float rnd(unsigned *seed, float lo, float hi)
{
    *seed = *seed * 1103515245u + 12345u;
    return lo + (hi - lo) * (float)((*seed >> 8) & 0xffffff) / 16777215.0f;
}

/* Every factor pair as RGB and as alpha factors, every equation, three target classes. */
static void test_every_factor_and_equation(void **state)
{
    (void)state;
    unsigned seed = 1, checked = 0;
    const om_class classes[3] = {OM_CLASS_FLOAT, OM_CLASS_UNORM, OM_CLASS_SNORM};
    for (unsigned ci = 0; ci < 3; ci++) {
        om_class cls = classes[ci];
        bool fixed = cls != OM_CLASS_FLOAT;
        double lo = cls == OM_CLASS_SNORM ? -1 : 0;
        for (unsigned func = 0; func < OM_BLEND_COUNT; func++)
            for (unsigned i = 0; i < NF; i++)
                for (unsigned j = 0; j < NF; j++) {
                    om_rt_blend rt = {true, (uint8_t)func, all_factors[i], all_factors[j],
                                      (uint8_t)func, all_factors[j], all_factors[i], 15};
                    float s0[4], s1[4], d[4], k[4], out[4];
                    double S0[4], S1[4], D[4], K[4];
                    for (int c = 0; c < 4; c++) {
                        /* outside the fixed-point range too, to exercise the clamps */
                        s0[c] = rnd(&seed, -1.5f, 2.0f);
                        s1[c] = rnd(&seed, -1.5f, 2.0f);
                        d[c] = rnd(&seed, -1.5f, 2.0f);
                        k[c] = rnd(&seed, -1.5f, 2.0f);
                        S0[c] = fixed ? clampd(s0[c], lo, 1) : s0[c];
                        S1[c] = fixed ? clampd(s1[c], lo, 1) : s1[c];
                        D[c] = fixed ? clampd(d[c], lo, 1) : d[c];
                        K[c] = fixed ? clampd(k[c], lo, 1) : k[c];
                    }
                    om_blend_color(&rt, cls, s0, s1, d, k, out);
                    for (int c = 0; c < 4; c++) {
                        bool a = c == 3;
                        double want = ref_blend((uint8_t)func, a ? rt.alpha_src_factor
                                                                 : rt.rgb_src_factor,
                                                a ? rt.alpha_dst_factor : rt.rgb_dst_factor, c,
                                                fixed, lo, S0, S1, D, K);
                        /* float32 arithmetic: two products and a sum, each rounded */
                        if (fabs(out[c] - want) > 4e-7 * (fabs(want) + 8.0))
                            fail_msg("class %u func %u factors %s/%s channel %d: %.9g, "
                                     "reference %.9g", ci, func, om_factor_name(all_factors[i]),
                                     om_factor_name(all_factors[j]), c, (double)out[c], want);
                        checked++;
                    }
                }
    }
    assert_int_equal(checked, 3 * OM_BLEND_COUNT * NF * NF * 4);
}

/* Worked by hand. */
static void test_hand_cases(void **state)
{
    (void)state;
    float out[4];
    const float zero[4] = {0, 0, 0, 0};
    /* classic alpha blending: (1,0,0,.25) over (0,0,1,1): rgb .25 s + .75 d, a .25*.25+.75 */
    om_rt_blend over = {true, OM_BLEND_ADD, OM_BF_SRC_ALPHA, OM_BF_INV_SRC_ALPHA,
                        OM_BLEND_ADD, OM_BF_SRC_ALPHA, OM_BF_INV_SRC_ALPHA, 15};
    const float s[4] = {1, 0, 0, 0.25f}, d[4] = {0, 0, 1, 1};
    om_blend_color(&over, OM_CLASS_UNORM, s, zero, d, zero, out);
    assert_true(out[0] == 0.25f && out[1] == 0 && out[2] == 0.75f && out[3] == 0.8125f);
    /* SRC_ALPHA_SATURATE: min(As = .75, 1 - Ad = .5) = .5 for RGB, 1 for alpha */
    om_rt_blend sat = {true, OM_BLEND_ADD, OM_BF_SRC_ALPHA_SATURATE, OM_BF_ZERO,
                       OM_BLEND_ADD, OM_BF_SRC_ALPHA_SATURATE, OM_BF_ZERO, 15};
    const float s2[4] = {0.5f, 1, 0.25f, 0.75f}, d2[4] = {0, 0, 0, 0.5f};
    om_blend_color(&sat, OM_CLASS_FLOAT, s2, zero, d2, zero, out);
    assert_true(out[0] == 0.25f && out[1] == 0.5f && out[2] == 0.125f && out[3] == 0.75f);
    /* dual source: src * src1 + dst * (1 - src1) */
    om_rt_blend dual = {true, OM_BLEND_ADD, OM_BF_SRC1_COLOR, OM_BF_INV_SRC1_COLOR,
                        OM_BLEND_ADD, OM_BF_ONE, OM_BF_ZERO, 15};
    const float s3[4] = {1, 1, 1, 1}, s31[4] = {0.25f, 0.5f, 1, 0}, d3[4] = {0, 0.5f, 0, 0};
    om_blend_color(&dual, OM_CLASS_UNORM, s3, s31, d3, zero, out);
    assert_true(out[0] == 0.25f && out[1] == 0.75f && out[2] == 1 && out[3] == 1);
    /* float targets are not clamped: 3 + 2 = 5; UNORM: min(1, 1) = 1 */
    om_rt_blend add = {true, OM_BLEND_ADD, OM_BF_ONE, OM_BF_ONE, OM_BLEND_ADD, OM_BF_ONE,
                       OM_BF_ONE, 15};
    const float s4[4] = {3, -2, 0, 0}, d4[4] = {2, 0.5f, 0, 0};
    om_blend_color(&add, OM_CLASS_FLOAT, s4, zero, d4, zero, out);
    assert_true(out[0] == 5 && out[1] == -1.5f);
    om_blend_color(&add, OM_CLASS_UNORM, s4, zero, d4, zero, out);
    assert_true(out[0] == 1 && out[1] == 0.5f);   /* -2 clamps to 0 before the sum */
    /* MIN/MAX ignore the factors */
    om_rt_blend mn = {true, OM_BLEND_MIN, OM_BF_ZERO, OM_BF_ZERO, OM_BLEND_MAX, OM_BF_ZERO,
                      OM_BF_ZERO, 15};
    const float s5[4] = {0.25f, 0.75f, 0, 0.5f}, d5[4] = {0.5f, 0.5f, 0, 0.25f};
    om_blend_color(&mn, OM_CLASS_UNORM, s5, zero, d5, zero, out);
    assert_true(out[0] == 0.25f && out[1] == 0.5f && out[3] == 0.5f);
}

static void test_compare_functions(void **state)
{
    (void)state;
    /* NEVER LESS EQUAL LEQUAL GREATER NOTEQUAL GEQUAL ALWAYS for a < b, a == b, a > b */
    static const bool want[8][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0},
                                    {0, 0, 1}, {1, 0, 1}, {0, 1, 1}, {1, 1, 1}};
    for (uint8_t f = 0; f < 8; f++) {
        assert_int_equal(om_compare_u(f, 1, 2), want[f][0]);
        assert_int_equal(om_compare_u(f, 2, 2), want[f][1]);
        assert_int_equal(om_compare_u(f, 3, 2), want[f][2]);
        assert_int_equal(om_compare_f(f, 0.25f, 0.5f), want[f][0]);
        assert_int_equal(om_compare_f(f, -0.0f, 0.0f), want[f][1]);
        assert_int_equal(om_compare_f(f, 1.0f, 0.5f), want[f][2]);
    }
}

static void test_logic_ops(void **state)
{
    (void)state;
    const uint32_t s = 0xff00f0f0u, d = 0xf0f0ff00u;
    const uint32_t want[16] = {0, ~(s | d), ~s & d, ~s, s & ~d, ~d, s ^ d, ~(s & d), s & d,
                               ~(s ^ d), d, ~s | d, s, s | ~d, s | d, 0xffffffffu};
    for (uint8_t op = 0; op < 16; op++)
        if (om_logic_op(op, s, d) != want[op])
            fail_msg("logic op %u: 0x%08x, want 0x%08x", op, om_logic_op(op, s, d), want[op]);
}

static void test_factor_table(void **state)
{
    (void)state;
    for (unsigned i = 0; i < NF; i++)
        assert_true(om_factor_valid(all_factors[i]));
    assert_false(om_factor_valid(0));
    assert_false(om_factor_valid(0x16));
    assert_false(om_factor_valid(0x1b));
    assert_true(om_factor_uses_src1(OM_BF_INV_SRC1_ALPHA));
    assert_false(om_factor_uses_src1(OM_BF_SRC_ALPHA));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_factor_and_equation),
        cmocka_unit_test(test_hand_cases),
        cmocka_unit_test(test_compare_functions),
        cmocka_unit_test(test_logic_ops),
        cmocka_unit_test(test_factor_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
