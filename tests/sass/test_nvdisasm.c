/* The reference's real nvdisasm lines (nvidia-texture.md §6.1): each hex decodes to the
 * printed text, and the text parses and encodes to the hex. SM61 lines carry the 88-bit
 * view (control bits above the 64-bit word: .T = 0x020000, .P = 0x040000); the SM50
 * listing prints only the 64-bit word, so its phase is given here by hand from the text. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "texvm/sass.h"

typedef struct line {
    const char *text;
    uint32_t ctrl;
    uint64_t word;
} line;

static const line lines[] = {
    /* SM50 (CUASM sm_50) */
    {"@!P0 TLDS.LZ.NODEP.P RZ, R10, R21, 0x8c, 1D, R ;", 0x040000, 0xda0208cffff8150aull},
    {"@!P0 TLDS.LZ.NODEP.T RZ, R16, R19, 0x8c, 1D, R", 0x020000, 0xda0208cffff81310ull},
    {"@!P0 TLDS.LZ.NODEP.P RZ, R34, R19, 0x8e, 1D, RG ;", 0x040000, 0xda1208effff81322ull},
    {"TLDS.LZ.NODEP.P RZ, R110, R4, 0x7e, 1D, RG ;", 0x040000, 0xda1207effff7046eull},
    /* SM61 (CUASM sm_61), 88-bit hex split into control and word */
    {"TEXS.P RZ, R3, R4, R5, 0x5a, 2D, R ;", 0x040000, 0xd82005aff0570403ull},
    {"TEXS.T RZ, R3, R18, R16, 0x54, CUBE, R", 0x020000, 0xd980054ff1071203ull},
    {"TEXS.LL.DC.T R24, R36, R2, R30, 0x50, 2D, RGBA ;", 0x020000, 0xd8b0050181e70224ull},
    {"TLDS.LZ.AOFFI.T R32, R34, R54, R53, 0x50, 2D, RGBA ;", 0x020000, 0xda90050203573622ull},
    {"TLDS.LZ.P RZ, R8, R15, 0x5e, 1D, RG ;", 0x040000, 0xda1005effff70f08ull},
    {"TXQ.T R15, R31, TEX_HEADER_DIMENSION, 0x50, 0x2 ;", 0x020000, 0xdf48050100471f0full},
    {"TXQ.B.T R21, R20, TEX_HEADER_DIMENSION, 0x0, 0x2 ;", 0x020000, 0xdf50000100471415ull},
    {"TLD4S.A.AOFFI.T R32, R34, R56, R47, 0x50 ;", 0x020000, 0xdf38050202f73822ull},
    {"TLD4.A.B.AOFFI.T R32, R56, R34, 0x0, 2D, 0xf", 0x020000, 0xdef800d7a2273820ull},
    {"TEX.LL.DC.T R16, R8, R62, 0x50, CUBE, 0xf", 0x020000, 0xc1bc0507e3e70810ull},
    {"TEX.B.LL.DC.P R32, R32, R40, 0x0, 2D, 0xf ;", 0x040000, 0xdebc0067a2872020ull},
    {"TEX.T R20, R20, 0x50, ARRAY_1D, 0xf ;", 0x020000, 0xc03805079ff71414ull},
    {"TLD.B.LZ.AOFFI.P R8, R46, R4, 0x0, 1D, 0xf ;", 0x040000, 0xdd38000f80472e08ull},
    {"TXD.AOFFI.P R36, R76, R36, 0x50, 2D, 0xf ;", 0x040000, 0xde38050fa2474c24ull},
};
#define NLINES (sizeof lines / sizeof lines[0])

/* The printed text without the trailing " ;". */
static void expected_text(const char *in, char *out, size_t size)
{
    snprintf(out, size, "%s", in);
    size_t n = strlen(out);
    while (n && (out[n - 1] == ' ' || out[n - 1] == ';'))
        out[--n] = '\0';
}

static void test_decode_prints_text(void **state)
{
    (void)state;
    for (size_t i = 0; i < NLINES; i++) {
        tv_sass_insn in;
        tv_error err;
        memset(&err, 0, sizeof err);
        tv_status s = tv_sass_decode(lines[i].word, lines[i].ctrl, &in, &err);
        if (s)
            fprintf(stderr, "line %zu: %s\n", i, err.message);
        assert_int_equal(s, TV_OK);
        char buf[256], want[256];
        tv_sass_print(&in, buf, sizeof buf);
        expected_text(lines[i].text, want, sizeof want);
        assert_string_equal(buf, want);
    }
}

static void test_text_encodes_to_hex(void **state)
{
    (void)state;
    for (size_t i = 0; i < NLINES; i++) {
        tv_sass_insn in;
        tv_error err;
        memset(&err, 0, sizeof err);
        tv_status s = tv_sass_parse(lines[i].text, &in, &err);
        if (s)
            fprintf(stderr, "line %zu: %s\n", i, err.message);
        assert_int_equal(s, TV_OK);
        uint64_t word = 0;
        uint32_t ctrl = 0;
        assert_int_equal(tv_sass_encode(&in, &word, &ctrl, &err), TV_OK);
        assert_int_equal(word, lines[i].word);
        assert_int_equal(ctrl, lines[i].ctrl);
    }
}

