/* Memory: LOAD/STORE/ATOM* on BUFFER, IMAGE, MEMORY (shared/global/private/input) and
 * HWATOMIC; RESQ; IMG2HND/SAMP2HND. Robust-access rule (docs/vm-semantics.md §2): a load
 * outside the resource returns 0, a store or atomic outside it is dropped (an atomic then
 * returns 0); nothing outside a resource is ever touched. Stores and atomics act only for
 * lanes that are active and live (not helpers, not killed). */
#include "vm/vm_handlers.h"
#include "vm/vm_mem.h"
#include "vm/vm_lower.h"
#include "vm/vm_ops.h"
#include "vm/vm_run.h"

enum { RES_BUFFER, RES_IMAGE, RES_MEM, RES_HWATOMIC, RES_BINDLESS };

/* One lane's view of a resource: bytes [base, base+size), and for typed images the
 * layout. */
typedef struct {
    uint8_t *base;
    uint64_t size;
    bool writable;
    bool typed;          /* typed image: address is texel coordinates */
    bool per_lane;       /* depends on the lane (private memory, per-lane index/handle) */
    const tv_vm_image *img;
    tv_format fmt;
    uint8_t target;
    uint32_t bpp;
} lane_res;

static void resolve(vm_warp *w, const vm_uop *u, unsigned l, lane_res *r)
{
    const vm_run *R = w->run;
    const tv_vm_bindings *b = R->b;
    const tv_vm_program *p = w->prog;
    memset(r, 0, sizeof *r);
    unsigned kind = u->aux;
    int64_t idx = (int32_t)u->aux2;
    r->per_lane = u->target != UINT32_MAX;
    if (u->target != UINT32_MAX) {
        if (kind == RES_BINDLESS) {
            uint32_t h = w->r[u->target].u[l];
            if ((h & 0xff000000u) != TV_VM_IMAGE_HANDLE_TAG)
                return;
            kind = RES_IMAGE;
            idx = h & 0xffffffu;
        } else if (kind != RES_HWATOMIC) {
            idx += w->r[u->target].i[l];   /* HWATOMIC: the indirect part is the counter's */
        }
    }
    if (idx < 0)
        return;
    switch (kind) {
    case RES_BUFFER:
        if (idx < TV_VM_MAX_BUFFERS && b->buffers[idx].data) {
            r->base = b->buffers[idx].data;
            r->size = b->buffers[idx].size;
            r->writable = true;
        }
        break;
    case RES_HWATOMIC:
        if (idx < TV_VM_MAX_HWATOMIC && b->hwatomic[idx].data) {
            r->base = b->hwatomic[idx].data;
            r->size = b->hwatomic[idx].size;
            r->writable = true;
        }
        break;
    case RES_MEM: {
        uint8_t type = TV_MEM_SHARED;
        if (idx < TV_VM_MAX_MEMORY && p->memory[idx].declared)
            type = p->memory[idx].type;
        else if (R->stage != TV_TGSI_COMP)
            type = TV_MEM_PRIVATE;
        if (type == TV_MEM_SHARED && w->wk->shared) {
            r->base = w->wk->shared;
            r->size = w->wk->shared_size;
            r->writable = true;
        } else if (type == TV_MEM_GLOBAL && b->global.data) {
            r->base = b->global.data;
            r->size = b->global.size;
            r->writable = true;
        } else if (type == TV_MEM_INPUT && b->input.data) {
            r->base = b->input.data;
            r->size = b->input.size;
        } else if ((type == TV_MEM_PRIVATE || type == TV_MEM_SHARED) && w->wk->priv) {
            size_t wi = (size_t)(w - w->wk->warps);
            r->base = w->wk->priv + (wi * VM_LANES + l) * (size_t)R->private_bytes;
            r->per_lane = true;
            r->size = R->private_bytes;
            r->writable = true;
        }
        break;
    }
    case RES_IMAGE: {
        if (idx >= TV_VM_MAX_IMAGES || !b->images[idx].data)
            return;
        const tv_vm_image *img = &b->images[idx];
        r->base = img->data;
        r->size = img->size;
        r->writable = true;
        r->img = img;
        r->fmt = img->format ? img->format : (tv_format)p->image_format[idx];
        r->target = img->target != TV_TGT_UNKNOWN && img->target ? img->target
                                                                 : p->image_target[idx];
        r->typed = !p->image_raw[idx];
        if (r->typed) {
            const tv_format_info *fi = tv_format_get(r->fmt);
            if (!fi || fi->block_w != 1) {
                r->base = NULL;   /* unknown or block-compressed format: unbound */
                return;
            }
            r->bpp = fi->block_bytes;
        }
        break;
    }
    default:
        break;
    }
}

