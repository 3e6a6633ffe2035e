/* The virgl command stream (SUBMIT_CMD payload) decoded by one table: every
 * VIRGL_CCMD_* has a row with its name, its payload length rule and its handler.
 * A command header dword is (length << 16) | (object type << 8) | command. */
#include "vtest_internal.h"

#include <stdlib.h>
#include <string.h>

#define VAR 0xffffu
#define SHADER_MAX_TEXT (1u << 22) /* 4 MiB of TGSI text */

typedef int (*ccmd_fn)(vtest_conn *c, unsigned obj, const uint32_t *p, uint32_t len);

enum { ERR = 0, IMPL = 1, REC = 2 };

typedef struct ccmd_row {
    const char *name;
    uint16_t min, max; /* payload dwords */
    uint8_t status;    /* ERR: answered with an error naming it; IMPL; REC: recorded */
    ccmd_fn fn;
} ccmd_row;

int vtest_pipe_fail(vtest_conn *c, const char *cmd)
{
    const char *e = tv_pipe_error(c->pipe);
    size_t n = strlen(cmd);
    if (!strncmp(e, cmd, n) && (e[n] == ':' || e[n] == ' '))
        vtest_fail(c, "%s", e);
    else
        vtest_fail(c, "%s: %s", cmd, e);
    return -1;
}

static int h_nop(vtest_conn *c, unsigned obj, const uint32_t *p, uint32_t len)
{
    (void)c, (void)obj, (void)p, (void)len;
    return 0;
}

/* ---- objects ---------------------------------------------------------------------- */

static int shader_finish(vtest_conn *c)
{
    vtest_pending_shader *s = &c->pending;
    size_t n = strnlen(s->text, s->total);
    int rc = tv_pipe_shader_create(c->pipe, s->handle, s->stage, s->text, n);
    if (!rc && s->so)
        rc = tv_pipe_shader_set_stream_output(c->pipe, s->handle, s->so);
    free(s->text);
    free(s->so);
    memset(s, 0, sizeof *s);
    return rc ? vtest_pipe_fail(c, "create_object") : 0;
}

static int create_shader(vtest_conn *c, const uint32_t *p, uint32_t len)
{
    if (len < 5) {
        vtest_fail(c, "create_object shader: %u dwords, at least 5 needed", len);
        return -1;
    }
    uint32_t handle = p[0], stage = p[1], offlen = p[2], nso = p[4];
    vtest_pending_shader *s = &c->pending;
    uint32_t hdr = 5;
    if (offlen & 0x80000000u) {
        uint32_t off = offlen & 0x7fffffffu;
        if (!s->text || s->handle != handle || off != s->have) {
            vtest_fail(c, "create_object shader %u: continuation at %u does not follow a "
                       "started text (have %u)", handle, off, s->text ? s->have : 0);
            return -1;
        }
    } else {
        if (s->text) {
            vtest_fail(c, "create_object shader %u: shader %u's text is incomplete", handle,
                       s->handle);
            return -1;
        }
        if (stage != 5 && nso) { /* compute (5): dword 4 is req_local_mem */
            if (nso > 64 || len < 5 + 4 + 2 * nso) {
                vtest_fail(c, "create_object shader %u: %u stream outputs do not fit %u "
                           "dwords", handle, nso, len);
                return -1;
            }
            hdr = 5 + 4 + 2 * nso;
        }
        tv_pipe_stream_output_info *so = NULL;
        if (stage != 5 && nso) {
            /* 4 strides, then per output: register | start << 8 | count << 10 |
             * buffer << 13 | dword offset << 16, and the stream */
            so = calloc(1, sizeof *so);
            if (!so) {
                vtest_fail(c, "create_object shader %u: out of memory", handle);
                return -1;
            }
            so->num_outputs = nso;
            for (unsigned b = 0; b < 4; b++)
                so->stride[b] = (uint16_t)p[5 + b];
            for (uint32_t i = 0; i < nso; i++) {
                uint32_t w = p[9 + 2 * i];
                so->output[i] = (tv_pipe_stream_output){
                    (uint8_t)(w & 0xff), (uint8_t)((w >> 8) & 3), (uint8_t)((w >> 10) & 7),
                    (uint8_t)((w >> 13) & 7), (uint8_t)(p[10 + 2 * i] & 3),
                    (uint16_t)(w >> 16)};
            }
        }
        if (offlen == 0 || offlen > SHADER_MAX_TEXT) {
            free(so);
            vtest_fail(c, "create_object shader %u: text length %u out of range (1..%u)",
                       handle, offlen, SHADER_MAX_TEXT);
            return -1;
        }
        s->text = calloc(1, offlen);
        if (!s->text) {
            free(so);
            vtest_fail(c, "create_object shader %u: out of memory", handle);
            return -1;
        }
        s->so = so;
        s->handle = handle, s->stage = stage, s->total = offlen, s->have = 0;
    }
    size_t bytes = (size_t)(len - hdr) * 4, room = s->total - s->have;
    memcpy(s->text + s->have, p + hdr, bytes < room ? bytes : room);
    s->have += (uint32_t)(bytes < room ? bytes : room);
    return s->have == s->total ? shader_finish(c) : 0;
}

