/* Private interface of the hardware precision's fast paths (src/tex/fast/): the axis rule
 * both use — the per-lane footprint (tex_fast_hw.c, entered through fast/tex_fast.h) and
 * the whole-request path (tex_warp_hw.c, entered through tex_fast_sample). */
#ifndef TEXVM_TEX_FAST_HW_H
#define TEXVM_TEX_FAST_HW_H

#include <math.h>

#include "tex/fast/tex_fast.h"

/* hw_axis (tex_hw_filter.c) for the modes tex_wrap_is_common takes: wrapped indices and
 * the weight of i1 in 1/256. For |u| < 2^14 the float steps are exact integer steps, done
 * here without libm's floorf (a call at the baseline ISA): y = 256·u is exact and so is
 * y + ½ (|y| < 2^22: its ulp is at most ¼), so tex_hw_coord's round-half-up is
 * R = ⌊y + ½⌋ and the rounded coordinate R/256; tex_select_linear's x = R/256 − ½ =
 * (R − 128)/256 is exact, its floor is ⌊(R − 128)/256⌋ and its fraction
 * a = ((R − 128) mod 256)/256. Other values (large, infinite, NaN) take the shared
 * functions themselves. */
static inline void tex_hw_axis_common(unsigned mode, float u, uint32_t size, int32_t *i0,
                                      int32_t *i1, uint32_t *a)
{
    u = tex_hw_edge_clamp(mode, u, size);
    if (!(fabsf(u) < 16384.0f)) {
        float al;
        tex_wrap_linear_common(mode, u, size, true, i0, i1, &al);
        *a = (uint32_t)(al * 256.0f); /* a multiple of 1/256 in [0, 1) */
        return;
    }
    float t = u * 256.0f + 0.5f;   /* exact */
    int32_t r = (int32_t)t;        /* toward zero, then down to the floor */
    r -= (float)r > t;
    int32_t x = r - 128;
    /* ⌊x/256⌋ without shifting a negative number: x + 2^24 > 0 */
    int64_t fl = (int64_t)((uint32_t)(x + (1 << 24)) >> 8) - (1 << 16);
    int64_t n = size ? size : 1;
    *i0 = (int32_t)tex_wrap_int_common(mode, fl, n);
    *i1 = (int32_t)tex_wrap_int_common(mode, fl + 1, n);
    *a = (uint32_t)x & 255u; /* x mod 256 */
}

/* The whole-request path (tex_warp_hw.c): a SAMPLE / SAMPLE_BIAS / SAMPLE_LOD / SAMPLE_LZ
 * request of the common 2D shape in the hardware precision whose every lane
 * tex_fast_hw_takes would hand to tex_fast_hw_levels. Returns false, having written
 * nothing, when it declines; true when `res` is complete. Bit-identical to tv_tex_execute's
 * per-lane path. */
bool tex_warp_hw_sample(tv_tex_unit *unit, const tv_tex_request *req, tv_tex_result *res);
/* Tests: how many requests, and active lanes in them, the calling thread's
 * tex_warp_hw_sample took. */
void tex_warp_hw_counts(uint64_t *requests, uint64_t *lanes);

#endif
