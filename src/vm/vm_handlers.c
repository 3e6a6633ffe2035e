/* The handler of each vm_op (vm_handlers.h): the one place the listed handlers' addresses
 * are taken for lowering, so the identity a pass compares is the op, not the address. */
#include "vm/vm_handlers.h"

const vm_fn vm_op_fns[VM_OP_COUNT] = {
#define VM_OP_FN(n) [VM_OP_##n] = vm_h_##n,
#define VM_OP_GROUP_FN(n) [VM_OP_##n##_n] = vm_h_##n##_n,
    VM_HANDLER_LIST(VM_OP_FN)
    VM_GROUP_HANDLER_LIST(VM_OP_GROUP_FN)
#undef VM_OP_FN
#undef VM_OP_GROUP_FN
};
