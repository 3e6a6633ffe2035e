/* TGSI text -> program objects.
 *
 * A hand-written scanner over the whole text: Mesa 22.3's grammar (shared/reference/
 * tgsi-text.md) plus the extensions in docs/tgsi-text.md (CR/CRLF, `;` and `//` comments,
 * `_PRECISE`, raw-bit FLT32/FLT64 hex, several programs per file, legacy mode). Every
 * error is a tv_error with file:line:column and the offending text; nothing is printed.
 * Every array is bounded; the parser never reads past `len` (the text may hold NULs). */
#include "tgsi/tgsi_internal.h"
#include "util/error.h"

#include <ctype.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_INDEX 0x7fffffff

/* Legacy mode: operands that point at a synthesized immediate or temporary, filled in
 * when the program ends (their indices are known only then). */
enum { FIX_IMM_SRC, FIX_TEMP_DST, FIX_TEMP_SRC };
typedef struct fixup {
    uint32_t insn;
    uint8_t kind, operand;
} fixup;

typedef struct parser {
    const char *s;
    size_t n, p;
    uint32_t line;     /* line of position p */
    size_t line_start; /* offset where that line starts */
    const char *filename;
    tv_tgsi_mode mode;
    tv_error *err;
    bool failed;
    bool nomem;
    /* output */
    tv_tgsi_program *progs;
    size_t nprogs, cap_progs;
    tv_tgsi_program *cur;
    uint32_t cap_props, cap_decls, cap_imms, cap_insns, cap_stmts;
    /* legacy: operands that must point at a synthesized zero immediate */
    fixup *fix;
    uint32_t nfix, cap_fix;
    bool need_imm, need_temp;
    uint32_t *xpd; /* instruction numbers (as written) of expanded XPDs */
    uint32_t nxpd, cap_xpd;
} parser;

/* ---- errors ------------------------------------------------------------------------- */

static void pos_of(const parser *c, size_t at, uint32_t *line, uint32_t *col)
{
    uint32_t l = 1;
    size_t ls = 0;
    if (at > c->n)
        at = c->n;
    for (size_t i = 0; i < at; i++) {
        if (c->s[i] == '\n' || (c->s[i] == '\r' && (i + 1 >= c->n || c->s[i + 1] != '\n'))) {
            l++;
            ls = i + 1;
        }
    }
    *line = l;
    *col = (uint32_t)(at - ls + 1);
}

static bool is_word_char(int ch) { return ch >= 0 && (isalnum(ch) || ch == '_'); }

/* Length of the "token" at `at` for error excerpts: a word, or one character. */
static size_t token_len(const parser *c, size_t at)
{
    if (at >= c->n)
        return 0;
    size_t e = at;
    while (e < c->n && is_word_char((unsigned char)c->s[e]))
        e++;
    if (e == at && c->s[at] != '\n' && c->s[at] != '\r')
        e = at + 1;
    return e - at;
}

static void set_text(tv_error *e, const char *s, size_t len)
{
    size_t k = 0;
    for (size_t i = 0; i < len && k + 1 < sizeof e->text; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (ch == '\n' || ch == '\r')
            break;
        e->text[k++] = (ch < 0x20 || ch >= 0x7f) && ch != '\t' ? '?' : (char)ch;
    }
    e->text[k] = '\0';
}

static bool fail_at(parser *c, size_t at, size_t len, const char *fmt, ...) TV_PRINTF(4, 5);
static bool fail_at(parser *c, size_t at, size_t len, const char *fmt, ...)
{
    if (c->failed)
        return false;
    c->failed = true;
    if (!c->err)
        return false;
    tv_error *e = c->err;
    memset(e, 0, sizeof *e);
    e->code = TV_ERR_PARSE;
    if (c->filename)
        snprintf(e->file, sizeof e->file, "%s", c->filename);
    pos_of(c, at, &e->line, &e->column);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->message, sizeof e->message, fmt, ap);
    va_end(ap);
    if (at < c->n)
        set_text(e, c->s + at, len ? len : token_len(c, at));
    return false;
}

static bool fail_nomem(parser *c)
{
    c->nomem = true;
    if (!c->failed) {
        c->failed = true;
        tv_error_set(c->err, TV_ERR_NOMEM, 0, 0, "out of memory while parsing TGSI");
    }
    return false;
}

/* Quote a piece of the input for a message: at most 40 printable characters. */
static const char *q(const parser *c, size_t at, size_t len, char buf[48])
{
    size_t k = 0;
    if (len > 40)
        len = 40;
    for (size_t i = 0; i < len && at + i < c->n; i++) {
        unsigned char ch = (unsigned char)c->s[at + i];
        if (ch == '\n' || ch == '\r')
            break;
        buf[k++] = (ch < 0x20 || ch >= 0x7f) ? '?' : (char)ch;
    }
    buf[k] = '\0';
    return buf;
}

/* ---- scanning ----------------------------------------------------------------------- */

static int peek(const parser *c) { return c->p < c->n ? (unsigned char)c->s[c->p] : -1; }
static int peek_at(const parser *c, size_t k)
{
    return c->p + k < c->n ? (unsigned char)c->s[c->p + k] : -1;
}
static bool at_eol(const parser *c)
{
    int ch = peek(c);
    return ch < 0 || ch == '\n' || ch == '\r';
}
static bool at_comment(const parser *c)
{
    int ch = peek(c);
    return ch == ';' || (ch == '/' && peek_at(c, 1) == '/');
}

/* Spaces, tabs and a trailing comment; stops at a line end. */
static void skip_sp(parser *c)
{
    for (;;) {
        int ch = peek(c);
        if (ch == ' ' || ch == '\t' || ch == '\v' || ch == '\f') {
            c->p++;
        } else if (at_comment(c)) {
            while (!at_eol(c))
                c->p++;
        } else {
            return;
        }
    }
}

static void skip_newline(parser *c)
{
    if (peek(c) == '\r') {
        c->p++;
        if (peek(c) == '\n')
            c->p++;
    } else if (peek(c) == '\n') {
        c->p++;
    }
    c->line++;
    c->line_start = c->p;
}

/* Spaces, comments and line ends. */
static void skip_ws(parser *c)
{
    for (;;) {
        skip_sp(c);
        if (c->p < c->n && (peek(c) == '\n' || peek(c) == '\r'))
            skip_newline(c);
        else
            return;
    }
}

static size_t word_len(const parser *c)
{
    size_t e = c->p;
    while (e < c->n && is_word_char((unsigned char)c->s[e]))
        e++;
    return e - c->p;
}

static bool word_is(const parser *c, size_t at, size_t len, const char *w)
{
    size_t wl = strlen(w);
    if (wl != len)
        return false;
    for (size_t i = 0; i < len; i++)
        if (toupper((unsigned char)c->s[at + i]) != (unsigned char)w[i])
            return false;
    return true;
}

static bool expect_char(parser *c, int ch, const char *what)
{
    skip_sp(c);
    if (peek(c) != ch) {
        char b[48];
        if (at_eol(c))
            return fail_at(c, c->p, 0, "expected %s, found the end of the line", what);
        return fail_at(c, c->p, 0, "expected %s, found `%s`", what,
                       q(c, c->p, token_len(c, c->p), b));
    }
    c->p++;
    return true;
}

