/* Blits (src/pipe/pipe_blit.c) by hand: nearest magnification, a mirrored source box,
 * bilinear filtering clamped at the box's edge, trilinear from a 3D source (array layers
 * apart), write masks, RGBA8 -> BGRA8 conversion, scissor, depth copies, one part of
 * packed depth/stencil, linear depth, and the named refusals. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "texvm/pipe.h"

#include <string.h>

enum { RGBA8 = 67, BGRA8 = 1, Z32F = 18, Z16 = 16 };

static uint32_t tex2d(tv_pipe_ctx *ctx, uint32_t h, uint32_t format, uint32_t w, uint32_t ht)
{
    tv_pipe_resource_desc d = {2, format, 2, w, ht, 1, 1, 0, 0};
    assert_int_equal(tv_pipe_resource_create(ctx, h, &d), 0);
    return h;
}

static tv_pipe_blit_info blit(uint32_t dst, uint32_t dfmt, int32_t dw, int32_t dh, uint32_t src,
                              uint32_t sfmt, int32_t sx, int32_t sw, int32_t sh)
{
    tv_pipe_blit_info b;
    memset(&b, 0, sizeof b);
    b.dst = (tv_pipe_blit_side){dst, 0, dfmt, 0, 0, 0, dw, dh, 1};
    b.src = (tv_pipe_blit_side){src, 0, sfmt, sx, 0, 0, sw, sh, 1};
    b.mask = 0xf;
    return b;
}

static void test_nearest_mirror_mask_convert(void **state)
{
    (void)state;
    tv_pipe_ctx *ctx = tv_pipe_create(0);
    tex2d(ctx, 1, RGBA8, 4, 4);
    tex2d(ctx, 2, RGBA8, 8, 8);
    tex2d(ctx, 3, BGRA8, 4, 4);
    uint8_t *s = tv_pipe_resource_data(ctx, 1);
    for (int i = 0; i < 16; i++) {
        s[4 * i] = (uint8_t)(i * 10);
        s[4 * i + 1] = (uint8_t)(i * 10 + 1);
        s[4 * i + 2] = (uint8_t)(i * 10 + 2);
        s[4 * i + 3] = 255;
    }
    /* 4x4 -> 8x8 nearest: each texel a 2x2 block */
    tv_pipe_blit_info b = blit(2, RGBA8, 8, 8, 1, RGBA8, 0, 4, 4);
    assert_int_equal(tv_pipe_blit(ctx, &b), 0);
    const uint8_t *d = tv_pipe_resource_data(ctx, 2);
    for (int y = 0; y < 8; y++)
        for (int x = 0; x < 8; x++)
            assert_memory_equal(d + 4 * (y * 8 + x), s + 4 * ((y / 2) * 4 + x / 2), 4);
    /* a mirrored source box (x from 4 down to 0), only green written */
    memset(tv_pipe_resource_data(ctx, 2), 0, 8 * 8 * 4);
    b = blit(2, RGBA8, 4, 4, 1, RGBA8, 4, -4, 4);
    b.mask = 0x2;
    assert_int_equal(tv_pipe_blit(ctx, &b), 0);
    for (int y = 0; y < 4; y++)
        for (int x = 0; x < 4; x++) {
            const uint8_t *p = d + 4 * (y * 8 + x);
            assert_int_equal(p[0], 0);
            assert_int_equal(p[1], s[4 * (y * 4 + (3 - x)) + 1]);
            assert_int_equal(p[3], 0);
        }
    /* RGBA8 -> BGRA8: the channels land in their memory places */
    b = blit(3, BGRA8, 4, 4, 1, RGBA8, 0, 4, 4);
    assert_int_equal(tv_pipe_blit(ctx, &b), 0);
    const uint8_t *c = tv_pipe_resource_data(ctx, 3);
    for (int i = 0; i < 16; i++) {
        assert_int_equal(c[4 * i], s[4 * i + 2]);
        assert_int_equal(c[4 * i + 2], s[4 * i]);
    }
    /* scissor: only x < 2 of the destination */
    memset(tv_pipe_resource_data(ctx, 2), 0, 8 * 8 * 4);
    b = blit(2, RGBA8, 8, 8, 1, RGBA8, 0, 4, 4);
    b.scissor_enable = true;
    b.scissor = (tv_pipe_scissor){0, 0, 2, 8};
    assert_int_equal(tv_pipe_blit(ctx, &b), 0);
    assert_int_equal(d[4 * 1 + 3], 255);
    assert_int_equal(d[4 * 2 + 3], 0);
    tv_pipe_destroy(ctx);
}

