/* The fast-path tests' shared fixture (fastpath_fixture.h). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fastpath_fixture.h"
#include "tex/tex_sampling.h"
#include "tex/fast/tex_warp.h"
#include "util/cpu_isa.h"
#include "common_rng.h"

uint32_t fp_rnd(fp *F)
{
    return tc_rng_next(&F->rng);
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

void fp_tsc_wraps(tv_tsc *ts, unsigned s)
{
    static const uint8_t wraps[3] = {TV_WRAP_REPEAT, TV_WRAP_MIRROR, TV_WRAP_CLAMP_TO_EDGE};
    memset(ts, 0, sizeof *ts);
    ts->address_u = wraps[s % 3];
    ts->address_v = wraps[(s / 3) % 3];
    ts->address_p = TV_WRAP_REPEAT;
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

void fp_same_lane(const tv_tex_request *r, const tv_tex_result *a, const tv_tex_result *b,
                  unsigned l, const char *what)
{
    for (unsigned k = 0; k < 4; k++)
        if (a->v[k][l] != b->v[k][l])
            fail_msg("%s: op %u lane %u comp %u: fast %08x other %08x (s %a t %a)", what,
                     r->op, l, k, a->v[k][l], b->v[k][l], (double)r->coord[0][l],
                     (double)r->coord[1][l]);
    assert_memory_equal(&a->lod_clamped[l], &b->lod_clamped[l], 4);
    /* λ' may be a NaN (NaN / infinite coordinates or LODs); C leaves the sign and payload
     * of a NaN result unspecified (a compiler may commute x + y with two NaNs), so any NaN
     * matches any NaN here — only this field can be a NaN */
    if (!(isnan(a->lod_unclamped[l]) && isnan(b->lod_unclamped[l])))
        assert_memory_equal(&a->lod_unclamped[l], &b->lod_unclamped[l], 4);
    assert_memory_equal(&a->major_u[l], &b->major_u[l], 4);
    assert_memory_equal(&a->major_v[l], &b->major_v[l], 4);
    assert_memory_equal(&a->log2_ratio[l], &b->log2_ratio[l], 4);
}

void fp_check_warp(fp *F, const tv_tex_request *r, unsigned *taken)
{
    static tv_tex_result a, b;
    tv_error e;
    memset(&a, 0xcd, sizeof a);
    memset(&b, 0xcd, sizeof b);
    a.invalid = 0;
    tex_set_fast_paths_disabled(F->unit, false);
    if (!tex_warp_sample(F->unit, r, &a))
        return;
    (*taken)++;
    tex_set_fast_paths_disabled(F->unit, true);
    assert_int_equal(tv_tex_execute(F->unit, r, &b, &e), TV_OK);
    tex_set_fast_paths_disabled(F->unit, false);
    assert_int_equal(a.invalid, b.invalid);
    for (unsigned l = 0; l < TV_TEX_LANES; l++) {
        if (!((r->active >> l) & 1u)) { /* inactive lanes are not written */
            for (unsigned k = 0; k < 4; k++)
                assert_int_equal(a.v[k][l], 0xcdcdcdcdu);
            continue;
        }
        if (r->flags & TV_TEXF_VALUES_ONLY) { /* the extras may stay unwritten */
            for (unsigned k = 0; k < 4; k++)
                if (a.v[k][l] != b.v[k][l])
                    fail_msg("values only: lane %u comp %u: fast %08x general %08x", l, k,
                             a.v[k][l], b.v[k][l]);
            continue;
        }
        fp_same_lane(r, &a, &b, l, "general");
    }
}

/* whether the kernel picks its AVX-512 variant: the processor has it, and the build's
 * ceiling allows it (util/cpu_isa.h) */
bool fp_kernel_avx512(void)
{
#if TEX_WIDE_VECTORS
    return tv_cpu_avx512bw();
#else
    return false;
#endif
}

/* whether the kernel picks its AVX2 variant under the cap 1: the processor has AVX2 and
 * FMA, and the build the wide variants */
bool fp_kernel_avx2(void)
{
#if TEX_WIDE_VECTORS
    return tv_cpu_avx2_fma();
#else
    return false;
#endif
}
