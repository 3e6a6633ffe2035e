/* Geometry shaders in draws (tv_pipe_draw_vbo with a GEOM program bound), checked against
 * values worked out by hand on the 16x16 scene of helper_draw.h: points amplified to
 * squares (exact pixel sets and colours), invocations and the primitive ID (the GS's
 * PRIM_ID input and its PRIMID output read by the fragment shader), triangles with
 * adjacency, stream output of a GS's line strips with the primitive queries, vertex streams
 * with their own buffers and queries, layered rendering into a 2D array, viewport arrays
 * with their scissors, the plain
 * interpreter equal to the optimised one, and the named errors. */
#include "helper_draw.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { GS = 22 };

static void bind_gs(tv_pipe_ctx *ctx, const char *text)
{
    assert_int_equal(tv_pipe_shader_create(ctx, GS, TV_PIPE_STAGE_GEOMETRY, text,
                                           strlen(text) + 1), 0);
    assert_int_equal(tv_pipe_bind_shader(ctx, TV_PIPE_STAGE_GEOMETRY, GS), 0);
}

/* Each point becomes a square of +-2 pixels (0.25 in NDC) around it, in its colour. */
static const char gs_square[] =
    "GEOM\n"
    "PROPERTY GS_INPUT_PRIMITIVE POINTS\n"
    "PROPERTY GS_OUTPUT_PRIMITIVE TRIANGLE_STRIP\n"
    "PROPERTY GS_MAX_OUTPUT_VERTICES 4\n"
    "PROPERTY GS_INVOCATIONS 1\n"
    "DCL IN[][0], POSITION\n"
    "DCL IN[][1], GENERIC[0]\n"
    "DCL OUT[0], POSITION\n"
    "DCL OUT[1], GENERIC[0]\n"
    "IMM[0] FLT32 {0.25, -0.25, 0.0, 0.0}\n"
    "IMM[1] UINT32 {0, 0, 0, 0}\n"
    "ADD OUT[0], IN[0][0], IMM[0].yyzz\n"
    "MOV OUT[1], IN[0][1]\n"
    "EMIT IMM[1].xxxx\n"
    "ADD OUT[0], IN[0][0], IMM[0].xyzz\n"
    "MOV OUT[1], IN[0][1]\n"
    "EMIT IMM[1].xxxx\n"
    "ADD OUT[0], IN[0][0], IMM[0].yxzz\n"
    "MOV OUT[1], IN[0][1]\n"
    "EMIT IMM[1].xxxx\n"
    "ADD OUT[0], IN[0][0], IMM[0].xxzz\n"
    "MOV OUT[1], IN[0][1]\n"
    "EMIT IMM[1].xxxx\n"
    "END\n";

static void test_points_to_squares(void **state)
{
    (void)state;
    tv_pipe_ctx *ctx = scene(fs_flat, false);
    bind_gs(ctx, gs_square);
    vert v[2] = {V(4, 4, 0, 1, 0, 0, 1), V(12, 10, 0, 0, 0, 1, 1)};
    vertices(ctx, v, 2);
    assert_int_equal(draw(ctx, PRIM_POINTS, 2), 0);
    /* squares [2, 6) x [2, 6) red and [10, 14) x [8, 12) blue: pixel centres 2.5 .. 5.5 */
    int lit = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            const uint8_t *p = pixel(ctx, x, y);
            bool red = x >= 2 && x < 6 && y >= 2 && y < 6;
            bool blue = x >= 10 && x < 14 && y >= 8 && y < 12;
            assert_int_equal(p[0], red ? 255 : 0);
            assert_int_equal(p[2], blue ? 255 : 0);
            assert_int_equal(p[3], red || blue ? 255 : 0);
            lit += p[3] != 0;
        }
    assert_int_equal(lit, 32);
    tv_pipe_destroy(ctx);
}

/* Two invocations per triangle: invocation 0 as given, invocation 1 moved 8 pixels right;
 * colour (PRIM_ID / 4, invocation, 0, 1), PRIMID output = PRIM_ID + 10. */
