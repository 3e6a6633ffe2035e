/* The blend of a whole 8x4 tile of RGBA32 float pixels in the target's own order (the
 * tile-at-a-time output merger's common case, pipe_draw_om_warp.c): each row of the tile
 * is two 64-byte vectors of four pixels' R, G, B, A, loaded from the target, blended with
 * the shader's colour transposed into the same order, and stored back. The lane rows of
 * om_blend_lanes cost, besides the arithmetic, a transpose of the target's texels into
 * channel rows and one back, through memory; here the factors are built in pixel order
 * instead — an alpha factor is the pixel's alpha repeated in its four elements (one
 * in-lane shuffle), the RGB and alpha factors are joined by a blend of element 3.
 *
 * Bit for bit om_blend_color's on a float target (no clamps): every element goes through
 * the same IEEE operations in the same order — the factor (the channel, or the alpha,
 * then 1 - x), the products, then their sum or difference — and the products and sums
 * return their first operand's NaN, quieted, when that operand is a NaN (the rule of
 * util/nan_order.h: x86 returns the first source's NaN, and the operand order is fixed
 * here by writing those instructions out). tests/pipe/test_om_blend_tile.c checks
 * every factor pair and equation pair with NaNs, infinities, zeros of both signs and
 * denormals against om_blend_color.
 *
 * Two variants: AVX-512F (a row's four pixels a vector) and AVX2 (two pixels a vector; the
 * channel rows become pixels by an in-lane 4x4 transpose of two quads at once, each
 * 128-bit half one quad). Without the AVX2 variant an AVX2-only core (Zen 3) blended
 * through the lane rows at 0.2-0.4x llvmpipe's rate. */
#include "util/cpu_isa.h"
#include "pipe_om.h"
#include "util/tile_lanes.h"

#if defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>
#define TB_X86 1
#else
#define TB_X86 0
#endif

static bool equation_served(uint8_t func)
{
    return func == OM_BLEND_ADD || func == OM_BLEND_SUBTRACT ||
           func == OM_BLEND_REVERSE_SUBTRACT;
}

/* The blend states of most programs (glBlendFunc's usual arguments), as om_tile_blend_init
 * describes them: each has a kernel in which its factors and equations are constants. */
#define SRC_ALPHA {OM_FS_SRC0, true, false}
#define INV_SRC_ALPHA {OM_FS_SRC0, true, true}
#define ONE {OM_FS_ONE, false, false}
static const om_tile_blend common_states[] = {
    /* SRC_ALPHA, ONE_MINUS_SRC_ALPHA */
    {true, false, OM_BLEND_ADD, OM_BLEND_ADD, {SRC_ALPHA, INV_SRC_ALPHA, SRC_ALPHA, INV_SRC_ALPHA},
     false, false, 0, 0},
    /* ONE, ONE_MINUS_SRC_ALPHA (premultiplied colour) */
    {true, false, OM_BLEND_ADD, OM_BLEND_ADD, {ONE, INV_SRC_ALPHA, ONE, INV_SRC_ALPHA}, false,
     false, 0, 0},
    /* SRC_ALPHA, ONE_MINUS_SRC_ALPHA for RGB; ONE, ONE_MINUS_SRC_ALPHA for alpha */
    {true, false, OM_BLEND_ADD, OM_BLEND_ADD, {SRC_ALPHA, INV_SRC_ALPHA, ONE, INV_SRC_ALPHA},
     true, false, 0, 0},
    /* ONE, ONE */
    {true, false, OM_BLEND_ADD, OM_BLEND_ADD, {ONE, ONE, ONE, ONE}, false, false, 0, 0},
};
#undef SRC_ALPHA
#undef INV_SRC_ALPHA
#undef ONE

