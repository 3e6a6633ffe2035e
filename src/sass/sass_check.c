/* Legality checks: which modifier/field combinations have an encoding (validate), and the
 * pages' register rules — alignment, RZ, vectors past R254 (check_registers). */
#include "sass/sass_internal.h"
#include "util/error.h"

#include <stdio.h>

static tv_status bad(tv_error *err, const tv_sass_insn *in, const char *what)
{
    const char *name = in->op < TV_SASS_OP_COUNT ? sass_ops[in->op].name : "?";
    return tv_error_set(err, TV_ERR_INVALID, 0, 0, "%s: %s", name, what);
}

/* Member flag per modifier kind that is a plain 0/1 flag. */
static const struct { uint8_t kind; size_t off; const char *name; } flag_mods[] = {
    {MK_F16, offsetof(tv_sass_insn, f16), ".F16"},
    {MK_B, offsetof(tv_sass_insn, bindless), ".B"},
    {MK_LC, offsetof(tv_sass_insn, lc), ".LC"},
    {MK_AOFFI, offsetof(tv_sass_insn, aoffi), ".AOFFI"},
    {MK_PTP, offsetof(tv_sass_insn, ptp), ".PTP"},
    {MK_DC, offsetof(tv_sass_insn, dc), ".DC"},
    {MK_MS, offsetof(tv_sass_insn, ms), ".MS"},
    {MK_CL, offsetof(tv_sass_insn, cl), ".CL"},
    {MK_NDV, offsetof(tv_sass_insn, ndv), ".NDV"},
    {MK_NODEP, offsetof(tv_sass_insn, nodep), ".NODEP"},
};

static void code_list(uint8_t op, char *buf, size_t size)
{
    size_t n = 0;
    buf[0] = '\0';
    for (uint8_t c = 0; c < 16; c++) {
        if (!sass_code_lookup(op, c))
            continue;
        int k = snprintf(buf + n, size - n, "%s%u", n ? ", " : "", c);
        if (k < 0 || (size_t)k >= size - n)
            break;
        n += (size_t)k;
    }
}

/* Combinations NVIDIA's own instruction description marks ILLEGAL_INSTR_ENCODING for the
 * Maxwell/Pascal texture instructions (as extracted in public disassembler data, the
 * sm5_1/sm52_1 tables), beyond the rules above: one row each, checked when text is
 * parsed and when a word is decoded. */
static bool tld_ll_ms(const tv_sass_insn *in) { return in->ms && in->lod == TV_SASS_LOD_LL; }
static bool tld_ms_cl(const tv_sass_insn *in) { return in->ms && in->cl; }
static bool tld4_ptp_cube(const tv_sass_insn *in)
{
    return in->ptp && (in->type == TV_SASS_CUBE || in->type == TV_SASS_ARRAY_CUBE);
}
static bool txq_not_header(const tv_sass_insn *in)
{
    return in->query != TV_SASS_Q_DIMENSION && in->query != TV_SASS_Q_TEXTURE_TYPE &&
           in->query != TV_SASS_Q_SAMPLER_POS;
}

static const struct {
    tv_sass_op op;
    bool (*matches)(const tv_sass_insn *in);
    const char *message;
} illegal_rules[] = {
    {TV_SASS_TLD, tld_ll_ms, ".MS only with .LZ: .LL.MS is an illegal encoding"},
    {TV_SASS_TLD, tld_ms_cl, ".MS with .CL is an illegal encoding"},
    {TV_SASS_TLD4, tld4_ptp_cube, ".PTP with CUBE or ARRAY_CUBE is an illegal encoding"},
    {TV_SASS_TXQ, txq_not_header,
     "the query must be TEX_HEADER_DIMENSION, TEX_HEADER_TEXTURE_TYPE or "
     "TEX_HEADER_SAMPLER_POS (other queries are illegal encodings)"},
};

