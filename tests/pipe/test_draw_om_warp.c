/* The tile-at-a-time output merger and coverage (pipe_draw_om_warp.c, the rasteriser's
 * lanes, the fragment stage's warps packed from small triangles' quads) against the
 * per-pixel reference the plain interpreter draws with: random
 * overlapping triangles under random blend states (every factor, equation, colour mask,
 * logic op, alpha-to-one, a random blend colour, dual source), depth and stencil states,
 * on colour targets of every class (UNORM, SNORM, sRGB, float, packed, integer) alone or
 * two at once — colour, depth and stencil bytes and the occlusion count must be equal.
 * Shaders that export depth or kill, multisampled targets and polygon stipple take the
 * lane-by-lane route and are in the mix too. test_early_depth_equal_pixels aims the same
 * comparison at the early depth pass of depth-only tests (draw_om_early_lanes and its
 * vector pass early_depths32): the 4-byte depth formats and others, depths past [0, 1]
 * without depth clip, depth clamp with a depth range inside [0, 1], polygon offsets,
 * clears at 0, 0.25, …, 1; it failed with each of these perturbations of the vector
 * pass: the offset added in double, the [0, 1] clamp at 0.999, an ulp off one lane's
 * float depth or one lane's UNORM depth, the pass taken under depth clamp. (Testing
 * z > 0 instead of z >= 0 survives: it differs only at a plane depth of −0, which the
 * viewport transform does not produce.) test_whole_tiles_equal_pixels aims it at the
 * whole-tile blend of RGBA32 float targets (pipe_om_blend_tile.c): triangles larger than
 * the target under the blend states it serves. And om_blend_lanes against om_blend_color on
 * random values, NaNs and infinities included, bit for bit. */
#include "helper_draw.h"

#include "pipe/pipe_om.h"
#include "util/half.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common_rng.h"

enum { TW = 40, TH = 24, NTRI = 14, ROUNDS = 160 };
enum { RT2 = 5, SURF2 = 12 };

static float unit(uint32_t *s)
{
    return (float)(tc_rng_next(s) & 0xffffff) / (float)0x1000000;
}

static const uint8_t factors[] = {0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a,
                                  0x11, 0x12, 0x13, 0x14, 0x15, 0x17, 0x18, 0x19, 0x1a};

static uint8_t any_factor(uint32_t *s)
{
    return factors[tc_rng_next(s) % sizeof factors];
}

/* COLOR[0] the colour, COLOR[1] (second target or dual source) its swizzle halved */
static const char fs_two[] = "FRAG\n"
                             "DCL IN[0], GENERIC[0], PERSPECTIVE\n"
                             "DCL OUT[0], COLOR\n"
                             "DCL OUT[1], COLOR[1]\n"
                             "IMM[0] FLT32 {0.5, 0.0, 0.0, 0.0}\n"
                             "  0: MOV OUT[0], IN[0]\n"
                             "  1: MUL OUT[1], IN[0].wzyx, IMM[0].xxxx\n"
                             "  2: END\n";
/* exports depth (the lane-by-lane route) */
static const char fs_depth[] = "FRAG\n"
                               "DCL IN[0], GENERIC[0], PERSPECTIVE\n"
                               "DCL OUT[0], COLOR\n"
                               "DCL OUT[1], POSITION\n"
                               "IMM[0] FLT32 {0.5, 0.0, 0.0, 0.0}\n"
                               "  0: MOV OUT[0], IN[0]\n"
                               "  1: MUL OUT[1].z, IN[0].xxxx, IMM[0].xxxx\n"
                               "  2: END\n";
/* kills where red < 0 (late tests) */
static const char fs_kill[] = "FRAG\n"
                              "DCL IN[0], GENERIC[0], PERSPECTIVE\n"
                              "DCL OUT[0], COLOR\n"
                              "  0: KILL_IF IN[0].xxxx\n"
                              "  1: MOV OUT[0], IN[0]\n"
                              "  2: END\n";

static const char *const formats[] = {"R8G8B8A8_UNORM",    "R32G32B32A32_FLOAT",
                                      "R16G16B16A16_FLOAT", "R8G8B8A8_SNORM",
                                      "B8G8R8A8_SRGB",     "R10G10B10A2_UNORM",
                                      "R32G32B32A32_UINT", "R16G16B16A16_SINT",
                                      "B5G6R5_UNORM",      "R11G11B10_FLOAT"};

