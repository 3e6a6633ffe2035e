/* Lowering: TGSI program -> flat micro-op array with every operand resolved to a slot.
 * One pass over declarations sizes the register file; one pass over instructions emits
 * micro-ops by the opcode table's class; a final pass turns instruction indices in
 * control-flow micro-ops into micro-op indices. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "vm/vm_handlers.h"
#include "vm/vm_lower.h"

tv_status vm_lower_cf(vm_lower *L);

tv_status vm_lower_fail(vm_lower *L, tv_status code, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (L->status == TV_OK) {
        L->status = code;
        if (L->in)
            tv_error_set(L->err, code, L->in->line, L->in->column, "instruction %u (%s): %s",
                         L->insn, vm_opname(L->in->opcode), msg);
        else
            tv_error_set(L->err, code, 0, 0, "%s", msg);
    }
    return L->status;
}

static vm_uop *emit(vm_lower *L, vm_fn fn, unsigned op, uint16_t kind)
{
    if (L->status != TV_OK)
        return NULL;
    if (L->num_uops == L->cap_uops) {
        uint32_t cap = L->cap_uops ? L->cap_uops * 2 : 256;
        vm_uop *nu = realloc(L->uops, cap * sizeof *nu);
        if (!nu) {
            vm_lower_fail(L, TV_ERR_NOMEM, "out of memory");
            return NULL;
        }
        L->uops = nu;
        L->cap_uops = cap;
    }
    vm_uop *u = &L->uops[L->num_uops++];
    memset(u, 0, sizeof *u);
    u->fn = fn;
    u->op = (uint16_t)op;
    u->kind = kind;
    u->insn = L->insn;
    return u;
}

vm_uop *vm_lower_emit(vm_lower *L, unsigned op, uint16_t kind)
{
    return emit(L, op < VM_OP_COUNT ? vm_op_fns[op] : NULL, op, kind);
}

vm_uop *vm_lower_emit_other(vm_lower *L, vm_fn fn)
{
    return emit(L, fn, VM_OP_OTHER, VM_K_ALU);
}

uint32_t vm_lower_scratch(vm_lower *L)
{
    if (L->scratch_used >= VM_SCRATCH_SLOTS) {
        vm_lower_fail(L, TV_ERR_UNSUPPORTED, "instruction needs too many temporaries");
        return 0;
    }
    uint32_t s = L->p->scratch_base + L->scratch_used++;
    if (L->scratch_used > L->scratch_max)
        L->scratch_max = L->scratch_used;
    return s;
}

/* ---- classes ------------------------------------------------------------------------------ */

static void lower_ch(vm_lower *L, const vm_optab_row *row, unsigned nsrc)
{
    const tv_tgsi_instruction *in = L->in;
    const tv_tgsi_dst *d = &in->dst[0];
    unsigned wm = d->writemask;
    uint32_t s[4][4] = {{0}};
    for (unsigned c = 0; c < 4; c++)
        if (wm & (1u << c))
            for (unsigned k = 0; k < nsrc; k++)
                s[c][k] = vm_lower_src(L, &in->src[k], c, row->types[k]);
    uint32_t ds[4] = {0};
    bool via_tmp = vm_lower_dst_indirect(L, d);
    for (unsigned c = 0; c < 4 && !via_tmp; c++)
        if (wm & (1u << c))
            ds[c] = vm_lower_dst_slot(L, d, c);
    for (unsigned c = 0; c < 4 && !via_tmp; c++) {
        if (!(wm & (1u << c)))
            continue;
        for (unsigned c2 = c + 1; c2 < 4; c2++)
            if (wm & (1u << c2))
                for (unsigned k = 0; k < nsrc; k++)
                    if (s[c2][k] == ds[c])
                        via_tmp = true;
    }
    unsigned op = (L->p->legacy_math && row->op_legacy) ? row->op_legacy : row->op;
    uint32_t tmp[4] = {0};
    for (unsigned c = 0; c < 4; c++) {
        if (!(wm & (1u << c)))
            continue;
        vm_uop *u = vm_lower_emit(L, op, VM_K_ALU);
        if (!u) return;
        for (unsigned k = 0; k < nsrc; k++)
            u->src[k] = s[c][k];
        if (in->saturate) u->flags |= VM_UF_SAT;
        if (via_tmp) {
            tmp[c] = vm_lower_scratch(L);
            u->dst[0] = tmp[c];
        } else {
            u->dst[0] = ds[c];
        }
    }
    if (via_tmp)
        vm_lower_commit(L, d, tmp, 0xf, false);
}

