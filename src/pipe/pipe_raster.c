/* Triangle set-up and coverage: fixed-point edge functions with the fill rule folded into
 * their constants (pipe_raster.h). Everything after the snap is exact integer arithmetic,
 * so two triangles sharing an edge split its samples between them exactly. */
#include "pipe_raster.h"
#include "pipe_raster_box.h"

#include "texvm/tex.h"
#include "util/tile_lanes.h"
#include "util/wide_vectors.h"

#include <math.h>
#include <stddef.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

int32_t raster_snap(float v)
{
    /* pixel centres move to integers, then to fixed point; lrintf rounds to nearest even
       (as the conversion instruction does in the default rounding mode, which is what
       glibc's lrintf executes: without -fno-math-errno GCC left it a library call, six
       per triangle) */
#if defined(__x86_64__)
    return (int32_t)_mm_cvtss_si64(_mm_set_ss((v - 0.5f) * (float)RASTER_ONE));
#else
    return (int32_t)lrintf((v - 0.5f) * (float)RASTER_ONE);
#endif
}

/* floor(a / RASTER_ONE): an arithmetic shift, since RASTER_ONE is a power of two (GCC and
 * clang shift a negative integer arithmetically). A division with a correction for
 * negative remainders took about a fifth of raster_setup, eight of them per triangle
 * (tests/pipe/test_raster.c test_boxes_are_floor_divisions holds the boxes to floor()).
 * The row spans' column bounds (edge_columns) take it too. */
_Static_assert((RASTER_ONE & (RASTER_ONE - 1)) == 0, "RASTER_ONE must be a power of two");
static inline int64_t floor_div_one(int64_t a)
{
    return a >> RASTER_SUBPIXEL_BITS;
}

#if defined(__x86_64__)
/* The three vertices snapped (raster_snap) into lanes 0-2 of SX and SY (lane 3 is -128, the
 * snap of 0); false where a coordinate is not finite or past RASTER_MAX_COORD. The six
 * tests and snaps in two vectors: the same ordered comparisons (a NaN fails), and
 * cvtps2dq rounds as raster_snap's cvtss2si does (the rounding mode's nearest even) a value
 * that fits 32 bits, as |v| <= 2^15 gives. */
static TV_ALWAYS_INLINE bool snap_lanes(const float x[3], const float y[3], __m128i *sx,
                                        __m128i *sy)
{
    const __m128 vx = _mm_setr_ps(x[0], x[1], x[2], 0.0f), vy = _mm_setr_ps(y[0], y[1], y[2], 0.0f);
    const __m128 mag = _mm_castsi128_ps(_mm_set1_epi32(0x7fffffff)),
                 lim = _mm_set1_ps(RASTER_MAX_COORD);
    if (_mm_movemask_ps(_mm_and_ps(_mm_cmple_ps(_mm_and_ps(vx, mag), lim),
                                   _mm_cmple_ps(_mm_and_ps(vy, mag), lim))) != 0xf)
        return false;
    const __m128 half_px = _mm_set1_ps(0.5f), one = _mm_set1_ps((float)RASTER_ONE);
    *sx = _mm_cvtps_epi32(_mm_mul_ps(_mm_sub_ps(vx, half_px), one));
    *sy = _mm_cvtps_epi32(_mm_mul_ps(_mm_sub_ps(vy, half_px), one));
    return true;
}

/* Lanes 0-2 of SX and SY as numbers. */
static TV_ALWAYS_INLINE void lanes_to_vertices(__m128i sx, __m128i sy, int64_t X[3], int64_t Y[3])
{
    int32_t wx[4], wy[4];
    _mm_storeu_si128((__m128i *)(void *)wx, sx);
    _mm_storeu_si128((__m128i *)(void *)wy, sy);
    for (int i = 0; i < 3; i++) {
        X[i] = wx[i];
        Y[i] = wy[i];
    }
}
#endif

/* The three vertices snapped (raster_snap) into X and Y; false where a coordinate is not
 * finite or past RASTER_MAX_COORD. */
