/* Dispatch plumbing shared by the stages: limits, per-worker memory, warp reset, and
 * running jobs (tiles, blocks, vertex groups) on the thread pool with deterministic error
 * selection (the failing job with the lowest number wins). */
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>

#include "vm/vm_jit.h"
#include "vm/vm_run.h"
#include "util/fpmode.h"

void vm_run_take_budgets(vm_run *run)
{
    const tv_vm_limits *lim = &run->vm->cfg.limits;
    run->max_instructions = lim->max_instructions ? lim->max_instructions : 1000000000ull;
    run->max_loop_iterations = lim->max_loop_iterations ? lim->max_loop_iterations
                                                        : 100000000ull;
}

tv_status vm_run_begin(vm_run *run, tv_vm *vm, const tv_vm_program *p, const tv_vm_bindings *b,
                       tv_tgsi_processor stage, tv_error *err)
{
    memset(run, 0, sizeof *run);
    if (!vm || !p)
        return tv_error_set(err, TV_ERR_ARG, 0, 0, "no engine or program");
    if (p->proc != stage)
        return tv_error_set(err, TV_ERR_ARG, 0, 0, "the program is a %s program, not %s",
                            tv_tgsi_processor_name(p->proc), tv_tgsi_processor_name(stage));
    static const tv_vm_bindings empty;
    run->vm = vm;
    run->prog = p;
    run->b = b ? b : &empty;
    run->stage = stage;
    const tv_vm_limits *lim = &vm->cfg.limits;
    vm_run_take_budgets(run);
    run->max_call_depth = lim->max_call_depth ? lim->max_call_depth : 64;
    if (run->max_call_depth > 1024)
        run->max_call_depth = 1024;
    run->shared_bytes = run->b->shared_bytes ? run->b->shared_bytes : 65536;
    run->private_bytes = run->b->private_bytes ? run->b->private_bytes : 4096;
    run->tracing = vm->tracing;
    run->plain = vm->cfg.plain || p->plain;
    return TV_OK;
}

static bool uses_memory(const tv_vm_program *p, uint8_t type)
{
    for (unsigned i = 0; i < TV_VM_MAX_MEMORY; i++)
        if (p->memory[i].declared && p->memory[i].type == type)
            return true;
    return false;
}

void vm_debug_poison_registers(tv_vm *vm, bool on)
{
    vm->poison_regs = on;
}

/* Words of every kind (NaNs, infinities, denormals, large integers), different per run. */
static void poison(vm_slot *regs, uint64_t bytes, uint32_t seed)
{
    uint32_t *w = (uint32_t *)(void *)regs, x = seed * 2654435761u + 0x9e3779b9u;
    for (uint64_t i = 0; i < bytes / 4; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        w[i] = (i & 7) == 3 ? 0x7fc00000u | (x & 0xffu) : x;
    }
}

/* Blocks on 64-byte lines of their own (their sizes rounded up to whole lines): a worker's
 * buffers that its warps write (the workers themselves, stacks, shared and private memory,
 * the texture request) — allocated one after the other, two workers' buffers would share
 * the line between them, which moves between the cores at every write (workers_alloc). */
static void *lines_alloc(uint64_t bytes)
{
    return aligned_alloc(64, (size_t)((bytes + 63) / 64 * 64));
}
static void *lines_zalloc(uint64_t bytes)
{
    void *m = lines_alloc(bytes);
    if (m)
        memset(m, 0, (size_t)bytes);
    return m;
}

/* A texture request whose per-lane arrays start 64-byte lines: build_request copies the
 * operands into them and the unit's vector kernels read them as 64-byte vectors, which
 * straddled two lines wherever malloc's 16-byte alignment left the struct (three
 * addresses in four). Their offsets in the public struct share one remainder mod 64
 * (checked here for the first and the coordinates), so the request starts REQ_SHIFT
 * bytes into a 64-byte-aligned block; tex_req_free gives the block back. */
