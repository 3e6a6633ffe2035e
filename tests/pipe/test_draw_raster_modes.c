/* Rasteriser modes of the rasterizer state, checked against values worked out by hand:
 * polygon stipple (which pixels of a filled polygon a 32x32 pattern keeps; lines and
 * polygons drawn as lines are not stippled), line stipple (pattern, factor, direction,
 * the counter restarting per line and running on through a strip), antialiased points,
 * lines and polygons (alpha times the exact area: a quarter circle, a quarter and three
 * quarters of a row, half pixels along a diagonal) and pixel centres at integers
 * (half_pixel_center off: a square between 0.2 and 1.2 covers pixel 1, not pixel 0), and
 * point sprite coordinates (GL 4.6 §14.4: s = 1/2 + (x + 1/2 - x_w) / size, t likewise from
 * the top or the bottom) replacing the input sprite_coord_enable names, TEXCOORD[i] or,
 * with sprite_coord_generic (virgl's convention), GENERIC[i]. */
#include "helper_draw.h"

#include <math.h>

#include <string.h>

static void full_quad(vert *v)
{
    v[0] = V(0, 0, 0, 1, 1, 1, 1);
    v[1] = V(W, 0, 0, 1, 1, 1, 1);
    v[2] = V(0, H, 0, 1, 1, 1, 1);
    v[3] = V(0, H, 0, 1, 1, 1, 1);
    v[4] = V(W, 0, 0, 1, 1, 1, 1);
    v[5] = V(W, H, 0, 1, 1, 1, 1);
}

static uint32_t pattern_row(int y)
{
    /* a diagonal bit, a fixed comb, and rows 5 and 21 empty */
    return y % 16 == 5 ? 0u : (0x80000000u >> y) | 0x0f0f0f0fu | (y & 1 ? 0x30000000u : 0u);
}

static void test_polygon_stipple(void **state)
{
    (void)state;
    tv_pipe_ctx *ctx = scene(fs_flat, false);
    uint32_t pattern[32];
    for (int y = 0; y < 32; y++)
        pattern[y] = pattern_row(y);
    tv_pipe_set_polygon_stipple(ctx, pattern);
    tv_pipe_rasterizer_state r;
    tv_pipe_rasterizer_default(&r);
    r.poly_stipple_enable = true;
    assert_int_equal(tv_pipe_set_rasterizer(ctx, &r), 0);
    vert v[6];
    full_quad(v);
    vertices(ctx, v, 6);
    assert_int_equal(draw(ctx, PRIM_TRIANGLES, 6), 0);
    int lit = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            /* pixel x of row y: bit 31 - x of the row (the pattern's first pixel is its
             * most significant bit) */
            bool on = (pattern_row(y) >> (31 - x)) & 1u;
            assert_int_equal(pixel(ctx, x, y)[0], on ? 255 : 0);
            lit += on;
        }
    assert_true(lit > 0 && lit < W * H);
    /* a line along the empty row 5 is not stippled */
    vert line[2] = {V(0, 5.5f, 0, 0, 1, 0, 1), V(W, 5.5f, 0, 0, 1, 0, 1)};
    vertices(ctx, line, 2);
    assert_int_equal(draw(ctx, PRIM_LINES, 2), 0);
    for (int x = 0; x < W; x++)
        assert_int_equal(pixel(ctx, x, 5)[1], 255);
    /* nor is a polygon drawn as lines: the quad's outline along row 0 */
    const uint32_t black[4] = {0, 0, 0, 0};
    assert_int_equal(tv_pipe_clear(ctx, TV_PIPE_CLEAR_COLOR0, black, 1.0, 0), 0);
    r.fill_front = r.fill_back = TV_PIPE_POLYGON_LINE;
    assert_int_equal(tv_pipe_set_rasterizer(ctx, &r), 0);
    vert tri[3] = {V(0.5f, 5.5f, 0, 1, 1, 1, 1), V(12.5f, 5.5f, 0, 1, 1, 1, 1),
                   V(0.5f, 12.5f, 0, 1, 1, 1, 1)};
    vertices(ctx, tri, 3);
    assert_int_equal(draw(ctx, PRIM_TRIANGLES, 3), 0);
    for (int x = 1; x < 12; x++)
        assert_int_equal(pixel(ctx, x, 5)[0], 255);
    tv_pipe_destroy(ctx);
}

