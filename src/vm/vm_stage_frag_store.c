/* The colour store of a fully live 8x4 fragment tile: the four channel slots (one value
 * per lane) become one 16-byte pixel per lane, 4 rows of 8 pixels in the target.
 *
 * A 1920x1080 RGBA32F target is 33 MB, about the size of the last-level cache. A tile's
 * stores wait for their lines (perf annotate of frag_job: 25% of its samples on the first
 * register writes of the next warp, queued behind them in the store buffer), so the
 * lines of the tile two to the right are prefetched for writing (PREFETCHW,
 * util/prefetch.h: bilinear 4 % and null 2-12 % faster than the read prefetch GCC had
 * made of it, on the Intel model 0xcf core), and with AVX-512 a tile
 * whose rows are whole 64-byte lines (64-byte aligned base and row pitch) is written as
 * 8 line-sized stores instead of 32 16-byte ones; with AVX2, a tile whose rows start on
 * 32 bytes as 16 32-byte ones (fewer entries in the store queue while it waits for its
 * lines). A store across two lines costs more than two narrower ones, so other targets
 * keep the SSE2 transposes. Non-temporal
 * stores were tried and not kept (docs/history/performance-log.md §4.7). The variants move the same
 * bytes to the same places (tests/vm/test_frag_store.c). A tile of outputs stored many
 * times (a constant colour's, vm_stage_frag.c uniform_tile) is stored once into a tile
 * image and copied from it (vm_frag_copy_tile: two 64-byte moves a row where the rows are
 * whole lines), without the transposes. */
#include "vm/vm_stage_frag_store.h"

#include <string.h>

#include "vm/vm_run.h"
#include "util/cpu_isa.h"
#include "util/prefetch.h"
#include "util/tile_lanes.h"


#if defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>
#define FS_X86 1
#else
#define FS_X86 0
#endif

unsigned vm_frag_store_isa_run(const vm_run *run)
{
    unsigned isa = vm_frag_store_isa();
    const tv_vm *vm = run->vm;
    return vm->store_capped && isa > vm->store_cap ? vm->store_cap : isa;
}

const char *const vm_frag_store_names[VM_STORE_VARIANTS] = {
    [VM_STORE_C] = "generic", [VM_STORE_SSE2] = "sse2", [VM_STORE_AVX2] = "avx2",
    [VM_STORE_AVX512] = "avx512"};

void vm_frag_store_limit_isa(tv_vm *vm, unsigned cap)
{
    vm->store_capped = cap < VM_STORE_AVX512;
    vm->store_cap = (uint8_t)(cap < VM_STORE_AVX512 ? cap : VM_STORE_AVX512);
}

unsigned vm_frag_store_isa(void)
{
#if FS_X86
    if (tv_cpu_avx512f())
        return VM_STORE_AVX512;
    if (tv_cpu_avx2())
        return VM_STORE_AVX2;
    return VM_STORE_SSE2;
#else
    return VM_STORE_C;
#endif
}

static void store_c(uint32_t *t0, size_t row, const vm_slot *o)
{
    for (unsigned l = 0; l < VM_LANES; l++) {
        uint32_t *d = t0 + (uint32_t)tv_tile_lane_y[l] * row + (uint32_t)tv_tile_lane_x[l] * 4u;
        d[0] = o[0].u[l]; d[1] = o[1].u[l]; d[2] = o[2].u[l]; d[3] = o[3].u[l];
    }
}

#if FS_X86
/* The lines of the tile two to the right (its 4 rows of 128 bytes), for writing
 * (TV_PREFETCH_W: a plain __builtin_prefetch loop here was deleted, util/prefetch.h) */
static void prefetch_ahead(uint32_t *t0, size_t row)
{
    for (unsigned y = 0; y < 4; y++) {
        const char *a = (const char *)(t0 + y * row) + 2 * 8 * 16;
        TV_PREFETCH_W(a);
        TV_PREFETCH_W(a + 64);
    }
}

