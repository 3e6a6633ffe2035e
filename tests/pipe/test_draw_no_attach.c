/* Drawing without attachments (tv_pipe_set_framebuffer_no_attach, GL's
 * ARB_framebuffer_no_attachments): the fragment shader runs over the area the state gives
 * for what it stores — here an atomic count of its invocations in a shader buffer — and
 * occlusion queries count its samples; without that area a draw with no surface is a named
 * error, impossible areas are refused, and what Mesa sends with every framebuffer (0
 * layers, a zero size) is accepted. */
#include "helper_draw.h"

#include <string.h>

enum { SSBO = 40, QUERY = 41 };

static const char fs_count[] =
    "FRAG\n"
    "DCL BUFFER[0]\n"
    "DCL TEMP[0]\n"
    "IMM[0] UINT32 {0, 1, 0, 0}\n"
    "  0: ATOMUADD TEMP[0].x, BUFFER[0], IMM[0].xxxx, IMM[0].yyyy\n"
    "  1: END\n";

static tv_pipe_ctx *no_attach_scene(void)
{
    tv_pipe_ctx *ctx = tv_pipe_create(0);
    assert_non_null(ctx);
    assert_int_equal(tv_pipe_shader_create(ctx, VS, TV_PIPE_STAGE_VERTEX, vs_text,
                                           strlen(vs_text) + 1), 0);
    assert_int_equal(tv_pipe_shader_create(ctx, FS, TV_PIPE_STAGE_FRAGMENT, fs_count,
                                           sizeof fs_count), 0);
    assert_int_equal(tv_pipe_bind_shader(ctx, TV_PIPE_STAGE_VERTEX, VS), 0);
    assert_int_equal(tv_pipe_bind_shader(ctx, TV_PIPE_STAGE_FRAGMENT, FS), 0);
    tv_pipe_viewport vp = {{W / 2.0f, H / 2.0f, 0.5f}, {W / 2.0f, H / 2.0f, 0.5f}};
    assert_int_equal(tv_pipe_set_viewports(ctx, 0, 1, &vp), 0);
    tv_pipe_vertex_element ve[2] = {{0, 0, 0, FMT_RGBA32F}, {16, 0, 0, FMT_RGBA32F}};
    assert_int_equal(tv_pipe_set_vertex_elements(ctx, 2, ve), 0);
    const uint32_t zero[4] = {0, 0, 0, 0};
    upload(ctx, SSBO, zero, sizeof zero);
    tv_pipe_buffer_binding b = {SSBO, 0, 16};
    assert_int_equal(tv_pipe_set_shader_buffers(ctx, TV_PIPE_STAGE_FRAGMENT, 0, 1, &b), 0);
    assert_int_equal(tv_pipe_set_framebuffer(ctx, 0, NULL, 0), 0);
    return ctx;
}

static uint32_t counted(tv_pipe_ctx *ctx)
{
    uint32_t n;
    memcpy(&n, tv_pipe_resource_data(ctx, SSBO), 4);
    return n;
}

static void test_shader_runs_without_attachments(void **state)
{
    (void)state;
    for (uint32_t samples = 1; samples <= 4; samples += 3) {
        tv_pipe_ctx *ctx = no_attach_scene();
        vert tri[3] = {V(0.5f, 0.5f, 0, 1, 0, 0, 1), V(4.5f, 0.5f, 0, 1, 0, 0, 1),
                       V(0.5f, 4.5f, 0, 1, 0, 0, 1)};
        vertices(ctx, tri, 3);
        /* no area yet: named */
        assert_int_equal(draw(ctx, PRIM_TRIANGLES, 3), -1);
        assert_non_null(strstr(tv_pipe_error(ctx), "the framebuffer has no attachment"));
        assert_int_equal(tv_pipe_set_framebuffer_no_attach(ctx, W, H, 1, samples), 0);
        assert_int_equal(tv_pipe_query_create(ctx, QUERY, TV_PIPE_QUERY_OCCLUSION_COUNTER, 0),
                         0);
        uint32_t before = 0;
        if (samples == 1) {
            /* the triangle of test_draw.c's first test: x + y <= 3, 10 pixels */
            assert_int_equal(draw(ctx, PRIM_TRIANGLES, 3), 0);
            assert_int_equal(counted(ctx), 10);
            before = 10;
        }
        /* a full-screen quad: 256 pixels with all their samples; with 4 samples the 16
         * pixels its diagonal crosses have samples in both triangles and are shaded by
         * each */
        assert_int_equal(tv_pipe_begin_query(ctx, QUERY), 0);
        vert quad[6] = {V(0, 0, 0, 1, 0, 0, 1), V(W, 0, 0, 1, 0, 0, 1), V(0, H, 0, 1, 0, 0, 1),
                        V(0, H, 0, 1, 0, 0, 1), V(W, 0, 0, 1, 0, 0, 1), V(W, H, 0, 1, 0, 0, 1)};
        vertices(ctx, quad, 6);
        assert_int_equal(draw(ctx, PRIM_TRIANGLES, 6), 0);
        assert_int_equal(counted(ctx), before + W * H + (samples > 1 ? 16 : 0));
        assert_int_equal(tv_pipe_end_query(ctx, QUERY), 0);
        uint64_t passed = 0;
        assert_int_equal(tv_pipe_query_result(ctx, QUERY, &passed), 0);
        assert_int_equal(passed, (uint64_t)W * H * samples);
        tv_pipe_destroy(ctx);
    }
}

static void test_impossible_areas(void **state)
{
    (void)state;
    tv_pipe_ctx *ctx = no_attach_scene();
    assert_int_equal(tv_pipe_set_framebuffer_no_attach(ctx, 16, 16384 + 1, 1, 1), -1);
    assert_non_null(strstr(tv_pipe_error(ctx), "16x16385 pixels x 1 layers"));
    assert_int_equal(tv_pipe_set_framebuffer_no_attach(ctx, 16, 16, 2049, 1), -1);
    /* what Mesa sends with every framebuffer: 0 layers is one; a zero size is no area */
    assert_int_equal(tv_pipe_set_framebuffer_no_attach(ctx, 16, 16, 0, 0), 0);
    assert_int_equal(tv_pipe_set_framebuffer_no_attach(ctx, 0, 0, 0, 0), 0);
    vert tri[3] = {V(0.5f, 0.5f, 0, 1, 0, 0, 1), V(4.5f, 0.5f, 0, 1, 0, 0, 1),
                   V(0.5f, 4.5f, 0, 1, 0, 0, 1)};
    vertices(ctx, tri, 3);
    assert_int_equal(draw(ctx, PRIM_TRIANGLES, 3), -1);
    assert_non_null(strstr(tv_pipe_error(ctx), "the framebuffer has no attachment"));
    assert_int_equal(tv_pipe_set_framebuffer_no_attach(ctx, 16, 16, 1, 3), -1);
    assert_non_null(strstr(tv_pipe_error(ctx), "3 samples (0, 1, 2, 4, 8 or 16)"));
    tv_pipe_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shader_runs_without_attachments),
        cmocka_unit_test(test_impossible_areas),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