static TV_ALWAYS_INLINE bool snap_vertices(const float x[3], const float y[3], int64_t X[3],
                                           int64_t Y[3])
{
#if defined(__x86_64__)
    __m128i sx, sy;
    if (!snap_lanes(x, y, &sx, &sy))
        return false;
    lanes_to_vertices(sx, sy, X, Y);
#else
    for (int i = 0; i < 3; i++) {
        if (!(fabsf(x[i]) <= RASTER_MAX_COORD) || !(fabsf(y[i]) <= RASTER_MAX_COORD))
            return false;
        X[i] = raster_snap(x[i]);
        Y[i] = raster_snap(y[i]);
    }
#endif
    return true;
}

/* Twice the signed area of the snapped vertices as numbers; negative is counter-clockwise
 * as seen in window space, whose y runs down (Gallium's front_ccw convention). */
static inline int64_t snapped_area(const int64_t X[3], const int64_t Y[3])
{
    return (X[1] - X[0]) * (Y[2] - Y[0]) - (X[2] - X[0]) * (Y[1] - Y[0]);
}

/* T's edges from the snapped vertices, for an AREA that is not 0. */
static TV_ALWAYS_INLINE void setup_edges(raster_tri *t, const raster_rules *r, const int64_t X[3],
                                         const int64_t Y[3], int64_t area)
{
    /* Orient every edge so that the interior is where E > 0. With y down, the edge from
     * v_i to v_j has E(p) = (p.x - x_i) dy - (p.y - y_i) dx, positive on its right when
     * area < 0; otherwise the edge is walked the other way. */
    int64_t sign = area < 0 ? 1 : -1;
    for (int i = 0; i < 3; i++) {
        int j = (i + 1) % 3;
        int64_t dx = sign * (X[j] - X[i]), dy = sign * (Y[j] - Y[i]);
        t->a[i] = dy;
        t->b[i] = -dx;
        t->c[i] = dx * (sign > 0 ? Y[i] : Y[j]) - dy * (sign > 0 ? X[i] : X[j]);
        /* The fill rule: a sample exactly on a left edge (interior to its right: dy > 0)
         * or a top edge (horizontal with the interior below: dx < 0) is covered; with the
         * bottom-edge rule a horizontal edge with the interior above (dx > 0) instead. */
        bool tie = dy > 0 || (dy == 0 && (r->bottom_edge_rule ? dx > 0 : dx < 0));
        if (!tie)
            t->c[i] -= 1;   /* E >= 0 now means E > 0 */
    }
}

/* T's samples and boxes from the snapped vertices, then the clip rectangle: raster_setup's
 * last steps, whose result it returns. */