static void test_linear(void **state)
{
    (void)state;
    tv_pipe_ctx *ctx = tv_pipe_create(0);
    tex2d(ctx, 1, RGBA8, 2, 1);
    tex2d(ctx, 2, RGBA8, 4, 1);
    uint8_t *s = tv_pipe_resource_data(ctx, 1);
    const uint8_t texels[8] = {0, 0, 0, 255, 255, 0, 0, 255};
    memcpy(s, texels, 8);
    tv_pipe_blit_info b = blit(2, RGBA8, 4, 1, 1, RGBA8, 0, 2, 1);
    b.filter = 1;
    assert_int_equal(tv_pipe_blit(ctx, &b), 0);
    /* centres at source x 0.25, 0.75, 1.25, 1.75: weights clamp at the edges;
     * 0.25 * 255 = 63.75 -> 64, 0.75 * 255 = 191.25 -> 191 */
    const uint8_t *d = tv_pipe_resource_data(ctx, 2);
    assert_int_equal(d[0], 0);
    assert_int_equal(d[4], 64);
    assert_int_equal(d[8], 191);
    assert_int_equal(d[12], 255);
    tv_pipe_destroy(ctx);
}

/* A 2x2x2 source of RGBA8 texels (red by slice or layer: 0, 254; green by x: 100, 200; blue
 * by y: 0, 100) halved linearly into one texel: a 3D source filters across its slices too
 * (the centre (1, 1, 1) weighs all eight texels alike: 127, 150, 50), the layers of an
 * array never (the layer under the centre, 1: red 254). */
static void test_linear_3d_and_array(void **state)
{
    (void)state;
    static const struct { uint32_t target, depth, layers; uint8_t red; } cases[] = {
        {3, 2, 1, 127},   /* PIPE_TEXTURE_3D */
        {7, 1, 2, 254},   /* PIPE_TEXTURE_2D_ARRAY */
    };
    uint8_t texels[2][2][2][4];
    for (int z = 0; z < 2; z++)
        for (int y = 0; y < 2; y++)
            for (int x = 0; x < 2; x++) {
                texels[z][y][x][0] = (uint8_t)(z * 254);
                texels[z][y][x][1] = (uint8_t)(100 + x * 100);
                texels[z][y][x][2] = (uint8_t)(y * 100);
                texels[z][y][x][3] = 255;
            }
    for (unsigned k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        tv_pipe_ctx *ctx = tv_pipe_create(0);
        tv_pipe_resource_desc sd = {cases[k].target, RGBA8, 2, 2, 2, cases[k].depth,
                                    cases[k].layers, 0, 0};
        assert_int_equal(tv_pipe_resource_create(ctx, 1, &sd), 0);
        tex2d(ctx, 2, RGBA8, 1, 1);
        tv_pipe_box box = {0, 0, 0, 2, 2, 2};
        assert_int_equal(tv_pipe_transfer_write(ctx, 1, 0, &box, texels, sizeof texels, 0, 8,
                                                16), 0);
        tv_pipe_blit_info b = blit(2, RGBA8, 1, 1, 1, RGBA8, 0, 2, 2);
        b.src.d = 2;
        b.filter = 1;
        assert_int_equal(tv_pipe_blit(ctx, &b), 0);
        const uint8_t *d = tv_pipe_resource_data(ctx, 2);
        assert_int_equal(d[0], cases[k].red);
        assert_int_equal(d[1], 150);
        assert_int_equal(d[2], 50);
        assert_int_equal(d[3], 255);
        tv_pipe_destroy(ctx);
    }
}