static const char gs_invocations[] =
    "GEOM\n"
    "PROPERTY GS_INPUT_PRIMITIVE TRIANGLES\n"
    "PROPERTY GS_OUTPUT_PRIMITIVE TRIANGLE_STRIP\n"
    "PROPERTY GS_MAX_OUTPUT_VERTICES 3\n"
    "PROPERTY GS_INVOCATIONS 2\n"
    "DCL IN[][0], POSITION\n"
    "DCL SV[0], INVOCATIONID\n"
    "DCL SV[1], PRIM_ID\n"
    "DCL OUT[0], POSITION\n"
    "DCL OUT[1], GENERIC[0]\n"
    "DCL OUT[2], PRIM_ID\n"
    "DCL TEMP[0..2]\n"
    "IMM[0] FLT32 {1.0, 0.25, 0.0, 0.0}\n"
    "IMM[1] UINT32 {0, 10, 0, 0}\n"
    "U2F TEMP[0].x, SV[0].xxxx\n"
    "U2F TEMP[0].y, SV[1].xxxx\n"
    "MUL TEMP[1].x, TEMP[0].yyyy, IMM[0].yyyy\n"
    "MOV TEMP[1].y, TEMP[0].xxxx\n"
    "MOV TEMP[1].zw, IMM[0].zzzx\n"
    "MOV TEMP[2], IMM[0].zzzz\n"
    "MOV TEMP[2].x, TEMP[0].xxxx\n"
    "ADD OUT[0], IN[0][0], TEMP[2]\n"
    "MOV OUT[1], TEMP[1]\n"
    "UADD OUT[2].x, SV[1].xxxx, IMM[1].yyyy\n"
    "EMIT IMM[1].xxxx\n"
    "ADD OUT[0], IN[1][0], TEMP[2]\n"
    "MOV OUT[1], TEMP[1]\n"
    "UADD OUT[2].x, SV[1].xxxx, IMM[1].yyyy\n"
    "EMIT IMM[1].xxxx\n"
    "ADD OUT[0], IN[2][0], TEMP[2]\n"
    "MOV OUT[1], TEMP[1]\n"
    "UADD OUT[2].x, SV[1].xxxx, IMM[1].yyyy\n"
    "EMIT IMM[1].xxxx\n"
    "END\n";

/* colour = (GENERIC[0].xy, PRIMID / 255, 1) */
static const char fs_primid[] =
    "FRAG\n"
    "DCL IN[0], GENERIC[0], CONSTANT\n"
    "DCL IN[1], PRIM_ID, CONSTANT\n"
    "DCL OUT[0], COLOR\n"
    "DCL TEMP[0]\n"
    "IMM[0] FLT32 {0.003921568627451, 1.0, 0.0, 0.0}\n"
    "MOV TEMP[0], IN[0]\n"
    "U2F TEMP[0].z, IN[1].xxxx\n"
    "MUL TEMP[0].z, TEMP[0].zzzz, IMM[0].xxxx\n"
    "MOV TEMP[0].w, IMM[0].yyyy\n"
    "MOV OUT[0], TEMP[0]\n"
    "END\n";

static void check_invocations(tv_pipe_ctx *ctx)
{
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            const uint8_t *p = pixel(ctx, x, y);
            int lx = x % 8;
            /* strip (0,0) (8,0) (0,16) (8,16): triangle 0 holds the centres with
             * 2 (x + 0.5) + (y + 0.5) < 16 (none lies on that edge), triangle 1 the rest */
            int prim = 2 * lx + y <= 14 ? 0 : 1;
            assert_int_equal(p[0], prim ? 64 : 0);          /* 0.25 * 255 = 63.75 */
            assert_int_equal(p[1], x >= 8 ? 255 : 0);       /* invocation */
            assert_int_equal(p[2], 10 + prim);              /* PRIMID from the GS */
            assert_int_equal(p[3], 255);
        }
}

