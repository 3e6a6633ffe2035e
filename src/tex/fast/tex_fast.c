/* The fast paths' one entry from the request path, and the unit's switches for them
 * (fast/tex_fast.h). */
#include "tex/fast/tex_fast.h"
#include "tex/fast/tex_fast_hw.h"
#include "tex/fast/tex_warp.h"
#include "tex/fast/tex_warp_aniso.h"

bool tex_fast_sample(tv_tex_unit *unit, const tv_tex_request *req, tv_tex_result *res)
{
    if (!tex_fast_serves(unit)) /* the hardware precision's one (tex_warp_hw.c) */
        return tex_warp_hw_sample(unit, req, res);
    return tex_warp_sample(unit, req, res)          /* the common shape (tex_warp.c) */
           || tex_warp_aniso_sample(unit, req, res); /* anisotropic (tex_warp_aniso.c) */
}

void tex_set_fast_paths_disabled(tv_tex_unit *unit, bool disabled)
{
    if (unit)
        unit->no_fast_paths = disabled;
}

void tex_set_vector_isa_cap(tv_tex_unit *unit, unsigned cap)
{
    if (unit)
        unit->vec_isa_cap = (uint8_t)(cap > 2 ? 2 : cap);
}
