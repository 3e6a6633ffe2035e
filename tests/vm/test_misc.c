/* Warp-wide ops, interpolation ops, FBFETCH, constant buffers (direct, indirect, robust),
 * runtime faults naming instruction and lane, unsupported opcodes, the trace hook, and
 * bit-identical results for 1 and 2 threads. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "helper_vm.h"

static void t_warp_ops(void **s)
{
    (void)s;
    /* 40 threads = a full warp and an 8-lane warp. Lanes with t%3==0 are inside an IF. */
    const char *text =
        "COMP\nDCL SV[0], THREAD_ID\nDCL BUFFER[0]\nDCL TEMP[0..7]\n"
        "IMM[0] UINT32 {3, 0, 32, 1}\nIMM[1] UINT32 {5, 7, 0, 0}\n"
        "UMOD TEMP[0].x, SV[0].xxxx, IMM[0].xxxx\n"
        "USEQ TEMP[0].y, TEMP[0].xxxx, IMM[0].yyyy\n"
        "AND TEMP[0].z, SV[0].xxxx, IMM[0].wwww\n"
        "MOV TEMP[1], IMM[0].yyyy\n"
        "UIF TEMP[0].yyyy\n"
        "  BALLOT TEMP[1].xy, TEMP[0].zzzz\n"
        "  VOTE_ANY TEMP[1].z, TEMP[0].zzzz\n"
        "  VOTE_ALL TEMP[1].w, TEMP[0].yyyy\n"
        "  READ_FIRST TEMP[2].x, SV[0].xxxx\n"
        "  READ_INVOC TEMP[2].y, SV[0].xxxx, IMM[1].xxxx\n"
        "  VOTE_EQ TEMP[2].z, TEMP[0].yyyy\n"
        "  VOTE_EQ TEMP[2].w, SV[0].xxxx\n"
        "ENDIF\n"
        "UMUL TEMP[3].x, SV[0].xxxx, IMM[0].zzzz\n"
        "STORE BUFFER[0], TEMP[3].xxxx, TEMP[1]\n"
        "UADD TEMP[3].x, TEMP[3].xxxx, IMM[1].zzzz\n"
        "IMM[2] UINT32 {16, 0, 0, 0}\n"
        "UADD TEMP[3].x, TEMP[3].xxxx, IMM[2].xxxx\n"
        "STORE BUFFER[0], TEMP[3].xxxx, TEMP[2]\n"
        "END\n";
    uint32_t buf[40 * 8];
    memset(buf, 0xee, sizeof buf);
    uint32_t block[3] = {40, 1, 1};
    tv_error err;
    if (hv_compute(text, NULL, block, buf, sizeof buf, &err) != TV_OK) fail_msg("%s", err.message);
    for (uint32_t t = 0; t < 40; t++) {
        const uint32_t *r = buf + t * 8;
        if (t % 3) { for (int c = 0; c < 4; c++) assert_int_equal(r[c], 0); continue; }
        uint32_t base = t < 32 ? 0 : 32, n = t < 32 ? 32 : 8, ballot = 0, first = 99;
        for (uint32_t l = 0; l < n; l++) {
            uint32_t g = base + l;
            if (g % 3 == 0) {
                if (first == 99) first = g;
                if (g & 1) ballot |= 1u << l;
            }
        }
        assert_int_equal(r[0], ballot);
        assert_int_equal(r[1], 0);
        assert_int_equal(r[2], ballot ? ~0u : 0u);
        assert_int_equal(r[3], ~0u);
        assert_int_equal(r[4], first);
        assert_int_equal(r[5], base + 5);   /* lane 5's value (not active, still readable) */
        assert_int_equal(r[6], ~0u);
        assert_int_equal(r[7], 0u);
    }
}

