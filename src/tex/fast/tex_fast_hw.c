/* The hardware precision's LINEAR levels of one lane (or one anisotropic probe) for
 * unorm8x4 views (four 8-bit UNORM components in a 4-byte texel: R8G8B8A8, B8G8R8A8, ...):
 * tex_hw_sample_levels (tex_hw_filter.c) for the contexts tex_fast_hw_takes
 * (fast/tex_fast.h) lets through — a 2-axis footprint (2D, 2D array, a cube face without
 * seamless filtering) with REPEAT / MIRROR / CLAMP_TO_EDGE wraps, one level or the two of
 * MIP_LINEAR, no sRGB decode, compare or min/max reduction.
 *
 * Why it is faster: the general path gathers each tap as decoded floats (tex_texel →
 * tex_load_texel), turns each float back into its 16-bit value (tex_hw_unorm16) and keeps
 * a double per component per tap for the modes other views need. For these views every
 * component's sum is the 16-bit one, so this path reads the bytes straight from host
 * memory and keeps the sum k = Σ w·v16 in integers: a texel byte t is v16 = 257·t, which
 * is what tex_hw_unorm16 gives for the loader's t/255 (tex_hw.c: "a texel's own t/255
 * gives t back").
 *
 * Bit-identity with tex_hw_sample_levels: the texel-space coordinates come from the same
 * function (tex_level_coords); each axis is hw_axis's (the CLAMP_TO_EDGE clamp to
 * [½, size − ½], then tex_wrap_linear's selection with the coordinate rounded to 1/256
 * ties up: tex_hw_axis_common, fast/tex_fast_hw.h: exact integer steps where they are exact, the shared
 * functions elsewhere); the weights are tex_hw_weights_2d's for the same shares m (256,
 * or 256 − F and F); taps of weight 0 are not read; k is rounded once by
 * tex_hw_unorm16_sum.
 * k is an integer sum, so the order of the taps cannot change it; the raw bits (out->u)
 * are the first read tap's, as hw_sum's. A texel outside the current host mapping goes
 * through the general loader and tex_hw_unorm16, as there.
 * tests/tex/test_fastpath_hw.c compares both paths on random requests. */
#include <math.h>
#include <string.h>

#include "tex/format.h"
#include "tex/fast/tex_fast.h"
#include "tex/fast/tex_fast_addr.h"
#include "tex/fast/tex_fast_hw.h"
#include "util/half.h"

/* A lane's sum over its levels. */
typedef struct hw_acc {
    uint32_t k[4];     /* Σ w·v16 per component: at most 256 · 65535 over both levels */
    uint32_t first[4]; /* the first read tap's raw bits */
    bool any;
} hw_acc;

/* One level's 2x2 footprint with share m, added to A. The view's fields are read into
 * locals first: the byte loads may alias anything, so the compiler would reload them
 * after every store to A. */
static void level_sum(const tex_ctx *c, uint32_t level, const float st[3], unsigned face,
                      uint32_t m, hw_acc *A)
{
    uint32_t size[3];
    float u[3];
    tex_level_coords(c, level, st, size, u);
    int32_t ix[2], iy[2];
    uint32_t a, b, w[4];
    tex_hw_axis_common(c->wrap[0], u[0], size[0], &ix[0], &ix[1], &a);
    tex_hw_axis_common(c->wrap[1], u[1], size[1], &iy[0], &iy[1], &b);
    tex_hw_weights_2d(a, b, m, w); /* taps in the order (x0,y0) (x1,y0) (x0,y1) (x1,y1) */

    const tex_view *v = c->v;
    const unsigned L = c->base_level + level;
    const uint32_t layer = c->layer + face; /* non-seamless cube faces as in tex_texel() */
    const uint8_t *host = v->host;
    const uint64_t limit = v->size_bytes;
    const unsigned b0 = v->unorm8_byte[0], b1 = v->unorm8_byte[1], b2 = v->unorm8_byte[2],
                   b3 = v->unorm8_byte[3];
    bool direct = L < v->levels && layer < v->layers && host &&
                  v->host_generation == tex_memory_generation(c->unit->mem);
    uint64_t xo[2] = {0, 0}, yo[2] = {0, 0};
    if (direct) {
        uint64_t base = (uint64_t)layer * v->layer_stride + v->level_offset[L];
        for (unsigned n = 0; n < 2; n++) { /* common wraps: indices never TEX_BORDER */
            xo[n] = tex_fast_col_offset(v, L, (uint32_t)ix[n]);
            yo[n] = base + tex_fast_row_offset(v, L, (uint32_t)iy[n]);
        }
    }
    /* Σ w·t of the bytes read directly (each v16 = 257·t: multiplied once at the end) */
    uint32_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    uint32_t k[4] = {A->k[0], A->k[1], A->k[2], A->k[3]};
    bool any = A->any;
    for (unsigned t = 0; t < 4; t++) {
        uint32_t wt = w[t];
        if (wt == 0)
            continue;
        int32_t i = ix[t & 1u], j = iy[t >> 1];
        uint64_t off = xo[t & 1u] + yo[t >> 1];
        if (direct && (uint32_t)i < size[0] && (uint32_t)j < size[1] && off + 4 <= limit) {
            const uint8_t *p = host + off;
            s0 += wt * p[b0];
            s1 += wt * p[b1];
            s2 += wt * p[b2];
            s3 += wt * p[b3];
            if (!any) { /* the loader's decode: the table */
                memcpy(&A->first[0], &tex_unorm8[p[b0]], 4);
                memcpy(&A->first[1], &tex_unorm8[p[b1]], 4);
                memcpy(&A->first[2], &tex_unorm8[p[b2]], 4);
                memcpy(&A->first[3], &tex_unorm8[p[b3]], 4);
            }
        } else { /* the general loader (its clamps and memory rules) */
            uint32_t raw[4];
            tex_load_texel(c->unit, v, L, (unsigned)i, (unsigned)j, 0, layer, 0, false, raw);
            for (unsigned n = 0; n < 4; n++)
                k[n] += wt * tex_hw_unorm16(tv_bits_f32(raw[n]));
            if (!any)
                memcpy(A->first, raw, sizeof raw);
        }
        any = true;
    }
    A->k[0] = k[0] + 257u * s0;
    A->k[1] = k[1] + 257u * s1;
    A->k[2] = k[2] + 257u * s2;
    A->k[3] = k[3] + 257u * s3;
    A->any = any;
}

static _Thread_local uint64_t served;

uint64_t tex_fast_hw_count(void)
{
    uint64_t requests, lanes;
    tex_warp_hw_counts(&requests, &lanes);
    return served + lanes;
}

void tex_fast_hw_levels(const tex_ctx *c, const tex_lod_out *lod, const float st[3],
                        unsigned face, tex_val *out)
{
    served++;
    hw_acc A;
    memset(&A, 0, sizeof A);
    if (lod->nlevels < 2) {
        level_sum(c, lod->level[0], st, face, 256, &A);
    } else {
        level_sum(c, lod->level[0], st, face, 256 - lod->hw_f256, &A);
        level_sum(c, lod->level[1], st, face, lod->hw_f256, &A);
    }
    for (unsigned k = 0; k < 4; k++) {
        out->u[k] = A.first[k];
        out->f[k] = tex_hw_unorm16_sum(A.k[k]);
    }
}
