/* Double-precision handlers (VM_L_V4 form): a double is a channel pair, xy and zw;
 * src[k*4 + c] holds channel c of source k, dst[0..3] are scratch slots, aux = writemask.
 * Conversions between float, int, uint and double live here too. */
#include "vm/vm_ops.h"

static inline bool want(const vm_uop *u, unsigned p) { return (u->aux >> (2 * p)) & 3u; }

static inline double dsrc(const vm_warp *w, const vm_uop *u, unsigned k, unsigned p,
                          unsigned l)
{
    return tv_bits_f64(vm_pair(w, u->src[k * 4 + 2 * p], u->src[k * 4 + 2 * p + 1], l));
}

static inline void dput(vm_slot t[4], unsigned p, unsigned l, double v, bool sat)
{
    if (sat)
        v = v > 0.0 ? (v < 1.0 ? v : 1.0) : 0.0;
    uint64_t b = tv_f64_bits(v);
    t[2 * p].u[l] = (uint32_t)b;
    t[2 * p + 1].u[l] = (uint32_t)(b >> 32);
}

static void commit4(vm_warp *w, const vm_uop *u, const vm_slot t[4])
{
    for (unsigned c = 0; c < 4; c++)
        if (u->aux & (1u << c))
            w->r[u->dst[c]] = t[c];
}

#define D1(name, expr)                                                                     \
    void vm_h_##name(vm_warp *w, const vm_uop *u)                                          \
    {                                                                                      \
        vm_slot t[4];                                                                      \
        memset(t, 0, sizeof t);                                                            \
        bool sat = u->flags & VM_UF_SAT;                                                   \
        for (unsigned p = 0; p < 2; p++) {                                                 \
            if (!want(u, p)) continue;                                                     \
            VM_FOR_LANES { double a = dsrc(w, u, 0, p, l); dput(t, p, l, (expr), sat); }   \
        }                                                                                  \
        commit4(w, u, t);                                                                  \
    }
#define D2(name, expr)                                                                     \
    void vm_h_##name(vm_warp *w, const vm_uop *u)                                          \
    {                                                                                      \
        vm_slot t[4];                                                                      \
        memset(t, 0, sizeof t);                                                            \
        bool sat = u->flags & VM_UF_SAT;                                                   \
        for (unsigned p = 0; p < 2; p++) {                                                 \
            if (!want(u, p)) continue;                                                     \
            VM_FOR_LANES {                                                                 \
                double a = dsrc(w, u, 0, p, l), b = dsrc(w, u, 1, p, l);                   \
                dput(t, p, l, (expr), sat);                                                \
            }                                                                              \
        }                                                                                  \
        commit4(w, u, t);                                                                  \
    }
#define D3(name, expr)                                                                     \
    void vm_h_##name(vm_warp *w, const vm_uop *u)                                          \
    {                                                                                      \
        vm_slot t[4];                                                                      \
        memset(t, 0, sizeof t);                                                            \
        bool sat = u->flags & VM_UF_SAT;                                                   \
        for (unsigned p = 0; p < 2; p++) {                                                 \
            if (!want(u, p)) continue;                                                     \
            VM_FOR_LANES {                                                                 \
                double a = dsrc(w, u, 0, p, l), b = dsrc(w, u, 1, p, l),                   \
                       c = dsrc(w, u, 2, p, l);                                            \
                dput(t, p, l, (expr), sat);                                                \
            }                                                                              \
        }                                                                                  \
        commit4(w, u, t);                                                                  \
    }
/* Comparison: 32-bit mask in channel x (pair xy) or z (pair zw). */
#define DCMP(name, expr)                                                                   \
    void vm_h_##name(vm_warp *w, const vm_uop *u)                                          \
    {                                                                                      \
        vm_slot t[4];                                                                      \
        memset(t, 0, sizeof t);                                                            \
        for (unsigned p = 0; p < 2; p++)                                                   \
            VM_FOR_LANES {                                                                 \
                double a = dsrc(w, u, 0, p, l), b = dsrc(w, u, 1, p, l);                   \
                t[2 * p].u[l] = (expr) ? ~0u : 0u;                                         \
            }                                                                              \
        commit4(w, u, t);                                                                  \
    }

