/* The log2 lookups of the vectorised warp kernel (src/tex/fast/tex_warp_vec.c log2_lanes):
 * the compares against the few recent arguments, behind them (AVX-512) the register cache,
 * the table for the lanes neither answers, and the refill of the recent arguments.
 * Requests are warps of quads, each quad with its own step per pixel (texels), drawn from
 * a palette of 1 to 32 distinct steps, so a request's lanes carry that many distinct major
 * lengths (and ratios, for the requests without TV_TEXF_VALUES_ONLY); runs of identical
 * palettes make the recent arguments answer, new palettes and palettes of more than four
 * go past them; after two misses in a row the recent arguments are refilled only at every
 * 32nd, and from the 8th on the AVX-512 and AVX2 variants skip them but at the refills.
 * On the AVX-512 variant, palettes whose lengths have distinct cache slots go to
 * the table once and then to the cache; two lengths of one slot in a request, to the
 * table each time. Every result word (and the QUERY_LOD extras) is compared with the
 * general path, on every instruction-set variant of the kernel the CPU has; the counters
 * of table and cache lookups show each way was taken. */
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

static const fp_tex textures[1] = {
    {"R8G8B8A8_UNORM", 256, 128, TV_TIC_PITCH, TV_TEX_2D, 0, -1, 0},
};

/* sampler 0: trilinear, bias +1 (no magnification shortcut); 1: trilinear, no bias */
static void setup(fp *F)
{
    fp_setup(F, 0x6b43a9b5u, textures, 1, 7);
    for (unsigned s = 0; s < 2; s++) {
        tv_tsc ts;
        memset(&ts, 0, sizeof ts);
        ts.address_u = ts.address_v = ts.address_p = TV_WRAP_REPEAT;
        ts.mag_filter = TV_MAG_LINEAR;
        ts.min_filter = TV_MIN_LINEAR;
        ts.mip_filter = TV_MIP_LINEAR;
        ts.max_lod_clamp = 0xfff;
        ts.mip_lod_bias = s == 0 ? 0x100 : 0;
        fp_put_sampler(F, s, &ts);
    }
}

/* the skew of fill's quads: the right-hand column of a quad's lower row moves this much
 * further across (texture coordinates), so that its lanes' lengths differ (test_pairs) */
static float skew;

/* quad q of the request steps ks[q % nk] texels per pixel across, ks[q % nk] * ky down
 * (and skew, above) */
static void fill(tv_tex_request *r, const float *ks, unsigned nk, float ky, unsigned smp,
                 uint32_t flags, uint32_t active)
{
    memset(r, 0, sizeof *r);
    r->op = TV_TEX_OP_SAMPLE;
    r->target = TV_TEXTGT_2D;
    r->active = active;
    r->present = ~0u;
    r->flags = flags;
    for (unsigned l = 0; l < TV_TEX_LANES; l++) {
        unsigned q = l >> 2, x = l & 1, y = (l >> 1) & 1;
        float k = ks[q % nk];
        r->handle[l] = tv_tex_handle(0, smp);
        r->coord[0][l] = 0.125f * (float)q + (float)x * (k / 256.0f) + (float)(x & y) * skew;
        r->coord[1][l] = 0.0625f * (float)q + (float)y * (k * ky / 128.0f);
        r->q[l] = 1.0f;
    }
}

/* the lookups of the last run() that went to the table, and to the register cache */
static uint64_t last_table, last_cache;

/* n requests with the same palette (the first may go past the recent arguments, the
 * others not when the palette has at most 4 distinct steps); returns the lookups past the
 * recent arguments they made (to the register cache or the table) */
static uint64_t run(fp *F, const float *ks, unsigned nk, float ky, unsigned smp,
                    uint32_t flags, uint32_t active, unsigned n)
{
    static tv_tex_request r;
    unsigned taken = 0;
    uint64_t t0 = tex_warp_vec_log2_table_count(), c0 = tex_warp_vec_log2_cache_count();
    uint64_t v0 = tex_warp_vec_count();
    for (unsigned i = 0; i < n; i++) {
        fill(&r, ks, nk, ky, smp, flags, active);
        fp_check_warp(F, &r, &taken);
    }
    assert_int_equal(taken, n);
    assert_int_equal(tex_warp_vec_count() - v0, n); /* the kernel answered each */
    last_table = tex_warp_vec_log2_table_count() - t0;
    last_cache = tex_warp_vec_log2_cache_count() - c0;
    return last_table + last_cache;
}


