/* Triangle rasterisation rules (issue 16): which samples of which pixels a triangle covers,
 * by the D3D10 / GL-hardware rules llvmpipe also follows — vertices snapped to 8 sub-pixel
 * bits, exact integer edge functions, the top-left fill rule (or the bottom-left one that
 * Gallium's bottom_edge_rule asks for when the target is stored with y up), samples at the
 * standard positions. docs/pipeline-stages.md §Rasterisation. */
#ifndef TEXVM_PIPE_RASTER_H
#define TEXVM_PIPE_RASTER_H

#include <stdbool.h>
#include <stdint.h>

#define RASTER_SUBPIXEL_BITS 8
#define RASTER_ONE (1 << RASTER_SUBPIXEL_BITS)
/* Window coordinates must lie within ±RASTER_MAX_COORD pixels (the clipper's guard band
 * keeps them there): snapped values then fit 24 bits and edge functions 50. */
#define RASTER_MAX_COORD 32768.0f
#define RASTER_MAX_SAMPLES 16

typedef struct raster_rules {
    bool bottom_edge_rule;   /* ties go to bottom and left edges instead of top and left */
    unsigned samples;        /* 1, 2, 4, 8 or 16 (standard positions); 0 counts as 1 */
    int32_t clip[4];         /* pixels x0, y0 (inclusive), x1, y1 (exclusive): scissor and
                                framebuffer, already intersected */
} raster_rules;

/* A set-up triangle. Edge k of the (counter-clockwise in fixed-point, y down) triangle is
 * E_k(X, Y) = a_k X + b_k Y + c_k in fixed-point sample coordinates; a sample is covered
 * when E_k >= 0 for all three (the fill rule's ties are folded into c_k). */
typedef struct raster_tri {
    int64_t a[3], b[3], c[3];
    int32_t x0, y0, x1, y1;  /* pixels that may be covered (inside rules.clip) */
    unsigned samples;
    int32_t sx[RASTER_MAX_SAMPLES], sy[RASTER_MAX_SAMPLES]; /* sample offsets, fixed point */
    int32_t sx_min, sx_max, sy_min, sy_max;   /* their extremes (the row spans' hull) */
    int32_t hx0, hy0, hx1, hy1;  /* pixels [hx0, hx1) x [hy0, hy1) hold every sample the
                                    triangle may cover: those within its vertices' hull
                                    (x0..y1 bound every sample position instead, a pixel
                                    wider each side; not clipped) */
    bool ccw;                /* counter-clockwise as seen in window space (y down) */
} raster_tri;

/* Snap a window coordinate (pixels, centres at half-integers) to fixed point: the value
 * minus the half-pixel centre, times 256, rounded to nearest even. */
int32_t raster_snap(float v);

/* Set up triangle (x[i], y[i]) (window pixels, y down as stored). Returns false when it
 * covers nothing: zero area after snapping, outside the clip rectangle, or a coordinate
 * not finite or past RASTER_MAX_COORD. */
bool raster_setup(raster_tri *t, const raster_rules *r, const float x[3], const float y[3]);
#if defined(__GNUC__) && defined(__x86_64__)
#define RASTER_AVX2 __attribute__((target("avx2")))
/* raster_setup with its edges in AVX2 (the machine has it): the same triangle, byte for
 * byte, and the same result (also where it refuses the triangle after its edges). */
RASTER_AVX2 bool raster_setup_avx2(raster_tri *t, const raster_rules *r, const float x[3],
                                   const float y[3]);
#endif
/* The box of triangle T, set up under rules that differ from R in their clip rectangle
 * alone, clipped to R's: what raster_setup under R gives. Returns whether any is left. */
static inline bool raster_clip(raster_tri *t, const raster_rules *r)
{
    t->x0 = t->x0 > r->clip[0] ? t->x0 : r->clip[0];
    t->y0 = t->y0 > r->clip[1] ? t->y0 : r->clip[1];
    t->x1 = t->x1 < r->clip[2] ? t->x1 : r->clip[2];
    t->y1 = t->y1 < r->clip[3] ? t->y1 : r->clip[3];
    return t->x0 < t->x1 && t->y0 < t->y1;
}

/* Bit s set when sample s of pixel (px, py) is covered. */
uint32_t raster_coverage(const raster_tri *t, int32_t px, int32_t py);
/* The same for the 32 pixels (px[l], py[l]) of the lanes in INSIDE: cov[l] (the other
 * lanes' entries are left alone). */
void raster_coverage_lanes(const raster_tri *t, const int32_t px[32], const int32_t py[32],
                           uint32_t inside, uint32_t cov[32]);
/* The 2x2 quads (aligned to even pixels) of box [box[0], box[2]) x [box[1], box[3]) that
 * single-sampled T covers a pixel of, in row order (rows of quads top to bottom, each
 * left to right), as lanes: lane 4 i + j of quad i (j = 0 TL, 1 TR, 2 BL, 3 BR) at pixel
 * (x, y) with raster_coverage's value in cov (0 outside the box), bit 4 i + j of
 * *COVERED set where it is not 0 (the arrays' elements past the quads' are overwritten;
 * 80 of room). Returns their number, at most 16, or -1 when the box is
 * not served: no AVX512 (the machine lacks AVX-512F: its kernel is the one), more than
 * 4x4 quads, several samples, or edge values that leave 32 bits over the box (the
 * engine's small primitives, docs/pipeline.md §Draws). */
int raster_box_quads(const raster_tri *t, const int32_t box[4], bool avx512, int32_t x[80],
                     int32_t y[80], uint32_t cov[80], uint64_t *covered);
/* Columns [*x0, *x1) outside of which no sample of rows [y0, y1) is covered (a bound, not
 * exact: an edge's limit over the rows' extreme sample positions); *x0 >= *x1 when none
 * is. Within the triangle's box (t->x0..x1). */
void raster_row_span(const raster_tri *t, int32_t y0, int32_t y1, int32_t *x0, int32_t *x1);
/* Columns [*x0, *x1) in which every sample of every pixel of rows [y0, y1) is covered (a
 * bound from inside, not exact: each edge at its rows' and columns' extreme sample
 * positions); *x0 >= *x1 when there are none, and always when the rows leave the
 * triangle's box. Within the box. */
void raster_row_inner(const raster_tri *t, int32_t y0, int32_t y1, int32_t *x0, int32_t *x1);

#endif
