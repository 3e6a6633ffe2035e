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
    unsigned rows;          /* rows of quads, 1 to 4 (the box's columns: 1 to 4 quads) */
} raster_box;

/* T's edges over box [box[0], box[2]) x [box[1], box[3]) into RB. False when the box is
 * not served: T has several samples, the box is empty, starts left of or above the
 * target, spans more than 4x4 quads, or its edge values leave 32 bits. */
bool raster_box_setup(const raster_tri *t, const int32_t box[4], raster_box *rb);

#if defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>

#include "util/tile_lanes.h"

#define RASTER_BOX_AVX512 __attribute__((target("avx512f")))

/* 16 lanes of the box, lane 4 q + j of quad q (j = 0 TL, 1 TR, 2 BL, 3 BR), in one of two
 * layouts: a row of four quads (the engine's tile order, whose first half is one such
 * row), or, for a box at most two quads wide, two rows of two quads (lanes 0-7 the upper
 * row, 8-15 the lower). Row step r of the box is the layout's lanes moved down by STEP
 * pixel rows (2 or 4) r times. */
typedef struct raster_box_lanes {
    __m512i dx, dy;         /* the lanes' pixel offsets in the layout */
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

/* The row-of-four-quads layout: row step r is row r of quads. */
static inline RASTER_BOX_AVX512 void raster_box_lanes_init(const raster_box *rb,
                                                           raster_box_lanes *L)
{
    raster_box_lanes_at(rb, L, _mm512_cvtepu8_epi32(_mm_loadu_si128((const void *)tv_tile_lane_x)),
                        _mm512_cvtepu8_epi32(_mm_loadu_si128((const void *)tv_tile_lane_y)), 2);
}

/* The two-by-two-quads layout (a box with bx1 <= 4): row step r is rows 2 r and 2 r + 1
 * of quads. */
static inline RASTER_BOX_AVX512 void raster_box_lanes_init_narrow(const raster_box *rb,
                                                                  raster_box_lanes *L)
{
    raster_box_lanes_at(rb, L, _mm512_setr_epi32(0, 1, 0, 1, 2, 3, 2, 3, 0, 1, 0, 1, 2, 3, 2, 3),
                        _mm512_setr_epi32(0, 0, 1, 1, 0, 0, 1, 1, 2, 2, 3, 3, 2, 2, 3, 3), 4);
}

/* The covered lanes of row step R (inside the box; raster_coverage's rule). Edge values
 * stay within 32 bits: every lane's offset is at most 7 pixels either way
 * (raster_box_setup's bound), the rows of a box of 4 quads being 2 steps of 4 or 4 of 2. */
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
