/* Sampler views of another target than their resource's (ARB_texture_view; virgl sends the
 * view's PIPE_TEXTURE_* with VIRGL_CAP_TEXTURE_VIEW): a cube of six layers of a 2D array,
 * a 2D of one layer, a 2D array of a cube's faces, and the views GL does not allow refused
 * by name. Each layer holds one value, so the value read names the layer a fetch reached;
 * which face a cube direction selects is GL's table (major axis -Y: face 3, and so on),
 * not texvm's sampler. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "texvm/pipe.h"
#include "helper_sample.h"

#include <stdio.h>
#include <stdint.h>
#include <string.h>

/* Gallium's targets and virgl's format numbers */
enum {
    T_BUFFER = 0, T_1D = 1, T_2D = 2, T_3D = 3, T_CUBE = 4, T_1D_ARRAY = 6, T_2D_ARRAY = 7,
    T_CUBE_ARRAY = 8
};
enum { R8 = 64, R32F = 28 };

static void expect_error(tv_pipe_ctx *ctx, int rc, const char *what)
{
    assert_int_equal(rc, -1);
    if (!strstr(tv_pipe_error(ctx), what))
        fail_msg("error \"%s\" does not contain \"%s\"", tv_pipe_error(ctx), what);
}

/* RES: LAYERS layers of W x H R32F texels, layer L holding 10 (L + 1) everywhere */
static void make_layers(tv_pipe_ctx *ctx, uint32_t res, uint32_t target, uint32_t w,
                        uint32_t h, uint32_t layers)
{
    tv_pipe_resource_desc d = {target, R32F, 0, w, h, 1, layers, 0, 0};
    assert_int_equal(tv_pipe_resource_create(ctx, res, &d), 0);
    for (uint32_t l = 0; l < layers; l++) {
        float v[64];
        for (uint32_t i = 0; i < w * h; i++)
            v[i] = 10.0f * (float)(l + 1);
        const tv_pipe_box box = {0, 0, l, w, h, 1};
        assert_int_equal(tv_pipe_transfer_write(ctx, res, 0, &box, v, sizeof v, 0, w * 4,
                                                w * h * 4), 0);
    }
}

/* Runs OP (TXF or TXL) at COORD through VIEW (of TGSI target TT), no mip filter; returns
 * the launch's result, the texel's red in *out. */
static int sample(tv_pipe_ctx *ctx, const tv_pipe_sampler_view *view, const char *tt,
                  const char *op, const uint32_t coord[4], float *out)
{
    tv_pipe_sampler_state samp;
    memset(&samp, 0, sizeof samp);
    samp.min_mip_filter = 2;     /* none */
    uint32_t w[4];
    int rc = pipe_test_sample(ctx, view, &samp, tt, op, coord, w);
    if (out)
        memcpy(out, w, 4);
    return rc;
}

static uint32_t fbits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static void expect_red(tv_pipe_ctx *ctx, const tv_pipe_sampler_view *view, const char *tt,
                         const char *op, const uint32_t coord[4], float want)
{
    float got = -1;
    if (sample(ctx, view, tt, op, coord, &got))
        fail_msg("launch: %s", tv_pipe_error(ctx));
    if (got != want)
        fail_msg("%s %s: %g, want %g", op, tt, got, want);
}

/* A cube view of layers 1..6 of a 7-layer 2D array: each direction's major axis picks a
 * face (GL 4.6 table 8.19: +X 0, -X 1, +Y 2, -Y 3, +Z 4, -Z 5), face f being layer 1 + f,
 * which holds 10 (2 + f). */
