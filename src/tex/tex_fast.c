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

/* tex_wrap_linear for the two integer-domain modes the common samplers use, with the
 * power-of-two REPEAT as a mask (imod(a, n) == a & (n - 1) in two's complement); other
 * modes go to the general function. */
static inline void wrap_linear(unsigned mode, float u, uint32_t size, bool hw, int32_t *i0,
                               int32_t *i1, float *alpha)
{
    if (mode != TV_WRAP_REPEAT && mode != TV_WRAP_CLAMP_TO_EDGE) {
        tex_wrap_linear(mode, u, size, hw, i0, i1, alpha);
        return;
    }
    if (hw)
        u = tex_q8(u);
    int64_t a;
    tex_select_linear(u, false, &a, alpha);
    int64_t n = size ? size : 1;
    if (mode == TV_WRAP_CLAMP_TO_EDGE) {
        *i0 = (int32_t)(a < 0 ? 0 : a > n - 1 ? n - 1 : a);
        *i1 = (int32_t)(a + 1 < 0 ? 0 : a + 1 > n - 1 ? n - 1 : a + 1);
    } else if ((n & (n - 1)) == 0) {
        *i0 = (int32_t)(a & (n - 1));
        *i1 = (int32_t)((a + 1) & (n - 1));
    } else {
        int64_t r0 = a % n, r1 = (a + 1) % n;
        *i0 = (int32_t)(r0 < 0 ? r0 + n : r0);
        *i1 = (int32_t)(r1 < 0 ? r1 + n : r1);
    }
}

void tex_fast_linear_2d(const tex_ctx *c, uint32_t level, unsigned face, const float u[2],
                        const uint32_t size[2], tex_val *out)
{
    const tex_view *v = c->v;
    const uint32_t layer = c->layer + face; /* non-seamless cube faces as in tex_texel() */
    int32_t i0[2], i1[2];
    float al[2];
    for (unsigned a = 0; a < 2; a++)
        wrap_linear(c->wrap[a], u[a], size[a], c->hw, &i0[a], &i1[a], &al[a]);
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
