/* Selects whose condition is the same in every lane, given to the code generator with a
 * scalar condition (vm_jit_internal.h, vm_jit_uniform_selects).
 *
 * After LLVM's O2 pipeline a choice on a uniform value (UCMP, CMP or a masked write under
 * a condition that find_uniform or InstCombine scalarised) is a select on a splat of one
 * i1: `select <32 x i1> splat(c), T, F`, or under the execution mask `select (select E,
 * splat(c), 0), T, F` (or the same with `and`). x86 lowers those to mask registers and
 * masked moves of both 16-lane halves, and computes T and F every time. A select on the
 * scalar c itself is the same value in every lane; the code generator (CodeGenPrepare) makes
 * it a branch and moves an operand used only there into it, so an iteration computes
 * only the side it keeps. The loop workload's UCMP alternates per iteration: its
 * add of 0.5 ran every iteration, under two masked moves (docs/jit.md "Uniform selects").
 * The values are the same lane by lane: select(c, T, F) and (E ? c : 0) ? T : F, which is
 * select(c, select(E, T, F), F). */
#ifdef TEXVM_JIT
#include "vm/vm_jit_internal.h"

/* The i1 that every lane of V is, where V is a broadcast (vm_jit_broadcast_of); NULL
 * otherwise */
static LLVMValueRef splat_of(LLVMValueRef v)
{
    LLVMValueRef c = vm_jit_broadcast_of(v);
    if (!c || LLVMGetTypeKind(LLVMTypeOf(c)) != LLVMIntegerTypeKind ||
        LLVMGetIntTypeWidth(LLVMTypeOf(c)) != 1)
        return NULL;
    return c;
}

/* Rewrites select I where its condition is splat(c), or a mask E narrowed by splat(c)
 * (select E, splat(c), 0 or and E, splat(c)); false where it is neither */
static bool rewrite(LLVMBuilderRef b, LLVMValueRef sel)
{
    LLVMValueRef cond = LLVMGetOperand(sel, 0), t = LLVMGetOperand(sel, 1),
                 f = LLVMGetOperand(sel, 2);
    if (LLVMGetTypeKind(LLVMTypeOf(cond)) != LLVMVectorTypeKind)
        return false;
    LLVMValueRef c = splat_of(cond), e = NULL;
    if (!c && LLVMIsASelectInst(cond) && LLVMIsNull(LLVMGetOperand(cond, 2)) &&
        (c = splat_of(LLVMGetOperand(cond, 1))))
        e = LLVMGetOperand(cond, 0);
    if (!c && LLVMIsABinaryOperator(cond) && LLVMGetInstructionOpcode(cond) == LLVMAnd) {
        for (unsigned k = 0; k < 2 && !c; k++)
            if ((c = splat_of(LLVMGetOperand(cond, k))))
                e = LLVMGetOperand(cond, 1 - k);
    }
    if (!c)
        return false;
    LLVMPositionBuilderBefore(b, sel);
    LLVMValueRef taken = e ? LLVMBuildSelect(b, e, t, f, "") : t;
    LLVMValueRef v = LLVMBuildSelect(b, c, taken, f, "");
    LLVMReplaceAllUsesWith(sel, v);
    LLVMInstructionEraseFromParent(sel);
    return true;
}

unsigned vm_jit_uniform_selects(LLVMModuleRef m)
{
    LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
    unsigned n = 0;
    for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn))
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb;
             bb = LLVMGetNextBasicBlock(bb)) {
            LLVMValueRef i = LLVMGetFirstInstruction(bb);
            while (i) {
                LLVMValueRef next = LLVMGetNextInstruction(i);
                if (LLVMGetInstructionOpcode(i) == LLVMSelect && rewrite(b, i))
                    n++;
                i = next;
            }
        }
    LLVMDisposeBuilder(b);
    return n;
}
#endif
