/* Operand plumbing handlers: float source modifiers (as sign-bit operations), per-lane
 * indirect gathers and scatters with bounds checks, and the fault recorder. */
#include <stdarg.h>
#include <stdio.h>

#include "vm/vm_ops.h"
#include "vm/vm_run.h"

void vm_fault(vm_warp *w, tv_status code, uint32_t lane, const char *fmt, ...)
{
    if (w->fault)
        return;
    w->fault = true;
    w->fault_code = code;
    w->fault_lane = lane;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(w->fault_msg, sizeof w->fault_msg, fmt, ap);
    va_end(ap);
}

void vm_h_mod_fneg(vm_warp *w, const vm_uop *u)
{
    const vm_slot *A = VM_SRC(0);
    vm_slot *d = &w->r[u->dst[0]];
    VM_FOR_LANES d->u[l] = A->u[l] ^ 0x80000000u;
}
void vm_h_mod_fabs(vm_warp *w, const vm_uop *u)
{
    const vm_slot *A = VM_SRC(0);
    vm_slot *d = &w->r[u->dst[0]];
    VM_FOR_LANES d->u[l] = A->u[l] & 0x7fffffffu;
}
void vm_h_mod_fnegabs(vm_warp *w, const vm_uop *u)
{
    const vm_slot *A = VM_SRC(0);
    vm_slot *d = &w->r[u->dst[0]];
    VM_FOR_LANES d->u[l] = A->u[l] | 0x80000000u;
}

/* 64-bit integer modifiers on a pair: src[0] lo, src[1] hi -> dst[0], dst[1];
 * aux bit 0 = abs, bit 1 = negate. */
void vm_h_mod_i64(vm_warp *w, const vm_uop *u)
{
    vm_slot lo, hi;
    VM_FOR_LANES {
        uint64_t v = vm_pair(w, u->src[0], u->src[1], l);
        if ((u->aux & 1u) && (v >> 63))
            v = 0u - v;
        if (u->aux & 2u)
            v = 0u - v;
        lo.u[l] = (uint32_t)v;
        hi.u[l] = (uint32_t)(v >> 32);
    }
    w->r[u->dst[0]] = lo;
    w->r[u->dst[1]] = hi;
}

/* Indirect register read. src[0] = index slot (per-lane int), aux = slot of channel `comp`
 * of register `first` of the range, aux2 = number of registers, aux3 = (signed) constant
 * offset from `first`, target = slots per register step. src[1] = optional second-level
 * (vertex) index slot with stride in skip (0 = none). */
void vm_h_gather(vm_warp *w, const vm_uop *u)
{
    const vm_slot *I = VM_SRC(0);
    vm_slot *d = &w->r[u->dst[0]];
    int32_t off = (int32_t)u->aux3;
    VM_FOR_LANES {
        int64_t idx = (int64_t)off + I->i[l];
        bool on = (w->exec >> l) & 1u;
        if (idx < 0 || idx >= (int64_t)u->aux2) {
            if (on && !w->robust) {
                vm_fault(w, TV_ERR_RUNTIME, l,
                         "indirect register index %lld out of the declared range [0, %u)",
                         (long long)idx, u->aux2);
            }
            d->u[l] = 0;
            continue;
        }
        d->u[l] = w->r[u->aux + (uint32_t)idx * u->target].u[l];
    }
}

/* The flattened index of a per-vertex register read or written with a per-lane vertex
 * index: src[0] = vertex index slot, src[1] = register index slot or UINT32_MAX, aux =
 * registers per vertex, aux2 = vertices | signed 16-bit vertex offset << 16, aux3 =
 * (signed) register offset in the array, target = registers in the array. Writes
 * vertex * per + register, or -1 when either is out of range (gather/scatter then fault or,
 * robust, read 0 / drop the write). */
void vm_h_vertex_index(vm_warp *w, const vm_uop *u)
{
    const vm_slot *V = VM_SRC(0);
    vm_slot *d = &w->r[u->dst[0]];
    int64_t voff = (int16_t)(uint16_t)(u->aux2 >> 16);
    int64_t nverts = u->aux2 & 0xffffu;
    VM_FOR_LANES {
        int64_t v = voff + V->i[l];
        int64_t r = (int64_t)(int32_t)u->aux3;
        if (u->src[1] != UINT32_MAX)
            r += w->r[u->src[1]].i[l];
        bool ok = v >= 0 && v < nverts && r >= 0 && r < (int64_t)u->target;
        d->i[l] = ok ? (int32_t)(v * u->aux + r) : -1;
    }
}

/* Indirect write. src[0] = value, src[1] = index slot; aux/aux2/aux3/target as gather. */
void vm_h_scatter(vm_warp *w, const vm_uop *u)
{
    const vm_slot *V = VM_SRC(0), *I = VM_SRC(1);
    int32_t off = (int32_t)u->aux3;
    VM_FOR_LANES {
        if (!((w->exec >> l) & 1u))
            continue;
        int64_t idx = (int64_t)off + I->i[l];
        if (idx < 0 || idx >= (int64_t)u->aux2) {
            if (w->robust)
                continue;       /* the write is dropped */
            vm_fault(w, TV_ERR_RUNTIME, l,
                     "indirect destination index %lld out of the declared range [0, %u)",
                     (long long)idx, u->aux2);
            return;
        }
        w->r[u->aux + (uint32_t)idx * u->target].u[l] = V->u[l];
    }
}

/* Constant read with a per-lane index and/or buffer: CONST[dim][index].comp.
 * src[0] = index slot or UINT32_MAX, src[1] = dim slot or UINT32_MAX, aux = dim,
 * aux2 = index, aux3 = component. Out of range reads 0 (robust;
 * docs/vm-semantics.md §2). */
void vm_h_gather_const(vm_warp *w, const vm_uop *u)
{
    const tv_vm_bindings *b = w->run->b;
    vm_slot *d = &w->r[u->dst[0]];
    VM_FOR_LANES {
        int64_t idx = (int64_t)(int32_t)u->aux2;
        int64_t dim = (int64_t)u->aux;
        if (u->src[0] != UINT32_MAX) idx += w->r[u->src[0]].i[l];
        if (u->src[1] != UINT32_MAX) dim += w->r[u->src[1]].i[l];
        uint32_t v = 0;
        if (dim >= 0 && dim < TV_VM_MAX_CONSTBUFS && idx >= 0) {
            const tv_vm_buffer *cb = &b->constbufs[dim];
            uint64_t byte = (uint64_t)idx * 16u + u->aux3 * 4u;
            if (cb->data && byte + 4 <= cb->size)
                memcpy(&v, (const uint8_t *)cb->data + byte, 4);
        }
        d->u[l] = v;
    }
}
