/* Lowering's operands: a TGSI register, source or destination resolved to register-file
 * slots (vm_lower_reg, vm_lower_src, vm_lower_dst_slot) — the files' ranges, constant
 * buffers, indirect and array addressing, the per-vertex inputs of geometry and
 * tessellation stages (read from the own vertex, a lane's vertex or gathered) — and a
 * result's commit to its destination through the write mask, saturation and indirect
 * arrays (vm_lower_commit). The instruction classes that call these are in vm_lower.c. */
#include "vm/vm_handlers.h"
#include "vm/vm_lower.h"

static const vm_range *file_range(vm_lower *L, unsigned file)
{
    switch (file) {
    case TV_FILE_TEMP: return &L->p->temp;
    case TV_FILE_IN: return &L->p->in;
    case TV_FILE_OUT: return &L->p->out;
    case TV_FILE_SV: return &L->p->sv;
    case TV_FILE_ADDR: return &L->p->addr;
    default: return NULL;
    }
}

static uint32_t cref_slot(vm_lower *L, uint32_t dim, uint32_t index, unsigned comp)
{
    const tv_vm_program *p = L->p;
    for (uint32_t i = 0; i < p->num_constrefs; i++)
        if (p->constrefs[i].dim == dim && p->constrefs[i].index == index &&
            p->constrefs[i].comp == comp)
            return p->constrefs[i].slot;
    vm_lower_fail(L, TV_ERR_INVALID, "internal: constant reference not collected");
    return 0;
}

/* (vm_lower.h; also the texture operands' resource and sampler indices, vm_lower_tex.c) */
uint32_t vm_lower_ind_slot(vm_lower *L, const tv_tgsi_indirect *ind)
{
    tv_tgsi_reg r;
    memset(&r, 0, sizeof r);
    r.file = ind->file;
    r.index = ind->index;
    return vm_lower_reg(L, &r, ind->component);
}

static bool array_range(vm_lower *L, unsigned file, uint32_t id, int32_t *first, int32_t *cnt)
{
    for (uint32_t i = 0; i < L->num_arrays; i++)
        if (L->arrays[i].file == file && L->arrays[i].id == id) {
            *first = L->arrays[i].first;
            *cnt = L->arrays[i].last - L->arrays[i].first + 1;
            return true;
        }
    return false;
}

/* Files addressed per vertex: GS/TCS/TES inputs, TCS outputs. Sets the registers per
 * vertex and the vertices. */
bool vm_lower_per_vertex(const vm_lower *L, unsigned file, uint32_t *per, uint32_t *nverts)
{
    const tv_vm_program *p = L->p;
    bool tess = p->proc == TV_TGSI_TESS_CTRL || p->proc == TV_TGSI_TESS_EVAL;
    if (file == TV_FILE_IN && (p->proc == TV_TGSI_GEOM || tess)) {
        *per = p->in_per_vertex;
        *nverts = p->gs_in_vertices;
        return true;
    }
    if (file == TV_FILE_OUT && p->proc == TV_TGSI_TESS_CTRL) {
        *per = p->out_per_vertex;
        *nverts = p->out_vertices;
        return true;
    }
    return false;
}

/* The first slot of the vertex block a register without a per-lane vertex names (vertex 0
 * when it has no vertex index: patch registers); false (failed, named) past the vertices. */
static bool vertex_block(vm_lower *L, const tv_tgsi_reg *r, uint32_t per, uint32_t nverts,
                         uint32_t *vbase)
{
    uint32_t v = r->has_dim ? (uint32_t)r->dim : 0;
    if (v >= nverts) {
        vm_lower_fail(L, TV_ERR_INVALID, "%s vertex %u past the %u there are",
                      tv_tgsi_file_name(r->file), v, nverts);
        return false;
    }
    *vbase += v * per * 4;
    return true;
}

/* A TESS_CTRL per-vertex output named without a vertex index (`MOV OUT[0], …` for
 * gl_out[gl_InvocationID]): the invocation's own vertex, as Gallium's drivers read it. */
static bool own_vertex(const vm_lower *L, const tv_tgsi_reg *r)
{
    const tv_vm_program *p = L->p;
    return p->proc == TV_TGSI_TESS_CTRL && r->file == TV_FILE_OUT && !r->has_dim &&
           r->index >= 0 && r->index < 64 && ((p->out_vertex_regs >> r->index) & 1u);
}