/* Per channel as one micro-op (VM_L_CHN): the group handler computes every written
 * channel before it stores any, so a destination that is also a later channel's source
 * needs no scratch copy. An indirect destination gets the group into scratch slots and
 * then the commit's scatters. */
static void lower_chn(vm_lower *L, const vm_optab_row *row, unsigned nsrc)
{
    const tv_tgsi_instruction *in = L->in;
    const tv_tgsi_dst *d = &in->dst[0];
    unsigned wm = d->writemask;
    uint32_t s[4][4] = {{0}};
    for (unsigned c = 0; c < 4; c++)
        if (wm & (1u << c))
            for (unsigned k = 0; k < nsrc; k++)
                s[c][k] = vm_lower_src(L, &in->src[k], c, row->types[k]);
    uint32_t ds[4] = {0}, tmp[4] = {0};
    for (unsigned c = 0; c < 4; c++) {
        if (!(wm & (1u << c)))
            continue;
        if (vm_lower_dst_indirect(L, d))
            ds[c] = tmp[c] = vm_lower_scratch(L);
        else
            ds[c] = vm_lower_dst_slot(L, d, c);
    }
    if (!wm || L->status != TV_OK)
        return;
    unsigned op = (L->p->legacy_math && row->op_legacy) ? row->op_legacy : row->op;
    vm_uop *u = vm_lower_emit(L, op, VM_K_ALU);
    if (!u) return;
    unsigned n = 0;
    for (unsigned c = 0; c < 4; c++) {
        if (!(wm & (1u << c)))
            continue;
        for (unsigned k = 0; k < nsrc; k++)
            u->src[k * 4 + n] = s[c][k];
        u->dst[n++] = ds[c];
    }
    u->aux2 = n;
    if (in->saturate) u->flags |= VM_UF_SAT;
    if (vm_lower_dst_indirect(L, d))
        vm_lower_commit(L, d, tmp, 0xf, false);
}

/* scalar (SC) and dot products (DOT): one result replicated to every written channel */
static void lower_sc(vm_lower *L, const vm_optab_row *row, unsigned nsrc)
{
    const tv_tgsi_instruction *in = L->in;
    const tv_tgsi_dst *d = &in->dst[0];
    unsigned wm = d->writemask;
    if (!wm)
        return;
    unsigned op = (L->p->legacy_math && row->op_legacy) ? row->op_legacy : row->op;
    uint32_t srcs[VM_MAX_USRC] = {0};
    if (row->lclass == VM_L_DOT) {
        for (unsigned c = 0; c < row->aux; c++) {
            srcs[c] = vm_lower_src(L, &in->src[0], c, 'f');
            srcs[4 + c] = vm_lower_src(L, &in->src[1], c, 'f');
        }
    } else {
        for (unsigned k = 0; k < nsrc; k++)
            srcs[k] = vm_lower_src(L, &in->src[k], 0, row->types[k]);
    }
    unsigned c0 = 0;
    while (!(wm & (1u << c0)))
        c0++;
    uint32_t res = vm_lower_dst_indirect(L, d) ? vm_lower_scratch(L) : vm_lower_dst_slot(L, d, c0);
    vm_uop *u = vm_lower_emit(L, op, VM_K_ALU);
    if (!u) return;
    memcpy(u->src, srcs, sizeof srcs);
    u->dst[0] = res;
    u->aux = row->aux;
    u->aux2 = 1;   /* a one-channel group for the handlers that are groups (SIN, COS) */
    if (in->saturate) u->flags |= VM_UF_SAT;
    uint32_t tmp[4] = {res, res, res, res};
    unsigned rest = vm_lower_dst_indirect(L, d) ? wm : (wm & ~(1u << c0));
    vm_lower_commit(L, d, tmp, rest, false);
}

