/* Shorthands of the JIT's code generator for the LLVM IR builder (vm_jit_build.c,
 * vm_jit_flow.c, vm_jit_ops.c): constants, loads and stores of the allocas, blocks and the
 * zero test.
 * Only compiled with LLVM (TEXVM_JIT). */
#ifndef TEXVM_VM_JIT_IR_H
#define TEXVM_VM_JIT_IR_H

#include <stdint.h>

#include "vm/vm_jit_internal.h"

static inline LLVMValueRef ci32(vm_jit_ctx *j, uint32_t v) { return LLVMConstInt(j->i32, v, 0); }
static inline LLVMValueRef ci64(vm_jit_ctx *j, uint64_t v) { return LLVMConstInt(j->i64, v, 0); }

static inline LLVMValueRef get(vm_jit_ctx *j, LLVMValueRef a, LLVMTypeRef t)
{
    return LLVMBuildLoad2(j->b, t, a, "");
}
static inline void set(vm_jit_ctx *j, LLVMValueRef a, LLVMValueRef v)
{
    LLVMBuildStore(j->b, v, a);
}
static inline LLVMValueRef g32(vm_jit_ctx *j, LLVMValueRef a) { return get(j, a, j->i32); }

static inline void add64(vm_jit_ctx *j, LLVMValueRef a, uint64_t v)
{
    if (v)
        set(j, a, LLVMBuildAdd(j->b, get(j, a, j->i64), ci64(j, v), ""));
}

static inline LLVMValueRef is_zero(vm_jit_ctx *j, LLVMValueRef v)
{
    return LLVMBuildICmp(j->b, LLVMIntEQ, v, ci32(j, 0), "");
}

static inline LLVMValueRef and_not(vm_jit_ctx *j, LLVMValueRef a, LLVMValueRef b)
{
    return LLVMBuildAnd(j->b, a, LLVMBuildNot(j->b, b, ""), "");
}

static inline LLVMBasicBlockRef block(vm_jit_ctx *j, const char *name)
{
    return LLVMAppendBasicBlockInContext(j->c, j->fn, name);
}

/* Branch to `yes` when v (i32) is zero, else to `no`. */
static inline void br_zero(vm_jit_ctx *j, LLVMValueRef v, LLVMBasicBlockRef yes, LLVMBasicBlockRef no)
{
    LLVMBuildCondBr(j->b, is_zero(j, v), yes, no);
}

#endif /* TEXVM_VM_JIT_IR_H */
