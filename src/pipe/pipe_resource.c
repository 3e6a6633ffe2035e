/* Resources: layout (Mesa virgl's guest layout), memory quota, box transfers, copies. */
#include "pipe_internal.h"

#include <stdlib.h>
#include <string.h>

#define PIPE_MAX_DIM 16384u
#define PIPE_MAX_BUFFER (1u << 30)

enum { T_BUFFER, T_1D, T_2D, T_3D, T_CUBE, T_RECT, T_1D_ARRAY, T_2D_ARRAY, T_CUBE_ARRAY };

pipe_resource *pipe_resource_find(const tv_pipe_ctx *ctx, uint32_t handle)
{
    return tv_handle_map_find(&ctx->resources, handle);
}

static uint32_t minify(uint32_t v, uint32_t l) { return (v >> l) ? (v >> l) : 1; }

int tv_pipe_resource_create(tv_pipe_ctx *ctx, uint32_t handle, const tv_pipe_resource_desc *desc)
{
    /* Mesa's virgl driver sends array_size 0 for some single-layer resources (a piglit
     * shader_test's 8-byte buffer): Gallium reads it as 1 there. */
    tv_pipe_resource_desc norm = *desc;
    const tv_pipe_resource_desc *d = &norm;
    bool single = norm.target != T_1D_ARRAY && norm.target != T_2D_ARRAY &&
                  norm.target != T_CUBE && norm.target != T_CUBE_ARRAY;
    if (single && norm.array_size == 0)
        norm.array_size = 1;
    if (handle == 0)
        return pipe_fail(ctx, "resource handle 0 is invalid");
    if (pipe_resource_find(ctx, handle))
        return pipe_fail(ctx, "resource %u already exists", handle);
    if (d->target > T_CUBE_ARRAY)
        return pipe_fail(ctx, "resource %u: unknown target %u", handle, d->target);
    unsigned bw = 1, bh = 1, bytes = tv_pipe_format_block(d->format, &bw, &bh);
    if (!bytes)
        return pipe_fail(ctx, "resource %u: format %u is not supported", handle, d->format);
    if ((bw != 1 || bh != 1) && d->target == T_BUFFER)
        return pipe_fail(ctx, "resource %u: a buffer of block-compressed format %s", handle,
                         tv_pipe_format_name(d->format));
    unsigned samples = d->nr_samples > 1 ? d->nr_samples : 1;
    if (samples > 1 && ((samples & (samples - 1)) || samples > TV_PIPE_MAX_SAMPLES ||
                        (d->target != T_2D && d->target != T_2D_ARRAY) || d->last_level ||
                        bw != 1 || bh != 1))
        return pipe_fail(ctx, "resource %u: %u samples (2, 4, 8 or 16, of a 2D or 2D-array "
                         "target with one level and an uncompressed format)", handle, samples);
    uint32_t maxdim = d->target == T_BUFFER ? PIPE_MAX_BUFFER : PIPE_MAX_DIM;
    if (d->width == 0 || d->width > maxdim || d->height == 0 || d->height > PIPE_MAX_DIM ||
        d->depth == 0 || d->depth > 2048 || d->array_size == 0 || d->array_size > 2048)
        return pipe_fail(ctx, "resource %u: size %ux%ux%u array %u out of range", handle,
                         d->width, d->height, d->depth, d->array_size);
    if (d->last_level >= PIPE_MAX_LEVELS || (d->target == T_BUFFER && d->last_level))
        return pipe_fail(ctx, "resource %u: last_level %u out of range", handle, d->last_level);
    bool one_d = d->target == T_BUFFER || d->target == T_1D || d->target == T_1D_ARRAY;
    if ((one_d && d->height != 1) || (d->target != T_3D && d->depth != 1) ||
        (d->target == T_3D && d->array_size != 1) ||
        ((d->target == T_CUBE) && d->array_size != 6) ||
        (d->target == T_CUBE_ARRAY && d->array_size % 6) ||
        ((d->target == T_BUFFER || d->target == T_1D || d->target == T_2D ||
          d->target == T_RECT) && d->array_size != 1))
        return pipe_fail(ctx, "resource %u: size %ux%ux%u array %u does not fit target %u",
                         handle, d->width, d->height, d->depth, d->array_size, d->target);
    pipe_resource *r = calloc(1, sizeof *r);
    if (!r)
        return pipe_fail(ctx, "out of memory");
    r->handle = handle;
    r->desc = *d;
    r->format = pipe_format_lookup(d->format);
    r->bw = bw, r->bh = bh, r->bytes = bytes;
    r->samples = samples;
    uint64_t total = 0;
    for (uint32_t l = 0; l <= d->last_level; l++) {
        r->lw[l] = minify(d->width, l);
        r->lh[l] = minify(d->height, l);
        r->ld[l] = d->target == T_3D ? minify(d->depth, l) : d->array_size;
        uint64_t stride = (uint64_t)((r->lw[l] + bw - 1) / bw) * bytes * samples;
        uint64_t slice = stride * ((r->lh[l] + bh - 1) / bh);
        r->level_offset[l] = (size_t)total;
        r->stride[l] = (size_t)stride;
        r->layer_stride[l] = (size_t)slice;
        total += slice * r->ld[l];
        if (total > ctx->max_memory)
            break;
    }
    /* the texels and the record (a client making millions of 1-byte buffers pays for
       their records too); a size past the quota (the loop above stopped adding there)
       fails here as well */
    uint64_t charge = total + sizeof *r + TV_HANDLE_MAP_ENTRY_BYTES;
    if (pipe_charge(ctx, charge, "resource", handle)) {
        free(r);
        return -1;
    }
    r->size = (size_t)total;
    r->charged = charge;
    r->data = calloc(1, r->size ? r->size : 1);
    if (!r->data || tv_handle_map_put(&ctx->resources, handle, r)) {
        pipe_uncharge(ctx, charge);
        free(r->data);
        free(r);
        return pipe_fail(ctx, "resource %u: out of memory", handle);
    }
    return 0;
}

