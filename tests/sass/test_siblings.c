/* The sibling instructions end to end (reference §4.2/§4.3/§5): every TEX LOD mode and
 * modifier, every TEXS target code, TLD (LZ/LL/AOFFI/MS/.B/arrays/3D), TLD4 (components,
 * AOFFI, PTP, DC, .B, arrays), every TLD4S form incl. FP16, TXD (1D/2D/AOFFI/arrays/.B),
 * and the sparse predicate Pd. Point sampling throughout so every expected value is one
 * texel of the test's formula; depth compare uses EQUAL so it does not depend on the
 * order of the comparison. */
#include "sass_env.h"

#include <stdio.h>

enum { H2D = 1, HARR = 2, H3D = 3, HCUBE = 4, H1D = 5, HDEPTH = 6, HDARR = 7, HMS = 8 };
enum { S_POINT = 0, S_CMP = 2 };

static int setup(void **state)
{
    senv_setup(state);
    senv *E = *state;
    tv_tic t;
    senv_put_tex(E, H2D, TV_FORMAT_R32G32B32A32_FLOAT, TV_TEX_2D, 8, 8, 1, 3);
    senv_put_tex(E, HARR, TV_FORMAT_R32G32B32A32_FLOAT, TV_TEX_2D_ARRAY, 8, 8, 3, 1);
    senv_put_tex(E, H3D, TV_FORMAT_R32G32B32A32_FLOAT, TV_TEX_3D, 4, 4, 4, 1);
    senv_put_tex(E, HCUBE, TV_FORMAT_R32G32B32A32_FLOAT, TV_TEX_CUBE, 4, 4, 1, 1);
    senv_put_tex(E, H1D, TV_FORMAT_R32G32B32A32_FLOAT, TV_TEX_1D, 16, 1, 1, 1);
    senv_put_tex(E, HDEPTH, TV_FORMAT_Z32_FLOAT, TV_TEX_2D, 8, 8, 1, 1);
    senv_put_tex(E, HDARR, TV_FORMAT_Z32_FLOAT, TV_TEX_2D_ARRAY, 8, 8, 3, 1);
    senv_tic(&t, TV_FORMAT_R32G32B32A32_FLOAT, TV_TEX_2D, 4, 4, 1, 1);
    t.multi_sample_count = 2;
    senv_put_tic(E, HMS, &t);
    tv_tsc s;
    senv_tsc(&s, TV_MAG_POINT, TV_MIN_POINT, TV_MIP_POINT, TV_WRAP_REPEAT);
    s.depth_compare = true;
    s.depth_compare_func = TV_CMP_EQUAL;
    senv_put_tsc_raw(E, S_CMP, &s);
    senv_bind(E, 1, tv_tex_handle(H2D, S_POINT));
    senv_bind(E, 2, tv_tex_handle(HARR, S_POINT));
    senv_bind(E, 3, tv_tex_handle(H3D, S_POINT));
    senv_bind(E, 4, tv_tex_handle(HCUBE, S_POINT));
    senv_bind(E, 5, tv_tex_handle(H1D, S_POINT));
    senv_bind(E, 6, tv_tex_handle(HDEPTH, S_CMP));
    senv_bind(E, 7, tv_tex_handle(HDARR, S_CMP));
    senv_bind(E, 8, tv_tex_handle(HMS, S_POINT));
    return 0;
}

static float T(unsigned level, unsigned layer, unsigned x, unsigned y, unsigned c)
{
    return env_texel_f(level, layer, x, y, 0, c);
}

static void expect4(senv *E, unsigned rd, unsigned lane, const float want[4])
{
    for (unsigned c = 0; c < 4; c++) {
        if (reg(E, rd + c, lane) != tv_f32_bits(want[c]))
            fprintf(stderr, "lane %u R%u: got %g want %g\n", lane, rd + c,
                    tv_bits_f32(reg(E, rd + c, lane)), want[c]);
        assert_int_equal(reg(E, rd + c, lane), tv_f32_bits(want[c]));
    }
}

static void expect_texel(senv *E, unsigned rd, unsigned lane, unsigned level, unsigned layer,
                         unsigned x, unsigned y)
{
    float w[4] = {T(level, layer, x, y, 0), T(level, layer, x, y, 1), T(level, layer, x, y, 2),
                  T(level, layer, x, y, 3)};
    expect4(E, rd, lane, w);
}

