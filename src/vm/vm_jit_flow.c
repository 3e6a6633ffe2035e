/* The JIT's control-flow micro-ops: IF/UIF/ELSE/ENDIF, loops (BGNLOOP, ENDLOOP, BRK,
 * BRK_IF, CONT), SWITCH/CASE/DEFAULT/ENDSWITCH, subroutines (CAL, RET, ENDSUB), KILL,
 * KILL_IF, DEMOTE and END, each built as vm_exec.c's run loop runs it (optimised mode):
 * the masks exec = cond & loop & cont & sw & func & present, the jumps when no lane is
 * active, the loop records with their iteration limit, the call frames with the call
 * depth limit, the instruction budget. The stacks are allocas indexed by each micro-op's
 * static depth (vm_jit_depths.c). Called by vm_jit_build (vm_jit_build.c) for each
 * micro-op without a handler. */
#ifdef TEXVM_JIT
#include <stdint.h>

#include "vm/vm_jit_flow.h"
#include "vm/vm_jit_ir.h"


/* Lane masks of a slot (vm_exec.c mask_nonzero_u/_f, mask_neg_f). */
static LLVMValueRef mask_of(vm_jit_ctx *j, LLVMValueRef cmp)
{
    return LLVMBuildBitCast(j->b, cmp, j->i32, "");
}
static LLVMValueRef nonzero(vm_jit_ctx *j, uint32_t slot, bool integer)
{
    LLVMValueRef v = vm_jit_load(j, slot);
    if (integer)
        return mask_of(j, LLVMBuildICmp(j->b, LLVMIntNE, v, LLVMConstNull(j->vi), ""));
    LLVMValueRef f = vm_jit_opaque_float(j, slot, LLVMBuildBitCast(j->b, v, j->vf, ""));
    return mask_of(j, LLVMBuildFCmp(j->b, LLVMRealUNE, f, LLVMConstNull(j->vf), ""));
}
static LLVMValueRef negative(vm_jit_ctx *j, uint32_t slot)
{
    LLVMValueRef f = vm_jit_opaque_float(j, slot,
                                         LLVMBuildBitCast(j->b, vm_jit_load(j, slot), j->vf, ""));
    return mask_of(j, LLVMBuildFCmp(j->b, LLVMRealOLT, f, LLVMConstNull(j->vf), ""));
}

/* Lanes that keep loop L going after a BRK or CONT (vm_exec.c: loop [& cont] & func &
 * ~killed & the lanes that entered it). */
static LLVMValueRef loop_alive(vm_jit_ctx *j, const vm_jit_loop *L, bool with_cont)
{
    LLVMValueRef stay = LLVMBuildAnd(j->b, g32(j, j->loop), g32(j, j->func), "");
    if (with_cont)
        stay = LLVMBuildAnd(j->b, stay, g32(j, j->cont), "");
    stay = and_not(j, stay, g32(j, j->killed));
    return LLVMBuildAnd(j->b, stay, g32(j, L->entry), "");
}

static void exit_loop(vm_jit_ctx *j, const vm_jit_loop *L)
{
    set(j, j->cond, g32(j, L->cond));
    set(j, j->sw, g32(j, L->sw));
    set(j, j->loop, g32(j, L->loop));
    set(j, j->cont, g32(j, L->cont));
}

/* A subroutine's frame: the caller's masks, saved by CAL and restored by its return. */
static void frame_save(vm_jit_ctx *j, const vm_jit_frame *F)
{
    set(j, F->cond, g32(j, j->cond));
    set(j, F->loop, g32(j, j->loop));
    set(j, F->cont, g32(j, j->cont));
    set(j, F->sw, g32(j, j->sw));
    set(j, F->func, g32(j, j->func));
}
static void frame_restore(vm_jit_ctx *j, const vm_jit_frame *F)
{
    set(j, j->cond, g32(j, F->cond));
    set(j, j->loop, g32(j, F->loop));
    set(j, j->cont, g32(j, F->cont));
    set(j, j->sw, g32(j, F->sw));
    set(j, j->func, g32(j, F->func));
}

