/* The bilinear tap sums of the vectorised warp kernel's wide variants (AVX-512 and AVX2):
 * the RGBA8 decode by byte shuffles, the weights, the sums and the finish of a request
 * (vec_fin), from single-word taps, paired 64-bit gathers or (AVX-512) 16-byte windows;
 * the proof that each gives the baseline's bits is below. Included by tex_warp_vec_texel.h
 * only: a header, not a translation unit, for the reason given at the top of that file. */
#ifndef TEXVM_TEX_WARP_VEC_TAPS_H
#define TEXVM_TEX_WARP_VEC_TAPS_H

#include "tex/fast/tex_warp_vec_lanes.h"
#include "tex/fast/tex_warp_vec_level.h"

/* ---- the bilinear tap sum per ISA variant ------------------------------------------------
 * out[c][l] = Σk wt[k][l] · tex_warp_unorm8(byte of channel c of tx[k][l]), the weights and
 * the sum in slot_pass's order (tex_warp_vec_texel.h: the baseline's loops, the reference). The wide
 * variants differ in three places, each giving the same bits:
 *   - the byte repeated into bytes 0..2 (h = byte · 0x010101, byte 3 zero) by ONE byte
 *     shuffle of the texel word instead of a shift, a mask and two shift-adds (the shuffle
 *     stays inside each 32-bit word, so vpshufb's 128-bit lanes do not matter);
 *   - AVX-512: 256·r (r = h + h·2^-24 rounded) as ONE conversion of the byte repeated
 *     into all four bytes, H = byte · 0x01010101 (the same shuffle), unsigned and rounded
 *     up, instead of a conversion and an add (an fma). Proof, for a byte b ≥ 1 whose top
 *     set bit is bit p: 256·(h + h·2^-24) = H + 257·b·2^-16 = H + φ with 0 < φ < 1
 *     (257 · 255 < 2^16), and 256·r is that sum rounded to nearest (scaling by 256 is
 *     exact). H's top set bit is bit 24 + p, so the rounding keeps bits 24 + p .. p + 1
 *     and drops the low p + 1 bits, which are those of H's lowest byte, b itself: the
 *     dropped part of H + φ is b + φ, above half the kept last bit (2^p ≤ b) and below
 *     the whole of it (b + φ < 2^(p+1)), so to nearest it rounds up — exactly what the
 *     upward conversion does with H, whose dropped part b is nonzero. b = 0 gives 0 both
 *     ways. (tests/tex/test_fastpath_warp_full.c checks all 256 bytes.) The sums then
 *     carry 256× the values below, each rounding scaled alike (the argument below, with
 *     room to spare), and the scaling at the end is 2^-32;
 *   - the decoder's last step, r·2^-24 (r = h + h·2^-24 rounded), moves to the end of the
 *     sum: Σ' w_k·r_k, then · 2^-24 once instead of once per tap. Scaling by 2^-24 is exact
 *     and commutes with every rounding as long as the scaled values stay normal (or zero):
 *     the products and partial sums are ≥ 0 (weights and bytes are), and a nonzero
 *     product w·f (f = r·2^-24 ≥ 1/255) is above 2^-58 because every nonzero weight is
 *     ≥ 2^-50: a weight is a product of two factors a or 1 - a (axis_pass) and both are 0
 *     or ≥ 2^-25 — x = u - 0.5 is exact for u in [1/4, 1] (Sterbenz), so a nonzero x is a
 *     multiple of ulp(u) ≥ 2^-25 there and ≥ 1/4 in magnitude elsewhere; x - floor(x)
 *     is then x itself (≥ 2^-25), a multiple of ulp(x) ≥ 2^-23 (|x| ≥ 1), or x + 1 for x in
 *     (-1, 0), where x is a multiple of 2^-25 and x + 1, if below 1/2, a nonzero multiple of
 *     2^-24 (exact); and 1 - a is exact for a ≥ 1/2 (a multiple of 2^-24) and above 1/2
 *     otherwise. Nothing overflows (weights ≤ 1, r < 2^25).
 * The rest (conversion, weights, products, sums) are the same IEEE operations in the same
 * order. */
