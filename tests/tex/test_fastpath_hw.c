/* The hardware precision's fast paths (src/tex/fast/tex_fast_hw.c: bilinear and trilinear
 * levels of unorm8x4 views, integer weights and a 16-bit integer sum, per lane; and
 * tex_warp_hw.c, whole requests of that shape) against the general hardware path
 * (tex_execute.c, tex_hw_filter.c): every request runs through tv_tex_execute with the fast
 * paths on and off (tex_set_fast_paths_disabled), and every result word of every active
 * lane must be bit-identical, with the LOD outputs. The general path is the expected value
 * (tests/tex/test_hw_capture.c holds it to an H100's answers); nothing here is taken from
 * the fast path itself. Each test also requires that the fast path answered a good share
 * of the lookups (tex_fast_hw_count), so the comparison proves something.
 *
 * - test_random: random requests (SAMPLE with quad derivatives, SAMPLE_BIAS, SAMPLE_LOD,
 *   SAMPLE_LZ, SAMPLE_GRAD — anisotropic probes too) on RGBA8 / BGRA8 textures, pitch and
 *   block-linear, odd sizes (37x21, 50x8, 33x65, 19x7, 3x5), views from level 1 and levels
 *   2..4 with a header LOD clamp, a 2D array, a cube (seamless: declined; not: taken), an R8
 *   texture (declined), and samplers over every wrap pair of REPEAT / MIRROR /
 *   CLAMP_TO_EDGE plus BORDER and CLAMP_OGL (declined), point / linear / anisotropic
 *   filters, every mip mode, biases and LOD clamps; coordinates on ties of the 1/256
 *   rounding at the level a lane reads, at texel edges and 2^-9 … 2^-22 beside them, at
 *   the CLAMP_TO_EDGE bounds ½ and size − ½, NaN / ±inf / −0 / 3e9; offsets, projection
 *   (q of 0 and −1 too), NO_DERIV, VALUES_ONLY, partial quads, inactive lanes (must stay
 *   unwritten) and mixed handles; LODs on and between multiples of 1/256, per-lane LOD
 *   clamps. Both entries are exercised: whole requests (tex_warp_hw.c) and single lanes
 *   from the general path (tex_fast_hw.c: mixed handles, cubes, GRAD and anisotropy).
 * - test_sweep: SAMPLE_LZ over every 1/512 texel step of [−2, size + 2] on each axis —
 *   every tie and every grid point — for the nine wrap pairs, on a 64x64 and a 37x21
 *   texture.
 * - test_trilinear_sweep: SAMPLE_LOD with λ over every 1/512 step of [−½, 7] (mip LINEAR:
 *   every mip fraction F), at tie coordinates of the lower level.
 *
 * Perturbations this test was checked against (each fails it): a level's sum as 256·Σ w·t
 * instead of 257·; one unit more for a tap of weight above 200; the coordinate rounded
 * ties down; no CLAMP_TO_EDGE clamp before the rounding; the two levels' shares swapped;
 * the weights split y first; the floor of a negative coordinate truncated instead; the
 * integer form of the axis used for every finite coordinate (not only |u| < 2^14); and in
 * the whole-request path: the shares swapped, 256· instead of 257·, the LOD memo keyed
 * without the per-lane clamp, layer 0 for every lane, offsets or projection ignored, a
 * wrong quad difference, the swizzle ignored, anisotropic samplers taken. */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "texvm/tex.h"
#include "fastpath_fixture.h"
#include "tex/fast/tex_fast.h"
#include "tex/fast/tex_fast_hw.h"

enum { T_POW2 = 0, T_ODD = 1, T_ARRAY = 7, T_CUBE = 8, T_R8 = 9, NTEX = 10, NSMP = 40 };

