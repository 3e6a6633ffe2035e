/* The texture unit's differential test cases (tex_cases.h): the random textures, samplers
 * and coordinates of each operation family that test_tex_llvmpipe.c runs on llvmpipe and
 * through tv_tex_execute. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tex_cases.h"

#ifdef TEXVM_HAVE_GLREF

#define BATCHES 8 /* 8 x 128 = 1024 cases per family */


/* ---- generators: common pieces ------------------------------------------------------ */
static const char *const k_color_formats[] = {
    "rgba8", "rgba8_snorm", "srgb8_a8", "r8", "rg8", "rgba16f", "rgba16", "rgba32f",
    "r32f", "rgb10a2", "rgb565", "r11g11b10f", "rgb9e5", "rgba8ui", "rgba16i", "rgba32ui"};
#define N_COLOR (int)(sizeof k_color_formats / sizeof k_color_formats[0])
static const char *const k_filterable[] = {"rgba8", "rgba8_snorm", "srgb8_a8", "r8", "rg8",
                                           "rgba16f", "rgba16", "rgba32f", "r32f", "rgb10a2",
                                           "rgb565", "r11g11b10f", "rgb9e5"};
#define N_FILT (int)(sizeof k_filterable / sizeof k_filterable[0])
/* The last two are EXT_texture_mirror_clamp's mirror-once modes (llvmpipe has it). */
static const GLenum k_wraps[] = {GL_REPEAT, GL_MIRRORED_REPEAT, GL_CLAMP_TO_EDGE,
                                 GL_CLAMP_TO_BORDER, GL_MIRROR_CLAMP_TO_EDGE,
                                 0x8912 /* GL_MIRROR_CLAMP_TO_BORDER_EXT */,
                                 0x8742 /* GL_MIRROR_CLAMP_EXT */};

static int ilog2(int v)
{
    int l = 0;
    while (v > 1) {
        v >>= 1;
        l++;
    }
    return l;
}

static bool is_int_fmt(const diff_format *f) { return f->kind == DK_UINT || f->kind == DK_SINT; }

/* Describe a texture; levels < 0 = a random part of the full chain; fills random data. */
static void make_texture(diff_batch *b, uint32_t *rng, GLenum target, const char *fmt, int w,
                         int h, int d, int layers, int levels, int samples)
{
    diff_texture *t = &b->tex;
    memset(t, 0, sizeof *t);
    t->gl_target = target;
    t->fmt = diff_format_get(fmt);
    t->w = w;
    t->h = h;
    t->d = d;
    t->layers = layers;
    t->samples = samples;
    int full = 1 + ilog2(target == GL_TEXTURE_3D ? (w > h ? (w > d ? w : d) : (h > d ? h : d))
                                                 : (w > h ? w : h));
    if (target == GL_TEXTURE_1D || target == GL_TEXTURE_1D_ARRAY)
        full = 1 + ilog2(w);
    if (levels < 0)
        levels = diff_irand(rng, 1, full);
    t->levels = levels;
    t->base = 0;
    t->max = levels - 1;
    diff_texture_fill(t, rng);
}

static void random_view_levels(diff_batch *b, uint32_t *rng)
{
    diff_texture *t = &b->tex;
    t->base = diff_irand(rng, 0, t->levels - 1);
    t->max = diff_irand(rng, t->base, t->levels - 1);
}

static void random_border(diff_batch *b, uint32_t *rng)
{
    const diff_format *f = b->tex.fmt;
    if (is_int_fmt(f)) {
        b->smp.border_kind = f->kind == DK_UINT ? GLREF_BORDER_UINT : GLREF_BORDER_INT;
        for (int c = 0; c < 4; c++)
            b->smp.border[c] = (uint32_t)diff_irand(rng, 0, 100);
    } else {
        b->smp.border_kind = GLREF_BORDER_FLOAT;
        for (int c = 0; c < 4; c++) {
            float v = (float)diff_irand(rng, 0, 4) / 4.0f; /* exactly representable */
            memcpy(&b->smp.border[c], &v, 4);
        }
    }
}

static void random_wraps(diff_batch *b, uint32_t *rng, bool allow_border)
{
    /* EXT_texture_mirror_clamp's modes only with DIFF_MIRROR_EXT=1 (fidelity-texture.md §1.4) */
    int n = allow_border ? (getenv("DIFF_MIRROR_EXT") ? 7 : 5) : 3;
    b->smp.wrap_s = k_wraps[diff_irand(rng, 0, n - 1)];
    b->smp.wrap_t = k_wraps[diff_irand(rng, 0, n - 1)];
    b->smp.wrap_r = k_wraps[diff_irand(rng, 0, n - 1)];
    if (!allow_border) {
        /* mirror-clamp is index 4 */
        if (diff_irand(rng, 0, 3) == 0)
            b->smp.wrap_s = GL_MIRROR_CLAMP_TO_EDGE;
    }
    if (b->tex.gl_target == GL_TEXTURE_RECTANGLE) {
        b->smp.wrap_s = diff_irand(rng, 0, 1) ? GL_CLAMP_TO_EDGE : GL_CLAMP_TO_BORDER;
        b->smp.wrap_t = diff_irand(rng, 0, 1) ? GL_CLAMP_TO_EDGE : GL_CLAMP_TO_BORDER;
    }
    random_border(b, rng);
}

static void sampler_filters(diff_batch *b, GLenum min, GLenum mag)
{
    b->smp.min_filter = min;
    b->smp.mag_filter = mag;
}

