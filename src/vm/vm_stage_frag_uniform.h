/* Fragment programs whose lanes all compute the same outputs (vm_stage_frag_uniform.c):
 * in a tile whose inputs are the same in every lane, such a program's warp writes the
 * outputs the last such warp of the same triangle wrote, so the tile walk runs it once
 * and reuses its registers. */
#ifndef TEXVM_VM_STAGE_FRAG_UNIFORM_H
#define TEXVM_VM_STAGE_FRAG_UNIFORM_H

#include "vm/vm_run.h"

/* Whether P (a FRAG program) gives every lane the same outputs whenever its lanes' inputs
 * are the same (P->frag_uniform): every instruction is arithmetic, logic, conversion,
 * packing, address or control flow (no texture, resource, atomic, derivative, fragment —
 * KILL, interpolation, FBFETCH —, wave or sync instruction, which read per-lane state or
 * the world), and every system value it reads is one value for the whole run (FACE,
 * PRIMID, SUBGROUP_SIZE, SAMPLEID without per-sample shading). Called once when the
 * program is created. */
void vm_frag_uniform_plan(tv_vm_program *p);

/* Test hooks: ON false runs every warp through the engine (tests/vm/test_frag_uniform.c
 * compares the two); the calling thread's warps answered by a reused warp's registers. */
void vm_frag_uniform_set(tv_vm *vm, bool on);
uint64_t vm_frag_uniform_reused(void);
/* The tile walk (vm_stage_frag.c run_warp): one more warp answered that way. */
void vm_frag_uniform_count(void);
/* Of those, the tiles stored without a warp set up (copies of the outputs' tile images:
 * the tile walk's uniform_tile), per thread, and their count (the walk's). */
uint64_t vm_frag_uniform_stored(void);
void vm_frag_uniform_count_stored(void);
/* Of those, the tiles handed to the pipeline's warp hook without a warp set up (the tile
 * walk's uniform_hook_tile), per thread, and their count. */
uint64_t vm_frag_uniform_hooked(void);
void vm_frag_uniform_count_hooked(void);

#endif
