/* bench_job's and bench_draw's --profile: the engine calls sampled by the CPU-time
 * interval timer, named by libdwfl (prof_sample.h says what and why). */
#define _GNU_SOURCE
#include "prof_sample.h"

#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#if defined(__linux__) && defined(__x86_64__) && defined(TEXVM_HAVE_LIBDW)
#define PROF_SUPPORTED 1
#include <elfutils/libdwfl.h>
#include <gelf.h>
#else
#define PROF_SUPPORTED 0
#endif

static uintptr_t *samples;
static size_t cap;
static atomic_size_t taken; /* samples in the engine since prof_begin; beyond cap: dropped */
/* the engine is running (prof_on): the timer runs from prof_begin to prof_report, and its
   ticks outside the engine calls are not kept — arming it per call would lose every call
   shorter than the kernel's tick (a timer's CPU time restarts when it is set) */
static atomic_bool inside;
static unsigned period;
static bool installed;
static struct sigaction old_action;

static int fail(char *err, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, len, fmt, ap);
    va_end(ap);
    return -1;
}

#if PROF_SUPPORTED
/* async-signal-safe: one lock-free atomic add and a store into memory allocated before */
static void on_sample(int sig, siginfo_t *info, void *context)
{
    (void)sig;
    (void)info;
    const ucontext_t *uc = context;
    if (!atomic_load_explicit(&inside, memory_order_relaxed))
        return;
    uintptr_t ip = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
    size_t i = atomic_fetch_add_explicit(&taken, 1, memory_order_relaxed);
    if (i < cap)
        samples[i] = ip;
}
#endif

/* the engine calls' wall and CPU time (all threads), summed by prof_on */
static double wall_sum, cpu_sum, wall_at, cpu_at;

static double clock_s(clockid_t id)
{
    struct timespec t;
    clock_gettime(id, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* the interval timer on (a period) or off */
static void timer_set(bool on)
{
    struct itimerval it;
    memset(&it, 0, sizeof it);
    if (on) {
        it.it_interval.tv_usec = (suseconds_t)period;
        it.it_value.tv_usec = (suseconds_t)period;
    }
    setitimer(ITIMER_PROF, &it, NULL);
}

/* room for 2^22 samples: over four hours of CPU time at the kernel's 250 Hz tick (the
   rest would be counted as dropped) */
enum { PROF_MAX_SAMPLES = 1 << 22 };

int prof_begin(unsigned period_us, char *err, size_t err_len)
{
#if !PROF_SUPPORTED
    (void)period_us;
    return fail(err, err_len,
                "--profile needs Linux on x86-64 and a build with libdw (elfutils; Debian's "
                "libdw-dev, scripts/setup.sh): this program has neither or not both");
#else
    if (installed)
        return fail(err, err_len, "the profile has already begun");
    if (!atomic_is_lock_free(&taken) || !atomic_is_lock_free(&inside))
        return fail(err, err_len, "no lock-free atomic counter for the signal handler");
    if (period_us < 1 || period_us > 999999)
        return fail(err, err_len, "the sampling period must be 1 to 999999 microseconds");
    samples = malloc((size_t)PROF_MAX_SAMPLES * sizeof *samples);
    if (!samples)
        return fail(err, err_len, "out of memory for %d samples", PROF_MAX_SAMPLES);
    cap = PROF_MAX_SAMPLES;
    atomic_store(&taken, 0);
    atomic_store(&inside, false);
    wall_sum = cpu_sum = 0;
    period = period_us;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_sample;
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGPROF, &sa, &old_action) != 0) {
        free(samples);
        samples = NULL;
        return fail(err, err_len, "cannot install the SIGPROF handler");
    }
    installed = true;
    timer_set(true);
    return 0;
#endif
}

void prof_on(bool on)
{
    if (!installed || on == atomic_load_explicit(&inside, memory_order_relaxed))
        return;
    if (!on)
        atomic_store_explicit(&inside, false, memory_order_relaxed);
    double w = clock_s(CLOCK_MONOTONIC), c = clock_s(CLOCK_PROCESS_CPUTIME_ID);
    if (on) {
        wall_at = w;
        cpu_at = c;
        atomic_store_explicit(&inside, true, memory_order_relaxed);
    } else {
        wall_sum += w - wall_at;
        cpu_sum += c - cpu_at;
    }
}

void prof_end(void)
{
    if (!installed)
        return;
    timer_set(false);
    prof_on(false);
    sigaction(SIGPROF, &old_action, NULL);
    installed = false;
    free(samples);
    samples = NULL;
    cap = 0;
    atomic_store(&taken, 0);
}

#if PROF_SUPPORTED
/* one distinct address: its function (NULL: none) and object (NULL: in no object, the JIT's
 * code), the offset into the function (or, with no function, the object's own address),
 * its samples */
typedef struct prof_addr {
    const char *fn, *obj;
    uint64_t off;
    size_t n;
} prof_addr;

