/* Graphics state and draws from the virgl command stream: the state objects (blend,
 * depth-stencil-alpha, rasterizer, vertex elements, sampler views and states) decoded from
 * their dwords when bound, the set_* commands, blit, and draw_vbo — each a thin decode into the pipe layer's Gallium
 * structures (include/texvm/pipe.h). Bit fields as virgl_protocol.h lays them out. */
#include "vtest_internal.h"

#include "util/half.h"

#include <string.h>

/* Field (shift, width) of a dword. */
static uint32_t bits(uint32_t v, unsigned shift, unsigned width)
{
    return (v >> shift) & ((1u << width) - 1u);
}

static float fl(uint32_t v)
{
    return tv_bits_f32(v);
}

/* ---- state objects: payload sizes (after the handle) and decoders ------------------- */

typedef struct state_object_row {
    unsigned kind;
    const char *name;
    uint32_t min, max, step;    /* dwords after the handle: min..max in steps */
} state_object_row;

static const state_object_row object_rows[] = {
    {TV_PIPE_OBJ_BLEND, "blend", 10, 10, 1},
    {TV_PIPE_OBJ_DSA, "dsa", 4, 4, 1},
    {TV_PIPE_OBJ_RASTERIZER, "rasterizer", 8, 8, 1},
    {TV_PIPE_OBJ_VERTEX_ELEMENTS, "vertex_elements", 0, 4 * TV_PIPE_MAX_ATTRIBS, 4},
    {TV_PIPE_OBJ_SAMPLER_VIEW, "sampler_view", 5, 5, 1},
    {TV_PIPE_OBJ_SAMPLER_STATE, "sampler_state", 8, 8, 1},
};

int vtest_state_object_check(vtest_conn *c, unsigned kind, uint32_t handle, uint32_t ndw)
{
    for (size_t i = 0; i < sizeof object_rows / sizeof object_rows[0]; i++) {
        const state_object_row *r = &object_rows[i];
        if (r->kind != kind)
            continue;
        if (ndw < r->min || ndw > r->max || ndw % r->step) {
            vtest_fail(c, "create_object %s %u: %u dwords after the handle (%u..%u, in steps "
                       "of %u)", r->name, handle, ndw, r->min, r->max, r->step);
            return -1;
        }
    }
    return 0;
}

static void decode_blend(const uint32_t *d, tv_pipe_blend_state *b)
{
    memset(b, 0, sizeof *b);
    b->independent_blend_enable = bits(d[0], 0, 1);
    b->logicop_enable = bits(d[0], 1, 1);
    b->alpha_to_coverage = bits(d[0], 3, 1);
    b->alpha_to_one = bits(d[0], 4, 1);
    b->logicop_func = (uint8_t)bits(d[1], 0, 4);
    for (unsigned i = 0; i < 8; i++) {
        uint32_t s = d[2 + i];
        tv_pipe_rt_blend *rt = &b->rt[i];
        rt->blend_enable = bits(s, 0, 1);
        rt->rgb_func = (uint8_t)bits(s, 1, 3);
        rt->rgb_src_factor = (uint8_t)bits(s, 4, 5);
        rt->rgb_dst_factor = (uint8_t)bits(s, 9, 5);
        rt->alpha_func = (uint8_t)bits(s, 14, 3);
        rt->alpha_src_factor = (uint8_t)bits(s, 17, 5);
        rt->alpha_dst_factor = (uint8_t)bits(s, 22, 5);
        rt->colormask = (uint8_t)bits(s, 27, 4);
    }
}

static void decode_stencil(uint32_t s, tv_pipe_stencil_state *st)
{
    st->enabled = bits(s, 0, 1);
    st->func = (uint8_t)bits(s, 1, 3);
    st->fail_op = (uint8_t)bits(s, 4, 3);
    st->zpass_op = (uint8_t)bits(s, 7, 3);
    st->zfail_op = (uint8_t)bits(s, 10, 3);
    st->valuemask = (uint8_t)bits(s, 13, 8);
    st->writemask = (uint8_t)bits(s, 21, 8);
}

