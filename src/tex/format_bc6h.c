/* BC6H (BPTC float) block decoding per the BC6H specification (D3D11 functional spec
 * §19.5.4 / Khronos Data Format spec "BPTC"): 14 modes, 1 or 2 regions, delta-coded
 * ("transformed") endpoints, unquantisation to 16 bits, 6-bit interpolation weights and
 * the final scale to half-float bits. Reserved modes decode to (0, 0, 0). */
#include "tex/format.h"
#include "util/half.h"

enum { R0, G0, B0, R1, G1, B1, R2, G2, B2, R3, G3, B3, D };

/* A run of header bits: field bits from `first` to `last` in stream order. */
typedef struct seg { uint8_t field, first, last; } seg;

typedef struct bc6_mode {
    uint8_t value, mode_bits, regions, transformed, ep, dr, dg, db;
    seg segs[24];
} bc6_mode;

#define S(f, a, b) {f, a, b}
/* The mode tables (bit layouts as the specification lists them, LSB of each run first;
 * runs written S(field, hi, lo) in the spec's reversed [lo:hi] notation go hi first). */
static const bc6_mode modes[14] = {
    {0x00, 2, 2, 1, 10, 5, 5, 5,
     {S(G2, 4, 4), S(B2, 4, 4), S(B3, 4, 4), S(R0, 0, 9), S(G0, 0, 9), S(B0, 0, 9),
      S(R1, 0, 4), S(G3, 4, 4), S(G2, 0, 3), S(G1, 0, 4), S(B3, 0, 0), S(G3, 0, 3),
      S(B1, 0, 4), S(B3, 1, 1), S(B2, 0, 3), S(R2, 0, 4), S(B3, 2, 2), S(R3, 0, 4),
      S(B3, 3, 3), S(D, 0, 4)}},
    {0x01, 2, 2, 1, 7, 6, 6, 6,
     {S(G2, 5, 5), S(G3, 4, 4), S(G3, 5, 5), S(R0, 0, 6), S(B3, 0, 0), S(B3, 1, 1),
      S(B2, 4, 4), S(G0, 0, 6), S(B2, 5, 5), S(B3, 2, 2), S(G2, 4, 4), S(B0, 0, 6),
      S(B3, 3, 3), S(B3, 5, 5), S(B3, 4, 4), S(R1, 0, 5), S(G2, 0, 3), S(G1, 0, 5),
      S(G3, 0, 3), S(B1, 0, 5), S(B2, 0, 3), S(R2, 0, 5), S(R3, 0, 5), S(D, 0, 4)}},
    {0x02, 5, 2, 1, 11, 5, 4, 4,
     {S(R0, 0, 9), S(G0, 0, 9), S(B0, 0, 9), S(R1, 0, 4), S(R0, 10, 10), S(G2, 0, 3),
      S(G1, 0, 3), S(G0, 10, 10), S(B3, 0, 0), S(G3, 0, 3), S(B1, 0, 3), S(B0, 10, 10),
      S(B3, 1, 1), S(B2, 0, 3), S(R2, 0, 4), S(B3, 2, 2), S(R3, 0, 4), S(B3, 3, 3),
      S(D, 0, 4)}},
    {0x06, 5, 2, 1, 11, 4, 5, 4,
     {S(R0, 0, 9), S(G0, 0, 9), S(B0, 0, 9), S(R1, 0, 3), S(R0, 10, 10), S(G3, 4, 4),
      S(G2, 0, 3), S(G1, 0, 4), S(G0, 10, 10), S(G3, 0, 3), S(B1, 0, 3), S(B0, 10, 10),
      S(B3, 1, 1), S(B2, 0, 3), S(R2, 0, 3), S(B3, 0, 0), S(B3, 2, 2), S(R3, 0, 3),
      S(G2, 4, 4), S(B3, 3, 3), S(D, 0, 4)}},
    {0x0a, 5, 2, 1, 11, 4, 4, 5,
     {S(R0, 0, 9), S(G0, 0, 9), S(B0, 0, 9), S(R1, 0, 3), S(R0, 10, 10), S(B2, 4, 4),
      S(G2, 0, 3), S(G1, 0, 3), S(G0, 10, 10), S(B3, 0, 0), S(G3, 0, 3), S(B1, 0, 4),
      S(B0, 10, 10), S(B2, 0, 3), S(R2, 0, 3), S(B3, 1, 1), S(B3, 2, 2), S(R3, 0, 3),
      S(B3, 4, 4), S(B3, 3, 3), S(D, 0, 4)}},
    {0x0e, 5, 2, 1, 9, 5, 5, 5,
     {S(R0, 0, 8), S(B2, 4, 4), S(G0, 0, 8), S(G2, 4, 4), S(B0, 0, 8), S(B3, 4, 4),
      S(R1, 0, 4), S(G3, 4, 4), S(G2, 0, 3), S(G1, 0, 4), S(B3, 0, 0), S(G3, 0, 3),
      S(B1, 0, 4), S(B3, 1, 1), S(B2, 0, 3), S(R2, 0, 4), S(B3, 2, 2), S(R3, 0, 4),
      S(B3, 3, 3), S(D, 0, 4)}},
    {0x12, 5, 2, 1, 8, 6, 5, 5,
     {S(R0, 0, 7), S(G3, 4, 4), S(B2, 4, 4), S(G0, 0, 7), S(B3, 2, 2), S(G2, 4, 4),
      S(B0, 0, 7), S(B3, 3, 3), S(B3, 4, 4), S(R1, 0, 5), S(G2, 0, 3), S(G1, 0, 4),
      S(B3, 0, 0), S(G3, 0, 3), S(B1, 0, 4), S(B3, 1, 1), S(B2, 0, 3), S(R2, 0, 5),
      S(R3, 0, 5), S(D, 0, 4)}},
    {0x16, 5, 2, 1, 8, 5, 6, 5,
     {S(R0, 0, 7), S(B3, 0, 0), S(B2, 4, 4), S(G0, 0, 7), S(G2, 5, 5), S(G2, 4, 4),
      S(B0, 0, 7), S(G3, 5, 5), S(B3, 4, 4), S(R1, 0, 4), S(G3, 4, 4), S(G2, 0, 3),
      S(G1, 0, 5), S(G3, 0, 3), S(B1, 0, 4), S(B3, 1, 1), S(B2, 0, 3), S(R2, 0, 4),
      S(B3, 2, 2), S(R3, 0, 4), S(B3, 3, 3), S(D, 0, 4)}},
    {0x1a, 5, 2, 1, 8, 5, 5, 6,
     {S(R0, 0, 7), S(B3, 1, 1), S(B2, 4, 4), S(G0, 0, 7), S(B2, 5, 5), S(G2, 4, 4),
      S(B0, 0, 7), S(B3, 5, 5), S(B3, 4, 4), S(R1, 0, 4), S(G3, 4, 4), S(G2, 0, 3),
      S(G1, 0, 4), S(B3, 0, 0), S(G3, 0, 3), S(B1, 0, 5), S(B2, 0, 3), S(R2, 0, 4),
      S(B3, 2, 2), S(R3, 0, 4), S(B3, 3, 3), S(D, 0, 4)}},
    {0x1e, 5, 2, 0, 6, 6, 6, 6,
     {S(R0, 0, 5), S(G3, 4, 4), S(B3, 0, 0), S(B3, 1, 1), S(B2, 4, 4), S(G0, 0, 5),
      S(G2, 5, 5), S(B2, 5, 5), S(B3, 2, 2), S(G2, 4, 4), S(B0, 0, 5), S(G3, 5, 5),
      S(B3, 3, 3), S(B3, 5, 5), S(B3, 4, 4), S(R1, 0, 5), S(G2, 0, 3), S(G1, 0, 5),
      S(G3, 0, 3), S(B1, 0, 5), S(B2, 0, 3), S(R2, 0, 5), S(R3, 0, 5), S(D, 0, 4)}},
    {0x03, 5, 1, 0, 10, 10, 10, 10,
     {S(R0, 0, 9), S(G0, 0, 9), S(B0, 0, 9), S(R1, 0, 9), S(G1, 0, 9), S(B1, 0, 9)}},
    {0x07, 5, 1, 1, 11, 9, 9, 9,
     {S(R0, 0, 9), S(G0, 0, 9), S(B0, 0, 9), S(R1, 0, 8), S(R0, 10, 10), S(G1, 0, 8),
      S(G0, 10, 10), S(B1, 0, 8), S(B0, 10, 10)}},
    {0x0b, 5, 1, 1, 12, 8, 8, 8,
     {S(R0, 0, 9), S(G0, 0, 9), S(B0, 0, 9), S(R1, 0, 7), S(R0, 11, 10), S(G1, 0, 7),
      S(G0, 11, 10), S(B1, 0, 7), S(B0, 11, 10)}},
    {0x0f, 5, 1, 1, 16, 4, 4, 4,
     {S(R0, 0, 9), S(G0, 0, 9), S(B0, 0, 9), S(R1, 0, 3), S(R0, 15, 10), S(G1, 0, 3),
      S(G0, 15, 10), S(B1, 0, 3), S(B0, 15, 10)}},
};

