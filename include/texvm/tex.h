/* texvm texture unit: descriptors (TIC/TSC), pools, handles, formats, and every sampling
 * operation, per lane, for up to 32 lanes per request.
 *
 * Memory model: the unit reads texel data, header pool and sampler pool through a
 * tv_memory, a small GPU-virtual address space made of host buffers mapped at 64-bit
 * addresses. Reads outside every mapping return zeros (and set a fault flag); the unit
 * never touches host memory outside a mapping.
 *
 * Both front ends (TGSI VM and SASS warp) build a tv_tex_request and call tv_tex_execute.
 * Results are raw 32-bit values per lane: float bits for float results, integers for
 * integer formats and queries. */
#ifndef TEXVM_TEX_H
#define TEXVM_TEX_H

#include "texvm/texvm.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TV_TEX_LANES 32

/* ---- memory ---------------------------------------------------------------------------- */
typedef struct tv_memory tv_memory;

tv_memory *tv_memory_create(void);
void tv_memory_destroy(tv_memory *mem);
/* Map `size` bytes of host memory at GPU address `addr` (no overlap with an existing
 * mapping). The host memory stays owned by the caller and must outlive the mapping. */
tv_status tv_memory_map(tv_memory *mem, uint64_t addr, void *host, uint64_t size, tv_error *err);
tv_status tv_memory_unmap(tv_memory *mem, uint64_t addr);
/* Copy out / in; bytes outside every mapping read as zero / are dropped. Returns true if
 * the whole range was mapped. */
bool tv_memory_read(const tv_memory *mem, uint64_t addr, void *dst, size_t size);
bool tv_memory_write(tv_memory *mem, uint64_t addr, const void *src, size_t size);
/* Host pointer for [addr, addr+size) if it lies inside one mapping, else NULL. */
void *tv_memory_host(const tv_memory *mem, uint64_t addr, size_t size);
/* The fault flag: number of reads (tv_memory_read, texel and descriptor loads) that
 * touched unmapped bytes since creation or the last clear. */
uint64_t tv_memory_fault_count(const tv_memory *mem);
void tv_memory_clear_faults(tv_memory *mem);

/* ---- formats --------------------------------------------------------------------------- */
/* texvm's format list (one row each in include/texvm/tex_formats.def). The TIC stores a format
 * as COMPONENTS + per-component data types + swizzle + sRGB; tv_tic_from_format() fills
 * those fields for a tv_format and tv_format_from_tic() recovers the memory layout. */
typedef enum tv_format {
    TV_FORMAT_NONE = 0,
#define TV_FORMAT(name, ...) TV_FORMAT_##name,
#include "texvm/tex_formats.def"
#undef TV_FORMAT
    TV_FORMAT_COUNT
} tv_format;

typedef enum tv_format_kind {
    TV_FMT_KIND_FLOAT,  /* unorm/snorm/float/shared-exponent/compressed: results are floats */
    TV_FMT_KIND_SINT,
    TV_FMT_KIND_UINT,
    TV_FMT_KIND_DEPTH,  /* depth (float results), possibly with stencil */
} tv_format_kind;

/* TIC per-component data types (R_DATA_TYPE …) and swizzle sources (X_SOURCE …). */
enum {
    TV_TIC_TYPE_SNORM = 1, TV_TIC_TYPE_UNORM = 2, TV_TIC_TYPE_SINT = 3, TV_TIC_TYPE_UINT = 4,
    TV_TIC_TYPE_SNORM_FORCE_FP16 = 5, TV_TIC_TYPE_UNORM_FORCE_FP16 = 6, TV_TIC_TYPE_FLOAT = 7
};
enum {
    TV_TIC_SOURCE_ZERO = 0, TV_TIC_SOURCE_R = 2, TV_TIC_SOURCE_G = 3, TV_TIC_SOURCE_B = 4,
    TV_TIC_SOURCE_A = 5, TV_TIC_SOURCE_ONE_INT = 6, TV_TIC_SOURCE_ONE_FLOAT = 7
};