tv_status tv_sass_validate(const tv_sass_insn *in, tv_error *err)
{
    if (in->op >= TV_SASS_OP_COUNT)
        return tv_error_set(err, TV_ERR_INVALID, 0, 0, "unknown SASS instruction %u", in->op);
    const sass_op_info *op = &sass_ops[in->op];
    const uint8_t *bytes = (const uint8_t *)in;
    for (size_t i = 0; i < sizeof flag_mods / sizeof flag_mods[0]; i++) {
        uint8_t v = bytes[flag_mods[i].off];
        if (v > 1)
            return bad(err, in, "flag values must be 0 or 1");
        if (v && !(op->mods & MB(flag_mods[i].kind))) {
            char msg[64];
            snprintf(msg, sizeof msg, "modifier %s is not defined", flag_mods[i].name);
            return bad(err, in, msg);
        }
    }
    if (in->phase > 2)
        return bad(err, in, "phase must be none, .T or .P");
    if (in->pg > 7 || in->pg_neg > 1 || in->pd > 7)
        return bad(err, in, "predicate out of range");
    if (in->pd != TV_SASS_PT && !op->has_pd)
        return bad(err, in, "no destination predicate operand");
    if (in->tid > 0x1fff)
        return bad(err, in, "texture index exceeds 13 bits (#tsPtrIdxU13)");
    if (in->bindless && in->tid)
        return bad(err, in, "bindless (.B) forms take no texture index: it must be 0x0");
    if (in->wmask > 0xf)
        return bad(err, in, "write mask exceeds 4 bits");
    /* LOD */
    if (op->mods & MB(MK_LOD)) {
        if (in->lod > 7 || !(op->lods & (1u << in->lod)))
            return bad(err, in, "LOD mode not defined for this instruction");
        if (op->lod_required && in->lod == TV_SASS_LOD_NONE)
            return bad(err, in, "an LOD mode (.LZ or .LL) is required");
    } else if (in->lod) {
        return bad(err, in, "no LOD mode");
    }
    if (op->comp_required) {
        if (in->component > 3)
            return bad(err, in, "component must be .R, .G, .B or .A");
    } else if (in->component) {
        return bad(err, in, "no component select");
    }
    if (in->op == TV_SASS_TXQ) {
        if (in->query > 0x3f)
            return bad(err, in, "query exceeds 6 bits");
    } else if (in->query) {
        return bad(err, in, "only TXQ has a query");
    }
    if (!op->scalar && in->rd2 != TV_SASS_RZ)
        return bad(err, in, "no second destination register");
    if ((!op->has_rb || (in->op == TV_SASS_TMML && !in->bindless)) && in->rb != TV_SASS_RZ)
        return bad(err, in, "no Rb operand in this form");
    /* types */
    if (in->type > 7)
        return bad(err, in, "texture type out of range");
    if (in->type == TV_SASS_ARRAY_3D)
        return bad(err, in, "ARRAY_3D is reserved (not supported)");
    if (op->has_type && !(op->types & TB(in->type))) {
        char msg[80];
        snprintf(msg, sizeof msg, "texture type %s is not defined", sass_type_name(in->type));
        return bad(err, in, msg);
    }
    if (!op->has_type) {   /* TXQ: none; TLD4S: always 2D */
        uint8_t want = in->op == TV_SASS_TLD4S ? TV_SASS_2D : 0;
        if (in->type != want)
            return bad(err, in, "no texture type operand");
    }
    bool cube = in->type == TV_SASS_CUBE || in->type == TV_SASS_ARRAY_CUBE;
    if (in->aoffi && cube)
        return bad(err, in, ".AOFFI is not allowed with CUBE/ARRAY_CUBE");
    if (in->dc && in->type == TV_SASS_3D)
        return bad(err, in, ".DC is not allowed with 3D");
    if (in->aoffi && in->ptp)
        return bad(err, in, ".AOFFI and .PTP exclude each other");
    if (in->op == TV_SASS_TLD && in->ms && in->type != TV_SASS_2D &&
        in->type != TV_SASS_ARRAY_2D)
        return bad(err, in, ".MS needs 2D or ARRAY_2D");
    /* TEXS/TLDS: the target-code table and the Rd1/wmsk tables */
    if (op->scalar && in->op != TV_SASS_TLD4S) {
        if (!sass_code_find(in)) {
            char list[64], msg[200];
            code_list(in->op, list, sizeof list);
            snprintf(msg, sizeof msg,
                     "no encoding for %s%s%s%s%s (legal-modifier table: encodings %s)",
                     sass_type_name(in->type),
                     in->lod == TV_SASS_LOD_LZ ? ".LZ" : in->lod == TV_SASS_LOD_LL ? ".LL" : "",
                     in->dc ? ".DC" : "", in->aoffi ? ".AOFFI" : "", in->ms ? ".MS" : "", list);
            return bad(err, in, msg);
        }
        bool rz = in->rd2 == TV_SASS_RZ;
        if (!sass_swz_by_mask(rz, in->wmask)) {
            if (sass_swz_by_mask(!rz, in->wmask))
                return bad(err, in, rz ? "a 3- or 4-component mask needs a non-RZ Rd1 "
                                         "(first destination)"
                                       : "a 1- or 2-component mask needs Rd1 (first "
                                         "destination) = RZ");
            char msg[80];
            snprintf(msg, sizeof msg, "write mask 0x%x cannot be encoded", in->wmask);
            return bad(err, in, msg);
        }
    }
    if (in->op == TV_SASS_TLD4S && in->wmask != 0xf)
        return bad(err, in, "TLD4S always writes four components");
    if (in->unused_rb && (in->unused_rb != 0xff || in->op != TV_SASS_TMML || in->bindless))
        return bad(err, in, "the unused Rb field is 0, or 0xff in TMML (not .B)");
    for (size_t i = 0; i < sizeof illegal_rules / sizeof illegal_rules[0]; i++)
        if (illegal_rules[i].op == in->op && illegal_rules[i].matches(in))
            return bad(err, in, illegal_rules[i].message);
    return TV_OK;
}