static int h_create_object(vtest_conn *c, unsigned obj, const uint32_t *p, uint32_t len)
{
    if (obj == TV_PIPE_OBJ_SHADER)
        return create_shader(c, p, len);
    if (obj == TV_PIPE_OBJ_QUERY)
        return vtest_query_create(c, p, len);
    if (len < 1) {
        vtest_fail(c, "create_object: no handle");
        return -1;
    }
    if (obj == TV_PIPE_OBJ_SURFACE) {
        if (len != 5) {
            vtest_fail(c, "create_object surface: %u dwords, 5 expected", len);
            return -1;
        }
        if (tv_pipe_surface_create(c->pipe, p[0], p[1], p[2], p[3], p[4] & 0xffff, p[4] >> 16))
            return vtest_pipe_fail(c, "create_object");
        return 0;
    }
    /* Objects that name a resource: check it exists now (use-after-destroy). */
    if ((obj == TV_PIPE_OBJ_SAMPLER_VIEW || obj == TV_PIPE_OBJ_STREAMOUT_TARGET) &&
        (len < 2 || !tv_pipe_resource_size(c->pipe, p[1]))) {
        vtest_fail(c, "create_object %s %u: no resource %u",
                   obj == TV_PIPE_OBJ_SAMPLER_VIEW ? "sampler_view" : "streamout_target",
                   p[0], len < 2 ? 0 : p[1]);
        return -1;
    }
    if (obj == TV_PIPE_OBJ_MSAA_SURFACE) {
        vtest_fail(c, "create_object msaa_surface: multisampling is not implemented");
        return -1;
    }
    if (vtest_state_object_check(c, obj, p[0], len - 1))
        return -1;
    if (tv_pipe_object_create(c->pipe, obj, p[0], p + 1, len - 1))
        return vtest_pipe_fail(c, "create_object");
    return 0;
}

static int h_bind_object(vtest_conn *c, unsigned obj, const uint32_t *p, uint32_t len)
{
    (void)len;
    if (tv_pipe_object_bind(c->pipe, obj, p[0]))
        return vtest_pipe_fail(c, "bind_object");
    return vtest_state_object_bind(c, obj, p[0]);
}

static int h_destroy_object(vtest_conn *c, unsigned obj, const uint32_t *p, uint32_t len)
{
    (void)len;
    if (tv_pipe_object_destroy(c->pipe, obj, p[0]))
        return vtest_pipe_fail(c, "destroy_object");
    if (obj == TV_PIPE_OBJ_QUERY)
        vtest_query_forget(c, p[0]);
    return 0;
}

/* ---- framebuffer, clears, copies, transfers ---------------------------------------- */

static int h_set_framebuffer(vtest_conn *c, unsigned obj, const uint32_t *p, uint32_t len)
{
    (void)obj;
    if (p[0] > TV_PIPE_MAX_CBUFS || len != 2 + p[0]) {
        vtest_fail(c, "set_framebuffer_state: %u colour buffers in %u dwords", p[0], len);
        return -1;
    }
    return tv_pipe_set_framebuffer(c->pipe, p[0], p + 2, p[1])
               ? vtest_pipe_fail(c, "set_framebuffer_state") : 0;
}

