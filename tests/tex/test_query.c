/* Queries per header type: dimensions of a view level (out-of-range level -> 0 sizes and
 * the level count), level count, sample count, standard sample positions, texture type;
 * invalid handles; header-binding mode. Expected values from nvidia-texture.md §5.4 and
 * sampling.md §8.4–8.5. */
#include "sample_fixture.h"

static void expect4(const tv_tex_result *res, unsigned lane, uint32_t a, uint32_t b,
                    uint32_t c, uint32_t d)
{
    assert_int_equal(res->v[0][lane], a);
    assert_int_equal(res->v[1][lane], b);
    assert_int_equal(res->v[2][lane], c);
    assert_int_equal(res->v[3][lane], d);
}

static void query(fx *F, unsigned op, uint32_t handle, const int32_t *arg, unsigned n,
                  tv_tex_result *res)
{
    tv_tex_request r;
    fx_req(&r, op, TV_TEXTGT_2D, handle, (1u << n) - 1u);
    for (unsigned l = 0; l < n; l++) {
        r.lod_i[l] = arg[l];
        r.sample[l] = arg[l];
    }
    fx_run(F, &r, res);
}

static void test_query_dims_per_type(void **state)
{
    (void)state;
    fx F;
    fx_init(&F);
    tv_format f = tv_format_from_name("R8G8B8A8_UNORM");
    struct {
        unsigned type, w, h, d, levels;
        uint32_t l1[4]; /* expected at level 1 */
    } rows[] = {
        {TV_TEX_1D, 32, 1, 1, 6, {16, 0, 0, 6}},
        {TV_TEX_1D_ARRAY, 32, 1, 5, 3, {16, 5, 0, 3}},
        {TV_TEX_2D, 32, 16, 1, 4, {16, 8, 0, 4}},
        {TV_TEX_2D_ARRAY, 32, 16, 7, 2, {16, 8, 7, 2}},
        {TV_TEX_3D, 32, 16, 16, 3, {16, 8, 8, 3}},
        {TV_TEX_CUBE, 32, 32, 1, 3, {16, 16, 0, 3}},
        {TV_TEX_CUBE_ARRAY, 32, 32, 2, 3, {16, 16, 12, 3}},
        {TV_TEX_2D_NO_MIPMAP, 30, 20, 1, 1, {0, 0, 0, 1}},
    };
    unsigned n = sizeof rows / sizeof rows[0];
    for (unsigned i = 0; i < n; i++) {
        tv_tic t;
        fx_tic(&t, f, rows[i].type, rows[i].w, rows[i].h, rows[i].d, rows[i].levels);
        fx_put_tic(&F, i, &t);
    }
    tv_tsc s;
    fx_tsc(&s, TV_MAG_POINT, TV_MIN_POINT, TV_MIP_POINT, TV_WRAP_REPEAT);
    fx_put_tsc(&F, 0, &s);
    for (unsigned i = 0; i < n; i++) {
        tv_tex_result res;
        int32_t lods[4] = {0, 1, 40, -1};
        query(&F, TV_TEX_OP_QUERY_DIM, tv_tex_handle(i, 0), lods, 4, &res);
        uint32_t L = rows[i].levels;
        uint32_t h0 = rows[i].type == TV_TEX_1D ? 0
                    : rows[i].type == TV_TEX_1D_ARRAY ? rows[i].d : rows[i].h;
        uint32_t z0 = rows[i].type == TV_TEX_3D ? rows[i].d
                    : rows[i].type == TV_TEX_2D_ARRAY ? rows[i].d
                    : rows[i].type == TV_TEX_CUBE_ARRAY ? 6 * rows[i].d : 0;
        expect4(&res, 0, rows[i].w, h0, z0, L);
        expect4(&res, 1, rows[i].l1[0], rows[i].l1[1], rows[i].l1[2], rows[i].l1[3]);
        expect4(&res, 2, 0, 0, 0, L);
        expect4(&res, 3, 0, 0, 0, L);
        /* type query: (type, 0, samples, 0) */
        query(&F, TV_TEX_OP_QUERY_TYPE, tv_tex_handle(i, 0), lods, 1, &res);
        expect4(&res, 0, rows[i].type, 0, 1, 0);
    }
    /* the view: levels 1..2 of a 4-level 2D texture -> 2 levels, level 0 = resource level 1 */
    tv_tic t;
    fx_tic(&t, f, TV_TEX_2D, 32, 16, 1, 4);
    t.res_view_min_mip_level = 1;
    t.res_view_max_mip_level = 2;
    fx_put_tic(&F, 20, &t);
    tv_tex_result res;
    int32_t lods[3] = {0, 1, 2};
    query(&F, TV_TEX_OP_QUERY_DIM, tv_tex_handle(20, 0), lods, 3, &res);
    expect4(&res, 0, 16, 8, 0, 2);
    expect4(&res, 1, 8, 4, 0, 2);
    expect4(&res, 2, 0, 0, 0, 2);
    fx_free(&F);
}