/* Byte offset of the element addressed by lane l, or UINT64_MAX when out of bounds.
 * `bytes` = access size. */
static uint64_t element(const lane_res *r, const uint32_t a[4], uint32_t bytes)
{
    if (!r->base)
        return UINT64_MAX;
    uint64_t off;
    if (!r->typed) {
        off = a[0];
    } else {
        const tv_vm_image *im = r->img;
        uint32_t x = a[0], y = 0, z = 0;
        switch (r->target) {
        case TV_TGT_1D_ARRAY: z = a[1]; break;
        case TV_TGT_2D: case TV_TGT_RECT: case TV_TGT_2D_MSAA: y = a[1]; break;
        case TV_TGT_3D: case TV_TGT_2D_ARRAY: case TV_TGT_CUBE: case TV_TGT_CUBE_ARRAY:
        case TV_TGT_2D_ARRAY_MSAA:
            y = a[1]; z = a[2]; break;
        default: break;  /* BUFFER, 1D */
        }
        uint32_t h = im->height ? im->height : 1, d = im->depth ? im->depth : 1;
        if (x >= im->width || y >= h || z >= d)
            return UINT64_MAX;
        uint64_t rp = im->row_pitch ? im->row_pitch : (uint64_t)im->width * r->bpp;
        uint64_t lp = im->layer_pitch ? im->layer_pitch : rp * h;
        off = z * lp + y * rp + (uint64_t)x * r->bpp;
        bytes = r->bpp;
    }
    if (off > r->size || r->size - off < bytes)
        return UINT64_MAX;
    return off;
}

/* The atomics: opcode and the value stored from the old value, the operand v and the
 * compare value cmp (ATOMCAS). */
#define ATOM_OPS(X)                                                                    \
    X(ATOMUADD, old + v)                                                               \
    X(ATOMXCHG, v)                                                                     \
    X(ATOMCAS, old == cmp ? v : old)                                                   \
    X(ATOMAND, old & v)                                                                \
    X(ATOMOR, old | v)                                                                 \
    X(ATOMXOR, old ^ v)                                                                \
    X(ATOMUMIN, old < v ? old : v)                                                     \
    X(ATOMUMAX, old > v ? old : v)                                                     \
    X(ATOMIMIN, ((old ^ 0x80000000u) < (v ^ 0x80000000u)) ? old : v)                   \
    X(ATOMIMAX, ((old ^ 0x80000000u) > (v ^ 0x80000000u)) ? old : v)                   \
    X(ATOMFADD, tv_f32_bits(tv_bits_f32(old) + tv_bits_f32(v)))                                       \
    X(ATOMINC_WRAP, old + 1u <= v ? old + 1u : 0u)                                     \
    X(ATOMDEC_WRAP, (old == 0 || old > v) ? v : old - 1u)

/* *nv = the value atomic `op` stores; false for an operation that does not write. */
static inline bool atom_value(unsigned op, uint32_t old, uint32_t v, uint32_t cmp, uint32_t *nv)
{
    (void)cmp;
    switch (op) {
#define ATOM_CASE(name, expr) case TV_TGSI_OP_##name: *nv = (expr); return true;
    ATOM_OPS(ATOM_CASE)
#undef ATOM_CASE
    default: return false;
    }
}