/* the register cache slot of step k's lookup argument: the major length k, or with
 * TV_TEXF_VALUES_ONLY its square (the values-only path's log2f(sqrtf(x2)), exact here) */
static unsigned step_slot(float k, bool vo)
{
    return tex_warp_vec_log2_cache_slot(vo ? k * k : k);
}

/* whether the n steps' lookup arguments have distinct register cache slots */
static bool distinct_slots(const float *ks, unsigned n, bool vo)
{
    for (unsigned i = 0; i < n; i++)
        for (unsigned j = 0; j < i; j++)
            if (step_slot(ks[i], vo) == step_slot(ks[j], vo))
                return false;
    return true;
}

static void palettes(unsigned isa)
{
    fp F;
    setup(&F);
    tex_set_vector_isa_cap(F.unit, isa);
    /* (steps in [2, 4): every lane reads the same levels, as the kernel needs) */
    static const float k1[] = {2.5f}, k2[] = {2.5f, 3.0f}, k3[] = {2.25f, 2.5f, 3.0f},
                       k4[] = {2.25f, 2.75f, 3.25f, 3.5f}, k4b[] = {2.25f, 2.75f, 3.25f, 3.75f},
                       k5[] = {2.125f, 2.375f, 2.625f, 2.875f, 3.125f};
    float k8[8];
    for (unsigned i = 0; i < 8; i++)
        k8[i] = 2.0f + 0.25f * (float)i;
    const uint32_t vo = TV_TEXF_VALUES_ONLY;
    const bool cached = isa == 2 && fp_kernel_avx512(); /* the register cache is there */
    for (unsigned smp = 0; smp < 2; smp++)
        for (unsigned f = 0; f < 2; f++) {
            uint32_t flags = f ? vo : 0;
            /* from whatever the requests before left: the recent arguments take this
             * palette within 32 misses in a row (the refill policy, below) */
            /* (k2: two lengths, so per lane also without the flag, where one length in
             * every lane is the footprint computed once, without these lookups) */
            unsigned settle = 0;
            while (run(&F, k2, 2, 2.0f, smp, flags, ~0u, 1) != 0)
                assert_true(++settle <= 32);
            /* at most 4 distinct major lengths: after the first request, none to the
             * table (the ratios too, without the flag: ky = 1 and 2 give 1 and 1/2) */
            assert_int_equal(run(&F, k2, 2, 2.0f, smp, flags, ~0u, 3), 0);
            run(&F, k1, 1, 1.0f, smp, flags, ~0u, 1);
            assert_int_equal(run(&F, k1, 1, 1.0f, smp, flags, ~0u, 3), 0);
            run(&F, k3, 3, 1.0f, smp, flags, ~0u, 1);
            assert_int_equal(run(&F, k3, 3, 1.0f, smp, flags, ~0u, 3), 0);
            run(&F, k4, 4, 1.0f, smp, flags, ~0u, 1);
            assert_int_equal(run(&F, k4, 4, 1.0f, smp, flags, ~0u, 3), 0);
            /* one new length of four: the table for that one (and the refill; the
             * first miss in a row of the major lengths) */
            assert_int_equal(run(&F, k4b, 4, 1.0f, smp, flags, ~0u, 1), 1);
            /* more than 4: past the recent arguments each time, for the lanes they
             * miss (major lengths: misses 2 to 7 in a row, refilled at the 2nd; the
             * ratios, all 1, hit) — the table each time, or on AVX-512 (the cache
             * emptied, each palette's lengths in slots of their own) the table the
             * first time and the register cache after */
            assert_true(distinct_slots(k5, 5, f) && distinct_slots(k8, 8, f));
            tex_warp_vec_log2_cache_clear();
            assert_int_equal(run(&F, k5, 5, 1.0f, smp, flags, ~0u, 3), 3);
            assert_int_equal(last_table, cached ? 1 : 3);
            tex_warp_vec_log2_cache_clear();
            assert_int_equal(run(&F, k8, 8, 1.0f, smp, flags, ~0u, 3), 3);
            assert_int_equal(last_table, cached ? 1 : 3);
            /* the refill policy: after the first two misses in a row the recent
             * arguments are refilled only at every 32nd, so two lengths the recent ones
             * lack (k5's first four are there) take the table at misses 8 to 32 and are
             * refilled at the 32nd; then none */
            assert_int_equal(run(&F, k2, 2, 1.0f, smp, flags, ~0u, 25), 25);
            assert_int_equal(run(&F, k2, 2, 1.0f, smp, flags, ~0u, 3), 0);
            /* in a run of misses, from the 8th on, the AVX-512 and AVX2 variants do not
             * compare the recent arguments, except at a refill and the lookup after it:
             * k8's ten requests (misses 1 to 10) refilled them with its first four steps
             * at their first two, yet k8's 2nd and 3rd steps alone (among them) go past
             * them at misses 11 to 31, 21 requests; the 22nd, the lookup before a refill,
             * compares, they answer it and the run ends (the baseline compares every
             * time: they answer each) */
            const bool skips = isa == 2 ? fp_kernel_avx512() || fp_kernel_avx2()
                                        : isa == 1 && fp_kernel_avx2();
            assert_int_equal(run(&F, k8, 8, 1.0f, smp, flags, ~0u, 10), 10);
            assert_int_equal(run(&F, k8 + 1, 2, 1.0f, smp, flags, ~0u, 22), skips ? 21 : 0);
            assert_int_equal(run(&F, k8 + 1, 2, 1.0f, smp, flags, ~0u, 3), 0);
            /* partial warps: inactive lanes' arguments never reach the recent ones */
            run(&F, k8, 8, 1.0f, smp, flags, 0x0000f00fu, 1);
            assert_int_equal(run(&F, k8, 8, 1.0f, smp, flags, 0x0000f00fu, 2), 0);
            run(&F, k8, 8, 1.0f, smp, flags, 0x80000001u, 2);
        }
    fp_teardown(&F);
}

