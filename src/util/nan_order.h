/* Float sums and products whose NaN is fixed by the written order of their operands:
 * tv_add_a(a, b) and tv_mul_a(a, b) are a + b and a * b, except that where a is a NaN the
 * result is a's NaN, quieted. With one NaN operand every operand order gives that NaN,
 * quieted, so the rule decides only where both are NaNs — where x86 returns its first
 * source's, and which C operand becomes the first source of a commutative operation is the
 * compiler's choice, made anew in every copy of a formula (a lane loop compiled for wide
 * vectors and its per-lane reference, or one build and another). Two copies of a formula
 * written with these return the same bits in every build. */
#ifndef TEXVM_UTIL_NAN_ORDER_H
#define TEXVM_UTIL_NAN_ORDER_H

#include <stdint.h>
#include <string.h>

#include "util/wide_vectors.h"

/* R, or A quieted where A is a NaN. Chosen on the bits, not with `?:`: GCC sinks the
 * float operation of R into the branch of a `?:` and its if-conversion then refuses it
 * (under the default -ftrapping-math an operation that may raise a flag is not made
 * unconditional), which left loops of these scalar on AVX2 — the blend scene's
 * om_blend_lanes a multiply, a compare and a branch per lane on Zen 3. */
static TV_ALWAYS_INLINE float tv_nan_a(float a, float r)
{
    uint32_t u, v;
    memcpy(&u, &a, 4);
    memcpy(&v, &r, 4);
    uint32_t m = 0u - (uint32_t)(a != a);
    u = ((u | 0x00400000u) & m) | (v & ~m);
    float q;
    memcpy(&q, &u, 4);
    return q;
}

static TV_ALWAYS_INLINE float tv_add_a(float a, float b)
{
    return tv_nan_a(a, a + b);
}

static TV_ALWAYS_INLINE float tv_mul_a(float a, float b)
{
    return tv_nan_a(a, a * b);
}

#endif