/* One atomic on memory other threads see. An operation whose value leaves the word as it
 * was (a max below the word, an add of 0, a compare that fails) takes effect at the load
 * that read the word, without the compare-exchange: a write, even of the same bits, takes
 * the cache line from every other core, and a shader's atomicMax into one word per block
 * (the suite's compute workload) then moved that line between the threads at every block.
 * The load is seq_cst, as the compare-exchange is, so the operation keeps its place in the
 * one order of all atomics (docs/vm-semantics.md: MEMBAR stays a no-op). */
static uint32_t atomic_apply(unsigned op, uint32_t *ptr, uint32_t v, uint32_t cmp)
{
    uint32_t old = __atomic_load_n(ptr, __ATOMIC_SEQ_CST);
    for (;;) {
        uint32_t nv;
        if (!atom_value(op, old, v, cmp, &nv) || nv == old)
            return old;
        if (__atomic_compare_exchange_n(ptr, &old, nv, false, __ATOMIC_SEQ_CST,
                                        __ATOMIC_SEQ_CST))
            return old;
    }
}

/* Atomics of the lanes of `mask` (ascending) on memory no other thread can see (a
 * block's shared memory lives in its worker, and a worker runs one block at a time):
 * plain read-modify-writes, the word kept in a register while consecutive lanes address
 * the same one (a shared counter: one load and one store per warp, not a store-to-load
 * chain through memory per lane), one loop per operation. Lane l's result is the value
 * before its operation. An operation that does not write leaves the word as it was. */
static void local_atomics(unsigned op, uint8_t *base, const uint32_t *a, uint32_t mask,
                          const uint32_t *V, const uint32_t *C, uint32_t *res)
{
    uint32_t at = 1u, cur = 0;    /* at: offset of the word in cur; 1 = none (not aligned) */
#define LOCAL_LOOP(expr)                                                               \
    for (; mask; mask &= mask - 1u) {                                                  \
        unsigned l = (unsigned)__builtin_ctz(mask);                                    \
        uint32_t o = a[l] & ~3u;                                                       \
        if (o != at) {                                                                 \
            if (at != 1u)                                                              \
                memcpy(base + at, &cur, 4);                                            \
            memcpy(&cur, base + o, 4);                                                 \
            at = o;                                                                    \
        }                                                                              \
        uint32_t old = cur, v = V[l], cmp = C[l];                                      \
        (void)v; (void)cmp;                                                            \
        res[l] = old;                                                                  \
        cur = (expr);                                                                  \
    }
    switch (op) {
#define LOCAL_CASE(name, expr) case TV_TGSI_OP_##name: LOCAL_LOOP(expr) break;
    ATOM_OPS(LOCAL_CASE)
#undef LOCAL_CASE
    default: LOCAL_LOOP(old) break;
    }
#undef LOCAL_LOOP
    if (at != 1u)
        memcpy(base + at, &cur, 4);
}

/* Track how far shared memory was written, so the next block clears only that much. */
static inline void note_shared(vm_warp *w, const uint8_t *base, uint64_t end)
{
    if (base == w->wk->shared && end > w->wk->shared_hw)
        w->wk->shared_hw = (uint32_t)end;
}

/* The general path, lane by lane: typed images, per-lane resources (indexed, bindless,
 * private memory) and accesses with a lane out of range. Also the reference the warp
 * path (mem_linear) must match bit for bit (tests/vm/test_mem_fast.c). */
