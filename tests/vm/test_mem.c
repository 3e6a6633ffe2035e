/* Memory: the corpus compute shader cs_ssbo.tgsi (shared memory, barrier, atomics, SSBO and
 * typed image writes) against a C model of its GLSL source; buffer robustness; every
 * atomic op; typed and RAW images; HWATOMIC counters; RESQ; bindless image handles;
 * barriers across warps; private memory. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "helper_vm.h"

static void run_cs_ssbo(uint32_t threads, uint32_t *buf, size_t bufbytes, float *img)
{
    char *text = tc_slurp(TEXVM_SHARED_DIR "/corpus/tgsi/mesa-softpipe/cs_ssbo.tgsi", NULL);
    if (!text) { skip(); return; }
    tv_vm_bindings b;
    tv_vm_bindings_init(&b);
    b.buffers[0] = (tv_vm_buffer){buf, bufbytes};
    b.images[0] = (tv_vm_image){.data = img, .size = 16 * 16 * 16, .format = TV_FORMAT_NONE,
                                .target = TV_TGT_UNKNOWN, .width = 16, .height = 16, .depth = 1};
    uint32_t grid[3] = {2, 2, 1};
    uint32_t save = hv_threads;
    hv_threads = threads;
    tv_error err;
    tv_status st = hv_compute_b(text, grid, NULL, &b, &err);
    hv_threads = save;
    free(text);
    if (st != TV_OK) fail_msg("cs_ssbo: %s", err.message);
}

static void t_cs_ssbo(void **s)
{
    (void)s;
    /* skip before allocating (skip() leaves the test: nothing would free them) */
    FILE *corpus = fopen(TEXVM_SHARED_DIR "/corpus/tgsi/mesa-softpipe/cs_ssbo.tgsi", "rb");
    if (!corpus) { skip(); return; }
    fclose(corpus);
    size_t bytes = 68 + 976 * 4;
    uint32_t *buf = calloc(1, bytes);
    float *img = calloc(16 * 16 * 4, 4);
    run_cs_ssbo(1, buf, bytes, img);
    /* model of cs_ssbo.comp */
    uint32_t hist[16] = {0}, counter = 0;
    for (uint32_t by = 0; by < 2; by++)
        for (uint32_t bx = 0; bx < 2; bx++) {
            uint32_t sh[64];
            for (uint32_t li = 0; li < 64; li++) {
                uint32_t gx = bx * 8 + li % 8, gy = by * 8 + li / 8;
                sh[li] = (gx * 2654435761u) ^ (gy + 0x9e3779b9u);
            }
            for (uint32_t li = 0; li < 64; li++) {
                uint32_t gx = bx * 8 + li % 8, gy = by * 8 + li / 8;
                uint32_t v = sh[li], nb = sh[(li + 1u) & 63u];
                counter++;
                hist[nb & 15u]++;
                uint32_t idx = gy * 64u + gx;
                assert_int_equal(buf[17 + idx], v ^ nb);
                const float *px = img + (gy * 16 + gx) * 4;
                assert_true(px[0] == (float)(v & 255u) / 255.0f);
                assert_true(px[1] == (float)(nb & 255u) / 255.0f);
                /* SIN's accuracy: docs/vm-semantics.md §1 */
                assert_true(fabsf(px[2] - sinf((float)idx * 0.01f)) <= 0x1p-22f);
                assert_true(px[3] == (float)li);
            }
        }
    assert_int_equal(buf[0], counter);
    for (int i = 0; i < 16; i++)
        assert_int_equal(buf[1 + i], hist[i]);
    /* 2 threads: bit-identical */
    uint32_t *buf2 = calloc(1, bytes);
    float *img2 = calloc(16 * 16 * 4, 4);
    run_cs_ssbo(2, buf2, bytes, img2);
    assert_memory_equal(buf, buf2, bytes);
    assert_memory_equal(img, img2, 16 * 16 * 16);
    free(buf); free(img); free(buf2); free(img2);
}

