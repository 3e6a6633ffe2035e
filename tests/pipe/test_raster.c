/* Rasterisation rules (src/pipe/pipe_raster.c) from first principles: hand-counted pixels
 * of triangles whose edges run through pixel centres (top-left and bottom-left ties),
 * snapping, facing, the clip rectangle, and meshes — every sample of a region tiled by a
 * jittered triangle mesh is covered exactly once, for both rules, both windings and 1 to
 * 16 samples. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "util/cpu_isa.h"
#include "pipe/pipe_raster.h"
#include "pipe/pipe_raster_box.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static raster_rules rules(bool bottom, unsigned samples, int32_t w, int32_t h)
{
    raster_rules r = {bottom, samples, {0, 0, w, h}};
    return r;
}

/* Pixels (single sample) a triangle covers, as a 16x16 map. */
static unsigned cover_map(const raster_rules *r, const float x[3], const float y[3],
                          uint8_t map[16][16])
{
    memset(map, 0, 256);
    raster_tri t;
    if (!raster_setup(&t, r, x, y))
        return 0;
    unsigned n = 0;
    for (int32_t py = t.y0; py < t.y1; py++)
        for (int32_t px = t.x0; px < t.x1; px++)
            if (raster_coverage(&t, px, py)) {
                map[py][px] = 1;
                n++;
            }
    return n;
}

static void test_top_left_ties(void **state)
{
    (void)state;
    /* legs through the centres of row 0 and column 0; hypotenuse x + y = 5 through
     * centres too: top and left ties are in, the bottom-right edge's are out */
    const float x[3] = {0.5f, 4.5f, 0.5f}, y[3] = {0.5f, 0.5f, 4.5f};
    uint8_t map[16][16];
    raster_rules r = rules(false, 1, 16, 16);
    assert_int_equal(cover_map(&r, x, y, map), 10);
    for (int py = 0; py < 16; py++)
        for (int px = 0; px < 16; px++)
            assert_int_equal(map[py][px], px + py <= 3);
    /* the same triangle wound the other way covers the same pixels */
    const float x2[3] = {0.5f, 0.5f, 4.5f}, y2[3] = {0.5f, 4.5f, 0.5f};
    assert_int_equal(cover_map(&r, x2, y2, map), 10);
    /* bottom-edge rule: row 0 lies on a top edge, now excluded; column 0 still in */
    r = rules(true, 1, 16, 16);
    assert_int_equal(cover_map(&r, x, y, map), 6);
    for (int py = 0; py < 16; py++)
        for (int px = 0; px < 16; px++)
            assert_int_equal(map[py][px], py >= 1 && px + py <= 3);
}

static void test_bottom_right_ties(void **state)
{
    (void)state;
    /* right angle at the bottom right: legs x = 4.5 and y = 4.5 are right and bottom
     * edges, the hypotenuse x + y = 5 (from (4.5, 0.5) to (0.5, 4.5)) is a left edge */
    const float x[3] = {4.5f, 4.5f, 0.5f}, y[3] = {0.5f, 4.5f, 4.5f};
    uint8_t map[16][16];
    raster_rules r = rules(false, 1, 16, 16);
    cover_map(&r, x, y, map);
    for (int py = 0; py < 16; py++)
        for (int px = 0; px < 16; px++)
            assert_int_equal(map[py][px], px + py >= 4 && px <= 3 && py <= 3);
    /* with the bottom-edge rule the bottom leg (row 4) is in */
    r = rules(true, 1, 16, 16);
    cover_map(&r, x, y, map);
    for (int py = 0; py < 16; py++)
        for (int px = 0; px < 16; px++)
            assert_int_equal(map[py][px], px + py >= 4 && px <= 3 && py <= 4);
}

static void test_snapping_and_facing(void **state)
{
    (void)state;
    /* centres at integers after the half-pixel shift; 1/256 pixel steps, ties to even */
    assert_int_equal(raster_snap(0.5f), 0);
    assert_int_equal(raster_snap(1.5f), 256);
    assert_int_equal(raster_snap(0.5f + 1.0f / 512.0f), 0);          /* 0.5 ulp: even 0 */
    assert_int_equal(raster_snap(0.5f + 3.0f / 512.0f), 2);          /* 1.5 ulp: even 2 */
    assert_int_equal(raster_snap(-0.5f), -256);
    raster_rules r = rules(false, 1, 16, 16);
    raster_tri t;
    /* (0,0) (4,0) (0,4): right, then down-left — clockwise as seen with y down */
    const float x[3] = {0, 4, 0}, y[3] = {0, 0, 4};
    assert_true(raster_setup(&t, &r, x, y));
    assert_false(t.ccw);
    const float x2[3] = {0, 0, 4}, y2[3] = {0, 4, 0};
    assert_true(raster_setup(&t, &r, x2, y2));
    assert_true(t.ccw);
    /* zero area after snapping, not finite, too far, outside the clip rectangle */
    const float xd[3] = {1, 2, 3}, yd[3] = {1, 2, 3};
    assert_false(raster_setup(&t, &r, xd, yd));
    const float xs[3] = {1, 1.001f, 1}, ys[3] = {1, 1, 1.001f};
    assert_false(raster_setup(&t, &r, xs, ys));
    const float xn[3] = {0, 0.0f / 0.0f, 4}, yn[3] = {0, 4, 0};
    assert_false(raster_setup(&t, &r, xn, yn));
    const float xf[3] = {0, 40000, 4}, yf[3] = {0, 4, 0};
    assert_false(raster_setup(&t, &r, xf, yf));
    const float xo[3] = {20, 30, 20}, yo[3] = {0, 0, 10};
    assert_false(raster_setup(&t, &r, xo, yo));
}

