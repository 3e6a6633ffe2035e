/* Multisampled draws (tv_pipe_draw_vbo into 4-sample targets), checked against values
 * worked out by hand: which samples a triangle covers at the standard 4x positions (D3D's
 * pattern, written out here), the occlusion count in samples, the resolve blit (the
 * covered samples' average), texelFetch of each sample through a 2D_MSAA sampler view,
 * alpha-to-coverage, alpha-to-one, the sample mask and sample shading. */
#include "helper_draw.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MS = 50, MSURF = 51, NS = 4 };

/* D3D's standard 4-sample pattern, in 1/16 pixel from the centre: (-2,-6) (6,-2) (-6,2)
 * (2,6) — positions inside the pixel */
static const float pos4[NS][2] = {{0.375f, 0.125f}, {0.875f, 0.375f}, {0.125f, 0.625f},
                                  {0.625f, 0.875f}};

/* the triangle: window coordinates on the 1/256 grid */
static const float tx[3] = {333 / 256.0f, 3738 / 256.0f, 1306 / 256.0f};
static const float ty[3] = {179 / 256.0f, 563 / 256.0f, 3942 / 256.0f};

static double edge(int i, double x, double y)
{
    int j = (i + 1) % 3;
    return (x - tx[i]) * (ty[j] - ty[i]) - (y - ty[i]) * (tx[j] - tx[i]);
}

/* sample S of pixel (X, Y) inside the triangle (no sample lies on an edge: asserted) */
static bool inside(int x, int y, int s)
{
    double px = x + pos4[s][0], py = y + pos4[s][1];
    double e[3];
    for (int i = 0; i < 3; i++) {
        e[i] = edge(i, px, py);
        assert_true(fabs(e[i]) > 1e-9);
    }
    return (e[0] > 0 && e[1] > 0 && e[2] > 0) || (e[0] < 0 && e[1] < 0 && e[2] < 0);
}

static const uint8_t *ms_texel(tv_pipe_ctx *ctx, int x, int y, int s)
{
    return tv_pipe_resource_data(ctx, MS) + ((size_t)y * W * NS + (size_t)x * NS + s) * 4;
}

static tv_pipe_ctx *ms_scene(const char *fs)
{
    tv_pipe_ctx *ctx = scene(fs, false);
    tv_pipe_resource_desc rd = {2, FMT_RGBA8, 2, W, H, 1, 1, 0, NS};
    assert_int_equal(tv_pipe_resource_create(ctx, MS, &rd), 0);
    assert_int_equal(tv_pipe_surface_create(ctx, MSURF, MS, FMT_RGBA8, 0, 0, 0), 0);
    uint32_t cb = MSURF;
    assert_int_equal(tv_pipe_set_framebuffer(ctx, 1, &cb, 0), 0);
    const uint32_t black[4] = {0, 0, 0, 0};
    assert_int_equal(tv_pipe_clear(ctx, TV_PIPE_CLEAR_COLOR0, black, 1.0, 0), 0);
    return ctx;
}

/* The triangle (tx, ty) in red 0.8 (stored 204) into vertex buffer 0. */
static void triangle_vertices(tv_pipe_ctx *ctx)
{
    vert v[3];
    for (int i = 0; i < 3; i++)
        v[i] = V(tx[i], ty[i], 0, 0.8f, 0, 0, 1);
    vertices(ctx, v, 3);
}

static void resolve(tv_pipe_ctx *ctx)
{
    tv_pipe_blit_info b;
    memset(&b, 0, sizeof b);
    b.src = (tv_pipe_blit_side){MS, 0, FMT_RGBA8, 0, 0, 0, W, H, 1};
    b.dst = (tv_pipe_blit_side){RT, 0, FMT_RGBA8, 0, 0, 0, W, H, 1};
    b.mask = 0xf;
    assert_int_equal(tv_pipe_blit(ctx, &b), 0);
}

static void test_coverage_resolve_and_query(void **state)
{
    (void)state;
    tv_pipe_ctx *ctx = ms_scene(fs_flat);
    triangle_vertices(ctx);
    assert_int_equal(tv_pipe_query_create(ctx, 60, TV_PIPE_QUERY_OCCLUSION_COUNTER, 0), 0);
    assert_int_equal(tv_pipe_begin_query(ctx, 60), 0);
    assert_int_equal(draw(ctx, PRIM_TRIANGLES, 3), 0);
    assert_int_equal(tv_pipe_end_query(ctx, 60), 0);
    int covered = 0, partial = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            int k = 0;
            for (int s = 0; s < NS; s++) {
                bool in = inside(x, y, s);
                assert_int_equal(ms_texel(ctx, x, y, s)[0], in ? 204 : 0);  /* 0.8 * 255 */
                k += in;
            }
            covered += k;
            partial += k > 0 && k < NS;
        }
    assert_true(partial > 10);      /* the edges cut pixels */
    assert_query_result(ctx, 60, (uint64_t)covered);
    /* the resolve: the average of the four samples, 204 k / 4 = 51 k */
    resolve(ctx);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            int k = 0;
            for (int s = 0; s < NS; s++)
                k += inside(x, y, s);
            assert_int_equal(pixel(ctx, x, y)[0], 51 * k);
        }
    tv_pipe_destroy(ctx);
}

