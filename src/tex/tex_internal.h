/* Internal interface of the texture unit, shared by its modules:
 *   descriptors/pools/cache/memory/formats  (tex_desc*.c, tex_pool.c, tex_memory.c, format_*.c)
 *   sampling: coordinates, LOD, wrap, filter, gather, compare, fetch, queries (tex_sample*.c …)
 * The sampling side reads texels only through tex_load_texel(). */
#ifndef TEXVM_TEX_INTERNAL_H
#define TEXVM_TEX_INTERNAL_H

#include "texvm/tex.h"

struct tex_comp_layout;

#define TEX_MAX_LEVELS 16

/* A decoded, validated header: everything sampling needs, in plain numbers. */
typedef struct tex_view {
    tv_tic tic;                /* as decoded */
    tv_format format;          /* texvm row with the header's code + data types (NONE: invalid) */
    const tv_format_info *fi;  /* never NULL */
    uint8_t type;              /* tv_tex_type */
    uint32_t width, height, depth;  /* level-0 size in texels (depth = 1 unless 3D) */
    uint32_t layers;           /* array layers (cube: 6, cube array: 6 * cubes), else 1 */
    uint32_t levels;           /* max_mip_level + 1 */
    uint32_t base_level;       /* res_view_min_mip_level (clamped to levels - 1) */
    uint32_t max_level;        /* res_view_max_mip_level (inclusive, clamped to [base, levels-1]) */
    uint32_t samples;          /* 1, 2, 4, 8, 16 */
    uint32_t sample_grid_w, sample_grid_h; /* storage scale for MSAA */
    bool srgb;                 /* header asks for sRGB decode */
    bool normalized;
    bool valid;                /* false: unusable header (lookups return zeros) */

    /* ---- data side (filled by tex_view_init; the sampling side may read them) ---- */
    uint8_t kind;              /* tv_format_kind of the header's code + data types */
    bool is_integer;           /* SINT/UINT kind: never filtered */
    bool is_depth;             /* DEPTH kind */
    bool depth_texture;        /* TIC DEPTH_TEXTURE: border colour R smeared to RGBA */
    const struct tex_comp_layout *layout;  /* COMPONENTS code layout */
    uint8_t mem_layout;        /* tv_tic_layout (header version) */
    uint32_t block_w, block_h, block_bytes;
    uint32_t pitch;            /* pitch layout: bytes per row of blocks */
    uint8_t gob_h_log2[TEX_MAX_LEVELS], gob_d_log2[TEX_MAX_LEVELS]; /* per-level BL block */
    uint64_t level_offset[TEX_MAX_LEVELS]; /* bytes from the layer start to each level */
    uint64_t level_slice[TEX_MAX_LEVELS];  /* bytes per z slice (BL: per slice of blocks) */
    uint32_t level_gobs_x[TEX_MAX_LEVELS]; /* BL: GOBs per row of blocks */
    uint32_t level_rows[TEX_MAX_LEVELS];   /* rows of texels/blocks (MSAA scaled) */
    uint8_t block_w_log2, block_h_log2;
    uint64_t layer_stride;     /* bytes between array layers / cube faces */
    uint64_t size_bytes;       /* whole resource (tv_tic_size_bytes) */
    /* host pointer to the whole resource when it lies in one mapping (revalidated when
     * the memory's mappings change; NULL: go through tv_memory_read) */
    const uint8_t *host;
    uint64_t host_generation;
    /* unorm8x4 (tex_layout.c): a 1x1-block, 4-byte PLAIN layout of four 8-bit UNORM
     * components, single sample — component c is byte unorm8_byte[c] of the texel; loads
     * decode it by table (tex_texel.c), the fast paths (src/tex/fast/) take it */
    bool unorm8x4;
    uint8_t unorm8_byte[4];
    /* every stored component is 8-bit UNORM in a PLAIN layout (R8 … RGBA8, any order):
     * the hardware precision filters these in 16 bits (tex_hw_filter.c); every stored
     * component is a 16-bit float (R16F … RGBA16F): it rounds their sums to half */
    bool unorm8, float16;
} tex_view;

/* Build a view from a decoded header (every field above; valid = false when unusable). */
void tex_view_init(tex_view *v, const tv_tic *tic);
/* Byte offset, from the header address, of byte `byte` of the texel/block holding
 * storage texel (x, y) (x, y in texels, already scaled for MSAA), slice z, layer. */
uint64_t tex_texel_offset(const tex_view *v, unsigned level, unsigned x, unsigned y,
                          unsigned z, unsigned layer, unsigned byte);
/* MSAA: storage position of `sample` inside a pixel's sample grid. */
void tex_sample_grid_pos(const tex_view *v, unsigned sample, unsigned *sx, unsigned *sy);
/* Memory generation (bumped on every map/unmap), for host-pointer revalidation. */
uint64_t tex_memory_generation(const tv_memory *mem);

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
    bool no_fast_paths;        /* tests: force the general path (fast/tex_fast.h) */
    uint8_t vec_isa_cap;       /* widest vector kernel variant allowed (fast/tex_fast.h) */
};

/* Decode a sampler entry into its float-ready form (valid is always true: every bit
 * pattern is a usable sampler; undefined filter codes read as the nearest defined one,
 * see tex_pool.c). */
void tex_sampler_init(tex_sampler *s, const tv_tsc *tsc);

/* Resolve a handle to decoded descriptors (cached). Returns false when either index is
 * past its pool maximum or the header is unusable: the lookup then returns zeros.
 * Header-binding mode uses the header index as the sampler index. The pointers stay
 * valid until tv_tex_invalidate() or tv_tex_destroy(). Thread-safe (the cache is
 * locked); pool memory rewritten after a lookup is seen only after tv_tex_invalidate(),
 * as on the hardware. On failure *view / *sampler are set to NULL. */
bool tex_resolve(tv_tex_unit *unit, uint32_t handle, const tex_view **view,
                 const tex_sampler **sampler);
/* Header only (for TLDS/TXQ-style paths that use only the header pointer). */
bool tex_resolve_header(tv_tex_unit *unit, uint32_t header_index, const tex_view **view);

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
 * ONE_FLOAT). ONE_INT gives integer 1 and ONE_FLOAT 1.0f whatever the format kind, as the
 * TIC says (tv_tic_from_format picks the right one for each format); undefined source
 * codes (1) read as ZERO. `in` and `out` may alias. */
void tex_apply_swizzle(const tex_view *v, const uint32_t in[4], uint32_t out[4]);

/* The view's "1" for missing components / out-of-range fetches: 1 or 1.0f by kind. */
static inline uint32_t tex_one(const tex_view *v) { return v->is_integer ? 1u : 0x3f800000u; }

#endif
