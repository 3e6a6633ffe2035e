/* The pipe context: lifetime, errors, state objects, framebuffer and clear. */
#include "pipe_internal.h"
#include "pipe_om.h"

#include "texvm/vm.h"
#include "util/threadpool.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

tv_pipe_ctx *tv_pipe_create(uint64_t max_memory)
{
    tv_pipe_ctx *ctx = calloc(1, sizeof *ctx);
    if (ctx) {
        ctx->max_memory = max_memory ? max_memory : TV_PIPE_DEFAULT_MEMORY;
        pipe_sub_init(&ctx->sub, 0);
    }
    return ctx;
}

bool pipe_charge_fits(const tv_pipe_ctx *ctx, uint64_t bytes)
{
    return bytes <= ctx->max_memory && ctx->used <= ctx->max_memory - bytes;
}

int pipe_charge(tv_pipe_ctx *ctx, uint64_t bytes, const char *what, uint32_t handle)
{
    if (!pipe_charge_fits(ctx, bytes))
        return pipe_fail(ctx, "%s %u: %llu bytes exceed the memory quota (%llu of %llu used)",
                         what, handle, (unsigned long long)bytes,
                         (unsigned long long)ctx->used, (unsigned long long)ctx->max_memory);
    ctx->used += bytes;
    /* the kept per-draw arrays fit in what the quota leaves, or go (pipe_scratch.c) */
    if (ctx->scratch_bytes > ctx->max_memory - ctx->used)
        pipe_scratch_release(ctx);
    return 0;
}

int pipe_charge_temp(tv_pipe_ctx *ctx, uint64_t *held, uint64_t bytes, const char *op,
                     const char *what)
{
    if (!pipe_charge_fits(ctx, bytes))
        return pipe_fail(ctx, "%s: %s: %llu bytes exceed the memory quota (%llu of %llu used)",
                         op, what, (unsigned long long)bytes, (unsigned long long)ctx->used,
                         (unsigned long long)ctx->max_memory);
    ctx->used += bytes;
    *held += bytes;
    if (ctx->scratch_bytes > ctx->max_memory - ctx->used)
        pipe_scratch_release(ctx);
    return 0;
}

void pipe_uncharge(tv_pipe_ctx *ctx, uint64_t bytes)
{
    ctx->used -= bytes < ctx->used ? bytes : ctx->used;
}

void pipe_object_free(tv_pipe_ctx *ctx, pipe_object *o)
{
    pipe_uncharge(ctx, o->charged);
    if (o->prog)
        tv_vm_program_destroy(o->prog);
    free(o->dw);
    free(o->text);
    free(o->so);
    free(o);
}

void tv_pipe_destroy(tv_pipe_ctx *ctx)
{
    if (!ctx)
        return;
    for (size_t i = 0; i < ctx->resources.cap; i++) {
        pipe_resource *r = tv_handle_map_slot(&ctx->resources, i);
        if (r) {
            free(r->data);
            free(r);
        }
    }
    tv_handle_map_free(&ctx->resources);
    pipe_sub_free(ctx, &ctx->sub);
    for (unsigned k = 0; k < ctx->nothers; k++)
        pipe_sub_free(ctx, &ctx->others[k]);
    free(ctx->others);
    free(ctx->rows);
    pipe_scratch_release(ctx);
    if (ctx->vm)
        tv_vm_destroy(ctx->vm);
    for (size_t k = 0; k < sizeof ctx->band_vm / sizeof ctx->band_vm[0]; k++)
        if (ctx->band_vm[k])
            tv_vm_destroy(ctx->band_vm[k]);
    if (ctx->band_pool)
        tv_threadpool_destroy(ctx->band_pool);
    free(ctx);
}

int pipe_slots_check(tv_pipe_ctx *ctx, const char *op, const char *what, unsigned start,
                     unsigned n, unsigned max)
{
    if (start > max || n > max - start)
        return pipe_fail(ctx, "%s: %s %u..%u past the %u %s", op, what, start, start + n - 1,
                         max, what);
    return 0;
}

int pipe_fail(tv_pipe_ctx *ctx, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ctx->error, sizeof ctx->error, fmt, ap);
    va_end(ap);
    return -1;
}

