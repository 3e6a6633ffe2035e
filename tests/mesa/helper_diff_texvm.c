/* Differential test, texvm side: the same texel bytes described by a TIC/TSC in a
 * tv_memory, the same lookups through tv_tex_execute (32 lanes = 8 quads per request). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"

#if defined(TEXVM_HAVE_GLREF) && defined(TEXVM_DIFF_HAVE_TEX)

bool diff_tv_available(void) { return true; }

#define ADDR_HEADERS 0x1000u
#define ADDR_SAMPLERS 0x2000u
#define ADDR_TEXELS 0x100000u

typedef struct gl_tv_target {
    GLenum gl;
    uint8_t type;   /* tv_tex_type */
    uint8_t target; /* tv_tex_target */
} gl_tv_target;

static const gl_tv_target k_map[] = {
    {GL_TEXTURE_1D, TV_TEX_1D, TV_TEXTGT_1D},
    {GL_TEXTURE_2D, TV_TEX_2D, TV_TEXTGT_2D},
    {GL_TEXTURE_3D, TV_TEX_3D, TV_TEXTGT_3D},
    {GL_TEXTURE_CUBE_MAP, TV_TEX_CUBE, TV_TEXTGT_CUBE},
    {GL_TEXTURE_1D_ARRAY, TV_TEX_1D_ARRAY, TV_TEXTGT_1D_ARRAY},
    {GL_TEXTURE_2D_ARRAY, TV_TEX_2D_ARRAY, TV_TEXTGT_2D_ARRAY},
    {GL_TEXTURE_CUBE_MAP_ARRAY, TV_TEX_CUBE_ARRAY, TV_TEXTGT_CUBE_ARRAY},
    {GL_TEXTURE_RECTANGLE, TV_TEX_2D_NO_MIPMAP, TV_TEXTGT_2D_RECT},
    {GL_TEXTURE_BUFFER, TV_TEX_1D_BUFFER, TV_TEXTGT_1D_BUFFER},
    {GL_TEXTURE_2D_MULTISAMPLE, TV_TEX_2D, TV_TEXTGT_2D_MS},
    {GL_TEXTURE_2D_MULTISAMPLE_ARRAY, TV_TEX_2D_ARRAY, TV_TEXTGT_2D_MS_ARRAY},
};

static const gl_tv_target *map_target(GLenum gl)
{
    for (size_t i = 0; i < sizeof k_map / sizeof k_map[0]; i++)
        if (k_map[i].gl == gl)
            return &k_map[i];
    return NULL;
}

typedef struct {
    GLenum gl;
    uint8_t tv;
} enum_map;

static const enum_map k_wraps[] = {
    {GL_REPEAT, TV_WRAP_REPEAT},
    {GL_MIRRORED_REPEAT, TV_WRAP_MIRROR},
    {GL_CLAMP_TO_EDGE, TV_WRAP_CLAMP_TO_EDGE},
    {GL_CLAMP_TO_BORDER, TV_WRAP_BORDER},
    {GL_MIRROR_CLAMP_TO_EDGE, TV_WRAP_MIRROR_ONCE_CLAMP_TO_EDGE},
    {0x8912 /* GL_MIRROR_CLAMP_TO_BORDER_EXT */, TV_WRAP_MIRROR_ONCE_BORDER},
    {0x8742 /* GL_MIRROR_CLAMP_EXT */, TV_WRAP_MIRROR_ONCE_CLAMP_OGL},
};

static uint8_t map_wrap(GLenum w)
{
    for (size_t i = 0; i < sizeof k_wraps / sizeof k_wraps[0]; i++)
        if (k_wraps[i].gl == w)
            return k_wraps[i].tv;
    return TV_WRAP_REPEAT;
}

/* GL minification filter -> (min filter, mip filter). */
static const struct {
    GLenum gl;
    uint8_t min, mip;
} k_minf[] = {
    {GL_NEAREST, TV_MIN_POINT, TV_MIP_NONE},
    {GL_LINEAR, TV_MIN_LINEAR, TV_MIP_NONE},
    {GL_NEAREST_MIPMAP_NEAREST, TV_MIN_POINT, TV_MIP_POINT},
    {GL_LINEAR_MIPMAP_NEAREST, TV_MIN_LINEAR, TV_MIP_POINT},
    {GL_NEAREST_MIPMAP_LINEAR, TV_MIN_POINT, TV_MIP_LINEAR},
    {GL_LINEAR_MIPMAP_LINEAR, TV_MIN_LINEAR, TV_MIP_LINEAR},
};

