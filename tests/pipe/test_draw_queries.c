/* Queries and stream output through the whole pipeline (tv_pipe_draw_vbo) into a 16x16
 * RGBA8 target, checked against values worked out by hand: occlusion counters and
 * predicates, primitives generated, time elapsed, render conditions, draws from stream
 * output (draw_auto), the streamed vertices with and without a position, pipeline
 * statistics and the overflow predicates. The other draws: test_draw.c. */
#include "helper_draw.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Queries through the pipe API: occlusion counter and predicate, primitives generated over
 * instances, time elapsed, a draw skipped and run by a render condition, and the types
 * that are not counted. */
static void test_queries(void **state)
{
    (void)state;
    tv_pipe_ctx *ctx = scene(fs_flat, false);
    vert v[3] = {V(0.5f, 0.5f, 0, 1, 0, 0, 1), V(4.5f, 0.5f, 0, 1, 0, 0, 1),
                 V(0.5f, 4.5f, 0, 1, 0, 0, 1)};
    vertices(ctx, v, 3);
    assert_int_equal(tv_pipe_query_create(ctx, 50, TV_PIPE_QUERY_OCCLUSION_COUNTER, 0), 0);
    assert_int_equal(tv_pipe_query_create(ctx, 51, TV_PIPE_QUERY_OCCLUSION_PREDICATE, 0), 0);
    assert_int_equal(tv_pipe_query_create(ctx, 52, TV_PIPE_QUERY_PRIMITIVES_GENERATED, 0), 0);
    assert_int_equal(tv_pipe_query_create(ctx, 53, TV_PIPE_QUERY_TIME_ELAPSED, 0), 0);
    for (uint32_t q = 50; q <= 53; q++)
        assert_int_equal(tv_pipe_begin_query(ctx, q), 0);
    tv_pipe_draw_info info;
    memset(&info, 0, sizeof info);
    info.mode = PRIM_TRIANGLES;
    info.count = 3;
    info.instance_count = 2;     /* the same 10 pixels twice */
    assert_int_equal(tv_pipe_draw_vbo(ctx, &info), 0);
    for (uint32_t q = 50; q <= 53; q++)
        assert_int_equal(tv_pipe_end_query(ctx, q), 0);
    uint64_t r;
    assert_query_result(ctx, 50, 20);
    assert_query_result(ctx, 51, 1);
    assert_query_result(ctx, 52, 2);
    assert_int_equal(tv_pipe_query_result(ctx, 53, &r), 0);
    assert_true(r > 0);
    /* a counter over a draw that lights nothing (all of it behind the near plane) */
    vert far[3] = {V(0, 0, 5, 1, 1, 1, 1), V(16, 0, 5, 1, 1, 1, 1), V(0, 16, 5, 1, 1, 1, 1)};
    vertices(ctx, far, 3);
    assert_int_equal(tv_pipe_begin_query(ctx, 50), 0);
    info.instance_count = 1;
    assert_int_equal(tv_pipe_draw_vbo(ctx, &info), 0);
    assert_int_equal(tv_pipe_end_query(ctx, 50), 0);
    assert_query_result(ctx, 50, 0);
    /* conditional rendering on the empty count: the draw is skipped, inverted it runs */
    vertices(ctx, v, 3);
    const uint32_t black[4] = {0, 0, 0, 0};
    assert_int_equal(tv_pipe_clear(ctx, TV_PIPE_CLEAR_COLOR0, black, 1.0, 0), 0);
    assert_int_equal(tv_pipe_set_render_condition(ctx, 50, false), 0);
    assert_int_equal(tv_pipe_draw_vbo(ctx, &info), 0);
    assert_int_equal(pixel(ctx, 0, 0)[0], 0);
    assert_int_equal(tv_pipe_set_render_condition(ctx, 50, true), 0);
    assert_int_equal(tv_pipe_draw_vbo(ctx, &info), 0);
    assert_int_equal(pixel(ctx, 0, 0)[0], 255);
    assert_int_equal(tv_pipe_set_render_condition(ctx, 0, false), 0);
    /* a vertex stream past the four: named at creation */
    assert_int_equal(tv_pipe_query_create(ctx, 61, TV_PIPE_QUERY_SO_STATISTICS, 4), -1);
    assert_non_null(strstr(tv_pipe_error(ctx), "index 4 (at most 3"));
    assert_int_equal(tv_pipe_end_query(ctx, 99), -1);
    assert_non_null(strstr(tv_pipe_error(ctx), "no query 99"));
    tv_pipe_destroy(ctx);
}

