/* Differential test, comparison: bit-exact for unfiltered lookups, queries, fetch and
 * gather; the tolerance model of docs/fidelity-texture.md §1.3 for filtered results;
 * documented llvmpipe departures are recognised and counted separately. */
#include <math.h>
#include <string.h>

#include "diff.h"

#ifdef TEXVM_HAVE_GLREF

const char *const diff_reason_names[DR_COUNT] = {
    "llvmpipe approximate LOD (log2/rho)",
    "anisotropic: within the iso minor/major box",
    "texelFetch out of range",
    "UNORM/SNORM->float rounding (<= 2 ulp)",
    "textureSize level taken from another lane",
    "sRGB decode / sRGB border bytes (<= 5e-3)",
    "Mesa: 1D array levels > 0 read as 0",
    "llvmpipe: int texture, non-mip filter, uses lod",
    "anisotropic: footprint implementation-defined",
};

int diff_ref_wrap(GLenum mode, int i, int n)
{
    switch (mode) {
    case GL_REPEAT: return ((i % n) + n) % n;
    case GL_MIRRORED_REPEAT: {
        int p = ((i % (2 * n)) + 2 * n) % (2 * n);
        return p < n ? p : 2 * n - 1 - p;
    }
    case GL_MIRROR_CLAMP_TO_EDGE: {
        int m = i < 0 ? -i - 1 : i;
        return m < n ? m : n - 1;
    }
    case GL_CLAMP_TO_BORDER: return i < 0 || i >= n ? -1 : i;
    default: return i < 0 ? 0 : i >= n ? n - 1 : i;
    }
}

/* The value of an all-zero texel: stored channels 0, missing ones (0, 0, 0, 1). */
static bool is_zero_texel(const diff_batch *b, int i)
{
    const diff_format *f = b->tex.fmt;
    bool ints = f->kind == DK_UINT || f->kind == DK_SINT;
    for (int c = 0; c < 4; c++) {
        uint32_t want = c == 3 && c >= f->channels ? (ints ? 1u : 0x3f800000u) : 0u;
        if (b->gl[i][c] != want)
            return false;
    }
    return true;
}

/* llvmpipe's answer for an integer texture with a non-mipmap min filter looked up with
 * textureLod: the GL nearest-texel rule applied at level base + round(lod). Decoded here
 * from the raw bytes (8/16/32-bit integer channels). */
static bool int_level_explains(const diff_batch *b, int i)
{
    const diff_texture *t = &b->tex;
    const diff_format *f = t->fmt;
    bool mipless = b->smp.min_filter == GL_NEAREST || b->smp.min_filter == GL_LINEAR;
    GLenum tg = t->gl_target;
    if ((f->kind != DK_UINT && f->kind != DK_SINT) || !mipless || b->op != DOP_LOD ||
        b->offset || (tg != GL_TEXTURE_1D && tg != GL_TEXTURE_2D && tg != GL_TEXTURE_3D &&
                      tg != GL_TEXTURE_1D_ARRAY && tg != GL_TEXTURE_2D_ARRAY))
        return false;
    const diff_params *p = &b->p[i];
    int q = t->max - t->base;
    int l = (int)floorf(p->a[0] + 0.5f);
    l = l < 0 ? 0 : l > q ? q : l;
    int L = t->base + l;
    int n[3] = {diff_level_w(t, L), diff_level_h(t, L), diff_level_d(t, L)};
    GLenum wr[3] = {b->smp.wrap_s, b->smp.wrap_t, b->smp.wrap_r};
    int axes = tg == GL_TEXTURE_1D || tg == GL_TEXTURE_1D_ARRAY ? 1 : tg == GL_TEXTURE_3D ? 3 : 2;
    int ijk[3] = {0, 0, 0};
    for (int a = 0; a < axes; a++) {
        ijk[a] = diff_ref_wrap(wr[a], (int)floorf(p->c[a] * (float)n[a]), n[a]);
        if (ijk[a] < 0)
            return false;
    }
    /* array layer: nearest integer (ties are avoided by the generator), clamped */
    if (tg == GL_TEXTURE_1D_ARRAY || tg == GL_TEXTURE_2D_ARRAY) {
        int layer = (int)floorf(p->c[axes] + 0.5f);
        layer = layer < 0 ? 0 : layer >= t->layers ? t->layers - 1 : layer;
        if (tg == GL_TEXTURE_1D_ARRAY)
            ijk[1] = layer; /* rows of a 1D array level are its layers */
        else
            ijk[2] = layer;
    }
    size_t idx = ((size_t)ijk[2] * (size_t)n[1] + (size_t)ijk[1]) * (size_t)n[0] + (size_t)ijk[0];
    const uint8_t *tx = t->data + t->level_off[L] + idx * (size_t)f->bpp;
    int cb = f->bpp / f->channels; /* bytes per channel */
    for (int c = 0; c < 4; c++) {
        uint32_t v;
        if (c >= f->channels) {
            v = c == 3 ? 1u : 0u;
        } else if (cb == 1) {
            v = f->kind == DK_SINT ? (uint32_t)(int32_t)(int8_t)tx[c] : tx[c];
        } else if (cb == 2) {
            uint16_t h;
            memcpy(&h, tx + 2 * c, 2);
            v = f->kind == DK_SINT ? (uint32_t)(int32_t)(int16_t)h : h;
        } else {
            memcpy(&v, tx + 4 * c, 4);
        }
        if (b->gl[i][c] != v)
            return false;
    }
    return true;
}

