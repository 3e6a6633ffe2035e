/* The JIT (docs/jit.md): the modes and their errors, what it declines, and that compiled
 * runs fault, count and compute as the interpreter does where the random programs of
 * tests/tv reach rarely (limits, deep calls, NaN operands in every lane). Bit-identity on
 * random programs is tests/tv/test_tv_random.c's job. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helper_vm.h"
#include "vm/vm_jit.h"
#include "vm/vm_run.h"
#include "vm/vm_stage_frag.h"
#include "vm/vm_stage_frag_store.h"

static tv_vm *engine(uint8_t jit, const tv_vm_limits *lim)
{
    tv_vm_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.jit = jit;
    if (lim)
        cfg.limits = *lim;
    tv_error err;
    tv_vm *vm = tv_vm_create(&cfg, &err);
    if (!vm)
        fail_msg("tv_vm_create: %s", err.message);
    return vm;
}

/* Run `text` (COMP, one group of 64 threads, BUFFER[0] of 64 x 4 words) interpreted and
 * compiled; both must give the same status, message, counts and buffer. Returns whether
 * the JIT compiled it. */
static bool same_both_ways(const char *text, const tv_vm_limits *lim, tv_status want)
{
    tv_vm *vms[2] = {engine(TV_VM_JIT_OFF, lim), engine(TV_VM_JIT_ALWAYS, lim)};
    uint32_t buf[2][256];
    tv_vm_stats stats[2];
    tv_error err[2];
    tv_status st[2];
    bool compiled = false;
    for (int k = 0; k < 2; k++) {
        tv_vm_program *p = hv_program(vms[k], text);
        for (unsigned i = 0; i < 256; i++)
            buf[k][i] = i * 0x9e3779b9u;
        memset(&err[k], 0, sizeof err[k]);
        st[k] = hv_run_group(vms[k], p, 64, buf[k], sizeof buf[k], &stats[k], &err[k]);
        if (k == 1) {
            char why[256];
            compiled = vm_jit_compile_now(p, why, sizeof why) == VM_JIT_READY;
        }
        tv_vm_program_destroy(p);
        tv_vm_destroy(vms[k]);
    }
    assert_int_equal(st[0], want);
    assert_int_equal(st[0], st[1]);
    assert_string_equal(err[0].message, err[1].message);
    assert_int_equal(stats[0].instructions, stats[1].instructions);
    assert_memory_equal(buf[0], buf[1], sizeof buf[0]);
    return compiled;
}

static void t_modes(void **s)
{
    (void)s;
    uint8_t m = 9;
    assert_int_equal(tv_vm_jit_mode_from_name("auto", &m), TV_OK);
    assert_int_equal(m, TV_VM_JIT_AUTO);
    assert_int_equal(tv_vm_jit_mode_from_name("always", &m), TV_OK);
    assert_int_equal(m, TV_VM_JIT_ALWAYS);
    assert_int_equal(tv_vm_jit_mode_from_name("off", &m), TV_OK);
    assert_int_equal(m, TV_VM_JIT_OFF);
    assert_int_equal(tv_vm_jit_mode_from_name("fast", &m), TV_ERR_ARG);
    assert_int_equal(tv_vm_jit_mode_from_name(NULL, &m), TV_ERR_ARG);
    tv_vm_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.jit = 7;
    tv_error err;
    assert_null(tv_vm_create(&cfg, &err));
    assert_int_equal(err.code, TV_ERR_ARG);
    assert_non_null(strstr(err.message, "jit"));
    /* the environment names the mode of AUTO engines; a bad name is an error */
    setenv("TEXVM_JIT", "sometimes", 1);
    memset(&cfg, 0, sizeof cfg);
    assert_null(tv_vm_create(&cfg, &err));
    assert_non_null(strstr(err.message, "TEXVM_JIT=sometimes"));
    unsetenv("TEXVM_JIT");
    cfg.jit = TV_VM_JIT_ALWAYS;
    tv_vm *vm = tv_vm_create(&cfg, &err);
    if (tv_vm_jit_available()) {
        assert_non_null(vm);
        tv_vm_destroy(vm);
    } else {
        assert_null(vm);
        assert_int_equal(err.code, TV_ERR_UNSUPPORTED);
    }
}

static void t_declines_barriers(void **s)
{
    (void)s;
    if (!tv_vm_jit_available())
        skip();
    tv_vm *vm = engine(TV_VM_JIT_ALWAYS, NULL);
    tv_vm_program *p = hv_program(vm, "COMP\nPROPERTY CS_FIXED_BLOCK_WIDTH 64\n"
                                      "PROPERTY CS_FIXED_BLOCK_HEIGHT 1\n"
                                      "PROPERTY CS_FIXED_BLOCK_DEPTH 1\n"
                                      "  0: BARRIER\n  1: END\n");
    char why[256];
    assert_int_equal(vm_jit_compile_now(p, why, sizeof why), VM_JIT_DECLINED);
    assert_non_null(strstr(why, "not compiled"));
    /* and it still runs, interpreted */
    tv_error err;
    assert_int_equal(hv_run_group(vm, p, 64, NULL, 0, NULL, &err), TV_OK);
    tv_vm_program_destroy(p);
    tv_vm_destroy(vm);
}

