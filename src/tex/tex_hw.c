/* The hardware precision mode's arithmetic (docs/texture-unit-precision.md),
 * each rule as measured on an NVIDIA H100 (tests/tex/test_hw_capture.c replays the
 * capture): texel-space coordinates to 1/256 texel rounding half up, λ' to 1/256 by
 * truncation, the filter's integer weights, and the sums — exact, rounded once. */
#include <float.h>
#include <math.h>

#include "tex/tex_sampling.h"

float tex_hw_coord(float x)
{
    if (!isfinite(x))
        return x;
    float y = x * 256.0f; /* exact: a power of two (an overflow gives inf, kept below) */
    if (!isfinite(y) || fabsf(y) >= 8388608.0f)
        return x; /* already a multiple of 1/256 */
    float f = floorf(y);
    /* y - f is exact (both in the same binade or f = y), so the half test is too */
    float r = (y - f >= 0.5f) ? f + 1.0f : f;
    return r * (1.0f / 256.0f);
}

float tex_hw_lod(float x)
{
    if (!isfinite(x))
        return x;
    return floorf(x * 256.0f) * (1.0f / 256.0f);
}

uint32_t tex_hw_split(uint32_t a, uint32_t m)
{
    return (a * m + 128u) >> 8; /* round(a·m / 256), ties up */
}

void tex_hw_weights_2d(uint32_t a, uint32_t b, uint32_t m, uint32_t w[4])
{
    uint32_t x = tex_hw_split(a, m);              /* the column of x1 */
    uint32_t w11 = tex_hw_split(b, x);            /* (x1, y1) */
    uint32_t w00 = tex_hw_split(256u - b, m - x); /* (x0, y0) */
    w[0] = w00;
    w[1] = x - w11;
    w[2] = m - x - w00;
    w[3] = w11;
}

/* s + p as an unevaluated sum: returns the rounded sum, *err the exact remainder */
static double two_sum(double s, double p, double *err)
{
    double r = s + p;
    double pp = r - s;
    *err = (s - (r - pp)) + (p - pp);
    return r;
}

float tex_hw_round_sum(const double *p, unsigned n, bool half)
{
    if (n == 0)
        return 0.0f;
    /* the first term exactly, as the reference's accumulation starts (so -0 stays -0) */
    double s = p[0], e = 0.0;
    for (unsigned i = 1; i < n; i++) {
        double t;
        s = two_sum(s, p[i], &t);
        e += t;
    }
    if (!isfinite(s) || s == 0.0)
        return (float)s;
    double err = 0.0, S = s; /* S + err: the sum (no renormalisation without a remainder) */
    if (e != 0.0)
        S = two_sum(s, e, &err);
    /* round |S + err| to `bits` significant bits (subnormals below 2^emin), ties away */
    int bits = half ? 11 : 24, emin = half ? -14 : -126;
    double mag = fabs(S), rest = S < 0.0 ? -err : err;
    int ex;
    frexp(mag, &ex); /* mag in [2^(ex-1), 2^ex) */
    int e0 = ex - 1 < emin ? emin : ex - 1;
    double q = ldexp(1.0, e0 - bits + 1); /* the quantum at this magnitude */
    double k = mag / q, fl = floor(k), fr = k - fl; /* exact: powers of two */
    if (fr > 0.5 || (fr == 0.5 && rest >= 0.0))
        fl += 1.0;
    double r = fl * q;
    double max = half ? 65504.0 : (double)FLT_MAX;
    if (r > max)
        r = INFINITY;
    return (float)(S < 0.0 ? -r : r);
}

float tex_hw_unorm16_sum(uint64_t k)
{
    uint64_t r = (k + 128u) >> 8;
    return (float)(uint32_t)r / 65535.0f; /* correctly rounded: both exact floats */
}

uint32_t tex_hw_unorm16(float v)
{
    /* the byte the GPU makes of a border colour: v truncated to 16 fraction bits, then
     * 255·v rounded half down (measured: 0.5 reads 127/255, 0.75/255 above a byte rounds
     * up); a texel's own t/255 gives t back */
    if (!(v > 0.0f))
        return 0; /* and NaN */
    uint32_t b16 = v >= 1.0f ? 65536u : (uint32_t)(v * 65536.0f); /* exact scaling, floor */
    uint32_t t = (255u * b16 + 32767u) >> 16;                      /* ⌈(255·b16 − 2^15) / 2^16⌉ */
    return 257u * t;
}
