/* Texel decode driven by the COMPONENTS layout and the TIC data types (sampling.md §7.1,
 * §7.2): bit fields -> UNORM/SNORM/SINT/UINT/FLOAT values, sRGB on request, missing
 * components (0, 0, 0, 1) typed by the result kind. */
#include "tex/format.h"
#include "util/half.h"

#include <string.h>

#define ONE_F 0x3f800000u

static inline uint32_t get_field(const uint8_t *data, unsigned off, unsigned bits)
{
    if ((off & 7) == 0) {          /* byte-aligned 8/16/32-bit components */
        const uint8_t *p = data + off / 8;
        if (bits == 8)
            return p[0];
        if (bits == 16)
            return (uint32_t)p[0] | (uint32_t)p[1] << 8;
        if (bits == 32)
            return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
                   (uint32_t)p[3] << 24;
    }
    unsigned first = off / 8, last = (off + bits - 1) / 8;
    uint64_t v = 0;
    for (unsigned b = first; b <= last; b++)
        v |= (uint64_t)data[b] << (8 * (b - first));
    v >>= off % 8;
    return (uint32_t)(bits >= 32 ? v : v & ((1ull << bits) - 1));
}

/* c / 255 for every 8-bit UNORM code, rounded once (evaluated by the compiler); shared
 * with the unorm8x4 loads (tex_texel.c) and the fast paths (src/tex/fast/), so all decode
 * through the same numbers */
