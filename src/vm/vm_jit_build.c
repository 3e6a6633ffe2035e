/* The JIT's code generator: one LLVM function per program,
 *   i32 prog(vm_warp *noalias w, vm_slot *r)
 * that runs a warp's optimised micro-ops from 0 to END exactly as vm_exec.c's run loop
 * does (optimised mode): the masks exec = cond & loop & cont & sw & func & present, the
 * jumps when no lane is active, the loop records, the counted runs (ninsns/nuops), the
 * loop-iteration and instruction-budget faults, KILL/KILL_IF/DEMOTE.
 *
 * Structured control flow has a static nesting depth at every micro-op, so the cond stack
 * and the loop records are allocas indexed at compile time (vm_jit_depths.c finds them and
 * checks that every jump lands where the depths agree, else the program is declined). The
 * masks, counters and every register slot the program writes live in allocas that LLVM
 * promotes to SSA values; slots it only reads (uniforms, inputs) are loaded from the
 * register file. Before a handler call the written slots that may differ from the register
 * file (`dirty`) are stored and the masks and counters written to the warp, and after it
 * the slots the handler writes are loaded again, so a handler sees exactly the warp the
 * interpreter would give it. This file builds the function around the micro-ops (its
 * entry, the slots' allocas, the handler calls, the one exit block); the control-flow
 * micro-ops are vm_jit_flow.c's, the inline ALU ones vm_jit_ops.c's. */
#ifdef TEXVM_JIT
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vm/vm_handlers.h"
#include "vm/vm_jit_depths.h"
#include "vm/vm_jit_flow.h"
#include "vm/vm_jit_internal.h"
#include "vm/vm_jit_ir.h"

/* A pointer to the warp field at byte offset `off`. */
static LLVMValueRef wfield(vm_jit_ctx *j, size_t off)
{
    LLVMValueRef idx = ci64(j, off);
    return LLVMBuildGEP2(j->b, j->i8, j->w, &idx, 1, "");
}

static LLVMValueRef rslot(vm_jit_ctx *j, uint32_t slot)
{
    LLVMValueRef idx = ci64(j, slot);
    return LLVMBuildGEP2(j->b, j->vi, j->r, &idx, 1, "");
}

static bool starts_zero(const vm_jit_ctx *j, uint32_t s);
static bool out_zero(const vm_jit_ctx *j, uint32_t s);

/* The zero a TEMP or ADDR slot starts at, as a load from memory whose address LLVM sees
 * only as a number: a constant zero let LLVM fold what the program computes from it
 * (NOT of 0 is -1, I2F gives -1.0, SGE of two zeros 1.0) into operations on NaNs that the
 * hardware would not do — x * -1.0 became a negation, flipping a NaN's sign; x * 1.0 and
 * x + -0.0 became x, leaving a signalling NaN unquieted — where the interpreter runs the
 * operation (translation validation: tests/tv). */
static const uint32_t zeros_in_memory[VM_LANES] __attribute__((aligned(64)));

static LLVMValueRef opaque_zero(vm_jit_ctx *j)
{
    LLVMValueRef addr = LLVMConstIntToPtr(
        LLVMConstInt(j->i64, (uint64_t)(uintptr_t)zeros_in_memory, 0), j->ptr);
    LLVMValueRef v = LLVMBuildLoad2(j->b, j->vi, addr, "zero");
    LLVMSetAlignment(v, 64);
    return v;
}

LLVMValueRef vm_jit_broadcast(vm_jit_ctx *j, LLVMValueRef v)
{
    LLVMValueRef vec = LLVMBuildInsertElement(j->b, LLVMGetUndef(j->vi), v, ci32(j, 0), "");
    return LLVMBuildShuffleVector(j->b, vec, LLVMGetUndef(j->vi), LLVMConstNull(j->vi), "");
}

LLVMValueRef vm_jit_chunk(vm_jit_ctx *j, LLVMValueRef v, unsigned k, unsigned w)
{
    LLVMValueRef idx[16];
    for (unsigned l = 0; l < w; l++)
        idx[l] = ci32(j, k * w + l);
    return LLVMBuildShuffleVector(j->b, v, v, LLVMConstVector(idx, w), "");
}

LLVMValueRef vm_jit_join(vm_jit_ctx *j, LLVMValueRef *parts, unsigned w)
{
    for (unsigned n = VM_LANES / w, cw = w; n > 1; n /= 2, cw *= 2) {
        LLVMValueRef idx[VM_LANES];
        for (unsigned l = 0; l < 2 * cw; l++)
            idx[l] = ci32(j, l);
        LLVMValueRef cat = LLVMConstVector(idx, 2 * cw);
        for (unsigned k = 0; k < n / 2; k++)
            parts[k] = LLVMBuildShuffleVector(j->b, parts[2 * k], parts[2 * k + 1], cat, "");
    }
    return parts[0];
}

