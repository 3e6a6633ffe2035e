/* Every plain format's decode against a deliberately simple float64 reference written
 * here from the Gallium format definitions (fields listed LSB first) and sampling.md §7:
 * the view swizzle of the header tv_tic_from_format builds must turn the stored
 * components into Gallium's RGBA. Also: lookups by name, TIC round trips, packing. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "texvm/tex.h"
#include "tex/tex_internal.h"
#include "common_rng.h"

/* fields: "<letter><bits><type>" LSB first; type U unorm, S snorm, I sint, N uint,
 * F float, X padding. out: four letters of the result (0 / 1 = constants). */
typedef struct ref_format {
    const char *name;
    int bytes;
    const char *fields;
    const char *out;
    bool srgb;
} ref_format;

static const ref_format refs[] = {
    {"R8_UNORM", 1, "R8U", "R001", 0}, {"R8_SNORM", 1, "R8S", "R001", 0},
    {"R8_UINT", 1, "R8N", "R001", 0}, {"R8_SINT", 1, "R8I", "R001", 0},
    {"R8_SRGB", 1, "R8U", "R001", 1},
    {"R8G8_UNORM", 2, "R8U G8U", "RG01", 0}, {"R8G8_SNORM", 2, "R8S G8S", "RG01", 0},
    {"R8G8_UINT", 2, "R8N G8N", "RG01", 0}, {"R8G8_SINT", 2, "R8I G8I", "RG01", 0},
    {"R8G8B8A8_UNORM", 4, "R8U G8U B8U A8U", "RGBA", 0},
    {"R8G8B8A8_SNORM", 4, "R8S G8S B8S A8S", "RGBA", 0},
    {"R8G8B8A8_UINT", 4, "R8N G8N B8N A8N", "RGBA", 0},
    {"R8G8B8A8_SINT", 4, "R8I G8I B8I A8I", "RGBA", 0},
    {"R8G8B8A8_SRGB", 4, "R8U G8U B8U A8U", "RGBA", 1},
    {"B8G8R8A8_UNORM", 4, "B8U G8U R8U A8U", "RGBA", 0},
    {"B8G8R8A8_SRGB", 4, "B8U G8U R8U A8U", "RGBA", 1},
    {"R8G8B8X8_UNORM", 4, "R8U G8U B8U X8X", "RGB1", 0},
    {"B8G8R8X8_UNORM", 4, "B8U G8U R8U X8X", "RGB1", 0},
    {"R16_UNORM", 2, "R16U", "R001", 0}, {"R16_SNORM", 2, "R16S", "R001", 0},
    {"R16_FLOAT", 2, "R16F", "R001", 0}, {"R16_UINT", 2, "R16N", "R001", 0},
    {"R16_SINT", 2, "R16I", "R001", 0},
    {"R16G16_UNORM", 4, "R16U G16U", "RG01", 0}, {"R16G16_SNORM", 4, "R16S G16S", "RG01", 0},
    {"R16G16_FLOAT", 4, "R16F G16F", "RG01", 0}, {"R16G16_UINT", 4, "R16N G16N", "RG01", 0},
    {"R16G16_SINT", 4, "R16I G16I", "RG01", 0},
    {"R16G16B16A16_UNORM", 8, "R16U G16U B16U A16U", "RGBA", 0},
    {"R16G16B16A16_SNORM", 8, "R16S G16S B16S A16S", "RGBA", 0},
    {"R16G16B16A16_FLOAT", 8, "R16F G16F B16F A16F", "RGBA", 0},
    {"R16G16B16A16_UINT", 8, "R16N G16N B16N A16N", "RGBA", 0},
    {"R16G16B16A16_SINT", 8, "R16I G16I B16I A16I", "RGBA", 0},
    {"R32_FLOAT", 4, "R32F", "R001", 0}, {"R32_UINT", 4, "R32N", "R001", 0},
    {"R32_SINT", 4, "R32I", "R001", 0},
    {"R32G32_FLOAT", 8, "R32F G32F", "RG01", 0}, {"R32G32_UINT", 8, "R32N G32N", "RG01", 0},
    {"R32G32_SINT", 8, "R32I G32I", "RG01", 0},
    {"R32G32B32_FLOAT", 12, "R32F G32F B32F", "RGB1", 0},
    {"R32G32B32_UINT", 12, "R32N G32N B32N", "RGB1", 0},
    {"R32G32B32_SINT", 12, "R32I G32I B32I", "RGB1", 0},
    {"R32G32B32A32_FLOAT", 16, "R32F G32F B32F A32F", "RGBA", 0},
    {"R32G32B32A32_UINT", 16, "R32N G32N B32N A32N", "RGBA", 0},
    {"R32G32B32A32_SINT", 16, "R32I G32I B32I A32I", "RGBA", 0},
    {"R10G10B10A2_UNORM", 4, "R10U G10U B10U A2U", "RGBA", 0},
    {"R10G10B10A2_UINT", 4, "R10N G10N B10N A2N", "RGBA", 0},
    {"B10G10R10A2_UNORM", 4, "B10U G10U R10U A2U", "RGBA", 0},
    {"R11G11B10_FLOAT", 4, "R11F G11F B10F", "RGB1", 0},
    {"B5G6R5_UNORM", 2, "B5U G6U R5U", "RGB1", 0},
    {"R5G6B5_UNORM", 2, "R5U G6U B5U", "RGB1", 0},
    {"R5G5B5A1_UNORM", 2, "R5U G5U B5U A1U", "RGBA", 0},
    {"B5G5R5A1_UNORM", 2, "B5U G5U R5U A1U", "RGBA", 0},
    {"R4G4B4A4_UNORM", 2, "R4U G4U B4U A4U", "RGBA", 0},
    {"B4G4R4A4_UNORM", 2, "B4U G4U R4U A4U", "RGBA", 0},
    {"A8_UNORM", 1, "A8U", "000A", 0},
    {"L8_UNORM", 1, "L8U", "LLL1", 0},
    {"L8A8_UNORM", 2, "L8U A8U", "LLLA", 0},
    {"I8_UNORM", 1, "I8U", "IIII", 0},
    {"L8_SRGB", 1, "L8U", "LLL1", 1},
    {"L8A8_SRGB", 2, "L8U A8U", "LLLA", 1},
    {"Z16_UNORM", 2, "Z16U", "Z001", 0},
    {"Z24_UNORM_S8_UINT", 4, "Z24U S8X", "Z001", 0},
    {"S8_UINT_Z24_UNORM", 4, "S8X Z24U", "Z001", 0},
    {"Z24X8_UNORM", 4, "Z24U X8X", "Z001", 0},
    {"Z32_FLOAT", 4, "Z32F", "Z001", 0},
    {"Z32_FLOAT_S8X24_UINT", 8, "Z32F S8X X24X", "Z001", 0},
    {"X24S8_UINT", 4, "X24X S8N", "S001", 0},
    {"S8X24_UINT", 4, "S8N X24X", "S001", 0},
    {"X32_S8X24_UINT", 8, "X32X S8N X24X", "S001", 0},
    /* GL's alpha, luminance, luminance-alpha and intensity: A -> (0, 0, 0, A),
     * L -> (L, L, L, 1), LA -> (L, L, L, A), I -> (I, I, I, I) */
    {"A16_UNORM", 2, "A16U", "000A", 0},
    {"L16_UNORM", 2, "L16U", "LLL1", 0},
    {"L16A16_UNORM", 4, "L16U A16U", "LLLA", 0},
    {"I16_UNORM", 2, "I16U", "IIII", 0},
    {"A8_SNORM", 1, "A8S", "000A", 0},
    {"L8_SNORM", 1, "L8S", "LLL1", 0},
    {"L8A8_SNORM", 2, "L8S A8S", "LLLA", 0},
    {"I8_SNORM", 1, "I8S", "IIII", 0},
    {"A16_SNORM", 2, "A16S", "000A", 0},
    {"L16_SNORM", 2, "L16S", "LLL1", 0},
    {"L16A16_SNORM", 4, "L16S A16S", "LLLA", 0},
    {"I16_SNORM", 2, "I16S", "IIII", 0},
    {"A16_FLOAT", 2, "A16F", "000A", 0},
    {"L16_FLOAT", 2, "L16F", "LLL1", 0},
    {"L16A16_FLOAT", 4, "L16F A16F", "LLLA", 0},
    {"I16_FLOAT", 2, "I16F", "IIII", 0},
    {"A32_FLOAT", 4, "A32F", "000A", 0},
    {"L32_FLOAT", 4, "L32F", "LLL1", 0},
    {"L32A32_FLOAT", 8, "L32F A32F", "LLLA", 0},
    {"I32_FLOAT", 4, "I32F", "IIII", 0},
    {"A8_UINT", 1, "A8N", "000A", 0},
    {"L8_UINT", 1, "L8N", "LLL1", 0},
    {"L8A8_UINT", 2, "L8N A8N", "LLLA", 0},
    {"I8_UINT", 1, "I8N", "IIII", 0},
    {"A8_SINT", 1, "A8I", "000A", 0},
    {"L8_SINT", 1, "L8I", "LLL1", 0},
    {"L8A8_SINT", 2, "L8I A8I", "LLLA", 0},
    {"I8_SINT", 1, "I8I", "IIII", 0},
    {"A16_UINT", 2, "A16N", "000A", 0},
    {"L16_UINT", 2, "L16N", "LLL1", 0},
    {"L16A16_UINT", 4, "L16N A16N", "LLLA", 0},
    {"I16_UINT", 2, "I16N", "IIII", 0},
    {"A16_SINT", 2, "A16I", "000A", 0},
    {"L16_SINT", 2, "L16I", "LLL1", 0},
    {"L16A16_SINT", 4, "L16I A16I", "LLLA", 0},
    {"I16_SINT", 2, "I16I", "IIII", 0},
    {"A32_UINT", 4, "A32N", "000A", 0},
    {"L32_UINT", 4, "L32N", "LLL1", 0},
    {"L32A32_UINT", 8, "L32N A32N", "LLLA", 0},
    {"I32_UINT", 4, "I32N", "IIII", 0},
    {"A32_SINT", 4, "A32I", "000A", 0},
    {"L32_SINT", 4, "L32I", "LLL1", 0},
    {"L32A32_SINT", 8, "L32I A32I", "LLLA", 0},
    {"I32_SINT", 4, "I32I", "IIII", 0},
    /* RGB with padding (Gallium's X): the A sibling's fields, alpha 1 whatever they hold */
    {"B5G5R5X1_UNORM", 2, "B5U G5U R5U X1X", "RGB1", 0},
    {"B4G4R4X4_UNORM", 2, "B4U G4U R4U X4X", "RGB1", 0},
    {"R8G8B8X8_SNORM", 4, "R8S G8S B8S X8X", "RGB1", 0},
    {"R8G8B8X8_SRGB", 4, "R8U G8U B8U X8X", "RGB1", 1},
    {"R10G10B10X2_UNORM", 4, "R10U G10U B10U X2X", "RGB1", 0},
    {"B10G10R10X2_UNORM", 4, "B10U G10U R10U X2X", "RGB1", 0},
    {"R16G16B16X16_UNORM", 8, "R16U G16U B16U X16X", "RGB1", 0},
    {"R16G16B16X16_SNORM", 8, "R16S G16S B16S X16X", "RGB1", 0},
    {"R16G16B16X16_FLOAT", 8, "R16F G16F B16F X16X", "RGB1", 0},
    {"R32G32B32X32_FLOAT", 16, "R32F G32F B32F X32X", "RGB1", 0},
};

