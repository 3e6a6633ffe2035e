/* Block-compressed resources in the pipe layer (S3TC, RGTC, BPTC by virgl's numbers): the
 * layout and quota charge in blocks, transfers of whole blocks (a box ends on a block or at
 * the level's edge), sampler views of them — texels checked against values worked out
 * from the formats' definitions (a BC1 block's 565 endpoints and its 2/3 mix, a BC7 mode 6
 * block's 7-bit endpoints and p-bits, sRGB by GL's formula), not from texvm's decoder —,
 * copies between compressed resources and between compressed and plain formats of the
 * same block size (Gallium's resource_copy_region, as ARB_copy_image uses it), blits
 * reading them, and the operations refused by name (clear_texture, blits into them,
 * compressed buffers). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "texvm/pipe.h"
#include "helper_sample.h"

#include <math.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>

/* Gallium's targets and virgl's format numbers */
enum { T_BUFFER = 0, T_2D = 2, T_3D = 3, T_2D_ARRAY = 7 };
enum {
    R8 = 64, RGBA32F = 31, RGBA16UI = 188, RGBA32UI = 196, DXT1_RGB = 105, DXT5_RGBA = 108,
    RGTC1_UNORM = 113, BC7 = 255, BC7_SRGB = 256, BC6H_SF = 257, BC6H_UF = 258
};

static void expect_error(tv_pipe_ctx *ctx, int rc, const char *what)
{
    assert_int_equal(rc, -1);
    if (!strstr(tv_pipe_error(ctx), what))
        fail_msg("error \"%s\" does not contain \"%s\"", tv_pipe_error(ctx), what);
}

/* A BC1 block: colour0 pure red (0xf800), colour1 pure blue (0x001f), colour0 > colour1 so
 * four colours; texel (1, 0) takes index 2 ((2·c0 + c1) / 3), texel (2, 0) index 1. */
static const uint8_t bc1_block[8] = {0x00, 0xf8, 0x1f, 0x00, 0x18, 0x00, 0x00, 0x00};

/* A BC7 mode 6 block (bit 6 set, the first six clear): both endpoints R = 127, G = 0,
 * B = 64, A = 127 (7 bits each), both p-bits 1, so every texel whatever its index is
 * R = 127·2+1 = 255, G = 1, B = 129, A = 255 (of 255). */
static void bc7_mode6(uint8_t out[16])
{
    memset(out, 0, 16);
    unsigned pos = 0;
    const struct {
        unsigned bits, value;
    } fields[] = {{6, 0}, {1, 1}, {7, 127}, {7, 127}, {7, 0}, {7, 0},
                  {7, 64}, {7, 64}, {7, 127}, {7, 127}, {1, 1}, {1, 1}};
    for (size_t f = 0; f < sizeof fields / sizeof fields[0]; f++)
        for (unsigned b = 0; b < fields[f].bits; b++, pos++)
            if ((fields[f].value >> b) & 1)
                out[pos / 8] |= (uint8_t)(1u << (pos % 8));
}

static tv_pipe_ctx *ctx_new(void)
{
    tv_pipe_ctx *ctx = tv_pipe_create(0);
    assert_non_null(ctx);
    return ctx;
}

/* GL's sRGB decoding of an 8-bit value */
static double srgb(double c)
{
    return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4);
}

