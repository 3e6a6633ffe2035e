/* The anisotropic path's probes in the vectorised warp kernel (tex_warp_aniso.c calls
 * tex_warp_vec_probes): each probe of every lane whose count reaches it through the
 * kernel's own slot passes (so the values of tex_warp.c's lane passes), one or two level
 * slots, and the general path's sums per lane in tex_filter_sample's order; compiled for
 * each instruction set as the kernel is. Included by tex_warp_vec.c only, at its end,
 * where this code stood: it uses the kernel's helpers above it there (words_aligned,
 * vec_isa, the probe counter) and, as a header, keeps the unit's machine code and the
 * order of its functions (scripts/same-code.py). */
#ifndef TEXVM_TEX_WARP_VEC_PROBES_H
#define TEXVM_TEX_WARP_VEC_PROBES_H

uint64_t tex_warp_vec_probe_count(void)
{
    return tls_probes;
}

typedef struct probe_job {
    const vec_req *R;
    const warp_probes *P;
    const vec_level *V0, *V1;
    const uint32_t *layer_off;
} probe_job;

/* Probe p of every lane whose count reaches it (pa), each probe's one or two level slots
 * (slot_pass: the kernel's own, so the values of tex_warp.c's lane passes) and the
 * general path's sums, per lane in tex_filter_sample's order. */
VEC_INLINE bool probes_body(const probe_job *J, uint32_t out[4][N], unsigned isa)
{
    const vec_req *R = J->R;
    const warp_ctx *w = R->w;
    const warp_probes *P = J->P;
    uint32_t act[N], n[N], lin[N], maxn = 1;
    for (unsigned l = 0; l < N; l++) {
        act[l] = (P->active >> l) & 1u;
        n[l] = isel(act[l], P->n[l], 1u);
        lin[l] = P->lin;
        maxn = n[l] > maxn ? n[l] : maxn;
    }
    float sum[4][N], v0[4][N], v1[4][N], sp[N], tp[N];
    uint32_t pa[N];
    for (uint32_t p = 1; p <= maxn; p++) {
        for (unsigned l = 0; l < N; l++) {
            pa[l] = act[l] & (uint32_t)(p <= n[l]);
            float k = (float)p / (float)(n[l] + 1) - 0.5f;
            float ps = P->s[l] + k * P->ds[l], pt = P->t[l] + k * P->dt[l];
            uint32_t many = (uint32_t)(n[l] > 1); /* one probe: the lane's own st */
            sp[l] = fsel(pa[l], fsel(many, ps, P->s[l]), 0.0f);
            tp[l] = fsel(pa[l], fsel(many, pt, P->t[l]), 0.0f);
        }
        if (slot_pass(R, J->V0, sp, tp, P->offu, P->offv, J->layer_off, lin, pa, isa, NULL, v0))
            return false;
        if (P->two) {
            if (slot_pass(R, J->V1, sp, tp, P->offu, P->offv, J->layer_off, lin, pa, isa, NULL,
                          v1))
                return false;
            for (unsigned c = 0; c < 4; c++)
                if (w->shift[c] >= 0)
                    for (unsigned l = 0; l < N; l++)
                        v0[c][l] = P->w0[l] * v0[c][l] + P->w1[l] * v1[c][l];
        }
        for (unsigned c = 0; c < 4; c++)
            if (w->shift[c] >= 0)
                for (unsigned l = 0; l < N; l++)
                    sum[c][l] = p == 1 ? v0[c][l] : fsel(pa[l], sum[c][l] + v0[c][l], sum[c][l]);
    }
    for (unsigned c = 0; c < 4; c++) {
        if (w->shift[c] < 0) {
            for (unsigned l = 0; l < N; l++)
                out[c][l] = isel(act[l], w->konst[c], out[c][l]);
            continue;
        }
        for (unsigned l = 0; l < N; l++) {
            float avg = sum[c][l] / (float)n[l];
            float val = fsel((uint32_t)(n[l] > 1), avg, sum[c][l]);
            out[c][l] = isel(act[l], fb(val), out[c][l]);
        }
    }
    return true;
}

#if TEX_WIDE_VECTORS
TEX_TARGET_AVX512 static bool probes_avx512(const probe_job *J, uint32_t out[4][N])
{
    return probes_body(J, out, 2);
}

TEX_TARGET_AVX2 static bool probes_avx2(const probe_job *J, uint32_t out[4][N])
{
    return probes_body(J, out, 1);
}
#endif

static bool probes_base(const probe_job *J, uint32_t out[4][N])
{
    return probes_body(J, out, 0);
}

bool tex_warp_vec_probes(const warp_ctx *w, const warp_probes *P, uint32_t out[4][N])
{
    const tex_view *v = w->v;
    uint32_t max_layer = 0;
    for (unsigned l = 0; l < N; l++)
        if (((P->active >> l) & 1u) && P->layer[l] > max_layer)
            max_layer = P->layer[l];
    if (!P->active || !words_aligned(v, max_layer > 0))
        return false;
    /* two levels in the level memo's two entries: of different parity (l1 = l0 + 1,
       tex_warp_aniso.c); any other pair goes to the general path */
    if (P->two && !((P->l0 ^ P->l1) & 1u))
        return false;
    const vec_level *V0 = vec_level_get(w, P->l0, max_layer), *V1 = V0;
    if (!V0 || (P->two && !(V1 = vec_level_get(w, P->l1, max_layer))))
        return false;
    /* every active lane's layer <= max_layer: vec_level_get bounded its offset below 2^31 */
    uint32_t layer_off[N];
    const uint32_t stride = (uint32_t)v->layer_stride;
    for (unsigned l = 0; l < N; l++)
        layer_off[l] = ((P->active >> l) & 1u) ? P->layer[l] * stride : 0u;
    vec_req R;
    memset(&R, 0, sizeof R);
    R.w = w;
    const probe_job J = {&R, P, V0, V1, layer_off};
    /* the result words go to a copy first: nothing is written when a lane declines */
    uint32_t res[4][N];
    memcpy(res, out, sizeof res);
    bool ok;
#if TEX_WIDE_VECTORS
    unsigned isa = vec_isa(w->unit);
    ok = isa == 2 ? probes_avx512(&J, res) : isa == 1 ? probes_avx2(&J, res) : probes_base(&J, res);
#else
    ok = probes_base(&J, res);
#endif
    if (!ok)
        return false;
    memcpy(out, res, sizeof res);
    tls_probes++;
    return true;
}

#endif /* TEXVM_TEX_WARP_VEC_PROBES_H */
