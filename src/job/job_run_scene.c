/* Running a scene job (docs/jobs-scenes.md) on the graphics pipeline
 * (include/texvm/pipe.h): the job's textures and buffers become pipe resources, its
 * programs shader objects, its meshes vertex and index buffers; each pass binds a
 * framebuffer, clears, and draws, or blits. Afterwards every texture drawn into and every
 * buffer is copied back into the run's storage, so the outputs and checks of job_run_out.c
 * read them as for any job. */
#include "job_run.h"
#include "job_limits.h"
#include "job_scene.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* Handle ranges of the pipe context (resources and objects are separate name spaces; the
 * ranges keep messages readable). */
enum {
    H_TEXTURE = 0x1000,   /* + texture index */
    H_BUFFER = 0x100000,  /* + buffer index */
    H_MESH = 0x200000,    /* + 2 * mesh: vertices, + 1: indices */
    H_SHADER = 0x300000,  /* + program index */
    H_SURFACE = 0x400000  /* + a running count */
};

/* tv_tex_type -> PIPE_TEXTURE_* (2D_NO_MIPMAP is refused by the loader; BUFFER here) */
static const uint8_t target_of_type[9] = {1, 2, 3, 4, 6, 7, 0, 2, 8};
/* tv_wrap -> PIPE_TEX_WRAP_* */
static const uint8_t pipe_wrap[8] = {0, 4, 2, 3, 1, 6, 7, 5};

typedef struct scene_run {
    run_state *rs;
    const job_scene *s;
    tv_pipe_ctx *ctx;
    uint32_t next_surface;
    bool *drawn;                 /* per texture: written by a pass (copied back) */
    const job_scene_draw *prev;  /* the draw before: its bindings are unset */
    uint64_t draws;
} scene_run;