/* textureSize components per target (GLSL), and whether a level count is in w. */
static const struct {
    GLenum target;
    int comps;
    bool levels;
} k_size_comps[] = {
    {GL_TEXTURE_1D, 1, true},          {GL_TEXTURE_2D, 2, true},
    {GL_TEXTURE_3D, 3, true},          {GL_TEXTURE_CUBE_MAP, 2, true},
    {GL_TEXTURE_1D_ARRAY, 2, true},    {GL_TEXTURE_2D_ARRAY, 3, true},
    {GL_TEXTURE_CUBE_MAP_ARRAY, 3, true}, {GL_TEXTURE_RECTANGLE, 2, false},
    {GL_TEXTURE_BUFFER, 1, false},     {GL_TEXTURE_2D_MULTISAMPLE, 2, false},
    {GL_TEXTURE_2D_MULTISAMPLE_ARRAY, 3, false},
};

/* Which result components a lookup defines (bit mask). */
static unsigned defined_mask(const diff_batch *b)
{
    if (b->op == DOP_QSAMPLES)
        return 1u;
    if (b->op == DOP_QLOD)
        return 3u;
    if (b->shadow && b->op != DOP_GATHER)
        return 1u; /* a shadow lookup returns one float */
    if (b->op == DOP_QDIM)
        for (size_t i = 0; i < sizeof k_size_comps / sizeof k_size_comps[0]; i++)
            if (k_size_comps[i].target == b->tex.gl_target)
                return ((1u << k_size_comps[i].comps) - 1u) | (k_size_comps[i].levels ? 8u : 0u);
    return 15u;
}

/* texvm's result as GLSL defines it: the unit's TXQ reports cube-array layers (the
 * hardware's answer), GLSL the number of cubes. */
static uint32_t glsl_word(const diff_batch *b, int i, int c)
{
    if (b->op == DOP_QDIM && c == 2 && b->tex.gl_target == GL_TEXTURE_CUBE_MAP_ARRAY)
        return b->tv[i][2] / 6u;
    return b->tv[i][c];
}

static uint32_t ulp_distance(uint32_t a, uint32_t b)
{
    int64_t ka = a & 0x80000000u ? -(int64_t)(a & 0x7fffffffu) : (int64_t)a;
    int64_t kb = b & 0x80000000u ? -(int64_t)(b & 0x7fffffffu) : (int64_t)b;
    int64_t d = ka - kb;
    return (uint32_t)(d < 0 ? -d : d);
}