typedef struct tv_format_info {
    const char *name;          /* "R8G8B8A8_UNORM" */
    const char *pipe_name;     /* "PIPE_FORMAT_R8G8B8A8_UNORM", NULL if none */
    uint8_t kind;              /* tv_format_kind */
    uint8_t block_w, block_h;  /* 1x1, or 4x4 for BCn */
    uint8_t block_bytes;       /* bytes per texel or per block */
    uint8_t channels;          /* components stored */
    bool srgb;
    /* How the TIC expresses it (tv_tic_from_format writes these). */
    uint8_t components;        /* TIC COMPONENTS code */
    uint8_t data_type[4];      /* TV_TIC_TYPE_* of R, G, B, A */
    uint8_t source[4];         /* TV_TIC_SOURCE_* of X, Y, Z, W */
    uint8_t bits[4];           /* stored bits of R, G, B, A (0 = absent; BCn: 8 per colour) */
} tv_format_info;

const tv_format_info *tv_format_get(tv_format f);
tv_format tv_format_from_name(const char *name);       /* "R8G8B8A8_UNORM"; NONE if unknown */
tv_format tv_format_from_pipe_name(const char *name);  /* "PIPE_FORMAT_…" */

/* Decode one texel (or, for block formats, texel (x%bw, y%bh) of a block) into four
 * 32-bit values: float bits for float/depth kinds, integers for SINT/UINT. Missing
 * components get the defaults of sampling.md §7.2. No swizzle is applied. */
void tv_format_unpack(tv_format f, const void *texel_or_block, unsigned x, unsigned y,
                      uint32_t out[4]);
/* Encode four values (floats or integers per kind) into one texel; not for block formats.
 * Returns false for block-compressed formats. Rounding: round-to-nearest-even. */
bool tv_format_pack(tv_format f, const uint32_t in[4], void *texel);

/* ---- descriptors ----------------------------------------------------------------------- */
/* Texture types of the TIC (TEXTURE_TYPE field). */
typedef enum tv_tex_type {
    TV_TEX_1D = 0, TV_TEX_2D = 1, TV_TEX_3D = 2, TV_TEX_CUBE = 3, TV_TEX_1D_ARRAY = 4,
    TV_TEX_2D_ARRAY = 5, TV_TEX_1D_BUFFER = 6, TV_TEX_2D_NO_MIPMAP = 7, TV_TEX_CUBE_ARRAY = 8
} tv_tex_type;

typedef enum tv_tic_layout {
    TV_TIC_ONE_D_BUFFER = 0, TV_TIC_PITCH_COLOR_KEY = 1, TV_TIC_PITCH = 2,
    TV_TIC_BLOCKLINEAR = 3, TV_TIC_BLOCKLINEAR_COLOR_KEY = 4
} tv_tic_layout;

/* Texture header (TIC), GM20x "new" layout, every field readable.
 * Fixed-point fields are kept as stored (raw) — helpers convert. */
typedef struct tv_tic {
    uint8_t components;        /* COMPONENT_SIZES code */
    uint8_t data_type[4];      /* R, G, B, A data types (1 SNORM … 7 FLOAT) */
    uint8_t source[4];         /* X, Y, Z, W swizzle sources (0 ZERO, 2 R … 7 ONE_FLOAT) */
    bool pack_components;
    uint64_t address;          /* 48-bit GPU address (alignment per layout) */
    uint8_t header_version;    /* tv_tic_layout */
    uint8_t coherency_hash;
    uint8_t gob_depth_offset;  /* block-linear only */
    uint8_t gobs_per_block_width, gobs_per_block_height, gobs_per_block_depth; /* log2 */
    uint8_t tile_width_in_gobs;
    bool gob3d;
    bool sparse_enable, use_array_tile_alignment;
    uint32_t pitch;            /* bytes, pitch layout (multiple of 32) */
    bool lod_aniso_quality2, lod_aniso_quality, lod_iso_quality;
    uint8_t aniso_coarse_spread_modifier, aniso_spread_scale;
    bool use_header_opt_control;
    bool depth_texture;
    uint8_t max_mip_level;     /* levels - 1 */
    uint32_t width_minus_one;  /* 16 bits, or 32 bits for ONE_D_BUFFER */
    uint8_t aniso_spread_max_log2;
    bool srgb;
    uint8_t texture_type;      /* tv_tex_type */
    uint8_t sector_promotion;
    uint8_t border_size;
    uint16_t height_minus_one;
    uint16_t depth_minus_one;  /* 14 bits: depth, layers, or cube count for cube arrays */
    bool normalized_coords;
    bool color_key_op;
    uint8_t trilin_opt;
    int16_t mip_lod_bias;      /* s5.8 raw (13-bit signed) */
    uint8_t aniso_bias;
    uint8_t aniso_fine_spread_func, aniso_coarse_spread_func;
    uint8_t max_anisotropy;    /* code 0..7 = 1,2,4,6,8,10,12,16 */
    uint8_t aniso_fine_spread_modifier;
    uint8_t res_view_min_mip_level, res_view_max_mip_level;
    uint8_t multi_sample_count;/* MSAA mode code */
    uint16_t min_lod_clamp;    /* u4.8 raw */
    uint32_t color_key_value;  /* *_COLOR_KEY versions */
} tv_tic;