#if TEX_WIDE_VECTORS
/* tex_warp_tap_ctl's control words (warp_ctx.ctl3, ctl4) take the byte offset of their
 * word: word j of a 128-bit lane starts at byte 4j (tap_lane_off) */
#define TAP_W(j, r) (int)(4u * (j) * (r))
#define TAP_ROW(r) {TAP_W(0, r), TAP_W(1, r), TAP_W(2, r), TAP_W(3, r), \
                    TAP_W(0, r), TAP_W(1, r), TAP_W(2, r), TAP_W(3, r), \
                    TAP_W(0, r), TAP_W(1, r), TAP_W(2, r), TAP_W(3, r), \
                    TAP_W(0, r), TAP_W(1, r), TAP_W(2, r), TAP_W(3, r)}
/* [four]: the word offsets added in the bytes tex_warp_tap_ctl fills */
static const int32_t tap_lane_off[2][16] = {TAP_ROW(0x010101u), TAP_ROW(0x01010101u)};
#undef TAP_ROW
#undef TAP_W

/* 16 lanes from lane l of the four tap words t[k] (in registers) */
TEX_TARGET_AVX512 static inline void taps16_avx512(const __m512i t[4], const float *a,
                                                   const float *b, unsigned cm,
                                                   const __m512i ctl[4], const vec_fin *F,
                                                   unsigned l, float out[4][N])
{
    const __m512 one = _mm512_set1_ps(1.0f), k32 = _mm512_set1_ps(0x1p-32f);
    __m512 bw0 = one, bw1 = one;
    __mmask16 two = 0, act = 0;
    if (F) {
        __m512i m = _mm512_loadu_si512((const void *)&F->act[l]);
        act = _mm512_test_epi32_mask(m, m);
        if (F->w0) {
            bw0 = _mm512_loadu_ps(&F->w0[l]);
            bw1 = _mm512_loadu_ps(&F->w1[l]);
            m = _mm512_loadu_si512((const void *)&F->two[l]);
            two = _mm512_test_epi32_mask(m, m);
        }
    }
    __m512 va = _mm512_loadu_ps(&a[l]), vb = _mm512_loadu_ps(&b[l]);
    __m512 wx0 = _mm512_sub_ps(one, va), wy0 = _mm512_sub_ps(one, vb);
    __m512 w[4] = {_mm512_mul_ps(wx0, wy0), _mm512_mul_ps(va, wy0), _mm512_mul_ps(wx0, vb),
                   _mm512_mul_ps(va, vb)};
    for (unsigned c = 0; c < 4; c++) {
        if (!((cm >> c) & 1u))
            continue;
        __m512 acc = _mm512_setzero_ps();
        for (unsigned k = 0; k < 4; k++) {
            /* 256·r (above): H converted, rounded up */
            __m512 r = _mm512_cvt_roundepu32_ps(_mm512_shuffle_epi8(t[k], ctl[c]),
                                                _MM_FROUND_TO_POS_INF | _MM_FROUND_NO_EXC);
            __m512 p = _mm512_mul_ps(w[k], r);
            acc = k ? _mm512_add_ps(acc, p) : p;
        }
        __m512 v = _mm512_mul_ps(acc, k32);
        if (!F) {
            _mm512_storeu_ps(&out[c][l], v);
            continue;
        }
        if (F->w0) { /* (fin_lanes) */
            __m512 v0 = _mm512_loadu_ps(&out[c][l]);
            __m512 m = _mm512_add_ps(_mm512_mul_ps(bw0, v0), _mm512_mul_ps(bw1, v));
            v = _mm512_mask_blend_ps(two, v0, m);
        }
        _mm512_mask_storeu_epi32((void *)&F->res[c][l], act, _mm512_castps_si512(v));
    }
}

/* The byte selections of the components (warp_ctx.ctl4) in each 4-byte lane. */
TEX_TARGET_AVX512 static inline void ctl_avx512(const int32_t ctlw[4], __m512i ctl[4])
{
    const __m512i off = _mm512_loadu_si512((const void *)tap_lane_off[1]);
    for (unsigned c = 0; c < 4; c++)
        ctl[c] = _mm512_add_epi32(_mm512_set1_epi32(ctlw[c]), off);
}

