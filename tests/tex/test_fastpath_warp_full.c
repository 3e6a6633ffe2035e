/* The warp path's vectorised kernel (src/tex/fast/tex_warp_vec.c) against the general path:
 * requests shaped to reach it — full warps (and partial masks) of quads whose coordinates
 * follow an affine map, so every lane selects the same level(s): magnified, minified on
 * one level, trilinear between two — on power-of-two and odd textures, pitch and
 * block-linear, 2D and 2D array, RGBA8 / BGRA8, view base levels, every wrap / filter /
 * mip combination the kernel takes, offsets, projection, biases, LOD clamps, SAMPLE /
 * SAMPLE_BIAS / SAMPLE_LOD / SAMPLE_LZ in the reference precision (the only one the fast
 * paths serve), and coordinates on texel edges and centres and an ulp or two around them,
 * large, negative, ±0, or NaN / ±inf / huge in one lane (those go back to the lane
 * passes). Every result word is compared with tv_tex_execute() with the fast
 * paths off, for each instruction-set variant of the kernel the CPU has; the tests also
 * check that the kernel really answers most of them (tex_warp_vec_count) and that the
 * declines happen where they must. */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "texvm/tex.h"
#include "fastpath_fixture.h"
#include "tex/format.h"
#include "tex/tex_sampling.h"
#include "tex/fast/tex_warp.h"

#define NTEX 8
#define NSMP 54

static const fp_tex textures[NTEX] = {
    {"R8G8B8A8_UNORM", 64, 64, TV_TIC_BLOCKLINEAR, TV_TEX_2D, 0, -1, 0},
    {"B8G8R8A8_UNORM", 128, 32, TV_TIC_PITCH, TV_TEX_2D, 0, -1, 0},
    {"R8G8B8A8_UNORM", 37, 21, TV_TIC_PITCH, TV_TEX_2D, 0, -1, 0}, /* odd: CLAMP only */
    {"R8G8B8A8_UNORM", 32, 32, TV_TIC_BLOCKLINEAR, TV_TEX_2D_ARRAY, 0, -1, 0},
    {"B8G8R8A8_UNORM", 256, 128, TV_TIC_BLOCKLINEAR, TV_TEX_2D, 1, 6, 0}, /* levels 1..6 */
    {"R8G8B8A8_UNORM", 16, 64, TV_TIC_PITCH, TV_TEX_2D_ARRAY, 0, -1, 0},
    {"R8G8B8A8_UNORM", 48, 40, TV_TIC_BLOCKLINEAR, TV_TEX_2D, 0, -1, 0}, /* odd levels */
    {"B8G8R8A8_UNORM", 8, 8, TV_TIC_PITCH, TV_TEX_2D_NO_MIPMAP, 0, -1, 0},
};

static void setup(fp *F)
{
    fp_setup(F, 0x6d2b79f5u, textures, NTEX, 63);
    for (unsigned s = 0; s < NSMP; s++) {
        tv_tsc ts;
        fp_tsc_wraps(&ts, s);
        ts.mag_filter = (s / 9) % 2 ? TV_MAG_POINT : TV_MAG_LINEAR;
        ts.min_filter = (s / 9) % 3 == 2 ? TV_MIN_POINT : TV_MIN_LINEAR;
        ts.mip_filter = (uint8_t)(TV_MIP_NONE + (s / 18 + s) % 3);
        ts.max_lod_clamp = (s % 7 == 6) ? 0x1c0 : 0xfff;
        ts.min_lod_clamp = (s % 11 == 10) ? 0x80 : 0;
        ts.mip_lod_bias = (int16_t)((s % 4 == 3) ? 0x100 : (s % 9 == 8) ? -0x1a0 : 0);
        fp_put_sampler(F, s, &ts);
    }
}

/* One of the special coordinate values for a single lane. */
static float odd_value(fp *F)
{
    switch (fp_rnd(F) % 12) {
    case 0: return NAN;
    case 1: return INFINITY;
    case 2: return -INFINITY;
    case 3: return 3.0e9f;   /* beyond 2^23 texels: the lane passes */
    case 4: return -0.0f;
    case 5: return 1000.5f;  /* large but exact: the kernel */
    case 6: return -37.25f;
    case 7: return 1.0e6f;
    case 8: return -4.0e7f;  /* 2^31..2^32 texels on most levels: int32 would wrap */
    case 9: return 1.0e8f;
    case 10: return 131071.75f; /* 2^23 texels and around on the wider levels */
    default: return -65535.5f;
    }
}

