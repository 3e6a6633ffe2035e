/* Tessellation in draws (pipe_draw_tess.c): the evaluated points captured by stream output
 * equal the tessellator's points in its primitive order, patch by patch and instance by
 * instance (control levels, PRIM_ID, per-vertex inputs linked through the control shader);
 * without a control shader the state's levels and the vertex shader's outputs; a
 * level-1 triangle patch covers exactly the pixels of the same triangle drawn directly;
 * the named errors; the points counted against the work quota as they are made. */
#include "helper_draw.h"

#include <stdlib.h>
#include <string.h>

#include "texvm/tess.h"

enum { TCS = 22, TES = 23, SOB = 40, PRIM_PATCHES = 14 };

static const char tcs_text[] =
    "TESS_CTRL\n"
    "PROPERTY TCS_VERTICES_OUT 4\n"
    "DCL IN[][0], POSITION\n"
    "DCL SV[0], INVOCATIONID\n"
    "DCL OUT[][0], POSITION\n"
    "DCL OUT[1], TESSOUTER\n"
    "DCL OUT[2], TESSINNER\n"
    "DCL ADDR[0]\n"
    "IMM[0] FLT32 {3.5, 2.0, 5.0, 1.25}\n"
    "IMM[1] FLT32 {4.5, 2.2, 0.0, 0.0}\n"
    "UARL ADDR[0].x, SV[0].xxxx\n"
    "MOV OUT[ADDR[0].x][0], IN[ADDR[0].x][0]\n"
    "MOV OUT[1], IMM[0]\n"
    "MOV OUT[2], IMM[1]\n"
    "END\n";

static const char tes_quads[] =
    "TESS_EVAL\n"
    "PROPERTY TES_PRIM_MODE 7\n"
    "PROPERTY TES_SPACING 0\n"
    "PROPERTY TES_VERTEX_ORDER_CW 0\n"
    "PROPERTY TES_POINT_MODE 0\n"
    "DCL IN[][0], POSITION\n"
    "DCL SV[0], TESSCOORD\n"
    "DCL SV[1], PRIM_ID\n"
    "DCL OUT[0], POSITION\n"
    "DCL OUT[1], GENERIC[0]\n"
    "MOV OUT[0], IN[0][0]\n"
    "MOV OUT[1].xy, SV[0].xyxx\n"
    "U2F OUT[1].z, SV[1].xxxx\n"
    "MOV OUT[1].w, IN[3][0].xxxx\n"
    "END\n";

static const char tes_isolines[] =
    "TESS_EVAL\n"
    "PROPERTY TES_PRIM_MODE 1\n"
    "PROPERTY TES_SPACING 2\n"
    "PROPERTY TES_VERTEX_ORDER_CW 0\n"
    "PROPERTY TES_POINT_MODE 0\n"
    "DCL IN[][0], POSITION\n"
    "DCL SV[0], TESSCOORD\n"
    "DCL SV[1], TESSOUTER\n"
    "DCL OUT[0], POSITION\n"
    "DCL OUT[1], GENERIC[0]\n"
    "MOV OUT[0], IN[0][0]\n"
    "MOV OUT[1].xy, SV[0].xyxx\n"
    "MOV OUT[1].zw, SV[1].xxxy\n"
    "END\n";

/* position = u * IN[0] + v * IN[1] + w * IN[2], colour from vertex 0 */
static const char tes_triangles[] =
    "TESS_EVAL\n"
    "PROPERTY TES_PRIM_MODE 4\n"
    "PROPERTY TES_SPACING 2\n"
    "PROPERTY TES_VERTEX_ORDER_CW 0\n"
    "PROPERTY TES_POINT_MODE 0\n"
    "DCL IN[][0], POSITION\n"
    "DCL IN[][1], GENERIC[0]\n"
    "DCL SV[0], TESSCOORD\n"
    "DCL OUT[0], POSITION\n"
    "DCL OUT[1], GENERIC[0]\n"
    "DCL TEMP[0..1]\n"
    "MUL TEMP[0], IN[1][0], SV[0].yyyy\n"
    "MAD TEMP[1], IN[0][0], SV[0].xxxx, TEMP[0]\n"
    "MAD OUT[0], IN[2][0], SV[0].zzzz, TEMP[1]\n"
    "MOV OUT[1], IN[0][1]\n"
    "END\n";

