/* LLVM's shared library, loaded when the JIT first starts instead of when the program
 * does (docs/jit.md "Loading LLVM"). Linked at start-up, libLLVM cost every process some
 * 70 ms before main (its 3000 pages mapped and its static constructors run: 190 ms under
 * ASan) — most of a `texvm` command's time, paid by every command whether or not it
 * compiled anything (the JIT compiles only programs run long enough).
 *
 * Each function the JIT calls (vm_jit_llvm.def) gets an entry point of the same name here,
 * hidden (never exported: Mesa in the same process calls the library's own), that jumps
 * through a slot; vm_jit_llvm_load fills the slots from the loaded library once. The JIT's
 * code calls LLVM's functions by their names as before, and nothing calls them before the
 * JIT's start-up has loaded the library (vm_jit.c: init and vm_jit_target). The entry
 * points are a jump each, which keeps every argument register as the caller set it, so
 * one form serves every signature. x86-64 ELF with GCC or clang (TEXVM_JIT_LAZY,
 * CMakeLists.txt); elsewhere the library is linked at start-up as before. */
#include <stdio.h>

#include "vm/vm_jit.h"

#if defined(TEXVM_JIT) && defined(TEXVM_JIT_LAZY)
#include <dlfcn.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>

/* the slots: where each entry point jumps */
#define X(f) __attribute__((visibility("hidden"), used)) void *vm_llvm_slot_##f;
#include "vm/vm_jit_llvm.def"
#undef X

/* the entry points (16-byte aligned, as the compiler places functions) */
#define X(f)                                                                            \
    __asm__(".pushsection .text\n\t.p2align 4\n\t.globl " #f "\n\t.hidden " #f             \
            "\n\t.type " #f ", @function\n" #f ":\n\tjmp *vm_llvm_slot_" #f "(%rip)\n\t"   \
            ".size " #f ", . - " #f "\n\t.popsection");
#include "vm/vm_jit_llvm.def"
#undef X

static const struct llvm_fn {
    const char *name;
    void **slot;
} llvm_fns[] = {
#define X(f) {#f, &vm_llvm_slot_##f},
#include "vm/vm_jit_llvm.def"
#undef X
};

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static bool loaded;
static char load_error[384];

static void load(void)
{
    /* the file CMake found (a process that runs Mesa too shares its copy: the loader
       knows the file), or TEXVM_LLVM_LIBRARY's, set by whoever starts the process */
    const char *path = getenv("TEXVM_LLVM_LIBRARY");
    if (!path || !*path)
        path = TEXVM_LLVM_DYLIB_PATH;
    void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        const char *e = dlerror();   /* (it names the file) */
        snprintf(load_error, sizeof load_error, "cannot load LLVM: %s", e ? e : path);
        return;
    }
    for (size_t i = 0; i < sizeof llvm_fns / sizeof llvm_fns[0]; i++) {
        void *p = dlsym(lib, llvm_fns[i].name);
        if (!p) {
            snprintf(load_error, sizeof load_error, "LLVM (%s) has no function %s", path,
                     llvm_fns[i].name);
            return;   /* (the library stays loaded: unloading it runs its destructors) */
        }
        *llvm_fns[i].slot = p;
    }
    loaded = true;
}

int vm_jit_llvm_load(char *why, size_t why_size)
{
    pthread_once(&load_once, load);
    if (loaded)
        return 0;
    snprintf(why, why_size, "%s", load_error);
    return -1;
}

#else

int vm_jit_llvm_load(char *why, size_t why_size)
{
    (void)why;
    (void)why_size;
    return 0;   /* linked at start-up, or no JIT */
}

#endif
