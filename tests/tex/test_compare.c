/* Depth compare: all 8 functions (reference on the left: ref OP texel), per texel BEFORE
 * filtering (PCF), reference clamped to [0,1] for UNORM depth only, border depth compared,
 * projective reference, result (r, r, r, 1). Expected values by hand. */
#include "sample_fixture.h"

static double depth_of(unsigned x, unsigned y)
{
    return (double)(x + 4 * y) / 16.0;
}

static bool cmp(unsigned f, double ref, double d)
{
    switch (f) {
    case TV_CMP_NEVER: return false;
    case TV_CMP_LESS: return ref < d;
    case TV_CMP_EQUAL: return ref == d;
    case TV_CMP_LEQUAL: return ref <= d;
    case TV_CMP_GREATER: return ref > d;
    case TV_CMP_NOTEQUAL: return ref != d;
    case TV_CMP_GEQUAL: return ref >= d;
    default: return true;
    }
}

static void setup(fx *F, const char *fmt)
{
    fx_put_tex(F, 0, tv_format_from_name(fmt), TV_TEX_2D, 4, 4, 1, 1);
    for (unsigned y = 0; y < 4; y++)
        for (unsigned x = 0; x < 4; x++)
            fx_write_float(F, 0, 0, x, y, 0, (float)depth_of(x, y), 0, 0, 0);
}

static void sampler(fx *F, unsigned filt, unsigned func, unsigned wrap)
{
    tv_tsc s;
    fx_tsc(&s, filt, filt, TV_MIP_NONE, wrap);
    s.depth_compare = true;
    s.depth_compare_func = (uint8_t)func;
    s.border_color[0] = fx_u(0.5f);
    fx_put_tsc(F, 0, &s);
}

static void expect_r(const tv_tex_result *res, unsigned lane, double r)
{
    double ref[4] = {r, r, r, 1.0};
    fx_expect_near(res, lane, ref, 1e-6);
}

static void test_compare_functions_point(void **state)
{
    (void)state;
    fx F;
    fx_init(&F);
    setup(&F, "Z32_FLOAT");
    for (unsigned func = 0; func < 8; func++) {
        sampler(&F, TV_MAG_POINT, func, TV_WRAP_CLAMP_TO_EDGE);
        tv_tex_request r;
        tv_tex_result res;
        fx_req(&r, TV_TEX_OP_SAMPLE_LZ, TV_TEXTGT_2D, tv_tex_handle(0, 0), ~0u);
        r.flags = TV_TEXF_COMPARE;
        for (unsigned l = 0; l < 32; l++) {
            unsigned x = l % 4, y = (l / 4) % 4;
            r.coord[0][l] = (x + 0.5f) / 4;
            r.coord[1][l] = (y + 0.5f) / 4;
            /* below, equal to, and above the texel depth */
            r.ref[l] = (float)depth_of(x, y) + (l < 16 ? (l % 2 ? 0.0f : -0.03125f) : 0.03125f);
        }
        fx_run(&F, &r, &res);
        for (unsigned l = 0; l < 32; l++) {
            unsigned x = l % 4, y = (l / 4) % 4;
            expect_r(&res, l, cmp(func, r.ref[l], depth_of(x, y)) ? 1.0 : 0.0);
        }
    }
    fx_free(&F);
}

static void test_compare_before_filter(void **state)
{
    (void)state;
    fx F;
    fx_init(&F);
    setup(&F, "Z32_FLOAT");
    sampler(&F, TV_MAG_LINEAR, TV_CMP_LEQUAL, TV_WRAP_CLAMP_TO_EDGE);
    tv_tex_request r;
    tv_tex_result res;
    fx_req(&r, TV_TEX_OP_SAMPLE_LZ, TV_TEXTGT_2D, tv_tex_handle(0, 0), 1);
    r.flags = TV_TEXF_COMPARE;
    /* u = 1.5 + 0.25, v = 1.5 + 0.5: taps (1,1) (2,1) (1,2) (2,2) with a=.25, b=.5 */
    r.coord[0][0] = 1.75f / 4;
    r.coord[1][0] = 2.0f / 4;
    r.ref[0] = (float)depth_of(2, 1);  /* 6/16: passes against (2,1), (1,2), (2,2) */
    fx_run(&F, &r, &res);
    double w[4] = {0.75 * 0.5, 0.25 * 0.5, 0.75 * 0.5, 0.25 * 0.5};
    double d[4] = {depth_of(1, 1), depth_of(2, 1), depth_of(1, 2), depth_of(2, 2)};
    double want = 0;
    for (int k = 0; k < 4; k++)
        want += w[k] * (r.ref[0] <= d[k] ? 1.0 : 0.0);
    expect_r(&res, 0, want); /* 0.625; comparing the filtered depth would give 1 */
    fx_free(&F);
}

