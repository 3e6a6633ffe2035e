/* Texture micro-op handlers: the operand block of a warp becomes one tv_tex_request for
 * all active lanes (several for a gather whose component differs between lanes), the
 * result is post-processed (cube-array size, SAMPLE_C replication, SVIEW swizzle) and
 * stored under the execution mask. Layout of the micro-op: vm_ops_tex.h. */
#include <stddef.h>
#include <string.h>

#include "vm/vm_ops.h"
#include "vm/vm_ops_tex.h"
#include "vm/vm_run.h"

void vm_h_tex_copy(vm_warp *w, const vm_uop *u)
{
    /* every lane: quad neighbours that are present but inactive feed derivatives */
    for (uint32_t k = 0; k < u->aux; k++)
        w->r[u->aux2 + k] = w->r[u->src[k]];
}

static uint32_t lowest_lane(uint32_t m)
{
    for (uint32_t l = 0; l < VM_LANES; l++)
        if (m >> l & 1u)
            return l;
    return 0;
}

static int8_t clamp_offset(int32_t v)
{
    return (int8_t)(v < -128 ? -128 : (v > 127 ? 127 : v));
}

_Static_assert(VM_TB_DIRECT_AT + VM_TB_DIRECT <= VM_MAX_USRC, "direct operands fit src[]");

/* The operand block of a micro-op: its first `n` entries are allocated slots (r[k], or
 * r[at[k]] read in place under VM_TXF_DIRECT), the rest (up to VM_TB_SIZE) read as zeros.
 * Entries are looked up where read, not gathered into a table of VM_TB_SIZE pointers per
 * warp (a fifth of the handler's time on a plain TEX). */
typedef struct vm_opblk {
    const vm_slot *r;
    const uint32_t *at;   /* NULL: the block is contiguous from r */
    unsigned n;
} vm_opblk;

static inline const vm_slot *opnd(const vm_opblk *b, unsigned k)
{
    static const vm_slot zero;
    if (k >= b->n)
        return &zero;
    return b->at ? &b->r[b->at[k]] : &b->r[k];
}

/* Handle of one lane: bindless value, or (sampler << 20) | view from the indices. */
static uint32_t lane_handle(const vm_opblk *B, const vm_uop *u, unsigned l)
{
    if (u->aux2 & VM_TXF_BINDLESS)
        return opnd(B, VM_TB_RES)->u[l];
    int64_t res = (int64_t)u->src[1], samp = (int64_t)u->src[2];
    if (u->aux2 & VM_TXF_RES_LANE)
        res += opnd(B, VM_TB_RES)->i[l];
    if (u->aux2 & VM_TXF_SAMP_LANE)
        samp += opnd(B, VM_TB_SAMP)->i[l];
    if (res < 0 || res > 0xfffff || samp < 0 || samp > 0xfff)
        return 0xffffffffu;   /* past every pool: reads zeros */
    return tv_tex_handle((uint32_t)res, (uint32_t)samp);
}

/* SAMPLE_POS / SAMPLE_INFO on the render target (no SVIEW operand). */
static void rt_query(vm_warp *w, const vm_uop *u, const vm_opblk *B, vm_slot res[4])
{
    const vm_run *R = w->run;
    uint32_t samples = R->samples ? R->samples : 1;
    for (unsigned l = 0; l < VM_LANES; l++) {
        if (u->aux == TV_TGSI_OP_SAMPLE_INFO) {
            res[0].u[l] = samples;
            continue;
        }
        int32_t s = opnd(B, VM_TB_EXTRA)->i[l];
        if (samples <= 1) {
            res[0].f[l] = 0.5f;
            res[1].f[l] = 0.5f;
        } else if (s >= 0 && (uint32_t)s < samples) {
            res[0].f[l] = R->sample_pos[s][0];
            res[1].f[l] = R->sample_pos[s][1];
        }
    }
}

/* Field groups of the request that build_request writes for some micro-ops only. The
 * worker keeps one request (vm_worker.tex_req) whose fields outside the groups written by
 * the last call are zero, so a call zeroes only what the previous one wrote and it does
 * not (no stale value reaches the texture unit), instead of the whole ~3 KB per warp. */
