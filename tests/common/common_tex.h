/* Texture-unit set-up for the tests of every module that sample (tests/tex's sampling
 * fixture, tests/sass's environment): a texture unit over one zeroed host block mapped at
 * a guest address, and a block-linear texture header. Failures fail the cmocka test. */
#ifndef TEXVM_TESTS_COMMON_COMMON_TEX_H
#define TEXVM_TESTS_COMMON_COMMON_TEX_H

#include <stddef.h>
#include <stdint.h>

#include "texvm/tex.h"

/* SIZE zeroed bytes in *HOST, mapped at guest address BASE of a new *MEM, and a texture
 * unit *UNIT reading that memory (its pools are the caller's to set). */
void tc_tex_open(uint64_t base, size_t size, uint8_t **host, tv_memory **mem,
                 tv_tex_unit **unit);
void tc_tex_close(uint8_t *host, tv_memory *mem, tv_tex_unit *unit);

/* A block-linear header for FORMAT of texture TYPE, level 0 W x H, DEPTH (the 3D depth,
 * the layer count of arrays, the cube count of cube arrays) and LEVELS levels (all in the
 * view), normalised coordinates, border size 7; its address is left 0. */
void tc_tic_blocklinear(tv_tic *t, tv_format f, unsigned type, unsigned w, unsigned h,
                        unsigned depth, unsigned levels);

#endif
