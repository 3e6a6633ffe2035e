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
#include "helper_sample.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

enum { T_2D = 2, RGBA8 = 67, RGBA8_SRGB = 104 };

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

/* Sample resource 1 through a view of FORMAT at (S, T) (TXL, LOD 0) with wrap mode WRAP
 * (PIPE_TEX_WRAP_*) and border colour BORDER, nearest filtering; the result into OUT. */
static void sample(tv_pipe_ctx *ctx, uint32_t format, float s, float t, unsigned wrap,
                   const float border[4], float out[4])
{
    const float xy[4] = {s, t, 0, 0};
    uint32_t coord[4];
    memcpy(coord, xy, 16);
    tv_pipe_sampler_view view = {1, format, 0, 0, 0, 0, 0, 0, {0, 1, 2, 3}, 0};
    tv_pipe_sampler_state samp;
    memset(&samp, 0, sizeof samp);
    samp.wrap_s = samp.wrap_t = samp.wrap_r = (uint8_t)wrap;
    memcpy(samp.border_color, border, 16);
    uint32_t w[4];
    if (pipe_test_sample(ctx, &view, &samp, "2D", "TXL", coord, w))
        fail_msg("launch: %s", tv_pipe_error(ctx));
    memcpy(out, w, 16);
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
