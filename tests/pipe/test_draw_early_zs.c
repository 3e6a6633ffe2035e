/* Early depth/stencil tests (docs/pipeline-stages.md §Output merger): a fragment shader
 * that asks for them (FS_EARLY_DEPTH_STENCIL) is tested before it runs — the depth it
 * writes is ignored, pixels it kills still update depth and are counted, and fragments
 * that fail are never shaded — checked against values worked out by hand and against the
 * same shader without the property (late tests). And the early tests texvm makes on its
 * own (nothing the shader does can tell) on 4x multisampled targets with sample shading:
 * the same bytes and occlusion counts as the plain interpreter's late tests. */
#include "helper_draw.h"

#include <stdio.h>
#include <string.h>

/* kills the left half (x < 8), writes depth 0.9 and the flat colour */
#define KILL_LEFT_BODY                                                                   \
    "DCL IN[0], POSITION, LINEAR\n"                                                      \
    "DCL IN[1], GENERIC[0], CONSTANT\n"                                                  \
    "DCL OUT[0], COLOR\n"                                                                \
    "DCL OUT[1], POSITION\n"                                                             \
    "DCL TEMP[0]\n"                                                                      \
    "IMM[0] FLT32 {-8.0, 0.9, 0.0, 0.0}\n"                                               \
    "  0: ADD TEMP[0].x, IN[0].xxxx, IMM[0].xxxx\n"                                      \
    "  1: KILL_IF TEMP[0].xxxx\n"                                                        \
    "  2: MOV OUT[0], IN[1]\n"                                                           \
    "  3: MOV OUT[1].z, IMM[0].yyyy\n"                                                   \
    "  4: END\n"

static const char fs_early[] = "FRAG\nPROPERTY FS_EARLY_DEPTH_STENCIL 1\n" KILL_LEFT_BODY;
static const char fs_late[] = "FRAG\n" KILL_LEFT_BODY;

static void full_quad(vert *v, float z, float r)
{
    v[0] = V(0, 0, z, r, 0, 0, 1);
    v[1] = V(W, 0, z, r, 0, 0, 1);
    v[2] = V(0, H, z, r, 0, 0, 1);
    v[3] = V(0, H, z, r, 0, 0, 1);
    v[4] = V(W, 0, z, r, 0, 0, 1);
    v[5] = V(W, H, z, r, 0, 0, 1);
}

/* One draw of the full-screen quad at NDC z (window (z + 1) / 2) in red R; *PASSED and
 * *SHADED: its occlusion count and fragment shader invocations. */
static void counted_draw(tv_pipe_ctx *ctx, float z, float r, uint64_t *passed, uint64_t *shaded)
{
    vert v[6];
    full_quad(v, z, r);
    vertices(ctx, v, 6);
    tv_pipe_query_create(ctx, 40, TV_PIPE_QUERY_OCCLUSION_COUNTER, 0);
    tv_pipe_query_create(ctx, 41, TV_PIPE_QUERY_PIPELINE_STATISTICS,
                         TV_PIPE_STAT_PS_INVOCATIONS);
    assert_int_equal(tv_pipe_begin_query(ctx, 40), 0);
    assert_int_equal(tv_pipe_begin_query(ctx, 41), 0);
    assert_int_equal(draw(ctx, PRIM_TRIANGLES, 6), 0);
    assert_int_equal(tv_pipe_end_query(ctx, 40), 0);
    assert_int_equal(tv_pipe_end_query(ctx, 41), 0);
    assert_int_equal(tv_pipe_query_result(ctx, 40, passed), 0);
    assert_int_equal(tv_pipe_query_result(ctx, 41, shaded), 0);
}

static void test_asked_early_ignores_shader_depth_and_kill(void **state)
{
    (void)state;
    for (int early = 0; early < 2; early++) {
        tv_pipe_ctx *ctx = scene(early ? fs_early : fs_late, true);
        depth_less(ctx, true);
        uint64_t passed, shaded;
        counted_draw(ctx, -0.5f, 1.0f, &passed, &shaded);   /* window depth 0.25 */
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                /* early: every pixel passed against 1.0 and took the plane's 0.25 before
                 * the shader ran; late: killed pixels keep 1.0, the others the shader's
                 * 0.9 */
                float want = early ? 0.25f : x < 8 ? 1.0f : 0.9f;
                assert_true(depth_at(ctx, x, y) == want);
                assert_int_equal(pixel(ctx, x, y)[0], x < 8 ? 0 : 255);
            }
        /* early: samples count when they pass the early test, killed or not */
        assert_int_equal(passed, early ? W * H : W * H / 2);
        assert_int_equal(shaded, W * H);
        /* the same quad again: early, it fails against its own 0.25 everywhere */
        counted_draw(ctx, -0.5f, 0.5f, &passed, &shaded);
        if (early) {
            assert_int_equal(passed, 0);
            assert_int_equal(shaded, 0);      /* nothing passed: nothing shaded */
            assert_int_equal(pixel(ctx, 12, 3)[0], 255);
        } else {
            /* late: every pixel shaded; the right half's 0.9 is not LESS than the stored
             * 0.9, the left half is killed again */
            assert_int_equal(passed, 0);
            assert_int_equal(shaded, W * H);
        }
        tv_pipe_destroy(ctx);
    }
}

