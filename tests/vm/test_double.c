/* Double and 64-bit integer opcodes in channel pairs (xy, zw), every conversion, against
 * plain C double/int64 references; plus PK/UP pack opcodes as exact inverses. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "helper_vm.h"

static void putd(uint32_t v[4], double x, double y)
{
    uint64_t a, b;
    memcpy(&a, &x, 8);
    memcpy(&b, &y, 8);
    v[0] = (uint32_t)a; v[1] = (uint32_t)(a >> 32); v[2] = (uint32_t)b; v[3] = (uint32_t)(b >> 32);
}
static double getd(const uint32_t v[4], int p)
{
    uint64_t a = (uint64_t)v[2 * p] | ((uint64_t)v[2 * p + 1] << 32);
    double d;
    memcpy(&d, &a, 8);
    return d;
}
static void putq(uint32_t v[4], uint64_t x, uint64_t y)
{
    v[0] = (uint32_t)x; v[1] = (uint32_t)(x >> 32); v[2] = (uint32_t)y; v[3] = (uint32_t)(y >> 32);
}
static uint64_t getq(const uint32_t v[4], int p)
{
    return (uint64_t)v[2 * p] | ((uint64_t)v[2 * p + 1] << 32);
}
static bool dsame(double g, double w) { return (isnan(g) && isnan(w)) || memcmp(&g, &w, 8) == 0; }

static const double DV[] = {0.0, -0.0, 1.0, -1.5, 0.1, 3e300, -3e300, INFINITY, -INFINITY,
                            NAN, 4.9e-324, 2.5, -2.5, 1e10, 123.456, -7.0};
#define ND 16

typedef double (*dref)(double, double, double);

static void dcheck(const char *insn, dref ref)
{
    for (int i = 0; i < ND; i++)
        for (int j = 0; j < ND; j++) {
            uint32_t a[4], b[4], c[4], o[4];
            putd(a, DV[i], DV[j]);
            putd(b, DV[j], DV[(i + j) % ND]);
            putd(c, DV[(i + 3) % ND], DV[(j + 5) % ND]);
            hv_op1(insn, a, b, c, o);
            for (int p = 0; p < 2; p++) {
                double w = ref(getd(a, p), getd(b, p), getd(c, p));
                if (!dsame(getd(o, p), w))
                    fail_msg("%s pair %d: a=%g b=%g got %.17g want %.17g", insn, p, getd(a, p),
                             getd(b, p), getd(o, p), w);
            }
        }
}

#define DR(name, expr) static double name(double a, double b, double c) { (void)a; (void)b; (void)c; return (expr); }
DR(r_dadd, a + b)
DR(r_dmul, a * b)
DR(r_ddiv, a / b)
DR(r_dmad, a * b + c)
DR(r_dfma, fma(a, b, c))
DR(r_dabs, fabs(a))
DR(r_dneg, -a)
DR(r_drcp, 1.0 / a)
DR(r_dsqrt, sqrt(a))
DR(r_drsq, 1.0 / sqrt(a))
DR(r_dfrac, a - floor(a))
DR(r_dtrunc, trunc(a))
DR(r_dceil, ceil(a))
DR(r_dflr, floor(a))
DR(r_dround, nearbyint(a))
DR(r_dssg, a > 0 ? 1.0 : (a < 0 ? -1.0 : 0.0))
DR(r_dmin, isnan(a) ? b : isnan(b) ? a : (a < b ? a : b < a ? b : (signbit(a) ? a : b)))
DR(r_dmax, isnan(a) ? b : isnan(b) ? a : (a > b ? a : b > a ? b : (signbit(a) ? b : a)))
DR(r_dnegmod, -a + fabs(b))

#define DT(name, insn, ref) static void name(void **s) { (void)s; dcheck(insn, ref); }
DT(t_dadd, "DADD TEMP[3], TEMP[0], TEMP[1]", r_dadd)
DT(t_dmul, "DMUL TEMP[3], TEMP[0], TEMP[1]", r_dmul)
DT(t_ddiv, "DDIV TEMP[3], TEMP[0], TEMP[1]", r_ddiv)
DT(t_dmad, "DMAD TEMP[3], TEMP[0], TEMP[1], TEMP[2]", r_dmad)
DT(t_dfma, "DFMA TEMP[3], TEMP[0], TEMP[1], TEMP[2]", r_dfma)
DT(t_dabs, "DABS TEMP[3], TEMP[0]", r_dabs)
DT(t_dneg, "DNEG TEMP[3], TEMP[0]", r_dneg)
DT(t_drcp, "DRCP TEMP[3], TEMP[0]", r_drcp)
DT(t_dsqrt, "DSQRT TEMP[3], TEMP[0]", r_dsqrt)
DT(t_drsq, "DRSQ TEMP[3], TEMP[0]", r_drsq)
DT(t_dfrac, "DFRAC TEMP[3], TEMP[0]", r_dfrac)
DT(t_dtrunc, "DTRUNC TEMP[3], TEMP[0]", r_dtrunc)
DT(t_dceil, "DCEIL TEMP[3], TEMP[0]", r_dceil)
DT(t_dflr, "DFLR TEMP[3], TEMP[0]", r_dflr)
DT(t_dround, "DROUND TEMP[3], TEMP[0]", r_dround)
DT(t_dssg, "DSSG TEMP[3], TEMP[0]", r_dssg)
DT(t_dmin, "DMIN TEMP[3], TEMP[0], TEMP[1]", r_dmin)
DT(t_dmax, "DMAX TEMP[3], TEMP[0], TEMP[1]", r_dmax)
DT(t_dmods, "DADD TEMP[3], -TEMP[0], |TEMP[1]|", r_dnegmod)

static void t_dcmp(void **s)
{
    (void)s;
    static const char *ops[] = {"DSLT", "DSGE", "DSEQ", "DSNE"};
    for (int op = 0; op < 4; op++)
        for (int i = 0; i < ND; i++)
            for (int j = 0; j < ND; j++) {
                uint32_t a[4], b[4], o[4];
                char insn[64];
                putd(a, DV[i], DV[j]);
                putd(b, DV[j], DV[i]);
                snprintf(insn, sizeof insn, "%s TEMP[3].xz, TEMP[0], TEMP[1]", ops[op]);
                hv_op1(insn, a, b, NULL, o);
                for (int p = 0; p < 2; p++) {
                    double x = getd(a, p), y = getd(b, p);
                    bool r = op == 0 ? x < y : op == 1 ? x >= y : op == 2 ? x == y : x != y;
                    assert_int_equal(o[2 * p], r ? 0xffffffffu : 0u);
                }
            }
}

/* A double result written to zw alone comes from the sources' first doubles (what Mesa's
 * virgl TGSI relies on: `MOV TEMP[80].xy, TEMP[1].zwzw` then `DADD TEMP[2].zw, TEMP[80],
 * TEMP[81]`); with .xyzw both pairs as usual. */
