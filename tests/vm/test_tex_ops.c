/* More texture opcodes on the engine: explicit gradients, projection, cube-array forms
 * (TEX2/TXB2/TXL2, shadow reference in src1), multisample fetch and sample queries, LOD
 * queries, per-lane gather components, four gather offsets, compute-stage sampling, and
 * derivatives from killed lanes and lanes disabled by control flow. Expected values come
 * from fx_val and the hand-derived footprints in the comments. */
#include "test_tex_fixture.h"

/* handle of view T2D with the mip-point sampler (repeat, point, mip point) */
#define H2D_MIP ((SMIP << 20) | T2D)

static void test_grad_and_proj(void **state)
{
    (void)state;
    fx F;
    setup(&F);
    uint32_t out[W * H][4];
    /* SAMPLE_D with d/dx = (0.5, 0), d/dy = (0, 0.5): rho = 2 texels -> lambda 1 -> level 1
     * (2x2): texel floor(u * 2) = x / 2 */
    run_ok(&F, HDR "DCL SVIEW[0], 2D, FLOAT\nDCL SAMP[3]\n"
                   "IMM[0] FLT32 {0.5, 0.0, 0.0, 0.0}\nIMM[1] FLT32 {0.0, 0.5, 0.0, 0.0}\n"
                   "  0: SAMPLE_D OUT[0], IN[0], SVIEW[0], SAMP[3], IMM[0], IMM[1]\n"
                   "  1: END\n", out);
    for (unsigned p = 0; p < W * H; p++)
        for (unsigned c = 0; c < 4; c++)
            expect_f(out[p][c], fx_val(1, 0, (int)(p % W / 2), (int)(p / W / 2), 0, c),
                     "SAMPLE_D lambda 1", p, c);
    /* TXD through a bindless handle with tiny gradients: lambda < 0, level 0 */
    char text[1024];
    snprintf(text, sizeof text, HDR "DCL TEMP[0]\n"
             "IMM[0] FLT32 {0.01, 0.0, 0.0, 0.0}\nIMM[1] UINT32 {%u, 0, 0, 0}\n"
             "  0: MOV TEMP[0].x, IMM[1].xxxx\n"
             "  1: TXD OUT[0], IN[0], IMM[0].xyzz, IMM[0].yxzz, TEMP[0], 2D\n"
             "  2: END\n", H2D_MIP);
    run_ok(&F, text, out);
    for (unsigned p = 0; p < W * H; p++)
        expect_f(out[p][2], fx_val(0, 0, (int)(p % W), (int)(p / W), 0, 2), "TXD level 0", p, 2);
    /* TXP: (2u, 2v, 0, 2) projects to (u, v): same texels as TEX */
    run_ok(&F, HDR "DCL SAMP[0]\nDCL SVIEW[0], 2D, FLOAT\nDCL TEMP[0]\n"
                   "IMM[0] FLT32 {2.0, 2.0, 0.0, 2.0}\n"
                   "  0: MUL TEMP[0], IN[0].xyzz, IMM[0]\n"
                   "  1: MOV TEMP[0].w, IMM[0].wwww\n"
                   "  2: TXP OUT[0], TEMP[0], SAMP[0], 2D\n"
                   "  3: END\n", out);
    for (unsigned p = 0; p < W * H; p++)
        expect_f(out[p][1], fx_val(0, 0, (int)(p % W), (int)(p / W), 0, 1), "TXP", p, 1);
    fx_free(&F);
}