/* A coordinate near the centre of texel i of an axis of n texels (±0.35 texel). */
static float centred(uint32_t *rng, int i, int n, bool normalized)
{
    float u = (float)i + 0.5f + diff_uniform(rng, -0.35f, 0.35f);
    return normalized ? u / (float)n : u;
}

/* Level (relative to base) a point lookup at this lod selects, and the lod itself. */
static int point_level(diff_batch *b, uint32_t *rng, float *lod)
{
    int q = b->tex.max - b->tex.base;
    int l = diff_irand(rng, 0, q);
    *lod = (float)l + diff_uniform(rng, -0.3f, 0.3f);
    if (l == q && diff_irand(rng, 0, 3) == 0)
        *lod = (float)q + diff_uniform(rng, 0.2f, 2.0f); /* clamped to the last level */
    return b->smp.min_filter == GL_NEAREST ? 0 : l;
}

/* Centred coordinates for every axis of the target at level `lvl` (relative to base). */
static void centred_coords(diff_batch *b, uint32_t *rng, int lvl, float c[4], int spread)
{
    const diff_texture *t = &b->tex;
    int L = t->base + lvl;
    int n[3] = {diff_level_w(t, L), diff_level_h(t, L), diff_level_d(t, L)};
    bool norm = t->gl_target != GL_TEXTURE_RECTANGLE;
    int axes = 2, layer_slot = -1;
    switch (t->gl_target) {
    case GL_TEXTURE_1D: axes = 1; break;
    case GL_TEXTURE_1D_ARRAY: axes = 1; layer_slot = 1; break;
    case GL_TEXTURE_3D: axes = 3; break;
    case GL_TEXTURE_2D_ARRAY: layer_slot = 2; break;
    default: break;
    }
    for (int a = 0; a < axes; a++) {
        int lo = spread ? -n[a] : 0, hi = spread ? 2 * n[a] - 1 : n[a] - 1;
        c[a] = centred(rng, diff_irand(rng, lo, hi), n[a], norm);
    }
    if (layer_slot >= 0)
        c[layer_slot] = (float)diff_irand(rng, -1, t->layers) + diff_uniform(rng, -0.35f, 0.35f);
}

/* Random directions away from cube face edges, centred on texels of level `lvl`. */
static void cube_dir(diff_batch *b, uint32_t *rng, int lvl, bool centred_texel, float c[4])
{
    int n = diff_level_w(&b->tex, b->tex.base + lvl);
    int face = diff_irand(rng, 0, 5);
    float s, t;
    if (centred_texel) {
        s = centred(rng, diff_irand(rng, 0, n - 1), n, true);
        t = centred(rng, diff_irand(rng, 0, n - 1), n, true);
    } else {
        s = diff_uniform(rng, 0.0f, 1.0f);
        t = diff_uniform(rng, 0.0f, 1.0f);
    }
    float sc = 2.0f * s - 1.0f, tc = 2.0f * t - 1.0f, m = diff_uniform(rng, 0.5f, 2.0f);
    /* GL cube face table (sc, tc from the direction): inverse of the face selection. */
    float x = 0, y = 0, z = 0;
    switch (face) {
    case 0: x = 1; z = -sc; y = -tc; break;
    case 1: x = -1; z = sc; y = -tc; break;
    case 2: y = 1; x = sc; z = tc; break;
    case 3: y = -1; x = sc; z = -tc; break;
    case 4: z = 1; x = sc; y = -tc; break;
    default: z = -1; x = -sc; y = -tc; break;
    }
    c[0] = x * m;
    c[1] = y * m;
    c[2] = z * m;
}

/* Quad-affine coordinates for implicit-LOD lookups: per quad a base point and a Jacobian
 * whose size gives an LOD in [lod_lo, lod_hi] at level-0 size n. */
static void quad_affine(diff_batch *b, uint32_t *rng, int axes, const int n[3], float lod_lo,
                        float lod_hi, float lo, float hi)
{
    for (int qy = 0; qy < DIFF_H / 2; qy++)
        for (int qx = 0; qx < DIFF_W / 2; qx++) {
            float base[3], J[2][3];
            float lam = diff_uniform(rng, lod_lo, lod_hi);
            for (int a = 0; a < 3; a++) {
                base[a] = diff_uniform(rng, lo, hi);
                for (int k = 0; k < 2; k++)
                    J[k][a] = a < axes ? exp2f(lam) / (float)n[a] * diff_uniform(rng, -1, 1)
                                       : 0.0f;
            }
            for (int oy = 0; oy < 2; oy++)
                for (int ox = 0; ox < 2; ox++) {
                    int i = (qy * 2 + oy) * DIFF_W + qx * 2 + ox;
                    for (int a = 0; a < 3; a++)
                        b->p[i].c[a] = base[a] + J[0][a] * (float)ox + J[1][a] * (float)oy;
                }
        }
}

static int tex_axes(GLenum t)
{
    switch (t) {
    case GL_TEXTURE_1D:
    case GL_TEXTURE_1D_ARRAY: return 1;
    case GL_TEXTURE_3D:
    case GL_TEXTURE_CUBE_MAP:
    case GL_TEXTURE_CUBE_MAP_ARRAY: return 3;
    default: return 2;
    }
}

