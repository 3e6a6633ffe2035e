/* Clipping (src/pipe/pipe_clip.c) by hand: a triangle across each of the 6 view-volume
 * planes (GL and half-z depth) and each of the 8 clip distances, with the new vertices and
 * their interpolated attributes; guard band; depth clip off; a vertex behind the eye;
 * lines; cull distances; NaN; the viewport transform; the direct path's three-vertex
 * form of the clip test and the viewport transform. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "pipe/pipe_clip.h"

#include <math.h>
#include <string.h>
#include "common_rng.h"

#define STRIDE (4 + CLIP_MAX_DISTANCES + 1)   /* position, distances, one attribute */
#define ATTR (4 + CLIP_MAX_DISTANCES)

static clip_state gl_state(void)
{
    clip_state s = {1.0f, 1.0f, false, true, true, 0xff};
    return s;
}

static void vtx(float *v, float x, float y, float z, float w, float attr)
{
    memset(v, 0, STRIDE * sizeof *v);
    v[0] = x;
    v[1] = y;
    v[2] = z;
    v[3] = w;
    for (unsigned i = 0; i < CLIP_MAX_DISTANCES; i++)
        v[CLIP_DIST + i] = 1.0f;
    v[ATTR] = attr;
}

static void test_inside_outside(void **state)
{
    (void)state;
    clip_state s = gl_state();
    float t[3 * STRIDE], out[CLIP_MAX_VERTICES * STRIDE], scratch[CLIP_MAX_VERTICES * STRIDE];
    vtx(t, 0, 0, 0, 1, 0);
    vtx(t + STRIDE, 0.5f, 0, 0, 1, 1);
    vtx(t + 2 * STRIDE, 0, 0.5f, 0, 1, 2);
    assert_int_equal(clip_planes_needed(&s, t, 3, STRIDE), 0);
    assert_int_equal(clip_polygon(&s, 0, t, 3, STRIDE, out, scratch), 3);
    assert_memory_equal(out, t, sizeof t);
    /* all three right of x = w: dropped */
    vtx(t, 2, 0, 0, 1, 0);
    vtx(t + STRIDE, 3, 0, 0, 1, 1);
    vtx(t + 2 * STRIDE, 2, 0.5f, 0, 1, 2);
    assert_int_equal(clip_planes_needed(&s, t, 3, STRIDE), -1);
}

static void test_right_plane_by_hand(void **state)
{
    (void)state;
    clip_state s = gl_state();
    float t[3 * STRIDE], out[CLIP_MAX_VERTICES * STRIDE], scratch[CLIP_MAX_VERTICES * STRIDE];
    vtx(t, 0, 0, 0, 1, 0);          /* A, inside */
    vtx(t + STRIDE, 2, 0, 0, 1, 10);  /* B, 1 beyond x = w */
    vtx(t + 2 * STRIDE, 0, 1, 0, 1, 20);  /* C, on the top plane: inside */
    assert_int_equal(clip_planes_needed(&s, t, 3, STRIDE), CLIP_RIGHT);
    unsigned n = clip_polygon(&s, CLIP_RIGHT, t, 3, STRIDE, out, scratch);
    assert_int_equal(n, 4);
    /* A, then A-B at t = 1/2 (1, 0), then C-B from C at t = 1/2 (1, 0.5), then C */
    const float want[4][3] = {{0, 0, 0}, {1, 0, 5}, {1, 0.5f, 15}, {0, 1, 20}};
    for (unsigned i = 0; i < 4; i++) {
        assert_true(out[i * STRIDE] == want[i][0]);
        assert_true(out[i * STRIDE + 1] == want[i][1]);
        assert_true(out[i * STRIDE + ATTR] == want[i][2]);
    }
}

/* Vertex 0 one unit outside plane P, the others one unit inside: the two new vertices lie
 * halfway, on the plane. */
