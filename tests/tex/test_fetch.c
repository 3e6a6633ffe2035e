/* Texel fetch: per-lane level relative to the view base, offsets, arrays, 3D, buffers,
 * multisample sample index, sRGB decode, out of range -> 0 in stored components and the
 * (0,0,0,1) defaults elsewhere (D3D `ld`), invalid handles, malformed requests. */
#include "sample_fixture.h"

static void expect_formula(const tv_tex_result *res, unsigned lane, unsigned level,
                           unsigned layer, int x, int y, int z)
{
    double ref[4];
    for (unsigned c = 0; c < 4; c++)
        ref[c] = fx_val(level, layer, x, y, z, c);
    fx_expect_near(res, lane, ref, 0.0);
}

static void expect_bits(const tv_tex_result *res, unsigned lane, uint32_t a, uint32_t b,
                        uint32_t c, uint32_t d)
{
    assert_int_equal(res->v[0][lane], a);
    assert_int_equal(res->v[1][lane], b);
    assert_int_equal(res->v[2][lane], c);
    assert_int_equal(res->v[3][lane], d);
}

static void test_fetch_levels_offsets(void **state)
{
    (void)state;
    fx F;
    fx_init(&F);
    tv_tic t;
    fx_tic(&t, tv_format_from_name("R32G32B32A32_FLOAT"), TV_TEX_2D, 8, 8, 1, 4);
    fx_put_tic(&F, 0, &t);
    fx_fill_formula(&F, 0);
    t.res_view_min_mip_level = 1; /* view levels 1..3: sizes 4, 2, 1 */
    fx_update_tic(&F, 0, &t);
    tv_tsc s;
    fx_tsc(&s, TV_MAG_LINEAR, TV_MIN_LINEAR, TV_MIP_LINEAR, TV_WRAP_REPEAT);
    fx_put_tsc(&F, 0, &s);
    tv_tex_request r;
    tv_tex_result res;
    fx_req(&r, TV_TEX_OP_FETCH, TV_TEXTGT_2D, tv_tex_handle(0, 0), 0x3ff);
    static const int in[10][3] = {
        {3, 2, 0}, {1, 1, 1}, {0, 0, 2},        /* in range at levels 1, 2, 3 */
        {4, 0, 0}, {0, -1, 0}, {2, 0, 1},       /* x = w, y = -1, x = w at level 2 */
        {0, 0, -1}, {0, 0, 3},                  /* level below / above the view */
        {1, 1, 0}, {3, 3, 0},                   /* with offsets below */
    };
    for (unsigned l = 0; l < 10; l++) {
        r.icoord[0][l] = in[l][0];
        r.icoord[1][l] = in[l][1];
        r.lod_i[l] = in[l][2];
    }
    r.flags = TV_TEXF_OFFSETS;
    r.offset[0][8] = 2;  /* (1,1)+(2,-1) = (3,0): in range */
    r.offset[1][8] = -1;
    r.offset[0][9] = 1;  /* (3,3)+(1,0) = (4,3): out of range */
    fx_run(&F, &r, &res);
    assert_int_equal(res.invalid, 0);
    expect_formula(&res, 0, 1, 0, 3, 2, 0);
    expect_formula(&res, 1, 2, 0, 1, 1, 0);
    expect_formula(&res, 2, 3, 0, 0, 0, 0);
    for (unsigned l = 3; l < 8; l++)
        expect_bits(&res, l, 0, 0, 0, 0);
    expect_formula(&res, 8, 1, 0, 3, 0, 0);
    expect_bits(&res, 9, 0, 0, 0, 0);
    /* FORCE_LEVEL0: the view's base level whatever lod_i says */
    r.flags = TV_TEXF_FORCE_LEVEL0;
    fx_run(&F, &r, &res);
    expect_formula(&res, 6, 1, 0, 0, 0, 0);
    fx_free(&F);
}

static void test_fetch_defaults_out_of_range(void **state)
{
    (void)state;
    fx F;
    fx_init(&F);
    fx_put_tex(&F, 0, tv_format_from_name("R32G32B32_FLOAT"), TV_TEX_2D, 2, 2, 1, 1);
    fx_put_tex(&F, 1, tv_format_from_name("R8_UINT"), TV_TEX_2D, 2, 2, 1, 1);
    tv_tex_request r;
    tv_tex_result res;
    fx_req(&r, TV_TEX_OP_FETCH, TV_TEXTGT_2D, tv_tex_handle(0, 0), 1);
    r.icoord[0][0] = 5;
    fx_run(&F, &r, &res);
    expect_bits(&res, 0, 0, 0, 0, fx_u(1.0f));
    fx_req(&r, TV_TEX_OP_FETCH, TV_TEXTGT_2D, tv_tex_handle(1, 0), 1);
    r.icoord[1][0] = -3;
    fx_run(&F, &r, &res);
    expect_bits(&res, 0, 0, 0, 0, 1);
    fx_free(&F);
}

