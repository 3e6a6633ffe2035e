/* A triangle's positions and the pixels its vertices' window positions bound
 * (draw_tri_box's rules, pipe_draw.h), inlined where they run for every triangle:
 * pipe_draw_tri.c (the direct path's positions, the bands' test of each triangle) and
 * pipe_draw_tri_rows.c (draw_tri_box, draw_tri_rows and their AVX-512 form). */
#ifndef TEXVM_PIPE_DRAW_TRI_BOX_H
#define TEXVM_PIPE_DRAW_TRI_BOX_H

#include "pipe_draw.h"
#include "util/wide_vectors.h"

#include <math.h>
#include <string.h>

/* floor and ceil of V (|V| < 1e9) as integers, without libm's calls (the baseline
 * instruction set has no rounding instruction) */
static TV_ALWAYS_INLINE int64_t floor_i64(float v)
{
    int64_t t = (int64_t)v;          /* toward zero, exact for |v| < 2^63 */
    return t - ((float)t > v);
}

static TV_ALWAYS_INLINE int64_t ceil_i64(float v)
{
    int64_t t = (int64_t)v;
    return t + ((float)t < v);
}

/* Triangle T's three clip positions (POSITION outputs of instance INST) as POS[4k..4k+3] */
static TV_ALWAYS_INLINE void tri_positions(const draw_state *d, uint32_t inst,
                                           const draw_tri *t, float pos[12])
{
    for (int k = 0; k < 3; k++)
        memcpy(pos + 4 * k, draw_vs_out(d, d->pos_out, inst, t->v[k]), 4 * sizeof *pos);
}

/* draw_tri_box from axis FROM on: 0 columns and rows, 1 rows only (box[0], box[2] then
 * the clip rectangle's) — inlined into draw_tri_rows (the band masks: every triangle
 * once) and band_may_cover (every band job, every triangle, where there are no masks),
 * which need rows only (the call and the columns cost the mesh scene 4 % on two workers
 * when every job made it). Scalars, not a box array the compiler copies as vectors: those
 * 16-byte loads of two 8-byte stores just made waited for them (a third of draw_triangle's
 * own time on two workers). */
static TV_ALWAYS_INLINE void tri_box(const draw_state *d, uint32_t inst, const draw_tri *t,
                                     int32_t box[4], int from)
{
    /* When every vertex has w > 0, a triangle's pixels lie within its vertices' window
       positions, one pixel either side (clipping only shrinks it, set-up snaps by 1/256 of
       a pixel) */
    int64_t bx0 = d->tri_clip[0], by0 = d->tri_clip[1];
    int64_t bx1 = (int64_t)d->tri_clip[2] - 1, by1 = (int64_t)d->tri_clip[3] - 1;
    float lox = INFINITY, loy = INFINITY, hix = -INFINITY, hiy = -INFINITY;
    float pos[12], wx[3], wy[3];
    tri_positions(d, inst, t, pos);
    bool known = clip_triangle_window_xy(&d->vp, pos, wx, wy);
    for (int k = 0; k < 3 && known; k++) {
        if (!(fabsf(wy[k]) < 1e9f) || (from == 0 && !(fabsf(wx[k]) < 1e9f)))
            known = false;   /* not finite, or past any pixel */
        lox = wx[k] < lox ? wx[k] : lox;
        hix = wx[k] > hix ? wx[k] : hix;
        loy = wy[k] < loy ? wy[k] : loy;
        hiy = wy[k] > hiy ? wy[k] : hiy;
    }
    if (known) {
        if (from == 0) {
            int64_t a = floor_i64(lox) - 1, z = ceil_i64(hix) + 1;
            bx0 = a > bx0 ? a : bx0;
            bx1 = z < bx1 ? z : bx1;
        }
        int64_t a = floor_i64(loy) - 1, z = ceil_i64(hiy) + 1;
        by0 = a > by0 ? a : by0;
        by1 = z < by1 ? z : by1;
    }
    box[0] = (int32_t)bx0;
    box[1] = (int32_t)by0;
    box[2] = (int32_t)bx1;
    box[3] = (int32_t)by1;
}

#endif
