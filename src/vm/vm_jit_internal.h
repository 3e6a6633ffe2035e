/* The JIT's code generator state, shared by the control-flow builder (vm_jit_build.c) and
 * the ALU op emitters (vm_jit_ops.c). Only compiled with LLVM (TEXVM_JIT). */
#ifndef TEXVM_VM_JIT_INTERNAL_H
#define TEXVM_VM_JIT_INTERNAL_H

#include <llvm-c/Core.h>

#include "vm/vm_jit.h"

typedef struct vm_jit_loop {   /* one loop level's record (vm_cfentry's fields) */
    LLVMValueRef loop, cont, entry, cond, sw, iters;
    uint32_t cond_depth;
} vm_jit_loop;

typedef struct vm_jit_frame {  /* a subroutine's call frame (vm_callframe's masks) */
    LLVMValueRef cond, loop, cont, sw, func, ret;
} vm_jit_frame;

typedef struct vm_jit_ctx {
    LLVMContextRef c;
    LLVMModuleRef m;
    LLVMBuilderRef b;
    LLVMValueRef fn, w, r;
    LLVMTypeRef i1, i8, i32, i64, f32, ptr, vi, vf, vb, v32i64;
    const tv_vm_program *p;
    const vm_uop *code;
    uint32_t n;
    /* state kept in allocas (promoted to SSA by LLVM) */
    LLVMValueRef cond, loop, cont, sw, func, present, killed, live, demoted, helper;
    LLVMValueRef insns, uops, budget, max_iters;
    LLVMValueRef *cstack;          /* cond stack entries, by static depth */
    vm_jit_loop *lstack;           /* loop records, by static depth */
    LLVMValueRef *sstack;          /* switch records by static depth: sw, entering lanes */
    uint32_t max_depth;
    /* register slots the program writes: one alloca each (NULL: read from r) */
    LLVMValueRef *slot;
    uint32_t *written, nwritten;
    /* written slots holding the same word in every lane all through the run: one i32 in
       `slot` (vm_jit_build.c find_uniform) */
    uint8_t *uni;
    bool verbose;                  /* TEXVM_JIT_VERBOSE: say which micro-ops call handlers */
    /* slots holding a program immediate that is not a NaN in every lane (uniform slots
       no constant overwrites); and the values loaded from them by the current micro-op:
       a float operation with one such operand cannot see two NaNs (vm_jit_ops.c) */
    bool *not_nan;
    LLVMValueRef nn[VM_MAX_USRC];
    unsigned nnn;
    /* slots whose value, in every lane active since it was written, is no NaN: written by
       an inline lane-wise micro-op with a value of that kind (an integer converted, a
       constant, ... vm_jit_never_nan), with only inline lane-wise micro-ops after it (no
       jump target, control flow or handler call: the lanes active now are a subset of
       those active then). An operation whose results are stored under the execution mask
       may take such an operand as never a NaN: its other lanes' results are dropped. */
    uint8_t *nn_slot;
    bool nn_alu;                   /* an inline lane-wise micro-op is being compiled */
    bool nn_track;                 /* ... and it stores its results under the mask */
    uint32_t pc;                   /* the micro-op being compiled */
    /* slots whose value may differ from the register file (stored before a call) */
    uint8_t *dirty;
    /* TEMP and ADDR slots that start at zero, that the code never writes and that a
       handler it calls may read: the block `zinit`, run once on entry, stores their zero
       into the register file (which holds the last run's values: vm_worker_init) */
    uint8_t *zero_for_calls;
    LLVMBasicBlockRef zinit;
    /* the one exit block and its phis (vm_jit_build.c emit_exit) */
    LLVMBasicBlockRef exit_bb;
    LLVMValueRef exit_code, exit_pc, exit_done;
    bool zero_init;                /* TEMP and ADDR start at zero in the code (no indirect
                                      register access): tv_vm_program.jit_zero_init */
    bool zero_out;                 /* OUT too (vm_jit_build.c out_zero):
                                      tv_vm_program.jit_zero_out */
    LLVMValueRef zero;             /* their zero: loaded in the entry block from memory
                                      LLVM cannot see (vm_jit_build.c opaque_zero) */
    bool mask_regs;                /* the host has AVX-512's mask registers (lane_mask) */
    /* the lanes one x86 vector instruction of the host takes (16 with AVX-512, 8 with AVX,
       4 with SSE only): vm_jit_ops.c x86_op's chunks */
    unsigned simd_lanes;
    /* counts for vm_jit_stats */
    uint64_t inline_uops, call_uops, uniform_slots, uniform_scalar, uniform_converts;
} vm_jit_ctx;

