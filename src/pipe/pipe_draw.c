/* draw_vbo (issue 16): checks the state, binds the framebuffer, assembles the draw's
 * triangles, fetches and shades each distinct vertex once per instance (a post-transform
 * cache for indexed draws: pipe_draw_vertex.c), links vertex outputs to fragment inputs, and hands each
 * triangle to pipe_draw_tri.c. Nothing is written before every check has passed. */
#include "util/cpu_isa.h"
#include "pipe_draw.h"
#include "pipe_prim.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define OP "draw_vbo"
/* Stages that draws do not run yet (Gallium's numbering: 3 and 4). */

/* ---- the framebuffer ------------------------------------------------------------------ */

static int surface_view(draw_state *d, uint32_t handle, const char *what, uint8_t **base,
                        size_t *stride, size_t *layer_stride, tv_format *format)
{
    tv_pipe_ctx *ctx = d->ctx;
    pipe_object *s = pipe_object_find(ctx, TV_PIPE_OBJ_SURFACE, handle);
    if (!s)
        return pipe_fail(ctx, OP ": %s surface %u was destroyed", what, handle);
    pipe_resource *r = pipe_surface_resource(ctx, s, handle, OP);
    if (!r)
        return -1;
    if (r->desc.target == 0)
        return pipe_fail(ctx, OP ": %s surface %u: buffer render targets are not drawn to yet",
                         what, handle);
    if (d->samples && r->samples != d->samples)
        return pipe_fail(ctx, OP ": %s surface %u has %u samples, another attachment %u", what,
                         handle, r->samples, d->samples);
    d->samples = r->samples;
    if (s->level > r->desc.last_level || s->first_layer >= r->ld[s->level])
        return pipe_fail(ctx, OP ": %s surface %u outside resource %u", what, handle, s->res);
    *format = pipe_format_lookup(s->format);
    const tv_format_info *fi = *format == TV_FORMAT_NONE ? NULL : tv_format_get(*format);
    if (!fi || fi->block_bytes != r->bytes || r->bw != 1)
        return pipe_fail(ctx, OP ": %s surface %u: format %u does not view resource %u", what,
                         handle, s->format, s->res);
    *base = r->data + r->level_offset[s->level] + r->layer_stride[s->level] * s->first_layer;
    *stride = r->stride[s->level];
    *layer_stride = r->layer_stride[s->level];
    /* layered rendering: the surface's layers (array layers or 3D slices) */
    uint32_t last = s->last_layer < r->ld[s->level] ? s->last_layer : r->ld[s->level] - 1;
    uint32_t layers = last >= s->first_layer ? last - s->first_layer + 1 : 1;
    d->layers = d->layers && d->layers < layers ? d->layers : layers;
    int32_t w = (int32_t)r->lw[s->level], h = (int32_t)r->lh[s->level];
    d->width = d->width < 0 || w < d->width ? w : d->width;
    d->height = d->height < 0 || h < d->height ? h : d->height;
    return 0;
}

static int bind_framebuffer(draw_state *d)
{
    tv_pipe_ctx *ctx = d->ctx;
    d->width = d->height = -1;
    d->avx512 = !ctx->no_wide_kernels && tv_cpu_avx512f();
    d->avx2 = !ctx->no_wide_kernels && tv_cpu_avx2();
    d->nr_cbufs = ctx->sub.nr_cbufs;
    for (unsigned i = 0; i < ctx->sub.nr_cbufs; i++) {
        if (!ctx->sub.cbufs[i])
            continue;
        tv_format f;
        if (surface_view(d, ctx->sub.cbufs[i], "colour", &d->cb[i].base, &d->cb[i].stride,
                         &d->cb[i].layer_stride, &f))
            return -1;
        if (!om_target_init(&d->cb[i].t, f))
            return pipe_fail(ctx, OP ": colour buffer %u: format %s cannot be rendered to", i,
                             tv_format_get(f)->name);
        const tv_pipe_blend_state *b = &ctx->sub.blend;
        om_tile_blend_init(&d->cb[i].tile, &b->rt[b->independent_blend_enable ? i : 0],
                           &d->cb[i].t);
        d->cb_bound[i] = true;
    }
    if (ctx->sub.zsbuf) {
        tv_format f;
        if (surface_view(d, ctx->sub.zsbuf, "depth/stencil", &d->zbase, &d->zstride,
                         &d->zlayer_stride, &f))
            return -1;
        if (!om_zs_target_init(&d->zs, f))
            return pipe_fail(ctx, OP ": depth/stencil buffer: format %s is not a depth or "
                             "stencil format", tv_format_get(f)->name);
        d->has_zs = true;
    }
    if (d->width < 0 && ctx->sub.noatt_w) {
        /* no attachments: the area set_framebuffer_no_attach gave; nothing is written but
         * what the fragment shader stores, and queries count */
        d->width = (int32_t)ctx->sub.noatt_w;
        d->height = (int32_t)ctx->sub.noatt_h;
        d->layers = ctx->sub.noatt_layers;
        d->samples = ctx->sub.noatt_samples;
    }
    if (d->width < 0)
        return pipe_fail(ctx, OP ": the framebuffer has no attachment (and no size without "
                         "attachments: set_framebuffer_state_no_attach)");
    return 0;
}

