/* The FRAG stage's interpolation of its inputs (vm_stage_frag.c): the per-pixel reference
 * (bary, interp_b, interp_at) and the tile paths' lane-parallel formulas (tile_bary,
 * interp_tile, with their NaN-input fallbacks), in the two forms described below.
 * Included by vm_stage_frag.c only: a header, not a translation unit of its own, so that
 * the tile walk's calls into these helpers are compiled (and inlined) as they were in one
 * file with it — the walk is the engine's hottest loop. */
#ifndef TEXVM_VM_STAGE_FRAG_INTERP_H
#define TEXVM_VM_STAGE_FRAG_INTERP_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "util/nan_order.h"
#include "vm/vm_ops.h"
#include "vm/vm_run.h"
#include "vm/vm_stage_frag.h"

/* The interpolation formulas have two forms. The reference (bary, interp_b) takes its
 * products and sums as tv_mul_a / tv_add_a: where two NaNs meet, the one that comes out is
 * fixed by the formula as written (util/nan_order.h). The tile paths (tile_bary,
 * interp_tile) run the plain operations, in which the compiler orders each commutative
 * pair as it likes: a build that ordered the lane loop and the reference differently
 * returned different NaNs for NaN attributes or w (caught by translation validation's
 * inputs with NaNs, in the sanitizer build). They give the reference's bits whenever no
 * input of the formula — positions, z, 1/w, the attribute's values; the lanes' positions
 * are integers — is a NaN: every NaN made inside is then the one default NaN of the
 * hardware (0 × inf, inf − inf, 0 / 0), so whichever of two meets comes first, the bits are
 * the same. With a NaN input they take the reference's way (tile_bary_nan,
 * interp_tile_nan). */

/* b0 x0 + b1 x1 + b2 x2 */
static TV_ALWAYS_INLINE float dot3(float b0, float b1, float b2, float x0, float x1, float x2)
{
    return tv_add_a(tv_add_a(tv_mul_a(b0, x0), tv_mul_a(b1, x1)), tv_mul_a(b2, x2));
}

/* v0 + w1 (v1 - v0) + w2 (v2 - v0) */
static TV_ALWAYS_INLINE float lerp3(float v0, float w1, float d1, float w2, float d2)
{
    return tv_add_a(tv_add_a(v0, tv_mul_a(w1, d1)), tv_mul_a(w2, d2));
}

/* Barycentrics of (x, y) in triangle t; returns whether the point is inside. */
static bool bary(const vm_frag_tri *t, float x, float y, float b[3])
{
    if (t->area == 0.0f) {
        b[0] = 1.0f; b[1] = b[2] = 0.0f;
        return false;
    }
    b[0] = vm_frag_edge(t->x[1], t->y[1], t->x[2], t->y[2], x, y) / t->area;
    b[1] = vm_frag_edge(t->x[2], t->y[2], t->x[0], t->y[0], x, y) / t->area;
    b[2] = vm_frag_edge(t->x[0], t->y[0], t->x[1], t->y[1], x, y) / t->area;
    return b[0] >= 0.0f && b[1] >= 0.0f && b[2] >= 0.0f;
}

static void sample_xy(const vm_run *R, uint32_t s, float *x, float *y)
{
    if (R->samples <= 1) { *x = 0.5f; *y = 0.5f; return; }
    *x = R->sample_pos[s & 15][0];
    *y = R->sample_pos[s & 15][1];
}

