/* Validator: each invalid program gets its exact message, at the instruction's line and
 * column; strict-only rules are accepted by the lenient mode. */
#include "helper_tgsi.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error_cases.h"

static void test_validator_messages(void **state)
{
    (void)state;
    size_t n = sizeof validate_cases / sizeof validate_cases[0];
    assert_true(n >= 25);
    for (size_t i = 0; i < n; i++) {
        const val_case *c = &validate_cases[i];
        tv_tgsi_program *p;
        size_t count;
        tv_error err;
        if (tv_tgsi_parse(c->input, strlen(c->input), "t.tgsi", 0, &p, &count, &err))
            fail_msg("case %zu does not parse: %s", i, err.message);
        assert_int_equal(count, 1);
        tv_status st = tv_tgsi_validate(p, c->strict ? TV_TGSI_STRICT : TV_TGSI_LENIENT, &err);
        snprintf(err.file, sizeof err.file, "t.tgsi");
        char got[1024];
        th_error_string(&err, got, sizeof got);
        if (st != TV_ERR_INVALID || strcmp(got, c->expect))
            fail_msg("case %zu:\n%s  expected: %s\n  got:      %s (status %d)", i, c->input,
                     c->expect, got, st);
        if (c->strict) {
            /* lenient accepts what only strict rejects */
            if (tv_tgsi_validate(p, TV_TGSI_LENIENT, &err))
                fail_msg("case %zu: lenient rejects it: %s", i, err.message);
        }
        tv_tgsi_programs_free(p, count);
    }
    printf("%zu invalid programs, each with its exact message\n", n);
}

static void test_valid_programs(void **state)
{
    (void)state;
    static const char *ok[] = {
        /* Mesa's own: DCL MEMORY[1], SHARED used as MEMORY[0] (lenient) */
        "COMP\nDCL MEMORY[1], SHARED\nDCL TEMP[0]\nSTORE MEMORY[0].x, TEMP[0].xxxx, TEMP[0].xxxx\nEND\n",
        /* missing END, no SVIEW (Mesa's in-tree postprocessing shaders) */
        "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL SAMP[0]\nTEX OUT[0], IN[0], SAMP[0], 2D\n",
        /* subroutine after END, CAL to it, RET in main */
        "VERT\nDCL OUT[0], POSITION\nCAL :2\nEND\nBGNSUB\nRET\nENDSUB\n",
        /* SHADOW2D on a 2D view, bindless sampler handle in a TEMP */
        "FRAG\nDCL SAMP[0]\nDCL SVIEW[0], 2D, FLOAT\nDCL TEMP[0..1]\nTEX TEMP[0], TEMP[0], SAMP[0], SHADOW2D\nTEX TEMP[0], TEMP[0], TEMP[1], 2D\nEND\n",
        /* indirect CONST in 2D, GS per-vertex inputs */
        "GEOM\nPROPERTY GS_INPUT_PRIMITIVE POINTS\nDCL IN[][0], POSITION\nDCL OUT[0], POSITION\nDCL ADDR[0]\nDCL CONST[0][0..3]\nDCL TEMP[0]\nUARL ADDR[0].x, TEMP[0].xxxx\nMOV TEMP[0], CONST[0][ADDR[0].x+2]\nMOV OUT[0], IN[0][0]\nEMIT TEMP[0].xxxx\nEND\n",
        /* SWITCH with fallthrough, BRK in a switch inside a loop, CONT */
        "FRAG\nDCL TEMP[0]\nBGNLOOP\nSWITCH TEMP[0].xxxx\nCASE TEMP[0].yyyy\nCASE TEMP[0].zzzz\nBRK\nDEFAULT\nENDSWITCH\nCONT\nENDLOOP\nEND\n",
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        tv_tgsi_program *p;
        size_t count;
        tv_error err;
        assert_int_equal(tv_tgsi_parse(ok[i], strlen(ok[i]), "t", 0, &p, &count, &err), TV_OK);
        if (tv_tgsi_validate(p, TV_TGSI_LENIENT, &err))
            fail_msg("case %zu: %u:%u: %s", i, err.line, err.column, err.message);
        tv_tgsi_programs_free(p, count);
    }
}

/* Hand-built program objects (as the VM or a generator would make them) are checked too. */
static void test_hand_built_object(void **state)
{
    (void)state;
    tv_tgsi_instruction in;
    memset(&in, 0, sizeof in);
    in.opcode = TV_TGSI_OP_ADD;
    in.num_dst = 1;
    in.num_src = 1; /* ADD needs 2 */
    in.dst[0].reg.file = TV_FILE_TEMP;
    in.dst[0].writemask = 0xf;
    in.src[0].reg.file = TV_FILE_TEMP;
    in.line = 7;
    in.column = 3;
    tv_tgsi_declaration d;
    memset(&d, 0, sizeof d);
    d.file = TV_FILE_TEMP;
    d.usage_mask = 0xf;
    tv_tgsi_program prog;
    memset(&prog, 0, sizeof prog);
    prog.processor = TV_TGSI_FRAG;
    prog.decls = &d;
    prog.num_decls = 1;
    prog.insns = &in;
    prog.num_insns = 1;
    tv_error err;
    assert_int_equal(tv_tgsi_validate(&prog, TV_TGSI_LENIENT, &err), TV_ERR_INVALID);
    assert_string_equal(err.message,
                        "`ADD` takes 1 destination and 2 sources, found 1 and 1");
    assert_int_equal(err.line, 7);
    assert_int_equal(err.column, 3);
    in.opcode = 67; /* a gap */
    assert_int_equal(tv_tgsi_validate(&prog, TV_TGSI_LENIENT, &err), TV_ERR_INVALID);
    assert_string_equal(err.message, "unknown opcode number 67");
    prog.processor = 9;
    assert_int_equal(tv_tgsi_validate(&prog, TV_TGSI_LENIENT, &err), TV_ERR_INVALID);
}

static void test_messages_documented(void **state)
{
    (void)state;
    char *doc = th_read(TEXVM_SOURCE_DIR "/docs/errors-tgsi.md", NULL);
    assert_non_null(doc);
    for (size_t i = 0; i < sizeof validate_cases / sizeof validate_cases[0]; i++)
        th_expect_documented(doc, validate_cases[i].expect + strlen("t.tgsi:"));
    free(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_validator_messages),
        cmocka_unit_test(test_valid_programs),
        cmocka_unit_test(test_hand_built_object),
        cmocka_unit_test(test_messages_documented),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