/* Stream output: a strip's two triangles written in GL's order ((0, 1, 2), then the odd
 * triangle's winding-preserving (2, 1, 3)), interleaved attribute and separate position
 * buffers, overflow stopping at a whole primitive, appending across draws, and stream output
 * with the rasterizer discarding and no fragment shader. */
/* DRAW_AUTO: a strip's two triangles written through a target object (6 vertices of
 * position and colour, 32 bytes each), the target unbound, then drawn from the buffer with
 * the count the object kept: the same two triangles, 128 pixels; a rebind with append
 * continues after the 6 vertices, one without starts over; a missing object is named. */
static void test_draw_auto(void **state)
{
    (void)state;
    tv_pipe_ctx *ctx = scene(fs_flat, false);
    vert v[4];
    for (int i = 0; i < 4; i++)
        v[i] = V((float)(i % 2) * 16, (float)(i / 2) * 8, 0, 1, 1, 1, 1);
    vertices(ctx, v, 4);
    tv_pipe_stream_output_info so;
    memset(&so, 0, sizeof so);
    so.num_outputs = 2;
    so.stride[0] = 8;                  /* OUT[0].xyzw, OUT[1].xyzw: a vert */
    so.output[0] = (tv_pipe_stream_output){0, 0, 4, 0, 0, 0};
    so.output[1] = (tv_pipe_stream_output){1, 0, 4, 0, 0, 4};
    assert_int_equal(tv_pipe_shader_set_stream_output(ctx, VS, &so), 0);
    enum { SOB = 40, TGT = 45 };
    tv_pipe_resource_desc b = {0, FMT_R8, 16, 1024, 1, 1, 1, 0, 0};
    assert_int_equal(tv_pipe_resource_create(ctx, SOB, &b), 0);
    const uint32_t dw[3] = {SOB, 0, 1024};
    assert_int_equal(tv_pipe_object_create(ctx, TV_PIPE_OBJ_STREAMOUT_TARGET, TGT, dw, 3), 0);
    tv_pipe_so_target t = {SOB, 0, 1024, TGT};
    assert_int_equal(tv_pipe_set_stream_output_targets(ctx, 1, &t, 0), 0);
    rasterizer_discard(ctx, true);
    assert_int_equal(draw(ctx, PRIM_TRIANGLE_STRIP, 4), 0);
    assert_int_equal(tv_pipe_set_stream_output_targets(ctx, 0, NULL, 0), 0);
    /* draw the captured vertices with the count the target kept */
    rasterizer_discard(ctx, false);
    tv_pipe_vertex_buffer vb = {32, 0, SOB};
    assert_int_equal(tv_pipe_set_vertex_buffers(ctx, 0, 1, &vb), 0);
    assert_int_equal(tv_pipe_query_create(ctx, 70, TV_PIPE_QUERY_PRIMITIVES_GENERATED, 0), 0);
    assert_int_equal(tv_pipe_begin_query(ctx, 70), 0);
    tv_pipe_draw_info info;
    memset(&info, 0, sizeof info);
    info.mode = PRIM_TRIANGLES;
    info.count = 999;                  /* ignored */
    info.start = 5;                    /* ignored */
    info.instance_count = 1;
    info.count_from_so = TGT;
    assert_int_equal(tv_pipe_draw_vbo(ctx, &info), 0);
    assert_int_equal(tv_pipe_end_query(ctx, 70), 0);
    assert_query_result(ctx, 70, 2);
    int lit = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            lit += pixel(ctx, x, y)[0] == 255;
    assert_int_equal(lit, 128);        /* the 16 x 8 rectangle */
    /* append after a rebind: the next 6 vertices land after the first 6 */
    rasterizer_discard(ctx, true);
    assert_int_equal(tv_pipe_set_vertex_buffers(ctx, 0, 1, (tv_pipe_vertex_buffer[]){{32, 0, VB}}),
                     0);
    assert_int_equal(tv_pipe_set_stream_output_targets(ctx, 1, &t, 1), 0);
    assert_int_equal(draw(ctx, PRIM_TRIANGLE_STRIP, 4), 0);
    const float *o = (const float *)(const void *)tv_pipe_resource_data(ctx, SOB);
    assert_true(o[6 * 8] == o[0] && o[6 * 8 + 1] == o[1] && o[12 * 8] == 0.0f);
    assert_int_equal(tv_pipe_set_stream_output_targets(ctx, 0, NULL, 0), 0);
    /* without append the level restarts */
    assert_int_equal(tv_pipe_set_stream_output_targets(ctx, 1, &t, 0), 0);
    assert_int_equal(tv_pipe_set_stream_output_targets(ctx, 0, NULL, 0), 0);
    assert_int_equal(tv_pipe_begin_query(ctx, 70), 0);
    assert_int_equal(tv_pipe_draw_vbo(ctx, &info), 0);
    assert_int_equal(tv_pipe_end_query(ctx, 70), 0);
    assert_query_result(ctx, 70, 0);
    info.count_from_so = 46;
    assert_int_equal(tv_pipe_draw_vbo(ctx, &info), -1);
    assert_non_null(strstr(tv_pipe_error(ctx), "stream-output target 46, which does not exist"));
    tv_pipe_destroy(ctx);
}

