/* texvm TGSI execution engine (public API). See docs/vm.md and the pages it lists for the
 * execution model (docs/vm-execution.md, docs/vm-fragments.md, docs/vm-stages.md), every
 * defined-but-unspecified behaviour, limits and the robust-access rule
 * (docs/vm-semantics.md).
 *
 * Use:
 *   tv_vm *vm = tv_vm_create(&cfg, &err);                 // threads, limits
 *   tv_vm_program *p = tv_vm_program_create(vm, prog, &err); // validate + lower once
 *   tv_vm_bindings b; tv_vm_bindings_init(&b);            // resources (caller-owned memory)
 *   b.buffers[0] = (tv_vm_buffer){ data, size };
 *   tv_vm_run_compute(vm, p, &b, &params, &stats, &err);  // or _fragment/_vertex/_geometry
 *
 * All memory named in bindings and stage parameters stays owned by the caller and must
 * outlive the run call. A tv_vm may run one call at a time (it owns the thread pool);
 * programs are immutable after creation and may be shared between engines.
 *
 * Values in registers are raw 32-bit words; every output array below holds raw bits (float
 * bits for float data, integers for integer data), 4 channels per element, little-endian
 * host order. */
#ifndef TEXVM_VM_H
#define TEXVM_VM_H

#include "texvm/tgsi.h"
#include "texvm/tex.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- limits and engine ------------------------------------------------------------------ */

#define TV_VM_MAX_CONSTBUFS 32
#define TV_VM_MAX_BUFFERS 32
#define TV_VM_MAX_IMAGES 32
#define TV_VM_MAX_HWATOMIC 32
#define TV_VM_MAX_MEMORY 32         /* MEMORY[i] declarations */
#define TV_VM_MAX_COLOR_TARGETS 8
#define TV_VM_MAX_ATTRIBS 64        /* vertex inputs / per-vertex GS inputs / outputs */
#define TV_VM_MAX_STREAMS 4
#define TV_VM_MAX_PATCH_VERTICES 32 /* vertices of a patch (GL_MAX_PATCH_VERTICES) */
#define TV_VM_WARP_LANES 32
/* The most quads a coverage_quads hook returns (tv_vm_frag_params) */
#define TV_VM_COVERAGE_QUADS_MAX 16

typedef struct tv_vm_limits {
    /* Instructions executed per warp (32 lanes count once) before a TV_ERR_RUNTIME fault;
     * 0 = default (1e9). */
    uint64_t max_instructions;
    /* Nesting of CAL (call depth); 0 = default (64). */
    uint32_t max_call_depth;
    /* Iterations of one loop (per entry of a BGNLOOP) per warp; 0 = default (1e8). */
    uint64_t max_loop_iterations;
    /* Bytes the engine may allocate per worker thread for one run (register files,
     * stacks, shared and private memory; GS output buffers for all workers); 0 = default
     * (1 GiB). Exceeding it is TV_ERR_NOMEM before anything runs. */
    uint64_t max_memory;
} tv_vm_limits;