/* Per-lane texel coordinates: every quad covers a 2x2 block, so quad derivatives are one
 * texel in x and in y. */
static void lane_xy(unsigned lane, unsigned *x, unsigned *y)
{
    unsigned q = lane / 4;
    *x = (lane & 1) + 2 * (q % 4);
    *y = ((lane >> 1) & 1) + 2 * (q / 4);
}

static void set_st(senv *E, unsigned rs, unsigned rt, unsigned size)
{
    for (unsigned lane = 0; lane < 32; lane++) {
        unsigned x, y;
        lane_xy(lane, &x, &y);
        tv_sass_set_reg(E->w, rs, lane, tv_f32_bits((x + 0.5f) / (float)size));
        tv_sass_set_reg(E->w, rt, lane, tv_f32_bits((y + 0.5f) / (float)size));
    }
}

static uint64_t code_of(const char *text)
{
    tv_sass_insn in;
    uint64_t w = 0;
    parse_ok(text, &in);
    assert_int_equal(tv_sass_encode(&in, &w, NULL, NULL), TV_OK);
    return (w >> 53) & 0xf;
}

/* ---- TEX ------------------------------------------------------------------------------- */
static void test_tex_lod_modes(void **state)
{
    senv *E = *state;
    set_st(E, 4, 5, 8);
    /* implicit LOD: one texel per pixel -> lambda 0 -> level 0 */
    run_ok(E, "TEX R0, R4, 0x1, 2D, 0xf");
    for (unsigned lane = 0; lane < 32; lane++) {
        unsigned x, y;
        lane_xy(lane, &x, &y);
        expect_texel(E, 0, lane, 0, 0, x, y);
    }
    run_ok(E, "TEX.LZ R0, R4, 0x1, 2D, 0xf");
    expect_texel(E, 0, 5, 0, 0, 3, 0);
    /* LB / LBA: bias 1 -> level 1 (Rb = bias) */
    static const char *const bias_forms[] = {"TEX.LB R0, R4, R8, 0x1, 2D, 0xf",
                                             "TEX.LBA R0, R4, R8, 0x1, 2D, 0xf"};
    set_allf(E, 8, 1.0f);
    for (unsigned i = 0; i < 2; i++) {
        run_ok(E, bias_forms[i]);
        for (unsigned lane = 0; lane < 32; lane += 3) {
            unsigned x, y;
            lane_xy(lane, &x, &y);
            expect_texel(E, 0, lane, 1, 0, x / 2, y / 2);
        }
    }
    /* LL / LLA: Rb = lod 2 */
    set_allf(E, 8, 2.0f);
    run_ok(E, "TEX.LL R0, R4, R8, 0x1, 2D, 0xf");
    expect_texel(E, 0, 6, 2, 0, 0, 0);   /* lane 6 = texel (2, 1); level 2: (2>>2, 1>>2) */
    expect_texel(E, 0, 9, 2, 0, 1, 0);   /* lane 9 = (5, 0) */
    run_ok(E, "TEX.LLA R0, R4, R8, 0x1, 2D, 0xf");
    expect_texel(E, 0, 9, 2, 0, 1, 0);
    unsigned got[16], n = reads_of(E, got);
    assert_regs(got, n, (unsigned[]){4, 5, 8}, 3);
    /* .LC: an extra A register (non-array) with a minimum LOD: LL 0 clamped up to 1 */
    set_st(E, 4, 5, 8);
    set_allf(E, 6, 1.0f);
    set_allf(E, 8, 0.0f);
    run_ok(E, "TEX.LL.LC R0, R4, R8, 0x1, 2D, 0xf");
    expect_texel(E, 0, 6, 1, 0, 1, 0);
    n = reads_of(E, got);
    assert_regs(got, n, (unsigned[]){4, 5, 6, 8}, 4);
}

