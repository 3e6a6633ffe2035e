/* The tessellator (include/texvm/tess.h): hand-worked cases from the reference's rules and
 * invariants over many levels (the triangles tile the domain with one winding; indices stay
 * in range). tests/mesa/test_tess_llvmpipe.c compares whole patches with llvmpipe. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>

#include "texvm/tess.h"
#include "common_rng.h"

static void expect_point(const tv_tess_result *r, uint32_t i, float u, float v)
{
    assert_true(i < r->num_points);
    assert_true(r->points[i].u == u);
    assert_true(r->points[i].v == v);
}

/* isolines, equal spacing, 2 lines of detail 4: v = 0 and 1/2 (no line at v = 1), five
 * points a line at u = k/4, segments between neighbours */
static void test_isolines_equal(void **state)
{
    (void)state;
    float outer[4] = {2, 4, 0, 0}, inner[2] = {0, 0};
    tv_tess_result r;
    assert_true(tv_tess_patch(TV_TESS_ISOLINES, TV_TESS_EQUAL, false, false, outer, inner, &r));
    assert_int_equal(r.num_points, 10);
    assert_int_equal(r.verts_per_prim, 2);
    for (uint32_t l = 0; l < 2; l++)
        for (uint32_t k = 0; k < 5; k++)
            expect_point(&r, l * 5 + k, (float)k / 4.0f, (float)l / 2.0f);
    assert_int_equal(r.num_indices, 16);
    assert_int_equal(r.indices[0], 0);
    assert_int_equal(r.indices[1], 1);
    assert_int_equal(r.indices[8], 5);
    assert_int_equal(r.indices[9], 6);
    tv_tess_result_free(&r);
}

/* fractional-even detail 3: half the level is 1.5, between the floor level 2 (a point at
 * 1/2) and the ceiling level 4 (points at 1/4, 1/2); point 1 lerps 1/2 and 1/4 by the
 * fraction 1/2: 3/8; mirrored on the other half */
static void test_fractional_even_placement(void **state)
{
    (void)state;
    float outer[4] = {1, 3, 0, 0}, inner[2] = {0, 0};
    tv_tess_result r;
    assert_true(tv_tess_patch(TV_TESS_ISOLINES, TV_TESS_FRACTIONAL_EVEN, false, true, outer,
                              inner, &r));
    assert_int_equal(r.num_points, 5);
    assert_int_equal(r.verts_per_prim, 1);
    const float u[5] = {0.0f, 0.375f, 0.5f, 0.625f, 1.0f};
    for (uint32_t k = 0; k < 5; k++)
        expect_point(&r, k, u[k], 0.0f);
    tv_tess_result_free(&r);
}

/* every level 1: the corners (0,1), (0,0), (1,0), one triangle: counter-clockwise in
 * (u, v) as GL's ccw asks (0, 1, 2), reversed for cw */
static void test_minimum_triangle(void **state)
{
    (void)state;
    float outer[4] = {1, 1, 1, 0}, inner[2] = {1, 0};
    tv_tess_result r;
    assert_true(tv_tess_patch(TV_TESS_TRIANGLES, TV_TESS_EQUAL, false, false, outer, inner, &r));
    assert_int_equal(r.num_points, 3);
    expect_point(&r, 0, 0, 1);
    expect_point(&r, 1, 0, 0);
    expect_point(&r, 2, 1, 0);
    assert_int_equal(r.num_indices, 3);
    assert_int_equal(r.indices[0], 0);
    assert_int_equal(r.indices[1], 1);
    assert_int_equal(r.indices[2], 2);
    tv_tess_result_free(&r);
    assert_true(tv_tess_patch(TV_TESS_TRIANGLES, TV_TESS_EQUAL, true, false, outer, inner, &r));
    assert_int_equal(r.indices[1], 2);
    assert_int_equal(r.indices[2], 1);
    tv_tess_result_free(&r);
}