static void t_dpair_zw(void **s)
{
    (void)s;
    uint32_t a[4], b[4], o[4];
    putd(a, 2.0, 100.0);
    putd(b, 3.0, 1000.0);
    hv_op1("DADD TEMP[3].zw, TEMP[0], TEMP[1]", a, b, NULL, o);
    assert_true(getd(o, 1) == 5.0);
    hv_op1("DADD TEMP[3], TEMP[0], TEMP[1]", a, b, NULL, o);
    assert_true(getd(o, 0) == 5.0 && getd(o, 1) == 1100.0);
    hv_op1("DADD TEMP[3].zw, TEMP[0].zwzw, TEMP[1].zwzw", a, b, NULL, o);
    assert_true(getd(o, 1) == 1100.0);
}

static void t_dconv(void **s)
{
    (void)s;
    uint32_t a[4], o[4];
    /* F2D: xy <- x, zw <- y */
    uint32_t f[4] = {tv_f32_bits(1.25f), tv_f32_bits(-3.5e30f), 0, 0};
    hv_op1("F2D TEMP[3], TEMP[0]", f, NULL, NULL, o);
    assert_true(getd(o, 0) == 1.25 && getd(o, 1) == (double)-3.5e30f);
    putd(a, 1.0 / 3.0, -1e300);
    hv_op1("D2F TEMP[3].xy, TEMP[0]", a, NULL, NULL, o);
    assert_true(tv_bits_f32(o[0]) == (float)(1.0 / 3.0));
    assert_true(isinf(tv_bits_f32(o[1])) && tv_bits_f32(o[1]) < 0);
    /* narrowing writes the k-th enabled channel from the k-th double (Mesa's TGSI writes
     * `D2F OUT[0].y, TEMP[2]` to convert TEMP[2].xy) */
    putd(a, 0.5, 8.0);
    hv_op1("D2F TEMP[3].y, TEMP[0]", a, NULL, NULL, o);
    assert_true(tv_bits_f32(o[1]) == 0.5f);
    hv_op1("D2F TEMP[3].zw, TEMP[0]", a, NULL, NULL, o);
    assert_true(tv_bits_f32(o[2]) == 0.5f && tv_bits_f32(o[3]) == 8.0f);
    hv_op1("D2F TEMP[3].xz, TEMP[0]", a, NULL, NULL, o);
    assert_true(tv_bits_f32(o[0]) == 0.5f && tv_bits_f32(o[2]) == 8.0f);
    uint32_t i[4] = {(uint32_t)-7, 0xffffffffu, 0, 0};
    hv_op1("I2D TEMP[3], TEMP[0]", i, NULL, NULL, o);
    assert_true(getd(o, 0) == -7.0 && getd(o, 1) == -1.0);
    hv_op1("U2D TEMP[3], TEMP[0]", i, NULL, NULL, o);
    assert_true(getd(o, 0) == 4294967289.0 && getd(o, 1) == 4294967295.0);
    putd(a, -2.9, 3e10);
    hv_op1("D2I TEMP[3].xy, TEMP[0]", a, NULL, NULL, o);
    assert_int_equal(o[0], (uint32_t)-2);
    assert_int_equal(o[1], 0x7fffffffu);           /* saturates */
    putd(a, NAN, -5.0);
    hv_op1("D2U TEMP[3].xy, TEMP[0]", a, NULL, NULL, o);
    assert_int_equal(o[0], 0);                     /* NaN -> 0 */
    assert_int_equal(o[1], 0);                     /* negative -> 0 */
    putd(a, 0.75, 0.0);
    uint32_t e[4] = {4, 0, (uint32_t)-1, 0};
    hv_op1("DLDEXP TEMP[3], TEMP[0], TEMP[1]", a, e, NULL, o);
    assert_true(getd(o, 0) == 12.0);
    hv_op1("DADD_SAT TEMP[3], TEMP[0], TEMP[0]", a, NULL, NULL, o);
    assert_true(getd(o, 0) == 1.0 && getd(o, 1) == 0.0);
}

