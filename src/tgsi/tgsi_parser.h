/* Private interface of the TGSI text parser, shared by its files:
 *   tgsi_lex.c          errors (file:line:column + excerpt), words, punctuation, numbers
 *   tgsi_parse.c        statements, programs, the public tv_tgsi_parse
 *   tgsi_parse_decl.c   DCL and PROPERTY
 *   tgsi_parse_imm.c    IMM and its values
 *   tgsi_parse_insn.c   instructions (opcode, operands, texture target, trailing parts)
 *   tgsi_parse_operand.c registers, write masks, swizzles, texture offsets
 *   tgsi_legacy.c       legacy and removed names, and the legacy-mode rewrites
 * Functions return false after recording the first error in the parser; nothing prints. */
#ifndef TEXVM_TGSI_PARSER_H
#define TEXVM_TGSI_PARSER_H

#include "tgsi/tgsi_internal.h"
#include "util/error.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define TVP_MAX_INDEX 0x7fffffff

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
    /* legacy: operands that must point at the synthesized immediate or temporary */
    fixup *fix;
    uint32_t nfix, cap_fix;
    bool need_imm, need_temp;
    uint32_t *xpd; /* instruction numbers (as written) of expanded XPDs */
    uint32_t nxpd, cap_xpd;
} parser;

/* ---- errors (tgsi_lex.c) ------------------------------------------------------------ */

/* Record a parse error at offset AT (excerpt of LEN characters, 0 = the token there);
 * only the first error counts. Always returns false. */
bool tvp_fail_at(parser *c, size_t at, size_t len, const char *fmt, ...) TV_PRINTF(4, 5);
/* Record an out-of-memory error. Always returns false. */
bool tvp_fail_nomem(parser *c);
/* Quote a piece of the input for a message: at most 40 printable characters. */
const char *tvp_quote(const parser *c, size_t at, size_t len, char buf[48]);

/* ---- scanning ----------------------------------------------------------------------- */

static inline bool is_word_char(int ch) { return ch >= 0 && (isalnum(ch) || ch == '_'); }

static inline int peek(const parser *c) { return c->p < c->n ? (unsigned char)c->s[c->p] : -1; }
static inline int peek_at(const parser *c, size_t k)
{
    return c->p + k < c->n ? (unsigned char)c->s[c->p + k] : -1;
}
static inline bool at_eol(const parser *c)
{
    int ch = peek(c);
    return ch < 0 || ch == '\n' || ch == '\r';
}
static inline bool at_comment(const parser *c)
{
    int ch = peek(c);
    return ch == ';' || (ch == '/' && peek_at(c, 1) == '/');
}

/* Spaces, tabs and a trailing comment; stops at a line end. */
static inline void skip_sp(parser *c)
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

/* One line end (LF, CR or CRLF); counts the line. */
static inline void skip_newline(parser *c)
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
static inline void skip_ws(parser *c)
{
    for (;;) {
        skip_sp(c);
        if (c->p < c->n && (peek(c) == '\n' || peek(c) == '\r'))
            skip_newline(c);
        else
            return;
    }
}

/* Length of the word (letters, digits, `_`) at the current position. */
static inline size_t word_len(const parser *c)
{
    size_t e = c->p;
    while (e < c->n && is_word_char((unsigned char)c->s[e]))
        e++;
    return e - c->p;
}

/* Length of the "token" at `at` for error excerpts: a word, or one character. */
static inline size_t token_len(const parser *c, size_t at)
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

/* Component number of a swizzle letter (x, y, z, w in either case), -1 for others. */
static inline int swz_of(int ch)
{
    switch (ch) {
    case 'x': case 'X': return 0;
    case 'y': case 'Y': return 1;
    case 'z': case 'Z': return 2;
    case 'w': case 'W': return 3;
    default: return -1;
    }
}

/* True when s[at..at+len) is W, case-insensitively (W is upper case). */
bool tvp_word_is(const parser *c, size_t at, size_t len, const char *w);
/* Skip spaces, then consume CH or fail with "expected WHAT". */
bool tvp_expect_char(parser *c, int ch, const char *what);
/* Unsigned decimal number at most MAX (register indices, label targets, counts). */
bool tvp_parse_uint(parser *c, uint64_t max, uint64_t *out, const char *what);

/* ---- program building (tgsi_parse.c) ------------------------------------------------ */

/* Room for one more element of ARR (COUNT used of CAP, doubling from 16); returns false
 * from the calling function when memory runs out. */
#define GROW(c, arr, count, cap)                                                            \
    do {                                                                                    \
        if ((count) >= (cap)) {                                                             \
            uint32_t ncap = (cap) ? (cap) * 2 : 16;                                         \
            void *np = realloc((arr), (size_t)ncap * sizeof *(arr));                        \
            if (!np)                                                                        \
                return tvp_fail_nomem(c);                                                   \
            (arr) = np;                                                                     \
            (cap) = ncap;                                                                   \
        }                                                                                   \
    } while (0)

/* Append statement (KIND, INDEX) to the current program. */
bool tvp_add_stmt(parser *c, uint8_t kind, uint32_t index);

/* ---- statements --------------------------------------------------------------------- */

/* After the keyword: the rest of a DCL, of an IMM (KW_AT: where `IMM` stands), of a
 * PROPERTY; an instruction starting at START (its opcode at the current position). */
bool tvp_parse_declaration(parser *c);
bool tvp_parse_immediate(parser *c, size_t kw_at);
bool tvp_parse_property(parser *c);
bool tvp_parse_instruction(parser *c, size_t start);

/* ---- operands (tgsi_parse_operand.c) ------------------------------------------------ */

/* A register file name (TEMP, IN, ...); removed names get a message saying so. */
bool tvp_parse_file_word(parser *c, uint8_t *file);
/* `.xyzw`-style write mask (letters in order); 0xf when there is none. */
bool tvp_parse_writemask(parser *c, uint8_t *mask);
/* Destination register with write mask. */
bool tvp_parse_dst(parser *c, tv_tgsi_dst *d);
/* Source register: optional `-`, `|...|` and 4-letter swizzle. */
bool tvp_parse_src(parser *c, tv_tgsi_src *s);
/* Texture offset `FILE[N].xyz`. */
bool tvp_parse_texoffset(parser *c, tv_tgsi_texoffset *o);

/* ---- legacy and removed names (tgsi_legacy.c) --------------------------------------- */

typedef struct tvp_legacy_op {
    const char *name;
    const char *modern; /* replacement opcode in legacy mode, NULL = never accepted */
    const char *hint;
} tvp_legacy_op;

/* The legacy or removed opcode named s[at..at+len), or NULL. */
const tvp_legacy_op *tvp_legacy_op_find(const parser *c, size_t at, size_t len);
/* SUB and ABS parsed as their modern opcode: negate / take the absolute value of the
 * source. */
void tvp_legacy_rewrite_operands(tv_tgsi_instruction *in);
/* Legacy XPD parsed as instruction II: expand it to MUL, MAD, MOV. */
bool tvp_expand_xpd(parser *c, uint32_t ii);
/* Legacy mode: remember that operand OPERAND of instruction INSN must point at the
 * synthesized immediate or temporary (KIND: FIX_*). */
bool tvp_add_fixup(parser *c, uint32_t insn, uint8_t kind, uint8_t operand);
/* At the end of a program: add the synthesized immediate and temporary, point the fixups
 * at them and renumber labels past expanded XPDs. */
bool tvp_legacy_finish(parser *c);
/* Fail for a register file that is not one: RES, TEMPX, ... get a specific message. */
bool tvp_fail_unknown_file(parser *c, size_t at, size_t len);

#endif