/* Programs longer than VM_JIT_MAX_UOPS micro-ops are declined (compile time), and run
 * interpreted. */
static void t_declines_long_programs(void **s)
{
    (void)s;
    if (!tv_vm_jit_available())
        skip();
    size_t cap = 64 + (VM_JIT_MAX_UOPS + 8) * 48;
    char *text = malloc(cap);
    assert_non_null(text);
    size_t at = (size_t)snprintf(text, cap, "COMP\nDCL TEMP[0]\nIMM[0] UINT32 {1, 0, 0, 0}\n");
    for (unsigned i = 0; i < VM_JIT_MAX_UOPS + 1; i++)
        at += (size_t)snprintf(text + at, cap - at, "UADD TEMP[0].x, TEMP[0].xxxx, IMM[0].xxxx\n");
    snprintf(text + at, cap - at, "END\n");
    tv_vm *vm = engine(TV_VM_JIT_ALWAYS, NULL);
    tv_vm_program *p = hv_program(vm, text);
    char why[256];
    assert_int_equal(vm_jit_compile_now(p, why, sizeof why), VM_JIT_DECLINED);
    assert_non_null(strstr(why, "micro-ops (at most"));
    tv_error err;
    assert_int_equal(hv_run_group(vm, p, 32, NULL, 0, NULL, &err), TV_OK);
    tv_vm_program_destroy(p);
    tv_vm_destroy(vm);
    free(text);
}

/* The compiled-code budget (VM_JIT_CODE_BUDGET): a compiled program counts its object
 * file and the per-program overhead while it lives; once the live code reaches the
 * budget the next program is declined by name (and runs interpreted, the same bits);
 * destroying a program gives its bytes back, and the next one compiles again. */
static void t_code_budget(void **s)
{
    (void)s;
    if (!tv_vm_jit_available())
        skip();
    static const char text[] = "COMP\nPROPERTY CS_FIXED_BLOCK_WIDTH 64\n"
                               "PROPERTY CS_FIXED_BLOCK_HEIGHT 1\n"
                               "PROPERTY CS_FIXED_BLOCK_DEPTH 1\n"
                               "DCL SV[0], THREAD_ID\nDCL BUFFER[0]\nDCL TEMP[0]\n"
                               "IMM[0] UINT32 {4, 7, 0, 0}\n"
                               "  0: UMUL TEMP[0].x, SV[0].xxxx, IMM[0].xxxx\n"
                               "  1: UADD TEMP[0].y, SV[0].xxxx, IMM[0].yyyy\n"
                               "  2: STORE BUFFER[0].x, TEMP[0].xxxx, TEMP[0].yyyy\n"
                               "  3: END\n";
    tv_vm *vm = engine(TV_VM_JIT_ALWAYS, NULL);
    vm_jit_stats st0, st1, st2, st3;
    vm_jit_get_stats(&st0);
    tv_vm_program *a = hv_program(vm, text);
    char why[256];
    assert_int_equal(vm_jit_compile_now(a, why, sizeof why), VM_JIT_READY);
    vm_jit_get_stats(&st1);
    uint64_t a_bytes = st1.code_bytes - st0.code_bytes;
    assert_true(a_bytes > VM_JIT_CODE_OVERHEAD);   /* an object file of some size */
    assert_true(a_bytes < VM_JIT_CODE_OVERHEAD + 65536);
    /* at the budget: the next program is declined, and still runs */
    vm_jit_set_code_budget(st1.code_bytes);
    tv_vm_program *b = hv_program(vm, text);
    assert_int_equal(vm_jit_compile_now(b, why, sizeof why), VM_JIT_DECLINED);
    assert_non_null(strstr(why, "compiled code is at its budget"));
    uint32_t buf[64];
    tv_error err;
    memset(&err, 0, sizeof err);
    assert_int_equal(hv_run_group(vm, b, 64, buf, sizeof buf, NULL, &err), TV_OK);
    for (unsigned i = 0; i < 64; i++)
        assert_int_equal(buf[i], i + 7);
    vm_jit_get_stats(&st2);
    assert_int_equal(st2.code_bytes, st1.code_bytes);
    /* a's code freed: room again */
    tv_vm_program_destroy(a);
    vm_jit_get_stats(&st3);
    assert_int_equal(st3.code_bytes, st1.code_bytes - a_bytes);
    tv_vm_program *c = hv_program(vm, text);
    assert_int_equal(vm_jit_compile_now(c, why, sizeof why), VM_JIT_READY);
    vm_jit_set_code_budget(0);
    tv_vm_program_destroy(b);
    tv_vm_program_destroy(c);
    vm_jit_get_stats(&st3);
    assert_int_equal(st3.code_bytes, st0.code_bytes);
    tv_vm_destroy(vm);
}

