/* TLDS (spec/sass-tlds.txt): every row of the legal-modifier table with its Ra/Rb
 * packing, the illegal encodings, every row of both Rd1/Rd0/wmsk tables (32-bit and FP16
 * returns), the alignment and RZ rules, the page examples with their reads and writes,
 * the header/sampler overrides and invalid header pointers. Expected texels come from the
 * test's own formula (env_texel_f). */
#include "sass_env.h"

#include <stdio.h>

enum { T1D = 3, T2D = 1, T2DMS = 2, T3D = 4, TARR = 5 };   /* header indices */
enum { TID_1D = 1, TID_2D = 7, TID_MS = 0, TID_3D = 4, TID_ARR = 5 };

static int setup(void **state)
{
    senv_setup(state);
    senv *E = *state;
    tv_tic t;
    senv_put_tex(E, T2D, TV_FORMAT_R32G32B32A32_FLOAT, TV_TEX_2D, 8, 8, 1, 3);
    senv_tic(&t, TV_FORMAT_R32G32B32A32_FLOAT, TV_TEX_2D, 4, 4, 1, 1);
    t.multi_sample_count = 2;   /* MODE_2X2: 4 samples */
    senv_put_tic(E, T2DMS, &t);
    senv_put_tex(E, T1D, TV_FORMAT_R32G32B32A32_FLOAT, TV_TEX_1D, 16, 1, 1, 3);
    senv_put_tex(E, T3D, TV_FORMAT_R32G32B32A32_FLOAT, TV_TEX_3D, 4, 4, 4, 1);
    senv_put_tex(E, TARR, TV_FORMAT_R32G32B32A32_FLOAT, TV_TEX_2D_ARRAY, 4, 4, 3, 1);
    senv_bind(E, TID_2D, tv_tex_handle(T2D, 0));
    senv_bind(E, TID_MS, tv_tex_handle(T2DMS, 0));
    senv_bind(E, TID_1D, tv_tex_handle(T1D, 0));
    senv_bind(E, TID_3D, tv_tex_handle(T3D, 0));
    senv_bind(E, TID_ARR, tv_tex_handle(TARR, 0));
    return 0;
}

static uint64_t encode_text(const char *text)
{
    tv_sass_insn in;
    tv_error err;
    parse_ok(text, &in);
    uint64_t w;
    assert_int_equal(tv_sass_encode(&in, &w, NULL, &err), TV_OK);
    return w;
}

/* ---- the page examples ----------------------------------------------------------------- */
static void test_example_rgba(void **state)
{
    senv *E = *state;
    set_all(E, 9, 3);    /* s */
    set_all(E, 11, 5);   /* t */
    run_ok(E, "TLDS.LZ      R0, R4, R9, R11, 0x7, 2D, RGBA; // reads R9 & R11; writes R0, R1, R4, & R5");
    unsigned got[16], n;
    n = reads_of(E, got);
    assert_regs(got, n, (unsigned[]){9, 11}, 2);
    n = writes_of(E, got);
    assert_regs(got, n, (unsigned[]){0, 1, 4, 5}, 4);
    for (unsigned lane = 0; lane < 32; lane += 7) {
        assert_int_equal(reg(E, 4, lane), tv_f32_bits(env_texel_f(0, 0, 3, 5, 0, 0)));
        assert_int_equal(reg(E, 5, lane), tv_f32_bits(env_texel_f(0, 0, 3, 5, 0, 1)));
        assert_int_equal(reg(E, 0, lane), tv_f32_bits(env_texel_f(0, 0, 3, 5, 0, 2)));
        assert_int_equal(reg(E, 1, lane), tv_f32_bits(env_texel_f(0, 0, 3, 5, 0, 3)));
    }
    /* the same instruction as a 64-bit word: same reads, writes and values */
    uint64_t w = encode_text("TLDS.LZ R0, R4, R9, R11, 0x7, 2D, RGBA");
    for (unsigned r = 0; r < 6; r++)
        set_all(E, r, 0);
    tv_error err;
    assert_int_equal(tv_sass_exec_word(E->w, w, 0, &err), TV_OK);
    n = reads_of(E, got);
    assert_regs(got, n, (unsigned[]){9, 11}, 2);
    n = writes_of(E, got);
    assert_regs(got, n, (unsigned[]){0, 1, 4, 5}, 4);
    assert_int_equal(reg(E, 0, 17), tv_f32_bits(env_texel_f(0, 0, 3, 5, 0, 2)));
}