static void test_depth_and_refusals(void **state)
{
    (void)state;
    tv_pipe_ctx *ctx = tv_pipe_create(0);
    tex2d(ctx, 1, Z32F, 2, 2);
    tex2d(ctx, 2, Z32F, 2, 2);
    tex2d(ctx, 3, Z16, 2, 2);
    tex2d(ctx, 4, RGBA8, 2, 2);
    float *z = (float *)(void *)tv_pipe_resource_data(ctx, 1);
    for (int i = 0; i < 4; i++)
        z[i] = 0.25f * (float)i;
    tv_pipe_blit_info b = blit(2, Z32F, 2, 2, 1, Z32F, 0, 2, 2);
    b.mask = 0x10;
    assert_int_equal(tv_pipe_blit(ctx, &b), 0);
    assert_memory_equal(tv_pipe_resource_data(ctx, 2), z, 16);
    b = blit(3, Z16, 2, 2, 1, Z32F, 0, 2, 2);
    b.mask = 0x10;
    assert_int_equal(tv_pipe_blit(ctx, &b), -1);
    assert_non_null(strstr(tv_pipe_error(ctx), "depth/stencil between formats"));
    b = blit(4, RGBA8, 2, 2, 1, RGBA8, 0, 3, 2);   /* source box past the level */
    assert_int_equal(tv_pipe_blit(ctx, &b), -1);
    assert_non_null(strstr(tv_pipe_error(ctx), "source box"));
    b = blit(4, RGBA8, 2, 2, 4, RGBA8, 0, 2, 2);
    b.alpha_blend = true;
    assert_int_equal(tv_pipe_blit(ctx, &b), -1);
    assert_non_null(strstr(tv_pipe_error(ctx), "blending blits are not implemented"));
    tv_pipe_destroy(ctx);
}

/* Packed depth/stencil with one part in the mask (piglit's fbo-blit-d24s8 and
 * depth-stencil-blit depth|stencil GL_DEPTH24_STENCIL8 / GL_DEPTH32F_STENCIL8): only that
 * part of each destination texel is written, the other kept. The fields as Gallium lays the
 * formats out, LSB first: Z24_UNORM_S8_UINT = Z24 S8, S8_UINT_Z24_UNORM = S8 Z24,
 * Z32_FLOAT_S8X24_UINT = Z32F S8 X24. A part the format lacks (stencil of Z32_FLOAT) blits
 * nothing. */
static void test_depth_or_stencil_alone(void **state)
{
    (void)state;
    static const struct {
        uint32_t format, bytes;
        uint64_t depth, stencil;
    } fmts[] = {
        {19, 4, 0x00ffffffu, 0xff000000u},
        {20, 4, 0xffffff00u, 0x000000ffu},
        {126, 8, 0x00000000ffffffffull, 0x000000ff00000000ull},
    };
    for (unsigned f = 0; f < sizeof fmts / sizeof fmts[0]; f++)
        for (unsigned part = 0; part < 3; part++) {   /* depth, stencil, both */
            tv_pipe_ctx *ctx = tv_pipe_create(0);
            tex2d(ctx, 1, fmts[f].format, 2, 2);
            tex2d(ctx, 2, fmts[f].format, 2, 2);
            uint64_t src[4], dst[4];
            for (int i = 0; i < 4; i++) {
                src[i] = 0x1122334455667788ull * (uint64_t)(i + 1);
                dst[i] = 0x99aabbccddeeff01ull ^ ((uint64_t)i << 40);
                memcpy(tv_pipe_resource_data(ctx, 1) + i * fmts[f].bytes, &src[i],
                       fmts[f].bytes);
                memcpy(tv_pipe_resource_data(ctx, 2) + i * fmts[f].bytes, &dst[i],
                       fmts[f].bytes);
            }
            tv_pipe_blit_info b = blit(2, fmts[f].format, 2, 2, 1, fmts[f].format, 0, 2, 2);
            b.mask = part == 0 ? 0x10 : part == 1 ? 0x20 : 0x30;
            if (tv_pipe_blit(ctx, &b))
                fail_msg("format %u mask 0x%x: %s", fmts[f].format, b.mask, tv_pipe_error(ctx));
            uint64_t written = part == 0 ? fmts[f].depth : part == 1 ? fmts[f].stencil : ~0ull;
            uint64_t keep = fmts[f].bytes == 8 ? ~0ull : 0xffffffffull;
            for (int i = 0; i < 4; i++) {
                uint64_t got = 0, want = ((dst[i] & ~written) | (src[i] & written)) & keep;
                memcpy(&got, tv_pipe_resource_data(ctx, 2) + i * fmts[f].bytes, fmts[f].bytes);
                if (got != want)
                    fail_msg("format %u mask 0x%x texel %d: %016llx, want %016llx",
                             fmts[f].format, b.mask, i, (unsigned long long)got,
                             (unsigned long long)want);
            }
            tv_pipe_destroy(ctx);
        }
    tv_pipe_ctx *ctx = tv_pipe_create(0);
    tex2d(ctx, 1, Z32F, 2, 2);
    tex2d(ctx, 2, Z32F, 2, 2);
    memset(tv_pipe_resource_data(ctx, 1), 0x3f, 16);
    memset(tv_pipe_resource_data(ctx, 2), 0, 16);
    tv_pipe_blit_info b = blit(2, Z32F, 2, 2, 1, Z32F, 0, 2, 2);
    b.mask = 0x20;
    assert_int_equal(tv_pipe_blit(ctx, &b), 0);
    static const uint8_t zero[16];
    assert_memory_equal(tv_pipe_resource_data(ctx, 2), zero, 16);
    tv_pipe_destroy(ctx);
}

