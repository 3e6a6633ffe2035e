/* Scene jobs (docs/jobs-scenes.md): "run": "SCENE" draws meshes through the graphics
 * pipeline (include/texvm/pipe.h) in passes, each a framebuffer of the job's textures, a
 * clear and a list of draws, or a blit between textures. This header is the loaded form:
 * plain data with every name resolved to an index and every state already in Gallium's
 * vocabulary (tv_pipe_*_state), so the runner (job_run_scene.c) only issues pipe calls. */
#ifndef TEXVM_SRC_JOB_JOB_SCENE_H
#define TEXVM_SRC_JOB_JOB_SCENE_H

#include "texvm/pipe.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define JOB_RUN_SCENE 100          /* job.run of a scene job (not a TGSI processor) */
#define JOB_SCENE_MAX_PASSES 256
#define JOB_SCENE_MAX_DRAWS 4096   /* per pass */
#define JOB_SCENE_MAX_MESHES 256
#define JOB_SCENE_MAX_BINDINGS 64  /* constants / textures / buffers of one draw */
#define JOB_SCENE_MAX_MESH_VERTICES (1u << 24)

/* ---- meshes ----------------------------------------------------------------------------- */
typedef enum job_mesh_kind {
    JOB_MESH_BUFFERS,        /* vertices (and indices) from the job's "buffers" */
    JOB_MESH_GRID, JOB_MESH_CUBE, JOB_MESH_SPHERE, JOB_MESH_TORUS, JOB_MESH_KINDS
} job_mesh_kind;

/* One vertex element: IN[index] reads `format` (a Gallium format number) at `offset` of
 * each `stride`-byte vertex of `buffer` (an index into job.buffers; -1 = the mesh's own
 * generated vertices). */
typedef struct job_mesh_attr {
    uint32_t index, format, offset, stride, divisor;
    int buffer;
} job_mesh_attr;

typedef struct job_mesh {
    char *name;
    int kind;                /* job_mesh_kind */
    uint32_t prim;           /* PIPE_PRIM_* */
    uint32_t vertices;       /* vertices of a non-indexed draw */
    job_mesh_attr attrs[TV_PIPE_MAX_ATTRIBS];
    unsigned num_attrs;
    /* generated meshes: 8 floats a vertex (position xyz, normal xyz, uv), 32-bit indices */
    float *vertex_data;
    uint32_t *index_data;
    /* indexed meshes: `indices` indices of `index_size` bytes from `index_buffer` (-1: the
       generated ones), starting at byte `index_offset` */
    uint32_t indices, index_size, index_offset;
    int index_buffer;
    bool restart;            /* primitive restart with the index size's all-ones value */
} job_mesh;

/* ---- draws ------------------------------------------------------------------------------ */
/* The pipeline state of a draw: the pass's "state" object, then the draw's, over GL's
 * defaults (depth test off, no blending, no culling, counter-clockwise fronts). */
typedef struct job_scene_state {
    tv_pipe_rasterizer_state rast;
    tv_pipe_dsa_state dsa;
    tv_pipe_blend_state blend;
    uint8_t stencil_ref[2];
    float blend_color[4];
    bool has_scissor;
    uint32_t scissor[4];     /* x, y, w, h in pixels, y down */
    uint32_t sample_mask;
    uint32_t min_samples;
    float tess_outer[4], tess_inner[2];
} job_scene_state;

typedef struct job_scene_const {
    uint32_t stage, slot;    /* TV_PIPE_STAGE_*, CONST[slot] buffer */
    uint32_t *words;
    size_t count;            /* words, a multiple of 4 */
} job_scene_const;

typedef struct job_scene_tex {
    uint32_t stage, slot;
    int texture, sampler;    /* job indices; sampler -1: the view only (TXF, TXQ) */
} job_scene_tex;

typedef struct job_scene_buf {
    uint32_t stage, slot;
    int buffer;              /* job index */
} job_scene_buf;