enum { MS = 50, MSURF = 51, MZ = 52, MZSURF = 53, NS = 4 };

/* Random overlapping triangles, depth-tested, into 4x targets with sample shading: the
 * optimised run (early tests texvm chooses itself) against the plain interpreter (late). */
static void test_chosen_early_equals_late_msaa(void **state)
{
    (void)state;
    static uint8_t color[2][W * H * NS * 4];
    static uint8_t depth[2][W * H * NS * 4];
    uint64_t passed[2], shaded[2];
    for (int plain = 0; plain < 2; plain++) {
        tv_pipe_ctx *ctx = scene(fs_smooth, false);
        assert_int_equal(tv_pipe_set_plain(ctx, plain != 0), 0);
        tv_pipe_resource_desc rd = {2, FMT_RGBA8, 2, W, H, 1, 1, 0, NS};
        assert_int_equal(tv_pipe_resource_create(ctx, MS, &rd), 0);
        assert_int_equal(tv_pipe_surface_create(ctx, MSURF, MS, FMT_RGBA8, 0, 0, 0), 0);
        tv_pipe_resource_desc zd = {2, FMT_Z32F, 1, W, H, 1, 1, 0, NS};
        assert_int_equal(tv_pipe_resource_create(ctx, MZ, &zd), 0);
        assert_int_equal(tv_pipe_surface_create(ctx, MZSURF, MZ, FMT_Z32F, 0, 0, 0), 0);
        uint32_t cb = MSURF;
        assert_int_equal(tv_pipe_set_framebuffer(ctx, 1, &cb, MZSURF), 0);
        const uint32_t black[4] = {0, 0, 0, 0};
        assert_int_equal(tv_pipe_clear(ctx, TV_PIPE_CLEAR_COLOR0 | TV_PIPE_CLEAR_DEPTH, black,
                                       1.0, 0), 0);
        tv_pipe_set_min_samples(ctx, NS);
        depth_less(ctx, true);
        vert v[45];
        uint32_t s = 7;
        for (int i = 0; i < 45; i++) {
            s = s * 1103515245u + 12345u;
            float x = (float)((s >> 8) % 2000) / 100.0f - 2.0f;
            s = s * 1103515245u + 12345u;
            float y = (float)((s >> 8) % 2000) / 100.0f - 2.0f;
            s = s * 1103515245u + 12345u;
            float z = (float)((s >> 8) % 200) / 100.0f - 1.0f;
            v[i] = V(x, y, z, (float)(i % 7) / 6.0f, (float)(i % 5) / 4.0f, 0.5f, 1);
        }
        vertices(ctx, v, 45);
        tv_pipe_query_create(ctx, 40, TV_PIPE_QUERY_OCCLUSION_COUNTER, 0);
        tv_pipe_query_create(ctx, 41, TV_PIPE_QUERY_PIPELINE_STATISTICS,
                             TV_PIPE_STAT_PS_INVOCATIONS);
        assert_int_equal(tv_pipe_begin_query(ctx, 40), 0);
        assert_int_equal(tv_pipe_begin_query(ctx, 41), 0);
        assert_int_equal(draw(ctx, PRIM_TRIANGLES, 45), 0);
        assert_int_equal(tv_pipe_end_query(ctx, 40), 0);
        assert_int_equal(tv_pipe_end_query(ctx, 41), 0);
        assert_int_equal(tv_pipe_query_result(ctx, 40, &passed[plain]), 0);
        assert_int_equal(tv_pipe_query_result(ctx, 41, &shaded[plain]), 0);
        memcpy(color[plain], tv_pipe_resource_data(ctx, MS), sizeof color[plain]);
        memcpy(depth[plain], tv_pipe_resource_data(ctx, MZ), sizeof depth[plain]);
        tv_pipe_destroy(ctx);
    }
    assert_memory_equal(color[0], color[1], sizeof color[0]);
    assert_memory_equal(depth[0], depth[1], sizeof depth[0]);
    assert_int_equal(passed[0], passed[1]);
    assert_true(passed[0] > W * H);         /* several layers of samples */
    assert_true(shaded[0] < shaded[1]);     /* samples behind were not shaded */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_asked_early_ignores_shader_depth_and_kill),
        cmocka_unit_test(test_chosen_early_equals_late_msaa),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
