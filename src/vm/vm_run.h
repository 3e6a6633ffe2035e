/* Dispatch-wide run state shared by the stage drivers and the handlers that touch
 * resources (memory, fragment, geometry ops). */
#ifndef TEXVM_VM_RUN_H
#define TEXVM_VM_RUN_H

#include "vm/vm_internal.h"

#include <stdatomic.h>
#include "util/threadpool.h"

struct tv_vm {
    tv_vm_config cfg;
    tv_threadpool *pool;
    tv_vm_trace trace;
    bool tracing;
    uint32_t thread_cap;   /* tv_vm_set_thread_cap: at most this many workers, 0 = all */
    /* Workers kept between runs (vm_dispatch.c): their warps, registers, stacks and
       texture request serve the next run that fits, so a primitive's short fragment run
       allocates nothing. One run at a time uses them (`cache_busy`); a run that finds
       them taken (by another thread's run) allocates its own. */
    struct vm_worker *cache;
    uint32_t cache_n;
    atomic_bool cache_busy;
    /* tests (vm_mem.h): every memory access of this engine's runs lane by lane */
    bool mem_lanes_only;
    /* tests (vm_stage_frag_store.h): fragment tile stores at most variant store_cap */
    bool store_capped;
    uint8_t store_cap;
    /* tests (vm_stage_vert_copy.h): copy programs' warps run by the engine instead
       (vert_copy_off), and the warps copied so far */
    bool vert_copy_off;
    atomic_uint_fast64_t vert_copied;
    /* tests (vm_stage_frag_uniform.h): every fragment warp run by the engine, none
       reusing a uniform program's registers */
    bool frag_uniform_off;
    /* tests (vm_debug_poison_registers): register files are filled with a pattern at
       each run's start instead of keeping the last run's values */
    bool poison_regs;
    uint32_t poison_seed;
};

/* Fragment setup: per primitive triangle, edge/barycentric planes in window space. */
typedef struct vm_frag_tri {
    float x[3], y[3];     /* window positions */
    float z[3], inv_w[3];
    float area;           /* signed doubled area */
    uint32_t v[3];        /* vertex indices into params->vertices */
    uint32_t provoking;   /* last vertex of the triangle as given (flat inputs, GL rule) */
    bool nan_in;          /* a NaN among x, y, z, inv_w (the tile paths then take the
                             reference formulas: vm_stage_frag_interp.h) */
    uint64_t same_attrs;  /* bit r: attribute r the same at the three vertices, each
                             channel a normal number or +0 (interp_tile's shortcut) */
    uint64_t nan_attrs;   /* bit r: a NaN among attribute r's twelve words at the three
                             vertices (interp_tile then takes the reference formulas) */
    uint8_t bounded;      /* VM_FRAG_BOUNDED_*: the tile paths' weights are proven finite
                             at every lane of the target (bounded_weights,
                             vm_stage_frag_setup.c) */
    bool attrs_known;     /* same_attrs, nan_attrs and bounded computed
                             (vm_frag_tri_attrs): at set-up, or for a batch's triangle
                             only when a group of it is computed at once (deferred groups
                             read none of them) */
} vm_frag_tri;

enum {
    VM_FRAG_BOUNDED_LINEAR = 1u << 0,
    VM_FRAG_BOUNDED_PERSP = 1u << 1
};

typedef struct vm_gs_prim_out vm_gs_prim_out;

struct vm_run {
    tv_vm *vm;
    const tv_vm_program *prog;
    const tv_vm_bindings *b;
    tv_tgsi_processor stage;
    uint64_t max_instructions, max_loop_iterations;
    uint32_t max_call_depth;
    uint32_t shared_bytes, private_bytes;
    /* COMP */
    uint32_t grid[3], block[3], grid_offset[3], work_dim;
    /* FRAG */
    const tv_vm_frag_params *fp;
    vm_frag_tri tris[2];
    uint32_t num_tris;
    uint32_t samples;
    bool per_sample;
    bool sample_interp;      /* forced sample shading: every input at the sample's position */
    bool attrs_lazy;         /* a batch's run (one worker): vm_frag_run_setup leaves the
                                triangles' same_attrs and bounded to vm_frag_tri_attrs */
    bool split_tiles;        /* a tile in no one triangle takes the lane-parallel set-up
                                (vm_stage_frag.c split_tile) */
    bool tile_kernel;        /* a tile in one triangle may take its inputs from the one
                                pass (vm_stage_frag_tile.c): not plain, the tile store's
                                variant avx2 or avx512, no POSITION input */
    bool tile_kernel_avx512; /* the pass's AVX-512 variant (the store's avx512), else AVX2 */
    bool in_by_pass;         /* the pass writes every IN channel the program may read: each
                                IN register is an input it computes (vm_stage_frag.c
                                zero_regs leaves IN to it) */
    /* the inputs the pass computes (vm_frag_tile_input; each at an attribute register
       below TV_VM_MAX_ATTRIBS, so at most that many), as indices into prog->inputs, and
       whether one of them takes the perspective weights: the run's, not worked out again
       for every warp (vm_frag_run_setup_shared) */
    uint32_t tile_pass_in[TV_VM_MAX_ATTRIBS];
    uint8_t tile_pass_n;
    bool tile_pass_persp;
    float sample_pos[16][2];
    /* VERT */
    const tv_vm_vertex_params *vp;
    /* GEOM */
    const tv_vm_geometry_params *gp;
    const tv_vm_tess_ctrl_params *tcp;
    const tv_vm_tess_eval_params *tep;
    void *stage_ctx;          /* stage-private per-run data (GEOM job outputs) */
    /* trace */
    bool tracing;
    /* the plain interpreter for this run: the engine's tv_vm_config.plain or a program
       created on a plain engine; every warp runs uops_plain and no fast path is taken */
    bool plain;
    /* warps the run will start, when the stage knows better than jobs x warps per job
       (vm_jit_prepare's measure; 0 = that product) */
    uint64_t expected_warps;
    /* the program's compiled code for this run's warps (vm_jit.h), or NULL: interpreted */
    int (*jit_fn)(vm_warp *w, vm_slot *r);
};

