/* Suggestions for misspelt names in messages. */
#ifndef TEXVM_JOB_SUGGEST_H
#define TEXVM_JOB_SUGGEST_H
#include <stdbool.h>
#include <stddef.h>

/* Up to five format names near QUERY ("RGBA8": the R8G8B8A8_* formats; else the names at the
 * smallest edit distance up to 3), comma-separated in BUF; NULL when none is near. */
const char *job_suggest_format(const char *query, char *buf, size_t size);

#endif