/* Linear blits filter depth (st/mesa makes a depth texture's mipmaps by linear blits with the
 * depth mask: piglit's fbo-generatemipmap-formats of GL_ARB_depth_texture and
 * GL_ARB_depth_buffer_float): each destination depth the bilinear weighing of the stored
 * fields, rounded to the nearest UNORM step (ties to even) or to float32; the stencil of a
 * packed format stays nearest. Nearest blits of the same boxes pick one texel. */
static void test_linear_depth(void **state)
{
    (void)state;
    tv_pipe_ctx *ctx = tv_pipe_create(0);
    tex2d(ctx, 1, Z16, 4, 1);
    tex2d(ctx, 2, Z16, 2, 1);
    static const uint16_t z16[4] = {0, 100, 1000, 1001};
    memcpy(tv_pipe_resource_data(ctx, 1), z16, sizeof z16);
    tv_pipe_blit_info b = blit(2, Z16, 2, 1, 1, Z16, 0, 4, 1);
    b.mask = 0x10;
    assert_int_equal(tv_pipe_blit(ctx, &b), 0);
    static const uint16_t nearest16[2] = {100, 1001};
    assert_memory_equal(tv_pipe_resource_data(ctx, 2), nearest16, sizeof nearest16);
    b.filter = 1;
    assert_int_equal(tv_pipe_blit(ctx, &b), 0);
    static const uint16_t linear16[2] = {50, 1000};   /* 1000.5: the even step */
    assert_memory_equal(tv_pipe_resource_data(ctx, 2), linear16, sizeof linear16);

    tex2d(ctx, 3, Z32F, 4, 2);
    tex2d(ctx, 4, Z32F, 2, 1);
    static const float z32[8] = {0.25f, 0.5f, 0.0f, 1.0f, 0.75f, 1.0f, 0.125f, 0.375f};
    memcpy(tv_pipe_resource_data(ctx, 3), z32, sizeof z32);
    b = blit(4, Z32F, 2, 1, 3, Z32F, 0, 4, 2);
    b.mask = 0x10;
    b.filter = 1;
    assert_int_equal(tv_pipe_blit(ctx, &b), 0);
    const float *got = (const float *)(const void *)tv_pipe_resource_data(ctx, 4);
    assert_true(got[0] == 0.625f && got[1] == 0.375f);

    /* Z24_UNORM_S8_UINT, both parts: the depth filtered, the stencil of the nearest texel */
    tex2d(ctx, 5, 19, 2, 1);
    tex2d(ctx, 6, 19, 1, 1);
    static const uint32_t zs[2] = {0x11000010u, 0x22000021u};
    memcpy(tv_pipe_resource_data(ctx, 5), zs, sizeof zs);
    b = blit(6, 19, 1, 1, 5, 19, 0, 2, 1);
    b.mask = 0x30;
    b.filter = 1;
    assert_int_equal(tv_pipe_blit(ctx, &b), 0);
    uint32_t v;
    memcpy(&v, tv_pipe_resource_data(ctx, 6), 4);
    assert_int_equal(v, 0x22000018u);   /* (0x10 + 0x21) / 2 = 24.5 -> 24; stencil of texel 1 */
    tv_pipe_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nearest_mirror_mask_convert),
        cmocka_unit_test(test_linear),
        cmocka_unit_test(test_linear_3d_and_array),
        cmocka_unit_test(test_depth_and_refusals),
        cmocka_unit_test(test_depth_or_stencil_alone),
        cmocka_unit_test(test_linear_depth),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
