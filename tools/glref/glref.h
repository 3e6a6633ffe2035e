/* glref — a small harness that drives Mesa's software GL drivers (softpipe, llvmpipe)
 * through EGL surfaceless + desktop GL, for use as texvm's reference oracle.
 *
 * It only talks to Mesa through public EGL/GL entry points: create a context for a named
 * Gallium driver, compile GLSL, create textures and samplers with full state, bind
 * uniforms/UBOs/SSBOs/images, render a full-screen rectangle into 32-bit-per-channel
 * targets and read them back, dispatch compute and read buffers back, and capture the TGSI
 * softpipe prints for the programs it builds.
 *
 * Conventions:
 *  - One glref per process at a time; the driver is chosen with GALLIUM_DRIVER before the
 *    EGL display is initialised (Mesa reads it then). GALLIVM_PERF must likewise be in the
 *    environment before glref_create (gallivm reads it once per process).
 *  - Every failing call returns 0/false/NULL and leaves a message in glref_error().
 *  - Read-back images are rows of window y = 0 first (GL's order: row 0 is the pixel row
 *    whose gl_FragCoord.y is 0.5), 4 channels of 32 bits per pixel.
 *  - Texture level data is tightly packed (GL_UNPACK_ALIGNMENT 1), rows of y = 0 first;
 *    cube maps hold 6 faces per level (+X, -X, +Y, -Y, +Z, -Z) one after the other; arrays
 *    hold their layers one after the other (cube arrays: layer-faces, 6 per cube).
 */
#ifndef GLREF_H
#define GLREF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GL_GLEXT_PROTOTYPES 1
#include <GL/glcorearb.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GLREF_MAX_LEVELS 16
#define GLREF_MAX_TARGETS 8
#define GLREF_MAX_ATTRIBS 8

typedef struct glref glref;

/* Flags for glref_create. */
enum {
    GLREF_CAPTURE_TGSI = 1u << 0, /* set SOFTPIPE_DEBUG=fs,vs,gs,cs (softpipe only) */
};

/* Create a surfaceless context on `driver` ("softpipe", "llvmpipe", or NULL for Mesa's
 * default software driver). Picks the highest desktop core profile the driver offers
 * (4.6 down to 3.1). On failure returns NULL and writes a message into err. The driver
 * actually obtained is checked against GL_RENDERER. */
glref *glref_create(const char *driver, unsigned flags, char *err, size_t err_size);
void glref_destroy(glref *g);
const char *glref_error(const glref *g);
/* GL version as major*10 + minor (e.g. 45 for llvmpipe, 33 for softpipe). */
int glref_gl_version(const glref *g);
const char *glref_renderer(const glref *g);
bool glref_has_extension(const glref *g, const char *name);
/* GLSL `#version` line suited to the context: "#version 450 core" / "#version 330 core". */
const char *glref_glsl_version_line(const glref *g);

/* ---- programs ----------------------------------------------------------------------- */
/* The fixed vertex shader used when vs_src is NULL: a full-screen rectangle drawn as a
 * 4-vertex triangle strip (corners (-1,-1), (1,-1), (-1,1), (1,1)) with
 * `out vec2 glref_uv` = corner * 0.5 + 0.5, i.e. (x + 0.5) / W at pixel centres. */
const char *glref_fixed_vs(const glref *g);
/* Build a VS+FS program (vs_src NULL = the fixed one). Returns the GL name or 0. */
GLuint glref_program(glref *g, const char *vs_src, const char *fs_src);
/* Build a program that captures vertex outputs by transform feedback: `varyings` (names,
 * interleaved in this order) of the last vertex stage; fs_src may be NULL (draw with
 * GL_RASTERIZER_DISCARD). */
GLuint glref_program_xfb(glref *g, const char *vs_src, const char *fs_src,
                         const char *const *varyings, int num_varyings);
/* Build a VS+GS+FS program (needs GL 3.2). */
GLuint glref_program_gs(glref *g, const char *vs_src, const char *gs_src, const char *fs_src);
/* Build a VS+TCS+TES program (TCS may be NULL; needs GL 4.0) whose evaluation shader's
 * `varyings` are captured by transform feedback (interleaved); no fragment shader (draw
 * with GL_RASTERIZER_DISCARD). */
GLuint glref_program_tess_xfb(glref *g, const char *vs_src, const char *tcs_src,
                              const char *tes_src, const char *const *varyings,
                              int num_varyings);
/* One shader of STAGE (GL_VERTEX_SHADER …) from BODY with the context's #version line
 * prepended; 0 (message in glref_error) when it does not compile. */
GLuint glref_shader(glref *g, GLenum stage, const char *body);
/* Link N shaders (deleted afterwards) into a program, capturing VARYINGS (interleaved) by
 * transform feedback when NUM_VARYINGS > 0; 0 when it does not link. */
