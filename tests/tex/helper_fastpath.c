/* The fast-path tests' shared fixture (fastpath_fixture.h). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fastpath_fixture.h"

uint32_t fp_rnd(fp *F)
{
    F->rng ^= F->rng << 13;
    F->rng ^= F->rng >> 17;
    F->rng ^= F->rng << 5;
    return F->rng;
}

float fp_frnd(fp *F, float lo, float hi)
{
    return lo + (hi - lo) * (float)(fp_rnd(F) >> 8) / 16777216.0f;
}

void fp_setup(fp *F, uint32_t seed, const fp_tex *tex, unsigned ntex, uint32_t sampler_max)
{
    memset(F, 0, sizeof *F);
    F->rng = seed;
    F->host = calloc(1, FP_SIZE);
    assert_non_null(F->host);
    F->mem = tv_memory_create();
    tv_error e;
    assert_int_equal(tv_memory_map(F->mem, FP_BASE, F->host, FP_SIZE, &e), TV_OK);
    F->unit = tv_tex_create(F->mem);
    tv_tex_set_header_pool(F->unit, FP_BASE, 31);
    tv_tex_set_sampler_pool(F->unit, FP_BASE + 1024, sampler_max);
    uint64_t next = FP_BASE + 0x10000;
    for (unsigned t = 0; t < ntex; t++) {
        const fp_tex *x = &tex[t];
        tv_tic tic;
        memset(&tic, 0, sizeof tic);
        assert_int_equal(tv_tic_from_format(&tic, tv_format_from_name(x->format), &e), TV_OK);
        tic.header_version = x->layout;
        tic.texture_type = x->type;
        if (x->type == TV_TEX_2D_ARRAY)
            tic.depth_minus_one = 2; /* 3 layers */
        tic.width_minus_one = x->w - 1;
        tic.height_minus_one = (uint16_t)(x->h - 1);
        unsigned levels = 1;
        while ((x->w >> levels) || (x->h >> levels))
            levels++;
        if (x->type == TV_TEX_2D_NO_MIPMAP)
            levels = 1;
        tic.max_mip_level = (uint8_t)(levels - 1);
        tic.res_view_min_mip_level = x->min_level;
        tic.res_view_max_mip_level =
            (uint8_t)(x->max_level < 0 ? levels - 1 : (unsigned)x->max_level);
        tic.min_lod_clamp = x->min_lod_clamp;
        if (x->layout == TV_TIC_PITCH)
            tic.pitch = (x->w * 4 + 31) & ~31u;
        tic.normalized_coords = true;
        tic.address = next;
        uint64_t bytes = tv_tic_size_bytes(&tic);
        assert_true(bytes > 0);
        for (uint64_t i = 0; i < bytes; i++)
            F->host[next - FP_BASE + i] = (uint8_t)fp_rnd(F);
        next += (bytes + 1023) & ~511ull;
        uint32_t raw[8];
        tv_tic_encode(&tic, raw);
        tv_memory_write(F->mem, FP_BASE + 32 * t, raw, 32);
    }
}

void fp_put_sampler(fp *F, unsigned index, const tv_tsc *ts)
{
    uint32_t raw[8];
    tv_tsc_encode(ts, raw);
    tv_memory_write(F->mem, FP_BASE + 1024 + 32 * index, raw, 32);
}

void fp_teardown(fp *F)
{
    tv_tex_destroy(F->unit);
    tv_memory_destroy(F->mem);
    free(F->host);
}

float fp_coord(fp *F)
{
    uint32_t k = fp_rnd(F) % 64;
    if (k == 0) return NAN;
    if (k == 1) return INFINITY;
    if (k == 2) return -INFINITY;
    if (k == 3) return -0.0f;
    if (k == 4) return 3.0e9f;
    if (k < 14) return (float)(int)(fp_rnd(F) % 17) / 16.0f - 0.5f; /* texel edges, centres */
    return fp_frnd(F, -2.5f, 3.5f);
}
