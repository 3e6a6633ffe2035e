/* tv_tex_lod_free (src/tex/tex_execute.c): a handle it calls LOD-free must sample the same
 * values whatever the derivatives and the bias — the VM's batches rely on it to pack
 * covered pixels without their quads' helper lanes (vm_stage_frag_pack.c). Random views
 * (levels, base and last level, 2D and NO_MIPMAP, unnormalised) and samplers (every
 * filter, mip filter and anisotropy, bias and clamps) of a UNORM8 (the fast paths), a
 * float and an integer texture whose levels hold different random texels, in both
 * precisions: for each LOD-free handle, SAMPLE with random neighbours, SAMPLE_BIAS with
 * extreme biases and SAMPLE_GRAD with extreme derivatives (0, huge, infinite, NaN) give
 * SAMPLE_LZ's bits in every lane. The others must often differ, so that the check has
 * teeth (a claim that ignored a level, a filter or anisotropy fails the first part). */
#include "sample_fixture.h"
#include "common_rng.h"

enum { TRIALS = 12000, SIZE = 16, LEVELS = 5 };

static float unit(uint32_t *s)
{
    return (float)(tc_rng_next(s) >> 8) / 16777216.0f;
}

/* A derivative or bias: ordinary, tiny, huge, zero, infinite or NaN. */
static float extreme(uint32_t *s)
{
    switch (tc_rng_next(s) % 8) {
    case 0: return 0.0f;
    case 1: return 1e-30f;
    case 2: return 1e30f;
    case 3: return INFINITY;
    case 4: return -INFINITY;
    case 5: return NAN;
    default: return (unit(s) - 0.5f) * 40.0f;
    }
}

static const char *const formats[3] = {"R8G8B8A8_UNORM", "R32G32B32A32_FLOAT", "R32_UINT"};

/* Textures 0-2: FORMATS, SIZE x SIZE, LEVELS levels of random texels. */
static void fill(fx *F, uint32_t *seed)
{
    for (unsigned i = 0; i < 3; i++) {
        tv_format f = tv_format_from_name(formats[i]);
        fx_put_tex(F, i, f, TV_TEX_2D, SIZE, SIZE, 1, LEVELS);
        for (unsigned L = 0; L < LEVELS; L++)
            for (unsigned y = 0; y < ((unsigned)SIZE >> L); y++)
                for (unsigned x = 0; x < ((unsigned)SIZE >> L); x++) {
                    uint32_t v[4];
                    for (unsigned c = 0; c < 4; c++)
                        v[c] = i == 2 ? tc_rng_next(seed) % 1000u : fx_u(unit(seed));
                    fx_write_texel(F, i, L, x, y, 0, 0, v);
                }
    }
}

/* Whether R's values (and invalid lanes) differ from REF's in any lane. */
static bool differs(const tv_tex_result *ref, const tv_tex_result *r)
{
    if (ref->invalid != r->invalid)
        return true;
    for (unsigned c = 0; c < 4; c++)
        if (memcmp(ref->v[c], r->v[c], sizeof r->v[c]))
            return true;
    return false;
}