/* ---- float64 reference conversions ---- */
static uint32_t fbits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static float bitsf(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }

static double ref_srgb(double cs)
{
    return cs <= 0.04045 ? cs / 12.92 : pow((cs + 0.055) / 1.055, 2.4);
}

/* small float with 5-bit exponent (bias 15), `mb` mantissa bits, optional sign bit */
static uint32_t ref_small_float(uint32_t v, int mb, bool has_sign)
{
    uint32_t s = has_sign ? (v >> (5 + mb)) & 1 : 0;
    uint32_t e = (v >> mb) & 31, m = v & ((1u << mb) - 1);
    if (e == 31) /* Inf / NaN: mantissa moved to the top of float's */
        return s << 31 | 0x7f800000u | m << (23 - mb);
    double x = e == 0 ? ldexp((double)m, -14 - mb) : ldexp(1.0 + (double)m / (1 << mb), (int)e - 15);
    return fbits((float)(s ? -x : x));
}

static uint32_t ref_convert(uint32_t v, int bits, char type, bool srgb, char letter)
{
    double maxu = ldexp(1.0, bits) - 1.0;
    switch (type) {
    case 'U': {
        double x = v / maxu;
        if (srgb && letter != 'A' && bits <= 8)
            x = ref_srgb(x);
        return fbits((float)x);
    }
    case 'S': {
        int64_t s = (v >> (bits - 1)) & 1 ? (int64_t)v - ((int64_t)1 << bits) : (int64_t)v;
        double x = (double)s / (ldexp(1.0, bits - 1) - 1.0);
        return fbits((float)(x < -1.0 ? -1.0 : x));
    }
    case 'I': {
        int64_t s = (v >> (bits - 1)) & 1 ? (int64_t)v - ((int64_t)1 << bits) : (int64_t)v;
        return (uint32_t)(int32_t)s;
    }
    case 'N':
        return v;
    case 'F':
        if (bits == 32)
            return v;
        if (bits == 16)
            return ref_small_float(v, 10, true);
        return ref_small_float(v, bits == 11 ? 6 : 5, false);
    default:
        return 0;
    }
}

