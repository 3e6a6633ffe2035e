/* Draws through the whole pipeline (tv_pipe_draw_vbo) into a 16x16 RGBA8 target, checked
 * against values worked out by hand: coverage of triangles whose edges run through pixel
 * centres (the same pixels the rasteriser's own tests count), flat and interpolated
 * colours, strips and indexed draws with a base vertex covering every pixel once, depth
 * testing in both drawing orders with the stored depth values, alpha blending, culling
 * and facing, guard-band clipping, near-plane clipping, instancing, scissor, and the named
 * errors for what is not drawn yet. Queries and stream output: test_draw_queries.c. */
#include "helper_draw.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void test_triangle_coverage_and_flat_colour(void **state)
{
    (void)state;
    tv_pipe_ctx *ctx = scene(fs_flat, false);
    /* legs through the centres of row 0 and column 0, hypotenuse through centres: the
     * top-left rule lights exactly the pixels with x + y <= 3 (10 of them). The provoking
     * vertex is the last: its colour everywhere. */
    vert v[3] = {V(0.5f, 0.5f, 0, 1, 0, 0, 1), V(4.5f, 0.5f, 0, 0, 1, 0, 1),
                 V(0.5f, 4.5f, 0, 0.2f, 0.4f, 0.6f, 1)};
    vertices(ctx, v, 3);
    assert_int_equal(draw(ctx, PRIM_TRIANGLES, 3), 0);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            const uint8_t *p = pixel(ctx, x, y);
            if (x + y <= 3) {
                /* 0.2 * 255 = 51, 0.4 * 255 = 102, 0.6 * 255 = 153 */
                assert_int_equal(p[0], 51);
                assert_int_equal(p[1], 102);
                assert_int_equal(p[2], 153);
                assert_int_equal(p[3], 255);
            } else {
                assert_int_equal(p[0] | p[1] | p[2] | p[3], 0);
            }
        }
    tv_pipe_destroy(ctx);
}

static void test_strip_covers_once_and_interpolates(void **state)
{
    (void)state;
    tv_pipe_ctx *ctx = scene(fs_smooth, false);
    /* a full-screen strip, colour red = x / 16 across: every pixel once, red at pixel x
     * = (x + 0.5) / 16 */
    vert v[4] = {V(0, 0, 0, 0, 0, 0, 1), V(16, 0, 0, 1, 0, 0, 1), V(0, 16, 0, 0, 0, 0, 1),
                 V(16, 16, 0, 1, 0, 0, 1)};
    tv_pipe_blend_state blend;
    memset(&blend, 0, sizeof blend);
    blend.rt[0].colormask = 0xf;
    blend.rt[0].blend_enable = true;   /* ONE + ONE: a pixel drawn twice would double */
    blend.rt[0].rgb_src_factor = blend.rt[0].alpha_src_factor = 0x01;
    blend.rt[0].rgb_dst_factor = blend.rt[0].alpha_dst_factor = 0x01;
    assert_int_equal(tv_pipe_set_blend(ctx, &blend), 0);
    vertices(ctx, v, 4);
    assert_int_equal(draw(ctx, PRIM_TRIANGLE_STRIP, 4), 0);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            const uint8_t *p = pixel(ctx, x, y);
            double red = (x + 0.5) / 16.0 * 255.0;
            assert_true(fabs(p[0] - red) <= 0.5 + 1e-3);
            assert_int_equal(p[3], 255);
        }
    tv_pipe_destroy(ctx);
}

static void test_indexed_base_vertex(void **state)
{
    (void)state;
    tv_pipe_ctx *ctx = scene(fs_flat, false);
    /* vertices 0..1 are junk; the quad is vertices 2..5 through base vertex 2 */
    vert v[6] = {V(-50, -50, 0, 1, 1, 1, 1), V(-50, 50, 0, 1, 1, 1, 1),
                 V(2, 2, 0, 0, 0, 1, 1), V(10, 2, 0, 0, 0, 1, 1),
                 V(2, 10, 0, 0, 0, 1, 1), V(10, 10, 0, 0, 0, 1, 1)};
    vertices(ctx, v, 6);
    const uint16_t idx[6] = {0, 1, 2, 2, 1, 3};
    upload(ctx, IB, idx, sizeof idx);
    assert_int_equal(tv_pipe_set_index_buffer(ctx, IB, 0), 0);
    tv_pipe_draw_info info;
    memset(&info, 0, sizeof info);
    info.mode = PRIM_TRIANGLES;
    info.count = 6;
    info.instance_count = 1;
    info.index_size = 2;
    info.index_bias = 2;
    assert_int_equal(tv_pipe_draw_vbo(ctx, &info), 0);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            assert_int_equal(pixel(ctx, x, y)[2], (x >= 2 && x < 10 && y >= 2 && y < 10) ? 255 : 0);
    tv_pipe_destroy(ctx);
}

static void quad(vert *v, float x0, float y0, float x1, float y1, float z, float r, float g,
                 float b)
{
    v[0] = V(x0, y0, z, r, g, b, 1);
    v[1] = V(x1, y0, z, r, g, b, 1);
    v[2] = V(x0, y1, z, r, g, b, 1);
    v[3] = V(x0, y1, z, r, g, b, 1);
    v[4] = V(x1, y0, z, r, g, b, 1);
    v[5] = V(x1, y1, z, r, g, b, 1);
}

