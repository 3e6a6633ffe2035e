/* Texel addressing: pitch-linear, block-linear (GOB formula worked by hand), 1D buffer,
 * mip chains, array layers, cube faces, 3D slices, MSAA sample grids; the view's sizes. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "texvm/tex.h"
#include "tex/tex_internal.h"

static tv_tic make(tv_format f, int version, int type, unsigned w, unsigned h, unsigned d)
{
    tv_tic tic;
    tv_tic_from_format(&tic, f, NULL);
    tic.header_version = (uint8_t)version;
    tic.texture_type = (uint8_t)type;
    tic.address = 0x10000;
    tic.width_minus_one = w - 1;
    tic.height_minus_one = (uint16_t)(h - 1);
    tic.depth_minus_one = (uint16_t)(d - 1);
    tic.normalized_coords = true;
    return tic;
}

static void pitch_2d(void **state)
{
    (void)state;
    tv_tic t = make(TV_FORMAT_R8G8B8A8_UNORM, TV_TIC_PITCH, TV_TEX_2D, 10, 5, 1);
    t.pitch = 64;
    /* (3, 2): 2 rows of 64 bytes + 3 texels of 4 bytes */
    assert_true(tv_tic_texel_address(&t, 0, 3, 2, 0, 0) == 0x10000 + 128 + 12);
    assert_true(tv_tic_size_bytes(&t) == 64 * 5);
}

static void pitch_3d_and_mips(void **state)
{
    (void)state;
    tv_tic t = make(TV_FORMAT_R8G8B8A8_UNORM, TV_TIC_PITCH, TV_TEX_3D, 4, 4, 3);
    t.pitch = 32;
    /* slice = 32 * 4 = 128 bytes; (1, 2, 2) = 2*128 + 2*32 + 4 */
    assert_true(tv_tic_texel_address(&t, 0, 1, 2, 2, 0) == 0x10000 + 324);
    t = make(TV_FORMAT_R8G8B8A8_UNORM, TV_TIC_PITCH, TV_TEX_2D, 8, 8, 1);
    t.pitch = 64;
    t.max_mip_level = 1;
    t.res_view_max_mip_level = 1;
    /* level 1 follows level 0 (64 * 8 bytes), same pitch: (1,1) = 512 + 64 + 4 */
    assert_true(tv_tic_texel_address(&t, 1, 1, 1, 0, 0) == 0x10000 + 580);
    assert_true(tv_tic_size_bytes(&t) == 512 + 64 * 4);
}

static void blocklinear_2d(void **state)
{
    (void)state;
    /* 32x20 RGBA8: 128 bytes per row = 2 GOBs wide; blocks of 2 GOBs (16 rows). */
    tv_tic t = make(TV_FORMAT_R8G8B8A8_UNORM, TV_TIC_BLOCKLINEAR, TV_TEX_2D, 32, 20, 1);
    t.gobs_per_block_height = 1;
    /* (21, 13): byte column 84 -> block column 1 (1024 bytes per block); GOB row in the
     * block (13/8)&1 = 1 -> +512; inside the GOB, x = 84 % 64 = 20, y = 13 % 8 = 5:
     * (20/32)*256 + (5/2)*64 + ((20%32)/16)*32 + (5%2)*16 + 20%16 = 0+128+32+16+4 = 180. */
    assert_true(tv_tic_texel_address(&t, 0, 21, 13, 0, 0) == 0x10000 + 1024 + 512 + 180);
    /* (0, 17): block row 1 = 2 blocks of 1024 further; GOB row 0; y%8 = 1 -> 16. */
    assert_true(tv_tic_texel_address(&t, 0, 0, 17, 0, 0) == 0x10000 + 2048 + 16);
    /* (15, 7): x = 60 -> (60/32)*256=256, (7/2)*64=192, (28/16)*32=32, 16, 12 -> 508 */
    assert_true(tv_tic_texel_address(&t, 0, 15, 7, 0, 0) == 0x10000 + 508);
    /* size: 2 GOBs wide, 2 block rows (20 rows / 16), 1024 bytes per block */
    assert_true(tv_tic_size_bytes(&t) == 4096);
}

