/* texvm's job library (src/job/, docs/jobs.md): job files loaded and checked, run on the
 * engine, the texture unit and the graphics pipeline, their outputs written and their
 * checks made; the short forms of `texvm run`; the `texvm sass` script runner; and the one
 * way every input file is read and every output file written. The texvm program calls
 * it through this header alone (the build gives the program no other include folder);
 * the benchmarks, fuzzers, tools and tests link it too. Results are the program's exit
 * codes (TV_EXIT_*); messages go to stderr. It needs libpng and cJSON, so it is linked
 * into the program and is not installed with libtexvm. */
#ifndef TEXVM_JOB_H
#define TEXVM_JOB_H

#include "texvm/texvm.h"
#include "texvm/tgsi.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Exit codes of the texvm program, and what the library's calls return (docs/cli.md). */
enum {
    TV_EXIT_OK = 0,
    TV_EXIT_INVALID = 1,     /* input parsed/ran but was rejected (invalid, fault, check) */
    TV_EXIT_USAGE = 2,       /* bad command line */
    TV_EXIT_IO = 3,          /* a file could not be read or written */
    TV_EXIT_UNSUPPORTED = 4  /* a documented feature texvm does not have */
};

/* ---- files (job_file.c) ------------------------------------------------------------------
 * Inputs: open non-blocking (a FIFO or a device never blocks the open), fstat, refuse
 * anything that is not a regular file and any file over a size limit, then read at most
 * that many bytes; standard input ("-" where allowed) with the same limit. Results: 0 ok;
 * TV_EXIT_IO not readable, not a regular file; TV_EXIT_INVALID larger than MAX. On failure
 * WHY gets the reason without the path, e.g. "is a directory", "not a regular file (a
 * FIFO)", "No such file or directory", "has 5000 bytes, more than the limit of 4096 bytes". */

/* The limit on a text input of check, fmt, sass and the job file of run (docs/limits.md). */
#define TV_MAX_TEXT_INPUT ((uint64_t)64 << 20)

/* Open PATH for reading after the checks; the descriptor is blocking again. */
int tv_file_open(const char *path, uint64_t max, int *fd, char *why, size_t whysize);
/* Read all of PATH ("-" = standard input when STDIN_OK) into a NUL-terminated buffer. */
int tv_file_read(const char *path, bool stdin_ok, uint64_t max, uint8_t **data, size_t *size,
                 char *why, size_t whysize);

/* Writing an output file REL inside the output folder ROOT without ever leaving it: every
 * folder of REL is opened with O_NOFOLLOW (a missing one is created), so a symbolic link on
 * the way is refused, as is a final name that is a symbolic link or not a regular file. The
 * data goes to a temporary file in the same folder (F), renamed into place by
 * tv_out_commit; tv_out_abort removes it. */
typedef struct tv_out {
    int dirfd;
    char tmp[64];
    const char *name; /* the last component of REL */
    FILE *f;
} tv_out;

/* Check (and create the folders of) REL under ROOT without opening a file: 0, or
 * TV_EXIT_IO / TV_EXIT_INVALID with WHY. */
int tv_out_check(const char *root, const char *rel, char *why, size_t whysize);
int tv_out_open(tv_out *o, const char *root, const char *rel, char *why, size_t whysize);
/* Close and rename into place: 0, or TV_EXIT_IO with WHY (the temporary file removed). */
int tv_out_commit(tv_out *o, char *why, size_t whysize);
void tv_out_abort(tv_out *o);

/* PATH for a message: as is up to 160 bytes, else its first 60 and last 90 bytes around
 * "...", so a long name never pushes the reason out of a message. BUF has 160 bytes. */
#define TV_SHORT_PATH 160
const char *tv_short_path(const char *path, char buf[TV_SHORT_PATH]);

/* PATH (relative to the working folder, or absolute) as seen from the folder BASE (relative
 * to the working folder): absolute stays absolute, else the relative route, e.g. "a/t.tgsi"
 * from "out" is "../a/t.tgsi". malloc'ed; NULL when out of memory or BASE does not exist. */
char *tv_path_from(const char *base, const char *path);

/* Print a library error as `file:line:column: message` (and its source line) on stderr. */
void tv_job_print_error(const tv_error *err);

/* ---- jobs (job_load*.c, job_run*.c) ------------------------------------------------------ */
typedef struct tv_job tv_job;

