/* FRAG stage set-up: a run's primitive from its parameters (vm_frag_run_setup, in two parts
 * for a batch: vm_frag_run_setup_shared, vm_frag_run_setup_primitive), each triangle's
 * vertices, orientation, 1/w and area, and what is proven once per triangle instead of at
 * every tile (vm_frag_tri_attrs: the inputs equal at the three vertices, the weights known
 * finite, the attributes holding a NaN). The tile walk that runs the set-up primitive is
 * vm_stage_frag.c. */
#include <math.h>
#include <stdint.h>
#include <string.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "texvm/tex.h"
#include "util/bits.h"
#include "vm/vm_run.h"
#include "vm/vm_stage_frag.h"
#include "vm/vm_stage_frag_store.h"

/* An attribute the same at the three vertices comes out as itself wherever the weights w1,
 * w2 of interp_b's v0 + w1 (v1 - v0) + w2 (v2 - v0) are finite: v1 - v0 and v2 - v0 are
 * +0 (x - x, x a number), w (+0) a zero, and v0 plus a zero is v0 — unless v0 is -0
 * (-0 + +0 = +0) or a denormal (read as 0 where denormals are flushed: the sum a zero).
 * So a flat-looking input (a colour given once for a primitive) costs no divisions. */
static TV_ALWAYS_INLINE bool same_at_vertices(const uint32_t *a0, const uint32_t *a1,
                                              const uint32_t *a2)
{
    uint32_t differ = 0;
    for (unsigned c = 0; c < 4; c++) {
        uint32_t e = a0[c] & 0x7f800000u;
        /* a normal number or +0 (not a NaN, an infinity, -0 or a denormal) */
        bool plain = (e != 0 && e != 0x7f800000u) || a0[c] == 0;
        differ |= (a0[c] ^ a1[c]) | (a0[c] ^ a2[c]) | (uint32_t)!plain;
    }
    return differ == 0;
}

/* Which of interp_tile's weights are finite at every lane a W x H target's tiles may hold
 * (pixel centres in [0, max(W, H) + 8), the tiles' overhang included), proven once per
 * triangle from bounds instead of finite_weights' test of every lane's barycentrics, so
 * a tile whose inputs all take the same-value shortcut needs no barycentrics at all.
 *
 * With B the largest coordinate (vertices, lanes; at least 1) and R = B^2 / area (area
 * > 0 after set-up's orientation): each edge value errs from the exact one by less than
 * 34 u B^2 (u = 2^-24; two products of differences of magnitude <= 2B, their difference:
 * 32.01 u B^2, plus flushed denormals), so does the area, and |e_k| <= 8.01 B^2. The
 * exact edge values at any point sum to the exact doubled area, so with R <= 2^12 the
 * barycentrics b_k = e_k / area sum to within [0.96, 1.04] and |b_k| <= 8.02 R: LINEAR's
 * weights are finite. PERSPECTIVE with the three 1/w equal (iw): d = iw (b0 + b1 + b2)
 * within 0.018 |iw| (five roundings of terms <= 8.02 R |iw|), so |d| >= 0.94 |iw| >=
 * 2^-62 for |iw| >= 2^-61, and |b|, |c| <= 8.03 R |iw| <= 2^62 for |iw| <= 2^46: the
 * bounds finite_weights tests. (Lanes outside the target are never stored.) */
static uint8_t bounded_weights(const vm_frag_tri *t, uint32_t w, uint32_t h)
{
    double B = (double)(w > h ? w : h) + 8.0;
    for (unsigned k = 0; k < 3; k++) {
        double ax = fabs((double)t->x[k]), ay = fabs((double)t->y[k]);
        B = ax > B ? ax : B;
        B = ay > B ? ay : B;
    }
    double area = (double)t->area;
    if (!(B <= 0x1p40) || !(area > 0.0) || !(B * B <= 4096.0 * area))
        return 0;
    uint8_t b = VM_FRAG_BOUNDED_LINEAR;
    float iw = t->inv_w[0];
    if (tv_f32_bits(iw) == tv_f32_bits(t->inv_w[1]) &&
        tv_f32_bits(iw) == tv_f32_bits(t->inv_w[2]) && fabsf(iw) >= 0x1p-61f &&
        fabsf(iw) <= 0x1p46f)
        b |= VM_FRAG_BOUNDED_PERSP;
    return b;
}

void tv_vm_frag_params_fullscreen(tv_vm_frag_params *fp, uint32_t width, uint32_t height,
                                  tv_vm_frag_prim prim)
{
    memset(fp, 0, sizeof *fp);
    fp->width = width;
    fp->height = height;
    fp->samples = 1;
    fp->prim = (uint8_t)prim;
    fp->front_face = true;
    float W = (float)width, H = (float)height;
    if (prim == TV_VM_PRIM_RECT) {
        float xs[4] = {0, W, 0, W}, ys[4] = {0, 0, H, H};
        for (unsigned v = 0; v < 4; v++) {
            fp->vertices[v].x = xs[v];
            fp->vertices[v].y = ys[v];
            fp->vertices[v].w = 1.0f;
        }
    } else {
        float xs[3] = {0, 2 * W, 0}, ys[3] = {0, 0, 2 * H};
        for (unsigned v = 0; v < 3; v++) {
            fp->vertices[v].x = xs[v];
            fp->vertices[v].y = ys[v];
            fp->vertices[v].w = 1.0f;
        }
    }
}

