/* Rasteriser modes of the rasterizer state, checked against values worked out by hand:
 * polygon stipple (which pixels of a filled polygon a 32x32 pattern keeps; lines and
 * polygons drawn as lines are not stippled) and pixel centres at integers
 * (half_pixel_center off: a square between 0.2 and 1.2 covers pixel 1, not pixel 0). */
#include "helper_draw.h"

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_polygon_stipple),
        cmocka_unit_test(test_integer_pixel_centres),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