/* ---- 64-bit integers ---- */
static const uint64_t QV[] = {0, 1, 2, 63, 64, 0x7fffffffffffffffull, 0x8000000000000000ull,
                              0xffffffffffffffffull, 0x123456789abcdef0ull, 100,
                              0xffffffffffffff9cull, 0x100000000ull};
#define NQ 12
static int64_t QS(uint64_t x) { int64_t r; memcpy(&r, &x, 8); return r; }

typedef uint64_t (*qref)(uint64_t, uint64_t);
static void qcheck(const char *insn, qref ref, bool cmp)
{
    for (int i = 0; i < NQ; i++)
        for (int j = 0; j < NQ; j++) {
            uint32_t a[4], b[4], o[4];
            putq(a, QV[i], QV[j]);
            putq(b, QV[j], QV[(i + j) % NQ]);
            hv_op1(insn, a, b, NULL, o);
            for (int p = 0; p < 2; p++) {
                uint64_t w = ref(getq(a, p), getq(b, p));
                uint64_t g = cmp ? o[2 * p] : getq(o, p);
                if (g != w)
                    fail_msg("%s pair %d: a=%llx b=%llx got %llx want %llx", insn, p,
                             (unsigned long long)getq(a, p), (unsigned long long)getq(b, p),
                             (unsigned long long)g, (unsigned long long)w);
            }
        }
}
#define QR(name, expr) static uint64_t name(uint64_t a, uint64_t b) { (void)a; (void)b; return (expr); }
QR(q_add, a + b)
QR(q_mul, a * b)
QR(q_udiv, b ? a / b : ~0ull)
QR(q_umod, b ? a % b : ~0ull)
QR(q_idiv, b == 0 ? 0 : (QS(b) == -1 ? 0 - a : (uint64_t)(QS(a) / QS(b))))
QR(q_imod, b == 0 ? ~0ull : (QS(b) == -1 ? 0 : (uint64_t)(QS(a) % QS(b))))
QR(q_imin, QS(a) < QS(b) ? a : b)
QR(q_umin, a < b ? a : b)
QR(q_imax, QS(a) > QS(b) ? a : b)
QR(q_umax, a > b ? a : b)
QR(q_seq, a == b ? 0xffffffffu : 0)
QR(q_sne, a != b ? 0xffffffffu : 0)
QR(q_islt, QS(a) < QS(b) ? 0xffffffffu : 0)
QR(q_uslt, a < b ? 0xffffffffu : 0)
QR(q_isge, QS(a) >= QS(b) ? 0xffffffffu : 0)
QR(q_usge, a >= b ? 0xffffffffu : 0)
QR(q_abs, QS(a) < 0 ? 0 - a : a)
QR(q_neg, 0 - a)
QR(q_ssg, QS(a) > 0 ? 1 : (QS(a) < 0 ? ~0ull : 0))

