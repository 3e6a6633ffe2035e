/* texvm run: a loaded job onto the engine — program, resources, stage, outputs, checks. */
#include "job_limits.h"
#include "job_run.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int run_exit_code(tv_status s)
{
    switch (s) {
    case TV_OK: return TV_EXIT_OK;
    case TV_ERR_UNSUPPORTED: return TV_EXIT_UNSUPPORTED;
    case TV_ERR_IO: return TV_EXIT_IO;
    default: return TV_EXIT_INVALID;
    }
}

/* The job's interpolation overrides, written into the program's IN declarations. */
static void apply_interp(const job *j, tv_tgsi_program *prog)
{
    for (size_t i = 0; i < j->frag.num_inputs; i++) {
        const job_frag_input *in = &j->frag.inputs[i];
        if (in->interpolate < 0 && in->location < 0)
            continue;
        for (uint32_t d = 0; d < prog->num_decls; d++) {
            tv_tgsi_declaration *dc = &prog->decls[d];
            if (dc->file != TV_FILE_IN || (int64_t)in->index < dc->first ||
                (int64_t)in->index > dc->last)
                continue;
            dc->has_interp = true;
            if (in->interpolate >= 0)
                dc->interp = (uint8_t)in->interpolate;
            if (in->location >= 0)
                dc->location = (uint8_t)in->location;
        }
    }
}

uint32_t run_thread_count(const job *j, const tv_job_run_opts *o)
{
    int t = o->threads >= 0 ? o->threads : j->options.threads;
    if (t > 0)
        return (uint32_t)t;
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (uint32_t)(n > 64 ? 64 : n) : 1;
}

double run_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void print_summary(const run_state *rs, double seconds, uint32_t threads)
{
    const job *j = rs->j;
    char what[96];
    switch (j->run) {
    case TV_TGSI_FRAG:
        snprintf(what, sizeof what, "FRAG %ux%u", j->frag.width, j->frag.height);
        break;
    case TV_TGSI_COMP:
        snprintf(what, sizeof what, "COMP grid %ux%ux%u", j->comp.grid[0], j->comp.grid[1],
                 j->comp.grid[2]);
        break;
    case TV_TGSI_VERT:
        snprintf(what, sizeof what, "VERT %u vertices x %u instances", j->vert.count,
                 j->vert.instances);
        break;
    default:
        snprintf(what, sizeof what, "GEOM %u primitives", j->geom.count);
        break;
    }
    fprintf(stderr,
            "texvm run: %s: %llu invocations, %llu warp instructions, %.3f s on %u thread%s\n",
            what, (unsigned long long)rs->stats.invocations,
            (unsigned long long)rs->stats.instructions, seconds, threads, threads == 1 ? "" : "s");
}

static void free_state(run_state *rs)
{
    for (int t = 0; t < JOB_MAX_TARGETS; t++)
        free(rs->color[t]);
    free(rs->depth);
    free(rs->stencil);
    for (int r = 0; r < JOB_MAX_ATTRIBS; r++)
        free(rs->vert_out[r]);
    if (rs->has_geom_out)
        tv_vm_geometry_output_free(&rs->geom_out);
    free(rs->global);
    run_textures_free(rs);
}

static int unsupported_options(run_state *rs)
{
    const job_options *o = &rs->j->options;
    if (o->robust_access == 0)
        return run_fail(rs, TV_EXIT_UNSUPPORTED,
                        "options.robust_access false: the engine always applies the "
                        "robust-access rule");
    return 0;
}

static uint32_t prop_value(const tv_tgsi_program *prog, unsigned name, uint32_t dflt)
{
    for (uint32_t i = 0; i < prog->num_props; i++)
        if (prog->props[i].name == name)
            return prog->props[i].value;
    return dflt;
}

/* --trace names an invocation the run has (a FRAG pixel and sample of the target, a COMP
 * global thread id of the grid, a VERT vertex and instance, a GEOM primitive and
 * invocation); else a message and TV_EXIT_USAGE, before anything runs. */