static void t_buffer_robust(void **s)
{
    (void)s;
    /* thread t loads 4 dwords at byte 4*t*3 - 8 (out of range for t = 0, partly for the
       tail) and stores them at BUFFER[1] t*16; also stores past the end of BUFFER[0] */
    const char *text =
        "COMP\nDCL SV[0], THREAD_ID\nDCL BUFFER[0]\nDCL BUFFER[1]\nDCL TEMP[0..3]\n"
        "IMM[0] UINT32 {12, 4294967288, 16, 1000}\n"
        "UMAD TEMP[0].x, SV[0].xxxx, IMM[0].xxxx, IMM[0].yyyy\n"
        "LOAD TEMP[1], BUFFER[0], TEMP[0].xxxx\n"
        "UMUL TEMP[2].x, SV[0].xxxx, IMM[0].zzzz\n"
        "STORE BUFFER[1], TEMP[2].xxxx, TEMP[1]\n"
        "UADD TEMP[3].x, TEMP[0].xxxx, IMM[0].wwww\n"
        "STORE BUFFER[0].x, TEMP[3].xxxx, IMM[0].xxxx\n"
        "END\n";
    uint32_t in[40 + 4], out[8 * 4 + 4];
    for (int i = 0; i < 44; i++) in[i] = 0xa0000000u + (uint32_t)i;
    memset(out, 0xcd, sizeof out);
    tv_vm_bindings b;
    tv_vm_bindings_init(&b);
    b.buffers[0] = (tv_vm_buffer){in, 40 * 4};       /* 4 guard words after */
    b.buffers[1] = (tv_vm_buffer){out, 8 * 16};
    uint32_t block[3] = {8, 1, 1};
    tv_error err;
    if (hv_compute_b(text, NULL, block, &b, &err) != TV_OK) fail_msg("%s", err.message);
    for (uint32_t t = 0; t < 8; t++)
        for (uint32_t c = 0; c < 4; c++) {
            int64_t byte = (int64_t)t * 12 - 8 + 4 * c;
            uint32_t want = 0;
            /* the address is an unsigned 32-bit byte offset: -8 wraps far out of range */
            if (t > 0 && byte >= 0 && byte + 4 <= 160) want = 0xa0000000u + (uint32_t)(byte / 4);
            assert_int_equal(out[t * 4 + c], want);
        }
    for (int i = 32; i < 36; i++) assert_int_equal(out[i], 0xcdcdcdcdu);
    for (int i = 40; i < 44; i++) assert_int_equal(in[i], 0xa0000000u + (uint32_t)i);
}