static void test_example_ms(void **state)
{
    senv *E = *state;
    for (unsigned lane = 0; lane < 32; lane++) {
        tv_sass_set_reg(E->w, 6, lane, lane % 4);         /* s */
        tv_sass_set_reg(E->w, 7, lane, (lane / 4) % 4);   /* t */
        tv_sass_set_reg(E->w, 11, lane, lane % 4);        /* sample */
    }
    run_ok(E, "TLDS.LZ.MS RZ, R9, R6, R11, 0x0, 2D, R; // reads R6, R7, & R11; writes R9");
    unsigned got[16], n;
    n = reads_of(E, got);
    assert_regs(got, n, (unsigned[]){6, 7, 11}, 3);
    n = writes_of(E, got);
    assert_regs(got, n, (unsigned[]){9}, 1);
    for (unsigned lane = 0; lane < 32; lane++)
        assert_int_equal(reg(E, 9, lane),
                         tv_f32_bits(env_texel_f(0, 0, lane % 4, (lane / 4) % 4, lane % 4, 0)));
}

/* ---- legal-modifier table -------------------------------------------------------------- */
typedef struct code_case {
    unsigned encoding;
    const char *text;
    unsigned reads[4], nreads;
    /* register values (R2.., R4..) and the texel they address */
    uint32_t r2, r3, r4, r5;
    unsigned level, layer, x, y, sample;
} code_case;

static const code_case code_cases[] = {
    /* encoding 0: 1D .LZ, Ra = s, Rb must be RZ */
    {0, "TLDS.LZ RZ, R0, R2, 0x1, 1D, R", {2}, 1, 9, 0, 0, 0, 0, 0, 9, 0, 0},
    /* 1: 1D .LL, Ra = s, Rb = lod */
    {1, "TLDS.LL RZ, R0, R2, R3, 0x1, 1D, R", {2, 3}, 2, 5, 1, 0, 0, 1, 0, 5, 0, 0},
    /* 2: 2D .LZ, Ra = s, Rb = t */
    {2, "TLDS.LZ RZ, R0, R2, R3, 0x7, 2D, R", {2, 3}, 2, 6, 2, 0, 0, 0, 0, 6, 2, 0},
    /* 4: 2D .LZ .AOFFI, Ra = s,t, Rb = aoffi: u = -1, v = +2 -> 0x2f */
    {4, "TLDS.LZ.AOFFI RZ, R0, R2, R4, 0x7, 2D, R", {2, 3, 4}, 3, 4, 1, 0x2f, 0, 0, 0, 3, 3, 0},
    /* 5: 2D .LL, Ra = s,t, Rb = lod */
    {5, "TLDS.LL RZ, R0, R2, R4, 0x7, 2D, R", {2, 3, 4}, 3, 3, 1, 1, 0, 1, 0, 3, 1, 0},
    /* 6: 2D .LZ .MS, Ra = s,t, Rb = ms */
    {6, "TLDS.LZ.MS RZ, R0, R2, R4, 0x0, 2D, R", {2, 3, 4}, 3, 2, 3, 3, 0, 0, 0, 2, 3, 3},
    /* 7: 3D .LZ, Ra = s,t, Rb = r */
    {7, "TLDS.LZ RZ, R0, R2, R4, 0x4, 3D, R", {2, 3, 4}, 3, 1, 2, 3, 0, 0, 3, 1, 2, 0},
    /* 8: ARRAY_2D .LZ, Ra = array, Rb = s,t */
    {8, "TLDS.LZ RZ, R0, R2, R4, 0x5, ARRAY_2D, R", {2, 4, 5}, 3, 2, 0, 3, 1, 0, 2, 3, 1, 0},
    /* 12: 2D .LL .AOFFI, Ra = s,t, Rb = lod, aoffi: u = +1, v = -1 -> 0xf1 */
    {12, "TLDS.LL.AOFFI RZ, R0, R2, R4, 0x7, 2D, R", {2, 3, 4, 5}, 4, 1, 2, 1, 0xf1, 1, 0, 2, 1, 0},
};