static void test_stream_output(void **state)
{
    (void)state;
    tv_pipe_ctx *ctx = scene(fs_flat, false);
    vert v[4];
    for (int i = 0; i < 4; i++)
        v[i] = V((float)(i % 2) * 8, (float)(i / 2) * 8, 0, (float)i, 10.0f + (float)i, 0, 1);
    vertices(ctx, v, 4);
    tv_pipe_stream_output_info so;
    memset(&so, 0, sizeof so);
    so.num_outputs = 2;
    so.stride[0] = 4;                  /* OUT[1].xyzw */
    so.stride[1] = 2;                  /* OUT[0].xy */
    so.output[0] = (tv_pipe_stream_output){1, 0, 4, 0, 0, 0};
    so.output[1] = (tv_pipe_stream_output){0, 0, 2, 1, 0, 0};
    assert_int_equal(tv_pipe_shader_set_stream_output(ctx, VS, &so), 0);
    enum { SO0 = 40, SO1 = 41 };
    tv_pipe_resource_desc b0 = {0, FMT_R8, 16, 256, 1, 1, 1, 0, 0};
    assert_int_equal(tv_pipe_resource_create(ctx, SO0, &b0), 0);
    assert_int_equal(tv_pipe_resource_create(ctx, SO1, &b0), 0);
    tv_pipe_so_target t[2] = {{SO0, 16, 96 /* 6 vertices */, 0}, {SO1, 0, 48, 0}};
    assert_int_equal(tv_pipe_set_stream_output_targets(ctx, 2, t, 0), 0);
    assert_int_equal(tv_pipe_query_create(ctx, 70, TV_PIPE_QUERY_PRIMITIVES_EMITTED, 0), 0);
    assert_int_equal(tv_pipe_query_create(ctx, 71, TV_PIPE_QUERY_PRIMITIVES_GENERATED, 0), 0);
    assert_int_equal(draw_queried(ctx, PRIM_TRIANGLE_STRIP, 4, 2,
                                  (const uint32_t[]){70, 71}), 0);
    const float *o0 = (const float *)(const void *)(tv_pipe_resource_data(ctx, SO0) + 16);
    const float *o1 = (const float *)(const void *)tv_pipe_resource_data(ctx, SO1);
    static const int order[6] = {0, 1, 2, 2, 1, 3};
    for (int k = 0; k < 6; k++) {
        assert_true(o0[4 * k] == (float)order[k]);
        assert_true(o0[4 * k + 1] == 10.0f + (float)order[k]);
        assert_true(o0[4 * k + 3] == 1.0f);
        assert_true(o1[2 * k] == v[order[k]].pos[0]);
        assert_true(o1[2 * k + 1] == v[order[k]].pos[1]);
    }
    assert_query_result(ctx, 70, 2);
    assert_query_result(ctx, 71, 2);
    /* both buffers full: an appended draw writes nothing (overflow stops it); the
     * statistics query has written 0 of the 2 that needed storage */
    assert_int_equal(tv_pipe_set_stream_output_targets(ctx, 2, t, 3), 0);
    assert_int_equal(tv_pipe_query_create(ctx, 72, TV_PIPE_QUERY_SO_STATISTICS, 0), 0);
    assert_int_equal(draw_queried(ctx, PRIM_TRIANGLE_STRIP, 4, 2,
                                  (const uint32_t[]){70, 72}), 0);
    assert_query_result(ctx, 70, 0);
    uint64_t written = 9, needed = 0;
    assert_int_equal(tv_pipe_query_result_so(ctx, 72, &written, &needed), 0);
    assert_int_equal(written, 0);
    assert_int_equal(needed, 2);
    /* room for one more triangle after one: the second stops, whole */
    tv_pipe_so_target t1[1] = {{SO0, 0, 80, 0}};   /* 5 vertices of 16 bytes */
    assert_int_equal(tv_pipe_set_stream_output_targets(ctx, 1, t1, 0), 0);
    so.num_outputs = 1;
    assert_int_equal(tv_pipe_shader_set_stream_output(ctx, VS, &so), 0);
    memset(tv_pipe_resource_data(ctx, SO0), 0, 256);
    assert_int_equal(draw_queried(ctx, PRIM_TRIANGLE_STRIP, 4, 1, (const uint32_t[]){70}), 0);
    assert_query_result(ctx, 70, 1);
    const float *z = (const float *)(const void *)tv_pipe_resource_data(ctx, SO0);
    assert_true(z[4 * 3] == 0.0f && z[4 * 3 + 1] == 0.0f);   /* vertex 4 not written */
    /* rasterizer discard, no fragment shader: the vertex stage still feeds stream output */
    assert_int_equal(tv_pipe_bind_shader(ctx, TV_PIPE_STAGE_FRAGMENT, 0), 0);
    rasterizer_discard(ctx, true);
    tv_pipe_so_target t2[1] = {{SO0, 0, 256, 0}};
    assert_int_equal(tv_pipe_set_stream_output_targets(ctx, 1, t2, 0), 0);
    memset(tv_pipe_resource_data(ctx, SO0), 0, 256);
    assert_int_equal(draw(ctx, PRIM_TRIANGLES, 3), 0);
    assert_true(z[0] == 0.0f && z[4] == 1.0f && z[8] == 2.0f);
    /* bad stream-output descriptions are named */
    so.output[0].start_component = 2;
    assert_int_equal(tv_pipe_shader_set_stream_output(ctx, VS, &so), -1);
    assert_non_null(strstr(tv_pipe_error(ctx), "do not fit"));
    tv_pipe_destroy(ctx);
}

