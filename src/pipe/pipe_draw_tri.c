/* One triangle of a draw: its clip vertices from the shaded outputs, cull distances,
 * clipping, the perspective divide and viewport, facing and culling, then each triangle of
 * the clipped polygon's fan set up by the rasteriser and shaded by the fragment stage with
 * the rasteriser's coverage and the output merger as hooks. */
#include "pipe_draw.h"
#include "pipe_draw_tri_box.h"

#include "util/half.h"
#include "util/wide_vectors.h"

#include <math.h>
#include <stddef.h>
#include <string.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif


/* The clip vertex of SLOT: position, clip/cull distances, interpolated attributes (and the
 * back colours of two-sided lighting after them). */
void draw_clip_vertex(const draw_state *d, uint32_t inst, uint32_t slot, float *v)
{
    /* every float written once, zeros where nothing else goes: a clear of the whole
       vertex first (a loop of GCC's making into a memset call) was 1.5 % of the mesh
       scene, much of it the clipper's loads waiting for memset's stores */
    if (d->clip_clear)
        for (unsigned k = 0; k < d->stride; k++)
            v[k] = 0.0f;
    const uint32_t *pos = draw_vs_out(d, d->pos_out, inst, slot);
    for (int c = 0; c < 4; c++)
        v[CLIP_POS + c] = tv_bits_f32(pos[c]);
    for (unsigned i = 0; i < CLIP_MAX_DISTANCES; i++)
        v[CLIP_DIST + i] = 0.0f;
    if (d->clipdist_out[0] >= 0) {
        for (unsigned i = 0; i < d->num_clip + d->num_cull; i++) {
            int reg = d->clipdist_out[i / 4];
            v[CLIP_DIST + i] = reg >= 0 ? tv_bits_f32(draw_vs_out(d, reg, inst, slot)[i % 4]) : 0.0f;
        }
    } else if (d->ucp) {
        /* legacy user planes: against CLIPVERTEX, or the position */
        const uint32_t *cv = d->clipvertex_out >= 0 ? draw_vs_out(d, d->clipvertex_out, inst, slot)
                                                    : pos;
        for (unsigned i = 0; i < 8; i++) {
            const float *p = d->ctx->sub.ucp[i];
            v[CLIP_DIST + i] = p[0] * tv_bits_f32(cv[0]) + p[1] * tv_bits_f32(cv[1]) +
                               p[2] * tv_bits_f32(cv[2]) + p[3] * tv_bits_f32(cv[3]);
        }
    }
    if (d->psize_at)
        v[d->psize_at] = tv_bits_f32(draw_vs_out(d, d->psize_out, inst, slot)[0]);
    /* (links past frag_attrs are never used: the draw state starts zeroed) */
    for (unsigned r = 0; r < d->frag_attrs; r++) {
        const draw_link *l = &d->link[r];
        if (!l->used || l->flat)
            continue;
        float *dst = v + 4 + CLIP_MAX_DISTANCES + 4 * l->slot;
        const uint32_t *src = l->vs_out >= 0 ? draw_vs_out(d, l->vs_out, inst, slot) : NULL;
        for (int c = 0; c < 4; c++)
            dst[c] = src ? tv_bits_f32(src[c]) : 0.0f;
        if (d->twoside) {
            const uint32_t *bs =
                l->bcolor_out >= 0 ? draw_vs_out(d, l->bcolor_out, inst, slot) : NULL;
            float *b = v + 4 + CLIP_MAX_DISTANCES + 4 * (d->nslots + l->slot);
            for (int c = 0; c < 4; c++)
                b[c] = bs ? tv_bits_f32(bs[c]) : 0.0f;
        }
    }
}

/* Fragment-stage vertex K from clipped vertex V (window coordinates WIN). */
void draw_frag_vertex(const draw_state *d, const float *v, const float win[4],
                        const uint32_t flat[DRAW_MAX_VARYINGS][4], tv_vm_frag_vertex *out)
{
    out->x = win[0];
    out->y = win[1];
    out->z = win[2];
    out->w = 1.0f / win[3];
    for (unsigned r = 0; r < d->frag_attrs; r++) {
        const draw_link *l = &d->link[r];
        if (!l->used)
            continue;
        if (l->flat) {
            memcpy(out->attr[r], flat[r], 16);
            continue;
        }
        unsigned s = l->slot;
        if (!d->front && l->bcolor_out >= 0)
            s += d->nslots;
        memcpy(out->attr[r], v + 4 + CLIP_MAX_DISTANCES + 4 * s, 16);
    }
}

/* The samples of pixel (X, Y) the fragment shader runs for: the rasteriser's coverage,
 * polygon stipple, then the early depth/stencil tests when they apply. */
