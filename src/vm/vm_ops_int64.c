/* 64-bit integer handlers (VM_L_V4 form, channel pairs xy / zw) and the conversions to
 * and from 64-bit integers. Division rules match the 32-bit ones (docs/vm-semantics.md
 * §1). */
#include "vm/vm_ops.h"

static inline bool want(const vm_uop *u, unsigned p) { return (u->aux >> (2 * p)) & 3u; }
static inline uint64_t qsrc(const vm_warp *w, const vm_uop *u, unsigned k, unsigned p,
                            unsigned l)
{
    return vm_pair(w, u->src[k * 4 + 2 * p], u->src[k * 4 + 2 * p + 1], l);
}
static inline void qput(vm_slot t[4], unsigned p, unsigned l, uint64_t v)
{
    t[2 * p].u[l] = (uint32_t)v;
    t[2 * p + 1].u[l] = (uint32_t)(v >> 32);
}
static inline int64_t q2s(uint64_t v)
{
    int64_t r;
    memcpy(&r, &v, 8);
    return r;
}
static void commit4(vm_warp *w, const vm_uop *u, const vm_slot t[4])
{
    for (unsigned c = 0; c < 4; c++)
        if (u->aux & (1u << c))
            w->r[u->dst[c]] = t[c];
}

#define Q1(name, expr)                                                                     \
    void vm_h_##name(vm_warp *w, const vm_uop *u)                                          \
    {                                                                                      \
        vm_slot t[4];                                                                      \
        memset(t, 0, sizeof t);                                                            \
        for (unsigned p = 0; p < 2; p++) {                                                 \
            if (!want(u, p)) continue;                                                     \
            VM_FOR_LANES { uint64_t a = qsrc(w, u, 0, p, l); qput(t, p, l, (expr)); }      \
        }                                                                                  \
        commit4(w, u, t);                                                                  \
    }
#define Q2(name, expr)                                                                     \
    void vm_h_##name(vm_warp *w, const vm_uop *u)                                          \
    {                                                                                      \
        vm_slot t[4];                                                                      \
        memset(t, 0, sizeof t);                                                            \
        for (unsigned p = 0; p < 2; p++) {                                                 \
            if (!want(u, p)) continue;                                                     \
            VM_FOR_LANES {                                                                 \
                uint64_t a = qsrc(w, u, 0, p, l), b = qsrc(w, u, 1, p, l);                 \
                qput(t, p, l, (expr));                                                     \
            }                                                                              \
        }                                                                                  \
        commit4(w, u, t);                                                                  \
    }
/* shifts: count from src1 channel p (x for xy, y for zw) */
#define QSH(name, expr)                                                                    \
    void vm_h_##name(vm_warp *w, const vm_uop *u)                                          \
    {                                                                                      \
        vm_slot t[4];                                                                      \
        memset(t, 0, sizeof t);                                                            \
        for (unsigned p = 0; p < 2; p++) {                                                 \
            if (!want(u, p)) continue;                                                     \
            VM_FOR_LANES {                                                                 \
                uint64_t a = qsrc(w, u, 0, p, l);                                          \
                unsigned s = w->r[u->src[4 + p]].u[l] & 63u;                               \
                qput(t, p, l, (expr));                                                     \
            }                                                                              \
        }                                                                                  \
        commit4(w, u, t);                                                                  \
    }
#define QCMP(name, expr)                                                                   \
    void vm_h_##name(vm_warp *w, const vm_uop *u)                                          \
    {                                                                                      \
        vm_slot t[4];                                                                      \
        memset(t, 0, sizeof t);                                                            \
        for (unsigned p = 0; p < 2; p++)                                                   \
            VM_FOR_LANES {                                                                 \
                uint64_t a = qsrc(w, u, 0, p, l), b = qsrc(w, u, 1, p, l);                 \
                t[2 * p].u[l] = (expr) ? ~0u : 0u;                                         \
            }                                                                              \
        commit4(w, u, t);                                                                  \
    }

