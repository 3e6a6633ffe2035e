/* Regression: the RGBA8 bilinear fast path on non-seamless cube maps and cube arrays must
 * read the selected face (layer = cube*6 + face), exactly as the general path does. It once
 * read face 0 of the cube for every face (found by the llvmpipe differential test). */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "texvm/tex.h"
#include "tex/tex_internal.h"
#include "tex/fast/tex_warp.h"

#define BASE 0x100000ull
#define SIZE (4u << 20)

static void compare_fast_and_general(uint8_t type, unsigned cubes, uint8_t interface_filter)
{
    uint8_t *host = calloc(1, SIZE);
    assert_non_null(host);
    tv_memory *mem = tv_memory_create();
    tv_error e;
    assert_int_equal(tv_memory_map(mem, BASE, host, SIZE, &e), TV_OK);
    tv_tex_unit *unit = tv_tex_create(mem);
    tv_tex_set_header_pool(unit, BASE, 0);
    tv_tex_set_sampler_pool(unit, BASE + 1024, 0);
    tv_tic tic;
    memset(&tic, 0, sizeof tic);
    assert_int_equal(tv_tic_from_format(&tic, TV_FORMAT_R8G8B8A8_UNORM, &e), TV_OK);
    tic.header_version = TV_TIC_PITCH;
    tic.texture_type = type;
    tic.width_minus_one = 10;
    tic.height_minus_one = 10;
    tic.depth_minus_one = (uint16_t)(type == TV_TEX_CUBE_ARRAY ? cubes - 1 : 0);
    tic.pitch = 64;
    tic.max_mip_level = tic.res_view_max_mip_level = 3;
    tic.res_view_min_mip_level = 1;
    tic.normalized_coords = true;
    tic.address = BASE + 0x10000;
    uint64_t bytes = tv_tic_size_bytes(&tic);
    assert_true(bytes > 0 && bytes < SIZE - 0x10000);
    uint32_t seed = 12345;
    for (uint64_t i = 0; i < bytes; i++) {
        seed = seed * 1664525u + 1013904223u;
        host[0x10000 + i] = (uint8_t)(seed >> 24);
    }
    uint32_t raw[8];
    tv_tic_encode(&tic, raw);
    tv_memory_write(mem, BASE, raw, 32);
    tv_tsc ts;
    memset(&ts, 0, sizeof ts);
    ts.address_u = ts.address_v = ts.address_p = TV_WRAP_CLAMP_TO_EDGE;
    ts.mag_filter = TV_MAG_LINEAR;
    ts.min_filter = TV_MIN_LINEAR;
    ts.mip_filter = TV_MIP_LINEAR;
    ts.max_lod_clamp = 0xfff;
    ts.cubemap_interface_filtering = interface_filter;
    tv_tsc_encode(&ts, raw);
    tv_memory_write(mem, BASE + 1024, raw, 32);

    static tv_tex_request r;
    memset(&r, 0, sizeof r);
    r.op = TV_TEX_OP_SAMPLE_LOD;
    r.target = type == TV_TEX_CUBE_ARRAY ? TV_TEXTGT_CUBE_ARRAY : TV_TEXTGT_CUBE;
    r.active = r.present = 0xffffffffu;
    /* one lane per major axis (+x -x +y -y +z -z), then off-centre directions */
    static const float dirs[6][3] = {{1, .3f, -.2f}, {-1, -.4f, .1f}, {.2f, 1, .35f},
                                     {-.3f, -1, .15f}, {.1f, -.25f, 1}, {-.45f, .2f, -1}};
    for (unsigned l = 0; l < 32; l++) {
        for (unsigned a = 0; a < 3; a++)
            r.coord[a][l] = dirs[l % 6][a] * (1.0f + 0.07f * (float)(l / 6));
        r.coord[3][l] = (float)(l % (cubes ? cubes : 1));
        r.lod[l] = 0.1f * (float)(l % 9);
        r.handle[l] = tv_tex_handle(0, 0);
    }
    tv_tex_result a, b;
    tex_set_fast_paths_disabled(unit, false);
    assert_int_equal(tv_tex_execute(unit, &r, &a, &e), TV_OK);
    tex_set_fast_paths_disabled(unit, true);
    assert_int_equal(tv_tex_execute(unit, &r, &b, &e), TV_OK);
    for (unsigned l = 0; l < 32; l++)
        for (unsigned k = 0; k < 4; k++)
            if (a.v[k][l] != b.v[k][l])
                fail_msg("lane %u comp %u: fast %08x general %08x", l, k, a.v[k][l],
                         b.v[k][l]);
    tv_tex_destroy(unit);
    tv_memory_destroy(mem);
    free(host);
}

static void non_seamless_cube(void **state)
{
    (void)state;
    compare_fast_and_general(TV_TEX_CUBE, 1, 0);
}

static void non_seamless_cube_array(void **state)
{
    (void)state;
    compare_fast_and_general(TV_TEX_CUBE_ARRAY, 3, 0);
}

static void seamless_cube_array(void **state)
{
    (void)state;
    compare_fast_and_general(TV_TEX_CUBE_ARRAY, 3, 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(non_seamless_cube),
        cmocka_unit_test(non_seamless_cube_array),
        cmocka_unit_test(seamless_cube_array),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
