/* TGSI parser: error records and the scanning of words, punctuation and numbers. */
#include "tgsi/tgsi_parser.h"

#include <stdarg.h>
#include <stdio.h>

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

static void set_text(tv_error *e, const char *s, size_t len)
{
    size_t k = 0;
    for (size_t i = 0; i < len && k + 1 < sizeof e->text; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (ch == '\n' || ch == '\r')
            break;
        if ((ch < 0x20 || ch >= 0x7f) && ch != '\t') {
            /* a control or non-ASCII byte is named, not hidden as `?` */
            if (k + 12 >= sizeof e->text)
                break;
            k += (size_t)snprintf(e->text + k, sizeof e->text - k, "%sbyte 0x%02x%s",
                                  k ? "[" : "", ch, k ? "]" : "");
            if (k)
                break; /* the rest of the token is noise after such a byte */
            continue;
        }
        e->text[k++] = (char)ch;
    }
    e->text[k] = '\0';
}

bool tvp_fail_at(parser *c, size_t at, size_t len, const char *fmt, ...)
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

bool tvp_fail_nomem(parser *c)
{
    c->nomem = true;
    if (!c->failed) {
        c->failed = true;
        tv_error_set(c->err, TV_ERR_NOMEM, 0, 0, "out of memory while parsing TGSI");
    }
    return false;
}

/* Quote a piece of the input for a message: at most 40 printable characters. */
const char *tvp_quote(const parser *c, size_t at, size_t len, char buf[48])
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

bool tvp_word_is(const parser *c, size_t at, size_t len, const char *w)
{
    size_t wl = strlen(w);
    if (wl != len)
        return false;
    for (size_t i = 0; i < len; i++)
        if (toupper((unsigned char)c->s[at + i]) != (unsigned char)w[i])
            return false;
    return true;
}

bool tvp_expect_char(parser *c, int ch, const char *what)
{
    skip_sp(c);
    if (peek(c) != ch) {
        char b[48];
        if (at_eol(c))
            return tvp_fail_at(c, c->p, 0, "expected %s, found the end of the line", what);
        return tvp_fail_at(c, c->p, 0, "expected %s, found `%s`", what,
                           tvp_quote(c, c->p, token_len(c, c->p), b));
    }
    c->p++;
    return true;
}

/* Unsigned decimal number (register indices, label targets, counts). */
bool tvp_parse_uint(parser *c, uint64_t max, uint64_t *out, const char *what)
{
    skip_sp(c);
    size_t start = c->p;
    if (peek(c) < 0 || !isdigit(peek(c))) {
        char b[48];
        if (peek(c) == '-' && peek_at(c, 1) >= 0 && isdigit(peek_at(c, 1)))
            return tvp_fail_at(c, c->p, 0, "%s cannot be negative", what);
        if (at_eol(c))
            return tvp_fail_at(c, c->p, 0, "expected %s, found the end of the line", what);
        return tvp_fail_at(c, c->p, 0, "expected %s, found `%s`", what,
                           tvp_quote(c, c->p, token_len(c, c->p), b));
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
        return tvp_fail_at(c, start, c->p - start, "invalid number `%s`",
                           tvp_quote(c, start, c->p - start, b));
    }
    if (over) {
        char b[48];
        return tvp_fail_at(c, start, c->p - start, "%s `%s` is too large (at most %llu)", what,
                           tvp_quote(c, start, c->p - start, b), (unsigned long long)max);
    }
    *out = v;
    return true;
}
