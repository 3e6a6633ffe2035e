/* TESS_CTRL and TESS_EVAL stages (include/texvm/vm.h).
 *
 * TESS_CTRL: a job is one patch in one warp, a lane per output vertex. Each lane keeps a
 * copy of the whole patch's outputs in its registers (vertex v's block at OUT + v * per), so
 * reads of another invocation's outputs are plain (or gathered) register reads. At every
 * BARRIER and at the end the copies are merged: a register takes the value of the lowest
 * lane whose copy differs from the last merge, and every lane gets the merged patch.
 *
 * TESS_EVAL: 32 domain points to a warp; every lane gets its patch's inputs copied into its
 * per-vertex input registers (as GEOM does), TESSCOORD from the point. */
#include <stdlib.h>

#include "vm/vm_run.h"

static void set_sv(vm_warp *w, const tv_vm_program *p, unsigned lane, uint8_t sem,
                   const uint32_t v[4])
{
    for (uint32_t s = 0; s < p->num_svs; s++)
        if (p->svs[s].semantic == sem)
            for (unsigned c = 0; c < 4; c++)
                w->r[p->sv.base + p->svs[s].reg * 4 + c].u[lane] = v[c];
}

static void set_sv1(vm_warp *w, const tv_vm_program *p, unsigned lane, uint8_t sem, uint32_t x)
{
    const uint32_t v[4] = {x, x, x, x};
    set_sv(w, p, lane, sem, v);
}

/* ---- TESS_CTRL ---------------------------------------------------------------------------- */

static void tcs_merge(vm_warp *w, const tv_vm_program *p, uint32_t *merged, uint32_t lanes)
{
    uint32_t words = p->out_vertices * p->out_per_vertex * 4;
    for (uint32_t s = 0; s < words; s++) {
        vm_slot *r = &w->r[p->out.base + s];
        uint32_t v = merged[s];
        for (uint32_t l = 0; l < lanes; l++)
            if (r->u[l] != v) {
                v = r->u[l];
                break;
            }
        merged[s] = v;
        for (uint32_t l = 0; l < lanes; l++)
            r->u[l] = v;
    }
}

static tv_status tcs_job(vm_worker *wk, uint64_t job, tv_error *err)
{
    const vm_run *R = wk->run;
    const tv_vm_tess_ctrl_params *T = R->tcp;
    const tv_vm_program *p = R->prog;
    uint32_t n = p->out_vertices;
    uint32_t words = n * p->out_per_vertex * 4;
    if (!wk->tcs_merged) {
        wk->tcs_merged = malloc((size_t)words * 4 + 4);
        if (!wk->tcs_merged)
            return tv_error_set(err, TV_ERR_NOMEM, 0, 0, "out of memory");
    }
    memset(wk->tcs_merged, 0, (size_t)words * 4);
    uint32_t present = n == 32 ? VM_ALL_LANES : (1u << n) - 1u;
    vm_warp *w = vm_worker_warp(wk, 0, present, present);
    vm_zero_regs(w);
    uint32_t nv = T->vertices_in;
    for (unsigned l = 0; l < n; l++) {
        w->lane_x[l] = (int32_t)job;
        w->lane_y[l] = (int32_t)l;
        for (uint32_t v = 0; v < nv; v++) {
            uint64_t e = (uint64_t)job * nv + v;
            uint64_t vi = T->indices ? T->indices[e] : e;
            for (uint32_t r = 0; r < p->in_per_vertex && r < TV_VM_MAX_ATTRIBS; r++) {
                uint32_t val[4] = {0, 0, 0, 0};
                if (T->in[r] && vi < T->num_vertices)
                    memcpy(val, T->in[r] + vi * 4, 16);
                for (unsigned c = 0; c < 4; c++)
                    w->r[p->in.base + (v * p->in_per_vertex + r) * 4 + c].u[l] = val[c];
            }
        }
        set_sv1(w, p, l, TV_SEM_INVOCATIONID, l);
        w->r[p->invocation_slot].u[l] = l;
        set_sv1(w, p, l, TV_SEM_PRIMID, T->primitive_id_base + (uint32_t)job);
        set_sv1(w, p, l, TV_SEM_VERTICESIN, nv);
    }
    wk->trace_this = false;
    if (R->tracing && R->vm->trace.id[0] == job && R->vm->trace.id[1] < n) {
        wk->trace_this = true;
        wk->trace_lane = R->vm->trace.id[1];
    }
    for (;;) {  /* to each barrier, merge, go on */
        tv_status st = vm_exec_warp(w, err);
        if (st != TV_OK) {
            wk->trace_this = false;
            return st;
        }
        tcs_merge(w, p, wk->tcs_merged, n);
        if (w->done)
            break;
        w->at_barrier = false;
    }
    wk->trace_this = false;
    uint32_t *o = (uint32_t *)R->stage_ctx + (size_t)job * words;
    memcpy(o, wk->tcs_merged, (size_t)words * 4);
    wk->stats.invocations += n;
    vm_worker_count(wk, w);
    return TV_OK;
}