typedef enum tv_wrap {
    TV_WRAP_REPEAT = 0, TV_WRAP_MIRROR = 1, TV_WRAP_CLAMP_TO_EDGE = 2, TV_WRAP_BORDER = 3,
    TV_WRAP_CLAMP_OGL = 4, TV_WRAP_MIRROR_ONCE_CLAMP_TO_EDGE = 5,
    TV_WRAP_MIRROR_ONCE_BORDER = 6, TV_WRAP_MIRROR_ONCE_CLAMP_OGL = 7
} tv_wrap;

typedef enum tv_compare_func {
    TV_CMP_NEVER = 0, TV_CMP_LESS, TV_CMP_EQUAL, TV_CMP_LEQUAL, TV_CMP_GREATER,
    TV_CMP_NOTEQUAL, TV_CMP_GEQUAL, TV_CMP_ALWAYS
} tv_compare_func;

enum { TV_MAG_POINT = 1, TV_MAG_LINEAR = 2 };
enum { TV_MIN_POINT = 1, TV_MIN_LINEAR = 2, TV_MIN_ANISO = 3 };
enum { TV_MIP_NONE = 1, TV_MIP_POINT = 2, TV_MIP_LINEAR = 3 };

/* Sampler (TSC), every field readable; fixed-point fields raw as stored. */
typedef struct tv_tsc {
    uint8_t address_u, address_v, address_p;   /* tv_wrap */
    bool depth_compare;
    uint8_t depth_compare_func;                /* tv_compare_func */
    bool srgb_conversion;
    uint8_t font_filter_width, font_filter_height;
    uint8_t max_anisotropy;                    /* code 0..7 */
    uint8_t mag_filter;                        /* TV_MAG_* */
    bool min_lod_clamp_integer_only;
    uint8_t min_filter;                        /* TV_MIN_* */
    uint8_t mip_filter;                        /* TV_MIP_* */
    uint8_t cubemap_interface_filtering;       /* 0..3; 2/3 = seamless */
    uint8_t reduction_filter;                  /* 0 average, 1 min, 2 max */
    int16_t mip_lod_bias;                      /* s5.8 raw */
    bool force_unnormalized_coords;
    uint8_t trilin_opt;
    uint16_t min_lod_clamp, max_lod_clamp;     /* u4.8 raw */
    uint8_t srgb_border_color[3];              /* R, G, B, 8-bit sRGB encoded */
    uint32_t border_color[4];                  /* float bits or integers */
} tv_tsc;

void tv_tic_encode(const tv_tic *tic, uint32_t out[8]);
void tv_tic_decode(const uint32_t in[8], tv_tic *tic);
void tv_tsc_encode(const tv_tsc *tsc, uint32_t out[8]);
void tv_tsc_decode(const uint32_t in[8], tv_tsc *tsc);

/* The border colour is substituted for the texel's stored components, before the header's
 * X/Y/Z/W swizzle — as on NVIDIA hardware, which is why Mesa's state tracker pre-swizzles
 * border colours for these GPUs (PIPE_QUIRK_TEXTURE_BORDER_COLOR_SWIZZLE_NV50). Front ends
 * with API semantics (the border colour is the final RGBA, GL/D3D) call this to rewrite a
 * sampler's border_color and srgb_border_color for the header it will be used with, so
 * that after the swizzle the border reads back as given. A component that several
 * channels read takes the lowest such channel's value; unreferenced ones are unchanged. */