/* Draw LINES or LINE_STRIP through N window points along row 5 (or column 3 when
 * YMAJOR) with line stipple PATTERN and FACTOR; bit i of the result: pixel i lit. */
static uint32_t stippled(uint32_t mode, const float *along, unsigned n, uint16_t pattern,
                         uint8_t factor, bool ymajor)
{
    tv_pipe_ctx *ctx = scene(fs_flat, false);
    tv_pipe_rasterizer_state r;
    tv_pipe_rasterizer_default(&r);
    r.line_stipple_enable = true;
    r.line_stipple_pattern = pattern;
    r.line_stipple_factor = factor;
    assert_int_equal(tv_pipe_set_rasterizer(ctx, &r), 0);
    vert v[8];
    for (unsigned i = 0; i < n; i++)
        v[i] = ymajor ? V(3.5f, along[i], 0, 1, 1, 1, 1) : V(along[i], 5.5f, 0, 1, 1, 1, 1);
    vertices(ctx, v, n);
    assert_int_equal(draw(ctx, mode, n), 0);
    uint32_t lit = 0;
    for (int i = 0; i < 16; i++)
        lit |= (uint32_t)(pixel(ctx, ymajor ? 3 : i, ymajor ? i : 5)[0] == 255) << i;
    tv_pipe_destroy(ctx);
    return lit;
}

static void test_line_stipple(void **state)
{
    (void)state;
    const float whole[2] = {0, 16}, back[2] = {16, 0}, halves[4] = {0, 8, 8, 16};
    const float strip[3] = {0, 8, 16};
    /* fragment i of a line from 0 to 16 is pixel i: pattern bit i */
    assert_int_equal(stippled(PRIM_LINES, whole, 2, 0x00ff, 0, false), 0x00ff);
    /* factor 2 (stored minus one): bit i / 2 */
    assert_int_equal(stippled(PRIM_LINES, whole, 2, 0x5555, 1, false), 0x3333);
    /* drawn from 16 to 0: fragment i is pixel 15 - i */
    assert_int_equal(stippled(PRIM_LINES, back, 2, 0x00ff, 0, false), 0xff00);
    /* two separate lines restart the counter; a strip carries it on */
    assert_int_equal(stippled(PRIM_LINES, halves, 4, 0x00ff, 0, false), 0xffff);
    assert_int_equal(stippled(PRIM_LINE_STRIP, strip, 3, 0x00ff, 0, false), 0x00ff);
    /* a y-major line counts rows */
    assert_int_equal(stippled(PRIM_LINES, whole, 2, 0x000f, 0, true), 0x000f);
}

/* A line with an end that is not finite covers nothing (as such a triangle does), stippled
 * or not, and the draw goes on: the next line of the list is drawn. (A NaN end once reached
 * an out-of-range float-to-int conversion in the stipple set-up: fuzz_vtest.) */
static void test_line_not_finite(void **state)
{
    (void)state;
    for (int stipple = 0; stipple < 2; stipple++) {
        tv_pipe_ctx *ctx = scene(fs_flat, false);
        tv_pipe_rasterizer_state r;
        tv_pipe_rasterizer_default(&r);
        r.line_stipple_enable = stipple;
        r.line_stipple_pattern = 0xffff;
        assert_int_equal(tv_pipe_set_rasterizer(ctx, &r), 0);
        vert v[6] = {V(0, 5.5f, 0, 1, 1, 1, 1), V(W, 5.5f, 0, 1, 1, 1, 1),
                     V(0, 7.5f, 0, 1, 1, 1, 1), V(W, 7.5f, 0, 1, 1, 1, 1),
                     V(0, 9.5f, 0, 1, 1, 1, 1), V(W, 9.5f, 0, 1, 1, 1, 1)};
        v[1].pos[0] = NAN;
        v[2].pos[1] = INFINITY;
        vertices(ctx, v, 6);
        assert_int_equal(draw(ctx, PRIM_LINES, 6), 0);
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++)
                assert_int_equal(pixel(ctx, x, y)[0], y == 9 ? 255 : 0);
        tv_pipe_destroy(ctx);
    }
}