/* A box [x0, x1) x [y0, y1) as expected (x0, y0, x1, y1 in WANT) */
static void assert_box(int32_t x0, int32_t y0, int32_t x1, int32_t y1, const int32_t want[4])
{
    assert_int_equal(x0, want[0]);
    assert_int_equal(y0, want[1]);
    assert_int_equal(x1, want[2]);
    assert_int_equal(y1, want[3]);
}

static void test_clip_rectangle(void **state)
{
    (void)state;
    const float x[3] = {-10, 30, -10}, y[3] = {-10, -10, 30};
    raster_rules r = {false, 1, {2, 3, 5, 7}};
    raster_tri t;
    assert_true(raster_setup(&t, &r, x, y));
    static const int32_t clip[4] = {2, 3, 5, 7};
    assert_box(t.x0, t.y0, t.x1, t.y1, clip);
}

static void test_msaa_samples(void **state)
{
    (void)state;
    /* 4x standard positions (1/16 px): (-2,-6) (6,-2) (-6,2) (2,6) around the centre.
     * A vertical edge at x = 0.5 + 0 of pixel 0 (its centre): samples left of it are out */
    const float x[3] = {0.5f, 8.5f, 0.5f}, y[3] = {-8, -8, 24};
    raster_rules r = rules(false, 4, 16, 16);
    raster_tri t;
    assert_true(raster_setup(&t, &r, x, y));
    /* pixel 0: samples 1 (x +6/16) and 3 (x +2/16) are right of the left edge */
    assert_int_equal(raster_coverage(&t, 0, 0), 0xa);
    assert_int_equal(raster_coverage(&t, 1, 0), 0xf);
    assert_int_equal(raster_coverage(&t, -1, 0), 0);
}

/* A region tiled by a jittered grid mesh: every sample inside is covered exactly once. */
static void mesh_once(bool bottom, unsigned samples, bool flip, unsigned seed)
{
    enum { N = 6, W = 24, H = 20 };
    float vx[N + 1][N + 1], vy[N + 1][N + 1];
    srand(seed);
    for (int j = 0; j <= N; j++)
        for (int i = 0; i <= N; i++) {
            /* corners beyond the region; inner vertices jittered on a 1/16 or 1/256 grid,
             * often exactly on pixel centres, so ties happen */
            float gx = -4.0f + (float)i * (W + 8) / N, gy = -4.0f + (float)j * (H + 8) / N;
            bool inner = i > 0 && i < N && j > 0 && j < N;
            if (inner) {
                int q = rand() % 3;
                float step = q == 0 ? 0.5f : q == 1 ? 1.0f / 16 : 1.0f / 256;
                int span = q == 0 ? 2 : 4;   /* at most one pixel: no fold-overs */
                gx = (float)(int)gx + 0.5f + step * (float)(rand() % (2 * span + 1) - span);
                gy = (float)(int)gy + 0.5f + step * (float)(rand() % (2 * span + 1) - span);
            }
            vx[j][i] = gx;
            vy[j][i] = gy;
        }
    static uint8_t count[H][W][RASTER_MAX_SAMPLES];
    memset(count, 0, sizeof count);
    raster_rules r = rules(bottom, samples, W, H);
    for (int j = 0; j < N; j++)
        for (int i = 0; i < N; i++) {
            /* two triangles per cell, split along alternating diagonals */
            int c[4][2] = {{i, j}, {i + 1, j}, {i + 1, j + 1}, {i, j + 1}};
            int tri[2][3] = {{0, 1, 2}, {0, 2, 3}};
            if ((i + j) & 1) {
                int alt[2][3] = {{0, 1, 3}, {1, 2, 3}};
                memcpy(tri, alt, sizeof tri);
            }
            for (int k = 0; k < 2; k++) {
                float x[3], y[3];
                for (int v = 0; v < 3; v++) {
                    int src = flip ? tri[k][2 - v] : tri[k][v];
                    x[v] = vx[c[src][1]][c[src][0]];
                    y[v] = vy[c[src][1]][c[src][0]];
                }
                raster_tri t;
                if (!raster_setup(&t, &r, x, y))
                    continue;
                for (int32_t py = t.y0; py < t.y1; py++)
                    for (int32_t px = t.x0; px < t.x1; px++) {
                        uint32_t m = raster_coverage(&t, px, py);
                        for (unsigned s = 0; s < samples; s++)
                            count[py][px][s] += (m >> s) & 1;
                    }
            }
        }
    for (int py = 0; py < H; py++)
        for (int px = 0; px < W; px++)
            for (unsigned s = 0; s < samples; s++)
                if (count[py][px][s] != 1)
                    fail_msg("seed %u samples %u bottom %d flip %d: pixel (%d,%d) sample %u "
                             "covered %u times", seed, samples, bottom, flip, px, py, s,
                             count[py][px][s]);
}