static void test_depth_test_both_orders(void **state)
{
    (void)state;
    for (int order = 0; order < 2; order++) {
        tv_pipe_ctx *ctx = scene(fs_flat, true);
        tv_pipe_dsa_state dsa;
        memset(&dsa, 0, sizeof dsa);
        dsa.depth_enabled = dsa.depth_writemask = true;
        dsa.depth_func = 1; /* LESS */
        assert_int_equal(tv_pipe_set_dsa(ctx, &dsa), 0);
        vert v[12];
        /* near: NDC z -0.5 -> window 0.25, left half; far: z 0.5 -> 0.75, whole screen */
        quad(v + (order ? 0 : 6), 0, 0, 8, 16, -0.5f, 1, 0, 0);
        quad(v + (order ? 6 : 0), 0, 0, 16, 16, 0.5f, 0, 1, 0);
        vertices(ctx, v, 12);
        assert_int_equal(draw(ctx, PRIM_TRIANGLES, 12), 0);
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                const uint8_t *p = pixel(ctx, x, y);
                assert_int_equal(p[0], x < 8 ? 255 : 0);
                assert_int_equal(p[1], x < 8 ? 0 : 255);
                assert_true(depth_at(ctx, x, y) == (x < 8 ? 0.25f : 0.75f));
            }
        tv_pipe_destroy(ctx);
    }
}

static void test_alpha_blending(void **state)
{
    (void)state;
    tv_pipe_ctx *ctx = scene(fs_flat, false);
    tv_pipe_blend_state blend;
    memset(&blend, 0, sizeof blend);
    blend.rt[0].colormask = 0xf;
    vert v[12];
    quad(v, 0, 0, 16, 16, 0, 0, 0, 1);                  /* opaque blue */
    quad(v + 6, 0, 0, 16, 16, 0, 1, 0, 0);              /* red at alpha 0.25 over it */
    for (int i = 6; i < 12; i++)
        v[i].col[3] = 0.25f;
    vertices(ctx, v, 12);
    assert_int_equal(draw(ctx, PRIM_TRIANGLES, 6), 0);
    blend.rt[0].blend_enable = true;
    blend.rt[0].rgb_src_factor = blend.rt[0].alpha_src_factor = 0x03; /* SRC_ALPHA */
    blend.rt[0].rgb_dst_factor = blend.rt[0].alpha_dst_factor = 0x13; /* INV_SRC_ALPHA */
    assert_int_equal(tv_pipe_set_blend(ctx, &blend), 0);
    tv_pipe_draw_info info;
    memset(&info, 0, sizeof info);
    info.mode = PRIM_TRIANGLES;
    info.start = 6;
    info.count = 6;
    info.instance_count = 1;
    assert_int_equal(tv_pipe_draw_vbo(ctx, &info), 0);
    /* red 0.25 -> 63.75 -> 64; blue 0.75 -> 191.25 -> 191; alpha .25*.25 + .75 = .8125
     * -> 207.1875 -> 207 */
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            const uint8_t *p = pixel(ctx, x, y);
            assert_int_equal(p[0], 64);
            assert_int_equal(p[1], 0);
            assert_int_equal(p[2], 191);
            assert_int_equal(p[3], 207);
        }
    tv_pipe_destroy(ctx);
}

static void test_culling_and_facing(void **state)
{
    (void)state;
    tv_pipe_ctx *ctx = scene(fs_face, false);
    /* window y runs down: left is clockwise as seen (back), right counter-clockwise (front) */
    vert v[6] = {V(0, 0, 0, 0, 0, 0, 1), V(8, 0, 0, 0, 0, 0, 1), V(0, 16, 0, 0, 0, 0, 1),
                 V(8, 0, 0, 0, 0, 0, 1), V(8, 16, 0, 0, 0, 0, 1), V(16, 0, 0, 0, 0, 0, 1)};
    vertices(ctx, v, 6);
    assert_int_equal(draw(ctx, PRIM_TRIANGLES, 6), 0);
    assert_int_equal(pixel(ctx, 1, 1)[1], 255);   /* back: green */
    assert_int_equal(pixel(ctx, 9, 1)[0], 255);   /* front: red */
    const uint32_t black[4] = {0, 0, 0, 0};
    assert_int_equal(tv_pipe_clear(ctx, TV_PIPE_CLEAR_COLOR0, black, 1.0, 0), 0);
    tv_pipe_rasterizer_state r;
    tv_pipe_rasterizer_default(&r);
    r.cull_face = TV_PIPE_FACE_BACK;
    assert_int_equal(tv_pipe_set_rasterizer(ctx, &r), 0);
    assert_int_equal(draw(ctx, PRIM_TRIANGLES, 6), 0);
    assert_int_equal(pixel(ctx, 1, 1)[1], 0);     /* culled */
    assert_int_equal(pixel(ctx, 9, 1)[0], 255);
    /* clockwise front: the faces swap */
    r.cull_face = TV_PIPE_FACE_NONE;
    r.front_ccw = false;
    assert_int_equal(tv_pipe_set_rasterizer(ctx, &r), 0);
    assert_int_equal(draw(ctx, PRIM_TRIANGLES, 6), 0);
    assert_int_equal(pixel(ctx, 1, 1)[0], 255);
    assert_int_equal(pixel(ctx, 9, 1)[1], 255);
    tv_pipe_destroy(ctx);
}