enum {
    RG_COORD0 = 1u << 0,   /* coord[k]: RG_COORD0 << k, k < 4 */
    RG_Q = 1u << 4,
    RG_LOD = 1u << 5,
    RG_LOD_I = 1u << 6,
    RG_SAMPLE = 1u << 7,
    RG_REF = 1u << 8,
    RG_GRAD = 1u << 9,
    RG_OFFSET = 1u << 10,
    RG_OFFSET4 = 1u << 11,
    RG_ICOORD0 = 1u << 12  /* icoord[k]: RG_ICOORD0 << k, k < 4 */
};

static void zero_groups(tv_tex_request *req, uint32_t g)
{
    for (unsigned k = 0; k < 4; k++) {
        if (g & (RG_COORD0 << k))
            memset(req->coord[k], 0, sizeof req->coord[k]);
        if (g & (RG_ICOORD0 << k))
            memset(req->icoord[k], 0, sizeof req->icoord[k]);
    }
    if (g & RG_Q) memset(req->q, 0, sizeof req->q);
    if (g & RG_LOD) memset(req->lod, 0, sizeof req->lod);
    if (g & RG_LOD_I) memset(req->lod_i, 0, sizeof req->lod_i);
    if (g & RG_SAMPLE) memset(req->sample, 0, sizeof req->sample);
    if (g & RG_REF) memset(req->ref, 0, sizeof req->ref);
    if (g & RG_GRAD) {
        memset(req->ddx, 0, sizeof req->ddx);
        memset(req->ddy, 0, sizeof req->ddy);
    }
    if (g & RG_OFFSET) memset(req->offset, 0, sizeof req->offset);
    if (g & RG_OFFSET4) memset(req->offset4, 0, sizeof req->offset4);
}

_Static_assert(sizeof(vm_slot) == sizeof(((tv_tex_request *)0)->coord[0]) &&
               sizeof(vm_slot) == sizeof(((tv_tex_request *)0)->lod_i) &&
               sizeof(vm_slot) == sizeof(((tv_tex_request *)0)->ddx[0]),
               "an operand slot is one request field of 32 lanes");

/* Whether the requests of ROW on TG compare against a depth reference (TV_TEXF_COMPARE). */
static bool request_compares(const vm_tex_oprow *row, const vm_tex_tgtrow *tg)
{
    const bool compare = row->d3d ? row->compare : tg->shadow;
    const uint32_t compares = 1u << TV_TEX_OP_SAMPLE | 1u << TV_TEX_OP_SAMPLE_BIAS |
                              1u << TV_TEX_OP_SAMPLE_LOD | 1u << TV_TEX_OP_SAMPLE_LZ |
                              1u << TV_TEX_OP_SAMPLE_GRAD | 1u << TV_TEX_OP_GATHER;
    return compare && (compares >> row->op & 1u);
}

/* The coordinates' group build_request writes for ROW on TG: float coordinates for the
 * filtering ops, integer ones for FETCH (the only reader of icoord), neither for the
 * queries; and whether a fetch's sample or level comes from the coordinate operand. */
static void copy_kind(const vm_tex_oprow *row, const vm_tex_tgtrow *tg, uint32_t *cgroup,
                      bool *fetch_sample, bool *fetch_level)
{
    const bool fetch = row->op == TV_TEX_OP_FETCH;
    const bool query = row->op == TV_TEX_OP_QUERY_DIM || row->op == TV_TEX_OP_QUERY_SAMPLES ||
                       row->op == TV_TEX_OP_QUERY_SAMPLE_POS ||
                       row->op == TV_TEX_OP_QUERY_TYPE;
    *cgroup = fetch ? RG_ICOORD0 : query ? 0 : RG_COORD0;
    *fetch_sample = fetch && tg->sample >= 0 && row->arg != VM_TA_SAMPLE_X;
    *fetch_level = fetch && tg->sample < 0 && tg->target != TV_TEXTGT_1D_BUFFER;
}

/* Plan a copy of operand K of the block to the request's field at byte FIELD: the slot it
 * reads in the warp's registers (opnd's, as an index: each warp has its own registers), or
 * zeros past the block. */
static void plan_copy(struct vm_tex_plan *P, const vm_uop *u, const vm_opblk *B, unsigned k,
                      size_t field)
{
    struct vm_tex_copy *c = &P->copy[P->ncopy++];
    c->field = (uint16_t)field;
    c->zero = k >= B->n;
    c->slot = c->zero ? 0 : B->at ? B->at[k] : u->src[0] + k;
}

#define REQ_AT(member) offsetof(tv_tex_request, member)