/* Every texel of a block-linear level against the GOB formula written out directly. */
static void blocklinear_exhaustive(void **state)
{
    (void)state;
    for (unsigned bh = 0; bh <= 3; bh++) {
        tv_tic t = make(TV_FORMAT_R16G16_UNORM, TV_TIC_BLOCKLINEAR, TV_TEX_2D, 40, 37, 1);
        t.gobs_per_block_height = (uint8_t)bh;
        unsigned gobs_x = (40 * 4 + 63) / 64;             /* 3 */
        for (unsigned y = 0; y < 37; y++)
            for (unsigned x = 0; x < 40; x++) {
                unsigned xb = x * 4;
                unsigned rows_per_block = 8u << bh;
                uint64_t block = (uint64_t)(y / rows_per_block) * gobs_x + xb / 64;
                uint64_t gob = (y % rows_per_block) / 8;
                uint64_t in_gob = ((xb % 64) / 32) * 256 + ((y % 8) / 2) * 64 +
                                  ((xb % 32) / 16) * 32 + (y % 2) * 16 + (xb % 16);
                uint64_t want = 0x10000 + block * (512u << bh) + gob * 512 + in_gob;
                assert_true(tv_tic_texel_address(&t, 0, x, y, 0, 0) == want);
            }
    }
}

static void blocklinear_3d(void **state)
{
    (void)state;
    /* 16x8x4 RGBA8: one GOB wide; blocks 1 GOB high, 2 GOBs deep (1024 bytes). */
    tv_tic t = make(TV_FORMAT_R8G8B8A8_UNORM, TV_TIC_BLOCKLINEAR, TV_TEX_3D, 16, 8, 4);
    t.gobs_per_block_depth = 1;
    /* (5, 3, 3): z/2 = 1 block slice (1 block per slice: 1024); z%2 = 1 -> +512;
     * inside: x = 20: 0 + (3/2)*64 + 32 + 16 + 4 = 116 */
    assert_true(tv_tic_texel_address(&t, 0, 5, 3, 3, 0) == 0x10000 + 1024 + 512 + 116);
    assert_true(tv_tic_size_bytes(&t) == 2048);
}

static void blocklinear_mips(void **state)
{
    (void)state;
    /* 64x64 RGBA8, blocks of 8 GOBs (64 rows), 3 levels.
     * L0: 4 GOBs wide, 1 block row: 4 blocks * 4096 = 16384.
     * L1: 32 rows -> block shrinks to 4 GOBs (32 rows); 2 GOBs wide: 2 * 2048 = 4096.
     * L2: 16 rows -> 2 GOBs (16 rows); 1 GOB wide: 1024. */
    tv_tic t = make(TV_FORMAT_R8G8B8A8_UNORM, TV_TIC_BLOCKLINEAR, TV_TEX_2D, 64, 64, 1);
    t.gobs_per_block_height = 3;
    t.max_mip_level = 2;
    t.res_view_max_mip_level = 2;
    assert_true(tv_tic_texel_address(&t, 1, 0, 0, 0, 0) == 0x10000 + 16384);
    assert_true(tv_tic_texel_address(&t, 2, 1, 1, 0, 0) == 0x10000 + 20480 + 16 + 4);
    /* L1 (0, 9): GOB row 1 of its 4-GOB block -> +512, y%8 = 1 -> +16 */
    assert_true(tv_tic_texel_address(&t, 1, 0, 9, 0, 0) == 0x10000 + 16384 + 512 + 16);
    assert_true(tv_tic_size_bytes(&t) == 21504);
    tex_view v;
    tex_view_init(&v, &t);
    assert_true(v.valid);
    assert_int_equal(v.gob_h_log2[0], 3);
    assert_int_equal(v.gob_h_log2[1], 2);
    assert_int_equal(v.gob_h_log2[2], 1);
}

