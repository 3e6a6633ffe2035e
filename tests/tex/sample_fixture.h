/* Test fixture for the sampling tests (test_sample*, test_lod*, test_wrap*, …): a memory
 * with a header pool, a sampler pool and texel storage, textures whose texel values come
 * from a closed formula, and a deliberately simple float64 reference sampler for
 * 1D/2D/3D/array targets (written from sampling.md's formulas and the D3D11 pseudo-code,
 * independently of src/tex). Header-only (static inline) so other tex tests are untouched. */
#ifndef TEXVM_TESTS_SAMPLE_FIXTURE_H
#define TEXVM_TESTS_SAMPLE_FIXTURE_H

#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "util/half.h"
#include "common_tex.h"
#include "texvm/tex.h"

#define FX_BASE 0x100000ull
#define FX_SIZE (24u << 20)
#define FX_POOL_ENTRIES 64u
#define FX_HDR_POOL FX_BASE
#define FX_SMP_POOL (FX_BASE + 32u * FX_POOL_ENTRIES)
#define FX_DATA (FX_BASE + 0x10000u)

typedef struct fx {
    tv_memory *mem;
    tv_tex_unit *unit;
    uint8_t *host;
    uint64_t next;            /* next free data address */
    tv_tic tic[FX_POOL_ENTRIES];
} fx;

/* a float's bits and back (util/half.h), under the fixture's names */
static inline float fx_f(uint32_t u) { return tv_bits_f32(u); }
static inline uint32_t fx_u(float f) { return tv_f32_bits(f); }

static inline void fx_init(fx *F)
{
    memset(F, 0, sizeof *F);
    tc_tex_open(FX_BASE, FX_SIZE, &F->host, &F->mem, &F->unit);
    tv_tex_set_header_pool(F->unit, FX_HDR_POOL, FX_POOL_ENTRIES - 1);
    tv_tex_set_sampler_pool(F->unit, FX_SMP_POOL, FX_POOL_ENTRIES - 1);
    F->next = FX_DATA;
}

static inline void fx_free(fx *F)
{
    tc_tex_close(F->host, F->mem, F->unit);
}

/* Texel value formula: exact in float32 (multiples of 1/8 below 4). */
static inline double fx_val(unsigned level, unsigned layer, int x, int y, int z, unsigned c)
{
    unsigned h = (unsigned)(x * 7 + y * 13 + z * 17) + layer * 23u + level * 29u + c * 5u;
    return (double)(h % 31u) / 8.0;
}

/* A header for `format`, block-linear, of the given type and level-0 size. `depth` is the
 * 3D depth, the layer count for arrays, or the cube count for cube arrays. */
static inline void fx_tic(tv_tic *t, tv_format f, unsigned type, unsigned w, unsigned h,
                          unsigned depth, unsigned levels)
{
    tc_tic_blocklinear(t, f, type, w, h, depth, levels);
}

/* Store header `idx` (allocating storage at a fresh 512-byte aligned address). */
static inline void fx_put_tic(fx *F, unsigned idx, tv_tic *t)
{
    t->address = F->next;
    uint64_t size = tv_tic_size_bytes(t);
    F->next += (size + 1023u) & ~511ull;
    assert_true(F->next < FX_BASE + FX_SIZE);
    uint32_t raw[8];
    tv_tic_encode(t, raw);
    assert_true(tv_memory_write(F->mem, FX_HDR_POOL + 32u * idx, raw, 32));
    F->tic[idx] = *t;
    tv_tex_invalidate(F->unit);
}

/* fx_tic then fx_put_tic: header `idx` of that format, type and size. */
static inline void fx_put_tex(fx *F, unsigned idx, tv_format f, unsigned type, unsigned w,
                              unsigned h, unsigned depth, unsigned levels)
{
    tv_tic t;
    fx_tic(&t, f, type, w, h, depth, levels);
    fx_put_tic(F, idx, &t);
}

/* Rewrite header `idx` keeping its storage (view changes). */
static inline void fx_update_tic(fx *F, unsigned idx, const tv_tic *t)
{
    uint32_t raw[8];
    tv_tic_encode(t, raw);
    assert_true(tv_memory_write(F->mem, FX_HDR_POOL + 32u * idx, raw, 32));
    F->tic[idx] = *t;
    tv_tex_invalidate(F->unit);
}