void tv_vm_tess_ctrl_output_free(tv_vm_tess_ctrl_output *out)
{
    if (!out)
        return;
    free(out->data);
    memset(out, 0, sizeof *out);
}

tv_status tv_vm_run_tess_ctrl(tv_vm *vm, const tv_vm_program *p, const tv_vm_bindings *b,
                              const tv_vm_tess_ctrl_params *params,
                              tv_vm_tess_ctrl_output *out, tv_vm_stats *stats, tv_error *err)
{
    vm_run run;
    if (out)
        memset(out, 0, sizeof *out);
    tv_status st = vm_run_begin(&run, vm, p, b, TV_TGSI_TESS_CTRL, err);
    if (st != TV_OK)
        return st;
    if (!params || !out)
        return tv_error_set(err, TV_ERR_ARG, 0, 0, "tess-control run needs parameters and output");
    if (params->vertices_in < 1 || params->vertices_in > TV_VM_MAX_PATCH_VERTICES)
        return tv_error_set(err, TV_ERR_ARG, 0, 0, "a patch of %u vertices (1 to %u)",
                            params->vertices_in, TV_VM_MAX_PATCH_VERTICES);
    uint64_t words = (uint64_t)p->out_vertices * p->out_per_vertex * 4;
    uint64_t bytes = words * 4 * params->num_patches;
    uint64_t limit = vm->cfg.limits.max_memory ? vm->cfg.limits.max_memory : (1ull << 30);
    if (bytes > limit)
        return tv_error_set(err, TV_ERR_NOMEM, 0, 0,
                            "tess-control outputs need %llu bytes, over the memory limit %llu",
                            (unsigned long long)bytes, (unsigned long long)limit);
    out->vertices_out = p->out_vertices;
    out->num_outputs = p->out_per_vertex;
    out->data = calloc(bytes ? bytes : 1, 1);
    if (!out->data)
        return tv_error_set(err, TV_ERR_NOMEM, 0, 0, "out of memory");
    run.tcp = params;
    run.stage_ctx = out->data;
    st = vm_run_jobs(&run, params->num_patches, 1, tcs_job, stats, err);
    if (st != TV_OK)
        tv_vm_tess_ctrl_output_free(out);
    return st;
}

/* ---- TESS_EVAL ---------------------------------------------------------------------------- */

