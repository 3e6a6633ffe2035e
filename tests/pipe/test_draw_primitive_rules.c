/* The primitive path between the vertex and fragment stages against GL 4.6's rules, each
 * expected value worked out here from the specification's arithmetic:
 *
 * - §13.7 clipping: a triangle is clipped to the view volume, which the viewport maps to
 *   its own rectangle — the guard band must not let a triangle reach pixels outside a
 *   viewport smaller than the target (whole-pixel and half-pixel viewport edges);
 * - §14.3.1: with MULTISAMPLE disabled, rasterisation into a multisampled target is
 *   single-sample (pixel centre) rasterisation with full coverage; the default state
 *   (GL's) has it enabled;
 * - §14.6.5: POLYGON_OFFSET_LINE / _POINT offset polygons drawn in LINE / POINT mode, by
 *   the polygon's own depth slope (not the line's), and POLYGON_OFFSET_FILL does not; the
 *   units of a fixed-point depth buffer are two of its steps;
 * - §14.6.4: polygon mode POINT draws the vertices as points of the point size the
 *   vertex shader writes (PROGRAM_POINT_SIZE).
 */
#include "helper_draw.h"

#include <math.h>
#include <string.h>

/* ---- the viewport bounds triangles -------------------------------------------------- */

/* Pixels whose centre lies in [x0, x1) x [y0, y1) (a clipped triangle's left and top edges
 * include their samples, right and bottom ones do not) lit, the others blank. */
static void assert_rect(tv_pipe_ctx *ctx, double x0, double y0, double x1, double y1)
{
    int lit = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            bool in = x + 0.5 >= x0 && x + 0.5 < x1 && y + 0.5 >= y0 && y + 0.5 < y1;
            assert_int_equal(pixel(ctx, x, y)[3], in ? 255 : 0);
            lit += in;
        }
    assert_true(lit > 0);
}

static void test_viewport_bounds_triangles(void **state)
{
    (void)state;
    tv_pipe_ctx *ctx = scene(fs_flat, false);
    /* a triangle covering NDC [-1, 1]^2 and far beyond it (inside the guard band) */
    vert v[3] = {{{-3, -3, 0, 1}, {1, 1, 1, 1}}, {{5, -3, 0, 1}, {1, 1, 1, 1}},
                 {{-3, 5, 0, 1}, {1, 1, 1, 1}}};
    vertices(ctx, v, 3);
    const uint32_t black[4] = {0, 0, 0, 0};
    /* viewport x 2..10, y 3..9: NDC -1..1 maps exactly onto those pixels */
    tv_pipe_viewport vp = {{4, 3, 0.5f}, {6, 6, 0.5f}};
    assert_int_equal(tv_pipe_set_viewports(ctx, 0, 1, &vp), 0);
    assert_int_equal(draw(ctx, PRIM_TRIANGLES, 3), 0);
    assert_rect(ctx, 2, 3, 10, 9);
    /* y flipped (scale negative): the same rectangle */
    assert_int_equal(tv_pipe_clear(ctx, TV_PIPE_CLEAR_COLOR0, black, 1.0, 0), 0);
    vp = (tv_pipe_viewport){{4, -3, 0.5f}, {6, 6, 0.5f}};
    assert_int_equal(tv_pipe_set_viewports(ctx, 0, 1, &vp), 0);
    assert_int_equal(draw(ctx, PRIM_TRIANGLES, 3), 0);
    assert_rect(ctx, 2, 3, 10, 9);
    /* edges at half pixels, x 2.5..9.5 and y 4.5..11.5: the centres 2.5 and 4.5 lie on
     * the left and top edges (included), 9.5 and 11.5 on the right and bottom ones (not) */
    assert_int_equal(tv_pipe_clear(ctx, TV_PIPE_CLEAR_COLOR0, black, 1.0, 0), 0);
    vp = (tv_pipe_viewport){{3.5f, 3.5f, 0.5f}, {6, 8, 0.5f}};
    assert_int_equal(tv_pipe_set_viewports(ctx, 0, 1, &vp), 0);
    assert_int_equal(draw(ctx, PRIM_TRIANGLES, 3), 0);
    assert_rect(ctx, 2.5, 4.5, 9.5, 11.5);
    tv_pipe_destroy(ctx);
}

