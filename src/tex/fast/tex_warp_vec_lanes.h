/* The lane toolkit of the vectorised warp kernel (tex_warp_vec.c and the texel half in
 * tex_warp_vec_texel.h): branch-free per-lane operations on bits (selects, strict min /
 * max with tie flags, rint, floor, nearest level, square roots per ISA variant) that
 * GCC vectorises inside the kernel's fixed-length lane loops, and the per-request
 * constants both halves read. Included by tex_warp_vec.c only. */
#ifndef TEXVM_TEX_WARP_VEC_LANES_H
#define TEXVM_TEX_WARP_VEC_LANES_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "tex/fast/tex_warp.h"

#if TEX_WIDE_VECTORS
#include <immintrin.h> /* the square roots (sqrt_lanes), the tap sums (texel half) */
#endif

#define N TV_TEX_LANES
#define BIG 8388608.0f /* 2^23 */

/* Initial-exec for the kernel's per-thread counters and state read inside it: the library
 * is position-independent, and the default model's __tls_get_addr call in the middle of
 * slot_pass (relaxed to a plain load only when linked statically) made GCC spill and
 * reload every live vector register around it. */
#if defined(__GNUC__) && defined(__ELF__)
#define TEX_TLS_IE __attribute__((tls_model("initial-exec")))
#else
#define TEX_TLS_IE
#endif

#if defined(__GNUC__)
typedef uint32_t tex_word __attribute__((may_alias, aligned(4)));
typedef uint64_t tex_pair __attribute__((may_alias, aligned(4))); /* two adjacent words */
#define VEC_INLINE static inline __attribute__((always_inline))
#else
typedef uint32_t tex_word;
typedef uint64_t tex_pair;
#define VEC_INLINE static inline
#endif