/* ---- register rules -------------------------------------------------------------------- */
/* R<reg>..R<reg+n-1> must be n-aligned (4-aligned for 3 or 4 registers) and end by R254;
 * VERB says what the span does with the registers ("holds", "receives"). */
static tv_status span_rule(tv_error *err, const char *opname, const char *what, uint8_t reg,
                           unsigned n, const char *verb)
{
    unsigned align = n > 2 ? 4 : n;
    if (reg % align)
        return tv_error_set(err, TV_ERR_RUNTIME, 0, 0,
                            "%s: fault: misaligned register: %s = R%u %s %u registers and "
                            "must be %u-aligned", opname, what, reg, verb, n, align);
    if (reg + n - 1 > TV_SASS_NUM_REGS - 1)
        return tv_error_set(err, TV_ERR_RUNTIME, 0, 0,
                            "%s: fault: %s = R%u..R%u runs past R254", opname, what, reg,
                            reg + n - 1);
    return TV_OK;
}

static tv_status vec_rule(tv_error *err, const char *opname, const char *what, uint8_t reg,
                          unsigned n, bool must_rz_if_empty)
{
    if (n == 0) {
        if (must_rz_if_empty && reg != TV_SASS_RZ)
            return tv_error_set(err, TV_ERR_RUNTIME, 0, 0,
                                "%s: fault: %s must be RZ (no parameters packed in it)",
                                opname, what);
        return TV_OK;
    }
    if (reg == TV_SASS_RZ)
        return tv_error_set(err, TV_ERR_RUNTIME, 0, 0,
                            "%s: fault: %s must not be RZ (%u parameter%s packed in it)",
                            opname, what, n, n > 1 ? "s" : "");
    return span_rule(err, opname, what, reg, n, "holds");
}

static tv_status dst_rule(tv_error *err, const char *opname, const char *what, uint8_t reg,
                          unsigned n)
{
    if (reg == TV_SASS_RZ || n == 0)
        return TV_OK;   /* writes to RZ are dropped */
    return span_rule(err, opname, what, reg, n, "receives");
}

tv_status tv_sass_check_registers(const tv_sass_insn *in, tv_error *err)
{
    tv_status s = tv_sass_validate(in, err);
    if (s)
        return s;
    sass_layout l;
    sass_layout_of(in, &l);
    const sass_op_info *op = &sass_ops[in->op];
    bool scalar = op->scalar;
    const char *n = op->name;
    if ((s = vec_rule(err, n, "Ra", in->ra, l.na, false)))
        return s;
    bool rb_operand = op->has_rb && !(in->op == TV_SASS_TMML && !in->bindless);
    if (rb_operand && (s = vec_rule(err, n, "Rb", in->rb, l.nb, true)))
        return s;
    if ((s = dst_rule(err, n, scalar ? "Rd0 (second destination)" : "Rd", in->rd, l.nd)))
        return s;
    if (scalar && (s = dst_rule(err, n, "Rd1 (first destination)", in->rd2, l.nd2)))
        return s;
    return TV_OK;
}
