/* The depth test's comparison of sixteen lanes with AVX-512: the AVX-512 kernels' one
 * copy of om_depth_compare (pipe_om.h), used by the early test of a warp's lanes
 * (pipe_om_early32.c) and of a small triangle's box (pipe_box_early.c). Include only
 * where __x86_64__ and GCC's intrinsics are available. */
#ifndef TEXVM_PIPE_OM_CMP16_H
#define TEXVM_PIPE_OM_CMP16_H

#include <immintrin.h>
#include <stdbool.h>
#include <stdint.h>

#include "pipe_om.h"

/* The lanes of K whose fragment depth ZQ passes FUNC against the stored field F: the
 * unordered predicates where C's `!=` is true for a NaN, ordered otherwise, as
 * om_compare_f's relations; unsigned integers on UNORM targets. */
static inline __attribute__((target("avx512f"))) __mmask16
om_cmp16_depth(uint8_t func, bool is_float, __mmask16 k, __m512i zq, __m512i f)
{
    if (is_float) {
        __m512 a = _mm512_castsi512_ps(zq), b = _mm512_castsi512_ps(f);
        switch (func) {
        case OM_FUNC_NEVER: return 0;
        case OM_FUNC_LESS: return _mm512_mask_cmp_ps_mask(k, a, b, _CMP_LT_OQ);
        case OM_FUNC_EQUAL: return _mm512_mask_cmp_ps_mask(k, a, b, _CMP_EQ_OQ);
        case OM_FUNC_LEQUAL: return _mm512_mask_cmp_ps_mask(k, a, b, _CMP_LE_OQ);
        case OM_FUNC_GREATER: return _mm512_mask_cmp_ps_mask(k, a, b, _CMP_GT_OQ);
        case OM_FUNC_NOTEQUAL: return _mm512_mask_cmp_ps_mask(k, a, b, _CMP_NEQ_UQ);
        case OM_FUNC_GEQUAL: return _mm512_mask_cmp_ps_mask(k, a, b, _CMP_GE_OQ);
        default: return k;   /* ALWAYS */
        }
    }
    switch (func) {
    case OM_FUNC_NEVER: return 0;
    case OM_FUNC_LESS: return _mm512_mask_cmp_epu32_mask(k, zq, f, _MM_CMPINT_LT);
    case OM_FUNC_EQUAL: return _mm512_mask_cmp_epu32_mask(k, zq, f, _MM_CMPINT_EQ);
    case OM_FUNC_LEQUAL: return _mm512_mask_cmp_epu32_mask(k, zq, f, _MM_CMPINT_LE);
    case OM_FUNC_GREATER: return _mm512_mask_cmp_epu32_mask(k, zq, f, _MM_CMPINT_NLE);
    case OM_FUNC_NOTEQUAL: return _mm512_mask_cmp_epu32_mask(k, zq, f, _MM_CMPINT_NE);
    case OM_FUNC_GEQUAL: return _mm512_mask_cmp_epu32_mask(k, zq, f, _MM_CMPINT_NLT);
    default: return k;   /* ALWAYS */
    }
}

#endif