/* Value of input `fi` at a point with barycentrics b in triangle t. */
static void interp_b(const vm_run *R, const vm_fs_input *fi, const vm_frag_tri *t,
                     const float b[3], float x, float y, uint32_t out[4])
{
    const tv_vm_frag_params *fp = R->fp;
    const tv_vm_program *p = R->prog;
    if (fi->semantic == TV_SEM_POSITION) {
        float z = dot3(b[0], b[1], b[2], t->z[0], t->z[1], t->z[2]);
        float iw = dot3(b[0], b[1], b[2], t->inv_w[0], t->inv_w[1], t->inv_w[2]);
        float px = x, py = y;
        if (p->origin_lower_left) py = (float)fp->height - y;
        if (p->center_integer) { px -= 0.5f; py -= 0.5f; }
        out[0] = tv_f32_bits(px); out[1] = tv_f32_bits(py); out[2] = tv_f32_bits(z); out[3] = tv_f32_bits(iw);
        return;
    }
    if (fi->semantic == TV_SEM_FACE) {
        out[0] = tv_f32_bits(fp->front_face ? 1.0f : -1.0f);
        out[1] = out[2] = 0; out[3] = tv_f32_bits(1.0f);
        return;
    }
    if (fi->reg >= TV_VM_MAX_ATTRIBS) {
        /* no attribute slot: zeros, as VERT does (was attr[reg % 32]; and a program
         * declaring thousands of inputs costs no interpolation: fuzz_vm timeout) */
        memset(out, 0, 16);
        return;
    }
    if (vm_frag_flat_input(fp, fi)) {
        /* flat: the provoking vertex, the last of the triangle (GL's default) */
        memcpy(out, fp->vertices[t->provoking].attr[fi->reg % TV_VM_MAX_ATTRIBS], 16);
        return;
    }
    const uint32_t *a0 = fp->vertices[t->v[0]].attr[fi->reg % TV_VM_MAX_ATTRIBS];
    const uint32_t *a1 = fp->vertices[t->v[1]].attr[fi->reg % TV_VM_MAX_ATTRIBS];
    const uint32_t *a2 = fp->vertices[t->v[2]].attr[fi->reg % TV_VM_MAX_ATTRIBS];
    float w0 = b[0], w1 = b[1], w2 = b[2];
    if (fi->interp != TV_INTERP_LINEAR) {
        w0 = tv_mul_a(w0, t->inv_w[0]);
        w1 = tv_mul_a(w1, t->inv_w[1]);
        w2 = tv_mul_a(w2, t->inv_w[2]);
        float sum = tv_add_a(tv_add_a(w0, w1), w2);
        if (sum != 0.0f) { w0 /= sum; w1 /= sum; w2 /= sum; }
    }
    /* v0 + w1 (v1 - v0) + w2 (v2 - v0): the weights need not sum to exactly 1, and an
     * attribute equal at the three vertices comes out exactly (as plane equations give);
     * w0 only enters through the normalising sum */
    for (unsigned c = 0; c < 4; c++) {
        float v0 = tv_bits_f32(a0[c]);
        out[c] = tv_f32_bits(lerp3(v0, w1, tv_bits_f32(a1[c]) - v0, w2, tv_bits_f32(a2[c]) - v0));
    }
}

static void interp_at(const vm_run *R, const vm_fs_input *fi, const vm_frag_tri *t, float x,
                      float y, uint32_t out[4])
{
    float b[3];
    bary(t, x, y, b);
    interp_b(R, fi, t, b, x, y, out);
}

/* interp_tile's input, interp_b's formula lane by lane (a NaN input: see vm_frag_edge) */
static __attribute__((noinline, cold)) void interp_tile_nan(vm_worker *wk, const vm_warp *w,
                                                            const vm_fs_input *fi,
                                                            const vm_frag_tri *t, vm_slot *dst)
{
    for (unsigned l = 0; l < VM_LANES; l++) {
        const float b[3] = {wk->lane_b[0][l], wk->lane_b[1][l], wk->lane_b[2][l]};
        uint32_t v[4];
        interp_b(wk->run, fi, t, b, (float)w->lane_x[l] + 0.5f, (float)w->lane_y[l] + 0.5f, v);
        for (unsigned c = 0; c < 4; c++)
            dst[c].u[l] = v[c];
    }
}

/* Lane L's perspective weight numerators B, C and their normalising divisor D: interp_b's
 * `if (sum != 0) divide` as a division by 1 where the sum is ±0 (exact: x / 1 is x; and
 * sum + 0 is sum for every other sum), so a lane loop has no branch and vectorises. One
 * definition for interp_tile's weights and finite_weights' test of them. */
static TV_ALWAYS_INLINE void persp_terms(const vm_frag_tri *t, const float *b0,
                                         const float *b1, const float *b2, unsigned l,
                                         float *b, float *c, float *d)
{
    float a = b0[l] * t->inv_w[0];
    *b = b1[l] * t->inv_w[1];
    *c = b2[l] * t->inv_w[2];
    float sum = a + *b + *c;
    *d = sum + (float)(sum == 0.0f);
}

/* Whether triangle T's weights for input FI are proven finite (vm_stage_frag_setup.c,
 * bounded_weights) */
static bool weights_bounded(const vm_fs_input *fi, const vm_frag_tri *t)
{
    return (t->bounded & (fi->interp == TV_INTERP_LINEAR ? VM_FRAG_BOUNDED_LINEAR
                                                          : VM_FRAG_BOUNDED_PERSP)) != 0;
}

/* Whether interp_tile's weights w1, w2 are finite in every lane (lane_b, triangle T):
 * LINEAR's are the barycentrics; the perspective ones b / d, c / d with d the normalising
 * sum (1 where it is 0) are when |b|, |c| <= 2^62 and |d| >= 2^-62 (quotients below 2^124;
 * a NaN fails the tests). persp_terms gives both the same b, c, d. */