typedef struct result {
    uint8_t *bytes[3];
    size_t size[3];
    uint64_t passed;
} result;

static void keep(tv_pipe_ctx *ctx, uint32_t handle, result *r, unsigned i)
{
    r->size[i] = tv_pipe_resource_size(ctx, handle);
    r->bytes[i] = malloc(r->size[i] ? r->size[i] : 1);
    assert_non_null(r->bytes[i]);
    memcpy(r->bytes[i], tv_pipe_resource_data(ctx, handle), r->size[i]);
}

/* The rounds of test_early_depth_equal_pixels: every round takes the early depth pass
 * of single-sampled depth-only tests (draw_om_early_lanes) on the depth formats, with
 * depths past [0, 1] (no depth clip), near the cleared values, and polygon offsets. */
static bool depth_focus;
/* The rounds of test_whole_tiles_equal_pixels: RGBA32 float targets under the blend
 * states the whole-tile blend serves (pipe_om_blend_tile.c), drawn over by triangles
 * larger than the target, so that most tiles are whole and all blended. */
static bool whole_focus;

/* Round SEED's scene on the plain interpreter or not. */
static result run(uint32_t seed, bool plain)
{
    uint32_t s = seed;
    unsigned samples = tc_rng_next(&s) % 8 == 0 && !depth_focus && !whole_focus ? 4 : 1;
    unsigned ncb = 1 + (tc_rng_next(&s) % 3 == 0);
    uint32_t fmt[2];
    for (unsigned i = 0; i < 2; i++)
        fmt[i] = tv_pipe_format_from_name(
            whole_focus && (i == 0 || tc_rng_next(&s) % 2) ? "R32G32B32A32_FLOAT"
                                                    : formats[tc_rng_next(&s) % (sizeof formats /
                                                                          sizeof *formats)]);
    unsigned shader = depth_focus || whole_focus ? 2 + tc_rng_next(&s) % 4 : tc_rng_next(&s) % 6;
    const char *fs = shader == 0 ? fs_depth : shader == 1 ? fs_kill : fs_two;
    tv_pipe_ctx *ctx = scene_sized(fs, true, TW, TH, samples, 1);
    assert_int_equal(tv_pipe_set_plain(ctx, plain), 0);
    uint32_t ns = samples > 1 ? samples : 0;
    /* the colour targets of this round (replacing the helper's RGBA8 one), and a
       depth/stencil buffer */
    uint32_t cbs[2] = {SURF, SURF2}, handles[2] = {RT, RT2};
    for (unsigned i = 0; i < ncb; i++) {
        tv_pipe_resource_desc d = {2, fmt[i], 2, TW, TH, 1, 1, 0, ns};
        tv_pipe_object_destroy(ctx, TV_PIPE_OBJ_SURFACE, cbs[i]);
        tv_pipe_resource_destroy(ctx, handles[i]);
        assert_int_equal(tv_pipe_resource_create(ctx, handles[i], &d), 0);
        assert_int_equal(tv_pipe_surface_create(ctx, cbs[i], handles[i], fmt[i], 0, 0, 0), 0);
    }
    /* the depth formats: packed with stencil (most rounds), and the 4-byte depth-only
       ones the early depth pass quantises by value (draw_om_early_lanes), and others */
    static const char *const zformats[] = {"Z24_UNORM_S8_UINT", "Z24_UNORM_S8_UINT",
                                           "Z32_FLOAT", "Z24X8_UNORM", "S8_UINT_Z24_UNORM",
                                           "Z16_UNORM", "Z32_FLOAT_S8X24_UINT"};
    uint32_t zfmt = tv_pipe_format_from_name(zformats[tc_rng_next(&s) % (depth_focus ? 5 : 7)]);
    assert_int_not_equal(zfmt, 0);
    tv_pipe_resource_desc zd = {2, zfmt, 1, TW, TH, 1, 1, 0, ns};
    tv_pipe_object_destroy(ctx, TV_PIPE_OBJ_SURFACE, ZSURF);
    tv_pipe_resource_destroy(ctx, ZS);
    assert_int_equal(tv_pipe_resource_create(ctx, ZS, &zd), 0);
    assert_int_equal(tv_pipe_surface_create(ctx, ZSURF, ZS, zfmt, 0, 0, 0), 0);
    assert_int_equal(tv_pipe_set_framebuffer(ctx, ncb, cbs, ZSURF), 0);
    uint32_t clear[4] = {tc_rng_next(&s) & 0x3f7fffffu, tc_rng_next(&s) & 0x3f7fffffu, 0x3e800000u, 0x3f000000u};
    assert_int_equal(tv_pipe_clear(ctx, TV_PIPE_CLEAR_COLOR0 | (TV_PIPE_CLEAR_COLOR0 << 1) |
                                            TV_PIPE_CLEAR_DEPTH | TV_PIPE_CLEAR_STENCIL,
                                   clear, depth_focus ? (double)(tc_rng_next(&s) % 5) * 0.25 : 0.75,
                                   3), 0);

    tv_pipe_rasterizer_state r;
    tv_pipe_rasterizer_default(&r);
    r.multisample = samples > 1;
    r.poly_stipple_enable = tc_rng_next(&s) % 10 == 0 && !whole_focus;
    r.depth_clamp = tc_rng_next(&s) % 5 == 0;
    if (depth_focus) {
        r.depth_clip_near = r.depth_clip_far = tc_rng_next(&s) % 3 == 0;
        if (tc_rng_next(&s) & 1) { /* a depth range inside [0, 1]: the clamp's own bounds */
            float n = unit(&s) * 0.5f, f = 0.5f + unit(&s) * 0.5f;
            if (tc_rng_next(&s) & 1) {
                float t = n;
                n = f;
                f = t;
            }
            tv_pipe_viewport vp = {{TW / 2.0f, TH / 2.0f, (f - n) / 2}, {TW / 2.0f, TH / 2.0f,
                                                                        (f + n) / 2}};
            assert_int_equal(tv_pipe_set_viewports(ctx, 0, 1, &vp), 0);
        }
    }
    if (tc_rng_next(&s) % 4 == 0) { /* polygon offset: depths past [0, 1] both ways, clamped */
        r.offset_tri = true;
        r.offset_units = unit(&s) * 2e6f - 1e6f;
        r.offset_scale = unit(&s) * 4 - 2;
    }
    assert_int_equal(tv_pipe_set_rasterizer(ctx, &r), 0);
    if (r.poly_stipple_enable) {
        uint32_t st[32];
        for (unsigned i = 0; i < 32; i++)
            st[i] = tc_rng_next(&s);
        tv_pipe_set_polygon_stipple(ctx, st);
    }
    tv_pipe_blend_state b;
    memset(&b, 0, sizeof b);
    b.independent_blend_enable = tc_rng_next(&s) & 1;
    b.logicop_enable = tc_rng_next(&s) % 6 == 0;
    b.logicop_func = (uint8_t)(tc_rng_next(&s) % 16);
    b.alpha_to_one = tc_rng_next(&s) % 5 == 0;
    b.alpha_to_coverage = tc_rng_next(&s) % 10 == 0 && !depth_focus && !whole_focus;
    for (unsigned i = 0; i < 2; i++) {
        tv_pipe_rt_blend *rt = &b.rt[i];
        rt->blend_enable = tc_rng_next(&s) % 4 != 0 || whole_focus;
        rt->rgb_func = (uint8_t)(tc_rng_next(&s) % (whole_focus ? 3 : 5));
        rt->alpha_func = (uint8_t)(tc_rng_next(&s) % (whole_focus ? 3 : 5));
        rt->rgb_src_factor = any_factor(&s);
        rt->rgb_dst_factor = any_factor(&s);
        rt->alpha_src_factor = any_factor(&s);
        rt->alpha_dst_factor = any_factor(&s);
        rt->colormask = tc_rng_next(&s) % 3 == 0 && !whole_focus ? (uint8_t)(tc_rng_next(&s) & 15) : 15;
    }
    assert_int_equal(tv_pipe_set_blend(ctx, &b), 0);
    const float k[4] = {unit(&s) * 3 - 1, unit(&s), unit(&s) * 2 - 1, unit(&s) * 1.5f};
    tv_pipe_set_blend_color(ctx, k);
    tv_pipe_dsa_state dsa;
    memset(&dsa, 0, sizeof dsa);
    dsa.depth_enabled = (tc_rng_next(&s) & 1) || depth_focus;
    dsa.depth_writemask = (tc_rng_next(&s) & 1) || depth_focus;
    dsa.depth_func = (uint8_t)(tc_rng_next(&s) % 8);
    dsa.stencil[0].enabled = tc_rng_next(&s) % 3 == 0 && !depth_focus;
    dsa.stencil[0].func = (uint8_t)(tc_rng_next(&s) % 8);
    dsa.stencil[0].fail_op = (uint8_t)(tc_rng_next(&s) % 8);
    dsa.stencil[0].zpass_op = (uint8_t)(tc_rng_next(&s) % 8);
    dsa.stencil[0].zfail_op = (uint8_t)(tc_rng_next(&s) % 8);
    dsa.stencil[0].valuemask = dsa.stencil[0].writemask = 0xff;
    dsa.alpha_enabled = tc_rng_next(&s) % 8 == 0 && !depth_focus && !whole_focus;
    dsa.alpha_func = (uint8_t)(tc_rng_next(&s) % 8);
    dsa.alpha_ref = unit(&s);
    assert_int_equal(tv_pipe_set_dsa(ctx, &dsa), 0);
    tv_pipe_set_stencil_ref(ctx, (uint8_t)tc_rng_next(&s), (uint8_t)tc_rng_next(&s));

    /* overlapping triangles, some past the edges; colours beyond [0, 1] both ways; in
       half the rounds the corners lie on a half-pixel grid, so edges pass through pixel
       centres and the fill rule decides */
    vert v[NTRI * 3];
    bool grid = tc_rng_next(&s) & 1;
    /* a third of the rounds draw small triangles (a few pixels to 16 wide) about random
       centres, so most are shaded in warps packed from their quads (vm_stage_frag.c) */
    bool small = tc_rng_next(&s) % 3 == 0 && !whole_focus;
    float cx = 0, cy = 0, ext = 0;
    for (int i = 0; i < NTRI * 3; i++) {
        if (small && i % 3 == 0) {
            cx = unit(&s) * 2.2f - 1.1f;
            cy = unit(&s) * 2.2f - 1.1f;
            ext = (1 + unit(&s) * 7) / TW;   /* half-extent: 1 to 8 pixels */
        }
        float spread = whole_focus ? 8.0f : 2.6f;   /* (whole: most triangles cover all) */
        float x = unit(&s) * spread - spread / 2, y = unit(&s) * spread - spread / 2;
        if (small) {
            x = cx + (x / 1.3f) * ext * 2;
            y = cy + (y / 1.3f) * ext * 2 * TW / TH;
        }
        if (grid) {
            x = roundf((x + 1) * TW) / (2.0f * TW / 2) - 1;   /* window x in steps of 1/2 */
            y = roundf((y + 1) * TH) / (2.0f * TH / 2) - 1;
        }
        float z = depth_focus ? unit(&s) * 2.6f - 1.3f : unit(&s) * 2 - 1;
        v[i] = (vert){{x, y, z, 1},
                      {unit(&s) * 4 - 1.5f, unit(&s) * 4 - 1.5f, unit(&s) * 2 - 0.5f,
                       unit(&s) * 1.6f - 0.3f}};
    }
    vertices(ctx, v, NTRI * 3);
    assert_int_equal(tv_pipe_query_create(ctx, 40, TV_PIPE_QUERY_OCCLUSION_COUNTER, 0), 0);
    assert_int_equal(tv_pipe_begin_query(ctx, 40), 0);
    assert_int_equal(draw(ctx, PRIM_TRIANGLES, NTRI * 3), 0);
    assert_int_equal(tv_pipe_end_query(ctx, 40), 0);
    result res;
    memset(&res, 0, sizeof res);
    assert_int_equal(tv_pipe_query_result(ctx, 40, &res.passed), 0);
    for (unsigned i = 0; i < ncb; i++)
        keep(ctx, handles[i], &res, i);
    keep(ctx, ZS, &res, 2);
    tv_pipe_destroy(ctx);
    return res;
}

