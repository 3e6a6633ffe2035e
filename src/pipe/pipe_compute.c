/* Compute: shader-stage bindings (SSBOs, images, constant buffers) and launch_grid,
 * which runs the bound COMPUTE shader's TGSI with tv_vm_run_compute on views of the
 * resources' memory. */
#include "pipe_internal.h"

#include "texvm/vm.h"

#include <stdlib.h>
#include <string.h>

#define MAX_THREADS (1u << 24)            /* invocations per launch */
#define MAX_WARP_INSTRUCTIONS 100000000ull /* per warp, before a runtime fault */
/* The work of one launch: warps x instructions per warp stays within this, so a client
 * cannot keep the server busy for long with a huge grid (about a minute at the worst): a
 * grid of many warps gets a smaller per-warp budget, and a grid with so many warps that
 * even MIN_WARP_INSTRUCTIONS each would pass the quota is refused (every warp also costs
 * its set-up, whatever it runs). */
#define MAX_LAUNCH_WORK (1ull << 34)
#define MIN_WARP_INSTRUCTIONS 4096ull

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
    ctx->shader[stage] = handle;
    return 0;
}

static int slots_check(tv_pipe_ctx *ctx, const char *what, uint32_t stage, uint32_t start,
                       uint32_t n)
{
    if (stage >= TV_PIPE_STAGES)
        return pipe_fail(ctx, "%s: unknown shader type %u", what, stage);
    if (start > TV_PIPE_MAX_SLOTS || n > TV_PIPE_MAX_SLOTS - start)
        return pipe_fail(ctx, "%s: slots %u..%u past the %u slots", what, start,
                         start + n - 1, TV_PIPE_MAX_SLOTS);
    return 0;
}

int tv_pipe_set_shader_buffers(tv_pipe_ctx *ctx, uint32_t stage, uint32_t start, uint32_t n,
                               const tv_pipe_buffer_binding *b)
{
    if (slots_check(ctx, "set_shader_buffers", stage, start, n))
        return -1;
    for (uint32_t i = 0; i < n; i++)
        if (b[i].res && !pipe_resource_find(ctx, b[i].res))
            return pipe_fail(ctx, "set_shader_buffers: no resource %u", b[i].res);
    memcpy(&ctx->ssbo[stage][start], b, n * sizeof *b);
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
    memcpy(&ctx->image[stage][start], b, n * sizeof *b);
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
    pipe_const *c = &ctx->consts[stage][index];
    uint32_t *copy = NULL;
    if (!res && ndw) {
        copy = malloc(ndw * 4);
        if (!copy)
            return pipe_fail(ctx, "out of memory");
        memcpy(copy, data, ndw * 4);
    }
    free(c->data);
    c->data = copy;
    c->ndw = res ? 0 : ndw;
    c->ubo = (tv_pipe_buffer_binding){res, offset, size};
    return 0;
}

/* A byte range of a resource, checked now (the resource may have been destroyed). */
static int range(tv_pipe_ctx *ctx, const char *what, uint32_t slot, uint32_t res,
                 uint64_t offset, uint64_t size, tv_vm_buffer *out)
{
    pipe_resource *r = pipe_resource_find(ctx, res);
    if (!r)
        return pipe_fail(ctx, "launch_grid: %s %u: resource %u was destroyed", what, slot, res);
    if (offset > r->size || size > r->size - offset)
        return pipe_fail(ctx, "launch_grid: %s %u: range %llu+%llu outside resource %u (%zu "
                         "bytes)", what, slot, (unsigned long long)offset,
                         (unsigned long long)size, res, r->size);
    out->data = r->data + offset;
    out->size = size;
    return 0;
}

static int bind_image(tv_pipe_ctx *ctx, uint32_t slot, const tv_pipe_image_binding *ib,
                      tv_vm_image *out)
{
    pipe_resource *r = pipe_resource_find(ctx, ib->res);
    if (!r)
        return pipe_fail(ctx, "launch_grid: image %u: resource %u was destroyed", slot, ib->res);
    tv_format f = pipe_format_lookup(ib->format);
    const tv_format_info *fi = f == TV_FORMAT_NONE ? NULL : tv_format_get(f);
    if (!fi || fi->block_w != 1 || fi->block_bytes != r->bytes)
        return pipe_fail(ctx, "launch_grid: image %u: format %u does not view resource %u",
                         slot, ib->format, ib->res);
    out->format = f;
    out->target = TV_TGT_UNKNOWN;
    if (r->desc.target == 0) { /* buffer image: byte offset and size */
        tv_vm_buffer b;
        if (range(ctx, "image", slot, ib->res, ib->buf_offset, ib->buf_size, &b))
            return -1;
        out->data = b.data;
        out->size = b.size;
        out->width = (uint32_t)(b.size / r->bytes);
        out->height = out->depth = 1;
        return 0;
    }
    uint32_t l = ib->level;
    if (l > r->desc.last_level || ib->first_layer > ib->last_layer ||
        ib->last_layer >= r->ld[l])
        return pipe_fail(ctx, "launch_grid: image %u: level %u layers %u..%u outside "
                         "resource %u", slot, l, ib->first_layer, ib->last_layer, ib->res);
    out->data = r->data + r->level_offset[l] + r->layer_stride[l] * ib->first_layer;
    out->width = r->lw[l];
    out->height = r->lh[l];
    out->depth = ib->last_layer - ib->first_layer + 1;
    out->row_pitch = r->stride[l];
    out->layer_pitch = r->layer_stride[l];
    out->size = (uint64_t)r->layer_stride[l] * out->depth;
    return 0;
}

