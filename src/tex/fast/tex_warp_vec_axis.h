/* The axis passes of the vectorised warp kernel: per lane, a texel-space coordinate to its
 * two wrapped texel indices and its weight (axis_pass, and the request-uniform linear
 * filter's copies per ISA variant, axis_uni). Included by tex_warp_vec_texel.h only: a
 * header, not a translation unit, for the reason given at the top of that file. */
#ifndef TEXVM_TEX_WARP_VEC_AXIS_H
#define TEXVM_TEX_WARP_VEC_AXIS_H

#include "tex/fast/tex_warp_vec_lanes.h"

/* One axis of every lane: texel-space coordinate → wrapped indices and weight. Returns
 * nonzero when an active lane is outside |x| < 2^23 (or not finite). `uni` (a constant of
 * each inlined copy, slot_pass): every lane's lin is 1 — the copy then reads no lin[]: the
 * per-lane lin_l below becomes the constant 1, so (float)lin_l * 0.5f is the constant 0.5f
 * (exact either way), the select's condition is a < 1 and i1 = f + 1: the same operations
 * on the same values, so the same bits, with the conversion, product and two selects per
 * lane gone. */
VEC_INLINE uint32_t axis_pass(const float *c, float scale, const float *off,
                              const uint32_t *lin, const uint32_t *act, bool uni,
                              unsigned mode, uint32_t n, int32_t *i0, int32_t *i1, float *al)
{
    uint32_t bad = 0;
    for (unsigned l = 0; l < N; l++) {
        uint32_t lin_l = uni ? 1u : lin[l];
        float su = c[l] * scale;
        float u = su + (off ? off[l] : 0.0f); /* (off NULL: no offsets) */
        float x = u - (float)lin_l * 0.5f; /* u - 0.5f or u - 0.0f */
        uint32_t inr = fabsf(x) < BIG;
        bad |= act[l] & (inr ^ 1u);
        float xs = fsel(inr, x, 0.0f);
        int32_t f = floor_i(xs);
        /* x - floorf(x), +0 also for x = -0; in [0, 1], and 1 where a small negative x
         * rounds x + 1 up: the general path then takes weight 0 (as for NaN) */
        float a = (xs - (float)f) + 0.0f;
        al[l] = fsel(lin_l & (uint32_t)(a < 1.0f), a, 0.0f);
        i0[l] = f;
        i1[l] = f + (int32_t)lin_l;
    }
    int32_t nm = (int32_t)n - 1;
    switch (mode) {
    case TV_WRAP_REPEAT:
        for (unsigned l = 0; l < N; l++) {
            i0[l] &= nm;
            i1[l] &= nm;
        }
        break;
    case TV_WRAP_MIRROR: /* (n-1) - mirror(imod(i, 2n) - n), n a power of two */
        for (unsigned l = 0; l < N; l++) {
            int32_t m0 = (i0[l] & (2 * nm + 1)) - (int32_t)n;
            int32_t m1 = (i1[l] & (2 * nm + 1)) - (int32_t)n;
            i0[l] = nm - (m0 >= 0 ? m0 : -(1 + m0));
            i1[l] = nm - (m1 >= 0 ? m1 : -(1 + m1));
        }
        break;
    default: /* CLAMP_TO_EDGE */
        for (unsigned l = 0; l < N; l++) {
            i0[l] = i0[l] < 0 ? 0 : i0[l] > nm ? nm : i0[l];
            i1[l] = i1[l] < 0 ? 0 : i1[l] > nm ? nm : i1[l];
        }
        break;
    }
    return bad;
}

#if TEX_WIDE_VECTORS
/* axis_pass with uni (every lane linear) in AVX-512F intrinsics: the same values with
 * fewer operations — the floor as vrndscaleps, exact (the result is an integer below 2^24
 * in magnitude, so floor_i's truncation and compare give the same value);
 * (float)floor_i(xs) becomes floorf(xs), which differs only for xs = -0 (-0 instead of
 * +0), and there xs - (-0) = +0, as (xs - (+0)) + 0.0f: axis_pass's + 0.0f, which turns
 * a -0 difference into +0, has nothing to do here (a difference of equal numbers is +0
 * in round-to-nearest, any other is nonzero). No offsets (off NULL): u is su itself
 * instead of su + 0.0f, which differ only for su = -0, and then x = u - 0.5f is -0.5f
 * either way. The wrap: REPEAT as one AND, MIRROR with -(1 + m) = ~m = m ^ (m >> 31) for
 * m < 0, CLAMP as min / max. */
