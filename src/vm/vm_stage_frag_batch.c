/* Batches of a draw's small primitives (tv_vm_frag_batch, include/texvm/vm.h): the warp
 * being filled kept from one primitive to the next, so that a draw of triangles of ten
 * pixels runs about half as many warps, and the engine set up once, not per triangle
 * (the packing itself: vm_stage_frag_pack.c). An add whose primitive packs goes into the
 * pending warps; one that changes the shared parameters, lowers the budgets or does not
 * pack runs what is pending first, so every pixel reaches the hooks in the primitives'
 * order. */
#include <stdlib.h>
#include <string.h>

#include "util/fpmode.h"
#include "vm/vm_jit.h"
#include "vm/vm_stage_frag.h"
#include "vm/vm_stage_frag_defer.h"
#include "vm/vm_stage_frag_pack.h"
#include "vm/vm_stage_frag_store.h"

struct tv_vm_frag_batch {
    tv_vm *vm;
    const tv_vm_program *p;
    const tv_vm_bindings *b;
    vm_run run;                    /* the worker's run: the current primitive's */
    vm_worker wk;
    bool ready;                    /* wk is set up for run */
    bool packable;                 /* the program and engine allow packing */
    frag_pack P;                   /* the warp being filled */
    vm_frag_defer defer;           /* its groups whose inputs wait (P.defer) */
    vm_frag_defer_plan plan;
    tv_vm_frag_params common;      /* the fields the pending primitives share (hooks,
                                      target), for the warps run after their adds */
    bool has_common;
    bool shared_ok;                /* run's shared set-up (vm_frag_run_setup_shared) is
                                      that of common with flatshade shared_flat */
    bool shared_flat;
    uint64_t jit_warps;            /* warps added while a warp was pending (JIT measure) */
};

/* The INTERP_* opcodes read their primitive's vertices while the program runs, which a
 * warp of several primitives cannot give them. */
static bool interpolates_at_run_time(const tv_vm_program *p)
{
    for (uint32_t i = 0; i < p->src.num_insns; i++) {
        unsigned op = p->src.insns[i].opcode;
        if (op == TV_TGSI_OP_INTERP_CENTROID || op == TV_TGSI_OP_INTERP_SAMPLE ||
            op == TV_TGSI_OP_INTERP_OFFSET)
            return true;
    }
    return false;
}

/* Whether program P's results under bindings B need nothing of a lane's quad neighbours,
 * so that a warp may hold covered pixels instead of quads: no derivative (DDX, DDY, LOD
 * queries, indirect or bindless implicit-LOD samplings: reads_quads), and each direct
 * implicit-LOD sampling's descriptors give the same values at every LOD
 * (tv_tex_lod_free: one level, one filter, no anisotropy). Helper lanes then compute
 * nothing any result reads, and a warp of 32 covered pixels replaces the 8 quads that
 * hold them with their helpers (40 % of the lanes of bench_draw's mesh). Read once at
 * the batch's start: a batch's bindings and descriptors are those of every add. */
static bool pixels_ok(const tv_vm_program *p, const tv_vm_bindings *b)
{
    if (p->reads_quads || (p->num_lod_tex && !b->tex))
        return false;
    for (unsigned i = 0; i < p->num_lod_tex; i++)
        if (!tv_tex_lod_free(b->tex, p->lod_tex[i], (tv_tex_target)p->lod_tex_target[i]))
            return false;
    return true;
}

/* Each field's difference ORed into one word, one test at the end: it runs at every add,
 * where a chain of && made a branch per field (bench_draw's mesh: 10.5 million
 * instructions fewer in 12 draws, 0.1 %). */
#define DIFF(f) ((uintptr_t)(a->f) ^ (uintptr_t)(b->f))
bool vm_frag_same_common(const tv_vm_frag_params *a, const tv_vm_frag_params *b)
{
    uintptr_t diff = DIFF(width) | DIFF(height) | DIFF(samples) | DIFF(sample_mask) |
                     DIFF(sample_shading) | DIFF(depth) | DIFF(stencil) |
                     DIFF(sample_mask_out) | DIFF(coverage) | DIFF(coverage_warp) |
                     DIFF(row_span) | DIFF(coverage_quads) | DIFF(emit) | DIFF(emit_warp) |
                     DIFF(hook_user);
    for (unsigned i = 0; i < TV_VM_MAX_COLOR_TARGETS; i++)
        diff |= DIFF(color[i].data) | DIFF(fbfetch[i]);
    return diff == 0;
}
#undef DIFF