static void test_viewport_bounds_lines(void **state)
{
    (void)state;
    tv_pipe_ctx *ctx = scene(fs_flat, false);
    /* viewport x 2..10, y 3..9; a line across NDC x -3..3 at NDC y 1/6 (window y 6.5,
     * row 6's centres) is clipped at NDC x = ±1, window x 2 and 10: pixels 2..9 of row 6
     * (GL 4.6 §13.7: line segments are clipped to the clip volume) */
    tv_pipe_viewport vp = {{4, 3, 0.5f}, {6, 6, 0.5f}};
    assert_int_equal(tv_pipe_set_viewports(ctx, 0, 1, &vp), 0);
    vert v[2] = {{{-3, 1 / 6.0f, 0, 1}, {1, 1, 1, 1}}, {{3, 1 / 6.0f, 0, 1}, {1, 1, 1, 1}}};
    vertices(ctx, v, 2);
    assert_int_equal(draw(ctx, PRIM_LINES, 2), 0);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            assert_int_equal(pixel(ctx, x, y)[3], y == 6 && x >= 2 && x < 10 ? 255 : 0);
    tv_pipe_destroy(ctx);
}

/* ---- multisample rasterisation off ---------------------------------------------------- */

enum { MS = 50, MSURF = 51, NS = 4 };

/* D3D's 4x positions inside the pixel (as test_draw_msaa.c writes them out) */
static const float pos4[NS][2] = {{0.375f, 0.125f}, {0.875f, 0.375f}, {0.125f, 0.625f},
                                  {0.625f, 0.875f}};
static const float tx[3] = {333 / 256.0f, 3738 / 256.0f, 1306 / 256.0f};
static const float ty[3] = {179 / 256.0f, 563 / 256.0f, 3942 / 256.0f};

/* (px, py) strictly inside the triangle (tx, ty) (never on an edge: asserted) */
static bool inside(double px, double py)
{
    double e[3];
    for (int i = 0; i < 3; i++) {
        int j = (i + 1) % 3;
        e[i] = (px - tx[i]) * (ty[j] - ty[i]) - (py - ty[i]) * (tx[j] - tx[i]);
        assert_true(fabs(e[i]) > 1e-9);
    }
    return (e[0] > 0 && e[1] > 0 && e[2] > 0) || (e[0] < 0 && e[1] < 0 && e[2] < 0);
}

static void test_default_multisample(void **state)
{
    (void)state;
    /* GL's default state has MULTISAMPLE enabled (§14.3.1, table 23.10) */
    tv_pipe_rasterizer_state r;
    tv_pipe_rasterizer_default(&r);
    assert_true(r.multisample);
}

static void test_multisample_disabled(void **state)
{
    (void)state;
    tv_pipe_rasterizer_state r;
    tv_pipe_rasterizer_default(&r);
    tv_pipe_ctx *ctx = scene(fs_flat, false);
    tv_pipe_resource_desc rd = {2, FMT_RGBA8, 2, W, H, 1, 1, 0, NS};
    assert_int_equal(tv_pipe_resource_create(ctx, MS, &rd), 0);
    assert_int_equal(tv_pipe_surface_create(ctx, MSURF, MS, FMT_RGBA8, 0, 0, 0), 0);
    uint32_t cb = MSURF;
    assert_int_equal(tv_pipe_set_framebuffer(ctx, 1, &cb, 0), 0);
    const uint32_t black[4] = {0, 0, 0, 0};
    assert_int_equal(tv_pipe_clear(ctx, TV_PIPE_CLEAR_COLOR0, black, 1.0, 0), 0);
    r.multisample = false;
    assert_int_equal(tv_pipe_set_rasterizer(ctx, &r), 0);
    vert v[3];
    for (int i = 0; i < 3; i++)
        v[i] = V(tx[i], ty[i], 0, 0.8f, 0, 0, 1);
    vertices(ctx, v, 3);
    assert_int_equal(draw(ctx, PRIM_TRIANGLES, 3), 0);
    /* every sample of a pixel whose centre is inside, none of the others' — and the
     * triangle has pixels whose samples it splits, where the two rules differ */
    int split = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            bool c = inside(x + 0.5, y + 0.5);
            for (int s = 0; s < NS; s++) {
                const uint8_t *t = tv_pipe_resource_data(ctx, MS) +
                                   ((size_t)y * W * NS + (size_t)x * NS + s) * 4;
                assert_int_equal(t[0], c ? 204 : 0);
                split += inside(x + pos4[s][0], y + pos4[s][1]) != c;
            }
        }
    assert_true(split > 0);
    tv_pipe_destroy(ctx);
}

/* ---- polygon offset of polygons drawn as lines and points ---------------------------- */