static void decode_dsa(const uint32_t *d, tv_pipe_dsa_state *s)
{
    memset(s, 0, sizeof *s);
    s->depth_enabled = bits(d[0], 0, 1);
    s->depth_writemask = bits(d[0], 1, 1);
    s->depth_func = (uint8_t)bits(d[0], 2, 3);
    s->alpha_enabled = bits(d[0], 8, 1);
    s->alpha_func = (uint8_t)bits(d[0], 9, 3);
    decode_stencil(d[1], &s->stencil[0]);
    decode_stencil(d[2], &s->stencil[1]);
    s->alpha_ref = fl(d[3]);
}

static void decode_rasterizer(const uint32_t *d, tv_pipe_rasterizer_state *r)
{
    memset(r, 0, sizeof *r);
    uint32_t s0 = d[0];
    r->flatshade = bits(s0, 0, 1);
    r->depth_clip_near = r->depth_clip_far = bits(s0, 1, 1);
    r->clip_halfz = bits(s0, 2, 1);
    r->rasterizer_discard = bits(s0, 3, 1);
    r->flatshade_first = bits(s0, 4, 1);
    r->light_twoside = bits(s0, 5, 1);
    r->cull_face = (uint8_t)bits(s0, 8, 2);
    r->fill_front = (uint8_t)bits(s0, 10, 2);
    r->fill_back = (uint8_t)bits(s0, 12, 2);
    r->scissor = bits(s0, 14, 1);
    r->front_ccw = bits(s0, 15, 1);
    r->offset_line = bits(s0, 18, 1);
    r->offset_point = bits(s0, 19, 1);
    r->offset_tri = bits(s0, 20, 1);
    r->poly_smooth = bits(s0, 21, 1);
    r->poly_stipple_enable = bits(s0, 22, 1);
    r->multisample = bits(s0, 25, 1);
    r->half_pixel_center = bits(s0, 29, 1);
    r->bottom_edge_rule = bits(s0, 30, 1);
    /* depth clamp is the absence of depth clipping (Gallium: depth_clamp follows it) */
    r->depth_clamp = !r->depth_clip_near;
    r->sprite_coord_mode = bits(s0, 6, 1);
    r->point_quad_rasterization = bits(s0, 7, 1);
    r->point_smooth = bits(s0, 23, 1);
    r->point_size_per_vertex = bits(s0, 24, 1);
    r->line_smooth = bits(s0, 26, 1);
    r->line_stipple_enable = bits(s0, 27, 1);
    r->sprite_coord_enable = (uint16_t)d[2];
    r->sprite_coord_generic = true;   /* virgl has no PIPE_CAP_TGSI_TEXCOORD: GENERIC[i] */
    r->point_size = fl(d[1]);
    r->line_stipple_pattern = (uint16_t)bits(d[3], 0, 16);
    r->line_stipple_factor = (uint8_t)bits(d[3], 16, 8);
    r->clip_plane_enable = (uint8_t)bits(d[3], 24, 8);
    r->line_width = fl(d[4]);
    r->offset_units = fl(d[5]);
    r->offset_scale = fl(d[6]);
    r->offset_clamp = fl(d[7]);
}

int vtest_state_object_bind(vtest_conn *c, unsigned kind, uint32_t handle)
{
    tv_pipe_ctx *p = c->pipe;
    size_t n = 0;
    const uint32_t *d = handle ? tv_pipe_object_dwords(p, kind, handle, &n) : NULL;
    int rc = 0;
    switch (kind) {
    case TV_PIPE_OBJ_BLEND: {
        tv_pipe_blend_state b;
        if (!d)
            return 0;           /* unbound: the last state stays until a draw needs one */
        decode_blend(d, &b);
        rc = tv_pipe_set_blend(p, &b);
        break;
    }
    case TV_PIPE_OBJ_DSA: {
        tv_pipe_dsa_state s;
        if (!d)
            return 0;
        decode_dsa(d, &s);
        rc = tv_pipe_set_dsa(p, &s);
        break;
    }
    case TV_PIPE_OBJ_RASTERIZER: {
        tv_pipe_rasterizer_state r;
        if (!d)
            return 0;
        decode_rasterizer(d, &r);
        rc = tv_pipe_set_rasterizer(p, &r);
        break;
    }
    case TV_PIPE_OBJ_VERTEX_ELEMENTS: {
        tv_pipe_vertex_element e[TV_PIPE_MAX_ATTRIBS];
        unsigned ne = d ? (unsigned)(n / 4) : 0;
        for (unsigned i = 0; i < ne; i++)
            e[i] = (tv_pipe_vertex_element){d[4 * i], d[4 * i + 1], d[4 * i + 2], d[4 * i + 3]};
        rc = tv_pipe_set_vertex_elements(p, ne, e);
        break;
    }
    default:
        return 0;
    }
    return rc ? vtest_pipe_fail(c, "bind_object") : 0;
}