/* Marks load V as reading memory that does not change while the function runs, so that
 * the register allocator may load it again where it would otherwise spill its value. */
static void invariant(vm_jit_ctx *j, LLVMValueRef v)
{
    unsigned kind = LLVMGetMDKindIDInContext(j->c, "invariant.load", 14);
    LLVMSetMetadata(v, kind, LLVMMDNodeInContext(j->c, NULL, 0));
}

LLVMValueRef vm_jit_load(vm_jit_ctx *j, uint32_t slot)
{
    if (j->slot[slot] && j->uni && j->uni[slot])
        return vm_jit_broadcast(j, get(j, j->slot[slot], j->i32));
    if (j->slot[slot])
        return get(j, j->slot[slot], j->vi);
    if (starts_zero(j, slot) || out_zero(j, slot))
        return j->zero;   /* never written by the code: zero all through the run */
    if (slot < j->p->num_uniform) {
        /* a uniform slot (immediate or constant: every lane the same word, vm_dispatch.c,
           and no micro-op writes it) as its lane 0 broadcast: one register where a
           32-lane value takes four, which the loop workload's values spilled from (Zen 3) */
        LLVMValueRef w = get(j, rslot(j, slot), j->i32);
        LLVMSetAlignment(w, 64);
        invariant(j, w);
        return vm_jit_broadcast(j, w);
    }
    LLVMValueRef v = get(j, rslot(j, slot), j->vi);
    LLVMSetAlignment(v, 64);
    if (j->zero_init)   /* no indirect store (which may write any slot): read-only here */
        invariant(j, v);
    return v;
}

LLVMValueRef vm_jit_exec(vm_jit_ctx *j)
{
    LLVMValueRef e = LLVMBuildAnd(j->b, g32(j, j->cond), g32(j, j->loop), "");
    e = LLVMBuildAnd(j->b, e, g32(j, j->cont), "");
    e = LLVMBuildAnd(j->b, e, g32(j, j->sw), "");
    e = LLVMBuildAnd(j->b, e, g32(j, j->func), "");
    return LLVMBuildAnd(j->b, e, g32(j, j->present), "exec");
}

/* The execution mask as <32 x i1>. With AVX-512's mask registers a bit cast (one kmovd);
 * without them LLVM 15 lowers that bit cast a lane at a time (the loop workload's code on
 * Zen 3: 60 bextr and 60 pinsrb), so there every lane tests its own bit of the broadcast
 * mask instead (a broadcast, then an and and a compare per register). The same lanes. */
static LLVMValueRef lane_mask(vm_jit_ctx *j, LLVMValueRef exec)
{
    if (j->mask_regs)
        return LLVMBuildBitCast(j->b, exec, j->vb, "");
    LLVMValueRef bit[VM_LANES];
    for (unsigned l = 0; l < VM_LANES; l++)
        bit[l] = ci32(j, 1u << l);
    LLVMValueRef v =
        LLVMBuildAnd(j->b, vm_jit_broadcast(j, exec), LLVMConstVector(bit, VM_LANES), "");
    return LLVMBuildICmp(j->b, LLVMIntNE, v, LLVMConstNull(j->vi), "lanes");
}

/* V where EXEC's lane bit is set, else OLD. Without mask registers, in chunks of the
 * host's vector width (simd_lanes), each chunk's select on its own lanes' tests: LLVM 15
 * legalises a <32 x i1> on AVX2 as 32 bytes, so each store's lane tests were packed to
 * bytes (and combined there) and widened again for every 8-lane blend — the loop
 * workload's compiled loop under the AVX2 ceiling. The same lanes take V. */
static LLVMValueRef masked(vm_jit_ctx *j, LLVMValueRef exec, LLVMValueRef v, LLVMValueRef old)
{
    const unsigned w = j->simd_lanes;
    if (j->mask_regs || w >= VM_LANES)
        return LLVMBuildSelect(j->b, lane_mask(j, exec), v, old, "");
    LLVMTypeRef wi = LLVMVectorType(j->i32, w);
    LLVMValueRef bc = vm_jit_chunk(j, vm_jit_broadcast(j, exec), 0, w);   /* EXEC in w lanes */
    LLVMValueRef parts[VM_LANES];
    for (unsigned k = 0; k < VM_LANES / w; k++) {
        LLVMValueRef bit[VM_LANES];
        for (unsigned l = 0; l < w; l++)
            bit[l] = ci32(j, 1u << (k * w + l));
        LLVMValueRef m = LLVMBuildICmp(j->b, LLVMIntNE,
                                       LLVMBuildAnd(j->b, bc, LLVMConstVector(bit, w), ""),
                                       LLVMConstNull(wi), "lanes");
        parts[k] = LLVMBuildSelect(j->b, m, vm_jit_chunk(j, v, k, w),
                                   vm_jit_chunk(j, old, k, w), "");
    }
    return vm_jit_join(j, parts, w);
}

