/* Vectorisable SIN and COS for the float handlers (docs/vm-semantics.md §1 "Arithmetic",
 * accuracy).
 *
 * vm_sincos_lane() is branch-free straight-line float code, so a loop over the 32 lanes
 * of a warp vectorises (SSE2: 4 lanes per instruction). Method (as SLEEF's sinf_u35):
 * sin: q = nearest integer to x/π, cos: q = nearest integer to x/π − ½ and j = q + ½
 * (round-to-nearest by adding and subtracting 1.5·2^23); r = x − j·π with π split in
 * three parts (A has 8 significant bits, B 11, so j·A and j·B are exact for |j| < 2^12),
 * r in [−π/2, π/2]; one odd polynomial of degree 9 gives sin(r), and
 * sin(x) = (−1)^q sin(r), cos(x) = (−1)^(q+1) sin(r). The reduction is accurate for
 * |x| ≤ 8192; beyond that, and for Inf/NaN, the caller's fix-up loop uses libm, so those
 * results are libm's.
 *
 * Accuracy, measured against double-precision sin/cos over every 37th float in
 * [−8192, 8192] (tests/vm/test_fastmath.c checks the bounds on a sparser sample):
 * absolute error ≤ 1.16e−7 (< 2^−23), and ≤ 1.94 ulp for |x| ≤ π and wherever
 * |result| ≥ 2^−8 (the wider relative error near the zeros of sin/cos far from 0 is
 * inherent to reducing a float argument with float arithmetic). GL requires an absolute
 * error of 2^−11 on [−π, π]; llvmpipe uses its own polynomial too. The result is a pure
 * function of x: the same on every thread count and schedule. */
#ifndef TEXVM_VM_FASTMATH_H
#define TEXVM_VM_FASTMATH_H

#include <stdint.h>
#include <string.h>

#include "util/half.h"

#define VM_TRIG_LIMIT 8192.0f

/* sin(x) (cosine = 0) or cos(x) (cosine = 1) for |x| ≤ VM_TRIG_LIMIT; sin(0) or cos(0)
 * for lanes beyond it (the caller replaces those). */
static inline float vm_sincos_lane(float x, uint32_t cosine)
{
    const float magic = 12582912.0f; /* 1.5 * 2^23 */
    uint32_t in = 0u - (uint32_t)(tv_bits_f32(tv_f32_bits(x) & 0x7fffffffu) <= VM_TRIG_LIMIT);
    float xc = tv_bits_f32(tv_f32_bits(x) & in);
    float half = cosine ? 0.5f : 0.0f;
    float q = (xc * 0.318309873f - half + magic) - magic;
    float j = q + half;
    uint32_t odd = (uint32_t)(int32_t)q + cosine;   /* sign flips where odd is odd */
    float r = ((xc - j * 3.140625f) - j * 9.675025939941406e-4f) - j * 1.509958025e-7f;
    float s = r * r;
    float u = 2.6083159809786593541503e-06f;
    u = u * s + -1.981069071916863322258e-4f;
    u = u * s + 8.33307858556509017944336e-3f;
    u = u * s + -1.66666597127914428710938e-1f;
    float v = s * (u * r) + r;
    /* sin(r) has the sign of r (this keeps sin(−0) = −0, which the sum above loses) */
    uint32_t bits = (tv_f32_bits(v) & 0x7fffffffu) | (tv_f32_bits(r) & 0x80000000u);
    return tv_bits_f32(bits ^ (odd << 31));
}

#endif
