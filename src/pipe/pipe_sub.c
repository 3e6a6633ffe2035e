/* Sub-contexts (virgl's create/set/destroy_sub_ctx): the Gallium contexts of one client —
 * each GL context a program makes — sharing its resources. Each has its own objects (one
 * handle space) and bound state; the current one lives in ctx->sub, the others in
 * ctx->others, and switching swaps the two. */
#include "pipe_internal.h"

#include <stdlib.h>
#include <string.h>

void pipe_sub_init(pipe_sub *s, uint32_t id)
{
    memset(s, 0, sizeof *s);
    s->id = id;
    tv_pipe_rasterizer_default(&s->rast);
    for (unsigned i = 0; i < 8; i++)
        s->blend.rt[i].colormask = 0xf;
    s->sample_mask = ~0u;
    /* the scissors start empty (memset above), as in Gallium's drivers and virglrenderer:
       Mesa's state tracker starts its own copy at zero and sends only a change, so a GL
       context's first glScissor(0, 0, 0, 0) never reaches the driver */
    memset(s->stipple, 0xff, sizeof s->stipple);   /* GL's initial pattern: all ones */
}

void pipe_sub_free(tv_pipe_ctx *ctx, pipe_sub *s)
{
    for (size_t i = 0; i < s->objects.cap; i++) {
        pipe_object *o = tv_handle_map_slot(&s->objects, i);
        if (o)
            pipe_object_free(ctx, o);
    }
    tv_handle_map_free(&s->objects);
    s->nactive = 0;
    for (unsigned st = 0; st < TV_PIPE_STAGES; st++)
        for (unsigned i = 0; i < TV_PIPE_MAX_SLOTS; i++) {
            if (s->consts[st][i].data)
                pipe_uncharge(ctx, (uint64_t)s->consts[st][i].ndw * 4);
            free(s->consts[st][i].data);
            s->consts[st][i].data = NULL;
        }
}

/* Index of sub-context ID among the others, -1. */
static int other_index(const tv_pipe_ctx *ctx, uint32_t id)
{
    for (unsigned k = 0; k < ctx->nothers; k++)
        if (ctx->others[k].id == id)
            return (int)k;
    return -1;
}

uint32_t tv_pipe_sub_current(const tv_pipe_ctx *ctx) { return ctx->sub.id; }

int tv_pipe_sub_create(tv_pipe_ctx *ctx, uint32_t id)
{
    if (id == ctx->sub.id || other_index(ctx, id) >= 0)
        return pipe_fail(ctx, "create_sub_ctx: sub-context %u already exists", id);
    if (ctx->nothers + 1 >= PIPE_MAX_SUBS)
        return pipe_fail(ctx, "create_sub_ctx %u: %u sub-contexts already (at most %u)", id,
                         ctx->nothers + 1, PIPE_MAX_SUBS);
    pipe_sub *grown = realloc(ctx->others, (ctx->nothers + 1) * sizeof *grown);
    if (!grown)
        return pipe_fail(ctx, "create_sub_ctx: out of memory");
    ctx->others = grown;
    pipe_sub_init(&ctx->others[ctx->nothers++], id);
    return 0;
}

int tv_pipe_sub_set(tv_pipe_ctx *ctx, uint32_t id)
{
    if (id == ctx->sub.id)
        return 0;
    int k = other_index(ctx, id);
    if (k < 0)
        return pipe_fail(ctx, "set_sub_ctx: no sub-context %u", id);
    pipe_sub t = ctx->others[k];
    ctx->others[k] = ctx->sub;
    ctx->sub = t;
    return 0;
}

int tv_pipe_sub_destroy(tv_pipe_ctx *ctx, uint32_t id)
{
    if (id == 0)
        return pipe_fail(ctx, "destroy_sub_ctx: sub-context 0 is the context's own");
    if (id == ctx->sub.id && tv_pipe_sub_set(ctx, 0))
        return -1;                     /* the current one: sub-context 0 becomes current */
    int k = other_index(ctx, id);
    if (k < 0)
        return pipe_fail(ctx, "destroy_sub_ctx: no sub-context %u", id);
    pipe_sub_free(ctx, &ctx->others[k]);
    ctx->others[k] = ctx->others[--ctx->nothers];
    return 0;
}