static TV_ALWAYS_INLINE bool setup_samples_and_box(raster_tri *t, const raster_rules *r,
                                                   const int64_t X[3], const int64_t Y[3])
{
    t->samples = r->samples ? r->samples : 1;
    for (unsigned s = 0; s < t->samples && s < RASTER_MAX_SAMPLES; s++) {
        float sx = 0.5f, sy = 0.5f;   /* one sample: the pixel centre */
        if (t->samples > 1 && !tv_tex_sample_position(t->samples, s, &sx, &sy))
            return false;
        /* positions are multiples of 1/16 pixel: exact in 8 sub-pixel bits */
        t->sx[s] = (int32_t)((sx - 0.5f) * (float)RASTER_ONE);
        t->sy[s] = (int32_t)((sy - 0.5f) * (float)RASTER_ONE);
    }
    t->sx_min = t->sx_max = t->sx[0];
    t->sy_min = t->sy_max = t->sy[0];
    for (unsigned s = 1; s < t->samples && s < RASTER_MAX_SAMPLES; s++) {
        t->sx_min = t->sx[s] < t->sx_min ? t->sx[s] : t->sx_min;
        t->sx_max = t->sx[s] > t->sx_max ? t->sx[s] : t->sx_max;
        t->sy_min = t->sy[s] < t->sy_min ? t->sy[s] : t->sy_min;
        t->sy_max = t->sy[s] > t->sy_max ? t->sy[s] : t->sy_max;
    }
    int64_t minx = X[0], maxx = X[0], miny = Y[0], maxy = Y[0];
    for (int i = 1; i < 3; i++) {
        minx = X[i] < minx ? X[i] : minx;
        maxx = X[i] > maxx ? X[i] : maxx;
        miny = Y[i] < miny ? Y[i] : miny;
        maxy = Y[i] > maxy ? Y[i] : maxy;
    }
    /* pixel p's samples lie in [p - 1/2, p + 1/2) pixels around its (integer) centre */
    int32_t half = RASTER_ONE / 2;
    t->x0 = (int32_t)floor_div_one(minx - half + RASTER_ONE - 1);
    t->x1 = (int32_t)floor_div_one(maxx + half) + 1;
    t->y0 = (int32_t)floor_div_one(miny - half + RASTER_ONE - 1);
    t->y1 = (int32_t)floor_div_one(maxy + half) + 1;
    /* a covered sample p ONE + s lies in the triangle (every E_k >= 0), so in [minx, maxx]:
       ceil((minx - s) / ONE) <= p <= floor((maxx - s) / ONE) for its offset s */
    t->hx0 = (int32_t)floor_div_one(minx - t->sx_max + RASTER_ONE - 1);
    t->hx1 = (int32_t)floor_div_one(maxx - t->sx_min) + 1;
    t->hy0 = (int32_t)floor_div_one(miny - t->sy_max + RASTER_ONE - 1);
    t->hy1 = (int32_t)floor_div_one(maxy - t->sy_min) + 1;
    return raster_clip(t, r);
}

bool raster_setup(raster_tri *t, const raster_rules *r, const float x[3], const float y[3])
{
    int64_t X[3], Y[3];
    if (!snap_vertices(x, y, X, Y))
        return false;
    const int64_t area = snapped_area(X, Y);
    if (area == 0)
        return false;
    t->ccw = area < 0;
    setup_edges(t, r, X, Y, area);
    return setup_samples_and_box(t, r, X, Y);
}

#if defined(__GNUC__) && defined(__x86_64__)
/* setup_edges in one vector of four 64-bit lanes (edges 0-2 and a fourth that is not
 * read), from the vertices' snapped lanes: the same integers. vpmuldq multiplies the low
 * 32 bits of each lane as signed numbers, exact here: the snapped coordinates lie within
 * ±2^23 (RASTER_MAX_COORD in fixed point) and their differences within ±2^24. With the
 * snapped lanes taken as they are, raster_setup was about 40 instructions a triangle of
 * the mesh scene shorter (235 to 194). */
_Static_assert(offsetof(raster_tri, b) == offsetof(raster_tri, a) + 24 &&
                   offsetof(raster_tri, c) == offsetof(raster_tri, b) + 24 &&
                   offsetof(raster_tri, c) + 32 <= sizeof(raster_tri),
               "setup_edges_avx2 stores four 64-bit words at a and at b, in that order, and "
               "raster_box_setup_avx2 loads four at a, b and c");
