/* Control flow with divergent lanes in every construct: IF/UIF/ELSE nesting, loops with
 * per-lane trip counts, BRK and CONT, nested loops, SWITCH with fallthrough and DEFAULT
 * anywhere, subroutines with early RET, plus the float IF rule (-0 false, NaN true).
 * Expected values come from the same logic written in C per lane. */
#include <stdio.h>
#include <stdlib.h>

#include "helper_vm.h"

#define PRO                                                                                \
    "COMP\n"                                                                               \
    "DCL SV[0], THREAD_ID\n"                                                               \
    "DCL BUFFER[0]\n"                                                                      \
    "DCL TEMP[0..9]\n"                                                                     \
    "IMM[0] UINT32 {4, 1, 0, 2}\n"                                                         \
    "IMM[1] UINT32 {100, 3, 5, 10}\n"                                                      \
    "IMM[2] UINT32 {1000, 7, 4294967295, 6}\n"                                             \
    "MOV TEMP[0].x, SV[0].xxxx\n"                                                          \
    "MOV TEMP[1].x, IMM[0].zzzz\n"
#define EPI                                                                                \
    "UMUL TEMP[9].x, TEMP[0].xxxx, IMM[0].xxxx\n"                                          \
    "STORE BUFFER[0].x, TEMP[9].xxxx, TEMP[1].xxxx\n"                                      \
    "END\n"

static void run(const char *body, uint32_t n, uint32_t *out)
{
    char text[8192];
    snprintf(text, sizeof text, PRO "%s" EPI, body);
    uint32_t block[3] = {n, 1, 1};
    tv_error err;
    memset(out, 0, n * 4);
    if (hv_compute(text, NULL, block, out, n * 4, &err) != TV_OK)
        fail_msg("%s\n%s", err.message, text);
}

static void t_if_else_nested(void **s)
{
    (void)s;
    /* if (t & 1) { x = t * 2; if (t & 2) x += 1000; } else { x = t + 100; } */
    const char *body =
        "AND TEMP[2].x, TEMP[0].xxxx, IMM[0].yyyy\n"
        "UIF TEMP[2].xxxx\n"
        "  UMUL TEMP[1].x, TEMP[0].xxxx, IMM[0].wwww\n"
        "  AND TEMP[3].x, TEMP[0].xxxx, IMM[0].wwww\n"
        "  UIF TEMP[3].xxxx\n"
        "    UADD TEMP[1].x, TEMP[1].xxxx, IMM[2].xxxx\n"
        "  ENDIF\n"
        "ELSE\n"
        "  UADD TEMP[1].x, TEMP[0].xxxx, IMM[1].xxxx\n"
        "ENDIF\n";
    uint32_t out[40];
    run(body, 40, out);
    for (uint32_t t = 0; t < 40; t++) {
        uint32_t x;
        if (t & 1) { x = t * 2; if (t & 2) x += 1000; } else x = t + 100;
        assert_int_equal(out[t], x);
    }
}

static void t_if_float_rule(void **s)
{
    (void)s;
    /* IF tests src.x != 0.0: -0.0 false, NaN true; all-false and all-true warps */
    const char *text =
        "COMP\nDCL SV[0], THREAD_ID\nDCL BUFFER[0]\nDCL TEMP[0..3]\n"
        "IMM[0] UINT32 {4, 1, 2, 0}\n"
        "IMM[1] FLT32 {-0.0, 0.0, 1.0, 2.0}\n"
        "IMM[2] UINT32 {2143289344, 0, 0, 0}\n"
        "MOV TEMP[1].x, IMM[0].wwww\n"
        "USEQ TEMP[2].x, SV[0].xxxx, IMM[0].wwww\n"
        "UCMP TEMP[3].x, TEMP[2].xxxx, IMM[1].xxxx, IMM[2].xxxx\n"  /* t0: -0, else NaN */
        "IF TEMP[3].xxxx\n"
        "  MOV TEMP[1].x, IMM[0].yyyy\n"
        "ELSE\n"
        "  MOV TEMP[1].x, IMM[0].zzzz\n"
        "ENDIF\n"
        "IF IMM[1].yyyy\n"           /* uniformly false: the body is branched over */
        "  MOV TEMP[1].x, IMM[1].wwww\n"
        "ENDIF\n"
        "UMUL TEMP[0].x, SV[0].xxxx, IMM[0].xxxx\n"
        "STORE BUFFER[0].x, TEMP[0].xxxx, TEMP[1].xxxx\n"
        "END\n";
    uint32_t out[4];
    uint32_t block[3] = {4, 1, 1};
    tv_error err;
    if (hv_compute(text, NULL, block, out, sizeof out, &err) != TV_OK) fail_msg("%s", err.message);
    assert_int_equal(out[0], 2);
    for (int t = 1; t < 4; t++) assert_int_equal(out[t], 1);
}

