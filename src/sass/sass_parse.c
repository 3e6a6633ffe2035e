/* Parsing one instruction: page syntax and nvdisasm output.
 *   {@{!}Pg} OP{.MOD…} operands {&req_N} {&rdN} {&wrN} {?sched} {;} {// comment}
 * Operands are matched by kind (register, predicate, number, name), so optional Rb and
 * Pd, the legacy `#tidU08, #smpU05` pair and optional masks need no lookahead tricks. */
#include "sass/sass_internal.h"
#include "util/error.h"

#include <ctype.h>
#include <string.h>

typedef enum { OK_REG, OK_PRED, OK_NUM, OK_NAME } opnd_kind;

typedef struct opnd {
    uint8_t kind;
    uint32_t col;       /* 1-based */
    uint64_t num;       /* register/predicate number, or value */
    const char *text;
    size_t len;
} opnd;

#define MAX_OPNDS 12

typedef struct cursor {
    const char *s;
    size_t pos;
    tv_error *err;
} cursor;

static tv_status perr(cursor *c, size_t at, const char *fmt, const char *arg, size_t arglen)
{
    char frag[96];
    size_t n = arglen < sizeof frag - 1 ? arglen : sizeof frag - 1;
    memcpy(frag, arg ? arg : "", arg ? n : 0);
    frag[arg ? n : 0] = '\0';
    tv_status s = tv_error_set(c->err, TV_ERR_PARSE, 1, (uint32_t)at + 1, fmt, frag);
    if (c->err) {
        size_t m = n < sizeof c->err->text - 1 ? n : sizeof c->err->text - 1;
        memcpy(c->err->text, frag, m);
        c->err->text[m] = '\0';
    }
    return s;
}

static bool ieq(const char *a, size_t alen, const char *b)
{
    size_t blen = strlen(b);
    if (alen != blen)
        return false;
    for (size_t i = 0; i < alen; i++)
        if (toupper((unsigned char)a[i]) != toupper((unsigned char)b[i]))
            return false;
    return true;
}

/* Skip blanks and comments; returns false on an unterminated block comment. */
static bool skip(cursor *c)
{
    for (;;) {
        while (c->s[c->pos] && isspace((unsigned char)c->s[c->pos]))
            c->pos++;
        if (c->s[c->pos] == '/' && c->s[c->pos + 1] == '*') {
            const char *e = strstr(c->s + c->pos + 2, "*/");
            if (!e)
                return false;
            c->pos = (size_t)(e - c->s) + 2;
        } else if (c->s[c->pos] == '/' && c->s[c->pos + 1] == '/') {
            c->pos += strlen(c->s + c->pos);
        } else {
            return true;
        }
    }
}

static bool is_word(char ch)
{
    return isalnum((unsigned char)ch) || ch == '_';
}

static bool parse_uint(const char *t, size_t len, uint64_t *out)
{
    uint64_t v = 0;
    size_t i = 0;
    unsigned base = 10;
    if (len > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) {
        base = 16;
        i = 2;
    }
    if (i >= len)
        return false;
    for (; i < len; i++) {
        int d;
        char ch = t[i];
        if (ch >= '0' && ch <= '9')
            d = ch - '0';
        else if (base == 16 && isxdigit((unsigned char)ch))
            d = toupper((unsigned char)ch) - 'A' + 10;
        else
            return false;
        if (v > (UINT64_MAX - (uint64_t)d) / base)
            return false;
        v = v * base + (uint64_t)d;
    }
    *out = v;
    return true;
}

/* R0..R255 / RZ, P0..P6 / PT. */
static bool parse_reg(const char *t, size_t len, uint64_t *out)
{
    if (ieq(t, len, "RZ")) {
        *out = TV_SASS_RZ;
        return true;
    }
    if (len >= 2 && toupper((unsigned char)t[0]) == 'R' && isdigit((unsigned char)t[1])) {
        uint64_t v;
        if (!parse_uint(t + 1, len - 1, &v) || v > 255 || (len > 2 && t[1] == '0'))
            return false;
        *out = v;
        return true;
    }
    return false;
}

static bool parse_pred(const char *t, size_t len, uint64_t *out)
{
    if (ieq(t, len, "PT")) {
        *out = TV_SASS_PT;
        return true;
    }
    if (len == 2 && toupper((unsigned char)t[0]) == 'P' && t[1] >= '0' && t[1] <= '6') {
        *out = (uint64_t)(t[1] - '0');
        return true;
    }
    return false;
}

