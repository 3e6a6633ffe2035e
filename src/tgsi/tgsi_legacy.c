/* TGSI parser: legacy and removed names, and the legacy-mode rewrites (SUB, ABS, XPD,
 * operand-less EMIT/ENDPRIM) with the immediate and temporary they synthesize. */
#include "tgsi/tgsi_parser.h"

bool tvp_fail_unknown_file(parser *c, size_t at, size_t len)
{
    char b[48];
    tvp_quote(c, at, len, b);
    if (tvp_word_is(c, at, len, "RES"))
        return tvp_fail_at(c, at, len,
                           "the `RES` register file was removed from TGSI (legacy compute.c "
                           "syntax): declare BUFFER, IMAGE or MEMORY instead");
    if (tvp_word_is(c, at, len, "TEMPX") || tvp_word_is(c, at, len, "IMMX"))
        return tvp_fail_at(c, at, len,
                           "the `%s` register file was removed from TGSI (legacy graw syntax, "
                           "not supported even with --legacy): use TEMP/IMM with ARRAY "
                           "declarations",
                           b);
    if (tvp_word_is(c, at, len, "RLOCAL") || tvp_word_is(c, at, len, "RGLOBAL") ||
        tvp_word_is(c, at, len, "RINPUT") || tvp_word_is(c, at, len, "RPRIVATE"))
        return tvp_fail_at(c, at, len,
                           "`%s` is a legacy compute.c resource name, not a TGSI register "
                           "file: use MEMORY[n] declared SHARED, GLOBAL, INPUT or PRIVATE",
                           b);
    if (len == 0)
        return tvp_fail_at(c, at, 0, "expected a register file (TEMP, IN, OUT, CONST, IMM, ...)");
    return tvp_fail_at(c, at, len, "unknown register file `%s`", b);
}

static const tvp_legacy_op legacy_ops[] = {
    {"SUB", "ADD", "write `ADD d, a, -b`"},
    {"ABS", "MOV", "write `MOV d, |a|`"},
    {"KIL", "KILL_IF", "it is now `KILL_IF`"},
    {"KILP", "KILL", "it is now `KILL`"},
    {"XPD", "MUL", "write it as MUL + MAD with swizzles"},
    {"DP2A", NULL, "write it as DP2 + ADD"},
    {"CLAMP", NULL, "write it as MAX + MIN"},
    {"DPH", NULL, "write it as DP3 + ADD"},
    {"SCS", NULL, "write it as COS + SIN"},
    {"SAD", NULL, "write it with integer ops"},
    {"PUSHA", NULL, NULL},
    {"POPA", NULL, NULL},
    {"CALLNZ", NULL, "use UIF + CAL"},
    {"BREAKC", NULL, "use UIF + BRK"},
    {"IFC", NULL, "use IF"},
    {"MFENCE", NULL, "use MEMBAR"},
    {"LFENCE", NULL, "use MEMBAR"},
    {"SFENCE", NULL, "use MEMBAR"},
    {"TXQ_LZ", NULL, "use TXQ with a 0 level"},
};

const tvp_legacy_op *tvp_legacy_op_find(const parser *c, size_t at, size_t len)
{
    for (size_t i = 0; i < sizeof legacy_ops / sizeof legacy_ops[0]; i++)
        if (tvp_word_is(c, at, len, legacy_ops[i].name))
            return &legacy_ops[i];
    return NULL;
}

void tvp_legacy_rewrite_operands(tv_tgsi_instruction *in)
{
    if (in->opcode == TV_TGSI_OP_ADD) /* SUB d, a, b -> ADD d, a, -b */
        in->src[1].negate = !in->src[1].negate;
    if (in->opcode == TV_TGSI_OP_MOV) { /* ABS d, a -> MOV d, |a| */
        in->src[0].absolute = true;
        in->src[0].negate = false;
    }
}

/* Legacy XPD d, a, b (cross product, d.w = 1) becomes
 *   MUL  TEMP[t].xyz, a.zxyw, b.yzxw
 *   MAD  d.xyz, a.yzxw, b.zxyw, -TEMP[t]       (NOP when d has no xyz)
 *   MOV  d.w, IMM[k].yyyy (1.0)                (NOP when d has no w)
 * with a synthesized TEMP[t] and IMM[k] (finish_program). */
