/* A draw's small triangles share fragment warps (tv_vm_frag_batch, draw_run_fragments):
 * thousands of triangles of a few pixels, overlapping, alpha-blended (so a pixel's
 * fragments must reach the merger in primitive order, each reading what the one before
 * wrote), with and without a depth test (early tests, made when the triangle is added),
 * a shader reading each triangle's facing, and triangles large enough to run by themselves
 * among them, on 1 and 2 workers (bands), must give the colour and depth bytes and the
 * occlusion count of the plain interpreter (one run per triangle, per-pixel merger, late
 * tests), and, without depth, the same count of shaded fragments — also with the back
 * faces drawn as antialiased outlines between them (shapes not batched). And under a work
 * quota, a long-looping small triangle before a large one passes as it does alone. The
 * batched runs once more without the pipeline's AVX-512 kernels, as a machine without
 * them draws. */
#include "helper_draw.h"
#include "pipe/pipe_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common_rng.h"

enum { TW = 160, TH = 120, NSMALL = 4000 };

typedef struct result {
    uint8_t *color, *depth;
    size_t color_bytes, depth_bytes;
    uint64_t passed, shaded;
} result;

static float unit(uint32_t *s)
{
    return (float)(tc_rng_next(s) & 0xffffff) / (float)0x1000000;
}

/* run()'s contexts without the pipeline's AVX-512 kernels (the small triangles' box
   coverage, the early depth test's lanes at once): the paths of a machine without them */
static bool narrow;

static result run(const char *fs, bool plain, bool depth, unsigned threads, bool smooth_back)
{
    tv_pipe_ctx *ctx = scene_sized(fs, true, TW, TH, 1, threads);
    assert_int_equal(tv_pipe_set_plain(ctx, plain), 0);
    ctx->no_wide_kernels = narrow;
    depth_less_alpha_blend(ctx, depth);
    if (smooth_back) {
        /* back faces as antialiased outlines among the filled front faces: shapes that
           are not batched, whose coverage scales their alpha, between batched ones */
        tv_pipe_rasterizer_state rs;
        tv_pipe_rasterizer_default(&rs);
        rs.fill_back = TV_PIPE_POLYGON_LINE;
        rs.line_smooth = true;
        rs.line_width = 1.5f;
        assert_int_equal(tv_pipe_set_rasterizer(ctx, &rs), 0);
    }
    /* small triangles in clusters (each pixel under several), both windings; every 50th
       large enough not to be packed */
    unsigned n = NSMALL * 3;
    vert *v = malloc(n * sizeof *v);
    assert_non_null(v);
    uint32_t seed = 0x1234567u;
    float cx = 0, cy = 0, size = 0;
    for (unsigned i = 0; i < n; i++) {
        if (i % 3 == 0) {
            cx = unit(&seed) * 2.2f - 1.1f;
            cy = unit(&seed) * 2.2f - 1.1f;
            size = i % 150 == 0 ? 0.5f : 24.0f / TW;
        }
        v[i] = (vert){{cx + (unit(&seed) - 0.5f) * size, cy + (unit(&seed) - 0.5f) * size,
                       unit(&seed) * 2 - 1, 1},
                      {unit(&seed), unit(&seed), unit(&seed), 0.25f + unit(&seed) * 0.5f}};
    }
    vertices(ctx, v, n);
    free(v);
    assert_int_equal(tv_pipe_query_create(ctx, 40, TV_PIPE_QUERY_OCCLUSION_COUNTER, 0), 0);
    assert_int_equal(tv_pipe_query_create(ctx, 41, TV_PIPE_QUERY_PIPELINE_STATISTICS,
                                          TV_PIPE_STAT_PS_INVOCATIONS), 0);
    assert_int_equal(tv_pipe_begin_query(ctx, 40), 0);
    assert_int_equal(tv_pipe_begin_query(ctx, 41), 0);
    assert_int_equal(draw(ctx, PRIM_TRIANGLES, n), 0);
    assert_int_equal(tv_pipe_end_query(ctx, 40), 0);
    assert_int_equal(tv_pipe_end_query(ctx, 41), 0);
    result r;
    assert_int_equal(tv_pipe_query_result(ctx, 40, &r.passed), 0);
    assert_int_equal(tv_pipe_query_result(ctx, 41, &r.shaded), 0);
    const snapshot pic = take_snapshot(ctx);
    r.color = pic.color;
    r.depth = pic.depth;
    r.color_bytes = pic.color_bytes;
    r.depth_bytes = pic.depth_bytes;
    tv_pipe_destroy(ctx);
    return r;
}