static void test_tex_modifiers(void **state)
{
    senv *E = *state;
    set_st(E, 4, 5, 8);
    /* AOFFI: u = +1, v = -1 (4-bit fields); clamp-to-edge sampler */
    set_all(E, 8, 0xf1);
    run_ok(E, "TEX.LZ.AOFFI R0, R4, R8, 0x1, 2D, 0xf");
    for (unsigned lane = 0; lane < 32; lane++) {
        unsigned x, y;
        lane_xy(lane, &x, &y);
        expect_texel(E, 0, lane, 0, 0, x + 1 > 7 ? 7 : x + 1, y ? y - 1 : 0);
    }
    /* DC: Rb = dref, EQUAL: (r, r, r, 1) */
    for (unsigned lane = 0; lane < 32; lane++) {
        unsigned x, y;
        lane_xy(lane, &x, &y);
        float d = T(0, 0, x, y, 0);
        tv_sass_set_reg(E->w, 8, lane, tv_f32_bits(lane % 2 ? d : d + 0.5f));
    }
    run_ok(E, "TEX.LZ.DC R0, R4, R8, 0x6, 2D, 0xf");
    for (unsigned lane = 0; lane < 32; lane++) {
        float r = lane % 2 ? 1.0f : 0.0f;
        float w[4] = {r, r, r, 1.0f};
        expect4(E, 0, lane, w);
    }
    /* .B: Rb = handle, then the LOD */
    set_all(E, 8, tv_tex_handle(H2D, S_POINT));
    set_allf(E, 9, 1.0f);
    run_ok(E, "TEX.B.LL R0, R4, R8, 0x0, 2D, 0xf");
    expect_texel(E, 0, 9, 1, 0, 2, 0);   /* lane 9 = (5, 0) -> level 1 (2, 0) */
    unsigned got[16], n = reads_of(E, got);
    assert_regs(got, n, (unsigned[]){4, 5, 8, 9}, 4);
    /* .B + LL + AOFFI (HWT): handle, lod, offsets */
    set_all(E, 10, 0x01);
    run_ok(E, "TEX.B.AOFFI.LL R0, R4, R8, 0x0, 2D, 0xf");
    expect_texel(E, 0, 9, 1, 0, 3, 0);
    /* write-mask compaction: 0x5 -> R0 = R, R1 = B */
    set_all(E, 2, 0x2222);
    run_ok(E, "TEX.LZ R0, R4, 0x1, 2D, 0x5");
    assert_int_equal(reg(E, 0, 0), tv_f32_bits(T(0, 0, 0, 0, 0)));
    assert_int_equal(reg(E, 1, 0), tv_f32_bits(T(0, 0, 0, 0, 2)));
    assert_int_equal(reg(E, 2, 0), 0x2222);
    /* Pd: resident -> false on the executing lanes */
    tv_sass_set_pred(E->w, 1, 0xffffffffu);
    tv_sass_set_active(E->w, 0x0000ffffu);
    run_ok(E, "TEX.LZ P1, R0, R4, 0x1, 2D, 0xf");
    assert_int_equal(tv_sass_get_pred(E->w, 1), 0xffff0000u);
    tv_sass_set_active(E->w, 0xffffffffu);
    uint32_t pw;
    tv_sass_last_access(E->w, NULL, NULL, &pw);
    assert_int_equal(pw, 1u << 1);
}

static void test_tex_targets(void **state)
{
    senv *E = *state;
    /* ARRAY_2D: Ra = layer (u16), s, t */
    set_all(E, 4, 0x30002);
    set_st(E, 5, 6, 8);
    run_ok(E, "TEX.LZ R0, R4, 0x2, ARRAY_2D, 0xf");
    expect_texel(E, 0, 7, 0, 2, 3, 1);
    /* 3D: s, t, r */
    set_allf(E, 4, 1.5f / 4);
    set_allf(E, 5, 2.5f / 4);
    set_allf(E, 6, 3.5f / 4);
    run_ok(E, "TEX.LZ R0, R4, 0x3, 3D, 0xf");
    expect_texel(E, 0, 0, 0, 3, 1, 2);
    /* CUBE: +X and -Y face centres (faces 0 and 3) -> texel (2, 2) of that face */
    set_allf(E, 4, 1.0f);
    set_allf(E, 5, 0.0f);
    set_allf(E, 6, 0.0f);
    run_ok(E, "TEX.LZ R0, R4, 0x4, CUBE, 0xf");
    expect_texel(E, 0, 0, 0, 0, 2, 2);
    set_allf(E, 4, 0.0f);
    set_allf(E, 5, -1.0f);
    run_ok(E, "TEX.LZ R0, R4, 0x4, CUBE, 0xf");
    expect_texel(E, 0, 0, 0, 3, 2, 2);
    /* 1D */
    set_allf(E, 4, 9.5f / 16);
    run_ok(E, "TEX.LZ R0, R4, 0x5, 1D, 0xf");
    expect_texel(E, 0, 0, 0, 0, 9, 0);
    /* a 2D instruction on a 3D header: zeros */
    set_all(E, 0, 0x77);
    run_ok(E, "TEX.LZ R0, R4, 0x3, 2D, 0xf");
    assert_int_equal(reg(E, 0, 0), 0);
}

