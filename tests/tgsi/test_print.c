/* Printer: Mesa's tgsi_dump layout byte for byte (the verbatim dumps of
 * shared/reference/tgsi-text.md section 11), and exact immediates. */
#include "helper_tgsi.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *print_text(const char *text, tv_tgsi_mode mode)
{
    size_t count;
    tv_tgsi_program *p = th_parse_ok(text, mode, &count);
    char *s = th_print_all(p, count);
    tv_tgsi_programs_free(p, count);
    return s;
}

static void expect_identical(const char *text)
{
    char *s = print_text(text, 0);
    if (strcmp(s, text))
        fail_msg("expected:\n%s\ngot:\n%s", text, s);
    free(s);
}

/* reference 11.1: Mesa 22.3.6 softpipe fragment shader */
static const char fs_11_1[] =
    "FRAG\n"
    "DCL IN[0].xy, GENERIC[0], PERSPECTIVE\n"
    "DCL OUT[0], COLOR\n"
    "DCL SAMP[0]\n"
    "DCL SVIEW[0], 2D, FLOAT\n"
    "DCL CONST[0][0]\n"
    "DCL TEMP[0..5]\n"
    "IMM[0] UINT32 {1065353216, 1, 4294967295, 1082130432}\n"
    "IMM[1] UINT32 {0, 1056964608, 1048576000, 1040187392}\n"
    "IMM[2] FLT32 {    1.0000,     0.0000,     0.0000,     0.0000}\n"
    "  0: TEX TEMP[0], IN[0].xyyy, SAMP[0], 2D\n"
    "  1: MOV TEMP[1].xyz, IN[0].xyxy\n"
    "  2: MOV TEMP[1].w, IMM[0].xxxx\n"
    "  3: TXL TEMP[1], TEMP[1], SAMP[0], 2D\n"
    "  4: TEX TEMP[2], IN[0].xyyy, SAMP[0], 2D, IMM[0].yzy\n"
    "  5: MUL TEMP[3].xy, IN[0].xyyy, IMM[0].wwww\n"
    "  6: F2I TEMP[3].xyz, TEMP[3].xyxy\n"
    "  7: MOV TEMP[3].w, IMM[1].xxxx\n"
    "  8: TXF TEMP[3], TEMP[3], SAMP[0], 2D\n"
    "  9: FSLT TEMP[4].x, IMM[1].yyyy, TEMP[0].xxxx\n"
    " 10: AND TEMP[4].x, TEMP[4].xxxx, IMM[2].xxxx\n"
    " 11: KILL_IF -TEMP[4].xxxx\n"
    " 12: DDX TEMP[4].x, IN[0].xxxx\n"
    " 13: MUL TEMP[5].x, IN[0].yxxx, CONST[0][0].xxxx\n"
    " 14: DDY TEMP[4].y, TEMP[5].xxxx\n"
    " 15: MAD TEMP[0], TEMP[1], IMM[1].yyyy, TEMP[0]\n"
    " 16: MAD TEMP[0], TEMP[2], IMM[1].zzzz, TEMP[0]\n"
    " 17: MAD TEMP[0], TEMP[3], IMM[1].wwww, TEMP[0]\n"
    " 18: MOV TEMP[4].z, IMM[1].xxxx\n"
    " 19: ADD OUT[0], TEMP[0], TEMP[4].xyzz\n"
    " 20: END\n";

/* reference 11.3: geometry shader, then a vertex shader (two programs in one text) */
static const char gs_vs_11_3[] =
    "GEOM\n"
    "PROPERTY GS_INPUT_PRIMITIVE TRIANGLES\n"
    "PROPERTY GS_OUTPUT_PRIMITIVE TRIANGLE_STRIP\n"
    "PROPERTY GS_MAX_OUTPUT_VERTICES 3\n"
    "PROPERTY GS_INVOCATIONS 1\n"
    "DCL IN[][0], POSITION\n"
    "DCL IN[][1], GENERIC[0]\n"
    "DCL OUT[0], POSITION\n"
    "DCL OUT[1].xy, GENERIC[0]\n"
    "IMM[0] UINT32 {0, 0, 0, 0}\n"
    "  0: MOV OUT[0], IN[0][0]\n"
    "  1: MOV OUT[1].xy, IN[0][1].xyxx\n"
    "  2: EMIT IMM[0].xxxx\n"
    "  3: MOV OUT[0], IN[1][0]\n"
    "  4: MOV OUT[1].xy, IN[1][1].xyxx\n"
    "  5: EMIT IMM[0].xxxx\n"
    "  6: MOV OUT[0], IN[2][0]\n"
    "  7: MOV OUT[1].xy, IN[2][1].xyxx\n"
    "  8: EMIT IMM[0].xxxx\n"
    "  9: ENDPRIM IMM[0].xxxx\n"
    " 10: END\n"
    "VERT\n"
    "PROPERTY NEXT_SHADER FRAG\n"
    "DCL IN[0]\n"
    "DCL OUT[0], POSITION\n"
    "DCL OUT[1].xy, GENERIC[0]\n"
    "IMM[0] UINT32 {1056964608, 0, 1065353216, 0}\n"
    "  0: MAD OUT[1].xy, IN[0].xyxx, IMM[0].xxxx, IMM[0].xxxx\n"
    "  1: MOV OUT[0].xy, IN[0].xyyy\n"
    "  2: MOV OUT[0].zw, IMM[0].yzyz\n"
    "  3: END\n";

