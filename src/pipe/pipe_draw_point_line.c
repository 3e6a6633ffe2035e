/* Points and lines of a draw: each becomes window-space triangles that the triangle
 * rasteriser covers with its fill rule — a point a square of the point size around its
 * centre (GL's aliased points; the centre clipped against the view volume and the clip
 * distances), a line a parallelogram one line width across in the minor axis (GL 4.6
 * §14.5.2.2's wide-line rule, used for every width; lines are clipped to the view volume
 * first, without the triangles' guard band). The two
 * triangles of a quad split their shared diagonal exactly. Points and lines are
 * front-facing; polygon offset does not apply to them (to polygons drawn as lines or
 * points their polygon's does: d->mode_zoffset). docs/pipeline-stages.md §Points and
 * lines. */
#include "pipe_draw.h"

#include "util/half.h"

#include <math.h>
#include <string.h>

enum { MAXF = DRAW_MAX_CLIP_FLOATS };


/* Shade the quad of window corners C (0 and 1 one end or side, 2 and 3 the other, as
 * triangles (0, 1, 2) and (2, 1, 3)) with fragment vertices FV. */
static int shade_quad(draw_state *d, float c[4][4], tv_vm_frag_vertex fv[4], uint32_t id,
                      bool front)
{
    const tv_vm_frag_vertex *t0[3] = {&fv[0], &fv[1], &fv[2]}, *t1[3] = {&fv[2], &fv[1], &fv[3]};
    const float *w0[3] = {c[0], c[1], c[2]}, *w1[3] = {c[2], c[1], c[3]};
    d->front = front;
    d->offset_enable = false;
    if (d->aa.kind != DRAW_AA_NONE) {
        /* antialiased: one run over the exact shape; the quad's attributes are one plane,
         * which its first triangle gives */
        int rc = draw_shade_aa(d, t0, w0, id);
        d->aa.kind = DRAW_AA_NONE;
        return rc;
    }
    int rc = draw_shade_triangle(d, t0, w0, id);
    return rc ? rc : draw_shade_triangle(d, t1, w1, id);
}

float draw_point_size(const draw_state *d, uint32_t inst, uint32_t slot)
{
    const tv_pipe_rasterizer_state *r = &d->ctx->sub.rast;
    float size = r->point_size;
    if (r->point_size_per_vertex && d->psize_out >= 0)
        size = tv_bits_f32(draw_vs_out(d, d->psize_out, inst, slot)[0]);
    return draw_clamp_point_size(size);
}

float draw_clamp_point_size(float size)
{
    /* GL clamps to the aliased range the caps claim, [1, 255] */
    return !(size >= 1.0f) ? 1.0f : size > 255.0f ? 255.0f : size;
}

int draw_point(draw_state *d, uint32_t inst, const draw_tri *t)
{
    float v[MAXF];
    draw_clip_vertex(d, inst, t->v[0], v);
    clip_state volume = d->clip;           /* the centre against the view volume itself */
    volume.guard_x = volume.guard_y = 1.0f;
    if (clip_outcode(&volume, v))
        return 0;
    if (d->num_cull && clip_culled(v, 1, d->stride, d->num_clip, d->num_cull))
        return 0;
    float size = draw_point_size(d, inst, t->v[0]);
    float win[4];
    clip_to_window(&d->vp, v + CLIP_POS, win);
    uint32_t flat[DRAW_MAX_VARYINGS][4];
    d->front = true;
    draw_flat_values(d, inst, t->v[0], t->id, flat);
    return draw_window_point(d, v, win, size, (const uint32_t(*)[4])flat, t->id, true);
}

int draw_window_point(draw_state *d, const float *v, const float *win, float size,
                      const uint32_t flat[DRAW_MAX_VARYINGS][4], uint32_t id, bool front)
{
    const tv_pipe_rasterizer_state *r = &d->ctx->sub.rast;
    float h = size / 2, c[4][4];
    for (int k = 0; k < 4; k++) {
        c[k][0] = win[0] + ((k & 1) ? h : -h);
        c[k][1] = win[1] + ((k & 2) ? h : -h);
        c[k][2] = win[2];
        c[k][3] = win[3];
    }
    tv_vm_frag_vertex fv[4];
    for (int k = 0; k < 4; k++) {
        draw_frag_vertex(d, v, c[k], flat, &fv[k]);
        /* sprite coordinates: s left to right, t from the top (or the bottom) */
        float s = (k & 1) ? 1.0f : 0.0f, tt = (k & 2) ? 1.0f : 0.0f;
        if (r->sprite_coord_mode)
            tt = 1.0f - tt;
        const float sc[4] = {s, tt, 0.0f, 1.0f};
        for (unsigned i = 0; i < DRAW_MAX_VARYINGS; i++)
            if (d->link[i].used && d->link[i].sprite)
                memcpy(fv[k].attr[i], sc, 16);
    }
    if (draw_aa_active(d, r->point_smooth && !r->point_quad_rasterization))
        d->aa = (draw_aa){DRAW_AA_CIRCLE, win[0], win[1], size / 2.0, {0}, {0}, 0};
    return shade_quad(d, c, fv, id, front);
}