/* ---- TEXS: every target code ----------------------------------------------------------- */
typedef struct texs_case {
    unsigned code;
    const char *text;
    uint32_t r2, r3, r4, r5;
    float want;          /* the R component */
} texs_case;

static void test_texs_codes(void **state)
{
    senv *E = *state;
    float d = T(0, 0, 3, 5, 0);            /* depth texel (3,5) */
    float da = T(0, 1, 3, 5, 0);           /* depth array texel (3,5) of layer 1 */
    const texs_case cases[] = {
        {0, "TEXS.LZ RZ, R0, R2, 0x5, 1D, R", tv_f32_bits(9.5f / 16), 0, 0, 0, T(0, 0, 9, 0, 0)},
        {1, "TEXS RZ, R0, R2, R3, 0x1, 2D, R", tv_f32_bits(3.5f / 8), tv_f32_bits(5.5f / 8), 0, 0, T(0, 0, 3, 5, 0)},
        {2, "TEXS.LZ RZ, R0, R2, R3, 0x1, 2D, R", tv_f32_bits(3.5f / 8), tv_f32_bits(5.5f / 8), 0, 0, T(0, 0, 3, 5, 0)},
        {3, "TEXS.LL RZ, R0, R2, R4, 0x1, 2D, R", tv_f32_bits(3.5f / 8), tv_f32_bits(5.5f / 8), tv_f32_bits(1.0f), 0, T(1, 0, 1, 2, 0)},
        {4, "TEXS.DC RZ, R0, R2, R4, 0x6, 2D, R", tv_f32_bits(3.5f / 8), tv_f32_bits(5.5f / 8), tv_f32_bits(d), 0, 1.0f},
        {5, "TEXS.LL.DC RZ, R0, R2, R4, 0x6, 2D, R", tv_f32_bits(3.5f / 8), tv_f32_bits(5.5f / 8), tv_f32_bits(0.0f), tv_f32_bits(d), 1.0f},
        {6, "TEXS.LZ.DC RZ, R0, R2, R4, 0x6, 2D, R", tv_f32_bits(3.5f / 8), tv_f32_bits(5.5f / 8), tv_f32_bits(d + 1), 0, 0.0f},
        {7, "TEXS RZ, R0, R2, R4, 0x2, ARRAY_2D, R", 2, tv_f32_bits(3.5f / 8), tv_f32_bits(5.5f / 8), 0, T(0, 2, 3, 5, 0)},
        {8, "TEXS.LZ RZ, R0, R2, R4, 0x2, ARRAY_2D, R", 1, tv_f32_bits(3.5f / 8), tv_f32_bits(5.5f / 8), 0, T(0, 1, 3, 5, 0)},
        {9, "TEXS.LZ.DC RZ, R0, R2, R4, 0x7, ARRAY_2D, R", 1, tv_f32_bits(3.5f / 8), tv_f32_bits(5.5f / 8), tv_f32_bits(da), 1.0f},
        {10, "TEXS RZ, R0, R2, R4, 0x3, 3D, R", tv_f32_bits(1.5f / 4), tv_f32_bits(2.5f / 4), tv_f32_bits(3.5f / 4), 0, T(0, 3, 1, 2, 0)},
        {11, "TEXS.LZ RZ, R0, R2, R4, 0x3, 3D, R", tv_f32_bits(1.5f / 4), tv_f32_bits(2.5f / 4), tv_f32_bits(0.5f / 4), 0, T(0, 0, 1, 2, 0)},
        {12, "TEXS RZ, R0, R2, R4, 0x4, CUBE, R", tv_f32_bits(1.0f), tv_f32_bits(0.0f), tv_f32_bits(0.0f), 0, T(0, 0, 2, 2, 0)},
        {13, "TEXS.LL RZ, R0, R2, R4, 0x4, CUBE, R", tv_f32_bits(0.0f), tv_f32_bits(-1.0f), tv_f32_bits(0.0f), tv_f32_bits(0.0f), T(0, 3, 2, 2, 0)},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const texs_case *c = &cases[i];
        assert_int_equal(code_of(c->text), c->code);
        set_all(E, 2, c->r2);
        set_all(E, 3, c->r3);
        set_all(E, 4, c->r4);
        set_all(E, 5, c->r5);
        set_all(E, 0, 0xdead);
        run_ok(E, c->text);
        if (reg(E, 0, 11) != tv_f32_bits(c->want))
            fprintf(stderr, "TEXS code %u: got %g want %g\n", c->code, tv_bits_f32(reg(E, 0, 11)),
                    c->want);
        assert_int_equal(reg(E, 0, 11), tv_f32_bits(c->want));
    }
    /* code 5 reads Rb = lod, Rb+1 = dref (Mesa/YUZU order; docs/sass.md) */
    unsigned got[16], n;
    run_ok(E, "TEXS.LL.DC RZ, R0, R2, R4, 0x6, 2D, R");
    n = reads_of(E, got);
    assert_regs(got, n, (unsigned[]){2, 3, 4, 5}, 4);
    /* RGBA split: Rd = R, G; Rd2 = B, A; FP16: Rd = {G, R}, Rd2 = {A, B} */
    set_allf(E, 2, 3.5f / 8);
    set_allf(E, 3, 5.5f / 8);
    run_ok(E, "TEXS.LZ R8, R0, R2, R3, 0x1, 2D, RGBA");
    assert_int_equal(reg(E, 0, 0), tv_f32_bits(T(0, 0, 3, 5, 0)));
    assert_int_equal(reg(E, 1, 0), tv_f32_bits(T(0, 0, 3, 5, 1)));
    assert_int_equal(reg(E, 8, 0), tv_f32_bits(T(0, 0, 3, 5, 2)));
    assert_int_equal(reg(E, 9, 0), tv_f32_bits(T(0, 0, 3, 5, 3)));
    run_ok(E, "TEXS.F16.LZ R9, R7, R2, R3, 0x1, 2D, RGB");
    assert_int_equal(reg(E, 7, 0), (uint32_t)ref_half(T(0, 0, 3, 5, 1)) << 16 |
                                       ref_half(T(0, 0, 3, 5, 0)));
    assert_int_equal(reg(E, 9, 0), ref_half(T(0, 0, 3, 5, 2)));
    /* codes 14 and 15 do not exist */
    tv_sass_insn in;
    uint64_t w = 0xd82005aff0570403ull | 0xeull << 53;
    assert_int_equal(tv_sass_decode(w, 0, &in, NULL), TV_ERR_INVALID);
}

