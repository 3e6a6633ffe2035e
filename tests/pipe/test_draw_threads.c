/* Draws on several workers (tv_pipe_set_threads, docs/pipeline.md §Threads): the rows of
 * tiles of a large primitive are shaded by different workers, and the results must not
 * depend on how many there are. The same draws — overlapping, alpha-blended, depth-tested
 * triangles (early tests: the shader cannot tell), and a 4x multisampled target with
 * sample shading — on 1, 2 and 3 workers give identical colour and depth bytes, occlusion
 * counts and fragment shader invocations. */
#include "helper_draw.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { TW = 160, TH = 120, NTRI = 40 };

typedef struct result {
    uint8_t *color;
    uint8_t *depth;
    size_t color_bytes, depth_bytes;
    uint64_t passed, shaded;
} result;

/* xorshift: the same pseudo-random triangles in every run */
static uint32_t next(uint32_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    return *s;
}

static float unit(uint32_t *s)
{
    return (float)(next(s) & 0xffffff) / (float)0x1000000;
}

static result run(unsigned threads, unsigned samples)
{
    tv_pipe_ctx *ctx = scene_sized(fs_smooth, true, TW, TH, samples, threads);
    tv_pipe_rasterizer_state r;
    tv_pipe_rasterizer_default(&r);
    r.multisample = samples > 1;
    assert_int_equal(tv_pipe_set_rasterizer(ctx, &r), 0);
    if (samples > 1)
        tv_pipe_set_min_samples(ctx, samples);
    tv_pipe_dsa_state dsa;
    memset(&dsa, 0, sizeof dsa);
    dsa.depth_enabled = dsa.depth_writemask = true;
    dsa.depth_func = 1; /* LESS */
    assert_int_equal(tv_pipe_set_dsa(ctx, &dsa), 0);
    tv_pipe_blend_state b;
    memset(&b, 0, sizeof b);
    b.rt[0].blend_enable = true;
    b.rt[0].rgb_src_factor = b.rt[0].alpha_src_factor = 0x03;  /* SRC_ALPHA */
    b.rt[0].rgb_dst_factor = b.rt[0].alpha_dst_factor = 0x13;  /* INV_SRC_ALPHA */
    b.rt[0].colormask = 0xf;
    assert_int_equal(tv_pipe_set_blend(ctx, &b), 0);
    /* large triangles (up to the whole target), random depth and translucent colours */
    vert v[NTRI * 3];
    uint32_t seed = 0x9e3779b9u;
    for (int i = 0; i < NTRI * 3; i++) {
        float x = unit(&seed) * 2.4f - 1.2f, y = unit(&seed) * 2.4f - 1.2f;
        v[i] = (vert){{x, y, unit(&seed) * 2 - 1, 1},
                      {unit(&seed), unit(&seed), unit(&seed), 0.25f + unit(&seed) * 0.5f}};
    }
    vertices(ctx, v, NTRI * 3);
    assert_int_equal(tv_pipe_query_create(ctx, 40, TV_PIPE_QUERY_OCCLUSION_COUNTER, 0), 0);
    assert_int_equal(tv_pipe_query_create(ctx, 41, TV_PIPE_QUERY_PIPELINE_STATISTICS,
                                          TV_PIPE_STAT_PS_INVOCATIONS), 0);
    assert_int_equal(tv_pipe_begin_query(ctx, 40), 0);
    assert_int_equal(tv_pipe_begin_query(ctx, 41), 0);
    assert_int_equal(draw(ctx, PRIM_TRIANGLES, NTRI * 3), 0);
    assert_int_equal(tv_pipe_end_query(ctx, 40), 0);
    assert_int_equal(tv_pipe_end_query(ctx, 41), 0);
    result res;
    assert_int_equal(tv_pipe_query_result(ctx, 40, &res.passed), 0);
    assert_int_equal(tv_pipe_query_result(ctx, 41, &res.shaded), 0);
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

static void same_for_any_thread_count(unsigned samples)
{
    result one = run(1, samples);
    assert_true(one.passed > (uint64_t)TW * TH * (samples > 1 ? samples : 1) / 2);
    for (unsigned t = 2; t <= 3; t++) {
        result many = run(t, samples);
        assert_int_equal(many.color_bytes, one.color_bytes);
        if (memcmp(many.color, one.color, one.color_bytes))
            fail_msg("%u samples: colour bytes differ between 1 and %u threads", samples, t);
        if (memcmp(many.depth, one.depth, one.depth_bytes))
            fail_msg("%u samples: depth bytes differ between 1 and %u threads", samples, t);
        assert_int_equal(many.passed, one.passed);
        assert_int_equal(many.shaded, one.shaded);
        free(many.color);
        free(many.depth);
    }
    free(one.color);
    free(one.depth);
}

static void test_blended_depth_tested(void **state)
{
    (void)state;
    same_for_any_thread_count(1);
}

static void test_msaa_sample_shading(void **state)
{
    (void)state;
    same_for_any_thread_count(4);
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
        cmocka_unit_test(test_msaa_sample_shading),
        cmocka_unit_test(test_set_threads_checks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
