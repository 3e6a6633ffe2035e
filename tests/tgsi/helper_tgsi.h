/* Shared helpers for the TGSI tests. */
#ifndef TEXVM_TESTS_HELPER_TGSI_H
#define TEXVM_TESTS_HELPER_TGSI_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "texvm/tgsi.h"
#include "util/half.h"

/* Read a whole file (NUL-terminated), NULL if it cannot be read. */
char *th_read(const char *path, size_t *len);
/* Parse; on failure returns NULL and fills err. */
tv_tgsi_program *th_parse(const char *text, tv_tgsi_mode mode, size_t *count, tv_error *err);
/* Parse; fail the test with `line:column: message` when the text does not parse. */
tv_tgsi_program *th_parse_ok(const char *text, tv_tgsi_mode mode, size_t *count);
/* Fail the test unless DOC (docs/errors-tgsi.md) lists MESSAGE, with each `|` escaped as `\|`
 * as in the document's tables. */
void th_expect_documented(const char *doc, const char *message);
/* All programs printed one after another (malloc'ed). */
char *th_print_all(const tv_tgsi_program *progs, size_t count);
/* parse -> print -> parse -> print: the two prints must be equal. Returns the first print
 * (malloc'ed) or NULL when the text does not parse. */
char *th_fixed_point(const char *text, size_t len, tv_tgsi_mode mode);
/* Format an error as `file:line:column: message`. */
void th_error_string(const tv_error *e, char *buf, size_t size);
/* List the regular files in a folder whose names end in `suffix` (sorted, malloc'ed). */
char **th_list(const char *dir, const char *suffix, size_t *count);
void th_free_list(char **names, size_t count);

#endif
