/* Gather: Appendix C vector, order (i0,j1) (i1,j1) (i1,j0) (i0,j0), component chosen after
 * the view swizzle, base level whatever the filters and LOD, single offset, the 4-offset
 * form, compare gather, integer formats raw, and a cube corner (average of three). */
#include "sample_fixture.h"

static void gather_sampler(fx *F, unsigned wrap)
{
    tv_tsc s;
    fx_tsc(&s, TV_MAG_POINT, TV_MIN_POINT, TV_MIP_POINT, wrap);
    fx_put_tsc(F, 0, &s);
}

static void test_gather_appendix_c(void **state)
{
    (void)state;
    fx F;
    fx_init(&F);
    fx_put_tex(&F, 0, tv_format_from_name("R32_FLOAT"), TV_TEX_2D, 2, 2, 1, 1);
    for (unsigned row = 0; row < 2; row++)
        for (unsigned col = 0; col < 2; col++)
            fx_write_float(&F, 0, 0, col, row, 0, (float)(10 * row + col), 0, 0, 0);
    gather_sampler(&F, TV_WRAP_CLAMP_TO_EDGE);
    tv_tex_request r;
    tv_tex_result res;
    fx_req(&r, TV_TEX_OP_GATHER, TV_TEXTGT_2D, tv_tex_handle(0, 0), 1);
    r.coord[0][0] = r.coord[1][0] = 0.5f;
    fx_run(&F, &r, &res);
    assert_true(fx_f(res.v[0][0]) == 10.0f);
    assert_true(fx_f(res.v[1][0]) == 11.0f);
    assert_true(fx_f(res.v[2][0]) == 1.0f);
    assert_true(fx_f(res.v[3][0]) == 0.0f);
    fx_free(&F);
}

/* Expected gather of component c of the formula texture (size n, level 0, REPEAT). */
static void expect_gather(const tv_tex_result *res, unsigned lane, int i0, int j0, unsigned c,
                          int n, const int off4[4][2])
{
    static const int di[4] = {0, 1, 1, 0}, dj[4] = {1, 1, 0, 0};
    for (unsigned k = 0; k < 4; k++) {
        int i = off4 ? i0 + off4[k][0] : i0 + di[k];
        int j = off4 ? j0 + off4[k][1] : j0 + dj[k];
        i = ((i % n) + n) % n;
        j = ((j % n) + n) % n;
        double want = fx_val(0, 0, i, j, 0, c);
        assert_true(fx_f(res->v[k][lane]) == (float)want);
    }
}

static void test_gather_components_offsets(void **state)
{
    (void)state;
    fx F;
    fx_init(&F);
    fx_put_tex(&F, 0, tv_format_from_name("R32G32B32A32_FLOAT"), TV_TEX_2D, 8, 8, 1, 4);
    fx_fill_formula(&F, 0);
    gather_sampler(&F, TV_WRAP_REPEAT);
    tv_tex_request r;
    tv_tex_result res;
    for (unsigned comp = 0; comp < 4; comp++) {
        fx_req(&r, TV_TEX_OP_GATHER, TV_TEXTGT_2D, tv_tex_handle(0, 0), 0xf);
        r.component = (uint8_t)comp;
        /* u = 8 * 0.3 = 2.4 -> i0 = 1; v = 8 * 0.9 = 7.2 -> j0 = 6 */
        for (unsigned l = 0; l < 4; l++) {
            r.coord[0][l] = 0.3f;
            r.coord[1][l] = 0.9f;
        }
        r.flags = TV_TEXF_OFFSETS;
        r.offset[0][1] = 1;   /* lane 1: (+1, -2) */
        r.offset[1][1] = -2;
        r.offset[0][2] = -8;  /* lane 2: (-8, +7) */
        r.offset[1][2] = 7;
        fx_run(&F, &r, &res);
        expect_gather(&res, 0, 1, 6, comp, 8, NULL);
        expect_gather(&res, 1, 2, 4, comp, 8, NULL);
        expect_gather(&res, 2, -7, 13, comp, 8, NULL);
        /* 4-offset form on lane 3 */
        static const int off4[4][2] = {{-1, 0}, {3, 3}, {0, -4}, {7, -8}};
        r.flags = TV_TEXF_GATHER_4OFFSETS;
        for (unsigned k = 0; k < 4; k++) {
            r.offset4[k][0][3] = (int8_t)off4[k][0];
            r.offset4[k][1][3] = (int8_t)off4[k][1];
        }
        fx_run(&F, &r, &res);
        expect_gather(&res, 3, 1, 6, comp, 8, off4);
        expect_gather(&res, 0, 1, 6, comp, 8, (const int(*)[2])(const int[4][2]){{0}});
    }
    /* LOD and bias are ignored: a big explicit LOD still gathers the base level */
    fx_req(&r, TV_TEX_OP_GATHER, TV_TEXTGT_2D, tv_tex_handle(0, 0), 1);
    r.coord[0][0] = 0.3f;
    r.coord[1][0] = 0.9f;
    r.lod[0] = 3.0f;
    fx_run(&F, &r, &res);
    expect_gather(&res, 0, 1, 6, 0, 8, NULL);
    fx_free(&F);
}

