/* TMML.LOD (spec/sass-tmml.txt): every output field against hand-computed values.
 *   R = unclamped LOD, S8.8 (high bits zero)   G = clamped LOD, U8.8
 *   B = {major.v S2.6, major.u S2.6} in bits [15:0]   A = log2(minor/major), S4.12
 * Quads of lanes TL, TR, BL, BR get coordinates whose differences are the derivatives;
 * the texture is 64x64 with 7 levels, so a derivative of k texels is k/64. */
#include "sass_env.h"

#include <stdio.h>

#define TEX 1
#define TID 6

static int setup(void **state)
{
    senv_setup(state);
    senv *E = *state;
    senv_put_tex(E, TEX, TV_FORMAT_R8G8B8A8_UNORM, TV_TEX_2D, 64, 64, 1, 7);
    senv_put_tex(E, 2, TV_FORMAT_R8G8B8A8_UNORM, TV_TEX_2D_ARRAY, 64, 64, 4, 7);
    senv_bind(E, TID, tv_tex_handle(TEX, 1));
    senv_bind(E, 7, tv_tex_handle(2, 1));
    return 0;
}

static void sampler(senv *E, unsigned mip, uint16_t min_lod, int16_t bias)
{
    tv_tsc s;
    senv_tsc(&s, TV_MAG_POINT, TV_MIN_POINT, mip, TV_WRAP_REPEAT);
    s.min_lod_clamp = min_lod;
    s.mip_lod_bias = bias;
    senv_put_tsc_raw(E, 1, &s);
}

/* Every quad: s,t in registers rs, rs+1 with the given texel derivatives. */
static void quads(senv *E, unsigned rs, float dudx, float dvdx, float dudy, float dvdy)
{
    for (unsigned lane = 0; lane < 32; lane++) {
        float x = (float)(lane & 1), y = (float)((lane >> 1) & 1);
        float s = 0.25f + (x * dudx + y * dudy) / 64.0f;
        float t = 0.25f + (x * dvdx + y * dvdy) / 64.0f;
        tv_sass_set_reg(E->w, rs, lane, tv_f32_bits(s));
        tv_sass_set_reg(E->w, rs + 1, lane, tv_f32_bits(t));
    }
}

typedef struct lod_case {
    const char *name;
    unsigned mip;
    uint16_t min_lod;
    int16_t bias;
    float d[4];           /* du/dx, dv/dx, du/dy, dv/dy in texels */
    uint32_t want[4];     /* R, G, B, A by hand */
} lod_case;

static const lod_case cases[] = {
    /* x major, |dx| = 8, |dy| = 2: lambda = log2 8 = 3 -> 3*256 = 0x300; point mip: level
     * 3; major (u,v) = (1,0) -> u = 64 = 0x40; log2(2/8) = -2 -> -8192 = 0xe000 */
    {"x-major", TV_MIP_POINT, 0, 0, {8, 0, 0, 2}, {0x300, 0x300, 0x0040, 0xe000}},
    /* y major (3,4)/5: lambda = log2 5 = 2.3219 -> 594.41 -> 594 = 0x252; linear mip:
     * G = 0x252; u = 0.6*64 = 38.4 -> 38 = 0x26, v = 0.8*64 = 51.2 -> 51 = 0x33;
     * log2(1/5)*4096 = -9510.6 -> -9511 = 0xdad9 */
    {"y-major", TV_MIP_LINEAR, 0, 0, {1, 0, 3, 4}, {0x252, 0x252, 0x3326, 0xdad9}},
    /* the same with point mip: G = nearest level 2 */
    {"y-major point", TV_MIP_POINT, 0, 0, {1, 0, 3, 4}, {0x252, 0x200, 0x3326, 0xdad9}},
    /* sampler min LOD 4.0: G clamped to 4, R unclamped */
    {"min clamp", TV_MIP_POINT, 0x400, 0, {8, 0, 0, 2}, {0x300, 0x400, 0x0040, 0xe000}},
    /* sampler bias +1.0 is part of the (unclamped) LOD: R = 4.0 */
    {"bias", TV_MIP_LINEAR, 0, 256, {8, 0, 0, 2}, {0x400, 0x400, 0x0040, 0xe000}},
    /* magnification: lambda = -1 -> S8.8 -256 = 0xff00 (high bits zero), G = 0;
     * isotropic: x is the major axis, ratio 1 -> log2 = 0 */
    {"magnify", TV_MIP_LINEAR, 0, 0, {0.5f, 0, 0, 0.5f}, {0xff00, 0, 0x0040, 0}},
    /* past the last level: lambda = 9 -> 0x900, G = last level 6 -> 0x600 */
    {"past last", TV_MIP_LINEAR, 0, 0, {512, 0, 0, 512}, {0x900, 0x600, 0x0040, 0}},
    /* negative major axis: u = -1 -> -64 = 0xc0 */
    {"negative u", TV_MIP_POINT, 0, 0, {-8, 0, 0, 2}, {0x300, 0x300, 0x00c0, 0xe000}},
    /* negative v: (0,-4) y major -> v = -64 = 0xc0 in [15:8], u = 0; log2(1/4) = -2 */
    {"negative v", TV_MIP_POINT, 0, 0, {1, 0, 0, -4}, {0x200, 0x200, 0xc000, 0xe000}},
};

