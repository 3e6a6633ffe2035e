/* The warp-wide anisotropic path (src/tex/fast/tex_warp_aniso.c, its vector probes in
 * tex_warp_vec.c) against the general path:
 * random requests of exactly its shape — one handle, 2D / 2D array targets, RGBA8 / BGRA8
 * UNORM views (pitch and block-linear, power-of-two and odd sizes, view base and max
 * levels, header min-LOD clamp, 2D_NO_MIPMAP), samplers with max anisotropy 2x..16x
 * (LINEAR / ANISO minification, POINT / LINEAR magnification, every mip mode, sampler
 * biases, LOD clamps), REPEAT / MIRROR / CLAMP_TO_EDGE, SAMPLE and SAMPLE_BIAS with
 * offsets and projection, quads of anisotropic footprints (ratios 1..40 along random
 * directions), partial quads and helper lanes, coordinates on texel edges, huge, NaN and
 * infinite — in the reference precision (the hardware one has no warp path:
 * test_hardware_precision_declined). tex_warp_aniso_sample() is called directly (it must
 * take the request) and every result word is compared with tv_tex_execute() with the fast
 * paths off; tv_tex_execute() with the fast paths on must give the same words (the hook
 * in tex_execute.c). */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "texvm/tex.h"
#include "fastpath_fixture.h"
#include "tex/fast/tex_warp_aniso.h"
#include "tex/fast/tex_warp.h"

#define NTEX 8 /* 0..4 and 7 2D, 5 2D array, 6 2D_NO_MIPMAP */
#define NSMP 48

static const fp_tex textures[NTEX] = {
    FP_WARP_TEXTURES,
    {"R8G8B8A8_UNORM", 256, 128, TV_TIC_PITCH, TV_TEX_2D, 0, -1, 0},
};

