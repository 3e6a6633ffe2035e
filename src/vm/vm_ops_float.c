/* Float handlers: per-channel ops, scalar (replicated) ops and dot products.
 * Semantics: docs/vm-semantics.md §1 "Arithmetic". Multiplies are never fused (ISO C, no
 * contraction), so _PRECISE holds for every opcode; LEGACY_MATH_RULES selects the *_legacy
 * variants. */
#include "vm/vm_fastmath.h"
#include "vm/vm_ops.h"

/* Each operation is the expression of one lane; its handler vm_h_NAME_n runs a channel
 * group (vm_ops.h VM_GROUP*: source k of channel c in src[k*4 + c], destination dst[c]). */
#define F1(name, expr) VM_GROUP1(name, float, f, f, vm_finish_n_f, expr)
#define F2(name, expr) VM_GROUP2(name, float, f, f, vm_finish_n_f, expr)
#define F3(name, expr) VM_GROUP3(name, float, f, f, vm_finish_n_f, expr)
/* Ops lowered as scalars (VM_L_SC: one result replicated) need no channel group. */
#define F1S(name, expr)                                                                    \
    VM_WIDE_VECTORS void vm_h_##name(vm_warp *w, const vm_uop *u)                          \
    {                                                                                      \
        const vm_slot *A = VM_SRC(0);                                                      \
        vm_slot t;                                                                         \
        VM_FOR_LANES { float a = A->f[l]; t.f[l] = (expr); }                               \
        vm_finish_f(w, u, &t);                                                             \
    }
#define F2S(name, expr)                                                                    \
    VM_WIDE_VECTORS void vm_h_##name(vm_warp *w, const vm_uop *u)                          \
    {                                                                                      \
        const vm_slot *A = VM_SRC(0), *B = VM_SRC(1);                                      \
        vm_slot t;                                                                         \
        VM_FOR_LANES { float a = A->f[l], b = B->f[l]; t.f[l] = (expr); }                  \
        vm_finish_f(w, u, &t);                                                             \
    }
/* Comparisons producing integer masks (~0 / 0), never saturated. */
#define FCMP(name, expr) VM_GROUP2(name, float, f, u, vm_finish_n_u, (expr) ? ~0u : 0u)
/* Conversions to integers (never saturated; FTOI: signed, FTOU: unsigned). */
#define FTOI(name, expr) VM_GROUP1(name, float, f, i, vm_finish_n_u, expr)
#define FTOU(name, expr) VM_GROUP1(name, float, f, u, vm_finish_n_u, expr)
/* Conversions from integers (saturate applies: the result is a float). */
#define ITOF(name, member)                                                                 \
    VM_WIDE_VECTORS void vm_h_##name##_n(vm_warp *w, const vm_uop *u)                      \
    {                                                                                      \
        vm_slot t[4];                                                                      \
        VM_FOR_CHANNELS {                                                                  \
            const vm_slot *A = VM_GSRC(0, c);                                              \
            VM_FOR_LANES t[c].f[l] = (float)A->member[l];                                  \
        }                                                                                  \
        vm_finish_n_f(w, u, t);                                                            \
    }

void vm_h_mov(vm_warp *w, const vm_uop *u)
{
    vm_slot t = *VM_SRC(0);
    if (u->flags & VM_UF_SAT)
        VM_FOR_LANES t.f[l] = vm_sat(t.f[l]);
    vm_store(w, u->dst[0], &t);
}

/* A channel group of MOVs (TGSI MOV and the commits of computed results). */
VM_WIDE_VECTORS void vm_h_mov_n(vm_warp *w, const vm_uop *u)
{
    vm_slot t[4];
    VM_FOR_CHANNELS t[c] = *VM_GSRC(0, c);
    vm_finish_n_f(w, u, t);
}