typedef struct shape {
    unsigned tex, smp, op;
    bool array, full;
} shape;

/* Coordinates of an affine map over the warp's 2x4 quads (8x4 pixels): per-lane
 * derivatives equal up to rounding, so λ (and the level) is the same in every lane. */
static void fill(fp *F, tv_tex_request *r, const shape *sh)
{
    memset(r, 0, sizeof *r);
    const fp_tex *T = &textures[sh->tex];
    r->op = (uint8_t)sh->op;
    r->target = (uint8_t)(sh->array ? TV_TEXTGT_2D_ARRAY : TV_TEXTGT_2D);
    r->active = ~0u;
    r->present = 0;
    bool packed = false;
    if (!sh->full) {
        switch (fp_rnd(F) % 4) {
        case 0: r->active = fp_rnd(F) | 1u; r->present = ~0u; break; /* helpers */
        case 1: r->active = 0x0f0f0f0fu & fp_rnd(F); break;
        case 2: r->active = fp_rnd(F); r->present = r->active | fp_rnd(F); break;
        default: { /* the pipeline's packed warps: quads present whole or not at all */
            uint32_t q = (fp_rnd(F) & 0xffu) | 1u << (fp_rnd(F) % 8);
            for (unsigned i = 0; i < 8; i++)
                r->present |= ((q >> i) & 1u) ? 0xfu << (4 * i) : 0u;
            r->active = r->present & fp_rnd(F);
            packed = true;
            break;
        }
        }
        unsigned extra = fp_rnd(F) % 32;
        while (packed && !((r->present >> extra) & 1u))
            extra = (extra + 1) % 32;
        r->active |= 1u << extra;
    }
    uint32_t k = fp_rnd(F) % 8;
    r->flags = (k & 1 ? TV_TEXF_OFFSETS : 0) | (k & 2 ? TV_TEXF_PROJECTIVE : 0) |
               ((k & 4) && fp_rnd(F) % 4 == 0 ? TV_TEXF_NO_DERIV : 0);
    uint32_t handle = tv_tex_handle(sh->tex, sh->smp);
    unsigned lw = T->w >> T->min_level, lh = T->h >> T->min_level;
    /* texel-space step per pixel 2^e: e < 0 magnifies; a fraction away from the level
     * boundaries keeps all lanes on one level */
    float e = (float)(int)(fp_rnd(F) % 9) - 4.0f + fp_frnd(F, 0.1f, 0.9f);
    if (fp_rnd(F) % 5 == 0)
        e = (float)(int)(fp_rnd(F) % 5) - 3.0f; /* exact powers of two */
    float step = exp2f(e);
    float dsx = step / (float)lw, dty = step / (float)lh * fp_frnd(F, 0.7f, 1.3f);
    float dsy = (fp_rnd(F) % 3 == 0) ? dsx * fp_frnd(F, -0.2f, 0.2f) : 0.0f;
    float dtx = (fp_rnd(F) % 3 == 0) ? dty * fp_frnd(F, -0.2f, 0.2f) : 0.0f;
    float s0, t0;
    switch (fp_rnd(F) % 5) {
    case 4: { /* an ulp or two around a texel centre or edge of one of the first levels;
               * just below the centre of texel 0, x = u - 0.5 is a tiny negative number
               * and x - floor(x) rounds to 1 (the weight is then 0) */
        unsigned k = fp_rnd(F) % 4;
        unsigned wk = lw >> k ? lw >> k : 1, hk = lh >> k ? lh >> k : 1;
        float half = (fp_rnd(F) & 1) ? 0.5f : 0.0f;
        bool zero = fp_rnd(F) & 1;
        s0 = ((float)(int)(zero ? 0 : fp_rnd(F) % wk) + half) / (float)wk;
        t0 = ((float)(int)(zero ? 0 : fp_rnd(F) % hk) + half) / (float)hk;
        for (unsigned u = fp_rnd(F) % 3; u > 0; u--) {
            s0 = nextafterf(s0, (fp_rnd(F) & 1) ? 2.0f : -2.0f);
            t0 = nextafterf(t0, (fp_rnd(F) & 1) ? 2.0f : -2.0f);
        }
        if (fp_rnd(F) & 1) { /* every lane on the same spot: magnified, level 0 */
            dsx = dty = dsy = dtx = 0.0f;
        }
        break;
    }
    case 0: /* texel edges and centres */
        s0 = (float)(int)(fp_rnd(F) % (4 * lw)) / (float)(2 * lw) - 1.0f;
        t0 = (float)(int)(fp_rnd(F) % (4 * lh)) / (float)(2 * lh) - 1.0f;
        if (e < 0.0f) {
            dsx = 0.5f / (float)lw;
            dty = 0.25f / (float)lh;
            dsy = dtx = 0.0f;
        }
        break;
    case 1: /* far from the origin, both signs */
        s0 = fp_frnd(F, -40.0f, 40.0f);
        t0 = fp_frnd(F, -40.0f, 40.0f);
        break;
    default:
        s0 = fp_frnd(F, -1.5f, 2.5f);
        t0 = fp_frnd(F, -1.5f, 2.5f);
        break;
    }
    float lod = fp_frnd(F, -2.0f, 7.0f), bias = fp_frnd(F, -1.5f, 1.5f);
    if (fp_rnd(F) % 16 == 0)
        bias = (fp_rnd(F) & 1) ? 17.0f : -20.0f; /* past the bias clamps */
    if (fp_rnd(F) % 4 == 0)
        lod = (float)(int)(fp_rnd(F) % 8) * 0.5f; /* level boundaries and halves */
    bool lane_lod = fp_rnd(F) % 4 == 0; /* per-lane LOD / bias values */
    float clamp = (fp_rnd(F) % 6 == 0) ? fp_frnd(F, 0.0f, 3.0f) : 0.0f;
    float qv = fp_frnd(F, 0.5f, 2.0f);
    float layer = fp_frnd(F, -1.0f, 4.0f);
    for (unsigned l = 0; l < TV_TEX_LANES; l++) {
        r->handle[l] = (r->active >> l) & 1u ? handle : (uint32_t)fp_rnd(F);
        unsigned x = (l >> 2) * 2 + (l & 1), y = (l >> 1) & 1;
        float s = s0 + (float)x * dsx + (float)y * dsy;
        float t = t0 + (float)y * dty + (float)x * dtx;
        bool proj = (r->flags & TV_TEXF_PROJECTIVE) != 0;
        r->q[l] = proj ? qv : 1.0f;
        r->coord[0][l] = proj ? s * qv : s;
        r->coord[1][l] = proj ? t * qv : t;
        r->coord[3][l] = layer;
        r->lod[l] = sh->op == TV_TEX_OP_SAMPLE_LOD ? (lane_lod ? lod + 0.01f * (float)l : lod)
                                                    : (lane_lod ? bias * (float)(l & 3) : bias);
        r->lod_clamp[l] = clamp;
        r->offset[0][l] = (int8_t)((int)(fp_rnd(F) % 16) - 8);
        r->offset[1][l] = (int8_t)((int)(fp_rnd(F) % 16) - 8);
    }
    if (packed && fp_rnd(F) % 2 == 0) /* absent quads' lanes: never read, anything */
        for (unsigned l = 0; l < TV_TEX_LANES; l++)
            if (!((r->present >> l) & 1u)) {
                r->coord[0][l] = fp_frnd(F, -1e6f, 1e6f);
                r->coord[1][l] = (fp_rnd(F) & 1) ? NAN : fp_frnd(F, -3.0f, 3.0f);
            }
    if (fp_rnd(F) % 12 == 0) /* one odd lane */
        r->coord[fp_rnd(F) & 1][fp_rnd(F) % 32] = odd_value(F);
    if (fp_rnd(F) % 16 == 0)
        r->lod[fp_rnd(F) % 32] = (fp_rnd(F) & 1) ? NAN : -INFINITY;
}