/* A register whose vertex is a per-lane value. */
static bool lane_vertex(const vm_lower *L, const tv_tgsi_reg *r)
{
    uint32_t per, nv;
    return (r->has_dim && r->dim_indirect && vm_lower_per_vertex(L, r->file, &per, &nv)) ||
           own_vertex(L, r);
}

/* A destination written through a per-lane index: a register index or a vertex index. */
bool vm_lower_dst_indirect(const vm_lower *L, const tv_tgsi_dst *d)
{
    return d->reg.indirect || lane_vertex(L, &d->reg);
}

/* The flattened index (vertex * per + register within the array) of a register with a
 * per-lane vertex index, into a scratch slot; *base gets the slot of channel `comp` of the
 * array's first register at vertex 0 and *bound the flattened range. An index out of
 * range comes out as -1 (a fault, or 0 / a dropped write under robust indexing). */
static uint32_t vertex_index(vm_lower *L, const tv_tgsi_reg *r, unsigned comp, uint32_t *base,
                             uint32_t *bound)
{
    const vm_range *rg = file_range(L, r->file);
    uint32_t per = 0, nverts = 0;
    vm_lower_per_vertex(L, r->file, &per, &nverts);
    int32_t first = rg->first, cnt = (int32_t)per;
    uint32_t aid = r->array_id ? r->array_id : r->ind.array_id;
    if (aid)
        array_range(L, r->file, aid, &first, &cnt);
    int32_t dim = r->has_dim ? r->dim : 0;
    if (dim < -32768 || dim > 32767) {
        vm_lower_fail(L, TV_ERR_INVALID, "vertex index offset %d out of range", dim);
        return 0;
    }
    uint32_t vs = own_vertex(L, r) ? L->p->invocation_slot : vm_lower_ind_slot(L, &r->dim_ind);
    uint32_t is = r->indirect ? vm_lower_ind_slot(L, &r->ind) : UINT32_MAX;
    uint32_t s = vm_lower_scratch(L);
    vm_uop *u = vm_lower_emit_other(L, vm_h_vertex_index);
    if (!u) return 0;
    u->dst[0] = s;
    u->src[0] = vs;
    u->src[1] = is;
    u->aux = per;
    u->aux2 = nverts | ((uint32_t)(uint16_t)(int16_t)dim << 16);
    u->aux3 = (uint32_t)(r->index - first);
    u->target = (uint32_t)cnt;
    *base = rg->base + (uint32_t)(first - rg->first) * 4 + comp;
    *bound = per * nverts;
    return s;
}

/* A gather or scatter over a range of registers (vm_h_gather's fields, which vm_h_scatter
 * shares): from slot BASE, COUNT registers of 4 slots each, the lane's index offset by
 * OFF; an index outside the range faults (VM_UF_FAULT). The caller sets the value and
 * index slots. NULL where the micro-op could not be emitted. */
static vm_uop *emit_indexed(vm_lower *L, unsigned op, uint32_t base, uint32_t count,
                            uint32_t off)
{
    vm_uop *u = vm_lower_emit(L, op, VM_K_ALU);
    if (!u) return NULL;
    u->flags |= VM_UF_FAULT;
    u->aux = base;
    u->aux2 = count;
    u->aux3 = off;
    u->target = 4;
    return u;
}

static uint32_t vertex_gather(vm_lower *L, const tv_tgsi_reg *r, unsigned comp)
{
    uint32_t base = 0, bound = 0;
    uint32_t idx = vertex_index(L, r, comp, &base, &bound);
    uint32_t s = vm_lower_scratch(L);
    vm_uop *u = emit_indexed(L, VM_OP_gather, base, bound, 0);
    if (!u) return 0;
    u->dst[0] = s;
    u->src[0] = idx;
    return s;
}