/* texelFetch(sampler2DMS, pixel, SAMPLE) */
static const char fs_fetch[] =
    "FRAG\n"
    "DCL IN[0], POSITION, LINEAR\n"
    "DCL OUT[0], COLOR\n"
    "DCL SAMP[0]\n"
    "DCL SVIEW[0], 2D_MSAA, FLOAT\n"
    "DCL CONST[0][0]\n"
    "DCL TEMP[0]\n"
    "F2I TEMP[0].xy, IN[0].xyyy\n"
    "MOV TEMP[0].zw, CONST[0][0].xxxx\n"
    "TXF OUT[0], TEMP[0], SAMP[0], 2D_MSAA\n"
    "END\n";

static void test_fetch_each_sample(void **state)
{
    (void)state;
    tv_pipe_ctx *ctx = ms_scene(fs_flat);
    triangle_vertices(ctx);
    assert_int_equal(draw(ctx, PRIM_TRIANGLES, 3), 0);
    /* a second pass into the single-sampled target reads the samples back */
    enum { FS2 = 23 };
    assert_int_equal(tv_pipe_shader_create(ctx, FS2, TV_PIPE_STAGE_FRAGMENT, fs_fetch,
                                           sizeof fs_fetch), 0);
    assert_int_equal(tv_pipe_bind_shader(ctx, TV_PIPE_STAGE_FRAGMENT, FS2), 0);
    uint32_t cb = SURF;
    assert_int_equal(tv_pipe_set_framebuffer(ctx, 1, &cb, 0), 0);
    tv_pipe_sampler_view view = {MS, FMT_RGBA8, 0, 0, 0, 0, 0, 0, {0, 1, 2, 3}, 0};
    assert_int_equal(tv_pipe_set_sampler_views(ctx, TV_PIPE_STAGE_FRAGMENT, 0, 1, &view), 0);
    tv_pipe_sampler_state samp;
    memset(&samp, 0, sizeof samp);
    assert_int_equal(tv_pipe_set_sampler_states(ctx, TV_PIPE_STAGE_FRAGMENT, 0, 1, &samp), 0);
    vert q[4] = {V(0, 0, 0, 0, 0, 0, 1), V(16, 0, 0, 0, 0, 0, 1), V(0, 16, 0, 0, 0, 0, 1),
                 V(16, 16, 0, 0, 0, 0, 1)};
    vertices(ctx, q, 4);
    for (uint32_t s = 0; s < NS; s++) {
        assert_int_equal(tv_pipe_set_constant_buffer(ctx, TV_PIPE_STAGE_FRAGMENT, 0, 0, 0, 16,
                                                     (const uint32_t[4]){s, 0, 0, 0}, 4), 0);
        assert_int_equal(draw(ctx, PRIM_TRIANGLE_STRIP, 4), 0);
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++)
                assert_int_equal(pixel(ctx, x, y)[0], inside(x, y, (int)s) ? 204 : 0);
    }
    tv_pipe_destroy(ctx);
}

static void fullscreen(tv_pipe_ctx *ctx, float alpha)
{
    vert q[4] = {V(0, 0, 0, 0.8f, 0, 0, alpha), V(16, 0, 0, 0.8f, 0, 0, alpha),
                 V(0, 16, 0, 0.8f, 0, 0, alpha), V(16, 16, 0, 0.8f, 0, 0, alpha)};
    vertices(ctx, q, 4);
    assert_int_equal(draw(ctx, PRIM_TRIANGLE_STRIP, 4), 0);
}