static int32_t sext(uint32_t v, unsigned bits)
{
    if (bits >= 32)
        return (int32_t)v;
    uint32_t m = 1u << (bits - 1);
    return (int32_t)((v & ((1u << bits) - 1)) ^ m) - (int32_t)m;
}

static int32_t unquantize(int32_t v, unsigned bits, bool is_signed)
{
    if (!is_signed) {
        if (bits >= 15)
            return v;
        if (v == 0)
            return 0;
        if (v == (int32_t)((1u << bits) - 1))
            return 0xffff;
        return (int32_t)((((uint32_t)v << 16) + 0x8000u) >> bits);
    }
    if (bits >= 16)
        return v;
    bool neg = v < 0;
    int32_t a = neg ? -v : v, r;
    if (a == 0)
        r = 0;
    else if (a >= (int32_t)((1u << (bits - 1)) - 1))
        r = 0x7fff;
    else
        r = (int32_t)((((uint32_t)a << 15) + 0x4000u) >> (bits - 1));
    return neg ? -r : r;
}

static uint16_t finish(int32_t v, bool is_signed)
{
    if (!is_signed)
        return (uint16_t)((v * 31) >> 6);
    if (v < 0)
        return (uint16_t)(0x8000 | (((-v) * 31) >> 5));
    return (uint16_t)((v * 31) >> 5);
}

