/* A float32's bits and back, for the tests of every module (header-only). */
#ifndef TEXVM_TESTS_COMMON_COMMON_BITS_H
#define TEXVM_TESTS_COMMON_COMMON_BITS_H

#include <stdint.h>
#include <string.h>

static inline uint32_t tc_fbits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static inline float tc_bitsf(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

#endif