F2(add, a + b)
F2(mul, a * b)
F2(mul_legacy, vm_lmul(a, b))
F2(div, a / b)
F3(mad, a * b + c)
F3(mad_legacy, vm_lmul(a, b) + c)
F3(fma, fmaf(a, b, c))
F3(fma_legacy, (a == 0.0f || b == 0.0f) ? 0.0f + c : fmaf(a, b, c))
F3(lrp, a * b + (1.0f - a) * c)
F3(lrp_legacy, vm_lmul(a, b) + vm_lmul(1.0f - a, c))
/* MIN/MAX: a NaN operand yields the other operand; -0 < +0. */
static inline float fmin_z(float a, float b)
{
    if (a != a) return b;
    if (b != b) return a;
    if (a < b) return a;
    if (b < a) return b;
    return tv_bits_f32(tv_f32_bits(a) | tv_f32_bits(b));
}
static inline float fmax_z(float a, float b)
{
    if (a != a) return b;
    if (b != b) return a;
    if (a > b) return a;
    if (b > a) return b;
    return tv_bits_f32(tv_f32_bits(a) & tv_f32_bits(b));
}
F2(min, fmin_z(a, b))
F2(max, fmax_z(a, b))
F2(slt, a < b ? 1.0f : 0.0f)
F2(sge, a >= b ? 1.0f : 0.0f)
F2(seq, a == b ? 1.0f : 0.0f)
F2(sgt, a > b ? 1.0f : 0.0f)
F2(sle, a <= b ? 1.0f : 0.0f)
F2(sne, a != b ? 1.0f : 0.0f)
FCMP(fseq, a == b)
FCMP(fsge, a >= b)
FCMP(fslt, a < b)
FCMP(fsne, a != b)
F1(frc, a - floorf(a))
F1(flr, floorf(a))
F1(ceil, ceilf(a))
F1(trunc, truncf(a))
F1(round, rintf(a))
F1(ssg, a > 0.0f ? 1.0f : (a < 0.0f ? -1.0f : 0.0f))
F3(cmp, a < 0.0f ? b : c)
F1S(rcp, 1.0f / a)
F1S(rsq, 1.0f / sqrtf(a))
F1S(sqrt, sqrtf(a))
F1S(ex2, exp2f(a))
F1S(lg2, log2f(a))
F2S(pow, powf(a, b))
/* SIN/COS: the branch-free polynomial of vm_fastmath.h over all lanes (vectorised), then
 * libm for the rare lanes beyond its reduction range (|x| > 8192, Inf, NaN). A channel
 * group (consecutive SIN or COS instructions fused at lowering, vm_lower_copy.c) runs in
 * one call: the polynomial is a chain of dependent operations, and the channels' chains
 * are independent, so the core overlaps them. */
VM_WIDE_VECTORS static void trig(vm_warp *w, const vm_uop *u, uint32_t cosine)
{
    vm_slot t[4];
    uint32_t far = 0;
    VM_FOR_CHANNELS {
        const vm_slot *A = VM_GSRC(0, c);
        VM_FOR_LANES {
            float a = A->f[l];
            t[c].f[l] = vm_sincos_lane(a, cosine);
            far |= !(fabsf(a) <= VM_TRIG_LIMIT);
        }
    }
    if (far)
        VM_FOR_CHANNELS VM_FOR_LANES {
            float a = VM_GSRC(0, c)->f[l];
            if (!(fabsf(a) <= VM_TRIG_LIMIT))
                t[c].f[l] = cosine ? cosf(a) : sinf(a);
        }
    vm_finish_n_f(w, u, t);
}
void vm_h_sin_n(vm_warp *w, const vm_uop *u) { trig(w, u, 0); }
void vm_h_cos_n(vm_warp *w, const vm_uop *u) { trig(w, u, 1); }
FTOI(f2i, vm_f2i(a))
FTOU(f2u, vm_f2u_conv(a))
FTOI(arl, vm_f2i(floorf(a)))
FTOI(arr, vm_f2i(rintf(a)))

void vm_h_ldexp(vm_warp *w, const vm_uop *u)
{
    const vm_slot *A = VM_SRC(0), *B = VM_SRC(1);
    vm_slot t;
    VM_FOR_LANES {
        int32_t e = B->i[l];
        /* clamp the exponent so ldexpf's int argument never matters beyond the range */
        e = e > 400 ? 400 : (e < -400 ? -400 : e);
        t.f[l] = ldexpf(A->f[l], e);
    }
    vm_finish_f(w, u, &t);
}

ITOF(i2f, i)
ITOF(u2f, u)