static void test_cube_array_forms(void **state)
{
    (void)state;
    fx F;
    setup(&F);
    uint32_t out[W * H][4];
    /* +X (1, -.5, .5) -> face 0 texel (0, 1); layer 1 (cube 1) -> array layer 6 + 0;
     * layer 2.6 -> RNE 3 -> clamped to the last cube (2) -> layer 12 */
    run_ok(&F, HDR "DCL SAMP[5]\nDCL SVIEW[5], CUBEARRAY, FLOAT\nDCL TEMP[0..2]\n"
                   "IMM[0] FLT32 {1.0, -0.5, 0.5, 1.0}\nIMM[1] FLT32 {0.0, 0.0, 0.0, 2.6}\n"
                   "  0: TXL2 TEMP[0], IMM[0], IMM[1].xxxx, SAMP[5], CUBEARRAY\n"
                   "  1: MOV TEMP[1], IMM[0]\n"
                   "  2: MOV TEMP[1].w, IMM[1].wwww\n"
                   "  3: TXB2 TEMP[2], TEMP[1], IMM[1].xxxx, SAMP[5], CUBEARRAY\n"
                   "  4: MOV OUT[0].xy, TEMP[0].xyyy\n"
                   "  5: MOV OUT[0].zw, TEMP[2].zzzw\n"
                   "  6: END\n", out);
    expect_f(out[0][0], fx_val(0, 6, 0, 1, 0, 0), "TXL2 cube 1", 0, 0);
    expect_f(out[0][1], fx_val(0, 6, 0, 1, 0, 1), "TXL2 cube 1", 0, 1);
    expect_f(out[0][2], fx_val(0, 12, 0, 1, 0, 2), "TXB2 cube clamp", 0, 2);
    expect_f(out[0][3], fx_val(0, 12, 0, 1, 0, 3), "TXB2 cube clamp", 0, 3);
    /* SHADOWCUBE_ARRAY: reference in src1.x (TEX2) / src1.y (TXL2); -Y (.5,-1,-.5) ->
     * face 3 texel (1, 1) = (3*4 + 3 + 1) / 32 = 0.5; LESS */
    run_ok(&F, HDR "DCL SAMP[6]\nDCL SVIEW[6], SHADOWCUBEARRAY, FLOAT\nDCL TEMP[0..1]\n"
                   "IMM[0] FLT32 {0.5, -1.0, -0.5, 0.0}\nIMM[1] FLT32 {0.4, 0.6, 0.0, 0.0}\n"
                   "  0: TEX2 TEMP[0], IMM[0], IMM[1].xxxx, SAMP[6], SHADOWCUBEARRAY\n"
                   "  1: TXL2 TEMP[1], IMM[0], IMM[1].zyzz, SAMP[6], SHADOWCUBEARRAY\n"
                   "  2: MOV OUT[0].x, TEMP[0].xxxx\n"
                   "  3: MOV OUT[0].y, TEMP[1].xxxx\n"
                   "  4: END\n", out);
    expect_f(out[3][0], 1.0, "TEX2 shadow cube array 0.4 < 0.5", 3, 0);
    expect_f(out[3][1], 0.0, "TXL2 shadow cube array 0.6 < 0.5", 3, 1);
    fx_free(&F);
}

