/* Internal interface of the SAMPLING half of the texture unit (tex_execute.c, tex_target.c,
 * tex_coord.c, tex_cube.c, tex_lod.c, tex_wrap.c, tex_border.c, tex_filter.c,
 * tex_gather.c, tex_fetch.c, tex_query.c). Texels are read only through tex_internal.h.
 * The rules implemented here are documented in docs/texture-unit.md. */
#ifndef TEXVM_TEX_SAMPLING_H
#define TEXVM_TEX_SAMPLING_H

#include <math.h>

#include "tex/tex_formulas.h"
#include "tex/tex_internal.h"

/* ---- targets (tex_target.c) ------------------------------------------------------------ */
typedef struct tex_target_info {
    const char *name;
    uint8_t dims;      /* coordinate axes scaled by the texture size: 1, 2 or 3 */
    bool array;        /* coord[3] / icoord[3] is a layer */
    bool cube;         /* coord[0..2] is a direction */
    bool ms;           /* multisample: fetch takes `sample` */
    uint16_t types;    /* header types (1 << tv_tex_type) this target may address */
    uint16_t ops;      /* ops (1 << tv_tex_op) defined for this target */
} tex_target_info;

const tex_target_info *tex_target_get(unsigned target);

/* ---- per-lane context ------------------------------------------------------------------ */
enum { TEX_FILTER_NEAREST = 0, TEX_FILTER_LINEAR = 1 };

typedef struct tex_ctx {
    tv_tex_unit *unit;
    const tex_view *v;
    const tex_sampler *s;
    const tex_target_info *tgt;
    bool hw;                 /* hardware precision mode */
    bool is_int;             /* SINT/UINT format: never filtered */
    bool srgb;               /* decode sRGB on load */
    bool compare;            /* depth compare per texel */
    uint8_t cmp_func;
    float ref;               /* (clamped) reference */
    bool normalized;
    bool seamless;           /* cube: seamless edges/corners */
    uint8_t wrap[3];
    uint8_t mag, min, mip;   /* TV_MAG_*, TV_MIN_*, TV_MIP_* after overrides */
    uint32_t max_aniso;      /* 1..16 */
    uint8_t reduction;       /* TSC REDUCTION_FILTER: 0 weighted average, 1 min, 2 max */
    uint32_t border[4];      /* border texel, pre-swizzle (float bits or integers) */
    uint32_t base_level;     /* absolute level of view level 0 */
    uint32_t q;              /* last accessible view level (relative) */
    uint32_t layer;          /* array layer (cube: first face of the cube) */
    int8_t off[3];           /* texel offsets for this lane (zeros when none) */
    bool fast;               /* unorm8x4 view, no sRGB/compare/int/reduction: tex_fast_linear_2d */
    float lod_scale[3];      /* tex_lod_scale of this context, computed once per request */
} tex_ctx;

/* Whether a filter mode (TV_MAG_* or TV_MIN_*) filters linearly: LINEAR, and ANISO, whose
 * probes are each linear (tex_filter_sample); POINT and invalid codes take the nearest. */
static inline bool tex_mode_linear(unsigned mode)
{
    return mode == TV_MAG_LINEAR || mode == TV_MIN_ANISO;
}

/* The part of a lane's context that depends only on the view, the sampler and the request
 * (tex_execute.c; every field above but layer, ref and off, which are per lane). Also
 * the hardware precision's whole-request path (fast/tex_warp_hw.c) builds its context
 * with it. */
void tex_setup_ctx(tv_tex_unit *unit, const tex_view *v, const tex_sampler *s,
                   const tex_target_info *tgt, const tv_tex_request *req, tex_ctx *c);

/* A value flowing through filtering: float components, or raw integers for SINT/UINT. */
typedef struct tex_val {
    float f[4];
    uint32_t u[4];
} tex_val;

/* ---- small numeric helpers (tex_coord.c) ----------------------------------------------- */
#define TEX_I64_LIMIT 1099511627776.0f /* 2^40: far outside any texture, no overflow */
/* floor, saturating to +-2^40, NaN -> 0 (inline: on every sampling path) */
static inline int64_t tex_floor_i64(float x)
{
    if (!(x == x))
        return 0;
    if (x <= -TEX_I64_LIMIT)
        return -(int64_t)TEX_I64_LIMIT;
    if (x >= TEX_I64_LIMIT)
        return (int64_t)TEX_I64_LIMIT;
    return (int64_t)floorf(x);
}
float tex_rne(float x);               /* round to nearest even */
float tex_hw_coord(float x);          /* hardware precision: to 1/256, ties up (tex_hw.c) */
uint32_t tex_layer_index(float a, uint32_t layers); /* clamp(RNE(a), 0, layers-1) */

