/* Cube maps: face selection (Appendix C vectors, Z > Y > X ties), nearest per face, seamless
 * edges (off-face texels found by projecting the texel centre back onto the cube — an
 * independent construction of the edge table), corners (average of the other three),
 * non-seamless clamping, the derivative transform for LOD, and cube arrays. */
#include "sample_fixture.h"
#include "tex/tex_sampling.h"

#define N 4

/* Direction for face coordinates (s,t), from the sc/tc table of sampling.md §5.1. */
static void dir_for(unsigned face, double s, double t, double d[3])
{
    double sc = 2 * s - 1, tc = 2 * t - 1;
    switch (face) {
    case 0: d[0] = 1; d[1] = -tc; d[2] = -sc; break;
    case 1: d[0] = -1; d[1] = -tc; d[2] = sc; break;
    case 2: d[0] = sc; d[1] = 1; d[2] = tc; break;
    case 3: d[0] = sc; d[1] = -1; d[2] = -tc; break;
    case 4: d[0] = sc; d[1] = -tc; d[2] = 1; break;
    default: d[0] = -sc; d[1] = -tc; d[2] = -1; break;
    }
}

/* Reference face selection in double (ties Z > Y > X). */
static unsigned ref_face(const double d[3], double *s, double *t)
{
    double ax = fabs(d[0]), ay = fabs(d[1]), az = fabs(d[2]);
    unsigned f;
    double sc, tc, ma;
    if (az >= ax && az >= ay) {
        f = d[2] >= 0 ? 4 : 5; ma = az; sc = d[2] >= 0 ? d[0] : -d[0]; tc = -d[1];
    } else if (ay >= ax) {
        f = d[1] >= 0 ? 2 : 3; ma = ay; sc = d[0]; tc = d[1] >= 0 ? d[2] : -d[2];
    } else {
        f = d[0] >= 0 ? 0 : 1; ma = ax; sc = d[0] >= 0 ? -d[2] : d[2]; tc = -d[1];
    }
    *s = 0.5 * sc / ma + 0.5;
    *t = 0.5 * tc / ma + 0.5;
    return f;
}

/* Value of texel (i,j) of `face`, following off-face texels onto the neighbour face. */
static double cube_texel(unsigned face, int i, int j, unsigned c)
{
    if (i >= 0 && i < N && j >= 0 && j < N)
        return fx_val(0, face, i, j, 0, c);
    double d[3], s, t;
    dir_for(face, (i + 0.5) / N, (j + 0.5) / N, d);
    unsigned f2 = ref_face(d, &s, &t);
    int i2 = (int)floor(s * N), j2 = (int)floor(t * N);
    i2 = i2 < 0 ? 0 : i2 > N - 1 ? N - 1 : i2;
    j2 = j2 < 0 ? 0 : j2 > N - 1 ? N - 1 : j2;
    return fx_val(0, f2, i2, j2, 0, c);
}

static void setup(fx *F, bool seamless)
{
    fx_put_tex(F, 0, tv_format_from_name("R32G32B32A32_FLOAT"), TV_TEX_CUBE, N, N, 1, 1);
    fx_fill_formula(F, 0);
    tv_tsc s;
    fx_tsc(&s, TV_MAG_LINEAR, TV_MIN_LINEAR, TV_MIP_NONE, TV_WRAP_CLAMP_TO_EDGE);
    s.cubemap_interface_filtering = seamless ? 2 : 0;
    fx_put_tsc(F, 0, &s);
    tv_tsc p;
    fx_tsc(&p, TV_MAG_POINT, TV_MIN_POINT, TV_MIP_NONE, TV_WRAP_REPEAT);
    fx_put_tsc(F, 1, &p);
}

static void test_cube_select(void **state)
{
    (void)state;
    tex_cube_coord c;
    tex_cube_select(1.0f, 0.5f, -0.25f, &c);
    assert_int_equal(c.face, 0);
    assert_true(fabsf(c.s - 0.625f) < 1e-7f && fabsf(c.t - 0.25f) < 1e-7f);
    tex_cube_select(-0.3f, -0.9f, 0.6f, &c);
    assert_int_equal(c.face, 3);
    assert_true(fabsf(c.s - 1.0f / 3) < 1e-6f && fabsf(c.t - 1.0f / 6) < 1e-6f);
    tex_cube_select(1, 1, 1, &c);
    assert_int_equal(c.face, 4);
    tex_cube_select(1, -1, 0.5f, &c);
    assert_int_equal(c.face, 3);
    tex_cube_select(-2, 0, -2, &c);
    assert_int_equal(c.face, 5);
}