static void test_multisample(void **state)
{
    (void)state;
    fx F;
    setup(&F);
    uint32_t out[W * H][4];
    /* TXF 2D_MSAA: sample index in .w; SAMPLE_I_MS: sample in src2.x */
    run_ok(&F, HDR "DCL SAMP[7]\nDCL SVIEW[7], 2D_MSAA, FLOAT\nDCL TEMP[0..1]\n"
                   "IMM[0] INT32 {1, 1, 0, 3}\nIMM[1] INT32 {0, 1, 2, 9}\n"
                   "  0: TXF TEMP[0], IMM[0], SAMP[7], 2D_MSAA\n"
                   "  1: SAMPLE_I_MS TEMP[1], IMM[1], SVIEW[7], IMM[1].zzzz\n"
                   "  2: MOV OUT[0].xy, TEMP[0].xyyy\n"
                   "  3: MOV OUT[0].zw, TEMP[1].xxxy\n"
                   "  4: END\n", out);
    expect_f(out[0][0], 1 + 2 + 30, "TXF MS pixel (1,1) sample 3", 0, 0);
    expect_f(out[0][1], 3, "TXF MS sample", 0, 1);
    expect_f(out[0][2], 0 + 2 + 20, "SAMPLE_I_MS pixel (0,1) sample 2", 0, 2);
    expect_f(out[0][3], 2, "SAMPLE_I_MS sample", 0, 3);
    /* TXQS, SAMPLE_INFO, SAMPLE_POS of the 4x view (sample 1: D3D (6,-2)/16 + 0.5) */
    run_ok(&F, HDR "DCL SAMP[7]\nDCL SVIEW[7], 2D_MSAA, FLOAT\nDCL TEMP[0..2]\n"
                   "IMM[0] INT32 {1, 0, 0, 0}\n"
                   "  0: TXQS TEMP[0], SAMP[7], 2D_MSAA\n"
                   "  1: SAMPLE_INFO TEMP[1], SVIEW[7], IMM[0].xxxx\n"
                   "  2: SAMPLE_POS TEMP[2], SVIEW[7], IMM[0].xxxx\n"
                   "  3: MOV OUT[0].x, TEMP[0].xxxx\n"
                   "  4: MOV OUT[0].y, TEMP[1].xxxx\n"
                   "  5: MOV OUT[0].zw, TEMP[2].xxxy\n"
                   "  6: END\n", out);
    assert_int_equal(out[0][0], 4);
    assert_int_equal(out[0][1], 4);
    expect_f(out[0][2], 0.875, "SAMPLE_POS x", 0, 2);
    expect_f(out[0][3], 0.375, "SAMPLE_POS y", 0, 3);
    /* on the single-sampled render target: (0.5, 0.5, 0, 0) and 1 sample */
    run_ok(&F, HDR "DCL TEMP[0..1]\nIMM[0] INT32 {0, 0, 0, 0}\n"
                   "  0: SAMPLE_POS TEMP[0], TEMP[1], IMM[0].xxxx\n"
                   "  1: SAMPLE_INFO TEMP[1], TEMP[1], IMM[0].xxxx\n"
                   "  2: MOV OUT[0].xy, TEMP[0].xyyy\n"
                   "  3: MOV OUT[0].zw, TEMP[1].xxxy\n"
                   "  4: END\n", out);
    expect_f(out[5][0], 0.5, "SAMPLE_POS render target", 5, 0);
    expect_f(out[5][1], 0.5, "SAMPLE_POS render target", 5, 1);
    assert_int_equal(out[5][2], 1);
    /* a 4x render target: sample 1 at (0.875, 0.375), 4 samples (every sample of a pixel
     * stores the same values: the program does not run per sample) */
    uint32_t (*ms)[4] = calloc(W * H * 4, sizeof *ms);
    assert_non_null(ms);
    tv_vm_frag_params *fp = calloc(1, sizeof *fp);
    assert_non_null(fp);
    tv_vm_frag_params_fullscreen(fp, W, H, TV_VM_PRIM_RECT);
    fp->samples = 4;
    fp->color[0].data = &ms[0][0];
    tv_vm_bindings b;
    tv_vm_bindings_init(&b);
    tv_error err;
    if (hv_frag_p(HDR "DCL TEMP[0..1]\nIMM[0] INT32 {1, 0, 0, 0}\n"
                      "  0: SAMPLE_POS TEMP[0], TEMP[1], IMM[0].xxxx\n"
                      "  1: SAMPLE_INFO TEMP[1], TEMP[1], IMM[0].xxxx\n"
                      "  2: MOV OUT[0].xy, TEMP[0].xyyy\n"
                      "  3: MOV OUT[0].zw, TEMP[1].xxxy\n"
                      "  4: END\n", fp, &b, &err) != TV_OK)
        fail_msg("%s", err.message);
    for (unsigned e = 0; e < W * H * 4; e++) {
        expect_f(ms[e][0], 0.875, "SAMPLE_POS 4x target x", e, 0);
        expect_f(ms[e][1], 0.375, "SAMPLE_POS 4x target y", e, 1);
        assert_int_equal(ms[e][2], 4);
    }
    free(fp);
    free(ms);
    fx_free(&F);
}

static void test_lod_queries(void **state)
{
    (void)state;
    fx F;
    setup(&F);
    uint32_t out[W * H][4];
    /* uv * 2 on the 4x4 view: rho = 2, lambda' = 1; mip point -> accessed level 1;
     * LOD (D3D) through the SVIEW swizzle .yxzw */
    run_ok(&F, HDR "DCL SVIEW[0], 2D, FLOAT\nDCL SAMP[3]\nDCL TEMP[0]\n"
                   "IMM[0] FLT32 {2.0, 2.0, 0.0, 0.0}\n"
                   "  0: MUL TEMP[0], IN[0], IMM[0]\n"
                   "  1: LOD OUT[0], TEMP[0], SVIEW[0].yxzw, SAMP[3]\n"
                   "  2: END\n", out);
    for (unsigned p = 0; p < W * H; p++) {
        expect_f(out[p][0], 1.0, "LOD lambda'", p, 0);
        expect_f(out[p][1], 1.0, "LOD accessed", p, 1);
        expect_f(out[p][2], 0.0, "LOD z", p, 2);
    }
    /* LODQ with a bindless handle: uv * 0.5 -> rho 0.5, lambda' = -1, accessed 0 */
    char text[1024];
    snprintf(text, sizeof text, HDR "DCL TEMP[0..1]\n"
             "IMM[0] FLT32 {0.5, 0.5, 0.0, 0.0}\nIMM[1] UINT32 {%u, 0, 0, 0}\n"
             "  0: MUL TEMP[0], IN[0], IMM[0]\n"
             "  1: MOV TEMP[1].x, IMM[1].xxxx\n"
             "  2: LODQ OUT[0].xy, TEMP[0], TEMP[1], 2D\n"
             "  3: END\n", H2D_MIP);
    run_ok(&F, text, out);
    expect_f(out[9][0], 0.0, "LODQ accessed", 9, 0);
    expect_f(out[9][1], -1.0, "LODQ lambda'", 9, 1);
    fx_free(&F);
}