static void mem_lanes(vm_warp *w, const vm_uop *u)
{
    unsigned op = u->aux3 & 0xffffu;
    uint32_t hw_index = u->aux3 >> 16;
    bool load = op == TV_TGSI_OP_LOAD, store = op == TV_TGSI_OP_STORE;
    vm_slot t[4];
    memset(t, 0, sizeof t);
    uint32_t wmask = w->exec & (load ? VM_ALL_LANES : w->live);
    lane_res r;
    bool have = false;
    for (unsigned l = 0; l < VM_LANES; l++) {
        if (!((wmask >> l) & 1u))
            continue;
        /* a resource that does not depend on the lane is resolved once */
        if (!have || r.per_lane) {
            resolve(w, u, l, &r);
            have = true;
        }
        uint32_t a[4];
        for (unsigned c = 0; c < 4; c++)
            a[c] = w->r[u->src[c]].u[l];
        if (u->aux == RES_HWATOMIC) {
            /* the counter the register names (binding's counter i + ADDR): its byte
               offset; the address operand is not used (docs/vm-semantics.md §2) */
            int64_t ctr = (int64_t)hw_index +
                          (u->target != UINT32_MAX ? w->r[u->target].i[l] : 0);
            if (ctr < 0 || ctr > (int64_t)(UINT32_MAX / 4))
                continue;                  /* outside: dropped, an atomic returns 0 */
            a[0] = (uint32_t)ctr * 4u;
        }
        if (r.typed) {
            uint64_t off = element(&r, a, 0);
            if (off == UINT64_MAX)
                continue;
            if (load) {
                uint32_t v[4];
                tv_format_unpack(r.fmt, r.base + off, 0, 0, v);
                for (unsigned c = 0; c < 4; c++) t[c].u[l] = v[c];
            } else if (store) {
                uint32_t v[4];
                for (unsigned c = 0; c < 4; c++) v[c] = w->r[u->src[4 + c]].u[l];
                tv_format_pack(r.fmt, v, r.base + off);
            } else if (r.bpp == 4) {
                uint32_t old = atomic_apply(op, (uint32_t *)(void *)(r.base + off),
                                            w->r[u->src[op == TV_TGSI_OP_ATOMCAS ? 8 : 4]].u[l],
                                            w->r[u->src[4]].u[l]);
                t[0].u[l] = old;
            }
            continue;
        }
        if (load) {
            for (unsigned c = 0; c < 4; c++) {
                if (!((u->skip >> c) & 1u)) continue;
                uint32_t ac[4] = {a[0] + 4u * c, 0, 0, 0};
                uint64_t off = element(&r, ac, 4);
                if (off != UINT64_MAX && a[0] <= UINT32_MAX - 4u * c)
                    memcpy(&t[c].u[l], r.base + off, 4);
            }
        } else if (store) {
            if (!r.writable) continue;
            for (unsigned c = 0; c < 4; c++) {
                if (!((u->skip >> c) & 1u)) continue;
                uint32_t ac[4] = {a[0] + 4u * c, 0, 0, 0};
                uint64_t off = element(&r, ac, 4);
                if (off != UINT64_MAX && a[0] <= UINT32_MAX - 4u * c) {
                    memcpy(r.base + off, &w->r[u->src[4 + c]].u[l], 4);
                    note_shared(w, r.base, off + 4);
                }
            }
        } else {
            uint32_t ac[4] = {a[0] & ~3u, 0, 0, 0};
            uint64_t off = element(&r, ac, 4);
            if (off == UINT64_MAX || !r.writable || ((uintptr_t)(r.base + off) & 3u))
                continue;
            uint32_t old = atomic_apply(op, (uint32_t *)(void *)(r.base + off),
                                        w->r[u->src[op == TV_TGSI_OP_ATOMCAS ? 8 : 4]].u[l],
                                        w->r[u->src[4]].u[l]);
            t[0].u[l] = old;
            note_shared(w, r.base, off + 4);
        }
    }
    if (store)
        return;
    if (!load)
        for (unsigned c = 1; c < 4; c++) t[c] = t[0];
    for (unsigned c = 0; c < 4; c++)
        if ((u->skip >> c) & 1u)
            vm_store(w, u->dst[c], &t[c]);
}

/* Test hook: false sends every access of the engine's runs down mem_lanes
 * (tests/vm/test_mem_fast.c compares the two paths). */
void vm_mem_set_warp_path(tv_vm *vm, bool on)
{
    vm->mem_lanes_only = !on;
}

/* Addresses of the lanes of `mask`, 0 for the others, and the largest:
 * the bounds of a whole access are checked once against it (addresses are unsigned, so
 * none is below the resource; lanes outside the mask then address byte 0, which is in
 * range whenever the largest is). */