int tv_pipe_resource_destroy(tv_pipe_ctx *ctx, uint32_t handle)
{
    pipe_resource *r = tv_handle_map_remove(&ctx->resources, handle);
    if (!r)
        return pipe_fail(ctx, "resource_unref: no resource %u", handle);
    pipe_uncharge(ctx, r->charged);
    free(r->data);
    free(r);
    return 0;
}

size_t tv_pipe_resource_size(const tv_pipe_ctx *ctx, uint32_t handle)
{
    const pipe_resource *r = pipe_resource_find(ctx, handle);
    return r ? r->size : 0;
}

uint8_t *tv_pipe_resource_data(tv_pipe_ctx *ctx, uint32_t handle)
{
    pipe_resource *r = pipe_resource_find(ctx, handle);
    return r ? r->data : NULL;
}

int tv_pipe_resource_level(const tv_pipe_ctx *ctx, uint32_t handle, uint32_t level,
                           size_t *offset, size_t *stride, size_t *layer_stride)
{
    const pipe_resource *r = pipe_resource_find(ctx, handle);
    if (!r || level > r->desc.last_level)
        return -1;
    *offset = r->level_offset[level];
    *stride = r->stride[level];
    *layer_stride = r->layer_stride[level];
    return 0;
}

int pipe_box_check(tv_pipe_ctx *ctx, const pipe_resource *r, uint32_t level,
                   const tv_pipe_box *b, const char *what)
{
    if (level > r->desc.last_level)
        return pipe_fail(ctx, "%s: level %u of resource %u (last level %u)", what, level,
                         r->handle, r->desc.last_level);
    if ((uint64_t)b->x + b->w > r->lw[level] || (uint64_t)b->y + b->h > r->lh[level] ||
        (uint64_t)b->z + b->d > r->ld[level])
        return pipe_fail(ctx, "%s: box %u,%u,%u %ux%ux%u outside level %u of resource %u "
                         "(%ux%ux%u)", what, b->x, b->y, b->z, b->w, b->h, b->d, level,
                         r->handle, r->lw[level], r->lh[level], r->ld[level]);
    if (b->x % r->bw || b->y % r->bh)
        return pipe_fail(ctx, "%s: box origin %u,%u not on a %ux%u block", what, b->x, b->y,
                         r->bw, r->bh);
    /* a block-compressed box covers whole blocks, but for the level's last partial ones
       (a 6x6 level's blocks end at 8: its box may end at 6) */
    uint32_t ex = b->x + b->w, ey = b->y + b->h;
    if ((ex % r->bw && ex != r->lw[level]) || (ey % r->bh && ey != r->lh[level]))
        return pipe_fail(ctx, "%s: box end %u,%u not on a %ux%u block nor the edge of level "
                         "%u of resource %u (%ux%u)", what, ex, ey, r->bw, r->bh, level,
                         r->handle, r->lw[level], r->lh[level]);
    return 0;
}

