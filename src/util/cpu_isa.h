/* The processor's vector extensions as texvm's kernels may use them: what the processor
 * has, capped at the build's ceiling (CMake TEXVM_ISA_CEILING: TV_ISA_CEILING 2 = AVX-512,
 * the default, 1 = AVX2). Every run-time choice of a kernel variant asks here, so that a
 * build with the AVX2 ceiling runs on an AVX-512 machine exactly the kernels an AVX2-only
 * core runs (the lane loops' clones, util/wide_vectors.h, and the JIT's target features,
 * vm_jit.c, follow the same ceiling). */
#ifndef TEXVM_UTIL_CPU_ISA_H
#define TEXVM_UTIL_CPU_ISA_H

#include <stdatomic.h>
#include <stdbool.h>

#ifndef TV_ISA_CEILING
#define TV_ISA_CEILING 2
#endif

#if defined(__GNUC__) && defined(__x86_64__)
#define TV_CPU_HAS(feature) (__builtin_cpu_init(), __builtin_cpu_supports(feature) != 0)
#else
#define TV_CPU_HAS(feature) false
#endif

/* The features the kernels' choices ask for, read from the processor once per translation
 * unit and kept: the texture unit asks at every request and the tile walk at every warp,
 * and each __builtin_cpu_init is a call into libgcc (two a request, 130,000 a 1080p frame
 * of the trilinear workload). Relaxed atomics: two threads that both find it unread store
 * the same bits. */
enum {
    TV_CPU_READ = 1u,      /* the bits below are the processor's */
    TV_CPU_AVX2 = 2u,
    TV_CPU_FMA = 4u,
    TV_CPU_AVX512F = 8u,
    TV_CPU_AVX512BW = 16u,
};

/* (out of line and cold: the callers' hot paths keep only the load and the test. Without
   cold, and read by a constructor instead, the layouts GCC chose made the mesh scene or
   the rotated map 5-10 % slower under the AVX2 ceiling: docs/history/performance-log.md
   §71) */
__attribute__((noinline, cold, unused)) static unsigned tv_cpu_read(void)
{
    return TV_CPU_READ | (TV_CPU_HAS("avx2") ? TV_CPU_AVX2 : 0u) |
           (TV_CPU_HAS("fma") ? TV_CPU_FMA : 0u) |
           (TV_CPU_HAS("avx512f") ? TV_CPU_AVX512F : 0u) |
           (TV_CPU_HAS("avx512bw") ? TV_CPU_AVX512BW : 0u);
}

static inline unsigned tv_cpu_bits(void)
{
    static _Atomic unsigned bits; /* 0: not read yet */
    unsigned b = atomic_load_explicit(&bits, memory_order_relaxed);
    if (b == 0) {
        b = tv_cpu_read();
        atomic_store_explicit(&bits, b, memory_order_relaxed);
    }
    return b;
}

/* AVX-512F (the pipeline's and the engine's 16-lane kernels) */
static inline bool tv_cpu_avx512f(void)
{
    return TV_ISA_CEILING >= 2 && (tv_cpu_bits() & TV_CPU_AVX512F);
}

/* AVX-512F and BW (the texture kernel's byte shuffles) */
static inline bool tv_cpu_avx512bw(void)
{
    return tv_cpu_avx512f() && (tv_cpu_bits() & TV_CPU_AVX512BW);
}

static inline bool tv_cpu_avx2(void)
{
    return TV_ISA_CEILING >= 1 && (tv_cpu_bits() & TV_CPU_AVX2);
}

/* AVX2 and FMA (the texture kernel's AVX2 variant: every AVX2 core has both) */
static inline bool tv_cpu_avx2_fma(void)
{
    return tv_cpu_avx2() && (tv_cpu_bits() & TV_CPU_FMA);
}

/* The ceiling's name, for the kernel lines of tools and benchmarks ("" at the default). */
static inline const char *tv_cpu_ceiling_name(void)
{
    return TV_ISA_CEILING >= 2 ? "" : "avx2";
}

#endif
