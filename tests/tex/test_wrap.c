/* Every TSC wrap mode x nearest/linear x each non-cube target, in both precision modes
 * (the hardware one on coordinates where its rounded weights are exact), against the
 * float64 reference of sample_fixture.h; plus sampling.md Appendix C wrap vectors end to
 * end. */
#include "sample_fixture.h"

enum { IDX_1D, IDX_2D, IDX_3D, IDX_1DA, IDX_2DA, IDX_RECT, IDX_CUBE, IDX_COUNT };

typedef struct case_tex {
    unsigned type, target, w, h, d, dims;
    float layer_coord;
    unsigned layer;
    bool unnorm;
} case_tex;

static const case_tex cases[IDX_COUNT] = {
    [IDX_1D] = {TV_TEX_1D, TV_TEXTGT_1D, 8, 1, 1, 1, 0.0f, 0, false},
    [IDX_2D] = {TV_TEX_2D, TV_TEXTGT_2D, 8, 4, 1, 2, 0.0f, 0, false},
    [IDX_3D] = {TV_TEX_3D, TV_TEXTGT_3D, 4, 4, 4, 3, 0.0f, 0, false},
    [IDX_1DA] = {TV_TEX_1D_ARRAY, TV_TEXTGT_1D_ARRAY, 8, 1, 3, 1, 1.2f, 1, false},
    [IDX_2DA] = {TV_TEX_2D_ARRAY, TV_TEXTGT_2D_ARRAY, 8, 4, 3, 2, 2.0f, 2, false},
    [IDX_RECT] = {TV_TEX_2D_NO_MIPMAP, TV_TEXTGT_2D_RECT, 8, 4, 1, 2, 0.0f, 0, true},
    /* non-seamless cube: face +Y (layer 2) sampled as a 2D image with the wrap modes */
    [IDX_CUBE] = {TV_TEX_CUBE, TV_TEXTGT_CUBE, 4, 4, 1, 2, 0.0f, 2, false},
};

/* Direction hitting face +Y at face coordinates (s, t): sc = +rx, tc = +rz, ry = 1. */
static void cube_dir(float s, float t, float d[3])
{
    d[0] = 2 * s - 1;
    d[1] = 1.0f;
    d[2] = 2 * t - 1;
}

static const float border[4] = {0.25f, 0.5f, 0.75f, 1.0f};

static void setup_textures(fx *F)
{
    tv_format f = tv_format_from_name("R32G32B32A32_FLOAT");
    for (unsigned i = 0; i < IDX_COUNT; i++) {
        tv_tic t;
        fx_tic(&t, f, cases[i].type, cases[i].w, cases[i].h, cases[i].d, 1);
        t.normalized_coords = !cases[i].unnorm;
        fx_put_tic(F, i, &t);
        fx_fill_formula(F, i);
    }
}

static float coord(const case_tex *ct, unsigned k, unsigned axis, unsigned size, bool hw)
{
    float s = -1.7f + 0.1371f * (float)k + 0.0517f * (float)axis;
    if (ct->unnorm) /* texel units */
        s *= (float)size;
    if (ct->target == TV_TEXTGT_CUBE) /* face coordinates stay in [0,1] */
        s = 0.01f + 0.98f * (float)((k * 37u + axis * 11u) % 64u) / 63.0f;
    if (hw) { /* texel-space coordinates on the 1/16 grid (3D: 1/2): the hardware's 1/256
               * weights and the products of its split (docs/texture-unit-precision.md) are
               * then exact, so its filter is the exact one */
        float scale = ct->unnorm ? 1.0f : (float)size;
        float grid = ct->dims == 3 ? 2.0f : 16.0f;
        s = roundf(s * scale * grid) / (scale * grid);
    }
    return s;
}

