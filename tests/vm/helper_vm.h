/* Test helper for the engine: parse TGSI text, run a compute or fragment job with given
 * inputs, return outputs, so each test stays short. */
#ifndef TEXVM_TESTS_HELPER_VM_H
#define TEXVM_TESTS_HELPER_VM_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include "texvm/vm.h"

#include "util/half.h" /* tv_f32_bits, tv_bits_f32 */
#include "common_file.h" /* tc_slurp: a whole file (corpus programs) */

/* Threads used by the helpers (default 1; tests of thread independence change it). */
extern uint32_t hv_threads;
/* The memory micro-ops' warp path on the helper engines (vm_mem_set_warp_path). */
extern bool hv_mem_warp_path;
/* The widest fragment tile-store variant of the helper engines (vm_frag_store_limit_isa). */
extern unsigned hv_store_cap;
/* tv_vm_config.flush_denormals of the helper engines (default false). */
extern bool hv_flush_denormals;

/* Create a program from text; fails the test with the error message on error. */
tv_vm_program *hv_program(tv_vm *vm, const char *text);
/* The first program of processor `proc` in a multi-program text (corpus files). */
tv_vm_program *hv_program_proc(tv_vm *vm, const char *text, tv_tgsi_processor proc);
/* Try to create; returns the status and fills err (no test failure). */
tv_status hv_try_program(const char *text, tv_error *err);

/* Run `insns` (TGSI lines using TEMP[0], TEMP[1], TEMP[2] as inputs a, b, c and writing
 * TEMP[3]; TEMP[3] starts as `init`) for n lanes (n <= 256): a/b/c/out are n x 4 words.
 * Extra declarations (e.g. "PROPERTY LEGACY_MATH_RULES 1\n") go in `extra`.
 * Returns the status (TV_OK expected). */
tv_status hv_op(const char *extra, const char *insns, unsigned n, const uint32_t (*a)[4],
                const uint32_t (*b)[4], const uint32_t (*c)[4], uint32_t init,
                uint32_t (*out)[4], tv_error *err);

/* Convenience: run with one lane. */
void hv_op1(const char *insns, const uint32_t a[4], const uint32_t b[4], const uint32_t c[4],
            uint32_t out[4]);

/* Run program P of VM as one group of LANES x 1 x 1 threads with BUFFER[0] = buf of
 * `bytes`, counting into STATS (NULL: not counted). */
tv_status hv_run_group(tv_vm *vm, tv_vm_program *p, uint32_t lanes, void *buf, size_t bytes,
                       tv_vm_stats *stats, tv_error *err);
/* Run a full compute program with one bound buffer (BUFFER[0] = buf of `bytes`). */
tv_status hv_compute(const char *text, uint32_t grid[3], uint32_t block[3], void *buf,
                     size_t bytes, tv_error *err);
tv_status hv_compute_b(const char *text, uint32_t grid[3], uint32_t block[3],
                       tv_vm_bindings *b, tv_error *err);

/* Run a fragment program over a W x H full-screen rectangle with attributes attr[v][reg]
 * (NULL = zero) and colour target 0 = color (W*H*4 words, contents preserved for killed
 * pixels). */
tv_status hv_frag(const char *text, uint32_t w, uint32_t h,
                  const float attr[4][TV_VM_MAX_ATTRIBS][4], uint32_t *color, tv_error *err);
tv_status hv_frag_p(const char *text, tv_vm_frag_params *fp, tv_vm_bindings *b,
                    tv_error *err);


#endif
