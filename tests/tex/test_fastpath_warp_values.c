/* The vectorised warp kernel (src/tex/fast/tex_warp_vec.c) for requests that set
 * TV_TEXF_VALUES_ONLY: the kernel then skips the QUERY_LOD extras (major axis, ratio) and,
 * where every active lane is provably magnified, the log2 and the level selection, and
 * where λ decides nothing (mip NONE, one filter either way) the derivatives too. The
 * values must be bit-identical with and without the flag and with the general path.
 * Requests are full and partial warps of quads on an affine map whose texel-space step
 * per pixel sits on, just above and just below the shortcut's bound (major length 1),
 * with sampler biases of both signs,
 * LOD clamps (sampler and per lane), other ops, offsets, projection, and an odd lane;
 * every instruction-set variant of the kernel the CPU has. The libm property the shortcut
 * rests on (log2f faithfully rounded near the bounds) is checked too. */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "texvm/tex.h"
#include "fastpath_fixture.h"
#include "tex/tex_sampling.h"
#include "tex/fast/tex_warp.h"

#define NTEX 3
#define NSMP 30
/* the bound's samplers: 0, 1, 2 with mip POINT (the mip NONE ones need no λ at all) */
#define S_BOUND 30

static const fp_tex textures[NTEX] = {
    {"R8G8B8A8_UNORM", 64, 64, TV_TIC_BLOCKLINEAR, TV_TEX_2D, 0, -1, 0},
    {"B8G8R8A8_UNORM", 128, 32, TV_TIC_PITCH, TV_TEX_2D, 0, -1, 0},
    {"R8G8B8A8_UNORM", 32, 64, TV_TIC_PITCH, TV_TEX_2D, 0, -1, 0},
};

/* sampler s: bias (1/256 units) s % 5, min LOD clamp, max LOD clamp, mip mode, filters */
static const int16_t biases[5] = {0, 0x100, -0x1a0, 0x01, -0x01};

static void setup(fp *F)
{
    fp_setup(F, 0x2545f491u, textures, NTEX, 63);
    for (unsigned s = 0; s < NSMP; s++) {
        tv_tsc ts;
        memset(&ts, 0, sizeof ts);
        ts.address_u = TV_WRAP_REPEAT;
        ts.address_v = (s & 1) ? TV_WRAP_CLAMP_TO_EDGE : TV_WRAP_REPEAT;
        ts.address_p = TV_WRAP_REPEAT;
        ts.mag_filter = (s / 5) % 2 ? TV_MAG_POINT : TV_MAG_LINEAR;
        ts.min_filter = (s / 10) % 2 ? TV_MIN_POINT : TV_MIN_LINEAR;
        ts.mip_filter = (uint8_t)(TV_MIP_NONE + (s / 3) % 3);
        ts.max_lod_clamp = (s % 7 == 6) ? 0 : (s % 7 == 5) ? 0x1c0 : 0xfff;
        ts.min_lod_clamp = (s % 11 == 10) ? 0x80 : 0;
        ts.mip_lod_bias = biases[s % 5];
        fp_put_sampler(F, s, &ts);
        if (s < 3) {
            ts.mip_filter = TV_MIP_POINT;
            fp_put_sampler(F, S_BOUND + s, &ts);
        }
    }
}

/* A texel-space step per pixel on, around or away from the bound 1 (and 1/2). */
static float step_value(fp *F)
{
    static const float k[] = {1.0f, 0.5f, 0.49f, 1.01f, 0.25f, 2.0f, 0.0f, 0.4f};
    uint32_t c = fp_rnd(F) % 16;
    if (c < 8)
        return k[c];
    if (c < 13) {
        float b = (c & 1) ? 1.0f : 0.5f;
        for (unsigned u = 1 + fp_rnd(F) % 3; u > 0; u--)
            b = nextafterf(b, (c & 2) ? 4.0f : 0.0f);
        return b;
    }
    return (c & 1) ? fp_frnd(F, 0.1f, 0.6f) : fp_frnd(F, 0.1f, 2.5f);
}

