/* What the differential tests against llvmpipe share (helper_llvmpipe.c): main() of a
 * build without glref, opening llvmpipe or skipping, random meshes, the GL and texvm
 * set-up every draw repeats (shaders, viewport, one vertex buffer of vec4 attributes, one
 * draw) and the pixel-by-pixel comparison of two RGBA32F images. Random numbers are
 * diff_rand (diff.h, xorshift32). */
#ifndef TEXVM_TESTS_MESA_LLVMPIPE_FIXTURE_H
#define TEXVM_TESTS_MESA_LLVMPIPE_FIXTURE_H

#include <stdint.h>

/* main() of a test program built without glref: one test, skipped */
int lp_main_without_glref(void);

#ifdef TEXVM_HAVE_GLREF
#include "glref.h"
#include "texvm/pipe.h"

/* glref on llvmpipe; without it the calling cmocka test is skipped with the reason */
glref *lp_open_or_skip(void);

/* VERTS vertices of 8 floats: a position on the 1/256-pixel grid inside a SIZE x SIZE
 * target (NDC, z 0, w 1) and a colour of multiples of 1/256 (alpha 1) */
void lp_random_mesh(uint32_t *rng, float *v, int verts, int size);

/* GL: a program of N shaders (types[i], texts[i]), transform-feedback VARYINGS when
 * NVARY > 0, in use; and a vertex array of VERTS vertices of ATTRIBS vec4s each
 * (attribute i at offset 16 i), bound. Failure fails the test. */
GLuint lp_gl_program(glref *g, int n, const GLenum *types, const char *const *texts,
                     const char *const *varyings, int nvary);
void lp_gl_vertices(const float *v, int verts, int attribs);

/* texvm: the one colour buffer, RGBA32F SIZE x SIZE (a 2D array of LAYERS > 1: every
 * layer), as resource RES and surface SURF; shaders created and bound; the viewport of a SIZE x SIZE target (no flip); a
 * vertex buffer HANDLE of VERTS vertices of ATTRIBS vec4s each (R32G32B32A32_FLOAT
 * elements at offsets 16 i) in slot 0; one draw (non-indexed) */
typedef struct {
    uint32_t handle, stage;
    const char *text;
} lp_tv_shader;
void lp_tv_rgba32f_target(tv_pipe_ctx *ctx, uint32_t res, uint32_t surf, int size, int layers);
void lp_tv_shaders(tv_pipe_ctx *ctx, int n, const lp_tv_shader *sh);
void lp_tv_viewport(tv_pipe_ctx *ctx, int size);
void lp_tv_vertices(tv_pipe_ctx *ctx, uint32_t handle, const float *v, int verts, int attribs);
void lp_tv_draw(tv_pipe_ctx *ctx, uint32_t mode, uint32_t count, uint32_t instances,
                uint32_t vertices_per_patch);

/* how many of the LAYERS x SIZE x SIZE RGBA32F pixels differ bit for bit; the first few
 * are printed */
int lp_rgba32f_differ(const float *gl, const float *tv, int size, int layers);
#endif

#endif
