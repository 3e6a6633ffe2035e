/* texvm run: outputs (PNG, raw, dumps, vertex text) and checks. tools/mesa-run compiles
 * this file too (without job_run.c), so the run_* helpers it uses are defined here. */
#include "image.h"
#include "job_run.h"
#include "texvm/job.h"
#include <errno.h>

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int run_vfail(run_state *rs, int code, const char *fmt, va_list ap)
{
    if (!rs->error[0])
        vsnprintf(rs->error, sizeof rs->error, fmt, ap);
    return code;
}

int run_fail(run_state *rs, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    code = run_vfail(rs, code, fmt, ap);
    va_end(ap);
    return code;
}

char *run_out_path(const run_state *rs, const char *rel)
{
    const char *dir = rs->opts->out_dir ? rs->opts->out_dir : rs->j->dir;
    size_t n = strlen(rel) + (dir ? strlen(dir) : 0) + 2;
    char *p = malloc(n);
    if (!p)
        return NULL;
    if (rel[0] == '/' || !dir || !dir[0])
        snprintf(p, n, "%s", rel);
    else
        snprintf(p, n, "%s/%s", dir, rel);
    return p;
}

static double linear_to_srgb(double c)
{
    return c <= 0.0031308 ? c * 12.92 : 1.055 * pow(c, 1 / 2.4) - 0.055;
}

/* Four words of a target pixel as the target's format stores them (pack, then decode). */
static void target_value(const run_state *rs, unsigned t, uint32_t x, uint32_t y,
                         uint32_t sample, uint32_t out[4])
{
    const job_frag *f = &rs->j->frag;
    const uint32_t *w = rs->color[t] + 4 * (((size_t)y * f->width + x) * f->samples + sample);
    uint8_t texel[16];
    if (tv_format_pack(f->targets[t].format, w, texel))
        tv_format_unpack(f->targets[t].format, texel, 0, 0, out);
    else
        memcpy(out, w, 16);
}

/* One PNG sample from a decoded value. */
static uint16_t png_sample(const tv_format_info *fi, uint32_t v, int comp, int bits)
{
    double maxv = bits == 16 ? 65535.0 : 255.0;
    if (fi && fi->kind == TV_FMT_KIND_UINT)
        return (uint16_t)(v > maxv ? maxv : v);
    if (fi && fi->kind == TV_FMT_KIND_SINT) {
        int32_t i;
        memcpy(&i, &v, 4);
        return (uint16_t)(i < 0 ? 0 : i > maxv ? maxv : i);
    }
    double d = job_bits_f32(v);
    if (isnan(d))
        d = 0;
    d = d < 0 ? 0 : d > 1 ? 1 : d;
    if (fi && fi->srgb && comp < 3)
        d = linear_to_srgb(d);
    return (uint16_t)nearbyint(d * maxv);
}

typedef void (*pixel_fn)(const run_state *rs, const job_output *o, uint32_t x, uint32_t y,
                         uint32_t out[4]);

/* A target pixel for a PNG: multisampled float targets are resolved (the mean of the
 * samples' stored values); integer targets show sample 0. */
static void px_target(const run_state *rs, const job_output *o, uint32_t x, uint32_t y,
                      uint32_t out[4])
{
    const job_frag *f = &rs->j->frag;
    target_value(rs, (unsigned)o->index, x, y, 0, out);
    const tv_format_info *fi = tv_format_get(f->targets[o->index].format);
    if (f->samples <= 1 || (fi && (fi->kind == TV_FMT_KIND_UINT || fi->kind == TV_FMT_KIND_SINT)))
        return;
    double sum[4] = {0, 0, 0, 0};
    for (uint32_t s = 0; s < f->samples; s++) {
        uint32_t v[4];
        target_value(rs, (unsigned)o->index, x, y, s, v);
        for (int c = 0; c < 4; c++)
            sum[c] += job_bits_f32(v[c]);
    }
    for (int c = 0; c < 4; c++) {
        float m = (float)(sum[c] / f->samples);
        memcpy(&out[c], &m, 4);
    }
}