static const fp_tex textures[NTEX] = {
    {"R8G8B8A8_UNORM", 64, 64, TV_TIC_BLOCKLINEAR, TV_TEX_2D, 0, -1, 0},
    {"R8G8B8A8_UNORM", 37, 21, TV_TIC_PITCH, TV_TEX_2D, 0, -1, 0},
    {"B8G8R8A8_UNORM", 50, 8, TV_TIC_BLOCKLINEAR, TV_TEX_2D, 0, -1, 0},
    {"R8G8B8A8_UNORM", 16, 16, TV_TIC_PITCH, TV_TEX_2D, 1, -1, 0}, /* view from level 1 */
    {"B8G8R8A8_UNORM", 33, 65, TV_TIC_BLOCKLINEAR, TV_TEX_2D, 2, 4, 0x280},
    {"R8G8B8A8_UNORM", 19, 7, TV_TIC_PITCH, TV_TEX_2D_NO_MIPMAP, 0, -1, 0},
    {"B8G8R8A8_UNORM", 3, 5, TV_TIC_PITCH, TV_TEX_2D, 0, -1, 0},
    {"R8G8B8A8_UNORM", 24, 12, TV_TIC_BLOCKLINEAR, TV_TEX_2D_ARRAY, 0, -1, 0},
    {"B8G8R8A8_UNORM", 16, 16, TV_TIC_BLOCKLINEAR, TV_TEX_CUBE, 0, -1, 0},
    {"R8_UNORM", 32, 32, TV_TIC_BLOCKLINEAR, TV_TEX_2D, 0, -1, 0},
};
enum { N2D = 7 }; /* textures 0..6 are 2D */

/* Sampler s: wraps over the nine pairs (s % 9), then BORDER and CLAMP_OGL for s >= 36;
 * mostly LINEAR, with POINT and ANISO mixed in; mip modes, clamps and biases varied. */
static void put_samplers(fp *F)
{
    for (unsigned s = 0; s < NSMP; s++) {
        tv_tsc ts;
        fp_tsc_wraps(&ts, s);
        if (s >= 36) {
            ts.address_u = (s & 1) ? TV_WRAP_BORDER : TV_WRAP_REPEAT;
            ts.address_v = (s & 1) ? TV_WRAP_CLAMP_TO_EDGE : TV_WRAP_CLAMP_OGL;
        }
        ts.mag_filter = s % 8 == 5 ? TV_MAG_POINT : TV_MAG_LINEAR;
        ts.min_filter = s % 10 == 9 ? TV_MIN_POINT : s % 6 == 4 ? TV_MIN_ANISO : TV_MIN_LINEAR;
        ts.mip_filter = (uint8_t)(s % 4 == 0 ? TV_MIP_NONE : s % 4 == 1 ? TV_MIP_POINT
                                                                        : TV_MIP_LINEAR);
        ts.max_anisotropy = s % 6 == 4 ? 3 : s % 7 == 6 ? 7 : 0;
        ts.max_lod_clamp = s % 13 == 12 ? 0x180 : 0xfff;
        ts.min_lod_clamp = s % 11 == 10 ? 0x80 : 0;
        ts.mip_lod_bias = (int16_t)(s % 5 == 4 ? 0x40 : s % 5 == 3 ? -0x61 : 0);
        ts.cubemap_interface_filtering = (uint8_t)(s & 2 ? 2 : 0); /* seamless or not */
        ts.border_color[0] = 0x3e800000u;
        ts.border_color[1] = 0x3f000000u;
        ts.border_color[2] = 0x3f400000u;
        ts.border_color[3] = 0x3f800000u;
        fp_put_sampler(F, s, &ts);
    }
}

static void setup(fp *F, uint32_t seed)
{
    fp_setup(F, seed, textures, NTEX, NSMP - 1);
    put_samplers(F);
    tv_tex_set_precision(F->unit, TV_TEX_PRECISION_HARDWARE);
}

typedef struct counts {
    unsigned lookups;  /* active lanes compared */
    uint64_t fast;     /* lanes (probes) the fast paths answered */
    uint64_t whole;    /* requests the whole-request path took */
} counts;