/* Per-worker memory: register files for the warps of one block/tile, stacks, shared and
 * private memory; reused for every warp of a run (and the first four kept for the next
 * run, tv_vm.cache). */
struct vm_worker {
    /* (on 64-byte lines of its own, its size a multiple of them: a worker's per-warp
       writes must not share a line with the next worker's fields — vm_dispatch.c) */
    _Alignas(64) const vm_run *run;
    uint32_t index;
    uint32_t nwarps;
    vm_warp *warps;
    vm_slot *regs;            /* nwarps * num_slots */
    void *stack_mem;
    uint8_t *shared;
    uint32_t shared_size;
    uint32_t shared_hw;       /* bytes of shared memory written since it was last zeroed */
    uint8_t *priv;            /* nwarps * 32 lanes * private_bytes */
    /* GEOM output accumulation for the current primitive */
    vm_gs_prim_out *gs;
    uint32_t *tcs_merged;     /* TCS: the patch's outputs as of the last merge */
    /* per-worker counters */
    tv_vm_stats stats;
    /* VERT copy programs: a warp's counts, learned from the first warp the engine ran
       (vm_stage_vert_copy.h) */
    bool copy_counted;
    uint64_t copy_insns, copy_uops;
    /* trace: current warp is traced */
    bool trace_this;
    int32_t trace_warp;
    tv_vm_trace_event tev;
    uint32_t trace_lane;
    /* frag state for the warp being run: centre barycentrics per lane */
    float lane_b[3][VM_LANES];
    uint32_t tile_x, tile_y;
    /* the tile walk's choices of a tile's inputs' way, per triangle and whether the tile
       lies wholly in it (bit 2 t + (whole < 0)): known (the job clears it at its start),
       barycentrics needed, the one pass taken (vm_stage_frag.c values) */
    uint8_t tile_ways_known, tile_ways_bary, tile_ways_pass;
    /* COMP: every warp's SV registers hold this run's system values (vm_stage_comp.c) */
    bool comp_sv_ready;
    /* texture request reused by every texture micro-op of the worker (vm_ops_tex.c):
       zero outside the field groups `tex_req_groups` written by the last one; placed on
       64-byte lines (vm_dispatch.c tex_req_new, freed by tex_req_free) */
    struct tv_tex_request *tex_req;
    uint32_t tex_req_groups;
    /* the per-micro-op part of the last request build_request filled (vm_ops_tex.c): the
       micro-op, and the fields that depend on it and the run only; cleared with the
       worker at every run, so a micro-op's address names one micro-op while it is set */
    struct vm_tex_plan {
        const vm_uop *u;
        bool handle_uniform;   /* req->handle holds the micro-op's one handle */
        /* every warp's operand copies, in build_request's order: the 32 lanes of slot
           `slot` of the warp's registers (or zeros: an operand past the block) to the
           request's field at byte `field` */
        uint8_t ncopy;
        struct vm_tex_copy {
            uint32_t slot;
            uint16_t field;
            bool zero;
        } copy[VM_TEX_MAX_COPIES];
        /* the lean way (vm_h_tex): a warp of this micro-op needs the copies, one request
           to `unit` and its values stored as they come, nothing else (not the plain
           interpreter's, which keeps the general way: the reference it is checked
           against) */
        bool lean;
        struct tv_tex_unit *unit;
    } tex_plan;
    /* what the kept buffers hold (warps: entries; registers, stacks: bytes) */
    size_t warps_cap, regs_cap, stack_cap;
    /* errors */
    tv_status status;
    tv_error err;
    uint64_t err_job;
    /* the tile walk's reuse of a uniform program's warp (vm_stage_frag_uniform.c): armed
       once a warp of all lanes live of triangle uni_tri ran with inputs the same in every
       lane (the job disarms it at its start and at any other warp it runs), with that
       warp's counts; uni_next: the triangle of the warp being set up where its inputs are
       such (-1 otherwise), uni_skip: that warp reuses the registers */
    bool uni_armed, uni_skip;
    int8_t uni_tri, uni_next;
    uint64_t uni_insns, uni_uops;
};

