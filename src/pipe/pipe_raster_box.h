/* A single-sampled triangle over a small box — at most 4x4 quads — as 32-bit integer edge
 * values: what raster_box_quads (pipe_raster.c) and the early-tested box of
 * pipe_box_early.c both start from. Within such a box every partial sum of the edge
 * functions fits 32 bits (raster_box_setup checks it), so a row of four quads is one
 * 16-lane AVX-512 vector. */
#ifndef TEXVM_PIPE_RASTER_BOX_H
#define TEXVM_PIPE_RASTER_BOX_H

#include "pipe_raster.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct raster_box {
    int32_t e0[3];          /* edge k's value at the sample of pixel (x0, y0) */
    int32_t a[3], b[3];     /* its steps per pixel column and row */
    int32_t x0, y0;         /* the box's top-left quad's top-left pixel (even) */
    int32_t bx0, bx1;       /* the box's columns [bx0, bx1) and rows [by0, by1), from */
    int32_t by0, by1;       /* (x0, y0) */
    unsigned rows;          /* rows of quads, 1 to 4 */
} raster_box;

/* T's edges over box [box[0], box[2]) x [box[1], box[3]) into RB. False when the box is
 * not served: T has several samples, the box is empty, starts left of or above the
 * target, spans more than 4x4 quads, or its edge values leave 32 bits. */
bool raster_box_setup(const raster_tri *t, const int32_t box[4], raster_box *rb);

#if defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>

#include "util/tile_lanes.h"

#define RASTER_BOX_AVX512 __attribute__((target("avx512f")))

/* raster_box_setup in AVX2 (the machine has it), the same result: for a triangle that
 * raster_setup set up (its a and b then lie within ±2^24). */
RASTER_AVX2 bool raster_box_setup_avx2(const raster_tri *t, const int32_t box[4],
                                       raster_box *rb);

/* 16 lanes of the box in one of two orders. The engine's tile order: lane 4 q + j of quad
 * q (j = 0 TL, 1 TR, 2 BL, 3 BR) of a row of four quads (the first half of a tile), a row
 * step being a row of quads. Or rows of pixels: lane C j + c at column c of row j, C = 8
 * (two rows of eight) or C = 4 (four rows of four, for a box at most two quads wide), a
 * row step being 16 / C rows. Row step r is the order's lanes moved down by STEP pixel
 * rows r times. */
typedef struct raster_box_lanes {
    __m512i dx, dy;         /* the lanes' pixel offsets in the order */
    __m512i e[3];           /* the edges' values there, at row step 0 */
    __mmask16 inx;          /* the lanes inside the box's columns */
    int32_t step;           /* pixel rows per row step */
} raster_box_lanes;

static inline RASTER_BOX_AVX512 void raster_box_lanes_at(const raster_box *rb,
                                                         raster_box_lanes *L, __m512i dx,
                                                         __m512i dy, int32_t step)
{
    L->dx = dx;
    L->dy = dy;
    L->step = step;
    for (unsigned k = 0; k < 3; k++)
        L->e[k] = _mm512_add_epi32(
            _mm512_set1_epi32(rb->e0[k]),
            _mm512_add_epi32(_mm512_mullo_epi32(L->dx, _mm512_set1_epi32(rb->a[k])),
                             _mm512_mullo_epi32(L->dy, _mm512_set1_epi32(rb->b[k]))));
    L->inx = _mm512_cmpge_epi32_mask(L->dx, _mm512_set1_epi32(rb->bx0)) &
             _mm512_cmplt_epi32_mask(L->dx, _mm512_set1_epi32(rb->bx1));
}

/* The tile order: row step r is row r of quads. */
static inline RASTER_BOX_AVX512 void raster_box_lanes_init(const raster_box *rb,
                                                           raster_box_lanes *L)
{
    raster_box_lanes_at(rb, L, _mm512_loadu_si512(tv_tile_lane_x),
                        _mm512_loadu_si512(tv_tile_lane_y), 2);
}

/* Rows of C pixels (8, or 4 for a box with bx1 <= 4): row step r is rows of quads
 * (16 / C) r / 2 on. */
static inline RASTER_BOX_AVX512 void raster_box_lanes_init_rows(const raster_box *rb,
                                                                raster_box_lanes *L,
                                                                unsigned C)
{
    const __m512i e = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    const unsigned sh = C == 8 ? 3 : 2;
    raster_box_lanes_at(rb, L, _mm512_and_si512(e, _mm512_set1_epi32((int)C - 1)),
                        _mm512_srli_epi32(e, sh), (int32_t)(16 / C));
}

/* The covered lanes of row step R (inside the box; raster_coverage's rule). Edge values
 * stay within 32 bits: every lane's offset is at most 7 pixels either way
 * (raster_box_setup's bound: a box of 4x4 quads is 2 steps of 4 rows or 4 of 2). */
static inline RASTER_BOX_AVX512 __mmask16 raster_box_row(const raster_box *rb,
                                                         const raster_box_lanes *L, unsigned r)
{
    const int32_t d0 = L->step * (int32_t)r;
    const __m512i ry = _mm512_add_epi32(L->dy, _mm512_set1_epi32(d0));
    __mmask16 m = L->inx & _mm512_cmpge_epi32_mask(ry, _mm512_set1_epi32(rb->by0)) &
                  _mm512_cmplt_epi32_mask(ry, _mm512_set1_epi32(rb->by1));
    for (unsigned k = 0; k < 3; k++)
        m &= _mm512_cmpge_epi32_mask(_mm512_add_epi32(L->e[k], _mm512_set1_epi32(d0 * rb->b[k])),
                                     _mm512_setzero_si512());
    return m;
}

/* The quads (their TL lanes, bits 0, 4, 8, 12) of a row with a lane in M. */
static inline __mmask16 raster_box_quads_of(__mmask16 m)
{
    uint32_t q = m;
    q |= q >> 1;
    q |= q >> 2;
    return (__mmask16)(q & 0x1111u);
}
#endif

#endif