static uint8_t msaa_code(int samples)
{
    switch (samples) {
    case 2: return 1;  /* 2X1 */
    case 4: return 2;  /* 2X2 */
    case 8: return 3;  /* 4X2 */
    case 16: return 6; /* 4X4 */
    default: return 0;
    }
}

static float clampf(float v, float lo, float hi) { return v < lo ? lo : v > hi ? hi : v; }

static void make_tsc(const glref_sampler_desc *s, tv_tsc *tsc)
{
    memset(tsc, 0, sizeof *tsc);
    tsc->address_u = map_wrap(s->wrap_s);
    tsc->address_v = map_wrap(s->wrap_t);
    tsc->address_p = map_wrap(s->wrap_r);
    tsc->mag_filter = s->mag_filter == GL_NEAREST ? TV_MAG_POINT : TV_MAG_LINEAR;
    tsc->min_filter = TV_MIN_POINT;
    tsc->mip_filter = TV_MIP_NONE;
    for (size_t i = 0; i < sizeof k_minf / sizeof k_minf[0]; i++)
        if (k_minf[i].gl == s->min_filter) {
            tsc->min_filter = k_minf[i].min;
            tsc->mip_filter = k_minf[i].mip;
        }
    tsc->max_anisotropy = tv_tex_aniso_code(s->max_anisotropy);
    if (tsc->max_anisotropy > 0 && tsc->min_filter == TV_MIN_LINEAR)
        tsc->min_filter = TV_MIN_ANISO;
    tsc->depth_compare = s->compare_mode == GL_COMPARE_REF_TO_TEXTURE;
    tsc->depth_compare_func = (uint8_t)(s->compare_func - GL_NEVER);
    tsc->mip_lod_bias = tv_float_to_fixed_s5_8(s->lod_bias);
    tsc->min_lod_clamp = tv_float_to_fixed_u4_8(clampf(s->min_lod, 0.0f, 15.99f));
    tsc->max_lod_clamp = tv_float_to_fixed_u4_8(clampf(s->max_lod, 0.0f, 15.99f));
    memcpy(tsc->border_color, s->border, sizeof tsc->border_color);
    /* The sRGB border bytes a driver writes: the float border encoded to 8-bit sRGB. */
    if (s->border_kind == GLREF_BORDER_FLOAT)
        for (int c = 0; c < 3; c++) {
            float f;
            memcpy(&f, &s->border[c], 4);
            f = clampf(f, 0.0f, 1.0f);
            double e = f <= 0.0031308 ? 12.92 * f : 1.055 * pow(f, 1.0 / 2.4) - 0.055;
            tsc->srgb_border_color[c] = (uint8_t)lround(e * 255.0);
        }
    tsc->cubemap_interface_filtering = s->seamless_cube ? 2 : 0;
    tsc->reduction_filter = s->reduction == GL_MIN ? 1 : s->reduction == GL_MAX ? 2 : 0;
    /* GL decodes sRGB textures unless the sampler says GL_SKIP_DECODE_EXT */
    tsc->srgb_conversion = s->srgb_decode;
}

