/* bench_job: time the engine run of a job file in-process, as scripts/bench.sh needs it.
 *   bench_job JOB.json [--threads N] [--repeat R] [--out-dir DIR] [--jit MODE] [--counters]
 *             [--profile FILE [--profile-period US]]
 * Loads the job and its TGSI, builds textures and bindings once (texvm run's own code,
 * src/job/job_run*.c), then runs the stage 1 + R times and prints the median of the last R
 * (the first is the warm-up), and the fastest of those R:
 *   bench_job: FRAG: median X ms over R runs (fastest F ms), Y Mpixels/s on N threads
 * (the fastest: a host whose speed moves within a process, docs/performance.md §1.1)
 * A run is run_stage(); the time is its engine call alone (tv_vm_run_fragment /
 * _compute / ..., rs->engine_seconds), as mesa-run times glDrawArrays / glDispatchCompute
 * + glFinish alone: the colour targets are allocated on the first run, kept (as a GL
 * framebuffer is) and cleared by each run outside the timed call; no parse, texture build
 * or output writing is timed. The outputs
 * of the last run are written like `texvm run` (for the comparison with Mesa). The job's
 * per-input interpolation overrides are not applied (the bench jobs have none; such a job
 * is refused).
 *   --counters (with --threads 1): also prints what the texture unit's warp kernel did
 *   over all 1 + R runs — its counters are the calling thread's, and one thread runs the
 *   jobs on the calling thread (src/util/threadpool.c) — for profiling which of its ways
 *   a workload takes (docs/performance.md §1.2):
 *   bench_job: texture kernel (V) over N runs: requests Q (uniform U, magnified M, no
 *   level of detail F; common copy C), log2 table lookups T (register cache K), level
 *   passes paired P (windows W) and single S, anisotropic probe requests A
 *   (V the kernel's variant, tv_tex_vector_kernel: avx512, avx2 or generic; C the
 *   requests its copy for the common request answered, none on generic; K the lookups
 *   past the recent arguments that the AVX-512 variant's register cache answered, T
 *   those that went on to the table)
 *   --profile FILE [--profile-period US]: samples the engine calls of the R timed runs every
 *   US microseconds of the process's CPU time (default 1000) and writes to FILE (through a
 *   temporary file, renamed) the functions and objects by share of the samples and the
 *   hottest addresses of the first functions (prof_sample.h; docs/performance.md §1.2) —
 *   where the time goes on a machine without `perf`, such as a lent host (the kit's run.sh
 *   --profile) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "job_run.h"
#include "bench_clock.h"
#include "prof_sample.h"
#include "tex/fast/tex_warp.h"

/* The texture kernel's counters of the calling thread (tex/fast/tex_warp.h) */
typedef struct kernel_counts {
    uint64_t requests, uniform, magnified, free, common, free_copy, log2_table, log2_cache,
        paired, window, single, probes;
} kernel_counts;

static kernel_counts kernel_counts_now(void)
{
    kernel_counts k;
    k.requests = tex_warp_vec_count();
    k.uniform = tex_warp_vec_uniform_count();
    k.magnified = tex_warp_vec_mag_count();
    k.free = tex_warp_vec_free_count();
    k.common = tex_warp_vec_common_count();
    k.free_copy = tex_warp_vec_free_copy_count();
    k.log2_table = tex_warp_vec_log2_table_count();
    k.log2_cache = tex_warp_vec_log2_cache_count();
    tex_warp_vec_pair_counts(&k.paired, &k.single);
    k.window = tex_warp_vec_window_count();
    k.probes = tex_warp_vec_probe_count();
    return k;
}

static void kernel_counts_print(const kernel_counts *a, const kernel_counts *b, int runs)
{
    printf("bench_job: texture kernel (%s) over %d runs: requests %llu (uniform %llu, "
           "magnified %llu, no level of detail %llu; common copy %llu, no-LOD copy %llu), log2 "
           "table lookups "
           "%llu (register cache %llu), level passes paired %llu (windows %llu) and single "
           "%llu, anisotropic probe requests %llu\n",
           tv_tex_vector_kernel(), runs, (unsigned long long)(b->requests - a->requests),
           (unsigned long long)(b->uniform - a->uniform),
           (unsigned long long)(b->magnified - a->magnified),
           (unsigned long long)(b->free - a->free),
           (unsigned long long)(b->common - a->common),
           (unsigned long long)(b->free_copy - a->free_copy),
           (unsigned long long)(b->log2_table - a->log2_table),
           (unsigned long long)(b->log2_cache - a->log2_cache),
           (unsigned long long)(b->paired - a->paired),
           (unsigned long long)(b->window - a->window),
           (unsigned long long)(b->single - a->single),
           (unsigned long long)(b->probes - a->probes));
}


