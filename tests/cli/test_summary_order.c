/* The run summary is the last line of `texvm run` (issue 15): after the outputs, after a
 * failing check and its message, so an error is never followed by nothing but buried
 * above the statistics. A compute job with a failing check runs through $TEXVM_BIN. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

static void test_summary_after_failed_check(void **state)
{
    (void)state;
    char dir[] = "/tmp/texvm_summary_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char job[128];
    snprintf(job, sizeof job, "%s/job.json", dir);
    FILE *f = fopen(job, "w");
    assert_non_null(f);
    /* the buffer starts as zeros and the program leaves it: the check wants 5 */
    fputs("{\"texvm_job\": 1, \"programs\": [{\"tgsi_text\": \"COMP\\nEND\\n\"}],"
          " \"comp\": {\"grid\": [1, 1, 1]},"
          " \"buffers\": [{\"name\": \"b\", \"slot\": 0, \"size\": 16}],"
          " \"checks\": [{\"buffer\": \"b\", \"offset\": 0, \"type\": \"uint\", \"values\": [5]}]}",
          f);
    fclose(f);
    const char *bin = getenv("TEXVM_BIN");
    char cmd[512];
    snprintf(cmd, sizeof cmd, "'%s' run %s --out-dir %s 2>&1 >/dev/null",
             bin ? bin : TEXVM_BINARY_DIR "/texvm", job, dir);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    char out[4096];
    size_t n = fread(out, 1, sizeof out - 1, p);
    out[n] = '\0';
    int st = pclose(p);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 1);
    const char *fail = strstr(out, "check");
    const char *summary = strstr(out, "COMP grid 1x1x1: ");
    if (!fail || !summary || summary < fail)
        fail_msg("expected the check's failure, then the summary; got:\n%s", out);
    /* the summary is the last line */
    assert_null(strchr(strchr(summary, '\n') + 1, '\n'));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_summary_after_failed_check),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
