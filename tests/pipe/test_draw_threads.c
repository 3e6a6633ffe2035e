/* Draws on several workers (tv_pipe_set_threads, docs/pipeline-threads.md): bands of the
 * target's rows are shaded by different workers (a draw of many triangles, or of a few
 * large ones), or a large primitive's rows of tiles are, and the results must not depend
 * on how many there are. The same draws — overlapping, alpha-blended, depth-tested
 * triangles, 40 large ones, 6 large ones, thousands of small ones (early tests: the
 * shader cannot tell), on targets of 120, 600 and 1100 rows (stripes of 32 to 128), and a
 * 4x multisampled
 * target with sample shading — on 1, 2 and 3 workers give identical colour and depth
 * bytes, occlusion counts and every pipeline statistic; a draw whose shader faults fails
 * with the same message. */
#include "helper_draw.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common_rng.h"

enum { TW = 160, TH = 120, NTRI = 40, NFEW = 6, NSMALL = 3000 };

typedef struct result {
    uint8_t *color;
    uint8_t *depth;
    size_t color_bytes, depth_bytes;
    uint64_t passed, stats[TV_PIPE_STATS];
} result;

static float unit(uint32_t *s)
{
    return (float)(tc_rng_next(s) & 0xffffff) / (float)0x1000000;
}

/* SMALL: NSMALL triangles of a few pixels scattered over the target (bands of rows cut
 * many of them), else LARGE large ones. */
static result run(unsigned threads, unsigned samples, bool small, unsigned large, unsigned th)
{
    tv_pipe_ctx *ctx = scene_sized(fs_smooth, true, TW, th, samples, threads);
    tv_pipe_rasterizer_state r;
    tv_pipe_rasterizer_default(&r);
    r.multisample = samples > 1;
    assert_int_equal(tv_pipe_set_rasterizer(ctx, &r), 0);
    if (samples > 1)
        tv_pipe_set_min_samples(ctx, samples);
    depth_less_alpha_blend(ctx, true);
    /* large triangles (up to the whole target) or small ones (a few pixels, some of them
       past the target's edges), random depth and translucent colours */
    unsigned n = (small ? NSMALL : large) * 3;
    vert *v = malloc(n * sizeof *v);
    assert_non_null(v);
    uint32_t seed = 0x9e3779b9u;
    float cx = 0, cy = 0;
    for (unsigned i = 0; i < n; i++) {
        float x = unit(&seed) * 2.4f - 1.2f, y = unit(&seed) * 2.4f - 1.2f;
        if (small) {
            if (i % 3 == 0)
                cx = x, cy = y;
            x = cx + (x - cx) * (14.0f / TW), y = cy + (y - cy) * (14.0f / (float)th);
        }
        v[i] = (vert){{x, y, unit(&seed) * 2 - 1, 1},
                      {unit(&seed), unit(&seed), unit(&seed), 0.25f + unit(&seed) * 0.5f}};
    }
    vertices(ctx, v, n);
    free(v);
    assert_int_equal(tv_pipe_query_create(ctx, 40, TV_PIPE_QUERY_OCCLUSION_COUNTER, 0), 0);
    assert_int_equal(tv_pipe_begin_query(ctx, 40), 0);
    for (unsigned k = 0; k < TV_PIPE_STATS; k++) {
        assert_int_equal(tv_pipe_query_create(ctx, 50 + k, TV_PIPE_QUERY_PIPELINE_STATISTICS, k),
                         0);
        assert_int_equal(tv_pipe_begin_query(ctx, 50 + k), 0);
    }
    assert_int_equal(draw(ctx, PRIM_TRIANGLES, n), 0);
    result res;
    assert_int_equal(tv_pipe_end_query(ctx, 40), 0);
    assert_int_equal(tv_pipe_query_result(ctx, 40, &res.passed), 0);
    for (unsigned k = 0; k < TV_PIPE_STATS; k++) {
        assert_int_equal(tv_pipe_end_query(ctx, 50 + k), 0);
        assert_int_equal(tv_pipe_query_result(ctx, 50 + k, &res.stats[k]), 0);
    }
    res.color_bytes = tv_pipe_resource_size(ctx, RT);
    res.depth_bytes = tv_pipe_resource_size(ctx, ZS);
    res.color = malloc(res.color_bytes);
    res.depth = malloc(res.depth_bytes);
    assert_non_null(res.color);
    assert_non_null(res.depth);
    memcpy(res.color, tv_pipe_resource_data(ctx, RT), res.color_bytes);
    memcpy(res.depth, tv_pipe_resource_data(ctx, ZS), res.depth_bytes);
    tv_pipe_destroy(ctx);
    return res;
}

