/* Sampling rules around the filters: target vs header type (mismatch -> zeros; array /
 * non-array equivalences), array layer RNE + clamp, texel offsets per level before wrap and
 * never on the layer, projection, sRGB decoded before filtering, integer formats never
 * filtered, border colours for float / UNORM / SNORM / integer / sRGB / depth-texture
 * headers, unnormalized coordinates, TLDS-style overrides, inactive lanes. */
#include "sample_fixture.h"

static void expect4f(const tv_tex_result *res, unsigned lane, double a, double b, double c,
                     double d, double tol)
{
    double ref[4] = {a, b, c, d};
    fx_expect_near(res, lane, ref, tol);
}

static void expect_formula(const tv_tex_result *res, unsigned lane, unsigned level,
                           unsigned layer, int x, int y)
{
    double ref[4];
    for (unsigned c = 0; c < 4; c++)
        ref[c] = fx_val(level, layer, x, y, 0, c);
    fx_expect_near(res, lane, ref, 0.0);
}

static void point_sampler(fx *F, unsigned idx, unsigned wrap)
{
    tv_tsc s;
    fx_tsc(&s, TV_MAG_POINT, TV_MIN_POINT, TV_MIP_POINT, wrap);
    fx_put_tsc(F, idx, &s);
}

static void test_targets_vs_types(void **state)
{
    (void)state;
    fx F;
    fx_init(&F);
    tv_format f = tv_format_from_name("R32G32B32A32_FLOAT");
    fx_put_tex(&F, 0, f, TV_TEX_2D, 4, 4, 1, 1);
    fx_fill_formula(&F, 0);
    fx_put_tex(&F, 1, f, TV_TEX_2D_ARRAY, 4, 4, 6, 1);
    fx_fill_formula(&F, 1);
    fx_put_tex(&F, 2, f, TV_TEX_3D, 4, 4, 4, 1);
    fx_put_tex(&F, 3, f, TV_TEX_1D_ARRAY, 4, 1, 3, 1);
    fx_fill_formula(&F, 3);
    point_sampler(&F, 0, TV_WRAP_CLAMP_TO_EDGE);
    static const struct { unsigned target, hdr; bool ok; } pairs[] = {
        {TV_TEXTGT_2D, 2, false}, {TV_TEXTGT_3D, 0, false}, {TV_TEXTGT_CUBE, 1, false},
        {TV_TEXTGT_1D, 0, false}, {TV_TEXTGT_2D, 3, false}, {TV_TEXTGT_1D_ARRAY, 1, false},
        {TV_TEXTGT_2D, 0, true}, {TV_TEXTGT_2D_ARRAY, 0, true}, {TV_TEXTGT_2D, 1, true},
        {TV_TEXTGT_2D_ARRAY, 1, true}, {TV_TEXTGT_1D, 3, true}, {TV_TEXTGT_1D_ARRAY, 3, true},
    };
    for (unsigned p = 0; p < sizeof pairs / sizeof pairs[0]; p++) {
        tv_tex_request r;
        tv_tex_result res;
        fx_req(&r, TV_TEX_OP_SAMPLE_LZ, pairs[p].target, tv_tex_handle(pairs[p].hdr, 0), 1);
        r.coord[0][0] = 0.6f; /* texel 2 */
        r.coord[1][0] = 0.3f; /* texel 1 */
        r.coord[3][0] = 0.0f;
        fx_run(&F, &r, &res);
        if (!pairs[p].ok) {
            assert_int_equal(res.invalid, 1);
            for (int c = 0; c < 4; c++)
                assert_int_equal(res.v[c][0], 0);
        } else {
            assert_int_equal(res.invalid, 0);
            bool oned = pairs[p].hdr == 3;
            expect_formula(&res, 0, 0, 0, 2, oned ? 0 : 1);
        }
    }
    fx_free(&F);
}