typedef struct tv_vm_config {
    uint32_t threads;      /* worker threads; 0 = 1. Results do not depend on it. */
    tv_vm_limits limits;
    /* The plain interpreter: programs created on this engine are lowered with no rewrites
     * (no copy propagation, dead-copy removal, coalescing, channel-group or BRK_IF fusion,
     * unmasked stores, in-place or direct texture operands), and every run executes the
     * micro-ops as lowered, one TGSI instruction after another, counting one micro-op at a
     * time, with no engine fast paths (memory warp path, whole-tile fragment set-up and
     * stores). Slower; the reference that optimised runs must equal bit for bit
     * (translation validation, docs/vm-execution.md §3). Traces always run the unoptimised
     * micro-ops. */
    bool plain;
    /* Robust indexing, for running real programs (the pipe layer sets it): an indirect
     * TEMP/IN/OUT/IMM index outside its declared range reads 0 and drops the write, as GL
     * robust access and D3D11 do, instead of the TV_ERR_RUNTIME fault that makes such an
     * access visible (compilers speculatively index both arms of a select). */
    bool robust_indexing;
    /* Float32 (and float64) denormals. false (default): kept, IEEE 754 arithmetic. true:
     * flushed, as GL allows and GPUs and Mesa's software drivers do: every job of every
     * run executes with the CPU's denormals-are-zero mode (SSE MXCSR DAZ), so a denormal
     * operand reads as zero — in the shader, the texture unit and the hooks a run calls.
     * A denormal result keeps its bits (and reads as zero wherever it is used again);
     * x86's flush-to-zero mode is not used: it zeroes results that round up to the
     * smallest normal number (src/util/fpmode.h). Copies, integer operations and sign
     * changes (negate, absolute value) keep the bits. tv_vm_create fails with
     * TV_ERR_UNSUPPORTED where the CPU has no such mode (x86-64 has it). */
    bool flush_denormals;
    /* TGSI's unqualified DDX and DDY. false (default): coarse, one value per quad (TR - TL,
     * BL - TL). true: fine, as DDX_FINE / DDY_FINE (per row, per column), llvmpipe's
     * choice and what GL's GL_NICEST derivative hint asks for. Programs lowered on the
     * engine take the mode it had when they were created. Implicit texture LODs stay per
     * quad either way. */
    bool fine_derivatives;
    /* Compiling programs to native code (docs/jit.md, the JIT: LLVM's ORC JIT, when the
     * library was built with it; tv_vm_jit_available). The compiled code runs the same
     * micro-ops with the same masks, counts and faults and gives the same bits as the
     * interpreter (translation validation proves it); programs it does not cover run
     * interpreted. TV_VM_JIT_AUTO (0, the default) compiles a program once it has run
     * TV_VM_JIT_AUTO_WARPS warps (compiling costs milliseconds, so short runs stay
     * interpreted); TV_VM_JIT_OFF never; TV_VM_JIT_ALWAYS at its first run (tv_vm_create
     * fails with TV_ERR_UNSUPPORTED on a build without the JIT). Ignored by plain engines
     * and traces. */
    uint8_t jit;
} tv_vm_config;

enum tv_vm_jit_mode { TV_VM_JIT_AUTO = 0, TV_VM_JIT_OFF = 1, TV_VM_JIT_ALWAYS = 2 };
#define TV_VM_JIT_AUTO_WARPS 4096u

/* Whether this build of the library has the JIT (tv_vm_config.jit). */
bool tv_vm_jit_available(void);
/* "auto", "off", "always" to a tv_vm_jit_mode (TV_ERR_ARG for anything else). The
 * environment variable TEXVM_JIT, with one of these names, sets the mode of every engine
 * created with TV_VM_JIT_AUTO (an explicit mode wins). */
tv_status tv_vm_jit_mode_from_name(const char *name, uint8_t *mode);

typedef struct tv_vm tv_vm;

tv_vm *tv_vm_create(const tv_vm_config *cfg, tv_error *err);  /* cfg may be NULL */
void tv_vm_destroy(tv_vm *vm);
tv_status tv_vm_set_threads(tv_vm *vm, uint32_t threads, tv_error *err);
uint32_t tv_vm_get_threads(const tv_vm *vm);
void tv_vm_set_limits(tv_vm *vm, const tv_vm_limits *limits);

/* ---- programs ---------------------------------------------------------------------------- */

typedef struct tv_vm_program tv_vm_program;

/* Validate (lenient) and lower `prog` to micro-ops. The program object is copied as far as
 * needed; `prog` may be freed afterwards. Unsupported opcodes fail here with
 * TV_ERR_UNSUPPORTED naming the opcode and line (texture opcodes: docs/vm-semantics.md
 * §5). */
tv_vm_program *tv_vm_program_create(tv_vm *vm, const tv_tgsi_program *prog, tv_error *err);
/* Convenience: parse `text` (the first program in it) and create. */
tv_vm_program *tv_vm_program_from_text(tv_vm *vm, const char *text, size_t len,
                                       const char *filename, tv_error *err);
void tv_vm_program_destroy(tv_vm_program *p);
/* The (copied) source program, for reading declarations and properties. */
const tv_tgsi_program *tv_vm_program_source(const tv_vm_program *p);
tv_tgsi_processor tv_vm_program_processor(const tv_vm_program *p);
/* CS_FIXED_BLOCK_* properties (0 where absent). */
void tv_vm_program_block_size(const tv_vm_program *p, uint32_t block[3]);
/* Number of micro-ops after lowering (for tests and the trace header). */
uint32_t tv_vm_program_num_uops(const tv_vm_program *p);
/* The bytes the program holds (its source copy, micro-ops and tables), for memory quotas. */
size_t tv_vm_program_bytes(const tv_vm_program *p);

/* ---- resources ------------------------------------------------------------------------- */

/* Plain memory: CONST buffers, BUFFER (SSBO), HWATOMIC counter arrays, global memory. */
typedef struct tv_vm_buffer {
    void *data;            /* NULL = unbound: loads read 0, stores/atomics are dropped */
    uint64_t size;         /* bytes */
} tv_vm_buffer;

