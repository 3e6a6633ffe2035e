/* The per-lane footprints' texel addresses for 4-byte texels (tex_fast_linear.c,
 * tex_fast_hw.c): tex_texel_offset (tex_layout.c) split into a column part and a row part
 * (z = 0) — pitch: x * 4 + y * pitch; block-linear: the block/GOB terms of x plus those of
 * y (they only add; tex_formulas.h). Level absolute; add layer * layer_stride +
 * level_offset[level]. */
#ifndef TEXVM_TEX_FAST_ADDR_H
#define TEXVM_TEX_FAST_ADDR_H

#include "tex/tex_formulas.h"
#include "tex/tex_internal.h"

static inline bool tex_fast_pitch_layout(const tex_view *v)
{
    return v->mem_layout == TV_TIC_PITCH || v->mem_layout == TV_TIC_PITCH_COLOR_KEY;
}

static inline uint64_t tex_fast_col_offset(const tex_view *v, unsigned level, uint32_t x)
{
    uint64_t xb = (uint64_t)x * 4u;
    return tex_fast_pitch_layout(v) ? xb
                                    : tex_bl_col(xb, 9 + v->gob_h_log2[level] + v->gob_d_log2[level]);
}

static inline uint64_t tex_fast_row_offset(const tex_view *v, unsigned level, uint32_t y)
{
    if (tex_fast_pitch_layout(v))
        return (uint64_t)y * v->pitch;
    return tex_bl_row(y, v->gob_h_log2[level], v->level_gobs_x[level],
                      9 + v->gob_h_log2[level] + v->gob_d_log2[level]);
}

#endif
