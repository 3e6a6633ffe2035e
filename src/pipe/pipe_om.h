/* The output merger (issue 16): what happens to a shaded sample on its way into the
 * framebuffer — the alpha test, the depth and stencil tests and their updates, blending
 * (every Gallium factor and equation, dual source, per target), logic ops and colour write
 * masks — as functions on one sample and one target texel, written from GL 4.6 §17.3 and
 * Gallium's cso/blend.rst. The enums carry Gallium's values (p_defines.h), which are also
 * the virgl wire values, so the vtest decoder passes them through. Render targets are
 * texture-unit formats: values are decoded and encoded by the format table
 * (tv_format_unpack / tv_format_pack), never by a private copy.
 * docs/pipeline-stages.md §Output merger. */
#ifndef TEXVM_PIPE_OM_H
#define TEXVM_PIPE_OM_H

#include "texvm/pipe.h"
#include "texvm/tex.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* ---- Gallium's enums ------------------------------------------------------------------ */
enum { OM_BLEND_ADD, OM_BLEND_SUBTRACT, OM_BLEND_REVERSE_SUBTRACT, OM_BLEND_MIN, OM_BLEND_MAX,
       OM_BLEND_COUNT };

enum {
    OM_BF_ONE = 0x01, OM_BF_SRC_COLOR = 0x02, OM_BF_SRC_ALPHA = 0x03, OM_BF_DST_ALPHA = 0x04,
    OM_BF_DST_COLOR = 0x05, OM_BF_SRC_ALPHA_SATURATE = 0x06, OM_BF_CONST_COLOR = 0x07,
    OM_BF_CONST_ALPHA = 0x08, OM_BF_SRC1_COLOR = 0x09, OM_BF_SRC1_ALPHA = 0x0a,
    OM_BF_ZERO = 0x11, OM_BF_INV_SRC_COLOR = 0x12, OM_BF_INV_SRC_ALPHA = 0x13,
    OM_BF_INV_DST_ALPHA = 0x14, OM_BF_INV_DST_COLOR = 0x15, OM_BF_INV_CONST_COLOR = 0x17,
    OM_BF_INV_CONST_ALPHA = 0x18, OM_BF_INV_SRC1_COLOR = 0x19, OM_BF_INV_SRC1_ALPHA = 0x1a
};

/* Logic ops (PIPE_LOGICOP_*). The code is the truth table: bit (2 * src + dst) of it is
 * the result for that pair of bits (COPY = 0b1100 gives src, NOOP = 0b1010 gives dst). */
enum {
    OM_LOGICOP_CLEAR, OM_LOGICOP_NOR, OM_LOGICOP_AND_INVERTED, OM_LOGICOP_COPY_INVERTED,
    OM_LOGICOP_AND_REVERSE, OM_LOGICOP_INVERT, OM_LOGICOP_XOR, OM_LOGICOP_NAND,
    OM_LOGICOP_AND, OM_LOGICOP_EQUIV, OM_LOGICOP_NOOP, OM_LOGICOP_OR_INVERTED,
    OM_LOGICOP_COPY, OM_LOGICOP_OR_REVERSE, OM_LOGICOP_OR, OM_LOGICOP_SET
};

/* PIPE_FUNC_*: depth, stencil and alpha comparisons (fragment value OP stored value). */
enum { OM_FUNC_NEVER, OM_FUNC_LESS, OM_FUNC_EQUAL, OM_FUNC_LEQUAL, OM_FUNC_GREATER,
       OM_FUNC_NOTEQUAL, OM_FUNC_GEQUAL, OM_FUNC_ALWAYS };

enum { OM_STENCIL_KEEP, OM_STENCIL_ZERO, OM_STENCIL_REPLACE, OM_STENCIL_INCR,
       OM_STENCIL_DECR, OM_STENCIL_INCR_WRAP, OM_STENCIL_DECR_WRAP, OM_STENCIL_INVERT };

enum { OM_MASK_R = 1, OM_MASK_G = 2, OM_MASK_B = 4, OM_MASK_A = 8, OM_MASK_RGBA = 15 };

/* ---- state (pipe_rt_blend_state, pipe_blend_state, pipe_depth_stencil_alpha_state) -- */
/* The state structs are the public ones (include/texvm/pipe.h): one definition. */
typedef tv_pipe_rt_blend om_rt_blend;
typedef tv_pipe_blend_state om_blend;
typedef tv_pipe_stencil_state om_stencil;
typedef tv_pipe_dsa_state om_dsa;

