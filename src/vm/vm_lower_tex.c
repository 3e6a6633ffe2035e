/* Lowering of the texture opcodes (issue 5): one texture micro-op per instruction, fed by
 * an operand block of scratch slots (vm_ops_tex.h) that copy micro-ops fill for all lanes,
 * then masked moves into the destination. Operand layouts come from vm_ops_tex_table.c. */
#include "vm/vm_handlers.h"
#include "vm/vm_lower.h"
#include "vm/vm_ops_tex.h"

typedef struct tex_ops {
    uint32_t slot[VM_TB_SIZE];
    bool used[VM_TB_SIZE];
} tex_ops;

static void put(tex_ops *o, unsigned at, uint32_t slot)
{
    o->slot[at] = slot;
    o->used[at] = true;
}

static void put_vec(vm_lower *L, tex_ops *o, unsigned at, const tv_tgsi_src *s, char type)
{
    for (unsigned c = 0; c < 4; c++)
        put(o, at + c, vm_lower_src(L, s, c, type));
}

/* The declared target of SVIEW[index]. */
static bool sview_target(vm_lower *L, int32_t index, unsigned *target)
{
    for (uint32_t i = 0; i < L->src->num_decls; i++) {
        const tv_tgsi_declaration *d = &L->src->decls[i];
        if (d->file == TV_FILE_SVIEW && index >= d->first && index <= d->last) {
            *target = d->sview_target;
            return true;
        }
    }
    return false;
}

static uint32_t pack_swizzle(const uint8_t swz[4])
{
    return (uint32_t)(swz[0] & 3u) | (uint32_t)(swz[1] & 3u) << 2 |
           (uint32_t)(swz[2] & 3u) << 4 | (uint32_t)(swz[3] & 3u) << 6;
}

/* Resource (and sampler) operands: direct index, per-lane index, or bindless handle. */
static tv_status lower_resource(vm_lower *L, const vm_tex_oprow *row, tex_ops *o, uint32_t *flags,
                                uint32_t *res_index, uint32_t *samp_index)
{
    const tv_tgsi_instruction *in = L->in;
    const tv_tgsi_src *rs = &in->src[row->res];
    unsigned want = row->d3d ? TV_FILE_SVIEW : TV_FILE_SAMP;
    if (rs->reg.file == want) {
        if (rs->reg.index < 0)
            return vm_lower_fail(L, TV_ERR_INVALID, "negative %s index",
                                 tv_tgsi_file_name(want));
        *res_index = (uint32_t)rs->reg.index;
        if (rs->reg.indirect) {
            put(o, VM_TB_RES, vm_lower_ind_slot(L, &rs->reg.ind));
            *flags |= VM_TXF_RES_LANE;
        }
    } else if (!row->d3d && rs->reg.file != TV_FILE_SVIEW && rs->reg.file != TV_FILE_NULL) {
        /* bindless: a register holding a handle (SAMP2HND: (SAMP << 20) | SVIEW) */
        put(o, VM_TB_RES, vm_lower_src(L, rs, 0, 'u'));
        *flags |= VM_TXF_BINDLESS;
    } else {
        return vm_lower_fail(L, TV_ERR_INVALID, "source %d of %s must be a %s register",
                             row->res, vm_opname(in->opcode), tv_tgsi_file_name(want));
    }
    if (!row->d3d) {
        *samp_index = *res_index;         /* SAMP[n] names sampler n and view n */
        if (*flags & VM_TXF_RES_LANE) {
            put(o, VM_TB_SAMP, o->slot[VM_TB_RES]);
            *flags |= VM_TXF_SAMP_LANE;
        }
        return L->status;
    }
    *samp_index = 0;
    if (row->samp < 0)
        return L->status;
    const tv_tgsi_src *ss = &in->src[row->samp];
    if (ss->reg.file != TV_FILE_SAMP || ss->reg.index < 0)
        return vm_lower_fail(L, TV_ERR_INVALID, "source %d of %s must be a SAMP register",
                             row->samp, vm_opname(in->opcode));
    *samp_index = (uint32_t)ss->reg.index;
    if (ss->reg.indirect) {
        put(o, VM_TB_SAMP, vm_lower_ind_slot(L, &ss->reg.ind));
        *flags |= VM_TXF_SAMP_LANE;
    }
    return L->status;
}

/* What an implicit-LOD sampling asks of its quad (tv_vm_program.reads_quads, lod_tex):
 * a direct view and sampler are recorded, for the check of their descriptors at a
 * batch's start; any other form, a LOD query, or one sampling too many reads the quad. */
