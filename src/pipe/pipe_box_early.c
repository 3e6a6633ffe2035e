/* The rasteriser's coverage and the early depth test of a small triangle's box in one
 * AVX-512 pass (pipe_box_early.h). The mesh of many small triangles took them in four
 * passes through memory: the box's covered quads compressed into lane arrays
 * (raster_box_quads), the lanes past them filled, the depths of 16 or 32 lanes computed
 * (early_depths32) and tested (om_early_depth32), their passes counted lane by lane, and
 * the quads that kept a lane copied out one by one — 9.5 of the scene's 45 ms. Here 16
 * pixels of the box — two rows of eight, or four rows of four where the box is at most two
 * quads wide (the hook passes the hull box, pipe_draw_tri.c: the mesh's triangles are 2x3
 * quads, two steps instead of three) — stay in registers from their edge values to the
 * quads they keep, in the order of the rows, so that their depth words are masked loads
 * and stores of the box's columns with no permutation (a gather and a scatter per step,
 * tried first, were two fifths of the kernel's time; the engine's quad order, used
 * before, cost three permutes a step). Only the mask of the lanes that passed is put in
 * quad order, by bit operations.
 *
 * The results are those of that path bit for bit (tests/pipe/test_box_early.c compares
 * them, and the pictures of tests/pipe/test_draw_om_warp.c are the plain interpreter's):
 * the same integer edge values (pipe_raster_box.h), the depth plane's double operations in
 * the same order without contraction (z0 + zx (px - zpx) is the same for every row and is
 * computed once), the conversions under the same MXCSR rounding (vcvtpd2ps and vcvtpd2udq
 * round as C's conversion and nearbyint do in the default mode), and the depth test's
 * comparison shared with the warp's kernel (pipe_om_cmp16.h). */
#include "pipe_box_early.h"

#if defined(__GNUC__) && defined(__x86_64__)
#include "pipe_om_cmp16.h"
#include "util/wide_vectors.h"

/* Two vectors of eight doubles' float conversions as one vector of sixteen floats. */
RASTER_BOX_AVX512 static inline __m512 floats16(__m512d lo, __m512d hi)
{
    const __m256 l = _mm512_cvtpd_ps(lo), h = _mm512_cvtpd_ps(hi);
    return _mm512_castpd_ps(_mm512_insertf64x4(_mm512_castpd256_pd512(_mm256_castps_pd(l)),
                                               _mm256_castps_pd(h), 1));
}

/* The lanes' quantised depths from the row's plane values S (two halves of eight):
 * (float)S + zoffset clamped to [0, 1] (NaN to 0), then the float's bits or
 * round(z unorm_max). */
RASTER_BOX_AVX512 static inline __m512i quantise16(const box_early *e, bool zfloat,
                                                   __m512d slo, __m512d shi)
{
    __m512 z = _mm512_add_ps(floats16(slo, shi), _mm512_set1_ps(e->zoffset));
    const __m512 one = _mm512_set1_ps(1.0f);
    z = _mm512_maskz_mov_ps(_mm512_cmp_ps_mask(z, _mm512_setzero_ps(), _CMP_GE_OQ), z);
    z = _mm512_mask_mov_ps(z, _mm512_cmp_ps_mask(z, one, _CMP_GT_OQ), one);
    if (zfloat)
        return _mm512_castps_si512(z);
    const __m512d m = _mm512_set1_pd(e->zs->unorm_max);
    const __m256i lo = _mm512_cvtpd_epu32(
        _mm512_mul_pd(_mm512_cvtps_pd(_mm512_castps512_ps256(z)), m));
    const __m256i hi = _mm512_cvtpd_epu32(_mm512_mul_pd(
        _mm512_cvtps_pd(_mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(z), 1))), m));
    return _mm512_inserti64x4(_mm512_castsi256_si512(lo), hi, 1);
}

/* The lanes of a step are rows of C pixels (pipe_raster_box.h's row order): row j of the
 * box's texels is elements C j to C j + C - 1 of one vector, read and written by masked
 * loads and stores, and only the lanes that passed go to the engine's quad order (lane
 * 4 q + j of quad q, j = 0 TL, 1 TR, 2 BL, 3 BR), as a 16-bit mask. */

/* Row j of C texels from T0 as elements C j to C j + C - 1 of a vector: 4 C j bytes before
 * the row (an address that may lie before the target: integers, not pointer arithmetic) */
