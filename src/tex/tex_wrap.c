/* Wrap (address) modes of the TSC, per axis (sampling.md §3). Integer-domain modes wrap the
 * selected texel indices; the legacy GL clamp modes (CLAMP_OGL, MIRROR_ONCE_CLAMP_OGL) are
 * defined on the coordinate and may blend half of the border in. In hardware precision a
 * linear footprint's texel-space coordinate is first rounded to 1/256 texel (ties up), so
 * weights have 8 fraction bits; a nearest texel is the floor of the exact coordinate. */
#include <math.h>

#include "tex/tex_formulas.h"
#include "tex/tex_sampling.h"

int64_t tex_wrap_int(unsigned mode, int64_t i, uint32_t size)
{
    int64_t n = size ? size : 1;
    switch (mode) {
    case TV_WRAP_REPEAT:
        return tex_wrap_repeat(i, n);
    case TV_WRAP_MIRROR:
        return tex_wrap_mirror(i, n);
    case TV_WRAP_BORDER:
        return (i < 0 || i >= n) ? TEX_BORDER : i;
    case TV_WRAP_MIRROR_ONCE_CLAMP_TO_EDGE:
    case TV_WRAP_MIRROR_ONCE_CLAMP_OGL:
        return tex_clamp_i64(tex_mirror_index(i), 0, n - 1);
    case TV_WRAP_MIRROR_ONCE_BORDER: {
        int64_t m = tex_mirror_index(i);
        return m >= n ? TEX_BORDER : m;
    }
    case TV_WRAP_CLAMP_TO_EDGE:
    case TV_WRAP_CLAMP_OGL:
    default:
        return tex_wrap_clamp_edge(i, n);
    }
}

int64_t tex_select_nearest(float u)
{
    return tex_floor_i64(u);
}

/* The legacy clamps, as a coordinate clamp in texel units (EXT_texture_mirror_clamp). */
static bool legacy_clamp(unsigned mode, float *u, uint32_t size)
{
    float n = (float)size;
    if (mode == TV_WRAP_CLAMP_OGL) {
        *u = fminf(fmaxf(*u, 0.0f), n);
        return true;
    }
    if (mode == TV_WRAP_MIRROR_ONCE_CLAMP_OGL) {
        *u = fminf(fmaxf(fabsf(*u), 0.5f), n);
        return true;
    }
    return false;
}

int32_t tex_wrap_nearest(unsigned mode, float u, uint32_t size)
{
    if (legacy_clamp(mode, &u, size))
        return (int32_t)tex_clamp_i64(tex_floor_i64(u), 0, (int64_t)size - 1);
    return (int32_t)tex_wrap_int(mode, tex_floor_i64(u), size);
}

void tex_wrap_linear(unsigned mode, float u, uint32_t size, bool hw, int32_t *i0, int32_t *i1,
                     float *alpha)
{
    int64_t a;
    if (hw)
        u = tex_hw_coord(u);
    if (legacy_clamp(mode, &u, size)) {
        tex_select_linear(u, false, &a, alpha);
        *i0 = (a < 0 || a >= (int64_t)size) ? TEX_BORDER : (int32_t)a;
        *i1 = (a + 1 < 0 || a + 1 >= (int64_t)size) ? TEX_BORDER : (int32_t)(a + 1);
        return;
    }
    tex_select_linear(u, false, &a, alpha);
    *i0 = (int32_t)tex_wrap_int(mode, a, size);
    *i1 = (int32_t)tex_wrap_int(mode, a + 1, size);
}