void tv_tsc_border_for_header(tv_tsc *tsc, const tv_tic *tic);

/* Fill the sampler's SRGB_BORDER_COLOR_R/G/B from its border_color's R, G, B as floats:
 * the 8-bit sRGB encoding of each, clamped to [0, 1] (NaN as 0), as NVIDIA's drivers do
 * (nouveau: linear_float_to_srgb_8unorm). With SRGB_CONVERSION set, an sRGB view's border
 * reads these bytes decoded. */
void tv_tsc_srgb_border(tv_tsc *tsc);

/* Convenience: fill a header for a texture of `format` (sets components, data types,
 * swizzle, sRGB), with everything else zero; callers then set type, sizes, layout… */
tv_status tv_tic_from_format(tv_tic *tic, tv_format format, tv_error *err);
/* Recover texvm's format from a header's format fields (NONE if not representable). */
tv_format tv_format_from_tic(const tv_tic *tic);
/* Fixed-point helpers (float <-> raw field). */
float tv_fixed_s5_8_to_float(int16_t raw);
int16_t tv_float_to_fixed_s5_8(float f);   /* clamps to [-16, 16) */
float tv_fixed_u4_8_to_float(uint16_t raw);
uint16_t tv_float_to_fixed_u4_8(float f);  /* clamps to [0, 15.996] */
/* Anisotropy codes (TIC/TSC max_anisotropy 0..7): the ratio of each code, and the code of
 * a ratio — the largest whose ratio is not above it (0 below 2, and for NaN). */
extern const uint8_t tv_tex_aniso_ratio[8];  /* 1, 2, 4, 6, 8, 10, 12, 16 */
uint8_t tv_tex_aniso_code(double ratio);

/* Bytes a texture described by `tic` occupies in memory (whole mip chain, all layers,
 * all samples), and the address of texel (x,y,z or layer) of `level` (and sample). */
uint64_t tv_tic_size_bytes(const tv_tic *tic);
uint64_t tv_tic_texel_address(const tv_tic *tic, unsigned level, unsigned x, unsigned y,
                              unsigned z_or_layer, unsigned sample);
/* The addresses of N texels of a row at once, OUT[i] = tv_tic_texel_address(tic, level,
 * x0 + i x_step, y, z_or_layer, sample), the header decoded once (a placement of every
 * texel of a texture, sample by sample, made a decode per texel). */
void tv_tic_texel_addresses(const tv_tic *tic, unsigned level, unsigned x0, unsigned x_step,
                            unsigned n, unsigned y, unsigned z_or_layer, unsigned sample,
                            uint64_t *out);

/* ---- the unit -------------------------------------------------------------------------- */
typedef enum tv_tex_precision {
    TV_TEX_PRECISION_REFERENCE = 0, /* float32 weights, exact log2 (default) */
    /* an NVIDIA texture unit's arithmetic as measured on an H100
     * (docs/texture-unit-precision.md): 8-bit integer weights, LOD in 1/256 steps,
     * fixed-point fields, one exact sum; the general path (slower), with fast paths for
     * RGBA8-shaped bilinear/trilinear */
    TV_TEX_PRECISION_HARDWARE = 1
} tv_tex_precision;

typedef struct tv_tex_unit tv_tex_unit;

tv_tex_unit *tv_tex_create(tv_memory *mem);  /* the memory stays owned by the caller */
void tv_tex_destroy(tv_tex_unit *unit);
/* Pools: base address and the largest valid index (inclusive). */
void tv_tex_set_header_pool(tv_tex_unit *unit, uint64_t base, uint32_t max_index);
void tv_tex_set_sampler_pool(tv_tex_unit *unit, uint64_t base, uint32_t max_index);
/* Header-binding mode: the sampler index is the header index. */
void tv_tex_set_header_binding(tv_tex_unit *unit, bool enabled);
void tv_tex_set_precision(tv_tex_unit *unit, tv_tex_precision p);
tv_tex_precision tv_tex_get_precision(const tv_tex_unit *unit);
/* Drop cached decoded descriptors (call after rewriting pool memory). */
void tv_tex_invalidate(tv_tex_unit *unit);