/* ---- shaders and their linkage --------------------------------------------------------- */

static int bound_program(draw_state *d, unsigned stage, tv_tgsi_processor want,
                         tv_vm_program **out)
{
    tv_pipe_ctx *ctx = d->ctx;
    static const char *const procs[] = {"VERT", "FRAG", "GEOM", "TESS_CTRL", "TESS_EVAL"};
    pipe_object *o = ctx->sub.shader[stage] ? pipe_object_find(ctx, TV_PIPE_OBJ_SHADER,
                                                           ctx->sub.shader[stage]) : NULL;
    if (!o)
        return pipe_fail(ctx, OP ": no %s shader bound%s", pipe_stage_name(stage),
                         ctx->sub.shader[stage] ? " (it was destroyed)" : "");
    if (pipe_shader_program(ctx, o, OP))
        return -1;
    if (tv_vm_program_processor(o->prog) != want)
        return pipe_fail(ctx, OP ": shader %u bound as the %s shader is not a %s program",
                         o->handle, pipe_stage_name(stage), procs[stage]);
    *out = o->prog;
    /* a shader that samples gets the stage's views and samplers as a texture unit */
    return pipe_textures_for(ctx, stage, OP, o->prog, &d->tex[stage]);
}

uint32_t draw_prop(const tv_tgsi_program *p, unsigned name)
{
    for (uint32_t i = 0; i < p->num_props; i++)
        if (p->props[i].name == name)
            return p->props[i].value;
    return 0;
}

static int output_reg_exact(const tv_tgsi_program *vs, unsigned sem, uint32_t index)
{
    for (uint32_t i = 0; i < vs->num_decls; i++) {
        const tv_tgsi_declaration *dc = &vs->decls[i];
        if (dc->file != TV_FILE_OUT || !dc->has_semantic || dc->semantic != sem)
            continue;
        for (int32_t r = dc->first; r <= dc->last; r++)
            if (dc->semantic_index + (uint32_t)(r - dc->first) == index)
                return r < TV_VM_MAX_ATTRIBS ? r : -1;
    }
    return -1;
}

/* Mesa's virgl driver declares the vertex stages' GENERIC[32 + n] outputs as PATCH[n]
 * (virglrenderer's convention; the fragment shader still reads GENERIC[32 + n]), so the
 * two name the same varying outside tessellation. */
int draw_output_reg(const tv_tgsi_program *vs, unsigned sem, uint32_t index)
{
    int r = output_reg_exact(vs, sem, index);
    if (r < 0 && sem == TV_SEM_GENERIC && index >= 32)
        r = output_reg_exact(vs, TV_SEM_PATCH, index - 32);
    else if (r < 0 && sem == TV_SEM_PATCH)
        r = output_reg_exact(vs, TV_SEM_GENERIC, index + 32);
    return r;
}

/* The per-row state of the fragment hooks (draw_row) for every row of tiles of the
 * framebuffer, kept in the context across draws. */
static int reserve_rows(draw_state *d)
{
    tv_pipe_ctx *ctx = d->ctx;
    uint32_t need = ((uint32_t)(d->height > 0 ? d->height : 1) + 3) / 4;
    if (need <= ctx->nrows)
        return 0;
    draw_row *rows = realloc(ctx->rows, need * sizeof *rows);
    if (!rows)
        return pipe_fail(ctx, OP ": out of memory");
    memset(rows + ctx->nrows, 0, (need - ctx->nrows) * sizeof *rows);
    ctx->rows = rows;
    ctx->nrows = need;
    return 0;
}