static void fill(fp *F, tv_tex_request *r, unsigned tex, unsigned smp, unsigned op,
                 bool full)
{
    memset(r, 0, sizeof *r);
    const fp_tex *T = &textures[tex];
    r->op = (uint8_t)op;
    r->target = TV_TEXTGT_2D;
    r->active = ~0u;
    if (!full) {
        r->active = fp_rnd(F) | 1u;
        r->present = (fp_rnd(F) & 1) ? ~0u : r->active;
    }
    r->flags = TV_TEXF_VALUES_ONLY | (fp_rnd(F) % 16 == 0 ? TV_TEXF_NO_DERIV : 0) |
               (fp_rnd(F) % 4 == 0 ? TV_TEXF_OFFSETS : 0) |
               (fp_rnd(F) % 4 == 0 ? TV_TEXF_PROJECTIVE : 0);
    bool proj = (r->flags & TV_TEXF_PROJECTIVE) != 0;
    float qv = proj ? fp_frnd(F, 0.5f, 2.0f) : 1.0f;
    uint32_t handle = tv_tex_handle(tex, smp);
    float kx = step_value(F), ky = (fp_rnd(F) % 4 == 0) ? step_value(F) : kx;
    float dsx = kx / (float)T->w, dty = ky / (float)T->h; /* exact: powers of two */
    float dsy = (fp_rnd(F) % 4 == 0) ? dsx * fp_frnd(F, -0.3f, 0.3f) : 0.0f;
    /* an origin at 0 keeps the first quad's differences exact (s1 - s0 = dsx) */
    float s0 = (fp_rnd(F) & 1) ? 0.0f : fp_frnd(F, -1.5f, 2.5f);
    float t0 = (fp_rnd(F) & 1) ? 0.0f : fp_frnd(F, -1.5f, 2.5f);
    float clamp = (fp_rnd(F) % 8 == 0) ? fp_frnd(F, -0.5f, 1.0f) : 0.0f;
    float bias = fp_frnd(F, -1.5f, 1.5f), lod = fp_frnd(F, -1.0f, 4.0f);
    for (unsigned l = 0; l < TV_TEX_LANES; l++) {
        r->handle[l] = (r->active >> l) & 1u ? handle : (uint32_t)fp_rnd(F);
        unsigned x = (l >> 2) * 2 + (l & 1), y = (l >> 1) & 1;
        r->coord[0][l] = (s0 + (float)x * dsx + (float)y * dsy) * qv;
        r->coord[1][l] = (t0 + (float)y * dty) * qv;
        r->q[l] = qv;
        r->lod[l] = op == TV_TEX_OP_SAMPLE_LOD ? lod : bias;
        r->lod_clamp[l] = clamp;
        r->offset[0][l] = (int8_t)((int)(fp_rnd(F) % 16) - 8);
        r->offset[1][l] = (int8_t)((int)(fp_rnd(F) % 16) - 8);
    }
    if (fp_rnd(F) % 6 == 0) { /* one lane's footprint past the bound (or a NaN) */
        unsigned l = fp_rnd(F) % 32;
        r->coord[0][l] += (fp_rnd(F) % 8 == 0) ? NAN : 3.0f * dsx;
    }
    if (fp_rnd(F) % 8 == 0) /* one lane's clamp above 0 */
        r->lod_clamp[fp_rnd(F) % 32] = 0.25f;
}

/* tex_warp_sample with the flag against the general path without it (values of the
 * active lanes; inactive lanes unwritten) and against tex_warp_sample without it */