static void test_query_samples_positions(void **state)
{
    (void)state;
    fx F;
    fx_init(&F);
    static const struct { uint8_t code; unsigned count; } modes[5] = {
        {0, 1}, {1, 2}, {2, 4}, {3, 8}, {6, 16}};
    /* D3D standard positions in 1/16 pixel from the centre (sampling.md §8.4) */
    static const int pos[5][16][2] = {
        {{0, 0}},
        {{4, 4}, {-4, -4}},
        {{-2, -6}, {6, -2}, {-6, 2}, {2, 6}},
        {{1, -3}, {-1, 3}, {5, 1}, {-3, -5}, {-5, 5}, {-7, -1}, {3, 7}, {7, -7}},
        {{1, 1}, {-1, -3}, {-3, 2}, {4, -1}, {-5, -2}, {2, 5}, {5, 3}, {3, -5},
         {-2, 6}, {0, -7}, {-4, -6}, {-6, 4}, {-8, 0}, {7, -4}, {6, 7}, {-7, -8}},
    };
    tv_tsc s;
    fx_tsc(&s, TV_MAG_POINT, TV_MIN_POINT, TV_MIP_POINT, TV_WRAP_REPEAT);
    fx_put_tsc(&F, 0, &s);
    for (unsigned m = 0; m < 5; m++) {
        tv_tic t;
        fx_tic(&t, tv_format_from_name("R8G8B8A8_UNORM"), TV_TEX_2D, 4, 4, 1, 1);
        t.multi_sample_count = modes[m].code;
        fx_put_tic(&F, m, &t);
        tv_tex_result res;
        int32_t idx[18];
        for (int i = 0; i < 18; i++)
            idx[i] = i - 1;
        query(&F, TV_TEX_OP_QUERY_SAMPLES, tv_tex_handle(m, 0), idx, 1, &res);
        expect4(&res, 0, modes[m].count, 0, 0, 0);
        query(&F, TV_TEX_OP_QUERY_SAMPLE_POS, tv_tex_handle(m, 0), idx, 18, &res);
        expect4(&res, 0, 0, 0, 0, 0); /* index -1 */
        for (unsigned k = 0; k < 17; k++) {
            if (k < modes[m].count) {
                assert_true(fx_f(res.v[0][k + 1]) == 0.5f + pos[m][k][0] / 16.0f);
                assert_true(fx_f(res.v[1][k + 1]) == 0.5f + pos[m][k][1] / 16.0f);
                float x, y;
                assert_true(tv_tex_sample_position(modes[m].count, k, &x, &y));
                assert_true(x == 0.5f + pos[m][k][0] / 16.0f);
            } else {
                expect4(&res, k + 1, 0, 0, 0, 0);
            }
        }
        query(&F, TV_TEX_OP_QUERY_TYPE, tv_tex_handle(m, 0), idx, 1, &res);
        expect4(&res, 0, TV_TEX_2D, 0, modes[m].count, 0);
    }
    float x, y;
    assert_false(tv_tex_sample_position(3, 0, &x, &y));
    assert_false(tv_tex_sample_position(4, 4, &x, &y));
    fx_free(&F);
}

static void test_query_invalid_and_binding(void **state)
{
    (void)state;
    fx F;
    fx_init(&F);
    fx_put_tex(&F, 40, tv_format_from_name("R8G8B8A8_UNORM"), TV_TEX_2D, 8, 4, 1, 1);
    tv_tsc s;
    fx_tsc(&s, TV_MAG_POINT, TV_MIN_POINT, TV_MIP_POINT, TV_WRAP_REPEAT);
    fx_put_tsc(&F, 2, &s);
    tv_tex_request r;
    tv_tex_result res;
    fx_req(&r, TV_TEX_OP_QUERY_DIM, TV_TEXTGT_2D, tv_tex_handle(40, 2), 0xf);
    r.handle[1] = tv_tex_handle(FX_POOL_ENTRIES, 2);     /* header past the pool */
    r.handle[2] = tv_tex_handle(40, FX_POOL_ENTRIES);    /* sampler past the pool */
    r.handle[3] = tv_tex_handle(40, FX_POOL_ENTRIES - 1);
    fx_run(&F, &r, &res);
    assert_int_equal(res.invalid, 0x6);
    expect4(&res, 0, 8, 4, 0, 1);
    expect4(&res, 1, 0, 0, 0, 0);
    expect4(&res, 2, 0, 0, 0, 0);
    expect4(&res, 3, 8, 4, 0, 1);
    /* header binding: the sampler index is the header index (40 < 64), bits 31:20 ignored */
    tv_tex_set_header_binding(F.unit, true);
    r.handle[2] = tv_tex_handle(40, FX_POOL_ENTRIES + 5);
    fx_run(&F, &r, &res);
    assert_int_equal(res.invalid, 0x2);
    expect4(&res, 2, 8, 4, 0, 1);
    /* sampling through header binding uses sampler 40 */
    tv_tsc s40;
    fx_tsc(&s40, TV_MAG_POINT, TV_MIN_POINT, TV_MIP_NONE, TV_WRAP_BORDER);
    s40.border_color[0] = fx_u(1.0f);
    fx_put_tsc(&F, 40, &s40);
    fx_req(&r, TV_TEX_OP_SAMPLE_LZ, TV_TEXTGT_2D, tv_tex_handle(40, 2), 1);
    r.coord[0][0] = -1.0f; /* border: R = 1 */
    fx_run(&F, &r, &res);
    assert_true(fx_f(res.v[0][0]) == 1.0f);
    fx_free(&F);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_query_dims_per_type),
        cmocka_unit_test(test_query_samples_positions),
        cmocka_unit_test(test_query_invalid_and_binding),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
