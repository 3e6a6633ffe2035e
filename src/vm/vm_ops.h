/* Handler-writing helpers shared by the vm_ops_*.c files. Every handler loops over the 32
 * lanes of a warp with no per-lane branches so the compiler can vectorise it; results go
 * to a local slot first and are then stored under the execution mask. */
#ifndef TEXVM_VM_OPS_H
#define TEXVM_VM_OPS_H

#include <math.h>
#include "vm/vm_internal.h"

#define VM_SRC(k) (&w->r[u->src[k]])
#define VM_FOR_LANES for (unsigned l = 0; l < VM_LANES; l++)

/* Handlers marked VM_WIDE_VECTORS are compiled for wider vectors too where GCC can pick
 * the variant at load time (util/wide_vectors.h): 8 or 16 lanes per instruction instead
 * of 4, with bit-identical results. */
#include "util/wide_vectors.h"
#define VM_WIDE_VECTORS TV_WIDE_VECTORS
#ifdef TV_HAVE_CLONES
#define VM_HAVE_CLONES 1
#endif

/* Commit the results of a 64-bit -> 32-bit conversion (T[0] from the pair xy, T[1] from
 * zw): the first channel the writemask (aux) enables takes T[0], the second T[1], more
 * take 0 — as Mesa's TGSI interpreter does, and as the TGSI Mesa emits relies on
 * (`D2F OUT[0].y, TEMP[2]` converts TEMP[2].xy). For .x and .xy this is tgsi.rst's
 * dst.x = src.xy, dst.y = src.zw. */
static inline void vm_commit_narrow(vm_warp *w, const vm_uop *u, const vm_slot t[4])
{
    unsigned k = 0;
    for (unsigned c = 0; c < 4; c++)
        if (u->aux & (1u << c)) {
            if (k < 2)
                w->r[u->dst[c]] = t[k];
            else
                memset(&w->r[u->dst[c]], 0, sizeof w->r[u->dst[c]]);
            k++;
        }
}

/* Store a float result, saturating when the micro-op asks. */
static VM_ALWAYS_INLINE void vm_finish_f(vm_warp *w, const vm_uop *u, vm_slot *t)
{
    if (u->flags & VM_UF_SAT)
        VM_FOR_LANES t->f[l] = vm_sat(t->f[l]);
    vm_store(w, u->dst[0], t);
}

static VM_ALWAYS_INLINE void vm_finish_u(vm_warp *w, const vm_uop *u, vm_slot *t)
{
    vm_store(w, u->dst[0], t);
}

/* The group handlers written by hand (MOV, conversions, SIN/COS; the others come from
 * VM_GROUP* below) compute every channel into t before storing any (TGSI reads all
 * sources before writing), then store them with these. */
#define VM_GSRC(k, c) (&w->r[u->src[(k) * 4u + (c)]])
#define VM_FOR_CHANNELS for (unsigned c = 0; c < u->aux2; c++)

static VM_ALWAYS_INLINE void vm_finish_n_u(vm_warp *w, const vm_uop *u, vm_slot t[4])
{
    if (u->flags & VM_UF_NOMASK)
        VM_FOR_CHANNELS memcpy(&w->r[u->dst[c]], &t[c], sizeof(vm_slot));
    else
        VM_FOR_CHANNELS vm_store(w, u->dst[c], &t[c]);
}

static VM_ALWAYS_INLINE void vm_finish_n_f(vm_warp *w, const vm_uop *u, vm_slot t[4])
{
    if (u->flags & VM_UF_SAT)
        VM_FOR_CHANNELS VM_FOR_LANES t[c].f[l] = vm_sat(t[c].f[l]);
    vm_finish_n_u(w, u, t);
}

/* Channel groups: one micro-op runs a per-channel operation for the n = aux2 (1..4)
 * written channels of an instruction; channel c reads source k from src[k*4 + c] and
 * writes dst[c], under the execution mask (every lane with VM_UF_NOMASK), saturated with
 * VM_UF_SAT when FIN is vm_finish_n_f.
 *
 * Each channel's result is blended under the mask straight into its destination slot,
 * with no local copy: a store and a reload on the critical path of dependent micro-ops
 * cost more than the arithmetic (chains of dependent `ADD TEMP[0].x, TEMP[0].xxxx, ...`
 * ran 1.2x faster without them, the bench loop workload 1.07x; docs/history/
 * performance-log.md §5). That is safe with one channel, or
 * with VM_UF_DIRECT (no destination is a source of a later channel; vm_lower_copy.c
 * mark_direct); otherwise, as TGSI reads every source before writing, every channel is
 * computed into t first and then stored. A destination written directly is either one of
 * its channel's own sources or a slot of its own (slots never overlap in part) and each
 * lane reads its sources before writing, so the lane loop carries no dependence; the
 * pragma says so, else GCC guards the vector loop with an overlap test that sends such a
 * micro-op to the scalar loop.
 *
 * The expression is compiled into one loop per handler, which blends under the mask (all
 * lanes blend for a full one), writing to the destination or to t: a micro-op of the
 * plain interpreter and the same instruction in the optimised program run the same
 * instructions, so even the NaN an
 * operation returns when both operands are NaN (x86 returns the first operand's, and which
 * C operand comes first is the compiler's choice, made differently in different loops)
 * is the same both ways. A second loop for full masks (no blend) was faster by a few
 * percent and failed translation validation on such a NaN (tests/tv/test_tv_random.c,
 * seed 649). */
