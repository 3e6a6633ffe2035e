/* Private interface of the hardware precision's fast paths (src/tex/fast/): the axis rule
 * and the level footprint both use — the per-lane footprint (tex_fast_hw.c, entered through fast/tex_fast.h) and
 * the whole-request path (tex_warp_hw.c, entered through tex_fast_sample). */
#ifndef TEXVM_TEX_FAST_HW_H
#define TEXVM_TEX_FAST_HW_H

#include <math.h>
#include <string.h>

#include "tex/fast/tex_fast.h"
#include "tex/fast/tex_fast_addr.h"
#include "tex/format.h"
#include "util/half.h"
#include "util/wide_vectors.h"

/* hw_axis (tex_hw_filter.c) for the modes tex_wrap_is_common takes: wrapped indices and
 * the weight of i1 in 1/256. For |u| < 2^14 the float steps are exact integer steps, done
 * here without libm's floorf (a call at the baseline ISA): y = 256·u is exact and so is
 * y + ½ (|y| < 2^22: its ulp is at most ¼), so tex_hw_coord's round-half-up is
 * R = ⌊y + ½⌋ and the rounded coordinate R/256; tex_select_linear's x = R/256 − ½ =
 * (R − 128)/256 is exact, its floor is ⌊(R − 128)/256⌋ and its fraction
 * a = ((R − 128) mod 256)/256. Other values (large, infinite, NaN) take the shared
 * functions themselves. */
static inline void tex_hw_axis_common(unsigned mode, float u, uint32_t size, int32_t *i0,
                                      int32_t *i1, uint32_t *a)
{
    u = tex_hw_edge_clamp(mode, u, size);
    if (!(fabsf(u) < 16384.0f)) {
        float al;
        tex_wrap_linear_common(mode, u, size, true, i0, i1, &al);
        *a = (uint32_t)(al * 256.0f); /* a multiple of 1/256 in [0, 1) */
        return;
    }
    float t = u * 256.0f + 0.5f;   /* exact */
    int32_t r = (int32_t)t;        /* toward zero, then down to the floor */
    r -= (float)r > t;
    int32_t x = r - 128;
    /* ⌊x/256⌋ without shifting a negative number: x + 2^24 > 0 */
    int64_t fl = (int64_t)((uint32_t)(x + (1 << 24)) >> 8) - (1 << 16);
    int64_t n = size ? size : 1;
    *i0 = (int32_t)tex_wrap_int_common(mode, fl, n);
    *i1 = (int32_t)tex_wrap_int_common(mode, fl + 1, n);
    *a = (uint32_t)x & 255u; /* x mod 256 */
}

/* One level's 2x2 footprint of a lane: tex_hw_sample_levels' LINEAR level up to its
 * loads, for both fast paths (inline in each: called per lane and level). */
typedef struct tex_hw_footprint {
    uint32_t w[4];              /* weights in 1/256, taps (x0,y0) (x1,y0) (x0,y1) (x1,y1) */
    uint64_t off[4];            /* byte offsets of the taps from the view's host address */
    int32_t i[2], j[2];         /* texel indices (the general loader's arguments) */
    uint8_t direct;             /* bit t: tap t is read from host memory */
} tex_hw_footprint;

/* The footprint of view-relative level REL (SIZE texels across and down) at texel-space
 * coordinates U (offsets added) on LAYER, with share M of the lane's 256: the axes
 * (tex_hw_axis_common), the weights (tex_hw_weights_2d) and, where HOST (the view's host
 * mapping is current), which taps are read from it directly. */
