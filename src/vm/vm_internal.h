/* Internal structures of the TGSI engine: micro-ops, the lowered program, warps.
 *
 * A register channel of a warp is one vm_slot: 32 lanes of 32 bits. Every operand of every
 * micro-op is a slot index into one flat register file per warp:
 *   [uniform slots: immediates, directly addressed constants, helpers | TEMP | IN | OUT |
 *    SV | ADDR | scratch]
 * Uniform slots are filled once per worker per dispatch and never written by programs, so
 * warps share nothing and handlers see one base pointer. */
#ifndef TEXVM_VM_INTERNAL_H
#define TEXVM_VM_INTERNAL_H

#include <stdatomic.h>
#include <string.h>
#include "texvm/vm.h"
#include "util/error.h"
#include "util/half.h"

#define VM_LANES 32
#define VM_LOD_TEX_MAX 8   /* implicit-LOD samplings a program's pixel packing checks */
#define VM_ALL_LANES 0xffffffffu

typedef union vm_slot {
    float f[VM_LANES];
    uint32_t u[VM_LANES];
    int32_t i[VM_LANES];
} vm_slot;

/* The most operand copies a texture micro-op's request takes (vm_ops_tex.c
 * build_request): three coordinates and a layer, the reference, the gradients' six (or one
 * LOD, bias, projection, sample or level operand), and a fetch's sample or level. */
#define VM_TEX_MAX_COPIES (4 + 1 + 6 + 1)

typedef struct vm_warp vm_warp;
typedef struct vm_uop vm_uop;
typedef void (*vm_fn)(vm_warp *w, const vm_uop *u);

/* Micro-op kinds: ALU ops carry a handler (kind VM_K_ALU); the rest are control flow or
 * need the run loop (barrier, end). */
typedef enum vm_kind {
    VM_K_ALU = 0,
    VM_K_IF, VM_K_UIF, VM_K_ELSE, VM_K_ENDIF,
    VM_K_BGNLOOP, VM_K_ENDLOOP, VM_K_BRK, VM_K_CONT,
    VM_K_SWITCH, VM_K_CASE, VM_K_DEFAULT, VM_K_ENDSWITCH,
    VM_K_CAL, VM_K_RET, VM_K_BGNSUB, VM_K_ENDSUB,
    VM_K_KILL, VM_K_KILL_IF, VM_K_DEMOTE,
    VM_K_BARRIER, VM_K_EMIT, VM_K_ENDPRIM,
    VM_K_END, VM_K_NOP,
    VM_K_BRK_IF,             /* IF/UIF src[0]; BRK; ENDIF fused (vm_lower_copy.c); aux = 1
                                for UIF (integer test), 0 for IF (float test) */
    VM_K_COUNT
} vm_kind;

enum {
    VM_UF_SAT = 1u << 0,     /* saturate the result ([0,1], NaN -> 0) */
    VM_UF_FIRST = 1u << 1,   /* first micro-op of a TGSI instruction */
    VM_UF_LAST = 1u << 2,    /* last micro-op of a TGSI instruction */
    VM_UF_FAULT = 1u << 3,   /* the handler may set w->fault */
    VM_UF_LEGACY = 1u << 4,  /* LEGACY_MATH_RULES: 0 * x = 0 */
    VM_UF_BRKSW = 1u << 5,   /* BRK leaves a switch (not a loop) */
    VM_UF_COUNT = 1u << 6,   /* ends a counted run: add ninsns/nuops before running it */
    VM_UF_NOMASK = 1u << 7,  /* channel group: every lane of the destinations may be
                                written (vm_lower_copy.c mark_unmasked) */
    VM_UF_DIRECT = 1u << 8,  /* channel group: each channel may be stored as soon as it is
                                computed, no destination being a source of a later channel
                                (vm_lower_copy.c mark_direct; vm_ops.h VM_GROUP_HANDLER) */
    VM_UF_TEX = 1u << 9      /* the texture micro-op (vm_ops_tex.h): of its fields only
                                src[0], src[VM_UOP_TEX_SLOTS_AT ..] and dst[] name slots */
};

/* Where the texture micro-op's operand slots read in place start (vm_ops_tex.h's
 * VM_TB_DIRECT_AT is this) */
#define VM_UOP_TEX_SLOTS_AT 6

#define VM_MAX_USRC 12

