/* Float opcodes: every per-channel, scalar and vec4 float op against plain C float
 * references over a grid of values including ±0, ±Inf, NaN, denormals; saturate, source
 * modifiers, write masks, swizzle aliasing and LEGACY_MATH_RULES. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "helper_vm.h"

static const float V[] = {0.0f, -0.0f, 1.0f, -1.0f, 0.5f, -2.5f, 3.75f, 1e30f,
                          -1e30f, INFINITY, -INFINITY, NAN, 1e-40f, 7.0f, 100.25f, -0.75f};
#define NV 16

static uint32_t U(float f) { return tv_f32_bits(f); }
static float F(uint32_t u) { return tv_bits_f32(u); }

/* Absolute tolerance of the approximate opcodes under test (SIN/COS: docs/vm-semantics.md
 * §1), 0 = bit-identical. */
static double tol;

static bool same(uint32_t got, uint32_t want)
{
    if (isnan(F(want)) && isnan(F(got)))
        return true;
    if (tol > 0.0 && fabs((double)F(got) - (double)F(want)) <= tol)
        return true;
    return got == want;
}

typedef uint32_t (*ref3)(uint32_t a, uint32_t b, uint32_t c);

/* Run `insn` over NV*NV lanes with a = V[i], b = V[j], c = V[(i+j)%NV] rotated per
 * component, and compare every component with ref. `scalar` = result replicated from .x. */
static void check(const char *extra, const char *insn, ref3 ref, bool scalar)
{
    enum { N = NV * NV };
    static uint32_t a[N][4], b[N][4], c[N][4], o[N][4];
    for (unsigned l = 0; l < N; l++)
        for (unsigned k = 0; k < 4; k++) {
            a[l][k] = U(V[(l / NV + k) % NV]);
            b[l][k] = U(V[(l % NV + 3 * k) % NV]);
            c[l][k] = U(V[(l / NV + l % NV + k) % NV]);
        }
    tv_error err;
    tv_status st = hv_op(extra, insn, N, (const uint32_t(*)[4])a, (const uint32_t(*)[4])b,
                         (const uint32_t(*)[4])c, 0, o, &err);
    if (st != TV_OK)
        fail_msg("%s: %s", insn, err.message);
    for (unsigned l = 0; l < N; l++)
        for (unsigned k = 0; k < 4; k++) {
            unsigned s = scalar ? 0 : k;
            uint32_t want = ref(a[l][s], b[l][s], c[l][s]);
            if (!same(o[l][k], want))
                fail_msg("%s lane %u comp %u: a=%g b=%g c=%g got %g (0x%08x) want %g (0x%08x)",
                         insn, l, k, F(a[l][s]), F(b[l][s]), F(c[l][s]), F(o[l][k]), o[l][k],
                         F(want), want);
        }
}

#define R3(name, expr)                                                                     \
    static uint32_t name(uint32_t ua, uint32_t ub, uint32_t uc)                            \
    {                                                                                      \
        float a = F(ua), b = F(ub), c = F(uc);                                             \
        (void)a; (void)b; (void)c;                                                         \
        return (expr);                                                                     \
    }

static float lm(float a, float b) { return (a == 0.0f || b == 0.0f) ? 0.0f : a * b; }
/* saturate: NaN and -0 give +0 (docs/vm-semantics.md §1) */
static float sat(float x) { return isnan(x) || x <= 0.0f ? 0.0f : (x > 1.0f ? 1.0f : x); }
static int32_t f2i(float x)
{
    if (isnan(x)) return 0;
    if (x >= 2147483648.0f) return INT32_MAX;
    if (x <= -2147483648.0f) return INT32_MIN;
    return (int32_t)x;
}
static uint32_t f2u(float x)
{
    if (isnan(x) || x <= 0.0f) return 0;
    if (x >= 4294967296.0f) return UINT32_MAX;
    return (uint32_t)x;
}
static float round_even(float x)
{
    if (!isfinite(x)) return x;
    float r = floorf(x), d = x - r;
    if (d > 0.5f || (d == 0.5f && fmodf(r, 2.0f) != 0.0f)) r += 1.0f;
    return (r == 0.0f) ? copysignf(0.0f, x) : r;
}