static TV_ALWAYS_INLINE void tex_hw_footprint_at(const tex_ctx *c, uint32_t rel, const float u[2],
                         const uint32_t size[2], uint32_t layer, uint32_t m, bool host,
                         tex_hw_footprint *F)
{
    uint32_t a, b;
    tex_hw_axis_common(c->wrap[0], u[0], size[0], &F->i[0], &F->i[1], &a);
    tex_hw_axis_common(c->wrap[1], u[1], size[1], &F->j[0], &F->j[1], &b);
    tex_hw_weights_2d(a, b, m, F->w); /* taps in the order (x0,y0) (x1,y0) (x0,y1) (x1,y1) */
    F->direct = 0;
    const tex_view *v = c->v;
    const unsigned L = c->base_level + rel;
    if (!host || !(L < v->levels && layer < v->layers))
        return;
    const uint64_t base = (uint64_t)layer * v->layer_stride + v->level_offset[L];
    uint64_t xo[2], yo[2];
    for (unsigned n = 0; n < 2; n++) { /* common wraps: indices never TEX_BORDER */
        xo[n] = tex_fast_col_offset(v, L, (uint32_t)F->i[n]);
        yo[n] = base + tex_fast_row_offset(v, L, (uint32_t)F->j[n]);
    }
    for (unsigned t = 0; t < 4; t++) {
        F->off[t] = xo[t & 1u] + yo[t >> 1];
        if ((uint32_t)F->i[t & 1u] < size[0] && (uint32_t)F->j[t >> 1] < size[1] &&
            F->off[t] + 4 <= v->size_bytes)
            F->direct |= (uint8_t)(1u << t);
    }
}

/* F's Σ w·v16 added to K (each of its taps of nonzero weight: a direct byte t as 257·t,
 * others through tex_load_texel and tex_hw_unorm16). FIRST, when not NULL, gets the first
 * read tap's raw bits while *ANY is false, and *ANY becomes true once a tap is read. */
/* (The view's fields are read into locals first: the byte loads may alias anything, so the
 * compiler would reload them after every store to K.) */
static TV_ALWAYS_INLINE void tex_hw_footprint_sum(const tex_ctx *c, uint32_t rel, uint32_t layer,
                          const tex_hw_footprint *F, uint32_t k[4], uint32_t first[4],
                          bool *any)
{
    const tex_view *v = c->v;
    const uint8_t *host = v->host;
    const unsigned b0 = v->unorm8_byte[0], b1 = v->unorm8_byte[1], b2 = v->unorm8_byte[2],
                   b3 = v->unorm8_byte[3];
    uint32_t s0 = 0, s1 = 0, s2 = 0, s3 = 0; /* Σ w·t of the direct taps */
    uint32_t kk[4] = {k[0], k[1], k[2], k[3]};
    bool read = any && *any;
    for (unsigned t = 0; t < 4; t++) {
        const uint32_t wt = F->w[t];
        if (wt == 0)
            continue;
        if ((F->direct >> t) & 1u) {
            const uint8_t *p = host + F->off[t];
            s0 += wt * p[b0];
            s1 += wt * p[b1];
            s2 += wt * p[b2];
            s3 += wt * p[b3];
            if (first && !read) { /* the loader's decode: the table */
                memcpy(&first[0], &tex_unorm8[p[b0]], 4);
                memcpy(&first[1], &tex_unorm8[p[b1]], 4);
                memcpy(&first[2], &tex_unorm8[p[b2]], 4);
                memcpy(&first[3], &tex_unorm8[p[b3]], 4);
            }
        } else { /* the general loader (its clamps and memory rules) */
            uint32_t raw[4];
            tex_load_texel(c->unit, v, c->base_level + rel, (unsigned)F->i[t & 1u],
                           (unsigned)F->j[t >> 1], 0, layer, 0, false, raw);
            for (unsigned n = 0; n < 4; n++)
                kk[n] += wt * tex_hw_unorm16(tv_bits_f32(raw[n]));
            if (first && !read)
                memcpy(first, raw, sizeof raw);
        }
        read = true;
    }
    k[0] = kk[0] + 257u * s0;
    k[1] = kk[1] + 257u * s1;
    k[2] = kk[2] + 257u * s2;
    k[3] = kk[3] + 257u * s3;
    if (any)
        *any = read;
}

/* The whole-request path (tex_warp_hw.c): a SAMPLE / SAMPLE_BIAS / SAMPLE_LOD / SAMPLE_LZ
 * request of the common 2D shape in the hardware precision whose every lane
 * tex_fast_hw_takes would hand to tex_fast_hw_levels. Returns false, having written
 * nothing, when it declines; true when `res` is complete. Bit-identical to tv_tex_execute's
 * per-lane path. */
bool tex_warp_hw_sample(tv_tex_unit *unit, const tv_tex_request *req, tv_tex_result *res);
/* Tests: how many requests, and active lanes in them, the calling thread's
 * tex_warp_hw_sample took. */
void tex_warp_hw_counts(uint64_t *requests, uint64_t *lanes);

#endif
