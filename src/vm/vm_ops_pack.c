/* Pack/unpack handlers (VM_L_V4 form). PK* replicate one packed word; UP* are defined as
 * exact inverses of the PK ops on their representable values (docs/vm-semantics.md §1):
 *   UP2H  x = half(lo), y = half(hi), z = x, w = y
 *   UP2US x = lo / 65535, y = hi / 65535, z = x, w = y
 *   UP4B  c = max(sbyte_c / 127, -1)      UP4UB c = ubyte_c / 255 */
#include "vm/vm_ops.h"

/* float -> half, round to nearest even; NaN stays NaN, overflow -> Inf. */
static uint16_t f2h(float f)
{
    uint32_t x = tv_f32_bits(f);
    uint32_t sign = (x >> 16) & 0x8000u;
    uint32_t exp = (x >> 23) & 0xffu;
    uint32_t man = x & 0x7fffffu;
    if (exp == 0xffu)
        return (uint16_t)(sign | 0x7c00u | (man ? 0x200u | (man >> 13) : 0u));
    int32_t e = (int32_t)exp - 127 + 15;
    if (e >= 31)
        return (uint16_t)(sign | 0x7c00u);
    if (e <= 0) {
        if (e < -10)
            return (uint16_t)sign;
        man |= 0x800000u;
        uint32_t shift = (uint32_t)(14 - e);
        uint32_t h = man >> shift;
        uint32_t rem = man & ((1u << shift) - 1u), half = 1u << (shift - 1u);
        if (rem > half || (rem == half && (h & 1u)))
            h++;
        return (uint16_t)(sign | h);
    }
    uint32_t h = ((uint32_t)e << 10) | (man >> 13);
    uint32_t rem = man & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (h & 1u)))
        h++;   /* may carry into the exponent, giving Inf correctly */
    return (uint16_t)(sign | h);
}

static float h2f(uint32_t h)
{
    uint32_t sign = (h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1fu;
    uint32_t man = h & 0x3ffu;
    if (exp == 0) {
        float v = (float)man * (1.0f / 16777216.0f);  /* man * 2^-24 */
        return sign ? -v : v;
    }
    if (exp == 31)
        return tv_bits_f32(sign | 0x7f800000u | (man << 13));
    return tv_bits_f32(sign | ((exp + 112u) << 23) | (man << 13));
}

static inline uint32_t unorm(float x, float scale)
{
    return (uint32_t)rintf(vm_sat(x) * scale);
}
static inline uint32_t snorm8(float x)
{
    float c = x > -1.0f ? (x < 1.0f ? x : 1.0f) : -1.0f;   /* NaN -> -1 ... */
    if (!(x == x))
        c = 0.0f;                                        /* NaN -> 0 */
    int32_t v = (int32_t)rintf(c * 127.0f);
    return (uint32_t)v & 0xffu;
}

static void rep(vm_warp *w, const vm_uop *u, const vm_slot *t)
{
    for (unsigned c = 0; c < 4; c++)
        if (u->aux & (1u << c))
            w->r[u->dst[c]] = *t;
}

void vm_h_pk2h(vm_warp *w, const vm_uop *u)
{
    const vm_slot *X = VM_SRC(0), *Y = VM_SRC(1);
    vm_slot t;
    VM_FOR_LANES t.u[l] = (uint32_t)f2h(X->f[l]) | ((uint32_t)f2h(Y->f[l]) << 16);
    rep(w, u, &t);
}
void vm_h_pk2us(vm_warp *w, const vm_uop *u)
{
    const vm_slot *X = VM_SRC(0), *Y = VM_SRC(1);
    vm_slot t;
    VM_FOR_LANES t.u[l] = unorm(X->f[l], 65535.0f) | (unorm(Y->f[l], 65535.0f) << 16);
    rep(w, u, &t);
}
void vm_h_pk4b(vm_warp *w, const vm_uop *u)
{
    vm_slot t;
    VM_FOR_LANES {
        uint32_t v = 0;
        for (unsigned c = 0; c < 4; c++)
            v |= snorm8(w->r[u->src[c]].f[l]) << (8 * c);
        t.u[l] = v;
    }
    rep(w, u, &t);
}
void vm_h_pk4ub(vm_warp *w, const vm_uop *u)
{
    vm_slot t;
    VM_FOR_LANES {
        uint32_t v = 0;
        for (unsigned c = 0; c < 4; c++)
            v |= unorm(w->r[u->src[c]].f[l], 255.0f) << (8 * c);
        t.u[l] = v;
    }
    rep(w, u, &t);
}

static void put4(vm_warp *w, const vm_uop *u, vm_slot t[4])
{
    for (unsigned c = 0; c < 4; c++) {
        if (!(u->aux & (1u << c)))
            continue;
        if (u->flags & VM_UF_SAT)
            VM_FOR_LANES t[c].f[l] = vm_sat(t[c].f[l]);
        w->r[u->dst[c]] = t[c];
    }
}

void vm_h_up2h(vm_warp *w, const vm_uop *u)
{
    const vm_slot *X = VM_SRC(0);
    vm_slot t[4];
    VM_FOR_LANES {
        t[0].f[l] = t[2].f[l] = h2f(X->u[l] & 0xffffu);
        t[1].f[l] = t[3].f[l] = h2f(X->u[l] >> 16);
    }
    put4(w, u, t);
}
void vm_h_up2us(vm_warp *w, const vm_uop *u)
{
    const vm_slot *X = VM_SRC(0);
    vm_slot t[4];
    VM_FOR_LANES {
        t[0].f[l] = t[2].f[l] = (float)(X->u[l] & 0xffffu) / 65535.0f;
        t[1].f[l] = t[3].f[l] = (float)(X->u[l] >> 16) / 65535.0f;
    }
    put4(w, u, t);
}
void vm_h_up4b(vm_warp *w, const vm_uop *u)
{
    const vm_slot *X = VM_SRC(0);
    vm_slot t[4];
    VM_FOR_LANES {
        for (unsigned c = 0; c < 4; c++) {
            int32_t b = (int32_t)((X->u[l] >> (8 * c)) & 0xffu);
            if (b >= 128) b -= 256;
            float v = (float)b / 127.0f;
            t[c].f[l] = v < -1.0f ? -1.0f : v;
        }
    }
    put4(w, u, t);
}
void vm_h_up4ub(vm_warp *w, const vm_uop *u)
{
    const vm_slot *X = VM_SRC(0);
    vm_slot t[4];
    VM_FOR_LANES {
        for (unsigned c = 0; c < 4; c++)
            t[c].f[l] = (float)((X->u[l] >> (8 * c)) & 0xffu) / 255.0f;
    }
    put4(w, u, t);
}
