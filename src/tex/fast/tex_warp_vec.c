/* The vectorised kernel of the warp-wide path (tex_warp.c): the whole request as
 * fixed-length, branch-free loops over the 32 lanes on int32 / float arrays, compiled
 * for AVX-512F / AVX2 / the baseline ISA (TEX_WIDE_VECTORS, tex_warp.h) — GCC vectorises
 * every lane loop but the log2f misses and the rare partial-quad index copy (check with
 * -fopt-info-vec-optimized, and objdump for hardware gathers: texel loads are gathers of
 * 32-bit words or, paired, of 64-bit ones, memo loads of 64-bit entries; the square root
 * is the variant's own instruction) — for the dominant shape:
 *
 *   decided once per request (besides tex_warp.c's own checks): the view mapped at a
 *   4-byte aligned host address, 4-byte aligned level offsets, pitch and layer stride;
 *   then per lane, with a flag reduced over the active lanes: λ computed without a
 *   signed-zero tie or NaN in its min/max clamps (those are the cases the general code
 *   leaves to libm's fminf / fmaxf), one level for slot 0 across the active lanes and one
 *   for slot 1 across the active lanes that blend two levels, REPEAT / MIRROR only on
 *   power-of-two sizes of those levels (CLAMP_TO_EDGE on any), the whole level inside the
 *   resource and below 2^31 bytes, and every active lane's texel-space coordinate finite
 *   with |x| < 2^23 (where floor is exact in int32, so the general path's 2^40
 *   saturation cannot matter, and x - floor(x) is a number in [0, 1] — 1 where a tiny
 *   negative x rounds x + 1 up, which the general path's range test of the weight turns
 *   into 0, as here). Any other request returns false having written nothing, and
 *   tex_warp.c's lane passes answer it.
 *
 * Bit-identity with those passes (and so with the general path), operation by operation:
 *   - the same float operations in the same order per lane (projection, quad differences,
 *     footprint, bias, clamps, level selection, texel-space coordinates, weights, the tap
 *     sum in tap order, the mip blend); ISO C, no contraction (the one FMA written by
 *     hand, in the AVX2 tap sums' decode, has an exact product: tex_warp_vec_taps.h);
 *   - min / max decided by the strict orders; a tie between different bit patterns (±0)
 *     or a NaN is flagged and the request goes to the general passes (which call libm);
 *   - floor / ceil through int32 truncation for |x| < 2^23, exact; the one difference,
 *     floor(-0) = +0 instead of -0, is removed by adding +0 to x - floor(x) (the weight);
 *     ceil only feeds ceil(x + 0.5) - 1, where a zero of either sign gives -1;
 *   - rint (tex_layer_index) as (|y| + 2^23) - 2^23 with y's sign for |y| < 2^23, y
 *     itself beyond (already integral): exact in round-to-nearest-even;
 *   - sqrtf as the hardware square root (SSE / AVX / AVX-512: all correctly rounded),
 *     divisions as divisions;
 *   - log2f is libm's, through a per-thread memo of (argument bits → result)
 *     (tex_warp_vec_log2.h) — a pure function, so a hit returns the library's bits;
 *     only misses call it. The memo is a table and, before it, the few recent arguments
 *     of each kind compared in registers and (AVX-512) a register cache of the table's
 *     results (log2_lanes), and (AVX2) the table looked up one gather element per pair
 *     of lanes where the lanes' arguments come in pairs (log2_table_pairs_avx2); the
 *     values-only path's log2f(sqrtf(x)) of the squared major length has a table of
 *     its own, so its root too is computed on a miss only;
 *   - texels decode by tex_warp_unorm8 (tex_warp.h: the byte repeated, converted and
 *     scaled — no division), which equals the decoder's table tex_unorm8 for all 256
 *     bytes (tests/tex/test_fastpath_warp_full.c checks each), from 32-bit words
 *     gathered at tex_formulas.h's column + row addresses (two adjacent words as one
 *     64-bit load where every lane's taps are adjacent in a pitch level).
 * tests/tex/test_fastpath_warp_full.c drives requests into this kernel (and around it)
 * and compares every result word with the general path. */