static void test_guard_band_and_near_clipping(void **state)
{
    (void)state;
    tv_pipe_ctx *ctx = scene(fs_flat, true);
    /* one huge triangle, far past the guard band on two sides: every pixel once */
    vert v[3] = {{{-1, -1, 0, 1}, {1, 1, 1, 1}}, {{1e6f, -1, 0, 1}, {1, 1, 1, 1}},
                 {{-1, 1e6f, 0, 1}, {1, 1, 1, 1}}};
    vertices(ctx, v, 3);
    assert_int_equal(draw(ctx, PRIM_TRIANGLES, 3), 0);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            assert_int_equal(pixel(ctx, x, y)[0], 255);
    /* a quad whose right half lies beyond the near plane (z < -w): only x < 8 drawn */
    const uint32_t black[4] = {0, 0, 0, 0};
    assert_int_equal(tv_pipe_clear(ctx, TV_PIPE_CLEAR_COLOR0, black, 1.0, 0), 0);
    vert q[4] = {{{-1, -1, 0, 1}, {0, 1, 0, 1}}, {{1, -1, -2, 1}, {0, 1, 0, 1}},
                 {{-1, 1, 0, 1}, {0, 1, 0, 1}}, {{1, 1, -2, 1}, {0, 1, 0, 1}}};
    vertices(ctx, q, 4);
    tv_pipe_dsa_state dsa;
    memset(&dsa, 0, sizeof dsa);
    dsa.depth_enabled = dsa.depth_writemask = true;
    dsa.depth_func = 7; /* ALWAYS */
    assert_int_equal(tv_pipe_set_dsa(ctx, &dsa), 0);
    assert_int_equal(draw(ctx, PRIM_TRIANGLE_STRIP, 4), 0);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            assert_int_equal(pixel(ctx, x, y)[1], x < 8 ? 255 : 0);
            if (x < 8) {
                /* z_ndc = -2 (x+0.5)/16 ... window z = 0.5 - (x + 0.5) / 16 */
                float want = 0.5f - (x + 0.5f) / 16.0f;
                assert_true(fabsf(depth_at(ctx, x, y) - want) < 1e-6f);
            }
        }
    tv_pipe_destroy(ctx);
}

/* A fragment input declared twice (lenient TGSI, as a client may send it) leaves the clip
 * vertex a slot no link fills (draw_clip_vertex then clears the vertex whole): the draw,
 * clipped at the near plane so the clipper interpolates every float, gives the pixels of
 * the same shader declaring it once. */
static void test_input_declared_twice(void **state)
{
    (void)state;
    static const char fs_twice[] = "FRAG\n"
                                   "DCL IN[0], GENERIC[0], PERSPECTIVE\n"
                                   "DCL IN[0], GENERIC[0], PERSPECTIVE\n"
                                   "DCL OUT[0], COLOR\n"
                                   "  0: MOV OUT[0], IN[0]\n"
                                   "  1: END\n";
    vert q[4] = {{{-1, -1, 0, 1}, {0.1f, 0.9f, 0.3f, 1}}, {{1, -1, -2, 2}, {0.8f, 0.2f, 0.6f, 1}},
                 {{-1, 1, 0, 1}, {0.5f, 0.4f, 1.0f, 1}}, {{1, 1, -2, 1.5f}, {1.0f, 0.0f, 0.2f, 1}}};
    uint8_t want[H][W][4];
    for (int k = 0; k < 2; k++) {
        tv_pipe_ctx *ctx = scene(k ? fs_twice : fs_smooth, false);
        vertices(ctx, q, 4);
        assert_int_equal(draw(ctx, PRIM_TRIANGLE_STRIP, 4), 0);
        unsigned lit = 0;
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                if (!k) {
                    memcpy(want[y][x], pixel(ctx, x, y), 4);
                    lit += want[y][x][3] != 0;
                } else if (memcmp(want[y][x], pixel(ctx, x, y), 4)) {
                    fail_msg("pixel (%d, %d) differs with the input declared twice", x, y);
                }
            }
        if (!k)
            assert_true(lit > 20 && lit < W * H);   /* clipped: part of the target */
        tv_pipe_destroy(ctx);
    }
}

static void test_instancing_and_scissor(void **state)
{
    (void)state;
    tv_pipe_ctx *ctx = scene(fs_flat, false);
    /* element 1 steps per instance: instance 1's colour; the position from element 0 */
    vert v[3] = {V(0, 0, 0, 1, 0, 0, 1), V(16, 0, 0, 0, 1, 0, 1), V(0, 16, 0, 0, 0, 1, 1)};
    vertices(ctx, v, 3);
    tv_pipe_vertex_element ve[2] = {{0, 0, 0, FMT_RGBA32F}, {16, 1, 0, FMT_RGBA32F}};
    assert_int_equal(tv_pipe_set_vertex_elements(ctx, 2, ve), 0);
    tv_pipe_rasterizer_state r;
    tv_pipe_rasterizer_default(&r);
    r.scissor = true;
    assert_int_equal(tv_pipe_set_rasterizer(ctx, &r), 0);
    tv_pipe_scissor sc = {2, 3, 5, 7};
    assert_int_equal(tv_pipe_set_scissors(ctx, 0, 1, &sc), 0);
    tv_pipe_draw_info info;
    memset(&info, 0, sizeof info);
    info.mode = PRIM_TRIANGLES;
    info.count = 3;
    info.instance_count = 1;
    info.start_instance = 1;     /* element 1 reads vertex 1's colour: green */
    assert_int_equal(tv_pipe_draw_vbo(ctx, &info), 0);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            bool in = x >= 2 && x < 5 && y >= 3 && y < 7;
            assert_int_equal(pixel(ctx, x, y)[1], in ? 255 : 0);
            assert_int_equal(pixel(ctx, x, y)[0], 0);
        }
    tv_pipe_destroy(ctx);
}

/* The scissors before any set_scissors are empty, as Gallium's drivers (llvmpipe, softpipe)
 * and virglrenderer start them: Mesa's state tracker starts its copy at zero and sends a
 * scissor only when it differs, so glScissor(0, 0, 0, 0) as a GL context's first scissor
 * reaches the driver as nothing (an occlusion query of such a draw counted 256 samples). */