static inline void *row_vector(uint8_t *t0, size_t stride, unsigned j, unsigned C)
{
    return (void *)((uintptr_t)t0 + j * stride - 4u * C * j);
}

/* Lane bits in quad order from bits in row order. C = 8: quad q's TL, TR are elements
 * 2 q, 2 q + 1, its BL, BR 8 + 2 q, 9 + 2 q. C = 4 (quads TL-first in row order: (0, 0),
 * (0, 2), (2, 0), (2, 2)): elements 2-3 and 4-5 trade places, and 10-11 and 12-13. */
static inline uint32_t pairs_spread(uint32_t x)   /* bits 2q, 2q+1 -> 4q, 4q+1 (x < 256) */
{
    const uint32_t t = (x | x << 4) & 0x0f0fu;
    return (t | t << 2) & 0x3333u;
}

static inline uint32_t quad_order(uint32_t m, unsigned C)
{
    return C == 8 ? pairs_spread(m & 0xffu) | pairs_spread(m >> 8) << 2
                  : (m & 0xc3c3u) | ((m & 0x3030u) >> 2) | ((m & 0x0c0cu) << 2);
}

/* The pass over the box's row steps, rows of C pixels a step (a constant where the kernel
 * below inlines it twice). */
RASTER_BOX_AVX512 static TV_ALWAYS_INLINE int box_early_steps(
    const raster_box *rb, const box_early *e, const raster_box_lanes *L, unsigned steps,
    unsigned C, int32_t qx[16], int32_t qy[16], uint32_t cov[64], uint32_t passed[3])
{
    const unsigned R = 16 / C;   /* rows of pixels a step */
    const __m512i px = _mm512_add_epi32(L->dx, _mm512_set1_epi32(rb->x0));
    const __m512i one = _mm512_set1_epi32(1);
    /* z0 + zx (x + 0.5 - zpx), the same at every row step (early_depths_n's first sum) */
    const __m512d half = _mm512_set1_pd(0.5), zpx = _mm512_set1_pd(e->zpx),
                  zx = _mm512_set1_pd(e->zx), z0 = _mm512_set1_pd(e->z0),
                  zpy = _mm512_set1_pd(e->zpy), zy = _mm512_set1_pd(e->zy);
    __m512d sx[2];
    for (unsigned h = 0; h < 2; h++) {
        const __m256i xi = h ? _mm512_extracti64x4_epi64(px, 1) : _mm512_castsi512_si256(px);
        sx[h] = _mm512_add_pd(
            z0, _mm512_mul_pd(zx, _mm512_sub_pd(_mm512_add_pd(_mm512_cvtepi32_pd(xi), half), zpx)));
    }
    const __m512i dmask = _mm512_set1_epi32((int32_t)(uint32_t)e->zs->depth_mask);
    const __m128i shift = _mm_cvtsi32_si128(e->zs->depth_shift);
    /* (the state's fields once: the stores below may alias them for the compiler) */
    const uint8_t func = e->dsa->depth_func;
    const bool zfloat = e->zs->depth_float, write = e->dsa->depth_writemask;
    /* the box's columns of the C from x0: every texel loaded or stored lies in the box,
       inside the target (or in its first row of quads, even, inside the target too) */
    const uint32_t cols = (((1u << rb->bx1) - 1u) & ~((1u << rb->bx0) - 1u));
    /* the quads' TL lanes: even columns of rows 0 (and 2) */
    const uint32_t tl_rows = C == 8 ? 0x0055u : 0x0505u;
    int n = 0;
    for (unsigned r = 0; r < steps; r++) {
        const __mmask16 k = raster_box_row(rb, L, r);
        if (!k)
            continue;
        const int32_t y = rb->y0 + L->step * (int32_t)r;
        const __m512i py = _mm512_add_epi32(L->dy, _mm512_set1_epi32(y));
        __m512d s[2];
        for (unsigned h = 0; h < 2; h++) {
            const __m256i yi = h ? _mm512_extracti64x4_epi64(py, 1) : _mm512_castsi512_si256(py);
            s[h] = _mm512_add_pd(sx[h], _mm512_mul_pd(zy, _mm512_sub_pd(_mm512_add_pd(
                                                                        _mm512_cvtepi32_pd(yi), half),
                                                                    zpy)));
        }
        const __m512i z = quantise16(e, zfloat, s[0], s[1]);
        /* the rows' texels inside the box (the masked-off elements are not read) */
        uint8_t *const t0 = e->base + e->stride * (size_t)y + 4 * (size_t)rb->x0;
        __m512i old = _mm512_setzero_si512();
        for (unsigned j = 0; j < R; j++)
            if (j == 0 || y + (int32_t)j - rb->y0 < rb->by1)
                old = _mm512_or_si512(old, _mm512_maskz_loadu_epi32(
                                               (__mmask16)(cols << (C * j)),
                                               row_vector(t0, e->stride, j, C)));
        const __m512i f = _mm512_srl_epi32(_mm512_and_si512(old, dmask), shift);
        const __mmask16 p = om_cmp16_depth(func, zfloat, k, z, f);
        if (!p)
            continue;
        if (write) {
            const __m512i w = _mm512_or_si512(_mm512_andnot_si512(dmask, old),
                                              _mm512_and_si512(_mm512_sll_epi32(z, shift), dmask));
            /* (the lanes that passed lie in the box: covered, so in its rows and columns) */
            const __mmask16 st = _mm512_mask_cmpneq_epi32_mask(p, w, old);
            for (unsigned j = 0; j < R && st; j++)
                _mm512_mask_storeu_epi32(row_vector(t0, e->stride, j, C),
                                         (__mmask16)(st & (((1u << C) - 1u) << (C * j))), w);
        }
        /* the passes per row of tiles: rows 0-3 of a step of four rows are rows y .. y + 3,
           whose first two and last two may lie in different rows of tiles */
        if (C == 8) {
            passed[((uint32_t)y >> 2) - ((uint32_t)rb->y0 >> 2)] += (uint32_t)__builtin_popcount(p);
        } else {
            passed[((uint32_t)y >> 2) - ((uint32_t)rb->y0 >> 2)] +=
                (uint32_t)__builtin_popcount(p & 0xffu);
            passed[((uint32_t)(y + 2) >> 2) - ((uint32_t)rb->y0 >> 2)] +=
                (uint32_t)__builtin_popcount((uint32_t)p >> 8);
        }
        /* the quads with a lane that passed (their TL lanes in row order, which is the
           quads' row order), compressed; their lanes' passes in quad order */
        uint32_t q = (uint32_t)p | (uint32_t)p >> 1;
        q |= q >> C;
        const __mmask16 tl = (__mmask16)(q & tl_rows);
        const unsigned cnt = (unsigned)__builtin_popcount(tl);
        const __mmask16 first = (__mmask16)((1u << cnt) - 1u);
        _mm512_mask_storeu_epi32(qx + n, first, _mm512_maskz_compress_epi32(tl, px));
        _mm512_mask_storeu_epi32(qy + n, first, _mm512_maskz_compress_epi32(tl, py));
        const uint32_t pq = quad_order(p, C);
        _mm512_mask_storeu_epi32(cov + 4 * n, (__mmask16)((1u << (4 * cnt)) - 1u),
                                 _mm512_maskz_compress_epi32(
                                     (__mmask16)(raster_box_quads_of((__mmask16)pq) * 0xfu),
                                     _mm512_maskz_mov_epi32((__mmask16)pq, one)));
        n += (int)cnt;
    }
    return n;
}