static int trace_outside(run_state *rs, const tv_tgsi_program *prog, const tv_vm_program *p)
{
    const job *j = rs->j;
    const uint32_t *id = rs->opts->trace_id;
    if (!rs->opts->trace)
        return 0;
    switch (j->run) {
    case TV_TGSI_FRAG:
        if (id[0] < j->frag.width && id[1] < j->frag.height && id[2] < j->frag.samples)
            return 0;
        fprintf(stderr, "texvm run: --trace %u,%u,%u is outside the %ux%u target with %u "
                        "sample%s\n", id[0], id[1], id[2], j->frag.width, j->frag.height,
                j->frag.samples, j->frag.samples == 1 ? "" : "s");
        return TV_EXIT_USAGE;
    case TV_TGSI_COMP: {
        uint32_t fixed[3], threads[3];
        tv_vm_program_block_size(p, fixed);
        for (int k = 0; k < 3; k++) {
            uint32_t block = j->comp.block[k] ? j->comp.block[k] : fixed[k] ? fixed[k] : 1;
            uint64_t n = (uint64_t)j->comp.grid[k] * block;
            threads[k] = n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
        }
        if (id[0] < threads[0] && id[1] < threads[1] && id[2] < threads[2])
            return 0;
        fprintf(stderr, "texvm run: --trace %u,%u,%u is outside the grid of %ux%ux%u threads\n",
                id[0], id[1], id[2], threads[0], threads[1], threads[2]);
        return TV_EXIT_USAGE;
    }
    case TV_TGSI_VERT:
        if (id[0] < j->vert.count && id[1] < j->vert.instances && !id[2])
            return 0;
        fprintf(stderr, "texvm run: --trace %u,%u%s is outside the %u vertices x %u "
                        "instance%s (--trace VERTEX[,INSTANCE])\n", id[0], id[1],
                id[2] ? ",…" : "", j->vert.count, j->vert.instances,
                j->vert.instances == 1 ? "" : "s");
        return TV_EXIT_USAGE;
    default: {
        uint32_t inv = prop_value(prog, TV_PROP_GS_INVOCATIONS, 1);
        if (!inv)
            inv = 1;
        if (id[0] < j->geom.count && id[1] < inv && !id[2])
            return 0;
        fprintf(stderr, "texvm run: --trace %u,%u%s is outside the %u primitives x %u "
                        "invocation%s (--trace PRIMITIVE[,INVOCATION])\n", id[0], id[1],
                id[2] ? ",…" : "", j->geom.count, inv, inv == 1 ? "" : "s");
        return TV_EXIT_USAGE;
    }
    }
}

static bool buffer_bound(const job *j, int64_t slot)
{
    for (size_t i = 0; i < j->num_buffers; i++)
        if (j->buffers[i].slot == slot)
            return true;
    return false;
}

static bool image_bound(const job *j, int64_t slot)
{
    for (size_t i = 0; i < j->num_images; i++)
        if (j->images[i].slot == slot)
            return true;
    return false;
}

static bool frag_input_given(const job *j, int64_t index)
{
    for (size_t i = 0; i < j->frag.num_inputs; i++)
        if (j->frag.inputs[i].index == index)
            return true;
    return false;
}

/* Declarations the job leaves without anything behind them run without error but do
 * nothing (robust access: loads read 0, stores are dropped; a FRAG input without values
 * reads 0): one warning line each (docs/jobs-outputs.md §1). */