static void compose(tv_tgsi_src *s, const uint8_t perm[4])
{
    uint8_t o[4];
    memcpy(o, s->swizzle, 4);
    for (int i = 0; i < 4; i++)
        s->swizzle[i] = o[perm[i]];
}

bool tvp_expand_xpd(parser *c, uint32_t ii)
{
    static const uint8_t zxyw[4] = {2, 0, 1, 3}, yzxw[4] = {1, 2, 0, 3};
    tv_tgsi_program *pr = c->cur;
    tv_tgsi_instruction x = pr->insns[ii];
    GROW(c, c->xpd, c->nxpd, c->cap_xpd);
    c->xpd[c->nxpd] = ii - 2 * c->nxpd;
    c->nxpd++;
    while (pr->num_insns + 3 > c->cap_insns) {
        uint32_t ncap = c->cap_insns * 2;
        void *np = realloc(pr->insns, (size_t)ncap * sizeof *pr->insns);
        if (!np)
            return tvp_fail_nomem(c);
        pr->insns = np;
        c->cap_insns = ncap;
    }
    tv_tgsi_instruction *mul = &pr->insns[ii], *mad = mul + 1, *mov = mul + 2;
    *mul = x;
    mul->saturate = false;
    memset(&mul->dst[0].reg, 0, sizeof mul->dst[0].reg);
    mul->dst[0].reg.file = TV_FILE_TEMP;
    mul->dst[0].writemask = 0x7;
    compose(&mul->src[0], zxyw);
    compose(&mul->src[1], yzxw);
    *mad = *mov = x;
    mad->num_src = mov->num_src = 0;
    mad->num_dst = mov->num_dst = 0;
    mad->opcode = mov->opcode = TV_TGSI_OP_NOP;
    mad->saturate = mov->saturate = mad->precise = mov->precise = false;
    memset(mad->dst, 0, sizeof mad->dst);
    memset(mad->src, 0, sizeof mad->src);
    memset(mov->dst, 0, sizeof mov->dst);
    memset(mov->src, 0, sizeof mov->src);
    if (x.dst[0].writemask & 0x7) {
        *mad = x;
        mad->opcode = TV_TGSI_OP_MAD;
        mad->num_src = 3;
        mad->dst[0].writemask = x.dst[0].writemask & 0x7;
        compose(&mad->src[0], yzxw);
        compose(&mad->src[1], zxyw);
        memset(&mad->src[2], 0, sizeof mad->src[2]);
        mad->src[2].reg.file = TV_FILE_TEMP;
        for (int i = 0; i < 4; i++)
            mad->src[2].swizzle[i] = (uint8_t)i;
        mad->src[2].negate = true;
        if (!tvp_add_fixup(c, ii + 1, FIX_TEMP_SRC, 2))
            return false;
    }
    if (x.dst[0].writemask & 0x8) {
        *mov = x;
        mov->opcode = TV_TGSI_OP_MOV;
        mov->num_src = 1;
        mov->dst[0].writemask = 0x8;
        memset(&mov->src[0], 0, sizeof mov->src[0]);
        mov->src[0].reg.file = TV_FILE_IMM;
        for (int i = 0; i < 4; i++)
            mov->src[0].swizzle[i] = 1;
        if (!tvp_add_fixup(c, ii + 2, FIX_IMM_SRC, 0))
            return false;
    }
    if (!tvp_add_fixup(c, ii, FIX_TEMP_DST, 0))
        return false;
    for (uint32_t k = 0; k < 3; k++) {
        pr->num_insns++;
        if (!tvp_add_stmt(c, TV_STMT_INSN, ii + k))
            return false;
    }
    return true;
}

bool tvp_add_fixup(parser *c, uint32_t insn, uint8_t kind, uint8_t operand)
{
    GROW(c, c->fix, c->nfix, c->cap_fix);
    c->fix[c->nfix].insn = insn;
    c->fix[c->nfix].kind = kind;
    c->fix[c->nfix].operand = operand;
    c->nfix++;
    if (kind == FIX_IMM_SRC)
        c->need_imm = true;
    else
        c->need_temp = true;
    return true;
}

