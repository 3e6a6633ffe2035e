/* The texture unit's fast paths (src/tex/fast/): optimisations of the general path for the
 * common request shapes, each bit-identical to it, each with a switch that turns it off
 * and a random differential test (docs/performance.md §3, docs/texture-unit.md "Fast
 * paths"). The rest of the unit reaches them only through this header:
 *   - tex_fast_sample, from the request path (tv_tex_execute), for whole requests;
 *   - tex_fast_linear_2d, from the general filter (tex_filter_level), for one bilinear
 *     footprint of a request the whole-request paths declined.
 * They compute through the unit's shared formulas (tex/tex_formulas.h) and read texels
 * through the data half's rules (tex_load_texel, the view's host mapping); the data half
 * never calls in here. */
#ifndef TEXVM_TEX_FAST_H
#define TEXVM_TEX_FAST_H

#include <stdbool.h>
#include <stdint.h>

#include "tex/tex_sampling.h"

/* A whole request of a shape a fast path takes: the warp-wide path (tex_warp.c: SAMPLE,
 * SAMPLE_BIAS, SAMPLE_LOD, SAMPLE_LZ of the common 2D shape, with its vectorised kernel
 * tex_warp_vec.c), then the anisotropic warp path (tex_warp_aniso.c). Returns false,
 * having written nothing, when none takes it (or the unit's fast paths are off); true
 * when `res` is complete. */
bool tex_fast_sample(tv_tex_unit *unit, const tv_tex_request *req, tv_tex_result *res);

/* tex_filter_level's LINEAR footprint for a 2-axis target when c->fast (tex_fast_linear.c):
 * u = texel-space coordinates (offsets added), size = the level's width and height. */
void tex_fast_linear_2d(const tex_ctx *c, uint32_t level, unsigned face, const float u[2],
                        const uint32_t size[2], tex_val *out);

/* Whether the unit's fast paths may answer at all: not switched off, and the reference
 * precision (the hardware precision's arithmetic, tex_hw_filter.c, has no fast path). */
static inline bool tex_fast_serves(const tv_tex_unit *unit)
{
    return !unit->no_fast_paths && unit->precision == TV_TEX_PRECISION_REFERENCE;
}

/* ---- the unit's switches for the fast paths (tests, differential runs) ------------------ */
/* Off (true): every request takes the general path, texels load through the generic
 * decoder. */
void tex_set_fast_paths_disabled(tv_tex_unit *unit, bool disabled);
/* The widest instruction set the unit's vectorised kernel may use: 2 AVX-512 (the
 * default), 1 AVX2, 0 the baseline — where the CPU has it (x86-64 GCC builds; elsewhere
 * there is only the baseline). Every variant gives the same bits. */
void tex_set_vector_isa_cap(tv_tex_unit *unit, unsigned cap);

#endif