GLuint glref_link(glref *g, GLuint *shaders, int n, const char *const *varyings,
                  int num_varyings);
/* Build a compute program (needs GL 4.3 or ARB_compute_shader). */
GLuint glref_program_compute(glref *g, const char *cs_src);
void glref_program_delete(glref *g, GLuint prog);

/* Set a uniform by name from raw 32-bit words (float bits / ints / uints, column-major for
 * matrices), `count` array elements. The uniform's type is looked up in the program.
 * Samplers and images take an int (the unit). Returns false if the name is unknown. */
bool glref_uniform(glref *g, GLuint prog, const char *name, const uint32_t *words,
                   int count);
bool glref_uniform_int(glref *g, GLuint prog, const char *name, int value);

/* ---- buffers (UBO, SSBO, texture buffers, atomic counters) ----------------------------- */
GLuint glref_buffer(glref *g, const void *data, size_t size);
/* Bind to an indexed target (GL_UNIFORM_BUFFER, GL_SHADER_STORAGE_BUFFER,
 * GL_ATOMIC_COUNTER_BUFFER). */
bool glref_bind_buffer(glref *g, GLenum target, unsigned index, GLuint buf);
bool glref_buffer_read(glref *g, GLuint buf, size_t offset, size_t size, void *out);
bool glref_buffer_write(glref *g, GLuint buf, size_t offset, size_t size, const void *data);
void glref_buffer_delete(glref *g, GLuint buf);

/* ---- textures ----------------------------------------------------------------------- */
typedef struct glref_texture_desc {
    GLenum target;          /* GL_TEXTURE_1D, _2D, _3D, _CUBE_MAP, _1D_ARRAY, _2D_ARRAY,
                               _CUBE_MAP_ARRAY, _2D_MULTISAMPLE, _2D_MULTISAMPLE_ARRAY,
                               _BUFFER, _RECTANGLE */
    GLenum internal_format; /* GL_RGBA8, GL_DEPTH_COMPONENT32F, GL_COMPRESSED_RGBA_BPTC_UNORM… */
    GLenum format, type;    /* layout of the client data (ignored when compressed) */
    bool compressed;        /* data is in the compressed block layout */
    int width, height;      /* 1D arrays: height = layers */
    int depth;              /* 3D depth, 2D/MS array layers, cube array 6*cubes; else 1 */
    int levels;             /* 1 for MS, buffer, rect */
    int samples;            /* MS targets */
    const void *data[GLREF_MAX_LEVELS]; /* per level (NULL = leave undefined) */
    size_t data_size[GLREF_MAX_LEVELS]; /* bytes, needed for compressed and buffer data */
    int base_level, max_level;          /* -1 = GL default */
    GLint swizzle[4];                   /* 0 = identity (GL_RED.. ) */
    GLenum depth_stencil_mode;          /* 0 = default (GL_DEPTH_COMPONENT) */
    bool srgb_decode_skip;              /* GL_SKIP_DECODE_EXT (if supported) */
} glref_texture_desc;

void glref_texture_desc_init(glref_texture_desc *d);
/* Create, allocate and fill a texture. MS textures are filled by rendering (per-sample
 * data: [layer][sample][row][texel]) and need a colour-renderable format. */
GLuint glref_texture(glref *g, const glref_texture_desc *d);
void glref_texture_delete(glref *g, GLuint tex);

typedef enum glref_border_kind { GLREF_BORDER_FLOAT, GLREF_BORDER_INT, GLREF_BORDER_UINT }
    glref_border_kind;

typedef struct glref_sampler_desc {
    GLenum min_filter, mag_filter;
    GLenum wrap_s, wrap_t, wrap_r;   /* incl. GL_MIRROR_CLAMP_TO_EDGE, GL_CLAMP_TO_BORDER */
    glref_border_kind border_kind;
    uint32_t border[4];              /* float bits or integers by border_kind */
    float lod_bias, min_lod, max_lod;
    GLenum compare_mode, compare_func;
    float max_anisotropy;
    bool srgb_decode;                /* false: GL_SKIP_DECODE_EXT (EXT_texture_sRGB_decode) */
    GLenum reduction;                /* 0 = weighted average; GL_MIN / GL_MAX
                                        (ARB_texture_filter_minmax) */
    bool seamless_cube;              /* per sampler where the driver has
                                        AMD/ARB_seamless_cubemap_per_texture; core GL's
                                        switch is global: see glref_set_seamless */
} glref_sampler_desc;

