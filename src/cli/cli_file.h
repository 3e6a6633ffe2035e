/* The one way texvm opens and reads an input file (every command, every input path):
 * open non-blocking (a FIFO or a device never blocks the open), fstat, refuse anything that
 * is not a regular file and any file over a size limit, then read at most that many bytes.
 * Standard input ("-" where a command allows it) is read with the same limit. */
#ifndef TEXVM_CLI_FILE_H
#define TEXVM_CLI_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The limit on a text input of check, fmt, sass and the job file of run (docs/limits.md). */
#define CLI_MAX_TEXT_INPUT ((uint64_t)64 << 20)

/* Results: 0 ok; CLI_EXIT_IO (3) not readable, not a regular file; CLI_EXIT_INVALID (1)
 * larger than MAX. On failure WHY gets the reason without the path, e.g. "is a directory",
 * "not a regular file (a FIFO)", "No such file or directory",
 * "has 5000 bytes, more than the limit of 4096 bytes". */

/* Open PATH for reading after the checks; the descriptor is blocking again. */
int cli_file_open(const char *path, uint64_t max, int *fd, char *why, size_t whysize);
/* Read all of PATH ("-" = standard input when STDIN_OK) into a NUL-terminated buffer. */
int cli_file_read(const char *path, bool stdin_ok, uint64_t max, uint8_t **data, size_t *size,
                  char *why, size_t whysize);

#endif
