/* The texture unit's scalar formulas, one definition each: the general path (tex_lod.c,
 * tex_wrap.c, tex_layout.c) and every fast path (src/tex/fast/) compute through these, so a
 * formula cannot drift between them. The vectorised kernel (fast/tex_warp_vec*.h) keeps
 * lane-parallel re-expressions of a few of them (int32 floor/ceil for |x| < 2^23, the GOB
 * terms on 32-bit lanes through TEX_GOB_X/TEX_GOB_Y); each is argued equal where it is
 * written, and tests/tex/test_fastpath_warp_full.c compares every result word. */
#ifndef TEXVM_TEX_FORMULAS_H
#define TEXVM_TEX_FORMULAS_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "texvm/tex.h"

/* ---- level selection ------------------------------------------------------------------ */
/* The nearest mip level to a (biased, clamped) LOD: 0.5 rounds down (GL/Vulkan's
 * preferred rule), sampling.md §5. */
static inline float tex_nearest_level(float x)
{
    return ceilf(x + 0.5f) - 1.0f;
}

/* clamp(x, lo, hi) as the LOD rules use it: lo wins when lo > hi; a NaN x gives hi. */
static inline float tex_clampf(float x, float lo, float hi)
{
    return fmaxf(lo, fminf(hi, x));
}

/* ---- integer-domain wraps (sampling.md §3) ----------------------------------------------- */
/* a mod n in [0, n); a power-of-two n as a mask (the same value in two's complement) */
static inline int64_t tex_imod(int64_t a, int64_t n)
{
    if ((n & (n - 1)) == 0)
        return a & (n - 1);
    int64_t r = a % n;
    return r < 0 ? r + n : r;
}

/* the mirror image of a negative index: -1 -> 0, -2 -> 1, ... */
static inline int64_t tex_mirror_index(int64_t i)
{
    return i >= 0 ? i : -(1 + i);
}

static inline int64_t tex_clamp_i64(int64_t v, int64_t lo, int64_t hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* The three wraps every fast path takes (TV_WRAP_REPEAT, TV_WRAP_MIRROR, anything else
 * read as TV_WRAP_CLAMP_TO_EDGE — callers pass only these three): index i of an axis of
 * n >= 1 texels. tex_wrap_int (tex_wrap.c) answers the same for them. */
static inline int64_t tex_wrap_repeat(int64_t i, int64_t n)
{
    return tex_imod(i, n);
}

static inline int64_t tex_wrap_mirror(int64_t i, int64_t n)
{
    return (n - 1) - tex_mirror_index(tex_imod(i, 2 * n) - n);
}

static inline int64_t tex_wrap_clamp_edge(int64_t i, int64_t n)
{
    return tex_clamp_i64(i, 0, n - 1);
}

/* The three in one (tex_wrap_int's answer for them), for the fast paths' inner loops. */
static inline bool tex_wrap_is_common(unsigned mode)
{
    return mode == TV_WRAP_REPEAT || mode == TV_WRAP_MIRROR || mode == TV_WRAP_CLAMP_TO_EDGE;
}

static inline int64_t tex_wrap_int_common(unsigned mode, int64_t i, int64_t n)
{
    return mode == TV_WRAP_REPEAT   ? tex_wrap_repeat(i, n)
           : mode == TV_WRAP_MIRROR ? tex_wrap_mirror(i, n)
                                    : tex_wrap_clamp_edge(i, n);
}

/* ---- block-linear addressing (Tegra X1 TRM's GOB: 64 bytes x 8 rows = 512 bytes) -------- */
/* Inside a GOB: the byte column xb's and the row y's parts of the offset (they only add).
 * Macros over any unsigned type, so that the vector kernel's 32-bit lanes use the same
 * expression as the 64-bit scalar code. */
#define TEX_GOB_X(xb) ((((xb) % 64u) / 32u) * 256u + (((xb) % 32u) / 16u) * 32u + (xb) % 16u)
#define TEX_GOB_Y(y) ((((y) % 8u) / 2u) * 64u + ((y) % 2u) * 16u)

/* A level's byte column xb: its block column (a block is 2^shift bytes) + the GOB part;
 * a level's row y (blocks 2^bh GOBs high, gobs_x GOBs per row of blocks): its block row +
 * its GOB row inside the block + the GOB part. Macros for the same reason as above. */
#define TEX_BL_COL(xb, shift) ((((xb) >> 6) << (shift)) + TEX_GOB_X(xb))
#define TEX_BL_ROW(y, bh, gobs_x, shift)                                                   \
    (((((y) >> (3 + (bh))) * (gobs_x)) << (shift)) + ((((y) >> 3) & ((1u << (bh)) - 1)) << 9) + \
     TEX_GOB_Y(y))

static inline uint64_t tex_bl_col(uint64_t xb, unsigned shift)
{
    return TEX_BL_COL(xb, shift);
}

static inline uint64_t tex_bl_row(uint64_t y, unsigned bh, uint64_t gobs_x, unsigned shift)
{
    return TEX_BL_ROW(y, bh, gobs_x, shift);
}

#endif
