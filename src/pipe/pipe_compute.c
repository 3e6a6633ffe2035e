/* Compute: shader-stage bindings (SSBOs, images, constant buffers) and launch_grid,
 * which runs the bound COMPUTE shader's TGSI with tv_vm_run_compute on views of the
 * resources' memory. */
#include "pipe_internal.h"

#include "texvm/vm.h"

#include <stdlib.h>
#include <string.h>

#define MAX_THREADS (1u << 24)            /* invocations per launch */

int tv_pipe_bind_shader(tv_pipe_ctx *ctx, uint32_t stage, uint32_t handle)
{
    if (stage >= TV_PIPE_STAGES)
        return pipe_fail(ctx, "bind_shader: unknown shader type %u", stage);
    const pipe_object *o = handle ? pipe_object_find(ctx, TV_PIPE_OBJ_SHADER, handle) : NULL;
    if (handle && !o)
        return pipe_fail(ctx, "bind_shader: no shader %u", handle);
    if (o && o->stage != stage)
        return pipe_fail(ctx, "bind_shader: shader %u has type %u, bound as %u", handle,
                         o->stage, stage);
    ctx->sub.shader[stage] = handle;
    return 0;
}

static int slots_check(tv_pipe_ctx *ctx, const char *what, uint32_t stage, uint32_t start,
                       uint32_t n)
{
    if (stage >= TV_PIPE_STAGES)
        return pipe_fail(ctx, "%s: unknown shader type %u", what, stage);
    return pipe_slots_check(ctx, what, "slots", start, n, TV_PIPE_MAX_SLOTS);
}

int tv_pipe_set_shader_buffers(tv_pipe_ctx *ctx, uint32_t stage, uint32_t start, uint32_t n,
                               const tv_pipe_buffer_binding *b)
{
    if (slots_check(ctx, "set_shader_buffers", stage, start, n))
        return -1;
    for (uint32_t i = 0; i < n; i++)
        if (b[i].res && !pipe_resource_find(ctx, b[i].res))
            return pipe_fail(ctx, "set_shader_buffers: no resource %u", b[i].res);
    memcpy(&ctx->sub.ssbo[stage][start], b, n * sizeof *b);
    return 0;
}

int tv_pipe_set_hw_atomic_buffers(tv_pipe_ctx *ctx, uint32_t start, uint32_t n,
                                  const tv_pipe_buffer_binding *b)
{
    if (pipe_slots_check(ctx, "set_hw_atomic_buffers", "slots", start, n, TV_PIPE_MAX_SLOTS))
        return -1;
    for (uint32_t i = 0; i < n; i++)
        if (b[i].res && !pipe_resource_find(ctx, b[i].res))
            return pipe_fail(ctx, "set_hw_atomic_buffers: no resource %u", b[i].res);
    memcpy(&ctx->sub.hwatomic[start], b, n * sizeof *b);
    return 0;
}

int tv_pipe_set_shader_images(tv_pipe_ctx *ctx, uint32_t stage, uint32_t start, uint32_t n,
                              const tv_pipe_image_binding *b)
{
    if (slots_check(ctx, "set_shader_images", stage, start, n))
        return -1;
    for (uint32_t i = 0; i < n; i++)
        if (b[i].res && !pipe_resource_find(ctx, b[i].res))
            return pipe_fail(ctx, "set_shader_images: no resource %u", b[i].res);
    memcpy(&ctx->sub.image[stage][start], b, n * sizeof *b);
    return 0;
}

int tv_pipe_set_constant_buffer(tv_pipe_ctx *ctx, uint32_t stage, uint32_t index,
                                uint32_t res, uint32_t offset, uint32_t size,
                                const uint32_t *data, size_t ndw)
{
    if (slots_check(ctx, "set_constant_buffer", stage, index, 1))
        return -1;
    if (res && !pipe_resource_find(ctx, res))
        return pipe_fail(ctx, "set_uniform_buffer: no resource %u", res);
    pipe_const *c = &ctx->sub.consts[stage][index];
    uint32_t *copy = NULL;
    /* inline data counts against the memory quota (6 stages x 32 slots x 64
       sub-contexts of 256 KiB each would be 3 GiB), the slot's old data given back
       first; on failure the slot keeps its old data and its share */
    uint64_t old = c->data ? (uint64_t)c->ndw * 4 : 0;
    pipe_uncharge(ctx, old);
    if (!res && ndw) {
        if (pipe_charge(ctx, (uint64_t)ndw * 4, "set_constant_buffer: inline data of slot",
                        index)) {
            ctx->used += old;
            return -1;
        }
        copy = malloc(ndw * 4);
        if (!copy) {
            pipe_uncharge(ctx, (uint64_t)ndw * 4);
            ctx->used += old;
            return pipe_fail(ctx, "out of memory");
        }
        memcpy(copy, data, ndw * 4);
    }
    free(c->data);
    c->data = copy;
    c->ndw = res ? 0 : ndw;
    c->ubo = (tv_pipe_buffer_binding){res, offset, size};
    return 0;
}

