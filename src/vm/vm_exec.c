/* The run loop: ALU micro-ops call their handler; control flow is handled here with the
 * mask scheme exec = cond & loop & cont & switch & func & present (docs/vm-execution.md
 * §2), branching over code when no lane is active and leaving loops as soon as no lane
 * continues. */
#include <stdio.h>

#include "vm/vm_jit.h"
#include "vm/vm_run.h"
#include "vm/vm_trace.h"

void vm_gs_emit(vm_warp *w, const vm_uop *u, bool endprim);

#define VM_B(b, i) ((((b) >> (i)) & 1) ? 0xffffffffu : 0u)
#define VM_ROW(b) {VM_B(b, 0), VM_B(b, 1), VM_B(b, 2), VM_B(b, 3), VM_B(b, 4), VM_B(b, 5), \
                   VM_B(b, 6), VM_B(b, 7)}
#define VM_R4(b) VM_ROW(b), VM_ROW((b) + 1), VM_ROW((b) + 2), VM_ROW((b) + 3)
#define VM_R16(b) VM_R4(b), VM_R4((b) + 4), VM_R4((b) + 8), VM_R4((b) + 12)
#define VM_R64(b) VM_R16(b), VM_R16((b) + 16), VM_R16((b) + 32), VM_R16((b) + 48)
const uint32_t vm_mask8[256][8] = {VM_R64(0), VM_R64(64), VM_R64(128), VM_R64(192)};
#define VM_BITS8(k) 1u << (k), 1u << ((k) + 1), 1u << ((k) + 2), 1u << ((k) + 3), \
                    1u << ((k) + 4), 1u << ((k) + 5), 1u << ((k) + 6), 1u << ((k) + 7)
const uint32_t vm_lane_bit[VM_LANES] = {VM_BITS8(0), VM_BITS8(8), VM_BITS8(16), VM_BITS8(24)};

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#if defined(__SSE2__)
/* 32 lane masks (all-ones / zero words, 4 per vector) to a 32-bit lane mask: saturating
 * packs to bytes keep all-ones/zero, then one byte movemask per 16 lanes (no loop). */
static inline uint32_t pack_masks(__m128i c0, __m128i c1, __m128i c2, __m128i c3, __m128i c4,
                                  __m128i c5, __m128i c6, __m128i c7)
{
    __m128i lo = _mm_packs_epi16(_mm_packs_epi32(c0, c1), _mm_packs_epi32(c2, c3));
    __m128i hi = _mm_packs_epi16(_mm_packs_epi32(c4, c5), _mm_packs_epi32(c6, c7));
    return (uint32_t)_mm_movemask_epi8(lo) | ((uint32_t)_mm_movemask_epi8(hi) << 16);
}
/* the 8 compares written out (a loop kept them in a stack array) */
#define VM_PACK8(CMP) pack_masks(CMP(0), CMP(1), CMP(2), CMP(3), CMP(4), CMP(5), CMP(6), CMP(7))
static inline __m128i load4(const uint32_t *p)
{
    return _mm_loadu_si128((const __m128i *)(const void *)p);
}
#endif

/* Bit l set where lane l of the slot is non-zero (as integer or as float). */
static inline uint32_t mask_nonzero_u(const vm_slot *v)
{
#if defined(__SSE2__)
    const __m128i z = _mm_setzero_si128();
#define VM_CMP(k) _mm_cmpeq_epi32(load4(&v->u[4 * (k)]), z)
    return ~VM_PACK8(VM_CMP);
#undef VM_CMP
#else
    uint32_t m = 0;
    for (unsigned l = 0; l < VM_LANES; l++)
        m |= (uint32_t)(v->u[l] != 0u) << l;
    return m;
#endif
}

static inline uint32_t mask_nonzero_f(const vm_slot *v)
{
#if defined(__SSE2__)
    const __m128 z = _mm_setzero_ps();
#define VM_CMP(k) _mm_castps_si128(_mm_cmpneq_ps(_mm_loadu_ps(&v->f[4 * (k)]), z))
    return VM_PACK8(VM_CMP);   /* NaN != 0 is true, -0 != 0 is false */
#undef VM_CMP
#else
    uint32_t m = 0;
    for (unsigned l = 0; l < VM_LANES; l++)
        m |= (uint32_t)(v->f[l] != 0.0f) << l;
    return m;
#endif
}