static void test_cube_of_2d_array(void **state)
{
    (void)state;
    tv_pipe_ctx *ctx = tv_pipe_create(0);
    assert_non_null(ctx);
    make_layers(ctx, 1, T_2D_ARRAY, 2, 2, 7);
    tv_pipe_sampler_view view = {1, R32F, 0, 0, 1, 6, 0, 0, {0, 1, 2, 3}, T_CUBE};
    const float dirs[6][3] = {{1, 0.2f, 0.1f}, {-1, 0.1f, 0.2f}, {0.2f, 1, 0.1f},
                              {0.1f, -1, 0.2f}, {0.2f, 0.1f, 1}, {0.1f, 0.2f, -1}};
    for (int f = 0; f < 6; f++) {
        const uint32_t c[4] = {fbits(dirs[f][0]), fbits(dirs[f][1]), fbits(dirs[f][2]), 0};
        expect_red(ctx, &view, "CUBE", "TXL", c, 10.0f * (float)(2 + f));
    }
    /* a 2D view of layer 5 and a 2D array view of layers 3..4 (its layer 1: array layer 4) */
    tv_pipe_sampler_view one = {1, R32F, 0, 0, 5, 5, 0, 0, {0, 1, 2, 3}, T_2D};
    const uint32_t at11[4] = {1, 1, 0, 0};
    expect_red(ctx, &one, "2D", "TXF", at11, 60.0f);
    tv_pipe_sampler_view two = {1, R32F, 0, 0, 3, 4, 0, 0, {0, 1, 2, 3}, T_2D_ARRAY};
    const uint32_t at_l1[4] = {0, 1, 1, 0};
    expect_red(ctx, &two, "2D_ARRAY", "TXF", at_l1, 50.0f);
    tv_pipe_destroy(ctx);
}

/* A 2D array view of a cube's faces: layer f of the view is face f, 10 (f + 1); a 2D view
 * of face 4. */
static void test_2d_array_of_cube(void **state)
{
    (void)state;
    tv_pipe_ctx *ctx = tv_pipe_create(0);
    assert_non_null(ctx);
    make_layers(ctx, 2, T_CUBE, 2, 2, 6);
    tv_pipe_sampler_view arr = {2, R32F, 0, 0, 0, 5, 0, 0, {0, 1, 2, 3}, T_2D_ARRAY};
    for (uint32_t f = 0; f < 6; f++) {
        const uint32_t c[4] = {1, 0, f, 0};
        expect_red(ctx, &arr, "2D_ARRAY", "TXF", c, 10.0f * (float)(f + 1));
    }
    tv_pipe_sampler_view face = {2, R32F, 0, 0, 4, 4, 0, 0, {0, 1, 2, 3}, T_2D};
    const uint32_t at10[4] = {1, 0, 0, 0};
    expect_red(ctx, &face, "2D", "TXF", at10, 50.0f);
    /* a 1D array view of a 1D texture reads its one layer */
    tv_pipe_resource_desc d1 = {T_1D, R32F, 0, 4, 1, 1, 1, 0, 0};
    assert_int_equal(tv_pipe_resource_create(ctx, 3, &d1), 0);
    const float row[4] = {1, 2, 3, 4};
    const tv_pipe_box box = {0, 0, 0, 4, 1, 1};
    assert_int_equal(tv_pipe_transfer_write(ctx, 3, 0, &box, row, sizeof row, 0, 16, 16), 0);
    tv_pipe_sampler_view a1 = {3, R32F, 0, 0, 0, 0, 0, 0, {0, 1, 2, 3}, T_1D_ARRAY};
    const uint32_t at2[4] = {2, 0, 0, 0};
    expect_red(ctx, &a1, "1D_ARRAY", "TXF", at2, 3.0f);
    tv_pipe_destroy(ctx);
}

/* A view left bound in a slot the shader does not declare is not looked at: Mesa's virgl
 * driver unbinds trailing views only in its own state, so slot 1 may keep a view whose
 * resource the client has since destroyed (piglit's arb_copy_image-formats --samples=2 did:
 * `sampler view 1: resource 10 was destroyed`). The shader declares SVIEW[0] only. A
 * declared slot with a destroyed resource stays a named error. */
