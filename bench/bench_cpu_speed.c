/* bench_cpu_speed: how fast each CPU runs now, for the speed suite's header (issue 19: this
 * project's VMs run one CPU or both up to 1.7x slower for minutes, and a round taken in
 * such a spell measures the host, not the engines):
 *   bench_cpu_speed [--repeat R] CPU...
 * pins itself to each CPU in turn and times three loops, each R times (default 9), keeping
 * the fastest (a preemption lengthens one repeat, not all):
 *   - "chain": 2^23 dependent 64-bit adds (one cycle each on every x86-64 core, so its rate
 *     in G adds/s is the core's clock in GHz), which a lower clock slows;
 *   - "vector": 12 independent chains of 4-float multiply-then-add (the ISA's baseline
 *     vectors), which keep the floating-point ports busy most cycles, so that a busy
 *     neighbour on the same physical core (a hyperthread) slows it as well as a lower clock;
 *   - "memory": 2^19 dependent loads chasing a random cycle through the 64-byte lines of an
 *     8 MiB buffer (past every core's L2, inside a server's shared L3: the texture and
 *     target sizes of the suite's workloads), which a neighbour evicting the shared cache or
 *     loading the memory slows where the other two do not (on the Zen 5 VM, rounds whose
 *     texture lookups ran 1.65x slower on one CPU had its clock and ports probed at full
 *     speed just before them, history §80).
 * One line per CPU:
 *   bench_cpu_speed: cpu K: chain X.XX G adds/s, vector Y.YY G flops/s, memory Z.ZZ M loads/s
 * The loops are not texvm's, so a change to texvm never moves them: two probes of one CPU
 * that differ mean the CPU's speed moved. scripts/bench.sh probes every CPU before and
 * after the run and each round's CPU before the round, and warns where the chain or the
 * vector loop moved (the memory loop, reported, moves too much between quiet seconds). */
#define _GNU_SOURCE
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_clock.h"

#define MAX_REPEAT 100
#define MAX_CPUS 4096
#define CHAIN_STEPS ((uint64_t)1 << 23)
#define VECTOR_STEPS ((uint64_t)1 << 20)
#define MEMORY_BYTES ((size_t)8 << 20)
#define MEMORY_STEPS ((uint64_t)1 << 19)
#define LINE_WORDS 8 /* 64 bytes of uint64_t */

typedef float v4 __attribute__((vector_size(16)));

/* n dependent adds, eight a loop step; the asm keeps the compiler from summing them */
static uint64_t chain(uint64_t n, uint64_t step)
{
    uint64_t x = 1;
    for (uint64_t i = 0; i < n; i += 8) {
#if defined(__x86_64__)
        __asm__ volatile("add %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\t"
                         "add %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\tadd %1, %0"
                         : "+r"(x)
                         : "r"(step));
#else
        for (int k = 0; k < 8; k++)
            __asm__ volatile("" : "+r"(x));
        x += step;
#endif
    }
    return x;
}

/* 12 independent chains of a = a * m + c (4 floats each): 96 flops a step (14 of the 16
 * SSE registers). m and c keep a near 1 (no denormal, no infinity: the same cost on every
 * core) */
static float vector(uint64_t n)
{
    v4 a[12];
    const v4 m = {0.999999f, 0.999999f, 0.999999f, 0.999999f};
    const v4 c = {1e-6f, 1e-6f, 1e-6f, 1e-6f};
    for (int k = 0; k < 12; k++)
        a[k] = (v4){1.0f, 1.0f, 1.0f, 1.0f};
    for (uint64_t i = 0; i < n; i++) {
        for (int k = 0; k < 12; k++)
            a[k] = a[k] * m + c;
#if defined(__x86_64__)
        __asm__ volatile("" : "+x"(a[0]), "+x"(a[1]), "+x"(a[2]), "+x"(a[3]), "+x"(a[4]),
                         "+x"(a[5]), "+x"(a[6]), "+x"(a[7]), "+x"(a[8]), "+x"(a[9]), "+x"(a[10]),
                         "+x"(a[11]));
#else
        __asm__ volatile("" : : "r"(a) : "memory");
#endif
    }
    v4 s = a[0];
    for (int k = 1; k < 12; k++)
        s += a[k];
    return s[0] + s[1] + s[2] + s[3];
}

/* LINES lines of 64 bytes whose first words link them in one random cycle (Sattolo's
 * shuffle with a fixed xorshift: the same cycle every run, no line's successor near it) */
