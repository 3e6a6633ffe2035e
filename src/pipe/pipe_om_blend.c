/* Blending (GL 4.6 §17.3.6, Gallium cso/blend.rst): the factor table, the equations, the
 * compare functions shared by the depth, stencil and alpha tests, and logic ops. */
#include "pipe_om.h"
#include "util/nan_order.h"
#include "util/wide_vectors.h"

#include <math.h>
#include <stddef.h>

/* Where a blend factor takes its value: one row per Gallium factor (om_factor_desc's
 * fields, pipe_om.h, and its name). */

typedef struct factor_row {
    const char *name;     /* NULL: no factor has this value */
    uint8_t source;       /* om_factor_source */
    bool alpha;           /* the source's alpha for every channel, else the channel itself */
    bool invert;          /* 1 - x */
} factor_row;

/* indexed by the factor's value (Gallium's are below 0x20): one lookup per use */
static const factor_row factors[0x20] = {
    [OM_BF_ONE] = {"ONE", OM_FS_ONE, false, false},
    [OM_BF_SRC_COLOR] = {"SRC_COLOR", OM_FS_SRC0, false, false},
    [OM_BF_SRC_ALPHA] = {"SRC_ALPHA", OM_FS_SRC0, true, false},
    [OM_BF_DST_ALPHA] = {"DST_ALPHA", OM_FS_DST, true, false},
    [OM_BF_DST_COLOR] = {"DST_COLOR", OM_FS_DST, false, false},
    [OM_BF_SRC_ALPHA_SATURATE] = {"SRC_ALPHA_SATURATE", OM_FS_SATURATE, false, false},
    [OM_BF_CONST_COLOR] = {"CONST_COLOR", OM_FS_CONST, false, false},
    [OM_BF_CONST_ALPHA] = {"CONST_ALPHA", OM_FS_CONST, true, false},
    [OM_BF_SRC1_COLOR] = {"SRC1_COLOR", OM_FS_SRC1, false, false},
    [OM_BF_SRC1_ALPHA] = {"SRC1_ALPHA", OM_FS_SRC1, true, false},
    [OM_BF_ZERO] = {"ZERO", OM_FS_ZERO, false, false},
    [OM_BF_INV_SRC_COLOR] = {"INV_SRC_COLOR", OM_FS_SRC0, false, true},
    [OM_BF_INV_SRC_ALPHA] = {"INV_SRC_ALPHA", OM_FS_SRC0, true, true},
    [OM_BF_INV_DST_ALPHA] = {"INV_DST_ALPHA", OM_FS_DST, true, true},
    [OM_BF_INV_DST_COLOR] = {"INV_DST_COLOR", OM_FS_DST, false, true},
    [OM_BF_INV_CONST_COLOR] = {"INV_CONST_COLOR", OM_FS_CONST, false, true},
    [OM_BF_INV_CONST_ALPHA] = {"INV_CONST_ALPHA", OM_FS_CONST, true, true},
    [OM_BF_INV_SRC1_COLOR] = {"INV_SRC1_COLOR", OM_FS_SRC1, false, true},
    [OM_BF_INV_SRC1_ALPHA] = {"INV_SRC1_ALPHA", OM_FS_SRC1, true, true},
};

static const factor_row *factor_find(uint8_t value)
{
    return value < sizeof factors / sizeof factors[0] && factors[value].name ? &factors[value]
                                                                           : NULL;
}

bool om_factor_valid(uint8_t factor)
{
    return factor_find(factor) != NULL;
}

bool om_factor_describe(uint8_t factor, om_factor_desc *out)
{
    const factor_row *f = factor_find(factor);
    if (!f)
        return false;
    out->source = f->source;
    out->alpha = f->alpha;
    out->invert = f->invert;
    return true;
}

bool om_factor_uses_src1(uint8_t factor)
{
    const factor_row *f = factor_find(factor);
    return f && f->source == OM_FS_SRC1;
}

bool om_blend_uses_src1(const tv_pipe_rt_blend *rt)
{
    return om_factor_uses_src1(rt->rgb_src_factor) || om_factor_uses_src1(rt->rgb_dst_factor) ||
           om_factor_uses_src1(rt->alpha_src_factor) ||
           om_factor_uses_src1(rt->alpha_dst_factor);
}

const char *om_factor_name(uint8_t factor)
{
    const factor_row *f = factor_find(factor);
    return f ? f->name : "(unknown blend factor)";
}

uint32_t om_logic_op(uint8_t op, uint32_t s, uint32_t d)
{
    uint32_t b0 = 0u - (op & 1u), b1 = 0u - ((op >> 1) & 1u);
    uint32_t b2 = 0u - ((op >> 2) & 1u), b3 = 0u - ((op >> 3) & 1u);
    return (~s & ~d & b0) | (~s & d & b1) | (s & ~d & b2) | (s & d & b3);
}

static float clampf(float x, float lo, float hi)
{
    return x < lo ? lo : x > hi ? hi : x;   /* NaN passes through */
}

