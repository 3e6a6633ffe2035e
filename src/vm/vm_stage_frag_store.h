/* The colour store of a fully live 8x4 fragment tile (vm_stage_frag_store.c). */
#ifndef TEXVM_VM_STAGE_FRAG_STORE_H
#define TEXVM_VM_STAGE_FRAG_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vm/vm_internal.h"

/* The tile store variants, narrowest first (any narrower one than the processor's widest
 * works too: tests/vm/test_frag_store.c runs each). Other kernels of the fragment stage
 * take the same number (vm_stage_frag_pack.c's deferred inputs: VM_STORE_AVX512). */
enum {
    VM_STORE_C,        /* plain C, one word at a time */
    VM_STORE_SSE2,     /* 16-byte pixels (SSE2 is part of x86-64) */
    VM_STORE_AVX2,     /* 32-byte pairs of pixels */
    VM_STORE_AVX512,   /* 64-byte lines */
    VM_STORE_VARIANTS
};
/* Their names, as texvm's kernel line prints them (vm_engine.c). */
extern const char *const vm_frag_store_names[VM_STORE_VARIANTS];

/* The widest store variant this processor has. */
unsigned vm_frag_store_isa(void);
/* The variant RUN's fragment jobs use: vm_frag_store_isa(), at most the engine's test cap.
 * Asked once per job. */
unsigned vm_frag_store_isa_run(const vm_run *run);
/* Tests: VM's fragment runs store with variant CAP at most (VM_STORE_AVX512: no limit).
 * Set between runs. */
void vm_frag_store_limit_isa(tv_vm *vm, unsigned cap);

/* The four channel slots o[0..3] of a tile's 32 lanes (quads of consecutive lanes TL, TR,
 * BL, BR; 4 quads per row of quads) become 16-byte RGBA pixels at t0 (the tile's top-left
 * pixel; `row` words per target row). `ahead`: the tile two to the right is in the target
 * too (its lines are prefetched for writing). */
void vm_frag_store_tile(unsigned isa, uint32_t *t0, size_t row, const vm_slot *o, bool ahead);

/* A tile's pixels as vm_frag_store_tile lays them out, row after row (its 4 rows of 8
 * pixels, 32 words each): made once with vm_frag_store_tile(isa, img[0], 32, o, false)
 * and copied to many tiles of the same outputs (the tile walk's constant outputs,
 * vm_stage_frag.c uniform_tile) by vm_frag_copy_tile, the same bytes in the same places. */
typedef uint32_t vm_frag_tile_image[4][32];
void vm_frag_copy_tile(unsigned isa, uint32_t *t0, size_t row, const vm_frag_tile_image img,
                       bool ahead);

#endif