static void test_invocations_and_primitive_id(void **state)
{
    (void)state;
    tv_pipe_ctx *ctx = scene(fs_primid, false);
    bind_gs(ctx, gs_invocations);
    vert v[4] = {V(0, 0, 0, 0, 0, 0, 1), V(8, 0, 0, 0, 0, 0, 1), V(0, 16, 0, 0, 0, 0, 1),
                 V(8, 16, 0, 0, 0, 0, 1)};
    vertices(ctx, v, 4);
    assert_int_equal(tv_pipe_query_create(ctx, 71, TV_PIPE_QUERY_PRIMITIVES_GENERATED, 0), 0);
    assert_int_equal(draw_queried(ctx, PRIM_TRIANGLE_STRIP, 4, 1, (const uint32_t[]){71}), 0);
    uint64_t r;
    assert_int_equal(tv_pipe_query_result(ctx, 71, &r), 0);
    assert_int_equal(r, 4);        /* 2 triangles x 2 invocations */
    check_invocations(ctx);
    /* the plain interpreter draws the same bytes */
    uint8_t optimised[W * H * 4];
    memcpy(optimised, pixel(ctx, 0, 0), sizeof optimised);
    const uint32_t black[4] = {0, 0, 0, 0};
    assert_int_equal(tv_pipe_clear(ctx, TV_PIPE_CLEAR_COLOR0, black, 1.0, 0), 0);
    tv_pipe_set_plain(ctx, true);
    assert_int_equal(draw(ctx, PRIM_TRIANGLE_STRIP, 4), 0);
    assert_memory_equal(pixel(ctx, 0, 0), optimised, sizeof optimised);
    tv_pipe_destroy(ctx);
}

/* Triangles with adjacency: the GS draws the triangle of the adjacent vertices 1, 3, 5. */
static const char gs_adjacent[] =
    "GEOM\n"
    "PROPERTY GS_INPUT_PRIMITIVE TRIANGLES_ADJACENCY\n"
    "PROPERTY GS_OUTPUT_PRIMITIVE TRIANGLE_STRIP\n"
    "PROPERTY GS_MAX_OUTPUT_VERTICES 3\n"
    "PROPERTY GS_INVOCATIONS 1\n"
    "DCL IN[][0], POSITION\n"
    "DCL IN[][1], GENERIC[0]\n"
    "DCL OUT[0], POSITION\n"
    "DCL OUT[1], GENERIC[0]\n"
    "IMM[0] UINT32 {0, 0, 0, 0}\n"
    "MOV OUT[0], IN[1][0]\n"
    "MOV OUT[1], IN[1][1]\n"
    "EMIT IMM[0].xxxx\n"
    "MOV OUT[0], IN[3][0]\n"
    "MOV OUT[1], IN[3][1]\n"
    "EMIT IMM[0].xxxx\n"
    "MOV OUT[0], IN[5][0]\n"
    "MOV OUT[1], IN[5][1]\n"
    "EMIT IMM[0].xxxx\n"
    "END\n";

static void test_triangles_with_adjacency(void **state)
{
    (void)state;
    tv_pipe_ctx *ctx = scene(fs_flat, false);
    bind_gs(ctx, gs_adjacent);
    /* vertices 0, 2, 4: a triangle in the top-left corner; 1, 3, 5: the bottom-right
     * half of the target, x + y >= 16 (green; the provoking vertex is the last, 5) */
    vert v[6] = {V(0, 0, 0, 1, 0, 0, 1), V(16, 0, 0, 0, 1, 0, 1), V(4, 0, 0, 1, 0, 0, 1),
                 V(16, 16, 0, 0, 1, 0, 1), V(0, 4, 0, 1, 0, 0, 1), V(0, 16, 0, 0, 1, 0, 1)};
    vertices(ctx, v, 6);
    assert_int_equal(draw(ctx, PRIM_TRIANGLES_ADJACENCY, 6), 0);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            /* centre (x + .5, y + .5) beyond the diagonal x + y = 16 (ties: x + y + 1 =
             * 16 lies on it; the diagonal is the triangle's top-left edge: lit) */
            bool in = x + y + 1 >= 16;
            assert_int_equal(pixel(ctx, x, y)[0], 0);
            assert_int_equal(pixel(ctx, x, y)[1], in ? 255 : 0);
        }
    tv_pipe_destroy(ctx);
}