static void note_lod(tv_vm_program *p, const vm_tex_oprow *row, const vm_tex_tgtrow *tg,
                     uint32_t flags, uint32_t res_index, uint32_t samp_index)
{
    if (!tv_tex_op_implicit_lod(row->op))
        return;
    if (row->op == TV_TEX_OP_QUERY_LOD ||
        (flags & (VM_TXF_RES_LANE | VM_TXF_SAMP_LANE | VM_TXF_BINDLESS)) ||
        res_index > 0xfffffu || samp_index > 0xfffu) {
        p->reads_quads = true;
        return;
    }
    const uint32_t handle = tv_tex_handle(res_index, samp_index);
    for (unsigned i = 0; i < p->num_lod_tex; i++)
        if (p->lod_tex[i] == handle && p->lod_tex_target[i] == tg->target)
            return;
    if (p->num_lod_tex == VM_LOD_TEX_MAX) {
        p->reads_quads = true;
        return;
    }
    p->lod_tex[p->num_lod_tex] = handle;
    p->lod_tex_target[p->num_lod_tex++] = tg->target;
}

/* Texel offsets: one (or four for a gather) 3-component operands, immediate or register. */
static tv_status lower_offsets(vm_lower *L, const vm_tex_oprow *row, tex_ops *o, uint32_t *flags)
{
    const tv_tgsi_instruction *in = L->in;
    unsigned n = in->num_tex_offsets;
    if (!n || row->op == TV_TEX_OP_QUERY_DIM || row->op == TV_TEX_OP_QUERY_SAMPLES ||
        row->op == TV_TEX_OP_QUERY_SAMPLE_POS)
        return L->status;
    if (n == 4 && row->op == TV_TEX_OP_GATHER)
        *flags |= VM_TXF_OFFSETS4;
    else if (n == 1)
        *flags |= VM_TXF_OFFSETS;
    else
        return vm_lower_fail(L, TV_ERR_UNSUPPORTED, "%u texel offsets on %s (one, or four on "
                             "a gather)", n, vm_opname(in->opcode));
    for (unsigned k = 0; k < n; k++) {
        const tv_tgsi_texoffset *t = &in->tex_offsets[k];
        tv_tgsi_reg r;
        memset(&r, 0, sizeof r);
        r.file = t->file;
        r.index = t->index;
        for (unsigned c = 0; c < 3; c++)
            put(o, VM_TB_OFF + 3 * k + c, vm_lower_reg(L, &r, t->swizzle[c]));
    }
    return L->status;
}

/* One unmasked copy micro-op per contiguous run of used block entries. */
static void emit_copies(vm_lower *L, const tex_ops *o, uint32_t base)
{
    unsigned k = 0;
    while (k < VM_TB_SIZE && L->status == TV_OK) {
        if (!o->used[k]) {
            k++;
            continue;
        }
        vm_uop *u = vm_lower_emit_other(L, vm_h_tex_copy);
        if (!u) return;
        u->aux2 = base + k;
        unsigned n = 0;
        while (k < VM_TB_SIZE && o->used[k] && n < VM_MAX_USRC)
            u->src[n++] = o->slot[k++];
        u->aux = n;
    }
}