static void test_cube_nearest_faces(void **state)
{
    (void)state;
    fx F;
    fx_init(&F);
    setup(&F, true);
    tv_tex_request r;
    tv_tex_result res;
    for (unsigned face = 0; face < 6; face++) {
        fx_req(&r, TV_TEX_OP_SAMPLE_LZ, TV_TEXTGT_CUBE, tv_tex_handle(0, 1), 0xffff);
        for (unsigned l = 0; l < 16; l++) {
            double d[3];
            dir_for(face, ((l % 4) + 0.3) / N, ((l / 4) + 0.6) / N, d);
            for (int a = 0; a < 3; a++)
                r.coord[a][l] = (float)(d[a] * 3.0);
        }
        fx_run(&F, &r, &res);
        for (unsigned l = 0; l < 16; l++) {
            double ref[4];
            for (unsigned c = 0; c < 4; c++)
                ref[c] = fx_val(0, face, (int)(l % 4), (int)(l / 4), 0, c);
            fx_expect_near(&res, l, ref, 0.0);
        }
    }
    fx_free(&F);
}

/* Bilinear at (s,t) on `face`: expected from the projected neighbours and corner rule. */
static void expect_bilinear(const tv_tex_result *res, unsigned lane, unsigned face, double s,
                            double t, bool seamless)
{
    double x = s * N - 0.5, y = t * N - 0.5;
    int i0 = (int)floor(x), j0 = (int)floor(y);
    double a = x - i0, b = y - j0;
    double w[4] = {(1 - a) * (1 - b), a * (1 - b), (1 - a) * b, a * b};
    double ref[4] = {0, 0, 0, 0};
    for (unsigned c = 0; c < 4; c++) {
        double v[4];
        int corner = -1;
        for (int k = 0; k < 4; k++) {
            int i = i0 + (k & 1), j = j0 + (k >> 1);
            bool oi = i < 0 || i >= N, oj = j < 0 || j >= N;
            if (!seamless) {
                i = i < 0 ? 0 : i >= N ? N - 1 : i;
                j = j < 0 ? 0 : j >= N ? N - 1 : j;
                v[k] = fx_val(0, face, i, j, 0, c);
            } else if (oi && oj) {
                corner = k;
                v[k] = 0;
            } else {
                v[k] = cube_texel(face, i, j, c);
            }
        }
        if (corner >= 0) {
            double sum = 0;
            for (int k = 0; k < 4; k++)
                if (k != corner)
                    sum += v[k];
            v[corner] = sum / 3.0;
        }
        for (int k = 0; k < 4; k++)
            ref[c] += w[k] * v[k];
    }
    fx_expect_near(res, lane, ref, 2e-6);
}

static void run_edges(bool seamless)
{
    fx F;
    fx_init(&F);
    setup(&F, seamless);
    /* face coordinates near every edge and corner, and one interior point */
    static const double pts[9][2] = {{0.05, 0.4}, {0.97, 0.6}, {0.4, 0.02}, {0.55, 0.93},
                                     {0.04, 0.06}, {0.95, 0.03}, {0.02, 0.98}, {0.99, 0.96},
                                     {0.45, 0.55}};
    for (unsigned face = 0; face < 6; face++) {
        tv_tex_request r;
        tv_tex_result res;
        fx_req(&r, TV_TEX_OP_SAMPLE_LZ, TV_TEXTGT_CUBE, tv_tex_handle(0, 0), 0x1ff);
        for (unsigned l = 0; l < 9; l++) {
            double d[3];
            dir_for(face, pts[l][0], pts[l][1], d);
            for (int a = 0; a < 3; a++)
                r.coord[a][l] = (float)d[a];
        }
        fx_run(&F, &r, &res);
        for (unsigned l = 0; l < 9; l++) {
            double d[3], s, t;
            for (int a = 0; a < 3; a++)
                d[a] = r.coord[a][l];
            unsigned f2 = ref_face(d, &s, &t);
            assert_int_equal(f2, face);
            expect_bilinear(&res, l, face, s, t, seamless);
        }
    }
    fx_free(&F);
}

static void test_cube_seamless_edges_corners(void **state)
{
    (void)state;
    run_edges(true);
}

static void test_cube_non_seamless(void **state)
{
    (void)state;
    run_edges(false);
}

