/* Running a loaded job on the engine (vm.h) and the texture unit (tex.h): resources,
 * pools, the stage, outputs, checks, trace. Messages go to stderr. */
#ifndef TEXVM_SRC_JOB_JOB_RUN_H
#define TEXVM_SRC_JOB_JOB_RUN_H

#include "job.h"
#include "texvm/vm.h"

#include <stdarg.h>
#include <stdio.h>

/* The run options and tv_job_run: texvm/job.h. */

/* ---- internal: the state of one run, shared by job_run_*.c ------------------------------ */

typedef struct run_texture {
    tv_tic tic;              /* header as placed in memory (address set) */
    uint8_t *mem;            /* host storage mapped at tic.address */
    uint64_t size;
} run_texture;

typedef struct run_state {
    const job *j;
    const tv_job_run_opts *opts;
    const char *program_path; /* for fault messages */
    tv_memory *mem;
    tv_tex_unit *tex;
    run_texture *textures;   /* per job texture */
    uint32_t *header_pool;   /* 8 words per entry */
    uint32_t *sampler_pool;
    uint32_t header_count, sampler_count;
    int *header_of_texture;  /* pool index per texture (first entry) */
    int *sampler_of_sampler;
    uint8_t *global;         /* MEMORY GLOBAL backing */
    uint64_t global_size;
    /* FRAG results */
    uint32_t *color[JOB_MAX_TARGETS];
    float *depth;
    uint32_t *stencil;
    /* VERT/GEOM results */
    uint32_t *vert_out[JOB_MAX_ATTRIBS];
    uint32_t num_vert_outputs;
    tv_vm_geometry_output geom_out;
    bool has_geom_out;
    tv_vm_stats stats;
    double engine_seconds;   /* the last run_stage's engine call alone (tv_vm_run_*): what
                                bench_job times, as Mesa's timer covers the draw alone */
    void (*engine_hook)(bool entering); /* NULL, or called as each engine call begins
                                (true) and ends (false): bench_job's --profile */
    char error[1024];        /* first failure message */
    bool ran;                /* the stage ran: the summary is printed (after any error) */
    double run_seconds;
    uint32_t run_threads;
} run_state;

/* Build memory, textures and pools (job_run_tex.c). Returns an exit code. */
int run_textures(run_state *rs);
void run_textures_free(run_state *rs);
/* Pack four words into a texture's storage / read them back, honouring its layout. */
void run_texel_write(run_state *rs, size_t tex, unsigned level, unsigned x, unsigned y,
                     unsigned layer, unsigned sample, const uint8_t *texel);
const uint8_t *run_texel_ptr(const run_state *rs, size_t tex, unsigned level, unsigned x,
                             unsigned y, unsigned layer, unsigned sample);
/* Fill the VM bindings from the job (job_run_stage.c). Returns an exit code. */
int run_bindings(run_state *rs, tv_vm_bindings *b);
/* Run the stage (job_run_stage.c). */
int run_stage(run_state *rs, tv_vm *vm, const tv_vm_program *p, const tv_vm_bindings *b);
/* Worker threads of a run: --threads, else the job's option, else one per core (max 64). */
uint32_t run_thread_count(const job *j, const tv_job_run_opts *o);
/* CLOCK_MONOTONIC seconds (the run summaries' timer). */
double run_now(void);
/* Run a scene job (job_run_scene.c): textures, passes, outputs, checks. */
int run_scene(run_state *rs);
/* Outputs and checks (job_run_out.c). */
int run_outputs(run_state *rs);
/* Before running: every output path stays inside the output folder (no symbolic link on the
 * way, the final name not a link or a folder); missing folders are created. */
int run_outputs_check(run_state *rs);
int run_checks(run_state *rs);
/* Trace printing (job_trace.c). */
typedef struct run_trace {
    FILE *out;
    const tv_tgsi_program *prog;
    char **lines;            /* printed text per instruction */
    uint32_t num_lines;
    uint64_t events;
} run_trace;
bool run_trace_init(run_trace *t, const tv_tgsi_program *prog, FILE *out);
void run_trace_event(void *user, const tv_vm_trace_event *ev);
void run_trace_free(run_trace *t);

/* Record the first failure message (printed by tv_job_run); returns `code`. */
int run_fail(run_state *rs, int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* run_fail with a va_list (for wrappers such as mesa-run's mr_fail). */
int run_vfail(run_state *rs, int code, const char *fmt, va_list ap);
/* Exit code for a library status. */
int run_exit_code(tv_status s);
/* Join the output directory (--out-dir, else the job file's directory) and a relative
 * path; an absolute path, or no directory, gives the path as is (malloc'ed). */
char *run_out_path(const run_state *rs, const char *rel);

#endif
