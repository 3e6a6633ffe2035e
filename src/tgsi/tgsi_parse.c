/* TGSI text -> program objects.
 *
 * A hand-written scanner over the whole text: Mesa 22.3's grammar (shared/reference/
 * tgsi-text.md) plus the extensions in docs/tgsi-text.md (CR/CRLF, `;` and `//` comments,
 * `_PRECISE`, raw-bit FLT32/FLT64 hex, several programs per file, legacy mode). Every
 * error is a tv_error with file:line:column and the offending text; nothing is printed.
 * Every array is bounded; the parser never reads past `len` (the text may hold NULs).
 * This file: statements, programs and the API; tgsi_parser.h lists the other parts. */
#include "tgsi/tgsi_parser.h"

#include <stdio.h>

bool tvp_add_stmt(parser *c, uint8_t kind, uint32_t index)
{
    tv_tgsi_program *pr = c->cur;
    GROW(c, pr->stmts, pr->num_stmts, c->cap_stmts);
    pr->stmts[pr->num_stmts].kind = kind;
    pr->stmts[pr->num_stmts].index = index;
    pr->num_stmts++;
    return true;
}

static bool finish_program(parser *c)
{
    if (!c->cur)
        return true;
    if (!tvp_legacy_finish(c))
        return false;
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
            return tvp_fail_nomem(c);
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

/* ---- statements --------------------------------------------------------------------- */

static bool end_of_statement(parser *c)
{
    skip_sp(c);
    if (!at_eol(c)) {
        char b[48];
        int ch = peek(c);
        if (ch == '#')
            return tvp_fail_at(c, c->p, 1, "unexpected `#`: comments start with `;` or `//`");
        if (ch < 0x20 || ch >= 0x7f)
            return tvp_fail_at(c, c->p, 1, "unexpected byte 0x%02x", (unsigned)ch);
        return tvp_fail_at(c, c->p, 0, "unexpected `%s` after the end of the statement",
                           tvp_quote(c, c->p, token_len(c, c->p), b));
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
        return tvp_fail_at(c, c->p, 1, "unexpected byte 0x%02x", (unsigned)ch);
    if (ch == '#') {
        size_t wl;
        c->p++;
        wl = word_len(c);
        c->p = start;
        for (size_t i = 0; i < sizeof directives / sizeof directives[0]; i++)
            if (wl && strlen(directives[i]) == wl &&
                !strncmp(c->s + start + 1, directives[i], wl))
                return tvp_fail_at(c, start, wl + 1,
                                   "preprocessor directive `#%s` is not TGSI (legacy compute.c "
                                   "macro syntax): expand the macros first",
                                   directives[i]);
        return tvp_fail_at(c, start, 1, "unexpected `#`: comments start with `;` or `//`");
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
            return tvp_fail_at(c, start, 0,
                               "expected a program header (VERT, FRAG, GEOM, TESS_CTRL, TESS_EVAL "
                               "or COMP), found `%s`",
                               tvp_quote(c, start, token_len(c, start), b));
        return false;
    }
    /* optional instruction number: `12:` */
    bool numbered = false;
    if (ch >= 0 && isdigit(ch)) {
        uint64_t v;
        if (!tvp_parse_uint(c, 0xffffffffu, &v, "instruction number"))
            return false;
        skip_sp(c);
        if (peek(c) != ':')
            return tvp_fail_at(c, c->p, 0, "expected `:` after the instruction number");
        c->p++;
        skip_sp(c);
        numbered = true;
        len = word_len(c);
    }
    size_t kw = c->p;
    if (!numbered && tvp_word_is(c, kw, len, "DCL")) {
        c->p += len;
        if (!tvp_parse_declaration(c))
            return false;
    } else if (!numbered && tvp_word_is(c, kw, len, "IMM")) {
        c->p += len;
        if (!tvp_parse_immediate(c, kw))
            return false;
    } else if (!numbered && tvp_word_is(c, kw, len, "PROPERTY")) {
        c->p += len;
        if (!tvp_parse_property(c))
            return false;
    } else {
        if (!tvp_parse_instruction(c, kw))
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
        tvp_fail_at(&c, c.n, 0,
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