/* An image: one level, linear layout. Typed access converts through the texture unit's
 * format table (tv_format_unpack/pack); RAW images (and RAW declarations) address bytes. */
typedef struct tv_vm_image {
    void *data;            /* NULL = unbound */
    uint64_t size;         /* bytes available at data */
    tv_format format;      /* texel format; NONE = use the declaration's format */
    uint8_t target;        /* tv_tgsi_target; TV_TGT_UNKNOWN = use the declaration's */
    uint32_t width, height, depth;  /* depth = layers for arrays, 6*n for cubes */
    uint32_t samples;      /* 0 or 1 = single-sampled */
    uint64_t row_pitch;    /* bytes; 0 = width * texel size */
    uint64_t layer_pitch;  /* bytes; 0 = row_pitch * height */
} tv_vm_image;

typedef struct tv_vm_bindings {
    tv_vm_buffer constbufs[TV_VM_MAX_CONSTBUFS];  /* CONST[d][i]: constbufs[d]; 16 bytes/index */
    tv_vm_buffer buffers[TV_VM_MAX_BUFFERS];      /* BUFFER[i] */
    tv_vm_image images[TV_VM_MAX_IMAGES];         /* IMAGE[i] */
    tv_vm_buffer hwatomic[TV_VM_MAX_HWATOMIC];    /* HWATOMIC[d][i]: 4-byte counters */
    tv_vm_buffer global;   /* MEMORY declared GLOBAL: 32-bit byte addresses into this */
    uint32_t shared_bytes; /* MEMORY SHARED per compute block; 0 = 65536 */
    uint32_t private_bytes;/* MEMORY PRIVATE per invocation; 0 = 4096 */
    /* Texture unit for SVIEW/SAMP (handle = (SAMP index << 20) | SVIEW index) and for
     * bindless handles; NULL = none (texture opcodes then fault). */
    tv_tex_unit *tex;
    /* MEMORY declared INPUT (compute kernel input): read-only bytes. */
    tv_vm_buffer input;
} tv_vm_bindings;

void tv_vm_bindings_init(tv_vm_bindings *b);

/* Handles returned by IMG2HND (x = TV_VM_IMAGE_HANDLE_TAG | image index, y = 0). A bindless
 * image operand (IMAGE register replaced by a TEMP holding a handle) resolves through it;
 * SAMP2HND returns the texture-unit handle (SAMP<<20 | SVIEW) in x, 0 in y. */
#define TV_VM_IMAGE_HANDLE_TAG 0x1a000000u

/* ---- statistics, trace ------------------------------------------------------------------- */

typedef struct tv_vm_stats {
    uint64_t instructions;   /* TGSI instructions executed, counted per warp */
    uint64_t uops;           /* micro-ops executed */
    uint64_t warps;          /* warps run */
    uint64_t invocations;    /* lanes that ran (not helpers) */
    uint64_t killed;         /* fragment lanes killed/demoted */
} tv_vm_stats;

/* One executed instruction seen from one lane. */
typedef struct tv_vm_trace_event {
    uint32_t insn;           /* instruction index */
    uint32_t line;           /* source line (0 if unknown) */
    uint16_t opcode;         /* tv_tgsi_opcode */
    uint32_t exec_mask;      /* warp execution mask before the instruction */
    uint32_t lane;           /* the traced lane within its warp */
    bool active;             /* the traced lane executed (its bit in exec_mask) */
    uint8_t num_src, num_dst;
    uint32_t src[TV_TGSI_MAX_SRC][4];   /* swizzled source values, modifiers applied */
    uint32_t dst_before[TV_TGSI_MAX_DST][4];
    uint32_t dst_after[TV_TGSI_MAX_DST][4];
    const tv_tgsi_instruction *instruction;  /* the source instruction */
} tv_vm_trace_event;

typedef void (*tv_vm_trace_fn)(void *user, const tv_vm_trace_event *ev);

/* Which invocation to trace. While set, runs use one thread. */
typedef struct tv_vm_trace {
    tv_vm_trace_fn fn;       /* NULL = no trace */
    void *user;
    /* COMP: global thread id (x,y,z); FRAG: pixel (x,y) and sample z; VERT: vertex index
     * in x and instance in y; GEOM: primitive index in x and invocation in y. */
    uint32_t id[3];
} tv_vm_trace;

void tv_vm_set_trace(tv_vm *vm, const tv_vm_trace *trace);  /* NULL = off */