static void test_output_fields(void **state)
{
    senv *E = *state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const lod_case *c = &cases[i];
        sampler(E, c->mip, c->min_lod, c->bias);
        quads(E, 6, c->d[0], c->d[1], c->d[2], c->d[3]);
        run_ok(E, "TMML.LOD R0, R6, 6, 2D, 0xf");
        for (unsigned k = 0; k < 4; k++)
            for (unsigned lane = 0; lane < 32; lane += 5) {
                if (reg(E, k, lane) != c->want[k])
                    fprintf(stderr, "%s: lane %u component %u = 0x%x, want 0x%x\n", c->name,
                            lane, k, reg(E, k, lane), c->want[k]);
                assert_int_equal(reg(E, k, lane), c->want[k]);
            }
    }
}

/* The example: 2D coordinates in R6, R7; mask 0x3 writes R2 (R) and R3 (G). */
static void test_example(void **state)
{
    senv *E = *state;
    sampler(E, TV_MIP_POINT, 0, 0);
    quads(E, 6, 8, 0, 0, 2);
    set_all(E, 4, 0x4444);
    run_ok(E, "TMML.LOD R2, R6, 6, 2D, 0x3;");
    unsigned got[16], n = reads_of(E, got);
    assert_regs(got, n, (unsigned[]){6, 7}, 2);
    n = writes_of(E, got);
    assert_regs(got, n, (unsigned[]){2, 3}, 2);
    assert_int_equal(reg(E, 2, 9), 0x300);
    assert_int_equal(reg(E, 3, 9), 0x300);
    assert_int_equal(reg(E, 4, 9), 0x4444);
    /* mask 0xc: B, A compacted to R2, R3 */
    run_ok(E, "TMML.LOD R2, R6, 6, 2D, 0xc");
    assert_int_equal(reg(E, 2, 0), 0x0040);
    assert_int_equal(reg(E, 3, 0), 0xe000);
    /* mask 0x3 needs an even Rd; 3 coordinates (ARRAY_2D) need a 4-aligned Ra */
    tv_error err;
    assert_int_equal(run_status(E, "TMML.LOD R3, R6, 6, 2D, 0x3", &err), TV_ERR_RUNTIME);
    assert_int_equal(run_status(E, "TMML.LOD R0, R6, 7, ARRAY_2D, 0xf", &err), TV_ERR_RUNTIME);
}

/* ARRAY_2D packing: Ra = array index (u16), Ra+1 = s, Ra+2 = t; .B: Rb = handle. */
static void test_array_and_bindless(void **state)
{
    senv *E = *state;
    sampler(E, TV_MIP_POINT, 0, 0);
    quads(E, 5, 8, 0, 0, 2);
    set_all(E, 4, 0x10002);   /* layer 2 (low 16 bits) */
    run_ok(E, "TMML.LOD R0, R4, 7, ARRAY_2D, 0xf");
    unsigned got[16], n = reads_of(E, got);
    assert_regs(got, n, (unsigned[]){4, 5, 6}, 3);
    assert_int_equal(reg(E, 0, 0), 0x300);
    assert_int_equal(reg(E, 3, 0), 0xe000);
    quads(E, 6, 8, 0, 0, 2);
    set_all(E, 9, tv_tex_handle(TEX, 1));
    run_ok(E, "TMML.B.LOD R0, R6, R9, 0x0, 2D, 0xf");
    n = reads_of(E, got);
    assert_regs(got, n, (unsigned[]){6, 7, 9}, 3);
    assert_int_equal(reg(E, 0, 0), 0x300);
    assert_int_equal(reg(E, 2, 0), 0x0040);
    /* an invalid handle returns zeros */
    set_all(E, 9, tv_tex_handle(ENV_ENTRIES + 3, 1));
    run_ok(E, "TMML.B.LOD R0, R6, R9, 0x0, 2D, 0xf");
    for (unsigned k = 0; k < 4; k++)
        assert_int_equal(reg(E, k, 0), 0);
}