const char *tv_pipe_error(const tv_pipe_ctx *ctx) { return ctx->error; }
uint64_t tv_pipe_memory_used(const tv_pipe_ctx *ctx) { return ctx->used; }

pipe_object *pipe_object_find(const tv_pipe_ctx *ctx, unsigned kind, uint32_t handle)
{
    pipe_object *o = tv_handle_map_find(&ctx->sub.objects, handle);
    return o && o->kind == kind ? o : NULL;
}

/* A new object of KIND with EXTRA bytes of its own beside the record (dwords, text),
 * charged to the memory quota; NULL with the reason. Object handles share one name space
 * per sub-context (as in virglrenderer). */
static pipe_object *object_new(tv_pipe_ctx *ctx, unsigned kind, uint32_t handle,
                               uint64_t extra)
{
    if (kind == 0 || kind >= TV_PIPE_OBJ_COUNT) {
        pipe_fail(ctx, "create_object: unknown object type %u", kind);
        return NULL;
    }
    if (handle == 0) {
        pipe_fail(ctx, "create_object: handle 0 is invalid");
        return NULL;
    }
    if (tv_handle_map_find(&ctx->sub.objects, handle)) {
        pipe_fail(ctx, "create_object: handle %u already in use", handle);
        return NULL;
    }
    uint64_t bytes = sizeof(pipe_object) + TV_HANDLE_MAP_ENTRY_BYTES + extra;
    if (pipe_charge(ctx, bytes, "create_object: object", handle))
        return NULL;
    pipe_object *o = calloc(1, sizeof *o);
    if (!o) {
        pipe_uncharge(ctx, bytes);
        pipe_fail(ctx, "out of memory");
        return NULL;
    }
    o->kind = kind;
    o->handle = handle;
    o->charged = bytes;
    return o;
}

/* O into the current sub-context's map; on failure O is freed. */
static int object_add(tv_pipe_ctx *ctx, pipe_object *o)
{
    if (tv_handle_map_put(&ctx->sub.objects, o->handle, o)) {
        pipe_object_free(ctx, o);
        return pipe_fail(ctx, "out of memory");
    }
    return 0;
}

int tv_pipe_object_create(tv_pipe_ctx *ctx, unsigned kind, uint32_t handle,
                          const uint32_t *dw, size_t ndw)
{
    pipe_object *o = object_new(ctx, kind, handle, (uint64_t)ndw * sizeof *dw);
    if (!o)
        return -1;
    if (ndw) {
        o->dw = malloc(ndw * sizeof *dw);
        if (!o->dw) {
            pipe_object_free(ctx, o);
            return pipe_fail(ctx, "out of memory");
        }
        memcpy(o->dw, dw, ndw * sizeof *dw);
        o->ndw = ndw;
    }
    return object_add(ctx, o);
}

int tv_pipe_shader_create(tv_pipe_ctx *ctx, uint32_t handle, uint32_t stage,
                          const char *text, size_t len)
{
    if (stage > 5)
        return pipe_fail(ctx, "create_object shader %u: unknown shader type %u", handle, stage);
    /* the text and the stream-output layout it may be given (pipe_so.c) */
    pipe_object *o = object_new(ctx, TV_PIPE_OBJ_SHADER, handle,
                                (uint64_t)len + 1 + sizeof(tv_pipe_stream_output_info));
    if (!o)
        return -1;
    o->text = malloc(len + 1);
    if (!o->text) {
        pipe_object_free(ctx, o);
        return pipe_fail(ctx, "out of memory");
    }
    memcpy(o->text, text, len);
    o->text[len] = '\0';
    o->stage = stage;
    return object_add(ctx, o);
}

int tv_pipe_surface_create(tv_pipe_ctx *ctx, uint32_t handle, uint32_t res, uint32_t format,
                           uint32_t level, uint32_t first_layer, uint32_t last_layer)
{
    pipe_resource *r = pipe_resource_find(ctx, res);
    if (!r)
        return pipe_fail(ctx, "create_object surface %u: no resource %u", handle, res);
    unsigned bw, bh, bytes = tv_pipe_format_block(format, &bw, &bh);
    if (bytes != r->bytes || bw != r->bw || bh != r->bh)
        return pipe_fail(ctx, "create_object surface %u: format %u does not view resource %u "
                         "(format %u)", handle, format, res, r->desc.format);
    if (r->desc.target != 0 &&
        (level > r->desc.last_level || first_layer > last_layer || last_layer >= r->ld[level]))
        return pipe_fail(ctx, "create_object surface %u: level %u layers %u..%u outside "
                         "resource %u", handle, level, first_layer, last_layer, res);
    pipe_object *o = object_new(ctx, TV_PIPE_OBJ_SURFACE, handle, 0);
    if (!o)
        return -1;
    o->res = res, o->format = format, o->level = level;
    o->first_layer = first_layer, o->last_layer = last_layer;
    return object_add(ctx, o);
}