static inline void fx_put_tsc(fx *F, unsigned idx, const tv_tsc *s)
{
    uint32_t raw[8];
    tv_tsc_encode(s, raw);
    assert_true(tv_memory_write(F->mem, FX_SMP_POOL + 32u * idx, raw, 32));
    tv_tex_invalidate(F->unit);
}

/* A sampler with the given filters and wrap mode on all axes, LOD range [0, 15.996]. */
static inline void fx_tsc(tv_tsc *s, unsigned mag, unsigned min, unsigned mip, unsigned wrap)
{
    memset(s, 0, sizeof *s);
    s->address_u = s->address_v = s->address_p = (uint8_t)wrap;
    s->mag_filter = (uint8_t)mag;
    s->min_filter = (uint8_t)min;
    s->mip_filter = (uint8_t)mip;
    s->srgb_conversion = true;
    s->cubemap_interface_filtering = 2;
    s->min_lod_clamp = 0;
    s->max_lod_clamp = 0xfff;
}

static inline void fx_write_texel(fx *F, unsigned idx, unsigned level, unsigned x, unsigned y,
                                  unsigned zl, unsigned sample, const uint32_t v[4])
{
    const tv_tic *t = &F->tic[idx];
    uint8_t buf[16];
    tv_format f = tv_format_from_tic(t);
    assert_true(tv_format_pack(f, v, buf));
    uint64_t a = tv_tic_texel_address(t, level, x, y, zl, sample);
    assert_true(tv_memory_write(F->mem, a, buf, tv_format_get(f)->block_bytes));
}

static inline void fx_write_float(fx *F, unsigned idx, unsigned level, unsigned x, unsigned y,
                                  unsigned zl, float r, float g, float b, float a)
{
    uint32_t v[4] = {fx_u(r), fx_u(g), fx_u(b), fx_u(a)};
    fx_write_texel(F, idx, level, x, y, zl, 0, v);
}

static inline unsigned fx_max(unsigned a, unsigned b)
{
    return a > b ? a : b;
}

/* Fill every texel of every level/layer with fx_val (float formats). */
static inline void fx_fill_formula(fx *F, unsigned idx)
{
    const tv_tic *t = &F->tic[idx];
    unsigned w = t->width_minus_one + 1, h = t->height_minus_one + 1u;
    unsigned d = t->depth_minus_one + 1u;
    unsigned layers = 1, depth3 = 1;
    switch (t->texture_type) {
    case TV_TEX_3D: depth3 = d; break;
    case TV_TEX_1D_ARRAY:
    case TV_TEX_2D_ARRAY: layers = d; break;
    case TV_TEX_CUBE: layers = 6; break;
    case TV_TEX_CUBE_ARRAY: layers = 6 * d; break;
    default: break;
    }
    for (unsigned L = 0; L <= t->max_mip_level; L++) {
        unsigned lw = fx_max(1, w >> L), lh = fx_max(1, h >> L), ld = fx_max(1, depth3 >> L);
        if (t->texture_type == TV_TEX_1D || t->texture_type == TV_TEX_1D_ARRAY)
            lh = 1;
        for (unsigned l = 0; l < layers; l++)
            for (unsigned z = 0; z < ld; z++)
                for (unsigned y = 0; y < lh; y++)
                    for (unsigned x = 0; x < lw; x++) {
                        unsigned zl = depth3 > 1 ? z : l;
                        fx_write_float(F, idx, L, x, y, zl, (float)fx_val(L, l, (int)x, (int)y, (int)z, 0),
                                       (float)fx_val(L, l, (int)x, (int)y, (int)z, 1),
                                       (float)fx_val(L, l, (int)x, (int)y, (int)z, 2),
                                       (float)fx_val(L, l, (int)x, (int)y, (int)z, 3));
                    }
    }
}

static inline void fx_req(tv_tex_request *r, unsigned op, unsigned target, uint32_t handle,
                          uint32_t active)
{
    memset(r, 0, sizeof *r);
    r->op = (uint8_t)op;
    r->target = (uint8_t)target;
    r->active = active;
    for (unsigned l = 0; l < TV_TEX_LANES; l++)
        r->handle[l] = handle;
}

static inline void fx_run(fx *F, const tv_tex_request *r, tv_tex_result *res)
{
    tv_error e;
    memset(res, 0xcd, sizeof *res);
    assert_int_equal(tv_tex_execute(F->unit, r, res, &e), TV_OK);
}

/* ---- float64 reference -------------------------------------------------------------- */