static void t_subgroup_svs_clock(void **s)
{
    (void)s;
    const char *text =
        "COMP\nDCL SV[0], THREAD_ID\nDCL SV[1], SUBGROUP_INVOCATION\nDCL SV[2], SUBGROUP_LT_MASK\n"
        "DCL SV[3], SUBGROUP_SIZE\nDCL BUFFER[0]\nDCL TEMP[0..3]\nIMM[0] UINT32 {16, 0, 0, 0}\n"
        "MOV TEMP[0].x, SV[1].xxxx\nMOV TEMP[0].y, SV[2].xxxx\nMOV TEMP[0].z, SV[3].xxxx\n"
        "CLOCK TEMP[1].xy\nCLOCK TEMP[2].xy\nUSLT TEMP[0].w, TEMP[1].xxxx, TEMP[2].xxxx\n"
        "UMUL TEMP[3].x, SV[0].xxxx, IMM[0].xxxx\nSTORE BUFFER[0], TEMP[3].xxxx, TEMP[0]\nEND\n";
    uint32_t buf[64 * 4];
    uint32_t block[3] = {64, 1, 1};
    tv_error err;
    if (hv_compute(text, NULL, block, buf, sizeof buf, &err) != TV_OK) fail_msg("%s", err.message);
    for (uint32_t t = 0; t < 64; t++) {
        assert_int_equal(buf[t * 4 + 0], t % 32);
        assert_int_equal(buf[t * 4 + 1], (1u << (t % 32)) - 1u);
        assert_int_equal(buf[t * 4 + 2], 32);
        assert_int_equal(buf[t * 4 + 3], ~0u);   /* the clock increases */
    }
}

static void t_constbuf(void **s)
{
    (void)s;
    /* CONST[1][2] direct, CONST[1][ADDR+1] indirect per lane (out of range reads 0) */
    uint32_t n = 6;
    uint32_t a[6][4] = {{0}}, o[6][4];
    for (uint32_t t = 0; t < n; t++) a[t][0] = t;    /* index */
    float cb[4][4];
    for (int i = 0; i < 16; i++) ((float *)cb)[i] = (float)i * 1.5f;
    char text[2048];
    snprintf(text, sizeof text,
             "COMP\nDCL SV[0], THREAD_ID\nDCL CONST[1][0..3]\nDCL BUFFER[0]\nDCL TEMP[0..3]\n"
             "DCL ADDR[0]\nIMM[0] UINT32 {16, 0, 0, 0}\n"
             "UMUL TEMP[3].x, SV[0].xxxx, IMM[0].xxxx\n"
             "LOAD TEMP[0], BUFFER[0], TEMP[3].xxxx\n"
             "UARL ADDR[0].x, TEMP[0].xxxx\n"
             "MOV TEMP[1].x, CONST[1][2].yyyy\n"
             "MOV TEMP[1].yzw, CONST[1][ADDR[0].x+1].xxzw\n"
             "STORE BUFFER[0], TEMP[3].xxxx, TEMP[1]\nEND\n");
    tv_vm_bindings b;
    tv_vm_bindings_init(&b);
    b.buffers[0] = (tv_vm_buffer){a, sizeof a};
    b.constbufs[1] = (tv_vm_buffer){cb, sizeof cb};
    uint32_t block[3] = {6, 1, 1};
    tv_error err;
    if (hv_compute_b(text, NULL, block, &b, &err) != TV_OK) fail_msg("%s", err.message);
    memcpy(o, a, sizeof o);
    for (uint32_t t = 0; t < n; t++) {
        assert_true(tv_bits_f32(o[t][0]) == 9 * 1.5f);
        uint32_t idx = t + 1;
        for (int c = 1; c < 4; c++) {
            int comp = c == 1 ? 0 : c;
            float want = idx < 4 ? (float)(idx * 4 + comp) * 1.5f : 0.0f;
            assert_true(tv_bits_f32(o[t][c]) == want);
        }
    }
}

/* Robust indexing (tv_vm_config.robust_indexing, what the pipe layer runs client programs
 * with): the out-of-range index that faults in t_faults reads 0 and drops its write. */
