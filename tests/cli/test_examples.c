/* Every shipped example job (examples/<name>/job.json) runs, passes its own checks and
 * writes its outputs; and example outputs are byte-identical with 1 and 2 threads. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "helper_cli.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

static int run_job(const char *name, const char *out, const char *extra)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "'%s' run '%s/examples/%s/job.json' --out-dir '%s' --quiet %s",
             tcli_bin(), TEXVM_SOURCE_DIR, name, out, extra);
    int st = system(cmd);
    assert_true(WIFEXITED(st));
    return WEXITSTATUS(st);
}

static size_t file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (size_t)st.st_size : 0;
}

static void all_examples_run(void **state)
{
    (void)state;
    char dir[512];
    snprintf(dir, sizeof dir, "%s/examples", TEXVM_SOURCE_DIR);
    DIR *d = opendir(dir);
    assert_non_null(d);
    int count = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        char jobpath[1024];
        if (e->d_name[0] == '.')
            continue;
        snprintf(jobpath, sizeof jobpath, "%s/%s/job.json", dir, e->d_name);
        if (!file_size(jobpath))
            continue;
        char out[600];
        snprintf(out, sizeof out, "%s/%s", tcli_tmpdir(), e->d_name);
        int rc = run_job(e->d_name, out, "");
        if (rc != 0)
            fail_msg("example %s: exit %d", e->d_name, rc);
        /* every output the job names exists and is not empty */
        job *j = tv_job_load_file(jobpath, NULL);
        assert_non_null(j);
        for (size_t i = 0; i < j->num_outputs; i++) {
            char path[1200];
            snprintf(path, sizeof path, "%s/%s", out, j->outputs[i].path);
            if (!file_size(path))
                fail_msg("example %s: no output %s", e->d_name, path);
        }
        tv_job_free(j);
        count++;
    }
    closedir(d);
    assert_true(count >= 3);
}

static void compare_threads(const char *name, const char *file)
{
    char a[600], b[600];
    snprintf(a, sizeof a, "%s/%s-t1", tcli_tmpdir(), name);
    snprintf(b, sizeof b, "%s/%s-t2", tcli_tmpdir(), name);
    assert_int_equal(run_job(name, a, "--threads 1"), 0);
    assert_int_equal(run_job(name, b, "--threads 2"), 0);
    char cmd[1400];
    snprintf(cmd, sizeof cmd, "cmp -s '%s/%s' '%s/%s'", a, file, b, file);
    int st = system(cmd);
    assert_true(WIFEXITED(st));
    if (WEXITSTATUS(st) != 0)
        fail_msg("%s: %s differs between 1 and 2 threads", name, file);
}

static void threads_identical(void **state)
{
    (void)state;
    compare_threads("plasma", "plasma.rgba8");
    compare_threads("compute_blur", "blur_output.png");
    compare_threads("shadow_pcf", "shadow_pcf.png");
    compare_threads("lit_scene", "scene.png");   /* draws: rows of tiles on two workers */
}

/* docs/PAGE into buf, NUL-terminated. */
static void read_doc(const char *page, char *buf, size_t size)
{
    char path[600];
    snprintf(path, sizeof path, "%s/docs/%s", TEXVM_SOURCE_DIR, page);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    size_t n = fread(buf, 1, size - 1, f);
    fclose(f);
    buf[n] = '\0';
}

/* The complete jobs of docs/jobs-command-line.md §2 and docs/jobs-scenes.md run as printed
 * (with the corpus programs they name copied beside them, and a stand-in plasma.tgsi). */
static void doc_examples(void **state)
{
    (void)state;
    static char doc[1 << 18];
    /* the scenes page's complete scene job (its programs inline, the page's first JSON
       block, before its §1), run first */
    read_doc("jobs-scenes.md", doc, sizeof doc);
    char *scenes = strstr(doc, "# Job files: scenes");
    assert_non_null(scenes);
    char *jb = strstr(scenes, "```json\n");
    assert_non_null(jb);
    char *s1 = strstr(scenes, "## 1. Coordinates");
    assert_non_null(s1);
    assert_true(jb < s1);
    jb += 8;
    char *je = strstr(jb, "```");
    assert_non_null(je);
    tcli_write("doc_scene.json", jb, (size_t)(je - jb));
    char scmd[1400];
    snprintf(scmd, sizeof scmd, "cd '%s' && '%s' run doc_scene.json --out-dir docscene --quiet",
             tcli_tmpdir(), tcli_bin());
    int sst = system(scmd);
    assert_true(WIFEXITED(sst));
    if (WEXITSTATUS(sst) != 0)
        fail_msg("docs/jobs-scenes.md example: exit %d", WEXITSTATUS(sst));
    /* §2 Examples of the command-line page, cut at its §3 */
    read_doc("jobs-command-line.md", doc, sizeof doc);
    char *sec = strstr(doc, "## 2. Examples");
    assert_non_null(sec);
    char *end = strstr(sec, "## 3.");
    if (end)
        *end = '\0';
    static const char *const corpus[] = {"simple.tgsi", "simple.frag", "cs_ssbo.tgsi",
                                         "cs_ssbo.comp"};
    for (size_t i = 0; i < 4; i++) {
        char cmd[1400];
        snprintf(cmd, sizeof cmd, "cp '%s/corpus/tgsi/mesa-softpipe/%s' '%s/' 2>/dev/null",
                 TEXVM_SHARED_DIR, corpus[i], tcli_tmpdir());
        if (system(cmd) != 0) {
            skip();
            return;
        }
    }
    const char *plasma = "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\n"
                         "DCL CONST[0]\n  0: MUL OUT[0], IN[0], CONST[0].xxxx\n  1: END\n";
    tcli_write("plasma.tgsi", plasma, strlen(plasma));
    int count = 0;
    for (char *b = strstr(sec, "```json\n"); b; b = strstr(b, "```json\n")) {
        b += 8;
        char *e = strstr(b, "```");
        assert_non_null(e);
        char name[32];
        snprintf(name, sizeof name, "doc%d.json", count);
        tcli_write(name, b, (size_t)(e - b));
        char cmd[1400];
        snprintf(cmd, sizeof cmd, "cd '%s' && '%s' run %s --out-dir doc%d --quiet", tcli_tmpdir(),
                 tcli_bin(), name, count);
        int st = system(cmd);
        assert_true(WIFEXITED(st));
        if (WEXITSTATUS(st) != 0)
            fail_msg("docs/jobs-command-line.md §2 example %d: exit %d", count,
                     WEXITSTATUS(st));
        count++;
        b = e + 3;
    }
    assert_int_equal(count, 3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(all_examples_run),
        cmocka_unit_test(threads_identical),
        cmocka_unit_test(doc_examples),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
