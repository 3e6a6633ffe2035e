/* The early depth test of a warp's lanes on a 4-byte depth target without a stencil test
 * (pipe_om.h, om_early_depth32): every lane through om_depth_test32_word against its own
 * texel. Two kernels, the same answers bit for bit (tests/pipe/test_om_early32.c compares
 * them on every compare function, write mask and 4-byte depth layout, NaNs and denormals
 * included):
 *  - lane by lane, the reference and the kernel of machines without AVX-512;
 *  - sixteen lanes at a time with AVX-512: the texels gathered, the stored field compared
 *    with the predicate of the depth function (the unordered ones where C's `!=` is true
 *    for a NaN, ordered otherwise, as om_compare_f's relations), the changed words
 *    scattered back. A small triangle's ten or so pixels took a loop iteration and its
 *    branches each: a fifth of the mesh scene's coverage work (docs/history/performance-log.md §20.2). */
#include "pipe_om.h"

#if defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>
#define E32_X86 1
#else
#define E32_X86 0
#endif

uint32_t om_early_depth32_lanes(const om_dsa *s, const om_zs_target *t, uint8_t *base,
                                size_t stride, const int32_t x[32], const int32_t y[32],
                                const uint32_t zq[32], uint32_t inside, uint32_t smask,
                                uint32_t cov[32])
{
    /* every lane's word loaded first, then tested and stored (the lanes are distinct
       texels, so no store changes a later lane's word): a quad's lower row lies 4 KiB after
       its upper one in a 1024-pixel-wide buffer, so its loads, made right after the upper
       row's stores, waited on them (4 KiB aliasing) */
    uint32_t old[32], test = 0, pass = 0;
    uint8_t *texel[32];
    for (uint32_t m = inside; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        if (!(cov[l] & smask)) {
            cov[l] = 0;
            continue;
        }
        test |= 1u << l;
        texel[l] = base + stride * (size_t)y[l] + 4u * (size_t)x[l];
        memcpy(&old[l], texel[l], 4);
    }
    for (uint32_t m = test; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        uint32_t w;
        bool p = om_depth_test32_word(s, t, zq[l], old[l], &w);
        if (w != old[l])
            memcpy(texel[l], &w, 4);
        cov[l] = p;
        pass |= (uint32_t)p << l;
    }
    return pass;
}

#if E32_X86
#define E32_TARGET __attribute__((target("avx512f")))
#include "pipe_om_cmp16.h"

/* om_early_depth32_lanes with AVX-512: texel l at element y[l] stride / 4 + x[l] of BASE
 * (the caller checks that every such index fits 31 bits and STRIDE is a multiple of 4). */
E32_TARGET static uint32_t early_avx512(const om_dsa *s, const om_zs_target *t, uint8_t *base,
                                        size_t stride, const int32_t x[32],
                                        const int32_t y[32], const uint32_t zq[32],
                                        uint32_t inside, uint32_t smask, uint32_t cov[32])
{
    const __m512i row = _mm512_set1_epi32((int32_t)(stride / 4));
    const __m512i dmask = _mm512_set1_epi32((int32_t)(uint32_t)t->depth_mask);
    const __m512i sm = _mm512_set1_epi32((int32_t)smask), one = _mm512_set1_epi32(1);
    const __m128i shift = _mm_cvtsi32_si128(t->depth_shift);
    uint32_t pass = 0;
    for (unsigned h = 0; h < 32; h += 16) {
        const __mmask16 in = (__mmask16)(inside >> h);
        if (!in)
            continue;
        /* the lanes inside with a sample the mask keeps are tested; the other inside
           lanes come out uncovered */
        __m512i c = _mm512_loadu_si512(&cov[h]);
        const __mmask16 k = _mm512_mask_test_epi32_mask(in, c, sm);
        __m512i idx = _mm512_add_epi32(_mm512_mullo_epi32(_mm512_loadu_si512(&y[h]), row),
                                       _mm512_loadu_si512(&x[h]));
        __m512i old = _mm512_mask_i32gather_epi32(_mm512_setzero_si512(), k, idx, base, 4);
        __m512i f = _mm512_srl_epi32(_mm512_and_si512(old, dmask), shift);
        __m512i z = _mm512_loadu_si512(&zq[h]);
        __mmask16 p = om_cmp16_depth(s->depth_func, t->depth_float, k, z, f);
        if (p && s->depth_writemask) {
            /* om_depth_test32_word's update, stored where it changes the word */
            __m512i w = _mm512_or_si512(_mm512_andnot_si512(dmask, old),
                                        _mm512_and_si512(_mm512_sll_epi32(z, shift), dmask));
            __mmask16 st = _mm512_mask_cmpneq_epi32_mask(p, w, old);
            _mm512_mask_i32scatter_epi32(base, st, idx, w, 4);
        }
        /* cov: 1 where it passed, 0 for the other inside lanes, the rest unchanged */
        c = _mm512_mask_mov_epi32(c, in, _mm512_maskz_mov_epi32(p, one));
        _mm512_storeu_si512(&cov[h], c);
        pass |= (uint32_t)p << h;
    }
    return pass;
}
#endif

uint32_t om_early_depth32(const om_dsa *s, const om_zs_target *t, uint8_t *base, size_t stride,
                          uint32_t rows, const int32_t x[32], const int32_t y[32],
                          const uint32_t zq[32], uint32_t inside, uint32_t smask,
                          uint32_t cov[32], bool wide)
{
#if E32_X86
    /* the gather's element indices: below 2^31 for every texel of the ROWS rows */
    if (wide && stride % 4 == 0 && (uint64_t)(stride / 4) * rows <= (uint64_t)INT32_MAX)
        return early_avx512(s, t, base, stride, x, y, zq, inside, smask, cov);
#else
    (void)rows;
    (void)wide;
#endif
    return om_early_depth32_lanes(s, t, base, stride, x, y, zq, inside, smask, cov);
}
