/* util/bits: tv_popcount32 and tv_quads_of against per-bit and per-quad loops written here,
 * over every 16-bit half pattern in both halves and a pseudo-random sweep. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "util/bits.h"
#include "common_rng.h"

static uint32_t count_loop(uint32_t m)
{
    uint32_t n = 0;
    for (unsigned b = 0; b < 32; b++)
        n += (m >> b) & 1u;
    return n;
}

/* every quad (lanes 4q .. 4q + 3) with a lane in M, all four of its lanes */
static uint32_t quads_loop(uint32_t m)
{
    uint32_t r = 0;
    for (unsigned q = 0; q < 32; q += 4)
        if ((m >> q) & 0xfu)
            r |= 0xfu << q;
    return r;
}

static void check(uint32_t m)
{
    assert_int_equal(tv_popcount32(m), count_loop(m));
    assert_int_equal(tv_quads_of(m), quads_loop(m));
}

static void bits_halves_exhaustive(void **state)
{
    (void)state;
    for (uint32_t h = 0; h < 65536; h++) {
        check(h);
        check(h << 16);
        check(h | h << 16);
        check(~h);
    }
}

static void bits_random(void **state)
{
    (void)state;
    uint32_t x = 0x9e3779b9u;
    for (unsigned i = 0; i < 1000000; i++) {
        tc_rng_next(&x);
        check(x);
        check(x & (x >> 3));   /* sparser masks: some quads empty */
    }
    /* the named cases: none, all, one lane per quad, the top lane alone */
    assert_int_equal(tv_quads_of(0), 0);
    assert_int_equal(tv_quads_of(UINT32_MAX), UINT32_MAX);
    assert_int_equal(tv_quads_of(0x11111111u), UINT32_MAX);
    assert_int_equal(tv_quads_of(0x88888888u), UINT32_MAX);
    assert_int_equal(tv_quads_of(0x80000000u), 0xf0000000u);
    assert_int_equal(tv_popcount32(UINT32_MAX), 32);
    assert_int_equal(tv_popcount32(0), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bits_halves_exhaustive),
        cmocka_unit_test(bits_random),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
