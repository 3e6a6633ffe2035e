/* Per-lane instruction trace (the CLI's --trace). */
#ifndef TEXVM_VM_TRACE_H
#define TEXVM_VM_TRACE_H

#include "vm/vm_internal.h"

void vm_trace_before(vm_warp *w, uint32_t insn);
void vm_trace_after(vm_warp *w, uint32_t insn);
/* Value of component `comp` of register `r` as lane `lane` sees it (0 if not a value). */
uint32_t vm_lane_read(const vm_warp *w, const tv_tgsi_reg *r, unsigned comp, unsigned lane);

#endif