static void layers_and_cubes(void **state)
{
    (void)state;
    /* 16x16 RGBA8 array of 3, blocks of 2 GOBs: level 0 = 1024 bytes = layer stride */
    tv_tic t = make(TV_FORMAT_R8G8B8A8_UNORM, TV_TIC_BLOCKLINEAR, TV_TEX_2D_ARRAY, 16, 16, 3);
    t.gobs_per_block_height = 1;
    assert_true(tv_tic_texel_address(&t, 0, 0, 0, 2, 0) == 0x10000 + 2048);
    assert_true(tv_tic_size_bytes(&t) == 3072);
    /* with 2 levels: 1024 + 512 (8 rows: 1-GOB block) = 1536, aligned to the 1024-byte
     * level-0 block -> stride 2048 */
    t.max_mip_level = 1;
    t.res_view_max_mip_level = 1;
    assert_true(tv_tic_texel_address(&t, 1, 0, 0, 1, 0) == 0x10000 + 2048 + 1024);
    assert_true(tv_tic_size_bytes(&t) == 3 * 2048);
    /* cube: 6 faces as layers; cube array: 6 per cube */
    t = make(TV_FORMAT_R8G8B8A8_UNORM, TV_TIC_BLOCKLINEAR, TV_TEX_CUBE, 16, 16, 1);
    t.gobs_per_block_height = 1;
    assert_true(tv_tic_texel_address(&t, 0, 0, 0, 5, 0) == 0x10000 + 5 * 1024);
    tex_view v;
    tex_view_init(&v, &t);
    assert_int_equal(v.layers, 6);
    t = make(TV_FORMAT_R8G8B8A8_UNORM, TV_TIC_BLOCKLINEAR, TV_TEX_CUBE_ARRAY, 16, 16, 2);
    t.gobs_per_block_height = 1;
    tex_view_init(&v, &t);
    assert_int_equal(v.layers, 12);
    assert_true(tv_tic_size_bytes(&t) == 12 * 1024);
    /* 1D array: layers from DEPTH_MINUS_ONE, height 1 */
    t = make(TV_FORMAT_R8_UNORM, TV_TIC_PITCH, TV_TEX_1D_ARRAY, 16, 99, 4);
    t.pitch = 32;
    tex_view_init(&v, &t);
    assert_int_equal(v.layers, 4);
    assert_int_equal(v.height, 1);
    assert_true(tv_tic_texel_address(&t, 0, 3, 0, 2, 0) == 0x10000 + 2 * 32 + 3);
}

static void buffer_1d(void **state)
{
    (void)state;
    tv_tic t = make(TV_FORMAT_R32G32B32A32_FLOAT, TV_TIC_ONE_D_BUFFER, TV_TEX_1D_BUFFER, 100, 1, 1);
    t.address = 0x123;                       /* byte aligned */
    t.width_minus_one = 99;
    assert_true(tv_tic_texel_address(&t, 0, 7, 0, 0, 0) == 0x123 + 112);
    assert_true(tv_tic_size_bytes(&t) == 1600);
    /* 32-bit width */
    t.width_minus_one = 0x12345;
    tex_view v;
    tex_view_init(&v, &t);
    assert_true(v.valid);
    assert_int_equal(v.width, 0x12346);
    assert_int_equal(v.levels, 1);
}