/* Runs after the call use at most CAP of the engine's worker threads (0: all of them).
 * A caller whose hooks or side effects must not run concurrently for some runs (the pipe
 * layer's draws) lowers it around them. Not to be changed while a run is in progress. */
void tv_vm_set_thread_cap(tv_vm *vm, uint32_t cap);

/* The kernel variants this processor runs, for benchmark tables: "engine E, tile stores
 * S, texture T, jit J" with E the micro-op handlers' clone (avx512f, avx2, default), S the
 * fragment tile stores' (avx512, sse2, generic), T tv_tex_vector_kernel() and J the code
 * the JIT generates: "llvm-15 CPU" with CPU the processor LLVM compiles for (every
 * feature it has), "llvm-15 (not loaded: REASON)" where LLVM's library could not be
 * loaded, or "none" without the JIT (docs/jit.md). The variants give the same
 * bits; only their speed differs. */
const char *tv_vm_kernels(void);

/* ---- COMP --------------------------------------------------------------------------- */

typedef struct tv_vm_compute_params {
    uint32_t grid[3];        /* blocks; 0 counts as 1 */
    uint32_t block[3];       /* threads per block; 0 = CS_FIXED_BLOCK_* property (else 1) */
    uint32_t grid_offset[3]; /* added to BLOCK_ID (for split launches); usually 0 */
    uint32_t work_dim;       /* SV WORK_DIM; 0 = highest dimension with size > 1 (>= 1) */
} tv_vm_compute_params;

tv_status tv_vm_run_compute(tv_vm *vm, const tv_vm_program *p, const tv_vm_bindings *b,
                            const tv_vm_compute_params *params, tv_vm_stats *stats,
                            tv_error *err);

/* ---- FRAG --------------------------------------------------------------------------- */

/* A vertex of the primitive that covers the target: window position (pixels; y down from
 * the top row, as the target is stored), depth z, clip w (for perspective), and one vec4
 * per fragment input register IN[i] (raw 32-bit words, normally float bits). */
typedef struct tv_vm_frag_vertex {
    float x, y, z, w;
    uint32_t attr[TV_VM_MAX_ATTRIBS][4];
} tv_vm_frag_vertex;

typedef enum tv_vm_frag_prim {
    TV_VM_PRIM_TRIANGLE = 0, /* vertices 0,1,2 */
    TV_VM_PRIM_RECT = 1      /* 4 vertices: 0 top-left, 1 top-right, 2 bottom-left,
                                3 bottom-right; drawn as triangles (0,1,2) and (2,1,3) */
} tv_vm_frag_prim;

/* A colour target: width*height*samples elements of 4 raw 32-bit words, row-major, samples
 * of a pixel adjacent. NULL = not written. */
typedef struct tv_vm_frag_target {
    uint32_t *data;
} tv_vm_frag_target;

/* What a fragment shader produced for one pixel (or one sample, under sample shading),
 * handed to tv_vm_frag_params.emit: the raw words of each COLOR[i] it wrote, and depth,
 * stencil and sample mask where it wrote them. */
typedef struct tv_vm_frag_output {
    int32_t x, y;
    uint32_t coverage;           /* samples to write: the covered ones, or 1 << sample */
    uint32_t colors;             /* bit i: COLOR[i] written */
    uint32_t color[TV_VM_MAX_COLOR_TARGETS][4];
    bool has_depth, has_stencil, has_sample_mask;
    float depth;                 /* POSITION.z */
    uint32_t stencil;            /* STENCIL.y */
    uint32_t sample_mask;        /* SAMPLEMASK.x */
} tv_vm_frag_output;

/* The same for the live lanes of one 8x4 tile (one pass of it under sample shading), handed
 * to tv_vm_frag_params.emit_warp: lane l is pixel (x[l], y[l]) with coverage[l], lanes
 * 4q .. 4q + 3 the 2x2 quad (x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1) unless
 * `pixels` is set; outputs
 * are per lane (structure of arrays: color[i][c][l] is word c of COLOR[i] in lane l). One
 * call equals emit() on each lane of `live`, in lane order, with a tv_vm_frag_output
 * holding the lane's values (zero words where nothing was written). */
