/* Short forms of texvm run (docs/jobs.md §15): a TGSI file plus options -> job JSON. */
#ifndef TEXVM_CLI_JOB_SHORT_H
#define TEXVM_CLI_JOB_SHORT_H

#include "texvm/tgsi.h"

#include <stdbool.h>
#include <stddef.h>

#define JOB_SHORT_MAX 32

typedef struct job_short_args {
    const char *size, *grid, *block, *out;
    const char *tex[JOB_SHORT_MAX];
    unsigned num_tex;
    const char *consts[JOB_SHORT_MAX];
    unsigned num_const;
    const char *buffers[JOB_SHORT_MAX];
    unsigned num_buffer;
    const char *base; /* when set, input paths are written relative to this folder (the
                         folder of --save-job's file) instead of the working folder */
} job_short_args;

/* The job as JSON text (malloc'ed), or NULL with a message. `tgsi_path` is written into
 * the job as given (relative to the current directory). */
char *job_short_build(const char *tgsi_path, const tv_tgsi_program *prog,
                      const job_short_args *a, char *msg, size_t msgsize);

/* A job file's JSON with its constant buffers replaced by the --const options (a->consts).
 * NULL when the text is not a JSON object (then `msg` is empty: load the file as it is, so
 * the loader reports the problem) or an option is malformed (`msg` says why). */
char *job_patch_constants(const char *text, size_t len, const job_short_args *a, char *msg,
                          size_t msgsize);

#endif
