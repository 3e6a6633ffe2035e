/* The fixed-function tessellator (include/texvm/tess.h), after the D3D11 reference
 * tessellator's rules: 16.16 fixed point, points placed per edge by the ruler-function split
 * order, rings stitched with the reference's transition and diagonal patterns.
 *
 * Points are stored ring by ring (outer ring first, each ring clockwise from its first
 * edge's first point, spiralling in). A stitch joins two rows of points: the inside row and
 * the outside row. A row names its points by position k: start + dir*k, except that
 * position bad_k (the end of the ring's last edge) is the ring's first point. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "texvm/tess.h"

typedef uint32_t fxp;   /* unsigned 16.16 fixed point */
#define FX_ONE 0x10000u
#define FX_HALF 0x8000u
#define FX_THIRD 0x5555u
#define FX_TWO_THIRDS 0xaaaau
#define FX_FRAC 0x0000ffffu
#define FX_INT 0x7fff0000u

/* ---- scalar rules ---------------------------------------------------------------------- */

/* Clamp a level to [lo, hi]; NaN gives lo (the reference's IEEE min/max do so). */
static float clamp_level(float f, float lo, float hi)
{
    if (isnan(f) || f < lo)
        return lo;
    return f > hi ? hi : f;
}

/* f in [0, 64]: f * 2^16 is exact; round half to even. */
static fxp fx_from_float(float f)
{
    double d = (double)f * 65536.0;
    double fl = floor(d);
    fxp r = (fxp)fl;
    double fr = d - fl;
    if (fr > 0.5 || (fr == 0.5 && (r & 1u)))
        r++;
    return r;
}

static float fx_to_float(fxp x)
{
    return (float)x / 65536.0f;  /* exact: points lie in [0, 1] */
}

static fxp fx_ceil(fxp x)
{
    return (x & FX_FRAC) ? (x & FX_INT) + FX_ONE : x;
}

static fxp fx_floor(fxp x)
{
    return x & FX_INT;
}

/* 1/n in 16.16, rounded to nearest (n = 0 never reaches a multiply that matters). */
static fxp fx_reciprocal(uint32_t n)
{
    return n ? (FX_ONE + n / 2) / n : 0xffffffffu;
}

static int remove_msb(int v)
{
    if (v <= 0)
        return 0;
    int b = 1;
    while (b <= v / 2)
        b <<= 1;
    return v & ~b;
}

static bool is_even(float f)
{
    return !(((int)f) & 1);
}

/* What the reference keeps per level: how points are placed on an edge of that level. */
typedef struct {
    bool odd;
    fxp frac;         /* fraction of half the level */
    int half_points;  /* points on a half edge */
    int split;        /* where the floor-level edge has one point less */
    fxp inv_floor, inv_ceil;
} tf_ctx;

static int points_for_level(fxp f, bool odd)
{
    if (odd)
        return (int)((fx_ceil(FX_HALF + (f + 1) / 2) * 2) >> 16);
    return (int)(((fx_ceil((f + 1) / 2) * 2) >> 16) + 1);
}

static void ctx_init(tf_ctx *c, fxp f, bool odd)
{
    fxp h = (f + 1) / 2;
    if (odd || h == FX_HALF)  /* a level of 1 under even spacing acts as odd */
        h += FX_HALF;
    fxp fl = fx_floor(h), ce = fx_ceil(h);
    c->odd = odd;
    c->frac = h - fl;
    c->half_points = (int)(ce >> 16);
    if (ce == fl)
        c->split = c->half_points + 1;
    else if (odd)
        c->split = fl == FX_ONE ? 0 : (remove_msb((int)(fl >> 16) - 1) << 1) + 1;
    else
        c->split = (remove_msb((int)(fl >> 16)) << 1) + 1;
    uint32_t nfloor = (fl * 2) >> 16, nceil = (ce * 2) >> 16;
    if (odd) {
        nfloor -= 1;
        nceil -= 1;
    }
    c->inv_floor = fx_reciprocal(nfloor);
    c->inv_ceil = fx_reciprocal(nceil);
}

