/* Filtering (sampling.md §6.1–6.3, §5.3): texel reads with border replacement and per-texel
 * depth compare, nearest / linear footprints in 1D, 2D, 3D and on cube faces (seamless edges
 * and corners = average of the three other texels, after compare), mip blending and the
 * anisotropic probe average. Taps with weight 0 are not read. A min/max reduction (TSC
 * REDUCTION_FILTER) replaces every weighted sum by the component-wise min/max of the
 * values of non-zero weight (taps, both mip levels, probes). This is the reference
 * precision's filter; the hardware precision's levels are tex_hw_filter.c's. */
#include <math.h>
#include <string.h>

#include "tex/tex_sampling.h"
#include "tex/fast/tex_fast.h"
#include "util/half.h"

static bool compare(unsigned func, float ref, float d)
{
    switch (func) {
    case TV_CMP_NEVER: return false;
    case TV_CMP_LESS: return ref < d;
    case TV_CMP_EQUAL: return ref == d;
    case TV_CMP_LEQUAL: return ref <= d;
    case TV_CMP_GREATER: return ref > d;
    case TV_CMP_NOTEQUAL: return ref != d;
    case TV_CMP_GEQUAL: return ref >= d;
    default: return true; /* ALWAYS */
    }
}

static void to_val(const tex_ctx *c, const uint32_t raw[4], tex_val *out)
{
    for (unsigned k = 0; k < 4; k++) {
        out->u[k] = raw[k];
        out->f[k] = c->is_int ? 0.0f : tv_bits_f32(raw[k]);
    }
    if (c->compare) {
        float d;
        if (!c->is_int)
            d = out->f[0];
        else if (c->v->fi && c->v->fi->kind == TV_FMT_KIND_SINT)
            d = (float)(int32_t)raw[0];
        else
            d = (float)raw[0];
        if (c->v->tic.data_type[0] == 2) /* UNORM depth: both sides in [0,1] */
            d = fminf(fmaxf(d, 0.0f), 1.0f);
        float r = compare(c->cmp_func, c->ref, d) ? 1.0f : 0.0f;
        out->f[0] = r;
        out->f[1] = out->f[2] = 0.0f;
        out->f[3] = 1.0f;
    }
}

void tex_texel(const tex_ctx *c, uint32_t level, int32_t i, int32_t j, int32_t k, unsigned face,
               tex_val *out)
{
    uint32_t raw[4];
    if (i == TEX_BORDER || j == TEX_BORDER || k == TEX_BORDER) {
        memcpy(raw, c->border, sizeof raw);
    } else {
        tex_load_texel(c->unit, c->v, c->base_level + level, (unsigned)i, (unsigned)j,
                       (unsigned)k, c->layer + face, 0, c->srgb, raw);
    }
    to_val(c, raw, out);
}

static bool is_compare_or_float(const tex_ctx *c)
{
    return c->compare || !c->is_int;
}

/* Average of three values (the synthesised cube corner). */
static void average3(const tex_ctx *c, const tex_val *a, const tex_val *b, const tex_val *d,
                     tex_val *out)
{
    for (unsigned k = 0; k < 4; k++) {
        out->f[k] = (a->f[k] + b->f[k] + d->f[k]) / 3.0f;
        if (!is_compare_or_float(c) && c->v->fi && c->v->fi->kind == TV_FMT_KIND_SINT) {
            int64_t s = (int64_t)(int32_t)a->u[k] + (int32_t)b->u[k] + (int32_t)d->u[k];
            out->u[k] = (uint32_t)(int32_t)(s / 3);
        } else {
            uint64_t s = (uint64_t)a->u[k] + b->u[k] + d->u[k];
            out->u[k] = (uint32_t)(s / 3u);
        }
    }
}

void tex_cube_footprint(const tex_ctx *c, uint32_t level, unsigned face, int64_t i0, int64_t j0,
                        tex_val t[4])
{
    int n = (int)tex_level_width(c->v, c->base_level + level);
    if (i0 < -1) i0 = -1;
    if (i0 > n - 1) i0 = n - 1;
    if (j0 < -1) j0 = -1;
    if (j0 > n - 1) j0 = n - 1;
    int corner = -1;
    for (unsigned tap = 0; tap < 4; tap++) {
        int i = (int)i0 + (int)(tap & 1), j = (int)j0 + (int)(tap >> 1);
        bool oi = i < 0 || i >= n, oj = j < 0 || j >= n;
        if (oi && oj) {
            corner = (int)tap;
        } else if (oi || oj) {
            unsigned nf;
            int ni, nj;
            tex_cube_edge(face, n, i, j, &nf, &ni, &nj);
            tex_texel(c, level, ni, nj, 0, nf, &t[tap]);
        } else {
            tex_texel(c, level, i, j, 0, face, &t[tap]);
        }
    }
    if (corner >= 0) {
        const tex_val *o[3];
        unsigned m = 0;
        for (unsigned tap = 0; tap < 4; tap++)
            if ((int)tap != corner)
                o[m++] = &t[tap];
        average3(c, o[0], o[1], o[2], &t[corner]);
    }
}

/* acc (+)= w * v, starting exactly from the first tap; with a min/max reduction the
 * taps of non-zero weight are reduced instead. */
static void accumulate(const tex_ctx *c, tex_val *acc, bool *first, float w, const tex_val *v)
{
    for (unsigned k = 0; k < 4; k++) {
        float x = (w == 1.0f || c->reduction) ? v->f[k] : w * v->f[k];
        if (*first)
            acc->f[k] = x;
        else
            acc->f[k] = c->reduction ? tex_reduce(c->reduction, acc->f[k], x) : acc->f[k] + x;
        if (*first)
            acc->u[k] = v->u[k];
    }
    *first = false;
}