/* Unsigned decimal number (register indices, label targets, counts). */
static bool parse_uint(parser *c, uint64_t max, uint64_t *out, const char *what)
{
    skip_sp(c);
    size_t start = c->p;
    if (peek(c) < 0 || !isdigit(peek(c))) {
        char b[48];
        if (peek(c) == '-' && peek_at(c, 1) >= 0 && isdigit(peek_at(c, 1)))
            return fail_at(c, c->p, 0, "%s cannot be negative", what);
        if (at_eol(c))
            return fail_at(c, c->p, 0, "expected %s, found the end of the line", what);
        return fail_at(c, c->p, 0, "expected %s, found `%s`", what,
                       q(c, c->p, token_len(c, c->p), b));
    }
    uint64_t v = 0;
    bool over = false;
    while (peek(c) >= 0 && isdigit(peek(c))) {
        v = v * 10 + (uint64_t)(peek(c) - '0');
        if (v > max)
            over = true;
        if (v > UINT64_MAX / 16)
            v = UINT64_MAX / 16;
        c->p++;
    }
    if (is_word_char(peek(c))) {
        char b[48];
        while (is_word_char(peek(c)))
            c->p++;
        return fail_at(c, start, c->p - start, "invalid number `%s`",
                       q(c, start, c->p - start, b));
    }
    if (over) {
        char b[48];
        return fail_at(c, start, c->p - start, "%s `%s` is too large (at most %llu)", what,
                       q(c, start, c->p - start, b), (unsigned long long)max);
    }
    *out = v;
    return true;
}

/* ---- program building --------------------------------------------------------------- */

#define GROW(c, arr, count, cap)                                                            \
    do {                                                                                    \
        if ((count) >= (cap)) {                                                             \
            uint32_t ncap = (cap) ? (cap) * 2 : 16;                                         \
            void *np = realloc((arr), (size_t)ncap * sizeof *(arr));                        \
            if (!np)                                                                        \
                return fail_nomem(c);                                                       \
            (arr) = np;                                                                     \
            (cap) = ncap;                                                                   \
        }                                                                                   \
    } while (0)

static bool add_stmt(parser *c, uint8_t kind, uint32_t index)
{
    tv_tgsi_program *pr = c->cur;
    GROW(c, pr->stmts, pr->num_stmts, c->cap_stmts);
    pr->stmts[pr->num_stmts].kind = kind;
    pr->stmts[pr->num_stmts].index = index;
    pr->num_stmts++;
    return true;
}

static bool add_fixup(parser *c, uint32_t insn, uint8_t kind, uint8_t operand)
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
    if (!add_stmt(c, kind, index))
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
static bool finish_program(parser *c)
{
    tv_tgsi_program *pr = c->cur;
    if (!pr)
        return true;
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
        if (last >= MAX_INDEX)
            return fail_at(c, c->p, 0, "no TEMP register left for the legacy XPD expansion");
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
    c->cur = NULL;
    return true;
}

static bool start_program(parser *c, unsigned proc)
{
    if (!finish_program(c))
        return false;
    if (c->nprogs >= c->cap_progs) {
        size_t ncap = c->cap_progs ? c->cap_progs * 2 : 4;
        void *np = realloc(c->progs, ncap * sizeof *c->progs);
        if (!np)
            return fail_nomem(c);
        c->progs = np;
        c->cap_progs = ncap;
    }
    c->cur = &c->progs[c->nprogs++];
    memset(c->cur, 0, sizeof *c->cur);
    c->cur->processor = (uint8_t)proc;
    c->cur->first_line = c->line;
    c->cap_props = c->cap_decls = c->cap_imms = c->cap_insns = c->cap_stmts = 0;
    return true;
}

/* ---- legacy and removed names ------------------------------------------------------- */

static bool fail_unknown_file(parser *c, size_t at, size_t len)
{
    char b[48];
    q(c, at, len, b);
    if (word_is(c, at, len, "RES"))
        return fail_at(c, at, len,
                       "the `RES` register file was removed from TGSI (legacy compute.c "
                       "syntax): declare BUFFER, IMAGE or MEMORY instead");
    if (word_is(c, at, len, "TEMPX") || word_is(c, at, len, "IMMX"))
        return fail_at(c, at, len,
                       "the `%s` register file was removed from TGSI (legacy graw syntax, "
                       "not supported even with --legacy): use TEMP/IMM with ARRAY "
                       "declarations",
                       b);
    if (word_is(c, at, len, "RLOCAL") || word_is(c, at, len, "RGLOBAL") ||
        word_is(c, at, len, "RINPUT") || word_is(c, at, len, "RPRIVATE"))
        return fail_at(c, at, len,
                       "`%s` is a legacy compute.c resource name, not a TGSI register "
                       "file: use MEMORY[n] declared SHARED, GLOBAL, INPUT or PRIVATE",
                       b);
    if (len == 0)
        return fail_at(c, at, 0, "expected a register file (TEMP, IN, OUT, CONST, IMM, ...)");
    return fail_at(c, at, len, "unknown register file `%s`", b);
}

typedef struct legacy_op {
    const char *name;
    const char *modern; /* replacement opcode in legacy mode, NULL = never accepted */
    const char *hint;
} legacy_op;