struct vm_uop {
    vm_fn fn;                /* ALU handler; NULL for other kinds */
    uint16_t kind;           /* vm_kind */
    uint16_t flags;          /* VM_UF_* */
    uint32_t insn;           /* TGSI instruction index */
    uint32_t dst[4];         /* destination slots (vec4 ops: 4 scratch slots) */
    uint32_t src[VM_MAX_USRC];
    uint32_t target;         /* jump target (uop index) */
    uint32_t skip;           /* where to go when the execution mask becomes empty */
    uint32_t aux, aux2, aux3;/* op-specific: writemask, resource index, counts, opcode */
    /* Executed-instruction counting by runs (vm_lower.c count_runs): a run is entered only
     * at its first micro-op and left only after its last, which carries VM_UF_COUNT and
     * the run's TGSI instructions (VM_UF_FIRST micro-ops) and micro-ops. */
    uint32_t ninsns, nuops;
    uint16_t op;             /* vm_op (vm_handlers.h): what the handler is, for the passes */
    uint8_t dead_lanes;      /* channel group: bit c set when no lane inactive here reads
                                dst[c] again, so its store may write every lane (the JIT's,
                                per channel; vm_lower_lanes.c) */
};

/* The fields of a micro-op that may name a slot: for control flow src[] and aux (the
 * switch selector; target and skip are micro-op indices), for the texture micro-op its
 * block, operands in place and results (its indices, swizzle, gather component, block
 * size, opcode, flags and target are numbers, which as slots had made inputs' channels
 * look read: TEX IN[0].xyyy on 2D read IN[0].w by its block size 4), for other handlers
 * every field. Returns how many of f[] it filled. What a handler reads is not known field
 * by field, so the passes that must know every slot a micro-op may read (vm_lower_copy.c,
 * the JIT's zeroing for handler calls) take these. */
#define VM_UOP_SLOT_FIELDS (VM_MAX_USRC + 9)
static inline unsigned vm_uop_slot_fields(const vm_uop *u, uint32_t f[VM_UOP_SLOT_FIELDS])
{
    unsigned n = 0;
    if (u->flags & VM_UF_TEX) {
        f[n++] = u->src[0];
        for (unsigned i = VM_UOP_TEX_SLOTS_AT; i < VM_MAX_USRC; i++) f[n++] = u->src[i];
        for (unsigned i = 0; i < 4; i++) f[n++] = u->dst[i];
        return n;
    }
    for (unsigned i = 0; i < VM_MAX_USRC; i++) f[n++] = u->src[i];
    f[n++] = u->aux;
    if (!u->fn)
        return n;
    for (unsigned i = 0; i < 4; i++) f[n++] = u->dst[i];
    f[n++] = u->aux2; f[n++] = u->aux3;
    f[n++] = u->target; f[n++] = u->skip;
    return n;
}

/* A register file range (for indirect bounds). */
typedef struct vm_range {
    uint32_t base;           /* slot of channel x of the first register */
    int32_t first, count;    /* register indices */
} vm_range;

/* A directly addressed constant, filled into uniform slot `slot` at dispatch. */
typedef struct vm_constref {
    uint32_t slot;
    uint32_t dim, index, comp;
} vm_constref;

/* Per-input fragment interpolation info. */
typedef struct vm_fs_input {
    uint32_t reg;            /* IN index */
    uint8_t semantic;        /* tv_tgsi_semantic or TV_SEM_COUNT */
    uint32_t semantic_index;
    uint8_t interp, location;
    uint8_t usage;
    uint8_t read;            /* channels some micro-op may read (vm_lower.c mark_input_reads) */
} vm_fs_input;

typedef struct vm_sv {
    uint32_t reg;            /* SV index */
    uint8_t semantic;
} vm_sv;

typedef struct vm_memdecl {
    bool declared;
    uint8_t type;            /* tv_tgsi_memory_type */
} vm_memdecl;

