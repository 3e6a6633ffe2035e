/* The interpolated inputs of a tile that lies in one triangle, in one AVX-512 or AVX2
 * pass (vm_stage_frag.h, vm_frag_tile_inputs_avx512 and _avx2; the AVX2 variant at the
 * end, in quarter warps of 8 lanes).
 *
 * The tile walk took them in two passes through memory: tile_bary's barycentrics of the
 * 32 lanes stored to the worker, then interp_tile per input reading them back, with
 * GCC's lane loops (horizontal OR reductions for the test of the perspective normaliser
 * per half warp, the weights spilled between channels): 3.0 ms of the loop workload's
 * 8.6 ms frame on an AMD Zen 4 core (perf, 1920x1080). Here both half warps'
 * barycentrics, weights and values stay in registers and the normaliser's test is one
 * mask for the warp: the loop workload 8.2 -> 7.8 ms a frame, bilinear 3 % less
 * (docs/performance-amd.md §1.2). Each half warp's values are kept in registers
 * (half_weights: GCC had kept arrays of them on the stack, each weight stored and loaded
 * again between the divisions), the products by 1/w are left out where the three are 1,
 * and the normaliser is a blend (vm_stage_frag_formulas16.h): loop 7.47 -> 7.12 ms,
 * bilinear 3 %, trilinear 1.6 % (docs/history/performance-log.md §49). The whole pass now
 * costs about 0.85 ms of the loop's 7.1 ms frame (a measurement build copying the right
 * values from a table). Dividing by area as a product in double precision (exact, as
 * (float)(e * (1.0 / area)) rounds to the quotient's float) was slower here (8.7 ms: the
 * conversions), and so was computing the next tile's inputs, or only its divisions, ahead
 * (8.5 and 7.5-8.2 ms: divisions in flight while the program runs cost it more than the
 * wait they save).
 *
 * The formulas are the tile paths' (vm_stage_frag_interp.h), with the same IEEE operations in the
 * same order (ISO C: no contraction, and intrinsics that are plain operations), so the
 * same bits (vm_stage_frag_formulas16.h): b_k = vm_frag_edge_plain(...) / area at the
 * pixel centre, then interp_tile's weights (LINEAR: b1, b2; otherwise b / d and c / d, d the normalising sum,
 * 1 where it is ±0, and no division where d is 1 in every lane of the warp and denormals
 * are kept: x / 1 is x, so interp_tile's test per half warp gives the same bits) and
 * v0 + w1 (v1 - v0) + w2 (v2 - v0) in the channels interp_tile writes (those the program
 * may read). The caller takes it only where interp_tile would take those formulas for
 * every input it hands over (no NaN input: the two forms at vm_stage_frag_interp.h's head; an
 * input equal at the vertices whose shortcut interp_tile would take gets the formula,
 * which gives the same value wherever the shortcut is taken). tests/vm/test_frag_tiles.c
 * holds the three ways (both variants, the C formulas) to its per-pixel model. */
#include "vm/vm_stage_frag.h"

#if VM_FRAG_TILE_KERNEL
#include "vm/vm_stage_frag_formulas16.h"

/* Whether input FI is one the pass computes: an attribute interpolated with the
 * barycentrics, as interp_tile sorts its inputs (not POSITION, FACE, flat or without an
 * attribute slot; LINEAR with the barycentrics, every other mode with the perspective
 * weights) */
static bool formula_input(const tv_vm_frag_params *fp, const vm_fs_input *fi)
{
    return fi->semantic != TV_SEM_POSITION && fi->semantic != TV_SEM_FACE &&
           !vm_frag_flat_input(fp, fi) && fi->reg < TV_VM_MAX_ATTRIBS;
}

bool vm_frag_tile_input(const vm_run *R, const vm_fs_input *fi)
{
    return formula_input(R->fp, fi);
}

/* (per thread, as the texture unit's kernel counters: a job's warps run on one thread) */
static _Thread_local uint64_t tile_passes;

uint64_t vm_frag_tile_passes(void)
{
    return tile_passes;
}

