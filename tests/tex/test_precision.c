/* Precision modes: reference (float32 weights, exact log2) vs hardware (a linear
 * footprint's texel-space coordinate rounded to 1/256, ties up, so weights have 8 fraction
 * bits; a nearest texel from the exact coordinate; λ' truncated to 1/256 — the rules
 * measured on an H100, tests/tex/test_hw_capture.c). Point sampling returns the stored
 * bits exactly in both modes. Expected values by hand. */
#include "sample_fixture.h"

static void setup(fx *F)
{
    fx_put_tex(F, 0, tv_format_from_name("R32_FLOAT"), TV_TEX_2D, 4, 1, 1, 2);
    for (unsigned x = 0; x < 4; x++)
        fx_write_float(F, 0, 0, x, 0, 0, (float)x, 0, 0, 0);
    for (unsigned x = 0; x < 2; x++)
        fx_write_float(F, 0, 1, x, 0, 0, 10.0f, 0, 0, 0);
}

static float sample(fx *F, unsigned op, float s, float lod, unsigned filt, unsigned mip)
{
    tv_tsc ts;
    fx_tsc(&ts, filt, filt, mip, TV_WRAP_CLAMP_TO_EDGE);
    fx_put_tsc(F, 0, &ts);
    tv_tex_request r;
    tv_tex_result res;
    fx_req(&r, op, TV_TEXTGT_2D, tv_tex_handle(0, 0), 1);
    r.coord[0][0] = s;
    r.coord[1][0] = 0.5f;
    r.lod[0] = lod;
    fx_run(F, &r, &res);
    return fx_f(res.v[0][0]);
}

static void test_precision_weights(void **state)
{
    (void)state;
    fx F;
    fx_init(&F);
    setup(&F);
    /* u = 4 * 0.3337 = 1.3348: linear between texels 0 and 1 with alpha = 0.8348 */
    float s = 0.3337f;
    double u = 4.0 * (double)s;
    float ref = sample(&F, TV_TEX_OP_SAMPLE_LZ, s, 0, TV_MAG_LINEAR, TV_MIP_NONE);
    assert_true(fabs(ref - (u - 0.5)) < 1e-6);
    tv_tex_set_precision(F.unit, TV_TEX_PRECISION_HARDWARE);
    assert_int_equal(tv_tex_get_precision(F.unit), TV_TEX_PRECISION_HARDWARE);
    float hw = sample(&F, TV_TEX_OP_SAMPLE_LZ, s, 0, TV_MAG_LINEAR, TV_MIP_NONE);
    double uq = floor(u * 256.0 + 0.5) / 256.0; /* 341.7088 -> 342/256 */
    assert_true(hw == (float)(uq - 0.5));
    assert_true(hw * 256.0f == floorf(hw * 256.0f));
    /* a tie: u - 0.5 = 256.5/256 rounds up to 257/256 (round-to-nearest-even would give
     * 256/256, the value 1): texel 1 with weight 255/256 and texel 2 with 1/256 */
    float tie = (float)((1.0 + 128.5 / 256.0) / 4.0);
    assert_true(sample(&F, TV_TEX_OP_SAMPLE_LZ, tie, 0, TV_MAG_LINEAR, TV_MIP_NONE) ==
                1.0f + 1.0f / 256.0f);
    /* nearest: u = 1.999 -> texel 1 in both modes (the floor of the exact coordinate) */
    tv_tex_set_precision(F.unit, TV_TEX_PRECISION_REFERENCE);
    assert_true(sample(&F, TV_TEX_OP_SAMPLE_LZ, 1.999f / 4, 0, TV_MAG_POINT, TV_MIP_NONE) == 1.0f);
    tv_tex_set_precision(F.unit, TV_TEX_PRECISION_HARDWARE);
    assert_true(sample(&F, TV_TEX_OP_SAMPLE_LZ, 1.999f / 4, 0, TV_MAG_POINT, TV_MIP_NONE) == 1.0f);
    fx_free(&F);
}

static void test_precision_lod(void **state)
{
    (void)state;
    fx F;
    fx_init(&F);
    setup(&F);
    /* explicit LOD 0.3 between level 0 (texel 2 = 2.0 at s = 0.6) and level 1 (10.0) */
    float ref = sample(&F, TV_TEX_OP_SAMPLE_LOD, 0.6f, 0.3f, TV_MAG_POINT, TV_MIP_LINEAR);
    assert_true(fabs(ref - (0.7 * 2.0 + 0.3 * 10.0)) < 1e-5);
    tv_tex_set_precision(F.unit, TV_TEX_PRECISION_HARDWARE);
    float hw = sample(&F, TV_TEX_OP_SAMPLE_LOD, 0.6f, 0.3f, TV_MAG_POINT, TV_MIP_LINEAR);
    double f = 76.0 / 256.0; /* floor(0.3 * 256) = floor(76.8) = 76 */
    assert_true(fabs(hw - ((1 - f) * 2.0 + f * 10.0)) < 1e-6);
    fx_free(&F);
}

static void test_precision_point_exact(void **state)
{
    (void)state;
    fx F;
    fx_init(&F);
    fx_put_tex(&F, 0, tv_format_from_name("R32G32B32A32_FLOAT"), TV_TEX_2D, 1, 1, 1, 1);
    uint32_t bits[4] = {0x00000001u, 0x7fc00001u, 0x80000000u, 0x7f7fffffu};
    fx_write_texel(&F, 0, 0, 0, 0, 0, 0, bits);
    tv_tsc s;
    fx_tsc(&s, TV_MAG_LINEAR, TV_MIN_LINEAR, TV_MIP_LINEAR, TV_WRAP_CLAMP_TO_EDGE);
    fx_put_tsc(&F, 0, &s);
    for (int mode = 0; mode < 2; mode++) {
        tv_tex_set_precision(F.unit, mode ? TV_TEX_PRECISION_HARDWARE
                                          : TV_TEX_PRECISION_REFERENCE);
        tv_tex_request r;
        tv_tex_result res;
        /* a 1x1 texture: every linear tap but one has weight 0 at the texel centre */
        fx_req(&r, TV_TEX_OP_SAMPLE_LZ, TV_TEXTGT_2D, tv_tex_handle(0, 0), 1);
        r.coord[0][0] = r.coord[1][0] = 0.5f;
        fx_run(&F, &r, &res);
        for (int c = 0; c < 4; c++)
            assert_int_equal(res.v[c][0], bits[c]);
        r.op = TV_TEX_OP_FETCH;
        fx_run(&F, &r, &res);
        for (int c = 0; c < 4; c++)
            assert_int_equal(res.v[c][0], bits[c]);
    }
    fx_free(&F);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_precision_weights),
        cmocka_unit_test(test_precision_lod),
        cmocka_unit_test(test_precision_point_exact),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