static void msaa(void **state)
{
    (void)state;
    /* 4x4 pixels, 4 samples (MSAA code 2 = 2x2 grid): storage 8x8 texels, pitch 64.
     * Sample s sits at (s % 2, s / 2) in the pixel's grid. */
    tv_tic t = make(TV_FORMAT_R8G8B8A8_UNORM, TV_TIC_PITCH, TV_TEX_2D, 4, 4, 1);
    t.pitch = 64;
    t.multi_sample_count = 2;
    assert_true(tv_tic_texel_address(&t, 0, 1, 2, 0, 3) == 0x10000 + 5 * 64 + 3 * 4);
    assert_true(tv_tic_texel_address(&t, 0, 1, 2, 0, 1) == 0x10000 + 4 * 64 + 3 * 4);
    assert_true(tv_tic_size_bytes(&t) == 64 * 8);
    static const struct { uint8_t code, count, w, h; } modes[] = {
        {0, 1, 1, 1}, {1, 2, 2, 1}, {2, 4, 2, 2}, {3, 8, 4, 2}, {4, 8, 4, 2}, {5, 2, 2, 1},
        {6, 16, 4, 4}, {8, 4, 2, 2}, {9, 4, 2, 2}, {10, 8, 4, 2}, {11, 8, 4, 2},
        {12, 2, 2, 1}, {13, 4, 2, 2}, {14, 8, 4, 2}, {15, 16, 4, 4}};
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++) {
        tex_view v;
        t.multi_sample_count = modes[i].code;
        tex_view_init(&v, &t);
        assert_true(v.valid);
        assert_int_equal(v.samples, modes[i].count);
        assert_int_equal(v.sample_grid_w, modes[i].w);
        assert_int_equal(v.sample_grid_h, modes[i].h);
        assert_int_equal(v.width, 4);   /* sizes stay in pixels */
    }
    tex_view v;
    t.multi_sample_count = 7;           /* undefined code */
    tex_view_init(&v, &t);
    assert_false(v.valid);
}

static void block_formats(void **state)
{
    (void)state;
    /* BC1 16x16 = 4x4 blocks of 8 bytes: 32 bytes per row of blocks, one GOB wide.
     * Texel (5, 9) is in block (1, 2): byte column 8, block row 2 -> y = 2 in the GOB:
     * (2/2)*64 + 8 = 72. */
    tv_tic t = make(TV_FORMAT_BC1_RGBA_UNORM, TV_TIC_BLOCKLINEAR, TV_TEX_2D, 16, 16, 1);
    assert_true(tv_tic_texel_address(&t, 0, 5, 9, 0, 0) == 0x10000 + 72);
    /* pitch: row of blocks = pitch bytes; (5, 9) -> 2 * 64 + 8 */
    t = make(TV_FORMAT_BC3_UNORM, TV_TIC_PITCH, TV_TEX_2D, 10, 10, 1);
    t.pitch = 64;
    assert_true(tv_tic_texel_address(&t, 0, 5, 9, 0, 0) == 0x10000 + 2 * 64 + 16);
    assert_true(tv_tic_size_bytes(&t) == 3 * 64);
    /* 12-byte texels in block-linear memory: bytes 4.. of texel 5 cross into GOB 2 */
    t = make(TV_FORMAT_R32G32B32_FLOAT, TV_TIC_BLOCKLINEAR, TV_TEX_2D, 8, 8, 1);
    tex_view v;
    tex_view_init(&v, &t);
    assert_true(tex_texel_offset(&v, 0, 5, 0, 0, 0, 0) == 256 + 32 + 12);
    assert_true(tex_texel_offset(&v, 0, 5, 0, 0, 0, 4) == 512);
}