static void same_for_any_thread_count(unsigned samples, bool small, unsigned large,
                                      unsigned th)
{
    result one = run(1, samples, small, large, th);
    /* (most of the target drawn: small triangles spread thinner over a taller one) */
    assert_true(one.passed > (uint64_t)TW * th * (samples > 1 ? samples : 1) /
                                 (small && th > TH ? 8 : 2));
    /* the triangles drawn and counted: all set up, most of them shaded */
    unsigned n = small ? NSMALL : large;
    assert_int_equal(one.stats[TV_PIPE_STAT_C_INVOCATIONS], n);
    assert_true(one.stats[TV_PIPE_STAT_C_PRIMITIVES] > n / 2);
    assert_true(one.stats[TV_PIPE_STAT_C_PRIMITIVES] <= n);
    for (unsigned t = 2; t <= 3; t++) {
        result many = run(t, samples, small, large, th);
        assert_int_equal(many.color_bytes, one.color_bytes);
        if (memcmp(many.color, one.color, one.color_bytes))
            fail_msg("%u samples: colour bytes differ between 1 and %u threads", samples, t);
        if (memcmp(many.depth, one.depth, one.depth_bytes))
            fail_msg("%u samples: depth bytes differ between 1 and %u threads", samples, t);
        assert_int_equal(many.passed, one.passed);
        for (unsigned k = 0; k < TV_PIPE_STATS; k++)
            if (many.stats[k] != one.stats[k])
                fail_msg("statistic %u: %llu on %u threads, %llu on 1", k,
                         (unsigned long long)many.stats[k], t,
                         (unsigned long long)one.stats[k]);
        free(many.color);
        free(many.depth);
    }
    free(one.color);
    free(one.depth);
}

static void test_blended_depth_tested(void **state)
{
    (void)state;
    same_for_any_thread_count(1, false, NTRI, TH);
}

/* Fewer than 16 triangles, all large: bands too (draw_bands_usable) */
static void test_few_large_triangles(void **state)
{
    (void)state;
    same_for_any_thread_count(1, false, NFEW, TH);
}

/* Taller targets take taller stripes (band_shift_for: 64 rows on 2 workers and 32 on 3
 * for 600 rows, 128 on 2 for 1100) */
static void test_tall_targets(void **state)
{
    (void)state;
    same_for_any_thread_count(1, true, 0, 600);
    same_for_any_thread_count(1, false, NTRI, 1100);
}

static void test_msaa_sample_shading(void **state)
{
    (void)state;
    same_for_any_thread_count(4, false, NTRI, TH);
}

static void test_small_triangles(void **state)
{
    (void)state;
    same_for_any_thread_count(1, true, 0, TH);
    same_for_any_thread_count(4, true, 0, TH);
}

/* A fragment shader that loops until its budget runs out: the draw fails on every thread
 * count with the message one worker gives (the first primitive, its first row of tiles). */
static void test_fault_same_message(void **state)
{
    (void)state;
    static const char fs_loop[] = "FRAG\nDCL OUT[0], COLOR\nDCL TEMP[0]\n"
                                  "IMM[0] FLT32 {1.0, 0.0, 0.0, 0.0}\n"
                                  "  0: BGNLOOP\n"
                                  "  1:   ADD TEMP[0].x, TEMP[0].xxxx, IMM[0].xxxx\n"
                                  "  2: ENDLOOP\n"
                                  "  3: END\n";
    char first[256] = "";
    for (unsigned t = 1; t <= 3; t++) {
        tv_pipe_ctx *ctx = scene_sized(fs_loop, true, TW, TH, 1, t);
        tv_pipe_set_compute_limit(ctx, 20000, 0);
        /* the first triangle over rows 40..80: stripes 1 and 2, so that at 2 threads both
           workers fail on it, the second in the lower rows */
        vert v[NTRI * 3] = {{{-0.5f, 40.0f / TH * 2 - 1, 0.5f, 1}, {1, 1, 1, 1}},
                            {{0.5f, 40.0f / TH * 2 - 1, 0.5f, 1}, {1, 1, 1, 1}},
                            {{0.0f, 80.0f / TH * 2 - 1, 0.5f, 1}, {1, 1, 1, 1}}};
        uint32_t seed = 12345;
        for (int i = 3; i < NTRI * 3; i++)
            v[i] = (vert){{unit(&seed) * 2.4f - 1.2f, unit(&seed) * 2.4f - 1.2f, 0.5f, 1},
                          {1, 1, 1, 1}};
        vertices(ctx, v, NTRI * 3);
        assert_int_equal(draw(ctx, PRIM_TRIANGLES, NTRI * 3), -1);
        const char *why = tv_pipe_error(ctx);
        assert_non_null(strstr(why, "fragment shader"));
        if (t == 1)
            snprintf(first, sizeof first, "%s", why);
        else if (strcmp(why, first))
            fail_msg("%u threads: \"%s\"; 1 thread: \"%s\"", t, why, first);
        tv_pipe_destroy(ctx);
    }
}