/* Divergent quads: a quad with some lanes not executing has no implicit derivatives
 * (LOD -inf: R = 0x8000, G = min LOD 0, B = A = 0) unless .NDV forces it non-divergent,
 * when the inactive lanes' registers take part (and are not written). */
static void test_divergence_and_ndv(void **state)
{
    senv *E = *state;
    sampler(E, TV_MIP_POINT, 0, 0);
    quads(E, 6, 8, 0, 0, 2);
    for (unsigned r = 0; r < 4; r++)
        set_all(E, r, 0xdead);
    tv_sass_set_active(E->w, 0xfffffff7u);   /* lane 3 (BR of quad 0) inactive */
    run_ok(E, "TMML.LOD R0, R6, 6, 2D, 0xf");
    for (unsigned lane = 0; lane < 3; lane++) {
        assert_int_equal(reg(E, 0, lane), 0x8000);
        assert_int_equal(reg(E, 1, lane), 0);
        assert_int_equal(reg(E, 2, lane), 0);
        assert_int_equal(reg(E, 3, lane), 0);
    }
    assert_int_equal(reg(E, 0, 3), 0xdead);   /* inactive: not written */
    assert_int_equal(reg(E, 0, 4), 0x300);    /* full quads unaffected */
    run_ok(E, "TMML.LOD.NDV R0, R6, 6, 2D, 0xf");
    for (unsigned lane = 0; lane < 3; lane++) {
        assert_int_equal(reg(E, 0, lane), 0x300);
        assert_int_equal(reg(E, 3, lane), 0xe000);
    }
    assert_int_equal(reg(E, 0, 3), 0xdead);
    tv_sass_set_active(E->w, 0xffffffffu);
    /* a guard predicate that leaves part of a quad makes it divergent the same way */
    tv_sass_set_pred(E->w, 2, 0xfffffff0u | 0x5u);
    run_ok(E, "@P2 TMML.LOD R0, R6, 6, 2D, 0xf");
    assert_int_equal(reg(E, 0, 0), 0x8000);
    assert_int_equal(reg(E, 0, 1), 0x300);    /* lane 1 kept its value from before */
    assert_int_equal(reg(E, 0, 8), 0x300);
    /* @!P2: only lanes 1 and 3 execute */
    set_all(E, 0, 0xdead);
    run_ok(E, "@!P2 TMML.LOD R0, R6, 6, 2D, 0xf");
    assert_int_equal(reg(E, 0, 0), 0xdead);
    assert_int_equal(reg(E, 0, 1), 0x8000);
    assert_int_equal(reg(E, 0, 8), 0xdead);
    /* nothing executes: nothing is read or written */
    tv_sass_set_pred(E->w, 2, 0);
    run_ok(E, "@P2 TMML.LOD R0, R6, 6, 2D, 0xf");
    unsigned got[16];
    assert_int_equal(reads_of(E, got), 0);
    assert_int_equal(writes_of(E, got), 0);
}

/* The page's #paramA table: the coordinate registers each type implies (s, t, r fp32,
 * a = u16 array index first), on headers of the matching type. 1D/ARRAY_1D: du/dx = 8
 * texels -> lambda 3; 3D: du/dx = 8, dv/dy = 2, dw = 0 -> lambda 3, x major. */