/* Each point becomes a line strip of three vertices whose GENERIC[0].x counts up by 1. */
static const char gs_strip[] =
    "GEOM\n"
    "PROPERTY GS_INPUT_PRIMITIVE POINTS\n"
    "PROPERTY GS_OUTPUT_PRIMITIVE LINE_STRIP\n"
    "PROPERTY GS_MAX_OUTPUT_VERTICES 3\n"
    "PROPERTY GS_INVOCATIONS 1\n"
    "DCL IN[][0], POSITION\n"
    "DCL IN[][1], GENERIC[0]\n"
    "DCL OUT[0], POSITION\n"
    "DCL OUT[1], GENERIC[0]\n"
    "DCL TEMP[0]\n"
    "IMM[0] FLT32 {1.0, 0.0, 0.0, 0.0}\n"
    "IMM[1] UINT32 {0, 0, 0, 0}\n"
    "MOV TEMP[0], IN[0][1]\n"
    "MOV OUT[0], IN[0][0]\n"
    "MOV OUT[1], TEMP[0]\n"
    "EMIT IMM[1].xxxx\n"
    "ADD TEMP[0].x, TEMP[0].xxxx, IMM[0].xxxx\n"
    "MOV OUT[0], IN[0][0]\n"
    "MOV OUT[1], TEMP[0]\n"
    "EMIT IMM[1].xxxx\n"
    "ADD TEMP[0].x, TEMP[0].xxxx, IMM[0].xxxx\n"
    "MOV OUT[0], IN[0][0]\n"
    "MOV OUT[1], TEMP[0]\n"
    "EMIT IMM[1].xxxx\n"
    "END\n";

static void test_stream_output_of_the_geometry_stage(void **state)
{
    (void)state;
    tv_pipe_ctx *ctx = scene(fs_flat, false);
    bind_gs(ctx, gs_strip);
    vert v[2] = {V(4, 4, 0, 5, 0, 0, 1), V(12, 10, 0, 20, 0, 0, 1)};
    vertices(ctx, v, 2);
    tv_pipe_stream_output_info so;
    memset(&so, 0, sizeof so);
    so.num_outputs = 1;
    so.stride[0] = 1;
    so.output[0] = (tv_pipe_stream_output){1, 0, 1, 0, 0, 0};   /* OUT[1].x */
    assert_int_equal(tv_pipe_shader_set_stream_output(ctx, GS, &so), 0);
    enum { SO0 = 40 };
    tv_pipe_resource_desc b0 = {0, FMT_R8, 16, 64, 1, 1, 1, 0, 0};
    assert_int_equal(tv_pipe_resource_create(ctx, SO0, &b0), 0);
    tv_pipe_so_target t[1] = {{SO0, 0, 64, 0}};
    assert_int_equal(tv_pipe_set_stream_output_targets(ctx, 1, t, 0), 0);
    assert_int_equal(tv_pipe_query_create(ctx, 70, TV_PIPE_QUERY_PRIMITIVES_EMITTED, 0), 0);
    assert_int_equal(tv_pipe_query_create(ctx, 71, TV_PIPE_QUERY_PRIMITIVES_GENERATED, 0), 0);
    assert_int_equal(tv_pipe_begin_query(ctx, 70), 0);
    assert_int_equal(tv_pipe_begin_query(ctx, 71), 0);
    rasterizer_discard(ctx, true);
    assert_int_equal(draw(ctx, PRIM_POINTS, 2), 0);
    assert_int_equal(tv_pipe_end_query(ctx, 70), 0);
    assert_int_equal(tv_pipe_end_query(ctx, 71), 0);
    /* two lines per point, each written as its two vertices */
    static const float want[8] = {5, 6, 6, 7, 20, 21, 21, 22};
    const float *o = (const float *)(const void *)tv_pipe_resource_data(ctx, SO0);
    for (int i = 0; i < 8; i++)
        assert_true(o[i] == want[i]);
    assert_query_result(ctx, 70, 4);
    assert_query_result(ctx, 71, 4);
    /* nothing was rasterised */
    assert_blank(ctx);
    tv_pipe_destroy(ctx);
}

/* Vertex streams: each point goes to stream 0 as it is and to stream 1 as two points of
 * GENERIC[0].x + 10 and + 11; each stream's outputs have their own buffer and queries. */
