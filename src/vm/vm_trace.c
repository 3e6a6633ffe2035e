/* Trace: before the first micro-op of an instruction record the traced lane's sources and
 * destination values; after the last one record the destinations again and report. */
#include "vm/vm_run.h"
#include "vm/vm_trace.h"

static const vm_range *range_of(const tv_vm_program *p, unsigned file)
{
    switch (file) {
    case TV_FILE_TEMP: return &p->temp;
    case TV_FILE_IN: return &p->in;
    case TV_FILE_OUT: return &p->out;
    case TV_FILE_SV: return &p->sv;
    case TV_FILE_ADDR: return &p->addr;
    default: return NULL;
    }
}

/* The lane's value of an indirect operand (an address or temporary register's channel). */
static int32_t lane_ind(const vm_warp *w, const tv_tgsi_indirect *ind, unsigned lane)
{
    tv_tgsi_reg ir;
    memset(&ir, 0, sizeof ir);
    ir.file = ind->file;
    ir.index = ind->index;
    uint32_t v = vm_lane_read(w, &ir, ind->component, lane);
    int32_t s;
    memcpy(&s, &v, 4);
    return s;
}

static int64_t lane_index(const vm_warp *w, const tv_tgsi_reg *r, unsigned lane)
{
    return (int64_t)r->index + (r->indirect ? lane_ind(w, &r->ind, lane) : 0);
}

/* The dimension (constant buffer, vertex) of the lane's operand. */
static int64_t lane_dim(const vm_warp *w, const tv_tgsi_reg *r, unsigned lane)
{
    int64_t dim = r->has_dim ? r->dim : 0;
    return dim + (r->has_dim && r->dim_indirect ? lane_ind(w, &r->dim_ind, lane) : 0);
}

uint32_t vm_lane_read(const vm_warp *w, const tv_tgsi_reg *r, unsigned comp, unsigned lane)
{
    const tv_vm_program *p = w->prog;
    comp &= 3u;
    int64_t idx = lane_index(w, r, lane);
    if (r->file == TV_FILE_IMM) {
        if (idx < 0 || idx >= p->src.num_imms) return 0;
        return w->r[1 + idx * 4 + comp].u[lane];
    }
    if (r->file == TV_FILE_CONST) {
        int64_t dim = lane_dim(w, r, lane);
        if (dim < 0 || dim >= TV_VM_MAX_CONSTBUFS || idx < 0 || !w->run) return 0;
        const tv_vm_buffer *cb = &w->run->b->constbufs[dim];
        uint64_t byte = (uint64_t)idx * 16u + comp * 4u;
        uint32_t v = 0;
        if (cb->data && byte + 4 <= cb->size)
            memcpy(&v, (const uint8_t *)cb->data + byte, 4);
        return v;
    }
    const vm_range *rg = range_of(p, r->file);
    if (!rg) return (uint32_t)r->index;
    uint32_t per = (uint32_t)rg->count, base = rg->base;
    bool tess = p->proc == TV_TGSI_TESS_CTRL || p->proc == TV_TGSI_TESS_EVAL;
    uint32_t nverts = 0;
    if (r->file == TV_FILE_IN && (p->proc == TV_TGSI_GEOM || tess)) {
        per = p->in_per_vertex;
        nverts = p->gs_in_vertices;
    } else if (r->file == TV_FILE_OUT && p->proc == TV_TGSI_TESS_CTRL) {
        per = p->out_per_vertex;
        nverts = p->out_vertices;
    }
    if (nverts) {  /* per-vertex: the vertex index, possibly per lane */
        int64_t v = lane_dim(w, r, lane);
        if (v < 0 || v >= nverts) return 0;
        base += (uint32_t)v * per * 4;
    }
    if (idx < 0 || idx >= per) return 0;
    return w->r[base + (uint32_t)idx * 4 + comp].u[lane];
}

static uint32_t apply_mods(uint32_t v, const tv_tgsi_src *s)
{
    if (s->absolute) v &= 0x7fffffffu;
    if (s->negate) v ^= 0x80000000u;
    return v;
}


void vm_trace_before(vm_warp *w, uint32_t insn)
{
    const tv_tgsi_program *P = &w->prog->src;
    if (insn >= P->num_insns) return;
    const tv_tgsi_instruction *in = &P->insns[insn];
    unsigned lane = w->wk->trace_lane;
    tv_vm_trace_event *ev = &w->wk->tev;
    memset(ev, 0, sizeof *ev);
    ev->insn = insn;
    ev->line = in->line;
    ev->opcode = in->opcode;
    ev->exec_mask = w->exec;
    ev->lane = lane;
    ev->active = (w->exec >> lane) & 1u;
    ev->num_src = in->num_src;
    ev->num_dst = in->num_dst;
    ev->instruction = in;
    for (unsigned k = 0; k < in->num_src && k < TV_TGSI_MAX_SRC; k++)
        for (unsigned c = 0; c < 4; c++)
            ev->src[k][c] = apply_mods(vm_lane_read(w, &in->src[k].reg, in->src[k].swizzle[c],
                                                    lane), &in->src[k]);
    for (unsigned k = 0; k < in->num_dst && k < TV_TGSI_MAX_DST; k++)
        for (unsigned c = 0; c < 4; c++)
            ev->dst_before[k][c] = vm_lane_read(w, &in->dst[k].reg, c, lane);
}

void vm_trace_after(vm_warp *w, uint32_t insn)
{
    const tv_tgsi_program *P = &w->prog->src;
    tv_vm_trace_event *ev = &w->wk->tev;
    if (insn >= P->num_insns || ev->insn != insn) return;
    const tv_tgsi_instruction *in = &P->insns[insn];
    unsigned lane = w->wk->trace_lane;
    for (unsigned k = 0; k < in->num_dst && k < TV_TGSI_MAX_DST; k++)
        for (unsigned c = 0; c < 4; c++)
            ev->dst_after[k][c] = vm_lane_read(w, &in->dst[k].reg, c, lane);
    const tv_vm *vm = w->run->vm;
    if (vm->trace.fn)
        vm->trace.fn(vm->trace.user, ev);
    ev->insn = UINT32_MAX;
}