typedef struct tv_vm_frag_warp_output {
    uint32_t live;                                     /* lanes to merge (bit l) */
    const int32_t *x, *y;                              /* [TV_VM_WARP_LANES] */
    const uint32_t *coverage;                          /* [TV_VM_WARP_LANES] */
    uint32_t colors;                                   /* bit i: COLOR[i] written */
    const uint32_t *color[TV_VM_MAX_COLOR_TARGETS][4]; /* NULL: COLOR[i] not written */
    const float *depth;                                /* POSITION.z; NULL: not written */
    const uint32_t *stencil;                           /* STENCIL.y; NULL: not written */
    const uint32_t *sample_mask;                       /* SAMPLEMASK.x; NULL: not written */
    /* the lanes are the 8x4 tile whose top-left pixel is (x[0], y[0]), in the engine's
       tile order (lane 4q + i is pixel i of 2x2 quad q, quads 0-3 the top two rows left
       to right, 4-7 the bottom two; docs/vm-fragments.md §1 "Fragment tiles"): the tile
       walk's warps, whose positions a hook may take from lane 0; false: each lane's own
       (a warp packed from small primitives' quads) */
    bool tile;
    /* true: lanes 4q .. 4q + 3 need not be a 2x2 quad, each lane is at its own (x[l], y[l])
       (a warp packed from covered pixels, for programs whose results need no
       derivatives); false: the quad layout above holds */
    bool pixels;
} tv_vm_frag_warp_output;

/* The tv_vm_frag_output emit() gets for lane L of W: its position and coverage, the colours
 * written, depth, stencil and sample mask (the fields of outputs not written are left as
 * they are: clear OUT once before a loop over lanes). */
void tv_vm_frag_warp_lane(const tv_vm_frag_warp_output *w, unsigned l, tv_vm_frag_output *out);

typedef struct tv_vm_frag_params {
    uint32_t width, height;
    uint32_t samples;            /* 0 or 1 = one sample at the pixel centre */
    uint8_t prim;                /* tv_vm_frag_prim */
    tv_vm_frag_vertex vertices[4];
    bool front_face;             /* SV FACE / IN FACE: +1 front, -1 back */
    uint32_t sample_mask;        /* coverage mask ANDed with the rasterised one; 0 = all */
    uint32_t primitive_id;       /* SV PRIMID */
    bool flatshade;              /* COLOR-interpolated inputs are flat (provoking vertex) */
    bool sample_shading;         /* run once per covered sample with every input
                                    interpolated at the sample's position (GL's minimum
                                    sample shading, Gallium's force_persample_interp) */
    /* COLOR[i] outputs land in color[i] (killed pixels keep the old contents). */
    tv_vm_frag_target color[TV_VM_MAX_COLOR_TARGETS];
    float *depth;                /* width*height*samples; POSITION.z output, NULL = none */
    uint32_t *stencil;           /* width*height*samples; STENCIL.y output (GL: .y) */
    uint32_t *sample_mask_out;   /* width*height; SAMPLEMASK output, NULL = none */
    /* Where FBFETCH reads (per colour target); NULL = read color[i] before the draw. */
    const uint32_t *fbfetch[TV_VM_MAX_COLOR_TARGETS];
    /* Optional: restrict the run to a rectangle of the target (x0,y0 inclusive, x1,y1
     * exclusive); all zero = the whole target. */
    uint32_t scissor[4];
    /* Pipeline hooks (the pipe layer's rasteriser and output merger; NULL: the triangle's
     * own coverage and the stores into color/depth/stencil above). With `coverage` the
     * primitive must be a TRIANGLE (it still gives the interpolation): coverage(user, x, y)
     * returns the samples of pixel (x, y) that are covered (bit s), before sample_mask.
     * With `emit`, each unkilled pixel (or sample) goes to emit(user, out) instead of the
     * targets; with `emit_warp` (which takes precedence), each tile's unkilled lanes go to
     * emit_warp(user, out) at once. All are called from the worker running the pixel's row
     * of tiles. `coverage_warp` (optional, with `coverage`) answers for the lanes of one
     * tile at once: cov[l] for pixel (x[l], y[l]) of each lane in `inside`, the values
     * coverage() gives; the plain interpreter asks coverage() pixel by pixel. */
    uint32_t (*coverage)(void *user, int32_t x, int32_t y);
    void (*coverage_warp)(void *user, const int32_t x[TV_VM_WARP_LANES],
                          const int32_t y[TV_VM_WARP_LANES], uint32_t inside,
                          uint32_t cov[TV_VM_WARP_LANES]);
    /* Optional, with coverage_warp: row_span(user, y0, y1, &x0, &x1) gives columns
     * [x0, x1) outside of which coverage() covers no sample of rows [y0, y1) (x0 >= x1:
     * none). The engine then offers coverage_warp no tile or quad that lies outside: they
     * would have no live lane. */
    void (*row_span)(void *user, int32_t y0, int32_t y1, int32_t *x0, int32_t *x1);
    /* Optional, with row_span: row_inner(user, y0, y1, &x0, &x1) gives columns [x0, x1)
     * in which coverage() covers every sample of every pixel of rows [y0, y1) (x0 >= x1:
     * none; a bound from inside, which may leave such pixels out but never take one in
     * that coverage() would not cover whole). The engine then asks coverage_warp nothing
     * for a tile that lies in those columns: every lane covered, as it would have said. */
    void (*row_inner)(void *user, int32_t y0, int32_t y1, int32_t *x0, int32_t *x1);
    /* Optional, with coverage_warp, for a packed primitive (tv_vm_frag_batch_add): the
     * whole box at once instead of row_span and coverage_warp. coverage_quads(user, box,
     * qx, qy, cov) gets the box's pixels [box[0], box[2]) x [box[1], box[3]) and either
     * returns -1 (the box is not served: the engine asks row_span and coverage_warp) or
     * the number n <= TV_VM_COVERAGE_QUADS_MAX of its 2x2 quads (aligned to even pixels)
     * that have a lane coverage_warp would leave a sample in, in row order (rows of quads
     * top to bottom, each left to right): quad i's top-left pixel (qx[i], qy[i]) and its
     * lanes' coverage cov[4 i + j], j = 0 TL, 1 TR, 2 BL, 3 BR, the value coverage_warp
     * gives for a lane inside the box, 0 for one outside. It has made coverage_warp's
     * side effects (the early tests) for those lanes, and for no other. More quads, or one
     * off the even grid, outside the box or out of row order, fail the add (TV_ERR_ARG). */
    int (*coverage_quads)(void *user, const int32_t box[4], int32_t *qx, int32_t *qy,
                          uint32_t *cov);
    void (*emit)(void *user, const tv_vm_frag_output *out);
    void (*emit_warp)(void *user, const tv_vm_frag_warp_output *out);
    void *hook_user;
} tv_vm_frag_params;

