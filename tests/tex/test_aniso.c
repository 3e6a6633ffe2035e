/* Anisotropy (rule in docs/texture-unit.md "LOD and anisotropy"): eta = min(rho_max /
 * rho_min, maxAniso), N = ceil(eta) probes at s + (i/(N+1) - 1/2) * d(major), i = 1..N,
 * averaged, each an isotropic sample at lambda = log2(rho_max / eta) + bias; major axis
 * unit vector and log2(minor/major) reported. Expected values from a float64 reference. */
#include "sample_fixture.h"

#define SZ 64

static void setup(fx *F, unsigned tsc_code, unsigned tic_code, bool header_ctl)
{
    tv_tic t;
    fx_tic(&t, tv_format_from_name("R32G32B32A32_FLOAT"), TV_TEX_2D, SZ, SZ, 1, 7);
    t.use_header_opt_control = header_ctl;
    t.max_anisotropy = (uint8_t)tic_code;
    fx_put_tic(F, 0, &t);
    fx_fill_formula(F, 0);
    tv_tsc s;
    fx_tsc(&s, TV_MAG_LINEAR, TV_MIN_LINEAR, TV_MIP_LINEAR, TV_WRAP_REPEAT);
    s.max_anisotropy = (uint8_t)tsc_code;
    fx_put_tsc(F, 0, &s);
}

/* Isotropic trilinear reference at (s,t) and LOD lambda (7 levels, REPEAT). */
static void ref_iso(double s, double t, double lambda, double out[4])
{
    ref_tex rt = {2, SZ, SZ, 1, 0, {0, 0, 0, 0}};
    unsigned wrap[3] = {TV_WRAP_REPEAT, TV_WRAP_REPEAT, TV_WRAP_REPEAT};
    unsigned lv[2] = {0, 0};
    double w[2] = {1, 0};
    if (lambda > 0) {
        double d = lambda < 6 ? lambda : 6;
        lv[0] = (unsigned)floor(d);
        lv[1] = lv[0] + 1 > 6 ? 6 : lv[0] + 1;
        w[1] = d - floor(d);
        w[0] = 1 - w[1];
    }
    for (int c = 0; c < 4; c++)
        out[c] = 0;
    for (int k = 0; k < 2; k++) {
        if (w[k] == 0)
            continue;
        double n = (double)(SZ >> lv[k]), u[3] = {s * n, t * n, 0}, v[4];
        ref_sample_level(&rt, lv[k], wrap, true, u, v);
        for (int c = 0; c < 4; c++)
            out[c] += w[k] * v[c];
    }
}

typedef struct aniso_case {
    float ddx[2], ddy[2];
    double eta;       /* expected */
    unsigned n;
} aniso_case;

static void check(fx *F, const aniso_case *ac, unsigned ncase)
{
    tv_tex_request r;
    tv_tex_result res;
    fx_req(&r, TV_TEX_OP_SAMPLE_GRAD, TV_TEXTGT_2D, tv_tex_handle(0, 0), (1u << ncase) - 1);
    for (unsigned l = 0; l < ncase; l++) {
        r.coord[0][l] = 0.3f + 0.01f * (float)l;
        r.coord[1][l] = 0.55f;
        for (int a = 0; a < 2; a++) {
            r.ddx[a][l] = ac[l].ddx[a];
            r.ddy[a][l] = ac[l].ddy[a];
        }
    }
    fx_run(F, &r, &res);
    for (unsigned l = 0; l < ncase; l++) {
        double px = hypot(ac[l].ddx[0] * SZ, ac[l].ddx[1] * SZ);
        double py = hypot(ac[l].ddy[0] * SZ, ac[l].ddy[1] * SZ);
        double rmax = px >= py ? px : py, rmin = px >= py ? py : px;
        const float *dm = px >= py ? ac[l].ddx : ac[l].ddy;
        double lambda = log2(rmax / ac[l].eta);
        assert_true(fabs(res.lod_unclamped[l] - lambda) < 1e-5);
        double ratio = rmin > 0 ? log2(rmin / rmax) : -16.0; /* reported >= -16 */
        assert_true(fabs(res.log2_ratio[l] - (ratio < -16 ? -16 : ratio)) < 1e-5);
        assert_true(fabs(res.major_u[l] - dm[0] * SZ / rmax) < 1e-6);
        assert_true(fabs(res.major_v[l] - dm[1] * SZ / rmax) < 1e-6);
        double sum[4] = {0, 0, 0, 0};
        for (unsigned i = 1; i <= ac[l].n; i++) {
            double k = (double)i / (ac[l].n + 1) - 0.5, v[4];
            ref_iso(r.coord[0][l] + k * dm[0], r.coord[1][l] + k * dm[1], lambda, v);
            for (int c = 0; c < 4; c++)
                sum[c] += v[c] / ac[l].n;
        }
        fx_expect_near(&res, l, sum, 2e-5);
    }
}

