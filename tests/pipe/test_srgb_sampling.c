/* Sampling an sRGB view through the pipe layer decodes it (GL 4.6 §8.24): R, G, B of each
 * texel go from sRGB to linear before filtering, alpha stays linear, and a linear view of
 * the same texels (how Mesa does GL_SKIP_DECODE_EXT) reads them raw. The texture unit
 * decodes a sampled texel only where the header's sRGB bit and the sampler's
 * SRGB_CONVERSION are both set (the NVIDIA rule); the pipe layer's samplers left the
 * second clear, so every sRGB texture was sampled undecoded (piglit's tex-srgb read 76 where
 * GL gives 18). The border colour of an sRGB view is the sampler's, as given (GL keeps it
 * linear), through the unit's 8-bit sRGB border bytes. Expected values: GL's sRGB formulas,
 * written here. */
#include "texvm/pipe.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

enum { T_BUFFER = 0, T_2D = 2, R8 = 64, RGBA8 = 67, RGBA8_SRGB = 104, SSBO = 9 };

/* GL's sRGB decoding of an 8-bit value, and the 8-bit sRGB encoding of a linear one */
static double srgb_decode(double c)
{
    return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4);
}

static double srgb_encode8(double l)
{
    double c = l <= 0.0031308 ? l * 12.92 : 1.055 * pow(l, 1 / 2.4) - 0.055;
    return nearbyint(c * 255.0) / 255.0;
}

/* TXL at the coordinate (s, t) of CONST[0][0] (LOD 0 in w): the sampled RGBA */
static const char cs_sample[] = "COMP\n"
                                "PROPERTY CS_FIXED_BLOCK_WIDTH 1\n"
                                "PROPERTY CS_FIXED_BLOCK_HEIGHT 1\n"
                                "PROPERTY CS_FIXED_BLOCK_DEPTH 1\n"
                                "DCL SAMP[0]\n"
                                "DCL SVIEW[0], 2D, FLOAT\n"
                                "DCL BUFFER[0]\n"
                                "DCL CONST[0][0]\n"
                                "DCL TEMP[0]\n"
                                "IMM[0] UINT32 {0, 0, 0, 0}\n"
                                "TXL TEMP[0], CONST[0][0], SAMP[0], 2D\n"
                                "STORE BUFFER[0].xyzw, IMM[0].xxxx, TEMP[0]\n"
                                "END\n";

/* Sample resource 1 through a view of FORMAT at (S, T) with wrap mode WRAP (PIPE_TEX_WRAP_*)
 * and border colour BORDER, nearest filtering; the result into OUT. */
static void sample(tv_pipe_ctx *ctx, uint32_t format, float s, float t, unsigned wrap,
                   const float border[4], float out[4])
{
    const float xy[4] = {s, t, 0, 0};
    uint32_t coord[4];
    memcpy(coord, xy, 16);
    assert_int_equal(tv_pipe_set_constant_buffer(ctx, TV_PIPE_STAGE_COMPUTE, 0, 0, 0, 0, coord,
                                                 4), 0);
    tv_pipe_sampler_view view = {1, format, 0, 0, 0, 0, 0, 0, {0, 1, 2, 3}, 0};
    assert_int_equal(tv_pipe_set_sampler_views(ctx, TV_PIPE_STAGE_COMPUTE, 0, 1, &view), 0);
    tv_pipe_sampler_state samp;
    memset(&samp, 0, sizeof samp);
    samp.wrap_s = samp.wrap_t = samp.wrap_r = wrap;
    memcpy(samp.border_color, border, 16);
    assert_int_equal(tv_pipe_set_sampler_states(ctx, TV_PIPE_STAGE_COMPUTE, 0, 1, &samp), 0);
    const uint32_t one[3] = {1, 1, 1};
    if (tv_pipe_launch_grid(ctx, one, one))
        fail_msg("launch: %s", tv_pipe_error(ctx));
    memcpy(out, tv_pipe_resource_data(ctx, SSBO), 16);
}

static void expect(const float got[4], double r, double g, double b, double a)
{
    const double want[4] = {r, g, b, a};
    for (int c = 0; c < 4; c++)
        if (fabs(got[c] - want[c]) > 1e-6)
            fail_msg("channel %d: %.9g, want %.9g", c, got[c], want[c]);
}

static void test_srgb_view_decodes(void **state)
{
    (void)state;
    tv_pipe_ctx *ctx = tv_pipe_create(0);
    assert_non_null(ctx);
    /* a 2x1 texture: texel 0 = (76, 188, 0, 76), texel 1 = (255, 255, 255, 255) */
    tv_pipe_resource_desc d = {T_2D, RGBA8_SRGB, 0, 2, 1, 1, 1, 0, 0};
    assert_int_equal(tv_pipe_resource_create(ctx, 1, &d), 0);
    const uint8_t texels[8] = {76, 188, 0, 76, 255, 255, 255, 255};
    const tv_pipe_box box = {0, 0, 0, 2, 1, 1};
    assert_int_equal(tv_pipe_transfer_write(ctx, 1, 0, &box, texels, 8, 0, 8, 8), 0);
    tv_pipe_resource_desc b = {T_BUFFER, R8, 0, 16, 1, 1, 1, 0, 0};
    assert_int_equal(tv_pipe_resource_create(ctx, SSBO, &b), 0);
    tv_pipe_buffer_binding bb = {SSBO, 0, 16};
    assert_int_equal(tv_pipe_set_shader_buffers(ctx, TV_PIPE_STAGE_COMPUTE, 0, 1, &bb), 0);
    assert_int_equal(tv_pipe_shader_create(ctx, 5, TV_PIPE_STAGE_COMPUTE, cs_sample,
                                           sizeof cs_sample), 0);
    assert_int_equal(tv_pipe_bind_shader(ctx, TV_PIPE_STAGE_COMPUTE, 5), 0);
    const float border[4] = {0.5f, 0.25f, 1.0f, 0.75f};
    float t[4];
    /* the sRGB view: RGB decoded, alpha linear */
    sample(ctx, RGBA8_SRGB, 0.25f, 0.5f, 0 /* REPEAT */, border, t);
    expect(t, srgb_decode(76 / 255.0), srgb_decode(188 / 255.0), 0, 76 / 255.0);
    /* the linear view of the same texels: raw */
    sample(ctx, RGBA8, 0.25f, 0.5f, 0, border, t);
    expect(t, 76 / 255.0, 188 / 255.0, 0, 76 / 255.0);
    /* outside, CLAMP_TO_BORDER: the border as given, through 8-bit sRGB for R, G, B */
    sample(ctx, RGBA8_SRGB, -1.0f, 0.5f, 3 /* CLAMP_TO_BORDER */, border, t);
    expect(t, srgb_decode(srgb_encode8(0.5)), srgb_decode(srgb_encode8(0.25)), 1.0, 0.75);
    tv_pipe_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_srgb_view_decodes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