RASTER_BOX_AVX512 static int box_early_avx512(const raster_box *rb, const box_early *e,
                                              int32_t qx[16], int32_t qy[16], uint32_t cov[64],
                                              uint32_t passed[3])
{
    passed[0] = passed[1] = passed[2] = 0;
    if (!e->test)
        return 0;   /* no covered lane is tested: none survives */
    raster_box_lanes L;
    if (rb->bx1 <= 4) {
        /* two quads wide at most: four rows of four pixels a step (a triangle of the mesh
           scene's size, 2x3 quads, takes two steps instead of three) */
        raster_box_lanes_init_rows(rb, &L, 4);
        return box_early_steps(rb, e, &L, (rb->rows + 1) / 2, 4, qx, qy, cov, passed);
    }
    raster_box_lanes_init_rows(rb, &L, 8);
    return box_early_steps(rb, e, &L, rb->rows, 8, qx, qy, cov, passed);
}
#endif

int box_early_quads(const raster_box *rb, const box_early *e, int32_t qx[16], int32_t qy[16],
                    uint32_t cov[64], uint32_t passed[3])
{
#if defined(__GNUC__) && defined(__x86_64__)
    return box_early_avx512(rb, e, qx, qy, cov, passed);
#else
    (void)rb, (void)e, (void)qx, (void)qy, (void)cov, (void)passed;
    return -1;
#endif
}