/* quads at level 2 everywhere: 8 ring points and the centre, 8 triangles */
static void test_quad_level_two(void **state)
{
    (void)state;
    float outer[4] = {2, 2, 2, 2}, inner[2] = {2, 2};
    tv_tess_result r;
    assert_true(tv_tess_patch(TV_TESS_QUADS, TV_TESS_EQUAL, false, false, outer, inner, &r));
    assert_int_equal(r.num_points, 9);
    assert_int_equal(r.num_indices, 24);
    expect_point(&r, 8, 0.5f, 0.5f);
    tv_tess_result_free(&r);
}

/* an outer level <= 0 or NaN culls the patch; inner levels never do */
static void test_culled(void **state)
{
    (void)state;
    const float bad[3] = {0.0f, -1.0f, NAN};
    for (int k = 0; k < 3; k++) {
        float outer[4] = {4, bad[k], 4, 4}, inner[2] = {4, 4};
        tv_tess_result r;
        for (int d = 0; d < 3; d++) {
            assert_true(tv_tess_patch((tv_tess_domain)d, TV_TESS_EQUAL, false, false, outer,
                                      inner, &r));
            assert_int_equal(r.num_points, 0);
            assert_int_equal(r.num_indices, 0);
        }
    }
    float outer[4] = {4, 4, 4, 4}, inner[2] = {NAN, -3};
    tv_tess_result r;
    assert_true(tv_tess_patch(TV_TESS_QUADS, TV_TESS_EQUAL, false, false, outer, inner, &r));
    assert_true(r.num_indices > 0);
    tv_tess_result_free(&r);
}

static uint32_t rng = 99;
static uint32_t next(void)
{
    return tc_rng_next(&rng);
}

/* The triangles cover the domain exactly once: signed areas (in double) all of one sign
 * summing to the domain's area (1/2 for triangles, 1 for quads), for every spacing, both
 * orders and random levels up to past the maximum. */
static void test_triangles_tile_the_domain(void **state)
{
    (void)state;
    for (int iter = 0; iter < 600; iter++) {
        tv_tess_domain d = (iter & 1) ? TV_TESS_QUADS : TV_TESS_TRIANGLES;
        tv_tess_spacing s = (tv_tess_spacing)(iter / 2 % 3);
        bool cw = (iter / 6) & 1;
        float outer[4], inner[2];
        for (int k = 0; k < 4; k++)
            outer[k] = 0.5f + (float)(next() % 4400) / 64.0f;
        for (int k = 0; k < 2; k++)
            inner[k] = 0.5f + (float)(next() % 4400) / 64.0f;
        tv_tess_result r;
        assert_true(tv_tess_patch(d, s, cw, false, outer, inner, &r));
        assert_int_equal(r.num_indices % 3, 0);
        double sum = 0;
        for (uint32_t t = 0; t < r.num_indices; t += 3) {
            const tv_tess_point *a = &r.points[r.indices[t]], *b = &r.points[r.indices[t + 1]],
                                *c = &r.points[r.indices[t + 2]];
            assert_true(r.indices[t] < r.num_points && r.indices[t + 1] < r.num_points &&
                        r.indices[t + 2] < r.num_points);
            double area = ((double)b->u - a->u) * ((double)c->v - a->v) -
                          ((double)c->u - a->u) * ((double)b->v - a->v);
            /* GL counter-clockwise is positive in (u, v) */
            assert_true(cw ? area <= 0 : area >= 0);
            sum += fabs(area) / 2;
        }
        assert_true(fabs(sum - (d == TV_TESS_QUADS ? 1.0 : 0.5)) < 1e-6);
        tv_tess_result_free(&r);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_isolines_equal),
        cmocka_unit_test(test_fractional_even_placement),
        cmocka_unit_test(test_minimum_triangle),
        cmocka_unit_test(test_quad_level_two),
        cmocka_unit_test(test_culled),
        cmocka_unit_test(test_triangles_tile_the_domain),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
