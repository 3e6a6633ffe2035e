/* The level of detail of the vectorised warp kernel (tex_warp_vec.c): one lane's
 * footprint for the affine case (footprint_one), λ's bias, clamps and level selection over
 * the lanes (lod_pass, tex_lod_compute's operations in its order), the magnification
 * proof that lets a values-only request skip log2 (tex_warp_vec_mag_conditions), and the
 * outputs of a request whose every lane is magnified (lod_magnified). Included by
 * tex_warp_vec.c only, at the place this code held there: a header, not a translation
 * unit, because it must be inlined into each instruction-set variant of the kernel
 * (tex_warp_vec_texel.h gives the measurement); and where it is included the kernel's
 * functions keep their order in the unit, so the build's machine code is the same
 * (scripts/same-code.py). The bit-identity argument is the one at the top of
 * tex_warp_vec.c. */
#ifndef TEXVM_TEX_WARP_VEC_LOD_H
#define TEXVM_TEX_WARP_VEC_LOD_H

#include <math.h>

#include "tex/fast/tex_warp_vec_lanes.h"
#include "tex/fast/tex_warp_vec_log2.h"

/* The footprint of one lane: the lane loop of vec_body (tex_warp_vec.c) for one set of
 * differences, the same operations in the same order (sqrtf: correctly rounded, as the
 * vector square roots; log2f: the library's, as the memo's). */
typedef struct footprint {
    float lg_max, mu, mv, lr;
} footprint;

static inline void footprint_one(log2_memo *m, float dx0, float dx1, float dy0, float dy1,
                                 float sc0, float sc1, footprint *f)
{
    float px0 = dx0 * sc0, py0 = dy0 * sc0, px1 = dx1 * sc1, py1 = dy1 * sc1;
    float x2 = 0.0f, y2 = 0.0f;
    x2 += px0 * px0;
    y2 += py0 * py0;
    x2 += px1 * px1;
    y2 += py1 * py1;
    float lx = sqrtf(x2), ly = sqrtf(y2);
    bool x_major = !(ly > lx);
    float rx = x_major ? lx : ly, rn = x_major ? ly : lx;
    float pm0 = x_major ? px0 : py0, pm1 = x_major ? px1 : py1;
    bool ok = rx > 0.0f && fabsf(rx) <= 3.40282347e38f;
    f->mu = ok ? pm0 / rx : 0.0f;
    f->mv = ok ? pm1 / rx : 0.0f;
    f->lg_max = log2_one(m, rx);
    float lr = 0.0f;
    if (ok) {
        lr = TEX_WARP_MIN_LOG2_RATIO;
        if (rn > 0.0f) {
            float g = log2_one(m, rn / rx);
            lr = g > TEX_WARP_MIN_LOG2_RATIO ? g : TEX_WARP_MIN_LOG2_RATIO;
        }
    }
    f->lr = lr;
}


/* ---- λ: bias, clamps, level selection (tex_lod_compute) ---------------------------- */
typedef struct lod_out {
    float lp[N], acc[N], wl0[N], wl1[N];
    uint32_t lvl0[N], lvl1[N], two[N], lin[N], bad[N];
} lod_out;

/* pt (mip filter POINT) is a constant of each inlined copy: the other mode's
 * nearest-level computations are not done at all (they were computed and then dropped by
 * selects). common (R->lod_common: values only,
 * a SAMPLE with derivatives and the sampler's bias, mip LINEAR — trilinear's request) is a
 * fifth copy where those are constants too: λ's base is lg_max without the select chain
 * and the extras' acc and lp are neither computed nor stored (vec_body returns before
 * reading them when R->vo). Every output it stores is the same expression as the general
 * copy's with its conditions' values substituted, so the same bits. */