static void test_layers_and_offsets(void **state)
{
    (void)state;
    fx F;
    fx_init(&F);
    tv_format f = tv_format_from_name("R32G32B32A32_FLOAT");
    tv_tic t;
    fx_tic(&t, f, TV_TEX_2D_ARRAY, 8, 8, 6, 3);
    fx_put_tic(&F, 0, &t);
    fx_fill_formula(&F, 0);
    point_sampler(&F, 0, TV_WRAP_REPEAT);
    tv_tex_request r;
    tv_tex_result res;
    /* layer: 2.5 -> 2, 3.5 -> 4 (RNE), -0.4 -> 0, 7.6 -> 5 (clamp), 1.49 -> 1 */
    static const float a[5] = {2.5f, 3.5f, -0.4f, 7.6f, 1.49f};
    static const unsigned want[5] = {2, 4, 0, 5, 1};
    fx_req(&r, TV_TEX_OP_SAMPLE_LZ, TV_TEXTGT_2D_ARRAY, tv_tex_handle(0, 0), 0x1f);
    for (unsigned l = 0; l < 5; l++) {
        r.coord[0][l] = 0.3f;
        r.coord[1][l] = 0.6f;
        r.coord[3][l] = a[l];
    }
    fx_run(&F, &r, &res);
    for (unsigned l = 0; l < 5; l++)
        expect_formula(&res, l, 0, want[l], 2, 4);
    /* offsets in texels of the level sampled, before wrap; never on the layer */
    fx_req(&r, TV_TEX_OP_SAMPLE_LOD, TV_TEXTGT_2D_ARRAY, tv_tex_handle(0, 0), 0x3);
    r.flags = TV_TEXF_OFFSETS;
    for (unsigned l = 0; l < 2; l++) {
        r.coord[0][l] = 1.5f / 4; /* level 1 (4x4): texel (1, 2) */
        r.coord[1][l] = 2.5f / 4;
        r.coord[3][l] = 1.0f;
        r.lod[l] = 1.0f;
        r.offset[0][l] = 3;      /* 1 + 3 = 4 -> REPEAT -> 0 */
        r.offset[1][l] = -4;     /* 2 - 4 = -2 -> 2 */
        r.offset[2][l] = 5;      /* the layer axis: ignored */
    }
    r.lod[1] = 0.0f;             /* level 0 (8x8): texel (3, 5) + (3, -4) = (6, 1) */
    fx_run(&F, &r, &res);
    expect_formula(&res, 0, 1, 1, 0, 2);
    expect_formula(&res, 1, 0, 1, 6, 1);
    /* the same integer offset on both levels of a linear mip blend */
    tv_tsc s;
    fx_tsc(&s, TV_MAG_POINT, TV_MIN_POINT, TV_MIP_LINEAR, TV_WRAP_REPEAT);
    fx_put_tsc(&F, 0, &s);
    r.lod[0] = 0.5f;
    fx_run(&F, &r, &res);
    double ref[4];
    for (unsigned c = 0; c < 4; c++)
        ref[c] = 0.5 * fx_val(0, 1, 3 + 3, 5 - 4, 0, c) + 0.5 * fx_val(1, 1, 0, 2, 0, c);
    fx_expect_near(&res, 0, ref, 1e-6);
    /* projection: s, t divided by q, the layer is not */
    point_sampler(&F, 0, TV_WRAP_REPEAT);
    fx_req(&r, TV_TEX_OP_SAMPLE_LZ, TV_TEXTGT_2D_ARRAY, tv_tex_handle(0, 0), 1);
    r.flags = TV_TEXF_PROJECTIVE;
    r.coord[0][0] = 0.3f * 4;
    r.coord[1][0] = 0.6f * 4;
    r.coord[3][0] = 3.0f;
    r.q[0] = 4.0f;
    fx_run(&F, &r, &res);
    expect_formula(&res, 0, 0, 3, 2, 4);
    fx_free(&F);
}

