/* The lanes of a fragment warp (32 lanes: tv_vm_frag_warp_output) that the warp merger
 * takes, as bits: sample 0 covered and, where the warp may reach past the target, the
 * pixel inside it (pipe_draw_om_warp.c). Each in a C form, an AVX2 form and an AVX-512
 * form, which tests/pipe/test_om_lanes.c compares on random lanes. */
#ifndef TEXVM_PIPE_OM_LANES_H
#define TEXVM_PIPE_OM_LANES_H

#include <stdbool.h>
#include <stdint.h>

/* The form a test takes: C, AVX2 or AVX-512F, as the machine has it (util/cpu_isa.h; the
 * same bits in every form). */
typedef enum { OM_ISA_C, OM_ISA_AVX2, OM_ISA_AVX512 } om_isa;

/* Bit l: COVERAGE[l] has sample 0 (a tile wholly in the target). */
uint32_t om_lanes_covered(const uint32_t *coverage, om_isa isa);
/* Bit l: 0 <= X[l] < W, 0 <= Y[l] < H and COVERAGE[l] has sample 0; W, H >= 0. */
uint32_t om_lanes_in_target(const int32_t *x, const int32_t *y, const uint32_t *coverage,
                            int32_t W, int32_t H, om_isa isa);

#endif
