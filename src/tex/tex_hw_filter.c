/* Filtering in hardware precision (docs/texture-unit-precision.md): the taps of
 * one lane's levels with integer weights in 1/256 — a level's share m (256, or 256 - F and
 * F of a mip blend), split over the footprint by tex_hw_weights_2d — and one exact sum
 * rounded once: to float — to half for 16-bit float views and decoded sRGB — ties away
 * from zero, or for 8-bit UNORM views in 16 bits (each tap quantised to 8 bits first, as
 * the GPU does with a border colour). An 8-bit sRGB view's colour decodes through the
 * measured table (tex_hw_srgb.c). The rules were measured on an NVIDIA H100
 * (tests/tex/test_hw_capture.c): 1D splits its one axis as 2D splits x, 3D splits the
 * slices first, a cube corner's weight goes to the three taps beside it. Taps of weight 0
 * are not read, as in the reference filter (tex_filter.c). Bilinear and trilinear levels of
 * unorm8x4 views with the common wraps go to the fast path tex_fast_hw_levels
 * (fast/tex_fast_hw.c; its gate, tex_fast_hw_takes, is in fast/tex_fast.h), which must give
 * these bits. */
#include <math.h>
#include <string.h>

#include "util/half.h"

#include "tex/tex_sampling.h"
#include "tex/fast/tex_fast.h"

enum { HW_MAX_TAPS = 16 }; /* two levels of a 3D footprint */

enum { HW_FLOAT, HW_HALF, HW_UNORM16 }; /* how a component's sum is rounded */

typedef struct hw_sum {
    uint8_t mode[4];             /* HW_* per component (stored order, before the swizzle) */
    bool srgb_raw;               /* texels loaded undecoded: R, G, B through the table */
    uint8_t reduction;           /* TSC min/max reduction: weights only select taps */
    unsigned n;
    double p[4][HW_MAX_TAPS];    /* float rule: (w/256)·v, exact in double */
    uint64_t k[4];               /* 16-bit rule: Σ w·v16 */
    float red[4];
    tex_val first;               /* raw bits come from the first tap, as in tex_filter.c */
} hw_sum;

/* Add a tap of weight w. `texel`: a texel of an sRGB view loaded undecoded (not the
 * border, whose colour the sampler's sRGB border bytes already give decoded). */
static void sum_add(hw_sum *S, uint32_t w, tex_val v, bool texel)
{
    if (S->srgb_raw && texel)
        for (unsigned c = 0; c < 3; c++) {
            float t = rintf(fminf(fmaxf(v.f[c], 0.0f), 1.0f) * 255.0f); /* the byte */
            v.f[c] = tv_bits_f32(tex_hw_srgb8_bits[(unsigned)t]);
            v.u[c] = tv_f32_bits(v.f[c]);
        }
    if (S->n == 0)
        S->first = v;
    for (unsigned c = 0; c < 4; c++) {
        if (S->reduction)
            S->red[c] = S->n == 0 ? v.f[c] : tex_reduce(S->reduction, S->red[c], v.f[c]);
        else if (S->mode[c] == HW_UNORM16)
            S->k[c] += (uint64_t)w * tex_hw_unorm16(v.f[c]);
        else
            S->p[c][S->n] = ((double)w * (1.0 / 256.0)) * (double)v.f[c];
    }
    S->n++;
}

static void tap(const tex_ctx *c, hw_sum *S, uint32_t w, uint32_t level, int32_t i, int32_t j,
                int32_t k, unsigned face)
{
    if (w == 0)
        return;
    tex_val v;
    tex_texel(c, level, i, j, k, face, &v);
    sum_add(S, w, v, i != TEX_BORDER && j != TEX_BORDER && k != TEX_BORDER);
}

/* One linear axis: wrapped indices and the weight of i1 in 1/256 — the coordinate under
 * the GPU's edge clamp (tex_hw_edge_clamp), then tex_wrap_linear's rule with 1/256 ties
 * up. */
static void hw_axis(unsigned mode, float u, uint32_t size, int32_t *i0, int32_t *i1,
                    uint32_t *a)
{
    float al;
    tex_wrap_linear(mode, tex_hw_edge_clamp(mode, u, size), size, true, i0, i1, &al);
    *a = (uint32_t)(al * 256.0f); /* a multiple of 1/256 in [0, 1) */
}

/* A seamless cube footprint (taps in gather order: (i0,j0), (i1,j0), (i0,j1), (i1,j1)):
 * taps over one edge read the neighbouring face (tex_cube_edge). A tap over two edges — the
 * corner no face holds — is not synthesised: its weight wc goes to the other three, r(wc/3)
 * to each of the two beside it and the rest to the one across (measured; the reference
 * averages the three instead). */
