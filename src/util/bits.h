/* Lane-mask bit operations without a library call: the build targets baseline x86-64 (no
 * POPCNT), where __builtin_popcount is a call into libgcc (measured in the output merger's
 * lane masks). */
#ifndef TEXVM_UTIL_BITS_H
#define TEXVM_UTIL_BITS_H

#include <stdint.h>

/* The set bits of M; a full mask (every lane of a warp, the common case) at once. */
static inline uint32_t tv_popcount32(uint32_t m)
{
    if (m == UINT32_MAX)
        return 32;
    m = m - ((m >> 1) & 0x55555555u);
    m = (m & 0x33333333u) + ((m >> 2) & 0x33333333u);
    m = (m + (m >> 4)) & 0x0f0f0f0fu;
    return (m * 0x01010101u) >> 24;
}

/* The lanes of every quad (four lanes 4q to 4q + 3) with a lane in M: each quad's bits
 * ORed into its lowest bit, then spread over its four (no carries: one bit per nibble). The
 * fragment stage's per-quad loop took 23 instructions a warp for this. */
static inline uint32_t tv_quads_of(uint32_t m)
{
    m |= m >> 1;
    m |= m >> 2;
    return (m & 0x11111111u) * 0xfu;
}

#endif
