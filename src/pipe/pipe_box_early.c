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

#include <string.h>

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

/* P's lanes (row order) counted into PASSED, per row of tiles from Y0's: rows 0-3 of a
 * step of four rows are rows y .. y + 3, whose first two and last two may lie in different
 * rows of tiles. */
static inline void count_passes(uint32_t passed[3], int32_t y, int32_t y0, uint32_t p,
                                unsigned C)
{
    const uint32_t t0 = ((uint32_t)y >> 2) - ((uint32_t)y0 >> 2);
    if (C == 8) {
        passed[t0] += (uint32_t)__builtin_popcount(p);
    } else {
        passed[t0] += (uint32_t)__builtin_popcount(p & 0xffu);
        passed[((uint32_t)(y + 2) >> 2) - ((uint32_t)y0 >> 2)] +=
            (uint32_t)__builtin_popcount(p >> 8);
    }
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
    __m512i aqx = _mm512_setzero_si512(), aqy = _mm512_setzero_si512();
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
        count_passes(passed, y, rb->y0, p, C);
        /* the quads with a lane that passed (their TL lanes in row order, which is the
           quads' row order), compressed; their lanes' passes in quad order */
        uint32_t q = (uint32_t)p | (uint32_t)p >> 1;
        q |= q >> C;
        const __mmask16 tl = (__mmask16)(q & tl_rows);
        const unsigned cnt = (unsigned)__builtin_popcount(tl);
        /* the quads' corners after those of the steps before, in registers (lanes n to
           n + cnt: the expand puts the compressed corners there in order) */
        const __mmask16 next = (__mmask16)(((1u << cnt) - 1u) << n);
        aqx = _mm512_mask_expand_epi32(aqx, next, _mm512_maskz_compress_epi32(tl, px));
        aqy = _mm512_mask_expand_epi32(aqy, next, _mm512_maskz_compress_epi32(tl, py));
        const uint32_t pq = quad_order(p, C);
        _mm512_mask_storeu_epi32(cov + 4 * n, (__mmask16)((1u << (4 * cnt)) - 1u),
                                 _mm512_maskz_compress_epi32(
                                     (__mmask16)(raster_box_quads_of((__mmask16)pq) * 0xfu),
                                     _mm512_maskz_mov_epi32((__mmask16)pq, one)));
        n += (int)cnt;
    }
    /* one store each, whole (the 16 entries: zeros past n), which the engine's loads of
       them (vm_frag_quads_bad's first) take from the store queue, where the two steps'
       masked stores made them wait for both to reach the cache */
    _mm512_storeu_si512(qx, aqx);
    _mm512_storeu_si512(qy, aqy);
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

/* ---- AVX2 ------------------------------------------------------------------------------
 * The same pass for cores without AVX-512, its values cut down to what eight-lane vectors
 * hold in sixteen registers (the first version, the AVX-512 kernel's vectors halved, kept
 * 217 of its 1269 instructions on the stack). A step's 16 lanes are two vectors of eight
 * in the same row order, and what is the same along a row or a column is a scalar:
 * - coverage: the three edges' values are ORed, their sign bits taken (a lane is covered
 *   where all three are at least 0, raster_coverage's rule), and the box's rows and
 *   columns are a bit mask;
 * - the depth plane: each quarter of four lanes is four columns of one row, so z0 + zx
 *   (x + 0.5 - zpx) is one vector per four columns (one for C = 4, two for C = 8) and
 *   zy (y + 0.5 - zpy) one scalar per row, each computed by the same double operations in
 *   the same order as the AVX-512 kernel's lanes (IEEE operations, no contraction);
 * - the depth test's lanes, the stores and the quads are bit masks; the few depth writes
 *   are lane by lane (AVX2 has no compress, and its masked store is slow on AMD cores).
 * The results are the AVX-512 kernel's bit for bit (the test runs both against the
 * pixel-by-pixel reference). */
#define BOX_AVX2 __attribute__((target("avx2")))

typedef struct box_lanes2 {
    __m256i e[3][2];   /* the edges' values at row step 0, halves of eight lanes */
    __m256d sx[2];     /* z0 + zx (x + 0.5 - zpx) of columns 0-3 and 4-7 */
    uint32_t cols;     /* the lanes inside the box's columns, as bits */
    uint32_t rows;     /* the box's rows [by0, by1) from y0, as bits */
} box_lanes2;