static void lower_v4(vm_lower *L, const vm_optab_row *row, unsigned nsrc)
{
    const tv_tgsi_instruction *in = L->in;
    const tv_tgsi_dst *d = &in->dst[0];
    uint32_t srcs[VM_MAX_USRC] = {0};
    for (unsigned k = 0; k < nsrc && k < 3; k++) {
        for (unsigned c = 0; c < 4; c++)
            srcs[k * 4 + c] = vm_lower_src(L, &in->src[k], c, row->types[k]);
        const tv_tgsi_src *s = &in->src[k];
        if (row->types[k] == 'l' && (s->negate || s->absolute)) {
            for (unsigned p = 0; p < 2; p++) {
                uint32_t lo = vm_lower_scratch(L), hi = vm_lower_scratch(L);
                vm_uop *m = vm_lower_emit(L, VM_OP_mod_i64, VM_K_ALU);
                if (!m) return;
                m->src[0] = srcs[k * 4 + 2 * p];
                m->src[1] = srcs[k * 4 + 2 * p + 1];
                m->dst[0] = lo;
                m->dst[1] = hi;
                m->aux = (s->absolute ? 1u : 0u) | (s->negate ? 2u : 0u);
                srcs[k * 4 + 2 * p] = lo;
                srcs[k * 4 + 2 * p + 1] = hi;
            }
        }
    }
    /* A 64-bit result written to zw alone comes from each 64-bit source's first value (its
     * x and y after the swizzle): the k-th enabled pair from the k-th value, as for the
     * narrowing conversions (vm_commit_narrow). The TGSI Mesa's virgl driver sends relies
     * on it (`MOV TEMP[80].xy, TEMP[1].zwzw` then `DADD TEMP[2].zw, TEMP[80], TEMP[81]`);
     * with .xyxy-style swizzles, the usual form, both readings agree. */
    bool narrowing = row->op == VM_OP_d2f || row->op == VM_OP_d2i || row->op == VM_OP_d2u ||
                     row->op == VM_OP_u642f || row->op == VM_OP_i642f;  /* pick pairs already */
    if ((d->writemask & 0x3u) == 0 && (d->writemask & 0xcu) && !narrowing)
        for (unsigned k = 0; k < nsrc && k < 3; k++)
            if (row->types[k] == 'd' || row->types[k] == 'l') {
                srcs[k * 4 + 2] = srcs[k * 4 + 0];
                srcs[k * 4 + 3] = srcs[k * 4 + 1];
            }
    uint32_t tmp[4];
    for (unsigned c = 0; c < 4; c++)
        tmp[c] = vm_lower_scratch(L);
    unsigned op = (L->p->legacy_math && row->op_legacy) ? row->op_legacy : row->op;
    vm_uop *u = vm_lower_emit(L, op, VM_K_ALU);
    if (!u) return;
    memcpy(u->src, srcs, sizeof srcs);
    memcpy(u->dst, tmp, sizeof tmp);
    u->aux = d->writemask;
    if (in->saturate) u->flags |= VM_UF_SAT;
    vm_lower_commit(L, d, tmp, 0xf, false);
}

