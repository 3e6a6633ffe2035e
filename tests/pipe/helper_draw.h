/* The draw tests' scene: a 16x16 RGBA8 target (and a Z32F depth buffer), a vertex shader
 * passing position and colour through, the viewport window = NDC * 8 + 8, and helpers to
 * upload vertices, draw and read pixels. Shared by tests/pipe/test_draw*.c. */
#ifndef TEXVM_TESTS_PIPE_HELPER_DRAW_H
#define TEXVM_TESTS_PIPE_HELPER_DRAW_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "texvm/pipe.h"

enum { W = 16, H = 16 };
enum { RT = 1, ZS = 2, VB = 3, IB = 4, SURF = 10, ZSURF = 11, VS = 20, FS = 21 };
enum { FMT_RGBA8 = 67, FMT_Z32F = 18, FMT_R8 = 64, FMT_RGBA32F = 31, FMT_RGBA8_UNORM_V = 67 };
enum { PRIM_POINTS = 0, PRIM_LINES = 1, PRIM_LINE_STRIP = 3, PRIM_TRIANGLES = 4,
       PRIM_TRIANGLE_STRIP = 5, PRIM_TRIANGLE_FAN = 6, PRIM_LINES_ADJACENCY = 10,
       PRIM_TRIANGLES_ADJACENCY = 12 };

/* position (x, y, z, w) and a colour, as floats */
typedef struct vert {
    float pos[4], col[4];
} vert;

extern const char vs_text[];   /* OUT[0] POSITION = IN[0], OUT[1] GENERIC[0] = IN[1] */
extern const char fs_smooth[]; /* COLOR = GENERIC[0], perspective */
extern const char fs_flat[];   /* COLOR = GENERIC[0], constant */
extern const char fs_face[];   /* red front-facing, green back-facing */

/* The scene with fragment shader FS (and a depth buffer cleared to 1), cleared to 0. */
tv_pipe_ctx *scene(const char *fs, bool depth);
/* The same over a W x H target (and depth buffer) of SAMPLES samples, on THREADS engine
 * workers (tv_pipe_set_threads); the viewport covers it. */
tv_pipe_ctx *scene_sized(const char *fs, bool depth, uint32_t w, uint32_t h, uint32_t samples,
                         uint32_t threads);
/* Vertex shader VS and fragment shader FS created and bound, the viewport over a W x H
 * target, and vertex buffer 0's two RGBA32F elements (position at 0, colour at 16). */
void bind_programs(tv_pipe_ctx *ctx, const char *vs, const char *fs, uint32_t w, uint32_t h);
/* The colour target's and the depth buffer's bytes, copied (free both). */
typedef struct snapshot {
    uint8_t *color, *depth;
    size_t color_bytes, depth_bytes;
} snapshot;
snapshot take_snapshot(tv_pipe_ctx *ctx);
/* A buffer resource HANDLE holding BYTES of DATA (replacing one of that handle). */
void upload(tv_pipe_ctx *ctx, uint32_t handle, const void *data, uint32_t bytes);
/* N vertices into vertex buffer 0. */
void vertices(tv_pipe_ctx *ctx, const vert *v, unsigned n);
/* A non-indexed draw of one instance; the error is printed when it fails. */
int draw(tv_pipe_ctx *ctx, uint32_t mode, uint32_t count);
/* The same with the N queries Q[] begun before it and ended after it (in that order); a
 * query that fails to begin or end fails the test. */
int draw_queried(tv_pipe_ctx *ctx, uint32_t mode, uint32_t count, unsigned n,
                 const uint32_t *q);
/* Query Q's result is WANT (and reading it succeeds). */
void assert_query_result(tv_pipe_ctx *ctx, uint32_t q, uint64_t want);
const uint8_t *pixel(tv_pipe_ctx *ctx, int x, int y);
/* The default rasterizer state, with rasterizer discard on or off. */
void rasterizer_discard(tv_pipe_ctx *ctx, bool discard);
/* Depth test LESS with writes when DEPTH (else no depth test). */
void depth_less(tv_pipe_ctx *ctx, bool depth);
/* Translucent overlapping triangles' state: depth test LESS with writes when DEPTH (else
 * none), and SRC_ALPHA / INV_SRC_ALPHA blending of colour buffer 0. */
void depth_less_alpha_blend(tv_pipe_ctx *ctx, bool depth);
/* Nothing drawn: every pixel of the W x H target still has alpha 0. */
void assert_blank(tv_pipe_ctx *ctx);
float depth_at(tv_pipe_ctx *ctx, int x, int y);
/* window (x, y) to NDC for this viewport */
float nx(float x);
float ny(float y);
/* a vertex at window (WX, WY), depth Z, colour (R, G, B, A) */
vert V(float wx, float wy, float z, float r, float g, float b, float a);

#endif