static void warn_unbound(const run_state *rs, const tv_tgsi_program *prog)
{
    const job *j = rs->j;
    const char *path = rs->program_path ? rs->program_path : j->path;
    for (uint32_t d = 0; d < prog->num_decls; d++) {
        const tv_tgsi_declaration *dc = &prog->decls[d];
        for (int64_t r = dc->first; r <= dc->last && r - dc->first < 8; r++) {
            if (dc->file == TV_FILE_BUFFER && !buffer_bound(j, r))
                fprintf(stderr, "texvm run: warning: %s declares BUFFER[%lld], but no buffer "
                                "has \"slot\": %lld; its loads read 0 and its stores do "
                                "nothing\n", path, (long long)r, (long long)r);
            else if (dc->file == TV_FILE_IMAGE && !image_bound(j, r))
                fprintf(stderr, "texvm run: warning: %s declares IMAGE[%lld], but no image "
                                "has \"slot\": %lld; its loads read 0 and its stores do "
                                "nothing\n", path, (long long)r, (long long)r);
            else if (dc->file == TV_FILE_IN && j->run == TV_TGSI_FRAG &&
                     !(dc->has_semantic && (dc->semantic == TV_SEM_POSITION ||
                                            dc->semantic == TV_SEM_FACE)) &&
                     !frag_input_given(j, r))
                fprintf(stderr, "texvm run: warning: %s reads IN[%lld], but frag.inputs has "
                                "no \"index\": %lld; it reads 0 at every pixel\n", path,
                        (long long)r, (long long)r);
        }
    }
}

static int run_with_program(run_state *rs, tv_tgsi_program *prog)
{
    const job *j = rs->j;
    const tv_job_run_opts *o = rs->opts;
    tv_error err;
    memset(&err, 0, sizeof err);
    int rc = unsupported_options(rs);
    if (rc)
        return rc;
    if (j->run == TV_TGSI_FRAG)
        apply_interp(j, prog);
    tv_vm_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.threads = run_thread_count(j, o);
    cfg.plain = o->plain;
    cfg.jit = o->jit;
    cfg.flush_denormals = j->options.flush_denormals == 1;
    cfg.fine_derivatives = j->options.fine_derivatives == 1;
    cfg.limits.max_instructions = o->max_instructions ? o->max_instructions
                                                      : j->options.max_instructions;
    cfg.limits.max_loop_iterations = o->max_loop_iterations ? o->max_loop_iterations
                                                            : j->options.max_loop_iterations;
    cfg.limits.max_call_depth = o->max_call_depth ? o->max_call_depth
                                                  : j->options.max_call_depth;
    cfg.limits.max_memory = o->max_memory ? o->max_memory : j->options.max_memory;
    /* every worker allocates its own registers, stacks, shared and private memory: all
     * workers together stay within the job memory limit (docs/limits.md) */
    uint64_t per_worker = job_max_memory() / (cfg.threads ? cfg.threads : 1);
    if (!cfg.limits.max_memory)
        cfg.limits.max_memory = (uint64_t)1 << 30; /* the engine's default */
    if (cfg.limits.max_memory > per_worker)
        cfg.limits.max_memory = per_worker ? per_worker : 1;
    tv_vm *vm = tv_vm_create(&cfg, &err);
    if (!vm) {
        tv_job_print_error(&err);
        return run_exit_code(err.code);
    }
    tv_vm_program *p = tv_vm_program_create(vm, prog, &err);
    if (!p) {
        if (!err.file[0] && rs->program_path)
            snprintf(err.file, sizeof err.file, "%s", rs->program_path);
        tv_job_print_error(&err);
        tv_vm_destroy(vm);
        return run_exit_code(err.code);
    }
    tv_vm_bindings b;
    run_trace tr;
    bool tracing = false;
    rc = trace_outside(rs, prog, p);
    if (!rc && !o->quiet)
        warn_unbound(rs, prog);
    if (!rc)
        rc = run_outputs_check(rs);
    if (!rc)
        rc = run_textures(rs);
    if (!rc) {
        int prec = o->precision >= 0 ? o->precision : j->options.precision;
        if (prec >= 0)
            tv_tex_set_precision(rs->tex, (tv_tex_precision)prec);
        rc = run_bindings(rs, &b);
    }
    if (!rc && o->trace) {
        if (!run_trace_init(&tr, tv_vm_program_source(p), o->trace_out ? o->trace_out : stdout))
            rc = run_fail(rs, TV_EXIT_INVALID, "out of memory");
        else {
            tracing = true;
            tv_vm_trace vt = {run_trace_event, &tr, {o->trace_id[0], o->trace_id[1],
                                                    o->trace_id[2]}};
            tv_vm_set_trace(vm, &vt);
        }
    }
    double t0 = run_now();
    if (!rc)
        rc = run_stage(rs, vm, p, &b);
    double t1 = run_now();
    if (tracing) {
        tv_vm_set_trace(vm, NULL);
        if (!tr.events)
            fprintf(tr.out, "trace: the traced invocation executed no instruction (is it inside "
                            "the grid / target?)\n");
        run_trace_free(&tr);
    }
    if (!rc) { /* it ran: tv_job_run prints the summary last, after any error */
        rs->ran = true;
        rs->run_seconds = t1 - t0;
        rs->run_threads = o->trace ? 1 : cfg.threads;
    }
    if (!rc)
        rc = run_outputs(rs);
    if (!rc)
        rc = run_checks(rs);
    tv_vm_program_destroy(p);
    tv_vm_destroy(vm);
    return rc;
}