VEC_INLINE void lod_pass(const vec_req *R, const float *lg_max, const uint32_t *act, bool pt,
                         bool common, lod_out *o)
{
    const warp_ctx *w = R->w;
    const tv_tex_request *req = R->req;
    const float qf = (float)w->q, sbias = w->sbias, lod_min = w->lod_min, lod_max = w->lod_max;
    const uint32_t q = w->q;
    const unsigned mip = w->mip;
    const uint32_t op_lod = R->op_lod, op_lz = R->op_lz, deriv = R->deriv;
    /* (the common copy: mip LINEAR, so m_none 0 and m_linear 1 as constants) */
    const uint32_t m_none = common ? 0u : mip == TV_MIP_NONE;
    const uint32_t m_linear = common ? 1u : mip == TV_MIP_LINEAR;
    const uint32_t mag_lin = w->mag_lin, min_lin = w->min_lin;
    /* (the sampler's bounds are numbers; a NaN or -0 one flags every lane) */
    const uint32_t max_nz = R->bounds_bad;
    /* the bias clamp: per lane for SAMPLE_BIAS, else the plan's (sbias + 0, the same sum,
       clamped once per context) */
    float bias[N];
    uint32_t bias_bad[N];
    if (R->op_bias) {
        for (unsigned l = 0; l < N; l++) {
            uint32_t bad = 0;
            bias[l] = vmax(-16.0f, vmin(TEX_WARP_MAX_BIAS, sbias + req->lod[l], &bad), &bad);
            bias_bad[l] = bad;
        }
    } else {
        for (unsigned l = 0; l < N; l++) {
            bias[l] = R->cbias;
            bias_bad[l] = R->cbias_bad;
        }
    }
    for (unsigned l = 0; l < N; l++) {
        uint32_t bad = bias_bad[l];
        /* (the common copy: op_lod = op_lz = 0 and deriv = 1, so the chain's value is
         * lg_max[l] itself — fsel returns one operand's bits) */
        float lb = common ? lg_max[l]
                          : fsel(op_lod, req->lod[l],
                                 fsel(op_lz, 0.0f, fsel(deriv, lg_max[l], -INFINITY)));
        float lp = lb + bias[l];
        float lc0 = req->lod_clamp[l];
        float lmin = fsel(lc0 > lod_min, lc0, lod_min);
        /* The four clamps below flag a lane only where lp is NaN or one of lp, lmin,
         * lod_max is -0: a tie of different bits is a -0 meeting a +0, and every operand
         * is one of those three, qf (+0 or more) or +0; a NaN can only come from lp
         * (lmin is lod_min or a lod_clamp above it). This flags a superset of the lanes
         * vmin / vmax would flag, with a few operations instead of five per clamp. */
        bad |= (uint32_t)(lp != lp) | (uint32_t)(fb(lp) == 0x80000000u) |
               (uint32_t)(fb(lmin) == 0x80000000u) | max_nz;
        float m1 = fsel(lod_max < lp, lod_max, lp);
        float lam = fsel(lmin > m1, lmin, m1);
        float lq = fsel(qf < lam, qf, lam);
        float lc = fsel(0.0f > lq, 0.0f, lq);
        float acc;
        if (pt) {
            /* nearest() is a number and never -0 ((float)t - 1.0f): no flag */
            float lcs = fsel((uint32_t)(lc >= 0.0f) & (uint32_t)(lc < 4194304.0f), lc, 0.0f);
            float nl = nearest(lcs);
            acc = fsel(nl > 0.0f, nl, 0.0f);
        } else {
            acc = fsel(m_none, 0.0f, lc);
        }
        if (!common) /* (values only: acc and lp feed the extras, never read) */
            o->acc[l] = acc;
        uint32_t magnify = !(lam > 0.0f);
        float dp = fsel(lam < qf, lam, qf); /* lam > 0 here: no tie of zeros, no NaN */
        float dps = fsel(magnify | (uint32_t)!(dp < 4194304.0f), 0.0f, dp);
        int32_t hi_i = floor_i(dps);
        uint32_t hi = (uint32_t)hi_i, lo = isel(hi + 1 <= q, hi + 1, q);
        float f = dps - (float)hi_i, g = 1.0f - f;
        uint32_t tw = (magnify ^ 1u) & m_linear & (uint32_t)(lo != hi) & (uint32_t)(f > 0.0f);
        uint32_t l0;
        if (pt) {
            float nl = nearest(dps);
            uint32_t lpt = (uint32_t)(int32_t)fsel(nl > 0.0f, nl, 0.0f);
            l0 = isel(magnify, 0u, lpt);
        } else {
            l0 = isel(magnify, 0u, isel(m_linear, hi, 0u));
        }
        o->lvl0[l] = l0;
        o->lvl1[l] = isel(tw, lo, l0);
        o->wl0[l] = fsel(tw, g, 1.0f);
        o->wl1[l] = fsel(tw, f, 0.0f);
        o->two[l] = tw;
        o->lin[l] = isel(magnify, mag_lin, min_lin);
        if (!common)
            o->lp[l] = lp;
        o->bad[l] = bad & act[l];
    }
}

