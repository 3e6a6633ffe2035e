/* Fragment stage: POSITION with origin/centre properties, interpolation modes, coarse and
 * fine derivatives over quads (helper lanes included), KILL/KILL_IF/DEMOTE keeping old
 * target values, READ_HELPER, FACE, several colour outputs, depth, MSAA with SAMPLEID,
 * input channels read beyond the declared mask,
 * and the corpus program ctrl_int.tgsi against a C model of its GLSL. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "helper_vm.h"

static tv_vm *vm1(void) { return tv_vm_create(NULL, NULL); }

static void run(const char *text, tv_vm_frag_params *fp, tv_vm_bindings *b)
{
    tv_error err;
    if (hv_frag_p(text, fp, b, &err) != TV_OK)
        fail_msg("%s", err.message);
}

static void t_position(void **s)
{
    (void)s;
    static const char *props[4] = {"", "PROPERTY FS_COORD_ORIGIN LOWER_LEFT\n",
                                   "PROPERTY FS_COORD_PIXEL_CENTER INTEGER\n",
                                   ("PROPERTY FS_COORD_ORIGIN LOWER_LEFT\n"
                                    "PROPERTY FS_COORD_PIXEL_CENTER INTEGER\n")};
    for (int k = 0; k < 4; k++) {
        char text[512];
        snprintf(text, sizeof text,
                 "FRAG\n%sDCL IN[0], POSITION, LINEAR\nDCL OUT[0], COLOR\n"
                 "MOV OUT[0], IN[0]\nEND\n", props[k]);
        enum { W = 13, H = 7 };
        uint32_t *color = calloc(W * H * 4, 4);
        tv_vm_frag_params fp;
        tv_vm_frag_params_fullscreen(&fp, W, H, TV_VM_PRIM_RECT);
        fp.color[0].data = color;
        run(text, &fp, NULL);
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                float ex = x + 0.5f, ey = (k & 1) ? H - (y + 0.5f) : y + 0.5f;
                if (k & 2) { ex -= 0.5f; ey -= 0.5f; }
                const uint32_t *px = color + (y * W + x) * 4;
                assert_true(tv_bits_f32(px[0]) == ex);
                assert_true(tv_bits_f32(px[1]) == ey);
                assert_true(tv_bits_f32(px[2]) == 0.0f);
                assert_true(tv_bits_f32(px[3]) == 1.0f);
            }
        free(color);
    }
}

static void t_interp(void **s)
{
    (void)s;
    const char *text =
        "FRAG\nDCL IN[0], GENERIC[0], LINEAR\nDCL IN[1], GENERIC[1], PERSPECTIVE\n"
        "DCL IN[2], GENERIC[2], CONSTANT\nDCL OUT[0], COLOR\nDCL OUT[1], COLOR[1]\n"
        "MOV OUT[0].xy, IN[0].xyyy\nMOV OUT[0].zw, IN[2].xxxy\n"
        "MOV OUT[1], IN[1]\nEND\n";
    enum { W = 16, H = 8 };
    uint32_t *c0 = calloc(W * H * 4, 4), *c1 = calloc(W * H * 4, 4);
    tv_vm_frag_params fp;
    tv_vm_frag_params_fullscreen(&fp, W, H, TV_VM_PRIM_RECT);
    /* attribute = window position of the vertex: linear interpolation gives the pixel
       centre; with w = 1 everywhere perspective gives the same */
    for (int v = 0; v < 4; v++) {
        fp.vertices[v].attr[0][0] = tv_f32_bits(fp.vertices[v].x);
        fp.vertices[v].attr[0][1] = tv_f32_bits(fp.vertices[v].y);
        fp.vertices[v].attr[1][0] = tv_f32_bits(fp.vertices[v].x * 2.0f);
        fp.vertices[v].attr[1][1] = tv_f32_bits(fp.vertices[v].y * 2.0f);
        fp.vertices[v].attr[2][0] = tv_f32_bits(10.0f + v);
        fp.vertices[v].attr[2][1] = tv_f32_bits(20.0f + v);
    }
    fp.color[0].data = c0;
    fp.color[1].data = c1;
    run(text, &fp, NULL);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            const uint32_t *a = c0 + (y * W + x) * 4, *b = c1 + (y * W + x) * 4;
            assert_true(fabsf(tv_bits_f32(a[0]) - (x + 0.5f)) < 1e-4f);
            assert_true(fabsf(tv_bits_f32(a[1]) - (y + 0.5f)) < 1e-4f);
            /* flat: the last vertex of the pixel's triangle, (0,1,2) or (2,1,3) */
            bool second = (x + 0.5f) / W + (y + 0.5f) / H > 1.0f;
            assert_true(tv_bits_f32(a[2]) == (second ? 13.0f : 12.0f));
            assert_true(tv_bits_f32(a[3]) == (second ? 23.0f : 22.0f));
            assert_true(fabsf(tv_bits_f32(b[0]) - 2 * (x + 0.5f)) < 1e-4f);
            assert_true(fabsf(tv_bits_f32(b[1]) - 2 * (y + 0.5f)) < 1e-4f);
        }
    /* perspective: w = 1 at x = 0, w = 4 at x = W; attr u = 0 / 1. Correct interpolation
       of u at screen fraction f: u = (f/4) / ((1-f) + f/4) */
    for (int v = 0; v < 4; v++) {
        bool right = fp.vertices[v].x > 0;
        fp.vertices[v].w = right ? 4.0f : 1.0f;
        fp.vertices[v].attr[1][0] = tv_f32_bits(right ? 1.0f : 0.0f);
        fp.vertices[v].attr[0][0] = tv_f32_bits(right ? 1.0f : 0.0f);
    }
    run(text, &fp, NULL);
    for (int x = 0; x < W; x++) {
        float f = (x + 0.5f) / W;
        float up = (f / 4) / ((1 - f) + f / 4);
        assert_true(fabsf(tv_bits_f32(c1[(3 * W + x) * 4]) - up) < 1e-5f);
        assert_true(fabsf(tv_bits_f32(c0[(3 * W + x) * 4]) - f) < 1e-5f);   /* LINEAR ignores w */
    }
    free(c0);
    free(c1);
}