/* Copy a box between the resource and client memory; dir 0: memory -> resource. */
static int transfer(tv_pipe_ctx *ctx, uint32_t handle, uint32_t level, const tv_pipe_box *b,
                    uint8_t *mem, size_t mem_size, size_t offset, size_t stride,
                    size_t layer_stride, int to_mem)
{
    const char *what = to_mem ? "transfer read" : "transfer write";
    pipe_resource *r = pipe_resource_find(ctx, handle);
    if (!r)
        return pipe_fail(ctx, "%s: no resource %u", what, handle);
    if (pipe_box_check(ctx, r, level, b, what))
        return -1;
    if (b->w == 0 || b->h == 0 || b->d == 0)
        return 0;
    /* a multisampled resource transfers every sample of each pixel, adjacent */
    size_t row = (size_t)((b->w + r->bw - 1) / r->bw) * r->bytes * r->samples;
    size_t rows = (b->h + r->bh - 1) / r->bh;
    /* strides 0: the level's own layout, as the client's backing has it (Mesa's virgl
       resource layout; virglrenderer the same): rows of the level's width, and layers of
       the level's whole height whatever the box's (a box of fewer rows over several layers
       read its later layers from the wrong rows with a box-sized layer stride) */
    if (!stride)
        stride = r->stride[level];
    if (!layer_stride)
        layer_stride = stride * ((r->lh[level] + r->bh - 1) / r->bh);
    if (stride < row || (b->d > 1 && layer_stride < stride * (rows - 1) + row))
        return pipe_fail(ctx, "%s: stride %zu / layer stride %zu too small for the box", what,
                         stride, layer_stride);
    /* last byte touched in client memory, in 64 bits to rule out overflow */
    uint64_t end = (uint64_t)offset + (uint64_t)layer_stride * (b->d - 1) +
                   (uint64_t)stride * (rows - 1) + row;
    if (end > mem_size)
        return pipe_fail(ctx, "%s: box needs %llu bytes of client memory, %zu given", what,
                         (unsigned long long)end, mem_size);
    if (pipe_work_bytes(ctx, what, (uint64_t)row * rows * b->d))
        return -1;
    for (uint32_t z = 0; z < b->d; z++)
        for (size_t y = 0; y < rows; y++) {
            uint8_t *res = r->data + r->level_offset[level] +
                           r->layer_stride[level] * (b->z + z) +
                           r->stride[level] * (b->y / r->bh + y) +
                           (b->x / r->bw) * r->bytes * r->samples;
            uint8_t *m = mem + offset + layer_stride * z + stride * y;
            if (to_mem)
                memcpy(m, res, row);
            else
                memcpy(res, m, row);
        }
    return 0;
}

int tv_pipe_transfer_write(tv_pipe_ctx *ctx, uint32_t handle, uint32_t level,
                           const tv_pipe_box *box, const void *mem, size_t mem_size,
                           size_t offset, size_t stride, size_t layer_stride)
{
    return transfer(ctx, handle, level, box, (uint8_t *)(uintptr_t)mem, mem_size, offset,
                    stride, layer_stride, 0);
}

int tv_pipe_transfer_read(tv_pipe_ctx *ctx, uint32_t handle, uint32_t level,
                          const tv_pipe_box *box, void *mem, size_t mem_size, size_t offset,
                          size_t stride, size_t layer_stride)
{
    return transfer(ctx, handle, level, box, mem, mem_size, offset, stride, layer_stride, 1);
}

/* Gallium's resource_copy_region copies bytes: the two formats have the same block size in
 * bytes, and one may be block-compressed and the other not (ARB_copy_image: a BC7 block is
 * one RGBA32UI texel). The source box is in the source's texels, the destination origin in
 * the destination's; each is a number of blocks of its own format (as Mesa's drivers count
 * them, util_format_get_nblocksx), so a 4x4-block box of a compressed source is 1x1 texel
 * of a plain destination. */
