/* What every benchmark program times with: the monotonic clock in seconds, and the double
 * comparison qsort needs for medians. */
#ifndef TEXVM_BENCH_CLOCK_H
#define TEXVM_BENCH_CLOCK_H

#include <time.h>

static inline double bench_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static inline int bench_cmpd(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

#endif