/* Reference decode of `data` into Gallium RGBA. */
static void ref_decode(const ref_format *rf, const uint8_t *data, uint32_t out[4], bool *is_int)
{
    uint32_t val[128] = {0};
    int bitpos = 0;
    *is_int = false;
    const char *p = rf->fields;
    while (*p) {
        char letter = *p++;
        int bits = (int)strtol(p, (char **)&p, 10);
        char type = *p++;
        if (*p == ' ')
            p++;
        uint64_t raw = 0;
        for (int b = 0; b < bits; b++)
            raw |= (uint64_t)((data[(bitpos + b) / 8] >> ((bitpos + b) % 8)) & 1) << b;
        bitpos += bits;
        if (type == 'X')
            continue;
        if (type == 'I' || type == 'N')
            *is_int = true;
        val[(int)letter] = ref_convert((uint32_t)raw, bits, type, rf->srgb, letter);
    }
    for (int c = 0; c < 4; c++) {
        char o = rf->out[c];
        out[c] = o == '0' ? 0 : o == '1' ? (*is_int ? 1u : 0x3f800000u) : val[(int)o];
    }
}

static uint32_t rng_state = 0x12345678u;
static uint32_t rnd(void)
{
    return tc_rng_next(&rng_state);
}

static void decode_via_view(tv_format f, const uint8_t *data, uint32_t out[4])
{
    tv_tic tic;
    assert_int_equal(tv_tic_from_format(&tic, f, NULL), TV_OK);
    tic.header_version = TV_TIC_PITCH;
    tic.texture_type = TV_TEX_2D;
    tex_view v;
    tex_view_init(&v, &tic);
    assert_true(v.valid);
    uint32_t raw[4];
    tv_format_unpack(f, data, 0, 0, raw);
    tex_apply_swizzle(&v, raw, out);
}

