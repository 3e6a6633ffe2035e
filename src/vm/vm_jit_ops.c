/* The JIT's inline ALU micro-ops: one row per handler the JIT computes itself, with the
 * lane expression of that handler written as LLVM IR over 32 lanes. Every other handler is
 * called (vm_jit_build.c). The rows must give the handler's bits for every input — the
 * same IEEE operations in the same order, no contraction, selects for the C conditionals —
 * and translation validation (tests/tv) compares them with the interpreter on random
 * programs.
 *
 * One thing C leaves open: when both operands of a float add, multiply or divide are NaN,
 * x86 returns the first operand's NaN (quieted), and which C operand GCC made the first is
 * its choice per handler. So each such operation node is calibrated once per process
 * (vm_jit_calibrate): the handler itself is run on NaN operands with distinct payloads and
 * the operand whose NaN came out is recorded; the compiled node then returns exactly that
 * NaN when both are NaN (a select LLVM cannot reorder), and the plain IEEE result
 * otherwise (with one NaN operand every order gives that NaN). A handler whose lanes
 * disagree, or whose answer is neither operand, is not compiled inline. */
#ifdef TEXVM_JIT
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vm/vm_handlers.h"
#include "vm/vm_jit_internal.h"
#include "vm/vm_jit_ir.h"

enum jit_form {
    F_GROUP,    /* channel group: aux2 channels, src[k*4+c] -> dst[c] (vm_ops.h VM_GROUP) */
    F_MOV1,     /* vm_h_mov: dst[0] = src[0], saturated on request, masked */
    F_SCALAR,   /* F1S: dst[0] = f(src[0]), saturated on request, masked */
    F_DOT,      /* dot product of aux components, masked */
    F_MOD,      /* source modifier: dst[0] = f(src[0]), every lane */
    F_TRIG      /* SIN/COS channel group (vm_ops_float.c trig): the polynomial inline, the
                   handler when a lane is beyond its range */
};

typedef LLVMValueRef (*lane_fn)(vm_jit_ctx *j, const uint32_t *first, LLVMValueRef a,
                                LLVMValueRef b, LLVMValueRef c);

/* Calibration probes: operands for a, b, c (N1/N2/N3 = NaNs with distinct payloads,
 * ONE = 1.0f; dot products: a*b + c*d) and the node the probe decides: in each lane its
 * result must be the NaN of operand `x` (that lane's bit of `first` clear) or of `y` (set).
 * Lanes may differ: GCC unrolls a handler's lane loop and gives each copy its own operand
 * order (the add handler's lanes 16..31 take the other operand's NaN from lanes 0..15). */
enum { P_ONE = 1, P_N1, P_N2, P_N3 };
typedef struct probe {
    uint8_t a, b, c, d, node, x, y;
} probe;

typedef struct jit_op {
    uint16_t op;                /* vm_op (vm_handlers.h) */
    uint8_t form, nsrc;
    bool float_in, float_out;   /* sources read as float; result float (SAT applies) */
    lane_fn lane;
    uint8_t nprobes;
    probe probes[3];
} jit_op;

/* ---- IR helpers ---------------------------------------------------------------------- */

static LLVMValueRef splat(LLVMValueRef scalar)
{
    LLVMValueRef e[VM_LANES];
    for (unsigned l = 0; l < VM_LANES; l++)
        e[l] = scalar;
    return LLVMConstVector(e, VM_LANES);
}
static LLVMValueRef kf(vm_jit_ctx *j, float v) { return splat(LLVMConstReal(j->f32, v)); }
static LLVMValueRef ku(vm_jit_ctx *j, uint32_t v) { return splat(LLVMConstInt(j->i32, v, 0)); }
static LLVMValueRef asf(vm_jit_ctx *j, LLVMValueRef v) { return LLVMBuildBitCast(j->b, v, j->vf, ""); }
static LLVMValueRef asu(vm_jit_ctx *j, LLVMValueRef v) { return LLVMBuildBitCast(j->b, v, j->vi, ""); }
static LLVMValueRef sel(vm_jit_ctx *j, LLVMValueRef c, LLVMValueRef a, LLVMValueRef b)
{
    return LLVMBuildSelect(j->b, c, a, b, "");
}
static LLVMValueRef fcmp(vm_jit_ctx *j, LLVMRealPredicate p, LLVMValueRef a, LLVMValueRef b)
{
    return LLVMBuildFCmp(j->b, p, a, b, "");
}
static LLVMValueRef icmp(vm_jit_ctx *j, LLVMIntPredicate p, LLVMValueRef a, LLVMValueRef b)
{
    return LLVMBuildICmp(j->b, p, a, b, "");
}
static LLVMValueRef isnan_(vm_jit_ctx *j, LLVMValueRef a) { return fcmp(j, LLVMRealUNO, a, a); }
static LLVMValueRef mask32(vm_jit_ctx *j, LLVMValueRef cmp)
{
    return LLVMBuildSExt(j->b, cmp, j->vi, "");
}
static LLVMValueRef intrinsic1(vm_jit_ctx *j, const char *name, LLVMValueRef a)
{
    unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
    LLVMTypeRef t = j->vf;
    LLVMValueRef f = LLVMGetIntrinsicDeclaration(j->m, id, &t, 1);
    LLVMTypeRef fty = LLVMIntrinsicGetType(j->c, id, &t, 1);
    return LLVMBuildCall2(j->b, fty, f, &a, 1, "");
}

/* llvm.arithmetic.fence: the value unchanged (no instruction), but opaque to LLVM's
 * folds, in the IR and in the code generator */
static LLVMValueRef fence(vm_jit_ctx *j, LLVMValueRef a)
{
    return intrinsic1(j, "llvm.arithmetic.fence", a);
}