const uint32_t *tv_pipe_object_dwords(const tv_pipe_ctx *ctx, unsigned kind, uint32_t handle,
                                      size_t *ndw)
{
    static const uint32_t none[1];
    const pipe_object *o = pipe_object_find(ctx, kind, handle);
    if (ndw)
        *ndw = o ? o->ndw : 0;
    return o ? (o->dw ? o->dw : none) : NULL;
}

int tv_pipe_object_bind(tv_pipe_ctx *ctx, unsigned kind, uint32_t handle)
{
    if (kind == 0 || kind >= TV_PIPE_OBJ_COUNT)
        return pipe_fail(ctx, "bind_object: unknown object type %u", kind);
    if (handle && !pipe_object_find(ctx, kind, handle))
        return pipe_fail(ctx, "bind_object: no object %u of type %u", handle, kind);
    ctx->sub.bound[kind] = handle;
    return 0;
}

int tv_pipe_object_destroy(tv_pipe_ctx *ctx, unsigned kind, uint32_t handle)
{
    pipe_object *o = pipe_object_find(ctx, kind, handle);
    if (!o)
        return pipe_fail(ctx, "destroy_object: no object %u of type %u", handle, kind);
    tv_handle_map_remove(&ctx->sub.objects, handle);
    if (kind < TV_PIPE_OBJ_COUNT && ctx->sub.bound[kind] == handle)
        ctx->sub.bound[kind] = 0;
    pipe_query_deactivate(&ctx->sub, o);
    pipe_object_free(ctx, o);
    return 0;
}

const char *tv_pipe_shader_text(const tv_pipe_ctx *ctx, uint32_t handle)
{
    const pipe_object *o = pipe_object_find(ctx, TV_PIPE_OBJ_SHADER, handle);
    return o ? o->text : NULL;
}

size_t tv_pipe_object_count(const tv_pipe_ctx *ctx, unsigned kind)
{
    size_t n = 0;
    for (size_t i = 0; i < ctx->sub.objects.cap; i++) {
        const pipe_object *o = tv_handle_map_slot(&ctx->sub.objects, i);
        n += o && o->kind == kind;
    }
    return n;
}

int tv_pipe_set_framebuffer(tv_pipe_ctx *ctx, unsigned nr_cbufs, const uint32_t *cbufs,
                            uint32_t zsbuf)
{
    if (nr_cbufs > TV_PIPE_MAX_CBUFS)
        return pipe_fail(ctx, "set_framebuffer_state: %u colour buffers (at most %u)",
                         nr_cbufs, TV_PIPE_MAX_CBUFS);
    /* Surfaces are looked up again at use, so destroying one later is caught there. */
    for (unsigned i = 0; i < nr_cbufs; i++)
        if (cbufs[i] && !pipe_object_find(ctx, TV_PIPE_OBJ_SURFACE, cbufs[i]))
            return pipe_fail(ctx, "set_framebuffer_state: no surface %u", cbufs[i]);
    if (zsbuf && !pipe_object_find(ctx, TV_PIPE_OBJ_SURFACE, zsbuf))
        return pipe_fail(ctx, "set_framebuffer_state: no surface %u", zsbuf);
    ctx->sub.nr_cbufs = nr_cbufs;
    memset(ctx->sub.cbufs, 0, sizeof ctx->sub.cbufs);
    if (nr_cbufs)                      /* CBUFS may be NULL when there are none */
        memcpy(ctx->sub.cbufs, cbufs, nr_cbufs * sizeof *cbufs);
    ctx->sub.zsbuf = zsbuf;
    return 0;
}