static void test_srgb_and_integer_filtering(void **state)
{
    (void)state;
    fx F;
    fx_init(&F);
    tv_tic t;
    fx_tic(&t, tv_format_from_name("R8G8B8A8_SRGB"), TV_TEX_2D, 2, 1, 1, 1);
    fx_put_tic(&F, 0, &t);
    uint8_t px[2][4] = {{0, 128, 0, 0}, {255, 128, 0, 255}};
    for (unsigned x = 0; x < 2; x++)
        assert_true(tv_memory_write(F.mem, tv_tic_texel_address(&t, 0, x, 0, 0, 0), px[x], 4));
    fx_put_tex(&F, 1, tv_format_from_name("R32_UINT"), TV_TEX_2D, 2, 1, 1, 1);
    uint32_t v0[4] = {7, 0, 0, 0}, v1[4] = {1000, 0, 0, 0};
    fx_write_texel(&F, 1, 0, 0, 0, 0, 0, v0);
    fx_write_texel(&F, 1, 0, 1, 0, 0, 0, v1);
    tv_tsc s;
    fx_tsc(&s, TV_MAG_LINEAR, TV_MIN_LINEAR, TV_MIP_LINEAR, TV_WRAP_CLAMP_TO_EDGE);
    fx_put_tsc(&F, 0, &s);
    tv_tex_request r;
    tv_tex_result res;
    fx_req(&r, TV_TEX_OP_SAMPLE_LZ, TV_TEXTGT_2D, tv_tex_handle(0, 0), 1);
    r.coord[0][0] = 0.5f; /* halfway between the two texels */
    r.coord[1][0] = 0.5f;
    fx_run(&F, &r, &res);
    /* decode then filter: R = (0 + 1) / 2; G = decode(128); A (never decoded) = 0.5 */
    expect4f(&res, 0, 0.5, 0.2158605, 0.0, 0.5, 1e-6);
    s.srgb_conversion = false; /* the sampler turns decoding off */
    fx_put_tsc(&F, 0, &s);
    fx_run(&F, &r, &res);
    expect4f(&res, 0, 0.5, 128.0 / 255, 0.0, 0.5, 1e-6);
    /* integer formats are never filtered: u = 1.0 picks texel 1 (nearest) */
    fx_req(&r, TV_TEX_OP_SAMPLE_LZ, TV_TEXTGT_2D, tv_tex_handle(1, 0), 3);
    r.coord[0][0] = 0.5f;
    r.coord[0][1] = 0.49f;
    fx_run(&F, &r, &res);
    assert_int_equal(res.v[0][0], 1000);
    assert_int_equal(res.v[0][1], 7);
    assert_int_equal(res.v[3][0], 1);
    fx_free(&F);
}

/* Sample the border of header `idx` with sampler 0. */
static void border_of(fx *F, unsigned idx, tv_tex_result *res)
{
    tv_tex_request r;
    fx_req(&r, TV_TEX_OP_SAMPLE_LZ, TV_TEXTGT_2D, tv_tex_handle(idx, 0), 1);
    r.coord[0][0] = -2.0f;
    r.coord[1][0] = 0.5f;
    fx_run(F, &r, res);
}

static void test_border_colours(void **state)
{
    (void)state;
    fx F;
    fx_init(&F);
    static const char *fmts[] = {"R32G32B32A32_FLOAT", "R8G8B8A8_UNORM", "R8_SNORM",
                                 "R32G32_UINT", "R8G8B8A8_SRGB", "Z32_FLOAT", "A8_UNORM",
                                 "R32G32_SINT"};
    for (unsigned i = 0; i < 8; i++) {
        tv_tic t;
        fx_tic(&t, tv_format_from_name(fmts[i]), TV_TEX_2D, 2, 2, 1, 1);
        if (i == 5)
            t.depth_texture = true;
        fx_put_tic(&F, i, &t);
    }
    tv_tsc s;
    fx_tsc(&s, TV_MAG_LINEAR, TV_MIN_LINEAR, TV_MIP_NONE, TV_WRAP_BORDER);
    s.border_color[0] = fx_u(2.0f);
    s.border_color[1] = fx_u(-3.0f);
    s.border_color[2] = fx_u(0.25f);
    s.border_color[3] = fx_u(0.5f);
    s.srgb_border_color[0] = 128;
    s.srgb_border_color[1] = 10;
    s.srgb_border_color[2] = 255;
    fx_put_tsc(&F, 0, &s);
    tv_tex_result res;
    border_of(&F, 0, &res); /* float: as given */
    expect4f(&res, 0, 2.0, -3.0, 0.25, 0.5, 0.0);
    border_of(&F, 1, &res); /* UNORM: clamped to [0,1] */
    expect4f(&res, 0, 1.0, 0.0, 0.25, 0.5, 0.0);
    border_of(&F, 2, &res); /* SNORM R: clamped to [-1,1]; G, B, A from the defaults */
    expect4f(&res, 0, 1.0, 0.0, 0.0, 1.0, 0.0);
    border_of(&F, 4, &res); /* sRGB: R,G,B from the sRGB bytes, decoded; A linear */
    expect4f(&res, 0, 0.2158605, 0.0030353, 1.0, 0.5, 1e-6);
    border_of(&F, 5, &res); /* depth texture: R smeared */
    expect4f(&res, 0, 2.0, 2.0, 2.0, 2.0, 0.0);
    border_of(&F, 6, &res); /* A8 = R8 with swizzle (0,0,0,R): the border R lands in A */
    expect4f(&res, 0, 0.0, 0.0, 0.0, 1.0, 0.0);
    /* integer formats: the raw integers of the sampler, never filtered */
    s.border_color[0] = 7;
    s.border_color[1] = 0xfffffff9u;
    fx_put_tsc(&F, 0, &s);
    border_of(&F, 3, &res);
    assert_int_equal(res.v[0][0], 7);
    assert_int_equal(res.v[1][0], 0xfffffff9u);
    assert_int_equal(res.v[2][0], 0);
    assert_int_equal(res.v[3][0], 1);
    border_of(&F, 7, &res);
    assert_int_equal(res.v[1][0], 0xfffffff9u);
    fx_free(&F);
}

