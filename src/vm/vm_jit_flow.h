/* The JIT's control-flow micro-ops (vm_jit_flow.c), called by the code generator
 * (vm_jit_build.c) for each micro-op without a handler. Only compiled with LLVM
 * (TEXVM_JIT). */
#ifndef TEXVM_VM_JIT_FLOW_H
#define TEXVM_VM_JIT_FLOW_H

#include "vm/vm_jit_depths.h"
#include "vm/vm_jit_internal.h"

/* What the code generator built for the whole function that the control flow needs: the
 * static depths and regions, one block per micro-op (bb[n]: past the end), the call frames
 * by region, the call stack's depth (an alloca) and its limit. */
typedef struct vm_jit_flow {
    const vm_jit_depths *D;
    LLVMBasicBlockRef *bb;
    vm_jit_frame *frames;
    LLVMValueRef call_sp, max_calls;
} vm_jit_flow;

/* Micro-op i of the program (a control-flow kind: no handler), at the end of its block:
 * its masks, stacks and jumps as vm_exec.c's run loop does them. Every kind
 * vm_jit_depths_analyse accepts is built; any other exits with VM_JIT_EXIT_INTERNAL. */
void vm_jit_emit_flow(vm_jit_ctx *j, const vm_jit_flow *F, uint32_t i);

#endif /* TEXVM_VM_JIT_FLOW_H */
