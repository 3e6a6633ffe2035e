/* Level of detail (sampling.md §4): scale factor from the view's base level, Euclidean
 * rho, anisotropy, bias (sampler + shader), min/max clamps, magnification switch and
 * level selection. The anisotropy rule and the precision modes are documented in
 * docs/texture-unit.md ("LOD and anisotropy") and docs/texture-unit-precision.md
 * ("Precision modes"). */
#include <math.h>

#include "tex/tex_formulas.h"
#include "tex/tex_sampling.h"

#define TEX_MAX_BIAS 15.99609375f   /* s5.8 range of the bias fields: [-16, 4095/256] */
#define TEX_MIN_LOG2_RATIO -16.0f

void tex_lod_scale(const tex_ctx *c, float scale[3])
{
    scale[0] = scale[1] = scale[2] = 1.0f;
    if (!c->normalized)
        return;
    scale[0] = (float)tex_level_width(c->v, c->base_level);
    scale[1] = (float)tex_level_height(c->v, c->base_level);
    scale[2] = (float)tex_level_depth(c->v, c->base_level);
    if (c->tgt->cube)
        scale[1] = scale[0];
}

static float sampler_bias(const tex_ctx *c)
{
    int16_t raw = c->v->tic.use_header_opt_control ? c->v->tic.mip_lod_bias
                                                   : c->s->tsc.mip_lod_bias;
    return raw / 256.0f;
}

/* Footprint: rho of the x and y derivative vectors (texel space) and anisotropy. */
static float footprint(const tex_ctx *c, const tex_lod_in *in, bool aniso_ok,
                       tex_lod_out *out)
{
    const float *scale = c->lod_scale; /* tex_lod_scale, once per request (setup_ctx) */
    unsigned dims = c->tgt->dims;
    float px[3] = {0, 0, 0}, py[3] = {0, 0, 0};
    float lx = 0.0f, ly = 0.0f;
    for (unsigned a = 0; a < dims; a++) {
        px[a] = in->dx[a] * scale[a];
        py[a] = in->dy[a] * scale[a];
        lx += px[a] * px[a];
        ly += py[a] * py[a];
    }
    lx = sqrtf(lx);
    ly = sqrtf(ly);
    bool x_major = !(ly > lx);
    float rmax = x_major ? lx : ly, rmin = x_major ? ly : lx;
    const float *pm = x_major ? px : py;
    const float *dm = x_major ? in->dx : in->dy;
    if (rmax > 0.0f && isfinite(rmax)) {
        out->major_u = pm[0] / rmax;
        out->major_v = dims > 1 ? pm[1] / rmax : 0.0f;
        out->log2_ratio = rmin > 0.0f ? fmaxf(log2f(rmin / rmax), TEX_MIN_LOG2_RATIO)
                                      : TEX_MIN_LOG2_RATIO;
    }
    float eta = 1.0f;
    if (aniso_ok && rmax > 0.0f) {
        float maxa = (float)c->max_aniso;
        eta = rmin > 0.0f ? fminf(rmax / rmin, maxa) : maxa;
        if (!(eta >= 1.0f))
            eta = 1.0f;
        out->probes = (unsigned)ceilf(eta);
        out->probe_ds = dm[0];
        out->probe_dt = dims > 1 ? dm[1] : 0.0f;
    }
    return log2f(rmax / eta); /* rmax = 0 -> -inf: the base level is magnified */
}

void tex_lod_compute(const tex_ctx *c, const tex_lod_in *in, tex_lod_out *out)
{
    out->probes = 1;
    out->probe_ds = out->probe_dt = 0.0f;
    out->major_u = out->major_v = 0.0f;
    out->log2_ratio = 0.0f;

    bool aniso_ok = c->max_aniso > 1 && c->tgt->dims == 2 && !c->tgt->cube &&
                    (c->min == TV_MIN_LINEAR || c->min == TV_MIN_ANISO);
    float lb;
    if (in->explicit_lod)
        lb = in->lod;
    else if (in->have_deriv)
        lb = footprint(c, in, aniso_ok, out);
    else
        lb = -INFINITY;

    float bias = tex_clampf(sampler_bias(c) + in->shader_bias, -16.0f, TEX_MAX_BIAS);
    float lp = lb + bias;
    if (c->hw)
        lp = tex_hw_lod(lp);
    float lod_min = c->s->tsc.min_lod_clamp / 256.0f;
    float lod_max = c->s->tsc.max_lod_clamp / 256.0f;
    float hdr_min = c->v->tic.min_lod_clamp / 256.0f - (float)c->base_level;
    lod_min = fmaxf(lod_min, hdr_min);
    if (in->lod_clamp > lod_min)
        lod_min = c->hw ? tex_hw_lod(in->lod_clamp) : in->lod_clamp;
    float lam = tex_clampf(lp, lod_min, lod_max);
    out->lambda_prime = lp;
    out->lambda = lam;

    float q = (float)c->q;
    float l = tex_clampf(lam, 0.0f, q);
    if (c->mip == TV_MIP_NONE)
        out->accessed = 0.0f;
    else if (c->mip == TV_MIP_POINT)
        out->accessed = fmaxf(tex_nearest_level(l), 0.0f);
    else
        out->accessed = l;

    out->magnify = !(lam > 0.0f);
    out->nlevels = 1;
    out->level[0] = out->level[1] = 0;
    out->wlevel[0] = 1.0f;
    out->wlevel[1] = 0.0f;
    out->hw_f256 = 0;
    if (out->magnify)
        return; /* the anisotropic probes (if any) stay: each is magnified */
    float dp = fminf(lam, q);
    if (c->mip == TV_MIP_POINT) {
        out->level[0] = (uint32_t)fmaxf(tex_nearest_level(dp), 0.0f);
    } else if (c->mip == TV_MIP_LINEAR) {
        float h = floorf(dp);
        uint32_t hi = (uint32_t)h;
        uint32_t lo = hi + 1 <= c->q ? hi + 1 : c->q;
        float f = dp - h;
        out->level[0] = hi;
        if (lo != hi && f > 0.0f) {
            out->nlevels = 2;
            out->level[1] = lo;
            out->wlevel[0] = 1.0f - f;
            out->wlevel[1] = f;
            /* hardware precision: λ', the clamps and the levels are multiples of 1/256 */
            out->hw_f256 = (uint32_t)(f * 256.0f);
        }
    }
}