static tv_status parse_guard(cursor *c, tv_sass_insn *in)
{
    size_t at = c->pos++;
    if (c->s[c->pos] == '!') {
        in->pg_neg = 1;
        c->pos++;
    }
    size_t b = c->pos;
    while (is_word(c->s[c->pos]))
        c->pos++;
    uint64_t p;
    if (!parse_pred(c->s + b, c->pos - b, &p))
        return perr(c, at, "bad guard predicate '%s' (expected @P0..@P6, @PT, @!Pn)",
                    c->s + at, c->pos - at);
    in->pg = (uint8_t)p;
    return TV_OK;
}

static const sass_mod *find_mod(const tv_sass_insn *in, const sass_op_info *op,
                                const char *t, size_t len)
{
    for (size_t i = 0; i < sass_num_mods; i++) {
        const sass_mod *m = &sass_mods[i];
        if (!ieq(t, len, m->name))
            continue;
        /* ".B" is the component for TLD4/TLD4S until one is given, else bindless. */
        if (m->kind == MK_COMP && (!op->comp_required || in->component != 0xff))
            continue;
        return m;
    }
    return NULL;
}

static tv_status apply_mod(cursor *c, size_t at, size_t len, tv_sass_insn *in,
                           const sass_op_info *op, const sass_mod *m, uint32_t *seen)
{
    if (!(op->mods & MB(m->kind)))
        return perr(c, at, "modifier '.%s' is not defined for this instruction", c->s + at,
                    len);
    if (*seen & MB(m->kind) || (m->kind == MK_PTP && (*seen & MB(MK_AOFFI))) ||
        (m->kind == MK_AOFFI && (*seen & MB(MK_PTP))))
        return perr(c, at, "modifier '.%s' repeats or conflicts with an earlier one",
                    c->s + at, len);
    *seen |= MB(m->kind);
    switch (m->kind) {
    case MK_F16: in->f16 = 1; break;
    case MK_COMP: in->component = m->value; break;
    case MK_B: in->bindless = 1; break;
    case MK_LOD:
        if (!(op->lods & (1u << m->value)))
            return perr(c, at, "LOD mode '.%s' is not defined for this instruction",
                        c->s + at, len);
        in->lod = m->value;
        break;
    case MK_LODQ: break;
    case MK_LC: in->lc = 1; break;
    case MK_AOFFI: in->aoffi = 1; break;
    case MK_PTP: in->ptp = 1; break;
    case MK_DC: in->dc = 1; break;
    case MK_MS: in->ms = 1; break;
    case MK_CL: in->cl = 1; break;
    case MK_NDV: in->ndv = 1; break;
    case MK_NODEP: in->nodep = 1; break;
    case MK_PHASE: in->phase = m->value; break;
    default: break;
    }
    return TV_OK;
}

static tv_status parse_opcode(cursor *c, tv_sass_insn *in)
{
    size_t b = c->pos;
    while (is_word(c->s[c->pos]))
        c->pos++;
    size_t len = c->pos - b;
    int found = -1;
    for (int i = 0; i < TV_SASS_OP_COUNT; i++)
        if (ieq(c->s + b, len, sass_ops[i].name))
            found = i;
    if (found < 0) {
        if (len == 0)
            return perr(c, b, "instruction expected%s", "", 0);
        return perr(c, b, "unknown instruction '%s' (TEX, TEXS, TLD, TLDS, TLD4, TLD4S, "
                    "TMML, TXQ, TXD)", c->s + b, len);
    }
    int8_t req = in->ann_req;
    uint8_t pg = in->pg, pg_neg = in->pg_neg;
    tv_sass_insn_init(in, (tv_sass_op)found);
    in->ann_req = req;
    in->pg = pg;
    in->pg_neg = pg_neg;
    const sass_op_info *op = &sass_ops[found];
    if (op->comp_required)
        in->component = 0xff;
    uint32_t seen = 0;
    while (c->s[c->pos] == '.') {
        size_t mb = ++c->pos;
        while (is_word(c->s[c->pos]))
            c->pos++;
        size_t ml = c->pos - mb;
        const sass_mod *m = find_mod(in, op, c->s + mb, ml);
        if (!m)
            return perr(c, mb, "unknown modifier '.%s'", c->s + mb, ml);
        tv_status s = apply_mod(c, mb, ml, in, op, m, &seen);
        if (s)
            return s;
    }
    if (op->comp_required && in->component == 0xff)
        return perr(c, b, "%s needs a component (.R, .G, .B or .A)", op->name,
                    strlen(op->name));
    if (op->lodq && !(seen & MB(MK_LODQ)))
        return perr(c, b, "%s needs the .LOD mode", op->name, strlen(op->name));
    if (op->lod_required && !(seen & MB(MK_LOD)))
        return perr(c, b, "%s needs an LOD mode (.LZ or .LL)", op->name, strlen(op->name));
    return TV_OK;
}