/* ROUNDS scenes from SEED0 on, each drawn plainly and not: the same bytes and occlusion
 * counts. Returns the samples that passed, summed over the rounds. */
static uint64_t rounds_equal(uint32_t seed0)
{
    uint64_t lit = 0;
    for (uint32_t round = 0; round < ROUNDS; round++) {
        uint32_t seed = seed0 + round * 0x9e3779b9u;
        result a = run(seed, true), b = run(seed, false);
        for (unsigned i = 0; i < 3; i++) {
            assert_int_equal(a.size[i], b.size[i]);
            if (a.size[i] && memcmp(a.bytes[i], b.bytes[i], a.size[i]))
                fail_msg("round %u (seed 0x%08x%s): %s bytes differ", round, seed,
                         depth_focus ? ", depth rounds" : whole_focus ? ", whole-tile rounds" : "",
                         i == 2 ? "depth/stencil" : i ? "second colour" : "colour");
            free(a.bytes[i]);
            free(b.bytes[i]);
        }
        assert_int_equal(a.passed, b.passed);
        lit += a.passed;
    }
    return lit;
}

static void test_tiles_equal_pixels(void **state)
{
    (void)state;
    depth_focus = whole_focus = false;   /* (a failed test before may have left them set) */
    uint64_t lit = rounds_equal(0x51ed2701u);
    /* the rounds drew something: not every state rejected every fragment */
    assert_true(lit > (uint64_t)ROUNDS * TW * TH / 8);
}

