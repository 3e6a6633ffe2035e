/* texvm tessellator: the fixed-function stage between TESS_CTRL and TESS_EVAL.
 *
 * It follows the D3D11 reference tessellator's rules (the specification GL drivers such as
 * Mesa's llvmpipe implement): tessellation levels are clamped per spacing (equal [1, 64]
 * rounded up, fractional-odd [1, 63], fractional-even [2, 64], isoline density [1, 64]
 * rounded up), converted to 16.16 fixed point, and points are placed on each edge by the
 * ruler-function split order; rings are stitched with the reference's transition and
 * diagonal patterns, so points, their order and the triangles match the reference exactly.
 * A patch whose relevant outer level is <= 0 or NaN is culled (no points).
 *
 * Points are domain coordinates (u, v) (gl_TessCoord.xy; for triangles w = 1 - u - v is
 * the caller's). Indices name points: 3 per triangle in GL's vertex order (`cw`:
 * TES_VERTEX_ORDER_CW, layout(cw); the reference's "clockwise" is GL's counter-clockwise),
 * 2 per isoline segment, 1 per point in point mode. */
#ifndef TEXVM_TESS_H
#define TEXVM_TESS_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum tv_tess_domain {
    TV_TESS_TRIANGLES, TV_TESS_QUADS, TV_TESS_ISOLINES
} tv_tess_domain;

typedef enum tv_tess_spacing {
    TV_TESS_EQUAL, TV_TESS_FRACTIONAL_ODD, TV_TESS_FRACTIONAL_EVEN
} tv_tess_spacing;

#define TV_TESS_MAX_LEVEL 64

typedef struct tv_tess_point {
    float u, v;
} tv_tess_point;

typedef struct tv_tess_result {
    uint32_t num_points;
    tv_tess_point *points;
    uint32_t num_indices;
    uint32_t *indices;
    uint32_t verts_per_prim;  /* 3 triangles, 2 lines, 1 points */
} tv_tess_result;

/* Tessellate one patch. outer: 4 levels (triangles use 3, isolines 2: [0] density,
 * [1] detail), inner: 2 (triangles use [0], isolines none). Returns false only when memory
 * runs out; the result is empty for a culled patch. Free with tv_tess_result_free. */
bool tv_tess_patch(tv_tess_domain domain, tv_tess_spacing spacing, bool cw, bool point_mode,
                   const float outer[4], const float inner[2], tv_tess_result *out);
void tv_tess_result_free(tv_tess_result *r);

#ifdef __cplusplus
}
#endif
#endif
