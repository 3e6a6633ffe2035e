/* Fragment and warp-wide ops: derivatives over quads, READ_HELPER, INTERP_*, FBFETCH,
 * VOTE_*, BALLOT, READ_FIRST, READ_INVOC, CLOCK.
 * Derivatives: a quad is 4 consecutive lanes (TL, TR, BL, BR, rows in the target's memory
 * order). Coarse DDX = TR - TL and coarse DDY = BL - TL for the whole quad; fine DDX is per
 * row, fine DDY per column. FS_COORD_ORIGIN does not change them (it changes POSITION's y
 * only, as in softpipe and llvmpipe: Mesa's state tracker adjusts derivative signs in the
 * shader itself). They read every lane of the quad whatever the masks (helper and killed
 * lanes keep values). */
#include "vm/vm_handlers.h"
#include "vm/vm_lower.h"
#include "vm/vm_ops.h"
#include "vm/vm_run.h"

void vm_frag_interp_lane(const vm_warp *w, uint32_t reg, unsigned lane, float dx, float dy,
                         bool at_sample, uint32_t sample, uint32_t out[4]);
void vm_frag_fbfetch_lane(const vm_warp *w, uint32_t color, unsigned lane, uint32_t out[4]);

void vm_h_ddx(vm_warp *w, const vm_uop *u)
{
    const vm_slot *A = VM_SRC(0);
    vm_slot t;
    for (unsigned q = 0; q < VM_LANES; q += 4) {
        float d = A->f[q + 1] - A->f[q];
        t.f[q] = t.f[q + 1] = t.f[q + 2] = t.f[q + 3] = d;
    }
    vm_finish_f(w, u, &t);
}
void vm_h_ddy(vm_warp *w, const vm_uop *u)
{
    const vm_slot *A = VM_SRC(0);
    vm_slot t;
    for (unsigned q = 0; q < VM_LANES; q += 4) {
        float d = A->f[q + 2] - A->f[q];
        t.f[q] = t.f[q + 1] = t.f[q + 2] = t.f[q + 3] = d;
    }
    vm_finish_f(w, u, &t);
}
void vm_h_ddx_fine(vm_warp *w, const vm_uop *u)
{
    const vm_slot *A = VM_SRC(0);
    vm_slot t;
    for (unsigned q = 0; q < VM_LANES; q += 4) {
        t.f[q] = t.f[q + 1] = A->f[q + 1] - A->f[q];
        t.f[q + 2] = t.f[q + 3] = A->f[q + 3] - A->f[q + 2];
    }
    vm_finish_f(w, u, &t);
}
void vm_h_ddy_fine(vm_warp *w, const vm_uop *u)
{
    const vm_slot *A = VM_SRC(0);
    vm_slot t;
    for (unsigned q = 0; q < VM_LANES; q += 4) {
        t.f[q] = t.f[q + 2] = A->f[q + 2] - A->f[q];
        t.f[q + 1] = t.f[q + 3] = A->f[q + 3] - A->f[q + 1];
    }
    vm_finish_f(w, u, &t);
}

/* ---- fragment specials ---------------------------------------------------------------- */

static void h_read_helper(vm_warp *w, const vm_uop *u)
{
    vm_slot t;
    VM_FOR_LANES t.u[l] = ((w->helper >> l) & 1u) ? ~0u : 0u;
    for (unsigned c = 0; c < 4; c++)
        w->r[u->dst[c]] = t;
}

/* aux = IN register, aux2 = 0 centroid / 1 sample / 2 offset; src[0], src[1] = sample
 * index or offset x, y. */
static void h_interp(vm_warp *w, const vm_uop *u)
{
    vm_slot t[4];
    memset(t, 0, sizeof t);
    if (w->run->stage == TV_TGSI_FRAG) {
        VM_FOR_LANES {
            uint32_t v[4];
            float dx = 0.0f, dy = 0.0f;
            bool at_sample = false;
            uint32_t sample = 0;
            if (u->aux2 == 1) {
                at_sample = true;
                sample = w->r[u->src[0]].u[l];
            } else if (u->aux2 == 2) {
                dx = w->r[u->src[0]].f[l];
                dy = w->r[u->src[1]].f[l];
            }
            vm_frag_interp_lane(w, u->aux, l, dx, dy, at_sample, sample, v);
            for (unsigned c = 0; c < 4; c++) t[c].u[l] = v[c];
        }
    }
    for (unsigned c = 0; c < 4; c++)
        w->r[u->dst[c]] = t[c];
}

