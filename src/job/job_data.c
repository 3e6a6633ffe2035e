/* Job data: texel bytes of every texture from its sources (PNG, raw, values, fill,
 * patterns) and mip chains, tightly packed in the order of docs/jobs-resources.md §1. */
#include "image.h"
#include "job_internal.h"
#include "texvm/job.h"
#include <unistd.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double srgb_to_linear(double c)
{
    return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4);
}

static bool is_int_kind(const tv_format_info *fi)
{
    return fi->kind == TV_FMT_KIND_UINT || fi->kind == TV_FMT_KIND_SINT;
}

/* Words of a pattern value for a format: floats, or value*255 rounded for integers. */
static void pattern_words(const tv_format_info *fi, const double v[4], uint32_t w[4])
{
    for (int k = 0; k < 4; k++) {
        if (!is_int_kind(fi)) {
            w[k] = job_f32_bits((float)v[k]);
            continue;
        }
        double x = nearbyint(v[k] * 255.0);
        if (fi->kind == TV_FMT_KIND_UINT)
            w[k] = x <= 0 ? 0 : x >= 4294967295.0 ? 0xffffffffu : (uint32_t)x;
        else {
            int32_t i = x <= -2147483648.0 ? INT32_MIN : x >= 2147483647.0 ? INT32_MAX : (int32_t)x;
            memcpy(&w[k], &i, 4);
        }
    }
}

typedef struct level_ctx {
    jl *c;
    job_texture *t;
    const tv_format_info *fi;
    uint32_t level, w, h, layers;
    uint8_t *dst;        /* start of the level (or of the layer being filled) */
    size_t texel_bytes;  /* bytes of one texel */
    uint32_t layer_base; /* first layer filled (layer_sources), for patterns */
    uint32_t all_layers; /* layers of the level, for patterns */
    size_t bytes;        /* bytes being filled (raw sources) */
} level_ctx;

/* Store one texel's words at (layer, x, y), replicated over the samples. */
static bool put(level_ctx *L, uint32_t layer, uint32_t x, uint32_t y, const uint32_t w[4])
{
    uint8_t texel[16];
    if (!tv_format_pack(L->t->format, w, texel))
        return jl_fail(L->c, TV_JOB_ERR_INVALID,
                       "%s is block-compressed: give its data as a \"raw\" source", L->fi->name);
    size_t s = L->t->samples;
    size_t idx = (((size_t)layer * L->h + y) * L->w + x) * s;
    for (size_t k = 0; k < s; k++)
        memcpy(L->dst + (idx + k) * L->texel_bytes, texel, L->texel_bytes);
    return true;
}

static bool from_png(level_ctx *L, const job_source *s)
{
    image img;
    char msg[512];
    int r = image_png_read(s->path, &img, msg, sizeof msg);
    if (r)
        return jl_fail(L->c, r == 3 ? TV_JOB_ERR_IO : TV_JOB_ERR_INVALID, "%s", msg);
    if (img.width != L->w || img.height != L->h * L->layers) {
        if (L->layers > 1)
            jl_fail(L->c, TV_JOB_ERR_INVALID,
                    "\"%s\" is %ux%u, level %u needs %ux%u (%u layers of %u rows, stacked)",
                    s->path, img.width, img.height, L->level, L->w, L->h * L->layers, L->layers,
                    L->h);
        else
            jl_fail(L->c, TV_JOB_ERR_INVALID, "\"%s\" is %ux%u, level %u needs %ux%u", s->path,
                    img.width, img.height, L->level, L->w, L->h);
        image_free(&img);
        return false;
    }
    double maxv = img.bits == 16 ? 65535.0 : 255.0;
    bool ok = true;
    for (uint32_t layer = 0; layer < L->layers && ok; layer++)
        for (uint32_t y = 0; y < L->h && ok; y++)
            for (uint32_t x = 0; x < L->w && ok; x++) {
                const uint16_t *p =
                    img.px + (((size_t)layer * L->h + y) * img.width + x) * (size_t)img.channels;
                uint32_t v[4];
                bool gray = img.channels <= 2;
                uint32_t raw[4] = {p[0], gray ? p[0] : p[1], gray ? p[0] : p[2],
                                   img.channels == 2   ? p[1]
                                   : img.channels == 4 ? p[3]
                                                       : (uint32_t)maxv};
                for (int k = 0; k < 4; k++) {
                    if (is_int_kind(L->fi)) {
                        v[k] = raw[k];
                    } else {
                        double f = raw[k] / maxv;
                        if (L->fi->srgb && k < 3)
                            f = srgb_to_linear(f); /* the PNG holds sRGB-encoded values */
                        v[k] = job_f32_bits((float)f);
                    }
                }
                ok = put(L, layer, x, y, v);
            }
    image_free(&img);
    return ok;
}