/* ---- sampler views and states -------------------------------------------------------- */

/* A sampler view's dwords: resource, format with the view's target (PIPE_TEXTURE_*) in the
 * top byte (Mesa puts it there when VIRGL_CAP_TEXTURE_VIEW is claimed; 0 reads the
 * resource's own target, as virglrenderer does),
 * then first_layer | last_layer << 16 and first_level | last_level << 8 for textures or
 * the first and last element for buffers (both readings kept: the pipe layer picks by the
 * resource's target), and the swizzle (3 bits per channel). */
static void decode_view(const uint32_t *d, tv_pipe_sampler_view *v)
{
    memset(v, 0, sizeof *v);
    v->res = d[0];
    v->format = d[1] & 0xffffff;
    v->target = d[1] >> 24;
    v->first_layer = bits(d[2], 0, 16);
    v->last_layer = bits(d[2], 16, 16);
    v->first_level = bits(d[3], 0, 8);
    v->last_level = bits(d[3], 8, 8);
    v->first_element = d[2];
    v->last_element = d[3];
    for (unsigned i = 0; i < 4; i++)
        v->swizzle[i] = (uint8_t)bits(d[4], 3 * i, 3);
}

static void decode_sampler(const uint32_t *d, tv_pipe_sampler_state *s)
{
    memset(s, 0, sizeof *s);
    s->wrap_s = (uint8_t)bits(d[0], 0, 3);
    s->wrap_t = (uint8_t)bits(d[0], 3, 3);
    s->wrap_r = (uint8_t)bits(d[0], 6, 3);
    s->min_img_filter = (uint8_t)bits(d[0], 9, 2);
    s->min_mip_filter = (uint8_t)bits(d[0], 11, 2);
    s->mag_img_filter = (uint8_t)bits(d[0], 13, 2);
    s->compare_mode = bits(d[0], 15, 1);
    s->compare_func = (uint8_t)bits(d[0], 16, 3);
    s->seamless_cube_map = bits(d[0], 19, 1);
    s->max_anisotropy = (uint8_t)bits(d[0], 20, 6);
    s->lod_bias = fl(d[1]);
    s->min_lod = fl(d[2]);
    s->max_lod = fl(d[3]);
    memcpy(s->border_color, d + 4, 16);
}

/* set_sampler_views / bind_sampler_states: shader type, start slot, object handles (0:
 * unbind). */
static int bind_slots(vtest_conn *c, const char *cmd, unsigned kind, const uint32_t *p,
                      uint32_t len)
{
    uint32_t n = len - 2;
    if (n > TV_PIPE_MAX_SAMPLERS) {
        vtest_fail(c, "%s: %u slots (at most %u)", cmd, n, TV_PIPE_MAX_SAMPLERS);
        return -1;
    }
    tv_pipe_sampler_view views[TV_PIPE_MAX_SAMPLERS];
    tv_pipe_sampler_state states[TV_PIPE_MAX_SAMPLERS];
    for (uint32_t i = 0; i < n; i++) {
        size_t nd = 0;
        const uint32_t *d = p[2 + i] ? tv_pipe_object_dwords(c->pipe, kind, p[2 + i], &nd)
                                     : NULL;
        if (p[2 + i] && !d) {
            vtest_fail(c, "%s: no %s %u", cmd,
                       kind == TV_PIPE_OBJ_SAMPLER_VIEW ? "sampler view" : "sampler state",
                       p[2 + i]);
            return -1;
        }
        if (kind == TV_PIPE_OBJ_SAMPLER_VIEW) {
            if (d)
                decode_view(d, &views[i]);
            else
                memset(&views[i], 0, sizeof views[i]);
        } else {
            if (d)
                decode_sampler(d, &states[i]);
            else
                memset(&states[i], 0, sizeof states[i]);
        }
    }
    int rc = kind == TV_PIPE_OBJ_SAMPLER_VIEW
                 ? tv_pipe_set_sampler_views(c->pipe, p[0], p[1], n, views)
                 : tv_pipe_set_sampler_states(c->pipe, p[0], p[1], n, states);
    return rc ? vtest_pipe_fail(c, cmd) : 0;
}

