/* The engine's fragment tile as data, one definition for the layers that lay pixels out
 * from it (docs/vm-fragments.md §1 "Fragment tiles"): a warp is an 8x4 pixel tile,
 * lane 4q + i is pixel i — top-left, top-right, bottom-left, bottom-right — of 2x2 quad q,
 * four quads a row of quads. */
#ifndef TEXVM_UTIL_TILE_LANES_H
#define TEXVM_UTIL_TILE_LANES_H

#include <stdint.h>

/* lane l's pixel in its tile (32-bit words: the lane set-ups load them as vectors and add
 * the tile's corner; widened from bytes there, the AVX2 code went through the stack) */
static const int32_t tv_tile_lane_x[32] __attribute__((aligned(64))) = {0, 1, 0, 1, 2, 3, 2, 3, 4, 5, 4, 5, 6, 7, 6, 7,
                                           0, 1, 0, 1, 2, 3, 2, 3, 4, 5, 4, 5, 6, 7, 6, 7};
static const int32_t tv_tile_lane_y[32] __attribute__((aligned(64))) = {0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1,
                                           2, 2, 3, 3, 2, 2, 3, 3, 2, 2, 3, 3, 2, 2, 3, 3};

/* From channel rows to pixels (the tile store, the whole-tile blend): within a half tile
 * (rows 2h, 2h + 1; lane index 4 (x / 2) + 2 (y % 2) + x % 2), the two-source permute
 * indices that gather the (c0, c1) — or (c2, c3) — pairs of a row's 8 pixels, per row
 * parity; then those that join the pairs into pixels 0-3 and 4-7 of the row, R, G, B, A
 * each. */
static const int32_t tv_tile_pair_idx[2][16] = {
    {0, 16, 1, 17, 4, 20, 5, 21, 8, 24, 9, 25, 12, 28, 13, 29},      /* even rows */
    {2, 18, 3, 19, 6, 22, 7, 23, 10, 26, 11, 27, 14, 30, 15, 31}};   /* odd rows */
static const int32_t tv_tile_pix_idx[2][16] = {
    {0, 1, 16, 17, 2, 3, 18, 19, 4, 5, 20, 21, 6, 7, 22, 23},        /* pixels 0-3 */
    {8, 9, 24, 25, 10, 11, 26, 27, 12, 13, 28, 29, 14, 15, 30, 31}}; /* pixels 4-7 */

#endif