/* Position of point `point` along an edge of the context's level, in [0, 1]. */
static fxp place(const tf_ctx *c, int point)
{
    bool flip = false;
    if (point >= c->half_points) {
        point = (c->half_points << 1) - point;
        if (c->odd)
            point -= 1;
        flip = true;
    }
    if (point == c->half_points)
        return FX_HALF;
    uint32_t on_ceil = (uint32_t)point, on_floor = (uint32_t)point;
    if (point > c->split)
        on_floor -= 1;
    fxp at_floor = on_floor * c->inv_floor, at_ceil = on_ceil * c->inv_ceil;
    fxp loc = at_floor * (FX_ONE - c->frac) + at_ceil * c->frac;
    loc = (loc + FX_HALF) >> 16;
    return flip ? FX_ONE - loc : loc;
}

/* ---- output ------------------------------------------------------------------------------ */

typedef struct {
    tv_tess_point *pts;
    uint32_t npts, cap_pts;
    uint32_t *idx;
    uint32_t nidx, cap_idx;
    bool cw, oom;
} emitter;

static void put_point(emitter *e, fxp u, fxp v)
{
    if (e->npts >= e->cap_pts) {
        e->oom = true;  /* the counts below are exact: never happens */
        return;
    }
    e->pts[e->npts].u = fx_to_float(u);
    e->pts[e->npts].v = fx_to_float(v);
    e->npts++;
}

static void put_index(emitter *e, int i)
{
    if (e->nidx >= e->cap_idx) {
        uint32_t cap = e->cap_idx ? e->cap_idx * 2 : 256;
        uint32_t *n = realloc(e->idx, (size_t)cap * sizeof *n);
        if (!n) {
            e->oom = true;
            return;
        }
        e->idx = n;
        e->cap_idx = cap;
    }
    e->idx[e->nidx++] = (uint32_t)i;
}

/* a triangle given clockwise, stored in the requested winding */
static void tri(emitter *e, int a, int b, int c)
{
    put_index(e, a);
    put_index(e, e->cw ? b : c);
    put_index(e, e->cw ? c : b);
}

typedef struct {
    int start, dir, bad_k, repl;
} row;

static row plain_row(int start)
{
    return (row){start, 1, -1, 0};
}

static int at(const row *r, int k)
{
    return k == r->bad_k ? r->repl : r->start + r->dir * k;
}

/* ---- stitching two rows -------------------------------------------------------------------- */

typedef enum { DIAG_IN_TO_OUT, DIAG_IN_TO_OUT_EXCEPT_MIDDLE, DIAG_MIRRORED } diagonals;

static void stitch_regular(emitter *e, bool trapezoid, diagonals d, int n_in, const row *in,
                           const row *out)
{
    int i = 0, o = 0, p;
    if (trapezoid) {
        tri(e, at(out, o), at(out, o + 1), at(in, i));
        o++;
    }
    switch (d) {
    case DIAG_IN_TO_OUT:
        for (p = 0; p < n_in - 1; p++, i++, o++) {
            tri(e, at(in, i), at(out, o), at(out, o + 1));
            tri(e, at(in, i), at(out, o + 1), at(in, i + 1));
        }
        break;
    case DIAG_IN_TO_OUT_EXCEPT_MIDDLE:  /* odd rows: the middle quad's diagonal turns */
        for (p = 0; p < n_in / 2 - 1; p++, i++, o++) {
            tri(e, at(out, o), at(out, o + 1), at(in, i));
            tri(e, at(in, i), at(out, o + 1), at(in, i + 1));
        }
        tri(e, at(out, o), at(in, i + 1), at(in, i));
        tri(e, at(out, o), at(out, o + 1), at(in, i + 1));
        i++, o++, p += 2;
        for (; p < n_in; p++, i++, o++) {
            tri(e, at(out, o), at(out, o + 1), at(in, i));
            tri(e, at(in, i), at(out, o + 1), at(in, i + 1));
        }
        break;
    case DIAG_MIRRORED:
        for (p = 0; p < n_in / 2; p++, i++, o++) {
            tri(e, at(out, o), at(in, i + 1), at(in, i));
            tri(e, at(out, o), at(out, o + 1), at(in, i + 1));
        }
        for (; p < n_in - 1; p++, i++, o++) {
            tri(e, at(in, i), at(out, o), at(out, o + 1));
            tri(e, at(in, i), at(out, o + 1), at(in, i + 1));
        }
        break;
    }
    if (trapezoid)
        tri(e, at(out, o), at(out, o + 1), at(in, i));
}

