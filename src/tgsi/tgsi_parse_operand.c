/* TGSI parser: instruction operands (registers with indirect and 2D indices, write
 * masks, swizzles, absolute/negate modifiers, texture offsets). */
#include "tgsi/tgsi_parser.h"

bool tvp_parse_file_word(parser *c, uint8_t *file)
{
    skip_sp(c);
    size_t at = c->p, len = word_len(c);
    int f = len ? tvt_lookup(tvt_file_names, TV_FILE_COUNT, c->s + at, len) : -1;
    if (f < 0)
        return tvp_fail_unknown_file(c, at, len);
    c->p += len;
    *file = (uint8_t)f;
    return true;
}

/* An optional `(N)` right after a `]`: an array id, 0 when absent. */
static bool parse_array_id(parser *c, uint32_t *array_id)
{
    *array_id = 0;
    if (peek(c) != '(')
        return true;
    uint64_t v;
    c->p++;
    if (!tvp_parse_uint(c, TVP_MAX_INDEX, &v, "array id") || !tvp_expect_char(c, ')', "`)`"))
        return false;
    *array_id = (uint32_t)v;
    return true;
}

/* One bracket's contents: `N`, or `FILE[N].c`, `FILE[N].c+K`, `FILE[N].c-K`. */
static bool parse_index(parser *c, int32_t *index, bool *indirect, tv_tgsi_indirect *ind)
{
    skip_sp(c);
    *indirect = false;
    if (peek(c) >= 0 && isdigit(peek(c))) {
        uint64_t v;
        if (!tvp_parse_uint(c, TVP_MAX_INDEX, &v, "register index"))
            return false;
        *index = (int32_t)v;
        return true;
    }
    if (peek(c) == '-' && isdigit(peek_at(c, 1)))
        return tvp_fail_at(c, c->p, 0, "register indices cannot be negative");
    if (!is_word_char(peek(c))) {
        char b[48];
        if (at_eol(c))
            return tvp_fail_at(c, c->p, 0, "expected a register index, found the end of the line");
        return tvp_fail_at(c, c->p, 0, "expected a register index, found `%s`",
                           tvp_quote(c, c->p, token_len(c, c->p), b));
    }
    *indirect = true;
    memset(ind, 0, sizeof *ind);
    if (!tvp_parse_file_word(c, &ind->file))
        return false;
    if (!tvp_expect_char(c, '[', "`[` after the indirect register file"))
        return false;
    uint64_t v;
    if (!tvp_parse_uint(c, TVP_MAX_INDEX, &v, "register index"))
        return false;
    ind->index = (int32_t)v;
    if (!tvp_expect_char(c, ']', "`]`"))
        return false;
    if (!parse_array_id(c, &ind->array_id)) /* of the address register */
        return false;
    skip_sp(c);
    ind->component = 0;
    if (peek(c) == '.') {
        c->p++;
        size_t at = c->p, len = word_len(c);
        if (len != 1 || swz_of(c->s[at]) < 0) {
            char b[48];
            return tvp_fail_at(c, at, len,
                               "an indirect index takes one component (`.x`, `.y`, `.z` or "
                               "`.w`), found `.%s`",
                               tvp_quote(c, at, len, b));
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
                return tvp_fail_at(c, sign_at, c->p - sign_at + word_len(c),
                                   "spaces inside an indirect index (`%c %.*s`) are legacy syntax: "
                                   "write `%c%.*s`, or use legacy mode (--legacy)",
                                   neg ? '-' : '+', (int)(word_len(c) > 12 ? 12 : word_len(c)),
                                   c->s + c->p, neg ? '-' : '+',
                                   (int)(word_len(c) > 12 ? 12 : word_len(c)), c->s + c->p);
            }
            skip_sp(c);
        }
        if (!tvp_parse_uint(c, TVP_MAX_INDEX, &v, "index offset"))
            return false;
        *index = neg ? -(int32_t)v : (int32_t)v;
    }
    return true;
}

/* One `[...]` of a register reference, with its optional array id. */
typedef struct bracket {
    int32_t index;
    bool indirect;
    tv_tgsi_indirect ind; /* when indirect */
    uint32_t array_id;    /* `(N)` after the `]` */
} bracket;