VM_WIDE_VECTORS static bool finite_weights(const vm_fs_input *fi, const vm_frag_tri *t,
                                           const float *b0, const float *b1, const float *b2)
{
    uint32_t bad = 0;
    if (fi->interp == TV_INTERP_LINEAR) {
        for (unsigned l = 0; l < VM_LANES; l++)
            bad |= (uint32_t)!(fabsf(b1[l]) <= 3.40282347e38f) |
                   (uint32_t)!(fabsf(b2[l]) <= 3.40282347e38f);
        return !bad;
    }
    for (unsigned l = 0; l < VM_LANES; l++) {
        float b, c, d;
        persp_terms(t, b0, b1, b2, l, &b, &c, &d);
        bad |= (uint32_t)!(fabsf(b) <= 0x1p62f) | (uint32_t)!(fabsf(c) <= 0x1p62f) |
               (uint32_t)!(fabsf(d) >= 0x1p-62f);
    }
    return !bad;
}

/* The channels of input FI interp_tile computes: those the program may read (vm_lower.c
 * mark_input_reads; the others are never looked at), all four for the plain interpreter
 * (the reference) and traces. It writes every channel where it takes interp_b's way. */
static unsigned tile_chans(const vm_run *R, const vm_fs_input *fi)
{
    return R->plain || R->tracing ? 0xfu : fi->read;
}

/* Whether d[l] is 1 in each of half a warp's lanes */
static TV_ALWAYS_INLINE bool all_one_half(const float *d)
{
    uint32_t not_one = 0;
    for (unsigned l = 0; l < VM_LANES / 2; l++)
        not_one |= (uint32_t)(d[l] != 1.0f);
    return !not_one;
}

/* p[l] /= d[l], q[l] /= d[l] for half a warp's lanes */
static TV_ALWAYS_INLINE void divide_half(float *restrict p, float *restrict q,
                                         const float *restrict d)
{
    for (unsigned l = 0; l < VM_LANES / 2; l++) {
        p[l] = p[l] / d[l];
        q[l] = q[l] / d[l];
    }
}

/* Inputs of a tile that lies in one triangle, at the pixel centres: the arithmetic of
 * interp_b() done lane-parallel (bit-identical: built for wider vectors too, the same
 * IEEE operations in the same order; with a NaN input, interp_b's own way, see
 * the formulas' two forms at the head). */