/* A loader error: exit-code class and `file: at key "path": message`. */
typedef enum tv_job_errclass {
    TV_JOB_ERR_NONE = 0,
    TV_JOB_ERR_INVALID = 1,     /* the job is malformed (exit 1) */
    TV_JOB_ERR_IO = 3,          /* a file could not be read/written (exit 3) */
    TV_JOB_ERR_UNSUPPORTED = 4  /* a documented feature texvm does not have (exit 4) */
} tv_job_errclass;

typedef struct tv_job_error {
    tv_job_errclass cls;
    char message[1024];
} tv_job_error;

/* Load, validate and build the data of a job file. On failure returns NULL and fills
 * `err` with `FILE: at key "PATH": message`. */
tv_job *tv_job_load_file(const char *path, tv_job_error *err);
/* The same from JSON text; `path` names it in messages and gives the base directory. */
tv_job *tv_job_load_text(const char *text, size_t len, const char *path, tv_job_error *err);
void tv_job_free(tv_job *j);

/* The memory limit of the jobs loaded and run after the call (docs/limits.md: every byte a
 * job makes texvm allocate for its resources; 2 GiB by default); 0 restores the default. */
void tv_job_set_max_memory(uint64_t bytes);

typedef struct tv_job_run_opts {
    const char *out_dir;     /* NULL = the job file's directory */
    int threads;             /* -1 = the job's option (else 0 = one per core) */
    uint64_t max_instructions; /* 0 = the job's option */
    uint64_t max_loop_iterations; /* 0 = the job's option */
    uint32_t max_call_depth;   /* 0 = the job's option */
    uint64_t max_memory;       /* 0 = the job's option */
    int precision;           /* -1 = the job's option */
    bool trace;              /* print every executed instruction of one invocation */
    uint32_t trace_id[3];    /* FRAG x,y,sample; COMP global x,y,z; VERT vertex,instance */
    FILE *trace_out;         /* NULL = stdout */
    bool quiet;              /* no summary lines */
    bool plain;              /* the plain interpreter (tv_vm_config.plain) */
    uint8_t jit;             /* tv_vm_config.jit: TV_VM_JIT_AUTO (0), _OFF or _ALWAYS */
} tv_job_run_opts;

/* Run the job: its resources, the stage or scene, outputs and checks; the summary on
 * stdout, messages on stderr. Returns TV_EXIT_OK, TV_EXIT_INVALID (invalid, fault, failed
 * check), TV_EXIT_IO or TV_EXIT_UNSUPPORTED. */
int tv_job_run(const tv_job *j, const tv_job_run_opts *opts);

/* ---- short forms of texvm run (job_short.c, docs/jobs-command-line.md §1) ------------ */
#define TV_JOB_SHORT_MAX 32

typedef struct tv_job_short_args {
    const char *size, *grid, *block, *out;
    const char *tex[TV_JOB_SHORT_MAX];
    unsigned num_tex;
    const char *consts[TV_JOB_SHORT_MAX];
    unsigned num_const;
    const char *buffers[TV_JOB_SHORT_MAX];
    unsigned num_buffer;
    const char *base; /* when set, input paths are written relative to this folder (the
                         folder of --save-job's file) instead of the working folder */
} tv_job_short_args;

/* A TGSI file plus options as job JSON text (malloc'ed), or NULL with a message.
 * `tgsi_path` is written into the job as given (relative to the current directory). */
char *tv_job_short_build(const char *tgsi_path, const tv_tgsi_program *prog,
                         const tv_job_short_args *a, char *msg, size_t msgsize);

/* A job file's JSON with its constant buffers replaced by the --const options (a->consts).
 * NULL when the text is not a JSON object (then `msg` is empty: load the file as it is, so
 * the loader reports the problem) or an option is malformed (`msg` says why). */
char *tv_job_patch_constants(const char *text, size_t len, const tv_job_short_args *a,
                             char *msg, size_t msgsize);

/* ---- texvm sass scripts (sass_script*.c, docs/sass.md) ---------------------------------- */
#define TV_SASS_SCRIPT_MEM_SIZE (32u << 20)   /* the memory `texvm sass` gives a script */

/* Run script TEXT (LEN bytes, one more writable byte after them; NAME in messages) with
 * MEM_SIZE bytes of script memory: what each instruction wrote on stdout, the first error
 * as `NAME:LINE:COL: message` on stderr. TV_EXIT_OK, TV_EXIT_INVALID or TV_EXIT_IO. */
int tv_sass_script_run(const char *name, char *text, size_t len, uint32_t mem_size);
/* The script language's summary (`texvm sass --help`). */
void tv_sass_script_usage(FILE *f);

#ifdef __cplusplus
}
#endif

#endif