/* The per-warp limits a draw's band workers give their engines are not left standing for
 * the next draw: a draw in bands under a limit of 5000 instructions a warp, then one in
 * bands under the default limit whose shader runs about 15000 a warp — which passes, as on
 * one thread (pipe_work_begin gives an engine its limits only when they change, and must
 * not take the context's last limit for a band engine's). */
static void test_limits_after_band_draws(void **state)
{
    (void)state;
    static const char fs_long[] = "FRAG\nDCL OUT[0], COLOR\nDCL TEMP[0]\n"
                                  "IMM[0] FLT32 {1.0, 3000.0, 0.0, 0.5}\n"
                                  "  0: MOV TEMP[0].x, IMM[0].zzzz\n"
                                  "  1: BGNLOOP\n"
                                  "  2:   ADD TEMP[0].x, TEMP[0].xxxx, IMM[0].xxxx\n"
                                  "  3:   SGE TEMP[0].y, TEMP[0].xxxx, IMM[0].yyyy\n"
                                  "  4:   IF TEMP[0].yyyy\n"
                                  "  5:     BRK\n"
                                  "  6:   ENDIF\n"
                                  "  7: ENDLOOP\n"
                                  "  8: MOV OUT[0], IMM[0].xwxx\n"
                                  "  9: END\n";
    /* NTRI small triangles spread over the target (enough primitives for bands) */
    vert v[NTRI * 3];
    uint32_t seed = 777;
    for (unsigned i = 0; i < NTRI * 3; i++)
        v[i] = (vert){{unit(&seed) * 2 - 1, unit(&seed) * 2 - 1, 0.5f, 1}, {1, 0, 0, 1}};
    for (unsigned i = 0; i < NTRI * 3; i += 3)
        for (unsigned k = 1; k < 3; k++) {
            v[i + k].pos[0] = v[i].pos[0] + (v[i + k].pos[0] - v[i].pos[0]) * 0.1f;
            v[i + k].pos[1] = v[i].pos[1] + (v[i + k].pos[1] - v[i].pos[1]) * 0.1f;
        }
    uint64_t lit[3] = {0, 0, 0};
    for (unsigned t = 1; t <= 2; t++) {
        tv_pipe_ctx *ctx = scene_sized(fs_smooth, false, TW, TH, 1, t);
        assert_int_equal(tv_pipe_shader_create(ctx, FS + 1, 1, fs_long, sizeof fs_long), 0);
        vertices(ctx, v, NTRI * 3);
        tv_pipe_set_compute_limit(ctx, 5000, 0);
        assert_int_equal(draw(ctx, PRIM_TRIANGLES, NTRI * 3), 0);
        tv_pipe_set_compute_limit(ctx, 0, 0);
        assert_int_equal(tv_pipe_bind_shader(ctx, 1, FS + 1), 0);
        if (draw(ctx, PRIM_TRIANGLES, NTRI * 3) != 0)
            fail_msg("%u threads: %s", t, tv_pipe_error(ctx));
        const uint8_t *px = tv_pipe_resource_data(ctx, RT);
        for (size_t i = 0; i < (size_t)TW * TH; i++)
            lit[t] += px[4 * i + 1] == 128;   /* the long shader's green */
        tv_pipe_destroy(ctx);
    }
    assert_true(lit[1] > 100);
    assert_int_equal(lit[2], lit[1]);
}

/* A vertex shader that touches memory stays on one worker (its atomics' order would be
 * the workers'): each vertex's red is the counter it found, and the picture, drawn in
 * bands, is the same on 1 and 2 workers. */