/* The tap sums of single-word taps (slot_pass's gathers: a wrap seam, an edge clamp or a
 * point filter between a lane's horizontal taps; 2 % of trilinear's level passes) out of
 * the kernel's line: its callers' code is shorter by this much, which ran trilinear
 * 1–3 % faster on Zen 4 (a minified map rotated against the texture, whose passes take
 * the paired gathers, 1.8 %); the paired paths stay inline, where the rotated map ran
 * 2.7 % slower with them out of line (docs/history/performance-log.md §50). */
#if defined(__GNUC__)
#define TAPS_COLD __attribute__((noinline))
#else
#define TAPS_COLD
#endif
TEX_TARGET_AVX512 TAPS_COLD static void taps_avx512(uint32_t tx[4][N], const float *a,
                                                  const float *b, const int32_t ctlw[4],
                                                  unsigned cm, const vec_fin *F,
                                                  float out[4][N])
{
    __m512i ctl[4];
    ctl_avx512(ctlw, ctl);
    for (unsigned l = 0; l < N; l += 16) {
        __m512i t[4];
        for (unsigned k = 0; k < 4; k++)
            t[k] = _mm512_loadu_si512((const void *)&tx[k][l]);
        taps16_avx512(t, a, b, cm, ctl, F, l, out);
    }
}

/* The paired loads where every two horizontally adjacent lanes of a quad (lanes 2m, 2m+1)
 * read the same two texel rows and the right lane's pair starts 0, 1 or 2 words after the
 * left lane's (magnified or near 1:1 along x, no rotation): one 16-byte load per lane pair
 * and row covers both lanes' pairs — half the loads of the 64-bit gathers, and plain
 * loads (a gather costs about as much per element as a scalar load and an insert) —,
 * then the left / right words of each lane come out of the loaded windows by one
 * two-source permute each. Only where every window lies inside the resource (`lim`: the
 * bytes past a pair may be the next row's or beyond the level); false otherwise, nothing
 * written. */
