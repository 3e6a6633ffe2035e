/* Packed groups' inputs in one pass per warp (vm_stage_frag_defer.h).
 *
 * The formulas are the tile paths' of vm_stage_frag_interp.h, lane by lane with the lane's own
 * group's numbers in place of the one triangle's: tile_bary's barycentrics
 * b_k = vm_frag_edge_plain(...) / area at the pixel centre, interp_tile's perspective weights
 * b / d, c / d (d the normalising sum, 1 where it is 0; LINEAR: the barycentrics b1, b2)
 * and v0 + w1 (v1 - v0) + w2 (v2 - v0). The same IEEE operations in the same order (ISO
 * C: no contraction, no FMA enabled), so the same bits: the differences v1 - v0, v2 - v0
 * are taken once per group here as interp_tile takes them once per triangle. The groups
 * taken are those for which the tile paths give the reference's bits (no NaN in the
 * formulas' inputs; the two forms at vm_stage_frag_interp.h's head), and whose inputs
 * interp_tile would compute with these formulas: the shortcut of an attribute equal at
 * the three vertices returns what the formula gives wherever it is taken (finite
 * weights), so the formula serves those lanes too.
 *
 * The AVX-512 kernel expands the tables to lanes with one permute per number and 16
 * lanes (vpermps by each lane's group); the divisions, most of the groups'
 * interpolation time (perf annotate of tile_bary and interp_tile in the mesh scene), are
 * then made once per lane instead of once per lane and group. The AVX2 kernel does the
 * same on 8 lanes, a table's 16 entries in two registers (a permute of each and a blend
 * where a warp has more than 8 groups). The plain loop is the kernels' reference in
 * tests/vm/test_frag_defer.c; the engine defers groups only where a kernel runs
 * (vm_stage_frag_pack.c), since the loop's scalar divisions would cost a CPU without
 * AVX2 more than the groups' own vector passes. */
#include "vm/vm_stage_frag_defer.h"
#include "vm/vm_stage_frag.h"

#include <string.h>

#if defined(__GNUC__) && defined(__x86_64__)
#include "vm/vm_stage_frag_formulas16.h"
#define DEFER_X86 1
#else
#define DEFER_X86 0
#endif

void vm_frag_defer_plan_init(vm_frag_defer_plan *pl, const tv_vm_program *p)
{
    memset(pl, 0, sizeof *pl);
    if (p->num_svs)
        return;
    for (uint32_t k = 0; k < p->num_inputs; k++) {
        const vm_fs_input *fi = &p->inputs[k];
        if (fi->semantic == TV_SEM_POSITION || fi->semantic == TV_SEM_FACE ||
            fi->reg >= TV_VM_MAX_ATTRIBS || fi->location == TV_LOC_SAMPLE)
            return;
        bool persp;
        if (fi->interp == TV_INTERP_LINEAR)
            persp = false;
        else if (fi->interp == TV_INTERP_PERSPECTIVE || fi->interp == TV_INTERP_COLOR)
            persp = true;
        else
            return;   /* CONSTANT and anything else: computed at once */
        pl->has_color |= fi->interp == TV_INTERP_COLOR;
        pl->has_centroid |= fi->location == TV_LOC_CENTROID;
        for (unsigned c = 0; c < 4; c++) {
            if (!((fi->read >> c) & 1u))
                continue;   /* never looked at (interp_tile leaves them too) */
            if (pl->n == VM_DEFER_CHANNELS)
                return;
            pl->reg[pl->n] = (uint8_t)fi->reg;
            pl->chan[pl->n] = (uint8_t)c;
            pl->persp[pl->n] = persp;
            pl->slot[pl->n] = p->in.base + fi->reg * 4 + c;
            pl->any_persp |= persp;
            pl->n++;
        }
    }
    pl->ok = true;
}

bool vm_frag_defer_group(vm_frag_defer *D, const vm_frag_defer_plan *pl, const vm_run *R,
                         unsigned lo, unsigned hi)
{
    const tv_vm_frag_params *fp = R->fp;
    const tv_vm_program *p = R->prog;
    if (!pl->ok || R->num_tris != 1 || D->groups == VM_DEFER_GROUPS ||
        (pl->has_color && fp->flatshade) || (pl->has_centroid && R->samples > 1))
        return false;
    const vm_frag_tri *t = &R->tris[0];
    if (t->nan_in)
        return false;
    /* every input's four channels, as interp_tile tests them */
    for (uint32_t k = 0; k < p->num_inputs; k++) {
        const uint32_t r = p->inputs[k].reg;
        if (vm_frag_any_nan_rows(fp->vertices[t->v[0]].attr[r], fp->vertices[t->v[1]].attr[r],
                         fp->vertices[t->v[2]].attr[r]))
            return false;
    }
    const unsigned g = D->groups++;
    D->deferred++;
    for (unsigned k = 0; k < 3; k++) {
        D->x[k][g] = t->x[k];
        D->y[k][g] = t->y[k];
        D->iw[k][g] = t->inv_w[k];
    }
    D->area[g] = t->area;
    for (unsigned i = 0; i < pl->n; i++) {
        const unsigned r = pl->reg[i], c = pl->chan[i];
        const float v0 = tv_bits_f32(fp->vertices[t->v[0]].attr[r][c]);
        const float v1 = tv_bits_f32(fp->vertices[t->v[1]].attr[r][c]);
        const float v2 = tv_bits_f32(fp->vertices[t->v[2]].attr[r][c]);
        D->v0[i][g] = v0;
        D->d1[i][g] = v1 - v0;   /* interp_tile's d1, d2 */
        D->d2[i][g] = v2 - v0;
    }
    for (unsigned l = lo; l < hi; l++)
        D->lane_group[l] = g;
    D->lanes |= (uint32_t)((1ull << (hi - lo)) - 1u) << lo;
    return true;
}

