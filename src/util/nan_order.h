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

/* R, or A quieted where A is a NaN */
static TV_ALWAYS_INLINE float tv_nan_a(float a, float r)
{
    uint32_t u;
    memcpy(&u, &a, 4);
    u |= 0x00400000u;
    float q;
    memcpy(&q, &u, 4);
    return a != a ? q : r;
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
