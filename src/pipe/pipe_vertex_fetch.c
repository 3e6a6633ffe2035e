/* Vertex formats from their names, and the fetch of one element (pipe_vertex_fetch.h). */
#include "pipe_vertex_fetch.h"

#include "texvm/pipe.h"
#include "util/half.h"

#include <string.h>

static const char *const type_names[] = {"UNORM", "SNORM", "USCALED", "SSCALED",
                                         "UINT",  "SINT",  "FLOAT",   "FIXED"};

bool vf_format_get(uint32_t format, vf_format *out)
{
    const char *name = tv_pipe_format_name(format);
    memset(out, 0, sizeof *out);
    out->tex = TV_FORMAT_NONE;
    if (!name)
        return false;
    const char *us = strchr(name, '_');
    if (!us)
        return false;
    int type = -1;
    for (int t = 0; t < (int)(sizeof type_names / sizeof type_names[0]); t++)
        if (!strcmp(us + 1, type_names[t]))
            type = t;
    if (type < 0)
        return false;            /* SRGB, depth/stencil and mixed types are not vertex data */
    unsigned total = 0;
    for (const char *p = name; p < us;) {
        int dest;
        switch (*p) {
        case 'R': dest = 0; break;
        case 'G': dest = 1; break;
        case 'B': dest = 2; break;
        case 'A': dest = 3; break;
        case 'X': dest = -1; break;
        default: return false;   /* L, I, Z, S, E: not vertex formats */
        }
        p++;
        unsigned bits = 0;
        while (p < us && *p >= '0' && *p <= '9')
            bits = bits * 10 + (unsigned)(*p++ - '0');
        if (!bits || bits > 64 || out->nchan == 4)
            return false;
        out->dest[out->nchan] = (int8_t)dest;
        out->bits[out->nchan++] = (uint8_t)bits;
        total += bits;
    }
    if (total % 8 || total > 256)
        return false;
    out->type = (uint8_t)type;
    out->bytes = (uint8_t)(total / 8);
    out->words = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ &&
                 (type == VF_FLOAT || type == VF_UINT || type == VF_SINT);
    for (unsigned i = 0; i < out->nchan; i++)
        out->words = out->words && out->bits[i] == 32 && out->dest[i] == (int8_t)i;
    if (type == VF_FLOAT)
        for (unsigned i = 0; i < out->nchan; i++)
            if (out->bits[i] != 16 && out->bits[i] != 32 && out->bits[i] != 64) {
                /* small floats (R11G11B10): the texture unit's decoder */
                out->tex = tv_format_from_name(name);
                return out->tex != TV_FORMAT_NONE;
            }
    return true;
}

bool vf_is_integer(const vf_format *f)
{
    return f->type == VF_UINT || f->type == VF_SINT;
}


/* Bits [off, off + n) of SRC as a little-endian bit string (n <= 64). */
static uint64_t field(const uint8_t *src, unsigned off, unsigned n)
{
    uint64_t v = 0;
    if (off % 8 == 0 && n % 8 == 0) {
        /* whole bytes, little-endian: what the bit loop below reads, a byte at a time */
        for (unsigned i = 0; i < n / 8; i++)
            v |= (uint64_t)src[off / 8 + i] << (8 * i);
        return v;
    }
    for (unsigned i = 0; i < n; i++) {
        unsigned b = off + i;
        v |= (uint64_t)((src[b / 8] >> (b % 8)) & 1u) << i;
    }
    return v;
}

static uint32_t convert(uint8_t type, unsigned bits, uint64_t v)
{
    int64_t s = bits == 64 ? (int64_t)v
                           : (int64_t)(v << (64 - bits)) >> (64 - bits); /* sign-extended */
    switch (type) {
    case VF_UNORM: return tv_f32_bits((float)((double)v / (double)((1ull << bits) - 1)));
    case VF_SNORM: {
        double d = (double)s / (double)((1ull << (bits - 1)) - 1);
        return tv_f32_bits((float)(d < -1.0 ? -1.0 : d));   /* the most negative value is -1 */
    }
    case VF_USCALED: return tv_f32_bits((float)v);
    case VF_SSCALED: return tv_f32_bits((float)s);
    case VF_UINT: return (uint32_t)v;
    case VF_SINT: return (uint32_t)s;
    case VF_FIXED: return tv_f32_bits((float)((double)s / 65536.0));     /* 16.16 */
    default: break;
    }
    /* FLOAT */
    if (bits == 16)
        return tv_f32_bits(tv_half_to_float((uint16_t)v));
    if (bits == 32)
        return (uint32_t)v;
    return tv_f32_bits((float)tv_bits_f64(v));
}

void vf_fetch(const vf_format *f, const uint8_t *src, uint32_t out[4])
{
    bool integer = vf_is_integer(f);
    out[0] = out[1] = out[2] = 0;
    out[3] = integer ? 1u : tv_f32_bits(1.0f);
    if (f->tex != TV_FORMAT_NONE) {
        tv_format_unpack(f->tex, src, 0, 0, out);
        return;
    }
    if (f->words) {
        /* convert() gives 32-bit FLOAT, UINT and SINT channels their own words (four: a
           fixed-size copy, not a library call) */
        if (f->nchan == 4)
            memcpy(out, src, 16);
        else
            memcpy(out, src, 4u * f->nchan);
        return;
    }
    unsigned off = 0;
    for (unsigned i = 0; i < f->nchan; i++) {
        if (f->dest[i] >= 0)
            out[f->dest[i]] = convert(f->type, f->bits[i], field(src, off, f->bits[i]));
        off += f->bits[i];
    }
}