#include <string.h>

#include "tex/fast/tex_fast_addr.h"
#include "util/cpu_isa.h"
#include "tex/fast/tex_warp_vec_lanes.h"
#include "tex/fast/tex_warp_vec_texel.h"
#include "tex/fast/tex_warp_vec_log2.h"

static _Thread_local uint64_t tls_taken, tls_uniform, tls_mag, tls_free, tls_probes, tls_common,
    tls_free_copy;

uint64_t tex_warp_vec_count(void)
{
    return tls_taken;
}

uint64_t tex_warp_vec_uniform_count(void)
{
    return tls_uniform;
}

uint64_t tex_warp_vec_mag_count(void)
{
    return tls_mag;
}

uint64_t tex_warp_vec_free_count(void)
{
    return tls_free;
}

uint64_t tex_warp_vec_common_count(void)
{
    return tls_common;
}

uint64_t tex_warp_vec_free_copy_count(void)
{
    return tls_free_copy;
}

#include "tex/fast/tex_warp_vec_lod.h" /* (here: the order of the unit's functions kept) */

/* 0: declined (nothing written); else 1 + the footprint's way (WAY_*), counted by the
 * caller: a thread-local's update inside the kernel would cost a TLS address call with
 * the vector registers saved around it (see vec_req.memo) */
enum { WAY_LANES, WAY_UNIFORM, WAY_MAGNIFIED, WAY_FREE };

