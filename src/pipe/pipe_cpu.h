/* The processor's vector extensions, as the pipeline's kernels need them: the kernels
 * written for AVX-512F alone (om_early_depth32, raster_box_quads) run only where it is
 * present; the whole-tile blend and the box early test (box_early_quads) have an AVX2
 * variant too. The draw asks once (draw_state.avx512, .avx2); the tests ask to know which
 * kernels they compare. */
#ifndef TEXVM_PIPE_CPU_H
#define TEXVM_PIPE_CPU_H

#include <stdbool.h>
#include "util/cpu_isa.h"

/* (under the build's ceiling, util/cpu_isa.h) */
static inline bool pipe_cpu_avx512f(void)
{
    return tv_cpu_avx512f();
}

/* Whether it has AVX2 (the whole-tile blend's 256-bit variant, the box early test's). */
static inline bool pipe_cpu_avx2(void)
{
    return tv_cpu_avx2();
}

#endif
