/* Blits (include/texvm/pipe.h, Gallium's pipe_blit_info): a box of one resource level
 * scaled into a box of another, nearest or linear (bilinear; trilinear from a 3D source,
 * whose slices filter together where an array's layers never do), each destination
 * pixel centre mapped
 * back into the source box (mirrored boxes flip), colour through the format table (decode
 * the source texel to API channels, encode into the destination through the output
 * merger's target code, so write masks keep the other channels' bits), depth and stencil
 * copied texel for texel between equal formats (a packed depth/stencil format with only
 * one of its fields in the mask writes that field alone; a linear blit filters the depth,
 * never the stencil); scissor and render condition as asked.
 * Multisampled sources resolve into single-sampled destinations (colour: the samples'
 * average, integer colour, depth and stencil: sample 0), single-sampled sources fill every
 * sample, and equal sample counts copy sample by sample. docs/pipeline-resources.md
 * §Blits. */
#include "pipe_internal.h"
#include "pipe_om.h"
#include "util/half.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define OP "blit"

typedef struct blit_side {
    pipe_resource *r;
    tv_format f;
    uint32_t level;
    /* a source whose texels are read through the format table's decoder alone: block-
       compressed formats and shared exponents, which are not colour targets */
    const tv_format_info *decode;
} blit_side;

static int side(tv_pipe_ctx *ctx, const tv_pipe_blit_side *s, const char *what, blit_side *out)
{
    out->r = pipe_resource_find(ctx, s->res);
    if (!out->r)
        return pipe_fail(ctx, OP ": no %s resource %u", what, s->res);
    out->f = pipe_format_lookup(s->format);
    const tv_format_info *fi = out->f == TV_FORMAT_NONE ? NULL : tv_format_get(out->f);
    if (!fi || fi->block_bytes != out->r->bytes || fi->block_w != out->r->bw ||
        fi->block_h != out->r->bh)
        return pipe_fail(ctx, OP ": %s format %u does not view resource %u", what, s->format,
                         s->res);
    if (out->r->desc.target == 0)
        return pipe_fail(ctx, OP ": %s resource %u is a buffer", what, s->res);
    if (s->level > out->r->desc.last_level)
        return pipe_fail(ctx, OP ": %s level %u past resource %u's %u levels", what, s->level,
                         s->res, out->r->desc.last_level + 1);
    out->level = s->level;
    out->decode = NULL;
    /* the box may be mirrored (negative extent): check the covered range */
    int64_t x0 = s->x, x1 = (int64_t)s->x + s->w, y0 = s->y, y1 = (int64_t)s->y + s->h;
    int64_t z0 = s->z, z1 = (int64_t)s->z + s->d;
    int64_t lo[3] = {x0 < x1 ? x0 : x1, y0 < y1 ? y0 : y1, z0 < z1 ? z0 : z1};
    int64_t hi[3] = {x0 < x1 ? x1 : x0, y0 < y1 ? y1 : y0, z0 < z1 ? z1 : z0};
    const uint32_t lim[3] = {out->r->lw[s->level], out->r->lh[s->level], out->r->ld[s->level]};
    for (int k = 0; k < 3; k++)
        if (lo[k] < 0 || hi[k] > lim[k])
            return pipe_fail(ctx, OP ": %s box (%d,%d,%d %dx%dx%d) outside level %u of "
                             "resource %u (%ux%ux%u)", what, s->x, s->y, s->z, s->w, s->h, s->d,
                             s->level, s->res, lim[0], lim[1], lim[2]);
    return 0;
}

static uint8_t *texel_at(const blit_side *b, uint32_t x, uint32_t y, uint32_t z, unsigned smp)
{
    const pipe_resource *r = b->r;
    return r->data + r->level_offset[b->level] + r->layer_stride[b->level] * z +
           r->stride[b->level] * y + ((size_t)x * r->samples + smp) * r->bytes;
}

/* API channels of a decode-only source's texel (x, y, z): the block holding it decoded at
 * the texel's place (sRGB to linear, as om_target_read), then the format's swizzle. */
static void read_decoded(const blit_side *src, uint32_t x, uint32_t y, uint32_t z,
                         uint32_t api[4])
{
    const pipe_resource *r = src->r;
    const uint8_t *block = r->data + r->level_offset[src->level] +
                           r->layer_stride[src->level] * z + r->stride[src->level] * (y / r->bh) +
                           (size_t)(x / r->bw) * r->bytes;
    om_format_read(src->f, src->decode, block, x % r->bw, y % r->bh, api);
}