/* ---- lane 0 of a uniform value ------------------------------------------------------------ */

#define LANE0_DEPTH 4   /* operations deep (a counter's increment is one) */

LLVMValueRef vm_jit_broadcast_of(LLVMValueRef v)
{
    if (!LLVMIsAShuffleVectorInst(v))
        return NULL;
    const unsigned n = LLVMGetNumMaskElements(v);
    for (unsigned l = 0; l < n; l++)
        if (LLVMGetMaskValue(v, l) != 0)
            return NULL;
    LLVMValueRef ins = LLVMGetOperand(v, 0), at = NULL;
    if (LLVMIsAInsertElementInst(ins))
        at = LLVMGetOperand(ins, 2);
    if (!at || !LLVMIsAConstantInt(at) || LLVMConstIntGetZExtValue(at) != 0)
        return NULL;
    return LLVMGetOperand(ins, 1);
}

/* The integer operations lane0 computes as scalars: each lane's result depends on that
 * lane's operands alone, the same on an i32 as on a lane of <32 x i32> */
static bool lane_wise(LLVMOpcode op)
{
    return op == LLVMAdd || op == LLVMSub || op == LLVMMul || op == LLVMAnd || op == LLVMOr ||
           op == LLVMXor || op == LLVMShl || op == LLVMLShr || op == LLVMAShr;
}

/* Whether lane0 can rebuild vector V (an i32 vector) as a scalar, DEPTH operations deep */
static bool scalarizable(LLVMValueRef v, unsigned depth)
{
    if (LLVMIsAConstantDataVector(v) || LLVMIsAConstantVector(v) ||
        LLVMIsAConstantAggregateZero(v))
        return LLVMGetAggregateElement(v, 0) != NULL;
    if (vm_jit_broadcast_of(v))
        return true;
    if (depth == 0 || !LLVMIsABinaryOperator(v) || !lane_wise(LLVMGetInstructionOpcode(v)))
        return false;
    return scalarizable(LLVMGetOperand(v, 0), depth - 1) &&
           scalarizable(LLVMGetOperand(v, 1), depth - 1);
}

/* Lane 0 of V as a scalar, V scalarizable (so never NULL): constants' element 0,
 * broadcasts' scalar, the operation on its operands' */
static LLVMValueRef scalar_of(vm_jit_ctx *j, LLVMValueRef v)
{
    if (LLVMIsAConstant(v))
        return LLVMGetAggregateElement(v, 0);
    LLVMValueRef s = vm_jit_broadcast_of(v);
    if (s)
        return s;
    return LLVMBuildBinOp(j->b, LLVMGetInstructionOpcode(v), scalar_of(j, LLVMGetOperand(v, 0)),
                          scalar_of(j, LLVMGetOperand(v, 1)), "");
}

/* Lane 0 of V, the value stored to a uniform slot. Where V is an integer operation of
 * broadcasts and constants (a loop counter's increment: the counter's broadcast plus an
 * immediate's), the operation on the scalars themselves: LLVM 15 kept the vector add and
 * extracted its lane 0, so the counter went from a general register to a vector one and
 * back every iteration (vpbroadcastd, vpaddd, vmovd: a dependency chain through the loop,
 * about a sixth of each iteration of the loop workload on AMD Zen 4). The same bits
 * either way. */
static LLVMValueRef lane0(vm_jit_ctx *j, LLVMValueRef v)
{
    if (LLVMTypeOf(v) == j->vi && scalarizable(v, LANE0_DEPTH)) {
        j->uniform_scalar++;
        return scalar_of(j, v);
    }
    return LLVMBuildExtractElement(j->b, v, ci32(j, 0), "");
}

void vm_jit_store(vm_jit_ctx *j, uint32_t slot, LLVMValueRef v, bool nomask)
{
    if (slot < j->p->num_slots)
        j->nn_slot[slot] = j->nn_alu && vm_jit_never_nan(j, v);
    if (!nomask)
        v = masked(j, vm_jit_exec(j), v, vm_jit_load(j, slot));
    if (j->slot[slot] && j->uni && j->uni[slot]) {   /* every lane the same word: lane 0's */
        set(j, j->slot[slot], lane0(j, v));
        j->dirty[slot] = 1;
    } else if (j->slot[slot]) {
        set(j, j->slot[slot], v);
        j->dirty[slot] = 1;
    } else {
        LLVMValueRef s = LLVMBuildStore(j->b, v, rslot(j, slot));
        LLVMSetAlignment(s, 64);
    }
}

/* Whether slot s is a TEMP or ADDR channel of a program whose compiled code starts them at
 * zero itself (zero_init). Such a slot's value is dead once the function returns: the next
 * compiled run starts it at zero again, an interpreted run clears it first (vm_zero_regs,
 * which every stage calls before an interpreted warp), a run ends at its exit (no warp
 * goes on in the interpreter: barriers are declined), and no stage reads TEMP or ADDR
 * after a run. */