/* Antialiased primitives: alpha = the area of the pixel square inside the exact shape. */
static tv_pipe_ctx *smooth_scene(bool point, bool line, bool poly, float size)
{
    tv_pipe_ctx *ctx = scene(fs_flat, false);
    tv_pipe_rasterizer_state r;
    tv_pipe_rasterizer_default(&r);
    r.point_smooth = point;
    r.line_smooth = line;
    r.poly_smooth = poly;
    r.point_size = size;
    r.line_width = size;
    assert_int_equal(tv_pipe_set_rasterizer(ctx, &r), 0);
    return ctx;
}

static void test_smooth_primitives(void **state)
{
    (void)state;
    /* a point of size 2 centred on the corner (8, 8): a quarter of the unit circle in each
     * of its 4 pixels, pi/4 -> round(0.7854 * 255) = 200 */
    tv_pipe_ctx *ctx = smooth_scene(true, false, false, 2.0f);
    vert pt = V(8, 8, 0, 1, 1, 1, 1);
    vertices(ctx, &pt, 1);
    assert_int_equal(draw(ctx, PRIM_POINTS, 1), 0);
    for (int y = 5; y < 11; y++)
        for (int x = 5; x < 11; x++) {
            bool in = (x == 7 || x == 8) && (y == 7 || y == 8);
            assert_int_equal(pixel(ctx, x, y)[3], in ? 200 : 0);
            assert_int_equal(pixel(ctx, x, y)[0], in ? 255 : 0);
        }
    tv_pipe_destroy(ctx);
    /* a width-1 line along y = 5.25 from x = 2 to 10: a quarter of row 4 (64), three
     * quarters of row 5 (191), nothing past its ends */
    ctx = smooth_scene(false, true, false, 1.0f);
    vert ln[2] = {V(2, 5.25f, 0, 1, 1, 1, 1), V(10, 5.25f, 0, 1, 1, 1, 1)};
    vertices(ctx, ln, 2);
    assert_int_equal(draw(ctx, PRIM_LINES, 2), 0);
    for (int y = 3; y < 8; y++)
        for (int x = 0; x < 12; x++) {
            int want = x < 2 || x >= 10 ? 0 : y == 4 ? 64 : y == 5 ? 191 : 0;
            assert_int_equal(pixel(ctx, x, y)[3], want);
        }
    tv_pipe_destroy(ctx);
    /* the triangle (0,0) (4,0) (0,4): whole pixels inside, half of each pixel its
     * hypotenuse cuts diagonally (127.5: 128 by the format's round to even) */
    ctx = smooth_scene(false, false, true, 1.0f);
    vert tri[3] = {V(0, 0, 0, 1, 1, 1, 1), V(4, 0, 0, 1, 1, 1, 1), V(0, 4, 0, 1, 1, 1, 1)};
    vertices(ctx, tri, 3);
    assert_int_equal(draw(ctx, PRIM_TRIANGLES, 3), 0);
    for (int y = 0; y < 6; y++)
        for (int x = 0; x < 6; x++) {
            int want = x + y < 3 ? 255 : x + y == 3 ? 128 : 0;
            assert_int_equal(pixel(ctx, x, y)[3], want);
        }
    tv_pipe_destroy(ctx);
}

static void test_integer_pixel_centres(void **state)
{
    (void)state;
    for (int half = 0; half < 2; half++) {
        tv_pipe_ctx *ctx = scene(fs_flat, false);
        tv_pipe_rasterizer_state r;
        tv_pipe_rasterizer_default(&r);
        r.half_pixel_center = half != 0;
        assert_int_equal(tv_pipe_set_rasterizer(ctx, &r), 0);
        vert v[6] = {V(0.2f, 0.2f, 0, 1, 0, 0, 1), V(1.2f, 0.2f, 0, 1, 0, 0, 1),
                     V(0.2f, 1.2f, 0, 1, 0, 0, 1), V(0.2f, 1.2f, 0, 1, 0, 0, 1),
                     V(1.2f, 0.2f, 0, 1, 0, 0, 1), V(1.2f, 1.2f, 0, 1, 0, 0, 1)};
        vertices(ctx, v, 6);
        assert_int_equal(draw(ctx, PRIM_TRIANGLES, 6), 0);
        /* half-pixel centres: (0.5, 0.5) is inside; integer centres: (1, 1) is */
        int want = half ? 0 : 1;
        for (int y = 0; y < 4; y++)
            for (int x = 0; x < 4; x++)
                assert_int_equal(pixel(ctx, x, y)[0], x == want && y == want ? 255 : 0);
        tv_pipe_destroy(ctx);
    }
}

