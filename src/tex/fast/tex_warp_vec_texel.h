/* The texel half of the vectorised warp kernel (tex_warp_vec.c): one level's constants,
 * then per lane the texel-space coordinates → wrapped indices and weights (axis_pass), the
 * texel addresses, the texel loads (32-bit gathers; paired 64-bit gathers; on AVX-512
 * 16-byte windows per two lanes), the RGBA8 decode and the bilinear tap sum (slot_pass;
 * the wide variants' tap sums below: byte shuffles, AVX-512's one rounding-up conversion
 * per byte and the scaling after the sum, each shown to give the same bits). The rest of the bit-identity
 * argument is the one at the top of tex_warp_vec.c. Included by tex_warp_vec.c only (after
 * tex_warp_vec_lanes.h): a header, not a translation unit of its own, because everything
 * here must be inlined into each instruction-set variant of the kernel — as a separate
 * unit (slot_pass per variant, called per level slot) the bilinear rate fell by 40 %
 * (docs/texture-fast-paths.md; the measurement: docs/history/texture-unit-log.md). */
#ifndef TEXVM_TEX_WARP_VEC_TEXEL_H
#define TEXVM_TEX_WARP_VEC_TEXEL_H

#include "tex/fast/tex_warp_vec_lanes.h"

/* paired / single texel loads per thread (tests: tex_warp_vec_pair_counts). Initial-exec:
 * the library is position-independent, and the default model's __tls_get_addr call in the
 * middle of slot_pass (relaxed to a plain load only when linked statically) made GCC
 * spill and reload every live vector register around it. */
#if defined(__GNUC__) && defined(__ELF__)
#define TEX_TLS_IE __attribute__((tls_model("initial-exec")))
#else
#define TEX_TLS_IE
#endif
static _Thread_local uint64_t tls_paired TEX_TLS_IE, tls_single TEX_TLS_IE, tls_window TEX_TLS_IE;

void tex_warp_vec_pair_counts(uint64_t *paired, uint64_t *single)
{
    *paired = tls_paired;
    *single = tls_single;
}

uint64_t tex_warp_vec_window_count(void)
{
    return tls_window;
}

/* ---- one level ----------------------------------------------------------------------- */
typedef struct vec_level {
    float wf, hf;
    uint32_t w, h;
    uint32_t base;               /* level_offset, bytes */
    bool pitch_layout;
    uint32_t pitch, gobs_x, bh, shift;
    uint32_t pitch_sh; /* pitch = 2^pitch_sh (a row's offset as a shift), or 32: not one */
} vec_level;

/* The last slot pass of a request finishes it as its tap sums come out (no second trip
 * through memory): where w0 is given (a two-level request), the mip blend — out[c][l]
 * holds the first level's value and, in the lanes with two[l] set, the value becomes
 * w0[l]·out + w1[l]·(this level's value): the products and the sum in tex_warp.c's
 * order, so the same bits —; then the result bits go to res[c][l] in the active lanes
 * (the others keep theirs). */
typedef struct vec_fin {
    const float *w0, *w1; /* w0 NULL: one level, no blend */
    const uint32_t *two, *act;
    uint32_t (*res)[N];
    /* (AVX2, taps8_avx2) every lane active: the blend that keeps the inactive lanes'
       results selects nothing then, and is left out */
    bool every_act;
} vec_fin;

/* the C form (baseline): v1 this level's values */
static inline void fin_lanes(const vec_fin *F, const int shift[4], float v1[4][N],
                             float out[4][N])
{
    for (unsigned c = 0; c < 4; c++) {
        if (shift[c] < 0)
            continue;
        for (unsigned l = 0; l < N; l++) {
            float v = v1[c][l];
            if (F->w0) {
                float m = F->w0[l] * out[c][l] + F->w1[l] * v;
                v = fsel(F->two[l], m, out[c][l]);
            }
            F->res[c][l] = isel(F->act[l], fb(v), F->res[c][l]);
        }
    }
}