static void h_fbfetch(vm_warp *w, const vm_uop *u)
{
    vm_slot t[4];
    memset(t, 0, sizeof t);
    if (w->run->stage == TV_TGSI_FRAG) {
        VM_FOR_LANES {
            uint32_t v[4];
            vm_frag_fbfetch_lane(w, u->aux, l, v);
            for (unsigned c = 0; c < 4; c++) t[c].u[l] = v[c];
        }
    }
    for (unsigned c = 0; c < 4; c++)
        w->r[u->dst[c]] = t[c];
}

tv_status vm_lower_frag(vm_lower *L)
{
    const tv_tgsi_instruction *in = L->in;
    unsigned op = in->opcode;
    uint32_t tmp[4];
    for (unsigned c = 0; c < 4; c++)
        tmp[c] = vm_lower_scratch(L);
    vm_uop *u;
    uint32_t sw[4] = {tmp[0], tmp[1], tmp[2], tmp[3]};
    if (op == TV_TGSI_OP_READ_HELPER) {
        u = vm_lower_emit_other(L, h_read_helper);
        if (!u) return L->status;
    } else if (op == TV_TGSI_OP_FBFETCH) {
        const tv_tgsi_reg *r = &in->src[0].reg;
        if (r->file != TV_FILE_OUT || r->index < 0 || r->index >= L->p->out.count)
            return vm_lower_fail(L, TV_ERR_INVALID, "FBFETCH needs an OUT register");
        u = vm_lower_emit_other(L, h_fbfetch);
        if (!u) return L->status;
        uint8_t sem = L->p->out_sem[r->index];
        u->aux = sem == TV_SEM_COLOR ? L->p->out_sem_index[r->index] : 0;
        for (unsigned c = 0; c < 4; c++)
            sw[c] = tmp[in->src[0].swizzle[c] & 3u];
    } else {
        const tv_tgsi_reg *r = &in->src[0].reg;
        if (r->file != TV_FILE_IN || r->indirect)
            return vm_lower_fail(L, TV_ERR_INVALID, "%s needs a directly addressed IN register",
                                 vm_opname(op));
        uint32_t s0 = 0, s1 = 0;
        if (op != TV_TGSI_OP_INTERP_CENTROID) {
            s0 = vm_lower_src(L, &in->src[1], 0, op == TV_TGSI_OP_INTERP_SAMPLE ? 'u' : 'f');
            s1 = vm_lower_src(L, &in->src[1], 1, 'f');
        }
        u = vm_lower_emit_other(L, h_interp);
        if (!u) return L->status;
        u->aux = (uint32_t)r->index;
        u->aux2 = op == TV_TGSI_OP_INTERP_CENTROID ? 0 : (op == TV_TGSI_OP_INTERP_SAMPLE ? 1 : 2);
        u->src[0] = s0;
        u->src[1] = s1;
        for (unsigned c = 0; c < 4; c++)
            sw[c] = tmp[in->src[0].swizzle[c] & 3u];
    }
    memcpy(u->dst, tmp, sizeof tmp);
    vm_lower_commit(L, &in->dst[0], sw, 0xf, in->saturate);
    return L->status;
}

/* ---- warp-wide ops (the vote mask is exec minus killed lanes; helpers take part) ---- */

static uint32_t vote_mask(const vm_warp *w) { return w->exec & ~w->killed; }

static void h_vote_any(vm_warp *w, const vm_uop *u)
{
    const vm_slot *A = VM_SRC(0);
    uint32_t m = vote_mask(w), any = 0;
    VM_FOR_LANES any |= ((m >> l) & 1u) & (A->u[l] != 0);
    vm_slot t;
    VM_FOR_LANES t.u[l] = any ? ~0u : 0u;
    vm_store(w, u->dst[0], &t);
}
static void h_vote_all(vm_warp *w, const vm_uop *u)
{
    const vm_slot *A = VM_SRC(0);
    uint32_t m = vote_mask(w), all = 1;
    VM_FOR_LANES if ((m >> l) & 1u) all &= A->u[l] != 0;
    vm_slot t;
    VM_FOR_LANES t.u[l] = all ? ~0u : 0u;
    vm_store(w, u->dst[0], &t);
}
static void h_vote_eq(vm_warp *w, const vm_uop *u)
{
    const vm_slot *A = VM_SRC(0);
    uint32_t m = vote_mask(w), eq = 1, first = 0;
    bool have = false;
    VM_FOR_LANES {
        if (!((m >> l) & 1u)) continue;
        if (!have) { first = A->u[l]; have = true; }
        eq &= A->u[l] == first;
    }
    vm_slot t;
    VM_FOR_LANES t.u[l] = eq ? ~0u : 0u;
    vm_store(w, u->dst[0], &t);
}
static void h_read_first(vm_warp *w, const vm_uop *u)
{
    const vm_slot *A = VM_SRC(0);
    uint32_t m = vote_mask(w), v = 0;
    for (unsigned l = VM_LANES; l-- > 0;)
        if ((m >> l) & 1u) v = A->u[l];
    vm_slot t;
    VM_FOR_LANES t.u[l] = v;
    vm_store(w, u->dst[0], &t);
}
/* READ_INVOC: the invocation index is taken from the first active lane (it must be
 * uniform); an index >= 32 reads 0. */