static int h_clear(vtest_conn *c, unsigned obj, const uint32_t *p, uint32_t len)
{
    (void)obj, (void)len;
    uint64_t bits = (uint64_t)p[5] | ((uint64_t)p[6] << 32);
    double depth;
    memcpy(&depth, &bits, sizeof depth);
    if (depth != depth) {
        vtest_fail(c, "clear: depth is NaN");
        return -1;
    }
    return tv_pipe_clear(c->pipe, p[0], p + 1, depth, p[7]) ? vtest_pipe_fail(c, "clear") : 0;
}

static int h_clear_texture(vtest_conn *c, unsigned obj, const uint32_t *p, uint32_t len)
{
    (void)obj, (void)len;
    tv_pipe_box b = {p[2], p[3], p[4], p[5], p[6], p[7]};
    uint8_t texel[16];
    memcpy(texel, p + 8, 16);
    return tv_pipe_clear_texture(c->pipe, p[0], p[1], &b, texel) ? vtest_pipe_fail(c, "clear_texture")
                                                                 : 0;
}

static int h_copy_region(vtest_conn *c, unsigned obj, const uint32_t *p, uint32_t len)
{
    (void)obj, (void)len;
    tv_pipe_box b = {p[7], p[8], p[9], p[10], p[11], p[12]};
    return tv_pipe_resource_copy_region(c->pipe, p[0], p[1], p[2], p[3], p[4], p[5], p[6], &b)
               ? vtest_pipe_fail(c, "resource_copy_region") : 0;
}

static int h_inline_write(vtest_conn *c, unsigned obj, const uint32_t *p, uint32_t len)
{
    (void)obj;
    tv_pipe_box b = {p[5], p[6], p[7], p[8], p[9], p[10]};
    return tv_pipe_transfer_write(c->pipe, p[0], p[1], &b, p + 11, (size_t)(len - 11) * 4, 0,
                                  p[3], p[4]) ? vtest_pipe_fail(c, "resource_inline_write") : 0;
}

static int h_transfer3d(vtest_conn *c, unsigned obj, const uint32_t *p, uint32_t len)
{
    (void)obj, (void)len;
    vtest_shm *m = vtest_shm_find(c, p[0]);
    if (!m) {
        vtest_fail(c, "transfer3d: resource %u has no shared memory (protocol %u)", p[0],
                   c->version);
        return -1;
    }
    tv_pipe_box b = {p[5], p[6], p[7], p[8], p[9], p[10]};
    int rc;
    if (vtest_rec_shm(c, m)) /* the client's writes so far: recorded, or restored */
        return -1;
    if (p[12] == 1) /* VIRGL_TRANSFER_TO_HOST */
        rc = tv_pipe_transfer_write(c->pipe, p[0], p[1], &b, m->ptr, m->size, p[11], p[3], p[4]);
    else if (p[12] == 2) { /* VIRGL_TRANSFER_FROM_HOST */
        rc = tv_pipe_transfer_read(c->pipe, p[0], p[1], &b, m->ptr, m->size, p[11], p[3], p[4]);
        vtest_rec_server_wrote(c, m);
        vtest_rec_readback(c, p[0]);
    } else {
        vtest_fail(c, "transfer3d: unknown direction %u", p[12]);
        return -1;
    }
    return rc ? vtest_pipe_fail(c, "transfer3d") : 0;
}

/* ---- sub-contexts: the pipe layer's (tv_pipe_sub_*), and the decoder's vtest_sub -------- */

static int other_sub(const vtest_conn *c, uint32_t id)
{
    for (unsigned k = 0; k < c->nothers; k++)
        if (c->others[k].id == id)
            return (int)k;
    return -1;
}