static void cube_taps(const tex_ctx *c, hw_sum *S, uint32_t level, unsigned face, int64_t i0,
                      int64_t j0, uint32_t w[4])
{
    int n = (int)tex_level_width(c->v, c->base_level + level);
    i0 = i0 < -1 ? -1 : i0 > n - 1 ? n - 1 : i0;
    j0 = j0 < -1 ? -1 : j0 > n - 1 ? n - 1 : j0;
    unsigned nf[4];
    int ti[4], tj[4];
    for (unsigned k = 0; k < 4; k++) {
        int i = (int)i0 + (int)(k & 1), j = (int)j0 + (int)(k >> 1);
        bool oi = i < 0 || i >= n, oj = j < 0 || j >= n;
        nf[k] = face;
        ti[k] = i;
        tj[k] = j;
        if (oi && oj) {
            uint32_t third = (w[k] + 1u) / 3u; /* r(wc/3): a third is never a tie */
            w[k ^ 1u] += third;
            w[k ^ 2u] += third;
            w[3u - k] += w[k] - 2u * third;
            w[k] = 0;
        } else if (oi || oj) {
            tex_cube_edge(face, n, i, j, &nf[k], &ti[k], &tj[k]);
        }
    }
    for (unsigned k = 0; k < 4; k++) /* (a seamless cube has no border) */
        if (w[k])
            tap(c, S, w[k], level, ti[k], tj[k], 0, nf[k]);
}

static void level_taps(const tex_ctx *c, hw_sum *S, uint32_t level, unsigned filter,
                       const float st[3], unsigned face, uint32_t m)
{
    uint32_t size[3];
    float u[3];
    tex_level_coords(c, level, st, size, u);
    unsigned dims = c->tgt->dims;
    if (c->tgt->cube && c->seamless) {
        if (filter == TEX_FILTER_NEAREST) {
            int32_t i, j;
            tex_cube_nearest(u, size[0], &i, &j);
            tap(c, S, m, level, i, j, 0, face);
            return;
        }
        int64_t i0, j0;
        float a, b;
        tex_select_linear(u[0], true, &i0, &a);
        tex_select_linear(u[1], true, &j0, &b);
        uint32_t w[4];
        tex_hw_weights_2d((uint32_t)(a * 256.0f), (uint32_t)(b * 256.0f), m, w);
        cube_taps(c, S, level, face, i0, j0, w);
        return;
    }
    if (filter == TEX_FILTER_NEAREST) {
        int32_t idx[3] = {0, 0, 0};
        for (unsigned a = 0; a < dims; a++)
            idx[a] = tex_wrap_nearest(c->wrap[a], u[a], size[a]);
        tap(c, S, m, level, idx[0], idx[1], idx[2], face);
        return;
    }
    int32_t i0[3] = {0, 0, 0}, i1[3] = {0, 0, 0};
    uint32_t al[3] = {0, 0, 0};
    for (unsigned a = 0; a < dims; a++)
        hw_axis(c->wrap[a], u[a], size[a], &i0[a], &i1[a], &al[a]);
    if (dims == 1) {
        uint32_t x = tex_hw_split(al[0], m);
        tap(c, S, m - x, level, i0[0], 0, 0, face);
        tap(c, S, x, level, i1[0], 0, 0, face);
        return;
    }
    /* 3D: the share of the lower slice is r(m·(256 − c)/256), ties up (measured: the other
     * way, r(c·m/256) for the upper, differs on a tie) */
    uint32_t z = dims == 3 ? m - tex_hw_split(256u - al[2], m) : 0;
    for (unsigned s = 0; s < (dims == 3 ? 2u : 1u); s++) {
        uint32_t w[4];
        tex_hw_weights_2d(al[0], al[1], s ? z : m - z, w);
        int32_t k = s ? i1[2] : i0[2];
        tap(c, S, w[0], level, i0[0], i0[1], k, face);
        tap(c, S, w[1], level, i1[0], i0[1], k, face);
        tap(c, S, w[2], level, i0[0], i1[1], k, face);
        tap(c, S, w[3], level, i1[0], i1[1], k, face);
    }
}

void tex_hw_sample_levels(const tex_ctx *c, const tex_lod_out *lod, unsigned filter,
                          const float st[3], unsigned face, tex_val *out)
{
    if (tex_fast_hw_takes(c, filter)) { /* unorm8x4 bilinear / trilinear (fast/tex_fast_hw.c) */
        tex_fast_hw_levels(c, lod, st, face, out);
        return;
    }
    hw_sum S;
    memset(&S, 0, sizeof S);
    S.reduction = c->reduction;
    tex_ctx raw;
    if (c->v->unorm8 && c->srgb && !c->compare) {
        /* 8-bit sRGB: the texels undecoded, R, G, B through the measured table (summed in
         * half precision), alpha in 16 bits */
        raw = *c;
        raw.srgb = false;
        c = &raw;
        S.srgb_raw = true;
        S.mode[0] = S.mode[1] = S.mode[2] = HW_HALF;
        S.mode[3] = HW_UNORM16;
    } else {
        uint8_t m = c->compare ? HW_FLOAT
                    : c->v->unorm8 && !c->srgb ? HW_UNORM16
                    : c->v->float16 ? HW_HALF : HW_FLOAT;
        memset(S.mode, m, sizeof S.mode);
    }
    if (lod->nlevels < 2) {
        level_taps(c, &S, lod->level[0], filter, st, face, 256);
    } else {
        level_taps(c, &S, lod->level[0], filter, st, face, 256 - lod->hw_f256);
        level_taps(c, &S, lod->level[1], filter, st, face, lod->hw_f256);
    }
    *out = S.first;
    for (unsigned k = 0; k < 4; k++)
        out->f[k] = S.reduction ? S.red[k]
                    : S.mode[k] == HW_UNORM16 ? tex_hw_unorm16_sum(S.k[k])
                    : tex_hw_round_sum(S.p[k], S.n, S.mode[k] == HW_HALF);
}