/* A loop counter whose lanes that left the loop never read it again is written in every
 * lane (vm_lower_lanes.c) and kept as one word by the compiled code (find_uniform); one
 * read after the loop, or a slot a continued lane reads in its next iteration, stays
 * masked. Expected values from the scalar loops below, per thread; the uniform slots
 * from the JIT's statistics. */
#define CS_HEAD "COMP\nPROPERTY CS_FIXED_BLOCK_WIDTH 64\nPROPERTY CS_FIXED_BLOCK_HEIGHT 1\n"  \
                "PROPERTY CS_FIXED_BLOCK_DEPTH 1\nDCL SV[0], THREAD_ID\nDCL BUFFER[0]\n"      \
                "DCL TEMP[0..4]\nIMM[0] UINT32 {7, 1, 0, 4}\n"
/* A loop over i = 0 .. (t & 7) - 1 for thread t: the count in TEMP[0].x, i in TEMP[1].x
 * (from 0), TEMP[2].x from 0; its body follows, from micro-op 8 */
#define LOOP_HEAD CS_HEAD \
    "  0: AND TEMP[0].x, SV[0].xxxx, IMM[0].xxxx\n"                                          \
    "  1: MOV TEMP[1].x, IMM[0].zzzz\n"                                                      \
    "  2: MOV TEMP[2].x, IMM[0].zzzz\n"                                                      \
    "  3: BGNLOOP\n"                                                                         \
    "  4:   USGE TEMP[3].x, TEMP[1].xxxx, TEMP[0].xxxx\n"                                    \
    "  5:   UIF TEMP[3].xxxx\n"                                                              \
    "  6:     BRK\n"                                                                         \
    "  7:   ENDIF\n"
/* thread t sums 0 .. (t & 7) - 1 in a loop whose counter no lane reads after it */
static const char sum_loop[] = LOOP_HEAD
    "  8:   UADD TEMP[2].x, TEMP[2].xxxx, TEMP[1].xxxx\n"
    "  9:   UADD TEMP[1].x, TEMP[1].xxxx, IMM[0].yyyy\n"
    " 10: ENDLOOP\n"
    " 11: UMUL TEMP[3].x, SV[0].xxxx, IMM[0].wwww\n"
    " 12: STORE BUFFER[0].x, TEMP[3].xxxx, TEMP[2].xxxx\n"
    " 13: END\n";

/* thread t sums float(i) + float(int(i)) for i = 0 .. (t & 7) - 1: the counter's U2F and
 * I2F, each converted as a scalar and broadcast (vm_jit_ops.c int_to_float) */
static const char float_loop[] = LOOP_HEAD
    "  8:   U2F TEMP[4].x, TEMP[1].xxxx\n"
    "  9:   I2F TEMP[3].y, TEMP[1].xxxx\n"
    " 10:   ADD TEMP[2].x, TEMP[2].xxxx, TEMP[4].xxxx\n"
    " 11:   ADD TEMP[2].x, TEMP[2].xxxx, TEMP[3].yyyy\n"
    " 12:   UADD TEMP[1].x, TEMP[1].xxxx, IMM[0].yyyy\n"
    " 13: ENDLOOP\n"
    " 14: F2U TEMP[2].x, TEMP[2].xxxx\n"
    " 15: UMUL TEMP[3].x, SV[0].xxxx, IMM[0].wwww\n"
    " 16: STORE BUFFER[0].x, TEMP[3].xxxx, TEMP[2].xxxx\n"
    " 17: END\n";

/* Runs TEXT compiled and interpreted (the same bits) and interpreted against WANT; returns
 * what compiling it added to the uniform counts of vm_jit_stats. */
static vm_jit_stats uniform_run(const char *text, const uint32_t want[64])
{
    vm_jit_stats a, b;
    vm_jit_get_stats(&a);
    assert_true(same_both_ways(text, NULL, TV_OK));
    vm_jit_get_stats(&b);
    tv_vm *vm = engine(TV_VM_JIT_OFF, NULL);
    tv_vm_program *p = hv_program(vm, text);
    uint32_t buf[64];
    tv_error err;
    memset(&err, 0, sizeof err);
    assert_int_equal(hv_run_group(vm, p, 64, buf, sizeof buf, NULL, &err), TV_OK);
    for (unsigned t = 0; t < 64; t++)
        if (buf[t] != want[t])
            fail_msg("thread %u: %u, want %u", t, buf[t], want[t]);
    tv_vm_program_destroy(p);
    tv_vm_destroy(vm);
    vm_jit_stats d;
    memset(&d, 0, sizeof d);
    d.uniform_slots = b.uniform_slots - a.uniform_slots;
    d.uniform_scalar = b.uniform_scalar - a.uniform_scalar;
    d.uniform_converts = b.uniform_converts - a.uniform_converts;
    d.uniform_selects = b.uniform_selects - a.uniform_selects;
    return d;
}

