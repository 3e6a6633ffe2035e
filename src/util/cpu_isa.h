/* The processor's vector extensions as texvm's kernels may use them: what the processor
 * has, capped at the build's ceiling (CMake TEXVM_ISA_CEILING: TV_ISA_CEILING 2 = AVX-512,
 * the default, 1 = AVX2). Every run-time choice of a kernel variant asks here, so that a
 * build with the AVX2 ceiling runs on an AVX-512 machine exactly the kernels an AVX2-only
 * core runs (the lane loops' clones, util/wide_vectors.h, and the JIT's target features,
 * vm_jit.c, follow the same ceiling). */
#ifndef TEXVM_UTIL_CPU_ISA_H
#define TEXVM_UTIL_CPU_ISA_H

#include <stdbool.h>

#ifndef TV_ISA_CEILING
#define TV_ISA_CEILING 2
#endif

#if defined(__GNUC__) && defined(__x86_64__)
#define TV_CPU_HAS(feature) (__builtin_cpu_init(), __builtin_cpu_supports(feature) != 0)
#else
#define TV_CPU_HAS(feature) false
#endif

/* AVX-512F (the pipeline's and the engine's 16-lane kernels) */
static inline bool tv_cpu_avx512f(void)
{
    return TV_ISA_CEILING >= 2 && TV_CPU_HAS("avx512f");
}

/* AVX-512F and BW (the texture kernel's byte shuffles) */
static inline bool tv_cpu_avx512bw(void)
{
    return tv_cpu_avx512f() && TV_CPU_HAS("avx512bw");
}

static inline bool tv_cpu_avx2(void)
{
    return TV_ISA_CEILING >= 1 && TV_CPU_HAS("avx2");
}

/* AVX2 and FMA (the texture kernel's AVX2 variant: every AVX2 core has both) */
static inline bool tv_cpu_avx2_fma(void)
{
    return tv_cpu_avx2() && TV_CPU_HAS("fma");
}

/* The ceiling's name, for the kernel lines of tools and benchmarks ("" at the default). */
static inline const char *tv_cpu_ceiling_name(void)
{
    return TV_ISA_CEILING >= 2 ? "" : "avx2";
}

#endif
