/* The hardware precision's LINEAR levels of one lane (or one anisotropic probe) for
 * unorm8x4 views (four 8-bit UNORM components in a 4-byte texel: R8G8B8A8, B8G8R8A8, ...):
 * tex_hw_sample_levels (tex_hw_filter.c) for the contexts tex_fast_hw_takes
 * (fast/tex_fast.h) lets through — a 2-axis footprint (2D, 2D array, a cube face without
 * seamless filtering) with REPEAT / MIRROR / CLAMP_TO_EDGE wraps, one level or the two of
 * MIP_LINEAR, no sRGB decode, compare or min/max reduction.
 *
 * Why it is faster: the general path gathers each tap as decoded floats (tex_texel →
 * tex_load_texel), turns each float back into its 16-bit value (tex_hw_unorm16) and keeps
 * a double per component per tap for the modes other views need. For these views every
 * component's sum is the 16-bit one, so this path reads the bytes straight from host
 * memory and keeps the sum k = Σ w·v16 in integers: a texel byte t is v16 = 257·t, which
 * is what tex_hw_unorm16 gives for the loader's t/255 (tex_hw.c: "a texel's own t/255
 * gives t back").
 *
 * Bit-identity with tex_hw_sample_levels: the texel-space coordinates come from the same
 * function (tex_level_coords); each axis is hw_axis's (the CLAMP_TO_EDGE clamp to
 * [½, size − ½], then tex_wrap_linear's selection with the coordinate rounded to 1/256
 * ties up: tex_hw_axis_common, fast/tex_fast_hw.h: exact integer steps where they are exact, the shared
 * functions elsewhere); the weights are tex_hw_weights_2d's for the same shares m (256,
 * or 256 − F and F); taps of weight 0 are not read; k is rounded once by
 * tex_hw_unorm16_sum.
 * k is an integer sum, so the order of the taps cannot change it; the raw bits (out->u)
 * are the first read tap's, as hw_sum's. A texel outside the current host mapping goes
 * through the general loader and tex_hw_unorm16, as there.
 * A level's footprint and its sum are two functions, tex_hw_footprint_at and
 * tex_hw_footprint_sum, which the whole-request path (tex_warp_hw.c) calls too.
 * tests/tex/test_fastpath_hw.c compares both paths on random requests. */
#include <math.h>
#include <string.h>

#include "tex/format.h"
#include "tex/fast/tex_fast.h"
#include "tex/fast/tex_fast_addr.h"
#include "tex/fast/tex_fast_hw.h"
#include "util/half.h"

/* One level's footprint of a lane at ST with share M, added to K (FIRST and *ANY as
 * tex_hw_footprint_sum's). */
static void level_sum(const tex_ctx *c, uint32_t level, const float st[3], unsigned face,
                      uint32_t m, uint32_t k[4], uint32_t first[4], bool *any)
{
    uint32_t size[3];
    float u[3];
    tex_level_coords(c, level, st, size, u);
    const tex_view *v = c->v;
    const uint32_t layer = c->layer + face; /* non-seamless cube faces as in tex_texel() */
    const bool host = v->host && v->host_generation == tex_memory_generation(c->unit->mem);
    tex_hw_footprint F;
    tex_hw_footprint_at(c, level, u, size, layer, m, host, &F);
    tex_hw_footprint_sum(c, level, layer, &F, k, first, any);
}

static _Thread_local uint64_t served;

uint64_t tex_fast_hw_count(void)
{
    uint64_t requests, lanes;
    tex_warp_hw_counts(&requests, &lanes);
    return served + lanes;
}

void tex_fast_hw_levels(const tex_ctx *c, const tex_lod_out *lod, const float st[3],
                        unsigned face, tex_val *out)
{
    served++;
    uint32_t k[4] = {0, 0, 0, 0}, first[4] = {0, 0, 0, 0};
    bool any = false;
    if (lod->nlevels < 2) {
        level_sum(c, lod->level[0], st, face, 256, k, first, &any);
    } else {
        level_sum(c, lod->level[0], st, face, 256 - lod->hw_f256, k, first, &any);
        level_sum(c, lod->level[1], st, face, lod->hw_f256, k, first, &any);
    }
    for (unsigned n = 0; n < 4; n++) {
        out->u[n] = first[n];
        out->f[n] = tex_hw_unorm16_sum(k[n]);
    }
}