static const char gs_streams[] =
    "GEOM\n"
    "PROPERTY GS_INPUT_PRIMITIVE POINTS\n"
    "PROPERTY GS_OUTPUT_PRIMITIVE POINTS\n"
    "PROPERTY GS_MAX_OUTPUT_VERTICES 3\n"
    "PROPERTY GS_INVOCATIONS 1\n"
    "DCL IN[][0], POSITION\n"
    "DCL IN[][1], GENERIC[0]\n"
    "DCL OUT[0], POSITION\n"
    "DCL OUT[1], GENERIC[0]\n"
    "DCL TEMP[0]\n"
    "IMM[0] FLT32 {10.0, 1.0, 0.0, 0.0}\n"
    "IMM[1] UINT32 {0, 1, 0, 0}\n"
    "MOV TEMP[0], IN[0][1]\n"
    "MOV OUT[0], IN[0][0]\nMOV OUT[1], TEMP[0]\nEMIT IMM[1].xxxx\n"
    "ADD TEMP[0].x, TEMP[0].xxxx, IMM[0].xxxx\n"
    "MOV OUT[0], IN[0][0]\nMOV OUT[1], TEMP[0]\nEMIT IMM[1].yyyy\n"
    "ADD TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy\n"
    "MOV OUT[0], IN[0][0]\nMOV OUT[1], TEMP[0]\nEMIT IMM[1].yyyy\n"
    "END\n";

static void test_vertex_streams(void **state)
{
    (void)state;
    tv_pipe_ctx *ctx = scene(fs_flat, false);
    bind_gs(ctx, gs_streams);
    vert v[2] = {V(4, 4, 0, 5, 0, 0, 1), V(12, 10, 0, 20, 0, 0, 1)};
    vertices(ctx, v, 2);
    tv_pipe_stream_output_info so;
    memset(&so, 0, sizeof so);
    so.num_outputs = 2;
    so.stride[0] = so.stride[1] = 1;
    so.output[0] = (tv_pipe_stream_output){1, 0, 1, 0, 0, 0};   /* stream 0 -> buffer 0 */
    so.output[1] = (tv_pipe_stream_output){1, 0, 1, 1, 1, 0};   /* stream 1 -> buffer 1 */
    assert_int_equal(tv_pipe_shader_set_stream_output(ctx, GS, &so), 0);
    enum { SO0 = 40, SO1 = 41 };
    tv_pipe_resource_desc b0 = {0, FMT_R8, 16, 64, 1, 1, 1, 0, 0};
    assert_int_equal(tv_pipe_resource_create(ctx, SO0, &b0), 0);
    assert_int_equal(tv_pipe_resource_create(ctx, SO1, &b0), 0);
    tv_pipe_so_target t[2] = {{SO0, 0, 64, 0}, {SO1, 0, 64, 0}};
    assert_int_equal(tv_pipe_set_stream_output_targets(ctx, 2, t, 0), 0);
    /* queries of stream 0 and 1 */
    assert_int_equal(tv_pipe_query_create(ctx, 70, TV_PIPE_QUERY_PRIMITIVES_GENERATED, 0), 0);
    assert_int_equal(tv_pipe_query_create(ctx, 71, TV_PIPE_QUERY_PRIMITIVES_GENERATED, 1), 0);
    assert_int_equal(tv_pipe_query_create(ctx, 72, TV_PIPE_QUERY_PRIMITIVES_EMITTED, 1), 0);
    assert_int_equal(draw_queried(ctx, PRIM_POINTS, 2, 3, (const uint32_t[]){70, 71, 72}), 0);
    const float *o0 = (const float *)(const void *)tv_pipe_resource_data(ctx, SO0);
    const float *o1 = (const float *)(const void *)tv_pipe_resource_data(ctx, SO1);
    assert_true(o0[0] == 5 && o0[1] == 20 && o0[2] == 0);
    assert_true(o1[0] == 15 && o1[1] == 16 && o1[2] == 30 && o1[3] == 31 && o1[4] == 0);
    static const uint64_t want[3] = {2, 4, 4};
    for (uint32_t q = 0; q < 3; q++) {
        assert_query_result(ctx, 70 + q, want[q]);
    }
    /* only stream 0 is rasterised: two points of the state's size 1 */
    int lit = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            lit += pixel(ctx, x, y)[3] != 0;
    assert_int_equal(lit, 2);
    /* a stream index past 3, and a stream other than 0 on a vertex shader, are named */
    so.output[1].stream = 4;
    assert_int_equal(tv_pipe_shader_set_stream_output(ctx, GS, &so), -1);
    so.output[1].stream = 1;
    assert_int_equal(tv_pipe_shader_set_stream_output(ctx, VS, &so), -1);
    assert_non_null(strstr(tv_pipe_error(ctx), "only a geometry shader has more than stream 0"));
    assert_int_equal(tv_pipe_query_create(ctx, 73, TV_PIPE_QUERY_OCCLUSION_COUNTER, 1), -1);
    tv_pipe_destroy(ctx);
}