static void every_plain_format(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof refs / sizeof refs[0]; i++) {
        const ref_format *rf = &refs[i];
        tv_format f = tv_format_from_name(rf->name);
        if (f == TV_FORMAT_NONE)
            fail_msg("format %s missing", rf->name);
        const tv_format_info *fi = tv_format_get(f);
        assert_int_equal(fi->block_bytes, rf->bytes);
        for (int it = 0; it < 3000; it++) {
            uint8_t data[16];
            for (int b = 0; b < 16; b++)
                data[b] = (uint8_t)rnd();
            if (it == 0)
                memset(data, 0, 16);
            if (it == 1)
                memset(data, 0xff, 16);
            if (it == 2)
                for (int b = 0; b < 16; b++)
                    data[b] = (b & 1) ? 0x80 : 0x00;   /* most negative SNORM codes */
            uint32_t want[4], got[4];
            bool is_int;
            ref_decode(rf, data, want, &is_int);
            decode_via_view(f, data, got);
            for (int c = 0; c < 4; c++)
                if (want[c] != got[c])
                    fail_msg("%s texel %02x%02x%02x%02x component %d: got %08x want %08x",
                             rf->name, data[0], data[1], data[2], data[3], c, got[c], want[c]);
            bool fmt_int = fi->kind == TV_FMT_KIND_SINT || fi->kind == TV_FMT_KIND_UINT;
            assert_int_equal(fmt_int, is_int);
        }
    }
}