tv_status vm_lower_tex(vm_lower *L)
{
    const tv_tgsi_instruction *in = L->in;
    const vm_tex_oprow *row = vm_tex_oprow_get(in->opcode);
    if (!row)
        return vm_lower_fail(L, TV_ERR_UNSUPPORTED, "opcode %s is not supported",
                             vm_opname(in->opcode));
    if (in->num_src < row->nsrc)
        return vm_lower_fail(L, TV_ERR_INVALID, "%s needs %u source operands",
                             vm_opname(in->opcode), row->nsrc);
    if (in->num_dst < 1)
        return vm_lower_fail(L, TV_ERR_INVALID, "missing destination operand");

    uint32_t flags = 0;
    unsigned target = TV_TGT_2D;
    const tv_tgsi_src *rs = &in->src[row->res];
    bool queries_rt = (in->opcode == TV_TGSI_OP_SAMPLE_POS ||
                       in->opcode == TV_TGSI_OP_SAMPLE_INFO) && rs->reg.file != TV_FILE_SVIEW;
    if (queries_rt) {
        flags |= VM_TXF_RT;
    } else if (!row->d3d) {
        if (!in->has_texture || in->tex_target == TV_TGT_UNKNOWN)
            return vm_lower_fail(L, TV_ERR_INVALID, "%s needs a texture target",
                                 vm_opname(in->opcode));
        target = in->tex_target;
    } else {
        if (rs->reg.file != TV_FILE_SVIEW)
            return vm_lower_fail(L, TV_ERR_INVALID, "source %d of %s must be an SVIEW register",
                                 row->res, vm_opname(in->opcode));
        if (!sview_target(L, rs->reg.index, &target))
            return vm_lower_fail(L, TV_ERR_INVALID, "SVIEW[%d] is not declared",
                                 rs->reg.index);
    }
    const vm_tex_tgtrow *tg = vm_tex_tgtrow_get(target);
    if (!tg)
        return vm_lower_fail(L, TV_ERR_INVALID, "%s: unknown texture target",
                             vm_opname(in->opcode));
    if (!queries_rt && !(tg->ops & (1u << row->op)))
        return vm_lower_fail(L, TV_ERR_INVALID, "%s cannot be used with a %s texture",
                             vm_opname(in->opcode), tv_tgsi_target_name(target));

    tex_ops o;
    memset(&o, 0, sizeof o);
    uint32_t res_index = 0, samp_index = 0;
    if (!queries_rt && lower_resource(L, row, &o, &flags, &res_index, &samp_index) != TV_OK)
        return L->status;
    note_lod(L->p, row, tg, flags, res_index, samp_index);
    bool integer = row->op == TV_TEX_OP_FETCH || row->op == TV_TEX_OP_QUERY_DIM;
    if (row->coord >= 0) {
        /* the components the handler reads; the others stay unused entries (zeros) */
        const unsigned reads = vm_tex_coord_reads(row, tg);
        for (unsigned c = 0; c < 4; c++)
            if ((reads >> c) & 1u)
                put(&o, VM_TB_COORD + c, vm_lower_src(L, &in->src[row->coord], c,
                                                      integer ? 'i' : 'f'));
    }
    if (row->extra >= 0) {
        const tv_tgsi_src *es = &in->src[row->extra];
        /* TG4 src1: the component (uint), or the reference on SHADOWCUBE_ARRAY (float) */
        char type = row->arg == VM_TA_SAMPLE_X ? 'i'
                    : (row->arg == VM_TA_COMP_X && !tg->shadow) ? 'u' : 'f';
        if (es->reg.file != TV_FILE_NULL)
            put_vec(L, &o, VM_TB_EXTRA, es, type);
    }
    if (row->extra2 >= 0)
        put_vec(L, &o, VM_TB_EXTRA2, &in->src[row->extra2], 'f');
    if (lower_offsets(L, row, &o, &flags) != TV_OK)
        return L->status;

    /* gather component: GATHER4 and TG4 whose sampler operand has a replicated swizzle
     * (SAMP[n].yyyy: the TG4_COMPONENT_IN_SWIZZLE form, src1 ignored) take the swizzle;
     * TG4 with the plain SAMP[n] takes src1.x per lane */
    uint32_t comp = 0;
    if (row->op == TV_TEX_OP_GATHER && !tg->shadow) {
        const uint8_t *sw = in->src[row->d3d ? row->samp : row->res].swizzle;
        bool replicated = sw[0] == sw[1] && sw[0] == sw[2] && sw[0] == sw[3];
        if (row->arg == VM_TA_COMP_X && o.used[VM_TB_EXTRA] && !replicated)
            flags |= VM_TXF_COMP_LANE;
        else
            comp = sw[0] & 3u;
    }
    static const uint8_t ident[4] = {0, 1, 2, 3};
    uint32_t swz = pack_swizzle(row->res_swizzle ? rs->swizzle : ident);

    unsigned size = 1;
    for (unsigned k = 0; k < VM_TB_SIZE; k++)
        if (o.used[k])
            size = k + 1;
    /* a short block is read from its source slots in place (VM_TXF_DIRECT): the copies
       would run right before the micro-op, unmasked, with nothing written in between, so
       every lane reads what it would read from the copy */
    bool direct = size <= VM_TB_DIRECT && !L->p->plain;   /* plain: always copies */
    uint32_t base = 0;
    for (unsigned k = 0; !direct && k < size; k++) {
        uint32_t s = vm_lower_scratch(L);
        if (k == 0)
            base = s;
    }
    /* a direct destination without _SAT is written by the micro-op itself (it reads every
       operand before it stores any result); other channels go to scratch slots */
    const tv_tgsi_dst *d = &in->dst[0];
    bool in_place = !vm_lower_dst_indirect(L, d) && !in->saturate && !L->p->plain;
    uint32_t tmp[4];
    for (unsigned c = 0; c < 4; c++)
        tmp[c] = in_place && (d->writemask >> c & 1u) ? vm_lower_dst_slot(L, d, c)
                                                      : vm_lower_scratch(L);
    if (L->status != TV_OK)
        return L->status;
    if (direct)
        flags |= VM_TXF_DIRECT;
    else
        emit_copies(L, &o, base);
    vm_uop *u = vm_lower_emit_other(L, vm_h_tex);
    if (!u)
        return L->status;
    u->flags |= VM_UF_FAULT | VM_UF_TEX;
    u->src[0] = base;
    u->src[1] = res_index;
    u->src[2] = samp_index;
    u->src[3] = swz;
    u->src[4] = comp;
    u->src[5] = size;
    for (unsigned k = 0; direct && k < size; k++)
        u->src[VM_TB_DIRECT_AT + k] = o.used[k] ? o.slot[k] : 0;   /* slot 0 reads zeros */
    u->aux = in->opcode;
    u->aux2 = flags;
    u->aux3 = target;
    memcpy(u->dst, tmp, sizeof tmp);
    if (!in_place)
        vm_lower_commit(L, d, tmp, 0xf, in->saturate);
    return L->status;
}