static void test_initial_scissor_empty(void **state)
{
    (void)state;
    tv_pipe_ctx *ctx = scene(fs_flat, false);
    vert v[3] = {V(0, 0, 0, 1, 0, 0, 1), V(32, 0, 0, 1, 0, 0, 1), V(0, 32, 0, 1, 0, 0, 1)};
    vertices(ctx, v, 3);
    tv_pipe_rasterizer_state r;
    tv_pipe_rasterizer_default(&r);
    r.scissor = true;
    assert_int_equal(tv_pipe_set_rasterizer(ctx, &r), 0);
    tv_pipe_draw_info info;
    memset(&info, 0, sizeof info);
    info.mode = PRIM_TRIANGLES;
    info.count = 3;
    info.instance_count = 1;
    assert_int_equal(tv_pipe_draw_vbo(ctx, &info), 0);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            assert_int_equal(pixel(ctx, x, y)[0], 0);
    r.scissor = false;     /* the same draw without the scissor fills the target */
    assert_int_equal(tv_pipe_set_rasterizer(ctx, &r), 0);
    assert_int_equal(tv_pipe_draw_vbo(ctx, &info), 0);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            assert_int_equal(pixel(ctx, x, y)[0], 255);
    tv_pipe_destroy(ctx);
}

static const char fs_tex[] =
    "FRAG\n"
    "DCL IN[0], GENERIC[0], PERSPECTIVE\n"
    "DCL OUT[0], COLOR\n"
    "DCL SAMP[0]\n"
    "DCL SVIEW[0], 2D, FLOAT\n"
    "  0: TEX OUT[0], IN[0], SAMP[0], 2D\n"
    "  1: END\n";

/* A 4x4 texture drawn over the 16x16 target with nearest filtering: each 4x4 block of
 * pixels shows one texel; a swizzled view (B, G, R, 1) and a view of level 1 too. */
static void test_textured_quad(void **state)
{
    (void)state;
    tv_pipe_ctx *ctx = scene(fs_tex, false);
    enum { TEX = 30 };
    tv_pipe_resource_desc td = {2, FMT_RGBA8, 8, 4, 4, 1, 1, 1, 0};  /* 2 levels */
    assert_int_equal(tv_pipe_resource_create(ctx, TEX, &td), 0);
    uint8_t texels[4][4][4];
    for (int y = 0; y < 4; y++)
        for (int x = 0; x < 4; x++) {
            texels[y][x][0] = (uint8_t)(x * 60 + 10);
            texels[y][x][1] = (uint8_t)(y * 60 + 20);
            texels[y][x][2] = (uint8_t)(x * 16 + y);
            texels[y][x][3] = 77;
        }
    tv_pipe_box box = {0, 0, 0, 4, 4, 1};
    assert_int_equal(tv_pipe_transfer_write(ctx, TEX, 0, &box, texels, sizeof texels, 0, 0, 0), 0);
    const uint8_t level1[2][2][4] = {{{1, 2, 3, 4}, {5, 6, 7, 8}}, {{9, 10, 11, 12}, {13, 14, 15, 16}}};
    tv_pipe_box box1 = {0, 0, 0, 2, 2, 1};
    assert_int_equal(tv_pipe_transfer_write(ctx, TEX, 1, &box1, level1, sizeof level1, 0, 0, 0), 0);
    tv_pipe_sampler_view view = {TEX, FMT_RGBA8, 0, 0, 0, 0, 0, 0, {0, 1, 2, 3}, 0};
    tv_pipe_sampler_state samp;
    memset(&samp, 0, sizeof samp);
    samp.wrap_s = samp.wrap_t = samp.wrap_r = 2;  /* CLAMP_TO_EDGE */
    samp.min_mip_filter = 2;                      /* NONE */
    samp.max_lod = 16.0f;
    assert_int_equal(tv_pipe_set_sampler_views(ctx, TV_PIPE_STAGE_FRAGMENT, 0, 1, &view), 0);
    assert_int_equal(tv_pipe_set_sampler_states(ctx, TV_PIPE_STAGE_FRAGMENT, 0, 1, &samp), 0);
    vert v[4] = {V(0, 0, 0, 0, 0, 0, 1), V(16, 0, 0, 1, 0, 0, 1), V(0, 16, 0, 0, 1, 0, 1),
                 V(16, 16, 0, 1, 1, 0, 1)};
    vertices(ctx, v, 4);
    assert_int_equal(draw(ctx, PRIM_TRIANGLE_STRIP, 4), 0);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            assert_memory_equal(pixel(ctx, x, y), texels[y / 4][x / 4], 4);
    /* swizzle (B, G, R, 1) */
    view.swizzle[0] = 2;
    view.swizzle[2] = 0;
    view.swizzle[3] = 5;
    assert_int_equal(tv_pipe_set_sampler_views(ctx, TV_PIPE_STAGE_FRAGMENT, 0, 1, &view), 0);
    assert_int_equal(draw(ctx, PRIM_TRIANGLE_STRIP, 4), 0);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            const uint8_t *t = texels[y / 4][x / 4], want[4] = {t[2], t[1], t[0], 255};
            assert_memory_equal(pixel(ctx, x, y), want, 4);
        }
    /* a view of level 1 only */
    tv_pipe_sampler_view v1 = {TEX, FMT_RGBA8, 1, 1, 0, 0, 0, 0, {0, 1, 2, 3}, 0};
    assert_int_equal(tv_pipe_set_sampler_views(ctx, TV_PIPE_STAGE_FRAGMENT, 0, 1, &v1), 0);
    assert_int_equal(draw(ctx, PRIM_TRIANGLE_STRIP, 4), 0);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            assert_memory_equal(pixel(ctx, x, y), level1[y / 8][x / 8], 4);
    /* a destroyed texture is named at the draw */
    assert_int_equal(tv_pipe_resource_destroy(ctx, TEX), 0);
    assert_int_equal(draw(ctx, PRIM_TRIANGLE_STRIP, 4), -1);
    assert_non_null(strstr(tv_pipe_error(ctx), "sampler view 0: resource 30 was destroyed"));
    tv_pipe_destroy(ctx);
}

/* Points and lines, pixels by hand: a 1-pixel point covers its pixel, a size-3 point the
 * 3x3 around it; a horizontal and a vertical line of width 1 through pixel centres cover
 * their row or column from the start up to (not including) the end; a 45-degree line the
 * diagonal; a width-3 line three rows. */
