/* TIC and TSC entries: every field of the GM20x layouts (nvidia-texture.md §1.2, §2) as a
 * table of bit fields, and encode/decode driven by those tables. */
#include "texvm/tex.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

/* Which TIC header versions a field exists in. */
enum {
    V_1D = 1u << TV_TIC_ONE_D_BUFFER,
    V_PCK = 1u << TV_TIC_PITCH_COLOR_KEY,
    V_P = 1u << TV_TIC_PITCH,
    V_BL = 1u << TV_TIC_BLOCKLINEAR,
    V_BLCK = 1u << TV_TIC_BLOCKLINEAR_COLOR_KEY,
    V_PITCH = V_P | V_PCK,
    V_BLK = V_BL | V_BLCK,
    V_CK = V_PCK | V_BLCK,
    V_NOCK = V_P | V_BL,
    V_IMG = V_PITCH | V_BLK,          /* every version except ONE_D_BUFFER */
    V_ALL = 0xff                      /* also the undefined versions 5..7 */
};

/* One bit field: bits [lo, lo+width) of dword `dw` hold (member >> shift) & mask. */
typedef struct desc_field {
    const char *name;
    uint8_t dw, lo, width, shift;
    uint16_t offset;                  /* offsetof the struct member */
    uint8_t size;                     /* member size in bytes: 1, 2, 4, 8 */
    bool is_signed;                   /* sign-extend on decode */
    uint8_t versions;                 /* TIC only */
} desc_field;

#define TF(n, dw, lo, w, sh, member, sgn, vers) \
    {n, dw, lo, w, sh, offsetof(tv_tic, member), sizeof(((tv_tic *)0)->member), sgn, vers}
#define TFA(n, dw, lo, w, member, i, vers) \
    {n, dw, lo, w, 0, offsetof(tv_tic, member) + i, 1, false, vers}