static bool starts_zero(const vm_jit_ctx *j, uint32_t s)
{
    const tv_vm_program *p = j->p;
    return j->zero_init &&
           ((s >= p->temp.base && s - p->temp.base < (uint32_t)p->temp.count * 4u) ||
            (s >= p->addr.base && s - p->addr.base < (uint32_t)p->addr.count * 4u));
}

/* Whether slot s is an OUT channel of a FRAG program whose compiled code starts OUT at zero
 * itself (zero_out: with zero_init). Unlike TEMP, the stage reads OUT after the run, so
 * the exit stores the slots the code writes, and the block `zinit` stores the zero of
 * every other into the register file; the stage then need not clear OUT before a warp
 * (vm_zero_regs_compiled: 512 bytes a warp of the null workload's one output). Only FRAG:
 * its handlers read OUT through their operand fields alone, where another stage's (a
 * GEOM EMIT) read every output. */
static bool out_zero(const vm_jit_ctx *j, uint32_t s)
{
    const tv_vm_program *p = j->p;
    return j->zero_out && s >= p->out.base && s - p->out.base < (uint32_t)p->out.count * 4u;
}

/* The warp's state, written before a handler call (the slots that may differ from the
 * register file: `dirty`) and at the exit (every slot that is read after the run: all =
 * true; not the ones that start at zero, dead by then: 1.4 KB of stores a warp for the
 * suite's loop, 12 % of its time). */
static void sync_out(vm_jit_ctx *j, bool all)
{
    for (uint32_t k = 0; k < j->nwritten; k++) {
        uint32_t s = j->written[k];
        if (all ? starts_zero(j, s) : !j->dirty[s])
            continue;
        LLVMValueRef v = j->uni && j->uni[s] ? vm_jit_broadcast(j, get(j, j->slot[s], j->i32))
                                   : get(j, j->slot[s], j->vi);
        LLVMValueRef st = LLVMBuildStore(j->b, v, rslot(j, s));
        LLVMSetAlignment(st, 64);
        j->dirty[s] = 0;
    }
    set(j, wfield(j, offsetof(vm_warp, exec)), vm_jit_exec(j));
    set(j, wfield(j, offsetof(vm_warp, m_stale)), LLVMConstInt(j->i8, 1, 0));
#define OUT32(f) set(j, wfield(j, offsetof(vm_warp, f)), g32(j, j->f))
    OUT32(cond); OUT32(loop); OUT32(cont); OUT32(sw); OUT32(func);
    OUT32(killed); OUT32(live); OUT32(demoted); OUT32(helper);
#undef OUT32
    set(j, wfield(j, offsetof(vm_warp, insns)), get(j, j->insns, j->i64));
    set(j, wfield(j, offsetof(vm_warp, uops)), get(j, j->uops, j->i64));
}

/* (never a uniform slot: no handler writes one, find_uniform) */
static void reload(vm_jit_ctx *j, uint32_t s)
{
    LLVMValueRef v = get(j, rslot(j, s), j->vi);
    LLVMSetAlignment(v, 64);
    set(j, j->slot[s], v);
}

/* After a handler call: the slots it writes again from the register file — its
 * destinations (every handler writes only dst[0..3]), or every slot after an indirect
 * store (vm_h_scatter writes a slot chosen at run time). */
static void sync_in(vm_jit_ctx *j, const vm_uop *u)
{
    if (u->op == VM_OP_scatter) {
        for (uint32_t k = 0; k < j->nwritten; k++)
            reload(j, j->written[k]);
        return;
    }
    for (unsigned k = 0; k < 4; k++)
        if (u->dst[k] < j->p->num_slots && j->slot[u->dst[k]])
            reload(j, u->dst[k]);
}

/* Every exit goes through one block that writes the warp back (vm_jit_build finishes it):
 * code, pc and done arrive as phis. */
void vm_jit_emit_exit(vm_jit_ctx *j, enum vm_jit_exit code, uint32_t pc, bool done)
{
    LLVMBasicBlockRef here = LLVMGetInsertBlock(j->b);
    if (!j->exit_bb) {
        j->exit_bb = LLVMAppendBasicBlockInContext(j->c, j->fn, "exit");
        LLVMPositionBuilderAtEnd(j->b, j->exit_bb);
        j->exit_code = LLVMBuildPhi(j->b, j->i32, "code");
        j->exit_pc = LLVMBuildPhi(j->b, j->i32, "pc");
        j->exit_done = LLVMBuildPhi(j->b, j->i8, "done");
        LLVMPositionBuilderAtEnd(j->b, here);
    }
    LLVMValueRef vals[3] = {ci32(j, code), ci32(j, pc), LLVMConstInt(j->i8, done, 0)};
    LLVMValueRef phis[3] = {j->exit_code, j->exit_pc, j->exit_done};
    for (unsigned k = 0; k < 3; k++)
        LLVMAddIncoming(phis[k], &vals[k], &here, 1);
    LLVMBuildBr(j->b, j->exit_bb);
}