static uint32_t coverage_hook(void *user, int32_t x, int32_t y)
{
    draw_state *d = user;
    /* antialiased: every sample of a pixel the shape meets (its alpha takes the area) */
    uint32_t cov = d->aa.kind == DRAW_AA_NONE ? raster_coverage(&d->rt, x, y)
                   : draw_aa_coverage(d, x, y) > 0 ? ~0u : 0u;
    if (cov && d->cov_fill)
        cov = d->cov_fill;      /* multisample rasterisation off: the centre, every sample */
    if (d->stipple && !((d->ctx->sub.stipple[y & 31] >> (31 - (x & 31))) & 1u))
        return 0;
    if (d->lstip_on && !draw_line_stipple_keeps(d, x, y))
        return 0;
    return cov && d->zs_early != DRAW_ZS_LATE ? draw_om_early(d, x, y, cov) : cov;
}

/* The tests after the rasteriser's coverage COV of the lanes in INSIDE (x[l], y[l]): every
 * sample of a covered centre without multisample rasterisation, then the early
 * depth/stencil tests, of all lanes at once where draw_om_early_lanes serves. */
static void coverage_tests(draw_state *d, const int32_t x[32], const int32_t y[32],
                           uint32_t inside, uint32_t cov[32])
{
    if (d->cov_fill)
        for (unsigned l = 0; l < 32; l++)
            if (((inside >> l) & 1u) && cov[l])
                cov[l] = d->cov_fill;
    if (d->zs_early == DRAW_ZS_LATE || draw_om_early_lanes(d, x, y, inside, cov))
        return;
    for (unsigned l = 0; l < 32; l++)
        if (((inside >> l) & 1u) && cov[l])
            cov[l] = draw_om_early(d, x[l], y[l], cov[l]);
}

/* The same for the lanes of a tile: the rasteriser's coverage of every lane at once when
 * no antialiasing or stipple applies, then the early tests pixel by pixel. */
static void coverage_warp_hook(void *user, const int32_t x[32], const int32_t y[32],
                               uint32_t inside, uint32_t cov[32])
{
    draw_state *d = user;
    if (d->aa.kind != DRAW_AA_NONE || d->stipple || d->lstip_on) {
        for (unsigned l = 0; l < 32; l++)
            if ((inside >> l) & 1u)
                cov[l] = coverage_hook(d, x[l], y[l]);
        return;
    }
    raster_coverage_lanes(&d->rt, x, y, inside, cov);
    coverage_tests(d, x, y, inside, cov);
}

/* The quads of the engine's box that keep a sample after the rasteriser and the early
 * tests (coverage_quads of tv_vm_frag_params; set without antialiasing or stipple): the
 * rasteriser's whole box at once (raster_box_quads), then coverage_warp_hook's tests on
 * the covered lanes, eight quads at a time in row order. */
static int coverage_quads_hook(void *user, const int32_t box[4], int32_t *qx, int32_t *qy,
                               uint32_t *cov)
{
    draw_state *d = user;
    /* the quads are looked for where the triangle's samples can be (the hull box): the
       engine's box is the rasteriser's, whose bound over every sample position adds a
       pixel each side — for the mesh scene's triangles 4x4 quads where 2x3 or 2x4 hold
       them. The same quads come back, of the engine's box, with fewer lanes tested. */
    const int32_t hb[4] = {box[0] > d->rt.hx0 ? box[0] : d->rt.hx0,
                           box[1] > d->rt.hy0 ? box[1] : d->rt.hy0,
                           box[2] < d->rt.hx1 ? box[2] : d->rt.hx1,
                           box[3] < d->rt.hy1 ? box[3] : d->rt.hy1};
    if (hb[0] >= hb[2] || hb[1] >= hb[3])
        return 0;   /* no sample: no quad, no test */
    box = hb;
    int early;
    if (d->zs_early != DRAW_ZS_LATE && draw_om_early_box(d, box, qx, qy, cov, &early))
        return early;
    int32_t x[80], y[80];
    uint32_t c[80];
    uint64_t covered;
    const int n = raster_box_quads(&d->rt, box, d->avx512, x, y, c, &covered);
    if (n <= 0)
        return n;
    /* lanes past the quads: the first lane's pixel, uncovered */
    for (int l = 4 * n; l < (n > 8 ? 64 : 32); l++) {
        x[l] = x[0];
        y[l] = y[0];
        c[l] = 0;
    }
    for (int b = 0; 8 * b < n; b++)
        coverage_tests(d, x + 32 * b, y + 32 * b, (uint32_t)(covered >> (32 * b)), c + 32 * b);
    int out = 0;
    for (int i = 0; i < n; i++) {
        if (!(c[4 * i] | c[4 * i + 1] | c[4 * i + 2] | c[4 * i + 3]))
            continue;
        qx[out] = x[4 * i];
        qy[out] = y[4 * i];
        memcpy(&cov[4 * out], &c[4 * i], 4 * sizeof *cov);
        out++;
    }
    return out;
}