/* A float operand read from slot `slot`, as an operation sees it. A slot the program
 * writes may hold what LLVM can prove to be a constant: integer identities give them from
 * any input (USEQ a, a is ~0, XOR a, a is 0, then INEG, I2F, SHL...: 1.0, -1.0, 0x00000001),
 * so do float ones (SGE s, s of a comparison's result is 1.0). LLVM then folds
 * x * -1.0 and x / -1.0 into a negation (a NaN's sign flipped), x * 1.0, x / 1.0 and
 * x + -0.0 into x (a signalling NaN left unquieted, a denormal left unflushed under
 * flush_denormals), and compares, saturation, floor... of denormal constants as IEEE
 * arithmetic does, not as the CPU does with DAZ set — where the interpreter runs the
 * operation. Behind the fence the value is unknown to it. Slots the code only reads are
 * loads it cannot see through, the zero of unwritten TEMPs too (opaque_zero). */
LLVMValueRef vm_jit_opaque_float(vm_jit_ctx *j, uint32_t slot, LLVMValueRef f)
{
    if (slot < j->p->num_slots && j->slot[slot])
        return fence(j, f);
    return f;
}

/* Whether a float constant (scalar or vector) holds no NaN in any element: the JIT's own
 * numbers never do, but a bit cast of an integer constant folds into a float constant that
 * may (no lane expression makes one today; immediates are loads). Anything not seen
 * through (undef, a constant expression) counts as a possible NaN. */
static bool constant_not_nan(LLVMValueRef c)
{
    if (LLVMIsAConstantAggregateZero(c))
        return true;
    if (LLVMIsAConstantFP(c)) {
        LLVMBool loses = 0;
        double d = LLVMConstRealGetDouble(c, &loses);
        return d == d;
    }
    if (LLVMIsAConstantDataVector(c) || LLVMIsAConstantVector(c)) {
        unsigned n = LLVMGetVectorSize(LLVMTypeOf(c));
        for (unsigned i = 0; i < n; i++) {
            LLVMValueRef e = LLVMGetAggregateElement(c, i);
            if (!e || !constant_not_nan(e))
                return false;
        }
        return true;
    }
    return false;
}

/* x op y where both NaN gives the recorded operand's NaN in each lane, quieted (see the
 * top); `first` has bit l set where lane l takes y's. */
static bool never_nan_depth(const vm_jit_ctx *j, LLVMValueRef v, unsigned depth)
{
    for (unsigned k = 0; k < j->nnn; k++)
        if (j->nn[k] == v)
            return true;
    if (LLVMIsAConstant(v)) {
        /* a float constant with no NaN element; an integer one, reached through a bit
           cast, may hold a NaN's bits */
        LLVMTypeRef t = LLVMTypeOf(v);
        if (LLVMGetTypeKind(t) == LLVMVectorTypeKind)
            t = LLVMGetElementType(t);
        return LLVMGetTypeKind(t) == LLVMFloatTypeKind && constant_not_nan(v);
    }
    if (!LLVMIsAInstruction(v) || depth == 0)
        return false;
    /* what the value is made of: an integer converted (U2F, I2F: a number below 2^32), a
       broadcast of a scalar never a NaN, a bit cast (the slots' integer and float views of
       the same bits), fence (hides the value from LLVM's folds, changes nothing) or select
       of values never a NaN */
    switch (LLVMGetInstructionOpcode(v)) {
    case LLVMUIToFP:
    case LLVMSIToFP:
        return true;
    case LLVMBitCast:
        return never_nan_depth(j, LLVMGetOperand(v, 0), depth - 1);
    case LLVMShuffleVector: { /* a broadcast (int_to_float's): its scalar */
        LLVMValueRef s = vm_jit_broadcast_of(v);
        return s && never_nan_depth(j, s, depth - 1);
    }
    case LLVMSelect:
        return never_nan_depth(j, LLVMGetOperand(v, 1), depth - 1) &&
               never_nan_depth(j, LLVMGetOperand(v, 2), depth - 1);
    case LLVMCall: {
        LLVMValueRef callee = LLVMGetCalledValue(v);
        size_t len = 0;
        const char *name = callee ? LLVMGetValueName2(callee, &len) : NULL;
        return name && strncmp(name, "llvm.arithmetic.fence", 21) == 0 &&
               never_nan_depth(j, LLVMGetOperand(v, 0), depth - 1);
    }
    default:
        return false;
    }
}

bool vm_jit_never_nan(const vm_jit_ctx *j, LLVMValueRef v)
{
    return never_nan_depth(j, v, 6);
}

static bool never_nan(const vm_jit_ctx *j, LLVMValueRef v)
{
    return vm_jit_never_nan(j, v);
}

void vm_jit_nn_forget(vm_jit_ctx *j)
{
    memset(j->nn_slot, 0, j->p->num_slots + 1);
}

static LLVMValueRef nanfix(vm_jit_ctx *j, LLVMValueRef r, LLVMValueRef x, LLVMValueRef y,
                           uint32_t first)
{
    if (never_nan(j, x) || never_nan(j, y))
        return r;
    LLVMValueRef both = LLVMBuildAnd(j->b, isnan_(j, x), isnan_(j, y), "");
    LLVMValueRef pick = first == 0 ? x : first == VM_ALL_LANES ? y : NULL;
    if (!pick) {
        LLVMValueRef bits[VM_LANES];
        for (unsigned l = 0; l < VM_LANES; l++)
            bits[l] = LLVMConstInt(j->i1, (first >> l) & 1u, 0);
        pick = sel(j, LLVMConstVector(bits, VM_LANES), y, x);
    }
    LLVMValueRef q = LLVMBuildOr(j->b, asu(j, pick), ku(j, 0x00400000u), "");
    return sel(j, both, asf(j, q), r);
}
/* x op y (OPC) as nanfix gives it: LLVM's operation, and where both operands may be NaNs
 * the select of the calibrated operand's NaN. */
static LLVMValueRef calibrated_select(vm_jit_ctx *j, LLVMOpcode opc, LLVMValueRef x,
                                      LLVMValueRef y, uint32_t first)
{
    return nanfix(j, LLVMBuildBinOp(j->b, opc, x, y, ""), x, y, first);
}

