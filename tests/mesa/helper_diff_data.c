/* Differential test data: the format table (GL upload <-> texvm format), random numbers
 * and random texel data. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"
#include "common_rng.h"

#ifdef TEXVM_HAVE_GLREF

#define F(name, tvf, ifmt, fmt, type, bpp, kind, ch, rend) \
    {name, TV_FORMAT_##tvf, ifmt, fmt, type, bpp, kind, ch, rend}

static const diff_format k_formats[] = {
    F("rgba8", R8G8B8A8_UNORM, GL_RGBA8, GL_RGBA, GL_UNSIGNED_BYTE, 4, DK_UNORM, 4, true),
    F("rgba8_snorm", R8G8B8A8_SNORM, GL_RGBA8_SNORM, GL_RGBA, GL_BYTE, 4, DK_SNORM, 4, false),
    F("srgb8_a8", R8G8B8A8_SRGB, GL_SRGB8_ALPHA8, GL_RGBA, GL_UNSIGNED_BYTE, 4, DK_SRGB, 4, true),
    F("r8", R8_UNORM, GL_R8, GL_RED, GL_UNSIGNED_BYTE, 1, DK_UNORM, 1, true),
    F("rg8", R8G8_UNORM, GL_RG8, GL_RG, GL_UNSIGNED_BYTE, 2, DK_UNORM, 2, true),
    F("rgba16f", R16G16B16A16_FLOAT, GL_RGBA16F, GL_RGBA, GL_HALF_FLOAT, 8, DK_FLOAT, 4, true),
    F("rgba16", R16G16B16A16_UNORM, GL_RGBA16, GL_RGBA, GL_UNSIGNED_SHORT, 8, DK_UNORM, 4, true),
    F("rgba32f", R32G32B32A32_FLOAT, GL_RGBA32F, GL_RGBA, GL_FLOAT, 16, DK_FLOAT, 4, true),
    F("r32f", R32_FLOAT, GL_R32F, GL_RED, GL_FLOAT, 4, DK_FLOAT, 1, true),
    F("rgb10a2", R10G10B10A2_UNORM, GL_RGB10_A2, GL_RGBA, GL_UNSIGNED_INT_2_10_10_10_REV, 4,
      DK_UNORM, 4, true),
    F("rgb565", B5G6R5_UNORM, GL_RGB565, GL_RGB, GL_UNSIGNED_SHORT_5_6_5, 2, DK_UNORM, 3, true),
    F("r11g11b10f", R11G11B10_FLOAT, GL_R11F_G11F_B10F, GL_RGB,
      GL_UNSIGNED_INT_10F_11F_11F_REV, 4, DK_FLOAT, 3, true),
    F("rgb9e5", R9G9B9E5_FLOAT, GL_RGB9_E5, GL_RGB, GL_UNSIGNED_INT_5_9_9_9_REV, 4, DK_FLOAT,
      3, false),
    F("rgba8ui", R8G8B8A8_UINT, GL_RGBA8UI, GL_RGBA_INTEGER, GL_UNSIGNED_BYTE, 4, DK_UINT, 4,
      true),
    F("rgba16i", R16G16B16A16_SINT, GL_RGBA16I, GL_RGBA_INTEGER, GL_SHORT, 8, DK_SINT, 4, true),
    F("rgba32ui", R32G32B32A32_UINT, GL_RGBA32UI, GL_RGBA_INTEGER, GL_UNSIGNED_INT, 16,
      DK_UINT, 4, true),
    F("depth32f", Z32_FLOAT, GL_DEPTH_COMPONENT32F, GL_DEPTH_COMPONENT, GL_FLOAT, 4, DK_DEPTH,
      1, false),
    F("depth16", Z16_UNORM, GL_DEPTH_COMPONENT16, GL_DEPTH_COMPONENT, GL_UNSIGNED_SHORT, 2,
      DK_DEPTH, 1, false),
};

const diff_format *diff_format_get(const char *name)
{
    for (size_t i = 0; i < sizeof k_formats / sizeof k_formats[0]; i++)
        if (strcmp(k_formats[i].name, name) == 0)
            return &k_formats[i];
    return NULL;
}

uint32_t diff_rand(uint32_t *s)
{
    if (*s == 0)
        *s = 0x9e3779b9u;
    return tc_rng_next(s);
}

float diff_uniform(uint32_t *s, float lo, float hi)
{
    return lo + (hi - lo) * (float)(diff_rand(s) >> 8) * (1.0f / 16777216.0f);
}

int diff_irand(uint32_t *s, int lo, int hi)
{
    if (hi <= lo)
        return lo;
    return lo + (int)(diff_rand(s) % (uint32_t)(hi - lo + 1));
}

static void put32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }

void diff_random_texel(const diff_format *f, uint32_t *rng, uint8_t *out)
{
    switch (f->tv) {
    case TV_FORMAT_R16G16B16A16_FLOAT:
        for (int c = 0; c < 4; c++) {
            /* sign, exponent 8..16 (2^-7 .. 2^1.x), random mantissa */
            uint16_t h = (uint16_t)(((diff_rand(rng) & 1u) << 15) |
                                    ((uint32_t)diff_irand(rng, 8, 16) << 10) |
                                    (diff_rand(rng) & 0x3ffu));
            memcpy(out + 2 * c, &h, 2);
        }
        break;
    case TV_FORMAT_R32G32B32A32_FLOAT:
        for (int c = 0; c < 4; c++) {
            float v = diff_uniform(rng, -2.0f, 2.0f);
            memcpy(out + 4 * c, &v, 4);
        }
        break;
    case TV_FORMAT_R32_FLOAT: {
        float v = diff_uniform(rng, -2.0f, 2.0f);
        memcpy(out, &v, 4);
        break;
    }
    case TV_FORMAT_Z32_FLOAT: {
        float v = diff_uniform(rng, 0.0f, 1.0f);
        memcpy(out, &v, 4);
        break;
    }
    case TV_FORMAT_R11G11B10_FLOAT: {
        /* exponents 10..20 keep values finite and moderate */
        uint32_t r = ((uint32_t)diff_irand(rng, 10, 20) << 6) | (diff_rand(rng) & 63u);
        uint32_t g = ((uint32_t)diff_irand(rng, 10, 20) << 6) | (diff_rand(rng) & 63u);
        uint32_t b = ((uint32_t)diff_irand(rng, 10, 20) << 5) | (diff_rand(rng) & 31u);
        put32(out, r | (g << 11) | (b << 22));
        break;
    }
    case TV_FORMAT_R9G9B9E5_FLOAT: {
        uint32_t v = (diff_rand(rng) & 0x07ffffffu) | ((uint32_t)diff_irand(rng, 10, 18) << 27);
        put32(out, v);
        break;
    }
    default:
        for (int i = 0; i < f->bpp; i++)
            out[i] = (uint8_t)(diff_rand(rng) >> 11);
        break;
    }
}

