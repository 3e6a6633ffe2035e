/* Texture opcodes on the engine (issue 5): small textures whose texels come from a closed
 * formula (fx_val of the texture-unit fixture), expected values computed here by hand —
 * nearest and bilinear, fetch, gather order, compare, queries, offsets, arrays, cube
 * faces, SVIEW swizzle, indirect sampler index, bindless handles, errors. */
#include "test_tex_fixture.h"

static void test_nearest_and_mip(void **state)
{
    (void)state;
    fx F;
    setup(&F);
    uint32_t out[W * H][4];
    /* pixel centres hit texel centres; lambda = 0: magnification, point */
    run_ok(&F, HDR "DCL SAMP[0]\nDCL SVIEW[0], 2D, FLOAT\n"
                   "  0: TEX OUT[0], IN[0], SAMP[0], 2D\n  1: END\n", out);
    for (unsigned p = 0; p < W * H; p++)
        for (unsigned c = 0; c < 4; c++)
            expect_f(out[p][c], fx_val(0, 0, (int)(p % W), (int)(p / W), 0, c), "TEX", p, c);
    /* coordinates x2: 2 texels per pixel, lambda = 1 -> level 1 (2x2), repeat wrap */
    run_ok(&F, HDR "DCL SAMP[3]\nDCL SVIEW[3], 2D, FLOAT\nDCL TEMP[0]\n"
                   "IMM[0] FLT32 {2.0, 2.0, 0.0, 0.0}\n"
                   "  0: MUL TEMP[0], IN[0], IMM[0]\n"
                   "  1: TEX OUT[0], TEMP[0], SAMP[3], 2D\n  2: END\n", out);
    /* SAMP[3] = view 3 (2D array 2x2, layer 0 for a 2D target) + sampler 3 (repeat):
     * 1 texel per pixel, lambda 0; texel coordinate x + 0.5 -> texel x mod 2 */
    for (unsigned p = 0; p < W * H; p++)
        for (unsigned c = 0; c < 4; c++)
            expect_f(out[p][c], fx_val(0, 0, (int)(p % W % 2), (int)(p / W % 2), 0, c),
                     "TEX 2D target on an array view", p, c);
    fx_free(&F);
}

/* lambda from derivatives and bias: texture 0 with the mip sampler through a bindless
 * handle (sampler SMIP, view T2D). */
static void test_lod_bias_bindless(void **state)
{
    (void)state;
    fx F;
    setup(&F);
    uint32_t out[W * H][4];
    char text[1024];
    uint32_t h = tv_tex_handle(T2D, SMIP);
    snprintf(text, sizeof text, HDR "DCL TEMP[0..1]\n"
             "IMM[0] FLT32 {2.0, 2.0, 0.0, 0.0}\nIMM[1] UINT32 {%u, 0, 0, 0}\n"
             "  0: MUL TEMP[0], IN[0], IMM[0]\n"
             "  1: MOV TEMP[1].x, IMM[1].xxxx\n"
             "  2: TEX OUT[0], TEMP[0], TEMP[1], 2D\n  3: END\n", h);
    run_ok(&F, text, out);
    /* uv*2 on 4x4: 2 texels per pixel, lambda = 1, mip point -> level 1 (2x2); u*2 =
     * x + 0.5 -> texel x mod 2 (repeat) */
    for (unsigned p = 0; p < W * H; p++)
        for (unsigned c = 0; c < 4; c++)
            expect_f(out[p][c], fx_val(1, 0, (int)(p % W % 2), (int)(p / W % 2), 0, c),
                     "TEX bindless lambda=1", p, c);
    /* TXB: bias 1 on the plain coordinates: lambda 0 + 1 -> level 1, texel x/2 */
    snprintf(text, sizeof text, HDR "DCL TEMP[0..1]\n"
             "IMM[0] FLT32 {0.0, 0.0, 0.0, 1.0}\nIMM[1] UINT32 {%u, 0, 0, 0}\n"
             "  0: MOV TEMP[0].xy, IN[0].xyyy\n"
             "  1: MOV TEMP[0].w, IMM[0].wwww\n"
             "  2: MOV TEMP[1].x, IMM[1].xxxx\n"
             "  3: TXB OUT[0], TEMP[0], TEMP[1], 2D\n  4: END\n", h);
    run_ok(&F, text, out);
    for (unsigned p = 0; p < W * H; p++)
        for (unsigned c = 0; c < 4; c++)
            expect_f(out[p][c], fx_val(1, 0, (int)(p % W / 2), (int)(p / W / 2), 0, c),
                     "TXB bias 1", p, c);
    fx_free(&F);
}

