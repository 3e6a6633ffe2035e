/* Vertex formats decoded from their Gallium names (src/pipe/pipe_vertex_fetch.c), each
 * value worked out by hand: UNORM/SNORM (c / (2^b - 1), the most negative SNORM value
 * clamped to -1), USCALED/SSCALED, UINT/SINT, half/float/double, 16.16 FIXED, packed
 * 10_10_10_2 (R in the low bits) and its BGRA order, R11G11B10_FLOAT, three-channel
 * formats with (0, 0, 0, 1) defaults, and the formats that are no vertex formats. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "pipe/pipe_vertex_fetch.h"
#include "texvm/pipe.h"

#include <string.h>

static uint32_t F(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static void fetch(uint32_t format, const void *bytes, uint32_t out[4], unsigned want_bytes)
{
    vf_format f;
    assert_true(vf_format_get(format, &f));
    assert_int_equal(f.bytes, want_bytes);
    vf_fetch(&f, bytes, out);
}

static void expect(const uint32_t got[4], uint32_t a, uint32_t b, uint32_t c, uint32_t d)
{
    assert_int_equal(got[0], a);
    assert_int_equal(got[1], b);
    assert_int_equal(got[2], c);
    assert_int_equal(got[3], d);
}

static void test_normalized_and_scaled(void **state)
{
    (void)state;
    uint32_t o[4];
    const uint8_t rgba8[4] = {0, 51, 255, 128};
    fetch(67 /* R8G8B8A8_UNORM */, rgba8, o, 4);
    expect(o, F(0.0f), F(0.2f), F(1.0f), F((float)(128.0 / 255.0)));
    const uint8_t rgb8[3] = {255, 0, 1};
    fetch(66 /* R8G8B8_UNORM */, rgb8, o, 3);
    expect(o, F(1.0f), F(0.0f), F((float)(1.0 / 255.0)), F(1.0f));
    const int8_t sn[2] = {-128, 127};
    fetch(75 /* R8G8_SNORM */, sn, o, 2);
    expect(o, F(-1.0f), F(1.0f), 0, F(1.0f));
    const int16_t s16[3] = {-32767, 16384, -1};
    fetch(58 /* R16G16B16_SNORM */, s16, o, 6);
    expect(o, F(-1.0f), F((float)(16384.0 / 32767.0)), F((float)(-1.0 / 32767.0)), F(1.0f));
    const uint16_t us[2] = {65535, 7};
    fetch(53 /* R16G16_USCALED */, us, o, 4);
    expect(o, F(65535.0f), F(7.0f), 0, F(1.0f));
    const int8_t ss[4] = {-128, -1, 0, 127};
    fetch(85 /* R8G8B8A8_SSCALED */, ss, o, 4);
    expect(o, F(-128.0f), F(-1.0f), F(0.0f), F(127.0f));
    const uint8_t bgra[4] = {10, 20, 30, 40};   /* memory B, G, R, A */
    fetch(1 /* B8G8R8A8_UNORM */, bgra, o, 4);
    expect(o, F((float)(30.0 / 255.0)), F((float)(20.0 / 255.0)), F((float)(10.0 / 255.0)),
           F((float)(40.0 / 255.0)));
}

static void test_integer_float_fixed(void **state)
{
    (void)state;
    uint32_t o[4];
    const int16_t si[1] = {-5};
    fetch(189 /* R16_SINT */, si, o, 2);
    expect(o, (uint32_t)-5, 0, 0, 1);                 /* integer 1 for alpha */
    const uint32_t ui[3] = {7, 0xffffffffu, 3};
    fetch(195 /* R32G32B32_UINT */, ui, o, 12);
    expect(o, 7, 0xffffffffu, 3, 1);
    const uint16_t h[2] = {0x3c00, 0xc000};           /* 1.0, -2.0 */
    fetch(92 /* R16G16_FLOAT */, h, o, 4);
    expect(o, F(1.0f), F(-2.0f), 0, F(1.0f));
    const double dd[2] = {0.1, -3.5};
    fetch(25 /* R64G64_FLOAT */, dd, o, 16);
    expect(o, F((float)0.1), F(-3.5f), 0, F(1.0f));
    const int32_t fx[2] = {0x18000, -0x8000};         /* 1.5, -0.5 */
    fetch(88 /* R32G32_FIXED */, fx, o, 8);
    expect(o, F(1.5f), F(-0.5f), 0, F(1.0f));
    const uint32_t u32[1] = {0xffffffffu};
    fetch(32 /* R32_UNORM */, u32, o, 4);
    expect(o, F(1.0f), 0, 0, F(1.0f));
}