static const desc_field tic_fields[] = {
    TF("COMPONENTS", 0, 0, 7, 0, components, false, V_ALL),
    TFA("R_DATA_TYPE", 0, 7, 3, data_type, 0, V_ALL),
    TFA("G_DATA_TYPE", 0, 10, 3, data_type, 1, V_ALL),
    TFA("B_DATA_TYPE", 0, 13, 3, data_type, 2, V_ALL),
    TFA("A_DATA_TYPE", 0, 16, 3, data_type, 3, V_ALL),
    TFA("X_SOURCE", 0, 19, 3, source, 0, V_ALL),
    TFA("Y_SOURCE", 0, 22, 3, source, 1, V_ALL),
    TFA("Z_SOURCE", 0, 25, 3, source, 2, V_ALL),
    TFA("W_SOURCE", 0, 28, 3, source, 3, V_ALL),
    TF("PACK_COMPONENTS", 0, 31, 1, 0, pack_components, false, V_ALL),
    /* address: byte exact (1D buffer), 32-byte (pitch), 512-byte (block linear) */
    TF("ADDRESS_BITS31TO0", 1, 0, 32, 0, address, false, V_1D),
    TF("ADDRESS_BITS31TO5", 1, 5, 27, 5, address, false, V_PITCH),
    TF("GOB_DEPTH_OFFSET", 1, 5, 2, 0, gob_depth_offset, false, V_BLK),
    TF("ADDRESS_BITS31TO9", 1, 9, 23, 9, address, false, V_BLK),
    TF("ADDRESS_BITS47TO32", 2, 0, 16, 32, address, false, V_ALL),
    TF("HEADER_VERSION", 2, 21, 3, 0, header_version, false, V_ALL),
    TF("RESOURCE_VIEW_COHERENCY_HASH", 2, 25, 4, 0, coherency_hash, false, V_IMG),
    TF("GOBS_PER_BLOCK_WIDTH", 3, 0, 3, 0, gobs_per_block_width, false, V_BLK),
    TF("GOBS_PER_BLOCK_HEIGHT", 3, 3, 3, 0, gobs_per_block_height, false, V_BLK),
    TF("GOBS_PER_BLOCK_DEPTH", 3, 6, 3, 0, gobs_per_block_depth, false, V_BLK),
    TF("SPARSE_ENABLE", 3, 9, 1, 0, sparse_enable, false, V_BLK),
    TF("TILE_WIDTH_IN_GOBS", 3, 10, 3, 0, tile_width_in_gobs, false, V_BLK),
    TF("GOB3D", 3, 13, 1, 0, gob3d, false, V_BLK),
    TF("USE_ARRAY_TILE_ALIGNMENT", 3, 14, 1, 0, use_array_tile_alignment, false, V_BLK),
    TF("PITCH_BITS20TO5", 3, 0, 16, 5, pitch, false, V_PITCH),
    TF("WIDTH_MINUS_ONE_BITS31TO16", 3, 0, 16, 16, width_minus_one, false, V_1D),
    TF("LOD_ANISO_QUALITY2", 3, 16, 1, 0, lod_aniso_quality2, false, V_IMG),
    TF("LOD_ANISO_QUALITY", 3, 17, 1, 0, lod_aniso_quality, false, V_IMG),
    TF("LOD_ISO_QUALITY", 3, 18, 1, 0, lod_iso_quality, false, V_IMG),
    TF("ANISO_COARSE_SPREAD_MODIFIER", 3, 19, 2, 0, aniso_coarse_spread_modifier, false, V_IMG),
    TF("ANISO_SPREAD_SCALE", 3, 21, 5, 0, aniso_spread_scale, false, V_IMG),
    TF("USE_HEADER_OPT_CONTROL", 3, 26, 1, 0, use_header_opt_control, false, V_IMG),
    TF("DEPTH_TEXTURE", 3, 27, 1, 0, depth_texture, false, V_IMG),
    TF("MAX_MIP_LEVEL", 3, 28, 4, 0, max_mip_level, false, V_IMG),
    TF("WIDTH_MINUS_ONE", 4, 0, 16, 0, width_minus_one, false, V_ALL),
    TF("ANISO_SPREAD_MAX_LOG2", 4, 19, 3, 0, aniso_spread_max_log2, false, V_IMG),
    TF("SRGB_CONVERSION", 4, 22, 1, 0, srgb, false, V_ALL),
    TF("TEXTURE_TYPE", 4, 23, 4, 0, texture_type, false, V_ALL),
    TF("SECTOR_PROMOTION", 4, 27, 2, 0, sector_promotion, false, V_ALL),
    TF("BORDER_SIZE", 4, 29, 3, 0, border_size, false, V_IMG),
    TF("HEIGHT_MINUS_ONE", 5, 0, 16, 0, height_minus_one, false, V_IMG),
    TF("DEPTH_MINUS_ONE", 5, 16, 14, 0, depth_minus_one, false, V_IMG),
    TF("NORMALIZED_COORDS", 5, 31, 1, 0, normalized_coords, false, V_IMG),
    TF("COLOR_KEY_OP", 6, 0, 1, 0, color_key_op, false, V_CK),
    TF("TRILIN_OPT", 6, 1, 5, 0, trilin_opt, false, V_IMG),
    TF("MIP_LOD_BIAS", 6, 6, 13, 0, mip_lod_bias, true, V_IMG),
    TF("ANISO_BIAS", 6, 19, 4, 0, aniso_bias, false, V_IMG),
    TF("ANISO_FINE_SPREAD_FUNC", 6, 23, 2, 0, aniso_fine_spread_func, false, V_IMG),
    TF("ANISO_COARSE_SPREAD_FUNC", 6, 25, 2, 0, aniso_coarse_spread_func, false, V_IMG),
    TF("MAX_ANISOTROPY", 6, 27, 3, 0, max_anisotropy, false, V_IMG),
    TF("ANISO_FINE_SPREAD_MODIFIER", 6, 30, 2, 0, aniso_fine_spread_modifier, false, V_IMG),
    TF("RES_VIEW_MIN_MIP_LEVEL", 7, 0, 4, 0, res_view_min_mip_level, false, V_NOCK),
    TF("RES_VIEW_MAX_MIP_LEVEL", 7, 4, 4, 0, res_view_max_mip_level, false, V_NOCK),
    TF("MULTI_SAMPLE_COUNT", 7, 8, 4, 0, multi_sample_count, false, V_NOCK),
    TF("MIN_LOD_CLAMP", 7, 12, 12, 0, min_lod_clamp, false, V_NOCK),
    TF("COLOR_KEY_VALUE", 7, 0, 32, 0, color_key_value, false, V_CK),
};

