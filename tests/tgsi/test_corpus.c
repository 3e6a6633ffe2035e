/* The shared TGSI corpus (../shared/corpus/tgsi), when present:
 *  - mesa-softpipe: every program parses, validates (lenient) and prints back
 *    byte-identical (Mesa 22.3.6's own tgsi_dump output);
 *  - mesa-intree: every program parses, validates (lenient) and is a print fixed point;
 *  - mesa-graw: parses in legacy mode (and validates), or is rejected with a message that
 *    names the legacy construct; in the default mode the legacy files are rejected the
 *    same way;
 *  - mesa-compute-legacy: rejected with a message naming the legacy construct.
 * No crash anywhere (the suite also runs under ASan/UBSan). */
#include "helper_tgsi.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char corpus[1024];

static bool have_corpus(void)
{
    const char *env = getenv("TEXVM_SHARED_DIR");
    snprintf(corpus, sizeof corpus, "%s/corpus/tgsi", env && *env ? env : TEXVM_SHARED_DIR);
    size_t n;
    char **l = th_list(corpus, "README.md", &n);
    th_free_list(l, n);
    return n == 1;
}

static char **list_sub(const char *sub, const char *suffix, size_t *n)
{
    char dir[1200];
    snprintf(dir, sizeof dir, "%s/%s", corpus, sub);
    return th_list(dir, suffix, n);
}

/* Mesa's dumps end with one newline; a trailing empty line in a file is not text. */
static void strip_trailing_blank_lines(char *s)
{
    size_t l = strlen(s);
    while (l >= 2 && s[l - 1] == '\n' && s[l - 2] == '\n')
        s[--l] = '\0';
}

static void check_valid(const char *file, const char *text, size_t len, tv_tgsi_mode mode,
                        bool must_print_identically)
{
    tv_tgsi_program *p;
    size_t count;
    tv_error err;
    char m[1024];
    if (tv_tgsi_parse(text, len, file, mode, &p, &count, &err)) {
        th_error_string(&err, m, sizeof m);
        fail_msg("%s", m);
    }
    assert_true(count >= 1);
    for (size_t k = 0; k < count; k++)
        if (tv_tgsi_validate(&p[k], TV_TGSI_LENIENT, &err)) {
            th_error_string(&err, m, sizeof m);
            fail_msg("%s: %s [%s]", file, m, err.text);
        }
    if (must_print_identically) {
        char *printed = th_print_all(p, count);
        char *expect = strdup(text);
        strip_trailing_blank_lines(expect);
        if (strcmp(printed, expect))
            fail_msg("%s does not print back identically; got:\n%s", file, printed);
        free(expect);
        free(printed);
    }
    char *fp = th_fixed_point(text, len, mode);
    assert_non_null(fp);
    free(fp);
    tv_tgsi_programs_free(p, count);
}

/* Every file of corpus/SUB ending in SUFFIX (at least MIN_FILES) parses and validates in
 * the default mode; MUST_PRINT_IDENTICALLY as in check_valid. Returns the file count. */
static size_t check_all_valid(const char *sub, const char *suffix, size_t min_files,
                              bool must_print_identically)
{
    size_t n;
    char **files = list_sub(sub, suffix, &n);
    assert_true(n >= min_files);
    for (size_t i = 0; i < n; i++) {
        size_t len;
        char *text = th_read(files[i], &len);
        check_valid(files[i], text, len, TV_TGSI_MODE_DEFAULT, must_print_identically);
        free(text);
    }
    th_free_list(files, n);
    return n;
}

static void test_softpipe(void **state)
{
    (void)state;
    if (!have_corpus())
        skip();
    size_t n = check_all_valid("mesa-softpipe", ".tgsi", 10, true);
    printf("mesa-softpipe: %zu files, all valid and byte-identical\n", n);
}

static void test_intree(void **state)
{
    (void)state;
    if (!have_corpus())
        skip();
    size_t n = check_all_valid("mesa-intree", ".txt", 30, false);
    printf("mesa-intree: %zu files, all valid and fixed points\n", n);
}

static bool names_legacy(const tv_error *e)
{
    return strstr(e->message, "legacy") != NULL;
}

static void test_graw(void **state)
{
    (void)state;
    if (!have_corpus())
        skip();
    const char *subs[] = {"mesa-graw/fragment-shader", "mesa-graw/vertex-shader",
                          "mesa-graw/geometry-shader"};
    size_t total = 0, parsed_legacy = 0, parsed_default = 0;
    for (int s = 0; s < 3; s++) {
        size_t n;
        char **files = list_sub(subs[s], ".txt", &n);
        for (size_t i = 0; i < n; i++, total++) {
            size_t len, count;
            char *text = th_read(files[i], &len);
            tv_tgsi_program *p;
            tv_error err;
            if (tv_tgsi_parse(text, len, files[i], TV_TGSI_MODE_LEGACY, &p, &count, &err) ==
                TV_OK) {
                parsed_legacy++;
                for (size_t k = 0; k < count; k++)
                    if (tv_tgsi_validate(&p[k], TV_TGSI_LENIENT, &err))
                        fail_msg("%s (legacy): %s", files[i], err.message);
                char *fp = th_fixed_point(text, len, TV_TGSI_MODE_LEGACY);
                assert_non_null(fp);
                free(fp);
                tv_tgsi_programs_free(p, count);
            } else if (!names_legacy(&err)) {
                fail_msg("%s: rejected in legacy mode without naming the legacy construct: %s",
                         files[i], err.message);
            }
            if (tv_tgsi_parse(text, len, files[i], TV_TGSI_MODE_DEFAULT, &p, &count, &err) ==
                TV_OK) {
                parsed_default++;
                tv_tgsi_programs_free(p, count);
            } else if (!names_legacy(&err)) {
                fail_msg("%s: rejected without naming the legacy construct: %s", files[i],
                         err.message);
            }
            free(text);
        }
        th_free_list(files, n);
    }
    printf("mesa-graw: %zu files; %zu parse in the default mode, %zu in legacy mode, the "
           "rest get a legacy message\n",
           total, parsed_default, parsed_legacy);
    assert_int_equal(total, 72);
    assert_int_equal(parsed_default, 47); /* as Mesa 22.3's own parser (reference A.1) */
    assert_int_equal(parsed_legacy, 70); /* all but TEMPX/IMMX */
}

static void test_compute_legacy(void **state)
{
    (void)state;
    if (!have_corpus())
        skip();
    size_t n;
    char **files = list_sub("mesa-compute-legacy", ".txt", &n);
    assert_int_equal(n, 15);
    for (size_t i = 0; i < n; i++) {
        size_t len, count;
        char *text = th_read(files[i], &len);
        tv_tgsi_program *p;
        tv_error err;
        for (int mode = 0; mode < 2; mode++) {
            tv_status st = tv_tgsi_parse(text, len, files[i], (tv_tgsi_mode)mode, &p, &count, &err);
            assert_int_equal(st, TV_ERR_PARSE);
            if (!names_legacy(&err))
                fail_msg("%s: %s", files[i], err.message);
            assert_true(err.line > 0 && err.column > 0);
        }
        free(text);
    }
    th_free_list(files, n);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_softpipe),
        cmocka_unit_test(test_intree),
        cmocka_unit_test(test_graw),
        cmocka_unit_test(test_compute_legacy),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
