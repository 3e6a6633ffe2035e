/* Lowering context: TGSI program -> micro-ops. Used by vm_lower*.c and by the special
 * lowering functions of the op families (memory, fragment, warp ops). */
#ifndef TEXVM_VM_LOWER_H
#define TEXVM_VM_LOWER_H

#include "vm/vm_internal.h"

#define VM_SCRATCH_SLOTS 48

typedef struct vm_lower {
    tv_vm_program *p;
    const tv_tgsi_program *src;
    vm_uop *uops;
    uint32_t num_uops, cap_uops;
    uint32_t insn;                 /* instruction being lowered */
    const tv_tgsi_instruction *in;
    uint32_t scratch_used;         /* scratch slots used by this instruction */
    uint32_t scratch_max;
    /* constant references (direct) */
    vm_constref *crefs;
    uint32_t num_crefs, cap_crefs;
    uint32_t cref_base;
    /* arrays: ARRAY(n) ranges of TEMP/IN/OUT */
    struct { uint8_t file; uint32_t id; int32_t first, last; } arrays[64];
    uint32_t num_arrays;
    /* control flow: per instruction, matching indices */
    uint32_t *match;               /* IF->ELSE/ENDIF, ELSE->ENDIF, BGNLOOP->ENDLOOP, ... */
    uint32_t *skip;                /* boundary instruction for an empty mask */
    uint32_t *owner;               /* BRK/CONT: loop or switch instruction; CASE: switch */
    uint32_t switch_sel_base;
    uint32_t *switch_slot;         /* SWITCH instruction -> selector slot */
    tv_error *err;
    tv_status status;
} vm_lower;

typedef tv_status (*vm_lower_fn)(vm_lower *L);

typedef struct vm_optab_row {
    uint8_t lclass, kind;
    const char *types;       /* per source read: 'f','i','u','d','l','n' modifier types */
    uint16_t op, op_legacy;  /* vm_op (vm_handlers.h); op_legacy 0 when none */
    vm_lower_fn lower;
    uint32_t aux;
    bool reads_quad;         /* the result reads the lane's quad neighbours (DDX, DDY) */
} vm_optab_row;

const vm_optab_row *vm_optab_get(unsigned opcode);
/* Operand counts of an opcode, from the TGSI opcode table (0 for an unknown opcode). */
unsigned vm_op_ndst(unsigned opcode);
unsigned vm_op_nsrc(unsigned opcode);

/* Emit one micro-op for the current instruction: op is a vm_op (vm_handlers.h), VM_OP_NONE
 * for control flow. Returns NULL on allocation failure. */
vm_uop *vm_lower_emit(vm_lower *L, unsigned op, uint16_t kind);
/* Emit an ALU micro-op whose handler is not in vm_handlers.h's lists (op VM_OP_OTHER). */
vm_uop *vm_lower_emit_other(vm_lower *L, vm_fn fn);
uint32_t vm_lower_scratch(vm_lower *L);
/* Slot holding channel `chan` (destination channel; the swizzle is applied) of source
 * `s`, with modifiers applied according to `type` ('f','i','u','d','l','n'). */
uint32_t vm_lower_src(vm_lower *L, const tv_tgsi_src *s, unsigned chan, char type);
/* Slot of component `comp` (no swizzle) of a register, raw. */
uint32_t vm_lower_reg(vm_lower *L, const tv_tgsi_reg *r, unsigned comp);
/* Slot holding the per-lane value of an indirect index operand (its register's component). */
uint32_t vm_lower_ind_slot(vm_lower *L, const tv_tgsi_indirect *ind);
bool vm_lower_per_vertex(const vm_lower *L, unsigned file, uint32_t *per, uint32_t *nverts);
bool vm_lower_dst_indirect(const vm_lower *L, const tv_tgsi_dst *d);
/* Write 4 computed slots to the destination under its writemask & `mask` (masked moves;
 * handles indirect destinations and saturate when `sat`). */
void vm_lower_commit(vm_lower *L, const tv_tgsi_dst *d, const uint32_t tmp[4], unsigned mask,
                     bool sat);
/* The direct slot of dst channel c, or UINT32_MAX when the destination is indirect. */
uint32_t vm_lower_dst_slot(vm_lower *L, const tv_tgsi_dst *d, unsigned c);
tv_status vm_lower_fail(vm_lower *L, tv_status code, const char *fmt, ...) TV_PRINTF(3, 4);

/* Special lowerers (by family file). */
tv_status vm_lower_mem(vm_lower *L);       /* LOAD/STORE/ATOM*/
tv_status vm_lower_resq(vm_lower *L);
tv_status vm_lower_hnd(vm_lower *L);       /* IMG2HND / SAMP2HND */
tv_status vm_lower_frag(vm_lower *L);      /* READ_HELPER, INTERP_*, FBFETCH */
tv_status vm_lower_warpop(vm_lower *L);    /* VOTE_*, BALLOT, READ_FIRST, READ_INVOC, CLOCK */
tv_status vm_lower_tex(vm_lower *L);       /* texture opcodes (vm_lower_tex.c) */
/* Copy propagation and dead-MOV removal after fixup (vm_lower_copy.c); leader[k] marks
 * the micro-ops entered other than from the one before. */
tv_status vm_lower_copies(vm_lower *L, const uint8_t *leader);
/* leader[k] for every micro-op (n + 1 bytes, malloc'd): entered other than from k - 1 —
 * micro-op 0, jump and skip targets, after control flow or a CLOCK (vm_lower.c). */
uint8_t *vm_lower_leaders(vm_lower *L);
/* Whether source modifier k's result feeds a micro-op that reads other lanes (a
 * derivative, a texture's implicit derivatives, ...): its inactive lanes are looked at
 * (vm_lower_copy.c). */
bool vm_lower_feeds_other_lanes(const vm_lower *L, uint32_t k);
/* Lane-wise micro-ops (channel groups, source modifiers) read src[] and write
 * dst[0..n-1], each lane from its own lane: n; 0 for any other (vm_lower_copy.c). */
unsigned vm_lower_lanewise_writes(const vm_uop *u);
/* Per micro-op (n + 1 bytes, malloc'd; NULL with L->status set when out of memory): for
 * a channel group, bit c set where dst[c] is a TEMP slot that no lane inactive there reads
 * again before writing it, so that channel may write every lane (vm_lower_lanes.c). */
uint8_t *vm_lower_dead_lane_writes(vm_lower *L);

#endif
