/* Internal interface of the texture unit, shared by its modules:
 *   descriptors/pools/cache/memory/formats  (tex_desc*.c, tex_pool.c, tex_memory.c, format_*.c)
 *   sampling: coordinates, LOD, wrap, filter, gather, compare, fetch, queries (tex_sample*.c …)
 * The sampling side reads texels only through tex_load_texel(). */
#ifndef TEXVM_TEX_INTERNAL_H
#define TEXVM_TEX_INTERNAL_H

#include "texvm/tex.h"

/* A decoded, validated header: everything sampling needs, in plain numbers. */
typedef struct tex_view {
    tv_tic tic;                /* as decoded */
    tv_format format;          /* memory layout of one texel/block */
    const tv_format_info *fi;
    uint8_t type;              /* tv_tex_type */
    uint32_t width, height, depth;  /* level-0 size in texels (depth = 1 unless 3D) */
    uint32_t layers;           /* array layers (cube: 6, cube array: 6 * cubes), else 1 */
    uint32_t levels;           /* max_mip_level + 1 */
    uint32_t base_level;       /* res_view_min_mip_level */
    uint32_t max_level;        /* res_view_max_mip_level (inclusive) */
    uint32_t samples;          /* 1, 2, 4, 8, 16 */
    uint32_t sample_grid_w, sample_grid_h; /* storage scale for MSAA */
    bool srgb;                 /* header asks for sRGB decode */
    bool normalized;
    bool valid;                /* false: unusable header (lookups return zeros) */
} tex_view;

/* A decoded sampler with float versions of the fixed-point fields. */
typedef struct tex_sampler {
    tv_tsc tsc;
    float lod_bias, min_lod, max_lod;
    uint32_t max_aniso;        /* 1, 2, 4, 6, 8, 10, 12, 16 */
    bool seamless_cube;
    bool valid;
} tex_sampler;

struct tv_tex_unit {
    tv_memory *mem;
    uint64_t header_base, sampler_base;
    uint32_t header_max, sampler_max;
    bool header_binding;
    tv_tex_precision precision;
    void *cache;               /* decoded-descriptor cache (tex_pool.c) */
};

/* Resolve a handle to decoded descriptors (cached). Returns false when either index is
 * past its pool maximum or the header is unusable: the lookup then returns zeros. */
bool tex_resolve(tv_tex_unit *unit, uint32_t handle, const tex_view **view,
                 const tex_sampler **sampler);

/* Size of `level` (relative to level 0 of the resource, not the view), at least 1. */
uint32_t tex_level_width(const tex_view *v, unsigned level);
uint32_t tex_level_height(const tex_view *v, unsigned level);
uint32_t tex_level_depth(const tex_view *v, unsigned level);

/* Load and decode one texel. Coordinates must be in range (the sampler wraps first);
 * `layer` is the array layer or cube face (cube arrays: 6*cube + face). `srgb` requests
 * sRGB->linear decode of the colour components (only for ≤8-bit UNORM components, never
 * alpha). Output: four 32-bit values (float bits or integers), missing components filled
 * per sampling.md §7.2, no view swizzle. */
void tex_load_texel(tv_tex_unit *unit, const tex_view *v, unsigned level, unsigned x,
                    unsigned y, unsigned z, unsigned layer, unsigned sample, bool srgb,
                    uint32_t out[4]);

/* Apply the header's X/Y/Z/W source swizzle to decoded values (ZERO, R, G, B, A, ONE_INT,
 * ONE_FLOAT). `is_int` selects what ONE means when the source says ONE_FLOAT on an integer
 * format etc. (documented in tex_swizzle.c). */
void tex_apply_swizzle(const tex_view *v, const uint32_t in[4], uint32_t out[4]);

#endif
