/* Internal helpers for filling tv_error records. */
#ifndef TEXVM_UTIL_ERROR_H
#define TEXVM_UTIL_ERROR_H

#include "texvm/texvm.h"

#if defined(__GNUC__)
#define TV_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define TV_PRINTF(a, b)
#endif

/* Fill `e` (which may be NULL) and return `code`, so callers can `return tv_error_set(...)`. */
tv_status tv_error_set(tv_error *e, tv_status code, uint32_t line, uint32_t column,
                       const char *fmt, ...) TV_PRINTF(5, 6);
void tv_error_clear(tv_error *e);

#endif