/* The columns of rows [y0, y1) the triangle's samples may cover (the engine skips the
 * tiles and quads beside it). */
static void row_span_hook(void *user, int32_t y0, int32_t y1, int32_t *x0, int32_t *x1)
{
    const draw_state *d = user;
    raster_row_span(&d->rt, y0, y1, x0, x1);
}

/* The columns of rows [y0, y1) whose every sample the triangle covers, where coverage_hook
 * answers the rasteriser's coverage as it is (set only then: no antialiasing, stipple or
 * early depth/stencil test; with multisample rasterisation off every sample of a covered
 * centre, which the one-sample rasteriser's inner columns are) */
static void row_inner_hook(void *user, int32_t y0, int32_t y1, int32_t *x0, int32_t *x1)
{
    const draw_state *d = user;
    raster_row_inner(&d->rt, y0, y1, x0, x1);
}

/* The slopes dz/dx, dz/dy of the window depth plane through A, B, C (0 when they are in
 * a line). */
static void depth_slopes(const float *a, const float *b, const float *c, double *zx,
                         double *zy)
{
    double x1 = b[0] - a[0], y1 = b[1] - a[1], z1 = b[2] - a[2];
    double x2 = c[0] - a[0], y2 = c[1] - a[1], z2 = c[2] - a[2];
    double det = x1 * y2 - x2 * y1;
    if (det == 0) {
        *zx = *zy = 0;
        return;
    }
#if defined(__x86_64__)
    /* both quotients in one division (every triangle: a second divsd was about 1 % of
       the mesh scene) */
    double q[2];
    _mm_storeu_pd(q, _mm_div_pd(_mm_set_pd(x1 * z2 - x2 * z1, z1 * y2 - z2 * y1),
                                _mm_set1_pd(det)));
    *zx = q[0];
    *zy = q[1];
#else
    *zx = (z1 * y2 - z2 * y1) / det;
    *zy = (x1 * z2 - x2 * z1) / det;
#endif
}

/* The polygon offset of triangle (A, B, C) (GL 4.6 §14.6.5: m·factor + r·units, clamped;
 * m the larger of its depth slopes, r the depth format's resolvable difference).
 *
 * For an n-bit fixed-point depth buffer r is 2 / (2^n - 1), two steps of the buffer. GL
 * leaves r implementation-defined there: "the smallest difference in window coordinate z
 * values that is guaranteed to remain distinct throughout polygon rasterization and in the
 * depth buffer". One step is not: window z reaches the rasteriser as a float (at z near 1
 * float's own step, 2^-24, is a D24 step) and is rounded to the buffer's steps, so two
 * planes one step apart can land on one value (piglit's gl-1.4-polygon-offset measures
 * texvm's smallest separable difference near the near plane as two steps). Gallium's
 * offset_units is GL's units unchanged (Mesa's state tracker copies glPolygonOffset's; virgl
 * has no offset_units_unscaled bit), and Gallium's own drivers scale it by two steps (the
 * draw module and llvmpipe: units * 2 * mrd, mrd = 1 / (2^n - 1)); virglrenderer hands it
 * to the host GL (llvmpipe's on this project's reference server). For float depth r is 2^(e - 23), e the
 * exponent of the largest depth of the primitive (GL's rule, exact). */
static float polygon_offset(const draw_state *d, const float *a, const float *b,
                            const float *c)
{
    const tv_pipe_rasterizer_state *r = &d->ctx->sub.rast;
    double zx, zy;
    depth_slopes(a, b, c, &zx, &zy);
    double m = fabs(zx) > fabs(zy) ? fabs(zx) : fabs(zy);
    double unit;
    if (d->has_zs && d->zs.depth_bits && !d->zs.depth_float) {
        unit = 2.0 / (double)((1ull << d->zs.depth_bits) - 1);
    } else {
        /* float depth: 2^(e - 23) for the largest exponent e of the triangle's depths */
        double zmax = fabs(a[2]);
        zmax = fabs(b[2]) > zmax ? fabs(b[2]) : zmax;
        zmax = fabs(c[2]) > zmax ? fabs(c[2]) : zmax;
        int e;
        frexp(zmax, &e);
        unit = ldexp(1.0, e - 1 - 23);
    }
    double off = m * r->offset_scale + unit * r->offset_units;
    if (r->offset_clamp > 0 && off > r->offset_clamp)
        off = r->offset_clamp;
    if (r->offset_clamp < 0 && off < r->offset_clamp)
        off = r->offset_clamp;
    return (float)off;
}

/* The window depth plane of triangle (A, B, C) and its offset: its own polygon offset when
 * enabled (filled polygons), else that of the polygon it was drawn for as lines or points
 * (d->mode_zoffset, 0 for other lines and points). */