static void test_bilinear(void **state)
{
    (void)state;
    fx F;
    setup(&F);
    uint32_t out[W * H][4];
    /* level 0: u = 1.25/4 -> u*4 - 0.5 = 0.75 (i0 0, alpha .75); v = 2.5/4 -> j0 2, beta 0.
     * level 1 (TXL lod 1): u = 0.5 -> 0.5 (i0 0, alpha .5), v = 0.25 -> 0 (j0 0). */
    run_ok(&F, HDR "DCL SAMP[0]\nDCL SAMP[1]\nDCL SVIEW[0], 2D, FLOAT\nDCL SVIEW[1], 2D, FLOAT\n"
                   "DCL TEMP[0]\nIMM[0] FLT32 {0.3125, 0.625, 0.0, 0.0}\n"
                   "IMM[1] FLT32 {0.5, 0.25, 0.0, 1.0}\n"
                   "  0: MOV TEMP[0], IMM[0]\n"
                   "  1: TXL TEMP[0], TEMP[0], SAMP[1], 2D\n"
                   "  2: MOV OUT[0], TEMP[0]\n"
                   "  3: END\n", out);
    /* sampler 1 + view 1 (the constant texture): all 9,8,7,6 whatever the weights */
    for (unsigned c = 0; c < 4; c++)
        expect_f(out[5][c], 9.0 - c, "TXL constant", 5, c);
    /* the formula texture needs view 0 with sampler 1: D3D form */
    run_ok(&F, HDR "DCL SAMP[1]\nDCL SVIEW[0], 2D, FLOAT\nDCL TEMP[0]\n"
                   "IMM[0] FLT32 {0.3125, 0.625, 0.0, 0.0}\n"
                   "IMM[1] FLT32 {0.5, 0.25, 0.0, 1.0}\n"
                   "  0: SAMPLE_L TEMP[0], IMM[0], SVIEW[0], SAMP[1], IMM[0].zzzz\n"
                   "  1: SAMPLE_L OUT[0], IMM[1], SVIEW[0], SAMP[1], IMM[1].wwww\n"
                   "  2: MOV OUT[0].x, TEMP[0].xxxx\n"
                   "  3: END\n", out);
    double l0 = 0.25 * fx_val(0, 0, 0, 2, 0, 0) + 0.75 * fx_val(0, 0, 1, 2, 0, 0);
    expect_f(out[0][0], l0, "SAMPLE_L lod 0 bilinear", 0, 0);
    /* sampler 1 has no mip filter: lod 1 minifies at level 0, (0.5, 0.25) -> i0 = 1,
     * j0 = 0, alpha = beta = 0.5 */
    for (unsigned c = 1; c < 4; c++)
        expect_f(out[0][c], 0.25 * (fx_val(0, 0, 1, 0, 0, c) + fx_val(0, 0, 2, 0, 0, c) +
                                    fx_val(0, 0, 1, 1, 0, c) + fx_val(0, 0, 2, 1, 0, c)),
                 "SAMPLE_L lod 1 bilinear", 0, c);
    fx_free(&F);
}

