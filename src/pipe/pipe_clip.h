/* Clipping and the viewport transform (issue 16): primitives in homogeneous clip space
 * against the view volume (x and y against a guard band, z per the depth-clip state and
 * the half-z convention) and up to 8 clip distances, cull distances, then the perspective
 * divide and Gallium's viewport (scale, translate). docs/pipeline-stages.md §Clipping. */
#ifndef TEXVM_PIPE_CLIP_H
#define TEXVM_PIPE_CLIP_H

#include <stdbool.h>
#include <stdint.h>

/* A clip vertex is STRIDE floats: x, y, z, w, then the clip distances, then any attributes;
 * clipping interpolates all of them linearly in clip space. */
#define CLIP_POS 0
#define CLIP_DIST 4
#define CLIP_MAX_DISTANCES 8
/* A triangle clipped by 6 + 8 planes has at most 3 + 14 vertices. */
#define CLIP_MAX_VERTICES (3 + 6 + CLIP_MAX_DISTANCES)

/* The planes, as bits of a mask. */
enum {
    CLIP_LEFT = 1 << 0, CLIP_RIGHT = 1 << 1, CLIP_BOTTOM = 1 << 2, CLIP_TOP = 1 << 3,
    CLIP_NEAR = 1 << 4, CLIP_FAR = 1 << 5,
    CLIP_USER0 = 1 << 6     /* clip distance i is CLIP_USER0 << i */
};

typedef struct clip_state {
    float guard_x, guard_y;  /* x and y are clipped at ±guard·w (1 = the view volume) */
    bool halfz;              /* z in [0, w] (D3D) instead of [-w, w] (GL) */
    bool depth_clip_near, depth_clip_far;   /* off: no z clipping (depth clamp instead) */
    uint8_t distances;       /* clip distances that clip (bit i: distance i) */
} clip_state;

/* Distance of vertex V from plane P (bit index 0..13): >= 0 is inside. */
float clip_distance(const clip_state *s, unsigned plane, const float *v);
/* The planes vertex V is outside of. */
unsigned clip_outcode(const clip_state *s, const float *v);
/* The planes a primitive must be clipped against (0: wholly inside), or -1 when one plane
 * has every vertex outside (the primitive is dropped). */
int clip_planes_needed(const clip_state *s, const float *verts, unsigned n, unsigned stride);

/* Clip a convex polygon of N vertices (STRIDE floats each) against the planes of MASK
 * (Sutherland-Hodgman, plane by plane in bit order; a new vertex on the edge from a to b
 * is a + t (b - a), t = da / (da - db), computed from the inside vertex). OUT holds
 * CLIP_MAX_VERTICES * STRIDE floats, SCRATCH the same. Returns the vertices in OUT (0 when
 * nothing is left, or 3 or more). */
unsigned clip_polygon(const clip_state *s, unsigned mask, const float *in, unsigned n,
                      unsigned stride, float *out, float *scratch);
/* Clip a segment (2 vertices): OUT gets the 0 or 2 remaining vertices; returns 0 or 2. */
unsigned clip_line(const clip_state *s, unsigned mask, const float *in, unsigned stride,
                   float *out);
/* Whether cull distances (their first index FIRST and COUNT, in the vertex after the clip
 * distances) drop the primitive: some distance negative at every vertex. */
bool clip_culled(const float *verts, unsigned n, unsigned stride, unsigned first,
                 unsigned count);

/* Perspective divide and viewport: window x, y, z and 1/w. */
typedef struct clip_viewport {
    float scale[3], translate[3];
} clip_viewport;
/* (inline: three per triangle, and the band test's three more) */
static inline void clip_to_window(const clip_viewport *vp, const float pos[4], float win[4])
{
    float inv_w = 1.0f / pos[3];
    for (unsigned k = 0; k < 3; k++)
        win[k] = pos[k] * inv_w * vp->scale[k] + vp->translate[k];
    win[3] = inv_w;
}
/* A whole triangle's three clip positions at once (the direct path of pipe_draw_tri.c,
 * for every triangle), vertex k at POS + 4k: clip_planes_needed of them under S, which
 * clips against no distances (S->distances 0); where that is 0, also their
 * clip_to_window positions WIN and W[k] = 1 / WIN[k][3] (the w draw_frag_vertex writes).
 * Lane k of one SSE register is vertex k, each lane the one-vertex functions' operations
 * in their order (no FMA): the same floats and the same planes, from two divisions
 * instead of six. */
int clip_triangle_window(const clip_state *s, const clip_viewport *vp, const float pos[12],
                         float win[3][4], float w[3]);
/* The window x and y clip_to_window gives each of a triangle's three clip positions
 * (vertex k at POS + 4k) in X[k], Y[k], where every one has w > 0 (not NaN); false, with
 * nothing written, where one has not. For the band tests of every triangle (pipe_draw_tri.c
 * tri_box): one division for the three, lane k vertex k, each lane clip_to_window's
 * operations in its order. */
bool clip_triangle_window_xy(const clip_viewport *vp, const float pos[12], float x[3],
                             float y[3]);

#endif
