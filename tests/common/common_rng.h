/* The tests' random cases: xorshift generators (32 and 64 bits) over a state the test
 * seeds itself, so every run draws the same cases (a failure names its case and
 * reproduces). The one spelling of them for every test. */
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

/* The same with 64-bit state *S (shifts 13, 7, 17). */
static inline uint64_t tc_rng_next64(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

#endif
