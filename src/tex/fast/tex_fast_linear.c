/* The bilinear footprint of one lane for unorm8x4 views (four 8-bit UNORM components in a
 * 4-byte texel: R8G8B8A8/B8G8R8A8 UNORM and every other COMPONENTS code with that shape),
 * single sample, no sRGB decode, compare or min/max reduction: tex_filter_level's LINEAR
 * case for 2-axis targets when the whole-request paths declined the request (gradients,
 * cube faces, mixed handles, border wraps, ...). Bit-identical to the general path by
 * construction: the texel decodes through the decoder's own table (tex_unorm8), the
 * address through tex_texel_offset's formulas (tex_formulas.h), and the footprint uses
 * the same wrap functions and the same float operations in the same order as
 * tex_filter_level + accumulate (weight of a tap = (1 or 1-a or a) products in axis order,
 * taps of weight 0 skipped, the first tap starting the sum, weight 1 not multiplied).
 * tests/tex/test_fastpath.c checks the identity on random inputs in both precision modes. */
#include <string.h>

#include "tex/format.h"
#include "tex/fast/tex_fast.h"
#include "tex/fast/tex_fast_addr.h"

void tex_fast_linear_2d(const tex_ctx *c, uint32_t level, unsigned face, const float u[2],
                        const uint32_t size[2], tex_val *out)
{
    const tex_view *v = c->v;
    const uint32_t layer = c->layer + face; /* non-seamless cube faces as in tex_texel() */
    int32_t i0[2], i1[2];
    float al[2];
    for (unsigned a = 0; a < 2; a++) {
        if (tex_wrap_is_common(c->wrap[a]))
            tex_wrap_linear_common(c->wrap[a], u[a], size[a], false, &i0[a], &i1[a], &al[a]);
        else
            tex_wrap_linear(c->wrap[a], u[a], size[a], false, &i0[a], &i1[a], &al[a]);
    }
    const float wx[2] = {1.0f - al[0], al[0]}, wy[2] = {1.0f - al[1], al[1]};
    const int32_t ix[2] = {i0[0], i1[0]}, iy[2] = {i0[1], i1[1]};
    unsigned L = c->base_level + level;
    /* the whole footprint straight from host memory when the view is mapped there */
    bool direct = L < v->levels && layer < v->layers && v->host &&
                  v->host_generation == tex_memory_generation(c->unit->mem);
    uint64_t xo[2] = {0, 0}, yo[2] = {0, 0};
    if (direct) {
        uint64_t base = (uint64_t)layer * v->layer_stride + v->level_offset[L];
        for (unsigned k = 0; k < 2; k++) {
            if (ix[k] != TEX_BORDER)
                xo[k] = tex_fast_col_offset(v, L, (uint32_t)ix[k]);
            if (iy[k] != TEX_BORDER)
                yo[k] = base + tex_fast_row_offset(v, L, (uint32_t)iy[k]);
        }
    }
    bool first = true;
    for (unsigned t = 0; t < 4; t++) {
        float w = 1.0f;
        w *= wx[t & 1u];
        w *= wy[t >> 1];
        if (w == 0.0f)
            continue;
        int32_t i = ix[t & 1u], j = iy[t >> 1];
        float f[4]; /* element-wise copies: no wide reload of narrow stores */
        if (i == TEX_BORDER || j == TEX_BORDER) {
            for (unsigned k = 0; k < 4; k++)
                memcpy(&f[k], &c->border[k], 4);
        } else {
            uint64_t off = xo[t & 1u] + yo[t >> 1];
            if (direct && (uint32_t)i < size[0] && (uint32_t)j < size[1] &&
                off + 4 <= v->size_bytes) {
                const uint8_t *p = v->host + off;
                for (unsigned k = 0; k < 4; k++)
                    f[k] = tex_unorm8[p[v->unorm8_byte[k]]];
            } else { /* the general loader (its clamps and memory rules) */
                uint32_t raw[4];
                tex_load_texel(c->unit, v, L, (unsigned)i, (unsigned)j, 0, layer, 0, false,
                               raw);
                for (unsigned k = 0; k < 4; k++)
                    memcpy(&f[k], &raw[k], 4);
            }
        }
        for (unsigned k = 0; k < 4; k++) {
            float x = w == 1.0f ? f[k] : w * f[k];
            out->f[k] = first ? x : out->f[k] + x;
            if (first)
                memcpy(&out->u[k], &f[k], 4);
        }
        first = false;
    }
}
