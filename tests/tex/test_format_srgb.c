/* sRGB decode: the 8-bit table against the GL formula in float64, the header+sampler
 * switch of tex_load_texel, the components it applies to, and the encode side. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>

#include "texvm/tex.h"
#include "tex/tex_internal.h"
#include "tex/format.h"

static uint32_t fbits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

static void table_entries(void **state)
{
    (void)state;
    for (int c = 0; c < 256; c++) {
        double cs = c / 255.0;
        double cl = cs <= 0.04045 ? cs / 12.92 : pow((cs + 0.055) / 1.055, 2.4);
        assert_int_equal(tex_srgb8_to_linear_bits[c], fbits((float)cl));
    }
    assert_int_equal(tex_srgb8_to_linear_bits[0], 0);
    assert_int_equal(tex_srgb8_to_linear_bits[255], fbits(1.0f));
    /* monotonic */
    for (int c = 1; c < 256; c++)
        assert_true(tex_srgb8_to_linear_bits[c] > tex_srgb8_to_linear_bits[c - 1]);
}

/* Encoding every code's linear value gives the code back. */
static void encode_inverse(void **state)
{
    (void)state;
    for (int c = 0; c < 256; c++) {
        float lin;
        memcpy(&lin, &tex_srgb8_to_linear_bits[c], 4);
        uint32_t in[4] = {fbits(lin), fbits(lin), fbits(lin), fbits(1.0f)};
        uint8_t t[4];
        tv_format_pack(TV_FORMAT_R8G8B8A8_SRGB, in, t);
        assert_int_equal(t[0], c);
        assert_int_equal(t[3], 255);
    }
}

/* tex_load_texel decodes sRGB only when asked (header bit AND request) */
static void load_switch(void **state)
{
    (void)state;
    uint8_t texels[8] = {128, 128, 128, 128, 64, 200, 0, 0};
    tv_memory *m = tv_memory_create();
    tv_memory_map(m, 0x1000, texels, sizeof texels, NULL);
    tv_tex_unit *u = tv_tex_create(m);
    tv_tic tic;
    tv_tic_from_format(&tic, TV_FORMAT_R8G8B8A8_SRGB, NULL);
    tic.header_version = TV_TIC_PITCH;
    tic.texture_type = TV_TEX_1D;
    tic.address = 0x1000;
    tic.pitch = 32;
    tex_view v;
    tex_view_init(&v, &tic);
    assert_true(v.valid && v.srgb);
    uint32_t out[4];
    tex_load_texel(u, &v, 0, 0, 0, 0, 0, 0, true, out);
    assert_int_equal(out[0], tex_srgb8_to_linear_bits[128]);
    assert_int_equal(out[2], tex_srgb8_to_linear_bits[128]);
    assert_int_equal(out[3], fbits(128.0f / 255.0f));        /* alpha linear */
    tex_load_texel(u, &v, 0, 0, 0, 0, 0, 0, false, out);     /* sampler says no */
    assert_int_equal(out[0], fbits(128.0f / 255.0f));
    /* header without the sRGB bit: request ignored */
    tic.srgb = false;
    tex_view_init(&v, &tic);
    tex_load_texel(u, &v, 0, 0, 0, 0, 0, 0, true, out);
    assert_int_equal(out[0], fbits(128.0f / 255.0f));
    /* two components (L8A8_SRGB = G8R8): R converted, G (the last) not */
    tv_tic_from_format(&tic, TV_FORMAT_L8A8_SRGB, NULL);
    tic.header_version = TV_TIC_PITCH;
    tic.texture_type = TV_TEX_1D;
    tic.address = 0x1004;
    tex_view_init(&v, &tic);
    tex_load_texel(u, &v, 0, 0, 0, 0, 0, 0, true, out);
    assert_int_equal(out[0], tex_srgb8_to_linear_bits[64]);
    assert_int_equal(out[1], fbits(200.0f / 255.0f));
    uint32_t sw[4];
    tex_apply_swizzle(&v, out, sw);
    assert_int_equal(sw[0], tex_srgb8_to_linear_bits[64]);
    assert_int_equal(sw[2], tex_srgb8_to_linear_bits[64]);
    assert_int_equal(sw[3], fbits(200.0f / 255.0f));
    /* SNORM / 16-bit UNORM components are never converted even with the bit set */
    tv_tic_from_format(&tic, TV_FORMAT_R16_UNORM, NULL);
    tic.header_version = TV_TIC_PITCH;
    tic.texture_type = TV_TEX_1D;
    tic.address = 0x1000;
    tic.srgb = true;
    tex_view_init(&v, &tic);
    tex_load_texel(u, &v, 0, 0, 0, 0, 0, 0, true, out);
    assert_int_equal(out[0], fbits((float)(0x8080 / 65535.0)));
    tv_tex_destroy(u);
    tv_memory_destroy(m);
}

/* Swizzle sources, ONE_INT / ONE_FLOAT and the undefined code 1. */
static void swizzle_sources(void **state)
{
    (void)state;
    tex_view v;
    memset(&v, 0, sizeof v);
    uint32_t in[4] = {11, 22, 33, 44}, out[4];
    uint8_t srcs[8][4] = {{2, 3, 4, 5}, {5, 4, 3, 2}, {0, 1, 6, 7}, {2, 2, 2, 2}};
    uint32_t want[4][4] = {{11, 22, 33, 44}, {44, 33, 22, 11}, {0, 0, 1, 0x3f800000u},
                           {11, 11, 11, 11}};
    for (int i = 0; i < 4; i++) {
        memcpy(v.tic.source, srcs[i], 4);
        tex_apply_swizzle(&v, in, out);
        assert_memory_equal(out, want[i], 16);
    }
    /* in place */
    memcpy(v.tic.source, srcs[1], 4);
    memcpy(out, in, 16);
    tex_apply_swizzle(&v, out, out);
    assert_memory_equal(out, want[1], 16);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(table_entries),
        cmocka_unit_test(encode_inverse),
        cmocka_unit_test(load_switch),
        cmocka_unit_test(swizzle_sources),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