VEC_INLINE unsigned vec_body(const vec_req *R, tv_tex_result *res, unsigned isa)
{
    unsigned way = WAY_LANES;
    log2_memo *const memo = R->memo;
    const warp_ctx *w = R->w;
    const tv_tex_request *req = R->req;
    uint32_t act[N];
    for (unsigned l = 0; l < N; l++)
        act[l] = (R->active >> l) & 1u;

    /* projected coordinates (tex_execute.c project()) */
    float pcs[N], pct[N];
    const float *cs = req->coord[0], *ct = req->coord[1];
    if (R->proj) { /* (a branch per request: the divisions only where they count) */
        for (unsigned l = 0; l < N; l++) {
            pcs[l] = req->coord[0][l] / req->q[l];
            pct[l] = req->coord[1][l] / req->q[l];
        }
        cs = pcs;
        ct = pct;
    }

    /* derivatives and the footprint (tex_lod.c footprint() for two axes, no anisotropy) */
    float lg_max[N], mu[N], mv[N], lr[N];
    bool all_mag = false;
    if (R->free) { /* (no λ needed: tex_warp_vec_lod.h) */
        all_mag = true;
        way = WAY_FREE;
    } else if (R->deriv) {
        float dx0[N], dx1[N], dy0[N], dy1[N];
        /* quads each present whole or not at all (the pipeline's packed warps): the lanes
           of a whole quad take their own row and column pairs, as below; the lanes of an
           absent quad have no pair, so 0 (tex_warp_quad_sources' !ok) */
        uint32_t pq = R->present;
        bool whole_quads = ((pq & pq >> 1 & pq >> 2 & pq >> 3) & 0x11111111u) ==
                           ((pq | pq >> 1 | pq >> 2 | pq >> 3) & 0x11111111u);
        if (whole_quads) {
            for (unsigned b = 0; b < N; b += 4) {
                float s0 = cs[b], s1 = cs[b + 1], s2 = cs[b + 2], s3 = cs[b + 3];
                float t0 = ct[b], t1 = ct[b + 1], t2 = ct[b + 2], t3 = ct[b + 3];
                dx0[b] = s1 - s0;
                dx0[b + 1] = s1 - s0;
                dx0[b + 2] = s3 - s2;
                dx0[b + 3] = s3 - s2;
                dx1[b] = t1 - t0;
                dx1[b + 1] = t1 - t0;
                dx1[b + 2] = t3 - t2;
                dx1[b + 3] = t3 - t2;
                dy0[b] = s2 - s0;
                dy0[b + 1] = s3 - s1;
                dy0[b + 2] = s2 - s0;
                dy0[b + 3] = s3 - s1;
                dy1[b] = t2 - t0;
                dy1[b + 1] = t3 - t1;
                dy1[b + 2] = t2 - t0;
                dy1[b + 3] = t3 - t1;
            }
            if (pq != ~0u)
                for (unsigned l = 0; l < N; l++) {
                    uint32_t in = (pq >> l) & 1u;
                    dx0[l] = fsel(in, dx0[l], 0.0f);
                    dx1[l] = fsel(in, dx1[l], 0.0f);
                    dy0[l] = fsel(in, dy0[l], 0.0f);
                    dy1[l] = fsel(in, dy1[l], 0.0f);
                }
        } else {
            uint8_t xlo[N], xhi[N], ylo[N], yhi[N];
            bool xok[N], yok[N];
            tex_warp_quad_sources(R->present, xlo, xhi, xok, ylo, yhi, yok);
            int32_t ixl[N], ixh[N], iyl[N], iyh[N];
            uint32_t okx[N], oky[N];
            for (unsigned l = 0; l < N; l++) {
                ixl[l] = xlo[l];
                ixh[l] = xhi[l];
                iyl[l] = ylo[l];
                iyh[l] = yhi[l];
                okx[l] = xok[l];
                oky[l] = yok[l];
            }
            for (unsigned l = 0; l < N; l++) {
                float a0 = cs[ixh[l]] - cs[ixl[l]], a1 = ct[ixh[l]] - ct[ixl[l]];
                float b0 = cs[iyh[l]] - cs[iyl[l]], b1 = ct[iyh[l]] - ct[iyl[l]];
                dx0[l] = fsel(okx[l], a0, 0.0f);
                dx1[l] = fsel(okx[l], a1, 0.0f);
                dy0[l] = fsel(oky[l], b0, 0.0f);
                dy1[l] = fsel(oky[l], b1, 0.0f);
            }
        }
        const float sc0 = w->scale[0], sc1 = w->scale[1];
        /* the affine case: every active lane's four differences have the first active
         * lane's bits (one OR of XORs over the active lanes), so every lane's footprint
         * is that lane's — computed once (an inactive lane's is never read: its results
         * are not written out and every reduction is over the active lanes) */
        uint32_t diff = 1; /* (values only: the per-lane way costs about as much) */
        const unsigned a0l = (unsigned)__builtin_ctz(R->active);
        if (!R->vo) {
            diff = 0;
            const uint32_t rx0 = fb(dx0[a0l]), rx1 = fb(dx1[a0l]), ry0 = fb(dy0[a0l]),
                           ry1 = fb(dy1[a0l]);
            for (unsigned l = 0; l < N; l++)
                diff |= (0u - act[l]) & ((fb(dx0[l]) ^ rx0) | (fb(dx1[l]) ^ rx1) |
                                         (fb(dy0[l]) ^ ry0) | (fb(dy1[l]) ^ ry1));
        }
        if (!diff) {
            footprint f;
            footprint_one(memo, dx0[a0l], dx1[a0l], dy0[a0l], dy1[a0l], sc0, sc1, &f);
            for (unsigned l = 0; l < N; l++) {
                lg_max[l] = f.lg_max;
                mu[l] = f.mu;
                mv[l] = f.mv;
                lr[l] = f.lr; /* (inactive lanes' values are never written out) */
            }
            way = WAY_UNIFORM;
            goto footprint_done;
        }
        float rmax[N], ratio[N], px0[N], px1[N], py0[N], py1[N], lx[N], ly[N];
        uint32_t valid[N], need_r[N], unproven[N];
        /* (the magnification shortcut's lane test, used only where R->mag) */
        const float lod_min = w->lod_min;
        for (unsigned l = 0; l < N; l++) {
            /* (locals: the values-only path reads no scaled difference after this loop;
             * the other recomputes them below, the same products) */
            float a0 = dx0[l] * sc0, b0 = dy0[l] * sc0, a1 = dx1[l] * sc1, b1 = dy1[l] * sc1;
            float x2 = 0.0f, y2 = 0.0f;
            x2 += a0 * a0;
            y2 += b0 * b0;
            x2 += a1 * a1;
            y2 += b1 * b1;
            lx[l] = x2;
            ly[l] = y2;
            uint32_t ok = (uint32_t)(x2 <= 1.0f) & (uint32_t)(y2 <= 1.0f) &
                          (uint32_t)!(req->lod_clamp[l] > lod_min);
            unproven[l] = act[l] & (ok ^ 1u);
        }
        /* the major length's log2 only, or nothing when magnified (tex_warp_vec_lod.h) */
        if (R->vo) {
            if (R->mag && !lanes_any(unproven, isa)) {
                all_mag = true;
                way = WAY_MAGNIFIED;
                goto footprint_done;
            }
            /* the major length as the root of the larger squared length: sqrtf is
               correctly rounded, so monotonic, and max(√x2, √y2) (x's on a tie, as below)
               is √max(x2, y2) — where y2 > x2 but the roots round equal, both are the same
               float; a NaN x2 gives x2's NaN either way, a NaN y2 x2's root (the sums are
               +0 or more, never -0) — one root per lane instead of two; and that root is
               only log2f's argument, so the memo looks up log2f(sqrtf(·)) of the squared
               length (kind 2): a root only where it misses */
            for (unsigned l = 0; l < N; l++)
                rmax[l] = fsel(!(ly[l] > lx[l]), lx[l], ly[l]);
            log2_lanes(memo, 2, rmax, act, lg_max, isa);
            goto footprint_done;
        }
        sqrt_lanes(lx, isa);
        sqrt_lanes(ly, isa);
        for (unsigned l = 0; l < N; l++) {
            px0[l] = dx0[l] * sc0;
            py0[l] = dy0[l] * sc0;
            px1[l] = dx1[l] * sc1;
            py1[l] = dy1[l] * sc1;
        }
        for (unsigned l = 0; l < N; l++) {
            uint32_t x_major = !(ly[l] > lx[l]);
            float rx = fsel(x_major, lx[l], ly[l]), rn = fsel(x_major, ly[l], lx[l]);
            float pm0 = fsel(x_major, px0[l], py0[l]), pm1 = fsel(x_major, px1[l], py1[l]);
            uint32_t ok = (uint32_t)(rx > 0.0f) & (uint32_t)(fabsf(rx) <= 3.40282347e38f);
            float d0 = pm0 / rx, d1 = pm1 / rx;
            valid[l] = ok;
            mu[l] = fsel(ok, d0, 0.0f);
            mv[l] = fsel(ok, d1, 0.0f);
            ratio[l] = rn / rx;
            need_r[l] = ok & (uint32_t)(rn > 0.0f) & act[l];
            rmax[l] = rx;
        }
        float lg_ratio[N];
        log2_lanes(memo, 0, rmax, act, lg_max, isa);
        log2_lanes(memo, 1, ratio, need_r, lg_ratio, isa);
        for (unsigned l = 0; l < N; l++) {
            float g = fsel(lg_ratio[l] > TEX_WARP_MIN_LOG2_RATIO, lg_ratio[l],
                           TEX_WARP_MIN_LOG2_RATIO);
            lr[l] = fsel(valid[l], fsel(need_r[l], g, TEX_WARP_MIN_LOG2_RATIO), 0.0f);
        }
    } else {
        for (unsigned l = 0; l < N; l++)
            lg_max[l] = mu[l] = mv[l] = lr[l] = 0.0f;
    }
footprint_done:;

    /* bias, clamps, level selection (tex_lod_compute) */
    lod_out o;
    if (all_mag) {
        lod_magnified(R, &o);
    } else if (R->lod_common) { /* trilinear's sampler: a third copy (lod_pass) */
#if TEX_WIDE_VECTORS
        if (isa == 1)
            lod_common_avx2(R, lg_max, act, &o);
        else
#endif
            lod_pass(R, lg_max, act, false, true, &o);
    } else if (w->mip == TV_MIP_POINT) { /* MIP_POINT as a constant of two inlined copies */
        lod_pass(R, lg_max, act, true, false, &o);
    } else {
        lod_pass(R, lg_max, act, false, false, &o);
    }
    const float *lp_out = o.lp, *acc_out = o.acc, *wl0 = o.wl0, *wl1 = o.wl1;
    const uint32_t *lvl0 = o.lvl0, *lvl1 = o.lvl1, *two = o.two, *lin = o.lin, *bad_l = o.bad;
    float s[N], t[N], offu_v[N], offv_v[N];
    uint32_t layer_off[N];
    /* the texel passes read inactive lanes at 0; offsets; layers */
    const uint32_t offs = R->offs, array = R->array;
    const float lm = (float)(R->layers - 1);
    const uint32_t stride = (uint32_t)w->v->layer_stride;
    /* (every lane active: the coordinates as they are) */
    const bool every_act = R->active == 0xffffffffu;
    const float *sv = cs, *tv = ct;
    if (!every_act) {
        for (unsigned l = 0; l < N; l++) {
            s[l] = fsel(act[l], cs[l], 0.0f);
            t[l] = fsel(act[l], ct[l], 0.0f);
        }
        sv = s;
        tv = t;
    }
    /* (offsets and layers only where the request has them: else no offsets — NULL, the
       slot passes' zeros — and layer 0) */
    const float *offu = NULL, *offv = NULL;
    if (offs) {
        for (unsigned l = 0; l < N; l++) {
            offu_v[l] = (float)req->offset[0][l];
            offv_v[l] = (float)req->offset[1][l];
        }
        offu = offu_v;
        offv = offv_v;
    }
    if (array) {
        for (unsigned l = 0; l < N; l++) {
            /* tex_layer_index: clamp(rint(a), 0, layers - 1), NaN -> 0 */
            float la = req->coord[3][l];
            float r = rne(fsel(la == la, la, 0.0f));
            float rc = fsel(r <= 0.0f, 0.0f, fsel(r >= lm, lm, r));
            uint32_t layer = isel(act[l], (uint32_t)(int32_t)rc, 0u);
            layer_off[l] = layer * stride;
        }
    }
    const uint32_t *lay = array ? layer_off : NULL; /* (NULL: layer 0, slot_pass) */
    /* one level per slot across the lanes that read it */
    unsigned first = (unsigned)__builtin_ctz(R->active);
    /* (a lane blending two levels reads L0 and L0 + 1) */
    uint32_t L0 = lvl0[first], L1 = L0 + 1, any_two = 0;
    if (!all_mag) { /* (else level 0 in every lane, no flag) */
        uint32_t badv[N], twv[N];
        for (unsigned l = 0; l < N; l++) {
            uint32_t tw = act[l] & two[l];
            badv[l] = bad_l[l] | (act[l] & (uint32_t)(lvl0[l] != L0)) |
                      (tw & (uint32_t)(lvl1[l] != L1));
            twv[l] = tw;
        }
        if (lanes_any(badv, isa))
            return false;
        any_two = lanes_any(twv, isa);
    }
    uint32_t max_layer = R->array ? R->layers - 1 : 0;
    /* (L0 and L1 = L0 + 1 in memo entries of their own: both stay valid) */
    const vec_level *V0 = vec_level_get(w, L0, max_layer), *V1 = NULL;
    if (!V0)
        return false;
    if (any_two && !(V1 = vec_level_get(w, L1, max_layer)))
        return false;
    /* the last slot pass blends (wl0 · v0 + wl1 · v1 where two) and writes the results of
     * the active lanes (vec_fin); nothing is written before it has passed its checks */
    float v0[4][N];
    if (any_two) {
        const vec_fin fin = {wl0, wl1, two, act, res->v, every_act};
        if (slot_pass(R, V0, sv, tv, offu, offv, lay, lin, act, isa, NULL, v0) ||
            slot_pass(R, V1, sv, tv, offu, offv, lay, lin, act, isa, &fin, v0))
            return false;
    } else {
        const vec_fin fin = {NULL, NULL, two, act, res->v, every_act};
        if (slot_pass(R, V0, sv, tv, offu, offv, lay, lin, act, isa, &fin, v0))
            return false;
    }
    /* the constant components: active lanes only (all4: none) */
    for (unsigned c = 0; c < 4 && !R->all4; c++) {
        if (w->shift[c] < 0) {
            uint32_t k = w->konst[c];
            for (unsigned l = 0; l < N; l++)
                res->v[c][l] = isel(act[l], k, res->v[c][l]);
        }
    }
    if (R->vo)
        return 1u + way;
    for (unsigned l = 0; l < N; l++) {
        res->lod_clamped[l] = fsel(act[l], acc_out[l], res->lod_clamped[l]);
        res->lod_unclamped[l] = fsel(act[l], lp_out[l], res->lod_unclamped[l]);
        res->major_u[l] = fsel(act[l], mu[l], res->major_u[l]);
        res->major_v[l] = fsel(act[l], mv[l], res->major_v[l]);
        res->log2_ratio[l] = fsel(act[l], lr[l], res->log2_ratio[l]);
    }
    return 1u + way;
}