static tv_status parse_operands(cursor *c, opnd *ops, unsigned *nops)
{
    *nops = 0;
    if (!skip(c))
        return perr(c, c->pos, "unterminated comment%s", "", 0);
    if (!c->s[c->pos] || c->s[c->pos] == ';' || c->s[c->pos] == '{')
        return TV_OK;
    for (;;) {
        if (!skip(c))
            return perr(c, c->pos, "unterminated comment%s", "", 0);
        size_t b = c->pos;
        while (is_word(c->s[c->pos]))
            c->pos++;
        size_t len = c->pos - b;
        if (len == 0)
            return perr(c, b, "operand expected at '%s'", c->s + b, 1);
        if (*nops == MAX_OPNDS)
            return perr(c, b, "too many operands at '%s'", c->s + b, len);
        opnd *o = &ops[(*nops)++];
        o->col = (uint32_t)b + 1;
        o->text = c->s + b;
        o->len = len;
        if (parse_reg(o->text, len, &o->num))
            o->kind = OK_REG;
        else if (parse_pred(o->text, len, &o->num))
            o->kind = OK_PRED;
        else if (isdigit((unsigned char)o->text[0]) && parse_uint(o->text, len, &o->num))
            o->kind = OK_NUM;
        else if (len > 1 && o->text[0] == '0' && (o->text[1] == 'x' || o->text[1] == 'X'))
            return perr(c, b, "bad number '%s'", o->text, len);
        else if (strspn(o->text, "0123456789") == len)
            return perr(c, b, "number '%s' out of range", o->text, len);
        else
            o->kind = OK_NAME;   /* names: 1D, 2D, 3D, CUBE, masks, queries */
        if (!skip(c))
            return perr(c, c->pos, "unterminated comment%s", "", 0);
        if (c->s[c->pos] != ',')
            return TV_OK;
        c->pos++;
    }
}

static tv_status parse_annotations(cursor *c, tv_sass_insn *in)
{
    for (;;) {
        if (!skip(c))
            return perr(c, c->pos, "unterminated comment%s", "", 0);
        if (c->s[c->pos] != '{')
            return TV_OK;
        size_t at = c->pos++;
        const char *end = strchr(c->s + at, '}');
        if (!end)
            return perr(c, at, "unterminated annotation '%s'", c->s + at, strlen(c->s + at));
        size_t len = (size_t)(end - (c->s + at)) - 1;
        const char *t = c->s + at + 1;
        uint64_t v;
        if (len > 5 && !strncmp(t, "&req_", 5) && parse_uint(t + 5, len - 5, &v) && v < 64 &&
            in->ann_req < 0)
            in->ann_req = (int8_t)v;
        else if (len > 3 && !strncmp(t, "&rd", 3) && parse_uint(t + 3, len - 3, &v) &&
                 v < 8 && in->ann_rd < 0)
            in->ann_rd = (int8_t)v;
        else if (len > 3 && !strncmp(t, "&wr", 3) && parse_uint(t + 3, len - 3, &v) &&
                 v < 8 && in->ann_wr < 0)
            in->ann_wr = (int8_t)v;
        else if (len > 1 && t[0] == '?' && len - 1 < sizeof in->ann_sched && !in->ann_sched[0]) {
            for (size_t i = 1; i < len; i++)
                if (!is_word(t[i]))
                    return perr(c, at, "bad scheduling annotation '%s'", c->s + at, len + 2);
            memcpy(in->ann_sched, t + 1, len - 1);
            in->ann_sched[len - 1] = '\0';
        } else {
            return perr(c, at, "bad or repeated annotation '%s' (expected {&req_N}, {&rdN}, "
                        "{&wrN}, {?sched})", c->s + at, len + 2);
        }
        c->pos = (size_t)(end - c->s) + 1;
    }
}

