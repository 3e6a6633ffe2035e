/* What every shader stage needs from the context: the engine, a shader object's lowered
 * program, and the stage's bindings (SSBOs, images, constant buffers) as views of the
 * resources' memory, checked at the launch or draw that uses them; the hardware atomic
 * counter buffers are every stage's. */
#include "pipe_internal.h"

#include "texvm/vm.h"
#include "util/threadpool.h"

#include <stdio.h>
#include <string.h>

const char *pipe_stage_name(unsigned stage)
{
    static const char *const names[] = {"vertex", "fragment", "geometry",
                                        "tessellation control", "tessellation evaluation",
                                        "compute"};
    return stage < sizeof names / sizeof names[0] ? names[stage] : "(unknown)";
}

/* An engine for the context's programs with THREADS workers, its thread cap at 1 (only
 * draws' safe fragment runs lift it); NULL and the reason on failure. */
static struct tv_vm *make_vm(tv_pipe_ctx *ctx, uint32_t threads, const char *op)
{
    tv_error err;
    memset(&err, 0, sizeof err);
    tv_vm_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.threads = threads;
    cfg.robust_indexing = true;   /* client programs index speculatively */
    cfg.plain = ctx->plain;
    cfg.flush_denormals = ctx->flush_denormals;
    cfg.fine_derivatives = ctx->fine_derivatives;
    cfg.limits.max_instructions =
        ctx->max_instructions ? ctx->max_instructions : PIPE_MAX_WARP_INSTRUCTIONS;
    cfg.limits.max_loop_iterations = cfg.limits.max_instructions;
    cfg.limits.max_memory = ctx->max_memory;
    struct tv_vm *vm = tv_vm_create(&cfg, &err);
    if (!vm)
        pipe_fail(ctx, "%s: %s", op, err.message);
    else
        tv_vm_set_thread_cap(vm, 1);
    return vm;
}

struct tv_vm *pipe_vm(tv_pipe_ctx *ctx, const char *op)
{
    if (!ctx->vm)
        ctx->vm = make_vm(ctx, ctx->threads ? ctx->threads : 1, op);
    return ctx->vm;
}

struct tv_vm *pipe_band_vm(tv_pipe_ctx *ctx, unsigned k, const char *op)
{
    if (k == 0)
        return pipe_vm(ctx, op);
    if (k > sizeof ctx->band_vm / sizeof ctx->band_vm[0]) {
        pipe_fail(ctx, "%s: band worker %u of at most 64", op, k);
        return NULL;
    }
    if (!ctx->band_vm[k - 1])
        ctx->band_vm[k - 1] = make_vm(ctx, 1, op);   /* programs may be shared (vm.h) */
    return ctx->band_vm[k - 1];
}

struct tv_threadpool *pipe_band_pool(tv_pipe_ctx *ctx, const char *op)
{
    if (!ctx->band_pool) {
        ctx->band_pool = tv_threadpool_create(ctx->threads ? ctx->threads : 1);
        if (!ctx->band_pool)
            pipe_fail(ctx, "%s: cannot start the band workers", op);
    }
    return ctx->band_pool;
}

int tv_pipe_set_threads(tv_pipe_ctx *ctx, uint32_t threads)
{
    if (ctx->vm)
        return pipe_fail(ctx, "set_threads: the engine already runs (set it before the first "
                         "draw or launch)");
    if (threads > 64)
        return pipe_fail(ctx, "set_threads: %u workers (at most 64)", threads);
    ctx->threads = threads;
    return 0;
}

int tv_pipe_set_plain(tv_pipe_ctx *ctx, bool plain)
{
    if (ctx->vm)
        return pipe_fail(ctx, "set_plain: the engine already runs (set it before the first "
                         "draw or launch)");
    ctx->plain = plain;
    return 0;
}

int tv_pipe_set_shader_rules(tv_pipe_ctx *ctx, bool flush_denormals, bool fine_derivatives)
{
    if (ctx->vm)
        return pipe_fail(ctx, "set_shader_rules: the engine already runs (set them before the "
                         "first draw or launch)");
    ctx->flush_denormals = flush_denormals;
    ctx->fine_derivatives = fine_derivatives;
    return 0;
}

int pipe_shader_program(tv_pipe_ctx *ctx, pipe_object *o, const char *op)
{
    if (o->prog)
        return 0;
    tv_error err;
    memset(&err, 0, sizeof err);
    o->prog = tv_vm_program_from_text(ctx->vm, o->text, strlen(o->text), "", &err);
    if (!o->prog)
        return pipe_fail(ctx, "%s: shader %u: %u:%u: %s", op, o->handle, err.line, err.column,
                         err.message);
    /* the lowered program counts against the memory quota as long as the object lives */
    char what[64];
    snprintf(what, sizeof what, "%s: lowered shader", op);
    uint64_t bytes = tv_vm_program_bytes(o->prog);
    if (pipe_charge(ctx, bytes, what, o->handle)) {
        tv_vm_program_destroy(o->prog);
        o->prog = NULL;
        return -1;
    }
    o->charged += bytes;
    return 0;
}