/* ---- the common request's copy -----------------------------------------------------------
 * The usual request of a fragment shader's texture() on a mipmapped texture (trilinear's
 * and bilinear's): lod_common (values only, a SAMPLE with derivatives and the sampler's
 * bias, mip LINEAR), the linear filter for both magnification and minification, every
 * component filtered (none a constant), a pitch view (the pipeline's single-sampled
 * textures, pipe_sampler.c), and no projection, offsets or layers. The wide variants have
 * a copy of the body for it with those fields as constants, so that the other requests'
 * code (their lod_pass copies, the per-lane filter choice, the block-linear addresses,
 * the offsets, layers and constant components) is not in it: the same operations on the
 * same values, so the same bits, in about half the code (AVX-512: 22 KB against 42 KB).
 * It ran trilinear 4.6 % and bilinear 2.9 % faster on Zen 4 (docs/performance-amd.md
 * §1.2). */
#if TEX_WIDE_VECTORS
static bool vec_common_shape(const vec_req *R)
{
    return R->lod_common && R->lin_all && R->all4 && R->pitch && !R->proj && !R->offs &&
           !R->array;
}

/* vec_body for a request of vec_common_shape: the fields it implies as constants
 * (lod_common implies vo and deriv, and mip LINEAR, so not free; deriv without op_bias,
 * a SAMPLE: no op_lod, op_lz) */
