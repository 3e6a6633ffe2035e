/* Internal state of the pipe context (include/texvm/pipe.h). */
#ifndef TEXVM_PIPE_INTERNAL_H
#define TEXVM_PIPE_INTERNAL_H

#include "texvm/pipe.h"
#include "texvm/tex.h"
#include "util/handle_map.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdbool.h>

#define PIPE_MAX_LEVELS 16

typedef struct pipe_resource {
    uint32_t handle;
    tv_pipe_resource_desc desc;
    tv_format format;
    unsigned bw, bh, bytes;            /* block width/height, bytes per block */
    unsigned samples;                  /* 1, or 2/4/8/16: the samples of a pixel are stored
                                          adjacent (a row holds width x samples texels) */
    size_t level_offset[PIPE_MAX_LEVELS], stride[PIPE_MAX_LEVELS],
        layer_stride[PIPE_MAX_LEVELS];
    uint32_t lw[PIPE_MAX_LEVELS], lh[PIPE_MAX_LEVELS], ld[PIPE_MAX_LEVELS]; /* texels; ld: depth or layers */
    size_t size;
    uint8_t *data;
    uint64_t charged;                  /* of the memory quota: the texels and this record */
} pipe_resource;

typedef struct pipe_object {
    unsigned kind;
    uint32_t handle;
    uint32_t *dw;
    size_t ndw;
    char *text;                        /* shaders */
    uint32_t stage;                    /* shaders */
    struct tv_vm_program *prog;        /* shaders: lowered at the first launch */
    tv_pipe_stream_output_info *so;    /* shaders: stream output, NULL: none */
    uint32_t res, format, level, first_layer, last_layer; /* surfaces */
    /* queries (pipe_query.c) */
    uint8_t qtype;
    uint8_t qindex;                    /* the vertex stream (primitive queries) */
    bool qactive;
    uint64_t qcount;                   /* while active: what was counted so far */
    uint64_t qcount2, qresult2;        /* SO_STATISTICS: primitives storage needed */
    uint64_t qbegin_ns, qresult;
    /* stream-output targets: bytes written past the offset, and the vertex stride of the
       last draw that wrote them (DRAW_AUTO's vertex count) */
    uint32_t so_filled, so_stride;
    uint64_t charged;                  /* of the memory quota (pipe_charge): the record,
                                          dwords, text and lowered program */
} pipe_object;

/* Queries counting at once in one sub-context (begin_query refuses more): GL has one per
 * target and vertex stream or counter, about 40 in all; a draw adds to each. */
#define PIPE_MAX_ACTIVE_QUERIES 64

typedef struct pipe_const {
    tv_pipe_buffer_binding ubo;        /* res 0: inline data */
    uint32_t *data;
    size_t ndw;
} pipe_const;

/* What each sub-context has of its own (virgl's sub-contexts: the Gallium contexts of one
 * client, each a GL context): its objects (one handle space) and every bound state.
 * Resources, the engine, limits and quotas are the context's. */
typedef struct pipe_sub {
    uint32_t id;
    tv_handle_map objects;             /* handle -> pipe_object, every kind */
    pipe_object *active[PIPE_MAX_ACTIVE_QUERIES]; /* the queries begun and not ended */
    unsigned nactive;
    uint32_t shader[TV_PIPE_STAGES];   /* bound shader handles */
    tv_pipe_buffer_binding ssbo[TV_PIPE_STAGES][TV_PIPE_MAX_SLOTS];
    tv_pipe_image_binding image[TV_PIPE_STAGES][TV_PIPE_MAX_SLOTS];
    pipe_const consts[TV_PIPE_STAGES][TV_PIPE_MAX_SLOTS];
    tv_pipe_buffer_binding hwatomic[TV_PIPE_MAX_SLOTS];   /* every stage's HWATOMIC[i] */
    uint32_t bound[TV_PIPE_OBJ_COUNT];
    unsigned nr_cbufs;
    uint32_t cbufs[TV_PIPE_MAX_CBUFS], zsbuf;
    uint32_t noatt_w, noatt_h, noatt_layers, noatt_samples; /* without attachments, 0: none */
    /* graphics state (pipe_state.c), read by draws */
    tv_pipe_blend_state blend;
    tv_pipe_dsa_state dsa;
    tv_pipe_rasterizer_state rast;
    unsigned num_elements;
    tv_pipe_vertex_element elements[TV_PIPE_MAX_ATTRIBS];
    tv_pipe_vertex_buffer vbufs[TV_PIPE_MAX_ATTRIBS];
    uint32_t index_res, index_offset;
    tv_pipe_viewport viewports[TV_PIPE_MAX_VIEWPORTS];
    tv_pipe_scissor scissors[TV_PIPE_MAX_VIEWPORTS];
    tv_pipe_sampler_view views[TV_PIPE_STAGES][TV_PIPE_MAX_SAMPLERS];
    tv_pipe_sampler_state samplers[TV_PIPE_STAGES][TV_PIPE_MAX_SAMPLERS];
    uint8_t stencil_ref[2];
    float blend_color[4];
    uint32_t sample_mask;
    uint32_t min_samples;              /* > 1: shade per sample (GL's sample shading) */
    float tess_outer[4], tess_inner[2];/* levels of draws without a TESS_CTRL shader */
    float ucp[8][4];
    uint32_t stipple[32];              /* polygon stipple rows (tv_pipe_set_polygon_stipple) */
    tv_pipe_so_target so[TV_PIPE_MAX_SO_BUFFERS];   /* res 0: unbound */
    uint32_t so_filled[TV_PIPE_MAX_SO_BUFFERS];     /* bytes written past its offset */
    uint32_t so_stride[TV_PIPE_MAX_SO_BUFFERS];     /* bytes a vertex, as last written */
    uint32_t render_cond;              /* a query handle, 0: none */
    bool render_cond_inverted;
} pipe_sub;

