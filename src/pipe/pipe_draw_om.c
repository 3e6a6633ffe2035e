/* The output merger on each shaded pixel of a draw (the fragment stage's emit hook): the
 * sample mask, the legacy alpha test, depth (the shader's or the triangle's plane plus
 * polygon offset, clamped) and stencil against the depth/stencil buffer, then blending,
 * logic op and write masks into each colour buffer — all through pipe_om.h's functions
 * and the format table. GL 4.6 §17.3 order. Single-sampled targets. */
#include "pipe_draw.h"

#include "util/half.h"

#include <math.h>
#include <string.h>



/* Depth of pixel (x, y) at its centre: the shader's, or the plane's plus the offset. */
static float fragment_depth(const draw_state *d, const tv_vm_frag_output *o)
{
    float z;
    if (o->has_depth) {
        z = o->depth;
    } else {
        double px = o->x + 0.5, py = o->y + 0.5;
        z = (float)(d->z0 + d->zx * (px - d->zpx) + d->zy * (py - d->zpy)) + d->zoffset;
    }
    if (d->ctx->rast.depth_clamp)
        z = z < d->zmin ? d->zmin : z > d->zmax ? d->zmax : z;
    if (!(z >= 0.0f))           /* NaN too */
        z = 0.0f;
    return z > 1.0f ? 1.0f : z;
}

static bool depth_stencil(const draw_state *d, const tv_vm_frag_output *o)
{
    const tv_pipe_dsa_state *s = &d->ctx->dsa;
    if (!d->has_zs || (!s->depth_enabled && !s->stencil[0].enabled))
        return true;
    uint8_t ref = d->ctx->stencil_ref[d->front || !s->stencil[1].enabled ? 0 : 1];
    if (o->has_stencil)
        ref = (uint8_t)o->stencil;   /* shader stencil export replaces the reference */
    uint8_t *texel = d->zbase + d->zstride * (size_t)o->y + (size_t)d->zs.bytes * (size_t)o->x;
    uint32_t zq = d->zs.depth_bits ? om_depth_quantize(&d->zs, fragment_depth(d, o)) : 0;
    return om_depth_stencil(s, &d->zs, d->front, ref, zq, texel);
}

static void write_color(const draw_state *d, unsigned i, const tv_vm_frag_output *o)
{
    const tv_pipe_blend_state *b = &d->ctx->blend;
    const om_rt_blend *rt = &b->rt[b->independent_blend_enable ? i : 0];
    const draw_cbuf *cb = &d->cb[i];
    unsigned src = d->color0_all ? 0 : i;
    if (!((o->colors >> src) & 1u) || !rt->colormask)
        return;
    uint8_t *texel = cb->base + cb->stride * (size_t)o->y + (size_t)cb->t.bytes * (size_t)o->x;
    uint32_t value[4];
    memcpy(value, o->color[src], sizeof value);
    if (rt->blend_enable && cb->t.cls != OM_CLASS_SINT && cb->t.cls != OM_CLASS_UINT) {
        uint32_t dst_bits[4];
        om_target_read(&cb->t, texel, dst_bits);
        float s0[4], s1[4], dst[4], out[4];
        for (int c = 0; c < 4; c++) {
            s0[c] = tv_bits_f32(value[c]);
            s1[c] = tv_bits_f32(o->color[1][c]);   /* dual source: COLOR[1] */
            dst[c] = tv_bits_f32(dst_bits[c]);
        }
        om_blend_color(rt, cb->t.cls, s0, s1, dst, d->ctx->blend_color, out);
        for (int c = 0; c < 4; c++)
            value[c] = tv_f32_bits(out[c]);
    }
    om_target_write(&cb->t, value, rt->colormask, b->logicop_enable ? b->logicop_func : -1,
                    texel);
}

void draw_om_emit(void *user, const tv_vm_frag_output *o)
{
    draw_state *d = user;
    if (o->x < 0 || o->y < 0 || o->x >= d->width || o->y >= d->height)
        return;
    uint32_t cov = o->coverage & (o->has_sample_mask ? o->sample_mask : ~0u);
    if (!(cov & 1u))
        return;
    const tv_pipe_dsa_state *s = &d->ctx->dsa;
    if (s->alpha_enabled) {
        float a = (o->colors & 1u) ? tv_bits_f32(o->color[0][3]) : 0.0f;
        if (!om_compare_f(s->alpha_func, a, s->alpha_ref))
            return;
    }
    if (!depth_stencil(d, o))
        return;
    d->samples_passed++;                 /* occlusion queries count it */
    for (unsigned i = 0; i < d->nr_cbufs; i++)
        if (d->cb_bound[i])
            write_color(d, i, o);
}