VEC_INLINE unsigned vec_body_common(const vec_req *R0, tv_tex_result *res, unsigned isa)
{
    vec_req R = *R0;
    R.proj = R.offs = R.array = R.op_lod = R.op_lz = R.op_bias = R.free = false;
    R.deriv = R.vo = R.lod_common = R.lin_all = R.all4 = R.pitch = true;
    return vec_body(&R, res, isa);
}

/* The same for the request that needs no level of detail (R->free: values only, mip NONE,
 * one filter both ways) with the linear filter, every component filtered, a pitch view and
 * no projection, offsets, layers or LOD operand — the pipeline's draws of a texture
 * without mipmaps (bench_draw's mesh: its lanes are pixels of several triangles, whose
 * lookups need no derivatives). Its copy is the footprint-free part of vec_body alone. */
static bool vec_free_shape(const vec_req *R)
{
    return R->free && R->lin_all && R->all4 && R->pitch && !R->proj && !R->offs &&
           !R->array && !R->op_lod && !R->op_lz && !R->op_bias;
}

VEC_INLINE unsigned vec_body_free(const vec_req *R0, tv_tex_result *res, unsigned isa)
{
    vec_req R = *R0;
    R.proj = R.offs = R.array = R.op_lod = R.op_lz = R.op_bias = R.lod_common = false;
    R.free = R.vo = R.lin_all = R.all4 = R.pitch = true;
    return vec_body(&R, res, isa);
}
#endif

