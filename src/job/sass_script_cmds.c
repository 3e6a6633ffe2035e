/* Script commands that set the warp's state: pools, bind, cbank, reg, pred, active,
 * precision, word. Arguments arrive counted and options checked (sass_script_table.c). */
#include "sass_script.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* pools [header_max=N] [sampler_max=N] [bank=N] [header_binding=on|off] */
int script_cmd_pools(script *s, const script_line *l)
{
    tv_sass_binding b;
    tv_sass_get_binding(s->w, &b);
    const script_val *v;
    if ((v = script_optval(l, "header_max")))
        b.header_max = v->u;
    if ((v = script_optval(l, "sampler_max")))
        b.sampler_max = v->u;
    if ((v = script_optval(l, "bank")))
        b.handle_bank = v->u;
    if ((v = script_optval(l, "header_binding")))
        b.header_binding = v->e == 1;
    tv_error err;
    if (tv_sass_set_binding(s->w, &b, &err))
        return script_fail(s, l->name.col, "%s", err.message);
    return 0;
}

/* bind TID HEADER [SAMPLER]: c[handle bank][TID*4] = SAMPLER << 20 | HEADER */
int script_cmd_bind(script *s, const script_line *l)
{
    uint32_t tid, hdr, smp = 0;
    if (!script_arg_u32(s, l, 0, "TID", 0, 0x1fff, &tid) ||
        !script_arg_u32(s, l, 1, "header index", 0, 0xfffff, &hdr) ||
        (l->nargs == 3 && !script_arg_u32(s, l, 2, "sampler index", 0, 0xfff, &smp)))
        return TV_EXIT_INVALID;
    tv_sass_binding b;
    tv_sass_get_binding(s->w, &b);
    uint32_t h = tv_tex_handle(hdr, smp);
    tv_error err;
    if (tv_sass_cbank_write(s->w, b.handle_bank, tid * 4u, &h, 4, &err))
        return script_fail(s, l->arg[0].col, "%s", err.message);
    return 0;
}

/* cbank BANK OFFSET VALUE... (32-bit words) */
int script_cmd_cbank(script *s, const script_line *l)
{
    uint32_t bank, off, v;
    if (!script_arg_u32(s, l, 0, "bank", 0, 17, &bank) ||
        !script_arg_u32(s, l, 1, "offset", 0, UINT32_MAX, &off))
        return TV_EXIT_INVALID;
    for (unsigned i = 2; i < l->nargs; i++) {
        if (!script_arg_value(s, l, i, &v))
            return TV_EXIT_INVALID;
        tv_error err;
        uint64_t at = (uint64_t)off + 4u * (i - 2);
        if (at > UINT32_MAX) /* no wrap-around to the start of the bank */
            return script_fail(s, l->arg[i].col, "offset past 4 GiB");
        if (tv_sass_cbank_write(s->w, bank, (uint32_t)at, &v, 4, &err))
            return script_fail(s, l->arg[i].col, "%s", err.message);
    }
    return 0;
}

/* RN or RN[LANE] (LANE 32 when absent); false after a message. */
static bool reg_name(script *s, const script_tok *t, unsigned *r, unsigned *lane)
{
    const char *p = t->text;
    char q[128];
    char *end = NULL;
    bool ok = p[0] == 'R' && isdigit((unsigned char)p[1]);
    *lane = 32;
    if (ok) {
        *r = (unsigned)strtoul(p + 1, &end, 10);
        if (*end == '[') {
            *lane = (unsigned)strtoul(end + 1, &end, 10);
            ok = isdigit((unsigned char)end[-1]) && *end == ']' && end[1] == '\0' && *lane < 32;
        } else {
            ok = *end == '\0';
        }
    }
    if (!ok) {
        script_fail(s, t->col, "bad register \"%s\" (expected RN or RN[LANE], lane 0..31)",
                    script_quote(p, q));
        return false;
    }
    if (*r > 254) {
        script_fail(s, t->col, "register R%u is out of range (R0..R254; RZ is R255)", *r);
        return false;
    }
    return true;
}

/* reg RN VALUE | reg RN VALUE0 ... VALUE31 | reg RN[LANE] VALUE */
int script_cmd_reg(script *s, const script_line *l)
{
    unsigned r, lane;
    if (!reg_name(s, &l->arg[0], &r, &lane))
        return TV_EXIT_INVALID;
    unsigned values = l->nargs - 1;
    if (values != 1 && (values != 32 || lane < 32))
        return script_fail(s, l->arg[l->nargs > 2 ? 2 : 1].col,
                           "reg takes one value, or 32 values for RN without a lane (got %u)",
                           values);
    for (unsigned i = 1; i < l->nargs; i++) {
        uint32_t v;
        if (!script_arg_value(s, l, i, &v))
            return TV_EXIT_INVALID;
        if (values == 32)
            tv_sass_set_reg(s->w, r, i - 1, v);
        else if (lane < 32)
            tv_sass_set_reg(s->w, r, lane, v);
        else
            tv_sass_set_reg_all(s->w, r, v);
    }
    return 0;
}

/* pred PN LANEMASK */
int script_cmd_pred(script *s, const script_line *l)
{
    const char *p = l->arg[0].text;
    char q[128];
    if (p[0] != 'P' || p[1] < '0' || p[1] > '6' || p[2])
        return script_fail(s, l->arg[0].col, "bad predicate \"%s\" (expected P0..P6)",
                           script_quote(p, q));
    uint32_t m;
    if (!script_arg_u32(s, l, 1, "lane mask", 0, UINT32_MAX, &m))
        return TV_EXIT_INVALID;
    tv_sass_set_pred(s->w, (unsigned)(p[1] - '0'), m);
    return 0;
}

/* active LANEMASK */
int script_cmd_active(script *s, const script_line *l)
{
    uint32_t m;
    if (!script_arg_u32(s, l, 0, "lane mask", 0, UINT32_MAX, &m))
        return TV_EXIT_INVALID;
    tv_sass_set_active(s->w, m);
    return 0;
}

/* precision reference|hardware */
int script_cmd_precision(script *s, const script_line *l)
{
    const char *p = l->arg[0].text;
    char q[128];
    if (strcmp(p, "reference") && strcmp(p, "hardware"))
        return script_fail(s, l->arg[0].col,
                           "bad precision \"%s\" (allowed: reference, hardware)",
                           script_quote(p, q));
    tv_tex_set_precision(s->unit, !strcmp(p, "hardware") ? TV_TEX_PRECISION_HARDWARE
                                                         : TV_TEX_PRECISION_REFERENCE);
    return 0;
}

/* word 0xWORD [0xCTRL] */
int script_cmd_word(script *s, const script_line *l)
{
    uint64_t w;
    uint32_t c = 0;
    char q[128];
    if (!script_parse_u64(l->arg[0].text, &w))
        return script_fail(s, l->arg[0].col, "bad instruction word \"%s\" (expected a 64-bit "
                           "number, 0x hex)", script_quote(l->arg[0].text, q));
    if (l->nargs == 2 && !script_arg_u32(s, l, 1, "control bits", 0, UINT32_MAX, &c))
        return TV_EXIT_INVALID;
    return script_run_insn(s, NULL, l->name.col, true, w, c);
}