D1(dabs, fabs(a))
D1(dneg, -a)
D2(dadd, a + b)
D2(dmul, a * b)
D2(ddiv, a / b)
/* DMIN/DMAX as MIN/MAX: a NaN operand yields the other; -0 < +0. */
static inline double dmin_z(double a, double b)
{
    if (a != a) return b;
    if (b != b) return a;
    if (a < b) return a;
    if (b < a) return b;
    return tv_bits_f64(tv_f64_bits(a) | tv_f64_bits(b));
}
static inline double dmax_z(double a, double b)
{
    if (a != a) return b;
    if (b != b) return a;
    if (a > b) return a;
    if (b > a) return b;
    return tv_bits_f64(tv_f64_bits(a) & tv_f64_bits(b));
}
D2(dmax, dmax_z(a, b))
D2(dmin, dmin_z(a, b))
DCMP(dslt, a < b)
DCMP(dsge, a >= b)
DCMP(dseq, a == b)
DCMP(dsne, a != b)
D1(drcp, 1.0 / a)
D1(dsqrt, sqrt(a))
D1(drsq, 1.0 / sqrt(a))
D3(dmad, a * b + c)
D3(dfma, fma(a, b, c))
D1(dfrac, a - floor(a))
D1(dtrunc, trunc(a))
D1(dceil, ceil(a))
D1(dflr, floor(a))
D1(dround, rint(a))
D1(dssg, a > 0.0 ? 1.0 : (a < 0.0 ? -1.0 : 0.0))

/* DLDEXP: exponent from src1.x for xy and src1.z for zw (as the spec writes it). */
void vm_h_dldexp(vm_warp *w, const vm_uop *u)
{
    vm_slot t[4];
    memset(t, 0, sizeof t);
    for (unsigned p = 0; p < 2; p++) {
        if (!want(u, p)) continue;
        VM_FOR_LANES {
            int32_t e = w->r[u->src[4 + 2 * p]].i[l];
            e = e > 4000 ? 4000 : (e < -4000 ? -4000 : e);
            dput(t, p, l, ldexp(dsrc(w, u, 0, p, l), e), u->flags & VM_UF_SAT);
        }
    }
    commit4(w, u, t);
}

/* 32-bit -> double: pair p from channel p (x -> xy, y -> zw). */
#define TO_D(name, expr)                                                                   \
    void vm_h_##name(vm_warp *w, const vm_uop *u)                                          \
    {                                                                                      \
        vm_slot t[4];                                                                      \
        memset(t, 0, sizeof t);                                                            \
        for (unsigned p = 0; p < 2; p++) {                                                 \
            if (!want(u, p)) continue;                                                     \
            const vm_slot *A = &w->r[u->src[p]];                                           \
            VM_FOR_LANES dput(t, p, l, (expr), u->flags & VM_UF_SAT);                      \
        }                                                                                  \
        commit4(w, u, t);                                                                  \
    }
TO_D(f2d, (double)A->f[l])
TO_D(i2d, (double)A->i[l])
TO_D(u2d, (double)A->u[l])

/* double -> 32-bit: channel p (x, y) from pair p. */
void vm_h_d2f(vm_warp *w, const vm_uop *u)
{
    vm_slot t[4];
    memset(t, 0, sizeof t);
    for (unsigned p = 0; p < 2; p++) {
        VM_FOR_LANES {
            float f = (float)dsrc(w, u, 0, p, l);
            t[p].f[l] = (u->flags & VM_UF_SAT) ? vm_sat(f) : f;
        }
    }
    vm_commit_narrow(w, u, t);
}
void vm_h_d2i(vm_warp *w, const vm_uop *u)
{
    vm_slot t[4];
    memset(t, 0, sizeof t);
    for (unsigned p = 0; p < 2; p++)
        VM_FOR_LANES t[p].i[l] = vm_d2i(dsrc(w, u, 0, p, l));
    vm_commit_narrow(w, u, t);
}
void vm_h_d2u(vm_warp *w, const vm_uop *u)
{
    vm_slot t[4];
    memset(t, 0, sizeof t);
    for (unsigned p = 0; p < 2; p++)
        VM_FOR_LANES t[p].u[l] = vm_d2u_conv(dsrc(w, u, 0, p, l));
    vm_commit_narrow(w, u, t);
}
