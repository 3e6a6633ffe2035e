/* The warp-wide path for anisotropic requests (tex_warp_aniso.c):
 * docs/texture-fast-paths.md, docs/history/performance-log.md §2.5. */
#ifndef TEXVM_TEX_WARP_ANISO_H
#define TEXVM_TEX_WARP_ANISO_H

#include <stdbool.h>

#include "tex/tex_internal.h"

/* A whole SAMPLE / SAMPLE_BIAS request with implicit derivatives whose sampler filters
 * anisotropically (max anisotropy > 1, LINEAR / ANISO minification), one handle, a 2D /
 * 2D array target, a unorm8x4 view with normalized coordinates, no sRGB decode, compare
 * or reduction, REPEAT / MIRROR / CLAMP_TO_EDGE. Returns false, having written nothing,
 * when the request does not qualify; true when `res` is complete. Bit-identical to the
 * general path (tex_execute.c sample_lane). */
bool tex_warp_aniso_sample(tv_tex_unit *unit, const tv_tex_request *req, tv_tex_result *res);

#endif