static void h_read_invoc(vm_warp *w, const vm_uop *u)
{
    const vm_slot *A = VM_SRC(0), *I = VM_SRC(1);
    uint32_t m = vote_mask(w), idx = UINT32_MAX;
    for (unsigned l = VM_LANES; l-- > 0;)
        if ((m >> l) & 1u) idx = I->u[l];
    uint32_t v = idx < VM_LANES ? A->u[idx] : 0;
    vm_slot t;
    VM_FOR_LANES t.u[l] = v;
    vm_store(w, u->dst[0], &t);
}
static void h_ballot(vm_warp *w, const vm_uop *u)
{
    const vm_slot *A = VM_SRC(0);
    uint32_t m = vote_mask(w), b = 0;
    VM_FOR_LANES b |= (uint32_t)(((m >> l) & 1u) && A->u[l] != 0) << l;
    vm_slot t0, t1;
    VM_FOR_LANES { t0.u[l] = b; t1.u[l] = 0; }
    w->r[u->dst[0]] = t0; w->r[u->dst[1]] = t1;
    w->r[u->dst[2]] = t0; w->r[u->dst[3]] = t1;
}
/* CLOCK: a deterministic per-warp clock: instructions executed so far by the warp. */
static void h_clock(vm_warp *w, const vm_uop *u)
{
    vm_slot t0, t1;
    VM_FOR_LANES { t0.u[l] = (uint32_t)w->insns; t1.u[l] = (uint32_t)(w->insns >> 32); }
    w->r[u->dst[0]] = t0; w->r[u->dst[1]] = t1;
    w->r[u->dst[2]] = t0; w->r[u->dst[3]] = t1;
}

tv_status vm_lower_warpop(vm_lower *L)
{
    const tv_tgsi_instruction *in = L->in;
    unsigned op = in->opcode;
    const tv_tgsi_dst *d = &in->dst[0];
    /* each of these reads the warp's other lanes or its path (CLOCK) */
    L->p->sees_warp = true;
    uint32_t tmp[4];
    for (unsigned c = 0; c < 4; c++)
        tmp[c] = vm_lower_scratch(L);
    if (op == TV_TGSI_OP_BALLOT || op == TV_TGSI_OP_CLOCK) {
        uint32_t s = op == TV_TGSI_OP_BALLOT ? vm_lower_src(L, &in->src[0], 0, 'u') : 0;
        vm_uop *u = vm_lower_emit_other(L, op == TV_TGSI_OP_BALLOT ? h_ballot : h_clock);
        if (!u) return L->status;
        u->src[0] = s;
        memcpy(u->dst, tmp, sizeof tmp);
        vm_lower_commit(L, d, tmp, 0xf, false);
        return L->status;
    }
    vm_fn fn = op == TV_TGSI_OP_VOTE_ANY ? h_vote_any : op == TV_TGSI_OP_VOTE_ALL ? h_vote_all :
               op == TV_TGSI_OP_VOTE_EQ ? h_vote_eq : op == TV_TGSI_OP_READ_FIRST ? h_read_first
                                                                                  : h_read_invoc;
    uint32_t inv = op == TV_TGSI_OP_READ_INVOC ? vm_lower_src(L, &in->src[1], 0, 'u') : 0;
    for (unsigned c = 0; c < 4; c++) {
        if (!(d->writemask & (1u << c)))
            continue;
        uint32_t s = vm_lower_src(L, &in->src[0], c, 'u');
        vm_uop *u = vm_lower_emit_other(L, fn);
        if (!u) return L->status;
        u->src[0] = s;
        u->src[1] = inv;
        u->dst[0] = tmp[c];
    }
    vm_lower_commit(L, d, tmp, 0xf, false);
    return L->status;
}
