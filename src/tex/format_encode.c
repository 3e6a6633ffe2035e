/* tv_format_pack: encode four values into one texel of a non-block format, the inverse
 * of the decoders (round to nearest even; UNORM/SNORM clamp to their range, integers
 * saturate to the field, sRGB formats encode linear -> sRGB, RGB9E5 per
 * EXT_texture_shared_exponent). Depth formats take the depth as a float in in[0] and the
 * stencil as an integer in in[1]. */
#include "tex/format.h"
#include "util/half.h"

#include <math.h>
#include <string.h>

static void put_field(uint8_t *data, unsigned off, unsigned bits, uint32_t v)
{
    if (off % 8 == 0 && bits % 8 == 0) {
        /* whole bytes, little-endian: what the bit loop below writes, a byte at a time */
        for (unsigned i = 0; i < bits / 8; i++)
            data[off / 8 + i] = (uint8_t)(v >> (8 * i));
        return;
    }
    for (unsigned i = 0; i < bits; i++) {
        unsigned bit = off + i;
        uint8_t m = (uint8_t)(1u << (bit % 8));
        if ((v >> i) & 1)
            data[bit / 8] |= m;
        else
            data[bit / 8] &= (uint8_t)~m;
    }
}

static uint32_t enc_unorm(float f, unsigned bits)
{
    double maxv = bits >= 32 ? 4294967295.0 : (double)((1u << bits) - 1);
    double x = isnan(f) ? 0.0 : f;
    x = x < 0.0 ? 0.0 : x > 1.0 ? 1.0 : x;
    return (uint32_t)nearbyint(x * maxv);
}

static uint32_t enc_snorm(float f, unsigned bits)
{
    double maxv = (double)(((int64_t)1 << (bits - 1)) - 1);
    double x = isnan(f) ? 0.0 : f;
    x = x < -1.0 ? -1.0 : x > 1.0 ? 1.0 : x;
    int64_t v = (int64_t)nearbyint(x * maxv);
    return (uint32_t)v & (bits >= 32 ? 0xffffffffu : (1u << bits) - 1);
}

static uint32_t enc_uint(uint32_t v, unsigned bits)
{
    uint32_t maxv = bits >= 32 ? 0xffffffffu : (1u << bits) - 1;
    return v > maxv ? maxv : v;
}

static uint32_t enc_sint(int32_t v, unsigned bits)
{
    if (bits >= 32)
        return (uint32_t)v;
    int32_t maxv = (int32_t)((1u << (bits - 1)) - 1), minv = -maxv - 1;
    int32_t c = v > maxv ? maxv : v < minv ? minv : v;
    return (uint32_t)c & ((1u << bits) - 1);
}

static uint32_t enc_float(uint32_t fbits, unsigned bits)
{
    float f = tv_bits_f32(fbits);
    switch (bits) {
    case 32: return fbits;
    case 16: return tv_float_to_half(f);
    case 11: return tv_float_to_ufloat(f, 6);
    case 10: return tv_float_to_ufloat(f, 5);
    default: return 0;
    }
}

bool tv_format_pack(tv_format f, const uint32_t in[4], void *texel)
{
    const tv_format_info *fi = tv_format_get(f);
    const tex_comp_layout *l = tex_comp_layout_get(fi->components);
    if (f == TV_FORMAT_NONE || !l || !texel || l->block_w != 1 || l->block_h != 1)
        return false;
    uint8_t *data = texel;
    if (l->decoder == TEX_DEC_SHAREDEXP) {
        float rgb[3] = {tv_bits_f32(in[0]), tv_bits_f32(in[1]), tv_bits_f32(in[2])};
        uint32_t v = tv_float_to_rgb9e5(rgb);
        put_field(data, 0, 32, v);
        return true;
    }
    if (l->decoder == TEX_DEC_DEPTH) {
        memset(data, 0, l->bytes);
        if (fi->kind == TV_FMT_KIND_DEPTH) {
            if (fi->data_type[0] == TV_TIC_TYPE_FLOAT)
                put_field(data, l->off[0], 32, in[0]);
            else
                put_field(data, l->off[0], l->bits[0], enc_unorm(tv_bits_f32(in[0]), l->bits[0]));
            if (l->bits[1])
                put_field(data, l->off[1], l->bits[1], enc_uint(in[1], l->bits[1]));
        } else if (l->bits[1]) {
            put_field(data, l->off[1], l->bits[1], enc_uint(in[0], l->bits[1]));
        }
        return true;
    }
    if (l->decoder != TEX_DEC_PLAIN)
        return false;
    memset(data, 0, l->bytes);   /* padding bits (X8, X24 …) are written as zero */
    for (int c = 0; c < 4; c++) {
        unsigned bits = l->bits[c];
        if (!bits)
            continue;
        uint32_t v;
        float x = tv_bits_f32(in[c]);
        switch (fi->data_type[c]) {
        case TV_TIC_TYPE_UNORM:
            if (fi->srgb && bits <= 8 && !((l->channels == 2 || l->channels == 4) &&
                                           c == l->channels - 1))
                x = tex_linear_to_srgb(x);
            v = enc_unorm(x, bits);
            break;
        case TV_TIC_TYPE_SNORM: v = enc_snorm(x, bits); break;
        case TV_TIC_TYPE_UINT: v = enc_uint(in[c], bits); break;
        case TV_TIC_TYPE_SINT: v = enc_sint((int32_t)in[c], bits); break;
        case TV_TIC_TYPE_FLOAT: v = enc_float(in[c], bits); break;
        default: v = 0; break;
        }
        put_field(data, l->off[c], bits, v);
    }
    return true;
}