/* The per-draw arrays a context keeps (pipe_scratch.c): blocks of at least MIN bytes, at
 * most SLOTS of them and KEEP bytes in all. */
#define PIPE_SCRATCH_MIN ((size_t)256 << 10)
#define PIPE_SCRATCH_SLOTS 32
#define PIPE_SCRATCH_KEEP ((size_t)64 << 20)

/* A kept block's header; its bytes follow, aligned as malloc's. */
typedef union scratch_head {
    size_t cap;                        /* the bytes after the header */
    max_align_t align;
} scratch_head;

/* At most this many sub-contexts in a context (sub-context 0 included). */
#define PIPE_MAX_SUBS 64

struct tv_pipe_ctx {
    pipe_sub sub;                      /* the current sub-context */
    pipe_sub *others;                  /* the others, switched out (pipe_sub.c) */
    unsigned nothers;
    struct tv_vm *vm;                  /* created at the first launch_grid or draw */
    /* the engines and workers of draws in bands (pipe_draw_bands.c): worker k > 0 runs on
       band_vm[k - 1], worker 0 on vm; created at the first such draw */
    struct tv_vm *band_vm[63];
    struct tv_threadpool *band_pool;
    bool plain;                        /* the engine's plain interpreter */
    bool no_wide_kernels;              /* the pipeline's AVX-512 kernels off (util/cpu_isa.h;
                                          tests: the general paths a machine without it
                                          takes) */
    bool flush_denormals;              /* tv_pipe_set_shader_rules */
    bool fine_derivatives;
    uint32_t threads;                  /* the engine's workers (tv_pipe_set_threads), 0: 1 */
    /* per row of 8x4 tiles of a draw's fragment runs (pipe_draw_tri.c): kept across
       draws, grown to the tallest framebuffer */
    struct draw_row *rows;
    uint32_t nrows;
    uint64_t tri_gen;                  /* numbers the shaded primitives (row memos) */
    /* large per-draw arrays kept for the next draws (pipe_scratch.c) */
    scratch_head *scratch[PIPE_SCRATCH_SLOTS];
    unsigned nscratch;
    size_t scratch_bytes;
    uint64_t max_instructions;         /* per warp, 0: MAX_WARP_INSTRUCTIONS */
    uint64_t max_work;                 /* warps x per-warp budget of a launch, 0: default */
    /* the memory quota: resources' texels and records, objects with their dwords, shader
       text and lowered programs, inline constant data (pipe_ctx.c pipe_charge) */
    uint64_t max_memory, used;
    tv_handle_map resources;           /* handle -> pipe_resource */
    uint64_t total_work, total_left;   /* the context's total work quota (0: none) */
    uint64_t vm_warp_limit;            /* the per-warp limit pipe_work_begin last gave vm
                                          (0: none yet) */
    char error[256];
};

