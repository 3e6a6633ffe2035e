/* The log2f memo of the vectorised warp kernel (tex_warp_vec.c): log2f per lane as
 * libm's own bits without calling it per lane. log2f (and log2f(sqrtf(x))) is a pure
 * function of its argument's bits, so any result stored for the same bits is the
 * library's; a per-thread table of (argument bits -> result) answers, and before it the
 * few recent arguments of each kind compared in registers, on AVX-512 a register cache of
 * the table's results, and on AVX2 the table looked up one gather element per pair of
 * lanes where the lanes' arguments pair up. Only misses call libm. The bit-identity
 * argument is the one at the top of tex_warp_vec.c.
 *
 * Included by tex_warp_vec.c only (after tex_warp_vec_lanes.h): a header, not a
 * translation unit, because log2_lanes is inlined into each instruction-set variant of
 * the kernel (its out-of-line parts are marked LOG2_COLD and compiled per variant). */
#ifndef TEXVM_TEX_WARP_VEC_LOG2_H
#define TEXVM_TEX_WARP_VEC_LOG2_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "tex/fast/tex_warp_vec_lanes.h"

#define MEMO_BITS 9
#define MEMO_SIZE (1u << MEMO_BITS)
#define MEMO_ONE 0x3f800000u /* keys are stored xor 1.0f: the zeroed memo maps 1.0f to +0 */
#define RECENT 4
#define CACHE_BITS 6
#define CACHE_SIZE (1u << CACHE_BITS) /* 4 registers of keys, 4 of results */
#define CACHE_FEW 8 /* lanes past the cache looked up one by one, more by gathers */

/* entry = key | result bits << 32: one 64-bit gather per lane finds both (two 32-bit
 * gathers of separate arrays cost twice the gather elements) */
typedef struct log2_memo {
    uint64_t ent[MEMO_SIZE];
    /* the same for log2f(sqrtf(x)) (kind 2: squared lengths, whose root is only the
     * log's argument): a pure function of x's bits too, so the hits spare the roots */
    uint64_t ent_root[MEMO_SIZE];
    /* the few arguments the last lookup that missed them met (keys xor 1.0f, as above):
     * a request's lanes carry only two or three distinct lengths in the common jobs
     * (trilinear: 98% of requests at most three), and the next requests mostly the same
     * ones, so compares against these, in registers, answer most requests without the
     * table's gathers; one set per kind of argument (major lengths, their ratios, squared
     * major lengths), each kind's lookups refilling its own */
    uint32_t rkey[3][RECENT], rval[3][RECENT];
    /* per kind, the lookups in a row that the recent arguments did not answer (0 after
     * one they answered): where they keep missing (a minified map rotated against the
     * texture: every quad's lengths differ in their last bits), refilling them after
     * each miss costs more than it saves (log2_lanes) */
    uint32_t streak[3];
    /* AVX-512: per kind, a second level between the recent arguments and the table, the
     * register cache — CACHE_SIZE (argument, result) entries (keys xor 1.0f, as above:
     * the zeroed cache maps 1.0f to +0, log2f(1) and log2f(sqrtf(1))), direct-mapped by
     * the argument's hash (cache_slot), read for 16 lanes at a time by two-source
     * permutes of its eight registers instead of the table's gathers: a map whose lanes'
     * lengths vary from quad to quad (turned against the texture, perspective) carries
     * 5-10 distinct arguments a request, too many for the recent arguments, but few
     * across neighbouring requests (the suite's rotated map: 82 % of its requests
     * answered here, the table's gathers −4 % of the frame); each lane it misses takes
     * the table's result into its slot */
    uint32_t ckey[3][CACHE_SIZE], cval[3][CACHE_SIZE];
    uint64_t table; /* the lookups that went to the table (tex_warp_vec_log2_table_count) */
    uint64_t cached; /* those the register cache answered (tex_warp_vec_log2_cache_count) */
    uint64_t paired; /* table lookups in pairs (AVX2; tex_warp_vec_log2_pair_count) */
    uint64_t computed; /* results the table missed (tex_warp_vec_log2_computed_count) */
} log2_memo;

/* (on cache lines of its own, so that its layout against them does not move with the
 * other thread-locals: its 16-byte rows of recent arguments never straddle two) */
static _Thread_local _Alignas(64) log2_memo tls_memo;

uint64_t tex_warp_vec_log2_table_count(void)
{
    return tls_memo.table;
}

uint64_t tex_warp_vec_log2_pair_count(void)
{
    return tls_memo.paired;
}

