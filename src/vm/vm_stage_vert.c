/* VERT stage: vertices 32 to a warp; a job is one warp of one instance. Inputs come from
 * vertex arrays (missing components (0,0,0,1)); outputs are collected per vertex. */
#include "vm/vm_ops.h"
#include "vm/vm_run.h"
#include "vm/vm_stage_vert_copy.h"

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

/* The transposing copies of fetch_block and vm_collect_outputs over lanes 0 .. N - 1.
 * Their callers inline them once with N = VM_LANES, the full warp: GCC vectorises the
 * copy (vpermt2d) only for a constant count, and leaves it scalar for N, which the mesh
 * scene measured about 3 % slower. */
static TV_ALWAYS_INLINE void vec4s_to_slots(vm_slot *dst, const uint8_t *s, size_t stride,
                                            unsigned n)
{
    for (unsigned l = 0; l < n; l++)
        for (unsigned c = 0; c < 4; c++)
            memcpy(&dst[c].u[l], s + stride * l + 4 * c, 4);
}

static TV_ALWAYS_INLINE void slots_to_vec4s(uint32_t *o, const vm_slot *src, unsigned n)
{
    for (unsigned l = 0; l < n; l++)
        for (unsigned c = 0; c < 4; c++)
            o[l * 4 + c] = src[c].u[l];
}

/* Elements E0 .. E0 + N - 1 of array A as fetch() gives them, into the four channel
 * slots DST (lanes 0 .. N - 1), when they have four components and lie whole in the array
 * (the pipeline's fetched arrays, and vertex buffers of vec4s, packed or interleaved):
 * one transposing copy, which the compiler makes of vector loads and shuffles for the
 * strides of 16 and 32 bytes (packed vec4s; two vec4s a vertex), of gathers for others.
 * false: another layout, nothing written (fetch() per lane). */
VM_WIDE_VECTORS static bool fetch_block(const tv_vm_vertex_array *a, uint64_t e0, unsigned n,
                                        vm_slot *dst)
{
    const uint8_t *s = vm_vert_block_source(a, e0, n);
    if (!s)
        return false;
    const uint64_t stride = a->stride;
    if (n == VM_LANES && stride == 16)
        vec4s_to_slots(dst, s, 16, VM_LANES);
    else if (n == VM_LANES && stride == 32)
        vec4s_to_slots(dst, s, 32, VM_LANES);
    else
        vec4s_to_slots(dst, s, stride, n);
    return true;
}

/* The vertex stage's outputs back out: element first + l of out[r] = lane l of the four
 * slots of OUT[r] (a transposing copy, as fetch_block's). */
VM_WIDE_VECTORS void vm_collect_outputs(const vm_warp *w, uint32_t *const out[TV_VM_MAX_ATTRIBS],
                                        uint64_t first, unsigned n)
{
    const tv_vm_program *p = w->prog;
    for (int32_t r = 0; r < p->out.count && r < TV_VM_MAX_ATTRIBS; r++) {
        if (!out[r])
            continue;
        uint32_t *o = out[r] + first * 4;
        const vm_slot *src = &w->r[p->out.base + (uint32_t)r * 4];
        if (n == VM_LANES)
            slots_to_vec4s(o, src, VM_LANES);
        else
            slots_to_vec4s(o, src, n);
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
    /* the inputs whose lanes read consecutive elements: fetched arrays, or (no index
       buffer, no instance divisor) vertices first + base_vertex on, when those do not
       wrap at 2^32; their first elements (-1: the others) */
    int64_t e0[TV_VM_MAX_ATTRIBS];
    const int64_t e_first = (int64_t)first + P->base_vertex;
    for (int32_t r = 0; r < p->in.count && r < TV_VM_MAX_ATTRIBS; r++) {
        const tv_vm_vertex_array *a = &P->attribs[r];
        e0[r] = P->fetched ? (int64_t)inst * P->count + first
                : !P->indices && !a->instance_divisor ? e_first : -1;
        if (e0[r] + n > (int64_t)UINT32_MAX + 1)
            e0[r] = -1;
    }
    if (vm_vert_copy_warp(wk, inst, first, n, e0))
        return TV_OK;   /* a pass-through program's warp, copied */
    vm_warp *w = vm_worker_warp(wk, 0, present, present);
    vm_zero_regs(w);
    uint64_t block = 0;   /* bit r: input r was read whole */
    for (int32_t r = 0; r < p->in.count && r < TV_VM_MAX_ATTRIBS; r++)
        if (e0[r] >= 0 &&
            fetch_block(&P->attribs[r], (uint64_t)e0[r], n, &w->r[p->in.base + (uint32_t)r * 4]))
            block |= 1ull << r;
    for (unsigned l = 0; l < n; l++) {
        uint32_t i = first + l;
        uint32_t index = P->indices ? P->indices[i] : i;
        w->lane_x[l] = (int32_t)i;
        w->lane_y[l] = (int32_t)inst;
        for (int32_t r = 0; r < p->in.count && r < TV_VM_MAX_ATTRIBS; r++) {
            if ((block >> r) & 1u)
                continue;
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
    vm_vert_copy_learn(wk, w);
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
