/* TGSI parser: IMM statements and their values (exact decimal floats independent of the
 * locale, raw-bit hex, range-checked integers). */
#include "tgsi/tgsi_parser.h"

#include <locale.h>
#include <math.h>

/* Convert a decimal float token with the C library, independent of LC_NUMERIC. The
 * whole token is converted, however long (a printed FLT64 can have 300+ digits). SINGLE
 * rounds once, to float (strtof; the double holds that float exactly). Returns false when
 * memory runs out. */
static bool to_double(const char *tok, size_t len, bool single, double *d)
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
    *d = single ? (double)strtof(buf, NULL) : strtod(buf, NULL);
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
        return tvp_fail_at(c, at, p - at,
                           "invalid hex value `%s`: write `0x` and at most %u hex digits (a raw "
                           "bit pattern)",
                           tvp_quote(c, at, p - at, b), maxdigits);
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
            return tvp_fail_at(c, at, l, "expected a %s value, found `%s`", tvt_imm_type_names[type],
                               at_eol(c) ? "end of line" : tvp_quote(c, at, l, b));
        }
        double d;
        if (!to_double(c->s + at, end - at, type == TV_IMM_FLT32, &d))
            return tvp_fail_nomem(c);
        if (isinf(d))
            return tvp_fail_at(c, at, end - at, "`%s` is out of range for %s",
                               tvp_quote(c, at, end - at, b), tvt_imm_type_names[type]);
        if (type == TV_IMM_FLT32) {
            float f = (float)d;
            memcpy(dw, &f, 4);
        } else {
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
                return tvp_fail_at(c, at, 0, "a %s value cannot be negative",
                                   tvt_imm_type_names[type]);
            c->p++;
        }
        if (peek(c) < 0 || !isdigit(peek(c))) {
            size_t l = token_len(c, at);
            c->p = at;
            return tvp_fail_at(c, at, l, "expected a %s value, found `%s`", tvt_imm_type_names[type],
                               at_eol(c) ? "end of line" : tvp_quote(c, at, l, b));
        }
        uint64_t max = type == TV_IMM_UINT32 ? 0xffffffffull
                     : type == TV_IMM_INT32  ? (neg ? 0x80000000ull : 0x7fffffffull)
                     : type == TV_IMM_UINT64 ? UINT64_MAX
                     : (neg ? 0x8000000000000000ull : 0x7fffffffffffffffull);
        uint64_t v = 0;
        bool over = false;
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
            return tvp_fail_at(c, at, c->p - at, "invalid %s value `%s`", tvt_imm_type_names[type],
                               tvp_quote(c, at, c->p - at, b));
        }
        if (over)
            return tvp_fail_at(c, at, c->p - at, "`%s` is out of range for %s",
                               tvp_quote(c, at, c->p - at, b), tvt_imm_type_names[type]);
        uint64_t u = neg ? (uint64_t)0 - v : v;
        dw[0] = (uint32_t)u;
        if (wide)
            dw[1] = (uint32_t)(u >> 32);
        return true;
    }
    }
}

bool tvp_parse_immediate(parser *c, size_t kw_at)
{
    tv_tgsi_program *pr = c->cur;
    char b[48];
    skip_sp(c);
    if (peek(c) == '[') {
        size_t at = c->p;
        uint64_t v;
        c->p++;
        if (!tvp_parse_uint(c, TVP_MAX_INDEX, &v, "immediate index") || !tvp_expect_char(c, ']', "`]`"))
            return false;
        if (v != pr->num_imms)
            return tvp_fail_at(c, at, c->p - at,
                               "immediates must be numbered in order: found `IMM[%llu]`, expected "
                               "`IMM[%u]`",
                               (unsigned long long)v, pr->num_imms);
    }
    skip_sp(c);
    size_t at = c->p, len = word_len(c);
    int type = len ? tvt_lookup(tvt_imm_type_names, TV_IMM_COUNT, c->s + at, len) : -1;
    if (type < 0) {
        if (at_eol(c))
            return tvp_fail_at(c, kw_at, 3, "`IMM` needs a type (FLT32, UINT32, INT32, FLT64, "
                               "UINT64 or INT64) and values in braces");
        return tvp_fail_at(c, at, len, "unknown immediate type `%s` (FLT32, UINT32, INT32, FLT64, "
                           "UINT64 or INT64)", tvp_quote(c, at, token_len(c, at), b));
    }
    c->p += len;
    if (!tvp_expect_char(c, '{', "`{` before the immediate values"))
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
                    return tvp_fail_at(c, c->p, 1, "`%s` immediates take %u values, found %u",
                                       tvt_imm_type_names[type], want, i);
                return tvp_fail_at(c, c->p, 0, "expected `,` between immediate values, found `%s`",
                                   at_eol(c) ? "end of line"
                                             : tvp_quote(c, c->p, token_len(c, c->p), b));
            }
            c->p++;
        }
        bool hex;
        skip_ws(c);
        if (peek(c) == '}')
            return tvp_fail_at(c, c->p, 1, "`%s` immediates take %u values, found %u",
                               tvt_imm_type_names[type], want, i);
        if (!parse_imm_value(c, (uint8_t)type, &im->u[want == 2 ? i * 2 : i], &hex))
            return false;
        nhex += hex;
    }
    skip_ws(c);
    if (peek(c) == ',')
        return tvp_fail_at(c, c->p, 1, "`%s` immediates take %u values, found more",
                           tvt_imm_type_names[type], want);
    if (!tvp_expect_char(c, '}', "`}` after the immediate values"))
        return false;
    im->hex = type == TV_IMM_FLT32 && nhex == want;
    uint32_t k = pr->num_imms++;
    return tvp_add_stmt(c, TV_STMT_IMM, k);
}
