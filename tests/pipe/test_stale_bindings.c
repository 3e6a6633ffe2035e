/* What a client (a vtest peer: an attacker) can leave bound and then change under it, and
 * view ranges at the edge of 32 bits: every case must be a named error, never an access
 * outside a resource (the ASan build turns one into a crash).
 * - A surface outlives its resource's handle: the resource is destroyed and created again
 *   in a format of another size. Clearing it — depth alone, colour, depth and stencil
 *   together — and drawing to it must refuse (clear_zs_channel read-modify-wrote 4-byte
 *   texels across a 1-byte resource; fill_surface and the draw looked the resource up
 *   again without the format test of tv_pipe_surface_create).
 * - A buffer sampler view of elements 0xfffffff0..0xffffffff: its size test added 1 in 32
 *   bits, wrapped to 0 and passed, and the launch copied from 4 GiB past the buffer; and
 *   0..0xffffffff, a view of 2^32 texels over 64 bytes.
 * - Work without a shader's instructions: placing the sampler views' texels for a launch
 *   counts against the context's total quota (a 36-byte launch of an 8192x8192 view took
 *   7 s, charged as nothing). */
#include "helper_draw.h"

#include <stdio.h>
#include <string.h>

enum { RES = 5, STALE = 40, CS = 42 };
enum { FMT_Z24S8 = 19 };

static void expect_error(tv_pipe_ctx *ctx, int rc, const char *words)
{
    assert_int_equal(rc, -1);
    if (!strstr(tv_pipe_error(ctx), words))
        fail_msg("error \"%s\" does not say \"%s\"", tv_pipe_error(ctx), words);
}

/* resource RES created again as 64x64 R8 under STALE, made for FORMAT */
static tv_pipe_ctx *stale_surface(uint32_t format, bool zs)
{
    tv_pipe_ctx *ctx = tv_pipe_create(0);
    assert_non_null(ctx);
    tv_pipe_resource_desc d = {2, format, 0, 64, 64, 1, 1, 0, 0};
    assert_int_equal(tv_pipe_resource_create(ctx, RES, &d), 0);
    assert_int_equal(tv_pipe_surface_create(ctx, STALE, RES, format, 0, 0, 0), 0);
    const uint32_t cbuf = STALE;
    assert_int_equal(zs ? tv_pipe_set_framebuffer(ctx, 0, NULL, STALE)
                        : tv_pipe_set_framebuffer(ctx, 1, &cbuf, 0), 0);
    assert_int_equal(tv_pipe_resource_destroy(ctx, RES), 0);
    tv_pipe_resource_desc small = {2, FMT_R8, 0, 64, 64, 1, 1, 0, 0};
    assert_int_equal(tv_pipe_resource_create(ctx, RES, &small), 0);
    return ctx;
}

static void test_stale_surface_clears(void **state)
{
    (void)state;
    const uint32_t black[4] = {0, 0, 0, 0};
    static const unsigned zs_buffers[3] = {TV_PIPE_CLEAR_DEPTH, TV_PIPE_CLEAR_STENCIL,
                                           TV_PIPE_CLEAR_DEPTH | TV_PIPE_CLEAR_STENCIL};
    for (unsigned k = 0; k < 3; k++) {
        tv_pipe_ctx *ctx = stale_surface(FMT_Z24S8, true);
        expect_error(ctx, tv_pipe_clear(ctx, zs_buffers[k], black, 1.0, 0x55), "no longer views");
        tv_pipe_destroy(ctx);
    }
    tv_pipe_ctx *ctx = stale_surface(FMT_RGBA8, false);
    expect_error(ctx, tv_pipe_clear(ctx, TV_PIPE_CLEAR_COLOR0, black, 1.0, 0), "no longer views");
    tv_pipe_destroy(ctx);
}

/* a whole draw to the stale colour surface */
static void test_stale_surface_draw(void **state)
{
    (void)state;
    tv_pipe_ctx *ctx = scene(fs_flat, false);
    tv_pipe_resource_desc d = {2, FMT_RGBA8, 0, W, H, 1, 1, 0, 0};
    assert_int_equal(tv_pipe_resource_create(ctx, RES, &d), 0);
    assert_int_equal(tv_pipe_surface_create(ctx, STALE, RES, FMT_RGBA8, 0, 0, 0), 0);
    const uint32_t cbuf = STALE;
    assert_int_equal(tv_pipe_set_framebuffer(ctx, 1, &cbuf, 0), 0);
    assert_int_equal(tv_pipe_resource_destroy(ctx, RES), 0);
    tv_pipe_resource_desc small = {2, FMT_R8, 0, W, H, 1, 1, 0, 0};
    assert_int_equal(tv_pipe_resource_create(ctx, RES, &small), 0);
    vert v[3] = {V(0, 0, 0, 1, 1, 1, 1), V(W, 0, 0, 1, 1, 1, 1), V(0, H, 0, 1, 1, 1, 1)};
    vertices(ctx, v, 3);
    tv_pipe_draw_info info;
    memset(&info, 0, sizeof info);
    info.mode = PRIM_TRIANGLES;
    info.count = 3;
    info.instance_count = 1;
    expect_error(ctx, tv_pipe_draw_vbo(ctx, &info), "no longer views");
    tv_pipe_destroy(ctx);
}