static uint64_t *memory_cycle(size_t lines)
{
    uint64_t *buf = aligned_alloc(64, lines * 64);
    uint32_t *order = malloc(lines * sizeof *order);
    if (!buf || !order) {
        free(buf);
        free(order);
        return NULL;
    }
    for (size_t i = 0; i < lines; i++)
        order[i] = (uint32_t)i;
    uint64_t x = 0x9e3779b97f4a7c15u;
    for (size_t i = lines - 1; i > 0; i--) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        size_t j = (size_t)(x % i); /* j < i: one cycle through every line */
        uint32_t t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    memset(buf, 0, lines * 64);
    for (size_t i = 0; i < lines; i++)
        buf[(size_t)order[i] * LINE_WORDS] = (uint64_t)order[(i + 1) % lines] * LINE_WORDS;
    free(order);
    return buf;
}

/* n dependent loads along the cycle from word AT; the last word reached */
static uint64_t memory(const uint64_t *buf, uint64_t n, uint64_t at)
{
    for (uint64_t i = 0; i < n; i++)
        at = buf[at];
    return at;
}

/* BEST raised to WORK / SECONDS / UNIT where that is faster (a zero time measured nothing) */
static void keep_fastest(double *best, double work, double seconds, double unit)
{
    if (seconds > 0 && work / seconds / unit > *best)
        *best = work / seconds / unit;
}

static int parse_uint(const char *s, unsigned long max, unsigned long *out)
{
    char *end;
    if (!*s || *s == '-' || *s == '+')
        return 0;
    unsigned long v = strtoul(s, &end, 10);
    if (*end || v > max)
        return 0;
    *out = v;
    return 1;
}

int main(int argc, char **argv)
{
    unsigned long repeat = 9;
    int first = 1;
    if (argc >= 3 && strcmp(argv[1], "--repeat") == 0) {
        if (!parse_uint(argv[2], MAX_REPEAT, &repeat) || repeat < 1) {
            fprintf(stderr, "bench_cpu_speed: --repeat must be 1..%d, not '%s'\n", MAX_REPEAT,
                    argv[2]);
            return 2;
        }
        first = 3;
    }
    if (first >= argc) {
        fprintf(stderr, "usage: bench_cpu_speed [--repeat R] CPU...\n");
        return 2;
    }
    const size_t lines = MEMORY_BYTES / 64;
    uint64_t *cycle = memory_cycle(lines);
    if (!cycle) {
        fprintf(stderr, "bench_cpu_speed: cannot allocate %zu bytes\n", MEMORY_BYTES);
        return 1;
    }
    int status = 0;
    for (int i = first; i < argc && !status; i++) {
        unsigned long cpu;
        if (!parse_uint(argv[i], MAX_CPUS - 1, &cpu)) {
            fprintf(stderr, "bench_cpu_speed: a CPU is a number 0..%d, not '%s'\n",
                    MAX_CPUS - 1, argv[i]);
            status = 2;
            break;
        }
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET((int)cpu, &set);
        if (sched_setaffinity(0, sizeof set, &set) != 0) {
            fprintf(stderr, "bench_cpu_speed: cannot run on cpu %lu (not this process's)\n",
                    cpu);
            status = 1;
            break;
        }
        double best_chain = 0, best_vector = 0, best_memory = 0;
        volatile uint64_t sink_x = 0;
        volatile float sink_f = 0;
        for (unsigned long r = 0; r < repeat; r++) {
            double t0 = bench_now();
            sink_x += chain(CHAIN_STEPS, r | 1);
            double t1 = bench_now();
            sink_f += vector(VECTOR_STEPS);
            double t2 = bench_now();
            sink_x += memory(cycle, MEMORY_STEPS, (r * 4099u % lines) * LINE_WORDS);
            double t3 = bench_now();
            keep_fastest(&best_chain, (double)CHAIN_STEPS, t1 - t0, 1e9);
            keep_fastest(&best_vector, (double)VECTOR_STEPS * 96, t2 - t1, 1e9);
            keep_fastest(&best_memory, (double)MEMORY_STEPS, t3 - t2, 1e6);
        }
        printf("bench_cpu_speed: cpu %lu: chain %.2f G adds/s, vector %.2f G flops/s, "
               "memory %.2f M loads/s\n",
               cpu, best_chain, best_vector, best_memory);
        fflush(stdout);
    }
    free(cycle);
    return status;
}
