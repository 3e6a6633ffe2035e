/* Stream output (include/texvm/pipe.h): the last vertex stage's outputs written to buffer
 * resources, primitive by primitive in draw order (each instance's primitives in turn,
 * strips as separate primitives with their winding-preserving vertex order), a primitive
 * written only when it fits every buffer it uses (GL 4.6 §13.3: then writing stops for the
 * draw). Fill levels persist across draws; appending keeps them.
 * docs/pipeline-geometry.md §Stream output. */
#include "pipe_draw.h"

#include <stdlib.h>
#include <string.h>

int tv_pipe_shader_set_stream_output(tv_pipe_ctx *ctx, uint32_t shader,
                                     const tv_pipe_stream_output_info *info)
{
    pipe_object *o = pipe_object_find(ctx, TV_PIPE_OBJ_SHADER, shader);
    if (!o)
        return pipe_fail(ctx, "stream output: no shader %u", shader);
    if (info->num_outputs > TV_PIPE_MAX_SO_OUTPUTS)
        return pipe_fail(ctx, "stream output of shader %u: %u outputs (at most %u)", shader,
                         info->num_outputs, TV_PIPE_MAX_SO_OUTPUTS);
    for (unsigned i = 0; i < info->num_outputs; i++) {
        const tv_pipe_stream_output *so = &info->output[i];
        if (so->output_buffer >= TV_PIPE_MAX_SO_BUFFERS || !so->num_components ||
            so->start_component + so->num_components > 4 ||
            so->register_index >= TV_VM_MAX_ATTRIBS ||
            so->dst_offset + so->num_components > info->stride[so->output_buffer])
            return pipe_fail(ctx, "stream output %u of shader %u: register %u components "
                             "%u+%u to buffer %u at dword %u do not fit (stride %u)", i, shader,
                             so->register_index, so->start_component, so->num_components,
                             so->output_buffer, so->dst_offset,
                             so->output_buffer < TV_PIPE_MAX_SO_BUFFERS
                                 ? info->stride[so->output_buffer] : 0);
        if (so->stream >= TV_PIPE_MAX_STREAMS || (so->stream && o->stage != TV_PIPE_STAGE_GEOMETRY))
            return pipe_fail(ctx, "stream output %u of shader %u: stream %u (0..3, and only "
                             "a geometry shader has more than stream 0)", i, shader,
                             so->stream);
    }
    tv_pipe_stream_output_info *copy = malloc(sizeof *copy);
    if (!copy)
        return pipe_fail(ctx, "out of memory");
    *copy = *info;
    free(o->so);
    o->so = info->num_outputs ? copy : NULL;
    if (!info->num_outputs)
        free(copy);
    return 0;
}

int tv_pipe_set_stream_output_targets(tv_pipe_ctx *ctx, unsigned n, const tv_pipe_so_target *t,
                                      uint32_t append_mask)
{
    if (n > TV_PIPE_MAX_SO_BUFFERS)
        return pipe_fail(ctx, "set_streamout_targets: %u targets (at most %u)", n,
                         TV_PIPE_MAX_SO_BUFFERS);
    for (unsigned i = 0; i < n; i++) {
        if (t[i].res && !pipe_resource_find(ctx, t[i].res))
            return pipe_fail(ctx, "set_streamout_targets: no resource %u", t[i].res);
        if (t[i].handle && !pipe_object_find(ctx, TV_PIPE_OBJ_STREAMOUT_TARGET, t[i].handle))
            return pipe_fail(ctx, "set_streamout_targets: no stream-output target %u",
                             t[i].handle);
    }
    pipe_so_save(ctx);
    for (unsigned i = 0; i < TV_PIPE_MAX_SO_BUFFERS; i++) {
        tv_pipe_so_target none = {0, 0, 0, 0};
        ctx->sub.so[i] = i < n ? t[i] : none;
        bool append = i < n && ((append_mask >> i) & 1u);
        pipe_object *o = ctx->sub.so[i].handle ? pipe_object_find(ctx, TV_PIPE_OBJ_STREAMOUT_TARGET,
                                                              ctx->sub.so[i].handle) : NULL;
        if (o && !append)
            o->so_filled = 0;
        if (o)
            ctx->sub.so_filled[i] = o->so_filled;
        else if (!append)
            ctx->sub.so_filled[i] = 0;
    }
    return 0;
}