static const legacy_op legacy_ops[] = {
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

/* ---- operands ----------------------------------------------------------------------- */

static bool parse_file_word(parser *c, uint8_t *file)
{
    skip_sp(c);
    size_t at = c->p, len = word_len(c);
    int f = len ? tvt_lookup(tvt_file_names, TV_FILE_COUNT, c->s + at, len) : -1;
    if (f < 0)
        return fail_unknown_file(c, at, len);
    c->p += len;
    *file = (uint8_t)f;
    return true;
}

static int swz_of(int ch)
{
    switch (ch) {
    case 'x': case 'X': return 0;
    case 'y': case 'Y': return 1;
    case 'z': case 'Z': return 2;
    case 'w': case 'W': return 3;
    default: return -1;
    }
}

/* One bracket's contents: `N`, or `FILE[N].c`, `FILE[N].c+K`, `FILE[N].c-K`. */
static bool parse_index(parser *c, int32_t *index, bool *indirect, tv_tgsi_indirect *ind)
{
    skip_sp(c);
    *indirect = false;
    if (peek(c) >= 0 && isdigit(peek(c))) {
        uint64_t v;
        if (!parse_uint(c, MAX_INDEX, &v, "register index"))
            return false;
        *index = (int32_t)v;
        return true;
    }
    if (peek(c) == '-' && isdigit(peek_at(c, 1)))
        return fail_at(c, c->p, 0, "register indices cannot be negative");
    if (!is_word_char(peek(c))) {
        char b[48];
        if (at_eol(c))
            return fail_at(c, c->p, 0, "expected a register index, found the end of the line");
        return fail_at(c, c->p, 0, "expected a register index, found `%s`",
                       q(c, c->p, token_len(c, c->p), b));
    }
    *indirect = true;
    memset(ind, 0, sizeof *ind);
    if (!parse_file_word(c, &ind->file))
        return false;
    if (!expect_char(c, '[', "`[` after the indirect register file"))
        return false;
    uint64_t v;
    if (!parse_uint(c, MAX_INDEX, &v, "register index"))
        return false;
    ind->index = (int32_t)v;
    if (!expect_char(c, ']', "`]`"))
        return false;
    if (peek(c) == '(') { /* array id of the address register */
        c->p++;
        if (!parse_uint(c, MAX_INDEX, &v, "array id") || !expect_char(c, ')', "`)`"))
            return false;
        ind->array_id = (uint32_t)v;
    }
    skip_sp(c);
    ind->component = 0;
    if (peek(c) == '.') {
        c->p++;
        size_t at = c->p, len = word_len(c);
        if (len != 1 || swz_of(c->s[at]) < 0) {
            char b[48];
            return fail_at(c, at, len,
                           "an indirect index takes one component (`.x`, `.y`, `.z` or "
                           "`.w`), found `.%s`",
                           q(c, at, len, b));
        }
        ind->component = (uint8_t)swz_of(c->s[at]);
        c->p++;
    }
    skip_sp(c);
    *index = 0;
    if (peek(c) == '+' || peek(c) == '-') {
        size_t sign_at = c->p;
        bool neg = peek(c) == '-';
        c->p++;
        if (peek(c) == ' ' || peek(c) == '\t') {
            if (c->mode != TV_TGSI_MODE_LEGACY) {
                skip_sp(c);
                return fail_at(c, sign_at, c->p - sign_at + word_len(c),
                               "spaces inside an indirect index (`%c %.*s`) are legacy syntax: "
                               "write `%c%.*s`, or use legacy mode (--legacy)",
                               neg ? '-' : '+', (int)(word_len(c) > 12 ? 12 : word_len(c)),
                               c->s + c->p, neg ? '-' : '+',
                               (int)(word_len(c) > 12 ? 12 : word_len(c)), c->s + c->p);
            }
            skip_sp(c);
        }
        if (!parse_uint(c, MAX_INDEX, &v, "index offset"))
            return false;
        *index = neg ? -(int32_t)v : (int32_t)v;
    }
    return true;
}

static bool parse_bracket(parser *c, int32_t *index, bool *indirect, tv_tgsi_indirect *ind,
                          uint32_t *array_id)
{
    if (!parse_index(c, index, indirect, ind))
        return false;
    if (!expect_char(c, ']', "`]`"))
        return false;
    *array_id = 0;
    if (peek(c) == '(') {
        uint64_t v;
        c->p++;
        if (!parse_uint(c, MAX_INDEX, &v, "array id") || !expect_char(c, ')', "`)`"))
            return false;
        *array_id = (uint32_t)v;
    }
    return true;
}

static bool parse_reg(parser *c, tv_tgsi_reg *r)
{
    memset(r, 0, sizeof *r);
    if (!parse_file_word(c, &r->file))
        return false;
    skip_sp(c);
    if (peek(c) != '[')
        return fail_at(c, c->p, 0, "expected `[` after `%s`", tvt_file_names[r->file]);
    c->p++;
    int32_t i0;
    bool ind0;
    tv_tgsi_indirect in0;
    uint32_t a0;
    if (!parse_bracket(c, &i0, &ind0, &in0, &a0))
        return false;
    if (peek(c) == '[') {
        c->p++;
        int32_t i1;
        bool ind1;
        tv_tgsi_indirect in1;
        uint32_t a1;
        if (!parse_bracket(c, &i1, &ind1, &in1, &a1))
            return false;
        r->has_dim = true;
        r->dim = i0;
        r->dim_indirect = ind0;
        if (ind0) {
            r->dim_ind = in0;
            r->dim_ind.array_id = a0 ? a0 : in0.array_id;
        }
        r->index = i1;
        r->indirect = ind1;
        if (ind1)
            r->ind = in1;
        r->array_id = a1;
        if (ind1 && a1)
            r->ind.array_id = a1;
    } else {
        r->index = i0;
        r->indirect = ind0;
        if (ind0)
            r->ind = in0;
        r->array_id = a0;
        if (ind0 && a0)
            r->ind.array_id = a0;
    }
    return true;
}

static bool parse_writemask(parser *c, uint8_t *mask)
{
    *mask = 0xf;
    if (peek(c) != '.')
        return true;
    c->p++;
    size_t at = c->p, len = word_len(c);
    uint8_t m = 0;
    int last = -1;
    bool ok = len >= 1 && len <= 4;
    for (size_t i = 0; ok && i < len; i++) {
        int s = swz_of(c->s[at + i]);
        if (s <= last)
            ok = false;
        else
            m |= (uint8_t)(1u << s), last = s;
    }
    if (!ok) {
        char b[48];
        return fail_at(c, at, len,
                       "invalid write mask `.%s`: use letters of xyzw, in that order", 
                       q(c, at, len, b));
    }
    c->p += len;
    *mask = m;
    return true;
}

static bool parse_dst(parser *c, tv_tgsi_dst *d)
{
    memset(d, 0, sizeof *d);
    if (!parse_reg(c, &d->reg))
        return false;
    skip_sp(c);
    return parse_writemask(c, &d->writemask);
}

static bool parse_swizzle4(parser *c, uint8_t swz[4])
{
    for (int i = 0; i < 4; i++)
        swz[i] = (uint8_t)i;
    if (peek(c) != '.')
        return true;
    c->p++;
    size_t at = c->p, len = word_len(c);
    char b[48];
    for (size_t i = 0; i < len; i++)
        if (swz_of(c->s[at + i]) < 0 || i >= 4)
            return fail_at(c, at, len, "invalid swizzle `.%s`: use 4 letters of xyzw",
                           q(c, at, len, b));
    if (len != 4) {
        if (len == 0)
            return fail_at(c, at, 0, "expected a swizzle after `.`");
        char rep[5] = {0};
        for (int i = 0; i < 4; i++)
            rep[i] = (char)tolower((unsigned char)c->s[at + (i < (int)len ? (size_t)i : len - 1)]);
        return fail_at(c, at, len,
                       "a source swizzle needs 4 components: `.%s` is not allowed (write `.%s`)",
                       q(c, at, len, b), rep);
    }
    for (int i = 0; i < 4; i++)
        swz[i] = (uint8_t)swz_of(c->s[at + (size_t)i]);
    c->p += 4;
    return true;
}

static bool parse_src(parser *c, tv_tgsi_src *s)
{
    memset(s, 0, sizeof *s);
    skip_sp(c);
    if (peek(c) == '-') {
        s->negate = true;
        c->p++;
        skip_sp(c);
    }
    size_t bar = c->p;
    if (peek(c) == '|') {
        s->absolute = true;
        c->p++;
        skip_sp(c);
    }
    if (!parse_reg(c, &s->reg))
        return false;
    skip_sp(c);
    if (!parse_swizzle4(c, s->swizzle))
        return false;
    if (s->absolute) {
        skip_sp(c);
        if (peek(c) != '|')
            return fail_at(c, bar, 1, "`|` opened here is not closed");
        c->p++;
    }
    return true;
}

static bool parse_texoffset(parser *c, tv_tgsi_texoffset *o)
{
    memset(o, 0, sizeof *o);
    skip_sp(c);
    size_t at = c->p;
    if (!parse_file_word(c, &o->file))
        return false;
    if (!expect_char(c, '[', "`[`"))
        return false;
    uint64_t v;
    if (!parse_uint(c, MAX_INDEX, &v, "register index") || !expect_char(c, ']', "`]`"))
        return false;
    o->index = (int32_t)v;
    skip_sp(c);
    size_t sat = c->p + 1, len = 0;
    if (peek(c) == '.') {
        c->p++;
        len = word_len(c);
    }
    bool ok = len == 3;
    for (size_t i = 0; ok && i < 3; i++)
        ok = swz_of(c->s[sat + i]) >= 0;
    if (!ok) {
        char b[48];
        return fail_at(c, at, c->p + len - at,
                       "a texture offset needs a register and a 3-letter swizzle, e.g. "
                       "`IMM[0].xyz`, found `%s`",
                       q(c, at, c->p + len - at, b));
    }
    for (int i = 0; i < 3; i++)
        o->swizzle[i] = (uint8_t)swz_of(c->s[sat + (size_t)i]);
    c->p += 3;
    return true;
}

/* ---- instructions ------------------------------------------------------------------- */

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

static bool expand_xpd(parser *c, uint32_t ii)
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
            return fail_nomem(c);
        pr->insns = np;
        c->cap_insns = ncap;
    }
    tv_tgsi_instruction *mul = &pr->insns[ii], *mad = mul + 1, *mov = mul + 2;
    *mul = x;
    mul->saturate = false;
    mul->dst[0].reg.file = TV_FILE_TEMP;
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
        if (!add_fixup(c, ii + 1, FIX_TEMP_SRC, 2))
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
        if (!add_fixup(c, ii + 2, FIX_IMM_SRC, 0))
            return false;
    }
    if (!add_fixup(c, ii, FIX_TEMP_DST, 0))
        return false;
    for (uint32_t k = 0; k < 3; k++) {
        pr->num_insns++;
        if (!add_stmt(c, TV_STMT_INSN, ii + k))
            return false;
    }
    return true;
}