uint32_t vm_lower_reg(vm_lower *L, const tv_tgsi_reg *r, unsigned comp)
{
    comp &= 3u;
    if (r->file == TV_FILE_IMM) {
        if (r->indirect) {
            uint32_t s = vm_lower_scratch(L);
            vm_uop *u = emit_indexed(L, VM_OP_gather, 1 + comp, L->src->num_imms,
                                     (uint32_t)r->index);
            if (!u) return 0;
            u->dst[0] = s;
            u->src[0] = vm_lower_ind_slot(L, &r->ind);
            return s;
        }
        if (r->index < 0 || (uint32_t)r->index >= L->src->num_imms) {
            vm_lower_fail(L, TV_ERR_INVALID, "IMM[%d] is not defined", r->index);
            return 0;
        }
        return 1 + (uint32_t)r->index * 4 + comp;
    }
    if (r->file == TV_FILE_CONST) {
        uint32_t dim = r->has_dim ? (uint32_t)r->dim : 0;
        if (!r->indirect && !r->dim_indirect)
            return cref_slot(L, dim, (uint32_t)r->index, comp);
        uint32_t s = vm_lower_scratch(L);
        uint32_t is = r->indirect ? vm_lower_ind_slot(L, &r->ind) : UINT32_MAX;
        uint32_t ds = (r->has_dim && r->dim_indirect) ? vm_lower_ind_slot(L, &r->dim_ind)
                                                      : UINT32_MAX;
        vm_uop *u = vm_lower_emit(L, VM_OP_gather_const, VM_K_ALU);
        if (!u) return 0;
        u->dst[0] = s;
        u->src[0] = is;
        u->src[1] = ds;
        u->aux = dim;
        u->aux2 = (uint32_t)r->index;
        u->aux3 = comp;
        return s;
    }
    const vm_range *rg = file_range(L, r->file);
    if (!rg) {
        vm_lower_fail(L, TV_ERR_INVALID, "a %s register cannot be used as a value here",
                      tv_tgsi_file_name(r->file) ? tv_tgsi_file_name(r->file) : "?");
        return 0;
    }
    uint32_t vbase = rg->base;
    uint32_t per = (uint32_t)rg->count;
    uint32_t nverts;
    if (vm_lower_per_vertex(L, r->file, &per, &nverts)) {
        if (lane_vertex(L, r))
            return vertex_gather(L, r, comp);
        /* a register without a vertex index (TESS_EVAL's patch inputs, TESS_CTRL's patch
           outputs) lives in vertex 0's block */
        if (!vertex_block(L, r, per, nverts, &vbase))
            return 0;
    }
    if (!r->indirect) {
        int32_t rel = r->index - rg->first;
        if (rel < 0 || (uint32_t)rel >= per) {
            vm_lower_fail(L, TV_ERR_INVALID, "%s[%d] is outside the declared registers",
                          tv_tgsi_file_name(r->file), r->index);
            return 0;
        }
        return vbase + (uint32_t)rel * 4 + comp;
    }
    int32_t first = rg->first, cnt = (int32_t)per;
    uint32_t aid = r->array_id ? r->array_id : r->ind.array_id;
    if (aid)
        array_range(L, r->file, aid, &first, &cnt);
    uint32_t s = vm_lower_scratch(L);
    uint32_t is = vm_lower_ind_slot(L, &r->ind);
    vm_uop *u = emit_indexed(L, VM_OP_gather, vbase + (uint32_t)(first - rg->first) * 4 + comp,
                             (uint32_t)cnt, (uint32_t)(r->index - first));
    if (!u) return 0;
    u->dst[0] = s;
    u->src[0] = is;
    return s;
}

uint32_t vm_lower_src(vm_lower *L, const tv_tgsi_src *s, unsigned chan, char type)
{
    uint32_t slot = vm_lower_reg(L, &s->reg, s->swizzle[chan & 3u]);
    if (!s->negate && !s->absolute)
        return slot;
    if (type == 'l')
        return slot;  /* 64-bit integer modifiers act on pairs: see lower_v4 */
    if (type == 'd') {
        if (!(chan & 1u))
            return slot;  /* low word of a double: sign lives in the high word */
        type = 'f';
    }
    bool integer = type == 'i' || type == 'u';
    unsigned op;
    if (s->negate && s->absolute)
        op = integer ? VM_OP_mod_inegabs : VM_OP_mod_fnegabs;
    else if (s->negate)
        op = integer ? VM_OP_mod_ineg : VM_OP_mod_fneg;
    else
        op = integer ? VM_OP_mod_iabs : VM_OP_mod_fabs;
    uint32_t t = vm_lower_scratch(L);
    vm_uop *u = vm_lower_emit(L, op, VM_K_ALU);
    if (!u) return 0;
    u->dst[0] = t;
    u->src[0] = slot;
    return t;
}