/* ---- TLD ------------------------------------------------------------------------------- */
static void test_tld(void **state)
{
    senv *E = *state;
    set_all(E, 4, 3);
    set_all(E, 5, 5);
    run_ok(E, "TLD.LZ R0, R4, 0x1, 2D, 0xf");
    expect_texel(E, 0, 0, 0, 0, 3, 5);
    set_all(E, 6, 1);   /* integer lod */
    set_all(E, 4, 2);
    set_all(E, 5, 1);
    run_ok(E, "TLD.LL R0, R4, R6, 0x1, 2D, 0xf");
    expect_texel(E, 0, 0, 1, 0, 2, 1);
    set_all(E, 6, 0x1f);   /* u = -1, v = +1 */
    run_ok(E, "TLD.LZ.AOFFI R0, R4, R6, 0x1, 2D, 0xf");
    expect_texel(E, 0, 0, 0, 0, 1, 2);
    set_all(E, 6, 1);
    set_all(E, 7, 0x01);
    run_ok(E, "TLD.LL.AOFFI R0, R4, R6, 0x1, 2D, 0xf");
    expect_texel(E, 0, 0, 1, 0, 3, 1);
    unsigned got[16], n = reads_of(E, got);
    assert_regs(got, n, (unsigned[]){4, 5, 6, 7}, 4);
    /* MS: Rb = sample; .B: Rb = handle, Rb+1 = sample (HWT TLD.B.LZ.MS) */
    set_all(E, 6, 3);
    run_ok(E, "TLD.LZ.MS R0, R4, R6, 0x8, 2D, 0xf");
    assert_int_equal(reg(E, 0, 0), tv_f32_bits(env_texel_f(0, 0, 2, 1, 3, 0)));
    set_all(E, 8, tv_tex_handle(HMS, 0));
    set_all(E, 9, 2);
    run_ok(E, "TLD.B.LZ.MS R0, R4, R8, 0x0, 2D, 0xf");
    assert_int_equal(reg(E, 0, 0), tv_f32_bits(env_texel_f(0, 0, 2, 1, 2, 0)));
    /* ARRAY_2D: layer, x, y; 3D: x, y, z */
    set_all(E, 4, 2);
    set_all(E, 5, 6);
    set_all(E, 6, 7);
    run_ok(E, "TLD.LZ R0, R4, 0x2, ARRAY_2D, 0xf");
    expect_texel(E, 0, 0, 0, 2, 6, 7);
    set_all(E, 4, 1);
    set_all(E, 5, 2);
    set_all(E, 6, 3);
    run_ok(E, "TLD.LZ R0, R4, 0x3, 3D, 0xf");
    expect_texel(E, 0, 0, 0, 3, 1, 2);
    /* out of range (x = -1): zeros (HWT) */
    set_all(E, 4, 0xffffffffu);
    run_ok(E, "TLD.LZ R0, R4, 0x5, 1D, 0xf");
    assert_int_equal(reg(E, 0, 0), 0);
    /* .CL is named as not implemented */
    tv_error err;
    assert_int_equal(run_status(E, "TLD.LZ.CL R0, R4, 0x5, 1D, 0xf", &err), TV_ERR_UNSUPPORTED);
}