static const char cs_sample[] = "COMP\n"
                                "PROPERTY CS_FIXED_BLOCK_WIDTH 1\n"
                                "PROPERTY CS_FIXED_BLOCK_HEIGHT 1\n"
                                "PROPERTY CS_FIXED_BLOCK_DEPTH 1\n"
                                "DCL SAMP[0]\n"
                                "DCL SVIEW[0], BUFFER, FLOAT\n"
                                "DCL TEMP[0]\n"
                                "IMM[0] INT32 {0, 0, 0, 0}\n"
                                "  0: TXF TEMP[0], IMM[0], SAMP[0], BUFFER\n"
                                "  1: END\n";

/* A launch sampling elements FIRST..LAST of a 64-byte R8 buffer (SIZE bytes, 64 if 0)
 * under a total quota of QUOTA (0: none); whether it is refused is for the caller. */
static int launch_view(uint32_t size, uint32_t first, uint32_t last, uint64_t quota,
                       tv_pipe_ctx **out)
{
    tv_pipe_ctx *ctx = tv_pipe_create(0);
    assert_non_null(ctx);
    if (quota)
        tv_pipe_set_total_work(ctx, quota);
    tv_pipe_resource_desc b = {0, FMT_R8, 0, size ? size : 64, 1, 1, 1, 0, 0};
    assert_int_equal(tv_pipe_resource_create(ctx, RES, &b), 0);
    tv_pipe_sampler_view view = {RES, FMT_R8, 0, 0, 0, 0, first, last, {0, 1, 2, 3}, 0};
    assert_int_equal(tv_pipe_set_sampler_views(ctx, TV_PIPE_STAGE_COMPUTE, 0, 1, &view), 0);
    tv_pipe_sampler_state samp;
    memset(&samp, 0, sizeof samp);
    assert_int_equal(tv_pipe_set_sampler_states(ctx, TV_PIPE_STAGE_COMPUTE, 0, 1, &samp), 0);
    assert_int_equal(tv_pipe_shader_create(ctx, CS, TV_PIPE_STAGE_COMPUTE, cs_sample,
                                           sizeof cs_sample), 0);
    assert_int_equal(tv_pipe_bind_shader(ctx, TV_PIPE_STAGE_COMPUTE, CS), 0);
    const uint32_t one[3] = {1, 1, 1};
    *out = ctx;
    return tv_pipe_launch_grid(ctx, one, one);
}

static void launch_with_view(uint32_t first, uint32_t last, bool fits)
{
    tv_pipe_ctx *ctx;
    int rc = launch_view(0, first, last, 0, &ctx);
    if (fits)
        assert_int_equal(rc, 0);
    else
        expect_error(ctx, rc, "outside buffer");
    tv_pipe_destroy(ctx);
}

static void test_buffer_view_at_32_bits(void **state)
{
    (void)state;
    launch_with_view(0, 63, true);               /* the whole buffer: fine */
    launch_with_view(0, 64, false);              /* one texel past it */
    launch_with_view(0xfffffff0u, 0xffffffffu, false);
    launch_with_view(0, 0xffffffffu, false);
}

/* 65536 texels to place cost more than a quota of 200000 warp instructions (16 each);
   256 texels do not */
static void test_view_placement_charged(void **state)
{
    (void)state;
    tv_pipe_ctx *ctx;
    int rc = launch_view(65536, 0, 65535, 200000, &ctx);
    expect_error(ctx, rc, "total work quota");
    tv_pipe_destroy(ctx);
    assert_int_equal(launch_view(256, 0, 255, 200000, &ctx), 0);
    tv_pipe_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stale_surface_clears),
        cmocka_unit_test(test_stale_surface_draw),
        cmocka_unit_test(test_buffer_view_at_32_bits),
        cmocka_unit_test(test_view_placement_charged),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