/* Fields named in the reference (§6.1): "TXQ query [27:22] = 1; TLD4.B component
 * [39:38] = 3 and offset mode [37:36] = 1; TEX.LL.DC LOD = 3, DC = 1, type = 6; TLDS code
 * 4 = 2D.LZ.AOFFI; TEXS.LL.DC.T encodes Rd2 = 24, Rd = 36". */
static void test_named_fields(void **state)
{
    (void)state;
    tv_sass_insn in;
    assert_int_equal(tv_sass_decode(0xdf48050100471f0full, 0, &in, NULL), TV_OK);
    assert_int_equal(in.query, 1);
    assert_int_equal(tv_sass_decode(0xdef800d7a2273820ull, 0, &in, NULL), TV_OK);
    assert_int_equal(in.component, 3);
    assert_true(in.aoffi && in.bindless);
    assert_int_equal(tv_sass_decode(0xc1bc0507e3e70810ull, 0, &in, NULL), TV_OK);
    assert_int_equal(in.lod, 3);
    assert_int_equal(in.dc, 1);
    assert_int_equal(in.type, 6);
    assert_int_equal(tv_sass_decode(0xda90050203573622ull, 0, &in, NULL), TV_OK);
    assert_int_equal((0xda90050203573622ull >> 53) & 0xf, 4);
    assert_int_equal(in.type, TV_SASS_2D);
    assert_int_equal(in.lod, TV_SASS_LOD_LZ);
    assert_true(in.aoffi);
    assert_int_equal(tv_sass_decode(0xd8b0050181e70224ull, 0, &in, NULL), TV_OK);
    assert_int_equal(in.rd2, 24);
    assert_int_equal(in.rd, 36);
}

/* Hand-written lines that ran on hardware (HWT, nxas syntax), maxas lines and the page
 * examples: they parse, and print back to the canonical nvdisasm form. */
static void test_other_sources(void **state)
{
    (void)state;
    static const char *const src[][2] = {
        {"TEXS.F16.LZ R1, R0, R4, R5, 0x28, 2D, RGBA;", "TEXS.F16.LZ R1, R0, R4, R5, 0x28, 2D, RGBA"},
        {"TLDS.LZ.MS R2, R0, R0, R2, 0x28, 2D, RGBA;", "TLDS.LZ.MS R2, R0, R0, R2, 0x28, 2D, RGBA"},
        {"TLD4.R.B.PTP PT, R0, R0, R4, 0, 2D, 0xf;", "TLD4.R.B.PTP R0, R0, R4, 0x0, 2D, 0xf"},
        {"TXQ.B R0, R0, TEX_HEADER_DIMENSION, 0, 0xf;", "TXQ.B R0, R0, TEX_HEADER_DIMENSION, 0x0, 0xf"},
        {"TEX.B.AOFFI.LL P0, R0, R0, R4, 0x0, 2D, 0xf;", "TEX.B.LL.AOFFI P0, R0, R0, R4, 0x0, 2D, 0xf"},
        {"TLD.B.LZ.P R96, R104, R110, 0x0, 1D, 0xf;", "TLD.B.LZ.P R96, R104, R110, 0x0, 1D, 0xf"},
        {"@P0 TLD.B.LZ.P R96, R104, R110, 0x0, 1D, 0xf;", "@P0 TLD.B.LZ.P R96, R104, R110, 0x0, 1D, 0xf"},
        {"TMML.LOD R2, R6, 6, 2D, 0x3;", "TMML.LOD R2, R6, 0x6, 2D, 0x3"},
        {"TLDS.LZ      R0, R4, R9, R11, 0x7, 2D, RGBA; // reads R9 & R11; writes R0, R1, R4, & R5",
         "TLDS.LZ R0, R4, R9, R11, 0x7, 2D, RGBA"},
        {"TLDS.LZ.MS RZ, R9, R6, R11, 0x0, 2D, R; // reads R6, R7, & R11; writes R9",
         "TLDS.LZ.MS RZ, R9, R6, R11, 0x0, 2D, R"},
        {"TXQ  R0, R6, TEX_HEADER_DIMENSION, 0, 0xf;", "TXQ R0, R6, TEX_HEADER_DIMENSION, 0x0, 0xf"},
        /* nvdisasm -hex listing decoration */
        {"/*0008*/ TEX.T R20, R20, 0x50, ARRAY_1D, 0xf ; /* 0xc03805079ff71414 */",
         "TEX.T R20, R20, 0x50, ARRAY_1D, 0xf"},
    };
    for (size_t i = 0; i < sizeof src / sizeof src[0]; i++) {
        tv_sass_insn in;
        tv_error err;
        memset(&err, 0, sizeof err);
        tv_status s = tv_sass_parse(src[i][0], &in, &err);
        if (s)
            fprintf(stderr, "%s: %s\n", src[i][0], err.message);
        assert_int_equal(s, TV_OK);
        char buf[256];
        tv_sass_print(&in, buf, sizeof buf);
        assert_string_equal(buf, src[i][1]);
        uint64_t word;
        assert_int_equal(tv_sass_encode(&in, &word, NULL, &err), TV_OK);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_decode_prints_text),
        cmocka_unit_test(test_text_encodes_to_hex),
        cmocka_unit_test(test_named_fields),
        cmocka_unit_test(test_other_sources),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
