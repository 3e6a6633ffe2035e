/* LOD: implicit quad derivatives (per pixel, per quad, partial quads), explicit gradients,
 * bias (sampler + shader), min/max and per-lane clamps, base level, magnification switch,
 * nearest/linear mip selection, LOD query, hardware 1/256 steps. Expected values by hand
 * from sampling.md §4 (and its Appendix C vectors). */
#include "sample_fixture.h"

#define H(t, s) tv_tex_handle(t, s)

/* A new fixture whose texture 0 is a 256x256 RGBA32F formula texture of 9 levels, viewed
 * through levels BASE..LAST. */
static void setup(fx *F, unsigned base, unsigned last)
{
    fx_init(F);
    tv_tic t;
    fx_tic(&t, tv_format_from_name("R32G32B32A32_FLOAT"), TV_TEX_2D, 256, 256, 1, 9);
    fx_put_tic(F, 0, &t);
    fx_fill_formula(F, 0);
    t.res_view_min_mip_level = (uint8_t)base;
    t.res_view_max_mip_level = (uint8_t)last;
    fx_update_tic(F, 0, &t);
}

static void sampler(fx *F, unsigned mag, unsigned min, unsigned mip, float bias, float minl,
                    float maxl)
{
    tv_tsc s;
    fx_tsc(&s, mag, min, mip, TV_WRAP_REPEAT);
    s.mip_lod_bias = (int16_t)lrintf(bias * 256.0f);
    s.min_lod_clamp = (uint16_t)lrintf(minl * 256.0f);
    s.max_lod_clamp = (uint16_t)lrintf(maxl * 256.0f);
    fx_put_tsc(F, 0, &s);
}

/* Lanes 0..3 form a quad at (s0,t0) with the given screen derivatives. */
static void quad(tv_tex_request *r, unsigned q, float s0, float t0, float dsdx, float dtdx,
                 float dsdy, float dtdy)
{
    for (unsigned k = 0; k < 4; k++) {
        unsigned l = q * 4 + k;
        float x = (float)(k & 1), y = (float)(k >> 1);
        r->coord[0][l] = s0 + x * dsdx + y * dsdy;
        r->coord[1][l] = t0 + x * dtdx + y * dtdy;
    }
}

static void test_lod_appendix_c(void **state)
{
    (void)state;
    fx F;
    setup(&F, 0, 8);
    sampler(&F, TV_MAG_LINEAR, TV_MIN_LINEAR, TV_MIP_LINEAR, 0, 0, 15.99f);
    tv_tex_request r;
    tv_tex_result res;
    fx_req(&r, TV_TEX_OP_QUERY_LOD, TV_TEXTGT_2D, H(0, 0), 0xff);
    quad(&r, 0, 0.25f, 0.25f, 1.0f / 64, 0, 0, 1.0f / 64);  /* axis aligned: rho 4 */
    quad(&r, 1, 0.25f, 0.25f, 1.0f / 64, 1.0f / 64, 0, 0);  /* diagonal: rho 4*sqrt(2) */
    fx_run(&F, &r, &res);
    for (unsigned l = 0; l < 4; l++) {
        assert_true(fabsf(fx_f(res.v[1][l]) - 2.0f) < 1e-6f);
        assert_true(fabsf(fx_f(res.v[0][l]) - 2.0f) < 1e-6f);
        assert_true(fabsf(fx_f(res.v[1][4 + l]) - 2.5f) < 1e-6f);
        assert_true(fabsf(res.lod_unclamped[4 + l] - 2.5f) < 1e-6f);
    }
    fx_free(&F);
}