/* Control flow: instruction indices in target/skip are fixed up after lowering. */
static void lower_cf(vm_lower *L, const vm_optab_row *row)
{
    const tv_tgsi_instruction *in = L->in;
    uint32_t srcs[VM_MAX_USRC] = {0};
    if (row->types[0]) {  /* a CF row with a type reads its source (IF, UIF, EMIT, ...) */
        unsigned nch = (row->kind == VM_K_KILL_IF) ? 4 : 1;
        for (unsigned c = 0; c < nch; c++)
            srcs[c] = vm_lower_src(L, &in->src[0], c, row->types[0]);
    }
    vm_uop *u = vm_lower_emit(L, VM_OP_NONE, row->kind);
    if (!u) return;
    memcpy(u->src, srcs, sizeof srcs);
    u->target = UINT32_MAX;
    uint32_t i = L->insn;
    switch (row->kind) {
    case VM_K_IF: case VM_K_UIF: case VM_K_ELSE:
        u->target = L->match[i];
        break;
    case VM_K_BGNLOOP:
        u->target = L->match[i];   /* ENDLOOP; +1 at fix-up */
        break;
    case VM_K_ENDLOOP:
        u->target = L->match[i];   /* BGNLOOP; +1 at fix-up */
        break;
    case VM_K_BRK: {
        uint32_t o = L->owner[i];
        if (L->src->insns[o].opcode == TV_TGSI_OP_SWITCH) {
            u->flags |= VM_UF_BRKSW;
            u->target = L->match[o];
        } else {
            u->target = L->match[o];   /* ENDLOOP; exit = +1 at fix-up */
        }
        break;
    }
    case VM_K_CONT:
        u->target = L->match[L->owner[i]];
        break;
    case VM_K_SWITCH:
        u->aux = L->switch_slot[i];
        break;
    case VM_K_CASE:
        u->aux = L->switch_slot[L->owner[i]];
        break;
    case VM_K_DEFAULT: {
        uint32_t o = L->owner[i];
        u->aux = L->switch_slot[o];
        /* the values of every CASE of this switch */
        uint32_t n = 0;
        for (uint32_t j = o + 1; j < L->match[o]; j++)
            if (L->owner[j] == o && L->src->insns[j].opcode == TV_TGSI_OP_CASE) {
                if (n >= VM_MAX_USRC) {
                    vm_lower_fail(L, TV_ERR_UNSUPPORTED,
                                  "more than %u CASE labels in a switch with DEFAULT",
                                  VM_MAX_USRC);
                    return;
                }
                const tv_tgsi_src *cs = &L->src->insns[j].src[0];
                u->src[n++] = vm_lower_reg(L, &cs->reg, cs->swizzle[0]);
            }
        u->aux2 = n;
        break;
    }
    case VM_K_CAL: {
        if (!in->has_label || in->label >= L->src->num_insns ||
            L->src->insns[in->label].opcode != TV_TGSI_OP_BGNSUB) {
            vm_lower_fail(L, TV_ERR_INVALID, "CAL target is not a BGNSUB");
            return;
        }
        u->target = in->label;     /* BGNSUB; +1 at fix-up */
        break;
    }
    default:
        break;
    }
    u->skip = L->skip[i];
}

static tv_status fixup(vm_lower *L)
{
    tv_vm_program *p = L->p;
    for (uint32_t k = 0; k < L->num_uops; k++) {
        vm_uop *u = &L->uops[k];
        if (u->kind == VM_K_ALU)
            continue;
        uint32_t add = 0;
        switch (u->kind) {
        case VM_K_BGNLOOP: case VM_K_ENDLOOP: case VM_K_CAL: add = 1; break;
        case VM_K_BRK: add = (u->flags & VM_UF_BRKSW) ? 0 : 1; break;
        default: break;
        }
        if (u->target != UINT32_MAX)
            u->target = p->insn_uop[u->target] + add;
        u->skip = p->insn_uop[u->skip < L->src->num_insns ? u->skip : L->src->num_insns];
    }
    return TV_OK;
}

/* Split the micro-ops into counted runs, so the run loop adds executed instructions and
 * micro-ops once per run instead of once per micro-op (vm_exec.c). A run starts at a
 * leader — micro-op 0, a jump or skip target, the micro-op after a control-flow micro-op
 * or after a CLOCK — and ends at a control-flow micro-op, at the micro-op before the next
 * leader, or at a CLOCK (whose handler reads the count, so the count must be exact there).
 * The last micro-op of a run adds the run's counts before it runs: the counts seen by the
 * budget checks (ENDLOOP, CAL), CLOCK and the statistics are the per-micro-op counts. */
uint8_t *vm_lower_leaders(vm_lower *L)
{
    uint32_t n = L->num_uops;
    uint8_t *leader = calloc(n + 1, 1);
    if (!leader) {
        vm_lower_fail(L, TV_ERR_NOMEM, "out of memory");
        return NULL;
    }
    leader[0] = 1;
    for (uint32_t k = 0; k < n; k++) {
        const vm_uop *u = &L->uops[k];
        bool clock = u->insn < L->src->num_insns &&
                     L->src->insns[u->insn].opcode == TV_TGSI_OP_CLOCK;
        if (!u->fn) {
            if (u->target < n) leader[u->target] = 1;
            if (u->skip < n) leader[u->skip] = 1;
        }
        if (!u->fn || clock)
            leader[k + 1] = 1;
    }
    return leader;
}