static void test_lod_free_means_lod_free(void **state)
{
    (void)state;
    fx F;
    fx_init(&F);
    uint32_t seed = 0x5eed1234u;
    fill(&F, &seed);
    unsigned free_count = 0, dependent_differs = 0;
    static tv_tex_request req;
    static tv_tex_result ref, res;
    for (unsigned trial = 0; trial < TRIALS; trial++) {
        const unsigned i = trial % 3;
        tv_tic t = F.tic[i];
        t.texture_type = tc_rng_next(&seed) % 8 == 0 ? TV_TEX_2D_NO_MIPMAP : TV_TEX_2D;
        t.max_mip_level = (uint8_t)(tc_rng_next(&seed) % LEVELS);
        t.res_view_min_mip_level = (uint8_t)(tc_rng_next(&seed) % (t.max_mip_level + 1u));
        t.res_view_max_mip_level =
            (uint8_t)(t.res_view_min_mip_level +
                      tc_rng_next(&seed) % (t.max_mip_level + 1u - t.res_view_min_mip_level));
        t.normalized_coords = tc_rng_next(&seed) % 8 != 0;
        t.mip_lod_bias = (int16_t)((int)(tc_rng_next(&seed) % 1024) - 512);
        fx_update_tic(&F, i, &t);
        tv_tsc s;
        fx_tsc(&s, 1 + tc_rng_next(&seed) % 2, 1 + tc_rng_next(&seed) % 3, 1 + tc_rng_next(&seed) % 3, TV_WRAP_REPEAT);
        s.max_anisotropy = (uint8_t)(tc_rng_next(&seed) % 2 ? 0 : tc_rng_next(&seed) % 8);
        s.mip_lod_bias = (int16_t)((int)(tc_rng_next(&seed) % 2048) - 1024);
        s.min_lod_clamp = (uint16_t)(tc_rng_next(&seed) % 3 ? 0 : tc_rng_next(&seed) % 1024);
        s.max_lod_clamp = (uint16_t)(tc_rng_next(&seed) % 3 ? 0xfff : tc_rng_next(&seed) % 1024);
        fx_put_tsc(&F, 0, &s);
        tv_tex_set_precision(F.unit, trial % 2 ? TV_TEX_PRECISION_HARDWARE
                                               : TV_TEX_PRECISION_REFERENCE);
        const uint32_t handle = tv_tex_handle(i, 0);
        const bool lod_free = tv_tex_lod_free(F.unit, handle, TV_TEXTGT_2D);
        const float scale = t.normalized_coords ? 1.0f : (float)SIZE;
        float cs[TV_TEX_LANES], ct[TV_TEX_LANES];
        for (unsigned l = 0; l < TV_TEX_LANES; l++) {
            cs[l] = (unit(&seed) * 1.5f - 0.25f) * scale;
            ct[l] = (unit(&seed) * 1.5f - 0.25f) * scale;
        }
        fx_req(&req, TV_TEX_OP_SAMPLE_LZ, TV_TEXTGT_2D, handle, UINT32_MAX);
        memcpy(req.coord[0], cs, sizeof cs);
        memcpy(req.coord[1], ct, sizeof ct);
        fx_run(&F, &req, &ref);
        bool any = false;
        for (unsigned form = 0; form < 3; form++) {
            static const uint8_t ops[3] = {TV_TEX_OP_SAMPLE, TV_TEX_OP_SAMPLE_BIAS,
                                           TV_TEX_OP_SAMPLE_GRAD};
            req.op = ops[form];
            for (unsigned l = 0; l < TV_TEX_LANES; l++) {
                req.lod[l] = extreme(&seed);
                for (unsigned a = 0; a < 3; a++) {
                    req.ddx[a][l] = extreme(&seed);
                    req.ddy[a][l] = extreme(&seed);
                }
            }
            fx_run(&F, &req, &res);
            const bool d = differs(&ref, &res);
            if (lod_free && d)
                fail_msg("trial %u (%s, %s precision, op %u): LOD-free, yet not SAMPLE_LZ's "
                         "values (view %u..%u of %u, normalised %d, mag %u min %u mip %u, "
                         "aniso code %u)", trial, formats[i], trial % 2 ? "hardware"
                                                                       : "reference",
                         (unsigned)req.op, t.res_view_min_mip_level,
                         t.res_view_max_mip_level, t.max_mip_level + 1u, t.normalized_coords,
                         s.mag_filter, s.min_filter, s.mip_filter, s.max_anisotropy);
            any |= d;
        }
        free_count += lod_free;
        dependent_differs += !lod_free && any;
    }
    print_message("%u of %u handles LOD-free, %u of the others differ\n", free_count, TRIALS,
                  dependent_differs);
    /* both kinds occur often, and the dependent ones do show it */
    assert_true(free_count > TRIALS / 8);
    assert_true(dependent_differs > TRIALS / 4);
    fx_free(&F);
}