/* x op y as the x86 instruction itself in each chunk of lanes one instruction of the host
 * takes (16 with AVX-512, 8 with AVX, 4 without): its first source is the operand whose
 * NaN the chunk's lanes return when both are NaN (bit l of FIRST set: y's), and it returns
 * that NaN quieted, one NaN operand's NaN quieted, else the IEEE result under the current
 * MXCSR — what nanfix's select gives, in one instruction a vector register instead of five
 * (two compares, an and, an or and a blend). LLVM neither reorders nor folds an inline
 * instruction. A chunk whose lanes differ, or whose lanes take y's NaN for an operation
 * that does not commute (a division: the dividend is the first source), takes its lanes
 * of calibrated_select (which LLVM then computes for those lanes alone). OP is the
 * mnemonic without its VEX prefix (addps, mulps, divps). */
static LLVMValueRef x86_op(vm_jit_ctx *j, LLVMOpcode opc, const char *op, bool commutes,
                           LLVMValueRef x, LLVMValueRef y, uint32_t first)
{
    const unsigned w = j->simd_lanes;
    const uint32_t ones = (1u << w) - 1u;   /* (w <= 16) */
    LLVMTypeRef vt = LLVMVectorType(j->f32, w);
    LLVMTypeRef params[2] = {vt, vt};
    LLVMTypeRef fty = LLVMFunctionType(vt, params, 2, 0);
    char text[32], cons[16];
    /* AT&T order: src2, src1, dst; SSE has no three-operand form, dst is src1 */
    if (w == 4) {
        snprintf(text, sizeof text, "%s $2, $0", op);
        snprintf(cons, sizeof cons, "=x,0,x");
    } else {
        snprintf(text, sizeof text, "v%s $2, $1, $0", op);
        snprintf(cons, sizeof cons, w == 16 ? "=v,v,v" : "=x,x,x");
    }
    LLVMValueRef asm_fn = LLVMGetInlineAsm(fty, text, strlen(text), cons, strlen(cons), 0, 0,
                                           LLVMInlineAsmDialectATT, 0);
    LLVMValueRef parts[VM_LANES / 4], full = NULL;
    for (unsigned k = 0; k < VM_LANES / w; k++) {
        const uint32_t bits = (first >> (k * w)) & ones;
        if (bits != 0 && (bits != ones || !commutes)) {
            if (!full)
                full = calibrated_select(j, opc, x, y, first);
            parts[k] = vm_jit_chunk(j, full, k, w);
            continue;
        }
        LLVMValueRef xs = vm_jit_chunk(j, x, k, w), ys = vm_jit_chunk(j, y, k, w);
        LLVMValueRef a[2] = {bits ? ys : xs, bits ? xs : ys};
        parts[k] = LLVMBuildCall2(j->b, fty, asm_fn, a, 2, "");
    }
    return vm_jit_join(j, parts, w);
}

/* The calibrated operation (see the top): x86_op where both operands may be NaNs, on x86
 * hosts; else LLVM's operation, alone where one operand is never a NaN (nanfix). */
static LLVMValueRef calibrated(vm_jit_ctx *j, LLVMOpcode opc, const char *op, bool commutes,
                               LLVMValueRef x, LLVMValueRef y, uint32_t first)
{
#if defined(__x86_64__) || defined(__i386__)
    if (!never_nan(j, x) && !never_nan(j, y) && LLVMTypeOf(x) == j->vf)
        return x86_op(j, opc, op, commutes, x, y, first);
#else
    (void)op;
    (void)commutes;
#endif
    return calibrated_select(j, opc, x, y, first);
}
static LLVMValueRef fadd(vm_jit_ctx *j, LLVMValueRef x, LLVMValueRef y, uint32_t first)
{
    return calibrated(j, LLVMFAdd, "addps", true, x, y, first);
}
static LLVMValueRef fmul(vm_jit_ctx *j, LLVMValueRef x, LLVMValueRef y, uint32_t first)
{
    return calibrated(j, LLVMFMul, "mulps", true, x, y, first);
}
static LLVMValueRef fdiv(vm_jit_ctx *j, LLVMValueRef x, LLVMValueRef y, uint32_t first)
{
    return calibrated(j, LLVMFDiv, "divps", false, x, y, first);
}
/* vm_lmul: 0 * anything = 0 */
static LLVMValueRef lmul(vm_jit_ctx *j, LLVMValueRef a, LLVMValueRef b, uint32_t first)
{
    LLVMValueRef z = LLVMBuildOr(j->b, fcmp(j, LLVMRealOEQ, a, kf(j, 0.0f)),
                                 fcmp(j, LLVMRealOEQ, b, kf(j, 0.0f)), "");
    return sel(j, z, kf(j, 0.0f), fmul(j, a, b, first));
}
/* vm_f2i / vm_f2u_conv: defined for every input */
static LLVMValueRef f2i(vm_jit_ctx *j, LLVMValueRef a)
{
    LLVMValueRef r = LLVMBuildFPToSI(j->b, a, j->vi, "");
    r = sel(j, fcmp(j, LLVMRealOLE, a, kf(j, -2147483648.0f)), ku(j, 0x80000000u), r);
    r = sel(j, fcmp(j, LLVMRealOGE, a, kf(j, 2147483648.0f)), ku(j, 0x7fffffffu), r);
    return sel(j, isnan_(j, a), ku(j, 0), r);
}
static LLVMValueRef f2u(vm_jit_ctx *j, LLVMValueRef a)
{
    LLVMValueRef r = LLVMBuildFPToUI(j->b, a, j->vi, "");
    r = sel(j, fcmp(j, LLVMRealOGE, a, kf(j, 4294967296.0f)), ku(j, 0xffffffffu), r);
    return sel(j, fcmp(j, LLVMRealOGT, a, kf(j, -1.0f)), r, ku(j, 0));
}
static LLVMValueRef sat(vm_jit_ctx *j, LLVMValueRef x)
{
    /* vm_sat: x > 0 ? (x < 1 ? x : 1) : 0 (NaN -> 0) */
    LLVMValueRef in = sel(j, fcmp(j, LLVMRealOLT, x, kf(j, 1.0f)), x, kf(j, 1.0f));
    return sel(j, fcmp(j, LLVMRealOGT, x, kf(j, 0.0f)), in, kf(j, 0.0f));
}