static void check(fp *F, const tv_tex_request *r, unsigned *taken)
{
    static tv_tex_request plain;
    static tv_tex_result a, b, c;
    tv_error e;
    plain = *r;
    plain.flags &= ~(uint32_t)TV_TEXF_VALUES_ONLY;
    memset(&a, 0xcd, sizeof a);
    memset(&b, 0xcd, sizeof b);
    memset(&c, 0xcd, sizeof c);
    a.invalid = 0;
    c.invalid = 0;
    tex_set_fast_paths_disabled(F->unit, false);
    bool fast = tex_warp_sample(F->unit, r, &a);
    assert_true(fast == tex_warp_sample(F->unit, &plain, &c));
    if (!fast)
        return;
    (*taken)++;
    tex_set_fast_paths_disabled(F->unit, true);
    assert_int_equal(tv_tex_execute(F->unit, &plain, &b, &e), TV_OK);
    tex_set_fast_paths_disabled(F->unit, false);
    assert_int_equal(a.invalid, b.invalid);
    for (unsigned l = 0; l < TV_TEX_LANES; l++)
        for (unsigned k = 0; k < 4; k++) {
            if (!((r->active >> l) & 1u)) {
                assert_int_equal(a.v[k][l], 0xcdcdcdcdu);
                continue;
            }
            if (a.v[k][l] != b.v[k][l] || a.v[k][l] != c.v[k][l])
                fail_msg("op %u lane %u comp %u: values-only %08x general %08x plain %08x "
                         "(s %a t %a)", r->op, l, k, a.v[k][l], b.v[k][l], c.v[k][l],
                         (double)r->coord[0][l], (double)r->coord[1][l]);
        }
}

static void random_requests(unsigned isa)
{
    static const unsigned ops[] = {TV_TEX_OP_SAMPLE, TV_TEX_OP_SAMPLE, TV_TEX_OP_SAMPLE,
                                   TV_TEX_OP_SAMPLE_BIAS, TV_TEX_OP_SAMPLE_LOD,
                                   TV_TEX_OP_SAMPLE_LZ};
    fp F;
    setup(&F);
    tex_set_vector_isa_cap(F.unit, isa);
    static tv_tex_request r;
    unsigned taken = 0, n = 6000;
    uint64_t vec0 = tex_warp_vec_count(), mag0 = tex_warp_vec_mag_count(),
             free0 = tex_warp_vec_free_count();
    for (unsigned i = 0; i < n; i++) {
        unsigned tex = fp_rnd(&F) % NTEX, smp = fp_rnd(&F) % NSMP;
        fill(&F, &r, tex, smp, ops[i % 6], fp_rnd(&F) % 4 != 0);
        check(&F, &r, &taken);
    }
    /* (each request ran through the kernel twice: with and without the flag) */
    uint64_t vec = tex_warp_vec_count() - vec0, mag = tex_warp_vec_mag_count() - mag0,
             lfree = tex_warp_vec_free_count() - free0;
    print_message("isa cap %u: %u of %u taken by the warp path, %u kernel "
                  "runs, %u magnified without log2, %u without a level of detail\n", isa,
                  taken, n, (unsigned)vec, (unsigned)mag, (unsigned)lfree);
    assert_true(taken * 10 >= n * 8);
    assert_true(vec >= taken);          /* the kernel answers most of them */
    assert_true(mag * 40 >= vec);       /* the shortcuts are exercised (hundreds) */
    assert_true(lfree * 40 >= vec);
    assert_true((mag + lfree) * 4 <= vec);   /* and the full computation with the flag */
    fp_teardown(&F);
}

FP_VARIANT_TESTS(random_requests)

/* One full warp, every lane with exactly the step k (texels per pixel, both axes) on the
 * 64x64 texture, sampler smp: the kernel takes it, with the magnification shortcut iff
 * `mag`, without a level of detail iff `lfree`. */
static void one_step_ways(fp *F, float k, unsigned smp, bool mag, bool lfree)
{
    static tv_tex_request r;
    unsigned taken = 0;
    memset(&r, 0, sizeof r);
    r.op = TV_TEX_OP_SAMPLE;
    r.target = TV_TEXTGT_2D;
    r.active = ~0u;
    r.flags = TV_TEXF_VALUES_ONLY;
    for (unsigned l = 0; l < TV_TEX_LANES; l++) {
        unsigned x = (l >> 2) * 2 + (l & 1), y = (l >> 1) & 1;
        r.handle[l] = tv_tex_handle(0, smp);
        /* quads 1/4 apart: the first quad's differences are exactly k / 64 (the others'
         * are k / 64 rounded at 1/4 .. 1) */
        r.coord[0][l] = 0.25f * (float)(x >> 1) + (float)(x & 1) * (k / 64.0f);
        r.coord[1][l] = (float)y * (k / 64.0f);
        r.q[l] = 1.0f;
    }
    uint64_t vec0 = tex_warp_vec_count(), mag0 = tex_warp_vec_mag_count(),
             free0 = tex_warp_vec_free_count();
    check(F, &r, &taken);
    assert_int_equal(taken, 1);
    assert_int_equal(tex_warp_vec_count() - vec0, 2);
    assert_int_equal(tex_warp_vec_mag_count() - mag0, mag ? 1 : 0);
    assert_int_equal(tex_warp_vec_free_count() - free0, lfree ? 1 : 0);
}

