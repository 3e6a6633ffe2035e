/* TGSI parser: one instruction (opcode with _SAT/_PRECISE, operands, texture target,
 * texture offsets or memory qualifiers, label). */
#include "tgsi/tgsi_parser.h"

#include <stdio.h>

static void describe_operands(const tv_tgsi_opinfo *info, char *buf, size_t size)
{
    unsigned nd = info->num_dst, ns = info->num_src, tex = (info->flags & TV_OPF_TEX) ? 1 : 0;
    unsigned total = nd + ns + tex;
    if (!total) {
        snprintf(buf, size, "no operands");
        return;
    }
    char parts[96] = "";
    size_t k = 0;
    if (nd)
        k += (size_t)snprintf(parts + k, sizeof parts - k, "%u destination%s", nd,
                              nd > 1 ? "s" : "");
    if (ns)
        k += (size_t)snprintf(parts + k, sizeof parts - k, "%s%u source%s", k ? ", " : "", ns,
                              ns > 1 ? "s" : "");
    if (tex)
        snprintf(parts + k, sizeof parts - k, "%sa texture target", k ? ", " : "");
    snprintf(buf, size, "%u operand%s (%s)", total, total > 1 ? "s" : "", parts);
}

bool tvp_parse_instruction(parser *c, size_t start)
{
    tv_tgsi_program *pr = c->cur;
    size_t at = c->p, len = word_len(c);
    char b[48];
    if (len == 0) {
        if (at_eol(c))
            return tvp_fail_at(c, at, 0, "expected an instruction after the instruction number");
        return tvp_fail_at(c, at, 0, "expected `DCL`, `IMM`, `PROPERTY` or an instruction, found `%s`",
                           tvp_quote(c, at, token_len(c, at), b));
    }
    /* opcode, then _SAT, then _PRECISE */
    size_t base = len;
    bool sat = false, precise = false;
    const tv_tgsi_opinfo *info = tv_tgsi_opinfo_find(c->s + at, base);
    if (!info && base > 8 && tvp_word_is(c, at + base - 8, 8, "_PRECISE")) {
        base -= 8;
        precise = true;
        info = tv_tgsi_opinfo_find(c->s + at, base);
    }
    if (!info && base > 4 && tvp_word_is(c, at + base - 4, 4, "_SAT")) {
        base -= 4;
        sat = true;
        info = tv_tgsi_opinfo_find(c->s + at, base);
    }
    const tvp_legacy_op *leg = NULL;
    if (!info) {
        leg = tvp_legacy_op_find(c, at, base);
        if (!leg && len > 12 && tvp_word_is(c, at + len - 12, 12, "_PRECISE_SAT"))
            return tvp_fail_at(c, at, len,
                               "`%s`: write `_SAT` before `_PRECISE` (`%.*s_SAT_PRECISE`)",
                               tvp_quote(c, at, len, b), (int)(len - 12 > 30 ? 30 : len - 12),
                               c->s + at);
        if (!leg) {
            if (tvp_word_is(c, at, len, "END") == false && pr->num_insns == 0 &&
                tvt_lookup(tvt_file_names, TV_FILE_COUNT, c->s + at, len) >= 0)
                return tvp_fail_at(c, at, len, "expected `DCL`, `IMM`, `PROPERTY` or an instruction, "
                                   "found the register file `%s`", tvp_quote(c, at, len, b));
            return tvp_fail_at(c, at, len, "unknown opcode `%s`", tvp_quote(c, at, len, b));
        }
        if (!leg->modern || c->mode != TV_TGSI_MODE_LEGACY) {
            if (leg->modern)
                return tvp_fail_at(c, at, len,
                                   "`%s` was removed from TGSI (legacy syntax): %s, or use "
                                   "legacy mode (--legacy)",
                                   tvp_quote(c, at, base, b), leg->hint);
            return tvp_fail_at(c, at, len, "`%s` was removed from TGSI%s%s%s",
                               tvp_quote(c, at, base, b),
                               leg->hint ? ": " : "", leg->hint ? leg->hint : "",
                               c->mode == TV_TGSI_MODE_LEGACY ? " (legacy mode does not expand it)"
                                                              : "");
        }
        info = tv_tgsi_opinfo_find(leg->modern, strlen(leg->modern));
    }
    c->p += len;

    GROW(c, pr->insns, pr->num_insns, c->cap_insns);
    uint32_t ii = pr->num_insns;
    tv_tgsi_instruction *in = &pr->insns[ii];
    memset(in, 0, sizeof *in);
    in->opcode = info->opcode;
    in->saturate = sat;
    in->precise = precise;
    in->num_dst = info->num_dst;
    in->num_src = info->num_src;
    in->mem_target = TV_TGT_UNKNOWN;
    in->tex_target = TV_TGT_UNKNOWN;
    in->line = c->line;
    in->column = (uint32_t)(start - c->line_start + 1);

    unsigned nd = info->num_dst, ns = info->num_src, total = nd + ns;
    char desc[128];
    bool legacy_stream = c->mode == TV_TGSI_MODE_LEGACY &&
                         (info->opcode == TV_TGSI_OP_EMIT || info->opcode == TV_TGSI_OP_ENDPRIM);
    for (unsigned i = 0; i < total; i++) {
        skip_sp(c);
        if (i > 0) {
            if (peek(c) != ',') {
                describe_operands(info, desc, sizeof desc);
                if (at_eol(c))
                    return tvp_fail_at(c, at, len, "`%s` takes %s, found %u", info->name, desc, i);
                return tvp_fail_at(c, c->p, 0, "expected `,` between operands, found `%s`",
                                   tvp_quote(c, c->p, token_len(c, c->p), b));
            }
            c->p++;
            skip_ws(c);
        } else if (at_eol(c) || peek(c) == ':') {
            if (legacy_stream) {
                /* operand-less EMIT/ENDPRIM: stream 0 from a synthesized immediate */
                tv_tgsi_src *s = &in->src[0];
                memset(s, 0, sizeof *s);
                s->reg.file = TV_FILE_IMM;
                if (!tvp_add_fixup(c, ii, FIX_IMM_SRC, 0))
                    return false;
                break;
            }
            describe_operands(info, desc, sizeof desc);
            if (info->opcode == TV_TGSI_OP_EMIT || info->opcode == TV_TGSI_OP_ENDPRIM)
                return tvp_fail_at(c, at, len,
                                   "`%s` takes %s, found 0 (operand-less `%s` is legacy syntax: "
                                   "write `%s IMM[n].xxxx` with a zero immediate, or use legacy "
                                   "mode (--legacy))",
                                   info->name, desc, info->name, info->name);
            return tvp_fail_at(c, at, len, "`%s` takes %s, found 0", info->name, desc);
        } else if (c->p == at + len) {
            return tvp_fail_at(c, c->p, 0, "expected a space after `%s`", tvp_quote(c, at, len, b));
        }
        if (i < nd) {
            if (!tvp_parse_dst(c, &in->dst[i]))
                return false;
        } else if (!tvp_parse_src(c, &in->src[i - nd])) {
            return false;
        }
    }
    if (leg)
        tvp_legacy_rewrite_operands(in);

    skip_sp(c);
    if (info->flags & TV_OPF_TEX) {
        if (peek(c) != ',') {
            describe_operands(info, desc, sizeof desc);
            return tvp_fail_at(c, at_eol(c) ? at : c->p, at_eol(c) ? len : 0,
                               "`%s` takes %s: the texture target (e.g. `2D`) is missing",
                               info->name, desc);
        }
        c->p++;
        skip_sp(c);
        size_t tat = c->p, tlen = word_len(c);
        int t = tlen ? tvt_lookup(tvt_target_names, TV_TGT_COUNT, c->s + tat, tlen) : -1;
        if (t < 0) {
            if (tlen && tvp_word_is(c, tat, tlen, "CUBE_ARRAY"))
                return tvp_fail_at(c, tat, tlen, "unknown texture target `%s` (TGSI spells it "
                                   "`CUBEARRAY`)", tvp_quote(c, tat, tlen, b));
            if (tlen && tvp_word_is(c, tat, tlen, "SHADOWCUBE_ARRAY"))
                return tvp_fail_at(c, tat, tlen, "unknown texture target `%s` (TGSI spells it "
                                   "`SHADOWCUBEARRAY`)", tvp_quote(c, tat, tlen, b));
            return tvp_fail_at(c, tat, tlen, "expected a texture target (1D, 2D, 3D, CUBE, RECT, "
                               "2D_ARRAY, CUBEARRAY, SHADOW2D, ...), found `%s`",
                               tvp_quote(c, tat, token_len(c, tat), b));
        }
        c->p += tlen;
        in->has_texture = true;
        in->tex_target = (uint8_t)t;
    }
    /* trailing: texel offsets, or memory qualifiers */
    for (skip_sp(c); peek(c) == ','; skip_sp(c)) {
        size_t cat = c->p;
        c->p++;
        skip_sp(c);
        if (info->flags & TV_OPF_OFFSETS) {
            if (in->num_tex_offsets >= TV_TGSI_MAX_TEXOFFSETS)
                return tvp_fail_at(c, c->p, 0, "too many texture offsets (at most %d)",
                                   TV_TGSI_MAX_TEXOFFSETS);
            if (!tvp_parse_texoffset(c, &in->tex_offsets[in->num_tex_offsets]))
                return false;
            in->num_tex_offsets++;
            in->has_texture = true;
        } else if (info->flags & TV_OPF_MEMQ) {
            size_t wat = c->p, wl = word_len(c);
            int k;
            if (wl && (k = tvt_lookup(tvt_memq_names, 4, c->s + wat, wl)) >= 0) {
                in->mem_qualifier |= (uint8_t)(1u << k);
            } else if (wl && (k = tvt_lookup(tvt_target_names, TV_TGT_COUNT, c->s + wat, wl)) >= 0) {
                in->mem_target = (uint8_t)k;
            } else if (wl && (k = tvt_pipe_format_lookup(c->s + wat, wl)) >= 0) {
                in->mem_format = (uint16_t)k;
            } else {
                return tvp_fail_at(c, wat, wl,
                                   "expected a memory qualifier (COHERENT, RESTRICT, VOLATILE, "
                                   "STREAM_CACHE_POLICY), a texture target or a PIPE_FORMAT, found "
                                   "`%s`",
                                   tvp_quote(c, wat, token_len(c, wat), b));
            }
            c->p += wl;
        } else {
            describe_operands(info, desc, sizeof desc);
            return tvp_fail_at(c, cat, 0, "too many operands: `%s` takes %s", info->name, desc);
        }
    }
    if (peek(c) == ':') {
        if (!(info->flags & TV_OPF_BRANCH))
            return tvp_fail_at(c, c->p, 0,
                               "`%s` cannot take a `:label` (only IF, UIF, ELSE, BGNLOOP, ENDLOOP "
                               "and CAL do)",
                               info->name);
        c->p++;
        uint64_t v;
        if (!tvp_parse_uint(c, 0xffffffffu, &v, "a label (an instruction number)"))
            return false;
        in->has_label = true;
        in->label = (uint32_t)v;
    }
    if (leg && !strcmp(leg->name, "XPD"))
        return tvp_expand_xpd(c, ii);
    pr->num_insns++;
    return tvp_add_stmt(c, TV_STMT_INSN, ii);
}
