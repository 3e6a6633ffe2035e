/* The prefetch trail of the vectorised warp kernel's paired gathers (trail_prefetch; why
 * and what it measured: below). Included by tex_warp_vec_texel.h only: a header, not a
 * translation unit, for the reason given at the top of that file. */
#ifndef TEXVM_TEX_WARP_VEC_TRAIL_H
#define TEXVM_TEX_WARP_VEC_TRAIL_H

#include "tex/fast/tex_warp_vec_lanes.h"
#include "tex/fast/tex_warp_vec_level.h"

#if TEX_WIDE_VECTORS
/* Prefetches for the paired gathers (a map turned against the texture, where no lane pair
 * shares a 16-byte window): such a map's rows of warps cross the texture diagonally, each
 * pass over it reading its lines again from past L2 (the rotated map's levels 1 and 2 are
 * 1.25 MB) in an order the hardware prefetchers do not follow. The warps of a row step
 * alike over the texture (an affine map), so the lines the warp TRAIL passes of this level
 * ahead reads are this pass's moved by the step of the last TRAIL passes: for the tile's
 * two right-hand corner lanes (31 bottom, 13 top: the leading corner whichever way the map
 * turns), the rows of the pair and the two beyond it, down from the bottom one and up from
 * the top one. A prediction gone wrong (a new row of warps, another level, a seam) only
 * fetches lines not used: prefetches do not fault, and the addresses are computed as
 * integers. Not for the anisotropic probes' passes (vec_req.trail), whose steps are the
 * probes'. Inlined (forced: GCC kept it out of line, and the call took the rotated map
 * 2.7-3.4 % longer, history §53; when it was first added, inlined into every copy of
 * slot_pass it cost the anisotropic workload 1-1.5 %, now even). The rotated map: 26.75
 * → 24.51 ms (median of 16 A/B rounds), the same bytes; history §52 of
 * docs/history/performance-log.md. The AVX2 kernel has no windows to tell a turned map:
 * it calls this where the ends of the tile's first row (lanes 0 and 13) read different
 * texel rows, a test marked unlikely — on Zen 4 under the AVX2 ceiling (docs/performance.md
 * §1.3) the rotated map 6-15 % faster, trilinear and bilinear even (history §54).
 * TRAIL 2 (two passes of the level ahead; 4 until history §67): on Zen 5 the rotated map
 * 2.2-5.5 % faster under the AVX2 ceiling and about 1 % with AVX-512 than with 4, which
 * Zen 4 had measured against 3, 6, 8 and 12 (§52); 1, 3 and 8 were slower on Zen 5. */
#define TRAIL 2
typedef struct pass_trail {
    const char *lvl[2];      /* the two levels the last passes read (their first bytes) */
    uint32_t at[2][TRAIL];   /* lane 0's pair offset in each level's last TRAIL passes */
    uint32_t n[2];           /* passes of each level since it entered */
    uint32_t rr;             /* the slot the next new level replaces */
} pass_trail;
static _Thread_local pass_trail tls_trail TEX_TLS_IE;

VEC_INLINE void trail_prefetch(const char *host, const vec_level *V, const uint32_t *xo0,
                                    const uint32_t *yo0, const uint32_t *yo1)
{
    pass_trail *T = &tls_trail;
    const char *lvl = host + V->base; /* (a level of one view: another view's, too) */
    unsigned e = T->lvl[0] == lvl ? 0u : T->lvl[1] == lvl ? 1u : 2u;
    if (e == 2) {
        e = T->rr ^= 1u;
        T->lvl[e] = lvl;
        T->n[e] = 0;
    }
    uint32_t now = xo0[0] + yo0[0], k = T->n[e]++ % TRAIL;
    int64_t step = (int64_t)(int32_t)(now - T->at[e][k]);
    T->at[e][k] = now;
    const int64_t p = (int64_t)V->pitch;
    /* (a step within a row: the warps walk along the texel rows, which the hardware
       prefetchers follow) */
    if (T->n[e] <= TRAIL || (step > -p && step < p))
        return;
    const uintptr_t h = (uintptr_t)host;
    const int64_t lo = (int64_t)(int32_t)(xo0[31] + yo1[31]) + step;
    const int64_t hi = (int64_t)(int32_t)(xo0[13] + yo0[13]) + step;
    for (int64_t r = 0; r < 3; r++) {
        __builtin_prefetch((const void *)(h + (uintptr_t)(lo + r * p)));
        __builtin_prefetch((const void *)(h + (uintptr_t)(hi - r * p)));
    }
}
#endif

#endif /* TEXVM_TEX_WARP_VEC_TRAIL_H */