enum { REQ_SHIFT = (64 - offsetof(struct tv_tex_request, handle) % 64) % 64 };
_Static_assert(offsetof(struct tv_tex_request, coord) % 64 ==
                   offsetof(struct tv_tex_request, handle) % 64,
               "tv_tex_request's lane arrays no longer share their offset mod 64");

static struct tv_tex_request *tex_req_new(void)
{
    char *mem = lines_alloc(REQ_SHIFT + sizeof(struct tv_tex_request));
    return mem ? (struct tv_tex_request *)(void *)(mem + REQ_SHIFT) : NULL;
}

static void tex_req_free(struct tv_tex_request *req)
{
    if (req)
        free((char *)req - REQ_SHIFT);
}

tv_status vm_worker_init(vm_worker *wk, const vm_run *run, uint32_t nwarps, tv_error *err)
{
    const tv_vm_program *p = run->prog;
    /* the buffers a kept worker brings along */
    vm_warp *warps = wk->warps;
    vm_slot *regs_mem = wk->regs;
    void *stack_mem = wk->stack_mem;
    struct tv_tex_request *tex_req = wk->tex_req;
    uint32_t tex_req_groups = wk->tex_req_groups;
    size_t warps_cap = wk->warps_cap, regs_cap = wk->regs_cap, stack_cap = wk->stack_cap;
    memset(wk, 0, sizeof *wk);
    wk->warps = warps;
    wk->regs = regs_mem;
    wk->stack_mem = stack_mem;
    wk->tex_req = tex_req;
    wk->tex_req_groups = tex_req_groups;
    wk->warps_cap = warps_cap;
    wk->regs_cap = regs_cap;
    wk->stack_cap = stack_cap;
    wk->run = run;
    wk->nwarps = nwarps;
    uint64_t limit = run->vm->cfg.limits.max_memory ? run->vm->cfg.limits.max_memory
                                                    : (1ull << 30);
    uint32_t nest = (p->max_nesting + 2) * (run->max_call_depth + 1);
    uint64_t regs = (uint64_t)nwarps * p->num_slots * sizeof(vm_slot);
#define VM_ALIGN16(x) (((uint64_t)(x) + 15u) & ~(uint64_t)15u)
    uint64_t per_warp_stacks = VM_ALIGN16((uint64_t)nest * sizeof(uint32_t)) +
                               2 * VM_ALIGN16((uint64_t)nest * sizeof(vm_cfentry)) +
                               VM_ALIGN16((uint64_t)run->max_call_depth * sizeof(vm_callframe));
    uint64_t stacks = (uint64_t)nwarps * per_warp_stacks;
    uint64_t shared = (run->stage == TV_TGSI_COMP) ? run->shared_bytes : 0;
    uint64_t priv = uses_memory(p, TV_MEM_PRIVATE) ?
                    (uint64_t)nwarps * VM_LANES * run->private_bytes : 0;
    if (regs + stacks + shared + priv > limit) {
        vm_worker_fini(wk);
        return tv_error_set(err, TV_ERR_NOMEM, 0, 0,
                            "run needs %llu bytes per worker, over the memory limit %llu",
                            (unsigned long long)(regs + stacks + shared + priv),
                            (unsigned long long)limit);
    }
    if (wk->warps_cap < nwarps) {
        free(wk->warps);
        /* (vm_warp is 64-byte aligned: its lane arrays, vm_internal.h) */
        wk->warps = aligned_alloc(_Alignof(vm_warp), (size_t)nwarps * sizeof *wk->warps);
        wk->warps_cap = wk->warps ? nwarps : 0;
    }
    if (wk->warps)
        memset(wk->warps, 0, (size_t)nwarps * sizeof *wk->warps);
    size_t regs_bytes = (size_t)((regs + 63) / 64) * 64;
    bool fresh_regs = false;
    if (wk->regs_cap < regs_bytes || !wk->regs) {
        fresh_regs = true;
        free(wk->regs);
        wk->regs = lines_alloc(regs_bytes ? regs_bytes : 64);
        wk->regs_cap = wk->regs ? regs_bytes : 0;
    }
    size_t stack_bytes = stacks ? (size_t)stacks : 16;
    if (wk->stack_cap < stack_bytes) {
        free(wk->stack_mem);
        wk->stack_mem = lines_alloc(stack_bytes);
        wk->stack_cap = wk->stack_mem ? stack_bytes : 0;
    }
    wk->shared = shared ? lines_zalloc(shared) : NULL;
    wk->shared_size = (uint32_t)shared;
    wk->priv = priv ? lines_zalloc(priv) : NULL;
    if (!wk->tex_req) {
        /* a kept request stays as the last texture micro-op left it: zero outside the
           groups tex_req_groups names (vm_ops_tex.c), which the next one clears */
        wk->tex_req = tex_req_new();
        wk->tex_req_groups = 0;
        if (wk->tex_req)
            memset(wk->tex_req, 0, sizeof *wk->tex_req);
    }
    if (!wk->warps || !wk->regs || !wk->stack_mem || (shared && !wk->shared) ||
        (priv && !wk->priv) || !wk->tex_req) {
        vm_worker_fini(wk);
        return tv_error_set(err, TV_ERR_NOMEM, 0, 0, "out of memory");
    }
    /* The register file: a fresh one (and the plain interpreter's, the reference) is
       zeroed; a kept one keeps what the last run left. No program can tell: the uniform
       slots are filled below, every warp start zeroes TEMP to ADDR (vm_zero_regs; the
       compiled code zeroes its own TEMP and ADDR, and a tile's input pass that writes
       every IN channel the program reads leaves IN unzeroed: vm_run.in_by_pass), and the
       scratch slots are written before they are read — as they already are for the
       second warp of any run. This
       saves clearing the whole file (8.8 KB for a 69-slot program) for every primitive's
       fragment run. The translation-validation runs poison kept files to check it. */
    if (run->vm->poison_regs && !run->plain)
        poison(wk->regs, regs, run->vm->poison_seed++);
    else if (fresh_regs || run->plain)
        memset(wk->regs, 0, regs);
    /* uniform slots: zero, immediates, constants (robust: out of range reads 0) */
    uint8_t *sm = wk->stack_mem;
    for (uint32_t i = 0; i < nwarps; i++) {
        vm_warp *w = &wk->warps[i];
        w->r = wk->regs + (size_t)i * p->num_slots;
        for (uint32_t s = 0; s < p->num_uniform; s++) {
            uint32_t v = p->uniform_init[s];
            for (unsigned l = 0; l < VM_LANES; l++)
                w->r[s].u[l] = v;
        }
        for (uint32_t k = 0; k < p->num_constrefs; k++) {
            const vm_constref *c = &p->constrefs[k];
            uint32_t v = 0;
            if (c->dim < TV_VM_MAX_CONSTBUFS) {
                const tv_vm_buffer *cb = &run->b->constbufs[c->dim];
                uint64_t byte = (uint64_t)c->index * 16u + c->comp * 4u;
                if (cb->data && byte + 4 <= cb->size)
                    memcpy(&v, (const uint8_t *)cb->data + byte, 4);
            }
            for (unsigned l = 0; l < VM_LANES; l++)
                w->r[c->slot].u[l] = v;
        }
        w->cond_stack = (uint32_t *)(void *)sm;
        sm += VM_ALIGN16(nest * sizeof(uint32_t));
        w->cond_cap = nest;
        w->loop_stack = (vm_cfentry *)(void *)sm;
        sm += VM_ALIGN16(nest * sizeof(vm_cfentry));
        w->loop_cap = nest;
        w->sw_stack = (vm_cfentry *)(void *)sm;
        sm += VM_ALIGN16(nest * sizeof(vm_cfentry));
        w->sw_cap = nest;
        w->calls = (vm_callframe *)(void *)sm;
        sm += VM_ALIGN16(run->max_call_depth * sizeof(vm_callframe));
        w->call_cap = run->max_call_depth;
        w->prog = p;
        w->run = run;
        w->wk = wk;
    }
    return TV_OK;
}