static void test_mesh_covers_once(void **state)
{
    (void)state;
    static const unsigned counts[] = {1, 2, 4, 8, 16};
    for (unsigned seed = 1; seed <= 40; seed++)
        for (unsigned c = 0; c < 5; c++)
            for (int bottom = 0; bottom < 2; bottom++)
                mesh_once(bottom, counts[c], seed & 1, seed);
}

/* A fan around a centre on a pixel centre, spokes through pixel centres: once each. */
static void test_fan_covers_once(void **state)
{
    (void)state;
    enum { R = 6 };
    const float cx = 8.5f, cy = 8.5f;
    /* the boundary: a square of side 2R around the centre, in 8R steps */
    float bx[8 * R], by[8 * R];
    int n = 0;
    for (int k = -R; k < R; k++) { bx[n] = cx + k; by[n++] = cy - R; }
    for (int k = -R; k < R; k++) { bx[n] = cx + R; by[n++] = cy + k; }
    for (int k = R; k > -R; k--) { bx[n] = cx + k; by[n++] = cy + R; }
    for (int k = R; k > -R; k--) { bx[n] = cx - R; by[n++] = cy + k; }
    uint8_t count[16][16] = {{0}};
    for (int bottom = 0; bottom < 2; bottom++) {
        memset(count, 0, sizeof count);
        raster_rules r = rules(bottom, 1, 16, 16);
        for (int i = 0; i < n; i++) {
            float x[3] = {cx, bx[i], bx[(i + 1) % n]}, y[3] = {cy, by[i], by[(i + 1) % n]};
            raster_tri t;
            if (!raster_setup(&t, &r, x, y))
                continue;
            for (int32_t py = t.y0; py < t.y1; py++)
                for (int32_t px = t.x0; px < t.x1; px++)
                    count[py][px] += raster_coverage(&t, px, py) & 1;
        }
        /* inside the square (centres strictly inside): exactly once; the square's own
         * border follows the rule: left and top (or bottom) sides in */
        for (int py = 0; py < 16; py++)
            for (int px = 0; px < 16; px++) {
                float fx = (float)px + 0.5f, fy = (float)py + 0.5f;
                bool in_x = fx >= cx - R && fx < cx + R;
                bool in_y = bottom ? (fy > cy - R && fy <= cy + R) : (fy >= cy - R && fy < cy + R);
                assert_int_equal(count[py][px], in_x && in_y);
            }
    }
}

/* Corners of a random triangle in [-shift, size - shift)² (a linear congruential SEED). */
static void random_triangle(uint32_t *seed, float size, float shift, float x[3], float y[3])
{
    for (int i = 0; i < 3; i++) {
        *seed = *seed * 1664525u + 1013904223u;
        x[i] = (float)(*seed >> 8) / 16777216.0f * size - shift;
        *seed = *seed * 1664525u + 1013904223u;
        y[i] = (float)(*seed >> 8) / 16777216.0f * size - shift;
    }
}

/* raster_coverage_lanes (the engine's tiles at once: a whole-tile accept or reject from
 * the box's corners, else a column and row step per lane) against raster_coverage pixel by
 * pixel: random triangles from tiny to many tiles wide, every tile of their box, the
 * engine's lane layout and a shuffled one, random `inside` masks. Counts the tiles each
 * route took, so a change that stops taking one fails here. */