uint64_t tex_warp_vec_log2_computed_count(void)
{
    return tls_memo.computed;
}

uint64_t tex_warp_vec_log2_cache_count(void)
{
    return tls_memo.cached;
}

void tex_warp_vec_log2_cache_clear(void)
{
    memset(tls_memo.ckey, 0, sizeof tls_memo.ckey);
    memset(tls_memo.cval, 0, sizeof tls_memo.cval);
}

/* an int32 (not uint32) index: see the texel gathers in slot_pass */
VEC_INLINE int32_t memo_slot(uint32_t bits)
{
    return (int32_t)((bits * 0x9e3779b1u) >> (32 - MEMO_BITS));
}

/* A miss of the memo table ent (m->ent, or m->ent_root where root): log2f(x) —
 * log2f(sqrtf(x)) where root — computed and stored in x's entry */
static float memo_fill(log2_memo *m, uint64_t *ent, bool root, float x)
{
    uint32_t b = fb(x);
    float r = log2f(root ? sqrtf(x) : x);
    ent[memo_slot(b)] = (uint64_t)(b ^ MEMO_ONE) | (uint64_t)fb(r) << 32;
    m->computed++;
    return r;
}

/* One argument through a memo table (m->ent, or m->ent_root where root): the stored
 * result where its entry holds x's bits, else memo_fill's */
static inline float memo_lookup(log2_memo *m, bool root, float x)
{
    uint64_t *ent = root ? m->ent_root : m->ent;
    uint32_t b = fb(x);
    uint64_t e = ent[memo_slot(b)];
    if (((uint32_t)e ^ MEMO_ONE) == b)
        return bf((uint32_t)(e >> 32));
    return memo_fill(m, ent, root, x);
}

/* the register cache's slot (the table's hash, its top CACHE_BITS bits) */
VEC_INLINE uint32_t cache_slot(uint32_t bits)
{
    return (bits * 0x9e3779b1u) >> (32 - CACHE_BITS);
}

unsigned tex_warp_vec_log2_cache_slot(float x)
{
    return cache_slot(fb(x));
}

/* the table's part of log2_lanes: out[l] for the lanes where need[l] — log2f(x[l]), or
 * log2f(sqrtf(x[l])) where root (the table ent_root) */
VEC_INLINE void log2_table_body(log2_memo *m, bool root, const float *x, const uint32_t *need,
                                float *out)
{
    uint64_t *ent = root ? m->ent_root : m->ent;
    uint32_t miss[N], any = 0;
    for (unsigned l = 0; l < N; l++) {
        uint32_t b = fb(x[l]);
        uint64_t e = ent[memo_slot(b)];
        out[l] = fsel(need[l], bf((uint32_t)(e >> 32)), out[l]);
        miss[l] = need[l] & (uint32_t)(((uint32_t)e ^ MEMO_ONE) != b);
    }
    for (unsigned l = 0; l < N; l++)
        any |= miss[l];
    if (!any)
        return;
    for (unsigned l = 0; l < N; l++)
        if (miss[l])
            out[l] = memo_fill(m, ent, root, x[l]);
}

/* ... compiled for each ISA variant (its lookups the variant's gathers) but out of the
 * kernel's line: the kernel's own code stays as short as before the recent arguments,
 * which answer most requests (inlined, the table cost trilinear ≈ 2.7%) */
#if defined(__GNUC__)
#define LOG2_COLD __attribute__((noinline))
#else
#define LOG2_COLD
#endif
#if TEX_WIDE_VECTORS
TEX_TARGET_AVX512 LOG2_COLD static void log2_table_avx512(log2_memo *m, bool root,
                                                        const float *x, const uint32_t *need,
                                                        float *out)
{
    log2_table_body(m, root, x, need, out);
}

/* AVX2: the table's lookups where the lanes' arguments come in pairs — every lane's bits
 * those of the lane two (or one) along in its quad: the lanes of a quad take their
 * differences from their own row and column (vec_body), and where one axis is the major
 * one its squared length is a row's or a column's, so the suite's rotated map, every
 * table lookup of it — one gather element per pair instead of per lane (the pair's first
 * lane's entry, expanded to both by a permute), half the gathers, which were the table's
 * cost. Each lane compares the entry with its own bits, so the outcome is
 * log2_table_body's lane for lane: the same results, the same misses (the pair's two
 * lanes have the same slot), computed and stored alike. False, nothing read or written,
 * where the arguments do not pair. */
