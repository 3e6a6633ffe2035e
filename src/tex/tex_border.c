/* Border colour and out-of-range texel values (sampling.md §3.5, §8.2).
 * - Only components stored by the format take the border value; the others take the
 *   substitution defaults (0, 0, 0, 1), where 1 is typed (1.0f or integer 1).
 * - Float formats: clamped to the component's range (UNORM [0,1], SNORM [-1,1], FLOAT
 *   as given); integer formats: the raw 32-bit integers of the sampler (as the hardware).
 * - sRGB views (header sRGB and sampler SRGB_CONVERSION): R, G, B come from the sampler's
 *   8-bit sRGB-encoded border bytes, decoded to linear; A from BORDER_COLOR_A.
 * - Headers with DEPTH_TEXTURE smear the border R into all four components. */
#include <math.h>
#include <string.h>

#include "tex/tex_sampling.h"
#include "util/half.h"

enum { DT_SNORM = 1, DT_UNORM = 2, DT_SINT = 3, DT_UINT = 4, DT_SNORM_FP16 = 5,
       DT_UNORM_FP16 = 6, DT_FLOAT = 7 };

static bool view_is_int(const tex_view *v)
{
    return v->fi && (v->fi->kind == TV_FMT_KIND_SINT || v->fi->kind == TV_FMT_KIND_UINT);
}

unsigned tex_present_mask(const tex_view *v)
{
    if (!v->fi)
        return 0xf;
    if (v->fi->kind == TV_FMT_KIND_DEPTH)
        return 0x1;
    unsigned mask = 0;
    for (unsigned c = 0; c < 4; c++)
        if (v->fi->bits[c])
            mask |= 1u << c;
    if (mask)
        return mask;
    unsigned ch = v->fi->channels;
    if (ch == 0 || ch > 4)
        ch = 4;
    return (1u << ch) - 1u;
}

static void fill_defaults(const tex_view *v, unsigned present, uint32_t out[4])
{
    uint32_t one = view_is_int(v) ? 1u : tv_f32_bits(1.0f);
    for (unsigned c = 0; c < 4; c++)
        if (!(present & (1u << c)))
            out[c] = c == 3 ? one : 0u;
}

void tex_zero_texel(const tex_view *v, uint32_t out[4])
{
    memset(out, 0, 4 * sizeof(uint32_t));
    fill_defaults(v, tex_present_mask(v), out);
}

static float srgb_to_linear(uint8_t code)
{
    double cs = code / 255.0;
    double cl = cs <= 0.04045 ? cs / 12.92 : pow((cs + 0.055) / 1.055, 2.4);
    return (float)cl;
}

static float clamp_to_type(float f, unsigned dt)
{
    switch (dt) {
    case DT_UNORM:
    case DT_UNORM_FP16:
        return fminf(fmaxf(f, 0.0f), 1.0f); /* NaN -> 0 */
    case DT_SNORM:
    case DT_SNORM_FP16:
        return fminf(fmaxf(f, -1.0f), 1.0f);
    default:
        return f;
    }
}

void tex_border_color(const tex_view *v, const tex_sampler *s, bool srgb, bool zero,
                      uint32_t out[4])
{
    for (unsigned c = 0; c < 4; c++)
        out[c] = zero ? 0u : s->tsc.border_color[c];
    if (!view_is_int(v)) {
        for (unsigned c = 0; c < 4; c++) {
            unsigned dt = v->tic.data_type[c] ? v->tic.data_type[c] : v->tic.data_type[0];
            out[c] = tv_f32_bits(clamp_to_type(tv_bits_f32(out[c]), dt));
        }
        if (srgb && !zero)
            for (unsigned c = 0; c < 3; c++)
                out[c] = tv_f32_bits(srgb_to_linear(s->tsc.srgb_border_color[c]));
    }
    if (v->tic.depth_texture) {
        out[1] = out[2] = out[3] = out[0];
        return;
    }
    fill_defaults(v, tex_present_mask(v), out);
}
