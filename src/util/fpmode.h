/* The CPU's floating-point mode for flushing denormals (tv_vm_config.flush_denormals):
 * x86's SSE control register MXCSR bit 6, denormals-are-zero (denormal operands read as
 * zero). It applies to the thread that sets it, to every SSE/AVX operation on float32 and
 * float64; the engine sets it around each job it runs and puts the previous modes back
 * after. Flush-to-zero (bit 15, denormal results become zero) is not set: x86 decides that
 * a result is denormal before rounding it, so it also zeroes results that round up to the
 * smallest normal number — piglit's double-to-float conversions of values just below
 * FLT_MIN came out 0 instead of FLT_MIN. With operands flushed, a denormal result keeps its
 * bits but reads as zero in every later operation. */
#ifndef TEXVM_UTIL_FPMODE_H
#define TEXVM_UTIL_FPMODE_H

#include <stdbool.h>

#if defined(__SSE__) || defined(__x86_64__)
#include <xmmintrin.h>
#define TV_FP_FLUSH_BITS 0x0040u   /* DAZ */

static inline bool tv_fp_flush_supported(void) { return true; }

/* Turn flushing on; returns the modes to restore. */
static inline unsigned tv_fp_flush_begin(void)
{
    unsigned saved = _mm_getcsr();
    _mm_setcsr(saved | TV_FP_FLUSH_BITS);
    return saved;
}

static inline void tv_fp_flush_end(unsigned saved) { _mm_setcsr(saved); }
#else
static inline bool tv_fp_flush_supported(void) { return false; }
static inline unsigned tv_fp_flush_begin(void) { return 0; }
static inline void tv_fp_flush_end(unsigned saved) { (void)saved; }
#endif

#endif