static void check_plane(const clip_state *s, unsigned p)
{
    float t[3 * STRIDE], out[CLIP_MAX_VERTICES * STRIDE], scratch[CLIP_MAX_VERTICES * STRIDE];
    unsigned axis = p < 6 ? p / 2 : 3, other = axis == 0 ? 1 : 0;
    bool halfz_near = axis == 2 && s->halfz && p == 4;
    /* on the plane's axis, the inside vertices sit one unit inside (0, or z = 1 for the
       half-z near plane z >= 0); they differ along another axis */
    float in = halfz_near ? 1.0f : 0.0f;
    vtx(t, 0, 0, 0, 1, 0);
    vtx(t + STRIDE, 0, 0, 0, 1, 4);
    vtx(t + 2 * STRIDE, 0, 0, 0, 1, 8);
    t[2 * STRIDE + other] = 0.25f;
    if (p < 6) {
        t[axis] = halfz_near ? -1.0f : (p % 2 ? 2.0f : -2.0f);   /* distance -1 */
        t[STRIDE + axis] = t[2 * STRIDE + axis] = in;
    } else {
        t[CLIP_DIST + p - 6] = -1.0f;
    }
    assert_int_equal(clip_planes_needed(s, t, 3, STRIDE), 1 << p);
    unsigned n = clip_polygon(s, 1u << p, t, 3, STRIDE, out, scratch);
    if (n != 4)
        fail_msg("plane %u: %u vertices", p, n);
    for (unsigned i = 0; i < n; i++) {
        float d = clip_distance(s, p, out + i * STRIDE);
        if (fabsf(d) > 1e-6f && d < 0)
            fail_msg("plane %u: vertex %u at distance %g", p, i, (double)d);
    }
    /* the new vertices: the edge 0-1 (first, as vertex 0 is outside) and the edge 2-0
       (last), on the plane, attributes halfway (0..4 -> 2, 8..0 -> 4) */
    assert_true(fabsf(clip_distance(s, p, out)) < 1e-6f);
    assert_true(fabsf(clip_distance(s, p, out + 3 * STRIDE)) < 1e-6f);
    float a1 = out[ATTR], a2 = out[3 * STRIDE + ATTR];
    if (!(fabsf(a1 - 2.0f) < 1e-6f && fabsf(a2 - 4.0f) < 1e-6f))
        fail_msg("plane %u: attributes %g %g", p, (double)a1, (double)a2);
}

static void test_every_plane(void **state)
{
    (void)state;
    clip_state s = gl_state();
    for (unsigned p = 0; p < 6 + CLIP_MAX_DISTANCES; p++)
        check_plane(&s, p);
    s.halfz = true;
    check_plane(&s, 4);
    check_plane(&s, 5);
}

static void test_guard_band_depth_clip_and_behind_eye(void **state)
{
    (void)state;
    clip_state s = gl_state();
    float t[3 * STRIDE], out[CLIP_MAX_VERTICES * STRIDE], scratch[CLIP_MAX_VERTICES * STRIDE];
    vtx(t, 0, 0, 0, 1, 0);
    vtx(t + STRIDE, 1.5f, 0, 0, 1, 0);
    vtx(t + 2 * STRIDE, 0, 1, 0, 1, 0);
    assert_int_equal(clip_planes_needed(&s, t, 3, STRIDE), CLIP_RIGHT);
    s.guard_x = 2.0f;   /* inside the guard band: the rasteriser's scissor does the rest */
    assert_int_equal(clip_planes_needed(&s, t, 3, STRIDE), 0);
    /* depth clip off: z beyond w is not clipped */
    s = gl_state();
    t[STRIDE] = 0.5f;
    t[2] = 5.0f;
    assert_int_equal(clip_planes_needed(&s, t, 3, STRIDE), CLIP_FAR);
    s.depth_clip_far = false;
    assert_int_equal(clip_planes_needed(&s, t, 3, STRIDE), 0);
    /* a vertex behind the eye (w < 0): near plane z + w >= 0 cuts it away, w stays > 0 */
    s = gl_state();
    vtx(t, 0, 0, -3, -1, 0);
    vtx(t + STRIDE, 0, 0, 0, 1, 0);
    vtx(t + 2 * STRIDE, 0.5f, 0, 0, 1, 0);
    int m = clip_planes_needed(&s, t, 3, STRIDE);
    assert_true(m > 0 && (m & CLIP_NEAR));
    unsigned n = clip_polygon(&s, (unsigned)m, t, 3, STRIDE, out, scratch);
    assert_true(n >= 3);
    for (unsigned i = 0; i < n; i++)
        assert_true(out[i * STRIDE + 3] > 0.0f);
    /* NaN positions are outside */
    vtx(t, NAN, 0, 0, 1, 0);
    assert_true(clip_outcode(&s, t) != 0);
}

