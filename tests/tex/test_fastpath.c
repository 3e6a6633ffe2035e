/* The RGBA8 fast paths (the unorm8x4 texel load in src/tex/tex_texel.c and the bilinear
 * footprint in src/tex/fast/tex_fast_linear.c) against the general path: random requests on
 * 8-bit UNORM x4 textures (pitch and block-linear, R8G8B8A8 and B8G8R8A8, mip-mapped, odd
 * sizes; 2D, 2D array and cube targets, seamless and not), every wrap mode, point/linear/aniso filters and mip modes, sampling ops with
 * implicit, explicit and gradient LOD, gather and fetch, coordinates in and out of range
 * plus NaN/inf — each request run with the fast paths on and off, in both precision modes
 * (in the hardware one the texel load and the bilinear / trilinear footprint,
 * tex_fast_hw.c, are the fast parts: test_fastpath_hw.c aims at the latter), every result
 * word must be bit-identical. The general path is the expected value: it is
 * the reference the conformance and Mesa suites check. */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "texvm/tex.h"
#include "fastpath_fixture.h"
#include "tex/tex_internal.h"
#include "tex/fast/tex_warp.h"

#define NTEX 6   /* 0..3 2D, 4 2D array, 5 cube */
#define NSMP 24

static const fp_tex textures[NTEX] = {
    {"R8G8B8A8_UNORM", 64, 64, TV_TIC_BLOCKLINEAR, TV_TEX_2D, 0, -1, 0},
    {"R8G8B8A8_UNORM", 37, 21, TV_TIC_PITCH, TV_TEX_2D, 0, -1, 0},
    {"B8G8R8A8_UNORM", 50, 8, TV_TIC_BLOCKLINEAR, TV_TEX_2D, 0, -1, 0},
    /* a view starting at level 1 */
    {"R8G8B8A8_UNORM", 16, 16, TV_TIC_PITCH, TV_TEX_2D, 1, -1, 0},
    {"R8G8B8A8_UNORM", 24, 12, TV_TIC_BLOCKLINEAR, TV_TEX_2D_ARRAY, 0, -1, 0},
    {"B8G8R8A8_UNORM", 16, 16, TV_TIC_BLOCKLINEAR, TV_TEX_CUBE, 0, -1, 0},
};

static void setup(fp *F)
{
    fp_setup(F, 0x9e3779b9u, textures, NTEX, 31);
for (unsigned s = 0; s < NSMP; s++) {
        tv_tsc ts;
        memset(&ts, 0, sizeof ts);
        ts.address_u = (uint8_t)(s % 8);
        ts.address_v = (uint8_t)((s * 3 + 1) % 8);
        ts.address_p = TV_WRAP_REPEAT;
        ts.mag_filter = (s & 1) ? TV_MAG_LINEAR : TV_MAG_POINT;
        ts.min_filter = (s % 3 == 0) ? TV_MIN_POINT : TV_MIN_LINEAR;
        ts.mip_filter = (uint8_t)(TV_MIP_NONE + (s / 3) % 3);
        ts.max_anisotropy = (s % 5 == 4) ? 7 : (s % 7 == 6 ? 3 : 0);
        ts.max_lod_clamp = 0xfff;
        ts.cubemap_interface_filtering = (uint8_t)(s % 4 < 2 ? 2 : 0); /* seamless or not */
        ts.min_lod_clamp = (s % 11 == 10) ? 0x80 : 0;
        ts.mip_lod_bias = (s % 4 == 3) ? 0x100 : 0;
        ts.border_color[0] = 0x3e800000u;
        ts.border_color[1] = 0x3f000000u;
        ts.border_color[2] = 0x3f400000u;
        ts.border_color[3] = 0x3f800000u;
        fp_put_sampler(F, s, &ts);
    }
}

static float coord(fp *F)
{
    uint32_t k = fp_rnd(F) % 64;
    if (k == 0) return NAN;
    if (k == 1) return INFINITY;
    if (k == 2) return -INFINITY;
    if (k == 3) return -0.0f;
    if (k < 12) return (float)(int)(fp_rnd(F) % 9) / 8.0f; /* texel edges and centres */
    return fp_frnd(F, -2.5f, 3.5f);
}