static int h_create_sub_ctx(vtest_conn *c, unsigned obj, const uint32_t *p, uint32_t len)
{
    (void)obj, (void)len;
    vtest_sub *grown = realloc(c->others, (c->nothers + 1) * sizeof *grown);
    if (!grown) {
        vtest_fail(c, "create_sub_ctx: out of memory");
        return -1;
    }
    c->others = grown;
    if (tv_pipe_sub_create(c->pipe, p[0]))   /* exists already, or too many */
        return vtest_pipe_fail(c, "create_sub_ctx");
    memset(&c->others[c->nothers], 0, sizeof c->others[0]);
    c->others[c->nothers++].id = p[0];
    return 0;
}

static int h_set_sub_ctx(vtest_conn *c, unsigned obj, const uint32_t *p, uint32_t len)
{
    (void)obj, (void)len;
    if (p[0] == c->sub.id)
        return 0;
    if (tv_pipe_sub_set(c->pipe, p[0]))
        return vtest_pipe_fail(c, "set_sub_ctx");
    int k = other_sub(c, p[0]);        /* the pipe layer has it, so the decoder has too */
    vtest_sub t = c->others[k];
    c->others[k] = c->sub;
    c->sub = t;
    return 0;
}

static int h_destroy_sub_ctx(vtest_conn *c, unsigned obj, const uint32_t *p, uint32_t len)
{
    (void)obj, (void)len;
    if (tv_pipe_sub_destroy(c->pipe, p[0]))
        return vtest_pipe_fail(c, "destroy_sub_ctx");
    if (p[0] == c->sub.id) {           /* it was current: sub-context 0 is now */
        int z = other_sub(c, 0);
        vtest_sub t = c->others[z];
        c->others[z] = c->sub;
        c->sub = t;
    }
    int k = other_sub(c, p[0]);
    vtest_queries_free(&c->others[k]);
    c->others[k] = c->others[--c->nothers];
    return 0;
}

static int h_bind_shader(vtest_conn *c, unsigned obj, const uint32_t *p, uint32_t len)
{
    (void)obj, (void)len;
    return tv_pipe_bind_shader(c->pipe, p[1], p[0]) ? vtest_pipe_fail(c, "bind_shader") : 0;
}

/* ---- compute bindings and launch_grid ---------------------------------------------- */

static int h_set_constant_buffer(vtest_conn *c, unsigned obj, const uint32_t *p, uint32_t len)
{
    (void)obj;
    return tv_pipe_set_constant_buffer(c->pipe, p[0], p[1], 0, 0, 0, p + 2, len - 2)
               ? vtest_pipe_fail(c, "set_constant_buffer") : 0;
}

static int h_set_uniform_buffer(vtest_conn *c, unsigned obj, const uint32_t *p, uint32_t len)
{
    (void)obj, (void)len;
    if (!p[4]) /* an unbound slot */
        return tv_pipe_set_constant_buffer(c->pipe, p[0], p[1], 0, 0, 0, NULL, 0)
                   ? vtest_pipe_fail(c, "set_uniform_buffer") : 0;
    return tv_pipe_set_constant_buffer(c->pipe, p[0], p[1], p[4], p[2], p[3], NULL, 0)
               ? vtest_pipe_fail(c, "set_uniform_buffer") : 0;
}

static int h_set_shader_buffers(vtest_conn *c, unsigned obj, const uint32_t *p, uint32_t len)
{
    (void)obj;
    if ((len - 2) % 3 || (len - 2) / 3 > TV_PIPE_MAX_SLOTS) {
        vtest_fail(c, "set_shader_buffers: %u dwords are not 2 + 3 per buffer", len);
        return -1;
    }
    tv_pipe_buffer_binding b[TV_PIPE_MAX_SLOTS];
    uint32_t n = (len - 2) / 3;
    for (uint32_t i = 0; i < n; i++)
        b[i] = (tv_pipe_buffer_binding){p[2 + 3 * i + 2], p[2 + 3 * i], p[2 + 3 * i + 1]};
    return tv_pipe_set_shader_buffers(c->pipe, p[0], p[1], n, b)
               ? vtest_pipe_fail(c, "set_shader_buffers") : 0;
}