static void test_fetch_and_queries(void **state)
{
    (void)state;
    fx F;
    setup(&F);
    uint32_t out[W * H][4];
    /* TXF level 1 texel (1,0); out of range (x = 2 at level 1) -> zeros; TXF_LZ level 0 */
    run_ok(&F, HDR "DCL SAMP[0]\nDCL SVIEW[0], 2D, FLOAT\nDCL TEMP[0..2]\n"
                   "IMM[0] INT32 {1, 0, 0, 1}\nIMM[1] INT32 {2, 0, 0, 1}\nIMM[2] INT32 {3, 2, 0, 7}\n"
                   "  0: TXF TEMP[0], IMM[0], SAMP[0], 2D\n"
                   "  1: TXF TEMP[1], IMM[1], SAMP[0], 2D\n"
                   "  2: TXF_LZ TEMP[2], IMM[2], SAMP[0], 2D\n"
                   "  3: MOV OUT[0].x, TEMP[0].xxxx\n"
                   "  4: MOV OUT[0].y, TEMP[1].yyyy\n"
                   "  5: MOV OUT[0].zw, TEMP[2].zzzw\n"
                   "  6: END\n", out);
    expect_f(out[3][0], fx_val(1, 0, 1, 0, 0, 0), "TXF level 1", 3, 0);
    expect_f(out[3][1], 0.0, "TXF out of range", 3, 1);
    expect_f(out[3][2], fx_val(0, 0, 3, 2, 0, 2), "TXF_LZ", 3, 2);
    expect_f(out[3][3], fx_val(0, 0, 3, 2, 0, 3), "TXF_LZ", 3, 3);
    /* TXQ level 1 of the 4x4x3-level 2D: (2, 2, 0, 3); cube array 2x2 x 3 cubes: (2,2,3,1);
     * out-of-range level: (0, 0, 0, levels) */
    run_ok(&F, HDR "DCL SAMP[0]\nDCL SAMP[5]\nDCL SVIEW[0], 2D, FLOAT\n"
                   "DCL SVIEW[5], CUBEARRAY, FLOAT\nDCL TEMP[0..2]\n"
                   "IMM[0] INT32 {1, 0, 9, 0}\n"
                   "  0: TXQ TEMP[0], IMM[0].xxxx, SAMP[0], 2D\n"
                   "  1: TXQ TEMP[1], IMM[0].yyyy, SAMP[5], CUBEARRAY\n"
                   "  2: TXQ TEMP[2], IMM[0].zzzz, SAMP[0], 2D\n"
                   "  3: MOV OUT[0].xy, TEMP[0].xwww\n"
                   "  4: MOV OUT[0].z, TEMP[1].zzzz\n"
                   "  5: MOV OUT[0].w, TEMP[2].wwww\n"
                   "  6: END\n", out);
    assert_int_equal(out[0][0], 2);
    assert_int_equal(out[0][1], 3);
    assert_int_equal(out[0][2], 3);
    assert_int_equal(out[0][3], 3);
    /* SVIEWINFO with the view swizzle, TXQS (single-sampled: 1) */
    run_ok(&F, HDR "DCL SVIEW[0], 2D, FLOAT\nDCL SAMP[0]\nDCL TEMP[0]\n"
                   "IMM[0] INT32 {0, 0, 0, 0}\n"
                   "  0: SVIEWINFO OUT[0], IMM[0], SVIEW[0].wzyx\n"
                   "  1: END\n", out);
    assert_int_equal(out[7][0], 3);
    assert_int_equal(out[7][1], 0);
    assert_int_equal(out[7][2], 4);
    assert_int_equal(out[7][3], 4);
    fx_free(&F);
}

static void test_gather(void **state)
{
    (void)state;
    fx F;
    setup(&F);
    uint32_t out[W * H][4];
    /* u = v = 0.5 on 4x4: i0 = j0 = 1: (T[1,2], T[2,2], T[2,1], T[1,1]) */
    run_ok(&F, HDR "DCL SAMP[0]\nDCL SVIEW[0], 2D, FLOAT\nDCL TEMP[0]\n"
                   "IMM[0] FLT32 {0.5, 0.5, 0.0, 0.0}\nIMM[1] UINT32 {0, 2, 0, 0}\n"
                   "IMM[2] INT32 {1, 0, 0, 0}\n"
                   "  0: TG4 TEMP[0], IMM[0], IMM[1].yyyy, SAMP[0], 2D\n"
                   "  1: TG4 OUT[0], IMM[0], IMM[1].xxxx, SAMP[0], 2D, IMM[2].xyz\n"
                   "  2: MOV OUT[0].y, TEMP[0].yyyy\n"
                   "  3: END\n", out);
    expect_f(out[0][0], fx_val(0, 0, 2, 2, 0, 0), "TG4 offset (1,0) x", 0, 0);
    expect_f(out[0][1], fx_val(0, 0, 2, 2, 0, 2), "TG4 comp 2 y", 0, 1);
    expect_f(out[0][2], fx_val(0, 0, 3, 1, 0, 0), "TG4 offset z", 0, 2);
    expect_f(out[0][3], fx_val(0, 0, 2, 1, 0, 0), "TG4 offset w", 0, 3);
    /* GATHER4: component from the sampler swizzle */
    run_ok(&F, HDR "DCL SAMP[0]\nDCL SVIEW[0], 2D, FLOAT\n"
                   "IMM[0] FLT32 {0.5, 0.5, 0.0, 0.0}\n"
                   "  0: GATHER4 OUT[0], IMM[0], SVIEW[0], SAMP[0].wwww\n"
                   "  1: END\n", out);
    expect_f(out[2][0], fx_val(0, 0, 1, 2, 0, 3), "GATHER4 .w x", 2, 0);
    expect_f(out[2][1], fx_val(0, 0, 2, 2, 0, 3), "GATHER4 .w y", 2, 1);
    expect_f(out[2][2], fx_val(0, 0, 2, 1, 0, 3), "GATHER4 .w z", 2, 2);
    expect_f(out[2][3], fx_val(0, 0, 1, 1, 0, 3), "GATHER4 .w w", 2, 3);
    fx_free(&F);
}

