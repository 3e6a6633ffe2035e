/* Test environment for the SASS tests: memory with header and sampler pools, a texture
 * unit, a warp bound to them, textures whose texels follow a closed formula (written
 * here independently of the code under test), and small register helpers. */
#ifndef TEXVM_TESTS_SASS_ENV_H
#define TEXVM_TESTS_SASS_ENV_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "util/half.h"
#include "texvm/sass.h"

#define ENV_BASE 0x100000ull
#define ENV_SIZE (8u << 20)
#define ENV_ENTRIES 32u
#define ENV_HDR ENV_BASE
#define ENV_SMP (ENV_BASE + 0x1000u)
#define ENV_DATA (ENV_BASE + 0x10000u)
#define ENV_BANK 2u   /* constant bank holding bound handles */

typedef struct senv {
    tv_memory *mem;
    tv_tex_unit *unit;
    tv_sass_warp *w;
    uint8_t *host;
    uint64_t next;
} senv;

void senv_init(senv *E);
void senv_free(senv *E);
/* cmocka group fixtures: one environment (senv_init) in *state, freed by senv_teardown. */
int senv_setup(void **state);
int senv_teardown(void **state);
/* A pitch-linear header: format, TIC type, level-0 size, depth/layers/cubes, levels. */
void senv_tic(tv_tic *t, tv_format f, unsigned type, unsigned w, unsigned h, unsigned d,
              unsigned levels);
/* Store header `idx` with fresh storage, texels filled with env_texel(). */
void senv_put_tic(senv *E, unsigned idx, tv_tic *t);
/* senv_tic then senv_put_tic: header `idx` of that format, type and size. */
void senv_put_tex(senv *E, unsigned idx, tv_format f, unsigned type, unsigned w, unsigned h,
                  unsigned d, unsigned levels);
/* A sampler: filters, wrap on all axes, LOD range [0, 15.996], everything else zero. */
void senv_tsc(tv_tsc *s, unsigned mag, unsigned min, unsigned mip, unsigned wrap);
/* Sampler `idx`: senv_tsc stored. */
void senv_put_tsc(senv *E, unsigned idx, unsigned mag, unsigned min, unsigned mip,
                  unsigned wrap);
void senv_put_tsc_raw(senv *E, unsigned idx, const tv_tsc *s);
/* c[ENV_BANK][tid*4] = handle */
void senv_bind(senv *E, unsigned tid, uint32_t handle);

/* Texel formula: component c of (level, layer-or-z, x, y, sample). Float formats get
 * k/8 (exact), integer formats get k. */
unsigned env_k(unsigned level, unsigned layer, unsigned x, unsigned y, unsigned sample,
               unsigned c);
float env_texel_f(unsigned level, unsigned layer, unsigned x, unsigned y, unsigned sample,
                  unsigned c);

/* IEEE half bits of a float that is exactly representable (test-side reference). */
uint16_t ref_half(float f);

/* Parse one instruction; fail the test (printing the text and the message) on error. */
void parse_ok(const char *text, tv_sass_insn *in);
/* Run text on the warp; fail the test with the message on error. */
void run_ok(senv *E, const char *text);
tv_status run_status(senv *E, const char *text, tv_error *err);
/* Registers read/written by the last instruction as a sorted list; returns the count. */
unsigned reads_of(senv *E, unsigned out[16]);
unsigned writes_of(senv *E, unsigned out[16]);
void assert_regs(const unsigned *got, unsigned n, const unsigned *want, unsigned wn);
uint32_t reg(senv *E, unsigned r, unsigned lane);
void set_all(senv *E, unsigned r, uint32_t v);
void set_allf(senv *E, unsigned r, float v);

#endif