TEX_TARGET_AVX512 static inline bool window_taps_avx512(const char *host, uint32_t lim,
                                                        const uint32_t *xo0, const uint32_t *yo0,
                                                        const uint32_t *yo1, const float *a,
                                                        const float *b, const int32_t ctlw[4],
                                                        unsigned cm, const vec_fin *F,
                                                        float out[4][N])
{
    const __m512i lane = _mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
    const __m512i even = _mm512_andnot_si512(_mm512_set1_epi32(1), lane); /* l & ~1 */
    const __m512i base = _mm512_add_epi32(even, even);                  /* 4·(l >> 1) */
    __mmask16 bad = 0;
    /* the common failure first, before the rest of the test is computed: a map turned
       against the texture, whose lane pairs' lanes read different rows (the rotated
       workload's every pass) */
    for (unsigned l = 0; l < N; l += 16) {
        __m512i y0 = _mm512_loadu_si512((const void *)&yo0[l]);
        bad |= _mm512_cmpneq_epi32_mask(y0, _mm512_permutexvar_epi32(even, y0));
    }
    if (bad)
        return false;
    __m512i idx[N / 16];
    int32_t ad[2][N]; /* window byte offsets per row at the even lanes (the odd: unused) */
    for (unsigned l = 0; l < N; l += 16) {
        __m512i x = _mm512_loadu_si512((const void *)&xo0[l]);
        __m512i y0 = _mm512_loadu_si512((const void *)&yo0[l]);
        __m512i y1 = _mm512_loadu_si512((const void *)&yo1[l]);
        __m512i xe = _mm512_permutexvar_epi32(even, x);
        __m512i y0e = _mm512_permutexvar_epi32(even, y0);
        __m512i y1e = _mm512_permutexvar_epi32(even, y1);
        __m512i dx = _mm512_sub_epi32(x, xe); /* bytes; < 0 wraps to a huge unsigned */
        __m512i a0 = _mm512_add_epi32(xe, y0e), a1 = _mm512_add_epi32(xe, y1e);
        const __m512i lim16 = _mm512_set1_epi32((int)(lim - 16u));
        bad |= _mm512_cmpneq_epi32_mask(y1, y1e) |
               _mm512_cmpgt_epu32_mask(dx, _mm512_set1_epi32(8)) |
               _mm512_cmpgt_epu32_mask(a0, lim16) | _mm512_cmpgt_epu32_mask(a1, lim16);
        idx[l / 16] = _mm512_add_epi32(base, _mm512_srli_epi32(dx, 2));
        _mm512_storeu_si512((void *)&ad[0][l], a0);
        _mm512_storeu_si512((void *)&ad[1][l], a1);
    }
    if (bad)
        return false;
    __m512i ctl[4];
    ctl_avx512(ctlw, ctl);
    const __m512i one = _mm512_set1_epi32(1);
    for (unsigned l = 0; l < N; l += 16) {
        __m512i z[2][2];
        for (unsigned r = 0; r < 2; r++)
            for (unsigned h = 0; h < 2; h++) {
                const int32_t *p = &ad[r][l + 8 * h]; /* lane pairs 4h .. 4h + 3 */
                __m512i v = _mm512_castsi128_si512(
                    _mm_loadu_si128((const __m128i *)(const void *)(host + p[0])));
                v = _mm512_inserti32x4(
                    v, _mm_loadu_si128((const __m128i *)(const void *)(host + p[2])), 1);
                v = _mm512_inserti32x4(
                    v, _mm_loadu_si128((const __m128i *)(const void *)(host + p[4])), 2);
                v = _mm512_inserti32x4(
                    v, _mm_loadu_si128((const __m128i *)(const void *)(host + p[6])), 3);
                z[r][h] = v;
            }
        __m512i il = idx[l / 16], ir = _mm512_add_epi32(il, one);
        __m512i t[4] = {_mm512_permutex2var_epi32(z[0][0], il, z[0][1]),
                        _mm512_permutex2var_epi32(z[0][0], ir, z[0][1]),
                        _mm512_permutex2var_epi32(z[1][0], il, z[1][1]),
                        _mm512_permutex2var_epi32(z[1][0], ir, z[1][1])};
        taps16_avx512(t, a, b, cm, ctl, F, l, out);
    }
    return true;
}

/* The paired loads (slot_pass) and the tap sums in one: the 64-bit words of the two rows
 * gathered at host + xo0 + yo0 / yo1 (int32 byte offsets, below 2^31: vec_level_get),
 * split into left and right words by one two-source permute each (lanes 0..15 in order),
 * and summed without a trip through memory. */
TEX_TARGET_AVX512 static inline void pair_taps_avx512(const char *host, const uint32_t *xo0,
                                                      const uint32_t *yo0, const uint32_t *yo1,
                                                      const float *a, const float *b,
                                                      const int32_t ctlw[4], unsigned cm,
                                                      const vec_fin *F, float out[4][N])
{
    __m512i ctl[4];
    ctl_avx512(ctlw, ctl);
    const __m512i even = _mm512_set_epi32(30, 28, 26, 24, 22, 20, 18, 16, 14, 12, 10, 8, 6,
                                          4, 2, 0);
    const __m512i odd = _mm512_add_epi32(even, _mm512_set1_epi32(1));
    __m512i g[N / 16][4];
    for (unsigned l = 0; l < N; l += 16) {
        __m512i x = _mm512_loadu_si512((const void *)&xo0[l]);
        __m512i i0 = _mm512_add_epi32(x, _mm512_loadu_si512((const void *)&yo0[l]));
        __m512i i1 = _mm512_add_epi32(x, _mm512_loadu_si512((const void *)&yo1[l]));
        __m512i *q = g[l / 16];
        q[0] = _mm512_i32gather_epi64(_mm512_castsi512_si256(i0), (const void *)host, 1);
        q[1] = _mm512_i32gather_epi64(_mm512_extracti64x4_epi64(i0, 1), (const void *)host, 1);
        q[2] = _mm512_i32gather_epi64(_mm512_castsi512_si256(i1), (const void *)host, 1);
        q[3] = _mm512_i32gather_epi64(_mm512_extracti64x4_epi64(i1, 1), (const void *)host, 1);
    }
    for (unsigned l = 0; l < N; l += 16) {
        const __m512i *q = g[l / 16];
        __m512i t[4] = {_mm512_permutex2var_epi32(q[0], even, q[1]),
                        _mm512_permutex2var_epi32(q[0], odd, q[1]),
                        _mm512_permutex2var_epi32(q[2], even, q[3]),
                        _mm512_permutex2var_epi32(q[2], odd, q[3])};
        taps16_avx512(t, a, b, cm, ctl, F, l, out);
    }
}

