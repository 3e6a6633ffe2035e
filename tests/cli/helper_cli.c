/* Helpers shared by the tests/cli tests. */
#include "helper_cli.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static char tmpdir[256];

static void cleanup(void)
{
    if (tmpdir[0]) {
        char cmd[300];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
        if (system(cmd) != 0)
            fprintf(stderr, "could not remove %s\n", tmpdir);
    }
}

const char *tcli_tmpdir(void)
{
    if (!tmpdir[0]) {
        const char *base = getenv("TMPDIR");
        snprintf(tmpdir, sizeof tmpdir, "%s/texvm-cli-XXXXXX", base && *base ? base : "/tmp");
        if (!mkdtemp(tmpdir)) {
            fprintf(stderr, "mkdtemp failed\n");
            exit(1);
        }
        atexit(cleanup);
    }
    return tmpdir;
}

const char *tcli_path(const char *name)
{
    static char bufs[8][512];
    static int next;
    char *b = bufs[next++ % 8];
    snprintf(b, 512, "%s/%s", tcli_tmpdir(), name);
    return b;
}

const char *tcli_write(const char *name, const void *data, size_t size)
{
    const char *p = tcli_path(name);
    FILE *f = fopen(p, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, size, f), size);
    assert_int_equal(fclose(f), 0);
    return p;
}

/* Test JSON is written with single quotes; turn them into double quotes. */
static char *dq(const char *json)
{
    char *s = strdup(json);
    assert_non_null(s);
    for (char *p = s; *p; p++)
        if (*p == '\'')
            *p = '"';
    return s;
}

const char *tcli_json(const char *name, const char *json)
{
    char *t = dq(json);
    const char *p = tcli_write(name, t, strlen(t));
    free(t);
    return p;
}

job *tcli_load_ok(const char *json)
{
    tv_job_error err = {0};
    char *t = dq(json);
    job *j = tv_job_load_text(t, strlen(t), tcli_path("job.json"), &err);
    free(t);
    if (!j)
        fail_msg("unexpected load error: %s", err.message);
    return j;
}

void tcli_load_fail(const char *json, tv_job_errclass cls, const char *message)
{
    tv_job_error err = {0};
    const char *path = tcli_path("job.json");
    char *t = dq(json);
    job *j = tv_job_load_text(t, strlen(t), path, &err);
    free(t);
    if (j) {
        tv_job_free(j);
        fail_msg("expected the error: %s", message);
    }
    char want[1200];
    snprintf(want, sizeof want, "%s: %s", path, message);
    assert_string_equal(err.message, want);
    assert_int_equal(err.cls, cls);
}

const char *tcli_bin(void)
{
    const char *b = getenv("TEXVM_BIN");
    return b && *b ? b : TEXVM_BINARY_DIR "/texvm";
}

int tcli_run(const char *args)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "cd '%s' && '%s' run %s >stdout.txt 2>stderr.txt", tcli_tmpdir(),
             tcli_bin(), args);
    int st = system(cmd);
    assert_true(WIFEXITED(st));
    return WEXITSTATUS(st);
}