static void test_gather_forms(void **state)
{
    (void)state;
    fx F;
    setup(&F);
    uint32_t out[W * H][4];
    /* component per lane = pixel x (0..3), footprint i0 = j0 = 1 at (0.5, 0.5) */
    run_ok(&F, HDR "DCL SAMP[0]\nDCL SVIEW[0], 2D, FLOAT\nDCL TEMP[0]\n"
                   "IMM[0] FLT32 {4.0, 0.5, 0.0, 0.0}\n"
                   "  0: MUL TEMP[0].x, IN[0].xxxx, IMM[0].xxxx\n"
                   "  1: F2U TEMP[0].x, TEMP[0].xxxx\n"
                   "  2: TG4 OUT[0], IMM[0].yyyy, TEMP[0].xxxx, SAMP[0], 2D\n"
                   "  3: END\n", out);
    for (unsigned p = 0; p < W * H; p++) {
        unsigned c = p % W;
        expect_f(out[p][0], fx_val(0, 0, 1, 2, 0, c), "TG4 lane component x", p, 0);
        expect_f(out[p][3], fx_val(0, 0, 1, 1, 0, c), "TG4 lane component w", p, 3);
    }
    /* four offsets: texel n = T[clamp(1 + u_n), clamp(1 + v_n)] */
    run_ok(&F, HDR "DCL SAMP[0]\nDCL SVIEW[0], 2D, FLOAT\n"
                   "IMM[0] FLT32 {0.5, 0.5, 0.0, 0.0}\nIMM[1] UINT32 {1, 0, 0, 0}\n"
                   "IMM[2] INT32 {0, 0, 2, -1}\nIMM[3] INT32 {-1, 1, 5, 0}\n"
                   "  0: TG4 OUT[0], IMM[0], IMM[1].xxxx, SAMP[0], 2D, IMM[2].xyz, IMM[2].zwz, "
                   "IMM[3].xyz, IMM[3].zww\n"
                   "  1: END\n", out);
    expect_f(out[0][0], fx_val(0, 0, 1, 1, 0, 1), "TG4 offsets[0] (0,0)", 0, 0);
    expect_f(out[0][1], fx_val(0, 0, 3, 0, 0, 1), "TG4 offsets[1] (2,-1)", 0, 1);
    expect_f(out[0][2], fx_val(0, 0, 0, 2, 0, 1), "TG4 offsets[2] (-1,1)", 0, 2);
    expect_f(out[0][3], fx_val(0, 0, 3, 1, 0, 1), "TG4 offsets[3] (5,0) clamped", 0, 3);
    fx_free(&F);
}

