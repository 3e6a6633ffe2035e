/* Indirect draws and launches (include/texvm/pipe.h): the parameters read from a buffer
 * resource, every word range checked before it is read, each command then an ordinary
 * draw (or launch) — a multi-draw sharing one work quota (pipe_work.c). */
#include "pipe_internal.h"

#include <string.h>

/* Warp instructions each command of an indirect draw takes from the quotas before it
 * draws (pipe_work_units adds its 64 for the total): about an empty draw's set-up time. */
#define INDIRECT_DRAW_WORK 256ull

/* Words [OFFSET, OFFSET + 4 N) of buffer RES into OUT; -1 (named) when outside. */
static int read_words(tv_pipe_ctx *ctx, const char *op, uint32_t res, uint64_t offset,
                      unsigned n, uint32_t *out)
{
    pipe_resource *r = pipe_resource_find(ctx, res);
    if (!r)
        return pipe_fail(ctx, "%s: no indirect buffer %u", op, res);
    if (offset % 4 || offset > r->size || 4ull * n > r->size - offset)
        return pipe_fail(ctx, "%s: %u words at byte %llu outside indirect buffer %u (%zu "
                         "bytes, 4-byte aligned)", op, n, (unsigned long long)offset, res,
                         r->size);
    memcpy(out, r->data + offset, 4ull * n);
    return 0;
}

int tv_pipe_draw_vbo_indirect(tv_pipe_ctx *ctx, const tv_pipe_draw_info *info,
                              const tv_pipe_draw_indirect *ind)
{
    const char *op = "draw_vbo (indirect)";
    unsigned words = info->index_size ? 5 : 4;
    uint64_t stride = ind->stride ? ind->stride : 4ull * words;
    if (stride < 4ull * words || stride % 4)
        return pipe_fail(ctx, "%s: stride %u (0, or a multiple of 4 of at least %u)", op,
                         ind->stride, 4 * words);
    if (!pipe_resource_find(ctx, ind->res))
        return pipe_fail(ctx, "%s: no indirect buffer %u", op, ind->res);
    uint32_t count = ind->draw_count;
    if (ind->count_res) {
        uint32_t n = 0;
        if (read_words(ctx, op, ind->count_res, ind->count_offset, 1, &n))
            return -1;
        count = n < count ? n : count;
    }
    /* every command inside the buffer, checked before the first draw */
    if (count && read_words(ctx, op, ind->res, ind->offset + (count - 1) * stride, words,
                            (uint32_t[5]){0}))
        return -1;
    uint64_t work = pipe_work_quota(ctx);
    for (uint32_t i = 0; i < count; i++) {
        /* each command costs its set-up whatever it draws (an empty one about 10 us:
           state checks, framebuffer, programs): charged to this draw_vbo's quota and the
           total, or one 84-byte command of 2^24 empty draws, repeated, kept the server
           busy without end and took nothing from either */
        if (work < INDIRECT_DRAW_WORK)
            return pipe_fail(ctx, "%s: draw %u of %u exceeds the work quota (%llu warp "
                             "instructions)", op, i, count,
                             (unsigned long long)pipe_work_quota(ctx));
        work -= INDIRECT_DRAW_WORK;
        if (pipe_work_units(ctx, op, INDIRECT_DRAW_WORK))
            return -1;
        uint32_t w[5] = {0};
        if (read_words(ctx, op, ind->res, ind->offset + i * stride, words, w))
            return -1;
        tv_pipe_draw_info d = *info;
        d.count = w[0];
        d.instance_count = w[1];
        d.start = w[2];
        d.index_bias = info->index_size ? (int32_t)w[3] : 0;
        d.start_instance = info->index_size ? w[4] : w[3];
        d.drawid = i;
        if (pipe_draw(ctx, &d, &work))
            return -1;
    }
    return 0;
}

int tv_pipe_launch_grid_indirect(tv_pipe_ctx *ctx, const uint32_t block[3], uint32_t res,
                                 uint32_t offset)
{
    uint32_t grid[3];
    if (read_words(ctx, "launch_grid (indirect)", res, offset, 3, grid))
        return -1;
    return tv_pipe_launch_grid(ctx, block, grid);
}
