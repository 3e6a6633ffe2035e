/* Texture buffers and buffer images in formats other than their buffer's, and the size of a
 * cube-array image, as GL programs reach them through Mesa's virgl driver (found by piglit's
 * arb_texture_buffer_object, arb_texture_buffer_range and arb_shader_image_size tests):
 * - Mesa makes every buffer R8_UNORM; a texture buffer (GL's glTexBuffer with GL_RGBA8)
 *   views it in its own format, first and last element counted in that format's texels
 *   (GL 4.6 §8.9: texel i of the buffer texture is the i-th RGBA8 texel from the range's
 *   offset). A view in another texel size was refused ("format 67 does not view resource").
 * - A buffer image (glBindImageTexture of a buffer texture) the same: an R32_UINT image
 *   over 64 bytes is 16 texels wide (imageSize) and texel 3 is bytes 12..15.
 * - imageSize of a cube-map array is (width, height, cubes) (GLSL 4.60 §8.12); RESQ gave
 *   the layers, six times as many. */
#include "helper_draw.h"

#include <string.h>

enum { BUF = 5, OUTB = 6, CUBES = 7, CS = 42 };
enum { FMT_R32_UINT = 193, TARGET_CUBE_ARRAY = 8 };

static tv_pipe_ctx *ctx_with_bytes(void)
{
    tv_pipe_ctx *ctx = tv_pipe_create(0);
    assert_non_null(ctx);
    uint8_t bytes[64];
    for (int i = 0; i < 64; i++)
        bytes[i] = (uint8_t)(i * 3);
    upload(ctx, BUF, bytes, sizeof bytes);
    uint8_t zero[64] = {0};
    upload(ctx, OUTB, zero, sizeof zero);
    tv_pipe_buffer_binding ob = {OUTB, 0, 64};
    assert_int_equal(tv_pipe_set_shader_buffers(ctx, TV_PIPE_STAGE_COMPUTE, 0, 1, &ob), 0);
    return ctx;
}

static void launch(tv_pipe_ctx *ctx, const char *text)
{
    assert_int_equal(tv_pipe_shader_create(ctx, CS, TV_PIPE_STAGE_COMPUTE, text,
                                           strlen(text) + 1), 0);
    assert_int_equal(tv_pipe_bind_shader(ctx, TV_PIPE_STAGE_COMPUTE, CS), 0);
    const uint32_t one[3] = {1, 1, 1};
    if (tv_pipe_launch_grid(ctx, one, one))
        fail_msg("%s", tv_pipe_error(ctx));
}

static const char cs_texel[] = "COMP\n"
                               "PROPERTY CS_FIXED_BLOCK_WIDTH 1\n"
                               "PROPERTY CS_FIXED_BLOCK_HEIGHT 1\n"
                               "PROPERTY CS_FIXED_BLOCK_DEPTH 1\n"
                               "DCL SAMP[0]\n"
                               "DCL SVIEW[0], BUFFER, FLOAT\n"
                               "DCL BUFFER[0]\n"
                               "DCL TEMP[0]\n"
                               "IMM[0] INT32 {1, 0, 0, 0}\n"
                               "  0: TXF TEMP[0], IMM[0], SAMP[0], BUFFER\n"
                               "  1: STORE BUFFER[0].xyzw, IMM[0].yyyy, TEMP[0]\n"
                               "  2: END\n";

/* An RGBA8 texture buffer of elements 2..5 over the R8 buffer: its texel 1 is the buffer's
   RGBA8 texel 3, bytes 12..15. */
static void test_rgba8_texture_buffer_over_r8(void **state)
{
    (void)state;
    tv_pipe_ctx *ctx = ctx_with_bytes();
    tv_pipe_sampler_view view = {BUF, FMT_RGBA8, 0, 0, 0, 0, 2, 5, {0, 1, 2, 3}, 0};
    assert_int_equal(tv_pipe_set_sampler_views(ctx, TV_PIPE_STAGE_COMPUTE, 0, 1, &view), 0);
    tv_pipe_sampler_state samp;
    memset(&samp, 0, sizeof samp);
    assert_int_equal(tv_pipe_set_sampler_states(ctx, TV_PIPE_STAGE_COMPUTE, 0, 1, &samp), 0);
    launch(ctx, cs_texel);
    float got[4];
    memcpy(got, tv_pipe_resource_data(ctx, OUTB), sizeof got);
    for (int c = 0; c < 4; c++)
        assert_float_equal(got[c], (float)((12 + c) * 3) / 255.0f, 1e-7);
    tv_pipe_destroy(ctx);
}

