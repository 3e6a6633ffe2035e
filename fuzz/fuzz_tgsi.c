/* libFuzzer target for the TGSI front end: parse (default and legacy mode) -> validate
 * (lenient and strict) -> print -> parse -> print, asserting that the printed text parses
 * back in the default mode and is a fixed point of print(parse(.)).
 *   CC=clang scripts/build.sh build-fuzz-tgsi -DTEXVM_FUZZ=ON
 *   build-fuzz-tgsi/fuzz/fuzz_tgsi -max_total_time=660 -dict=fuzz/fuzz_tgsi.dict \
 *       fuzz/work/tgsi fuzz/corpus/tgsi */
#include "texvm/tgsi.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *print_all(const tv_tgsi_program *p, size_t n, size_t *len)
{
    size_t total = 0;
    for (size_t i = 0; i < n; i++)
        total += tv_tgsi_print(&p[i], NULL, 0);
    char *s = malloc(total + 1);
    if (!s)
        abort();
    size_t off = 0;
    for (size_t i = 0; i < n; i++)
        off += tv_tgsi_print(&p[i], s + off, total + 1 - off);
    s[off] = '\0';
    *len = off;
    return s;
}

static void one(const char *text, size_t size, tv_tgsi_mode mode)
{
    tv_tgsi_program *p;
    size_t n;
    tv_error err;
    if (tv_tgsi_parse(text, size, "fuzz", mode, &p, &n, &err) != TV_OK) {
        if (!err.message[0] || err.line == 0)
            abort(); /* every parse error has a message and a position */
        return;
    }
    for (size_t i = 0; i < n; i++) {
        tv_tgsi_validate(&p[i], TV_TGSI_LENIENT, &err);
        tv_tgsi_validate(&p[i], TV_TGSI_STRICT, &err);
    }
    size_t l1, l2;
    char *s1 = print_all(p, n, &l1);
    tv_tgsi_program *q;
    size_t m;
    if (tv_tgsi_parse(s1, l1, "printed", TV_TGSI_MODE_DEFAULT, &q, &m, &err) != TV_OK) {
        fprintf(stderr, "printed text does not parse: %u:%u: %s\n%s\n", err.line, err.column,
                err.message, s1);
        abort();
    }
    char *s2 = print_all(q, m, &l2);
    if (m != n || l1 != l2 || memcmp(s1, s2, l1)) {
        fprintf(stderr, "not a fixed point:\n--- first\n%s--- second\n%s", s1, s2);
        abort();
    }
    /* validation must not depend on printing */
    for (size_t i = 0; i < n; i++) {
        tv_error e1, e2;
        tv_status a = tv_tgsi_validate(&p[i], TV_TGSI_STRICT, &e1);
        tv_status b = tv_tgsi_validate(&q[i], TV_TGSI_STRICT, &e2);
        if ((a == TV_OK) != (b == TV_OK)) {
            fprintf(stderr, "validation differs after printing: %s / %s\n%s", e1.message,
                    e2.message, s1);
            abort();
        }
    }
    free(s1);
    free(s2);
    tv_tgsi_programs_free(p, n);
    tv_tgsi_programs_free(q, m);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);
int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    /* an exact-size copy so ASan sees any read past the end */
    char *text = malloc(size ? size : 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    one(text, size, TV_TGSI_MODE_DEFAULT);
    one(text, size, TV_TGSI_MODE_LEGACY);
    free(text);
    return 0;
}