static void test_legal_modifier_table(void **state)
{
    senv *E = *state;
    for (size_t i = 0; i < sizeof code_cases / sizeof code_cases[0]; i++) {
        const code_case *c = &code_cases[i];
        uint64_t w = encode_text(c->text);
        assert_int_equal((w >> 53) & 0xf, c->encoding);
        set_all(E, 2, c->r2);
        set_all(E, 3, c->r3);
        set_all(E, 4, c->r4);
        set_all(E, 5, c->r5);
        set_all(E, 0, 0xdeadbeef);
        run_ok(E, c->text);
        unsigned got[16], n = reads_of(E, got);
        assert_regs(got, n, c->reads, c->nreads);
        n = writes_of(E, got);
        assert_regs(got, n, (unsigned[]){0}, 1);
        float want = env_texel_f(c->level, c->layer, c->x, c->y, c->sample, 0);
        if (tv_bits_f32(reg(E, 0, 0)) != want)
            fprintf(stderr, "encoding %u: got %g want %g\n", c->encoding, tv_bits_f32(reg(E, 0, 0)),
                    want);
        assert_int_equal(reg(E, 0, 0), tv_f32_bits(want));
        assert_int_equal(reg(E, 0, 31), tv_f32_bits(want));
    }
}

/* Encodings 3, 9, 10, 11, 13, 14, 15 are not in the table: no decode, no execution. */
static void test_illegal_encodings(void **state)
{
    senv *E = *state;
    uint64_t base = encode_text("TLDS.LZ RZ, R0, R2, R3, 0x7, 2D, R");
    for (unsigned code = 0; code < 16; code++) {
        uint64_t w = (base & ~(0xfull << 53)) | (uint64_t)code << 53;
        tv_sass_insn in;
        tv_error err;
        bool legal = code <= 2 || (code >= 4 && code <= 8) || code == 12;
        assert_int_equal(tv_sass_decode(w, 0, &in, &err) == TV_OK, legal);
        if (!legal) {
            assert_int_equal(err.code, TV_ERR_INVALID);
            assert_non_null(strstr(err.message, "legal-modifier table"));
            assert_int_not_equal(tv_sass_exec_word(E->w, w, 0, &err), TV_OK);
        }
    }
    /* modifier combinations with no row */
    static const char *const bad[] = {
        "TLDS.LL RZ, R0, R2, R4, 0x4, 3D, R",
        "TLDS.LZ RZ, R0, R2, R4, 0x4, CUBE, R",
        "TLDS.LZ RZ, R0, R2, R3, 0x4, ARRAY_1D, R",
        "TLDS.LL.MS RZ, R0, R2, R4, 0x0, 2D, R",
        "TLDS.LZ.AOFFI RZ, R0, R2, R3, 0x1, 1D, R",
        "TLDS.LZ.MS RZ, R0, R2, R4, 0x0, 3D, R",
        "TLDS.LZ.MS RZ, R0, R2, R4, 0x0, ARRAY_2D, R",
        "TLDS.LL RZ, R0, R2, R4, 0x5, ARRAY_2D, R",
        "TLDS.LZ RZ, R0, R2, R4, 0x5, ARRAY_CUBE, R",
        "TLDS.LZ RZ, R0, R2, R4, 0x5, ARRAY_3D, R",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        tv_sass_insn in;
        tv_error err;
        assert_int_equal(tv_sass_parse(bad[i], &in, &err), TV_ERR_INVALID);
        assert_true(strstr(err.message, "legal-modifier table") || strstr(err.message, "reserved"));
    }
    /* .lod is mandatory */
    tv_sass_insn in;
    assert_int_equal(tv_sass_parse("TLDS RZ, R0, R2, R3, 0x7, 2D, R", &in, NULL), TV_ERR_PARSE);
}

/* ---- Rd1/Rd0/wmsk tables --------------------------------------------------------------- */
typedef struct wmsk_row {
    const char *name;
    int rd1_rz;
    unsigned encoding;
    int rd0[2], rd1[2];   /* components (0 R .. 3 A) per register half/slot, -1 none */
} wmsk_row;

/* Transcribed from the page (32-bit table: Rd0+0, Rd0+1, Rd1+0, Rd1+1; the FP16 table
 * packs the same components as [15:0], [31:16] of Rd0 and Rd1). */
