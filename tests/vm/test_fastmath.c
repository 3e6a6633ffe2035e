/* SIN/COS accuracy (src/vm/vm_fastmath.h, docs/vm-semantics.md §1): the polynomial against
 * libm's double sin/cos on a dense sample of floats in [-8192, 8192], and the SIN/COS
 * opcodes through the engine, libm's float results beyond the reduction range (Inf, NaN,
 * huge). */
#include <math.h>
#include <stdio.h>

#include "helper_vm.h"
#include "vm/vm_fastmath.h"

static double ulp_of(double v)
{
    float f = (float)fabs(v);
    return (double)nextafterf(f, INFINITY) - (double)f;
}

static void check_poly(uint32_t cosine)
{
    double max_abs = 0.0, max_ulp = 0.0;
    for (uint32_t b = 0; b <= 0x46000000u; b += 1009u) {   /* 0 .. 8192 */
        for (uint32_t sign = 0; sign < 2; sign++) {
            float x = tv_bits_f32(b | (sign << 31));
            double ref = cosine ? cos((double)x) : sin((double)x);
            double e = fabs((double)vm_sincos_lane(x, cosine) - ref);
            if (e > max_abs) max_abs = e;
            if (fabsf(x) <= 3.14159265f || fabs(ref) >= 1.0 / 256.0) {
                double u = e / ulp_of(ref);
                if (u > max_ulp) max_ulp = u;
            }
        }
    }
    printf("%s: max abs %.3g, max ulp %.3f\n", cosine ? "cos" : "sin", max_abs, max_ulp);
    assert_true(max_abs <= 0x1p-23);
    assert_true(max_ulp <= 2.0);
}

static void t_sin_poly(void **s) { (void)s; check_poly(0); }
static void t_cos_poly(void **s) { (void)s; check_poly(1); }

/* Exact values the polynomial must keep: sin(±0) = ±0, cos(0) = 1. */
static void t_exact_points(void **s)
{
    (void)s;
    assert_int_equal(tv_f32_bits(vm_sincos_lane(0.0f, 0)), 0u);
    assert_int_equal(tv_f32_bits(vm_sincos_lane(-0.0f, 0)), 0x80000000u);
    assert_true(vm_sincos_lane(0.0f, 1) == 1.0f);
    assert_true(vm_sincos_lane(1e-20f, 0) == 1e-20f);
}

/* Through the opcodes (scalar: .x replicated): 32 lanes mixing in-range values (tolerance) with lanes that go to
 * libm (bit-identical to sinf/cosf). */
static void t_opcodes(void **s)
{
    (void)s;
    enum { N = 32 };
    static const float X[N] = {0.0f, -0.0f, 1.0f, -1.0f, 3.14159265f, 100.25f, -2.5f, 8192.0f,
                               -8192.0f, 8192.5f, -9000.0f, 1e30f, -1e30f, INFINITY,
                               -INFINITY, NAN, 1e-40f, 0.5f, 7.0f, 123.456f, -4321.0f,
                               1.5707963f, 4.712389f, 6.2831855f, 1e5f, 3e9f, 0.1f, -0.3f,
                               50.0f, -60.0f, 2000.0f, 8191.99f};
    uint32_t a[N][4], z[N][4] = {{0}}, out[N][4];
    for (unsigned cosine = 0; cosine < 2; cosine++) {
        for (unsigned l = 0; l < N; l++)
            for (unsigned c = 0; c < 4; c++) a[l][c] = tv_f32_bits(X[l]);
        tv_error err;
        assert_int_equal(hv_op("", cosine ? "COS TEMP[3], TEMP[0]" : "SIN TEMP[3], TEMP[0]", N,
                               (const uint32_t (*)[4])a, (const uint32_t (*)[4])z,
                               (const uint32_t (*)[4])z, 0, out, &err), TV_OK);
        for (unsigned l = 0; l < N; l++)
            for (unsigned c = 0; c < 4; c++) {
                float x = X[l], got = tv_bits_f32(out[l][c]);
                if (!(fabsf(x) <= 8192.0f)) {
                    float want = cosine ? cosf(x) : sinf(x);
                    if (isnan(want)) assert_true(isnan(got));
                    else assert_int_equal(out[l][c], tv_f32_bits(want));
                } else {
                    double ref = cosine ? cos((double)x) : sin((double)x);
                    assert_true(fabs((double)got - ref) <= 0x1p-23);
                    /* the handler may run a wider-vector variant: still the same bits */
                    assert_int_equal(out[l][c], tv_f32_bits(vm_sincos_lane(x, cosine)));
                }
            }
    }
}

/* 256 lanes of pseudo-random arguments in [-64, 64): the opcode (whatever vector width the
 * machine runs) equals the scalar function bit for bit. */
static void t_wide_same_bits(void **s)
{
    (void)s;
    enum { N = 256 };
    static uint32_t a[N][4], z[N][4], out[N][4];
    uint32_t seed = 12345u;
    for (unsigned l = 0; l < N; l++)
        for (unsigned c = 0; c < 4; c++) {
            seed = seed * 1664525u + 1013904223u;
            a[l][c] = tv_f32_bits((float)(seed >> 8) / 131072.0f - 64.0f);
        }
    for (unsigned cosine = 0; cosine < 2; cosine++) {
        tv_error err;
        assert_int_equal(hv_op("", cosine ? "COS TEMP[3].x, TEMP[0].xxxx\nCOS TEMP[3].y, TEMP[0].yyyy"
                                          : "SIN TEMP[3].x, TEMP[0].xxxx\nSIN TEMP[3].y, TEMP[0].yyyy",
                               N, (const uint32_t (*)[4])a, (const uint32_t (*)[4])z,
                               (const uint32_t (*)[4])z, 0, out, &err), TV_OK);
        for (unsigned l = 0; l < N; l++)
            for (unsigned c = 0; c < 2; c++)
                assert_int_equal(out[l][c], tv_f32_bits(vm_sincos_lane(tv_bits_f32(a[l][c]), cosine)));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_sin_poly),
        cmocka_unit_test(t_cos_poly),
        cmocka_unit_test(t_exact_points),
        cmocka_unit_test(t_opcodes),
        cmocka_unit_test(t_wide_same_bits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
