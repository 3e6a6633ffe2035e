/* The texture-unit differential test against llvmpipe: shared definitions.
 *
 * A batch is one texture + one sampler + one lookup form (GLSL call) and DIFF_PIX
 * per-pixel parameter sets. llvmpipe runs the batch as one full-screen draw (one pixel per
 * case, parameters read from a float texture); texvm runs the same lookups through
 * tv_tex_execute with the same texel bytes described by a TIC/TSC. */
#ifndef TEXVM_TESTS_MESA_DIFF_H
#define TEXVM_TESTS_MESA_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "texvm/tex.h"

#ifdef TEXVM_HAVE_GLREF
#include "glref.h"

/* Render target of one batch: 16x8 pixels = 32 quads. */
#define DIFF_W 16
#define DIFF_H 8
#define DIFF_PIX (DIFF_W * DIFF_H)

/* ---- formats: one row per format, GL upload + texvm format ------------------------- */
typedef enum { DK_UNORM, DK_SNORM, DK_FLOAT, DK_SRGB, DK_UINT, DK_SINT, DK_DEPTH } diff_kind;

typedef struct diff_format {
    const char *name;
    tv_format tv;
    GLenum ifmt, fmt, type;
    int bpp;           /* bytes per texel */
    diff_kind kind;
    int channels;      /* channels with data (for ranges) */
    bool renderable;   /* usable for MS textures */
} diff_format;

const diff_format *diff_format_get(const char *name);
/* Random texel bytes for one texel, avoiding Inf/NaN in float formats. */
void diff_random_texel(const diff_format *f, uint32_t *rng, uint8_t *out);

/* ---- random numbers (xorshift32) ----------------------------------------------------- */
uint32_t diff_rand(uint32_t *s);
float diff_uniform(uint32_t *s, float lo, float hi);
int diff_irand(uint32_t *s, int lo, int hi); /* inclusive */

/* ---- lookup forms -------------------------------------------------------------------- */
typedef enum {
    DOP_SAMPLE,  /* texture(): implicit LOD (quads of affine coordinates) */
    DOP_BIAS,    /* texture(, bias) */
    DOP_LOD,     /* textureLod */
    DOP_GRAD,    /* textureGrad */
    DOP_GATHER,  /* textureGather (component or compare) */
    DOP_FETCH,   /* texelFetch */
    DOP_QLOD,    /* textureQueryLod */
    DOP_QDIM,    /* textureSize + textureQueryLevels */
    DOP_QSAMPLES /* textureSamples */
} diff_op;

typedef struct diff_texture {
    GLenum gl_target;
    uint8_t tv_type;   /* tv_tex_type */
    uint8_t tv_target; /* tv_tex_target of the request */
    const diff_format *fmt;
    int w, h, d;       /* d = 3D depth or layers (cube: 6, cube array 6*cubes); 1D array: h = 1 */
    int layers;        /* array layers as GL counts them (1D array: layers; cubes: faces) */
    int levels, base, max; /* view base/max level */
    int samples;
    uint8_t *data;     /* GL layout: levels one after the other, each tightly packed */
    size_t level_off[GLREF_MAX_LEVELS], level_size[GLREF_MAX_LEVELS];
    size_t size;
} diff_texture;

/* Level sizes in texels (1D arrays: height is the layer count). */
int diff_level_w(const diff_texture *t, int l);
int diff_level_h(const diff_texture *t, int l);
int diff_level_d(const diff_texture *t, int l);

typedef struct diff_params {
    float c[4];   /* coordinates (fetch: integers as floats) */
    float a[4];   /* x: lod or bias, y: compare reference, z: fetch level/sample/query level */
    float dx[4];  /* explicit derivatives */
    float dy[4];
} diff_params;

