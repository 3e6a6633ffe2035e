/* The coverage_quads hook's contract (include/texvm/vm.h), checked on the quads it
 * returned before the packer relies on it (vm_stage_frag_quads.c). */
#ifndef TEXVM_VM_STAGE_FRAG_QUADS_H
#define TEXVM_VM_STAGE_FRAG_QUADS_H

#include <stdbool.h>
#include <stdint.h>

/* The quads among the first N (0 to TV_VM_COVERAGE_QUADS_MAX) of QX, QY (arrays of
 * TV_VM_COVERAGE_QUADS_MAX entries: the AVX-512 kernel reads them whole) that break the
 * contract for box BOX (pixels [box[0], box[2]) x [box[1], box[3])): bit i for quad i off
 * the even grid, outside the box's aligned quads, or not after quad i - 1 in row order
 * (rows top to bottom, each left to right; quad 0 with a row above 0). The first offender
 * is the lowest bit. ISA: a tile store variant (vm_stage_frag_store.h) the caller has
 * checked the CPU for: the AVX-512 kernel from VM_STORE_AVX512, the AVX2 kernel from
 * VM_STORE_AVX2, else the plain loop (its reference in tests/vm/test_frag_quads.c); all
 * give the same bits for every input. */
uint32_t vm_frag_quads_bad(const int32_t box[4], const int32_t *qx, const int32_t *qy, int n,
                           unsigned isa);

#endif
