/* The tile formulas of vm_stage_frag_interp.h on 16 lanes (AVX-512) and on 8 (AVX2), for the
 * passes that give their bits with one register a number: the tile walk's inputs
 * (vm_stage_frag_tile.c, 16) and the packed groups' deferred inputs
 * (vm_stage_frag_defer.c, both widths). The same IEEE operations in the
 * same order as the C (vm_frag_edge_plain, interp_tile's persp_terms and its
 * v0 + w1 (v1 - v0) + w2 (v2 - v0)); intrinsics are plain operations and C11 without
 * -ffp-contract=fast contracts none of them. Include only on x86-64 with GCC or clang. */
#ifndef TEXVM_VM_STAGE_FRAG_FORMULAS16_H
#define TEXVM_VM_STAGE_FRAG_FORMULAS16_H

#include <immintrin.h>

/* vm_frag_edge_plain: (bx - ax)(py - ay) - (by - ay)(px - ax) */
__attribute__((target("avx512f"))) static inline __m512
vm_frag_edge16(__m512 ax, __m512 ay, __m512 bx, __m512 by, __m512 px, __m512 py)
{
    return _mm512_sub_ps(_mm512_mul_ps(_mm512_sub_ps(bx, ax), _mm512_sub_ps(py, ay)),
                         _mm512_mul_ps(_mm512_sub_ps(by, ay), _mm512_sub_ps(px, ax)));
}

/* persp_terms' normaliser from its terms a, b, c: their sum (a + b) + c, plus 1 where it is
 * ±0 and + (+0) elsewhere (sum + (float)(sum == 0)). Taken here as 1 where the sum is ±0
 * and the sum itself elsewhere, the same bits with one operation less in the chain the
 * program waits for: ±0 + 1 is 1, and x + (+0) is x for every other sum an addition gives
 * (a quiet NaN keeps its bits; a denormal is either kept, or read as 0 by the compare
 * where denormals are flushed, as by the addition) */
__attribute__((target("avx512f"))) static inline __m512 vm_frag_persp_d16(__m512 a, __m512 b,
                                                                         __m512 c)
{
    const __m512 sum = _mm512_add_ps(_mm512_add_ps(a, b), c);
    return _mm512_mask_blend_ps(_mm512_cmp_ps_mask(sum, _mm512_setzero_ps(), _CMP_EQ_OQ), sum,
                                _mm512_set1_ps(1.0f));
}

/* v0 + w1 d1 + w2 d2, d1 = v1 - v0 and d2 = v2 - v0 */
__attribute__((target("avx512f"))) static inline __m512
vm_frag_lerp16(__m512 v0, __m512 w1, __m512 d1, __m512 w2, __m512 d2)
{
    return _mm512_add_ps(_mm512_add_ps(v0, _mm512_mul_ps(w1, d1)), _mm512_mul_ps(w2, d2));
}

/* The same three on 8 lanes (AVX2) */
__attribute__((target("avx2"))) static inline __m256
vm_frag_edge8(__m256 ax, __m256 ay, __m256 bx, __m256 by, __m256 px, __m256 py)
{
    return _mm256_sub_ps(_mm256_mul_ps(_mm256_sub_ps(bx, ax), _mm256_sub_ps(py, ay)),
                         _mm256_mul_ps(_mm256_sub_ps(by, ay), _mm256_sub_ps(px, ax)));
}

__attribute__((target("avx2"))) static inline __m256 vm_frag_persp_d8(__m256 a, __m256 b,
                                                                      __m256 c)
{
    const __m256 sum = _mm256_add_ps(_mm256_add_ps(a, b), c);
    return _mm256_blendv_ps(sum, _mm256_set1_ps(1.0f),
                            _mm256_cmp_ps(sum, _mm256_setzero_ps(), _CMP_EQ_OQ));
}

__attribute__((target("avx2"))) static inline __m256
vm_frag_lerp8(__m256 v0, __m256 w1, __m256 d1, __m256 w2, __m256 d2)
{
    return _mm256_add_ps(_mm256_add_ps(v0, _mm256_mul_ps(w1, d1)), _mm256_mul_ps(w2, d2));
}

#endif
