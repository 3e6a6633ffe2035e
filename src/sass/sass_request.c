/* Building texture-unit requests from a warp: read each register of the A/B vectors per
 * the operand layout, fetch the bound handle from c[bank][tid*4] (or take it from the
 * register named by .B), choose op/target/flags, and split lanes by quad divergence. */
#include "sass/sass_internal.h"
#include "util/error.h"

#include <string.h>

static float f32(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static int8_t sext(uint32_t v, unsigned bits)
{
    uint32_t m = 1u << (bits - 1);
    v &= (1u << bits) - 1;
    return (int8_t)((int32_t)(v ^ m) - (int32_t)m);
}

/* Request target of a #paramA type (with .MS: the multisample targets). */
static uint8_t target_of(uint8_t type, bool ms)
{
    static const uint8_t map[8] = {
        [TV_SASS_1D] = TV_TEXTGT_1D, [TV_SASS_ARRAY_1D] = TV_TEXTGT_1D_ARRAY,
        [TV_SASS_2D] = TV_TEXTGT_2D, [TV_SASS_ARRAY_2D] = TV_TEXTGT_2D_ARRAY,
        [TV_SASS_3D] = TV_TEXTGT_3D, [TV_SASS_ARRAY_3D] = TV_TEXTGT_3D,
        [TV_SASS_CUBE] = TV_TEXTGT_CUBE, [TV_SASS_ARRAY_CUBE] = TV_TEXTGT_CUBE_ARRAY,
    };
    if (ms)
        return type == TV_SASS_ARRAY_2D ? TV_TEXTGT_2D_MS_ARRAY : TV_TEXTGT_2D_MS;
    return map[type & 7];
}

static uint8_t op_of(const tv_sass_insn *in, uint32_t *flags)
{
    switch (in->op) {
    case TV_SASS_TEX:
    case TV_SASS_TEXS:
        if (in->dc)
            *flags |= TV_TEXF_COMPARE;
        if (in->aoffi)
            *flags |= TV_TEXF_OFFSETS;
        switch (in->lod) {
        case TV_SASS_LOD_LZ: return TV_TEX_OP_SAMPLE_LZ;
        case TV_SASS_LOD_LB: case TV_SASS_LOD_LBA: return TV_TEX_OP_SAMPLE_BIAS;
        case TV_SASS_LOD_LL: case TV_SASS_LOD_LLA: return TV_TEX_OP_SAMPLE_LOD;
        default: return TV_TEX_OP_SAMPLE;
        }
    case TV_SASS_TLD:
    case TV_SASS_TLDS:
        if (in->op == TV_SASS_TLDS)
            *flags |= TV_TEXF_FETCH_OVERRIDES;
        if (in->lod == TV_SASS_LOD_LZ)
            *flags |= TV_TEXF_FORCE_LEVEL0;
        if (in->aoffi)
            *flags |= TV_TEXF_OFFSETS;
        return TV_TEX_OP_FETCH;
    case TV_SASS_TLD4:
    case TV_SASS_TLD4S:
        if (in->dc)
            *flags |= TV_TEXF_COMPARE;
        if (in->aoffi)
            *flags |= TV_TEXF_OFFSETS;
        if (in->ptp)
            *flags |= TV_TEXF_GATHER_4OFFSETS;
        return TV_TEX_OP_GATHER;
    case TV_SASS_TMML:
        return TV_TEX_OP_QUERY_LOD;
    case TV_SASS_TXD:
        if (in->aoffi)
            *flags |= TV_TEXF_OFFSETS;
        return TV_TEX_OP_SAMPLE_GRAD;
    case TV_SASS_TXQ:
        if (in->query == TV_SASS_Q_DIMENSION)
            return TV_TEX_OP_QUERY_DIM;
        if (in->query == TV_SASS_Q_TEXTURE_TYPE)
            return TV_TEX_OP_QUERY_TYPE;
        return TV_TEX_OP_QUERY_SAMPLE_POS;
    default:
        return TV_TEX_OP_SAMPLE;
    }
}

/* Store one register value into the request according to its slot. */
static void put_slot(tv_tex_request *r, const tv_sass_insn *in, const sass_layout *l,
                     uint8_t slot, unsigned lane, uint32_t v)
{
    unsigned axis = slot == SL_S ? 0 : slot == SL_T ? 1 : 2;
    bool gather = in->op == TV_SASS_TLD4 || in->op == TV_SASS_TLD4S;
    switch (slot) {
    case SL_HANDLE: r->handle[lane] = v; break;
    case SL_LAYER:  /* array index: u16 from the low bits */
        if (l->int_coords)
            r->icoord[3][lane] = (int32_t)(v & 0xffffu);
        else
            r->coord[3][lane] = (float)(v & 0xffffu);
        break;
    case SL_S: case SL_T: case SL_R:
        if (l->int_coords)
            r->icoord[axis][lane] = (int32_t)v;
        else
            r->coord[axis][lane] = f32(v);
        break;
    case SL_LOD:
        if (l->int_coords)
            r->lod_i[lane] = (int32_t)v;
        else
            r->lod[lane] = f32(v);
        break;
    case SL_BIAS: r->lod[lane] = f32(v); break;
    case SL_OFFSETS:
        for (unsigned a = 0; a < 3; a++)   /* TLD4: 6 bits per byte; else 4 bits per nibble */
            r->offset[a][lane] = gather ? sext(v >> (8 * a), 6) : sext(v >> (4 * a), 4);
        break;
    case SL_DREF: r->ref[lane] = f32(v); break;
    case SL_SAMPLE: r->sample[lane] = (int32_t)v; break;
    case SL_LODCLAMP: r->lod_clamp[lane] = f32(v); break;
    case SL_PTP0: case SL_PTP1: {
        unsigned t0 = slot == SL_PTP0 ? 0 : 2;
        for (unsigned k = 0; k < 4; k++)
            r->offset4[t0 + k / 2][k % 2][lane] = sext(v >> (8 * k), 6);
        break;
    }
    case SL_DSDX: r->ddx[0][lane] = f32(v); break;
    case SL_DSDY: r->ddy[0][lane] = f32(v); break;
    case SL_DTDX: r->ddx[1][lane] = f32(v); break;
    case SL_DTDY: r->ddy[1][lane] = f32(v); break;
    case SL_TXD_PACKED:  /* layer [15:0], offsets u [19:16], v [23:20] */
        r->coord[3][lane] = (float)(v & 0xffffu);
        r->offset[0][lane] = sext(v >> 16, 4);
        r->offset[1][lane] = sext(v >> 20, 4);
        break;
    case SL_TXQ_PARAM:
        r->lod_i[lane] = (int32_t)v;
        r->sample[lane] = (int32_t)v;
        break;
    default: break;
    }
}

static bool uses_quad_derivs(uint8_t op)
{
    return op == TV_TEX_OP_SAMPLE || op == TV_TEX_OP_SAMPLE_BIAS || op == TV_TEX_OP_QUERY_LOD;
}

/* Divergence (the TMML page: "only the active mask … determine if a quad of threads is
 * divergent"): a quad with some but not all of its lanes executing is divergent. Its
 * lanes get no implicit derivatives unless .NDV forces the quad non-divergent, in which
 * case the inactive lanes' registers take part in the differences (they are not
 * written). Returns the lanes whose derivatives come from full quads, and their quads. */
static uint32_t quad_split(uint32_t exec, bool ndv, uint32_t *present)
{
    uint32_t full = 0;
    *present = 0;
    for (unsigned q = 0; q < TV_SASS_LANES; q += 4) {
        uint32_t qm = 0xfu << q;
        if (!(exec & qm))
            continue;
        if ((exec & qm) == qm || ndv) {
            full |= exec & qm;
            *present |= qm;
        }
    }
    return full;
}

tv_status sass_build_plan(tv_sass_warp *w, const tv_sass_insn *in, uint32_t exec,
                          sass_plan *p, tv_error *err)
{
    memset(p, 0, sizeof *p);
    p->exec = exec;
    p->kind = PLAN_TEX;
    if (in->op == TV_SASS_TXQ) {
        if (in->query == TV_SASS_Q_DIMENSION)
            p->kind = PLAN_TXQ_DIM;
        else if (in->query == TV_SASS_Q_TEXTURE_TYPE)
            p->kind = PLAN_TXQ_TYPE;
        else if (in->query == TV_SASS_Q_SAMPLER_POS)
            p->kind = PLAN_TXQ_SAMPLE_POS;
        else   /* not reached: tv_sass_exec validates first (illegal_rules in sass_check.c) */
            return tv_error_set(err, TV_ERR_INVALID, 0, 0,
                                "TXQ query 0x%x is an illegal encoding", in->query);
    }
    sass_layout l;
    sass_layout_of(in, &l);
    uint32_t flags = 0;
    tv_tex_request *r = &p->req[0];
    r->op = op_of(in, &flags);
    r->target = target_of(in->type, in->ms);
    if (in->op == TV_SASS_TXQ)
        r->target = in->query == TV_SASS_Q_SAMPLER_POS ? TV_TEXTGT_2D_MS : TV_TEXTGT_2D;
    r->flags = flags;
    r->component = in->component;

    uint32_t present = exec, full = exec;
    bool split = uses_quad_derivs(r->op);
    if (split)
        full = quad_split(exec, in->ndv, &present);
    uint32_t lanes = exec | present;

    /* bound handle: the constant-bank word tsPtrIdx of the handle bank */
    if (!in->bindless) {
        uint32_t h = sass_cbank_word(w, w->binding.handle_bank, (uint32_t)in->tid * 4u);
        for (unsigned lane = 0; lane < TV_SASS_LANES; lane++)
            r->handle[lane] = h;
    }
    for (unsigned i = 0; i < l.na; i++) {
        sass_note_read(w, in->ra + i);
        for (unsigned lane = 0; lane < TV_SASS_LANES; lane++)
            if ((lanes >> lane) & 1u)
                put_slot(r, in, &l, l.a[i], lane, sass_read_reg(w, in->ra + i, lane));
    }
    for (unsigned i = 0; i < l.nb; i++) {
        sass_note_read(w, in->rb + i);
        for (unsigned lane = 0; lane < TV_SASS_LANES; lane++)
            if ((lanes >> lane) & 1u)
                put_slot(r, in, &l, l.b[i], lane, sass_read_reg(w, in->rb + i, lane));
    }
    for (unsigned lane = 0; lane < TV_SASS_LANES; lane++)
        p->handle[lane] = r->handle[lane];
    p->nreq = 1;
    r->active = full;
    r->present = present;
    if (split && full != exec) {
        p->req[1] = *r;
        p->req[1].active = exec & ~full;
        p->req[1].present = exec & ~full;
        p->req[1].flags |= TV_TEXF_NO_DERIV;
        p->nreq = 2;
        if (!full) {
            p->req[0] = p->req[1];
            p->nreq = 1;
        }
    }
    return TV_OK;
}