static float as_float(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* Value range per component: nominal for normalized formats, measured for float ones. */
static void batch_ranges(diff_batch *b)
{
    const diff_format *f = b->tex.fmt;
    float lo[4] = {0, 0, 0, 0}, hi[4] = {1, 1, 1, 1};
    if (f->kind == DK_SNORM)
        for (int c = 0; c < 4; c++)
            lo[c] = -1.0f;
    if (f->kind == DK_FLOAT) {
        for (int c = 0; c < 4; c++) {
            lo[c] = INFINITY;
            hi[c] = -INFINITY;
        }
        size_t bpp = (size_t)f->bpp;
        for (size_t off = 0; off + bpp <= b->tex.size; off += bpp) {
            uint32_t v[4];
            tv_format_unpack(f->tv, b->tex.data + off, 0, 0, v);
            for (int c = 0; c < 4; c++) {
                float x = as_float(v[c]);
                lo[c] = x < lo[c] ? x : lo[c];
                hi[c] = x > hi[c] ? x : hi[c];
            }
        }
    }
    for (int c = 0; c < 4; c++)
        b->range[c] = hi[c] > lo[c] ? hi[c] - lo[c] : 1.0f;
    if (b->shadow)
        for (int c = 0; c < 4; c++)
            b->range[c] = 1.0f;
    b->range_done = true;
}

/* llvmpipe's log2: exponent plus the mantissa in [1, 2) minus one (piecewise linear,
 * exact at powers of two). */
static double fast_log2(double x)
{
    int e;
    double m = frexp(x, &e); /* x = m * 2^e, m in [0.5, 1) */
    return (double)(e - 1) + (2.0 * m - 1.0);
}

float diff_llvm_lod_of(float lod)
{
    return (float)(0.5 * fast_log2(exp2(2.0 * (double)lod)));
}

static int model_axes(GLenum t)
{
    switch (t) {
    case GL_TEXTURE_1D:
    case GL_TEXTURE_1D_ARRAY: return 1;
    case GL_TEXTURE_3D: return 3;
    case GL_TEXTURE_2D:
    case GL_TEXTURE_2D_ARRAY:
    case GL_TEXTURE_RECTANGLE: return 2;
    default: return 0; /* cubes: not modelled */
    }
}

void diff_lod_model(diff_batch *b)
{
    b->lod_model = false;
    bool implicit = b->op == DOP_SAMPLE || b->op == DOP_BIAS || b->op == DOP_QLOD;
    int axes = model_axes(b->tex.gl_target);
    if ((!implicit && b->op != DOP_GRAD) || axes == 0)
        return;
    const diff_texture *t = &b->tex;
    double size[3] = {diff_level_w(t, t->base), diff_level_h(t, t->base),
                      diff_level_d(t, t->base)};
    if (t->gl_target == GL_TEXTURE_RECTANGLE)
        size[0] = size[1] = size[2] = 1.0;
    for (int i = 0; i < DIFF_PIX; i++) {
        int x = i % DIFF_W, y = i / DIFF_W, x0 = x & ~1, y0 = y & ~1;
        double r2[2] = {0, 0};
        for (int a = 0; a < axes; a++) {
            double dx, dy;
            if (b->op == DOP_GRAD) {
                dx = b->p[i].dx[a];
                dy = b->p[i].dy[a];
            } else {
                dx = (double)(b->p[y * DIFF_W + x0 + 1].c[a] - b->p[y * DIFF_W + x0].c[a]);
                dy = (double)(b->p[(y0 + 1) * DIFF_W + x].c[a] - b->p[y0 * DIFF_W + x].c[a]);
            }
            r2[0] += dx * size[a] * dx * size[a];
            r2[1] += dy * size[a] * dy * size[a];
        }
        double m = r2[0] > r2[1] ? r2[0] : r2[1];
        double mn = r2[0] < r2[1] ? r2[0] : r2[1];
        double bias = b->op == DOP_BIAS ? b->p[i].a[0] : 0.0;
        b->lod_major[i] = m > 0 ? (float)(0.5 * log2(m) + bias) : -100.0f;
        b->lod_minor[i] = mn > 0 ? (float)(0.5 * log2(mn) + bias) : -100.0f;
        if (m > 0) {
            b->lod_exact[i] = (float)(0.5 * log2(m) + bias);
            b->lod_llvm[i] = (float)(0.5 * fast_log2(m) + bias);
        } else {
            b->lod_exact[i] = b->lod_llvm[i] = NAN;
        }
    }
    b->lod_model = true;
}

static bool same_word(uint32_t a, uint32_t b, bool is_float)
{
    return a == b || (is_float && as_float(a) == as_float(b));
}


/* textureSize/textureQueryLevels as GL defines them for pixel i (in-range levels only). */
static bool qdim_expected_ok(const diff_batch *b, int i, unsigned mask)
{
    const diff_texture *t = &b->tex;
    int q = t->max - t->base, l = (int)b->p[i].a[2];
    if (l < 0 || l > q)
        return true; /* GL leaves out-of-range levels undefined */
    int L = t->base + l;
    uint32_t want[4] = {(uint32_t)diff_level_w(t, L), 0, 0, (uint32_t)(q + 1)};
    switch (t->gl_target) {
    case GL_TEXTURE_1D_ARRAY: want[1] = (uint32_t)t->layers; break;
    case GL_TEXTURE_2D_ARRAY:
    case GL_TEXTURE_2D_MULTISAMPLE_ARRAY:
        want[1] = (uint32_t)diff_level_h(t, L);
        want[2] = (uint32_t)t->layers;
        break;
    case GL_TEXTURE_CUBE_MAP_ARRAY:
        want[1] = (uint32_t)diff_level_h(t, L);
        want[2] = (uint32_t)(t->layers / 6);
        break;
    case GL_TEXTURE_3D:
        want[1] = (uint32_t)diff_level_h(t, L);
        want[2] = (uint32_t)diff_level_d(t, L);
        break;
    default: want[1] = (uint32_t)diff_level_h(t, L); break;
    }
    for (int c = 0; c < 4; c++)
        if ((mask & (1u << c)) && glsl_word(b, i, c) != want[c])
            return false;
    return true;
}

diff_class diff_compare(diff_batch *b, int i, diff_reason *reason)
{
    bool is_float = b->op == DOP_QLOD || b->shadow ||
                    (b->op != DOP_QDIM && b->op != DOP_QSAMPLES &&
                     b->tex.fmt->kind != DK_UINT && b->tex.fmt->kind != DK_SINT);
    unsigned mask = defined_mask(b);
    bool exact = true;
    for (int c = 0; c < 4; c++)
        if (mask & (1u << c))
            exact = exact && same_word(b->gl[i][c], glsl_word(b, i, c), is_float);
    if (exact)
        return DC_EXACT;
    if (b->op == DOP_QDIM) {
        /* texvm's own answer must be the GL one, computed here from the texture's shape */
        if (!qdim_expected_ok(b, i, mask))
            return DC_FAIL;
        /* llvmpipe answers a non-uniform level with one lane's level: accept the answer
         * of any pixel of the same 4x4 block (llvmpipe's shading unit). */
        int x = i % DIFF_W, y = i / DIFF_W;
        for (int j = 0; j < DIFF_PIX; j++) {
            if ((j % DIFF_W) / 4 != x / 4 || (j / DIFF_W) / 4 != y / 4)
                continue;
            bool same = true;
            for (int c = 0; c < 4; c++)
                if (mask & (1u << c))
                    same = same && b->gl[i][c] == glsl_word(b, j, c);
            if (same) {
                *reason = DR_QUERY_LANE;
                return DC_DOCUMENTED;
            }
        }
        return DC_FAIL;
    }
    if (is_float && !b->filtered && b->tex.fmt->kind == DK_SRGB && !b->shadow) {
        bool near = true;
        for (int c = 0; c < 4; c++)
            if (mask & (1u << c))
                near = near && fabsf(as_float(b->gl[i][c]) - as_float(b->tv[i][c])) <= 5e-3f;
        if (near) {
            *reason = DR_SRGB;
            return DC_DOCUMENTED;
        }
    }
    if (is_float && !b->filtered &&
        (b->tex.fmt->kind == DK_UNORM || b->tex.fmt->kind == DK_SNORM)) {
        bool near = true;
        for (int c = 0; c < 4; c++)
            if (mask & (1u << c))
                near = near && ulp_distance(b->gl[i][c], b->tv[i][c]) <= 2;
        if (near) {
            *reason = DR_NORM_ULP;
            return DC_DOCUMENTED;
        }
    }
    if (b->op == DOP_FETCH) {
        /* Out-of-range fetch: GL leaves it undefined, llvmpipe returns zeros; texvm follows
         * the D3D rule (sampling.md §8.2). */
        const diff_params *p = &b->p[i];
        bool oob = p->c[0] < 0 || p->c[1] < 0 || p->c[2] < 0 || p->a[2] < 0;
        int l = (int)p->a[2];
        if (!oob && b->tex.samples <= 1) {
            int lvl = b->tex.base + l;
            oob = lvl > b->tex.max || (int)p->c[0] >= diff_level_w(&b->tex, lvl);
        }
        if (oob) {
            *reason = DR_FETCH_OOB;
            return DC_DOCUMENTED;
        }
        /* Mesa 22.3 (softpipe and llvmpipe alike) returns zeros for texelFetch on a 1D
         * array texture at any lod > 0, although the level holds data. */
        if (b->tex.gl_target == GL_TEXTURE_1D_ARRAY && l > 0 && is_zero_texel(b, i)) {
            *reason = DR_FETCH_1DARRAY;
            return DC_DOCUMENTED;
        }
        return DC_FAIL;
    }
    /* The same Mesa 1D-array defect for sampling at a level above the base. */
    if (b->tex.gl_target == GL_TEXTURE_1D_ARRAY && b->op == DOP_LOD && b->p[i].a[0] > 0.5f &&
        b->smp.min_filter != GL_NEAREST && b->smp.min_filter != GL_LINEAR &&
        is_zero_texel(b, i)) {
        *reason = DR_FETCH_1DARRAY;
        return DC_DOCUMENTED;
    }
    if (int_level_explains(b, i)) {
        *reason = DR_INT_LEVEL;
        return DC_DOCUMENTED;
    }
    if (!b->filtered || !is_float)
        return DC_FAIL;
    if (!b->range_done)
        batch_ranges(b);
    if (b->op == DOP_QLOD) {
        /* LOD values: 6 fraction bits (CTS lodBits 6) */
        float d0 = fabsf(as_float(b->gl[i][0]) - as_float(b->tv[i][0]));
        float d1 = fabsf(as_float(b->gl[i][1]) - as_float(b->tv[i][1]));
        if (d0 <= 1.0f / 64 && d1 <= 1.0f / 64)
            return DC_TOLERATED;
        /* llvmpipe's lambda' follows its log2 model and texvm's the exact formula; the
         * accessed level then differs by at most as much (or one level when rounded). */
        if (b->lod_model && !isnan(b->lod_llvm[i])) {
            float bias = b->smp.lod_bias;
            float gy = as_float(b->gl[i][1]), ty = as_float(b->tv[i][1]);
            bool llvm_ok = fabsf(gy - (b->lod_llvm[i] + bias)) <= 2e-3f;
            bool texvm_ok = fabsf(ty - (b->lod_exact[i] + bias)) <= 2e-3f;
            bool x_ok = d0 <= d1 + 1.0f / 64 || d0 == 1.0f;
            if (llvm_ok && texvm_ok && x_ok) {
                *reason = DR_LOD_APPROX;
                return DC_DOCUMENTED;
            }
        } else if (!b->lod_model) {
            /* cubes: same scale factor, llvmpipe's log2 applied to it */
            float bias = b->smp.lod_bias;
            float gy = as_float(b->gl[i][1]), ty = as_float(b->tv[i][1]);
            bool llvm_ok = fabsf(gy - (diff_llvm_lod_of(ty - bias) + bias)) <= 2e-3f;
            if (llvm_ok && (d0 <= d1 + 1.0f / 64 || d0 == 1.0f)) {
                *reason = DR_LOD_APPROX;
                return DC_DOCUMENTED;
            }
        }
        return DC_FAIL;
    }
    bool within = true;
    float worst = 0.0f;
    for (int c = 0; c < 4; c++) {
        if (!(mask & (1u << c)))
            continue;
        float g = as_float(b->gl[i][c]), t = as_float(b->tv[i][c]);
        float tol = b->range[c] / 64.0f + 1e-6f;
        float d = fabsf(g - t);
        if (!(d <= tol))
            within = false;
        float rel = d / b->range[c];
        worst = rel > worst ? rel : worst;
    }
    if (within)
        return DC_TOLERATED;
    /* Implicit/gradient LOD: texvm re-run at llvmpipe's modelled LOD agrees. */
    if (b->has_alt && b->smp.max_anisotropy <= 1.0f) {
        bool alt = true;
        for (int c = 0; c < 4; c++) {
            if (!(mask & (1u << c)))
                continue;
            float g = as_float(b->gl[i][c]), t = as_float(b->tv_alt[i][c]);
            alt = alt && fabsf(g - t) <= b->range[c] / 64.0f + 1e-6f;
        }
        if (alt) {
            *reason = DR_LOD_APPROX;
            return DC_DOCUMENTED;
        }
    }
    /* Anisotropic filtering: the footprint is implementation-defined; accept a value inside
     * the box spanned by isotropic trilinear lookups at the minor- and major-axis LODs. */
    if (b->smp.max_anisotropy > 1.0f && b->has_iso) {
        bool inside = true;
        for (int c = 0; c < 4; c++) {
            if (!(mask & (1u << c)))
                continue;
            float a = as_float(b->tv_iso[0][i][c]), z = as_float(b->tv_iso[1][i][c]);
            float lo = a < z ? a : z, hi = a < z ? z : a, tol = b->range[c] / 64.0f;
            float g = as_float(b->gl[i][c]);
            inside = inside && g >= lo - tol && g <= hi + tol;
        }
        /* GL leaves the anisotropic footprint to the implementation (max anisotropy is a
         * limit, not a formula): outside the box it is counted apart, not compared. */
        *reason = inside ? DR_ANISO : DR_ANISO_FREE;
        return DC_DOCUMENTED;
    }
    return DC_FAIL;
}

#endif /* TEXVM_HAVE_GLREF */