int draw_line(draw_state *d, uint32_t inst, const draw_tri *t)
{
    float in[2 * MAXF], out[2 * MAXF];
    unsigned stride = d->stride;
    draw_clip_vertex(d, inst, t->v[0], in);
    draw_clip_vertex(d, inst, t->v[1], in + stride);
    if (d->num_cull && clip_culled(in, 2, stride, d->num_clip, d->num_cull))
        return 0;
    /* clipped to the view volume itself (GL 4.6 §13.7): its ends stay inside the
       viewport, which the guard band would not keep them in; the width still reaches
       past it */
    clip_state volume = d->clip;
    volume.guard_x = volume.guard_y = 1.0f;
    int planes = clip_planes_needed(&volume, in, 2, stride);
    if (planes < 0)
        return 0;
    const float *verts = in;
    if (planes > 0) {
        float orig[2 * MAXF];
        memcpy(orig, in, 2 * stride * sizeof *in);
        draw_noperspective_scale(d, in, 2, NULL, 0);
        if (clip_line(&volume, (unsigned)planes, in, stride, out) < 2)
            return 0;
        verts = out;
        draw_noperspective_scale(d, out, 2, orig, 2);
    }
    float p0[4], p1[4];
    clip_to_window(&d->vp, verts + CLIP_POS, p0);
    clip_to_window(&d->vp, verts + stride + CLIP_POS, p1);
    uint32_t flat[DRAW_MAX_VARYINGS][4];
    d->front = true;
    draw_flat_values(d, inst, t->provoking, t->id, flat);
    if (t->first)
        d->lstip_count = 0;                 /* line stipple: a new strip starts counting */
    return draw_window_line(d, verts, p0, verts + stride, p1, (const uint32_t(*)[4])flat, t->id,
                            true);
}

int draw_window_line(draw_state *d, const float *v0, const float *p0, const float *v1,
                     const float *p1, const uint32_t flat[DRAW_MAX_VARYINGS][4], uint32_t id,
                     bool front)
{
    /* a line with an end not finite or past the guard band covers nothing, as such a
       triangle does (raster_setup); it also keeps the stipple arithmetic in range */
    for (int k = 0; k < 2; k++)
        if (!(fabsf(p0[k]) <= RASTER_MAX_COORD) || !(fabsf(p1[k]) <= RASTER_MAX_COORD))
            return 0;
    float dx = p1[0] - p0[0], dy = p1[1] - p0[1];
    if (dx == 0.0f && dy == 0.0f)
        return 0;                           /* a zero-length line covers nothing */
    float w = d->ctx->sub.rast.line_width;
    w = !(w >= 1.0f) ? 1.0f : w > 255.0f ? 255.0f : w;
    /* the minor axis takes the width: x-major lines grow in y, y-major ones in x */
    bool xmajor = fabsf(dx) >= fabsf(dy);
    float ox = xmajor ? 0.0f : w / 2, oy = xmajor ? w / 2 : 0.0f;
    float c[4][4];
    const float *end[4] = {p0, p0, p1, p1};
    for (int k = 0; k < 4; k++) {
        float sgn = (k & 1) ? -1.0f : 1.0f;
        c[k][0] = end[k][0] + sgn * ox;
        c[k][1] = end[k][1] + sgn * oy;
        c[k][2] = end[k][2];
        c[k][3] = end[k][3];
    }
    tv_vm_frag_vertex fv[4];
    for (int k = 0; k < 4; k++)
        draw_frag_vertex(d, k < 2 ? v0 : v1, c[k], flat, &fv[k]);
    /* line stipple (GL 4.6 compatibility §14.5.2.1): the fragments of the line along its
     * major axis are numbered from its start (every fragment of a column of a wide line
     * shares the number); the counter runs on through a strip */
    float a0 = xmajor ? p0[0] : p0[1], a1 = xmajor ? p1[0] : p1[1];
    int32_t f0 = (int32_t)ceilf(a0 - 0.5f), f1 = (int32_t)ceilf(a1 - 0.5f);
    d->lstip_on = d->ctx->sub.rast.line_stipple_enable;
    d->lstip_ymajor = !xmajor;
    d->lstip_dir = a1 >= a0 ? 1 : -1;
    d->lstip_first = a1 >= a0 ? f0 : f0 - 1;  /* the first pixel whose centre it passes */
    if (draw_aa_active(d, d->ctx->sub.rast.line_smooth)) {
        /* the rectangle of the line's width and length centred on it */
        double len = sqrt((double)dx * dx + (double)dy * dy);
        double nxh = -dy / len * w / 2, nyh = dx / len * w / 2;
        d->aa = (draw_aa){DRAW_AA_POLYGON, 0, 0, 0,
                          {p0[0] + nxh, p1[0] + nxh, p1[0] - nxh, p0[0] - nxh},
                          {p0[1] + nyh, p1[1] + nyh, p1[1] - nyh, p0[1] - nyh}, 4};
    }
    int rc = shade_quad(d, c, fv, id, front);
    d->lstip_on = false;
    d->lstip_count += (uint32_t)(a1 >= a0 ? f1 - f0 : f0 - f1);
    return rc;
}

bool draw_line_stipple_keeps(const draw_state *d, int32_t x, int32_t y)
{
    const tv_pipe_rasterizer_state *r = &d->ctx->sub.rast;
    int64_t i = ((int64_t)(d->lstip_ymajor ? y : x) - d->lstip_first) * d->lstip_dir;
    uint64_t s = d->lstip_count + (uint64_t)(i > 0 ? i : 0);   /* edge ties: fragment 0 */
    unsigned bit = (unsigned)((s / ((uint64_t)r->line_stipple_factor + 1)) % 16);
    return (r->line_stipple_pattern >> bit) & 1u;
}