/* On entry ninsns holds the instructions each micro-op stands for (vm_lower_copies). */
static tv_status count_runs(vm_lower *L)
{
    uint32_t n = L->num_uops;
    uint8_t *leader = vm_lower_leaders(L);
    if (!leader)
        return L->status;
    uint32_t insns = 0, uops = 0;
    for (uint32_t k = 0; k < n; k++) {
        vm_uop *u = &L->uops[k];
        insns += u->ninsns;
        uops++;
        if (leader[k + 1] || k + 1 == n) {
            u->flags |= VM_UF_COUNT;
            u->ninsns = insns;
            u->nuops = uops;
            insns = uops = 0;
        }
    }
    free(leader);
    return TV_OK;
}

tv_status vm_lower_decls(vm_lower *L);

/* The channels of each fragment input that some micro-op may read (vm_fs_input.read):
 * every IN slot named by a field of an unoptimised micro-op (vm_uop_slot_fields, the
 * superset the JIT relies on too; copy propagation only turns reads of a MOV's
 * destination into reads of a source that MOV read), every channel when the program
 * addresses registers indirectly. interp_tile leaves the other channels alone. */
static void mark_input_reads(vm_lower *L)
{
    tv_vm_program *p = L->p;
    bool every = false;
    for (uint32_t k = 0; k < L->num_uops && !every; k++)
        every = L->uops[k].op == VM_OP_gather || L->uops[k].op == VM_OP_gather_const ||
                L->uops[k].op == VM_OP_scatter;
    /* per IN register, its channels read (one pass over the micro-ops, then one over
       the inputs); without the memory for it, every channel */
    uint8_t *chans = every || !p->num_inputs || p->in.count <= 0
                         ? NULL : calloc((size_t)p->in.count, 1);
    if (chans) {
        const uint64_t lo = p->in.base, hi = lo + (uint64_t)p->in.count * 4;
        for (uint32_t k = 0; k < L->num_uops; k++) {
            uint32_t f[VM_UOP_SLOT_FIELDS];
            unsigned nf = vm_uop_slot_fields(&L->uops[k], f);
            for (unsigned j = 0; j < nf; j++)
                if (f[j] >= lo && f[j] < hi)
                    chans[(f[j] - lo) / 4] |= (uint8_t)(1u << ((f[j] - lo) % 4));
        }
    }
    for (uint32_t i = 0; i < p->num_inputs; i++)
        p->inputs[i].read = !chans ? 0xfu
                            : p->inputs[i].reg < (uint32_t)p->in.count ? chans[p->inputs[i].reg]
                                                                       : 0u;
    free(chans);
}

