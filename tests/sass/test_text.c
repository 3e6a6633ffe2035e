/* Text: syntax accepted and kept (guards, immediates, annotations, legacy tid form,
 * masks by name and in hex, case, comments) and errors with their positions. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "texvm/sass.h"

static void same_print(const char *in_text, const char *want)
{
    tv_sass_insn in;
    tv_error err;
    memset(&err, 0, sizeof err);
    tv_status s = tv_sass_parse(in_text, &in, &err);
    if (s)
        fprintf(stderr, "%s: %s\n", in_text, err.message);
    assert_int_equal(s, TV_OK);
    char buf[256];
    int n = tv_sass_print(&in, buf, sizeof buf);
    assert_int_equal(n, (int)strlen(want));
    assert_string_equal(buf, want);
}

static void test_accepted_and_kept(void **state)
{
    (void)state;
    /* scheduling annotations are kept and printed back */
    same_print("TLDS.LZ R0, R4, R9, R11, 0x7, 2D, RGBA {&req_6} {&rd1} {&wr2} {?WAIT6_END}",
               "TLDS.LZ R0, R4, R9, R11, 0x7, 2D, RGBA {&req_6} {&rd1} {&wr2} {?WAIT6_END}");
    same_print("TMML.LOD R2, R6, 6, 2D, 0x3 {&wr0};", "TMML.LOD R2, R6, 0x6, 2D, 0x3 {&wr0}");
    /* guards */
    same_print("@!P6 TXQ R0, R6, TEX_HEADER_DIMENSION, 0, 0xf",
               "@!P6 TXQ R0, R6, TEX_HEADER_DIMENSION, 0x0, 0xf");
    same_print("@PT TXQ R0, R6, TEX_HEADER_DIMENSION, 0, 0xf",
               "TXQ R0, R6, TEX_HEADER_DIMENSION, 0x0, 0xf");
    same_print("@!PT TXQ R0, R6, TEX_HEADER_DIMENSION, 0, 0xf",
               "@!PT TXQ R0, R6, TEX_HEADER_DIMENSION, 0x0, 0xf");
    /* decimal and hex immediates; #wmskU04 defaults to 0xf */
    same_print("TMML.LOD R4, R6, 8191, 2D", "TMML.LOD R4, R6, 0x1fff, 2D, 0xf");
    same_print("TXQ R0, R6, TEX_HEADER_TEXTURE_TYPE, 0X1F", "TXQ R0, R6, TEX_HEADER_TEXTURE_TYPE, 0x1f, 0xf");
    /* the legacy #tidU08, #smpU05 form: tsPtrIdx = smp << 8 | tid, printed the same way */
    same_print("TMML.LOD R4, R6, 0x12, 3, 2D, 0xf", "TMML.LOD R4, R6, 0x12, 0x3, 2D, 0xf");
    tv_sass_insn in;
    assert_int_equal(tv_sass_parse("TMML.LOD R4, R6, 0x12, 3, 2D, 0xf", &in, NULL), TV_OK);
    assert_int_equal(in.tid, 3 << 8 | 0x12);
    assert_int_equal(tv_sass_parse("TEX R0, R4, 255, 31, 2D, 0xf", &in, NULL), TV_OK);
    assert_int_equal(in.tid, 0x1fff);
    /* masks by name for the vector forms, hex for the scalar forms */
    same_print("TEX.LZ R0, R4, 0x1, 2D, RGBA", "TEX.LZ R0, R4, 0x1, 2D, 0xf");
    same_print("TEX.LZ R0, R4, 0x1, 2D, GA", "TEX.LZ R0, R4, 0x1, 2D, 0xa");
    same_print("TEXS.LZ RZ, R0, R2, R3, 0x1, 2D, 0xc", "TEXS.LZ RZ, R0, R2, R3, 0x1, 2D, BA");
    /* case, spacing, comments, aliases, R255 = RZ, query numbers */
    same_print("tlds.lz.nodep.p  rz ,r10,r21 , 0x8c,1d,r", "TLDS.LZ.NODEP.P RZ, R10, R21, 0x8c, 1D, R");
    same_print("/*0010*/ TEX.LZ R0, R4, R255, 0x1, RECT, 0xf ; /* 0x0 */ // c",
               "TEX.LZ R0, R4, 0x1, 2D, 0xf");
    same_print("TEX.LZ R0, R4, 0x1, CUBEARRAY, 0xf", "TEX.LZ R0, R4, 0x1, ARRAY_CUBE, 0xf");
    same_print("TXQ R0, R6, 5, 0x1, 0xf", "TXQ R0, R6, TEX_HEADER_SAMPLER_POS, 0x1, 0xf");
    /* TLD4's first .B is the component, the second .B is bindless */
    same_print("TLD4.B.B R0, R4, R8, 0x0, 2D, 0xf", "TLD4.B.B R0, R4, R8, 0x0, 2D, 0xf");
    assert_int_equal(tv_sass_parse("TLD4.B.B R0, R4, R8, 0x0, 2D, 0xf", &in, NULL), TV_OK);
    assert_int_equal(in.component, 2);
    assert_int_equal(in.bindless, 1);
    /* modifiers in any order, printed in FORMAT order */
    same_print("TEX.P.NODEP.DC.LZ R0, R4, R6, 0x1, 2D, 0xf", "TEX.LZ.DC.NODEP.P R0, R4, R6, 0x1, 2D, 0xf");
    /* an explicit PT destination predicate is omitted in print (HWT/nxas syntax) */
    same_print("TLD.LZ PT, R0, R4, 0x1, 1D, 0xf", "TLD.LZ R0, R4, 0x1, 1D, 0xf");
    same_print("TXD P3, R0, R4, R8, 0x1, 2D, 0xf", "TXD P3, R0, R4, R8, 0x1, 2D, 0xf");
}

