/* Colour render targets of the output merger (src/pipe/pipe_om_target.c): encodings worked
 * by hand from the formats' definitions, swizzled formats, write masks that keep the other
 * channels' bits exactly (even bits a decode/encode round trip would change), logic ops on
 * encoded bits, the formats that cannot be render targets, and the RGB formats whose
 * padding alpha reads one. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "util/half.h"
#include "pipe/pipe_om.h"
#include "texvm/pipe.h"

#include <stdint.h>
#include <string.h>

static om_target target(const char *name)
{
    om_target t;
    tv_format f = tv_format_from_name(name);
    assert_int_not_equal(f, TV_FORMAT_NONE);
    if (!om_target_init(&t, f))
        fail_msg("%s is not a render target", name);
    return t;
}

static void test_rgba8_and_bgra8(void **state)
{
    (void)state;
    const uint32_t v[4] = {tv_f32_bits(1.0f), tv_f32_bits(0.5f), tv_f32_bits(0.0f), tv_f32_bits(1.0f)};
    uint8_t px[4] = {0};
    om_target t = target("R8G8B8A8_UNORM");
    assert_int_equal(t.cls, OM_CLASS_UNORM);
    om_target_write(&t, v, OM_MASK_RGBA, -1, px);
    /* 0.5 * 255 = 127.5 rounds to the even 128 */
    assert_true(px[0] == 255 && px[1] == 128 && px[2] == 0 && px[3] == 255);
    om_target b = target("B8G8R8A8_UNORM");
    om_target_write(&b, v, OM_MASK_RGBA, -1, px);
    assert_true(px[0] == 0 && px[1] == 128 && px[2] == 255 && px[3] == 255);
    uint32_t back[4];
    om_target_read(&b, px, back);
    assert_true(back[0] == tv_f32_bits(1.0f) && back[1] == tv_f32_bits(128.0f / 255.0f) && back[2] == 0 &&
                back[3] == tv_f32_bits(1.0f));
}

static void test_colormask_keeps_bits(void **state)
{
    (void)state;
    const uint32_t ones[4] = {tv_f32_bits(1.0f), tv_f32_bits(1.0f), tv_f32_bits(1.0f), tv_f32_bits(1.0f)};
    uint8_t px[4] = {10, 20, 30, 40};
    om_target t = target("R8G8B8A8_UNORM");
    om_target_write(&t, ones, OM_MASK_G | OM_MASK_A, -1, px);
    assert_true(px[0] == 10 && px[1] == 255 && px[2] == 30 && px[3] == 255);
    /* SNORM -128 (0x80) decodes to -1.0, which would encode back as -127: a masked-out
       channel must keep its bits, not a re-encoding */
    om_target s = target("R8G8_SNORM");
    uint8_t sn[2] = {0x80, 0x10};
    const uint32_t half[4] = {tv_f32_bits(0.5f), tv_f32_bits(0.5f), 0, 0};
    om_target_write(&s, half, OM_MASK_G, -1, sn);
    assert_true(sn[0] == 0x80 && sn[1] == 64);   /* 0.5 * 127 = 63.5 -> 64 */
    /* B5G6R5: memory bits [4:0] blue, [10:5] green, [15:11] red; write green only */
    om_target p = target("B5G6R5_UNORM");
    uint16_t w = 0x0000;
    om_target_write(&p, ones, OM_MASK_G, -1, &w);
    assert_int_equal(w, 0x07e0);
    om_target_write(&p, ones, OM_MASK_R | OM_MASK_B, -1, &w);
    assert_int_equal(w, 0xffff);
}

/* R11G11B10_FLOAT (EXT_packed_float): red bits [10:0] and green [21:11] unsigned floats of
 * a 5-bit exponent (bias 15) and a 6-bit mantissa, blue [31:22] of a 5-bit exponent and a
 * 5-bit mantissa. Every bit of the word belongs to a channel: a write of all channels
 * replaces all 32 bits, whatever the texel held (fbo-blending-formats read 0.5 where 0.72
 * was blended into blue: its mantissa bits were not known to be blue's, and kept the
 * clear's zeros). */