BOX_AVX2 static inline void box_lanes2_init(const raster_box *rb, const box_early *e,
                                            box_lanes2 *L, unsigned C)
{
    const unsigned sh = C == 8 ? 3 : 2;
    for (unsigned h = 0; h < 2; h++) {
        const __m256i i = _mm256_add_epi32(_mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7),
                                           _mm256_set1_epi32(8 * (int32_t)h));
        const __m256i dx = _mm256_and_si256(i, _mm256_set1_epi32((int32_t)C - 1));
        const __m256i dy = _mm256_srli_epi32(i, (int)sh);
        for (unsigned k = 0; k < 3; k++)
            L->e[k][h] = _mm256_add_epi32(
                _mm256_set1_epi32(rb->e0[k]),
                _mm256_add_epi32(_mm256_mullo_epi32(dx, _mm256_set1_epi32(rb->a[k])),
                                 _mm256_mullo_epi32(dy, _mm256_set1_epi32(rb->b[k]))));
    }
    const __m256d half = _mm256_set1_pd(0.5);
    for (unsigned c = 0; c < 2; c++) {
        const __m128i xi = _mm_add_epi32(_mm_setr_epi32(0, 1, 2, 3),
                                         _mm_set1_epi32(rb->x0 + 4 * (int32_t)c));
        L->sx[c] = _mm256_add_pd(
            _mm256_set1_pd(e->z0),
            _mm256_mul_pd(_mm256_set1_pd(e->zx),
                          _mm256_sub_pd(_mm256_add_pd(_mm256_cvtepi32_pd(xi), half),
                                        _mm256_set1_pd(e->zpx))));
    }
    const uint32_t c = (((1u << rb->bx1) - 1u) & ~((1u << rb->bx0) - 1u)) & ((1u << C) - 1u);
    L->cols = C == 8 ? c | c << 8 : c | c << 4 | c << 8 | c << 12;
    L->rows = ((1u << rb->by1) - 1u) & ~((1u << rb->by0) - 1u);
}

/* Row bits (bit j: row j of the step) as lane bits: rows of C lanes; for C = 4 a table
 * (the bits' four products had been some 17 instructions a step of the mesh scene) */
static const uint16_t row_lanes4[16] = {
    0x0000, 0x000f, 0x00f0, 0x00ff, 0x0f00, 0x0f0f, 0x0ff0, 0x0fff,
    0xf000, 0xf00f, 0xf0f0, 0xf0ff, 0xff00, 0xff0f, 0xfff0, 0xffff,
};
static inline uint32_t row_lanes(uint32_t rows, unsigned C)
{
    return C == 8 ? (rows & 1u) * 0x00ffu | (rows >> 1 & 1u) * 0xff00u : row_lanes4[rows & 0xfu];
}

BOX_AVX2 static inline uint32_t bits16(__m256i lo, __m256i hi)
{
    return (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(lo)) |
           (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(hi)) << 8;
}

/* The covered lanes of row step R as bits (raster_box_row's). */
BOX_AVX2 static inline uint32_t box_row2(const raster_box *rb, const box_lanes2 *L,
                                         unsigned r, unsigned C)
{
    const int32_t d0 = (int32_t)(16 / C) * (int32_t)r;
    const uint32_t in = L->cols & row_lanes(L->rows >> d0, C);
    __m256i v[2];
    for (unsigned h = 0; h < 2; h++) {
        __m256i o = _mm256_add_epi32(L->e[0][h], _mm256_set1_epi32(d0 * rb->b[0]));
        for (unsigned k = 1; k < 3; k++)
            o = _mm256_or_si256(o, _mm256_add_epi32(L->e[k][h], _mm256_set1_epi32(d0 * rb->b[k])));
        v[h] = o;
    }
    return in & ~bits16(v[0], v[1]);
}

/* The lanes of K whose depths ZQ pass against the stored F (om_cmp16_depth's comparison:
 * floats ordered, words unsigned) as bits. */