void tv_pipe_set_compute_limit(tv_pipe_ctx *ctx, uint64_t max_instructions, uint64_t max_work)
{
    ctx->max_instructions = max_instructions;
    ctx->max_work = max_work;
}

/* The per-warp instruction budget of a launch of WARPS warps: the client's (or 10^8),
 * lowered so that warps x budget stays within the launch work quota; 0 when even the
 * minimum budget does not fit (the launch is refused). */
static uint64_t warp_budget(const tv_pipe_ctx *ctx, uint64_t warps)
{
    uint64_t per = ctx->max_instructions ? ctx->max_instructions : MAX_WARP_INSTRUCTIONS;
    uint64_t work = ctx->max_work ? ctx->max_work : MAX_LAUNCH_WORK;
    uint64_t share = work / (warps ? warps : 1);
    if (share < MIN_WARP_INSTRUCTIONS)
        return 0;
    return per < share ? per : share;
}

int tv_pipe_launch_grid(tv_pipe_ctx *ctx, const uint32_t block[3], const uint32_t grid[3])
{
    const unsigned cs = TV_PIPE_STAGE_COMPUTE;
    pipe_object *o = ctx->shader[cs] ? pipe_object_find(ctx, TV_PIPE_OBJ_SHADER,
                                                        ctx->shader[cs]) : NULL;
    if (!o)
        return pipe_fail(ctx, "launch_grid: no compute shader bound%s",
                         ctx->shader[cs] ? " (it was destroyed)" : "");
    tv_error err;
    memset(&err, 0, sizeof err);
    if (!ctx->vm) {
        tv_vm_config cfg;
        memset(&cfg, 0, sizeof cfg);
        cfg.threads = 1;
        cfg.limits.max_instructions =
            ctx->max_instructions ? ctx->max_instructions : MAX_WARP_INSTRUCTIONS;
        cfg.limits.max_loop_iterations = cfg.limits.max_instructions;
        cfg.limits.max_memory = ctx->max_memory;
        ctx->vm = tv_vm_create(&cfg, &err);
        if (!ctx->vm)
            return pipe_fail(ctx, "launch_grid: %s", err.message);
    }
    if (!o->prog) {
        o->prog = tv_vm_program_from_text(ctx->vm, o->text, strlen(o->text), "", &err);
        if (!o->prog)
            return pipe_fail(ctx, "launch_grid: shader %u: %u:%u: %s", o->handle, err.line,
                             err.column, err.message);
    }
    if (tv_vm_program_processor(o->prog) != TV_TGSI_COMP)
        return pipe_fail(ctx, "launch_grid: shader %u is not a COMP program", o->handle);
    /* A grid with a zero dimension dispatches nothing (glDispatchCompute semantics). */
    if (!grid[0] || !grid[1] || !grid[2])
        return 0;
    /* A zero block dimension takes the shader's declared size, as the engine does. */
    uint32_t declared[3], eff_block[3];
    tv_vm_program_block_size(o->prog, declared);
    uint64_t blocks = 1, per_block = 1;
    for (int i = 0; i < 3; i++) {
        eff_block[i] = block[i] ? block[i] : (declared[i] ? declared[i] : 1);
        blocks *= grid[i];
        per_block *= eff_block[i];
    }
    uint64_t threads = blocks * per_block;
    if (threads > MAX_THREADS)
        return pipe_fail(ctx, "launch_grid: %llu invocations (at most %u)",
                         (unsigned long long)threads, MAX_THREADS);
    /* each block runs whole warps */
    uint64_t warps = blocks * ((per_block + 31) / 32), budget = warp_budget(ctx, warps);
    if (!budget)
        return pipe_fail(ctx, "launch_grid: %llu warps exceed the launch work quota (%llu "
                         "warp instructions, at least %llu per warp)",
                         (unsigned long long)warps,
                         (unsigned long long)(ctx->max_work ? ctx->max_work : MAX_LAUNCH_WORK),
                         MIN_WARP_INSTRUCTIONS);
    tv_vm_bindings b;
    tv_vm_bindings_init(&b);
    for (uint32_t i = 0; i < TV_PIPE_MAX_SLOTS; i++) {
        const tv_pipe_buffer_binding *sb = &ctx->ssbo[cs][i];
        if (sb->res && range(ctx, "shader buffer", i, sb->res, sb->offset, sb->size,
                             &b.buffers[i]))
            return -1;
        const tv_pipe_image_binding *ib = &ctx->image[cs][i];
        if (ib->res && bind_image(ctx, i, ib, &b.images[i]))
            return -1;
        const pipe_const *c = &ctx->consts[cs][i];
        if (c->ubo.res && range(ctx, "constant buffer", i, c->ubo.res, c->ubo.offset,
                                c->ubo.size, &b.constbufs[i]))
            return -1;
        if (!c->ubo.res && c->data)
            b.constbufs[i] = (tv_vm_buffer){c->data, c->ndw * 4};
    }
    tv_vm_compute_params params;
    memset(&params, 0, sizeof params);
    memcpy(params.grid, grid, sizeof params.grid);
    memcpy(params.block, eff_block, sizeof params.block);
    tv_vm_limits lim;
    memset(&lim, 0, sizeof lim);
    lim.max_instructions = budget;
    lim.max_loop_iterations = lim.max_instructions;
    lim.max_memory = ctx->max_memory;
    tv_vm_set_limits(ctx->vm, &lim);
    tv_vm_stats stats;
    if (tv_vm_run_compute(ctx->vm, o->prog, &b, &params, &stats, &err) != TV_OK)
        return pipe_fail(ctx, "launch_grid: %s", err.message);
    return 0;
}