#define SF(n, dw, lo, w, member, sgn) \
    {n, dw, lo, w, 0, offsetof(tv_tsc, member), sizeof(((tv_tsc *)0)->member), sgn, V_ALL}
#define SFA(n, dw, lo, w, member, i, sz) \
    {n, dw, lo, w, 0, offsetof(tv_tsc, member) + (i) * (sz), sz, false, V_ALL}

static const desc_field tsc_fields[] = {
    SF("ADDRESS_U", 0, 0, 3, address_u, false),
    SF("ADDRESS_V", 0, 3, 3, address_v, false),
    SF("ADDRESS_P", 0, 6, 3, address_p, false),
    SF("DEPTH_COMPARE", 0, 9, 1, depth_compare, false),
    SF("DEPTH_COMPARE_FUNC", 0, 10, 3, depth_compare_func, false),
    SF("SRGB_CONVERSION", 0, 13, 1, srgb_conversion, false),
    SF("FONT_FILTER_WIDTH", 0, 14, 3, font_filter_width, false),
    SF("FONT_FILTER_HEIGHT", 0, 17, 3, font_filter_height, false),
    SF("MAX_ANISOTROPY", 0, 20, 3, max_anisotropy, false),
    SF("MAG_FILTER", 1, 0, 3, mag_filter, false),
    SF("MIN_LOD_CLAMP_BEHAVIOR_FOR_NEAREST_MIP", 1, 3, 1, min_lod_clamp_integer_only, false),
    SF("MIN_FILTER", 1, 4, 2, min_filter, false),
    SF("MIP_FILTER", 1, 6, 2, mip_filter, false),
    SF("CUBEMAP_INTERFACE_FILTERING", 1, 8, 2, cubemap_interface_filtering, false),
    SF("REDUCTION_FILTER", 1, 10, 2, reduction_filter, false),
    SF("MIP_LOD_BIAS", 1, 12, 13, mip_lod_bias, true),
    SF("FLOAT_COORD_NORMALIZATION", 1, 25, 1, force_unnormalized_coords, false),
    SF("TRILIN_OPT", 1, 26, 5, trilin_opt, false),
    SF("MIN_LOD_CLAMP", 2, 0, 12, min_lod_clamp, false),
    SF("MAX_LOD_CLAMP", 2, 12, 12, max_lod_clamp, false),
    SFA("SRGB_BORDER_COLOR_R", 2, 24, 8, srgb_border_color, 0, 1),
    SFA("SRGB_BORDER_COLOR_G", 3, 12, 8, srgb_border_color, 1, 1),
    SFA("SRGB_BORDER_COLOR_B", 3, 20, 8, srgb_border_color, 2, 1),
    SFA("BORDER_COLOR_R", 4, 0, 32, border_color, 0, 4),
    SFA("BORDER_COLOR_G", 5, 0, 32, border_color, 1, 4),
    SFA("BORDER_COLOR_B", 6, 0, 32, border_color, 2, 4),
    SFA("BORDER_COLOR_A", 7, 0, 32, border_color, 3, 4),
};

static uint64_t member_get(const void *s, const desc_field *f)
{
    const uint8_t *p = (const uint8_t *)s + f->offset;
    switch (f->size) {
    case 1: { uint8_t v; memcpy(&v, p, 1); return v; }
    case 2: { uint16_t v; memcpy(&v, p, 2); return v; }
    case 4: { uint32_t v; memcpy(&v, p, 4); return v; }
    default: { uint64_t v; memcpy(&v, p, 8); return v; }
    }
}

static void member_set(void *s, const desc_field *f, uint64_t v)
{
    uint8_t *p = (uint8_t *)s + f->offset;
    switch (f->size) {
    case 1: {
        /* bool members take 0/1 */
        uint8_t b = (uint8_t)v;
        memcpy(p, &b, 1);
        break;
    }
    case 2: { uint16_t b = (uint16_t)v; memcpy(p, &b, 2); break; }
    case 4: { uint32_t b = (uint32_t)v; memcpy(p, &b, 4); break; }
    default: memcpy(p, &v, 8); break;
    }
}