static void test_vertex_atomics_in_order(void **state)
{
    (void)state;
    static const char vs_atomic[] = "VERT\nDCL IN[0]\nDCL IN[1]\nDCL OUT[0], POSITION\n"
                                    "DCL OUT[1], GENERIC[0]\nDCL BUFFER[0]\nDCL TEMP[0]\n"
                                    "IMM[0] UINT32 {0, 1, 0, 0}\n"
                                    "IMM[1] FLT32 {0.0001, 0.0, 0.0, 0.0}\n"
                                    "  0: ATOMUADD TEMP[0].x, BUFFER[0], IMM[0].xxxx, IMM[0].yyyy\n"
                                    "  1: U2F TEMP[0].x, TEMP[0].xxxx\n"
                                    "  2: MUL TEMP[0].x, TEMP[0].xxxx, IMM[1].xxxx\n"
                                    "  3: MOV OUT[0], IN[0]\n"
                                    "  4: MOV OUT[1], IN[1]\n"
                                    "  5: MOV OUT[1].x, TEMP[0].xxxx\n"
                                    "  6: END\n";
    enum { NV = 3 * 3000, SSBO = 40, AVS = 41 };
    uint8_t *pic[2] = {NULL, NULL};
    size_t bytes = 0;
    for (unsigned t = 1; t <= 2; t++) {
        tv_pipe_ctx *ctx = scene_sized(fs_smooth, false, TW, TH, 1, t);
        assert_int_equal(tv_pipe_shader_create(ctx, AVS, TV_PIPE_STAGE_VERTEX, vs_atomic,
                                               sizeof vs_atomic), 0);
        assert_int_equal(tv_pipe_bind_shader(ctx, TV_PIPE_STAGE_VERTEX, AVS), 0);
        const uint32_t zero[4] = {0, 0, 0, 0};
        upload(ctx, SSBO, zero, sizeof zero);
        tv_pipe_buffer_binding b = {SSBO, 0, 16};
        assert_int_equal(tv_pipe_set_shader_buffers(ctx, TV_PIPE_STAGE_VERTEX, 0, 1, &b), 0);
        vert *v = malloc(NV * sizeof *v);
        assert_non_null(v);
        uint32_t seed = 777;
        for (unsigned i = 0; i < NV; i++)
            v[i] = (vert){{unit(&seed) * 2 - 1, unit(&seed) * 2 - 1, 0.5f, 1}, {0, 0.5f, 0.5f, 1}};
        vertices(ctx, v, NV);
        free(v);
        assert_int_equal(draw(ctx, PRIM_TRIANGLES, NV), 0);
        bytes = tv_pipe_resource_size(ctx, RT);
        pic[t - 1] = malloc(bytes);
        assert_non_null(pic[t - 1]);
        memcpy(pic[t - 1], tv_pipe_resource_data(ctx, RT), bytes);
        const uint32_t *counter = (const uint32_t *)tv_pipe_resource_data(ctx, SSBO);
        assert_int_equal(counter[0], NV);
        tv_pipe_destroy(ctx);
    }
    if (memcmp(pic[0], pic[1], bytes))
        fail_msg("the picture differs between 1 and 2 workers");
    free(pic[0]);
    free(pic[1]);
}

static void test_set_threads_checks(void **state)
{
    (void)state;
    tv_pipe_ctx *ctx = tv_pipe_create(0);
    assert_non_null(ctx);
    assert_int_equal(tv_pipe_set_threads(ctx, 65), -1);
    assert_non_null(strstr(tv_pipe_error(ctx), "at most 64"));
    assert_int_equal(tv_pipe_set_threads(ctx, 2), 0);
    static const char cs[] = "COMP\nPROPERTY CS_FIXED_BLOCK_WIDTH 1\n"
                             "PROPERTY CS_FIXED_BLOCK_HEIGHT 1\nPROPERTY CS_FIXED_BLOCK_DEPTH 1\n"
                             "END\n";
    assert_int_equal(tv_pipe_shader_create(ctx, 30, TV_PIPE_STAGE_COMPUTE, cs, sizeof cs), 0);
    assert_int_equal(tv_pipe_bind_shader(ctx, TV_PIPE_STAGE_COMPUTE, 30), 0);
    const uint32_t block[3] = {1, 1, 1}, grid[3] = {1, 1, 1};
    assert_int_equal(tv_pipe_launch_grid(ctx, block, grid), 0); /* starts the engine */
    assert_int_equal(tv_pipe_set_threads(ctx, 1), -1);
    assert_non_null(strstr(tv_pipe_error(ctx), "before the first draw or launch"));
    tv_pipe_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_blended_depth_tested),
        cmocka_unit_test(test_few_large_triangles),
        cmocka_unit_test(test_tall_targets),
        cmocka_unit_test(test_msaa_sample_shading),
        cmocka_unit_test(test_small_triangles),
        cmocka_unit_test(test_fault_same_message),
        cmocka_unit_test(test_limits_after_band_draws),
        cmocka_unit_test(test_vertex_atomics_in_order),
        cmocka_unit_test(test_set_threads_checks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