static void test_alpha_to_coverage_and_sample_mask(void **state)
{
    (void)state;
    tv_pipe_ctx *ctx = ms_scene(fs_flat);
    tv_pipe_blend_state b;
    memset(&b, 0, sizeof b);
    b.rt[0].colormask = 0xf;
    b.alpha_to_coverage = true;
    assert_int_equal(tv_pipe_set_blend(ctx, &b), 0);
    /* alpha 0.5 keeps round(0.5 x 4) = 2 samples: 0 and 1 */
    fullscreen(ctx, 0.5f);
    for (int s = 0; s < NS; s++) {
        assert_int_equal(ms_texel(ctx, 5, 7, s)[0], s < 2 ? 204 : 0);
        assert_int_equal(ms_texel(ctx, 5, 7, s)[3], s < 2 ? 128 : 0);   /* 0.5 * 255 */
    }
    /* alpha-to-one: the same samples, stored alpha 1 */
    b.alpha_to_one = true;
    assert_int_equal(tv_pipe_set_blend(ctx, &b), 0);
    const uint32_t black[4] = {0, 0, 0, 0};
    assert_int_equal(tv_pipe_clear(ctx, TV_PIPE_CLEAR_COLOR0, black, 1.0, 0), 0);
    fullscreen(ctx, 0.3f);   /* round(1.2) = 1 sample */
    for (int s = 0; s < NS; s++)
        assert_int_equal(ms_texel(ctx, 3, 3, s)[3], s < 1 ? 255 : 0);
    /* the sample mask: samples 0 and 2 only */
    memset(&b, 0, sizeof b);
    b.rt[0].colormask = 0xf;
    assert_int_equal(tv_pipe_set_blend(ctx, &b), 0);
    assert_int_equal(tv_pipe_clear(ctx, TV_PIPE_CLEAR_COLOR0, black, 1.0, 0), 0);
    tv_pipe_set_sample_mask(ctx, 0x5);
    fullscreen(ctx, 1.0f);
    for (int s = 0; s < NS; s++)
        assert_int_equal(ms_texel(ctx, 9, 12, s)[0], (s % 2) == 0 ? 204 : 0);
    tv_pipe_set_sample_mask(ctx, ~0u);
    /* mixed sample counts are named */
    uint32_t cbs[2] = {MSURF, SURF};
    assert_int_equal(tv_pipe_set_framebuffer(ctx, 2, cbs, 0), 0);
    assert_int_equal(draw(ctx, PRIM_TRIANGLE_STRIP, 4), -1);
    assert_non_null(strstr(tv_pipe_error(ctx), "has 1 samples, another attachment 4"));
    /* and impossible multisampled resources */
    tv_pipe_resource_desc bad = {2, FMT_RGBA8, 2, W, H, 1, 1, 1, NS};   /* two levels */
    assert_int_equal(tv_pipe_resource_create(ctx, 70, &bad), -1);
    assert_non_null(strstr(tv_pipe_error(ctx), "4 samples (2, 4, 8 or 16"));
    tv_pipe_destroy(ctx);
}

/* Sample shading: with min_samples 4 the fragment shader runs at each sample, so an input
 * interpolated across the target holds each sample's position; without, the pixel
 * centre's. GENERIC[0].x = window x / 8 - 1 (the NDC x of the vertices). */
static void test_sample_shading(void **state)
{
    (void)state;
    tv_pipe_ctx *ctx = scene(fs_smooth, false);
    enum { MSF = 53, MSFS = 54 };
    tv_pipe_resource_desc rd = {2, FMT_RGBA32F, 2, W, H, 1, 1, 0, NS};
    assert_int_equal(tv_pipe_resource_create(ctx, MSF, &rd), 0);
    assert_int_equal(tv_pipe_surface_create(ctx, MSFS, MSF, FMT_RGBA32F, 0, 0, 0), 0);
    uint32_t cb = MSFS;
    assert_int_equal(tv_pipe_set_framebuffer(ctx, 1, &cb, 0), 0);
    vert v[4] = {V(0, 0, 0, nx(0), 0, 0, 1), V(16, 0, 0, nx(16), 0, 0, 1),
                 V(0, 16, 0, nx(0), 0, 0, 1), V(16, 16, 0, nx(16), 0, 0, 1)};
    vertices(ctx, v, 4);
    const float *t = (const float *)(const void *)tv_pipe_resource_data(ctx, MSF);
    for (int pass = 0; pass < 2; pass++) {
        tv_pipe_set_min_samples(ctx, pass ? 4 : 1);
        assert_int_equal(draw(ctx, PRIM_TRIANGLE_STRIP, 4), 0);
        for (int x = 0; x < W; x++)
            for (int s = 0; s < NS; s++) {
                float px = pass ? (float)x + pos4[s][0] : (float)x + 0.5f;
                float got = t[((size_t)3 * W * NS + (size_t)x * NS + s) * 4];   /* row 3 */
                assert_true(fabsf(got - nx(px)) < 1e-6f);
            }
    }
    tv_pipe_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_coverage_resolve_and_query),
        cmocka_unit_test(test_fetch_each_sample),
        cmocka_unit_test(test_alpha_to_coverage_and_sample_mask),
        cmocka_unit_test(test_sample_shading),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