static bool pow2(uint32_t n)
{
    return (n & (n - 1)) == 0;
}

/* The constants of view level `rel`, or false when the kernel cannot read it (a wrap
 * that needs a power-of-two size, or addresses past the resource or 2^31). */
static bool vec_level_compute(const warp_ctx *w, uint32_t rel, uint32_t max_layer,
                              vec_level *V)
{
    warp_level L;
    tex_warp_level(w, rel, &L);
    const tex_view *v = w->v;
    for (unsigned a = 0; a < 2; a++)
        if (w->wrap[a] != TV_WRAP_CLAMP_TO_EDGE && !pow2(a ? L.h : L.w))
            return false;
    if (L.w == 0 || L.h == 0 || (L.base & 3u))
        return false;
    /* the addresses grow with x and with y: the last texel of the last layer is the end */
    uint64_t xb = (uint64_t)(L.w - 1) * 4u, yy = L.h - 1, xo, yo;
    if (L.pitch_layout) {
        xo = xb;
        yo = yy * L.pitch;
    } else {
        xo = tex_bl_col(xb, L.shift);
        yo = tex_bl_row(yy, L.bh, L.gobs_x, L.shift);
    }
    uint64_t end = (uint64_t)max_layer * v->layer_stride + L.base + xo + yo + 4;
    if (end > v->size_bytes || end > 0x7fffffffu)
        return false;
    V->wf = L.wf;
    V->hf = L.hf;
    V->w = L.w;
    V->h = L.h;
    V->base = (uint32_t)L.base;
    V->pitch_layout = L.pitch_layout;
    V->pitch = L.pitch;
    V->pitch_sh = L.pitch && pow2(L.pitch) ? (uint32_t)__builtin_ctz(L.pitch) : 32u;
    V->gobs_x = L.gobs_x;
    V->bh = L.bh;
    V->shift = L.shift;
    return true;
}

/* vec_level_compute through a per-thread memo of the last answers (a request reads one
 * level or two, rel and rel + 1): a pure function of the context — the view and the
 * sampler's wraps, fixed while the setup memo keeps it (warp_ctx.gen) — and its two
 * arguments. */
typedef struct vec_level_memo {
    uint64_t gen;                  /* 0: empty */
    uint32_t rel, max_layer;
    bool ok;
    vec_level V;
} vec_level_memo;
static _Thread_local vec_level_memo level_memo[2];

static bool vec_level_get(const warp_ctx *w, uint32_t rel, uint32_t max_layer, vec_level *V)
{
    vec_level_memo *m = &level_memo[rel & 1u];
    if (w->gen && m->gen == w->gen && m->rel == rel && m->max_layer == max_layer) {
        if (m->ok)
            *V = m->V;
        return m->ok;
    }
    bool ok = vec_level_compute(w, rel, max_layer, V);
    m->gen = w->gen;
    m->rel = rel;
    m->max_layer = max_layer;
    m->ok = ok;
    if (ok)
        m->V = *V;
    return ok;
}

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

/* ---- the bilinear tap sum per ISA variant ------------------------------------------------
 * out[c][l] = Σk wt[k][l] · tex_warp_unorm8(byte of channel c of tx[k][l]), the weights and
 * the sum in slot_pass's order (below: the baseline's loops, the reference). The wide
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
/* vpshufb control for the byte at bit `sh` of every 32-bit word: bytes 0..2 take it, byte 3
 * is zeroed (index bit 7) — h, AVX2 —, or all four bytes take it — H, AVX-512 (`four`);
 * word j of a 128-bit lane starts at byte 4j (tap_lane_off) */
VEC_INLINE int tap_ctl(int sh, bool four)
{
    uint32_t b = (uint32_t)sh >> 3;
    return (int)(four ? b * 0x01010101u : b * 0x010101u | 0x80000000u);
}