/* The tap sums of lanes L .. L + 7 from their four taps T (taps_avx2, pair_taps_avx2). */
TEX_TARGET_AVX2 static inline void taps8_avx2(const __m256i t[4], const float *a,
                                              const float *b, unsigned cm,
                                              const __m256i ctl[4], const vec_fin *F,
                                              unsigned l, float out[4][N])
{
    const __m256 one = _mm256_set1_ps(1.0f), k24 = _mm256_set1_ps(0x1p-24f);
    const __m256i zero = _mm256_setzero_si256();
    __m256 va = _mm256_loadu_ps(&a[l]), vb = _mm256_loadu_ps(&b[l]);
    __m256 wx0 = _mm256_sub_ps(one, va), wy0 = _mm256_sub_ps(one, vb);
    __m256 w[4] = {_mm256_mul_ps(wx0, wy0), _mm256_mul_ps(va, wy0), _mm256_mul_ps(wx0, vb),
                   _mm256_mul_ps(va, vb)};
    /* fin_lanes in vectors (as an out-of-line scalar call it was a fifth of the
       trilinear workload on Zen 3): the inactive lanes keep their result, by a blend on
       the act == 0 mask (none where every lane is active). The lanes without `two` need
       no blend to keep the first level's value v0: their weights are wl0 = 1 and
       wl1 = +0 (lod_pass), this level's value v is finite and ≥ +0 (a sum of products of
       weights in [0, 1] and decoded bytes), so w0·v0 + w1·v = v0 + (+0) = v0, bits and
       all (v0 ≥ +0 too) */
    __m256 bw0 = one, bw1 = one, keep = _mm256_setzero_ps();
    if (F) {
        if (!F->every_act)
            keep = _mm256_castsi256_ps(_mm256_cmpeq_epi32(
                _mm256_loadu_si256((const __m256i *)(const void *)&F->act[l]), zero));
        if (F->w0) {
            bw0 = _mm256_loadu_ps(&F->w0[l]);
            bw1 = _mm256_loadu_ps(&F->w1[l]);
        }
    }
    for (unsigned c = 0; c < 4; c++) {
        if (!((cm >> c) & 1u))
            continue;
        __m256 acc = _mm256_setzero_ps();
        for (unsigned k = 0; k < 4; k++) {
            __m256 h = _mm256_cvtepi32_ps(_mm256_shuffle_epi8(t[k], ctl[c]));
            /* r = h + h·2^-24 as one FMA: the product is exact (a power of two), so the
               fused operation rounds once, as the add alone did */
            __m256 p = _mm256_mul_ps(w[k], _mm256_fmadd_ps(h, k24, h));
            acc = k ? _mm256_add_ps(acc, p) : p;
        }
        __m256 v = _mm256_mul_ps(acc, k24);
        if (!F) {
            _mm256_storeu_ps(&out[c][l], v);
            continue;
        }
        if (F->w0) {
            __m256 v0 = _mm256_loadu_ps(&out[c][l]);
            v = _mm256_add_ps(_mm256_mul_ps(bw0, v0), _mm256_mul_ps(bw1, v));
        }
        float *r = (float *)(void *)&F->res[c][l];
        _mm256_storeu_ps(r, F->every_act ? v : _mm256_blendv_ps(v, _mm256_loadu_ps(r), keep));
    }
}

