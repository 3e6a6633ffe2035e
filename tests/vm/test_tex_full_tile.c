/* TEX on a full 8x4 tile (every lane active: vm_h_tex's common case, where the result is
 * not cleared before the texture unit writes it and the operand block is read in place).
 * Expected values by hand from the fixture's texel formula (fx_val): a valid lookup gives
 * the texel, a lookup through a handle past the header pool gives zeros on every lane —
 * also right after a valid lookup in the same program, so stale values of the previous
 * result would show. */
#include "test_tex_fixture.h"

#define TW 8
#define TH 4

/* An 8x4 rectangle, IN[0] = uv of the pixel centre ((x+0.5)/8, (y+0.5)/4); the target
 * starts as 0xff bytes so an unwritten pixel cannot pass for a zero result. */
static void run_tile(fx *F, const char *text, uint32_t out[TW * TH][4])
{
    tv_error err;
    if (run_wh(F, text, TW, TH, 0xff, &out[0][0], &err) != TV_OK)
        fail_msg("run failed: %s", err.message);
}

/* u * 4 = (x + 0.5) / 2 -> texel x / 2; v * 4 = y + 0.5 -> texel y (point, level 0). */
static double texel(unsigned p, unsigned c)
{
    return fx_val(0, 0, (int)(p % TW / 2), (int)(p / TW), 0, c);
}

static void test_full_tile_valid(void **state)
{
    (void)state;
    fx F;
    setup(&F);
    uint32_t out[TW * TH][4];
    run_tile(&F, HDR "DCL SAMP[0]\nDCL SVIEW[0], 2D, FLOAT\n"
                     "  0: TEX OUT[0], IN[0].xyyy, SAMP[0], 2D\n  1: END\n", out);
    for (unsigned p = 0; p < TW * TH; p++)
        for (unsigned c = 0; c < 4; c++)
            expect_f(out[p][c], texel(p, c), "TEX full tile", p, c);
    fx_free(&F);
}

static void test_full_tile_bad_handle_after_valid(void **state)
{
    (void)state;
    fx F;
    setup(&F);
    uint32_t out[TW * TH][4];
    char text[1024];
    uint32_t bad = tv_tex_handle(FX_POOL_ENTRIES, SPOINT);   /* header past the pool */
    snprintf(text, sizeof text, HDR "DCL SAMP[0]\nDCL SVIEW[0], 2D, FLOAT\nDCL TEMP[0..2]\n"
             "IMM[0] UINT32 {%u, 0, 0, 0}\n"
             "  0: MOV TEMP[2].x, IMM[0].xxxx\n"
             "  1: TEX TEMP[0], IN[0], SAMP[0], 2D\n"
             "  2: TEX TEMP[1], IN[0], TEMP[2], 2D\n"
             "  3: ADD OUT[0], TEMP[0], TEMP[1]\n  4: END\n", bad);
    run_tile(&F, text, out);
    /* the bad lookup reads zeros on every lane: the sum is the valid texel */
    for (unsigned p = 0; p < TW * TH; p++)
        for (unsigned c = 0; c < 4; c++)
            expect_f(out[p][c], texel(p, c), "valid + bad-handle TEX", p, c);
    /* the bad lookup alone: zeros */
    snprintf(text, sizeof text, HDR "DCL TEMP[0]\nIMM[0] UINT32 {%u, 0, 0, 0}\n"
             "  0: MOV TEMP[0].x, IMM[0].xxxx\n"
             "  1: TEX OUT[0], IN[0], TEMP[0], 2D\n  2: END\n", bad);
    run_tile(&F, text, out);
    for (unsigned p = 0; p < TW * TH; p++)
        for (unsigned c = 0; c < 4; c++)
            expect_f(out[p][c], 0.0, "bad-handle TEX", p, c);
    fx_free(&F);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_full_tile_valid),
        cmocka_unit_test(test_full_tile_bad_handle_after_valid),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