static const wmsk_row wmsk_rows[] = {
    {"R", 1, 0, {0, -1}, {-1, -1}},   {"G", 1, 1, {1, -1}, {-1, -1}},
    {"B", 1, 2, {2, -1}, {-1, -1}},   {"A", 1, 3, {3, -1}, {-1, -1}},
    {"RG", 1, 4, {0, 1}, {-1, -1}},   {"RA", 1, 5, {0, 3}, {-1, -1}},
    {"GA", 1, 6, {1, 3}, {-1, -1}},   {"BA", 1, 7, {2, 3}, {-1, -1}},
    {"RGB", 0, 0, {0, 1}, {2, -1}},   {"RGA", 0, 1, {0, 1}, {3, -1}},
    {"RBA", 0, 2, {0, 2}, {3, -1}},   {"GBA", 0, 3, {1, 2}, {3, -1}},
    {"RGBA", 0, 4, {0, 1}, {2, 3}},
};

static void check_wmsk(senv *E, const wmsk_row *row, bool f16)
{
    char text[128];
    snprintf(text, sizeof text, "TLDS%s.LZ %s, R4, R2, R3, 0x7, 2D, %s", f16 ? ".F16" : "",
             row->rd1_rz ? "RZ" : "R8", row->name);
    uint64_t w = encode_text(text);
    assert_int_equal((w >> 50) & 7, row->encoding);
    assert_int_equal((w >> 28) & 0xff, row->rd1_rz ? 255 : 8);
    for (unsigned r = 4; r < 10; r++)
        set_all(E, r, 0xdeadbeef);
    set_all(E, 2, 5);
    set_all(E, 3, 6);
    run_ok(E, text);
    unsigned want_writes[4], nw = 0;
    float c[4];
    for (unsigned k = 0; k < 4; k++)
        c[k] = env_texel_f(0, 0, 5, 6, 0, k);
    if (!f16) {
        for (unsigned i = 0; i < 2; i++) {
            if (row->rd0[i] >= 0) {
                assert_int_equal(reg(E, 4 + i, 3), tv_f32_bits(c[row->rd0[i]]));
                want_writes[nw++] = 4 + i;
            }
        }
        for (unsigned i = 0; i < 2; i++) {
            if (row->rd1[i] >= 0) {
                assert_int_equal(reg(E, 8 + i, 3), tv_f32_bits(c[row->rd1[i]]));
                want_writes[nw++] = 8 + i;
            }
        }
    } else {
        uint32_t lo = ref_half(c[row->rd0[0]]);
        uint32_t hi = row->rd0[1] >= 0 ? ref_half(c[row->rd0[1]]) : 0;
        assert_int_equal(reg(E, 4, 3), hi << 16 | lo);
        want_writes[nw++] = 4;
        if (row->rd1[0] >= 0) {
            lo = ref_half(c[row->rd1[0]]);
            hi = row->rd1[1] >= 0 ? ref_half(c[row->rd1[1]]) : 0;
            assert_int_equal(reg(E, 8, 3), hi << 16 | lo);
            want_writes[nw++] = 8;
        }
    }
    unsigned got[16], n = writes_of(E, got);
    assert_regs(got, n, want_writes, nw);
}

static void test_wmsk_f32(void **state)
{
    for (size_t i = 0; i < sizeof wmsk_rows / sizeof wmsk_rows[0]; i++)
        check_wmsk(*state, &wmsk_rows[i], false);
}

static void test_wmsk_f16(void **state)
{
    for (size_t i = 0; i < sizeof wmsk_rows / sizeof wmsk_rows[0]; i++)
        check_wmsk(*state, &wmsk_rows[i], true);
}