static void test_r11g11b10_float_bits(void **state)
{
    (void)state;
    om_target t = target("R11G11B10_FLOAT");
    assert_int_equal(t.cls, OM_CLASS_FLOAT);
    uint32_t all = 0;
    for (unsigned j = 0; j < 3; j++)
        all |= t.comp_bits[j][0];
    assert_int_equal(t.comp_bits[0][0], 0x7ffu);
    assert_int_equal(t.comp_bits[1][0], 0x7ffu << 11);
    assert_int_equal(t.comp_bits[2][0], 0x3ffu << 22);
    assert_int_equal(all, 0xffffffffu);
    /* 0.75 = 1.5 * 2^-1: exponent 14, mantissa 32/64; 2.0: exponent 16, mantissa 0;
       0.71875 = 1.4375 * 2^-1: exponent 14, mantissa 14/32 */
    const uint32_t v[4] = {tv_f32_bits(0.75f), tv_f32_bits(2.0f), tv_f32_bits(0.71875f),
                           tv_f32_bits(1.0f)};
    const uint32_t want = (14u << 6 | 32u) | (16u << 6) << 11 | (14u << 5 | 14u) << 22;
    const uint32_t before[] = {0u, 0xffffffffu, 0x12345678u};
    for (size_t k = 0; k < sizeof before / sizeof before[0]; k++) {
        uint32_t px = before[k];
        om_target_write(&t, v, OM_MASK_RGBA, -1, &px);
        assert_int_equal(px, want);
        uint32_t back[4];
        om_target_read(&t, &px, back);
        assert_int_equal(back[2], tv_f32_bits(0.71875f));
    }
    /* blue alone: red and green keep their bits */
    uint32_t px = 0;
    om_target_write(&t, v, OM_MASK_B, -1, &px);
    assert_int_equal(px, (14u << 5 | 14u) << 22);
}

static void test_logic_op_on_encoded_bits(void **state)
{
    (void)state;
    om_target t = target("R8G8B8A8_UNORM");
    uint8_t px[4] = {0x0f, 0x0f, 0x0f, 0x0f};
    const uint32_t v[4] = {tv_f32_bits(1.0f), tv_f32_bits(0.0f), tv_f32_bits(1.0f), tv_f32_bits(0.0f)};
    om_target_write(&t, v, OM_MASK_R | OM_MASK_G | OM_MASK_B, OM_LOGICOP_XOR, px);
    assert_true(px[0] == 0xf0 && px[1] == 0x0f && px[2] == 0xf0 && px[3] == 0x0f);
    om_target i = target("R32_UINT");
    uint32_t u = 0xf0f0f0f0u;
    const uint32_t iv[4] = {0xff00ff00u, 0, 0, 0};
    om_target_write(&i, iv, OM_MASK_RGBA, OM_LOGICOP_AND, &u);
    assert_int_equal(u, 0xf000f000u);
    /* float targets ignore the logic op (GL 4.6 §17.3.9) */
    om_target f = target("R32_FLOAT");
    uint32_t fv = tv_f32_bits(2.0f);
    const uint32_t w[4] = {tv_f32_bits(0.5f), 0, 0, 0};
    om_target_write(&f, w, OM_MASK_RGBA, OM_LOGICOP_CLEAR, &fv);
    assert_int_equal(fv, tv_f32_bits(0.5f));
}

static void test_classes_and_conversions(void **state)
{
    (void)state;
    /* sRGB: linear 0.5 -> 1.055 * 0.5^(1/2.4) - 0.055 = 0.735357 -> * 255 = 187.5 -> 188 */
    om_target s = target("R8G8B8A8_SRGB");
    uint8_t px[4];
    const uint32_t v[4] = {tv_f32_bits(0.5f), tv_f32_bits(0.0f), tv_f32_bits(1.0f), tv_f32_bits(0.5f)};
    om_target_write(&s, v, OM_MASK_RGBA, -1, px);
    assert_true(px[0] == 188 && px[1] == 0 && px[2] == 255 && px[3] == 128); /* alpha linear */
    /* integers saturate */
    om_target u = target("R16G16_UINT");
    assert_int_equal(u.cls, OM_CLASS_UINT);
    uint16_t uw[2];
    const uint32_t iv[4] = {70000, 7, 0, 0};
    om_target_write(&u, iv, OM_MASK_RGBA, -1, uw);
    assert_true(uw[0] == 65535 && uw[1] == 7);
    om_target si = target("R8_SINT");
    assert_int_equal(si.cls, OM_CLASS_SINT);
    /* A8: alpha is stored in the only memory component and read back as (0, 0, 0, a) */
    om_target a = target("A8_UNORM");
    uint8_t a8 = 0;
    const uint32_t av[4] = {tv_f32_bits(1.0f), tv_f32_bits(1.0f), tv_f32_bits(1.0f), tv_f32_bits(0.2f)};
    om_target_write(&a, av, OM_MASK_RGBA, -1, &a8);
    assert_int_equal(a8, 51);
    uint32_t back[4];
    om_target_read(&a, &a8, back);
    assert_true(back[0] == 0 && back[1] == 0 && back[2] == 0 && back[3] == tv_f32_bits(0.2f));
    /* 32-bit floats are stored exactly */
    om_target f = target("R32G32B32A32_FLOAT");
    uint32_t fw[4];
    const uint32_t fv[4] = {tv_f32_bits(-3.25f), tv_f32_bits(1e30f), 0x7fc00001u, tv_f32_bits(-0.0f)};
    om_target_write(&f, fv, OM_MASK_RGBA, -1, fw);
    assert_memory_equal(fw, fv, 16);
}