/* Layered rendering: each triangle drawn twice, to layer 0 in its colour and to layer 1
 * in green; a third copy to layer 5, past the framebuffer's 2 layers, is not drawn. */
static const char gs_layers[] =
    "GEOM\n"
    "PROPERTY GS_INPUT_PRIMITIVE TRIANGLES\n"
    "PROPERTY GS_OUTPUT_PRIMITIVE TRIANGLE_STRIP\n"
    "PROPERTY GS_MAX_OUTPUT_VERTICES 9\n"
    "PROPERTY GS_INVOCATIONS 1\n"
    "DCL IN[][0], POSITION\n"
    "DCL IN[][1], GENERIC[0]\n"
    "DCL OUT[0], POSITION\n"
    "DCL OUT[1], GENERIC[0]\n"
    "DCL OUT[2], LAYER\n"
    "IMM[0] UINT32 {0, 1, 5, 0}\n"
    "IMM[1] FLT32 {0.0, 1.0, 0.0, 1.0}\n"
    "MOV OUT[0], IN[0][0]\nMOV OUT[1], IN[0][1]\nMOV OUT[2].x, IMM[0].xxxx\nEMIT IMM[0].xxxx\n"
    "MOV OUT[0], IN[1][0]\nMOV OUT[1], IN[1][1]\nMOV OUT[2].x, IMM[0].xxxx\nEMIT IMM[0].xxxx\n"
    "MOV OUT[0], IN[2][0]\nMOV OUT[1], IN[2][1]\nMOV OUT[2].x, IMM[0].xxxx\nEMIT IMM[0].xxxx\n"
    "ENDPRIM IMM[0].xxxx\n"
    "MOV OUT[0], IN[0][0]\nMOV OUT[1], IMM[1]\nMOV OUT[2].x, IMM[0].yyyy\nEMIT IMM[0].xxxx\n"
    "MOV OUT[0], IN[1][0]\nMOV OUT[1], IMM[1]\nMOV OUT[2].x, IMM[0].yyyy\nEMIT IMM[0].xxxx\n"
    "MOV OUT[0], IN[2][0]\nMOV OUT[1], IMM[1]\nMOV OUT[2].x, IMM[0].yyyy\nEMIT IMM[0].xxxx\n"
    "ENDPRIM IMM[0].xxxx\n"
    "MOV OUT[0], IN[0][0]\nMOV OUT[1], IMM[1]\nMOV OUT[2].x, IMM[0].zzzz\nEMIT IMM[0].xxxx\n"
    "MOV OUT[0], IN[1][0]\nMOV OUT[1], IMM[1]\nMOV OUT[2].x, IMM[0].zzzz\nEMIT IMM[0].xxxx\n"
    "MOV OUT[0], IN[2][0]\nMOV OUT[1], IMM[1]\nMOV OUT[2].x, IMM[0].zzzz\nEMIT IMM[0].xxxx\n"
    "END\n";

static void test_layered_rendering(void **state)
{
    (void)state;
    tv_pipe_ctx *ctx = scene(fs_flat, false);
    bind_gs(ctx, gs_layers);
    enum { ARR = 60, ASURF = 61 };
    tv_pipe_resource_desc ad = {7 /* 2D_ARRAY */, FMT_RGBA8, 2, W, H, 1, 2, 0, 0};
    assert_int_equal(tv_pipe_resource_create(ctx, ARR, &ad), 0);
    assert_int_equal(tv_pipe_surface_create(ctx, ASURF, ARR, FMT_RGBA8, 0, 0, 1), 0);
    uint32_t cb = ASURF;
    assert_int_equal(tv_pipe_set_framebuffer(ctx, 1, &cb, 0), 0);
    /* a strip over the whole target */
    vert v[4] = {V(0, 0, 0, 1, 0, 0, 1), V(16, 0, 0, 1, 0, 0, 1), V(0, 16, 0, 1, 0, 0, 1),
                 V(16, 16, 0, 1, 0, 0, 1)};
    vertices(ctx, v, 4);
    assert_int_equal(draw(ctx, PRIM_TRIANGLE_STRIP, 4), 0);
    const uint8_t *l0 = tv_pipe_resource_data(ctx, ARR), *l1 = l0 + W * H * 4;
    for (int i = 0; i < W * H; i++) {
        assert_int_equal(l0[4 * i], 255);          /* layer 0: red */
        assert_int_equal(l0[4 * i + 1], 0);
        assert_int_equal(l1[4 * i], 0);            /* layer 1: green */
        assert_int_equal(l1[4 * i + 1], 255);
    }
    tv_pipe_destroy(ctx);
}