static void test_compare(void **state)
{
    (void)state;
    fx F;
    setup(&F);
    uint32_t out[W * H][4];
    /* depth texels 0.25 0.5 / 0.75 1.0, LESS (ref < texel), point: texel (1,0) = 0.5 */
    run_ok(&F, HDR "DCL SAMP[2]\nDCL SVIEW[2], SHADOW2D, FLOAT\nDCL TEMP[0..1]\n"
                   "IMM[0] FLT32 {0.75, 0.25, 0.4, 0.0}\nIMM[1] FLT32 {0.75, 0.25, 0.6, 0.0}\n"
                   "  0: TEX TEMP[0], IMM[0], SAMP[2], SHADOW2D\n"
                   "  1: TEX TEMP[1], IMM[1], SAMP[2], SHADOW2D\n"
                   "  2: MOV OUT[0].x, TEMP[0].xxxx\n"
                   "  3: MOV OUT[0].y, TEMP[1].xxxx\n"
                   "  4: MOV OUT[0].zw, TEMP[0].wwww\n"
                   "  5: END\n", out);
    expect_f(out[0][0], 1.0, "0.4 < 0.5", 0, 0);
    expect_f(out[0][1], 0.0, "0.6 < 0.5", 0, 1);
    expect_f(out[0][3], 1.0, "shadow .w", 0, 3);
    /* SAMPLE_C: reference in src3.x, result replicated; gather with compare */
    run_ok(&F, HDR "DCL SAMP[2]\nDCL SVIEW[2], 2D, FLOAT\nDCL TEMP[0]\n"
                   "IMM[0] FLT32 {0.5, 0.5, 0.6, 0.0}\n"
                   "  0: SAMPLE_C OUT[0], IMM[0], SVIEW[2].xxxx, SAMP[2], IMM[0].zzzz\n"
                   "  1: TG4 TEMP[0], IMM[0].xyzz, IMM[0].wwww, SAMP[2], SHADOW2D\n"
                   "  2: MOV OUT[0].yzw, TEMP[0].yxzw\n"
                   "  3: END\n", out);
    /* point at (0.5,0.5) on 2x2 -> texel (1,1) = 1.0: 0.6 < 1 -> 1 */
    expect_f(out[1][0], 1.0, "SAMPLE_C", 1, 0);
    /* gather footprint i0=j0=0: order (0,1)=0.75, (1,1)=1.0, (1,0)=0.5, (0,0)=0.25 */
    expect_f(out[1][1], 1.0, "TG4 shadow x", 1, 1);  /* 0.6 < 0.75 */
    expect_f(out[1][2], 0.0, "TG4 shadow z", 1, 2);  /* 0.6 < 0.5 */
    expect_f(out[1][3], 0.0, "TG4 shadow w", 1, 3);  /* 0.6 < 0.25 */
    fx_free(&F);
}

