/* The D3D10 `sample`/`ld` rules on the engine's SAMPLE* forms: unbound slots read zeros,
 * `ld` (SAMPLE_I) and point sampling return the stored bits unmodified (denormals, NaN
 * payloads, -0, -inf), offsets count texels of the level accessed before wrapping,
 * SAMPLE_C_LZ / SAMPLE_B, and per-lane SVIEW / SAMP indices (out of range -> zeros). */
#include "test_tex_fixture.h"

static const uint32_t special[4] = {0x00000001u, 0x7fc12345u, 0x80000000u, 0xff800000u};

static void put_special(fx *F)
{
    fx_write_texel(F, TCONST, 0, 3, 3, 0, 0, special);
    tv_tex_invalidate(F->unit);
}

static void test_unbound_and_ld_bits(void **state)
{
    (void)state;
    fx F;
    setup(&F);
    put_special(&F);
    uint32_t out[W * H][4];
    /* SVIEW[20]: an all-zero pool entry (no texture) -> (0, 0, 0, 0) for sample and ld */
    run_ok(&F, HDR "DCL SVIEW[20], 2D, FLOAT\nDCL SAMP[0]\nDCL TEMP[0]\n"
                   "IMM[0] INT32 {1, 1, 0, 0}\n"
                   "  0: SAMPLE TEMP[0], IN[0], SVIEW[20], SAMP[0]\n"
                   "  1: SAMPLE_I OUT[0], IMM[0], SVIEW[20]\n"
                   "  2: ADD OUT[0].x, OUT[0].xxxx, TEMP[0].wwww\n"
                   "  3: END\n", out);
    for (unsigned p = 0; p < W * H; p++)
        for (unsigned c = 0; c < 4; c++)
            assert_int_equal(out[p][c], 0u);
    /* ld and point sampling of texel (3,3) of the constant texture: exact bits */
    run_ok(&F, HDR "DCL SVIEW[1], 2D, FLOAT\nDCL SAMP[0]\n"
                   "IMM[0] INT32 {3, 3, 0, 0}\n"
                   "  0: SAMPLE_I OUT[0], IMM[0], SVIEW[1]\n"
                   "  1: END\n", out);
    for (unsigned c = 0; c < 4; c++)
        assert_int_equal(out[0][c], special[c]);
    run_ok(&F, HDR "DCL SVIEW[1], 2D, FLOAT\nDCL SAMP[0]\n"
                   "  0: SAMPLE OUT[0], IN[0], SVIEW[1], SAMP[0]\n"
                   "  1: END\n", out);
    for (unsigned c = 0; c < 4; c++) {
        assert_int_equal(out[15][c], special[c]);        /* pixel (3,3) */
        expect_f(out[0][c], 9.0 - c, "SAMPLE constant", 0, c);
    }
    fx_free(&F);
}