void vm_jit_emit_flow(vm_jit_ctx *j, const vm_jit_flow *F, uint32_t i)
{
    const tv_vm_program *p = j->p;
    const vm_uop *code = j->code, *u = &code[i];
    const uint32_t n = j->n;
    const vm_jit_depths *D = F->D;
    LLVMBasicBlockRef *bb = F->bb, next = bb[i + 1];
    vm_jit_frame *frames = F->frames;
    LLVMValueRef call_sp = F->call_sp, max_calls = F->max_calls;
    const uint32_t c = D->cd[i], l = D->ld[i], sd = D->sd[i];
    switch (u->kind) {
    case VM_K_NOP: case VM_K_ALU: case VM_K_BGNSUB:
        LLVMBuildBr(j->b, next);
        break;
    case VM_K_CAL: {
        LLVMBasicBlockRef go = block(j, "call"), deep = block(j, "calldepth"),
                          chk = block(j, "callbudget"), over = block(j, "overbudget");
        br_zero(j, vm_jit_exec(j), next, chk);
        LLVMPositionBuilderAtEnd(j->b, chk);
        LLVMBuildCondBr(j->b, LLVMBuildICmp(j->b, LLVMIntUGE, g32(j, call_sp), max_calls, ""),
                        deep, go);
        LLVMPositionBuilderAtEnd(j->b, deep);
        vm_jit_emit_exit(j, VM_JIT_EXIT_CALL_DEPTH, i, false);
        LLVMPositionBuilderAtEnd(j->b, go);
        LLVMBasicBlockRef in = block(j, "callee");
        LLVMBuildCondBr(j->b, LLVMBuildICmp(j->b, LLVMIntUGT, get(j, j->insns, j->i64),
                                            j->budget, ""),
                        over, in);
        LLVMPositionBuilderAtEnd(j->b, over);
        vm_jit_emit_exit(j, VM_JIT_EXIT_BUDGET, i, false);
        LLVMPositionBuilderAtEnd(j->b, in);
        vm_jit_frame *F = &frames[D->region[u->target]];
        set(j, F->ret, ci32(j, i + 1));
        frame_save(j, F);
        set(j, call_sp, LLVMBuildAdd(j->b, g32(j, call_sp), ci32(j, 1), ""));
        LLVMValueRef e = vm_jit_exec(j);
        set(j, j->cond, e);
        set(j, j->loop, e);
        set(j, j->cont, e);
        set(j, j->sw, e);
        set(j, j->func, e);
        LLVMBuildBr(j->b, bb[u->target]);
        break;
    }
    case VM_K_RET: case VM_K_ENDSUB: {
        LLVMBasicBlockRef back = block(j, "return");
        if (u->kind == VM_K_RET) {
            set(j, j->func, and_not(j, g32(j, j->func), vm_jit_exec(j)));
            LLVMBasicBlockRef some = block(j, "ret_some");
            br_zero(j, LLVMBuildAnd(j->b, g32(j, j->func), g32(j, j->present), ""), back,
                    some);
            LLVMPositionBuilderAtEnd(j->b, some);
            br_zero(j, vm_jit_exec(j), bb[u->skip], next);
        } else {
            LLVMBuildBr(j->b, back);
        }
        /* return to the caller, or finish when none (the main program) */
        LLVMPositionBuilderAtEnd(j->b, back);
        const uint32_t r = D->region[i];
        LLVMBasicBlockRef finish = block(j, "finish");
        if (r == 0) {
            LLVMBuildBr(j->b, finish);
        } else {
            LLVMBasicBlockRef ret = block(j, "ret_caller");
            br_zero(j, g32(j, call_sp), finish, ret);
            LLVMPositionBuilderAtEnd(j->b, ret);
            vm_jit_frame *F = &frames[r];
            frame_restore(j, F);
            set(j, call_sp, LLVMBuildSub(j->b, g32(j, call_sp), ci32(j, 1), ""));
            /* back to the micro-op after the CAL that came here (the case count is
               only LLVM's allocation hint) */
            LLVMBasicBlockRef bad = block(j, "badret");
            LLVMValueRef sw = LLVMBuildSwitch(j->b, g32(j, F->ret), bad, 4);
            for (uint32_t k = 0; k < n; k++)
                if (!code[k].fn && code[k].kind == VM_K_CAL && D->region[code[k].target] == r)
                    LLVMAddCase(sw, ci32(j, k + 1), bb[k + 1]);
            LLVMPositionBuilderAtEnd(j->b, bad);
            vm_jit_emit_exit(j, VM_JIT_EXIT_INTERNAL, i, false);
        }
        LLVMPositionBuilderAtEnd(j->b, finish);
        vm_jit_emit_exit(j, VM_JIT_EXIT_DONE, i, true);
        break;
    }
    case VM_K_IF: case VM_K_UIF: {
        set(j, j->cstack[c], g32(j, j->cond));
        LLVMValueRef m = nonzero(j, u->src[0], u->kind == VM_K_UIF);
        set(j, j->cond, LLVMBuildAnd(j->b, g32(j, j->cond), m, ""));
        br_zero(j, vm_jit_exec(j), bb[u->target], next);
        break;
    }
    case VM_K_ELSE:
        set(j, j->cond, and_not(j, g32(j, j->cstack[c - 1]), g32(j, j->cond)));
        br_zero(j, vm_jit_exec(j), bb[u->target], next);
        break;
    case VM_K_ENDIF:
        set(j, j->cond, g32(j, j->cstack[c - 1]));
        LLVMBuildBr(j->b, next);
        break;
    case VM_K_BGNLOOP: {
        vm_jit_loop *L = &j->lstack[l];
        set(j, L->loop, g32(j, j->loop));
        set(j, L->cont, g32(j, j->cont));
        set(j, L->iters, ci64(j, 0));
        set(j, L->entry, vm_jit_exec(j));
        set(j, L->cond, g32(j, j->cond));
        set(j, L->sw, g32(j, j->sw));
        LLVMBasicBlockRef skip = block(j, "noentry");
        br_zero(j, vm_jit_exec(j), skip, next);
        LLVMPositionBuilderAtEnd(j->b, skip);
        exit_loop(j, L);
        LLVMBuildBr(j->b, bb[u->target]);
        break;
    }
    case VM_K_ENDLOOP: {
        vm_jit_loop *L = &j->lstack[l - 1];
        set(j, j->cont, g32(j, L->cont));
        LLVMBasicBlockRef again = block(j, "again"), leave = block(j, "leave");
        br_zero(j, and_not(j, vm_jit_exec(j), g32(j, j->killed)), leave, again);
        LLVMPositionBuilderAtEnd(j->b, leave);
        set(j, j->loop, g32(j, L->loop));
        set(j, j->cont, g32(j, L->cont));
        LLVMBuildBr(j->b, next);
        LLVMPositionBuilderAtEnd(j->b, again);
        LLVMValueRef it = LLVMBuildAdd(j->b, get(j, L->iters, j->i64), ci64(j, 1), "");
        set(j, L->iters, it);
        LLVMBasicBlockRef lim = block(j, "looplimit"), chk = block(j, "budget");
        LLVMBuildCondBr(j->b, LLVMBuildICmp(j->b, LLVMIntUGT, it, j->max_iters, ""), lim,
                        chk);
        LLVMPositionBuilderAtEnd(j->b, lim);
        vm_jit_emit_exit(j, VM_JIT_EXIT_LOOP_LIMIT, i, false);
        LLVMPositionBuilderAtEnd(j->b, chk);
        LLVMBasicBlockRef over = block(j, "overbudget");
        LLVMBuildCondBr(j->b, LLVMBuildICmp(j->b, LLVMIntUGT, get(j, j->insns, j->i64),
                                            j->budget, ""),
                        over, bb[u->target]);
        LLVMPositionBuilderAtEnd(j->b, over);
        vm_jit_emit_exit(j, VM_JIT_EXIT_BUDGET, i, false);
        break;
    }
    case VM_K_BRK: {
        if (u->flags & VM_UF_BRKSW) {
            set(j, j->sw, and_not(j, g32(j, j->sw), vm_jit_exec(j)));
            br_zero(j, vm_jit_exec(j), bb[u->skip], next);
            break;
        }
        vm_jit_loop *L = &j->lstack[l - 1];
        set(j, j->loop, and_not(j, g32(j, j->loop), vm_jit_exec(j)));
        LLVMBasicBlockRef out = block(j, "brk_out"), in = block(j, "brk_in");
        br_zero(j, loop_alive(j, L, false), out, in);
        LLVMPositionBuilderAtEnd(j->b, out);
        exit_loop(j, L);
        LLVMBuildBr(j->b, bb[u->target]);
        LLVMPositionBuilderAtEnd(j->b, in);
        br_zero(j, vm_jit_exec(j), bb[u->skip], next);
        break;
    }
    case VM_K_BRK_IF: {
        vm_jit_loop *L = &j->lstack[l - 1];
        LLVMValueRef m = LLVMBuildAnd(j->b, vm_jit_exec(j),
                                      nonzero(j, u->src[0], u->aux != 0), "");
        LLVMBasicBlockRef none = block(j, "nobrk"), some = block(j, "brk");
        br_zero(j, m, none, some);
        LLVMPositionBuilderAtEnd(j->b, none);
        add64(j, j->insns, 1);
        LLVMBuildBr(j->b, next);
        LLVMPositionBuilderAtEnd(j->b, some);
        set(j, j->loop, and_not(j, g32(j, j->loop), m));
        LLVMBasicBlockRef out = block(j, "brk_out"), in = block(j, "brk_in");
        br_zero(j, loop_alive(j, L, false), out, in);
        LLVMPositionBuilderAtEnd(j->b, out);
        add64(j, j->insns, 1);
        exit_loop(j, L);
        LLVMBuildBr(j->b, bb[u->target]);
        LLVMPositionBuilderAtEnd(j->b, in);
        add64(j, j->insns, 2);
        LLVMBuildBr(j->b, next);
        break;
    }
    case VM_K_CONT: {
        vm_jit_loop *L = &j->lstack[l - 1];
        set(j, j->cont, and_not(j, g32(j, j->cont), vm_jit_exec(j)));
        LLVMBasicBlockRef out = block(j, "cont_all"), in = block(j, "cont_some");
        br_zero(j, loop_alive(j, L, true), out, in);
        LLVMPositionBuilderAtEnd(j->b, out);
        set(j, j->cond, g32(j, L->cond));
        set(j, j->sw, g32(j, L->sw));
        LLVMBuildBr(j->b, bb[u->target]);
        LLVMPositionBuilderAtEnd(j->b, in);
        br_zero(j, vm_jit_exec(j), bb[u->skip], next);
        break;
    }
    case VM_K_SWITCH:
        set(j, j->sstack[2 * sd], g32(j, j->sw));
        set(j, j->sstack[2 * sd + 1], vm_jit_exec(j));
        vm_jit_store(j, u->aux, vm_jit_load(j, u->src[0]), true);
        set(j, j->sw, ci32(j, 0));
        LLVMBuildBr(j->b, next);
        break;
    case VM_K_CASE: case VM_K_DEFAULT: {
        LLVMValueRef sel = vm_jit_load(j, u->aux), any = ci32(j, 0);
        const uint32_t nv = u->kind == VM_K_CASE ? 1 : u->aux2;
        for (uint32_t k = 0; k < nv && k < VM_MAX_USRC; k++)
            any = LLVMBuildOr(j->b, any, mask_of(j, LLVMBuildICmp(j->b, LLVMIntEQ, sel,
                                                                  vm_jit_load(j, u->src[k]),
                                                                  "")), "");
        if (u->kind == VM_K_DEFAULT)
            any = LLVMBuildNot(j->b, any, "");
        any = LLVMBuildAnd(j->b, any, g32(j, j->sstack[2 * sd - 1]), "");
        set(j, j->sw, LLVMBuildOr(j->b, g32(j, j->sw), any, ""));
        br_zero(j, vm_jit_exec(j), bb[u->skip], next);
        break;
    }
    case VM_K_ENDSWITCH:
        set(j, j->sw, g32(j, j->sstack[2 * sd - 2]));
        LLVMBuildBr(j->b, next);
        break;
    case VM_K_KILL: case VM_K_DEMOTE: case VM_K_KILL_IF: {
        LLVMValueRef m = vm_jit_exec(j);
        if (u->kind == VM_K_KILL_IF) {
            LLVMValueRef any = ci32(j, 0);
            for (unsigned k = 0; k < 4; k++)
                any = LLVMBuildOr(j->b, any, negative(j, u->src[k]), "");
            m = LLVMBuildAnd(j->b, any, m, "");
        }
        if (u->kind == VM_K_DEMOTE) {
            set(j, j->demoted, LLVMBuildOr(j->b, g32(j, j->demoted), m, ""));
            set(j, j->helper, LLVMBuildOr(j->b, g32(j, j->helper), m, ""));
        } else {
            set(j, j->killed, LLVMBuildOr(j->b, g32(j, j->killed), m, ""));
        }
        set(j, j->live, and_not(j, g32(j, j->live), m));
        if (p->proc == TV_TGSI_FRAG) {
            LLVMBasicBlockRef gone = block(j, "alldead");
            br_zero(j, g32(j, j->live), gone, next);
            LLVMPositionBuilderAtEnd(j->b, gone);
            vm_jit_emit_exit(j, VM_JIT_EXIT_DONE, i, true);
        } else {
            LLVMBuildBr(j->b, next);
        }
        break;
    }
    case VM_K_END:
        vm_jit_emit_exit(j, VM_JIT_EXIT_DONE, i, true);
        break;
    default:   /* vm_jit_depths_analyse declined every other kind */
        vm_jit_emit_exit(j, VM_JIT_EXIT_INTERNAL, i, false);
        break;
    }
}
#endif
