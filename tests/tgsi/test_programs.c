/* The project's own TGSI programs (tests/tgsi/programs/NAME.tgsi, written in Mesa's
 * tgsi_dump layout by gen_programs.py): every opcode of the table appears in them, each
 * file validates (lenient and strict), prints back byte-identical and is a fixed point. */
#include "helper_tgsi.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DIR TEXVM_SOURCE_DIR "/tests/tgsi/programs"

static void test_each_program_round_trips(void **state)
{
    (void)state;
    size_t n;
    char **files = th_list(DIR, ".tgsi", &n);
    assert_true(n >= 8);
    for (size_t i = 0; i < n; i++) {
        size_t len;
        char *text = th_read(files[i], &len);
        assert_non_null(text);
        tv_tgsi_program *p;
        size_t count;
        tv_error err;
        if (tv_tgsi_parse(text, len, files[i], TV_TGSI_MODE_DEFAULT, &p, &count, &err)) {
            char m[1024];
            th_error_string(&err, m, sizeof m);
            fail_msg("%s", m);
        }
        for (size_t k = 0; k < count; k++) {
            for (int strict = 0; strict < 2; strict++)
                if (tv_tgsi_validate(&p[k], strict ? TV_TGSI_STRICT : TV_TGSI_LENIENT, &err)) {
                    char m[1024];
                    th_error_string(&err, m, sizeof m);
                    fail_msg("%s (%s): %s [%s]", files[i], strict ? "strict" : "lenient", m,
                             err.text);
                }
        }
        char *printed = th_print_all(p, count);
        if (strcmp(printed, text))
            fail_msg("%s does not print back identically:\n%s", files[i], printed);
        char *fp = th_fixed_point(text, len, TV_TGSI_MODE_DEFAULT);
        assert_non_null(fp);
        free(fp);
        free(printed);
        tv_tgsi_programs_free(p, count);
        free(text);
    }
    th_free_list(files, n);
}

static void test_every_opcode_appears(void **state)
{
    (void)state;
    bool seen[TV_TGSI_OP_LAST] = {false};
    size_t n;
    char **files = th_list(DIR, ".tgsi", &n);
    for (size_t i = 0; i < n; i++) {
        size_t len, count;
        char *text = th_read(files[i], &len);
        tv_tgsi_program *p;
        tv_error err;
        assert_int_equal(tv_tgsi_parse(text, len, files[i], 0, &p, &count, &err), TV_OK);
        for (size_t k = 0; k < count; k++)
            for (uint32_t j = 0; j < p[k].num_insns; j++)
                seen[p[k].insns[j].opcode] = true;
        tv_tgsi_programs_free(p, count);
        free(text);
    }
    th_free_list(files, n);
    unsigned named = 0, missing = 0;
    for (unsigned op = 0; op < TV_TGSI_OP_LAST; op++) {
        const tv_tgsi_opinfo *info = tv_tgsi_opinfo_get(op);
        if (!info)
            continue;
        named++;
        if (!seen[op]) {
            fprintf(stderr, "opcode %u %s is not in any test program\n", op, info->name);
            missing++;
        }
    }
    /* 243 named opcodes at Mesa HEAD + DFRACEXP (slot 212, Mesa 22.3) */
    assert_int_equal(named, 244);
    assert_int_equal(missing, 0);
}

static void test_opcode_table_facts(void **state)
{
    (void)state;
    /* facts from shared/reference/tgsi-text.md section 13 and spec/tgsi.rst */
    const tv_tgsi_opinfo *i = tv_tgsi_opinfo_find("tex", 3);
    assert_non_null(i);
    assert_int_equal(i->opcode, 52);
    assert_true(i->flags & TV_OPF_TEX);
    assert_int_equal(i->samp_src, 1);
    assert_int_equal(i->category, TV_OPC_TEXTURE);
    i = tv_tgsi_opinfo_get(53); /* TXD d, c, ddx, ddy, SAMP, tgt */
    assert_string_equal(i->name, "TXD");
    assert_int_equal(i->samp_src, 3);
    i = tv_tgsi_opinfo_get(151); /* SAMPLE_D d, c, SVIEW, SAMP, ddx, ddy */
    assert_string_equal(i->name, "SAMPLE_D");
    assert_int_equal(i->num_src, 5);
    assert_int_equal(i->sview_src, 1);
    assert_int_equal(i->samp_src, 2);
    i = tv_tgsi_opinfo_get(162);
    assert_string_equal(i->name, "STORE");
    assert_true(i->res_dst);
    i = tv_tgsi_opinfo_get(169);
    assert_string_equal(i->name, "ATOMCAS");
    assert_int_equal(i->num_src, 4);
    assert_int_equal(i->res_src, 0);
    i = tv_tgsi_opinfo_get(39);
    assert_string_equal(i->name, "KILL");
    assert_int_equal(i->stages, TV_STAGE_FRAG);
    i = tv_tgsi_opinfo_get(97);
    assert_string_equal(i->name, "EMIT");
    assert_int_equal(i->stages, TV_STAGE_GEOM);
    i = tv_tgsi_opinfo_get(166);
    assert_string_equal(i->name, "BARRIER");
    assert_int_equal(i->stages, TV_STAGE_COMP | TV_STAGE_TESS_CTRL);
    i = tv_tgsi_opinfo_get(1);
    assert_int_equal(i->stages, TV_STAGE_ALL);
    assert_int_equal(i->samp_src, -1);
    i = tv_tgsi_opinfo_get(212);
    assert_string_equal(i->name, "DFRACEXP");
    assert_int_equal(i->num_dst, 2);
    /* indentation flags: IF/UIF/ELSE/BGNLOOP/BGNSUB indent, ELSE/ENDIF/ENDLOOP/ENDSUB dedent */
    const char *ind[] = {"IF", "UIF", "ELSE", "BGNLOOP", "BGNSUB"};
    const char *ded[] = {"ELSE", "ENDIF", "ENDLOOP", "ENDSUB"};
    for (int k = 0; k < 5; k++)
        assert_true(tv_tgsi_opinfo_find(ind[k], strlen(ind[k]))->flags & TV_OPF_INDENT);
    for (int k = 0; k < 4; k++)
        assert_true(tv_tgsi_opinfo_find(ded[k], strlen(ded[k]))->flags & TV_OPF_DEDENT);
    assert_false(tv_tgsi_opinfo_find("SWITCH", 6)->flags & (TV_OPF_INDENT | TV_OPF_DEDENT));
    /* gaps */
    const unsigned gaps[] = {67, 81, 82, 93, 113, 114, 115, 165};
    for (int k = 0; k < 8; k++)
        assert_null(tv_tgsi_opinfo_get(gaps[k]));
    assert_null(tv_tgsi_opinfo_get(252));
    assert_null(tv_tgsi_opinfo_find("SUB", 3));
    assert_string_equal(tv_tgsi_opcat_name(TV_OPC_FLOW), "flow");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_each_program_round_trips),
        cmocka_unit_test(test_every_opcode_appears),
        cmocka_unit_test(test_opcode_table_facts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