static void test_not_render_targets(void **state)
{
    (void)state;
    om_target t;
    const char *refused[] = {"R9G9B9E5_FLOAT", "BC1_RGB_UNORM", "Z16_UNORM", "Z32_FLOAT"};
    for (unsigned i = 0; i < 4; i++)
        if (om_target_init(&t, tv_format_from_name(refused[i])))
            fail_msg("%s accepted as a colour target", refused[i]);
    assert_false(om_target_init(&t, TV_FORMAT_NONE));
}

/* The raw 32-bit path (RGBA32 float and integer targets copy words) equals the general
 * path through the format table for random words (NaN payloads, denormals included),
 * every write mask and logic op; formats that do not copy words do not take it. */
static void test_raw32_equals_general(void **state)
{
    (void)state;
    static const char *raw[] = {"R32G32B32A32_FLOAT", "R32G32B32A32_UINT", "R32G32B32A32_SINT"};
    uint32_t seed = 12345;
    for (size_t f = 0; f < sizeof raw / sizeof raw[0]; f++) {
        om_target fast = target(raw[f]), general = fast;
        assert_true(fast.raw32);
        general.raw32 = false;
        for (int n = 0; n < 20000; n++) {
            uint32_t v[4], old[4];
            for (int i = 0; i < 4; i++) {
                seed = seed * 1664525u + 1013904223u;
                v[i] = seed;
                seed = seed * 1664525u + 1013904223u;
                old[i] = seed;
            }
            if (n % 7 == 0)
                v[n % 4] = 0x7f800000u | (seed >> 9);    /* a NaN (or infinity) */
            unsigned mask = (unsigned)n % 16;
            int logicop = n % 3 == 0 ? -1 : (int)((unsigned)n / 3 % 16);
            uint32_t a[4], b[4], ra[4], rb[4];
            memcpy(a, old, 16);
            memcpy(b, old, 16);
            om_target_write(&fast, v, mask, logicop, a);
            om_target_write(&general, v, mask, logicop, b);
            assert_memory_equal(a, b, 16);
            om_target_read(&fast, old, ra);
            om_target_read(&general, old, rb);
            assert_memory_equal(ra, rb, 16);
        }
    }
    static const char *not_raw[] = {"R8G8B8A8_UNORM", "B8G8R8A8_UNORM", "R16G16B16A16_FLOAT",
                                    "R32G32_FLOAT", "R32G32B32A32_UNORM"};
    for (size_t f = 0; f < sizeof not_raw / sizeof not_raw[0]; f++) {
        tv_format fmt = tv_format_from_name(not_raw[f]);
        om_target t;
        if (fmt != TV_FORMAT_NONE && om_target_init(&t, fmt))
            assert_false(t.raw32);
    }
}

/* The RGB formats whose fourth component is padding (Gallium's X; st/mesa picks them for
 * GL_RGB5, GL_RGB10, GL_RGB16, GL_RGB16F, ... once virgl's caps offer them): alpha reads 1
 * whatever the padding holds, so blending with DST_ALPHA gives the source itself and
 * ONE_MINUS_DST_ALPHA nothing of the destination (fbo-blending-formats read the stored
 * alpha of B5G5R5A1, R10G10B10A2 and R16G16B16A16 there); a write of every channel keeps
 * the padding's bits. Each is a sampler and render format under virgl's number. */