RASTER_AVX2 static TV_ALWAYS_INLINE void setup_edges_avx2(raster_tri *t, const raster_rules *r,
                                                          __m128i sx, __m128i sy, int64_t area)
{
    const __m256i xi = _mm256_cvtepi32_epi64(sx), yi = _mm256_cvtepi32_epi64(sy);
    /* vertex j = i + 1 (mod 3) of each edge i */
    const __m256i xj = _mm256_permute4x64_epi64(xi, _MM_SHUFFLE(3, 0, 2, 1));
    const __m256i yj = _mm256_permute4x64_epi64(yi, _MM_SHUFFLE(3, 0, 2, 1));
    const bool pos = area < 0;   /* sign > 0 */
    const __m256i zero = _mm256_setzero_si256();
    __m256i dx = _mm256_sub_epi64(xj, xi), dy = _mm256_sub_epi64(yj, yi);
    if (!pos) {
        dx = _mm256_sub_epi64(zero, dx);
        dy = _mm256_sub_epi64(zero, dy);
    }
    const __m256i c = _mm256_sub_epi64(_mm256_mul_epi32(dx, pos ? yi : yj),
                                       _mm256_mul_epi32(dy, pos ? xi : xj));
    /* the fill rule's ties (setup_edges): the others' c less 1, as an add of all ones */
    const __m256i flat = _mm256_cmpeq_epi64(dy, zero);
    const __m256i side = r->bottom_edge_rule ? _mm256_cmpgt_epi64(dx, zero)
                                             : _mm256_cmpgt_epi64(zero, dx);
    const __m256i tie = _mm256_or_si256(_mm256_cmpgt_epi64(dy, zero), _mm256_and_si256(flat, side));
    _mm256_storeu_si256((__m256i *)(void *)t->a, dy);
    _mm256_storeu_si256((__m256i *)(void *)t->b, _mm256_sub_epi64(zero, dx));
    /* (c's three words alone: a sample count with no positions ends raster_setup before it
       sets the fields after c) */
    const __m256i ct = _mm256_add_epi64(c, _mm256_xor_si256(tie, _mm256_set1_epi64x(-1)));
    _mm_storeu_si128((__m128i *)(void *)t->c, _mm256_castsi256_si128(ct));
    _mm_storel_epi64((__m128i *)(void *)&t->c[2], _mm256_extracti128_si256(ct, 1));
}

RASTER_AVX2 bool raster_setup_avx2(raster_tri *t, const raster_rules *r, const float x[3],
                                   const float y[3])
{
    __m128i sx, sy;
    if (!snap_lanes(x, y, &sx, &sy))
        return false;
    int64_t X[3], Y[3];
    lanes_to_vertices(sx, sy, X, Y);
    const int64_t area = snapped_area(X, Y);
    if (area == 0)
        return false;
    t->ccw = area < 0;
    setup_edges_avx2(t, r, sx, sy, area);
    return setup_samples_and_box(t, r, X, Y);
}
#endif

uint32_t raster_coverage(const raster_tri *t, int32_t px, int32_t py)
{
    uint32_t mask = 0;
    int64_t X0 = (int64_t)px * RASTER_ONE, Y0 = (int64_t)py * RASTER_ONE;
    for (unsigned s = 0; s < t->samples; s++) {
        int64_t X = X0 + t->sx[s], Y = Y0 + t->sy[s];
        if (t->a[0] * X + t->b[0] * Y + t->c[0] >= 0 &&
            t->a[1] * X + t->b[1] * Y + t->c[1] >= 0 &&
            t->a[2] * X + t->b[2] * Y + t->c[2] >= 0)
            mask |= 1u << s;
    }
    return mask;
}

/* Each lane's coverage from the edge values E0 at lane 0's sample: E = E0 + a (x - x0) ONE
 * + b (y - y0) ONE, the integers raster_coverage computes with products, for the lanes in
 * INSIDE; one lane loop compiled for wide vectors. In doubles, exactly: snapped
 * coordinates lie within ±2^23 (RASTER_MAX_COORD), so a and b within ±2^24, E0 below
 * 2^50, and a lane's offset in fixed point (a target of at most 65536 pixels) within
 * ±2^24: every product, sum and E is an integer below 2^53, which a double holds
 * exactly, as the sign test needs. */
static TV_ALWAYS_INLINE void edge_lanes_n(const int64_t e0[3], const int64_t a[3],
                                          const int64_t b[3], const int32_t px[32],
                                          const int32_t py[32], uint32_t inside,
                                          uint32_t cov[32], unsigned n)
{
    const double e00 = (double)e0[0], e01 = (double)e0[1], e02 = (double)e0[2];
    const double a0 = (double)a[0], a1 = (double)a[1], a2 = (double)a[2];
    const double b0 = (double)b[0], b1 = (double)b[1], b2 = (double)b[2];
    const int32_t x0 = px[0], y0 = py[0];
    for (unsigned l = 0; l < n; l++) {
        double dx = (double)(int32_t)((uint32_t)(px[l] - x0) * RASTER_ONE);
        double dy = (double)(int32_t)((uint32_t)(py[l] - y0) * RASTER_ONE);
        uint32_t in = (uint32_t)(e00 + a0 * dx + b0 * dy >= 0) &
                      (uint32_t)(e01 + a1 * dx + b1 * dy >= 0) &
                      (uint32_t)(e02 + a2 * dx + b2 * dy >= 0);
        uint32_t m = 0u - ((inside >> l) & 1u);
        cov[l] = (cov[l] & ~m) | (in & m);
    }
}

