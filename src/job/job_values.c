/* Typed values of job files (docs/jobs.md §5) given as strings. */
#include "job.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static bool parse_hex(const char *s, uint32_t *out)
{
    size_t n = strlen(s);
    if (n < 1 || n > 8)
        return false;
    uint32_t v = 0;
    for (size_t i = 0; i < n; i++) {
        char ch = s[i];
        unsigned d;
        if (ch >= '0' && ch <= '9')
            d = (unsigned)(ch - '0');
        else if (ch >= 'a' && ch <= 'f')
            d = (unsigned)(ch - 'a' + 10);
        else if (ch >= 'A' && ch <= 'F')
            d = (unsigned)(ch - 'A' + 10);
        else
            return false;
        v = v << 4 | d;
    }
    *out = v;
    return true;
}

static bool parse_float(const char *s, uint32_t *out)
{
    static const struct { const char *name; uint32_t bits; } special[] = {
        {"nan", 0x7fc00000u}, {"inf", 0x7f800000u}, {"+inf", 0x7f800000u},
        {"-inf", 0xff800000u}, {"-0", 0x80000000u},
    };
    for (size_t i = 0; i < sizeof special / sizeof special[0]; i++)
        if (!strcasecmp(s, special[i].name)) {
            *out = special[i].bits;
            return true;
        }
    char *end;
    errno = 0;
    double d = strtod(s, &end);
    if (!*s || *end || isnan(d) || isinf(d))
        return false;
    *out = job_f32_bits((float)d);
    return true;
}

static bool parse_int(const char *s, bool is_signed, uint32_t *out)
{
    char *end;
    errno = 0;
    if (!*s)
        return false;
    if (is_signed) {
        long long v = strtoll(s, &end, 0);
        if (*end || errno || v < INT32_MIN || v > INT32_MAX)
            return false;
        int32_t i = (int32_t)v;
        memcpy(out, &i, 4);
        return true;
    }
    if (s[0] == '-')
        return false;
    unsigned long long v = strtoull(s, &end, 0);
    if (*end || errno || v > UINT32_MAX)
        return false;
    *out = (uint32_t)v;
    return true;
}

bool job_word_from_string(const char *s, int type, uint32_t *out, char *msg, size_t msgsize)
{
    (void)type;
    bool ok;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        ok = parse_hex(s + 2, out);
    else if (!strncmp(s, "f:", 2))
        ok = parse_float(s + 2, out);
    else if (!strncmp(s, "i:", 2))
        ok = parse_int(s + 2, true, out);
    else if (!strncmp(s, "u:", 2))
        ok = parse_int(s + 2, false, out);
    else
        ok = parse_float(s, out) && (strcasecmp(s, "nan") == 0 || strcasecmp(s, "inf") == 0 ||
                                     strcasecmp(s, "+inf") == 0 || strcasecmp(s, "-inf") == 0 ||
                                     strcmp(s, "-0") == 0);
    if (!ok)
        snprintf(msg, msgsize,
                 "bad value \"%s\" (expected a number, \"0x\" and 1-8 hex digits, \"f:\", "
                 "\"i:\" or \"u:\" and a number, \"nan\", \"inf\", \"-inf\" or \"-0\")",
                 s);
    return ok;
}