/* ---- compare functions and blend arithmetic (pipe_om_blend.c) ------------------------ */
/* FRAG func STORED (inline: the depth tests of every fragment call them), from the three
 * relations of the two values (all false for a float NaN: NOTEQUAL alone passes) */
static inline bool om_compare_rel(uint8_t func, bool lt, bool eq, bool gt)
{
    switch (func) {
    case OM_FUNC_NEVER: return false;
    case OM_FUNC_LESS: return lt;
    case OM_FUNC_EQUAL: return eq;
    case OM_FUNC_LEQUAL: return lt || eq;
    case OM_FUNC_GREATER: return gt;
    case OM_FUNC_NOTEQUAL: return !eq;
    case OM_FUNC_GEQUAL: return gt || eq;
    default: return true;   /* ALWAYS */
    }
}

static inline bool om_compare_f(uint8_t func, float a, float b)
{
    return om_compare_rel(func, a < b, a == b, a > b);
}

static inline bool om_compare_u(uint8_t func, uint32_t a, uint32_t b)
{
    return om_compare_rel(func, a < b, a == b, a > b);
}

/* Where a blend factor takes its value (one row of pipe_om_blend.c's table): the channel
 * itself of the source (alpha false) or its alpha for every channel, then 1 - x where
 * invert. SATURATE is min(As, 1 - Ad) for RGB and 1 for alpha. */
typedef enum om_factor_source { OM_FS_ZERO, OM_FS_ONE, OM_FS_SRC0, OM_FS_SRC1, OM_FS_DST,
                                OM_FS_CONST, OM_FS_SATURATE } om_factor_source;
typedef struct om_factor_desc {
    uint8_t source;   /* om_factor_source */
    bool alpha, invert;
} om_factor_desc;
/* FACTOR's row into OUT; false for a value no Gallium factor has. */
bool om_factor_describe(uint8_t factor, om_factor_desc *out);
/* Whether the factor is a known Gallium value / reads the second colour (dual source). */
bool om_factor_valid(uint8_t factor);
bool om_factor_uses_src1(uint8_t factor);
/* Whether any of RT's four factors reads the second colour. */
bool om_blend_uses_src1(const tv_pipe_rt_blend *rt);
const char *om_factor_name(uint8_t factor);

/* How a target's values behave in blending (GL 4.6 §17.3.6): fixed-point targets clamp
 * sources, destination and factors to their range; float targets do not; integer
 * targets are never blended. sRGB targets blend in linear space. */
typedef enum om_class { OM_CLASS_UNORM, OM_CLASS_SNORM, OM_CLASS_FLOAT, OM_CLASS_SINT,
                        OM_CLASS_UINT } om_class;

/* Blend source S0 (and S1, dual source) into destination D with constant K on a target of
 * class CLS; OUT gets the blended value (unclamped for float targets, clamped to the
 * class's range otherwise). Not for integer classes. */
void om_blend_color(const om_rt_blend *rt, om_class cls, const float s0[4], const float s1[4],
                    const float d[4], const float k[4], float out[4]);

/* The same on OM_LANES samples at once, structure of arrays (x->c[c][l]: channel c of
 * sample l): every lane's result bit for bit om_blend_color's (the tile-at-a-time output merger,
 * pipe_draw_om_warp.c; tests/pipe/test_om_blend.c compares them). */
#define OM_LANES 32
typedef struct om_lanes {
    float c[4][OM_LANES];
} om_lanes;
void om_blend_lanes(const om_rt_blend *rt, om_class cls, const om_lanes *s0,
                    const om_lanes *s1, const om_lanes *d, const float k[4], om_lanes *out);

/* ---- colour targets (pipe_om_target.c) ------------------------------------------------ */
#define OM_TEXEL_WORDS 4   /* colour texels are at most 16 bytes */

typedef struct om_target {
    tv_format format;
    const tv_format_info *fi;
    om_class cls;
    uint8_t bytes;
    int8_t mem_of_api[4];             /* memory component an API channel is stored in, -1 */
    uint32_t comp_bits[4][OM_TEXEL_WORDS];   /* texel bits of each memory component */
    bool raw32;                       /* 4 x 32 bits that the codec copies unchanged (RGBA32
                                         float and integer formats): read and write copy
                                         words (the general path's result, found by
                                         probing at init; tests/pipe/test_om_target.c) */
} om_target;

