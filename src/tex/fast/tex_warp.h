/* Private interface of the warp-wide sampling path: tex_warp.c (the request checks, the
 * hoisted state and the general lane passes) and tex_warp_vec.c (the vectorised kernel for
 * the dominant shape). docs/texture-fast-paths.md, docs/history/performance-log.md §2.2–2.3. */
#ifndef TEXVM_TEX_WARP_H
#define TEXVM_TEX_WARP_H

#include "tex/fast/tex_fast.h"

/* TEX_WIDE_VECTORS (1 or 0): the vector kernels are also compiled for AVX-512F (+BW: the
 * texel decode's byte shuffles) and AVX2
 * (TEX_TARGET_AVX512 / TEX_TARGET_AVX2 function attributes) and picked at run time from
 * the CPU's features — GCC on x86-64 only. As VM_WIDE_VECTORS (src/vm/vm_ops.h) but with a
 * tuning in the attribute: under its generic tuning GCC 12 emulates every gather with
 * scalar loads and lane inserts, and target_clones cannot carry a tuning. The same IEEE
 * and integer operations in the same order in every variant (ISO C: no contraction; the
 * one written FMA has an exact product, tex_warp_vec_taps.h), so every variant gives
 * bit-identical results. */
#ifndef TEX_WIDE_VECTORS
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
#define TEX_WIDE_VECTORS 1
#define TEX_TARGET_AVX512 \
    __attribute__((target("avx512f,avx512bw,tune=skylake-avx512,prefer-vector-width=512")))
/* (AVX2 with FMA, as every AVX2 core has: the decode's one exact-product FMA, taps8_avx2;
 * ISO C does not contract anything else) */
#define TEX_TARGET_AVX2 __attribute__((target("avx2,fma,tune=haswell")))
#else
#define TEX_WIDE_VECTORS 0
#endif
#endif

/* The warp-wide path (tex_warp.c): a whole SAMPLE/SAMPLE_BIAS/SAMPLE_LOD/SAMPLE_LZ request
 * of the common shape (docs/texture-fast-paths.md). Returns false, having written
 * nothing, when the request does not qualify; true when `res` is complete. Bit-identical
 * to the general path. */
bool tex_warp_sample(tv_tex_unit *unit, const tv_tex_request *req, tv_tex_result *res);
/* The calling thread's counters of the warp kernel's ways, read by the tests below and by
 * `bench_job --counters` (bench/bench_job.c, which prints them for a job's runs).
 * Tests: how many requests the calling thread's warp path answered with its vectorised
 * kernel (tex_warp_vec.c) — the rest of the taken ones went through its lane passes. */
uint64_t tex_warp_vec_count(void);
/* Tests: the calling thread's kernel level slots read with paired 64-bit loads of the
 * two horizontal taps (*paired) and with single words (*single). */
void tex_warp_vec_pair_counts(uint64_t *paired, uint64_t *single);
/* Tests: how many of the paired ones read 16-byte windows per two adjacent lanes (AVX-512
 * variant, tex_warp_vec_taps.h). */
uint64_t tex_warp_vec_window_count(void);
/* Tests: the calling thread's kernel requests whose derivatives were the same bits in
 * every lane (the footprint computed once). */
uint64_t tex_warp_vec_uniform_count(void);
/* Tests: the calling thread's kernel requests (TV_TEXF_VALUES_ONLY) whose every active
 * lane was proven magnified without a log2 (tex_warp_vec.c). */
uint64_t tex_warp_vec_mag_count(void);
/* Tests: the calling thread's kernel requests (TV_TEXF_VALUES_ONLY) that needed no level of
 * detail: mip NONE and one filter for both minification and magnification
 * (tex_warp_vec.c). */
uint64_t tex_warp_vec_free_count(void);
/* Tests: the calling thread's kernel requests answered by the wide variants' copy for
 * the common request (tex_warp_vec.c vec_common_shape). */
uint64_t tex_warp_vec_common_count(void);
/* Tests: those answered by the wide variants' copy for the request that needs no level
 * of detail (tex_warp_vec.c vec_free_shape). */
uint64_t tex_warp_vec_free_copy_count(void);
/* Tests: the calling thread's kernel log2 lookups (tex_warp_vec.c log2_lanes) that some
 * lane's argument sent past the recent arguments to the table. */
uint64_t tex_warp_vec_log2_table_count(void);
/* Tests: those of them (AVX2 variant) whose lanes' arguments came in pairs, looked up one
 * gather element a pair (tex_warp_vec.c log2_table_pairs_avx2). */
uint64_t tex_warp_vec_log2_pair_count(void);
/* Tests: the calling thread's kernel log2 results computed (by libm) where the table
 * missed them, lane by lane. */
uint64_t tex_warp_vec_log2_computed_count(void);
/* Tests: the calling thread's kernel log2 lookups (AVX-512 variant) that the recent
 * arguments missed and the register cache answered in every lane (tex_warp_vec.c
 * log2_lanes); the cache emptied; the cache slot of an argument. */