/* The cases by name: what makes a handle depend on its LOD. */
static void test_lod_free_cases(void **state)
{
    (void)state;
    fx F;
    fx_init(&F);
    fx_put_tex(&F, 0, tv_format_from_name("R32G32B32A32_FLOAT"), TV_TEX_2D, 16, 16, 1, 5);
    fx_put_tex(&F, 1, tv_format_from_name("R32G32B32A32_FLOAT"), TV_TEX_2D, 16, 16, 1, 1);
    fx_put_tex(&F, 2, tv_format_from_name("R32_UINT"), TV_TEX_2D, 16, 16, 1, 5);
    static const struct {
        unsigned tex, mag, min, mip, aniso;
        bool lod_free;
    } cases[] = {
        {0, TV_MAG_LINEAR, TV_MIN_LINEAR, TV_MIP_NONE, 0, true},    /* the base level only */
        {0, TV_MAG_LINEAR, TV_MIN_LINEAR, TV_MIP_LINEAR, 0, false}, /* five levels */
        {0, TV_MAG_POINT, TV_MIN_POINT, TV_MIP_POINT, 0, false},
        {1, TV_MAG_LINEAR, TV_MIN_LINEAR, TV_MIP_LINEAR, 0, true},  /* one level */
        {1, TV_MAG_POINT, TV_MIN_POINT, TV_MIP_POINT, 0, true},
        {1, TV_MAG_LINEAR, TV_MIN_POINT, TV_MIP_NONE, 0, false},    /* two filters */
        {1, TV_MAG_POINT, TV_MIN_LINEAR, TV_MIP_NONE, 0, false},
        {1, TV_MAG_LINEAR, TV_MIN_ANISO, TV_MIP_NONE, 0, true},     /* ANISO at 1:1 is linear */
        {1, TV_MAG_LINEAR, TV_MIN_LINEAR, TV_MIP_NONE, 4, false},   /* 8:1 probes */
        {2, TV_MAG_LINEAR, TV_MIN_POINT, TV_MIP_NONE, 0, true},     /* integers: nearest */
        {2, TV_MAG_LINEAR, TV_MIN_LINEAR, TV_MIP_LINEAR, 0, false}, /* five levels */
    };
    for (unsigned k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        tv_tsc s;
        fx_tsc(&s, cases[k].mag, cases[k].min, cases[k].mip, TV_WRAP_REPEAT);
        s.max_anisotropy = (uint8_t)cases[k].aniso;
        fx_put_tsc(&F, 3, &s);
        if (tv_tex_lod_free(F.unit, tv_tex_handle(cases[k].tex, 3), TV_TEXTGT_2D) !=
            cases[k].lod_free)
            fail_msg("case %u: LOD-free should be %d", k, cases[k].lod_free);
    }
    /* a view of the last level alone; a handle past the pools; no unit */
    tv_tic t = F.tic[0];
    t.res_view_min_mip_level = t.res_view_max_mip_level = 4;
    fx_update_tic(&F, 0, &t);
    tv_tsc s;
    fx_tsc(&s, TV_MAG_LINEAR, TV_MIN_LINEAR, TV_MIP_LINEAR, TV_WRAP_REPEAT);
    fx_put_tsc(&F, 3, &s);
    assert_true(tv_tex_lod_free(F.unit, tv_tex_handle(0, 3), TV_TEXTGT_2D));
    assert_false(tv_tex_lod_free(F.unit, tv_tex_handle(FX_POOL_ENTRIES + 5, 3), TV_TEXTGT_2D));
    assert_false(tv_tex_lod_free(NULL, tv_tex_handle(0, 3), TV_TEXTGT_2D));
    assert_false(tv_tex_lod_free(F.unit, tv_tex_handle(0, 3), (tv_tex_target)99));
    fx_free(&F);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lod_free_means_lod_free),
        cmocka_unit_test(test_lod_free_cases),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