/* ---- operand matching ------------------------------------------------------------------ */
typedef struct matcher {
    cursor *c;
    opnd *ops;
    unsigned n, i;
} matcher;

static bool peek(const matcher *m, uint8_t kind)
{
    return m->i < m->n && m->ops[m->i].kind == kind;
}

static tv_status want_reg(matcher *m, uint8_t *reg, const char *what)
{
    if (!peek(m, OK_REG)) {
        size_t at = m->i < m->n ? m->ops[m->i].col - 1 : m->c->pos;
        return perr(m->c, at, "register expected for %s", what, strlen(what));
    }
    *reg = (uint8_t)m->ops[m->i++].num;
    return TV_OK;
}

static tv_status mask_operand(matcher *m, const sass_op_info *op, tv_sass_insn *in)
{
    if (m->i >= m->n) {
        if (op->mask_kind == 1 || (op->mask_kind == 3 && in->rd2 == TV_SASS_RZ))
            return perr(m->c, m->c->pos, "write mask expected%s", "", 0);
        in->wmask = 0xf;   /* #wmskU04 and #wmskU34C default to 0xf / RGBA */
        return TV_OK;
    }
    const opnd *o = &m->ops[m->i++];
    if (o->kind == OK_NUM) {
        if (o->num > 0xf)
            return perr(m->c, o->col - 1, "write mask '%s' exceeds 0xf", o->text, o->len);
        in->wmask = (uint8_t)o->num;
        return TV_OK;
    }
    const sass_swz_row *sw = o->kind == OK_NAME ? sass_swz_by_name(o->text, o->len) : NULL;
    if (!sw) {
        for (size_t i = 0; i < sass_num_swz && o->kind == OK_NAME; i++)
            if (ieq(o->text, o->len, sass_swz[i].name))
                sw = &sass_swz[i];
    }
    if (!sw)
        return perr(m->c, o->col - 1, "bad write mask '%s' (R, G, B, A, RG, RA, GA, BA, RGB, "
                    "RGA, GBA, RBA, RGBA or a hex mask)", o->text, o->len);
    in->wmask = sw->mask;
    return TV_OK;
}

static tv_status tid_operands(matcher *m, tv_sass_insn *in, unsigned count)
{
    const opnd *a = &m->ops[m->i];
    if (count == 1) {
        if (a->num > 0x1fff)
            return perr(m->c, a->col - 1, "texture index '%s' exceeds 13 bits", a->text,
                        a->len);
        in->tid = (uint16_t)a->num;
    } else {
        const opnd *b = &m->ops[m->i + 1];
        if (a->num > 0xff)
            return perr(m->c, a->col - 1, "#tidU08 '%s' exceeds 8 bits", a->text, a->len);
        if (b->num > 0x1f)
            return perr(m->c, b->col - 1, "#smpU05 '%s' exceeds 5 bits", b->text, b->len);
        in->tid = (uint16_t)(b->num << 8 | a->num);
        in->legacy_tid = 1;
    }
    m->i += count;
    return TV_OK;
}

static unsigned count_nums(const matcher *m)
{
    unsigned k = 0;
    while (m->i + k < m->n && m->ops[m->i + k].kind == OK_NUM)
        k++;
    return k;
}