/* ---- TLD4 / TLD4S ---------------------------------------------------------------------- */
/* Gather footprint at s = (x0+1)/8, t = (y0+1)/8: texels i0 = x0, i1 = x0+1, j0 = y0,
 * j1 = y0+1 in the order (i0,j1), (i1,j1), (i1,j0), (i0,j0) (textureGather). */
static void gather_want(unsigned layer, unsigned x0, unsigned y0, unsigned c, float w[4])
{
    w[0] = T(0, layer, x0, y0 + 1, c);
    w[1] = T(0, layer, x0 + 1, y0 + 1, c);
    w[2] = T(0, layer, x0 + 1, y0, c);
    w[3] = T(0, layer, x0, y0, c);
}

static void test_tld4(void **state)
{
    senv *E = *state;
    float w[4];
    set_allf(E, 4, 3.0f / 8);
    set_allf(E, 5, 5.0f / 8);
    for (unsigned c = 0; c < 4; c++) {
        static const char *const forms[] = {"TLD4.R R0, R4, 0x1, 2D, 0xf", "TLD4.G R0, R4, 0x1, 2D, 0xf",
                                            "TLD4.B R0, R4, 0x1, 2D, 0xf", "TLD4.A R0, R4, 0x1, 2D, 0xf"};
        run_ok(E, forms[c]);
        gather_want(0, 2, 4, c, w);
        expect4(E, 0, 0, w);
    }
    /* AOFFI: 6-bit offsets in byte lanes: u = +2, v = -3 */
    set_all(E, 8, 0x3d02);
    run_ok(E, "TLD4.G.AOFFI R0, R4, R8, 0x1, 2D, 0xf");
    gather_want(0, 4, 1, 1, w);
    expect4(E, 0, 0, w);
    /* PTP: four (u, v) pairs, one byte each: reg0 = u0 v0 u1 v1, reg1 = u2 v2 u3 v3;
     * component n is texel (i0, j0) of the footprint moved by offset n (GL
     * textureGatherOffsets, which Mesa lowers to PTP) */
    set_all(E, 8, 0x01003f01u);   /* (1,-1), (0,1) */
    set_all(E, 9, 0x0200003eu);   /* (-2,0), (0,2) */
    run_ok(E, "TLD4.R.PTP R0, R4, R8, 0x1, 2D, 0xf");
    {
        float want[4] = {T(0, 0, 2 + 1, 4 - 1, 0), T(0, 0, 2 + 0, 4 + 1, 0),
                         T(0, 0, 2 - 2, 4 + 0, 0), T(0, 0, 2 + 0, 4 + 2, 0)};
        expect4(E, 0, 0, want);
    }
    unsigned got[16], n = reads_of(E, got);
    assert_regs(got, n, (unsigned[]){4, 5, 8, 9}, 4);
    /* DC (EQUAL): per-texel compare results */
    set_allf(E, 8, T(0, 0, 3, 4, 0));
    run_ok(E, "TLD4.R.DC R0, R4, R8, 0x6, 2D, 0xf");
    {
        float want[4];
        gather_want(0, 2, 4, 0, want);
        for (unsigned k = 0; k < 4; k++)
            want[k] = want[k] == T(0, 0, 3, 4, 0) ? 1.0f : 0.0f;
        expect4(E, 0, 0, want);
        assert_int_equal(reg(E, 2, 0), tv_f32_bits(1.0f));   /* (i1, j0) = (3, 4) */
    }
    /* .B: Rb = handle; ARRAY_2D: Ra = layer, s, t */
    set_all(E, 8, tv_tex_handle(H2D, 0));
    run_ok(E, "TLD4.A.B R0, R4, R8, 0x0, 2D, 0xf");
    gather_want(0, 2, 4, 3, w);
    expect4(E, 0, 0, w);
    set_all(E, 4, 2);
    set_allf(E, 5, 3.0f / 8);
    set_allf(E, 6, 5.0f / 8);
    run_ok(E, "TLD4.G R0, R4, 0x2, ARRAY_2D, 0xf");
    gather_want(2, 2, 4, 1, w);
    expect4(E, 0, 0, w);
}