int tv_pipe_resource_copy_region(tv_pipe_ctx *ctx, uint32_t dst, uint32_t dst_level,
                                 uint32_t dx, uint32_t dy, uint32_t dz, uint32_t src,
                                 uint32_t src_level, const tv_pipe_box *box)
{
    pipe_resource *d = pipe_resource_find(ctx, dst), *s = pipe_resource_find(ctx, src);
    if (!d || !s)
        return pipe_fail(ctx, "resource_copy_region: no resource %u", d ? src : dst);
    bool plain_d = d->bw == 1 && d->bh == 1, plain_s = s->bw == 1 && s->bh == 1;
    if (d->bytes != s->bytes ||
        ((d->bw != s->bw || d->bh != s->bh) && !plain_d && !plain_s))
        return pipe_fail(ctx, "resource_copy_region: formats %u and %u differ in block size",
                         d->desc.format, s->desc.format);
    if (d->samples != s->samples)
        return pipe_fail(ctx, "resource_copy_region: %u and %u samples differ", s->samples,
                         d->samples);
    if (pipe_box_check(ctx, s, src_level, box, "resource_copy_region source"))
        return -1;
    /* the box in blocks; the destination's box is those blocks from its origin */
    uint32_t nbx = (box->w + s->bw - 1) / s->bw, nby = (box->h + s->bh - 1) / s->bh;
    if (dst_level > d->desc.last_level)
        return pipe_fail(ctx, "resource_copy_region destination: level %u of resource %u "
                         "(last level %u)", dst_level, d->handle, d->desc.last_level);
    if (dx % d->bw || dy % d->bh)
        return pipe_fail(ctx, "resource_copy_region destination: origin %u,%u not on a %ux%u "
                         "block", dx, dy, d->bw, d->bh);
    uint32_t dbx = (d->lw[dst_level] + d->bw - 1) / d->bw;
    uint32_t dby = (d->lh[dst_level] + d->bh - 1) / d->bh;
    if ((uint64_t)dx / d->bw + nbx > dbx || (uint64_t)dy / d->bh + nby > dby ||
        (uint64_t)dz + box->d > d->ld[dst_level])
        return pipe_fail(ctx, "resource_copy_region destination: %ux%ux%u blocks at %u,%u,%u "
                         "outside level %u of resource %u (%ux%ux%u)", nbx, nby, box->d, dx,
                         dy, dz, dst_level, d->handle, d->lw[dst_level], d->lh[dst_level],
                         d->ld[dst_level]);
    size_t px = (size_t)s->bytes * s->samples;   /* a pixel's samples are adjacent */
    size_t row = (size_t)nbx * px;
    if (pipe_work_bytes(ctx, "resource_copy_region", (uint64_t)row * nby * box->d))
        return -1;
    for (uint32_t z = 0; z < box->d; z++)
        for (size_t y = 0; y < nby; y++) {
            const uint8_t *sp = s->data + s->level_offset[src_level] +
                                s->layer_stride[src_level] * (box->z + z) +
                                s->stride[src_level] * (box->y / s->bh + y) +
                                (box->x / s->bw) * px;
            uint8_t *dp = d->data + d->level_offset[dst_level] +
                          d->layer_stride[dst_level] * (dz + z) +
                          d->stride[dst_level] * (dy / d->bh + y) + (dx / d->bw) * px;
            memmove(dp, sp, row);
        }
    return 0;
}

int tv_pipe_clear_texture(tv_pipe_ctx *ctx, uint32_t handle, uint32_t level,
                          const tv_pipe_box *box, const uint8_t texel[16])
{
    pipe_resource *r = pipe_resource_find(ctx, handle);
    if (!r)
        return pipe_fail(ctx, "clear_texture: no resource %u", handle);
    if (pipe_box_check(ctx, r, level, box, "clear_texture"))
        return -1;
    /* GL refuses glClearTexImage on compressed formats (INVALID_OPERATION), so Mesa never
       sends one: texvm has no block encoder to make the texel's block from */
    if (r->bw != 1 || r->bh != 1 || r->bytes > 16)
        return pipe_fail(ctx, "clear_texture: resource %u's format %s is block-compressed: "
                         "clearing it is not implemented", handle,
                         tv_pipe_format_name(r->desc.format));
    if (pipe_work_bytes(ctx, "clear_texture", (uint64_t)box->w * box->h * box->d *
                                                  r->bytes * r->samples))
        return -1;
    for (uint32_t z = 0; z < box->d; z++)
        for (uint32_t y = 0; y < box->h; y++) {
            uint8_t *row = r->data + r->level_offset[level] +
                           r->layer_stride[level] * (box->z + z) +
                           r->stride[level] * (box->y + y) +
                           (size_t)box->x * r->bytes * r->samples;
            for (uint32_t x = 0; x < box->w * r->samples; x++)   /* every sample */
                memcpy(row + (size_t)x * r->bytes, texel, r->bytes);
        }
    return 0;
}