/* Four requests of the first four steps of ks and the two of last (the cache emptied
 * first): every lookup past the recent arguments, `table` of them to the table and the
 * rest to the register cache. */
static void cache_run(fp *F, float ks[6], const float last[2], unsigned smp, uint32_t flags,
                      uint64_t table)
{
    ks[4] = last[0];
    ks[5] = last[1];
    tex_warp_vec_log2_cache_clear();
    assert_int_equal(run(F, ks, 6, 1.0f, smp, flags, ~0u, 4), 4);
    assert_int_equal(last_table, table);
    assert_int_equal(last_cache, 4 - table);
}

/* The register cache (AVX-512) against the table: six lengths, the recent arguments
 * holding the first four, the last two in slots of their own — the table once, then the
 * cache — or in one slot, where each evicts the other: the table every time, and every
 * result still the general path's (fp_check_warp). */
static void test_cache_slots(void **state)
{
    (void)state;
    if (!fp_kernel_avx512())
        skip();
    fp F;
    setup(&F);
    tex_set_vector_isa_cap(F.unit, 2);
    for (unsigned f = 0; f < 2; f++) {
        const bool vo = f != 0;
        /* two steps of one slot, and two of slots of their own, none of the first four's */
        float ks[6] = {2.25f, 2.5f, 2.75f, 3.0f, 0.0f, 0.0f}, apart[2] = {0.0f, 0.0f};
        float same[2] = {0.0f, 0.0f};
        for (unsigned i = 1; i < 512 && (same[1] == 0.0f || apart[1] == 0.0f); i++) {
            float k = 3.0f + (float)i / 512.0f;
            unsigned c = step_slot(k, vo);
            bool clash = false;
            for (unsigned j = 0; j < 4; j++)
                clash |= c == step_slot(ks[j], vo);
            if (clash)
                continue;
            if (same[0] == 0.0f)
                same[0] = k;
            else if (same[1] == 0.0f && c == step_slot(same[0], vo))
                same[1] = k;
            if (apart[0] == 0.0f)
                apart[0] = k;
            else if (apart[1] == 0.0f && c != step_slot(apart[0], vo))
                apart[1] = k;
        }
        assert_true(same[1] != 0.0f && apart[1] != 0.0f);
        for (unsigned smp = 0; smp < 2; smp++) {
            uint32_t flags = vo ? TV_TEXF_VALUES_ONLY : 0;
            cache_run(&F, ks, apart, smp, flags, 1);
            cache_run(&F, ks, same, smp, flags, 4);
        }
    }
    fp_teardown(&F);
}

static void test_avx512(void **state)
{
    (void)state;
    palettes(2);
}

static void test_avx2(void **state)
{
    (void)state;
    palettes(1);
}

static void test_baseline(void **state)
{
    (void)state;
    palettes(0);
}