void om_tile_blend_init(om_tile_blend *tb, const om_rt_blend *rt, const om_target *t)
{
    memset(tb, 0, sizeof *tb);
    if (!rt->blend_enable || t->cls != OM_CLASS_FLOAT || !t->raw32 || rt->colormask != 0xfu ||
        !equation_served(rt->rgb_func) || !equation_served(rt->alpha_func))
        return;
    const uint8_t factor[4] = {rt->rgb_src_factor, rt->rgb_dst_factor, rt->alpha_src_factor,
                               rt->alpha_dst_factor};
    for (unsigned i = 0; i < 4; i++)
        if (!om_factor_describe(factor[i], &tb->f[i]) || tb->f[i].source == OM_FS_SATURATE)
            return;
    tb->src1 = om_blend_uses_src1(rt);
    tb->rgb_func = rt->rgb_func;
    tb->alpha_func = rt->alpha_func;
    /* an alpha factor equal to the RGB one has the same element 3 (the channel's own value
       and the alpha are the same element there): no second factor */
    tb->alpha_sf = memcmp(&tb->f[2], &tb->f[0], sizeof tb->f[0]) != 0;
    tb->alpha_df = memcmp(&tb->f[3], &tb->f[1], sizeof tb->f[1]) != 0;
    const uint8_t isa = !TB_X86 ? 0 : tv_cpu_avx512f() ? 2 : tv_cpu_avx2() ? 1 : 0;
    tb->ok = isa != 0;
    for (unsigned i = 0; i < sizeof common_states / sizeof common_states[0]; i++)
        if (tb->ok && !memcmp(tb, &common_states[i], sizeof *tb))
            tb->kernel = (uint8_t)(1 + i);
    tb->isa = isa;   /* (after the comparison: the table's entries have none) */
}

#if TB_X86
#define TB_TARGET __attribute__((target("avx512f")))
#define TB_INLINE TB_TARGET static inline __attribute__((always_inline))

/* A product and a sum with A as the instruction's first source: x86 returns that
 * operand's NaN, quieted, when both are NaNs (and the one NaN, quieted, when one is) —
 * util/nan_order.h's tv_mul_a and tv_add_a. In assembly because the compiler may swap
 * the operands of a commutative intrinsic. */
TB_INLINE __m512 mul(__m512 a, __m512 b)
{
    __m512 r;
    __asm__("vmulps %2, %1, %0" : "=v"(r) : "v"(a), "v"(b));
    return r;
}

TB_INLINE __m512 add(__m512 a, __m512 b)
{
    __m512 r;
    __asm__("vaddps %2, %1, %0" : "=v"(r) : "v"(a), "v"(b));
    return r;
}

/* each pixel's element 3 in its four elements */
TB_INLINE __m512 alphas(__m512 v)
{
    return _mm512_permute_ps(v, 0xff);
}

/* The factor F of four pixels: S0, S1, D their sources and destination, KC the constant
 * (R, G, B, A per pixel), KA its alpha in every element. */
TB_INLINE __m512 factor(const om_factor_desc *f, __m512 s0, __m512 s1, __m512 d, __m512 kc,
                        __m512 ka)
{
    __m512 x;
    switch (f->source) {
    case OM_FS_ZERO: x = _mm512_setzero_ps(); break;
    case OM_FS_ONE: x = _mm512_set1_ps(1.0f); break;
    case OM_FS_SRC0: x = f->alpha ? alphas(s0) : s0; break;
    case OM_FS_SRC1: x = f->alpha ? alphas(s1) : s1; break;
    case OM_FS_DST: x = f->alpha ? alphas(d) : d; break;
    default: x = f->alpha ? ka : kc; break;   /* OM_FS_CONST (SATURATE is not served) */
    }
    return f->invert ? _mm512_sub_ps(_mm512_set1_ps(1.0f), x) : x;
}

TB_INLINE __m512 equation(uint8_t func, __m512 s, __m512 sf, __m512 d, __m512 df)
{
    switch (func) {
    case OM_BLEND_SUBTRACT: return _mm512_sub_ps(mul(s, sf), mul(d, df));
    case OM_BLEND_REVERSE_SUBTRACT: return _mm512_sub_ps(mul(d, df), mul(s, sf));
    default: return add(mul(s, sf), mul(d, df));   /* OM_BLEND_ADD */
    }
}

/* element 3 of every pixel (the alpha) */
#define ALPHA_ELEMENTS ((__mmask16)0x8888)

/* Four pixels: RGB factors and equation on elements 0-2, alpha's on element 3. */
TB_INLINE __m512 blend4(const om_tile_blend *tb, __m512 s0, __m512 s1, __m512 d, __m512 kc,
                        __m512 ka)
{
    __m512 sf = factor(&tb->f[0], s0, s1, d, kc, ka);
    __m512 df = factor(&tb->f[1], s0, s1, d, kc, ka);
    if (tb->alpha_sf)
        sf = _mm512_mask_mov_ps(sf, ALPHA_ELEMENTS, factor(&tb->f[2], s0, s1, d, kc, ka));
    if (tb->alpha_df)
        df = _mm512_mask_mov_ps(df, ALPHA_ELEMENTS, factor(&tb->f[3], s0, s1, d, kc, ka));
    __m512 r = equation(tb->rgb_func, s0, sf, d, df);
    if (tb->alpha_func != tb->rgb_func)
        r = _mm512_mask_mov_ps(r, ALPHA_ELEMENTS, equation(tb->alpha_func, s0, sf, d, df));
    return r;
}