/* Every row of the table is covered: the plain ones above, the rest in other tests. */
static void table_coverage(void **state)
{
    (void)state;
    int plain = 0, block = 0, other = 0;
    for (unsigned f = 1; f < TV_FORMAT_COUNT; f++) {
        const tv_format_info *fi = tv_format_get((tv_format)f);
        bool found = false;
        for (size_t i = 0; i < sizeof refs / sizeof refs[0]; i++)
            if (strcmp(refs[i].name, fi->name) == 0)
                found = true;
        if (found)
            plain++;
        else if (fi->block_w == 4)
            block++;
        else if (strcmp(fi->name, "R9G9B9E5_FLOAT") == 0)
            other++;
        else
            fail_msg("format %s has no decode test", fi->name);
    }
    assert_int_equal(plain, (int)(sizeof refs / sizeof refs[0]));
    assert_int_equal(block, 16);
    assert_int_equal(other, 1);
}

static void names_and_tic_roundtrip(void **state)
{
    (void)state;
    for (unsigned f = 1; f < TV_FORMAT_COUNT; f++) {
        const tv_format_info *fi = tv_format_get((tv_format)f);
        assert_int_equal(tv_format_from_name(fi->name), f);
        if (fi->pipe_name) {
            assert_int_equal(strncmp(fi->pipe_name, "PIPE_FORMAT_", 12), 0);
            assert_int_equal(tv_format_from_pipe_name(fi->pipe_name), f);
        }
        tv_tic tic;
        assert_int_equal(tv_tic_from_format(&tic, (tv_format)f, NULL), TV_OK);
        assert_int_equal(tv_format_from_tic(&tic), f);
        /* through the 32-byte encoding too */
        uint32_t w[8];
        tic.header_version = TV_TIC_BLOCKLINEAR;
        tv_tic_encode(&tic, w);
        tv_tic back;
        tv_tic_decode(w, &back);
        assert_int_equal(tv_format_from_tic(&back), f);
    }
    assert_int_equal(tv_format_from_name("NOPE"), TV_FORMAT_NONE);
    assert_int_equal(tv_format_from_name(NULL), TV_FORMAT_NONE);
    assert_int_equal(tv_format_from_pipe_name("PIPE_FORMAT_R32G32B32A32_FLOAT"),
                     TV_FORMAT_R32G32B32A32_FLOAT);
    assert_int_equal(tv_format_from_pipe_name("PIPE_FORMAT_DXT5_SRGBA"), TV_FORMAT_BC3_SRGB);
    tv_error err;
    tv_tic tic;
    assert_int_equal(tv_tic_from_format(&tic, TV_FORMAT_NONE, &err), TV_ERR_ARG);
    assert_int_equal(tv_tic_from_format(&tic, TV_FORMAT_COUNT, &err), TV_ERR_ARG);
    /* a TIC's COMPONENTS/type codes as the reference lists them */
    tv_tic_from_format(&tic, TV_FORMAT_R8G8B8A8_UNORM, NULL);
    assert_int_equal(tic.components, 0x08);
    assert_int_equal(tic.data_type[0], 2);
    tv_tic_from_format(&tic, TV_FORMAT_B8G8R8A8_SRGB, NULL);
    assert_int_equal(tic.source[0], 4);   /* X from B */
    assert_int_equal(tic.source[2], 2);   /* Z from R */
    assert_true(tic.srgb);
    tv_tic_from_format(&tic, TV_FORMAT_R11G11B10_FLOAT, NULL);
    assert_int_equal(tic.components, 0x21);
    tv_tic_from_format(&tic, TV_FORMAT_Z32_FLOAT, NULL);
    assert_int_equal(tic.components, 0x2f);
    assert_true(tic.depth_texture);
    tv_tic_from_format(&tic, TV_FORMAT_BC7_SRGB, NULL);
    assert_int_equal(tic.components, 0x17);
    /* a header with the BGRA swizzle but no sRGB still finds the BGRA row */
    tv_tic_from_format(&tic, TV_FORMAT_B8G8R8A8_UNORM, NULL);
    assert_int_equal(tv_format_from_tic(&tic), TV_FORMAT_B8G8R8A8_UNORM);
    /* an unknown code, or types that do not match, give NONE */
    tic.components = 0x7f;
    assert_int_equal(tv_format_from_tic(&tic), TV_FORMAT_NONE);
    tv_tic_from_format(&tic, TV_FORMAT_R8G8B8A8_UNORM, NULL);
    tic.data_type[1] = TV_TIC_TYPE_FLOAT;
    assert_int_equal(tv_format_from_tic(&tic), TV_FORMAT_NONE);
}