static void one_step(fp *F, float k, unsigned smp, bool mag)
{
    one_step_ways(F, k, smp, mag, false);
}

/* The bound itself: major length exactly 1 (magnified, λ = 0) and one ulp above (not
 * proven: the full computation, which minifies a hair); a positive sampler bias turns the
 * shortcut off. */
static void test_bounds(void **state)
{
    (void)state;
    fp F;
    setup(&F);
    /* biases 0, +1, -1.625, mip POINT */
    const unsigned s_none = S_BOUND, s_pos = S_BOUND + 1, s_neg = S_BOUND + 2;
    for (unsigned isa = 0; isa < 3; isa++) {
        tex_set_vector_isa_cap(F.unit, isa);
        one_step(&F, 1.0f, s_none, true);
        one_step(&F, nextafterf(1.0f, 0.0f), s_none, true);
        one_step(&F, nextafterf(1.0f, 2.0f), s_none, false);
        one_step(&F, 0.5f, s_pos, false);
        one_step(&F, nextafterf(1.0f, 2.0f), s_neg, false);
        one_step(&F, 0.0f, s_none, true); /* log2(0) = -inf */
    }
    fp_teardown(&F);
}

/* Mip NONE with one filter either way: no level of detail, magnified or minified (steps
 * of 0 to 8 texels a pixel; samplers 0-2 LINEAR with biases 0, +1, -1.625, 18 and 19
 * POINT); with the filters differing (9: magnification POINT and minification LINEAR, 10:
 * the other way) λ is computed, and decides. */
static void test_no_lod(void **state)
{
    (void)state;
    fp F;
    setup(&F);
    static const float steps[] = {0.5f, 1.0f, 1.5f, 4.0f, 8.0f, 0.0f};
    static const unsigned same[] = {0, 1, 2, 18, 19}, differ[] = {9, 10};
    for (unsigned isa = 0; isa < 3; isa++) {
        tex_set_vector_isa_cap(F.unit, isa);
        for (unsigned k = 0; k < sizeof steps / sizeof steps[0]; k++) {
            for (unsigned i = 0; i < sizeof same / sizeof same[0]; i++)
                one_step_ways(&F, steps[k], same[i], false, true);
            for (unsigned i = 0; i < sizeof differ / sizeof differ[0]; i++)
                /* (9 has the magnification shortcut's conditions, 10 a LOD clamp of
                   1/2 that turns it off) */
                one_step_ways(&F, steps[k], differ[i], differ[i] == 9 && steps[k] <= 1.0f,
                              false);
        }
    }
    fp_teardown(&F);
}

/* The library's log2f as the shortcut needs it (run time, not folded by the compiler):
 * log2f(1) = 0, log2f(0) = -inf; < 0 below 1 — every float in the 2^16 below the bound,
 * and a sampling of the rest of (0, 1). */
static void test_log2f_bounds(void **state)
{
    (void)state;
    volatile float one = 1.0f, zero = 0.0f;
    assert_true(log2f(one) == 0.0f);
    assert_true(isinf(log2f(zero)) && log2f(zero) < 0.0f);
    float x = one;
    for (unsigned i = 0; i < 65536; i++) {
        x = nextafterf(x, 0.0f);
        volatile float vx = x;
        assert_true(log2f(vx) < 0.0f);
    }
    for (uint32_t b = 1; b < 0x3f800000u; b += 4093) {
        float f;
        memcpy(&f, &b, 4);
        volatile float v = f;
        assert_true(log2f(v) < 0.0f);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_log2f_bounds),
        cmocka_unit_test(test_bounds),
        cmocka_unit_test(test_no_lod),
        FP_VARIANT_UNIT_TESTS,
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