static void depth_plane(draw_state *d, const float *a, const float *b, const float *c)
{
    d->zpx = a[0];
    d->zpy = a[1];
    d->z0 = a[2];
    depth_slopes(a, b, c, &d->zx, &d->zy);
    d->zoffset = d->offset_enable ? polygon_offset(d, a, b, c) : d->mode_zoffset;
}

static int run_prepared(draw_state *d, const float *win[3], uint32_t id);

/* The fragment stage's vertices FV into d->fp: the rows in use (the engine reads the
 * attributes of the shader's inputs only). */
static void set_frag_vertices(draw_state *d, const tv_vm_frag_vertex *fv[3])
{
    for (int k = 0; k < 3; k++) {
        tv_vm_frag_vertex *v = &d->fp.vertices[k];
        v->x = fv[k]->x;
        v->y = fv[k]->y;
        v->z = fv[k]->z;
        v->w = fv[k]->w;
        for (unsigned r = 0; r < d->frag_attrs; r++)   /* (fixed-size rows: inline moves) */
            memcpy(v->attr[r], fv[k]->attr[r], sizeof v->attr[r]);
    }
}

/* The fragments of the triangle set up in d->rt (FV its vertices, or NULL: they are in
 * d->fp): all of them, or in bands
 * (pipe_draw_bands.c) the rows of this worker's stripes, one run each; the run of the
 * stripe that holds the box's first row counts the primitive. */
static int run_fragments(draw_state *d, const tv_vm_frag_vertex *fv[3], const float *win[3],
                         uint32_t id)
{
    if (fv)
        set_frag_vertices(d, fv);
    if (!d->band_n)
        return run_prepared(d, win, id);
    /* (the runs change the box's rows alone: those are kept, not the whole set-up) */
    const int32_t y0 = d->rt.y0, y1 = d->rt.y1;
    const int32_t h = (int32_t)1 << d->band_shift, s0 = y0 >> d->band_shift,
                  s1 = (y1 - 1) >> d->band_shift;
    int rc = 0;
    for (int32_t s = (int32_t)draw_first_own_stripe(d, s0); s <= s1 && !rc;
         s += (int32_t)d->band_n) {
        d->rt.y0 = s * h > y0 ? s * h : y0;
        d->rt.y1 = (s + 1) * h < y1 ? (s + 1) * h : y1;
        d->band_counts = s == s0;
        d->band_stripe = (uint32_t)s;
        rc = run_prepared(d, win, id);
    }
    d->rt.y0 = y0;
    d->rt.y1 = y1;
    return rc;
}

/* raster_setup of d->rt under R, its AVX2 form where the machine has it. */
static bool setup_raster(draw_state *d, const raster_rules *r, const float x[3],
                         const float y[3])
{
#if defined(__GNUC__) && defined(__x86_64__)
    if (d->avx2)
        return raster_setup_avx2(&d->rt, r, x, y);
#endif
    return raster_setup(&d->rt, r, x, y);
}

int draw_shade_triangle(draw_state *d, const tv_vm_frag_vertex *fv[3],
                              const float *win[3], uint32_t id)
{
    float x[3] = {win[0][0], win[1][0], win[2][0]}, y[3] = {win[0][1], win[1][1], win[2][1]};
    if (!setup_raster(d, &d->rules, x, y))
        return 0;
    return run_fragments(d, fv, win, id);
}

int draw_run_fragments(draw_state *d, const tv_vm_frag_vertex *fv[3], const float *win[3],
                       uint32_t id)
{
    set_frag_vertices(d, fv);
    return run_prepared(d, win, id);
}