static void t_loop_brk_cont(void **s)
{
    (void)s;
    /* i = 0; sum = 0; loop { if (i >= t) break; i++; if (i % 3 == 0) continue; sum += i; } */
    const char *body =
        "MOV TEMP[2].x, IMM[0].zzzz\n"
        "BGNLOOP\n"
        "  USGE TEMP[3].x, TEMP[2].xxxx, TEMP[0].xxxx\n"
        "  UIF TEMP[3].xxxx\n"
        "    BRK\n"
        "  ENDIF\n"
        "  UADD TEMP[2].x, TEMP[2].xxxx, IMM[0].yyyy\n"
        "  UMOD TEMP[3].x, TEMP[2].xxxx, IMM[1].yyyy\n"
        "  USEQ TEMP[3].x, TEMP[3].xxxx, IMM[0].zzzz\n"
        "  UIF TEMP[3].xxxx\n"
        "    CONT\n"
        "  ENDIF\n"
        "  UADD TEMP[1].x, TEMP[1].xxxx, TEMP[2].xxxx\n"
        "ENDLOOP\n";
    uint32_t out[64];
    run(body, 64, out);
    for (uint32_t t = 0; t < 64; t++) {
        uint32_t i = 0, sum = 0;
        for (;;) {
            if (i >= t) break;
            i++;
            if (i % 3 == 0) continue;
            sum += i;
        }
        assert_int_equal(out[t], sum);
    }
}

static void t_nested_loops(void **s)
{
    (void)s;
    /* for a in 0..t%7: for b in 0..: if (b > a) break; if (b == 2) continue; x += a*10+b */
    const char *body =
        "UMOD TEMP[4].x, TEMP[0].xxxx, IMM[2].yyyy\n"
        "MOV TEMP[2].x, IMM[0].zzzz\n"
        "BGNLOOP\n"
        "  USGE TEMP[5].x, TEMP[2].xxxx, TEMP[4].xxxx\n"
        "  UIF TEMP[5].xxxx\n"
        "    BRK\n"
        "  ENDIF\n"
        "  MOV TEMP[3].x, IMM[0].zzzz\n"
        "  BGNLOOP\n"
        "    USLT TEMP[5].x, TEMP[2].xxxx, TEMP[3].xxxx\n"
        "    UIF TEMP[5].xxxx\n"
        "      BRK\n"
        "    ENDIF\n"
        "    UADD TEMP[3].x, TEMP[3].xxxx, IMM[0].yyyy\n"
        "    USEQ TEMP[5].x, TEMP[3].xxxx, IMM[1].yyyy\n"
        "    UIF TEMP[5].xxxx\n"
        "      CONT\n"
        "    ENDIF\n"
        "    UMUL TEMP[6].x, TEMP[2].xxxx, IMM[1].wwww\n"
        "    UADD TEMP[6].x, TEMP[6].xxxx, TEMP[3].xxxx\n"
        "    UADD TEMP[1].x, TEMP[1].xxxx, TEMP[6].xxxx\n"
        "  ENDLOOP\n"
        "  UADD TEMP[2].x, TEMP[2].xxxx, IMM[0].yyyy\n"
        "ENDLOOP\n";
    uint32_t out[32];
    run(body, 32, out);
    for (uint32_t t = 0; t < 32; t++) {
        uint32_t x = 0;
        for (uint32_t a = 0; a < t % 7; a++) {
            uint32_t b = 0;
            for (;;) {
                if (a < b) break;
                b++;
                if (b == 3) continue;
                x += a * 10 + b;
            }
        }
        assert_int_equal(out[t], x);
    }
}