void vm_worker_release(vm_worker *wk)
{
    free(wk->shared);
    free(wk->priv);
    free(wk->gs);
    free(wk->tcs_merged);
    wk->tcs_merged = NULL;
    wk->gs = NULL;
    wk->shared = NULL;
    wk->priv = NULL;
}

void vm_worker_fini(vm_worker *wk)
{
    vm_worker_release(wk);
    free(wk->warps);
    free(wk->regs);
    free(wk->stack_mem);
    tex_req_free(wk->tex_req);
    wk->warps = NULL;
    wk->regs = NULL;
    wk->stack_mem = NULL;
    wk->tex_req = NULL;
    wk->warps_cap = wk->regs_cap = wk->stack_cap = 0;
}

vm_warp *vm_worker_warp(vm_worker *wk, uint32_t i, uint32_t present, uint32_t live)
{
    vm_warp *w = &wk->warps[i];
    w->present = present;
    w->live = live & present;
    w->killed = w->demoted = 0;
    w->helper = present & ~live;
    w->cond = w->loop = w->cont = w->sw = w->func = VM_ALL_LANES;
    w->pc = 0;
    w->done = false;
    w->at_barrier = false;
    w->cond_sp = w->loop_sp = w->sw_sp = w->call_sp = 0;
    w->budget = wk->run->max_instructions;
    w->insns = w->uops = 0;
    w->fault = false;
    w->robust = wk->run->vm->cfg.robust_indexing;
    w->sample = 0;
    w->gs_stream_mask = 0;
    vm_update_exec(w);
    return w;
}