/* draw_run_fragments with the vertices already in d->fp. */
static int run_prepared(draw_state *d, const float *win[3], uint32_t id)
{
    if (!d->band_n || d->band_counts)
        d->stat[TV_PIPE_STAT_C_PRIMITIVES]++;  /* a triangle out of clipping, set up */
    d->ctx->tri_gen += d->gen_step;            /* no early tests made for it yet */
    d->tri_gen = d->ctx->tri_gen;
    depth_plane(d, win[0], win[1], win[2]);
    tv_vm_frag_params *const fp = &d->fp;
    /* the parameters but their 3 KiB of vertices (set_frag_vertices) and the primitive's
       own fields, made again only when what they are made of changed (the same for every
       triangle of a mesh: the clearing and the fields were a tenth of this function's
       instructions) */
    /* (the fields below are made from these alone, so the key is all they depend on) */
    const bool flatshade = d->ctx->sub.rast.flatshade,
               sample_shading = d->ctx->sub.min_samples > 1 && d->rules.samples > 1,
               plain = d->ctx->plain, aa_none = d->aa.kind == DRAW_AA_NONE,
               unstippled = !d->stipple && !d->lstip_on, late = d->zs_early == DRAW_ZS_LATE;
    const uint32_t made_of[] = {
        (uint32_t)d->width, (uint32_t)d->height, d->samples ? d->samples : 1,
        d->ctx->sub.sample_mask,
        (uint32_t)flatshade | (uint32_t)sample_shading << 1 | (uint32_t)plain << 2 |
            (uint32_t)aa_none << 3 | (uint32_t)unstippled << 4 | (uint32_t)late << 5 |
            1u << 6 /* (made) */};
    _Static_assert(sizeof made_of == sizeof d->fp_made_of, "draw_state.fp_made_of's size");
    if (memcmp(made_of, d->fp_made_of, sizeof made_of)) {
        memcpy(d->fp_made_of, made_of, sizeof made_of);
        size_t vstart = offsetof(tv_vm_frag_params, vertices);
        size_t vend = vstart + sizeof fp->vertices;
        memset(fp, 0, vstart);
        memset((uint8_t *)fp + vend, 0, sizeof *fp - vend);
        fp->width = made_of[0];
        fp->height = made_of[1];
        fp->samples = made_of[2];
        fp->prim = TV_VM_PRIM_TRIANGLE;
        fp->sample_mask = made_of[3];
        fp->flatshade = flatshade;
        fp->sample_shading = sample_shading;
        fp->coverage = coverage_hook;
        /* the per-pixel merger is the reference the plain interpreter runs with */
        if (plain) {
            fp->emit = draw_om_emit;
        } else {
            fp->coverage_warp = coverage_warp_hook;
            fp->emit_warp = draw_om_emit_warp;
            /* antialiased shapes cover beyond the triangle's samples (draw_aa_coverage) */
            if (aa_none) {
                fp->row_span = row_span_hook;
                if (unstippled)
                    fp->coverage_quads = coverage_quads_hook;
                if (unstippled && late)
                    fp->row_inner = row_inner_hook;
            }
        }
        fp->hook_user = d;
    }
    fp->front_face = d->front;
    fp->primitive_id = id;
    fp->scissor[0] = (uint32_t)d->rt.x0;
    fp->scissor[1] = (uint32_t)d->rt.y0;
    fp->scissor[2] = (uint32_t)d->rt.x1;
    fp->scissor[3] = (uint32_t)d->rt.y1;
    tv_error err;   /* read on failure only, which sets it (not cleared: 912 bytes) */
    err.code = TV_OK;
    err.message[0] = '\0';
    tv_vm_stats st;
    /* small triangles share warps when the merger needs nothing of the triangle (batch_ok:
       the hooks then read only the draw's state); antialiased shapes keep theirs */
    bool batch = d->batch_ok && d->aa.kind == DRAW_AA_NONE;
    if (!batch && draw_batch_flush(d))
        return -1;   /* (what a batch holds goes first) */
    if (batch && !d->batch) {
        d->batch = tv_vm_frag_batch_begin(d->ctx->vm, d->fs, &d->fsb, &err);
        if (!d->batch)
            return pipe_fail(d->ctx, "draw_vbo: fragment shader: %s", err.message);
        d->batch_r0 = INT32_MAX;
        d->batch_r1 = -1;
    }
    /* the engine's 8x4-pixel tiles the bounding box touches (per sample at most): a bound
     * on the run's warps, for the draw's work quota; in a batch one more, the warp that
     * holds the last quads (it runs at a later add or the flush, as this add's limits
     * allow at most) */
    uint64_t tiles = (uint64_t)((d->rt.x1 - 1) / 8 - d->rt.x0 / 8 + 1) *
                     (uint64_t)((d->rt.y1 - 1) / 4 - d->rt.y0 / 4 + 1) * fp->samples +
                     (batch ? 1 : 0);
    if (pipe_work_begin(d->ctx, "draw_vbo", tiles, d->work_left))
        return -1;
    /* rows of tiles on several workers when the hooks' per-pixel work is worth it: each
       pixel is still shaded and merged once, by one worker, so the bytes do not depend on
       how many there are */
    bool parallel = d->frag_parallel && d->ctx->threads > 1 && tiles >= 32 &&
                    (d->rt.y1 - 1) / 4 > d->rt.y0 / 4;
    if (parallel)
        tv_vm_set_thread_cap(d->ctx->vm, 0);
    tv_status vst = batch ? tv_vm_frag_batch_add(d->batch, fp, &st, &err)
                          : tv_vm_run_fragment(d->ctx->vm, d->fs, &d->fsb, fp, &st, &err);
    if (parallel)
        tv_vm_set_thread_cap(d->ctx->vm, 1);
    /* the samples that passed, per row (summed in row order; sums are exact) */
    int32_t r0 = d->rt.y0 > 0 ? d->rt.y0 / 4 : 0;
    int32_t r1 = (d->rt.y1 < d->height ? d->rt.y1 : d->height) - 1;
    for (int32_t r = r0; r1 >= 0 && r <= r1 / 4; r++) {
        d->samples_passed += d->ctx->rows[r].passed;
        d->ctx->rows[r].passed = 0;
    }
    if (batch && r1 >= 0) {
        /* the pending warp's lanes count in the rows of their own triangles */
        d->batch_r0 = r0 < d->batch_r0 ? r0 : d->batch_r0;
        d->batch_r1 = r1 / 4 > d->batch_r1 ? r1 / 4 : d->batch_r1;
    }
    if (vst != TV_OK)
        return pipe_fail(d->ctx, "draw_vbo: fragment shader: %s", err.message);
    pipe_work_end(d->ctx, &d->work_left, tiles, &st);
    d->fragments += st.invocations;
    return 0;
}

