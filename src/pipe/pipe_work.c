/* The work quota of one launch or draw (include/texvm/pipe.h, tv_pipe_set_compute_limit):
 * every engine run inside it gets a per-warp instruction budget small enough that the
 * run's warps x budget fits in what is left of the quota, and what the run executed is
 * taken off. A client cannot keep the context busy for long with a huge grid, a large
 * target full of looping fragments or many triangles (about a minute at the worst); an
 * operation whose next run would not fit even PIPE_MIN_WARP_INSTRUCTIONS per warp is
 * refused.
 * Every warp a run may have is also charged WARP_OVERHEAD instructions whatever it ran:
 * its set-up, interpolation and (fragments) the output merger cost that much, and a draw
 * of many cheap full-screen triangles must run out too. A context may also have a total
 * quota over all its launches and draws (tv_pipe_set_total_work: a vtest client's), which
 * the operations that move bytes instead of running shaders take from too
 * (pipe_work_bytes). */
#include "pipe_internal.h"

#include "texvm/vm.h"

#include <string.h>

#define MAX_WORK (1ull << 34)
#define WARP_OVERHEAD 64ull
/* Bytes a clear, copy, blit or transfer moves for one warp instruction of the total
 * quota: a warp's 32 lanes of 4 bytes, about the time either takes. */
#define BYTES_PER_WARP_INSTRUCTION 128ull

uint64_t pipe_work_quota(const tv_pipe_ctx *ctx)
{
    return ctx->max_work ? ctx->max_work : MAX_WORK;
}

void tv_pipe_set_total_work(tv_pipe_ctx *ctx, uint64_t total)
{
    ctx->total_work = total;
    ctx->total_left = total;
}

/* LEFT within what is left of the context's total quota, if it has one. */
static uint64_t within_total(const tv_pipe_ctx *ctx, uint64_t left)
{
    return ctx->total_work && ctx->total_left < left ? ctx->total_left : left;
}

/* The per-warp budget WARPS warps get from LEFT. */
static uint64_t warp_share(uint64_t warps, uint64_t left)
{
    return left / (warps ? warps : 1);
}

int pipe_work_begin(tv_pipe_ctx *ctx, const char *op, uint64_t warps, uint64_t left)
{
    uint64_t limited = within_total(ctx, left);
    if (limited < left && !limited)
        return pipe_fail(ctx, "%s: the context used up its total work quota (%llu warp "
                         "instructions)", op, (unsigned long long)ctx->total_work);
    left = limited;
    uint64_t per = ctx->max_instructions ? ctx->max_instructions : PIPE_MAX_WARP_INSTRUCTIONS;
    /* the share is at least PER when PER for every warp fits in LEFT: the division (a
       64-bit one, at every primitive's run of a draw) only when it may be less */
    uint64_t all, w = warps ? warps : 1;
    uint64_t share = per >= PIPE_MIN_WARP_INSTRUCTIONS && !__builtin_mul_overflow(per, w, &all) &&
                             all <= left
                         ? per
                         : warp_share(warps, left);
    if (share < PIPE_MIN_WARP_INSTRUCTIONS)
        return pipe_fail(ctx, "%s: %llu warps exceed the work quota (%llu warp instructions, "
                         "%llu left, at least %llu per warp)", op, (unsigned long long)warps,
                         (unsigned long long)pipe_work_quota(ctx), (unsigned long long)left,
                         PIPE_MIN_WARP_INSTRUCTIONS);
    /* set when it changes (the primitives of a draw mostly share it): the engine's copy of
       a record just built on the stack waited for its stores (a 16-byte load of two 8-byte
       stores), 1 % of the mesh scene. ctx->vm is made once, and only this sets its limits
       after that; max_memory never changes. The band workers' copies of the context
       (pipe_draw_bands.c) start without a known limit, and worker 0's, whose engine is
       the context's, hands its last one back. */
    const uint64_t limit = per < share ? per : share;
    if (limit == ctx->vm_warp_limit)
        return 0;
    tv_vm_limits lim;
    memset(&lim, 0, sizeof lim);
    lim.max_instructions = limit;
    lim.max_loop_iterations = limit;
    lim.max_memory = ctx->max_memory;
    tv_vm_set_limits(ctx->vm, &lim);
    ctx->vm_warp_limit = limit;
    return 0;
}

bool pipe_work_fits(const tv_pipe_ctx *ctx, uint64_t warps, uint64_t left)
{
    return warp_share(warps, within_total(ctx, left)) >= PIPE_MIN_WARP_INSTRUCTIONS;
}

int pipe_work_bytes(tv_pipe_ctx *ctx, const char *op, uint64_t bytes)
{
    return pipe_work_units(ctx, op, bytes / BYTES_PER_WARP_INSTRUCTION);
}

int pipe_work_units(tv_pipe_ctx *ctx, const char *op, uint64_t units)
{
    if (!ctx->total_work)
        return 0;
    uint64_t cost = units + WARP_OVERHEAD;
    if (cost < units || cost > ctx->total_left)
        return pipe_fail(ctx, "%s: the context used up its total work quota (%llu warp "
                         "instructions)", op, (unsigned long long)ctx->total_work);
    ctx->total_left -= cost;
    return 0;
}

void pipe_work_end(tv_pipe_ctx *ctx, uint64_t *left, uint64_t warps, const tv_vm_stats *st)
{
    uint64_t used = st->instructions + warps * WARP_OVERHEAD;
    *left = used < *left ? *left - used : 0;
    if (ctx->total_work)
        ctx->total_left = used < ctx->total_left ? ctx->total_left - used : 0;
}

int tv_pipe_charge_bytes(tv_pipe_ctx *ctx, const char *op, uint64_t bytes)
{
    return pipe_work_bytes(ctx, op, bytes);
}