/* sampling.md Appendix C and §7.1 sanity vectors, worked by hand. */
static void sanity_vectors(void **state)
{
    (void)state;
    uint32_t out[4];
    uint8_t b[4];
    b[0] = 0x80; /* -128 */
    tv_format_unpack(TV_FORMAT_R8_SNORM, b, 0, 0, out);
    assert_int_equal(out[0], fbits(-1.0f));
    b[0] = 0x81; /* -127 */
    tv_format_unpack(TV_FORMAT_R8_SNORM, b, 0, 0, out);
    assert_int_equal(out[0], fbits(-1.0f));
    b[0] = 64;
    tv_format_unpack(TV_FORMAT_R8_SNORM, b, 0, 0, out);
    assert_true(fabsf(bitsf(out[0]) - 0.50394f) < 1e-5f);
    uint8_t s16[2] = {0x00, 0x80};   /* -32768 */
    tv_format_unpack(TV_FORMAT_R16_SNORM, s16, 0, 0, out);
    assert_int_equal(out[0], fbits(-1.0f));
    /* sRGB 10 -> 0.0030353, 128 -> 0.2158605, 255 -> 1.0; alpha stays linear */
    uint8_t px[4] = {10, 128, 255, 128};
    tv_format_unpack(TV_FORMAT_R8G8B8A8_SRGB, px, 0, 0, out);
    float f[4];
    memcpy(f, out, 16);
    assert_true(fabsf(f[0] - 0.0030353f) < 1e-7f);
    assert_true(fabsf(f[1] - 0.2158605f) < 1e-7f);
    assert_true(f[2] == 1.0f);
    assert_true(f[3] == 128.0f / 255.0f);
    /* RGB9E5 0x999320c8 -> (6.25, 12.5, 3.125, 1.0) (D3D11 §19.3.2.1) */
    uint32_t e = 0x999320c8u;
    tv_format_unpack(TV_FORMAT_R9G9B9E5_FLOAT, &e, 0, 0, out);
    memcpy(f, out, 16);
    assert_true(f[0] == 6.25f && f[1] == 12.5f && f[2] == 3.125f && f[3] == 1.0f);
    /* UF11: E=15, M=0 -> 1.0; largest finite (E=30, M=63) -> 65024; R11G11B10 layout */
    uint32_t t = (15u << 6) | ((30u << 6 | 63u) << 11) | (0u << 22);
    tv_format_unpack(TV_FORMAT_R11G11B10_FLOAT, &t, 0, 0, out);
    memcpy(f, out, 16);
    assert_true(f[0] == 1.0f && f[1] == 65024.0f && f[2] == 0.0f && f[3] == 1.0f);
    /* denormals: UF11 E=0 M=1 -> 2^-20; UF10 E=0 M=31 -> 31 * 2^-19 */
    t = 1u | (31u << 22);
    tv_format_unpack(TV_FORMAT_R11G11B10_FLOAT, &t, 0, 0, out);
    memcpy(f, out, 16);
    assert_true(f[0] == ldexpf(1.0f, -20));
    assert_true(f[2] == 31.0f * ldexpf(1.0f, -19));
    /* half denormal 0x0001 -> 2^-24; -0x03ff -> -(1023 * 2^-24) */
    uint16_t h[2] = {0x0001, 0x83ff};
    tv_format_unpack(TV_FORMAT_R16G16_FLOAT, h, 0, 0, out);
    memcpy(f, out, 16);
    assert_true(f[0] == ldexpf(1.0f, -24));
    assert_true(f[1] == -1023.0f * ldexpf(1.0f, -24));
    /* RGB9E5 with the smallest exponent: mantissa * 2^-24 */
    e = 1u | (511u << 9) | (0u << 27);
    tv_format_unpack(TV_FORMAT_R9G9B9E5_FLOAT, &e, 0, 0, out);
    memcpy(f, out, 16);
    assert_true(f[0] == ldexpf(1.0f, -24) && f[1] == 511.0f * ldexpf(1.0f, -24) && f[2] == 0.0f);
}