static inline uint64_t ashr64(uint64_t a, unsigned s)
{
    uint64_t sign = 0u - (a >> 63);
    return ((a ^ sign) >> s) ^ sign;
}
static inline uint64_t i64div(uint64_t a, uint64_t b)
{
    int64_t x = q2s(a), y = q2s(b);
    if (y == 0) return 0;
    if (y == -1) return 0u - a;
    return (uint64_t)(x / y);
}
static inline uint64_t i64mod(uint64_t a, uint64_t b)
{
    int64_t x = q2s(a), y = q2s(b);
    if (y == 0) return ~(uint64_t)0;
    if (y == -1) return 0;
    return (uint64_t)(x % y);
}

QCMP(u64seq, a == b)
QCMP(u64sne, a != b)
QCMP(i64slt, q2s(a) < q2s(b))
QCMP(u64slt, a < b)
QCMP(i64sge, q2s(a) >= q2s(b))
QCMP(u64sge, a >= b)
Q2(i64min, q2s(a) < q2s(b) ? a : b)
Q2(u64min, a < b ? a : b)
Q2(i64max, q2s(a) > q2s(b) ? a : b)
Q2(u64max, a > b ? a : b)
Q1(i64abs, (a >> 63) ? 0u - a : a)
Q1(i64ssg, (a >> 63) ? ~(uint64_t)0 : (a ? 1u : 0u))
Q1(i64neg, 0u - a)
Q2(u64add, a + b)
Q2(u64mul, a * b)
QSH(u64shl, a << s)
QSH(i64shr, ashr64(a, s))
QSH(u64shr, a >> s)
Q2(i64div, i64div(a, b))
Q2(u64div, b ? a / b : ~(uint64_t)0)
Q2(i64mod, i64mod(a, b))
Q2(u64mod, b ? a % b : ~(uint64_t)0)
Q1(d2u64, vm_d2u64(tv_bits_f64(a)))
Q1(d2i64, (uint64_t)vm_d2i64(tv_bits_f64(a)))
Q1(u642d, tv_f64_bits((double)a))
Q1(i642d, tv_f64_bits((double)q2s(a)))

/* 32-bit -> 64-bit: pair p from channel p. */
#define TO_Q(name, expr)                                                                   \
    void vm_h_##name(vm_warp *w, const vm_uop *u)                                          \
    {                                                                                      \
        vm_slot t[4];                                                                      \
        memset(t, 0, sizeof t);                                                            \
        for (unsigned p = 0; p < 2; p++) {                                                 \
            if (!want(u, p)) continue;                                                     \
            const vm_slot *A = &w->r[u->src[p]];                                           \
            VM_FOR_LANES qput(t, p, l, (expr));                                            \
        }                                                                                  \
        commit4(w, u, t);                                                                  \
    }
TO_Q(f2u64, vm_d2u64((double)A->f[l]))
TO_Q(f2i64, (uint64_t)vm_d2i64((double)A->f[l]))
TO_Q(u2i64, (uint64_t)A->u[l])
TO_Q(i2i64, (uint64_t)(int64_t)A->i[l])

/* 64-bit -> float: channel p from pair p. */
void vm_h_u642f(vm_warp *w, const vm_uop *u)
{
    vm_slot t[4];
    memset(t, 0, sizeof t);
    for (unsigned p = 0; p < 2; p++)
        VM_FOR_LANES t[p].f[l] = (float)qsrc(w, u, 0, p, l);
    vm_commit_narrow(w, u, t);
}
void vm_h_i642f(vm_warp *w, const vm_uop *u)
{
    vm_slot t[4];
    memset(t, 0, sizeof t);
    for (unsigned p = 0; p < 2; p++)
        VM_FOR_LANES t[p].f[l] = (float)q2s(qsrc(w, u, 0, p, l));
    vm_commit_narrow(w, u, t);
}