bool draw_touches_memory(const tv_vm_program *p)
{
    const tv_tgsi_program *src = tv_vm_program_source(p);
    for (uint32_t i = 0; i < src->num_insns; i++) {
        const tv_tgsi_opinfo *oi = tv_tgsi_opinfo_get(src->insns[i].opcode);
        if (!oi || (oi->flags & (TV_OPF_STORE | TV_OPF_MEMQ)))
            return true;
    }
    return false;
}

bool draw_written_by_framebuffer(const draw_state *d, const void *data, uint64_t size)
{
    const uint8_t *lo = data, *hi = lo + size;
    for (unsigned i = 0; i < d->nr_cbufs; i++)
        if (d->cb_bound[i] && d->cb[i].base >= lo && d->cb[i].base < hi)
            return true;
    return d->has_zs && d->zbase >= lo && d->zbase < hi;
}

/* Whether the fragment runs of this draw may use several workers: the shader touches no
 * memory, and no texture it samples is a resource the framebuffer writes (a feedback loop
 * reads other rows). */
static bool fragment_parallel(const draw_state *d)
{
    if (draw_touches_memory(d->fs))
        return false;
    for (unsigned v = 0; v < TV_PIPE_MAX_SAMPLERS; v++) {
        uint32_t res = d->ctx->sub.views[TV_PIPE_STAGE_FRAGMENT][v].res;
        const pipe_resource *r = res ? pipe_resource_find(d->ctx, res) : NULL;
        if (r && draw_written_by_framebuffer(d, r->data, r->size))
            return false;
    }
    return true;
}

/* Whether the output merger's per-lane work needs nothing of the triangle a lane came
 * from, so that fragments of several triangles may be merged in one call
 * (draw_om_emit_warp, draw_om_emit): no layer per primitive (the target's layer), and no
 * late depth or stencil test (the triangle's depth plane, its facing for stencil).
 * Antialiasing, which scales by the shape's coverage, is decided per triangle. */
static bool batch_merger_ok(const draw_state *d)
{
    const tv_pipe_dsa_state *s = &d->ctx->sub.dsa;
    bool late_zs = d->zs_early == DRAW_ZS_LATE && d->has_zs &&
                   (s->depth_enabled || s->stencil[0].enabled);
    return d->layer_out < 0 && !late_zs;
}

/* The last vertex stage's program (GS, TES or VS, the last bound): its outputs feed the
 * rasteriser, stream output and the fragment shader. */
static const tv_tgsi_program *last_vertex_stage(const draw_state *d)
{
    return tv_vm_program_source(d->gs ? d->gs : d->tes ? d->tes : d->vs);
}