static void random_requests(unsigned isa)
{
    static const unsigned ops[] = {TV_TEX_OP_SAMPLE, TV_TEX_OP_SAMPLE_BIAS,
                                   TV_TEX_OP_SAMPLE_LOD, TV_TEX_OP_SAMPLE_LZ};
    fp F;
    setup(&F);
    tex_set_vector_isa_cap(F.unit, isa);
    static tv_tex_request r;
    unsigned taken = 0, n = 8000;
    uint64_t before = tex_warp_vec_count(), paired0, single0, paired1, single1;
    uint64_t uni0 = tex_warp_vec_uniform_count(), win0 = tex_warp_vec_window_count();
    tex_warp_vec_pair_counts(&paired0, &single0);
    for (unsigned i = 0; i < n; i++) {
        shape sh;
        sh.tex = fp_rnd(&F) % NTEX;
        sh.array = textures[sh.tex].type == TV_TEX_2D_ARRAY ||
                   (textures[sh.tex].type == TV_TEX_2D && fp_rnd(&F) % 8 == 0);
        sh.smp = fp_rnd(&F) % NSMP;
        sh.op = ops[i % 4];
        sh.full = fp_rnd(&F) % 4 != 0;
        fill(&F, &r, &sh);
        fp_check_warp(&F, &r, &taken);
    }
    uint64_t vec = tex_warp_vec_count() - before;
    tex_warp_vec_pair_counts(&paired1, &single1);
    uint64_t uni = tex_warp_vec_uniform_count() - uni0;
    uint64_t win = tex_warp_vec_window_count() - win0;
    print_message("isa cap %u: %u of %u taken by the warp path, %u by the "
                  "kernel (level slots: %u paired loads — %u by 16-byte windows —, %u single; "
                  "%u with one footprint)\n",
                  isa, taken, n, (unsigned)vec,
                  (unsigned)(paired1 - paired0), (unsigned)win, (unsigned)(single1 - single0),
                  (unsigned)uni);
    /* both footprint ways (once for a request whose lanes' derivatives are the same
     * bits, per lane otherwise) are compared */
    assert_true(uni >= vec / 20);
    assert_true(uni * 2 <= vec);
    /* both ways of reading the texel words (the paired 64-bit loads of pitch levels
     * without a seam between the horizontal taps, and single words) are compared */
    assert_true(paired1 - paired0 >= vec / 40);
    assert_true(single1 - single0 >= vec / 20);
    assert_true(taken * 10 >= n * 9);   /* the shape is the warp path's */
    assert_true(vec * 10 >= taken * 6); /* and mostly the kernel's */
    assert_true(vec < taken);           /* the declines are exercised too */
    fp_teardown(&F);
}