static void shader(tv_pipe_ctx *ctx, uint32_t handle, uint32_t stage, const char *text)
{
    if (tv_pipe_shader_create(ctx, handle, stage, text, strlen(text) + 1))
        fail_msg("%s", tv_pipe_error(ctx));
    assert_int_equal(tv_pipe_bind_shader(ctx, stage, handle), 0);
}

static int draw_patches(tv_pipe_ctx *ctx, uint32_t count, uint32_t per_patch, uint32_t inst)
{
    tv_pipe_draw_info info;
    memset(&info, 0, sizeof info);
    info.mode = PRIM_PATCHES;
    info.count = count;
    info.instance_count = inst;
    info.vertices_per_patch = (uint8_t)per_patch;
    int rc = tv_pipe_draw_vbo(ctx, &info);
    if (rc)
        print_message("draw_vbo: %s\n", tv_pipe_error(ctx));
    return rc;
}

/* stream output of GENERIC[0] (4 floats a vertex) into buffer SOB under rasterizer discard,
 * PRIMITIVES_GENERATED as query 70 */
static const float *capture(tv_pipe_ctx *ctx, uint32_t last_stage_shader, uint32_t bytes)
{
    tv_pipe_stream_output_info so;
    memset(&so, 0, sizeof so);
    so.num_outputs = 1;
    so.stride[0] = 4;
    so.output[0] = (tv_pipe_stream_output){1, 0, 4, 0, 0, 0};
    assert_int_equal(tv_pipe_shader_set_stream_output(ctx, last_stage_shader, &so), 0);
    tv_pipe_resource_desc b = {0, FMT_R8, 16, bytes, 1, 1, 1, 0, 0};
    assert_int_equal(tv_pipe_resource_create(ctx, SOB, &b), 0);
    tv_pipe_so_target t[1] = {{SOB, 0, bytes, 0}};
    assert_int_equal(tv_pipe_set_stream_output_targets(ctx, 1, t, 0), 0);
    rasterizer_discard(ctx, true);
    assert_int_equal(tv_pipe_query_create(ctx, 70, TV_PIPE_QUERY_PRIMITIVES_GENERATED, 0), 0);
    assert_int_equal(tv_pipe_begin_query(ctx, 70), 0);
    return (const float *)(const void *)tv_pipe_resource_data(ctx, SOB);
}

static uint64_t generated(tv_pipe_ctx *ctx)
{
    uint64_t r = 0;
    assert_int_equal(tv_pipe_end_query(ctx, 70), 0);
    assert_int_equal(tv_pipe_query_result(ctx, 70, &r), 0);
    return r;
}

/* 2 quad patches x 2 instances through the control shader's levels: every evaluated
 * vertex is the tessellator's point, in its order, with the patch's PRIM_ID (restarting
 * per instance) and the patch's vertex 3 read through the control shader */