R3(r_add, U(a + b))
R3(r_mul, U(a * b))
R3(r_mul_legacy, U(lm(a, b)))
R3(r_div, U(a / b))
R3(r_mad, U(a * b + c))
R3(r_mad_legacy, U(lm(a, b) + c))
R3(r_lrp, U(a * b + (1.0f - a) * c))
R3(r_fma, U(fmaf(a, b, c)))
R3(r_min, U(isnan(a) ? b : isnan(b) ? a : (a < b ? a : (b < a ? b : (signbit(a) ? a : b)))))
R3(r_max, U(isnan(a) ? b : isnan(b) ? a : (a > b ? a : (b > a ? b : (signbit(a) ? b : a)))))
R3(r_slt, U(a < b ? 1.0f : 0.0f))
R3(r_sge, U(a >= b ? 1.0f : 0.0f))
R3(r_seq, U(a == b ? 1.0f : 0.0f))
R3(r_sgt, U(a > b ? 1.0f : 0.0f))
R3(r_sle, U(a <= b ? 1.0f : 0.0f))
R3(r_sne, U(a != b ? 1.0f : 0.0f))
R3(r_fseq, a == b ? ~0u : 0u)
R3(r_fsge, a >= b ? ~0u : 0u)
R3(r_fslt, a < b ? ~0u : 0u)
R3(r_fsne, a != b ? ~0u : 0u)
R3(r_frc, U(a - floorf(a)))
R3(r_flr, U(floorf(a)))
R3(r_ceil, U(ceilf(a)))
R3(r_trunc, U(truncf(a)))
R3(r_round, U(round_even(a)))
R3(r_ssg, U(a > 0 ? 1.0f : (a < 0 ? -1.0f : 0.0f)))
R3(r_cmp, a < 0.0f ? ub : uc)
R3(r_mov, ua)
R3(r_f2i, (uint32_t)f2i(a))
R3(r_f2u, f2u(a))
R3(r_i2f, U((float)(int32_t)ua))
R3(r_u2f, U((float)ua))
R3(r_add_sat, U(sat(a + b)))
R3(r_negabs, U(-a + fabsf(b)))
R3(r_rcp, U(1.0f / a))
R3(r_rsq, U(1.0f / sqrtf(a)))
R3(r_sqrt, U(sqrtf(a)))
R3(r_ex2, U(exp2f(a)))
R3(r_lg2, U(log2f(a)))
R3(r_pow, U(powf(a, b)))
/* SIN/COS: a polynomial, not libm (docs/vm-semantics.md §1: |error| <= 1.2e-7); the
 * reference is the double-precision function, compared with tolerance 2^-22 by
 * t_sin/t_cos */
R3(r_sin, U((float)sin((double)a)))
R3(r_cos, U((float)cos((double)a)))
R3(r_ldexp, U(ldexpf(a, (int32_t)ub > 400 ? 400 : ((int32_t)ub < -400 ? -400 : (int32_t)ub))))

#define T(name, insn, ref, sc)                                                             \
    static void name(void **s) { (void)s; check(NULL, insn, ref, sc); }