static void t_atomics(void **s)
{
    (void)s;
    static const struct { const char *op; uint32_t init; } ops[] = {
        {"ATOMUADD", 5}, {"ATOMAND", 0xffffffffu}, {"ATOMOR", 0}, {"ATOMXOR", 0x1234},
        {"ATOMUMIN", 0xffffffffu}, {"ATOMUMAX", 0}, {"ATOMIMIN", 0}, {"ATOMIMAX", 0},
        {"ATOMXCHG", 77}, {"ATOMINC_WRAP", 0}, {"ATOMDEC_WRAP", 3}, {"ATOMFADD", 0},
    };
    for (unsigned k = 0; k < sizeof ops / sizeof ops[0]; k++) {
        /* every lane t does OP(buf[0], v(t)) and stores the returned old value at 4+4t */
        char text[1024];
        snprintf(text, sizeof text,
                 "COMP\nDCL SV[0], THREAD_ID\nDCL BUFFER[0]\nDCL TEMP[0..3]\n"
                 "IMM[0] UINT32 {4, 0, 2654435761, 10}\n"
                 "UMUL TEMP[0].x, SV[0].xxxx, IMM[0].zzzz\n"
                 "%s"
                 "%s TEMP[1].x, BUFFER[0], IMM[0].yyyy, TEMP[0].xxxx\n"
                 "UMAD TEMP[2].x, SV[0].xxxx, IMM[0].xxxx, IMM[0].xxxx\n"
                 "STORE BUFFER[0].x, TEMP[2].xxxx, TEMP[1].xxxx\n"
                 "END\n",
                 !strcmp(ops[k].op, "ATOMINC_WRAP") || !strcmp(ops[k].op, "ATOMDEC_WRAP")
                     ? "MOV TEMP[0].x, IMM[0].wwww\n"
                     : !strcmp(ops[k].op, "ATOMFADD") ? "U2F TEMP[0].x, SV[0].xxxx\n" : "",
                 ops[k].op);
        uint32_t buf[33] = {ops[k].init};
        uint32_t block[3] = {32, 1, 1};
        tv_error err;
        if (hv_compute(text, NULL, block, buf, sizeof buf, &err) != TV_OK)
            fail_msg("%s: %s", ops[k].op, err.message);
        /* reference: lanes in order 0..31 (one warp, one thread) */
        uint32_t m = ops[k].init;
        for (uint32_t t = 0; t < 32; t++) {
            uint32_t v = t * 2654435761u, old = m;
            const char *op = ops[k].op;
            if (!strcmp(op, "ATOMUADD")) m = old + v;
            else if (!strcmp(op, "ATOMAND")) m = old & v;
            else if (!strcmp(op, "ATOMOR")) m = old | v;
            else if (!strcmp(op, "ATOMXOR")) m = old ^ v;
            else if (!strcmp(op, "ATOMUMIN")) m = old < v ? old : v;
            else if (!strcmp(op, "ATOMUMAX")) m = old > v ? old : v;
            else if (!strcmp(op, "ATOMIMIN")) m = (int32_t)old < (int32_t)v ? old : v;
            else if (!strcmp(op, "ATOMIMAX")) m = (int32_t)old > (int32_t)v ? old : v;
            else if (!strcmp(op, "ATOMXCHG")) m = v;
            else if (!strcmp(op, "ATOMINC_WRAP")) m = old + 1 <= 10 ? old + 1 : 0;
            else if (!strcmp(op, "ATOMDEC_WRAP")) m = (old == 0 || old > 10) ? 10 : old - 1;
            else if (!strcmp(op, "ATOMFADD")) m = tv_f32_bits(tv_bits_f32(old) + (float)t);
            assert_int_equal(buf[1 + t], old);
        }
        assert_int_equal(buf[0], m);
    }
    /* CAS: lane t swaps 100+t in when the value is t (so lanes succeed in a chain) */
    const char *cas =
        "COMP\nDCL SV[0], THREAD_ID\nDCL BUFFER[0]\nDCL TEMP[0..3]\n"
        "IMM[0] UINT32 {4, 0, 1, 0}\n"
        "UADD TEMP[0].x, SV[0].xxxx, IMM[0].zzzz\n"
        "ATOMCAS TEMP[1].x, BUFFER[0], IMM[0].yyyy, SV[0].xxxx, TEMP[0].xxxx\n"
        "UMAD TEMP[2].x, SV[0].xxxx, IMM[0].xxxx, IMM[0].xxxx\n"
        "STORE BUFFER[0].x, TEMP[2].xxxx, TEMP[1].xxxx\n"
        "END\n";
    uint32_t buf[33] = {0};
    uint32_t block[3] = {32, 1, 1};
    tv_error err;
    if (hv_compute(cas, NULL, block, buf, sizeof buf, &err) != TV_OK) fail_msg("%s", err.message);
    assert_int_equal(buf[0], 32);
    for (uint32_t t = 0; t < 32; t++) assert_int_equal(buf[1 + t], t);
}

static void t_shared_barrier(void **s)
{
    (void)s;
    /* 4 warps: sh[t] = t*3; barrier; out[t] = sh[127 - t] */
    const char *text =
        "COMP\nPROPERTY CS_FIXED_BLOCK_WIDTH 128\nPROPERTY CS_FIXED_BLOCK_HEIGHT 1\n"
        "PROPERTY CS_FIXED_BLOCK_DEPTH 1\n"
        "DCL SV[0], THREAD_ID\nDCL SV[1], BLOCK_ID\nDCL BUFFER[0]\nDCL MEMORY[0], SHARED\n"
        "DCL TEMP[0..3]\n"
        "IMM[0] UINT32 {4, 3, 127, 128}\n"
        "UMUL TEMP[0].x, SV[0].xxxx, IMM[0].xxxx\n"
        "UMUL TEMP[1].x, SV[0].xxxx, IMM[0].yyyy\n"
        "UMAD TEMP[1].x, SV[1].xxxx, IMM[0].wwww, TEMP[1].xxxx\n"
        "STORE MEMORY[0].x, TEMP[0].xxxx, TEMP[1].xxxx\n"
        "BARRIER\n"
        "INEG TEMP[2].x, SV[0].xxxx\n"
        "UADD TEMP[2].x, TEMP[2].xxxx, IMM[0].zzzz\n"
        "UMUL TEMP[2].x, TEMP[2].xxxx, IMM[0].xxxx\n"
        "LOAD TEMP[3].x, MEMORY[0], TEMP[2].xxxx\n"
        "UMAD TEMP[0].x, SV[1].xxxx, IMM[0].wwww, SV[0].xxxx\n"
        "UMUL TEMP[0].x, TEMP[0].xxxx, IMM[0].xxxx\n"
        "STORE BUFFER[0].x, TEMP[0].xxxx, TEMP[3].xxxx\n"
        "END\n";
    uint32_t buf[256] = {0};
    uint32_t grid[3] = {2, 1, 1};
    tv_error err;
    if (hv_compute(text, grid, NULL, buf, sizeof buf, &err) != TV_OK) fail_msg("%s", err.message);
    for (uint32_t b = 0; b < 2; b++)
        for (uint32_t t = 0; t < 128; t++)
            assert_int_equal(buf[b * 128 + t], b * 128 + (127 - t) * 3);
}