/* one function (or object): its addresses' samples summed; first / count of its addresses
 * in the array sorted by function */
typedef struct prof_sum {
    const char *fn, *obj;
    size_t n, first, count;
} prof_sum;

/* whether the object's ELF file has code at a (its own address: the sample's less the
 * load bias) — libdwfl gives a module the anonymous mappings after its file's (its .bss),
 * where the JIT's code may also lie */
static bool in_code(Elf *elf, GElf_Addr a)
{
    size_t n;
    if (!elf || elf_getphdrnum(elf, &n) != 0)
        return false;
    for (size_t i = 0; i < n; i++) {
        GElf_Phdr ph;
        if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_LOAD && (ph.p_flags & PF_X) &&
            a >= ph.p_vaddr && a - ph.p_vaddr < ph.p_memsz)
            return true;
    }
    return false;
}

static int cmp_ip(const void *a, const void *b)
{
    uintptr_t x = *(const uintptr_t *)a, y = *(const uintptr_t *)b;
    return x < y ? -1 : x > y;
}

static int cmp_str(const char *a, const char *b)
{
    return a == b ? 0 : !a ? -1 : !b ? 1 : strcmp(a, b);
}

static int cmp_addr_fn(const void *a, const void *b)
{
    const prof_addr *x = a, *y = b;
    int c = cmp_str(x->obj, y->obj);
    if (!c)
        c = cmp_str(x->fn, y->fn);
    return c ? c : (x->n > y->n ? -1 : x->n < y->n);
}

static int cmp_addr_obj(const void *a, const void *b)
{
    return cmp_str(((const prof_addr *)a)->obj, ((const prof_addr *)b)->obj);
}

static int cmp_sum(const void *a, const void *b)
{
    const prof_sum *x = a, *y = b;
    if (x->n != y->n)
        return x->n > y->n ? -1 : 1;
    int c = cmp_str(x->obj, y->obj);
    return c ? c : cmp_str(x->fn, y->fn);
}

static const char *base_name(const char *path)
{
    const char *s = path ? strrchr(path, '/') : NULL;
    return s ? s + 1 : path;
}

/* the runs of equal keys (by cmp) in a sorted array of addresses, summed */
static size_t sum_runs(const prof_addr *a, size_t na, int (*cmp)(const void *, const void *),
                       prof_sum *out)
{
    size_t ns = 0;
    for (size_t i = 0; i < na;) {
        size_t j = i, n = 0;
        while (j < na && cmp(&a[i], &a[j]) == 0)
            n += a[j++].n;
        out[ns++] = (prof_sum){a[i].fn, a[i].obj, n, i, j - i};
        i = j;
    }
    qsort(out, ns, sizeof *out, cmp_sum);
    return ns;
}

static int same_fn(const void *a, const void *b)
{
    const prof_addr *x = a, *y = b;
    return cmp_str(x->obj, y->obj) || cmp_str(x->fn, y->fn);
}

static void print_sums(FILE *f, const prof_sum *s, size_t ns, size_t total, unsigned top,
                       bool fns)
{
    size_t rest = 0, rest_count = 0;
    for (size_t i = 0; i < ns; i++) {
        if (i >= top) {
            rest += s[i].n;
            rest_count++;
            continue;
        }
        const char *obj = s[i].obj ? base_name(s[i].obj) : "no object: the JIT's code";
        if (fns)
            fprintf(f, "  %5.1f%% %8zu  %s  (%s)\n", 100.0 * (double)s[i].n / (double)total,
                    s[i].n, s[i].obj ? (s[i].fn ? s[i].fn : "(no symbol)") : "(JIT code)",
                    obj);
        else
            fprintf(f, "  %5.1f%% %8zu  %s\n", 100.0 * (double)s[i].n / (double)total, s[i].n,
                    obj);
    }
    if (rest_count)
        fprintf(f, "  %5.1f%% %8zu  (the other %zu)\n", 100.0 * (double)rest / (double)total,
                rest, rest_count);
}
#endif

/* the report (prof_write): the engine calls' wall and CPU time (all threads: how many were
 * busy on average), the functions by share of the samples (at most `top` lines, then the
 * rest summed), the objects' shares, and the hottest addresses of the first `hot_funcs`
 * functions as symbol+offset (for objdump of the same binary) */