/* SSE2: a quad's four lanes are one 4x4 transpose (pixels TL, TR, BL, BR). */
static void store_sse2(uint32_t *t0, size_t row, const vm_slot *o)
{
    for (unsigned q = 0; q < VM_LANES / 4; q++) {
        __m128i c0 = _mm_loadu_si128((const __m128i *)(const void *)&o[0].u[4 * q]);
        __m128i c1 = _mm_loadu_si128((const __m128i *)(const void *)&o[1].u[4 * q]);
        __m128i c2 = _mm_loadu_si128((const __m128i *)(const void *)&o[2].u[4 * q]);
        __m128i c3 = _mm_loadu_si128((const __m128i *)(const void *)&o[3].u[4 * q]);
        __m128i a01 = _mm_unpacklo_epi32(c0, c1), a23 = _mm_unpacklo_epi32(c2, c3);
        __m128i b01 = _mm_unpackhi_epi32(c0, c1), b23 = _mm_unpackhi_epi32(c2, c3);
        __m128i p[4] = {_mm_unpacklo_epi64(a01, a23), _mm_unpackhi_epi64(a01, a23),
                        _mm_unpacklo_epi64(b01, b23), _mm_unpackhi_epi64(b01, b23)};
        uint32_t *d = t0 + (uint32_t)tv_tile_lane_y[4 * q] * row + (uint32_t)tv_tile_lane_x[4 * q] * 4u;
        __m128i *at[4] = {(__m128i *)(void *)d, (__m128i *)(void *)(d + 4),
                          (__m128i *)(void *)(d + row), (__m128i *)(void *)(d + row + 4)};
        for (unsigned k = 0; k < 4; k++)
            _mm_storeu_si128(at[k], p[k]);
    }
}

/* AVX2: eight lanes (two quads side by side) at a time, the SSE2 transpose in each
 * 128-bit half; a 32-byte store takes a quad's two pixels of one row. */
__attribute__((target("avx2"))) static void store_avx2(uint32_t *t0, size_t row,
                                                        const vm_slot *o)
{
    for (unsigned g = 0; g < VM_LANES / 8; g++) {   /* quads 2g, 2g + 1 */
        __m256i c0 = _mm256_loadu_si256((const __m256i *)(const void *)&o[0].u[8 * g]);
        __m256i c1 = _mm256_loadu_si256((const __m256i *)(const void *)&o[1].u[8 * g]);
        __m256i c2 = _mm256_loadu_si256((const __m256i *)(const void *)&o[2].u[8 * g]);
        __m256i c3 = _mm256_loadu_si256((const __m256i *)(const void *)&o[3].u[8 * g]);
        __m256i a01 = _mm256_unpacklo_epi32(c0, c1), a23 = _mm256_unpacklo_epi32(c2, c3);
        __m256i b01 = _mm256_unpackhi_epi32(c0, c1), b23 = _mm256_unpackhi_epi32(c2, c3);
        /* per half (quad): pixel TL, TR, BL, BR */
        __m256i tl = _mm256_unpacklo_epi64(a01, a23), tr = _mm256_unpackhi_epi64(a01, a23);
        __m256i bl = _mm256_unpacklo_epi64(b01, b23), br = _mm256_unpackhi_epi64(b01, b23);
        uint32_t *d = t0 + (uint32_t)tv_tile_lane_y[8 * g] * row +
                      (uint32_t)tv_tile_lane_x[8 * g] * 4u;
        _mm256_storeu_si256((__m256i *)(void *)d, _mm256_permute2x128_si256(tl, tr, 0x20));
        _mm256_storeu_si256((__m256i *)(void *)(d + 8), _mm256_permute2x128_si256(tl, tr, 0x31));
        _mm256_storeu_si256((__m256i *)(void *)(d + row),
                            _mm256_permute2x128_si256(bl, br, 0x20));
        _mm256_storeu_si256((__m256i *)(void *)(d + row + 8),
                            _mm256_permute2x128_si256(bl, br, 0x31));
    }
}