BOX_AVX2 static inline uint32_t cmp16_depth(uint8_t func, bool is_float, uint32_t k,
                                            const __m256i zq[2], const __m256i f[2])
{
    __m256i r[2];
    bool invert = false;
    if (func == OM_FUNC_NEVER)
        return 0;
    if (func > OM_FUNC_GEQUAL)
        return k;   /* ALWAYS */
    for (unsigned h = 0; h < 2; h++) {
        if (is_float) {
            const __m256 a = _mm256_castsi256_ps(zq[h]), b = _mm256_castsi256_ps(f[h]);
            __m256 c;
            switch (func) {
            case OM_FUNC_LESS: c = _mm256_cmp_ps(a, b, _CMP_LT_OQ); break;
            case OM_FUNC_EQUAL: c = _mm256_cmp_ps(a, b, _CMP_EQ_OQ); break;
            case OM_FUNC_LEQUAL: c = _mm256_cmp_ps(a, b, _CMP_LE_OQ); break;
            case OM_FUNC_GREATER: c = _mm256_cmp_ps(a, b, _CMP_GT_OQ); break;
            case OM_FUNC_NOTEQUAL: c = _mm256_cmp_ps(a, b, _CMP_NEQ_UQ); break;
            default: c = _mm256_cmp_ps(a, b, _CMP_GE_OQ); break;   /* GEQUAL */
            }
            r[h] = _mm256_castps_si256(c);
            continue;
        }
        /* unsigned: the signed comparisons of the words with their top bits flipped */
        const __m256i sign = _mm256_set1_epi32(INT32_MIN);
        const __m256i a = _mm256_xor_si256(zq[h], sign), b = _mm256_xor_si256(f[h], sign);
        switch (func) {
        case OM_FUNC_LESS: r[h] = _mm256_cmpgt_epi32(b, a); break;
        case OM_FUNC_EQUAL: r[h] = _mm256_cmpeq_epi32(a, b); break;
        case OM_FUNC_LEQUAL: r[h] = _mm256_cmpgt_epi32(a, b), invert = true; break;
        case OM_FUNC_GREATER: r[h] = _mm256_cmpgt_epi32(a, b); break;
        case OM_FUNC_NOTEQUAL: r[h] = _mm256_cmpeq_epi32(a, b), invert = true; break;
        default: r[h] = _mm256_cmpgt_epi32(b, a), invert = true; break;   /* GEQUAL */
        }
    }
    const uint32_t m = bits16(r[0], r[1]);
    return (invert ? ~m : m) & k;
}

/* quantise16 for eight lanes from their plane values (two quarters of four). UNORM
 * targets are 16- or 24-bit (om_zs_target_init), so the signed conversion, rounding as
 * MXCSR says, is the unsigned one. */
BOX_AVX2 static inline __m256i quantise8(const box_early *e, bool zfloat, __m256d slo,
                                         __m256d shi)
{
    __m256 z = _mm256_set_m128(_mm256_cvtpd_ps(shi), _mm256_cvtpd_ps(slo));
    z = _mm256_add_ps(z, _mm256_set1_ps(e->zoffset));
    const __m256 one = _mm256_set1_ps(1.0f);
    z = _mm256_and_ps(z, _mm256_cmp_ps(z, _mm256_setzero_ps(), _CMP_GE_OQ));
    z = _mm256_blendv_ps(z, one, _mm256_cmp_ps(z, one, _CMP_GT_OQ));
    if (zfloat)
        return _mm256_castps_si256(z);
    const __m256d m = _mm256_set1_pd(e->zs->unorm_max);
    const __m128i lo =
        _mm256_cvtpd_epi32(_mm256_mul_pd(_mm256_cvtps_pd(_mm256_castps256_ps128(z)), m));
    const __m128i hi =
        _mm256_cvtpd_epi32(_mm256_mul_pd(_mm256_cvtps_pd(_mm256_extractf128_ps(z, 1)), m));
    return _mm256_set_m128i(hi, lo);
}

/* Row j of the step's texels (C of them at T0 + j stride) into its place in the halves
   (masked: only the box's columns COLS are read). */
BOX_AVX2 static inline void load_rows2(uint8_t *t0, size_t stride, unsigned R, unsigned C,
                                       uint32_t live_rows, const __m256i colmask,
                                       __m256i old[2])
{
    if (C == 8) {
        for (unsigned h = 0; h < 2; h++)
            old[h] = (live_rows >> h) & 1u
                         ? _mm256_maskload_epi32((const int *)(const void *)(t0 + h * stride),
                                                 colmask)
                         : _mm256_setzero_si256();
        return;
    }
    __m128i r[4];
    for (unsigned j = 0; j < R; j++)
        r[j] = (live_rows >> j) & 1u
                   ? _mm_maskload_epi32((const int *)(const void *)(t0 + j * stride),
                                        _mm256_castsi256_si128(colmask))
                   : _mm_setzero_si128();
    old[0] = _mm256_set_m128i(r[1], r[0]);
    old[1] = _mm256_set_m128i(r[3], r[2]);
}

