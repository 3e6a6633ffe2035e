/* Prefetching a line that is about to be written (a hint: it neither faults nor changes a
 * byte). TV_PREFETCH_W(p) is PREFETCHW where the CPU has it (every x86-64 core of this
 * project's machines: the line comes owned, so the store that follows needs no second
 * request), else __builtin_prefetch for writing.
 *
 * Two traps of GCC 12 that this works around:
 *   - __builtin_prefetch(p, 1, ...) is emitted as a read prefetch (PREFETCHNTA or
 *     PREFETCHT0) unless the function is built for PRFCHW, which x86-64's baseline is not;
 *   - a static helper whose only work is a loop of __builtin_prefetch counts as a function
 *     without effect, and its call is deleted (the fragment tile store's prefetch of the
 *     tile ahead was such a helper: the plain builds had no prefetch at all; the same
 *     loop written in the caller, or the calls without the loop, were kept). The inline
 *     assembly here is volatile, so a helper or loop of TV_PREFETCH_W stays.
 * __builtin_cpu_supports needs __builtin_cpu_init to have run (the engine's kernel
 * choices call it first). Clang (the fuzz and TSan builds) does not know the "prfchw"
 * feature name, and keeps its prefetches: it gets the builtin. */
#ifndef TEXVM_UTIL_PREFETCH_H
#define TEXVM_UTIL_PREFETCH_H

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define TV_PREFETCH_W(p)                                                                      \
    do {                                                                                      \
        if (__builtin_cpu_supports("prfchw"))                                                 \
            __asm__ volatile("prefetchw %0" : : "m"(*(const char *)(p)));                     \
        else                                                                                  \
            __builtin_prefetch((p), 1, 0);                                                    \
    } while (0)
#elif defined(__GNUC__)
#define TV_PREFETCH_W(p) __builtin_prefetch((p), 1, 0)
#else
#define TV_PREFETCH_W(p) ((void)(p))
#endif

#endif