static void px_depth(const run_state *rs, const job_output *o, uint32_t x, uint32_t y,
                     uint32_t out[4])
{
    (void)o;
    const job_frag *f = &rs->j->frag;
    memcpy(&out[0], &rs->depth[((size_t)y * f->width + x) * f->samples], 4);
    out[1] = out[2] = out[0];
    out[3] = 0x3f800000u;
}

static void px_stencil(const run_state *rs, const job_output *o, uint32_t x, uint32_t y,
                       uint32_t out[4])
{
    (void)o;
    const job_frag *f = &rs->j->frag;
    out[0] = out[1] = out[2] = rs->stencil[((size_t)y * f->width + x) * f->samples];
    out[3] = 255;
}

static void px_texture(const run_state *rs, const job_output *o, uint32_t x, uint32_t y,
                       uint32_t out[4])
{
    const job_texture *t = &rs->j->textures[o->index];
    const uint8_t *p = run_texel_ptr(rs, (size_t)o->index, (unsigned)o->level, x, y,
                                     (unsigned)o->layer, 0);
    if (p)
        tv_format_unpack(t->format, p, x, y, out);
    else
        memset(out, 0, 16);
}

/* The PNG pixels of an output (or of a reference check): o->channels and o->bits. */
static int build_image(run_state *rs, const job_output *o, image *out)
{
    const job *j = rs->j;
    uint32_t w, h;
    const tv_format_info *fi = NULL;
    pixel_fn fn;
    switch (o->res) {
    case JOB_RES_TARGET:
        w = j->frag.width, h = j->frag.height;
        fi = tv_format_get(j->frag.targets[o->index].format);
        fn = px_target;
        break;
    case JOB_RES_DEPTH:
        w = j->frag.width, h = j->frag.height;
        fn = px_depth;
        break;
    case JOB_RES_STENCIL:
        w = j->frag.width, h = j->frag.height;
        fi = tv_format_get(tv_format_from_name("R32_UINT"));
        fn = px_stencil;
        break;
    default: {
        const job_texture *t = &j->textures[o->index];
        w = job_level_size(t->width, (uint32_t)o->level);
        h = job_level_size(t->height, (uint32_t)o->level);
        fi = tv_format_get(t->format);
        fn = px_texture;
        break;
    }
    }
    static const int nch[4] = {4, 3, 1, 2};
    static const int map[4][4] = {{0, 1, 2, 3}, {0, 1, 2, 0}, {0, 0, 0, 0}, {0, 3, 0, 0}};
    image img = {w, h, nch[o->channels], o->bits, NULL};
    img.px = malloc((size_t)w * h * (size_t)img.channels * sizeof *img.px);
    if (!img.px)
        return run_fail(rs, TV_EXIT_INVALID, "out of memory");
    uint16_t *q = img.px;
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            uint32_t v[4];
            fn(rs, o, x, y, v);
            for (int c = 0; c < img.channels; c++) {
                int comp = map[o->channels][c];
                *q++ = png_sample(fi, v[comp], comp, o->bits);
            }
        }
    *out = img;
    return 0;
}

static int write_png(run_state *rs, const job_output *o, FILE *f, const char *path)
{
    image img;
    int rc = build_image(rs, o, &img);
    if (rc)
        return rc;
    char msg[600];
    int r = image_png_write_to(f, path, &img, msg, sizeof msg);
    image_free(&img);
    return r ? run_fail(rs, r == 3 ? TV_EXIT_IO : TV_EXIT_INVALID, "%s", msg) : 0;
}