struct tv_vm_program {
    tv_tgsi_program src;     /* deep copy of the source program */
    tv_tgsi_processor proc;
    vm_uop *uops;
    uint32_t num_uops;
    vm_uop *uops_plain;      /* before copy propagation (traces, counting tests) */
    bool plain;              /* created on a plain engine (tv_vm_config.plain): lowered
                                without rewrites, always runs uops_plain, no fast paths */
    uint32_t num_uops_plain;
    bool fine_derivatives;   /* DDX/DDY lowered as DDX_FINE/DDY_FINE (tv_vm_config) */
    uint32_t *insn_uop;      /* first uop of each instruction (num_insns + 1) */
    /* slots */
    uint32_t num_slots, num_uniform;
    uint32_t *uniform_init;  /* num_uniform * 1 words: immediates and literals (constants
                                are overwritten from constrefs at dispatch) */
    vm_constref *constrefs;
    uint32_t num_constrefs;
    vm_range temp, in, out, sv, addr;
    uint32_t in_per_vertex;  /* GS, TCS, TES: registers per input vertex */
    uint32_t gs_in_vertices; /* GS: vertices per input primitive; TCS, TES: the most a patch
                                has (TV_VM_MAX_PATCH_VERTICES) */
    uint32_t out_per_vertex; /* TCS: registers per output vertex */
    uint32_t out_vertices;   /* TCS: TCS_VERTICES_OUT (1 for other stages) */
    uint64_t out_vertex_regs;/* TCS: OUT registers declared per vertex (bit r) */
    uint32_t invocation_slot;/* TCS: the lane's invocation (the stage driver sets it) */
    uint32_t tes_prim_mode;  /* TES: PIPE_PRIM_TRIANGLES (4), QUADS (7) or LINES (1) */
    uint32_t scratch_base, scratch_count;
    /* declarations by file, resolved */
    vm_fs_input *inputs;
    uint32_t num_inputs;
    vm_sv *svs;
    uint32_t num_svs;
    uint8_t *out_sem;        /* per OUT register: semantic (TV_SEM_COUNT if none) */
    uint32_t *out_sem_index;
    uint8_t image_format[TV_VM_MAX_IMAGES];  /* tv_format per IMAGE decl (0 = none) */
    uint8_t image_target[TV_VM_MAX_IMAGES];
    bool image_raw[TV_VM_MAX_IMAGES];
    vm_memdecl memory[TV_VM_MAX_MEMORY];
    /* control-flow sizing */
    uint32_t max_nesting;    /* static depth of IF/LOOP/SWITCH nesting */
    /* properties */
    uint32_t block[3];
    bool legacy_math;
    bool origin_lower_left, center_integer;
    uint32_t gs_max_vertices, gs_invocations, gs_out_prim;
    bool uses_sample_shading;/* SAMPLEID/SAMPLEPOS read or sample-located inputs */
    /* a result that depends on which pixels share the warp: VOTE_*, BALLOT, READ_FIRST,
       READ_INVOC, CLOCK, SUBGROUP_INVOCATION. Such fragment programs run in the tile
       walk's warps only (no packed quads, no batches: vm_frag_packs), as the plain
       interpreter does */
    bool sees_warp;
    /* FRAG: what the results need of the other lanes of a lane's 2x2 quad (helper lanes
       included). reads_quads: DDX/DDY in any form, a LOD query, or an implicit-LOD
       sampling (tv_tex_op_implicit_lod) whose view or sampler is not a direct index, or
       more such samplings than lod_tex holds; lod_tex: the handles (SAMP << 20 | SVIEW)
       and targets of the others, whose values need no derivative where tv_tex_lod_free
       says so. Without reads_quads, and with every lod_tex free, a batch packs covered
       pixels instead of quads (pixels_ok, vm_stage_frag_batch.c) */
    bool reads_quads;
    uint8_t num_lod_tex;
    uint32_t lod_tex[VM_LOD_TEX_MAX];
    uint8_t lod_tex_target[VM_LOD_TEX_MAX];
    /* VERT: only MOVs from IN to OUT (vm_stage_vert_copy.c), its warps run as copies;
       copy_src[r][c]: OUT[r]'s channel c is IN[e] channel k where it is 4 e + k + 1, 0
       where no MOV writes it */
    bool vert_copy;
    uint8_t copy_src[TV_VM_MAX_ATTRIBS][4];
    /* FRAG: every lane computes the same outputs from the same inputs
       (vm_stage_frag_uniform.c): a warp of a tile whose inputs are the same in every lane
       may reuse the registers of the last such warp of its triangle */
    bool frag_uniform;
    /* the JIT (vm_jit.h): a cache beside the immutable program, filled once under the
       JIT's lock. jit_state: VM_JIT_NOT_YET, VM_JIT_READY (jit_fn runs it) or
       VM_JIT_DECLINED; jit_warps: warps run so far (TV_VM_JIT_AUTO's threshold) */
    struct vm_jit_code *jit_code;
    _Atomic(int (*)(vm_warp *, vm_slot *)) jit_fn;
    atomic_int jit_state;
    bool jit_zero_init;      /* the compiled code starts TEMP and ADDR at zero itself */
    bool jit_zero_out;       /* ... and OUT (a FRAG program: vm_jit_build.c out_zero) */
    /* what is left to clear before a compiled warp (vm_zero_regs_compiled): two runs of
       slots, {first, count}, taken once from the flags above and the layout
       (vm_jit_clear_ranges), so that the per-warp clear is inline and clears nothing
       where nothing is left (the null workload: no IN, no SV) */
    uint32_t jit_clear[2][2];
    atomic_uint_fast64_t jit_warps;
};