/* A handle: samplerIndex[31:20] | headerIndex[19:0]. */
static inline uint32_t tv_tex_handle(uint32_t header_index, uint32_t sampler_index)
{
    return (sampler_index << 20) | (header_index & 0xfffffu);
}

/* Operations. */
typedef enum tv_tex_op {
    TV_TEX_OP_SAMPLE,       /* implicit LOD from quad derivatives */
    TV_TEX_OP_SAMPLE_BIAS,  /* implicit LOD + per-lane bias */
    TV_TEX_OP_SAMPLE_LOD,   /* explicit per-lane LOD */
    TV_TEX_OP_SAMPLE_LZ,    /* LOD zero */
    TV_TEX_OP_SAMPLE_GRAD,  /* explicit derivatives */
    TV_TEX_OP_GATHER,       /* four texels of the bilinear footprint, one component */
    TV_TEX_OP_FETCH,        /* integer texel coordinates, per-lane level / sample */
    TV_TEX_OP_QUERY_LOD,    /* result: see tv_tex_result.lod */
    TV_TEX_OP_QUERY_DIM,    /* per-lane level in `lod_i`; (w, h, d|layers, levels) */
    TV_TEX_OP_QUERY_SAMPLES,/* (samples, 0, 0, 0) */
    TV_TEX_OP_QUERY_SAMPLE_POS, /* per-lane sample index in `sample`; (x, y) in [0,1) */
    TV_TEX_OP_QUERY_TYPE,   /* (texture type, 0, samples, 0) for SASS TXQ TEXTURE_TYPE */
    TV_TEX_OP_COUNT
} tv_tex_op;

/* What the coordinates describe (the request's "target"); a mismatch with the header's
 * texture type returns zeros, except the documented array/non-array equivalences. */
typedef enum tv_tex_target {
    TV_TEXTGT_1D, TV_TEXTGT_1D_BUFFER, TV_TEXTGT_2D, TV_TEXTGT_2D_RECT, TV_TEXTGT_3D,
    TV_TEXTGT_CUBE, TV_TEXTGT_1D_ARRAY, TV_TEXTGT_2D_ARRAY, TV_TEXTGT_CUBE_ARRAY,
    TV_TEXTGT_2D_MS, TV_TEXTGT_2D_MS_ARRAY, TV_TEXTGT_COUNT
} tv_tex_target;

/* Per-request flags. */
enum {
    TV_TEXF_COMPARE = 1u << 0,        /* depth compare against `ref` (shadow targets) */
    TV_TEXF_PROJECTIVE = 1u << 1,     /* divide s,t,r (and ref) by `q` first */
    TV_TEXF_OFFSETS = 1u << 2,        /* apply `offset` (one per lane) */
    TV_TEXF_GATHER_4OFFSETS = 1u << 3,/* gather with `offset4` (four per lane) */
    TV_TEXF_PER_QUAD_LOD = 1u << 4,   /* LOD from the quad's top-left lane (option) */
    TV_TEXF_NO_DERIV = 1u << 5,       /* no implicit derivatives (SASS .NDV / partial quad) */
    /* TLDS-style state overrides (SASS): point filters, aniso 1:1, zero border, no compare */
    TV_TEXF_FETCH_OVERRIDES = 1u << 6,
    TV_TEXF_FORCE_LEVEL0 = 1u << 7,   /* fetch at level 0 (TXF_LZ, .LZ) */
    /* The caller reads only tv_tex_result.v (and .invalid): the QUERY_LOD extras of a
     * sampling op may be left unwritten (the TGSI engine's TEX family sets this). */
    TV_TEXF_VALUES_ONLY = 1u << 8,
};

/* Whether OP takes its LOD from the quad's implicit derivatives (the other lanes of its 2x2
 * quad): SAMPLE, SAMPLE_BIAS and QUERY_LOD. */
static inline bool tv_tex_op_implicit_lod(unsigned op)
{
    return op == TV_TEX_OP_SAMPLE || op == TV_TEX_OP_SAMPLE_BIAS || op == TV_TEX_OP_QUERY_LOD;
}