/* The byte selections of the components (warp_ctx.ctl3) in each 4-byte lane. */
TEX_TARGET_AVX2 static inline void ctl_avx2(const int32_t ctlw[4], __m256i ctl[4])
{
    const __m256i off = _mm256_loadu_si256((const __m256i *)(const void *)tap_lane_off[0]);
    for (unsigned c = 0; c < 4; c++)
        ctl[c] = _mm256_add_epi32(_mm256_set1_epi32(ctlw[c]), off);
}

TEX_TARGET_AVX2 static inline void taps_avx2(uint32_t tx[4][N], const float *a,
                                             const float *b, const int32_t ctlw[4], unsigned cm,
                                             const vec_fin *F, float out[4][N])
{
    __m256i ctl[4];
    ctl_avx2(ctlw, ctl);
    for (unsigned l = 0; l < N; l += 8) {
        __m256i t[4];
        for (unsigned k = 0; k < 4; k++)
            t[k] = _mm256_loadu_si256((const __m256i *)(const void *)&tx[k][l]);
        taps8_avx2(t, a, b, cm, ctl, F, l, out);
    }
}

/* The paired loads and the tap sums in one, as pair_taps_avx512: four lanes' 64-bit words
 * a gather, split into left and right words by an in-lane shuffle and a cross-lane
 * permute (lanes in order); the scalar loads they replace were stored as 32-bit words and
 * read back as vectors, which the store buffer cannot forward. All sixteen gathers are
 * issued before the first sum, as pair_taps_avx512 does: their loads wait on L2 and
 * beyond together instead of a quarter at a time between the sums (gathered eight lanes
 * at a time, each followed by its sums, the trilinear frame took 3 % and the rotated map
 * 4-6 % longer on Zen 4 under the AVX2 ceiling, bilinear even; history §56). */
TEX_TARGET_AVX2 static inline void pair_taps_avx2(const char *host, const uint32_t *xo0,
                                                  const uint32_t *yo0, const uint32_t *yo1,
                                                  const float *a, const float *b,
                                                  const int32_t ctlw[4], unsigned cm,
                                                  const vec_fin *F, float out[4][N])
{
    __m256i ctl[4];
    ctl_avx2(ctlw, ctl);
    const long long *base = (const long long *)(const void *)host;
    __m256i g[N / 8][2][2];
    for (unsigned l = 0; l < N; l += 8) {
        __m256i x = _mm256_loadu_si256((const __m256i *)(const void *)&xo0[l]);
        __m256i i[2] = {
            _mm256_add_epi32(x, _mm256_loadu_si256((const __m256i *)(const void *)&yo0[l])),
            _mm256_add_epi32(x, _mm256_loadu_si256((const __m256i *)(const void *)&yo1[l]))};
        for (unsigned r = 0; r < 2; r++) {
            g[l / 8][r][0] = _mm256_i32gather_epi64(base, _mm256_castsi256_si128(i[r]), 1);
            g[l / 8][r][1] = _mm256_i32gather_epi64(base, _mm256_extracti128_si256(i[r], 1), 1);
        }
    }
    for (unsigned l = 0; l < N; l += 8) {
        __m256i t[4];
        for (unsigned r = 0; r < 2; r++) {
            /* lanes 0-3 and 4-7: (left, right) pairs */
            __m256 q0 = _mm256_castsi256_ps(g[l / 8][r][0]);
            __m256 q1 = _mm256_castsi256_ps(g[l / 8][r][1]);
            /* per half: lanes (0, 1, 4, 5) and (2, 3, 6, 7); the permute puts them in order */
            __m256i left = _mm256_castps_si256(_mm256_shuffle_ps(q0, q1, _MM_SHUFFLE(2, 0, 2, 0)));
            __m256i right = _mm256_castps_si256(_mm256_shuffle_ps(q0, q1, _MM_SHUFFLE(3, 1, 3, 1)));
            t[2 * r] = _mm256_permute4x64_epi64(left, _MM_SHUFFLE(3, 1, 2, 0));
            t[2 * r + 1] = _mm256_permute4x64_epi64(right, _MM_SHUFFLE(3, 1, 2, 0));
        }
        taps8_avx2(t, a, b, cm, ctl, F, l, out);
    }
}
#endif

#endif /* TEXVM_TEX_WARP_VEC_TAPS_H */