static void expect_error(const char *text, tv_status code, const char *at, const char *msg)
{
    tv_sass_insn in;
    tv_error err;
    memset(&err, 0, sizeof err);
    tv_status s = tv_sass_parse(text, &in, &err);
    if (s != code || (msg && !strstr(err.message, msg)))
        fprintf(stderr, "%s: [%d] %s\n", text, s, err.message);
    assert_int_equal(s, code);
    assert_int_equal(err.code, code);
    if (msg)
        assert_non_null(strstr(err.message, msg));
    if (at) {
        const char *p = strstr(text, at);
        assert_non_null(p);
        if (err.column != (uint32_t)(p - text) + 1)
            fprintf(stderr, "%s: column %u: %s\n", text, err.column, err.message);
        assert_int_equal(err.column, (uint32_t)(p - text) + 1);
        assert_int_equal(err.line, 1);
    }
}

static void test_errors(void **state)
{
    (void)state;
    expect_error("", TV_ERR_PARSE, NULL, "instruction expected");
    expect_error("TEXX R0, R4, 0x1, 2D, 0xf", TV_ERR_PARSE, "TEXX", "unknown instruction");
    expect_error("TEX.FOO R0, R4, 0x1, 2D, 0xf", TV_ERR_PARSE, "FOO", "unknown modifier");
    expect_error("TEX.MS R0, R4, 0x1, 2D, 0xf", TV_ERR_PARSE, "MS", "not defined");
    expect_error("TEX.LZ.LZ R0, R4, 0x1, 2D, 0xf", TV_ERR_PARSE, "LZ R0", "repeats");
    expect_error("TLD4.PTP.AOFFI.R R0, R4, R6, 0x1, 2D, 0xf", TV_ERR_PARSE, NULL, NULL);
    expect_error("TLD4 R0, R4, 0x1, 2D, 0xf", TV_ERR_PARSE, "TLD4", "component");
    expect_error("TMML R0, R4, 0x1, 2D, 0xf", TV_ERR_PARSE, "TMML", ".LOD");
    expect_error("TLD R0, R4, 0x1, 2D, 0xf", TV_ERR_PARSE, "TLD", "LOD mode");
    expect_error("TEXS.LB RZ, R0, R4, 0x1, 2D, R", TV_ERR_PARSE, "LB", "LOD mode");
    expect_error("TEX.LZ R0, R4, 0x1, 4D, 0xf", TV_ERR_PARSE, "4D", NULL);
    expect_error("TEX.LZ R0, R4, 0x1, 2D, 0x1f", TV_ERR_PARSE, "0x1f", "exceeds");
    expect_error("TEX.LZ R0, R4, 0x2000, 2D, 0xf", TV_ERR_PARSE, "0x2000", "13 bits");
    expect_error("TEX.LZ R0, R4, 0x100, 0x1, 2D, 0xf", TV_ERR_PARSE, "0x100", "8 bits");
    expect_error("TEX.LZ R0, R4, 0x10, 0x20, 2D, 0xf", TV_ERR_PARSE, "0x20", "5 bits");
    expect_error("TEX.LZ R0, R256, 0x1, 2D, 0xf", TV_ERR_PARSE, "R256", NULL);
    expect_error("TEX.LZ R0, 0x4, 0x1, 2D, 0xf", TV_ERR_PARSE, "0x4", "register expected");
    expect_error("TEX.LZ R0, R4, 0x1, 2D, 0xf, 0x7", TV_ERR_PARSE, "0x7", "unexpected operand");
    expect_error("TEX.LZ R0, R4, 0x1, 2D, 0xf junk", TV_ERR_PARSE, "junk", "unexpected");
    expect_error("TEX.LZ R0, R4, 0x1, 2D, 0xf {&bogus}", TV_ERR_PARSE, "{&bogus}", "annotation");
    expect_error("TEX.LZ R0, R4, 0x1, 2D, 0xf {&rd1} {&rd2}", TV_ERR_PARSE, "{&rd2}", "repeated");
    expect_error("TEX.LZ R0, R4, 0x1, 2D, 0xf /* open", TV_ERR_PARSE, NULL, "comment");
    expect_error("@P7 TEX.LZ R0, R4, 0x1, 2D, 0xf", TV_ERR_PARSE, "@P7", "guard");
    expect_error("TXQ R0, R6, TEX_HEADER_COLOR, 0, 0xf", TV_ERR_PARSE, "TEX_HEADER_COLOR", "query");
    expect_error("TEX.LZ R0, R4, 0x1, 2D, 0xf; TXQ", TV_ERR_PARSE, "TXQ", "unexpected text");
    expect_error("TEX.LZ P0, P1, R0, R4, 0x1, 2D, 0xf", TV_ERR_PARSE, "P1", "register expected");
    /* parsed, but no encoding */
    expect_error("TEX.LZ R0, R4, 0x1, ARRAY_3D, 0xf", TV_ERR_INVALID, NULL, "ARRAY_3D");
    expect_error("TEX.LZ.AOFFI R0, R4, R6, 0x1, CUBE, 0xf", TV_ERR_INVALID, NULL, "AOFFI");
    expect_error("TEX.LZ.DC R0, R4, R6, 0x1, 3D, 0xf", TV_ERR_INVALID, NULL, "DC");
    expect_error("TLD4.R R0, R4, 0x1, 1D, 0xf", TV_ERR_INVALID, NULL, "1D");
    expect_error("TLD.LZ.MS R0, R4, R6, 0x1, 3D, 0xf", TV_ERR_INVALID, NULL, ".MS");
    expect_error("TEX.B.LZ R0, R4, R6, 0x1, 2D, 0xf", TV_ERR_INVALID, NULL, "0x0");
    expect_error("TEX.B.LZ R0, R4, R6, 0x1, 0x0, 2D, 0xf", TV_ERR_INVALID, NULL, "#tidU08");
    expect_error("TMML.LOD R0, R4, R6, 0x1, 2D, 0xf", TV_ERR_INVALID, NULL, "Rb");
    expect_error("TXQ P0, R0, R4, TEX_HEADER_DIMENSION, 0x1, 0xf", TV_ERR_PARSE, NULL, NULL);
    /* NVIDIA's ILLEGAL_INSTR_ENCODING combinations (issue 13 §3), refused at parse */
    expect_error("TLD.LL.MS R0, R4, R6, 0x1, 2D, 0xf", TV_ERR_INVALID, NULL,
                 ".MS only with .LZ");
    expect_error("TLD.LZ.MS.CL R0, R4, R6, 0x1, 2D, 0xf", TV_ERR_INVALID, NULL,
                 ".MS with .CL");
    expect_error("TLD4.R.PTP R0, R4, R6, 0x1, CUBE, 0xf", TV_ERR_INVALID, NULL,
                 ".PTP with CUBE");
    expect_error("TLD4.R.PTP R0, R4, R6, 0x1, ARRAY_CUBE, 0xf", TV_ERR_INVALID, NULL,
                 ".PTP with CUBE");
    expect_error("TXQ R0, R6, TEX_SAMPLER_WRAP, 0x1, 0xf", TV_ERR_INVALID, NULL,
                 "illegal encodings");
    expect_error("TXQ R0, R6, 0x3, 0x1, 0xf", TV_ERR_INVALID, NULL, "illegal encodings");
}