static void finish_exit(vm_jit_ctx *j)
{
    if (!j->exit_bb)
        return;
    LLVMPositionBuilderAtEnd(j->b, j->exit_bb);
    sync_out(j, true);
    set(j, wfield(j, offsetof(vm_warp, pc)), j->exit_pc);
    set(j, wfield(j, offsetof(vm_warp, done)), j->exit_done);
    LLVMBuildRet(j->b, j->exit_code);
}

static LLVMValueRef const_ptr(vm_jit_ctx *j, const void *p)
{
    return LLVMConstIntToPtr(ci64(j, (uint64_t)(uintptr_t)p), j->ptr);
}

/* The TEMP and ADDR slots handler u may read that start at zero and that the code never
 * writes (zero_for_calls): every field of the micro-op that names a slot counts, as its
 * whole register (the rule of vm_lower_copy.c's mark_reads for handlers). */
static void mark_call_reads(vm_jit_ctx *j, const vm_uop *u)
{
    const tv_vm_program *p = j->p;
    uint32_t f[VM_UOP_SLOT_FIELDS];
    unsigned nf = vm_uop_slot_fields(u, f);
    for (unsigned i = 0; i < nf; i++) {
        const vm_range *rg = f[i] >= p->addr.base ? &p->addr : &p->temp;
        if (f[i] < rg->base || f[i] - rg->base >= (uint32_t)rg->count * 4u)
            continue;
        uint32_t r0 = rg->base + ((f[i] - rg->base) & ~3u);
        for (uint32_t s = r0; s < r0 + 4; s++)
            if (starts_zero(j, s) && !j->slot[s])
                j->zero_for_calls[s] = 1;
    }
}

void vm_jit_call_handler(vm_jit_ctx *j, const vm_uop *u, uint32_t pc)
{
    if (j->verbose) {
        const tv_tgsi_program *P = &j->p->src;
        fprintf(stderr, "texvm jit:   micro-op %u (%s) calls its handler %p\n", pc,
                u->insn < P->num_insns ? vm_opname(P->insns[u->insn].opcode) : "?",
                (void *)(uintptr_t)u->fn);
    }
    vm_jit_nn_forget(j);
    j->nn_alu = j->nn_track = false;
    j->nnn = 0;
    sync_out(j, false);
    mark_call_reads(j, u);
    LLVMTypeRef params[2] = {j->ptr, j->ptr};
    LLVMTypeRef fty = LLVMFunctionType(LLVMVoidTypeInContext(j->c), params, 2, 0);
    LLVMValueRef args[2] = {j->w, const_ptr(j, u)};
    LLVMBuildCall2(j->b, fty, const_ptr(j, (const void *)(uintptr_t)u->fn), args, 2, "");
    sync_in(j, u);
    if (u->flags & VM_UF_FAULT) {
        LLVMValueRef f = get(j, wfield(j, offsetof(vm_warp, fault)), j->i8);
        LLVMBasicBlockRef bad = block(j, "fault"), ok = block(j, "ok");
        LLVMBuildCondBr(j->b, LLVMBuildICmp(j->b, LLVMIntNE, f, LLVMConstInt(j->i8, 0, 0), ""),
                        bad, ok);
        LLVMPositionBuilderAtEnd(j->b, bad);
        vm_jit_emit_exit(j, VM_JIT_EXIT_FAULT, pc, false);
        LLVMPositionBuilderAtEnd(j->b, ok);
    }
    j->call_uops++;
}

/* ---- uniform slots ------------------------------------------------------------------------ */

/* Whether slot s holds the same word in every lane all through the run, by what j->uni
 * says of the written slots: a uniform slot (immediate, constant), a TEMP or ADDR slot
 * the code never writes (zero), or one find_uniform kept. */
static bool uniform_source(const vm_jit_ctx *j, uint32_t s)
{
    if (s < j->p->num_uniform)
        return true;
    if (s >= j->p->num_slots)
        return false;
    return j->slot[s] ? j->uni[s] != 0 : starts_zero(j, s);
}

/* The written slots that hold one word in every lane all through the run, kept as one
 * i32 instead of 32 lanes: slots that start at zero (starts_zero) and that only channel
 * groups storing every lane write (vm_jit_uniform_writer: VM_UF_NOMASK, which the
 * lowering gives a TEMP slot that no lane inactive at the store reads again,
 * vm_lower_lanes.c), each from such slots, immediates and constants — so the
 * interpreter's register file holds that word in every lane too, and a handler that reads
 * the slot sees the same. A loop counter is one: its compare, its conversion and the
 * selects on it become scalar operations, and it takes no vector registers. */