VEC_INLINE uint32_t fb(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

VEC_INLINE float bf(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* c (0 or 1) ? a : b, on the bits. The loops below compute both sides of every choice and
 * select this way: GCC's partial redundancy elimination otherwise sinks float operations
 * into the branches of a `?:`, and if-conversion then refuses them (an operation that may
 * raise a flag is not made unconditional under the default -ftrapping-math), which keeps
 * the loop scalar. */
VEC_INLINE float fsel(uint32_t c, float a, float b)
{
    uint32_t m = 0u - c;
    return bf((fb(a) & m) | (fb(b) & ~m));
}

VEC_INLINE uint32_t isel(uint32_t c, uint32_t a, uint32_t b)
{
    uint32_t m = 0u - c;
    return (a & m) | (b & ~m);
}

/* min / max by the strict orders; *bad gets a tie of different bits (±0) or a NaN */
VEC_INLINE float vmin(float a, float b, uint32_t *bad)
{
    *bad |= (uint32_t)(a != a) | (uint32_t)(b != b) | ((uint32_t)(a == b) & (fb(a) != fb(b)));
    return fsel(a < b, a, b);
}

VEC_INLINE float vmax(float a, float b, uint32_t *bad)
{
    *bad |= (uint32_t)(a != a) | (uint32_t)(b != b) | ((uint32_t)(a == b) & (fb(a) != fb(b)));
    return fsel(a > b, a, b);
}

/* rintf (round to nearest even) */
VEC_INLINE float rne(float y)
{
    float a = fabsf(y);
    float r = copysignf((a + BIG) - BIG, y);
    return fsel(a < BIG, r, y);
}

/* sqrtf for 32 lanes: the hardware square root of the variant's widest vectors (isa: 2
 * AVX-512F, 1 AVX2, 0 the baseline's SSE; a constant of each inlined copy, so the other
 * arms and their builtins are gone before code generation) — sqrtf is a call the
 * vectoriser cannot take while math-errno is on (the project's default), and neither
 * `#pragma GCC optimize` nor the optimize attribute turns that off in GCC 12; all are
 * correctly rounded. Full-width loads after full-width stores also avoid the
 * store-forwarding stalls of 4-lane reads of 16-lane stores. */
#if TEX_WIDE_VECTORS
/* (functions of the variants' targets: the intrinsics cannot be inlined into a function
 * of the default target, even one that is itself only ever inlined into the variant) */
TEX_TARGET_AVX512 static inline void sqrt_avx512(float *x)
{
    for (unsigned l = 0; l < N; l += 16)
        _mm512_storeu_ps(&x[l], _mm512_sqrt_ps(_mm512_loadu_ps(&x[l])));
}

TEX_TARGET_AVX2 static inline void sqrt_avx2(float *x)
{
    for (unsigned l = 0; l < N; l += 8)
        _mm256_storeu_ps(&x[l], _mm256_sqrt_ps(_mm256_loadu_ps(&x[l])));
}
#endif

VEC_INLINE void sqrt_lanes(float *x, unsigned isa)
{
    (void)isa;   /* only the wide-vector builds (GCC on x86-64) have variants */
#if TEX_WIDE_VECTORS
    if (isa == 2) {
        sqrt_avx512(x);
        return;
    }
    if (isa == 1) {
        sqrt_avx2(x);
        return;
    }
#endif
#if defined(__SSE__) && defined(__GNUC__)
    typedef float v4sf __attribute__((vector_size(16), aligned(4)));
    for (unsigned l = 0; l < N; l += 4) {
        v4sf v;
        memcpy(&v, &x[l], sizeof v);
        v = __builtin_ia32_sqrtps(v);
        memcpy(&x[l], &v, sizeof v);
    }
#else
    (void)isa;
    for (unsigned l = 0; l < N; l++)
        x[l] = sqrtf(x[l]);
#endif
}

/* Whether any lane of v is nonzero (lanes_any), or every lane (lanes_all): on AVX-512 two
 * lane tests into masks, where GCC reduces a lane loop's OR horizontally (two extracts, two
 * byte shifts, four ORs and a move, half of them on the shuffle port, in one chain ahead
 * of the branch that reads it). Flags only: the same answer either way. */
#if TEX_WIDE_VECTORS
TEX_TARGET_AVX512 static inline uint32_t any_avx512(const uint32_t *v)
{
    __m512i o = _mm512_or_si512(_mm512_loadu_si512((const void *)v),
                                _mm512_loadu_si512((const void *)(v + 16)));
    return _mm512_test_epi32_mask(o, o) != 0;
}

TEX_TARGET_AVX512 static inline uint32_t all_avx512(const uint32_t *v)
{
    __m512i a = _mm512_loadu_si512((const void *)v), b = _mm512_loadu_si512((const void *)(v + 16));
    return (_mm512_test_epi32_mask(a, a) & _mm512_test_epi32_mask(b, b)) == 0xffffu;
}

/* AVX2: the OR of the four registers (any) or of their lanes' == 0 compares (all) and one
 * vptest, where GCC's reduction ends in a chain of extracts, shifts and ORs */
TEX_TARGET_AVX2 static inline __m256i lanes8_avx2(const uint32_t *v, unsigned i)
{
    return _mm256_loadu_si256((const __m256i *)(const void *)(v + 8 * i));
}

TEX_TARGET_AVX2 static inline uint32_t any_avx2(const uint32_t *v)
{
    __m256i o = _mm256_or_si256(_mm256_or_si256(lanes8_avx2(v, 0), lanes8_avx2(v, 1)),
                                _mm256_or_si256(lanes8_avx2(v, 2), lanes8_avx2(v, 3)));
    return !_mm256_testz_si256(o, o);
}

TEX_TARGET_AVX2 static inline uint32_t all_avx2(const uint32_t *v)
{
    const __m256i z = _mm256_setzero_si256();
    __m256i e = _mm256_or_si256(
        _mm256_or_si256(_mm256_cmpeq_epi32(lanes8_avx2(v, 0), z),
                        _mm256_cmpeq_epi32(lanes8_avx2(v, 1), z)),
        _mm256_or_si256(_mm256_cmpeq_epi32(lanes8_avx2(v, 2), z),
                        _mm256_cmpeq_epi32(lanes8_avx2(v, 3), z)));
    return _mm256_testz_si256(e, e);
}
#endif

VEC_INLINE uint32_t lanes_any(const uint32_t *v, unsigned isa)
{
#if TEX_WIDE_VECTORS
    if (isa == 2)
        return any_avx512(v);
    if (isa == 1)
        return any_avx2(v);
#endif
    (void)isa;
    uint32_t any = 0;
    for (unsigned l = 0; l < N; l++)
        any |= v[l];
    return any != 0;
}

VEC_INLINE uint32_t lanes_all(const uint32_t *v, unsigned isa)
{
#if TEX_WIDE_VECTORS
    if (isa == 2)
        return all_avx512(v);
    if (isa == 1)
        return all_avx2(v);
#endif
    (void)isa;
    uint32_t all = 1;
    for (unsigned l = 0; l < N; l++)
        all &= v[l] != 0;
    return all;
}

/* floor for |x| < 2^23 (the caller sanitises) */
VEC_INLINE int32_t floor_i(float x)
{
    int32_t t = (int32_t)x;
    return t - (int32_t)((float)t > x);
}

/* tex_nearest_level (tex_formulas.h: ceilf(x + 0.5f) - 1.0f) for 0 <= x < 2^22, ceil
 * through int32 truncation (exact there), so that the lane loop vectorises */
VEC_INLINE float nearest(float x)
{
    float y = x + 0.5f;
    int32_t t = (int32_t)y;
    t += (int32_t)((float)t < y);
    return (float)t - 1.0f;
}

/* ---- per-request constants ---------------------------------------------------------- */
typedef struct vec_req {          /* per-request constants */
    const warp_ctx *w;
    const tv_tex_request *req;
    uint32_t active, present;
    bool proj, offs, deriv, array, op_lod, op_lz, op_bias;
    bool vo;                      /* TV_TEXF_VALUES_ONLY: only res->v is read */
    bool mag;                     /* vo, and the lane-independent conditions of the
                                   * magnification shortcut (tex_warp_vec.c) hold */
    bool free;                    /* vo, mip NONE and one filter for minification and
                                   * magnification: λ decides nothing (tex_warp_vec.c) */
    bool lod_common;              /* vo, a SAMPLE with derivatives, no per-lane bias, mip
                                   * LINEAR: lod_pass's common copy (tex_warp_vec.c) */
    bool lin_all;                 /* the linear filter for magnification and minification:
                                   * lin is 1 in every lane (slot_pass) */
    bool all4;                    /* every component filtered, none a constant (slot_pass) */
    bool pitch;                   /* the view's layout is pitch (slot_pass) */
    bool trail;                   /* one level pass a level per request, as the warps walk
                                   * (not anisotropic probes): the paired gathers'
                                   * prefetches (slot_pass, trail_prefetch) */
    /* the thread's log2 memo (tex_warp_vec.c), its address taken once per request: inside
     * the kernel's loops a thread-local's address costs a call in PIC code (GCC's
     * global-dynamic model), and the vector registers are saved around it */
    struct log2_memo *memo;
    uint32_t layers;              /* (the channel shifts: R->w->shift, per context) */
    /* the context's λ terms that no lane changes, made with the request's plan
       (tex_warp_vec.c vec_plan_make) instead of per request: the sampler's bias clamped
       (sbias + 0, as a request without SAMPLE_BIAS sums it) and that clamp's flag, and
       the flag of the sampler's bounds (lod_max -0 or NaN, lod_min NaN) — lod_pass */
    float cbias;
    uint32_t cbias_bad, bounds_bad;
} vec_req;

#endif