static int prof_report(FILE *f, unsigned top, unsigned hot_funcs, char *err, size_t err_len)
{
#if !PROF_SUPPORTED
    (void)f;
    (void)top;
    (void)hot_funcs;
    return fail(err, err_len, "--profile is not supported by this build");
#else
    if (!installed)
        return fail(err, err_len, "the profile has not begun");
    timer_set(false);
    prof_on(false);
    size_t all = atomic_load(&taken), n = all < cap ? all : cap;
    if (n == 0)
        return fail(err, err_len, "no samples: the engine ran for less than one period");
    qsort(samples, n, sizeof *samples, cmp_ip);
    static char *debuginfo_path = NULL;
    const Dwfl_Callbacks cb = {.find_elf = dwfl_linux_proc_find_elf,
                               .find_debuginfo = dwfl_standard_find_debuginfo,
                               .debuginfo_path = &debuginfo_path};
    Dwfl *d = dwfl_begin(&cb);
    if (!d)
        return fail(err, err_len, "libdwfl: %s", dwfl_errmsg(-1));
    if (dwfl_linux_proc_report(d, getpid()) != 0 || dwfl_report_end(d, NULL, NULL) != 0) {
        dwfl_end(d);
        return fail(err, err_len, "libdwfl cannot read this process's maps: %s",
                    dwfl_errmsg(-1));
    }
    prof_addr *a = malloc(n * sizeof *a);
    prof_sum *fns = malloc(n * sizeof *fns), *objs = malloc(n * sizeof *objs);
    if (!a || !fns || !objs) {
        free(a);
        free(fns);
        free(objs);
        dwfl_end(d);
        return fail(err, err_len, "out of memory for the report");
    }
    size_t na = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j < n && samples[j] == samples[i])
            j++;
        prof_addr e = {NULL, NULL, samples[i], j - i};
        Dwfl_Module *m = dwfl_addrmodule(d, samples[i]);
        GElf_Addr bias = 0;
        Elf *elf = m ? dwfl_module_getelf(m, &bias) : NULL;
        if (m && !in_code(elf, samples[i] - bias))
            m = NULL; /* (the JIT's) */
        if (m) {
            GElf_Off off = 0;
            GElf_Sym sym;
            e.obj = dwfl_module_info(m, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
            if (!e.obj)
                e.obj = "(unnamed object)";
            e.fn = dwfl_module_addrinfo(m, samples[i], &off, &sym, NULL, NULL, NULL);
            /* (no symbol: the object's own address, as objdump shows it) */
            e.off = e.fn ? off : samples[i] - bias;
        }
        a[na++] = e;
        i = j;
    }
    fprintf(f, "profile: %zu samples of the engine calls, one asked for every %u us of the "
               "process's CPU time (ITIMER_PROF), %.0f a second of it (the kernel's tick sets "
               "the rate)\n",
            n, period, cpu_sum > 0 ? (double)n / cpu_sum : 0.0);
    fprintf(f, "profile: the engine calls took %.3f s, and %.3f s of CPU time over all threads: "
               "%.2f threads busy on average (the kernel adds a thread's time on another CPU "
               "at its ticks: a few per cent either way)\n",
            wall_sum, cpu_sum, wall_sum > 0 ? cpu_sum / wall_sum : 0.0);
    if (all > n)
        fprintf(f, "profile: %zu more samples dropped (the buffer was full)\n", all - n);
    qsort(a, na, sizeof *a, cmp_addr_fn);
    size_t nf = sum_runs(a, na, same_fn, fns);
    fprintf(f, "by function:\n");
    print_sums(f, fns, nf, n, top, true);
    fprintf(f, "hottest addresses of the first %u functions (function+offset: samples):\n",
            hot_funcs);
    for (size_t k = 0; k < nf && k < hot_funcs; k++) {
        if (!fns[k].obj)
            continue;
        if (fns[k].fn)
            fprintf(f, "  %s:", fns[k].fn);
        else /* (offsets into the object) */
            fprintf(f, "  (no symbol) in %s:", base_name(fns[k].obj));
        for (size_t i = 0; i < fns[k].count && i < 12; i++) {
            const prof_addr *e = &a[fns[k].first + i];
            fprintf(f, " +0x%llx:%zu", (unsigned long long)e->off, e->n);
        }
        fprintf(f, "\n");
    }
    qsort(a, na, sizeof *a, cmp_addr_obj);
    size_t no = sum_runs(a, na, cmp_addr_obj, objs);
    fprintf(f, "by object:\n");
    print_sums(f, objs, no, n, top, false);
    free(a);
    free(fns);
    free(objs);
    dwfl_end(d);
    return 0;
#endif
}

int prof_write(const char *path, const char *header, char *err, size_t err_len)
{
    size_t len = strlen(path);
    char *tmp = malloc(len + 5);
    if (!tmp)
        return fail(err, err_len, "out of memory");
    memcpy(tmp, path, len);
    memcpy(tmp + len, ".tmp", 5);
    FILE *f = fopen(tmp, "w");
    if (!f) {
        fail(err, err_len, "cannot write \"%s\"", tmp);
        free(tmp);
        return -1;
    }
    if (header)
        fputs(header, f);
    int rc = prof_report(f, 25, 3, err, err_len);
    if (fclose(f) != 0 && !rc)
        rc = fail(err, err_len, "cannot write \"%s\"", tmp);
    if (!rc && rename(tmp, path) != 0)
        rc = fail(err, err_len, "cannot rename \"%s\" to \"%s\"", tmp, path);
    if (rc)
        remove(tmp);
    free(tmp);
    return rc;
}