static int h_set_atomic_buffers(vtest_conn *c, unsigned obj, const uint32_t *p, uint32_t len)
{
    (void)obj;
    if ((len - 1) % 3 || (len - 1) / 3 > TV_PIPE_MAX_SLOTS) {
        vtest_fail(c, "set_atomic_buffers: %u dwords are not 1 + 3 per buffer", len);
        return -1;
    }
    tv_pipe_buffer_binding b[TV_PIPE_MAX_SLOTS];
    uint32_t n = (len - 1) / 3;
    for (uint32_t i = 0; i < n; i++)   /* offset, length, resource */
        b[i] = (tv_pipe_buffer_binding){p[1 + 3 * i + 2], p[1 + 3 * i], p[1 + 3 * i + 1]};
    return tv_pipe_set_hw_atomic_buffers(c->pipe, p[0], n, b)
               ? vtest_pipe_fail(c, "set_atomic_buffers") : 0;
}

static int h_set_shader_images(vtest_conn *c, unsigned obj, const uint32_t *p, uint32_t len)
{
    (void)obj;
    if ((len - 2) % 5 || (len - 2) / 5 > TV_PIPE_MAX_SLOTS) {
        vtest_fail(c, "set_shader_images: %u dwords are not 2 + 5 per image", len);
        return -1;
    }
    tv_pipe_image_binding b[TV_PIPE_MAX_SLOTS];
    uint32_t n = (len - 2) / 5;
    for (uint32_t i = 0; i < n; i++) {
        const uint32_t *q = p + 2 + 5 * i; /* format, access, offset, size, res */
        /* Gallium's pipe_image_view union: textures give first_layer | last_layer << 16
         * and the level; buffers a byte offset and size. The pipe layer picks by the
         * resource's target. */
        b[i] = (tv_pipe_image_binding){q[4], q[0], q[3] & 0xff, q[2] & 0xffff, q[2] >> 16,
                                       q[2], q[3]};
    }
    return tv_pipe_set_shader_images(c->pipe, p[0], p[1], n, b)
               ? vtest_pipe_fail(c, "set_shader_images") : 0;
}

/* outer levels 0..3, inner 0..1, as floats */
static int h_set_tess_state(vtest_conn *c, unsigned obj, const uint32_t *p, uint32_t len)
{
    (void)obj, (void)len;
    float f[6];
    memcpy(f, p, sizeof f);
    tv_pipe_set_tess_state(c->pipe, f, f + 4);
    return 0;
}

static int h_set_fb_no_attach(vtest_conn *c, unsigned obj, const uint32_t *p, uint32_t len)
{
    (void)obj, (void)len;
    /* width | height << 16, layers | samples << 16 */
    return tv_pipe_set_framebuffer_no_attach(c->pipe, p[0] & 0xffff, p[0] >> 16, p[1] & 0xffff,
                                             (p[1] >> 16) & 0xff)
               ? vtest_pipe_fail(c, "set_framebuffer_state_no_attach") : 0;
}

static int h_set_polygon_stipple(vtest_conn *c, unsigned obj, const uint32_t *p, uint32_t len)
{
    (void)obj, (void)len;
    tv_pipe_set_polygon_stipple(c->pipe, p);   /* 32 rows, checked by the table */
    return 0;
}

static int h_set_min_samples(vtest_conn *c, unsigned obj, const uint32_t *p, uint32_t len)
{
    (void)obj, (void)len;
    tv_pipe_set_min_samples(c->pipe, p[0]);
    return 0;
}

static int h_launch_grid(vtest_conn *c, unsigned obj, const uint32_t *p, uint32_t len)
{
    (void)obj, (void)len;
    int rc = p[6] ? tv_pipe_launch_grid_indirect(c->pipe, p, p[6], p[7])   /* grid from it */
                  : tv_pipe_launch_grid(c->pipe, p, p + 3);
    return rc ? vtest_pipe_fail(c, "launch_grid") : 0;
}

/* ---- the table -------------------------------------------------------------------- */