/* Whether the three 1/w of triangle T are 1 (a flat primitive's, as the suite's and any 2-D
   drawing's) and denormals are kept: b_k * 1 is b_k for every quotient b_k (a quiet NaN
   included), so the passes leave the products out of the chain */
static bool pass_unit_w(const vm_frag_tri *T, bool flushing)
{
    return !flushing && T->inv_w[0] == 1.0f && T->inv_w[1] == 1.0f && T->inv_w[2] == 1.0f;
}

/* Input FI's attribute rows at triangle T's three vertices */
typedef struct {
    const uint32_t *a[3];
} input_rows;

static inline input_rows rows_of(const tv_vm_frag_params *fp, const vm_frag_tri *T,
                                 const vm_fs_input *fi)
{
    return (input_rows){{fp->vertices[T->v[0]].attr[fi->reg],
                         fp->vertices[T->v[1]].attr[fi->reg],
                         fp->vertices[T->v[2]].attr[fi->reg]}};
}

/* Channel C of rows A: v0 and interp_b's differences d1 = v1 - v0, d2 = v2 - v0 */
static inline void chan_terms(const input_rows *A, unsigned c, float *v0, float *d1,
                              float *d2)
{
    *v0 = tv_bits_f32(A->a[0][c]);
    *d1 = tv_bits_f32(A->a[1][c]) - *v0;
    *d2 = tv_bits_f32(A->a[2][c]) - *v0;
}


/* Barycentric b_k of the lanes at (PX, PY): the edge from vertex A to B over the area */
__attribute__((target("avx512f"))) static inline __m512 bary16(const vm_frag_tri *T, unsigned a,
                                                               unsigned b, __m512 px, __m512 py,
                                                               __m512 area)
{
    return _mm512_div_ps(vm_frag_edge16(_mm512_set1_ps(T->x[a]), _mm512_set1_ps(T->y[a]),
                                        _mm512_set1_ps(T->x[b]), _mm512_set1_ps(T->y[b]), px,
                                        py),
                         area);
}

/* The weights of one half warp's 16 lanes: the barycentrics b1, b2 (LINEAR's) and the
 * perspective weights b / d, c / d (the others', where ANY_PERSP). Each half warp's values
 * are returned in registers: with arrays indexed by the half warp GCC kept them on the
 * stack between the divisions, and each store and load lay in the chain the program
 * waits for. */
typedef struct {
    __m512 b1, b2, pw1, pw2, d;
    __mmask16 not_one;   /* the lanes whose d is not 1 (a NaN's included) */
} tile_weights;

__attribute__((target("avx512f"))) static inline tile_weights
half_weights(const vm_frag_tri *T, const vm_warp *w, unsigned h, __m512 area, bool any_persp,
             bool unit_w)
{
    const __m512 half = _mm512_set1_ps(0.5f);
    const __m512 fx = _mm512_add_ps(
        _mm512_cvtepi32_ps(_mm512_loadu_si512((const void *)&w->lane_x[16 * h])), half);
    const __m512 fy = _mm512_add_ps(
        _mm512_cvtepi32_ps(_mm512_loadu_si512((const void *)&w->lane_y[16 * h])), half);
    tile_weights r;
    /* tile_bary's: b0's edge from vertex 1 to 2, b1's from 2 to 0, b2's from 0 to 1 */
    r.b1 = bary16(T, 2, 0, fx, fy, area);
    r.b2 = bary16(T, 0, 1, fx, fy, area);
    r.pw1 = r.b1;
    r.pw2 = r.b2;
    r.d = _mm512_set1_ps(1.0f);
    r.not_one = 0;
    if (any_persp) {
        /* interp_tile's persp_terms */
        const __m512 b0 = bary16(T, 1, 2, fx, fy, area);
        __m512 a = b0;
        if (!unit_w) {
            a = _mm512_mul_ps(b0, _mm512_set1_ps(T->inv_w[0]));
            r.pw1 = _mm512_mul_ps(r.b1, _mm512_set1_ps(T->inv_w[1]));
            r.pw2 = _mm512_mul_ps(r.b2, _mm512_set1_ps(T->inv_w[2]));
        }
        r.d = vm_frag_persp_d16(a, r.pw1, r.pw2);
        /* (d != 1 holds for a NaN, as interp_tile's test) */
        r.not_one = _mm512_cmp_ps_mask(r.d, _mm512_set1_ps(1.0f), _CMP_NEQ_UQ);
    }
    return r;
}