static void view_levels(void **state)
{
    (void)state;
    tv_tic t = make(TV_FORMAT_R8G8B8A8_UNORM, TV_TIC_BLOCKLINEAR, TV_TEX_3D, 40, 9, 5);
    t.max_mip_level = 5;
    t.res_view_min_mip_level = 2;
    t.res_view_max_mip_level = 4;
    tex_view v;
    tex_view_init(&v, &t);
    assert_true(v.valid);
    assert_int_equal(v.levels, 6);
    assert_int_equal(v.base_level, 2);
    assert_int_equal(v.max_level, 4);
    assert_int_equal(tex_level_width(&v, 3), 5);
    assert_int_equal(tex_level_height(&v, 3), 1);
    assert_int_equal(tex_level_depth(&v, 2), 1);
    assert_int_equal(tex_level_width(&v, 40), 1);
    /* view levels outside the chain are clamped */
    t.res_view_min_mip_level = 9;
    t.res_view_max_mip_level = 12;
    tex_view_init(&v, &t);
    assert_int_equal(v.base_level, 5);
    assert_int_equal(v.max_level, 5);
    /* colour-key headers have no view/MSAA fields: the whole chain */
    t.header_version = TV_TIC_BLOCKLINEAR_COLOR_KEY;
    tex_view_init(&v, &t);
    assert_int_equal(v.base_level, 0);
    assert_int_equal(v.max_level, 5);
    /* unusable: undefined layout versions, types, block sizes */
    t.header_version = 5;
    tex_view_init(&v, &t);
    assert_false(v.valid);
    t.header_version = TV_TIC_BLOCKLINEAR;
    t.texture_type = 9;
    tex_view_init(&v, &t);
    assert_false(v.valid);
    t.texture_type = TV_TEX_2D;
    t.gobs_per_block_height = 6;
    tex_view_init(&v, &t);
    assert_false(v.valid);
    assert_true(tv_tic_size_bytes(&t) == 0);
}

/* Write distinct texels at the addresses the layout gives, read them back through
 * tex_load_texel: every texel of every level/layer lands where the loader looks. */
static void load_back_blocklinear(void **state)
{
    (void)state;
    tv_tic t = make(TV_FORMAT_R32_UINT, TV_TIC_BLOCKLINEAR, TV_TEX_2D_ARRAY, 21, 13, 3);
    t.gobs_per_block_height = 2;
    t.max_mip_level = 4;
    t.res_view_max_mip_level = 4;
    uint64_t size = tv_tic_size_bytes(&t);
    uint8_t *mem = calloc(1, size);
    tv_memory *m = tv_memory_create();
    tv_memory_map(m, t.address, mem, size, NULL);
    tv_tex_unit *u = tv_tex_create(m);
    tex_view v;
    tex_view_init(&v, &t);
    for (int pass = 0; pass < 2; pass++)
        for (unsigned layer = 0; layer < 3; layer++)
            for (unsigned l = 0; l < 5; l++)
                for (unsigned y = 0; y < tex_level_height(&v, l); y++)
                    for (unsigned x = 0; x < tex_level_width(&v, l); x++) {
                        uint32_t val = layer << 24 | l << 16 | y << 8 | x;
                        uint64_t a = tv_tic_texel_address(&t, l, x, y, layer, 0);
                        assert_true(a + 4 <= t.address + size);
                        if (pass == 0) {
                            memcpy(mem + (a - t.address), &val, 4);
                        } else {
                            uint32_t out[4];
                            tex_load_texel(u, &v, l, x, y, 0, layer, 0, false, out);
                            assert_int_equal(out[0], val);
                            assert_int_equal(out[3], 1);
                        }
                    }
    tv_tex_destroy(u);
    tv_memory_destroy(m);
    free(mem);
}

/* tv_tic_texel_addresses: a row's addresses, each the single call's, for pitch and
 * block-linear headers, a mip chain, 3D slices, array layers, every MSAA grid of the
 * draws' views (2, 4, 8, 16 samples, block-linear), a block-compressed format (x stepping
 * by its 4-texel blocks), rows at the level's edge, and an invalid level (the address
 * alone, as the single call gives). */
