/* GEOM stage: one lane per (input primitive, invocation), 32 to a warp; a job is one warp.
 * Inputs come from the per-vertex arrays, except an input declared PRIMID (the primitive ID,
 * as the SV is).
 * EMIT copies the lane's OUT registers into the lane's vertex list for the stream given
 * by src.x (up to GS_MAX_OUTPUT_VERTICES per stream; more are dropped), ENDPRIM closes the
 * lane's current primitive; a primitive still open at the end is closed. Results are
 * concatenated in (primitive, invocation, emission) order, independent of threads. */
#include <stdlib.h>

#include "vm/vm_run.h"

typedef struct {
    uint32_t *verts;       /* max_vertices * nout * 4 */
    uint32_t nverts;
    uint32_t *lens;        /* max_vertices */
    uint32_t nprims, open;
} lane_stream;

struct vm_gs_prim_out {
    uint32_t nout, maxv;
    lane_stream ls[VM_LANES][TV_VM_MAX_STREAMS];
};

typedef struct {
    uint32_t nverts, nprims;
    uint32_t *verts, *lens;
} job_stream;

typedef struct {
    job_stream s[TV_VM_MAX_STREAMS];
} job_out;


void vm_gs_emit(vm_warp *w, const vm_uop *u, bool endprim);
void vm_gs_emit(vm_warp *w, const vm_uop *u, bool endprim)
{
    vm_gs_prim_out *g = w->wk->gs;
    if (!g)
        return;
    const tv_vm_program *p = w->prog;
    uint32_t m = w->exec & w->live;
    for (unsigned l = 0; l < VM_LANES; l++) {
        if (!((m >> l) & 1u))
            continue;
        uint32_t s = w->r[u->src[0]].u[l];
        if (s >= TV_VM_MAX_STREAMS)
            continue;
        lane_stream *ls = &g->ls[l][s];
        if (endprim) {
            if (ls->open) {
                ls->lens[ls->nprims++] = ls->open;
                ls->open = 0;
            }
            continue;
        }
        if (ls->nverts >= g->maxv)
            continue;
        uint32_t *d = ls->verts + (size_t)ls->nverts * g->nout * 4;
        for (uint32_t r = 0; r < g->nout; r++)
            for (unsigned c = 0; c < 4; c++)
                d[r * 4 + c] = w->r[p->out.base + r * 4 + c].u[l];
        ls->nverts++;
        ls->open++;
    }
}

/* One block: the struct, then every lane/stream vertex and length buffer. */
static vm_gs_prim_out *gs_alloc(uint32_t nout, uint32_t maxv)
{
    size_t per = (size_t)maxv * nout * 4 + maxv;
    size_t words = per * VM_LANES * TV_VM_MAX_STREAMS;
    vm_gs_prim_out *g = malloc(sizeof *g + words * 4);
    if (!g)
        return NULL;
    memset(g, 0, sizeof *g);
    g->nout = nout;
    g->maxv = maxv;
    uint32_t *mem = (uint32_t *)(void *)(g + 1);
    for (unsigned l = 0; l < VM_LANES; l++)
        for (unsigned s = 0; s < TV_VM_MAX_STREAMS; s++) {
            g->ls[l][s].verts = mem;
            mem += (size_t)maxv * nout * 4;
            g->ls[l][s].lens = mem;
            mem += maxv;
        }
    return g;
}