/* RGB9E5 exhaustively over the exponent, random mantissas, against m * 2^(e-24). */
static void rgb9e5_reference(void **state)
{
    (void)state;
    for (int it = 0; it < 20000; it++) {
        uint32_t v = rnd();
        uint32_t out[4];
        tv_format_unpack(TV_FORMAT_R9G9B9E5_FLOAT, &v, 0, 0, out);
        int ex = (int)(v >> 27);
        for (int c = 0; c < 3; c++) {
            double want = ldexp((double)((v >> (9 * c)) & 511), ex - 24);
            assert_int_equal(out[c], fbits((float)want));
        }
        assert_int_equal(out[3], fbits(1.0f));
    }
}

/* pack is the inverse of unpack on every representable value (NaNs aside). */
static void pack_roundtrip(void **state)
{
    (void)state;
    for (unsigned f = 1; f < TV_FORMAT_COUNT; f++) {
        const tv_format_info *fi = tv_format_get((tv_format)f);
        if (fi->block_w != 1)
            continue;
        for (int it = 0; it < 2000; it++) {
            uint8_t data[16], again[16];
            for (int b = 0; b < 16; b++)
                data[b] = (uint8_t)rnd();
            uint32_t v[4], w[4];
            tv_format_unpack((tv_format)f, data, 0, 0, v);
            bool has_nan = false;
            for (int c = 0; c < 4; c++)
                if (fi->kind != TV_FMT_KIND_SINT && fi->kind != TV_FMT_KIND_UINT &&
                    isnan(bitsf(v[c])))
                    has_nan = true;
            if (has_nan)
                continue;
            if (fi->kind == TV_FMT_KIND_DEPTH)
                v[1] = 0;                     /* depth formats: in[1] is the stencil */
            assert_true(tv_format_pack((tv_format)f, v, again));
            tv_format_unpack((tv_format)f, again, 0, 0, w);
            if (fi->kind == TV_FMT_KIND_DEPTH)
                w[1] = 0;
            for (int c = 0; c < 4; c++)
                if (v[c] != w[c])
                    fail_msg("%s: pack/unpack changed component %d %08x -> %08x", fi->name, c,
                             v[c], w[c]);
        }
    }
    uint8_t blk[16];
    uint32_t in[4] = {0};
    assert_false(tv_format_pack(TV_FORMAT_BC1_RGBA_UNORM, in, blk));
}