static void t_images(void **s)
{
    (void)s;
    /* typed RGBA8 image: load texel (t, 1), store it swapped to (t, 0); RAW image bytes */
    const char *text =
        "COMP\nDCL SV[0], THREAD_ID\n"
        "DCL IMAGE[0], 2D, PIPE_FORMAT_R8G8B8A8_UNORM, WR\n"
        "DCL IMAGE[1], BUFFER, RAW, WR\n"
        "DCL BUFFER[0]\nDCL TEMP[0..3]\n"
        "IMM[0] UINT32 {0, 1, 4, 16}\n"
        "MOV TEMP[0].x, SV[0].xxxx\nMOV TEMP[0].y, IMM[0].yyyy\n"
        "LOAD TEMP[1], IMAGE[0], TEMP[0], 2D, PIPE_FORMAT_R8G8B8A8_UNORM\n"
        "MOV TEMP[0].y, IMM[0].xxxx\n"
        "STORE IMAGE[0], TEMP[0], TEMP[1].wzyx, 2D, PIPE_FORMAT_R8G8B8A8_UNORM\n"
        "UMUL TEMP[2].x, SV[0].xxxx, IMM[0].wwww\n"
        "STORE BUFFER[0], TEMP[2].xxxx, TEMP[1]\n"
        "UMUL TEMP[2].x, SV[0].xxxx, IMM[0].zzzz\n"
        "LOAD TEMP[3].x, IMAGE[1], TEMP[2].xxxx, BUFFER\n"
        "XOR TEMP[3].x, TEMP[3].xxxx, IMM[0].wwww\n"
        "STORE IMAGE[1].x, TEMP[2].xxxx, TEMP[3].xxxx, BUFFER\n"
        "RESQ TEMP[3], IMAGE[0]\n"
        "STORE BUFFER[0], IMM[0].xxxx, TEMP[3]\n"
        "END\n";
    uint8_t pix[4 * 2 * 4];
    for (int i = 0; i < 32; i++) pix[i] = (uint8_t)(i * 8);
    uint32_t raw[4] = {1, 2, 3, 4};
    float out[4 * 4];
    tv_vm_bindings b;
    tv_vm_bindings_init(&b);
    b.images[0] = (tv_vm_image){.data = pix, .size = sizeof pix, .width = 4, .height = 2, .depth = 1};
    b.images[1] = (tv_vm_image){.data = raw, .size = sizeof raw, .width = 16, .height = 1, .depth = 1};
    b.buffers[0] = (tv_vm_buffer){out, sizeof out};
    uint32_t block[3] = {4, 1, 1};
    tv_error err;
    if (hv_compute_b(text, NULL, block, &b, &err) != TV_OK) fail_msg("%s", err.message);
    for (int t = 1; t < 4; t++)
        for (int c = 0; c < 4; c++)
            assert_true(out[t * 4 + c] == (float)((16 + t * 4 + c) * 8) / 255.0f);
    for (int t = 0; t < 4; t++)
        for (int c = 0; c < 4; c++)
            assert_int_equal(pix[t * 4 + c], (16 + t * 4 + (3 - c)) * 8);
    for (int t = 0; t < 4; t++)
        assert_int_equal(raw[t], (uint32_t)(t + 1) ^ 16u);
    uint32_t q[4];
    memcpy(q, out, 16);
    assert_int_equal(q[0], 4);
    assert_int_equal(q[1], 2);
    assert_int_equal(q[2], 1);
    assert_int_equal(q[3], 1);
}

