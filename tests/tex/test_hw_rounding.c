/* The hardware precision's arithmetic at its edges (src/tex/tex_hw.c), expected values by
 * hand: the sums' rounding (ties away from zero, a remainder beyond the tie, half
 * precision, overflow, subnormals, signed zeros, NaN and infinities), the 8-bit
 * quantisation of UNORM taps and border colours, the weight split, and the coordinate and
 * λ roundings. tests/tex/test_hw_capture.c checks the same rules against the GPU on
 * ordinary values. */
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "tex/tex_sampling.h"

static uint32_t bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static float sum(bool half, unsigned n, ...)
{
    double p[8];
    va_list ap;
    va_start(ap, n);
    for (unsigned i = 0; i < n; i++)
        p[i] = va_arg(ap, double);
    va_end(ap);
    return tex_hw_round_sum(p, n, half);
}

static void test_sum_ties_and_remainders(void **state)
{
    (void)state;
    /* 1 + 2^-24 lies halfway between 1 and 1 + 2^-23: away from zero */
    assert_true(sum(false, 2, 1.0, 0x1p-24) == 1.0f + 0x1p-23f);
    assert_true(sum(false, 2, -1.0, -0x1p-24) == -1.0f - 0x1p-23f);
    /* a remainder below or above the tie decides it */
    assert_true(sum(false, 3, 1.0, 0x1p-24, -0x1p-80) == 1.0f);
    assert_true(sum(false, 3, 1.0, 0x1p-24, 0x1p-80) == 1.0f + 0x1p-23f);
    /* not a tie: to nearest */
    assert_true(sum(false, 2, 1.0, 0x1.8p-24) == 1.0f + 0x1p-23f);
    assert_true(sum(false, 2, 1.0, 0x1p-25) == 1.0f);
    /* half precision: 1 + 2^-11 is a tie (ulp 2^-10), 1 + 2^-12 rounds down */
    assert_true(sum(true, 2, 1.0, 0x1p-11) == 1.0f + 0x1p-10f);
    assert_true(sum(true, 2, 1.0, 0x1p-12) == 1.0f);
    assert_true(sum(true, 1, 0.1) == 0x1.998p-4f); /* 0.0999755859375, the nearest half */
}

static void test_sum_range(void **state)
{
    (void)state;
    /* half: 65504 is the largest; 65520 is the tie with 65536, which overflows */
    assert_true(sum(true, 2, 65504.0, 15.0) == 65504.0f);
    assert_true(isinf(sum(true, 2, 65504.0, 16.0)));
    /* float: FLT_MAX plus half its ulp (2^103) is the tie with 2^128 */
    assert_true(sum(false, 2, (double)FLT_MAX, 0x1p102) == FLT_MAX);
    assert_true(isinf(sum(false, 2, (double)FLT_MAX, 0x1p103)));
    /* subnormals: 2^-150 is halfway between 0 and the least float: away */
    assert_true(sum(false, 1, 0x1p-150) == 0x1p-149f);
    assert_true(sum(false, 1, 0x1.8p-149) == 0x1p-148f);
    assert_true(sum(true, 1, 0x1p-25) == 0x1p-24f); /* half's least subnormal */
    assert_true(sum(true, 1, 0x1p-26) == 0.0f);
}

static void test_sum_specials(void **state)
{
    (void)state;
    assert_int_equal(bits(sum(false, 1, -0.0)), 0x80000000u);
    assert_int_equal(bits(sum(false, 2, -0.0, -0.0)), 0x80000000u);
    assert_int_equal(bits(sum(false, 2, -0.0, 0.0)), 0u);
    assert_true(isnan(sum(false, 2, (double)NAN, 1.0)));
    assert_true(isnan(sum(false, 2, (double)INFINITY, -(double)INFINITY)));
    assert_true(sum(false, 2, (double)INFINITY, 1.0) == INFINITY);
    assert_true(sum(false, 0) == 0.0f);
}