/* ---- jobs ------------------------------------------------------------------------------ */

typedef struct {
    vm_run *run;
    vm_worker *workers;
    vm_job_fn fn;
    atomic_uint_fast64_t first_err;
} jobctx;

static void job_main(void *ctx, uint32_t worker, uint64_t job)
{
    jobctx *jc = ctx;
    if (job > atomic_load(&jc->first_err))
        return;   /* a lower-numbered job already failed */
    vm_worker *wk = &jc->workers[worker];
    tv_error e;
    memset(&e, 0, sizeof e);
    /* denormals flushed for the job's whole run (tv_vm_config.flush_denormals), whichever
       thread takes it; the thread's own modes come back after */
    bool flush = jc->run->vm->cfg.flush_denormals;
    unsigned fp_saved = flush ? tv_fp_flush_begin() : 0;
    tv_status st = jc->fn(wk, job, &e);
    if (flush)
        tv_fp_flush_end(fp_saved);
    if (st != TV_OK && (wk->status == TV_OK || job < wk->err_job)) {
        wk->status = st;
        wk->err_job = job;
        wk->err = e;
        uint_fast64_t cur = atomic_load(&jc->first_err);
        while (job < cur && !atomic_compare_exchange_weak(&jc->first_err, &cur, job)) {
        }
    }
}

/* N zeroed workers on 64-byte lines of their own (vm_worker is aligned so): each writes
 * its counters and tile state for every warp it runs, and two threads' workers sharing a
 * line moved it between the cores at every warp — on a Zen 5 host the loop workload's two
 * threads ran slower than one (docs/performance-amd-zen5.md §4). */
_Static_assert(_Alignof(vm_worker) == 64, "vm_worker is no longer on 64-byte lines");
static vm_worker *workers_alloc(uint32_t n)
{
    return lines_zalloc((uint64_t)n * sizeof(vm_worker));
}