tv_status vm_lower_program(vm_lower *L)
{
    tv_vm_program *p = L->p;
    const tv_tgsi_program *P = L->src;
    uint32_t n = P->num_insns;
    L->match = malloc((n + 1) * sizeof *L->match);
    L->skip = malloc((n + 1) * sizeof *L->skip);
    L->owner = malloc((n + 1) * sizeof *L->owner);
    L->switch_slot = calloc(n + 1, sizeof *L->switch_slot);
    p->insn_uop = calloc(n + 1, sizeof *p->insn_uop);
    if (!L->match || !L->skip || !L->owner || !L->switch_slot || !p->insn_uop)
        return vm_lower_fail(L, TV_ERR_NOMEM, "out of memory");
    for (uint32_t i = 0; i <= n; i++)
        L->match[i] = L->skip[i] = L->owner[i] = UINT32_MAX;
    if (vm_lower_decls(L) != TV_OK)
        return L->status;
    if (vm_lower_cf(L) != TV_OK)
        return L->status;
    L->in = NULL;
    for (uint32_t i = 0; i < n; i++) {
        L->insn = i;
        L->in = &P->insns[i];
        L->scratch_used = 0;
        p->insn_uop[i] = L->num_uops;
        uint16_t op = L->in->opcode;
        /* unqualified derivatives on an engine that asks for fine ones (tv_vm_config) */
        if (p->fine_derivatives && op == TV_TGSI_OP_DDX)
            op = TV_TGSI_OP_DDX_FINE;
        else if (p->fine_derivatives && op == TV_TGSI_OP_DDY)
            op = TV_TGSI_OP_DDY_FINE;
        const vm_optab_row *row = vm_optab_get(op);
        if (!row)
            return vm_lower_fail(L, TV_ERR_UNSUPPORTED, "opcode %s is not supported",
                                 vm_opname(op));
        p->reads_quads |= row->reads_quad;
        if (vm_op_ndst(op) && L->in->num_dst == 0)
            return vm_lower_fail(L, TV_ERR_INVALID, "missing destination operand");
        unsigned nsrc = vm_op_nsrc(op);
        if (L->in->num_src < nsrc && row->lclass != VM_L_TEX)
            return vm_lower_fail(L, TV_ERR_INVALID, "%s needs %u source operands",
                                 vm_opname(op), nsrc);
        switch (row->lclass) {
        case VM_L_CH: lower_ch(L, row, nsrc); break;
        case VM_L_CHN: lower_chn(L, row, nsrc); break;
        case VM_L_SC: case VM_L_DOT: lower_sc(L, row, nsrc); break;
        case VM_L_V4: lower_v4(L, row, nsrc); break;
        case VM_L_CF: lower_cf(L, row); break;
        case VM_L_SPECIAL: row->lower(L); break;
        case VM_L_TEX:
            /* THE place where texture opcodes become tv_tex_request calls (issue 5):
             * src/vm/vm_lower_tex.c, handlers in src/vm/vm_ops_tex.c. */
            vm_lower_tex(L);
            break;
        default:
            return vm_lower_fail(L, TV_ERR_UNSUPPORTED, "opcode %s is not supported",
                                 vm_opname(op));
        }
        if (L->status != TV_OK)
            return L->status;
        if (p->insn_uop[i] < L->num_uops) {
            L->uops[p->insn_uop[i]].flags |= VM_UF_FIRST;
            L->uops[L->num_uops - 1].flags |= VM_UF_LAST;
        } else {
            vm_uop *u = vm_lower_emit(L, VM_OP_NONE, VM_K_NOP);  /* keep one uop per insn */
            if (!u) return L->status;
            u->flags |= VM_UF_FIRST | VM_UF_LAST;
        }
    }
    /* a final END so the run loop always terminates */
    L->insn = n;
    L->in = NULL;
    p->insn_uop[n] = L->num_uops;
    vm_uop *e = vm_lower_emit(L, VM_OP_NONE, VM_K_END);
    if (!e) return L->status;
    e->insn = n ? n - 1 : 0;
    e->flags |= VM_UF_FIRST | VM_UF_LAST;
    if (fixup(L) != TV_OK)
        return L->status;
    /* the unoptimised micro-ops, for traces and the counting tests (vm_exec.c) */
    p->uops_plain = malloc(L->num_uops * sizeof *p->uops_plain);
    if (!p->uops_plain)
        return vm_lower_fail(L, TV_ERR_NOMEM, "out of memory");
    memcpy(p->uops_plain, L->uops, L->num_uops * sizeof *p->uops_plain);
    p->num_uops_plain = L->num_uops;
    mark_input_reads(L);
    for (uint32_t k = 0; k < L->num_uops; k++)
        L->uops[k].ninsns = (L->uops[k].flags & VM_UF_FIRST) ? 1u : 0u;
    uint8_t *leader = vm_lower_leaders(L);
    if (!leader)
        return L->status;
    if (!p->plain)    /* the plain interpreter: no rewrites at all */
        vm_lower_copies(L, leader);
    free(leader);
    if (L->status != TV_OK || count_runs(L) != TV_OK)
        return L->status;
    p->uops = L->uops;
    p->num_uops = L->num_uops;
    L->uops = NULL;
    p->scratch_count = L->scratch_max;
    return TV_OK;
}