/* Insert statement (kind, index) at position `at` of the statement list. */
static bool insert_stmt(parser *c, uint32_t at, uint8_t kind, uint32_t index)
{
    tv_tgsi_program *pr = c->cur;
    if (!tvp_add_stmt(c, kind, index))
        return false;
    memmove(&pr->stmts[at + 1], &pr->stmts[at],
            (size_t)(pr->num_stmts - 1 - at) * sizeof pr->stmts[0]);
    pr->stmts[at].kind = kind;
    pr->stmts[at].index = index;
    return true;
}

static uint32_t first_insn_stmt(const tv_tgsi_program *pr)
{
    for (uint32_t i = 0; i < pr->num_stmts; i++)
        if (pr->stmts[i].kind == TV_STMT_INSN)
            return i;
    return pr->num_stmts;
}

/* Legacy mode: operand-less EMIT/ENDPRIM read stream 0 and XPD's w reads 1.0 from a
 * synthesized `IMM[n] UINT32 {0, 1065353216, 0, 0}` placed after the program's last
 * immediate; XPD's product goes to a synthesized `DCL TEMP[t]` after the last TEMP. */
bool tvp_legacy_finish(parser *c)
{
    tv_tgsi_program *pr = c->cur;
    uint32_t imm_index = 0, temp_index = 0;
    if (c->need_imm) {
        GROW(c, pr->imms, pr->num_imms, c->cap_imms);
        imm_index = pr->num_imms++;
        tv_tgsi_immediate *im = &pr->imms[imm_index];
        memset(im, 0, sizeof *im);
        im->type = TV_IMM_UINT32;
        im->u[1] = 0x3f800000u; /* 1.0f */
        uint32_t at = pr->num_stmts;
        bool any = false;
        for (uint32_t i = 0; i < pr->num_stmts; i++)
            if (pr->stmts[i].kind == TV_STMT_IMM)
                at = i + 1, any = true;
        if (!any)
            at = first_insn_stmt(pr);
        if (!insert_stmt(c, at, TV_STMT_IMM, imm_index))
            return false;
    }
    if (c->need_temp) {
        int32_t last = -1;
        for (uint32_t i = 0; i < pr->num_decls; i++)
            if (pr->decls[i].file == TV_FILE_TEMP && pr->decls[i].last > last)
                last = pr->decls[i].last;
        if (last >= TVP_MAX_INDEX)
            return tvp_fail_at(c, c->p, 0, "no TEMP register left for the legacy XPD expansion");
        temp_index = (uint32_t)(last + 1);
        GROW(c, pr->decls, pr->num_decls, c->cap_decls);
        uint32_t di = pr->num_decls++;
        tv_tgsi_declaration *d = &pr->decls[di];
        memset(d, 0, sizeof *d);
        d->file = TV_FILE_TEMP;
        d->first = d->last = (int32_t)temp_index;
        d->usage_mask = 0xf;
        d->sview_target = d->image_target = TV_TGT_UNKNOWN;
        for (int i = 0; i < 4; i++)
            d->return_type[i] = TV_RET_FLOAT;
        if (!insert_stmt(c, first_insn_stmt(pr), TV_STMT_DECL, di))
            return false;
    }
    for (uint32_t i = 0; i < c->nfix; i++) {
        tv_tgsi_instruction *in = &pr->insns[c->fix[i].insn];
        switch (c->fix[i].kind) {
        case FIX_IMM_SRC:
            in->src[c->fix[i].operand].reg.index = (int32_t)imm_index;
            break;
        case FIX_TEMP_DST:
            in->dst[c->fix[i].operand].reg.index = (int32_t)temp_index;
            break;
        default:
            in->src[c->fix[i].operand].reg.index = (int32_t)temp_index;
            break;
        }
    }
    /* labels count instructions as written: each XPD became 3 instructions */
    if (c->nxpd)
        for (uint32_t i = 0; i < pr->num_insns; i++) {
            tv_tgsi_instruction *in = &pr->insns[i];
            if (!in->has_label)
                continue;
            uint32_t shift = 0;
            for (uint32_t k = 0; k < c->nxpd; k++)
                if (c->xpd[k] < in->label)
                    shift += 2;
            in->label += shift;
        }
    c->nfix = c->nxpd = 0;
    c->need_imm = c->need_temp = false;
    return true;
}