/* ---- families ----------------------------------------------------------------------- */
static void gen_point(diff_batch *b, uint32_t *rng, int idx)
{
    static const GLenum targets[] = {GL_TEXTURE_1D, GL_TEXTURE_2D, GL_TEXTURE_3D,
                                     GL_TEXTURE_1D_ARRAY, GL_TEXTURE_2D_ARRAY,
                                     GL_TEXTURE_RECTANGLE};
    GLenum t = targets[idx % 6];
    /* every colour format in turn (16 batches cover them all) */
    const char *fmt = k_color_formats[idx % N_COLOR];
    int w = diff_irand(rng, 1, 17), h = diff_irand(rng, 1, 17), d = diff_irand(rng, 1, 6);
    int layers = t == GL_TEXTURE_1D_ARRAY || t == GL_TEXTURE_2D_ARRAY ? diff_irand(rng, 1, 5) : 1;
    make_texture(b, rng, t, fmt, w, t == GL_TEXTURE_1D || t == GL_TEXTURE_1D_ARRAY ? 1 : h,
                 t == GL_TEXTURE_3D ? d : 1, layers, t == GL_TEXTURE_RECTANGLE ? 1 : -1, 1);
    if (t != GL_TEXTURE_RECTANGLE)
        random_view_levels(b, rng);
    glref_sampler_desc_init(&b->smp);
    bool mip = t != GL_TEXTURE_RECTANGLE && diff_irand(rng, 0, 2) != 0;
    sampler_filters(b, mip ? GL_NEAREST_MIPMAP_NEAREST : GL_NEAREST, GL_NEAREST);
    random_wraps(b, rng, true);
    b->op = t == GL_TEXTURE_RECTANGLE ? DOP_SAMPLE : DOP_LOD;
    for (int i = 0; i < DIFF_PIX; i++) {
        float lod = 0;
        int lvl = t == GL_TEXTURE_RECTANGLE ? 0 : point_level(b, rng, &lod);
        if (lvl > b->tex.max - b->tex.base)
            lvl = b->tex.max - b->tex.base;
        centred_coords(b, rng, lvl, b->p[i].c, 1);
        b->p[i].a[0] = lod;
    }
}

static void gen_filter_common(diff_batch *b, uint32_t *rng, int idx, bool trilinear)
{
    static const GLenum targets[] = {GL_TEXTURE_2D, GL_TEXTURE_1D, GL_TEXTURE_3D,
                                     GL_TEXTURE_2D_ARRAY, GL_TEXTURE_1D_ARRAY,
                                     GL_TEXTURE_RECTANGLE};
    GLenum t = targets[idx % (trilinear ? 5 : 6)];
    const char *fmt = k_filterable[diff_irand(rng, 0, N_FILT - 1)];
    int w = diff_irand(rng, 2, 24), h = diff_irand(rng, 2, 24), d = diff_irand(rng, 2, 8);
    int layers = t == GL_TEXTURE_1D_ARRAY || t == GL_TEXTURE_2D_ARRAY ? diff_irand(rng, 1, 4) : 1;
    make_texture(b, rng, t, fmt, w, t == GL_TEXTURE_1D || t == GL_TEXTURE_1D_ARRAY ? 1 : h,
                 t == GL_TEXTURE_3D ? d : 1, layers, t == GL_TEXTURE_RECTANGLE ? 1 : -1, 1);
    if (t != GL_TEXTURE_RECTANGLE && diff_irand(rng, 0, 3) == 0)
        random_view_levels(b, rng);
    if (t == GL_TEXTURE_1D_ARRAY) {
        /* Mesa reads 1D-array levels > 0 as zeros (docs/fidelity-texture.md) */
        b->tex.max = b->tex.base = 0;
    }
    glref_sampler_desc_init(&b->smp);
    sampler_filters(b, trilinear ? GL_LINEAR_MIPMAP_LINEAR : GL_LINEAR, GL_LINEAR);
    if (trilinear && diff_irand(rng, 0, 2) == 0)
        b->smp.min_filter = GL_LINEAR_MIPMAP_NEAREST;
    random_wraps(b, rng, true);
    if (!trilinear && idx % 4 == 3)
        b->smp.reduction = idx % 8 == 3 ? GL_MIN : GL_MAX; /* ARB_texture_filter_minmax */
    b->filtered = true;
    int n[3] = {b->tex.w, b->tex.h, b->tex.d};
    int q = b->tex.max - b->tex.base;
    if (!trilinear || t == GL_TEXTURE_RECTANGLE) {
        b->op = t == GL_TEXTURE_RECTANGLE ? DOP_SAMPLE : DOP_LOD;
        for (int i = 0; i < DIFF_PIX; i++) {
            for (int a = 0; a < 3; a++)
                b->p[i].c[a] = t == GL_TEXTURE_RECTANGLE
                                   ? diff_uniform(rng, -3.0f, (float)n[a] + 3.0f)
                                   : diff_uniform(rng, -1.5f, 2.5f);
            if (t == GL_TEXTURE_1D_ARRAY)
                b->p[i].c[1] = diff_uniform(rng, -1.0f, (float)layers);
            if (t == GL_TEXTURE_2D_ARRAY)
                b->p[i].c[2] = diff_uniform(rng, -1.0f, (float)layers);
            b->p[i].a[0] = diff_uniform(rng, -1.0f, (float)q + 1.0f);
        }
        return;
    }
    /* trilinear: explicit LOD, bias and implicit LOD in turn, with sampler bias/clamps */
    b->smp.lod_bias = (float)diff_irand(rng, -256, 256) / 256.0f;
    b->smp.min_lod = (float)diff_irand(rng, 0, 256) / 256.0f;
    b->smp.max_lod = b->smp.min_lod + (float)diff_irand(rng, 0, 8 * 256) / 256.0f;
    static const diff_op ops[] = {DOP_LOD, DOP_SAMPLE, DOP_BIAS};
    b->op = ops[(idx / 5) % 3];
    int base_n[3] = {diff_level_w(&b->tex, b->tex.base), diff_level_h(&b->tex, b->tex.base),
                     diff_level_d(&b->tex, b->tex.base)};
    (void)n;
    quad_affine(b, rng, tex_axes(t), base_n, -1.5f, (float)q + 1.5f, -1.5f, 2.5f);
    for (int i = 0; i < DIFF_PIX; i++) {
        if (t == GL_TEXTURE_1D_ARRAY)
            b->p[i].c[1] = (float)diff_irand(rng, 0, layers - 1);
        if (t == GL_TEXTURE_2D_ARRAY)
            b->p[i].c[2] = (float)diff_irand(rng, 0, layers - 1);
        b->p[i].a[0] = b->op == DOP_LOD ? diff_uniform(rng, -1.0f, (float)q + 1.0f)
                                        : diff_uniform(rng, -1.5f, 1.5f);
    }
}

