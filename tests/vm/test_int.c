/* Integer and bitwise opcodes against int64 references: wrapping, zero divisors,
 * INT_MIN / -1, shift masking, bitfield edges (bits 0 and 32), MSB/LSB of 0 and -1. */
#include <stdio.h>
#include <stdlib.h>

#include "helper_vm.h"

static const uint32_t V[] = {0, 1, 2, 3, 7, 31, 32, 33, 0x7fffffffu, 0x80000000u, 0xffffffffu,
                             0xfffffffeu, 0x12345678u, 0xdeadbeefu, 100, 0xffffff9cu /* -100 */};
#define NV 16

typedef uint32_t (*ref3)(uint32_t a, uint32_t b, uint32_t c);

static void check(const char *insn, ref3 ref)
{
    enum { N = NV * NV };
    static uint32_t a[N][4], b[N][4], c[N][4], o[N][4];
    for (unsigned l = 0; l < N; l++)
        for (unsigned k = 0; k < 4; k++) {
            a[l][k] = V[(l / NV + k) % NV];
            b[l][k] = V[(l % NV + 5 * k) % NV];
            c[l][k] = V[(l / NV + 3 * (l % NV) + k) % NV];
        }
    tv_error err;
    tv_status st = hv_op(NULL, insn, N, (const uint32_t(*)[4])a, (const uint32_t(*)[4])b,
                         (const uint32_t(*)[4])c, 0, o, &err);
    if (st != TV_OK)
        fail_msg("%s: %s", insn, err.message);
    for (unsigned l = 0; l < N; l++)
        for (unsigned k = 0; k < 4; k++) {
            uint32_t want = ref(a[l][k], b[l][k], c[l][k]);
            if (o[l][k] != want)
                fail_msg("%s lane %u comp %u: a=0x%x b=0x%x c=0x%x got 0x%x want 0x%x", insn,
                         l, k, a[l][k], b[l][k], c[l][k], o[l][k], want);
        }
}

static int64_t S(uint32_t x) { return x >= 0x80000000u ? (int64_t)x - 4294967296ll : (int64_t)x; }
static uint32_t W(int64_t x) { return (uint32_t)((uint64_t)x & 0xffffffffu); }
static uint32_t M(bool c) { return c ? ~0u : 0u; }

#define R3(name, expr)                                                                     \
    static uint32_t name(uint32_t a, uint32_t b, uint32_t c)                               \
    {                                                                                      \
        (void)a; (void)b; (void)c;                                                         \
        return (expr);                                                                     \
    }

/* documented choices: IDIV x/0 = 0, INT_MIN/-1 = INT_MIN; MOD x%0 = -1, INT_MIN%-1 = 0 */
static uint32_t idiv(uint32_t a, uint32_t b)
{
    if (b == 0) return 0;
    return W(S(a) / S(b));   /* int64 division: INT_MIN / -1 = 2^31 wraps to INT_MIN */
}
static uint32_t imod(uint32_t a, uint32_t b)
{
    if (b == 0) return 0xffffffffu;
    return W(S(a) % S(b));
}
static uint32_t msb(uint32_t x) { int n = -1; for (int i = 0; i < 32; i++) if (x >> i & 1) n = i; return (uint32_t)n; }
static uint32_t lsbr(uint32_t x) { for (int i = 0; i < 32; i++) if (x >> i & 1) return (uint32_t)i; return ~0u; }
static uint32_t popc(uint32_t x) { uint32_t n = 0; for (int i = 0; i < 32; i++) n += x >> i & 1; return n; }
static uint32_t brev(uint32_t x) { uint32_t r = 0; for (int i = 0; i < 32; i++) if (x >> i & 1) r |= 1u << (31 - i); return r; }
/* bitfield window rule (docs/vm-semantics.md §1): offset & 31, bits clamped to
 * 32 - offset */