static void find_uniform(vm_jit_ctx *j)
{
    const vm_uop *code = j->code;
    const uint32_t ns = j->p->num_slots;
    for (uint32_t k = 0; k < j->nwritten; k++)
        j->uni[j->written[k]] = starts_zero(j, j->written[k]);
    for (uint32_t i = 0; i < j->n; i++) {   /* any other writer */
        const vm_uop *u = &code[i];
        if (!u->fn) {
            if (u->kind == VM_K_SWITCH && u->aux < ns)
                j->uni[u->aux] = 0;
            continue;
        }
        for (unsigned k = 0; k < 4; k++)
            if (u->dst[k] < ns && !vm_jit_uniform_writer(u, k))
                j->uni[u->dst[k]] = 0;
    }
    for (bool changed = true; changed;) {   /* sources: down to a fixed point */
        changed = false;
        for (uint32_t i = 0; i < j->n; i++) {
            const vm_uop *u = &code[i];
            for (unsigned c = 0; c < 4; c++) {
                unsigned nsrc = vm_jit_uniform_writer(u, c);
                uint32_t d = u->dst[c];
                if (!nsrc || d >= ns || !j->uni[d])
                    continue;
                for (unsigned k = 0; k < nsrc; k++)
                    if (!uniform_source(j, u->src[4 * k + c])) {
                        j->uni[d] = 0;
                        changed = true;
                        break;
                    }
            }
        }
    }
}

/* ---- the function ------------------------------------------------------------------------ */

static LLVMValueRef entry_alloca(vm_jit_ctx *j, LLVMTypeRef t, const char *name)
{
    return LLVMBuildAlloca(j->b, t, name);
}

