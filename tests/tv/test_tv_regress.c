/* Regressions of the optimiser found by translation validation or by review, each with
 * its expected values worked by hand, and each run both ways (plain and optimised). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "texvm/vm.h"
#include "tvcheck.h"
#include "vm/vm_jit.h"

/* Run a FRAG program on a w x h rectangle with IN[0] = (u, v) interpolated from the
 * corners (0,0) .. (1,1), colour target 0 into out (w*h*4 words). */
static void run_uv(const char *text, bool plain, uint32_t w, uint32_t h, uint32_t *out)
{
    tv_error err;
    tv_vm *vm = tv_vm_create(&(tv_vm_config){.threads = 1, .plain = plain}, &err);
    assert_non_null(vm);
    tv_vm_program *p = tv_vm_program_from_text(vm, text, strlen(text), "regress", &err);
    if (!p)
        fail_msg("%s", err.message);
    tv_vm_frag_params fp;
    tv_vm_frag_params_fullscreen(&fp, w, h, TV_VM_PRIM_RECT);
    const float uv[4][2] = {{0, 0}, {1, 0}, {0, 1}, {1, 1}};
    for (int v = 0; v < 4; v++) {
        memcpy(&fp.vertices[v].attr[0][0], &uv[v][0], 4);
        memcpy(&fp.vertices[v].attr[0][1], &uv[v][1], 4);
    }
    memset(out, 0, (size_t)w * h * 16);
    fp.color[0].data = out;
    tv_vm_bindings b;
    tv_vm_bindings_init(&b);
    tv_vm_stats st;
    assert_int_equal(tv_vm_run_fragment(vm, p, &b, &fp, &st, &err), TV_OK);
    tv_vm_program_destroy(p);
    tv_vm_destroy(vm);
}