/* ---- runtime ----------------------------------------------------------------------------- */

typedef struct vm_cfentry {  /* one IF or LOOP/SWITCH record */
    uint32_t cond, loop, cont, sw;
    uint32_t a, b;           /* switch: entry mask / matched; loop: unused */
    uint64_t iters;
    uint32_t cond_sp, sw_sp;
    uint32_t entry;          /* loop: exec at BGNLOOP */
} vm_cfentry;

typedef struct vm_callframe {
    uint32_t ret_pc;
    uint32_t cond, loop, cont, sw, func;
    uint32_t cond_sp, loop_sp, sw_sp;
} vm_callframe;

typedef struct vm_run vm_run;      /* dispatch-wide state (stage code) */
typedef struct vm_worker vm_worker;

struct vm_warp {
    vm_slot *r;              /* register file */
    uint32_t exec;           /* current execution mask */
    uint32_t m[VM_LANES];    /* exec expanded to 0 / ~0 per lane (valid unless m_stale) */
    bool m_stale;
    uint32_t present;        /* lanes that run (includes helper lanes) */
    uint32_t live;           /* lanes that may write memory/outputs (not helper/killed) */
    uint32_t killed;         /* lanes terminated by KILL/KILL_IF */
    uint32_t demoted;        /* lanes demoted to helpers */
    uint32_t helper;         /* helper lanes (not covered, or demoted) */
    uint32_t cond, loop, cont, sw, func;
    uint32_t pc;
    bool plain;              /* runs prog->uops_plain (set when a warp starts at pc 0) */
    bool done;
    bool at_barrier;
    /* stacks */
    uint32_t *cond_stack; uint32_t cond_sp, cond_cap;
    vm_cfentry *loop_stack; uint32_t loop_sp, loop_cap;
    vm_cfentry *sw_stack; uint32_t sw_sp, sw_cap;
    vm_callframe *calls; uint32_t call_sp, call_cap;
    vm_slot *sw_sel;         /* switch selectors, one slot per switch level */
    uint64_t budget;         /* instructions left */
    uint64_t insns;          /* executed counts: instructions (micro-ops: uops, below) */
    /* context */
    const tv_vm_program *prog;
    const vm_run *run;
    vm_worker *wk;
    uint32_t sample;         /* FRAG: sample index of this warp (sample shading) */
    /* Executed micro-ops. Not beside insns: the JIT keeps both counts in registers from
       one load to one store, and with the two fields adjacent LLVM 15's SLP vectorizer
       (which its C API runs whatever the pass options say) made them one <2 x i64>, so a
       loop's count went from a vector register to a general one and back every iteration
       (vmovq, add, vpinsrq, vpaddq: the loop workload 1 % slower on Zen 4; docs/jit.md,
       tests/vm/test_jit.c t_counts_scalar) */
    uint64_t uops;
    /* (the lane arrays start 64-byte lines, as the warp itself does, vm_worker_init: the
       tile set-up and the inputs' pass move them as 64-byte vectors, and one that
       straddles two lines costs two accesses — or far more across a 4 KiB page, which
       lane_x or lane_y did wherever the allocator put the warp 0x40 or 0xc0 bytes before a
       page's end: the loop workload ran 5 % slower in those processes, docs/performance.md) */
    _Alignas(64) int32_t lane_x[VM_LANES];       /* FRAG pixel / COMP global id x,y */
    _Alignas(64) int32_t lane_y[VM_LANES];
    uint8_t lane_tri[VM_LANES];                  /* FRAG: triangle of each lane */
    bool tile_order;         /* FRAG: the lanes are one 8x4 tile in the engine's order
                                (setup_warp's; packed warps are not) */
    bool pixel_lanes;        /* FRAG: lanes 4q..4q+3 need not be a 2x2 quad (a warp
                                packed from pixels, vm_stage_frag_pack.c) */
    _Alignas(64) uint32_t lane_cov[VM_LANES];    /* FRAG: covered samples of each lane */
    uint32_t gs_stream_mask;
    bool robust;             /* tv_vm_config.robust_indexing */
    /* faults */
    bool fault;
    tv_status fault_code;
    uint32_t fault_lane;
    char fault_msg[200];
};

/* ---- shared helpers ---------------------------------------------------------------------- */

