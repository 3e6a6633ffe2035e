/* Helpers shared by the tests/cli tests. */
#ifndef TEXVM_TESTS_CLI_HELPER_H
#define TEXVM_TESTS_CLI_HELPER_H

#include "job.h"

#include <stddef.h>

/* A fresh temporary directory for this test program (removed at exit). */
const char *tcli_tmpdir(void);
/* Write a file under the temporary directory; returns its full path (static buffer
 * rotation of 8). */
const char *tcli_write(const char *name, const void *data, size_t size);
const char *tcli_path(const char *name);
/* JSON text is written with ' for \" (converted before loading or writing). */
/* Write such JSON text as file `name` of the temporary directory (tcli_write). */
const char *tcli_json(const char *name, const char *json);
/* Load JSON text as if it were the file <tmpdir>/job.json; assert success. */
job *tcli_load_ok(const char *json);
/* Load and expect failure with exactly `message` after "<tmpdir>/job.json: " and class. */
void tcli_load_fail(const char *json, tv_job_errclass cls, const char *message);
/* The texvm program under test ($TEXVM_BIN, else the build's). */
const char *tcli_bin(void);
/* Run `texvm run ARGS` in the temporary directory, stdout and stderr to stdout.txt and
 * stderr.txt there; returns the exit code (asserts it exited). */
int tcli_run(const char *args);

#endif