FP_VARIANT_TESTS(random_requests)

/* The kernel decodes bytes with tex_warp_unorm8 instead of reading the decoder's table:
 * the same bits for every byte (and as a run-time division b / 255.0f). */
static void test_unorm8_decode(void **state)
{
    (void)state;
    for (unsigned b = 0; b < 256; b++) {
        volatile uint32_t vb = b; /* run-time operations, as in the kernel */
        float f = tex_warp_unorm8(vb), g = (float)vb / 255.0f;
        uint32_t x, y, z;
        memcpy(&x, &f, 4);
        memcpy(&y, &tex_unorm8[b], 4);
        memcpy(&z, &g, 4);
        assert_int_equal(x, y);
        assert_int_equal(z, y);
    }
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
/* The AVX-512 tap sums' decode (tex_warp_vec_taps.h): the byte repeated into four bytes,
 * H = b · 0x01010101, converted unsigned and rounded up, is 256 times the sum
 * h + h·2^-24 that tex_warp_unorm8 rounds, so 2^-32 times it is the table's value. */
__attribute__((target("avx512f"))) static void wide_decode(uint32_t out[16], uint32_t b0)
{
    __m512i h = _mm512_mullo_epi32(
        _mm512_add_epi32(_mm512_set1_epi32((int)b0),
                         _mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)),
        _mm512_set1_epi32(0x01010101));
    __m512 r = _mm512_cvt_roundepu32_ps(h, _MM_FROUND_TO_POS_INF | _MM_FROUND_NO_EXC);
    _mm512_storeu_ps((float *)(void *)out, r);
}

static void test_unorm8_decode_wide(void **state)
{
    (void)state;
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("avx512f"))
        skip();
    for (unsigned b0 = 0; b0 < 256; b0 += 16) {
        uint32_t r[16];
        wide_decode(r, b0);
        for (unsigned k = 0; k < 16; k++) {
            unsigned b = b0 + k;
            float h = (float)(b * 0x010101u), sum = h + h * 0x1p-24f, rf, f;
            memcpy(&rf, &r[k], 4);
            f = rf * 0x1p-32f;
            uint32_t x, y, z, w;
            memcpy(&x, &f, 4);
            memcpy(&y, &tex_unorm8[b], 4);
            sum *= 256.0f;
            memcpy(&z, &sum, 4);
            memcpy(&w, &rf, 4);
            assert_int_equal(w, z);
            assert_int_equal(x, y);
        }
    }
}
#endif