/* A fragment program gets every input channel it reads, whatever its declaration's mask
 * says: the tile paths interpolate only the channels some micro-op may read (vm_lower.c
 * mark_input_reads), so reads through a swizzle, through a copy the optimiser
 * propagates, and through indirect addressing must all count. Attributes (x, y, 2x, 3y)
 * of the vertex's window position come out at the pixel centre. */
static void t_input_channels_read(void **s)
{
    (void)s;
    static const char *texts[] = {
        /* .zw of an input declared .xy, through a swizzle */
        "FRAG\nDCL IN[0].xy, GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\n"
        "MOV OUT[0], IN[0].zwxy\nEND\n",
        /* through a copy the optimiser propagates into the ADD */
        "FRAG\nDCL IN[0].xy, GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL TEMP[0]\n"
        "IMM[0] FLT32 {0.0, 0.0, 0.0, 0.0}\n"
        "MOV TEMP[0], IN[0]\nADD OUT[0], TEMP[0].zwxy, IMM[0]\nEND\n",
        /* through indirect addressing: IN[ADDR[0].x] with ADDR[0].x = 1 names IN[0]'s
           slots in the micro-op and reads IN[1]'s */
        "FRAG\nDCL IN[0].xy, GENERIC[1], PERSPECTIVE\nDCL IN[1].xy, GENERIC[0], PERSPECTIVE\n"
        "DCL OUT[0], COLOR\nDCL ADDR[0]\nIMM[0] INT32 {1, 0, 0, 0}\n"
        "UARL ADDR[0].x, IMM[0].xxxx\nMOV OUT[0], IN[ADDR[0].x].zwxy\nEND\n",
    };
    enum { W = 16, H = 8 };
    for (unsigned k = 0; k < sizeof texts / sizeof texts[0]; k++) {
        uint32_t *c = calloc(W * H * 4, 4);
        tv_vm_frag_params fp;
        tv_vm_frag_params_fullscreen(&fp, W, H, TV_VM_PRIM_RECT);
        unsigned a = k == 2 ? 1 : 0;   /* the attribute slot read (IN[1] in program 2) */
        for (int v = 0; v < 4; v++) {
            fp.vertices[v].attr[a][0] = tv_f32_bits(fp.vertices[v].x);
            fp.vertices[v].attr[a][1] = tv_f32_bits(fp.vertices[v].y);
            fp.vertices[v].attr[a][2] = tv_f32_bits(2.0f * fp.vertices[v].x);
            fp.vertices[v].attr[a][3] = tv_f32_bits(3.0f * fp.vertices[v].y);
        }
        fp.color[0].data = c;
        run(texts[k], &fp, NULL);
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                const uint32_t *px = c + (y * W + x) * 4;
                const float want[4] = {2.0f * (x + 0.5f), 3.0f * (y + 0.5f), x + 0.5f,
                                       y + 0.5f};
                for (int q = 0; q < 4; q++)
                    if (!(fabsf(tv_bits_f32(px[q]) - want[q]) < 1e-4f))
                        fail_msg("program %u pixel %d,%d comp %d: got %.9g want %.9g", k, x,
                                 y, q, tv_bits_f32(px[q]), want[q]);
            }
        free(c);
    }
}