#if TEX_WIDE_VECTORS
/* lod_pass's common copy (pt false, common true) in AVX2 intrinsics, eight lanes a vector:
 * GCC made each fsel / isel of the lane loop three logic operations on 0/1 flags turned
 * into masks, about 90 instructions a vector; here a compare gives the mask and a blend or
 * an AND selects (about 45). The same expressions on the same values, so the same bits:
 *   - every comparison is C's: `a > b`, `a < b` ordered (false on a NaN), `!(a > b)` and
 *     `!(a < b)` unordered (true on a NaN), `a != a` unordered; fsel(c, a, b) is a blend
 *     on c's mask taking a's or b's bits, fsel(c, 0.0f, x) an AND-NOT (+0's bits), and
 *     fsel(c, x, 0.0f) an AND;
 *   - floor_i(dps) is the truncation: dps is +0 (magnified, or dp not below 2^22) or dp,
 *     which is λ (above 0 where not magnified) or qf = (float)q (+0 or more), so a number
 *     in [+0, 2^22), where truncation is floor and floor_i's correction never applies;
 *   - isel(hi + 1 <= q, hi + 1, q) on uint32 is the unsigned minimum;
 *   - the flags (two, bad) are stored as 0 or 1, lin as mag_lin or min_lin, as lod_pass
 *     stores them.
 * The bias is the sampler's, clamped once per context (not SAMPLE_BIAS: the common shape;
 * vec_req.cbias), and its flag, like the bounds' (max_nz), is the same for every lane. */
