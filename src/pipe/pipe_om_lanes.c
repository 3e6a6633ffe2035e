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

uint32_t om_lanes_covered(const uint32_t *coverage, bool avx512)
{
#if defined(__GNUC__) && defined(__x86_64__)
    if (avx512)
        return covered_avx512(coverage);
#else
    (void)avx512;
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

uint32_t om_lanes_in_target(const int32_t *x, const int32_t *y, const uint32_t *coverage,
                            int32_t W, int32_t H, bool avx512)
{
#if defined(__GNUC__) && defined(__x86_64__)
    if (avx512)
        return in_target_avx512(x, y, coverage, W, H);
#else
    (void)avx512;
#endif
    uint32_t m = 0;
    for (unsigned l = 0; l < LANES; l++) {
        uint32_t in = (uint32_t)(x[l] >= 0) & (uint32_t)(y[l] >= 0) & (uint32_t)(x[l] < W) &
                      (uint32_t)(y[l] < H) & coverage[l];
        m |= lane_bit[l] & (0u - (in & 1u));
    }
    return m;
}
