/* Integer and bitwise handlers (per channel). Every result is defined for every input:
 * wrapping arithmetic, masked shift counts, and the division/bitfield rules of
 * docs/vm-semantics.md §1.
 * Signed arithmetic is done on uint32_t and converted back, so there is no C overflow. */
#include "vm/vm_ops.h"

/* Each operation is the expression of one lane; its handler vm_h_NAME_n runs a channel
 * group (vm_ops.h VM_GROUP*: source k of channel c in src[k*4 + c], destination dst[c]). */
#define U1(name, expr) VM_GROUP1(name, uint32_t, u, u, vm_finish_n_u, expr)
#define U2(name, expr) VM_GROUP2(name, uint32_t, u, u, vm_finish_n_u, expr)
#define U3(name, expr) VM_GROUP3(name, uint32_t, u, u, vm_finish_n_u, expr)
#define I2(name, expr) VM_GROUP2(name, int32_t, i, u, vm_finish_n_u, expr)

#define MASK(c) ((c) ? ~0u : 0u)

static inline uint32_t s2u(int32_t x) { return (uint32_t)x; }

/* Arithmetic shift right for any count 0..31 without relying on signed >>. */
static inline uint32_t ashr(uint32_t a, uint32_t s)
{
    uint32_t sign = 0u - (a >> 31);
    return ((a ^ sign) >> s) ^ sign;
}

static inline uint32_t idiv(int32_t a, int32_t b)
{
    if (b == 0) return 0;                          /* documented: x / 0 = 0 */
    if (b == -1) return 0u - s2u(a);               /* INT_MIN / -1 = INT_MIN (wraps) */
    return s2u(a / b);
}
static inline uint32_t imod(int32_t a, int32_t b)
{
    if (b == 0) return ~0u;                        /* documented: x % 0 = -1 */
    if (b == -1) return 0;
    return s2u(a % b);
}

static inline uint32_t popc(uint32_t x)
{
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    x = (x + (x >> 4)) & 0x0f0f0f0fu;
    return (x * 0x01010101u) >> 24;
}
static inline uint32_t umsb(uint32_t x)
{
    if (!x) return ~0u;
    uint32_t n = 31;
    while (!(x & 0x80000000u)) { x <<= 1; n--; }
    return n;
}
static inline uint32_t lsb(uint32_t x)
{
    if (!x) return ~0u;
    uint32_t n = 0;
    while (!(x & 1u)) { x >>= 1; n++; }
    return n;
}
static inline uint32_t imsb(uint32_t x) { return umsb((x >> 31) ? ~x : x); }
static inline uint32_t brev(uint32_t x)
{
    x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
    x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
    x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
    x = ((x >> 8) & 0x00ff00ffu) | ((x & 0x00ff00ffu) << 8);
    return (x >> 16) | (x << 16);
}

/* Bitfield window: offset & 31, bits clamped to 32 and to the bits left above offset. */
static inline void bf_window(uint32_t off, uint32_t bits, uint32_t *o, uint32_t *b)
{
    *o = off & 31u;
    uint32_t n = bits > 32u ? 32u : bits;
    if (*o + n > 32u) n = 32u - *o;
    *b = n;
}
static inline uint32_t ubfe(uint32_t v, uint32_t off, uint32_t bits)
{
    uint32_t o, b;
    bf_window(off, bits, &o, &b);
    if (b == 0) return 0;
    return (v << (32u - o - b)) >> (32u - b);
}
static inline uint32_t ibfe(uint32_t v, uint32_t off, uint32_t bits)
{
    uint32_t o, b;
    bf_window(off, bits, &o, &b);
    if (b == 0) return 0;
    return ashr(v << (32u - o - b), 32u - b);
}
static inline uint32_t bfi(uint32_t base, uint32_t ins, uint32_t off, uint32_t bits)
{
    uint32_t o, b;
    bf_window(off, bits, &o, &b);
    if (b == 0) return base;
    uint32_t mask = (b == 32u ? ~0u : ((1u << b) - 1u)) << o;
    return ((ins << o) & mask) | (base & ~mask);
}

U2(uadd, a + b)
U2(umul, a * b)
U3(umad, a * b + c)
I2(imax, s2u(a > b ? a : b))
I2(imin, s2u(a < b ? a : b))
U2(umax, a > b ? a : b)
U2(umin, a < b ? a : b)
I2(idiv, idiv(a, b))
I2(mod, imod(a, b))
U2(udiv, b ? a / b : ~0u)
U2(umod, b ? a % b : ~0u)
U1(ineg, 0u - a)
U1(iabs, (a >> 31) ? 0u - a : a)
U1(issg, (a >> 31) ? ~0u : (a ? 1u : 0u))
U1(not, ~a)
U2(and, a & b)
U2(or, a | b)
U2(xor, a ^ b)
U2(shl, a << (b & 31u))
U2(ishr, ashr(a, b & 31u))
U2(ushr, a >> (b & 31u))
I2(isge, MASK(a >= b))
I2(islt, MASK(a < b))
U2(useq, MASK(a == b))
U2(usge, MASK(a >= b))
U2(uslt, MASK(a < b))
U2(usne, MASK(a != b))
U2(umul_hi, (uint32_t)(((uint64_t)a * b) >> 32))
I2(imul_hi, (uint32_t)((uint64_t)((int64_t)a * (int64_t)b) >> 32))
U3(ibfe, ibfe(a, b, c))
U3(ubfe, ubfe(a, b, c))
U1(brev, brev(a))
U1(popc, popc(a))
U1(lsb, lsb(a))
U1(imsb, imsb(a))
U1(umsb, umsb(a))
U3(ucmp, a ? b : c)
U1(uarl, a)

void vm_h_bfi(vm_warp *w, const vm_uop *u)
{
    const vm_slot *A = VM_SRC(0), *B = VM_SRC(1), *C = VM_SRC(2), *D = VM_SRC(3);
    vm_slot t;
    VM_FOR_LANES t.u[l] = bfi(A->u[l], B->u[l], C->u[l], D->u[l]);
    vm_finish_u(w, u, &t);
}

/* Source modifiers for integer operands. */
void vm_h_mod_ineg(vm_warp *w, const vm_uop *u)
{
    const vm_slot *A = VM_SRC(0);
    vm_slot *d = &w->r[u->dst[0]];
    VM_FOR_LANES d->u[l] = 0u - A->u[l];
}
void vm_h_mod_iabs(vm_warp *w, const vm_uop *u)
{
    const vm_slot *A = VM_SRC(0);
    vm_slot *d = &w->r[u->dst[0]];
    VM_FOR_LANES d->u[l] = (A->u[l] >> 31) ? 0u - A->u[l] : A->u[l];
}
void vm_h_mod_inegabs(vm_warp *w, const vm_uop *u)
{
    const vm_slot *A = VM_SRC(0);
    vm_slot *d = &w->r[u->dst[0]];
    VM_FOR_LANES d->u[l] = (A->u[l] >> 31) ? A->u[l] : 0u - A->u[l];
}