static void test_unnormalized_and_overrides(void **state)
{
    (void)state;
    fx F;
    fx_init(&F);
    tv_tic t;
    fx_tic(&t, tv_format_from_name("R32G32B32A32_FLOAT"), TV_TEX_2D_NO_MIPMAP, 5, 3, 1, 1);
    t.normalized_coords = false;
    fx_put_tic(&F, 0, &t);
    fx_fill_formula(&F, 0);
    tv_tsc s;
    fx_tsc(&s, TV_MAG_LINEAR, TV_MIN_LINEAR, TV_MIP_LINEAR, TV_WRAP_CLAMP_TO_EDGE);
    s.border_color[0] = fx_u(9.0f);
    fx_put_tsc(&F, 0, &s);
    tv_tex_request r;
    tv_tex_result res;
    fx_req(&r, TV_TEX_OP_SAMPLE_LZ, TV_TEXTGT_2D_RECT, tv_tex_handle(0, 0), 0x3);
    r.coord[0][0] = 3.5f; /* texel centre (3, 1) */
    r.coord[1][0] = 1.5f;
    r.coord[0][1] = 2.0f; /* halfway between (1,1) and (2,1) */
    r.coord[1][1] = 1.5f;
    fx_run(&F, &r, &res);
    expect_formula(&res, 0, 0, 0, 3, 1);
    double ref[4];
    for (unsigned c = 0; c < 4; c++)
        ref[c] = 0.5 * fx_val(0, 0, 1, 1, 0, c) + 0.5 * fx_val(0, 0, 2, 1, 0, c);
    fx_expect_near(&res, 1, ref, 1e-6);
    /* the sampler can force unnormalized coordinates on a normalized header */
    t.normalized_coords = true;
    fx_update_tic(&F, 0, &t);
    s.force_unnormalized_coords = true;
    fx_put_tsc(&F, 0, &s);
    fx_run(&F, &r, &res);
    expect_formula(&res, 0, 0, 0, 3, 1);
    /* TLDS-style overrides: point filtering and a zero border */
    s.force_unnormalized_coords = false;
    s.address_u = s.address_v = TV_WRAP_BORDER;
    fx_put_tsc(&F, 0, &s);
    fx_req(&r, TV_TEX_OP_SAMPLE_LZ, TV_TEXTGT_2D, tv_tex_handle(0, 0), 0x7);
    r.flags = TV_TEXF_FETCH_OVERRIDES;
    r.coord[0][0] = 0.5f; /* u = 2.5: exact texel 2 */
    r.coord[1][0] = 0.5f;
    r.coord[0][1] = 0.45f; /* u = 2.25 -> point picks texel 2 (linear would blend) */
    r.coord[1][1] = 0.5f;
    r.coord[0][2] = -1.0f; /* border: zero (alpha present -> 0) */
    fx_run(&F, &r, &res);
    expect_formula(&res, 0, 0, 0, 2, 1);
    expect_formula(&res, 1, 0, 0, 2, 1);
    expect4f(&res, 2, 0, 0, 0, 0, 0.0);
    assert_int_equal(res.v[0][3], 0xcdcdcdcdu); /* inactive lane untouched */
    fx_free(&F);
}