/* Dot products: src[0..n-1] = a, src[4..4+n-1] = b, n in aux. */
static void dot(vm_warp *w, const vm_uop *u, bool legacy)
{
    unsigned n = u->aux;
    vm_slot t;
    VM_FOR_LANES t.f[l] = 0.0f;
    for (unsigned c = 0; c < n; c++) {
        const vm_slot *A = VM_SRC(c), *B = VM_SRC(4 + c);
        if (c == 0) {
            if (legacy)
                VM_FOR_LANES t.f[l] = vm_lmul(A->f[l], B->f[l]);
            else
                VM_FOR_LANES t.f[l] = A->f[l] * B->f[l];
        } else if (legacy) {
            VM_FOR_LANES t.f[l] += vm_lmul(A->f[l], B->f[l]);
        } else {
            VM_FOR_LANES t.f[l] += A->f[l] * B->f[l];
        }
    }
    vm_finish_f(w, u, &t);
}

void vm_h_dot(vm_warp *w, const vm_uop *u) { dot(w, u, false); }
void vm_h_dot_legacy(vm_warp *w, const vm_uop *u) { dot(w, u, true); }

/* ---- vec4 ops with channel-dependent results (VM_L_V4): src[k*4+c], dst[0..3] ---- */

static void store4(vm_warp *w, const vm_uop *u, vm_slot t[4], bool sat)
{
    for (unsigned c = 0; c < 4; c++) {
        if (!(u->aux & (1u << c)))
            continue;
        if (sat)
            VM_FOR_LANES t[c].f[l] = vm_sat(t[c].f[l]);
        /* scratch destinations: plain copy (commit applies the mask) */
        w->r[u->dst[c]] = t[c];
    }
}

void vm_h_lit(vm_warp *w, const vm_uop *u)
{
    const vm_slot *X = VM_SRC(0), *Y = VM_SRC(1), *W = VM_SRC(3);
    vm_slot t[4];
    VM_FOR_LANES {
        float x = X->f[l], y = Y->f[l], e = W->f[l];
        e = e < -128.0f ? -128.0f : (e > 128.0f ? 128.0f : e);
        t[0].f[l] = 1.0f;
        t[1].f[l] = fmaxf(x, 0.0f);
        t[2].f[l] = x > 0.0f ? powf(fmaxf(y, 0.0f), e) : 0.0f;
        t[3].f[l] = 1.0f;
    }
    store4(w, u, t, u->flags & VM_UF_SAT);
}

void vm_h_exp(vm_warp *w, const vm_uop *u)
{
    const vm_slot *X = VM_SRC(0);
    vm_slot t[4];
    VM_FOR_LANES {
        float x = X->f[l], f = floorf(x);
        t[0].f[l] = exp2f(f);
        t[1].f[l] = x - f;
        t[2].f[l] = exp2f(x);
        t[3].f[l] = 1.0f;
    }
    store4(w, u, t, u->flags & VM_UF_SAT);
}

void vm_h_log(vm_warp *w, const vm_uop *u)
{
    const vm_slot *X = VM_SRC(0);
    vm_slot t[4];
    VM_FOR_LANES {
        float a = fabsf(X->f[l]);
        float lg = log2f(a), fl = floorf(lg);
        t[0].f[l] = fl;
        t[1].f[l] = a / exp2f(fl);
        t[2].f[l] = lg;
        t[3].f[l] = 1.0f;
    }
    store4(w, u, t, u->flags & VM_UF_SAT);
}

static void dst_op(vm_warp *w, const vm_uop *u, bool legacy)
{
    const vm_slot *A = VM_SRC(1), *B = VM_SRC(5);   /* src0.y, src1.y */
    const vm_slot *Z = VM_SRC(2), *W = VM_SRC(7);   /* src0.z, src1.w */
    vm_slot t[4];
    VM_FOR_LANES {
        t[0].f[l] = 1.0f;
        t[1].f[l] = legacy ? vm_lmul(A->f[l], B->f[l]) : A->f[l] * B->f[l];
        t[2].u[l] = Z->u[l];
        t[3].u[l] = W->u[l];
    }
    store4(w, u, t, u->flags & VM_UF_SAT);
}
void vm_h_dst(vm_warp *w, const vm_uop *u) { dst_op(w, u, false); }
void vm_h_dst_legacy(vm_warp *w, const vm_uop *u) { dst_op(w, u, true); }