/* ---- lane expressions (the handlers' in vm_ops_float.c and vm_ops_int.c) ------------- */

#define LANE(name) static LLVMValueRef lane_##name(vm_jit_ctx *j, const uint32_t *first,     \
                                                   LLVMValueRef a, LLVMValueRef b,           \
                                                   LLVMValueRef c)
#define UNUSED (void)j, (void)first, (void)a, (void)b, (void)c
LANE(add) { UNUSED; return fadd(j, a, b, first[0]); }
LANE(mul) { UNUSED; return fmul(j, a, b, first[0]); }
LANE(mul_legacy) { UNUSED; return lmul(j, a, b, first[0]); }
LANE(div) { UNUSED; return fdiv(j, a, b, first[0]); }
LANE(mad) { UNUSED; return fadd(j, fmul(j, a, b, first[0]), c, first[1]); }
LANE(mad_legacy) { UNUSED; return fadd(j, lmul(j, a, b, first[0]), c, first[1]); }
/* fmin_z / fmax_z (vm_ops_float.c): a NaN operand yields the other; equal operands (±0)
 * give the OR (min) or AND (max) of their bits */
static LLVMValueRef minmax(vm_jit_ctx *j, LLVMValueRef a, LLVMValueRef b, bool is_min)
{
    const LLVMRealPredicate before = is_min ? LLVMRealOLT : LLVMRealOGT;
    LLVMValueRef r = is_min ? LLVMBuildOr(j->b, asu(j, a), asu(j, b), "")
                            : LLVMBuildAnd(j->b, asu(j, a), asu(j, b), "");
    r = sel(j, fcmp(j, before, b, a), b, asf(j, r));
    r = sel(j, fcmp(j, before, a, b), a, r);
    r = sel(j, isnan_(j, b), a, r);
    return sel(j, isnan_(j, a), b, r);
}
LANE(min) { UNUSED; return minmax(j, a, b, true); }
LANE(max) { UNUSED; return minmax(j, a, b, false); }
#define SETCC(name, pred)                                                                  \
    LANE(name) { UNUSED; return sel(j, fcmp(j, pred, a, b), kf(j, 1.0f), kf(j, 0.0f)); }
SETCC(slt, LLVMRealOLT)
SETCC(sge, LLVMRealOGE)
SETCC(seq, LLVMRealOEQ)
SETCC(sgt, LLVMRealOGT)
SETCC(sle, LLVMRealOLE)
SETCC(sne, LLVMRealUNE)
#define FCMPM(name, pred) LANE(name) { UNUSED; return mask32(j, fcmp(j, pred, a, b)); }
FCMPM(fseq, LLVMRealOEQ)
FCMPM(fsge, LLVMRealOGE)
FCMPM(fslt, LLVMRealOLT)
FCMPM(fsne, LLVMRealUNE)
/* a - floor(a): for a NaN both operands are a's NaN quieted, so the order cannot show */
LANE(frc) { UNUSED; return LLVMBuildFSub(j->b, a, intrinsic1(j, "llvm.floor", a), ""); }
LANE(flr) { UNUSED; return intrinsic1(j, "llvm.floor", a); }
LANE(ceil) { UNUSED; return intrinsic1(j, "llvm.ceil", a); }
LANE(trunc) { UNUSED; return intrinsic1(j, "llvm.trunc", a); }
LANE(round) { UNUSED; return intrinsic1(j, "llvm.rint", a); }
LANE(ssg)
{
    UNUSED;
    LLVMValueRef r = sel(j, fcmp(j, LLVMRealOLT, a, kf(j, 0.0f)), kf(j, -1.0f), kf(j, 0.0f));
    return sel(j, fcmp(j, LLVMRealOGT, a, kf(j, 0.0f)), kf(j, 1.0f), r);
}
LANE(cmp) { UNUSED; return sel(j, fcmp(j, LLVMRealOLT, a, kf(j, 0.0f)), b, c); }
LANE(f2i) { UNUSED; return f2i(j, a); }
LANE(f2u) { UNUSED; return f2u(j, a); }
LANE(arl) { UNUSED; return f2i(j, intrinsic1(j, "llvm.floor", a)); }
LANE(arr) { UNUSED; return f2i(j, intrinsic1(j, "llvm.rint", a)); }
/* I2F / U2F of a broadcast (a uniform slot: a loop counter) as the scalar conversion
 * broadcast: LLVM 15 converted the broadcast lane by lane, and without AVX-512's unsigned
 * conversion U2F is five vector instructions a register (ten of the 148 instructions of
 * the loop workload's compiled loop under the AVX2 ceiling). Each lane's conversion is the
 * scalar's, so the same bits. */