/* The operand copies of the micro-op's requests (build_request's fields, in its order):
 * the coordinates (float for the filtering ops, integer for FETCH: the same 32 words),
 * the reference of a compare, the argument of the row (LOD, bias, projection, gradients,
 * sample, level), a fetch's sample or level. */
static void plan_copies(struct vm_tex_plan *P, const vm_uop *u, const vm_tex_oprow *row,
                        const vm_tex_tgtrow *tg, const vm_opblk *B, uint32_t cgroup,
                        bool fetch_sample, bool fetch_level, uint32_t flags)
{
    P->ncopy = 0;
    for (unsigned d = 0; d < tg->dims && cgroup; d++)
        plan_copy(P, u, B, VM_TB_COORD + d,
                  cgroup == RG_COORD0 ? REQ_AT(coord[d]) : REQ_AT(icoord[d]));
    if (tg->layer >= 0 && cgroup)
        plan_copy(P, u, B, VM_TB_COORD + (unsigned)tg->layer,
                  cgroup == RG_COORD0 ? REQ_AT(coord[3]) : REQ_AT(icoord[3]));
    if (flags & TV_TEXF_COMPARE) {
        unsigned at = row->arg == VM_TA_REF_X ? VM_TB_EXTRA
                      : tg->ref == VM_TEX_REF_EXTRA ? VM_TB_EXTRA + (unsigned)row->ref_extra
                      : VM_TB_COORD + (unsigned)(tg->ref >= 0 ? tg->ref : 0);
        plan_copy(P, u, B, at, REQ_AT(ref));
    }
    switch (row->arg) {
    case VM_TA_BIAS_W: case VM_TA_LOD_W: plan_copy(P, u, B, VM_TB_COORD + 3, REQ_AT(lod)); break;
    case VM_TA_PROJ_W: plan_copy(P, u, B, VM_TB_COORD + 3, REQ_AT(q)); break;
    case VM_TA_BIAS_X: case VM_TA_LOD_X: plan_copy(P, u, B, VM_TB_EXTRA, REQ_AT(lod)); break;
    case VM_TA_GRAD:
        for (unsigned d = 0; d < 3; d++) {
            plan_copy(P, u, B, VM_TB_EXTRA + d, REQ_AT(ddx[d]));
            plan_copy(P, u, B, VM_TB_EXTRA2 + d, REQ_AT(ddy[d]));
        }
        break;
    case VM_TA_SAMPLE_X: plan_copy(P, u, B, VM_TB_EXTRA, REQ_AT(sample)); break;
    case VM_TA_LEVEL_X: plan_copy(P, u, B, VM_TB_COORD, REQ_AT(lod_i)); break;
    default: break;
    }
    if (fetch_sample)
        plan_copy(P, u, B, VM_TB_COORD + (unsigned)tg->sample, REQ_AT(sample));
    else if (fetch_level)
        plan_copy(P, u, B, VM_TB_COORD + 3, REQ_AT(lod_i));   /* level in .w */
}

unsigned vm_tex_coord_reads(const vm_tex_oprow *row, const vm_tex_tgtrow *tg)
{
    /* the handler's own plan, of a block whose entry k is slot k */
    struct vm_tex_plan P;
    vm_uop u;
    memset(&u, 0, sizeof u);
    const vm_opblk B = {NULL, NULL, VM_TB_SIZE};
    uint32_t cgroup;
    bool fetch_sample, fetch_level;
    copy_kind(row, tg, &cgroup, &fetch_sample, &fetch_level);
    plan_copies(&P, &u, row, tg, &B, cgroup, fetch_sample, fetch_level,
                request_compares(row, tg) ? TV_TEXF_COMPARE : 0u);
    unsigned m = 0;
    for (unsigned k = 0; k < P.ncopy; k++)
        if (P.copy[k].slot >= VM_TB_COORD && P.copy[k].slot < VM_TB_COORD + 4)
            m |= 1u << (P.copy[k].slot - VM_TB_COORD);
    return m;
}

/* A warp's operand copies (plan_copies): 128 bytes each, moved as the clone's vectors */
static VM_ALWAYS_INLINE void run_copies(const struct vm_tex_plan *P, const vm_slot *r,
                                        tv_tex_request *req)
{
    static const vm_slot zero;
    for (unsigned k = 0; k < P->ncopy; k++) {
        const struct vm_tex_copy *c = &P->copy[k];
        memcpy((char *)req + c->field, c->zero ? &zero : &r[c->slot], sizeof(vm_slot));
    }
}

