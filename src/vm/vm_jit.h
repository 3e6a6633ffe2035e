/* The JIT (docs/jit.md): a lowered program's optimised micro-ops compiled to one native
 * function with LLVM's ORC JIT. The function runs a warp from micro-op 0 to END with the
 * run loop's mask scheme, counts and faults (vm_exec.c), keeps the registers the program
 * writes in SSA values, computes the ALU micro-ops of vm_jit_ops.c inline, and calls the
 * handler of every other ALU micro-op as the interpreter does. Programs with control flow
 * it does not cover (recursive subroutines, barriers, GS emits) are declined and
 * stay interpreted. Built only with LLVM (TEXVM_JIT); without it every entry point says the JIT
 * is not there. */
#ifndef TEXVM_VM_JIT_H
#define TEXVM_VM_JIT_H

#include "vm/vm_run.h"

enum { VM_JIT_NOT_YET = 0, VM_JIT_READY = 1, VM_JIT_DECLINED = 2 };

/* What a compiled program returns; w->pc holds the micro-op it stopped at. */
enum vm_jit_exit {
    VM_JIT_EXIT_DONE = 0,        /* END reached, or every lane killed (w->done set) */
    VM_JIT_EXIT_FAULT = 1,       /* a handler set w->fault */
    VM_JIT_EXIT_LOOP_LIMIT = 2,  /* ENDLOOP: max_loop_iterations exceeded */
    VM_JIT_EXIT_BUDGET = 3,      /* ENDLOOP: the instruction budget exceeded */
    VM_JIT_EXIT_CALL_DEPTH = 4,  /* CAL: max_call_depth exceeded */
    VM_JIT_EXIT_INTERNAL = 5     /* a micro-op the compiled code cannot run (never expected) */
};

/* Programs of more micro-ops are declined: LLVM's compile time grows faster than the
 * program (0.5 s at a few hundred micro-ops dense with handler calls), and a client of the
 * vtest server chooses its programs. */
#define VM_JIT_MAX_UOPS 2048u

/* The compiled code the process keeps at most: once the live programs' code reaches it,
 * further programs are declined (and run interpreted, giving the same bits) until some
 * are destroyed. A vtest client chooses how many programs it makes run long enough to be
 * compiled; their lowered form counts against its memory quota, their code against this
 * (one process per client by default). A program counts its object file as the code
 * generator made it, plus VM_JIT_CODE_OVERHEAD for the linker's page-granular sections
 * and the ORC records; the program that crosses the budget is kept. */
#define VM_JIT_CODE_BUDGET (256ull << 20)
#define VM_JIT_CODE_OVERHEAD 16384ull

/* Whether the JIT was built in. */
bool vm_jit_built(void);

/* What the JIT compiles for (tv_vm_kernels): "llvm-15 CPU" (LLVM's name for this
 * processor), "llvm-15 (not loaded: why)", or "none". */
void vm_jit_target(char *buf, size_t size);

/* Loads LLVM's shared library and binds the JIT's calls to it, once a process
 * (vm_jit_llvm.c); 0, or -1 with the reason in WHY. Nothing may call an LLVM function
 * before it returned 0. A no-op returning 0 where the library is linked at start-up. */
int vm_jit_llvm_load(char *why, size_t why_size);

/* Called once per run before its warps start (vm_run_jobs): sets run->jit_fn to the
 * program's compiled code, compiling it first when the engine's mode asks for it (TV_VM_JIT_ALWAYS, or TV_VM_JIT_AUTO once `warps` more warps
 * take the program past the threshold). Never fails the run: a program that cannot be
 * compiled is marked declined and runs interpreted (TEXVM_JIT_VERBOSE=1 says why). */
void vm_jit_prepare(vm_run *run, uint64_t warps);

/* Free a program's compiled code (tv_vm_program_destroy). */
void vm_jit_release(tv_vm_program *p);

/* Statistics for tests and benchmarks: programs compiled and declined, micro-ops
 * compiled inline and as handler calls, slots kept as one word for every lane
 * (uniform_slots: vm_jit_build.c find_uniform) and the stores to them computed as scalars
 * (uniform_scalar: vm_jit_build.c lane0), the I2F / U2F of a broadcast converted as a
 * scalar (uniform_converts: vm_jit_ops.c int_to_float), the selects on a uniform
 * condition given a scalar one (uniform_selects: vm_jit_uniform_select.c), since the
 * process started; and what the live programs' compiled code counts against the code
 * budget now. */
typedef struct vm_jit_stats {
    uint64_t compiled, declined, inline_uops, call_uops, uniform_slots, uniform_scalar;
    uint64_t uniform_selects, uniform_converts;
    uint64_t code_bytes;
} vm_jit_stats;
void vm_jit_get_stats(vm_jit_stats *s);
/* Set the code budget (tests; 0: VM_JIT_CODE_BUDGET). */
void vm_jit_set_code_budget(uint64_t bytes);

/* Compile `p` now regardless of mode and thresholds (tests). Returns VM_JIT_READY or
 * VM_JIT_DECLINED; `why` gets the reason when declined (may be NULL). */
int vm_jit_compile_now(const tv_vm_program *p, char *why, size_t why_size);

#endif