static LLVMValueRef int_to_float(vm_jit_ctx *j, LLVMValueRef a, bool is_signed)
{
    LLVMValueRef (*conv)(LLVMBuilderRef, LLVMValueRef, LLVMTypeRef, const char *) =
        is_signed ? LLVMBuildSIToFP : LLVMBuildUIToFP;
    LLVMValueRef s = vm_jit_broadcast_of(a);
    if (!s)
        return conv(j->b, a, j->vf, "");
    j->uniform_converts++;
    LLVMValueRef f = LLVMBuildBitCast(j->b, conv(j->b, s, j->f32, ""), j->i32, "");
    return LLVMBuildBitCast(j->b, vm_jit_broadcast(j, f), j->vf, "");
}
LANE(i2f) { UNUSED; return int_to_float(j, a, true); }
LANE(u2f) { UNUSED; return int_to_float(j, a, false); }
LANE(mov) { UNUSED; return a; }
/* vm_fastmath.h vm_sincos_lane, operation for operation */
static LLVMValueRef sincos(vm_jit_ctx *j, LLVMValueRef x, bool cosine)
{
    LLVMBuilderRef B = j->b;
    const float magic = 12582912.0f;
    LLVMValueRef ax = asf(j, LLVMBuildAnd(B, asu(j, x), ku(j, 0x7fffffffu), ""));
    LLVMValueRef in = mask32(j, fcmp(j, LLVMRealOLE, ax, kf(j, 8192.0f)));
    LLVMValueRef xc = asf(j, LLVMBuildAnd(B, asu(j, x), in, ""));
    LLVMValueRef half = kf(j, cosine ? 0.5f : 0.0f);
    LLVMValueRef q = LLVMBuildFMul(B, xc, kf(j, 0.318309873f), "");
    q = LLVMBuildFSub(B, q, half, "");
    q = LLVMBuildFAdd(B, q, kf(j, magic), "");
    q = LLVMBuildFSub(B, q, kf(j, magic), "");
    LLVMValueRef jj = LLVMBuildFAdd(B, q, half, "");
    LLVMValueRef odd = LLVMBuildAdd(B, LLVMBuildFPToSI(B, q, j->vi, ""), ku(j, cosine), "");
    LLVMValueRef r = LLVMBuildFSub(B, xc, LLVMBuildFMul(B, jj, kf(j, 3.140625f), ""), "");
    r = LLVMBuildFSub(B, r, LLVMBuildFMul(B, jj, kf(j, 9.675025939941406e-4f), ""), "");
    r = LLVMBuildFSub(B, r, LLVMBuildFMul(B, jj, kf(j, 1.509958025e-7f), ""), "");
    LLVMValueRef s = LLVMBuildFMul(B, r, r, "");
    LLVMValueRef u = kf(j, 2.6083159809786593541503e-06f);
    u = LLVMBuildFAdd(B, LLVMBuildFMul(B, u, s, ""), kf(j, -1.981069071916863322258e-4f), "");
    u = LLVMBuildFAdd(B, LLVMBuildFMul(B, u, s, ""), kf(j, 8.33307858556509017944336e-3f), "");
    u = LLVMBuildFAdd(B, LLVMBuildFMul(B, u, s, ""), kf(j, -1.66666597127914428710938e-1f), "");
    LLVMValueRef v = LLVMBuildFAdd(B, LLVMBuildFMul(B, s, LLVMBuildFMul(B, u, r, ""), ""), r, "");
    LLVMValueRef bits = LLVMBuildOr(B, LLVMBuildAnd(B, asu(j, v), ku(j, 0x7fffffffu), ""),
                                    LLVMBuildAnd(B, asu(j, r), ku(j, 0x80000000u), ""), "");
    return LLVMBuildXor(B, bits, LLVMBuildShl(B, odd, ku(j, 31), ""), "");
}
LANE(sin) { UNUSED; return sincos(j, a, false); }
LANE(cos) { UNUSED; return sincos(j, a, true); }
LANE(rcp) { UNUSED; return fdiv(j, kf(j, 1.0f), a, 0); }
LANE(sqrt) { UNUSED; return intrinsic1(j, "llvm.sqrt", a); }
LANE(rsq) { UNUSED; return fdiv(j, kf(j, 1.0f), intrinsic1(j, "llvm.sqrt", a), 0); }
/* The sign bit for the negating modifiers, read from memory where the code runs: LLVM
 * turns `xor x, 0x80000000` of a float into fneg, then `fadd a, (fneg b)` into `fsub a, b`,
 * which is the same number but not the same NaN (subps returns b's NaN unnegated) — a
 * translation-validation difference fuzz_tv found (tests/tv/test_tv_regress.c). Loaded,
 * the mask is an unknown integer to LLVM and the negation stays a bit operation. */
static const uint32_t sign_bit_in_memory = 0x80000000u;
static LLVMValueRef opaque_sign(vm_jit_ctx *j)
{
    LLVMValueRef addr = LLVMConstIntToPtr(
        LLVMConstInt(j->i64, (uint64_t)(uintptr_t)&sign_bit_in_memory, 0), j->ptr);
    return vm_jit_broadcast(j, LLVMBuildLoad2(j->b, j->i32, addr, "signbit"));
}
LANE(fneg) { UNUSED; return LLVMBuildXor(j->b, a, opaque_sign(j), ""); }
LANE(fabs) { UNUSED; return LLVMBuildAnd(j->b, a, ku(j, 0x7fffffffu), ""); }
LANE(fnegabs) { UNUSED; return LLVMBuildOr(j->b, a, opaque_sign(j), ""); }
/* integers */
#define IBIN(name, build) LANE(name) { UNUSED; return build(j->b, a, b, ""); }
IBIN(uadd, LLVMBuildAdd)
IBIN(umul, LLVMBuildMul)
IBIN(and, LLVMBuildAnd)
IBIN(or, LLVMBuildOr)
IBIN(xor, LLVMBuildXor)
LANE(umad) { UNUSED; return LLVMBuildAdd(j->b, LLVMBuildMul(j->b, a, b, ""), c, ""); }
#define ISEL(name, pred) LANE(name) { UNUSED; return sel(j, icmp(j, pred, a, b), a, b); }
ISEL(imax, LLVMIntSGT)
ISEL(imin, LLVMIntSLT)
ISEL(umax, LLVMIntUGT)
ISEL(umin, LLVMIntULT)
#define ICMPM(name, pred) LANE(name) { UNUSED; return mask32(j, icmp(j, pred, a, b)); }
ICMPM(isge, LLVMIntSGE)
ICMPM(islt, LLVMIntSLT)
ICMPM(useq, LLVMIntEQ)
ICMPM(usge, LLVMIntUGE)
ICMPM(uslt, LLVMIntULT)
ICMPM(usne, LLVMIntNE)
LANE(ineg) { UNUSED; return LLVMBuildSub(j->b, ku(j, 0), a, ""); }
LANE(iabs)
{
    UNUSED;
    return sel(j, icmp(j, LLVMIntSLT, a, ku(j, 0)), LLVMBuildSub(j->b, ku(j, 0), a, ""), a);
}
LANE(inegabs)
{
    UNUSED;
    return sel(j, icmp(j, LLVMIntSLT, a, ku(j, 0)), a, LLVMBuildSub(j->b, ku(j, 0), a, ""));
}
LANE(issg)
{
    UNUSED;
    LLVMValueRef r = sel(j, icmp(j, LLVMIntNE, a, ku(j, 0)), ku(j, 1), ku(j, 0));
    return sel(j, icmp(j, LLVMIntSLT, a, ku(j, 0)), ku(j, 0xffffffffu), r);
}
LANE(not) { UNUSED; return LLVMBuildNot(j->b, a, ""); }
#define ISHIFT(name, build)                                                                \
    LANE(name) { UNUSED; return build(j->b, a, LLVMBuildAnd(j->b, b, ku(j, 31), ""), ""); }