tv_status vm_run_jobs(vm_run *run, uint64_t njobs, uint32_t nwarps, vm_job_fn fn,
                      tv_vm_stats *stats, tv_error *err)
{
    uint32_t threads = tv_threadpool_threads(run->vm->pool);
    if (run->vm->thread_cap && threads > run->vm->thread_cap)
        threads = run->vm->thread_cap;
    if (run->tracing)
        threads = 1;
    if (njobs < threads)
        threads = (uint32_t)(njobs ? njobs : 1);
    /* the engine's kept workers when no other run holds them, grown to THREADS */
    tv_vm *vm = run->vm;
    bool keep = !atomic_exchange(&vm->cache_busy, true);
    if (keep && vm->cache_n < threads) {
        vm_worker *grown = workers_alloc(threads);
        if (grown) {
            if (vm->cache_n)
                memcpy(grown, vm->cache, (size_t)vm->cache_n * sizeof *grown);
            free(vm->cache);
            vm->cache = grown;
            vm->cache_n = threads;
        } else {
            atomic_store(&vm->cache_busy, false);
            keep = false;
        }
    }
    vm_worker *workers = keep ? vm->cache : workers_alloc(threads);
    if (!workers)
        return tv_error_set(err, TV_ERR_NOMEM, 0, 0, "out of memory");
    vm_jit_prepare(run, run->expected_warps ? run->expected_warps : njobs * (uint64_t)nwarps);
    tv_status st = TV_OK;
    uint32_t inited = 0;
    for (; inited < threads; inited++) {
        st = vm_worker_init(&workers[inited], run, nwarps, err);
        if (st != TV_OK)
            break;
        workers[inited].index = inited;
    }
    if (st == TV_OK) {
        jobctx jc;
        jc.run = run;
        jc.workers = workers;
        jc.fn = fn;
        atomic_init(&jc.first_err, UINT64_MAX);
        tv_threadpool_run(run->vm->pool, njobs, threads, job_main, &jc);
        const vm_worker *bad = NULL;
        for (uint32_t i = 0; i < threads; i++)
            if (workers[i].status != TV_OK && (!bad || workers[i].err_job < bad->err_job))
                bad = &workers[i];
        if (bad) {
            st = bad->status;
            if (err)
                *err = bad->err;
        }
        if (stats) {
            memset(stats, 0, sizeof *stats);
            for (uint32_t i = 0; i < threads; i++) {
                stats->instructions += workers[i].stats.instructions;
                stats->uops += workers[i].stats.uops;
                stats->warps += workers[i].stats.warps;
                stats->invocations += workers[i].stats.invocations;
                stats->killed += workers[i].stats.killed;
            }
        }
    }
    for (uint32_t i = 0; i < inited; i++) {
        if (keep)
            vm_worker_release(&workers[i]);
        else
            vm_worker_fini(&workers[i]);
    }
    if (keep)
        atomic_store(&vm->cache_busy, false);
    else
        free(workers);
    return st;
}

void vm_worker_count(vm_worker *wk, const vm_warp *w)
{
    wk->stats.instructions += w->insns;
    wk->stats.uops += w->uops;
    wk->stats.warps++;
}

/* The end of vm_zero_regs' run of slots (it starts at TEMP): the last ADDR slot's next */
static uint32_t zero_regs_end(const tv_vm_program *p)
{
    return p->addr.base + p->addr.count * 4;
}

void vm_jit_clear_ranges(tv_vm_program *p)
{
    memset(p->jit_clear, 0, sizeof p->jit_clear);
    const uint32_t end = p->addr.base;
    if (!p->jit_zero_init || p->in.base < p->temp.base || end < p->in.base) {
        /* not the usual layout (or code that starts nothing at zero): vm_zero_regs' run */
        p->jit_clear[0][0] = p->temp.base;
        p->jit_clear[0][1] = zero_regs_end(p) - p->temp.base;
        return;
    }
    if (p->jit_zero_out && p->in.base <= p->out.base && p->out.base <= p->sv.base &&
        p->sv.base <= end) {
        /* the code starts OUT at zero too: IN (up to OUT) and SV (up to ADDR) only */
        p->jit_clear[0][0] = p->in.base;
        p->jit_clear[0][1] = p->out.base - p->in.base;
        p->jit_clear[1][0] = p->sv.base;
        p->jit_clear[1][1] = end - p->sv.base;
        return;
    }
    p->jit_clear[0][0] = p->in.base;
    p->jit_clear[0][1] = end - p->in.base;
}

void vm_zero_regs(vm_warp *w)
{
    /* every register a program may read before writing it: TEMP, IN, OUT, SV and ADDR
       (scratch and switch selectors are always written first) */
    const tv_vm_program *p = w->prog;
    memset(&w->r[p->temp.base], 0, (size_t)(zero_regs_end(p) - p->temp.base) * sizeof(vm_slot));
}