/* The run's texture unit (NULL: none bound) */
static tv_tex_unit *run_unit(const vm_warp *w)
{
    return w->run->b ? w->run->b->tex : NULL;
}

/* Whether the micro-op's results are the unit's values as they come: no cube-array size,
 * no replication, the identity swizzle (vm_h_tex's post-processing has nothing to do) */
static bool stores_as_given(const vm_uop *u, const vm_tex_oprow *row, const vm_tex_tgtrow *tg)
{
    bool cube_size = row->op == TV_TEX_OP_QUERY_DIM && tg->cube_array;
    return !cube_size && !row->replicate && u->src[3] == 0xe4u;
}

/* The unit's values straight into the result slots, under the execution mask */
static VM_ALWAYS_INLINE void store_values(vm_warp *w, const vm_uop *u, const tv_tex_result *out)
{
    for (unsigned c = 0; c < 4; c++)
        vm_store(w, u->dst[c], (const vm_slot *)(const void *)out->v[c]);
}

/* The fields of the request that depend on the micro-op and the run only (op, flags,
 * component, the groups written and, unless they vary per lane, the handles), decided and
 * written for a micro-op other than the last one build_request filled the request for,
 * and kept in the worker's tex_plan: a warp running the same micro-op again finds them in
 * the request already (nothing else writes them) and only copies its operands. */
static void plan_request(vm_warp *w, const vm_uop *u, const vm_tex_oprow *row,
                         const vm_tex_tgtrow *tg, const vm_opblk *B, uint32_t cgroup,
                         bool fetch_sample, bool fetch_level, tv_tex_request *req)
{
    vm_worker *wk = w->wk;
    req->op = row->op;
    req->target = tg->target;
    req->flags = 0;
    req->component = (uint8_t)(u->src[4] & 3u);
    if (request_compares(row, tg))
        req->flags |= TV_TEXF_COMPARE;
    if (row->level0)
        req->flags |= TV_TEXF_FORCE_LEVEL0;
    if (row->arg == VM_TA_PROJ_W)
        req->flags |= TV_TEXF_PROJECTIVE;
    if (u->aux2 & VM_TXF_OFFSETS)
        req->flags |= TV_TEXF_OFFSETS;
    if (u->aux2 & VM_TXF_OFFSETS4)
        req->flags |= TV_TEXF_GATHER_4OFFSETS;
    bool implicit_to_lod = w->run->stage != TV_TGSI_FRAG &&
                           (row->op == TV_TEX_OP_SAMPLE || row->op == TV_TEX_OP_SAMPLE_BIAS);

    /* only the values are read back: the QUERY_LOD extras of a sampling op may stay
       unwritten (LODQ's answer is in the values, but keep the extras for it) */
    if (row->op != TV_TEX_OP_QUERY_LOD)
        req->flags |= TV_TEXF_VALUES_ONLY;

    uint32_t g = 0;
    for (unsigned d = 0; d < tg->dims; d++)
        g |= cgroup << d;
    if (tg->layer >= 0) g |= cgroup << 3;
    if (req->flags & TV_TEXF_COMPARE) g |= RG_REF;
    switch (row->arg) {
    case VM_TA_BIAS_W: case VM_TA_LOD_W: case VM_TA_BIAS_X: case VM_TA_LOD_X: g |= RG_LOD; break;
    case VM_TA_PROJ_W: g |= RG_Q; break;
    case VM_TA_GRAD: g |= RG_GRAD; break;
    case VM_TA_SAMPLE_X: g |= RG_SAMPLE; break;
    case VM_TA_LEVEL_X: g |= RG_LOD_I; break;
    default: break;
    }
    if (fetch_sample) g |= RG_SAMPLE;
    if (fetch_level) g |= RG_LOD_I;
    if (u->aux2 & VM_TXF_OFFSETS) g |= RG_OFFSET;
    if (u->aux2 & VM_TXF_OFFSETS4) g |= RG_OFFSET4;
    if (implicit_to_lod) g |= RG_LOD;
    zero_groups(req, wk->tex_req_groups & ~g);
    wk->tex_req_groups = g;

    bool uniform = !(u->aux2 & (VM_TXF_BINDLESS | VM_TXF_RES_LANE | VM_TXF_SAMP_LANE));
    if (uniform) {
        uint32_t h = lane_handle(B, u, 0);   /* the same for every lane */
        for (unsigned l = 0; l < VM_LANES; l++)
            req->handle[l] = h;
    }
    /* GL: implicit-LOD lookups outside fragment shaders use lambda_base = 0 (plus bias);
       SAMPLE's lod is in the groups written and no operand is copied to it, so it stays
       zero for the calls that reuse this plan */
    if (w->run->stage != TV_TGSI_FRAG) {
        if (req->op == TV_TEX_OP_SAMPLE) {
            req->op = TV_TEX_OP_SAMPLE_LOD;
            memset(req->lod, 0, sizeof req->lod);
        } else if (req->op == TV_TEX_OP_SAMPLE_BIAS) {
            req->op = TV_TEX_OP_SAMPLE_LOD;
        } else if (req->op == TV_TEX_OP_QUERY_LOD) {
            req->flags |= TV_TEXF_NO_DERIV;
        }
    }
    struct vm_tex_plan *P = &wk->tex_plan;
    P->u = u;
    P->handle_uniform = uniform;
    plan_copies(P, u, row, tg, B, cgroup, fetch_sample, fetch_level, req->flags);
    P->unit = run_unit(w);
    P->lean = !w->run->plain && uniform && P->unit &&
              !(u->aux2 & (VM_TXF_RT | VM_TXF_COMP_LANE | VM_TXF_OFFSETS | VM_TXF_OFFSETS4)) &&
              stores_as_given(u, row, tg);
}