static void t_derivatives(void **s)
{
    (void)s;
    /* v = x*x + 3y; coarse DDX = TR - TL of the quad, coarse DDY = BL - TL; fine per
       row/column. A triangle covering only part of the target makes helper lanes. */
    const char *text =
        "FRAG\nDCL IN[0], POSITION, LINEAR\nDCL OUT[0], COLOR\nDCL TEMP[0..1]\n"
        "IMM[0] FLT32 {3.0, 0.0, 0.0, 0.0}\n"
        "MUL TEMP[0].x, IN[0].xxxx, IN[0].xxxx\n"
        "MAD TEMP[0].x, IN[0].yyyy, IMM[0].xxxx, TEMP[0].xxxx\n"
        "DDX OUT[0].x, TEMP[0].xxxx\n"
        "DDY OUT[0].y, TEMP[0].xxxx\n"
        "DDX_FINE OUT[0].z, TEMP[0].xxxx\n"
        "DDY_FINE OUT[0].w, IN[0].xxxx\n"
        "END\n";
    enum { W = 16, H = 12 };
    uint32_t *c = calloc(W * H * 4, 4);
    for (int i = 0; i < W * H * 4; i++) c[i] = 0xdeadbeefu;
    tv_vm_frag_params fp;
    tv_vm_frag_params_fullscreen(&fp, W, H, TV_VM_PRIM_TRIANGLE);
    fp.vertices[1].x = W;      /* triangle (0,0) (W,0) (0,H): the lower right is empty */
    fp.vertices[2].y = H;
    fp.color[0].data = c;
    run(text, &fp, NULL);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            const uint32_t *p = c + (y * W + x) * 4;
            float cx = x + 0.5f, cy = y + 0.5f;
            bool inside = (cx / W + cy / H) <= 1.0f;
            if (!inside) {
                assert_int_equal(p[0], 0xdeadbeefu);
                continue;
            }
            float tlx = (x & ~1) + 0.5f;
            float coarse_dx = (tlx + 1) * (tlx + 1) - tlx * tlx;
            float fine_dx = coarse_dx;  /* same row function of x only */
            assert_true(tv_bits_f32(p[0]) == coarse_dx);
            assert_true(tv_bits_f32(p[1]) == 3.0f);
            assert_true(tv_bits_f32(p[2]) == fine_dx);
            assert_true(tv_bits_f32(p[3]) == 0.0f);
        }
    free(c);
}

static void t_kill_demote_helper(void **s)
{
    (void)s;
    /* kill where x < 4, demote where y >= 6; READ_HELPER reports demoted lanes; outputs
       of killed/demoted pixels keep the old contents */
    const char *text =
        "FRAG\nDCL IN[0], POSITION, LINEAR\nDCL OUT[0], COLOR\nDCL TEMP[0..2]\n"
        "IMM[0] FLT32 {4.0, 6.0, 1.0, 0.0}\n"
        "ADD TEMP[0].x, IN[0].xxxx, -IMM[0].xxxx\n"
        "KILL_IF TEMP[0].xxxx\n"
        "FSGE TEMP[1].x, IN[0].yyyy, IMM[0].yyyy\n"
        "UIF TEMP[1].xxxx\n"
        "  DEMOTE\n"
        "ENDIF\n"
        "READ_HELPER TEMP[2].x\n"
        "MOV OUT[0], IMM[0].zzzz\n"
        "MOV OUT[0].y, TEMP[2].xxxx\n"
        "END\n";
    enum { W = 10, H = 9 };
    uint32_t *c = calloc(W * H * 4, 4);
    for (int i = 0; i < W * H * 4; i++) c[i] = 7;
    tv_vm_frag_params fp;
    tv_vm_frag_params_fullscreen(&fp, W, H, TV_VM_PRIM_RECT);
    fp.color[0].data = c;
    tv_vm *vm = vm1();
    tv_vm_program *p = hv_program(vm, text);
    tv_vm_stats st;
    tv_error err;
    if (tv_vm_run_fragment(vm, p, NULL, &fp, &st, &err) != TV_OK) fail_msg("%s", err.message);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            const uint32_t *px = c + (y * W + x) * 4;
            bool killed = x + 0.5f < 4.0f || y + 0.5f >= 6.0f;
            if (killed) {
                assert_int_equal(px[0], 7);
            } else {
                assert_true(tv_bits_f32(px[0]) == 1.0f);
                assert_int_equal(px[1], 0);   /* not a helper */
            }
        }
    assert_int_equal(st.killed, (uint64_t)(4 * 6 + 10 * 3));
    tv_vm_program_destroy(p);
    tv_vm_destroy(vm);
    free(c);
}