/* b / d and c / d; where d is 1 in every lane of the half warp and denormals are kept, b
   and c themselves (x / 1 is x: interp_tile's test, per half warp as there; in the suite's
   full-screen rectangle a half warp has d = 1 far more often than a warp) */
__attribute__((target("avx512f"))) static inline void normalise(tile_weights *W, bool flushing)
{
    if (flushing || W->not_one) {
        W->pw1 = _mm512_div_ps(W->pw1, W->d);
        W->pw2 = _mm512_div_ps(W->pw2, W->d);
    }
}

/* A half warp's value of a channel: v0 + w1 d1 + w2 d2 with LINEAR's or the perspective
   weights */
__attribute__((target("avx512f"))) static inline __m512
half_value(const tile_weights *W, bool linear, __m512 v0, __m512 d1, __m512 d2)
{
    return vm_frag_lerp16(v0, linear ? W->b1 : W->pw1, d1, linear ? W->b2 : W->pw2, d2);
}

__attribute__((target("avx512f"))) void vm_frag_tile_inputs_avx512(const vm_run *R,
                                                                   const vm_warp *w,
                                                                   const vm_frag_tri *T,
                                                                   vm_slot *regs)
{
    const tv_vm_frag_params *fp = R->fp;
    const tv_vm_program *p = R->prog;
    const bool flushing = R->vm->cfg.flush_denormals;
    tile_passes++;
    const bool any_persp = R->tile_pass_persp, unit_w = pass_unit_w(T, flushing);
    const __m512 area = _mm512_set1_ps(T->area);
    /* both half warps at once: their chains (a division's latency, then the normaliser's
       division) overlap */
    tile_weights W0 = half_weights(T, w, 0, area, any_persp, unit_w);
    tile_weights W1 = half_weights(T, w, 1, area, any_persp, unit_w);
    if (any_persp) {
        normalise(&W0, flushing);
        normalise(&W1, flushing);
    }
    for (unsigned j = 0; j < R->tile_pass_n; j++) {
        const vm_fs_input *fi = &p->inputs[R->tile_pass_in[j]];
        const input_rows A = rows_of(fp, T, fi);
        const bool linear = fi->interp == TV_INTERP_LINEAR;
        vm_slot *dst = &regs[p->in.base + fi->reg * 4];
        for (unsigned c = 0; c < 4; c++) {
            if (!((fi->read >> c) & 1u))
                continue;
            float v0, d1, d2;
            chan_terms(&A, c, &v0, &d1, &d2);
            const __m512 v0v = _mm512_set1_ps(v0), d1v = _mm512_set1_ps(d1),
                         d2v = _mm512_set1_ps(d2);
            _mm512_storeu_ps(&dst[c].f[0], half_value(&W0, linear, v0v, d1v, d2v));
            _mm512_storeu_ps(&dst[c].f[16], half_value(&W1, linear, v0v, d1v, d2v));
        }
    }
}

/* ---- AVX2: the same pass in quarter warps of 8 lanes ---------------------------------- */

/* Barycentric b_k of 8 lanes at (PX, PY), as bary16 */
__attribute__((target("avx2"))) static inline __m256 bary8(const vm_frag_tri *T, unsigned a,
                                                           unsigned b, __m256 px, __m256 py,
                                                           __m256 area)
{
    return _mm256_div_ps(vm_frag_edge8(_mm256_set1_ps(T->x[a]), _mm256_set1_ps(T->y[a]),
                                       _mm256_set1_ps(T->x[b]), _mm256_set1_ps(T->y[b]), px,
                                       py),
                         area);
}

/* The weights of the warp's four quarters of 8 lanes: LINEAR's (b1, b2) and the
   perspective ones (pw1, pw2) */
typedef struct {
    __m256 b1[4], b2[4], pw1[4], pw2[4];
} tile_weights8;