/* edge_lanes_n over the first 16 lanes when INSIDE holds no other (a small primitive's
 * candidate quads, packed from lane 0: half the vector work), else over all 32 */
TV_WIDE_VECTORS static void edge_lanes(const int64_t e0[3], const int64_t a[3],
                                       const int64_t b[3], const int32_t px[32],
                                       const int32_t py[32], uint32_t inside, uint32_t cov[32])
{
    if (inside >> 16)
        edge_lanes_n(e0, a, b, px, py, inside, cov, 32);
    else
        edge_lanes_n(e0, a, b, px, py, inside, cov, 16);
}

void raster_coverage_lanes(const raster_tri *t, const int32_t px[32], const int32_t py[32],
                           uint32_t inside, uint32_t cov[32])
{
    if (t->samples != 1) {
        for (uint32_t m = inside; m; m &= m - 1) {
            unsigned l = (unsigned)__builtin_ctz(m);
            cov[l] = raster_coverage(t, px[l], py[l]);
        }
        return;
    }
    /* one sample, at the pixel centre: each edge function is its value at lane 0 plus a
       column and a row step per pixel */
    int64_t X = (int64_t)px[0] * RASTER_ONE + t->sx[0];
    int64_t Y = (int64_t)py[0] * RASTER_ONE + t->sy[0];
    int64_t e0[3], A[3], B[3];
    for (unsigned k = 0; k < 3; k++) {
        e0[k] = t->a[k] * X + t->b[k] * Y + t->c[k];
        A[k] = t->a[k] * RASTER_ONE;
        B[k] = t->b[k] * RASTER_ONE;
    }
    /* The whole 8x4 box at once when every lane lies in it (the engine's tiles): each edge
       function is linear, so its smallest value over the box is at a corner. Every edge
       at least 0 at all four corners covers every lane; one edge below 0 at all four
       covers none. The same answers as the test per lane below. */
    uint32_t off_box = 0;
    for (unsigned l = 0; l < 32; l++)
        off_box |= (uint32_t)(px[l] - px[0]) | ((uint32_t)(py[l] - py[0]) << 1);
    if (off_box <= 7u) {   /* x in 0..7, 2y in 0..7: y in 0..3 */
        bool all_in = true, none_in = false;
        for (unsigned k = 0; k < 3; k++) {
            int64_t c00 = e0[k], c10 = e0[k] + 7 * A[k], c01 = e0[k] + 3 * B[k],
                    c11 = c10 + 3 * B[k];
            all_in = all_in && c00 >= 0 && c10 >= 0 && c01 >= 0 && c11 >= 0;
            none_in = none_in || (c00 < 0 && c10 < 0 && c01 < 0 && c11 < 0);
        }
        if (all_in || none_in) {
            if (inside == UINT32_MAX) {
                for (unsigned l = 0; l < 32; l++)
                    cov[l] = all_in;
            } else {
                for (unsigned l = 0; l < 32; l++) {   /* without branches: inside lanes */
                    uint32_t in = 0u - ((inside >> l) & 1u);
                    cov[l] = (cov[l] & ~in) | ((uint32_t)all_in & in);
                }
            }
            return;
        }
    }
    edge_lanes(e0, t->a, t->b, px, py, inside, cov);
}

/* Whether raster_box_setup serves T's BOX by its shape (one sample, a box not empty, not
 * left of or above the target, at most 4x4 quads); its top-left quad Q[0], Q[1] and its
 * rows of quads Q[2]. */