static void same_as_plain(const char *fs, bool depth, bool smooth_back)
{
    result ref = run(fs, true, depth, 1, smooth_back);
    assert_true(ref.passed > (uint64_t)TW * TH);   /* pixels under several triangles */
    for (unsigned t = 1; t <= 3; t++) {
        narrow = t == 3;   /* (one worker again, without the AVX-512 kernels) */
        result r = run(fs, false, depth, t == 3 ? 1 : t, smooth_back);
        narrow = false;
        assert_int_equal(r.color_bytes, ref.color_bytes);
        if (memcmp(r.color, ref.color, ref.color_bytes))
            fail_msg("%s, %u worker(s)%s: the colour bytes differ from the plain run's",
                     depth ? "depth-tested" : "blended", t == 3 ? 1 : t,
                     t == 3 ? " without AVX-512 kernels" : "");
        if (memcmp(r.depth, ref.depth, ref.depth_bytes))
            fail_msg("%u worker(s): the depth bytes differ from the plain run's", t);
        assert_int_equal(r.passed, ref.passed);
        if (!depth)   /* (early depth tests shade fewer than the plain run's late ones) */
            assert_int_equal(r.shaded, ref.shaded);
        free(r.color);
        free(r.depth);
    }
    free(ref.color);
    free(ref.depth);
}

static void test_blended_overlapping(void **state)
{
    (void)state;
    same_as_plain(fs_smooth, false, false);
}

/* the pending quads of filled triangles are merged without the antialiased shape's
   coverage that follows them (it scaled their alpha once: the flush saw its state) */
static void test_smooth_outlines_between(void **state)
{
    (void)state;
    same_as_plain(fs_smooth, false, true);
}

/* A small triangle whose fragments loop long (IN[0].x iterations), then a large one whose
 * fragments do not, under a work quota: the small one's warp, left pending, runs under the
 * budget of its own add at most, as its own run did — under the large triangle's smaller
 * per-warp share it exceeded its budget and failed the draw. */
static void test_looping_small_before_large(void **state)
{
    (void)state;
    static const char fs_loop[] = "FRAG\n"
                                  "DCL IN[0], GENERIC[0], CONSTANT\n"
                                  "DCL OUT[0], COLOR\n"
                                  "DCL TEMP[0..1]\n"
                                  "IMM[0] FLT32 {0.0, 1.0, 0.0, 0.0}\n"
                                  "  0: MOV TEMP[0].x, IMM[0].xxxx\n"
                                  "  1: BGNLOOP\n"
                                  "  2:   FSGE TEMP[1].x, TEMP[0].xxxx, IN[0].xxxx\n"
                                  "  3:   UIF TEMP[1].xxxx\n"
                                  "  4:     BRK\n"
                                  "  5:   ENDIF\n"
                                  "  6:   ADD TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy\n"
                                  "  7: ENDLOOP\n"
                                  "  8: MOV OUT[0], IN[0]\n"
                                  "  9: END\n";
    uint8_t ref[4] = {0, 0, 0, 0};
    for (int plain = 1; plain >= 0; plain--) {
        tv_pipe_ctx *ctx = scene(fs_loop, false);
        assert_int_equal(tv_pipe_set_plain(ctx, plain != 0), 0);
        tv_pipe_set_compute_limit(ctx, 0, 60000);
        /* 1500 iterations (about 7500 instructions a warp) in 3x3 pixels, then one over
           the whole target */
        const vert v[6] = {V(1, 1, 0.5f, 1500, 0, 0, 1), V(4, 1, 0.5f, 1500, 0, 0, 1),
                           V(1, 4, 0.5f, 1500, 0, 0, 1), V(0, 0, 0.5f, 1, 0, 0, 1),
                           V(64, 0, 0.5f, 1, 0, 0, 1), V(0, 64, 0.5f, 1, 0, 0, 1)};
        vertices(ctx, v, 6);
        if (draw(ctx, PRIM_TRIANGLES, 6))
            fail_msg("%s: %s", plain ? "plain" : "batched", tv_pipe_error(ctx));
        if (plain)
            memcpy(ref, pixel(ctx, 2, 2), 4);
        else
            assert_memory_equal(pixel(ctx, 2, 2), ref, 4);
        tv_pipe_destroy(ctx);
    }
}

static void test_depth_tested(void **state)
{
    (void)state;
    same_as_plain(fs_smooth, true, false);
}

static void test_facing(void **state)
{
    (void)state;
    same_as_plain(fs_face, false, false);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_blended_overlapping),
        cmocka_unit_test(test_smooth_outlines_between),
        cmocka_unit_test(test_looping_small_before_large),
        cmocka_unit_test(test_depth_tested),
        cmocka_unit_test(test_facing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
