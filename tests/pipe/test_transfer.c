/* Box transfers between a resource level and client memory (tv_pipe_transfer_read and
 * _write, src/pipe/pipe_resource.c): with strides 0 the client memory has the level's own
 * layout — rows of the level's width and layers of the level's whole height, as Mesa's
 * virgl driver lays out a resource's backing and virglrenderer reads it — for any box; with
 * strides given, those; client memory beyond the box untouched; boxes and strides that do
 * not fit refused, named. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "texvm/pipe.h"

#include <stdint.h>
#include <string.h>

enum { RGBA8 = 67, TEX_3D = 3, TEX_2D_ARRAY = 7 };   /* Gallium's numbers */
enum { W = 8, H = 6, LAYERS = 3 };

/* texel (x, y, z) of a level as a distinct word */
static uint32_t texel(uint32_t level, uint32_t x, uint32_t y, uint32_t z)
{
    return 0x01000000u * (level + 1) + 0x10000u * z + 0x100u * y + x;
}

static tv_pipe_ctx *with_texture(uint32_t target, uint32_t depth, uint32_t layers)
{
    tv_pipe_ctx *ctx = tv_pipe_create(0);
    assert_non_null(ctx);
    tv_pipe_resource_desc d = {target, RGBA8, 2, W, H, depth, layers, 1, 0};
    assert_int_equal(tv_pipe_resource_create(ctx, 1, &d), 0);
    /* every texel of both levels through the resource's own layout */
    uint8_t *data = tv_pipe_resource_data(ctx, 1);
    for (uint32_t level = 0; level < 2; level++) {
        size_t off, stride, lstride;
        assert_int_equal(tv_pipe_resource_level(ctx, 1, level, &off, &stride, &lstride), 0);
        uint32_t w = W >> level, h = H >> level, n = target == TEX_3D ? depth >> level : layers;
        assert_int_equal(stride, w * 4);
        assert_int_equal(lstride, stride * h);
        for (uint32_t z = 0; z < n; z++)
            for (uint32_t y = 0; y < h; y++)
                for (uint32_t x = 0; x < w; x++) {
                    uint32_t v = texel(level, x, y, z);
                    memcpy(data + off + lstride * z + stride * y + 4 * x, &v, 4);
                }
    }
    return ctx;
}

/* A box of fewer rows than the level over several layers, strides 0: client memory laid
 * out as the level (offset at the box's first texel) */
static void box_in_level_layout(uint32_t target, uint32_t level)
{
    tv_pipe_ctx *ctx = with_texture(target, target == TEX_3D ? 4 : 1,
                                    target == TEX_3D ? 1 : LAYERS);
    uint32_t w = W >> level, h = H >> level;
    const tv_pipe_box box = {1, 1, 0, 2, 2, 2};   /* 2x2 of layers 0 and 1 */
    size_t stride = (size_t)w * 4, lstride = stride * h;
    size_t offset = lstride * box.z + stride * box.y + 4 * box.x;
    uint32_t mem[W * H * LAYERS];
    memset(mem, 0xee, sizeof mem);
    assert_int_equal(tv_pipe_transfer_read(ctx, 1, level, &box, mem, sizeof mem, offset, 0, 0),
                     0);
    uint32_t want[W * H * LAYERS];
    memset(want, 0xee, sizeof want);
    for (uint32_t z = box.z; z < box.z + box.d; z++)
        for (uint32_t y = box.y; y < box.y + box.h; y++)
            for (uint32_t x = box.x; x < box.x + box.w; x++)
                want[(lstride * z + stride * y) / 4 + x] = texel(level, x, y, z);
    assert_memory_equal(mem, want, sizeof mem);
    /* and back: the same memory written into a cleared level gives the box's texels */
    uint8_t *data = tv_pipe_resource_data(ctx, 1);
    memset(data, 0, tv_pipe_resource_size(ctx, 1));
    assert_int_equal(tv_pipe_transfer_write(ctx, 1, level, &box, mem, sizeof mem, offset, 0, 0),
                     0);
    size_t off, rs, ls;
    assert_int_equal(tv_pipe_resource_level(ctx, 1, level, &off, &rs, &ls), 0);
    for (uint32_t z = box.z; z < box.z + box.d; z++)
        for (uint32_t y = box.y; y < box.y + box.h; y++)
            for (uint32_t x = box.x; x < box.x + box.w; x++) {
                uint32_t v;
                memcpy(&v, data + off + ls * z + rs * y + 4 * x, 4);
                assert_int_equal(v, texel(level, x, y, z));
            }
    tv_pipe_destroy(ctx);
}

static void test_default_strides_array(void **state)
{
    (void)state;
    box_in_level_layout(TEX_2D_ARRAY, 0);
    box_in_level_layout(TEX_2D_ARRAY, 1);
}

static void test_default_strides_3d(void **state)
{
    (void)state;
    box_in_level_layout(TEX_3D, 0);
    box_in_level_layout(TEX_3D, 1);
}

/* Strides given: tightly packed box rows and layers */
static void test_given_strides(void **state)
{
    (void)state;
    tv_pipe_ctx *ctx = with_texture(TEX_2D_ARRAY, 1, LAYERS);
    const tv_pipe_box box = {2, 3, 1, 3, 2, 2};
    uint32_t mem[3 * 2 * 2 + 1];
    memset(mem, 0xee, sizeof mem);
    assert_int_equal(tv_pipe_transfer_read(ctx, 1, 0, &box, mem, sizeof mem, 0, 12, 24), 0);
    for (uint32_t z = 0; z < 2; z++)
        for (uint32_t y = 0; y < 2; y++)
            for (uint32_t x = 0; x < 3; x++)
                assert_int_equal(mem[z * 6 + y * 3 + x], texel(0, 2 + x, 3 + y, 1 + z));
    assert_int_equal(mem[12], 0xeeeeeeeeu);   /* nothing past the box */
    /* a layer stride below the box's rows, and client memory short by one byte: refused */
    assert_int_not_equal(tv_pipe_transfer_read(ctx, 1, 0, &box, mem, sizeof mem, 0, 12, 20), 0);
    assert_non_null(strstr(tv_pipe_error(ctx), "too small"));
    assert_int_not_equal(tv_pipe_transfer_read(ctx, 1, 0, &box, mem, 47, 0, 12, 24), 0);
    assert_non_null(strstr(tv_pipe_error(ctx), "client memory"));
    tv_pipe_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_default_strides_array),
        cmocka_unit_test(test_default_strides_3d),
        cmocka_unit_test(test_given_strides),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