static void depth_always(tv_pipe_ctx *ctx)
{
    tv_pipe_dsa_state dsa;
    memset(&dsa, 0, sizeof dsa);
    dsa.depth_enabled = dsa.depth_writemask = true;
    dsa.depth_func = 7; /* ALWAYS */
    assert_int_equal(tv_pipe_set_dsa(ctx, &dsa), 0);
}

static void test_polygon_offset_line_point(void **state)
{
    (void)state;
    tv_pipe_ctx *ctx = scene(fs_flat, true);
    depth_always(ctx);
    /* window z = 0.25 + y / 64: NDC z = 2 (0.25 + y / 64) - 1. The polygon's depth
     * slope m = max(|dz/dx|, |dz/dy|) = 1/64; along its top edge (y = 2.5) z is
     * constant, so a horizontal line's own slope would be 0. Offset factor 4, units
     * 2^20: for a Z32F buffer r = 2^(e - 23) with e the exponent of the largest |z|
     * (z < 0.5 at every vertex: 2^-2 <= z < 2^-1, e = -2), so o = 4/64 + 2^20 2^-25 =
     * 1/16 + 1/32. */
    const float y0 = 2.5f, y1 = 13.5f;
    const double z0 = 0.25 + y0 / 64.0;
    vert v[3] = {V(1.5f, y0, (float)(2 * z0 - 1), 1, 1, 1, 1),
                 V(14.5f, y0, (float)(2 * z0 - 1), 1, 1, 1, 1),
                 V(1.5f, y1, (float)(2 * (0.25 + y1 / 64.0) - 1), 1, 1, 1, 1)};
    vertices(ctx, v, 3);
    const double o = 4.0 / 64.0 + 1.0 / 32.0;
    struct { uint8_t mode; bool line, point, tri; double offset; } cases[] = {
        {TV_PIPE_POLYGON_LINE, true, false, false, o},
        {TV_PIPE_POLYGON_LINE, false, true, true, 0},    /* FILL's offset: not lines' */
        {TV_PIPE_POLYGON_POINT, false, true, false, o},
        {TV_PIPE_POLYGON_POINT, true, false, true, 0},
    };
    for (unsigned k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const uint32_t black[4] = {0, 0, 0, 0};
        assert_int_equal(tv_pipe_clear(ctx, TV_PIPE_CLEAR_COLOR0 | TV_PIPE_CLEAR_DEPTH, black,
                                       1.0, 0), 0);
        tv_pipe_rasterizer_state r;
        tv_pipe_rasterizer_default(&r);
        r.fill_front = r.fill_back = cases[k].mode;
        r.offset_line = cases[k].line;
        r.offset_point = cases[k].point;
        r.offset_tri = cases[k].tri;
        r.offset_scale = 4.0f;
        r.offset_units = 1048576.0f;
        assert_int_equal(tv_pipe_set_rasterizer(ctx, &r), 0);
        assert_int_equal(draw(ctx, PRIM_TRIANGLES, 3), 0);
        /* the top edge's pixels 3..12 of row 2 (lines), or the first vertex's pixel */
        int xa = cases[k].mode == TV_PIPE_POLYGON_LINE ? 3 : 1;
        int xb = cases[k].mode == TV_PIPE_POLYGON_LINE ? 12 : 1;
        for (int x = xa; x <= xb; x++) {
            assert_int_equal(pixel(ctx, x, 2)[0], 255);
            assert_float_equal(depth_at(ctx, x, 2), z0 + cases[k].offset, 1e-6);
        }
    }
    tv_pipe_destroy(ctx);
}

/* ---- polygon offset units of fixed-point depth buffers -------------------------------- */

/* A flat square at window z = 0.25 with offset units U into an n-bit UNORM depth buffer
 * stores round(0.25 (2^n - 1) + 2 U): r is two of the buffer's steps (pipe_draw_tri.c,
 * polygon_offset: the smallest difference GL requires to stay distinct, as Gallium's
 * drivers scale offset_units). One step would store 16388 / 16380 in Z16; none 16384. */