static bool from_values(level_ctx *L, const job_source *s)
{
    size_t need = (size_t)L->w * L->h * L->layers;
    if (s->values.count / 4 != need)
        return jl_fail(L->c, TV_JOB_ERR_INVALID, "%zu texel values, level %u has %zu texels",
                       s->values.count / 4, L->level, need);
    size_t i = 0;
    for (uint32_t layer = 0; layer < L->layers; layer++)
        for (uint32_t y = 0; y < L->h; y++)
            for (uint32_t x = 0; x < L->w; x++, i++)
                if (!put(L, layer, x, y, s->values.w + 4 * i))
                    return false;
    return true;
}

static bool from_fill(level_ctx *L, const job_source *s)
{
    for (uint32_t layer = 0; layer < L->layers; layer++)
        for (uint32_t y = 0; y < L->h; y++)
            for (uint32_t x = 0; x < L->w; x++)
                if (!put(L, layer, x, y, s->values.w))
                    return false;
    return true;
}

static bool from_pattern(level_ctx *L, const job_source *s)
{
    for (uint32_t layer = 0; layer < L->layers; layer++)
        for (uint32_t y = 0; y < L->h; y++)
            for (uint32_t x = 0; x < L->w; x++) {
                double v[4];
                uint32_t w[4];
                job_pattern_eval(&s->pattern, x, y, L->layer_base + layer, L->all_layers,
                                 L->level, L->w, L->h, v);
                pattern_words(L->fi, v, w);
                if (!put(L, layer, x, y, w))
                    return false;
            }
    return true;
}

/* Raw bytes from a file at an offset into [dst, dst+size). */
static bool from_raw(jl *c, const job_source *s, uint8_t *dst, size_t size)
{
    int fd;
    char why[160];
    int orc = tv_file_open(s->path, UINT64_MAX, &fd, why, sizeof why);
    if (orc)
        return jl_fail(c, TV_JOB_ERR_IO, "cannot read \"%s\": %s", s->path, why);
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        close(fd);
        return jl_fail(c, TV_JOB_ERR_IO, "cannot read \"%s\"", s->path);
    }
    bool ok = fseek(f, (long)s->offset, SEEK_SET) == 0 && fread(dst, 1, size, f) == size;
    fclose(f);
    if (!ok)
        return jl_fail(c, TV_JOB_ERR_INVALID, "\"%s\" is too short: %zu bytes needed from offset %llu",
                       s->path, size, (unsigned long long)s->offset);
    return true;
}

/* Level L from level L-1 by a 2x2 (2x2x2 for 3D) box filter on decoded values. */
static bool generate(level_ctx *L, const uint8_t *src, uint32_t sw, uint32_t sh, uint32_t sl)
{
    bool three_d = L->t->type == TV_TEX_3D;
    size_t tb = L->texel_bytes * L->t->samples;
    for (uint32_t layer = 0; layer < L->layers; layer++)
        for (uint32_t y = 0; y < L->h; y++)
            for (uint32_t x = 0; x < L->w; x++) {
                uint32_t w[4];
                double acc[4] = {0, 0, 0, 0};
                unsigned n = 0;
                uint32_t nz = three_d ? 2 : 1;
                for (uint32_t dz = 0; dz < nz; dz++)
                    for (uint32_t dy = 0; dy < 2; dy++)
                        for (uint32_t dx = 0; dx < 2; dx++) {
                            uint32_t sx = 2 * x + dx, sy = 2 * y + dy;
                            uint32_t sz = three_d ? 2 * layer + dz : layer;
                            sx = sx < sw ? sx : sw - 1;
                            sy = sy < sh ? sy : sh - 1;
                            sz = sz < sl ? sz : sl - 1;
                            uint32_t v[4];
                            tv_format_unpack(L->t->format,
                                             src + (((size_t)sz * sh + sy) * sw + sx) * tb, 0, 0,
                                             v);
                            if (n == 0)
                                memcpy(w, v, sizeof w); /* integers: the top-left texel */
                            for (int k = 0; k < 4; k++)
                                acc[k] += job_bits_f32(v[k]);
                            n++;
                        }
                if (!is_int_kind(L->fi))
                    for (int k = 0; k < 4; k++)
                        w[k] = job_f32_bits((float)(acc[k] / n));
                if (!put(L, layer, x, y, w))
                    return false;
            }
    return true;
}

static bool fill_level(level_ctx *L, const job_source *s)
{
    switch (s->kind) {
    case JOB_SRC_PNG: return from_png(L, s);
    case JOB_SRC_VALUES: return from_values(L, s);
    case JOB_SRC_FILL: return from_fill(L, s);
    case JOB_SRC_PATTERN: return from_pattern(L, s);
    case JOB_SRC_RAW:
        return from_raw(L->c, s, L->dst, L->bytes);
    default: return true; /* no source: zeros */
    }
}