int vtest_h_set_sampler_views(vtest_conn *c, unsigned obj, const uint32_t *p, uint32_t len)
{
    (void)obj;
    return bind_slots(c, "set_sampler_views", TV_PIPE_OBJ_SAMPLER_VIEW, p, len);
}

int vtest_h_bind_sampler_states(vtest_conn *c, unsigned obj, const uint32_t *p, uint32_t len)
{
    (void)obj;
    return bind_slots(c, "bind_sampler_states", TV_PIPE_OBJ_SAMPLER_STATE, p, len);
}

/* ---- set_* commands ---------------------------------------------------------------- */

int vtest_h_set_viewport_state(vtest_conn *c, unsigned obj, const uint32_t *p, uint32_t len)
{
    (void)obj;
    if ((len - 1) % 6) {
        vtest_fail(c, "set_viewport_state: %u dwords are not 1 + 6 per viewport", len);
        return -1;
    }
    uint32_t n = (len - 1) / 6;
    tv_pipe_viewport v[TV_PIPE_MAX_VIEWPORTS];
    if (n > TV_PIPE_MAX_VIEWPORTS) {
        vtest_fail(c, "set_viewport_state: %u viewports (at most %u)", n, TV_PIPE_MAX_VIEWPORTS);
        return -1;
    }
    for (uint32_t i = 0; i < n; i++) {
        const uint32_t *q = p + 1 + 6 * i;
        v[i] = (tv_pipe_viewport){{fl(q[0]), fl(q[1]), fl(q[2])}, {fl(q[3]), fl(q[4]), fl(q[5])}};
    }
    return tv_pipe_set_viewports(c->pipe, p[0], n, v) ? vtest_pipe_fail(c, "set_viewport_state")
                                                      : 0;
}

int vtest_h_set_scissor_state(vtest_conn *c, unsigned obj, const uint32_t *p, uint32_t len)
{
    (void)obj;
    if ((len - 1) % 2 || (len - 1) / 2 > TV_PIPE_MAX_VIEWPORTS) {
        vtest_fail(c, "set_scissor_state: %u dwords are not 1 + 2 per scissor (at most %u)",
                   len, TV_PIPE_MAX_VIEWPORTS);
        return -1;
    }
    uint32_t n = (len - 1) / 2;
    tv_pipe_scissor s[TV_PIPE_MAX_VIEWPORTS];
    for (uint32_t i = 0; i < n; i++) {
        uint32_t a = p[1 + 2 * i], b = p[2 + 2 * i];
        s[i] = (tv_pipe_scissor){a & 0xffff, a >> 16, b & 0xffff, b >> 16};
    }
    return tv_pipe_set_scissors(c->pipe, p[0], n, s) ? vtest_pipe_fail(c, "set_scissor_state") : 0;
}

int vtest_h_set_vertex_buffers(vtest_conn *c, unsigned obj, const uint32_t *p, uint32_t len)
{
    (void)obj;
    if (len % 3 || len / 3 > TV_PIPE_MAX_ATTRIBS) {
        vtest_fail(c, "set_vertex_buffers: %u dwords are not 3 per buffer (at most %u)", len,
                   TV_PIPE_MAX_ATTRIBS);
        return -1;
    }
    tv_pipe_vertex_buffer b[TV_PIPE_MAX_ATTRIBS];
    memset(b, 0, sizeof b);
    for (uint32_t i = 0; i < len / 3; i++)
        b[i] = (tv_pipe_vertex_buffer){p[3 * i], p[3 * i + 1], p[3 * i + 2]};
    /* the buffers from slot 0; the rest unbound */
    return tv_pipe_set_vertex_buffers(c->pipe, 0, TV_PIPE_MAX_ATTRIBS, b)
               ? vtest_pipe_fail(c, "set_vertex_buffers") : 0;
}