uint64_t tex_warp_vec_log2_cache_count(void);
void tex_warp_vec_log2_cache_clear(void);
unsigned tex_warp_vec_log2_cache_slot(float x);

/* The checks every warp-wide path shares (tex_warp.c; tex_warp_aniso.c too), after its
 * own op / target / flag checks: some lane active, one handle for every active lane, which
 * resolves to a 2D-compatible unorm8x4 view with normalized coordinates, no sRGB decode,
 * integer format or min/max reduction, and current host memory. */
bool tex_warp_common(tv_tex_unit *unit, const tv_tex_request *req, const tex_view **view,
                     const tex_sampler **sampler);

/* The unit's descriptor-cache stamp (tex_pool.c): its id (unique per unit ever created)
 * and the epoch every cache clear bumps. State derived from resolved descriptors stays
 * valid while both (and the memory generation) are unchanged. */
void tex_cache_stamp(const tv_tex_unit *unit, uint64_t *id, uint64_t *epoch);

#define TEX_WARP_MAX_BIAS 15.99609375f /* as tex_lod.c */
#define TEX_WARP_MIN_LOG2_RATIO -16.0f

typedef struct warp_level {       /* one view level, hoisted */
    float wf, hf;                 /* size as floats (the coordinate scale) */
    uint32_t w, h;
    uint64_t base;                /* level_offset (layer 0) */
    unsigned abs;                 /* absolute level */
    /* tex_bl_col / tex_bl_row constants (tex_formulas.h): pitch, or block-linear GOB
     * block height (log2), shift of a block and GOBs per row */
    bool pitch_layout;
    uint32_t pitch, gobs_x;
    unsigned bh, shift;
} warp_level;

/* The vpshufb control word for the byte at bit SH of every 32-bit texel word: bytes 0..2
 * take it and byte 3 is zeroed (index bit 7) — h, the AVX2 tap sums' —, or all four bytes
 * take it — H, AVX-512's (FOUR); tex_warp_vec_taps.h adds each word's byte offset */
static inline int32_t tex_warp_tap_ctl(int sh, bool four)
{
    uint32_t b = (uint32_t)sh >> 3;
    return (int32_t)(four ? b * 0x01010101u : b * 0x010101u | 0x80000000u);
}

/* The request-wide state (tex_warp.c warp_setup); lv[] is filled only by the general lane
 * passes (warp_levels), the vector kernel derives the one or two levels it reads. */
typedef struct warp_ctx {
    tv_tex_unit *unit;
    const tex_view *v;
    uint8_t wrap[2];
    uint8_t mag, min, mip;
    uint32_t base_level, q;
    float scale[2];
    float sbias, lod_min, lod_max;
    int swz[4];                   /* result component c = channel swz[c], or konst[c] */
    uint32_t konst[4];
    /* the bit position of the texel word's byte result component c reads (read by the
       vector kernel), -1 where konst[c] gives it */
    int shift[4];
    /* the wide tap sums' byte-shuffle control word of each component (tex_warp_tap_ctl of
       shift[c], 0 where konst[c] gives it): bytes 0..2 (AVX2, ctl3) or all four (AVX-512,
       ctl4) — once per context, not per level pass */
    int32_t ctl3[4], ctl4[4];
    uint8_t chan_mask; /* bit c: result component c is read from the texel (shift[c] >= 0) */
    bool pitch;        /* the view's layout is pitch, so every level's (tex_fast_pitch_layout) */
    /* the vector kernel's per-context tests (tex_warp_vec.c), once per context instead of
       per request: the magnification / minification filter is linear (LINEAR, or ANISO's
       footprint filter), and the magnification shortcut's sampler conditions hold
       (tex_warp_vec_mag_conditions) */
    bool mag_lin, min_lin, mag_ok;
    /* nonzero: this thread's setup memo made the context, and no other context it made
       has this number (tex_warp_vec_level.h keeps the levels it computed under it); 0
       from tex_warp_hoist alone */
    uint64_t gen;
    warp_level lv[TEX_MAX_LEVELS];
} warp_ctx;

/* The footprint's axes (tex_lod.c footprint(), two dimensions): the texel-space lengths of
 * the x and y derivative vectors (scaled by scale[]), the major one, the unit major axis
 * (mu, mv) and log2(minor / major) clamped at -16 — the QUERY_LOD extras, zero unless the
 * major length is finite and positive. */
typedef struct warp_axes {
    float rmax, rmin, mu, mv, lr;
    bool x_major;
} warp_axes;
void tex_warp_axes(const float scale[2], float dx0, float dx1, float dy0, float dy1,
                   warp_axes *a);

/* After tex_warp_common and a path's own filter checks: the sampler and view state of the
 * request (filters, wraps — false unless REPEAT / MIRROR / CLAMP_TO_EDGE —, mip mode,
 * base level and level count q — false past TEX_MAX_LEVELS —, coordinate scale, bias and
 * LOD clamps, swizzle), as tex_execute.c setup_ctx + tex_lod_scale. lv[] is not filled. */