static void test_quads_through_control(void **state)
{
    (void)state;
    tv_pipe_ctx *ctx = scene(fs_smooth, false);
    vert v[8];
    for (int i = 0; i < 8; i++)
        v[i] = V((float)i, (float)(2 * i), 0, 0, 0, 0, 1);
    vertices(ctx, v, 8);
    shader(ctx, TCS, TV_PIPE_STAGE_TESS_CTRL, tcs_text);
    shader(ctx, TES, TV_PIPE_STAGE_TESS_EVAL, tes_quads);
    const float outer[4] = {3.5f, 2.0f, 5.0f, 1.25f}, inner[2] = {4.5f, 2.2f};
    tv_tess_result r;
    assert_true(tv_tess_patch(TV_TESS_QUADS, TV_TESS_FRACTIONAL_ODD, false, false, outer, inner,
                              &r));
    assert_true(r.num_indices > 0 && r.num_indices % 3 == 0);
    uint32_t bytes = 4 * r.num_indices * 16 + 16;
    const float *o = capture(ctx, TES, bytes);
    assert_int_equal(draw_patches(ctx, 8, 4, 2), 0);
    assert_int_equal(generated(ctx), 4 * r.num_indices / 3);
    size_t at = 0;
    for (int inst = 0; inst < 2; inst++)
        for (int k = 0; k < 2; k++)
            for (uint32_t i = 0; i < r.num_indices; i++, at += 4) {
                const tv_tess_point *p = &r.points[r.indices[i]];
                assert_true(o[at] == p->u && o[at + 1] == p->v);
                assert_true(o[at + 2] == (float)k);
                assert_true(o[at + 3] == nx((float)(4 * k + 3)));
            }
    assert_true(o[at] == 0.0f);  /* nothing past the last vertex */
    tv_tess_result_free(&r);
    tv_pipe_destroy(ctx);
}

/* isolines without a control shader: the state's levels (3 lines of 4 segments) reach the
 * tessellator and the evaluation shader's TESSOUTER */
static void test_isolines_default_levels(void **state)
{
    (void)state;
    tv_pipe_ctx *ctx = scene(fs_smooth, false);
    vert v[2] = {V(1, 1, 0, 0, 0, 0, 1), V(2, 2, 0, 0, 0, 0, 1)};
    vertices(ctx, v, 2);
    shader(ctx, TES, TV_PIPE_STAGE_TESS_EVAL, tes_isolines);
    const float outer[4] = {3, 4, 9, 9}, inner[2] = {9, 9};
    tv_pipe_set_tess_state(ctx, outer, inner);
    const float *o = capture(ctx, TES, 4096);
    assert_int_equal(draw_patches(ctx, 2, 2, 1), 0);
    assert_int_equal(generated(ctx), 12);
    /* u = k/4 exactly; v = the line's place in 16.16 (1/3 is 0x5555 / 2^16) */
    const float line_v[3] = {0.0f, 21845.0f / 65536.0f, 43691.0f / 65536.0f};
    for (int line = 0; line < 3; line++)
        for (int seg = 0; seg < 4; seg++)
            for (int e = 0; e < 2; e++) {
                const float *x = o + ((line * 4 + seg) * 2 + e) * 4;
                assert_true(x[0] == (float)(seg + e) / 4.0f);
                assert_true(x[1] == line_v[line]);
                assert_true(x[2] == 3.0f && x[3] == 4.0f);
            }
    tv_pipe_destroy(ctx);
}

/* a triangle patch at level 1 is the patch's triangle: the same pixels as drawing it */
static void test_level_one_triangle_pixels(void **state)
{
    (void)state;
    vert v[3] = {V(1.5f, 2.25f, 0, 0.25f, 0.5f, 1, 1), V(14.75f, 4.5f, 0, 0.25f, 0.5f, 1, 1),
                 V(5.25f, 15.5f, 0, 0.25f, 0.5f, 1, 1)};
    tv_pipe_ctx *direct = scene(fs_smooth, false);
    vertices(direct, v, 3);
    assert_int_equal(draw(direct, PRIM_TRIANGLES, 3), 0);
    tv_pipe_ctx *ctx = scene(fs_smooth, false);
    vertices(ctx, v, 3);
    shader(ctx, TES, TV_PIPE_STAGE_TESS_EVAL, tes_triangles);
    const float one[4] = {1, 1, 1, 1};
    tv_pipe_set_tess_state(ctx, one, one);
    assert_int_equal(draw_patches(ctx, 3, 3, 1), 0);
    int covered = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            assert_memory_equal(pixel(ctx, x, y), pixel(direct, x, y), 4);
            covered += pixel(ctx, x, y)[3] != 0;
        }
    assert_true(covered > 40);
    tv_pipe_destroy(ctx);
    tv_pipe_destroy(direct);
}