/* A vertex shader that writes no POSITION (piglit's tf-no-position): nothing is
 * rasterised (no sample passes, the target stays blank), but stream output writes the
 * strip's 6 vertices in order and both primitive queries count its 2 triangles. */
static void test_stream_output_without_position(void **state)
{
    (void)state;
    static const char vs_nopos[] = "VERT\nDCL IN[0]\nDCL IN[1]\nDCL OUT[0], GENERIC[0]\n"
                                   "MOV OUT[0], IN[1]\nEND\n";
    tv_pipe_ctx *ctx = scene(fs_flat, false);
    enum { VS2 = 24, SO0 = 40 };
    assert_int_equal(tv_pipe_shader_create(ctx, VS2, TV_PIPE_STAGE_VERTEX, vs_nopos,
                                           sizeof vs_nopos), 0);
    assert_int_equal(tv_pipe_bind_shader(ctx, TV_PIPE_STAGE_VERTEX, VS2), 0);
    vert v[4];
    for (int i = 0; i < 4; i++)
        v[i] = V((float)(i % 2) * 16, (float)(i / 2) * 16, 0, (float)i, 10.0f + (float)i, 0, 1);
    vertices(ctx, v, 4);
    tv_pipe_stream_output_info so;
    memset(&so, 0, sizeof so);
    so.num_outputs = 1;
    so.stride[0] = 4;                  /* OUT[0].xyzw */
    so.output[0] = (tv_pipe_stream_output){0, 0, 4, 0, 0, 0};
    assert_int_equal(tv_pipe_shader_set_stream_output(ctx, VS2, &so), 0);
    tv_pipe_resource_desc b = {0, FMT_R8, 16, 256, 1, 1, 1, 0, 0};
    assert_int_equal(tv_pipe_resource_create(ctx, SO0, &b), 0);
    tv_pipe_so_target t = {SO0, 0, 256, 0};
    assert_int_equal(tv_pipe_set_stream_output_targets(ctx, 1, &t, 0), 0);
    assert_int_equal(tv_pipe_query_create(ctx, 70, TV_PIPE_QUERY_PRIMITIVES_EMITTED, 0), 0);
    assert_int_equal(tv_pipe_query_create(ctx, 71, TV_PIPE_QUERY_PRIMITIVES_GENERATED, 0), 0);
    assert_int_equal(tv_pipe_query_create(ctx, 72, TV_PIPE_QUERY_OCCLUSION_COUNTER, 0), 0);
    assert_int_equal(draw_queried(ctx, PRIM_TRIANGLE_STRIP, 4, 3,
                                  (const uint32_t[]){70, 71, 72}), 0);
    const float *o = (const float *)(const void *)tv_pipe_resource_data(ctx, SO0);
    static const int order[6] = {0, 1, 2, 2, 1, 3};
    for (int k = 0; k < 6; k++) {
        assert_true(o[4 * k] == (float)order[k]);
        assert_true(o[4 * k + 1] == 10.0f + (float)order[k]);
        assert_true(o[4 * k + 3] == 1.0f);
    }
    assert_query_result(ctx, 70, 2);
    assert_query_result(ctx, 71, 2);
    assert_query_result(ctx, 72, 0);
    assert_blank(ctx);
    tv_pipe_destroy(ctx);
}