TEX_TARGET_AVX2 static inline void lod_common_avx2(const vec_req *R, const float *lg_max,
                                                   const uint32_t *act, lod_out *o)
{
    const warp_ctx *w = R->w;
    const tv_tex_request *req = R->req;
    const float lod_min = w->lod_min, lod_max = w->lod_max;
    const uint32_t ubad = R->cbias_bad | R->bounds_bad;
    const __m256 vb = _mm256_set1_ps(R->cbias), vmin_ = _mm256_set1_ps(lod_min),
                 vmax_ = _mm256_set1_ps(lod_max), qf = _mm256_set1_ps((float)w->q);
    const __m256 zero = _mm256_setzero_ps(), one = _mm256_set1_ps(1.0f),
                 big = _mm256_set1_ps(4194304.0f);
    const __m256i negz = _mm256_set1_epi32((int32_t)0x80000000u), n1 = _mm256_set1_epi32(1);
    const __m256i q = _mm256_set1_epi32((int32_t)w->q), ub = _mm256_set1_epi32(-(int32_t)ubad);
    const __m256i mag_lin = _mm256_set1_epi32((int32_t)w->mag_lin);
    const __m256i min_lin = _mm256_set1_epi32((int32_t)w->min_lin);
    for (unsigned l = 0; l < N; l += 8) {
        __m256 lp = _mm256_add_ps(_mm256_loadu_ps(&lg_max[l]), vb);
        __m256 lc0 = _mm256_loadu_ps(&req->lod_clamp[l]);
        __m256 lmin = _mm256_blendv_ps(vmin_, lc0, _mm256_cmp_ps(lc0, vmin_, _CMP_GT_OQ));
        __m256i bad = _mm256_or_si256(
            _mm256_or_si256(_mm256_castps_si256(_mm256_cmp_ps(lp, lp, _CMP_UNORD_Q)), ub),
            _mm256_or_si256(_mm256_cmpeq_epi32(_mm256_castps_si256(lp), negz),
                            _mm256_cmpeq_epi32(_mm256_castps_si256(lmin), negz)));
        __m256 m1 = _mm256_blendv_ps(lp, vmax_, _mm256_cmp_ps(vmax_, lp, _CMP_LT_OQ));
        __m256 lam = _mm256_blendv_ps(m1, lmin, _mm256_cmp_ps(lmin, m1, _CMP_GT_OQ));
        __m256 magnify = _mm256_cmp_ps(lam, zero, _CMP_NGT_UQ);
        __m256 dp = _mm256_blendv_ps(qf, lam, _mm256_cmp_ps(lam, qf, _CMP_LT_OQ));
        __m256 dps =
            _mm256_andnot_ps(_mm256_or_ps(magnify, _mm256_cmp_ps(dp, big, _CMP_NLT_UQ)), dp);
        __m256i hi = _mm256_cvttps_epi32(dps);
        __m256i lo = _mm256_min_epu32(_mm256_add_epi32(hi, n1), q);
        __m256 f = _mm256_sub_ps(dps, _mm256_cvtepi32_ps(hi)), g = _mm256_sub_ps(one, f);
        __m256i mi = _mm256_castps_si256(magnify);
        __m256i tw = _mm256_andnot_si256(
            mi, _mm256_andnot_si256(_mm256_cmpeq_epi32(lo, hi),
                                    _mm256_castps_si256(_mm256_cmp_ps(f, zero, _CMP_GT_OQ))));
        __m256i l0 = _mm256_andnot_si256(mi, hi);
        _mm256_storeu_si256((__m256i *)(void *)&o->lvl0[l], l0);
        _mm256_storeu_si256((__m256i *)(void *)&o->lvl1[l], _mm256_blendv_epi8(l0, lo, tw));
        _mm256_storeu_ps(&o->wl0[l], _mm256_blendv_ps(one, g, _mm256_castsi256_ps(tw)));
        _mm256_storeu_ps(&o->wl1[l], _mm256_and_ps(_mm256_castsi256_ps(tw), f));
        _mm256_storeu_si256((__m256i *)(void *)&o->two[l], _mm256_srli_epi32(tw, 31));
        _mm256_storeu_si256((__m256i *)(void *)&o->lin[l],
                            _mm256_blendv_epi8(min_lin, mag_lin, mi));
        const __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)&act[l]);
        _mm256_storeu_si256((__m256i *)(void *)&o->bad[l],
                            _mm256_and_si256(_mm256_srli_epi32(bad, 31), a));
    }
}
#endif