static bool parse_instruction(parser *c, size_t start)
{
    tv_tgsi_program *pr = c->cur;
    size_t at = c->p, len = word_len(c);
    char b[48];
    if (len == 0) {
        if (at_eol(c))
            return fail_at(c, at, 0, "expected an instruction after the instruction number");
        return fail_at(c, at, 0, "expected `DCL`, `IMM`, `PROPERTY` or an instruction, found `%s`",
                       q(c, at, token_len(c, at), b));
    }
    /* opcode, then _SAT, then _PRECISE */
    size_t base = len;
    bool sat = false, precise = false;
    const tv_tgsi_opinfo *info = tv_tgsi_opinfo_find(c->s + at, base);
    if (!info && base > 8 && word_is(c, at + base - 8, 8, "_PRECISE")) {
        base -= 8;
        precise = true;
        info = tv_tgsi_opinfo_find(c->s + at, base);
    }
    if (!info && base > 4 && word_is(c, at + base - 4, 4, "_SAT")) {
        base -= 4;
        sat = true;
        info = tv_tgsi_opinfo_find(c->s + at, base);
    }
    const legacy_op *leg = NULL;
    if (!info) {
        for (size_t i = 0; i < sizeof legacy_ops / sizeof legacy_ops[0]; i++)
            if (word_is(c, at, base, legacy_ops[i].name))
                leg = &legacy_ops[i];
        if (!leg && len > 12 && word_is(c, at + len - 12, 12, "_PRECISE_SAT"))
            return fail_at(c, at, len, "`%s`: write `_SAT` before `_PRECISE` (`%.*s_SAT_PRECISE`)",
                           q(c, at, len, b), (int)(len - 12 > 30 ? 30 : len - 12), c->s + at);
        if (!leg) {
            if (word_is(c, at, len, "END") == false && pr->num_insns == 0 &&
                tvt_lookup(tvt_file_names, TV_FILE_COUNT, c->s + at, len) >= 0)
                return fail_at(c, at, len, "expected `DCL`, `IMM`, `PROPERTY` or an instruction, "
                               "found the register file `%s`", q(c, at, len, b));
            return fail_at(c, at, len, "unknown opcode `%s`", q(c, at, len, b));
        }
        if (!leg->modern || c->mode != TV_TGSI_MODE_LEGACY) {
            if (leg->modern)
                return fail_at(c, at, len,
                               "`%s` was removed from TGSI (legacy syntax): %s, or use "
                               "legacy mode (--legacy)",
                               q(c, at, base, b), leg->hint);
            return fail_at(c, at, len, "`%s` was removed from TGSI%s%s%s", q(c, at, base, b),
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
                    return fail_at(c, at, len, "`%s` takes %s, found %u", info->name, desc, i);
                return fail_at(c, c->p, 0, "expected `,` between operands, found `%s`",
                               q(c, c->p, token_len(c, c->p), b));
            }
            c->p++;
            skip_ws(c);
        } else if (at_eol(c) || peek(c) == ':') {
            if (legacy_stream) {
                /* operand-less EMIT/ENDPRIM: stream 0 from a synthesized immediate */
                tv_tgsi_src *s = &in->src[0];
                memset(s, 0, sizeof *s);
                s->reg.file = TV_FILE_IMM;
                if (!add_fixup(c, ii, FIX_IMM_SRC, 0))
                    return false;
                break;
            }
            describe_operands(info, desc, sizeof desc);
            if (info->opcode == TV_TGSI_OP_EMIT || info->opcode == TV_TGSI_OP_ENDPRIM)
                return fail_at(c, at, len,
                               "`%s` takes %s, found 0 (operand-less `%s` is legacy syntax: "
                               "write `%s IMM[n].xxxx` with a zero immediate, or use legacy "
                               "mode (--legacy))",
                               info->name, desc, info->name, info->name);
            return fail_at(c, at, len, "`%s` takes %s, found 0", info->name, desc);
        } else if (c->p == at + len) {
            return fail_at(c, c->p, 0, "expected a space after `%s`", q(c, at, len, b));
        }
        if (i < nd) {
            if (!parse_dst(c, &in->dst[i]))
                return false;
        } else if (!parse_src(c, &in->src[i - nd])) {
            return false;
        }
    }
    if (leg && info->opcode == TV_TGSI_OP_ADD) /* SUB d, a, b -> ADD d, a, -b */
        in->src[1].negate = !in->src[1].negate;
    if (leg && info->opcode == TV_TGSI_OP_MOV) { /* ABS d, a -> MOV d, |a| */
        in->src[0].absolute = true;
        in->src[0].negate = false;
    }

    skip_sp(c);
    if (info->flags & TV_OPF_TEX) {
        if (peek(c) != ',') {
            describe_operands(info, desc, sizeof desc);
            return fail_at(c, at_eol(c) ? at : c->p, at_eol(c) ? len : 0,
                           "`%s` takes %s: the texture target (e.g. `2D`) is missing",
                           info->name, desc);
        }
        c->p++;
        skip_sp(c);
        size_t tat = c->p, tlen = word_len(c);
        int t = tlen ? tvt_lookup(tvt_target_names, TV_TGT_COUNT, c->s + tat, tlen) : -1;
        if (t < 0) {
            if (tlen && word_is(c, tat, tlen, "CUBE_ARRAY"))
                return fail_at(c, tat, tlen, "unknown texture target `%s` (TGSI spells it "
                               "`CUBEARRAY`)", q(c, tat, tlen, b));
            if (tlen && word_is(c, tat, tlen, "SHADOWCUBE_ARRAY"))
                return fail_at(c, tat, tlen, "unknown texture target `%s` (TGSI spells it "
                               "`SHADOWCUBEARRAY`)", q(c, tat, tlen, b));
            return fail_at(c, tat, tlen, "expected a texture target (1D, 2D, 3D, CUBE, RECT, "
                           "2D_ARRAY, CUBEARRAY, SHADOW2D, ...), found `%s`",
                           q(c, tat, token_len(c, tat), b));
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
                return fail_at(c, c->p, 0, "too many texture offsets (at most %d)",
                               TV_TGSI_MAX_TEXOFFSETS);
            if (!parse_texoffset(c, &in->tex_offsets[in->num_tex_offsets]))
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
                return fail_at(c, wat, wl,
                               "expected a memory qualifier (COHERENT, RESTRICT, VOLATILE, "
                               "STREAM_CACHE_POLICY), a texture target or a PIPE_FORMAT, found "
                               "`%s`",
                               q(c, wat, token_len(c, wat), b));
            }
            c->p += wl;
        } else {
            describe_operands(info, desc, sizeof desc);
            return fail_at(c, cat, 0, "too many operands: `%s` takes %s", info->name, desc);
        }
    }
    if (peek(c) == ':') {
        if (!(info->flags & TV_OPF_BRANCH))
            return fail_at(c, c->p, 0,
                           "`%s` cannot take a `:label` (only IF, UIF, ELSE, BGNLOOP, ENDLOOP "
                           "and CAL do)",
                           info->name);
        c->p++;
        uint64_t v;
        if (!parse_uint(c, 0xffffffffu, &v, "a label (an instruction number)"))
            return false;
        in->has_label = true;
        in->label = (uint32_t)v;
    }
    if (leg && !strcmp(leg->name, "XPD"))
        return expand_xpd(c, ii);
    pr->num_insns++;
    return add_stmt(c, TV_STMT_INSN, ii);
}