void tex_level_coords(const tex_ctx *c, uint32_t level, const float st[3], uint32_t size[3],
                      float u[3])
{
    size[0] = tex_level_width(c->v, c->base_level + level);
    size[1] = tex_level_height(c->v, c->base_level + level);
    size[2] = tex_level_depth(c->v, c->base_level + level);
    for (unsigned a = 0; a < 3; a++) {
        float scaled = c->normalized ? st[a] * (float)size[a] : st[a];
        u[a] = a < c->tgt->dims ? scaled + (float)c->off[a] : 0.0f;
    }
}

void tex_filter_level(const tex_ctx *c, uint32_t level, unsigned filter, const float st[3],
                      unsigned face, tex_val *out)
{
    uint32_t size[3];
    float u[3];
    tex_level_coords(c, level, st, size, u);
    unsigned dims = c->tgt->dims;
    if (c->tgt->cube && c->seamless) {
        if (filter == TEX_FILTER_NEAREST) {
            int32_t i, j;
            tex_cube_nearest(u, size[0], &i, &j);
            tex_texel(c, level, i, j, 0, face, out);
            return;
        }
        int64_t i0, j0;
        float a, b;
        tex_select_linear(u[0], false, &i0, &a);
        tex_select_linear(u[1], false, &j0, &b);
        tex_val t[4];
        tex_cube_footprint(c, level, face, i0, j0, t);
        float w[4] = {(1 - a) * (1 - b), a * (1 - b), (1 - a) * b, a * b};
        bool first = true;
        for (unsigned tap = 0; tap < 4; tap++)
            if (w[tap] != 0.0f)
                accumulate(c, out, &first, w[tap], &t[tap]);
        return;
    }
    if (filter == TEX_FILTER_NEAREST) {
        int32_t idx[3] = {0, 0, 0};
        for (unsigned a = 0; a < dims; a++)
            idx[a] = tex_wrap_nearest(c->wrap[a], u[a], size[a]);
        tex_texel(c, level, idx[0], idx[1], idx[2], face, out);
        return;
    }
    if (c->fast && dims == 2) {
        tex_fast_linear_2d(c, level, face, u, size, out);
        return;
    }
    int32_t i0[3] = {0, 0, 0}, i1[3] = {0, 0, 0};
    float al[3] = {0, 0, 0};
    for (unsigned a = 0; a < dims; a++)
        tex_wrap_linear(c->wrap[a], u[a], size[a], false, &i0[a], &i1[a], &al[a]);
    unsigned taps = 1u << dims;
    bool first = true;
    for (unsigned tap = 0; tap < taps; tap++) {
        float w = 1.0f;
        int32_t idx[3] = {0, 0, 0};
        for (unsigned a = 0; a < dims; a++) {
            bool hi = (tap >> a) & 1;
            w *= hi ? al[a] : 1.0f - al[a];
            idx[a] = hi ? i1[a] : i0[a];
        }
        if (w == 0.0f)
            continue;
        tex_val t;
        tex_texel(c, level, idx[0], idx[1], idx[2], face, &t);
        accumulate(c, out, &first, w, &t);
    }
}

static void sample_levels(const tex_ctx *c, const tex_lod_out *lod, unsigned filter,
                          const float st[3], unsigned face, tex_val *out)
{
    if (c->hw && !c->is_int) { /* integer formats are never filtered: one texel either way */
        tex_hw_sample_levels(c, lod, filter, st, face, out);
        return;
    }
    tex_filter_level(c, lod->level[0], filter, st, face, out);
    if (lod->nlevels < 2)
        return;
    tex_val hi;
    tex_filter_level(c, lod->level[1], filter, st, face, &hi);
    for (unsigned k = 0; k < 4; k++)
        out->f[k] = c->reduction ? tex_reduce(c->reduction, out->f[k], hi.f[k])
                                 : lod->wlevel[0] * out->f[k] + lod->wlevel[1] * hi.f[k];
}

void tex_filter_sample(const tex_ctx *c, const tex_lod_out *lod, const float st[3],
                       unsigned face, tex_val *out)
{
    unsigned mode = lod->magnify ? c->mag : c->min;
    unsigned filter = tex_mode_linear(mode) ? TEX_FILTER_LINEAR : TEX_FILTER_NEAREST;
    if (c->is_int)
        filter = TEX_FILTER_NEAREST;
    if (lod->probes <= 1) {
        sample_levels(c, lod, filter, st, face, out);
        return;
    }
    unsigned n = lod->probes;
    float sum[4] = {0, 0, 0, 0};
    for (unsigned p = 1; p <= n; p++) {
        float k = (float)p / (float)(n + 1) - 0.5f;
        float sp[3] = {st[0] + k * lod->probe_ds, st[1] + k * lod->probe_dt, st[2]};
        tex_val v;
        sample_levels(c, lod, filter, sp, face, &v);
        for (unsigned ch = 0; ch < 4; ch++)
            sum[ch] = p == 1 ? v.f[ch]
                    : c->reduction ? tex_reduce(c->reduction, sum[ch], v.f[ch]) : sum[ch] + v.f[ch];
        if (p == 1)
            memcpy(out->u, v.u, sizeof out->u);
    }
    for (unsigned ch = 0; ch < 4; ch++)
        out->f[ch] = c->reduction ? sum[ch] : sum[ch] / (float)n;
}