static bool parse_bracket(parser *c, bracket *b)
{
    memset(b, 0, sizeof *b);
    return parse_index(c, &b->index, &b->indirect, &b->ind) && tvp_expect_char(c, ']', "`]`") &&
           parse_array_id(c, &b->array_id);
}

/* The indirect address of a bracket: an array id after the `]` replaces the address
 * register's own. */
static tv_tgsi_indirect bracket_ind(const bracket *b)
{
    tv_tgsi_indirect ind = b->ind;
    if (b->array_id)
        ind.array_id = b->array_id;
    return ind;
}

/* `FILE[i]`, or `FILE[d][i]` with a dimension; either index may be indirect. */
static bool parse_reg(parser *c, tv_tgsi_reg *r)
{
    memset(r, 0, sizeof *r);
    if (!tvp_parse_file_word(c, &r->file))
        return false;
    skip_sp(c);
    if (peek(c) != '[')
        return tvp_fail_at(c, c->p, 0, "expected `[` after `%s`", tvt_file_names[r->file]);
    c->p++;
    bracket b0, b1;
    if (!parse_bracket(c, &b0))
        return false;
    const bracket *reg = &b0;
    if (peek(c) == '[') { /* the first bracket is the dimension */
        c->p++;
        if (!parse_bracket(c, &b1))
            return false;
        r->has_dim = true;
        r->dim = b0.index;
        r->dim_indirect = b0.indirect;
        if (b0.indirect)
            r->dim_ind = bracket_ind(&b0);
        reg = &b1;
    }
    r->index = reg->index;
    r->indirect = reg->indirect;
    if (reg->indirect)
        r->ind = bracket_ind(reg);
    r->array_id = reg->array_id;
    return true;
}

bool tvp_parse_writemask(parser *c, uint8_t *mask)
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
        return tvp_fail_at(c, at, len,
                           "invalid write mask `.%s`: use letters of xyzw, in that order", 
                           tvp_quote(c, at, len, b));
    }
    c->p += len;
    *mask = m;
    return true;
}

bool tvp_parse_dst(parser *c, tv_tgsi_dst *d)
{
    memset(d, 0, sizeof *d);
    if (!parse_reg(c, &d->reg))
        return false;
    skip_sp(c);
    return tvp_parse_writemask(c, &d->writemask);
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
            return tvp_fail_at(c, at, len, "invalid swizzle `.%s`: use 4 letters of xyzw",
                               tvp_quote(c, at, len, b));
    if (len != 4) {
        if (len == 0)
            return tvp_fail_at(c, at, 0, "expected a swizzle after `.`");
        char rep[5] = {0};
        for (int i = 0; i < 4; i++)
            rep[i] = (char)tolower((unsigned char)c->s[at + (i < (int)len ? (size_t)i : len - 1)]);
        return tvp_fail_at(c, at, len,
                           "a source swizzle needs 4 components: `.%s` is not allowed (write `.%s`)",
                           tvp_quote(c, at, len, b), rep);
    }
    for (int i = 0; i < 4; i++)
        swz[i] = (uint8_t)swz_of(c->s[at + (size_t)i]);
    c->p += 4;
    return true;
}

bool tvp_parse_src(parser *c, tv_tgsi_src *s)
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
            return tvp_fail_at(c, bar, 1, "`|` opened here is not closed");
        c->p++;
    }
    return true;
}

bool tvp_parse_texoffset(parser *c, tv_tgsi_texoffset *o)
{
    memset(o, 0, sizeof *o);
    skip_sp(c);
    size_t at = c->p;
    if (!tvp_parse_file_word(c, &o->file))
        return false;
    if (!tvp_expect_char(c, '[', "`[`"))
        return false;
    uint64_t v;
    if (!tvp_parse_uint(c, TVP_MAX_INDEX, &v, "register index") || !tvp_expect_char(c, ']', "`]`"))
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
        return tvp_fail_at(c, at, c->p + len - at,
                           "a texture offset needs a register and a 3-letter swizzle, e.g. "
                           "`IMM[0].xyz`, found `%s`",
                           tvp_quote(c, at, c->p + len - at, b));
    }
    for (int i = 0; i < 3; i++)
        o->swizzle[i] = (uint8_t)swz_of(c->s[sat + (size_t)i]);
    c->p += 3;
    return true;
}