TEX_TARGET_AVX2 static inline bool log2_table_pairs_avx2(log2_memo *m, bool root,
                                                         const float *x, const uint32_t *need,
                                                         float *out)
{
    __m256i v[N / 8], eq2 = _mm256_set1_epi32(-1), eq1 = eq2;
    for (unsigned i = 0; i < N / 8; i++) {
        v[i] = _mm256_loadu_si256((const __m256i *)(const void *)&x[8 * i]);
        eq2 = _mm256_and_si256(eq2, _mm256_cmpeq_epi32(v[i], _mm256_shuffle_epi32(v[i], 0x4e)));
        eq1 = _mm256_and_si256(eq1, _mm256_cmpeq_epi32(v[i], _mm256_shuffle_epi32(v[i], 0xb1)));
    }
    __m256i first, key, val; /* per 8 lanes: the pairs' first lanes; each lane's key, value */
    if (_mm256_movemask_epi8(eq2) == -1) { /* lanes l and l ^ 2 */
        first = _mm256_setr_epi32(0, 1, 4, 5, 0, 1, 4, 5);
        key = _mm256_setr_epi32(0, 2, 0, 2, 4, 6, 4, 6);
    } else if (_mm256_movemask_epi8(eq1) == -1) { /* lanes l and l ^ 1 */
        first = _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6);
        key = _mm256_setr_epi32(0, 0, 2, 2, 4, 4, 6, 6);
    } else {
        return false;
    }
    val = _mm256_add_epi32(key, _mm256_set1_epi32(1));
    m->paired++;
    uint64_t *ent = root ? m->ent_root : m->ent;
    const __m256i gold = _mm256_set1_epi32((int)0x9e3779b1u);
    const __m256i one = _mm256_set1_epi32((int)MEMO_ONE);
    __m256i e[N / 8];
    for (unsigned i = 0; i < N / 8; i++) { /* all gathers before their uses */
        __m256i h = _mm256_srli_epi32(_mm256_mullo_epi32(v[i], gold), 32 - MEMO_BITS);
        h = _mm256_permutevar8x32_epi32(h, first);
        e[i] = _mm256_i32gather_epi64((const long long *)(const void *)ent,
                                      _mm256_castsi256_si128(h), 8);
    }
    uint32_t miss = 0;
    for (unsigned i = 0; i < N / 8; i++) {
        __m256i k = _mm256_permutevar8x32_epi32(e[i], key);
        __m256i r = _mm256_permutevar8x32_epi32(e[i], val);
        __m256i nd = _mm256_cmpgt_epi32(
            _mm256_loadu_si256((const __m256i *)(const void *)&need[8 * i]),
            _mm256_setzero_si256());
        __m256i hit = _mm256_cmpeq_epi32(k, _mm256_xor_si256(v[i], one));
        __m256i o = _mm256_loadu_si256((const __m256i *)(const void *)&out[8 * i]);
        _mm256_storeu_si256((__m256i *)(void *)&out[8 * i], _mm256_blendv_epi8(o, r, nd));
        miss |= (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_andnot_si256(hit, nd)))
                << (8 * i);
    }
    for (; miss; miss &= miss - 1u) { /* (log2_table_body's misses, in lane order) */
        unsigned l = (unsigned)__builtin_ctz(miss);
        out[l] = memo_fill(m, ent, root, x[l]);
    }
    return true;
}

TEX_TARGET_AVX2 LOG2_COLD static void log2_table_avx2(log2_memo *m, bool root, const float *x,
                                                    const uint32_t *need, float *out)
{
    if (!log2_table_pairs_avx2(m, root, x, need, out))
        log2_table_body(m, root, x, need, out);
}
#endif

LOG2_COLD static void log2_table_base(log2_memo *m, bool root, const float *x,
                                      const uint32_t *need, float *out)
{
    log2_table_body(m, root, x, need, out);
}

VEC_INLINE void log2_table(log2_memo *m, bool root, const float *x, const uint32_t *need,
                           float *out, unsigned isa)
{
#if TEX_WIDE_VECTORS
    if (isa == 2) {
        log2_table_avx512(m, root, x, need, out);
        return;
    }
    if (isa == 1) {
        log2_table_avx2(m, root, x, need, out);
        return;
    }
#endif
    (void)isa;
    log2_table_base(m, root, x, need, out);
}

#if TEX_WIDE_VECTORS
/* The register cache of kind `kind` for the lanes where miss[l]: out[l] = the cached
 * result where the lane's argument is in its slot; returns the lanes it misses (bit l). */
