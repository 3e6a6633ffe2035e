/* The JIT's static nesting depths (vm_jit_depths.c): the cond, loop and switch depth
 * before every micro-op of a program, per region, found by one scan of the structured
 * control flow, so that vm_jit_build.c can index the cond stack and the loop records at
 * compile time. A program whose jumps land at another depth, or with recursion, or with
 * control flow the JIT does not compile, is declined with the reason. Only compiled with
 * LLVM (TEXVM_JIT); it needs no LLVM itself. */
#ifndef TEXVM_VM_JIT_DEPTHS_H
#define TEXVM_VM_JIT_DEPTHS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/error.h"
#include "vm/vm_internal.h"

/* Regions: the main program (micro-ops 0 to its END) and each subroutine (BGNSUB to
 * ENDSUB, after the main END). Each region's constructs get their own cond/loop/switch
 * records (depths are absolute: a region starts where the one before reached), so a
 * subroutine never overwrites its caller's; with no recursion (checked) a subroutine has
 * one activation at a time, and its call frame is one set of allocas. */
typedef struct vm_jit_depths {
    uint32_t *cd, *ld, *sd;   /* cond, loop and switch depth before each micro-op */
    uint32_t *region;         /* 0 = main, k = the k-th subroutine */
    uint32_t max_c, max_l, max_s;
    uint32_t nregions;
} vm_jit_depths;

/* D's arrays for n micro-ops (n + 1 entries each; region zeroed); false: out of memory
 * (whatever was allocated is freed by vm_jit_depths_free) */
bool vm_jit_depths_alloc(vm_jit_depths *D, uint32_t n);
void vm_jit_depths_free(vm_jit_depths *D);

/* D's depths and regions for code[0 .. n - 1]; false with the reason in why (n bytes)
 * where the program is declined */
bool vm_jit_depths_analyse(const vm_uop *code, uint32_t n, vm_jit_depths *D, char *why,
                           size_t wn);

/* The builder's way to decline: the reason, formatted (printf), into why (n bytes, when
 * given); returns false */
bool vm_jit_decline(char *why, size_t n, const char *fmt, ...) TV_PRINTF(3, 4);

#endif
