/* Files for the tests of every module (tests/common, linked into each test program). */
#ifndef TEXVM_TESTS_COMMON_COMMON_FILE_H
#define TEXVM_TESTS_COMMON_COMMON_FILE_H

#include <stddef.h>

/* The whole file at PATH, NUL-terminated (free() it), its length in *SIZE when SIZE is not
 * NULL; NULL when it cannot be opened or read. */
char *tc_slurp(const char *path, size_t *size);

#endif
