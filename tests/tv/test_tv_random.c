/* Translation validation on random programs (tvcheck.h): TV_PROGRAMS generated programs
 * (default 6000), each run with the plain
 * interpreter and the optimised micro-ops on the same inputs and compared bit for bit.
 * Deterministic seeds; a failure prints the seed, the difference and the program. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tvcheck.h"

static void t_random_programs(void **state)
{
    (void)state;
    const char *env = getenv("TV_PROGRAMS");
    unsigned n = env ? (unsigned)strtoul(env, NULL, 10) : 6000;
    tvg_stats stats;
    memset(&stats, 0, sizeof stats);
    unsigned same = 0, ran_ok = 0, compiled = 0;
    unsigned long long insns = 0;
    for (unsigned seed = 1; seed <= n; seed++) {
        tvg_src src;
        tvg_seed(&src, seed);
        char *text = tvg_program(&src, &stats);
        assert_non_null(text);
        char why[512];
        tvc_info info;
        tvc_result r = tvc_run_both(text, strlen(text), seed, why, sizeof why, &info);
        if (getenv("TV_VERBOSE"))
            printf("seed %u: status %d, %llu instructions %s\n", seed, info.status,
                   (unsigned long long)info.instructions, info.message);
        ran_ok += r == TVC_SAME && info.status == 0;
        insns += info.instructions;
        if (r == TVC_DIFFERENT)
            fail_msg("seed %u: %s\n%s", seed, why, text);
        if (r == TVC_NOT_RUN)
            fail_msg("seed %u: the generator made a program that does not run: %s\n%s", seed,
                     why, text);
        same += r == TVC_SAME;
        compiled += r == TVC_SAME && info.compiled;
        free(text);
    }
    printf("translation validation: %u random programs compared, %u bit-identical, %u ran "
           "without a fault, %llu instructions (per warp) each way; %u also compiled by the "
           "JIT and bit-identical\n", n, same, ran_ok, insns, compiled);
    for (int k = 0; k < TVG_KINDS; k++)
        printf("  %-16s %u\n", tvg_kind_names[k], stats.count[k]);
    /* the generator reaches every construct */
    for (int k = 0; k < TVG_KINDS; k++)
        if (stats.count[k] < n / 50)
            fail_msg("construct '%s' generated only %u times", tvg_kind_names[k],
                     stats.count[k]);
    assert_int_equal(same, n);
    /* most programs run to the end: a fault (budget, bounds) ends a run early and proves
       less */
    if (ran_ok < n * 9 / 10)
        fail_msg("only %u of %u programs ran without a fault", ran_ok, n);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_random_programs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
