/* The merger's lanes of a warp as bits (src/pipe/pipe_om_lanes.c): the AVX2 and AVX-512
 * forms of the bounds test against the C form and against the rule written per lane, on
 * random warps whose lanes reach past every edge of the target (negative, at 0, at W - 1,
 * at W, far past, INT32_MIN and INT32_MAX), with coverage words of every low bit, on
 * targets of widths and heights 0, 1, odd and even; and every form of the coverage-only
 * test against the rule (each vector form where the machine has it). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "util/cpu_isa.h"
#include "pipe/pipe_om_lanes.h"

#include <stdint.h>
#include "common_rng.h"

static int32_t coord(uint32_t *s, int32_t size)
{
    const int32_t edge[] = {-1, 0, 1, size - 1, size, size + 1, INT32_MIN, INT32_MAX,
                            -65536, 70000};
    uint32_t r = tc_rng_next(s);
    return r % 3 == 0 ? edge[(r >> 4) % 10] : (int32_t)((r >> 4) % (uint32_t)(size + 4)) - 2;
}

static void test_in_target_forms_agree(void **state)
{
    (void)state;
    const bool avx512 = tv_cpu_avx512f(), avx2 = tv_cpu_avx2();
    uint32_t s = 0x6d2b79f5u;
    unsigned in = 0, out = 0;
    for (int round = 0; round < 20000; round++) {
        const int32_t sizes[] = {0, 1, 7, 8, 41, 64, 1023};
        const int32_t W = sizes[tc_rng_next(&s) % 7], H = sizes[tc_rng_next(&s) % 7];
        int32_t x[32], y[32];
        uint32_t cov[32];
        uint32_t want = 0;
        for (unsigned l = 0; l < 32; l++) {
            x[l] = coord(&s, W);
            y[l] = coord(&s, H);
            cov[l] = tc_rng_next(&s) % 4 == 0 ? 0u : tc_rng_next(&s);
            if (x[l] >= 0 && x[l] < W && y[l] >= 0 && y[l] < H && (cov[l] & 1u))
                want |= 1u << l;
        }
        in += (unsigned)__builtin_popcount(want);
        out += 32u - (unsigned)__builtin_popcount(want);
        assert_int_equal(om_lanes_in_target(x, y, cov, W, H, OM_ISA_C), want);
        if (avx2)
            assert_int_equal(om_lanes_in_target(x, y, cov, W, H, OM_ISA_AVX2), want);
        if (avx512)
            assert_int_equal(om_lanes_in_target(x, y, cov, W, H, OM_ISA_AVX512), want);
    }
    assert_true(in > 10000 && out > 10000);
}

static void test_covered(void **state)
{
    (void)state;
    uint32_t s = 0x1234567u;
    for (int round = 0; round < 1000; round++) {
        uint32_t cov[32], want = 0;
        for (unsigned l = 0; l < 32; l++) {
            cov[l] = tc_rng_next(&s) >> (tc_rng_next(&s) % 32);
            want |= (cov[l] & 1u) << l;
        }
        assert_int_equal(om_lanes_covered(cov, OM_ISA_C), want);
        if (tv_cpu_avx2())
            assert_int_equal(om_lanes_covered(cov, OM_ISA_AVX2), want);
        if (tv_cpu_avx512f())
            assert_int_equal(om_lanes_covered(cov, OM_ISA_AVX512), want);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_in_target_forms_agree),
        cmocka_unit_test(test_covered),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