static void row_addresses(void **state)
{
    (void)state;
    static const struct {
        tv_format f;
        int version, type;
        unsigned w, h, d, levels, msaa, gobs, x_step;
    } cases[] = {
        {TV_FORMAT_R8G8B8A8_UNORM, TV_TIC_PITCH, TV_TEX_2D, 37, 11, 1, 3, 0, 0, 1},
        {TV_FORMAT_R32_UINT, TV_TIC_BLOCKLINEAR, TV_TEX_2D_ARRAY, 70, 19, 3, 5, 0, 2, 1},
        {TV_FORMAT_R16G16B16A16_FLOAT, TV_TIC_BLOCKLINEAR, TV_TEX_3D, 33, 9, 7, 3, 0, 1, 1},
        {TV_FORMAT_R8G8B8A8_UNORM, TV_TIC_BLOCKLINEAR, TV_TEX_2D, 20, 6, 1, 1, 1, 0, 1},
        {TV_FORMAT_R8G8B8A8_UNORM, TV_TIC_BLOCKLINEAR, TV_TEX_2D, 20, 6, 1, 1, 2, 0, 1},
        {TV_FORMAT_R32G32B32A32_FLOAT, TV_TIC_BLOCKLINEAR, TV_TEX_2D_ARRAY, 9, 5, 2, 1, 3, 1, 1},
        {TV_FORMAT_R8_UNORM, TV_TIC_BLOCKLINEAR, TV_TEX_2D, 17, 17, 1, 1, 6, 0, 1},
        {TV_FORMAT_BC1_RGBA_UNORM, TV_TIC_BLOCKLINEAR, TV_TEX_2D, 64, 32, 1, 2, 0, 0, 4},
    };
    static const unsigned samples_of[7] = {1, 2, 4, 8, 8, 2, 16};
    unsigned rows = 0;
    for (unsigned k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        tv_tic t = make(cases[k].f, cases[k].version, cases[k].type, cases[k].w, cases[k].h,
                        cases[k].d);
        if (cases[k].version == TV_TIC_PITCH)
            t.pitch = 256;
        t.max_mip_level = (uint8_t)(cases[k].levels - 1);
        t.res_view_max_mip_level = (uint8_t)(cases[k].levels - 1);
        t.multi_sample_count = (uint8_t)cases[k].msaa;
        t.gobs_per_block_height = (uint8_t)cases[k].gobs;
        tex_view v;
        tex_view_init(&v, &t);
        assert_true(v.valid);
        const unsigned samples = samples_of[cases[k].msaa], step = cases[k].x_step;
        for (unsigned l = 0; l <= cases[k].levels; l++) {   /* (one level past the chain) */
            const unsigned lw = l < cases[k].levels ? tex_level_width(&v, l) : 4;
            const unsigned lh = l < cases[k].levels ? tex_level_height(&v, l) : 1;
            const unsigned n = (lw + step - 1) / step;
            uint64_t got[128];
            assert_true(n <= 128);
            for (unsigned z = 0; z < cases[k].d; z++)
                for (unsigned y = 0; y < lh; y += step)
                    for (unsigned smp = 0; smp < samples; smp++) {
                        tv_tic_texel_addresses(&t, l, 0, step, n, y, z, smp, got);
                        for (unsigned i = 0; i < n; i++)
                            if (got[i] != tv_tic_texel_address(&t, l, i * step, y, z, smp))
                                fail_msg("case %u level %u z %u y %u sample %u texel %u", k, l,
                                         z, y, smp, i);
                        rows++;
                    }
        }
    }
    assert_true(rows > 300);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(pitch_2d),
        cmocka_unit_test(pitch_3d_and_mips),
        cmocka_unit_test(blocklinear_2d),
        cmocka_unit_test(blocklinear_exhaustive),
        cmocka_unit_test(blocklinear_3d),
        cmocka_unit_test(blocklinear_mips),
        cmocka_unit_test(layers_and_cubes),
        cmocka_unit_test(buffer_1d),
        cmocka_unit_test(msaa),
        cmocka_unit_test(row_addresses),
        cmocka_unit_test(block_formats),
        cmocka_unit_test(view_levels),
        cmocka_unit_test(load_back_blocklinear),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