int draw_batch_flush(draw_state *d)
{
    if (!d->batch)
        return 0;
    tv_error err;   /* (as in draw_run_fragments) */
    err.code = TV_OK;
    err.message[0] = '\0';
    tv_vm_stats st;
    /* the pending lanes are batched triangles', which are never antialiased (batch in
       draw_run_fragments): merged as such, whatever shape set d->aa since — a smooth
       line or point flushes the batch with its own coverage already set up */
    const draw_aa aa = d->aa;
    d->aa.kind = DRAW_AA_NONE;
    tv_status vst = tv_vm_frag_batch_flush(d->batch, &st, &err);
    d->aa = aa;
    /* the rows the pending lanes counted in; with bands only this job's stripes (the
       others' rows are theirs to sum) */
    for (int32_t r = d->batch_r0; r <= d->batch_r1; r++) {
        if (d->band_n && draw_band_of(d, (uint32_t)(r * 4) >> d->band_shift) != d->band_k)
            continue;
        d->samples_passed += d->ctx->rows[r].passed;
        d->ctx->rows[r].passed = 0;
    }
    d->batch_r0 = INT32_MAX;
    d->batch_r1 = -1;
    if (vst != TV_OK)
        return pipe_fail(d->ctx, "draw_vbo: fragment shader: %s", err.message);
    pipe_work_end(d->ctx, &d->work_left, 0, &st);
    d->fragments += st.invocations;
    return 0;
}

void draw_batch_end(draw_state *d)
{
    tv_vm_frag_batch_end(d->batch);
    d->batch = NULL;
}

void draw_noperspective_scale(const draw_state *d, float *v, unsigned n, const float *orig,
                              unsigned norig)
{
    for (unsigned k = 0; k < n; k++) {
        float *vk = v + (size_t)k * d->stride;
        /* a vertex the clipper kept: its own values back, exactly */
        const float *same = NULL;
        for (unsigned j = 0; orig && j < norig && !same; j++)
            if (!memcmp(vk + CLIP_POS, orig + (size_t)j * d->stride + CLIP_POS, 16))
                same = orig + (size_t)j * d->stride;
        float w = vk[CLIP_POS + 3], f = orig ? 1.0f / w : w;
        for (unsigned r = 0; r < d->frag_attrs; r++) {
            const draw_link *l = &d->link[r];
            if (!l->used || l->flat || !l->noperspective)
                continue;
            unsigned at[2] = {4 + CLIP_MAX_DISTANCES + 4 * l->slot,
                              4 + CLIP_MAX_DISTANCES + 4 * (d->nslots + l->slot)};
            for (unsigned s = 0; s < (l->bcolor_out >= 0 ? 2u : 1u); s++)
                for (unsigned c = 0; c < 4; c++)
                    vk[at[s] + c] = same ? same[at[s] + c] : vk[at[s] + c] * f;
        }
    }
}

void draw_flat_values(const draw_state *d, uint32_t inst, uint32_t provoking, uint32_t id,
                      uint32_t flat[DRAW_MAX_VARYINGS][4])
{
    /* flat inputs: the provoking vertex's values (the primitive ID for PRIMID) */
    for (unsigned i = 0; i < d->frag_attrs; i++)   /* the rows anything reads */
        flat[i][0] = flat[i][1] = flat[i][2] = flat[i][3] = 0;
    for (unsigned i = 0; i < d->frag_attrs; i++) {
        const draw_link *l = &d->link[i];
        if (!l->used || !l->flat)
            continue;
        if (l->primid) {
            flat[i][0] = flat[i][1] = flat[i][2] = flat[i][3] = id;
            continue;
        }
        int reg = !d->front && l->bcolor_out >= 0 ? l->bcolor_out : l->vs_out;
        if (reg >= 0)
            memcpy(flat[i], draw_vs_out(d, reg, inst, provoking), 16);
    }
}

/* Bands: whether triangle T of instance INST may cover a row of this job's stripes (a
 * job owning none of its rows would set it up for nothing). */
static bool band_may_cover(const draw_state *d, uint32_t inst, const draw_tri *t)
{
    int32_t box[4];
    tri_box(d, inst, t, box, 1);
    return draw_band_rows_mine(d, box[1], box[3]);
}

/* A whole (unclipped) triangle of window positions WIN set up in d->rt without the clip
 * rectangle, which the caller applies (raster_clip) once the facing is known: the
 * rasteriser's snapped area decides the facing, as llvmpipe's does. false: no area. */