/* Implicit derivatives keep coming from lanes that are killed or disabled. */
static void test_derivative_lanes(void **state)
{
    (void)state;
    fx F;
    setup(&F);
    uint32_t out[W * H][4];
    char text[1024];
    /* odd pixels killed before the lookup; uv*2 -> lambda 1 (level 1) for the others.
     * Without the killed lanes every row pair would be partial and lambda -inf (level 0). */
    snprintf(text, sizeof text, HDR "DCL TEMP[0..2]\n"
             "IMM[0] FLT32 {2.0, 2.0, 0.0, 0.0}\nIMM[1] UINT32 {%u, 0, 0, 0}\n"
             "IMM[2] FLT32 {4.0, 0.5, 1.0, -1.0}\n"
             "  0: MUL TEMP[0], IN[0], IMM[0]\n"
             "  1: MOV TEMP[1].x, IMM[1].xxxx\n"
             "  2: MUL TEMP[2].x, IN[0].xxxx, IMM[2].xxxx\n"   /* pixel x + 0.5 */
             "  3: FLR TEMP[2].x, TEMP[2].xxxx\n"
             "  4: MUL TEMP[2].x, TEMP[2].xxxx, IMM[2].yyyy\n"
             "  5: FRC TEMP[2].x, TEMP[2].xxxx\n"      /* 0 even, 0.5 odd */
             "  6: SGE TEMP[2].x, TEMP[2].xxxx, IMM[2].yyyy\n"
             "  7: MUL TEMP[2].x, TEMP[2].xxxx, IMM[2].wwww\n"  /* -1 odd, 0 even */
             "  8: KILL_IF TEMP[2].xxxx\n"
             "  9: TEX OUT[0], TEMP[0], TEMP[1], 2D\n"
             " 10: END\n", H2D_MIP);
    run_ok(&F, text, out);
    for (unsigned p = 0; p < W * H; p += 2)
        expect_f(out[p][0], fx_val(1, 0, (int)(p % W % 2), (int)(p / W % 2), 0, 0),
                 "TEX after KILL_IF of the neighbours", p, 0);
    for (unsigned p = 1; p < W * H; p += 2)
        assert_int_equal(out[p][0], 0u);   /* killed: target keeps its clear value */
    /* the lookup inside an IF taken by even pixels only: same lambda */
    snprintf(text, sizeof text, HDR "DCL TEMP[0..2]\n"
             "IMM[0] FLT32 {2.0, 2.0, 0.0, 0.0}\nIMM[1] UINT32 {%u, 0, 0, 0}\n"
             "IMM[2] FLT32 {4.0, 0.5, 1.0, -1.0}\n"
             "  0: MUL TEMP[0], IN[0], IMM[0]\n"
             "  1: MOV TEMP[1].x, IMM[1].xxxx\n"
             "  2: MUL TEMP[2].x, IN[0].xxxx, IMM[2].xxxx\n"
             "  3: FLR TEMP[2].x, TEMP[2].xxxx\n"
             "  4: MUL TEMP[2].x, TEMP[2].xxxx, IMM[2].yyyy\n"
             "  5: FRC TEMP[2].x, TEMP[2].xxxx\n"
             "  6: SLT TEMP[2].x, TEMP[2].xxxx, IMM[2].yyyy\n"  /* 1 even, 0 odd */
             "  7: IF TEMP[2].xxxx\n"
             "  8:   TEX OUT[0], TEMP[0], TEMP[1], 2D\n"
             "  9: ENDIF\n"
             " 10: END\n", H2D_MIP);
    run_ok(&F, text, out);
    for (unsigned p = 0; p < W * H; p += 2)
        expect_f(out[p][1], fx_val(1, 0, (int)(p % W % 2), (int)(p / W % 2), 0, 1),
                 "TEX in a divergent IF", p, 1);
    fx_free(&F);
}

/* Compute: implicit-LOD lookups use lambda_base = 0 (+ bias), as GL outside fragments. */
static void test_compute_stage(void **state)
{
    (void)state;
    fx F;
    setup(&F);
    float buf[2][4];
    memset(buf, 0, sizeof buf);
    char text[1024];
    snprintf(text, sizeof text,
             "COMP\nPROPERTY CS_FIXED_BLOCK_WIDTH 1\nPROPERTY CS_FIXED_BLOCK_HEIGHT 1\n"
             "PROPERTY CS_FIXED_BLOCK_DEPTH 1\nDCL BUFFER[0]\nDCL TEMP[0..2]\n"
             "IMM[0] FLT32 {0.625, 0.375, 0.0, 1.0}\nIMM[1] UINT32 {%u, 0, 16, 0}\n"
             "  0: MOV TEMP[0].x, IMM[1].xxxx\n"
             "  1: TEX TEMP[1], IMM[0], TEMP[0], 2D\n"
             "  2: TXB TEMP[2], IMM[0], TEMP[0], 2D\n"
             "  3: STORE BUFFER[0], IMM[1].yyyy, TEMP[1]\n"
             "  4: STORE BUFFER[0], IMM[1].zzzz, TEMP[2]\n"
             "  5: END\n", H2D_MIP);
    tv_vm_bindings b;
    tv_vm_bindings_init(&b);
    b.tex = F.unit;
    b.buffers[0].data = buf;
    b.buffers[0].size = sizeof buf;
    tv_error err;
    if (hv_compute_b(text, NULL, NULL, &b, &err) != TV_OK)
        fail_msg("%s", err.message);
    /* (0.625, 0.375): level 0 texel (2, 1); TXB bias 1 (w) -> level 1 texel (1, 0) */
    for (unsigned c = 0; c < 4; c++) {
        assert_true(fabs(buf[0][c] - fx_val(0, 0, 2, 1, 0, c)) < 1e-6);
        assert_true(fabs(buf[1][c] - fx_val(1, 0, 1, 0, 0, c)) < 1e-6);
    }
    fx_free(&F);
}