static void gen_bilinear(diff_batch *b, uint32_t *rng, int idx)
{
    gen_filter_common(b, rng, idx, false);
}

static void gen_trilinear(diff_batch *b, uint32_t *rng, int idx)
{
    gen_filter_common(b, rng, idx, true);
}

static void gen_gather(diff_batch *b, uint32_t *rng, int idx)
{
    static const GLenum targets[] = {GL_TEXTURE_2D, GL_TEXTURE_2D_ARRAY, GL_TEXTURE_CUBE_MAP,
                                     GL_TEXTURE_RECTANGLE};
    GLenum t = targets[idx % 4];
    bool shadow = idx % 8 >= 6 && t != GL_TEXTURE_RECTANGLE;
    const char *fmt = shadow ? (idx & 1 ? "depth32f" : "depth16")
                             : k_color_formats[diff_irand(rng, 0, N_COLOR - 1)];
    int w = diff_irand(rng, 2, 20), h = diff_irand(rng, 2, 20);
    if (t == GL_TEXTURE_CUBE_MAP)
        h = w = diff_irand(rng, 3, 12);
    int layers = t == GL_TEXTURE_2D_ARRAY ? diff_irand(rng, 1, 4) : t == GL_TEXTURE_CUBE_MAP ? 6 : 1;
    make_texture(b, rng, t, fmt, w, h, 1, layers, t == GL_TEXTURE_RECTANGLE ? 1 : -1, 1);
    if (t != GL_TEXTURE_RECTANGLE)
        random_view_levels(b, rng);
    if (t == GL_TEXTURE_CUBE_MAP && diff_level_w(&b->tex, b->tex.base) < 3)
        b->tex.base = 0; /* face-interior footprints need 3 texels */
    glref_sampler_desc_init(&b->smp);
    sampler_filters(b, GL_LINEAR_MIPMAP_LINEAR, GL_LINEAR);
    if (is_int_fmt(b->tex.fmt))
        sampler_filters(b, GL_NEAREST, GL_NEAREST);
    random_wraps(b, rng, true);
    b->op = DOP_GATHER;
    b->shadow = shadow;
    if (shadow) {
        b->smp.compare_mode = GL_COMPARE_REF_TO_TEXTURE;
        b->smp.compare_func = GL_NEVER + (GLenum)diff_irand(rng, 0, 7);
    }
    b->gather_comp = diff_irand(rng, 0, 3);
    b->offset = t != GL_TEXTURE_CUBE_MAP && diff_irand(rng, 0, 1);
    for (int k = 0; k < 2; k++)
        b->off[k] = b->offset ? diff_irand(rng, -8, 7) : 0;
    int L = b->tex.base;
    int n[2] = {diff_level_w(&b->tex, L), diff_level_h(&b->tex, L)};
    bool norm = t != GL_TEXTURE_RECTANGLE;
    for (int i = 0; i < DIFF_PIX; i++) {
        if (t == GL_TEXTURE_CUBE_MAP) {
            /* inside a face: the 2x2 footprint never crosses an edge */
            int face = diff_irand(rng, 0, 5);
            (void)face;
            cube_dir(b, rng, 0, true, b->p[i].c);
            float cs[4];
            memcpy(cs, b->p[i].c, sizeof cs);
            /* re-centre on a texel corner region: use an interior texel pair */
            int ii = diff_irand(rng, 0, n[0] - 2), jj = diff_irand(rng, 0, n[0] - 2);
            float s = ((float)ii + 1.0f + diff_uniform(rng, -0.4f, 0.4f)) / (float)n[0];
            float tt = ((float)jj + 1.0f + diff_uniform(rng, -0.4f, 0.4f)) / (float)n[0];
            float ax = fabsf(cs[0]), ay = fabsf(cs[1]), az = fabsf(cs[2]);
            float m = ax >= ay && ax >= az ? ax : ay >= az ? ay : az;
            float sc = 2 * s - 1, tc = 2 * tt - 1;
            if (m == ax) { b->p[i].c[2] = cs[0] > 0 ? -sc * m : sc * m; b->p[i].c[1] = -tc * m; }
            else if (m == ay) { b->p[i].c[0] = sc * m; b->p[i].c[2] = cs[1] > 0 ? tc * m : -tc * m; }
            else { b->p[i].c[0] = cs[2] > 0 ? sc * m : -sc * m; b->p[i].c[1] = -tc * m; }
        } else {
            for (int a = 0; a < 2; a++) {
                /* u - 0.5 = i + f, f in [0.1, 0.9]: the footprint is unambiguous */
                float u = (float)diff_irand(rng, -n[a], 2 * n[a]) + 0.5f +
                          diff_uniform(rng, 0.1f, 0.9f);
                b->p[i].c[a] = norm ? u / (float)n[a] : u;
            }
            if (t == GL_TEXTURE_2D_ARRAY)
                b->p[i].c[2] = (float)diff_irand(rng, 0, layers - 1) + diff_uniform(rng, -0.3f, 0.3f);
        }
        b->p[i].a[1] = diff_uniform(rng, -0.1f, 1.1f);
    }
}

