/* The merger's lanes of a warp as bits (pipe_om_lanes.h). */
#include "pipe_om_lanes.h"

#include "pipe_om.h"

#if defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>
#endif

_Static_assert(OM_LANES == 32, "a warp's lanes are the bits of a uint32_t");
enum { LANES = OM_LANES };

/* every lane at once, without branches or variable shifts (a tile's lanes are mostly
   live): the lanes' bits from a table, so the loops vectorise */
static const uint32_t lane_bit[LANES] = {
    1u << 0,  1u << 1,  1u << 2,  1u << 3,  1u << 4,  1u << 5,  1u << 6,  1u << 7,
    1u << 8,  1u << 9,  1u << 10, 1u << 11, 1u << 12, 1u << 13, 1u << 14, 1u << 15,
    1u << 16, 1u << 17, 1u << 18, 1u << 19, 1u << 20, 1u << 21, 1u << 22, 1u << 23,
    1u << 24, 1u << 25, 1u << 26, 1u << 27, 1u << 28, 1u << 29, 1u << 30, 1u << 31};

#if defined(__GNUC__) && defined(__x86_64__)
/* (the baseline's SSE form of the loop below was about 3 % of the blend scene) */
__attribute__((target("avx512f"))) static uint32_t covered_avx512(const uint32_t *coverage)
{
    const __m512i one = _mm512_set1_epi32(1);
    return (uint32_t)_mm512_test_epi32_mask(_mm512_loadu_si512(coverage), one) |
           (uint32_t)_mm512_test_epi32_mask(_mm512_loadu_si512(coverage + 16), one) << 16;
}
#endif

#if defined(__GNUC__) && defined(__x86_64__)
/* Bit 0 of each of eight words, as the sign bits that movemask takes. */
__attribute__((target("avx2"))) static uint32_t bit0_avx2(const uint32_t *w)
{
    const __m256i v = _mm256_slli_epi32(_mm256_loadu_si256((const __m256i *)(const void *)w), 31);
    return (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(v));
}

__attribute__((target("avx2"))) static uint32_t covered_avx2(const uint32_t *coverage)
{
    uint32_t m = 0;
    for (unsigned q = 0; q < LANES; q += 8)
        m |= bit0_avx2(coverage + q) << q;
    return m;
}
#endif

uint32_t om_lanes_covered(const uint32_t *coverage, om_isa isa)
{
#if defined(__GNUC__) && defined(__x86_64__)
    if (isa == OM_ISA_AVX512)
        return covered_avx512(coverage);
    if (isa == OM_ISA_AVX2)
        return covered_avx2(coverage);
#else
    (void)isa;
#endif
    uint32_t m = 0;
    for (unsigned l = 0; l < LANES; l++)
        m |= lane_bit[l] & (0u - (coverage[l] & 1u));
    return m;
}

#if defined(__GNUC__) && defined(__x86_64__)
/* 0 <= x < W as one unsigned comparison, 16 lanes a half. The packed quads of small
 * triangles take the bounds test, which the baseline's SSE form of the loop below made
 * about 2 % of the mesh scene (bench_draw). */
__attribute__((target("avx512f"))) static uint32_t
in_target_avx512(const int32_t *x, const int32_t *y, const uint32_t *coverage, int32_t W,
                 int32_t H)
{
    uint32_t m = 0;
    for (unsigned h = 0; h < LANES; h += 16) {
        const __mmask16 k = _mm512_mask_cmplt_epu32_mask(
            _mm512_cmplt_epu32_mask(_mm512_loadu_si512(x + h), _mm512_set1_epi32(W)),
            _mm512_loadu_si512(y + h), _mm512_set1_epi32(H));
        m |= (uint32_t)_mm512_mask_test_epi32_mask(k, _mm512_loadu_si512(coverage + h),
                                                   _mm512_set1_epi32(1))
             << h;
    }
    return m;
}
#endif

#if defined(__GNUC__) && defined(__x86_64__)
/* The same, eight lanes a step: 0 <= x < W as W > x and x > -1 (signed comparisons only in
 * AVX2), the coverage's bit 0 as the sign bit. The scalar loop took about 1 % of the mesh
 * scene's instructions under the AVX2 ceiling (bench_draw). */
__attribute__((target("avx2"))) static uint32_t
in_target_avx2(const int32_t *x, const int32_t *y, const uint32_t *coverage, int32_t W,
               int32_t H)
{
    const __m256i w = _mm256_set1_epi32(W), h = _mm256_set1_epi32(H);
    const __m256i neg = _mm256_set1_epi32(-1);
    uint32_t m = 0;
    for (unsigned q = 0; q < LANES; q += 8) {
        const __m256i xv = _mm256_loadu_si256((const __m256i *)(const void *)(x + q));
        const __m256i yv = _mm256_loadu_si256((const __m256i *)(const void *)(y + q));
        const __m256i c = _mm256_slli_epi32(
            _mm256_loadu_si256((const __m256i *)(const void *)(coverage + q)), 31);
        const __m256i in = _mm256_and_si256(
            _mm256_and_si256(_mm256_cmpgt_epi32(w, xv), _mm256_cmpgt_epi32(xv, neg)),
            _mm256_and_si256(_mm256_cmpgt_epi32(h, yv), _mm256_cmpgt_epi32(yv, neg)));
        m |= (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_and_si256(in, c))) << q;
    }
    return m;
}
#endif

uint32_t om_lanes_in_target(const int32_t *x, const int32_t *y, const uint32_t *coverage,
                            int32_t W, int32_t H, om_isa isa)
{
#if defined(__GNUC__) && defined(__x86_64__)
    if (isa == OM_ISA_AVX512)
        return in_target_avx512(x, y, coverage, W, H);
    if (isa == OM_ISA_AVX2)
        return in_target_avx2(x, y, coverage, W, H);
#else
    (void)isa;
#endif
    uint32_t m = 0;
    for (unsigned l = 0; l < LANES; l++) {
        uint32_t in = (uint32_t)(x[l] >= 0) & (uint32_t)(y[l] >= 0) & (uint32_t)(x[l] < W) &
                      (uint32_t)(y[l] < H) & coverage[l];
        m |= lane_bit[l] & (0u - (in & 1u));
    }
    return m;
}