tv_vm_frag_batch *tv_vm_frag_batch_begin(tv_vm *vm, const tv_vm_program *p,
                                         const tv_vm_bindings *b, tv_error *err)
{
    tv_vm_frag_batch *B = calloc(1, sizeof *B);
    if (!B) {
        tv_error_set(err, TV_ERR_NOMEM, 0, 0, "out of memory");
        return NULL;
    }
    if (vm_run_begin(&B->run, vm, p, b, TV_TGSI_FRAG, err) != TV_OK) {
        free(B);
        return NULL;
    }
    B->vm = vm;
    B->p = p;
    B->b = b;
    B->packable = !B->run.plain && !B->run.tracing && !interpolates_at_run_time(p);
    /* (the run's bindings: B's, or the engine's empty ones where B is NULL) */
    B->P.pixels = B->packable && pixels_ok(p, B->run.b);
    /* (one worker runs a batch: close_group computes them when a group needs them) */
    B->run.attrs_lazy = true;
    return B;
}

/* The pending quads forgotten (after a failure: nothing of them runs). */
static void drop_pending(tv_vm_frag_batch *B)
{
    B->P.parked = 0;
    pack_empty(&B->P);
    B->defer.lanes = 0;
    B->defer.groups = 0;
}

/* The pending warp run under the shared fields (the last add's parameters are gone). */
static tv_status run_pending(tv_vm_frag_batch *B, tv_error *err)
{
    if (!has_pending(&B->P))
        return TV_OK;
    B->run.fp = &B->common;
    /* (vm_frag_pack_run runs the parked warps and its own, or parks its own: the ring
       had room) */
    tv_status st = B->P.nl ? vm_frag_pack_run(&B->wk, &B->P, err) : TV_OK;
    if (st == TV_OK)
        st = vm_frag_pack_run_parked(&B->wk, &B->P, err);
    if (st != TV_OK)
        drop_pending(B);
    return st;
}

/* The worker's counts since the last call, into STATS. */
static void take_stats(tv_vm_frag_batch *B, tv_vm_stats *stats)
{
    /* word by word: the counters were just updated by 8-byte adds, and the record's copy
       as 16-byte vectors waited for those stores (store forwarding; 0.7 % of the mesh
       scene). A relaxed atomic load is one plain 8-byte load the compiler does not merge
       (no threads are involved). */
    tv_vm_stats *w = &B->wk.stats;
    if (stats) {
        stats->instructions = __atomic_load_n(&w->instructions, __ATOMIC_RELAXED);
        stats->uops = __atomic_load_n(&w->uops, __ATOMIC_RELAXED);
        stats->warps = __atomic_load_n(&w->warps, __ATOMIC_RELAXED);
        stats->invocations = __atomic_load_n(&w->invocations, __ATOMIC_RELAXED);
        stats->killed = __atomic_load_n(&w->killed, __ATOMIC_RELAXED);
    }
    memset(w, 0, sizeof *w);
}

static tv_status add_packed(tv_vm_frag_batch *B, const vm_frag_box *fb, uint64_t warps,
                            tv_error *err)
{
    vm_run *R = &B->run;
    if (!B->ready) {
        /* (frees what it took on failure) */
        tv_status st = vm_worker_init(&B->wk, R, VM_PACK_WARPS, err);
        if (st != TV_OK)
            return st;
        B->P.ring = B->wk.warps;
        B->P.w = &B->wk.warps[0];
        B->P.isa = vm_frag_store_isa_run(R);
        /* deferred inputs where the AVX-512 or the AVX2 kernel runs them (the tile
           stores' test of the CPU, and their cap, so a capped engine takes the groups'
           way) */
        vm_frag_defer_plan_init(&B->plan, B->p);
        B->P.defer = B->P.isa >= VM_STORE_AVX2 && B->plan.ok ? &B->defer : NULL;
        B->P.plan = &B->plan;
        B->P.attrs_run = R;
        B->ready = true;
    }
    if (!B->P.side) {
        size_t bytes = ((size_t)B->p->num_slots * sizeof(vm_slot) + 63) / 64 * 64;
        B->P.side = aligned_alloc(64, bytes);
        if (!B->P.side)
            return tv_error_set(err, TV_ERR_NOMEM, 0, 0, "out of memory");
        /* cleared once: close_group copies whole IN and SV ranges from it, and the slots
           of registers no input or system value declares are never written (they read 0
           in a warp's first group, from vm_frag_zero_regs; an indirect IN[ADDR] may reach
           them) */
        memset(B->P.side, 0, bytes);
    }
    /* the JIT's decision only between warps: a warp's registers are cleared for the way it
       will run (vm_frag_zero_regs) */
    if (!has_pending(&B->P)) {
        vm_jit_prepare(R, warps + B->jit_warps);
        B->jit_warps = 0;
    } else {
        B->jit_warps += warps;
    }
    tv_status st = vm_frag_pack_primitive(&B->wk, &B->P, fb, err);
    if (st != TV_OK)
        drop_pending(B);
    return st;
}