/* One source texel's API channels (sample SMP) */
static void read_texel(const blit_side *src, const om_target *st, uint32_t x, uint32_t y,
                       uint32_t z, unsigned smp, uint32_t api[4])
{
    if (src->decode)
        read_decoded(src, x, y, z, api);
    else
        om_target_read(st, texel_at(src, x, y, z, smp), api);
}

/* Colour of source texel (x, y, z) for destination sample DS: the same sample when the
 * counts match, else the average of a multisampled source's samples (sample 0 for integer
 * formats), as float words. */
static void read_color(const blit_side *src, const om_target *st, uint32_t x, uint32_t y,
                       uint32_t z, unsigned ds, unsigned dst_samples, uint32_t value[4])
{
    unsigned n = src->r->samples;
    bool integer = st->cls == OM_CLASS_SINT || st->cls == OM_CLASS_UINT;
    if (n == dst_samples || n == 1 || integer) {
        read_texel(src, st, x, y, z, n == dst_samples ? ds : 0, value);
        return;
    }
    float acc[4] = {0, 0, 0, 0};
    for (unsigned smp = 0; smp < n; smp++) {
        uint32_t t[4];
        read_texel(src, st, x, y, z, smp, t);
        for (int c = 0; c < 4; c++) {
            float f;
            memcpy(&f, &t[c], 4);
            acc[c] += f;
        }
    }
    for (int c = 0; c < 4; c++)
        acc[c] /= (float)n;
    memcpy(value, acc, sizeof acc);
}

/* The source coordinate of destination index I along an axis: the pixel centre mapped
 * from [d0, d0 + dn) onto [s0, s0 + sn) (either may be mirrored). */
static double map(int32_t i, int32_t d0, int32_t dn, int32_t s0, int32_t sn)
{
    return s0 + ((double)(i - d0) + 0.5) * sn / dn;
}

static int32_t clampi(int64_t v, int32_t lo, int32_t hi)
{
    return (int32_t)(v < lo ? lo : v > hi ? hi : v);
}

/* The depth field of a linear depth blit at source position (FX, FY) of slice Z: the four
 * nearest texels' fields weighed bilinearly in float64, clamped to the box's edge texels
 * (LO, HI: its first and last texel), then rounded to the nearest field for UNORM depth, to
 * float32 for Z32F. A weight of 1 gives that texel's field back unchanged. */
static uint32_t depth_linear(const blit_side *src, const om_zs_target *zt, double fx,
                             double fy, uint32_t z, const int32_t lo[2], const int32_t hi[2])
{
    double ux = fx - 0.5, uy = fy - 0.5;
    int32_t x0 = (int32_t)floor(ux), y0 = (int32_t)floor(uy);
    double ax = ux - x0, ay = uy - y0, acc = 0.0;
    for (int k = 0; k < 4; k++) {
        int32_t sx = clampi((int64_t)x0 + (k & 1), lo[0], hi[0]);
        int32_t sy = clampi((int64_t)y0 + (k >> 1), lo[1], hi[1]);
        uint64_t v = 0;
        memcpy(&v, texel_at(src, (uint32_t)sx, (uint32_t)sy, z, 0), zt->bytes);
        uint32_t field = (uint32_t)((v & zt->depth_mask) >> zt->depth_shift);
        double d = field;
        if (zt->depth_float) {
            float f;
            memcpy(&f, &field, 4);
            d = f;
        }
        acc += ((k & 1) ? ax : 1 - ax) * ((k >> 1) ? ay : 1 - ay) * d;
    }
    return zt->depth_float ? tv_f32_bits((float)acc) : (uint32_t)nearbyint(acc);
}