static void fill(fp *F, tv_tex_request *r, unsigned op)
{
    memset(r, 0, sizeof *r);
    unsigned kind = fp_rnd(F) % 5; /* 0..2: 2D, 3: 2D array, 4: cube */
    if (kind == 4 && op == TV_TEX_OP_FETCH)
        kind = 3;                /* no FETCH on cubes */
    unsigned tex_lo = kind < 3 ? 0 : kind == 3 ? 4 : 5, tex_n = kind < 3 ? 4 : 1;
    r->op = (uint8_t)op;
    r->target = (uint8_t)(kind < 3 ? TV_TEXTGT_2D : kind == 3 ? TV_TEXTGT_2D_ARRAY
                                                                 : TV_TEXTGT_CUBE);
    r->active = fp_rnd(F) | 0x1u;
    r->present = r->active | fp_rnd(F);
    uint32_t handle = tv_tex_handle(tex_lo + fp_rnd(F) % tex_n, fp_rnd(F) % NSMP);
    bool uniform = fp_rnd(F) % 4 != 0;
    r->component = (uint8_t)(fp_rnd(F) % 4);
    for (unsigned l = 0; l < TV_TEX_LANES; l++) {
        r->handle[l] = uniform ? handle : tv_tex_handle(tex_lo + fp_rnd(F) % tex_n, fp_rnd(F) % NSMP);
        float span = fp_frnd(F, 0.0f, 0.2f);
        unsigned q = l & ~3u;
        if (kind == 4) { /* a direction; quads spread around the first lane's */
            for (unsigned a = 0; a < 3; a++)
                r->coord[a][l] = (l & 3) ? r->coord[a][q] + span * 0.25f * (float)((l >> a) & 1)
                                         : fp_frnd(F, -1.0f, 1.0f);
        } else {
            r->coord[0][l] = (l & 3) ? r->coord[0][q] + span * (float)(l & 1) : coord(F);
            r->coord[1][l] = (l & 3) ? r->coord[1][q] + span * (float)((l >> 1) & 1) * 0.3f
                                     : coord(F);
        }
        r->coord[3][l] = fp_frnd(F, -1.0f, 4.0f); /* array layer */
        r->lod[l] = fp_frnd(F, -2.0f, 8.0f);
        for (unsigned a = 0; a < 3; a++) {
            r->ddx[a][l] = fp_frnd(F, -0.3f, 0.3f);
            r->ddy[a][l] = fp_frnd(F, -0.05f, 0.05f);
        }
        r->icoord[0][l] = (int32_t)(fp_rnd(F) % 80) - 8;
        r->icoord[1][l] = (int32_t)(fp_rnd(F) % 80) - 8;
        r->icoord[3][l] = (int32_t)(fp_rnd(F) % 5) - 1;
        r->lod_i[l] = (int32_t)(fp_rnd(F) % 9) - 1;
        r->offset[0][l] = (int8_t)((int)(fp_rnd(F) % 16) - 8);
        r->offset[1][l] = (int8_t)((int)(fp_rnd(F) % 16) - 8);
    }
    if (kind != 4 && fp_rnd(F) % 4 == 0)
        r->flags |= TV_TEXF_OFFSETS;
}

static void run_both(fp *F, const tv_tex_request *r)
{
    tv_tex_result a, b;
    tv_error e;
    memset(&a, 0xcd, sizeof a);
    memset(&b, 0xcd, sizeof b);
    tex_set_fast_paths_disabled(F->unit, false);
    assert_int_equal(tv_tex_execute(F->unit, r, &a, &e), TV_OK);
    tex_set_fast_paths_disabled(F->unit, true);
    assert_int_equal(tv_tex_execute(F->unit, r, &b, &e), TV_OK);
    tex_set_fast_paths_disabled(F->unit, false);
    assert_int_equal(a.invalid, b.invalid);
    for (unsigned l = 0; l < TV_TEX_LANES; l++) {
        if (!((r->active >> l) & 1u))
            continue;
        for (unsigned k = 0; k < 4; k++)
            if (a.v[k][l] != b.v[k][l])
                fail_msg("op %u lane %u comp %u: fast %08x general %08x (s %a t %a)", r->op, l,
                         k, a.v[k][l], b.v[k][l], (double)r->coord[0][l],
                         (double)r->coord[1][l]);
        assert_memory_equal(&a.lod_clamped[l], &b.lod_clamped[l], 4);
    }
}

/* The textures really take the fast path (else the comparison would prove nothing). */
static void test_views_are_fast(void **state)
{
    (void)state;
    fp F;
    setup(&F);
    for (unsigned t = 0; t < NTEX; t++) {
        const tex_view *v = NULL;
        const tex_sampler *s = NULL;
        assert_true(tex_resolve(F.unit, tv_tex_handle(t, 0), &v, &s));
        assert_true(v->unorm8x4);
    }
    fp_teardown(&F);
}

static void random_ops(tv_tex_precision prec)
{
    static const unsigned ops[] = {TV_TEX_OP_SAMPLE, TV_TEX_OP_SAMPLE_BIAS,
                                   TV_TEX_OP_SAMPLE_LOD, TV_TEX_OP_SAMPLE_LZ,
                                   TV_TEX_OP_SAMPLE_GRAD, TV_TEX_OP_GATHER, TV_TEX_OP_FETCH};
    fp F;
    setup(&F);
    tv_tex_set_precision(F.unit, prec);
    static tv_tex_request r;
    for (unsigned i = 0; i < 3000; i++) {
        fill(&F, &r, ops[i % (sizeof ops / sizeof ops[0])]);
        run_both(&F, &r);
    }
    fp_teardown(&F);
}

static void test_reference_precision(void **state)
{
    (void)state;
    random_ops(TV_TEX_PRECISION_REFERENCE);
}

static void test_hardware_precision(void **state)
{
    (void)state;
    random_ops(TV_TEX_PRECISION_HARDWARE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_views_are_fast),
        cmocka_unit_test(test_reference_precision),
        cmocka_unit_test(test_hardware_precision),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