/* Row 2h + p of a tile from channel rows S (lanes 16h .. 16h + 15): pixels 0-3 and 4-7
 * (util/tile_lanes.h's permutes, as the engine's tile store). */
TB_INLINE void row_pixels(const uint32_t *const s[4], unsigned h, unsigned p, __m512 out[2])
{
    const __m512i ix = _mm512_loadu_si512(tv_tile_pair_idx[p]);
    __m512i c0 = _mm512_loadu_si512(s[0] + 16 * h), c1 = _mm512_loadu_si512(s[1] + 16 * h);
    __m512i c2 = _mm512_loadu_si512(s[2] + 16 * h), c3 = _mm512_loadu_si512(s[3] + 16 * h);
    __m512i a = _mm512_permutex2var_epi32(c0, ix, c1);
    __m512i b = _mm512_permutex2var_epi32(c2, ix, c3);
    out[0] = _mm512_castsi512_ps(_mm512_permutex2var_epi32(a, _mm512_loadu_si512(tv_tile_pix_idx[0]), b));
    out[1] = _mm512_castsi512_ps(_mm512_permutex2var_epi32(a, _mm512_loadu_si512(tv_tile_pix_idx[1]), b));
}

TB_INLINE void tile_body(const om_tile_blend *tb, const uint32_t *const s0[4],
                         const uint32_t *const s1[4], bool alpha_one, const float k[4],
                         uint8_t *t0, size_t stride)
{
    const __m512 kc = _mm512_castps128_ps512(_mm_loadu_ps(k));
    const __m512 kcv = _mm512_shuffle_f32x4(kc, kc, 0);   /* K in each pixel */
    const __m512 ka = _mm512_set1_ps(k[3]);
    const __m512 one = _mm512_set1_ps(1.0f);
    for (unsigned r = 0; r < 4; r++) {
        __m512 s[2], t[2] = {_mm512_setzero_ps(), _mm512_setzero_ps()};
        row_pixels(s0, r >> 1, r & 1u, s);
        if (tb->src1)
            row_pixels(s1, r >> 1, r & 1u, t);
        float *row = (float *)(void *)(t0 + stride * r);
        for (unsigned half = 0; half < 2; half++) {
            __m512 src = alpha_one ? _mm512_mask_mov_ps(s[half], ALPHA_ELEMENTS, one) : s[half];
            __m512 dst = _mm512_loadu_ps(row + 16 * half);
            _mm512_storeu_ps(row + 16 * half, blend4(tb, src, t[half], dst, kcv, ka));
        }
    }
}

typedef void tile_kernel(const om_tile_blend *tb, const uint32_t *const s0[4],
                         const uint32_t *const s1[4], bool alpha_one, const float k[4],
                         uint8_t *t0, size_t stride);

/* the general kernel: factors and equations chosen per vector, from TB */
TB_TARGET static void tile_general(const om_tile_blend *tb, const uint32_t *const s0[4],
                                   const uint32_t *const s1[4], bool alpha_one,
                                   const float k[4], uint8_t *t0, size_t stride)
{
    tile_body(tb, s0, s1, alpha_one, k, t0, stride);
}

/* kernels of their own for the states of common_states, whose factors and equations are
   then constants (tile_body inlined on the table's entry) */
#define COMMON_KERNEL(name, i)                                                               \
    TB_TARGET static void name(const om_tile_blend *tb, const uint32_t *const s0[4],       \
                               const uint32_t *const s1[4], bool alpha_one,                 \
                               const float k[4], uint8_t *t0, size_t stride)                \
    {                                                                                        \
        (void)tb;                                                                            \
        tile_body(&common_states[i], s0, s1, alpha_one, k, t0, stride);                      \
    }
COMMON_KERNEL(tile_over, 0)
COMMON_KERNEL(tile_over_premultiplied, 1)
COMMON_KERNEL(tile_over_alpha_one, 2)
COMMON_KERNEL(tile_additive, 3)

/* indexed by om_tile_blend.kernel: 0 the general one, 1 + i common_states[i]'s */
static tile_kernel *const kernels[] = {tile_general, tile_over, tile_over_premultiplied,
                                       tile_over_alpha_one, tile_additive};
_Static_assert(sizeof kernels / sizeof kernels[0] ==
                   1 + sizeof common_states / sizeof common_states[0],
               "a kernel for every common state");