static void test_points_and_lines(void **state)
{
    (void)state;
    tv_pipe_ctx *ctx = scene(fs_flat, false);
    vert v[10] = {V(2.5f, 3.5f, 0, 1, 0, 0, 1), V(8.5f, 8.5f, 0, 1, 0, 0, 1),
                  V(1, 5.5f, 0, 0, 1, 0, 1), V(9, 5.5f, 0, 0, 1, 0, 1),
                  V(12.5f, 2, 0, 0, 1, 0, 1), V(12.5f, 10, 0, 0, 1, 0, 1),
                  V(0, 0, 0, 0, 0, 1, 1), V(16, 16, 0, 0, 0, 1, 1),
                  V(0, 14.5f, 0, 1, 1, 1, 1), V(4, 14.5f, 0, 1, 1, 1, 1)};
    vertices(ctx, v, 10);
    tv_pipe_rasterizer_state r;
    tv_pipe_rasterizer_default(&r);
    r.point_size = 1.0f;
    assert_int_equal(tv_pipe_set_rasterizer(ctx, &r), 0);
    assert_int_equal(draw(ctx, PRIM_POINTS, 1), 0);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            assert_int_equal(pixel(ctx, x, y)[0], x == 2 && y == 3 ? 255 : 0);
    r.point_size = 3.0f;
    assert_int_equal(tv_pipe_set_rasterizer(ctx, &r), 0);
    tv_pipe_draw_info info;
    memset(&info, 0, sizeof info);
    info.mode = PRIM_POINTS;
    info.start = 1;
    info.count = 1;
    info.instance_count = 1;
    assert_int_equal(tv_pipe_draw_vbo(ctx, &info), 0);
    for (int y = 7; y <= 9; y++)
        for (int x = 7; x <= 9; x++)
            assert_int_equal(pixel(ctx, x, y)[0], 255);
    assert_int_equal(pixel(ctx, 6, 8)[0], 0);
    assert_int_equal(pixel(ctx, 10, 8)[0], 0);
    info.mode = PRIM_LINES;
    info.start = 2;
    info.count = 6;                          /* three lines */
    assert_int_equal(tv_pipe_draw_vbo(ctx, &info), 0);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            bool row5 = y == 5 && x >= 1 && x <= 8;
            bool col12 = x == 12 && y >= 2 && y <= 9;
            /* drawn in order: the diagonal, last, covers (5, 5) */
            assert_int_equal(pixel(ctx, x, y)[1], (row5 || col12) && x != y ? 255 : 0);
            assert_int_equal(pixel(ctx, x, y)[2], x == y ? 255 : 0);
        }
    r.line_width = 3.0f;
    assert_int_equal(tv_pipe_set_rasterizer(ctx, &r), 0);
    info.start = 8;
    info.count = 2;
    assert_int_equal(tv_pipe_draw_vbo(ctx, &info), 0);
    for (int y = 12; y < H; y++)
        for (int x = 0; x < 6; x++) {
            bool in = x < 4 && y >= 13 && y <= 15;
            if (in)
                assert_int_equal(pixel(ctx, x, y)[3], 255);
            assert_int_equal(pixel(ctx, x, y)[0] == 255 && pixel(ctx, x, y)[1] == 255, in);
        }
    tv_pipe_destroy(ctx);
}

/* Polygon modes: a quad strip drawn as LINE gives its triangles' outlines (the border and
 * the shared diagonal, nothing inside), as POINT its four corners. */
static void test_polygon_modes(void **state)
{
    (void)state;
    tv_pipe_ctx *ctx = scene(fs_flat, false);
    /* window square (2.5, 2.5)-(10.5, 10.5); as seen with y down, counter-clockwise:
     * front with front_ccw */
    vert v[4] = {V(2.5f, 2.5f, 0, 1, 0, 0, 1), V(2.5f, 10.5f, 0, 1, 0, 0, 1),
                 V(10.5f, 2.5f, 0, 1, 0, 0, 1), V(10.5f, 10.5f, 0, 1, 0, 0, 1)};
    vertices(ctx, v, 4);
    tv_pipe_rasterizer_state r;
    tv_pipe_rasterizer_default(&r);
    r.fill_front = r.fill_back = TV_PIPE_POLYGON_LINE;
    assert_int_equal(tv_pipe_set_rasterizer(ctx, &r), 0);
    assert_int_equal(draw(ctx, PRIM_TRIANGLE_STRIP, 4), 0);
    int lit = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            /* the border, and the strip's shared edge from (2.5, 10.5) to (10.5, 2.5) */
            bool edge = (x == 2 || x == 10 || y == 2 || y == 10 || x + y == 12) && x >= 2 &&
                        x <= 10 && y >= 2 && y <= 10;
            lit += pixel(ctx, x, y)[0] == 255;
            if (!edge)
                assert_int_equal(pixel(ctx, x, y)[0], 0);
        }
    /* two triangles' outlines: the square's border and its diagonal, each edge 8 pixels */
    assert_true(lit >= 32 && lit <= 40);
    const uint32_t black[4] = {0, 0, 0, 0};
    assert_int_equal(tv_pipe_clear(ctx, TV_PIPE_CLEAR_COLOR0, black, 1.0, 0), 0);
    r.fill_front = r.fill_back = TV_PIPE_POLYGON_POINT;
    r.point_size = 1.0f;
    assert_int_equal(tv_pipe_set_rasterizer(ctx, &r), 0);
    assert_int_equal(draw(ctx, PRIM_TRIANGLE_STRIP, 4), 0);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            assert_int_equal(pixel(ctx, x, y)[0], (x == 2 || x == 10) && (y == 2 || y == 10)
                                                      ? 255 : 0);
    tv_pipe_destroy(ctx);
}

/* Translation validation: random triangles (overlapping, partly off-screen, both windings)
 * with interpolated colours, textured and depth-tested, drawn by the optimised engine (with
 * early depth tests) and by the plain interpreter (tv_pipe_set_plain, late depth tests)
 * give the same bytes and occlusion counts. */
