/* Queries and conditional rendering (include/texvm/pipe.h): query objects count while
 * active; draws report what they counted (pipe_queries_count); results are read as of
 * the last end. Every operation is complete when its call returns, so results are always
 * available and waiting never blocks. */
#include "pipe_internal.h"

#include <string.h>
#include <time.h>

static uint64_t now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}


/* The largest index of each type (0: none); primitive and overflow queries name a vertex
 * stream, pipeline statistics a counter. */
static const uint8_t max_index[TV_PIPE_QUERY_TYPES] = {
    [TV_PIPE_QUERY_PRIMITIVES_GENERATED] = TV_PIPE_MAX_STREAMS - 1,
    [TV_PIPE_QUERY_PRIMITIVES_EMITTED] = TV_PIPE_MAX_STREAMS - 1,
    [TV_PIPE_QUERY_SO_OVERFLOW_PREDICATE] = TV_PIPE_MAX_STREAMS - 1,
    [TV_PIPE_QUERY_SO_STATISTICS] = TV_PIPE_MAX_STREAMS - 1,
    [TV_PIPE_QUERY_PIPELINE_STATISTICS] = TV_PIPE_STATS - 1,
};

int tv_pipe_query_create(tv_pipe_ctx *ctx, uint32_t handle, uint32_t type, uint32_t index)
{
    if (type >= TV_PIPE_QUERY_TYPES)
        return pipe_fail(ctx, "create_query %u: unknown query type %u", handle, type);
    if (index > max_index[type])
        return pipe_fail(ctx, "create_query %u: index %u (at most %u for this type: a vertex "
                         "stream or a statistics counter)", handle, index, max_index[type]);
    if (tv_pipe_object_create(ctx, TV_PIPE_OBJ_QUERY, handle, NULL, 0))
        return -1;
    pipe_object *o = pipe_object_find(ctx, TV_PIPE_OBJ_QUERY, handle);
    o->qtype = (uint8_t)type;
    o->qindex = (uint8_t)index;
    return 0;
}

static pipe_object *query(tv_pipe_ctx *ctx, uint32_t handle, const char *op)
{
    pipe_object *o = pipe_object_find(ctx, TV_PIPE_OBJ_QUERY, handle);
    if (!o)
        pipe_fail(ctx, "%s: no query %u", op, handle);
    return o;
}

int tv_pipe_begin_query(tv_pipe_ctx *ctx, uint32_t handle)
{
    pipe_object *o = query(ctx, handle, "begin_query");
    if (!o)
        return -1;
    if (o->qtype == TV_PIPE_QUERY_TIMESTAMP || o->qtype == TV_PIPE_QUERY_GPU_FINISHED)
        return pipe_fail(ctx, "begin_query %u: a %s query has no begin", handle,
                         o->qtype == TV_PIPE_QUERY_TIMESTAMP ? "timestamp" : "GPU-finished");
    if (!o->qactive) {
        if (ctx->sub.nactive == PIPE_MAX_ACTIVE_QUERIES)
            return pipe_fail(ctx, "begin_query %u: %u queries are counting already (at most "
                             "%u at once)", handle, ctx->sub.nactive, PIPE_MAX_ACTIVE_QUERIES);
        ctx->sub.active[ctx->sub.nactive++] = o;
    }
    o->qactive = true;
    o->qcount = o->qcount2 = 0;
    o->qbegin_ns = now_ns();
    return 0;
}

void pipe_query_deactivate(pipe_sub *s, pipe_object *o)
{
    if (!o->qactive)
        return;
    o->qactive = false;
    for (unsigned i = 0; i < s->nactive; i++)
        if (s->active[i] == o) {
            /* keep the order in which they were begun */
            memmove(&s->active[i], &s->active[i + 1], (s->nactive - i - 1) * sizeof o);
            s->nactive--;
            return;
        }
}

int tv_pipe_end_query(tv_pipe_ctx *ctx, uint32_t handle)
{
    pipe_object *o = query(ctx, handle, "end_query");
    if (!o)
        return -1;
    uint64_t t = now_ns();
    switch (o->qtype) {
    case TV_PIPE_QUERY_TIMESTAMP: o->qresult = t; break;
    case TV_PIPE_QUERY_GPU_FINISHED: o->qresult = 1; break;
    case TV_PIPE_QUERY_TIME_ELAPSED:
    case TV_PIPE_QUERY_TIMESTAMP_DISJOINT:
        if (!o->qactive)
            return pipe_fail(ctx, "end_query %u: the query was not begun", handle);
        o->qresult = o->qtype == TV_PIPE_QUERY_TIME_ELAPSED ? t - o->qbegin_ns : 0;
        break;
    case TV_PIPE_QUERY_OCCLUSION_PREDICATE:
    case TV_PIPE_QUERY_OCCLUSION_PREDICATE_CONSERVATIVE:
    case TV_PIPE_QUERY_SO_OVERFLOW_PREDICATE:
    case TV_PIPE_QUERY_SO_OVERFLOW_ANY_PREDICATE:
        if (!o->qactive)
            return pipe_fail(ctx, "end_query %u: the query was not begun", handle);
        o->qresult = o->qcount != 0;
        break;
    default:
        if (!o->qactive)
            return pipe_fail(ctx, "end_query %u: the query was not begun", handle);
        o->qresult = o->qcount;
        o->qresult2 = o->qcount2;
        break;
    }
    pipe_query_deactivate(&ctx->sub, o);
    return 0;
}