int tv_pipe_blit(tv_pipe_ctx *ctx, const tv_pipe_blit_info *b)
{
    if (b->alpha_blend)
        return pipe_fail(ctx, OP ": blending blits are not implemented");
    if (b->filter > 1)
        return pipe_fail(ctx, OP ": unknown filter %u", b->filter);
    if (!b->dst.w || !b->dst.h || !b->dst.d || !b->src.w || !b->src.h || !b->src.d)
        return 0;                         /* an empty box blits nothing */
    blit_side src, dst;
    if (side(ctx, &b->src, "source", &src) || side(ctx, &b->dst, "destination", &dst))
        return -1;
    if (b->render_condition_enable) {
        int pass = pipe_render_condition_passes(ctx, OP);
        if (pass <= 0)
            return pass;
    }
    const tv_format_info *sfi = tv_format_get(src.f), *dfi = tv_format_get(dst.f);
    bool zs = dfi->kind == TV_FMT_KIND_DEPTH || sfi->kind == TV_FMT_KIND_DEPTH;
    om_target st, dt;
    om_zs_target zt;
    memset(&zt, 0, sizeof zt);
    uint64_t zs_copy = 0;   /* 0: whole texels, else the bits a depth/stencil blit writes */
    if (zs) {
        if (src.f != dst.f)
            return pipe_fail(ctx, OP ": depth/stencil between formats %s and %s is not "
                             "implemented", sfi->name, dfi->name);
        if (!(b->mask & 0x30))
            return 0;
        /* the fields the mask names (Z 0x10, S 0x20); a packed format with one of its two
           named keeps the other field of each destination texel */
        if (om_zs_target_init(&zt, dst.f)) {
            zs_copy = ((b->mask & 0x10) ? zt.depth_mask : 0) |
                      ((b->mask & 0x20) ? zt.stencil_mask : 0);
            if (!zs_copy)
                return 0;       /* a field the format does not have */
            if (zs_copy == (zt.depth_mask | zt.stencil_mask))
                zs_copy = 0;    /* every field: whole texels */
        }
    } else if (dfi->block_w != 1 || dfi->block_h != 1) {
        return pipe_fail(ctx, OP ": destination format %s is block-compressed: blits into it "
                         "are not implemented", dfi->name);
    } else if (!om_target_init(&dt, dst.f)) {
        return pipe_fail(ctx, OP ": colour blits into %s are not implemented (not a render "
                         "format)", dfi->name);
    } else if (!om_target_init(&st, src.f)) {   /* (zeroes st either way) */
        /* any other colour format is read through its decoder; its class (never an
           integer one: those are all render formats) is the destination's concern */
        src.decode = sfi;
        st.cls = sfi->data_type[0] == TV_TIC_TYPE_SNORM   ? OM_CLASS_SNORM
                 : sfi->data_type[0] == TV_TIC_TYPE_FLOAT ? OM_CLASS_FLOAT
                                                          : OM_CLASS_UNORM;
    }
    unsigned ns = src.r->samples, nd = dst.r->samples;
    if (ns > 1 && nd > 1 && ns != nd)
        return pipe_fail(ctx, OP ": from %u samples to %u is not implemented", ns, nd);
    unsigned colormask = b->mask & 0xfu;
    /* a multisampled source is read sample by sample (GL allows no scaling there); a 3D
       source filters across its slices too, the layers of an array or cube never */
    bool linear = b->filter == 1 && !zs && ns == 1;
    /* a linear blit filters depth too (st/mesa makes depth mipmaps so), never stencil */
    bool zlinear = b->filter == 1 && zs && ns == 1 && (b->mask & 0x10) && zt.depth_bits;
    bool volume = src.r->desc.target == 3;   /* PIPE_TEXTURE_3D */
    /* destination pixels: the box, normalised, cut by the scissor */
    int32_t dx0 = b->dst.w < 0 ? b->dst.x + b->dst.w : b->dst.x;
    int32_t dy0 = b->dst.h < 0 ? b->dst.y + b->dst.h : b->dst.y;
    int32_t dz0 = b->dst.d < 0 ? b->dst.z + b->dst.d : b->dst.z;
    int32_t dx1 = dx0 + abs(b->dst.w), dy1 = dy0 + abs(b->dst.h), dz1 = dz0 + abs(b->dst.d);
    if (b->scissor_enable) {
        dx0 = dx0 > (int32_t)b->scissor.minx ? dx0 : (int32_t)b->scissor.minx;
        dy0 = dy0 > (int32_t)b->scissor.miny ? dy0 : (int32_t)b->scissor.miny;
        dx1 = dx1 < (int32_t)b->scissor.maxx ? dx1 : (int32_t)b->scissor.maxx;
        dy1 = dy1 < (int32_t)b->scissor.maxy ? dy1 : (int32_t)b->scissor.maxy;
    }
    /* each destination sample reads and converts up to four texels: 64 bytes of work; a
       decoded source decodes a whole block for each of them (a BC7 block costs about as
       much as copying 256 bytes) */
    uint64_t per_sample = src.decode && src.r->bw > 1 ? 1024u : 64u;
    if (dx1 > dx0 && dy1 > dy0 && dz1 > dz0 &&
        pipe_work_bytes(ctx, OP, (uint64_t)(dx1 - dx0) * (uint64_t)(dy1 - dy0) *
                                     (uint64_t)(dz1 - dz0) * nd * per_sample))
        return -1;
    int32_t sxmin = b->src.w < 0 ? b->src.x + b->src.w : b->src.x;
    int32_t symin = b->src.h < 0 ? b->src.y + b->src.h : b->src.y;
    int32_t szmin = b->src.d < 0 ? b->src.z + b->src.d : b->src.z;
    int32_t sxmax = sxmin + abs(b->src.w) - 1, symax = symin + abs(b->src.h) - 1;
    int32_t szmax = szmin + abs(b->src.d) - 1;
    for (int32_t z = dz0; z < dz1; z++) {
        double fz = map(z, b->dst.z, b->dst.d, b->src.z, b->src.d);
        int32_t sz = clampi((int64_t)floor(fz), szmin, szmax);
        /* the two slices a volume's linear filter weighs, and the second one's weight */
        double uz = fz - 0.5;
        int32_t z0 = (int32_t)floor(uz);
        int32_t slice[2] = {volume ? clampi(z0, szmin, szmax) : sz,
                            volume ? clampi((int64_t)z0 + 1, szmin, szmax) : sz};
        float az = volume ? (float)(uz - z0) : 0.0f;
        for (int32_t y = dy0; y < dy1; y++) {
            double fy = map(y, b->dst.y, b->dst.h, b->src.y, b->src.h);
            for (int32_t x = dx0; x < dx1; x++) {
                double fx = map(x, b->dst.x, b->dst.w, b->src.x, b->src.w);
                for (unsigned ds = 0; ds < nd; ds++) {
                    uint8_t *out = texel_at(&dst, (uint32_t)x, (uint32_t)y, (uint32_t)z, ds);
                    if (zs) {
                        int32_t sx = clampi((int64_t)floor(fx), sxmin, sxmax);
                        int32_t sy = clampi((int64_t)floor(fy), symin, symax);
                        const uint8_t *in = texel_at(&src, (uint32_t)sx, (uint32_t)sy,
                                                     (uint32_t)sz, ns == nd ? ds : 0);
                        if (!zs_copy && !zlinear) {
                            memcpy(out, in, dst.r->bytes);
                            continue;
                        }
                        uint64_t sv = 0, dv = 0;    /* little-endian texels of <= 8 bytes */
                        memcpy(&sv, in, dst.r->bytes);
                        memcpy(&dv, out, dst.r->bytes);
                        if (zlinear) {
                            const int32_t lo[2] = {sxmin, symin}, hi[2] = {sxmax, symax};
                            uint64_t f = depth_linear(&src, &zt, fx, fy, (uint32_t)sz, lo, hi);
                            sv = (sv & ~zt.depth_mask) | ((f << zt.depth_shift) & zt.depth_mask);
                        }
                        uint64_t m = zs_copy ? zs_copy : ~0ull;   /* whole texels */
                        dv = (dv & ~m) | (sv & m);
                        memcpy(out, &dv, dst.r->bytes);
                        continue;
                }
                uint32_t value[4];
                if (!linear || st.cls == OM_CLASS_SINT || st.cls == OM_CLASS_UINT) {
                    int32_t sx = clampi((int64_t)floor(fx), sxmin, sxmax);
                    int32_t sy = clampi((int64_t)floor(fy), symin, symax);
                    read_color(&src, &st, (uint32_t)sx, (uint32_t)sy, (uint32_t)sz, ds, nd, value);
                } else {
                    /* bilinear (trilinear in a volume), clamped to the source box's
                       edge texels */
                    double ux = fx - 0.5, uy = fy - 0.5;
                    int32_t x0 = (int32_t)floor(ux), y0 = (int32_t)floor(uy);
                    float ax = (float)(ux - x0), ay = (float)(uy - y0);
                    float acc[4] = {0, 0, 0, 0};
                    for (int k = 0; k < (volume ? 8 : 4); k++) {
                        int32_t sx = clampi(x0 + (k & 1), sxmin, sxmax);
                        int32_t sy = clampi(y0 + ((k >> 1) & 1), symin, symax);
                        uint32_t t[4];
                        read_texel(&src, &st, (uint32_t)sx, (uint32_t)sy,
                                   (uint32_t)slice[k >> 2], 0, t);
                        float w = ((k & 1) ? ax : 1 - ax) * (((k >> 1) & 1) ? ay : 1 - ay) *
                                  ((k >> 2) ? az : 1 - az);
                        for (int c = 0; c < 4; c++) {
                            float f;
                            memcpy(&f, &t[c], 4);
                            acc[c] += w * f;
                        }
                    }
                    memcpy(value, acc, sizeof value);
                }
                om_target_write(&dt, value, colormask, -1, out);
                }
            }
        }
    }
    return 0;
}