VM_WIDE_VECTORS static void interp_tile(vm_worker *wk, const vm_warp *w, const vm_fs_input *fi,
                        const vm_frag_tri *t, vm_slot *dst)
{
    const vm_run *R = wk->run;
    const tv_vm_frag_params *fp = R->fp;
    const tv_vm_program *p = R->prog;
    const float *b0 = wk->lane_b[0], *b1 = wk->lane_b[1], *b2 = wk->lane_b[2];
    if (fi->semantic == TV_SEM_POSITION) {
        if (t->nan_in) {
            interp_tile_nan(wk, w, fi, t, dst);
            return;
        }
        float H = (float)fp->height;
        for (unsigned l = 0; l < VM_LANES; l++) {
            float px = (float)w->lane_x[l] + 0.5f, py = (float)w->lane_y[l] + 0.5f;
            if (p->origin_lower_left) py = H - py;
            if (p->center_integer) { px -= 0.5f; py -= 0.5f; }
            dst[0].f[l] = px;
            dst[1].f[l] = py;
            dst[2].f[l] = b0[l] * t->z[0] + b1[l] * t->z[1] + b2[l] * t->z[2];
            dst[3].f[l] = b0[l] * t->inv_w[0] + b1[l] * t->inv_w[1] + b2[l] * t->inv_w[2];
        }
        return;
    }
    if (fi->semantic == TV_SEM_FACE || vm_frag_flat_input(fp, fi)) {
        uint32_t v[4];
        const float b[3] = {0, 0, 0};
        interp_b(R, fi, t, b, 0.0f, 0.0f, v);
        for (unsigned c = 0; c < 4; c++)
            for (unsigned l = 0; l < VM_LANES; l++)
                dst[c].u[l] = v[c];
        return;
    }
    if (fi->reg >= TV_VM_MAX_ATTRIBS) { /* no attribute slot: zeros (interp_b) */
        memset(dst, 0, 4 * sizeof *dst);
        return;
    }
    const uint32_t *a0 = fp->vertices[t->v[0]].attr[fi->reg % TV_VM_MAX_ATTRIBS];
    const uint32_t *a1 = fp->vertices[t->v[1]].attr[fi->reg % TV_VM_MAX_ATTRIBS];
    const uint32_t *a2 = fp->vertices[t->v[2]].attr[fi->reg % TV_VM_MAX_ATTRIBS];
    if (t->nan_in || vm_frag_attr_nan(fp, t, fi->reg)) {
        interp_tile_nan(wk, w, fi, t, dst);
        return;
    }
    const unsigned chans = tile_chans(R, fi);
    if (((t->same_attrs >> fi->reg) & 1u) &&
        ((!R->plain && weights_bounded(fi, t)) || finite_weights(fi, t, b0, b1, b2))) {
        for (unsigned c = 0; c < 4; c++)
            if ((chans >> c) & 1u)
                for (unsigned l = 0; l < VM_LANES; l++)
                    dst[c].u[l] = a0[c];
        return;
    }
    /* the weights of vertices 1 and 2 (the formula needs no w0) */
    float w1[VM_LANES], w2[VM_LANES];
    if (fi->interp == TV_INTERP_LINEAR) {
        memcpy(w1, b1, sizeof w1);
        memcpy(w2, b2, sizeof w2);
    } else {
        /* b / d and c / d; where d is 1 in each lane of a half warp (16 lanes), b and c
           themselves: x / 1 is x for every x but a denormal where denormals are flushed
           (read as a zero: the quotient a zero), and b, c are products, so a NaN among
           them is quiet and the division would return it as it is. With vertices of
           equal w (a 2D draw, a full-screen pass), d is the sum of three barycentrics
           and often exactly 1: in 62 % of the half warps of the suite's full-screen
           rectangle, where the divisions were a tenth of a frame on an AMD Zen 4 core
           (vdivps: 6 cycles per 16 lanes there). */
        const bool flushing = R->vm->cfg.flush_denormals;
        float dv[VM_LANES];
        for (unsigned l = 0; l < VM_LANES; l++)
            persp_terms(t, b0, b1, b2, l, &w1[l], &w2[l], &dv[l]);
        if (flushing || !all_one_half(dv))
            divide_half(w1, w2, dv);
        if (flushing || !all_one_half(dv + VM_LANES / 2))
            divide_half(w1 + VM_LANES / 2, w2 + VM_LANES / 2, dv + VM_LANES / 2);
    }
    for (unsigned c = 0; c < 4; c++) {
        if (!((chans >> c) & 1u))
            continue;
        float v0 = tv_bits_f32(a0[c]), v1 = tv_bits_f32(a1[c]), v2 = tv_bits_f32(a2[c]);
        float d1 = v1 - v0, d2 = v2 - v0;   /* interp_b's formula */
        for (unsigned l = 0; l < VM_LANES; l++)
            dst[c].f[l] = v0 + w1[l] * d1 + w2[l] * d2;
    }
}

/* tile_bary's lanes, bary()'s formula lane by lane (a NaN input: see vm_frag_edge) */
static __attribute__((noinline, cold)) void tile_bary_nan(vm_worker *wk, const vm_warp *w,
                                                          const vm_frag_tri *T)
{
    for (unsigned l = 0; l < VM_LANES; l++) {
        float fx = (float)w->lane_x[l] + 0.5f, fy = (float)w->lane_y[l] + 0.5f;
        wk->lane_b[0][l] = vm_frag_edge(T->x[1], T->y[1], T->x[2], T->y[2], fx, fy) / T->area;
        wk->lane_b[1][l] = vm_frag_edge(T->x[2], T->y[2], T->x[0], T->y[0], fx, fy) / T->area;
        wk->lane_b[2][l] = vm_frag_edge(T->x[0], T->y[0], T->x[1], T->y[1], fx, fy) / T->area;
    }
}

/* Centre barycentrics of a tile's lanes in triangle T: the formula of bary(),
 * lane-parallel (and built for wider vectors). */
VM_WIDE_VECTORS static void tile_bary(vm_worker *wk, const vm_warp *w, const vm_frag_tri *T)
{
    if (T->nan_in) {
        tile_bary_nan(wk, w, T);
        return;
    }
    for (unsigned l = 0; l < VM_LANES; l++) {
        float fx = (float)w->lane_x[l] + 0.5f, fy = (float)w->lane_y[l] + 0.5f;
        wk->lane_b[0][l] =
            vm_frag_edge_plain(T->x[1], T->y[1], T->x[2], T->y[2], fx, fy) / T->area;
        wk->lane_b[1][l] =
            vm_frag_edge_plain(T->x[2], T->y[2], T->x[0], T->y[0], fx, fy) / T->area;
        wk->lane_b[2][l] =
            vm_frag_edge_plain(T->x[0], T->y[0], T->x[1], T->y[1], fx, fy) / T->area;
    }
}

#endif /* TEXVM_VM_STAGE_FRAG_INTERP_H */