/* Prepare format F as a render target; false (and no target) when F cannot be rendered
 * to: block-compressed, depth, shared exponent, or not encodable. */
bool om_target_init(om_target *t, tv_format f);
/* The API channels R, G, B, A of a stored texel (floats, linear for sRGB, or integers). */
void om_target_read(const om_target *t, const void *texel, uint32_t api[4]);
/* The API channels of texel (BX, BY) of the block at BLOCK of format F (FI its table row):
 * decoded (sRGB to linear), then the format's swizzle. om_target_read's general case; the
 * blit's decode-only sources (block-compressed, shared exponent) read through it too. */
void om_format_read(tv_format f, const tv_format_info *fi, const void *block, unsigned bx,
                    unsigned by, uint32_t api[4]);
/* om_target_read and om_target_write of a raw32 target (no logic op, or a float one):
 * the words are the channels. Inline for the tile-at-a-time merger. */
static inline void om_raw32_read(const void *texel, uint32_t api[4])
{
    memcpy(api, texel, 16);
}
static inline void om_raw32_write(void *texel, const uint32_t value[4], unsigned colormask)
{
    if (colormask == 0xfu) {
        memcpy(texel, value, 16);
        return;
    }
    uint32_t w[4];
    memcpy(w, texel, 16);
    for (unsigned i = 0; i < 4; i++)
        if ((colormask >> i) & 1u)
            w[i] = value[i];
    memcpy(texel, w, 16);
}
/* Write API channels VALUE into TEXEL: only the memory components of channels in
 * COLORMASK change, bit for bit; with LOGICOP >= 0 the encoded value is combined with the
 * stored bits by that logic op first (not for float targets: ignored there, as in GL). */
void om_target_write(const om_target *t, const uint32_t value[4], unsigned colormask,
                     int logicop, void *texel);
/* Logic op OP on 32 bits of source and destination at once. */
uint32_t om_logic_op(uint8_t op, uint32_t src, uint32_t dst);

/* ---- whole tiles of RGBA32 float pixels (pipe_om_blend_tile.c) ----------------------- */
/* Whether (and how) the tile blend serves a colour buffer: a blended RGBA32 float target
 * (raw32, OM_CLASS_FLOAT) with every channel written, factors other than
 * SRC_ALPHA_SATURATE and the equations ADD, SUBTRACT and REVERSE_SUBTRACT, on a processor
 * with AVX-512F or AVX2; ok false otherwise (the lane rows of om_blend_lanes serve it). */
typedef struct om_tile_blend {
    bool ok;
    bool src1;                 /* a factor reads the second colour */
    uint8_t rgb_func, alpha_func;
    om_factor_desc f[4];       /* RGB source, RGB destination, alpha source, alpha dest. */
    bool alpha_sf, alpha_df;   /* the alpha's source / destination factor differs */
    uint8_t kernel;            /* 0: the general kernel; else one for a common state */
    uint8_t isa;               /* the kernels' instruction set: 2 AVX-512F, 1 AVX2 */
} om_tile_blend;
void om_tile_blend_init(om_tile_blend *tb, const om_rt_blend *rt, const om_target *t);
/* Blend the 8x4 pixels whose top-left texel is at T0 (rows STRIDE bytes apart) with the
 * channel rows S0[c] (and S1[c], read where tb->src1) of an 8x4 tile in the engine's lane
 * order (docs/vm-fragments.md §1 "Fragment tiles": lane 4q + i is pixel i — TL, TR, BL,
 * BR — of quad q, four quads a row of quads), source alpha 1 where ALPHA_ONE, constant K:
 * every pixel becomes om_blend_color's result, bit for bit
 * (tests/pipe/test_om_blend_tile.c). False (nothing done) where not tb->ok. */
bool om_tile_blend_run(const om_tile_blend *tb, const uint32_t *const s0[4],
                       const uint32_t *const s1[4], bool alpha_one, const float k[4],
                       uint8_t *t0, size_t stride);

/* ---- depth and stencil (pipe_om_zs.c) ------------------------------------------------- */
typedef struct om_zs_target {
    tv_format format;
    uint8_t bytes;
    uint8_t depth_bits;               /* 16, 24, 32 (float), 0 = no depth */
    bool depth_float;
    uint8_t stencil_bits;             /* 8 or 0 */
    uint64_t depth_mask, stencil_mask;
    uint8_t depth_shift, stencil_shift;
    /* UNORM depth quantised by its formula, round-to-nearest-even(z · unorm_max), instead
       of through the format encoder (om_zs_target_init checks that they agree) */
    bool unorm_direct;
    double unorm_max;
} om_zs_target;

