/* The FRAG stage's outputs of a run warp (vm_stage_frag.c): the pipeline's view of them
 * (warp_outputs: per lane, pointing into the registers), the pipeline's hook called with
 * them (emit_outputs: the tile at once, or one call per pixel through the public
 * tv_vm_frag_warp_lane), the invocation counts (count_lanes), and write_outputs: the live
 * lanes' outputs into the targets (the tile store, vm_stage_frag_store.h, where it can) or
 * to the hook. Included by vm_stage_frag.c only, after tv_vm_frag_warp_lane: a header,
 * not a translation unit of its own, so that the tile walk inlines write_outputs as it did
 * in one file with it (the same machine code: scripts/same-code.py). */
#ifndef TEXVM_VM_STAGE_FRAG_OUTPUTS_H
#define TEXVM_VM_STAGE_FRAG_OUTPUTS_H

/* A warp's outputs as the emit hooks see them: per lane (structure of arrays) pointing
 * into the warp's registers; ONE_SAMPLE holds the coverage under sample shading. */
static void warp_outputs(const vm_run *R, const vm_warp *w, bool per_sample,
                         tv_vm_frag_warp_output *out, uint32_t one_sample[VM_LANES])
{
    const tv_vm_program *p = R->prog;
    /* field by field, the colours' bits in a local: a clear of the whole record (over 256
       bytes, a `rep stos`) is not forwarded to the loads of the fields set over it, which
       waited for it to reach the cache (two thirds of this function's time in the blend
       scene on an Intel core) */
    uint32_t colors = 0;
    memset(out->color, 0, sizeof out->color);
    out->depth = NULL;
    out->stencil = NULL;
    out->sample_mask = NULL;
    out->live = w->live;
    out->tile = w->tile_order;
    out->pixels = w->pixel_lanes;
    out->x = w->lane_x;
    out->y = w->lane_y;
    out->coverage = w->lane_cov;
    if (per_sample) {
        for (unsigned l = 0; l < VM_LANES; l++)
            one_sample[l] = 1u << w->sample;
        out->coverage = one_sample;
    }
    for (int32_t r = 0; r < p->out.count; r++) {
        const vm_slot *o = &w->r[p->out.base + (uint32_t)r * 4];
        uint8_t sem = p->out_sem[r];
        uint32_t idx = p->out_sem_index[r];
        if (sem == TV_SEM_COLOR && idx < TV_VM_MAX_COLOR_TARGETS) {
            colors |= 1u << idx;
            for (unsigned c = 0; c < 4; c++)
                out->color[idx][c] = o[c].u;
        } else if (sem == TV_SEM_POSITION) {
            out->depth = o[2].f;
        } else if (sem == TV_SEM_STENCIL) {
            out->stencil = o[1].u;
        } else if (sem == TV_SEM_SAMPLEMASK) {
            out->sample_mask = o[0].u;
        }
    }
    out->colors = colors;
}

/* The outputs of a warp's live lanes through the pipeline's hook: the tile at once
 * (emit_warp), or one call per pixel (per sample under sample shading). */
static void emit_outputs(const vm_run *R, const vm_warp *w, bool per_sample)
{
    const tv_vm_frag_params *fp = R->fp;
    tv_vm_frag_warp_output wo;
    uint32_t one_sample[VM_LANES];
    warp_outputs(R, w, per_sample, &wo, one_sample);
    if (fp->emit_warp) {
        fp->emit_warp(fp->hook_user, &wo);
        return;
    }
    /* cleared once: every lane sets the same fields over it, so each call sees what a
       clear per lane would give, without a 160-byte clear per pixel */
    tv_vm_frag_output out;
    memset(&out, 0, sizeof out);
    for (uint32_t m = w->live; m; m &= m - 1) {
        tv_vm_frag_warp_lane(&wo, (unsigned)__builtin_ctz(m), &out);
        fp->emit(fp->hook_user, &out);
    }
}

/* A run warp's invocations (LIVE0: its live lanes at the start) and the lanes it killed
 * (those of LIVE0 not in LIVE at the end: rare, so counted only when there are any). */
static TV_ALWAYS_INLINE void count_lanes(vm_worker *wk, uint32_t live0, uint32_t live)
{
    wk->stats.invocations += tv_popcount32(live0);
    const uint32_t killed = live0 & ~live;
    if (killed)
        wk->stats.killed += tv_popcount32(killed);
}

