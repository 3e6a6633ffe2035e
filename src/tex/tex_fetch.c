/* Texel fetch (sampling.md §8): integer coordinates plus offsets (never on the layer),
 * level = view base + per-lane level (or the base level for multisample targets and
 * FORCE_LEVEL0; 2D_NO_MIPMAP and 1D_BUFFER views have that one level only), per-lane
 * sample index; no wrap, no filter, no sampler state; sRGB is decoded when the header
 * says sRGB. Anything out of range returns the D3D `ld` value:
 * 0 in the format's components, (0,0,0,1) defaults in the missing ones. */
#include "tex/tex_sampling.h"

static bool in_range(int64_t x, uint32_t n)
{
    return x >= 0 && x < (int64_t)n;
}

void tex_fetch_lane(tv_tex_unit *unit, const tex_view *v, const tex_target_info *tgt,
                    const tv_tex_request *req, unsigned lane, uint32_t out[4])
{
    uint32_t base = v->base_level < v->levels ? v->base_level : v->levels - 1;
    uint32_t last = v->max_level < v->levels ? v->max_level : v->levels - 1;
    int64_t q = last >= base ? (int64_t)(last - base) : 0;
    if (v->type == TV_TEX_2D_NO_MIPMAP || v->type == TV_TEX_1D_BUFFER)
        q = 0;   /* one level (the TXQ page's table), as sampling and TXQ see it */
    int64_t level = 0, sample = 0;
    if (tgt->ms)
        sample = req->sample[lane];
    else if (!(req->flags & TV_TEXF_FORCE_LEVEL0))
        level = req->lod_i[lane];
    int64_t x[3] = {0, 0, 0};
    for (unsigned a = 0; a < tgt->dims; a++) {
        x[a] = req->icoord[a][lane];
        if (req->flags & TV_TEXF_OFFSETS)
            x[a] += req->offset[a][lane];
    }
    int64_t layer = tgt->array ? req->icoord[3][lane] : 0;
    bool ok = level >= 0 && level <= q && sample >= 0 && sample < (int64_t)v->samples;
    if (ok) {
        uint32_t abs = base + (uint32_t)level;
        uint32_t n[3] = {tex_level_width(v, abs), tex_level_height(v, abs),
                         tex_level_depth(v, abs)};
        if (v->type == TV_TEX_1D_BUFFER)
            n[0] = v->width;
        for (unsigned a = 0; a < 3; a++)
            ok = ok && in_range(x[a], a < tgt->dims ? n[a] : 1u);
        ok = ok && in_range(layer, v->layers ? v->layers : 1u);
        if (ok) {
            tex_load_texel(unit, v, abs, (unsigned)x[0], (unsigned)x[1], (unsigned)x[2],
                           (unsigned)layer, (unsigned)sample, v->srgb, out);
            return;
        }
    }
    tex_zero_texel(v, out);
}