tv_status tv_vm_frag_batch_add(tv_vm_frag_batch *B, const tv_vm_frag_params *params,
                               tv_vm_stats *stats, tv_error *err)
{
    if (stats)
        memset(stats, 0, sizeof *stats);
    if (!B || !params)
        return tv_error_set(err, TV_ERR_ARG, 0, 0, "no fragment batch or parameters");
    bool flush = B->vm->cfg.flush_denormals;
    unsigned fp_saved = flush ? tv_fp_flush_begin() : 0;
    tv_status st = TV_OK;
    if (!B->has_common || !vm_frag_same_common(&B->common, params)) {
        if (B->has_common)
            st = run_pending(B, err);
        if (st == TV_OK) {
            B->common = *params;
            B->has_common = true;
        }
        B->shared_ok = false;
    }
    vm_run *R = &B->run;
    /* this add's budgets for the warps it runs (the rest of the run's set-up stays); the
       pending warp runs under the budgets of the add that left it at most, as the one run
       of its primitive would have: under lower ones it runs first (a small looping
       triangle before a large one failed a quota its own run kept) */
    const uint64_t pend_insns = R->max_instructions, pend_iters = R->max_loop_iterations;
    vm_run_take_budgets(R);
    if (st == TV_OK && has_pending(&B->P) &&
        (R->max_instructions < pend_insns || R->max_loop_iterations < pend_iters)) {
        const uint64_t insns = R->max_instructions, iters = R->max_loop_iterations;
        R->max_instructions = pend_insns;
        R->max_loop_iterations = pend_iters;
        st = run_pending(B, err);
        R->max_instructions = insns;
        R->max_loop_iterations = iters;
    }
    /* the set-up of what the batch's primitives share only where it changed (about a
       third of the set-up's instructions in a mesh: the tile kernel's tests of the
       program's inputs), the rest per primitive */
    if (st == TV_OK && (!B->shared_ok || params->flatshade != B->shared_flat)) {
        st = vm_frag_run_setup_shared(R, params, err);
        B->shared_ok = st == TV_OK;
        B->shared_flat = params->flatshade;
    }
    if (st == TV_OK)
        st = vm_frag_run_setup_primitive(R, params, err);
    vm_frag_box fb;
    if (st == TV_OK) {
        vm_frag_box_init(R, &fb);
        if (fb.x0 < fb.x1 && fb.y0 < fb.y1) {
            uint64_t tiles = (uint64_t)((fb.y1 + 3) / 4 - fb.y0 / 4) *
                             ((fb.x1 + 7) / 8 - fb.x0 / 8);
            if (B->packable && vm_frag_packs(R, &fb)) {
                st = add_packed(B, &fb, tiles, err);
            } else {
                /* in order: what is pending first, then the primitive by itself */
                st = run_pending(B, err);
                tv_vm_stats own;
                memset(&own, 0, sizeof own);
                if (st == TV_OK)
                    st = tv_vm_run_fragment(B->vm, B->p, B->b, params, &own, err);
                B->wk.stats.instructions += own.instructions;
                B->wk.stats.uops += own.uops;
                B->wk.stats.warps += own.warps;
                B->wk.stats.invocations += own.invocations;
                B->wk.stats.killed += own.killed;
            }
        }
    }
    if (st != TV_OK)
        drop_pending(B);   /* (the contract: a failing add leaves nothing pending) */
    R->fp = &B->common;
    if (flush)
        tv_fp_flush_end(fp_saved);
    take_stats(B, stats);
    return st;
}

uint64_t vm_frag_batch_deferred(const tv_vm_frag_batch *B)
{
    return B ? B->defer.deferred : 0;
}

uint64_t vm_frag_batch_pixel_warps(const tv_vm_frag_batch *B)
{
    return B ? B->P.pixel_warps : 0;
}

tv_status tv_vm_frag_batch_flush(tv_vm_frag_batch *B, tv_vm_stats *stats, tv_error *err)
{
    if (stats)
        memset(stats, 0, sizeof *stats);
    if (!B)
        return tv_error_set(err, TV_ERR_ARG, 0, 0, "no fragment batch");
    bool flush = B->vm->cfg.flush_denormals;
    unsigned fp_saved = flush ? tv_fp_flush_begin() : 0;
    tv_status st = run_pending(B, err);
    if (flush)
        tv_fp_flush_end(fp_saved);
    take_stats(B, stats);
    return st;
}

void tv_vm_frag_batch_end(tv_vm_frag_batch *B)
{
    if (!B)
        return;
    if (B->ready)
        vm_worker_fini(&B->wk);
    free(B->P.side);
    free(B);
}