/* The last vertex stage's outputs to the fragment shader's inputs. */
static int link_shaders(draw_state *d)
{
    const tv_tgsi_program *vs = last_vertex_stage(d);
    const tv_tgsi_program *fs = tv_vm_program_source(d->fs);
    d->pos_out = draw_output_reg(vs, TV_SEM_POSITION, 0);   /* (pipe_draw: there is one) */
    d->vp_out = draw_output_reg(vs, TV_SEM_VIEWPORT_INDEX, 0);
    d->layer_out = draw_output_reg(vs, TV_SEM_LAYER, 0);
    d->clipvertex_out = draw_output_reg(vs, TV_SEM_CLIPVERTEX, 0);
    d->psize_out = draw_output_reg(vs, TV_SEM_PSIZE, 0);
    d->clipdist_out[0] = draw_output_reg(vs, TV_SEM_CLIPDIST, 0);
    d->clipdist_out[1] = draw_output_reg(vs, TV_SEM_CLIPDIST, 1);
    d->num_clip = draw_prop(vs, TV_PROP_NUM_CLIPDIST_ENABLED);
    d->num_cull = draw_prop(vs, TV_PROP_NUM_CULLDIST_ENABLED);
    if (d->clipdist_out[0] >= 0 && !d->num_clip && !d->num_cull)
        d->num_clip = d->clipdist_out[1] >= 0 ? 8 : 4;
    if (d->num_clip > 8)
        d->num_clip = 8;
    if (d->num_cull > 8 - d->num_clip)
        d->num_cull = 8 - d->num_clip;
    d->ucp = d->clipdist_out[0] < 0 && d->ctx->sub.rast.clip_plane_enable;
    d->color0_all = draw_prop(fs, TV_PROP_FS_COLOR0_WRITES_ALL_CBUFS) != 0;
    draw_om_choose_zs(d, fs);
    for (uint32_t i = 0; i < fs->num_decls; i++) {
        const tv_tgsi_declaration *dc = &fs->decls[i];
        if (dc->file != TV_FILE_IN)
            continue;
        for (int32_t r = dc->first; r <= dc->last && r < DRAW_MAX_VARYINGS; r++) {
            draw_link *l = &d->link[r];
            if ((unsigned)r + 1 > d->frag_attrs)
                d->frag_attrs = (unsigned)r + 1;
            uint32_t index = dc->semantic_index + (uint32_t)(r - dc->first);
            unsigned sem = dc->has_semantic ? dc->semantic : TV_SEM_GENERIC;
            memset(l, 0, sizeof *l);
            l->used = true;
            l->vs_out = l->bcolor_out = -1;
            if (sem == TV_SEM_POSITION || sem == TV_SEM_FACE) {
                l->used = false;       /* the fragment stage computes these */
                continue;
            }
            l->primid = sem == TV_SEM_PRIMID;
            l->vs_out = (int8_t)draw_output_reg(vs, sem, index);
            /* point sprites: PCOORD, and TEXCOORD[i] (GENERIC[i] with sprite_coord_generic)
               where sprite_coord_enable says so */
            const tv_pipe_rasterizer_state *rs = &d->ctx->sub.rast;
            unsigned replaced = rs->sprite_coord_generic ? TV_SEM_GENERIC : TV_SEM_TEXCOORD;
            l->sprite = sem == TV_SEM_PCOORD ||
                        (sem == replaced && index < 16 && rs->point_quad_rasterization &&
                         ((rs->sprite_coord_enable >> index) & 1u));
            if (sem == TV_SEM_COLOR && d->ctx->sub.rast.light_twoside)
                l->bcolor_out = (int8_t)draw_output_reg(vs, TV_SEM_BCOLOR, index);
            l->noperspective = dc->interp == TV_INTERP_LINEAR;
            l->flat = !l->sprite &&
                      (l->primid || dc->interp == TV_INTERP_CONSTANT ||
                       (dc->interp == TV_INTERP_COLOR && d->ctx->sub.rast.flatshade));
            if (!l->flat)
                l->slot = (uint8_t)d->nslots++;
        }
    }
    /* clip vertex: position, distances, the interpolated inputs, then (two-sided
     * lighting) the back colours in the same order */
    bool twoside = false;
    for (unsigned r = 0; r < DRAW_MAX_VARYINGS; r++)
        twoside |= d->link[r].used && d->link[r].bcolor_out >= 0;
    d->stride = 4 + CLIP_MAX_DISTANCES + 4 * d->nslots * (twoside ? 2 : 1);
    d->twoside = twoside;
    /* every slot one link's (draw_clip_vertex then writes each float once), unless a
       register declared twice left its first slot to none */
    unsigned linked = 0;
    for (unsigned r = 0; r < DRAW_MAX_VARYINGS; r++)
        linked += d->link[r].used && !d->link[r].flat;
    d->clip_clear = linked != d->nslots;
    /* direct_triangle's rows: each used link's, its kind decided here once instead of at
       every vertex of every triangle */
    d->direct_n = 0;
    d->direct_flat = false;
    for (unsigned r = 0; r < d->frag_attrs; r++) {
        const draw_link *l = &d->link[r];
        if (!l->used)
            continue;
        draw_direct_row *row = &d->direct[d->direct_n++];
        row->attr = (uint8_t)r;
        row->vs_out = l->flat ? -1 : l->vs_out;
        row->kind = l->flat ? DRAW_ROW_FLAT : l->vs_out >= 0 ? DRAW_ROW_OUTPUT : DRAW_ROW_ZERO;
        d->direct_flat |= l->flat;
    }
    /* polygons drawn as points of the shader's sizes: the size last, clipped with the
       rest (a vertex the clipper makes gets its size interpolated) */
    const tv_pipe_rasterizer_state *rs = &d->ctx->sub.rast;
    d->psize_at = 0;
    if (rs->point_size_per_vertex && d->psize_out >= 0 &&
        (rs->fill_front == TV_PIPE_POLYGON_POINT || rs->fill_back == TV_PIPE_POLYGON_POINT))
        d->psize_at = d->stride++;
    return 0;
}