static void test_coverage_lanes(void **state)
{
    (void)state;
    static const uint8_t lx[32] = {0, 1, 0, 1, 2, 3, 2, 3, 4, 5, 4, 5, 6, 7, 6, 7,
                                   0, 1, 0, 1, 2, 3, 2, 3, 4, 5, 4, 5, 6, 7, 6, 7};
    static const uint8_t ly[32] = {0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1,
                                   2, 2, 3, 3, 2, 2, 3, 3, 2, 2, 3, 3, 2, 2, 3, 3};
    uint32_t seed = 0x2468ace1u, whole = 0, none = 0, crossing = 0;
    for (unsigned round = 0; round < 400; round++) {
        float x[3], y[3];
        random_triangle(&seed, (float)(1u << (round % 8)) * 4, 8, x, y);
        raster_rules r = rules(round & 1, 1, 4096, 4096);
        r.clip[0] = r.clip[1] = -4096;
        raster_tri t;
        if (!raster_setup(&t, &r, x, y))
            continue;
        for (int32_t ty = t.y0 - 4; ty < t.y1 + 4; ty += 4)
            for (int32_t tx = t.x0 - 8; tx < t.x1 + 8; tx += 8) {
                int32_t px[32], py[32];
                uint32_t cov[32];
                seed = seed * 1664525u + 1013904223u;
                uint32_t inside = (round & 2) ? seed : 0xffffffffu;
                bool shuffled = (round % 5) == 4;
                for (unsigned l = 0; l < 32; l++) {
                    unsigned k = shuffled ? (l * 7u) % 32u : l;
                    px[l] = tx + lx[k] + (shuffled && l == 9 ? 8 : 0);
                    py[l] = ty + ly[k];
                    cov[l] = 0xdeadu;
                }
                raster_coverage_lanes(&t, px, py, inside, cov);
                unsigned n = 0;
                for (unsigned l = 0; l < 32; l++) {
                    uint32_t want = (inside >> l) & 1u ? raster_coverage(&t, px[l], py[l])
                                                       : 0xdeadu;
                    assert_int_equal(cov[l], want);
                    n += ((inside >> l) & 1u) && want;
                }
                if (!shuffled && inside == 0xffffffffu) {
                    whole += n == 32;
                    none += n == 0;
                    crossing += n && n < 32;
                }
            }
    }
    assert_true(whole > 100 && none > 100 && crossing > 100);
}

/* raster_row_span bounds every covered pixel of its rows (1, 4 and 16 samples, bands of
 * 1 to 8 rows, tiny to huge triangles) and is tighter than the box for most bands of a
 * large thin triangle, where it pays. raster_row_inner on the same bands: every sample of
 * every pixel of its rows covered within it, nothing when the rows leave the box, and
 * most of the pixels that are wholly covered (the engine then skips their coverage test:
 * a span too narrow costs speed, one too wide a wrong pixel). */
static void test_row_span(void **state)
{
    (void)state;
    uint32_t seed = 0x13579bdfu;
    unsigned tighter = 0, bands = 0;
    uint64_t full = 0, found = 0;
    static const unsigned samples[3] = {1, 4, 16};
    for (unsigned round = 0; round < 600; round++) {
        float x[3], y[3];
        random_triangle(&seed, (float)(1u << (round % 7)) * 3, 4, x, y);
        raster_rules r = rules(round & 1, samples[round % 3], 4096, 4096);
        r.clip[0] = r.clip[1] = -64;
        raster_tri t;
        if (!raster_setup(&t, &r, x, y))
            continue;
        const uint32_t all = (1u << t.samples) - 1u;
        unsigned h = 1 + round % 8;
        for (int32_t y0 = t.y0 - 2; y0 < t.y1 + 2; y0 += (int32_t)h) {
            int32_t x0, x1, i0, i1, y1 = y0 + (int32_t)h;
            raster_row_span(&t, y0, y1, &x0, &x1);
            raster_row_inner(&t, y0, y1, &i0, &i1);
            assert_true(x0 >= t.x0 && x1 <= t.x1);
            bool rows_in = y0 >= t.y0 && y1 <= t.y1;
            assert_true(i0 >= i1 || (rows_in && i0 >= t.x0 && i1 <= t.x1));
            for (int32_t px = t.x0; px < t.x1; px++) {
                bool whole = rows_in;
                for (int32_t py = y0; py < y1; py++) {
                    uint32_t cov = raster_coverage(&t, px, py);
                    if (cov)
                        assert_true(px >= x0 && px < x1);
                    if (px >= i0 && px < i1)
                        assert_int_equal(cov, all);
                    whole = whole && cov == all;
                }
                full += whole;
                found += whole && px >= i0 && px < i1;
            }
            if (rows_in && t.x1 - t.x0 > 16) {
                bands++;
                tighter += x1 - x0 < t.x1 - t.x0;
            }
        }
    }
    assert_true(bands > 100 && tighter * 2 > bands);
    assert_true(full > 10000 && found * 100 > full * 95);
}

/* The hull box (hx0..hy1): every covered sample of every pixel lies in it, for triangles
 * from a pixel to 64 wide (a third with vertices on pixel centres), both tie rules and 1 to 16
 * samples; and it is tighter where it serves: with one sample it is narrower than the
 * rasteriser's box for many triangles (about half here), and a cell of the mesh scene (4 pixels wide from a
 * pixel edge) takes 4 columns where the rasteriser's box takes 6. */