/* The kernel per instruction set (TEX_WIDE_VECTORS, tex_warp.h): the same body compiled
 * for AVX-512F and AVX2 with tunings under which GCC emits hardware gathers for the texel
 * and table loads (its generic tuning emulates them with scalar loads), and for the
 * baseline; picked once from the CPU's features. */
#if TEX_WIDE_VECTORS
TEX_TARGET_AVX512 static unsigned vec_run_avx512(const vec_req *R, tv_tex_result *res)
{
    return vec_body(R, res, 2);
}

TEX_TARGET_AVX2 static unsigned vec_run_avx2(const vec_req *R, tv_tex_result *res)
{
    return vec_body(R, res, 1);
}

TEX_TARGET_AVX512 static unsigned vec_run_avx512_common(const vec_req *R, tv_tex_result *res)
{
    return vec_body_common(R, res, 2);
}

TEX_TARGET_AVX2 static unsigned vec_run_avx2_common(const vec_req *R, tv_tex_result *res)
{
    return vec_body_common(R, res, 1);
}

TEX_TARGET_AVX512 static unsigned vec_run_avx512_free(const vec_req *R, tv_tex_result *res)
{
    return vec_body_free(R, res, 2);
}

TEX_TARGET_AVX2 static unsigned vec_run_avx2_free(const vec_req *R, tv_tex_result *res)
{
    return vec_body_free(R, res, 1);
}
#endif