/* ---- the draw ---------------------------------------------------------------------------- */

static int check_state(tv_pipe_ctx *ctx, const tv_pipe_draw_info *info)
{
    const prim_info *pi = prim_get(info->mode);
    if (!pi)
        return pipe_fail(ctx, OP ": unknown primitive %u", info->mode);
    /* before assembly allocates its primitive list: a draw's vertices (or indices) bound
     * its primitives as they bound its shaded vertices */
    if (info->count > MAX_DRAW_VERTICES)
        return pipe_fail(ctx, OP ": %u vertices (at most %u a draw)", info->count,
                         MAX_DRAW_VERTICES);
    const tv_pipe_rasterizer_state *r = &ctx->sub.rast;
    bool tes = ctx->sub.shader[TV_PIPE_STAGE_TESS_EVAL] != 0;
    if (pi->kind == 0 && !tes)
        return pipe_fail(ctx, OP ": %s without a tessellation evaluation shader", pi->name);
    if (pi->kind != 0 && tes)
        return pipe_fail(ctx, OP ": a tessellation evaluation shader is bound: draws are of "
                         "PATCHES, not %s", pi->name);
    if (ctx->sub.shader[TV_PIPE_STAGE_TESS_CTRL] && !tes)
        return pipe_fail(ctx, OP ": a tessellation control shader without an evaluation "
                         "shader");
    if (info->index_size && info->index_size != 1 && info->index_size != 2 &&
        info->index_size != 4)
        return pipe_fail(ctx, OP ": index size %u (1, 2 or 4)", info->index_size);
    if (r->fill_front > TV_PIPE_POLYGON_POINT || r->fill_back > TV_PIPE_POLYGON_POINT)
        return pipe_fail(ctx, OP ": unknown polygon mode %u", r->fill_front > 2 ? r->fill_front
                                                                            : r->fill_back);
    return 0;
}