/* Fill the request from the operand block: the per-micro-op decisions (plan_request, once
 * per run of the same micro-op), then each field as a copy of its operand slot (all 32
 * lanes). The fields written are those of the lane loop this replaces, with the same
 * values; the others are zero (tex_req). Inlined into each of vm_h_tex's instruction-set
 * clones, so that its copies take the clone's vectors: out of line, LTO kept one baseline
 * copy moving 16 bytes at a time (docs/vm-semantics.md, "The request"). */
static VM_ALWAYS_INLINE void build_request(vm_warp *w, const vm_uop *u,
                                           const vm_tex_oprow *row, const vm_tex_tgtrow *tg,
                                           const vm_opblk *B, tv_tex_request *req)
{
    const struct vm_tex_plan *P = &w->wk->tex_plan;
    uint32_t cgroup;
    bool fetch_sample, fetch_level;
    copy_kind(row, tg, &cgroup, &fetch_sample, &fetch_level);
    req->active = w->exec;
    req->present = w->present | w->exec;
    /* the unit reads the request as const, and the one planned field a call rewrites is
       the component of a gather whose component varies per lane (vm_h_tex), which sets
       it before each of its requests: a micro-op is such a gather always or never */
    if (P->u != u)
        plan_request(w, u, row, tg, B, cgroup, fetch_sample, fetch_level, req);
    if (!P->handle_uniform)
        for (unsigned l = 0; l < VM_LANES; l++)
            req->handle[l] = lane_handle(B, u, l);
    run_copies(P, w->r, req);
    if (u->aux2 & VM_TXF_OFFSETS)
        for (unsigned c = 0; c < 3; c++)
            for (unsigned l = 0; l < VM_LANES; l++)
                req->offset[c][l] = clamp_offset(opnd(B, VM_TB_OFF + c)->i[l]);
    if (u->aux2 & VM_TXF_OFFSETS4)
        for (unsigned k = 0; k < 4; k++)
            for (unsigned c = 0; c < 2; c++)
                for (unsigned l = 0; l < VM_LANES; l++)
                    req->offset4[k][c][l] =
                        clamp_offset(opnd(B, VM_TB_OFF + 3 * k + c)->i[l]);
}

static bool execute(vm_warp *w, const vm_uop *u, tv_tex_unit *unit, tv_tex_request *req,
                    tv_tex_result *out)
{
    tv_error err;   /* read only on failure, which fills it (not zeroed: ~0.9 KB per warp) */
    err.code = TV_OK;
    err.message[0] = '\0';
    if (tv_tex_execute(unit, req, out, &err) == TV_OK)
        return true;
    vm_fault(w, TV_ERR_RUNTIME, lowest_lane(req->active), "%s: %s",
             tv_tgsi_opinfo_get(u->aux) ? tv_tgsi_opinfo_get(u->aux)->name : "texture",
             err.message);
    return false;
}

/* Wide vectors (vm_ops.h; the handler only copies and compares integers, so every
 * variant does the same): the result's values move into the registers in 64-byte words
 * instead of 16-byte ones (docs/history/performance-log.md §4.6). */