static void test_lod_bias_and_clamps(void **state)
{
    (void)state;
    fx F;
    setup(&F, 0, 8);
    tv_tex_request r;
    tv_tex_result res;
    /* sampler bias 1.5 + shader bias 0.25 on lambda_base 2 -> 3.75 */
    sampler(&F, TV_MAG_LINEAR, TV_MIN_LINEAR, TV_MIP_LINEAR, 1.5f, 0, 15.99f);
    fx_req(&r, TV_TEX_OP_SAMPLE_BIAS, TV_TEXTGT_2D, H(0, 0), 0xf);
    quad(&r, 0, 0.25f, 0.25f, 1.0f / 64, 0, 0, 1.0f / 64);
    for (unsigned l = 0; l < 4; l++)
        r.lod[l] = 0.25f;
    fx_run(&F, &r, &res);
    for (unsigned l = 0; l < 4; l++) {
        assert_true(fabsf(res.lod_unclamped[l] - 3.75f) < 1e-6f);
        assert_true(fabsf(res.lod_clamped[l] - 3.75f) < 1e-6f);
    }
    /* min clamp 3: accessed 3, lambda' still 2 */
    sampler(&F, TV_MAG_LINEAR, TV_MIN_LINEAR, TV_MIP_LINEAR, 0, 3.0f, 15.99f);
    r.op = TV_TEX_OP_QUERY_LOD;
    fx_run(&F, &r, &res);
    assert_true(fabsf(fx_f(res.v[0][0]) - 3.0f) < 1e-6f);
    assert_true(fabsf(fx_f(res.v[1][0]) - 2.0f) < 1e-6f);
    /* max clamp 1 */
    sampler(&F, TV_MAG_LINEAR, TV_MIN_LINEAR, TV_MIP_LINEAR, 0, 0, 1.0f);
    fx_run(&F, &r, &res);
    assert_true(fabsf(fx_f(res.v[0][0]) - 1.0f) < 1e-6f);
    /* per-lane clamp (lod_clamp) 2.5 on lane 1 only */
    sampler(&F, TV_MAG_LINEAR, TV_MIN_LINEAR, TV_MIP_LINEAR, 0, 0, 15.99f);
    r.lod_clamp[1] = 2.5f;
    fx_run(&F, &r, &res);
    assert_true(fabsf(fx_f(res.v[0][0]) - 2.0f) < 1e-6f);
    assert_true(fabsf(fx_f(res.v[0][1]) - 2.5f) < 1e-6f);
    /* mip NEAREST accessed LOD = ceil(l + 0.5) - 1; mip NONE -> 0 */
    sampler(&F, TV_MAG_LINEAR, TV_MIN_LINEAR, TV_MIP_POINT, 0.5f, 0, 15.99f);
    fx_run(&F, &r, &res);
    assert_true(fx_f(res.v[0][0]) == 2.0f); /* 2.5 -> 2 */
    sampler(&F, TV_MAG_LINEAR, TV_MIN_LINEAR, TV_MIP_NONE, 0.5f, 0, 15.99f);
    fx_run(&F, &r, &res);
    assert_true(fx_f(res.v[0][0]) == 0.0f);
    assert_true(fabsf(fx_f(res.v[1][0]) - 2.5f) < 1e-6f);
    /* the sampler bias applies to explicit LOD too */
    sampler(&F, TV_MAG_POINT, TV_MIN_POINT, TV_MIP_LINEAR, 1.0f, 0, 15.99f);
    r.op = TV_TEX_OP_SAMPLE_LOD;
    r.lod[0] = 0.5f;
    fx_run(&F, &r, &res);
    assert_true(fabsf(res.lod_unclamped[0] - 1.5f) < 1e-6f);
    fx_free(&F);
}

/* Point filter, explicit LOD: which level's texel comes back (expected from fx_val). */
static void expect_level_mix(const tv_tex_result *res, unsigned lane, float s, float t,
                             unsigned l0, double w0, unsigned l1, double w1)
{
    double ref[4];
    for (unsigned c = 0; c < 4; c++) {
        int n0 = 256 >> l0, n1 = 256 >> l1;
        ref[c] = w0 * fx_val(l0, 0, (int)floor(s * n0), (int)floor(t * n0), 0, c) +
                 w1 * fx_val(l1, 0, (int)floor(s * n1), (int)floor(t * n1), 0, c);
    }
    fx_expect_near(res, lane, ref, 1e-6);
}

