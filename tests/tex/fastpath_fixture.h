/* Shared fixture of the fast-path tests (test_fastpath*.c): one mapped buffer holding a
 * header pool, a sampler pool and 8-bit UNORM x4 textures filled with random bytes from a
 * xorshift generator, so fast and general paths can be compared on the same data. */
#ifndef TEXVM_TESTS_FASTPATH_FIXTURE_H
#define TEXVM_TESTS_FASTPATH_FIXTURE_H

#include <stdint.h>

#include "texvm/tex.h"

#define FP_BASE 0x100000ull  /* header pool; samplers at +1024, textures from +0x10000 */
#define FP_SIZE (16u << 20)

typedef struct fp {
    tv_memory *mem;
    tv_tex_unit *unit;
    uint8_t *host;
    uint32_t rng;
} fp;

/* One texture: format name, size, layout and type (2D arrays get 3 layers, 2D_NO_MIPMAP
 * one level), the view's min level, max level (-1 = the last) and header min-LOD clamp. */
typedef struct fp_tex {
    const char *format;
    unsigned w, h;
    uint8_t layout, type;
    uint8_t min_level;
    int8_t max_level;
    uint16_t min_lod_clamp;
} fp_tex;

uint32_t fp_rnd(fp *F);
float fp_frnd(fp *F, float lo, float hi);
/* The seven textures the warp-path tests share (test_fastpath_warp.c,
 * test_fastpath_aniso.c): 0..4 2D (odd sizes, a view from level 1, levels 2..4 of 7 with a
 * header min-LOD clamp of 2.5), 5 a 2D array, 6 2D_NO_MIPMAP. */
#define FP_WARP_TEXTURES \
    {"R8G8B8A8_UNORM", 64, 64, TV_TIC_BLOCKLINEAR, TV_TEX_2D, 0, -1, 0}, \
    {"R8G8B8A8_UNORM", 37, 21, TV_TIC_PITCH, TV_TEX_2D, 0, -1, 0}, \
    {"B8G8R8A8_UNORM", 50, 8, TV_TIC_BLOCKLINEAR, TV_TEX_2D, 0, -1, 0}, \
    {"R8G8B8A8_UNORM", 16, 16, TV_TIC_PITCH, TV_TEX_2D, 1, -1, 0}, \
    {"B8G8R8A8_UNORM", 33, 65, TV_TIC_BLOCKLINEAR, TV_TEX_2D, 2, 4, 0x280}, \
    {"R8G8B8A8_UNORM", 24, 12, TV_TIC_BLOCKLINEAR, TV_TEX_2D_ARRAY, 0, -1, 0}, \
    {"R8G8B8A8_UNORM", 19, 7, TV_TIC_PITCH, TV_TEX_2D_NO_MIPMAP, 0, -1, 0}

/* A texture coordinate for the warp-path tests: 1/64 each NaN, +inf, -inf, -0, 3e9; texel
 * edges and centres (k/16 - 1/2) 9/64 of the time; else uniform in [-2.5, 3.5]. */
float fp_coord(fp *F);
/* Map the buffer, create the unit (header pool max 31, sampler pool max `sampler_max`),
 * and write header t for tex[t] with random texels. */
void fp_setup(fp *F, uint32_t seed, const fp_tex *tex, unsigned ntex, uint32_t sampler_max);
void fp_put_sampler(fp *F, unsigned index, const tv_tsc *ts);
/* A zeroed sampler whose u / v wraps walk the nine pairs of REPEAT, MIRROR and
 * CLAMP_TO_EDGE with s (u: s % 3, v: (s / 3) % 3), p REPEAT; the caller sets the rest. */
void fp_tsc_wraps(tv_tsc *ts, unsigned s);
void fp_teardown(fp *F);
/* Every result word of active lane l of a (a fast path's result) equals b's (`what` names
 * b in the failure message), and so do the QUERY_LOD extras (lod_clamped, lod_unclamped —
 * any NaN matches any NaN —, major_u/v, log2_ratio). */
void fp_same_lane(const tv_tex_request *r, const tv_tex_result *a, const tv_tex_result *b,
                  unsigned l, const char *what);
/* Run r through tex_warp_sample; when it takes the request (counted in *taken), require
 * inactive lanes unwritten and every active lane equal (fp_same_lane; with
 * TV_TEXF_VALUES_ONLY the values alone) to tv_tex_execute with the fast paths off. */
void fp_check_warp(fp *F, const tv_tex_request *r, unsigned *taken);
/* Whether the warp kernel's AVX-512 variant runs here under the cap 2 (the CPU has
 * AVX-512F and BW, and the build the wide variants: tex_warp_vec.c vec_run). */
bool fp_kernel_avx512(void);
/* Whether its AVX2 variant runs here under the cap 1 (AVX2 and FMA). */
bool fp_kernel_avx2(void);

/* The six runs of a kernel test: both precisions x the AVX-512 / AVX2 / baseline kernel
 * variants (the cap given to tex_set_vector_isa_cap). FP_VARIANT_TESTS(fn) defines
 * test_<variant> calling fn(cap), in the reference precision (the only one the vector
 * kernels serve: the hardware precision's arithmetic is tex_hw_filter.c's and its one
 * fast footprint's, tex_fast_hw.c, scalar); FP_VARIANT_UNIT_TESTS
 * lists them for cmocka_run_group_tests. */
#define FP_VARIANT_TEST(name, cap, fn)                                                      \
    static void name(void **state)                                                          \
    {                                                                                       \
        (void)state;                                                                        \
        fn(cap);                                                                            \
    }
#define FP_VARIANT_TESTS(fn)                                                                \
    FP_VARIANT_TEST(test_avx512, 2, fn)                                                     \
    FP_VARIANT_TEST(test_avx2, 1, fn)                                                       \
    FP_VARIANT_TEST(test_baseline, 0, fn)
#define FP_VARIANT_UNIT_TESTS                                                               \
    cmocka_unit_test(test_avx512), cmocka_unit_test(test_avx2), cmocka_unit_test(test_baseline)
/* A test file whose tests are FP_VARIANT_TESTS(fn) alone: those and its main(). */
#define FP_VARIANT_MAIN(fn)                                                                 \
    FP_VARIANT_TESTS(fn)                                                                    \
    int main(void)                                                                          \
    {                                                                                       \
        const struct CMUnitTest tests[] = {FP_VARIANT_UNIT_TESTS};                          \
        return cmocka_run_group_tests(tests, NULL, NULL);                                   \
    }

#endif