void vm_frag_tri_attrs(const vm_run *run, vm_frag_tri *tr)
{
    const tv_vm_program *p = run->prog;
    const tv_vm_frag_params *params = run->fp;
    /* the inputs' attributes the same at the three vertices: once per triangle here,
       not at every warp (a tenth of a cheap warp's set-up) */
    tr->same_attrs = tr->nan_attrs = 0;
    for (uint32_t i = 0; i < p->num_inputs; i++) {
        uint32_t r = p->inputs[i].reg;
        /* (POSITION and FACE have no attributes: a pipeline leaves their rows unset,
           which valgrind saw read here) */
        const uint8_t sem = p->inputs[i].semantic;
        if (r >= TV_VM_MAX_ATTRIBS || sem == TV_SEM_POSITION || sem == TV_SEM_FACE)
            continue;
        const uint32_t *a0 = params->vertices[tr->v[0]].attr[r],
                       *a1 = params->vertices[tr->v[1]].attr[r],
                       *a2 = params->vertices[tr->v[2]].attr[r];
        if (same_at_vertices(a0, a1, a2))
            tr->same_attrs |= (uint64_t)1 << r;
        /* (interp_tile tested the twelve words at every tile: about 40 instructions a
           tile and input) */
        if (vm_frag_any_nan_rows(a0, a1, a2))
            tr->nan_attrs |= (uint64_t)1 << r;
    }
    /* (only the same-value shortcut asks) */
    tr->bounded = tr->nan_in || !tr->same_attrs
                      ? 0 : bounded_weights(tr, params->width, params->height);
    tr->attrs_known = true;
}

tv_status vm_frag_run_setup_shared(vm_run *run, const tv_vm_frag_params *params, tv_error *err)
{
    const tv_vm_program *p = run->prog;
    if (!params || !params->width || !params->height)
        return tv_error_set(err, TV_ERR_ARG, 0, 0, "fragment run needs a target size");
    if (params->width > 65536 || params->height > 65536)
        return tv_error_set(err, TV_ERR_ARG, 0, 0, "target %ux%u is too large", params->width,
                            params->height);
    run->fp = params;
    run->samples = params->samples ? params->samples : 1;
    if (run->samples > 16 || (run->samples & (run->samples - 1)))
        return tv_error_set(err, TV_ERR_ARG, 0, 0, "unsupported sample count %u", run->samples);
    for (uint32_t s = 0; s < run->samples && run->samples > 1; s++)
        tv_tex_sample_position(run->samples, s, &run->sample_pos[s][0], &run->sample_pos[s][1]);
    run->per_sample = (p->uses_sample_shading || params->sample_shading) && run->samples > 1;
    run->sample_interp = params->sample_shading;
    run->tile_kernel = false;
#if VM_FRAG_TILE_KERNEL
    const unsigned store_isa = vm_frag_store_isa_run(run);
    run->tile_kernel = !run->plain && store_isa >= VM_STORE_AVX2;
    run->tile_kernel_avx512 = store_isa >= VM_STORE_AVX512;
    for (uint32_t k = 0; k < p->num_inputs; k++)
        if (p->inputs[k].semantic == TV_SEM_POSITION)
            run->tile_kernel = false;   /* interp_tile reads the barycentrics for z and 1/w */
    /* the inputs the pass computes, in their order (vm_run.tile_pass_in) */
    run->tile_pass_n = 0;
    run->tile_pass_persp = false;
    uint64_t regs = 0;   /* (the registers of those inputs: each below TV_VM_MAX_ATTRIBS) */
    for (uint32_t k = 0; k < p->num_inputs && run->tile_kernel; k++) {
        const vm_fs_input *fi = &p->inputs[k];
        if (!vm_frag_tile_input(run, fi))
            continue;
        if (run->tile_pass_n >= TV_VM_MAX_ATTRIBS) {
            /* (never: the inputs' registers are distinct and below the bound; should it
               happen, the tiles take the per-input way, the same values) */
            run->tile_kernel = false;
            break;
        }
        run->tile_pass_in[run->tile_pass_n++] = k;
        run->tile_pass_persp |= fi->interp != TV_INTERP_LINEAR;
        regs |= 1ull << fi->reg;
    }
    /* every IN register an input the pass computes (all 32 lanes of the channels the
       program may read: vm_lower.c mark_input_reads, every channel under indirect access;
       an IN register that is no input would be read as the zeros it starts at): IN[0] to
       IN[count - 1] all among the pass's registers, so count at most TV_VM_MAX_ATTRIBS */
    _Static_assert(TV_VM_MAX_ATTRIBS == 64, "one bit a register in regs");
    const uint64_t all_in = p->in.count >= 64 ? ~0ull
                            : p->in.count > 0 ? (1ull << p->in.count) - 1 : 0;
    run->in_by_pass = run->tile_kernel && p->in.count > 0 &&
                      p->in.count <= TV_VM_MAX_ATTRIBS && (regs & all_in) == all_in;
#else
    run->in_by_pass = false;
#endif
    return TV_OK;
}

