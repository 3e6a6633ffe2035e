/* Graphics state setters (include/texvm/pipe.h): checked copies into the context; draws
 * read the state current at the draw. */
#include "pipe_internal.h"

#include <string.h>

void tv_pipe_rasterizer_default(tv_pipe_rasterizer_state *r)
{
    memset(r, 0, sizeof *r);
    r->front_ccw = true;
    r->half_pixel_center = true;
    r->multisample = true;      /* GL's MULTISAMPLE is enabled in a new context */
    r->depth_clip_near = r->depth_clip_far = true;
    r->point_size = r->line_width = 1.0f;
}

int tv_pipe_set_blend(tv_pipe_ctx *ctx, const tv_pipe_blend_state *s)
{
    ctx->sub.blend = *s;
    return 0;
}

int tv_pipe_set_dsa(tv_pipe_ctx *ctx, const tv_pipe_dsa_state *s)
{
    ctx->sub.dsa = *s;
    return 0;
}

int tv_pipe_set_rasterizer(tv_pipe_ctx *ctx, const tv_pipe_rasterizer_state *s)
{
    ctx->sub.rast = *s;
    return 0;
}

int tv_pipe_set_vertex_elements(tv_pipe_ctx *ctx, unsigned n, const tv_pipe_vertex_element *e)
{
    if (n > TV_PIPE_MAX_ATTRIBS)
        return pipe_fail(ctx, "vertex elements: %u elements (at most %u)", n,
                         TV_PIPE_MAX_ATTRIBS);
    for (unsigned i = 0; i < n; i++)
        if (e[i].vertex_buffer_index >= TV_PIPE_MAX_ATTRIBS)
            return pipe_fail(ctx, "vertex elements: element %u reads vertex buffer %u (at "
                             "most %u)", i, e[i].vertex_buffer_index, TV_PIPE_MAX_ATTRIBS - 1);
    memcpy(ctx->sub.elements, e, n * sizeof *e);
    ctx->sub.num_elements = n;
    return 0;
}

int tv_pipe_set_vertex_buffers(tv_pipe_ctx *ctx, unsigned start, unsigned n,
                               const tv_pipe_vertex_buffer *b)
{
    if (pipe_slots_check(ctx, "set_vertex_buffers", "slots", start, n, TV_PIPE_MAX_ATTRIBS))
        return -1;
    memcpy(&ctx->sub.vbufs[start], b, n * sizeof *b);
    return 0;
}

int tv_pipe_set_index_buffer(tv_pipe_ctx *ctx, uint32_t res, uint32_t offset)
{
    ctx->sub.index_res = res;
    ctx->sub.index_offset = offset;
    return 0;
}

int tv_pipe_set_viewports(tv_pipe_ctx *ctx, unsigned start, unsigned n,
                          const tv_pipe_viewport *v)
{
    if (pipe_slots_check(ctx, "set_viewport_state", "viewports", start, n,
                         TV_PIPE_MAX_VIEWPORTS))
        return -1;
    memcpy(&ctx->sub.viewports[start], v, n * sizeof *v);
    return 0;
}

int tv_pipe_set_scissors(tv_pipe_ctx *ctx, unsigned start, unsigned n,
                         const tv_pipe_scissor *s)
{
    if (pipe_slots_check(ctx, "set_scissor_state", "scissors", start, n,
                         TV_PIPE_MAX_VIEWPORTS))
        return -1;
    memcpy(&ctx->sub.scissors[start], s, n * sizeof *s);
    return 0;
}

void tv_pipe_set_stencil_ref(tv_pipe_ctx *ctx, uint8_t front, uint8_t back)
{
    ctx->sub.stencil_ref[0] = front;
    ctx->sub.stencil_ref[1] = back;
}

void tv_pipe_set_blend_color(tv_pipe_ctx *ctx, const float color[4])
{
    memcpy(ctx->sub.blend_color, color, sizeof ctx->sub.blend_color);
}

void tv_pipe_set_sample_mask(tv_pipe_ctx *ctx, uint32_t mask)
{
    ctx->sub.sample_mask = mask;
}

void tv_pipe_set_polygon_stipple(tv_pipe_ctx *ctx, const uint32_t pattern[32])
{
    memcpy(ctx->sub.stipple, pattern, sizeof ctx->sub.stipple);
}

void tv_pipe_set_min_samples(tv_pipe_ctx *ctx, uint32_t min_samples)
{
    ctx->sub.min_samples = min_samples;
}

void tv_pipe_set_tess_state(tv_pipe_ctx *ctx, const float outer[4], const float inner[2])
{
    memcpy(ctx->sub.tess_outer, outer, sizeof ctx->sub.tess_outer);
    memcpy(ctx->sub.tess_inner, inner, sizeof ctx->sub.tess_inner);
}

void tv_pipe_set_clip_planes(tv_pipe_ctx *ctx, const float ucp[8][4])
{
    memcpy(ctx->sub.ucp, ucp, sizeof ctx->sub.ucp);
}
