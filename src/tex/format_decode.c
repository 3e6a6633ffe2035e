/* Texel decode driven by the COMPONENTS layout and the TIC data types (sampling.md §7.1,
 * §7.2): bit fields -> UNORM/SNORM/SINT/UINT/FLOAT values, sRGB on request, missing
 * components (0, 0, 0, 1) typed by the result kind. */
#include "tex/format.h"
#include "util/half.h"

#include <string.h>

#define ONE_F 0x3f800000u

static uint32_t get_field(const uint8_t *data, unsigned off, unsigned bits)
{
    unsigned first = off / 8, last = (off + bits - 1) / 8;
    uint64_t v = 0;
    for (unsigned b = first; b <= last; b++)
        v |= (uint64_t)data[b] << (8 * (b - first));
    v >>= off % 8;
    return (uint32_t)(bits >= 32 ? v : v & ((1ull << bits) - 1));
}

static float unorm_to_float(uint32_t c, unsigned bits)
{
    if (bits <= 24)   /* operands exact in float: one correctly rounded division */
        return (float)c / (float)((1u << bits) - 1);
    return (float)((double)c / (double)(bits >= 32 ? 0xffffffffu : (1u << bits) - 1));
}

static int32_t sext(uint32_t c, unsigned bits)
{
    if (bits >= 32)
        return (int32_t)c;
    return (int32_t)((c ^ (1u << (bits - 1))) - (1u << (bits - 1)));
}

static float snorm_to_float(uint32_t c, unsigned bits)
{
    int64_t v = sext(c, bits);
    int64_t maxv = ((int64_t)1 << (bits - 1)) - 1;
    float f = bits <= 24 ? (float)v / (float)maxv : (float)((double)v / (double)maxv);
    return f < -1.0f ? -1.0f : f;
}

static float srgb_value(uint32_t c, unsigned bits)
{
    if (bits == 8)
        return tv_bits_f32(tex_srgb8_to_linear_bits[c]);
    return tex_srgb_to_linear(unorm_to_float(c, bits));
}

/* Component c of the layout can take sRGB decode (never the last of a 2/4-component one). */
static bool srgb_eligible(const tex_comp_layout *l, int c)
{
    if ((l->channels == 2 || l->channels == 4) && c == l->channels - 1)
        return false;
    return true;
}

static void defaults(uint32_t out[4], bool is_int)
{
    out[0] = out[1] = out[2] = 0;
    out[3] = is_int ? 1u : ONE_F;
}

static void decode_plain(const tex_comp_layout *l, const uint8_t types[4], bool srgb,
                         const uint8_t *data, uint32_t out[4])
{
    bool is_int = false;
    for (int c = 0; c < 4; c++)
        if (l->bits[c] && tex_type_is_int(types[c]))
            is_int = true;
    defaults(out, is_int);
    for (int c = 0; c < 4; c++) {
        unsigned bits = l->bits[c];
        if (!bits)
            continue;
        uint32_t v = get_field(data, l->off[c], bits);
        float f;
        switch (types[c]) {
        case TV_TIC_TYPE_UNORM:
        case TV_TIC_TYPE_UNORM_FORCE_FP16:
            if (srgb && bits <= 8 && srgb_eligible(l, c))
                f = srgb_value(v, bits);
            else
                f = unorm_to_float(v, bits);
            if (types[c] == TV_TIC_TYPE_UNORM_FORCE_FP16)
                f = tv_half_to_float(tv_float_to_half(f));
            out[c] = tv_f32_bits(f);
            break;
        case TV_TIC_TYPE_SNORM:
        case TV_TIC_TYPE_SNORM_FORCE_FP16:
            f = snorm_to_float(v, bits);
            if (types[c] == TV_TIC_TYPE_SNORM_FORCE_FP16)
                f = tv_half_to_float(tv_float_to_half(f));
            out[c] = tv_f32_bits(f);
            break;
        case TV_TIC_TYPE_SINT:
            out[c] = (uint32_t)sext(v, bits);
            break;
        case TV_TIC_TYPE_UINT:
            out[c] = v;
            break;
        case TV_TIC_TYPE_FLOAT:
            if (bits == 32)
                out[c] = v;
            else if (bits == 16)
                out[c] = tv_f32_bits(tv_half_to_float((uint16_t)v));
            else if (bits == 11)
                out[c] = tv_f32_bits(tv_uf11_to_float(v));
            else if (bits == 10)
                out[c] = tv_f32_bits(tv_uf10_to_float(v));
            else
                out[c] = 0;   /* no float encoding of this width: documented as zero */
            break;
        default:
            out[c] = 0;       /* data type 0 or unknown */
            break;
        }
    }
}