void glref_sampler_desc_init(glref_sampler_desc *d); /* GL defaults */
GLuint glref_sampler(glref *g, const glref_sampler_desc *d);
void glref_sampler_delete(glref *g, GLuint smp);
/* Bind texture + sampler (sampler 0 = none) to a unit. */
bool glref_bind_texture(glref *g, unsigned unit, GLenum target, GLuint tex, GLuint smp);
/* The context-wide GL_TEXTURE_CUBE_MAP_SEAMLESS switch (off by default in GL). */
bool glref_set_seamless(glref *g, bool on);
/* Image unit binding (glBindImageTexture). */
bool glref_bind_image(glref *g, unsigned unit, GLuint tex, int level, bool layered,
                      int layer, GLenum access, GLenum format);

/* ---- render targets and drawing ------------------------------------------------------ */
/* (Re)create the framebuffer: n colour targets of w×h with the given internal formats
 * (GL_RGBA32F, GL_RGBA32UI, GL_RGBA32I). */
bool glref_framebuffer(glref *g, int w, int h, int n, const GLenum *formats);
/* The same with multisample targets of `samples` samples (GL standard positions). */
bool glref_framebuffer_ms(glref *g, int w, int h, int samples, int n, const GLenum *formats);
/* Read every sample of target i: w*h*samples*16 bytes, rows of y = 0 first, the samples of
 * a pixel one after the other. Works for single-sample targets too (samples = 1). */
bool glref_read_samples(glref *g, int i, void *out);
/* Add a 32-bit float depth attachment to the framebuffer, cleared to `clear`. Depth testing
 * stays off unless `write` is true, which stores every fragment's depth (test ALWAYS). */
bool glref_framebuffer_depth(glref *g, float clear, bool write);
/* Read the depth attachment: w*h floats, rows of y = 0 first. */
bool glref_read_depth(glref *g, float *out);
/* Clear target i to 4 raw words (interpreted per the target's format). */
bool glref_clear(glref *g, int i, const uint32_t value[4]);
/* The depth attachment (glref_framebuffer_depth) cleared to `clear` again, whatever the
 * depth write mask (restored after). */
bool glref_clear_depth(glref *g, float clear);
/* Per-corner values (4 corners x 4 floats) for vertex attribute `location` (strip order
 * (-1,-1), (1,-1), (-1,1), (1,1)); used by a caller-supplied vertex shader. */
bool glref_set_attrib(glref *g, unsigned location, const float *corners16);
/* Draw the full-screen rectangle with prog into the framebuffer. */
bool glref_draw(glref *g, GLuint prog);
/* Draw `count` vertices as `mode` (GL_TRIANGLES, GL_TRIANGLE_STRIP) with the attributes
 * set by glref_set_attrib (vertex k = corner k). */
bool glref_draw_prims(glref *g, GLuint prog, GLenum mode, int count);
/* Meshes (benchmarks): upload NVERTS vertices of two interleaved vec4 attributes
 * (locations 0 and 1, 32 bytes a vertex) once, then draw them as MODE with the depth test
 * DEPTH_FUNC (0: off; writes on) and, with BLEND, SRC_ALPHA / ONE_MINUS_SRC_ALPHA. */
bool glref_mesh(glref *g, const float *verts, int nverts);
bool glref_draw_mesh(glref *g, GLuint prog, GLenum mode, int nverts, GLenum depth_func,
                     bool blend);
/* Read target i: w*h*16 bytes, rows of y = 0 first. */
bool glref_read(glref *g, int i, void *out);

/* ---- compute ------------------------------------------------------------------------ */
bool glref_dispatch(glref *g, GLuint prog, unsigned gx, unsigned gy, unsigned gz);

/* Wait for everything submitted to finish (for timing). */
void glref_finish(glref *g);

/* ---- TGSI capture (softpipe with GLREF_CAPTURE_TGSI) --------------------------------- */
/* Redirect this process's stderr (fd 2) to `path` until glref_capture_end. */
bool glref_capture_begin(glref *g, const char *path);
bool glref_capture_end(glref *g);

typedef struct glref_tgsi {
    char stage[12];  /* "FRAG", "VERT", "GEOM", "COMP", "TESS_CTRL", "TESS_EVAL" */
    char *text;      /* the TGSI program, header line to END, newline-terminated */
} glref_tgsi;

/* Split a softpipe dump into the programs built from GLSL (those preceded by a NIR print
 * whose `name:` is GLSL<n>, n >= 1; Mesa's internal shaders (GLSL0, ARB<n>, no NIR) are
 * skipped).
 * Identical consecutive duplicates are dropped. Returns the count (≥ 0) or -1 on
 * allocation failure; free with glref_tgsi_free. */
int glref_tgsi_split(const char *dump, glref_tgsi **out);
void glref_tgsi_free(glref_tgsi *progs, int n);
/* Read a whole file into a NUL-terminated heap string (NULL on failure). */
char *glref_read_file(const char *path, size_t *size);

#ifdef __cplusplus
}
#endif
#endif
