/* bench_store: this machine's store bandwidth over one buffer, the physical limit of the
 * suite's `null` workload (a constant written to every pixel of an RGBA32F target):
 *   bench_store BYTES [--repeat R]
 * fills a BYTES buffer (touched once first, so page faults are not timed) R times (default
 * 9) each way and prints the medians:
 *   bench_store: BYTES bytes: stores X GB/s, streaming stores Y GB/s
 * "stores" is a plain loop of 16-byte values (the compiler's vector stores: what a cached
 * write path gets), "streaming stores" the same with non-temporal 16-byte stores (x86-64
 * SSE2, the cache bypassed; elsewhere the plain loop again). scripts/bench.sh divides the
 * null workload's bytes per second by the larger of the two. GB = 10^9 bytes. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "bench_clock.h"

#define MAX_BYTES ((size_t)1 << 32) /* 4 GiB: far above any suite target */
#define MAX_REPEAT 1000

/* 16 bytes at a time: an RGBA32F pixel of (0.25, 0.5, 0.75, 1) */
static void fill_plain(uint32_t *p, size_t words)
{
    const uint32_t v[4] = {0x3e800000u, 0x3f000000u, 0x3f400000u, 0x3f800000u};
    for (size_t i = 0; i + 4 <= words; i += 4) {
        p[i] = v[0];
        p[i + 1] = v[1];
        p[i + 2] = v[2];
        p[i + 3] = v[3];
    }
}

static void fill_stream(uint32_t *p, size_t words)
{
#if defined(__SSE2__)
    const __m128i v = _mm_set_epi32(0x3f800000, 0x3f400000, 0x3f000000, 0x3e800000);
    for (size_t i = 0; i + 4 <= words; i += 4)
        _mm_stream_si128((__m128i *)(void *)&p[i], v);
    _mm_sfence();
#else
    fill_plain(p, words);
#endif
}

static double median_gbs(void (*fill)(uint32_t *, size_t), uint32_t *p, size_t bytes,
                         unsigned repeat, volatile uint32_t *sink)
{
    double t[MAX_REPEAT];
    for (unsigned r = 0; r < repeat; r++) {
        double t0 = bench_now();
        fill(p, bytes / 4);
        t[r] = bench_now() - t0;
        *sink += p[(r * 4099u) % (bytes / 4)]; /* the stores are observed */
    }
    qsort(t, repeat, sizeof t[0], bench_cmpd);
    double s = t[repeat / 2];
    return s > 0 ? (double)bytes / s / 1e9 : 0.0;
}

int main(int argc, char **argv)
{
    if (argc != 2 && !(argc == 4 && strcmp(argv[2], "--repeat") == 0)) {
        fprintf(stderr, "usage: bench_store BYTES [--repeat R]\n");
        return 2;
    }
    char *end;
    unsigned long long bytes = strtoull(argv[1], &end, 10);
    if (*end || bytes < 64 || bytes > MAX_BYTES || bytes % 64) {
        fprintf(stderr, "bench_store: BYTES must be a multiple of 64 in 64..%zu, not '%s'\n",
                MAX_BYTES, argv[1]);
        return 2;
    }
    unsigned long repeat = 9;
    if (argc == 4) {
        repeat = strtoul(argv[3], &end, 10);
        if (*end || repeat < 1 || repeat > MAX_REPEAT) {
            fprintf(stderr, "bench_store: --repeat must be 1..%d, not '%s'\n", MAX_REPEAT,
                    argv[3]);
            return 2;
        }
    }
    uint32_t *p = aligned_alloc(64, (size_t)bytes);
    if (!p) {
        fprintf(stderr, "bench_store: cannot allocate %llu bytes\n", bytes);
        return 1;
    }
    memset(p, 0, (size_t)bytes); /* page faults here, not in the timed fills */
    volatile uint32_t sink = 0;
    double plain = median_gbs(fill_plain, p, (size_t)bytes, (unsigned)repeat, &sink);
    double stream = median_gbs(fill_stream, p, (size_t)bytes, (unsigned)repeat, &sink);
    printf("bench_store: %llu bytes: stores %.2f GB/s, streaming stores %.2f GB/s\n", bytes,
           plain, stream);
    free(p);
    return 0;
}