/* Where point i of a half edge ends up at the highest level, in ruler-function split order:
 * the order in which points are inserted as the level grows. */
static const int k_ruler_position[33] = {0, 32, 16, 8, 17, 4, 18, 9, 19, 2, 20, 10, 21,
                                         5, 22, 11, 23, 1, 24, 12, 25, 6, 26, 13, 27, 3,
                                         28, 14, 29, 7, 30, 15, 31};

/* The first ring inside the outer edges: rows of different levels joined by advancing on
 * the inside or the outside as the ruler order says, mirrored about the middle. */
static void stitch_transition(emitter *e, const row *in, int in_half, bool in_odd,
                              const row *out, int out_half, bool out_odd)
{
    if (in_odd)
        in_half -= 1;
    if (out_odd)
        out_half -= 1;
    int i = 0, o = 0;
    if (k_ruler_position[0] < out_half) {
        tri(e, at(out, o), at(out, o + 1), at(in, i));
        o++;
    }
    for (int r = 1; r <= 32; r++) {
        if (k_ruler_position[r] < in_half) {
            tri(e, at(in, i), at(out, o), at(in, i + 1));
            i++;
        }
        if (k_ruler_position[r] < out_half) {
            tri(e, at(out, o), at(out, o + 1), at(in, i));
            o++;
        }
    }
    if (in_odd != out_odd || in_odd) {
        if (in_odd == out_odd) {  /* a quad in the middle */
            tri(e, at(in, i), at(out, o), at(in, i + 1));
            tri(e, at(in, i + 1), at(out, o), at(out, o + 1));
            i++, o++;
        } else if (!in_odd) {     /* a triangle pointing inside */
            tri(e, at(in, i), at(out, o), at(out, o + 1));
            o++;
        } else {                  /* a triangle pointing outside */
            tri(e, at(in, i), at(out, o), at(in, i + 1));
            i++;
        }
    }
    for (int r = 32; r >= 1; r--) {
        if (k_ruler_position[r] < out_half) {
            tri(e, at(out, o), at(out, o + 1), at(in, i));
            o++;
        }
        if (k_ruler_position[r] < in_half) {
            tri(e, at(in, i), at(out, o), at(in, i + 1));
            i++;
        }
    }
    if (k_ruler_position[0] < out_half)
        tri(e, at(out, o), at(out, o + 1), at(in, i));
}

/* ---- levels ------------------------------------------------------------------------------ */

static void bounds(tv_tess_spacing s, float *lo, float *hi)
{
    *lo = s == TV_TESS_FRACTIONAL_EVEN ? 2.0f : 1.0f;
    *hi = s == TV_TESS_FRACTIONAL_ODD ? 63.0f : 64.0f;
}

/* 1 + 2^-17: an odd level above it is above 1 once in fixed point */
#define ODD_ONE_PLUS_HALF_EPS (1.0f + 0.00000762939453125f)

typedef struct {
    int n_edges, n_axes;
    fxp outer[4], inner[2];
    bool outer_odd[4], inner_odd[2];
    tf_ctx outer_ctx[4], inner_ctx[2];
    int outer_points[4], inner_points[2];
    int inner_base;   /* first point of the first inner ring */
    int num_points;
    bool minimum;     /* every level is 1: the patch's corners only */
} levels;