/* reference 11.4: hand-written compute shader */
static const char cs_11_4[] =
    "COMP\n"
    "PROPERTY CS_FIXED_BLOCK_WIDTH 64\n"
    "PROPERTY CS_FIXED_BLOCK_HEIGHT 1\n"
    "PROPERTY CS_FIXED_BLOCK_DEPTH 1\n"
    "DCL SV[0], THREAD_ID\n"
    "DCL BUFFER[0]\n"
    "DCL MEMORY[0], SHARED\n"
    "DCL TEMP[0..1]\n"
    "IMM[0] UINT32 {4, 0, 1, 16}\n"
    "  0: UMUL TEMP[0].x, SV[0].xxxx, IMM[0].xxxx\n"
    "  1: LOAD TEMP[1].x, BUFFER[0], TEMP[0].xxxx\n"
    "  2: STORE MEMORY[0].x, TEMP[0].xxxx, TEMP[1].xxxx\n"
    "  3: BARRIER\n"
    "  4: MOV TEMP[0].y, IMM[0].yyyy\n"
    "  5: BGNLOOP :0\n"
    "  6:   USGE TEMP[1].y, TEMP[0].yyyy, IMM[0].wwww\n"
    "  7:   UIF TEMP[1].yyyy :9\n"
    "  8:     BRK\n"
    "  9:   ENDIF\n"
    " 10:   UADD TEMP[0].y, TEMP[0].yyyy, IMM[0].zzzz\n"
    " 11: ENDLOOP :0\n"
    " 12: STORE BUFFER[0].x, TEMP[0].xxxx, TEMP[0].yyyy\n"
    " 13: END\n";

static void test_mesa_dumps_identical(void **state)
{
    (void)state;
    expect_identical(fs_11_1);
    expect_identical(gs_vs_11_3);
    expect_identical(cs_11_4);
}

/* reference 11.5: other lines that round-trip unchanged */
static void test_other_mesa_lines(void **state)
{
    (void)state;
    expect_identical("FRAG\n"
                     "DCL IN[1], GENERIC[1], PERSPECTIVE, CENTROID\n"
                     "DCL SVIEW[1], CUBEARRAY, FLOAT\n"
                     "DCL IMAGE[0], 2D, PIPE_FORMAT_R32G32B32A32_FLOAT, WR\n"
                     "DCL CONST[0][0..3]\n"
                     "DCL TEMP[0..1]\n"
                     "DCL ADDR[0]\n"
                     "IMM[0] FLT32 {0x3f000000, 0x3f800000, 0x00000000, 0xc0200000}\n"
                     "IMM[1] FLT64 {1.50000000, -0.25000000}\n"
                     "IMM[2] INT64 {-3, 9}\n"
                     "  0: MAD_SAT TEMP[0], TEMP[0], CONST[0][ADDR[0].x+1], -|TEMP[1].wzyx|\n"
                     "  1: STORE IMAGE[0], SV[0].xyyy, TEMP[1], 2D, PIPE_FORMAT_R32G32B32A32_FLOAT\n");
}

