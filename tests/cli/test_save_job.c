/* --save-job writes input paths relative to the saved job's folder, so the saved job runs
 * from its own folder (issue 15). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void saved_job_runs_from_its_folder(void **state)
{
    (void)state;
    const char *bin = getenv("TEXVM_BIN");
    assert_non_null(bin);
    char dir[] = "/tmp/texvm_save_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "cd '%s' && mkdir a out && printf 'FRAG\\nDCL OUT[0], COLOR\\nIMM[0] FLT32 "
             "{1,0,0,1}\\nMOV OUT[0], IMM[0]\\nEND\\n' > a/t.tgsi && "
             "'%s' run a/t.tgsi --size 2x2 --save-job out/j.json --quiet 2>/dev/null && "
             "grep -q '\"tgsi\":[[:space:]]*\"../a/t.tgsi\"' out/j.json && "
             "cd out && '%s' run j.json --quiet && test -f out.png",
             dir, bin, bin);
    int rc = system(cmd);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
    assert_int_equal(rc, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(saved_job_runs_from_its_folder)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