static void t_uniform_counter(void **s)
{
    (void)s;
    if (!tv_vm_jit_available())
        skip();
    /* the same loop reading the counter after it (lane-wise: a slot a handler names is
       never unmasked) */
    static const char count[] = CS_HEAD
        "  0: AND TEMP[0].x, SV[0].xxxx, IMM[0].xxxx\n"
        "  1: MOV TEMP[1].x, IMM[0].zzzz\n"
        "  2: BGNLOOP\n"
        "  3:   USGE TEMP[3].x, TEMP[1].xxxx, TEMP[0].xxxx\n"
        "  4:   UIF TEMP[3].xxxx\n"
        "  5:     BRK\n"
        "  6:   ENDIF\n"
        "  7:   UADD TEMP[1].x, TEMP[1].xxxx, IMM[0].yyyy\n"
        "  8: ENDLOOP\n"
        "  9: UADD TEMP[2].x, TEMP[1].xxxx, IMM[0].zzzz\n"
        " 10: UMUL TEMP[3].x, SV[0].xxxx, IMM[0].wwww\n"
        " 11: STORE BUFFER[0].x, TEMP[3].xxxx, TEMP[2].xxxx\n"
        " 12: END\n";
    /* t = i after a CONT: the lanes that continued keep their t for the next iteration */
    static const char cont[] = CS_HEAD
        "  0: AND TEMP[0].x, SV[0].xxxx, IMM[0].xxxx\n"
        "  1: MOV TEMP[1].x, IMM[0].zzzz\n"
        "  2: MOV TEMP[2].x, IMM[0].zzzz\n"
        "  3: MOV TEMP[4].x, IMM[0].zzzz\n"
        "  4: BGNLOOP\n"
        "  5:   UADD TEMP[2].x, TEMP[2].xxxx, TEMP[4].xxxx\n"
        "  6:   USGE TEMP[3].x, TEMP[1].xxxx, IMM[0].wwww\n"
        "  7:   UIF TEMP[3].xxxx\n"
        "  8:     BRK\n"
        "  9:   ENDIF\n"
        " 10:   UADD TEMP[1].x, TEMP[1].xxxx, IMM[0].yyyy\n"
        " 11:   USLT TEMP[3].x, TEMP[1].xxxx, TEMP[0].xxxx\n"
        " 12:   UIF TEMP[3].xxxx\n"
        " 13:     CONT\n"
        " 14:   ENDIF\n"
        " 15:   MOV TEMP[4].x, TEMP[1].xxxx\n"
        " 16: ENDLOOP\n"
        " 17: UMUL TEMP[3].x, SV[0].xxxx, IMM[0].wwww\n"
        " 18: STORE BUFFER[0].x, TEMP[3].xxxx, TEMP[2].xxxx\n"
        " 19: END\n";
    uint32_t want_sum[64], want_count[64], want_cont[64];
    for (uint32_t t = 0; t < 64; t++) {
        uint32_t n = t & 7, acc = 0, i, tv = 0;
        for (i = 0; i < n; i++)
            acc += i;
        want_sum[t] = acc;
        want_count[t] = n;
        for (acc = 0, i = 0;;) {
            acc += tv;
            if (i >= 4)
                break;
            i++;
            if (i < n)
                continue;
            tv = i;
        }
        want_cont[t] = acc;
    }
    vm_jit_stats d = uniform_run(sum_loop, want_sum);
    assert_int_equal(d.uniform_slots, 1);     /* TEMP[1].x */
    /* its two stores, the zero and the increment, as scalar operations (vm_jit_build.c
       lane0), not as lane 0 of a vector add */
    assert_int_equal(d.uniform_scalar, 2);
    d = uniform_run(count, want_count);
    assert_int_equal(d.uniform_slots, 0);
    assert_int_equal(d.uniform_scalar, 0);
    /* the counter here: a continued lane reads it at the loop's top (masked, like t) */
    d = uniform_run(cont, want_cont);
    assert_int_equal(d.uniform_slots, 0);
    assert_int_equal(d.uniform_scalar, 0);
    assert_int_equal(d.uniform_converts, 0);
    /* the counter's conversions (the loop workload's float(i)): same bits both ways, and
       each converted once as a scalar */
    uint32_t want_float[64];
    for (unsigned t = 0; t < 64; t++)
        want_float[t] = 2 * want_sum[t];
    /* (the counter and its two conversions: each the same word in every lane) */
    d = uniform_run(float_loop, want_float);
    assert_int_equal(d.uniform_slots, 3);
    assert_int_equal(d.uniform_converts, 2);
}

/* The run counts stay two scalars in compiled code (vm_internal.h, vm_warp.uops): LLVM's
 * SLP vectorizer paired them into one <2 x i64> when the warp held them side by side,
 * and a loop's count then moved between a vector and a general register every
 * iteration. The optimised module (TEXVM_JIT_DUMP) of a loop holds no vector of i64. */
