/* Malformed TGSI text: each input gets its exact `file:line:column: message`, the parse
 * returns TV_ERR_PARSE with no programs, and the offending text is filled in. */
#include "helper_tgsi.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error_cases.h"

static void test_parse_errors(void **state)
{
    (void)state;
    size_t n = sizeof parse_cases / sizeof parse_cases[0];
    assert_true(n >= 25);
    for (size_t i = 0; i < n; i++) {
        tv_tgsi_program *p = (tv_tgsi_program *)1;
        size_t count = 99;
        tv_error err;
        const char *in = parse_cases[i].input;
        tv_status st = tv_tgsi_parse(in, strlen(in), "t.tgsi", TV_TGSI_MODE_DEFAULT, &p, &count,
                                     &err);
        char got[1024];
        th_error_string(&err, got, sizeof got);
        if (st != TV_ERR_PARSE || strcmp(got, parse_cases[i].expect))
            fail_msg("case %zu: %s\n  expected: %s\n  got:      %s (status %d)", i, in,
                     parse_cases[i].expect, got, st);
        assert_null(p);
        assert_int_equal(count, 0);
        assert_true(err.line >= 1 && err.column >= 1);
        assert_string_equal(err.file, "t.tgsi");
    }
    printf("%zu malformed inputs, each with its exact message\n", n);
}

static void test_error_text_is_offending_token(void **state)
{
    (void)state;
    tv_tgsi_program *p;
    size_t count;
    tv_error err;
    const char *in = "FRAG\nDCL TEMP[0]\nMOV TEMP[0], BOGUS[1]\n";
    assert_int_equal(tv_tgsi_parse(in, strlen(in), NULL, 0, &p, &count, &err), TV_ERR_PARSE);
    assert_string_equal(err.text, "BOGUS");
    assert_int_equal(err.line, 3);
    assert_int_equal(err.column, 14);
    assert_string_equal(err.file, "");
}

static void test_crlf_positions(void **state)
{
    (void)state;
    /* CR LF, a lone CR and LF all end a line */
    tv_tgsi_program *p;
    size_t count;
    tv_error err;
    const char *in = "FRAG\r\nDCL TEMP[0]\rMOV TEMP[0], TEMP[0]\n  BAD TEMP[0]\r\n";
    assert_int_equal(tv_tgsi_parse(in, strlen(in), "f", 0, &p, &count, &err), TV_ERR_PARSE);
    assert_int_equal(err.line, 4);
    assert_int_equal(err.column, 3);
    assert_string_equal(err.message, "unknown opcode `BAD`");
}

static void test_bad_arguments(void **state)
{
    (void)state;
    tv_tgsi_program *p;
    size_t count;
    tv_error err;
    assert_int_equal(tv_tgsi_parse(NULL, 3, "f", 0, &p, &count, &err), TV_ERR_ARG);
    assert_int_equal(tv_tgsi_parse("FRAG\n", 5, "f", 0, NULL, &count, &err), TV_ERR_ARG);
    /* a NUL inside the text is an error, not the end of the text */
    const char nul[] = "FRAG\nMOV TEMP[0],\0 TEMP[0]\n";
    assert_int_equal(tv_tgsi_parse(nul, sizeof nul - 1, "f", 0, &p, &count, &err), TV_ERR_PARSE);
    assert_int_equal(err.line, 2);
    assert_int_equal(tv_tgsi_validate(NULL, TV_TGSI_STRICT, &err), TV_ERR_ARG);
}

/* docs/errors-tgsi.md lists every message of the tests, so the documentation stays true */
static void test_messages_documented(void **state)
{
    (void)state;
    char *doc = th_read(TEXVM_SOURCE_DIR "/docs/errors-tgsi.md", NULL);
    assert_non_null(doc);
    for (size_t i = 0; i < sizeof parse_cases / sizeof parse_cases[0]; i++)
        th_expect_documented(doc, parse_cases[i].expect + strlen("t.tgsi:"));
    free(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_errors),
        cmocka_unit_test(test_error_text_is_offending_token),
        cmocka_unit_test(test_crlf_positions),
        cmocka_unit_test(test_bad_arguments),
        cmocka_unit_test(test_messages_documented),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