/* Bytes of a raw output (malloc'ed). */
static uint8_t *raw_bytes(run_state *rs, const job_output *o, size_t *size)
{
    const job *j = rs->j;
    size_t n;
    uint8_t *buf = NULL, *p;
    switch (o->res) {
    case JOB_RES_TARGET: {
        const job_frag *f = &j->frag;
        const tv_format_info *fi = tv_format_get(f->targets[o->index].format);
        n = (size_t)f->width * f->height * f->samples;
        buf = malloc(n * fi->block_bytes + 1);
        if (!buf)
            return NULL;
        for (size_t k = 0; k < n; k++)
            if (!tv_format_pack(f->targets[o->index].format, rs->color[o->index] + 4 * k,
                                buf + k * fi->block_bytes))
                memset(buf + k * fi->block_bytes, 0, fi->block_bytes);
        *size = n * fi->block_bytes;
        return buf;
    }
    case JOB_RES_DEPTH:
    case JOB_RES_STENCIL:
        n = (size_t)j->frag.width * j->frag.height * j->frag.samples * 4;
        buf = malloc(n + 1);
        if (buf)
            memcpy(buf, o->res == JOB_RES_DEPTH ? (void *)rs->depth : (void *)rs->stencil, n);
        *size = n;
        return buf;
    case JOB_RES_BUFFER:
        *size = j->buffers[o->index].size;
        buf = malloc(*size + 1);
        if (buf)
            memcpy(buf, j->buffers[o->index].data, *size);
        return buf;
    case JOB_RES_HWATOMIC:
        *size = j->hwatomics[o->index].size;
        buf = malloc(*size + 1);
        if (buf)
            memcpy(buf, j->hwatomics[o->index].data, *size);
        return buf;
    default:
        break;
    }
    /* A texture: one level/layer, or everything in the order of a raw source. */
    const job_texture *t = &j->textures[o->index];
    const tv_format_info *fi = tv_format_get(t->format);
    uint32_t l0 = o->level >= 0 ? (uint32_t)o->level : 0;
    uint32_t l1 = o->level >= 0 ? l0 + 1 : t->levels;
    n = 0;
    for (uint32_t l = l0; l < l1; l++)
        n += o->layer >= 0 ? job_texture_level_bytes(t, l) / job_texture_layers(t, l)
                           : job_texture_level_bytes(t, l);
    buf = p = malloc(n + 1);
    if (!buf)
        return NULL;
    for (uint32_t l = l0; l < l1; l++) {
        uint32_t w = job_level_size(t->width, l), h = job_level_size(t->height, l);
        uint32_t bw = (w + fi->block_w - 1) / fi->block_w, bh = (h + fi->block_h - 1) / fi->block_h;
        uint32_t la0 = o->layer >= 0 ? (uint32_t)o->layer : 0;
        uint32_t la1 = o->layer >= 0 ? la0 + 1 : job_texture_layers(t, l);
        for (uint32_t la = la0; la < la1; la++)
            for (uint32_t by = 0; by < bh; by++)
                for (uint32_t bx = 0; bx < bw; bx++)
                    for (uint32_t s = 0; s < t->samples; s++) {
                        const uint8_t *src = run_texel_ptr(rs, (size_t)o->index, l,
                                                           bx * fi->block_w, by * fi->block_h,
                                                           la, s);
                        if (src)
                            memcpy(p, src, fi->block_bytes);
                        else
                            memset(p, 0, fi->block_bytes);
                        p += fi->block_bytes;
                    }
    }
    *size = n;
    return buf;
}

static void dump_word(FILE *f, uint32_t w, int type)
{
    switch (type) {
    case JOB_TYPE_INT: {
        int32_t i;
        memcpy(&i, &w, 4);
        fprintf(f, " %d", i);
        break;
    }
    case JOB_TYPE_FLOAT: fprintf(f, " %.9g", (double)job_bits_f32(w)); break;
    case JOB_TYPE_HEX: fprintf(f, " 0x%08x", w); break;
    default: fprintf(f, " %u", w); break;
    }
}

