/* BC7 (BPTC UNORM) block decoding per the BC7 specification (D3D11 functional spec
 * §19.5.5 / Khronos Data Format spec "BPTC"): 8 modes, 1-3 subsets, p-bits, rotation,
 * index selection, 6-bit interpolation weights. The reserved mode (byte 0 = 0) decodes
 * to (0, 0, 0, 0). */
#include "tex/format.h"

typedef struct bc7_mode {
    uint8_t ns, pb, rb, isb, cb, ab, epb, spb, ib, ib2;
} bc7_mode;

static const bc7_mode modes[8] = {
    /* ns pb rb isb cb ab epb spb ib ib2 */
    {3, 4, 0, 0, 4, 0, 1, 0, 3, 0},
    {2, 6, 0, 0, 6, 0, 0, 1, 3, 0},
    {3, 6, 0, 0, 5, 0, 0, 0, 2, 0},
    {2, 6, 0, 0, 7, 0, 1, 0, 2, 0},
    {1, 0, 2, 1, 5, 6, 0, 0, 2, 3},
    {1, 0, 2, 0, 7, 8, 0, 0, 2, 2},
    {1, 0, 0, 0, 7, 7, 1, 0, 4, 0},
    {2, 6, 0, 0, 5, 5, 1, 0, 2, 0},
};

static uint8_t expand(uint32_t v, unsigned bits)
{
    v <<= 8 - bits;
    return (uint8_t)(v | (v >> bits));
}

static const uint8_t *weights(unsigned bits)
{
    return bits == 2 ? tex_bptc_weights2 : bits == 3 ? tex_bptc_weights3 : tex_bptc_weights4;
}

static uint8_t interp(uint8_t e0, uint8_t e1, unsigned w)
{
    return (uint8_t)(((64 - w) * e0 + w * e1 + 32) >> 6);
}

void tex_bc7_texel(const uint8_t *blk, unsigned x, unsigned y, uint8_t rgba[4])
{
    unsigned m = 0;
    while (m < 8 && !((blk[0] >> m) & 1))
        m++;
    rgba[0] = rgba[1] = rgba[2] = rgba[3] = 0;
    if (m == 8)
        return;
    const bc7_mode *md = &modes[m];
    unsigned pos = m + 1;
    unsigned part = tex_bptc_bits(blk, pos, md->pb);
    pos += md->pb;
    unsigned rot = tex_bptc_bits(blk, pos, md->rb);
    pos += md->rb;
    unsigned isel = tex_bptc_bits(blk, pos, md->isb);
    pos += md->isb;

    /* endpoints: [subset*2 + end][channel] */
    uint32_t ep[6][4] = {{0}};
    unsigned ne = md->ns * 2u;
    for (unsigned c = 0; c < 3; c++)
        for (unsigned e = 0; e < ne; e++, pos += md->cb)
            ep[e][c] = tex_bptc_bits(blk, pos, md->cb);
    for (unsigned e = 0; e < ne && md->ab; e++, pos += md->ab)
        ep[e][3] = tex_bptc_bits(blk, pos, md->ab);
    unsigned cbits = md->cb, abits = md->ab;
    if (md->epb || md->spb) {
        for (unsigned e = 0; e < ne; e++) {
            unsigned p;
            if (md->epb)
                p = tex_bptc_bits(blk, pos + e, 1);
            else
                p = tex_bptc_bits(blk, pos + e / 2, 1);
            for (unsigned c = 0; c < 4; c++)
                ep[e][c] = ep[e][c] << 1 | p;
        }
        pos += md->epb ? ne : md->ns;
        cbits++;
        if (abits)
            abits++;
    }
    uint8_t e8[6][4];
    for (unsigned e = 0; e < ne; e++) {
        for (unsigned c = 0; c < 3; c++)
            e8[e][c] = expand(ep[e][c], cbits);
        e8[e][3] = abits ? expand(ep[e][3], abits) : 255;
    }

    unsigned t = 4 * (y & 3) + (x & 3);
    unsigned subset = 0;
    uint8_t anchors[3] = {0, 0, 0};
    if (md->ns == 2) {
        subset = (tex_bptc_part2[part] >> (2 * t)) & 3;
        anchors[1] = tex_bptc_anchor2[part];
    } else if (md->ns == 3) {
        subset = (tex_bptc_part3[part] >> (2 * t)) & 3;
        anchors[1] = tex_bptc_anchor3[part][0];
        anchors[2] = tex_bptc_anchor3[part][1];
    }
    /* primary index stream, then the secondary one (modes 4, 5: anchor texel 0 only) */
    unsigned idx1 = tex_bptc_index(blk, pos, md->ib, t, anchors, md->ns);
    unsigned pos2 = pos + 16u * md->ib - md->ns;
    const uint8_t *e0 = e8[2 * subset], *e1 = e8[2 * subset + 1];
    if (!md->ib2) {
        unsigned w = weights(md->ib)[idx1];
        for (unsigned c = 0; c < 4; c++)
            rgba[c] = interp(e0[c], e1[c], w);
    } else {
        unsigned idx2 = tex_bptc_index(blk, pos2, md->ib2, t, anchors, 1);
        unsigned cw, aw;
        if (isel) {
            cw = weights(md->ib2)[idx2];
            aw = weights(md->ib)[idx1];
        } else {
            cw = weights(md->ib)[idx1];
            aw = weights(md->ib2)[idx2];
        }
        for (unsigned c = 0; c < 3; c++)
            rgba[c] = interp(e0[c], e1[c], cw);
        rgba[3] = interp(e0[3], e1[3], aw);
    }
    if (rot) {
        uint8_t tmp = rgba[3];
        rgba[3] = rgba[rot - 1];
        rgba[rot - 1] = tmp;
    }
}
