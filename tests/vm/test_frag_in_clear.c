/* The IN registers of a FRAG program on a worker whose register file another program left
 * full of values (workers and their registers are kept between runs: vm_dispatch.c
 * vm_worker_init). The stage writes the declared inputs' channels that the program reads
 * (vm_stage_frag.c values; vm_stage_frag_interp.h interp_tile, tile_chans); an IN register inside the file's range
 * that no DCL names is never written, and can only be read through ADDR (the validator
 * rejects a direct read). It then reads what the warp's clear left, 0 (vm_zero_regs: the
 * registers a program may read before writing start at 0), on the plain interpreter (the
 * reference), the optimised one and compiled code alike.
 *
 * Guards the IN part of vm_zero_regs, the clear of every interpreted warp and of every
 * compiled one of a program with indirect access (skipping it passed every other vm and tv
 * test). Skipping the IN part of vm_jit_clear_ranges' ranges is not visible:
 * vm_zero_regs_compiled serves only programs without indirect access, and each IN channel
 * those read is one the stage writes before the warp runs (mark_input_reads, tile_chans). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helper_vm.h"
#include "vm/vm_jit.h"

enum { W = 32, H = 8, FILL_TEMPS = 32 };

/* IN[1] lies between two declared inputs; read as IN[ADDR[0].x], ADDR[0].x = 1 */
static const char *const undeclared_text =
    "FRAG\n"
    "DCL IN[0], GENERIC[0], LINEAR\n"
    "DCL IN[2], GENERIC[2], LINEAR\n"
    "DCL OUT[0], COLOR\n"
    "DCL ADDR[0]\n"
    "IMM[0] INT32 { 1, 0, 0, 0 }\n"
    "  0: UARL ADDR[0].x, IMM[0].xxxx\n"
    "  1: MOV OUT[0], IN[ADDR[0].x]\n"
    "  2: END\n";

/* a .xy input's z and w: the stage interpolates every channel read, whatever the usage mask */
static const char *const xy_input_text =
    "FRAG\n"
    "DCL IN[0].xy, GENERIC[0], LINEAR\n"
    "DCL OUT[0], COLOR\n"
    "  0: MOV OUT[0], IN[0].zwzw\n"
    "  1: END\n";

/* IN[0] and IN[2] of every vertex (constant, so interpolation gives them exactly) */
static const float attr0[4] = {0.25f, 0.5f, 0.75f, 1.0f};
static const float attr2[4] = {2.5f, 3.5f, 4.5f, 5.5f};

static void run(tv_vm *vm, tv_vm_program *p, uint32_t *color)
{
    tv_vm_frag_params *fp = calloc(1, sizeof *fp);
    assert_non_null(fp);
    tv_vm_frag_params_fullscreen(fp, W, H, TV_VM_PRIM_RECT);
    for (int v = 0; v < 4; v++)
        for (int c = 0; c < 4; c++) {
            fp->vertices[v].attr[0][c] = tv_f32_bits(attr0[c]);
            fp->vertices[v].attr[2][c] = tv_f32_bits(attr2[c]);
        }
    memset(color, 0xa5, (size_t)W * H * 16);
    fp->color[0].data = color;
    tv_error err;
    memset(&err, 0, sizeof err);
    assert_int_equal(tv_vm_run_fragment(vm, p, NULL, fp, NULL, &err), TV_OK);
    free(fp);
}

/* A FRAG program that leaves 123.0 + IN[0] in TEMP[0..FILL_TEMPS-1] (every slot of the
 * programs above lies among them), run interpreted on VM so its worker keeps them. */
static void fill_registers(tv_vm *vm)
{
    static char text[8192];
    int n = snprintf(text, sizeof text,
                     "FRAG\nDCL IN[0], GENERIC[0], LINEAR\nDCL OUT[0], COLOR\n"
                     "DCL TEMP[0..%d]\nIMM[0] FLT32 { 123.0, 123.0, 123.0, 123.0 }\n",
                     FILL_TEMPS - 1);
    for (int k = 0; k < FILL_TEMPS; k++)
        n += snprintf(text + n, sizeof text - (size_t)n, "ADD TEMP[%d], IN[0], IMM[0]\n", k);
    for (int k = 1; k < FILL_TEMPS; k++)   /* every TEMP read: none is dead */
        n += snprintf(text + n, sizeof text - (size_t)n, "ADD TEMP[0], TEMP[0], TEMP[%d]\n", k);
    snprintf(text + n, sizeof text - (size_t)n, "MOV OUT[0], TEMP[0]\nEND\n");
    tv_vm_program *p = hv_program(vm, text);
    static uint32_t color[W * H * 4];
    run(vm, p, color);
    assert_true(tv_bits_f32(color[0]) > 123.0f * FILL_TEMPS);   /* (it ran) */
    tv_vm_program_destroy(p);
}

/* TEXT's colour output on the plain interpreter (a fresh engine), and after
 * fill_registers on the same engine interpreted (optimised) and compiled; every pixel of
 * each must be WANT. */
static void check(const char *text, const float want[4])
{
    static uint32_t color[W * H * 4];
    for (int k = 0; k < 3; k++) {
        if (k == 2 && !tv_vm_jit_available())
            break;
        tv_vm_config cfg;
        memset(&cfg, 0, sizeof cfg);
        cfg.plain = k == 0;
        /* k 2: AUTO, so fill_registers' short run stays interpreted (its TEMPs reach the
           register file) and only TEXT, compiled now, runs compiled */
        cfg.jit = k == 1 ? TV_VM_JIT_OFF : TV_VM_JIT_AUTO;
        tv_error err;
        tv_vm *vm = tv_vm_create(&cfg, &err);
        if (!vm)
            fail_msg("tv_vm_create: %s", err.message);
        if (k)
            fill_registers(vm);
        tv_vm_program *p = hv_program(vm, text);
        if (k == 2) {
            char why[256];
            if (vm_jit_compile_now(p, why, sizeof why) != VM_JIT_READY)
                fail_msg("not compiled: %s", why);
        }
        run(vm, p, color);
        for (unsigned i = 0; i < W * H * 4; i++)
            if (color[i] != tv_f32_bits(want[i % 4]))
                fail_msg("%s: pixel %u channel %u: 0x%08x, want %g",
                         k == 0 ? "plain" : k == 1 ? "interpreted" : "compiled", i / 4, i % 4,
                         color[i], (double)want[i % 4]);
        tv_vm_program_destroy(p);
        tv_vm_destroy(vm);
    }
}

static void t_undeclared_in_reads_zero(void **s)
{
    (void)s;
    static const float zero[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    check(undeclared_text, zero);
}

static void t_xy_input_reads_zw(void **s)
{
    (void)s;
    static const float zw[4] = {0.75f, 1.0f, 0.75f, 1.0f};
    check(xy_input_text, zw);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_undeclared_in_reads_zero),
        cmocka_unit_test(t_xy_input_reads_zw),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
