/* Small floating-point formats shared by the texture unit, the VM and the SASS layer:
 * IEEE half (FP16, with denormals, Inf and NaN), the unsigned 11- and 10-bit floats of
 * R11G11B10F (E5M6 / E5M5, no sign, with denormals), and the shared-exponent RGB9E5.
 * Decoding is exact; encoding rounds to nearest, ties to even. */
#ifndef TEXVM_UTIL_HALF_H
#define TEXVM_UTIL_HALF_H

#include <stdint.h>
#include <string.h>

/* The bits of a float or double and back: the one set of bit casts every layer uses. */
static inline uint32_t tv_f32_bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline float tv_bits_f32(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static inline uint64_t tv_f64_bits(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }
static inline double tv_bits_f64(uint64_t u) { double d; memcpy(&d, &u, 8); return d; }

/* FP16 <-> float32. half_to_float is exact (every half is a float). float_to_half rounds
 * to nearest even; overflow gives Inf, NaN stays NaN (quiet, payload top bits kept). */
float tv_half_to_float(uint16_t h);
uint16_t tv_float_to_half(float f);

/* Unsigned small floats with a 5-bit exponent (bias 15) and `mbits` mantissa bits
 * (6 for UF11, 5 for UF10). Decode is exact. Encode: negative and -0 give 0, NaN gives
 * a NaN code, too large gives Inf, rounding to nearest even. */
float tv_ufloat_to_float(uint32_t v, unsigned mbits);
uint32_t tv_float_to_ufloat(float f, unsigned mbits);
static inline float tv_uf11_to_float(uint32_t v) { return tv_ufloat_to_float(v & 0x7ff, 6); }
static inline float tv_uf10_to_float(uint32_t v) { return tv_ufloat_to_float(v & 0x3ff, 5); }

/* RGB9E5 (bits: R 0-8, G 9-17, B 18-26, E 27-31): c * 2^(E - 15 - 9). */
void tv_rgb9e5_to_float(uint32_t v, float rgb[3]);
/* Encode per the GL/EXT_texture_shared_exponent rules (clamp, shared exponent, RNE). */
uint32_t tv_float_to_rgb9e5(const float rgb[3]);

#endif