tv_status vm_frag_run_setup_primitive(vm_run *run, const tv_vm_frag_params *params,
                                      tv_error *err)
{
    run->fp = params;
    unsigned nv = params->prim == TV_VM_PRIM_RECT ? 4 : 3;
    static const uint32_t idx[2][3] = {{0, 1, 2}, {2, 1, 3}};
    run->num_tris = nv == 4 ? 2 : 1;
    for (uint32_t t = 0; t < run->num_tris; t++) {
        vm_frag_tri *tr = &run->tris[t];
        float vw[3];
        for (unsigned k = 0; k < 3; k++) {
            const tv_vm_frag_vertex *v = &params->vertices[idx[t][k]];
            tr->v[k] = idx[t][k];
            tr->x[k] = v->x;
            tr->y[k] = v->y;
            tr->z[k] = v->z;
            vw[k] = v->w;
        }
        tr->provoking = idx[t][2];
#if defined(__x86_64__)
        /* the three vertices' 1/w in one division, of 1 where w is 0 (its 1/w is taken as
           1, and no lane divides by 0), the NaN test in one comparison a coordinate
           (every triangle of a mesh: three divisions were about half a per cent of its
           time); lane 3 is a 1 */
        const __m128 one = _mm_set1_ps(1.0f);
        const __m128 w = _mm_set_ps(1.0f, vw[2], vw[1], vw[0]);
        const __m128 nz = _mm_cmpneq_ps(w, _mm_setzero_ps());   /* (true for NaN) */
        const __m128 inv = _mm_div_ps(one, _mm_or_ps(_mm_and_ps(nz, w), _mm_andnot_ps(nz, one)));
        float iw[4];
        _mm_storeu_ps(iw, inv);
        memcpy(tr->inv_w, iw, sizeof tr->inv_w);
        const __m128 x = _mm_set_ps(0.0f, tr->x[2], tr->x[1], tr->x[0]);
        const __m128 y = _mm_set_ps(0.0f, tr->y[2], tr->y[1], tr->y[0]);
        const __m128 z = _mm_set_ps(0.0f, tr->z[2], tr->z[1], tr->z[0]);
        tr->nan_in = _mm_movemask_ps(_mm_or_ps(_mm_cmpunord_ps(x, y),
                                               _mm_cmpunord_ps(z, inv))) != 0;
#else
        tr->nan_in = false;
        for (unsigned k = 0; k < 3; k++) {
            tr->inv_w[k] = vw[k] != 0.0f ? 1.0f / vw[k] : 1.0f;
            tr->nan_in = tr->nan_in || tr->x[k] != tr->x[k] || tr->y[k] != tr->y[k] ||
                         tr->z[k] != tr->z[k] || tr->inv_w[k] != tr->inv_w[k];
        }
#endif
        tr->area = vm_frag_edge(tr->x[0], tr->y[0], tr->x[1], tr->y[1], tr->x[2], tr->y[2]);
        if (tr->area < 0.0f) {
            /* make the orientation positive so inside tests use >= 0 */
            float tx = tr->x[1], ty = tr->y[1], tz = tr->z[1], tw = tr->inv_w[1];
            uint32_t tv = tr->v[1];
            tr->x[1] = tr->x[2]; tr->y[1] = tr->y[2]; tr->z[1] = tr->z[2];
            tr->inv_w[1] = tr->inv_w[2]; tr->v[1] = tr->v[2];
            tr->x[2] = tx; tr->y[2] = ty; tr->z[2] = tz; tr->inv_w[2] = tw; tr->v[2] = tv;
            tr->area = -tr->area;
        }
        tr->attrs_known = false;
        if (!run->attrs_lazy)
            vm_frag_tri_attrs(run, tr);
    }
    /* (the plain interpreter keeps the per-lane loop: the reference split_tile is
       checked against) */
    run->split_tiles = !run->plain && !params->coverage && run->samples == 1;
    for (uint32_t t = 0; t < run->num_tris; t++)
        if (run->tris[t].area == 0.0f || run->tris[t].nan_in)
            run->split_tiles = false;
    if (params->coverage && params->prim != TV_VM_PRIM_TRIANGLE)
        return tv_error_set(err, TV_ERR_ARG, 0, 0,
                            "a coverage hook needs a TRIANGLE primitive");
    return TV_OK;
}

tv_status vm_frag_run_setup(vm_run *run, const tv_vm_frag_params *params, tv_error *err)
{
    tv_status st = vm_frag_run_setup_shared(run, params, err);
    return st == TV_OK ? vm_frag_run_setup_primitive(run, params, err) : st;
}