static inline uint32_t lane_addrs(const uint32_t *restrict src, uint32_t bias,
                                           uint32_t mask, uint32_t *restrict a)
{
    uint32_t mx = 0;
    for (unsigned l = 0; l < VM_LANES; l++) {
        uint32_t v = (src[l] + bias) & (0u - ((mask >> l) & 1u));
        a[l] = v;
        mx = v > mx ? v : mx;
    }
    return mx;
}

/* d[l] = the 4 bytes at b + a[l] for the lanes of `mask` (a gather and a blend; every
 * lane reads, so a[] must be in range for all). */
static inline void gather_words(uint32_t *restrict d, const uint8_t *restrict b,
                                         const uint32_t *restrict a, uint32_t mask)
{
    for (unsigned l = 0; l < VM_LANES; l++) {
        uint32_t v, k = 0u - ((mask >> l) & 1u);
        memcpy(&v, b + a[l], 4);
        d[l] = (v & k) | (d[l] & ~k);
    }
}

/* An atomic's results (0 for lanes that did not act) into the written channels. */
static inline void put_result(vm_warp *w, const vm_uop *u, const vm_slot *res)
{
    for (unsigned c = 0; c < 4; c++)
        if ((u->skip >> c) & 1u)
            vm_store(w, u->dst[c], res);
}

/* The warp path: an untyped resource the same for every lane (BUFFER, HWATOMIC, SHARED,
 * GLOBAL, INPUT) whose access is in range for every lane, checked once from the largest
 * address. Only the address's x component is read and only the written components are
 * stored; anything else goes to mem_lanes, which gives the same results. Lanes run in
 * ascending order and, within a lane, components in ascending order, as in mem_lanes, so
 * overlapping stores and atomics on one word end the same way. */
VM_WIDE_VECTORS static void mem_linear(vm_warp *w, const vm_uop *u, const lane_res *r,
                                       uint32_t wmask)
{
    unsigned op = u->aux3 & 0xffffu;
    /* HWATOMIC (direct here): the counter's byte offset; its address operand unused */
    static const uint32_t no_address[VM_LANES];
    bool hw = u->aux == RES_HWATOMIC;
    uint32_t bias = hw ? (u->aux3 >> 16) * 4u : 0u;
    uint32_t a[VM_LANES];
    uint32_t amax = lane_addrs(hw ? no_address : w->r[u->src[0]].u, bias, wmask, a);
    unsigned comps = u->skip & 0xfu;
    bool load = op == TV_TGSI_OP_LOAD;
    if (load || op == TV_TGSI_OP_STORE) {
        if (!load && !r->writable)
            return;                       /* every store dropped */
        if (!comps)
            return;                       /* nothing read or written */
        unsigned top = 31u - (unsigned)__builtin_clz(comps);
        /* mem_lanes' test for word c of lane l: a + 4c does not wrap and a + 4c + 4 <= size;
           it is monotone in a and c, so the largest address and top component decide */
        uint64_t last = (uint64_t)amax + 4u * top;
        if (last > UINT32_MAX || last + 4u > r->size) {
            mem_lanes(w, u);
            return;
        }
        if (load) {
            for (unsigned c = 0; c <= top; c++) {
                if (!((comps >> c) & 1u))
                    continue;
                /* every lane reads (the others byte 4c); active lanes are stored */
                gather_words(w->r[u->dst[c]].u, r->base + 4u * c, a, wmask);
            }
            return;
        }
        if (comps == 1u && wmask == VM_ALL_LANES) {
            const uint32_t *v = w->r[u->src[4]].u;
            for (unsigned l = 0; l < VM_LANES; l++)
                memcpy(r->base + a[l], &v[l], 4);
        } else if (comps == 1u) {
            const uint32_t *v = w->r[u->src[4]].u;
            for (uint32_t mk = wmask; mk; mk &= mk - 1u) {
                unsigned l = (unsigned)__builtin_ctz(mk);
                memcpy(r->base + a[l], &v[l], 4);
            }
        } else {
            for (unsigned l = 0; l < VM_LANES; l++) {
                if (!((wmask >> l) & 1u))
                    continue;
                for (unsigned c = 0; c <= top; c++)
                    if ((comps >> c) & 1u)
                        memcpy(r->base + a[l] + 4u * c, &w->r[u->src[4 + c]].u[l], 4);
            }
        }
        if (wmask)
            note_shared(w, r->base, last + 4u);
        return;
    }
    /* atomics: the aligned word holding the address */
    uint64_t end = (uint64_t)(amax & ~3u) + 4u;
    if (!r->writable || ((uintptr_t)r->base & 3u) || end > r->size) {
        mem_lanes(w, u);
        return;
    }
    const uint32_t *V = w->r[u->src[op == TV_TGSI_OP_ATOMCAS ? 8 : 4]].u;
    const uint32_t *C = w->r[u->src[4]].u;
    vm_slot t;
    uint32_t *res = t.u;
    memset(res, 0, sizeof t);
    if (r->base == w->wk->shared) {
        local_atomics(op, r->base, a, wmask, V, C, res);
    } else {
        for (uint32_t mk = wmask; mk; mk &= mk - 1u) {
            unsigned l = (unsigned)__builtin_ctz(mk);
            res[l] = atomic_apply(op, (uint32_t *)(void *)(r->base + (a[l] & ~3u)), V[l],
                                  C[l]);
        }
    }
    if (wmask)
        note_shared(w, r->base, end);
    put_result(w, u, &t);
}