static int write_dump(run_state *rs, const job_output *o, FILE *f)
{
    const uint8_t *data;
    size_t size;
    if (o->res == JOB_RES_BUFFER) {
        data = rs->j->buffers[o->index].data;
        size = rs->j->buffers[o->index].size;
    } else {
        data = rs->j->hwatomics[o->index].data;
        size = rs->j->hwatomics[o->index].size;
    }
    size_t words = size / 4;
    for (size_t i = 0; i < words; i += o->columns) {
        fprintf(f, "0x%04zx:", i * 4);
        for (size_t k = i; k < i + o->columns && k < words; k++) {
            uint32_t w;
            memcpy(&w, data + 4 * k, 4);
            dump_word(f, w, o->type);
        }
        fputc('\n', f);
    }
    if (size % 4) {
        fprintf(f, "0x%04zx: bytes", words * 4);
        for (size_t k = words * 4; k < size; k++)
            fprintf(f, " %02x", data[k]);
        fputc('\n', f);
    }
    return 0;
}

static void vec_text(FILE *f, const uint32_t *v)
{
    fprintf(f, "(%.9g %.9g %.9g %.9g) [%08x %08x %08x %08x]", (double)job_bits_f32(v[0]), (double)job_bits_f32(v[1]),
            (double)job_bits_f32(v[2]), (double)job_bits_f32(v[3]), v[0], v[1], v[2], v[3]);
}

static int write_vertices(run_state *rs, FILE *f)
{
    if (rs->j->run == TV_TGSI_VERT) {
        const job_vert *v = &rs->j->vert;
        for (uint32_t inst = 0; inst < v->instances; inst++)
            for (uint32_t i = 0; i < v->count; i++) {
                size_t e = (size_t)inst * v->count + i;
                fprintf(f, "instance %u vertex %u\n", inst, i);
                for (uint32_t r = 0; r < rs->num_vert_outputs; r++) {
                    fprintf(f, "  OUT[%u] ", r);
                    vec_text(f, rs->vert_out[r] + 4 * e);
                    fputc('\n', f);
                }
            }
    } else if (rs->has_geom_out) {
        const tv_vm_geometry_output *g = &rs->geom_out;
        for (int s = 0; s < TV_VM_MAX_STREAMS; s++) {
            const tv_vm_geometry_stream *st = &g->streams[s];
            if (!st->num_vertices && !st->num_prims)
                continue;
            fprintf(f, "stream %d: %u vertices, %u primitives\n", s, st->num_vertices,
                    st->num_prims);
            uint32_t v = 0;
            for (uint32_t p = 0; p < st->num_prims; p++) {
                fprintf(f, "primitive %u (%u vertices)\n", p, st->prim_lengths[p]);
                for (uint32_t k = 0; k < st->prim_lengths[p] && v < st->num_vertices; k++, v++) {
                    fprintf(f, "  vertex %u\n", v);
                    for (uint32_t r = 0; r < g->num_outputs; r++) {
                        fprintf(f, "    OUT[%u] ", r);
                        vec_text(f, st->vertices + 4 * ((size_t)v * g->num_outputs + r));
                        fputc('\n', f);
                    }
                }
            }
        }
    }
    return 0;
}

static const char *out_root(const run_state *rs)
{
    const char *dir = rs->opts->out_dir ? rs->opts->out_dir : rs->j->dir;
    return dir && dir[0] ? dir : ".";
}

int run_outputs_check(run_state *rs)
{
    for (size_t i = 0; i < rs->j->num_outputs; i++) {
        const char *rel = rs->j->outputs[i].path;
        for (size_t k = 0; k < i; k++)
            if (!strcmp(rs->j->outputs[k].path, rel))
                return run_fail(rs, TV_EXIT_INVALID,
                                "outputs[%zu] and outputs[%zu] both write \"%s\"", k, i, rel);
        char why[400];
        int rc = tv_out_check(out_root(rs), rel, why, sizeof why);
        if (rc)
            return run_fail(rs, rc, "cannot write \"%s\": %s", rel, why);
    }
    return 0;
}