/* Clipping, viewport and scissor of viewport VP (viewport arrays: per primitive). */
static void setup_clip(draw_state *d, uint32_t vp)
{
    const tv_pipe_ctx *ctx = d->ctx;
    const tv_pipe_viewport *v = &ctx->sub.viewports[vp];
    d->vp_index = vp;
    memcpy(d->vp.scale, v->scale, sizeof d->vp.scale);
    memcpy(d->vp.translate, v->translate, sizeof d->vp.translate);
    if (!ctx->sub.rast.half_pixel_center) {
        /* pixel centres at integers (D3D9's convention): the rasteriser samples at
         * half-integers, so the whole primitive moves half a pixel right and down */
        d->vp.translate[0] += 0.5f;
        d->vp.translate[1] += 0.5f;
    }
    /* guard band: window coordinates stay within half the rasteriser's range */
    float lim = RASTER_MAX_COORD / 2;
    float gx = fabsf(v->scale[0]) > 0 ? (lim - fabsf(v->translate[0])) / fabsf(v->scale[0]) : 1;
    float gy = fabsf(v->scale[1]) > 0 ? (lim - fabsf(v->translate[1])) / fabsf(v->scale[1]) : 1;
    d->clip.guard_x = gx > 1 ? gx : 1;
    d->clip.guard_y = gy > 1 ? gy : 1;
    d->clip.halfz = ctx->sub.rast.clip_halfz;
    d->clip.depth_clip_near = ctx->sub.rast.depth_clip_near;
    d->clip.depth_clip_far = ctx->sub.rast.depth_clip_far;
    uint8_t avail = d->ucp ? 0xff : (uint8_t)((1u << d->num_clip) - 1u);
    d->clip.distances = d->clipdist_out[0] >= 0 && !d->ctx->sub.rast.clip_plane_enable
                            ? avail : (uint8_t)(ctx->sub.rast.clip_plane_enable & avail);
    /* depth range of the viewport, for depth clamping */
    float n = d->clip.halfz ? v->translate[2] : v->translate[2] - v->scale[2];
    float f = v->translate[2] + v->scale[2];
    d->zmin = n < f ? n : f;
    d->zmax = n < f ? f : n;
    d->rules.bottom_edge_rule = ctx->sub.rast.bottom_edge_rule;
    /* multisample rasterisation (GL 4.6 §14.3.1): at the sample positions when the
     * framebuffer has samples and the state enables it; else single-sample rasterisation
     * at the pixel centre whose coverage fills every sample */
    bool ms = d->samples > 1 && ctx->sub.rast.multisample;
    d->rules.samples = ms ? d->samples : 1;
    d->cov_fill = d->samples > 1 && !ms ? (uint32_t)((1ull << d->samples) - 1) : 0;
    int32_t x0 = 0, y0 = 0, x1 = d->width, y1 = d->height;
    if (ctx->sub.rast.scissor) {
        const tv_pipe_scissor *s = &ctx->sub.scissors[vp];
        x0 = (int32_t)(s->minx < (uint32_t)x1 ? s->minx : (uint32_t)x1);
        y0 = (int32_t)(s->miny < (uint32_t)y1 ? s->miny : (uint32_t)y1);
        x1 = (int32_t)(s->maxx < (uint32_t)x1 ? s->maxx : (uint32_t)x1);
        y1 = (int32_t)(s->maxy < (uint32_t)y1 ? s->maxy : (uint32_t)y1);
    }
    const int32_t prim[4] = {x0, y0, x1, y1};
    memcpy(d->prim_clip, prim, sizeof prim);
    memcpy(d->rules.clip, prim, sizeof prim);
    /* Triangles: also the viewport's rectangle. GL clips them to the view volume, whose x
     * and y the viewport maps onto [tx - |sx|, tx + |sx|] x [ty - |sy|, ty + |sy|]; the
     * guard band leaves them whole, so the rectangle takes the clipping's place: the
     * pixels whose centre (the sample position of the rules) it holds, its left and top
     * edges included as the fill rule includes a clipped triangle's (bottom instead of
     * top under the bottom-edge rule). Points and lines are not bounded by it: a wide one
     * reaches past the viewport as GL (and llvmpipe) draw it. */
    double vx0 = (double)d->vp.translate[0] - fabs((double)d->vp.scale[0]);
    double vx1 = (double)d->vp.translate[0] + fabs((double)d->vp.scale[0]);
    double vy0 = (double)d->vp.translate[1] - fabs((double)d->vp.scale[1]);
    double vy1 = (double)d->vp.translate[1] + fabs((double)d->vp.scale[1]);
    bool bottom = ctx->sub.rast.bottom_edge_rule;
    double r[4] = {ceil(vx0 - 0.5), bottom ? floor(vy0 - 0.5) + 1 : ceil(vy0 - 0.5),
                   ceil(vx1 - 0.5), bottom ? floor(vy1 - 0.5) + 1 : ceil(vy1 - 0.5)};
    const tv_pipe_rasterizer_state *rs = &ctx->sub.rast;
    d->tri_direct = !ctx->plain && !d->num_cull && !d->clip.distances && !d->twoside &&
                    rs->fill_front == TV_PIPE_POLYGON_FILL &&
                    rs->fill_back == TV_PIPE_POLYGON_FILL && !draw_aa_active(d, rs->poly_smooth);
    memcpy(d->tri_clip, prim, sizeof prim);
    for (int k = 0; k < 4; k++) {
        if (!(fabs(r[k]) < 1e9))
            continue;              /* a viewport not finite: its primitives cover nothing */
        int32_t v = (int32_t)r[k];
        if (k < 2 ? v > d->tri_clip[k] : v < d->tri_clip[k])
            d->tri_clip[k] = v;
    }
}