static void free_targets(run_state *rs)
{
    for (int t = 0; t < JOB_MAX_TARGETS; t++) {
        free(rs->color[t]);
        rs->color[t] = NULL;
    }
    free(rs->depth);
    rs->depth = NULL;
    free(rs->stencil);
    rs->stencil = NULL;
}

/* the profile's report to path (prof_write) */
static int profile_write(const char *path)
{
    char err[8400];
    if (prof_write(path, NULL, err, sizeof err) == 0)
        return 0;
    fprintf(stderr, "bench_job: --profile: %s\n", err);
    return 1;
}

static int bench(const job *j, run_state *rs, tv_tgsi_program *prog, int threads, int repeat,
                 bool counters, const char *profile)
{
    for (size_t i = 0; i < j->frag.num_inputs && j->run == TV_TGSI_FRAG; i++)
        if (j->frag.inputs[i].interpolate >= 0 || j->frag.inputs[i].location >= 0) {
            fprintf(stderr, "bench_job: interpolation overrides are not supported\n");
            return 4;
        }
    tv_error err;
    memset(&err, 0, sizeof err);
    tv_vm_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.threads = (uint32_t)threads;
    cfg.flush_denormals = j->options.flush_denormals == 1;
    cfg.fine_derivatives = j->options.fine_derivatives == 1;
    cfg.jit = rs->opts->jit;
    cfg.limits.max_instructions = j->options.max_instructions;
    cfg.limits.max_loop_iterations = j->options.max_loop_iterations;
    cfg.limits.max_call_depth = j->options.max_call_depth;
    cfg.limits.max_memory = j->options.max_memory;
    tv_vm *vm = tv_vm_create(&cfg, &err);
    tv_vm_program *p = vm ? tv_vm_program_create(vm, prog, &err) : NULL;
    if (!p) {
        fprintf(stderr, "bench_job: %s\n", err.message);
        tv_vm_destroy(vm);
        return 1;
    }
    tv_vm_bindings b;
    int rc = run_textures(rs);
    if (!rc) {
        if (j->options.precision >= 0)
            tv_tex_set_precision(rs->tex, (tv_tex_precision)j->options.precision);
        rc = run_bindings(rs, &b);
    }
    double *t = calloc((size_t)repeat + 1, sizeof *t);
    const kernel_counts k0 = kernel_counts_now();
    for (int r = 0; !rc && t && r <= repeat; r++) {
        /* (the timed runs only: the warm-up's first calls load and compile, the JIT's
           included) */
        if (profile && r == 1)
            rs->engine_hook = prof_on;
        rs->engine_seconds = 0;
        rc = run_stage(rs, vm, p, &b);
        t[r] = rs->engine_seconds * 1e3;
    }
    if (!rc && t) {
        qsort(t + 1, (size_t)repeat, sizeof *t, bench_cmpd);
        double med = t[1 + repeat / 2];
        double items = (double)j->frag.width * j->frag.height;
        if (j->run == TV_TGSI_COMP) {
            uint32_t blk[3];
            tv_vm_program_block_size(p, blk);
            items = 1.0;
            for (int k = 0; k < 3; k++)
                items *= (double)j->comp.grid[k] * (j->comp.block[k] ? j->comp.block[k]
                                                                      : blk[k] ? blk[k] : 1);
        }
        printf("bench_job: %s: median %.3f ms over %d runs (fastest %.3f ms), %.2f M%s/s on "
               "%d thread%s\n",
               j->run == TV_TGSI_COMP ? "COMP" : "FRAG", med, repeat, t[1], items / (med * 1e3),
               j->run == TV_TGSI_COMP ? "threads" : "pixels", threads, threads == 1 ? "" : "s");
        if (counters) {
            const kernel_counts k1 = kernel_counts_now();
            kernel_counts_print(&k0, &k1, repeat + 1);
        }
        if (profile)
            rc = profile_write(profile);
        if (!rc)
            rc = run_outputs(rs);
    }
    free(t);
    if (rc && rs->error[0])
        fprintf(stderr, "bench_job: %s\n", rs->error);
    tv_vm_program_destroy(p);
    tv_vm_destroy(vm);
    return rc;
}