/* Pipeline statistics (one counter a query) of a strip of two triangles covering the
 * 16x16 target, drawn in 2 instances; overflow predicates of stream output. */
static void test_pipeline_statistics_and_overflow(void **state)
{
    (void)state;
    tv_pipe_ctx *ctx = scene(fs_flat, false);
    vert v[4] = {V(0, 0, 0, 1, 0, 0, 1), V(16, 0, 0, 1, 0, 0, 1), V(0, 16, 0, 1, 0, 0, 1),
                 V(16, 16, 0, 1, 0, 0, 1)};
    vertices(ctx, v, 4);
    for (uint32_t i = 0; i < TV_PIPE_STATS; i++) {
        assert_int_equal(tv_pipe_query_create(ctx, 100 + i, TV_PIPE_QUERY_PIPELINE_STATISTICS, i),
                         0);
        assert_int_equal(tv_pipe_begin_query(ctx, 100 + i), 0);
    }
    tv_pipe_draw_info info;
    memset(&info, 0, sizeof info);
    info.mode = PRIM_TRIANGLE_STRIP;
    info.count = 4;
    info.instance_count = 2;
    assert_int_equal(tv_pipe_draw_vbo(ctx, &info), 0);
    /* IA: 4 vertices and 2 triangles per instance; VS: 4 per instance; no GS, HS, DS or
     * CS; clipping: 4 triangles in, 4 out; fragments: 256 pixels per instance */
    static const uint64_t want[TV_PIPE_STATS] = {8, 4, 8, 0, 0, 4, 4, 512, 0, 0, 0};
    for (uint32_t i = 0; i < TV_PIPE_STATS; i++) {
        assert_int_equal(tv_pipe_end_query(ctx, 100 + i), 0);
        assert_query_result(ctx, 100 + i, want[i]);
    }
    assert_int_equal(tv_pipe_query_create(ctx, 120, TV_PIPE_QUERY_PIPELINE_STATISTICS, 11),
                     -1);
    /* stream output into room for one triangle of the strip's two: overflow */
    tv_pipe_stream_output_info so;
    memset(&so, 0, sizeof so);
    so.num_outputs = 1;
    so.stride[0] = 4;
    so.output[0] = (tv_pipe_stream_output){1, 0, 4, 0, 0, 0};
    assert_int_equal(tv_pipe_shader_set_stream_output(ctx, VS, &so), 0);
    enum { SO0 = 40 };
    tv_pipe_resource_desc b0 = {0, FMT_R8, 16, 256, 1, 1, 1, 0, 0};
    assert_int_equal(tv_pipe_resource_create(ctx, SO0, &b0), 0);
    tv_pipe_so_target t[1] = {{SO0, 0, 48, 0}};
    assert_int_equal(tv_pipe_set_stream_output_targets(ctx, 1, t, 0), 0);
    assert_int_equal(tv_pipe_query_create(ctx, 121, TV_PIPE_QUERY_SO_OVERFLOW_PREDICATE, 0), 0);
    assert_int_equal(tv_pipe_query_create(ctx, 122, TV_PIPE_QUERY_SO_OVERFLOW_PREDICATE, 1), 0);
    assert_int_equal(tv_pipe_query_create(ctx, 123, TV_PIPE_QUERY_SO_OVERFLOW_ANY_PREDICATE, 0),
                     0);
    for (uint32_t q = 121; q <= 123; q++)
        assert_int_equal(tv_pipe_begin_query(ctx, q), 0);
    assert_int_equal(draw(ctx, PRIM_TRIANGLE_STRIP, 4), 0);
    static const uint64_t over[3] = {1, 0, 1};   /* stream 0 overflowed; stream 1 not */
    for (uint32_t q = 0; q < 3; q++) {
        assert_int_equal(tv_pipe_end_query(ctx, 121 + q), 0);
        assert_query_result(ctx, 121 + q, over[q]);
    }
    tv_pipe_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_queries),
        cmocka_unit_test(test_draw_auto),
        cmocka_unit_test(test_stream_output),
        cmocka_unit_test(test_stream_output_without_position),
        cmocka_unit_test(test_pipeline_statistics_and_overflow),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