int run_outputs(run_state *rs)
{
    for (size_t i = 0; i < rs->j->num_outputs; i++) {
        const job_output *o = &rs->j->outputs[i];
        char *path = run_out_path(rs, o->path);
        if (!path)
            return run_fail(rs, TV_EXIT_INVALID, "out of memory");
        int rc = 0;
        tv_out out;
        char why[400];
        rc = tv_out_open(&out, out_root(rs), o->path, why, sizeof why);
        if (rc) {
            rc = run_fail(rs, rc, "cannot write \"%s\": %s", path, why);
            free(path);
            return rc;
        }
        if (o->writer == JOB_OUT_PNG) {
            rc = write_png(rs, o, out.f, path);
        } else if (o->writer == JOB_OUT_DUMP) {
            rc = write_dump(rs, o, out.f);
        } else if (o->writer == JOB_OUT_TEXT) {
            rc = write_vertices(rs, out.f);
        } else {
            size_t size = 0;
            uint8_t *bytes = raw_bytes(rs, o, &size);
            if (!bytes)
                rc = run_fail(rs, TV_EXIT_INVALID, "out of memory");
            else if (size && fwrite(bytes, 1, size, out.f) != size)
                rc = run_fail(rs, TV_EXIT_IO, "cannot write \"%s\": %s", path, strerror(errno));
            free(bytes);
        }
        if (rc)
            tv_out_abort(&out);
        else if (tv_out_commit(&out, why, sizeof why))
            rc = run_fail(rs, TV_EXIT_IO, "cannot write \"%s\": %s", path, why);
        if (!rc && !rs->opts->quiet)
            fprintf(stderr, "texvm run: wrote %s\n", path);
        free(path);
        if (rc)
            return rc;
    }
    return 0;
}

/* ---- checks ---------------------------------------------------------------------------- */

static bool word_matches(uint32_t got, uint32_t want, int type, double tol)
{
    if (type != JOB_TYPE_FLOAT)
        return got == want;
    float g = job_bits_f32(got), w = job_bits_f32(want);
    if (isnan(g) || isnan(w))
        return isnan(g) && isnan(w);
    if (tol == 0)
        return got == want || (g == 0 && w == 0 && got == want);
    return fabs((double)g - (double)w) <= tol;
}

/* A whole-image check: the output as a PNG of the reference's channels and depth, every
 * sample within `tolerance` PNG steps. Returns 0 (pass), 1 (fail, printed) or -code. */
static int reference_check(run_state *rs, size_t i, const job_check *k)
{
    image ref, img;
    char msg[600];
    int r = image_png_read(k->reference, &ref, msg, sizeof msg);
    if (r)
        return -run_fail(rs, r == 3 ? TV_EXIT_IO : TV_EXIT_INVALID, "checks[%zu]: %s", i, msg);
    static const int chan_of[5] = {0, JOB_PNG_GRAY, JOB_PNG_GA, JOB_PNG_RGB, JOB_PNG_RGBA};
    job_output o;
    memset(&o, 0, sizeof o);
    o.res = k->res;
    o.index = k->index;
    o.level = (int)k->level;
    o.layer = (int)k->layer;
    o.channels = chan_of[ref.channels];
    o.bits = ref.bits;
    int rc = build_image(rs, &o, &img);
    if (rc) {
        image_free(&ref);
        return -rc;
    }
    if (img.width != ref.width || img.height != ref.height) {
        fprintf(stderr, "texvm run: check %zu failed: the image is %ux%u, \"%s\" is %ux%u\n", i,
                img.width, img.height, k->reference, ref.width, ref.height);
        image_free(&img);
        image_free(&ref);
        return 1;
    }
    size_t pixels = (size_t)img.width * img.height, bad = 0, worst_at = 0;
    int worst = 0;
    for (size_t p = 0; p < pixels; p++) {
        int d = 0;
        for (int c = 0; c < img.channels; c++) {
            int e = abs((int)img.px[p * img.channels + c] - (int)ref.px[p * img.channels + c]);
            d = e > d ? e : d;
        }
        if (d > k->tolerance)
            bad++;
        if (d > worst) {
            worst = d;
            worst_at = p;
        }
    }
    if (bad)
        fprintf(stderr,
                "texvm run: check %zu failed: %zu of %zu pixels differ from \"%s\" by more "
                "than %g (largest %d at (%zu, %zu))\n",
                i, bad, pixels, k->reference, k->tolerance, worst, worst_at % img.width,
                worst_at / img.width);
    image_free(&img);
    image_free(&ref);
    return bad ? 1 : 0;
}