static void test_canonical_forms(void **state)
{
    (void)state;
    /* what Mesa's printer normalises: identity swizzle and full write mask omitted,
     * index 0 of COLOR omitted, GENERIC/TEXCOORD indices kept, `[]` for per-vertex
     * inputs, the image format always printed, one return type when all four agree,
     * memory qualifiers in bit order, upper case */
    char *s = print_text("frag\n"
                         "dcl in[0], color[0], linear\n"
                         "DCL IN[1], TEXCOORD[0], PERSPECTIVE, SAMPLE\n"
                         "DCL OUT[0].xyzw, COLOR[0]\n"
                         "DCL SVIEW[0], 2D, UINT, UINT, UINT, UINT\n"
                         "DCL SVIEW[1], 2D, FLOAT, FLOAT, FLOAT, SINT\n"
                         "DCL IMAGE[0], 3D, RAW, WR\n"
                         "DCL MEMORY[0], GLOBAL\n"
                         "DCL TEMP[4..4]\n"
                         "IMM[0] FLT32 {1, 2, 3, 4}\n"
                         "mov out[0].xyzw, in[0].xyzw\n"
                         "LOAD TEMP[4], IMAGE[0], IN[0], VOLATILE, COHERENT, STREAM_CACHE_POLICY, RESTRICT\n"
                         "  5  :  END\n",
                         0);
    assert_string_equal(s, "FRAG\n"
                           "DCL IN[0], COLOR, LINEAR\n"
                           "DCL IN[1], TEXCOORD[0], PERSPECTIVE, SAMPLE\n"
                           "DCL OUT[0], COLOR\n"
                           "DCL SVIEW[0], 2D, UINT\n"
                           "DCL SVIEW[1], 2D, FLOAT, FLOAT, FLOAT, SINT\n"
                           "DCL IMAGE[0], 3D, PIPE_FORMAT_NONE, WR, RAW\n"
                           "DCL MEMORY[0], GLOBAL\n"
                           "DCL TEMP[4]\n"
                           "IMM[0] FLT32 {    1.0000,     2.0000,     3.0000,     4.0000}\n"
                           "  0: MOV OUT[0], IN[0]\n"
                           "  1: LOAD TEMP[4], IMAGE[0], IN[0], COHERENT, RESTRICT, VOLATILE, "
                           "STREAM_CACHE_POLICY\n"
                           "  2: END\n");
    free(s);
    s = print_text("TESS_CTRL\nDCL IN[][0..1], POSITION\nDCL OUT[][0], GENERIC[2]\n"
                   "DCL OUT[5], PATCH\nDCL OUT[6], TESSINNER\n",
                   0);
    assert_string_equal(s, "TESS_CTRL\nDCL IN[][0..1], POSITION\nDCL OUT[][0], GENERIC[2]\n"
                           "DCL OUT[5], PATCH\nDCL OUT[6], TESSINNER\n");
    free(s);
}

static void test_indentation(void **state)
{
    (void)state;
    /* Mesa's nesting rules; an unbalanced ENDIF drives the level below zero, which
     * prints as no indentation until the level is positive again (as tgsi_dump does) */
    char *s = print_text("FRAG\nDCL TEMP[0]\nENDIF\nIF TEMP[0].xxxx\nMOV TEMP[0], TEMP[0]\n"
                         "ENDIF\nBGNSUB\nSWITCH TEMP[0].xxxx\nCASE TEMP[0].xxxx\nBRK\nENDSWITCH\n"
                         "RET\nENDSUB\n",
                         0);
    assert_string_equal(s, "FRAG\nDCL TEMP[0]\n"
                           "  0: ENDIF\n"
                           "  1: IF TEMP[0].xxxx\n"
                           "  2: MOV TEMP[0], TEMP[0]\n"
                           "  3: ENDIF\n"
                           "  4: BGNSUB\n"
                           "  5: SWITCH TEMP[0].xxxx\n"
                           "  6: CASE TEMP[0].xxxx\n"
                           "  7: BRK\n"
                           "  8: ENDSWITCH\n"
                           "  9: RET\n"
                           " 10: ENDSUB\n");
    free(s);
}

static void test_exact_immediates(void **state)
{
    (void)state;
    /* "%10.4f" when it converts back to the same bits, else the bit pattern */
    char hex[16];
    snprintf(hex, sizeof hex, "0x%08x", tv_f32_bits(0.123456f));
    char *s = print_text("COMP\n"
                         "IMM FLT32 {0.1, 0.123456, -0.0, 1e10}\n"
                         "IMM FLT32 {1e-45, 0x7fc00000, 0xff800000, -2.5}\n"
                         "IMM FLT32 {0x3f800000, 0x00000000, 0x3f000000, 0x40000000}\n"
                         "IMM FLT64 {0.1, 0x3fd5555555555555}\n"
                         "IMM FLT64 {-0.25, 0x7ff0000000000000}\n"
                         "IMM UINT32 {0, 4294967295, 0x10, 7}\n"
                         "IMM INT32 {-2147483648, -1, 0, 2147483647}\n"
                         "IMM UINT64 {18446744073709551615, 0}\n",
                         0);
    const char *want_flt64 = "IMM[3] FLT64 {0.10000000, 0x3fd5555555555555}\n"
                             "IMM[4] FLT64 {-0.25000000, 0x7ff0000000000000}\n";
    char full[1024];
    snprintf(full, sizeof full,
             "COMP\nIMM[0] FLT32 {    0.1000, %s,    -0.0000, 10000000000.0000}\n"
             "IMM[1] FLT32 {0x00000001, 0x7fc00000, 0xff800000,    -2.5000}\n"
             "IMM[2] FLT32 {0x3f800000, 0x00000000, 0x3f000000, 0x40000000}\n"
             "%s"
             "IMM[5] UINT32 {0, 4294967295, 16, 7}\n"
             "IMM[6] INT32 {-2147483648, -1, 0, 2147483647}\n"
             "IMM[7] UINT64 {18446744073709551615, 0}\n",
             hex, want_flt64);
    assert_string_equal(s, full);
    /* and every printed value reads back to the same bits */
    char *fp = th_fixed_point(s, strlen(s), 0);
    assert_string_equal(fp, s);
    free(fp);
    free(s);
}