/* r with the fast paths on and off: every active lane's words equal (fp_same_lane). */
static void run_both(fp *F, const tv_tex_request *r, counts *n)
{
    static tv_tex_result a, b;
    tv_error e;
    memset(&a, 0xcd, sizeof a);
    memset(&b, 0xcd, sizeof b);
    uint64_t before = tex_fast_hw_count(), req0, req1, lanes;
    tex_warp_hw_counts(&req0, &lanes);
    tex_set_fast_paths_disabled(F->unit, false);
    assert_int_equal(tv_tex_execute(F->unit, r, &a, &e), TV_OK);
    n->fast += tex_fast_hw_count() - before;
    tex_warp_hw_counts(&req1, &lanes);
    n->whole += req1 - req0;
    before = tex_fast_hw_count();
    tex_set_fast_paths_disabled(F->unit, true);
    assert_int_equal(tv_tex_execute(F->unit, r, &b, &e), TV_OK);
    tex_set_fast_paths_disabled(F->unit, false);
    assert_true(tex_fast_hw_count() == before); /* the switch turns it off */
    assert_int_equal(a.invalid, b.invalid);
    for (unsigned l = 0; l < TV_TEX_LANES; l++) {
        if ((r->active >> l) & 1u) {
            fp_same_lane(r, &a, &b, l, "general hardware path");
            n->lookups++;
        } else { /* not written by either */
            for (unsigned k = 0; k < 4; k++)
                assert_int_equal(a.v[k][l], 0xcdcdcdcdu);
            assert_memory_equal(&a.lod_clamped[l], &b.lod_clamped[l], 4);
        }
    }
}

/* A normalized coordinate for an axis of `size` texels at level 0 (sizes halve per level,
 * at least 1). */
static float coord(fp *F, unsigned size)
{
    unsigned level = fp_rnd(F) % 4;
    unsigned sz = size >> level ? size >> level : 1;
    float n = (float)sz;
    switch (fp_rnd(F) % 8) {
    case 0: /* a tie of the 1/256 rounding at that level: u = (k + ½)/256 texels */
        return ((float)((int)(fp_rnd(F) % (sz * 256 * 3)) - (int)(sz * 256)) + 0.5f) /
               (256.0f * n);
    case 1: { /* a texel edge, 2^-9 … 2^-22 beside it (or on it) */
        float e = (float)((int)(fp_rnd(F) % (sz + 3)) - 1);
        int k = (int)(fp_rnd(F) % 15);
        float d = k == 14 ? 0.0f : ldexpf((fp_rnd(F) & 1) ? 1.0f : -1.0f, -9 - k);
        return (e + d) / n;
    }
    case 2: { /* the CLAMP_TO_EDGE bounds ½ and size − ½, and just beside them */
        float e = (fp_rnd(F) & 1) ? 0.5f : n - 0.5f;
        float d = ldexpf((float)((int)(fp_rnd(F) % 3) - 1), -10 - (int)(fp_rnd(F) % 12));
        return (e + d) / n;
    }
    case 3:
        return fp_coord(F); /* NaN, ±inf, −0, 3e9, edges, centres, [−2.5, 3.5] */
    default:
        return fp_frnd(F, -2.5f, 3.5f);
    }
}

static float lod_value(fp *F)
{
    switch (fp_rnd(F) % 4) {
    case 0: return (float)((int)(fp_rnd(F) % 2304) - 256) / 256.0f; /* on the 1/256 grid */
    case 1: return ((float)((int)(fp_rnd(F) % 2304) - 256) + 0.5f) / 256.0f; /* between */
    case 2: return fp_rnd(F) % 16 == 0 ? NAN : fp_frnd(F, -1.0f, 8.0f);
    default: return fp_frnd(F, -1.0f, 8.0f);
    }
}