/* Bit l set where lane l of a equals lane l of b (bitwise). */
static inline uint32_t mask_eq_u(const vm_slot *a, const vm_slot *b)
{
#if defined(__SSE2__)
#define VM_CMP(k) _mm_cmpeq_epi32(load4(&a->u[4 * (k)]), load4(&b->u[4 * (k)]))
    return VM_PACK8(VM_CMP);
#undef VM_CMP
#else
    uint32_t m = 0;
    for (unsigned l = 0; l < VM_LANES; l++)
        m |= (uint32_t)(a->u[l] == b->u[l]) << l;
    return m;
#endif
}

/* Bit l set where lane l is a float < 0 (NaN and -0 are not). */
static inline uint32_t mask_neg_f(const vm_slot *v)
{
#if defined(__SSE2__)
    const __m128 z = _mm_setzero_ps();
#define VM_CMP(k) _mm_castps_si128(_mm_cmplt_ps(_mm_loadu_ps(&v->f[4 * (k)]), z))
    return VM_PACK8(VM_CMP);
#undef VM_CMP
#else
    uint32_t m = 0;
    for (unsigned l = 0; l < VM_LANES; l++)
        m |= (uint32_t)(v->f[l] < 0.0f) << l;
    return m;
#endif
}

static tv_status fault_error(vm_warp *w, const vm_uop *u, tv_error *err)
{
    const tv_tgsi_program *P = &w->prog->src;
    const tv_tgsi_instruction *in = u->insn < P->num_insns ? &P->insns[u->insn] : NULL;
    char where[96];
    where[0] = 0;
    if (w->run && w->run->stage == TV_TGSI_FRAG)
        snprintf(where, sizeof where, " (pixel %d,%d)", w->lane_x[w->fault_lane],
                 w->lane_y[w->fault_lane]);
    else if (w->run && w->run->stage == TV_TGSI_COMP)
        snprintf(where, sizeof where, " (thread %d,%d)", w->lane_x[w->fault_lane],
                 w->lane_y[w->fault_lane]);
    return tv_error_set(err, w->fault_code, in ? in->line : 0, in ? in->column : 0,
                        "instruction %u (%s), lane %u%s: %s", u->insn,
                        in ? vm_opname(in->opcode) : "END", w->fault_lane, where,
                        w->fault_msg);
}

static inline uint32_t first_lane(uint32_t m)
{
    uint32_t l = 0;
    while (!(m & 1u) && l < 32) { m >>= 1; l++; }
    return l;
}

/* The faults of the run-time limits, for the run loop and compiled code (run_compiled)
 * alike: `limit` is the compiled code's name for it (vm_jit.h). */
static tv_status limit_fault(vm_warp *w, const vm_uop *u, enum vm_jit_exit limit,
                             tv_error *err)
{
    const vm_run *R = w->run;
    const uint32_t lane = first_lane(w->exec);
    if (limit == VM_JIT_EXIT_LOOP_LIMIT)
        vm_fault(w, TV_ERR_RUNTIME, lane, "loop iteration limit (%llu) exceeded",
                 (unsigned long long)R->max_loop_iterations);
    else if (limit == VM_JIT_EXIT_CALL_DEPTH)
        vm_fault(w, TV_ERR_RUNTIME, lane, "call depth limit (%u) exceeded", R->max_call_depth);
    else
        vm_fault(w, TV_ERR_RUNTIME, lane, "instruction budget (%llu) exceeded",
                 (unsigned long long)w->budget);
    return fault_error(w, u, err);
}

/* Restore the masks saved by CAL and return to the caller. */
static uint32_t do_return(vm_warp *w)
{
    vm_callframe *f = &w->calls[--w->call_sp];
    w->cond = f->cond; w->loop = f->loop; w->cont = f->cont; w->sw = f->sw; w->func = f->func;
    w->cond_sp = f->cond_sp; w->loop_sp = f->loop_sp; w->sw_sp = f->sw_sp;
    vm_update_exec(w);
    return f->ret_pc;
}

/* Leave the innermost loop now (every lane has broken out). */
static void exit_loop(vm_warp *w)
{
    vm_cfentry *e = &w->loop_stack[--w->loop_sp];
    w->cond_sp = e->cond_sp;
    w->cond = e->a;
    w->sw_sp = e->sw_sp;
    w->sw = e->b;
    w->loop = e->loop;
    w->cont = e->cont;
    vm_update_exec(w);
}