static void test_lod_level_selection(void **state)
{
    (void)state;
    fx F;
    setup(&F, 0, 8);
    tv_tex_request r;
    tv_tex_result res;
    /* Appendix C mip NEAREST: 0.5 -> 0, 1.5 -> 1, 0.51 -> 1 */
    sampler(&F, TV_MAG_POINT, TV_MIN_POINT, TV_MIP_POINT, 0, 0, 15.99f);
    fx_req(&r, TV_TEX_OP_SAMPLE_LOD, TV_TEXTGT_2D, H(0, 0), 0x7);
    static const float lods[3] = {0.5f, 1.5f, 0.51f};
    static const unsigned want[3] = {0, 1, 1};
    for (unsigned l = 0; l < 3; l++) {
        r.coord[0][l] = 0.3f;
        r.coord[1][l] = 0.7f;
        r.lod[l] = lods[l];
    }
    fx_run(&F, &r, &res);
    for (unsigned l = 0; l < 3; l++)
        expect_level_mix(&res, l, 0.3f, 0.7f, want[l], 1.0, want[l], 0.0);
    /* mip LINEAR: 1.25 -> 0.75 * level 1 + 0.25 * level 2; past the last level -> last */
    sampler(&F, TV_MAG_POINT, TV_MIN_POINT, TV_MIP_LINEAR, 0, 0, 15.99f);
    r.lod[0] = 1.25f;
    r.lod[1] = 12.0f;
    r.lod[2] = 7.5f;
    fx_run(&F, &r, &res);
    expect_level_mix(&res, 0, 0.3f, 0.7f, 1, 0.75, 2, 0.25);
    expect_level_mix(&res, 1, 0.3f, 0.7f, 8, 1.0, 8, 0.0);
    expect_level_mix(&res, 2, 0.3f, 0.7f, 7, 0.5, 8, 0.5);
    /* magnification switch after the clamps: lod -1 with min LOD 0.5 minifies (min filter
     * POINT at level 0 + 0.5 linear mip), mag LINEAR would blend */
    sampler(&F, TV_MAG_LINEAR, TV_MIN_POINT, TV_MIP_POINT, 0, 0.5f, 15.99f);
    r.lod[0] = -1.0f;
    fx_run(&F, &r, &res);
    expect_level_mix(&res, 0, 0.3f, 0.7f, 0, 1.0, 0, 0.0);
    fx_free(&F);
}

static void test_lod_base_level(void **state)
{
    (void)state;
    fx F;
    setup(&F, 2, 8);  /* view levels 2..8: base size 64 */
    sampler(&F, TV_MAG_POINT, TV_MIN_POINT, TV_MIP_POINT, 0, 0, 15.99f);
    tv_tex_request r;
    tv_tex_result res;
    fx_req(&r, TV_TEX_OP_SAMPLE, TV_TEXTGT_2D, H(0, 0), 0xf);
    quad(&r, 0, 0.3f, 0.7f, 1.0f / 16, 0, 0, 1.0f / 16); /* rho = 64/16 = 4 -> lambda 2 */
    fx_run(&F, &r, &res);
    assert_true(fabsf(res.lod_unclamped[0] - 2.0f) < 1e-6f);
    expect_level_mix(&res, 0, 0.3f, 0.7f, 4, 1.0, 4, 0.0); /* base 2 + 2 */
    /* explicit LOD 0 is the base level */
    r.op = TV_TEX_OP_SAMPLE_LZ;
    fx_run(&F, &r, &res);
    expect_level_mix(&res, 0, 0.3f, 0.7f, 2, 1.0, 2, 0.0);
    fx_free(&F);
}

static void test_lod_quads(void **state)
{
    (void)state;
    fx F;
    setup(&F, 0, 8);
    sampler(&F, TV_MAG_LINEAR, TV_MIN_LINEAR, TV_MIP_LINEAR, 0, 0, 15.99f);
    tv_tex_request r;
    tv_tex_result res;
    fx_req(&r, TV_TEX_OP_QUERY_LOD, TV_TEXTGT_2D, H(0, 0), 0xf);
    /* row 0: ds 1/64 (rho 4); row 1: ds 4/64 (rho 16); t constant */
    float s[4] = {0.0f, 1.0f / 64, 0.0f, 4.0f / 64};
    for (unsigned l = 0; l < 4; l++) {
        r.coord[0][l] = s[l];
        r.coord[1][l] = 0.5f;
    }
    fx_run(&F, &r, &res);
    assert_true(fabsf(res.lod_unclamped[0] - 2.0f) < 1e-6f);
    /* TR: ddx = row 0 (1/64), ddy = column 1 (BR - TR = 3/64 in s): rho 12 */
    assert_true(fabs(res.lod_unclamped[1] - log2(12.0)) < 1e-6);
    assert_true(fabsf(res.lod_unclamped[2] - 4.0f) < 1e-6f);
    assert_true(fabsf(res.lod_unclamped[3] - 4.0f) < 1e-6f);
    /* per quad: every lane takes the top-left lane's derivatives */
    r.flags = TV_TEXF_PER_QUAD_LOD;
    fx_run(&F, &r, &res);
    for (unsigned l = 0; l < 4; l++)
        assert_true(fabsf(res.lod_unclamped[l] - 2.0f) < 1e-6f);
    /* partial quad: BR absent -> BL uses row 0's difference */
    r.flags = 0;
    r.active = r.present = 0x7;
    fx_run(&F, &r, &res);
    assert_true(fabsf(res.lod_unclamped[2] - 2.0f) < 1e-6f);
    /* BR present as a helper (not active) still feeds the derivatives */
    r.present = 0xf;
    fx_run(&F, &r, &res);
    assert_true(fabsf(res.lod_unclamped[2] - 4.0f) < 1e-6f);
    assert_int_equal(res.v[0][3], 0xcdcdcdcdu); /* inactive lane not written */
    /* no derivatives at all: lambda' = -inf, accessed 0 */
    r.flags = TV_TEXF_NO_DERIV;
    fx_run(&F, &r, &res);
    assert_true(isinf(res.lod_unclamped[0]) && res.lod_unclamped[0] < 0);
    assert_true(fx_f(res.v[0][0]) == 0.0f);
    fx_free(&F);
}