static void t_face_depth_msaa(void **s)
{
    (void)s;
    const char *text =
        "FRAG\nDCL IN[0], FACE, CONSTANT\nDCL SV[0], SAMPLEID\nDCL OUT[0], COLOR\n"
        "DCL OUT[1], POSITION\nDCL TEMP[0]\nIMM[0] FLT32 {0.25, 0.0, 0.0, 0.0}\n"
        "MOV OUT[0].x, IN[0].xxxx\nMOV OUT[0].y, SV[0].xxxx\nMOV OUT[0].zw, IMM[0].yyyy\n"
        "MOV OUT[1].z, IMM[0].xxxx\nEND\n";
    enum { W = 4, H = 4, S = 4 };
    uint32_t *c = calloc(W * H * S * 4, 4);
    float *depth = calloc(W * H * S, 4);
    tv_vm_frag_params fp;
    tv_vm_frag_params_fullscreen(&fp, W, H, TV_VM_PRIM_RECT);
    fp.samples = S;
    fp.front_face = false;
    fp.color[0].data = c;
    fp.depth = depth;
    run(text, &fp, NULL);
    for (int i = 0; i < W * H; i++)
        for (int smp = 0; smp < S; smp++) {
            const uint32_t *px = c + (i * S + smp) * 4;
            assert_true(tv_bits_f32(px[0]) == -1.0f);
            assert_int_equal(px[1], smp);        /* per-sample shading */
            assert_true(depth[i * S + smp] == 0.25f);
        }
    free(c);
    free(depth);
}

/* ctrl_int.frag model */
static uint32_t *ctrl_model(uint32_t W, uint32_t H, int iters)
{
    uint32_t *o = calloc(W * H * 4, 4);
    for (uint32_t py = 0; py < H; py++)
        for (uint32_t px = 0; px < W; px++) {
            uint32_t pcx = px, pcy = H - 1 - py;   /* LOWER_LEFT, y flip from the uniform */
            uint32_t h = pcx * 73856093u ^ pcy * 19349663u;
            int32_t acc = (int32_t)pcx - (int32_t)pcy;
            uint32_t bits = 0;
            for (int i = 0; i < iters; i++) {
                h ^= h << 13; h ^= h >> 17; h ^= h << 5;
                if ((h & 7u) == 3u) continue;
                if (acc > 100000) break;
                acc += (int32_t)(h % 97u) - 48;
                acc = (acc * 3) / 2 - (acc >> 2);
                bits |= 1u << (uint32_t)(i & 31);
                if (i == 9 && (pcx & 1u) == 1u) acc = -acc;
            }
            /* GLSL leaves % of negative operands undefined; nir (and so the TGSI) uses an
               unsigned modulo, which the model follows */
            int32_t q = acc / 7;
            uint32_t m = (uint32_t)acc % 7u;
            uint32_t r2 = ((h >> 3) & 511u) + (uint32_t)__builtin_popcount(h) * 1000u;
            int32_t msb = -1;
            uint32_t ua = acc < 0 ? ~(uint32_t)acc : (uint32_t)acc;
            for (int b = 0; b < 32; b++) if (ua >> b & 1) msb = b;
            int32_t lsb = h ? __builtin_ctz(h) : -1;
            uint32_t rev = 0;
            for (int b = 0; b < 32; b++) if (h >> b & 1) rev |= 1u << (31 - b);
            uint32_t hi = (uint32_t)(((uint64_t)h * 2654435761u) >> 32);
            uint32_t *d = o + (py * W + px) * 4;
            d[0] = (uint32_t)q ^ (m << 24);
            d[1] = r2 + (uint32_t)msb * 65536u + (uint32_t)lsb;
            d[2] = rev ^ bits;
            d[3] = hi + (h < 0x80000000u ? 1u : 0u);
            if (pcx == pcy)
                d[3] = (uint32_t)(acc > -5 ? acc : -5) + (uint32_t)((int32_t)h < 3 ? (int32_t)h : 3) +
                       (uint32_t)(acc < 0 ? -acc : acc);
        }
    return o;
}