/* The plain interpreter (tv_vm_config.plain) runs the unoptimised micro-ops and counts one
 * micro-op at a time: the reference the optimised program and its run counts are tested
 * against. Traces use it too, so that every instruction (removed copies included) is
 * traced. */

/* run() is instantiated per (tracing, per_uop) pair; forced inline so that each copy is
 * specialised (GCC otherwise kept one copy testing `tracing` at every micro-op). */
#if defined(__GNUC__)
#define VM_SPECIALISE inline __attribute__((always_inline))
#else
#define VM_SPECIALISE inline
#endif

static VM_SPECIALISE tv_status run(vm_warp *w, tv_error *err, const bool tracing,
                                   const bool per_uop)
{
    const vm_uop *code = per_uop ? w->prog->uops_plain : w->prog->uops;
    uint32_t pc = w->pc;
    const vm_run *R = w->run;
    for (;;) {
        const vm_uop *u = &code[pc];
        const uint32_t flags = u->flags;
        if (tracing && (flags & VM_UF_FIRST))
            vm_trace_before(w, u->insn);
        if (per_uop) {
            w->insns += (flags & VM_UF_FIRST) ? 1u : 0u;
            w->uops++;
        }
        if (u->fn) {
            /* the common ALU micro-op: no counting, no fault test */
            if (flags & (VM_UF_COUNT | VM_UF_FAULT)) {
                if ((flags & VM_UF_COUNT) && !per_uop) {
                    w->insns += u->ninsns;
                    w->uops += u->nuops;
                }
                u->fn(w, u);
                if ((flags & VM_UF_FAULT) && w->fault)
                    return fault_error(w, u, err);
            } else {
                u->fn(w, u);
            }
            if (tracing && (flags & VM_UF_LAST))
                vm_trace_after(w, u->insn);
            pc++;
            continue;
        }
        /* every control-flow micro-op ends a counted run (vm_lower.c count_runs) */
        if (!per_uop) {
            w->insns += u->ninsns;
            w->uops += u->nuops;
        }
        uint32_t next = pc + 1;
        switch (u->kind) {
        case VM_K_NOP: case VM_K_BGNSUB:
            break;
        case VM_K_IF: case VM_K_UIF: {
            if (w->cond_sp >= w->cond_cap)
                goto overflow;
            w->cond_stack[w->cond_sp++] = w->cond;
            const vm_slot *c = &w->r[u->src[0]];
            w->cond &= u->kind == VM_K_IF ? mask_nonzero_f(c) : mask_nonzero_u(c);
            vm_update_exec(w);
            if (!w->exec)
                next = u->target;
            break;
        }
        case VM_K_ELSE:
            w->cond = ~w->cond & w->cond_stack[w->cond_sp - 1];
            vm_update_exec(w);
            if (!w->exec)
                next = u->target;
            break;
        case VM_K_ENDIF:
            w->cond = w->cond_stack[--w->cond_sp];
            vm_update_exec(w);
            break;
        case VM_K_BGNLOOP: {
            if (w->loop_sp >= w->loop_cap)
                goto overflow;
            vm_cfentry *e = &w->loop_stack[w->loop_sp++];
            e->loop = w->loop; e->cont = w->cont; e->iters = 0; e->entry = w->exec;
            e->cond_sp = w->cond_sp; e->a = w->cond;
            e->sw_sp = w->sw_sp; e->b = w->sw;
            if (!w->exec) {     /* nobody enters: skip the loop */
                exit_loop(w);
                next = u->target;
            }
            break;
        }
        case VM_K_ENDLOOP: {
            vm_cfentry *e = &w->loop_stack[w->loop_sp - 1];
            w->cont = e->cont;
            vm_update_exec(w);
            /* killed lanes keep computing for their quad, but never keep a loop alive:
               `loop { if (c) discard; }` ends when every other lane has left */
            if (w->exec & ~w->killed) {
                if (++e->iters > R->max_loop_iterations)
                    return limit_fault(w, u, VM_JIT_EXIT_LOOP_LIMIT, err);
                if (w->insns > w->budget)
                    return limit_fault(w, u, VM_JIT_EXIT_BUDGET, err);
                next = u->target;
            } else {
                w->loop_sp--;
                w->loop = e->loop;
                w->cont = e->cont;
                vm_update_exec(w);
            }
            break;
        }
        case VM_K_BRK:
            if (u->flags & VM_UF_BRKSW) {
                w->sw &= ~w->exec;
                vm_update_exec(w);
            } else {
                w->loop &= ~w->exec;
                vm_update_exec(w);
                if (!(w->loop & w->func & ~w->killed & w->loop_stack[w->loop_sp - 1].entry)) {
                    exit_loop(w);
                    next = u->target;
                    break;
                }
            }
            if (!w->exec)
                next = u->skip;
            break;
        case VM_K_BRK_IF: {
            /* exactly UIF c; BRK; ENDIF (no ELSE). The UIF is counted with its run; here
               the ENDIF when no lane breaks, the BRK when the loop ends, both else */
            if (w->cond_sp >= w->cond_cap)
                goto overflow;
            const vm_slot *c = &w->r[u->src[0]];
            uint32_t m = w->exec & (u->aux ? mask_nonzero_u(c) : mask_nonzero_f(c));
            if (!m) {
                w->insns += per_uop ? 0u : 1u;
                break;
            }
            w->loop &= ~m;
            vm_update_exec(w);
            if (!(w->loop & w->func & ~w->killed & w->loop_stack[w->loop_sp - 1].entry)) {
                w->insns += per_uop ? 0u : 1u;
                exit_loop(w);
                next = u->target;
                break;
            }
            w->insns += per_uop ? 0u : 2u;
            break;
        }
        case VM_K_CONT:
            w->cont &= ~w->exec;
            vm_update_exec(w);
            if (!(w->loop & w->cont & w->func & ~w->killed &
                  w->loop_stack[w->loop_sp - 1].entry)) {
                /* every lane continues: unwind to ENDLOOP */
                vm_cfentry *e = &w->loop_stack[w->loop_sp - 1];
                w->cond_sp = e->cond_sp; w->cond = e->a;
                w->sw_sp = e->sw_sp; w->sw = e->b;
                vm_update_exec(w);
                next = u->target;
                break;
            }
            if (!w->exec)
                next = u->skip;
            break;
        case VM_K_SWITCH: {
            if (w->sw_sp >= w->sw_cap)
                goto overflow;
            vm_cfentry *e = &w->sw_stack[w->sw_sp++];
            e->sw = w->sw;
            e->a = w->exec;             /* lanes entering */
            w->r[u->aux] = w->r[u->src[0]];
            w->sw = 0;
            vm_update_exec(w);
            break;
        }
        case VM_K_CASE: {
            vm_cfentry *e = &w->sw_stack[w->sw_sp - 1];
            w->sw |= e->a & mask_eq_u(&w->r[u->aux], &w->r[u->src[0]]);
            vm_update_exec(w);
            if (!w->exec)
                next = u->skip;
            break;
        }
        case VM_K_DEFAULT: {
            vm_cfentry *e = &w->sw_stack[w->sw_sp - 1];
            const vm_slot *sel = &w->r[u->aux];
            uint32_t any = 0;
            for (uint32_t k = 0; k < u->aux2; k++)
                any |= mask_eq_u(sel, &w->r[u->src[k]]);
            w->sw |= e->a & ~any;
            vm_update_exec(w);
            if (!w->exec)
                next = u->skip;
            break;
        }
        case VM_K_ENDSWITCH:
            w->sw = w->sw_stack[--w->sw_sp].sw;
            vm_update_exec(w);
            break;
        case VM_K_CAL: {
            if (!w->exec)
                break;
            if (w->call_sp >= w->call_cap || w->call_sp >= R->max_call_depth)
                return limit_fault(w, u, VM_JIT_EXIT_CALL_DEPTH, err);
            if (w->insns > w->budget)
                return limit_fault(w, u, VM_JIT_EXIT_BUDGET, err);
            vm_callframe *f = &w->calls[w->call_sp++];
            f->ret_pc = pc + 1;
            f->cond = w->cond; f->loop = w->loop; f->cont = w->cont; f->sw = w->sw;
            f->func = w->func;
            f->cond_sp = w->cond_sp; f->loop_sp = w->loop_sp; f->sw_sp = w->sw_sp;
            /* the callee starts with exactly the calling lanes */
            w->cond = w->loop = w->cont = w->sw = w->exec;
            w->func = w->exec;
            vm_update_exec(w);
            next = u->target;
            break;
        }
        case VM_K_RET:
            w->func &= ~w->exec;
            vm_update_exec(w);
            if (!(w->func & w->present)) {
                if (w->call_sp) {
                    next = do_return(w);
                } else {
                    w->done = true;
                    goto finish;
                }
                break;
            }
            if (!w->exec)
                next = u->skip;
            break;
        case VM_K_ENDSUB:
            if (w->call_sp) {
                next = do_return(w);
                break;
            }
            w->done = true;
            goto finish;
        case VM_K_KILL:
        case VM_K_DEMOTE:
            if (u->kind == VM_K_KILL)
                w->killed |= w->exec;
            else
                w->demoted |= w->exec;
            if (u->kind == VM_K_DEMOTE)
                w->helper |= w->exec;
            w->live &= ~w->exec;
            if (!w->live && R->stage == TV_TGSI_FRAG) {
                w->done = true;
                goto finish;
            }
            break;
        case VM_K_KILL_IF: {
            uint32_t m = 0;
            for (unsigned c = 0; c < 4; c++)
                m |= mask_neg_f(&w->r[u->src[c]]);
            m &= w->exec;
            w->killed |= m;
            w->live &= ~m;
            if (!w->live && R->stage == TV_TGSI_FRAG) {
                w->done = true;
                goto finish;
            }
            break;
        }
        case VM_K_BARRIER:
            w->at_barrier = true;
            w->pc = pc + 1;
            if (tracing)
                vm_trace_after(w, u->insn);
            return TV_OK;
        case VM_K_EMIT: case VM_K_ENDPRIM:
            vm_gs_emit(w, u, u->kind == VM_K_ENDPRIM);
            if (w->fault)
                return fault_error(w, u, err);
            break;
        case VM_K_END:
            w->done = true;
            goto finish;
        default:
            break;
        }
        if (tracing && (u->flags & VM_UF_LAST))
            vm_trace_after(w, u->insn);
        pc = next;
        continue;
overflow:
        vm_fault(w, TV_ERR_RUNTIME, first_lane(w->exec | 1u), "control-flow nesting too deep");
        return fault_error(w, u, err);
    }
finish:
    if (tracing)
        vm_trace_after(w, code[pc].insn);
    w->pc = pc;
    return TV_OK;
}

