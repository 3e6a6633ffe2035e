/* Vertex programs that only copy inputs to outputs (vm_stage_vert_copy.c): a pass-through
 * vertex shader's warps as copies from the vertex arrays to the outputs, with the counts
 * the engine gives such a warp. */
#ifndef TEXVM_VM_STAGE_VERT_COPY_H
#define TEXVM_VM_STAGE_VERT_COPY_H

#include "vm/vm_run.h"

/* Whether P (a VERT program) is a copy program, and its map (P->vert_copy, P->copy_src):
 * every instruction before its one END, the last, is a MOV from an IN register to an OUT
 * register, both direct, of one bracket, below TV_VM_MAX_ATTRIBS and declared, with no
 * saturate, negate or absolute value. Called once when the program is created. */
void vm_vert_copy_plan(tv_vm_program *p);

/* The 16 bytes of elements E0 .. E0 + N - 1 of A, E0's address, when A has four
 * components or more and those elements lie whole in it (fetch() then reads them as
 * they are); NULL otherwise. */
static inline const uint8_t *vm_vert_block_source(const tv_vm_vertex_array *a, uint64_t e0,
                                                  unsigned n)
{
    const uint64_t stride = a->stride;
    if (!a->data || a->components < 4 || a->offset > a->size || a->size - a->offset < 16 ||
        (stride && e0 + n - 1 > (a->size - a->offset - 16) / stride))
        return NULL;
    return (const uint8_t *)a->data + a->offset + e0 * stride;
}

/* The warp of vertices FIRST .. FIRST + N - 1 of instance INST (the inputs' first
 * elements E0[r], -1 where the lanes do not read consecutive elements) as the copy the
 * program is: false, nothing done, when the run or the warp does not allow it (a plain or
 * traced run, a program that is not a copy, an input read elsewhere than a whole block,
 * or this worker not yet knowing a warp's counts, which its first warp run by the engine
 * teaches it: vm_vert_copy_learn). The outputs, invocations, instructions, micro-ops and
 * warps counted are those of the engine's run of the warp. */
bool vm_vert_copy_warp(vm_worker *wk, uint32_t inst, uint32_t first, uint32_t n,
                       const int64_t e0[TV_VM_MAX_ATTRIBS]);

/* A warp W of a copy program just run by the engine: its counts, for the worker's copies
 * (every warp of a program without control flow counts the same). */
void vm_vert_copy_learn(vm_worker *wk, const vm_warp *w);

/* Test hooks: ON false runs copy programs' warps through the engine
 * (tests/vm/test_vert_copy.c compares the two); the warps VM has copied since created. */
void vm_vert_copy_set(tv_vm *vm, bool on);
uint64_t vm_vert_copied(tv_vm *vm);

#endif