static void t_counts_scalar(void **s)
{
    (void)s;
    if (!tv_vm_jit_available())
        skip();
    char path[] = "/tmp/texvm_jit_counts_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    const char *old = getenv("TEXVM_JIT_DUMP");
    char *keep = old ? strdup(old) : NULL;
    setenv("TEXVM_JIT_DUMP", path, 1);
    tv_vm *vm = engine(TV_VM_JIT_ALWAYS, NULL);
    tv_vm_program *p = hv_program(vm, sum_loop);
    char why[256];
    assert_int_equal(vm_jit_compile_now(p, why, sizeof why), VM_JIT_READY);
    if (keep)
        setenv("TEXVM_JIT_DUMP", keep, 1);
    else
        unsetenv("TEXVM_JIT_DUMP");
    free(keep);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char line[4096];
    unsigned lines = 0, loads = 0;
    while (fgets(line, sizeof line, f)) {
        lines++;
        if (strstr(line, "x i64>"))
            fail_msg("a vector of i64 in the compiled loop: %s", line);
        loads += strstr(line, "load i64") != NULL;
    }
    fclose(f);
    remove(path);
    assert_true(lines > 20);
    assert_true(loads >= 2);   /* the two counts, loaded as scalars */
    tv_vm_program_destroy(p);
    tv_vm_destroy(vm);
}

/* A choice on a condition the same in every lane, inside a loop (the loop workload's
 * UCMP on the counter's parity): the compiled code gives its select the scalar
 * condition (vm_jit_uniform_select.c), so the code generator branches instead of
 * blending; the values are the interpreter's. Thread t adds 4 for each odd i below
 * t & 7, and 1 for each even one under the execution mask of a second choice. */
static void t_uniform_selects(void **s)
{
    (void)s;
    if (!tv_vm_jit_available())
        skip();
    static const char parity[] = LOOP_HEAD
        "  8:   AND TEMP[4].z, TEMP[1].xxxx, IMM[0].yyyy\n"
        "  9:   UADD TEMP[4].x, TEMP[2].xxxx, IMM[0].wwww\n"
        " 10:   UADD TEMP[4].y, TEMP[2].xxxx, IMM[0].yyyy\n"
        " 11:   UCMP TEMP[2].x, TEMP[4].zzzz, TEMP[4].xxxx, TEMP[4].yyyy\n"
        " 12:   UADD TEMP[1].x, TEMP[1].xxxx, IMM[0].yyyy\n"
        " 13: ENDLOOP\n"
        " 14: UMUL TEMP[3].x, SV[0].xxxx, IMM[0].wwww\n"
        " 15: STORE BUFFER[0].x, TEMP[3].xxxx, TEMP[2].xxxx\n"
        " 16: END\n";
    uint32_t want[64];
    for (uint32_t t = 0; t < 64; t++) {
        uint32_t acc = 0;
        for (uint32_t i = 0; i < (t & 7); i++)
            acc += (i & 1) ? 4 : 1;
        want[t] = acc;
    }
    assert_true(uniform_run(parity, want).uniform_selects > 0);
}

/* the loop, budget and call-depth faults of compiled code: same message, same lane */
static void t_faults(void **s)
{
    (void)s;
    if (!tv_vm_jit_available())
        skip();
    const char *loop =
        "COMP\nDCL SV[0], THREAD_ID\nDCL TEMP[0]\nIMM[0] UINT32 {1, 0, 0, 0}\n"
        "  0: MOV TEMP[0].x, SV[0].xxxx\n"
        "  1: BGNLOOP\n"
        "  2:   UADD TEMP[0].x, TEMP[0].xxxx, IMM[0].xxxx\n"
        "  3: ENDLOOP\n"
        "  4: END\n";
    tv_vm_limits lim;
    memset(&lim, 0, sizeof lim);
    lim.max_loop_iterations = 40;
    assert_true(same_both_ways(loop, &lim, TV_ERR_RUNTIME));
    memset(&lim, 0, sizeof lim);
    lim.max_instructions = 333;
    assert_true(same_both_ways(loop, &lim, TV_ERR_RUNTIME));
    /* three nested calls with a depth limit of two */
    const char *calls =
        "COMP\nDCL TEMP[0]\n"
        "  0: CAL :2\n"
        "  1: END\n"
        "  2: BGNSUB\n"
        "  3:   CAL :5\n"
        "  4: ENDSUB\n"
        "  5: BGNSUB\n"
        "  6:   CAL :8\n"
        "  7: ENDSUB\n"
        "  8: BGNSUB\n"
        "  9:   MOV TEMP[0].x, TEMP[0].yyyy\n"
        " 10: ENDSUB\n";
    memset(&lim, 0, sizeof lim);
    lim.max_call_depth = 2;
    assert_true(same_both_ways(calls, &lim, TV_ERR_RUNTIME));
    lim.max_call_depth = 3;
    assert_true(same_both_ways(calls, &lim, TV_OK));
}

