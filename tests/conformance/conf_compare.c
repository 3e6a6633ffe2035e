/* conf_compare: compare texvm's raw RGBA32F output of one conformance case with
 * llvmpipe's and softpipe's.
 *   conf_compare TEXVM.raw LLVMPIPE.raw SOFTPIPE.raw TOLERANCE
 * Prints "<llvmpipe verdict> <softpipe verdict> <max diff vs llvmpipe> <max diff vs
 * softpipe>" where a verdict is `exact` (every word bit-identical; NaN matches NaN),
 * `tol` (every value within TOLERANCE, absolute) or `diff`. Exit 0, or 2 when a file is
 * missing or the sizes differ. */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint32_t *load(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, len = 0;
    uint32_t *w = malloc(cap * 4);
    size_t got;
    while (w && (got = fread(w + len, 4, cap - len, f)) > 0) {
        len += got;
        if (len == cap) {
            uint32_t *nw = realloc(w, cap * 8);
            if (!nw) {
                free(w);
                w = NULL;
                break;
            }
            w = nw;
            cap *= 2;
        }
    }
    fclose(f);
    *n = len;
    return w;
}

static float as_f(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static const char *verdict(const uint32_t *a, const uint32_t *b, size_t n, double tol,
                           double *maxd)
{
    bool exact = true, within = true;
    *maxd = 0;
    for (size_t i = 0; i < n; i++) {
        float x = as_f(a[i]), y = as_f(b[i]);
        if (a[i] == b[i] || (isnan(x) && isnan(y)))
            continue;
        exact = false;
        double d = fabs((double)x - (double)y);
        if (isnan(d))
            d = INFINITY;
        if (d > *maxd)
            *maxd = d;
        if (!(d <= tol))
            within = false;
    }
    return exact ? "exact" : within ? "tol" : "diff";
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: conf_compare TEXVM LLVMPIPE SOFTPIPE TOLERANCE\n");
        return 2;
    }
    size_t nt = 0, nl = 0, ns = 0;
    uint32_t *t = load(argv[1], &nt), *l = load(argv[2], &nl), *s = load(argv[3], &ns);
    double tol = strtod(argv[4], NULL);
    if (!t || !l || !s || nt != nl || nt != ns || nt == 0) {
        printf("missing missing 0 0\n");
        free(t);
        free(l);
        free(s);
        return 2;
    }
    double dl = 0, ds = 0;
    const char *vl = verdict(t, l, nt, tol, &dl);
    const char *vs = verdict(t, s, nt, tol, &ds);
    printf("%s %s %.3g %.3g\n", vl, vs, dl, ds);
    free(t);
    free(l);
    free(s);
    return 0;
}