static float f32(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* Issue 13 §1: copy coalescing turned `ROUND TEMP[0].x, …; MOV OUT[0].xy, TEMP[0].xxxx`
 * into ROUND writing OUT[0].x while the MOV's y channel still read TEMP[0].x, which nothing
 * wrote any more: y came out 0 on the pixels that took the ELSE branch. */
static const char coalesce_prog[] =
    "FRAG\n"
    "DCL IN[0].xy, GENERIC[0], PERSPECTIVE\n"
    "DCL OUT[0], COLOR\n"
    "DCL TEMP[0..4]\n"
    "IMM[0] UINT32 {1092616192, 1056964608, 0, 0}\n"   /* 10.0, 0.5, 0, 0 */
    "  0: MUL TEMP[1].x, IN[0].xxxx, IMM[0].xxxx\n"
    "  1: FSLT TEMP[3].x, IN[0].yyyy, IMM[0].yyyy\n"
    "  2: UIF TEMP[3].xxxx\n"
    "  3:   MOV OUT[0], IMM[0].zzzz\n"
    "  4: ELSE\n"
    "  5:   ROUND TEMP[0].x, TEMP[1].xxxx\n"
    "  6:   MOV OUT[0].xy, TEMP[0].xxxx\n"
    "  7: ENDIF\n"
    "  8: END\n";

static void t_coalesce_mov_reads_source_twice(void **state)
{
    (void)state;
    enum { W = 8, H = 4 };
    for (int plain = 0; plain < 2; plain++) {
        uint32_t out[W * H * 4];
        run_uv(coalesce_prog, plain, W, H, out);
        for (unsigned y = 0; y < H; y++)
            for (unsigned x = 0; x < W; x++) {
                const uint32_t *px = &out[(y * W + x) * 4];
                float v = ((float)y + 0.5f) / H;
                /* u*10 for u = (x + 0.5) / 8: 0.625, 1.875, …, 9.375; ROUND to nearest
                   (none is a tie): 1, 2, 3, 4, 6, 7, 8, 9 */
                static const float rounded[W] = {1, 2, 3, 4, 6, 7, 8, 9};
                float want = v < 0.5f ? 0.0f : rounded[x];
                if (f32(px[0]) != want || f32(px[1]) != want || px[2] != 0 || px[3] != 0)
                    fail_msg("%s pixel (%u,%u): (%g, %g, 0x%x, 0x%x), want (%g, %g, 0, 0)",
                             plain ? "plain" : "optimised", x, y, f32(px[0]), f32(px[1]),
                             px[2], px[3], want, want);
            }
    }
    char why[256];
    assert_int_equal(tvc_run_both(coalesce_prog, strlen(coalesce_prog), 1, why, sizeof why, NULL),
                     TVC_SAME);
}

/* The same shape with the second reader in a later micro-op of the run, and with the
 * copy's source read by the MOV's other channel through a swizzle. */
static void t_coalesce_variants(void **state)
{
    (void)state;
    static const char *const progs[] = {
        "FRAG\nDCL IN[0].xy, GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL TEMP[0..4]\n"
        "IMM[0] FLT32 {10.0, 0.5, 0.0, 2.0}\n"
        "MUL TEMP[1].x, IN[0].xxxx, IMM[0].xxxx\n"
        "FSLT TEMP[3].x, IN[0].yyyy, IMM[0].yyyy\n"
        "UIF TEMP[3].xxxx\nMOV OUT[0], IMM[0].zzzz\nELSE\n"
        "FLR TEMP[0].x, TEMP[1].xxxx\n"
        "MOV OUT[0].xw, TEMP[0].xxxx\n"
        "ADD OUT[0].yz, TEMP[0].xxxx, IMM[0].wwww\n"
        "ENDIF\nEND\n",
        "FRAG\nDCL IN[0].xy, GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL TEMP[0..4]\n"
        "IMM[0] FLT32 {10.0, 0.5, 0.0, 2.0}\n"
        "MUL TEMP[1], IN[0].xyxy, IMM[0].xxxx\n"
        "FSLT TEMP[3].x, IN[0].yyyy, IMM[0].yyyy\n"
        "UIF TEMP[3].xxxx\nMOV OUT[0], IMM[0].zzzz\nELSE\n"
        "TRUNC TEMP[0].xy, TEMP[1]\n"
        "MOV OUT[0], TEMP[0].xyyx\n"
        "ENDIF\nEND\n",
    };
    for (size_t i = 0; i < sizeof progs / sizeof progs[0]; i++) {
        char why[256];
        tvc_result r = tvc_run_both(progs[i], strlen(progs[i]), 7, why, sizeof why, NULL);
        if (r != TVC_SAME)
            fail_msg("program %zu: %s", i, why);
    }
    /* the first by hand at pixel (4, 3): u*10 = 5.625, FLR 5: (5, 7, 7, 5) */
    uint32_t out[8 * 4 * 4];
    run_uv(progs[0], false, 8, 4, out);
    const uint32_t *px = &out[(3 * 8 + 4) * 4];
    assert_true(f32(px[0]) == 5.0f && f32(px[1]) == 7.0f && f32(px[2]) == 7.0f &&
                f32(px[3]) == 5.0f);
}

/* Found by the generator with derivatives: a MOV into a register inside a branch was
 * stored in every lane (unmasked: the register looked run-local, read only by the
 * negation modifier in the same run), but that modifier feeds DDY, which reads the quad
 * neighbours that were inactive in the branch: they saw the MOV's value instead of their
 * own. Copy propagation into such a modifier broke the same way. */
static const char deriv_prog[] =
    "FRAG\n"
    "DCL IN[0].xy, GENERIC[0], PERSPECTIVE\n"
    "DCL OUT[0], COLOR\n"
    "DCL TEMP[0..3]\n"
    "IMM[0] FLT32 {0.25, 0.0, 0.0, 0.0}\n"
    "MOV TEMP[2], IN[0].yyyy\n"
    "FSLT TEMP[3].x, IN[0].yyyy, IMM[0].xxxx\n"
    "UIF TEMP[3].xxxx\n"
    "MOV TEMP[2].y, IMM[0].yyyy\n"
    "DDY TEMP[1].x, -TEMP[2].yyyy\n"
    "ENDIF\n"
    "MOV OUT[0], TEMP[1]\n"
    "END\n";

static void t_unmasked_store_seen_by_derivative(void **state)
{
    (void)state;
    enum { W = 8, H = 4 };
    for (int plain = 0; plain < 2; plain++) {
        uint32_t out[W * H * 4];
        run_uv(deriv_prog, plain, W, H, out);
        for (unsigned y = 0; y < H; y++)
            for (unsigned x = 0; x < W; x++) {
                /* only row 0 (v = 0.125 < 0.25) runs the branch; its DDY is BL - TL of
                   -TEMP[2].y: the bottom-left lane keeps v = 0.375, the top one has 0 */
                float want = y == 0 ? -0.375f : 0.0f;
                float got = f32(out[(y * W + x) * 4]);
                if (got != want)
                    fail_msg("%s pixel (%u,%u): %g, want %g", plain ? "plain" : "optimised",
                             x, y, got, want);
            }
    }
    char why[256];
    if (tvc_run_both(deriv_prog, strlen(deriv_prog), 3, why, sizeof why, NULL) != TVC_SAME)
        fail_msg("%s", why);
}

/* Each of the N programs the same plain and optimised on seeds 1..SEEDS, and compiled by
 * the JIT where the build has it (TV_JIT_EVERY, main). */
static void same_and_compiled(const char *const *progs, size_t n, uint64_t seeds)
{
    for (size_t i = 0; i < n; i++)
        for (uint64_t seed = 1; seed <= seeds; seed++) {
            char why[256];
            tvc_info info;
            memset(&info, 0, sizeof info);
            tvc_result r = tvc_run_both(progs[i], strlen(progs[i]), seed, why, sizeof why,
                                        &info);
            if (r != TVC_SAME)
                fail_msg("program %zu seed %llu: %s", i, (unsigned long long)seed, why);
            if (tv_vm_jit_available() && !info.compiled)
                fail_msg("program %zu was not compiled", i);
        }
}

/* A register the program reads but never writes is zero (TEMP starts at zero), also
 * when the reader is a handler the compiled code calls: the register file then holds the
 * last run's values (vm_worker_init keeps them), and the compiled code, which zeroes only
 * the TEMP slots it writes, must store the zero itself (the optimised engines here start
 * every run on garbage: vm_debug_poison_registers). */
static void t_unwritten_temp_read_by_handler(void **state)
{
    (void)state;
    static const char *const progs[] = {
        "FRAG\nDCL IN[0].xy, GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\n"
        "DCL SAMP[1]\nDCL SVIEW[1], 2D, FLOAT\nDCL TEMP[0..2]\n"
        "MOV TEMP[0].xy, IN[0].xyxx\n"
        "TEX TEMP[2], TEMP[1], SAMP[1], 2D\n"
        "ADD OUT[0], TEMP[2], TEMP[0].xyxy\nEND\n",
        "FRAG\nDCL IN[0].xy, GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL TEMP[0..2]\n"
        "MOV TEMP[0].xy, IN[0].xyxx\n"
        "DDX TEMP[2], TEMP[1]\n"
        "ADD OUT[0], TEMP[2], TEMP[0].xyxy\nEND\n",
        "FRAG\nDCL IN[0].xy, GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL TEMP[0..2]\n"
        "MOV TEMP[0].xy, IN[0].xyxx\n"
        "MOV OUT[0], TEMP[1]\n"
        "ADD OUT[0].x, TEMP[2].yyyy, TEMP[0].xxxx\nEND\n",
    };
    same_and_compiled(progs, sizeof progs / sizeof progs[0], 3);
}

/* A negated NaN added to a number (fuzz_tv, 2026-11-24): the JIT negated by an xor of the
 * sign bit, which LLVM read as fneg and folded with the add into a subtraction — the same
 * number, but subps returns the NaN operand unnegated, so the compiled code stored
 * 0xffc00000 where the interpreter stores -(0xffc00000) = 0x7fc00000. The NaN comes from
 * an immediate (a uniform slot, loaded while the code runs) and from a square root of a
 * negative number; the zero from an unwritten TEMP and from an immediate. */
static void t_negated_nan_added(void **state)
{
    (void)state;
    static const char *const progs[] = {
        "COMP\nPROPERTY CS_FIXED_BLOCK_WIDTH 32\nPROPERTY CS_FIXED_BLOCK_HEIGHT 1\n"
        "PROPERTY CS_FIXED_BLOCK_DEPTH 1\nDCL SV[0], THREAD_ID\nDCL SV[1], BLOCK_ID\n"
        "DCL BUFFER[0]\nDCL TEMP[0..3]\n"
        "IMM[0] UINT32 {4290772992, 0, 32, 16}\n"
        "IMM[1] FLT32 {-2.0, 0.0, 1.0, 0.0}\n"
        "MOV TEMP[1].x, IMM[0].xxxx\n"
        "SQRT TEMP[1].y, IMM[1].xxxx\n"
        "ADD TEMP[0].x, TEMP[2].xxxx, -TEMP[1].xxxx\n"
        "ADD TEMP[0].y, IMM[1].yyyy, -TEMP[1].yyyy\n"
        "ADD TEMP[0].z, -TEMP[1].yyyy, IMM[1].zzzz\n"
        "ADD TEMP[0].w, TEMP[2].xxxx, -|TEMP[1].xxxx|\n"
        "UMAD TEMP[3].x, SV[1].xxxx, IMM[0].zzzz, SV[0].xxxx\n"
        "UMUL TEMP[3].x, TEMP[3].xxxx, IMM[0].wwww\n"
        "STORE BUFFER[0].xyzw, TEMP[3].xxxx, TEMP[0]\nEND\n",
    };
    same_and_compiled(progs, sizeof progs / sizeof progs[0], 2);
}

/* Constants LLVM derived from an unwritten TEMP's zero (NOT gives -1, I2F -1.0, SGE of two
 * zeros 1.0) met NaNs in operations it then folded: x * -1.0 and x / -1.0 into a negation
 * (the NaN's sign flipped: 0x7fc00000 became 0xffc00000), x * 1.0, x / 1.0 and x + -0.0
 * into x (a signalling NaN stayed unquieted: 0x7f800001 where the interpreter's operation
 * gives 0x7fc00001). The zero is now loaded from memory LLVM cannot see. An immediate
 * -1.0, loaded while the code runs, was never folded (the last program). Found by a
 * review (2026-11-24), not yet by fuzz_tv. */
static void t_folded_constants_meet_nans(void **state)
{
    (void)state;
#define HEAD                                                                                 \
    "COMP\nPROPERTY CS_FIXED_BLOCK_WIDTH 32\nPROPERTY CS_FIXED_BLOCK_HEIGHT 1\n"             \
    "PROPERTY CS_FIXED_BLOCK_DEPTH 1\nDCL SV[0], THREAD_ID\nDCL SV[1], BLOCK_ID\n"           \
    "DCL BUFFER[0]\nDCL TEMP[0..5]\n"                                                        \
    "IMM[0] UINT32 {2143289344, 0, 32, 16}\nIMM[1] UINT32 {2139095041, 0, 0, 0}\n"
#define TAIL                                                                                 \
    "UMAD TEMP[3].x, SV[1].xxxx, IMM[0].zzzz, SV[0].xxxx\n"                                  \
    "UMUL TEMP[3].x, TEMP[3].xxxx, IMM[0].wwww\n"                                            \
    "STORE BUFFER[0].xyzw, TEMP[3].xxxx, TEMP[0]\nEND\n"
    static const char *const progs[] = {
        HEAD "MOV TEMP[1].x, IMM[0].xxxx\n"
             "NOT TEMP[4].x, TEMP[2].xxxx\n"
             "I2F TEMP[4].x, TEMP[4].xxxx\n"
             "MUL TEMP[0].x, TEMP[1].xxxx, TEMP[4].xxxx\n"
             "DIV TEMP[0].y, TEMP[1].xxxx, TEMP[4].xxxx\n"
             "MOV TEMP[0].zw, IMM[0].yyyy\n" TAIL,
        HEAD "MOV TEMP[1].y, IMM[1].xxxx\n"
             "SGE TEMP[4].y, TEMP[2].xxxx, TEMP[2].xxxx\n"
             "MUL TEMP[0].x, TEMP[1].yyyy, TEMP[4].yyyy\n"
             "DIV TEMP[0].y, TEMP[1].yyyy, TEMP[4].yyyy\n"
             "NOT TEMP[4].x, TEMP[2].xxxx\n"
             "I2F TEMP[4].x, TEMP[4].xxxx\n"
             "MUL TEMP[4].z, TEMP[4].xxxx, TEMP[2].xxxx\n"
             "ADD TEMP[0].z, TEMP[1].yyyy, TEMP[4].zzzz\n"
             "MOV TEMP[0].w, IMM[0].yyyy\n" TAIL,
        "COMP\nPROPERTY CS_FIXED_BLOCK_WIDTH 32\nPROPERTY CS_FIXED_BLOCK_HEIGHT 1\n"
        "PROPERTY CS_FIXED_BLOCK_DEPTH 1\nDCL SV[0], THREAD_ID\nDCL SV[1], BLOCK_ID\n"
        "DCL BUFFER[0]\nDCL TEMP[0..5]\n"
        "IMM[0] UINT32 {2143289344, 0, 32, 16}\nIMM[1] FLT32 {-1.0, 1.0, -0.0, 0.0}\n"
        "MOV TEMP[1].x, IMM[0].xxxx\n"
        "MUL TEMP[0].x, TEMP[1].xxxx, IMM[1].xxxx\n"
        "MOV TEMP[0].yzw, IMM[0].yyyy\n" TAIL,
    };
#undef HEAD
#undef TAIL
    same_and_compiled(progs, sizeof progs / sizeof progs[0], 1);
}

/* Constants LLVM derives without any constant in the program: integer identities of any
 * value (USEQ a, a is ~0; XOR a, a is 0; then INEG, NOT, I2F, USHR give 1, -1.0, 1.0) and
 * float ones (SGE s, s of a comparison's result s is 1.0). Met by NaNs, LLVM folded
 * x * -1.0 and x / -1.0 into a negation (0x7fc00000 became 0xffc00000; the signalling
 * 0x7f800001 became 0xff800001) and x * 1.0 into x (0x7f800001 left unquieted), where the
 * interpreter runs the operation (0x7fc00000, 0x7fc00001, 0x7fc00001). The operands of
 * the compiled float operations now pass llvm.arithmetic.fence (vm_jit_opaque_float).
 * Found by a review (2026-11-24): the opaque zero of t_folded_constants_meet_nans closed
 * one source of such constants only. */
#define DC_HEAD                                                                              \
    "COMP\nPROPERTY CS_FIXED_BLOCK_WIDTH 32\nPROPERTY CS_FIXED_BLOCK_HEIGHT 1\n"             \
    "PROPERTY CS_FIXED_BLOCK_DEPTH 1\nDCL SV[0], THREAD_ID\nDCL SV[1], BLOCK_ID\n"           \
    "DCL BUFFER[0]\nDCL TEMP[0..7]\n"                                                        \
    "IMM[0] UINT32 {2143289344, 0, 32, 16}\nIMM[1] UINT32 {2139095041, 1, 0, 0}\n"           \
    "IMM[2] FLT32 {1.0, 2.0, 0.0, 0.0}\n"
#define DC_TAIL                                                                              \
    "UMAD TEMP[7].x, SV[1].xxxx, IMM[0].zzzz, SV[0].xxxx\n"                                  \
    "UMUL TEMP[7].x, TEMP[7].xxxx, IMM[0].wwww\n"                                            \
    "STORE BUFFER[0].xyzw, TEMP[7].xxxx, TEMP[0]\nEND\n"
static const char *const derived_const_progs[] = {
    DC_HEAD "MOV TEMP[1].x, IMM[0].xxxx\n"
            "MOV TEMP[1].y, IMM[1].xxxx\n"
            "USEQ TEMP[2].x, SV[0].xxxx, SV[0].xxxx\n"
            "I2F TEMP[2].y, TEMP[2].xxxx\n"
            "INEG TEMP[2].z, TEMP[2].xxxx\n"
            "I2F TEMP[2].w, TEMP[2].zzzz\n"
            "MUL TEMP[0].x, TEMP[1].xxxx, TEMP[2].yyyy\n"
            "MUL TEMP[0].y, TEMP[1].yyyy, TEMP[2].wwww\n"
            "DIV TEMP[0].z, TEMP[1].yyyy, TEMP[2].yyyy\n"
            "MUL TEMP[0].w, IMM[1].yyyy, TEMP[2].wwww\n" DC_TAIL,
    DC_HEAD "MOV TEMP[1].y, IMM[1].xxxx\n"
            "SLT TEMP[4].x, IMM[2].xxxx, IMM[2].yyyy\n"
            "SGE TEMP[4].y, TEMP[4].xxxx, TEMP[4].xxxx\n"
            "MUL TEMP[0].x, TEMP[1].yyyy, TEMP[4].yyyy\n"
            "XOR TEMP[5].x, SV[0].xxxx, SV[0].xxxx\n"
            "NOT TEMP[5].y, TEMP[5].xxxx\n"
            "INEG TEMP[5].w, TEMP[5].yyyy\n"
            "MOV_SAT TEMP[0].y, TEMP[5].wwww\n"
            "ADD TEMP[0].z, TEMP[5].wwww, IMM[2].zzzz\n"
            "MOV TEMP[0].w, IMM[0].yyyy\n" DC_TAIL,
};

static void t_derived_constants_meet_nans(void **state)
{
    (void)state;
    same_and_compiled(derived_const_progs,
                      sizeof derived_const_progs / sizeof derived_const_progs[0], 1);
}

/* Run a COMP program (one block of 32 threads, BUFFER[0] = buf) on an engine with
 * denormals flushed (tv_vm_config.flush_denormals, the vtest server's mode): the plain
 * interpreter, or compiled by the JIT (required to compile it). */
static void run_flushed(const char *text, bool compiled, uint32_t *buf, size_t words)
{
    tv_error err;
    tv_vm *vm = tv_vm_create(&(tv_vm_config){.threads = 1, .plain = !compiled,
                                             .flush_denormals = true,
                                             .jit = compiled ? TV_VM_JIT_ALWAYS
                                                             : TV_VM_JIT_OFF},
                             &err);
    assert_non_null(vm);
    tv_vm_program *p = tv_vm_program_from_text(vm, text, strlen(text), "regress", &err);
    if (!p)
        fail_msg("%s", err.message);
    memset(buf, 0, words * 4);
    tv_vm_bindings b;
    tv_vm_bindings_init(&b);
    b.buffers[0] = (tv_vm_buffer){buf, words * 4};
    tv_vm_compute_params cp;
    memset(&cp, 0, sizeof cp);
    cp.grid[0] = cp.grid[1] = cp.grid[2] = 1;
    vm_jit_stats before, after;
    vm_jit_get_stats(&before);
    tv_vm_stats st;
    assert_int_equal(tv_vm_run_compute(vm, p, &b, &cp, &st, &err), TV_OK);
    vm_jit_get_stats(&after);
    if (compiled)
        assert_true(after.compiled > before.compiled);
    tv_vm_program_destroy(p);
    tv_vm_destroy(vm);
}

/* The same derived constants under flush_denormals (DAZ): the interpreter's x * 1.0 of the
 * denormal 0x00000001 reads it as zero (0), so do its saturation of it (0) and its IF on it
 * (not taken); the compiled code gave 0x00000001 for the first two and took the branch
 * (1.0), LLVM having folded the multiply away and the saturation and the test of the
 * constant as IEEE arithmetic, with denormals. */
static void t_derived_constants_flushed(void **state)
{
    (void)state;
    if (!tv_vm_jit_available())
        skip();
    static const char if_prog[] =
        DC_HEAD "XOR TEMP[5].x, SV[0].xxxx, SV[0].xxxx\n"
                "NOT TEMP[5].y, TEMP[5].xxxx\n"
                "INEG TEMP[5].w, TEMP[5].yyyy\n"
                "MOV TEMP[0], IMM[0].yyyy\n"
                "IF TEMP[5].wwww\n"
                "MOV TEMP[0].x, IMM[2].xxxx\n"
                "ENDIF\n" DC_TAIL;
    const char *const progs[] = {derived_const_progs[0], derived_const_progs[1], if_prog};
    /* worked by hand, thread 0: NaN * -1.0, sNaN * 1.0, sNaN / -1.0, 0x1 * 1.0 (0:
       flushed); sNaN * SGE = sNaN * 1.0, SAT(0x1) (0: flushed), 0x1 + 0 (0), 0; the IF of
       0x1 not taken */
    static const uint32_t want[3][4] = {{0x7fc00000u, 0x7fc00001u, 0x7fc00001u, 0},
                                        {0x7fc00001u, 0, 0, 0},
                                        {0, 0, 0, 0}};
    enum { WORDS = 32 * 2 * 4 * 4 };
    for (size_t i = 0; i < sizeof progs / sizeof progs[0]; i++) {
        static uint32_t plain[WORDS], compiled[WORDS];
        run_flushed(progs[i], false, plain, WORDS);
        run_flushed(progs[i], true, compiled, WORDS);
        for (unsigned c = 0; c < 4; c++)
            if (plain[c] != want[i][c])
                fail_msg("program %zu: plain channel %u: 0x%08x, want 0x%08x", i, c, plain[c],
                         want[i][c]);
        for (size_t k = 0; k < WORDS; k++)
            if (plain[k] != compiled[k])
                fail_msg("program %zu word %zu: plain 0x%08x, compiled 0x%08x", i, k, plain[k],
                         compiled[k]);
    }
}
#undef DC_HEAD
#undef DC_TAIL

/* NaN attributes, and NaN w, met in the interpolation formula: the plain interpreter's
 * per-lane formula (interp_b) and the tile paths (interp_tile, tile_bary) must return the
 * same NaN where two meet. GCC ordered the commutative sums of the two copies differently
 * in the sanitizer build (translation validation, seed 61 with flushed inputs: plain
 * 0x7fc00000, optimised 0xffc12345); the reference now fixes the order (tv_add_a,
 * tv_mul_a) and the tile paths take its way for a warp with a NaN result. Both must be
 * the first vertex's NaN here: v0 + w1 (v1 - v0) + w2 (v2 - v0) with v0 a NaN. */
static void t_interpolated_nans(void **state)
{
    (void)state;
    static const char prog[] = "FRAG\n"
                               "DCL IN[0], GENERIC[0], PERSPECTIVE\n"
                               "DCL IN[1], GENERIC[1], LINEAR\n"
                               "DCL IN[2], POSITION, LINEAR\n"
                               "DCL OUT[0], COLOR\n"
                               "DCL OUT[1], COLOR[1]\n"
                               "DCL OUT[2], COLOR[2]\n"
                               "  0: MOV OUT[0], IN[0]\n"
                               "  1: MOV OUT[1], IN[1]\n"
                               "  2: MOV OUT[2], IN[2]\n"
                               "  3: END\n";
    enum { W = 16, H = 8 };
    static const uint32_t nans[4] = {0x7fc11111u, 0xffc22222u, 0x7f833333u, 0xffa44444u};
    for (int w_nan = 0; w_nan < 2; w_nan++) {
        static uint32_t out[2][3][W * H * 4];
        for (int plain = 0; plain < 2; plain++) {
            tv_error err;
            tv_vm *vm = tv_vm_create(&(tv_vm_config){.threads = 1, .plain = plain}, &err);
            assert_non_null(vm);
            tv_vm_program *p = tv_vm_program_from_text(vm, prog, strlen(prog), "nan", &err);
            if (!p)
                fail_msg("%s", err.message);
            tv_vm_frag_params fp;
            tv_vm_frag_params_fullscreen(&fp, W, H, TV_VM_PRIM_RECT);
            for (int v = 0; v < 4; v++)
                for (int a = 0; a < 2; a++)
                    for (int c = 0; c < 4; c++)
                        fp.vertices[v].attr[a][c] = c == 1 ? 0x3f800000u : nans[(v + c) % 4];
            fp.vertices[3].w = 2.0f;
            if (w_nan)
                fp.vertices[1].w = f32(0x7fc55555u);
            for (int t = 0; t < 3; t++) {
                memset(out[plain][t], 0, sizeof out[plain][t]);
                fp.color[t].data = out[plain][t];
            }
            tv_vm_bindings b;
            tv_vm_bindings_init(&b);
            tv_vm_stats st;
            assert_int_equal(tv_vm_run_fragment(vm, p, &b, &fp, &st, &err), TV_OK);
            tv_vm_program_destroy(p);
            tv_vm_destroy(vm);
        }
        for (int t = 0; t < 3; t++)
            for (size_t i = 0; i < W * H * 4; i++)
                if (out[0][t][i] != out[1][t][i])
                    fail_msg("w %s: target %d word %zu: optimised 0x%08x, plain 0x%08x",
                             w_nan ? "NaN" : "finite", t, i, out[0][t][i], out[1][t][i]);
        /* channel x of the attributes: every vertex a NaN, so each pixel's value is its
           triangle's first vertex's NaN, quieted (w finite) */
        if (!w_nan)
            for (size_t px = 0; px < W * H; px++) {
                uint32_t x = out[0][0][px * 4];
                bool first = false;
                for (int v = 0; v < 4; v++)
                    first = first || x == (nans[v] | 0x00400000u);
                if (!first)
                    fail_msg("pixel %zu: 0x%08x is no vertex's NaN", px, x);
            }
    }
}

/* Stores whose inactive lanes are dead write every lane (vm_lower_lanes.c). A loop counter
 * read after its loop, with lanes leaving at different iterations, keeps each lane's own
 * count; a slot written after a CONT keeps the continued lanes' value for their next
 * iteration. Expected from the scalar loops, per pixel: n = floor(u * 8) = x / 2 on a
 * 16-pixel row. */
#define DEAD_HEAD "FRAG\nDCL IN[0].xy, GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\n"          \
                  "DCL TEMP[0..4]\nIMM[0] UINT32 {0, 1, 4, 0}\nIMM[1] FLT32 {8.0, 0.0, 0.0, 0.0}\n" \
                  "MUL TEMP[0].x, IN[0].xxxx, IMM[1].xxxx\nF2U TEMP[0].x, TEMP[0].xxxx\n"
static const char dead_exit_prog[] = DEAD_HEAD
    "MOV TEMP[1].x, IMM[0].xxxx\n"
    "BGNLOOP\n"
    "  USGE TEMP[2].x, TEMP[1].xxxx, TEMP[0].xxxx\n"
    "  UIF TEMP[2].xxxx\n    BRK\n  ENDIF\n"
    "  UADD TEMP[1].x, TEMP[1].xxxx, IMM[0].yyyy\n"
    "  USGE TEMP[2].x, TEMP[1].xxxx, IMM[0].zzzz\n"
    "  UIF TEMP[2].xxxx\n    BRK\n  ENDIF\n"
    "ENDLOOP\n"
    "U2F OUT[0].x, TEMP[1].xxxx\n"
    "MOV OUT[0].yzw, IMM[1].yyyy\n"
    "END\n";
static const char dead_cont_prog[] = DEAD_HEAD
    "MOV TEMP[1].x, IMM[0].xxxx\nMOV TEMP[2].x, IMM[0].xxxx\nMOV TEMP[4].x, IMM[0].xxxx\n"
    "BGNLOOP\n"
    "  UADD TEMP[2].x, TEMP[2].xxxx, TEMP[4].xxxx\n"
    "  USGE TEMP[3].x, TEMP[1].xxxx, IMM[0].zzzz\n"
    "  UIF TEMP[3].xxxx\n    BRK\n  ENDIF\n"
    "  UADD TEMP[1].x, TEMP[1].xxxx, IMM[0].yyyy\n"
    "  USLT TEMP[3].x, TEMP[1].xxxx, TEMP[0].xxxx\n"
    "  UIF TEMP[3].xxxx\n    CONT\n  ENDIF\n"
    "  MOV TEMP[4].x, TEMP[1].xxxx\n"
    "ENDLOOP\n"
    "U2F OUT[0].x, TEMP[2].xxxx\n"
    "MOV OUT[0].yzw, IMM[1].yyyy\n"
    "END\n";

static void t_dead_lane_stores(void **state)
{
    (void)state;
    enum { W = 16, H = 2 };
    const char *const progs[] = {dead_exit_prog, dead_cont_prog};
    for (unsigned k = 0; k < 2; k++) {
        for (int plain = 0; plain < 2; plain++) {
            uint32_t out[W * H * 4];
            run_uv(progs[k], plain, W, H, out);
            for (uint32_t x = 0; x < W; x++) {
                uint32_t n = x / 2, want;
                if (k == 0) {
                    want = n < 4 ? n : 4;
                } else {
                    uint32_t i = 0, acc = 0, t = 0;
                    for (;;) {
                        acc += t;
                        if (i >= 4)
                            break;
                        i++;
                        if (i < n)
                            continue;
                        t = i;
                    }
                    want = acc;
                }
                for (uint32_t y = 0; y < H; y++)
                    if (f32(out[(y * W + x) * 4]) != (float)want)
                        fail_msg("program %u %s pixel (%u,%u): %g, want %u", k,
                                 plain ? "plain" : "optimised", x, y,
                                 f32(out[(y * W + x) * 4]), want);
            }
        }
    }
    same_and_compiled(progs, 2, 3);
}

int main(void)
{
    /* every program here is compiled by the JIT too (tvcheck.h) */
    setenv("TV_JIT_EVERY", "1", 0);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_coalesce_mov_reads_source_twice),
        cmocka_unit_test(t_coalesce_variants),
        cmocka_unit_test(t_unmasked_store_seen_by_derivative),
        cmocka_unit_test(t_dead_lane_stores),
        cmocka_unit_test(t_unwritten_temp_read_by_handler),
        cmocka_unit_test(t_negated_nan_added),
        cmocka_unit_test(t_folded_constants_meet_nans),
        cmocka_unit_test(t_derived_constants_meet_nans),
        cmocka_unit_test(t_derived_constants_flushed),
        cmocka_unit_test(t_interpolated_nans),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
