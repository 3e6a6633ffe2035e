/* Indirect draws and launches (tv_pipe_draw_vbo_indirect, tv_pipe_launch_grid_indirect),
 * checked by hand on the 16x16 scene of helper_draw.h: a multi-draw of two commands (their
 * own first vertex and instance counts, DRAWID per command), the draw count capped by a
 * count buffer, an indexed command with a base vertex, a grid read from a buffer, and the
 * named errors for commands outside their buffer. */
#include "helper_draw.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { IND = 50, CNT = 51, IDX = 52 };

/* colour = (DRAWID / 255 + GENERIC[0].x, GENERIC[0].y, 0, 1) */
static const char vs_drawid[] =
    "VERT\n"
    "DCL IN[0]\nDCL IN[1]\nDCL SV[0], DRAWID\n"
    "DCL OUT[0], POSITION\nDCL OUT[1], GENERIC[0]\n"
    "DCL TEMP[0]\n"
    "IMM[0] FLT32 {0.003921568627451, 0.0, 0.0, 0.0}\n"
    "MOV OUT[0], IN[0]\n"
    "U2F TEMP[0].x, SV[0].xxxx\n"
    "MAD TEMP[0].x, TEMP[0].xxxx, IMM[0].xxxx, IN[1].xxxx\n"
    "MOV TEMP[0].yzw, IN[1]\n"
    "MOV OUT[1], TEMP[0]\n"
    "END\n";

static void words(tv_pipe_ctx *ctx, uint32_t handle, const uint32_t *w, uint32_t n)
{
    upload(ctx, handle, w, n * 4);
}

static void test_multi_draw(void **state)
{
    (void)state;
    tv_pipe_ctx *ctx = scene(fs_flat, false);
    enum { VS2 = 24 };
    assert_int_equal(tv_pipe_shader_create(ctx, VS2, TV_PIPE_STAGE_VERTEX, vs_drawid,
                                           sizeof vs_drawid), 0);
    assert_int_equal(tv_pipe_bind_shader(ctx, TV_PIPE_STAGE_VERTEX, VS2), 0);
    /* vertices 0-2: the top-left half (x + y < 16); 3-5: the bottom-right half */
    vert v[6] = {V(0, 0, 0, 0, 0.2f, 0, 1),  V(16, 0, 0, 0, 0.2f, 0, 1),
                 V(0, 16, 0, 0, 0.2f, 0, 1), V(16, 0, 0, 0, 0.6f, 0, 1),
                 V(16, 16, 0, 0, 0.6f, 0, 1), V(0, 16, 0, 0, 0.6f, 0, 1)};
    vertices(ctx, v, 6);
    /* {count, instances, first, base instance}, 20 bytes apart */
    const uint32_t cmds[10] = {3, 1, 0, 0, 0xdead, 3, 1, 3, 0, 0xbeef};
    words(ctx, IND, cmds, 10);
    tv_pipe_draw_info info;
    memset(&info, 0, sizeof info);
    info.mode = PRIM_TRIANGLES;
    tv_pipe_draw_indirect ind = {IND, 0, 20, 2, 0, 0};
    assert_int_equal(tv_pipe_draw_vbo_indirect(ctx, &info, &ind), 0);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            /* the shared diagonal's pixel centres (x + y = 15) go to the left edge's
             * triangle: the second (bottom-right) one */
            bool first = x + y < 15;
            assert_int_equal(pixel(ctx, x, y)[0], first ? 0 : 1);     /* DRAWID 0, 1 */
            assert_int_equal(pixel(ctx, x, y)[1], first ? 51 : 153);  /* 0.2, 0.6 */
        }
    /* a count buffer of 1 caps the draw count of 2: only the first command */
    const uint32_t black[4] = {0, 0, 0, 0};
    assert_int_equal(tv_pipe_clear(ctx, TV_PIPE_CLEAR_COLOR0, black, 1.0, 0), 0);
    const uint32_t one[2] = {0, 1};
    words(ctx, CNT, one, 2);
    tv_pipe_draw_indirect capped = {IND, 0, 20, 2, CNT, 4};
    assert_int_equal(tv_pipe_draw_vbo_indirect(ctx, &info, &capped), 0);
    assert_int_equal(pixel(ctx, 2, 2)[1], 51);
    assert_int_equal(pixel(ctx, 14, 14)[1], 0);
    /* an indexed command: indices 7, 8, 9 with base vertex -7 draw vertices 0-2 */
    assert_int_equal(tv_pipe_clear(ctx, TV_PIPE_CLEAR_COLOR0, black, 1.0, 0), 0);
    const uint32_t idx[3] = {7, 8, 9};
    words(ctx, IDX, idx, 3);
    assert_int_equal(tv_pipe_set_index_buffer(ctx, IDX, 0), 0);
    const uint32_t icmd[5] = {3, 1, 0, (uint32_t)-7, 0};
    words(ctx, IND, icmd, 5);
    info.index_size = 4;
    tv_pipe_draw_indirect one_cmd = {IND, 0, 0, 1, 0, 0};
    assert_int_equal(tv_pipe_draw_vbo_indirect(ctx, &info, &one_cmd), 0);
    assert_int_equal(pixel(ctx, 2, 2)[1], 51);
    assert_int_equal(pixel(ctx, 14, 14)[1], 0);
    /* commands past the buffer, a stride shorter than a command, a missing buffer */
    tv_pipe_draw_indirect past = {IND, 0, 0, 2, 0, 0};
    assert_int_equal(tv_pipe_draw_vbo_indirect(ctx, &info, &past), -1);
    assert_non_null(strstr(tv_pipe_error(ctx), "5 words at byte 20 outside indirect buffer 50"));
    tv_pipe_draw_indirect short_stride = {IND, 0, 8, 1, 0, 0};
    assert_int_equal(tv_pipe_draw_vbo_indirect(ctx, &info, &short_stride), -1);
    assert_non_null(strstr(tv_pipe_error(ctx), "stride 8 (0, or a multiple of 4 of at least 20)"));
    tv_pipe_draw_indirect missing = {99, 0, 0, 1, 0, 0};
    assert_int_equal(tv_pipe_draw_vbo_indirect(ctx, &info, &missing), -1);
    assert_non_null(strstr(tv_pipe_error(ctx), "no indirect buffer 99"));
    tv_pipe_destroy(ctx);
}