void tv_pipe_set_compute_limit(tv_pipe_ctx *ctx, uint64_t max_instructions, uint64_t max_work)
{
    ctx->max_instructions = max_instructions;
    ctx->max_work = max_work;
}

int tv_pipe_launch_grid(tv_pipe_ctx *ctx, const uint32_t block[3], const uint32_t grid[3])
{
    const unsigned cs = TV_PIPE_STAGE_COMPUTE;
    pipe_object *o = ctx->sub.shader[cs] ? pipe_object_find(ctx, TV_PIPE_OBJ_SHADER,
                                                        ctx->sub.shader[cs]) : NULL;
    if (!o)
        return pipe_fail(ctx, "launch_grid: no compute shader bound%s",
                         ctx->sub.shader[cs] ? " (it was destroyed)" : "");
    tv_error err;
    memset(&err, 0, sizeof err);
    if (!pipe_vm(ctx, "launch_grid") || pipe_shader_program(ctx, o, "launch_grid"))
        return -1;
    if (tv_vm_program_processor(o->prog) != TV_TGSI_COMP)
        return pipe_fail(ctx, "launch_grid: shader %u is not a COMP program", o->handle);
    /* A grid with a zero dimension dispatches nothing (glDispatchCompute semantics). */
    if (!grid[0] || !grid[1] || !grid[2])
        return 0;
    /* A zero block dimension takes the shader's declared size, as the engine does. */
    uint32_t declared[3], eff_block[3];
    tv_vm_program_block_size(o->prog, declared);
    /* saturated at MAX_THREADS + 1: three 32-bit factors would wrap 64 bits, and a
     * wrapped product could pass the checks below with a grid of 2^62 blocks */
    uint64_t blocks = 1, per_block = 1;
    for (int i = 0; i < 3; i++) {
        eff_block[i] = block[i] ? block[i] : (declared[i] ? declared[i] : 1);
        blocks = blocks * grid[i] > MAX_THREADS ? MAX_THREADS + 1ull : blocks * grid[i];
        per_block = per_block * eff_block[i] > MAX_THREADS ? MAX_THREADS + 1ull
                                                           : per_block * eff_block[i];
    }
    uint64_t threads = blocks * per_block;   /* at most (2^24 + 1)^2: no wrap */
    if (threads > MAX_THREADS)
        return pipe_fail(ctx, "launch_grid: %llu invocations (at most %u)",
                         (unsigned long long)threads, MAX_THREADS);
    /* each block runs whole warps, within the launch's work quota (pipe_work.c) */
    uint64_t warps = blocks * ((per_block + 31) / 32);
    if (pipe_work_begin(ctx, "launch_grid", warps, pipe_work_quota(ctx)))
        return -1;
    tv_vm_bindings b;
    if (pipe_stage_bindings(ctx, cs, "launch_grid", &b))
        return -1;
    /* a shader that samples gets the stage's views and samplers as a texture unit */
    pipe_textures tex;
    memset(&tex, 0, sizeof tex);
    if (pipe_textures_for(ctx, cs, "launch_grid", o->prog, &tex))
        return -1;
    b.tex = tex.unit;
    tv_vm_compute_params params;
    memset(&params, 0, sizeof params);
    memcpy(params.grid, grid, sizeof params.grid);
    memcpy(params.block, eff_block, sizeof params.block);
    tv_vm_stats stats;
    tv_status st = tv_vm_run_compute(ctx->vm, o->prog, &b, &params, &stats, &err);
    pipe_textures_free(&tex);
    if (st != TV_OK)
        return pipe_fail(ctx, "launch_grid: %s", err.message);
    uint64_t left = pipe_work_quota(ctx);
    pipe_work_end(ctx, &left, warps, &stats);
    uint64_t stat[TV_PIPE_STATS] = {0};
    stat[TV_PIPE_STAT_CS_INVOCATIONS] = threads;
    pipe_queries_count_stats(ctx, stat);
    return 0;
}