/* src[0..3] address, src[4..7] value (STORE/ATOM), src[8..11] compare (ATOMCAS: value in
 * src[8], compare in src[4]); dst[0..3] results, stored under the execution mask for the
 * channels of skip (the destination register, or scratch slots committed after);
 * aux resource kind, aux2 index,
 * target index/handle slot, aux3 opcode (HWATOMIC: counter index in the high 16 bits),
 * skip = writemask (STORE: of the memory; others: of the result). */
void vm_h_mem(vm_warp *w, const vm_uop *u);
void vm_h_mem(vm_warp *w, const vm_uop *u)
{
    if (!w->run->vm->mem_lanes_only && !w->run->plain && u->target == UINT32_MAX) {
        unsigned op = u->aux3 & 0xffffu;
        uint32_t wmask = w->exec & (op == TV_TGSI_OP_LOAD ? VM_ALL_LANES : w->live);
        lane_res r;
        resolve(w, u, wmask ? (unsigned)__builtin_ctz(wmask) : 0u, &r);
        if (!r.per_lane && !r.typed) {
            mem_linear(w, u, &r, wmask);
            return;
        }
    }
    mem_lanes(w, u);
}

static bool res_kind(vm_lower *L, const tv_tgsi_reg *r, unsigned *kind)
{
    (void)L;
    switch (r->file) {
    case TV_FILE_BUFFER: *kind = RES_BUFFER; return true;
    case TV_FILE_IMAGE: *kind = RES_IMAGE; return true;
    case TV_FILE_MEMORY: *kind = RES_MEM; return true;
    case TV_FILE_HWATOMIC: *kind = RES_HWATOMIC; return true;
    case TV_FILE_TEMP: case TV_FILE_CONST: case TV_FILE_IN: case TV_FILE_IMM:
        *kind = RES_BINDLESS; return true;
    default: return false;
    }
}

static void set_res(vm_lower *L, vm_uop *u, const tv_tgsi_reg *r, unsigned kind)
{
    u->aux = kind;
    u->target = UINT32_MAX;
    if (kind == RES_BINDLESS) {
        u->target = vm_lower_reg(L, r, 0);
        return;
    }
    /* HWATOMIC[dim][index]: the binding is dim; index is a counter (4 bytes) */
    u->aux2 = (uint32_t)((kind == RES_HWATOMIC && r->has_dim) ? r->dim : r->index);
    if (r->indirect) {
        tv_tgsi_reg ir;
        memset(&ir, 0, sizeof ir);
        ir.file = r->ind.file;
        ir.index = r->ind.index;
        u->target = vm_lower_reg(L, &ir, r->ind.component);
    }
}