int tv_job_run(const job *j, const tv_job_run_opts *opts)
{
    run_state *rs = calloc(1, sizeof *rs);
    if (!rs) {
        fprintf(stderr, "texvm run: out of memory\n");
        return TV_EXIT_INVALID;
    }
    rs->j = j;
    rs->opts = opts;
    char lim[256];
    if (job_check_memory(j, 0, lim, sizeof lim)) { /* short forms build jobs in code */
        fprintf(stderr, "texvm run: %s: %s\n", j->path, lim);
        free(rs);
        return TV_EXIT_INVALID;
    }
    /* silent no-ops get a one-line warning, naming resources by their job names */
    if (!opts->quiet) {
        for (size_t i = 0; i < j->num_buffers && !j->scene; i++)
            if (j->buffers[i].slot < 0)
                fprintf(stderr, "texvm run: warning: buffer \"%s\" has no \"slot\"; the program "
                                "cannot reach it\n", j->buffers[i].name ? j->buffers[i].name : "");
        if (!j->num_outputs && !j->num_checks)
            fprintf(stderr, "texvm run: warning: the job has no \"outputs\" and no \"checks\"; "
                            "nothing of the run is kept\n");
    }
    const job_program *jp = NULL;
    for (size_t i = 0; i < j->num_programs; i++)
        if (j->programs[i].stage == j->run)
            jp = &j->programs[i];
    tv_tgsi_program *progs = NULL;
    size_t count = 0;
    tv_error err;
    memset(&err, 0, sizeof err);
    int rc;
    if (j->scene) {
        rc = run_scene(rs);
    } else if (!jp) {
        rc = run_fail(rs, TV_EXIT_INVALID, "%s: no %s program", j->path, job_stage_name(j->run));
    } else if (tv_tgsi_parse(jp->text, jp->text_len, jp->tgsi_path ? jp->tgsi_path : j->path,
                             TV_TGSI_MODE_DEFAULT, &progs, &count, &err) != TV_OK) {
        tv_job_print_error(&err);
        rc = run_exit_code(err.code);
    } else {
        tv_tgsi_program *prog = NULL;
        for (size_t i = 0; i < count && !prog; i++)
            if (progs[i].processor == j->run)
                prog = &progs[i];
        if (!prog)
            rc = run_fail(rs, TV_EXIT_INVALID, "%s: the TGSI text holds no %s program",
                          jp->tgsi_path ? jp->tgsi_path : j->path, job_stage_name(j->run));
        else {
            rs->program_path = jp->tgsi_path ? jp->tgsi_path : j->path;
            rc = run_with_program(rs, prog);
        }
        tv_tgsi_programs_free(progs, count);
    }
    if (rc && rs->error[0])
        fprintf(stderr, "texvm run: %s\n", rs->error);
    if (rs->ran && !opts->quiet)
        print_summary(rs, rs->run_seconds, rs->run_threads);
    free_state(rs);
    free(rs);
    return rc;
}