static void t_robust_indexing(void **s)
{
    (void)s;
    const char *text =
        "COMP\nDCL SV[0], THREAD_ID\nDCL BUFFER[0]\nDCL TEMP[0..1]\nDCL TEMP[2..5], ARRAY(1)\n"
        "DCL ADDR[0]\n"
        "IMM[0] UINT32 {3, 9, 0, 4}\n"
        "IMM[1] FLT32 {7.0, 0.0, 0.0, 0.0}\n"
        "USEQ TEMP[0].x, SV[0].xxxx, IMM[0].xxxx\n"
        "UCMP TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy, IMM[0].zzzz\n"
        "UARL ADDR[0].x, TEMP[0].xxxx\n"
        "MOV TEMP[ADDR[0].x+2](1).x, IMM[1].xxxx\n"
        "MOV TEMP[1].x, TEMP[ADDR[0].x+2](1).xxxx\n"
        "UMUL TEMP[0].y, SV[0].xxxx, IMM[0].wwww\n"
        "STORE BUFFER[0].x, TEMP[0].yyyy, TEMP[1].xxxx\n"
        "END\n";
    tv_vm_config cfg = {0};
    cfg.robust_indexing = true;
    cfg.plain = getenv("TEXVM_TEST_PLAIN") != NULL;   /* translation validation */
    tv_vm *vm = tv_vm_create(&cfg, NULL);
    tv_vm_program *p = hv_program(vm, text);
    uint32_t out[8];
    memset(out, 0xee, sizeof out);
    tv_vm_bindings b;
    tv_vm_bindings_init(&b);
    b.buffers[0] = (tv_vm_buffer){out, sizeof out};
    tv_vm_compute_params cp = {.block = {8, 1, 1}};
    tv_error err;
    if (tv_vm_run_compute(vm, p, &b, &cp, NULL, &err) != TV_OK)
        fail_msg("%s", err.message);
    for (int t = 0; t < 8; t++)
        assert_true(tv_bits_f32(out[t]) == (t == 3 ? 0.0f : 7.0f));
    tv_vm_program_destroy(p);
    tv_vm_destroy(vm);
}

static void t_faults(void **s)
{
    (void)s;
    /* indirect TEMP read out of the declared array range on lane 3 only */
    const char *text =
        "COMP\nDCL SV[0], THREAD_ID\nDCL TEMP[0..1]\nDCL TEMP[2..5], ARRAY(1)\nDCL ADDR[0]\n"
        "IMM[0] UINT32 {3, 9, 0, 0}\n"
        "USEQ TEMP[0].x, SV[0].xxxx, IMM[0].xxxx\n"
        "UCMP TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy, IMM[0].zzzz\n"
        "UARL ADDR[0].x, TEMP[0].xxxx\n"
        "MOV TEMP[1], TEMP[ADDR[0].x+2](1)\n"
        "END\n";
    tv_vm *vm = tv_vm_create(NULL, NULL);
    tv_vm_program *p = hv_program(vm, text);
    tv_vm_compute_params cp = {.block = {8, 1, 1}};
    tv_error err;
    assert_int_equal(tv_vm_run_compute(vm, p, NULL, &cp, NULL, &err), TV_ERR_RUNTIME);
    assert_non_null(strstr(err.message, "instruction 3 (MOV)"));
    assert_non_null(strstr(err.message, "lane 3"));
    assert_non_null(strstr(err.message, "out of the declared range"));
    assert_int_equal(err.line, 10);
    tv_vm_program_destroy(p);
    /* a control program must say how many vertices it outputs */
    tv_status st = hv_try_program("TESS_CTRL\nEND\n", &err);
    assert_int_equal(st, TV_ERR_INVALID);
    assert_non_null(strstr(err.message, "TCS_VERTICES_OUT"));
    st = hv_try_program("TESS_CTRL\nPROPERTY TCS_VERTICES_OUT 33\nEND\n", &err);
    assert_int_equal(st, TV_ERR_UNSUPPORTED);
    /* unbalanced control flow is refused at load time */
    st = hv_try_program("COMP\nDCL TEMP[0]\nUIF TEMP[0].xxxx\nEND\n", &err);
    assert_true(st != TV_OK);
    /* a stage mismatch is an argument error */
    p = hv_program(vm, "FRAG\nEND\n");
    assert_int_equal(tv_vm_run_compute(vm, p, NULL, NULL, NULL, &err), TV_ERR_ARG);
    tv_vm_program_destroy(p);
    /* memory limit */
    tv_vm_limits lim = {.max_memory = 1000};
    tv_vm_set_limits(vm, &lim);
    p = hv_program(vm, "COMP\nDCL TEMP[0..99]\nEND\n");
    assert_int_equal(tv_vm_run_compute(vm, p, NULL, NULL, NULL, &err), TV_ERR_NOMEM);
    tv_vm_program_destroy(p);
    tv_vm_destroy(vm);
}