/* Fill `params` with a full-screen rectangle (corners at the target's corners, z = 0,
 * w = 1) and zero attributes; the caller then sets attr[] per vertex. */
void tv_vm_frag_params_fullscreen(tv_vm_frag_params *params, uint32_t width, uint32_t height,
                                  tv_vm_frag_prim prim);

tv_status tv_vm_run_fragment(tv_vm *vm, const tv_vm_program *p, const tv_vm_bindings *b,
                             const tv_vm_frag_params *params, tv_vm_stats *stats,
                             tv_error *err);

/* A batch of fragment runs: a draw's primitives through one program and bindings, whose
 * small primitives share warps. tv_vm_frag_batch_add(B, params, ...) stands for
 * tv_vm_run_fragment(vm, p, b, params, ...), in order, with one difference: when the
 * primitive is packed (the pipeline's coverage_warp and emit hooks, a bounding box of at
 * most 64 quads, no sample shading, a program without INTERP_* and without results that
 * depend on the warp's other lanes — VOTE_*, BALLOT, READ_FIRST, READ_INVOC, CLOCK,
 * SUBGROUP_INVOCATION —, neither a plain engine nor tracing) its covered quads join a warp that may hold the quads of the primitives added
 * before it and after it, so the emit hooks may see its lanes during a later add or
 * tv_vm_frag_batch_flush, beside other primitives' lanes. What stays: the coverage hooks
 * are called for a primitive during its own add, as tv_vm_run_fragment calls them; every
 * lane's inputs, system values and results are those of its own primitive; no two lanes
 * of a warp that the emit hooks get are the same pixel (a quad that covers a pixel a
 * pending lane covers runs the pending warp first), so each pixel's fragments reach the
 * hooks in primitive order. A primitive that is not packed runs the pending warp, then
 * runs as tv_vm_run_fragment would. The caller's part: emit hooks that do not depend on
 * which primitive a lane came from, and the same hooks, hook_user, target, samples and
 * sample mask for every primitive (an add that changes them runs the pending warp first),
 * and bindings whose texture descriptors stay as they were at tv_vm_frag_batch_begin
 * (pending lanes sample them later; and where the program reads no derivative and its
 * implicit-LOD samplings are LOD-free then, tv_tex_lod_free, the batch packs covered
 * pixels instead of quads: no helper lanes, emit_warp's `pixels` set).
 * STATS: what ran during the call (warps, lanes); the limits (tv_vm_set_limits) in force
 * at an add apply to the warps it runs, and a warp it leaves pending runs under them at
 * most (an add with lower limits runs the pending warp first, under the old ones). A
 * failing add or flush leaves nothing pending (what was pending is dropped). */
typedef struct tv_vm_frag_batch tv_vm_frag_batch;