/* Clamp, round and convert the levels; false when the patch is culled. */
static bool process_levels(levels *L, tv_tess_spacing s, int n_edges, int n_axes,
                           const float outer_in[4], const float inner_in[2])
{
    memset(L, 0, sizeof *L);
    L->n_edges = n_edges;
    L->n_axes = n_axes;
    for (int k = 0; k < n_edges; k++)
        if (!(outer_in[k] > 0))
            return false;
    bool integer = s == TV_TESS_EQUAL;
    float lo, hi;
    bounds(s, &lo, &hi);
    float outer[4], inner[2];
    for (int k = 0; k < n_edges; k++) {
        outer[k] = clamp_level(outer_in[k], lo, hi);
        if (integer)
            outer[k] = ceilf(outer[k]);
    }
    if (s == TV_TESS_FRACTIONAL_ODD) {
        /* any level above 1 forces inner levels above 1: a ring around the middle */
        bool frame = false;
        for (int k = 0; k < n_edges; k++)
            frame |= outer[k] > ODD_ONE_PLUS_HALF_EPS;
        if (n_axes == 2)  /* quads look at the inner levels too (before clamping) */
            for (int k = 0; k < 2; k++)
                frame |= inner_in[k] > ODD_ONE_PLUS_HALF_EPS;
        if (frame)
            lo = 1.0f + 0.0000152587890625f;
    }
    for (int k = 0; k < n_axes; k++) {
        inner[k] = clamp_level(inner_in[k], lo, hi);
        if (integer)
            inner[k] = ceilf(inner[k]);
    }
    bool odd_spacing = s == TV_TESS_FRACTIONAL_ODD;
    for (int k = 0; k < n_edges; k++) {
        L->outer_odd[k] = integer ? !is_even(outer[k]) : odd_spacing;
        L->outer[k] = fx_from_float(outer[k]);
    }
    for (int k = 0; k < n_axes; k++) {
        L->inner_odd[k] = integer ? !(is_even(inner[k]) || inner[k] == 1.0f) : odd_spacing;
        L->inner[k] = fx_from_float(inner[k]);
    }
    if (integer || odd_spacing) {
        bool all_one = true;
        for (int k = 0; k < n_edges; k++)
            all_one &= L->outer[k] == FX_ONE;
        for (int k = 0; k < n_axes; k++)
            all_one &= L->inner[k] == FX_ONE;
        if (all_one) {
            L->minimum = true;
            return true;
        }
    }
    for (int k = 0; k < n_edges; k++) {
        ctx_init(&L->outer_ctx[k], L->outer[k], L->outer_odd[k]);
        L->outer_points[k] = points_for_level(L->outer[k], L->outer_odd[k]);
        L->num_points += L->outer_points[k];
    }
    L->num_points -= n_edges;
    for (int k = 0; k < n_axes; k++) {
        ctx_init(&L->inner_ctx[k], L->inner[k], L->inner_odd[k]);
        int n = points_for_level(L->inner[k], L->inner_odd[k]);
        int min = L->inner_odd[k] ? 4 : 3;  /* degenerate transition rings at level 1 */
        L->inner_points[k] = n > min ? n : min;
    }
    L->inner_base = L->num_points;
    if (n_axes == 2) {
        L->num_points += (L->inner_points[0] - 2) * (L->inner_points[1] - 2);
    } else {
        int rings = (L->inner_points[0] >> 1) - 1;
        L->num_points += L->inner_odd[0] ? 3 * (rings * (rings + 1) - rings)
                                         : 3 * rings * (rings + 1) + 1;
    }
    return true;
}

/* ---- quads ---------------------------------------------------------------------------------- */