static void t_switch(void **s)
{
    (void)s;
    /* switch (t % 5) { case 0: x += 1; case 1: x += 10; break;
                         default: x += 100; case 3: x += 1000; break; } x += 5 */
    const char *body =
        "UMOD TEMP[2].x, TEMP[0].xxxx, IMM[1].zzzz\n"
        "SWITCH TEMP[2].xxxx\n"
        "CASE IMM[0].zzzz\n"
        "  UADD TEMP[1].x, TEMP[1].xxxx, IMM[0].yyyy\n"
        "CASE IMM[0].yyyy\n"
        "  UADD TEMP[1].x, TEMP[1].xxxx, IMM[1].wwww\n"
        "  BRK\n"
        "DEFAULT\n"
        "  UADD TEMP[1].x, TEMP[1].xxxx, IMM[1].xxxx\n"
        "CASE IMM[1].yyyy\n"
        "  UADD TEMP[1].x, TEMP[1].xxxx, IMM[2].xxxx\n"
        "  BRK\n"
        "ENDSWITCH\n"
        "UADD TEMP[1].x, TEMP[1].xxxx, IMM[1].zzzz\n";
    uint32_t out[40];
    run(body, 40, out);
    static const uint32_t want[5] = {16, 15, 1105, 1005, 1105};
    for (uint32_t t = 0; t < 40; t++)
        assert_int_equal(out[t], want[t % 5]);
}

static void t_switch_in_loop(void **s)
{
    (void)s;
    /* loop i in 0..t%6: switch (i & 1) { case 0: x += 1; break; default: x += 10; if (i>=3) break-switch... }
       BRK inside SWITCH leaves the switch, the loop continues */
    const char *body =
        "UMOD TEMP[4].x, TEMP[0].xxxx, IMM[2].wwww\n"
        "MOV TEMP[2].x, IMM[0].zzzz\n"
        "BGNLOOP\n"
        "  USGE TEMP[5].x, TEMP[2].xxxx, TEMP[4].xxxx\n"
        "  UIF TEMP[5].xxxx\n"
        "    BRK\n"
        "  ENDIF\n"
        "  AND TEMP[6].x, TEMP[2].xxxx, IMM[0].yyyy\n"
        "  SWITCH TEMP[6].xxxx\n"
        "  CASE IMM[0].zzzz\n"
        "    UADD TEMP[1].x, TEMP[1].xxxx, IMM[0].yyyy\n"
        "    BRK\n"
        "  DEFAULT\n"
        "    UADD TEMP[1].x, TEMP[1].xxxx, IMM[1].wwww\n"
        "    BRK\n"
        "  ENDSWITCH\n"
        "  UADD TEMP[2].x, TEMP[2].xxxx, IMM[0].yyyy\n"
        "ENDLOOP\n";
    uint32_t out[32];
    run(body, 32, out);
    for (uint32_t t = 0; t < 32; t++) {
        uint32_t x = 0;
        for (uint32_t i = 0; i < t % 6; i++)
            x += (i & 1) ? 10 : 1;
        assert_int_equal(out[t], x);
    }
}

static void t_subroutine(void **s)
{
    (void)s;
    /* sub: x += 7; if (t & 1) return; x += 100;  main: call sub twice for t < 20 */
    const char *text =
        "COMP\nDCL SV[0], THREAD_ID\nDCL BUFFER[0]\nDCL TEMP[0..9]\n"
        "IMM[0] UINT32 {4, 1, 0, 20}\n"
        "IMM[1] UINT32 {7, 100, 0, 0}\n"
        "  0: MOV TEMP[0].x, SV[0].xxxx\n"
        "  1: MOV TEMP[1].x, IMM[0].zzzz\n"
        "  2: USLT TEMP[2].x, TEMP[0].xxxx, IMM[0].wwww\n"
        "  3: UIF TEMP[2].xxxx :6\n"
        "  4:   CAL :10\n"
        "  5:   CAL :10\n"
        "  6: ENDIF\n"
        "  7: UMUL TEMP[9].x, TEMP[0].xxxx, IMM[0].xxxx\n"
        "  8: STORE BUFFER[0].x, TEMP[9].xxxx, TEMP[1].xxxx\n"
        "  9: END\n"
        " 10: BGNSUB\n"
        " 11:   UADD TEMP[1].x, TEMP[1].xxxx, IMM[1].xxxx\n"
        " 12:   AND TEMP[3].x, TEMP[0].xxxx, IMM[0].yyyy\n"
        " 13:   UIF TEMP[3].xxxx :15\n"
        " 14:     RET\n"
        " 15:   ENDIF\n"
        " 16:   UADD TEMP[1].x, TEMP[1].xxxx, IMM[1].yyyy\n"
        " 17: ENDSUB\n";
    uint32_t out[32];
    uint32_t block[3] = {32, 1, 1};
    tv_error err;
    if (hv_compute(text, NULL, block, out, sizeof out, &err) != TV_OK)
        fail_msg("%s", err.message);
    for (uint32_t t = 0; t < 32; t++) {
        uint32_t x = 0;
        if (t < 20)
            for (int k = 0; k < 2; k++) { x += 7; if (!(t & 1)) x += 100; }
        assert_int_equal(out[t], x);
    }
}