/* Point sprites: a size-8 point centred on (8, 8) covers pixels 4..11 each way; at pixel
 * centre (x + 1/2, y + 1/2) s = 1/2 + (x + 1/2 - 8) / 8 = (x - 3.5) / 8, and t the same of
 * y with sprite_coord_mode 0 (origin at the top, row 0), (11.5 - y) / 8 with mode 1; the
 * replaced input reads (s, t, 0, 1). Gallium names the input by sprite_coord_enable bit i:
 * TEXCOORD[i], or GENERIC[i] where the driver has no TEXCOORD semantic (virgl, which sends
 * gl_PointCoord as GENERIC[8] and gl_TexCoord[i] as GENERIC[i]). */
static const char fs_generic8[] = "FRAG\n"
                                  "DCL IN[0], GENERIC[8], PERSPECTIVE\n"
                                  "DCL OUT[0], COLOR\n"
                                  "  0: MOV OUT[0], IN[0]\n"
                                  "  1: END\n";

static int unorm8(float v)
{
    return (int)lrintf(v * 255.0f);
}

static void sprite_draw(tv_pipe_ctx *ctx, bool generic, uint16_t enable, bool lower_left)
{
    tv_pipe_rasterizer_state r;
    tv_pipe_rasterizer_default(&r);
    r.point_size = 8.0f;
    r.point_quad_rasterization = true;
    r.sprite_coord_enable = enable;
    r.sprite_coord_generic = generic;
    r.sprite_coord_mode = lower_left;
    assert_int_equal(tv_pipe_set_rasterizer(ctx, &r), 0);
    vert pt = V(8, 8, 0, 0.25f, 0.4f, 0.75f, 1);
    vertices(ctx, &pt, 1);
    assert_int_equal(draw(ctx, PRIM_POINTS, 1), 0);
}

static void assert_sprite(tv_pipe_ctx *ctx, bool lower_left)
{
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            const uint8_t *p = pixel(ctx, x, y);
            bool in = x >= 4 && x < 12 && y >= 4 && y < 12;
            float s = ((float)x - 3.5f) / 8.0f;
            float t = lower_left ? (11.5f - (float)y) / 8.0f : ((float)y - 3.5f) / 8.0f;
            assert_int_equal(p[0], in ? unorm8(s) : 0);
            assert_int_equal(p[1], in ? unorm8(t) : 0);
            assert_int_equal(p[2], 0);
            assert_int_equal(p[3], in ? 255 : 0);
        }
}

static void test_sprite_coordinates(void **state)
{
    (void)state;
    for (int mode = 0; mode < 2; mode++) {
        /* gl_PointCoord as virgl sends it: GENERIC[8], enable bit 8 */
        tv_pipe_ctx *ctx = scene(fs_generic8, false);
        sprite_draw(ctx, true, 1u << 8, mode != 0);
        assert_sprite(ctx, mode != 0);
        tv_pipe_destroy(ctx);
        /* a replaced GENERIC[0] (gl_TexCoord[0] under COORD_REPLACE) loses the vertex's
           value */
        ctx = scene(fs_smooth, false);
        sprite_draw(ctx, true, 1u << 0, mode != 0);
        assert_sprite(ctx, mode != 0);
        tv_pipe_destroy(ctx);
    }
    /* the same bits under the TEXCOORD convention leave GENERIC[0] alone: the vertex's
       colour (0.25, 0.4, 0.75, 1) over the whole point */
    tv_pipe_ctx *ctx = scene(fs_smooth, false);
    sprite_draw(ctx, false, 1u << 0 | 1u << 8, false);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            bool in = x >= 4 && x < 12 && y >= 4 && y < 12;
            const uint8_t *p = pixel(ctx, x, y);
            assert_int_equal(p[0], in ? unorm8(0.25f) : 0);
            assert_int_equal(p[1], in ? unorm8(0.4f) : 0);
            assert_int_equal(p[2], in ? unorm8(0.75f) : 0);
        }
    tv_pipe_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_polygon_stipple),
        cmocka_unit_test(test_line_stipple),
        cmocka_unit_test(test_line_not_finite),
        cmocka_unit_test(test_smooth_primitives),
        cmocka_unit_test(test_integer_pixel_centres),
        cmocka_unit_test(test_sprite_coordinates),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