static void test_fetch_array_3d_buffer(void **state)
{
    (void)state;
    fx F;
    fx_init(&F);
    tv_tic t;
    fx_put_tex(&F, 0, tv_format_from_name("R32G32B32A32_FLOAT"), TV_TEX_2D_ARRAY, 4, 4, 3, 1);
    fx_fill_formula(&F, 0);
    fx_tic(&t, tv_format_from_name("R32G32B32A32_FLOAT"), TV_TEX_3D, 4, 4, 4, 1);
    fx_put_tic(&F, 1, &t);
    fx_fill_formula(&F, 1);
    tv_tex_request r;
    tv_tex_result res;
    fx_req(&r, TV_TEX_OP_FETCH, TV_TEXTGT_2D_ARRAY, tv_tex_handle(0, 0), 0xf);
    static const int layer[4] = {2, 3, -1, 1};
    for (unsigned l = 0; l < 4; l++) {
        r.icoord[0][l] = 1;
        r.icoord[1][l] = 2;
        r.icoord[3][l] = layer[l];
    }
    r.flags = TV_TEXF_OFFSETS; /* never applied to the layer */
    r.offset[2][3] = 5;
    fx_run(&F, &r, &res);
    expect_formula(&res, 0, 0, 2, 1, 2, 0);
    expect_bits(&res, 1, 0, 0, 0, 0);
    expect_bits(&res, 2, 0, 0, 0, 0);
    expect_formula(&res, 3, 0, 1, 1, 2, 0);
    /* 2D target on the array header: layer 0 */
    r.target = TV_TEXTGT_2D;
    fx_run(&F, &r, &res);
    expect_formula(&res, 0, 0, 0, 1, 2, 0);
    /* 3D */
    fx_req(&r, TV_TEX_OP_FETCH, TV_TEXTGT_3D, tv_tex_handle(1, 0), 0x3);
    r.icoord[0][0] = 3; r.icoord[1][0] = 1; r.icoord[2][0] = 2;
    r.icoord[0][1] = 3; r.icoord[1][1] = 1; r.icoord[2][1] = 4;
    fx_run(&F, &r, &res);
    expect_formula(&res, 0, 0, 0, 3, 1, 2);
    expect_bits(&res, 1, 0, 0, 0, 0);
    /* 1D buffer of 100 R32F texels */
    memset(&t, 0, sizeof t);
    tv_error e;
    assert_int_equal(tv_tic_from_format(&t, tv_format_from_name("R32_FLOAT"), &e), TV_OK);
    t.header_version = TV_TIC_ONE_D_BUFFER;
    t.texture_type = TV_TEX_1D_BUFFER;
    t.width_minus_one = 99;
    fx_put_tic(&F, 2, &t);
    fx_write_float(&F, 2, 0, 99, 0, 0, 42.0f, 0, 0, 0);
    fx_req(&r, TV_TEX_OP_FETCH, TV_TEXTGT_1D_BUFFER, tv_tex_handle(2, 0), 0x3);
    r.icoord[0][0] = 99;
    r.icoord[0][1] = 100;
    fx_run(&F, &r, &res);
    expect_bits(&res, 0, fx_u(42.0f), 0, 0, fx_u(1.0f));
    expect_bits(&res, 1, 0, 0, 0, fx_u(1.0f));
    fx_free(&F);
}