bool vm_jit_build(vm_jit_ctx *j, const char *name, char *why, size_t why_size)
{
    const tv_vm_program *p = j->p;
    const vm_uop *code = j->code;
    const uint32_t n = j->n;
    bool ok = false;
    vm_jit_frame *frames = NULL;
    uint8_t *joins = NULL;
    vm_jit_depths D;
    const bool depths_ok = vm_jit_depths_alloc(&D, n);
    LLVMBasicBlockRef *bb = calloc(n + 1, sizeof *bb);
    j->slot = calloc(p->num_slots, sizeof *j->slot);
    j->not_nan = calloc(p->num_slots + 1, sizeof *j->not_nan);
    j->dirty = calloc(p->num_slots + 1, 1);
    j->nn_slot = calloc(p->num_slots + 1, 1);
    j->zero_for_calls = calloc(p->num_slots + 1, 1);
    j->uni = calloc(p->num_slots + 1, 1);
    joins = calloc(n + 1, 1);
    j->written = malloc((p->num_slots + 1) * sizeof *j->written);
    if (!depths_ok || !bb || !j->slot || !j->written ||
        !j->not_nan || !j->dirty || !j->nn_slot || !joins || !j->uni) {
        vm_jit_decline(why, why_size, "out of memory");
        goto out;
    }
    if (!vm_jit_depths_analyse(code, n, &D, why, why_size))
        goto out;
    for (uint32_t s = 0; s < p->num_uniform; s++)
        j->not_nan[s] = (p->uniform_init[s] & 0x7fffffffu) <= 0x7f800000u;
    for (uint32_t k = 0; k < p->num_constrefs; k++)
        if (p->constrefs[k].slot < p->num_slots)
            j->not_nan[p->constrefs[k].slot] = false;

    LLVMTypeRef params[2] = {j->ptr, j->ptr};
    LLVMTypeRef fty = LLVMFunctionType(j->i32, params, 2, 0);
    j->fn = LLVMAddFunction(j->m, name, fty);
    j->w = LLVMGetParam(j->fn, 0);
    j->r = LLVMGetParam(j->fn, 1);
    /* w is only accessed through w (a handler gets w itself); r is not noalias: handlers
       reach the register file through w->r (with noalias LLVM kept a slot's value across
       a texture handler that wrote it: caught by tests/tv on Mesa's corpus) */
    unsigned noalias = LLVMGetEnumAttributeKindForName("noalias", 7);
    LLVMAddAttributeAtIndex(j->fn, 1, LLVMCreateEnumAttribute(j->c, noalias, 0));
    /* r is the warp's whole register file, 64-byte aligned (vm_dispatch.c): loads of
       slots the program only reads may be hoisted out of loops */
    unsigned deref = LLVMGetEnumAttributeKindForName("dereferenceable", 15);
    LLVMAddAttributeAtIndex(j->fn, 2, LLVMCreateEnumAttribute(j->c, deref,
                                                              (uint64_t)p->num_slots *
                                                                  sizeof(vm_slot)));
    unsigned align = LLVMGetEnumAttributeKindForName("align", 5);
    LLVMAddAttributeAtIndex(j->fn, 2, LLVMCreateEnumAttribute(j->c, align, 64));
    unsigned nounwind = LLVMGetEnumAttributeKindForName("nounwind", 8);
    LLVMAddAttributeAtIndex(j->fn, LLVMAttributeFunctionIndex,
                            LLVMCreateEnumAttribute(j->c, nounwind, 0));

    LLVMBasicBlockRef entry = block(j, "entry");
    for (uint32_t i = 0; i < n; i++)
        bb[i] = block(j, "u");
    bb[n] = block(j, "past_end");
    LLVMPositionBuilderAtEnd(j->b, entry);
    j->zero = opaque_zero(j);

    /* state from the warp */
#define IN32(f)                                                                              \
    do {                                                                                     \
        j->f = entry_alloca(j, j->i32, #f);                                                  \
        set(j, j->f, g32(j, wfield(j, offsetof(vm_warp, f))));                               \
    } while (0)
    IN32(cond); IN32(loop); IN32(cont); IN32(sw); IN32(func); IN32(present);
    IN32(killed); IN32(live); IN32(demoted); IN32(helper);
#undef IN32
    /* (the two counts must not be neighbours in the warp: vm_internal.h, vm_warp.uops) */
    _Static_assert(offsetof(vm_warp, uops) > offsetof(vm_warp, insns) + 8 ||
                       offsetof(vm_warp, insns) > offsetof(vm_warp, uops) + 8,
                   "vm_warp's insns and uops adjacent: LLVM pairs them into one vector");
    j->insns = entry_alloca(j, j->i64, "insns");
    set(j, j->insns, get(j, wfield(j, offsetof(vm_warp, insns)), j->i64));
    j->uops = entry_alloca(j, j->i64, "uops");
    set(j, j->uops, get(j, wfield(j, offsetof(vm_warp, uops)), j->i64));
    j->budget = get(j, wfield(j, offsetof(vm_warp, budget)), j->i64);
    LLVMValueRef runp = get(j, wfield(j, offsetof(vm_warp, run)), j->ptr);
    LLVMValueRef mi_off = ci64(j, offsetof(vm_run, max_loop_iterations));
    j->max_iters = get(j, LLVMBuildGEP2(j->b, j->i8, runp, &mi_off, 1, ""), j->i64);
    LLVMValueRef mc_off = ci64(j, offsetof(vm_run, max_call_depth));
    LLVMValueRef max_calls = g32(j, LLVMBuildGEP2(j->b, j->i8, runp, &mc_off, 1, ""));
    LLVMValueRef call_sp = entry_alloca(j, j->i32, "call_sp");
    set(j, call_sp, ci32(j, 0));
    frames = calloc(D.nregions, sizeof *frames);
    if (!frames) {
        vm_jit_decline(why, why_size, "out of memory");
        goto out;
    }
    for (uint32_t r = 1; r < D.nregions; r++) {
        vm_jit_frame *F = &frames[r];
        F->cond = entry_alloca(j, j->i32, "f.cond");
        F->loop = entry_alloca(j, j->i32, "f.loop");
        F->cont = entry_alloca(j, j->i32, "f.cont");
        F->sw = entry_alloca(j, j->i32, "f.sw");
        F->func = entry_alloca(j, j->i32, "f.func");
        F->ret = entry_alloca(j, j->i32, "f.ret");
    }

    j->cstack = calloc(D.max_c + 1, sizeof *j->cstack);
    j->lstack = calloc(D.max_l + 1, sizeof *j->lstack);
    j->sstack = calloc(2 * (D.max_s + 1), sizeof *j->sstack);
    if (!j->cstack || !j->lstack || !j->sstack) {
        vm_jit_decline(why, why_size, "out of memory");
        goto out;
    }
    for (uint32_t d = 0; d < D.max_c; d++)
        j->cstack[d] = entry_alloca(j, j->i32, "cs");
    for (uint32_t d = 0; d < 2 * D.max_s; d++)
        j->sstack[d] = entry_alloca(j, j->i32, d & 1 ? "s.entering" : "s.sw");
    for (uint32_t d = 0; d < D.max_l; d++) {
        vm_jit_loop *L = &j->lstack[d];
        L->loop = entry_alloca(j, j->i32, "l.loop");
        L->cont = entry_alloca(j, j->i32, "l.cont");
        L->entry = entry_alloca(j, j->i32, "l.entry");
        L->cond = entry_alloca(j, j->i32, "l.cond");
        L->sw = entry_alloca(j, j->i32, "l.sw");
        L->iters = entry_alloca(j, j->i64, "l.iters");
    }

    /* the slots the program writes. Without indirect register access, TEMP and ADDR start
       at zero in compiled code (vm_zero_regs' contract): it sets the ones it writes to zero
       itself instead of loading them, never writes the others, and a run of compiled code
       need not clear them (vm_zero_regs_compiled); with it, they are loaded */
    bool indirect = false;
    for (uint32_t i = 0; i < n; i++)
        indirect |= code[i].op == VM_OP_gather || code[i].op == VM_OP_scatter ||
                    code[i].op == VM_OP_gather_const;
    j->zero_init = !indirect;
    j->zero_out = !indirect && p->proc == TV_TGSI_FRAG;
    j->nwritten = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (!code[i].fn && code[i].kind != VM_K_SWITCH)
            continue;
        for (unsigned k = 0; k < 4; k++) {
            /* a SWITCH writes its selector copy to slot aux */
            uint32_t s = code[i].fn ? code[i].dst[k] : code[i].aux;
            if (s >= p->num_uniform && s < p->num_slots && !j->slot[s]) {
                j->slot[s] = entry_alloca(j, j->vi, "slot");
                j->written[j->nwritten++] = s;
            }
        }
    }
    find_uniform(j);
    for (uint32_t k = 0; k < j->nwritten; k++) {
        uint32_t s = j->written[k];
        if (j->uni[s]) {   /* one i32 (the vector alloca goes unused) */
            j->uniform_slots++;
            j->slot[s] = entry_alloca(j, j->i32, "uslot");
            set(j, j->slot[s], LLVMBuildExtractElement(j->b, j->zero, ci32(j, 0), ""));
            j->dirty[s] = 1;
            continue;
        }
        if (starts_zero(j, s) || out_zero(j, s)) {
            set(j, j->slot[s], j->zero);
            j->dirty[s] = 1;   /* the register file holds an earlier warp's values */
            continue;
        }
        LLVMValueRef v = get(j, rslot(j, s), j->vi);
        LLVMSetAlignment(v, 64);
        set(j, j->slot[s], v);
    }
    j->zinit = block(j, "zinit");   /* filled after the code: zero_for_calls */
    LLVMBuildBr(j->b, j->zinit);

    const vm_jit_flow flow = {&D, bb, frames, call_sp, max_calls};
    /* micro-ops reached other than from the one before: every slot may be dirty there */
    for (uint32_t i = 0; i < n; i++) {
        const vm_uop *u = &code[i];
        if (u->fn)
            continue;
        if (u->target < n) joins[u->target] = 1;
        if (u->skip < n) joins[u->skip] = 1;
        if (u->kind == VM_K_CAL && i + 1 < n) joins[i + 1] = 1;
    }
    for (uint32_t i = 0; i < n; i++) {
        const vm_uop *u = &code[i];
        LLVMPositionBuilderAtEnd(j->b, bb[i]);
        if (joins[i])
            memset(j->dirty, 1, p->num_slots);
        /* never-NaN slots hold only along straight inline code (vm_jit_internal.h) */
        if (joins[i] || !u->fn)
            vm_jit_nn_forget(j);
        j->nn_alu = j->nn_track = false;
        j->nnn = 0;
        LLVMBasicBlockRef next = bb[i + 1];
        if (u->fn) {
            if (u->flags & VM_UF_COUNT) {
                add64(j, j->insns, u->ninsns);
                add64(j, j->uops, u->nuops);
            }
            j->pc = i;
            if ((u->flags & VM_UF_FAULT) || !vm_jit_emit_alu(j, u))
                vm_jit_call_handler(j, u, i);
            else
                j->inline_uops++;
            LLVMBuildBr(j->b, next);
            continue;
        }
        add64(j, j->insns, u->ninsns);
        add64(j, j->uops, u->nuops);
        vm_jit_emit_flow(j, &flow, i);
    }
    LLVMPositionBuilderAtEnd(j->b, bb[n]);
    vm_jit_emit_exit(j, VM_JIT_EXIT_INTERNAL, n ? n - 1 : 0, false);
    finish_exit(j);
    LLVMPositionBuilderAtEnd(j->b, j->zinit);
    for (uint32_t s = 0; s < p->num_slots; s++)
        if (j->zero_for_calls[s] || (out_zero(j, s) && !j->slot[s])) {
            LLVMValueRef st = LLVMBuildStore(j->b, LLVMConstNull(j->vi), rslot(j, s));
            LLVMSetAlignment(st, 64);
        }
    LLVMBuildBr(j->b, bb[0]);
    ok = true;
out:
    vm_jit_depths_free(&D);
    free(frames);
    free(joins);
    free(bb);
    return ok;
}

void vm_jit_ctx_free(vm_jit_ctx *j)
{
    free(j->slot);
    free(j->written);
    free(j->not_nan);
    free(j->dirty);
    free(j->nn_slot);
    free(j->zero_for_calls);
    j->zero_for_calls = NULL;
    free(j->uni);
    j->uni = NULL;
    free(j->cstack);
    free(j->lstack);
    free(j->sstack);
    j->slot = NULL;
    j->written = NULL;
    j->not_nan = NULL;
    j->dirty = NULL;
    j->nn_slot = NULL;
    j->cstack = NULL;
    j->lstack = NULL;
    j->sstack = NULL;
}
#endif