static void test_decode_errors(void **state)
{
    (void)state;
    tv_sass_insn in;
    tv_error err;
    /* not a texture instruction (MOV) */
    assert_int_equal(tv_sass_decode(0x4c98078000870001ull, 0, &in, &err), TV_ERR_INVALID);
    assert_non_null(strstr(err.message, "not a texture instruction"));
    /* TEX LOD encodings 4 and 5 are invalid */
    uint64_t w = 0xc03805079ff71414ull;   /* TEX.T R20, R20, 0x50, ARRAY_1D, 0xf */
    assert_int_equal(tv_sass_decode(w | 4ull << 55, 0, &in, &err), TV_ERR_INVALID);
    assert_int_equal(tv_sass_decode(w | 5ull << 55, 0, &in, &err), TV_ERR_INVALID);
    /* TEX type ARRAY_3D */
    assert_int_equal(tv_sass_decode((w & ~(7ull << 28)) | 5ull << 28, 0, &in, &err),
                     TV_ERR_INVALID);
    /* TLD4 offset mode 3 */
    uint64_t t4 = 0xdef800d7a2273820ull;
    assert_int_equal(tv_sass_decode(t4 | 3ull << 36, 0, &in, &err), TV_ERR_INVALID);
    /* bits that must be zero: TEX.B [48:41], TMML Rb field, TXQ [21:20] */
    assert_int_equal(tv_sass_decode(0xdebc0067a2872020ull | 1ull << 45, 0, &in, &err),
                     TV_ERR_INVALID);
    assert_non_null(strstr(err.message, "must be zero"));
    assert_int_equal(tv_sass_decode(0xdf48050100471f0full | 1ull << 20, 0, &in, &err),
                     TV_ERR_INVALID);
    /* TMML (not .B) with RZ in the unused Rb field, as Mesa's GM107 emitter writes every
       textureQueryLod (issue 13 §3): decodes, re-encodes to the same word; text encodes 0 */
    const uint64_t tmml = 0xdf580341aff70402ull;
    assert_int_equal(tv_sass_decode(tmml, 0, &in, &err), TV_OK);
    assert_int_equal(in.op, TV_SASS_TMML);
    assert_int_equal(in.unused_rb, 0xff);
    uint64_t back;
    assert_int_equal(tv_sass_encode(&in, &back, NULL, &err), TV_OK);
    assert_true(back == tmml);
    char text[128];
    tv_sass_print(&in, text, sizeof text);
    tv_sass_insn again;
    assert_int_equal(tv_sass_parse(text, &again, &err), TV_OK);
    assert_int_equal(again.unused_rb, 0);
    assert_int_equal(tv_sass_encode(&again, &back, NULL, &err), TV_OK);
    assert_true(back == (tmml & ~(0xffull << 20)));
    /* any other value there is refused */
    assert_int_equal(tv_sass_decode((tmml & ~(0xffull << 20)) | 0x7full << 20, 0, &in, &err),
                     TV_ERR_INVALID);
    assert_non_null(strstr(err.message, "must be 0 or RZ"));
    /* the ILLEGAL_INSTR_ENCODING rows are refused at decode too: take legal words and set
       the bits that make them illegal */
    static const struct { const char *text; uint64_t set; const char *msg; } illegal[] = {
        {"TLD.LZ.MS R0, R4, R6, 0x1, 2D, 0xf", 1ull << 55, ".MS only with .LZ"},
        {"TLD.LZ.MS R0, R4, R6, 0x1, 2D, 0xf", 1ull << 54, ".MS with .CL"},
        {"TLD4.R R0, R4, R6, 0x1, CUBE, 0xf", 2ull << 54, ".PTP with CUBE"},   /* offset mode 2 */
        {"TXQ R0, R6, TEX_HEADER_DIMENSION, 0x1, 0xf", 0x10ull << 22, "illegal encodings"},
    };
    for (size_t i = 0; i < sizeof illegal / sizeof illegal[0]; i++) {
        uint64_t word;
        assert_int_equal(tv_sass_parse(illegal[i].text, &in, &err), TV_OK);
        assert_int_equal(tv_sass_encode(&in, &word, NULL, &err), TV_OK);
        assert_int_equal(tv_sass_decode(word, 0, &in, &err), TV_OK);
        assert_int_equal(tv_sass_decode(word | illegal[i].set, 0, &in, &err), TV_ERR_INVALID);
        if (!strstr(err.message, illegal[i].msg))
            fail_msg("%s with 0x%llx: %s", illegal[i].text,
                     (unsigned long long)illegal[i].set, err.message);
    }
    /* TEXS/TLDS mask codes 5..7 with a non-RZ Rd2 */
    assert_int_equal(tv_sass_decode(0xd8b0050181e70224ull | 5ull << 50, 0, &in, &err),
                     TV_ERR_INVALID);
    /* phase 3 */
    assert_int_equal(tv_sass_decode(w, 3u << 17, &in, &err), TV_ERR_INVALID);
    /* executing an undecodable word is an error too, and touches nothing */
    assert_int_equal(tv_sass_decode(w, 0, &in, &err), TV_OK);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_accepted_and_kept),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_decode_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