/* Recursion is declined, and still faults at the depth limit, interpreted. */
static void t_recursion_declined(void **s)
{
    (void)s;
    if (!tv_vm_jit_available())
        skip();
    const char *text = "COMP\n  0: CAL :2\n  1: END\n  2: BGNSUB\n  3:   CAL :2\n"
                       "  4: ENDSUB\n";
    assert_false(same_both_ways(text, NULL, TV_ERR_RUNTIME));
}

/* Float operations on NaN operands in every lane, with the lane's thread id picking which
 * operands are NaN: the compiled code returns the NaN each lane of the handler returns
 * (vm_jit_ops.c calibration), for ADD, MUL, MAD, DIV, DP3, DP4, MIN, MAX. */
static void t_nan_operands(void **s)
{
    (void)s;
    if (!tv_vm_jit_available())
        skip();
    const char *text =
        "COMP\nDCL SV[0], THREAD_ID\nDCL BUFFER[0]\nDCL TEMP[0..5]\n"
        "IMM[0] UINT32 {2143289361, 4290772787, 16, 1}\n"
        "IMM[1] UINT32 {2, 4, 8, 0}\n"
        "  0: UMUL TEMP[4].x, SV[0].xxxx, IMM[0].zzzz\n"
        "  1: LOAD TEMP[0], BUFFER[0], TEMP[4].xxxx\n"
        /* lane bits choose NaN (payloads 0x7fc00011 / 0xffc00033) or the loaded word */
        "  2: AND TEMP[5], SV[0].xxxx, IMM[1]\n"
        "  3: USNE TEMP[5], TEMP[5], IMM[1].wwww\n"
        "  4: UCMP TEMP[1], TEMP[5], IMM[0].xxxx, TEMP[0]\n"
        "  5: AND TEMP[5].x, SV[0].xxxx, IMM[0].wwww\n"
        "  6: UCMP TEMP[2], TEMP[5].xxxx, IMM[0].yyyy, TEMP[0].wzyx\n"
        "  7: ADD TEMP[3], TEMP[1], TEMP[2]\n"
        "  8: MUL TEMP[3].xy, TEMP[3].xyyy, TEMP[2].yxxx\n"
        "  9: MAD TEMP[3].z, TEMP[1].zzzz, TEMP[2].xxxx, TEMP[1].wwww\n"
        " 10: DIV TEMP[3].w, TEMP[2].wwww, TEMP[1].xxxx\n"
        " 11: DP3 TEMP[0].x, TEMP[1].xyzz, TEMP[2].xyzz\n"
        " 12: DP4 TEMP[0].y, TEMP[2], TEMP[1]\n"
        " 13: MIN TEMP[0].z, TEMP[1].yyyy, TEMP[2].zzzz\n"
        " 14: MAX TEMP[0].w, TEMP[2].xxxx, TEMP[1].wwww\n"
        " 15: ADD TEMP[3], TEMP[3], TEMP[0]\n"
        " 16: STORE BUFFER[0].xyzw, TEMP[4].xxxx, TEMP[3]\n"
        " 17: END\n";
    assert_true(same_both_ways(text, NULL, TV_OK));
}

/* An integer converted (U2F) is never a NaN, so a float operation with it as an operand
 * needs no two-NaN rule (vm_jit_ops.c never_nan): inside the UIF, where only the lanes
 * that converted are active. After the ENDIF the other lanes join with the NaN they held,
 * and the ADDs meet two NaNs there: the compiled code must again return the NaN the
 * handler returns in each lane (the knowledge is forgotten at joins, vm_jit_internal.h). */
static void t_nan_after_join(void **s)
{
    (void)s;
    if (!tv_vm_jit_available())
        skip();
    const char *text =
        "COMP\nDCL SV[0], THREAD_ID\nDCL BUFFER[0]\nDCL TEMP[0..5]\n"
        "IMM[0] UINT32 {2143289361, 4290772787, 16, 1}\n"
        "  0: UMUL TEMP[4].x, SV[0].xxxx, IMM[0].zzzz\n"
        "  1: MOV TEMP[1], IMM[0].xxxx\n"
        "  2: MOV TEMP[2], IMM[0].yyyy\n"
        "  3: AND TEMP[5].x, SV[0].xxxx, IMM[0].wwww\n"
        "  4: UIF TEMP[5].xxxx\n"
        "  5:   U2F TEMP[1].xy, SV[0].xxxx\n"
        "  6:   ADD TEMP[3].x, TEMP[1].xxxx, TEMP[2].xxxx\n"
        "  7:   MUL TEMP[3].y, TEMP[2].xxxx, TEMP[1].yyyy\n"
        "  8: ENDIF\n"
        "  9: ADD TEMP[3].z, TEMP[1].xxxx, TEMP[2].xxxx\n"
        " 10: ADD TEMP[3].w, TEMP[2].yyyy, TEMP[1].yyyy\n"
        " 11: MUL TEMP[0].x, TEMP[1].xxxx, TEMP[2].zzzz\n"
        " 12: MUL TEMP[0].y, TEMP[2].wwww, TEMP[1].yyyy\n"
        " 13: ADD TEMP[3].xy, TEMP[3].xyyy, TEMP[0].xyyy\n"
        " 14: STORE BUFFER[0].xyzw, TEMP[4].xxxx, TEMP[3]\n"
        " 15: END\n";
    assert_true(same_both_ways(text, NULL, TV_OK));
}