static void fill(fp *F, tv_tex_request *r, unsigned op)
{
    memset(r, 0, sizeof *r);
    unsigned kind = fp_rnd(F) % 8; /* 0..4: 2D, 5: R8, 6: 2D array, 7: cube */
    unsigned tex = kind <= 4 ? fp_rnd(F) % N2D : kind == 5 ? T_R8 : kind == 6 ? T_ARRAY : T_CUBE;
    r->op = (uint8_t)op;
    r->target = (uint8_t)(tex == T_ARRAY ? TV_TEXTGT_2D_ARRAY
                          : tex == T_CUBE ? TV_TEXTGT_CUBE : TV_TEXTGT_2D);
    r->active = fp_rnd(F) % 4 ? ~0u : fp_rnd(F) | 1u;
    r->present = r->active | fp_rnd(F);
    unsigned w = textures[tex].w, h = textures[tex].h;
    uint32_t handle = tv_tex_handle(tex, fp_rnd(F) % NSMP);
    bool uniform = fp_rnd(F) % 8 != 0;
    float scale = ldexpf(1.0f, -(int)(fp_rnd(F) % 9)); /* quad spans from 1 texel to 1/256 */
    for (unsigned l = 0; l < TV_TEX_LANES; l++) {
        r->handle[l] = uniform ? handle : tv_tex_handle(tex, fp_rnd(F) % NSMP);
        unsigned q = l & ~3u;
        if (tex == T_CUBE) { /* a direction; quads spread around the first lane's */
            for (unsigned a = 0; a < 3; a++)
                r->coord[a][l] = (l & 3) ? r->coord[a][q] + 0.05f * (float)((l >> a) & 1)
                                         : fp_frnd(F, -1.0f, 1.0f);
        } else if (l & 3) { /* quads: the lane's neighbours at a few texels' spacing */
            float sp = fp_frnd(F, 0.0f, 6.0f) * scale;
            r->coord[0][l] = r->coord[0][q] + sp / (float)w * (float)(l & 1);
            r->coord[1][l] = r->coord[1][q] + sp / (float)h * (float)((l >> 1) & 1);
        } else {
            r->coord[0][l] = coord(F, w);
            r->coord[1][l] = coord(F, h);
        }
        r->coord[3][l] = fp_frnd(F, -1.0f, 4.0f); /* array layer */
        r->lod[l] = lod_value(F);
        r->lod_clamp[l] = fp_rnd(F) % 8 == 0 ? fp_frnd(F, 0.0f, 3.0f) : 0.0f;
        for (unsigned a = 0; a < 3; a++) {
            r->ddx[a][l] = fp_frnd(F, -0.3f, 0.3f) * scale;
            r->ddy[a][l] = fp_frnd(F, -0.05f, 0.05f) * scale;
        }
        r->offset[0][l] = (int8_t)((int)(fp_rnd(F) % 16) - 8);
        r->offset[1][l] = (int8_t)((int)(fp_rnd(F) % 16) - 8);
        unsigned qk = fp_rnd(F) % 16;
        r->q[l] = qk == 0 ? 0.0f : qk == 1 ? -1.0f : fp_frnd(F, 0.25f, 2.0f);
    }
    if (tex != T_CUBE && fp_rnd(F) % 4 == 0)
        r->flags |= TV_TEXF_OFFSETS;
    if (fp_rnd(F) % 4 == 0)
        r->flags |= TV_TEXF_PROJECTIVE;
    if (fp_rnd(F) % 8 == 0)
        r->flags |= TV_TEXF_NO_DERIV;
    if (fp_rnd(F) % 8 == 0)
        r->flags |= TV_TEXF_VALUES_ONLY;
}

static void test_random(void **state)
{
    (void)state;
    static const unsigned ops[] = {TV_TEX_OP_SAMPLE, TV_TEX_OP_SAMPLE_BIAS,
                                   TV_TEX_OP_SAMPLE_LOD, TV_TEX_OP_SAMPLE_LZ,
                                   TV_TEX_OP_SAMPLE_GRAD};
    fp F;
    setup(&F, 0x51ed270bu);
    static tv_tex_request r;
    counts n = {0, 0, 0};
    for (unsigned i = 0; i < 6000; i++) {
        fill(&F, &r, ops[i % (sizeof ops / sizeof ops[0])]);
        run_both(&F, &r, &n);
    }
    print_message("random: %u lookups compared, %llu through the fast paths, %llu of 6000 "
                  "requests whole\n",
                  n.lookups, (unsigned long long)n.fast, (unsigned long long)n.whole);
    assert_true(n.lookups > 100000);
    assert_true(n.fast > n.lookups / 3);
    assert_true(n.whole > 600); /* both entries: whole requests and single lanes */
    assert_true(n.fast > n.whole * 32 / 2);
    fp_teardown(&F);
}

/* SAMPLE_LZ, 32 lanes per request, sweeping axis `ax` of texture `tex` over every 1/512
 * texel step of [−2, size + 2] (the other axis at a random point), sampler s. */