/* RESQ of a cube-array image: GLSL's imageSize gives the number of cubes (piglit's
 * arb_texture_view-rendering-layers-image checks imageSize(imageCubeArray).z * 6 against the
 * view's 6 layers); of a 2D array, its layers. 12 layer-faces of 2x2: (2, 2, 2) and
 * (2, 2, 12). */
static void t_resq_cube_array(void **s)
{
    (void)s;
    const char *text =
        "COMP\n"
        "DCL IMAGE[0], CUBEARRAY, PIPE_FORMAT_R8G8B8A8_UNORM, WR\n"
        "DCL IMAGE[1], 2D_ARRAY, PIPE_FORMAT_R8G8B8A8_UNORM, WR\n"
        "DCL BUFFER[0]\nDCL TEMP[0..1]\n"
        "IMM[0] UINT32 {0, 16, 0, 0}\n"
        "RESQ TEMP[0], IMAGE[0]\n"
        "RESQ TEMP[1], IMAGE[1]\n"
        "STORE BUFFER[0], IMM[0].xxxx, TEMP[0]\n"
        "STORE BUFFER[0], IMM[0].yyyy, TEMP[1]\n"
        "END\n";
    uint8_t pix[2 * 2 * 4 * 12] = {0};
    uint32_t out[8] = {0};
    tv_vm_bindings b;
    tv_vm_bindings_init(&b);
    for (int i = 0; i < 2; i++)
        b.images[i] = (tv_vm_image){.data = pix, .size = sizeof pix, .width = 2, .height = 2,
                                    .depth = 12, .row_pitch = 8, .layer_pitch = 16};
    b.buffers[0] = (tv_vm_buffer){out, sizeof out};
    uint32_t block[3] = {1, 1, 1};
    tv_error err;
    if (hv_compute_b(text, NULL, block, &b, &err) != TV_OK) fail_msg("%s", err.message);
    const uint32_t want[8] = {2, 2, 2, 1, 2, 2, 12, 1};
    for (int i = 0; i < 8; i++)
        assert_int_equal(out[i], want[i]);
}

static void t_hwatomic_resq_bindless(void **s)
{
    (void)s;
    const char *text =
        "COMP\nDCL SV[0], THREAD_ID\nDCL HWATOMIC[0][0..1]\nDCL BUFFER[0]\n"
        "DCL IMAGE[3], BUFFER, PIPE_FORMAT_R32_UINT, WR\n"
        "DCL TEMP[0..4]\n"
        "IMM[0] UINT32 {0, 1, 4, 2}\n"
        "ATOMUADD TEMP[0].x, HWATOMIC[0][1], IMM[0].xxxx, IMM[0].yyyy\n"
        "RESQ TEMP[1].x, BUFFER[0]\n"
        "IMG2HND TEMP[2].xy, IMAGE[3]\n"
        "MOV TEMP[3].x, SV[0].xxxx\n"
        "LOAD TEMP[4].x, TEMP[2], TEMP[3].xxxx, BUFFER, PIPE_FORMAT_R32_UINT\n"
        "UMUL TEMP[3].x, SV[0].xxxx, IMM[0].zzzz\n"
        "MOV TEMP[0].y, TEMP[1].xxxx\n"
        "MOV TEMP[0].z, TEMP[4].xxxx\n"
        "UMUL TEMP[3].x, TEMP[3].xxxx, IMM[0].wwww\n"
        "UMUL TEMP[3].x, TEMP[3].xxxx, IMM[0].wwww\n"
        "STORE BUFFER[0].xyz, TEMP[3].xxxx, TEMP[0]\n"
        "END\n";
    uint32_t counters[2] = {10, 20};
    uint32_t img[8] = {100, 101, 102, 103, 104, 105, 106, 107};
    uint32_t buf[8 * 4] = {0};
    tv_vm_bindings b;
    tv_vm_bindings_init(&b);
    b.hwatomic[0] = (tv_vm_buffer){counters, sizeof counters};
    b.buffers[0] = (tv_vm_buffer){buf, sizeof buf};
    b.images[3] = (tv_vm_image){.data = img, .size = sizeof img, .width = 8, .height = 1,
                                .depth = 1};
    uint32_t block[3] = {8, 1, 1};
    tv_error err;
    tv_status st = hv_compute_b(text, NULL, block, &b, &err);
    if (st != TV_OK) fail_msg("%s", err.message);
    assert_int_equal(counters[0], 10);
    assert_int_equal(counters[1], 28);
    for (uint32_t t = 0; t < 8; t++) {
        assert_int_equal(buf[t * 4 + 0], 20 + t);
        assert_int_equal(buf[t * 4 + 1], sizeof buf);
        assert_int_equal(buf[t * 4 + 2], 100 + t);
    }
}