/* half_weights and normalise for all four quarters. Every quarter's normaliser divides:
   the same bits as interp_tile's test per half warp (where d is 1 in each lane and
   denormals are kept, x / 1 is x; with them flushed it divides too; a quotient's NaN is
   quiet and keeps its bits). The branch on that test waits for the barycentrics'
   divisions and goes either way from one half warp to the next: with it (after all four
   quarters' barycentrics) the trilinear workload's frame was 6 % and rotated's 3.5 %
   longer under the AVX2 ceiling on AMD Zen 5, loop's 1 % shorter. Every barycentric's
   division is issued before the normaliser's, which wait for them: with each half warp's
   weights whole before the next half's barycentrics, loop's frame was 3 % longer than
   with the C formulas (tile_bary and interp_tile). */
__attribute__((target("avx2"))) static inline void
warp_weights8(const vm_frag_tri *T, const vm_warp *w, bool any_persp, bool unit_w,
              tile_weights8 *W)
{
    const __m256 half = _mm256_set1_ps(0.5f), area = _mm256_set1_ps(T->area);
    for (unsigned q = 0; q < 4; q++) {
        const __m256 fx = _mm256_add_ps(
            _mm256_cvtepi32_ps(_mm256_loadu_si256((const __m256i *)&w->lane_x[8 * q])), half);
        const __m256 fy = _mm256_add_ps(
            _mm256_cvtepi32_ps(_mm256_loadu_si256((const __m256i *)&w->lane_y[8 * q])), half);
        W->b1[q] = bary8(T, 2, 0, fx, fy, area);
        W->b2[q] = bary8(T, 0, 1, fx, fy, area);
        W->pw1[q] = W->b1[q];
        W->pw2[q] = W->b2[q];
        if (any_persp) {
            const __m256 b0 = bary8(T, 1, 2, fx, fy, area);
            __m256 a = b0;
            if (!unit_w) {
                a = _mm256_mul_ps(b0, _mm256_set1_ps(T->inv_w[0]));
                W->pw1[q] = _mm256_mul_ps(W->b1[q], _mm256_set1_ps(T->inv_w[1]));
                W->pw2[q] = _mm256_mul_ps(W->b2[q], _mm256_set1_ps(T->inv_w[2]));
            }
            const __m256 d = vm_frag_persp_d8(a, W->pw1[q], W->pw2[q]);
            W->pw1[q] = _mm256_div_ps(W->pw1[q], d);
            W->pw2[q] = _mm256_div_ps(W->pw2[q], d);
        }
    }
}

__attribute__((target("avx2"))) void vm_frag_tile_inputs_avx2(const vm_run *R,
                                                              const vm_warp *w,
                                                              const vm_frag_tri *T,
                                                              vm_slot *regs)
{
    const tv_vm_frag_params *fp = R->fp;
    const tv_vm_program *p = R->prog;
    const bool flushing = R->vm->cfg.flush_denormals;
    tile_passes++;
    tile_weights8 W;
    warp_weights8(T, w, R->tile_pass_persp, pass_unit_w(T, flushing), &W);
    for (unsigned j = 0; j < R->tile_pass_n; j++) {
        const vm_fs_input *fi = &p->inputs[R->tile_pass_in[j]];
        const input_rows A = rows_of(fp, T, fi);
        const bool linear = fi->interp == TV_INTERP_LINEAR;
        const __m256 *w1 = linear ? W.b1 : W.pw1, *w2 = linear ? W.b2 : W.pw2;
        vm_slot *dst = &regs[p->in.base + fi->reg * 4];
        for (unsigned c = 0; c < 4; c++) {
            if (!((fi->read >> c) & 1u))
                continue;
            float v0, d1, d2;
            chan_terms(&A, c, &v0, &d1, &d2);
            const __m256 v0v = _mm256_set1_ps(v0), d1v = _mm256_set1_ps(d1),
                         d2v = _mm256_set1_ps(d2);
            for (unsigned q = 0; q < 4; q++)
                _mm256_storeu_ps(&dst[c].f[8 * q], vm_frag_lerp8(v0v, w1[q], d1v, w2[q], d2v));
        }
    }
}
#else
uint64_t vm_frag_tile_passes(void)
{
    return 0;
}
#endif