ISHIFT(shl, LLVMBuildShl)
ISHIFT(ishr, LLVMBuildAShr)
ISHIFT(ushr, LLVMBuildLShr)
LANE(ucmp) { UNUSED; return sel(j, icmp(j, LLVMIntNE, a, ku(j, 0)), b, c); }
static LLVMValueRef mul_hi(vm_jit_ctx *j, LLVMValueRef a, LLVMValueRef b, bool sign)
{
    LLVMValueRef (*ext)(LLVMBuilderRef, LLVMValueRef, LLVMTypeRef, const char *) =
        sign ? LLVMBuildSExt : LLVMBuildZExt;
    LLVMValueRef p = LLVMBuildMul(j->b, ext(j->b, a, j->v32i64, ""), ext(j->b, b, j->v32i64, ""),
                                  "");
    p = LLVMBuildLShr(j->b, p, splat(LLVMConstInt(j->i64, 32, 0)), "");
    return LLVMBuildTrunc(j->b, p, j->vi, "");
}
LANE(umul_hi) { UNUSED; return mul_hi(j, a, b, false); }
LANE(imul_hi) { UNUSED; return mul_hi(j, a, b, true); }

/* ---- the table --------------------------------------------------------------------------- */

#define G(fn, n, fi, fo, lane) {VM_OP_##fn##_n, F_GROUP, n, fi, fo, lane_##lane, 0, {{0}}}
#define GP(fn, n, lane, np, p0, p1) {VM_OP_##fn##_n, F_GROUP, n, true, true, lane_##lane, np, {p0, p1, NO_PROBE}}
/* probes: (a, b, c, d, node, operand whose NaN means first = 0, the other) */
#define PAB(node) {P_N1, P_N2, P_ONE, P_ONE, node, P_N1, P_N2}
#define PPC(node) {P_N1, P_ONE, P_N3, P_ONE, node, P_N1, P_N3}
#define NO_PROBE {0, 0, 0, 0, 0, 0, 0}

static const jit_op ops[] = {
    GP(add, 2, add, 1, PAB(0), NO_PROBE),
    GP(mul, 2, mul, 1, PAB(0), NO_PROBE),
    GP(mul_legacy, 2, mul_legacy, 1, PAB(0), NO_PROBE),
    GP(div, 2, div, 1, PAB(0), NO_PROBE),
    GP(mad, 3, mad, 2, PAB(0), PPC(1)),
    GP(mad_legacy, 3, mad_legacy, 2, PAB(0), PPC(1)),
    G(min, 2, true, true, min), G(max, 2, true, true, max),
    G(slt, 2, true, true, slt), G(sge, 2, true, true, sge), G(seq, 2, true, true, seq),
    G(sgt, 2, true, true, sgt), G(sle, 2, true, true, sle), G(sne, 2, true, true, sne),
    G(fseq, 2, true, false, fseq), G(fsge, 2, true, false, fsge),
    G(fslt, 2, true, false, fslt), G(fsne, 2, true, false, fsne),
    G(frc, 1, true, true, frc), G(flr, 1, true, true, flr), G(ceil, 1, true, true, ceil),
    G(trunc, 1, true, true, trunc), G(round, 1, true, true, round),
    G(ssg, 1, true, true, ssg), G(cmp, 3, true, true, cmp),
    G(f2i, 1, true, false, f2i), G(f2u, 1, true, false, f2u),
    G(arl, 1, true, false, arl), G(arr, 1, true, false, arr),
    G(i2f, 1, false, true, i2f), G(u2f, 1, false, true, u2f),
    G(mov, 1, false, true, mov),
    G(uadd, 2, false, false, uadd), G(umul, 2, false, false, umul),
    G(umad, 3, false, false, umad),
    G(imax, 2, false, false, imax), G(imin, 2, false, false, imin),
    G(umax, 2, false, false, umax), G(umin, 2, false, false, umin),
    G(ineg, 1, false, false, ineg), G(iabs, 1, false, false, iabs),
    G(issg, 1, false, false, issg), G(not, 1, false, false, not),
    G(and, 2, false, false, and), G(or, 2, false, false, or), G(xor, 2, false, false, xor),
    G(shl, 2, false, false, shl), G(ishr, 2, false, false, ishr),
    G(ushr, 2, false, false, ushr),
    G(isge, 2, false, false, isge), G(islt, 2, false, false, islt),
    G(useq, 2, false, false, useq), G(usge, 2, false, false, usge),
    G(uslt, 2, false, false, uslt), G(usne, 2, false, false, usne),
    G(umul_hi, 2, false, false, umul_hi), G(imul_hi, 2, false, false, imul_hi),
    G(ucmp, 3, false, false, ucmp), G(uarl, 1, false, false, mov),
    {VM_OP_mov, F_MOV1, 1, false, true, lane_mov, 0, {{0}}},
    {VM_OP_sin_n, F_TRIG, 1, true, true, lane_sin, 0, {{0}}},
    {VM_OP_cos_n, F_TRIG, 1, true, true, lane_cos, 0, {{0}}},
    {VM_OP_rcp, F_SCALAR, 1, true, true, lane_rcp, 0, {{0}}},
    {VM_OP_sqrt, F_SCALAR, 1, true, true, lane_sqrt, 0, {{0}}},
    {VM_OP_rsq, F_SCALAR, 1, true, true, lane_rsq, 0, {{0}}},
    {VM_OP_mod_fneg, F_MOD, 1, false, false, lane_fneg, 0, {{0}}},
    {VM_OP_mod_fabs, F_MOD, 1, false, false, lane_fabs, 0, {{0}}},
    {VM_OP_mod_fnegabs, F_MOD, 1, false, false, lane_fnegabs, 0, {{0}}},
    {VM_OP_mod_ineg, F_MOD, 1, false, false, lane_ineg, 0, {{0}}},
    {VM_OP_mod_iabs, F_MOD, 1, false, false, lane_iabs, 0, {{0}}},
    {VM_OP_mod_inegabs, F_MOD, 1, false, false, lane_inegabs, 0, {{0}}},
    /* dot products: t = a0*b0, then t = t + ak*bk: node 0 the first product, node 1 the
       sums, node 2 the later products (another loop of the handler) */
    {VM_OP_dot, F_DOT, 2, true, true, lane_mul, 3,
     {PAB(0), PPC(1), {P_ONE, P_ONE, P_N1, P_N2, 2, P_N1, P_N2}}},
    {VM_OP_dot_legacy, F_DOT, 2, true, true, lane_mul_legacy, 3,
     {PAB(0), PPC(1), {P_ONE, P_ONE, P_N1, P_N2, 2, P_N1, P_N2}}},
};
#define NOPS (sizeof ops / sizeof ops[0])