static void test_fetch_multisample_srgb(void **state)
{
    (void)state;
    fx F;
    fx_init(&F);
    tv_tic t;
    fx_tic(&t, tv_format_from_name("R32_FLOAT"), TV_TEX_2D, 4, 4, 1, 1);
    t.multi_sample_count = 2; /* 2X2: 4 samples */
    fx_put_tic(&F, 0, &t);
    for (unsigned smp = 0; smp < 4; smp++) {
        uint32_t v[4] = {fx_u(10.0f + smp), 0, 0, 0};
        fx_write_texel(&F, 0, 0, 3, 1, 0, smp, v);
    }
    tv_tex_request r;
    tv_tex_result res;
    fx_req(&r, TV_TEX_OP_FETCH, TV_TEXTGT_2D_MS, tv_tex_handle(0, 0), 0x3f);
    for (unsigned l = 0; l < 6; l++) {
        r.icoord[0][l] = 3;
        r.icoord[1][l] = 1;
        r.sample[l] = (int32_t)l - 1; /* -1 .. 4 */
        r.lod_i[l] = 7;               /* ignored for multisample targets */
    }
    fx_run(&F, &r, &res);
    assert_int_equal(res.v[0][0], 0);
    for (unsigned smp = 0; smp < 4; smp++)
        assert_true(fx_f(res.v[0][smp + 1]) == 10.0f + (float)smp);
    assert_int_equal(res.v[0][5], 0);
    /* sRGB is decoded on fetch (not alpha): 128 -> 0.2158605, 10 -> 0.0030353 */
    fx_tic(&t, tv_format_from_name("R8G8B8A8_SRGB"), TV_TEX_2D, 1, 1, 1, 1);
    fx_put_tic(&F, 1, &t);
    uint8_t px[4] = {128, 10, 255, 128};
    assert_true(tv_memory_write(F.mem, tv_tic_texel_address(&t, 0, 0, 0, 0, 0), px, 4));
    fx_req(&r, TV_TEX_OP_FETCH, TV_TEXTGT_2D, tv_tex_handle(1, 0), 1);
    fx_run(&F, &r, &res);
    double want[4] = {0.2158605, 0.0030353, 1.0, 128.0 / 255.0};
    fx_expect_near(&res, 0, want, 1e-6);
    fx_free(&F);
}

static void test_fetch_invalid(void **state)
{
    (void)state;
    fx F;
    fx_init(&F);
    fx_put_tex(&F, 0, tv_format_from_name("R32_FLOAT"), TV_TEX_2D, 2, 2, 1, 1);
    fx_write_float(&F, 0, 0, 0, 0, 0, 5.0f, 0, 0, 0);
    tv_tex_request r;
    tv_tex_result res;
    fx_req(&r, TV_TEX_OP_FETCH, TV_TEXTGT_2D, tv_tex_handle(0, 0), 0x3);
    r.handle[1] = tv_tex_handle(FX_POOL_ENTRIES, 0); /* past the header pool */
    fx_run(&F, &r, &res);
    assert_int_equal(res.invalid, 0x2);
    assert_true(fx_f(res.v[0][0]) == 5.0f);
    expect_bits(&res, 1, 0, 0, 0, 0);
    /* a fetch reads only the header: a sampler index past the pool does not matter, not
     * even in header-binding mode */
    r.handle[0] = tv_tex_handle(0, 4000);
    fx_run(&F, &r, &res);
    assert_true(fx_f(res.v[0][0]) == 5.0f);
    tv_tex_set_sampler_pool(F.unit, FX_SMP_POOL, 0);
    tv_tex_set_header_binding(F.unit, true);
    fx_put_tex(&F, 3, tv_format_from_name("R32_FLOAT"), TV_TEX_2D, 2, 2, 1, 1);
    fx_write_float(&F, 3, 0, 0, 0, 0, 6.0f, 0, 0, 0);
    r.handle[0] = tv_tex_handle(3, 0);
    fx_run(&F, &r, &res);
    assert_true(fx_f(res.v[0][0]) == 6.0f);
    tv_tex_set_header_binding(F.unit, false);
    tv_tex_set_sampler_pool(F.unit, FX_SMP_POOL, FX_POOL_ENTRIES - 1);
    r.handle[0] = tv_tex_handle(0, 0);
    /* 3D target on a 2D header: zeros, flagged */
    r.target = TV_TEXTGT_3D;
    fx_run(&F, &r, &res);
    assert_int_equal(res.invalid, 0x3);
    expect_bits(&res, 0, 0, 0, 0, 0);
    /* malformed requests */
    tv_error e;
    r.target = TV_TEXTGT_CUBE;
    assert_int_equal(tv_tex_execute(F.unit, &r, &res, &e), TV_ERR_ARG);
    assert_non_null(strstr(e.message, "FETCH"));
    r.target = TV_TEXTGT_COUNT;
    assert_int_equal(tv_tex_execute(F.unit, &r, &res, &e), TV_ERR_ARG);
    r.target = TV_TEXTGT_2D;
    r.op = TV_TEX_OP_COUNT;
    assert_int_equal(tv_tex_execute(F.unit, &r, &res, &e), TV_ERR_ARG);
    assert_int_equal(tv_tex_execute(F.unit, NULL, &res, &e), TV_ERR_ARG);
    fx_free(&F);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fetch_levels_offsets),
        cmocka_unit_test(test_fetch_defaults_out_of_range),
        cmocka_unit_test(test_fetch_array_3d_buffer),
        cmocka_unit_test(test_fetch_multisample_srgb),
        cmocka_unit_test(test_fetch_invalid),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