/* ---- hardware precision (tex_hw.c), as measured on an NVIDIA GPU ----------------------- */
/* (tex_hw_coord, above: a texel-space coordinate to a multiple of 1/256, ties up.) */
/* λ' (and a shader's LOD clamp) to a multiple of 1/256 below it (keeps inf/NaN). */
float tex_hw_lod(float x);
/* The four weights (x0y0, x1y0, x0y1, x1y1), in 1/256, of a 2x2 footprint whose axis
 * weights are a, b (in 1/256, of x1 and y1) and whose total is m (256, or a mip level's
 * share): integers summing to m. */
void tex_hw_weights_2d(uint32_t a, uint32_t b, uint32_t m, uint32_t w[4]);
/* The share of m (in 1/256) of the upper side of an axis of weight a: round(a·m/256),
 * ties up. */
uint32_t tex_hw_split(uint32_t a, uint32_t m);
/* A LINEAR axis's texel-space coordinate U as the GPU filters it: under CLAMP_TO_EDGE
 * clamped to [½, size − ½] first, so a footprint over the edge has weight 0 on its outer
 * texel (the GPU's split of a mip share then differs from splitting the same texel twice);
 * other wraps keep it. */
static inline float tex_hw_edge_clamp(unsigned mode, float u, uint32_t size)
{
    if (mode == TV_WRAP_CLAMP_TO_EDGE) {
        const float hi = (float)size - 0.5f;
        if (u < 0.5f)
            u = 0.5f;
        else if (u > hi)
            u = hi;
    }
    return u;
}
/* The exact sum of p[0..n) rounded once to float — to half precision when `half` (the
 * result a half, as a float) — ties away from zero. */
float tex_hw_round_sum(const double *p, unsigned n, bool half);
/* 8-bit UNORM views: a tap's value in 16 bits (its byte t as 257·t; a border colour
 * quantised to a byte as the GPU does), and the value of a sum k of weight · value
 * (weights in 1/256): round(k/256) ties up, as v16/65535. */
uint32_t tex_hw_unorm16(float v);
float tex_hw_unorm16_sum(uint64_t k);
/* The sRGB decode of each byte as an H100 returns it (tex_hw_srgb.c: measured). */
extern const uint32_t tex_hw_srgb8_bits[256];

/* Combine two values under a sampler's min/max reduction (NaN-avoiding). */
static inline float tex_reduce(unsigned red, float a, float b)
{
    return red == 1 ? fminf(a, b) : fmaxf(a, b);
}

/* ---- cube (tex_cube.c) ----------------------------------------------------------------- */
typedef struct tex_cube_coord {
    unsigned face;            /* 0 +X, 1 -X, 2 +Y, 3 -Y, 4 +Z, 5 -Z */
    float s, t;               /* face coordinates in [0,1] */
    float sc, tc, ma;         /* signed numerators and |major| */
} tex_cube_coord;

void tex_cube_select(float x, float y, float z, tex_cube_coord *out);
/* Derivative of the face (s,t) given the derivative of the direction vector. */
void tex_cube_deriv(const tex_cube_coord *c, const float d[3], float *ds, float *dt);
/* Remap an off-face texel (exactly one of i,j in {-1, n}) to (face', i', j'). */
void tex_cube_edge(unsigned face, int n, int i, int j, unsigned *nface, int *ni, int *nj);

/* ---- wrap (tex_wrap.c) ----------------------------------------------------------------- */
#define TEX_BORDER (-1)      /* index meaning "border texel" */
/* One axis, NEAREST: texel index in [0,size) or TEX_BORDER (floor of the exact coordinate
 * in both precision modes: the GPU does not round it first). */
int32_t tex_wrap_nearest(unsigned mode, float u, uint32_t size);
/* One axis, LINEAR: two indices (or TEX_BORDER) and the weight of i1. */
void tex_wrap_linear(unsigned mode, float u, uint32_t size, bool hw, int32_t *i0, int32_t *i1,
                     float *alpha);
/* Integer-domain wrap of one index (used by modes defined on integers). */
int64_t tex_wrap_int(unsigned mode, int64_t i, uint32_t size);
/* Texel selection without any wrap: floor(u-0.5) and the weight (hardware precision: u to
 * 1/256 texel first, ties up, so the weight has 8 fraction bits). */
static inline void tex_select_linear(float u, bool hw, int64_t *i0, float *alpha)
{
    if (hw)
        u = tex_hw_coord(u);
    float x = u - 0.5f;
    float fl = floorf(x);
    *i0 = tex_floor_i64(x);
    float a = x - fl;
    *alpha = (a == a && a >= 0.0f && a < 1.0f) ? a : 0.0f;
}
int64_t tex_select_nearest(float u);
/* A seamless cube face's NEAREST texel: each coordinate's floor clamped to the face (n). */
static inline void tex_cube_nearest(const float u[2], uint32_t n, int32_t *i, int32_t *j)
{
    int64_t a = tex_select_nearest(u[0]), b = tex_select_nearest(u[1]);
    *i = (int32_t)(a < 0 ? 0 : a >= (int64_t)n ? (int64_t)n - 1 : a);
    *j = (int32_t)(b < 0 ? 0 : b >= (int64_t)n ? (int64_t)n - 1 : b);
}
/* tex_wrap_linear for the modes tex_wrap_is_common takes (the fast paths' inline form) */
static inline void tex_wrap_linear_common(unsigned mode, float u, uint32_t size, bool hw,
                                          int32_t *i0, int32_t *i1, float *alpha)
{
    int64_t a;
    tex_select_linear(u, hw, &a, alpha);
    int64_t n = size ? size : 1;
    *i0 = (int32_t)tex_wrap_int_common(mode, a, n);
    *i1 = (int32_t)tex_wrap_int_common(mode, a + 1, n);
}