static bool make_tic(const diff_texture *t, tv_tic *tic, char *err, size_t n)
{
    tv_error e;
    memset(&e, 0, sizeof e);
    if (tv_tic_from_format(tic, t->fmt->tv, &e) != TV_OK) {
        snprintf(err, n, "tv_tic_from_format(%s) failed", t->fmt->name);
        return false;
    }
    const gl_tv_target *m = map_target(t->gl_target);
    tic->texture_type = m->type;
    tic->address = ADDR_TEXELS;
    bool buffer = t->gl_target == GL_TEXTURE_BUFFER;
    tic->header_version = buffer ? TV_TIC_ONE_D_BUFFER : TV_TIC_PITCH;
    /* MS storage is scaled by the sample grid (2: 2x1, 4: 2x2, 8: 4x2, 16: 4x4). */
    int grid_w = t->samples >= 8 ? 4 : t->samples >= 2 ? 2 : 1;
    tic->pitch = buffer ? 0 : (uint32_t)((t->w * grid_w * t->fmt->bpp + 31) / 32 * 32);
    tic->width_minus_one = (uint32_t)t->w - 1;
    tic->height_minus_one = (uint16_t)(diff_level_h(t, 0) - 1);
    switch (t->gl_target) {
    case GL_TEXTURE_3D: tic->depth_minus_one = (uint16_t)(t->d - 1); break;
    case GL_TEXTURE_1D_ARRAY:
    case GL_TEXTURE_2D_ARRAY:
    case GL_TEXTURE_2D_MULTISAMPLE_ARRAY: tic->depth_minus_one = (uint16_t)(t->layers - 1); break;
    case GL_TEXTURE_CUBE_MAP_ARRAY: tic->depth_minus_one = (uint16_t)(t->layers / 6 - 1); break;
    default: tic->depth_minus_one = 0; break;
    }
    tic->max_mip_level = (uint8_t)(t->levels - 1);
    tic->res_view_min_mip_level = (uint8_t)t->base;
    tic->res_view_max_mip_level = (uint8_t)t->max;
    tic->normalized_coords = t->gl_target != GL_TEXTURE_RECTANGLE;
    tic->multi_sample_count = msaa_code(t->samples);
    return true;
}

/* Copy the GL-layout texels to where the header says they live. */
static bool place_texels(const diff_texture *t, const tv_tic *tic, uint8_t *host,
                         uint64_t size, char *err, size_t err_size)
{
    int samples = t->samples > 1 ? t->samples : 1;
    size_t bpp = (size_t)t->fmt->bpp;
    for (int l = 0; l < t->levels; l++) {
        int w = diff_level_w(t, l), h = diff_level_h(t, l), d = diff_level_d(t, l);
        const uint8_t *src = t->data + t->level_off[l];
        for (int z = 0; z < d; z++)
            for (int s = 0; s < samples; s++)
                for (int y = 0; y < h; y++)
                    for (int x = 0; x < w; x++) {
                        uint64_t a = tv_tic_texel_address(tic, (unsigned)l, (unsigned)x,
                                                          (unsigned)y, (unsigned)z, (unsigned)s);
                        if (a < tic->address || a - tic->address + bpp > size) {
                            snprintf(err, err_size,
                                     "tv_tic_texel_address(level %d, %d, %d, %d, sample %d) "
                                     "= +%lld is outside tv_tic_size_bytes = %llu (target "
                                     "0x%x %dx%dx%d layers %d levels %d)",
                                     l, x, y, z, s, (long long)(a - tic->address),
                                     (unsigned long long)size, t->gl_target, t->w, t->h,
                                     t->d, t->layers, t->levels);
                            return false;
                        }
                        memcpy(host + (a - tic->address), src, bpp);
                        src += bpp;
                    }
    }
    return true;
}

/* Pixel index of lane `lane` of request `r` (quads TL, TR, BL, BR = +x, +y in GL). */
static int pixel_of(int r, int lane)
{
    int q = r * 8 + lane / 4;                 /* quad number 0..31 */
    int qx = q % (DIFF_W / 2), qy = q / (DIFF_W / 2);
    int x = qx * 2 + (lane & 1), y = qy * 2 + ((lane >> 1) & 1);
    return y * DIFF_W + x;
}

static const uint8_t k_ops[] = {
    [DOP_SAMPLE] = TV_TEX_OP_SAMPLE,     [DOP_BIAS] = TV_TEX_OP_SAMPLE_BIAS,
    [DOP_LOD] = TV_TEX_OP_SAMPLE_LOD,    [DOP_GRAD] = TV_TEX_OP_SAMPLE_GRAD,
    [DOP_GATHER] = TV_TEX_OP_GATHER,     [DOP_FETCH] = TV_TEX_OP_FETCH,
    [DOP_QLOD] = TV_TEX_OP_QUERY_LOD,    [DOP_QDIM] = TV_TEX_OP_QUERY_DIM,
    [DOP_QSAMPLES] = TV_TEX_OP_QUERY_SAMPLES,
};