static void test_layout_and_charge(void **state)
{
    (void)state;
    tv_pipe_ctx *ctx = ctx_new();
    /* BC7 10x6, four levels: 10x6, 5x3, 2x1, 1x1 are 3x2, 2x1, 1x1, 1x1 blocks of 16 bytes */
    tv_pipe_resource_desc d = {T_2D, BC7, 0, 10, 6, 1, 1, 3, 0};
    uint64_t before = tv_pipe_memory_used(ctx);
    assert_int_equal(tv_pipe_resource_create(ctx, 1, &d), 0);
    uint64_t bc7_charge = tv_pipe_memory_used(ctx) - before;
    static const size_t stride[4] = {48, 32, 16, 16}, layer[4] = {96, 32, 16, 16},
                        offset[4] = {0, 96, 128, 144};
    for (uint32_t l = 0; l < 4; l++) {
        size_t off, st, ls;
        assert_int_equal(tv_pipe_resource_level(ctx, 1, l, &off, &st, &ls), 0);
        assert_int_equal(off, offset[l]);
        assert_int_equal(st, stride[l]);
        assert_int_equal(ls, layer[l]);
    }
    assert_int_equal(tv_pipe_resource_size(ctx, 1), 160);
    /* the quota takes the bytes: the record costs what a 1-byte resource's does */
    tv_pipe_resource_desc one = {T_2D, R8, 0, 1, 1, 1, 1, 0, 0};
    before = tv_pipe_memory_used(ctx);
    assert_int_equal(tv_pipe_resource_create(ctx, 2, &one), 0);
    assert_int_equal(bc7_charge - (tv_pipe_memory_used(ctx) - before), 160 - 1);
    /* an array of 3 layers of DXT1 (8-byte blocks) 8x8: 2x2 blocks a layer */
    tv_pipe_resource_desc a = {T_2D_ARRAY, DXT1_RGB, 0, 8, 8, 1, 3, 0, 0};
    assert_int_equal(tv_pipe_resource_create(ctx, 3, &a), 0);
    assert_int_equal(tv_pipe_resource_size(ctx, 3), 3 * 32);
    /* a 3D BPTC texture (GL allows BPTC in 3D) 8x4x3: 2x1 blocks a slice */
    tv_pipe_resource_desc v = {T_3D, BC6H_UF, 0, 8, 4, 3, 1, 0, 0};
    assert_int_equal(tv_pipe_resource_create(ctx, 4, &v), 0);
    assert_int_equal(tv_pipe_resource_size(ctx, 4), 3 * 32);
    /* refused by name: a compressed buffer, a multisampled compressed texture */
    tv_pipe_resource_desc b = {T_BUFFER, BC7, 0, 64, 1, 1, 1, 0, 0};
    expect_error(ctx, tv_pipe_resource_create(ctx, 5, &b),
                 "resource 5: a buffer of block-compressed format BPTC_RGBA_UNORM");
    tv_pipe_resource_desc m = {T_2D, BC7, 0, 8, 8, 1, 1, 0, 4};
    expect_error(ctx, tv_pipe_resource_create(ctx, 6, &m), "uncompressed format");
    tv_pipe_destroy(ctx);
}

static void test_transfers_in_blocks(void **state)
{
    (void)state;
    tv_pipe_ctx *ctx = ctx_new();
    tv_pipe_resource_desc d = {T_2D, BC7, 0, 10, 6, 1, 1, 0, 0};
    assert_int_equal(tv_pipe_resource_create(ctx, 1, &d), 0);
    /* the box (4,4)-(10,6): blocks (1,1) and (2,1), ending at the level's edge */
    uint8_t mem[64];
    for (int i = 0; i < 64; i++)
        mem[i] = (uint8_t)(i + 1);
    const tv_pipe_box edge = {4, 4, 0, 6, 2, 1};
    assert_int_equal(tv_pipe_transfer_write(ctx, 1, 0, &edge, mem, sizeof mem, 0, 32, 0), 0);
    const uint8_t *data = tv_pipe_resource_data(ctx, 1);
    /* the level's rows are 48 bytes: row 1 starts at 48, block 1 at 48 + 16 */
    assert_memory_equal(data + 64, mem, 32);
    for (int i = 0; i < 64; i++)
        assert_int_equal(data[i], 0);
    /* the whole level back at the level's own stride (0) */
    uint8_t back[96];
    memset(back, 0xee, sizeof back);
    const tv_pipe_box all = {0, 0, 0, 10, 6, 1};
    assert_int_equal(tv_pipe_transfer_read(ctx, 1, 0, &all, back, sizeof back, 0, 0, 0), 0);
    assert_memory_equal(back, data, 96);
    /* a box that starts inside a block, or ends inside one short of the edge */
    const tv_pipe_box off_origin = {2, 0, 0, 4, 4, 1};
    expect_error(ctx, tv_pipe_transfer_write(ctx, 1, 0, &off_origin, mem, sizeof mem, 0, 0, 0),
                 "transfer write: box origin 2,0 not on a 4x4 block");
    const tv_pipe_box off_end = {0, 0, 0, 6, 4, 1};
    expect_error(ctx, tv_pipe_transfer_read(ctx, 1, 0, &off_end, back, sizeof back, 0, 0, 0),
                 "transfer read: box end 6,4 not on a 4x4 block nor the edge of level 0 of "
                 "resource 1 (10x6)");
    const tv_pipe_box off_end_y = {0, 0, 0, 4, 3, 1};
    expect_error(ctx, tv_pipe_transfer_read(ctx, 1, 0, &off_end_y, back, sizeof back, 0, 0, 0),
                 "box end 4,3 not on a 4x4 block");
    /* a stride shorter than the box's block row */
    expect_error(ctx, tv_pipe_transfer_write(ctx, 1, 0, &edge, mem, sizeof mem, 0, 16, 0),
                 "too small for the box");
    tv_pipe_destroy(ctx);
}