static void test_packed(void **state)
{
    (void)state;
    uint32_t o[4];
    /* R = 1023, G = 0, B = 512, A = 1: bits 0-9, 10-19, 20-29, 30-31 */
    uint32_t p = 1023u | (0u << 10) | (512u << 20) | (1u << 30);
    fetch(8 /* R10G10B10A2_UNORM */, &p, o, 4);
    expect(o, F(1.0f), F(0.0f), F((float)(512.0 / 1023.0)), F((float)(1.0 / 3.0)));
    fetch(131 /* B10G10R10A2_UNORM */, &p, o, 4);
    expect(o, F((float)(512.0 / 1023.0)), F(0.0f), F(1.0f), F((float)(1.0 / 3.0)));
    /* SNORM: R = -512 -> -1 (clamped), B = 511 -> 1, A = -2 (binary 10) -> -1 */
    uint32_t q = (512u) | (0u << 10) | (511u << 20) | (2u << 30);
    fetch(173 /* R10G10B10A2_SNORM */, &q, o, 4);
    expect(o, F(-1.0f), F(0.0f), F(1.0f), F(-1.0f));
    fetch(172 /* R10G10B10A2_SSCALED */, &q, o, 4);
    expect(o, F(-512.0f), F(0.0f), F(511.0f), F(-2.0f));
    fetch(253 /* R10G10B10A2_UINT */, &p, o, 4);
    expect(o, 1023, 0, 512, 1);
    /* R11G11B10_FLOAT: 1.0 in each (exponent 15, no mantissa): 0x3c0 << 0, << 11, 0x1e0 << 22 */
    uint32_t r11 = (0x3c0u) | (0x3c0u << 11) | (0x1e0u << 22);
    fetch(124 /* R11G11B10_FLOAT */, &r11, o, 4);
    expect(o, F(1.0f), F(1.0f), F(1.0f), F(1.0f));
}

static void test_not_vertex_formats(void **state)
{
    (void)state;
    vf_format f;
    assert_false(vf_format_get(18, &f));    /* Z32_FLOAT */
    assert_false(vf_format_get(104, &f));   /* R8G8B8A8_SRGB */
    assert_false(vf_format_get(9, &f));     /* L8_UNORM */
    assert_false(vf_format_get(125, &f));   /* R9G9B9E5_FLOAT */
    assert_false(vf_format_get(0, &f));
    assert_false(vf_format_get(100000, &f));
}

/* 32-bit FLOAT/UINT/SINT channels in RGBA order are copied as words (vf_format.words);
 * the general field-by-field decode must give the same words for any bytes, NaNs and
 * denormals included, and BGRA orders and padded formats must not take the copy. */
static void test_word_copy_equals_fields(void **state)
{
    (void)state;
    static const char *const words[] = {"R32_FLOAT", "R32G32_FLOAT", "R32G32B32_FLOAT",
                                        "R32G32B32A32_FLOAT", "R32G32B32A32_UINT",
                                        "R32G32_SINT", "R32G32B32_UINT"};
    uint32_t seed = 0x9e3779b9u;
    for (unsigned i = 0; i < sizeof words / sizeof *words; i++) {
        vf_format f;
        assert_true(vf_format_get(tv_pipe_format_from_name(words[i]), &f));
        assert_true(f.words);
        vf_format general = f;
        general.words = false;
        for (unsigned round = 0; round < 1000; round++) {
            uint8_t bytes[16];
            for (unsigned b = 0; b < 16; b++) {
                seed = seed * 1664525u + 1013904223u;
                bytes[b] = (uint8_t)(seed >> 24);
            }
            uint32_t a[4], g[4];
            vf_fetch(&f, bytes, a);
            vf_fetch(&general, bytes, g);
            assert_memory_equal(a, g, sizeof a);
        }
    }
    static const char *const not_words[] = {"R32G32B32A32_UNORM", "R16G16B16A16_FLOAT",
                                            "R64G64_FLOAT", "R32G32B32A32_FIXED"};
    for (unsigned i = 0; i < sizeof not_words / sizeof *not_words; i++) {
        vf_format f;
        uint32_t fmt = tv_pipe_format_from_name(not_words[i]);
        if (fmt && vf_format_get(fmt, &f))
            assert_false(f.words);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_normalized_and_scaled),
        cmocka_unit_test(test_integer_float_fixed),
        cmocka_unit_test(test_packed),
        cmocka_unit_test(test_not_vertex_formats),
        cmocka_unit_test(test_word_copy_equals_fields),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