/* Slots as <32 x i32> (vm_jit_build.c): read the current value; store under the
 * execution mask (every lane when nomask). */
LLVMValueRef vm_jit_load(vm_jit_ctx *j, uint32_t slot);
void vm_jit_store(vm_jit_ctx *j, uint32_t slot, LLVMValueRef v, bool nomask);
/* A float operand (f, read from slot) as LLVM may see it: behind llvm.arithmetic.fence
 * when the program writes the slot, so that no value it derives is a constant to fold
 * (vm_jit_ops.c). */
LLVMValueRef vm_jit_opaque_float(vm_jit_ctx *j, uint32_t slot, LLVMValueRef f);
/* Whether V is never a NaN in any lane (a constant, an integer converted, a bit cast,
 * fence or select of such, or a value the current micro-op loaded from a slot known so). */
bool vm_jit_never_nan(const vm_jit_ctx *j, LLVMValueRef v);
/* Forget every slot's never-NaN knowledge (nn_slot): at a join, control flow or a call. */
void vm_jit_nn_forget(vm_jit_ctx *j);
/* The current execution mask as i32. */
LLVMValueRef vm_jit_exec(vm_jit_ctx *j);
/* An i32 value known only at run time in every lane of a <32 x i32>. */
LLVMValueRef vm_jit_broadcast(vm_jit_ctx *j, LLVMValueRef v);
/* Lanes K*W .. K*W + W - 1 of the 32-lane V as a W-lane vector (a chunk of the host's
 * vector width, W <= 16), and the VM_LANES / W chunks PARTS joined back into 32 lanes,
 * pairwise (PARTS is overwritten): the forms the code takes chunk by chunk (vm_jit_ops.c
 * x86_op, vm_jit_build.c masked). */
LLVMValueRef vm_jit_chunk(vm_jit_ctx *j, LLVMValueRef v, unsigned k, unsigned w);
LLVMValueRef vm_jit_join(vm_jit_ctx *j, LLVMValueRef *parts, unsigned w);
/* The scalar S that V broadcasts to every lane (an insert at lane 0 and a zero-mask
 * shuffle, vm_jit_broadcast's form and InstCombine's, of any lane count), or NULL */
LLVMValueRef vm_jit_broadcast_of(LLVMValueRef v);

/* Call micro-op u's handler as the interpreter would (the warp synced around the call;
 * vm_jit_build.c); pc is u's index. */
void vm_jit_call_handler(vm_jit_ctx *j, const vm_uop *u, uint32_t pc);
/* The micro-op being compiled (its index). */

/* Emit micro-op u inline when vm_jit_ops.c has an emitter for its handler; false: the
 * caller calls the handler. */
bool vm_jit_emit_alu(vm_jit_ctx *j, const vm_uop *u);
/* Sources per channel when channel ch of u is an inline channel group's store of every
 * lane with a result the same in every lane whose operands are (a uniform slot's
 * writer); else 0. */
unsigned vm_jit_uniform_writer(const vm_uop *u, unsigned ch);

/* Build the function `name` for j->p's optimised micro-ops into j->m (vm_jit_build.c).
 * false: the program is declined, `why` says why. vm_jit_ctx_free frees the tables. */
/* Ends the current block with a jump to the function's one exit block (code, pc, done its
 * phis' values), which writes the warp back: vm_jit_build.c. */
void vm_jit_emit_exit(vm_jit_ctx *j, enum vm_jit_exit code, uint32_t pc, bool done);

bool vm_jit_build(vm_jit_ctx *j, const char *name, char *why, size_t why_size);
void vm_jit_ctx_free(vm_jit_ctx *j);

/* Run once before the first compile: measure which operand's NaN each float handler
 * returns when both are NaN (vm_jit_ops.c). */
void vm_jit_calibrate(void);

/* After the optimisation passes: each select on a condition the same in every lane takes
 * that one i1 as its condition, so the code generator branches instead of blending both
 * sides (vm_jit_uniform_select.c); the number rewritten. */
unsigned vm_jit_uniform_selects(LLVMModuleRef m);

#endif
