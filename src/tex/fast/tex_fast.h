/* The texture unit's fast paths (src/tex/fast/): optimisations of the general path for the
 * common request shapes, each bit-identical to it, each with a switch that turns it off
 * and a random differential test (docs/performance.md §3, docs/texture-fast-paths.md).
 * The rest of the unit reaches them only through this header:
 *   - tex_fast_sample, from the request path (tv_tex_execute), for whole requests;
 *   - tex_fast_linear_2d, from the general filter (tex_filter_level), for one bilinear
 *     footprint of a request the whole-request paths declined;
 *   - tex_fast_hw_levels, from the hardware precision's filter (tex_hw_sample_levels),
 *     for one lane's bilinear / trilinear levels when tex_fast_hw_takes says so (whole
 *     requests whose every lane it would take go to tex_warp_hw.c from tex_fast_sample).
 * They compute through the unit's shared formulas (tex/tex_formulas.h) and read texels
 * through the data half's rules (tex_load_texel, the view's host mapping); the data half
 * never calls in here. */
#ifndef TEXVM_TEX_FAST_H
#define TEXVM_TEX_FAST_H

#include <stdbool.h>
#include <stdint.h>

#include "tex/tex_sampling.h"

/* A whole request of a shape a fast path takes: in the reference precision the warp-wide
 * path (tex_warp.c: SAMPLE, SAMPLE_BIAS, SAMPLE_LOD, SAMPLE_LZ of the common 2D shape, with
 * its vectorised kernel tex_warp_vec.c), then the anisotropic warp path
 * (tex_warp_aniso.c); in the hardware precision the whole-request form of
 * tex_fast_hw_levels (tex_warp_hw.c). Returns false, having written nothing, when none
 * takes it (or the unit's fast paths are off); true when `res` is complete. */
bool tex_fast_sample(tv_tex_unit *unit, const tv_tex_request *req, tv_tex_result *res);

/* tex_filter_level's LINEAR footprint for a 2-axis target when c->fast (tex_fast_linear.c):
 * u = texel-space coordinates (offsets added), size = the level's width and height. */
void tex_fast_linear_2d(const tex_ctx *c, uint32_t level, unsigned face, const float u[2],
                        const uint32_t size[2], tex_val *out);

/* Whether the reference precision's fast paths (every one above but tex_fast_hw_levels)
 * may answer: not switched off, and the reference precision. */
static inline bool tex_fast_serves(const tv_tex_unit *unit)
{
    return !unit->no_fast_paths && unit->precision == TV_TEX_PRECISION_REFERENCE;
}

/* The hardware precision's fast footprint (tex_fast_hw.c) and its gate: tex_hw_sample_levels
 * hands a lane's levels to tex_fast_hw_levels exactly when this holds, and the
 * whole-request path (tex_warp_hw.c) takes a request only when it holds for the request's
 * context with a LINEAR footprint in every lane — fast paths not
 * switched off, the hardware precision, a LINEAR footprint (`filter`) with 2 axes (2D,
 * 2D array, a cube face without seamless filtering: not 1D, 3D or a seamless cube), a
 * unorm8x4 view with no sRGB decode, depth compare, integer format or min/max reduction,
 * and REPEAT / MIRROR / CLAMP_TO_EDGE on both axes (no border: the GPU quantises a border
 * colour, tex_hw_unorm16). Everything else — NEAREST, other formats (R8, RG8 and the other
 * unorm8 views among them), the other wraps — takes the general path. */
static inline bool tex_fast_hw_takes(const tex_ctx *c, unsigned filter)
{
    return !c->unit->no_fast_paths && c->hw && filter == TEX_FILTER_LINEAR &&
           c->tgt->dims == 2 && !(c->tgt->cube && c->seamless) && c->v->unorm8x4 &&
           !c->srgb && !c->compare && !c->is_int && !c->reduction &&
           tex_wrap_is_common(c->wrap[0]) && tex_wrap_is_common(c->wrap[1]);
}
/* tex_hw_sample_levels for a context and filter tex_fast_hw_takes accepts: bit-identical. */
void tex_fast_hw_levels(const tex_ctx *c, const tex_lod_out *lod, const float st[3],
                        unsigned face, tex_val *out);
/* Tests: how many lanes (or anisotropic probes) the calling thread's hardware-precision
 * fast paths answered: tex_fast_hw_levels's calls plus the active lanes of the requests
 * the whole-request path (tex_warp_hw.c) took. */
uint64_t tex_fast_hw_count(void);

/* ---- the unit's switches for the fast paths (tests, differential runs) ------------------ */
/* Off (true): every request takes the general path, texels load through the generic
 * decoder. */
void tex_set_fast_paths_disabled(tv_tex_unit *unit, bool disabled);
/* The widest instruction set the unit's vectorised kernel may use: 2 AVX-512 (the
 * default), 1 AVX2, 0 the baseline — where the CPU has it (x86-64 GCC builds; elsewhere
 * there is only the baseline). Every variant gives the same bits. */
void tex_set_vector_isa_cap(tv_tex_unit *unit, unsigned cap);

#endif