static int fail_at(scene_run *r, size_t pass, long draw, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
static int fail_at(scene_run *r, size_t pass, long draw, const char *fmt, ...)
{
    char msg[800], where[96];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (draw >= 0)
        snprintf(where, sizeof where, "scene.passes[%zu].draws[%ld]", pass, draw);
    else
        snprintf(where, sizeof where, "scene.passes[%zu]", pass);
    const job_scene_pass *p = &r->s->passes[pass];
    return run_fail(r->rs, TV_EXIT_INVALID, "%s: at %s%s%s%s: %s", r->rs->j->path, where,
                    p->name ? " (\"" : "", p->name ? p->name : "", p->name ? "\")" : "", msg);
}

static uint32_t pipe_format_of(tv_format f)
{
    const tv_format_info *fi = tv_format_get(f);
    return fi ? tv_pipe_format_from_name(fi->name) : 0;
}

/* ---- resources ------------------------------------------------------------------------- */

static int make_textures(scene_run *r)
{
    const job *j = r->rs->j;
    for (size_t i = 0; i < j->num_textures; i++) {
        const job_texture *t = &j->textures[i];
        uint32_t fmt = pipe_format_of(t->format);
        if (!fmt)
            return run_fail(r->rs, TV_EXIT_UNSUPPORTED, "%s: texture \"%s\": format %s has no "
                            "Gallium number, so a scene cannot use it", j->path,
                            t->name ? t->name : "", tv_format_get(t->format)->name);
        if (t->type == TV_TEX_1D_BUFFER)
            return run_fail(r->rs, TV_EXIT_UNSUPPORTED, "%s: texture \"%s\": BUFFER textures "
                            "are not available to scenes yet", j->path, t->name ? t->name : "");
        bool three_d = t->type == TV_TEX_3D;
        tv_pipe_resource_desc d = {target_of_type[t->type], fmt, 0, t->width, t->height,
                                   three_d ? t->depth : 1, three_d ? 1 : t->layers,
                                   t->levels - 1, t->samples > 1 ? t->samples : 0};
        uint32_t h = H_TEXTURE + (uint32_t)i;
        if (tv_pipe_resource_create(r->ctx, h, &d))
            return run_fail(r->rs, TV_EXIT_INVALID, "%s: texture \"%s\": %s", j->path,
                            t->name ? t->name : "", tv_pipe_error(r->ctx));
        if (t->source.kind == JOB_SRC_NONE || !t->data)
            continue; /* starts zeroed */
        for (uint32_t l = 0; l < t->levels; l++) {
            tv_pipe_box box = {0, 0, 0, job_level_size(t->width, l),
                               job_level_size(t->height, l), job_texture_layers(t, l)};
            if (tv_pipe_transfer_write(r->ctx, h, l, &box, t->data + t->level_offset[l],
                                       t->level_size[l], 0, 0, 0))
                return run_fail(r->rs, TV_EXIT_INVALID, "%s: texture \"%s\" level %u: %s",
                                j->path, t->name ? t->name : "", l, tv_pipe_error(r->ctx));
        }
    }
    return 0;
}

static int make_buffer(scene_run *r, uint32_t h, const void *data, size_t size, const char *what)
{
    if (!size)
        size = 1; /* an empty buffer still has a resource; nothing reads it */
    if (size > UINT32_MAX)
        return run_fail(r->rs, TV_EXIT_INVALID, "%s: %s: %zu bytes, buffers hold at most 4 GiB",
                        r->rs->j->path, what, size);
    tv_pipe_resource_desc d = {0, tv_pipe_format_from_name("R8_UNORM"), 0, (uint32_t)size, 1,
                               1, 1, 0, 0};
    tv_pipe_box box = {0, 0, 0, (uint32_t)size, 1, 1};
    if (tv_pipe_resource_create(r->ctx, h, &d) ||
        (data && tv_pipe_transfer_write(r->ctx, h, 0, &box, data, size, 0, 0, 0)))
        return run_fail(r->rs, TV_EXIT_INVALID, "%s: %s: %s", r->rs->j->path, what,
                        tv_pipe_error(r->ctx));
    return 0;
}

static int make_buffers(scene_run *r)
{
    const job *j = r->rs->j;
    char what[300];
    for (size_t i = 0; i < j->num_buffers; i++) {
        snprintf(what, sizeof what, "buffer \"%s\"", j->buffers[i].name ? j->buffers[i].name : "");
        int rc = make_buffer(r, H_BUFFER + (uint32_t)i, j->buffers[i].data, j->buffers[i].size,
                             what);
        if (rc)
            return rc;
    }
    for (size_t m = 0; m < r->s->num_meshes; m++) {
        const job_mesh *me = &r->s->meshes[m];
        if (!me->vertex_data)
            continue;
        snprintf(what, sizeof what, "mesh \"%s\"", me->name);
        int rc = make_buffer(r, H_MESH + 2 * (uint32_t)m, me->vertex_data,
                             (size_t)me->vertices * 32, what);
        if (!rc)
            rc = make_buffer(r, H_MESH + 2 * (uint32_t)m + 1, me->index_data,
                             (size_t)me->indices * 4, what);
        if (rc)
            return rc;
    }
    return 0;
}

static int make_shaders(scene_run *r)
{
    const job *j = r->rs->j;
    for (size_t i = 0; i < j->num_programs; i++) {
        const job_program *p = &j->programs[i];
        if (p->stage < 0 || p->stage > 4)
            continue; /* COMP programs do not draw */
        if (tv_pipe_shader_create(r->ctx, H_SHADER + (uint32_t)i, (uint32_t)p->stage, p->text,
                                  p->text_len + 1))
            return run_fail(r->rs, TV_EXIT_INVALID, "%s: %s", p->tgsi_path ? p->tgsi_path
                            : j->path, tv_pipe_error(r->ctx));
    }
    return 0;
}

/* ---- bindings of a draw ------------------------------------------------------------------ */

static void sampler_state(const job_sampler *s, tv_pipe_sampler_state *o)
{
    memset(o, 0, sizeof *o);
    o->wrap_s = pipe_wrap[s->wrap[0] & 7];
    o->wrap_t = pipe_wrap[s->wrap[1] & 7];
    o->wrap_r = pipe_wrap[s->wrap[2] & 7];
    o->min_img_filter = s->min_filter != TV_MIN_POINT;
    o->mag_img_filter = s->mag_filter == TV_MAG_LINEAR;
    o->min_mip_filter = s->mip_filter == TV_MIP_NONE ? 2 : s->mip_filter == TV_MIP_POINT ? 0 : 1;
    o->compare_mode = s->compare >= 0;
    o->compare_func = (uint8_t)(s->compare >= 0 ? s->compare : 0);
    o->seamless_cube_map = s->seamless_cube;
    o->max_anisotropy = (uint8_t)(s->max_anisotropy > 1 ? s->max_anisotropy : 0);
    o->lod_bias = s->lod_bias;
    o->min_lod = s->min_lod;
    o->max_lod = s->max_lod;
    memcpy(o->border_color, s->border, sizeof o->border_color);
}

static void sampler_view(const job_texture *t, uint32_t res, tv_pipe_sampler_view *v)
{
    static const char swz[] = "rgba01";
    memset(v, 0, sizeof *v);
    v->res = res;
    v->format = pipe_format_of(t->format);
    v->first_level = t->view_min_level;
    v->last_level = t->view_max_level;
    v->last_layer = job_texture_layers(t, 0) - 1;
    if (t->type == TV_TEX_3D)
        v->last_layer = 0;
    for (int c = 0; c < 4; c++) {
        const char *at = strchr(swz, t->swizzle[c]);
        v->swizzle[c] = (uint8_t)(at && t->swizzle[c] ? at - swz : c);
    }
}

/* Unset what the previous draw bound and this one does not bind again. */
static int unbind_previous(scene_run *r)
{
    const job_scene_draw *d = r->prev;
    if (!d)
        return 0;
    for (size_t i = 0; i < d->num_consts; i++)
        if (tv_pipe_set_constant_buffer(r->ctx, d->consts[i].stage, d->consts[i].slot, 0, 0, 0,
                                        NULL, 0))
            return -1;
    tv_pipe_sampler_view none;
    memset(&none, 0, sizeof none);
    for (size_t i = 0; i < d->num_texs; i++)
        if (tv_pipe_set_sampler_views(r->ctx, d->texs[i].stage, d->texs[i].slot, 1, &none))
            return -1;
    tv_pipe_buffer_binding nob = {0, 0, 0};
    for (size_t i = 0; i < d->num_bufs; i++)
        if (tv_pipe_set_shader_buffers(r->ctx, d->bufs[i].stage, d->bufs[i].slot, 1, &nob))
            return -1;
    return 0;
}

static int bind_resources(scene_run *r, const job_scene_draw *d)
{
    const job *j = r->rs->j;
    for (size_t i = 0; i < d->num_consts; i++) {
        const job_scene_const *k = &d->consts[i];
        if (tv_pipe_set_constant_buffer(r->ctx, k->stage, k->slot, 0, 0, (uint32_t)(k->count * 4),
                                        k->words, k->count))
            return -1;
    }
    for (size_t i = 0; i < d->num_texs; i++) {
        const job_scene_tex *t = &d->texs[i];
        tv_pipe_sampler_view v;
        sampler_view(&j->textures[t->texture], H_TEXTURE + (uint32_t)t->texture, &v);
        if (tv_pipe_set_sampler_views(r->ctx, t->stage, t->slot, 1, &v))
            return -1;
        if (t->sampler >= 0) {
            tv_pipe_sampler_state s;
            sampler_state(&j->samplers[t->sampler], &s);
            if (tv_pipe_set_sampler_states(r->ctx, t->stage, t->slot, 1, &s))
                return -1;
        }
    }
    for (size_t i = 0; i < d->num_bufs; i++) {
        const job_scene_buf *b = &d->bufs[i];
        size_t size = j->buffers[b->buffer].size;
        tv_pipe_buffer_binding bb = {H_BUFFER + (uint32_t)b->buffer, 0,
                                     (uint32_t)(size > UINT32_MAX ? UINT32_MAX : size)};
        if (tv_pipe_set_shader_buffers(r->ctx, b->stage, b->slot, 1, &bb))
            return -1;
    }
    return 0;
}

/* Vertex elements IN[0..max]: one vertex-buffer slot per (buffer, stride); indices no
 * attribute names read an unbound slot ((0, 0, 0, 1)). */
static int bind_mesh(scene_run *r, const job_mesh *m, uint32_t mesh_index)
{
    tv_pipe_vertex_element el[TV_PIPE_MAX_ATTRIBS];
    tv_pipe_vertex_buffer vb[TV_PIPE_MAX_ATTRIBS + 1];
    int vb_src[TV_PIPE_MAX_ATTRIBS + 1];
    unsigned nvb = 1, nel = 0;
    memset(el, 0, sizeof el);
    memset(vb, 0, sizeof vb); /* slot 0: unbound, for the gaps */
    uint32_t rgba32f = tv_pipe_format_from_name("R32G32B32A32_FLOAT");
    for (unsigned i = 0; i < TV_PIPE_MAX_ATTRIBS; i++)
        el[i] = (tv_pipe_vertex_element){0, 0, 0, rgba32f};
    for (unsigned a = 0; a < m->num_attrs; a++) {
        const job_mesh_attr *at = &m->attrs[a];
        uint32_t res = at->buffer < 0 ? H_MESH + 2 * mesh_index : H_BUFFER + (uint32_t)at->buffer;
        unsigned slot = 0;
        for (unsigned k = 1; k < nvb && !slot; k++)
            if (vb_src[k] == at->buffer && vb[k].stride == at->stride)
                slot = k;
        if (!slot) {
            slot = nvb++;
            vb[slot] = (tv_pipe_vertex_buffer){at->stride, 0, res};
            vb_src[slot] = at->buffer;
        }
        el[at->index] = (tv_pipe_vertex_element){at->offset, at->divisor, slot, at->format};
        if (at->index + 1 > nel)
            nel = at->index + 1;
    }
    if (tv_pipe_set_vertex_buffers(r->ctx, 0, nvb, vb) ||
        tv_pipe_set_vertex_elements(r->ctx, nel, el))
        return -1;
    if (m->index_size) {
        uint32_t res = m->index_buffer < 0 ? H_MESH + 2 * mesh_index + 1
                                           : H_BUFFER + (uint32_t)m->index_buffer;
        return tv_pipe_set_index_buffer(r->ctx, res, m->index_offset);
    }
    return 0;
}

static int set_state(scene_run *r, const job_scene_pass *p, const job_scene_state *st)
{
    /* front_face is GL's, counter-clockwise in NDC: the pipeline decides winding before
       the viewport's y flip (as Gallium's front_ccw), so it passes unchanged */
    tv_pipe_rasterizer_state rast = st->rast;
    rast.scissor = st->has_scissor;
    tv_pipe_scissor sc = {0, 0, p->width, p->height};
    if (st->has_scissor)
        sc = (tv_pipe_scissor){st->scissor[0], st->scissor[1], st->scissor[0] + st->scissor[2],
                               st->scissor[1] + st->scissor[3]};
    if (tv_pipe_set_rasterizer(r->ctx, &rast) || tv_pipe_set_dsa(r->ctx, &st->dsa) ||
        tv_pipe_set_blend(r->ctx, &st->blend) || tv_pipe_set_scissors(r->ctx, 0, 1, &sc))
        return -1;
    tv_pipe_set_stencil_ref(r->ctx, st->stencil_ref[0], st->stencil_ref[1]);
    tv_pipe_set_blend_color(r->ctx, st->blend_color);
    tv_pipe_set_sample_mask(r->ctx, st->sample_mask);
    tv_pipe_set_min_samples(r->ctx, st->min_samples);
    tv_pipe_set_tess_state(r->ctx, st->tess_outer, st->tess_inner);
    return 0;
}

static int run_draw(scene_run *r, size_t pi, size_t di)
{
    const job_scene_pass *p = &r->s->passes[pi];
    const job_scene_draw *d = &p->draws[di];
    const job_mesh *m = &r->s->meshes[d->mesh];
    for (uint32_t s = 0; s < 5; s++)
        if (tv_pipe_bind_shader(r->ctx, s, d->program[s] >= 0 ? H_SHADER + (uint32_t)d->program[s]
                                                              : 0))
            return fail_at(r, pi, (long)di, "%s", tv_pipe_error(r->ctx));
    if (unbind_previous(r) || bind_resources(r, d) || bind_mesh(r, m, (uint32_t)d->mesh) ||
        set_state(r, p, &d->state))
        return fail_at(r, pi, (long)di, "%s", tv_pipe_error(r->ctx));
    r->prev = d;
    tv_pipe_draw_info info;
    memset(&info, 0, sizeof info);
    info.mode = m->prim;
    info.start = d->start;
    info.count = d->count;
    info.instance_count = d->instances;
    info.index_size = m->index_size;
    info.primitive_restart = m->restart;
    info.restart_index = m->index_size == 4 ? 0xffffffffu : (1u << (8 * m->index_size)) - 1;
    info.vertices_per_patch = d->patch_vertices;
    if (tv_pipe_draw_vbo(r->ctx, &info))
        return fail_at(r, pi, (long)di, "%s", tv_pipe_error(r->ctx));
    r->draws++;
    return 0;
}

/* ---- passes ------------------------------------------------------------------------------- */

static uint32_t surface(scene_run *r, const job_scene_attach *a)
{
    const job_texture *t = &r->rs->j->textures[a->texture];
    uint32_t h = H_SURFACE + r->next_surface++;
    if (tv_pipe_surface_create(r->ctx, h, H_TEXTURE + (uint32_t)a->texture,
                               pipe_format_of(t->format), a->level, a->layer, a->layer))
        return 0;
    r->drawn[a->texture] = true;
    return h;
}

static int draw_pass(scene_run *r, size_t pi)
{
    const job_scene_pass *p = &r->s->passes[pi];
    uint32_t cb[TV_PIPE_MAX_CBUFS] = {0}, zs = 0;
    for (unsigned i = 0; i < p->num_colors; i++)
        if (!(cb[i] = surface(r, &p->colors[i])))
            return fail_at(r, pi, -1, "%s", tv_pipe_error(r->ctx));
    if (p->zs.texture >= 0 && !(zs = surface(r, &p->zs)))
        return fail_at(r, pi, -1, "%s", tv_pipe_error(r->ctx));
    const float *v = p->viewport;
    tv_pipe_viewport vp = {{v[2] / 2, -v[3] / 2, (v[5] - v[4]) / 2},
                           {v[0] + v[2] / 2, v[1] + v[3] / 2, (v[4] + v[5]) / 2}};
    if (tv_pipe_set_framebuffer(r->ctx, p->num_colors, cb, zs) ||
        tv_pipe_set_viewports(r->ctx, 0, 1, &vp))
        return fail_at(r, pi, -1, "%s", tv_pipe_error(r->ctx));
    if (p->clear && tv_pipe_clear(r->ctx, p->clear, p->clear_color, p->clear_depth,
                                  p->clear_stencil))
        return fail_at(r, pi, -1, "clear: %s", tv_pipe_error(r->ctx));
    for (size_t d = 0; d < p->num_draws; d++) {
        int rc = run_draw(r, pi, d);
        if (rc)
            return rc;
    }
    return 0;
}

static int blit_pass(scene_run *r, size_t pi)
{
    const job_scene_pass *p = &r->s->passes[pi];
    const job *j = r->rs->j;
    const job_texture *a = &j->textures[p->from], *b = &j->textures[p->to];
    tv_pipe_blit_info bi;
    memset(&bi, 0, sizeof bi);
    bi.src = (tv_pipe_blit_side){H_TEXTURE + (uint32_t)p->from, p->from_level,
                                 pipe_format_of(a->format), 0, 0, 0,
                                 (int32_t)job_level_size(a->width, p->from_level),
                                 (int32_t)job_level_size(a->height, p->from_level),
                                 (int32_t)job_texture_layers(a, p->from_level)};
    bi.dst = (tv_pipe_blit_side){H_TEXTURE + (uint32_t)p->to, p->to_level,
                                 pipe_format_of(b->format), 0, 0, 0,
                                 (int32_t)job_level_size(b->width, p->to_level),
                                 (int32_t)job_level_size(b->height, p->to_level),
                                 (int32_t)job_texture_layers(b, p->to_level)};
    bi.mask = p->blit_mask;
    bi.filter = p->filter;
    if (tv_pipe_blit(r->ctx, &bi))
        return fail_at(r, pi, -1, "blit: %s", tv_pipe_error(r->ctx));
    r->drawn[p->to] = true;
    return 0;
}

/* ---- results back into the run's storage ------------------------------------------------- */

static int copy_back(scene_run *r)
{
    run_state *rs = r->rs;
    const job *j = rs->j;
    for (size_t i = 0; i < j->num_textures; i++) {
        if (!r->drawn[i])
            continue;
        const job_texture *t = &j->textures[i];
        const tv_format_info *fi = tv_format_get(t->format);
        const uint8_t *base = tv_pipe_resource_data(r->ctx, H_TEXTURE + (uint32_t)i);
        for (uint32_t l = 0; l < t->levels; l++) {
            size_t off, stride, lstride;
            if (!base || tv_pipe_resource_level(r->ctx, H_TEXTURE + (uint32_t)i, l, &off, &stride,
                                                &lstride))
                return run_fail(rs, TV_EXIT_INVALID, "%s: texture \"%s\": %s", j->path,
                                t->name ? t->name : "", tv_pipe_error(r->ctx));
            uint32_t w = job_level_size(t->width, l), h = job_level_size(t->height, l);
            for (uint32_t la = 0; la < job_texture_layers(t, l); la++)
                for (uint32_t y = 0; y < h; y++)
                    for (uint32_t x = 0; x < w; x++)
                        for (uint32_t s = 0; s < t->samples; s++)
                            run_texel_write(rs, i, l, x, y, la, s,
                                            base + off + la * lstride + y * stride +
                                                ((size_t)x * t->samples + s) * fi->block_bytes);
        }
    }
    for (size_t i = 0; i < j->num_buffers; i++) {
        const uint8_t *d = tv_pipe_resource_data(r->ctx, H_BUFFER + (uint32_t)i);
        if (d && j->buffers[i].size)
            memcpy(j->buffers[i].data, d, j->buffers[i].size);
    }
    return 0;
}

int run_scene(run_state *rs)
{
    const job *j = rs->j;
    const tv_job_run_opts *o = rs->opts;
    if (o->trace)
        return run_fail(rs, TV_EXIT_UNSUPPORTED, "%s: --trace follows one invocation of a "
                        "single-stage job; a scene's draws are traced with texvm replay "
                        "--trace after recording them through texvm vtest", j->path);
    scene_run r = {.rs = rs, .s = j->scene};
    int rc = run_outputs_check(rs);
    if (!rc)
        rc = run_textures(rs);
    if (rc)
        return rc;
    r.ctx = tv_pipe_create(job_max_memory());
    r.drawn = calloc(j->num_textures ? j->num_textures : 1, sizeof *r.drawn);
    if (!r.ctx || !r.drawn) {
        tv_pipe_destroy(r.ctx);
        free(r.drawn);
        return run_fail(rs, TV_EXIT_INVALID, "out of memory");
    }
    uint64_t max_instr = o->max_instructions ? o->max_instructions : j->options.max_instructions;
    tv_pipe_set_compute_limit(r.ctx, max_instr, 0);
    uint32_t threads = o->trace ? 1 : run_thread_count(j, o);
    if ((o->plain && tv_pipe_set_plain(r.ctx, true)) || tv_pipe_set_threads(r.ctx, threads) ||
        tv_pipe_set_shader_rules(r.ctx, j->options.flush_denormals == 1,
                                 j->options.fine_derivatives == 1))
        rc = run_fail(rs, TV_EXIT_INVALID, "%s", tv_pipe_error(r.ctx));
    if (!rc)
        rc = make_textures(&r);
    if (!rc)
        rc = make_buffers(&r);
    if (!rc)
        rc = make_shaders(&r);
    double t0 = run_now();
    for (size_t p = 0; p < j->scene->num_passes && !rc; p++)
        rc = j->scene->passes[p].kind == JOB_PASS_BLIT ? blit_pass(&r, p) : draw_pass(&r, p);
    double t1 = run_now();
    if (!rc)
        rc = copy_back(&r);
    tv_pipe_destroy(r.ctx);
    free(r.drawn);
    if (!rc && !o->quiet)
        fprintf(stderr, "texvm run: SCENE: %zu pass%s, %llu draw%s, %.3f s on %u thread%s\n",
                j->scene->num_passes, j->scene->num_passes == 1 ? "" : "es",
                (unsigned long long)r.draws, r.draws == 1 ? "" : "s", t1 - t0, threads,
                threads == 1 ? "" : "s");
    if (!rc)
        rc = run_outputs(rs);
    if (!rc)
        rc = run_checks(rs);
    return rc;
}