/* Instructions per warp before a runtime fault, unless the client set a limit. */
#define PIPE_MAX_WARP_INSTRUCTIONS 100000000ull
/* The least per-warp budget a run may be given under a work quota (pipe_work.c). */
#define PIPE_MIN_WARP_INSTRUCTIONS 4096ull
/* The work quota of a launch or draw (pipe_work.c): warps x per-warp budget. Before each
 * engine run of WARPS warps, with LEFT warp instructions left: set the engine's budget, or
 * fail (named) when even the minimum per warp does not fit; after it, take off what ran. */
struct tv_vm_stats;
uint64_t pipe_work_quota(const tv_pipe_ctx *ctx);
/* A draw within *WORK_LEFT of a work quota (what it used is taken off). */
int pipe_draw(tv_pipe_ctx *ctx, const tv_pipe_draw_info *info, uint64_t *work_left);
int pipe_work_begin(tv_pipe_ctx *ctx, const char *op, uint64_t warps, uint64_t left);
/* Whether a run of WARPS warps could still begin within LEFT (and the context's total
 * quota): for work made before its run, checked while it is made (tessellated points). */
bool pipe_work_fits(const tv_pipe_ctx *ctx, uint64_t warps, uint64_t left);
void pipe_work_end(tv_pipe_ctx *ctx, uint64_t *left, uint64_t warps,
                   const struct tv_vm_stats *st);
/* An operation OP that moves BYTES without running a shader (clear, copy, blit,
 * transfer): one warp instruction per 128 bytes and 64 per operation off the context's
 * total quota, if it has one (a named error, nothing taken, when that is used up): a
 * submit of a million clears of a large surface runs out as a million draws would. */
int pipe_work_bytes(tv_pipe_ctx *ctx, const char *op, uint64_t bytes);
/* The same for work counted in warp instructions of the total quota directly. */
int pipe_work_units(tv_pipe_ctx *ctx, const char *op, uint64_t units);

/* Per-draw arrays kept across draws (pipe_scratch.c): get BYTES (uninitialised, possibly
 * the bytes of an earlier draw; NULL when out of memory), put back (NULL: nothing),
 * release every kept block (the context's end). The context's own thread only. */
void *pipe_scratch_get(tv_pipe_ctx *ctx, size_t bytes);
void pipe_scratch_put(tv_pipe_ctx *ctx, void *p);
void pipe_scratch_release(tv_pipe_ctx *ctx);

struct tv_vm_bindings;
struct tv_vm_buffer;
/* The context's engine, created at its first use (NULL and the reason set on failure). */
struct tv_vm *pipe_vm(tv_pipe_ctx *ctx, const char *op);
/* The engine of band worker K (0: the context's, pipe_vm) and the workers that walk a
 * draw's bands (ctx->threads of them), created at their first use (NULL and the reason
 * set on failure). */
struct tv_vm *pipe_band_vm(tv_pipe_ctx *ctx, unsigned k, const char *op);
struct tv_threadpool *pipe_band_pool(tv_pipe_ctx *ctx, const char *op);
/* Lower shader object O's TGSI once (needs pipe_vm first); -1 with the reason. */
int pipe_shader_program(tv_pipe_ctx *ctx, pipe_object *o, const char *op);
/* Bytes [offset, offset + size) of resource RES as an engine buffer, checked. */
int pipe_range(tv_pipe_ctx *ctx, const char *op, const char *what, uint32_t slot,
               uint32_t res, uint64_t offset, uint64_t size, struct tv_vm_buffer *out);
/* The name of shader stage STAGE (TV_PIPE_STAGE_*) in messages: "vertex", "fragment", ... */
const char *pipe_stage_name(unsigned stage);
/* The bindings of shader stage STAGE (SSBOs, images, constant buffers), checked. */
int pipe_stage_bindings(tv_pipe_ctx *ctx, unsigned stage, const char *op,
                        struct tv_vm_bindings *b);

/* The texture unit a stage's shader samples through: views and samplers of STAGE laid
 * out as descriptors and texels in the unit's memory (pipe_sampler.c). Free with
 * pipe_textures_free. */
typedef struct pipe_textures {
    struct tv_memory *mem;
    struct tv_tex_unit *unit;
    uint8_t *host;
    size_t size;
    tv_pipe_ctx *ctx;                  /* the memory quota HELD is taken from */
    uint64_t held;
} pipe_textures;
int pipe_textures_build(tv_pipe_ctx *ctx, unsigned stage, const char *op, uint32_t slots,
                        pipe_textures *t);