static void test_aniso_16x(void **state)
{
    (void)state;
    fx F;
    fx_init(&F);
    setup(&F, 7, 0, false);
    const aniso_case cases[] = {
        {{8.0f / SZ, 0}, {0, 1.0f / SZ}, 8.0, 8},         /* 8:1 at lambda 0: magnified probes */
        {{32.0f / SZ, 0}, {0, 1.0f / SZ}, 16.0, 16},      /* 32:1 clamped to 16 */
        {{0, 1.0f / SZ}, {0, 12.0f / SZ}, 12.0, 12},      /* major axis along y */
        {{2.0f / SZ, 2.0f / SZ}, {-0.5f / SZ, 0.5f / SZ}, 4.0, 4}, /* diagonal 4:1 */
        {{6.0f / SZ, 0}, {0, 2.5f / SZ}, 2.4, 3},         /* non-integer ratio: 3 probes */
        {{3.0f / SZ, 0}, {0, 3.0f / SZ}, 1.0, 1},         /* isotropic */
        {{40.0f / SZ, 0}, {0, 0}, 16.0, 16},              /* degenerate minor: maxAniso */
    };
    check(&F, cases, sizeof cases / sizeof cases[0]);
    fx_free(&F);
}

static void test_aniso_limits_and_header(void **state)
{
    (void)state;
    fx F;
    fx_init(&F);
    setup(&F, 1, 0, false); /* 2:1 */
    const aniso_case two[] = {{{8.0f / SZ, 0}, {0, 1.0f / SZ}, 2.0, 2}};
    check(&F, two, 1);
    setup(&F, 0, 0, false); /* off: rho_max decides */
    const aniso_case off[] = {{{8.0f / SZ, 0}, {0, 1.0f / SZ}, 1.0, 1}};
    check(&F, off, 1);
    setup(&F, 0, 3, true);  /* the header's MAX_ANISOTROPY (6:1) under USE_HEADER_OPT_CONTROL */
    const aniso_case hdr[] = {{{8.0f / SZ, 0}, {0, 1.0f / SZ}, 6.0, 6}};
    check(&F, hdr, 1);
    /* explicit LOD: no footprint, no anisotropy */
    setup(&F, 7, 0, false);
    tv_tex_request r;
    tv_tex_result res;
    fx_req(&r, TV_TEX_OP_SAMPLE_LOD, TV_TEXTGT_2D, tv_tex_handle(0, 0), 1);
    r.coord[0][0] = 0.3f;
    r.coord[1][0] = 0.55f;
    r.lod[0] = 1.5f;
    fx_run(&F, &r, &res);
    double want[4];
    ref_iso(0.3f, 0.55f, 1.5, want);
    fx_expect_near(&res, 0, want, 2e-6);
    assert_true(res.log2_ratio[0] == 0.0f);
    fx_free(&F);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_aniso_16x),
        cmocka_unit_test(test_aniso_limits_and_header),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