static void test_tld4s(void **state)
{
    senv *E = *state;
    float w[4];
    /* no modifiers: Ra = s, Rb = t; Rd = c0, c1; Rd2 = c2, c3 */
    set_allf(E, 2, 3.0f / 8);
    set_allf(E, 3, 5.0f / 8);
    run_ok(E, "TLD4S.G R8, R4, R2, R3, 0x1");
    gather_want(0, 2, 4, 1, w);
    assert_int_equal(reg(E, 4, 0), tv_f32_bits(w[0]));
    assert_int_equal(reg(E, 5, 0), tv_f32_bits(w[1]));
    assert_int_equal(reg(E, 8, 0), tv_f32_bits(w[2]));
    assert_int_equal(reg(E, 9, 0), tv_f32_bits(w[3]));
    unsigned got[16], n = writes_of(E, got);
    assert_regs(got, n, (unsigned[]){4, 5, 8, 9}, 4);
    /* AOFFI: Ra = s, t; Rb = offsets */
    set_all(E, 6, 0x0101);
    run_ok(E, "TLD4S.R.AOFFI R8, R4, R2, R6, 0x1");
    gather_want(0, 3, 5, 0, w);
    assert_int_equal(reg(E, 4, 0), tv_f32_bits(w[0]));
    assert_int_equal(reg(E, 9, 0), tv_f32_bits(w[3]));
    /* DC: Rb = dref; AOFFI + DC: Rb = offsets, Rb+1 = dref */
    set_allf(E, 6, T(0, 0, 2, 4, 0));
    run_ok(E, "TLD4S.R.DC R8, R4, R2, R6, 0x6");
    assert_int_equal(reg(E, 9, 0), tv_f32_bits(1.0f));   /* (i0, j0) = (2, 4) */
    set_all(E, 6, 0x0001);
    set_allf(E, 7, T(0, 0, 3, 4, 0));
    run_ok(E, "TLD4S.R.AOFFI.DC R8, R4, R2, R6, 0x6");
    assert_int_equal(reg(E, 9, 0), tv_f32_bits(1.0f));
    n = reads_of(E, got);
    assert_regs(got, n, (unsigned[]){2, 3, 6, 7}, 4);
    /* F16: Rd = {c1, c0}, Rd2 = {c3, c2} */
    run_ok(E, "TLD4S.F16.B R8, R4, R2, R3, 0x1");
    gather_want(0, 2, 4, 2, w);
    assert_int_equal(reg(E, 4, 0), (uint32_t)ref_half(w[1]) << 16 | ref_half(w[0]));
    assert_int_equal(reg(E, 8, 0), (uint32_t)ref_half(w[3]) << 16 | ref_half(w[2]));
}