static void test_offsets_arrays_cube(void **state)
{
    (void)state;
    fx F;
    setup(&F);
    uint32_t out[W * H][4];
    /* immediate offset (1,-1): texel (x+1, y-1) clamped to the edge; point */
    run_ok(&F, HDR "DCL SAMP[0]\nDCL SVIEW[0], 2D, FLOAT\nIMM[0] INT32 {1, -1, 0, 0}\n"
                   "  0: TEX OUT[0], IN[0], SAMP[0], 2D, IMM[0].xyz\n  1: END\n", out);
    for (unsigned p = 0; p < W * H; p++) {
        int x = (int)(p % W) + 1, y = (int)(p / W) - 1;
        x = x > 3 ? 3 : x;
        y = y < 0 ? 0 : y;
        expect_f(out[p][0], fx_val(0, 0, x, y, 0, 0), "TEX offset", p, 0);
    }
    /* register offset per lane: offset.x = pixel x (F2I of u*4), -> texel min(2x, 3) */
    run_ok(&F, HDR "DCL SAMP[0]\nDCL SVIEW[0], 2D, FLOAT\nDCL TEMP[0]\n"
                   "IMM[0] FLT32 {4.0, 0.0, 0.0, 0.0}\n"
                   "  0: MUL TEMP[0], IN[0], IMM[0]\n"
                   "  1: F2I TEMP[0], TEMP[0]\n"
                   "  2: TEX OUT[0], IN[0], SAMP[0], 2D, TEMP[0].xyz\n  3: END\n", out);
    for (unsigned p = 0; p < W * H; p++) {
        int x = 2 * (int)(p % W);
        expect_f(out[p][1], fx_val(0, 0, x > 3 ? 3 : x, (int)(p / W), 0, 1), "reg offset", p, 1);
    }
    /* array layer: RNE(1.5) = 2, RNE(2.5) = 2, 9 -> 3, -1 -> 0 */
    run_ok(&F, HDR "DCL SAMP[3]\nDCL SVIEW[3], 2D_ARRAY, FLOAT\nDCL TEMP[0..3]\n"
                   "IMM[0] FLT32 {0.25, 0.75, 1.5, 0.0}\nIMM[1] FLT32 {2.5, 9.0, -1.0, 0.0}\n"
                   "  0: MOV TEMP[0], IMM[0]\n"
                   "  1: TXL TEMP[1], TEMP[0], SAMP[3], 2D_ARRAY\n"
                   "  2: MOV TEMP[0].z, IMM[1].xxxx\n"
                   "  3: TXL TEMP[2], TEMP[0], SAMP[3], 2D_ARRAY\n"
                   "  4: MOV TEMP[0].z, IMM[1].yyyy\n"
                   "  5: TXL TEMP[3], TEMP[0], SAMP[3], 2D_ARRAY\n"
                   "  6: MOV TEMP[0].z, IMM[1].zzzz\n"
                   "  7: TXL TEMP[0], TEMP[0], SAMP[3], 2D_ARRAY\n"
                   "  8: MOV OUT[0].x, TEMP[1].xxxx\n"
                   "  9: MOV OUT[0].y, TEMP[2].xxxx\n"
                   " 10: MOV OUT[0].z, TEMP[3].xxxx\n"
                   " 11: MOV OUT[0].w, TEMP[0].xxxx\n"
                   " 12: END\n", out);
    /* sampler 3 is point/point/mip point, repeat: u .25 -> texel 0, v .75 -> texel 1 */
    expect_f(out[0][0], fx_val(0, 2, 0, 1, 0, 0), "layer 1.5", 0, 0);
    expect_f(out[0][1], fx_val(0, 2, 0, 1, 0, 0), "layer 2.5", 0, 1);
    expect_f(out[0][2], fx_val(0, 3, 0, 1, 0, 0), "layer 9", 0, 2);
    expect_f(out[0][3], fx_val(0, 0, 0, 1, 0, 0), "layer -1", 0, 3);
    /* cube: +X (1,-.5,.5): s = (-z/|x|+1)/2 = .25, t = (-y/|x|+1)/2 = .75 -> face 0 (0,1);
     * -Y (.5,-1,-.5): s = (x/|y|+1)/2 = .75, t = (-z/|y|+1)/2 = .75 -> face 3 (1,1) */
    run_ok(&F, HDR "DCL SAMP[0]\nDCL SAMP[4]\nDCL SVIEW[0], 2D, FLOAT\nDCL SVIEW[4], CUBE, FLOAT\nDCL TEMP[0..1]\n"
                   "IMM[0] FLT32 {1.0, -0.5, 0.5, 0.0}\nIMM[1] FLT32 {0.5, -1.0, -0.5, 0.0}\n"
                   "  0: TXL TEMP[0], IMM[0], SAMP[4], CUBE\n"
                   "  1: SAMPLE_L TEMP[1], IMM[1], SVIEW[4], SAMP[0], IMM[0].wwww\n"
                   "  2: MOV OUT[0].xy, TEMP[0].xyyy\n"
                   "  3: MOV OUT[0].zw, TEMP[1].zzzw\n"
                   "  4: END\n", out);
    expect_f(out[0][0], fx_val(0, 0, 0, 1, 0, 0), "+X face (TXL)", 0, 0);
    expect_f(out[0][2], fx_val(0, 3, 1, 1, 0, 2), "-Y face", 0, 2);
    expect_f(out[0][3], fx_val(0, 3, 1, 1, 0, 3), "-Y face", 0, 3);
    run_ok(&F, HDR "DCL SAMP[0]\nDCL SVIEW[4], CUBE, FLOAT\n"
                   "IMM[0] FLT32 {1.0, -0.5, 0.5, 0.0}\n"
                   "  0: SAMPLE_L OUT[0], IMM[0], SVIEW[4], SAMP[0], IMM[0].wwww\n"
                   "  1: END\n", out);
    expect_f(out[0][1], fx_val(0, 0, 0, 1, 0, 1), "+X face", 0, 1);
    fx_free(&F);
}