#define QT(name, insn, ref, cmp) static void name(void **s) { (void)s; qcheck(insn, ref, cmp); }
QT(t_u64add, "U64ADD TEMP[3], TEMP[0], TEMP[1]", q_add, false)
QT(t_u64mul, "U64MUL TEMP[3], TEMP[0], TEMP[1]", q_mul, false)
QT(t_u64div, "U64DIV TEMP[3], TEMP[0], TEMP[1]", q_udiv, false)
QT(t_u64mod, "U64MOD TEMP[3], TEMP[0], TEMP[1]", q_umod, false)
QT(t_i64div, "I64DIV TEMP[3], TEMP[0], TEMP[1]", q_idiv, false)
QT(t_i64mod, "I64MOD TEMP[3], TEMP[0], TEMP[1]", q_imod, false)
QT(t_i64min, "I64MIN TEMP[3], TEMP[0], TEMP[1]", q_imin, false)
QT(t_u64min, "U64MIN TEMP[3], TEMP[0], TEMP[1]", q_umin, false)
QT(t_i64max, "I64MAX TEMP[3], TEMP[0], TEMP[1]", q_imax, false)
QT(t_u64max, "U64MAX TEMP[3], TEMP[0], TEMP[1]", q_umax, false)
QT(t_u64seq, "U64SEQ TEMP[3].xz, TEMP[0], TEMP[1]", q_seq, true)
QT(t_u64sne, "U64SNE TEMP[3].xz, TEMP[0], TEMP[1]", q_sne, true)
QT(t_i64slt, "I64SLT TEMP[3].xz, TEMP[0], TEMP[1]", q_islt, true)
QT(t_u64slt, "U64SLT TEMP[3].xz, TEMP[0], TEMP[1]", q_uslt, true)
QT(t_i64sge, "I64SGE TEMP[3].xz, TEMP[0], TEMP[1]", q_isge, true)
QT(t_u64sge, "U64SGE TEMP[3].xz, TEMP[0], TEMP[1]", q_usge, true)
QT(t_i64abs, "I64ABS TEMP[3], TEMP[0]", q_abs, false)
QT(t_i64neg, "I64NEG TEMP[3], TEMP[0]", q_neg, false)
QT(t_i64ssg, "I64SSG TEMP[3], TEMP[0]", q_ssg, false)


static void t_shifts64(void **s)
{
    (void)s;
    for (uint32_t sh = 0; sh < 70; sh += 3) {
        uint32_t a[4], b[4] = {sh, sh + 1, 0, 0}, o[4];
        putq(a, 0x8123456789abcdefull, 0x00000000ffff0000ull);
        hv_op1("U64SHL TEMP[3], TEMP[0], TEMP[1]", a, b, NULL, o);
        assert_true(getq(o, 0) == 0x8123456789abcdefull << (sh & 63));
        assert_true(getq(o, 1) == 0x00000000ffff0000ull << ((sh + 1) & 63));
        hv_op1("U64SHR TEMP[3], TEMP[0], TEMP[1]", a, b, NULL, o);
        assert_true(getq(o, 0) == 0x8123456789abcdefull >> (sh & 63));
        hv_op1("I64SHR TEMP[3], TEMP[0], TEMP[1]", a, b, NULL, o);
        uint64_t want = 0x8123456789abcdefull >> (sh & 63);
        if (sh & 63) want |= ~0ull << (64 - (sh & 63));
        assert_true(getq(o, 0) == want);
    }
}

