/* A sampling profile of the engine calls, for bench_job --profile and bench_draw --profile:
 * where a workload's time goes on a machine without `perf` (a lent host whose kit carries
 * no profiler, a VM without performance counters). The process's CPU-time interval timer
 * (ITIMER_PROF) interrupts whichever thread is running every period of CPU time from
 * prof_begin to prof_write; the signal handler records the interrupted instruction's
 * address, in a buffer sized beforehand, while the engine runs (prof_on(true) ..
 * prof_on(false)), and drops the rest. prof_write names each address's function and
 * object through elfutils' libdwfl (the ELF symbol tables of the running process's
 * executable and libraries, local and LTO-renamed functions included) and prints the
 * shares. Addresses in no object file's code are the JIT's. Linux on x86-64 only; the build
 * needs libdw (Debian: libdw-dev), else prof_begin says so. */
#ifndef TEXVM_BENCH_PROF_SAMPLE_H
#define TEXVM_BENCH_PROF_SAMPLE_H

#include <stdbool.h>
#include <stddef.h>

/* Installs the handler, allocates room for the samples and starts the timer; period_us its
 * interval in microseconds of CPU time (the kernel rounds it up to its tick). 0, or -1
 * with a message in err. */
int prof_begin(unsigned period_us, char *err, size_t err_len);
/* The engine runs from now (true) or no longer (false): the samples between are kept, and
 * the wall and CPU time between summed (the engine hook, job_run.h). */
void prof_on(bool on);
/* Stops the timer and writes the report, after `header` (NULL: none), to path through
 * path.tmp, renamed (the temporary file removed on failure): the engine calls' wall and CPU
 * time over all threads (how many were busy on average), the 25 first functions by share
 * of the samples (then the rest summed), the objects' shares, and the hottest addresses of
 * the first 3 functions as function+offset (for objdump of the same binary). 0, or -1 with
 * a message in err. */
int prof_write(const char *path, const char *header, char *err, size_t err_len);
/* Restores the signal's previous action and frees the buffer. */
void prof_end(void);

#endif