const float tex_unorm8[256] = {
    0.0f / 255.0f, 1.0f / 255.0f, 2.0f / 255.0f, 3.0f / 255.0f, 4.0f / 255.0f, 5.0f / 255.0f,
    6.0f / 255.0f, 7.0f / 255.0f, 8.0f / 255.0f, 9.0f / 255.0f, 10.0f / 255.0f, 11.0f / 255.0f,
    12.0f / 255.0f, 13.0f / 255.0f, 14.0f / 255.0f, 15.0f / 255.0f, 16.0f / 255.0f, 17.0f /
    255.0f, 18.0f / 255.0f, 19.0f / 255.0f, 20.0f / 255.0f, 21.0f / 255.0f, 22.0f / 255.0f,
    23.0f / 255.0f, 24.0f / 255.0f, 25.0f / 255.0f, 26.0f / 255.0f, 27.0f / 255.0f, 28.0f /
    255.0f, 29.0f / 255.0f, 30.0f / 255.0f, 31.0f / 255.0f, 32.0f / 255.0f, 33.0f / 255.0f,
    34.0f / 255.0f, 35.0f / 255.0f, 36.0f / 255.0f, 37.0f / 255.0f, 38.0f / 255.0f, 39.0f /
    255.0f, 40.0f / 255.0f, 41.0f / 255.0f, 42.0f / 255.0f, 43.0f / 255.0f, 44.0f / 255.0f,
    45.0f / 255.0f, 46.0f / 255.0f, 47.0f / 255.0f, 48.0f / 255.0f, 49.0f / 255.0f, 50.0f /
    255.0f, 51.0f / 255.0f, 52.0f / 255.0f, 53.0f / 255.0f, 54.0f / 255.0f, 55.0f / 255.0f,
    56.0f / 255.0f, 57.0f / 255.0f, 58.0f / 255.0f, 59.0f / 255.0f, 60.0f / 255.0f, 61.0f /
    255.0f, 62.0f / 255.0f, 63.0f / 255.0f, 64.0f / 255.0f, 65.0f / 255.0f, 66.0f / 255.0f,
    67.0f / 255.0f, 68.0f / 255.0f, 69.0f / 255.0f, 70.0f / 255.0f, 71.0f / 255.0f, 72.0f /
    255.0f, 73.0f / 255.0f, 74.0f / 255.0f, 75.0f / 255.0f, 76.0f / 255.0f, 77.0f / 255.0f,
    78.0f / 255.0f, 79.0f / 255.0f, 80.0f / 255.0f, 81.0f / 255.0f, 82.0f / 255.0f, 83.0f /
    255.0f, 84.0f / 255.0f, 85.0f / 255.0f, 86.0f / 255.0f, 87.0f / 255.0f, 88.0f / 255.0f,
    89.0f / 255.0f, 90.0f / 255.0f, 91.0f / 255.0f, 92.0f / 255.0f, 93.0f / 255.0f, 94.0f /
    255.0f, 95.0f / 255.0f, 96.0f / 255.0f, 97.0f / 255.0f, 98.0f / 255.0f, 99.0f / 255.0f,
    100.0f / 255.0f, 101.0f / 255.0f, 102.0f / 255.0f, 103.0f / 255.0f, 104.0f / 255.0f, 105.0f
    / 255.0f, 106.0f / 255.0f, 107.0f / 255.0f, 108.0f / 255.0f, 109.0f / 255.0f, 110.0f /
    255.0f, 111.0f / 255.0f, 112.0f / 255.0f, 113.0f / 255.0f, 114.0f / 255.0f, 115.0f / 255.0f,
    116.0f / 255.0f, 117.0f / 255.0f, 118.0f / 255.0f, 119.0f / 255.0f, 120.0f / 255.0f, 121.0f
    / 255.0f, 122.0f / 255.0f, 123.0f / 255.0f, 124.0f / 255.0f, 125.0f / 255.0f, 126.0f /
    255.0f, 127.0f / 255.0f, 128.0f / 255.0f, 129.0f / 255.0f, 130.0f / 255.0f, 131.0f / 255.0f,
    132.0f / 255.0f, 133.0f / 255.0f, 134.0f / 255.0f, 135.0f / 255.0f, 136.0f / 255.0f, 137.0f
    / 255.0f, 138.0f / 255.0f, 139.0f / 255.0f, 140.0f / 255.0f, 141.0f / 255.0f, 142.0f /
    255.0f, 143.0f / 255.0f, 144.0f / 255.0f, 145.0f / 255.0f, 146.0f / 255.0f, 147.0f / 255.0f,
    148.0f / 255.0f, 149.0f / 255.0f, 150.0f / 255.0f, 151.0f / 255.0f, 152.0f / 255.0f, 153.0f
    / 255.0f, 154.0f / 255.0f, 155.0f / 255.0f, 156.0f / 255.0f, 157.0f / 255.0f, 158.0f /
    255.0f, 159.0f / 255.0f, 160.0f / 255.0f, 161.0f / 255.0f, 162.0f / 255.0f, 163.0f / 255.0f,
    164.0f / 255.0f, 165.0f / 255.0f, 166.0f / 255.0f, 167.0f / 255.0f, 168.0f / 255.0f, 169.0f
    / 255.0f, 170.0f / 255.0f, 171.0f / 255.0f, 172.0f / 255.0f, 173.0f / 255.0f, 174.0f /
    255.0f, 175.0f / 255.0f, 176.0f / 255.0f, 177.0f / 255.0f, 178.0f / 255.0f, 179.0f / 255.0f,
    180.0f / 255.0f, 181.0f / 255.0f, 182.0f / 255.0f, 183.0f / 255.0f, 184.0f / 255.0f, 185.0f
    / 255.0f, 186.0f / 255.0f, 187.0f / 255.0f, 188.0f / 255.0f, 189.0f / 255.0f, 190.0f /
    255.0f, 191.0f / 255.0f, 192.0f / 255.0f, 193.0f / 255.0f, 194.0f / 255.0f, 195.0f / 255.0f,
    196.0f / 255.0f, 197.0f / 255.0f, 198.0f / 255.0f, 199.0f / 255.0f, 200.0f / 255.0f, 201.0f
    / 255.0f, 202.0f / 255.0f, 203.0f / 255.0f, 204.0f / 255.0f, 205.0f / 255.0f, 206.0f /
    255.0f, 207.0f / 255.0f, 208.0f / 255.0f, 209.0f / 255.0f, 210.0f / 255.0f, 211.0f / 255.0f,
    212.0f / 255.0f, 213.0f / 255.0f, 214.0f / 255.0f, 215.0f / 255.0f, 216.0f / 255.0f, 217.0f
    / 255.0f, 218.0f / 255.0f, 219.0f / 255.0f, 220.0f / 255.0f, 221.0f / 255.0f, 222.0f /
    255.0f, 223.0f / 255.0f, 224.0f / 255.0f, 225.0f / 255.0f, 226.0f / 255.0f, 227.0f / 255.0f,
    228.0f / 255.0f, 229.0f / 255.0f, 230.0f / 255.0f, 231.0f / 255.0f, 232.0f / 255.0f, 233.0f
    / 255.0f, 234.0f / 255.0f, 235.0f / 255.0f, 236.0f / 255.0f, 237.0f / 255.0f, 238.0f /
    255.0f, 239.0f / 255.0f, 240.0f / 255.0f, 241.0f / 255.0f, 242.0f / 255.0f, 243.0f / 255.0f,
    244.0f / 255.0f, 245.0f / 255.0f, 246.0f / 255.0f, 247.0f / 255.0f, 248.0f / 255.0f, 249.0f
    / 255.0f, 250.0f / 255.0f, 251.0f / 255.0f, 252.0f / 255.0f, 253.0f / 255.0f, 254.0f /
    255.0f, 255.0f / 255.0f
};

static float unorm_to_float(uint32_t c, unsigned bits)
{
    if (bits == 8)
        return tex_unorm8[c & 255];
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