/* ---- magnification without log2 (TV_TEXF_VALUES_ONLY) ------------------------------
 * When the caller reads only the values, a lane whose λ is provably ≤ 0 needs neither its
 * log2 nor the level selection: lod_pass would give it level 0, one level, weights 1 and
 * 0, the magnification filter and no flag. Proof, for a SAMPLE lane (lb = log2f(rx), rx
 * the major axis length) under the request's conditions (tex_warp_vec_mag_conditions,
 * hoisted as warp_ctx.mag_ok, and not SAMPLE_BIAS, so the bias b is the sampler's,
 * clamped without a flag, b ≤ 0, never -0 (sbias + 0.0f);
 * lod_max a number, not -0; lod_min ≤ 0, not -0 or NaN) and the lane's (tested in the
 * lane loop of the squared lengths: both x2, y2 ≤ 1, and !(lod_clamp > lod_min), so the
 * lane's clamp lmin is lod_min — a lane whose clamp is above is left unproven):
 *   - rx is sqrt(x2) or sqrt(y2), correctly rounded, so monotonic: rx ≤ sqrt(1) = 1.
 *     rx ≥ 0, not NaN (x2 ≤ 1 is false for a NaN).
 *   - log2f is faithfully rounded (glibc: ≤ 1 ulp; the test checks the neighbourhood of
 *     the bounds and a sampling below, docs/history/performance-log.md §2.8 an exhaustive
 *     run): for 0 < x < 1 the true log2(x) ≤ log2(1 - 2^-24) < -8e-8, and each float
 *     bracketing it is negative; log2f(1) = ±0 (exact); log2f(0) = -inf (C Annex F).
 *   - lp = lg + b ≤ 0, not NaN (lg ∈ [-inf, 0], b finite), not -0 (a sum is -0 only of
 *     two -0, and b is not). (The warp paths serve the reference precision only.)
 *   - so no clamp flag (lp, lmin, lod_max not NaN or -0), m1 = min(lod_max, lp) ≤ lp ≤ 0
 *     or lod_max < lp, lam = max(lmin, m1) ≤ 0, magnify = !(lam > 0) = 1: lod_pass's
 *     outputs are level 0 in both slots, two = 0, wl0 = 1, wl1 = 0, lin = mag_lin, whatever
 *     the mip mode (acc and lp only feed the extras).
 * Any active lane not proven so: the whole request takes the full computation. */
bool tex_warp_vec_mag_conditions(const warp_ctx *w)
{
    /* lod_pass's bias b = max(-16, min(TEX_WARP_MAX_BIAS, sbias + 0.0f)) with its flags:
     * neither bound is ±0, so a flag means sbias is NaN; otherwise b ≤ 0 ⇔ sbias + 0 ≤ 0
     * ⇔ sbias ≤ 0 — one comparison, false for a NaN (and b is not -0: sbias + 0 is not) */
    uint32_t ok = (uint32_t)(w->sbias <= 0.0f) & (uint32_t)(w->lod_max == w->lod_max) &
                  (uint32_t)(fb(w->lod_max) != 0x80000000u) & (uint32_t)(w->lod_min <= 0.0f) &
                  (uint32_t)(fb(w->lod_min) != 0x80000000u);
    return ok != 0;
}

/* ---- no level of detail needed (R->free) ----------------------------------------------
 * With mip NONE, tex_lod_compute gives every lane level 0, one level, weights 1 and 0,
 * whatever λ (NaN included); λ then only chooses between the magnification and the
 * minification filter (magnify = !(λ > 0)), and where both are the same filter nothing
 * depends on it. A values-only request (no extras read) then skips the derivatives and the
 * footprint: lod_magnified's outputs are every lane's (lin = mag_lin = min_lin). The
 * anisotropic footprint, whose probes stay even when magnified, never reaches this kernel
 * (warp_setup sends it to tex_warp_aniso.c). */

/* lod_pass's outputs for a request whose every active lane is magnified (above) */
VEC_INLINE void lod_magnified(const vec_req *R, lod_out *o)
{
    const uint32_t mag_lin = R->w->mag_lin;
    for (unsigned l = 0; l < N; l++) {
        o->lvl0[l] = o->lvl1[l] = 0;
        o->wl0[l] = 1.0f;
        o->wl1[l] = 0.0f;
        o->two[l] = 0;
        o->lin[l] = mag_lin;
        o->bad[l] = 0;
    }
}

#endif /* TEXVM_TEX_WARP_VEC_LOD_H */