static tv_status geom_job(vm_worker *wk, uint64_t job, tv_error *err)
{
    const vm_run *R = wk->run;
    const tv_vm_geometry_params *G = R->gp;
    const tv_vm_program *p = R->prog;
    uint32_t inv = p->gs_invocations;
    uint64_t total = (uint64_t)G->num_prims * inv;
    uint64_t first = job * VM_LANES;
    uint32_t n = total - first < VM_LANES ? (uint32_t)(total - first) : VM_LANES;
    uint32_t present = n == 32 ? VM_ALL_LANES : (1u << n) - 1u;
    if (!wk->gs) {
        uint32_t nout = p->out.count > 0 ? (uint32_t)p->out.count : 1;
        wk->gs = gs_alloc(nout, p->gs_max_vertices ? p->gs_max_vertices : 1);
        if (!wk->gs)
            return tv_error_set(err, TV_ERR_NOMEM, 0, 0, "out of memory");
    }
    vm_gs_prim_out *g = wk->gs;
    for (unsigned l = 0; l < VM_LANES; l++)
        for (unsigned s = 0; s < TV_VM_MAX_STREAMS; s++)
            g->ls[l][s].nverts = g->ls[l][s].nprims = g->ls[l][s].open = 0;
    vm_warp *w = vm_worker_warp(wk, 0, present, present);
    vm_zero_regs(w);
    uint32_t nv = p->gs_in_vertices;
    for (unsigned l = 0; l < n; l++) {
        uint64_t k = (first + l) / inv;
        uint32_t primid = G->primitive_ids ? G->primitive_ids[k] : G->primitive_id_base + (uint32_t)k;
        uint32_t invocation = (uint32_t)((first + l) % inv);
        w->lane_x[l] = (int32_t)k;
        w->lane_y[l] = (int32_t)invocation;
        for (uint32_t v = 0; v < nv; v++) {
            uint64_t vi = G->indices ? G->indices[k * nv + v] : k * nv + v;
            for (uint32_t r = 0; r < p->in_per_vertex && r < TV_VM_MAX_ATTRIBS; r++) {
                uint32_t val[4] = {0, 0, 0, 0};
                if (G->in[r] && vi < G->num_vertices)
                    memcpy(val, G->in[r] + vi * 4, 16);
                for (unsigned c = 0; c < 4; c++)
                    w->r[p->in.base + (v * p->in_per_vertex + r) * 4 + c].u[l] = val[c];
            }
        }
        /* an input declared PRIMID (Mesa's GLSL compiler declares gl_PrimitiveIDIn so, and
         * reads it with or without a vertex index) holds the primitive ID at every vertex */
        for (uint32_t i = 0; i < p->num_inputs; i++) {
            uint32_t r = p->inputs[i].reg;
            if (p->inputs[i].semantic != TV_SEM_PRIMID || r >= p->in_per_vertex)
                continue;
            for (uint32_t v = 0; v < nv; v++)
                for (unsigned c = 0; c < 4; c++)
                    w->r[p->in.base + (v * p->in_per_vertex + r) * 4 + c].u[l] =
                        primid;
        }
        for (uint32_t s = 0; s < p->num_svs; s++) {
            const vm_sv *sv = &p->svs[s];
            uint32_t v = 0;
            if (sv->semantic == TV_SEM_PRIMID) v = primid;
            else if (sv->semantic == TV_SEM_INVOCATIONID) v = invocation;
            for (unsigned c = 0; c < 4; c++)
                w->r[p->sv.base + sv->reg * 4 + c].u[l] = v;
        }
    }
    wk->trace_this = false;
    if (R->tracing) {
        uint64_t t = (uint64_t)R->vm->trace.id[0] * inv + R->vm->trace.id[1];
        if (t >= first && t < first + n) {
            wk->trace_this = true;
            wk->trace_lane = (uint32_t)(t - first);
        }
    }
    tv_status st = vm_exec_warp(w, err);
    wk->trace_this = false;
    if (st != TV_OK)
        return st;
    /* close open primitives and gather this job's output in lane order */
    job_out *jo = &((job_out *)R->stage_ctx)[job];
    for (unsigned s = 0; s < TV_VM_MAX_STREAMS; s++) {
        uint32_t tv = 0, tp = 0;
        for (unsigned l = 0; l < n; l++) {
            lane_stream *ls = &g->ls[l][s];
            if (ls->open) {
                ls->lens[ls->nprims++] = ls->open;
                ls->open = 0;
            }
            tv += ls->nverts;
            tp += ls->nprims;
        }
        job_stream *js = &jo->s[s];
        js->nverts = tv;
        js->nprims = tp;
        if (!tv && !tp)
            continue;
        js->verts = malloc((size_t)tv * g->nout * 16 + 1);
        js->lens = malloc((size_t)tp * 4 + 1);
        if (!js->verts || !js->lens)
            return tv_error_set(err, TV_ERR_NOMEM, 0, 0, "out of memory");
        uint32_t ov = 0, op = 0;
        for (unsigned l = 0; l < n; l++) {
            lane_stream *ls = &g->ls[l][s];
            memcpy(js->verts + (size_t)ov * g->nout * 4, ls->verts,
                   (size_t)ls->nverts * g->nout * 16);
            memcpy(js->lens + op, ls->lens, (size_t)ls->nprims * 4);
            ov += ls->nverts;
            op += ls->nprims;
        }
    }
    wk->stats.invocations += n;
    vm_worker_count(wk, w);
    return TV_OK;
}