int draw_primitive(draw_state *d, uint32_t inst, const draw_tri *p, bool so, bool discard)
{
    if (so && draw_stream_output(d, 0, inst, p))
        return -1;
    if (discard)
        return 0;
    /* layered rendering: the layer the provoking vertex names; a primitive sent past a
     * layered framebuffer's layers is not drawn. A framebuffer of one layer is not layered
     * (a 2D target, or one layer attached alone; Gallium's surfaces do not say which, and
     * a layered one of one layer leaves other layers undefined): GL ignores the layer, every
     * primitive drawn into the image */
    d->layer = d->layer_out >= 0 && d->layers > 1
                   ? draw_vs_out(d, d->layer_out, inst, p->provoking)[0] : 0;
    if (d->layer >= d->layers)
        return 0;
    /* viewport arrays: the viewport (and scissor) the provoking vertex names; an index
     * past the array (GL: undefined) uses viewport 0 */
    if (d->vp_out >= 0) {
        uint32_t vp = draw_vs_out(d, d->vp_out, inst, p->provoking)[0];
        vp = vp < TV_PIPE_MAX_VIEWPORTS ? vp : 0;
        if (vp != d->vp_index)
            setup_clip(d, vp);
    }
    if (!d->band_n || d->band_k == 0)   /* bands: every worker walks it, one counts it */
        d->stat[TV_PIPE_STAT_C_INVOCATIONS]++;
    memcpy(d->rules.clip, p->n == 3 ? d->tri_clip : d->prim_clip, sizeof d->rules.clip);
    return p->n == 3 ? draw_triangle(d, inst, p) : p->n == 2 ? draw_line(d, inst, p)
                                                            : draw_point(d, inst, p);
}

int tv_pipe_draw_vbo(tv_pipe_ctx *ctx, const tv_pipe_draw_info *info)
{
    uint64_t work = pipe_work_quota(ctx);
    return pipe_draw(ctx, info, &work);
}