static void test_plain_equals_optimised(void **state)
{
    (void)state;
    uint8_t image[2][W * H * 4];
    float depth[2][W * H];
    uint64_t passed[2], shaded[2];
    for (int plain = 0; plain < 2; plain++) {
        tv_pipe_ctx *ctx = tv_pipe_create(0);
        assert_int_equal(tv_pipe_set_plain(ctx, plain != 0), 0);
        tv_pipe_destroy(ctx);
        ctx = scene(fs_tex, true);
        /* scene() has not drawn yet: the engine is not created */
        assert_int_equal(tv_pipe_set_plain(ctx, plain != 0), 0);
        enum { TEX = 30 };
        tv_pipe_resource_desc td = {2, FMT_RGBA8, 8, 4, 4, 1, 1, 0, 0};
        assert_int_equal(tv_pipe_resource_create(ctx, TEX, &td), 0);
        uint8_t texels[64];
        for (int i = 0; i < 64; i++)
            texels[i] = (uint8_t)(i * 37 + 11);
        tv_pipe_box box = {0, 0, 0, 4, 4, 1};
        assert_int_equal(tv_pipe_transfer_write(ctx, TEX, 0, &box, texels, 64, 0, 0, 0), 0);
        tv_pipe_sampler_view view = {TEX, FMT_RGBA8, 0, 0, 0, 0, 0, 0, {0, 1, 2, 3}, 0};
        tv_pipe_sampler_state samp;
        memset(&samp, 0, sizeof samp);
        samp.min_img_filter = samp.mag_img_filter = 1;
        samp.min_mip_filter = 2;
        samp.max_lod = 16;
        assert_int_equal(tv_pipe_set_sampler_views(ctx, TV_PIPE_STAGE_FRAGMENT, 0, 1, &view), 0);
        assert_int_equal(tv_pipe_set_sampler_states(ctx, TV_PIPE_STAGE_FRAGMENT, 0, 1, &samp), 0);
        tv_pipe_dsa_state dsa;
        memset(&dsa, 0, sizeof dsa);
        dsa.depth_enabled = dsa.depth_writemask = true;
        dsa.depth_func = 3; /* LEQUAL */
        assert_int_equal(tv_pipe_set_dsa(ctx, &dsa), 0);
        vert v[60];
        uint32_t s = 99;
        for (int i = 0; i < 60; i++) {
            s = s * 1103515245u + 12345u;
            float x = (float)((s >> 8) % 2400) / 100.0f - 4.0f;
            s = s * 1103515245u + 12345u;
            float y = (float)((s >> 8) % 2400) / 100.0f - 4.0f;
            s = s * 1103515245u + 12345u;
            float z = (float)((s >> 8) % 200) / 100.0f - 1.0f;
            v[i] = V(x, y, z, (float)(i % 7) / 3.0f, (float)(i % 5) / 2.0f, 0, 1);
            v[i].pos[3] = 1.0f + (float)(i % 3) * 0.5f;   /* perspective */
            v[i].pos[0] *= v[i].pos[3];
            v[i].pos[1] *= v[i].pos[3];
        }
        vertices(ctx, v, 60);
        assert_int_equal(tv_pipe_query_create(ctx, 40, TV_PIPE_QUERY_OCCLUSION_COUNTER, 0), 0);
        assert_int_equal(tv_pipe_query_create(ctx, 41, TV_PIPE_QUERY_PIPELINE_STATISTICS,
                                              TV_PIPE_STAT_PS_INVOCATIONS), 0);
        assert_int_equal(draw_queried(ctx, PRIM_TRIANGLES, 60, 2,
                                      (const uint32_t[]){40, 41}), 0);
        assert_int_equal(tv_pipe_query_result(ctx, 40, &passed[plain]), 0);
        assert_int_equal(tv_pipe_query_result(ctx, 41, &shaded[plain]), 0);
        memcpy(image[plain], tv_pipe_resource_data(ctx, RT), sizeof image[plain]);
        memcpy(depth[plain], tv_pipe_resource_data(ctx, ZS), sizeof depth[plain]);
        /* the engine runs now: the mode is fixed */
        assert_int_equal(tv_pipe_set_plain(ctx, plain == 0), -1);
        tv_pipe_destroy(ctx);
    }
    int lit = 0;
    for (int i = 0; i < W * H; i++)
        lit += image[0][4 * i + 3] != 0;
    assert_true(lit > W * H / 2);
    assert_memory_equal(image[0], image[1], sizeof image[0]);
    assert_memory_equal(depth[0], depth[1], sizeof depth[0]);
    /* the same samples pass; the optimised run tests depth before shading (nothing the
     * shader does can tell), so it shades fewer fragments than the plain one */
    assert_int_equal(passed[0], passed[1]);
    assert_true(passed[0] > 0);
    assert_true(shaded[0] < shaded[1]);
}

static const char fs_linear[] =
    "FRAG\n"
    "DCL IN[0], GENERIC[0], LINEAR\n"
    "DCL OUT[0], COLOR\n"
    "  0: MOV OUT[0], IN[0]\n"
    "  1: END\n";

/* A noperspective (LINEAR) input stays screen-linear over the original triangle when a
 * user clip plane cuts it: the clipped draw's pixels equal the unclipped draw's (within
 * the 8-bit target's rounding), with vertices of different w. */