static void quad_points(emitter *e, const levels *L)
{
    for (int edge = 0; edge < 4; edge++) {  /* clockwise from (0, 1) */
        int end = L->outer_points[edge] - 1;
        for (int p = 0; p < end; p++) {
            int q = (edge == 1 || edge == 2) ? p : end - p;
            fxp t = place(&L->outer_ctx[edge], q);
            if (edge & 1)
                put_point(e, t, edge == 3 ? FX_ONE : 0);
            else
                put_point(e, edge == 2 ? FX_ONE : 0, t);
        }
    }
    const int nu = L->inner_points[0], nv = L->inner_points[1];
    int rings = (nu < nv ? nu : nv) >> 1;
    for (int ring = 1; ring < rings; ring++) {
        int end[2] = {nu - 1 - ring, nv - 1 - ring};
        for (int edge = 0; edge < 4; edge++) {
            int a0 = edge & 1, a1 = (edge + 1) & 1;
            fxp perp = place(&L->inner_ctx[a0], edge < 2 ? ring : end[a0]);
            for (int p = ring; p < end[a1]; p++) {
                int q = (edge == 1 || edge == 2) ? p : end[a1] - (p - ring);
                fxp t = place(&L->inner_ctx[a1], q);
                if (a1)
                    put_point(e, perp, t);
                else
                    put_point(e, t, perp);
            }
        }
    }
    /* even levels leave a row of points in the middle */
    if (nu > nv && !L->inner_odd[1]) {
        for (int p = rings; p <= nu - 1 - rings; p++)
            put_point(e, place(&L->inner_ctx[0], p), FX_HALF);
    } else if (nv >= nu && !L->inner_odd[0]) {
        for (int p = nv - 1 - rings; p >= rings; p--)
            put_point(e, FX_HALF, place(&L->inner_ctx[1], p));
    }
}

static void quad_connect(emitter *e, const levels *L)
{
    const int n[2] = {L->inner_points[0], L->inner_points[1]};
    int rows_to_center[2] = {(n[0] + 1) >> 1, (n[1] + 1) >> 1};
    int rings = rows_to_center[0] < rows_to_center[1] ? rows_to_center[0] : rows_to_center[1];
    /* the ring that is a row of points (even levels), per axis an edge runs along */
    int degenerate[2] = {!L->inner_odd[1] ? rows_to_center[1] - 1 : -1,
                         !L->inner_odd[0] ? rows_to_center[0] - 1 : -1};
    const tf_ctx *out_ctx[4];
    bool out_odd[4];
    int out_n[4];
    for (int k = 0; k < 4; k++) {
        out_ctx[k] = &L->outer_ctx[k];
        out_odd[k] = L->outer_odd[k];
        out_n[k] = L->outer_points[k];
    }
    int in_base = L->inner_base, out_base = 0;
    for (int ring = 1; ring < rings; ring++) {
        int in_n[2] = {n[0] - 2 * ring, n[1] - 2 * ring};
        int ring_in0 = in_base, ring_out0 = out_base;
        for (int edge = 0; edge < 4; edge++) {
            int ax = (edge + 1) & 1;
            row in = plain_row(in_base), out = plain_row(out_base);
            bool degen = ring == degenerate[ax];
            if (edge == 3) {  /* the ring closes on its first points */
                out = (row){out_base, 1, out_n[edge] - 1, ring_out0};
                if (degen)
                    in = (row){in_base, -1, -1, 0};
                else
                    in = (row){in_base, 1, in_n[ax] - 1, ring_in0};
            } else if (edge == 2 && degen) {
                in = (row){in_base, -1, -1, 0};  /* back along the middle row */
            }
            if (ring == 1)
                stitch_transition(e, &in, L->inner_ctx[ax].half_points, L->inner_odd[ax],
                                  &out, out_ctx[edge]->half_points, out_odd[edge]);
            else
                stitch_regular(e, true, DIAG_MIRRORED, in_n[ax], &in, &out);
            out_base += out_n[edge] - 1;
            in_base += (edge == 2 && degen) ? -(in_n[ax] - 1) : in_n[ax] - 1;
            out_n[edge] = in_n[ax];
        }
        if (ring == 1)
            for (int edge = 0; edge < 4; edge++) {
                out_ctx[edge] = &L->inner_ctx[edge & 1];
                out_odd[edge] = L->inner_odd[edge & 1];
            }
    }
    /* odd levels leave a strip of quads in the middle */
    if (n[0] > n[1] && L->inner_odd[1]) {
        int quads = (((n[0] >> 1) - (n[1] >> 1)) << 1) + (!L->inner_odd[0] ? 2 : 1);
        int b = out_base + quads + 2;
        row in = {b + quads, -1, 0, out_base}, out = plain_row(out_base + 1);
        stitch_regular(e, false, DIAG_IN_TO_OUT, quads + 1, &in, &out);
    } else if (n[1] >= n[0] && L->inner_odd[0]) {
        int quads = (((n[1] >> 1) - (n[0] >> 1)) << 1) + (!L->inner_odd[1] ? 2 : 1);
        int b = out_base + quads + 1;
        row in = {b + quads, -1, -1, 0}, out = plain_row(out_base);
        stitch_regular(e, false, !L->inner_odd[1] ? DIAG_IN_TO_OUT : DIAG_IN_TO_OUT_EXCEPT_MIDDLE,
                       quads + 1, &in, &out);
    }
}

