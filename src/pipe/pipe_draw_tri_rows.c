/* The rows and columns a triangle may cover, from its vertices' window positions: for the
 * bands' masks of every triangle (pipe_draw_bands.c), one triangle at a time or sixteen at
 * once with AVX-512. */
#include "pipe_draw.h"
#include "pipe_draw_tri_box.h"

#include <math.h>
#include <string.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

void draw_tri_box(const draw_state *d, uint32_t inst, const draw_tri *t, int32_t box[4])
{
    tri_box(d, inst, t, box, 0);
}

void draw_tri_rows(const draw_state *d, uint32_t inst, const draw_tri *t, int32_t rows[2])
{
    int32_t box[4];
    tri_box(d, inst, t, box, 1);
    rows[0] = box[1];
    rows[1] = box[3];
}

#if defined(__GNUC__) && defined(__x86_64__)
/* draw_tri_rows of triangles T0 .. T0 + 15 of A at once: tri_box's float operations
 * lane-parallel in the same order (1 / w by a division, (y 1/w) scale + translate, no
 * contraction), the same tests (every w > 0, |y| < 1e9: ordered comparisons, so NaN fails
 * them as there), the same minimum and maximum (x < m ? x : m is vminps's rule), and the
 * floor and ceil of |y| < 1e9 exact in 32 bits; tests/pipe/test_tri_rows.c holds it to
 * draw_tri_rows bit for bit. The masks of bench_draw's two-thread mesh draw took 1.22 -
 * 1.61 ms triangle by triangle and 0.93 - 1.10 ms with it (the fastest of three draws in
 * each of six processes): the rest is mostly reading the 4.9 MB of positions. */
__attribute__((target("avx512f"))) void draw_tri_rows16(const draw_state *d, uint32_t inst,
                                                        const draw_assembly *a, size_t t0,
                                                        int32_t lo[16], int32_t hi[16])
{
    float y[3][16], w[3][16];
    for (unsigned l = 0; l < 16; l++) {
        draw_tri tmp;
        const draw_tri *t = draw_assembly_prim(a, t0 + l, &tmp);
        for (unsigned k = 0; k < 3; k++) {
            const uint32_t *p = draw_vs_out(d, d->pos_out, inst, t->v[k]);
            memcpy(&y[k][l], p + 1, sizeof(float));
            memcpy(&w[k][l], p + 3, sizeof(float));
        }
    }
    const __m512 zero = _mm512_setzero_ps(), one = _mm512_set1_ps(1.0f),
                 scale = _mm512_set1_ps(d->vp.scale[1]),
                 translate = _mm512_set1_ps(d->vp.translate[1]), bound = _mm512_set1_ps(1e9f);
    __mmask16 known = 0xffff;
    for (unsigned k = 0; k < 3; k++)
        known &= _mm512_cmp_ps_mask(_mm512_loadu_ps(w[k]), zero, _CMP_GT_OQ);
    __m512 loy = _mm512_set1_ps(INFINITY), hiy = _mm512_set1_ps(-INFINITY);
    for (unsigned k = 0; k < 3; k++) {
        const __m512 inv = _mm512_div_ps(one, _mm512_loadu_ps(w[k]));
        const __m512 wy = _mm512_add_ps(
            _mm512_mul_ps(_mm512_mul_ps(_mm512_loadu_ps(y[k]), inv), scale), translate);
        known &= _mm512_cmp_ps_mask(_mm512_abs_ps(wy), bound, _CMP_LT_OQ);
        loy = _mm512_min_ps(wy, loy);
        hiy = _mm512_max_ps(wy, hiy);
    }
    /* the clip rectangle's rows, where a lane's are not known or lie beyond them */
    const __m512i c0 = _mm512_set1_epi32(d->tri_clip[1]),
                  c1 = _mm512_set1_epi32(d->tri_clip[3] - 1);
    const __m512i f = _mm512_sub_epi32(
        _mm512_cvtps_epi32(_mm512_roundscale_ps(loy, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC)),
        _mm512_set1_epi32(1));
    const __m512i c = _mm512_add_epi32(
        _mm512_cvtps_epi32(_mm512_roundscale_ps(hiy, _MM_FROUND_TO_POS_INF | _MM_FROUND_NO_EXC)),
        _mm512_set1_epi32(1));
    _mm512_storeu_si512(lo, _mm512_mask_max_epi32(c0, known, f, c0));
    _mm512_storeu_si512(hi, _mm512_mask_min_epi32(c1, known, c, c1));
}
#endif
