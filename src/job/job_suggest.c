/* Nearest format names for an unknown one ("RGBA8" -> R8G8B8A8_UNORM, ...). */
#include "job_suggest.h"
#include "texvm/tex.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* The channel letters and the first channel's bits of NAME's part before '_'. */
static void shape(const char *name, char letters[16], unsigned *bits)
{
    size_t k = 0;
    *bits = 0;
    bool seen = false;
    for (const char *p = name; *p && *p != '_'; p++) {
        if (isalpha((unsigned char)*p) && k < 15)
            letters[k++] = (char)toupper((unsigned char)*p);
        else if (isdigit((unsigned char)*p) && !seen) {
            *bits = *bits * 10 + (unsigned)(*p - '0');
            if (!isdigit((unsigned char)p[1]))
                seen = true;
        }
    }
    letters[k] = 0;
}

static unsigned distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 63 || lb > 63)
        return 99;
    unsigned d[64][64];
    for (size_t i = 0; i <= la; i++)
        d[i][0] = (unsigned)i;
    for (size_t j = 0; j <= lb; j++)
        d[0][j] = (unsigned)j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            unsigned c = toupper((unsigned char)a[i - 1]) != toupper((unsigned char)b[j - 1]);
            unsigned m = d[i - 1][j - 1] + c;
            if (d[i - 1][j] + 1 < m)
                m = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < m)
                m = d[i][j - 1] + 1;
            d[i][j] = m;
        }
    return d[la][lb];
}

const char *job_suggest_format(const char *query, char *buf, size_t size)
{
    char ql[16];
    unsigned qb;
    shape(query, ql, &qb);
    const char *us = strchr(query, '_');
    size_t k = 0;
    unsigned found = 0;
    buf[0] = 0;
    /* same channels and bits (and suffix, when the query has one) */
    for (int pass = us ? 0 : 1; pass < 2 && !found; pass++)
        for (int f = 1; f < TV_FORMAT_COUNT && found < 5; f++) {
            const tv_format_info *fi = tv_format_get((tv_format)f);
            if (!fi || !fi->name)
                continue;
            char nl[16];
            unsigned nb;
            shape(fi->name, nl, &nb);
            const char *nus = strchr(fi->name, '_');
            if (strcmp(nl, ql) || nb != qb || (pass == 0 && (!nus || strcasecmp(nus, us))))
                continue;
            k += (size_t)snprintf(buf + k, k < size ? size - k : 0, "%s%s", found ? ", " : "",
                                  fi->name);
            found++;
        }
    /* else the names at the smallest edit distance (at most 3) */
    for (unsigned want = 1; want <= 3 && !found; want++)
        for (int f = 1; f < TV_FORMAT_COUNT && found < 5; f++) {
            const tv_format_info *fi = tv_format_get((tv_format)f);
            if (!fi || !fi->name || distance(query, fi->name) != want)
                continue;
            k += (size_t)snprintf(buf + k, k < size ? size - k : 0, "%s%s", found ? ", " : "",
                                  fi->name);
            found++;
        }
    return found ? buf : NULL;
}