static void test_lines_cull_viewport(void **state)
{
    (void)state;
    clip_state s = gl_state();
    float l[2 * STRIDE], out[2 * STRIDE];
    vtx(l, -2, 0, 0, 1, 0);
    vtx(l + STRIDE, 2, 0, 0, 1, 8);
    assert_int_equal(clip_line(&s, CLIP_LEFT | CLIP_RIGHT, l, STRIDE, out), 2);
    assert_true(out[0] == -1 && out[ATTR] == 2 && out[STRIDE] == 1 && out[STRIDE + ATTR] == 6);
    vtx(l, 2, 0, 0, 1, 0);
    vtx(l + STRIDE, 3, 0, 0, 1, 0);
    assert_int_equal(clip_line(&s, CLIP_RIGHT, l, STRIDE, out), 0);
    /* cull distance 1 (after the clip distances) negative at every vertex: dropped */
    float t[3 * STRIDE];
    vtx(t, 0, 0, 0, 1, 0);
    vtx(t + STRIDE, 0, 0, 0, 1, 0);
    vtx(t + 2 * STRIDE, 0, 0, 0, 1, 0);
    t[CLIP_DIST + 1] = t[STRIDE + CLIP_DIST + 1] = t[2 * STRIDE + CLIP_DIST + 1] = -0.5f;
    assert_true(clip_culled(t, 3, STRIDE, 1, 1));
    t[STRIDE + CLIP_DIST + 1] = 0.0f;
    assert_false(clip_culled(t, 3, STRIDE, 1, 1));
    /* viewport of a 640x480 target: x = (x/w) 320 + 320, y = (y/w) 240 + 240, z = z/2 + 1/2 */
    clip_viewport vp = {{320, 240, 0.5f}, {320, 240, 0.5f}};
    const float pos[4] = {1, -1, 0.5f, 2};
    float win[4];
    clip_to_window(&vp, pos, win);
    assert_true(win[0] == 480 && win[1] == 120 && win[2] == 0.625f && win[3] == 0.5f);
}

/* clip_outcode against its definition: bit p set when plane p clips under the state
 * (left to top always, near and far by depth clip, distance i by bit i of `distances`)
 * and !(clip_distance(s, p, v) >= 0) — for random states and vertices with NaNs,
 * infinities, zeros of both signs and values on the planes. */
static void test_outcode_is_distance_signs(void **state)
{
    (void)state;
    static const float special[] = {NAN, INFINITY, -INFINITY, 0.0f, -0.0f, 1.0f, -1.0f, 2.0f};
    uint32_t r = 0x2545f491u;
    for (int round = 0; round < 20000; round++) {
        float v[STRIDE];
        for (unsigned k = 0; k < 4 + CLIP_MAX_DISTANCES; k++) {
            tc_rng_next(&r);
            v[k] = r % 5 == 0 ? special[(r >> 8) % 8] : (float)((int32_t)(r >> 8) % 2000) / 500.0f;
        }
        v[STRIDE - 1] = 0.0f;
        if (round % 3 == 0)
            v[0] = v[3];                     /* on the right plane */
        tc_rng_next(&r);
        clip_state s = {r % 2 ? 1.0f : 8.0f, r % 4 < 2 ? 1.0f : 4.0f, (r >> 2) % 2 != 0,
                        (r >> 3) % 2 != 0, (r >> 4) % 2 != 0, (uint8_t)(r >> 8)};
        unsigned want = 0;
        unsigned active = 0xfu | (s.depth_clip_near ? CLIP_NEAR : 0u) |
                          (s.depth_clip_far ? CLIP_FAR : 0u) | (unsigned)s.distances << 6;
        for (unsigned p = 0; p < 6 + CLIP_MAX_DISTANCES; p++)
            if ((active >> p) & 1u && !(clip_distance(&s, p, v) >= 0.0f))
                want |= 1u << p;
        assert_int_equal(clip_outcode(&s, v), want);
    }
}

/* The random triangles of the two tests below: xorshift32 state R; three clip positions
 * with NaNs, infinities, zeros of both signs, subnormal and huge values among them, every
 * other round (ROUND even) with w > 0; and a random viewport. */
static void random_positions(uint32_t *r, int round, float pos[12])
{
    static const float special[] = {NAN, INFINITY, -INFINITY, 0.0f, -0.0f, 1.0f, -1.0f,
                                    1e-40f, -3e38f, 0.1f};
    for (unsigned k = 0; k < 12; k++) {
        const uint32_t v = tc_rng_next(r);
        pos[k] = v % 11 == 0 ? special[(v >> 8) % 10] : (float)((int32_t)(v >> 8) % 4000) / 997.0f;
        if (k % 4 == 3 && round % 2 == 0)
            pos[k] = fabsf(pos[k]) + 0.25f;      /* in front of the eye, mostly */
    }
}