static inline bool box_shape(const raster_tri *t, const int32_t box[4], int32_t q[3])
{
    if (t->samples != 1 || box[0] < 0 || box[1] < 0 || box[0] >= box[2] || box[1] >= box[3])
        return false;
    q[0] = box[0] >> 1;
    q[1] = box[1] >> 1;
    q[2] = ((box[3] + 1) >> 1) - q[1];
    return ((box[2] + 1) >> 1) - q[0] <= 4 && q[2] <= 4;
}

/* RB's box fields from BOX and its shape Q (box_shape). */
static inline void box_frame(const int32_t box[4], const int32_t q[3], raster_box *rb)
{
    rb->x0 = 2 * q[0];
    rb->y0 = 2 * q[1];
    rb->bx0 = box[0] - rb->x0;
    rb->bx1 = box[2] - rb->x0;
    rb->by0 = box[1] - rb->y0;
    rb->by1 = box[3] - rb->y0;
    rb->rows = (unsigned)q[2];
}

bool raster_box_setup(const raster_tri *t, const int32_t box[4], raster_box *rb)
{
    int32_t q[3];
    if (!box_shape(t, box, q))
        return false;
    const int32_t qx0 = q[0], qy0 = q[1];
    /* raster_coverage's integers from the box's top-left pixel: E = E0 + a ONE dx + b ONE dy,
       every partial sum within 32 bits when |E0| + 7 |a ONE| + 7 |b ONE| is */
    const int64_t X0 = (int64_t)(2 * qx0) * RASTER_ONE + t->sx[0];
    const int64_t Y0 = (int64_t)(2 * qy0) * RASTER_ONE + t->sy[0];
    for (unsigned k = 0; k < 3; k++) {
        const int64_t e = t->a[k] * X0 + t->b[k] * Y0 + t->c[k];
        const int64_t a = t->a[k] * RASTER_ONE, b = t->b[k] * RASTER_ONE;
        const int64_t bound = (e < 0 ? -e : e) + 7 * (a < 0 ? -a : a) + 7 * (b < 0 ? -b : b);
        if (bound > INT32_MAX)
            return false;
        rb->e0[k] = (int32_t)e;
        rb->a[k] = (int32_t)a;
        rb->b[k] = (int32_t)b;
    }
    box_frame(box, q, rb);
    return true;
}

#if defined(__GNUC__) && defined(__x86_64__)
/* raster_box_setup's edges in one vector of four 64-bit lanes (the three edges and a
 * fourth that is not read): the same integers, so the same box and the same verdict. Its
 * scalar loop was about 150 instructions a triangle of the mesh scene, mostly the three
 * absolute values and the bound of each edge. vpmuldq multiplies the low 32 bits of each
 * lane as signed numbers: X0 and Y0 lie within 2^31 once the box's coordinates are below
 * 2^22 (the scalar function takes any other box), and a and b within ±2^24 (raster_setup's
 * snapped coordinates lie within ±2^23), so the products are raster_box_setup's; and
 * where its bound holds, |a|, |b| < 2^20 anyway. */
/* (its loads of four 64-bit words at a, b and c: the static assertion before
   setup_edges_avx2) */
_Static_assert(offsetof(raster_box, a) == offsetof(raster_box, e0) + 12 &&
                   offsetof(raster_box, b) == offsetof(raster_box, a) + 12 &&
                   offsetof(raster_box, x0) == offsetof(raster_box, b) + 12,
               "raster_box_setup_avx2 stores four words at e0, a and b, in that order");