typedef struct { int count; uint32_t last_add; bool saw_exec; } trace_state;

static void on_trace(void *user, const tv_vm_trace_event *ev)
{
    trace_state *ts = user;
    ts->count++;
    if (ev->opcode == TV_TGSI_OP_UADD) {
        ts->last_add = ev->dst_after[0][0];
        assert_int_equal(ev->dst_after[0][0], ev->src[0][0] + ev->src[1][0]);
    }
    if (ev->exec_mask == 0xffu) ts->saw_exec = true;
}

static void t_trace(void **s)
{
    (void)s;
    const char *text =
        "COMP\nDCL SV[0], THREAD_ID\nDCL TEMP[0]\nIMM[0] UINT32 {100, 0, 0, 0}\n"
        "UADD TEMP[0].x, SV[0].xxxx, IMM[0].xxxx\nEND\n";
    tv_vm *vm = tv_vm_create(&(tv_vm_config){.threads = 2}, NULL);
    tv_vm_program *p = hv_program(vm, text);
    trace_state ts = {0, 0, false};
    tv_vm_trace tr = {on_trace, &ts, {5, 1, 0}};
    tv_vm_set_trace(vm, &tr);
    tv_vm_compute_params cp = {.grid = {1, 2, 1}, .block = {8, 1, 1}};
    tv_error err;
    assert_int_equal(tv_vm_run_compute(vm, p, NULL, &cp, NULL, &err), TV_OK);
    assert_int_equal(ts.count, 2);           /* UADD and END of the one traced thread */
    assert_int_equal(ts.last_add, 105);
    assert_true(ts.saw_exec);
    tv_vm_program_destroy(p);
    tv_vm_destroy(vm);
}

static void t_interp_fbfetch(void **s)
{
    (void)s;
    const char *text =
        "FRAG\nDCL IN[0], GENERIC[0], LINEAR\nDCL OUT[0], COLOR\nDCL TEMP[0..2]\n"
        "IMM[0] FLT32 {0.25, -0.5, 0.0, 0.0}\n"
        "INTERP_OFFSET TEMP[0], IN[0], IMM[0]\n"
        "INTERP_CENTROID TEMP[1], IN[0]\n"
        "FBFETCH TEMP[2], OUT[0]\n"
        "MOV OUT[0].x, TEMP[0].xxxx\nMOV OUT[0].y, TEMP[0].yyyy\n"
        "ADD OUT[0].z, TEMP[1].xxxx, -IN[0].xxxx\nMOV OUT[0].w, TEMP[2].wwww\nEND\n";
    enum { W = 8, H = 4 };
    uint32_t c[W * H * 4];
    for (int i = 0; i < W * H; i++) c[i * 4 + 3] = tv_f32_bits((float)i);
    tv_vm_frag_params fp;
    tv_vm_frag_params_fullscreen(&fp, W, H, TV_VM_PRIM_RECT);
    for (int v = 0; v < 4; v++) {
        fp.vertices[v].attr[0][0] = tv_f32_bits(fp.vertices[v].x);
        fp.vertices[v].attr[0][1] = tv_f32_bits(fp.vertices[v].y);
    }
    fp.color[0].data = c;
    tv_error err;
    if (hv_frag_p(text, &fp, NULL, &err) != TV_OK) fail_msg("%s", err.message);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            const uint32_t *p = c + (y * W + x) * 4;
            assert_true(fabsf(tv_bits_f32(p[0]) - (x + 0.75f)) < 1e-5f);
            assert_true(fabsf(tv_bits_f32(p[1]) - (y + 0.0f)) < 1e-5f);
            assert_true(tv_bits_f32(p[2]) == 0.0f);
            assert_true(tv_bits_f32(p[3]) == (float)(y * W + x));
        }
}