#define TAP_W(j, r) (int)(4u * (j) * (r))
#define TAP_ROW(r) {TAP_W(0, r), TAP_W(1, r), TAP_W(2, r), TAP_W(3, r), \
                    TAP_W(0, r), TAP_W(1, r), TAP_W(2, r), TAP_W(3, r), \
                    TAP_W(0, r), TAP_W(1, r), TAP_W(2, r), TAP_W(3, r), \
                    TAP_W(0, r), TAP_W(1, r), TAP_W(2, r), TAP_W(3, r)}
/* [four]: the word offsets added in the bytes tap_ctl fills */
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

TEX_TARGET_AVX512 static inline void ctl_avx512(const int shift[4], __m512i ctl[4])
{
    const __m512i off = _mm512_loadu_si512((const void *)tap_lane_off[1]);
    for (unsigned c = 0; c < 4; c++)
        ctl[c] = _mm512_add_epi32(_mm512_set1_epi32(tap_ctl(shift[c] < 0 ? 0 : shift[c], true)),
                                  off);
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
                                                  const float *b, const int shift[4],
                                                  unsigned cm, const vec_fin *F,
                                                  float out[4][N])
{
    __m512i ctl[4];
    ctl_avx512(shift, ctl);
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
                                                        const float *b, const int shift[4],
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
    ctl_avx512(shift, ctl);
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

/* Prefetches for the paired gathers (a map turned against the texture, where no lane pair
 * shares a 16-byte window): such a map's rows of warps cross the texture diagonally, each
 * pass over it reading its lines again from past L2 (the rotated map's levels 1 and 2 are
 * 1.25 MB) in an order the hardware prefetchers do not follow. The warps of a row step
 * alike over the texture (an affine map), so the lines the warp TRAIL passes of this level
 * ahead reads are this pass's moved by the step of the last TRAIL passes: for the tile's
 * two right-hand corner lanes (31 bottom, 13 top: the leading corner whichever way the map
 * turns), the rows of the pair and the two beyond it, down from the bottom one and up from
 * the top one. A prediction gone wrong (a new row of warps, another level, a seam) only
 * fetches lines not used: prefetches do not fault, and the addresses are computed as
 * integers. Not for the anisotropic probes' passes (vec_req.trail), whose steps are the
 * probes'. Inlined (forced: GCC kept it out of line, and the call took the rotated map
 * 2.7-3.4 % longer, history §53; when it was first added, inlined into every copy of
 * slot_pass it cost the anisotropic workload 1-1.5 %, now even). The rotated map: 26.75
 * → 24.51 ms (median of 16 A/B rounds), the same bytes; history §52 of
 * docs/history/performance-log.md. The AVX2 kernel has no windows to tell a turned map:
 * it calls this where the ends of the tile's first row (lanes 0 and 13) read different
 * texel rows, a test marked unlikely — on Zen 4 under the AVX2 ceiling (docs/performance.md
 * §1.3) the rotated map 6-15 % faster, trilinear and bilinear even (history §54).
 * TRAIL 2 (two passes of the level ahead; 4 until history §67): on Zen 5 the rotated map
 * 2.2-5.5 % faster under the AVX2 ceiling and about 1 % with AVX-512 than with 4, which
 * Zen 4 had measured against 3, 6, 8 and 12 (§52); 1, 3 and 8 were slower on Zen 5. */
#define TRAIL 2
typedef struct pass_trail {
    const char *lvl[2];      /* the two levels the last passes read (their first bytes) */
    uint32_t at[2][TRAIL];   /* lane 0's pair offset in each level's last TRAIL passes */
    uint32_t n[2];           /* passes of each level since it entered */
    uint32_t rr;             /* the slot the next new level replaces */
} pass_trail;
static _Thread_local pass_trail tls_trail TEX_TLS_IE;

VEC_INLINE void trail_prefetch(const char *host, const vec_level *V, const uint32_t *xo0,
                                    const uint32_t *yo0, const uint32_t *yo1)
{
    pass_trail *T = &tls_trail;
    const char *lvl = host + V->base; /* (a level of one view: another view's, too) */
    unsigned e = T->lvl[0] == lvl ? 0u : T->lvl[1] == lvl ? 1u : 2u;
    if (e == 2) {
        e = T->rr ^= 1u;
        T->lvl[e] = lvl;
        T->n[e] = 0;
    }
    uint32_t now = xo0[0] + yo0[0], k = T->n[e]++ % TRAIL;
    int64_t step = (int64_t)(int32_t)(now - T->at[e][k]);
    T->at[e][k] = now;
    const int64_t p = (int64_t)V->pitch;
    /* (a step within a row: the warps walk along the texel rows, which the hardware
       prefetchers follow) */
    if (T->n[e] <= TRAIL || (step > -p && step < p))
        return;
    const uintptr_t h = (uintptr_t)host;
    const int64_t lo = (int64_t)(int32_t)(xo0[31] + yo1[31]) + step;
    const int64_t hi = (int64_t)(int32_t)(xo0[13] + yo0[13]) + step;
    for (int64_t r = 0; r < 3; r++) {
        __builtin_prefetch((const void *)(h + (uintptr_t)(lo + r * p)));
        __builtin_prefetch((const void *)(h + (uintptr_t)(hi - r * p)));
    }
}

/* The paired loads (slot_pass) and the tap sums in one: the 64-bit words of the two rows
 * gathered at host + xo0 + yo0 / yo1 (int32 byte offsets, below 2^31: vec_level_get),
 * split into left and right words by one two-source permute each (lanes 0..15 in order),
 * and summed without a trip through memory. */
TEX_TARGET_AVX512 static inline void pair_taps_avx512(const char *host, const uint32_t *xo0,
                                                      const uint32_t *yo0, const uint32_t *yo1,
                                                      const float *a, const float *b,
                                                      const int shift[4], unsigned cm,
                                                      const vec_fin *F, float out[4][N])
{
    __m512i ctl[4];
    ctl_avx512(shift, ctl);
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

/* The byte selections of the components' shifts (tap_ctl) in each 4-byte lane. */
TEX_TARGET_AVX2 static inline void ctl_avx2(const int shift[4], __m256i ctl[4])
{
    const __m256i off = _mm256_loadu_si256((const __m256i *)(const void *)tap_lane_off[0]);
    for (unsigned c = 0; c < 4; c++)
        ctl[c] = _mm256_add_epi32(_mm256_set1_epi32(tap_ctl(shift[c] < 0 ? 0 : shift[c], false)),
                                  off);
}

TEX_TARGET_AVX2 static inline void taps_avx2(uint32_t tx[4][N], const float *a,
                                             const float *b, const int shift[4], unsigned cm,
                                             const vec_fin *F, float out[4][N])
{
    __m256i ctl[4];
    ctl_avx2(shift, ctl);
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
                                                  const int shift[4], unsigned cm,
                                                  const vec_fin *F, float out[4][N])
{
    __m256i ctl[4];
    ctl_avx2(shift, ctl);
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

/* One level slot of every lane: the filtered values of the result components in
 * out[c][l] (components with a constant are skipped), or, where F is given, the request
 * finished from them (vec_fin). offu / offv NULL: no texel offsets (zeros); layer_off
 * NULL: layer 0 in every lane. Nonzero: a lane is out of range; nothing written. */
VEC_INLINE uint32_t slot_pass(const vec_req *R, const vec_level *V, const float *s,
                              const float *t, const float *offu, const float *offv,
                              const uint32_t *layer_off, const uint32_t *lin,
                              const uint32_t *act, unsigned isa, const vec_fin *F,
                              float out[4][N])
{
    const warp_ctx *w = R->w;
    int32_t i0[N], i1[N], j0[N], j1[N];
    float a[N], b[N];
    uint32_t bad;
    /* the components filtered (the others have constants): bit c for component c */
    const unsigned cm = R->all4 ? 15u : w->chan_mask;
    /* two inlined copies: the request-uniform linear filter (axis_pass's uni) or not (lin
       is 0 or 1 in every lane) */
    if (R->lin_all || lanes_all(lin, isa)) {
        bad = axis_uni(s, V->wf, offu, act, w->wrap[0], V->w, i0, i1, a, isa);
        bad |= axis_uni(t, V->hf, offv, act, w->wrap[1], V->h, j0, j1, b, isa);
    } else {
        bad = axis_pass(s, V->wf, offu, lin, act, false, w->wrap[0], V->w, i0, i1, a);
        bad |= axis_pass(t, V->hf, offv, lin, act, false, w->wrap[1], V->h, j0, j1, b);
    }
    if (bad)
        return bad;
    /* (uint32 sums wrap: their order does not matter; a power-of-two pitch as a shift, the
       same product mod 2^32; layer_off NULL: layer 0, no term) */
    uint32_t xo0[N], xo1[N], yo0[N], yo1[N];
    const uint32_t base = V->base;
    /* (R->pitch: the view's layout, so every level's) */
    const bool pitch = R->pitch || V->pitch_layout;
    if (pitch) {
        const uint32_t psh = V->pitch_sh, pitch = V->pitch;
        for (unsigned l = 0; l < N; l++) {
            xo0[l] = (uint32_t)i0[l] * 4u;
            xo1[l] = (uint32_t)i1[l] * 4u;
        }
        if (psh < 32)
            for (unsigned l = 0; l < N; l++) {
                yo0[l] = base + ((uint32_t)j0[l] << psh);
                yo1[l] = base + ((uint32_t)j1[l] << psh);
            }
        else
            for (unsigned l = 0; l < N; l++) {
                yo0[l] = base + (uint32_t)j0[l] * pitch;
                yo1[l] = base + (uint32_t)j1[l] * pitch;
            }
    } else {
        /* tex_formulas.h's block-linear terms on 32-bit lanes (every address < 2^31) */
        uint32_t sh = V->shift, bh = V->bh, gx = V->gobs_x;
        for (unsigned l = 0; l < N; l++) {
            uint32_t x0 = (uint32_t)i0[l] * 4u, x1 = (uint32_t)i1[l] * 4u;
            xo0[l] = TEX_BL_COL(x0, sh);
            xo1[l] = TEX_BL_COL(x1, sh);
            uint32_t y0 = (uint32_t)j0[l], y1 = (uint32_t)j1[l];
            yo0[l] = base + TEX_BL_ROW(y0, bh, gx, sh);
            yo1[l] = base + TEX_BL_ROW(y1, bh, gx, sh);
        }
    }
    if (layer_off)
        for (unsigned l = 0; l < N; l++) {
            yo0[l] += layer_off[l];
            yo1[l] += layer_off[l];
        }
    const tex_word *words = (const tex_word *)(const void *)w->v->host;
    uint32_t tx[4][N];
    /* int32 word indices, computed in int32 (every address is below 2^31, vec_level_get):
     * GCC 12 emits hardware gathers only for signed 32-bit indices; with uint32 ones
     * (even cast to int32 at the end) it emulated each gather by scalar loads and lane
     * inserts */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    /* Paired loads: where every lane's right tap is the word after its left tap (pitch
     * layout, no wrap seam or edge clamp between them, linear filtering), one 64-bit
     * load per row reads both — half the gather elements. Both words are texels of the
     * level, so the load stays inside the checked range. */
    uint32_t gap[N];
    for (unsigned l = 0; l < N; l++)
        gap[l] = (xo1[l] - xo0[l]) ^ 4u;
    if (pitch && !lanes_any(gap, isa)) {
        const char *host = (const char *)w->v->host;
#if TEX_WIDE_VECTORS
        if (isa == 2) {
            /* (the resource is below 2^31 bytes where it counts: vec_level_get) */
            uint64_t size = w->v->size_bytes;
            uint32_t lim = size > 0x7fffffffu ? 0x7fffffffu : (uint32_t)size;
            if (lim >= 16 &&
                window_taps_avx512(host, lim, xo0, yo0, yo1, a, b, w->shift, cm, F, out))
                tls_window++;
            else {
                if (R->trail)
                    trail_prefetch(host, V, xo0, yo0, yo1);
                pair_taps_avx512(host, xo0, yo0, yo1, a, b, w->shift, cm, F, out);
            }
            tls_paired++;
            return 0;
        }
        if (isa == 1) {
            /* (lanes 0 and 13: pixels 0 and 7 of the tile's first row, in one texel row
               where the map is not turned; marked unlikely, so GCC lays the trail out of
               the axis-aligned maps' way: trilinear 1.7 % faster than unmarked) */
            if (__builtin_expect(R->trail && yo0[0] != yo0[13], 0))
                trail_prefetch(host, V, xo0, yo0, yo1);
            pair_taps_avx2(host, xo0, yo0, yo1, a, b, w->shift, cm, F, out);
            tls_paired++;
            return 0;
        }
#endif
        for (unsigned l = 0; l < N; l++) {
            int32_t x0 = (int32_t)xo0[l], y0 = (int32_t)yo0[l], y1 = (int32_t)yo1[l];
            uint64_t p0 = *(const tex_pair *)(const void *)(host + (x0 + y0));
            uint64_t p1 = *(const tex_pair *)(const void *)(host + (x0 + y1));
            tx[0][l] = (uint32_t)p0;
            tx[1][l] = (uint32_t)(p0 >> 32);
            tx[2][l] = (uint32_t)p1;
            tx[3][l] = (uint32_t)(p1 >> 32);
        }
        tls_paired++;
    } else
#endif
    {
        tls_single++;
        for (unsigned l = 0; l < N; l++) {
            int32_t x0 = (int32_t)xo0[l], x1 = (int32_t)xo1[l];
            int32_t y0 = (int32_t)yo0[l], y1 = (int32_t)yo1[l];
            tx[0][l] = words[(x0 + y0) >> 2];
            tx[1][l] = words[(x1 + y0) >> 2];
            tx[2][l] = words[(x0 + y1) >> 2];
            tx[3][l] = words[(x1 + y1) >> 2];
        }
    }
#if TEX_WIDE_VECTORS
    if (isa == 2) {
        taps_avx512(tx, a, b, w->shift, cm, F, out);
        return 0;
    }
#else
    (void)isa;
    (void)cm;
#endif
#if TEX_WIDE_VECTORS
    if (isa == 1) {
        taps_avx2(tx, a, b, w->shift, cm, F, out);
        return 0;
    }
#endif
    float v1[4][N], (*dst)[N] = F ? v1 : out;
    float wt[4][N];
    for (unsigned l = 0; l < N; l++) {
        float wx0 = 1.0f - a[l], wx1 = a[l], wy0 = 1.0f - b[l], wy1 = b[l];
        wt[0][l] = wx0 * wy0;
        wt[1][l] = wx1 * wy0;
        wt[2][l] = wx0 * wy1;
        wt[3][l] = wx1 * wy1;
    }
    for (unsigned c = 0; c < 4; c++) {
        if (w->shift[c] < 0)
            continue;
        unsigned sh = (unsigned)w->shift[c];
        for (unsigned l = 0; l < N; l++) {
            float f0 = tex_warp_unorm8((tx[0][l] >> sh) & 255u);
            float f1 = tex_warp_unorm8((tx[1][l] >> sh) & 255u);
            float f2 = tex_warp_unorm8((tx[2][l] >> sh) & 255u);
            float f3 = tex_warp_unorm8((tx[3][l] >> sh) & 255u);
            float acc = wt[0][l] * f0;
            acc = acc + wt[1][l] * f1;
            acc = acc + wt[2][l] * f2;
            acc = acc + wt[3][l] * f3;
            dst[c][l] = acc;
        }
    }
    if (F)
        fin_lanes(F, w->shift, v1, out);
    return 0;
}
#endif
