/* The work quota of one launch or draw (include/texvm/pipe.h, tv_pipe_set_compute_limit):
 * every engine run inside it gets a per-warp instruction budget small enough that the
 * run's warps x budget fits in what is left of the quota, and what the run executed is
 * taken off. A client cannot keep the context busy for long with a huge grid, a large
 * target full of looping fragments or many triangles (about a minute at the worst); an
 * operation whose next run would not fit even MIN_WARP_INSTRUCTIONS per warp is refused
 * (every warp also costs its set-up, whatever it runs). */
#include "pipe_internal.h"

#include "texvm/vm.h"

#include <string.h>

#define MAX_WORK (1ull << 34)
#define MIN_WARP_INSTRUCTIONS 4096ull

uint64_t pipe_work_quota(const tv_pipe_ctx *ctx)
{
    return ctx->max_work ? ctx->max_work : MAX_WORK;
}

int pipe_work_begin(tv_pipe_ctx *ctx, const char *op, uint64_t warps, uint64_t left)
{
    uint64_t per = ctx->max_instructions ? ctx->max_instructions : PIPE_MAX_WARP_INSTRUCTIONS;
    uint64_t share = left / (warps ? warps : 1);
    if (share < MIN_WARP_INSTRUCTIONS)
        return pipe_fail(ctx, "%s: %llu warps exceed the work quota (%llu warp instructions, "
                         "%llu left, at least %llu per warp)", op, (unsigned long long)warps,
                         (unsigned long long)pipe_work_quota(ctx), (unsigned long long)left,
                         MIN_WARP_INSTRUCTIONS);
    tv_vm_limits lim;
    memset(&lim, 0, sizeof lim);
    lim.max_instructions = per < share ? per : share;
    lim.max_loop_iterations = lim.max_instructions;
    lim.max_memory = ctx->max_memory;
    tv_vm_set_limits(ctx->vm, &lim);
    return 0;
}

void pipe_work_end(uint64_t *left, const tv_vm_stats *st)
{
    *left = st->instructions < *left ? *left - st->instructions : 0;
}