static void test_hull_box(void **state)
{
    (void)state;
    uint32_t seed = 0x2468ace1u;
    static const unsigned samples[5] = {1, 2, 4, 8, 16};
    unsigned covered = 0, narrower = 0, cases = 0, single = 0;
    for (unsigned round = 0; round < 3000; round++) {
        float x[3], y[3];
        random_triangle(&seed, (float)(1u << (round % 7)), round % 2 ? 2 : 4, x, y);
        if (round % 3 == 0)   /* vertices on pixel centres: samples on the hull's edges */
            for (int k = 0; k < 3; k++) {
                x[k] = floorf(x[k]) + 0.5f;
                y[k] = floorf(y[k]) + 0.5f;
            }
        raster_rules r = rules(round & 1, samples[round % 5], 4096, 4096);
        r.clip[0] = r.clip[1] = -64;
        raster_tri t;
        if (!raster_setup(&t, &r, x, y))
            continue;
        cases++;
        assert_true(t.hx0 >= t.x0 - 1 && t.hx1 <= t.x1 + 1 && t.hy0 >= t.y0 - 1 &&
                    t.hy1 <= t.y1 + 1);
        single += t.samples == 1;
        narrower += t.samples == 1 && t.hx1 - t.hx0 < t.x1 - t.x0;
        for (int32_t py = t.y0 - 2; py < t.y1 + 2; py++)
            for (int32_t px = t.x0 - 2; px < t.x1 + 2; px++)
                if (raster_coverage(&t, px, py)) {
                    covered++;
                    if (px < t.hx0 || px >= t.hx1 || py < t.hy0 || py >= t.hy1)
                        fail_msg("pixel (%d, %d) covered outside the hull box [%d, %d) x "
                                 "[%d, %d), %u samples", px, py, t.hx0, t.hx1, t.hy0, t.hy1,
                                 t.samples);
                }
    }
    assert_true(cases > 2500 && covered > 100000 && single > 500 && narrower > single / 3);
    /* a cell of the mesh scene: x from 8 to 12 pixels, y from 10.24 to 15.36 */
    const float x[3] = {8.0f, 12.0f, 8.0f}, y[3] = {10.24f, 10.24f, 15.36f};
    raster_rules r = rules(false, 1, 64, 64);
    raster_tri t;
    assert_true(raster_setup(&t, &r, x, y));
    static const int32_t hull[4] = {8, 10, 12, 15}, loose[4] = {7, 10, 13, 16};
    assert_box(t.hx0, t.hy0, t.hx1, t.hy1, hull);
    assert_box(t.x0, t.y0, t.x1, t.y1, loose);
}

/* Both boxes are floor divisions of the snapped bounds by RASTER_ONE (pipe_raster.c computes
 * them with a shift): random triangles on both sides of 0 (negative bounds are where a
 * shift and a truncating division part), sizes from a pixel to a million, vertices on and
 * off the sub-pixel grid, 1 to 16 samples, the clip rectangle out of the way. The
 * reference is floor() of the exact quotient (below 2^53: a double holds it). */
static int32_t floor_one(int64_t a)
{
    return (int32_t)floor((double)a / RASTER_ONE);
}

static void test_boxes_are_floor_divisions(void **state)
{
    (void)state;
    uint32_t seed = 0x13579bdfu;
    static const unsigned samples[5] = {1, 2, 4, 8, 16};
    unsigned cases = 0, negative = 0, odd = 0;
    for (unsigned round = 0; round < 20000; round++) {
        float x[3], y[3];
        const float size = (float)(1u << (round % 21));
        random_triangle(&seed, size, size / 2, x, y);
        if (round % 4 == 0)   /* on the sub-pixel grid */
            for (int k = 0; k < 3; k++) {
                x[k] = floorf(x[k] * RASTER_ONE) / RASTER_ONE + 0.5f;
                y[k] = floorf(y[k] * RASTER_ONE) / RASTER_ONE + 0.5f;
            }
        raster_rules r = rules(round & 1, samples[round % 5], 0, 0);
        r.clip[0] = r.clip[1] = INT32_MIN / 2;
        r.clip[2] = r.clip[3] = INT32_MAX / 2;
        raster_tri t;
        if (!raster_setup(&t, &r, x, y))
            continue;
        cases++;
        int64_t minx = INT64_MAX, maxx = INT64_MIN, miny = INT64_MAX, maxy = INT64_MIN;
        for (int k = 0; k < 3; k++) {
            const int64_t X = raster_snap(x[k]), Y = raster_snap(y[k]);
            minx = X < minx ? X : minx;
            maxx = X > maxx ? X : maxx;
            miny = Y < miny ? Y : miny;
            maxy = Y > maxy ? Y : maxy;
        }
        negative += minx < 0 && miny < 0;
        odd += (minx % RASTER_ONE) != 0;
        const int64_t half = RASTER_ONE / 2;
        const int32_t want[8] = {
            floor_one(minx - half + RASTER_ONE - 1), floor_one(miny - half + RASTER_ONE - 1),
            floor_one(maxx + half) + 1, floor_one(maxy + half) + 1,
            floor_one(minx - t.sx_max + RASTER_ONE - 1), floor_one(miny - t.sy_max + RASTER_ONE - 1),
            floor_one(maxx - t.sx_min) + 1, floor_one(maxy - t.sy_min) + 1};
        const int32_t got[8] = {t.x0, t.y0, t.x1, t.y1, t.hx0, t.hy0, t.hx1, t.hy1};
        for (int k = 0; k < 8; k++)
            if (got[k] != want[k])
                fail_msg("round %u: bound %d is %d, floor division gives %d", round, k, got[k],
                         want[k]);
    }
    assert_true(cases > 15000 && negative > 5000 && odd > 5000);
}