/* The engine keeps one texture request per worker and zeroes only the fields the previous
 * micro-op wrote and the next one does not: a lookup must give the same result whatever
 * ran before it. Compute: TXL level 1, then TEX (lambda_base 0: level 0, the stale LOD
 * must not reach it), TXD, TXP, an offset TEX and a 2D-array TEX, then TEX again. */
static void test_request_reuse(void **state)
{
    (void)state;
    fx F;
    setup(&F);
    float buf[7][4];
    memset(buf, 0, sizeof buf);
    char text[2048];
    snprintf(text, sizeof text,
             "COMP\nPROPERTY CS_FIXED_BLOCK_WIDTH 1\nPROPERTY CS_FIXED_BLOCK_HEIGHT 1\n"
             "PROPERTY CS_FIXED_BLOCK_DEPTH 1\nDCL BUFFER[0]\nDCL SAMP[3]\n"
             "DCL SVIEW[3], 2D_ARRAY, FLOAT\nDCL TEMP[0..7]\n"
             "IMM[0] FLT32 {0.625, 0.375, 0.0, 1.0}\nIMM[1] UINT32 {%u, 0, 16, 32}\n"
             "IMM[2] UINT32 {48, 64, 80, 96}\nIMM[3] FLT32 {1.25, 0.75, 3.0, 2.0}\n"
             "IMM[4] INT32 {1, 1, 0, 0}\nIMM[5] FLT32 {0.5, 0.0, 0.0, 0.0}\n"
             "IMM[6] FLT32 {0.0, 0.5, 0.0, 0.0}\n"
             "  0: MOV TEMP[0].x, IMM[1].xxxx\n"
             "  1: TXL TEMP[1], IMM[0], TEMP[0], 2D\n"
             "  2: TEX TEMP[2], IMM[0], TEMP[0], 2D\n"
             "  3: TXD TEMP[3], IMM[0], IMM[5], IMM[6], TEMP[0], 2D\n"
             "  4: TXP TEMP[4], IMM[3], TEMP[0], 2D\n"
             "  5: TEX TEMP[5], IMM[0], TEMP[0], 2D, IMM[4].xyz\n"
             "  6: TEX TEMP[6], IMM[3], SAMP[3], 2D_ARRAY\n"
             "  7: TEX TEMP[7], IMM[0], TEMP[0], 2D\n"
             "  8: STORE BUFFER[0], IMM[1].yyyy, TEMP[1]\n"
             "  9: STORE BUFFER[0], IMM[1].zzzz, TEMP[2]\n"
             " 10: STORE BUFFER[0], IMM[1].wwww, TEMP[3]\n"
             " 11: STORE BUFFER[0], IMM[2].xxxx, TEMP[4]\n"
             " 12: STORE BUFFER[0], IMM[2].yyyy, TEMP[5]\n"
             " 13: STORE BUFFER[0], IMM[2].zzzz, TEMP[6]\n"
             " 14: STORE BUFFER[0], IMM[2].wwww, TEMP[7]\n"
             " 15: END\n", H2D_MIP);
    tv_vm_bindings b;
    tv_vm_bindings_init(&b);
    b.tex = F.unit;
    b.buffers[0].data = buf;
    b.buffers[0].size = sizeof buf;
    tv_error err;
    if (hv_compute_b(text, NULL, NULL, &b, &err) != TV_OK)
        fail_msg("%s", err.message);
    /* (0.625, 0.375) on the 4x4 level 0: texel (2, 1); level 1 (2x2): texel (1, 0).
     * TXD with derivatives (0.5, 0) and (0, 0.5) (2 texels per step): lambda 1 -> level 1.
     * TXP (1.25, 0.75) / 2 = (0.625, 0.375). Offset (1, 1): texel (3, 2). The 2D-array
     * view 3 (2x2, 4 layers) at (1.25, 0.75) layer 3, sampler 3 (repeat): texel (0, 1). */
    static const int want[7][4] = {{1, 0, 1, 0}, {0, 0, 2, 1}, {1, 0, 1, 0}, {0, 0, 2, 1},
                                   {0, 0, 3, 2}, {0, 3, 0, 1}, {0, 0, 2, 1}};
    static const char *what[7] = {"TXL level 1", "TEX after TXL", "TXD", "TXP",
                                  "TEX offset", "TEX 2D array", "TEX after all"};
    for (unsigned k = 0; k < 7; k++)
        for (unsigned c = 0; c < 4; c++) {
            double e = k == 5 ? fx_val(0, 3, 0, 1, 0, c)
                              : fx_val(want[k][0], 0, want[k][2], want[k][3], 0, c);
            if (fabs(buf[k][c] - e) > 1e-6)
                fail_msg("%s: comp %u = %.9g, want %.9g", what[k], c, buf[k][c], e);
        }
    fx_free(&F);
}

