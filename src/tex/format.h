/* Internal format machinery of the texture unit: the COMPONENTS-code layout table
 * (format_components.def), the decoders and encoders, and the sRGB tables. A texel's
 * meaning is fully given by (COMPONENTS code, four data types, sRGB): the decoders work
 * from those, so any header the TIC can express decodes, not only tv_format rows. */
#ifndef TEXVM_TEX_FORMAT_H
#define TEXVM_TEX_FORMAT_H

#include "texvm/tex.h"

typedef enum tex_decoder {
    TEX_DEC_NONE = 0, TEX_DEC_PLAIN, TEX_DEC_SHAREDEXP, TEX_DEC_DEPTH,
    TEX_DEC_BC1, TEX_DEC_BC2, TEX_DEC_BC3, TEX_DEC_BC4, TEX_DEC_BC5,
    TEX_DEC_BC6H_SF, TEX_DEC_BC6H_UF, TEX_DEC_BC7
} tex_decoder;

/* One COMPONENTS code. */
typedef struct tex_comp_layout {
    const char *name;          /* "A8B8G8R8" */
    uint8_t code;
    uint8_t bytes;             /* per texel, or per block */
    uint8_t block_w, block_h;
    uint8_t decoder;           /* tex_decoder */
    uint8_t off[4], bits[4];   /* R, G, B, A bit fields (bits 0 = absent) */
    uint8_t channels;          /* number of present components */
} tex_comp_layout;

/* Layout of a COMPONENTS code, NULL if texvm does not decode it. */
const tex_comp_layout *tex_comp_layout_get(unsigned code);
const tex_comp_layout *tex_comp_layout_by_name(const char *name);

/* Result kind (tv_format_kind) of a code + data types; -1 if the types are unusable
 * (a present component with data type 0, or mixed integer/float types). */
int tex_format_kind(const tex_comp_layout *l, const uint8_t types[4]);

/* Decode one texel, or texel (x, y) of a block, to four 32-bit values (float bits or
 * integers), with the missing-component defaults of sampling.md §7.2 and, if `srgb`,
 * sRGB -> linear on the eligible components (≤ 8-bit UNORM colour components; never the
 * last component of a 2- or 4-component layout). */
void tex_decode(const tex_comp_layout *l, const uint8_t types[4], bool srgb,
                const uint8_t *data, unsigned x, unsigned y, uint32_t out[4]);

/* Block decoders: texel (x, y) of a 4x4 block. BC1-BC5 give the exact value of the
 * spec formulas (endpoints expanded to [0,1], interpolated in exact arithmetic, rounded
 * once to float). BC1 with `punch_through` gives alpha 0 for index 3 in 3-colour mode.
 * BC6H gives floats, BC7 8-bit UNORM RGBA. Malformed BC6H/BC7 blocks give zeros. */
void tex_bc1_texel(const uint8_t *blk, unsigned x, unsigned y, bool four_colour_only,
                   double rgba[4]);   /* exact values (sRGB is applied to them before rounding) */
float tex_bc2_alpha(const uint8_t *blk, unsigned x, unsigned y);
/* BC4 channel (8 bytes): unorm in [0,1] or snorm in [-1,1] (BC3 alpha = unorm BC4). */
float tex_bc4_value(const uint8_t *blk, unsigned x, unsigned y, bool is_signed);
void tex_bc6h_texel(const uint8_t *blk, unsigned x, unsigned y, bool is_signed, float rgb[3]);
void tex_bc7_texel(const uint8_t *blk, unsigned x, unsigned y, uint8_t rgba[4]);

/* BPTC (BC6H/BC7) shared tables and bit reading (format_bptc.c). Partition tables hold the
 * subset of texel i in bits [2i+1:2i]. */
extern const uint32_t tex_bptc_part2[64], tex_bptc_part3[64];
extern const uint8_t tex_bptc_anchor2[64], tex_bptc_anchor3[64][2];
extern const uint8_t tex_bptc_weights2[4], tex_bptc_weights3[8], tex_bptc_weights4[16];
uint32_t tex_bptc_bits(const uint8_t *blk, unsigned pos, unsigned n);
uint32_t tex_bptc_index(const uint8_t *blk, unsigned pos, unsigned bits, unsigned t,
                        const uint8_t *anchors, unsigned nanchors);

/* sRGB: 8-bit code -> linear float (exact float of the GL formula, table), and a general
 * version for other bit widths. linear -> 8-bit sRGB code (RNE on the encoded value). */
extern const uint32_t tex_srgb8_to_linear_bits[256];
float tex_srgb_to_linear(float cs);
double tex_srgb_to_linear_d(double cs);
float tex_linear_to_srgb(float cl);

/* c / 255 rounded once, for every 8-bit UNORM code (the decoder's table). */
extern const float tex_unorm8[256];

/* Data type helpers. */
static inline bool tex_type_is_int(unsigned t) { return t == 3 || t == 4; }

#endif