typedef struct job_scene_draw {
    int mesh;
    int program[5];          /* job program per TV_PIPE_STAGE_VERTEX..TESS_EVAL, -1 none */
    uint32_t start, count;   /* vertices or indices; count 0 = the whole mesh from start */
    uint32_t instances;
    uint32_t patch_vertices; /* PATCHES meshes */
    job_scene_state state;
    job_scene_const *consts;
    size_t num_consts;
    job_scene_tex *texs;
    size_t num_texs;
    job_scene_buf *bufs;
    size_t num_bufs;
} job_scene_draw;

/* ---- passes ----------------------------------------------------------------------------- */
typedef struct job_scene_attach {
    int texture;             /* job index, -1 = none */
    uint32_t level, layer;
} job_scene_attach;

typedef enum job_pass_kind { JOB_PASS_DRAW, JOB_PASS_BLIT } job_pass_kind;

typedef struct job_scene_pass {
    char *name;
    int kind;                /* job_pass_kind */
    /* draw passes */
    job_scene_attach colors[TV_PIPE_MAX_CBUFS];
    unsigned num_colors;
    job_scene_attach zs;
    uint32_t width, height;  /* of the attachments (all equal) */
    unsigned clear;          /* TV_PIPE_CLEAR_* */
    uint32_t clear_color[4]; /* raw words */
    double clear_depth;
    uint32_t clear_stencil;
    float viewport[6];       /* x, y, w, h (pixels, y down), near, far */
    job_scene_draw *draws;
    size_t num_draws;
    /* blit passes: the whole of level `level` of `from` onto `to` (resolving samples) */
    int from, to;
    uint32_t from_level, to_level;
    uint32_t blit_mask;      /* PIPE_MASK_* */
    uint8_t filter;          /* 0 nearest, 1 linear */
} job_scene_pass;

typedef struct job_scene {
    job_mesh *meshes;
    size_t num_meshes;
    job_scene_pass *passes;
    size_t num_passes;
} job_scene;

void job_scene_free(job_scene *s);

/* ---- generated meshes (job_mesh.c) -------------------------------------------------------
 * Triangle lists, counter-clockwise seen from outside (GL's default front faces), each
 * vertex 8 floats: position xyz, unit normal xyz, texture coordinate uv. Parameters:
 * grid: size[0] x size[1] in the x-z plane at y = 0, normal +y, div[0] x div[1] cells;
 * cube: size[0..2], centred, 4 vertices a face; sphere: radius size[0], div[0] slices
 * round the y axis x div[1] stacks; torus: ring radius size[0], tube radius size[1] round
 * the y axis, div[0] x div[1] segments. Returns false when out of memory or the counts are
 * out of range (divisions 1..4096, 3..4096 round an axis, 2..4096 stacks). */
bool job_mesh_generate(int kind, const double size[3], const uint32_t div[2], float **vertices,
                       uint32_t *num_vertices, uint32_t **indices, uint32_t *num_indices);

/* ---- matrices (job_matrix.c): 4x4, row-major (m[row * 4 + col]), float64 ------------------ */
void job_mat_identity(double m[16]);
void job_mat_mul(const double a[16], const double b[16], double out[16]);  /* a * b */
/* GL's gluPerspective / glOrtho / gluLookAt, translation, rotation by DEGREES about an
 * axis (right-handed), scale. */
void job_mat_perspective(double fovy_deg, double aspect, double znear, double zfar,
                         double out[16]);
void job_mat_ortho(const double lrbtnf[6], double out[16]);
bool job_mat_look_at(const double eye[3], const double at[3], const double up[3], double out[16]);
void job_mat_translate(const double v[3], double out[16]);
bool job_mat_rotate(double deg, const double axis[3], double out[16]);
void job_mat_scale(const double v[3], double out[16]);
/* Inverse; false when singular. */
bool job_mat_inverse(const double m[16], double out[16]);

#endif