/* REDUCTION_FILTER min/max: component-wise over the taps of non-zero weight. */
static void test_reduction_minmax(void **state)
{
    (void)state;
    fx F;
    fx_init(&F);
    fx_put_tex(&F, 0, tv_format_from_name("R32_FLOAT"), TV_TEX_2D, 2, 1, 1, 1);
    fx_write_float(&F, 0, 0, 0, 0, 0, 1.0f, 0, 0, 0);
    fx_write_float(&F, 0, 0, 1, 0, 0, 5.0f, 0, 0, 0);
    tv_tsc s;
    fx_tsc(&s, TV_MAG_LINEAR, TV_MIN_LINEAR, TV_MIP_NONE, TV_WRAP_CLAMP_TO_EDGE);
    tv_tex_request r;
    tv_tex_result res;
    fx_req(&r, TV_TEX_OP_SAMPLE_LZ, TV_TEXTGT_2D, tv_tex_handle(0, 0), 3);
    r.coord[0][0] = 0.4f;  /* u = 0.8: weights 0.7 / 0.3 */
    r.coord[0][1] = 0.25f; /* texel centre 0: texel 1 has weight 0 */
    r.coord[1][0] = r.coord[1][1] = 0.5f;
    static const float want[3][2] = {{0.7f * 1 + 0.3f * 5, 1}, {1, 1}, {5, 1}};
    for (unsigned red = 0; red < 3; red++) {
        s.reduction_filter = (uint8_t)red;
        fx_put_tsc(&F, 0, &s);
        fx_run(&F, &r, &res);
        assert_true(fabsf(fx_f(res.v[0][0]) - want[red][0]) < 1e-6f);
        assert_true(fx_f(res.v[0][1]) == want[red][1]);
    }
    fx_free(&F);
}

/* Lanes of one request may use different handles (textures and samplers). */
static void test_mixed_handles(void **state)
{
    (void)state;
    fx F;
    fx_init(&F);
    tv_format f = tv_format_from_name("R32G32B32A32_FLOAT");
    fx_put_tex(&F, 0, f, TV_TEX_2D, 8, 8, 1, 1);
    fx_fill_formula(&F, 0);
    fx_put_tex(&F, 1, f, TV_TEX_2D_ARRAY, 4, 4, 3, 1);
    fx_fill_formula(&F, 1);
    point_sampler(&F, 0, TV_WRAP_REPEAT);
    tv_tsc s;
    fx_tsc(&s, TV_MAG_POINT, TV_MIN_POINT, TV_MIP_NONE, TV_WRAP_BORDER);
    s.border_color[0] = fx_u(3.0f);
    fx_put_tsc(&F, 1, &s);
    tv_tex_request r;
    tv_tex_result res;
    fx_req(&r, TV_TEX_OP_SAMPLE_LZ, TV_TEXTGT_2D_ARRAY, 0, ~0u);
    for (unsigned l = 0; l < 32; l++) {
        r.handle[l] = tv_tex_handle(l % 3 == 0 ? 0 : 1, (l / 2) % 2);
        r.coord[0][l] = 1.1f + 0.01f * (float)l; /* outside [0,1]: repeat vs border */
        r.coord[1][l] = 0.3f;
        r.coord[3][l] = (float)(l % 4);
    }
    fx_run(&F, &r, &res);
    assert_int_equal(res.invalid, 0);
    for (unsigned l = 0; l < 32; l++) {
        bool arr = l % 3 != 0, border = (l / 2) % 2 == 1;
        unsigned n = arr ? 4 : 8;
        if (border) {
            assert_true(fx_f(res.v[0][l]) == 3.0f);
            continue;
        }
        double u = (double)r.coord[0][l] * n;
        int i = (int)floor(u) % (int)n, j = (int)floor(0.3 * n);
        unsigned layer = arr ? (l % 4 > 2 ? 2 : l % 4) : 0;
        expect_formula(&res, l, 0, layer, i, j);
    }
    fx_free(&F);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_targets_vs_types),
        cmocka_unit_test(test_layers_and_offsets),
        cmocka_unit_test(test_srgb_and_integer_filtering),
        cmocka_unit_test(test_border_colours),
        cmocka_unit_test(test_unnormalized_and_overrides),
        cmocka_unit_test(test_reduction_minmax),
        cmocka_unit_test(test_mixed_handles),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