tv_vm_frag_batch *tv_vm_frag_batch_begin(tv_vm *vm, const tv_vm_program *p,
                                         const tv_vm_bindings *b, tv_error *err);
tv_status tv_vm_frag_batch_add(tv_vm_frag_batch *batch, const tv_vm_frag_params *params,
                               tv_vm_stats *stats, tv_error *err);
/* Runs the pending warp (nothing to do: TV_OK). */
tv_status tv_vm_frag_batch_flush(tv_vm_frag_batch *batch, tv_vm_stats *stats, tv_error *err);
/* Frees the batch; a pending warp is dropped (flush first to run it). NULL: no-op. */
void tv_vm_frag_batch_end(tv_vm_frag_batch *batch);

/* ---- VERT --------------------------------------------------------------------------- */

/* A vertex attribute array: element i of IN[r] is `components` 32-bit words at
 * data + offset + i*stride (missing components read (0,0,0,1) with 1 as float 1.0 or
 * integer 1 per `integer`). instance_divisor > 0 steps per instance instead. */
typedef struct tv_vm_vertex_array {
    const void *data;            /* NULL = unbound: reads (0,0,0,1) */
    uint64_t size;               /* bytes available (reads past it return the defaults) */
    uint64_t offset;
    uint32_t stride;             /* bytes */
    uint8_t components;          /* 1..4 */
    bool integer;
    uint32_t instance_divisor;
} tv_vm_vertex_array;

typedef struct tv_vm_vertex_params {
    uint32_t count;              /* vertices per instance */
    uint32_t instances;          /* 0 counts as 1 */
    int32_t base_vertex;         /* SV BASEVERTEX; VERTEXID = base_vertex + i */
    uint32_t base_instance;      /* SV BASEINSTANCE; INSTANCEID = i (GL) */
    uint32_t draw_id;
    const uint32_t *indices;     /* optional index list of `count` entries */
    /* The caller fetched the attributes: vertex i of instance j reads element
     * j*count + i of every array (no index, base vertex or divisor applied). */
    bool fetched;
    tv_vm_vertex_array attribs[TV_VM_MAX_ATTRIBS];  /* per IN[i] */
    /* Outputs: out[r] receives count*instances elements of 4 words for OUT[r] (vertex
     * i of instance j at j*count + i). NULL = not collected. */
    uint32_t *out[TV_VM_MAX_ATTRIBS];
} tv_vm_vertex_params;

tv_status tv_vm_run_vertex(tv_vm *vm, const tv_vm_program *p, const tv_vm_bindings *b,
                           const tv_vm_vertex_params *params, tv_vm_stats *stats,
                           tv_error *err);

/* Whether vertex program P's OUT[r] is its input IN[*e] as it is: P only copies inputs to
 * outputs (MOVs from direct IN to direct OUT registers, no modifiers) and the channels of
 * OUT[r] are IN[*e]'s x, y, z, w in order. A run's out[r] for an input read from an array
 * of four 32-bit components that holds every vertex's element is then those elements'
 * words; a caller may read them from the array instead (and pass out[r] = NULL). Always
 * false for programs created on a plain engine. */
bool tv_vm_vertex_output_copies_input(const tv_vm_program *p, uint32_t r, uint32_t *e);

/* ---- GEOM --------------------------------------------------------------------------- */

typedef struct tv_vm_geometry_params {
    uint32_t num_prims;          /* input primitives */
    /* Per-vertex inputs: in[r] holds elements of 4 words for IN[v][r]; primitive k uses
     * vertices indices[k*n + v] (or k*n + v when indices is NULL), with n from the
     * GS_INPUT_PRIMITIVE property (points 1, lines 2, triangles 3, adjacency 4/6). */
    const uint32_t *in[TV_VM_MAX_ATTRIBS];
    uint32_t num_vertices;       /* elements in each in[r] (bounds) */
    const uint32_t *indices;
    uint32_t primitive_id_base;  /* SV PRIMID = base + k */
    const uint32_t *primitive_ids; /* when set, SV PRIMID of primitive k (tessellated
                                      primitives carry their patch's) */
} tv_vm_geometry_params;

/* Emitted geometry of one stream: vertices (each num_outputs vec4 of raw words, in OUT
 * register order) and primitives (vertex counts, from EMIT/ENDPRIM; a primitive still open
 * at END is closed). Ordered by input primitive, then invocation, then emission. */
typedef struct tv_vm_geometry_stream {
    uint32_t num_vertices;
    uint32_t num_prims;
    uint32_t *vertices;          /* num_vertices * num_outputs * 4 words */
    uint32_t *prim_lengths;      /* num_prims entries */
} tv_vm_geometry_stream;