static bool build_texture(jl *c, job_texture *t)
{
    const tv_format_info *fi = tv_format_get(t->format);
    if (!fi)
        return jl_fail(c, TV_JOB_ERR_INVALID, "no format");
    size_t total = 0;
    if (t->levels > 16)
        return jl_fail(c, TV_JOB_ERR_INVALID, "more than 16 levels");
    for (uint32_t l = 0; l < t->levels; l++) {
        t->level_offset[l] = total;
        t->level_size[l] = job_texture_level_bytes(t, l);
        total += t->level_size[l];
    }
    if (total > ((size_t)1 << 31))
        return jl_fail(c, TV_JOB_ERR_INVALID, "the texture needs %zu bytes (more than 2 GiB)", total);
    t->data = calloc(total ? total : 1, 1);
    if (!t->data)
        return jl_fail(c, TV_JOB_ERR_INVALID, "out of memory (%zu bytes)", total);
    t->data_size = total;
    bool block = fi->block_w > 1 || fi->block_h > 1;
    bool whole_raw = t->source.kind == JOB_SRC_RAW && !t->num_level_sources &&
                     !t->num_layer_sources &&
                     t->mipmaps == JOB_MIP_NONE;
    if (whole_raw) {
        size_t m = jl_push_key(c, "source");
        bool ok = from_raw(c, &t->source, t->data, total);
        jl_pop(c, m);
        return ok;
    }
    for (uint32_t l = 0; l < t->levels; l++) {
        level_ctx L = {c, t, fi, l, job_level_size(t->width, l), job_level_size(t->height, l),
                       job_texture_layers(t, l), t->data + t->level_offset[l], fi->block_bytes,
                       0, job_texture_layers(t, l), t->level_size[l]};
        bool ok = true;
        size_t m;
        if (l == 0 && t->num_layer_sources) {
            /* one source per layer: fill each layer's slab on its own */
            m = jl_push_key(c, "layer_sources");
            size_t slab = t->level_size[0] / L.layers;
            for (uint32_t y = 0; y < L.all_layers && ok; y++) {
                level_ctx one = L;
                one.layers = 1;
                one.layer_base = y;
                one.dst = L.dst + slab * y;
                one.bytes = slab;
                size_t mi = jl_push_index(c, y);
                ok = fill_level(&one, &t->layer_sources[y]);
                if (ok)
                    jl_pop(c, mi);
            }
        } else if (t->num_level_sources) {
            m = jl_push_key(c, "level_sources");
            jl_push_index(c, l);
            ok = fill_level(&L, &t->level_sources[l]);
        } else if (l == 0 || t->mipmaps == JOB_MIP_PATTERN) {
            m = jl_push_key(c, "source");
            ok = fill_level(&L, &t->source);
        } else if (t->mipmaps == JOB_MIP_GENERATE) {
            m = jl_push_key(c, "mipmaps");
            if (block)
                ok = jl_fail(c, TV_JOB_ERR_INVALID,
                             "mip maps of block-compressed %s cannot be generated; give "
                             "\"level_sources\"",
                             fi->name);
            else
                ok = generate(&L, t->data + t->level_offset[l - 1],
                              job_level_size(t->width, l - 1), job_level_size(t->height, l - 1),
                              job_texture_layers(t, l - 1));
        } else {
            m = jl_push_key(c, t->num_layer_sources ? "layer_sources" : "source");
            if (t->num_layer_sources)
                ok = jl_fail(c, TV_JOB_ERR_INVALID,
                             "level %u has no data: set \"mipmaps\": \"generate\"", l);
            else if (t->source.kind == JOB_SRC_PATTERN || t->source.kind == JOB_SRC_FILL ||
                     t->source.kind == JOB_SRC_NONE)
                ok = fill_level(&L, &t->source);
            else
                ok = jl_fail(c, TV_JOB_ERR_INVALID,
                             "level %u has no data: set \"mipmaps\" or give \"level_sources\"",
                             l);
        }
        if (!ok)
            return false;
        jl_pop(c, m);
    }
    return true;
}

bool job_build_data(job *j, tv_job_error *err)
{
    jl c = {.job = j, .file = j->path, .dir = j->dir, .err = err};
    size_t m0 = jl_push_key(&c, "textures");
    for (size_t i = 0; i < j->num_textures; i++) {
        if (j->textures[i].data)
            continue;
        size_t m = jl_push_index(&c, i);
        if (!build_texture(&c, &j->textures[i]))
            return false;
        jl_pop(&c, m);
    }
    jl_pop(&c, m0);
    return true;
}