VM_WIDE_VECTORS void vm_h_tex(vm_warp *w, const vm_uop *u)
{
    /* the lean way: a micro-op planned by the last request (plan_request) whose warps need
       only their operand copies, the request and the values stored as they come — the
       general way below with every test of the micro-op's shape already answered: the same
       request, the same stores (the plain interpreter, which translation validation checks
       the others against, always takes the general way) */
    const struct vm_tex_plan *P = &w->wk->tex_plan;
    if (P->u == u && P->lean) {
        tv_tex_request *req = w->wk->tex_req;
        req->active = w->exec;
        req->present = w->present | w->exec;
        run_copies(P, w->r, req);
        tv_tex_result out;
        if (req->active != VM_ALL_LANES)
            memset(out.v, 0, sizeof out.v);
        if (req->active && !execute(w, u, P->unit, req, &out))
            return;
        store_values(w, u, &out);
        return;
    }
    const vm_tex_oprow *row = vm_tex_oprow_get(u->aux);
    const vm_tex_tgtrow *tg = vm_tex_tgtrow_get(u->aux3);
    /* the operand block: entries past the allocated ones read as zeros (opnd) */
    unsigned nb = u->src[5] < VM_TB_SIZE ? u->src[5] : VM_TB_SIZE;
    vm_opblk blk = {nb ? &w->r[u->src[0]] : NULL, NULL, nb};
    if (u->aux2 & VM_TXF_DIRECT) {
        blk.r = w->r;
        blk.at = &u->src[VM_TB_DIRECT_AT];
        blk.n = nb < VM_TB_DIRECT ? nb : VM_TB_DIRECT;
    }
    const vm_opblk *B = &blk;
    if (!row || !tg)
        return;
    vm_slot res[4];
    tv_tex_result out;
    if (u->aux2 & VM_TXF_RT) {
        memset(res, 0, sizeof res);
        rt_query(w, u, B, res);
    } else {
        tv_tex_unit *unit = run_unit(w);
        if (!unit) {
            vm_fault(w, TV_ERR_RUNTIME, lowest_lane(w->exec),
                     "%s: no texture unit bound (tv_vm_bindings.tex)",
                     tv_tgsi_opinfo_get(u->aux)->name);
            return;
        }
        tv_tex_request *req = w->wk->tex_req;
        build_request(w, u, row, tg, B, req);
        /* only the values are read back (not the QUERY_LOD extras). The unit writes every
           active lane (bad handles as zeros, tex.h) and only those are stored, so the
           values need no clearing when every lane is active (the common full tile: saves
           a 512-byte memset per warp); otherwise lanes it does not write read as zero */
        if (req->active != VM_ALL_LANES)
            memset(out.v, 0, sizeof out.v);
        if (u->aux2 & VM_TXF_COMP_LANE) {
            /* one request per gather component present among the active lanes */
            uint32_t all = req->active;
            for (unsigned c = 0; c < 4; c++) {
                uint32_t m = 0;
                for (unsigned l = 0; l < VM_LANES; l++)
                    m |= (uint32_t)((opnd(B, VM_TB_EXTRA)->u[l] & 3u) == c) << l;
                req->active = all & m;
                req->component = (uint8_t)c;
                if (req->active && !execute(w, u, unit, req, &out))
                    return;
            }
        } else if (req->active && !execute(w, u, unit, req, &out)) {
            return;
        }
        if (stores_as_given(u, row, tg)) {
            store_values(w, u, &out);
            return;
        }
        for (unsigned c = 0; c < 4; c++)
            memcpy(res[c].u, out.v[c], sizeof res[c].u);
    }
    if (row->op == TV_TEX_OP_QUERY_DIM && tg->cube_array)
        for (unsigned l = 0; l < VM_LANES; l++)
            res[2].u[l] /= 6u;   /* layers -> cubes (GL textureSize, D3D resinfo) */
    if (row->replicate)
        for (unsigned c = 1; c < 4; c++)
            res[c] = res[0];
    uint32_t swz = u->src[3];
    if (swz != 0xe4u) {
        vm_slot t[4];
        for (unsigned c = 0; c < 4; c++)
            t[c] = res[(swz >> (2 * c)) & 3u];
        memcpy(res, t, sizeof t);
    }
    for (unsigned c = 0; c < 4; c++)
        vm_store(w, u->dst[c], &res[c]);
}
