/* The coverage_quads hook's contract, checked (vm_stage_frag_quads.h). The packer trusts
 * it (distinct pixels, lanes of the box), so every add checks every quad. A triangle of
 * the mesh scene returns four quads or so: the plain loop, a loop-carried order key and an
 * exit that depends on the count, was 3 % of bench_draw's mesh (1.5 ms, cut measured
 * against the same build, six alternations); the AVX-512 kernel tests the 16 quads at once
 * under a mask, without a branch, and the AVX2 kernel eight at a time.
 *
 * Row order is the order of the keys y * 2^32 + (x & 0xffff) (the loop's): for y, x in
 * the box both are within 16 bits, and the comparison of two keys is that of (y, x &
 * 0xffff) taken in turn, which is what the kernel compares, so the bits agree for every
 * input, inside the box or not. */
#include "vm/vm_stage_frag_quads.h"
#include "vm/vm_stage_frag_store.h"

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
    /* whole loads (the lanes past N tested and dropped): a load under a mask waited for
       the hook's stores to reach the cache, a whole one takes a whole store's words from
       the store queue (pipe_box_early.c's AVX-512 kernel stores them so) */
    const __m512i x = _mm512_loadu_si512(qx), y = _mm512_loadu_si512(qy);
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

#if QUADS_X86
/* The AVX-512 kernel's tests on eight quads a vector, two vectors at most: the counts'
 * lanes by masked loads (the lanes past them read as 0 and are dropped), each quad's
 * predecessor one lane up, lane 0's the previous vector's last (the first vector's the
 * loop's key -1, as above). */
__attribute__((target("avx2"))) static uint32_t quads_bad_avx2(const int32_t box[4],
                                                              const int32_t *qx,
                                                              const int32_t *qy, int n)
{
    const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    const __m256i up = _mm256_setr_epi32(7, 0, 1, 2, 3, 4, 5, 6); /* lane i - 1, 0 from 7 */
    const __m256i one = _mm256_set1_epi32(1), low = _mm256_set1_epi32(0xffff);
    const __m256i x0 = _mm256_set1_epi32(box[0] & ~1), x1 = _mm256_set1_epi32(box[2]);
    const __m256i y0 = _mm256_set1_epi32(box[1] & ~1), y1 = _mm256_set1_epi32(box[3]);
    __m256i lastx = low, lasty = _mm256_set1_epi32(-1);
    uint32_t bad = 0;
    for (int h = 0; 8 * h < n; h++) {
        const __m256i k = _mm256_cmpgt_epi32(_mm256_set1_epi32(n - 8 * h), lane);
        const __m256i x = _mm256_maskload_epi32(qx + 8 * h, k);
        const __m256i y = _mm256_maskload_epi32(qy + 8 * h, k);
        /* (x >= b as not b > x: the comparisons are signed, as the loop's) */
        __m256i b = _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_or_si256(x, y), one), one);
        b = _mm256_or_si256(b, _mm256_cmpgt_epi32(x0, x));
        b = _mm256_or_si256(b, _mm256_andnot_si256(_mm256_cmpgt_epi32(x1, x), k));
        b = _mm256_or_si256(b, _mm256_cmpgt_epi32(y0, y));
        b = _mm256_or_si256(b, _mm256_andnot_si256(_mm256_cmpgt_epi32(y1, y), k));
        const __m256i xm = _mm256_and_si256(x, low);
        const __m256i px = _mm256_blend_epi32(_mm256_permutevar8x32_epi32(xm, up),
                                              _mm256_permutevar8x32_epi32(lastx, up), 1);
        const __m256i py = _mm256_blend_epi32(_mm256_permutevar8x32_epi32(y, up),
                                              _mm256_permutevar8x32_epi32(lasty, up), 1);
        const __m256i after = _mm256_or_si256(
            _mm256_cmpgt_epi32(y, py),
            _mm256_and_si256(_mm256_cmpeq_epi32(y, py), _mm256_cmpgt_epi32(xm, px)));
        b = _mm256_and_si256(_mm256_or_si256(b, _mm256_andnot_si256(after, k)), k);
        bad |= (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(b)) << (8 * h);
        lastx = xm;
        lasty = y;
    }
    return bad;
}
#endif

uint32_t vm_frag_quads_bad(const int32_t box[4], const int32_t *qx, const int32_t *qy, int n,
                           unsigned isa)
{
#if QUADS_X86
    if (isa >= VM_STORE_AVX512)
        return quads_bad_avx512(box, qx, qy, n);
    if (isa >= VM_STORE_AVX2)
        return quads_bad_avx2(box, qx, qy, n);
#endif
    (void)isa;
    return quads_bad_c(box, qx, qy, n);
}