void tv_vm_geometry_output_free(tv_vm_geometry_output *out)
{
    if (!out)
        return;
    for (unsigned s = 0; s < TV_VM_MAX_STREAMS; s++) {
        free(out->streams[s].vertices);
        free(out->streams[s].prim_lengths);
    }
    memset(out, 0, sizeof *out);
}

tv_status tv_vm_run_geometry(tv_vm *vm, const tv_vm_program *p, const tv_vm_bindings *b,
                             const tv_vm_geometry_params *params, tv_vm_geometry_output *out,
                             tv_vm_stats *stats, tv_error *err)
{
    vm_run run;
    if (out)
        memset(out, 0, sizeof *out);
    tv_status st = vm_run_begin(&run, vm, p, b, TV_TGSI_GEOM, err);
    if (st != TV_OK)
        return st;
    if (!params || !out)
        return tv_error_set(err, TV_ERR_ARG, 0, 0, "geometry run needs parameters and output");
    if (p->gs_max_vertices > 4096)
        return tv_error_set(err, TV_ERR_UNSUPPORTED, 0, 0,
                            "GS_MAX_OUTPUT_VERTICES %u is too large", p->gs_max_vertices);
    run.gp = params;
    {
        uint64_t nout = p->out.count > 0 ? (uint64_t)p->out.count : 1;
        uint64_t maxv = p->gs_max_vertices ? p->gs_max_vertices : 1;
        uint64_t need = (maxv * nout * 4 + maxv) * 4 * VM_LANES * TV_VM_MAX_STREAMS *
                        tv_vm_get_threads(vm);
        uint64_t limit = vm->cfg.limits.max_memory ? vm->cfg.limits.max_memory : (1ull << 30);
        if (need > limit)
            return tv_error_set(err, TV_ERR_NOMEM, 0, 0,
                                "geometry output buffers need %llu bytes, over the memory "
                                "limit %llu", (unsigned long long)need,
                                (unsigned long long)limit);
    }
    uint64_t total = (uint64_t)params->num_prims * p->gs_invocations;
    uint64_t njobs = (total + VM_LANES - 1) / VM_LANES;
    job_out *jobs = calloc(njobs ? njobs : 1, sizeof *jobs);
    if (!jobs)
        return tv_error_set(err, TV_ERR_NOMEM, 0, 0, "out of memory");
    run.stage_ctx = jobs;
    st = vm_run_jobs(&run, njobs, 1, geom_job, stats, err);
    uint32_t nout = p->out.count > 0 ? (uint32_t)p->out.count : 1;
    out->num_outputs = (uint32_t)(p->out.count > 0 ? p->out.count : 0);
    for (unsigned s = 0; s < TV_VM_MAX_STREAMS && st == TV_OK; s++) {
        uint64_t tv = 0, tp = 0;
        for (uint64_t j = 0; j < njobs; j++) {
            tv += jobs[j].s[s].nverts;
            tp += jobs[j].s[s].nprims;
        }
        tv_vm_geometry_stream *os = &out->streams[s];
        os->vertices = malloc(tv * nout * 16 + 1);
        os->prim_lengths = malloc(tp * 4 + 1);
        if (!os->vertices || !os->prim_lengths) {
            st = tv_error_set(err, TV_ERR_NOMEM, 0, 0, "out of memory");
            break;
        }
        for (uint64_t j = 0; j < njobs; j++) {
            job_stream *js = &jobs[j].s[s];
            if (js->nverts)
                memcpy(os->vertices + (size_t)os->num_vertices * nout * 4, js->verts,
                       (size_t)js->nverts * nout * 16);
            if (js->nprims)
                memcpy(os->prim_lengths + os->num_prims, js->lens, (size_t)js->nprims * 4);
            os->num_vertices += js->nverts;
            os->num_prims += js->nprims;
        }
    }
    for (uint64_t j = 0; j < njobs; j++)
        for (unsigned s = 0; s < TV_VM_MAX_STREAMS; s++) {
            free(jobs[j].s[s].verts);
            free(jobs[j].s[s].lens);
        }
    free(jobs);
    if (st != TV_OK)
        tv_vm_geometry_output_free(out);
    return st;
}
