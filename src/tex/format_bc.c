/* BC1-BC5 (S3TC / RGTC) block decoding, from the block definitions (D3D11 functional
 * spec §19.5, Khronos Data Format spec "S3TC" and "RGTC"): every value is the exact
 * rational result of the formula, rounded once to float. */
#include "tex/format.h"

static inline uint16_t rd16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static inline uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

void tex_bc1_texel(const uint8_t *blk, unsigned x, unsigned y, bool four_colour_only,
                   double rgba[4])
{
    uint16_t c0 = rd16(blk), c1 = rd16(blk + 2);
    unsigned idx = (rd32(blk + 4) >> (2 * (4 * (y & 3) + (x & 3)))) & 3;
    int e0[3] = {c0 >> 11, (c0 >> 5) & 63, c0 & 31};
    int e1[3] = {c1 >> 11, (c1 >> 5) & 63, c1 & 31};
    static const int maxv[3] = {31, 63, 31};
    int w0, w1, div;               /* value = (w0*e0 + w1*e1) / (div * max) */
    rgba[3] = 1.0;
    if (four_colour_only || c0 > c1) {
        static const int tw0[4] = {1, 0, 2, 1}, tw1[4] = {0, 1, 1, 2}, td[4] = {1, 1, 3, 3};
        w0 = tw0[idx]; w1 = tw1[idx]; div = td[idx];
    } else {
        if (idx == 3) {
            rgba[0] = rgba[1] = rgba[2] = 0.0;
            rgba[3] = 0.0;
            return;
        }
        static const int tw0[3] = {1, 0, 1}, tw1[3] = {0, 1, 1}, td[3] = {1, 1, 2};
        w0 = tw0[idx]; w1 = tw1[idx]; div = td[idx];
    }
    for (int c = 0; c < 3; c++)
        rgba[c] = (double)(w0 * e0[c] + w1 * e1[c]) / (double)(div * maxv[c]);
}

float tex_bc2_alpha(const uint8_t *blk, unsigned x, unsigned y)
{
    unsigned i = 4 * (y & 3) + (x & 3);
    unsigned a = (blk[i / 2] >> (4 * (i & 1))) & 15;
    return (float)a / 15.0f;
}

float tex_bc4_value(const uint8_t *blk, unsigned x, unsigned y, bool is_signed)
{
    unsigned i = 4 * (y & 3) + (x & 3);
    uint64_t bits = 0;
    for (int k = 0; k < 6; k++)
        bits |= (uint64_t)blk[2 + k] << (8 * k);
    unsigned idx = (unsigned)(bits >> (3 * i)) & 7;
    int a0, a1, maxv;
    if (is_signed) {
        a0 = (int8_t)blk[0];
        a1 = (int8_t)blk[1];
        if (a0 == -128) a0 = -127;
        if (a1 == -128) a1 = -127;
        maxv = 127;
    } else {
        a0 = blk[0];
        a1 = blk[1];
        maxv = 255;
    }
    int num, div;
    if (idx == 0) { num = a0; div = 1; }
    else if (idx == 1) { num = a1; div = 1; }
    else if (a0 > a1) { num = (8 - (int)idx) * a0 + ((int)idx - 1) * a1; div = 7; }
    else if (idx <= 5) { num = (6 - (int)idx) * a0 + ((int)idx - 1) * a1; div = 5; }
    else if (idx == 6) { num = is_signed ? -maxv : 0; div = 1; }
    else { num = maxv; div = 1; }
    return (float)((double)num / (double)(div * maxv));
}