static void test_noperspective_clipping(void **state)
{
    (void)state;
    uint8_t whole[W * H * 4];
    for (int clipped = 0; clipped < 2; clipped++) {
        tv_pipe_ctx *ctx = scene(fs_linear, false);
        vert v[3] = {V(0, 0, 0, 0, 1, 0.5f, 1), V(16, 0, 0, 1, 0, 0.5f, 1),
                     V(0, 16, 0, 0.5f, 0.5f, 1, 1)};
        const float w[3] = {1, 3, 2};
        for (int k = 0; k < 3; k++)
            for (int c = 0; c < 4; c++)
                v[k].pos[c] *= w[k];
        vertices(ctx, v, 3);
        if (clipped) {
            float ucp[8][4] = {{1, 0, 0, 0.2f}};    /* keeps NDC x >= -0.2: window x >= 6.4 */
            tv_pipe_set_clip_planes(ctx, (const float(*)[4])ucp);
            tv_pipe_rasterizer_state r;
            tv_pipe_rasterizer_default(&r);
            r.clip_plane_enable = 1;
            assert_int_equal(tv_pipe_set_rasterizer(ctx, &r), 0);
        }
        assert_int_equal(draw(ctx, PRIM_TRIANGLES, 3), 0);
        const uint8_t *img = tv_pipe_resource_data(ctx, RT);
        if (!clipped) {
            memcpy(whole, img, sizeof whole);
        } else {
            int lit = 0;
            for (int i = 0; i < W * H; i++) {
                if (!img[4 * i + 3])
                    continue;
                lit++;
                assert_true(i % W >= 6);
                for (int c = 0; c < 4; c++)
                    assert_true(abs((int)img[4 * i + c] - (int)whole[4 * i + c]) <= 1);
            }
            assert_true(lit > 20);
        }
        tv_pipe_destroy(ctx);
    }
}

/* Clearing only the depth or only the stencil of a packed Z24S8 surface keeps the other:
 * depth 0.5 is round(0.5 x (2^24 - 1)) = 0x800000 in bits 0-23, stencil in bits 24-31. */
static void test_partial_depth_stencil_clears(void **state)
{
    (void)state;
    tv_pipe_ctx *ctx = scene(fs_flat, false);
    enum { Z24S8 = 19, ZS2 = 45, ZSURF2 = 46 };
    tv_pipe_resource_desc zd = {2, Z24S8, 1, 4, 4, 1, 1, 0, 0};
    assert_int_equal(tv_pipe_resource_create(ctx, ZS2, &zd), 0);
    assert_int_equal(tv_pipe_surface_create(ctx, ZSURF2, ZS2, Z24S8, 0, 0, 0), 0);
    uint32_t cb = SURF;
    assert_int_equal(tv_pipe_set_framebuffer(ctx, 1, &cb, ZSURF2), 0);
    const uint32_t black[4] = {0, 0, 0, 0};
    const uint32_t *t = (const uint32_t *)(const void *)tv_pipe_resource_data(ctx, ZS2);
    assert_int_equal(tv_pipe_clear(ctx, TV_PIPE_CLEAR_DEPTH | TV_PIPE_CLEAR_STENCIL, black, 0.5,
                                   7), 0);
    assert_int_equal(t[5], 0x07800000u);
    assert_int_equal(tv_pipe_clear(ctx, TV_PIPE_CLEAR_STENCIL, black, 1.0, 3), 0);
    assert_int_equal(t[5], 0x03800000u);
    assert_int_equal(tv_pipe_clear(ctx, TV_PIPE_CLEAR_DEPTH, black, 1.0, 9), 0);
    for (int i = 0; i < 16; i++)
        assert_int_equal(t[i], 0x03ffffffu);
    tv_pipe_destroy(ctx);
}

/* Mesa's virgl driver declares GENERIC[32 + n] vertex outputs as PATCH[n]; the fragment
 * shader's GENERIC[33] reads the vertex shader's PATCH[1]. */
static void test_virgl_patch_varyings(void **state)
{
    (void)state;
    static const char vs_patch[] = "VERT\nDCL IN[0]\nDCL IN[1]\nDCL OUT[0], POSITION\n"
                                   "DCL OUT[1], PATCH[1]\nMOV OUT[0], IN[0]\nMOV OUT[1], IN[1]\n"
                                   "END\n";
    static const char fs_33[] = "FRAG\nDCL IN[0], GENERIC[33], CONSTANT\nDCL OUT[0], COLOR\n"
                                "MOV OUT[0], IN[0]\nEND\n";
    tv_pipe_ctx *ctx = scene(fs_33, false);
    enum { VS2 = 24 };
    assert_int_equal(tv_pipe_shader_create(ctx, VS2, TV_PIPE_STAGE_VERTEX, vs_patch,
                                           sizeof vs_patch), 0);
    assert_int_equal(tv_pipe_bind_shader(ctx, TV_PIPE_STAGE_VERTEX, VS2), 0);
    vert v[3] = {V(0, 0, 0, 0, 1, 0, 1), V(32, 0, 0, 0, 1, 0, 1), V(0, 32, 0, 0, 1, 0, 1)};
    vertices(ctx, v, 3);
    assert_int_equal(draw(ctx, PRIM_TRIANGLES, 3), 0);
    const uint8_t green[4] = {0, 255, 0, 255};
    assert_memory_equal(pixel(ctx, 3, 4), green, 4);
    tv_pipe_destroy(ctx);
}

