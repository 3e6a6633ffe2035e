/* util/half: FP16, UF11/UF10 and RGB9E5 against float64 references written here. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "util/half.h"

/* exact value of a small float: sign (optional), 5-bit exponent, m mantissa bits */
static double small_value(uint32_t v, int mb, bool has_sign)
{
    uint32_t s = has_sign ? (v >> (5 + mb)) & 1 : 0;
    uint32_t e = (v >> mb) & 31, m = v & ((1u << mb) - 1);
    double x = e == 0 ? ldexp((double)m, -14 - mb) : ldexp(1.0 + (double)m / (1 << mb), (int)e - 15);
    if (e == 31)
        x = m ? NAN : INFINITY;
    return s ? -x : x;
}

static void half_decode_exhaustive(void **state)
{
    (void)state;
    for (uint32_t h = 0; h < 65536; h++) {
        float f = tv_half_to_float((uint16_t)h);
        double want = small_value(h, 10, true);
        if (isnan(want)) {
            assert_true(isnan(f));
            assert_int_equal(tv_f32_bits(f) >> 31, h >> 15);
            assert_int_equal(tv_float_to_half(f) & 0x7e00, 0x7e00);   /* stays NaN */
            continue;
        }
        assert_true((double)f == want);
        assert_int_equal(signbit(f) != 0, (h >> 15) != 0);
        assert_int_equal(tv_float_to_half(f), h);                        /* round trip */
    }
}

/* Encode: the nearest half (ties to even), found by searching the exact values. */
static uint16_t ref_to_half(float f)
{
    double x = f, ax = fabs(x);
    uint16_t sign = signbit(f) ? 0x8000 : 0;
    if (isnan(x))
        return 0x7e00;
    if (ax >= 65520.0)                      /* halfway between 65504 and 2^16 rounds up */
        return sign | 0x7c00;
    uint32_t best = 0;
    double bestd = INFINITY;
    for (uint32_t h = 0; h < 0x7c00; h++) {
        double d = fabs(small_value(h, 10, false) - ax);
        if (d < bestd || (d == bestd && (h & 1) == 0)) {
            bestd = d;
            best = h;
        }
    }
    return (uint16_t)(sign | best);
}

static void half_encode(void **state)
{
    (void)state;
    uint32_t seed = 99;
    for (int it = 0; it < 300; it++) {
        seed = seed * 1664525u + 1013904223u;
        /* floats spread over the half range, including the denormal range */
        float f = ldexpf((float)(seed >> 8) / (float)(1 << 24), (int)(seed % 44) - 28);
        if (seed & 0x80)
            f = -f;
        uint16_t got = tv_float_to_half(f), want = ref_to_half(f);
        if (got != want)
            fail_msg("%a: got %04x want %04x", (double)f, got, want);
    }
    /* exact ties */
    assert_int_equal(tv_float_to_half(1.0f + ldexpf(1, -11)), 0x3c00);
    assert_int_equal(tv_float_to_half(1.0f + 3 * ldexpf(1, -11)), 0x3c02);
    assert_int_equal(tv_float_to_half(ldexpf(1, -25)), 0x0000);
    assert_int_equal(tv_float_to_half(3 * ldexpf(1, -25)), 0x0002);
    assert_int_equal(tv_float_to_half(65504.0f), 0x7bff);
    assert_int_equal(tv_float_to_half(65519.0f), 0x7bff);
    assert_int_equal(tv_float_to_half(65520.0f), 0x7c00);
    assert_int_equal(tv_float_to_half(-INFINITY), 0xfc00);
    assert_int_equal(tv_float_to_half(-0.0f), 0x8000);
    assert_int_equal(tv_float_to_half(1e-30f), 0x0000);
}

static void ufloat_exhaustive(void **state)
{
    (void)state;
    for (int mb = 5; mb <= 6; mb++)
        for (uint32_t v = 0; v < (32u << mb); v++) {
            float f = tv_ufloat_to_float(v, (unsigned)mb);
            double want = small_value(v, mb, false);
            if (isnan(want)) {
                assert_true(isnan(f));
                continue;
            }
            assert_true((double)f == want);
            assert_int_equal(tv_float_to_ufloat(f, (unsigned)mb), v);
        }
    assert_true(tv_uf11_to_float(15u << 6) == 1.0f);
    assert_true(tv_uf11_to_float((30u << 6) | 63) == 65024.0f);
    assert_true(tv_uf10_to_float(1) == ldexpf(1, -19));
    assert_int_equal(tv_float_to_ufloat(-1.0f, 6), 0);
    assert_int_equal(tv_float_to_ufloat(1e9f, 6), 31u << 6);
    assert_int_equal(tv_float_to_ufloat(NAN, 5) >> 5, 31);
}

static void rgb9e5(void **state)
{
    (void)state;
    float rgb[3];
    tv_rgb9e5_to_float(0x999320c8u, rgb);
    assert_true(rgb[0] == 6.25f && rgb[1] == 12.5f && rgb[2] == 3.125f);
    assert_int_equal(tv_float_to_rgb9e5(rgb), 0x999320c8u);
    float zero[3] = {0, -1, NAN};
    assert_int_equal(tv_float_to_rgb9e5(zero), 0);
    float big[3] = {1e10f, 0, 0};
    uint32_t v = tv_float_to_rgb9e5(big);
    tv_rgb9e5_to_float(v, rgb);
    assert_true(rgb[0] == 65408.0f);   /* 511/512 * 2^16 */
    /* decode . encode is the identity on canonical encodings (max mantissa >= 256 or e = 0) */
    for (uint32_t e = 0; e < 32; e++)
        for (uint32_t m = 0; m < 512; m += 7) {
            uint32_t code = e << 27 | m | ((m / 2) << 9) | ((m / 3) << 18);
            if (e > 0 && m < 256)
                continue;
            tv_rgb9e5_to_float(code, rgb);
            assert_int_equal(tv_float_to_rgb9e5(rgb), code);
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(half_decode_exhaustive),
        cmocka_unit_test(half_encode),
        cmocka_unit_test(ufloat_exhaustive),
        cmocka_unit_test(rgb9e5),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