RASTER_AVX2 bool raster_box_setup_avx2(const raster_tri *t, const int32_t box[4],
                                       raster_box *rb)
{
    int32_t q[3];
    if (!box_shape(t, box, q))
        return false;
    if (box[2] >= (1 << 22) || box[3] >= (1 << 22))
        return raster_box_setup(t, box, rb);
    const int32_t qx0 = q[0], qy0 = q[1];
    const int64_t X0 = (int64_t)(2 * qx0) * RASTER_ONE + t->sx[0];
    const int64_t Y0 = (int64_t)(2 * qy0) * RASTER_ONE + t->sy[0];
    /* (lane 3 of each load is the next field's: computed, never read) */
    const __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)t->a);
    const __m256i b = _mm256_loadu_si256((const __m256i *)(const void *)t->b);
    const __m256i c = _mm256_loadu_si256((const __m256i *)(const void *)t->c);
    const __m256i e = _mm256_add_epi64(
        _mm256_add_epi64(_mm256_mul_epi32(a, _mm256_set1_epi64x(X0)),
                         _mm256_mul_epi32(b, _mm256_set1_epi64x(Y0))),
        c);
    const __m256i ao = _mm256_slli_epi64(a, RASTER_SUBPIXEL_BITS);
    const __m256i bo = _mm256_slli_epi64(b, RASTER_SUBPIXEL_BITS);
    const __m256i zero = _mm256_setzero_si256();
    __m256i m[3] = {e, ao, bo};
    for (unsigned k = 0; k < 3; k++) {   /* |v| as (v ^ s) - s, s the sign's mask */
        const __m256i s = _mm256_cmpgt_epi64(zero, m[k]);
        m[k] = _mm256_sub_epi64(_mm256_xor_si256(m[k], s), s);
    }
    /* |e| + 7 |a| + 7 |b|, 7 v as 8 v - v */
    const __m256i ab = _mm256_add_epi64(m[1], m[2]);
    const __m256i bound = _mm256_add_epi64(m[0], _mm256_sub_epi64(_mm256_slli_epi64(ab, 3), ab));
    if (_mm256_movemask_pd(_mm256_castsi256_pd(
            _mm256_cmpgt_epi64(bound, _mm256_set1_epi64x(INT32_MAX)))) & 0x7)
        return false;
    /* each vector's low words, lanes 0-2 of its first half: three stores of four words in
       the order of the fields, each one's fourth word overwritten by the next (b's, by x0) */
    const __m256i low = _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6);
    _mm_storeu_si128((__m128i *)(void *)rb->e0,
                     _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(e, low)));
    _mm_storeu_si128((__m128i *)(void *)rb->a,
                     _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(ao, low)));
    _mm_storeu_si128((__m128i *)(void *)rb->b,
                     _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(bo, low)));
    box_frame(box, q, rb);   /* (after the stores: b's overwrote x0) */
    return true;
}

/* The quads of RB's rows that have a covered lane, as raster_box_quads gives them: each
 * row of quads one 16-lane vector, its quads with a covered lane compressed into the
 * outputs. X, Y and COV need 16 elements of room past the last quad (each row's store is
 * a whole vector). */
RASTER_BOX_AVX512 static int box_quads(const raster_box *rb, int32_t *x, int32_t *y,
                                       uint32_t *cov, uint64_t *covered)
{
    raster_box_lanes L;
    raster_box_lanes_init(rb, &L);
    const __m512i one = _mm512_set1_epi32(1);
    const __m512i px = _mm512_add_epi32(L.dx, _mm512_set1_epi32(rb->x0));
    int n = 0;
    uint64_t cv = 0;
    for (unsigned r = 0; r < rb->rows; r++) {
        const __mmask16 m = raster_box_row(rb, &L, r);
        if (!m)
            continue;
        /* the whole quads (nibbles) with a covered lane */
        const __mmask16 keep = (__mmask16)(raster_box_quads_of(m) * 0xfu);
        const __m512i ry = _mm512_add_epi32(L.dy, _mm512_set1_epi32(rb->y0 + 2 * (int32_t)r));
        const __m512i c = _mm512_maskz_mov_epi32(m, one);
        _mm512_storeu_si512(x + 4 * n, _mm512_maskz_compress_epi32(keep, px));
        _mm512_storeu_si512(y + 4 * n, _mm512_maskz_compress_epi32(keep, ry));
        const __m512i cc = _mm512_maskz_compress_epi32(keep, c);
        _mm512_storeu_si512(cov + 4 * n, cc);
        cv |= (uint64_t)_mm512_test_epi32_mask(cc, cc) << (4 * n);
        n += __builtin_popcount(keep) / 4;
    }
    *covered = cv;
    return n;
}
#endif