/* HWATOMIC counters are named by the register — HWATOMIC[1][ADDR[0].x+1] is counter
 * 1 + ADDR of binding 1, not of binding 1 + ADDR — and the address operand is not used
 * (Mesa passes the counter's byte offset there, as the instruction below's 100 is not). */
static void t_hwatomic_indirect(void **s)
{
    (void)s;
    const char *text =
        "COMP\nDCL SV[0], THREAD_ID\nDCL HWATOMIC[1][0..3], ARRAY(1)\nDCL ADDR[0]\n"
        "DCL TEMP[0]\n"
        "IMM[0] UINT32 {100, 1, 0, 0}\n"
        "UARL ADDR[0].x, SV[0].xxxx\n"
        "ATOMUADD TEMP[0].x, HWATOMIC[1][ADDR[0].x+1], IMM[0].xxxx, IMM[0].yyyy\n"
        "END\n";
    uint32_t other[4] = {0, 0, 0, 0}, counters[4] = {5, 6, 7, 8};
    tv_vm_bindings b;
    tv_vm_bindings_init(&b);
    b.hwatomic[1] = (tv_vm_buffer){counters, sizeof counters};
    b.hwatomic[2] = (tv_vm_buffer){other, sizeof other};
    uint32_t block[3] = {3, 1, 1};   /* threads 0..2: counters 1..3 */
    tv_error err;
    tv_status st = hv_compute_b(text, NULL, block, &b, &err);
    if (st != TV_OK) fail_msg("%s", err.message);
    assert_int_equal(counters[0], 5);
    assert_int_equal(counters[1], 7);
    assert_int_equal(counters[2], 8);
    assert_int_equal(counters[3], 9);
    for (int i = 0; i < 4; i++)
        assert_int_equal(other[i], 0);
}

static void t_private(void **s)
{
    (void)s;
    /* private memory per invocation: each lane writes its id at 0 and 64, reads back */
    const char *text =
        "COMP\nDCL SV[0], THREAD_ID\nDCL BUFFER[0]\nDCL MEMORY[0], PRIVATE\nDCL TEMP[0..3]\n"
        "IMM[0] UINT32 {0, 64, 4, 7}\n"
        "UMUL TEMP[0].x, SV[0].xxxx, IMM[0].wwww\n"
        "STORE MEMORY[0].x, IMM[0].xxxx, TEMP[0].xxxx\n"
        "STORE MEMORY[0].x, IMM[0].yyyy, SV[0].xxxx\n"
        "LOAD TEMP[1].x, MEMORY[0], IMM[0].xxxx\n"
        "LOAD TEMP[2].x, MEMORY[0], IMM[0].yyyy\n"
        "UADD TEMP[1].x, TEMP[1].xxxx, TEMP[2].xxxx\n"
        "UMUL TEMP[3].x, SV[0].xxxx, IMM[0].zzzz\n"
        "STORE BUFFER[0].x, TEMP[3].xxxx, TEMP[1].xxxx\n"
        "END\n";
    uint32_t buf[64] = {0};
    uint32_t block[3] = {64, 1, 1};
    tv_error err;
    if (hv_compute(text, NULL, block, buf, sizeof buf, &err) != TV_OK) fail_msg("%s", err.message);
    for (uint32_t t = 0; t < 64; t++) assert_int_equal(buf[t], t * 8);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_cs_ssbo), cmocka_unit_test(t_buffer_robust),
        cmocka_unit_test(t_atomics), cmocka_unit_test(t_shared_barrier),
        cmocka_unit_test(t_images), cmocka_unit_test(t_resq_cube_array),
        cmocka_unit_test(t_hwatomic_resq_bindless),
        cmocka_unit_test(t_hwatomic_indirect),
        cmocka_unit_test(t_private),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