/* elements 14..16 of 4 bytes end past the 64-byte buffer: refused by name */
static void test_texture_buffer_range_in_view_texels(void **state)
{
    (void)state;
    tv_pipe_ctx *ctx = ctx_with_bytes();
    tv_pipe_sampler_view view = {BUF, FMT_RGBA8, 0, 0, 0, 0, 14, 16, {0, 1, 2, 3}, 0};
    assert_int_equal(tv_pipe_set_sampler_views(ctx, TV_PIPE_STAGE_COMPUTE, 0, 1, &view), 0);
    tv_pipe_sampler_state samp;
    memset(&samp, 0, sizeof samp);
    assert_int_equal(tv_pipe_set_sampler_states(ctx, TV_PIPE_STAGE_COMPUTE, 0, 1, &samp), 0);
    assert_int_equal(tv_pipe_shader_create(ctx, CS, TV_PIPE_STAGE_COMPUTE, cs_texel,
                                           sizeof cs_texel), 0);
    assert_int_equal(tv_pipe_bind_shader(ctx, TV_PIPE_STAGE_COMPUTE, CS), 0);
    const uint32_t one[3] = {1, 1, 1};
    assert_int_not_equal(tv_pipe_launch_grid(ctx, one, one), 0);
    assert_non_null(strstr(tv_pipe_error(ctx), "outside buffer"));
    tv_pipe_destroy(ctx);
}

static void test_r32_buffer_image_over_r8(void **state)
{
    (void)state;
    tv_pipe_ctx *ctx = ctx_with_bytes();
    tv_pipe_image_binding ib = {BUF, FMT_R32_UINT, 0, 0, 0, 0, 64};
    assert_int_equal(tv_pipe_set_shader_images(ctx, TV_PIPE_STAGE_COMPUTE, 0, 1, &ib), 0);
    launch(ctx, "COMP\n"
                "PROPERTY CS_FIXED_BLOCK_WIDTH 1\n"
                "PROPERTY CS_FIXED_BLOCK_HEIGHT 1\n"
                "PROPERTY CS_FIXED_BLOCK_DEPTH 1\n"
                "DCL IMAGE[0], BUFFER, PIPE_FORMAT_R32_UINT\n"
                "DCL BUFFER[0]\n"
                "DCL TEMP[0..1]\n"
                "IMM[0] UINT32 {3, 0, 16, 0}\n"
                "  0: LOAD TEMP[0].x, IMAGE[0], IMM[0].xxxx, BUFFER, PIPE_FORMAT_R32_UINT\n"
                "  1: RESQ TEMP[1], IMAGE[0]\n"
                "  2: MOV TEMP[0].y, TEMP[1].xxxx\n"
                "  3: STORE BUFFER[0].xy, IMM[0].yyyy, TEMP[0]\n"
                "  4: END\n");
    uint32_t got[2];
    memcpy(got, tv_pipe_resource_data(ctx, OUTB), sizeof got);
    /* bytes 12..15 = 36, 39, 42, 45, little-endian */
    assert_int_equal(got[0], 36u | 39u << 8 | 42u << 16 | 45u << 24);
    assert_int_equal(got[1], 16);
    tv_pipe_destroy(ctx);
}

static void test_cube_array_image_size_counts_cubes(void **state)
{
    (void)state;
    tv_pipe_ctx *ctx = ctx_with_bytes();
    tv_pipe_resource_desc d = {TARGET_CUBE_ARRAY, FMT_RGBA8, 0, 4, 4, 1, 12, 0, 0};
    assert_int_equal(tv_pipe_resource_create(ctx, CUBES, &d), 0);
    tv_pipe_image_binding ib = {CUBES, FMT_RGBA8, 0, 0, 11, 0, 0};
    assert_int_equal(tv_pipe_set_shader_images(ctx, TV_PIPE_STAGE_COMPUTE, 0, 1, &ib), 0);
    launch(ctx, "COMP\n"
                "PROPERTY CS_FIXED_BLOCK_WIDTH 1\n"
                "PROPERTY CS_FIXED_BLOCK_HEIGHT 1\n"
                "PROPERTY CS_FIXED_BLOCK_DEPTH 1\n"
                "DCL IMAGE[0], CUBEARRAY, PIPE_FORMAT_R8G8B8A8_UNORM\n"
                "DCL BUFFER[0]\n"
                "DCL TEMP[0]\n"
                "IMM[0] UINT32 {0, 0, 0, 0}\n"
                "  0: RESQ TEMP[0], IMAGE[0]\n"
                "  1: STORE BUFFER[0].xyz, IMM[0].xxxx, TEMP[0]\n"
                "  2: END\n");
    uint32_t got[3];
    memcpy(got, tv_pipe_resource_data(ctx, OUTB), sizeof got);
    assert_int_equal(got[0], 4);
    assert_int_equal(got[1], 4);
    assert_int_equal(got[2], 2);     /* 12 layers: 2 cubes */
    tv_pipe_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rgba8_texture_buffer_over_r8),
        cmocka_unit_test(test_texture_buffer_range_in_view_texels),
        cmocka_unit_test(test_r32_buffer_image_over_r8),
        cmocka_unit_test(test_cube_array_image_size_counts_cubes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
