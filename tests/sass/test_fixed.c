/* Number formats of the results, by hand: FP16 packing (round to nearest even, overflow,
 * unused halves 0) through the write-back, and the TMML / TXQ fixed-point conversions
 * (rounding ties to even, saturation, high bits zero). */
#include "sass_env.h"
#include "sass/sass_internal.h"

#include <math.h>

static void test_tmml_formats(void **state)
{
    (void)state;
    /* S8.8: x * 256, ties to even, two's complement in [15:0] */
    assert_int_equal(sass_tmml_s8_8(3.0f), 0x300);
    assert_int_equal(sass_tmml_s8_8(0.501953125f), 0x80);   /* 128.5 -> 128 */
    assert_int_equal(sass_tmml_s8_8(0.505859375f), 0x82);   /* 129.5 -> 130 */
    assert_int_equal(sass_tmml_s8_8(-1.0f), 0xff00);
    assert_int_equal(sass_tmml_s8_8(-200.0f), 0x8000);      /* saturates at -128.0 */
    assert_int_equal(sass_tmml_s8_8(200.0f), 0x7fff);
    assert_int_equal(sass_tmml_s8_8(-INFINITY), 0x8000);
    /* U8.8 */
    assert_int_equal(sass_tmml_u8_8(2.25f), 0x240);
    assert_int_equal(sass_tmml_u8_8(-1.0f), 0);
    assert_int_equal(sass_tmml_u8_8(300.0f), 0xffff);
    /* S2.6 pair: v in [15:8], u in [7:0] */
    assert_int_equal(sass_tmml_major(1.0f, 0.0f), 0x0040);
    assert_int_equal(sass_tmml_major(0.0f, -1.0f), 0xc000);
    assert_int_equal(sass_tmml_major(-0.5f, 0.5f), 0x20e0);
    /* S4.12 */
    assert_int_equal(sass_tmml_s4_12(-2.0f), 0xe000);
    assert_int_equal(sass_tmml_s4_12(-16.0f), 0x8000);      /* saturates at -8.0 */
    assert_int_equal(sass_tmml_s4_12(0.0f), 0);
    /* TXQ sample position: dy [31:16], dx [15:0], signed 4.12 offsets from the centre */
    assert_int_equal(sass_pack_sample_pos(0.5f, 0.5f), 0);
    assert_int_equal(sass_pack_sample_pos(0.75f, 0.25f), 0xfc000400u);   /* dy -1024, dx 1024 */
    assert_int_equal(sass_pack_sample_pos(0.0f, 0.9375f), 0x0700f800u);
}

static void test_f16_packing(void **state)
{
    senv E;
    (void)state;
    senv_init(&E);
    static uint32_t v[4][TV_SASS_LANES];
    /* 1 + 2^-11 is a tie between 0x3c00 and 0x3c01 -> even 0x3c00;
     * 1 + 3 * 2^-11 is a tie between 0x3c01 and 0x3c02 -> even 0x3c02;
     * 65520 rounds to infinity; -2.5 is exact (0xc100) */
    for (unsigned l = 0; l < TV_SASS_LANES; l++) {
        v[0][l] = tv_f32_bits(1.00048828125f);
        v[1][l] = tv_f32_bits(1.00146484375f);
        v[2][l] = tv_f32_bits(65520.0f);
        v[3][l] = tv_f32_bits(-2.5f);
    }
    tv_sass_insn in;
    assert_int_equal(tv_sass_parse("TLDS.F16.LZ R8, R4, R2, R3, 0x7, 2D, RGBA", &in, NULL), TV_OK);
    sass_write_results(E.w, &in, 0x1u, (const uint32_t(*)[TV_SASS_LANES])v);
    assert_int_equal(reg(&E, 4, 0), 0x3c023c00u);
    assert_int_equal(reg(&E, 8, 0), 0xc1007c00u);
    assert_int_equal(reg(&E, 4, 1), 0);   /* lane 1 not executing */
    /* three components: Rd1's high half is 0; one component: Rd0's high half is 0 */
    assert_int_equal(tv_sass_parse("TLDS.F16.LZ R8, R4, R2, R3, 0x7, 2D, GBA", &in, NULL), TV_OK);
    sass_write_results(E.w, &in, 0x1u, (const uint32_t(*)[TV_SASS_LANES])v);
    assert_int_equal(reg(&E, 4, 0), 0x7c003c02u);
    assert_int_equal(reg(&E, 8, 0), 0x0000c100u);
    assert_int_equal(tv_sass_parse("TLDS.F16.LZ RZ, R4, R2, R3, 0x7, 2D, A", &in, NULL), TV_OK);
    sass_write_results(E.w, &in, 0x1u, (const uint32_t(*)[TV_SASS_LANES])v);
    assert_int_equal(reg(&E, 4, 0), 0x0000c100u);
    /* NaN stays NaN */
    v[0][0] = 0x7fc00000u;
    assert_int_equal(tv_sass_parse("TEXS.F16.LZ RZ, R4, R2, R3, 0x1, 2D, R", &in, NULL), TV_OK);
    sass_write_results(E.w, &in, 0x1u, (const uint32_t(*)[TV_SASS_LANES])v);
    assert_true((reg(&E, 4, 0) & 0x7c00u) == 0x7c00u && (reg(&E, 4, 0) & 0x3ffu) != 0);
    assert_int_equal(reg(&E, 4, 0) >> 16, 0);
    senv_free(&E);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tmml_formats),
        cmocka_unit_test(test_f16_packing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