#if defined(__clang__)
#define VM_NO_LOOP_DEPENDENCE _Pragma("clang loop vectorize(assume_safety)")
#elif defined(__GNUC__)
#define VM_NO_LOOP_DEPENDENCE _Pragma("GCC ivdep")
#else
#define VM_NO_LOOP_DEPENDENCE
#endif
#define VM_SATV_vm_finish_n_f(x, sat) ((sat) ? vm_sat(x) : (x))
#define VM_SATV_vm_finish_n_u(x, sat) ((void)(sat), (x))
typedef union vm_lane_word {
    float f;
    uint32_t u;
    int32_t i;
} vm_lane_word;

/* A group handler from the expression of one lane: NSRC sources read as T from the slot
 * member IN (declared by LOADS as a, b, c), the result stored to member OUT. */
#define VM_GROUP_HANDLER(name, NSRC, T, IN, OUT, FIN, LOADS, expr)                         \
    VM_WIDE_VECTORS void vm_h_##name##_n(vm_warp *w, const vm_uop *u)                      \
    {                                                                                      \
        const bool direct = u->aux2 == 1 || (u->flags & VM_UF_DIRECT);                     \
        const bool sat = (u->flags & VM_UF_SAT) != 0;                                      \
        const uint32_t e = (u->flags & VM_UF_NOMASK) ? VM_ALL_LANES : w->exec;             \
        const uint32_t le = direct ? e : VM_ALL_LANES;   /* the loop's mask */             \
        vm_slot t[4];                                                                      \
        if (!direct)                                                                       \
            memset(t, 0, sizeof t);                                                        \
        for (unsigned ch = 0; ch < u->aux2 && ch < 4; ch++) {                              \
            const vm_slot *A = VM_GSRC(0, ch);                                             \
            const vm_slot *B = VM_GSRC(NSRC > 1 ? 1 : 0, ch);                              \
            const vm_slot *C = VM_GSRC(NSRC > 2 ? 2 : 0, ch);                              \
            (void)B, (void)C;                                                              \
            vm_slot *X = direct ? &w->r[u->dst[ch]] : &t[ch];                              \
            VM_NO_LOOP_DEPENDENCE                                                          \
            VM_FOR_LANES {                                                                 \
                LOADS;                                                                     \
                vm_lane_word r;                                                            \
                r.OUT = VM_SATV_##FIN((expr), sat);                                        \
                uint32_t m = 0u - (uint32_t)((le & vm_lane_bit[l]) != 0u);                 \
                X->u[l] = (X->u[l] & ~m) | (r.u & m);                                      \
            }                                                                              \
        }                                                                                  \
        if (!direct)   /* saturated in the loop: stored as they are */                    \
            vm_finish_n_u(w, u, t);                                                        \
    }
#define VM_GROUP1(name, T, IN, OUT, FIN, expr)                                             \
    VM_GROUP_HANDLER(name, 1, T, IN, OUT, FIN, T a = A->IN[l], expr)
#define VM_GROUP2(name, T, IN, OUT, FIN, expr)                                             \
    VM_GROUP_HANDLER(name, 2, T, IN, OUT, FIN, T a = A->IN[l]; T b = B->IN[l], expr)
#define VM_GROUP3(name, T, IN, OUT, FIN, expr)                                             \
    VM_GROUP_HANDLER(name, 3, T, IN, OUT, FIN,                                             \
                     T a = A->IN[l]; T b = B->IN[l]; T c = C->IN[l], expr)

/* Float to integer conversions with defined results for every input (docs/vm-semantics.md
 * §1):
 * truncation toward zero; NaN -> 0; out of range saturates. */
static inline int32_t vm_f2i(float x)
{
    if (!(x == x)) return 0;
    if (x >= 2147483648.0f) return INT32_MAX;
    if (x <= -2147483648.0f) return INT32_MIN;
    return (int32_t)x;
}
static inline uint32_t vm_f2u_conv(float x)
{
    if (!(x > -1.0f)) return 0;            /* NaN and x <= -1 */
    if (x >= 4294967296.0f) return UINT32_MAX;
    return (uint32_t)x;
}
static inline int32_t vm_d2i(double x)
{
    if (!(x == x)) return 0;
    if (x >= 2147483648.0) return INT32_MAX;
    if (x <= -2147483649.0) return INT32_MIN;
    return (int32_t)x;
}
static inline uint32_t vm_d2u_conv(double x)
{
    if (!(x > -1.0)) return 0;
    if (x >= 4294967296.0) return UINT32_MAX;
    return (uint32_t)x;
}
static inline int64_t vm_d2i64(double x)
{
    if (!(x == x)) return 0;
    if (x >= 9223372036854775808.0) return INT64_MAX;
    if (x < -9223372036854775808.0) return INT64_MIN;
    return (int64_t)x;
}
static inline uint64_t vm_d2u64(double x)
{
    if (!(x > -1.0)) return 0;
    if (x >= 18446744073709551616.0) return UINT64_MAX;
    return (uint64_t)x;
}

/* Legacy multiply: 0 * anything (Inf, NaN included) = 0. */
static inline float vm_lmul(float a, float b)
{
    return (a == 0.0f || b == 0.0f) ? 0.0f : a * b;
}

/* 64-bit values in channel pairs: lo in src[k*4 + 2p], hi in src[k*4 + 2p + 1]. */
static inline uint64_t vm_pair(const vm_warp *w, uint32_t lo, uint32_t hi, unsigned l)
{
    return (uint64_t)w->r[lo].u[l] | ((uint64_t)w->r[hi].u[l] << 32);
}

#endif