/* Which requests the kernel answers, and which it leaves to the lane passes. */
static void test_kernel_decisions(void **state)
{
    (void)state;
    fp F;
    setup(&F);
    static tv_tex_request r;
    static tv_tex_result res;
    /* a full warp, magnified, REPEAT on 64x64 (sampler 0: repeat/repeat, linear) */
    memset(&r, 0, sizeof r);
    r.op = TV_TEX_OP_SAMPLE;
    r.target = TV_TEXTGT_2D;
    r.active = ~0u;
    for (unsigned l = 0; l < TV_TEX_LANES; l++) {
        unsigned x = (l >> 2) * 2 + (l & 1), y = (l >> 1) & 1;
        r.handle[l] = tv_tex_handle(0, 0);
        r.coord[0][l] = 0.3f + (float)x / 1000.0f;
        r.coord[1][l] = 0.6f + (float)y / 1000.0f;
    }
    uint64_t n0 = tex_warp_vec_count();
    assert_true(tex_warp_sample(F.unit, &r, &res));
    assert_int_equal(tex_warp_vec_count(), n0 + 1);
    /* a NaN coordinate in one lane: the warp path, not the kernel */
    float keep = r.coord[0][5];
    r.coord[0][5] = NAN;
    assert_true(tex_warp_sample(F.unit, &r, &res));
    assert_int_equal(tex_warp_vec_count(), n0 + 1);
    /* the same NaN in an inactive lane does not matter (no derivative reads it) */
    r.active = ~0u & ~(1u << 5);
    r.present = r.active;
    assert_true(tex_warp_sample(F.unit, &r, &res));
    assert_int_equal(tex_warp_vec_count(), n0 + 2);
    r.coord[0][5] = keep;
    r.active = ~0u;
    r.present = 0;
    /* huge coordinates: beyond 2^23 texels */
    r.coord[1][9] = 3.0e9f;
    assert_true(tex_warp_sample(F.unit, &r, &res));
    assert_int_equal(tex_warp_vec_count(), n0 + 2);
    r.coord[1][9] = 0.6f;
    /* REPEAT on an odd size (texture 2, sampler 0): the lane passes */
    for (unsigned l = 0; l < TV_TEX_LANES; l++)
        r.handle[l] = tv_tex_handle(2, 0);
    assert_true(tex_warp_sample(F.unit, &r, &res));
    assert_int_equal(tex_warp_vec_count(), n0 + 2);
    /* CLAMP_TO_EDGE on both axes of the same odd size (sampler 8): the kernel */
    for (unsigned l = 0; l < TV_TEX_LANES; l++)
        r.handle[l] = tv_tex_handle(2, 8);
    assert_true(tex_warp_sample(F.unit, &r, &res));
    assert_int_equal(tex_warp_vec_count(), n0 + 3);
    /* two levels in one warp (explicit LODs 0.5 and 1.5, mip POINT): the lane passes */
    for (unsigned l = 0; l < TV_TEX_LANES; l++) {
        r.handle[l] = tv_tex_handle(0, 1); /* mip filter POINT (sampler 1) */
        r.lod[l] = (l & 16) ? 1.6f : 0.6f;
    }
    r.op = TV_TEX_OP_SAMPLE_LOD;
    assert_true(tex_warp_sample(F.unit, &r, &res));
    assert_int_equal(tex_warp_vec_count(), n0 + 3);
    for (unsigned l = 0; l < TV_TEX_LANES; l++)
        r.lod[l] = 1.6f;
    assert_true(tex_warp_sample(F.unit, &r, &res));
    assert_int_equal(tex_warp_vec_count(), n0 + 4);
    fp_teardown(&F);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unorm8_decode),
#if defined(__x86_64__) && defined(__GNUC__)
        cmocka_unit_test(test_unorm8_decode_wide),
#endif
        cmocka_unit_test(test_kernel_decisions),
        FP_VARIANT_UNIT_TESTS,
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