/* The interpreter's loops are functions of their own (not inlined into vm_exec_warp): the
 * registers their loop keeps would otherwise be saved and restored around every warp the
 * compiled code runs too (six pushes, six pops and a stack frame in vm_exec_warp). */
#if defined(__GNUC__)
#define VM_OUT_OF_LINE __attribute__((noinline))
#else
#define VM_OUT_OF_LINE
#endif

static VM_OUT_OF_LINE tv_status run_optimised(vm_warp *w, tv_error *err)
{
    return run(w, err, false, false);
}
static VM_OUT_OF_LINE tv_status run_unoptimised(vm_warp *w, tv_error *err)
{
    if (w->wk && w->wk->trace_this)
        return run(w, err, true, true);
    return run(w, err, false, true);
}

/* A warp run by the program's compiled code (vm_jit.h): the same exits as run()'s. */
static tv_status run_compiled(vm_warp *w, tv_error *err)
{
    const int code = w->run->jit_fn(w, w->r);
    if (code == VM_JIT_EXIT_DONE)
        return TV_OK;
    /* the micro-op a fault names (only now: most warps end done) */
    const vm_uop *u = &w->prog->uops[w->pc < w->prog->num_uops ? w->pc : 0];
    switch (code) {
    case VM_JIT_EXIT_FAULT:
        return fault_error(w, u, err);
    case VM_JIT_EXIT_LOOP_LIMIT: case VM_JIT_EXIT_CALL_DEPTH: case VM_JIT_EXIT_BUDGET:
        return limit_fault(w, u, (enum vm_jit_exit)code, err);
    default:
        return tv_error_set(err, TV_ERR_RUNTIME, 0, 0,
                            "internal error: the compiled program stopped at micro-op %u", w->pc);
    }
}

tv_status vm_exec_warp(vm_warp *w, tv_error *err)
{
    w->at_barrier = false;
    bool tracing = w->wk && w->wk->trace_this;
    if (w->pc == 0) {   /* a warp resumed after a barrier stays on its micro-op array */
        w->plain = w->run->plain || tracing;
        if (!w->plain && w->run->jit_fn)
            return run_compiled(w, err);
    }
    if (w->plain)
        return run_unoptimised(w, err);
    return run_optimised(w, err);
}