static void decode_depth(const tex_comp_layout *l, const uint8_t types[4],
                         const uint8_t *data, uint32_t out[4])
{
    if (types[0] == TV_TIC_TYPE_UINT) {           /* stencil view */
        defaults(out, true);
        out[0] = l->bits[1] ? get_field(data, l->off[1], l->bits[1]) : 0;
        return;
    }
    defaults(out, false);
    uint32_t z = get_field(data, l->off[0], l->bits[0]);
    if (types[0] == TV_TIC_TYPE_FLOAT && l->bits[0] == 32)
        out[0] = z;
    else if (types[0] == TV_TIC_TYPE_UNORM)
        out[0] = tv_f32_bits(unorm_to_float(z, l->bits[0]));
    else
        out[0] = 0;
}

/* Block colour values (exact, in [0,1]) -> float, through sRGB when asked. */
static uint32_t bc_colour(double v, bool srgb)
{
    return tv_f32_bits((float)(srgb ? tex_srgb_to_linear_d(v) : v));
}

void tex_decode(const tex_comp_layout *l, const uint8_t types[4], bool srgb,
                const uint8_t *data, unsigned x, unsigned y, uint32_t out[4])
{
    float f[4];
    uint8_t b[4];
    switch (l->decoder) {
    case TEX_DEC_PLAIN:
        decode_plain(l, types, srgb, data, out);
        return;
    case TEX_DEC_SHAREDEXP: {
        uint32_t v = get_field(data, 0, 32);
        tv_rgb9e5_to_float(v, f);
        for (int c = 0; c < 3; c++)
            out[c] = tv_f32_bits(f[c]);
        out[3] = ONE_F;
        return;
    }
    case TEX_DEC_DEPTH:
        decode_depth(l, types, data, out);
        return;
    case TEX_DEC_BC1:
    case TEX_DEC_BC2:
    case TEX_DEC_BC3: {
        const uint8_t *colour = l->decoder == TEX_DEC_BC1 ? data : data + 8;
        double d[4];
        tex_bc1_texel(colour, x, y, l->decoder != TEX_DEC_BC1, d);
        for (int c = 0; c < 3; c++)
            out[c] = bc_colour(d[c], srgb);
        if (l->decoder == TEX_DEC_BC2)
            out[3] = tv_f32_bits(tex_bc2_alpha(data, x, y));
        else if (l->decoder == TEX_DEC_BC3)
            out[3] = tv_f32_bits(tex_bc4_value(data, x, y, false));
        else
            out[3] = tv_f32_bits((float)d[3]);
        return;
    }
    case TEX_DEC_BC4:
    case TEX_DEC_BC5:
        defaults(out, false);
        out[0] = tv_f32_bits(tex_bc4_value(data, x, y, types[0] == TV_TIC_TYPE_SNORM));
        if (l->decoder == TEX_DEC_BC5)
            out[1] = tv_f32_bits(tex_bc4_value(data + 8, x, y, types[1] == TV_TIC_TYPE_SNORM));
        return;
    case TEX_DEC_BC6H_SF:
    case TEX_DEC_BC6H_UF:
        tex_bc6h_texel(data, x, y, l->decoder == TEX_DEC_BC6H_SF, f);
        for (int c = 0; c < 3; c++)
            out[c] = tv_f32_bits(f[c]);
        out[3] = ONE_F;
        return;
    case TEX_DEC_BC7:
        tex_bc7_texel(data, x, y, b);
        for (int c = 0; c < 4; c++) {
            float v = (srgb && c < 3) ? tv_bits_f32(tex_srgb8_to_linear_bits[b[c]])
                                      : (float)b[c] / 255.0f;
            out[c] = tv_f32_bits(v);
        }
        return;
    default:
        out[0] = out[1] = out[2] = out[3] = 0;
        return;
    }
}

void tv_format_unpack(tv_format f, const void *texel_or_block, unsigned x, unsigned y,
                      uint32_t out[4])
{
    const tv_format_info *fi = tv_format_get(f);
    const tex_comp_layout *l = tex_comp_layout_get(fi->components);
    if (f == TV_FORMAT_NONE || !l || !texel_or_block) {
        out[0] = out[1] = out[2] = out[3] = 0;
        return;
    }
    tex_decode(l, fi->data_type, fi->srgb, texel_or_block, x % l->block_w, y % l->block_h,
               out);
}