static void test_undeclared_stale_slot(void **state)
{
    (void)state;
    tv_pipe_ctx *ctx = tv_pipe_create(0);
    assert_non_null(ctx);
    make_layers(ctx, 1, T_2D, 2, 2, 1);
    make_layers(ctx, 10, T_2D, 2, 2, 1);
    tv_pipe_sampler_view stale = {10, R32F, 0, 0, 0, 0, 0, 0, {0, 1, 2, 3}, 0};
    assert_int_equal(tv_pipe_set_sampler_views(ctx, TV_PIPE_STAGE_COMPUTE, 1, 1, &stale), 0);
    assert_int_equal(tv_pipe_resource_destroy(ctx, 10), 0);
    tv_pipe_sampler_view live = {1, R32F, 0, 0, 0, 0, 0, 0, {0, 1, 2, 3}, 0};
    const uint32_t at[4] = {1, 0, 0, 0};
    expect_red(ctx, &live, "2D", "TXF", at, 10.0f);
    tv_pipe_sampler_view gone = {10, R32F, 0, 0, 0, 0, 0, 0, {0, 1, 2, 3}, 0};
    expect_error(ctx, sample(ctx, &gone, "2D", "TXF", at, NULL),
                 "sampler view 0: resource 10 was destroyed");
    tv_pipe_destroy(ctx);
}

/* Views GL does not allow, or that leave their resource, are named errors at the launch. */
static void test_refused_views(void **state)
{
    (void)state;
    tv_pipe_ctx *ctx = tv_pipe_create(0);
    assert_non_null(ctx);
    make_layers(ctx, 1, T_2D_ARRAY, 2, 2, 7);
    make_layers(ctx, 2, T_2D_ARRAY, 4, 2, 6);
    make_layers(ctx, 3, T_2D, 2, 2, 1);
    const uint32_t c[4] = {0, 0, 0, 0};
    tv_pipe_sampler_view v3d = {1, R32F, 0, 0, 0, 0, 0, 0, {0, 1, 2, 3}, T_3D};
    expect_error(ctx, sample(ctx, &v3d, "3D", "TXF", c, NULL),
                 "sampler view 0: a 3D view of resource 1 (2D_ARRAY) is not a texture view "
                 "GL allows");
    tv_pipe_sampler_view cube2d = {3, R32F, 0, 0, 0, 0, 0, 0, {0, 1, 2, 3}, T_CUBE};
    expect_error(ctx, sample(ctx, &cube2d, "CUBE", "TXL", c, NULL),
                 "a CUBE view of resource 3 (2D) is not a texture view GL allows");
    tv_pipe_sampler_view flat = {2, R32F, 0, 0, 0, 5, 0, 0, {0, 1, 2, 3}, T_CUBE};
    expect_error(ctx, sample(ctx, &flat, "CUBE", "TXL", c, NULL),
                 "a cube view of resource 2's 4x2 layers (not square)");
    tv_pipe_sampler_view out = {1, R32F, 0, 0, 2, 7, 0, 0, {0, 1, 2, 3}, T_CUBE};
    expect_error(ctx, sample(ctx, &out, "CUBE", "TXL", c, NULL),
                 "layers 2..7 outside resource 1");
    tv_pipe_sampler_view five = {1, R32F, 0, 0, 0, 4, 0, 0, {0, 1, 2, 3}, T_CUBE};
    expect_error(ctx, sample(ctx, &five, "CUBE", "TXL", c, NULL), "a cube view of 5 layers");
    tv_pipe_sampler_view nine = {1, R32F, 0, 0, 0, 0, 0, 0, {0, 1, 2, 3}, 9};
    expect_error(ctx, sample(ctx, &nine, "2D", "TXF", c, NULL), "unknown target 9");
    tv_pipe_sampler_view lvl = {1, R32F, 0, 1, 0, 0, 0, 0, {0, 1, 2, 3}, T_2D};
    expect_error(ctx, sample(ctx, &lvl, "2D", "TXF", c, NULL), "levels 0..1 outside");
    tv_pipe_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cube_of_2d_array),
        cmocka_unit_test(test_2d_array_of_cube),
        cmocka_unit_test(test_refused_views),
        cmocka_unit_test(test_undeclared_stale_slot),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