static void test_cube_lod(void **state)
{
    (void)state;
    fx F;
    fx_init(&F);
    fx_put_tex(&F, 0, tv_format_from_name("R32G32B32A32_FLOAT"), TV_TEX_CUBE, 64, 64, 1, 7);
    tv_tsc s;
    fx_tsc(&s, TV_MAG_LINEAR, TV_MIN_LINEAR, TV_MIP_LINEAR, TV_WRAP_CLAMP_TO_EDGE);
    fx_put_tsc(&F, 0, &s);
    tv_tex_request r;
    tv_tex_result res;
    fx_req(&r, TV_TEX_OP_QUERY_LOD, TV_TEXTGT_CUBE, tv_tex_handle(0, 0), 0xf);
    /* +X face centre; moving rz by -1/8 per pixel in x: ds = 0.5 * (1/8) = 1/16 -> rho 4.
     * moving ry by -1/8 per pixel in y: dt = 1/16. Direction scaled by 2 changes nothing. */
    float dirs[4][3] = {{1, 0, 0}, {1, 0, -0.125f}, {1, -0.125f, 0}, {1, -0.125f, -0.125f}};
    for (unsigned l = 0; l < 4; l++)
        for (int a = 0; a < 3; a++)
            r.coord[a][l] = 2.0f * dirs[l][a];
    fx_run(&F, &r, &res);
    assert_true(fabsf(fx_f(res.v[1][0]) - 2.0f) < 1e-5f);
    /* -Z face: the same construction with the -Z orientation (sc = -rx, tc = -ry) */
    float dz[4][3] = {{0, 0, -1}, {-0.125f, 0, -1}, {0, -0.125f, -1}, {-0.125f, -0.125f, -1}};
    for (unsigned l = 0; l < 4; l++)
        for (int a = 0; a < 3; a++)
            r.coord[a][l] = dz[l][a];
    fx_run(&F, &r, &res);
    assert_true(fabsf(fx_f(res.v[1][0]) - 2.0f) < 1e-5f);
    fx_free(&F);
}

static void test_cube_array(void **state)
{
    (void)state;
    fx F;
    fx_init(&F);
    fx_put_tex(&F, 0, tv_format_from_name("R32G32B32A32_FLOAT"), TV_TEX_CUBE_ARRAY, N, N, 3, 1);
    fx_fill_formula(&F, 0);
    tv_tsc p;
    fx_tsc(&p, TV_MAG_POINT, TV_MIN_POINT, TV_MIP_NONE, TV_WRAP_REPEAT);
    fx_put_tsc(&F, 0, &p);
    tv_tex_request r;
    tv_tex_result res;
    fx_req(&r, TV_TEX_OP_SAMPLE_LZ, TV_TEXTGT_CUBE_ARRAY, tv_tex_handle(0, 0), 0xf);
    static const float layer[4] = {1.2f, 2.5f, -3.0f, 9.0f};   /* -> cubes 1, 2, 0, 2 */
    static const unsigned cube[4] = {1, 2, 0, 2};
    for (unsigned l = 0; l < 4; l++) {
        double d[3];
        dir_for(3, 0.6, 0.1, d); /* -Y, texel (2, 0) */
        for (int a = 0; a < 3; a++)
            r.coord[a][l] = (float)d[a];
        r.coord[3][l] = layer[l];
    }
    fx_run(&F, &r, &res);
    for (unsigned l = 0; l < 4; l++) {
        double ref[4];
        for (unsigned c = 0; c < 4; c++)
            ref[c] = fx_val(0, 6 * cube[l] + 3, 2, 0, 0, c);
        fx_expect_near(&res, l, ref, 0.0);
    }
    /* a CUBE target on a cube-array header addresses the first cube */
    r.target = TV_TEXTGT_CUBE;
    fx_run(&F, &r, &res);
    assert_int_equal(res.invalid, 0);
    double ref[4];
    for (unsigned c = 0; c < 4; c++)
        ref[c] = fx_val(0, 3, 2, 0, 0, c);
    fx_expect_near(&res, 0, ref, 0.0);
    fx_free(&F);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cube_select),
        cmocka_unit_test(test_cube_nearest_faces),
        cmocka_unit_test(test_cube_seamless_edges_corners),
        cmocka_unit_test(test_cube_non_seamless),
        cmocka_unit_test(test_cube_lod),
        cmocka_unit_test(test_cube_array),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
