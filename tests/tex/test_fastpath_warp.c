/* The warp-wide sampling path (src/tex/fast/tex_warp.c) against the general path: random
 * requests of exactly its shape — one handle, 2D / 2D array targets, RGBA8 / BGRA8 UNORM
 * views (pitch and block-linear, odd sizes, view base levels and max levels, header
 * min-LOD clamp, 2D_NO_MIPMAP), REPEAT / MIRROR / CLAMP_TO_EDGE, POINT / LINEAR filters,
 * every mip mode, biases and LOD clamps, SAMPLE / SAMPLE_BIAS / SAMPLE_LOD / SAMPLE_LZ with
 * offsets, projection, NO_DERIV, partial quads and helper lanes, NaN / inf coordinates and
 * LODs on level boundaries — in the reference precision (the hardware one has no fast
 * path: test_declines_other_shapes). tex_warp_sample() is called
 * directly (it must take the request) and every result word is compared with
 * tv_tex_execute() with the fast paths off. Requests whose lanes share their levels go
 * through its vectorised kernel, the others through its lane passes;
 * test_fastpath_warp_full.c aims at the kernel. */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "texvm/tex.h"
#include "fastpath_fixture.h"
#include "tex/tex_sampling.h"
#include "tex/fast/tex_warp.h"

#define NTEX 7 /* 0..4 2D, 5 2D array, 6 2D_NO_MIPMAP */
#define NSMP 36

static const fp_tex textures[NTEX] = {
    FP_WARP_TEXTURES,
};

static void setup(fp *F)
{
    fp_setup(F, 0x2545f491u, textures, NTEX, 63);
    for (unsigned s = 0; s < NSMP; s++) {
        tv_tsc ts;
        fp_tsc_wraps(&ts, s);
        ts.mag_filter = (s & 1) ? TV_MAG_LINEAR : TV_MAG_POINT;
        ts.min_filter = (s % 5 == 0) ? TV_MIN_POINT : TV_MIN_LINEAR;
        ts.mip_filter = (uint8_t)(TV_MIP_NONE + (s / 2) % 3);
        ts.max_anisotropy = (s % 5 == 0) ? 7 : 0; /* aniso code with POINT min: isotropic */
        ts.max_lod_clamp = (s % 7 == 6) ? 0x1c0 : 0xfff;
        ts.min_lod_clamp = (s % 11 == 10) ? 0x80 : 0;
        ts.mip_lod_bias = (int16_t)((s % 4 == 3) ? 0x100 : (s % 9 == 8) ? -0x1a0 : 0);
        ts.srgb_conversion = true; /* no effect: the views are not sRGB */
        fp_put_sampler(F, s, &ts);
    }
}


static float lod_value(fp *F)
{
    uint32_t k = fp_rnd(F) % 16;
    if (k == 0) return NAN;
    if (k == 1) return (fp_rnd(F) & 1) ? INFINITY : -INFINITY;
    if (k < 8) return (float)(int)(fp_rnd(F) % 17) / 2.0f - 2.0f; /* integers and halves */
    if (k < 10) return (float)(int)(fp_rnd(F) % 9) + ((fp_rnd(F) & 1) ? 1.0f / 512 : -1.0f / 512);
    return fp_frnd(F, -3.0f, 9.0f);
}