static void gen_fetch(diff_batch *b, uint32_t *rng, int idx)
{
    static const GLenum targets[] = {GL_TEXTURE_1D, GL_TEXTURE_2D, GL_TEXTURE_3D,
                                     GL_TEXTURE_1D_ARRAY, GL_TEXTURE_2D_ARRAY,
                                     GL_TEXTURE_RECTANGLE, GL_TEXTURE_BUFFER,
                                     GL_TEXTURE_2D_MULTISAMPLE};
    static const char *const buffer_fmts[] = {"rgba8", "rgba16f", "rgba32f", "r32f", "rg8",
                                              "r8", "rgba8ui", "rgba16i", "rgba32ui", "rgba16"};
    static const char *const ms_fmts[] = {"rgba8", "rgba16f", "rgba32f", "r32f", "rgba8ui",
                                          "rgba16i", "rgba32ui", "rg8"};
    GLenum t = targets[idx % 8];
    const char *fmt = t == GL_TEXTURE_BUFFER ? buffer_fmts[diff_irand(rng, 0, 9)]
                      : t == GL_TEXTURE_2D_MULTISAMPLE ? ms_fmts[diff_irand(rng, 0, 7)]
                      : k_color_formats[diff_irand(rng, 0, N_COLOR - 1)];
    int w = diff_irand(rng, 1, 17), h = diff_irand(rng, 1, 17), d = diff_irand(rng, 1, 5);
    if (t == GL_TEXTURE_BUFFER)
        w = diff_irand(rng, 1, 64);
    int layers = t == GL_TEXTURE_1D_ARRAY || t == GL_TEXTURE_2D_ARRAY ? diff_irand(rng, 1, 5) : 1;
    int samples = t == GL_TEXTURE_2D_MULTISAMPLE ? (idx & 8 ? 4 : 2) : 1;
    bool one_level = t == GL_TEXTURE_RECTANGLE || t == GL_TEXTURE_BUFFER ||
                     t == GL_TEXTURE_2D_MULTISAMPLE;
    bool flat = t == GL_TEXTURE_1D || t == GL_TEXTURE_1D_ARRAY || t == GL_TEXTURE_BUFFER;
    make_texture(b, rng, t, fmt, w, flat ? 1 : h, t == GL_TEXTURE_3D ? d : 1, layers,
                 one_level ? 1 : -1, samples);
    if (!one_level)
        random_view_levels(b, rng);
    glref_sampler_desc_init(&b->smp);
    /* integer textures are incomplete with linear filters */
    sampler_filters(b, GL_NEAREST_MIPMAP_NEAREST, GL_NEAREST);
    b->op = DOP_FETCH;
    b->offset = !one_level && t != GL_TEXTURE_2D_MULTISAMPLE && diff_irand(rng, 0, 2) == 0;
    for (int k = 0; k < 3; k++)
        b->off[k] = b->offset ? diff_irand(rng, -3, 3) : 0;
    int q = b->tex.max - b->tex.base;
    for (int i = 0; i < DIFF_PIX; i++) {
        bool oob = diff_irand(rng, 0, 9) == 0;
        int l = one_level ? 0 : diff_irand(rng, 0, q);
        int L = b->tex.base + l;
        int n[3] = {diff_level_w(&b->tex, L), diff_level_h(&b->tex, L), diff_level_d(&b->tex, L)};
        for (int a = 0; a < 3; a++) {
            int o = b->off[a];
            b->p[i].c[a] = (float)(diff_irand(rng, 0, n[a] - 1) - o);
        }
        if (t == GL_TEXTURE_2D_MULTISAMPLE)
            l = diff_irand(rng, 0, samples - 1);
        if (oob) {
            int which = diff_irand(rng, 0, 2);
            if (which == 0)
                b->p[i].c[0] = (float)(diff_irand(rng, 0, 1) ? -diff_irand(rng, 1, 3) - b->off[0]
                                                              : n[0] + diff_irand(rng, 0, 3) - b->off[0]);
            else if (which == 1 && !one_level)
                l = diff_irand(rng, 0, 1) ? -1 : q + 1;
            else if (t == GL_TEXTURE_2D_MULTISAMPLE)
                l = samples + diff_irand(rng, 0, 2);
            else
                b->p[i].c[0] = (float)(n[0] - b->off[0]);
        }
        b->p[i].a[2] = (float)l;
    }
}