static void test_padding_alpha_reads_one(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        uint32_t virgl;
        uint8_t bytes;
        uint8_t pad[16];   /* the padding's bits, all set */
    } fmts[] = {
        {"B5G5R5X1_UNORM", 122, 2, {0x00, 0x80}},
        {"B4G4R4X4_UNORM", 135, 2, {0x00, 0xf0}},
        {"R8G8B8X8_SNORM", 229, 4, {0, 0, 0, 0xff}},
        {"R8G8B8X8_SRGB", 230, 4, {0, 0, 0, 0xff}},
        {"B10G10R10X2_UNORM", 233, 4, {0, 0, 0, 0xc0}},
        {"R16G16B16X16_UNORM", 234, 8, {0, 0, 0, 0, 0, 0, 0xff, 0xff}},
        {"R16G16B16X16_SNORM", 235, 8, {0, 0, 0, 0, 0, 0, 0xff, 0xff}},
        {"R16G16B16X16_FLOAT", 236, 8, {0, 0, 0, 0, 0, 0, 0xff, 0xff}},
        {"R32G32B32X32_FLOAT", 239, 16, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff}},
        {"R10G10B10X2_UNORM", 308, 4, {0, 0, 0, 0xc0}},
    };
    const float src[4] = {0.75f, 0.25f, 0.5f, 0.5f}, k[4] = {0, 0, 0, 0};
    const uint32_t dst_value[4] = {tv_f32_bits(0.25f), tv_f32_bits(0.5f), tv_f32_bits(1.0f),
                                   tv_f32_bits(0.125f)};
    om_rt_blend rt;
    memset(&rt, 0, sizeof rt);
    rt.blend_enable = 1;
    rt.rgb_func = rt.alpha_func = OM_BLEND_ADD;
    rt.rgb_src_factor = rt.alpha_src_factor = OM_BF_DST_ALPHA;
    rt.rgb_dst_factor = rt.alpha_dst_factor = OM_BF_INV_DST_ALPHA;
    for (size_t i = 0; i < sizeof fmts / sizeof fmts[0]; i++) {
        assert_int_equal(tv_pipe_format_from_name(fmts[i].name), fmts[i].virgl);
        unsigned caps = tv_pipe_format_caps(fmts[i].virgl);
        if (!(caps & TV_PIPE_FORMAT_SAMPLER) || !(caps & TV_PIPE_FORMAT_RENDER))
            fail_msg("%s: caps 0x%x", fmts[i].name, caps);
        om_target t = target(fmts[i].name);
        assert_int_equal(t.bytes, fmts[i].bytes);
        for (int pad = 0; pad < 2; pad++) {
            uint8_t px[16];
            memset(px, 0, sizeof px);
            if (pad)
                memcpy(px, fmts[i].pad, sizeof px);
            om_target_write(&t, dst_value, OM_MASK_RGBA, -1, px);
            for (unsigned b = 0; b < t.bytes; b++)
                if ((px[b] & fmts[i].pad[b]) != (pad ? fmts[i].pad[b] : 0))
                    fail_msg("%s: the padding's byte %u changed to 0x%02x", fmts[i].name, b,
                             px[b]);
            uint32_t d[4];
            om_target_read(&t, px, d);
            if (d[3] != tv_f32_bits(1.0f))
                fail_msg("%s (padding %d): alpha 0x%08x, 1.0 due", fmts[i].name, pad, d[3]);
            float df[4], out[4];
            memcpy(df, d, sizeof df);
            om_blend_color(&rt, t.cls, src, src, df, k, out);
            for (int c = 0; c < 3; c++)
                if (out[c] != src[c])
                    fail_msg("%s: DST_ALPHA blend gave %g in channel %d, the source's %g due",
                             fmts[i].name, (double)out[c], c, (double)src[c]);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rgba8_and_bgra8),
        cmocka_unit_test(test_colormask_keeps_bits),
        cmocka_unit_test(test_r11g11b10_float_bits),
        cmocka_unit_test(test_logic_op_on_encoded_bits),
        cmocka_unit_test(test_classes_and_conversions),
        cmocka_unit_test(test_not_render_targets),
        cmocka_unit_test(test_raw32_equals_general),
        cmocka_unit_test(test_padding_alpha_reads_one),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