/* A byte range of a resource, checked now (the resource may have been destroyed). */
int pipe_range(tv_pipe_ctx *ctx, const char *op, const char *what, uint32_t slot, uint32_t res,
                 uint64_t offset, uint64_t size, tv_vm_buffer *out)
{
    pipe_resource *r = pipe_resource_find(ctx, res);
    if (!r)
        return pipe_fail(ctx, "%s: %s %u: resource %u was destroyed", op, what, slot, res);
    if (offset > r->size || size > r->size - offset)
        return pipe_fail(ctx, "%s: %s %u: range %llu+%llu outside resource %u (%zu "
                         "bytes)", op, what, slot, (unsigned long long)offset,
                         (unsigned long long)size, res, r->size);
    out->data = r->data + offset;
    out->size = size;
    return 0;
}

static int bind_image(tv_pipe_ctx *ctx, const char *op, uint32_t slot, const tv_pipe_image_binding *ib,
                      tv_vm_image *out)
{
    pipe_resource *r = pipe_resource_find(ctx, ib->res);
    if (!r)
        return pipe_fail(ctx, "%s: image %u: resource %u was destroyed", op, slot, ib->res);
    tv_format f = pipe_format_lookup(ib->format);
    const tv_format_info *fi = f == TV_FORMAT_NONE ? NULL : tv_format_get(f);
    /* a buffer image views its bytes in any uncompressed format (Mesa makes buffers R8) */
    if (!fi || fi->block_w != 1 || fi->block_h != 1 ||
        (r->desc.target != 0 && fi->block_bytes != r->bytes))
        return pipe_fail(ctx, "%s: image %u: format %u does not view resource %u",
                         op, slot, ib->format, ib->res);
    out->format = f;
    out->target = TV_TGT_UNKNOWN;
    if (r->desc.target == 0) { /* buffer image: byte offset and size */
        tv_vm_buffer b;
        if (pipe_range(ctx, op, "image", slot, ib->res, ib->buf_offset, ib->buf_size, &b))
            return -1;
        out->data = b.data;
        out->size = b.size;
        out->width = (uint32_t)(b.size / fi->block_bytes);
        out->height = out->depth = 1;
        return 0;
    }
    uint32_t l = ib->level;
    if (l > r->desc.last_level || ib->first_layer > ib->last_layer ||
        ib->last_layer >= r->ld[l])
        return pipe_fail(ctx, "%s: image %u: level %u layers %u..%u outside "
                         "resource %u", op, slot, l, ib->first_layer, ib->last_layer, ib->res);
    out->data = r->data + r->level_offset[l] + r->layer_stride[l] * ib->first_layer;
    out->width = r->lw[l];
    out->height = r->lh[l];
    out->depth = ib->last_layer - ib->first_layer + 1;
    out->row_pitch = r->stride[l];
    out->layer_pitch = r->layer_stride[l];
    out->size = (uint64_t)r->layer_stride[l] * out->depth;
    return 0;
}


int pipe_stage_bindings(tv_pipe_ctx *ctx, unsigned stage, const char *op, tv_vm_bindings *b)
{
    tv_vm_bindings_init(b);
    for (uint32_t i = 0; i < TV_PIPE_MAX_SLOTS; i++) {
        const tv_pipe_buffer_binding *sb = &ctx->sub.ssbo[stage][i];
        if (sb->res && pipe_range(ctx, op, "shader buffer", i, sb->res, sb->offset, sb->size,
                                  &b->buffers[i]))
            return -1;
        const tv_pipe_image_binding *ib = &ctx->sub.image[stage][i];
        if (ib->res && bind_image(ctx, op, i, ib, &b->images[i]))
            return -1;
        const pipe_const *c = &ctx->sub.consts[stage][i];
        if (c->ubo.res && pipe_range(ctx, op, "constant buffer", i, c->ubo.res, c->ubo.offset,
                                     c->ubo.size, &b->constbufs[i]))
            return -1;
        if (!c->ubo.res && c->data)
            b->constbufs[i] = (tv_vm_buffer){c->data, c->ndw * 4};
        const tv_pipe_buffer_binding *ab = &ctx->sub.hwatomic[i];
        if (i < TV_VM_MAX_HWATOMIC && ab->res &&
            pipe_range(ctx, op, "atomic buffer", i, ab->res, ab->offset, ab->size,
                       &b->hwatomic[i]))
            return -1;
    }
    return 0;
}
