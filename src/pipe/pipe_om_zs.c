/* Depth and stencil targets and tests (GL 4.6 §17.3.3 stencil test, §17.3.4 depth buffer
 * test): fragment depths quantized by the format table's encoder, compared in the stored
 * representation, stencil ops with their write mask. */
#include "pipe_om.h"
#include "util/half.h"

#include <math.h>
#include <string.h>

static uint64_t pack64(tv_format f, uint32_t depth_bits, uint32_t stencil)
{
    uint32_t in[4] = {depth_bits, stencil, 0, 0};
    uint8_t texel[16] = {0};
    uint64_t v = 0;
    tv_format_pack(f, in, texel);
    memcpy(&v, texel, 8);
    return v;
}

/* Depth Z through the format encoder: the stored field. */
static uint32_t encode_depth(const om_zs_target *t, float z)
{
    return (uint32_t)((pack64(t->format, tv_f32_bits(z), 0) & t->depth_mask) >> t->depth_shift);
}

static uint8_t lowest_bit(uint64_t m)
{
    uint8_t s = 0;
    while (m && !(m & 1u)) {
        m >>= 1;
        s++;
    }
    return s;
}

static uint8_t count_bits(uint64_t m)
{
    uint8_t n = 0;
    for (; m; m &= m - 1)
        n++;
    return n;
}

bool om_zs_target_init(om_zs_target *t, tv_format f)
{
    memset(t, 0, sizeof *t);
    const tv_format_info *fi = tv_format_get(f);
    if (!fi || fi->kind != TV_FMT_KIND_DEPTH || fi->block_bytes > 8)
        return false;
    t->format = f;
    t->bytes = fi->block_bytes;
    t->depth_float = fi->data_type[0] == TV_TIC_TYPE_FLOAT;
    /* the bits of each field: encode extremes into one field alone (as the colour probe) */
    uint64_t zero = pack64(f, 0, 0);
    t->depth_mask = (pack64(f, tv_f32_bits(1.0f), 0) ^ zero) |
                    (pack64(f, tv_f32_bits(-2.0f), 0) ^ zero) | (pack64(f, 0xffffffffu, 0) ^ zero);
    t->stencil_mask = pack64(f, 0, 0xffu) ^ zero;
    t->depth_shift = lowest_bit(t->depth_mask);
    t->stencil_shift = lowest_bit(t->stencil_mask);
    t->depth_bits = count_bits(t->depth_mask);
    t->stencil_bits = count_bits(t->stencil_mask);
    bool ok = t->depth_bits == 16 || t->depth_bits == 24 || (t->depth_float && t->depth_bits == 32);
    if (ok && !t->depth_float) {
        /* the formula of the encoder's UNORM fields, used per fragment once it gives the
           encoder's answer on values that round either way, ties and the ends */
        static const float probe[] = {0.0f, 1.0f, 0.5f, 0.25f, 0.1f, 0.9f, 1e-7f,
                                      0.99999994f, 0.33333334f, 0.6666667f, 3e-8f, 0.75f};
        t->unorm_max = (double)((1u << t->depth_bits) - 1u);
        t->unorm_direct = true;
        for (unsigned i = 0; i < sizeof probe / sizeof *probe; i++)
            t->unorm_direct = t->unorm_direct &&
                              om_depth_quantize(t, probe[i]) == encode_depth(t, probe[i]);
    }
    return ok;
}

uint32_t om_depth_quantize(const om_zs_target *t, float z)
{
    if (t->depth_float)
        return tv_f32_bits(z);
    if (!t->unorm_direct)
        return encode_depth(t, z);
    double x = isnan(z) ? 0.0 : z;   /* the encoder's UNORM field (tex/format_encode.c) */
    x = x < 0.0 ? 0.0 : x > 1.0 ? 1.0 : x;
    return (uint32_t)nearbyint(x * t->unorm_max);
}

uint8_t om_stencil_op(uint8_t op, uint8_t s, uint8_t ref)
{
    switch (op) {
    case OM_STENCIL_ZERO: return 0;
    case OM_STENCIL_REPLACE: return ref;
    case OM_STENCIL_INCR: return s == 0xff ? s : (uint8_t)(s + 1);
    case OM_STENCIL_DECR: return s == 0 ? s : (uint8_t)(s - 1);
    case OM_STENCIL_INCR_WRAP: return (uint8_t)(s + 1);
    case OM_STENCIL_DECR_WRAP: return (uint8_t)(s - 1);
    case OM_STENCIL_INVERT: return (uint8_t)~s;
    default: return s;   /* KEEP */
    }
}

/* Apply stencil op OP of face ST to the stored value in V. */
static void stencil_update(const om_zs_target *t, const om_stencil *st, uint8_t op, uint8_t ref,
                           uint64_t *v)
{
    uint8_t stored = (uint8_t)((*v & t->stencil_mask) >> t->stencil_shift);
    uint8_t r = om_stencil_op(op, stored, ref);
    uint8_t w = (uint8_t)((stored & ~st->writemask) | (r & st->writemask));
    *v = (*v & ~t->stencil_mask) | (((uint64_t)w << t->stencil_shift) & t->stencil_mask);
}

bool om_depth_stencil(const om_dsa *s, const om_zs_target *t, bool front, uint8_t ref,
                      uint32_t zfrag, void *texel)
{
    uint64_t v = 0;
    memcpy(&v, texel, t->bytes);
    /* the back face has its own state only when it is enabled (Gallium: two-sided) */
    const om_stencil *st = !front && s->stencil[1].enabled ? &s->stencil[1] : &s->stencil[0];
    bool stencil = st->enabled && t->stencil_bits;
    bool pass = true;
    if (stencil) {
        uint8_t stored = (uint8_t)((v & t->stencil_mask) >> t->stencil_shift);
        if (!om_compare_u(st->func, ref & st->valuemask, stored & st->valuemask)) {
            stencil_update(t, st, st->fail_op, ref, &v);
            pass = false;
        }
    }
    if (pass && s->depth_enabled && t->depth_bits) {
        uint32_t stored = (uint32_t)((v & t->depth_mask) >> t->depth_shift);
        if (!om_depth_compare(s, t, zfrag, stored)) {
            if (stencil)
                stencil_update(t, st, st->zfail_op, ref, &v);
            pass = false;
        } else if (s->depth_writemask) {
            v = (v & ~t->depth_mask) | (((uint64_t)zfrag << t->depth_shift) & t->depth_mask);
        }
    }
    if (pass && stencil)
        stencil_update(t, st, st->zpass_op, ref, &v);
    memcpy(texel, &v, t->bytes);
    return pass;
}