/* ---- triangles ------------------------------------------------------------------------------ */

static void tri_points(emitter *e, const levels *L)
{
    for (int edge = 0; edge < 3; edge++) {  /* clockwise from V (the U == 0 edge) */
        int end = L->outer_points[edge] - 1;
        for (int p = 0; p < end; p++) {
            int q = (edge & 1) ? p : end - p;
            fxp t = place(&L->outer_ctx[edge], q);
            if (edge == 0)
                put_point(e, 0, t);
            else
                put_point(e, t, edge == 2 ? FX_ONE - t : 0);
        }
    }
    const tf_ctx *c = &L->inner_ctx[0];
    int n = L->inner_points[0];
    for (int ring = 1; ring < (n >> 1); ring++) {
        int end = n - 1 - ring;
        /* the ring's distance from the edge, in barycentric units */
        fxp perp = place(c, ring) * FX_TWO_THIRDS;
        perp = (perp + FX_HALF) >> 16;
        fxp shift = (perp + 1) / 2;
        for (int edge = 0; edge < 3; edge++)
            for (int p = ring; p < end; p++) {
                int q = (edge & 1) ? p : end - (p - ring);
                fxp t = place(c, q);
                if (edge == 0)
                    put_point(e, perp, t - shift);
                else if (edge == 1)
                    put_point(e, t - shift, perp);
                else
                    put_point(e, t - shift, FX_ONE - (t - shift) - perp);
            }
    }
    if (!L->inner_odd[0])
        put_point(e, FX_THIRD, FX_THIRD);  /* the middle */
}

static void tri_connect(emitter *e, const levels *L)
{
    int n = L->inner_points[0];
    int rings = (n + 1) >> 1;
    const tf_ctx *out_ctx[3];
    bool out_odd[3];
    int out_n[3];
    for (int k = 0; k < 3; k++) {
        out_ctx[k] = &L->outer_ctx[k];
        out_odd[k] = L->outer_odd[k];
        out_n[k] = L->outer_points[k];
    }
    int in_base = L->inner_base, out_base = 0;
    for (int ring = 1; ring < rings; ring++) {
        int in_n = n - 2 * ring;
        int ring_in0 = in_base, ring_out0 = out_base;
        for (int edge = 0; edge < 3; edge++) {
            row in = plain_row(in_base), out = plain_row(out_base);
            if (edge == 2) {
                in = (row){in_base, 1, in_n - 1, ring_in0};
                out = (row){out_base, 1, out_n[edge] - 1, ring_out0};
            }
            if (ring == 1)
                stitch_transition(e, &in, L->inner_ctx[0].half_points, L->inner_odd[0], &out,
                                  out_ctx[edge]->half_points, out_odd[edge]);
            else
                stitch_regular(e, true, DIAG_MIRRORED, in_n, &in, &out);
            out_base += out_n[edge] - 1;
            in_base += in_n - 1;
            out_n[edge] = in_n;
        }
        if (ring == 1)
            for (int edge = 0; edge < 3; edge++) {
                out_ctx[edge] = &L->inner_ctx[0];
                out_odd[edge] = L->inner_odd[0];
            }
    }
    if (L->inner_odd[0])
        tri(e, out_base, out_base + 1, out_base + 2);
}

/* ---- isolines ------------------------------------------------------------------------------ */