static uint32_t cal_first[NOPS][3];
static bool cal_usable[NOPS];

/* ---- calibration ------------------------------------------------------------------------- */

static uint32_t probe_word(uint8_t k)
{
    switch (k) {
    case P_ONE: return 0x3f800000u;
    case P_N1: return 0x7fc00011u;
    case P_N2: return 0x7fc00022u;
    case P_N3: return 0xffc00033u;
    default: return 0;
    }
}

/* Run row `op`'s handler on one probe: a, b, c in every lane. Dot products read two
 * components: the probe's a, b as component 0 and c with 1.0 as component 1. */
static bool run_probe(const jit_op *op, const probe *pr, uint32_t *first)
{
    vm_slot *r = aligned_alloc(64, 16 * sizeof(vm_slot));
    vm_warp *w = aligned_alloc(_Alignof(vm_warp), sizeof *w);   /* (64-byte aligned) */
    bool ok = false;
    if (!r || !w)
        goto out;
    memset(w, 0, sizeof *w);
    memset(r, 0, 16 * sizeof(vm_slot));
    uint32_t words[4] = {probe_word(pr->a), probe_word(pr->b), probe_word(pr->c),
                         probe_word(pr->d)};
    for (unsigned k = 0; k < 4; k++)
        for (unsigned l = 0; l < VM_LANES; l++)
            r[k].u[l] = words[k];
    w->r = r;
    w->cond = w->loop = w->cont = w->sw = w->func = w->present = VM_ALL_LANES;
    w->live = VM_ALL_LANES;
    vm_update_exec(w);
    vm_uop u;
    memset(&u, 0, sizeof u);
    u.fn = vm_op_fns[op->op];
    u.op = op->op;
    u.kind = VM_K_ALU;
    u.aux2 = 1;
    u.dst[0] = 8;
    if (op->form == F_DOT) {
        /* t = a*b (component 0), then t + c*d (component 1) */
        u.aux = pr->node == 0 ? 1 : 2;
        u.src[0] = 0; u.src[4] = 1;
        u.src[1] = 2; u.src[5] = 3;
    } else {
        u.src[0] = 0; u.src[4] = 1; u.src[8] = 2;
    }
    u.fn(w, &u);
    uint32_t x = probe_word(pr->x) | 0x00400000u, y = probe_word(pr->y) | 0x00400000u;
    uint32_t mask = 0;
    for (unsigned l = 0; l < VM_LANES; l++) {
        if (r[8].u[l] == y && x != y)
            mask |= 1u << l;
        else if (r[8].u[l] != x)
            goto out;   /* neither operand's NaN: not compiled inline */
    }
    if (getenv("TEXVM_JIT_CALIBRATION"))
        fprintf(stderr, "texvm jit: calibration: op %u node %u: lanes taking y 0x%08x\n",
                (unsigned)op->op, pr->node, mask);
    first[pr->node] = mask;
    ok = true;
out:
    free(r);
    free(w);
    return ok;
}

void vm_jit_calibrate(void)
{
    for (size_t i = 0; i < NOPS; i++) {
        cal_usable[i] = true;
        for (unsigned k = 0; k < ops[i].nprobes; k++)
            if (!run_probe(&ops[i], &ops[i].probes[k], cal_first[i]))
                cal_usable[i] = false;
    }
}

/* ---- emission ---------------------------------------------------------------------------- */

/* The row of a micro-op's handler, or NOPS. */
static size_t find(unsigned op)
{
    size_t i = 0;
    while (i < NOPS && ops[i].op != op)
        i++;
    return i;
}

/* Whether channel ch of micro-op u stores every lane: the whole group may
 * (VM_UF_NOMASK) or no lane inactive there reads that destination again (dead_lanes). */
static bool channel_unmasked(const vm_uop *u, unsigned ch)
{
    return (u->flags & VM_UF_NOMASK) || ((u->dead_lanes >> ch) & 1u);
}

/* A channel group's results to dst[0..aux2-1], under the execution mask unless NOMASK or
 * the channel's inactive lanes are dead (dead_lanes). */
static void store_channels(vm_jit_ctx *j, const vm_uop *u, LLVMValueRef out[4])
{
    for (unsigned ch = 0; ch < u->aux2; ch++)
        vm_jit_store(j, u->dst[ch], out[ch], channel_unmasked(u, ch));
}