/* The same for the slots PROG declares (SVIEW[i] or SAMP[i]); T stays empty (no unit) when it
 * declares none. A view bound in a slot the program does not declare is not looked at: Mesa's
 * virgl driver leaves views bound past the ones a draw sets (unbinding them only in its own
 * state), and their resources may since have been destroyed. */
struct tv_vm_program;
int pipe_textures_for(tv_pipe_ctx *ctx, unsigned stage, const char *op,
                      const struct tv_vm_program *prog, pipe_textures *t);
void pipe_textures_free(pipe_textures *t);

/* Queries (pipe_query.c): add what a draw counted to the active queries, and whether
 * conditional rendering lets an operation run (false: skip it; -1 on an error). */
void pipe_queries_count(tv_pipe_ctx *ctx, uint64_t samples_passed, uint64_t primitives);
/* Whether any query is counting (a draw that writes nothing still counts primitives). */
bool pipe_queries_active(const tv_pipe_ctx *ctx);
/* Primitives generated / written to stream output on vertex stream STREAM, and whether a
 * primitive of it did not fit (overflow). */
void pipe_queries_count_stream(tv_pipe_ctx *ctx, unsigned stream, uint64_t generated,
                               uint64_t emitted);
void pipe_queries_count_overflow(tv_pipe_ctx *ctx, unsigned stream);
/* Pipeline statistics: N[i] adds to counter i (TV_PIPE_STAT_*). */
void pipe_queries_count_stats(tv_pipe_ctx *ctx, const uint64_t n[TV_PIPE_STATS]);
int pipe_render_condition_passes(tv_pipe_ctx *ctx, const char *op);

/* Sub-context ID with a default GL context's state and no objects (pipe_sub.c). */
void pipe_sub_init(pipe_sub *s, uint32_t id);
/* Free S's objects and inline constant data (their quota given back to CTX). */
void pipe_sub_free(tv_pipe_ctx *ctx, pipe_sub *s);
/* Free O, which is in no map any more, and give back its quota. */
void pipe_object_free(tv_pipe_ctx *ctx, pipe_object *o);
/* Whether BYTES more fit in the memory quota beside what the context holds (pipe_charge
 * and pipe_charge_temp take them only then). */
bool pipe_charge_fits(const tv_pipe_ctx *ctx, uint64_t bytes);
/* Take BYTES of the memory quota for WHAT (a named error when they do not fit: nothing
 * taken), or give them back (pipe_uncharge). */
int pipe_charge(tv_pipe_ctx *ctx, uint64_t bytes, const char *what, uint32_t handle);
void pipe_uncharge(tv_pipe_ctx *ctx, uint64_t bytes);
/* The temporary memory of one operation OP (a draw's or launch's arrays, the sampler views
 * placed for it): BYTES of WHAT taken from the same quota before they are allocated, added
 * to *HELD, which the operation gives back (pipe_uncharge) when it ends; a named error
 * when they do not fit beside what the context holds (nothing taken). */
int pipe_charge_temp(tv_pipe_ctx *ctx, uint64_t *held, uint64_t bytes, const char *op,
                     const char *what);
/* Stop counting query O, if it is (end_query, destroy). */
void pipe_query_deactivate(pipe_sub *s, pipe_object *o);

/* Slots START..START+N-1 of a table of MAX (WHAT: "slots", "viewports", ...) for operation
 * OP: 0 when inside, else -1 with the reason. */
int pipe_slots_check(tv_pipe_ctx *ctx, const char *op, const char *what, unsigned start,
                     unsigned n, unsigned max);

int pipe_fail(tv_pipe_ctx *ctx, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
pipe_resource *pipe_resource_find(const tv_pipe_ctx *ctx, uint32_t handle);
/* The resource surface S (handle SURF) views, looked up again where it is used: a client
 * may destroy the resource and create another under the same handle since the surface was
 * made, so the surface's format must still view it (the block test of
 * tv_pipe_surface_create); NULL with the error set ("WHAT: ...") otherwise. */
pipe_resource *pipe_surface_resource(tv_pipe_ctx *ctx, const pipe_object *s,
                                     uint32_t surf, const char *what);
pipe_object *pipe_object_find(const tv_pipe_ctx *ctx, unsigned kind, uint32_t handle);
tv_format pipe_format_lookup(uint32_t format);
/* Check a box against a level; 0 if inside. */
int pipe_box_check(tv_pipe_ctx *ctx, const pipe_resource *r, uint32_t level,
                   const tv_pipe_box *box, const char *what);

#endif