static void gen_compare(diff_batch *b, uint32_t *rng, int idx)
{
    static const GLenum targets[] = {GL_TEXTURE_2D, GL_TEXTURE_CUBE_MAP, GL_TEXTURE_2D_ARRAY,
                                     GL_TEXTURE_1D};
    GLenum t = targets[idx % 4];
    bool linear = idx >= 4;
    int w = diff_irand(rng, 2, 20), h = diff_irand(rng, 2, 20);
    if (t == GL_TEXTURE_CUBE_MAP)
        h = w;
    int layers = t == GL_TEXTURE_2D_ARRAY ? diff_irand(rng, 1, 4) : t == GL_TEXTURE_CUBE_MAP ? 6 : 1;
    make_texture(b, rng, t, idx & 1 ? "depth16" : "depth32f", w, t == GL_TEXTURE_1D ? 1 : h, 1,
                 layers, 1, 1);
    glref_sampler_desc_init(&b->smp);
    sampler_filters(b, linear ? GL_LINEAR : GL_NEAREST, linear ? GL_LINEAR : GL_NEAREST);
    random_wraps(b, rng, t != GL_TEXTURE_CUBE_MAP);
    if (t == GL_TEXTURE_CUBE_MAP)
        b->smp.wrap_s = b->smp.wrap_t = b->smp.wrap_r = GL_CLAMP_TO_EDGE;
    b->smp.compare_mode = GL_COMPARE_REF_TO_TEXTURE;
    b->smp.compare_func = GL_NEVER + (GLenum)diff_irand(rng, 0, 7);
    b->shadow = true;
    b->filtered = linear;
    b->op = DOP_SAMPLE; /* one level, min = mag: the LOD does not matter */
    for (int i = 0; i < DIFF_PIX; i++) {
        if (t == GL_TEXTURE_CUBE_MAP)
            cube_dir(b, rng, 0, !linear, b->p[i].c);
        else if (linear)
            for (int a = 0; a < 3; a++)
                b->p[i].c[a] = diff_uniform(rng, -0.5f, 1.5f);
        else
            centred_coords(b, rng, 0, b->p[i].c, 1);
        if (t == GL_TEXTURE_2D_ARRAY && linear)
            b->p[i].c[2] = (float)diff_irand(rng, 0, layers - 1);
        b->p[i].a[1] = diff_uniform(rng, -0.1f, 1.1f);
    }
}

static void gen_qlod(diff_batch *b, uint32_t *rng, int idx)
{
    static const GLenum targets[] = {GL_TEXTURE_2D, GL_TEXTURE_3D, GL_TEXTURE_1D,
                                     GL_TEXTURE_2D_ARRAY, GL_TEXTURE_CUBE_MAP};
    GLenum t = targets[idx % 5];
    int w = diff_irand(rng, 4, 64), h = diff_irand(rng, 4, 64), d = diff_irand(rng, 2, 16);
    if (t == GL_TEXTURE_CUBE_MAP)
        h = w;
    int layers = t == GL_TEXTURE_2D_ARRAY ? 2 : t == GL_TEXTURE_CUBE_MAP ? 6 : 1;
    make_texture(b, rng, t, "rgba8", w, t == GL_TEXTURE_1D ? 1 : h, t == GL_TEXTURE_3D ? d : 1,
                 layers, -1, 1);
    random_view_levels(b, rng);
    glref_sampler_desc_init(&b->smp);
    sampler_filters(b, idx & 1 ? GL_LINEAR_MIPMAP_LINEAR : GL_NEAREST_MIPMAP_NEAREST, GL_LINEAR);
    b->smp.min_lod = (float)diff_irand(rng, 0, 512) / 256.0f;
    b->smp.max_lod = b->smp.min_lod + (float)diff_irand(rng, 0, 6 * 256) / 256.0f;
    b->smp.lod_bias = (float)diff_irand(rng, -256, 256) / 256.0f;
    b->op = DOP_QLOD;
    b->filtered = true;
    int base_n[3] = {diff_level_w(&b->tex, b->tex.base), diff_level_h(&b->tex, b->tex.base),
                     diff_level_d(&b->tex, b->tex.base)};
    int q = b->tex.max - b->tex.base;
    if (t == GL_TEXTURE_CUBE_MAP) {
        /* cube: small Jacobians around face-interior directions */
        for (int qq = 0; qq < DIFF_PIX / 4; qq++) {
            float base[4], J[2][3];
            cube_dir(b, rng, 0, false, base);
            float lam = diff_uniform(rng, -1.0f, (float)q + 1.0f);
            for (int a = 0; a < 3; a++)
                for (int k = 0; k < 2; k++)
                    J[k][a] = exp2f(lam) / (float)base_n[0] * diff_uniform(rng, -1, 1);
            int qx = qq % (DIFF_W / 2), qy = qq / (DIFF_W / 2);
            for (int o = 0; o < 4; o++) {
                int ox = o & 1, oy = o >> 1;
                int i = (qy * 2 + oy) * DIFF_W + qx * 2 + ox;
                for (int a = 0; a < 3; a++)
                    b->p[i].c[a] = base[a] + J[0][a] * (float)ox + J[1][a] * (float)oy;
            }
        }
        return;
    }
    quad_affine(b, rng, tex_axes(t), base_n, -2.0f, (float)q + 2.0f, -1.0f, 2.0f);
}