/* TXF of texel (x, y, z) of a view of RES as FORMAT (TARGET, TGSI target name TT) */
/* texel (x, y, z) of resource RES through a view of FORMAT and TGSI target TT (TXF) */
static void fetch(tv_pipe_ctx *ctx, uint32_t res, uint32_t format, const char *tt, int32_t x,
                  int32_t y, int32_t z, float out[4])
{
    const uint32_t coord[4] = {(uint32_t)x, (uint32_t)y, (uint32_t)z, 0};
    tv_pipe_sampler_view view = {res, format, 0, 0, 0, 0, 0, 0, {0, 1, 2, 3}, 0};
    tv_pipe_sampler_state samp;
    memset(&samp, 0, sizeof samp);
    uint32_t w[4];
    if (pipe_test_sample(ctx, &view, &samp, tt, "TXF", coord, w))
        fail_msg("launch: %s", tv_pipe_error(ctx));
    memcpy(out, w, 16);
}

static void expect_texel(const float got[4], double r, double g, double b, double a)
{
    const double want[4] = {r, g, b, a};
    for (int c = 0; c < 4; c++)
        if (fabs(got[c] - want[c]) > 1e-6)
            fail_msg("channel %d: %.9g, want %.9g", c, got[c], want[c]);
}

static void upload_block(tv_pipe_ctx *ctx, uint32_t res, uint32_t bx, uint32_t by, uint32_t z,
                         const uint8_t *block, size_t bytes)
{
    const tv_pipe_box box = {bx * 4, by * 4, z, 4, 4, 1};
    assert_int_equal(tv_pipe_transfer_write(ctx, res, 0, &box, block, bytes, 0, bytes, bytes),
                     0);
}

static void test_sampler_views(void **state)
{
    (void)state;
    tv_pipe_ctx *ctx = ctx_new();
    float t[4];
    /* BC1: block (1, 0) of an 8x8 texture */
    tv_pipe_resource_desc d1 = {T_2D, DXT1_RGB, 0, 8, 8, 1, 1, 0, 0};
    assert_int_equal(tv_pipe_resource_create(ctx, 1, &d1), 0);
    upload_block(ctx, 1, 1, 0, 0, bc1_block, 8);
    fetch(ctx, 1, DXT1_RGB, "2D", 4, 0, 0, t);
    expect_texel(t, 1, 0, 0, 1);                      /* index 0: colour0 */
    fetch(ctx, 1, DXT1_RGB, "2D", 5, 0, 0, t);
    expect_texel(t, 2.0 / 3, 0, 1.0 / 3, 1);          /* index 2 */
    fetch(ctx, 1, DXT1_RGB, "2D", 6, 0, 0, t);
    expect_texel(t, 0, 0, 1, 1);                      /* index 1: colour1 */
    /* BC7 mode 6, block (1, 1) of 8x8, viewed UNORM and sRGB */
    uint8_t b7[16];
    bc7_mode6(b7);
    tv_pipe_resource_desc d7 = {T_2D, BC7, 0, 8, 8, 1, 1, 0, 0};
    assert_int_equal(tv_pipe_resource_create(ctx, 2, &d7), 0);
    upload_block(ctx, 2, 1, 1, 0, b7, 16);
    fetch(ctx, 2, BC7, "2D", 5, 6, 0, t);
    expect_texel(t, 1, 1.0 / 255, 129.0 / 255, 1);
    fetch(ctx, 2, BC7_SRGB, "2D", 7, 7, 0, t);
    expect_texel(t, 1, srgb(1.0 / 255), srgb(129.0 / 255), 1);   /* alpha stays linear */
    /* in slice 2 of a 3D texture */
    tv_pipe_resource_desc d3 = {T_3D, BC7, 0, 8, 4, 3, 1, 0, 0};
    assert_int_equal(tv_pipe_resource_create(ctx, 3, &d3), 0);
    upload_block(ctx, 3, 1, 0, 2, b7, 16);
    fetch(ctx, 3, BC7, "3D", 6, 1, 2, t);
    expect_texel(t, 1, 1.0 / 255, 129.0 / 255, 1);
    /* BC6H: a zero block is mode 1 with every endpoint 0: black, alpha 1 */
    tv_pipe_resource_desc d6 = {T_2D, BC6H_UF, 0, 4, 4, 1, 1, 0, 0};
    assert_int_equal(tv_pipe_resource_create(ctx, 4, &d6), 0);
    fetch(ctx, 4, BC6H_UF, "2D", 1, 2, 0, t);
    expect_texel(t, 0, 0, 0, 1);
    fetch(ctx, 4, BC6H_SF, "2D", 3, 3, 0, t);
    expect_texel(t, 0, 0, 0, 1);
    /* a view with another block size is refused at the launch */
    tv_pipe_sampler_view bad = {2, DXT1_RGB, 0, 0, 0, 0, 0, 0, {0, 1, 2, 3}, 0};
    assert_int_equal(tv_pipe_set_sampler_views(ctx, TV_PIPE_STAGE_COMPUTE, 0, 1, &bad), 0);
    const uint32_t one[3] = {1, 1, 1};
    expect_error(ctx, tv_pipe_launch_grid(ctx, one, one), "does not view resource 2");
    tv_pipe_destroy(ctx);
}