/* The plain loop: lane by lane, scalars. */
static void defer_run_c(const vm_frag_defer *D, const vm_frag_defer_plan *pl,
                        const vm_warp *w, vm_slot *regs)
{
    for (uint32_t m = D->lanes; m; m &= m - 1) {
        const unsigned l = (unsigned)__builtin_ctz(m), g = D->lane_group[l];
        const float fx = (float)w->lane_x[l] + 0.5f, fy = (float)w->lane_y[l] + 0.5f;
        const float x0 = D->x[0][g], x1 = D->x[1][g], x2 = D->x[2][g];
        const float y0 = D->y[0][g], y1 = D->y[1][g], y2 = D->y[2][g];
        const float b0 = vm_frag_edge_plain(x1, y1, x2, y2, fx, fy) / D->area[g];
        const float b1 = vm_frag_edge_plain(x2, y2, x0, y0, fx, fy) / D->area[g];
        const float b2 = vm_frag_edge_plain(x0, y0, x1, y1, fx, fy) / D->area[g];
        float pw1 = 0.0f, pw2 = 0.0f;
        if (pl->any_persp) {
            /* persp_terms */
            const float a = b0 * D->iw[0][g], b = b1 * D->iw[1][g], c = b2 * D->iw[2][g];
            const float sum = a + b + c;
            const float d = sum + (float)(sum == 0.0f);
            pw1 = b / d;
            pw2 = c / d;
        }
        for (unsigned i = 0; i < pl->n; i++) {
            const float w1 = pl->persp[i] ? pw1 : b1, w2 = pl->persp[i] ? pw2 : b2;
            regs[pl->slot[i]].f[l] = D->v0[i][g] + w1 * D->d1[i][g] + w2 * D->d2[i][g];
        }
    }
}

#if DEFER_X86
/* The same, 16 lanes at a time; each table entry goes to its group's lanes by a permute.
 * (Intrinsics: GCC's generic vectors under target_clones were scalarised in the box
 * kernel, pipe_raster.c.) */
__attribute__((target("avx512f"))) static void defer_run_avx512(const vm_frag_defer *D,
                                                                const vm_frag_defer_plan *pl,
                                                                const vm_warp *w,
                                                                vm_slot *regs)
{
    const __m512 half = _mm512_set1_ps(0.5f);
    for (unsigned h = 0; h < VM_LANES; h += 16) {
        const __mmask16 k = (__mmask16)(D->lanes >> h);
        if (!k)
            continue;
        const __m512i g = _mm512_loadu_si512((const void *)&D->lane_group[h]);
#define LANES_OF(table) _mm512_permutexvar_ps(g, _mm512_loadu_ps(table))
        const __m512 fx = _mm512_add_ps(
            _mm512_cvtepi32_ps(_mm512_loadu_si512((const void *)&w->lane_x[h])), half);
        const __m512 fy = _mm512_add_ps(
            _mm512_cvtepi32_ps(_mm512_loadu_si512((const void *)&w->lane_y[h])), half);
        const __m512 x0 = LANES_OF(D->x[0]), x1 = LANES_OF(D->x[1]), x2 = LANES_OF(D->x[2]);
        const __m512 y0 = LANES_OF(D->y[0]), y1 = LANES_OF(D->y[1]), y2 = LANES_OF(D->y[2]);
        const __m512 area = LANES_OF(D->area);
        const __m512 b0 = _mm512_div_ps(vm_frag_edge16(x1, y1, x2, y2, fx, fy), area);
        const __m512 b1 = _mm512_div_ps(vm_frag_edge16(x2, y2, x0, y0, fx, fy), area);
        const __m512 b2 = _mm512_div_ps(vm_frag_edge16(x0, y0, x1, y1, fx, fy), area);
        __m512 pw1 = b1, pw2 = b2;
        if (pl->any_persp) {
            const __m512 a = _mm512_mul_ps(b0, LANES_OF(D->iw[0]));
            const __m512 b = _mm512_mul_ps(b1, LANES_OF(D->iw[1]));
            const __m512 c = _mm512_mul_ps(b2, LANES_OF(D->iw[2]));
            const __m512 d = vm_frag_persp_d16(a, b, c);
            pw1 = _mm512_div_ps(b, d);
            pw2 = _mm512_div_ps(c, d);
        }
        for (unsigned i = 0; i < pl->n; i++) {
            const __m512 w1 = pl->persp[i] ? pw1 : b1, w2 = pl->persp[i] ? pw2 : b2;
            const __m512 v = vm_frag_lerp16(LANES_OF(D->v0[i]), w1, LANES_OF(D->d1[i]), w2,
                                            LANES_OF(D->d2[i]));
            _mm512_mask_storeu_ps(&regs[pl->slot[i]].f[h], k, v);
        }
#undef LANES_OF
    }
}
#endif