int tv_pipe_query_result(tv_pipe_ctx *ctx, uint32_t handle, uint64_t *result)
{
    pipe_object *o = query(ctx, handle, "get_query_result");
    if (!o)
        return -1;
    *result = o->qresult;
    return 0;
}

int tv_pipe_query_result_so(tv_pipe_ctx *ctx, uint32_t handle, uint64_t *written,
                            uint64_t *needed)
{
    pipe_object *o = query(ctx, handle, "get_query_result");
    if (!o)
        return -1;
    *written = o->qresult;
    *needed = o->qtype == TV_PIPE_QUERY_SO_STATISTICS ? o->qresult2 : 0;
    return 0;
}

bool pipe_queries_active(const tv_pipe_ctx *ctx)
{
    return ctx->sub.nactive > 0;
}

/* (the active list holds only queries: the kind needs no test) */
void pipe_queries_count(tv_pipe_ctx *ctx, uint64_t samples_passed, uint64_t primitives)
{
    for (unsigned i = 0; i < ctx->sub.nactive; i++) {
        pipe_object *o = ctx->sub.active[i];
        if (o->qtype <= TV_PIPE_QUERY_OCCLUSION_PREDICATE_CONSERVATIVE)
            o->qcount += samples_passed;
    }
    pipe_queries_count_stream(ctx, 0, primitives, 0);
}

void pipe_queries_count_stream(tv_pipe_ctx *ctx, unsigned stream, uint64_t generated,
                               uint64_t emitted)
{
    for (unsigned i = 0; i < ctx->sub.nactive; i++) {
        pipe_object *o = ctx->sub.active[i];
        if (o->qindex != stream)
            continue;
        if (o->qtype == TV_PIPE_QUERY_PRIMITIVES_GENERATED)
            o->qcount += generated;
        else if (o->qtype == TV_PIPE_QUERY_PRIMITIVES_EMITTED)
            o->qcount += emitted;
        else if (o->qtype == TV_PIPE_QUERY_SO_STATISTICS) {
            o->qcount += emitted;     /* written */
            o->qcount2 += generated;  /* would have been written: every one generated */
        }
    }
}

void pipe_queries_count_overflow(tv_pipe_ctx *ctx, unsigned stream)
{
    for (unsigned i = 0; i < ctx->sub.nactive; i++) {
        pipe_object *o = ctx->sub.active[i];
        if ((o->qtype == TV_PIPE_QUERY_SO_OVERFLOW_PREDICATE && o->qindex == stream) ||
            o->qtype == TV_PIPE_QUERY_SO_OVERFLOW_ANY_PREDICATE)
            o->qcount++;
    }
}

void pipe_queries_count_stats(tv_pipe_ctx *ctx, const uint64_t n[TV_PIPE_STATS])
{
    for (unsigned i = 0; i < ctx->sub.nactive; i++) {
        pipe_object *o = ctx->sub.active[i];
        if (o->qtype == TV_PIPE_QUERY_PIPELINE_STATISTICS)
            o->qcount += n[o->qindex];
    }
}

int tv_pipe_set_render_condition(tv_pipe_ctx *ctx, uint32_t handle, bool condition)
{
    if (handle && !query(ctx, handle, "set_render_condition"))
        return -1;
    ctx->sub.render_cond = handle;
    ctx->sub.render_cond_inverted = condition;
    return 0;
}

int pipe_render_condition_passes(tv_pipe_ctx *ctx, const char *op)
{
    if (!ctx->sub.render_cond)
        return 1;
    pipe_object *o = pipe_object_find(ctx, TV_PIPE_OBJ_QUERY, ctx->sub.render_cond);
    if (!o)
        return pipe_fail(ctx, "%s: the render condition's query %u was destroyed", op,
                         ctx->sub.render_cond);
    /* Gallium: condition false renders when the result is non-zero */
    return (o->qresult != 0) != ctx->sub.render_cond_inverted;
}