typedef struct tv_vm_geometry_output {
    uint32_t num_outputs;        /* OUT registers per vertex */
    tv_vm_geometry_stream streams[TV_VM_MAX_STREAMS];
} tv_vm_geometry_output;

tv_status tv_vm_run_geometry(tv_vm *vm, const tv_vm_program *p, const tv_vm_bindings *b,
                             const tv_vm_geometry_params *params, tv_vm_geometry_output *out,
                             tv_vm_stats *stats, tv_error *err);
void tv_vm_geometry_output_free(tv_vm_geometry_output *out);

/* ---- TESS_CTRL ---------------------------------------------------------------------- */

/* One warp per patch, one lane per output vertex (TCS_VERTICES_OUT invocations). Every
 * invocation sees IN[v][r] of the patch's vertices_in vertices (VERTICESIN), INVOCATIONID,
 * PRIMID; it writes its outputs, and reads any invocation's outputs after a BARRIER:
 * at each BARRIER (and at the end) the invocations' writes are merged — a register takes
 * the value of the lowest invocation that changed it since the last merge (GL leaves
 * conflicting writes of one output undefined). */
typedef struct tv_vm_tess_ctrl_params {
    uint32_t num_patches;
    uint32_t vertices_in;        /* 1..TV_VM_MAX_PATCH_VERTICES */
    /* in[r]: elements of 4 words for IN[v][r]; patch k, vertex v is element
     * indices[k*vertices_in + v] (or k*vertices_in + v when indices is NULL) */
    const uint32_t *in[TV_VM_MAX_ATTRIBS];
    uint32_t num_vertices;       /* elements in each in[r] (bounds) */
    const uint32_t *indices;
    uint32_t primitive_id_base;  /* PRIMID = base + k */
} tv_vm_tess_ctrl_params;

/* Per patch, vertices_out blocks of num_outputs vec4 (raw words): block v holds OUT[v][r]
 * of the per-vertex outputs; the patch outputs (declared without a vertex index: PATCH,
 * TESSOUTER, TESSINNER) are in block 0. */
typedef struct tv_vm_tess_ctrl_output {
    uint32_t vertices_out, num_outputs;
    uint32_t *data;
} tv_vm_tess_ctrl_output;

tv_status tv_vm_run_tess_ctrl(tv_vm *vm, const tv_vm_program *p, const tv_vm_bindings *b,
                              const tv_vm_tess_ctrl_params *params,
                              tv_vm_tess_ctrl_output *out, tv_vm_stats *stats, tv_error *err);
void tv_vm_tess_ctrl_output_free(tv_vm_tess_ctrl_output *out);

/* ---- TESS_EVAL ---------------------------------------------------------------------- */

/* Domain points 32 to a warp. Point i belongs to patch patch_of[i] and sits at (u, v) =
 * coords[2i], coords[2i+1]: TESSCOORD = (u, v, 1 - u - v, 0) for TES_PRIM_MODE TRIANGLES,
 * (u, v, 0, 0) otherwise. Inputs: per patch, max(vertices_in, 1) blocks of patch_regs vec4
 * in the TES's IN register order — block v holds IN[v][r], block 0 also the patch inputs
 * (IN[r] without a vertex index). PRIMID = primitive_id_base + patch, VERTICESIN, the
 * patch's levels as TESSOUTER/TESSINNER system values. */
typedef struct tv_vm_tess_eval_params {
    uint32_t num_points;
    const float *coords;
    const uint32_t *patch_of;
    uint32_t num_patches;
    uint32_t vertices_in;        /* 0..TV_VM_MAX_PATCH_VERTICES */
    uint32_t patch_regs;         /* vec4 per block (registers beyond it read 0) */
    const uint32_t *patch_data;
    /* SV TESSOUTER / TESSINNER: 6 floats a patch (outer 0..3, inner 0..1; inner reads
     * (i0, i1, 0, 0)); NULL reads zeros */
    const float *patch_levels;
    uint32_t primitive_id_base;
    /* out[r] receives num_points elements of 4 words for OUT[r]; NULL = not collected */
    uint32_t *out[TV_VM_MAX_ATTRIBS];
} tv_vm_tess_eval_params;

tv_status tv_vm_run_tess_eval(tv_vm *vm, const tv_vm_program *p, const tv_vm_bindings *b,
                              const tv_vm_tess_eval_params *params, tv_vm_stats *stats,
                              tv_error *err);

#ifdef __cplusplus
}
#endif
#endif
