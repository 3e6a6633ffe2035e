/* mesa-run: the little GLSL text handling it needs (global in/out declarations, the
 * #version line, attribute conversions). */
#include "mr.h"

#include <string.h>


static bool is_qualifier(const char *w)
{
    static const char *const k[] = {"flat", "noperspective", "smooth", "centroid", "sample",
                                    "highp", "mediump", "lowp", NULL};
    for (int i = 0; k[i]; i++)
        if (!strcmp(k[i], w))
            return true;
    return false;
}

/* Scan global-scope declarations `[qualifiers] KEYWORD TYPE NAME;` (no arrays or blocks). */
int mr_scan_decls(const char *src, const char *keyword, mr_decl *out, int max)
{
    int n = 0, depth = 0;
    const char *p = src;
    char stmt[512];
    size_t len = 0;
    while (*p) {
        if (p[0] == '/' && p[1] == '/') {
            while (*p && *p != '\n')
                p++;
            continue;
        }
        if (p[0] == '/' && p[1] == '*') {
            const char *e = strstr(p + 2, "*/");
            p = e ? e + 2 : p + strlen(p);
            continue;
        }
        if (*p == '#') { /* preprocessor line */
            while (*p && *p != '\n')
                p++;
            continue;
        }
        if (*p == '{')
            depth++;
        if (*p == '}')
            depth--;
        if (*p == ';' || *p == '{' || *p == '}') {
            stmt[len] = '\0';
            if (*p == ';' && depth == 0 && n < max) {
                char words[8][64];
                int nw = 0;
                for (char *t = strtok(stmt, " \t\r\n"); t && nw < 8; t = strtok(NULL, " \t\r\n"))
                    snprintf(words[nw++], 64, "%s", t);
                int in_at = -1;
                for (int i = 0; i < nw; i++)
                    if (!strcmp(words[i], keyword))
                        in_at = i;
                if (in_at >= 0 && nw == in_at + 3 && !strchr(words[nw - 1], '[')) {
                    mr_decl *e = &out[n];
                    e->qual[0] = '\0';
                    bool ok = true;
                    for (int i = 0; i < in_at; i++) {
                        if (!is_qualifier(words[i])) {
                            ok = strncmp(words[i], "layout", 6) == 0 ? true : false;
                            continue;
                        }
                        if (strlen(e->qual) + strlen(words[i]) + 2 < sizeof e->qual) {
                            strcat(e->qual, words[i]);
                            strcat(e->qual, " ");
                        }
                    }
                    /* a redeclared built-in (layout(origin_upper_left) in vec4
                       gl_FragCoord) is not an input the vertex shader feeds */
                    if (!strncmp(words[in_at + 2], "gl_", 3))
                        ok = false;
                    if (ok) {
                        snprintf(e->type, sizeof e->type, "%s", words[in_at + 1]);
                        snprintf(e->name, sizeof e->name, "%s", words[in_at + 2]);
                        n++;
                    }
                }
            }
            len = 0;
        } else if (len + 1 < sizeof stmt) {
            stmt[len++] = *p;
        }
        p++;
    }
    return n;
}

/* vec4 attribute (raw words) -> the input's type. */
const char *mr_conv(const char *type, char *buf, size_t n, int k)
{
    static const struct {
        const char *type, *fmt;
    } k_conv[] = {
        {"float", "a%d.x"}, {"vec2", "a%d.xy"}, {"vec3", "a%d.xyz"}, {"vec4", "a%d"},
        {"int", "floatBitsToInt(a%d.x)"}, {"ivec2", "floatBitsToInt(a%d.xy)"},
        {"ivec3", "floatBitsToInt(a%d.xyz)"}, {"ivec4", "floatBitsToInt(a%d)"},
        {"uint", "floatBitsToUint(a%d.x)"}, {"uvec2", "floatBitsToUint(a%d.xy)"},
        {"uvec3", "floatBitsToUint(a%d.xyz)"}, {"uvec4", "floatBitsToUint(a%d)"},
    };
    for (size_t i = 0; i < sizeof k_conv / sizeof k_conv[0]; i++)
        if (!strcmp(k_conv[i].type, type)) {
            snprintf(buf, n, k_conv[i].fmt, k);
            return buf;
        }
    return NULL;
}

/* The #version line of a shader (for the generated companion shader). */
void mr_version_line(const char *fs, char *out, size_t n)
{
    const char *v = strstr(fs, "#version");
    if (!v) {
        snprintf(out, n, "#version 110");
        return;
    }
    size_t len = strcspn(v, "\r\n");
    snprintf(out, n, "%.*s", (int)len, v);
}