static void test_indirect_sampler(void **state)
{
    (void)state;
    fx F;
    setup(&F);
    uint32_t out[W * H][4];
    /* SAMP[ADDR[0].x]: 0 on the left half, 1 (the constant texture) on the right */
    run_ok(&F, HDR "DCL SAMP[0..1]\nDCL SVIEW[0..1], 2D, FLOAT\nDCL ADDR[0]\nDCL TEMP[0]\n"
                   "IMM[0] FLT32 {2.0, 0.0, 0.0, 0.0}\n"
                   "  0: MUL TEMP[0].x, IN[0].xxxx, IMM[0].xxxx\n"
                   "  1: ARL ADDR[0].x, TEMP[0].xxxx\n"
                   "  2: TEX OUT[0], IN[0], SAMP[ADDR[0].x], 2D\n  3: END\n", out);
    for (unsigned p = 0; p < W * H; p++) {
        bool right = p % W >= 2;
        double want = right ? 9.0 : fx_val(0, 0, (int)(p % W), (int)(p / W), 0, 0);
        expect_f(out[p][0], want, "indirect SAMP", p, 0);
    }
    fx_free(&F);
}

static void test_errors(void **state)
{
    (void)state;
    fx F;
    setup(&F);
    uint32_t out[W * H][4];
    tv_error err;
    assert_int_equal(run(&F, HDR "DCL SAMP[0]\nDCL SVIEW[0], CUBE, FLOAT\n"
                             "  0: TXF OUT[0], IN[0], SAMP[0], CUBE\n  1: END\n", out, &err),
                     TV_ERR_INVALID);
    assert_non_null(strstr(err.message, "cannot be used with a CUBE texture"));
    assert_int_equal(run(&F, HDR "DCL SAMP[0]\nDCL SVIEW[0], 2D, FLOAT\n"
                             "  0: SAMPLE OUT[0], IN[0], SVIEW[3], SAMP[0]\n  1: END\n", out,
                         &err), TV_ERR_INVALID);
    assert_non_null(strstr(err.message, "SVIEW[3]"));
    /* no texture unit bound: a runtime fault naming the opcode */
    tv_vm_frag_params *fp = calloc(1, sizeof *fp);
    tv_vm_frag_params_fullscreen(fp, W, H, TV_VM_PRIM_RECT);
    fp->color[0].data = &out[0][0];
    assert_int_equal(hv_frag_p(HDR "DCL SAMP[0]\nDCL SVIEW[0], 2D, FLOAT\n"
                               "  0: TEX OUT[0], IN[0], SAMP[0], 2D\n  1: END\n", fp, NULL, &err),
                     TV_ERR_RUNTIME);
    assert_non_null(strstr(err.message, "no texture unit"));
    free(fp);
    fx_free(&F);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nearest_and_mip),
        cmocka_unit_test(test_lod_bias_bindless),
        cmocka_unit_test(test_bilinear),
        cmocka_unit_test(test_fetch_and_queries),
        cmocka_unit_test(test_gather),
        cmocka_unit_test(test_compare),
        cmocka_unit_test(test_offsets_arrays_cube),
        cmocka_unit_test(test_indirect_sampler),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