static void test_copy_region(void **state)
{
    (void)state;
    tv_pipe_ctx *ctx = ctx_new();
    tv_pipe_resource_desc s = {T_2D, BC7, 0, 10, 6, 1, 1, 0, 0};
    tv_pipe_resource_desc d = {T_2D, BC7, 0, 8, 8, 1, 1, 0, 0};
    tv_pipe_resource_desc u = {T_2D, RGBA32UI, 0, 3, 2, 1, 1, 0, 0};
    assert_int_equal(tv_pipe_resource_create(ctx, 1, &s), 0);
    assert_int_equal(tv_pipe_resource_create(ctx, 2, &d), 0);
    assert_int_equal(tv_pipe_resource_create(ctx, 3, &u), 0);
    uint8_t *src = tv_pipe_resource_data(ctx, 1);
    for (int i = 0; i < 96; i++)
        src[i] = (uint8_t)(i + 1);                    /* block (bx, by) holds 16·(3·by+bx)+1.. */
    /* compressed -> compressed: blocks (1,1)..(2,1) (the box ends at the edge 10,6) to
       block (0,0) of the destination */
    const tv_pipe_box edge = {4, 4, 0, 6, 2, 1};
    assert_int_equal(tv_pipe_resource_copy_region(ctx, 2, 0, 0, 0, 0, 1, 0, &edge), 0);
    const uint8_t *dst = tv_pipe_resource_data(ctx, 2);
    assert_memory_equal(dst, src + 48 + 16, 32);
    /* compressed -> plain of the same block size (a BC7 block is one RGBA32UI texel):
       2x1 blocks land on texels (1,1) and (2,1) */
    assert_int_equal(tv_pipe_resource_copy_region(ctx, 3, 0, 1, 1, 0, 1, 0, &edge), 0);
    const uint8_t *plain = tv_pipe_resource_data(ctx, 3);
    assert_memory_equal(plain + 48 + 16, src + 48 + 16, 32);
    /* plain -> compressed: texel (1,1) (a 1x1 box) becomes block (1,1) of the destination */
    const tv_pipe_box texel = {1, 1, 0, 1, 1, 1};
    assert_int_equal(tv_pipe_resource_copy_region(ctx, 2, 0, 4, 4, 0, 3, 0, &texel), 0);
    assert_memory_equal(dst + 32 + 16, src + 48 + 16, 16);
    /* DXT1 (8 bytes) <-> RGBA16UI */
    tv_pipe_resource_desc x = {T_2D, DXT1_RGB, 0, 4, 4, 1, 1, 0, 0};
    tv_pipe_resource_desc y = {T_2D, RGBA16UI, 0, 1, 1, 1, 1, 0, 0};
    assert_int_equal(tv_pipe_resource_create(ctx, 4, &x), 0);
    assert_int_equal(tv_pipe_resource_create(ctx, 5, &y), 0);
    memcpy(tv_pipe_resource_data(ctx, 4), bc1_block, 8);
    const tv_pipe_box whole = {0, 0, 0, 4, 4, 1};
    assert_int_equal(tv_pipe_resource_copy_region(ctx, 5, 0, 0, 0, 0, 4, 0, &whole), 0);
    assert_memory_equal(tv_pipe_resource_data(ctx, 5), bc1_block, 8);
    /* refused, named */
    expect_error(ctx, tv_pipe_resource_copy_region(ctx, 4, 0, 0, 0, 0, 1, 0, &whole),
                 "formats 105 and 255 differ in block size");
    expect_error(ctx, tv_pipe_resource_copy_region(ctx, 2, 0, 2, 0, 0, 1, 0, &whole),
                 "resource_copy_region destination: origin 2,0 not on a 4x4 block");
    expect_error(ctx, tv_pipe_resource_copy_region(ctx, 3, 0, 2, 0, 0, 1, 0, &edge),
                 "resource_copy_region destination: 2x1x1 blocks at 2,0,0 outside level 0 of "
                 "resource 3 (3x2x1)");
    const tv_pipe_box inside = {0, 0, 0, 2, 4, 1};
    expect_error(ctx, tv_pipe_resource_copy_region(ctx, 2, 0, 0, 0, 0, 1, 0, &inside),
                 "resource_copy_region source: box end 2,4 not on a 4x4 block");
    tv_pipe_destroy(ctx);
}