static LLVMValueRef src(vm_jit_ctx *j, const jit_op *op, uint32_t slot)
{
    LLVMValueRef v = vm_jit_load(j, slot);
    v = op->float_in ? vm_jit_opaque_float(j, slot, asf(j, v)) : v;
    if (slot < j->p->num_slots && (j->not_nan[slot] || (j->nn_track && j->nn_slot[slot])) &&
        j->nnn < VM_MAX_USRC)
        j->nn[j->nnn++] = v;
    return v;
}

static LLVMValueRef result(vm_jit_ctx *j, const jit_op *op, const vm_uop *u, LLVMValueRef v)
{
    /* a float result computed from integer sources (MOV, I2F, U2F) may be a constant to
       LLVM: saturated through the fence (vm_jit_opaque_float) */
    if (op->float_out && (u->flags & VM_UF_SAT))
        v = sat(j, op->float_in ? asf(j, v) : fence(j, asf(j, v)));
    return asu(j, v);
}

/* Sources per channel when channel ch of micro-op u is compiled inline as a channel
 * group's store of every lane with a result that is the same in every lane whose operands
 * are: no calibrated NaN choice (that one differs by lane) and no handler call; else 0.
 * Such a store keeps a slot uniform (vm_jit_build.c find_uniform). */
unsigned vm_jit_uniform_writer(const vm_uop *u, unsigned ch)
{
    const size_t idx = u->fn ? find(u->op) : NOPS;
    if (idx == NOPS || !cal_usable[idx] || (u->flags & VM_UF_FAULT) || u->aux2 < 1 ||
        u->aux2 > 4 || ch >= u->aux2 || !channel_unmasked(u, ch))
        return 0;
    const jit_op *op = &ops[idx];
    return op->form == F_GROUP && op->nprobes == 0 ? op->nsrc : 0u;
}

bool vm_jit_emit_alu(vm_jit_ctx *j, const vm_uop *u)
{
    const size_t idx = u->fn ? find(u->op) : NOPS;
    if (idx == NOPS || !cal_usable[idx])
        return false;
    const jit_op *op = &ops[idx];
    const uint32_t *first = cal_first[idx];
    j->nnn = 0;
    /* inline code keeps the execution mask: what this micro-op stores is known in every
       lane active after it (vm_jit_store). Its operands from never-NaN slots count as
       such where its results are stored under the mask: every form but F_MOD unless the
       micro-op says NOMASK. (F_TRIG may call the handler: its join forgets, below.) */
    j->nn_alu = true;
    j->nn_track = op->form != F_MOD && !(u->flags & VM_UF_NOMASK) && !u->dead_lanes;
    switch (op->form) {
    case F_GROUP: {
        if (u->aux2 < 1 || u->aux2 > 4)
            return false;
        LLVMValueRef out[4];
        for (unsigned ch = 0; ch < u->aux2; ch++) {
            LLVMValueRef a = src(j, op, u->src[ch]);
            LLVMValueRef b = op->nsrc > 1 ? src(j, op, u->src[4 + ch]) : NULL;
            LLVMValueRef c = op->nsrc > 2 ? src(j, op, u->src[8 + ch]) : NULL;
            out[ch] = result(j, op, u, op->lane(j, first, a, b, c));
        }
        store_channels(j, u, out);
        return true;
    }
    case F_TRIG: {
        /* lanes beyond the polynomial's range (|x| > 8192, Inf, NaN) take libm's value in
           the handler: then the handler runs the whole micro-op */
        if (u->aux2 < 1 || u->aux2 > 4)
            return false;
        LLVMValueRef a[4], far = ci32(j, 0);
        for (unsigned ch = 0; ch < u->aux2; ch++) {
            a[ch] = src(j, op, u->src[ch]);
            LLVMValueRef ax = asf(j, LLVMBuildAnd(j->b, asu(j, a[ch]), ku(j, 0x7fffffffu), ""));
            LLVMValueRef out = fcmp(j, LLVMRealUGT, ax, kf(j, 8192.0f));
            far = LLVMBuildOr(j->b, far, LLVMBuildBitCast(j->b, out, j->i32, ""), "");
        }
        LLVMBasicBlockRef fast = block(j, "trig"), slow = block(j, "trig_libm"),
                          done = block(j, "trig_done");
        br_zero(j, far, fast, slow);
        LLVMPositionBuilderAtEnd(j->b, fast);
        LLVMValueRef out[4];
        for (unsigned ch = 0; ch < u->aux2; ch++)
            out[ch] = result(j, op, u, op->lane(j, first, a[ch], NULL, NULL));
        store_channels(j, u, out);
        LLVMBuildBr(j->b, done);
        LLVMPositionBuilderAtEnd(j->b, slow);
        vm_jit_call_handler(j, u, j->pc);
        LLVMBuildBr(j->b, done);
        LLVMPositionBuilderAtEnd(j->b, done);
        /* the fast path left its stores unsynced, the slow one synced everything: after
           the join every slot may differ from the register file */
        memset(j->dirty, 1, j->p->num_slots);
        vm_jit_nn_forget(j);
        return true;
    }
    case F_MOV1: case F_SCALAR: {
        LLVMValueRef a = src(j, op, u->src[0]);
        vm_jit_store(j, u->dst[0], result(j, op, u, op->lane(j, first, a, NULL, NULL)), false);
        return true;
    }
    case F_MOD: {
        LLVMValueRef a = src(j, op, u->src[0]);
        vm_jit_store(j, u->dst[0], op->lane(j, first, a, NULL, NULL), true);
        return true;
    }
    case F_DOT: {
        if (u->aux < 1 || u->aux > 4)
            return false;
        LLVMValueRef t = NULL;
        for (unsigned k = 0; k < u->aux; k++) {
            LLVMValueRef p = op->lane(j, k == 0 ? first : first + 2, src(j, op, u->src[k]),
                                      src(j, op, u->src[4 + k]), NULL);
            t = k == 0 ? p : fadd(j, t, p, first[1]);
        }
        vm_jit_store(j, u->dst[0], result(j, op, u, t), false);
        return true;
    }
    default:
        return false;
    }
}
#endif