static const ccmd_row table[VTEST_NUM_CCMDS] = {
    [0] = {"nop", 0, VAR, IMPL, h_nop},
    [1] = {"create_object", 0, VAR, IMPL, h_create_object},
    [2] = {"bind_object", 1, 1, IMPL, h_bind_object},
    [3] = {"destroy_object", 1, 1, IMPL, h_destroy_object},
    [4] = {"set_viewport_state", 1, VAR, IMPL, vtest_h_set_viewport_state},
    [5] = {"set_framebuffer_state", 2, 2 + TV_PIPE_MAX_CBUFS, IMPL, h_set_framebuffer},
    [6] = {"set_vertex_buffers", 0, VAR, IMPL, vtest_h_set_vertex_buffers},
    [7] = {"clear", 8, 8, IMPL, h_clear},
    [8] = {"draw_vbo", 12, 20, IMPL, vtest_h_draw_vbo},
    [9] = {"resource_inline_write", 11, VAR, IMPL, h_inline_write},
    [10] = {"set_sampler_views", 2, VAR, IMPL, vtest_h_set_sampler_views},
    [11] = {"set_index_buffer", 1, 3, IMPL, vtest_h_set_index_buffer},
    [12] = {"set_constant_buffer", 2, VAR, IMPL, h_set_constant_buffer},
    [13] = {"set_stencil_ref", 1, 1, IMPL, vtest_h_set_stencil_ref},
    [14] = {"set_blend_color", 4, 4, IMPL, vtest_h_set_blend_color},
    [15] = {"set_scissor_state", 1, VAR, IMPL, vtest_h_set_scissor_state},
    [16] = {"blit", 21, 21, IMPL, vtest_h_blit},
    [17] = {"resource_copy_region", 13, 13, IMPL, h_copy_region},
    [18] = {"bind_sampler_states", 2, VAR, IMPL, vtest_h_bind_sampler_states},
    [19] = {"begin_query", 1, 1, IMPL, vtest_h_begin_query},
    [20] = {"end_query", 1, 1, IMPL, vtest_h_end_query},
    [21] = {"get_query_result", 2, 2, IMPL, vtest_h_get_query_result},
    [22] = {"set_polygon_stipple", 32, 32, IMPL, h_set_polygon_stipple},
    [23] = {"set_clip_state", 32, 32, IMPL, vtest_h_set_clip_state},
    [24] = {"set_sample_mask", 1, 1, IMPL, vtest_h_set_sample_mask},
    [25] = {"set_streamout_targets", 1, 1 + TV_PIPE_MAX_SO_BUFFERS, IMPL,
            vtest_h_set_streamout_targets},
    [26] = {"set_render_condition", 3, 3, IMPL, vtest_h_set_render_condition},
    [27] = {"set_uniform_buffer", 5, 5, IMPL, h_set_uniform_buffer},
    [28] = {"set_sub_ctx", 1, 1, IMPL, h_set_sub_ctx},
    [29] = {"create_sub_ctx", 1, 1, IMPL, h_create_sub_ctx},
    [30] = {"destroy_sub_ctx", 1, 1, IMPL, h_destroy_sub_ctx},
    [31] = {"bind_shader", 2, 2, IMPL, h_bind_shader},
    [32] = {"set_tess_state", 6, 6, IMPL, h_set_tess_state},
    [33] = {"set_min_samples", 1, 1, IMPL, h_set_min_samples},
    [34] = {"set_shader_buffers", 2, VAR, IMPL, h_set_shader_buffers},
    [35] = {"set_shader_images", 2, VAR, IMPL, h_set_shader_images},
    [36] = {"memory_barrier", 1, 1, IMPL, h_nop},   /* every operation is synchronous */
    [37] = {"launch_grid", 8, 8, IMPL, h_launch_grid},
    [38] = {"set_framebuffer_state_no_attach", 2, 2, IMPL, h_set_fb_no_attach},
    [39] = {"texture_barrier", 1, 1, IMPL, h_nop},  /* every operation is synchronous */
    [40] = {"set_atomic_buffers", 1, VAR, IMPL, h_set_atomic_buffers},
    [41] = {"set_debug_flags", 0, VAR, REC, NULL},
    [42] = {"get_query_result_qbo", 6, 6, IMPL, vtest_h_get_query_result_qbo},
    [43] = {"transfer3d", 13, 13, IMPL, h_transfer3d},
    [44] = {"end_transfers", 0, 0, IMPL, h_nop},    /* transfers complete when decoded */
    [45] = {"copy_transfer3d", 0, VAR, ERR, NULL},
    [46] = {"set_tweaks", 2, 2, REC, NULL},
    [47] = {"clear_texture", 12, 12, IMPL, h_clear_texture},
    [48] = {"pipe_resource_create", 0, VAR, ERR, NULL},
    [49] = {"pipe_resource_set_type", 0, VAR, ERR, NULL},
    [50] = {"get_memory_info", 0, VAR, ERR, NULL},
    [51] = {"send_string_marker", 1, VAR, REC, NULL},
    [52] = {"link_shader", 0, VAR, ERR, NULL},
    [53] = {"create_video_codec", 0, VAR, ERR, NULL},
    [54] = {"destroy_video_codec", 0, VAR, ERR, NULL},
    [55] = {"create_video_buffer", 0, VAR, ERR, NULL},
    [56] = {"destroy_video_buffer", 0, VAR, ERR, NULL},
    [57] = {"begin_frame", 0, VAR, ERR, NULL},
    [58] = {"decode_macroblock", 0, VAR, ERR, NULL},
    [59] = {"decode_bitstream", 0, VAR, ERR, NULL},
    [60] = {"encode_bitstream", 0, VAR, ERR, NULL},
    [61] = {"end_frame", 0, VAR, ERR, NULL},
    [62] = {"clear_surface", 0, VAR, ERR, NULL},
    [63] = {"get_pipe_resource_layout", 0, VAR, ERR, NULL},
};