tv_status vm_lower_mem(vm_lower *L)
{
    const tv_tgsi_instruction *in = L->in;
    unsigned op = in->opcode;
    bool store = op == TV_TGSI_OP_STORE;
    const tv_tgsi_reg *res = store ? &in->dst[0].reg : &in->src[0].reg;
    unsigned kind;
    if (!res_kind(L, res, &kind))
        return vm_lower_fail(L, TV_ERR_INVALID, "%s needs a BUFFER, IMAGE, MEMORY or "
                             "HWATOMIC resource", vm_opname(op));
    const tv_tgsi_src *addr = store ? &in->src[0] : &in->src[1];
    uint32_t srcs[VM_MAX_USRC] = {0};
    for (unsigned c = 0; c < 4; c++)
        srcs[c] = vm_lower_src(L, addr, c, 'u');
    if (store) {
        for (unsigned c = 0; c < 4; c++)
            srcs[4 + c] = vm_lower_src(L, &in->src[1], c, 'u');
    } else if (op != TV_TGSI_OP_LOAD) {
        for (unsigned c = 0; c < 4; c++)
            srcs[4 + c] = vm_lower_src(L, &in->src[2], c, 'u');
        if (op == TV_TGSI_OP_ATOMCAS)
            for (unsigned c = 0; c < 4; c++)
                srcs[8 + c] = vm_lower_src(L, &in->src[3], c, 'u');
    }
    /* results go straight to a direct destination (stored under the execution mask, after
       every source was read); an indirect one gets scratch slots and a commit */
    bool direct = !store && in->num_dst && !vm_lower_dst_indirect(L, &in->dst[0]);
    unsigned wm = in->num_dst ? in->dst[0].writemask : 0;
    uint32_t tmp[4];
    for (unsigned c = 0; c < 4; c++)
        tmp[c] = direct && ((wm >> c) & 1u) ? vm_lower_dst_slot(L, &in->dst[0], c)
                                            : vm_lower_scratch(L);
    if (L->status != TV_OK)
        return L->status;
    vm_uop *u = vm_lower_emit_other(L, vm_h_mem);
    if (!u) return L->status;
    memcpy(u->src, srcs, sizeof srcs);
    memcpy(u->dst, tmp, sizeof tmp);
    set_res(L, u, res, kind);
    u->aux3 = op;
    u->skip = store ? in->dst[0].writemask : (in->num_dst ? in->dst[0].writemask : 0);
    u->flags |= VM_UF_FAULT;
    if (kind == RES_HWATOMIC) {
        /* HWATOMIC[d][i] (i possibly + ADDR): resource = binding d, byte address = 4 * i */
        u->aux3 = op | (((uint32_t)res->index & 0xffffu) << 16);
    }
    if (!store && in->num_dst && !direct)
        vm_lower_commit(L, &in->dst[0], tmp, 0xf, false);
    return L->status;
}

/* RESQ: BUFFER -> (size, 0, 0, 0); IMAGE -> (w, h, depth/layers, samples), a cube array's
 * layers counted in cubes (layer-faces / 6);
 * MEMORY -> (bytes, 0, 0, 0). */
void vm_h_resq(vm_warp *w, const vm_uop *u);
void vm_h_resq(vm_warp *w, const vm_uop *u)
{
    vm_slot t[4];
    memset(t, 0, sizeof t);
    for (unsigned l = 0; l < VM_LANES; l++) {
        lane_res r;
        resolve(w, u, l, &r);
        if (!r.base)
            continue;
        if (r.img) {
            t[0].u[l] = r.img->width;
            t[1].u[l] = r.img->height ? r.img->height : 1;
            t[2].u[l] = r.img->depth ? r.img->depth : 1;
            t[3].u[l] = r.img->samples ? r.img->samples : 1;
            if (r.target == TV_TGT_1D_ARRAY) {
                t[1].u[l] = t[2].u[l];
                t[2].u[l] = 1;
            }
            /* a cube array counts cubes, as TXQ does and GL's imageSize returns (Mesa's
               virgl driver sends RESQ for imageSize and virglrenderer's GLSL returns
               imageSize: cubes) */
            if (r.target == TV_TGT_CUBE_ARRAY)
                t[2].u[l] /= 6;
            if (!r.typed)
                t[0].u[l] = (uint32_t)(r.size > UINT32_MAX ? UINT32_MAX : r.size);
        } else {
            t[0].u[l] = (uint32_t)(r.size > UINT32_MAX ? UINT32_MAX : r.size);
        }
    }
    for (unsigned c = 0; c < 4; c++)
        w->r[u->dst[c]] = t[c];
}