static tv_status tes_job(vm_worker *wk, uint64_t job, tv_error *err)
{
    const vm_run *R = wk->run;
    const tv_vm_tess_eval_params *T = R->tep;
    const tv_vm_program *p = R->prog;
    uint32_t first = (uint32_t)job * VM_LANES;
    uint32_t n = T->num_points - first < VM_LANES ? T->num_points - first : VM_LANES;
    uint32_t present = n == 32 ? VM_ALL_LANES : (1u << n) - 1u;
    vm_warp *w = vm_worker_warp(wk, 0, present, present);
    vm_zero_regs(w);
    uint32_t blocks = T->vertices_in ? T->vertices_in : 1;
    uint32_t nregs = p->in_per_vertex < T->patch_regs ? p->in_per_vertex : T->patch_regs;
    bool tri = p->tes_prim_mode == 4;  /* PIPE_PRIM_TRIANGLES */
    for (unsigned l = 0; l < n; l++) {
        uint32_t i = first + l;
        uint32_t k = T->patch_of[i];
        w->lane_x[l] = (int32_t)i;
        w->lane_y[l] = (int32_t)k;
        if (k < T->num_patches && T->patch_data) {
            const uint32_t *pd = T->patch_data + (size_t)k * blocks * T->patch_regs * 4;
            for (uint32_t v = 0; v < blocks; v++)
                for (uint32_t r = 0; r < nregs; r++)
                    for (unsigned c = 0; c < 4; c++)
                        w->r[p->in.base + (v * p->in_per_vertex + r) * 4 + c].u[l] =
                            pd[((size_t)v * T->patch_regs + r) * 4 + c];
        }
        float u = T->coords[2 * (size_t)i], vv = T->coords[2 * (size_t)i + 1];
        float coord[4] = {u, vv, tri ? 1.0f - u - vv : 0.0f, 0.0f};
        uint32_t cw[4];
        memcpy(cw, coord, sizeof cw);
        set_sv(w, p, l, TV_SEM_TESSCOORD, cw);
        set_sv1(w, p, l, TV_SEM_PRIMID, T->primitive_id_base + k);
        set_sv1(w, p, l, TV_SEM_VERTICESIN, T->vertices_in);
        if (T->patch_levels && k < T->num_patches) {
            const float *lv = T->patch_levels + (size_t)k * 6;
            float in[4] = {lv[4], lv[5], 0.0f, 0.0f};
            uint32_t o[4], i4[4];
            memcpy(o, lv, 16);
            memcpy(i4, in, 16);
            set_sv(w, p, l, TV_SEM_TESSOUTER, o);
            set_sv(w, p, l, TV_SEM_TESSINNER, i4);
        }
    }
    wk->trace_this = false;
    if (R->tracing && R->vm->trace.id[0] >= first && R->vm->trace.id[0] < first + n) {
        wk->trace_this = true;
        wk->trace_lane = R->vm->trace.id[0] - first;
    }
    tv_status st = vm_exec_warp(w, err);
    wk->trace_this = false;
    if (st != TV_OK)
        return st;
    vm_collect_outputs(w, T->out, first, n);
    wk->stats.invocations += n;
    vm_worker_count(wk, w);
    return TV_OK;
}

tv_status tv_vm_run_tess_eval(tv_vm *vm, const tv_vm_program *p, const tv_vm_bindings *b,
                              const tv_vm_tess_eval_params *params, tv_vm_stats *stats,
                              tv_error *err)
{
    vm_run run;
    tv_status st = vm_run_begin(&run, vm, p, b, TV_TGSI_TESS_EVAL, err);
    if (st != TV_OK)
        return st;
    if (!params || (params->num_points && (!params->coords || !params->patch_of)))
        return tv_error_set(err, TV_ERR_ARG, 0, 0, "tess-evaluation run needs parameters");
    if (params->vertices_in > TV_VM_MAX_PATCH_VERTICES)
        return tv_error_set(err, TV_ERR_ARG, 0, 0, "a patch of %u vertices (at most %u)",
                            params->vertices_in, TV_VM_MAX_PATCH_VERTICES);
    run.tep = params;
    uint64_t njobs = ((uint64_t)params->num_points + VM_LANES - 1) / VM_LANES;
    return vm_run_jobs(&run, njobs, 1, tes_job, stats, err);
}