int main(int argc, char **argv)
{
    const char *path = NULL, *out_dir = NULL;
    int threads = 1, repeat = 5;
    bool counters = false;
    const char *profile = NULL;
    long period = 1000;
    bool period_set = false;
    uint8_t jit = TV_VM_JIT_AUTO;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--threads") && i + 1 < argc)
            threads = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--repeat") && i + 1 < argc)
            repeat = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--counters"))
            counters = true;
        else if (!strcmp(argv[i], "--out-dir") && i + 1 < argc)
            out_dir = argv[++i];
        else if (!strcmp(argv[i], "--profile") && i + 1 < argc)
            profile = argv[++i];
        else if (!strcmp(argv[i], "--profile-period") && i + 1 < argc) {
            char *end;
            period = strtol(argv[++i], &end, 10);
            period_set = true;
            if (*end || end == argv[i])
                period = -1;
        }
        else if (!strcmp(argv[i], "--jit") && i + 1 < argc &&
                 tv_vm_jit_mode_from_name(argv[i + 1], &jit) == TV_OK)
            i++;
        else if (argv[i][0] != '-' && !path)
            path = argv[i];
        else {
            fprintf(stderr, "usage: bench_job JOB.json [--threads N] [--repeat R] "
                            "[--out-dir DIR] [--jit auto|off|always] [--counters] "
                            "[--profile FILE [--profile-period US]]\n");
            return 2;
        }
    }
    if (!path || threads < 1 || repeat < 1) {
        fprintf(stderr, "usage: bench_job JOB.json [--threads N>=1] [--repeat R>=1] "
                        "[--out-dir DIR] [--jit auto|off|always] [--counters] "
                        "[--profile FILE [--profile-period US]]\n");
        return 2;
    }
    if (period < 1 || period > 999999) {
        fprintf(stderr, "bench_job: --profile-period takes 1 to 999999 microseconds\n");
        return 2;
    }
    if (period_set && !profile) {
        fprintf(stderr, "bench_job: --profile-period without --profile: nothing to sample\n");
        return 2;
    }
    if (profile) {
        char err[256];
        if (prof_begin((unsigned)period, err, sizeof err) != 0) {
            fprintf(stderr, "bench_job: --profile: %s\n", err);
            return 2;
        }
    }
    if (counters && threads != 1) {
        fprintf(stderr, "bench_job: --counters needs --threads 1 (the texture kernel counts "
                        "per thread, and only one thread runs the jobs on the calling one)\n");
        return 2;
    }
    tv_job_error jerr;
    job *j = tv_job_load_file(path, &jerr);
    if (!j) {
        fprintf(stderr, "bench_job: %s: cannot load the job\n", path);
        return 1;
    }
    const job_program *jp = NULL;
    for (size_t i = 0; i < j->num_programs; i++)
        if (j->programs[i].stage == j->run)
            jp = &j->programs[i];
    tv_tgsi_program *progs = NULL, *prog = NULL;
    size_t count = 0;
    tv_error err;
    int rc = 1;
    if (jp && tv_tgsi_parse(jp->text, jp->text_len, path, TV_TGSI_MODE_DEFAULT, &progs, &count,
                            &err) == TV_OK) {
        for (size_t i = 0; i < count && !prog; i++)
            if (progs[i].processor == j->run)
                prog = &progs[i];
    }
    if (!prog) {
        fprintf(stderr, "bench_job: %s: no program for the job's stage\n", path);
    } else {
        tv_job_run_opts o;
        memset(&o, 0, sizeof o);
        o.out_dir = out_dir;
        o.threads = threads;
        o.precision = -1;
        o.quiet = true;
        o.jit = jit;
        run_state *rs = calloc(1, sizeof *rs);
        if (rs) {
            rs->j = j;
            rs->opts = &o;
            rs->program_path = path;
            rc = bench(j, rs, prog, threads, repeat, counters, profile);
            free_targets(rs);
            for (int r = 0; r < JOB_MAX_ATTRIBS; r++)
                free(rs->vert_out[r]);
            free(rs->global);
            run_textures_free(rs);
            free(rs);
        }
    }
    tv_tgsi_programs_free(progs, count);
    tv_job_free(j);
    prof_end();
    return rc;
}