static void test_polygon_offset_units_fixed_point(void **state)
{
    (void)state;
    struct { uint32_t format, bytes, mask, stored[2]; } cases[] = {
        {16, 2, 0xffffu, {16392, 16376}},              /* Z16_UNORM: 16383.75 +- 8 */
        {21, 4, 0xffffffu, {4194312, 4194296}},        /* Z24X8_UNORM: 4194303.75 +- 8 */
    };
    const float units[2] = {4.0f, -4.0f};
    for (unsigned k = 0; k < sizeof cases / sizeof cases[0]; k++)
        for (unsigned u = 0; u < 2; u++) {
            tv_pipe_ctx *ctx = scene(fs_flat, false);
            tv_pipe_resource_desc zs = {2, cases[k].format, 1, W, H, 1, 1, 0, 0};
            assert_int_equal(tv_pipe_resource_create(ctx, ZS, &zs), 0);
            assert_int_equal(tv_pipe_surface_create(ctx, ZSURF, ZS, cases[k].format, 0, 0, 0),
                             0);
            uint32_t cb = SURF;
            assert_int_equal(tv_pipe_set_framebuffer(ctx, 1, &cb, ZSURF), 0);
            depth_always(ctx);
            tv_pipe_rasterizer_state r;
            tv_pipe_rasterizer_default(&r);
            r.offset_tri = true;
            r.offset_units = units[u];
            assert_int_equal(tv_pipe_set_rasterizer(ctx, &r), 0);
            vert v[4] = {V(0, 0, -0.5f, 1, 1, 1, 1), V(W, 0, -0.5f, 1, 1, 1, 1),
                         V(0, H, -0.5f, 1, 1, 1, 1), V(W, H, -0.5f, 1, 1, 1, 1)};
            vertices(ctx, v, 4);
            assert_int_equal(draw(ctx, PRIM_TRIANGLE_STRIP, 4), 0);
            for (int y = 0; y < H; y += 5)
                for (int x = 0; x < W; x += 5) {
                    uint32_t t = 0;
                    memcpy(&t, tv_pipe_resource_data(ctx, ZS) +
                                   ((size_t)y * W + (size_t)x) * cases[k].bytes,
                           cases[k].bytes);
                    assert_int_equal(pixel(ctx, x, y)[0], 255);
                    assert_int_equal(t & cases[k].mask, cases[k].stored[u]);
                }
            tv_pipe_destroy(ctx);
        }
}

/* ---- polygon mode POINT with the shader's point size --------------------------------- */

/* the position, the colour, and the colour's alpha as PSIZE */
static const char vs_psize[] =
    "VERT\n"
    "DCL IN[0]\n"
    "DCL IN[1]\n"
    "DCL OUT[0], POSITION\n"
    "DCL OUT[1], GENERIC[0]\n"
    "DCL OUT[2], PSIZE\n"
    "  0: MOV OUT[0], IN[0]\n"
    "  1: MOV OUT[1], IN[1]\n"
    "  2: MOV OUT[2], IN[1].wwww\n"
    "  3: END\n";

static void test_polygon_point_mode_point_size(void **state)
{
    (void)state;
    tv_pipe_ctx *ctx = scene(fs_flat, false);
    enum { VS_PSIZE = 30 };
    assert_int_equal(tv_pipe_shader_create(ctx, VS_PSIZE, TV_PIPE_STAGE_VERTEX, vs_psize,
                                           sizeof vs_psize), 0);
    assert_int_equal(tv_pipe_bind_shader(ctx, TV_PIPE_STAGE_VERTEX, VS_PSIZE), 0);
    tv_pipe_rasterizer_state r;
    tv_pipe_rasterizer_default(&r);
    r.fill_front = r.fill_back = TV_PIPE_POLYGON_POINT;
    r.point_size_per_vertex = true;     /* PROGRAM_POINT_SIZE */
    assert_int_equal(tv_pipe_set_rasterizer(ctx, &r), 0);
    /* sizes 5, 3, 1 at pixel centres: squares of 5x5, 3x3 and 1 pixels around them */
    const float cx[3] = {3.5f, 12.5f, 3.5f}, cy[3] = {3.5f, 3.5f, 12.5f}, size[3] = {5, 3, 1};
    vert v[3];
    for (int i = 0; i < 3; i++)
        v[i] = V(cx[i], cy[i], 0, 1, 1, 1, size[i]);
    vertices(ctx, v, 3);
    assert_int_equal(draw(ctx, PRIM_TRIANGLES, 3), 0);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            bool in = false;
            for (int i = 0; i < 3; i++)
                in |= fabs(x + 0.5 - cx[i]) < size[i] / 2 && fabs(y + 0.5 - cy[i]) < size[i] / 2;
            assert_int_equal(pixel(ctx, x, y)[0], in ? 255 : 0);
        }
    tv_pipe_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_viewport_bounds_triangles),
        cmocka_unit_test(test_viewport_bounds_lines),
        cmocka_unit_test(test_default_multisample),
        cmocka_unit_test(test_multisample_disabled),
        cmocka_unit_test(test_polygon_offset_line_point),
        cmocka_unit_test(test_polygon_offset_units_fixed_point),
        cmocka_unit_test(test_polygon_point_mode_point_size),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