/* For the helpers every handler calls: handlers are compiled once per instruction set
 * (VM_WIDE_VECTORS, vm_ops.h), and a helper GCC chose not to inline would be one copy
 * compiled for the baseline set (it did that to vm_finish_n_u once the handlers grew, and
 * the loop workload ran 40 % slower). */
#if defined(__GNUC__)
#define VM_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define VM_ALWAYS_INLINE inline
#endif

/* Lane masks for 8 lanes per byte value (vm_exec.c). */
extern const uint32_t vm_mask8[256][8];

static inline void vm_update_exec(vm_warp *w)
{
    w->exec = w->cond & w->loop & w->cont & w->sw & w->func & w->present;
    w->m_stale = true;   /* m[] is expanded when a partial-mask store needs it */
}

static inline void vm_expand_mask(vm_warp *w)
{
    for (unsigned k = 0; k < 4; k++)
        memcpy(&w->m[8 * k], vm_mask8[(w->exec >> (8 * k)) & 0xffu], 8 * sizeof(uint32_t));
    w->m_stale = false;
}


/* Bit l of a lane mask (vm_exec.c). */
extern const uint32_t vm_lane_bit[VM_LANES];

/* Blend the lanes of e from s into d. d and s never overlap (s is a handler's local
 * result), which restrict tells GCC, so the loop vectorises straight into d. The lane masks
 * come from e itself (AND with the lane's bit, compare: vector operations), not from the
 * expanded m[] in memory (reading m[] as wide vectors right after the expansion wrote it
 * in halves stalled on store forwarding). */
static VM_ALWAYS_INLINE void vm_blend(uint32_t *restrict d, const uint32_t *restrict s, uint32_t e)
{
    for (unsigned l = 0; l < VM_LANES; l++) {
        uint32_t m = 0u - (uint32_t)((e & vm_lane_bit[l]) != 0u);
        d[l] = (d[l] & ~m) | (s[l] & m);
    }
}

/* Masked store of a computed slot into dst (only lanes of the execution mask). */
static VM_ALWAYS_INLINE void vm_store(vm_warp *w, uint32_t dst, const vm_slot *t)
{
    vm_slot *d = &w->r[dst];
    const uint32_t e = w->exec;
    if (e == VM_ALL_LANES) {
        memcpy(d, t, sizeof *d);
        return;
    }
    vm_blend(d->u, t->u, e);
}

static inline float vm_sat(float x)
{
    /* NaN -> 0 */
    return x > 0.0f ? (x < 1.0f ? x : 1.0f) : 0.0f;
}

void vm_fault(vm_warp *w, tv_status code, uint32_t lane, const char *fmt, ...) TV_PRINTF(4, 5);

/* Handler lookup tables (vm_optab.c). */
typedef enum vm_lclass {
    VM_L_NONE = 0,   /* not supported here */
    VM_L_CH,         /* per channel: handler(dst[0], src[0..n-1]) */
    VM_L_SC,         /* scalar from .x of each source, replicated */
    VM_L_DOT,        /* dot product of n components (aux = n) */
    VM_L_V4,         /* whole vec4 sources, 4 scratch results, committed by writemask */
    VM_L_CF,         /* control flow (kind in the table) */
    VM_L_SPECIAL,    /* lowered by a dedicated function */
    VM_L_TEX,        /* texture opcode: issue 5 */
    VM_L_CHN         /* per channel as one channel-group micro-op (vm_ops.h) */
} vm_lclass;

const char *vm_opname(unsigned opcode);

/* Handlers shared between files. */
void vm_h_mov(vm_warp *w, const vm_uop *u);
void vm_h_mod_fneg(vm_warp *w, const vm_uop *u);
void vm_h_mod_fabs(vm_warp *w, const vm_uop *u);
void vm_h_mod_fnegabs(vm_warp *w, const vm_uop *u);
void vm_h_mod_ineg(vm_warp *w, const vm_uop *u);
void vm_h_mod_iabs(vm_warp *w, const vm_uop *u);
void vm_h_mod_inegabs(vm_warp *w, const vm_uop *u);
void vm_h_mod_i64(vm_warp *w, const vm_uop *u);
void vm_h_gather(vm_warp *w, const vm_uop *u);
void vm_h_gather_const(vm_warp *w, const vm_uop *u);
void vm_h_scatter(vm_warp *w, const vm_uop *u);
void vm_h_vertex_index(vm_warp *w, const vm_uop *u);

/* Run a warp from w->pc until END, a barrier, or a fault. Returns TV_OK or the fault. */
tv_status vm_exec_warp(vm_warp *w, tv_error *err);

#endif