static void random_viewport(uint32_t *r, clip_viewport *vp)
{
    for (unsigned k = 0; k < 3; k++) {
        vp->scale[k] = (float)((int32_t)(tc_rng_next(r) >> 8) % 5000) / 7.0f;
        vp->translate[k] = (float)((int32_t)(tc_rng_next(r) >> 8) % 5000) / 3.0f;
    }
}

/* clip_triangle_window against the one-vertex functions it does three at a time:
 * clip_planes_needed of the three positions, and where that is 0 clip_to_window's
 * positions and 1 / (1 / w), bit for bit — for random states without distances, random
 * viewports and vertices with NaNs, infinities, zeros of both signs, subnormal and huge
 * values, vertices on the planes and behind the eye. */
static void test_triangle_window_is_per_vertex(void **state)
{
    (void)state;
    uint32_t r = 0x9e3779b9u;
    unsigned drawn = 0, dropped = 0, clipped = 0;
    for (int round = 0; round < 60000; round++) {
        float pos[12];
        random_positions(&r, round, pos);
        if (round % 5 == 0)
            pos[4] = pos[7];                         /* vertex 1 on the right plane */
        tc_rng_next(&r);
        clip_state s = {r % 2 ? 1.0f : 8.0f, r % 4 < 2 ? 1.0f : 4.0f, (r >> 2) % 2 != 0,
                        (r >> 3) % 2 != 0, (r >> 4) % 2 != 0, 0};
        clip_viewport vp;
        random_viewport(&r, &vp);
        float win[3][4], w[3];
        memset(win, 0, sizeof win);
        const int want = clip_planes_needed(&s, pos, 3, 4);
        const int got = clip_triangle_window(&s, &vp, pos, win, w);
        assert_int_equal(got, want);
        if (want != 0) {
            dropped += want < 0;
            clipped += want > 0;
            continue;
        }
        drawn++;
        for (unsigned k = 0; k < 3; k++) {
            float one[4];
            clip_to_window(&vp, pos + 4 * k, one);
            assert_memory_equal(win[k], one, sizeof one);
            const float back = 1.0f / one[3];
            assert_memory_equal(&w[k], &back, sizeof back);
        }
    }
    /* every outcome taken many times */
    assert_true(drawn > 5000 && dropped > 5000 && clipped > 5000);
}

/* clip_triangle_window_xy against clip_to_window vertex by vertex, bit for bit, and its
 * false exactly where a vertex has w <= 0 or NaN — on the positions of the test above
 * (NaNs, infinities, zeros of both signs, subnormals, huge values) and random viewports. */
static void test_triangle_window_xy_is_per_vertex(void **state)
{
    (void)state;
    uint32_t r = 0x2545f491u;
    unsigned made = 0, refused = 0;
    float pos[12];
    clip_viewport vp;
    for (int round = 0; round < 60000; round++) {
        random_positions(&r, round, pos);
        random_viewport(&r, &vp);
        const bool want = pos[3] > 0.0f && pos[7] > 0.0f && pos[11] > 0.0f;
        float x[3] = {-7.0f, -7.0f, -7.0f}, y[3] = {-7.0f, -7.0f, -7.0f};
        const bool got = clip_triangle_window_xy(&vp, pos, x, y);
        assert_int_equal(got, want);
        if (!want) {
            refused++;
            for (unsigned k = 0; k < 3; k++)   /* nothing written */
                assert_true(x[k] == -7.0f && y[k] == -7.0f);
            continue;
        }
        made++;
        for (unsigned k = 0; k < 3; k++) {
            float one[4];
            clip_to_window(&vp, pos + 4 * k, one);
            assert_memory_equal(&x[k], &one[0], sizeof x[k]);
            assert_memory_equal(&y[k], &one[1], sizeof y[k]);
        }
    }
    assert_true(made > 5000 && refused > 5000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_inside_outside),
        cmocka_unit_test(test_right_plane_by_hand),
        cmocka_unit_test(test_every_plane),
        cmocka_unit_test(test_guard_band_depth_clip_and_behind_eye),
        cmocka_unit_test(test_lines_cull_viewport),
        cmocka_unit_test(test_outcode_is_distance_signs),
        cmocka_unit_test(test_triangle_window_is_per_vertex),
        cmocka_unit_test(test_triangle_window_xy_is_per_vertex),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