/* ---- declarations ------------------------------------------------------------------- */

typedef struct range {
    bool empty; /* `[]` */
    int32_t first, last;
    size_t at;
} range;

static bool parse_range(parser *c, range *r)
{
    skip_sp(c);
    r->at = c->p;
    if (peek(c) == ']') {
        c->p++;
        r->empty = true;
        r->first = r->last = 0;
        return true;
    }
    r->empty = false;
    uint64_t a, b;
    if (!parse_uint(c, MAX_INDEX, &a, "register index"))
        return false;
    b = a;
    skip_sp(c);
    if (peek(c) == '.' && peek_at(c, 1) == '.') {
        c->p += 2;
        if (!parse_uint(c, MAX_INDEX, &b, "last register index"))
            return false;
        if (b < a) {
            char buf[48];
            return fail_at(c, r->at, c->p - r->at, "declaration range `[%s]` runs backwards",
                           q(c, r->at, c->p - r->at, buf));
        }
    }
    r->first = (int32_t)a;
    r->last = (int32_t)b;
    return expect_char(c, ']', "`]`");
}

static bool parse_declaration(parser *c)
{
    tv_tgsi_program *pr = c->cur;
    char b[48];
    GROW(c, pr->decls, pr->num_decls, c->cap_decls);
    uint32_t di = pr->num_decls;
    tv_tgsi_declaration *d = &pr->decls[di];
    memset(d, 0, sizeof *d);
    d->line = c->line;
    d->usage_mask = 0xf;
    d->sview_target = TV_TGT_UNKNOWN;
    d->image_target = TV_TGT_UNKNOWN;
    for (int i = 0; i < 4; i++)
        d->return_type[i] = TV_RET_FLOAT;
    skip_sp(c);
    if (!parse_file_word(c, &d->file))
        return false;
    if (!expect_char(c, '[', "`[` after the register file"))
        return false;
    range r0, r1;
    if (!parse_range(c, &r0))
        return false;
    bool two = false;
    if (peek(c) == '[') {
        c->p++;
        if (!parse_range(c, &r1))
            return false;
        two = true;
    }
    skip_sp(c);
    if (!parse_writemask(c, &d->usage_mask))
        return false;

    /* attributes, comma-separated, in Mesa's order or any other */
    int nret = 0;
    bool have_target = false, have_sem = false, have_loc = false;
    for (skip_sp(c); peek(c) == ','; skip_sp(c)) {
        c->p++;
        skip_ws(c);
        size_t at = c->p, len = word_len(c);
        int k;
        if (len == 0) {
            if (at_eol(c))
                return fail_at(c, at, 0, "expected a declaration attribute after `,`");
            return fail_at(c, at, 0, "expected a declaration attribute, found `%s`",
                           q(c, at, token_len(c, at), b));
        }
        c->p += len;
        if (word_is(c, at, len, "ARRAY")) {
            uint64_t v;
            if (!expect_char(c, '(', "`(` after ARRAY") ||
                !parse_uint(c, MAX_INDEX, &v, "array id") || !expect_char(c, ')', "`)`"))
                return false;
            if (v == 0)
                return fail_at(c, at, c->p - at, "array ids start at 1 (`ARRAY(0)` means none)");
            d->array_id = (uint32_t)v;
            continue;
        }
        switch (d->file) {
        case TV_FILE_SVIEW:
            if (!have_target && (k = tvt_lookup(tvt_target_names, TV_TGT_COUNT, c->s + at, len)) >= 0) {
                d->sview_target = (uint8_t)k;
                have_target = true;
                continue;
            }
            if (have_target && (k = tvt_lookup(tvt_return_type_names, TV_RET_COUNT, c->s + at, len)) >= 0) {
                if (nret >= 4)
                    return fail_at(c, at, len, "too many return types (at most 4)");
                d->return_type[nret++] = (uint8_t)k;
                continue;
            }
            if (!have_target)
                return fail_at(c, at, len, "expected a texture target for `DCL SVIEW`, found `%s`%s",
                               q(c, at, len, b),
                               word_is(c, at, len, "CUBE_ARRAY") ? " (TGSI spells it `CUBEARRAY`)" : "");
            return fail_at(c, at, len,
                           "unknown sampler-view return type `%s` (UNORM, SNORM, SINT, UINT or "
                           "FLOAT)",
                           q(c, at, len, b));
        case TV_FILE_IMAGE:
            if (!have_target && (k = tvt_lookup(tvt_target_names, TV_TGT_COUNT, c->s + at, len)) >= 0) {
                d->image_target = (uint8_t)k;
                have_target = true;
                continue;
            }
            if (word_is(c, at, len, "RAW")) {
                d->raw = true;
                continue;
            }
            if (word_is(c, at, len, "WR")) {
                d->writable = true;
                continue;
            }
            if ((k = tvt_pipe_format_lookup(c->s + at, len)) >= 0) {
                d->image_format = (uint16_t)k;
                continue;
            }
            if (!have_target)
                return fail_at(c, at, len, "expected a texture target for `DCL IMAGE`, found `%s`",
                               q(c, at, len, b));
            if (len > 12 && word_is(c, at, 12, "PIPE_FORMAT_"))
                return fail_at(c, at, len, "unknown image format `%s`", q(c, at, len, b));
            return fail_at(c, at, len,
                           "unexpected `%s` in an IMAGE declaration (expected RAW, WR or a "
                           "PIPE_FORMAT)",
                           q(c, at, len, b));
        case TV_FILE_BUFFER:
            if (word_is(c, at, len, "ATOMIC")) {
                d->atomic = true;
                continue;
            }
            return fail_at(c, at, len, "unexpected `%s` in a BUFFER declaration (expected ATOMIC)",
                           q(c, at, len, b));
        case TV_FILE_MEMORY:
            if ((k = tvt_lookup(tvt_memory_type_names, TV_MEM_COUNT, c->s + at, len)) >= 0) {
                d->memory_type = (uint8_t)k;
                continue;
            }
            return fail_at(c, at, len,
                           "unknown memory type `%s` (GLOBAL, SHARED, PRIVATE or INPUT)",
                           q(c, at, len, b));
        default:
            break;
        }
        if (word_is(c, at, len, "LOCAL")) {
            d->local = true;
            continue;
        }
        if (word_is(c, at, len, "INVARIANT")) {
            d->invariant = true;
            continue;
        }
        if (word_is(c, at, len, "STREAM")) {
            if (!expect_char(c, '(', "`(` after STREAM"))
                return false;
            for (int i = 0; i < 4; i++) {
                uint64_t v;
                if (i && !expect_char(c, ',', "`,` between stream numbers"))
                    return false;
                if (!parse_uint(c, 3, &v, "stream number"))
                    return false;
                d->stream[i] = (uint8_t)v;
            }
            if (!expect_char(c, ')', "`)`"))
                return false;
            d->has_stream = true;
            continue;
        }
        if (!have_sem && (k = tvt_lookup(tvt_semantic_names, TV_SEM_COUNT, c->s + at, len)) >= 0) {
            have_sem = true;
            d->has_semantic = true;
            d->semantic = (uint8_t)k;
            skip_sp(c);
            if (peek(c) == '[') {
                uint64_t v;
                c->p++;
                if (!parse_uint(c, 0xffffffffu, &v, "semantic index") || !expect_char(c, ']', "`]`"))
                    return false;
                d->semantic_index = (uint32_t)v;
            }
            continue;
        }
        if (!d->has_interp && (k = tvt_lookup(tvt_interp_names, TV_INTERP_COUNT, c->s + at, len)) >= 0) {
            d->has_interp = true;
            d->interp = (uint8_t)k;
            continue;
        }
        if (!have_loc && (k = tvt_lookup(tvt_location_names, TV_LOC_COUNT, c->s + at, len)) >= 0) {
            have_loc = true;
            d->location = (uint8_t)k;
            continue;
        }
        if (tvt_lookup(tvt_semantic_names, TV_SEM_COUNT, c->s + at, len) >= 0 ||
            tvt_lookup(tvt_interp_names, TV_INTERP_COUNT, c->s + at, len) >= 0 ||
            tvt_lookup(tvt_location_names, TV_LOC_COUNT, c->s + at, len) >= 0)
            return fail_at(c, at, len, "duplicate declaration attribute `%s`", q(c, at, len, b));
        return fail_at(c, at, len,
                       "unknown declaration attribute `%s` (expected a semantic, an "
                       "interpolation, a location, INVARIANT, LOCAL, ARRAY(n) or STREAM(...))",
                       q(c, at, len, b));
    }
    if (d->file == TV_FILE_SVIEW) {
        if (!have_target)
            return fail_at(c, c->p, 0,
                           "`DCL SVIEW` needs a texture target and a return type, e.g. "
                           "`DCL SVIEW[0], 2D, FLOAT`");
        if (nret == 0)
            return fail_at(c, c->p, 0,
                           "`DCL SVIEW` needs a return type after the target (UNORM, SNORM, "
                           "SINT, UINT or FLOAT)");
        if (nret < 4) /* as Mesa: with fewer than four, the first one applies to all */
            for (int i = 1; i < 4; i++)
                d->return_type[i] = d->return_type[0];
    }
    if (d->file == TV_FILE_IMAGE && !have_target)
        return fail_at(c, c->p, 0,
                       "`DCL IMAGE` needs a texture target, e.g. `DCL IMAGE[0], 2D, "
                       "PIPE_FORMAT_R32G32B32A32_FLOAT, WR`");

    /* registers: per-vertex files drop the vertex bracket (printed back as `[]`) */
    bool per_vertex = tvt_decl_is_per_vertex(pr->processor, d);
    range *reg = two ? &r1 : &r0;
    if (reg->empty)
        return fail_at(c, reg->at, 1, "a declaration needs a register index or range inside `[]`");
    if (two && !per_vertex) {
        if (r0.empty)
            return fail_at(c, r0.at, 1,
                           "`[]` is only allowed for per-vertex inputs and outputs (GEOM, "
                           "TESS_CTRL, TESS_EVAL)");
        if (r0.first != r0.last)
            return fail_at(c, r0.at, 0, "the dimension of a declaration is one index, not a range");
    }
    d->first = reg->first;
    d->last = reg->last;
    if (per_vertex) {
        d->has_dim = true;
        d->dim = 0;
        d->dim_implied = true;
    } else if (two) {
        d->has_dim = true;
        d->dim = r0.first;
    }
    pr->num_decls++;
    return add_stmt(c, TV_STMT_DECL, di);
}