static void t_ctrl_int_corpus(void **s)
{
    (void)s;
    char *text = tc_slurp(TEXVM_SHARED_DIR "/corpus/tgsi/mesa-softpipe/ctrl_int.tgsi", NULL);
    if (!text) { skip(); return; }
    enum { W = 37, H = 29 };
    float cb[2][4] = {{0}, {0, 0, 1.0f, 0.0f}};
    int32_t iters = 17;
    memcpy(&cb[0][0], &iters, 4);
    for (uint32_t threads = 1; threads <= 2; threads++) {
        tv_vm_config cfg = {.threads = threads};
        tv_vm *vm = tv_vm_create(&cfg, NULL);
        tv_vm_program *p = hv_program_proc(vm, text, TV_TGSI_FRAG);
        uint32_t *c = calloc(W * H * 4, 4);
        tv_vm_frag_params fp;
        tv_vm_frag_params_fullscreen(&fp, W, H, TV_VM_PRIM_RECT);
        fp.color[0].data = c;
        tv_vm_bindings b;
        tv_vm_bindings_init(&b);
        b.constbufs[0] = (tv_vm_buffer){cb, sizeof cb};
        tv_error err;
        if (tv_vm_run_fragment(vm, p, &b, &fp, NULL, &err) != TV_OK) fail_msg("%s", err.message);
        uint32_t *want = ctrl_model(W, H, iters);
        for (int i = 0; i < W * H * 4; i++)
            if (c[i] != want[i])
                fail_msg("pixel %d comp %d: got 0x%x want 0x%x", i / 4, i % 4, c[i], want[i]);
        free(want);
        free(c);
        tv_vm_program_destroy(p);
        tv_vm_destroy(vm);
    }
    free(text);
}

static void t_bench_math_corpus(void **s)
{
    (void)s;
    char *text = tc_slurp(TEXVM_SHARED_DIR "/corpus/tgsi/mesa-softpipe/bench_math.tgsi", NULL);
    if (!text) { skip(); return; }
    tv_vm *vm = vm1();
    tv_vm_program *p = hv_program_proc(vm, text, TV_TGSI_FRAG);
    const tv_tgsi_program *src = tv_vm_program_source(p);
    enum { W = 24, H = 16 };
    uint32_t *c = calloc(W * H * 4, 4);
    tv_vm_frag_params fp;
    tv_vm_frag_params_fullscreen(&fp, W, H, TV_VM_PRIM_RECT);
    for (int v = 0; v < 4; v++) {
        fp.vertices[v].attr[0][0] = tv_f32_bits(fp.vertices[v].x / W);
        fp.vertices[v].attr[0][1] = tv_f32_bits(fp.vertices[v].y / H);
    }
    fp.color[0].data = c;
    tv_error err;
    if (tv_vm_run_fragment(vm, p, NULL, &fp, NULL, &err) != TV_OK) fail_msg("%s", err.message);
    /* model of bench_math.frag: 25 rounds of x = sin(x * k + c_i) in float; the
       tolerance covers the interpolation's rounding of v_uv only */
    static const float cst[25] = {0.01f, 0.02f, 0.03f, 0.04f, 0.05f, 0.06f, 0.07f, 0.08f,
                                  0.09f, 0.10f, 0.11f, 0.12f, 0.13f, 0.14f, 0.15f, 0.16f,
                                  0.17f, 0.18f, 0.19f, 0.20f, 0.21f, 0.22f, 0.23f, 0.24f,
                                  0.25f};
    static const float k[4] = {1.0001f, 0.9999f, 1.0002f, 0.9998f};
    (void)src;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            float u = (x + 0.5f) / W, v = (y + 0.5f) / H;
            float t[4] = {u, v, v * 0.5f, u * 0.5f};
            for (int r = 0; r < 25; r++)
                for (int q = 0; q < 4; q++)
                    t[q] = sinf(t[q] * k[q] + cst[r]);
            const uint32_t *px = c + (y * W + x) * 4;
            for (int q = 0; q < 4; q++)
                if (fabsf(tv_bits_f32(px[q]) - t[q]) > 1e-5f)
                    fail_msg("pixel %d,%d comp %d: got %.9g want %.9g", x, y, q,
                             tv_bits_f32(px[q]), t[q]);
        }
    tv_vm_program_destroy(p);
    tv_vm_destroy(vm);
    free(c);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_position), cmocka_unit_test(t_interp),
        cmocka_unit_test(t_input_channels_read),
        cmocka_unit_test(t_derivatives), cmocka_unit_test(t_kill_demote_helper),
        cmocka_unit_test(t_face_depth_msaa), cmocka_unit_test(t_ctrl_int_corpus),
        cmocka_unit_test(t_bench_math_corpus),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
