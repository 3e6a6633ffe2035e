/* TV_WIDE_VECTORS: a function attribute that compiles a lane loop for wider vectors too,
 * GCC picking the variant at load time (x86-64 ifunc): 8 or 16 float lanes per
 * instruction instead of 4. The variants run the same IEEE and integer operations in the
 * same order (ISO C: no contraction; no FMA is enabled by these targets' code paths), so
 * every variant gives bit-identical results. TV_HAVE_CLONES says whether it is in effect.
 * Helpers a marked function calls should be inlined into it (static inline with
 * TV_ALWAYS_INLINE): a call between clones goes through the resolver. */
#ifndef TEXVM_UTIL_WIDE_VECTORS_H
#define TEXVM_UTIL_WIDE_VECTORS_H

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__) && \
    defined(__has_attribute)
#if __has_attribute(target_clones)
#if defined(TV_ISA_CEILING) && TV_ISA_CEILING < 2 /* (the build's ceiling: util/cpu_isa.h) */
#define TV_WIDE_VECTORS __attribute__((target_clones("avx2", "default")))
#else
#define TV_WIDE_VECTORS __attribute__((target_clones("avx512f", "avx2", "default")))
#endif
#define TV_HAVE_CLONES 1
#endif
#endif
#ifndef TV_WIDE_VECTORS
#define TV_WIDE_VECTORS
#endif

#if defined(__GNUC__)
#define TV_ALWAYS_INLINE __attribute__((always_inline)) inline
#else
#define TV_ALWAYS_INLINE inline
#endif

#endif