static void test_early_depth_equal_pixels(void **state)
{
    (void)state;
    depth_focus = true;
    whole_focus = false;
    uint64_t lit = rounds_equal(0x2f6b1c03u);
    depth_focus = false;
    assert_true(lit > (uint64_t)ROUNDS * TW * TH / 8);
}

static void test_whole_tiles_equal_pixels(void **state)
{
    (void)state;
    whole_focus = true;
    depth_focus = false;
    uint64_t lit = rounds_equal(0x7a3d5e11u);
    whole_focus = false;
    assert_true(lit > (uint64_t)ROUNDS * TW * TH / 8);
}

static void test_blend_lanes_equal_blend_color(void **state)
{
    (void)state;
    /* NaNs of both signs and several payloads, quiet and signalling: where both operands
       of a product or sum are NaN, which one comes out must be the same on both paths */
    static const uint32_t nans[] = {0x7fc00000u, 0xffc00000u, 0x7fc12345u, 0xffe00001u,
                                    0x7f800001u, 0xff812345u};
    float special[10 + 6] = {NAN, INFINITY, -INFINITY, 0.0f, -0.0f, 1.0f, -1.0f,
                             2.5f, 1e-40f, -3e38f};
    for (unsigned i = 0; i < 6; i++)
        memcpy(&special[10 + i], &nans[i], 4);
    const unsigned nspecial = sizeof special / sizeof special[0];
    uint32_t s = 0x1234567u;
    for (unsigned round = 0; round < 4000; round++) {
        om_rt_blend rt;
        memset(&rt, 0, sizeof rt);
        rt.blend_enable = true;
        rt.rgb_func = (uint8_t)(tc_rng_next(&s) % 5);
        rt.alpha_func = (uint8_t)(tc_rng_next(&s) % 5);
        rt.rgb_src_factor = any_factor(&s);
        rt.rgb_dst_factor = any_factor(&s);
        rt.alpha_src_factor = any_factor(&s);
        rt.alpha_dst_factor = any_factor(&s);
        rt.colormask = 15;
        om_class cls = (om_class)(tc_rng_next(&s) % 3);   /* UNORM, SNORM, FLOAT */
        om_lanes s0, s1, d, out;
        float k[4];
        for (unsigned c = 0; c < 4; c++) {
            k[c] = tc_rng_next(&s) % 6 == 0 ? special[tc_rng_next(&s) % nspecial] : unit(&s) * 3 - 1;
            for (unsigned l = 0; l < OM_LANES; l++) {
                float *v[3] = {&s0.c[c][l], &s1.c[c][l], &d.c[c][l]};
                for (unsigned j = 0; j < 3; j++)
                    *v[j] = tc_rng_next(&s) % 6 == 0 ? special[tc_rng_next(&s) % nspecial]
                                              : unit(&s) * 4 - 1.5f;
            }
        }
        om_blend_lanes(&rt, cls, &s0, &s1, &d, k, &out);
        for (unsigned l = 0; l < OM_LANES; l++) {
            float a0[4], a1[4], ad[4], ref[4];
            for (unsigned c = 0; c < 4; c++) {
                a0[c] = s0.c[c][l];
                a1[c] = s1.c[c][l];
                ad[c] = d.c[c][l];
            }
            om_blend_color(&rt, cls, a0, a1, ad, k, ref);
            for (unsigned c = 0; c < 4; c++)
                if (tv_f32_bits(ref[c]) != tv_f32_bits(out.c[c][l]))
                    fail_msg("round %u lane %u channel %u: %08x, per sample %08x", round, l, c,
                             tv_f32_bits(out.c[c][l]), tv_f32_bits(ref[c]));
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tiles_equal_pixels),
        cmocka_unit_test(test_early_depth_equal_pixels),
        cmocka_unit_test(test_whole_tiles_equal_pixels),
        cmocka_unit_test(test_blend_lanes_equal_blend_color),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