/* Factor F for channel C (0..3). */
static float factor_value(uint8_t f, unsigned c, const float s0[4], const float s1[4],
                          const float d[4], const float k[4])
{
    const factor_row *r = factor_find(f);
    if (!r)
        return 0.0f;
    unsigned ch = r->alpha ? 3 : c;
    float x;
    switch (r->source) {
    case OM_FS_ZERO: x = 0.0f; break;
    case OM_FS_ONE: x = 1.0f; break;
    case OM_FS_SRC0: x = s0[ch]; break;
    case OM_FS_SRC1: x = s1[ch]; break;
    case OM_FS_DST: x = d[ch]; break;
    case OM_FS_CONST: x = k[ch]; break;
    default: /* SRC_ALPHA_SATURATE: min(As, 1 - Ad) for RGB, 1 for alpha */
        x = c == 3 ? 1.0f : fminf(s0[3], 1.0f - d[3]);
        break;
    }
    return r->invert ? 1.0f - x : x;
}

/* A product or sum whose operands are both NaN is A's NaN, quieted (util/nan_order.h):
 * which C operand is first is the compiler's choice, made anew in every loop it vectorises
 * (GCC multiplied s * sf in one order per pixel and in the other in the lane loop:
 * REVERSE_SUBTRACT stored different NaNs on the two paths). One test per product and sum
 * (the blend scene about 3 % slower; testing both operands cost 7 %). Subtractions keep
 * their order. */
static float equation(uint8_t func, float s, float sf, float d, float df)
{
    switch (func) {
    case OM_BLEND_SUBTRACT: return tv_mul_a(s, sf) - tv_mul_a(d, df);
    case OM_BLEND_REVERSE_SUBTRACT: return tv_mul_a(d, df) - tv_mul_a(s, sf);
    case OM_BLEND_MIN: return fminf(s, d);
    case OM_BLEND_MAX: return fmaxf(s, d);
    default: return tv_add_a(tv_mul_a(s, sf), tv_mul_a(d, df));
    }
}

void om_blend_color(const om_rt_blend *rt, om_class cls, const float s0_in[4],
                    const float s1_in[4], const float d_in[4], const float k_in[4], float out[4])
{
    /* fixed-point targets: sources, destination, constant and factors in the range */
    bool fixed = cls == OM_CLASS_UNORM || cls == OM_CLASS_SNORM;
    float lo = cls == OM_CLASS_SNORM ? -1.0f : 0.0f;
    float s0[4], s1[4], d[4], k[4];
    for (unsigned c = 0; c < 4; c++) {
        s0[c] = fixed ? clampf(s0_in[c], lo, 1.0f) : s0_in[c];
        s1[c] = fixed ? clampf(s1_in[c], lo, 1.0f) : s1_in[c];
        d[c] = fixed ? clampf(d_in[c], lo, 1.0f) : d_in[c];
        k[c] = fixed ? clampf(k_in[c], lo, 1.0f) : k_in[c];
    }
    for (unsigned c = 0; c < 4; c++) {
        bool a = c == 3;
        uint8_t func = a ? rt->alpha_func : rt->rgb_func;
        float sf = factor_value(a ? rt->alpha_src_factor : rt->rgb_src_factor, c, s0, s1, d, k);
        float df = factor_value(a ? rt->alpha_dst_factor : rt->rgb_dst_factor, c, s0, s1, d, k);
        if (fixed) {
            sf = clampf(sf, lo, 1.0f);
            df = clampf(df, lo, 1.0f);
        }
        float r = equation(func, s0[c], sf, d[c], df);
        out[c] = fixed ? clampf(r, lo, 1.0f) : r;
    }
}

/* ---- the same across lanes (structure of arrays) ---------------------------------------- */
/* Each step is om_blend_color's on one channel of every lane: the same operations in the
 * same order, so each lane's bits are the scalar path's (in every vector variant:
 * util/wide_vectors.h). S1 is read only when a factor is a SRC1 one. */

static TV_ALWAYS_INLINE void clamp_lanes(float x[OM_LANES], const float in[OM_LANES], float lo)
{
    for (unsigned l = 0; l < OM_LANES; l++)
        x[l] = clampf(in[l], lo, 1.0f);
}

/* Factor F's lanes for channel C: a source row itself when the factor is one (no copy),
 * else computed into BUF; the row returned. */