/* TG4 with the component in the sampler swizzle (PIPE_CAP_TGSI_TG4_COMPONENT_IN_SWIZZLE:
 * nir_to_tgsi writes SAMP[n].<c><c><c><c> and leaves src1 undefined): a replicated sampler
 * swizzle wins over src1. */
static void test_tg4_component_in_swizzle(void **state)
{
    (void)state;
    fx F;
    setup(&F);
    uint32_t out[W * H][4];
    run_ok(&F, HDR "DCL SAMP[0]\nDCL SVIEW[0], 2D, FLOAT\nDCL TEMP[0]\n"
                   "IMM[0] FLT32 {0.5, 0.5, 0.0, 0.0}\nIMM[1] UINT32 {1, 0, 0, 0}\n"
                   "  0: TG4 TEMP[0], IMM[0], IMM[1].xxxx, SAMP[0].zzzz, 2D\n"
                   "  1: TG4 OUT[0], IMM[0], IMM[1].yyyy, SAMP[0].xxxx, 2D\n"
                   "  2: MOV OUT[0].zw, TEMP[0].zzzw\n"
                   "  3: END\n", out);
    /* footprint i0 = j0 = 1 */
    expect_f(out[0][0], fx_val(0, 0, 1, 2, 0, 0), "TG4 SAMP.xxxx x", 0, 0);
    expect_f(out[0][1], fx_val(0, 0, 2, 2, 0, 0), "TG4 SAMP.xxxx y", 0, 1);
    expect_f(out[0][2], fx_val(0, 0, 2, 1, 0, 2), "TG4 SAMP.zzzz z", 0, 2);
    expect_f(out[0][3], fx_val(0, 0, 1, 1, 0, 2), "TG4 SAMP.zzzz w", 0, 3);
    fx_free(&F);
}

/* Helper lanes of partially covered quads feed derivatives: a triangle covering the pixels
 * with x + y <= 3 of the 4x4 target (edge x + y = 4.4); uv = (x, y) / 4 interpolated (helpers extrapolate). */
static void test_helper_lanes(void **state)
{
    (void)state;
    fx F;
    setup(&F);
    uint32_t out[W * H][4];
    memset(out, 0, sizeof out);
    char text[1024];
    snprintf(text, sizeof text, HDR "DCL TEMP[0..1]\n"
             "IMM[0] FLT32 {2.0, 2.0, 0.0, 0.0}\nIMM[1] UINT32 {%u, 0, 0, 0}\n"
             "  0: MUL TEMP[0], IN[0], IMM[0]\n"
             "  1: MOV TEMP[1].x, IMM[1].xxxx\n"
             "  2: TEX OUT[0], TEMP[0], TEMP[1], 2D\n"
             "  3: END\n", H2D_MIP);
    tv_vm_frag_params *fp = calloc(1, sizeof *fp);
    assert_non_null(fp);
    tv_vm_frag_params_fullscreen(fp, W, H, TV_VM_PRIM_TRIANGLE);
    static const float pos[3][2] = {{0, 0}, {4.4f, 0}, {0, 4.4f}};
    for (int v = 0; v < 3; v++) {
        fp->vertices[v].x = pos[v][0];
        fp->vertices[v].y = pos[v][1];
        fp->vertices[v].w = 1.0f;
        fp->vertices[v].attr[0][0] = tv_f32_bits(pos[v][0] / 4.0f);
        fp->vertices[v].attr[0][1] = tv_f32_bits(pos[v][1] / 4.0f);
    }
    fp->color[0].data = &out[0][0];
    tv_vm_bindings b;
    tv_vm_bindings_init(&b);
    b.tex = F.unit;
    tv_error err;
    if (hv_frag_p(text, fp, &b, &err) != TV_OK)
        fail_msg("%s", err.message);
    free(fp);
    unsigned covered = 0;
    for (unsigned p = 0; p < W * H; p++) {
        unsigned x = p % W, y = p / W;
        if (x + y > 3) {
            assert_int_equal(out[p][0], 0u);
            continue;
        }
        covered++;
        /* lambda 1 -> level 1, texel x mod 2 (as for the full rectangle) */
        expect_f(out[p][0], fx_val(1, 0, (int)(x % 2), (int)(y % 2), 0, 0),
                 "TEX in a partial quad", p, 0);
    }
    assert_int_equal(covered, 10);
    fx_free(&F);
}