static bool setup_whole(draw_state *d, float (*win)[4])
{
    const float x[3] = {win[0][0], win[1][0], win[2][0]}, y[3] = {win[0][1], win[1][1], win[2][1]};
    raster_rules all = d->rules;
    all.clip[0] = all.clip[1] = INT32_MIN / 2;
    all.clip[2] = all.clip[3] = INT32_MAX / 2;
    return setup_raster(d, &all, x, y);
}

/* The facing of a polygon whose window-space area is negative where CCW (counter-clockwise
 * as seen in window space, y down: Gallium's front_ccw) into d->front and the polygon
 * offset's flag; whether the state culls that face. */
static bool culled(draw_state *d, bool ccw)
{
    const tv_pipe_rasterizer_state *r = &d->ctx->sub.rast;
    d->front = ccw == r->front_ccw;
    d->offset_enable = r->offset_tri;
    return (d->front && (r->cull_face & TV_PIPE_FACE_FRONT)) ||
           (!d->front && (r->cull_face & TV_PIPE_FACE_BACK));
}

/* draw_triangle for a triangle the guard band holds whole, under a state that needs
 * nothing else of the clip vertex (d->tri_direct): unclipped, its clip vertices would be
 * the vertex outputs as they are, so its fragment vertices are written from those
 * directly (three copies of each row fewer: the clip vertex, the fragment vertex, the
 * parameters'), with the set-up draw_triangle makes of a whole triangle. false: it needs
 * clipping, nothing done (draw_triangle's way). */
static bool direct_triangle(draw_state *d, uint32_t inst, const draw_tri *t, int *rc)
{
    float pos[12];   /* clip vertices of 4 floats: CLIP_POS 0, no distances to read */
    tri_positions(d, inst, t, pos);
    float win[3][4], w[3];
    const int planes = clip_triangle_window(&d->clip, &d->vp, pos, win, w);
    if (planes > 0)
        return false;
    *rc = 0;
    if (planes < 0)
        return true;
    if (!setup_whole(d, win) || culled(d, d->rt.ccw))
        return true;
    const tv_pipe_rasterizer_state *r = &d->ctx->sub.rast;
    uint32_t flat[DRAW_MAX_VARYINGS][4];
    if (d->direct_flat)
        draw_flat_values(d, inst, t->provoking, t->id, flat);
    /* draw_frag_vertex of draw_clip_vertex's vertex: a link's row is its flat value, its
       output's words, or zeros (d->direct, the used links' rows); rows of unused links
       are never read */
    tv_vm_frag_vertex *const fv = d->fp.vertices;
    for (int k = 0; k < 3; k++) {
        fv[k].x = win[k][0];
        fv[k].y = win[k][1];
        fv[k].z = win[k][2];
        fv[k].w = w[k];
    }
    /* row by row, the output's place computed once for the three vertices (per vertex and
       row, the stores into the vertices made the compiler load d's fields again) */
    const unsigned n = d->direct_n;
    for (unsigned j = 0; j < n; j++) {
        const draw_direct_row row = d->direct[j];
        if (row.kind == DRAW_ROW_OUTPUT) {
            const uint32_t *const out = draw_vs_out(d, row.vs_out, inst, 0);
            const uint64_t step = d->out_step[row.vs_out];
            const uint64_t at[3] = {t->v[0] * step, t->v[1] * step, t->v[2] * step};
            for (int k = 0; k < 3; k++)
                memcpy(fv[k].attr[row.attr], out + at[k], 16);
        } else {
            for (int k = 0; k < 3; k++) {
                if (row.kind == DRAW_ROW_FLAT)
                    memcpy(fv[k].attr[row.attr], flat[row.attr], 16);
                else
                    memset(fv[k].attr[row.attr], 0, 16);
            }
        }
    }
    d->stipple = r->poly_stipple_enable;       /* filled polygons only */
    const float *w3[3] = {win[0], win[1], win[2]};
    *rc = raster_clip(&d->rt, &d->rules) ? run_fragments(d, NULL, w3, t->id) : 0;
    d->stipple = false;
    return true;
}