/* A box from random bits S near T's: its top-left corner up to REACH pixels from T's box's,
 * each side MIN to MIN + SPAN - 1 pixels. */
static void box_near(uint32_t s, const raster_tri *t, int32_t reach, int32_t min,
                     int32_t span, int32_t box[4])
{
    box[0] = t->x0 - reach + (int32_t)(s % (uint32_t)(2 * reach + 1));
    box[1] = t->y0 - reach + (int32_t)((s >> 4) % (uint32_t)(2 * reach + 1));
    box[2] = box[0] + min + (int32_t)((s >> 8) % (uint32_t)span);
    box[3] = box[1] + min + (int32_t)((s >> 12) % (uint32_t)span);
}

/* raster_box_quads (the engine's small primitives: a box of at most 4x4 quads at once)
 * against raster_coverage pixel by pixel: random triangles from a pixel to 64 pixels
 * wide (half of them on the half-pixel grid, so that edges pass through pixel centres),
 * boxes of every size up to 8x8 pixels at odd and even corners around and beside them,
 * both tie rules. The quads it returns must be those of the box with a covered
 * pixel, in row order, each lane's coverage raster_coverage's inside the box and 0
 * outside, the covered mask their bits; it may decline (-1) only for the reasons it
 * names, and must serve the small triangles it is for. Without AVX-512 it declines every
 * box (its kernel is the one). */
static void test_box_quads(void **state)
{
    (void)state;
    const bool wide = tv_cpu_avx512f();
    uint32_t seed = 0x9e3779b9u;
    unsigned served = 0, declined = 0, quads = 0, lanes = 0;
    for (unsigned round = 0; round < 3000; round++) {
        float x[3], y[3];
        random_triangle(&seed, (float)(1u << (round % 7)), 0, x, y);
        for (int i = 0; i < 3; i++) {
            x[i] += 100.0f;
            y[i] += 100.0f;
            if (round & 2) {   /* on the half-pixel grid: edges through pixel centres (ties) */
                x[i] = (float)(int)(x[i] * 2.0f) * 0.5f;
                y[i] = (float)(int)(y[i] * 2.0f) * 0.5f;
            }
        }
        raster_rules r = rules(round & 1, 1, 4096, 4096);
        raster_tri t;
        if (!raster_setup(&t, &r, x, y))
            continue;
        for (unsigned b = 0; b < 8; b++) {
            seed = seed * 1664525u + 1013904223u;
            int32_t box[4];
            box_near(seed, &t, 2, 1, 8, box);
            int32_t qx[80], qy[80];
            uint32_t cov[80];
            uint64_t covered = ~0ull;
            int n = raster_box_quads(&t, box, wide, qx, qy, cov, &covered);
            const int32_t qw = (box[2] + 1) / 2 - box[0] / 2, qh = (box[3] + 1) / 2 - box[1] / 2;
            if (n < 0) {
                /* only a box past 4x4 quads, or edge values past 32 bits (large triangles) */
                assert_true(!wide || qw > 4 || qh > 4 || t.x1 - t.x0 > 64 || t.y1 - t.y0 > 64);
                declined++;
                continue;
            }
            assert_true(wide);
            served++;
            int k = 0;
            uint64_t want_covered = 0;
            for (int32_t ry = 0; ry < qh; ry++)
                for (int32_t rx = 0; rx < qw; rx++) {
                    const int32_t px = 2 * (box[0] / 2 + rx), py = 2 * (box[1] / 2 + ry);
                    uint32_t want[4], any = 0;
                    for (unsigned j = 0; j < 4; j++) {
                        int32_t lx = px + (int32_t)(j & 1), ly = py + (int32_t)(j >> 1);
                        bool in = lx >= box[0] && lx < box[2] && ly >= box[1] && ly < box[3];
                        want[j] = in ? raster_coverage(&t, lx, ly) : 0;
                        any |= want[j];
                    }
                    if (!any)
                        continue;
                    assert_true(k < n);
                    for (unsigned j = 0; j < 4; j++) {
                        assert_int_equal(qx[4 * k + (int)j], px + (int32_t)(j & 1));
                        assert_int_equal(qy[4 * k + (int)j], py + (int32_t)(j >> 1));
                        assert_int_equal(cov[4 * k + (int)j], want[j]);
                        want_covered |= (uint64_t)(want[j] != 0) << (4 * k + (int)j);
                        lanes += want[j] != 0;
                    }
                    k++;
                }
            assert_int_equal(n, k);
            assert_true(covered == want_covered);
            quads += (unsigned)n;
        }
    }
    if (wide)
        assert_true(served > 10000 && quads > 10000 && lanes > 20000);
    else
        assert_int_equal(served, 0);
    assert_true(declined > 100);
}