/* Arguments that meet the zeroed memo's keys: a step of exactly 1 texel per pixel gives
 * major length 1 (the key every fresh entry holds, with result +0 = log2f(1)) and ratio 1,
 * next to other lengths of the same level; and length 0 (log2 -inf). */
static void test_zeroed_keys(void **state)
{
    (void)state;
    fp F;
    setup(&F);
    static const float one[] = {1.0f}, mixed[] = {1.0f, 1.5f, 1.25f}, zero[] = {0.0f};
    for (unsigned isa = 0; isa < 3; isa++) {
        tex_set_vector_isa_cap(F.unit, isa);
        for (unsigned f = 0; f < 2; f++) {
            uint32_t flags = f ? TV_TEXF_VALUES_ONLY : 0;
            run(&F, one, 1, 1.0f, 0, flags, ~0u, 2);
            run(&F, mixed, 3, 1.0f, 0, flags, ~0u, 2);
            run(&F, zero, 1, 1.0f, 0, flags, ~0u, 2);
            run(&F, mixed, 3, 2.0f, 0, flags, ~0u, 2);
            run(&F, one, 1, 1.0f, 0, flags, ~0u, 1);
        }
    }
    fp_teardown(&F);
}

/* The AVX2 table lookups one gather element per pair of lanes (log2_table_pairs_avx2):
 * with the skew, a quad's row differences differ from row to row and its column
 * differences from column to column, so the squared major length of an x-major quad
 * pairs lanes l and l ^ 1 (its rows), of a y-major quad lanes l and l ^ 2 (its columns),
 * and with the major axis changing inside the quad (ky = 1: lane 1 y-major, 2 and 3
 * x-major, lane 0 at about a tie) neither, which takes the lane-by-lane lookup. Eight
 * steps a request (16 to 32 lengths), so every lookup goes to the table; every result is the
 * general path's (run's fp_check_warp), and with TV_TEXF_VALUES_ONLY a repeated request
 * finds every length in the table (no result computed): a pair's lanes look up the slot
 * of both. */
static void test_pairs(void **state)
{
    (void)state;
    if (!fp_kernel_avx2())
        skip();
    fp F;
    setup(&F);
    tex_set_vector_isa_cap(F.unit, 1);
    float k8[8];
    for (unsigned i = 0; i < 8; i++)
        k8[i] = 2.0f + 0.25f * (float)i;
    static const struct {
        float ky, skew;
        bool paired;
    } cases[] = {
        {1.0f, 0.0f, true},             /* a quad's four lengths alike: pairs */
        {0.5f, 1.0f / 2048.0f, true},   /* x-major: lanes l, l ^ 1 */
        {2.0f, 1.0f / 2048.0f, true},   /* y-major: lanes l, l ^ 2 */
        {1.0f, 1.0f / 2048.0f, false},  /* the major axis turns inside the quad */
    };
    for (unsigned c = 0; c < sizeof cases / sizeof cases[0]; c++)
        for (unsigned smp = 0; smp < 2; smp++)
            for (unsigned f = 0; f < 2; f++) {
                const uint32_t flags = f ? TV_TEXF_VALUES_ONLY : 0;
                skew = cases[c].skew;
                uint64_t p0 = tex_warp_vec_log2_pair_count();
                run(&F, k8, 8, cases[c].ky, smp, flags, ~0u, 2);
                uint64_t t = last_table, p = tex_warp_vec_log2_pair_count() - p0;
                assert_true(t >= 2);
                /* values only: one lookup a request, of the squared major lengths; else
                   the major lengths pair as they do, the ratios (minor / major) not where
                   the lanes' minor lengths differ too */
                if (f)
                    assert_int_equal(p, cases[c].paired ? t : 0);
                else
                    assert_true(cases[c].paired ? p >= 2 && p <= t : p == 0);
                /* again: values only, the squared lengths (16 at most) have slots of
                   their own, so the table holds each (the major lengths and ratios share
                   a table, where some of them evict others) */
                uint64_t c0 = tex_warp_vec_log2_computed_count();
                run(&F, k8, 8, cases[c].ky, smp, flags, ~0u, 2);
                if (f)
                    assert_int_equal(tex_warp_vec_log2_computed_count() - c0, 0);
            }
    skew = 0.0f;
    fp_teardown(&F);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_avx512),
        cmocka_unit_test(test_avx2),
        cmocka_unit_test(test_baseline),
        cmocka_unit_test(test_zeroed_keys),
        cmocka_unit_test(test_cache_slots),
        cmocka_unit_test(test_pairs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
