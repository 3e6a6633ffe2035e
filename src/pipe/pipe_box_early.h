/* A small triangle's box (pipe_raster_box.h) through the rasteriser's coverage and the
 * early depth test in one AVX-512 or AVX2 pass (pipe_box_early.c): the quads that keep a lane, as
 * the engine's coverage_quads hook returns them. */
#ifndef TEXVM_PIPE_BOX_EARLY_H
#define TEXVM_PIPE_BOX_EARLY_H

#include "pipe_om.h"
#include "pipe_raster_box.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The early depth test of a single-sampled draw on a 4-byte depth target quantised by
 * value (float, or UNORM by its formula: om_zs_target's unorm_direct), without depth clamp
 * or stencil test (draw_om_early_lanes' vectorised case). */
typedef struct box_early {
    double z0, zx, zy, zpx, zpy;   /* the window depth plane: z0 at (zpx, zpy), slopes */
    float zoffset;                 /* its polygon offset */
    const om_dsa *dsa;
    const om_zs_target *zs;
    uint8_t *base;                 /* the layer's texel (0, 0) */
    size_t stride;                 /* bytes from a row to the next (any: the texels are
                                      loaded and stored unaligned) */
    bool test;                     /* the sample mask keeps sample 0: covered lanes are
                                      tested (else none survives) */
} box_early;

/* The quads of RB with a lane that is covered and passes E's depth test, in row order
 * (rows of quads top to bottom, each left to right): quad i's top-left pixel (QX[i],
 * QY[i]) and its lanes' coverage COV[4 i + j] (j = 0 TL, 1 TR, 2 BL, 3 BR: 1 passed, 0
 * not). Each covered lane's depth is the plane's at its pixel centre plus the offset,
 * clamped to [0, 1] and quantised, as draw_om_early_lanes computes it; the test and its
 * update of the depth texel are om_depth_test32's. PASSED[t] is the number of lanes that
 * passed in row t of 8x4 tiles from RB's first, (y0 / 4) + t (a box's eight rows of pixels
 * meet at most three). Returns the number
 * of quads, at most 16 (16 elements of QX and QY, 64 of COV); -1 where the build has no
 * vector kernel (only x86-64 GCC builds do). AVX512: the AVX-512F kernel, else the AVX2
 * one (call it only where the CPU has that extension; the results are the same). */
int box_early_quads(const raster_box *rb, const box_early *e, bool avx512, int32_t qx[16],
                    int32_t qy[16], uint32_t cov[64], uint32_t passed[3]);

#endif
