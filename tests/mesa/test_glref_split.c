/* glref_tgsi_split: which programs of a softpipe print count as the user's (no GL needed).
 * The dumps below are written by hand in the shape Mesa 22.3 prints: NIR (`shader:` …
 * `name:` …) then TGSI from the processor line to `  n: END`. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "llvmpipe_fixture.h"

#ifdef TEXVM_HAVE_GLREF
#include "glref.h"

static const char k_dump[] =
    "FRAG\n"                              /* internal shader: no NIR print before it */
    "DCL OUT[0], COLOR\n"
    "  0: END\n"
    "shader: MESA_SHADER_VERTEX\n"
    "source_sha1: {0x1}\n"
    "name: GLSL3\n"
    "impl main {\n}\n\n"
    "VERT\n"
    "DCL OUT[0], POSITION\n"
    "  0: MOV OUT[0], IN[0]\n"
    "  1: END\n"
    "shader: MESA_SHADER_FRAGMENT\n"
    "name: GLSL3\n"
    "FRAG\n"
    "PROPERTY FS_COORD_ORIGIN LOWER_LEFT\n"
    "  0: MOV OUT[0], CONST[0][0]\n"
    "  1: END\n"
    "shader: MESA_SHADER_FRAGMENT\n"
    "name: GLSL0\n"                       /* Mesa's own GLSL (clear) program */
    "FRAG\n"
    "  0: END\n"
    "shader: MESA_SHADER_VERTEX\n"
    "name: ARB0\n"                        /* fixed-function program */
    "VERT\n"
    "  0: END\n"
    "shader: MESA_SHADER_FRAGMENT\n"
    "name: GLSL3\n"                       /* the same user program again (a variant) */
    "FRAG\n"
    "PROPERTY FS_COORD_ORIGIN LOWER_LEFT\n"
    "  0: MOV OUT[0], CONST[0][0]\n"
    "  1: END\n";

static void test_split_user_programs(void **state)
{
    (void)state;
    glref_tgsi *p = NULL;
    int n = glref_tgsi_split(k_dump, &p);
    assert_int_equal(n, 2);
    assert_string_equal(p[0].stage, "VERT");
    assert_string_equal(p[0].text, "VERT\nDCL OUT[0], POSITION\n  0: MOV OUT[0], IN[0]\n  1: END\n");
    assert_string_equal(p[1].stage, "FRAG");
    assert_string_equal(p[1].text,
                        "FRAG\nPROPERTY FS_COORD_ORIGIN LOWER_LEFT\n  0: MOV OUT[0], CONST[0][0]\n"
                        "  1: END\n");
    glref_tgsi_free(p, n);
}

static void test_split_truncated(void **state)
{
    (void)state;
    /* a program cut off before END is not a program */
    glref_tgsi *p = NULL;
    int n = glref_tgsi_split("shader: MESA_SHADER_COMPUTE\nname: GLSL1\nCOMP\n  0: MOV TEMP[0]",
                             &p);
    assert_int_equal(n, 0);
    glref_tgsi_free(p, n);
    n = glref_tgsi_split("", &p);
    assert_int_equal(n, 0);
    glref_tgsi_free(p, n);
}

static void test_split_compute(void **state)
{
    (void)state;
    glref_tgsi *p = NULL;
    int n = glref_tgsi_split("shader: MESA_SHADER_COMPUTE\nname: GLSL12\nCOMP\n"
                             "PROPERTY CS_FIXED_BLOCK_WIDTH 8\n 10: END\n", &p);
    assert_int_equal(n, 1);
    assert_string_equal(p[0].stage, "COMP");
    assert_string_equal(p[0].text, "COMP\nPROPERTY CS_FIXED_BLOCK_WIDTH 8\n 10: END\n");
    glref_tgsi_free(p, n);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_split_user_programs),
        cmocka_unit_test(test_split_truncated),
        cmocka_unit_test(test_split_compute),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

#else

int main(void)
{
    return lp_main_without_glref();
}

#endif
