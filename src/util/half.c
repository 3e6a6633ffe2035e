/* Small float formats: FP16, UF11/UF10 and RGB9E5 (see half.h). */
#include "util/half.h"

#include <math.h>

float tv_half_to_float(uint16_t h)
{
    uint32_t sign = (uint32_t)(h >> 15) << 31;
    uint32_t e = (h >> 10) & 0x1f, m = h & 0x3ff;
    if (e == 0x1f)
        return tv_bits_f32(sign | 0x7f800000u | (m << 13));
    if (e == 0) {
        /* zero or denormal: m * 2^-24, exact in float */
        float v = ldexpf((float)m, -24);
        return sign ? -v : v;
    }
    return tv_bits_f32(sign | ((e + 112u) << 23) | (m << 13));
}

/* Round the float magnitude `a` (no sign) to a small float with 5-bit exponent (bias 15)
 * and `mbits` mantissa bits, round to nearest even. Returns the code without sign.
 * `a` is finite and >= 0. */
static uint32_t small_float_round(float a, unsigned mbits)
{
    uint32_t maxe = 0x1f;
    uint32_t u = tv_f32_bits(a);
    int32_t e = (int32_t)(u >> 23) - 127;     /* unbiased exponent of a (a normal float) */
    if (a == 0.0f)
        return 0;
    if (e < -14) {
        /* result is a denormal (or rounds up to the smallest normal): units of
         * 2^(-14-mbits). a * 2^(14+mbits) rounded to an integer, RNE. */
        float scaled = ldexpf(a, 14 + (int)mbits);   /* exact: power-of-two scale */
        float r = nearbyintf(scaled);                  /* default rounding mode is RNE */
        return (uint32_t)r;                            /* may equal 1<<mbits = min normal */
    }
    /* normal range: keep mbits of the 23-bit mantissa, RNE on the dropped bits */
    uint32_t shift = 23 - mbits;
    uint32_t mant = u & 0x7fffff;
    uint32_t code = ((uint32_t)(e + 15) << mbits) | (mant >> shift);
    uint32_t rest = mant & ((1u << shift) - 1), half = 1u << (shift - 1);
    if (rest > half || (rest == half && (code & 1)))
        code++;                                        /* may carry into the exponent */
    if ((code >> mbits) >= maxe)
        return maxe << mbits;                          /* overflow -> Inf */
    return code;
}

uint16_t tv_float_to_half(float f)
{
    uint32_t u = tv_f32_bits(f);
    uint16_t sign = (uint16_t)((u >> 16) & 0x8000);
    float a = fabsf(f);
    if (isnan(f))
        return (uint16_t)(sign | 0x7e00 | ((u >> 13) & 0x1ff));
    if (isinf(f))
        return (uint16_t)(sign | 0x7c00);
    return (uint16_t)(sign | small_float_round(a, 10));
}

float tv_ufloat_to_float(uint32_t v, unsigned mbits)
{
    uint32_t e = v >> mbits, m = v & ((1u << mbits) - 1);
    if (e == 0x1f)
        return tv_bits_f32(0x7f800000u | (m << (23 - mbits)));
    if (e == 0)
        return ldexpf((float)m, -14 - (int)mbits);
    return tv_bits_f32(((e + 112u) << 23) | (m << (23 - mbits)));
}

uint32_t tv_float_to_ufloat(float f, unsigned mbits)
{
    if (isnan(f))
        return (0x1fu << mbits) | (1u << (mbits - 1));
    if (!(f > 0.0f))
        return 0;                       /* negative, -0, +0 */
    if (isinf(f))
        return 0x1fu << mbits;
    return small_float_round(f, mbits);
}

void tv_rgb9e5_to_float(uint32_t v, float rgb[3])
{
    int e = (int)(v >> 27) - 15 - 9;
    rgb[0] = ldexpf((float)(v & 0x1ff), e);
    rgb[1] = ldexpf((float)((v >> 9) & 0x1ff), e);
    rgb[2] = ldexpf((float)((v >> 18) & 0x1ff), e);
}

uint32_t tv_float_to_rgb9e5(const float rgb[3])
{
    /* EXT_texture_shared_exponent: N = 9, B = 15, Emax = 31. */
    const double sharedexp_max = (511.0 / 512.0) * 65536.0;   /* (2^N-1)/2^N * 2^(Emax-B) */
    double c[3];
    for (int i = 0; i < 3; i++) {
        double x = rgb[i];
        if (isnan(x) || x < 0.0)
            x = 0.0;
        c[i] = x > sharedexp_max ? sharedexp_max : x;
    }
    double maxc = c[0] > c[1] ? c[0] : c[1];
    if (c[2] > maxc)
        maxc = c[2];
    int exp_p;
    if (maxc < ldexp(1.0, -16))
        exp_p = -16;                          /* floor(log2) below the smallest exponent */
    else
        exp_p = (int)floor(log2(maxc));
    if (exp_p < -16)
        exp_p = -16;
    int e = exp_p + 1 + 15;                   /* max(-B-1, floor(log2(maxc))) + 1 + B */
    double denom = ldexp(1.0, e - 15 - 9);
    int maxm = (int)floor(maxc / denom + 0.5);
    if (maxm == 512) {
        e++;
        denom *= 2.0;
    }
    uint32_t out = (uint32_t)e << 27;
    for (int i = 0; i < 3; i++) {
        uint32_t m = (uint32_t)floor(c[i] / denom + 0.5);
        if (m > 511)
            m = 511;
        out |= m << (9 * i);
    }
    return out;
}