/* Coordinate slots: which request coordinate each of c.x..c.w feeds (-1 = unused). */
static void coord_slots(GLenum t, int slot[4])
{
    slot[0] = 0; slot[1] = 1; slot[2] = 2; slot[3] = -1;
    if (t == GL_TEXTURE_1D_ARRAY) { slot[1] = 3; slot[2] = -1; }
    if (t == GL_TEXTURE_2D_ARRAY || t == GL_TEXTURE_2D_MULTISAMPLE_ARRAY) slot[2] = 3;
    if (t == GL_TEXTURE_CUBE_MAP_ARRAY) slot[3] = 3;
}

static void fill_request(const diff_batch *b, int r, tv_tex_request *req)
{
    memset(req, 0, sizeof *req);
    req->op = k_ops[b->op];
    req->target = map_target(b->tex.gl_target)->target;
    req->active = 0xffffffffu;
    req->present = 0xffffffffu;
    if (b->shadow)
        req->flags |= TV_TEXF_COMPARE;
    if (b->offset)
        req->flags |= TV_TEXF_OFFSETS;
    req->component = (uint8_t)b->gather_comp;
    int slot[4];
    coord_slots(b->tex.gl_target, slot);
    for (int lane = 0; lane < TV_TEX_LANES; lane++) {
        const diff_params *p = &b->p[pixel_of(r, lane)];
        req->handle[lane] = tv_tex_handle(0, 0);
        for (int k = 0; k < 4; k++)
            if (slot[k] >= 0) {
                req->coord[slot[k]][lane] = p->c[k];
                req->icoord[slot[k]][lane] = (int32_t)p->c[k];
            }
        req->lod[lane] = p->a[0];
        req->ref[lane] = p->a[1];
        req->lod_i[lane] = (int32_t)p->a[2];
        req->sample[lane] = (int32_t)p->a[2];
        for (int k = 0; k < 3; k++) {
            req->ddx[k][lane] = p->dx[k];
            req->ddy[k][lane] = p->dy[k];
            req->offset[k][lane] = (int8_t)b->off[k];
        }
    }
}