static void test_named_errors(void **state)
{
    (void)state;
    tv_pipe_ctx *ctx = scene(fs_smooth, false);
    vert v[3] = {V(1, 1, 0, 1, 1, 1, 1), V(9, 1, 0, 1, 1, 1, 1), V(1, 9, 0, 1, 1, 1, 1)};
    vertices(ctx, v, 3);
    assert_int_equal(draw_patches(ctx, 3, 3, 1), -1);
    assert_non_null(strstr(tv_pipe_error(ctx), "PATCHES without a tessellation evaluation"));
    shader(ctx, TCS, TV_PIPE_STAGE_TESS_CTRL, tcs_text);
    assert_int_equal(draw(ctx, PRIM_TRIANGLES, 3), -1);
    assert_non_null(strstr(tv_pipe_error(ctx), "control shader without an evaluation"));
    shader(ctx, TES, TV_PIPE_STAGE_TESS_EVAL, tes_triangles);
    assert_int_equal(draw(ctx, PRIM_TRIANGLES, 3), -1);
    assert_non_null(strstr(tv_pipe_error(ctx), "draws are of PATCHES, not TRIANGLES"));
    tv_pipe_destroy(ctx);
}

/* The tessellator's points count against the draw's work quota as they are made: an
 * isoline patch of 64 lines x 64 segments makes 64 x 65 = 4160 points, 130 warps of the
 * evaluation shader, which a quota of 200000 warp instructions (48 warps at the least
 * 4096 each) cannot run: the draw fails at patch 0, before the points of any later patch
 * are made or stored; 8 x 8 (72 points, 3 warps) draws. */
static void test_points_within_the_work_quota(void **state)
{
    (void)state;
    tv_pipe_ctx *ctx = scene(fs_smooth, false);
    vert v[4] = {V(1, 1, 0, 0, 0, 0, 1), V(2, 2, 0, 0, 0, 0, 1), V(3, 3, 0, 0, 0, 0, 1),
                 V(4, 4, 0, 0, 0, 0, 1)};
    vertices(ctx, v, 4);
    shader(ctx, TES, TV_PIPE_STAGE_TESS_EVAL, tes_isolines);
    tv_pipe_set_compute_limit(ctx, 0, 200000);
    const float big[4] = {64, 64, 1, 1}, small[4] = {8, 8, 1, 1}, inner[2] = {1, 1};
    tv_pipe_set_tess_state(ctx, big, inner);
    assert_int_equal(draw_patches(ctx, 4, 2, 1), -1);
    assert_non_null(strstr(tv_pipe_error(ctx), "tessellation makes more points (4160 by patch "
                                               "0) than the work quota lets the evaluation "
                                               "shader run"));
    tv_pipe_destroy(ctx);
    ctx = scene(fs_smooth, false);
    vertices(ctx, v, 4);
    shader(ctx, TES, TV_PIPE_STAGE_TESS_EVAL, tes_isolines);
    tv_pipe_set_compute_limit(ctx, 0, 200000);
    tv_pipe_set_tess_state(ctx, small, inner);
    const float *o = capture(ctx, TES, 4096 * 16);
    (void)o;
    assert_int_equal(draw_patches(ctx, 4, 2, 1), 0);
    assert_int_equal(generated(ctx), 2 * 8 * 8);   /* 2 patches of 8 lines of 8 segments */
    tv_pipe_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_quads_through_control),
        cmocka_unit_test(test_isolines_default_levels),
        cmocka_unit_test(test_level_one_triangle_pixels),
        cmocka_unit_test(test_named_errors),
        cmocka_unit_test(test_points_within_the_work_quota),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