/* Bits 0-7 of M as the lanes of a vector: all ones where the bit is set. */
BOX_AVX2 static inline __m256i bit_lanes8(uint32_t m)
{
    const __m256i bit = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
    return _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_set1_epi32((int32_t)(m & 0xffu)), bit), bit);
}

/* A quad's lane bits (j = 0 TL, 1 TR, 2 BL, 3 BR) as the coverage words of COV. */
static const uint32_t quad_cov_words[16][4] = {
    {0, 0, 0, 0}, {1, 0, 0, 0}, {0, 1, 0, 0}, {1, 1, 0, 0}, {0, 0, 1, 0}, {1, 0, 1, 0},
    {0, 1, 1, 0}, {1, 1, 1, 0}, {0, 0, 0, 1}, {1, 0, 0, 1}, {0, 1, 0, 1}, {1, 1, 0, 1},
    {0, 0, 1, 1}, {1, 0, 1, 1}, {0, 1, 1, 1}, {1, 1, 1, 1},
};

BOX_AVX2 static TV_ALWAYS_INLINE int box_early_steps2(
    const raster_box *rb, const box_early *e, const box_lanes2 *L, unsigned steps, unsigned C,
    int32_t qx[16], int32_t qy[16], uint32_t cov[64], uint32_t passed[3])
{
    const unsigned R = 16 / C;   /* rows of pixels a step */
    const double zpy = e->zpy, zy = e->zy;
    const __m256i dmask = _mm256_set1_epi32((int32_t)(uint32_t)e->zs->depth_mask);
    const __m128i shift = _mm_cvtsi32_si128(e->zs->depth_shift);
    const uint8_t func = e->dsa->depth_func;
    const bool zfloat = e->zs->depth_float, write = e->dsa->depth_writemask;
    /* the box's columns as a load mask: the first eight lanes' bits (C = 4: the first
       four, the only ones load_rows2 reads then) */
    const __m256i colmask = bit_lanes8(L->cols);
    int n = 0;
    for (unsigned r = 0; r < steps; r++) {
        const uint32_t k = box_row2(rb, L, r, C);
        if (!k)
            continue;
        const int32_t y = rb->y0 + (int32_t)R * (int32_t)r;
        /* zy ((y + j + 0.5) - zpy) of the step's rows j in the lanes of one vector: the
           scalar's double operations lane by lane (computed a row at a time, with a
           conversion and a broadcast each, they had been some 19 instructions a step) */
        const __m256d ty = _mm256_mul_pd(
            _mm256_set1_pd(zy),
            _mm256_sub_pd(_mm256_add_pd(_mm256_cvtepi32_pd(_mm_add_epi32(
                                            _mm_set1_epi32(y), _mm_setr_epi32(0, 1, 2, 3))),
                                        _mm256_set1_pd(0.5)),
                          _mm256_set1_pd(zpy)));
        /* quarter q: columns 4 (q & 1) of row q / 2 (C = 8), or columns 0-3 of row q */
        __m256d s[4];
        for (unsigned q = 0; q < 4; q++) {
            const unsigned row = C == 8 ? q / 2 : q;
            const __m256d t = row == 0   ? _mm256_permute4x64_pd(ty, 0x00)
                              : row == 1 ? _mm256_permute4x64_pd(ty, 0x55)
                              : row == 2 ? _mm256_permute4x64_pd(ty, 0xaa)
                                         : _mm256_permute4x64_pd(ty, 0xff);
            s[q] = _mm256_add_pd(L->sx[C == 8 ? q & 1u : 0], t);
        }
        __m256i z[2];
        for (unsigned h = 0; h < 2; h++)
            z[h] = quantise8(e, zfloat, s[2 * h], s[2 * h + 1]);
        uint8_t *const t0 = e->base + e->stride * (size_t)y + 4 * (size_t)rb->x0;
        /* rows 0 .. min(R, by1 - (y - y0)) - 1 of the step: its first always, the others
           where they lie above the box's last */
        const int32_t left = rb->by1 - (y - rb->y0);
        const uint32_t live_rows =
            left >= (int32_t)R ? (1u << R) - 1u : left > 1 ? (1u << left) - 1u : 1u;
        __m256i old[2], f[2];
        load_rows2(t0, e->stride, R, C, live_rows, colmask, old);
        for (unsigned h = 0; h < 2; h++)
            f[h] = _mm256_srl_epi32(_mm256_and_si256(old[h], dmask), shift);
        const uint32_t pm = cmp16_depth(func, zfloat, k, z, f);
        if (!pm)
            continue;
        if (write) {
            __m256i same[2], w[2];
            for (unsigned h = 0; h < 2; h++) {
                w[h] = _mm256_or_si256(_mm256_andnot_si256(dmask, old[h]),
                                       _mm256_and_si256(_mm256_sll_epi32(z[h], shift), dmask));
                same[h] = _mm256_cmpeq_epi32(w[h], old[h]);
            }
            /* (the lanes that passed lie in the box: covered, so in its rows and columns) */
            const uint32_t st = pm & ~bits16(same[0], same[1]);
            if (L->cols == 0xffffu) {
                /* every column of the step in the box, so every lane of a row was loaded:
                   a row with a lane to store is stored whole, the others' own words back
                   (the box's rows are the worker's: no other writes them meanwhile) */
                __m256i row[2];
                for (unsigned h = 0; h < 2; h++)
                    row[h] = _mm256_blendv_epi8(old[h], w[h], bit_lanes8(pm >> (8 * h)));
                for (unsigned j = 0; j < R; j++) {
                    if (!((st >> (C * j)) & ((1u << C) - 1u)))
                        continue;
                    void *const at = t0 + j * e->stride;
                    if (C == 8)
                        _mm256_storeu_si256((__m256i *)at, row[j]);
                    else
                        _mm_storeu_si128((__m128i *)at, j & 1u ? _mm256_extracti128_si256(row[j / 2], 1)
                                                               : _mm256_castsi256_si128(row[j / 2]));
                }
            } else {
                uint32_t wv[16];
                for (unsigned h = 0; h < 2; h++)
                    _mm256_storeu_si256((__m256i *)(void *)&wv[8 * h], w[h]);
                for (uint32_t m = st; m; m &= m - 1) {
                    const unsigned l = (unsigned)__builtin_ctz(m);
                    memcpy(t0 + (l / C) * e->stride + 4 * (l % C), &wv[l], 4);
                }
            }
        }
        count_passes(passed, y, rb->y0, pm, C);
        /* the quads with a lane that passed, in the quads' row order, and their lanes */
        const uint32_t pq = quad_order(pm, C);
        for (unsigned q = 0; q < 4; q++) {
            const uint32_t nib = (pq >> (4 * q)) & 0xfu;
            if (!nib)
                continue;
            /* quad q's TL lane in row order: C = 8 column 2 q of row 0; C = 4 (0, 0),
               (2, 0), (0, 2), (2, 2) */
            const unsigned tl = C == 8 ? 2 * q : 2 * (q & 1u) + 8 * (q >> 1);
            qx[n] = rb->x0 + (int32_t)(tl % C);
            qy[n] = y + (int32_t)(tl / C);
            memcpy(cov + 4 * n, quad_cov_words[nib], sizeof quad_cov_words[nib]);
            n++;
        }
    }
    return n;
}

BOX_AVX2 static int box_early_avx2(const raster_box *rb, const box_early *e, int32_t qx[16],
                                   int32_t qy[16], uint32_t cov[64], uint32_t passed[3])
{
    passed[0] = passed[1] = passed[2] = 0;
    if (!e->test)
        return 0;
    box_lanes2 L;
    if (rb->bx1 <= 4) {
        box_lanes2_init(rb, e, &L, 4);
        return box_early_steps2(rb, e, &L, (rb->rows + 1) / 2, 4, qx, qy, cov, passed);
    }
    box_lanes2_init(rb, e, &L, 8);
    return box_early_steps2(rb, e, &L, rb->rows, 8, qx, qy, cov, passed);
}
#endif

int box_early_quads(const raster_box *rb, const box_early *e, bool avx512, int32_t qx[16],
                    int32_t qy[16], uint32_t cov[64], uint32_t passed[3])
{
#if defined(__GNUC__) && defined(__x86_64__)
    return avx512 ? box_early_avx512(rb, e, qx, qy, cov, passed)
                  : box_early_avx2(rb, e, qx, qy, cov, passed);
#else
    (void)rb, (void)e, (void)avx512, (void)qx, (void)qy, (void)cov, (void)passed;
    return -1;
#endif
}