static void test_print_buffer_contract(void **state)
{
    (void)state;
    size_t count;
    tv_error err;
    tv_tgsi_program *p = th_parse("VERT\nEND\n", 0, &count, &err);
    const char *want = "VERT\n  0: END\n";
    size_t n = strlen(want);
    assert_int_equal(tv_tgsi_print(p, NULL, 0), n);
    char small[6];
    assert_int_equal(tv_tgsi_print(p, small, sizeof small), n);
    assert_string_equal(small, "VERT\n");
    char big[64];
    assert_int_equal(tv_tgsi_print(p, big, sizeof big), n);
    assert_string_equal(big, want);
    char *a = tv_tgsi_print_alloc(p);
    assert_string_equal(a, want);
    free(a);
    tv_tgsi_programs_free(p, count);
}

/* Inputs the fuzzer found (fuzz/fuzz_tgsi.c), kept as regression tests. */
static void test_fuzz_regressions(void **state)
{
    (void)state;
    /* 1: a huge FLT64 prints as a 318-character %10.8f decimal, which must read back
     * exactly (the parser once truncated long decimals to 127 characters) */
    const char *huge = "COMP\nIMM FLT64 {0x7fd8000000000000, 0}\n";
    char *s = th_fixed_point(huge, strlen(huge), 0);
    assert_non_null(s);
    assert_true(strlen(s) > 300);
    size_t count;
    tv_error err;
    tv_tgsi_program *p = th_parse(s, 0, &count, &err);
    assert_non_null(p);
    assert_int_equal(p->imms[0].u[0], 0);
    assert_int_equal(p->imms[0].u[1], 0x7fd80000u);
    tv_tgsi_programs_free(p, count);
    free(s);
    /* long decimals convert as a whole */
    char longtext[2048];
    int k = snprintf(longtext, sizeof longtext, "COMP\nIMM FLT64 {0.5");
    for (int i = 0; i < 1500; i++)
        longtext[k++] = '0';
    snprintf(longtext + k, sizeof longtext - (size_t)k, "1, 0}\n");
    p = th_parse(longtext, 0, &count, &err);
    assert_non_null(p);
    assert_int_equal(p->imms[0].u[1], 0x3fe00000u); /* 0.5 + 1e-1501 rounds to 0.5 */
    assert_int_equal(p->imms[0].u[0], 0);
    tv_tgsi_programs_free(p, count);
    /* 2: STREAM(0, 0, 0, 0) written on a declaration is printed back, so that strict
     * validation (STREAM only on GEOM outputs) gives the same answer after printing */
    const char *st = "VERT\nDCL OUT[0], STREAM(0,0,0,0)\nEND\n";
    s = th_fixed_point(st, strlen(st), 0);
    assert_string_equal(s, "VERT\nDCL OUT[0], STREAM(0, 0, 0, 0)\n  0: END\n");
    p = th_parse(s, 0, &count, &err);
    assert_int_equal(tv_tgsi_validate(p, TV_TGSI_STRICT, &err), TV_ERR_INVALID);
    assert_string_equal(err.message, "STREAM(...) is only allowed on GEOM outputs");
    tv_tgsi_programs_free(p, count);
    free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mesa_dumps_identical),
        cmocka_unit_test(test_other_mesa_lines),
        cmocka_unit_test(test_canonical_forms),
        cmocka_unit_test(test_indentation),
        cmocka_unit_test(test_exact_immediates),
        cmocka_unit_test(test_print_buffer_contract),
        cmocka_unit_test(test_fuzz_regressions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