static TV_ALWAYS_INLINE const float *factor_lanes(uint8_t f, unsigned c, const om_lanes *s0,
                                                  const om_lanes *s1, const om_lanes *d,
                                                  const float k[4], float buf[OM_LANES])
{
    const factor_row *r = factor_find(f);
    if (!r) {
        for (unsigned l = 0; l < OM_LANES; l++)
            buf[l] = 0.0f;
        return buf;
    }
    unsigned ch = r->alpha ? 3 : c;
    const float *from = NULL;
    float x = 0.0f;
    switch (r->source) {
    case OM_FS_ZERO: x = 0.0f; break;
    case OM_FS_ONE: x = 1.0f; break;
    case OM_FS_SRC0: from = s0->c[ch]; break;
    case OM_FS_SRC1: from = s1->c[ch]; break;
    case OM_FS_DST: from = d->c[ch]; break;
    case OM_FS_CONST: x = k[ch]; break;
    default:
        if (c == 3) {
            x = 1.0f;
            break;
        }
        for (unsigned l = 0; l < OM_LANES; l++)
            buf[l] = fminf(s0->c[3][l], 1.0f - d->c[3][l]);
        if (r->invert)
            for (unsigned l = 0; l < OM_LANES; l++)
                buf[l] = 1.0f - buf[l];
        return buf;
    }
    if (from && !r->invert)
        return from;
    if (from)
        for (unsigned l = 0; l < OM_LANES; l++)
            buf[l] = 1.0f - from[l];
    else
        for (unsigned l = 0; l < OM_LANES; l++)
            buf[l] = r->invert ? 1.0f - x : x;
    return buf;
}

static TV_ALWAYS_INLINE void equation_lanes(uint8_t func, const float s[OM_LANES], const float sf[OM_LANES],
                           const float d[OM_LANES], const float df[OM_LANES],
                           float out[OM_LANES])
{
    unsigned l;
    switch (func) {
    case OM_BLEND_SUBTRACT:
        for (l = 0; l < OM_LANES; l++)
            out[l] = tv_mul_a(s[l], sf[l]) - tv_mul_a(d[l], df[l]);
        break;
    case OM_BLEND_REVERSE_SUBTRACT:
        for (l = 0; l < OM_LANES; l++)
            out[l] = tv_mul_a(d[l], df[l]) - tv_mul_a(s[l], sf[l]);
        break;
    case OM_BLEND_MIN:
        for (l = 0; l < OM_LANES; l++)
            out[l] = fminf(s[l], d[l]);
        break;
    case OM_BLEND_MAX:
        for (l = 0; l < OM_LANES; l++)
            out[l] = fmaxf(s[l], d[l]);
        break;
    default:
        for (l = 0; l < OM_LANES; l++)
            out[l] = tv_add_a(tv_mul_a(s[l], sf[l]), tv_mul_a(d[l], df[l]));
        break;
    }
}

TV_WIDE_VECTORS void om_blend_lanes(const om_rt_blend *rt, om_class cls, const om_lanes *s0_in,
                    const om_lanes *s1_in, const om_lanes *d_in, const float k_in[4],
                    om_lanes *out)
{
    bool fixed = cls == OM_CLASS_UNORM || cls == OM_CLASS_SNORM;
    float lo = cls == OM_CLASS_SNORM ? -1.0f : 0.0f;
    om_lanes s0c, s1c, dc;
    float k[4];
    const om_lanes *s0 = s0_in, *s1 = s1_in, *d = d_in;
    for (unsigned c = 0; c < 4; c++)
        k[c] = fixed ? clampf(k_in[c], lo, 1.0f) : k_in[c];
    /* the second source is read only by SRC1 factors */
    bool src1 = om_blend_uses_src1(rt);
    if (fixed) {
        for (unsigned c = 0; c < 4; c++) {
            clamp_lanes(s0c.c[c], s0_in->c[c], lo);
            if (src1)
                clamp_lanes(s1c.c[c], s1_in->c[c], lo);
            clamp_lanes(dc.c[c], d_in->c[c], lo);
        }
        s0 = &s0c;
        s1 = &s1c;
        d = &dc;
    }
    /* the RGB channels' factors, computed once when they take the alpha channel (the same
       row for all three) */
    float sbuf[OM_LANES], dbuf[OM_LANES];
    const float *sf = NULL, *df = NULL;
    const factor_row *rs = factor_find(rt->rgb_src_factor), *rd = factor_find(rt->rgb_dst_factor);
    const bool s_shared = !fixed && rs && rs->alpha && rs->source != OM_FS_SATURATE;
    const bool d_shared = !fixed && rd && rd->alpha && rd->source != OM_FS_SATURATE;
    for (unsigned c = 0; c < 4; c++) {
        bool a = c == 3;
        float sc[OM_LANES], dcb[OM_LANES];
        if (a || !s_shared || c == 0)
            sf = factor_lanes(a ? rt->alpha_src_factor : rt->rgb_src_factor, c, s0, s1, d, k,
                              a || !s_shared ? sc : sbuf);
        if (a || !d_shared || c == 0)
            df = factor_lanes(a ? rt->alpha_dst_factor : rt->rgb_dst_factor, c, s0, s1, d, k,
                              a || !d_shared ? dcb : dbuf);
        if (fixed) {
            /* (the clamp of a factor that is a source row is of a copy) */
            clamp_lanes(sc, sf, lo);
            clamp_lanes(dcb, df, lo);
            sf = sc;
            df = dcb;
        }
        equation_lanes(a ? rt->alpha_func : rt->rgb_func, s0->c[c], sf, d->c[c], df,
                       out->c[c]);
        if (fixed)
            clamp_lanes(out->c[c], out->c[c], lo);
    }
}
