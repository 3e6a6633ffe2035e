/* Translation validation (docs/vm-execution.md §3): run one TGSI program with the plain
 * interpreter (tv_vm_config.plain) and with the optimised micro-ops on the same inputs, and
 * compare every result bit for bit; and a random TGSI program generator to feed it. No
 * cmocka here: the tests in tests/tv/ and the fuzz target fuzz/fuzz_tv.c share this
 * code. */
#ifndef TEXVM_TESTS_TVCHECK_H
#define TEXVM_TESTS_TVCHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Where generator choices come from: a seeded xorshift, or fuzz bytes (then the seed is
 * used once the bytes run out, so every input gives a whole program). */
typedef struct tvg_src {
    uint64_t state;
    const uint8_t *bytes;
    size_t len, pos;
} tvg_src;

void tvg_seed(tvg_src *s, uint64_t seed);
void tvg_bytes(tvg_src *s, const uint8_t *data, size_t len);

/* Constructs the generator emits, counted per program (tvg_stats) so that the tests can
 * require that each is reached. */
enum {
    TVG_ALU, TVG_PARTIAL_MASK, TVG_SWIZZLE, TVG_MODIFIER, TVG_IF, TVG_UIF, TVG_ELSE,
    TVG_LOOP, TVG_BRK, TVG_CONT, TVG_SWITCH, TVG_SUB, TVG_INDIRECT_TEMP, TVG_INDIRECT_CONST,
    TVG_KILL, TVG_TEX, TVG_FRESH, TVG_OUTPUT, TVG_FRAG, TVG_COMP, TVG_KINDS
};
extern const char *const tvg_kind_names[TVG_KINDS];

typedef struct tvg_stats {
    uint32_t count[TVG_KINDS];
} tvg_stats;

/* A random program (malloc'ed NUL-terminated TGSI text, never NULL unless out of memory):
 * FRAG or COMP, straight-line ALU with partial write masks, swizzles and modifiers,
 * nested IF/UIF/ELSE, bounded loops with BRK/CONT, SWITCH, subroutines, indirect TEMP and
 * CONST addressing, KILL_IF, texture ops on small textures. `stats` may be NULL. */
char *tvg_program(tvg_src *s, tvg_stats *stats);

/* The outcome of tvc_run_both. */
typedef enum tvc_result {
    TVC_SAME = 0,       /* both ran (or failed) identically */
    TVC_DIFFERENT = 1,  /* a difference: `why` says where */
    TVC_NOT_RUN = 2     /* the program was not run (invalid, or a stage not handled) */
} tvc_result;

/* Run `text`'s first program both ways, and for every TV_JIT_EVERY-th seed (default 20)
 * also compiled by the JIT (tv_vm_config.jit, when built) against the plain run: FRAG on a 16x8 target (8 colour targets, depth,
 * stencil, sample mask), COMP on 2 blocks, VERT on 37 vertices x 2 instances, GEOM on 5
 * input primitives (every stream's vertices and primitives); constant
 * buffers, buffers and attributes filled from `seed`; textures 0..3 with samplers 0..3.
 * Every other seed (and every other compiled one) runs on engines that flush denormals
 * (tv_vm_config.flush_denormals, the vtest server's rule), with inputs that mix in
 * denormals, the smallest normals, zeros, infinities and NaNs; a difference there says so
 * in `why`. Compares the status, the error text, the statistics that both count
 * (instructions, invocations, killed lanes), every output word and every buffer byte. */
typedef struct tvc_info {
    int status;               /* tv_status of the runs (equal when TVC_SAME) */
    uint64_t instructions;    /* TGSI instructions the run executed (per warp) */
    char message[512];        /* the error message when status is not TV_OK */
    bool compiled;            /* the JIT compiled the program (not declined) */
} tvc_info;

tvc_result tvc_run_both(const char *text, size_t len, uint64_t seed, char *why,
                        size_t why_size, tvc_info *info);

#endif