static bool isolines(emitter *e, tv_tess_spacing s, bool point_mode, const float outer[4])
{
    float density = outer[0], detail = outer[1];
    if (!(density > 0) || !(detail > 0))
        return true;
    float lo, hi;
    bounds(s, &lo, &hi);
    density = ceilf(clamp_level(density, 1.0f, 64.0f));
    detail = clamp_level(detail, lo, hi);
    bool detail_odd = s == TV_TESS_FRACTIONAL_ODD;
    if (s == TV_TESS_EQUAL) {
        detail = ceilf(detail);
        detail_odd = !is_even(detail);
    }
    tf_ctx cd, cl;
    fxp fd = fx_from_float(detail), fl = fx_from_float(density);
    ctx_init(&cd, fd, detail_odd);
    bool density_odd = !is_even(density);
    ctx_init(&cl, fl, density_odd);
    int per_line = points_for_level(fd, detail_odd);
    int lines = points_for_level(fl, density_odd) - 1;  /* no line at v = 1 */
    e->cap_pts = (uint32_t)(per_line * lines);
    e->pts = malloc((size_t)e->cap_pts * sizeof *e->pts + 1);
    if (!e->pts)
        return false;
    for (int l = 0; l < lines; l++)
        for (int p = 0; p < per_line; p++)
            put_point(e, place(&cd, p), place(&cl, l));
    for (int l = 0, k = 0; l < lines; l++)
        for (int p = 0; p < per_line; p++, k++) {
            if (point_mode) {
                put_index(e, k);
            } else if (p > 0) {
                put_index(e, k - 1);
                put_index(e, k);
            }
        }
    return !e->oom;
}

/* ---- entry --------------------------------------------------------------------------------- */

bool tv_tess_patch(tv_tess_domain domain, tv_tess_spacing spacing, bool cw, bool point_mode,
                   const float outer[4], const float inner[2], tv_tess_result *out)
{
    memset(out, 0, sizeof *out);
    emitter e;
    memset(&e, 0, sizeof e);
    /* the reference's clockwise (its point tables are written so) is GL's counter-clockwise */
    e.cw = !cw;
    bool ok = true;
    if (domain == TV_TESS_ISOLINES) {
        out->verts_per_prim = point_mode ? 1 : 2;
        ok = isolines(&e, spacing, point_mode, outer);
    } else {
        bool quads = domain == TV_TESS_QUADS;
        out->verts_per_prim = point_mode ? 1 : 3;
        levels L;
        if (!process_levels(&L, spacing, quads ? 4 : 3, quads ? 2 : 1, outer, inner))
            return true;  /* culled */
        e.cap_pts = L.minimum ? (quads ? 4 : 3) : (uint32_t)L.num_points;
        e.pts = malloc((size_t)e.cap_pts * sizeof *e.pts + 1);
        if (!e.pts)
            return false;
        if (L.minimum && quads) {
            put_point(&e, 0, 0);
            put_point(&e, FX_ONE, 0);
            put_point(&e, FX_ONE, FX_ONE);
            put_point(&e, 0, FX_ONE);
            if (!point_mode) {
                tri(&e, 0, 1, 3);
                tri(&e, 1, 2, 3);
            }
        } else if (L.minimum) {
            put_point(&e, 0, FX_ONE);
            put_point(&e, 0, 0);
            put_point(&e, FX_ONE, 0);
            if (!point_mode)
                tri(&e, 0, 1, 2);
        } else if (quads) {
            quad_points(&e, &L);
            if (!point_mode)
                quad_connect(&e, &L);
        } else {
            tri_points(&e, &L);
            if (!point_mode)
                tri_connect(&e, &L);
        }
        if (point_mode)
            for (uint32_t k = 0; k < e.npts; k++)
                put_index(&e, (int)k);
        ok = !e.oom;
    }
    if (!ok) {
        free(e.pts);
        free(e.idx);
        return false;
    }
    out->num_points = e.npts;
    out->points = e.pts;
    out->num_indices = e.nidx;
    out->indices = e.idx;
    return true;
}

void tv_tess_result_free(tv_tess_result *r)
{
    if (!r)
        return;
    free(r->points);
    free(r->indices);
    memset(r, 0, sizeof *r);
}
