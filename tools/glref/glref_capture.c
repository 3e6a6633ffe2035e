/* glref: capture what softpipe prints (SOFTPIPE_DEBUG) and split it into programs. */
#include "glref_internal.h"

#include <ctype.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

bool glref_capture_begin(glref *g, const char *path)
{
    if (g->saved_stderr >= 0)
        return glref_fail(g, "capture already active");
    fflush(stderr);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0)
        return glref_fail(g, "cannot create capture file %s", path);
    g->saved_stderr = dup(2);
    if (g->saved_stderr < 0 || dup2(fd, 2) < 0) {
        close(fd);
        if (g->saved_stderr >= 0)
            close(g->saved_stderr);
        g->saved_stderr = -1;
        return glref_fail(g, "cannot redirect stderr to %s", path);
    }
    close(fd);
    return true;
}

bool glref_capture_end(glref *g)
{
    if (g->saved_stderr < 0)
        return glref_fail(g, "no capture active");
    glFinish();
    fflush(stderr);
    dup2(g->saved_stderr, 2);
    close(g->saved_stderr);
    g->saved_stderr = -1;
    return true;
}

char *glref_read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        if (n + 1 >= cap) {
            char *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
        size_t r = fread(buf + n, 1, cap - n - 1, f);
        if (r == 0)
            break;
        n += r;
    }
    fclose(f);
    if (!buf)
        return NULL;
    buf[n] = '\0';
    if (size)
        *size = n;
    return buf;
}

static const char *const k_stages[] = {"FRAG", "VERT", "GEOM", "COMP", "TESS_CTRL",
                                       "TESS_EVAL"};

static const char *stage_of(const char *line, size_t len)
{
    for (size_t i = 0; i < sizeof k_stages / sizeof k_stages[0]; i++)
        if (strlen(k_stages[i]) == len && memcmp(line, k_stages[i], len) == 0)
            return k_stages[i];
    return NULL;
}

/* "  12: END" */
static bool is_end(const char *line, size_t len)
{
    size_t i = 0;
    while (i < len && line[i] == ' ')
        i++;
    size_t digits = i;
    while (i < len && isdigit((unsigned char)line[i]))
        i++;
    if (i == digits)
        return false;
    while (len > i && isspace((unsigned char)line[len - 1]))
        len--;
    return len - i == 5 && memcmp(line + i, ": END", 5) == 0;
}

void glref_tgsi_free(glref_tgsi *progs, int n)
{
    if (!progs)
        return;
    for (int i = 0; i < n; i++)
        free(progs[i].text);
    free(progs);
}

int glref_tgsi_split(const char *dump, glref_tgsi **out)
{
    *out = NULL;
    int n = 0, cap = 0;
    glref_tgsi *progs = NULL;
    bool saw_nir = false, pending = false;
    const char *p = dump;
    while (*p) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        const char *next = eol ? eol + 1 : p + len;
        if (len > 19 && memcmp(p, "shader: MESA_SHADER_", 20) == 0) {
            pending = true; /* a NIR print; its name says whose program it is */
            saw_nir = false;
            p = next;
            continue;
        }
        if (pending && len > 6 && memcmp(p, "name: ", 6) == 0) {
            /* user programs are GLSL1, GLSL2, …; GLSL0 and ARB<n> are Mesa's own */
            saw_nir = len >= 11 && memcmp(p + 6, "GLSL", 4) == 0 &&
                      isdigit((unsigned char)p[10]) && strtol(p + 10, NULL, 10) > 0;
            pending = false;
            p = next;
            continue;
        }
        const char *stage = stage_of(p, len);
        if (!stage) {
            p = next;
            continue;
        }
        /* A program: up to and including its END line. */
        const char *start = p, *q = next;
        bool ended = false;
        while (*q) {
            const char *e2 = strchr(q, '\n');
            size_t l2 = e2 ? (size_t)(e2 - q) : strlen(q);
            const char *n2 = e2 ? e2 + 1 : q + l2;
            q = n2;
            if (is_end(q - (e2 ? l2 + 1 : l2), l2)) {
                ended = true;
                break;
            }
        }
        bool user = saw_nir && ended;
        saw_nir = false;
        p = q;
        if (!user)
            continue;
        size_t tlen = (size_t)(q - start);
        bool dup = false;
        for (int i = 0; i < n && !dup; i++)
            dup = strlen(progs[i].text) == tlen + (start[tlen - 1] == '\n' ? 0 : 1) &&
                  strncmp(progs[i].text, start, tlen) == 0;
        if (dup)
            continue;
        if (n == cap) {
            int nc = cap ? cap * 2 : 4;
            glref_tgsi *np = realloc(progs, (size_t)nc * sizeof *np);
            if (!np) {
                glref_tgsi_free(progs, n);
                return -1;
            }
            progs = np;
            cap = nc;
        }
        char *text = malloc(tlen + 2);
        if (!text) {
            glref_tgsi_free(progs, n);
            return -1;
        }
        memcpy(text, start, tlen);
        if (tlen == 0 || text[tlen - 1] != '\n')
            text[tlen++] = '\n';
        text[tlen] = '\0';
        snprintf(progs[n].stage, sizeof progs[n].stage, "%s", stage);
        progs[n].text = text;
        n++;
    }
    *out = progs;
    return n;
}