T(t_add, "ADD TEMP[3], TEMP[0], TEMP[1]", r_add, false)
T(t_mul, "MUL TEMP[3], TEMP[0], TEMP[1]", r_mul, false)
T(t_div, "DIV TEMP[3], TEMP[0], TEMP[1]", r_div, false)
T(t_mad, "MAD TEMP[3], TEMP[0], TEMP[1], TEMP[2]", r_mad, false)
T(t_lrp, "LRP TEMP[3], TEMP[0], TEMP[1], TEMP[2]", r_lrp, false)
T(t_fma, "FMA TEMP[3], TEMP[0], TEMP[1], TEMP[2]", r_fma, false)
T(t_min, "MIN TEMP[3], TEMP[0], TEMP[1]", r_min, false)
T(t_max, "MAX TEMP[3], TEMP[0], TEMP[1]", r_max, false)
T(t_slt, "SLT TEMP[3], TEMP[0], TEMP[1]", r_slt, false)
T(t_sge, "SGE TEMP[3], TEMP[0], TEMP[1]", r_sge, false)
T(t_seq, "SEQ TEMP[3], TEMP[0], TEMP[1]", r_seq, false)
T(t_sgt, "SGT TEMP[3], TEMP[0], TEMP[1]", r_sgt, false)
T(t_sle, "SLE TEMP[3], TEMP[0], TEMP[1]", r_sle, false)
T(t_sne, "SNE TEMP[3], TEMP[0], TEMP[1]", r_sne, false)
T(t_fseq, "FSEQ TEMP[3], TEMP[0], TEMP[1]", r_fseq, false)
T(t_fsge, "FSGE TEMP[3], TEMP[0], TEMP[1]", r_fsge, false)
T(t_fslt, "FSLT TEMP[3], TEMP[0], TEMP[1]", r_fslt, false)
T(t_fsne, "FSNE TEMP[3], TEMP[0], TEMP[1]", r_fsne, false)
T(t_frc, "FRC TEMP[3], TEMP[0]", r_frc, false)
T(t_flr, "FLR TEMP[3], TEMP[0]", r_flr, false)
T(t_ceil, "CEIL TEMP[3], TEMP[0]", r_ceil, false)
T(t_trunc, "TRUNC TEMP[3], TEMP[0]", r_trunc, false)
T(t_round, "ROUND TEMP[3], TEMP[0]", r_round, false)
T(t_ssg, "SSG TEMP[3], TEMP[0]", r_ssg, false)
T(t_cmp, "CMP TEMP[3], TEMP[0], TEMP[1], TEMP[2]", r_cmp, false)
T(t_mov, "MOV TEMP[3], TEMP[0]", r_mov, false)
T(t_f2i, "F2I TEMP[3], TEMP[0]", r_f2i, false)
T(t_f2u, "F2U TEMP[3], TEMP[0]", r_f2u, false)
T(t_i2f, "I2F TEMP[3], TEMP[0]", r_i2f, false)
T(t_u2f, "U2F TEMP[3], TEMP[0]", r_u2f, false)
T(t_add_sat, "ADD_SAT TEMP[3], TEMP[0], TEMP[1]", r_add_sat, false)
T(t_mods, "ADD TEMP[3], -TEMP[0], |TEMP[1]|", r_negabs, false)
T(t_rcp, "RCP TEMP[3], TEMP[0].xxxx", r_rcp, true)
T(t_rsq, "RSQ TEMP[3], TEMP[0].xxxx", r_rsq, true)
T(t_sqrt, "SQRT TEMP[3], TEMP[0].xxxx", r_sqrt, true)
T(t_ex2, "EX2 TEMP[3], TEMP[0].xxxx", r_ex2, true)
T(t_lg2, "LG2 TEMP[3], TEMP[0].xxxx", r_lg2, true)
T(t_pow, "POW TEMP[3], TEMP[0].xxxx, TEMP[1].xxxx", r_pow, true)
static void t_sin(void **s)
{
    (void)s;
    tol = 0x1p-22;
    check("", "SIN TEMP[3], TEMP[0].xxxx", r_sin, true);
    tol = 0.0;
}
static void t_cos(void **s)
{
    (void)s;
    tol = 0x1p-22;
    check("", "COS TEMP[3], TEMP[0].xxxx", r_cos, true);
    tol = 0.0;
}
T(t_precise, "ADD_PRECISE TEMP[3], TEMP[0], TEMP[1]", r_add, false)

static void t_legacy(void **s)
{
    (void)s;
    check("PROPERTY LEGACY_MATH_RULES 1\n", "MUL TEMP[3], TEMP[0], TEMP[1]", r_mul_legacy, false);
    check("PROPERTY LEGACY_MATH_RULES 1\n", "MAD TEMP[3], TEMP[0], TEMP[1], TEMP[2]",
          r_mad_legacy, false);
}

static void t_ldexp(void **s)
{
    (void)s;
    uint32_t a[4] = {U(1.5f), U(-3.0f), U(1.0f), U(2.0f)};
    uint32_t b[4] = {3, (uint32_t)-2, 200, (uint32_t)-200};
    uint32_t o[4];
    hv_op1("LDEXP TEMP[3], TEMP[0], TEMP[1]", a, b, NULL, o);
    for (int k = 0; k < 4; k++)
        assert_true(same(o[k], r_ldexp(a[k], b[k], 0)));
    assert_true(F(o[0]) == 12.0f);
    assert_true(F(o[1]) == -0.75f);
    assert_true(isinf(F(o[2])));
    assert_true(F(o[3]) == 0.0f);
}