static void t_conv64(void **s)
{
    (void)s;
    uint32_t a[4], o[4];
    uint32_t f[4] = {tv_f32_bits(-3.75f), tv_f32_bits(1e20f), 0, 0};
    hv_op1("F2I64 TEMP[3], TEMP[0]", f, NULL, NULL, o);
    assert_true(QS(getq(o, 0)) == -3 && QS(getq(o, 1)) == INT64_MAX);
    hv_op1("F2U64 TEMP[3], TEMP[0]", f, NULL, NULL, o);
    assert_true(getq(o, 0) == 0 && getq(o, 1) == (uint64_t)1e20f);
    uint32_t i[4] = {(uint32_t)-5, 0x80000000u, 0, 0};
    hv_op1("I2I64 TEMP[3], TEMP[0]", i, NULL, NULL, o);
    assert_true(QS(getq(o, 0)) == -5 && QS(getq(o, 1)) == INT32_MIN);
    hv_op1("U2I64 TEMP[3], TEMP[0]", i, NULL, NULL, o);
    assert_true(getq(o, 0) == 0xfffffffbull && getq(o, 1) == 0x80000000ull);
    putd(a, -1e19, 1e19);
    hv_op1("D2I64 TEMP[3], TEMP[0]", a, NULL, NULL, o);
    assert_true(QS(getq(o, 0)) == INT64_MIN && QS(getq(o, 1)) == INT64_MAX);
    hv_op1("D2U64 TEMP[3], TEMP[0]", a, NULL, NULL, o);
    assert_true(getq(o, 0) == 0 && getq(o, 1) == 10000000000000000000ull);
    putq(a, 0xffffffffffffffffull, 12345);
    hv_op1("U642D TEMP[3], TEMP[0]", a, NULL, NULL, o);
    assert_true(getd(o, 0) == 18446744073709551615.0 && getd(o, 1) == 12345.0);
    hv_op1("I642D TEMP[3], TEMP[0]", a, NULL, NULL, o);
    assert_true(getd(o, 0) == -1.0);
    hv_op1("U642F TEMP[3].xy, TEMP[0]", a, NULL, NULL, o);
    assert_true(tv_bits_f32(o[0]) == 18446744073709551615.0f && tv_bits_f32(o[1]) == 12345.0f);
    hv_op1("I642F TEMP[3].xy, TEMP[0]", a, NULL, NULL, o);
    assert_true(tv_bits_f32(o[0]) == -1.0f);
}

/* ---- pack / unpack ---- */
static uint16_t half_ref(float f)   /* only for exactly representable test values */
{
    if (f == 0.0f) return signbit(f) ? 0x8000 : 0;
    if (isinf(f)) return f > 0 ? 0x7c00 : 0xfc00;
    int e;
    float m = frexpf(fabsf(f), &e);   /* f = m * 2^e, m in [0.5,1) */
    uint16_t sign = f < 0 ? 0x8000 : 0;
    int he = e - 1 + 15;
    uint16_t man = (uint16_t)((m * 2.0f - 1.0f) * 1024.0f);
    return (uint16_t)(sign | (he << 10) | man);
}