/* Wrap one integer index; -1 = border. Written from the D3D11 §7.18.9 pseudo-code. */
static inline int ref_wrap_index(unsigned mode, long i, long n)
{
    switch (mode) {
    case TV_WRAP_REPEAT: {
        long r = i % n;
        return (int)(r < 0 ? r + n : r);
    }
    case TV_WRAP_MIRROR: {
        if (i < 0)
            i = -i - 1;
        long flip = (i / n) & 1;
        i %= n;
        return (int)(flip ? n - i - 1 : i);
    }
    case TV_WRAP_BORDER:
        return (i < 0 || i >= n) ? -1 : (int)i;
    case TV_WRAP_MIRROR_ONCE_CLAMP_TO_EDGE:
        if (i < 0)
            i = -i - 1;
        return (int)(i >= n ? n - 1 : i);
    case TV_WRAP_MIRROR_ONCE_BORDER:
        if (i < 0)
            i = -i - 1;
        return i >= n ? -1 : (int)i;
    default: /* CLAMP_TO_EDGE */
        return (int)(i < 0 ? 0 : i >= n ? n - 1 : i);
    }
}

/* One axis: up to two taps (index or -1 border) and their weights. */
static inline void ref_axis(unsigned mode, bool linear, double u, long n, int idx[2],
                            double wt[2])
{
    bool legacy = mode == TV_WRAP_CLAMP_OGL || mode == TV_WRAP_MIRROR_ONCE_CLAMP_OGL;
    if (mode == TV_WRAP_CLAMP_OGL)
        u = u < 0 ? 0 : u > (double)n ? (double)n : u;
    if (mode == TV_WRAP_MIRROR_ONCE_CLAMP_OGL) {
        u = fabs(u);
        u = u < 0.5 ? 0.5 : u > (double)n ? (double)n : u;
    }
    if (!linear) {
        long i = (long)floor(u);
        idx[0] = legacy ? (int)(i >= n ? n - 1 : i) : ref_wrap_index(mode, i, n);
        idx[1] = idx[0];
        wt[0] = 1.0;
        wt[1] = 0.0;
        return;
    }
    double x = u - 0.5;
    long i0 = (long)floor(x);
    double a = x - floor(x);
    for (int k = 0; k < 2; k++) {
        long i = i0 + k;
        idx[k] = legacy ? ((i < 0 || i >= n) ? -1 : (int)i) : ref_wrap_index(mode, i, n);
    }
    wt[0] = 1.0 - a;
    wt[1] = a;
}

typedef struct ref_tex {
    unsigned dims;        /* 1, 2, 3 */
    long w, h, d;         /* level-0 size */
    unsigned layer;       /* layer index used by fx_val */
    double border[4];
} ref_tex;

/* Sample one level of a formula texture at texel-space coordinates (u,v,w). */
static inline void ref_sample_level(const ref_tex *t, unsigned level, const unsigned wrap[3],
                                    bool linear, const double u[3], double out[4])
{
    long n[3] = {t->w >> level, t->h >> level, t->d >> level};
    for (int a = 0; a < 3; a++)
        if (n[a] < 1)
            n[a] = 1;
    int idx[3][2] = {{0, 0}, {0, 0}, {0, 0}};
    double wt[3][2] = {{1, 0}, {1, 0}, {1, 0}};
    for (unsigned a = 0; a < t->dims; a++)
        ref_axis(wrap[a], linear, u[a], n[a], idx[a], wt[a]);
    for (int c = 0; c < 4; c++)
        out[c] = 0.0;
    for (int k = 0; k < 2; k++)
        for (int j = 0; j < 2; j++)
            for (int i = 0; i < 2; i++) {
                double w = wt[0][i] * wt[1][j] * wt[2][k];
                if (w == 0.0)
                    continue;
                bool border = idx[0][i] < 0 || idx[1][j] < 0 || idx[2][k] < 0;
                for (int c = 0; c < 4; c++)
                    out[c] += w * (border ? t->border[c]
                                          : fx_val(level, t->layer, idx[0][i], idx[1][j],
                                                   idx[2][k], (unsigned)c));
            }
}

static inline void fx_expect_near(const tv_tex_result *res, unsigned lane, const double ref[4],
                                  double tol)
{
    for (int c = 0; c < 4; c++) {
        double got = fx_f(res->v[c][lane]);
        if (!(fabs(got - ref[c]) <= tol)) {
            print_error("lane %u comp %d: got %.9g expected %.9g\n", lane, c, got, ref[c]);
            fail();
        }
    }
}

#endif