/* AVX-512: per row of the tile, two permutes gather its 8 pixels' (c0, c1) and (c2, c3)
 * pairs from the half of the lanes holding that row, two more build its two 64-byte
 * halves (pixels 0-3 and 4-7): util/tile_lanes.h's indices. */
__attribute__((target("avx512f"))) static void store_avx512(uint32_t *t0, size_t row,
                                                            const vm_slot *o)
{
    const __m512i pe = _mm512_loadu_si512(tv_tile_pair_idx[0]),
                 po = _mm512_loadu_si512(tv_tile_pair_idx[1]);
    const __m512i x0 = _mm512_loadu_si512(tv_tile_pix_idx[0]),
                 x1 = _mm512_loadu_si512(tv_tile_pix_idx[1]);
    for (unsigned h = 0; h < 2; h++) {   /* lanes 0-15: rows 0-1; lanes 16-31: rows 2-3 */
        __m512i c0 = _mm512_loadu_si512(&o[0].u[16 * h]);
        __m512i c1 = _mm512_loadu_si512(&o[1].u[16 * h]);
        __m512i c2 = _mm512_loadu_si512(&o[2].u[16 * h]);
        __m512i c3 = _mm512_loadu_si512(&o[3].u[16 * h]);
        for (unsigned p = 0; p < 2; p++) {
            __m512i ix = p ? po : pe;
            __m512i a = _mm512_permutex2var_epi32(c0, ix, c1);
            __m512i b = _mm512_permutex2var_epi32(c2, ix, c3);
            __m512i lo = _mm512_permutex2var_epi32(a, x0, b);
            __m512i hi = _mm512_permutex2var_epi32(a, x1, b);
            uint32_t *d = t0 + (2 * h + p) * row;
            _mm512_storeu_si512(d, lo);
            _mm512_storeu_si512(d + 16, hi);
        }
    }
}
#endif

#if FS_X86
/* a row of 128 bytes as two 64-byte stores (T0's rows start on 64-byte lines) */
__attribute__((target("avx512f"))) static void copy_avx512(uint32_t *t0, size_t row,
                                                           const vm_frag_tile_image img)
{
    for (unsigned y = 0; y < 4; y++) {
        _mm512_storeu_si512(t0 + y * row, _mm512_loadu_si512(img[y]));
        _mm512_storeu_si512(t0 + y * row + 16, _mm512_loadu_si512(img[y] + 16));
    }
}
#endif

void vm_frag_copy_tile(unsigned isa, uint32_t *t0, size_t row, const vm_frag_tile_image img,
                       bool ahead)
{
#if FS_X86
    if (ahead)
        prefetch_ahead(t0, row);
    const uintptr_t at = (uintptr_t)t0 | (uintptr_t)(row * 4u);
    if (isa >= VM_STORE_AVX512 && (at & 63u) == 0) {
        copy_avx512(t0, row, img);
        return;
    }
#else
    (void)isa;
    (void)ahead;
#endif
    for (unsigned y = 0; y < 4; y++)
        memcpy(t0 + y * row, img[y], sizeof img[y]);
}

void vm_frag_store_tile(unsigned isa, uint32_t *t0, size_t row, const vm_slot *o, bool ahead)
{
#if FS_X86
    if (ahead)
        prefetch_ahead(t0, row);
    /* whole lines: every row of the tile starts a 64-byte line (8 pixels: two lines) */
    const uintptr_t at = (uintptr_t)t0 | (uintptr_t)(row * 4u);
    if (isa >= VM_STORE_AVX512 && (at & 63u) == 0)
        store_avx512(t0, row, o);
    else if (isa >= VM_STORE_AVX2 && (at & 31u) == 0)   /* no store across two lines */
        store_avx2(t0, row, o);
    else if (isa >= VM_STORE_SSE2)
        store_sse2(t0, row, o);
    else
        store_c(t0, row, o);
#else
    (void)isa;
    (void)ahead;
    store_c(t0, row, o);
#endif
}