int vtest_h_set_index_buffer(vtest_conn *c, unsigned obj, const uint32_t *p, uint32_t len)
{
    (void)obj;
    if (len != 1 && len != 3) {
        vtest_fail(c, "set_index_buffer: %u dwords (1 or 3)", len);
        return -1;
    }
    uint32_t size = len == 3 ? p[1] : 0;
    if (len == 3 && size != 1 && size != 2 && size != 4) {
        vtest_fail(c, "set_index_buffer: index size %u (1, 2 or 4)", size);
        return -1;
    }
    c->sub.index_size = size;
    return tv_pipe_set_index_buffer(c->pipe, p[0], len == 3 ? p[2] : 0)
               ? vtest_pipe_fail(c, "set_index_buffer") : 0;
}

int vtest_h_set_stencil_ref(vtest_conn *c, unsigned obj, const uint32_t *p, uint32_t len)
{
    (void)obj, (void)len;
    tv_pipe_set_stencil_ref(c->pipe, (uint8_t)p[0], (uint8_t)(p[0] >> 8));
    return 0;
}

int vtest_h_set_blend_color(vtest_conn *c, unsigned obj, const uint32_t *p, uint32_t len)
{
    (void)obj, (void)len;
    const float k[4] = {fl(p[0]), fl(p[1]), fl(p[2]), fl(p[3])};
    tv_pipe_set_blend_color(c->pipe, k);
    return 0;
}

int vtest_h_set_sample_mask(vtest_conn *c, unsigned obj, const uint32_t *p, uint32_t len)
{
    (void)obj, (void)len;
    tv_pipe_set_sample_mask(c->pipe, p[0]);
    return 0;
}

int vtest_h_set_clip_state(vtest_conn *c, unsigned obj, const uint32_t *p, uint32_t len)
{
    (void)obj, (void)len;
    float ucp[8][4];
    for (unsigned i = 0; i < 32; i++)
        ucp[i / 4][i % 4] = fl(p[i]);
    tv_pipe_set_clip_planes(c->pipe, (const float(*)[4])ucp);
    return 0;
}

/* set_render_condition: handle (0: none), condition, mode (waiting never blocks). */
int vtest_h_set_render_condition(vtest_conn *c, unsigned obj, const uint32_t *p, uint32_t len)
{
    (void)obj, (void)len;
    return tv_pipe_set_render_condition(c->pipe, p[0], p[1] != 0)
               ? vtest_pipe_fail(c, "set_render_condition") : 0;
}

/* set_streamout_targets: the append mask, then stream-output target handles (each
 * created with resource, offset and size). */
int vtest_h_set_streamout_targets(vtest_conn *c, unsigned obj, const uint32_t *p,
                                  uint32_t len)
{
    (void)obj;
    tv_pipe_so_target t[TV_PIPE_MAX_SO_BUFFERS];
    uint32_t n = len - 1;
    for (uint32_t i = 0; i < n; i++) {
        size_t nd = 0;
        const uint32_t *d = p[1 + i] ? tv_pipe_object_dwords(c->pipe, TV_PIPE_OBJ_STREAMOUT_TARGET,
                                                             p[1 + i], &nd) : NULL;
        if (p[1 + i] && (!d || nd < 3)) {
            vtest_fail(c, "set_streamout_targets: no stream-output target %u", p[1 + i]);
            return -1;
        }
        t[i] = d ? (tv_pipe_so_target){d[0], d[1], d[2], p[1 + i]}
                 : (tv_pipe_so_target){0, 0, 0, 0};
    }
    if (n && p[1])
        c->sub.last_so_target = p[1];
    /* virglrenderer keys transform feedback on the target objects: binding the same targets
       again resumes them (Mesa's virgl driver sends no append bits; a new
       glBeginTransformFeedback creates new targets, which start empty) */
    uint32_t append = p[0];
    for (uint32_t i = 0; i < n; i++)
        if (p[1 + i])
            append |= 1u << i;
    return tv_pipe_set_stream_output_targets(c->pipe, n, t, append)
               ? vtest_pipe_fail(c, "set_streamout_targets") : 0;
}