static void pack_rounding(void **state)
{
    (void)state;
    uint8_t t[8];
    uint32_t in[4] = {fbits(0.5f), fbits(-0.2f), fbits(2.0f), fbits(1.0f)};
    tv_format_pack(TV_FORMAT_R8G8B8A8_UNORM, in, t);
    assert_int_equal(t[0], 128);      /* 127.5 -> even */
    assert_int_equal(t[1], 0);        /* clamped */
    assert_int_equal(t[2], 255);
    assert_int_equal(t[3], 255);
    uint32_t sn[4] = {fbits(-1.5f), fbits(0.5f), 0, 0};
    tv_format_pack(TV_FORMAT_R8G8_SNORM, sn, t);
    assert_int_equal((int8_t)t[0], -127);
    assert_int_equal((int8_t)t[1], 64);  /* 63.5 -> 64 (even) */
    uint32_t ui[4] = {300, (uint32_t)-5, 0, 0};
    tv_format_pack(TV_FORMAT_R8G8_UINT, ui, t);
    assert_int_equal(t[0], 255);
    assert_int_equal(t[1], 255);
    tv_format_pack(TV_FORMAT_R8G8_SINT, ui, t);
    assert_int_equal((int8_t)t[0], 127);
    assert_int_equal((int8_t)t[1], -5);
    /* half: 1 + 2^-11 is a tie -> 1.0; 1 + 3*2^-11 -> 1 + 2^-9 (even); 65520 -> Inf */
    uint32_t hf[4] = {fbits(1.0f + ldexpf(1.0f, -11)), fbits(1.0f + 3 * ldexpf(1.0f, -11)), 0, 0};
    tv_format_pack(TV_FORMAT_R16G16_FLOAT, hf, t);
    assert_int_equal(t[0] | t[1] << 8, 0x3c00);
    assert_int_equal(t[2] | t[3] << 8, 0x3c02);
    uint32_t big[4] = {fbits(65520.0f), fbits(ldexpf(1.0f, -25)), 0, 0};
    tv_format_pack(TV_FORMAT_R16G16_FLOAT, big, t);
    assert_int_equal(t[0] | t[1] << 8, 0x7c00);
    assert_int_equal(t[2] | t[3] << 8, 0x0000);   /* 2^-25: tie between 0 and 2^-24 -> 0 */
    /* RGB9E5 of (6.25, 12.5, 3.125) is the D3D example */
    uint32_t rgb[4] = {fbits(6.25f), fbits(12.5f), fbits(3.125f), 0};
    uint32_t e;
    tv_format_pack(TV_FORMAT_R9G9B9E5_FLOAT, rgb, &e);
    assert_int_equal(e, 0x999320c8u);
    /* sRGB encode: linear 0.2158605 -> 128 */
    uint32_t s[4] = {fbits(0.2158605f), fbits(0.0f), fbits(1.0f), fbits(0.5f)};
    tv_format_pack(TV_FORMAT_R8G8B8A8_SRGB, s, t);
    assert_int_equal(t[0], 128);
    assert_int_equal(t[3], 128);   /* alpha linear: 127.5 -> 128 */
    /* depth + stencil */
    uint32_t ds[4] = {fbits(1.0f), 0xab, 0, 0};
    uint32_t w;
    tv_format_pack(TV_FORMAT_Z24_UNORM_S8_UINT, ds, &w);
    assert_int_equal(w, 0xabffffffu);
    tv_format_pack(TV_FORMAT_S8_UINT_Z24_UNORM, ds, &w);
    assert_int_equal(w, 0xffffffabu);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_plain_format),
        cmocka_unit_test(table_coverage),
        cmocka_unit_test(names_and_tic_roundtrip),
        cmocka_unit_test(sanity_vectors),
        cmocka_unit_test(rgb9e5_reference),
        cmocka_unit_test(pack_roundtrip),
        cmocka_unit_test(pack_rounding),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