TEX_TARGET_AVX512 static inline uint32_t log2_cache_avx512(const log2_memo *m, unsigned kind,
                                                           const float *x,
                                                           const uint32_t *miss, float *out)
{
    const uint32_t *ck = m->ckey[kind], *cv = m->cval[kind];
    const __m512i k0 = _mm512_loadu_si512((const void *)ck);
    const __m512i k1 = _mm512_loadu_si512((const void *)(ck + 16));
    const __m512i k2 = _mm512_loadu_si512((const void *)(ck + 32));
    const __m512i k3 = _mm512_loadu_si512((const void *)(ck + 48));
    const __m512i v0 = _mm512_loadu_si512((const void *)cv);
    const __m512i v1 = _mm512_loadu_si512((const void *)(cv + 16));
    const __m512i v2 = _mm512_loadu_si512((const void *)(cv + 32));
    const __m512i v3 = _mm512_loadu_si512((const void *)(cv + 48));
    const __m512i b5 = _mm512_set1_epi32(32);
    const __m512i gold = _mm512_set1_epi32((int)0x9e3779b1u);
    const __m512i one = _mm512_set1_epi32((int)MEMO_ONE);
    uint32_t left = 0;
    for (unsigned l = 0; l < N; l += 16) {
        __m512i b = _mm512_loadu_si512((const void *)&x[l]);
        __m512i h = _mm512_srli_epi32(_mm512_mullo_epi32(b, gold), 32 - CACHE_BITS);
        __mmask16 up = _mm512_test_epi32_mask(h, b5);
        __m512i k = _mm512_mask_blend_epi32(up, _mm512_permutex2var_epi32(k0, h, k1),
                                            _mm512_permutex2var_epi32(k2, h, k3));
        __m512i want = _mm512_loadu_si512((const void *)&miss[l]);
        __mmask16 w = _mm512_test_epi32_mask(want, want);
        __mmask16 hit = w & _mm512_cmpeq_epi32_mask(k, _mm512_xor_si512(b, one));
        __m512i v = _mm512_mask_blend_epi32(up, _mm512_permutex2var_epi32(v0, h, v1),
                                            _mm512_permutex2var_epi32(v2, h, v3));
        _mm512_mask_storeu_epi32((void *)&out[l], hit, v);
        left |= (uint32_t)(w & (__mmask16)~hit) << l;
    }
    return left;
}
#endif

#if TEX_WIDE_VECTORS /* (used by the AVX-512 variant only) */
/* The register cache's slots of the lanes of `left` (bit l) take their arguments and
 * results (out). */
static void log2_cache_fill(log2_memo *m, unsigned kind, const float *x, uint32_t left,
                            const float *out)
{
    for (; left; left &= left - 1u) {
        unsigned l = (unsigned)__builtin_ctz(left);
        uint32_t b = fb(x[l]), c = cache_slot(b);
        m->ckey[kind][c] = b ^ MEMO_ONE;
        m->cval[kind][c] = fb(out[l]);
    }
}

/* The lanes of `left` (bit l) through the table one by one. */
static void log2_table_few(log2_memo *m, bool root, const float *x, uint32_t left, float *out)
{
    for (; left; left &= left - 1u) {
        unsigned l = (unsigned)__builtin_ctz(left);
        out[l] = memo_lookup(m, root, x[l]);
    }
}
#endif

#if TEX_WIDE_VECTORS
/* AVX-512: the lanes where miss[l] through the register cache, then the table for the
 * lanes it misses: one by one when they are few (the usual miss: a lane or two), else by
 * the table's gathers; their results into the cache */
TEX_TARGET_AVX512 static inline void log2_past_recent_avx512(log2_memo *m, unsigned kind,
                                                             const float *x,
                                                             const uint32_t *miss, float *out)
{
    uint32_t left = log2_cache_avx512(m, kind, x, miss, out);
    if (!left) {
        m->cached++;
        return;
    }
    if (__builtin_popcount(left) <= CACHE_FEW) {
        log2_table_few(m, kind == 2, x, left, out);
    } else {
        uint32_t rest[N];
        for (unsigned l = 0; l < N; l++)
            rest[l] = (left >> l) & 1u;
        log2_table(m, kind == 2, x, rest, out, 2);
    }
    log2_cache_fill(m, kind, x, left, out);
    m->table++;
}
#endif

/* the recent arguments: the first RECENT distinct ones of the lanes where need[l], each
 * with its result (out, the table's) */