typedef struct diff_batch {
    diff_texture tex;
    glref_sampler_desc smp;
    diff_op op;
    bool shadow;          /* depth compare */
    bool offset;          /* constant texel offset (GL) / per-lane offset (texvm) */
    int off[3];
    int gather_comp;
    bool filtered;        /* results compared with tolerance */
    diff_params p[DIFF_PIX];
    uint32_t gl[DIFF_PIX][4];
    uint32_t tv[DIFF_PIX][4];
    float tv_lod[DIFF_PIX];  /* texvm's unclamped lambda' (for LOD classification) */
    /* LOD models for implicit/gradient lookups (not cubes): the exact Euclidean-rho LOD
     * and llvmpipe's (0.5 * piecewise-linear log2 of the squared rho), both with the
     * shader bias, without the sampler's; NAN where not modelled. */
    float lod_exact[DIFF_PIX], lod_llvm[DIFF_PIX];
    bool lod_model;
    uint32_t tv_alt[DIFF_PIX][4]; /* texvm at llvmpipe's LOD (explicit-LOD re-run) */
    /* Anisotropic batches: LODs of the major and minor axes, and texvm's isotropic
     * trilinear results at both (the box an anisotropic footprint's value falls in). */
    float lod_major[DIFF_PIX], lod_minor[DIFF_PIX];
    uint32_t tv_iso[2][DIFF_PIX][4];
    bool has_iso;
    bool has_alt;
    float range[4];          /* value range per component (tolerance scale), see compare */
    bool range_done;
} diff_batch;

/* Allocate and fill the texture's data with random texels. */
bool diff_texture_fill(diff_texture *t, uint32_t *rng);
void diff_texture_free(diff_texture *t);

/* ---- the two sides ------------------------------------------------------------------ */
/* GL: run the batch on llvmpipe (fills b->gl). Programs are cached by source. */
bool diff_gl_run(glref *g, diff_batch *b, char *err, size_t err_size);
void diff_gl_cache_clear(glref *g);
/* texvm: run the same lookups (fills b->tv, b->tv_lod). */
bool diff_tv_run(diff_batch *b, char *err, size_t err_size);
/* Whether the test was built with texvm's texture unit. */
bool diff_tv_available(void);

/* ---- comparison --------------------------------------------------------------------- */
typedef enum { DC_EXACT, DC_TOLERATED, DC_DOCUMENTED, DC_FAIL } diff_class;

typedef struct diff_stats {
    int cases, exact, tolerated, documented, failed;
    int doc_by_reason[16];
} diff_stats;

/* Documented llvmpipe departures (docs/fidelity-texture.md §1.4). */
typedef enum {
    DR_LOD_APPROX,   /* llvmpipe's approximate log2 / rho in implicit LOD */
    DR_ANISO,        /* anisotropic: inside the isotropic minor/major-LOD box */
    DR_FETCH_OOB,    /* texelFetch out of range: llvmpipe returns (0,0,0,0) vs texvm rule */
    DR_NORM_ULP,     /* llvmpipe's UNORM/SNORM -> float conversion is not correctly rounded */
    DR_QUERY_LANE,   /* llvmpipe's textureSize uses one lane's level for the whole vector */
    DR_SRGB,         /* llvmpipe's approximate sRGB decode / texvm's 8-bit sRGB border bytes */
    DR_FETCH_1DARRAY,/* Mesa 22.3: 1D array texture levels > 0 read as zeros */
    DR_INT_LEVEL,    /* llvmpipe: integer textures pick a mip level with a non-mip min filter */
    DR_ANISO_FREE,   /* anisotropic footprint outside that box: implementation-defined */
    DR_COUNT
} diff_reason;

extern const char *const diff_reason_names[DR_COUNT];

/* Fill lod_exact / lod_llvm (call before diff_tv_run). */
void diff_lod_model(diff_batch *b);
/* llvmpipe's LOD for a scale factor whose exact LOD is `lod` (0.5 * fastlog2(2^(2 lod))):
 * used for cubes, where the scale factor itself is taken from texvm's result. */
float diff_llvm_lod_of(float lod);
/* GL wrap of integer texel coordinate i on an axis of n texels (-1 = border). */
int diff_ref_wrap(GLenum mode, int i, int n);
/* Classify pixel i of a batch; *reason is set for DC_DOCUMENTED. */
diff_class diff_compare(diff_batch *b, int i, diff_reason *reason);

#endif /* TEXVM_HAVE_GLREF */
#endif
