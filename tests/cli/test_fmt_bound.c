/* texvm fmt's output stays within 32 x its input + 4 KiB (docs/limits.md §2): the printed
 * indentation stops at 32 levels, and fmt refuses what check refuses (nesting over 1024).
 * Inputs built to make the output grow the most: short instructions at the deepest nesting,
 * immediates. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static size_t fmt_output_bytes(const char *text, int *status)
{
    char path[] = "/tmp/texvm_fmt_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    size_t n = strlen(text);
    assert_int_equal(write(fd, text, n), (ssize_t)n);
    close(fd);
    const char *bin = getenv("TEXVM_BIN");
    assert_non_null(bin);
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "'%s' fmt '%s' 2>/dev/null", bin, path);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t total = 0, got;
    char buf[65536];
    while ((got = fread(buf, 1, sizeof buf, p)) > 0)
        total += got;
    *status = pclose(p);
    unlink(path);
    return total;
}

/* HEAD, then OPEN repeated DEPTH times, BODY repeated N times, CLOSE DEPTH times, END. */
static char *program(const char *head, const char *open, unsigned depth, const char *body,
                     unsigned n, const char *close)
{
    size_t len = strlen(head) + depth * (strlen(open) + strlen(close)) + n * strlen(body) + 16;
    char *s = malloc(len);
    assert_non_null(s);
    strcpy(s, head);
    for (unsigned i = 0; i < depth; i++)
        strcat(s, open);
    for (unsigned i = 0; i < n; i++)
        strcat(s, body);
    for (unsigned i = 0; i < depth; i++)
        strcat(s, close);
    strcat(s, "END\n");
    return s;
}

static void check_bound(char *text, int want_status)
{
    int status;
    size_t out = fmt_output_bytes(text, &status);
    size_t in = strlen(text);
    print_message("fmt: %zu bytes in, %zu bytes out (%.1fx)\n", in, out, (double)out / in);
    assert_int_equal(status == 0 ? 0 : 1, want_status);
    assert_true(out <= 32 * in + 4096);
    if (!want_status)
        assert_true(out > in / 2); /* it printed the program */
    free(text);
}

static void deep_nops(void **state)
{
    (void)state;
    check_bound(program("COMP\nDCL TEMP[0]\n", "IF TEMP[0]\n", 1024, "NOP\n", 5000, "ENDIF\n"),
                0);
}

static void deep_blocks(void **state)
{
    (void)state;
    check_bound(program("COMP\nDCL TEMP[0]\n", "BGNLOOP\n", 1024, "BRK\n", 1, "ENDLOOP\n"), 0);
}

static void immediates(void **state)
{
    (void)state;
    check_bound(program("FRAG\n", "", 0, "IMM FLT32 {1,1,1,1}\n", 4000, ""), 0);
}

/* nesting over the limit: refused as check refuses it, nothing printed */
static void too_deep(void **state)
{
    (void)state;
    check_bound(program("COMP\nDCL TEMP[0]\n", "IF TEMP[0]\n", 20000, "", 0, "ENDIF\n"), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(deep_nops),
        cmocka_unit_test(deep_blocks),
        cmocka_unit_test(immediates),
        cmocka_unit_test(too_deep),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