/* A framebuffer that is not layered (surfaces of one layer: a 2D target, or one layer of
 * an array attached alone) ignores the LAYER output: GL draws every primitive into the one
 * image, whatever layer it names (piglit's arb_fragment_layer_viewport
 * layer-gs-write-simple). gs_layers' three copies (layer 0 red, layers 1 and 5 green) all
 * land in the image, the last green; attached as layer 1 of the array, the array's layer 0
 * stays untouched. */
static void test_layer_ignored_without_layers(void **state)
{
    (void)state;
    tv_pipe_ctx *ctx = scene(fs_flat, false);
    bind_gs(ctx, gs_layers);
    vert v[4] = {V(0, 0, 0, 1, 0, 0, 1), V(16, 0, 0, 1, 0, 0, 1), V(0, 16, 0, 1, 0, 0, 1),
                 V(16, 16, 0, 1, 0, 0, 1)};
    vertices(ctx, v, 4);
    assert_int_equal(draw(ctx, PRIM_TRIANGLE_STRIP, 4), 0);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            const uint8_t *p = pixel(ctx, x, y);
            assert_int_equal(p[0], 0);
            assert_int_equal(p[1], 255);
            assert_int_equal(p[3], 255);
        }
    enum { ARR = 60, ASURF = 61 };
    tv_pipe_resource_desc ad = {7 /* 2D_ARRAY */, FMT_RGBA8, 2, W, H, 1, 2, 0, 0};
    assert_int_equal(tv_pipe_resource_create(ctx, ARR, &ad), 0);
    assert_int_equal(tv_pipe_surface_create(ctx, ASURF, ARR, FMT_RGBA8, 0, 1, 1), 0);
    uint32_t cb = ASURF;
    assert_int_equal(tv_pipe_set_framebuffer(ctx, 1, &cb, 0), 0);
    assert_int_equal(draw(ctx, PRIM_TRIANGLE_STRIP, 4), 0);
    const uint8_t *l0 = tv_pipe_resource_data(ctx, ARR), *l1 = l0 + W * H * 4;
    for (int i = 0; i < W * H; i++) {
        assert_int_equal(l0[4 * i + 3], 0);        /* layer 0: not drawn */
        assert_int_equal(l1[4 * i], 0);            /* layer 1: green */
        assert_int_equal(l1[4 * i + 1], 255);
        assert_int_equal(l1[4 * i + 3], 255);
    }
    tv_pipe_destroy(ctx);
}

/* Viewport arrays: two invocations draw each triangle through viewport 0 (the target's
 * left half) in red and viewport 1 (the right half, scissored to rows 0-7) in green. */
static const char gs_viewports[] =
    "GEOM\n"
    "PROPERTY GS_INPUT_PRIMITIVE TRIANGLES\n"
    "PROPERTY GS_OUTPUT_PRIMITIVE TRIANGLE_STRIP\n"
    "PROPERTY GS_MAX_OUTPUT_VERTICES 3\n"
    "PROPERTY GS_INVOCATIONS 2\n"
    "DCL IN[][0], POSITION\n"
    "DCL SV[0], INVOCATIONID\n"
    "DCL OUT[0], POSITION\n"
    "DCL OUT[1], GENERIC[0]\n"
    "DCL OUT[2], VIEWPORT_INDEX\n"
    "DCL TEMP[0]\n"
    "IMM[0] FLT32 {1.0, 0.0, 0.0, 1.0}\n"
    "IMM[1] UINT32 {0, 0, 0, 0}\n"
    "U2F TEMP[0].y, SV[0].xxxx\n"
    "ADD TEMP[0].x, IMM[0].xxxx, -TEMP[0].yyyy\n"
    "MOV TEMP[0].zw, IMM[0].zzzw\n"
    "MOV OUT[0], IN[0][0]\nMOV OUT[1], TEMP[0]\nMOV OUT[2].x, SV[0].xxxx\nEMIT IMM[1].xxxx\n"
    "MOV OUT[0], IN[1][0]\nMOV OUT[1], TEMP[0]\nMOV OUT[2].x, SV[0].xxxx\nEMIT IMM[1].xxxx\n"
    "MOV OUT[0], IN[2][0]\nMOV OUT[1], TEMP[0]\nMOV OUT[2].x, SV[0].xxxx\nEMIT IMM[1].xxxx\n"
    "END\n";