/* raster_box_setup_avx2 against raster_box_setup: the same verdict and, where the box is
 * served, the same fields, for random triangles from a pixel to 32768 pixels wide (the
 * large ones' edge values leave 32 bits) anywhere within the coordinate limit, both tie
 * rules, one and four samples, and boxes around them, beside them, empty, left of or
 * above the target, wider than four quads, and past 2^22 (the scalar function's). Counts
 * the boxes served, declined and past 2^22, each with a floor. */
static void test_box_setup_avx2(void **state)
{
    (void)state;
    if (!tv_cpu_avx2())
        skip();
    uint32_t seed = 0x2545f491u;
    unsigned served = 0, too_far = 0, declined = 0;
    for (unsigned round = 0; round < 20000; round++) {
        float x[3], y[3];
        random_triangle(&seed, (float)(1u << (round % 16)), 0, x, y);
        seed = seed * 1664525u + 1013904223u;
        const float ox = (float)(seed >> 17) - 16384.0f, oy = (float)(seed & 0x7fffu) - 16384.0f;
        for (int i = 0; i < 3; i++) {
            x[i] += ox;
            y[i] += oy;
        }
        raster_rules r = rules(round & 1, (round % 5) ? 1 : 4, 32768, 32768);
        raster_tri t;
        if (!raster_setup(&t, &r, x, y))
            continue;
        for (unsigned b = 0; b < 8; b++) {
            seed = seed * 1664525u + 1013904223u;
            int32_t box[4];
            box_near(seed, &t, 3, 0, 10, box);
            if (b == 7) {   /* far away, past 2^22 in one coordinate or both */
                const int32_t fx = (int32_t)((seed >> 20) & 1u) << 22;
                const int32_t fy = (int32_t)((seed >> 21) & 1u) << 22;
                box[0] += fx;
                box[2] += fx;
                box[1] += fy;
                box[3] += fy;
            }
            raster_box want, got;
            memset(&want, 0x5a, sizeof want);
            memset(&got, 0x5a, sizeof got);
            const bool w = raster_box_setup(&t, box, &want);
            const bool g = raster_box_setup_avx2(&t, box, &got);
            assert_int_equal(g, w);
            too_far += box[2] >= (1 << 22) || box[3] >= (1 << 22);
            if (!w) {
                declined++;
                continue;
            }
            assert_memory_equal(&got, &want, sizeof want);
            served++;
        }
    }
    assert_true(served > 5000 && declined > 20000 && too_far > 1000);
}

/* A random coordinate for test_setup_snaps_as_raster_snap: mostly within the limit, with
 * values that snap to a tie (a multiple of 1/512 of a pixel past the centre), the limit
 * itself and just past it, zeros of both signs, infinities and NaN. */
static float snap_coordinate(uint32_t *r)
{
    /* (two steps of the generator, their high bits: its low bits have short periods) */
    *r = *r * 1664525u + 1013904223u;
    const uint32_t v = *r;
    *r = *r * 1664525u + 1013904223u;
    const uint32_t u = *r;
    const float mag = (float)(u >> 18) + (float)(u >> 9 & 0x1ffu) / 512.0f;
    switch (v >> 28) {
    case 0: return (u >> 31) ? RASTER_MAX_COORD : -RASTER_MAX_COORD;
    case 1: return (u >> 31) ? nextafterf(RASTER_MAX_COORD, INFINITY)
                             : -nextafterf(RASTER_MAX_COORD, INFINITY);
    case 2: return (u >> 31) ? 0.0f : -0.0f;
    case 3: return (u >> 31) ? INFINITY : NAN;
    case 4: return 0.5f + (float)(u >> 22) / 512.0f;   /* near the origin, ties */
    default: return (u & 0x100u) ? -mag : mag;
    }
}

/* raster_setup snaps every coordinate as raster_snap does (its x86 form snaps the six at
 * once), and refuses the same ones: the triangle set up from the coordinates equals the
 * one set up from the values raster_snap gives (X / 256 + 1/2 is exact, and snaps to X
 * again), field by field, for random triangles with ties, the limit, zeros, infinities
 * and NaN. */
