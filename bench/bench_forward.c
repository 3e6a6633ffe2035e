/* bench_forward: this core's store-to-load forwarding for the store shapes the engine's
 * handlers produce, each measured as a dependent chain (load a 64-byte slot, add, store it
 * back, the next iteration loads it again):
 *   bench_forward [--iterations N]
 *   bench_forward: ns per dependent load-add-store: zmm X, ymm X, zmm stored as two ymm X,
 *                  masked zmm X (CPU, AVX-512 variants only where the CPU has AVX-512F)
 * A 64-byte load of a 64-byte store forwards from the store buffer in a few cycles; when
 * the bytes were stored in two halves or with a mask (vmovdqu32 {k}, what GCC makes of a
 * lane blend), the load waits for the stores to reach the cache. On this project's AMD
 * EPYC (Zen 4) that took 7.5 ns against 0.8 ns (docs/performance-amd.md §3): a handler whose
 * result is read by the next micro-op must store it whole. x86-64 only (elsewhere it says
 * so and exits 0). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_clock.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

#define ATTR512 __attribute__((noinline, target("avx512f")))
#define ATTR256 __attribute__((noinline, target("avx2")))

static ATTR512 void chain_zmm(float *buf, long n)
{
    __m512 one = _mm512_set1_ps(1.0f);
    for (long i = 0; i < n; i++)
        _mm512_store_ps(buf, _mm512_add_ps(_mm512_load_ps(buf), one));
}

static ATTR256 void chain_ymm(float *buf, long n)
{
    __m256 one = _mm256_set1_ps(1.0f);
    for (long i = 0; i < n; i++)
        _mm256_store_ps(buf, _mm256_add_ps(_mm256_load_ps(buf), one));
}

static ATTR512 void chain_split(float *buf, long n)
{
    __m512 one = _mm512_set1_ps(1.0f);
    for (long i = 0; i < n; i++) {
        __m512 v = _mm512_add_ps(_mm512_load_ps(buf), one);
        _mm256_store_ps(buf, _mm512_castps512_ps256(v));
        _mm256_store_pd((double *)(void *)(buf + 8), _mm512_extractf64x4_pd(_mm512_castps_pd(v), 1));
    }
}

static ATTR512 void chain_masked(float *buf, long n)
{
    __m512 one = _mm512_set1_ps(1.0f);
    for (long i = 0; i < n; i++)
        _mm512_mask_store_ps(buf, 0x5555, _mm512_add_ps(_mm512_load_ps(buf), one));
}

typedef void (*chain_fn)(float *, long);

static double ns_per_iteration(chain_fn f, float *buf, long n)
{
    double best = 1e30;
    for (int r = 0; r < 5; r++) {
        double t0 = bench_now();
        f(buf, n);
        double t = (bench_now() - t0) / (double)n * 1e9;
        if (t < best)
            best = t;
    }
    return best;
}

int main(int argc, char **argv)
{
    long n = 20000000;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--iterations") && i + 1 < argc) {
            char *end;
            n = strtol(argv[++i], &end, 10);
            if (*end || n < 1 || n > 2000000000) {
                fprintf(stderr, "bench_forward: --iterations takes 1..2000000000\n");
                return 2;
            }
        } else {
            fprintf(stderr, "usage: bench_forward [--iterations N]\n");
            return 2;
        }
    }
    static float buf[64] __attribute__((aligned(64)));
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("avx2")) {
        printf("bench_forward: no AVX2 on this CPU; nothing measured\n");
        return 0;
    }
    double ymm = ns_per_iteration(chain_ymm, buf, n);
    if (!__builtin_cpu_supports("avx512f")) {
        printf("bench_forward: ns per dependent load-add-store: ymm %.2f (no AVX-512F)\n", ymm);
        return 0;
    }
    double zmm = ns_per_iteration(chain_zmm, buf, n);
    double split = ns_per_iteration(chain_split, buf, n / 10);
    double masked = ns_per_iteration(chain_masked, buf, n / 10);
    printf("bench_forward: ns per dependent load-add-store: zmm %.2f, ymm %.2f, zmm stored as "
           "two ymm %.2f, masked zmm %.2f\n", zmm, ymm, split, masked);
    return 0;
}
#else
int main(void)
{
    printf("bench_forward: x86-64 only; nothing measured\n");
    return 0;
}
#endif