#if DEFER_X86
/* The same, 8 lanes at a time (AVX2): each table's entries 0-7 and 8-15 go to the lanes by
 * a permute each (vpermps takes an index's low 3 bits), the second blended in where the
 * lane's group is 8 or more (only when the warp has more than 8 groups); the lanes
 * outside D->lanes keep their registers by a blend. */
__attribute__((target("avx2"))) static void defer_run_avx2(const vm_frag_defer *D,
                                                           const vm_frag_defer_plan *pl,
                                                           const vm_warp *w, vm_slot *regs)
{
    const __m256 half = _mm256_set1_ps(0.5f);
    const __m256i bit = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
    const bool two = D->groups > 8;
    for (unsigned q = 0; q < VM_LANES; q += 8) {
        const int k = (int)((D->lanes >> q) & 0xffu);
        if (!k)
            continue;
        const __m256 keep = _mm256_castsi256_ps(_mm256_cmpeq_epi32(
            _mm256_and_si256(_mm256_set1_epi32(k), bit), _mm256_setzero_si256()));
        const __m256i g = _mm256_loadu_si256((const __m256i *)(const void *)&D->lane_group[q]);
        const __m256 upper = _mm256_castsi256_ps(_mm256_cmpgt_epi32(g, _mm256_set1_epi32(7)));
#define LANES_OF(table)                                                                     \
    (two ? _mm256_blendv_ps(_mm256_permutevar8x32_ps(_mm256_loadu_ps(table), g),            \
                            _mm256_permutevar8x32_ps(_mm256_loadu_ps((table) + 8), g), upper) \
         : _mm256_permutevar8x32_ps(_mm256_loadu_ps(table), g))
        const __m256 fx = _mm256_add_ps(
            _mm256_cvtepi32_ps(_mm256_loadu_si256((const __m256i *)(const void *)&w->lane_x[q])),
            half);
        const __m256 fy = _mm256_add_ps(
            _mm256_cvtepi32_ps(_mm256_loadu_si256((const __m256i *)(const void *)&w->lane_y[q])),
            half);
        const __m256 x0 = LANES_OF(D->x[0]), x1 = LANES_OF(D->x[1]), x2 = LANES_OF(D->x[2]);
        const __m256 y0 = LANES_OF(D->y[0]), y1 = LANES_OF(D->y[1]), y2 = LANES_OF(D->y[2]);
        const __m256 area = LANES_OF(D->area);
        const __m256 b0 = _mm256_div_ps(vm_frag_edge8(x1, y1, x2, y2, fx, fy), area);
        const __m256 b1 = _mm256_div_ps(vm_frag_edge8(x2, y2, x0, y0, fx, fy), area);
        const __m256 b2 = _mm256_div_ps(vm_frag_edge8(x0, y0, x1, y1, fx, fy), area);
        __m256 pw1 = b1, pw2 = b2;
        if (pl->any_persp) {
            const __m256 a = _mm256_mul_ps(b0, LANES_OF(D->iw[0]));
            const __m256 b = _mm256_mul_ps(b1, LANES_OF(D->iw[1]));
            const __m256 c = _mm256_mul_ps(b2, LANES_OF(D->iw[2]));
            const __m256 d = vm_frag_persp_d8(a, b, c);
            pw1 = _mm256_div_ps(b, d);
            pw2 = _mm256_div_ps(c, d);
        }
        for (unsigned i = 0; i < pl->n; i++) {
            const __m256 w1 = pl->persp[i] ? pw1 : b1, w2 = pl->persp[i] ? pw2 : b2;
            const __m256 v = vm_frag_lerp8(LANES_OF(D->v0[i]), w1, LANES_OF(D->d1[i]), w2,
                                           LANES_OF(D->d2[i]));
            float *r = &regs[pl->slot[i]].f[q];
            _mm256_storeu_ps(r, _mm256_blendv_ps(v, _mm256_loadu_ps(r), keep));
        }
#undef LANES_OF
    }
}
#endif

void vm_frag_defer_run(vm_frag_defer *D, const vm_frag_defer_plan *pl, const vm_warp *w,
                       vm_slot *regs, unsigned kernel)
{
    if (D->lanes) {
#if DEFER_X86
        if (kernel == VM_DEFER_AVX512)
            defer_run_avx512(D, pl, w, regs);
        else if (kernel == VM_DEFER_AVX2)
            defer_run_avx2(D, pl, w, regs);
        else
#endif
            defer_run_c(D, pl, w, regs);
    }
    (void)kernel;
    D->lanes = 0;
    D->groups = 0;
}
