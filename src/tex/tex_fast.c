/* Fast paths of the texture unit for the common case — four 8-bit UNORM components in a
 * 4-byte texel (R8G8B8A8/B8G8R8A8 UNORM and every other COMPONENTS code with that shape),
 * single sample, no sRGB decode, compare or min/max reduction. They are bit-identical to
 * the general path by construction: the texel decodes through the decoder's own table
 * (tex_unorm8), the address through tex_texel_offset, and the bilinear footprint uses
 * the same wrap functions and the same float operations in the same order as
 * tex_filter_level + accumulate (weight of a tap = (1 or 1-a or a) products in axis order,
 * taps of weight 0 skipped, the first tap starting the sum, weight 1 not multiplied).
 * tests/tex/test_fastpath.c checks the identity on random inputs in both precision modes. */
#include <string.h>

#include "tex/format.h"
#include "tex/tex_sampling.h"

void tex_fast_classify(tex_view *v)
{
    v->unorm8x4 = false;
    const tex_comp_layout *l = v->layout;
    if (!v->valid || !l || l->decoder != TEX_DEC_PLAIN || l->bytes != 4 || l->block_w != 1 ||
        l->block_h != 1 || v->samples != 1 || v->mem_layout == TV_TIC_ONE_D_BUFFER)
        return;
    for (unsigned c = 0; c < 4; c++) {
        if (l->bits[c] != 8 || (l->off[c] & 7u) || v->tic.data_type[c] != TV_TIC_TYPE_UNORM)
            return;
        v->unorm8_byte[c] = (uint8_t)(l->off[c] / 8u);
    }
    v->unorm8x4 = true;
}

void tex_set_fast_paths_disabled(tv_tex_unit *unit, bool disabled)
{
    if (unit)
        unit->no_fast_paths = disabled;
}

static inline void read4(tv_tex_unit *unit, const tex_view *v, uint64_t off, uint8_t buf[4])
{
    if (v->host && off + 4 <= v->size_bytes &&
        v->host_generation == tex_memory_generation(unit->mem))
        memcpy(buf, v->host + off, 4);
    else
        tv_memory_read(unit->mem, v->tic.address + off, buf, 4);
}

void tex_fast_load_unorm8x4(tv_tex_unit *unit, const tex_view *v, unsigned level, unsigned x,
                            unsigned y, unsigned z, unsigned layer, uint32_t out[4])
{
    uint8_t buf[4];
    read4(unit, v, tex_texel_offset(v, level, x, y, z, layer, 0), buf);
    for (unsigned c = 0; c < 4; c++)
        memcpy(&out[c], &tex_unorm8[buf[v->unorm8_byte[c]]], 4);
}

/* One tap as floats: the border texel, or the decoded texel (in range: the wrap modes
 * return indices inside the level). */
static inline void tap(const tex_ctx *c, unsigned level, int32_t i, int32_t j, float f[4],
                       uint32_t raw[4])
{
    const tex_view *v = c->v;
    if (i == TEX_BORDER || j == TEX_BORDER) {
        memcpy(raw, c->border, 16);
    } else if (level >= v->levels || (uint32_t)i >= tex_level_width(v, level) ||
               (uint32_t)j >= tex_level_height(v, level) || c->layer >= v->layers) {
        /* not reachable from the wrap modes; the general loader's rules apply */
        tex_load_texel(c->unit, v, level, (unsigned)i, (unsigned)j, 0, c->layer, 0, false, raw);
    } else {
        uint8_t buf[4];
        read4(c->unit, v, tex_texel_offset(v, level, (unsigned)i, (unsigned)j, 0, c->layer, 0),
              buf);
        for (unsigned k = 0; k < 4; k++)
            memcpy(&raw[k], &tex_unorm8[buf[v->unorm8_byte[k]]], 4);
    }
    memcpy(f, raw, 16);
}

void tex_fast_linear_2d(const tex_ctx *c, uint32_t level, const float u[2],
                        const uint32_t size[2], tex_val *out)
{
    int32_t i0[2], i1[2];
    float al[2];
    for (unsigned a = 0; a < 2; a++)
        tex_wrap_linear(c->wrap[a], u[a], size[a], c->hw, &i0[a], &i1[a], &al[a]);
    const float wx[2] = {1.0f - al[0], al[0]}, wy[2] = {1.0f - al[1], al[1]};
    const int32_t ix[2] = {i0[0], i1[0]}, iy[2] = {i0[1], i1[1]};
    unsigned abs_level = c->base_level + level;
    bool first = true;
    for (unsigned t = 0; t < 4; t++) {
        float w = 1.0f;
        w *= wx[t & 1u];
        w *= wy[t >> 1];
        if (w == 0.0f)
            continue;
        float f[4];
        uint32_t raw[4];
        tap(c, abs_level, ix[t & 1u], iy[t >> 1], f, raw);
        for (unsigned k = 0; k < 4; k++) {
            float x = w == 1.0f ? f[k] : w * f[k];
            out->f[k] = first ? x : out->f[k] + x;
        }
        if (first)
            memcpy(out->u, raw, 16);
        first = false;
    }
}