static void setup(fp *F)
{
    fp_setup(F, 0x9e3779b9u, textures, NTEX, 63);
    for (unsigned s = 0; s < NSMP; s++) {
        tv_tsc ts;
        fp_tsc_wraps(&ts, s);
        ts.mag_filter = (s % 4 == 1) ? TV_MAG_POINT : TV_MAG_LINEAR;
        ts.min_filter = (s % 5 == 0) ? TV_MIN_ANISO : TV_MIN_LINEAR;
        ts.mip_filter = (uint8_t)(TV_MIP_NONE + (s / 2) % 3);
        ts.max_anisotropy = (uint8_t)(1 + s % 7); /* 2x .. 16x */
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
    return fp_frnd(F, -3.0f, 6.0f);
}

/* one_footprint: one affine mapping across the whole 8x4 tile (lane 4q + i is pixel i of
 * quad q, quads 4 wide and 2 high), so that every lane has the same derivatives — the
 * shape whose probes go through the vector kernel (tex_warp_vec_probes) */
static void fill_shaped(fp *F, tv_tex_request *r, unsigned op, bool one_footprint)
{
    memset(r, 0, sizeof *r);
    bool array = fp_rnd(F) % 4 == 0;
    unsigned tex = array ? 5 : (unsigned[]){0, 1, 2, 3, 4, 6, 7}[fp_rnd(F) % 7];
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
    uint32_t k = fp_rnd(F) % 4;
    r->flags = (k & 1 ? TV_TEXF_OFFSETS : 0) | (k & 2 ? TV_TEXF_PROJECTIVE : 0);
    uint32_t handle = tv_tex_handle(tex, fp_rnd(F) % NSMP);
    /* one footprint per quad: a major axis along a random direction, a minor one
     * perpendicular to it shorter by a random ratio (x and y swapped at random) */
    float scale = (fp_rnd(F) & 1) ? fp_frnd(F, 0.0f, 0.05f) : fp_frnd(F, 0.0f, 0.6f);
    for (unsigned q = 0; q < TV_TEX_LANES; q += 4) {
        float ang = fp_frnd(F, 0.0f, 6.2831853f), ratio = fp_frnd(F, 1.0f, 40.0f);
        float major = scale * fp_frnd(F, 0.5f, 1.5f), minor = major / ratio;
        float dx[2] = {major * cosf(ang), major * sinf(ang)};
        float dy[2] = {-minor * sinf(ang), minor * cosf(ang)};
        if (fp_rnd(F) & 1)
            for (unsigned a = 0; a < 2; a++) {
                float t = dx[a];
                dx[a] = dy[a];
                dy[a] = t;
            }
        float s0 = fp_coord(F), t0 = fp_coord(F);
        if (one_footprint) { /* the whole tile from quad 0's mapping */
            for (unsigned l = 0; l < TV_TEX_LANES; l++) {
                unsigned qq = l / 4, i = l % 4;
                float fx = (float)((qq % 4) * 2 + (i & 1u)), fy = (float)((qq / 4) * 2 + (i >> 1));
                r->coord[0][l] = s0 + fx * dx[0] + fy * dy[0];
                r->coord[1][l] = t0 + fx * dx[1] + fy * dy[1];
                if (fp_rnd(F) % 400 == 0)
                    r->coord[fp_rnd(F) & 1][l] = fp_coord(F);
            }
            break;
        }
        for (unsigned i = 0; i < 4; i++) {
            unsigned l = q + i;
            float fx = (float)(i & 1u), fy = (float)((i >> 1) & 1u);
            r->coord[0][l] = s0 + fx * dx[0] + fy * dy[0];
            r->coord[1][l] = t0 + fx * dx[1] + fy * dy[1];
            if (fp_rnd(F) % 40 == 0)
                r->coord[fp_rnd(F) & 1][l] = fp_coord(F);
        }
    }
    for (unsigned l = 0; l < TV_TEX_LANES; l++) {
        r->handle[l] = (r->active >> l) & 1u ? handle : (uint32_t)fp_rnd(F); /* inactive: any */
        r->coord[3][l] = (fp_rnd(F) % 8 == 0) ? fp_coord(F) : fp_frnd(F, -1.0f, 4.0f);
        r->q[l] = (fp_rnd(F) % 16 == 0) ? 0.0f : fp_frnd(F, 0.25f, 2.0f);
        r->lod[l] = lod_value(F);
        r->lod_clamp[l] = (fp_rnd(F) % 4 == 0) ? lod_value(F) : 0.0f;
        r->offset[0][l] = (int8_t)((int)(fp_rnd(F) % 16) - 8);
        r->offset[1][l] = (int8_t)((int)(fp_rnd(F) % 16) - 8);
    }
    if (one_footprint && fp_rnd(F) % 8 != 0) { /* a shader's bias and clamp: one value */
        for (unsigned l = 1; l < TV_TEX_LANES; l++) {
            r->lod[l] = r->lod[0];
            r->lod_clamp[l] = r->lod_clamp[0];
        }
        if (fp_rnd(F) % 2)
            r->present = 0;
    }
}

static void fill(fp *F, tv_tex_request *r, unsigned op)
{
    fill_shaped(F, r, op, false);
}

/* Returns true when the anisotropic path took the request; counts its anisotropic lanes
 * (log2(minor/major) <= -1: two probes or more unless clamped by the sampler). */
static bool check(fp *F, const tv_tex_request *r, unsigned *aniso_lanes)
{
    static tv_tex_result a, b, c;
    tv_error e;
    memset(&a, 0xcd, sizeof a);
    memset(&b, 0xcd, sizeof b);
    memset(&c, 0xcd, sizeof c);
    a.invalid = 0;
    tex_set_fast_paths_disabled(F->unit, false);
    if (!tex_warp_aniso_sample(F->unit, r, &a))
        return false;
    assert_int_equal(tv_tex_execute(F->unit, r, &c, &e), TV_OK);
    tex_set_fast_paths_disabled(F->unit, true);
    assert_int_equal(tv_tex_execute(F->unit, r, &b, &e), TV_OK);
    tex_set_fast_paths_disabled(F->unit, false);
    assert_int_equal(a.invalid, b.invalid);
    assert_int_equal(c.invalid, b.invalid);
    for (unsigned l = 0; l < TV_TEX_LANES; l++) {
        if (!((r->active >> l) & 1u)) { /* inactive lanes are not written */
            assert_int_equal(a.v[0][l], 0xcdcdcdcdu);
            continue;
        }
        fp_same_lane(r, &a, &b, l, "general");
        fp_same_lane(r, &a, &c, l, "tv_tex_execute");
        if (a.log2_ratio[l] <= -1.0f)
            (*aniso_lanes)++;
    }
    return true;
}

static void test_random_requests(void **state)
{
    (void)state;
    static const unsigned ops[] = {TV_TEX_OP_SAMPLE, TV_TEX_OP_SAMPLE_BIAS};
    fp F;
    setup(&F);
    static tv_tex_request r;
    unsigned taken = 0, n = 3000, lanes = 0;
    for (unsigned i = 0; i < n; i++) {
        fill(&F, &r, ops[i % 2]);
        if (check(&F, &r, &lanes))
            taken++;
    }
    assert_true(taken * 10 >= n * 9); /* the shape really takes the anisotropic path */
    assert_true(lanes >= n * 4);      /* and many of its lanes are anisotropic */
    fp_teardown(&F);
}

/* The hardware precision has no warp path (its arithmetic is tex_hw_filter.c's): a
 * request the anisotropic path takes in the reference precision is declined in the
 * hardware one, and tv_tex_execute answers it. */
static void test_hardware_precision_declined(void **state)
{
    (void)state;
    fp F;
    setup(&F);
    static tv_tex_request r;
    static tv_tex_result res;
    unsigned tries = 0;
    do { /* a request of the path's shape (most are) */
        fill(&F, &r, TV_TEX_OP_SAMPLE);
        assert_true(++tries < 100);
    } while (!tex_warp_aniso_sample(F.unit, &r, &res));
    tv_tex_set_precision(F.unit, TV_TEX_PRECISION_HARDWARE);
    assert_false(tex_warp_aniso_sample(F.unit, &r, &res));
    tv_error e;
    assert_int_equal(tv_tex_execute(F.unit, &r, &res, &e), TV_OK);
    fp_teardown(&F);
}

/* Requests with one footprint across the tile, per kernel variant: the probes run as
 * vector passes (tex_warp_vec_probes) for most of them — every level slot the same for
 * the active lanes, and a kernel-readable level — and every result word still equals the
 * general path's. The others (a lane moved elsewhere, odd sizes under REPEAT / MIRROR,
 * coordinates past 2^23 texels) fall back to the lane-by-lane probes. */
static void probes_one_footprint(unsigned cap)
{
    static const unsigned ops[] = {TV_TEX_OP_SAMPLE, TV_TEX_OP_SAMPLE_BIAS};
    fp F;
    setup(&F);
    tex_set_vector_isa_cap(F.unit, cap);
    static tv_tex_request r;
    unsigned taken = 0, n = 1500, lanes = 0;
    uint64_t before = tex_warp_vec_probe_count();
    for (unsigned i = 0; i < n; i++) {
        fill_shaped(&F, &r, ops[i % 2], true);
        if (check(&F, &r, &lanes))
            taken++;
    }
    uint64_t vec = tex_warp_vec_probe_count() - before;
    print_message("isa cap %u: %u of %u taken, %u by the vector probes, "
                  "%u anisotropic lanes\n", cap, taken, n, (unsigned)vec, lanes);
    assert_true(taken * 10 >= n * 9);
    assert_true(vec * 3 >= taken);   /* many through the vector probes (42 % at seed 0x9e3779b9) */
    assert_true(vec < taken);        /* and the fallbacks were exercised too */
    assert_true(lanes >= n * 4);
    fp_teardown(&F);
}
FP_VARIANT_TESTS(probes_one_footprint)

/* Requests outside the shape are declined (another path answers them). */
static void test_declines_other_shapes(void **state)
{
    (void)state;
    fp F;
    setup(&F);
    tv_tsc ts;
    memset(&ts, 0, sizeof ts);
    ts.mag_filter = TV_MAG_LINEAR;
    ts.min_filter = TV_MIN_LINEAR;
    ts.mip_filter = TV_MIP_LINEAR;
    ts.max_lod_clamp = 0xfff;
    fp_put_sampler(&F, 60, &ts); /* isotropic (max anisotropy 1x) */
    ts.max_anisotropy = 7;
    ts.min_filter = TV_MIN_POINT;
    fp_put_sampler(&F, 61, &ts); /* POINT minification: isotropic */
    ts.min_filter = TV_MIN_LINEAR;
    ts.address_u = TV_WRAP_BORDER;
    fp_put_sampler(&F, 62, &ts);
    static tv_tex_request r;
    static tv_tex_result res;
    fill(&F, &r, TV_TEX_OP_SAMPLE);
    r.flags = 0;
    r.target = TV_TEXTGT_2D;
    for (unsigned l = 0; l < TV_TEX_LANES; l++)
        r.handle[l] = tv_tex_handle(0, 0);
    assert_true(tex_warp_aniso_sample(F.unit, &r, &res));
    static const unsigned other_ops[] = {TV_TEX_OP_SAMPLE_LOD, TV_TEX_OP_SAMPLE_LZ,
                                         TV_TEX_OP_SAMPLE_GRAD, TV_TEX_OP_GATHER};
    for (unsigned i = 0; i < 4; i++) {
        r.op = (uint8_t)other_ops[i];
        assert_false(tex_warp_aniso_sample(F.unit, &r, &res));
    }
    r.op = TV_TEX_OP_SAMPLE;
    static const uint32_t other_flags[] = {TV_TEXF_COMPARE, TV_TEXF_PER_QUAD_LOD,
                                           TV_TEXF_NO_DERIV};
    for (unsigned i = 0; i < 3; i++) {
        r.flags = other_flags[i];
        assert_false(tex_warp_aniso_sample(F.unit, &r, &res));
    }
    r.flags = 0;
    uint32_t handle = r.handle[0];
    for (unsigned smp = 60; smp <= 62; smp++) {
        for (unsigned l = 0; l < TV_TEX_LANES; l++)
            r.handle[l] = tv_tex_handle(0, smp);
        assert_false(tex_warp_aniso_sample(F.unit, &r, &res));
    }
    r.active = 3;
    r.handle[0] = tv_tex_handle(2, 0);
    r.handle[1] = tv_tex_handle(1, 0);
    assert_false(tex_warp_aniso_sample(F.unit, &r, &res));
    r.handle[0] = r.handle[1] = handle;
    assert_true(tex_warp_aniso_sample(F.unit, &r, &res));
    tex_set_fast_paths_disabled(F.unit, true);
    assert_false(tex_warp_aniso_sample(F.unit, &r, &res));
    fp_teardown(&F);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_requests),
        cmocka_unit_test(test_hardware_precision_declined),
        cmocka_unit_test(test_declines_other_shapes),
        FP_VARIANT_UNIT_TESTS,
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