/* Whether every SAMPLE and SAMPLE_BIAS through HANDLE (of a TARGET request, without
 * TV_TEXF_FETCH_OVERRIDES) returns the same values whatever its derivatives and bias,
 * under the descriptors the pools hold now: one level reachable (the mip filter NONE, or
 * the view's last level its base, or an unnormalised view), the same filter for
 * magnification and minification (or an integer format), and no anisotropy. A fragment
 * program whose only derivatives are such samplings needs no helper lanes (the VM's
 * batches then pack covered pixels instead of 2x2 quads). False when the handle does not
 * resolve. */
bool tv_tex_lod_free(tv_tex_unit *unit, uint32_t handle, tv_tex_target target);

typedef struct tv_tex_request {
    uint8_t op;             /* tv_tex_op */
    uint8_t target;         /* tv_tex_target */
    uint32_t flags;         /* TV_TEXF_* */
    uint32_t active;        /* lane mask; inactive lanes are not written */
    /* Lanes that exist (active or helper); derivatives read lanes that are present but
     * inactive. Defaults to `active` when 0. */
    uint32_t present;
    uint32_t handle[TV_TEX_LANES];
    /* Float coordinates: s, t, r (or face vector x,y,z), array layer in [3] or as the
     * layout of sampling.md §10 says: coord[0]=s, [1]=t, [2]=r, [3]=layer. */
    float coord[4][TV_TEX_LANES];
    /* Integer coordinates for FETCH: x, y, z, layer. */
    int32_t icoord[4][TV_TEX_LANES];
    float q[TV_TEX_LANES];              /* projective divisor */
    float lod[TV_TEX_LANES];            /* explicit LOD or bias */
    int32_t lod_i[TV_TEX_LANES];        /* FETCH / QUERY_DIM level */
    int32_t sample[TV_TEX_LANES];       /* FETCH sample index, QUERY_SAMPLE_POS */
    float ref[TV_TEX_LANES];            /* depth compare reference */
    float ddx[3][TV_TEX_LANES];         /* SAMPLE_GRAD */
    float ddy[3][TV_TEX_LANES];
    int8_t offset[3][TV_TEX_LANES];     /* u, v, w texel offsets (-8..7) */
    int8_t offset4[4][2][TV_TEX_LANES]; /* gather 4-offset form: [texel][u/v] */
    uint8_t component;                  /* gather component 0..3 */
    float lod_clamp[TV_TEX_LANES];      /* extra per-lane min LOD clamp (0 = none) */
} tv_tex_request;

typedef struct tv_tex_result {
    uint32_t v[4][TV_TEX_LANES];        /* raw bits per component, after the view swizzle */
    /* QUERY_LOD extras (also filled for sampling ops, unless TV_TEXF_VALUES_ONLY):
     * accessed LOD (clamped, after level selection), unclamped lambda', major axis unit
     * vector (u, v) and log2(minor/major). */
    float lod_clamped[TV_TEX_LANES];
    float lod_unclamped[TV_TEX_LANES];
    float major_u[TV_TEX_LANES], major_v[TV_TEX_LANES];
    float log2_ratio[TV_TEX_LANES];
    uint32_t invalid;                   /* lanes whose handle or target was invalid */
} tv_tex_result;

/* Run one request. Never fails for bad data (bad handles/targets give zeros as the
 * hardware does); returns TV_ERR_ARG only for a malformed request (bad op/target). */
tv_status tv_tex_execute(tv_tex_unit *unit, const tv_tex_request *req, tv_tex_result *res,
                         tv_error *err);

/* Decoded descriptors for a handle (NULL/false when the index is past the pool max). */
bool tv_tex_lookup(tv_tex_unit *unit, uint32_t handle, tv_tic *tic, tv_tsc *tsc);

/* Standard sample positions (D3D / Vulkan standard pattern) for 1,2,4,8,16 samples. */
bool tv_tex_sample_position(unsigned samples, unsigned index, float *x, float *y);

/* The variant of the texture unit's vector kernels this processor runs: "avx512"
 * (AVX-512F and BW), "avx2" or "generic" (every variant gives the same bits; the speed
 * differs, so benchmark tables name it). */
const char *tv_tex_vector_kernel(void);

#ifdef __cplusplus
}
#endif
#endif