/* Dot products, with and without LEGACY_MATH_RULES (0 * Inf = 0). */
static void t_dot(void **s)
{
    (void)s;
    uint32_t a[4] = {U(1.0f), U(2.0f), U(3.0f), U(4.0f)};
    uint32_t b[4] = {U(5.0f), U(-6.0f), U(7.0f), U(0.5f)};
    uint32_t o[4];
    hv_op1("DP2 TEMP[3], TEMP[0], TEMP[1]", a, b, NULL, o);
    for (int k = 0; k < 4; k++) assert_true(F(o[k]) == 1.0f * 5.0f + 2.0f * -6.0f);
    hv_op1("DP3 TEMP[3], TEMP[0], TEMP[1]", a, b, NULL, o);
    for (int k = 0; k < 4; k++) assert_true(F(o[k]) == 5.0f - 12.0f + 21.0f);
    hv_op1("DP4 TEMP[3].yw, TEMP[0], TEMP[1]", a, b, NULL, o);
    assert_true(F(o[1]) == 5.0f - 12.0f + 21.0f + 2.0f && F(o[3]) == F(o[1]));
    assert_int_equal(o[0], 0);
    assert_int_equal(o[2], 0);
    uint32_t z[4] = {U(0.0f), U(1.0f), U(1.0f), U(1.0f)};
    uint32_t inf[4] = {U(INFINITY), U(1.0f), U(1.0f), U(1.0f)};
    uint32_t O[1][4];
    tv_error err;
    assert_int_equal(hv_op("PROPERTY LEGACY_MATH_RULES 1\n", "DP4 TEMP[3], TEMP[0], TEMP[1]",
                           1, (const uint32_t(*)[4])z, (const uint32_t(*)[4])inf, NULL, 0, O,
                           &err), TV_OK);
    assert_true(F(O[0][0]) == 3.0f);
    hv_op1("DP4 TEMP[3], TEMP[0], TEMP[1]", z, inf, NULL, o);
    assert_true(isnan(F(o[0])));
}

static void t_lit_exp_log_dst(void **s)
{
    (void)s;
    uint32_t a[4] = {U(0.5f), U(0.25f), U(0.0f), U(2.0f)};
    uint32_t o[4];
    hv_op1("LIT TEMP[3], TEMP[0]", a, NULL, NULL, o);
    assert_true(F(o[0]) == 1.0f && F(o[1]) == 0.5f && F(o[2]) == powf(0.25f, 2.0f) &&
                F(o[3]) == 1.0f);
    uint32_t n[4] = {U(-1.0f), U(0.25f), U(0.0f), U(2.0f)};
    hv_op1("LIT TEMP[3], TEMP[0]", n, NULL, NULL, o);
    assert_true(F(o[1]) == 0.0f && F(o[2]) == 0.0f);
    uint32_t e[4] = {U(2.75f), 0, 0, 0};
    hv_op1("EXP TEMP[3], TEMP[0].xxxx", e, NULL, NULL, o);
    assert_true(F(o[0]) == 4.0f && F(o[1]) == 0.75f && F(o[2]) == exp2f(2.75f) &&
                F(o[3]) == 1.0f);
    uint32_t g[4] = {U(-12.0f), 0, 0, 0};
    hv_op1("LOG TEMP[3], TEMP[0].xxxx", g, NULL, NULL, o);
    assert_true(F(o[0]) == 3.0f && F(o[1]) == 1.5f && F(o[2]) == log2f(12.0f) &&
                F(o[3]) == 1.0f);
    uint32_t d0[4] = {U(9.0f), U(2.0f), U(3.0f), U(9.0f)};
    uint32_t d1[4] = {U(9.0f), U(5.0f), U(9.0f), U(7.0f)};
    hv_op1("DST TEMP[3], TEMP[0], TEMP[1]", d0, d1, NULL, o);
    assert_true(F(o[0]) == 1.0f && F(o[1]) == 10.0f && F(o[2]) == 3.0f && F(o[3]) == 7.0f);
}

