/* Job files (docs/jobs.md): load and validate a JSON job into plain data, and build the
 * texel/buffer bytes it describes. Nothing here calls the VM; only the texture unit's
 * format table (tex.h) is used, so other tools (the Mesa harness) can compile these files
 * in. Running a loaded job is job_run.c. */
#ifndef TEXVM_SRC_JOB_JOB_H
#define TEXVM_SRC_JOB_JOB_H

#include "texvm/job.h"
#include "texvm/tex.h"
#include "texvm/tgsi.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* The bits of a float and back: the job library's one pair (it sees the public headers
 * only, so not util/half.h's). */
static inline uint32_t job_f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}
static inline float job_bits_f32(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

#define JOB_MAX_SLOTS 128      /* SVIEW / SAMP / BUFFER / IMAGE / CONST slots */
#define JOB_MAX_TARGETS 8
#define JOB_MAX_ATTRIBS 32


/* A list of 32-bit words (typed values of docs/jobs.md §5), `count` words. */
typedef struct job_words {
    uint32_t *w;
    size_t count;
} job_words;

/* ---- programs ------------------------------------------------------------------------ */
typedef struct job_program {
    char *name;              /* scene jobs' draws name their programs; may be NULL */
    int stage;               /* tv_tgsi_processor; -1 = from the text's header */
    char *tgsi_path;         /* resolved path, NULL for inline text */
    char *text;              /* the TGSI text (file contents or inline) */
    size_t text_len;
    char *glsl_path;         /* resolved, or NULL */
} job_program;

/* ---- stages ---------------------------------------------------------------------------- */
typedef struct job_frag_input {
    uint32_t index;          /* IN[index] */
    uint32_t values[4][4];   /* per vertex, raw words */
    int interpolate;         /* tv_tgsi_interp, -1 = program's */
    int location;            /* tv_tgsi_location, -1 = program's */
    char *glsl_name;
} job_frag_input;

typedef struct job_target {
    tv_format format;
    uint32_t clear[4];       /* raw words */
} job_target;

typedef enum job_prim { JOB_PRIM_TRIANGLE = 0, JOB_PRIM_RECT = 1 } job_prim;

typedef struct job_frag {
    uint32_t width, height, samples;
    int prim;                /* job_prim */
    bool has_positions;
    float positions[4][4];   /* x, y, z, w per vertex */
    bool front_face;
    job_frag_input *inputs;
    size_t num_inputs;
    job_target targets[JOB_MAX_TARGETS];
    unsigned num_targets;
    bool has_depth, has_stencil;
    float depth_clear;
    uint32_t stencil_clear;
} job_frag;

typedef struct job_comp {
    uint32_t grid[3];
    uint32_t block[3];       /* 0 = from the program */
    uint32_t shared_bytes;
} job_comp;

typedef struct job_attrib {
    uint32_t index;          /* IN[index] */
    job_words values;        /* 4 words per vertex when given */
    int buffer;              /* index into job.buffers, -1 = values */
    tv_format format;        /* buffer form */
    uint64_t offset;
    uint32_t stride, divisor;
    char *glsl_name;
} job_attrib;

typedef struct job_vert {
    uint32_t count, instances;
    int32_t base_vertex;
    uint32_t base_instance;
    job_attrib *attribs;
    size_t num_attribs;
} job_vert;

typedef enum job_geom_prim {
    JOB_GPRIM_POINTS, JOB_GPRIM_LINES, JOB_GPRIM_LINES_ADJ, JOB_GPRIM_TRIANGLES,
    JOB_GPRIM_TRIANGLES_ADJ, JOB_GPRIM_COUNT
} job_geom_prim;

typedef struct job_geom_input {
    uint32_t index;
    job_words values;        /* 4 words per vertex */
} job_geom_input;

typedef struct job_geom {
    int primitive;           /* job_geom_prim */
    uint32_t count;          /* input primitives */
    job_geom_input *inputs;
    size_t num_inputs;
} job_geom;

/* ---- resources ------------------------------------------------------------------------- */
typedef struct job_constbuf {
    uint32_t slot;
    uint8_t *data;
    size_t size;
    char *glsl_block;
} job_constbuf;

typedef enum job_pattern_kind {
    JOB_PAT_FILL, JOB_PAT_CHECKER, JOB_PAT_GRADIENT, JOB_PAT_UV, JOB_PAT_NOISE,
    JOB_PAT_LEVELS, JOB_PAT_LAYERS, JOB_PAT_BRICKS, JOB_PAT_COUNT
} job_pattern_kind;

typedef enum job_gradient_dir {
    JOB_GRAD_X, JOB_GRAD_Y, JOB_GRAD_DIAGONAL, JOB_GRAD_RADIAL
} job_gradient_dir;

#define JOB_PATTERN_MAX_COLORS 16

typedef struct job_pattern {
    int kind;                /* job_pattern_kind */
    double colors[JOB_PATTERN_MAX_COLORS][4];
    unsigned num_colors;
    uint32_t cell;           /* checker */
    int direction;           /* gradient: job_gradient_dir */
    uint32_t seed;           /* noise */
    double min, max;         /* noise */
    bool gray, alpha_noise;  /* noise */
    uint32_t brick[2], mortar; /* bricks */
} job_pattern;

typedef enum job_source_kind {
    JOB_SRC_NONE, JOB_SRC_PNG, JOB_SRC_RAW, JOB_SRC_VALUES, JOB_SRC_PATTERN, JOB_SRC_FILL
} job_source_kind;

typedef struct job_source {
    int kind;                /* job_source_kind */
    char *path;              /* PNG / RAW, resolved */
    uint64_t offset;         /* RAW */
    job_words values;        /* VALUES: 4 words per texel; FILL: 4 words */
    job_pattern pattern;     /* PATTERN */
} job_source;

typedef enum job_mipmaps { JOB_MIP_NONE, JOB_MIP_GENERATE, JOB_MIP_PATTERN } job_mipmaps;

/* One TIC field override of "header": {...}, by tv_tic field name (job_tic_fields.c). */
typedef struct job_tic_override {
    int field;               /* index into the field table */
    double value;
} job_tic_override;

typedef struct job_texture {
    char *name;              /* may be NULL */
    int header_index;        /* -1 = automatic */
    int type;                /* tv_tex_type */
    tv_format format;
    uint32_t width, height, depth, layers, levels, samples;
    job_source source;
    int mipmaps;             /* job_mipmaps */
    job_source *level_sources;
    size_t num_level_sources;
    job_source *layer_sources; /* one per layer (slice, face) of level 0 */
    size_t num_layer_sources;
    /* view / header state */
    uint32_t view_min_level, view_max_level;
    char swizzle[4];         /* 'r','g','b','a','0','1' */
    int srgb;                /* -1 = from the format */
    bool normalized;
    int layout;              /* tv_tic_layout: TV_TIC_PITCH or TV_TIC_BLOCKLINEAR */
    uint32_t pitch;          /* 0 = automatic */
    uint8_t block[3];        /* log2 GOBs per block */
    job_tic_override *overrides;
    size_t num_overrides;
    /* Built texel data (job_data.c): tightly packed, docs/jobs-resources.md §1 `raw`
     * order. */
    uint8_t *data;
    size_t data_size;
    size_t level_offset[16]; /* byte offset of each level in data */
    size_t level_size[16];   /* bytes of each level (all layers, samples) */
} job_texture;

typedef struct job_sampler {
    char *name;
    int sampler_index;       /* -1 = automatic */
    uint8_t min_filter, mag_filter, mip_filter;   /* TV_MIN_*, TV_MAG_*, TV_MIP_* */
    uint8_t wrap[3];         /* tv_wrap */
    uint32_t border[4];      /* raw words */
    float lod_bias, min_lod, max_lod;
    int compare;             /* tv_compare_func, -1 = off */
    uint32_t max_anisotropy; /* 1, 2, 4, 6, 8, 10, 12, 16 */
    bool seamless_cube, unnormalized, srgb_conversion;
    uint8_t reduction;       /* 0 average, 1 min, 2 max */
} job_sampler;

typedef struct job_buffer {
    char *name;
    int slot;                /* -1 = unbound */
    uint8_t *data;
    size_t size;
} job_buffer;

typedef struct job_image {
    uint32_t slot;
    int texture;             /* index into textures */
    uint32_t level;
    int layer;               /* -1 = all */
    tv_format format;        /* NONE = the texture's */
} job_image;

typedef struct job_hwatomic {
    uint32_t slot;
    uint8_t *data;
    size_t size;
} job_hwatomic;

typedef struct job_memory {
    uint64_t address;
    uint8_t *data;
    size_t size;
} job_memory;

/* ---- outputs and checks ------------------------------------------------------------------ */
typedef enum job_res_kind {
    JOB_RES_TARGET, JOB_RES_DEPTH, JOB_RES_STENCIL, JOB_RES_TEXTURE, JOB_RES_BUFFER,
    JOB_RES_HWATOMIC, JOB_RES_VERTICES
} job_res_kind;

typedef enum job_writer { JOB_OUT_PNG, JOB_OUT_RAW, JOB_OUT_DUMP, JOB_OUT_TEXT } job_writer;

typedef enum job_word_type {
    JOB_TYPE_FLOAT, JOB_TYPE_INT, JOB_TYPE_UINT, JOB_TYPE_HEX
} job_word_type;

typedef enum job_png_channels {
    JOB_PNG_RGBA, JOB_PNG_RGB, JOB_PNG_GRAY, JOB_PNG_GA
} job_png_channels;

typedef struct job_output {
    int res;                 /* job_res_kind */
    int index;               /* target, texture, buffer or hwatomic slot index */
    int level;               /* texture: -1 = all (raw) / 0 (png) */
    int layer;               /* texture: -1 = all (raw) / 0 (png) */
    int writer;              /* job_writer */
    char *path;              /* as written in the job (relative to the output dir) */
    int channels;            /* job_png_channels */
    int bits;                /* 8 or 16 */
    int type;                /* job_word_type for dumps */
    uint32_t columns;
} job_output;

typedef struct job_check {
    int res;                 /* JOB_RES_TARGET, _TEXTURE, _BUFFER, _HWATOMIC, _DEPTH */
    int index;
    uint32_t pixel[2];       /* targets / textures */
    uint32_t level, layer;
    uint64_t offset;         /* buffers: bytes */
    int type;                /* job_word_type of the expected values */
    job_words values;
    double tolerance;
    char *reference;         /* a whole-image check against this PNG (resolved), or NULL */
} job_check;

typedef struct job_options {
    int threads;             /* -1 = unset */
    uint64_t max_instructions;   /* 0 = unset */
    uint64_t max_loop_iterations; /* 0 = unset */
    uint32_t max_call_depth;     /* 0 = unset */
    uint64_t max_memory;         /* bytes, 0 = unset */
    int precision;           /* -1 unset, else tv_tex_precision */
    int robust_access;       /* -1 unset, 0/1 */
    int flush_denormals;     /* 0 "ieee" (default), 1 "flush" (tv_vm_config.flush_denormals) */
    int fine_derivatives;    /* 0 "coarse" (default), 1 "fine" (tv_vm_config.fine_derivatives) */
} job_options;

/* ---- the job ----------------------------------------------------------------------------- */
typedef struct tv_job {
    char *path;              /* the job file ("<command line>" for short forms) */
    char *dir;               /* its directory: base of relative input paths */
    char *description;
    job_program *programs;
    size_t num_programs;
    int run;                 /* tv_tgsi_processor of the stage to run, or JOB_RUN_SCENE */
    job_frag frag;
    job_comp comp;
    job_vert vert;
    job_geom geom;
    job_constbuf *constants;
    size_t num_constants;
    job_texture *textures;
    size_t num_textures;
    job_sampler *samplers;
    size_t num_samplers;
    int sview[JOB_MAX_SLOTS];    /* texture index per SVIEW slot, -1 = none */
    int samp[JOB_MAX_SLOTS];     /* sampler index per SAMP slot, -1 = none */
    job_buffer *buffers;
    size_t num_buffers;
    job_image *images;
    size_t num_images;
    job_hwatomic *hwatomics;
    size_t num_hwatomics;
    job_memory *memory;
    size_t num_memory;
    job_output *outputs;
    size_t num_outputs;
    job_check *checks;
    size_t num_checks;
    job_options options;
    struct job_scene *scene; /* "run": "SCENE" (job_scene.h), else NULL */
} job;

/* Loading and freeing: tv_job_load_file, tv_job_load_text, tv_job_free (texvm/job.h). */

/* Build texel bytes for every texture (PNG decode, patterns, mip generation, packing).
 * job_load_* call it; exposed for tools that construct jobs in code. */
bool job_build_data(job *j, tv_job_error *err);

/* Names. */
const char *job_stage_name(int stage);               /* "FRAG" … */
int job_texture_find(const job *j, const char *name); /* -1 if none */
int job_buffer_find(const job *j, const char *name);
int job_sampler_find(const job *j, const char *name);
/* Levels of a full chain for a size (1 + floor(log2(max(w, h, d)))). */
uint32_t job_full_levels(uint32_t w, uint32_t h, uint32_t d);
/* Size of level `level` of a base size (max(1, size >> level)). */
static inline uint32_t job_level_size(uint32_t size, uint32_t level)
{
    uint32_t s = level < 32 ? size >> level : 0;
    return s ? s : 1;
}
/* Layers of a texture as stored (layers for arrays and cubes, depth for 3D, else 1),
 * at `level` (3D depth halves per level). */
uint32_t job_texture_layers(const job_texture *t, uint32_t level);
/* Bytes of one level of a texture (all layers and samples, tightly packed). */
size_t job_texture_level_bytes(const job_texture *t, uint32_t level);

/* Patterns (docs/jobs-resources.md §2): the value of texel (x, y) of `layer` (of
 * `layers`) at `level`, whose size is w x h. Deterministic, double precision. */
void job_pattern_eval(const job_pattern *p, uint32_t x, uint32_t y, uint32_t layer,
                      uint32_t layers, uint32_t level, uint32_t w, uint32_t h, double out[4]);
uint32_t job_hash(uint32_t seed, uint32_t x, uint32_t y, uint32_t z, uint32_t c);

/* Apply a "header" override to a texture header (job_tic_fields.c). */
void job_tic_apply(tv_tic *tic, const job_tic_override *o);

/* Typed values (docs/jobs.md §5): parse one element. Returns false with a message. */
bool job_word_from_string(const char *s, int type, uint32_t *out, char *msg, size_t msgsize);

#endif