static void win(uint32_t off, uint32_t bits, uint32_t *o, uint32_t *n)
{
    *o = off & 31;
    *n = bits > 32 ? 32 : bits;
    if (*o + *n > 32) *n = 32 - *o;
}
static uint32_t ubfe(uint32_t v, uint32_t off, uint32_t bits)
{
    uint32_t o, n;
    win(off, bits, &o, &n);
    uint64_t r = 0;
    for (uint32_t i = 0; i < n; i++) r |= (uint64_t)((v >> (o + i)) & 1) << i;
    return (uint32_t)r;
}
static uint32_t ibfe(uint32_t v, uint32_t off, uint32_t bits)
{
    uint32_t o, n;
    win(off, bits, &o, &n);
    if (n == 0) return 0;
    uint32_t r = ubfe(v, off, bits);
    if ((r >> (n - 1)) & 1)
        for (uint32_t i = n; i < 32; i++) r |= 1u << i;
    return r;
}
static uint32_t bfi(uint32_t base, uint32_t ins, uint32_t off, uint32_t bits)
{
    uint32_t o, n;
    win(off, bits, &o, &n);
    uint32_t r = base;
    for (uint32_t i = 0; i < n; i++) {
        r &= ~(1u << (o + i));
        r |= ((ins >> i) & 1u) << (o + i);
    }
    return r;
}

R3(r_uadd, W((int64_t)a + b))
R3(r_umul, W((int64_t)((uint64_t)a * b)))
R3(r_umad, (uint32_t)((uint64_t)a * b + c))
R3(r_imax, S(a) > S(b) ? a : b)
R3(r_imin, S(a) < S(b) ? a : b)
R3(r_umax, a > b ? a : b)
R3(r_umin, a < b ? a : b)
R3(r_idiv, idiv(a, b))
R3(r_mod, imod(a, b))
R3(r_udiv, b ? a / b : 0xffffffffu)
R3(r_umod, b ? a % b : 0xffffffffu)
R3(r_ineg, W(-S(a)))
R3(r_iabs, W(S(a) < 0 ? -S(a) : S(a)))
R3(r_issg, S(a) > 0 ? 1u : (S(a) < 0 ? 0xffffffffu : 0u))
R3(r_not, ~a)
R3(r_and, a & b)
R3(r_or, a | b)
R3(r_xor, a ^ b)
R3(r_shl, (uint32_t)((uint64_t)a << (b % 32)))
R3(r_ishr, W(S(a) >> (b % 32)))
R3(r_ushr, a >> (b % 32))
R3(r_isge, M(S(a) >= S(b)))
R3(r_islt, M(S(a) < S(b)))
R3(r_useq, M(a == b))
R3(r_usge, M(a >= b))
R3(r_uslt, M(a < b))
R3(r_usne, M(a != b))
R3(r_umul_hi, (uint32_t)(((uint64_t)a * b) >> 32))
R3(r_imul_hi, W((S(a) * S(b)) >> 32))
R3(r_brev, brev(a))
R3(r_popc, popc(a))
R3(r_lsb, lsbr(a))
R3(r_umsb, msb(a))
R3(r_imsb, msb(S(a) < 0 ? ~a : a))
R3(r_ucmp, a ? b : c)
R3(r_ineg_mod, W(S(a) + (-S(b))))
R3(r_iabs_mod, W(S(a) + (S(b) < 0 ? -S(b) : S(b))))

