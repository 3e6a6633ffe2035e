/* Memory micro-ops (vm_ops_mem.c): what tests may switch. */
#ifndef TEXVM_VM_MEM_H
#define TEXVM_VM_MEM_H

#include <stdbool.h>

#include "texvm/vm.h"

/* true (the default): LOAD/STORE/atomics on an untyped resource the same for every lane
 * take the warp path when every lane is in range; false: every access of VM's runs goes
 * lane by lane (the general path the warp path must match bit for bit). Tests only; set
 * between runs. */
void vm_mem_set_warp_path(tv_vm *vm, bool on);

#endif