/* ---- immediates --------------------------------------------------------------------- */

/* Convert a decimal float token with the C library, independent of LC_NUMERIC. The
 * whole token is converted, however long (a printed FLT64 can have 300+ digits).
 * Returns false when memory runs out. */
static bool to_double(const char *tok, size_t len, bool single, float *f, double *d)
{
    char small[512];
    char *buf = len < sizeof small ? small : malloc(len + 1);
    if (!buf)
        return false;
    memcpy(buf, tok, len);
    buf[len] = '\0';
    const struct lconv *lc = localeconv();
    char dp = lc && lc->decimal_point && lc->decimal_point[0] ? lc->decimal_point[0] : '.';
    if (dp != '.')
        for (size_t i = 0; i < len; i++)
            if (buf[i] == '.')
                buf[i] = dp;
    if (single)
        *f = strtof(buf, NULL);
    else
        *d = strtod(buf, NULL);
    if (buf != small)
        free(buf);
    return true;
}

/* Scan a decimal float: [sign] (digits [. digits] | . digits) [e [sign] digits]. */
static bool scan_decimal(parser *c, size_t *end)
{
    size_t p = c->p;
    if (p < c->n && (c->s[p] == '+' || c->s[p] == '-'))
        p++;
    size_t digits = 0;
    while (p < c->n && isdigit((unsigned char)c->s[p]))
        p++, digits++;
    if (p < c->n && c->s[p] == '.') {
        p++;
        while (p < c->n && isdigit((unsigned char)c->s[p]))
            p++, digits++;
    }
    if (!digits)
        return false;
    if (p < c->n && (c->s[p] == 'e' || c->s[p] == 'E')) {
        size_t e = p + 1;
        if (e < c->n && (c->s[e] == '+' || c->s[e] == '-'))
            e++;
        size_t ed = 0;
        while (e < c->n && isdigit((unsigned char)c->s[e]))
            e++, ed++;
        if (ed)
            p = e;
    }
    if (p < c->n && is_word_char((unsigned char)c->s[p]))
        return false;
    *end = p;
    return true;
}

static bool scan_hex(parser *c, unsigned maxdigits, uint64_t *v, bool *is_hex)
{
    *is_hex = false;
    if (!(peek(c) == '0' && (peek_at(c, 1) == 'x' || peek_at(c, 1) == 'X')))
        return true;
    size_t at = c->p, p = c->p + 2;
    uint64_t x = 0;
    unsigned nd = 0;
    while (p < c->n && isxdigit((unsigned char)c->s[p])) {
        int ch = tolower((unsigned char)c->s[p]);
        x = (x << 4) | (uint64_t)(isdigit(ch) ? ch - '0' : ch - 'a' + 10);
        p++;
        if (++nd > maxdigits)
            break;
    }
    while (p < c->n && is_word_char((unsigned char)c->s[p]))
        p++;
    char b[48];
    if (nd == 0 || nd > maxdigits || (p < c->n && c->s[p] == '.') ||
        !(p == at + 2 + nd))
        return fail_at(c, at, p - at,
                       "invalid hex value `%s`: write `0x` and at most %u hex digits (a raw "
                       "bit pattern)",
                       q(c, at, p - at, b), maxdigits);
    c->p = p;
    *v = x;
    *is_hex = true;
    return true;
}