static int dim(int s, int l) { return s >> l > 0 ? s >> l : 1; }

int diff_level_w(const diff_texture *t, int l) { return dim(t->w, l); }

int diff_level_h(const diff_texture *t, int l)
{
    switch (t->gl_target) {
    case GL_TEXTURE_1D:
    case GL_TEXTURE_1D_ARRAY:
    case GL_TEXTURE_BUFFER:
        return 1;
    default:
        return dim(t->h, l);
    }
}

int diff_level_d(const diff_texture *t, int l)
{
    return t->gl_target == GL_TEXTURE_3D ? dim(t->d, l) : t->layers;
}

bool diff_texture_fill(diff_texture *t, uint32_t *rng)
{
    size_t off = 0;
    for (int l = 0; l < t->levels; l++) {
        size_t n = (size_t)diff_level_w(t, l) * (size_t)diff_level_h(t, l) *
                   (size_t)diff_level_d(t, l) * (size_t)(t->samples > 1 ? t->samples : 1);
        t->level_off[l] = off;
        t->level_size[l] = n * (size_t)t->fmt->bpp;
        off += t->level_size[l];
    }
    t->size = off;
    t->data = malloc(off ? off : 1);
    if (!t->data)
        return false;
    for (size_t i = 0; i + (size_t)t->fmt->bpp <= off; i += (size_t)t->fmt->bpp)
        diff_random_texel(t->fmt, rng, t->data + i);
    return true;
}

void diff_texture_free(diff_texture *t)
{
    free(t->data);
    t->data = NULL;
}

#endif /* TEXVM_HAVE_GLREF */
