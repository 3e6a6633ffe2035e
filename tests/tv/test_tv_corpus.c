/* Translation validation over every TGSI program the project has: the shared corpus
 * (Mesa's programs), tests/tgsi/programs and examples/. Each program (a file may hold
 * several; legacy spellings are read in legacy mode) is run with the plain interpreter and
 * the optimised micro-ops on the same inputs (tvcheck.h) and must give the same bits.
 * Programs of stages the runner does not drive (GEOM, tessellation) and programs the
 * engine rejects are counted apart. */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "texvm/tgsi.h"
#include "tvcheck.h"
#include "common_file.h"

typedef struct tally {
    unsigned files, programs, same, not_run;
} tally;

static void check_file(const char *path, tally *t)
{
    size_t len;
    char *text = tc_slurp(path, &len);
    if (!text)
        return;
    tv_tgsi_program *progs = NULL;
    size_t count = 0;
    tv_error err;
    if (tv_tgsi_parse(text, len, path, TV_TGSI_MODE_DEFAULT, &progs, &count, &err) != TV_OK &&
        tv_tgsi_parse(text, len, path, TV_TGSI_MODE_LEGACY, &progs, &count, &err) != TV_OK) {
        free(text);
        return;   /* not TGSI (a GLSL file), or rejected by design (legacy compute) */
    }
    t->files++;
    for (size_t i = 0; i < count; i++) {
        char *canon = tv_tgsi_print_alloc(&progs[i]);
        assert_non_null(canon);
        char why[512];
        t->programs++;
        tvc_result r = tvc_run_both(canon, strlen(canon), 1000u + t->programs, why, sizeof why,
                                    NULL);
        if (r == TVC_DIFFERENT)
            fail_msg("%s program %zu: %s\n%s", path, i + 1, why, canon);
        t->same += r == TVC_SAME;
        t->not_run += r == TVC_NOT_RUN;
        free(canon);
    }
    tv_tgsi_programs_free(progs, count);
    free(text);
}

static void walk(const char *dir, tally *t)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat st;
        if (stat(path, &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode)) {
            walk(path, t);
            continue;
        }
        size_t n = strlen(e->d_name);
        if ((n > 5 && !strcmp(e->d_name + n - 5, ".tgsi")) ||
            (n > 4 && !strcmp(e->d_name + n - 4, ".txt")))
            check_file(path, t);
    }
    closedir(d);
}

static void t_corpus_both_ways(void **state)
{
    (void)state;
    static const char *const dirs[] = {TEXVM_SHARED_DIR "/corpus/tgsi",
                                       TEXVM_SOURCE_DIR "/tests/tgsi/programs",
                                       TEXVM_SOURCE_DIR "/examples"};
    tally t = {0};
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        tally before = t;
        walk(dirs[i], &t);
        printf("%s: %u files, %u programs, %u bit-identical both ways, %u not run\n", dirs[i],
               t.files - before.files, t.programs - before.programs, t.same - before.same,
               t.not_run - before.not_run);
    }
    printf("translation validation: %u corpus programs run both ways, all bit-identical "
           "(%u not run: stages the runner does not drive or programs the engine rejects)\n",
           t.same, t.not_run);
    /* the project's own programs are always there; the shared corpus adds ~100 */
    assert_true(t.same >= 15);
}

int main(void)
{
    /* every program here is compiled by the JIT too (tvcheck.h) */
    setenv("TV_JIT_EVERY", "1", 0);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_corpus_both_ways),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
