/* Results: fixed-point conversions (TMML, TXQ sample positions), FP16 packing and the
 * write-back through the write mask, with the Rd/Rd2 split of the scalar forms.
 * Every fixed-point conversion rounds to nearest, ties to even, then saturates. */
#include "sass/sass_internal.h"
#include "util/half.h"

#include <math.h>

/* round(x * scale) to nearest even, saturated to [lo, hi]; NaN gives 0. */
static int32_t fixed(float x, float scale, int32_t lo, int32_t hi)
{
    double v = (double)x * (double)scale;
    if (v != v)
        return 0;
    if (v <= (double)lo)
        return lo;
    if (v >= (double)hi)
        return hi;
    double r = floor(v + 0.5);
    if (r - v == 0.5 && fmod(r, 2.0) != 0.0)
        r -= 1.0;   /* a tie: to even */
    return (int32_t)r;
}

uint32_t sass_tmml_s8_8(float lod)
{
    return (uint32_t)fixed(lod, 256.0f, -32768, 32767) & 0xffffu;
}

uint32_t sass_tmml_u8_8(float lod)
{
    return (uint32_t)fixed(lod, 256.0f, 0, 65535);
}

uint32_t sass_tmml_major(float u, float v)
{
    uint32_t uu = (uint32_t)fixed(u, 64.0f, -128, 127) & 0xffu;
    uint32_t vv = (uint32_t)fixed(v, 64.0f, -128, 127) & 0xffu;
    return vv << 8 | uu;
}

uint32_t sass_tmml_s4_12(float log2_ratio)
{
    return (uint32_t)fixed(log2_ratio, 4096.0f, -32768, 32767) & 0xffffu;
}

uint32_t sass_pack_sample_pos(float x, float y)
{
    uint32_t dx = (uint32_t)fixed(x - 0.5f, 4096.0f, -32768, 32767) & 0xffffu;
    uint32_t dy = (uint32_t)fixed(y - 0.5f, 4096.0f, -32768, 32767) & 0xffffu;
    return dy << 16 | dx;
}

uint16_t sass_f32_to_f16(uint32_t bits)
{
    return tv_float_to_half(tv_bits_f32(bits));
}

void sass_write_results(tv_sass_warp *w, const tv_sass_insn *in, uint32_t exec,
                        const uint32_t v[4][TV_SASS_LANES])
{
    uint8_t comps[4];
    unsigned to_rd;
    unsigned n = sass_result_components(in, comps, &to_rd);
    bool scalar = sass_ops[in->op].scalar;
    for (unsigned lane = 0; lane < TV_SASS_LANES; lane++) {
        if (!((exec >> lane) & 1u))
            continue;
        if (scalar && in->f16) {
            /* Rd = {c1, c0}, Rd2 = {c3, c2}; a missing half is written 0 */
            uint32_t h[4] = {0, 0, 0, 0};
            for (unsigned i = 0; i < n; i++)
                h[i] = sass_f32_to_f16(v[comps[i]][lane]);
            sass_write_reg(w, in->rd, lane, h[1] << 16 | h[0]);
            if (n > 2)
                sass_write_reg(w, in->rd2, lane, h[3] << 16 | h[2]);
            continue;
        }
        for (unsigned i = 0; i < n; i++) {
            unsigned reg = i < to_rd ? in->rd + i : in->rd2 + (i - to_rd);
            if (i < to_rd ? in->rd == TV_SASS_RZ : in->rd2 == TV_SASS_RZ)
                continue;
            sass_write_reg(w, reg, lane, v[comps[i]][lane]);
        }
    }
}
