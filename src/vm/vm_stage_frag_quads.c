/* The coverage_quads hook's contract, checked (vm_stage_frag_quads.h). The packer trusts
 * it (distinct pixels, lanes of the box), so every add checks every quad. A triangle of
 * the mesh scene returns four quads or so: the plain loop, a loop-carried order key and an
 * exit that depends on the count, was 3 % of bench_draw's mesh (1.5 ms, cut measured
 * against the same build, six alternations); the AVX-512 kernel tests the 16 quads at once
 * under a mask, without a branch.
 *
 * Row order is the order of the keys y * 2^32 + (x & 0xffff) (the loop's): for y, x in
 * the box both are within 16 bits, and the comparison of two keys is that of (y, x &
 * 0xffff) taken in turn, which is what the kernel compares, so the bits agree for every
 * input, inside the box or not. */
#include "vm/vm_stage_frag_quads.h"

#if defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>
#define QUADS_X86 1
#else
#define QUADS_X86 0
#endif

static uint32_t quads_bad_c(const int32_t box[4], const int32_t *qx, const int32_t *qy, int n)
{
    uint32_t bad = 0;
    int64_t prev = -1;
    for (int i = 0; i < n; i++) {
        const int32_t x = qx[i], y = qy[i];
        const int64_t key = (int64_t)y * 65536 * 65536 + (x & 0xffff);
        bad |= ((uint32_t)((x | y) & 1) | (uint32_t)(x < (box[0] & ~1)) |
                (uint32_t)(x >= box[2]) | (uint32_t)(y < (box[1] & ~1)) |
                (uint32_t)(y >= box[3]) | (uint32_t)(key <= prev)) << i;
        prev = key;
    }
    return bad;
}

#if QUADS_X86
__attribute__((target("avx512f"))) static uint32_t quads_bad_avx512(const int32_t box[4],
                                                                    const int32_t *qx,
                                                                    const int32_t *qy, int n)
{
    const __mmask16 k = (__mmask16)((1u << n) - 1u);
    const __m512i x = _mm512_maskz_loadu_epi32(k, qx), y = _mm512_maskz_loadu_epi32(k, qy);
    __mmask16 bad = _mm512_test_epi32_mask(_mm512_or_si512(x, y), _mm512_set1_epi32(1));
    bad |= _mm512_cmplt_epi32_mask(x, _mm512_set1_epi32(box[0] & ~1));
    bad |= _mm512_cmpge_epi32_mask(x, _mm512_set1_epi32(box[2]));
    bad |= _mm512_cmplt_epi32_mask(y, _mm512_set1_epi32(box[1] & ~1));
    bad |= _mm512_cmpge_epi32_mask(y, _mm512_set1_epi32(box[3]));
    /* each quad's predecessor, one lane up; quad 0's the loop's key -1: (y, x) = (-1,
       0xffff), after which only a row of 0 or more comes */
    const __m512i xm = _mm512_and_si512(x, _mm512_set1_epi32(0xffff));
    const __m512i px = _mm512_alignr_epi32(xm, _mm512_set1_epi32(0xffff), 15);
    const __m512i py = _mm512_alignr_epi32(y, _mm512_set1_epi32(-1), 15);
    const __mmask16 after = _mm512_cmpgt_epi32_mask(y, py) |
                            (_mm512_cmpeq_epi32_mask(y, py) & _mm512_cmpgt_epi32_mask(xm, px));
    return (uint32_t)((bad | (__mmask16)~after) & k);
}
#endif

uint32_t vm_frag_quads_bad(const int32_t box[4], const int32_t *qx, const int32_t *qy, int n,
                           bool avx512)
{
#if QUADS_X86
    if (avx512)
        return quads_bad_avx512(box, qx, qy, n);
#endif
    (void)avx512;
    return quads_bad_c(box, qx, qy, n);
}