/* Worker allocation (vm_dispatch.c). Init reuses the warps, registers, stacks and texture
 * request WK already holds when they are large enough (a zeroed WK holds none); release
 * frees the rest and keeps those for the next init; fini frees everything. */
tv_status vm_worker_init(vm_worker *wk, const vm_run *run, uint32_t nwarps, tv_error *err);
void vm_worker_release(vm_worker *wk);
void vm_worker_fini(vm_worker *wk);
/* Reset warp `i` of the worker for a new start: masks, stacks, pc, budget. */
vm_warp *vm_worker_warp(vm_worker *wk, uint32_t i, uint32_t present, uint32_t live);

/* Common dispatch helpers (vm_dispatch.c). */
/* The engine's instruction and loop budgets per warp (tv_vm_set_limits) into RUN. */
void vm_run_take_budgets(vm_run *run);
tv_status vm_run_begin(vm_run *run, tv_vm *vm, const tv_vm_program *p, const tv_vm_bindings *b,
                       tv_tgsi_processor stage, tv_error *err);
/* Run `njobs` jobs over the pool, each with its own worker; merges stats; the error of the
 * lowest-numbered failing job is returned (deterministic for any thread count). */
typedef tv_status (*vm_job_fn)(vm_worker *wk, uint64_t job, tv_error *err);
tv_status vm_run_jobs(vm_run *run, uint64_t njobs, uint32_t nwarps, vm_job_fn fn,
                      tv_vm_stats *stats, tv_error *err);

/* Tests: fill the register files of the engine's runs but the plain interpreter's with
 * a varying pattern at every run's start (what a run may find there is the last run's
 * registers: vm_worker_init). */
void vm_debug_poison_registers(tv_vm *vm, bool on);

/* Zero the registers a program can read before writing (per warp start). */
void vm_zero_regs(vm_warp *w);
/* The same for a warp the program's compiled code will run (run->jit_fn) when that code
 * starts TEMP and ADDR at zero itself (tv_vm_program.jit_zero_init, vm_jit_build.c): IN,
 * OUT and SV only; IN and SV when it starts OUT at zero too (jit_zero_out). The ranges are
 * the program's jit_clear, set by vm_jit_clear_ranges before its code is published. */
static inline void vm_zero_regs_compiled(vm_warp *w)
{
    const tv_vm_program *p = w->prog;
    for (unsigned k = 0; k < 2; k++)
        if (p->jit_clear[k][1])
            memset(&w->r[p->jit_clear[k][0]], 0, p->jit_clear[k][1] * sizeof(vm_slot));
}
/* vm_zero_regs_compiled without the IN registers, for a warp whose inputs' pass writes
 * every IN channel the program may read before it runs (vm_run.in_by_pass): where the
 * first range starts at IN and holds it (the usual layout), false otherwise (nothing
 * cleared) */
static inline bool vm_zero_regs_compiled_past_in(vm_warp *w)
{
    const tv_vm_program *p = w->prog;
    const uint32_t in = (uint32_t)p->in.count * 4u;
    if (p->in.count < 0 || p->jit_clear[0][0] != p->in.base || p->jit_clear[0][1] < in)
        return false;
    if (p->jit_clear[0][1] > in)
        memset(&w->r[p->in.base + in], 0, (p->jit_clear[0][1] - in) * sizeof(vm_slot));
    if (p->jit_clear[1][1])
        memset(&w->r[p->jit_clear[1][0]], 0, p->jit_clear[1][1] * sizeof(vm_slot));
    return true;
}
/* P's jit_clear from its jit_zero_init, jit_zero_out and register layout. */
void vm_jit_clear_ranges(tv_vm_program *p);
/* One-output-per-invocation stages (VERT, TESS_EVAL): OUT[r] of lane l to out[r] element
 * first + l, for the first N lanes (NULL arrays are not collected). */
void vm_collect_outputs(const vm_warp *w, uint32_t *const out[TV_VM_MAX_ATTRIBS],
                        uint64_t first, unsigned n);
/* Add a finished warp's counters to the worker's statistics. */
void vm_worker_count(vm_worker *wk, const vm_warp *w);

#endif
