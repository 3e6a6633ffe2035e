/* The vectorised warp kernel's copy for the common request (src/tex/fast/tex_warp_vec.c,
 * vec_common_shape: values only, a SAMPLE with derivatives and the sampler's bias, mip
 * LINEAR, linear filters both ways, every component filtered, a pitch view, no
 * projection, offsets or layers). Requests of that shape and requests that differ from it
 * in one property each (SAMPLE_BIAS or NO_DERIV, the extras wanted, mip POINT, a point
 * filter, a swizzle with a constant component, a block-linear view, a 2D array,
 * offsets, projection) run on minified and magnified affine maps, full and partial warps.
 * Every result word must equal the general path's (fp_check_warp), and the copy must
 * answer exactly the requests of the shape that the kernel takes, on each wide variant
 * the CPU has (tex_warp_vec_common_count); the baseline has no such copy. */
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

/* samplers: 0 the shape's (linear both ways, mip LINEAR); 1 mip POINT; 2 magnification
 * POINT; 3 minification POINT; 4 the shape's with a bias and a LOD range */
static void setup(fp *F)
{
    fpc_setup(F, 0x9e3779b9u, NSMP);
    for (unsigned s = 0; s < NSMP; s++)
        fpc_sampler(F, s, s == 2 ? TV_MAG_POINT : TV_MAG_LINEAR,
                    s == 3 ? TV_MIN_POINT : TV_MIN_LINEAR,
                    s == 1 ? TV_MIP_POINT : TV_MIP_LINEAR, s == 4);
}

#define VO TV_TEXF_VALUES_ONLY
#define SAMPLE TV_TEX_OP_SAMPLE
/* the shape (twice: with sampler 0 and with 4), and one property changed in each other */
static const fpc_kind kinds[] = {
    {true, 0, false, 0, SAMPLE, VO, 0},                               /* the shape */
    {true, 0, false, 4, SAMPLE, VO, 0},                               /* biased, clamped */
    {false, 0, false, 0, TV_TEX_OP_SAMPLE_BIAS, VO, 1.0f},            /* a bias operand */
    {false, 0, false, 0, SAMPLE, VO | TV_TEXF_NO_DERIV, 0},           /* no derivatives */
    {false, 0, false, 0, SAMPLE, 0, 0},                               /* the extras */
    {false, 0, false, 1, SAMPLE, VO, 0},                              /* mip POINT */
    {false, 0, false, 2, SAMPLE, VO, 0},                              /* mag POINT */
    {false, 0, false, 3, SAMPLE, VO, 0},                              /* min POINT */
    {false, 0, true, 0, SAMPLE, VO, 0},                               /* a constant */
    {false, 2, false, 0, SAMPLE, VO, 0},                              /* block-linear */
    {false, 3, false, 0, SAMPLE, VO, 0},                              /* an array */
    {false, 0, false, 0, SAMPLE, VO | TV_TEXF_OFFSETS, 0},            /* offsets */
    {false, 0, false, 0, SAMPLE, VO | TV_TEXF_PROJECTIVE, 0},         /* projection */
};

static void run(unsigned isa)
{
    fp F;
    setup(&F);
    fpc_run(&F, isa, kinds, sizeof kinds / sizeof kinds[0], tex_warp_vec_common_count,
            "common");
    fp_teardown(&F);
}

FP_VARIANT_MAIN(run)