tv_status vm_lower_resq(vm_lower *L)
{
    const tv_tgsi_instruction *in = L->in;
    unsigned kind;
    if (!res_kind(L, &in->src[0].reg, &kind) || kind == RES_HWATOMIC)
        return vm_lower_fail(L, TV_ERR_INVALID, "RESQ needs a BUFFER, IMAGE or MEMORY");
    uint32_t tmp[4];
    for (unsigned c = 0; c < 4; c++)
        tmp[c] = vm_lower_scratch(L);
    vm_uop *u = vm_lower_emit_other(L, vm_h_resq);
    if (!u) return L->status;
    memcpy(u->dst, tmp, sizeof tmp);
    set_res(L, u, &in->src[0].reg, kind);
    uint32_t sw[4];
    for (unsigned c = 0; c < 4; c++)
        sw[c] = tmp[in->src[0].swizzle[c] & 3u];
    vm_lower_commit(L, &in->dst[0], sw, 0xf, false);
    return L->status;
}

/* IMG2HND: x = TAG | image index, y = 0. SAMP2HND: x = (SAMP << 20) | SAMP (the paired
 * SVIEW), y = 0. aux = constant part, target = per-lane index slot or UINT32_MAX,
 * aux2 = 1 for samplers. */
void vm_h_hnd(vm_warp *w, const vm_uop *u);
void vm_h_hnd(vm_warp *w, const vm_uop *u)
{
    vm_slot t[2];
    VM_FOR_LANES {
        uint32_t i = u->aux;
        if (u->target != UINT32_MAX)
            i += w->r[u->target].u[l];
        t[0].u[l] = u->aux2 ? ((i << 20) | (i & 0xfffffu)) : (TV_VM_IMAGE_HANDLE_TAG |
                                                                (i & 0xffffffu));
        t[1].u[l] = 0;
    }
    w->r[u->dst[0]] = t[0];
    w->r[u->dst[1]] = t[1];
    w->r[u->dst[2]] = t[0];
    w->r[u->dst[3]] = t[1];
}

tv_status vm_lower_hnd(vm_lower *L)
{
    const tv_tgsi_instruction *in = L->in;
    const tv_tgsi_reg *r = &in->src[0].reg;
    bool samp = in->opcode == TV_TGSI_OP_SAMP2HND;
    if (r->file != (samp ? TV_FILE_SAMP : TV_FILE_IMAGE))
        return vm_lower_fail(L, TV_ERR_INVALID, "%s needs a %s operand", vm_opname(in->opcode),
                             samp ? "SAMP" : "IMAGE");
    uint32_t tmp[4];
    for (unsigned c = 0; c < 4; c++)
        tmp[c] = vm_lower_scratch(L);
    vm_uop *u = vm_lower_emit_other(L, vm_h_hnd);
    if (!u) return L->status;
    memcpy(u->dst, tmp, sizeof tmp);
    u->aux = (uint32_t)r->index;
    u->aux2 = samp;
    u->target = UINT32_MAX;
    if (r->indirect) {
        tv_tgsi_reg ir;
        memset(&ir, 0, sizeof ir);
        ir.file = r->ind.file;
        ir.index = r->ind.index;
        u->target = vm_lower_reg(L, &ir, r->ind.component);
    }
    vm_lower_commit(L, &in->dst[0], tmp, 0xf, false);
    return L->status;
}