/* Keep the last payload of a state command (interpreted when draws arrive). */
static int record(vtest_conn *c, unsigned cmd, const uint32_t *p, uint32_t len)
{
    uint32_t *copy = len ? malloc((size_t)len * 4) : NULL;
    if (len && !copy) {
        vtest_fail(c, "%s: out of memory", table[cmd].name);
        return -1;
    }
    if (len)
        memcpy(copy, p, (size_t)len * 4);
    free(c->recorded[cmd]);
    c->recorded[cmd] = copy;
    c->recorded_len[cmd] = len;
    return 0;
}

void vtest_decode(vtest_conn *c, const uint32_t *dw, size_t ndw)
{
    size_t i = 0;
    while (i < ndw && !c->failed) {
        uint32_t h = dw[i], cmd = h & 0xff, obj = (h >> 8) & 0xff, len = h >> 16;
        if (len > ndw - i - 1) {
            vtest_fail(c, "command %u (%s) at dword %zu: length %u overruns the %zu-dword "
                       "buffer", cmd, cmd < VTEST_NUM_CCMDS ? table[cmd].name : "unknown", i,
                       len, ndw);
            return;
        }
        const uint32_t *p = dw + i + 1;
        if (cmd >= VTEST_NUM_CCMDS) {
            vtest_fail(c, "unknown command %u at dword %zu", cmd, i);
            return;
        }
        const ccmd_row *r = &table[cmd];
        if (r->status == ERR) {
            vtest_fail(c, "%s: not implemented by texvm", r->name);
            return;
        }
        if (len < r->min || (r->max != VAR && len > r->max)) {
            if (r->max == VAR)
                vtest_fail(c, "%s: payload of %u dwords (at least %u expected)", r->name, len,
                           r->min);
            else
                vtest_fail(c, "%s: payload of %u dwords (%u..%u expected)", r->name, len,
                           r->min, r->max);
            return;
        }
        if (r->status == REC ? record(c, cmd, p, len) : r->fn(c, obj, p, len))
            return;
        i += 1 + len;
    }
}

int tv_vtest_ccmd_info(unsigned cmd, const char **name)
{
    if (cmd >= VTEST_NUM_CCMDS)
        return -1;
    if (name)
        *name = table[cmd].name;
    return table[cmd].status;
}

unsigned tv_vtest_ccmd_count(void) { return VTEST_NUM_CCMDS; }