void pipe_so_save(tv_pipe_ctx *ctx)
{
    for (unsigned i = 0; i < TV_PIPE_MAX_SO_BUFFERS; i++) {
        pipe_object *o = ctx->sub.so[i].handle ? pipe_object_find(ctx, TV_PIPE_OBJ_STREAMOUT_TARGET,
                                                              ctx->sub.so[i].handle) : NULL;
        if (o) {
            o->so_filled = ctx->sub.so_filled[i];
            o->so_stride = ctx->sub.so_stride[i];
        }
    }
}

int pipe_so_auto_count(tv_pipe_ctx *ctx, uint32_t handle, uint32_t *count)
{
    pipe_so_save(ctx);
    const pipe_object *o = pipe_object_find(ctx, TV_PIPE_OBJ_STREAMOUT_TARGET, handle);
    if (!o)
        return pipe_fail(ctx, "draw_vbo: DRAW_AUTO from stream-output target %u, which does "
                         "not exist", handle);
    *count = o->so_stride ? o->so_filled / o->so_stride : 0;
    return 0;
}

bool pipe_so_active(const tv_pipe_ctx *ctx, const tv_pipe_stream_output_info *info)
{
    if (!info)
        return false;
    for (unsigned i = 0; i < TV_PIPE_MAX_SO_BUFFERS; i++)
        if (ctx->sub.so[i].res)
            return true;
    return false;
}

int draw_stream_output(draw_state *d, unsigned stream, uint32_t inst, const draw_tri *t)
{
    tv_pipe_ctx *ctx = d->ctx;
    const tv_pipe_stream_output_info *info = d->so;
    if (d->so_stopped[stream]) {
        pipe_queries_count_overflow(ctx, stream);   /* needed storage past what was written */
        return 0;
    }
    /* where each buffer of this stream's outputs gets its vertices, and whether the
     * primitive fits */
    uint8_t *base[TV_PIPE_MAX_SO_BUFFERS] = {0};
    bool used[TV_PIPE_MAX_SO_BUFFERS] = {false};
    for (unsigned i = 0; i < info->num_outputs; i++)
        if (info->output[i].stream == stream)
            used[info->output[i].output_buffer] = true;
    for (unsigned b = 0; b < TV_PIPE_MAX_SO_BUFFERS; b++) {
        if (!used[b] || !ctx->sub.so[b].res)
            continue;
        pipe_resource *r = pipe_resource_find(ctx, ctx->sub.so[b].res);
        if (!r)
            return pipe_fail(ctx, "draw_vbo: stream output %u: resource %u was destroyed", b,
                             ctx->sub.so[b].res);
        uint64_t end = (uint64_t)ctx->sub.so[b].offset + ctx->sub.so[b].size;
        if (end > r->size)
            return pipe_fail(ctx, "draw_vbo: stream output %u: %u+%u bytes outside resource %u "
                             "(%zu bytes)", b, ctx->sub.so[b].offset, ctx->sub.so[b].size,
                             ctx->sub.so[b].res, r->size);
        uint64_t need = (uint64_t)t->n * info->stride[b] * 4;
        if (ctx->sub.so_filled[b] + need > ctx->sub.so[b].size) {
            d->so_stopped[stream] = true;   /* overflow: no more of this stream this draw */
            pipe_queries_count_overflow(ctx, stream);
            return 0;
        }
        base[b] = r->data + ctx->sub.so[b].offset;
    }
    for (unsigned k = 0; k < t->n; k++) {
        for (unsigned i = 0; i < info->num_outputs; i++) {
            const tv_pipe_stream_output *o = &info->output[i];
            unsigned b = o->output_buffer;
            if (!base[b] || o->stream != stream)
                continue;
            uint32_t words[4] = {0, 0, 0, 0};
            if (d->out[o->register_index])
                memcpy(words, draw_vs_out(d, o->register_index, inst, t->v[k]), 16);
            memcpy(base[b] + ctx->sub.so_filled[b] + (size_t)o->dst_offset * 4,
                   words + o->start_component, (size_t)o->num_components * 4);
        }
        for (unsigned b = 0; b < TV_PIPE_MAX_SO_BUFFERS; b++)
            if (base[b]) {
                ctx->sub.so_filled[b] += (uint32_t)info->stride[b] * 4;
                ctx->sub.so_stride[b] = (uint32_t)info->stride[b] * 4;
            }
    }
    d->so_prims[stream]++;
    return 0;
}