static bool parse_imm_value(parser *c, uint8_t type, uint32_t *dw, bool *hex)
{
    skip_ws(c);
    size_t at = c->p;
    char b[48];
    uint64_t hv;
    bool is_hex;
    *hex = false;
    bool neg = false;
    bool wide = type >= TV_IMM_FLT64;
    if (!scan_hex(c, wide ? 16 : 8, &hv, &is_hex))
        return false;
    if (is_hex) {
        *hex = true;
        dw[0] = (uint32_t)hv;
        if (wide)
            dw[1] = (uint32_t)(hv >> 32);
        return true;
    }
    switch (type) {
    case TV_IMM_FLT32:
    case TV_IMM_FLT64: {
        size_t end;
        if (!scan_decimal(c, &end)) {
            size_t l = token_len(c, at);
            return fail_at(c, at, l, "expected a %s value, found `%s`", tvt_imm_type_names[type],
                           at_eol(c) ? "end of line" : q(c, at, l, b));
        }
        if (type == TV_IMM_FLT32) {
            float f;
            double unused;
            if (!to_double(c->s + at, end - at, true, &f, &unused))
                return fail_nomem(c);
            if (isinf(f))
                return fail_at(c, at, end - at, "`%s` is out of range for FLT32",
                               q(c, at, end - at, b));
            memcpy(dw, &f, 4);
        } else {
            float unused;
            double d;
            if (!to_double(c->s + at, end - at, false, &unused, &d))
                return fail_nomem(c);
            if (isinf(d))
                return fail_at(c, at, end - at, "`%s` is out of range for FLT64",
                               q(c, at, end - at, b));
            uint64_t u;
            memcpy(&u, &d, 8);
            dw[0] = (uint32_t)u;
            dw[1] = (uint32_t)(u >> 32);
        }
        c->p = end;
        return true;
    }
    default: {
        bool is_signed = type == TV_IMM_INT32 || type == TV_IMM_INT64;
        if (peek(c) == '-' || peek(c) == '+') {
            neg = peek(c) == '-';
            if (neg && !is_signed)
                return fail_at(c, at, 0, "a %s value cannot be negative",
                               tvt_imm_type_names[type]);
            c->p++;
        }
        if (peek(c) < 0 || !isdigit(peek(c))) {
            size_t l = token_len(c, at);
            c->p = at;
            return fail_at(c, at, l, "expected a %s value, found `%s`", tvt_imm_type_names[type],
                           at_eol(c) ? "end of line" : q(c, at, l, b));
        }
        uint64_t max = type == TV_IMM_UINT32 ? 0xffffffffull
                     : type == TV_IMM_INT32  ? (neg ? 0x80000000ull : 0x7fffffffull)
                     : type == TV_IMM_UINT64 ? UINT64_MAX
                     : (neg ? 0x8000000000000000ull : 0x7fffffffffffffffull);
        uint64_t v = 0;
        bool over = false;
        size_t dstart = c->p;
        while (peek(c) >= 0 && isdigit(peek(c))) {
            unsigned dgt = (unsigned)(peek(c) - '0');
            if (v > (max - dgt) / 10)
                over = true;
            else
                v = v * 10 + dgt;
            c->p++;
        }
        if (is_word_char(peek(c))) {
            while (is_word_char(peek(c)))
                c->p++;
            return fail_at(c, at, c->p - at, "invalid %s value `%s`", tvt_imm_type_names[type],
                           q(c, at, c->p - at, b));
        }
        if (over)
            return fail_at(c, at, c->p - at, "`%s` is out of range for %s",
                           q(c, at, c->p - at, b), tvt_imm_type_names[type]);
        (void)dstart;
        uint64_t u = neg ? (uint64_t)0 - v : v;
        dw[0] = (uint32_t)u;
        if (wide)
            dw[1] = (uint32_t)(u >> 32);
        return true;
    }
    }
}

static bool parse_immediate(parser *c, size_t kw_at)
{
    tv_tgsi_program *pr = c->cur;
    char b[48];
    skip_sp(c);
    if (peek(c) == '[') {
        size_t at = c->p;
        uint64_t v;
        c->p++;
        if (!parse_uint(c, MAX_INDEX, &v, "immediate index") || !expect_char(c, ']', "`]`"))
            return false;
        if (v != pr->num_imms)
            return fail_at(c, at, c->p - at,
                           "immediates must be numbered in order: found `IMM[%llu]`, expected "
                           "`IMM[%u]`",
                           (unsigned long long)v, pr->num_imms);
    }
    skip_sp(c);
    size_t at = c->p, len = word_len(c);
    int type = len ? tvt_lookup(tvt_imm_type_names, TV_IMM_COUNT, c->s + at, len) : -1;
    if (type < 0) {
        if (at_eol(c))
            return fail_at(c, kw_at, 3, "`IMM` needs a type (FLT32, UINT32, INT32, FLT64, "
                           "UINT64 or INT64) and values in braces");
        return fail_at(c, at, len, "unknown immediate type `%s` (FLT32, UINT32, INT32, FLT64, "
                       "UINT64 or INT64)", q(c, at, token_len(c, at), b));
    }
    c->p += len;
    if (!expect_char(c, '{', "`{` before the immediate values"))
        return false;
    GROW(c, pr->imms, pr->num_imms, c->cap_imms);
    tv_tgsi_immediate *im = &pr->imms[pr->num_imms];
    memset(im, 0, sizeof *im);
    im->type = (uint8_t)type;
    im->line = c->line;
    unsigned want = type >= TV_IMM_FLT64 ? 2 : 4, nhex = 0;
    for (unsigned i = 0; i < want; i++) {
        if (i) {
            skip_ws(c);
            if (peek(c) != ',') {
                if (peek(c) == '}')
                    return fail_at(c, c->p, 1, "`%s` immediates take %u values, found %u",
                                   tvt_imm_type_names[type], want, i);
                return fail_at(c, c->p, 0, "expected `,` between immediate values, found `%s`",
                               at_eol(c) ? "end of line" : q(c, c->p, token_len(c, c->p), b));
            }
            c->p++;
        }
        bool hex;
        skip_ws(c);
        if (peek(c) == '}')
            return fail_at(c, c->p, 1, "`%s` immediates take %u values, found %u",
                           tvt_imm_type_names[type], want, i);
        if (!parse_imm_value(c, (uint8_t)type, &im->u[want == 2 ? i * 2 : i], &hex))
            return false;
        nhex += hex;
    }
    skip_ws(c);
    if (peek(c) == ',')
        return fail_at(c, c->p, 1, "`%s` immediates take %u values, found more",
                       tvt_imm_type_names[type], want);
    if (!expect_char(c, '}', "`}` after the immediate values"))
        return false;
    im->hex = type == TV_IMM_FLT32 && nhex == want;
    uint32_t k = pr->num_imms++;
    return add_stmt(c, TV_STMT_IMM, k);
}

/* ---- properties --------------------------------------------------------------------- */