int run_checks(run_state *rs)
{
    const job *j = rs->j;
    int failed = 0;
    for (size_t i = 0; i < j->num_checks; i++) {
        const job_check *k = &j->checks[i];
        if (k->reference) {
            int r = reference_check(rs, i, k);
            if (r < 0)
                return -r;
            failed += r;
            continue;
        }
        uint32_t got[64];
        size_t n = k->values.count < 64 ? k->values.count : 64;
        const char *what = "";
        char where[128] = "";
        switch (k->res) {
        case JOB_RES_TARGET:
            target_value(rs, (unsigned)k->index, k->pixel[0], k->pixel[1], 0, got);
            snprintf(where, sizeof where, "target %d pixel (%u, %u)", k->index, k->pixel[0],
                     k->pixel[1]);
            break;
        case JOB_RES_DEPTH:
        case JOB_RES_STENCIL: {
            size_t e = ((size_t)k->pixel[1] * j->frag.width + k->pixel[0]) * j->frag.samples;
            if (k->res == JOB_RES_DEPTH)
                memcpy(got, &rs->depth[e], 4);
            else
                got[0] = rs->stencil[e];
            got[1] = got[2] = got[3] = got[0];
            snprintf(where, sizeof where, "%s pixel (%u, %u)",
                     k->res == JOB_RES_DEPTH ? "depth" : "stencil", k->pixel[0], k->pixel[1]);
            break;
        }
        case JOB_RES_TEXTURE: {
            const uint8_t *p = run_texel_ptr(rs, (size_t)k->index, k->level, k->pixel[0],
                                             k->pixel[1], k->layer, 0);
            if (p)
                tv_format_unpack(j->textures[k->index].format, p, k->pixel[0], k->pixel[1], got);
            else
                memset(got, 0, 16);
            snprintf(where, sizeof where, "texture %d level %u layer %u texel (%u, %u)", k->index,
                     k->level, k->layer, k->pixel[0], k->pixel[1]);
            break;
        }
        default: {
            const uint8_t *data = k->res == JOB_RES_BUFFER ? j->buffers[k->index].data
                                                           : j->hwatomics[k->index].data;
            memcpy(got, data + k->offset, n * 4);
            what = k->res == JOB_RES_BUFFER ? "buffer" : "hwatomics";
            snprintf(where, sizeof where, "%s %d bytes %llu..", what, k->index,
                     (unsigned long long)k->offset);
            break;
        }
        }
        bool ok = true;
        for (size_t c = 0; c < n; c++)
            ok &= word_matches(got[c], k->values.w[c], k->type, k->tolerance);
        if (!ok) {
            failed++;
            fprintf(stderr, "texvm run: check %zu failed: %s: got", i, where);
            for (size_t c = 0; c < n; c++)
                dump_word(stderr, got[c], k->type);
            fprintf(stderr, ", expected");
            for (size_t c = 0; c < n; c++)
                dump_word(stderr, k->values.w[c], k->type);
            if (k->tolerance > 0)
                fprintf(stderr, " (tolerance %g)", k->tolerance);
            fputc('\n', stderr);
        }
    }
    if (failed)
        return run_fail(rs, TV_EXIT_INVALID, "%d of %zu checks failed", failed, j->num_checks);
    if (j->num_checks && !rs->opts->quiet)
        fprintf(stderr, "texvm run: %zu checks passed\n", j->num_checks);
    return 0;
}