int pipe_draw(tv_pipe_ctx *ctx, const tv_pipe_draw_info *info, uint64_t *work_left)
{
    tv_pipe_draw_info auto_info;
    if (info->count_from_so) {     /* DRAW_AUTO: the vertices a target was written with */
        uint32_t n = 0;
        if (pipe_so_auto_count(ctx, info->count_from_so, &n))
            return -1;
        auto_info = *info;
        auto_info.start = 0;
        auto_info.count = n;
        auto_info.index_size = 0;
        auto_info.count_from_so = 0;
        info = &auto_info;
    }
    if (check_state(ctx, info))
        return -1;
    int pass = pipe_render_condition_passes(ctx, OP);
    if (pass <= 0)
        return pass;                    /* skipped by conditional rendering, or an error */
    draw_state *d = calloc(1, sizeof *d);
    if (!d)
        return pipe_fail(ctx, OP ": out of memory");
    d->ctx = ctx;
    d->info = info;
    d->instances = info->instance_count;
    d->work_left = *work_left;
    d->layer_out = d->vp_out = -1;
    d->gen_step = 1;
    for (unsigned r = 0; r < TV_VM_MAX_ATTRIBS; r++)
        d->out_step[r] = 4;
    d->mode = info->mode;
    draw_assembly a;
    memset(&a, 0, sizeof a);
    uint32_t *fetched[TV_VM_MAX_ATTRIBS] = {0};
    int rc = -1;
    /* with the rasterizer discarding, only the vertex stage and stream output run */
    bool discard = ctx->sub.rast.rasterizer_discard;
    if (!pipe_vm(ctx, OP) || (!discard && bind_framebuffer(d)) ||
        bound_program(d, TV_PIPE_STAGE_VERTEX, TV_TGSI_VERT, &d->vs) ||
        (ctx->sub.shader[TV_PIPE_STAGE_GEOMETRY] &&
         bound_program(d, TV_PIPE_STAGE_GEOMETRY, TV_TGSI_GEOM, &d->gs)) ||
        (ctx->sub.shader[TV_PIPE_STAGE_TESS_CTRL] &&
         bound_program(d, TV_PIPE_STAGE_TESS_CTRL, TV_TGSI_TESS_CTRL, &d->tcs)) ||
        (ctx->sub.shader[TV_PIPE_STAGE_TESS_EVAL] &&
         bound_program(d, TV_PIPE_STAGE_TESS_EVAL, TV_TGSI_TESS_EVAL, &d->tes)))
        goto out;
    /* stream output comes from the last vertex stage */
    unsigned last = d->gs ? TV_PIPE_STAGE_GEOMETRY
                    : d->tes ? TV_PIPE_STAGE_TESS_EVAL : TV_PIPE_STAGE_VERTEX;
    const pipe_object *vso = pipe_object_find(ctx, TV_PIPE_OBJ_SHADER, ctx->sub.shader[last]);
    d->so = vso ? vso->so : NULL;
    bool so = pipe_so_active(ctx, d->so);
    /* a last vertex stage that writes no POSITION leaves the vertices' places undefined
       (GL: gl_Position unwritten is undefined): nothing is rasterised, while stream
       output and the queries of generated and written primitives run as under
       rasterizer discard */
    if (draw_output_reg(last_vertex_stage(d), TV_SEM_POSITION, 0) < 0)
        discard = true;
    if (discard && !so && !pipe_queries_active(ctx)) {
        rc = 0;                     /* nothing rasterised, written or counted */
        goto out;
    }
    if (!discard &&
        (bound_program(d, TV_PIPE_STAGE_FRAGMENT, TV_TGSI_FRAG, &d->fs) || link_shaders(d) ||
         pipe_stage_bindings(ctx, TV_PIPE_STAGE_FRAGMENT, OP, &d->fsb)))
        goto out;
    d->fsb.tex = d->tex[TV_PIPE_STAGE_FRAGMENT].unit;
    if (!discard && reserve_rows(d))
        goto out;
    d->frag_parallel = !discard && fragment_parallel(d);
    d->batch_ok = d->frag_parallel && !ctx->plain && batch_merger_ok(d);
    if (!info->count || !d->instances) {
        rc = 0;
        goto out;
    }
    if (draw_assemble(d, &a) || draw_shade_vertices(d, &a, fetched))
        goto out;
    d->stat[TV_PIPE_STAT_IA_VERTICES] = (uint64_t)info->count * d->instances;
    d->stat[TV_PIPE_STAT_IA_PRIMITIVES] = (uint64_t)a.ntris * d->instances;
    d->stat[TV_PIPE_STAT_VS_INVOCATIONS] = (uint64_t)d->slots * d->instances;
    if (d->tes) {
        size_t pv = info->vertices_per_patch ? info->vertices_per_patch : 1;
        d->stat[TV_PIPE_STAT_IA_PRIMITIVES] = (uint64_t)(a.npatch / pv) * d->instances;
        if (draw_tessellation(d, a.patch, a.npatch / pv, &a.tris, &a.ntris))
            goto out;
    }
    if (d->gs && draw_geometry(d, &a.tris, &a.ntris))
        goto out;
    if (!discard)
        setup_clip(d, 0);
    rc = 0;
    pipe_queries_count(ctx, 0, (uint64_t)a.ntris * d->instances);
    if (draw_bands_usable(d, &a, so, discard))
        rc = draw_bands(d, &a);
    else
        for (uint32_t j = 0; j < d->instances && !rc; j++)
            for (size_t t = 0; t < a.ntris && !rc; t++) {
                draw_tri tmp;
                rc = draw_primitive(d, j, draw_assembly_prim(&a, t, &tmp), so, discard);
            }
    if (!rc)
        rc = draw_batch_flush(d);
    for (unsigned s = 0; s < TV_PIPE_MAX_STREAMS; s++)
        pipe_queries_count_stream(ctx, s, 0, d->so_prims[s]);
    d->stat[TV_PIPE_STAT_PS_INVOCATIONS] = d->fragments;
    pipe_queries_count_stats(ctx, d->stat);
    pipe_queries_count(ctx, d->samples_passed, 0);
out:
    draw_batch_end(d);
    *work_left = d->work_left;
    /* the quota taken for the draw's arrays and placed views goes back first, so that
       the kept blocks below find the room it leaves */
    for (unsigned i = 0; i < DRAW_STAGES; i++)
        pipe_textures_free(&d->tex[i]);
    pipe_uncharge(ctx, d->held);
    pipe_uncharge(ctx, d->out_held);
    d->out_held = 0;
    for (unsigned i = 0; i < TV_VM_MAX_ATTRIBS; i++)
        pipe_scratch_put(ctx, fetched[i]);
    draw_out_release(d);
    free(a.tris);
    free(a.patch);
    free(a.keys);
    free(a.vals);
    free(a.ids);
    free(d);
    return rc;
}
