/* Gather (sampling.md §6.4): the LINEAR footprint at the view's base level, whatever the
 * filters; one component chosen after the view swizzle (or the four compare results);
 * order (i0,j1), (i1,j1), (i1,j0), (i0,j0); one offset on (i0,j0) before wrap, or the
 * 4-offset form where texel n is tau_i0j0 of the footprint moved by offset n. Cube gathers
 * are seamless across faces with the corner synthesised as the average of three. */
#include <string.h>

#include "tex/tex_sampling.h"
#include "util/half.h"

static uint32_t pick(const tex_ctx *c, unsigned comp, const tex_val *t)
{
    if (c->compare)
        return tv_f32_bits(t->f[0]);
    uint32_t raw[4], sw[4];
    for (unsigned k = 0; k < 4; k++)
        raw[k] = c->is_int ? t->u[k] : tv_f32_bits(t->f[k]);
    tex_apply_swizzle(c->v, raw, sw);
    return sw[comp & 3];
}

void tex_gather_lane(const tex_ctx *c, const tv_tex_request *req, unsigned lane,
                     const float st[3], unsigned face, uint32_t out[4])
{
    static const unsigned order[4] = {2, 3, 1, 0}; /* slots (i0,j0),(i1,j0),(i0,j1),(i1,j1) */
    uint32_t w = tex_level_width(c->v, c->base_level);
    uint32_t h = tex_level_height(c->v, c->base_level);
    float u = c->normalized ? st[0] * (float)w : st[0];
    float v = c->normalized ? st[1] * (float)h : st[1];
    tex_val t[4];
    if (c->tgt->cube && c->seamless) {
        int64_t i0, j0;
        float a, b;
        tex_select_linear(u, c->hw, &i0, &a);
        tex_select_linear(v, c->hw, &j0, &b);
        tex_cube_footprint(c, 0, face, i0, j0, t);
    } else if ((req->flags & TV_TEXF_GATHER_4OFFSETS) && !c->tgt->cube) {
        for (unsigned n = 0; n < 4; n++) {
            int32_t i0, i1, j0, j1;
            float a, b;
            tex_wrap_linear(c->wrap[0], u + (float)req->offset4[n][0][lane], w, c->hw, &i0,
                            &i1, &a);
            tex_wrap_linear(c->wrap[1], v + (float)req->offset4[n][1][lane], h, c->hw, &j0,
                            &j1, &b);
            tex_texel(c, 0, i0, j0, 0, face, &t[order[n]]);
        }
    } else {
        int32_t i[2], j[2];
        float a, b;
        tex_wrap_linear(c->wrap[0], u + (float)c->off[0], w, c->hw, &i[0], &i[1], &a);
        tex_wrap_linear(c->wrap[1], v + (float)c->off[1], h, c->hw, &j[0], &j[1], &b);
        for (unsigned slot = 0; slot < 4; slot++)
            tex_texel(c, 0, i[slot & 1], j[slot >> 1], 0, face, &t[slot]);
    }
    for (unsigned n = 0; n < 4; n++)
        out[n] = pick(c, req->component, &t[order[n]]);
}