static void test_viewport_arrays(void **state)
{
    (void)state;
    tv_pipe_ctx *ctx = scene(fs_flat, false);
    bind_gs(ctx, gs_viewports);
    tv_pipe_viewport vps[2] = {{{4.0f, 8.0f, 0.5f}, {4.0f, 8.0f, 0.5f}},
                               {{4.0f, 8.0f, 0.5f}, {12.0f, 8.0f, 0.5f}}};
    assert_int_equal(tv_pipe_set_viewports(ctx, 0, 2, vps), 0);
    tv_pipe_scissor sc[2] = {{0, 0, 16, 16}, {8, 0, 16, 8}};
    assert_int_equal(tv_pipe_set_scissors(ctx, 0, 2, sc), 0);
    tv_pipe_rasterizer_state rs;
    tv_pipe_rasterizer_default(&rs);
    rs.scissor = true;
    assert_int_equal(tv_pipe_set_rasterizer(ctx, &rs), 0);
    /* a strip over NDC [-1, 1]^2 (window coordinates of the scene's own viewport) */
    vert v[4] = {V(0, 0, 0, 0, 0, 0, 1), V(16, 0, 0, 0, 0, 0, 1), V(0, 16, 0, 0, 0, 0, 1),
                 V(16, 16, 0, 0, 0, 0, 1)};
    vertices(ctx, v, 4);
    assert_int_equal(draw(ctx, PRIM_TRIANGLE_STRIP, 4), 0);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            const uint8_t *p = pixel(ctx, x, y);
            bool red = x < 8, green = x >= 8 && y < 8;
            assert_int_equal(p[0], red ? 255 : 0);
            assert_int_equal(p[1], green ? 255 : 0);
        }
    tv_pipe_destroy(ctx);
}

static void test_geometry_errors(void **state)
{
    (void)state;
    tv_pipe_ctx *ctx = scene(fs_flat, false);
    bind_gs(ctx, gs_square);
    vert v[4] = {V(0, 0, 0, 1, 0, 0, 1), V(16, 0, 0, 1, 0, 0, 1), V(0, 16, 0, 1, 0, 0, 1),
                 V(16, 16, 0, 1, 0, 0, 1)};
    vertices(ctx, v, 4);
    assert_int_equal(draw(ctx, PRIM_TRIANGLES, 3), -1);
    assert_non_null(strstr(tv_pipe_error(ctx),
                           "the geometry shader takes POINTS, the draw gives TRIANGLES"));
    assert_int_equal(draw(ctx, 7 /* QUADS */, 4), -1);
    assert_non_null(strstr(tv_pipe_error(ctx), "the draw gives QUADS"));
    /* a vertex shader's text created as the geometry shader */
    assert_int_equal(tv_pipe_shader_create(ctx, GS + 1, TV_PIPE_STAGE_GEOMETRY, vs_text,
                                           strlen(vs_text) + 1), 0);
    assert_int_equal(tv_pipe_bind_shader(ctx, TV_PIPE_STAGE_GEOMETRY, GS + 1), 0);
    assert_int_equal(draw(ctx, PRIM_POINTS, 1), -1);
    assert_non_null(strstr(tv_pipe_error(ctx), "is not a GEOM program"));
    assert_blank(ctx);
    tv_pipe_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_points_to_squares),
        cmocka_unit_test(test_invocations_and_primitive_id),
        cmocka_unit_test(test_triangles_with_adjacency),
        cmocka_unit_test(test_stream_output_of_the_geometry_stage),
        cmocka_unit_test(test_vertex_streams),
        cmocka_unit_test(test_layered_rendering),
        cmocka_unit_test(test_layer_ignored_without_layers),
        cmocka_unit_test(test_viewport_arrays),
        cmocka_unit_test(test_geometry_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