static bool parse_property(parser *c)
{
    tv_tgsi_program *pr = c->cur;
    char b[48];
    skip_sp(c);
    size_t at = c->p, len = word_len(c);
    int k = len ? tvt_lookup(tvt_property_names, TV_PROP_COUNT, c->s + at, len) : -1;
    if (k < 0) {
        if (!len)
            return fail_at(c, at, 0, "`PROPERTY` needs a property name and a value");
        return fail_at(c, at, len, "unknown property `%s`", q(c, at, len, b));
    }
    c->p += len;
    skip_sp(c);
    const char *const *names = NULL;
    int count = 0;
    switch (k) {
    case TV_PROP_GS_INPUT_PRIMITIVE:
    case TV_PROP_GS_OUTPUT_PRIMITIVE:
        names = tvt_primitive_names, count = TVT_NUM_PRIMITIVES;
        break;
    case TV_PROP_FS_COORD_ORIGIN:
        names = tvt_origin_names, count = 2;
        break;
    case TV_PROP_FS_COORD_PIXEL_CENTER:
        names = tvt_center_names, count = 2;
        break;
    case TV_PROP_NEXT_SHADER:
        names = tvt_processor_names, count = TV_TGSI_PROCESSOR_COUNT;
        break;
    default:
        break;
    }
    uint32_t value;
    size_t vat = c->p, vlen = word_len(c);
    if (names && vlen && !isdigit((unsigned char)c->s[vat])) {
        int v = tvt_lookup(names, count, c->s + vat, vlen);
        if (v < 0)
            return fail_at(c, vat, vlen, "unknown value `%s` for property %s",
                           q(c, vat, vlen, b), tvt_property_names[k]);
        value = (uint32_t)v;
        c->p += vlen;
    } else {
        uint64_t v;
        if (!parse_uint(c, names ? (uint64_t)count - 1 : 0xffffffffu, &v, "property value"))
            return false;
        value = (uint32_t)v;
    }
    GROW(c, pr->props, pr->num_props, c->cap_props);
    tv_tgsi_prop *pp = &pr->props[pr->num_props];
    pp->name = (uint8_t)k;
    pp->value = value;
    pp->line = c->line;
    uint32_t idx = pr->num_props++;
    return add_stmt(c, TV_STMT_PROPERTY, idx);
}

/* ---- statements --------------------------------------------------------------------- */

static bool end_of_statement(parser *c)
{
    skip_sp(c);
    if (!at_eol(c)) {
        char b[48];
        int ch = peek(c);
        if (ch == '#')
            return fail_at(c, c->p, 1, "unexpected `#`: comments start with `;` or `//`");
        if (ch < 0x20 || ch >= 0x7f)
            return fail_at(c, c->p, 1, "unexpected byte 0x%02x", (unsigned)ch);
        return fail_at(c, c->p, 0, "unexpected `%s` after the end of the statement",
                       q(c, c->p, token_len(c, c->p), b));
    }
    return true;
}

static const char *const directives[] = {"define", "undef", "ifdef", "ifndef", "if",
                                         "elif", "else", "endif", "include", "pragma"};

static bool parse_statement(parser *c)
{
    size_t start = c->p, len = word_len(c);
    char b[48];
    int ch = peek(c);
    if (ch < 0x20 || ch >= 0x7f)
        return fail_at(c, c->p, 1, "unexpected byte 0x%02x", (unsigned)ch);
    if (ch == '#') {
        size_t wl;
        c->p++;
        wl = word_len(c);
        c->p = start;
        for (size_t i = 0; i < sizeof directives / sizeof directives[0]; i++)
            if (wl && strlen(directives[i]) == wl &&
                !strncmp(c->s + start + 1, directives[i], wl))
                return fail_at(c, start, wl + 1,
                               "preprocessor directive `#%s` is not TGSI (legacy compute.c "
                               "macro syntax): expand the macros first",
                               directives[i]);
        return fail_at(c, start, 1, "unexpected `#`: comments start with `;` or `//`");
    }
    if (len) {
        int proc = tvt_lookup(tvt_processor_names, TV_TGSI_PROCESSOR_COUNT, c->s + start, len);
        if (proc >= 0) {
            c->p += len;
            if (!start_program(c, (unsigned)proc))
                return false;
            return end_of_statement(c);
        }
    }
    if (!c->cur) {
        if (c->nprogs == 0)
            return fail_at(c, start, 0,
                           "expected a program header (VERT, FRAG, GEOM, TESS_CTRL, TESS_EVAL "
                           "or COMP), found `%s`",
                           q(c, start, token_len(c, start), b));
        return false;
    }
    /* optional instruction number: `12:` */
    bool numbered = false;
    if (ch >= 0 && isdigit(ch)) {
        uint64_t v;
        if (!parse_uint(c, 0xffffffffu, &v, "instruction number"))
            return false;
        skip_sp(c);
        if (peek(c) != ':')
            return fail_at(c, c->p, 0, "expected `:` after the instruction number");
        c->p++;
        skip_sp(c);
        numbered = true;
        len = word_len(c);
    }
    size_t kw = c->p;
    if (!numbered && word_is(c, kw, len, "DCL")) {
        c->p += len;
        if (!parse_declaration(c))
            return false;
    } else if (!numbered && word_is(c, kw, len, "IMM")) {
        c->p += len;
        if (!parse_immediate(c, kw))
            return false;
    } else if (!numbered && word_is(c, kw, len, "PROPERTY")) {
        c->p += len;
        if (!parse_property(c))
            return false;
    } else {
        if (!parse_instruction(c, kw))
            return false;
    }
    return end_of_statement(c);
}

/* ---- API ---------------------------------------------------------------------------- */

void tv_tgsi_program_free(tv_tgsi_program *prog)
{
    if (!prog)
        return;
    free(prog->props);
    free(prog->decls);
    free(prog->imms);
    free(prog->insns);
    free(prog->stmts);
    memset(prog, 0, sizeof *prog);
}

void tv_tgsi_programs_free(tv_tgsi_program *progs, size_t count)
{
    if (!progs)
        return;
    for (size_t i = 0; i < count; i++)
        tv_tgsi_program_free(&progs[i]);
    free(progs);
}

tv_status tv_tgsi_parse(const char *text, size_t len, const char *filename, tv_tgsi_mode mode,
                        tv_tgsi_program **out, size_t *count, tv_error *err)
{
    if (out)
        *out = NULL;
    if (count)
        *count = 0;
    tv_error_clear(err);
    if (!out || !count || (!text && len))
        return tv_error_set(err, TV_ERR_ARG, 0, 0, "tv_tgsi_parse: NULL argument");
    parser c;
    memset(&c, 0, sizeof c);
    c.s = text ? text : "";
    c.n = len;
    c.line = 1;
    c.filename = filename;
    c.mode = mode;
    c.err = err;
    /* a UTF-8 byte-order mark is skipped */
    if (c.n >= 3 && (unsigned char)c.s[0] == 0xef && (unsigned char)c.s[1] == 0xbb &&
        (unsigned char)c.s[2] == 0xbf)
        c.p = 3;
    bool ok = true;
    for (;;) {
        skip_ws(&c);
        if (c.p >= c.n)
            break;
        if (!parse_statement(&c)) {
            ok = false;
            break;
        }
    }
    if (ok)
        ok = finish_program(&c);
    if (ok && c.nprogs == 0) {
        fail_at(&c, c.n, 0,
                "no TGSI program found (expected a header: VERT, FRAG, GEOM, TESS_CTRL, "
                "TESS_EVAL or COMP)");
        ok = false;
    }
    free(c.fix);
    free(c.xpd);
    if (!ok) {
        tv_tgsi_programs_free(c.progs, c.nprogs);
        return c.nomem ? TV_ERR_NOMEM : TV_ERR_PARSE;
    }
    *out = c.progs;
    *count = c.nprogs;
    return TV_OK;
}