static void gen_qdim(diff_batch *b, uint32_t *rng, int idx)
{
    static const GLenum targets[] = {GL_TEXTURE_1D, GL_TEXTURE_2D, GL_TEXTURE_3D,
                                     GL_TEXTURE_CUBE_MAP, GL_TEXTURE_1D_ARRAY,
                                     GL_TEXTURE_2D_ARRAY, GL_TEXTURE_CUBE_MAP_ARRAY,
                                     GL_TEXTURE_RECTANGLE, GL_TEXTURE_BUFFER,
                                     GL_TEXTURE_2D_MULTISAMPLE};
    GLenum t = targets[idx % 10];
    int w = diff_irand(rng, 1, 40), h = diff_irand(rng, 1, 40), d = diff_irand(rng, 1, 9);
    if (t == GL_TEXTURE_CUBE_MAP || t == GL_TEXTURE_CUBE_MAP_ARRAY)
        h = w;
    int layers = 1;
    if (t == GL_TEXTURE_1D_ARRAY || t == GL_TEXTURE_2D_ARRAY)
        layers = diff_irand(rng, 1, 6);
    if (t == GL_TEXTURE_CUBE_MAP)
        layers = 6;
    if (t == GL_TEXTURE_CUBE_MAP_ARRAY)
        layers = 6 * diff_irand(rng, 1, 3);
    bool one = t == GL_TEXTURE_RECTANGLE || t == GL_TEXTURE_BUFFER || t == GL_TEXTURE_2D_MULTISAMPLE;
    bool flat = t == GL_TEXTURE_1D || t == GL_TEXTURE_1D_ARRAY || t == GL_TEXTURE_BUFFER;
    make_texture(b, rng, t, "rgba8", w, flat ? 1 : h, t == GL_TEXTURE_3D ? d : 1, layers,
                 one ? 1 : -1, t == GL_TEXTURE_2D_MULTISAMPLE ? 4 : 1);
    if (!one)
        random_view_levels(b, rng);
    glref_sampler_desc_init(&b->smp);
    b->op = t == GL_TEXTURE_2D_MULTISAMPLE && (idx & 16) ? DOP_QSAMPLES : DOP_QDIM;
    for (int i = 0; i < DIFF_PIX; i++)
        b->p[i].a[2] = one ? 0.0f : (float)diff_irand(rng, 0, b->tex.max - b->tex.base);
}

static void gen_cube(diff_batch *b, uint32_t *rng, int idx)
{
    GLenum t = idx & 1 ? GL_TEXTURE_CUBE_MAP_ARRAY : GL_TEXTURE_CUBE_MAP;
    bool linear = (idx >> 1) & 1;
    const char *fmt = linear ? k_filterable[diff_irand(rng, 0, N_FILT - 1)]
                             : k_color_formats[diff_irand(rng, 0, N_COLOR - 1)];
    int w = diff_irand(rng, 2, 16);
    int layers = t == GL_TEXTURE_CUBE_MAP ? 6 : 6 * diff_irand(rng, 1, 3);
    make_texture(b, rng, t, fmt, w, w, 1, layers, -1, 1);
    random_view_levels(b, rng);
    glref_sampler_desc_init(&b->smp);
    sampler_filters(b, linear ? GL_LINEAR_MIPMAP_LINEAR : GL_NEAREST_MIPMAP_NEAREST,
                    linear ? GL_LINEAR : GL_NEAREST);
    b->smp.wrap_s = b->smp.wrap_t = b->smp.wrap_r = GL_CLAMP_TO_EDGE;
    b->smp.seamless_cube = (idx >> 2) & 1;
    b->filtered = linear;
    b->op = DOP_LOD;
    for (int i = 0; i < DIFF_PIX; i++) {
        float lod = 0;
        int lvl = linear ? 0 : point_level(b, rng, &lod);
        if (linear)
            lod = diff_uniform(rng, -1.0f, (float)(b->tex.max - b->tex.base) + 1.0f);
        cube_dir(b, rng, lvl, !linear, b->p[i].c);
        if (t == GL_TEXTURE_CUBE_MAP_ARRAY)
            b->p[i].c[3] = (float)diff_irand(rng, -1, layers / 6) + diff_uniform(rng, -0.3f, 0.3f);
        b->p[i].a[0] = lod;
    }
}

static void gen_arrays(diff_batch *b, uint32_t *rng, int idx)
{
    static const GLenum targets[] = {GL_TEXTURE_1D_ARRAY, GL_TEXTURE_2D_ARRAY,
                                     GL_TEXTURE_CUBE_MAP_ARRAY};
    GLenum t = targets[idx % 3];
    const char *fmt = k_color_formats[diff_irand(rng, 0, N_COLOR - 1)];
    int w = diff_irand(rng, 1, 12), h = diff_irand(rng, 1, 12);
    if (t == GL_TEXTURE_CUBE_MAP_ARRAY)
        h = w = diff_irand(rng, 2, 8);
    int layers = t == GL_TEXTURE_CUBE_MAP_ARRAY ? 6 * diff_irand(rng, 1, 4) : diff_irand(rng, 1, 9);
    make_texture(b, rng, t, fmt, w, t == GL_TEXTURE_1D_ARRAY ? 1 : h, 1, layers, -1, 1);
    random_view_levels(b, rng);
    glref_sampler_desc_init(&b->smp);
    sampler_filters(b, GL_NEAREST_MIPMAP_NEAREST, GL_NEAREST);
    random_wraps(b, rng, t != GL_TEXTURE_CUBE_MAP_ARRAY);
    if (t == GL_TEXTURE_CUBE_MAP_ARRAY)
        b->smp.wrap_s = b->smp.wrap_t = GL_CLAMP_TO_EDGE;
    b->op = DOP_LOD;
    int nl = t == GL_TEXTURE_CUBE_MAP_ARRAY ? layers / 6 : layers;
    for (int i = 0; i < DIFF_PIX; i++) {
        float lod = 0;
        int lvl = point_level(b, rng, &lod);
        if (t == GL_TEXTURE_CUBE_MAP_ARRAY) {
            cube_dir(b, rng, lvl, true, b->p[i].c);
            b->p[i].c[3] = (float)diff_irand(rng, -2, nl + 1) + diff_uniform(rng, -0.4f, 0.4f);
        } else {
            centred_coords(b, rng, lvl, b->p[i].c, 0);
            int slot = t == GL_TEXTURE_1D_ARRAY ? 1 : 2;
            b->p[i].c[slot] = (float)diff_irand(rng, -2, nl + 1) + diff_uniform(rng, -0.4f, 0.4f);
        }
        b->p[i].a[0] = lod;
    }
}

