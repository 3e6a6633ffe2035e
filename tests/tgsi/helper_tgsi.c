#include "helper_tgsi.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *th_read(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    for (;;) {
        if (n + 1 >= cap) {
            cap *= 2;
            buf = realloc(buf, cap);
        }
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (!got)
            break;
    }
    fclose(f);
    buf[n] = '\0';
    if (len)
        *len = n;
    return buf;
}

tv_tgsi_program *th_parse(const char *text, tv_tgsi_mode mode, size_t *count, tv_error *err)
{
    tv_tgsi_program *p = NULL;
    if (tv_tgsi_parse(text, strlen(text), "t.tgsi", mode, &p, count, err) != TV_OK)
        return NULL;
    return p;
}

tv_tgsi_program *th_parse_ok(const char *text, tv_tgsi_mode mode, size_t *count)
{
    tv_error err;
    tv_tgsi_program *p = th_parse(text, mode, count, &err);
    if (!p)
        fail_msg("%u:%u: %s", err.line, err.column, err.message);
    return p;
}

void th_expect_documented(const char *doc, const char *message)
{
    char want[1200];
    size_t k = 0;
    for (const char *m = message; *m && k + 2 < sizeof want; m++) {
        if (*m == '|')
            want[k++] = '\\';
        want[k++] = *m;
    }
    want[k] = '\0';
    if (!strstr(doc, want))
        fail_msg("docs/errors-tgsi.md does not list: %s", want);
}

char *th_print_all(const tv_tgsi_program *progs, size_t count)
{
    size_t total = 0;
    for (size_t i = 0; i < count; i++)
        total += tv_tgsi_print(&progs[i], NULL, 0);
    char *s = malloc(total + 1), *w = s;
    for (size_t i = 0; i < count; i++)
        w += tv_tgsi_print(&progs[i], w, total + 1 - (size_t)(w - s));
    *w = '\0';
    return s;
}

char *th_fixed_point(const char *text, size_t len, tv_tgsi_mode mode)
{
    tv_tgsi_program *p1, *p2;
    size_t n1, n2;
    tv_error err;
    if (tv_tgsi_parse(text, len, "a", mode, &p1, &n1, &err) != TV_OK)
        return NULL;
    char *s1 = th_print_all(p1, n1);
    if (tv_tgsi_parse(s1, strlen(s1), "b", TV_TGSI_MODE_DEFAULT, &p2, &n2, &err) != TV_OK) {
        char msg[1024];
        th_error_string(&err, msg, sizeof msg);
        fail_msg("printed text does not parse back: %s\n%s", msg, s1);
    }
    char *s2 = th_print_all(p2, n2);
    assert_int_equal(n1, n2);
    assert_string_equal(s1, s2);
    free(s2);
    tv_tgsi_programs_free(p1, n1);
    tv_tgsi_programs_free(p2, n2);
    return s1;
}

void th_error_string(const tv_error *e, char *buf, size_t size)
{
    tv_error_format(e, buf, size);
}

static int cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

char **th_list(const char *dir, const char *suffix, size_t *count)
{
    *count = 0;
    DIR *d = opendir(dir);
    if (!d)
        return NULL;
    size_t cap = 64, n = 0;
    char **names = malloc(cap * sizeof *names);
    struct dirent *e;
    size_t sl = strlen(suffix);
    while ((e = readdir(d))) {
        size_t l = strlen(e->d_name);
        if (e->d_name[0] == '.' || l < sl || strcmp(e->d_name + l - sl, suffix))
            continue;
        if (n == cap)
            names = realloc(names, (cap *= 2) * sizeof *names);
        names[n] = malloc(strlen(dir) + l + 2);
        sprintf(names[n], "%s/%s", dir, e->d_name);
        n++;
    }
    closedir(d);
    qsort(names, n, sizeof *names, cmp);
    *count = n;
    return names;
}

void th_free_list(char **names, size_t count)
{
    for (size_t i = 0; i < count; i++)
        free(names[i]);
    free(names);
}