void tex_bc6h_texel(const uint8_t *blk, unsigned x, unsigned y, bool is_signed, float rgb[3])
{
    rgb[0] = rgb[1] = rgb[2] = 0.0f;
    unsigned mv = tex_bptc_bits(blk, 0, 2);
    if (mv >= 2)
        mv = tex_bptc_bits(blk, 0, 5);
    const bc6_mode *md = NULL;
    for (unsigned i = 0; i < 14; i++)
        if (modes[i].value == mv && (modes[i].mode_bits == 2) == (mv < 2))
            md = &modes[i];
    if (!md)
        return;                                   /* reserved mode */

    uint32_t f[13] = {0};
    unsigned pos = md->mode_bits;
    for (unsigned s = 0; s < 24; s++) {
        const seg *sg = &md->segs[s];
        if (s > 0 && sg->field == 0 && sg->first == 0 && sg->last == 0)
            break;                                /* end of the list */
        int step = sg->last >= sg->first ? 1 : -1;
        for (int b = sg->first;; b += step) {
            f[sg->field] |= tex_bptc_bits(blk, pos++, 1) << b;
            if (b == sg->last)
                break;
        }
    }
    /* endpoints [region*2 + end][channel], in ep bits (signed as needed) */
    int32_t e[4][3];
    unsigned nend = md->regions * 2u;
    const unsigned dbits[3] = {md->dr, md->dg, md->db};
    for (unsigned k = 0; k < nend; k++)
        for (unsigned c = 0; c < 3; c++) {
            uint32_t raw = f[3 * k + c];
            if (k == 0) {
                e[k][c] = is_signed ? sext(raw, md->ep) : (int32_t)raw;
            } else if (md->transformed) {
                int32_t d = sext(raw, dbits[c]);
                uint32_t sum = ((uint32_t)e[0][c] + (uint32_t)d) & ((1u << md->ep) - 1);
                e[k][c] = is_signed ? sext(sum, md->ep) : (int32_t)sum;
            } else {
                e[k][c] = is_signed ? sext(raw, md->ep) : (int32_t)raw;
            }
        }
    for (unsigned k = 0; k < nend; k++)
        for (unsigned c = 0; c < 3; c++)
            e[k][c] = unquantize(e[k][c], md->ep, is_signed);

    unsigned t = 4 * (y & 3) + (x & 3);
    unsigned region = 0, w;
    if (md->regions == 2) {
        unsigned part = f[D] & 31;
        region = (tex_bptc_part2[part] >> (2 * t)) & 3;
        uint8_t anchors[2] = {0, tex_bptc_anchor2[part]};
        w = tex_bptc_weights3[tex_bptc_index(blk, 82, 3, t, anchors, 2)];
    } else {
        uint8_t anchors[1] = {0};
        w = tex_bptc_weights4[tex_bptc_index(blk, 65, 4, t, anchors, 1)];
    }
    for (unsigned c = 0; c < 3; c++) {
        int32_t a = e[2 * region][c], b = e[2 * region + 1][c];
        int32_t v = (a * (int32_t)(64 - w) + b * (int32_t)w + 32) >> 6;
        rgb[c] = tv_half_to_float(finish(v, is_signed));
    }
}