/* VERT: vertex texture fetch with per-vertex coordinates; TEX (implicit LOD) reads the base
 * level (lambda_base = 0), TXL the level asked for. */
static void test_vertex_stage(void **state)
{
    (void)state;
    fx F;
    setup(&F);
    enum { N = 16 };
    float uv[N][2];
    for (int i = 0; i < N; i++) {
        uv[i][0] = ((float)(i % 4) + 0.5f) / 4.0f;
        uv[i][1] = ((float)(i / 4) + 0.5f) / 4.0f;
    }
    char text[1024];
    snprintf(text, sizeof text,
             "VERT\nDCL IN[0]\nDCL OUT[0], GENERIC[0]\nDCL OUT[1], GENERIC[1]\nDCL TEMP[0..1]\n"
             "IMM[0] UINT32 {%u, 0, 0, 0}\nIMM[1] FLT32 {0.0, 0.0, 0.0, 1.0}\n"
             "  0: MOV TEMP[0].x, IMM[0].xxxx\n"
             "  1: TEX OUT[0], IN[0], TEMP[0], 2D\n"
             "  2: MOV TEMP[1].xy, IN[0].xyyy\n"
             "  3: MOV TEMP[1].w, IMM[1].wwww\n"
             "  4: TXL OUT[1], TEMP[1], TEMP[0], 2D\n"
             "  5: END\n", H2D_MIP);
    tv_vm *vm = tv_vm_create(NULL, NULL);
    assert_non_null(vm);
    tv_vm_program *p = hv_program(vm, text);
    uint32_t out0[N][4], out1[N][4];
    tv_vm_vertex_params vp;
    memset(&vp, 0, sizeof vp);
    vp.count = N;
    vp.attribs[0] = (tv_vm_vertex_array){uv, sizeof uv, 0, 8, 2, false, 0};
    vp.out[0] = &out0[0][0];
    vp.out[1] = &out1[0][0];
    tv_vm_bindings b;
    tv_vm_bindings_init(&b);
    b.tex = F.unit;
    tv_error err;
    if (tv_vm_run_vertex(vm, p, &b, &vp, NULL, &err) != TV_OK)
        fail_msg("%s", err.message);
    for (unsigned i = 0; i < N; i++)
        for (unsigned c = 0; c < 4; c++) {
            expect_f(out0[i][c], fx_val(0, 0, (int)(i % 4), (int)(i / 4), 0, c), "VERT TEX", i, c);
            expect_f(out1[i][c], fx_val(1, 0, (int)(i % 4 / 2), (int)(i / 4 / 2), 0, c),
                     "VERT TXL 1", i, c);
        }
    tv_vm_program_destroy(p);
    tv_vm_destroy(vm);
    fx_free(&F);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_grad_and_proj),
        cmocka_unit_test(test_cube_array_forms),
        cmocka_unit_test(test_multisample),
        cmocka_unit_test(test_lod_queries),
        cmocka_unit_test(test_gather_forms),
        cmocka_unit_test(test_derivative_lanes),
        cmocka_unit_test(test_compute_stage),
        cmocka_unit_test(test_request_reuse),
        cmocka_unit_test(test_tg4_component_in_swizzle),
        cmocka_unit_test(test_helper_lanes),
        cmocka_unit_test(test_vertex_stage),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