static void test_compare_reference_clamp(void **state)
{
    (void)state;
    for (int unorm = 0; unorm < 2; unorm++) {
        fx F;
        fx_init(&F);
        fx_put_tex(&F, 0, tv_format_from_name(unorm ? "Z16_UNORM" : "Z32_FLOAT"), TV_TEX_2D, 2,
                   1, 1, 1);
        fx_write_float(&F, 0, 0, 0, 0, 0, 1.0f, 0, 0, 0);
        fx_write_float(&F, 0, 0, 1, 0, 0, 0.0f, 0, 0, 0);
        tv_tex_request r;
        tv_tex_result res;
        fx_req(&r, TV_TEX_OP_SAMPLE_LZ, TV_TEXTGT_2D, tv_tex_handle(0, 0), 3);
        r.flags = TV_TEXF_COMPARE;
        r.coord[0][0] = 0.25f;  /* depth 1.0, ref 1.5 LEQUAL: clamped 1 <= 1 */
        r.ref[0] = 1.5f;
        r.coord[0][1] = 0.75f;  /* depth 0.0, ref -0.5 LEQUAL: true either way */
        r.ref[1] = -0.5f;
        sampler(&F, TV_MAG_POINT, TV_CMP_LEQUAL, TV_WRAP_CLAMP_TO_EDGE);
        fx_run(&F, &r, &res);
        expect_r(&res, 0, unorm ? 1.0 : 0.0);
        expect_r(&res, 1, 1.0);
        sampler(&F, TV_MAG_POINT, TV_CMP_LESS, TV_WRAP_CLAMP_TO_EDGE);
        fx_run(&F, &r, &res);
        expect_r(&res, 1, unorm ? 0.0 : 1.0); /* clamped: 0 < 0 is false */
        fx_free(&F);
    }
}

static void test_compare_border_and_projection(void **state)
{
    (void)state;
    fx F;
    fx_init(&F);
    setup(&F, "Z32_FLOAT");
    sampler(&F, TV_MAG_POINT, TV_CMP_LESS, TV_WRAP_BORDER);
    tv_tex_request r;
    tv_tex_result res;
    fx_req(&r, TV_TEX_OP_SAMPLE_LZ, TV_TEXTGT_2D, tv_tex_handle(0, 0), 3);
    r.flags = TV_TEXF_COMPARE;
    r.coord[0][0] = -0.5f; /* border depth 0.5: 0.25 < 0.5 */
    r.ref[0] = 0.25f;
    r.coord[0][1] = 1.5f;
    r.ref[1] = 0.75f;
    fx_run(&F, &r, &res);
    expect_r(&res, 0, 1.0);
    expect_r(&res, 1, 0.0);
    /* projective: s, t and the reference are divided by q */
    fx_req(&r, TV_TEX_OP_SAMPLE_LZ, TV_TEXTGT_2D, tv_tex_handle(0, 0), 1);
    r.flags = TV_TEXF_COMPARE | TV_TEXF_PROJECTIVE;
    r.coord[0][0] = 2.5f * 2 / 4; /* texel (2, 3) after dividing by 2: depth 14/16 */
    r.coord[1][0] = 3.5f * 2 / 4;
    r.q[0] = 2.0f;
    r.ref[0] = 1.7f;              /* 0.85 < 0.875 */
    fx_run(&F, &r, &res);
    expect_r(&res, 0, 1.0);
    r.ref[0] = 1.8f;              /* 0.9 */
    fx_run(&F, &r, &res);
    expect_r(&res, 0, 0.0);
    fx_free(&F);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_compare_functions_point),
        cmocka_unit_test(test_compare_before_filter),
        cmocka_unit_test(test_compare_reference_clamp),
        cmocka_unit_test(test_compare_border_and_projection),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