static void fill(fp *F, tv_tex_request *r, unsigned op)
{
    memset(r, 0, sizeof *r);
    bool array = fp_rnd(F) % 4 == 0;
    unsigned tex = array ? 5 : fp_rnd(F) % 7;
    r->op = (uint8_t)op;
    r->target = (uint8_t)(array ? TV_TEXTGT_2D_ARRAY
                                : (fp_rnd(F) % 6 == 0 ? TV_TEXTGT_2D_ARRAY : TV_TEXTGT_2D));
    switch (fp_rnd(F) % 4) {
    case 0: r->active = ~0u; break;
    case 1: r->active = 0x0f0f0f0fu & fp_rnd(F); break;
    default: r->active = fp_rnd(F); break;
    }
    r->active |= 1u << (fp_rnd(F) % 32);
    r->present = (fp_rnd(F) % 3 == 0) ? 0 : r->active | fp_rnd(F);
    uint32_t k = fp_rnd(F) % 8;
    r->flags = (k & 1 ? TV_TEXF_OFFSETS : 0) | (k & 2 ? TV_TEXF_PROJECTIVE : 0) |
               ((k & 4) && fp_rnd(F) % 3 == 0 ? TV_TEXF_NO_DERIV : 0);
    uint32_t handle = tv_tex_handle(tex, fp_rnd(F) % NSMP);
    float scale = (fp_rnd(F) & 1) ? fp_frnd(F, 0.0f, 0.05f) : fp_frnd(F, 0.0f, 0.6f);
    for (unsigned l = 0; l < TV_TEX_LANES; l++) {
        r->handle[l] = (r->active >> l) & 1u ? handle : (uint32_t)fp_rnd(F); /* inactive: any */
        unsigned q = l & ~3u;
        float span = scale * fp_frnd(F, 0.5f, 1.5f);
        r->coord[0][l] = (l & 3) ? r->coord[0][q] + span * (float)(l & 1) : fp_coord(F);
        r->coord[1][l] = (l & 3) ? r->coord[1][q] + span * (float)((l >> 1) & 1) * 0.7f
                                 : fp_coord(F);
        if (fp_rnd(F) % 40 == 0)
            r->coord[fp_rnd(F) & 1][l] = fp_coord(F);
        r->coord[3][l] = (fp_rnd(F) % 8 == 0) ? fp_coord(F) : fp_frnd(F, -1.0f, 4.0f);
        r->q[l] = (fp_rnd(F) % 16 == 0) ? 0.0f : fp_frnd(F, 0.25f, 2.0f);
        r->lod[l] = lod_value(F);
        r->lod_clamp[l] = (fp_rnd(F) % 4 == 0) ? lod_value(F) : 0.0f;
        r->offset[0][l] = (int8_t)((int)(fp_rnd(F) % 16) - 8);
        r->offset[1][l] = (int8_t)((int)(fp_rnd(F) % 16) - 8);
    }
}

static void test_random_requests(void **state)
{
    (void)state;
    static const unsigned ops[] = {TV_TEX_OP_SAMPLE, TV_TEX_OP_SAMPLE_BIAS,
                                   TV_TEX_OP_SAMPLE_LOD, TV_TEX_OP_SAMPLE_LZ};
    fp F;
    setup(&F);
    static tv_tex_request r;
    unsigned taken = 0, n = 6000;
    for (unsigned i = 0; i < n; i++) {
        fill(&F, &r, ops[i % 4]);
        fp_check_warp(&F, &r, &taken);
    }
    assert_true(taken * 10 >= n * 9); /* the shape really takes the warp path */
    fp_teardown(&F);
}

/* Requests outside the shape are declined (the general path answers them), and so is
 * every request in the hardware precision (its arithmetic is tex_hw_filter.c's). */
static void test_declines_other_shapes(void **state)
{
    (void)state;
    fp F;
    setup(&F);
    static tv_tex_request r;
    static tv_tex_result res;
    fill(&F, &r, TV_TEX_OP_SAMPLE);
    r.flags = 0;
    assert_true(tex_warp_sample(F.unit, &r, &res));
    tv_tex_set_precision(F.unit, TV_TEX_PRECISION_HARDWARE);
    assert_false(tex_warp_sample(F.unit, &r, &res));
    tv_error e;
    assert_int_equal(tv_tex_execute(F.unit, &r, &res, &e), TV_OK);
    tv_tex_set_precision(F.unit, TV_TEX_PRECISION_REFERENCE);
    assert_true(tex_warp_sample(F.unit, &r, &res));
    r.op = TV_TEX_OP_SAMPLE_GRAD;
    assert_false(tex_warp_sample(F.unit, &r, &res));
    r.op = TV_TEX_OP_SAMPLE;
    r.flags = TV_TEXF_COMPARE;
    assert_false(tex_warp_sample(F.unit, &r, &res));
    r.flags = TV_TEXF_PER_QUAD_LOD;
    assert_false(tex_warp_sample(F.unit, &r, &res));
    r.flags = 0;
    r.active = 3;
    r.handle[1] = tv_tex_handle(1, 0);
    r.handle[0] = tv_tex_handle(2, 0);
    assert_false(tex_warp_sample(F.unit, &r, &res));
    tex_set_fast_paths_disabled(F.unit, true);
    r.handle[1] = r.handle[0];
    assert_false(tex_warp_sample(F.unit, &r, &res));
    fp_teardown(&F);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_requests),
        cmocka_unit_test(test_declines_other_shapes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