/* A larger job at 1 and 3 threads: compute grid and fragment target bit-identical. */
static void t_threads_identical(void **s)
{
    (void)s;
    const char *comp =
        "COMP\nPROPERTY CS_FIXED_BLOCK_WIDTH 16\nPROPERTY CS_FIXED_BLOCK_HEIGHT 4\n"
        "PROPERTY CS_FIXED_BLOCK_DEPTH 1\n"
        "DCL SV[0], THREAD_ID\nDCL SV[1], BLOCK_ID\nDCL BUFFER[0]\nDCL TEMP[0..3]\n"
        "IMM[0] UINT32 {16, 4, 2654435761, 4}\nIMM[1] UINT32 {64, 13, 0, 0}\n"
        "UMAD TEMP[0].x, SV[1].xxxx, IMM[0].xxxx, SV[0].xxxx\n"
        "UMAD TEMP[0].y, SV[1].yyyy, IMM[0].yyyy, SV[0].yyyy\n"
        "UMUL TEMP[1].x, TEMP[0].xxxx, IMM[0].zzzz\nXOR TEMP[1].x, TEMP[1].xxxx, TEMP[0].yyyy\n"
        "U2F TEMP[2].x, TEMP[1].xxxx\nSIN TEMP[2].x, TEMP[2].xxxx\n"
        "UMAD TEMP[3].x, TEMP[0].yyyy, IMM[1].xxxx, TEMP[0].xxxx\n"
        "UMUL TEMP[3].x, TEMP[3].xxxx, IMM[0].wwww\n"
        "STORE BUFFER[0].x, TEMP[3].xxxx, TEMP[2].xxxx\nEND\n";
    const char *frag =
        "FRAG\nDCL IN[0], POSITION, LINEAR\nDCL OUT[0], COLOR\nDCL TEMP[0]\n"
        "IMM[0] FLT32 {0.01, 3.0, 0.0, 0.0}\n"
        "MUL TEMP[0], IN[0].xyxy, IMM[0].xxxx\nSIN TEMP[0].x, TEMP[0].xxxx\n"
        "DDX TEMP[0].z, TEMP[0].xxxx\nMOV OUT[0], TEMP[0]\nEND\n";
    enum { GX = 4, GY = 16, W = 61, H = 43 };
    static uint32_t b1[64 * 64], b3[64 * 64], c1[W * H * 4], c3[W * H * 4];
    uint32_t grid[3] = {GX, GY, 1};
    tv_error err;
    hv_threads = 1;
    if (hv_compute(comp, grid, NULL, b1, sizeof b1, &err) != TV_OK) fail_msg("%s", err.message);
    if (hv_frag(frag, W, H, NULL, c1, &err) != TV_OK) fail_msg("%s", err.message);
    hv_threads = 3;
    if (hv_compute(comp, grid, NULL, b3, sizeof b3, &err) != TV_OK) fail_msg("%s", err.message);
    if (hv_frag(frag, W, H, NULL, c3, &err) != TV_OK) fail_msg("%s", err.message);
    hv_threads = 1;
    assert_memory_equal(b1, b3, sizeof b1);
    assert_memory_equal(c1, c3, sizeof c1);
    /* spot check against C */
    for (uint32_t y = 0; y < 64; y += 7)
        for (uint32_t x = 0; x < 64; x += 5)
            assert_true(tv_bits_f32(b1[y * 64 + x]) == sinf((float)((x * 2654435761u) ^ y)));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_warp_ops), cmocka_unit_test(t_subgroup_svs_clock),
        cmocka_unit_test(t_constbuf), cmocka_unit_test(t_faults), cmocka_unit_test(t_robust_indexing), cmocka_unit_test(t_trace),
        cmocka_unit_test(t_interp_fbfetch), cmocka_unit_test(t_threads_identical),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