static void test_param_a_rows(void **state)
{
    senv *E = *state;
    sampler(E, TV_MIP_POINT, 0, 0);
    tv_tic t;
    senv_tic(&t, TV_FORMAT_R8G8B8A8_UNORM, TV_TEX_1D, 64, 1, 1, 7);
    senv_put_tic(E, 3, &t);
    senv_tic(&t, TV_FORMAT_R8G8B8A8_UNORM, TV_TEX_1D_ARRAY, 64, 1, 4, 7);
    senv_put_tic(E, 4, &t);
    senv_tic(&t, TV_FORMAT_R8G8B8A8_UNORM, TV_TEX_3D, 64, 64, 64, 7);
    senv_put_tic(E, 5, &t);
    senv_tic(&t, TV_FORMAT_R8G8B8A8_UNORM, TV_TEX_CUBE, 64, 64, 1, 7);
    senv_put_tic(E, 6, &t);
    senv_tic(&t, TV_FORMAT_R8G8B8A8_UNORM, TV_TEX_CUBE_ARRAY, 64, 64, 2, 7);
    senv_put_tic(E, 7, &t);
    for (unsigned i = 3; i <= 7; i++)
        senv_bind(E, 10 + i, tv_tex_handle(i, 1));
    unsigned got[16], n;
    /* 1D: s */
    quads(E, 8, 8, 0, 0, 0);
    run_ok(E, "TMML.LOD R0, R8, 13, 1D, 0xf");
    n = reads_of(E, got);
    assert_regs(got, n, (unsigned[]){8}, 1);
    assert_int_equal(reg(E, 0, 0), 0x300);
    assert_int_equal(reg(E, 2, 0), 0x0040);
    /* ARRAY_1D: a, s */
    quads(E, 9, 8, 0, 0, 0);
    set_all(E, 8, 3);
    run_ok(E, "TMML.LOD R0, R8, 14, ARRAY_1D, 0xf");
    n = reads_of(E, got);
    assert_regs(got, n, (unsigned[]){8, 9}, 2);
    assert_int_equal(reg(E, 0, 0), 0x300);
    /* 3D: s, t, r */
    quads(E, 8, 8, 0, 0, 2);
    set_allf(E, 10, 0.5f);
    run_ok(E, "TMML.LOD R0, R8, 15, 3D, 0xf");
    n = reads_of(E, got);
    assert_regs(got, n, (unsigned[]){8, 9, 10}, 3);
    assert_int_equal(reg(E, 0, 0), 0x300);
    assert_int_equal(reg(E, 3, 0), 0xe000);
    /* CUBE: s, t, r (a direction); a uniform direction has no derivatives: -inf */
    set_allf(E, 8, 1.0f);
    set_allf(E, 9, 0.25f);
    set_allf(E, 10, 0.25f);
    run_ok(E, "TMML.LOD R0, R8, 16, CUBE, 0xf");
    n = reads_of(E, got);
    assert_regs(got, n, (unsigned[]){8, 9, 10}, 3);
    assert_int_equal(reg(E, 0, 0), 0x8000);
    assert_int_equal(reg(E, 1, 0), 0);
    /* ARRAY_CUBE: a, s, t, r (Ra+0 .. Ra+3 of the page's parameter table) */
    set_all(E, 8, 1);
    set_allf(E, 9, 1.0f);
    set_allf(E, 10, 0.25f);
    set_allf(E, 11, 0.25f);
    run_ok(E, "TMML.LOD R0, R8, 17, ARRAY_CUBE, 0xf");
    n = reads_of(E, got);
    assert_regs(got, n, (unsigned[]){8, 9, 10, 11}, 4);
    assert_int_equal(reg(E, 0, 0), 0x8000);
    /* a type the header does not match: zeros (2D coordinates on the 1D header) */
    quads(E, 8, 8, 0, 0, 2);
    set_all(E, 0, 0x55);
    run_ok(E, "TMML.LOD R0, R8, 13, 2D, 0xf");
    assert_int_equal(reg(E, 0, 0), 0);
    /* RESERVED (ARRAY_3D) has no encoding */
    tv_sass_insn in;
    assert_int_equal(tv_sass_parse("TMML.LOD R0, R8, 13, ARRAY_3D, 0xf", &in, NULL),
                     TV_ERR_INVALID);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_output_fields),
        cmocka_unit_test(test_example),
        cmocka_unit_test(test_array_and_bindless),
        cmocka_unit_test(test_divergence_and_ndv),
        cmocka_unit_test(test_param_a_rows),
    };
    return cmocka_run_group_tests(tests, setup, senv_teardown);
}
