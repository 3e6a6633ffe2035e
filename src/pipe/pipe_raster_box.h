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

/* A row of four quads as 16 lanes, lane 4 q + j of quad q (j = 0 TL, 1 TR, 2 BL, 3 BR): the
 * engine's tile order, whose first half is one such row. */
typedef struct raster_box_lanes {
    __m512i dx, dy;         /* the lanes' pixel offsets in the row of quads */
    __m512i e[3];           /* the edges' values there, in the first row */
    __mmask16 inx;          /* the lanes inside the box's columns */
} raster_box_lanes;

static inline RASTER_BOX_AVX512 void raster_box_lanes_init(const raster_box *rb,
                                                           raster_box_lanes *L)
{
    L->dx = _mm512_cvtepu8_epi32(_mm_loadu_si128((const void *)tv_tile_lane_x));
    L->dy = _mm512_cvtepu8_epi32(_mm_loadu_si128((const void *)tv_tile_lane_y));
    for (unsigned k = 0; k < 3; k++)
        L->e[k] = _mm512_add_epi32(
            _mm512_set1_epi32(rb->e0[k]),
            _mm512_add_epi32(_mm512_mullo_epi32(L->dx, _mm512_set1_epi32(rb->a[k])),
                             _mm512_mullo_epi32(L->dy, _mm512_set1_epi32(rb->b[k]))));
    L->inx = _mm512_cmpge_epi32_mask(L->dx, _mm512_set1_epi32(rb->bx0)) &
             _mm512_cmplt_epi32_mask(L->dx, _mm512_set1_epi32(rb->bx1));
}

/* The covered lanes of row R of quads (inside the box; raster_coverage's rule). */
static inline RASTER_BOX_AVX512 __mmask16 raster_box_row(const raster_box *rb,
                                                         const raster_box_lanes *L, unsigned r)
{
    const int32_t d0 = 2 * (int32_t)r;
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