/* ---- border and defaults (tex_border.c) ------------------------------------------------ */
/* Mask (bit c) of components stored by the view's format (others take defaults). */
unsigned tex_present_mask(const tex_view *v);
/* The border texel of a view+sampler (pre-swizzle). `zero` gives the TLDS zero border. */
void tex_border_color(const tex_view *v, const tex_sampler *s, bool srgb, bool zero,
                      uint32_t out[4]);
/* Out-of-range fetch value: 0 in present components, (0,0,0,1) typed defaults elsewhere. */
void tex_zero_texel(const tex_view *v, uint32_t out[4]);

/* ---- LOD (tex_lod.c) ------------------------------------------------------------------- */
typedef struct tex_lod_in {
    bool explicit_lod;        /* lambda_base = lod */
    float lod;                /* explicit LOD */
    float shader_bias;        /* BIAS op */
    float lod_clamp;          /* per-lane min clamp (0 = none) */
    bool have_deriv;          /* derivatives below are meaningful */
    float dx[3], dy[3];       /* derivatives of the (face) coordinates, normalized space */
} tex_lod_in;

typedef struct tex_lod_out {
    float lambda_prime;       /* after bias, before clamps (relative to base level) */
    float lambda;             /* after clamps */
    float accessed;           /* ComputeAccessedLod */
    bool magnify;
    unsigned nlevels;         /* 1 or 2 */
    uint32_t level[2];        /* view-relative levels */
    float wlevel[2];          /* their weights */
    uint32_t hw_f256;         /* hardware precision: level[1]'s weight in 1/256 */
    /* anisotropy */
    unsigned probes;          /* 1 = isotropic */
    float probe_ds, probe_dt; /* normalized-space step of the major axis (full footprint) */
    float major_u, major_v;   /* unit vector of the major axis, texel space */
    float log2_ratio;         /* log2(minor/major), >= -16 */
} tex_lod_out;

void tex_lod_compute(const tex_ctx *c, const tex_lod_in *in, tex_lod_out *out);
/* Scale used for derivatives along each axis (texel size of the base level, 1 if not
 * normalized). */
void tex_lod_scale(const tex_ctx *c, float scale[3]);

/* ---- filtering (tex_filter.c) ---------------------------------------------------------- */
/* A view level's size and a lane's texel-space coordinates on it (scaled when normalized,
 * the lane's offsets added; axes past the target's dimensions 0). */
void tex_level_coords(const tex_ctx *c, uint32_t level, const float st[3], uint32_t size[3],
                      float u[3]);
/* Sample one view level (view-relative) at normalized/unnormalized coordinates, in
 * reference precision. */
void tex_filter_level(const tex_ctx *c, uint32_t level, unsigned filter, const float st[3],
                      unsigned face, tex_val *out);
/* Full sampling of one lane after LOD: levels, probes; result pre-swizzle. */
void tex_filter_sample(const tex_ctx *c, const tex_lod_out *lod, const float st[3],
                       unsigned face, tex_val *out);
/* The levels of one lane (or probe) in hardware precision (tex_hw_filter.c). */
void tex_hw_sample_levels(const tex_ctx *c, const tex_lod_out *lod, unsigned filter,
                          const float st[3], unsigned face, tex_val *out);
/* Read one texel (level absolute-relative via c), with border and compare applied. */
void tex_texel(const tex_ctx *c, uint32_t level, int32_t i, int32_t j, int32_t k,
               unsigned face, tex_val *out);
/* Cube seamless: 2x2 footprint at (i0,j0) of face, values in gather order slots
 * [0]=(i0,j0) [1]=(i1,j0) [2]=(i0,j1) [3]=(i1,j1), corner synthesised. */
void tex_cube_footprint(const tex_ctx *c, uint32_t level, unsigned face, int64_t i0,
                        int64_t j0, tex_val t[4]);

/* ---- operations ------------------------------------------------------------------------ */
void tex_gather_lane(const tex_ctx *c, const tv_tex_request *req, unsigned lane,
                     const float st[3], unsigned face, uint32_t out[4]);
void tex_fetch_lane(tv_tex_unit *unit, const tex_view *v, const tex_target_info *tgt,
                    const tv_tex_request *req, unsigned lane, uint32_t out[4]);
void tex_query_lane(const tex_view *v, const tv_tex_request *req, unsigned lane,
                    uint32_t out[4]);

#endif
