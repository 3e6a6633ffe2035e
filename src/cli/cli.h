/* The texvm program: one file per subcommand, a table in main.c. It sees the public
 * headers only (include/texvm/; the job library's is texvm/job.h). */
#ifndef TEXVM_CLI_H
#define TEXVM_CLI_H

#include "texvm/job.h"   /* the job library: exit codes, files, jobs, scripts */
#include "texvm/texvm.h"
#include "texvm/tgsi.h"
#include <stdio.h>

typedef int (*cli_command_fn)(int argc, char **argv);

typedef struct cli_command {
    const char *name;
    const char *summary;
    cli_command_fn run;
} cli_command;

int cli_check(int argc, char **argv);
int cli_fmt(int argc, char **argv);
int cli_run(int argc, char **argv);
int cli_sass(int argc, char **argv);

/* A flag option of a command: NAME (and ALIAS, or NULL) sets *SET. */
typedef struct cli_flag {
    const char *name, *alias;
    bool *set;
} cli_flag;
/* The command line of a command taking flags and files (CMD names it in messages; FLAGS
 * ends with a NULL name): --help/-h prints USAGE on stdout and gives TV_EXIT_OK; an unknown
 * option, or no file, prints USAGE on stderr and gives TV_EXIT_USAGE; else -1 (run). */
int cli_parse_flags(int argc, char **argv, const char *cmd, const cli_flag *flags,
                    void (*usage)(FILE *));
/* Whether a command-line argument is a file ("-" is stdin) rather than an option. */
bool cli_is_file_arg(const char *arg);
/* Read a whole text file (NUL-terminated; a regular file of at most TV_MAX_TEXT_INPUT bytes,
 * cli_file.h); NULL and `PATH: cannot read: REASON` on stderr on failure, with the exit code
 * (TV_EXIT_IO, or TV_EXIT_INVALID when too large) in cli_last_read_status. */
char *cli_read_file(const char *path, size_t *len);
/* cli_read_file, or all of stdin (same limit) when PATH is "-". */
char *cli_read_input(const char *path, size_t *len);
extern int cli_last_read_status;
/* Read PATH (or stdin for "-") and parse its TGSI programs in MODE. Returns TV_EXIT_OK
 * with the programs in PROGS and COUNT (free with tv_tgsi_programs_free), TV_EXIT_IO
 * when the file could not be read, or TV_EXIT_INVALID after printing the parse error. */
int cli_parse_tgsi_input(const char *path, tv_tgsi_mode mode, tv_tgsi_program **progs,
                         size_t *count);
/* A worker count of --threads for the vtest server and replay: 1..64 into *OUT, 0; else
 * `CMD: --threads ARG: expected 1..64` on stderr and -1. */
int cli_parse_threads(const char *cmd, const char *arg, uint32_t *out);
/* The processor's model name (Linux's /proc/cpuinfo), or "unknown", in BUF. */
const char *cli_cpu_model(char *buf, size_t size);

#endif