int tv_pipe_set_framebuffer_no_attach(tv_pipe_ctx *ctx, uint32_t width, uint32_t height,
                                      uint32_t layers, uint32_t samples)
{
    if (width > 16384 || height > 16384 || layers > 2048)
        return pipe_fail(ctx, "set_framebuffer_state_no_attach: %ux%u pixels x %u layers "
                         "(at most 16384 x 16384 x 2048)", width, height, layers);
    if (samples > 16 || (samples & (samples - 1)))
        return pipe_fail(ctx, "set_framebuffer_state_no_attach: %u samples (0, 1, 2, 4, 8 or "
                         "16)", samples);
    /* an empty area (Mesa sends the state with every framebuffer) leaves none; 0 layers
       is Gallium's "not layered": one */
    ctx->sub.noatt_w = width && height ? width : 0;
    ctx->sub.noatt_h = width && height ? height : 0;
    ctx->sub.noatt_layers = layers ? layers : 1;
    ctx->sub.noatt_samples = samples ? samples : 1;
    return 0;
}

pipe_resource *pipe_surface_resource(tv_pipe_ctx *ctx, const pipe_object *s, uint32_t surf,
                                     const char *what)
{
    pipe_resource *r = pipe_resource_find(ctx, s->res);
    if (!r) {
        pipe_fail(ctx, "%s: resource %u of surface %u was destroyed", what, s->res, surf);
        return NULL;
    }
    unsigned bw, bh, bytes = tv_pipe_format_block(s->format, &bw, &bh);
    if (bytes != r->bytes || bw != r->bw || bh != r->bh) {
        pipe_fail(ctx, "%s: surface %u's format %u no longer views resource %u (format %u, "
                  "created again since)", what, surf, s->format, s->res, r->desc.format);
        return NULL;
    }
    return r;
}

/* Fill every texel of a surface's level/layers with one encoded texel. */
static int fill_surface(tv_pipe_ctx *ctx, uint32_t surf, const uint32_t in[4], const char *what)
{
    pipe_object *s = pipe_object_find(ctx, TV_PIPE_OBJ_SURFACE, surf);
    if (!s)
        return pipe_fail(ctx, "%s: surface %u was destroyed", what, surf);
    pipe_resource *r = pipe_surface_resource(ctx, s, surf, what);
    if (!r)
        return -1;
    tv_format f = pipe_format_lookup(s->format);
    const tv_format_info *fi = f == TV_FORMAT_NONE ? NULL : tv_format_get(f);
    uint8_t texel[16];
    /* tv_format_pack takes memory components: memory component j gets the first API
     * channel whose swizzle reads j (B8G8R8A8: memory R <- blue; A8: memory R <- alpha). */
    uint32_t mem[4] = {0, 0, 0, 0};
    if (fi && fi->kind != TV_FMT_KIND_DEPTH) {
        for (int j = 3; j >= 0; j--)
            for (int i = 3; i >= 0; i--)
                if (fi->source[i] == TV_TIC_SOURCE_R + j)
                    mem[j] = in[i];
    } else {
        memcpy(mem, in, sizeof mem);
    }
    if (!fi || r->bw != 1 || r->bh != 1 || !tv_format_pack(f, mem, texel))
        return pipe_fail(ctx, "%s: format %u cannot be encoded", what, s->format);
    uint32_t level = r->desc.target == 0 ? 0 : s->level;
    uint32_t z0 = r->desc.target == 0 ? 0 : s->first_layer;
    uint32_t z1 = r->desc.target == 0 ? 0 : s->last_layer;
    if (level > r->desc.last_level || z1 >= r->ld[level])
        return pipe_fail(ctx, "%s: surface %u outside resource %u", what, surf, s->res);
    if (pipe_work_bytes(ctx, what, (uint64_t)(z1 - z0 + 1) * r->layer_stride[level]))
        return -1;
    /* every sample of the first row texel by texel (doubling the filled part), then the
       other rows as copies of it: a library call per texel made the clear of a 1024x1024
       RGBA32F target about 5 ms */
    const size_t row_bytes = (size_t)r->lw[level] * r->samples * r->bytes;
    for (uint32_t z = z0; z <= z1; z++) {
        uint8_t *first = r->data + r->level_offset[level] + r->layer_stride[level] * z;
        if (row_bytes) {
            memcpy(first, texel, r->bytes);
            for (size_t done = r->bytes; done < row_bytes; done *= 2)
                memcpy(first + done, first, done < row_bytes - done ? done : row_bytes - done);
        }
        for (uint32_t y = 1; y < r->lh[level]; y++)
            memcpy(first + r->stride[level] * y, first, row_bytes);
    }
    return 0;
}