static void test_blit_reads_blocks(void **state)
{
    (void)state;
    tv_pipe_ctx *ctx = ctx_new();
    tv_pipe_resource_desc s = {T_2D, DXT1_RGB, 0, 8, 4, 1, 1, 0, 0};
    tv_pipe_resource_desc d = {T_2D, RGBA32F, 0, 8, 4, 1, 1, 0, 0};
    assert_int_equal(tv_pipe_resource_create(ctx, 1, &s), 0);
    assert_int_equal(tv_pipe_resource_create(ctx, 2, &d), 0);
    upload_block(ctx, 1, 1, 0, 0, bc1_block, 8);
    tv_pipe_blit_info b;
    memset(&b, 0, sizeof b);
    b.src = (tv_pipe_blit_side){1, 0, DXT1_RGB, 0, 0, 0, 8, 4, 1};
    b.dst = (tv_pipe_blit_side){2, 0, RGBA32F, 0, 0, 0, 8, 4, 1};
    b.mask = 0xf;
    if (tv_pipe_blit(ctx, &b))
        fail_msg("blit: %s", tv_pipe_error(ctx));
    const float *px = (const float *)(const void *)tv_pipe_resource_data(ctx, 2);
    expect_texel(px + 4 * 4, 1, 0, 0, 1);             /* (4, 0): colour0 */
    expect_texel(px + 4 * 5, 2.0 / 3, 0, 1.0 / 3, 1); /* (5, 0): index 2 */
    expect_texel(px + 4 * 6, 0, 0, 1, 1);             /* (6, 0): colour1 */
    /* a zero block: colour0 = colour1 = 0, three colours and index 0: black */
    expect_texel(px + 4 * (8 + 1), 0, 0, 0, 1);
    /* into a compressed destination, refused by name */
    b.src = (tv_pipe_blit_side){2, 0, RGBA32F, 0, 0, 0, 8, 4, 1};
    b.dst = (tv_pipe_blit_side){1, 0, DXT1_RGB, 0, 0, 0, 8, 4, 1};
    expect_error(ctx, tv_pipe_blit(ctx, &b),
                 "blit: destination format BC1_RGB_UNORM is block-compressed: blits into it are "
                 "not implemented");
    tv_pipe_destroy(ctx);
}

static void test_clear_texture_refused(void **state)
{
    (void)state;
    tv_pipe_ctx *ctx = ctx_new();
    tv_pipe_resource_desc d = {T_2D, RGTC1_UNORM, 0, 8, 8, 1, 1, 0, 0};
    assert_int_equal(tv_pipe_resource_create(ctx, 7, &d), 0);
    const uint8_t texel[16] = {0};
    const tv_pipe_box box = {0, 0, 0, 8, 8, 1};
    expect_error(ctx, tv_pipe_clear_texture(ctx, 7, 0, &box, texel),
                 "clear_texture: resource 7's format RGTC1_UNORM is block-compressed: clearing "
                 "it is not implemented");
    tv_pipe_resource_desc e = {T_2D, DXT5_RGBA, 0, 8, 8, 1, 1, 0, 0};
    assert_int_equal(tv_pipe_resource_create(ctx, 8, &e), 0);
    expect_error(ctx, tv_pipe_clear_texture(ctx, 8, 0, &box, texel), "DXT5_RGBA is block-");
    tv_pipe_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_layout_and_charge),
        cmocka_unit_test(test_transfers_in_blocks),
        cmocka_unit_test(test_sampler_views),
        cmocka_unit_test(test_copy_region),
        cmocka_unit_test(test_blit_reads_blocks),
        cmocka_unit_test(test_clear_texture_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