static tv_status match_operands(matcher *m, tv_sass_insn *in)
{
    const sass_op_info *op = &sass_ops[in->op];
    tv_status s;
    if (op->has_pd && peek(m, OK_PRED))
        in->pd = (uint8_t)m->ops[m->i++].num;
    if (op->scalar && (s = want_reg(m, &in->rd2, "the first destination (Rd1)")))
        return s;
    if ((s = want_reg(m, &in->rd, "Rd")) || (s = want_reg(m, &in->ra, "Ra")))
        return s;
    if (op->has_rb && peek(m, OK_REG))
        in->rb = (uint8_t)m->ops[m->i++].num;
    if (in->op == TV_SASS_TXQ) {
        if (m->i >= m->n)
            return perr(m->c, m->c->pos, "query expected%s", "", 0);
        const opnd *q = &m->ops[m->i++];
        bool ok = false;
        if (q->kind == OK_NUM && q->num <= 0x3f) {
            in->query = (uint8_t)q->num;
            ok = true;
        }
        for (size_t i = 0; i < sass_num_query_names && q->kind == OK_NAME; i++)
            if (ieq(q->text, q->len, sass_query_names[i].name)) {
                in->query = sass_query_names[i].value;
                ok = true;
            }
        if (!ok)
            return perr(m->c, q->col - 1, "unknown query '%s'", q->text, q->len);
        unsigned k = count_nums(m);
        bool name_mask = m->i + k < m->n && m->ops[m->i + k].kind == OK_NAME;
        unsigned tids = name_mask ? k : (k == 3 ? 2 : 1);
        if (k == 0 || tids > 2 || (!name_mask && k > 3))
            return perr(m->c, m->i < m->n ? m->ops[m->i].col - 1 : m->c->pos,
                        "expected #tsPtrIdxU13 (or #tidU08, #smpU05) and #wmskU04%s", "", 0);
        if ((s = tid_operands(m, in, tids)))
            return s;
        if (m->i < m->n && (s = mask_operand(m, op, in)))
            return s;
    } else {
        unsigned k = count_nums(m);
        if (k == 0 || k > 2)
            return perr(m->c, m->i < m->n ? m->ops[m->i].col - 1 : m->c->pos,
                        "expected #tsPtrIdxU13 or #tidU08, #smpU05%s", "", 0);
        if ((s = tid_operands(m, in, k)))
            return s;
        if (op->has_type) {
            const opnd *t = m->i < m->n ? &m->ops[m->i] : NULL;
            bool ok = false;
            for (size_t i = 0; t && t->kind == OK_NAME && i < sass_num_type_names; i++)
                if (ieq(t->text, t->len, sass_type_names[i].name)) {
                    in->type = sass_type_names[i].value;
                    ok = true;
                }
            if (!ok)
                return perr(m->c, t ? t->col - 1 : m->c->pos,
                            "texture type expected (1D, 2D, 3D, CUBE, ARRAY_1D, ARRAY_2D, "
                            "ARRAY_CUBE)%s", "", 0);
            m->i++;
        }
        if (op->mask_kind && (s = mask_operand(m, op, in)))
            return s;
    }
    if (m->i < m->n)
        return perr(m->c, m->ops[m->i].col - 1, "unexpected operand '%s'", m->ops[m->i].text,
                    m->ops[m->i].len);
    return TV_OK;
}

tv_status tv_sass_parse(const char *text, tv_sass_insn *in, tv_error *err)
{
    if (!text || !in)
        return tv_error_set(err, TV_ERR_ARG, 0, 0, "tv_sass_parse: NULL argument");
    cursor c = {text, 0, err};
    tv_sass_insn_init(in, TV_SASS_TEX);
    if (!skip(&c))
        return perr(&c, c.pos, "unterminated comment%s", "", 0);
    tv_status s;
    if (text[c.pos] == '@') {
        if ((s = parse_guard(&c, in)))
            return s;
        if (!skip(&c))
            return perr(&c, c.pos, "unterminated comment%s", "", 0);
    }
    if ((s = parse_opcode(&c, in)))
        return s;
    if (text[c.pos] && !isspace((unsigned char)text[c.pos]) && text[c.pos] != ';')
        return perr(&c, c.pos, "unexpected character '%s' after the instruction name",
                    text + c.pos, 1);
    opnd ops[MAX_OPNDS];
    unsigned n;
    if ((s = parse_operands(&c, ops, &n)))
        return s;
    matcher m = {&c, ops, n, 0};
    if ((s = match_operands(&m, in)))
        return s;
    if ((s = parse_annotations(&c, in)))
        return s;
    if (text[c.pos] == ';')
        c.pos++;
    if (!skip(&c))
        return perr(&c, c.pos, "unterminated comment%s", "", 0);
    if (text[c.pos])
        return perr(&c, c.pos, "unexpected text '%s'", text + c.pos, strlen(text + c.pos));
    if (in->legacy_tid && in->bindless)
        return tv_error_set(err, TV_ERR_INVALID, 0, 0,
                            "%s: the #tidU08, #smpU05 form is not used with .B",
                            sass_ops[in->op].name);
    return tv_sass_validate(in, err);
}
