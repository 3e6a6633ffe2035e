/* The vectorised warp kernel's copy for the request that needs no level of detail
 * (src/tex/fast/tex_warp_vec.c, vec_free_shape: values only, mip NONE with the linear
 * filter both ways, every component filtered, a pitch view, no projection, offsets,
 * layers or LOD operand — the pipeline's draws of a texture without mipmaps, whose packed
 * pixels ask with TV_TEXF_NO_DERIV). Requests of that shape (with derivatives or without,
 * with a LOD clamp and bias the level of detail does not need) and requests that differ
 * from it in one property each (the extras wanted, mip LINEAR, a point filter one way or
 * both, a swizzle with a constant component, a block-linear view, a 2D array, offsets,
 * projection, SAMPLE_LOD, SAMPLE_LZ, SAMPLE_BIAS) run on minified and magnified affine
 * maps, full and partial warps. Every result word must equal the general path's
 * (fp_check_warp), and the copy must answer exactly the requests of the shape that the
 * kernel takes, on each wide variant the CPU has (tex_warp_vec_free_copy_count); the
 * baseline has no such copy. */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "texvm/tex.h"
#include "fastpath_copy_fixture.h"
#include "tex/tex_sampling.h"

#define NSMP 5

/* samplers: 0 the shape's (mip NONE, linear both ways); 1 magnification POINT; 2 point
 * both ways (no level of detail needed either, but not the linear filter); 3 mip LINEAR;
 * 4 the shape's with a bias and a LOD range */
static void setup(fp *F)
{
    fpc_setup(F, 0x85ebca6bu, NSMP);
    for (unsigned s = 0; s < NSMP; s++)
        fpc_sampler(F, s, s == 1 || s == 2 ? TV_MAG_POINT : TV_MAG_LINEAR,
                    s == 2 ? TV_MIN_POINT : TV_MIN_LINEAR,
                    s == 3 ? TV_MIP_LINEAR : TV_MIP_NONE, s == 4);
}

#define VO TV_TEXF_VALUES_ONLY
#define SAMPLE TV_TEX_OP_SAMPLE
/* the shape (with derivatives, without, and with sampler 4), and one property changed in
 * each other */
static const fpc_kind kinds[] = {
    {true, 0, false, 0, SAMPLE, VO, 0},                               /* the shape */
    {true, 0, false, 0, SAMPLE, VO | TV_TEXF_NO_DERIV, 0},            /* as the draws ask */
    {true, 0, false, 4, SAMPLE, VO, 0},                               /* biased, clamped */
    {false, 0, false, 0, SAMPLE, 0, 0},                               /* the extras */
    {false, 0, false, 3, SAMPLE, VO, 0},                              /* mip LINEAR */
    {false, 0, false, 1, SAMPLE, VO, 0},                              /* mag POINT */
    {false, 0, false, 2, SAMPLE, VO, 0},                              /* point both ways */
    {false, 0, true, 0, SAMPLE, VO, 0},                               /* a constant */
    {false, 2, false, 0, SAMPLE, VO, 0},                              /* block-linear */
    {false, 3, false, 0, SAMPLE, VO, 0},                              /* an array */
    {false, 0, false, 0, SAMPLE, VO | TV_TEXF_OFFSETS, 0},            /* offsets */
    {false, 0, false, 0, SAMPLE, VO | TV_TEXF_PROJECTIVE, 0},         /* projection */
    {false, 0, false, 0, TV_TEX_OP_SAMPLE_LOD, VO, 2.0f},             /* a LOD operand */
    {false, 0, false, 0, TV_TEX_OP_SAMPLE_LZ, VO, 0},                 /* LOD zero */
    {false, 0, false, 0, TV_TEX_OP_SAMPLE_BIAS, VO, 2.0f},            /* a bias operand */
};

static void run(unsigned isa)
{
    fp F;
    setup(&F);
    fpc_run(&F, isa, kinds, sizeof kinds / sizeof kinds[0], tex_warp_vec_free_copy_count,
            "no-LOD");
    fp_teardown(&F);
}

FP_VARIANT_MAIN(run)