static void gen_offsets(diff_batch *b, uint32_t *rng, int idx)
{
    static const GLenum targets[] = {GL_TEXTURE_1D, GL_TEXTURE_2D, GL_TEXTURE_3D,
                                     GL_TEXTURE_2D_ARRAY, GL_TEXTURE_1D_ARRAY,
                                     GL_TEXTURE_RECTANGLE};
    GLenum t = targets[idx % 6];
    const char *fmt = k_color_formats[diff_irand(rng, 0, N_COLOR - 1)];
    int w = diff_irand(rng, 2, 17), h = diff_irand(rng, 2, 17), d = diff_irand(rng, 2, 6);
    int layers = t == GL_TEXTURE_1D_ARRAY || t == GL_TEXTURE_2D_ARRAY ? diff_irand(rng, 1, 4) : 1;
    bool flat = t == GL_TEXTURE_1D || t == GL_TEXTURE_1D_ARRAY;
    make_texture(b, rng, t, fmt, w, flat ? 1 : h, t == GL_TEXTURE_3D ? d : 1, layers,
                 t == GL_TEXTURE_RECTANGLE ? 1 : -1, 1);
    if (t != GL_TEXTURE_RECTANGLE)
        random_view_levels(b, rng);
    glref_sampler_desc_init(&b->smp);
    sampler_filters(b, t == GL_TEXTURE_RECTANGLE ? GL_NEAREST : GL_NEAREST_MIPMAP_NEAREST,
                    GL_NEAREST);
    random_wraps(b, rng, true);
    b->offset = true;
    for (int k = 0; k < 3; k++)
        b->off[k] = diff_irand(rng, -8, 7);
    b->op = t == GL_TEXTURE_RECTANGLE ? DOP_SAMPLE : DOP_LOD;
    for (int i = 0; i < DIFF_PIX; i++) {
        float lod = 0;
        int lvl = t == GL_TEXTURE_RECTANGLE ? 0 : point_level(b, rng, &lod);
        centred_coords(b, rng, lvl, b->p[i].c, 1);
        b->p[i].a[0] = lod;
    }
}

static void gen_gradients(diff_batch *b, uint32_t *rng, int idx)
{
    static const GLenum targets[] = {GL_TEXTURE_2D, GL_TEXTURE_3D, GL_TEXTURE_2D_ARRAY,
                                     GL_TEXTURE_CUBE_MAP, GL_TEXTURE_1D};
    GLenum t = targets[idx % 5];
    const char *fmt = k_filterable[diff_irand(rng, 0, N_FILT - 1)];
    int w = diff_irand(rng, 4, 32), h = diff_irand(rng, 4, 32), d = diff_irand(rng, 2, 8);
    if (t == GL_TEXTURE_CUBE_MAP)
        h = w;
    int layers = t == GL_TEXTURE_2D_ARRAY ? diff_irand(rng, 1, 3) : t == GL_TEXTURE_CUBE_MAP ? 6 : 1;
    make_texture(b, rng, t, fmt, w, t == GL_TEXTURE_1D ? 1 : h, t == GL_TEXTURE_3D ? d : 1,
                 layers, -1, 1);
    glref_sampler_desc_init(&b->smp);
    sampler_filters(b, GL_LINEAR_MIPMAP_LINEAR, GL_LINEAR);
    random_wraps(b, rng, t != GL_TEXTURE_CUBE_MAP);
    if (t == GL_TEXTURE_CUBE_MAP)
        b->smp.wrap_s = b->smp.wrap_t = b->smp.wrap_r = GL_CLAMP_TO_EDGE;
    if (idx == 7)
        b->smp.max_anisotropy = (float)(2 << diff_irand(rng, 0, 3));
    b->filtered = true;
    b->op = DOP_GRAD;
    int n[3] = {b->tex.w, b->tex.h, b->tex.d};
    int axes = tex_axes(t);
    for (int i = 0; i < DIFF_PIX; i++) {
        float lam = diff_uniform(rng, -1.5f, (float)(b->tex.levels) + 0.5f);
        if (t == GL_TEXTURE_CUBE_MAP) {
            cube_dir(b, rng, 0, false, b->p[i].c);
        } else {
            for (int a = 0; a < 3; a++)
                b->p[i].c[a] = diff_uniform(rng, -1.0f, 2.0f);
            if (t == GL_TEXTURE_2D_ARRAY)
                b->p[i].c[2] = (float)diff_irand(rng, 0, layers - 1);
        }
        for (int a = 0; a < 3; a++) {
            float s = a < axes ? exp2f(lam) / (float)n[a] : 0.0f;
            b->p[i].dx[a] = s * diff_uniform(rng, -1.0f, 1.0f);
            b->p[i].dy[a] = s * diff_uniform(rng, -1.0f, 1.0f);
        }
    }
}

/* (its size is the header's TEX_FAMILIES: another count is a conflict of types) */
const tex_family tex_families[] = {
    {"point", gen_point, 16},       {"bilinear", gen_bilinear, BATCHES},
    {"trilinear", gen_trilinear, BATCHES}, {"gather", gen_gather, BATCHES},
    {"fetch", gen_fetch, 16},            {"compare", gen_compare, BATCHES},
    {"lod_query", gen_qlod, 10},         {"size_query", gen_qdim, 20},
    {"cube", gen_cube, BATCHES},         {"arrays", gen_arrays, 9},
    {"offsets", gen_offsets, BATCHES},   {"gradients", gen_gradients, BATCHES},
};

#endif