/* The outputs of a warp's live lanes into the targets; `isa`: the tile store variant
 * (vm_frag_store_isa). */
static TV_ALWAYS_INLINE void write_outputs(vm_worker *wk, vm_warp *w, bool per_sample, uint32_t live0,
                          unsigned isa)
{
    const vm_run *R = wk->run;
    const tv_vm_frag_params *fp = R->fp;
    const tv_vm_program *p = R->prog;
    if (fp->emit_warp || fp->emit) {
        emit_outputs(R, w, per_sample);
        count_lanes(wk, live0, w->live);
        return;
    }
    if (R->samples == 1) {
        /* one sample: per output register, every live lane */
        for (int32_t r = 0; r < p->out.count; r++) {
            uint8_t sem = p->out_sem[r];
            const vm_slot *o = &w->r[p->out.base + (uint32_t)r * 4];
            uint32_t *col = NULL;
            if (sem == TV_SEM_COLOR && p->out_sem_index[r] < TV_VM_MAX_COLOR_TARGETS)
                col = fp->color[p->out_sem_index[r]].data;
            if (col && w->live == VM_ALL_LANES && !R->plain) {
                /* every lane live: the whole 8x4 tile is in the target, lane 0 at its
                   top-left corner */
                vm_frag_store_tile(isa, col + ((uint64_t)w->lane_y[0] * fp->width +
                                               (uint64_t)w->lane_x[0]) * 4,
                                   (size_t)fp->width * 4, o,
                                   w->lane_x[0] + 24 <= (int32_t)fp->width);
                continue;
            }
            for (unsigned l = 0; l < VM_LANES; l++) {
                if (!((w->live >> l) & 1u))
                    continue;
                uint64_t pix = (uint64_t)w->lane_y[l] * fp->width + (uint64_t)w->lane_x[l];
                if (col) {
                    uint32_t *d = col + pix * 4;
                    d[0] = o[0].u[l]; d[1] = o[1].u[l]; d[2] = o[2].u[l]; d[3] = o[3].u[l];
                } else if (sem == TV_SEM_POSITION && fp->depth) {
                    fp->depth[pix] = o[2].f[l];
                } else if (sem == TV_SEM_STENCIL && fp->stencil) {
                    fp->stencil[pix] = o[1].u[l];
                } else if (sem == TV_SEM_SAMPLEMASK && fp->sample_mask_out) {
                    fp->sample_mask_out[pix] = o[0].u[l];
                }
            }
        }
        count_lanes(wk, live0, w->live);
        return;
    }
    for (unsigned l = 0; l < VM_LANES; l++) {
        if (!((w->live >> l) & 1u))
            continue;
        uint64_t pix = (uint64_t)w->lane_y[l] * fp->width + (uint64_t)w->lane_x[l];
        uint32_t cov = per_sample ? (1u << w->sample) : w->lane_cov[l];
        for (int32_t r = 0; r < p->out.count; r++) {
            uint8_t sem = p->out_sem[r];
            const vm_slot *o = &w->r[p->out.base + (uint32_t)r * 4];
            for (uint32_t s = 0; s < R->samples; s++) {
                if (!((cov >> s) & 1u)) continue;
                uint64_t e = pix * R->samples + s;
                if (sem == TV_SEM_COLOR && p->out_sem_index[r] < TV_VM_MAX_COLOR_TARGETS &&
                    fp->color[p->out_sem_index[r]].data) {
                    uint32_t *d = fp->color[p->out_sem_index[r]].data + e * 4;
                    for (unsigned c = 0; c < 4; c++) d[c] = o[c].u[l];
                } else if (sem == TV_SEM_POSITION && fp->depth) {
                    fp->depth[e] = o[2].f[l];
                } else if (sem == TV_SEM_STENCIL && fp->stencil) {
                    fp->stencil[e] = o[1].u[l];
                }
            }
            if (sem == TV_SEM_SAMPLEMASK && fp->sample_mask_out)
                fp->sample_mask_out[pix] = o[0].u[l];
        }
    }
    count_lanes(wk, live0, w->live);
}

#endif /* TEXVM_VM_STAGE_FRAG_OUTPUTS_H */