int draw_triangle(draw_state *d, uint32_t inst, const draw_tri *t)
{
    if (d->band_n && !d->band_masked && !band_may_cover(d, inst, t))
        return 0;
    int rc;
    if (d->tri_direct && direct_triangle(d, inst, t, &rc))
        return rc;
    enum { MAXF = DRAW_MAX_CLIP_FLOATS };
    float in[3 * MAXF], poly[CLIP_MAX_VERTICES * MAXF], scratch[CLIP_MAX_VERTICES * MAXF];
    unsigned stride = d->stride;
    for (int k = 0; k < 3; k++)
        draw_clip_vertex(d, inst, t->v[k], in + k * stride);
    if (d->num_cull && clip_culled(in, 3, stride, d->num_clip, d->num_cull))
        return 0;
    int planes = clip_planes_needed(&d->clip, in, 3, stride);
    if (planes < 0)
        return 0;
    const float *verts = in;
    unsigned n = 3;
    if (planes > 0) {
        float orig[3 * MAXF];
        memcpy(orig, in, 3 * stride * sizeof *in);
        draw_noperspective_scale(d, in, 3, NULL, 0);
        n = clip_polygon(&d->clip, (unsigned)planes, in, 3, stride, poly, scratch);
        verts = poly;
        if (n < 3)
            return 0;
        draw_noperspective_scale(d, poly, n, orig, 3);
    }
    float win[CLIP_MAX_VERTICES][4];
    for (unsigned i = 0; i < n; i++)
        clip_to_window(&d->vp, verts + i * stride + CLIP_POS, win[i]);
    /* facing: the sign of the polygon's area; negative is counter-clockwise as seen in
     * window space, y down (Gallium's front_ccw) */
    double area = 0;
    for (unsigned i = 0; i < n && n != 3; i++) {
        const float *p = win[i], *q = win[i + 1 < n ? i + 1 : 0];
        area += (double)p[0] * q[1] - (double)q[0] * p[1];
    }
    if (n == 3) {
        if (!setup_whole(d, win))
            return 0;
        area = d->rt.ccw ? -1 : 1;
    }
    if (area == 0 || culled(d, area < 0))
        return 0;
    const tv_pipe_rasterizer_state *r = &d->ctx->sub.rast;
    uint32_t flat[DRAW_MAX_VARYINGS][4];
    draw_flat_values(d, inst, t->provoking, t->id, flat);
    /* polygon modes: the clipped polygon's edges as lines, or its vertices as points (of
     * the state's point size), with the polygon's facing */
    uint8_t mode = d->front ? r->fill_front : r->fill_back;
    if (mode != TV_PIPE_POLYGON_FILL) {
        bool front = d->front;
        rc = 0;
        /* POLYGON_OFFSET_LINE / _POINT: the polygon's offset, from its own depth slope,
         * on every fragment of its edges or vertices (GL 4.6 §14.6.5) */
        bool offset = mode == TV_PIPE_POLYGON_LINE ? r->offset_line : r->offset_point;
        d->mode_zoffset = offset ? polygon_offset(d, win[0], win[1], win[2]) : 0.0f;
        for (unsigned i = 0; i < n && !rc; i++) {
            unsigned j = (i + 1) % n;
            /* the point size of the state, or the vertex's (PROGRAM_POINT_SIZE) */
            float size = draw_clamp_point_size(d->psize_at ? verts[i * stride + d->psize_at]
                                                           : r->point_size);
            d->lstip_count = 0;        /* each edge restarts the line stipple */
            rc = mode == TV_PIPE_POLYGON_LINE
                     ? draw_window_line(d, verts + i * stride, win[i], verts + j * stride,
                                        win[j], (const uint32_t(*)[4])flat, t->id, front)
                     : draw_window_point(d, verts + i * stride, win[i], size,
                                         (const uint32_t(*)[4])flat, t->id, front);
        }
        d->mode_zoffset = 0.0f;
        return rc;
    }
    tv_vm_frag_vertex fv0, fvi, fvj;
    draw_frag_vertex(d, verts, win[0], (const uint32_t(*)[4])flat, &fv0);
    rc = 0;
    d->stipple = r->poly_stipple_enable;       /* filled polygons only */
    for (unsigned i = 1; i + 1 < n && !rc; i++) {
        draw_frag_vertex(d, verts + i * stride, win[i], (const uint32_t(*)[4])flat, &fvi);
        draw_frag_vertex(d, verts + (i + 1) * stride, win[i + 1], (const uint32_t(*)[4])flat, &fvj);
        const tv_vm_frag_vertex *fv[3] = {&fv0, &fvi, &fvj};
        const float *w3[3] = {win[0], win[i], win[i + 1]};
        if (draw_aa_active(d, r->poly_smooth)) {
            /* antialiased: every pixel the triangle meets, alpha times the area */
            d->aa = (draw_aa){DRAW_AA_POLYGON, 0, 0, 0, {w3[0][0], w3[1][0], w3[2][0], 0},
                              {w3[0][1], w3[1][1], w3[2][1], 0}, 3};
            rc = draw_shade_aa(d, fv, w3, t->id);
            d->aa.kind = DRAW_AA_NONE;
            continue;
        }
        if (n == 3) {
            /* the one triangle was set up above, without the clip rectangle: clip it */
            rc = raster_clip(&d->rt, &d->rules) ? run_fragments(d, fv, w3, t->id) : 0;
            continue;
        }
        rc = draw_shade_triangle(d, fv, w3, t->id);
    }
    d->stipple = false;
    return rc;
}