bool om_zs_target_init(om_zs_target *t, tv_format f);
/* A fragment depth in [0, 1] (already clamped) in the target's stored representation:
 * round(z * (2^n - 1)) for UNORM depth, the float's bits for Z32F. */
uint32_t om_depth_quantize(const om_zs_target *t, float z);
/* One sample through the depth and stencil tests (GL 4.6 §17.3.3-4) against the stored
 * texel, updating it (depth when it passed and depth writes are on, stencil per the ops
 * and write mask). FRONT picks the stencil face; REF is the stencil reference of that
 * face. Returns whether the sample survives. */
bool om_depth_stencil(const om_dsa *s, const om_zs_target *t, bool front, uint8_t ref,
                      uint32_t zfrag, void *texel);
/* Whether fragment depth ZFRAG passes S's depth function against the STORED field of
 * target T (compared as floats on a float depth target). */
static inline bool om_depth_compare(const om_dsa *s, const om_zs_target *t, uint32_t zfrag,
                                    uint32_t stored)
{
    if (!t->depth_float)
        return om_compare_u(s->depth_func, zfrag, stored);
    float a, b;
    memcpy(&a, &zfrag, 4);
    memcpy(&b, &stored, 4);
    return om_compare_f(s->depth_func, a, b);
}

/* om_depth_test32 on the texel's word V as loaded: whether the fragment passes, and in *W
 * the word to store when it does and the writemask allows (V itself otherwise) */
static inline bool om_depth_test32_word(const om_dsa *s, const om_zs_target *t,
                                        uint32_t zfrag, uint32_t v, uint32_t *w)
{
    uint32_t mask = (uint32_t)t->depth_mask;
    bool pass = om_depth_compare(s, t, zfrag, (v & mask) >> t->depth_shift);
    *w = pass && s->depth_writemask ? (v & ~mask) | ((zfrag << t->depth_shift) & mask) : v;
    return pass;
}

/* om_depth_stencil for a 4-byte depth target when no stencil test runs (the early tests'
 * common case): the same stored field, comparison and update, with fixed-size accesses
 * and the texel written only when it changes (tests/pipe/test_om_zs.c compares the two).
 * T->bytes must be 4 and S's depth test enabled. */
static inline bool om_depth_test32(const om_dsa *s, const om_zs_target *t, uint32_t zfrag,
                                   void *texel)
{
    uint32_t v, w;
    memcpy(&v, texel, 4);
    bool pass = om_depth_test32_word(s, t, zfrag, v, &w);
    if (pass && s->depth_writemask)
        memcpy(texel, &w, 4);
    return pass;
}

/* ---- the early depth test of a warp's lanes (pipe_om_early32.c) ---------------------- */
/* The lanes of INSIDE (bit l: lane l) of a 4-byte depth target T (no stencil test; S's
 * depth test enabled): those whose coverage COV[l] has a sample of SMASK go through
 * om_depth_test32_word, lane l's fragment depth ZQ[l] (stored representation) against the
 * texel at BASE + STRIDE y[l] + 4 x[l], updated in place when it changes, and COV[l]
 * becomes 1 when it passes, 0 when not; the other lanes of INSIDE get COV 0, the rest
 * keep theirs. The lanes must be distinct texels of the ROWS rows from BASE. Returns the
 * lanes that pass. om_early_depth32_lanes is the lane-by-lane reference;
 * om_early_depth32 takes the AVX-512 kernel when WIDE (tv_cpu_avx512f, util/cpu_isa.h:
 * the machine has it) and the texels' element indices fit 31 bits, with the same results. */
uint32_t om_early_depth32_lanes(const om_dsa *s, const om_zs_target *t, uint8_t *base,
                                size_t stride, const int32_t x[32], const int32_t y[32],
                                const uint32_t zq[32], uint32_t inside, uint32_t smask,
                                uint32_t cov[32]);
uint32_t om_early_depth32(const om_dsa *s, const om_zs_target *t, uint8_t *base, size_t stride,
                          uint32_t rows, const int32_t x[32], const int32_t y[32],
                          const uint32_t zq[32], uint32_t inside, uint32_t smask,
                          uint32_t cov[32], bool wide);

/* The stencil op applied to a stored value (8 bits). */
uint8_t om_stencil_op(uint8_t op, uint8_t stored, uint8_t ref);

#endif