static void log2_recent_fill(log2_memo *m, unsigned kind, const float *x,
                             const uint32_t *need, const float *out)
{
    uint32_t *rkey = m->rkey[kind], *rval = m->rval[kind];
    unsigned n = 0;
    for (unsigned l = 0; l < N && n < RECENT; l++) {
        if (!need[l])
            continue;
        uint32_t k = fb(x[l]) ^ MEMO_ONE, j = 0;
        while (j < n && rkey[j] != k)
            j++;
        if (j < n)
            continue;
        rkey[n] = k;
        rval[n] = fb(out[l]);
        n++;
    }
}

/* Whether the recent arguments are refilled at the st-th lookup in a row they did not
 * answer: after the first two, then after every 32nd — a run of misses is a map whose
 * lengths vary from quad to quad, where the refill (a scalar search for distinct
 * arguments, its branches unpredictable) cost about 8 % of the rotated trilinear frame;
 * every 32nd keeps a map that turns uniform again from missing for long
 * (docs/history/performance-log.md §50) */
VEC_INLINE bool recent_refill(uint32_t st)
{
    return st <= 2 || (st & 31u) == 0;
}

/* from this many misses in a row on, AVX-512 and AVX2 lookups skip the recent arguments
 * (log2_lanes) */
#define RECENT_SKIP 8

/* The lanes of `lanes` (lanes[l] 0 or 1) past the recent arguments of kind `kind`: on
 * AVX-512 the register cache, then the table for the lanes it misses (one by one when
 * they are few, the usual miss: a lane or two, else by the table's gathers); otherwise the
 * table (log2_lanes' two ways there: a run of misses and a miss of the recent arguments) */
VEC_INLINE void log2_past_recent(log2_memo *m, unsigned kind, const float *x,
                                 const uint32_t *lanes, float *out, unsigned isa)
{
#if TEX_WIDE_VECTORS
    if (isa == 2) {
        log2_past_recent_avx512(m, kind, x, lanes, out);
        return;
    }
#endif
    log2_table(m, kind == 2, x, lanes, out, isa);
    m->table++;
}

/* out[l] = log2f(x[l]) where need[l] (else anything) — log2f(sqrtf(x[l])) for kind 2 —:
 * the recent arguments of this kind (0 major lengths, 1 ratios, 2 squared major lengths)
 * first, the table for the rest (log2f and sqrtf are pure functions: any stored result
 * of the same argument bits is the library's, of the correctly rounded root) */
VEC_INLINE void log2_lanes(log2_memo *m, unsigned kind, const float *x, const uint32_t *need,
                           float *out, unsigned isa)
{
    uint32_t k[RECENT], v[RECENT], miss[N];
#if TEX_WIDE_VECTORS
    /* in a run of misses the recent arguments are not refilled (recent_refill), so from
       the RECENT_SKIP-th on they would likely miss again: straight to the register cache
       (AVX-512) or the table (AVX2), except at the lookups that refill them and the one
       after each refill (rotated −1.3 to −2.2 % on AVX-512, −3.3 % on AVX2; from the 2nd
       on, trilinear, whose runs are short, 0.5-1 % slower) */
    uint32_t st0 = m->streak[kind];
    if (isa >= 1 && st0 >= RECENT_SKIP && !recent_refill(st0) && !recent_refill(st0 + 1u)) {
        m->streak[kind] = st0 + 1u;
        log2_past_recent(m, kind, x, need, out, isa);
        return;
    }
#endif
    for (unsigned j = 0; j < RECENT; j++) {
        k[j] = m->rkey[kind][j];
        v[j] = m->rval[kind][j];
    }
    for (unsigned l = 0; l < N; l++) {
        uint32_t b = fb(x[l]) ^ MEMO_ONE, r = 0, hit = 0;
        for (unsigned j = 0; j < RECENT; j++) {
            uint32_t e = (uint32_t)(b == k[j]);
            r = isel(e, v[j], r);
            hit |= e;
        }
        out[l] = bf(r);
        miss[l] = need[l] & (hit ^ 1u);
    }
    if (!lanes_any(miss, isa)) {
        m->streak[kind] = 0;
        return;
    }
    log2_past_recent(m, kind, x, miss, out, isa);
    if (recent_refill(++m->streak[kind]))
        log2_recent_fill(m, kind, x, need, out);
}

/* log2f(x) through the memo, one value */
static inline float log2_one(log2_memo *m, float x)
{
    return memo_lookup(m, false, x);
}

#endif
