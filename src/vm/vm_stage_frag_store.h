/* The colour store of a fully live 8x4 fragment tile (vm_stage_frag_store.c). */
#ifndef TEXVM_VM_STAGE_FRAG_STORE_H
#define TEXVM_VM_STAGE_FRAG_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vm/vm_internal.h"

/* The widest store variant this processor has: 2 AVX-512F, 1 SSE2, 0 plain C (any
 * smaller one works too: tests/vm/test_frag_store.c runs each). */
unsigned vm_frag_store_isa(void);
/* The variant RUN's fragment jobs use: vm_frag_store_isa(), at most the engine's test cap.
 * Asked once per job. */
unsigned vm_frag_store_isa_run(const vm_run *run);
/* Tests: VM's fragment runs store with variant CAP at most (2: no limit). Set between
 * runs. */
void vm_frag_store_limit_isa(tv_vm *vm, unsigned cap);

/* The four channel slots o[0..3] of a tile's 32 lanes (quads of consecutive lanes TL, TR,
 * BL, BR; 4 quads per row of quads) become 16-byte RGBA pixels at t0 (the tile's top-left
 * pixel; `row` words per target row). `ahead`: the tile two to the right is in the target
 * too (its lines are prefetched for writing). */
void vm_frag_store_tile(unsigned isa, uint32_t *t0, size_t row, const vm_slot *o, bool ahead);

#endif