#define T(name, insn, ref) static void name(void **s) { (void)s; check(insn, ref); }
T(t_uadd, "UADD TEMP[3], TEMP[0], TEMP[1]", r_uadd)
T(t_umul, "UMUL TEMP[3], TEMP[0], TEMP[1]", r_umul)
T(t_umad, "UMAD TEMP[3], TEMP[0], TEMP[1], TEMP[2]", r_umad)
T(t_imax, "IMAX TEMP[3], TEMP[0], TEMP[1]", r_imax)
T(t_imin, "IMIN TEMP[3], TEMP[0], TEMP[1]", r_imin)
T(t_umax, "UMAX TEMP[3], TEMP[0], TEMP[1]", r_umax)
T(t_umin, "UMIN TEMP[3], TEMP[0], TEMP[1]", r_umin)
T(t_idiv, "IDIV TEMP[3], TEMP[0], TEMP[1]", r_idiv)
T(t_mod, "MOD TEMP[3], TEMP[0], TEMP[1]", r_mod)
T(t_udiv, "UDIV TEMP[3], TEMP[0], TEMP[1]", r_udiv)
T(t_umod, "UMOD TEMP[3], TEMP[0], TEMP[1]", r_umod)
T(t_ineg, "INEG TEMP[3], TEMP[0]", r_ineg)
T(t_iabs, "IABS TEMP[3], TEMP[0]", r_iabs)
T(t_issg, "ISSG TEMP[3], TEMP[0]", r_issg)
T(t_not, "NOT TEMP[3], TEMP[0]", r_not)
T(t_and, "AND TEMP[3], TEMP[0], TEMP[1]", r_and)
T(t_or, "OR TEMP[3], TEMP[0], TEMP[1]", r_or)
T(t_xor, "XOR TEMP[3], TEMP[0], TEMP[1]", r_xor)
T(t_shl, "SHL TEMP[3], TEMP[0], TEMP[1]", r_shl)
T(t_ishr, "ISHR TEMP[3], TEMP[0], TEMP[1]", r_ishr)
T(t_ushr, "USHR TEMP[3], TEMP[0], TEMP[1]", r_ushr)
T(t_isge, "ISGE TEMP[3], TEMP[0], TEMP[1]", r_isge)
T(t_islt, "ISLT TEMP[3], TEMP[0], TEMP[1]", r_islt)
T(t_useq, "USEQ TEMP[3], TEMP[0], TEMP[1]", r_useq)
T(t_usge, "USGE TEMP[3], TEMP[0], TEMP[1]", r_usge)
T(t_uslt, "USLT TEMP[3], TEMP[0], TEMP[1]", r_uslt)
T(t_usne, "USNE TEMP[3], TEMP[0], TEMP[1]", r_usne)
T(t_umul_hi, "UMUL_HI TEMP[3], TEMP[0], TEMP[1]", r_umul_hi)
T(t_imul_hi, "IMUL_HI TEMP[3], TEMP[0], TEMP[1]", r_imul_hi)
T(t_brev, "BREV TEMP[3], TEMP[0]", r_brev)
T(t_popc, "POPC TEMP[3], TEMP[0]", r_popc)
T(t_lsb, "LSB TEMP[3], TEMP[0]", r_lsb)
T(t_umsb, "UMSB TEMP[3], TEMP[0]", r_umsb)
T(t_imsb, "IMSB TEMP[3], TEMP[0]", r_imsb)
T(t_ucmp, "UCMP TEMP[3], TEMP[0], TEMP[1], TEMP[2]", r_ucmp)
T(t_ineg_mod, "UADD TEMP[3], TEMP[0], -TEMP[1]", r_ineg_mod)
T(t_iabs_mod, "UADD TEMP[3], TEMP[0], |TEMP[1]|", r_iabs_mod)

/* bitfields: offsets/bits reduced mod 40 so 32..39 exercise the clamps */
static void t_bitfield(void **s)
{
    (void)s;
    enum { N = 41 * 41 };
    static uint32_t a[N][4], b[N][4], c[N][4], o[N][4];
    for (unsigned l = 0; l < N; l++)
        for (unsigned k = 0; k < 4; k++) {
            a[l][k] = k & 1 ? 0x80f0f0a5u : 0x12345678u;
            b[l][k] = l / 41;   /* offset 0..40 */
            c[l][k] = l % 41;   /* bits 0..40 */
        }
    tv_error err;
    assert_int_equal(hv_op(NULL, "UBFE TEMP[3], TEMP[0], TEMP[1], TEMP[2]", N,
                           (const uint32_t(*)[4])a, (const uint32_t(*)[4])b,
                           (const uint32_t(*)[4])c, 0, o, &err), TV_OK);
    for (unsigned l = 0; l < N; l++)
        for (unsigned k = 0; k < 4; k++)
            assert_int_equal(o[l][k], ubfe(a[l][k], b[l][k], c[l][k]));
    assert_int_equal(hv_op(NULL, "IBFE TEMP[3], TEMP[0], TEMP[1], TEMP[2]", N,
                           (const uint32_t(*)[4])a, (const uint32_t(*)[4])b,
                           (const uint32_t(*)[4])c, 0, o, &err), TV_OK);
    for (unsigned l = 0; l < N; l++)
        for (unsigned k = 0; k < 4; k++)
            assert_int_equal(o[l][k], ibfe(a[l][k], b[l][k], c[l][k]));
    /* BFI base=a, insert=~a, offset=b, bits=c */
    char insn[] = "NOT TEMP[5], TEMP[0]\nBFI TEMP[3], TEMP[0], TEMP[5], TEMP[1], TEMP[2]";
    assert_int_equal(hv_op(NULL, insn, N, (const uint32_t(*)[4])a, (const uint32_t(*)[4])b,
                           (const uint32_t(*)[4])c, 0, o, &err), TV_OK);
    for (unsigned l = 0; l < N; l++)
        for (unsigned k = 0; k < 4; k++)
            assert_int_equal(o[l][k], bfi(a[l][k], ~a[l][k], b[l][k], c[l][k]));
    /* the spec's anchors: bits 32 offset 0 is the whole word; bits 0 gives 0 / base */
    assert_int_equal(ubfe(0xdeadbeefu, 0, 32), 0xdeadbeefu);
    assert_int_equal(ibfe(0xdeadbeefu, 4, 0), 0);
    assert_int_equal(bfi(0x1234u, 0xffffffffu, 0, 32), 0xffffffffu);
}