uint32_t vm_lower_dst_slot(vm_lower *L, const tv_tgsi_dst *d, unsigned c)
{
    if (vm_lower_dst_indirect(L, d))
        return UINT32_MAX;
    tv_tgsi_src s;
    memset(&s, 0, sizeof s);
    s.reg = d->reg;
    const vm_range *rg = file_range(L, d->reg.file);
    if (!rg || d->reg.file == TV_FILE_SV) {
        vm_lower_fail(L, TV_ERR_INVALID, "cannot write a %s register",
                      tv_tgsi_file_name(d->reg.file) ? tv_tgsi_file_name(d->reg.file) : "?");
        return 0;
    }
    return vm_lower_reg(L, &d->reg, c);
}

/* The moves of a direct destination as one channel-group MOV. The group reads every
 * source before it writes, so it is used only when no source is the destination of an
 * earlier channel (where one-by-one moves would read the new value). */
static bool commit_group(vm_lower *L, const tv_tgsi_dst *d, const uint32_t tmp[4], unsigned wm,
                         bool sat)
{
    uint32_t ds[4], src[4];
    unsigned n = 0;
    for (unsigned c = 0; c < 4; c++) {
        if (!(wm & (1u << c)))
            continue;
        ds[n] = vm_lower_dst_slot(L, d, c);
        src[n] = tmp[c];
        for (unsigned k = 0; k < n; k++)
            if (src[n] == ds[k])
                return false;
        n++;
    }
    if (!n || L->status != TV_OK)
        return true;
    vm_uop *u = vm_lower_emit(L, VM_OP_mov_n, VM_K_ALU);
    if (!u)
        return true;
    for (unsigned k = 0; k < n; k++) {
        u->dst[k] = ds[k];
        u->src[k] = src[k];
    }
    u->aux2 = n;
    if (sat)
        u->flags |= VM_UF_SAT;
    return true;
}

void vm_lower_commit(vm_lower *L, const tv_tgsi_dst *d, const uint32_t tmp[4], unsigned mask,
                     bool sat)
{
    unsigned wm = d->writemask & mask;
    bool indirect = vm_lower_dst_indirect(L, d);
    if (!indirect && commit_group(L, d, tmp, wm, sat))
        return;
    for (unsigned c = 0; c < 4; c++) {
        if (!(wm & (1u << c)))
            continue;
        if (!indirect) {
            uint32_t ds = vm_lower_dst_slot(L, d, c);
            vm_uop *u = vm_lower_emit(L, VM_OP_mov, VM_K_ALU);
            if (!u) return;
            u->dst[0] = ds;
            u->src[0] = tmp[c];
            if (sat) u->flags |= VM_UF_SAT;
            continue;
        }
        const vm_range *rg = file_range(L, d->reg.file);
        if (!rg || d->reg.file == TV_FILE_SV) {
            vm_lower_fail(L, TV_ERR_INVALID, "cannot write this register file indirectly");
            return;
        }
        uint32_t src = tmp[c];
        if (sat) {
            uint32_t t2 = vm_lower_scratch(L);
            vm_uop *m = vm_lower_emit(L, VM_OP_mov, VM_K_ALU);
            if (!m) return;
            m->dst[0] = t2;
            m->src[0] = src;
            m->flags |= VM_UF_SAT;
            src = t2;
        }
        uint32_t per, nverts;
        if (lane_vertex(L, &d->reg)) {
            uint32_t base = 0, bound = 0;
            uint32_t idx = vertex_index(L, &d->reg, c, &base, &bound);
            vm_uop *u = emit_indexed(L, VM_OP_scatter, base, bound, 0);
            if (!u) return;
            u->src[0] = src;
            u->src[1] = idx;
            continue;
        }
        /* a register index: within the array, at the vertex the dimension names */
        uint32_t vbase = rg->base;
        if (vm_lower_per_vertex(L, d->reg.file, &per, &nverts)) {
            if (!vertex_block(L, &d->reg, per, nverts, &vbase))
                return;
        } else {
            per = (uint32_t)rg->count;
        }
        int32_t first = rg->first, cnt = (int32_t)per;
        uint32_t aid = d->reg.array_id ? d->reg.array_id : d->reg.ind.array_id;
        if (aid)
            array_range(L, d->reg.file, aid, &first, &cnt);
        uint32_t is = vm_lower_ind_slot(L, &d->reg.ind);
        vm_uop *u = emit_indexed(L, VM_OP_scatter,
                                 vbase + (uint32_t)(first - rg->first) * 4 + c, (uint32_t)cnt,
                                 (uint32_t)(d->reg.index - first));
        if (!u) return;
        u->src[0] = src;
        u->src[1] = is;
    }
}