static void test_named_errors(void **state)
{
    (void)state;
    tv_pipe_ctx *ctx = scene(fs_flat, false);
    vert v[3] = {V(0, 0, 0, 1, 0, 0, 1), V(16, 0, 0, 1, 0, 0, 1), V(0, 16, 0, 1, 0, 0, 1)};
    vertices(ctx, v, 3);
    /* 3 vertices x 2^23 instances: past the 2^24 shaded vertices of one draw, refused
     * before anything is allocated */
    tv_pipe_draw_info big;
    memset(&big, 0, sizeof big);
    big.mode = PRIM_TRIANGLES;
    big.count = 3;
    big.instance_count = 1u << 23;
    assert_int_equal(tv_pipe_draw_vbo(ctx, &big), -1);
    assert_non_null(strstr(tv_pipe_error(ctx), "vertices x 8388608 instances to shade"));
    /* 2^24 + 1 vertices: refused before assembly allocates (found by fuzz_vtest) */
    big.instance_count = 1;
    big.count = (1u << 24) + 1;
    assert_int_equal(tv_pipe_draw_vbo(ctx, &big), -1);
    assert_non_null(strstr(tv_pipe_error(ctx), "16777217 vertices (at most 16777216 a draw)"));
    assert_int_equal(draw(ctx, 14 /* PATCHES */, 3), -1);
    assert_non_null(strstr(tv_pipe_error(ctx), "PATCHES without a tessellation evaluation shader"));
    assert_int_equal(draw(ctx, 99, 3), -1);
    assert_non_null(strstr(tv_pipe_error(ctx), "unknown primitive 99"));
    tv_pipe_rasterizer_state r;
    tv_pipe_rasterizer_default(&r);
    r.fill_front = 7;
    assert_int_equal(tv_pipe_set_rasterizer(ctx, &r), 0);
    assert_int_equal(draw(ctx, PRIM_TRIANGLES, 3), -1);
    assert_non_null(strstr(tv_pipe_error(ctx), "unknown polygon mode 7"));
    tv_pipe_rasterizer_default(&r);
    assert_int_equal(tv_pipe_set_rasterizer(ctx, &r), 0);
    /* a vertex format that is none, and a destroyed vertex buffer */
    tv_pipe_vertex_element bad[2] = {{0, 0, 0, 18 /* Z32_FLOAT */}, {16, 0, 0, FMT_RGBA32F}};
    assert_int_equal(tv_pipe_set_vertex_elements(ctx, 2, bad), 0);
    assert_int_equal(draw(ctx, PRIM_TRIANGLES, 3), -1);
    assert_non_null(strstr(tv_pipe_error(ctx), "is not a vertex format"));
    tv_pipe_vertex_element ve[2] = {{0, 0, 0, FMT_RGBA32F}, {16, 0, 0, FMT_RGBA32F}};
    assert_int_equal(tv_pipe_set_vertex_elements(ctx, 2, ve), 0);
    assert_int_equal(tv_pipe_resource_destroy(ctx, VB), 0);
    assert_int_equal(draw(ctx, PRIM_TRIANGLES, 3), -1);
    assert_non_null(strstr(tv_pipe_error(ctx), "resource 3 was destroyed"));
    /* the draw's work quota: the vertex shader's one warp ran its 3 instructions (MOV,
     * MOV, END) and is charged 64 for its set-up, and 9 fragment warps x 4096 instructions
     * do not fit in the 8125 left: the 8 of a 16x16 target's 8x4 tiles, and one more, as
     * the triangle is small enough to share warps with the draw's next (the warp holding
     * its last quads runs at the next one's add, tv_vm_frag_batch) */
    assert_int_equal(tv_pipe_set_vertex_elements(ctx, 2, ve), 0);
    vertices(ctx, v, 3);
    tv_pipe_set_compute_limit(ctx, 0, 8192);
    assert_int_equal(draw(ctx, PRIM_TRIANGLES, 3), -1);
    assert_non_null(strstr(tv_pipe_error(ctx), "9 warps exceed the work quota (8192 warp "
                                                "instructions, 8125 left"));
    tv_pipe_set_compute_limit(ctx, 0, 0);
    /* a context's total work quota: the first draw uses most of 10000, the next fails */
    tv_pipe_set_total_work(ctx, 10000);
    assert_int_equal(draw(ctx, PRIM_TRIANGLES, 3), -1);
    assert_non_null(strstr(tv_pipe_error(ctx), "warps exceed the work quota (17179869184 warp "
                                                "instructions, 9933 left"));
    tv_pipe_set_total_work(ctx, 0);
    /* no fragment shader */
    assert_int_equal(tv_pipe_bind_shader(ctx, TV_PIPE_STAGE_FRAGMENT, 0), 0);
    assert_int_equal(draw(ctx, PRIM_TRIANGLES, 3), -1);
    assert_non_null(strstr(tv_pipe_error(ctx), "no fragment shader bound"));
    /* array_size 0 is read as 1 where a target has one layer (Mesa's virgl sends it), and
     * refused where the layers count */
    tv_pipe_resource_desc one = {2, FMT_RGBA8, 2, 8, 1, 1, 0, 0, 0};
    assert_int_equal(tv_pipe_resource_create(ctx, 40, &one), 0);
    tv_pipe_resource_desc arr = {7, FMT_RGBA8, 2, 8, 1, 1, 0, 0, 0};
    assert_int_equal(tv_pipe_resource_create(ctx, 41, &arr), -1);
    assert_non_null(strstr(tv_pipe_error(ctx), "array 0 out of range"));
    /* the target was never written */
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            assert_int_equal(pixel(ctx, x, y)[0], 0);
    tv_pipe_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_triangle_coverage_and_flat_colour),
        cmocka_unit_test(test_strip_covers_once_and_interpolates),
        cmocka_unit_test(test_indexed_base_vertex),
        cmocka_unit_test(test_depth_test_both_orders),
        cmocka_unit_test(test_alpha_blending),
        cmocka_unit_test(test_culling_and_facing),
        cmocka_unit_test(test_guard_band_and_near_clipping),
        cmocka_unit_test(test_input_declared_twice),
        cmocka_unit_test(test_instancing_and_scissor),
        cmocka_unit_test(test_initial_scissor_empty),
        cmocka_unit_test(test_textured_quad),
        cmocka_unit_test(test_points_and_lines),
        cmocka_unit_test(test_polygon_modes),
        cmocka_unit_test(test_plain_equals_optimised),
        cmocka_unit_test(test_noperspective_clipping),
        cmocka_unit_test(test_virgl_patch_varyings),
        cmocka_unit_test(test_partial_depth_stencil_clears),
        cmocka_unit_test(test_named_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
