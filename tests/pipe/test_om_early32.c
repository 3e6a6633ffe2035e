/* The early depth test of a warp's lanes (src/pipe/pipe_om_early32.c): both kernels —
 * lane by lane and AVX-512 — against om_depth_test32 applied pixel by pixel, the per-pixel
 * test the output merger's other paths use (tests/pipe/test_om_zs.c checks it against
 * om_depth_stencil). Every compare function, depth writes on and off, every 4-byte depth
 * layout (float, 24-bit UNORM below and above the stencil byte), stored words and fragment
 * depths drawn from NaNs, infinities, signed zeros, denormals and equal pairs, with and
 * without denormals flushed; lanes scattered over a target whose stride is not a multiple
 * of the row, inside and coverage masks at random, guard bytes around the target. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "util/cpu_isa.h"
#include "pipe/pipe_om.h"
#include "util/fpmode.h"

#include <stdint.h>
#include <string.h>
#include "common_rng.h"

enum { W = 37, H = 11, STRIDE = W * 4 + 12, GUARD = 64 };

static const uint32_t specials[] = {
    0x7fc00000u, 0xffc00000u, 0x7f800001u, 0x7f800000u, 0xff800000u, /* NaNs, infinities */
    0x00000000u, 0x80000000u, 0x00000001u, 0x807fffffu, 0x3f800000u, /* zeros, denormals, 1 */
    0x3f000000u, 0x00ffffffu, 0x00800000u, 0xffffffffu, 0x12345678u};

/* A word: special, small integer (UNORM fields) or random bits */
static uint32_t word(uint32_t *seed)
{
    uint32_t r = tc_rng_next(seed);
    switch (r % 4) {
    case 0: return specials[tc_rng_next(seed) % (sizeof specials / sizeof *specials)];
    case 1: return tc_rng_next(seed) % 8;
    default: return tc_rng_next(seed);
    }
}

/* One case: lanes at distinct random texels, run through KERNEL (0: the reference, 1: the
 * dispatching one with its wide kernel allowed) and compared with the per-pixel test. */
static unsigned run_case(uint32_t *seed, const om_zs_target *t, uint8_t func, bool writemask,
                         int kernel)
{
    static uint8_t want[GUARD + STRIDE * H + GUARD], got[sizeof want];
    for (size_t i = 0; i < sizeof want; i++)
        want[i] = (uint8_t)tc_rng_next(seed);
    memcpy(got, want, sizeof got);
    uint8_t *base_want = want + GUARD, *base_got = got + GUARD;
    om_dsa s;
    memset(&s, 0, sizeof s);
    s.depth_enabled = true;
    s.depth_writemask = writemask;
    s.depth_func = func;
    int32_t x[32], y[32];
    uint32_t zq[32], cov[32], want_cov[32];
    bool taken[W * H];
    memset(taken, 0, sizeof taken);
    const uint32_t inside = tc_rng_next(seed) | (tc_rng_next(seed) & 1u ? 0u : 0xffff0000u);
    const uint32_t field = (uint32_t)(t->depth_mask >> t->depth_shift);
    for (unsigned l = 0; l < 32; l++) {
        unsigned p;
        do
            p = tc_rng_next(seed) % (W * H);
        while (taken[p]);
        taken[p] = true;
        x[l] = (int32_t)(p % W);
        y[l] = (int32_t)(p / W);
        uint32_t stored;
        memcpy(&stored, base_want + STRIDE * y[l] + 4 * x[l], 4);
        /* the fragment's depth: often the stored field itself (EQUAL and ties) */
        zq[l] = tc_rng_next(seed) % 3 == 0 ? (stored & (uint32_t)t->depth_mask) >> t->depth_shift
                                    : word(seed);
        if (!t->depth_float)
            zq[l] &= field;
        cov[l] = tc_rng_next(seed) % 4;   /* sample 0 in half the lanes */
    }
    /* the per-pixel test */
    uint32_t want_pass = 0;
    for (unsigned l = 0; l < 32; l++) {
        want_cov[l] = cov[l];
        if (!((inside >> l) & 1u))
            continue;
        if (!(cov[l] & 1u)) {
            want_cov[l] = 0;
            continue;
        }
        bool p = om_depth_test32(&s, t, zq[l], base_want + STRIDE * y[l] + 4 * x[l]);
        want_cov[l] = p;
        want_pass |= (uint32_t)p << l;
    }
    uint32_t pass = kernel == 0
                        ? om_early_depth32_lanes(&s, t, base_got, STRIDE, x, y, zq, inside, 1u,
                                                 cov)
                        : om_early_depth32(&s, t, base_got, STRIDE, H, x, y, zq, inside, 1u, cov,
                                           true);
    assert_int_equal(pass, want_pass);
    assert_memory_equal(cov, want_cov, sizeof cov);
    assert_memory_equal(got, want, sizeof got);   /* the target and its guards */
    return (unsigned)__builtin_popcount(want_pass);
}

