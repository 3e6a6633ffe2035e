/* A context's large per-draw arrays kept for its next draws: the fetched vertex elements
 * and the vertex shader's outputs (pipe_draw.c shade_vertices), megabytes for a draw of a
 * few hundred thousand vertices. Freed and allocated afresh, each such array came back
 * from the C library as new pages that the kernel faults in and clears one by one; kept,
 * the next draw's arrays are pages already mapped (the mesh scene of bench/bench_draw
 * 132-134 -> 118-121 ms, docs/history/performance-log.md §20.2).
 *
 * A block is a header followed by its bytes; blocks below PIPE_SCRATCH_MIN are not kept
 * (the C library's heap serves those without fresh pages), and the context keeps at most
 * PIPE_SCRATCH_SLOTS blocks of at most PIPE_SCRATCH_KEEP bytes in all, and no more than
 * its memory quota leaves beside what it has charged (a vtest client's kept arrays stay
 * inside its quota), the rest freed. A kept block's bytes are those of its last use:
 * callers write every byte they read. Only the context's own thread takes and returns
 * blocks (the band workers' copies of the context never do: pipe_draw_bands.c runs after
 * the arrays are built). */
#include "pipe_internal.h"

#include <stdlib.h>

static scratch_head *head_of(void *p)
{
    return (scratch_head *)p - 1;
}

void *pipe_scratch_get(tv_pipe_ctx *ctx, size_t bytes)
{
    if (bytes >= PIPE_SCRATCH_MIN) {
        /* the smallest kept block that holds it */
        int best = -1;
        for (int k = 0; k < (int)ctx->nscratch; k++)
            if (ctx->scratch[k]->cap >= bytes &&
                (best < 0 || ctx->scratch[k]->cap < ctx->scratch[best]->cap))
                best = k;
        if (best >= 0) {
            scratch_head *h = ctx->scratch[best];
            ctx->scratch[best] = ctx->scratch[--ctx->nscratch];
            ctx->scratch_bytes -= h->cap;
            return h + 1;
        }
    }
    if (bytes > SIZE_MAX - sizeof(scratch_head))
        return NULL;
    scratch_head *h = malloc(sizeof *h + bytes);
    if (!h)
        return NULL;
    h->cap = bytes;
    return h + 1;
}

void pipe_scratch_put(tv_pipe_ctx *ctx, void *p)
{
    if (!p)
        return;
    scratch_head *h = head_of(p);
    /* kept blocks stay within what the context's memory quota leaves (pipe_charge
       drops them all when a charge leaves less) */
    uint64_t room = ctx->max_memory > ctx->used ? ctx->max_memory - ctx->used : 0;
    uint64_t keep = room < PIPE_SCRATCH_KEEP ? room : PIPE_SCRATCH_KEEP;
    if (h->cap < PIPE_SCRATCH_MIN || h->cap > keep) {
        free(h);
        return;
    }
    /* room made by dropping the smallest kept blocks first: a draw's arrays are alike in
       size, and the largest are the costliest to fault in again */
    while (ctx->nscratch &&
           (ctx->nscratch == PIPE_SCRATCH_SLOTS ||
            ctx->scratch_bytes + h->cap > keep)) {
        unsigned least = 0;
        for (unsigned k = 1; k < ctx->nscratch; k++)
            if (ctx->scratch[k]->cap < ctx->scratch[least]->cap)
                least = k;
        if (ctx->scratch[least]->cap > h->cap) {
            free(h);                   /* every kept block is larger: this one goes */
            return;
        }
        ctx->scratch_bytes -= ctx->scratch[least]->cap;
        free(ctx->scratch[least]);
        ctx->scratch[least] = ctx->scratch[--ctx->nscratch];
    }
    ctx->scratch[ctx->nscratch++] = h;
    ctx->scratch_bytes += h->cap;
}

void pipe_scratch_release(tv_pipe_ctx *ctx)
{
    for (unsigned k = 0; k < ctx->nscratch; k++)
        free(ctx->scratch[k]);
    ctx->nscratch = 0;
    ctx->scratch_bytes = 0;
}
