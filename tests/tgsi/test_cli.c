/* texvm check / texvm fmt as a user runs them (TEXVM_BIN from CTest). */
#include "helper_tgsi.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

static const char *bin(void)
{
    const char *b = getenv("TEXVM_BIN");
    return b && *b ? b : TEXVM_BINARY_DIR "/texvm";
}

/* Run `texvm ARGS` (stderr folded into stdout); returns the exit status. */
static int run(const char *args, char *out, size_t size)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "cd '%s' && '%s' %s 2>&1", TEXVM_SOURCE_DIR, bin(), args);
    FILE *f = popen(cmd, "r");
    assert_non_null(f);
    size_t n = fread(out, 1, size - 1, f);
    out[n] = '\0';
    int st = pclose(f);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static char tmpdir[256];

static const char *write_tmp(const char *name, const char *text)
{
    static char path[512];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return path;
}

static int setup(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "%s/tgsi_cli_tmp", TEXVM_BINARY_DIR);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

static void test_check_examples(void **state)
{
    (void)state;
    char out[8192];
    int rc = run("check --strict examples/tgsi/blur.frag.tgsi examples/tgsi/scan.comp.tgsi "
                 "examples/tgsi/textured.tgsi",
                 out, sizeof out);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out, "examples/tgsi/textured.tgsi: ok (2 programs)"));
}

static void test_check_failures(void **state)
{
    (void)state;
    char out[8192], args[1024];
    const char *bad = write_tmp("bad.tgsi", "FRAG\nDCL TEMP[0]\nMOV TEMP[0], TEMP[1]\nEND\n");
    snprintf(args, sizeof args, "check '%s'", bad);
    assert_int_equal(run(args, out, sizeof out), 1);
    char want[1024];
    snprintf(want, sizeof want, "%s:3:1: `TEMP[1]` is not declared\n    near: MOV TEMP[0], TEMP[1]\n",
             bad);
    assert_string_equal(out, want);

    const char *noend = write_tmp("noend.tgsi", "VERT\nDCL IN[0]\nDCL OUT[0], POSITION\n"
                                                "MOV OUT[0], IN[0]\n");
    snprintf(args, sizeof args, "check -q '%s'", noend);
    assert_int_equal(run(args, out, sizeof out), 0); /* lenient: Mesa accepts it */
    snprintf(args, sizeof args, "check --strict '%s'", noend);
    assert_int_equal(run(args, out, sizeof out), 1);
    assert_non_null(strstr(out, ":4:1: the program has no `END`"));

    const char *syntax = write_tmp("syntax.tgsi", "FRAG\nMOV TEMP[0], IN[0].x\n");
    snprintf(args, sizeof args, "check '%s' examples/tgsi/blur.frag.tgsi", syntax);
    assert_int_equal(run(args, out, sizeof out), 1); /* one bad file is enough */
    assert_non_null(strstr(out, ":2:20: a source swizzle needs 4 components"));
    assert_non_null(strstr(out, "blur.frag.tgsi: ok"));

    assert_int_equal(run("check", out, sizeof out), 2);
    assert_int_equal(run("check --bogus x", out, sizeof out), 2);
    assert_int_equal(run("check /nonexistent/file.tgsi", out, sizeof out), 3);
    assert_int_equal(run("check --help", out, sizeof out), 0);
    assert_non_null(strstr(out, "usage: texvm check [--strict|--legacy]"));
}

static void test_fmt(void **state)
{
    (void)state;
    char out[8192], args[1024];
    const char *in = write_tmp("loose.tgsi", "; two programs, loosely written\r\n"
                                             "vert\r\ndcl in[0]\r\ndcl out[0], position\r\n"
                                             "mov out[0], in[0].xyzw ; copy\r\nend\r\n"
                                             "FRAG\nDCL OUT[0], COLOR\nIMM FLT32 {1, 0.5, 0, 1}\n"
                                             "MOV OUT[0], IMM[0]\nEND\n");
    snprintf(args, sizeof args, "fmt '%s'", in);
    assert_int_equal(run(args, out, sizeof out), 0);
    assert_string_equal(out, "VERT\nDCL IN[0]\nDCL OUT[0], POSITION\n"
                             "  0: MOV OUT[0], IN[0]\n  1: END\n"
                             "FRAG\nDCL OUT[0], COLOR\n"
                             "IMM[0] FLT32 {    1.0000,     0.5000,     0.0000,     1.0000}\n"
                             "  0: MOV OUT[0], IMM[0]\n  1: END\n");
    const char *leg = write_tmp("legacy.tgsi", "FRAG\nDCL IN[0]\nDCL OUT[0], COLOR\n"
                                               "SUB OUT[0], IN[0], IN[0].wwww\nEND\n");
    snprintf(args, sizeof args, "fmt '%s'", leg);
    assert_int_equal(run(args, out, sizeof out), 1);
    assert_non_null(strstr(out, "`SUB` was removed from TGSI (legacy syntax)"));
    snprintf(args, sizeof args, "fmt --legacy '%s'", leg);
    assert_int_equal(run(args, out, sizeof out), 0);
    assert_string_equal(out, "FRAG\nDCL IN[0]\nDCL OUT[0], COLOR\n"
                             "  0: ADD OUT[0], IN[0], -IN[0].wwww\n  1: END\n");
    assert_int_equal(run("fmt --help", out, sizeof out), 0);
    assert_non_null(strstr(out, "usage: texvm fmt"));
    assert_int_equal(run("fmt", out, sizeof out), 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_check_examples),
        cmocka_unit_test(test_check_failures),
        cmocka_unit_test(test_fmt),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