static void run_all(int kernel)
{
    static const char *const names[] = {"Z32_FLOAT", "Z24X8_UNORM", "Z24_UNORM_S8_UINT",
                                        "S8_UINT_Z24_UNORM"};
    uint32_t seed = 0x2545f491u;
    unsigned passed = 0, cases = 0;
    for (int flush = 0; flush < 2; flush++) {
        unsigned saved = flush ? tv_fp_flush_begin() : 0;
        for (unsigned n = 0; n < sizeof names / sizeof *names; n++) {
            om_zs_target t;
            assert_true(om_zs_target_init(&t, tv_format_from_name(names[n])));
            assert_int_equal(t.bytes, 4);
            for (uint8_t func = OM_FUNC_NEVER; func <= OM_FUNC_ALWAYS; func++)
                for (int wm = 0; wm < 2; wm++)
                    for (unsigned k = 0; k < 40; k++, cases++)
                        passed += run_case(&seed, &t, func, wm, kernel);
        }
        if (flush)
            tv_fp_flush_end(saved);
    }
    /* the cases pass and fail lanes alike */
    assert_true(passed > cases * 2 && passed < cases * 14);
}

static void test_lanes_reference(void **state)
{
    (void)state;
    run_all(0);
}

static void test_wide_kernel(void **state)
{
    (void)state;
    if (!tv_cpu_avx512f())
        skip();   /* no AVX-512 here: om_early_depth32 is the reference itself */
    run_all(1);
}

/* A stride that is not a multiple of 4, and a target whose element indices pass 2^31: the
 * dispatching function keeps the reference's results (its own kernel does not apply). */
static void test_fallbacks(void **state)
{
    (void)state;
    om_zs_target t;
    assert_true(om_zs_target_init(&t, tv_format_from_name("Z32_FLOAT")));
    om_dsa s;
    memset(&s, 0, sizeof s);
    s.depth_enabled = s.depth_writemask = true;
    s.depth_func = OM_FUNC_LESS;
    uint8_t buf[2 * 4 * 8 + 2] = {0};
    float one = 1.0f, half = 0.5f;
    for (unsigned i = 0; i < 16; i++)
        memcpy(buf + 1 + 4 * i, &one, 4);   /* rows of 33 bytes from buf + 1 */
    int32_t x[32] = {0, 1, 2}, y[32] = {0, 0, 1};
    uint32_t zq[32], cov[32] = {1, 1, 1};
    memcpy(&zq[0], &half, 4);
    zq[1] = zq[2] = 0x3f800000u;   /* 1.0: not LESS than 1.0 */
    assert_int_equal(om_early_depth32(&s, &t, buf + 1, 33, 2, x, y, zq, 7u, 1u, cov, true), 1u);
    assert_int_equal(cov[0], 1);
    assert_int_equal(cov[1], 0);
    assert_int_equal(cov[2], 0);
    float stored;
    memcpy(&stored, buf + 1, 4);
    assert_true(stored == 0.5f);
    /* 2^29 rows of 16 bytes: indices to 2^31; only lane 0's texel, at the start, is read */
    cov[0] = 1;
    memcpy(buf + 1, &one, 4);
    assert_int_equal(om_early_depth32(&s, &t, buf + 1, 16, 1u << 29, x, y, zq, 1u, 1u, cov,
                                      true), 1u);
    memcpy(&stored, buf + 1, 4);
    assert_true(stored == 0.5f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lanes_reference),
        cmocka_unit_test(test_wide_kernel),
        cmocka_unit_test(test_fallbacks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