/* Clear only the depth (DEPTH) or only the stencil of a packed depth/stencil surface. */
static int clear_zs_channel(tv_pipe_ctx *ctx, const pipe_object *s, tv_format f, bool depth,
                            float d, uint32_t stencil)
{
    pipe_resource *r = pipe_surface_resource(ctx, s, s->handle, "clear");
    if (!r)
        return -1;
    om_zs_target t;
    if (!om_zs_target_init(&t, f) || t.bytes > 8 || t.bytes != r->bytes ||
        s->level > r->desc.last_level || s->last_layer >= r->ld[s->level])
        return pipe_fail(ctx, "clear: depth/stencil surface %u cannot be cleared", s->handle);
    uint64_t mask = depth ? t.depth_mask : t.stencil_mask;
    uint64_t bits = depth ? (uint64_t)om_depth_quantize(&t, d) << t.depth_shift
                          : (uint64_t)(stencil & 0xffu) << t.stencil_shift;
    bits &= mask;
    if (pipe_work_bytes(ctx, "clear", (uint64_t)(s->last_layer - s->first_layer + 1) *
                                          r->layer_stride[s->level]))
        return -1;
    size_t row = (size_t)r->lw[s->level] * r->samples;
    for (uint32_t z = s->first_layer; z <= s->last_layer; z++)
        for (uint32_t y = 0; y < r->lh[s->level]; y++) {
            uint8_t *p = r->data + r->level_offset[s->level] + r->layer_stride[s->level] * z +
                         r->stride[s->level] * y;
            for (size_t x = 0; x < row; x++, p += t.bytes) {
                uint64_t v = 0;
                memcpy(&v, p, t.bytes);     /* little-endian texel */
                v = (v & ~mask) | bits;
                memcpy(p, &v, t.bytes);
            }
        }
    return 0;
}

int tv_pipe_clear(tv_pipe_ctx *ctx, unsigned buffers, const uint32_t color[4], double depth,
                  uint32_t stencil)
{
    int pass = pipe_render_condition_passes(ctx, "clear");
    if (pass <= 0)
        return pass;                    /* skipped by conditional rendering, or an error */
    for (unsigned i = 0; i < ctx->sub.nr_cbufs; i++)
        if ((buffers & (TV_PIPE_CLEAR_COLOR0 << i)) && ctx->sub.cbufs[i] &&
            fill_surface(ctx, ctx->sub.cbufs[i], color, "clear"))
            return -1;
    unsigned zs = buffers & (TV_PIPE_CLEAR_DEPTH | TV_PIPE_CLEAR_STENCIL);
    if (!zs || !ctx->sub.zsbuf)
        return 0;
    pipe_object *s = pipe_object_find(ctx, TV_PIPE_OBJ_SURFACE, ctx->sub.zsbuf);
    if (!s)
        return pipe_fail(ctx, "clear: surface %u was destroyed", ctx->sub.zsbuf);
    tv_format f = pipe_format_lookup(s->format);
    const tv_format_info *fi = f == TV_FORMAT_NONE ? NULL : tv_format_get(f);
    if (!fi || fi->kind != TV_FMT_KIND_DEPTH)
        return pipe_fail(ctx, "clear: depth/stencil surface format %u is not a depth format",
                         s->format);
    if (fi->channels == 1 && !(zs & TV_PIPE_CLEAR_DEPTH))
        return 0;
    float d = depth < 0 ? 0.0f : depth > 1 ? 1.0f : (float)depth;
    /* one channel of a packed depth+stencil texel: a read-modify-write of each texel */
    if (fi->channels > 1 && zs != (TV_PIPE_CLEAR_DEPTH | TV_PIPE_CLEAR_STENCIL))
        return clear_zs_channel(ctx, s, f, zs == TV_PIPE_CLEAR_DEPTH, d, stencil);
    uint32_t in[4] = {0, stencil & 0xff, 0, 0};
    memcpy(&in[0], &d, 4);
    return fill_surface(ctx, ctx->sub.zsbuf, in, "clear");
}