static void sweep(fp *F, unsigned tex, unsigned s, unsigned ax, counts *n)
{
    static tv_tex_request r;
    unsigned size = ax ? textures[tex].h : textures[tex].w;
    unsigned other = ax ? textures[tex].w : textures[tex].h;
    unsigned steps = (size + 4) * 512;
    for (unsigned k0 = 0; k0 < steps; k0 += TV_TEX_LANES) {
        memset(&r, 0, sizeof r);
        r.op = TV_TEX_OP_SAMPLE_LZ;
        r.target = TV_TEXTGT_2D;
        r.active = ~0u;
        for (unsigned l = 0; l < TV_TEX_LANES; l++) {
            float u = ((float)(k0 + l) - 1024.0f) / 512.0f; /* texels, exact */
            r.handle[l] = tv_tex_handle(tex, s);
            r.coord[ax][l] = u / (float)size;
            /* the other axis on a tie of the rounding (exact for a power-of-two size) */
            r.coord[1 - ax][l] =
                ((float)(fp_rnd(F) % (other * 256)) + 0.5f) / (256.0f * (float)other);
        }
        run_both(F, &r, n);
    }
}

static void test_sweep(void **state)
{
    (void)state;
    fp F;
    setup(&F, 0x2545f491u);
    counts n = {0, 0, 0};
    for (unsigned s = 0; s < 9; s++) { /* the nine wrap pairs, LINEAR magnification */
        unsigned smp = s == 5 ? 14 : s; /* sampler 5 magnifies POINT; 14 has its wraps */
        for (unsigned ax = 0; ax < 2; ax++) {
            sweep(&F, T_POW2, smp, ax, &n);
            sweep(&F, T_ODD, smp, ax, &n);
        }
    }
    print_message("sweep: %u lookups compared, %llu through the fast paths (%llu requests "
                  "whole)\n", n.lookups, (unsigned long long)n.fast, (unsigned long long)n.whole);
    assert_true(n.fast == n.lookups); /* every one of them is the fast path's shape */
    fp_teardown(&F);
}

/* SAMPLE_LOD with λ = k/512 − ½ (every mip fraction F of the trilinear blend, and the
 * truncation of every half step), coordinates on ties of the lower level. */
static void test_trilinear_sweep(void **state)
{
    (void)state;
    fp F;
    setup(&F, 0x9e3779b9u);
    static tv_tex_request r;
    counts n = {0, 0, 0};
    static const unsigned smps[] = {2, 3, 6, 7, 11, 14, 15}; /* mip LINEAR, LINEAR filters */
    for (unsigned si = 0; si < sizeof smps / sizeof smps[0]; si++) {
        for (unsigned k0 = 0; k0 < 15 * 256; k0 += TV_TEX_LANES) {
            memset(&r, 0, sizeof r);
            r.op = TV_TEX_OP_SAMPLE_LOD;
            r.target = TV_TEXTGT_2D;
            r.active = ~0u;
            unsigned tex = si & 1 ? T_POW2 : T_ODD;
            for (unsigned l = 0; l < TV_TEX_LANES; l++) {
                r.handle[l] = tv_tex_handle(tex, smps[si]);
                r.lod[l] = (float)(k0 + l) / 512.0f - 0.5f;
                unsigned lv = k0 + l < 256 ? 0 : (k0 + l - 256) / 512; /* ⌊λ⌋ */
                for (unsigned a = 0; a < 2; a++) {
                    unsigned sz = (a ? textures[tex].h : textures[tex].w) >> lv;
                    sz = sz ? sz : 1;
                    r.coord[a][l] = ((float)((int)(fp_rnd(&F) % (sz * 512)) - (int)(sz * 128)) + 0.5f) /
                                    (256.0f * (float)sz);
                }
            }
            run_both(&F, &r, &n);
        }
    }
    print_message("trilinear sweep: %u lookups compared, %llu through the fast paths (%llu "
                  "requests whole)\n", n.lookups, (unsigned long long)n.fast,
                  (unsigned long long)n.whole);
    assert_true(n.fast == n.lookups);
    fp_teardown(&F);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random),
        cmocka_unit_test(test_sweep),
        cmocka_unit_test(test_trilinear_sweep),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
