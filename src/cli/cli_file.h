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

#include <stdio.h>

/* Writing an output file REL inside the output folder ROOT without ever leaving it: every
 * folder of REL is opened with O_NOFOLLOW (a missing one is created), so a symbolic link on
 * the way is refused, as is a final name that is a symbolic link or not a regular file. The
 * data goes to a temporary file in the same folder (F), renamed into place by
 * cli_out_commit; cli_out_abort removes it. */
typedef struct cli_out {
    int dirfd;
    char tmp[64];
    const char *name; /* the last component of REL */
    FILE *f;
} cli_out;

/* Check (and create the folders of) REL under ROOT without opening a file: 0, or CLI_EXIT_IO
 * / CLI_EXIT_INVALID with WHY. */
int cli_out_check(const char *root, const char *rel, char *why, size_t whysize);
int cli_out_open(cli_out *o, const char *root, const char *rel, char *why, size_t whysize);
/* Close and rename into place: 0, or CLI_EXIT_IO with WHY (the temporary file removed). */
int cli_out_commit(cli_out *o, char *why, size_t whysize);
void cli_out_abort(cli_out *o);

/* PATH for a message: as is up to 160 bytes, else its first 60 and last 90 bytes around
 * "...", so a long name never pushes the reason out of a message. BUF has 160 bytes. */
#define CLI_SHORT_PATH 160
const char *cli_short_path(const char *path, char buf[CLI_SHORT_PATH]);

/* PATH (relative to the working folder, or absolute) as seen from the folder BASE (relative
 * to the working folder): absolute stays absolute, else the relative route, e.g. "a/t.tgsi"
 * from "out" is "../a/t.tgsi". malloc'ed; NULL when out of memory or BASE does not exist. */
char *cli_path_from(const char *base, const char *path);