/* ---- TXD ------------------------------------------------------------------------------- */
static void test_txd(void **state)
{
    senv *E = *state;
    /* 2D: Ra = s, t; Rb = ds/dx, ds/dy, dt/dx, dt/dy; 2 texels per pixel -> level 1 */
    set_allf(E, 4, 5.5f / 8);
    set_allf(E, 5, 2.5f / 8);
    set_allf(E, 8, 2.0f / 8);
    set_allf(E, 9, 0.0f);
    set_allf(E, 10, 0.0f);
    set_allf(E, 11, 2.0f / 8);
    run_ok(E, "TXD R0, R4, R8, 0x1, 2D, 0xf");
    expect_texel(E, 0, 0, 1, 0, 2, 1);
    unsigned got[16], n = reads_of(E, got);
    assert_regs(got, n, (unsigned[]){4, 5, 8, 9, 10, 11}, 6);
    /* four texels -> level 2 */
    set_allf(E, 8, 4.0f / 8);
    set_allf(E, 11, 4.0f / 8);
    run_ok(E, "TXD R0, R4, R8, 0x1, 2D, 0xf");
    expect_texel(E, 0, 0, 2, 0, 1, 0);
    /* 1D: Rb = ds/dx, ds/dy */
    set_allf(E, 4, 9.5f / 16);
    set_allf(E, 8, 1.0f / 16);
    set_allf(E, 9, 0.0f);
    run_ok(E, "TXD R0, R4, R8, 0x5, 1D, 0xf");
    expect_texel(E, 0, 0, 0, 0, 9, 0);
    /* AOFFI: Ra = s, t, {layer [15:0], u [19:16], v [23:20]} */
    set_allf(E, 4, 5.5f / 8);
    set_allf(E, 5, 2.5f / 8);
    set_all(E, 6, 0x00f10000u);   /* u = +1, v = -1 */
    set_allf(E, 8, 1.0f / 8);
    set_allf(E, 11, 1.0f / 8);
    run_ok(E, "TXD.AOFFI R0, R4, R8, 0x1, 2D, 0xf");
    expect_texel(E, 0, 0, 0, 0, 6, 1);
    /* ARRAY_2D: the same packed word carries the layer */
    set_all(E, 6, 0x00000002u);
    run_ok(E, "TXD R0, R4, R8, 0x2, ARRAY_2D, 0xf");
    expect_texel(E, 0, 0, 0, 2, 5, 2);
    /* .B: Ra = handle, s, t */
    set_all(E, 12, tv_tex_handle(H2D, 0));
    set_allf(E, 13, 5.5f / 8);
    set_allf(E, 14, 2.5f / 8);
    run_ok(E, "TXD.B R0, R12, R8, 0x0, 2D, 0xf");
    expect_texel(E, 0, 0, 0, 0, 5, 2);
    n = reads_of(E, got);
    assert_regs(got, n, (unsigned[]){8, 9, 10, 11, 12, 13, 14}, 7);
    /* TXD has no 3D/CUBE form */
    tv_sass_insn in;
    assert_int_equal(tv_sass_parse("TXD R0, R4, R8, 0x1, 3D, 0xf", &in, NULL), TV_ERR_INVALID);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tex_lod_modes),
        cmocka_unit_test(test_tex_modifiers),
        cmocka_unit_test(test_tex_targets),
        cmocka_unit_test(test_texs_codes),
        cmocka_unit_test(test_tld),
        cmocka_unit_test(test_tld4),
        cmocka_unit_test(test_tld4s),
        cmocka_unit_test(test_txd),
    };
    return cmocka_run_group_tests(tests, setup, senv_teardown);
}