/* Rd1 "must be RZ" / "non-RZ" columns; masks with no row (R+B, G+B); hex masks. */
static void test_wmsk_rd1_rules(void **state)
{
    (void)state;
    tv_sass_insn in;
    tv_error err;
    static const char *const bad[] = {
        "TLDS.LZ R8, R4, R2, R3, 0x7, 2D, R",     "TLDS.LZ R8, R4, R2, R3, 0x7, 2D, BA",
        "TLDS.LZ RZ, R4, R2, R3, 0x7, 2D, RGB",   "TLDS.LZ RZ, R4, R2, R3, 0x7, 2D, RGBA",
        "TLDS.LZ RZ, R4, R2, R3, 0x7, 2D, 0x5",   "TLDS.LZ R8, R4, R2, R3, 0x7, 2D, 0x6",
        "TLDS.F16.LZ R8, R4, R2, R3, 0x7, 2D, RA",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_int_equal(tv_sass_parse(bad[i], &in, &err), TV_ERR_INVALID);
    /* hex masks name the same rows */
    assert_int_equal(encode_text("TLDS.LZ RZ, R4, R2, R3, 0x7, 2D, 0x9"),
                     encode_text("TLDS.LZ RZ, R4, R2, R3, 0x7, 2D, RA"));
    assert_int_equal(encode_text("TLDS.LZ R8, R4, R2, R3, 0x7, 2D, 0xe"),
                     encode_text("TLDS.LZ R8, R4, R2, R3, 0x7, 2D, GBA"));
    /* #wmskU34C is optional and defaults to RGBA; #wmskU2C is required */
    assert_int_equal(encode_text("TLDS.LZ R8, R4, R2, R3, 0x7, 2D"),
                     encode_text("TLDS.LZ R8, R4, R2, R3, 0x7, 2D, RGBA"));
    assert_int_equal(tv_sass_parse("TLDS.LZ RZ, R4, R2, R3, 0x7, 2D", &in, &err), TV_ERR_PARSE);
}

/* ---- alignment and RZ rules: faults, with nothing read or written ----------------------- */
static void expect_fault(senv *E, const char *text, const char *what)
{
    set_all(E, 4, 0x12345678);
    tv_error err;
    assert_int_equal(run_status(E, text, &err), TV_ERR_RUNTIME);
    assert_non_null(strstr(err.message, what));
    unsigned got[16];
    assert_int_equal(reads_of(E, got), 0);
    assert_int_equal(writes_of(E, got), 0);
    assert_int_equal(reg(E, 4, 0), 0x12345678);
}

static void test_register_rules(void **state)
{
    senv *E = *state;
    /* 1. Rd0/Rd1 aligned to the registers they receive */
    expect_fault(E, "TLDS.LZ RZ, R5, R2, R3, 0x7, 2D, RG", "misaligned");
    expect_fault(E, "TLDS.LZ R9, R4, R2, R3, 0x7, 2D, RGBA", "misaligned");
    expect_fault(E, "TLDS.LZ R8, R3, R2, R6, 0x7, 2D, RGB", "misaligned");
    run_ok(E, "TLDS.LZ R9, R4, R2, R3, 0x7, 2D, RGB");      /* Rd1 scalar: any register */
    run_ok(E, "TLDS.F16.LZ RZ, R5, R2, R3, 0x7, 2D, RG");   /* FP16: Rd0 scalar */
    run_ok(E, "TLDS.F16.LZ R9, R5, R2, R3, 0x7, 2D, RGBA");
    /* 2. Ra/Rb aligned to 2 when they hold two scalars */
    expect_fault(E, "TLDS.LZ.AOFFI RZ, R4, R3, R6, 0x7, 2D, R", "misaligned");
    expect_fault(E, "TLDS.LZ RZ, R4, R2, R5, 0x5, ARRAY_2D, R", "misaligned");
    expect_fault(E, "TLDS.LL.AOFFI RZ, R4, R2, R7, 0x7, 2D, R", "misaligned");
    run_ok(E, "TLDS.LZ RZ, R4, R3, R5, 0x7, 2D, R");        /* scalars: any register */
    /* 3. Rb must be RZ if nothing is packed in it */
    expect_fault(E, "TLDS.LZ RZ, R4, R2, R3, 0x1, 1D, R", "must be RZ");
    /* 4. Ra/Rb must not be RZ if parameters are packed in them */
    expect_fault(E, "TLDS.LZ RZ, R4, RZ, R3, 0x7, 2D, R", "must not be RZ");
    expect_fault(E, "TLDS.LZ RZ, R4, R2, 0x7, 2D, R", "must not be RZ");
    /* vectors that would run into RZ */
    expect_fault(E, "TLDS.LZ RZ, R254, R2, R3, 0x7, 2D, RG", "past R254");
}

/* ---- state overrides, resViewMinMipLevel, invalid headers ------------------------------- */
static void test_overrides_and_invalid(void **state)
{
    senv *E = *state;
    /* a linear sampler with a non-zero border and depth compare: TLDS ignores it */
    tv_tsc s;
    memset(&s, 0, sizeof s);
    s.mag_filter = TV_MAG_LINEAR;
    s.min_filter = TV_MIN_LINEAR;
    s.mip_filter = TV_MIP_LINEAR;
    s.address_u = s.address_v = TV_WRAP_BORDER;
    s.border_color[0] = tv_f32_bits(0.75f);
    s.depth_compare = true;
    s.max_lod_clamp = 0xfff;
    senv_put_tsc_raw(E, 3, &s);
    senv_bind(E, 20, tv_tex_handle(T2D, 3));
    set_all(E, 2, 2);
    set_all(E, 3, 1);
    run_ok(E, "TLDS.LZ RZ, R4, R2, R3, 0x14, 2D, R");
    assert_int_equal(reg(E, 4, 0), tv_f32_bits(env_texel_f(0, 0, 2, 1, 0, 0)));
    /* out of range: zeros, never the border colour */
    set_all(E, 2, 100);
    run_ok(E, "TLDS.LZ RZ, R4, R2, R3, 0x14, 2D, R");
    assert_int_equal(reg(E, 4, 0), 0);
    /* only headerPtr is used: a sampler pointer past the sampler pool's maximum is fine */
    senv_bind(E, 21, tv_tex_handle(T2D, 4000));
    set_all(E, 2, 2);
    run_ok(E, "TLDS.LZ RZ, R4, R2, R3, 0x15, 2D, R");
    assert_int_equal(reg(E, 4, 0), tv_f32_bits(env_texel_f(0, 0, 2, 1, 0, 0)));
    /* header pointer past SetTexHeaderPoolC.MaximumIndex: invalid texture, zeros */
    senv_bind(E, 22, tv_tex_handle(ENV_ENTRIES, 0));
    set_all(E, 4, 0x5555);
    run_ok(E, "TLDS.LZ R8, R4, R2, R3, 0x16, 2D, RGBA");
    assert_int_equal(reg(E, 4, 0), 0);
    assert_int_equal(reg(E, 5, 0), 0);
    assert_int_equal(reg(E, 8, 0), 0);
    assert_int_equal(reg(E, 9, 0), 0);
    /* coordinate description not matching the header type: zeros (1D on a 2D header);
     * array specifiers may be used with non-array textures (ARRAY_2D on a 2D header) */
    set_all(E, 4, 0x5555);
    run_ok(E, "TLDS.LZ RZ, R4, R2, 0x7, 1D, R");
    assert_int_equal(reg(E, 4, 0), 0);
    set_all(E, 2, 0);   /* layer 0 */
    set_all(E, 6, 3);
    set_all(E, 7, 2);
    run_ok(E, "TLDS.LZ RZ, R4, R2, R6, 0x7, ARRAY_2D, R");
    assert_int_equal(reg(E, 4, 0), tv_f32_bits(env_texel_f(0, 0, 3, 2, 0, 0)));
    /* "LOD Level 0 actually selects the level set by textureHeader.resViewMinMapLevel" */
    tv_tic t;
    senv_tic(&t, TV_FORMAT_R32G32B32A32_FLOAT, TV_TEX_2D, 8, 8, 1, 3);
    t.res_view_min_mip_level = 1;
    senv_put_tic(E, 9, &t);
    senv_bind(E, 23, tv_tex_handle(9, 0));
    set_all(E, 2, 1);
    set_all(E, 3, 2);
    run_ok(E, "TLDS.LZ RZ, R4, R2, R3, 0x17, 2D, R");
    assert_int_equal(reg(E, 4, 0), tv_f32_bits(env_texel_f(1, 0, 1, 2, 0, 0)));
}

/* The override tables, one row at a time: whatever the sampler (or the header's optional
 * controls) say, TLDS returns the plain texel; out of range it returns zeros, never a
 * border colour. */
static void test_override_rows(void **state)
{
    senv *E = *state;
    for (unsigned row = 0; row < 9; row++) {
        tv_tsc s;
        senv_tsc(&s, TV_MAG_POINT, TV_MIN_POINT, TV_MIP_POINT, TV_WRAP_REPEAT);
        s.address_u = s.address_v = TV_WRAP_BORDER;
        switch (row) {
        case 0: s.mag_filter = TV_MAG_LINEAR; break;                  /* MagFilter */
        case 1: s.min_filter = TV_MIN_LINEAR; break;                  /* MinFilter */
        case 2: s.mip_filter = TV_MIP_LINEAR; break;                  /* MipFilter */
        case 3: s.max_anisotropy = 7; s.min_filter = TV_MIN_ANISO; break; /* MaxAnisotropy */
        case 4: for (unsigned c = 0; c < 4; c++) s.border_color[c] = tv_f32_bits(0.5f); break;
        case 5: s.srgb_border_color[0] = s.srgb_border_color[1] = s.srgb_border_color[2] = 0x80;
                s.srgb_conversion = true; break;                      /* sRGBBorderColor */
        case 6: s.depth_compare = true; s.depth_compare_func = TV_CMP_NEVER; break;
        case 7: s.mip_lod_bias = 0x300; s.min_lod_clamp = 0x200; break;
        default: break;
        }
        senv_put_tsc_raw(E, 5, &s);
        tv_tic t;
        senv_tic(&t, TV_FORMAT_R32G32B32A32_FLOAT, TV_TEX_2D, 8, 8, 1, 3);
        if (row == 8) {   /* header UseHeaderOptControl + MaxAnisotropy */
            t.use_header_opt_control = true;
            t.max_anisotropy = 7;
            t.mip_lod_bias = 0x200;
        }
        senv_put_tic(E, 10, &t);
        senv_bind(E, 30, tv_tex_handle(10, 5));
        set_all(E, 2, 6);
        set_all(E, 3, 3);
        run_ok(E, "TLDS.LZ R8, R4, R2, R3, 0x1e, 2D, RGBA");
        assert_int_equal(reg(E, 4, 0), tv_f32_bits(env_texel_f(0, 0, 6, 3, 0, 0)));
        assert_int_equal(reg(E, 5, 0), tv_f32_bits(env_texel_f(0, 0, 6, 3, 0, 1)));
        assert_int_equal(reg(E, 8, 0), tv_f32_bits(env_texel_f(0, 0, 6, 3, 0, 2)));
        assert_int_equal(reg(E, 9, 0), tv_f32_bits(env_texel_f(0, 0, 6, 3, 0, 3)));
        set_all(E, 2, 8);   /* one past the edge */
        run_ok(E, "TLDS.LZ R8, R4, R2, R3, 0x1e, 2D, RGBA");
        assert_int_equal(reg(E, 4, 0), 0);
        assert_int_equal(reg(E, 8, 0), 0);
    }
}

/* TWO_D_NO_MIPMAP has one mip level (the TXQ page's table: "TWO_D_NO_MIPMAP width height
 * zero/depth* one"), whatever the header's MaxMipLevel says: TLDS.LL with a level past it
 * is an out-of-range `ld` and returns zeros, like TXQ's level count and sampling (q = 0). */
static void test_no_mipmap_one_level(void **state)
{
    senv *E = *state;
    tv_tic t;
    senv_tic(&t, TV_FORMAT_R32G32B32A32_FLOAT, TV_TEX_2D_NO_MIPMAP, 8, 8, 1, 3);
    senv_put_tic(E, 11, &t);
    senv_bind(E, 31, tv_tex_handle(11, 0));
    set_all(E, 2, 1);
    set_all(E, 3, 1);
    set_all(E, 6, 0);
    run_ok(E, "TXQ R12, R6, TEX_HEADER_DIMENSION, 0x1f, 0xf");
    assert_int_equal(reg(E, 15, 0), 1);   /* # of mip-map levels: one */
    set_all(E, 4, 0);   /* level 0: the texel */
    run_ok(E, "TLDS.LL R8, R10, R2, R4, 0x1f, 2D, RGBA");
    assert_int_equal(reg(E, 10, 0), tv_f32_bits(env_texel_f(0, 0, 1, 1, 0, 0)));
    assert_int_equal(reg(E, 9, 0), tv_f32_bits(env_texel_f(0, 0, 1, 1, 0, 3)));
    set_all(E, 4, 1);   /* level 1 does not exist: zeros */
    run_ok(E, "TLDS.LL R8, R10, R2, R4, 0x1f, 2D, RGBA");
    for (unsigned r = 8; r < 12; r++)
        assert_int_equal(reg(E, r, 0), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_example_rgba),
        cmocka_unit_test(test_example_ms),
        cmocka_unit_test(test_legal_modifier_table),
        cmocka_unit_test(test_illegal_encodings),
        cmocka_unit_test(test_wmsk_f32),
        cmocka_unit_test(test_wmsk_f16),
        cmocka_unit_test(test_wmsk_rd1_rules),
        cmocka_unit_test(test_register_rules),
        cmocka_unit_test(test_overrides_and_invalid),
        cmocka_unit_test(test_override_rows),
        cmocka_unit_test(test_no_mipmap_one_level),
    };
    return cmocka_run_group_tests(tests, setup, senv_teardown);
}