static void t_ret_main_and_kill_free(void **s)
{
    (void)s;
    /* RET in main ends the lanes that take it */
    const char *body =
        "MOV TEMP[1].x, IMM[2].xxxx\n"
        "UMUL TEMP[9].x, TEMP[0].xxxx, IMM[0].xxxx\n"
        "STORE BUFFER[0].x, TEMP[9].xxxx, TEMP[1].xxxx\n"
        "AND TEMP[2].x, TEMP[0].xxxx, IMM[0].yyyy\n"
        "UIF TEMP[2].xxxx\n"
        "  RET\n"
        "ENDIF\n"
        "MOV TEMP[1].x, IMM[2].yyyy\n";
    uint32_t out[32];
    run(body, 32, out);
    for (uint32_t t = 0; t < 32; t++)
        assert_int_equal(out[t], (t & 1) ? 1000u : 7u);
}

static void t_budget(void **s)
{
    (void)s;
    const char *text =
        "COMP\nDCL TEMP[0]\nIMM[0] UINT32 {1, 0, 0, 0}\n"
        "  0: BGNLOOP :2\n"
        "  1:   UADD TEMP[0].x, TEMP[0].xxxx, IMM[0].xxxx\n"
        "  2: ENDLOOP :0\n"
        "  3: END\n";
    tv_vm *vm = tv_vm_create(NULL, NULL);
    tv_vm_limits lim = {.max_instructions = 10000};
    tv_vm_set_limits(vm, &lim);
    tv_vm_program *p = hv_program(vm, text);
    tv_error err;
    tv_status st = tv_vm_run_compute(vm, p, NULL, NULL, NULL, &err);
    assert_int_equal(st, TV_ERR_RUNTIME);
    assert_non_null(strstr(err.message, "instruction budget"));
    assert_non_null(strstr(err.message, "ENDLOOP"));
    assert_non_null(strstr(err.message, "lane 0"));
    lim.max_instructions = 0;
    lim.max_loop_iterations = 50;
    tv_vm_set_limits(vm, &lim);
    st = tv_vm_run_compute(vm, p, NULL, NULL, NULL, &err);
    assert_int_equal(st, TV_ERR_RUNTIME);
    assert_non_null(strstr(err.message, "loop iteration limit"));
    tv_vm_program_destroy(p);
    tv_vm_destroy(vm);
}

static void t_recursion_limit(void **s)
{
    (void)s;
    const char *text =
        "COMP\n"
        "  0: CAL :2\n"
        "  1: END\n"
        "  2: BGNSUB\n"
        "  3:   CAL :2\n"
        "  4: ENDSUB\n";
    tv_vm *vm = tv_vm_create(NULL, NULL);
    tv_vm_program *p = hv_program(vm, text);
    tv_error err;
    assert_int_equal(tv_vm_run_compute(vm, p, NULL, NULL, NULL, &err), TV_ERR_RUNTIME);
    assert_non_null(strstr(err.message, "call depth"));
    tv_vm_program_destroy(p);
    tv_vm_destroy(vm);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_if_else_nested), cmocka_unit_test(t_if_float_rule),
        cmocka_unit_test(t_loop_brk_cont), cmocka_unit_test(t_nested_loops),
        cmocka_unit_test(t_switch), cmocka_unit_test(t_switch_in_loop),
        cmocka_unit_test(t_subroutine), cmocka_unit_test(t_ret_main_and_kill_free),
        cmocka_unit_test(t_budget), cmocka_unit_test(t_recursion_limit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