static void test_unorm16(void **state)
{
    (void)state;
    /* a byte t as 257·t, from t/255 */
    for (unsigned t = 0; t < 256; t++)
        assert_int_equal(tex_hw_unorm16((float)t / 255.0f), 257u * t);
    /* border colours: truncated to 16 fraction bits, 255·b rounded half down */
    assert_int_equal(tex_hw_unorm16(0.25f), 257u * 64);  /* 63.75 */
    assert_int_equal(tex_hw_unorm16(0.5f), 257u * 127);  /* 127.5 */
    assert_int_equal(tex_hw_unorm16(0.75f), 257u * 191); /* 191.25 */
    assert_int_equal(tex_hw_unorm16(1.0f), 65535u);
    assert_int_equal(tex_hw_unorm16(2.0f), 65535u);
    assert_int_equal(tex_hw_unorm16(-1.0f), 0u);
    assert_int_equal(tex_hw_unorm16(NAN), 0u);
    /* the sum's value: round(k / 256) ties up, / 65535 */
    assert_true(tex_hw_unorm16_sum(256u * 65535u) == 1.0f);
    assert_true(tex_hw_unorm16_sum(128u) == 1.0f / 65535.0f); /* 0.5 up to 1 */
    assert_true(tex_hw_unorm16_sum(127u) == 0.0f);
}

static void test_weights(void **state)
{
    (void)state;
    uint32_t w[4];
    /* a = 128, b = 31: X = 128, w11 = r(15.5) = 16, w00 = r(112.5) = 113 */
    tex_hw_weights_2d(128, 31, 256, w);
    assert_int_equal(w[0], 113);
    assert_int_equal(w[1], 112);
    assert_int_equal(w[2], 15);
    assert_int_equal(w[3], 16);
    /* a trilinear share m = 33 with a = 221, b = 142: X = r(28.49) = 28, w11 = r(15.53)
     * = 16, w00 = r(2.19) = 2 */
    tex_hw_weights_2d(221, 142, 33, w);
    assert_int_equal(w[0], 2);
    assert_int_equal(w[1], 12);
    assert_int_equal(w[2], 3);
    assert_int_equal(w[3], 16);
    for (uint32_t a = 0; a < 256; a += 5)
        for (uint32_t b = 0; b < 256; b += 7)
            for (uint32_t m = 1; m <= 256; m += 17) {
                tex_hw_weights_2d(a, b, m, w);
                assert_int_equal(w[0] + w[1] + w[2] + w[3], m);
            }
    assert_int_equal(tex_hw_split(128, 1), 1); /* 0.5: up */
    assert_int_equal(tex_hw_split(127, 1), 0);
}

static void test_coord_and_lod(void **state)
{
    (void)state;
    assert_true(tex_hw_coord(1.5f / 256) == 2.0f / 256);  /* a tie: up */
    assert_true(tex_hw_coord(2.5f / 256) == 3.0f / 256);  /* up, not to even */
    assert_true(tex_hw_coord(-1.5f / 256) == -1.0f / 256);
    assert_int_equal(bits(tex_hw_coord(-0.5f / 256)), 0u); /* up to +0 */
    assert_true(tex_hw_coord(1.25f / 256) == 1.0f / 256);
    assert_true(tex_hw_coord(0x1p30f) == 0x1p30f);
    assert_true(isnan(tex_hw_coord(NAN)));
    assert_true(tex_hw_lod(0.999f / 256) == 0.0f);
    assert_true(tex_hw_lod(-0.001f) == -1.0f / 256); /* truncation toward -inf */
    assert_true(tex_hw_lod(0.3f) == 76.0f / 256);
    assert_true(tex_hw_lod(-INFINITY) == -INFINITY);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sum_ties_and_remainders), cmocka_unit_test(test_sum_range),
        cmocka_unit_test(test_sum_specials),            cmocka_unit_test(test_unorm16),
        cmocka_unit_test(test_weights),                 cmocka_unit_test(test_coord_and_lod),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
