/* Texture micro-ops that read their operands and write their destination in place
 * (VM_TXF_DIRECT, vm_ops_tex.h): a destination that is also the coordinate register, a
 * partial writemask, lanes disabled by control flow (their destination keeps its value,
 * their coordinates still feed the quad derivatives), and _SAT (committed through scratch
 * slots). Expected values by hand from the fixture's texel formula (fx_val). */
#include "test_tex_fixture.h"

#define D3D_HDR HDR "DCL SVIEW[0], 2D, FLOAT\nDCL SAMP[0]\nDCL SAMP[3]\n"

/* TEX TEMP[0], TEMP[0]: the coordinates are read before the result is stored. */
static void test_dst_is_coord(void **state)
{
    (void)state;
    fx F;
    setup(&F);
    uint32_t out[W * H][4];
    run_ok(&F, D3D_HDR "DCL TEMP[0]\n"
                       "  0: MOV TEMP[0], IN[0]\n"
                       "  1: SAMPLE TEMP[0], TEMP[0], SVIEW[0], SAMP[0]\n"
                       "  2: MOV OUT[0], TEMP[0]\n  3: END\n", out);
    /* pixel centres on texel centres, point sampler: texel (x, y) of level 0 */
    for (unsigned p = 0; p < W * H; p++)
        for (unsigned c = 0; c < 4; c++)
            expect_f(out[p][c], fx_val(0, 0, (int)(p % W), (int)(p / W), 0, c),
                     "SAMPLE into its coordinate register", p, c);
    /* swizzled: TEMP[0].yx as the coordinates, the result into the same register */
    run_ok(&F, D3D_HDR "DCL TEMP[0]\n"
                       "  0: MOV TEMP[0], IN[0]\n"
                       "  1: SAMPLE TEMP[0], TEMP[0].yxzw, SVIEW[0], SAMP[0]\n"
                       "  2: MOV OUT[0], TEMP[0]\n  3: END\n", out);
    for (unsigned p = 0; p < W * H; p++)
        for (unsigned c = 0; c < 4; c++)
            expect_f(out[p][c], fx_val(0, 0, (int)(p / W), (int)(p % W), 0, c),
                     "SAMPLE with swizzled in-place coordinates", p, c);
    fx_free(&F);
}

/* TEX TEMP[1].xz: y and w keep their values. */
static void test_partial_writemask(void **state)
{
    (void)state;
    fx F;
    setup(&F);
    uint32_t out[W * H][4];
    run_ok(&F, D3D_HDR "DCL TEMP[1]\nIMM[0] FLT32 {-1.0, -2.0, -3.0, -4.0}\n"
                       "  0: MOV TEMP[1], IMM[0]\n"
                       "  1: SAMPLE TEMP[1].xz, IN[0], SVIEW[0], SAMP[0]\n"
                       "  2: MOV OUT[0], TEMP[1]\n  3: END\n", out);
    for (unsigned p = 0; p < W * H; p++) {
        expect_f(out[p][0], fx_val(0, 0, (int)(p % W), (int)(p / W), 0, 0), "x", p, 0);
        expect_f(out[p][1], -2.0, "y kept", p, 1);
        expect_f(out[p][2], fx_val(0, 0, (int)(p % W), (int)(p / W), 0, 2), "z", p, 2);
        expect_f(out[p][3], -4.0, "w kept", p, 3);
    }
    fx_free(&F);
}

/* Inside UIF (even columns only): the odd columns keep their destination, and their
 * coordinates (uv * 2, computed before the UIF) still give the even lanes' derivatives:
 * 2 texels per pixel on the 4x4 texture, lambda = 1, mip point -> level 1 (2x2), u * 2 =
 * x + 0.5 -> texel x mod 2 (repeat). Without the neighbours lambda would be -inf (level 0). */
static void test_inactive_lanes(void **state)
{
    (void)state;
    fx F;
    setup(&F);
    uint32_t out[W * H][4];
    run_ok(&F, D3D_HDR "DCL TEMP[0..2]\n"
                       "IMM[0] FLT32 {2.0, 2.0, 0.5, 0.0}\n"
                       "IMM[1] FLT32 {-1.0, -2.0, -3.0, -4.0}\n"
                       "  0: MUL TEMP[0], IN[0], IMM[0]\n"
                       "  1: MOV TEMP[1], IMM[1]\n"
                       "  2: FRC TEMP[2].x, TEMP[0].xxxx\n"
                       "  3: FSLT TEMP[2].x, TEMP[2].xxxx, IMM[0].zzzz\n"
                       "  4: UIF TEMP[2].xxxx\n"
                       "  5: SAMPLE TEMP[1], TEMP[0], SVIEW[0], SAMP[3]\n"
                       "  6: ENDIF\n"
                       "  7: MOV OUT[0], TEMP[1]\n  8: END\n", out);
    for (unsigned p = 0; p < W * H; p++) {
        unsigned x = p % W, y = p / W;
        for (unsigned c = 0; c < 4; c++) {
            double want = x % 2 ? -1.0 - c : fx_val(1, 0, (int)(x % 2), (int)(y % 2), 0, c);
            expect_f(out[p][c], want, x % 2 ? "disabled lane kept" : "lambda from neighbours",
                     p, c);
        }
    }
    fx_free(&F);
}

/* _SAT goes through scratch slots and the commit: the formula's values above 1 clamp. */
static void test_saturate(void **state)
{
    (void)state;
    fx F;
    setup(&F);
    uint32_t out[W * H][4];
    run_ok(&F, D3D_HDR "  0: SAMPLE_SAT OUT[0], IN[0], SVIEW[0], SAMP[0]\n  1: END\n", out);
    for (unsigned p = 0; p < W * H; p++)
        for (unsigned c = 0; c < 4; c++) {
            double v = fx_val(0, 0, (int)(p % W), (int)(p / W), 0, c);
            expect_f(out[p][c], v > 1.0 ? 1.0 : v, "SAMPLE_SAT", p, c);
        }
    fx_free(&F);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dst_is_coord),
        cmocka_unit_test(test_partial_writemask),
        cmocka_unit_test(test_inactive_lanes),
        cmocka_unit_test(test_saturate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