static unsigned vec_run_base(const vec_req *R, tv_tex_result *res)
{
    return vec_body(R, res, 0);
}

#if TEX_WIDE_VECTORS
/* The variant to run: 2 AVX-512F+BW, 1 AVX2, 0 the baseline — the widest the CPU has, at
 * most the unit's cap (tex_set_vector_isa_cap). (Without the wide variants, always the
 * baseline: no call.) */
static unsigned vec_isa(const tv_tex_unit *unit)
{
    unsigned cap = unit->vec_isa_cap;
    /* (avx512bw: the byte shuffles of the texel decode, tex_warp_vec_taps.h) */
    if (cap >= 2 && tv_cpu_avx512bw())
        return 2;
    if (cap >= 1 && tv_cpu_avx2_fma())
        return 1;
    return 0;
}
#endif

/* The copies of the body a request's plan can take (vec_plan.copy): the common
 * request's, the free one's, or neither (the general body) */
enum { COPY_GENERAL, COPY_COMMON, COPY_FREE };

static unsigned vec_run(const vec_req *R, unsigned copy, tv_tex_result *res)
{
#if TEX_WIDE_VECTORS
    unsigned isa = vec_isa(R->w->unit);
    if (isa && copy == COPY_COMMON) {
        unsigned r = isa == 2 ? vec_run_avx512_common(R, res) : vec_run_avx2_common(R, res);
        tls_common += r != 0;
        return r;
    }
    if (isa && copy == COPY_FREE) {
        unsigned r = isa == 2 ? vec_run_avx512_free(R, res) : vec_run_avx2_free(R, res);
        tls_free_copy += r != 0;
        return r;
    }
    if (isa == 2)
        return vec_run_avx512(R, res);
    if (isa == 1)
        return vec_run_avx2(R, res);
#else
    (void)copy;
#endif
    return vec_run_base(R, res);
}

const char *tv_tex_vector_kernel(void)
{
#if TEX_WIDE_VECTORS
    /* vec_run's choice, at its default cap */
    if (tv_cpu_avx512bw())
        return "avx512";
    if (tv_cpu_avx2_fma())
        return "avx2";
#endif
    return "generic";
}

/* Both entries read texels as 32-bit words: the view mapped at a 4-byte aligned host address
 * with a 4-byte aligned pitch and, where more than one layer is read, layer stride. */
static bool words_aligned(const tex_view *v, bool layers)
{
    bool pitch = tex_fast_pitch_layout(v);
    return !((uintptr_t)v->host & 3u) && !(layers && (v->layer_stride & 3u)) &&
           !(pitch && (v->pitch & 3u));
}

/* What the kernel makes of a request before its lanes: the vec_req fields that depend on
 * the context and the request's op, target and flags only (not req, active, present),
 * whether the view's words are aligned for it, and the copy of the body it takes. */
typedef struct vec_plan {
    bool aligned;
    unsigned copy;                /* COPY_* */
    vec_req R;
} vec_plan;

