/* Translation validation under libFuzzer: the input's bytes drive the random program
 * generator of tests/tv (tvcheck.h), and each program runs with the plain interpreter and
 * the optimised micro-ops on the same inputs; any difference, or a generated program that
 * does not run, aborts with the program printed. One execution = one program both ways;
 * with TV_FUZZ_BATCH=N in the environment, N programs: the input's, then N-1 from seeds
 * derived from the input (long throughput runs, where libFuzzer's own bookkeeping per
 * execution would otherwise cost more than the program). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tvcheck.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096)
        return 0;
    tvg_src src;
    tvg_bytes(&src, data, size);
    char *text = tvg_program(&src, NULL);
    if (!text)
        return 0;
    uint64_t seed = 1469598103934665603ull;
    for (size_t i = 0; i < size; i++)
        seed = (seed ^ data[i]) * 1099511628211ull;
    static long batch = -1;
    if (batch < 0) {
        const char *env = getenv("TV_FUZZ_BATCH");
        batch = env ? strtol(env, NULL, 10) : 1;
        if (batch < 1 || batch > 100000)
            batch = 1;
    }
    for (long k = 0; k < batch; k++) {
        if (k) {
            free(text);
            tvg_seed(&src, seed + (uint64_t)k);
            text = tvg_program(&src, NULL);
            if (!text)
                return 0;
        }
        char why[512];
        tvc_result r = tvc_run_both(text, strlen(text), seed + (uint64_t)k, why, sizeof why,
                                    NULL);
        if (r != TVC_SAME) {
            fprintf(stderr, "fuzz_tv: %s: %s\n%s", r == TVC_DIFFERENT ? "difference" : "not run",
                    why, text);
            abort();
        }
    }
    free(text);
    return 0;
}