/* SIN/COS: the inline polynomial, and the handler for lanes beyond its range */
static void t_trig_ranges(void **s)
{
    (void)s;
    if (!tv_vm_jit_available())
        skip();
    const char *text =
        "COMP\nDCL SV[0], THREAD_ID\nDCL BUFFER[0]\nDCL TEMP[0..2]\n"
        "IMM[0] UINT32 {16, 0, 0, 0}\n"
        "IMM[1] FLT32 {0.001, 100000.0, 3.0, 0.5}\n"
        "  0: UMUL TEMP[2].x, SV[0].xxxx, IMM[0].xxxx\n"
        "  1: LOAD TEMP[0], BUFFER[0], TEMP[2].xxxx\n"
        "  2: MUL TEMP[1], TEMP[0], IMM[1].xxxx\n"
        "  3: SIN TEMP[1].x, TEMP[1].xxxx\n"
        "  4: COS TEMP[1].y, TEMP[1].yyyy\n"
        "  5: MUL TEMP[0].zw, TEMP[0].zzww, IMM[1].yyyy\n"
        "  6: SIN TEMP[1].z, TEMP[0].zzzz\n"
        "  7: COS TEMP[1].w, TEMP[0].wwww\n"
        "  8: STORE BUFFER[0].xyzw, TEMP[2].xxxx, TEMP[1]\n"
        "  9: END\n";
    assert_true(same_both_ways(text, NULL, TV_OK));
}

enum { FW = 64, FH = 8 };

/* Run the FRAG program TEXT on a FW x FH rectangle interpreted (k = 0) and compiled (k = 1),
 * each on poisoned register files (filled with garbage at the run's start; each warp starts
 * on the last one's registers), SETUP filling the rectangle's vertices, into COLOR[k][0] and
 * COLOR[k][1]. Returns the inputs' tile passes (vm_frag_tile_passes) of the compiled run. */
static uint64_t frag_both_ways(const char *text, void (*setup)(tv_vm_frag_params *),
                               uint32_t color[2][2][FW * FH * 4])
{
    uint64_t passes = 0;
    for (int k = 0; k < 2; k++) {
        tv_vm *vm = engine(k ? TV_VM_JIT_ALWAYS : TV_VM_JIT_OFF, NULL);
        vm_debug_poison_registers(vm, true);
        tv_error err;
        memset(&err, 0, sizeof err);
        tv_vm_program *p = tv_vm_program_from_text(vm, text, strlen(text), "t", &err);
        if (!p)
            fail_msg("%s", err.message);
        tv_vm_frag_params *fp = calloc(1, sizeof *fp);
        assert_non_null(fp);
        tv_vm_frag_params_fullscreen(fp, FW, FH, TV_VM_PRIM_RECT);
        setup(fp);
        for (int t = 0; t < 2; t++) {
            memset(color[k][t], 0xa5, sizeof color[k][t]);
            fp->color[t].data = color[k][t];
        }
        const uint64_t before = vm_frag_tile_passes();
        assert_int_equal(tv_vm_run_fragment(vm, p, NULL, fp, NULL, &err), TV_OK);
        if (k) {
            passes = vm_frag_tile_passes() - before;
            char why[256];
            assert_int_equal(vm_jit_compile_now(p, why, sizeof why), VM_JIT_READY);
        }
        free(fp);
        tv_vm_program_destroy(p);
        tv_vm_destroy(vm);
    }
    return passes;
}

static void left_to_right(tv_vm_frag_params *fp)
{
    for (int v = 0; v < 4; v++)   /* IN[0].x: 0 at the left edge, 1 at the right */
        fp->vertices[v].attr[0][0] = tv_f32_bits((float)(v & 1));
}

/* A FRAG program's outputs start at zero in compiled code, which the stage then no longer
 * clears (vm_jit_build.c out_zero): OUT[0] written in the left half's lanes only, OUT[1]
 * never. On poisoned register files an output that began on the register file's values
 * would show; both ways must give zeros there. */