int raster_box_quads(const raster_tri *t, const int32_t box[4], bool avx512, int32_t x[80],
                     int32_t y[80], uint32_t cov[80], uint64_t *covered)
{
    *covered = 0;
#if defined(__GNUC__) && defined(__x86_64__)
    raster_box rb;
    if (!avx512 || !raster_box_setup(t, box, &rb))
        return -1;
    return box_quads(&rb, x, y, cov, covered);
#else
    (void)t, (void)box, (void)avx512, (void)x, (void)y, (void)cov;
    return -1;
#endif
}

static int64_t floor_div64(int64_t a, int64_t b)
{
    int64_t q = a / b;
    if ((a % b) && ((a < 0) != (b < 0)))
        q--;
    return q;
}

/* V clamped into [lo, hi] as a column. */
static int32_t column(int64_t v, int32_t lo, int32_t hi)
{
    return v < lo ? lo : v > hi ? hi : (int32_t)v;
}

/* The columns [lo, hi) of T's box whose pixels meet every edge E = a X + b Y + c >= 0 at
 * the sample heights Y: YPOS where b >= 0, YNEG where b < 0, and the sample offsets X of a
 * pixel: SXPOS where a > 0, SXNEG where a < 0 (pixel px's sample at px ONE + that). The
 * two bounds below differ only in which extremes they pass. */
static void edge_columns(const raster_tri *t, int64_t ypos, int64_t yneg, int64_t sxpos,
                         int64_t sxneg, int32_t *x0, int32_t *x1)
{
    int32_t lo = t->x0, hi = t->x1;
    for (unsigned k = 0; k < 3 && lo < hi; k++) {
        int64_t a = t->a[k], b = t->b[k];
        int64_t m = t->c[k] + b * (b >= 0 ? ypos : yneg);
        if (a == 0) {
            if (m < 0)
                hi = lo;                                     /* outside the edge throughout */
        } else if (a > 0) {
            /* X >= ceil(-m / a); px ONE + sxpos >= that */
            int64_t xmin = -floor_div64(m, a);
            int64_t p = -floor_div_one(-(xmin - sxpos));
            lo = column(p, lo, hi);
        } else {
            /* X <= floor(m / -a); px ONE + sxneg <= that */
            int64_t xmax = floor_div64(m, -a);
            int64_t p = floor_div_one(xmax - sxneg) + 1;
            hi = column(p, lo, hi);
        }
    }
    *x0 = lo;
    *x1 = hi > lo ? hi : lo;
}

/* A sample of the rows that meets an edge needs it at the edge's most favourable corner of
 * the samples' hull: b Y at its greatest (bmax), and the pixel's sample X that a's sign
 * favours. */
void raster_row_span(const raster_tri *t, int32_t y0, int32_t y1, int32_t *x0, int32_t *x1)
{
    y0 = y0 > t->y0 ? y0 : t->y0;
    y1 = y1 < t->y1 ? y1 : t->y1;
    if (y0 >= y1) {
        *x0 = *x1 = t->x0;
        return;
    }
    /* (the samples' extremes, t->s*_min / _max, taken once at set-up) */
    int64_t ylo = (int64_t)y0 * RASTER_ONE + t->sy_min;
    int64_t yhi = (int64_t)(y1 - 1) * RASTER_ONE + t->sy_max;
    edge_columns(t, yhi, ylo, t->sx_max, t->sx_min, x0, x1);
}

/* Every sample of the rows meets an edge when its least corner of the samples' hull does
 * (E is linear): b Y at its least (bmin), the pixel's sample X that a's sign disfavours. */
void raster_row_inner(const raster_tri *t, int32_t y0, int32_t y1, int32_t *x0, int32_t *x1)
{
    if (y0 < t->y0 || y1 > t->y1 || y0 >= y1) {
        *x0 = *x1 = t->x0;
        return;
    }
    int64_t ylo = (int64_t)y0 * RASTER_ONE + t->sy_min;
    int64_t yhi = (int64_t)(y1 - 1) * RASTER_ONE + t->sy_max;
    edge_columns(t, ylo, yhi, t->sx_min, t->sx_max, x0, x1);
}
