/* Script lines into checked commands: tokens with their columns, options checked against
 * the command table, positional numbers with their ranges, and the messages
 * (`SCRIPT:LINE:COL: message`, values quoted as TGSI messages quote them). */
#include "sass_script.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* A piece of the script for a message: at most 40 bytes (then "..."), as TGSI messages
 * quote; a control or non-ASCII byte shown as "[byte 0xNN]", as many as fit in BUF (128
 * bytes: room for the longest piece, its "..." and the NUL). */
const char *script_quote(const char *arg, char buf[128])
{
    size_t k = 0, i = 0;
    for (; arg[i] && i < 40 && k + 12 + 4 <= 128; i++) {
        unsigned char ch = (unsigned char)arg[i];
        if (ch < 0x20 || ch >= 0x7f)
            k += (size_t)snprintf(buf + k, 128 - k, "[byte 0x%02x]", ch);
        else
            buf[k++] = (char)ch;
    }
    snprintf(buf + k, 128 - k, "%s", arg[i] ? "..." : "");
    return buf;
}

int script_fail(script *s, unsigned col, const char *fmt, ...)
{
    char msg[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(stderr, "%s:%u:%u: %s\n", s->path, s->line, col, msg);
    return TV_EXIT_INVALID;
}

bool script_parse_u64(const char *t, uint64_t *v)
{
    char *end;
    errno = 0;
    unsigned long long x = strtoull(t, &end, 0);
    if (errno || end == t || *end || t[0] == '-' || t[0] == '+' || t[0] == ' ')
        return false;
    *v = x;
    return true;
}

static bool parse_u32(const char *t, uint32_t *v)
{
    uint64_t x;
    if (!script_parse_u64(t, &x) || x > 0xffffffffull)
        return false;
    *v = (uint32_t)x;
    return true;
}

static bool is_hex(const char *t)
{
    return strstr(t, "0x") || strstr(t, "0X");
}

/* A register value: 0x… / decimal integer (negative allowed), or a float written with a
 * '.', an exponent or an 'f' suffix (1.5, 2e-3, 1f). */
bool script_parse_value(const char *t, uint32_t *v)
{
    size_t len = strlen(t);
    bool is_float = strchr(t, '.') || (!is_hex(t) && (strchr(t, 'e') || strchr(t, 'E'))) ||
                    (len && (t[len - 1] == 'f' || t[len - 1] == 'F') && !is_hex(t));
    char *end;
    errno = 0;
    if (is_float) {
        float f = strtof(t, &end);
        if (*end == 'f' || *end == 'F')
            end++;
        if (end == t || *end || errno)
            return false;
        memcpy(v, &f, 4);
        return true;
    }
    if (t[0] == '-') {
        long long x = strtoll(t, &end, 0);
        if (end == t || *end || errno || x < INT32_MIN)
            return false;
        *v = (uint32_t)(int32_t)x;
        return true;
    }
    return parse_u32(t, v);
}

static bool parse_float(const char *t, float *f)
{
    char *end;
    errno = 0;
    *f = strtof(t, &end);
    return *t && !*end && !errno && isfinite(*f);
}

/* "allowed: a, b, c" of an enum option into BUF. */
static const char *allowed(const char *const *names, char *buf, size_t size)
{
    size_t m = 0;
    buf[0] = '\0';
    for (unsigned k = 0; names[k] && m < size; k++)
        m += (size_t)snprintf(buf + m, size - m, "%s%s", k ? ", " : "", names[k]);
    return buf;
}

/* Check option token T (KEY=VALUE, VALUE at column T->col + strlen(KEY) + 1) into *V. */
static int check_value(script *s, const script_opt *o, const script_tok *t, script_val *v)
{
    const char *val = strchr(t->text, '=') + 1;
    unsigned col = t->col + (unsigned)(val - t->text);
    char q[128], list[300];
    switch (o->kind) {
    case SO_ENUM:
        for (int i = 0; o->names[i]; i++)
            if (!strcmp(o->names[i], val)) {
                v->e = i;
                return 0;
            }
        return script_fail(s, col, "bad value \"%s\" for %s (allowed: %s)", script_quote(val, q),
                           o->key, allowed(o->names, list, sizeof list));
    case SO_UINT:
        if (!parse_u32(val, &v->u) || v->u < o->min || v->u > o->max)
            return script_fail(s, col, "bad value \"%s\" for %s (expected a whole number %u..%u)",
                               script_quote(val, q), o->key, o->min, o->max);
        return 0;
    case SO_FLOAT:
        if (!parse_float(val, &v->f))
            return script_fail(s, col, "bad value \"%s\" for %s (expected a number)",
                               script_quote(val, q), o->key);
        return 0;
    case SO_RANGE: {
        char a[24] = "", b[24] = "";
        const char *colon = strchr(val, ':');
        size_t la = colon ? (size_t)(colon - val) : 0;
        if (colon && la < sizeof a && strlen(colon + 1) < sizeof b) {
            memcpy(a, val, la);
            strcpy(b, colon + 1);
        }
        if (!colon || !parse_u32(a, &v->range[0]) || !parse_u32(b, &v->range[1]) ||
            v->range[0] < o->min || v->range[1] > o->max || v->range[0] > v->range[1])
            return script_fail(s, col,
                               "bad value \"%s\" for %s (expected MIN:MAX, whole numbers "
                               "%u <= MIN <= MAX <= %u)",
                               script_quote(val, q), o->key, o->min, o->max);
        return 0;
    }
    case SO_FLOAT4: {
        const char *p = val;
        bool ok = true;
        for (unsigned k = 0; k < 4 && ok; k++) {
            char *end;
            errno = 0;
            v->rgba[k] = strtof(p, &end);
            ok = end != p && !errno && isfinite(v->rgba[k]) && *end == (k < 3 ? ',' : '\0');
            p = end + 1;
        }
        if (!ok)
            return script_fail(s, col, "bad value \"%s\" for %s (expected four numbers R,G,B,A)",
                               script_quote(val, q), o->key);
        return 0;
    }
    }
    return script_fail(s, col, "option kind %d of %s has no check", (int)o->kind, o->key);
}

static int check_option(script *s, script_line *l, const script_tok *t)
{
    const script_cmd *c = l->cmd;
    const char *eq = strchr(t->text, '=');
    size_t kl = (size_t)(eq - t->text);
    char q[128], list[300];
    int idx = -1;
    for (int i = 0; c->opts && c->opts[i].key && idx < 0; i++)
        if (strlen(c->opts[i].key) == kl && !strncmp(c->opts[i].key, t->text, kl))
            idx = i;
    if (idx < 0) {
        size_t m = 0;
        list[0] = '\0';
        for (unsigned k = 0; c->opts && c->opts[k].key && m < sizeof list; k++)
            m += (size_t)snprintf(list + m, sizeof list - m, "%s%s", k ? ", " : "",
                                  c->opts[k].key);
        char key[48];
        snprintf(key, sizeof key, "%.*s", (int)(kl < 40 ? kl : 40), t->text);
        if (!c->opts)
            return script_fail(s, t->col, "unknown option \"%s\" of %s (it has no options)",
                               script_quote(key, q), c->name);
        return script_fail(s, t->col, "unknown option \"%s\" of %s (allowed: %s)",
                           script_quote(key, q), c->name, list);
    }
    if (l->opt[idx])
        return script_fail(s, t->col, "option %s given twice (first at column %u)",
                           c->opts[idx].key, l->opt[idx]->col);
    l->opt[idx] = t;
    return check_value(s, &c->opts[idx], t, &l->val[idx]);
}

int script_parse_line(script *s, char *line, script_line *l)
{
    memset(l, 0, sizeof *l);
    unsigned n = 0;
    char *p = line;
    while (*p) {
        while (*p == ' ' || *p == '\t' || *p == '\r')
            p++;
        if (!*p)
            break;
        if (n == SCRIPT_MAX_TOKENS)
            return script_fail(s, (unsigned)(p - line) + 1,
                               "more than %u words on a line", SCRIPT_MAX_TOKENS);
        l->toks[n].text = p;
        l->toks[n++].col = (unsigned)(p - line) + 1;
        while (*p && *p != ' ' && *p != '\t' && *p != '\r')
            p++;
        if (*p)
            *p++ = '\0';
    }
    l->end_col = (unsigned)(p - line) + 1;
    l->name = l->toks[0];
    char q[128];
    l->cmd = script_find_cmd(l->name.text);
    if (!l->cmd)
        return script_fail(s, l->name.col, "unknown command \"%s\" (texvm sass --help lists "
                           "the commands)", script_quote(l->name.text, q));
    for (unsigned i = 1; i < n; i++) {
        if (strchr(l->toks[i].text, '=')) {
            int rc = check_option(s, l, &l->toks[i]);
            if (rc)
                return rc;
        } else {
            l->arg[l->nargs++] = l->toks[i];
        }
    }
    const script_cmd *c = l->cmd;
    if (l->nargs < c->min_args || l->nargs > c->max_args) {
        unsigned col = l->nargs > c->max_args ? l->arg[c->max_args].col : l->end_col;
        return script_fail(s, col, "%s: %s (usage: %s%s%s%s)", c->name,
                           l->nargs > c->max_args ? "too many arguments" : "missing arguments",
                           c->name, c->args[0] ? " " : "", c->args, c->opts ? " [options]" : "");
    }
    return 0;
}

bool script_arg_u32(script *s, const script_line *l, unsigned i, const char *what,
                    uint32_t min, uint32_t max, uint32_t *out)
{
    char q[128];
    if (parse_u32(l->arg[i].text, out) && *out >= min && *out <= max)
        return true;
    script_fail(s, l->arg[i].col, "bad %s \"%s\" (expected a whole number %u..%u)", what,
                script_quote(l->arg[i].text, q), min, max);
    return false;
}

bool script_arg_value(script *s, const script_line *l, unsigned i, uint32_t *out)
{
    char q[128];
    if (script_parse_value(l->arg[i].text, out))
        return true;
    script_fail(s, l->arg[i].col,
                "bad value \"%s\" (expected 0x hex, a decimal integer, or a float written "
                "with '.', an exponent or an 'f' suffix)",
                script_quote(l->arg[i].text, q));
    return false;
}

const script_tok *script_opt_tok(const script_line *l, const char *key)
{
    int i = script_opt_index(l->cmd, key);
    return i < 0 ? NULL : l->opt[i];
}

const script_val *script_optval(const script_line *l, const char *key)
{
    int i = script_opt_index(l->cmd, key);
    return i < 0 || !l->opt[i] ? NULL : &l->val[i];
}