TEX_TARGET_AVX512 static inline uint32_t axis_uni_avx512(const float *c, float scale,
                                                         const float *off, const uint32_t *act,
                                                         unsigned mode, uint32_t n,
                                                         int32_t *i0, int32_t *i1, float *al)
{
    const __m512 vs = _mm512_set1_ps(scale), half = _mm512_set1_ps(0.5f);
    const __m512 big = _mm512_set1_ps(BIG), one = _mm512_set1_ps(1.0f);
    const __m512i nm = _mm512_set1_epi32((int32_t)n - 1), n1 = _mm512_set1_epi32(1);
    const __m512i nn = _mm512_set1_epi32((int32_t)n), m2 = _mm512_set1_epi32(2 * ((int32_t)n - 1) + 1);
    __mmask16 bad = 0;
    for (unsigned l = 0; l < N; l += 16) {
        __m512 u = _mm512_mul_ps(_mm512_loadu_ps(&c[l]), vs);
        if (off)
            u = _mm512_add_ps(u, _mm512_loadu_ps(&off[l]));
        __m512 x = _mm512_sub_ps(u, half);
        __mmask16 inr = _mm512_cmp_ps_mask(_mm512_abs_ps(x), big, _CMP_LT_OQ);
        __mmask16 a_act = (__mmask16)_mm512_test_epi32_mask(
            _mm512_loadu_si512((const void *)&act[l]), _mm512_set1_epi32(-1));
        bad |= (__mmask16)(a_act & (__mmask16)~inr);
        __m512 xs = _mm512_maskz_mov_ps(inr, x);
        __m512 ff = _mm512_roundscale_ps(xs, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
        __m512 a = _mm512_sub_ps(xs, ff);
        __mmask16 lt = _mm512_cmp_ps_mask(a, one, _CMP_LT_OQ);
        _mm512_storeu_ps(&al[l], _mm512_maskz_mov_ps(lt, a));
        __m512i f0 = _mm512_cvttps_epi32(ff), f1 = _mm512_add_epi32(f0, n1);
        if (mode == TV_WRAP_REPEAT) {
            f0 = _mm512_and_si512(f0, nm);
            f1 = _mm512_and_si512(f1, nm);
        } else if (mode == TV_WRAP_MIRROR) {
            __m512i q0 = _mm512_sub_epi32(_mm512_and_si512(f0, m2), nn);
            __m512i q1 = _mm512_sub_epi32(_mm512_and_si512(f1, m2), nn);
            f0 = _mm512_sub_epi32(nm, _mm512_xor_si512(q0, _mm512_srai_epi32(q0, 31)));
            f1 = _mm512_sub_epi32(nm, _mm512_xor_si512(q1, _mm512_srai_epi32(q1, 31)));
        } else {
            f0 = _mm512_min_epi32(_mm512_max_epi32(f0, _mm512_setzero_si512()), nm);
            f1 = _mm512_min_epi32(_mm512_max_epi32(f1, _mm512_setzero_si512()), nm);
        }
        _mm512_storeu_si512((void *)&i0[l], f0);
        _mm512_storeu_si512((void *)&i1[l], f1);
    }
    return bad != 0;
}

/* axis_uni_avx512 in AVX2: the same operations on the same values (its comment is the
 * proof), with compare masks for AVX-512's mask registers — the range test's and the
 * weight's selects as ANDs with the compare (all ones or zero in each lane), the floor as
 * vroundps toward -inf, the active lanes' out-of-range test as one AND of "inactive or in
 * range" over the request. */
TEX_TARGET_AVX2 static inline uint32_t axis_uni_avx2(const float *c, float scale,
                                                     const float *off, const uint32_t *act,
                                                     unsigned mode, uint32_t n, int32_t *i0,
                                                     int32_t *i1, float *al)
{
    const __m256 vs = _mm256_set1_ps(scale), half = _mm256_set1_ps(0.5f);
    const __m256 big = _mm256_set1_ps(BIG), one = _mm256_set1_ps(1.0f);
    const __m256 sign = _mm256_set1_ps(-0.0f);
    const __m256i nm = _mm256_set1_epi32((int32_t)n - 1), n1 = _mm256_set1_epi32(1);
    const __m256i nn = _mm256_set1_epi32((int32_t)n);
    const __m256i m2 = _mm256_set1_epi32(2 * ((int32_t)n - 1) + 1);
    const __m256i zero = _mm256_setzero_si256(), ones = _mm256_set1_epi32(-1);
    __m256i fine = ones; /* lanes inactive or in range */
    for (unsigned l = 0; l < N; l += 8) {
        __m256 u = _mm256_mul_ps(_mm256_loadu_ps(&c[l]), vs);
        if (off)
            u = _mm256_add_ps(u, _mm256_loadu_ps(&off[l]));
        __m256 x = _mm256_sub_ps(u, half);
        __m256 inr = _mm256_cmp_ps(_mm256_andnot_ps(sign, x), big, _CMP_LT_OQ);
        __m256i idle = _mm256_cmpeq_epi32(
            _mm256_loadu_si256((const __m256i *)(const void *)&act[l]), zero);
        fine = _mm256_and_si256(fine, _mm256_or_si256(idle, _mm256_castps_si256(inr)));
        __m256 xs = _mm256_and_ps(inr, x);
        __m256 ff = _mm256_round_ps(xs, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
        __m256 a = _mm256_sub_ps(xs, ff);
        _mm256_storeu_ps(&al[l], _mm256_and_ps(_mm256_cmp_ps(a, one, _CMP_LT_OQ), a));
        __m256i f0 = _mm256_cvttps_epi32(ff), f1 = _mm256_add_epi32(f0, n1);
        if (mode == TV_WRAP_REPEAT) {
            f0 = _mm256_and_si256(f0, nm);
            f1 = _mm256_and_si256(f1, nm);
        } else if (mode == TV_WRAP_MIRROR) {
            __m256i q0 = _mm256_sub_epi32(_mm256_and_si256(f0, m2), nn);
            __m256i q1 = _mm256_sub_epi32(_mm256_and_si256(f1, m2), nn);
            f0 = _mm256_sub_epi32(nm, _mm256_xor_si256(q0, _mm256_srai_epi32(q0, 31)));
            f1 = _mm256_sub_epi32(nm, _mm256_xor_si256(q1, _mm256_srai_epi32(q1, 31)));
        } else {
            f0 = _mm256_min_epi32(_mm256_max_epi32(f0, zero), nm);
            f1 = _mm256_min_epi32(_mm256_max_epi32(f1, zero), nm);
        }
        _mm256_storeu_si256((__m256i *)(void *)&i0[l], f0);
        _mm256_storeu_si256((__m256i *)(void *)&i1[l], f1);
    }
    return !_mm256_testc_si256(fine, ones);
}
#endif

/* axis_pass for uni on the variant isa (the intrinsic forms above, else the C loop) */
VEC_INLINE uint32_t axis_uni(const float *c, float scale, const float *off,
                             const uint32_t *act, unsigned mode, uint32_t n, int32_t *i0,
                             int32_t *i1, float *al, unsigned isa)
{
#if TEX_WIDE_VECTORS
    if (isa == 2)
        return axis_uni_avx512(c, scale, off, act, mode, n, i0, i1, al);
    if (isa == 1)
        return axis_uni_avx2(c, scale, off, act, mode, n, i0, i1, al);
#endif
    (void)isa;
    return axis_pass(c, scale, off, NULL, act, true, mode, n, i0, i1, al);
}

#endif /* TEXVM_TEX_WARP_VEC_AXIS_H */