static void test_offsets_per_level(void **state)
{
    (void)state;
    fx F;
    setup(&F);
    uint32_t out[W * H][4];
    /* SAMPLE_L lod 1 with sampler 3 (point, mip point, repeat) on the 4x4 view: level 1 is
     * 2x2; offset (1, 0) moves one texel of level 1 and wraps: texel ((x/2 + 1) mod 2) */
    run_ok(&F, HDR "DCL SVIEW[0], 2D, FLOAT\nDCL SAMP[3]\n"
                   "IMM[0] FLT32 {1.0, 0.0, 0.0, 0.0}\nIMM[1] INT32 {1, 0, 0, 0}\n"
                   "  0: SAMPLE_L OUT[0], IN[0], SVIEW[0], SAMP[3], IMM[0].xxxx, IMM[1].xyz\n"
                   "  1: END\n", out);
    for (unsigned p = 0; p < W * H; p++)
        expect_f(out[p][0], fx_val(1, 0, (int)((p % W / 2 + 1) % 2), (int)(p / W / 2), 0, 0),
                 "SAMPLE_L offset on level 1", p, 0);
    /* SAMPLE_B: bias 1 on lambda 0 -> level 1 */
    run_ok(&F, HDR "DCL SVIEW[0], 2D, FLOAT\nDCL SAMP[3]\n"
                   "IMM[0] FLT32 {1.0, 0.0, 0.0, 0.0}\n"
                   "  0: SAMPLE_B OUT[0], IN[0], SVIEW[0], SAMP[3], IMM[0].xxxx\n"
                   "  1: END\n", out);
    for (unsigned p = 0; p < W * H; p++)
        expect_f(out[p][3], fx_val(1, 0, (int)(p % W / 2), (int)(p / W / 2), 0, 3),
                 "SAMPLE_B bias 1", p, 3);
    /* SAMPLE_C_LZ: depth (0.25 0.5 / 0.75 1.0), LESS, point; replicated through .xyzw */
    run_ok(&F, HDR "DCL SVIEW[2], 2D, FLOAT\nDCL SAMP[2]\n"
                   "IMM[0] FLT32 {0.6, 0.0, 0.0, 0.0}\n"
                   "  0: SAMPLE_C_LZ OUT[0], IN[0], SVIEW[2], SAMP[2], IMM[0].xxxx\n"
                   "  1: END\n", out);
    for (unsigned p = 0; p < W * H; p++) {
        /* 4x4 pixels on a 2x2 depth texture: texel (x/2, y/2) */
        static const double depth[4] = {0.25, 0.5, 0.75, 1.0};
        double want = 0.6 < depth[(p % W / 2) + 2 * (p / W / 2)] ? 1.0 : 0.0;
        for (unsigned c = 0; c < 4; c++)
            expect_f(out[p][c], want, "SAMPLE_C_LZ replicated", p, c);
    }
    fx_free(&F);
}

static void test_indirect_views(void **state)
{
    (void)state;
    fx F;
    setup(&F);
    uint32_t out[W * H][4];
    /* SVIEW[ADDR[0].x] with ADDR = pixel y - 1: row 0 -> index -1 (zeros), row 1 -> view 0,
     * row 2 -> view 1 (constant 9,8,7,6), row 3 -> view 2 (depth: R, 0, 0, 1) */
    run_ok(&F, HDR "DCL SVIEW[0..2], 2D, FLOAT\nDCL SAMP[0]\nDCL ADDR[0]\nDCL TEMP[0]\n"
                   "IMM[0] FLT32 {4.0, -1.0, 0.0, 0.0}\n"
                   "  0: MAD TEMP[0].x, IN[0].yyyy, IMM[0].xxxx, IMM[0].yyyy\n"
                   "  1: FLR TEMP[0].x, TEMP[0].xxxx\n"
                   "  2: ARL ADDR[0].x, TEMP[0].xxxx\n"
                   "  3: SAMPLE OUT[0], IN[0], SVIEW[ADDR[0].x], SAMP[0]\n"
                   "  4: END\n", out);
    for (unsigned p = 0; p < W * H; p++) {
        unsigned x = p % W, y = p / W;
        double want = y == 0 ? 0.0 : y == 1 ? fx_val(0, 0, (int)x, 1, 0, 0)
                    : y == 2 ? 9.0 : (x < 2 ? 0.75 : 1.0);
        expect_f(out[p][0], want, "indirect SVIEW", p, 0);
    }
    /* SAMP[ADDR[0].x]: per-lane sampler with view 0: pixel x < 2 -> sampler 0 (point),
     * else sampler 1 (linear); at texel centres both read the texel itself */
    run_ok(&F, HDR "DCL SVIEW[0], 2D, FLOAT\nDCL SAMP[0..1]\nDCL ADDR[0]\nDCL TEMP[0]\n"
                   "IMM[0] FLT32 {2.0, 0.0, 0.0, 0.0}\n"
                   "  0: MUL TEMP[0].x, IN[0].xxxx, IMM[0].xxxx\n"
                   "  1: ARL ADDR[0].x, TEMP[0].xxxx\n"
                   "  2: SAMPLE OUT[0], IN[0], SVIEW[0], SAMP[ADDR[0].x]\n"
                   "  3: END\n", out);
    for (unsigned p = 0; p < W * H; p++)
        expect_f(out[p][1], fx_val(0, 0, (int)(p % W), (int)(p / W), 0, 1), "indirect SAMP",
                 p, 1);
    fx_free(&F);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unbound_and_ld_bits),
        cmocka_unit_test(test_offsets_per_level),
        cmocka_unit_test(test_indirect_views),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
