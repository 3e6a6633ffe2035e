/* Texture-unit set-up for the tests of every module (common_tex.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "common_tex.h"

void tc_tex_open(uint64_t base, size_t size, uint8_t **host, tv_memory **mem,
                 tv_tex_unit **unit)
{
    *host = calloc(1, size);
    assert_non_null(*host);
    *mem = tv_memory_create();
    assert_non_null(*mem);
    tv_error e;
    assert_int_equal(tv_memory_map(*mem, base, *host, size, &e), TV_OK);
    *unit = tv_tex_create(*mem);
    assert_non_null(*unit);
}

void tc_tex_close(uint8_t *host, tv_memory *mem, tv_tex_unit *unit)
{
    tv_tex_destroy(unit);
    tv_memory_destroy(mem);
    free(host);
}

void tc_tic_blocklinear(tv_tic *t, tv_format f, unsigned type, unsigned w, unsigned h,
                        unsigned depth, unsigned levels)
{
    memset(t, 0, sizeof *t);
    tv_error e;
    assert_int_equal(tv_tic_from_format(t, f, &e), TV_OK);
    t->header_version = TV_TIC_BLOCKLINEAR;
    t->texture_type = (uint8_t)type;
    t->width_minus_one = w - 1;
    t->height_minus_one = (uint16_t)(h - 1);
    t->depth_minus_one = (uint16_t)(depth - 1);
    t->max_mip_level = (uint8_t)(levels - 1);
    t->res_view_min_mip_level = 0;
    t->res_view_max_mip_level = (uint8_t)(levels - 1);
    t->normalized_coords = true;
    t->border_size = 7;
}