static void test_setup_snaps_as_raster_snap(void **state)
{
    (void)state;
    uint32_t r = 12345u;
    unsigned set = 0, refused = 0;
    for (int round = 0; round < 200000; round++) {
        float x[3], y[3], xs[3], ys[3];
        bool ok = true;
        for (int i = 0; i < 3; i++) {
            x[i] = snap_coordinate(&r);
            y[i] = snap_coordinate(&r);
            ok = ok && fabsf(x[i]) <= RASTER_MAX_COORD && fabsf(y[i]) <= RASTER_MAX_COORD;
            xs[i] = ok ? (float)raster_snap(x[i]) / (float)RASTER_ONE + 0.5f : 0.0f;
            ys[i] = ok ? (float)raster_snap(y[i]) / (float)RASTER_ONE + 0.5f : 0.0f;
        }
        const raster_rules ru = rules(round & 1, 1, 1 << 20, 1 << 20);
        raster_tri a, b;
        memset(&a, 0, sizeof a);
        memset(&b, 0, sizeof b);
        const bool got = raster_setup(&a, &ru, x, y);
        if (!ok) {
            assert_false(got);
            refused++;
            continue;
        }
        for (int i = 0; i < 3; i++) {
            assert_int_equal(raster_snap(xs[i]), raster_snap(x[i]));
            assert_int_equal(raster_snap(ys[i]), raster_snap(y[i]));
        }
        const bool want = raster_setup(&b, &ru, xs, ys);
        assert_int_equal(got, want);
        if (got) {
            assert_memory_equal(&a, &b, sizeof a);
            set++;
        }
    }
    assert_true(set > 50000 && refused > 50000);
}

/* raster_setup_avx2 against raster_setup: the same result and the same triangle, byte for
 * byte (both start from the same bytes), for random vertices with ties, the coordinate
 * limit, zeros, infinities and NaN (snap_coordinate), triangles from a pixel to 32768
 * pixels wide (ties on the half-pixel grid: edges through pixel centres, horizontal and
 * vertical edges), both tie rules, both windings, 0 to 16 samples (and 3, which has no
 * positions: refused after the edges are set up) and random clip
 * rectangles. Counts the triangles set up, refused and of each winding, each with a
 * floor. */
static void test_setup_avx2(void **state)
{
    (void)state;
    if (!tv_cpu_avx2())
        skip();
    static const unsigned samples[7] = {0, 1, 2, 3, 4, 8, 16};   /* (3: no positions) */
    uint32_t seed = 0x6b43a9b5u;
    unsigned set = 0, refused = 0, ccw = 0;
    for (unsigned round = 0; round < 100000; round++) {
        float x[3], y[3];
        if (round % 3 == 0) {
            for (int i = 0; i < 3; i++) {
                x[i] = snap_coordinate(&seed);
                y[i] = snap_coordinate(&seed);
            }
        } else {
            random_triangle(&seed, (float)(1u << (round % 16)), 0, x, y);
            for (int i = 0; i < 3; i++)
                if (round & 4) {   /* the half-pixel grid */
                    x[i] = (float)(int)(x[i] * 2.0f) * 0.5f;
                    y[i] = (float)(int)(y[i] * 2.0f) * 0.5f;
                }
        }
        seed = seed * 1664525u + 1013904223u;
        raster_rules ru = rules(round & 1, samples[(round / 2) % 7], 1 << 16, 1 << 16);
        if (round & 8) {   /* a clip rectangle that cuts some triangles off, some whole */
            ru.clip[0] = (int32_t)(seed % 64) - 8;
            ru.clip[1] = (int32_t)((seed >> 6) % 64) - 8;
            ru.clip[2] = ru.clip[0] + (int32_t)((seed >> 12) % 128);
            ru.clip[3] = ru.clip[1] + (int32_t)((seed >> 19) % 128);
        }
        raster_tri want, got;
        memset(&want, 0xa5, sizeof want);
        memset(&got, 0xa5, sizeof got);
        const bool w = raster_setup(&want, &ru, x, y);
        const bool g = raster_setup_avx2(&got, &ru, x, y);
        assert_int_equal(g, w);
        assert_memory_equal(&got, &want, sizeof want);
        set += w;
        refused += !w;
        ccw += w && want.ccw;
    }
    assert_true(set > 20000 && refused > 20000 && ccw > 5000 && set - ccw > 5000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_top_left_ties),
        cmocka_unit_test(test_bottom_right_ties),
        cmocka_unit_test(test_snapping_and_facing),
        cmocka_unit_test(test_clip_rectangle),
        cmocka_unit_test(test_msaa_samples),
        cmocka_unit_test(test_mesh_covers_once),
        cmocka_unit_test(test_fan_covers_once),
        cmocka_unit_test(test_coverage_lanes),
        cmocka_unit_test(test_row_span),
        cmocka_unit_test(test_hull_box),
        cmocka_unit_test(test_boxes_are_floor_divisions),
        cmocka_unit_test(test_box_quads),
        cmocka_unit_test(test_box_setup_avx2),
        cmocka_unit_test(test_setup_snaps_as_raster_snap),
        cmocka_unit_test(test_setup_avx2),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