bool tex_warp_hoist(tv_tex_unit *unit, const tex_view *v, const tex_sampler *s, warp_ctx *w);

/* An 8-bit UNORM byte as a float without a division, bit-identical to the decoder's
 * table (tex_unorm8[b] = b / 255.0f, correctly rounded): b/255 = h·2^-24·(1 + 2^-24 +
 * 2^-48 + …) with h = b·0x010101 (the byte repeated). h and h·2^-24 are exact, the sum
 * h + h·2^-24 is rounded once, and the rest of the series (below 2^-24 of h's last bit)
 * cannot move it across a rounding boundary: the sum's last set bit lies below every
 * halfway point, so it is never a tie. The final scaling is exact.
 * tests/tex/test_fastpath_warp_full.c checks all 256 bytes. */
#if defined(__GNUC__) /* always inlined: the kernels' tunings differ from the default's */
__attribute__((always_inline))
#endif
static inline float tex_warp_unorm8(uint32_t b)
{
    float h = (float)(int32_t)(b * 0x010101u);
    return (h + h * 0x1p-24f) * 0x1p-24f;
}

/* The sampler conditions of the vector kernel's magnification shortcut (the proof is at
 * its definition, tex_warp_vec.c), from the hoisted bias and LOD clamps. */
bool tex_warp_vec_mag_conditions(const warp_ctx *w);

/* Level constants of view level `rel` (relative to the base level). */
void tex_warp_level(const warp_ctx *w, uint32_t rel, warp_level *L);

/* The view's swizzle as a selection: result component c is channel swz[c] of the texel,
 * or the constant konst[c] where swz[c] is -1. */
void tex_warp_swizzle_select(const tex_view *v, int swz[4], uint32_t konst[4]);

/* Every lane's projected s and t (tex_execute.c project(): divided by q when PROJ). */
static inline void tex_warp_project(const tv_tex_request *req, bool proj,
                                    float cs[TV_TEX_LANES], float ct[TV_TEX_LANES])
{
    for (unsigned l = 0; l < TV_TEX_LANES; l++) {
        float qd = proj ? req->q[l] : 1.0f;
        cs[l] = proj ? req->coord[0][l] / qd : req->coord[0][l];
        ct[l] = proj ? req->coord[1][l] / qd : req->coord[1][l];
    }
}

/* Quad difference sources per lane (tex_execute.c quad_dx / quad_dy): value = c[hi] - c[lo]
 * when ok, else 0. */
void tex_warp_quad_sources(uint32_t present, uint8_t xlo[TV_TEX_LANES],
                           uint8_t xhi[TV_TEX_LANES], bool xok[TV_TEX_LANES],
                           uint8_t ylo[TV_TEX_LANES], uint8_t yhi[TV_TEX_LANES],
                           bool yok[TV_TEX_LANES]);

/* The vectorised kernel (tex_warp_vec.c): the whole request as fixed-length loops over the
 * 32 lanes, when its conditions hold (checked first per request, then per lane: see the
 * file). Returns false, having written nothing, otherwise; the general lane passes then
 * answer. Bit-identical to them. */
bool tex_warp_vec(const warp_ctx *w, const tv_tex_request *req, tv_tex_result *res);

/* The anisotropic path's probes as vector passes (tex_warp_aniso.c, then tex_warp_vec.c):
 * what each lane's footprint and λ gave. Every active lane reads the same level slots —
 * l0 and, when two, l1 (relative to the base level) — with the same filter (lin); per
 * lane: the projected coordinates, offsets, array layer, probe count n >= 1 and step
 * (ds, dt), and the mip weights w0, w1 (read when two). */
typedef struct warp_probes {
    uint32_t active;
    uint32_t l0, l1;
    bool two, lin;
    float s[TV_TEX_LANES], t[TV_TEX_LANES], offu[TV_TEX_LANES], offv[TV_TEX_LANES];
    float ds[TV_TEX_LANES], dt[TV_TEX_LANES], w0[TV_TEX_LANES], w1[TV_TEX_LANES];
    uint32_t layer[TV_TEX_LANES], n[TV_TEX_LANES];
} warp_probes;

/* tex_filter_sample's probe average for every active lane at once: probe p of lane l at
 * st + k·step (k = p/(n+1) - 0.5; the lane's own st when n = 1), each probe one or two
 * levels through the kernel's level-slot pass and blended w0·a + w1·b, summed from the
 * first probe and divided by n (not when n = 1) — per lane the general path's float
 * operations in its order. Writes the result words of the active lanes (the view's
 * swizzle applied) and returns true, or returns false having written nothing when the
 * kernel cannot read the levels (as tex_warp_vec) or an active lane's texel coordinate
 * leaves |x| < 2^23. */
bool tex_warp_vec_probes(const warp_ctx *w, const warp_probes *P,
                         uint32_t out[4][TV_TEX_LANES]);
/* Tests: the calling thread's requests whose probes tex_warp_vec_probes answered. */
uint64_t tex_warp_vec_probe_count(void);

#endif
