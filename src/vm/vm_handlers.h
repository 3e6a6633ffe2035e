/* Every micro-op handler, declared once (the list is data for vm_optab.c). */
#ifndef TEXVM_VM_HANDLERS_H
#define TEXVM_VM_HANDLERS_H

#include "vm/vm_internal.h"

#define VM_HANDLER_LIST(X) \
    X(bfi) \
    X(d2f) \
    X(d2i) \
    X(d2i64) \
    X(d2u) \
    X(d2u64) \
    X(dabs) \
    X(dadd) \
    X(dceil) \
    X(ddiv) \
    X(ddx) \
    X(ddx_fine) \
    X(ddy) \
    X(ddy_fine) \
    X(dflr) \
    X(dfma) \
    X(dfrac) \
    X(dldexp) \
    X(dmad) \
    X(dmax) \
    X(dmin) \
    X(dmul) \
    X(dneg) \
    X(dot) \
    X(dot_legacy) \
    X(drcp) \
    X(dround) \
    X(drsq) \
    X(dseq) \
    X(dsge) \
    X(dslt) \
    X(dsne) \
    X(dsqrt) \
    X(dssg) \
    X(dst) \
    X(dst_legacy) \
    X(dtrunc) \
    X(ex2) \
    X(exp) \
    X(f2d) \
    X(f2i64) \
    X(f2u64) \
    X(gather) \
    X(gather_const) \
    X(i2d) \
    X(i2i64) \
    X(i642d) \
    X(i642f) \
    X(i64abs) \
    X(i64div) \
    X(i64max) \
    X(i64min) \
    X(i64mod) \
    X(i64neg) \
    X(i64sge) \
    X(i64shr) \
    X(i64slt) \
    X(i64ssg) \
    X(ldexp) \
    X(lg2) \
    X(lit) \
    X(log) \
    X(mod_fabs) \
    X(mod_fneg) \
    X(mod_fnegabs) \
    X(mod_i64) \
    X(mod_iabs) \
    X(mod_ineg) \
    X(mod_inegabs) \
    X(mov) \
    X(pk2h) \
    X(pk2us) \
    X(pk4b) \
    X(pk4ub) \
    X(pow) \
    X(rcp) \
    X(rsq) \
    X(scatter) \
    X(sqrt) \
    X(u2d) \
    X(u2i64) \
    X(u642d) \
    X(u642f) \
    X(u64add) \
    X(u64div) \
    X(u64max) \
    X(u64min) \
    X(u64mod) \
    X(u64mul) \
    X(u64seq) \
    X(u64sge) \
    X(u64shl) \
    X(u64shr) \
    X(u64slt) \
    X(u64sne) \
    X(up2h) \
    X(up2us) \
    X(up4b) \
    X(up4ub)

/* Channel-group handlers (VM_L_CHN: vm_h_NAME_n, vm_ops.h). */
#define VM_GROUP_HANDLER_LIST(X) \
    X(cos) \
    X(sin) \
    X(add) \
    X(and) \
    X(arl) \
    X(arr) \
    X(brev) \
    X(ceil) \
    X(cmp) \
    X(div) \
    X(f2i) \
    X(f2u) \
    X(flr) \
    X(fma) \
    X(fma_legacy) \
    X(frc) \
    X(fseq) \
    X(fsge) \
    X(fslt) \
    X(fsne) \
    X(i2f) \
    X(iabs) \
    X(ibfe) \
    X(idiv) \
    X(imax) \
    X(imin) \
    X(imsb) \
    X(imul_hi) \
    X(ineg) \
    X(isge) \
    X(ishr) \
    X(islt) \
    X(issg) \
    X(lrp) \
    X(lrp_legacy) \
    X(lsb) \
    X(mad) \
    X(mad_legacy) \
    X(max) \
    X(min) \
    X(mod) \
    X(mov) \
    X(mul) \
    X(mul_legacy) \
    X(not) \
    X(or) \
    X(popc) \
    X(round) \
    X(seq) \
    X(sge) \
    X(sgt) \
    X(shl) \
    X(sle) \
    X(slt) \
    X(sne) \
    X(ssg) \
    X(trunc) \
    X(u2f) \
    X(uadd) \
    X(uarl) \
    X(ubfe) \
    X(ucmp) \
    X(udiv) \
    X(umad) \
    X(umax) \
    X(umin) \
    X(umod) \
    X(umsb) \
    X(umul) \
    X(umul_hi) \
    X(useq) \
    X(usge) \
    X(ushr) \
    X(uslt) \
    X(usne) \
    X(xor)

#define VM_DECLARE_HANDLER(n) void vm_h_##n(vm_warp *w, const vm_uop *u);
VM_HANDLER_LIST(VM_DECLARE_HANDLER)
#undef VM_DECLARE_HANDLER
#define VM_DECLARE_GROUP_HANDLER(n) void vm_h_##n##_n(vm_warp *w, const vm_uop *u);
VM_GROUP_HANDLER_LIST(VM_DECLARE_GROUP_HANDLER)
#undef VM_DECLARE_GROUP_HANDLER

/* Handler identities. A pass recognises a micro-op by its `op` (vm_uop), never by
 * comparing handler addresses: the group handlers are target_clones functions (IFUNCs),
 * and a link with interprocedural optimisation gave vm_h_mov_n two addresses, one where
 * vm_lower.c took it and one where the opcode table did, so the copy pass missed MOVs
 * (docs/vm-execution.md §1, "Handler identity"). VM_OP_NONE: control flow (no handler);
 * VM_OP_OTHER: a handler not in these lists (texture, memory, fragment queries, the
 * vertex index), which no pass looks for (vm_lower_emit_other). */
#define VM_OP_ENUM(n) VM_OP_##n,
#define VM_OP_GROUP_ENUM(n) VM_OP_##n##_n,
typedef enum vm_op {
    VM_OP_NONE = 0,
    VM_OP_OTHER,
    VM_HANDLER_LIST(VM_OP_ENUM)
    VM_OP_GROUPS_BEGIN,      /* the channel-group handlers follow */
    VM_GROUP_HANDLER_LIST(VM_OP_GROUP_ENUM)
    VM_OP_COUNT
} vm_op;
#undef VM_OP_ENUM
#undef VM_OP_GROUP_ENUM

/* The handler of each listed op (NULL for NONE, OTHER and the marker). */
extern const vm_fn vm_op_fns[VM_OP_COUNT];

/* A channel-group micro-op (lane-wise, writes dst[0..aux2-1]). */
static inline bool vm_op_is_group(unsigned op)
{
    return op > VM_OP_GROUPS_BEGIN && op < VM_OP_COUNT;
}

/* A source modifier (lane-wise, writes its one scratch slot in every lane). */
static inline bool vm_op_is_mod(unsigned op)
{
    return op == VM_OP_mod_fneg || op == VM_OP_mod_fabs || op == VM_OP_mod_fnegabs ||
           op == VM_OP_mod_ineg || op == VM_OP_mod_iabs || op == VM_OP_mod_inegabs;
}

#endif
