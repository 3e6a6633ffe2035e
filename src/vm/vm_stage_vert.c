/* VERT stage: vertices 32 to a warp; a job is one warp of one instance. Inputs come from
 * vertex arrays (missing components (0,0,0,1)); outputs are collected per vertex. */
#include "vm/vm_run.h"

static void fetch(const tv_vm_vertex_array *a, uint32_t elem, uint32_t out[4])
{
    out[0] = out[1] = out[2] = 0;
    out[3] = a->integer ? 1u : tv_f32_bits(1.0f);
    if (!a->data)
        return;
    unsigned n = a->components > 4 ? 4 : a->components;
    uint64_t off = a->offset + (uint64_t)elem * a->stride;
    for (unsigned c = 0; c < n; c++) {
        uint64_t o = off + 4u * c;
        if (o + 4 <= a->size)
            memcpy(&out[c], (const uint8_t *)a->data + o, 4);
    }
}

void vm_collect_outputs(const vm_warp *w, uint32_t *const out[TV_VM_MAX_ATTRIBS],
                        uint64_t first, unsigned n)
{
    const tv_vm_program *p = w->prog;
    for (int32_t r = 0; r < p->out.count && r < TV_VM_MAX_ATTRIBS; r++) {
        uint32_t *o = out[r];
        if (!o)
            continue;
        for (unsigned l = 0; l < n; l++)
            for (unsigned c = 0; c < 4; c++)
                o[(first + l) * 4 + c] = w->r[p->out.base + (uint32_t)r * 4 + c].u[l];
    }
}

static tv_status vert_job(vm_worker *wk, uint64_t job, tv_error *err)
{
    const vm_run *R = wk->run;
    const tv_vm_vertex_params *P = R->vp;
    const tv_vm_program *p = R->prog;
    uint32_t per = (P->count + VM_LANES - 1) / VM_LANES;
    uint32_t inst = (uint32_t)(job / per), first = (uint32_t)(job % per) * VM_LANES;
    uint32_t n = P->count - first < VM_LANES ? P->count - first : VM_LANES;
    uint32_t present = n == 32 ? VM_ALL_LANES : (1u << n) - 1u;
    vm_warp *w = vm_worker_warp(wk, 0, present, present);
    vm_zero_regs(w);
    for (unsigned l = 0; l < n; l++) {
        uint32_t i = first + l;
        uint32_t index = P->indices ? P->indices[i] : i;
        w->lane_x[l] = (int32_t)i;
        w->lane_y[l] = (int32_t)inst;
        for (int32_t r = 0; r < p->in.count && r < TV_VM_MAX_ATTRIBS; r++) {
            const tv_vm_vertex_array *a = &P->attribs[r];
            uint32_t elem = P->fetched ? inst * P->count + i
                            : a->instance_divisor ? P->base_instance + inst / a->instance_divisor
                                                  : (uint32_t)((int64_t)index + P->base_vertex);
            uint32_t v[4];
            fetch(a, elem, v);
            for (unsigned c = 0; c < 4; c++)
                w->r[p->in.base + (uint32_t)r * 4 + c].u[l] = v[c];
        }
        for (uint32_t k = 0; k < p->num_svs; k++) {
            const vm_sv *sv = &p->svs[k];
            uint32_t v = 0;
            switch (sv->semantic) {
            case TV_SEM_VERTEXID: v = (uint32_t)((int64_t)index + P->base_vertex); break;
            case TV_SEM_VERTEXID_NOBASE: v = index; break;
            case TV_SEM_BASEVERTEX: v = (uint32_t)P->base_vertex; break;
            case TV_SEM_INSTANCEID: v = inst; break;
            case TV_SEM_BASEINSTANCE: v = P->base_instance; break;
            case TV_SEM_DRAWID: v = P->draw_id; break;
            default: break;
            }
            for (unsigned c = 0; c < 4; c++)
                w->r[p->sv.base + sv->reg * 4 + c].u[l] = v;
        }
    }
    wk->trace_this = false;
    if (R->tracing && R->vm->trace.id[1] == inst && R->vm->trace.id[0] >= first &&
        R->vm->trace.id[0] < first + n) {
        wk->trace_this = true;
        wk->trace_lane = R->vm->trace.id[0] - first;
    }
    tv_status st = vm_exec_warp(w, err);
    wk->trace_this = false;
    if (st != TV_OK)
        return st;
    vm_collect_outputs(w, P->out, (uint64_t)inst * P->count + first, n);
    wk->stats.invocations += n;
    vm_worker_count(wk, w);
    return TV_OK;
}

tv_status tv_vm_run_vertex(tv_vm *vm, const tv_vm_program *p, const tv_vm_bindings *b,
                           const tv_vm_vertex_params *params, tv_vm_stats *stats,
                           tv_error *err)
{
    vm_run run;
    tv_status st = vm_run_begin(&run, vm, p, b, TV_TGSI_VERT, err);
    if (st != TV_OK)
        return st;
    if (!params)
        return tv_error_set(err, TV_ERR_ARG, 0, 0, "vertex run needs parameters");
    run.vp = params;
    uint32_t inst = params->instances ? params->instances : 1;
    uint64_t per = (params->count + VM_LANES - 1) / VM_LANES;
    return vm_run_jobs(&run, per * inst, 1, vert_job, stats, err);
}