static void vec_plan_make(const warp_ctx *w, unsigned op, unsigned target, uint32_t flags,
                          vec_plan *P)
{
    const tex_view *v = w->v;
    bool array = target == TV_TEXTGT_2D_ARRAY;
    vec_req R;
    memset(&R, 0, sizeof R);
    R.w = w;
    R.proj = (flags & TV_TEXF_PROJECTIVE) != 0;
    R.offs = (flags & TV_TEXF_OFFSETS) != 0;
    R.deriv = (op == TV_TEX_OP_SAMPLE || op == TV_TEX_OP_SAMPLE_BIAS) &&
              !(flags & TV_TEXF_NO_DERIV);
    R.op_lod = op == TV_TEX_OP_SAMPLE_LOD;
    R.op_lz = op == TV_TEX_OP_SAMPLE_LZ;
    R.op_bias = op == TV_TEX_OP_SAMPLE_BIAS;
    R.array = array;
    R.layers = v->layers ? v->layers : 1;
    R.memo = &tls_memo;
    R.vo = (flags & TV_TEXF_VALUES_ONLY) != 0;
    R.free = R.vo && w->mip == TV_MIP_NONE && w->mag_lin == w->min_lin;
    R.mag = R.vo && R.deriv && !R.op_bias && w->mag_ok;
    R.lod_common = R.vo && R.deriv && !R.op_bias && w->mip == TV_MIP_LINEAR;
    R.lin_all = w->mag_lin && w->min_lin;
    R.all4 = w->chan_mask == 15u;
    R.pitch = w->pitch;
    R.trail = true;
    uint32_t cbad = 0;
    R.cbias = vmax(-16.0f, vmin(TEX_WARP_MAX_BIAS, w->sbias + 0.0f, &cbad), &cbad);
    R.cbias_bad = cbad;
    R.bounds_bad = (uint32_t)(fb(w->lod_max) == 0x80000000u) |
                   (uint32_t)(w->lod_max != w->lod_max) | (uint32_t)(w->lod_min != w->lod_min);
    P->aligned = words_aligned(v, array);
    P->copy = COPY_GENERAL;
#if TEX_WIDE_VECTORS
    P->copy = vec_common_shape(&R) ? COPY_COMMON
              : vec_free_shape(&R) ? COPY_FREE
                                   : COPY_GENERAL;
#endif
    P->R = R;
}

/* The thread's last plan, kept under the context's generation (warp_ctx.gen: the view and
 * sampler state, fixed while the setup memo keeps the context) with the op, target and
 * flags it was made for: a draw's warps bring the same request shape again and again, and
 * making the plan per request was about 90 instructions of a trilinear warp. */
typedef struct vec_plan_memo {
    uint64_t gen;                 /* 0: empty */
    uint32_t flags;
    uint8_t op, target;
    vec_plan P;
} vec_plan_memo;
static _Thread_local vec_plan_memo plan_memo;

bool tex_warp_vec(const warp_ctx *w, const tv_tex_request *req, tv_tex_result *res)
{
    vec_plan_memo *m = &plan_memo;
    vec_plan local;
    const vec_plan *P = &m->P;
    if (!w->gen) { /* (a context the setup memo did not make: no generation to key on) */
        vec_plan_make(w, req->op, req->target, req->flags, &local);
        P = &local;
    } else if (m->gen != w->gen || m->op != req->op || m->target != req->target ||
               m->flags != req->flags) {
        vec_plan_make(w, req->op, req->target, req->flags, &m->P);
        m->gen = w->gen;
        m->op = req->op;
        m->target = req->target;
        m->flags = req->flags;
    }
    if (!P->aligned)
        return false;
    vec_req R = P->R;
    R.w = w;   /* (the memo's context, whose address does not change: set per call all the same) */
    R.req = req;
    R.active = req->active;
    R.present = (req->present ? req->present : req->active) | req->active;
    unsigned r = vec_run(&R, P->copy, res);
    if (!r)
        return false;
    tls_taken++;
    tls_uniform += r == 1u + WAY_UNIFORM;
    tls_mag += r == 1u + WAY_MAGNIFIED;
    tls_free += r == 1u + WAY_FREE;
    return true;
}

/* the anisotropic path's probes (tex_warp_aniso.c): here, after the helpers they use */
#include "tex/fast/tex_warp_vec_probes.h"