/* ---- AVX2: two pixels a vector ---- */
#define TB2_TARGET __attribute__((target("avx2")))
#define TB2_INLINE TB2_TARGET static inline __attribute__((always_inline))

TB2_INLINE __m256 mul2(__m256 a, __m256 b)
{
    __m256 r;
    __asm__("vmulps %2, %1, %0" : "=x"(r) : "x"(a), "x"(b));
    return r;
}

TB2_INLINE __m256 add2(__m256 a, __m256 b)
{
    __m256 r;
    __asm__("vaddps %2, %1, %0" : "=x"(r) : "x"(a), "x"(b));
    return r;
}

TB2_INLINE __m256 factor2(const om_factor_desc *f, __m256 s0, __m256 s1, __m256 d, __m256 kc,
                          __m256 ka)
{
    __m256 x;
    switch (f->source) {
    case OM_FS_ZERO: x = _mm256_setzero_ps(); break;
    case OM_FS_ONE: x = _mm256_set1_ps(1.0f); break;
    case OM_FS_SRC0: x = f->alpha ? _mm256_permute_ps(s0, 0xff) : s0; break;
    case OM_FS_SRC1: x = f->alpha ? _mm256_permute_ps(s1, 0xff) : s1; break;
    case OM_FS_DST: x = f->alpha ? _mm256_permute_ps(d, 0xff) : d; break;
    default: x = f->alpha ? ka : kc; break;   /* OM_FS_CONST (SATURATE is not served) */
    }
    return f->invert ? _mm256_sub_ps(_mm256_set1_ps(1.0f), x) : x;
}

TB2_INLINE __m256 equation2(uint8_t func, __m256 s, __m256 sf, __m256 d, __m256 df)
{
    switch (func) {
    case OM_BLEND_SUBTRACT: return _mm256_sub_ps(mul2(s, sf), mul2(d, df));
    case OM_BLEND_REVERSE_SUBTRACT: return _mm256_sub_ps(mul2(d, df), mul2(s, sf));
    default: return add2(mul2(s, sf), mul2(d, df));   /* OM_BLEND_ADD */
    }
}

/* element 3 of each pixel (the alpha), as a blend immediate */
#define ALPHA_ELEMENTS2 0x88

TB2_INLINE __m256 blend2(const om_tile_blend *tb, __m256 s0, __m256 s1, __m256 d, __m256 kc,
                         __m256 ka)
{
    __m256 sf = factor2(&tb->f[0], s0, s1, d, kc, ka);
    __m256 df = factor2(&tb->f[1], s0, s1, d, kc, ka);
    if (tb->alpha_sf)
        sf = _mm256_blend_ps(sf, factor2(&tb->f[2], s0, s1, d, kc, ka), ALPHA_ELEMENTS2);
    if (tb->alpha_df)
        df = _mm256_blend_ps(df, factor2(&tb->f[3], s0, s1, d, kc, ka), ALPHA_ELEMENTS2);
    __m256 r = equation2(tb->rgb_func, s0, sf, d, df);
    if (tb->alpha_func != tb->rgb_func)
        r = _mm256_blend_ps(r, equation2(tb->alpha_func, s0, sf, d, df), ALPHA_ELEMENTS2);
    return r;
}

/* Quads 2j and 2j + 1 of lanes 16h .. 16h + 15 (8 lanes from S, two quads a 128-bit half)
 * as pixels: out[0] the top row's pixels 4j, 4j + 1, out[1] its 4j + 2, 4j + 3, out[2]
 * and out[3] the bottom row's (lane 4q + i is pixel i — TL, TR, BL, BR — of quad q). */
