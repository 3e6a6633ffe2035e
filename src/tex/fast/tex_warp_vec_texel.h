/* The texel half of the vectorised warp kernel (tex_warp_vec.c): slot_pass, one level slot
 * of every lane — the texel-space coordinates → wrapped indices and weights (axis passes,
 * tex_warp_vec_axis.h), the texel addresses, the texel loads (32-bit gathers; paired
 * 64-bit gathers, with the prefetch trail of tex_warp_vec_trail.h; on AVX-512 16-byte
 * windows per two lanes), the RGBA8 decode and the bilinear tap sum (the baseline's loops
 * here, the reference; the wide variants' in tex_warp_vec_taps.h: byte shuffles,
 * AVX-512's one rounding-up conversion per byte and the scaling after the sum, each shown
 * there to give the same bits) — on one level's constants (tex_warp_vec_level.h). The
 * rest of the bit-identity argument is the one at the top of tex_warp_vec.c. Included by
 * tex_warp_vec.c only (after tex_warp_vec_lanes.h): a header, not a translation unit of
 * its own, and so are the four it includes, because everything here must be inlined into
 * each instruction-set variant of the kernel — as a separate unit (slot_pass per variant,
 * called per level slot) the bilinear rate fell by 40 % (docs/texture-fast-paths.md; the
 * measurement: docs/history/texture-unit-log.md). */
#ifndef TEXVM_TEX_WARP_VEC_TEXEL_H
#define TEXVM_TEX_WARP_VEC_TEXEL_H

#include "tex/fast/tex_warp_vec_lanes.h"
#include "tex/fast/tex_warp_vec_level.h"
#include "tex/fast/tex_warp_vec_axis.h"
#include "tex/fast/tex_warp_vec_taps.h"
#include "tex/fast/tex_warp_vec_trail.h"

/* paired / single texel loads per thread (tests: tex_warp_vec_pair_counts; initial-exec,
 * TEX_TLS_IE) */
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
                window_taps_avx512(host, lim, xo0, yo0, yo1, a, b, w->ctl4, cm, F, out))
                tls_window++;
            else {
                if (R->trail)
                    trail_prefetch(host, V, xo0, yo0, yo1);
                pair_taps_avx512(host, xo0, yo0, yo1, a, b, w->ctl4, cm, F, out);
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
            pair_taps_avx2(host, xo0, yo0, yo1, a, b, w->ctl3, cm, F, out);
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
        taps_avx512(tx, a, b, w->ctl4, cm, F, out);
        return 0;
    }
#else
    (void)isa;
    (void)cm;
#endif
#if TEX_WIDE_VECTORS
    if (isa == 1) {
        taps_avx2(tx, a, b, w->ctl3, cm, F, out);
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
