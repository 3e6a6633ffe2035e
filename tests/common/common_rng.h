/* The tests' random cases: a xorshift32 generator over a state the test seeds itself, so
 * every run draws the same cases (a failure names its case and reproduces). */
#ifndef TEXVM_TESTS_COMMON_RNG_H
#define TEXVM_TESTS_COMMON_RNG_H

#include <stdint.h>

/* The next value of state *S (never 0 when seeded nonzero). */
static inline uint32_t tc_rng_next(uint32_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    return *s;
}

#endif