static void t_edges_by_hand(void **s)
{
    (void)s;
    uint32_t a[4] = {0x80000000u, 7, 0, 0xffffffffu};
    uint32_t b[4] = {0xffffffffu, 0, 0, 33};
    uint32_t o[4];
    hv_op1("IDIV TEMP[3], TEMP[0], TEMP[1]", a, b, NULL, o);
    assert_int_equal(o[0], 0x80000000u);   /* INT_MIN / -1 = INT_MIN */
    assert_int_equal(o[1], 0);             /* 7 / 0 = 0 */
    hv_op1("UDIV TEMP[3], TEMP[0], TEMP[1]", a, b, NULL, o);
    assert_int_equal(o[1], 0xffffffffu);
    hv_op1("UMOD TEMP[3], TEMP[0], TEMP[1]", a, b, NULL, o);
    assert_int_equal(o[1], 0xffffffffu);
    hv_op1("SHL TEMP[3], TEMP[0], TEMP[1]", a, b, NULL, o);
    assert_int_equal(o[3], 0xfffffffeu);   /* 33 & 31 = 1 */
    hv_op1("UMSB TEMP[3], TEMP[0]", a, NULL, NULL, o);
    assert_int_equal(o[2], 0xffffffffu);
    hv_op1("IMSB TEMP[3], TEMP[0]", a, NULL, NULL, o);
    assert_int_equal(o[3], 0xffffffffu);
    assert_int_equal(o[0], 30);
    hv_op1("LSB TEMP[3], TEMP[0]", a, NULL, NULL, o);
    assert_int_equal(o[2], 0xffffffffu);
    assert_int_equal(o[0], 31);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_uadd), cmocka_unit_test(t_umul), cmocka_unit_test(t_umad),
        cmocka_unit_test(t_imax), cmocka_unit_test(t_imin), cmocka_unit_test(t_umax),
        cmocka_unit_test(t_umin), cmocka_unit_test(t_idiv), cmocka_unit_test(t_mod),
        cmocka_unit_test(t_udiv), cmocka_unit_test(t_umod), cmocka_unit_test(t_ineg),
        cmocka_unit_test(t_iabs), cmocka_unit_test(t_issg), cmocka_unit_test(t_not),
        cmocka_unit_test(t_and), cmocka_unit_test(t_or), cmocka_unit_test(t_xor),
        cmocka_unit_test(t_shl), cmocka_unit_test(t_ishr), cmocka_unit_test(t_ushr),
        cmocka_unit_test(t_isge), cmocka_unit_test(t_islt), cmocka_unit_test(t_useq),
        cmocka_unit_test(t_usge), cmocka_unit_test(t_uslt), cmocka_unit_test(t_usne),
        cmocka_unit_test(t_umul_hi), cmocka_unit_test(t_imul_hi), cmocka_unit_test(t_brev),
        cmocka_unit_test(t_popc), cmocka_unit_test(t_lsb), cmocka_unit_test(t_umsb),
        cmocka_unit_test(t_imsb), cmocka_unit_test(t_ucmp), cmocka_unit_test(t_ineg_mod),
        cmocka_unit_test(t_iabs_mod), cmocka_unit_test(t_bitfield),
        cmocka_unit_test(t_edges_by_hand),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