static void test_gather_swizzle_and_int(void **state)
{
    (void)state;
    fx F;
    fx_init(&F);
    fx_put_tex(&F, 0, tv_format_from_name("R32G32_FLOAT"), TV_TEX_2D, 2, 2, 1, 1);
    fx_put_tex(&F, 1, tv_format_from_name("R32_UINT"), TV_TEX_2D, 2, 2, 1, 1);
    uint32_t big[4] = {0xfffffff0u, 0, 0, 0};
    fx_write_texel(&F, 1, 0, 0, 1, 0, 0, big);
    gather_sampler(&F, TV_WRAP_CLAMP_TO_EDGE);
    tv_tex_request r;
    tv_tex_result res;
    fx_req(&r, TV_TEX_OP_GATHER, TV_TEXTGT_2D, tv_tex_handle(0, 0), 1);
    r.coord[0][0] = r.coord[1][0] = 0.5f;
    r.component = 2; /* B of an RG format: 0 */
    fx_run(&F, &r, &res);
    for (unsigned k = 0; k < 4; k++)
        assert_true(fx_f(res.v[k][0]) == 0.0f);
    r.component = 3; /* A: 1.0 */
    fx_run(&F, &r, &res);
    for (unsigned k = 0; k < 4; k++)
        assert_true(fx_f(res.v[k][0]) == 1.0f);
    /* integers come back raw: texel (0,1) is result.x */
    fx_req(&r, TV_TEX_OP_GATHER, TV_TEXTGT_2D, tv_tex_handle(1, 0), 1);
    r.coord[0][0] = r.coord[1][0] = 0.5f;
    fx_run(&F, &r, &res);
    assert_int_equal(res.v[0][0], 0xfffffff0u);
    assert_int_equal(res.v[1][0], 0);
    fx_free(&F);
}

static void test_gather_compare(void **state)
{
    (void)state;
    fx F;
    fx_init(&F);
    fx_put_tex(&F, 0, tv_format_from_name("Z32_FLOAT"), TV_TEX_2D, 2, 2, 1, 1);
    float d[2][2] = {{0.1f, 0.2f}, {0.3f, 0.4f}}; /* [row][col] */
    for (unsigned y = 0; y < 2; y++)
        for (unsigned x = 0; x < 2; x++)
            fx_write_float(&F, 0, 0, x, y, 0, d[y][x], 0, 0, 0);
    tv_tsc s;
    fx_tsc(&s, TV_MAG_LINEAR, TV_MIN_LINEAR, TV_MIP_NONE, TV_WRAP_CLAMP_TO_EDGE);
    s.depth_compare = true;
    s.depth_compare_func = TV_CMP_GREATER;
    fx_put_tsc(&F, 0, &s);
    tv_tex_request r;
    tv_tex_result res;
    fx_req(&r, TV_TEX_OP_GATHER, TV_TEXTGT_2D, tv_tex_handle(0, 0), 1);
    r.flags = TV_TEXF_COMPARE;
    r.coord[0][0] = r.coord[1][0] = 0.5f;
    r.ref[0] = 0.25f; /* > 0.1, 0.2; not > 0.3, 0.4 */
    fx_run(&F, &r, &res);
    /* order: (i0,j1)=0.3 (i1,j1)=0.4 (i1,j0)=0.2 (i0,j0)=0.1 */
    assert_true(fx_f(res.v[0][0]) == 0.0f);
    assert_true(fx_f(res.v[1][0]) == 0.0f);
    assert_true(fx_f(res.v[2][0]) == 1.0f);
    assert_true(fx_f(res.v[3][0]) == 1.0f);
    fx_free(&F);
}

static void test_gather_cube_corner(void **state)
{
    (void)state;
    fx F;
    fx_init(&F);
    tv_tic t;
    fx_tic(&t, tv_format_from_name("R32_FLOAT"), TV_TEX_CUBE, 2, 2, 1, 1);
    fx_put_tic(&F, 0, &t);
    /* +Z face texel (0,0) = 1; its neighbours across the top-left corner: -X (M=1, 0) = 2
     * (i = -1 -> -X (M, j)), +Y (0, M) = 4 (j = -1 -> +Y (i, M)); others 0. */
    fx_write_float(&F, 0, 0, 0, 0, 4, 1.0f, 0, 0, 0);
    fx_write_float(&F, 0, 0, 1, 0, 1, 2.0f, 0, 0, 0);
    fx_write_float(&F, 0, 0, 0, 1, 2, 4.0f, 0, 0, 0);
    gather_sampler(&F, TV_WRAP_CLAMP_TO_EDGE);
    tv_tex_request r;
    tv_tex_result res;
    fx_req(&r, TV_TEX_OP_GATHER, TV_TEXTGT_CUBE, tv_tex_handle(0, 0), 1);
    /* +Z at face (s,t) = (0.1, 0.1): u = v = 0.2 -> i0 = j0 = -1 */
    r.coord[0][0] = 2 * 0.1f - 1;  /* sc = rx */
    r.coord[1][0] = -(2 * 0.1f - 1); /* tc = -ry */
    r.coord[2][0] = 1.0f;
    fx_run(&F, &r, &res);
    /* x = (i0,j1) = (-1,0) -> -X = 2; y = (i1,j1) = (0,0) = 1; z = (i1,j0) = (0,-1) -> +Y = 4;
     * w = corner = (2 + 1 + 4) / 3 */
    assert_true(fx_f(res.v[0][0]) == 2.0f);
    assert_true(fx_f(res.v[1][0]) == 1.0f);
    assert_true(fx_f(res.v[2][0]) == 4.0f);
    assert_true(fabsf(fx_f(res.v[3][0]) - 7.0f / 3) < 1e-6f);
    fx_free(&F);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gather_appendix_c),
        cmocka_unit_test(test_gather_components_offsets),
        cmocka_unit_test(test_gather_swizzle_and_int),
        cmocka_unit_test(test_gather_compare),
        cmocka_unit_test(test_gather_cube_corner),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