/* Writemask keeps other channels; swizzled self-reads see the values from before. */
static void t_mask_alias(void **s)
{
    (void)s;
    uint32_t a[4] = {U(1.0f), U(2.0f), U(3.0f), U(4.0f)};
    uint32_t o[4];
    hv_op1("ADD TEMP[3].xz, TEMP[0], TEMP[0]", a, NULL, NULL, o);
    assert_true(F(o[0]) == 2.0f && o[1] == 0 && F(o[2]) == 6.0f && o[3] == 0);
    hv_op1("MOV TEMP[0].xyzw, TEMP[0].wzyx\nMOV TEMP[3], TEMP[0]", a, NULL, NULL, o);
    assert_true(F(o[0]) == 4.0f && F(o[1]) == 3.0f && F(o[2]) == 2.0f && F(o[3]) == 1.0f);
    hv_op1("ADD TEMP[0].xy, TEMP[0].yxxx, TEMP[0].xxxx\nMOV TEMP[3], TEMP[0]", a, NULL, NULL,
           o);
    assert_true(F(o[0]) == 3.0f && F(o[1]) == 2.0f && F(o[2]) == 3.0f);
    hv_op1("RCP TEMP[0].yz, TEMP[0].wwww\nMOV TEMP[3], TEMP[0]", a, NULL, NULL, o);
    assert_true(F(o[0]) == 1.0f && F(o[1]) == 0.25f && F(o[2]) == 0.25f && F(o[3]) == 4.0f);
    /* saturate + negate on one channel */
    hv_op1("MOV_SAT TEMP[3], -TEMP[0].xxxx", a, NULL, NULL, o);
    for (int k = 0; k < 4; k++) assert_int_equal(o[k], U(0.0f));
}

static void t_arl_indirect(void **s)
{
    (void)s;
    /* ARL floors; the address selects TEMP[5 + ADDR] per lane */
    uint32_t a[4] = {U(1.7f), U(-0.5f), 0, 0};
    uint32_t o[4];
    hv_op1("IMM[1] FLT32 {10.0, 20.0, 30.0, 40.0}\n"
           "MOV TEMP[5], IMM[1].xxxx\nMOV TEMP[6], IMM[1].yyyy\nMOV TEMP[7], IMM[1].zzzz\n"
           "ARL ADDR[0].xy, TEMP[0]\n"
           "MOV TEMP[3].x, TEMP[ADDR[0].x+5].xxxx\n"
           "MOV TEMP[3].y, TEMP[ADDR[0].y+6].yyyy\n", a, NULL, NULL, o);
    assert_true(F(o[0]) == 20.0f);
    assert_true(F(o[1]) == 10.0f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_add), cmocka_unit_test(t_mul), cmocka_unit_test(t_div),
        cmocka_unit_test(t_mad), cmocka_unit_test(t_lrp), cmocka_unit_test(t_fma),
        cmocka_unit_test(t_min), cmocka_unit_test(t_max), cmocka_unit_test(t_slt),
        cmocka_unit_test(t_sge), cmocka_unit_test(t_seq), cmocka_unit_test(t_sgt),
        cmocka_unit_test(t_sle), cmocka_unit_test(t_sne), cmocka_unit_test(t_fseq),
        cmocka_unit_test(t_fsge), cmocka_unit_test(t_fslt), cmocka_unit_test(t_fsne),
        cmocka_unit_test(t_frc), cmocka_unit_test(t_flr), cmocka_unit_test(t_ceil),
        cmocka_unit_test(t_trunc), cmocka_unit_test(t_round), cmocka_unit_test(t_ssg),
        cmocka_unit_test(t_cmp), cmocka_unit_test(t_mov), cmocka_unit_test(t_f2i),
        cmocka_unit_test(t_f2u), cmocka_unit_test(t_i2f), cmocka_unit_test(t_u2f),
        cmocka_unit_test(t_add_sat), cmocka_unit_test(t_mods), cmocka_unit_test(t_rcp),
        cmocka_unit_test(t_rsq), cmocka_unit_test(t_sqrt), cmocka_unit_test(t_ex2),
        cmocka_unit_test(t_lg2), cmocka_unit_test(t_pow), cmocka_unit_test(t_sin),
        cmocka_unit_test(t_cos), cmocka_unit_test(t_precise), cmocka_unit_test(t_legacy),
        cmocka_unit_test(t_ldexp), cmocka_unit_test(t_dot), cmocka_unit_test(t_lit_exp_log_dst),
        cmocka_unit_test(t_mask_alias), cmocka_unit_test(t_arl_indirect),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