TB2_INLINE void quads_pixels(const uint32_t *const s[4], unsigned h, unsigned j, __m256 out[4])
{
    const unsigned at = 16 * h + 8 * j;
    __m256 c0 = _mm256_castsi256_ps(_mm256_loadu_si256((const void *)(s[0] + at)));
    __m256 c1 = _mm256_castsi256_ps(_mm256_loadu_si256((const void *)(s[1] + at)));
    __m256 c2 = _mm256_castsi256_ps(_mm256_loadu_si256((const void *)(s[2] + at)));
    __m256 c3 = _mm256_castsi256_ps(_mm256_loadu_si256((const void *)(s[3] + at)));
    /* (shuffles and blends of bits only: no arithmetic on the words) */
    __m256 a01 = _mm256_unpacklo_ps(c0, c1), b01 = _mm256_unpackhi_ps(c0, c1);
    __m256 a23 = _mm256_unpacklo_ps(c2, c3), b23 = _mm256_unpackhi_ps(c2, c3);
    __m256 tl = _mm256_castpd_ps(_mm256_unpacklo_pd(_mm256_castps_pd(a01), _mm256_castps_pd(a23)));
    __m256 tr = _mm256_castpd_ps(_mm256_unpackhi_pd(_mm256_castps_pd(a01), _mm256_castps_pd(a23)));
    __m256 bl = _mm256_castpd_ps(_mm256_unpacklo_pd(_mm256_castps_pd(b01), _mm256_castps_pd(b23)));
    __m256 br = _mm256_castpd_ps(_mm256_unpackhi_pd(_mm256_castps_pd(b01), _mm256_castps_pd(b23)));
    out[0] = _mm256_permute2f128_ps(tl, tr, 0x20);
    out[1] = _mm256_permute2f128_ps(tl, tr, 0x31);
    out[2] = _mm256_permute2f128_ps(bl, br, 0x20);
    out[3] = _mm256_permute2f128_ps(bl, br, 0x31);
}

TB2_INLINE void tile_body2(const om_tile_blend *tb, const uint32_t *const s0[4],
                           const uint32_t *const s1[4], bool alpha_one, const float k[4],
                           uint8_t *t0, size_t stride)
{
    const __m256 kc = _mm256_broadcast_ps((const __m128 *)(const void *)k);   /* K a pixel */
    const __m256 ka = _mm256_set1_ps(k[3]);
    const __m256 one = _mm256_set1_ps(1.0f);
    for (unsigned h = 0; h < 2; h++)
        for (unsigned j = 0; j < 2; j++) {
            __m256 s[4], t[4] = {_mm256_setzero_ps(), _mm256_setzero_ps(),
                                 _mm256_setzero_ps(), _mm256_setzero_ps()};
            quads_pixels(s0, h, j, s);
            if (tb->src1)
                quads_pixels(s1, h, j, t);
            for (unsigned v = 0; v < 4; v++) {
                /* row 2h + v / 2, pixels 4j + 2 (v % 2) and the next */
                float *px = (float *)(void *)(t0 + stride * (2 * h + v / 2)) + 16 * j + 8 * (v % 2);
                __m256 src = alpha_one ? _mm256_blend_ps(s[v], one, ALPHA_ELEMENTS2) : s[v];
                __m256 dst = _mm256_loadu_ps(px);
                _mm256_storeu_ps(px, blend2(tb, src, t[v], dst, kc, ka));
            }
        }
}

TB2_TARGET static void tile_general2(const om_tile_blend *tb, const uint32_t *const s0[4],
                                     const uint32_t *const s1[4], bool alpha_one,
                                     const float k[4], uint8_t *t0, size_t stride)
{
    tile_body2(tb, s0, s1, alpha_one, k, t0, stride);
}

#define COMMON_KERNEL2(name, i)                                                              \
    TB2_TARGET static void name(const om_tile_blend *tb, const uint32_t *const s0[4],       \
                                const uint32_t *const s1[4], bool alpha_one,                \
                                const float k[4], uint8_t *t0, size_t stride)               \
    {                                                                                        \
        (void)tb;                                                                            \
        tile_body2(&common_states[i], s0, s1, alpha_one, k, t0, stride);                     \
    }
COMMON_KERNEL2(tile_over2, 0)
COMMON_KERNEL2(tile_over_premultiplied2, 1)
COMMON_KERNEL2(tile_over_alpha_one2, 2)
COMMON_KERNEL2(tile_additive2, 3)

static tile_kernel *const kernels2[] = {tile_general2, tile_over2, tile_over_premultiplied2,
                                        tile_over_alpha_one2, tile_additive2};
_Static_assert(sizeof kernels2 / sizeof kernels2[0] == sizeof kernels / sizeof kernels[0],
               "an AVX2 kernel for every AVX-512 one");
#endif

bool om_tile_blend_run(const om_tile_blend *tb, const uint32_t *const s0[4],
                       const uint32_t *const s1[4], bool alpha_one, const float k[4],
                       uint8_t *t0, size_t stride)
{
#if TB_X86
    if (tb->ok) {
        (tb->isa == 2 ? kernels : kernels2)[tb->kernel](tb, s0, s1, alpha_one, k, t0, stride);
        return true;
    }
#endif
    (void)s0, (void)s1, (void)alpha_one, (void)k, (void)t0, (void)stride;
    return false;
}
