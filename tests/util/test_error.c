/* Error records: formatting with and without positions, status names. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "texvm/texvm.h"
#include "util/error.h"

static void format_with_position(void **state)
{
    (void)state;
    tv_error e;
    tv_error_clear(&e);
    strcpy(e.file, "a.tgsi");
    tv_error_set(&e, TV_ERR_PARSE, 3, 14, "Expected texture target");
    char buf[256];
    tv_error_format(&e, buf, sizeof buf);
    assert_string_equal(buf, "a.tgsi:3:14: Expected texture target");
    assert_int_equal(e.code, TV_ERR_PARSE);
}

static void format_without_file(void **state)
{
    (void)state;
    tv_error e;
    tv_error_clear(&e);
    tv_error_set(&e, TV_ERR_RUNTIME, 0, 0, "budget of %d exceeded", 10);
    char buf[256];
    tv_error_format(&e, buf, sizeof buf);
    assert_string_equal(buf, "budget of 10 exceeded");
}

static void status_names(void **state)
{
    (void)state;
    assert_string_equal(tv_status_name(TV_OK), "ok");
    assert_string_equal(tv_status_name(TV_ERR_INVALID), "invalid program");
    assert_string_equal(tv_status_name((tv_status)99), "unknown status");
    assert_string_equal(tv_version(), TV_VERSION_STRING);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(format_with_position),
        cmocka_unit_test(format_without_file),
        cmocka_unit_test(status_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