/* thread i of block b stores b x 4 + i + 1 at word b x 4 + i */
static const char cs_text[] =
    "COMP\n"
    "PROPERTY CS_FIXED_BLOCK_WIDTH 4\nPROPERTY CS_FIXED_BLOCK_HEIGHT 1\n"
    "PROPERTY CS_FIXED_BLOCK_DEPTH 1\n"
    "DCL SV[0], THREAD_ID\nDCL SV[1], BLOCK_ID\nDCL BUFFER[0]\nDCL TEMP[0]\n"
    "IMM[0] UINT32 {4, 1, 0, 0}\n"
    "UMAD TEMP[0].x, SV[1].xxxx, IMM[0].xxxx, SV[0].xxxx\n"
    "UADD TEMP[0].y, TEMP[0].xxxx, IMM[0].yyyy\n"
    "UMUL TEMP[0].x, TEMP[0].xxxx, IMM[0].xxxx\n"
    "STORE BUFFER[0].x, TEMP[0].xxxx, TEMP[0].yyyy\n"
    "END\n";

static void test_indirect_launch(void **state)
{
    (void)state;
    tv_pipe_ctx *ctx = tv_pipe_create(0);
    assert_non_null(ctx);
    enum { CS = 30, SSBO = 31, GRID = 32 };
    assert_int_equal(tv_pipe_shader_create(ctx, CS, TV_PIPE_STAGE_COMPUTE, cs_text,
                                           sizeof cs_text), 0);
    assert_int_equal(tv_pipe_bind_shader(ctx, TV_PIPE_STAGE_COMPUTE, CS), 0);
    const uint32_t zero[16] = {0};
    upload(ctx, SSBO, zero, sizeof zero);
    tv_pipe_buffer_binding bb = {SSBO, 0, 64};
    assert_int_equal(tv_pipe_set_shader_buffers(ctx, TV_PIPE_STAGE_COMPUTE, 0, 1, &bb), 0);
    const uint32_t grid[4] = {77, 3, 1, 1};          /* the grid at byte 4: 3 x 1 x 1 */
    upload(ctx, GRID, grid, sizeof grid);
    const uint32_t block[3] = {0, 0, 0};
    assert_int_equal(tv_pipe_launch_grid_indirect(ctx, block, GRID, 4), 0);
    const uint32_t *out = (const uint32_t *)(const void *)tv_pipe_resource_data(ctx, SSBO);
    for (uint32_t i = 0; i < 16; i++)
        assert_int_equal(out[i], i < 12 ? i + 1 : 0);
    assert_int_equal(tv_pipe_launch_grid_indirect(ctx, block, GRID, 8), -1);
    assert_non_null(strstr(tv_pipe_error(ctx), "3 words at byte 8 outside indirect buffer 32"));
    tv_pipe_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_multi_draw),
        cmocka_unit_test(test_indirect_launch),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