static void t_pack(void **s)
{
    (void)s;
    uint32_t a[4] = {tv_f32_bits(1.5f), tv_f32_bits(-0.25f), tv_f32_bits(65504.0f), tv_f32_bits(INFINITY)}, o[4];
    hv_op1("PK2H TEMP[3], TEMP[0]", a, NULL, NULL, o);
    for (int k = 0; k < 4; k++)
        assert_int_equal(o[k], (uint32_t)half_ref(1.5f) | ((uint32_t)half_ref(-0.25f) << 16));
    uint32_t p[4] = {o[0], 0, 0, 0};
    hv_op1("UP2H TEMP[3], TEMP[0].xxxx", p, NULL, NULL, o);
    assert_true(tv_bits_f32(o[0]) == 1.5f && tv_bits_f32(o[1]) == -0.25f && tv_bits_f32(o[2]) == 1.5f &&
                tv_bits_f32(o[3]) == -0.25f);
    uint32_t z[4] = {tv_f32_bits(65504.0f), tv_f32_bits(1e6f), 0, 0};
    hv_op1("PK2H TEMP[3], TEMP[0]", z, NULL, NULL, o);
    assert_int_equal(o[0], 0x7bffu | (0x7c00u << 16));   /* max half, overflow -> Inf */
    uint32_t u[4] = {tv_f32_bits(0.5f), tv_f32_bits(2.0f), 0, 0};
    hv_op1("PK2US TEMP[3], TEMP[0]", u, NULL, NULL, o);
    assert_int_equal(o[0], 32768u | (65535u << 16));    /* rint(0.5*65535) = 32768 */
    p[0] = o[0];
    hv_op1("UP2US TEMP[3], TEMP[0].xxxx", p, NULL, NULL, o);
    assert_true(tv_bits_f32(o[0]) == 32768.0f / 65535.0f && tv_bits_f32(o[1]) == 1.0f);
    uint32_t b[4] = {tv_f32_bits(1.0f), tv_f32_bits(-1.0f), tv_f32_bits(0.5f), tv_f32_bits(-3.0f)};
    hv_op1("PK4B TEMP[3], TEMP[0]", b, NULL, NULL, o);
    assert_int_equal(o[0], 0x7fu | (0x81u << 8) | (0x40u << 16) | (0x81u << 24));
    p[0] = o[0];
    hv_op1("UP4B TEMP[3], TEMP[0].xxxx", p, NULL, NULL, o);
    assert_true(tv_bits_f32(o[0]) == 1.0f && tv_bits_f32(o[1]) == -1.0f && tv_bits_f32(o[2]) == 64.0f / 127.0f &&
                tv_bits_f32(o[3]) == -1.0f);
    uint32_t ub[4] = {tv_f32_bits(1.0f), tv_f32_bits(0.0f), tv_f32_bits(0.5f), tv_f32_bits(NAN)};
    hv_op1("PK4UB TEMP[3], TEMP[0]", ub, NULL, NULL, o);
    assert_int_equal(o[0], 0xffu | (0x00u << 8) | (0x80u << 16) | (0x00u << 24));
    p[0] = o[0];
    hv_op1("UP4UB TEMP[3], TEMP[0].xxxx", p, NULL, NULL, o);
    assert_true(tv_bits_f32(o[0]) == 1.0f && tv_bits_f32(o[1]) == 0.0f && tv_bits_f32(o[2]) == 128.0f / 255.0f);
    /* inverse property over every byte value */
    for (uint32_t v = 0; v < 256; v += 17) {
        uint32_t w[4] = {v | (v << 8) | ((255 - v) << 16) | (v << 24), 0, 0, 0};
        hv_op1("UP4UB TEMP[5], TEMP[0].xxxx\nPK4UB TEMP[3], TEMP[5]", w, NULL, NULL, o);
        assert_int_equal(o[0], w[0]);
        hv_op1("UP4B TEMP[5], TEMP[0].xxxx\nPK4B TEMP[3], TEMP[5]", w, NULL, NULL, o);
        uint32_t want = 0;
        for (int k = 0; k < 4; k++) {
            uint32_t byte = (w[0] >> (8 * k)) & 0xff;
            want |= (byte == 0x80 ? 0x81u : byte) << (8 * k);  /* -128 clamps to -127 */
        }
        assert_int_equal(o[0], want);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_dadd), cmocka_unit_test(t_dmul), cmocka_unit_test(t_ddiv),
        cmocka_unit_test(t_dmad), cmocka_unit_test(t_dfma), cmocka_unit_test(t_dabs),
        cmocka_unit_test(t_dneg), cmocka_unit_test(t_drcp), cmocka_unit_test(t_dsqrt),
        cmocka_unit_test(t_drsq), cmocka_unit_test(t_dfrac), cmocka_unit_test(t_dtrunc),
        cmocka_unit_test(t_dceil), cmocka_unit_test(t_dflr), cmocka_unit_test(t_dround),
        cmocka_unit_test(t_dssg), cmocka_unit_test(t_dmin), cmocka_unit_test(t_dmax),
        cmocka_unit_test(t_dmods), cmocka_unit_test(t_dcmp), cmocka_unit_test(t_dpair_zw), cmocka_unit_test(t_dconv),
        cmocka_unit_test(t_u64add), cmocka_unit_test(t_u64mul), cmocka_unit_test(t_u64div),
        cmocka_unit_test(t_u64mod), cmocka_unit_test(t_i64div), cmocka_unit_test(t_i64mod),
        cmocka_unit_test(t_i64min), cmocka_unit_test(t_u64min), cmocka_unit_test(t_i64max),
        cmocka_unit_test(t_u64max), cmocka_unit_test(t_u64seq), cmocka_unit_test(t_u64sne),
        cmocka_unit_test(t_i64slt), cmocka_unit_test(t_u64slt), cmocka_unit_test(t_i64sge),
        cmocka_unit_test(t_u64sge), cmocka_unit_test(t_i64abs), cmocka_unit_test(t_i64neg),
        cmocka_unit_test(t_i64ssg), cmocka_unit_test(t_shifts64), cmocka_unit_test(t_conv64),
        cmocka_unit_test(t_pack),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