/* blit: S0 (mask bits 0-7, filter 8-9, scissor 10, render condition 11, alpha blend 12),
 * the scissor (minx | miny << 16, maxx | maxy << 16), then the destination and the source:
 * resource, level, format, x, y, z, w, h, d each. */
int vtest_h_blit(vtest_conn *c, unsigned obj, const uint32_t *p, uint32_t len)
{
    (void)obj, (void)len;
    tv_pipe_blit_info b;
    memset(&b, 0, sizeof b);
    b.mask = bits(p[0], 0, 8);
    b.filter = (uint8_t)bits(p[0], 8, 2);
    b.scissor_enable = bits(p[0], 10, 1);
    b.render_condition_enable = bits(p[0], 11, 1);
    b.alpha_blend = bits(p[0], 12, 1);
    b.scissor = (tv_pipe_scissor){p[1] & 0xffff, p[1] >> 16, p[2] & 0xffff, p[2] >> 16};
    tv_pipe_blit_side *sides[2] = {&b.dst, &b.src};
    for (int k = 0; k < 2; k++) {
        const uint32_t *q = p + 3 + 9 * k;
        *sides[k] = (tv_pipe_blit_side){q[0], q[1], q[2], (int32_t)q[3], (int32_t)q[4],
                                        (int32_t)q[5], (int32_t)q[6], (int32_t)q[7],
                                        (int32_t)q[8]};
    }
    return tv_pipe_blit(c->pipe, &b) ? vtest_pipe_fail(c, "blit") : 0;
}

/* ---- draw_vbo ------------------------------------------------------------------------ */

int vtest_h_draw_vbo(vtest_conn *c, unsigned obj, const uint32_t *p, uint32_t len)
{
    (void)obj;
    if (len != 12 && len != 14 && len != 20) {
        vtest_fail(c, "draw_vbo: payload of %u dwords (12, 14 or 20 expected)", len);
        return -1;
    }
    tv_pipe_draw_info info;
    memset(&info, 0, sizeof info);
    info.count = p[1];
    info.mode = p[2];
    info.index_size = p[3] ? c->sub.index_size : 0;
    if (p[3] && !info.index_size) {
        vtest_fail(c, "draw_vbo: an indexed draw with no index buffer set");
        return -1;
    }
    /* An indexed draw's first index is already in the index buffer's offset: Mesa's virgl
       driver sends offset = start * index size (user indices: the upload's offset of the
       first one) and virglrenderer draws from that offset alone. Counting start again (the
       pipe layer counts it from the bound offset, as Gallium does) drew from past the
       indices of every glDrawElements whose indices did not begin at 0. */
    info.start = info.index_size ? 0 : p[0];
    info.instance_count = p[4];
    info.index_bias = (int32_t)p[5];
    info.start_instance = p[6];
    info.primitive_restart = p[7] != 0;
    info.restart_index = p[8];
    /* DRAW_AUTO: Mesa's virgl driver sends the target's buffer size as a flag, and
       virglrenderer draws from the transform-feedback object last bound: here the first
       target of the last binding */
    if (p[11] && !c->sub.last_so_target) {
        vtest_fail(c, "draw_vbo: a draw from a stream output's vertex count, and no "
                   "stream-output target was ever bound");
        return -1;
    }
    info.count_from_so = p[11] ? c->sub.last_so_target : 0;
    if (len >= 14) {
        info.vertices_per_patch = p[12];
        info.drawid = p[13];
    }
    if (len == 20 && p[14]) {   /* indirect: handle, offset, stride, count, count offset/handle */
        tv_pipe_draw_indirect ind = {p[14], p[15], p[16], p[17], p[19], p[18]};
        return tv_pipe_draw_vbo_indirect(c->pipe, &info, &ind) ? vtest_pipe_fail(c, "draw_vbo")
                                                                : 0;
    }
    return tv_pipe_draw_vbo(c->pipe, &info) ? vtest_pipe_fail(c, "draw_vbo") : 0;
}