static uint32_t field_mask(unsigned width)
{
    return width >= 32 ? 0xffffffffu : (1u << width) - 1;
}

static void encode_fields(const desc_field *fs, size_t n, unsigned version, const void *s,
                          uint32_t out[8])
{
    memset(out, 0, 8 * sizeof out[0]);
    for (size_t i = 0; i < n; i++) {
        const desc_field *f = &fs[i];
        if (!(f->versions & (1u << version)))
            continue;
        uint64_t v = member_get(s, f) >> f->shift;
        uint32_t m = field_mask(f->width);
        out[f->dw] &= ~(m << f->lo);
        out[f->dw] |= ((uint32_t)v & m) << f->lo;
    }
}

static void decode_fields(const desc_field *fs, size_t n, unsigned version, const uint32_t in[8],
                          void *s)
{
    for (size_t i = 0; i < n; i++) {
        const desc_field *f = &fs[i];
        if (!(f->versions & (1u << version)))
            continue;
        uint32_t m = field_mask(f->width);
        uint64_t v = (in[f->dw] >> f->lo) & m;
        if (f->is_signed && (v >> (f->width - 1)) & 1)
            v |= ~(uint64_t)m;                    /* sign-extend to 64 bits */
        v <<= f->shift;
        if (f->is_signed) {
            member_set(s, f, v);                  /* signed fields are whole members */
        } else {
            /* a field may be part of a wider member (address, 1D width): merge */
            uint64_t fm = (uint64_t)m << f->shift;
            member_set(s, f, (member_get(s, f) & ~fm) | (v & fm));
        }
    }
}

void tv_tic_encode(const tv_tic *tic, uint32_t out[8])
{
    encode_fields(tic_fields, sizeof tic_fields / sizeof tic_fields[0],
                  tic->header_version & 7, tic, out);
}

void tv_tic_decode(const uint32_t in[8], tv_tic *tic)
{
    memset(tic, 0, sizeof *tic);
    unsigned version = (in[2] >> 21) & 7;
    decode_fields(tic_fields, sizeof tic_fields / sizeof tic_fields[0], version, in, tic);
}

void tv_tsc_encode(const tv_tsc *tsc, uint32_t out[8])
{
    encode_fields(tsc_fields, sizeof tsc_fields / sizeof tsc_fields[0], 0, tsc, out);
}

void tv_tsc_decode(const uint32_t in[8], tv_tsc *tsc)
{
    memset(tsc, 0, sizeof *tsc);
    decode_fields(tsc_fields, sizeof tsc_fields / sizeof tsc_fields[0], 0, in, tsc);
}

/* ---- fixed point ----------------------------------------------------------------------- */
float tv_fixed_s5_8_to_float(int16_t raw)
{
    /* 13-bit two's complement in the low bits (values outside are sign-folded) */
    int32_t v = raw & 0x1fff;
    if (v & 0x1000)
        v -= 0x2000;
    return (float)v / 256.0f;
}

int16_t tv_float_to_fixed_s5_8(float f)
{
    if (isnan(f))
        return 0;
    double x = f * 256.0;
    x = nearbyint(x);
    if (x < -4096.0)
        x = -4096.0;
    if (x > 4095.0)
        x = 4095.0;
    return (int16_t)x;
}

float tv_fixed_u4_8_to_float(uint16_t raw)
{
    return (float)(raw & 0xfff) / 256.0f;
}

const uint8_t tv_tex_aniso_ratio[8] = {1, 2, 4, 6, 8, 10, 12, 16};

uint8_t tv_tex_aniso_code(double ratio)
{
    uint8_t code = 0;
    for (uint8_t c = 1; c < 8; c++)
        if (ratio >= tv_tex_aniso_ratio[c])
            code = c;
    return code;
}

uint16_t tv_float_to_fixed_u4_8(float f)
{
    if (isnan(f) || f <= 0.0f)
        return 0;
    double x = nearbyint(f * 256.0);
    if (x > 4095.0)
        x = 4095.0;
    return (uint16_t)x;
}
