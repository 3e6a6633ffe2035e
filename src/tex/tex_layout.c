/* Texel memory layouts (nvidia-texture.md §1.2): 1D buffer, pitch-linear and block-linear
 * (64-byte x 8-row GOBs grouped in blocks of 2^h GOBs high and 2^d deep), mip chains,
 * array layers / cube faces, MSAA sample grids; and the view built from a header. */
#include "tex/tex_internal.h"
#include "tex/tex_formulas.h"
#include "tex/format.h"

#include <string.h>

static uint32_t max1(uint32_t v) { return v ? v : 1; }
static uint64_t div_up(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

/* Sample grid (w, h) and count of the TIC MULTI_SAMPLE_COUNT codes; count 0 = undefined. */
static const struct { uint8_t w, h, count; } msaa_modes[16] = {
    [0] = {1, 1, 1},   /* 1X1 */
    [1] = {2, 1, 2},   /* 2X1 */
    [2] = {2, 2, 4},   /* 2X2 */
    [3] = {4, 2, 8},   /* 4X2 */
    [4] = {4, 2, 8},   /* 4X2_D3D */
    [5] = {2, 1, 2},   /* 2X1_D3D */
    [6] = {4, 4, 16},  /* 4X4 */
    [8] = {2, 2, 4},   /* 2X2_VC_4 */
    [9] = {2, 2, 4},   /* 2X2_VC_12 */
    [10] = {4, 2, 8},  /* 4X2_VC_8 */
    [11] = {4, 2, 8},  /* 4X2_VC_24 */
    [12] = {2, 1, 2},  /* 2X1_CENTER */
    [13] = {2, 2, 4},  /* 2X2_CENTER */
    [14] = {4, 2, 8},  /* 4X2_CENTER */
    [15] = {4, 4, 16}, /* 4X4_REGULAR */
};

/* Storage size of a level in blocks (MSAA grid applied). */
static uint32_t level_w_blocks(const tex_view *v, unsigned level)
{
    return (uint32_t)div_up((uint64_t)max1(v->width >> level) * v->sample_grid_w, v->block_w);
}
static uint32_t level_h_blocks(const tex_view *v, unsigned level)
{
    return (uint32_t)div_up((uint64_t)max1(v->height >> level) * v->sample_grid_h, v->block_h);
}

uint32_t tex_level_width(const tex_view *v, unsigned level)
{
    return level >= 32 ? 1 : max1(v->width >> level);
}
uint32_t tex_level_height(const tex_view *v, unsigned level)
{
    return level >= 32 ? 1 : max1(v->height >> level);
}
uint32_t tex_level_depth(const tex_view *v, unsigned level)
{
    return level >= 32 ? 1 : max1(v->depth >> level);
}

/* Bytes of one level of one layer (all its z slices). */
static uint64_t level_bytes(const tex_view *v, unsigned level)
{
    uint64_t rows = level_h_blocks(v, level), row_bytes = (uint64_t)level_w_blocks(v, level) * v->block_bytes;
    uint64_t depth = tex_level_depth(v, level);
    if (v->mem_layout == TV_TIC_PITCH || v->mem_layout == TV_TIC_PITCH_COLOR_KEY)
        return (uint64_t)v->pitch * rows * depth;
    unsigned bh = v->gob_h_log2[level], bd = v->gob_d_log2[level];
    uint64_t gobs_x = div_up(row_bytes, 64);
    uint64_t blocks_y = div_up(rows, (uint64_t)8 << bh), blocks_z = div_up(depth, (uint64_t)1 << bd);
    return (gobs_x * blocks_y * blocks_z) << (9 + bh + bd);
}

static void compute_layout(tex_view *v)
{
    v->block_w_log2 = v->block_w == 4 ? 2 : 0;
    v->block_h_log2 = v->block_h == 4 ? 2 : 0;
    if (v->mem_layout == TV_TIC_ONE_D_BUFFER) {
        v->level_offset[0] = 0;
        v->layer_stride = (uint64_t)v->width * v->block_bytes;
        v->size_bytes = v->layer_stride;
        return;
    }
    bool bl = v->mem_layout == TV_TIC_BLOCKLINEAR || v->mem_layout == TV_TIC_BLOCKLINEAR_COLOR_KEY;
    unsigned bh0 = v->tic.gobs_per_block_height, bd0 = v->tic.gobs_per_block_depth;
    uint64_t total = 0;
    for (unsigned l = 0; l < v->levels; l++) {
        /* Levels below 0 shrink the block while it is at least twice the level's size
         * (rows in GOBs of 8, slices); level 0 uses the header's block as given. */
        unsigned bh = bh0, bd = bd0;
        uint32_t rows = level_h_blocks(v, l), depth = tex_level_depth(v, l);
        if (l > 0) {
            while (bh > 0 && rows <= (8u << (bh - 1)))
                bh--;
            while (bd > 0 && depth <= (1u << (bd - 1)))
                bd--;
        }
        v->gob_h_log2[l] = (uint8_t)bh;
        v->gob_d_log2[l] = (uint8_t)bd;
        v->level_rows[l] = rows;
        uint64_t row_bytes = (uint64_t)level_w_blocks(v, l) * v->block_bytes;
        v->level_gobs_x[l] = (uint32_t)div_up(row_bytes, 64);
        if (bl)
            v->level_slice[l] = ((uint64_t)v->level_gobs_x[l] * div_up(rows, (uint64_t)8 << bh))
                                << (9 + bh + bd);
        else
            v->level_slice[l] = (uint64_t)v->pitch * rows;
        v->level_offset[l] = total;
        total += level_bytes(v, l);
    }
    if (bl && v->layers > 1) {
        uint64_t align = (uint64_t)512 << (bh0 + bd0);
        total = div_up(total, align) * align;
    }
    v->layer_stride = total;
    v->size_bytes = total * v->layers;
}

void tex_sample_grid_pos(const tex_view *v, unsigned sample, unsigned *sx, unsigned *sy)
{
    unsigned gw = v->sample_grid_w ? v->sample_grid_w : 1;
    *sx = sample % gw;
    *sy = (sample / gw) % (v->sample_grid_h ? v->sample_grid_h : 1);
}

/* Byte offset of (xb, y, z) inside a block-linear level: xb is the byte column. */
static inline uint64_t bl_offset(const tex_view *v, unsigned level, uint64_t xb, uint64_t y,
                                 uint64_t z)
{
    unsigned bh = v->gob_h_log2[level], bd = v->gob_d_log2[level];
    unsigned block_shift = 9 + bh + bd;                          /* bytes per block, log2 */
    return (z >> bd) * v->level_slice[level]                     /* block slice */
           + (((z & ((1u << bd) - 1)) << bh) << 9)               /* GOB slice in block */
           + tex_bl_row(y, bh, v->level_gobs_x[level], block_shift) /* block row, GOB row */
           + tex_bl_col(xb, block_shift);                        /* block column, in GOB */
}

uint64_t tex_texel_offset(const tex_view *v, unsigned level, unsigned x, unsigned y,
                          unsigned z, unsigned layer, unsigned byte)
{
    uint64_t bx = x >> v->block_w_log2, by = y >> v->block_h_log2;
    if (v->mem_layout == TV_TIC_ONE_D_BUFFER)
        return bx * v->block_bytes + byte;
    uint64_t base = (uint64_t)layer * v->layer_stride + v->level_offset[level];
    if (v->mem_layout == TV_TIC_PITCH || v->mem_layout == TV_TIC_PITCH_COLOR_KEY)
        return base + (uint64_t)z * v->level_slice[level] + by * v->pitch +
               bx * v->block_bytes + byte;
    return base + bl_offset(v, level, bx * v->block_bytes + byte, by, z);
}

/* The PLAIN layouts the sampling paths single out. unorm8x4: a 1x1-block, 4-byte layout of
 * four 8-bit UNORM components, single sample, not a buffer — component c is byte
 * unorm8_byte[c] of the texel; the shape tex_load_texel decodes by the table alone and the
 * fast paths take (src/tex/fast/). unorm8 / float16: every stored component 8-bit UNORM /
 * 16-bit float, whose sums the hardware precision rounds its own way (tex_hw_filter.c). */
static void classify_plain(tex_view *v)
{
    v->unorm8x4 = false;
    v->unorm8 = v->float16 = false;
    const tex_comp_layout *l = v->layout;
    if (v->valid && l && l->decoder == TEX_DEC_PLAIN && l->block_w == 1 && l->block_h == 1) {
        bool all8 = l->channels > 0, all16f = l->channels > 0;
        for (unsigned c = 0; c < 4; c++) {
            if (l->bits[c] && (l->bits[c] != 8 || v->tic.data_type[c] != TV_TIC_TYPE_UNORM))
                all8 = false;
            if (l->bits[c] && (l->bits[c] != 16 || v->tic.data_type[c] != TV_TIC_TYPE_FLOAT))
                all16f = false;
        }
        v->unorm8 = all8;
        v->float16 = all16f;
    }
    if (!v->valid || !l || l->decoder != TEX_DEC_PLAIN || l->bytes != 4 || l->block_w != 1 ||
        l->block_h != 1 || v->samples != 1 || v->mem_layout == TV_TIC_ONE_D_BUFFER)
        return;
    for (unsigned c = 0; c < 4; c++) {
        if (l->bits[c] != 8 || (l->off[c] & 7u) || v->tic.data_type[c] != TV_TIC_TYPE_UNORM)
            return;
        v->unorm8_byte[c] = (uint8_t)(l->off[c] / 8u);
    }
    v->unorm8x4 = true;
}

void tex_view_init(tex_view *v, const tv_tic *tic)
{
    memset(v, 0, sizeof *v);
    v->tic = *tic;
    v->mem_layout = tic->header_version;
    v->type = tic->texture_type;
    v->format = tv_format_from_tic(tic);
    v->fi = tv_format_get(v->format);
    v->srgb = tic->srgb;
    v->normalized = tic->normalized_coords;
    v->depth_texture = tic->depth_texture;
    v->width = v->height = v->depth = v->layers = v->levels = 1;
    v->samples = v->sample_grid_w = v->sample_grid_h = 1;
    v->block_w = v->block_h = 1;

    const tex_comp_layout *l = tex_comp_layout_get(tic->components);
    int kind = l ? tex_format_kind(l, tic->data_type) : -1;
    bool ok = l && kind >= 0 && v->format != TV_FORMAT_NONE && tic->header_version <= 4 &&
              tic->texture_type <= TV_TEX_CUBE_ARRAY;
    if (l) {
        v->layout = l;
        v->block_w = l->block_w;
        v->block_h = l->block_h;
        v->block_bytes = l->bytes;
    }
    v->kind = (uint8_t)(kind < 0 ? TV_FMT_KIND_FLOAT : kind);
    v->is_integer = kind == TV_FMT_KIND_SINT || kind == TV_FMT_KIND_UINT;
    v->is_depth = kind == TV_FMT_KIND_DEPTH;

    bool buffer = tic->header_version == TV_TIC_ONE_D_BUFFER;
    if (buffer != (tic->texture_type == TV_TEX_1D_BUFFER))
        ok = false;
    if (buffer) {
        v->width = tic->width_minus_one + 1u;
        if (!v->width || (l && l->block_w != 1))
            ok = false;             /* 2^32 texels, or a block format in a buffer */
        if (!v->width)
            v->width = 1;
    } else {
        v->width = (tic->width_minus_one & 0xffff) + 1u;
        switch (tic->texture_type) {
        case TV_TEX_1D:
            break;
        case TV_TEX_1D_ARRAY:
            v->layers = tic->depth_minus_one + 1u;
            break;
        case TV_TEX_2D:
        case TV_TEX_2D_NO_MIPMAP:
            v->height = tic->height_minus_one + 1u;
            break;
        case TV_TEX_2D_ARRAY:
            v->height = tic->height_minus_one + 1u;
            v->layers = tic->depth_minus_one + 1u;
            break;
        case TV_TEX_3D:
            v->height = tic->height_minus_one + 1u;
            v->depth = tic->depth_minus_one + 1u;
            break;
        case TV_TEX_CUBE:
            v->height = tic->height_minus_one + 1u;
            v->layers = 6;
            break;
        case TV_TEX_CUBE_ARRAY:
            v->height = tic->height_minus_one + 1u;
            v->layers = 6u * (tic->depth_minus_one + 1u);
            break;
        default:
            break;
        }
        v->levels = tic->max_mip_level + 1u;
        bool color_key = tic->header_version == TV_TIC_PITCH_COLOR_KEY ||
                         tic->header_version == TV_TIC_BLOCKLINEAR_COLOR_KEY;
        if (!color_key) {
            v->base_level = tic->res_view_min_mip_level;
            v->max_level = tic->res_view_max_mip_level;
            unsigned m = tic->multi_sample_count & 15;
            if (!msaa_modes[m].count)
                ok = false;
            else {
                v->samples = msaa_modes[m].count;
                v->sample_grid_w = msaa_modes[m].w;
                v->sample_grid_h = msaa_modes[m].h;
            }
        } else {
            v->base_level = 0;
            v->max_level = v->levels - 1;
        }
        if (v->base_level > v->levels - 1)
            v->base_level = v->levels - 1;
        if (v->max_level > v->levels - 1)
            v->max_level = v->levels - 1;
        if (v->max_level < v->base_level)
            v->max_level = v->base_level;
        if (tic->header_version == TV_TIC_BLOCKLINEAR ||
            tic->header_version == TV_TIC_BLOCKLINEAR_COLOR_KEY) {
            if (tic->gobs_per_block_height > 5 || tic->gobs_per_block_depth > 5)
                ok = false;
        } else {
            v->pitch = tic->pitch;
        }
    }
    if (ok)
        compute_layout(v);
    v->valid = ok;
    classify_plain(v);
}

/* ---- public helpers on a bare header --------------------------------------------------- */
uint64_t tv_tic_size_bytes(const tv_tic *tic)
{
    tex_view v;
    tex_view_init(&v, tic);
    return v.valid ? v.size_bytes : 0;
}

/* tv_tic_texel_address on V, the view of TIC */
static uint64_t view_texel_address(const tex_view *v, const tv_tic *tic, unsigned level,
                                   unsigned x, unsigned y, unsigned z_or_layer, unsigned sample)
{
    if (!v->valid || level >= v->levels)
        return tic->address;
    unsigned sx, sy;
    tex_sample_grid_pos(v, sample, &sx, &sy);
    bool is3d = v->type == TV_TEX_3D;
    return tic->address + tex_texel_offset(v, level, x * v->sample_grid_w + sx,
                                           y * v->sample_grid_h + sy, is3d ? z_or_layer : 0,
                                           is3d ? 0 : z_or_layer, 0);
}

uint64_t tv_tic_texel_address(const tv_tic *tic, unsigned level, unsigned x, unsigned y,
                              unsigned z_or_layer, unsigned sample)
{
    tex_view v;
    tex_view_init(&v, tic);
    return view_texel_address(&v, tic, level, x, y, z_or_layer, sample);
}

void tv_tic_texel_addresses(const tv_tic *tic, unsigned level, unsigned x0, unsigned x_step,
                            unsigned n, unsigned y, unsigned z_or_layer, unsigned sample,
                            uint64_t *out)
{
    tex_view v;
    tex_view_init(&v, tic);
    for (unsigned i = 0; i < n; i++)
        out[i] = view_texel_address(&v, tic, level, x0 + i * x_step, y, z_or_layer, sample);
}