static void test_lod_gradients_and_hw(void **state)
{
    (void)state;
    fx F;
    setup(&F, 0, 8);
    sampler(&F, TV_MAG_LINEAR, TV_MIN_LINEAR, TV_MIP_LINEAR, 0, 0, 15.99f);
    tv_tex_request r;
    tv_tex_result res;
    fx_req(&r, TV_TEX_OP_SAMPLE_GRAD, TV_TEXTGT_2D, H(0, 0), 0x3);
    r.ddx[0][0] = 1.0f / 32; /* rho_x = 8 */
    r.ddy[1][0] = 1.0f / 128;
    r.ddx[0][1] = 3.0f / 256; /* rho = 3: lambda = log2(3) */
    fx_run(&F, &r, &res);
    assert_true(fabsf(res.lod_unclamped[0] - 3.0f) < 1e-6f);
    assert_true(fabs(res.lod_unclamped[1] - log2(3.0)) < 1e-6);
    tv_tex_set_precision(F.unit, TV_TEX_PRECISION_HARDWARE);
    fx_run(&F, &r, &res);
    /* hardware: LOD in 1/256 steps, truncated (as measured on an H100):
     * floor(log2(3) * 256) / 256 = floor(405.75) / 256 = 405/256 */
    assert_true(res.lod_unclamped[1] == 405.0f / 256.0f);
    assert_true(res.lod_clamped[1] == 405.0f / 256.0f);
    fx_free(&F);
}

/* 1D and 3D footprints: only the target's axes count (1D ignores t; 3D adds r * depth). */
static void test_lod_1d_3d(void **state)
{
    (void)state;
    fx F;
    fx_init(&F);
    tv_format f = tv_format_from_name("R32_FLOAT");
    tv_tic t;
    fx_put_tex(&F, 0, f, TV_TEX_1D, 64, 1, 1, 7);
    fx_tic(&t, f, TV_TEX_3D, 64, 32, 16, 7);
    fx_put_tic(&F, 1, &t);
    sampler(&F, TV_MAG_LINEAR, TV_MIN_LINEAR, TV_MIP_LINEAR, 0, 0, 15.99f);
    tv_tex_request r;
    tv_tex_result res;
    fx_req(&r, TV_TEX_OP_SAMPLE_GRAD, TV_TEXTGT_1D, tv_tex_handle(0, 0), 1);
    r.ddx[0][0] = 2.0f / 64;  /* rho 2 */
    r.ddx[1][0] = 1.0f;       /* t is not an axis of 1D */
    r.ddy[0][0] = 1.0f / 64;
    fx_run(&F, &r, &res);
    assert_true(fabsf(res.lod_unclamped[0] - 1.0f) < 1e-6f);
    fx_req(&r, TV_TEX_OP_SAMPLE_GRAD, TV_TEXTGT_3D, tv_tex_handle(1, 0), 1);
    r.ddx[0][0] = 1.0f / 64;  /* (1, 0, 0) texels */
    r.ddy[1][0] = 3.0f / 32;  /* (0, 3, 4) texels: length 5 */
    r.ddy[2][0] = 4.0f / 16;
    fx_run(&F, &r, &res);
    assert_true(fabs(res.lod_unclamped[0] - log2(5.0)) < 1e-6);
    fx_free(&F);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lod_appendix_c),
        cmocka_unit_test(test_lod_bias_and_clamps),
        cmocka_unit_test(test_lod_level_selection),
        cmocka_unit_test(test_lod_base_level),
        cmocka_unit_test(test_lod_quads),
        cmocka_unit_test(test_lod_gradients_and_hw),
        cmocka_unit_test(test_lod_1d_3d),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