static void t_frag_outputs_start_zero(void **s)
{
    (void)s;
    if (!tv_vm_jit_available())
        skip();
    const char *text = "FRAG\n"
                       "DCL IN[0], GENERIC[0], LINEAR\n"
                       "DCL OUT[0], COLOR\n"
                       "DCL OUT[1], COLOR[1]\n"
                       "DCL TEMP[0]\n"
                       "IMM[0] FLT32 { 0.5, 1.0, 2.0, 3.0 }\n"
                       "  0: FSLT TEMP[0].x, IN[0].xxxx, IMM[0].xxxx\n"
                       "  1: UIF TEMP[0].xxxx\n"
                       "  2:   MOV OUT[0], IMM[0]\n"
                       "  3: ENDIF\n"
                       "  4: END\n";
    static uint32_t color[2][2][FW * FH * 4];
    frag_both_ways(text, left_to_right, color);
    static const float imm[4] = {0.5f, 1.0f, 2.0f, 3.0f};
    for (unsigned px = 0; px < FW * FH; px++)
        for (unsigned c = 0; c < 4; c++) {
            uint32_t want = px % FW < FW / 2 ? tv_f32_bits(imm[c]) : 0u;
            assert_int_equal(color[0][0][px * 4 + c], want);
            assert_int_equal(color[1][0][px * 4 + c], want);
            assert_int_equal(color[0][1][px * 4 + c], 0u);
            assert_int_equal(color[1][1][px * 4 + c], 0u);
        }
}

static void distinct_attrs(tv_vm_frag_params *fp)
{
    for (int v = 0; v < 4; v++)
        for (int a = 0; a < 3; a++)
            for (int c = 0; c < 4; c++)
                fp->vertices[v].attr[a][c] =
                    tv_f32_bits((float)(v + 1) * (float)(a * 4 + c + 1));
    fp->vertices[3].w = 2.0f;   /* perspective: not affine */
}

/* A warp whose inputs the tile walk's AVX-512 pass computes starts its compiled run on IN
 * registers that were not cleared (vm_stage_frag.c zero_regs, vm_run.in_by_pass): every
 * channel the program may read must still be the interpolated value or, for an IN register
 * that is no input (read through an address register), zero. Interpreted and compiled
 * runs must give the same colours; the first program's compiled run takes the pass. */
static void t_frag_inputs_by_pass(void **s)
{
    (void)s;
    if (!tv_vm_jit_available())
        skip();
    static uint32_t color[2][2][FW * FH * 4];
    /* IN[0].zw are never read: the pass writes .xy only */
    uint64_t passes = frag_both_ways("FRAG\n"
                                     "DCL IN[0].xy, GENERIC[0], PERSPECTIVE\n"
                                     "DCL OUT[0], COLOR\n"
                                     "  0: MOV OUT[0], IN[0].xyyx\n"
                                     "  1: END\n",
                                     distinct_attrs, color);
    if (vm_frag_store_isa() >= VM_STORE_AVX512)
        assert_true(passes > 0);   /* (the tiles the rectangle's diagonal crosses take the
                                      per-lane set-up: tests/vm/test_frag_tiles.c) */
    assert_memory_equal(color[0][0], color[1][0], sizeof color[0][0]);
    for (unsigned px = 0; px < FW * FH; px++) {   /* IN[0].x lies in [1, 4] */
        float x;
        memcpy(&x, &color[0][0][px * 4], sizeof x);
        assert_true(x >= 1.0f && x <= 4.0f);
    }
    /* IN[1] is no input: read through ADDR[0], it is the zero it starts at (code that
       addresses registers indirectly clears them all itself: vm_jit_build.c zero_init) */
    frag_both_ways("FRAG\n"
                   "DCL IN[0], GENERIC[0], PERSPECTIVE\n"
                   "DCL IN[2], GENERIC[2], PERSPECTIVE\n"
                   "DCL OUT[0], COLOR\n"
                   "DCL ADDR[0]\n"
                   "IMM[0] INT32 { 1, 0, 0, 0 }\n"
                   "  0: UARL ADDR[0].x, IMM[0].xxxx\n"
                   "  1: MOV OUT[0], IN[ADDR[0].x]\n"
                   "  2: END\n",
                   distinct_attrs, color);
    for (unsigned k = 0; k < 2; k++)
        for (unsigned i = 0; i < FW * FH * 4; i++)
            assert_int_equal(color[k][0][i], 0u);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_modes),
        cmocka_unit_test(t_declines_barriers),
        cmocka_unit_test(t_declines_long_programs),
        cmocka_unit_test(t_code_budget),
        cmocka_unit_test(t_faults),
        cmocka_unit_test(t_uniform_counter),
        cmocka_unit_test(t_counts_scalar),
        cmocka_unit_test(t_uniform_selects),
        cmocka_unit_test(t_recursion_declined),
        cmocka_unit_test(t_nan_operands),
        cmocka_unit_test(t_nan_after_join),
        cmocka_unit_test(t_trig_ranges),
        cmocka_unit_test(t_frag_outputs_start_zero),
        cmocka_unit_test(t_frag_inputs_by_pass),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