static void run_all(fx *F, bool hw)
{
    tv_tex_set_precision(F->unit, hw ? TV_TEX_PRECISION_HARDWARE : TV_TEX_PRECISION_REFERENCE);
    unsigned checked = 0;
    for (unsigned ci = 0; ci < IDX_COUNT; ci++) {
        const case_tex *ct = &cases[ci];
        for (unsigned mode = 0; mode < 8; mode++)
            for (unsigned lin = 0; lin < 2; lin++) {
                unsigned filt = lin ? TV_MAG_LINEAR : TV_MAG_POINT;
                tv_tsc s;
                fx_tsc(&s, filt, filt, TV_MIP_NONE, mode);
                s.cubemap_interface_filtering = 0;
                for (int c = 0; c < 4; c++)
                    s.border_color[c] = fx_u(border[c]);
                fx_put_tsc(F, 1, &s);
                for (unsigned batch = 0; batch < 2; batch++) {
                    tv_tex_request r;
                    tv_tex_result res;
                    fx_req(&r, TV_TEX_OP_SAMPLE_LZ, ct->target, tv_tex_handle(ci, 1), ~0u);
                    unsigned size[3] = {ct->w, ct->h, ct->d};
                    float fc[3][32];
                    for (unsigned l = 0; l < 32; l++) {
                        unsigned k = batch * 32 + l;
                        for (unsigned a = 0; a < 3; a++)
                            fc[a][l] = r.coord[a][l] = coord(ct, k, a, size[a], hw);
                        r.coord[3][l] = ct->layer_coord;
                        if (ct->target == TV_TEXTGT_CUBE) {
                            float d[3];
                            cube_dir(fc[0][l], fc[1][l], d);
                            for (unsigned a = 0; a < 3; a++)
                                r.coord[a][l] = d[a];
                        }
                    }
                    fx_run(F, &r, &res);
                    assert_int_equal(res.invalid, 0);
                    ref_tex rt = {ct->dims, ct->w, ct->h, ct->d, ct->layer,
                                  {border[0], border[1], border[2], border[3]}};
                    unsigned wrap[3] = {mode, mode, mode};
                    for (unsigned l = 0; l < 32; l++) {
                        double u[3], ref[4];
                        for (unsigned a = 0; a < 3; a++)
                            u[a] = (double)fc[a][l] * (ct->unnorm ? 1 : size[a]);
                        ref_sample_level(&rt, 0, wrap, lin, u, ref);
                        if (!lin && ct->target != TV_TEXTGT_CUBE) { /* point: exact */
                            fx_expect_near(&res, l, ref, 0.0);
                        } else {
                            fx_expect_near(&res, l, ref, ct->target == TV_TEXTGT_CUBE ? 2e-5 : 2e-6);
                        }
                        checked++;
                    }
                }
            }
    }
    assert_int_equal(checked, IDX_COUNT * 8 * 2 * 64);
}

static void test_wrap_reference(void **state)
{
    (void)state;
    fx F;
    fx_init(&F);
    setup_textures(&F);
    run_all(&F, false);
    fx_free(&F);
}

static void test_wrap_hardware(void **state)
{
    (void)state;
    fx F;
    fx_init(&F);
    setup_textures(&F);
    run_all(&F, true);
    fx_free(&F);
}

/* Appendix C: size 4, i = -5,-1,0,3,4,7,8 -> REPEAT 3,3,0,3,0,3,0; MIRRORED_REPEAT
 * 3,0,0,3,3,0,0; MIRROR_CLAMP_TO_EDGE 3,0,0,3,3,3,3. Texel i of a 1D R32F texture holds i;
 * nearest sampling at the centre of texel i returns the wrapped index. */
static void test_appendix_c_wrap(void **state)
{
    (void)state;
    static const int in[7] = {-5, -1, 0, 3, 4, 7, 8};
    static const struct { unsigned mode; int out[7]; } rows[3] = {
        {TV_WRAP_REPEAT, {3, 3, 0, 3, 0, 3, 0}},
        {TV_WRAP_MIRROR, {3, 0, 0, 3, 3, 0, 0}},
        {TV_WRAP_MIRROR_ONCE_CLAMP_TO_EDGE, {3, 0, 0, 3, 3, 3, 3}},
    };
    fx F;
    fx_init(&F);
    fx_put_tex(&F, 0, tv_format_from_name("R32_FLOAT"), TV_TEX_1D, 4, 1, 1, 1);
    for (unsigned x = 0; x < 4; x++)
        fx_write_float(&F, 0, 0, x, 0, 0, (float)x, 0, 0, 0);
    for (unsigned row = 0; row < 3; row++) {
        tv_tsc s;
        fx_tsc(&s, TV_MAG_POINT, TV_MIN_POINT, TV_MIP_NONE, rows[row].mode);
        fx_put_tsc(&F, 0, &s);
        tv_tex_request r;
        tv_tex_result res;
        fx_req(&r, TV_TEX_OP_SAMPLE_LZ, TV_TEXTGT_1D, tv_tex_handle(0, 0), 0x7f);
        for (unsigned l = 0; l < 7; l++)
            r.coord[0][l] = ((float)in[l] + 0.5f) / 4.0f;
        fx_run(&F, &r, &res);
        for (unsigned l = 0; l < 7; l++)
            assert_true(fx_f(res.v[0][l]) == (float)rows[row].out[l]);
    }
    /* Appendix C: width 4, s = 0.3: u = 1.2; NEAREST i = 1; LINEAR i0 = 0, alpha = 0.7. */
    for (unsigned lin = 0; lin < 2; lin++) {
        unsigned f = lin ? TV_MAG_LINEAR : TV_MAG_POINT;
        tv_tsc s;
        fx_tsc(&s, f, f, TV_MIP_NONE, TV_WRAP_REPEAT);
        fx_put_tsc(&F, 0, &s);
        tv_tex_request r;
        tv_tex_result res;
        fx_req(&r, TV_TEX_OP_SAMPLE_LZ, TV_TEXTGT_1D, tv_tex_handle(0, 0), 1);
        r.coord[0][0] = 0.3f;
        fx_run(&F, &r, &res);
        double want = lin ? 0.3 * 0.0 + 0.7 * 1.0 : 1.0;
        assert_true(fabs(fx_f(res.v[0][0]) - want) < 1e-6);
    }
    fx_free(&F);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wrap_reference),
        cmocka_unit_test(test_wrap_hardware),
        cmocka_unit_test(test_appendix_c_wrap),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