bool diff_tv_run(diff_batch *b, char *err, size_t err_size)
{
    tv_tic tic;
    tv_tsc tsc;
    if (!make_tic(&b->tex, &tic, err, err_size))
        return false;
    make_tsc(&b->smp, &tsc);
    /* GL border colours are final RGBA: pre-swizzle them as a GL driver for NVIDIA does */
    tv_tsc_border_for_header(&tsc, &tic);
    uint64_t size = tv_tic_size_bytes(&tic);
    uint8_t *texels = calloc(1, (size_t)size + 64);
    /* header pool: 1 entry; sampler pool: the sampler, then an isotropic copy */
    uint32_t pools[3][8];
    tv_tic_encode(&tic, pools[0]);
    tv_tsc_encode(&tsc, pools[1]);
    tv_tsc iso = tsc;
    iso.max_anisotropy = 0;
    if (iso.min_filter == TV_MIN_ANISO)
        iso.min_filter = TV_MIN_LINEAR;
    tv_tsc_encode(&iso, pools[2]);
    tv_memory *mem = tv_memory_create();
    tv_tex_unit *unit = mem ? tv_tex_create(mem) : NULL;
    tv_tex_request *req = malloc(sizeof *req);
    tv_tex_result *res = malloc(sizeof *res);
    tv_error e;
    memset(&e, 0, sizeof e);
    bool ok = texels && unit && req && res &&
              tv_memory_map(mem, ADDR_HEADERS, pools[0], 32, &e) == TV_OK &&
              tv_memory_map(mem, ADDR_SAMPLERS, pools[1], 64, &e) == TV_OK &&
              tv_memory_map(mem, ADDR_TEXELS, texels, size + 64, &e) == TV_OK;
    if (!ok) {
        snprintf(err, err_size, "texvm set-up failed: %s", e.message);
    } else if (!place_texels(&b->tex, &tic, texels, size, err, err_size)) {
        ok = false;
    } else {
        tv_tex_set_header_pool(unit, ADDR_HEADERS, 0);
        tv_tex_set_sampler_pool(unit, ADDR_SAMPLERS, 1);
        for (int r = 0; r < DIFF_PIX / TV_TEX_LANES && ok; r++) {
            fill_request(b, r, req);
            if (tv_tex_execute(unit, req, res, &e) != TV_OK) {
                snprintf(err, err_size, "tv_tex_execute: %s", e.message);
                ok = false;
                break;
            }
            for (int lane = 0; lane < TV_TEX_LANES; lane++) {
                int i = pixel_of(r, lane);
                for (int k = 0; k < 4; k++)
                    b->tv[i][k] = res->v[k][lane];
                b->tv_lod[i] = res->lod_unclamped[lane];
            }
        }
        /* Re-run at llvmpipe's modelled LOD (explicit), to recognise its LOD departure. */
        b->has_alt = false;
        bool implicit = b->op == DOP_SAMPLE || b->op == DOP_BIAS || b->op == DOP_GRAD;
        if (ok && implicit && !b->lod_model &&
            (b->tex.gl_target == GL_TEXTURE_CUBE_MAP ||
             b->tex.gl_target == GL_TEXTURE_CUBE_MAP_ARRAY)) {
            /* cubes: llvmpipe's log2 applied to texvm's scale factor */
            for (int i = 0; i < DIFF_PIX; i++) {
                float shader_bias = b->op == DOP_BIAS ? b->p[i].a[0] : 0.0f;
                float base = b->tv_lod[i] - b->smp.lod_bias - shader_bias;
                b->lod_llvm[i] = diff_llvm_lod_of(base) + shader_bias;
            }
            b->lod_model = true;
        }
        if (ok && b->lod_model && b->op != DOP_QLOD) {
            for (int r = 0; r < DIFF_PIX / TV_TEX_LANES && ok; r++) {
                fill_request(b, r, req);
                req->op = TV_TEX_OP_SAMPLE_LOD;
                for (int lane = 0; lane < TV_TEX_LANES; lane++) {
                    float l = b->lod_llvm[pixel_of(r, lane)];
                    req->lod[lane] = isnan(l) ? -100.0f : l;
                }
                ok = tv_tex_execute(unit, req, res, &e) == TV_OK;
                for (int lane = 0; lane < TV_TEX_LANES && ok; lane++)
                    for (int k = 0; k < 4; k++)
                        b->tv_alt[pixel_of(r, lane)][k] = res->v[k][lane];
            }
            b->has_alt = ok;
            if (!ok)
                snprintf(err, err_size, "tv_tex_execute (re-run): %s", e.message);
        }
        /* Anisotropic batches: isotropic lookups at the minor and major axis LODs. */
        b->has_iso = false;
        if (ok && b->lod_model && b->smp.max_anisotropy > 1.0f) {
            for (int k = 0; k < 2 && ok; k++)
                for (int r = 0; r < DIFF_PIX / TV_TEX_LANES && ok; r++) {
                    fill_request(b, r, req);
                    req->op = TV_TEX_OP_SAMPLE_LOD;
                    for (int lane = 0; lane < TV_TEX_LANES; lane++) {
                        int i = pixel_of(r, lane);
                        req->handle[lane] = tv_tex_handle(0, 1);
                        req->lod[lane] = k ? b->lod_major[i] : b->lod_minor[i];
                    }
                    ok = tv_tex_execute(unit, req, res, &e) == TV_OK;
                    for (int lane = 0; lane < TV_TEX_LANES && ok; lane++)
                        for (int c = 0; c < 4; c++)
                            b->tv_iso[k][pixel_of(r, lane)][c] = res->v[c][lane];
                }
            b->has_iso = ok;
            if (!ok)
                snprintf(err, err_size, "tv_tex_execute (isotropic re-run): %s", e.message);
        }
    }
    free(req);
    free(res);
    tv_tex_destroy(unit);
    tv_memory_destroy(mem);
    free(texels);
    return ok;
}

#elif defined(TEXVM_HAVE_GLREF)

bool diff_tv_available(void) { return false; }

bool diff_tv_run(diff_batch *b, char *err, size_t err_size)
{
    (void)b;
    snprintf(err, err_size, "texvm's texture unit is not built into this test");
    return false;
}

#endif
