/* A draw in flight (issue 16): what pipe_draw.c (validation, framebuffer, vertex fetch
 * and shading, primitive assembly), pipe_draw_tri.c (clipping, set-up, fragment shading;
 * pipe_draw_tri_rows.c the rows a triangle may cover) and pipe_draw_om.c (the output merger on each shaded pixel) share. docs/pipeline.md
 * §Draws. */
#ifndef TEXVM_PIPE_DRAW_H
#define TEXVM_PIPE_DRAW_H

#include "pipe_clip.h"
#include "pipe_internal.h"
#include "pipe_om.h"
#include "pipe_raster.h"

#include "texvm/vm.h"

#include <string.h>

#define DRAW_MAX_VARYINGS TV_VM_MAX_ATTRIBS
/* The floats of a clip vertex at most: position, distances, attributes and back colours,
 * point size. */
#define DRAW_MAX_CLIP_FLOATS (4 + CLIP_MAX_DISTANCES + 8 * DRAW_MAX_VARYINGS + 1)

typedef struct draw_cbuf {
    uint8_t *base;                 /* texel (0, 0) of the surface's first layer */
    size_t stride, layer_stride;
    om_target t;
    om_tile_blend tile;            /* whole tiles' blend (pipe_om_blend_tile.c), if served */
} draw_cbuf;

/* Where fragment shader input IN[r] comes from. */
typedef struct draw_link {
    bool used;
    int8_t vs_out;                 /* VS output register, -1: none (zeros) */
    int8_t bcolor_out;             /* back-face colour output (two-sided lighting), -1 */
    bool flat;                     /* the provoking vertex's value, not interpolated */
    bool primid;                   /* PRIMID input: the primitive ID */
    bool sprite;                   /* PCOORD, or a TEXCOORD replaced on point sprites */
    bool noperspective;            /* LINEAR: screen-space interpolation, clipping too */
    uint8_t slot;                  /* interpolated: its vec4 in the clip vertex */
} draw_link;

/* A fragment input row of a triangle drawn by draw_triangle's direct path: the link's
 * output words, its flat value, or zeros (link_shaders lists the used links' rows). */
enum { DRAW_ROW_OUTPUT, DRAW_ROW_FLAT, DRAW_ROW_ZERO };
typedef struct draw_direct_row {
    uint8_t attr;                  /* tv_vm_frag_vertex.attr row (the FS input register) */
    uint8_t kind;                  /* DRAW_ROW_* */
    int8_t vs_out;                 /* DRAW_ROW_OUTPUT: the output register */
} draw_direct_row;

/* A primitive of the assembled draw: shaded-vertex slots (per instance). With a geometry
 * shader bound, the assembled primitives keep their adjacent vertices (its input, up to 6);
 * the primitives it emits are points, lines and triangles again. */
#define DRAW_TRI_MAX 6
typedef struct draw_tri {
    uint8_t n;                     /* 1 point, 2 line, 3 triangle (4, 6: adjacency) */
    uint32_t v[DRAW_TRI_MAX];
    uint32_t provoking;            /* a slot */
    uint32_t id;                   /* primitive ID */
    bool first;                    /* first of its strip (lines: the stipple restarts) */
} draw_tri;

/* The exact shape of an antialiased primitive being shaded (pipe_draw_aa.c). */
enum { DRAW_AA_NONE, DRAW_AA_CIRCLE, DRAW_AA_POLYGON };
typedef struct draw_aa {
    int kind;
    double cx, cy, r;              /* circle: centre and radius, window pixels */
    double x[4], y[4];             /* convex polygon */
    unsigned n;
} draw_aa;

/* When depth and stencil are tested: after the fragment shader, before it because the
 * shader asks (FS_EARLY_DEPTH_STENCIL), or before it because nothing can tell. */
enum { DRAW_ZS_LATE, DRAW_ZS_EARLY_ASKED, DRAW_ZS_EARLY_SAME };

/* What the fragment hooks keep per row of 8x4 tiles: the engine gives each row of a run
 * to one worker, so rows may run on several workers at once without sharing anything.
 * The early depth/stencil results of the tile last tested in the row (valid while gen is
 * the primitive's number), and the samples that passed since the run began. */
typedef struct draw_row {
    uint64_t memo_gen;
    int32_t memo_tx;
    uint32_t memo_done, memo_cov[32];
    uint64_t passed;
} draw_row;

typedef struct draw_state {
    tv_pipe_ctx *ctx;
    const tv_pipe_draw_info *info;
    /* framebuffer */
    int32_t width, height;
    unsigned samples;              /* of every attachment (0 until the first is bound) */
    unsigned nr_cbufs;
    draw_cbuf cb[TV_PIPE_MAX_CBUFS];
    bool cb_bound[TV_PIPE_MAX_CBUFS];
    bool avx512;                   /* the machine has AVX-512F (util/cpu_isa.h, asked
                                      once a draw): the early depth test's and the box
                                      coverage's kernels, written for it alone */
    bool avx2;                     /* it has AVX2: the box early test's other kernel */
    bool has_zs;
    uint8_t *zbase;
    size_t zstride, zlayer_stride;
    uint32_t layers;               /* of the framebuffer: the fewest of its surfaces */
    int layer_out;                 /* the last vertex stage's LAYER output, -1 */
    int vp_out;                    /* its VIEWPORT_INDEX output, -1 */
    uint32_t vp_index;             /* the viewport (and scissor) d->vp, d->rules hold */
    uint32_t layer;                /* of the primitive being drawn */
    om_zs_target zs;
    /* shaders */
    tv_vm_program *vs, *fs, *gs;   /* gs: NULL when none is bound */
    tv_vm_program *tcs, *tes;      /* NULL when not bound (a TES makes patches drawable) */
    unsigned mode;                 /* the topology the stages after tessellation see */
#define DRAW_STAGES 5
    pipe_textures tex[DRAW_STAGES]; /* VS, FS, GS, TCS, TES texture units (when they
                                       sample) */
    tv_vm_bindings fsb;
    bool color0_all;               /* FS_COLOR0_WRITES_ALL_CBUFS */
    /* shaded vertices: slots x instances, output r of the last vertex stage at out[r] (after
     * a geometry shader: its emitted vertices, one instance) */
    uint32_t slots, instances;
    uint32_t *out[TV_VM_MAX_ATTRIBS];
    /* words from one vertex's out[r] to the next: 4, or the vertex buffer's stride where
       out[r] is read in place (bit r of out_in_place: a pass-through vertex shader's
       output that is an input as it is, shade_vertices; not the draw's to give back) */
    uint32_t out_step[TV_VM_MAX_ATTRIBS];
    uint64_t out_in_place;
    bool out_kept;                 /* out[] are the context's kept blocks (pipe_scratch.c):
                                      the vertex stage's; else malloc's (GS, tessellation) */
    int pos_out, clipvertex_out, clipdist_out[2], psize_out;
    unsigned num_clip, num_cull;   /* CLIPDIST components: clip first, then cull */
    bool ucp;                      /* legacy user planes from CLIPVERTEX or POSITION */
    int pcoord_in;                 /* FS input register of PCOORD (point sprites), -1 */
    /* fragment inputs */
    draw_link link[DRAW_MAX_VARYINGS];
    unsigned nfs_in, nslots, stride; /* clip vertex: 4 + 8 + 4 * nslots floats (twice
                                        that with back colours), then the point size */
    unsigned psize_at;             /* the clip vertex's point size (0: none), for polygons
                                      drawn as points with per-vertex sizes */
    unsigned frag_attrs;           /* 1 + the highest FS input register: the rows of
                                      tv_vm_frag_vertex.attr (and flat values) in use */
    bool twoside;                  /* the clip vertex holds back colours (after the slots) */
    /* triangles the guard band holds whole may skip the clip vertex (draw_triangle's
       direct path): no clip or cull distances, no back colours, both faces filled, no
       polygon antialiasing, not the plain reference (setup_clip) */
    bool tri_direct;
    draw_direct_row direct[DRAW_MAX_VARYINGS];   /* its rows, direct_n of them */
    unsigned direct_n;
    bool direct_flat;              /* one of them is flat (draw_flat_values is needed) */
    /* the fragment run's parameters (draw_run_fragments), its vertices written first */
    tv_vm_frag_params fp;
    /* what fp's fields but the vertices and the primitive's own were made of (run_prepared;
       all zero: not made yet) */
    uint32_t fp_made_of[5];
    bool clip_clear;               /* a slot of the clip vertex belongs to no link (an input
                                      declared twice): draw_clip_vertex clears it whole */
    clip_state clip;
    clip_viewport vp;
    raster_rules rules;            /* clip: prim_clip or tri_clip, per primitive */
    /* pixels x0, y0, x1, y1 a primitive may reach: the framebuffer and scissor; for
     * triangles also the viewport's rectangle (the guard band leaves triangles unclipped
     * in x and y, and GL clips them to the viewport) */
    int32_t prim_clip[4], tri_clip[4];
    /* multisample rasterisation off (the rasterizer's multisample) on a multisampled
     * framebuffer: coverage is taken at the pixel centre and fills every sample, this
     * mask (GL 4.6 §14.3.1); 0 otherwise */
    uint32_t cov_fill;
    /* the triangle being shaded (read by the hooks) */
    raster_tri rt;
    bool front;
    bool offset_enable;            /* the triangle's own polygon offset applies (filled) */
    double zx, zy, z0, zpx, zpy;   /* window depth plane z = z0 + zx (x - zpx) + zy (y - zpy) */
    float zoffset, zmin, zmax;     /* polygon offset, depth clamp range */
    float mode_zoffset;            /* the offset of a polygon drawn as lines or points */
    bool stipple;                  /* a filled polygon under polygon stipple */
    draw_aa aa;                    /* kind DRAW_AA_NONE unless antialiased */
    /* line stipple (pipe_draw_point_line.c): the counter carried along a strip, and the
     * line being shaded (its major axis, where its fragments start, which way they run) */
    uint32_t lstip_count;
    bool lstip_on, lstip_ymajor;
    int32_t lstip_first, lstip_dir;
    uint8_t zs_early;              /* DRAW_ZS_* (draw_om_choose_zs) */
    uint64_t tri_gen;              /* the primitive being shaded (ctx->tri_gen) */
    uint64_t gen_step;             /* what the next primitive adds to ctx->tri_gen (1; the
                                      workers of bands, each on its own numbers: W) */
    /* bands (pipe_draw_bands.c): band_n workers, of which this is band_k, shade the
       stripes of 2^band_shift rows s with s % band_n == band_k (band_n 0: all rows) */
    uint32_t band_n, band_k, band_shift;
    uint32_t band_stripe;          /* the stripe of the run being made */
    bool band_counts;              /* this run counts its primitive (C_PRIMITIVES) */
    /* the job's primitives come through its bit of the band masks (pipe_draw_bands.c),
       which hold draw_triangle's own row test for each: it is not made again */
    bool band_masked;
    bool frag_parallel;            /* its fragment runs may use several workers: the
                                      shader touches no memory and samples no attachment */
    /* small triangles' fragments share warps (tv_vm_frag_batch, draw_run_fragments): when
       the merger needs nothing of the triangle a lane came from (batch_ok); the rows of
       tiles whose pass counts the pending warp may still add to: [batch_r0, batch_r1] */
    bool batch_ok;
    tv_vm_frag_batch *batch;
    int32_t batch_r0, batch_r1;
    uint64_t work_left;            /* of the draw's work quota (pipe_work.c) */
    /* of the memory quota, given back at the draw's end (pipe_charge_temp): the draw's
       arrays, and apart the bytes of out[] (given back with them, draw_out_release) */
    uint64_t held, out_held;
    bool quota_failed;             /* a charge failed: the error names it */
    uint64_t stat[TV_PIPE_STATS];  /* pipeline statistics of the draw (TV_PIPE_STAT_*) */
    uint64_t fragments;
    uint64_t samples_passed;       /* through depth and stencil (occlusion queries) */
    /* stream output (pipe_so.c) */
    const tv_pipe_stream_output_info *so;
    bool so_stopped[TV_PIPE_MAX_STREAMS]; /* a primitive did not fit: no more this draw */
    uint64_t so_prims[TV_PIPE_MAX_STREAMS]; /* primitives written, per vertex stream */
} draw_state;

/* A zeroed primitive appended to the growing list *TRIS (*N used, *CAP allocated), its
 * growth charged to D's memory quota first; NULL when out of memory or over the quota
 * (then D->quota_failed, the error set). */
draw_tri *draw_tri_push(draw_state *d, draw_tri **tris, size_t *n, size_t *cap);
/* BYTES of WHAT for draw D, taken from the memory quota until the draw ends
 * (pipe_charge_temp); -1 named (and D->quota_failed) when they do not fit. */
int draw_charge(draw_state *d, uint64_t bytes, const char *what);

/* A draw's assembled primitives (pipe_draw_assemble.c); the caller frees tris, patch,
 * keys, vals and ids. */
typedef struct draw_assembly {
    draw_state *d;
    draw_tri *tris;
    size_t ntris, cap;
    /* indexed draws: vertex ID -> slot (open addressing), and the IDs in slot order */
    uint32_t *keys, *vals, mask;
    uint32_t *ids;
    uint32_t nids;
    bool indexed, failed;
    bool whole;                    /* keep every vertex (a geometry shader's input) */
    uint32_t *patch;               /* patches: every patch's vertex slots, in order */
    size_t npatch, patch_cap;      /* (in slots) */
    /* an implicit list (list_k != 0, tris NULL): primitive p of a non-indexed list of
       points, lines or triangles is vertices list_k p .. list_k p + list_k - 1, provoking
       list_mul p + list_add (draw_assembly_prim builds it where it is read) */
    uint8_t list_k;
    uint32_t list_mul, list_add;
} draw_assembly;

/* Primitive P of A: its entry in the list, or for an implicit list the entry the list
 * would hold, built in *TMP (valid while TMP is). */
static inline const draw_tri *draw_assembly_prim(const draw_assembly *a, size_t p,
                                                 draw_tri *tmp)
{
    if (!a->list_k)
        return &a->tris[p];
    memset(tmp, 0, sizeof *tmp);
    tmp->n = a->list_k;
    for (unsigned j = 0; j < a->list_k; j++)
        tmp->v[j] = a->list_k * (uint32_t)p + j;
    tmp->provoking = a->list_mul * (uint32_t)p + a->list_add;
    tmp->id = (uint32_t)p;
    tmp->first = true;
    return tmp;
}

/* The draw's primitives into A (zeroed first; the caller frees it even on failure);
 * 0, or -1 with the context's error set. */
int draw_assemble(draw_state *d, draw_assembly *a);

/* Shaded vertices x instances of one draw (and its vertex count, checked first), and their
 * memory (fetched inputs and outputs). */
#define MAX_DRAW_VERTICES (1u << 24)
#define MAX_DRAW_BYTES (512ull << 20)
/* The vertex shader run over the draw's distinct vertex slots and instances
 * (pipe_draw_vertex.c): its outputs in d->out[]; FETCHED[e] gets the fetched element e
 * (pipe_scratch, the caller's to give back). 0, or -1 with the context's error set. */
int draw_shade_vertices(draw_state *d, const draw_assembly *a, uint32_t **fetched);
/* Whether program P touches memory (LOAD, STORE, ATOM*: on several workers their order
 * would be the workers'). */
bool draw_touches_memory(const tv_vm_program *p);
/* Whether the framebuffer's attachments lie in the SIZE bytes at DATA. */
bool draw_written_by_framebuffer(const draw_state *d, const void *data, uint64_t size);

/* A shader's property NAME (0 when absent); its output register of (SEM, INDEX), -1. */
uint32_t draw_prop(const tv_tgsi_program *p, unsigned name);
int draw_output_reg(const tv_tgsi_program *p, unsigned sem, uint32_t index);

/* Tessellation (pipe_draw_tess.c): the NPATCHES patches of PATCH_SLOTS (vertices_per_patch
 * shaded-vertex slots each) through the TESS_CTRL shader (or the default levels), the
 * tessellator and the TESS_EVAL shader, for every instance; the evaluated points become the
 * draw's vertices (one instance) and *TRIS its primitives (d->mode their topology). */
int draw_tessellation(draw_state *d, const uint32_t *patch_slots, size_t npatches,
                      draw_tri **tris, size_t *ntris);

/* Run the geometry shader over the assembled primitives *TRIS (all instances) and replace
 * them, and the shaded vertices, by what it emitted on stream 0 (pipe_draw_gs.c). */
int draw_geometry(draw_state *d, draw_tri **tris, size_t *ntris);

/* Shade, clip, rasterise and merge triangle T of instance INST; -1 with the reason. */
int draw_triangle(draw_state *d, uint32_t inst, const draw_tri *t);
/* Primitive T of instance INST after assembly: its stream output (SO), then (unless
 * DISCARD) its layer, viewport and rasterisation. */
int draw_primitive(draw_state *d, uint32_t inst, const draw_tri *t, bool so, bool discard);
/* Stripe heights of the bands, in pixels, least and most: whole numbers of the engine's
 * 8x4 tiles (draw_bands picks one per draw). */
#define DRAW_BAND_ROWS 32
#define DRAW_BAND_ROWS_MAX 128
/* Whether the draw's primitives may be walked by several workers in bands, and the walk
 * (pipe_draw_bands.c); 0, or -1 with the first failure's reason. */
bool draw_bands_usable(const draw_state *d, const draw_assembly *a, bool so, bool discard);
int draw_bands(draw_state *d, const draw_assembly *a);
/* The pixels (columns box[0]..box[2], rows box[1]..box[3]) of the draw's triangle clip
 * rectangle triangle T of instance INST may cover, from its vertices' window positions
 * (the whole rectangle when one has w <= 0); box[0] > box[2] or box[1] > box[3] when
 * none. */
void draw_tri_box(const draw_state *d, uint32_t inst, const draw_tri *t, int32_t box[4]);
/* The rows box[1], box[3] of draw_tri_box in rows[0], rows[1]. */
void draw_tri_rows(const draw_state *d, uint32_t inst, const draw_tri *t, int32_t rows[2]);
#if defined(__GNUC__) && defined(__x86_64__)
/* Those rows of triangles T0 .. T0 + 15 of A (each of three vertices) in LO[l], HI[l]:
 * on a CPU with AVX-512F only (draw_state.avx512), and only where tri_clip[3] >
 * INT32_MIN. */
void draw_tri_rows16(const draw_state *d, uint32_t inst, const draw_assembly *a, size_t t0,
                     int32_t lo[16], int32_t hi[16]);
#endif

/* Bands: the job of N whose stripe S is (S mod N: a mask for the usual powers of two, a
 * division at every triangle otherwise) */
static inline uint32_t draw_band_of_n(uint32_t n, uint32_t s)
{
    return (n & (n - 1)) == 0 ? s & (n - 1) : s % n;
}

/* ... of this draw's band_n */
static inline uint32_t draw_band_of(const draw_state *d, uint32_t s)
{
    return draw_band_of_n(d->band_n, s);
}

/* This job's first stripe from stripe S on (S >= 0); its next ones every band_n */
static inline int64_t draw_first_own_stripe(const draw_state *d, int64_t s)
{
    const uint32_t o = draw_band_of(d, (uint32_t)s), k = d->band_k;
    return s + (k >= o ? k - o : k + d->band_n - o);
}

/* Whether rows Y0..Y1 (none where Y0 > Y1) meet a stripe of this job's */
static inline bool draw_band_rows_mine(const draw_state *d, int32_t y0, int32_t y1)
{
    if (y0 > y1)
        return false;
    return draw_first_own_stripe(d, y0 >> d->band_shift) <= y1 >> d->band_shift;
}
/* Points and lines (pipe_draw_point_line.c): T's first one or two vertices. */
int draw_point(draw_state *d, uint32_t inst, const draw_tri *t);
int draw_line(draw_state *d, uint32_t inst, const draw_tri *t);
/* A window-space line from clip vertex V0 at window P0 to V1 at P1, and a point of SIZE
 * pixels at WIN (also polygon modes LINE and POINT: FRONT is then the polygon's facing). */
int draw_window_line(draw_state *d, const float *v0, const float *p0, const float *v1,
                     const float *p1, const uint32_t flat[DRAW_MAX_VARYINGS][4], uint32_t id,
                     bool front);
int draw_window_point(draw_state *d, const float *v, const float *win, float size,
                      const uint32_t flat[DRAW_MAX_VARYINGS][4], uint32_t id, bool front);
/* The point size of SLOT: PSIZE when per vertex, else the state's; clamped to [1, 255]. */
float draw_point_size(const draw_state *d, uint32_t inst, uint32_t slot);
/* SIZE clamped to the aliased point size range, [1, 255] (NaN: 1). */
float draw_clamp_point_size(float size);

/* Stream output (pipe_so.c): whether INFO and the bound targets make it run; write
 * primitive T of instance INST of vertex stream STREAM (the outputs of that stream; -1 with
 * the reason). */
bool pipe_so_active(const tv_pipe_ctx *ctx, const tv_pipe_stream_output_info *info);
/* Copy the bound slots' fill levels and strides into their target objects; DRAW_AUTO's
 * vertex count of target object HANDLE (-1 named when there is none). */
void pipe_so_save(tv_pipe_ctx *ctx);
int pipe_so_auto_count(tv_pipe_ctx *ctx, uint32_t handle, uint32_t *count);
int draw_stream_output(draw_state *d, unsigned stream, uint32_t inst, const draw_tri *t);

/* Shared by the primitive kinds (pipe_draw_tri.c): VS output REG of SLOT; the clip vertex
 * of SLOT (d->stride floats); the fragment-stage vertex of clip vertex V at window
 * position WIN with the flat values FLAT; the flat values of a primitive; set-up, shading
 * and merging of one window-space triangle. */
static inline const uint32_t *draw_vs_out(const draw_state *d, int reg, uint32_t inst,
                                          uint32_t slot)
{
    return d->out[reg] + ((uint64_t)inst * d->slots + slot) * d->out_step[reg];
}
/* Every out[r] given back (to the context's scratch or freed) and set to NULL. */
void draw_out_release(draw_state *d);
/* Clipping interpolates in clip space; a noperspective input must be screen-linear, which
 * interpolating value·w in clip space and dividing by the new w gives. Before clipping
 * (ORIG NULL) scale the N clip vertices at V by w; after it, divide the new vertices by
 * theirs and give the ones the clipper kept (equal positions to one of the NORIG vertices
 * at ORIG, the unscaled copies) their own values back, exactly. */
void draw_noperspective_scale(const draw_state *d, float *v, unsigned n, const float *orig,
                              unsigned norig);
void draw_clip_vertex(const draw_state *d, uint32_t inst, uint32_t slot, float *v);
void draw_frag_vertex(const draw_state *d, const float *v, const float win[4],
                      const uint32_t flat[DRAW_MAX_VARYINGS][4], tv_vm_frag_vertex *out);
void draw_flat_values(const draw_state *d, uint32_t inst, uint32_t provoking, uint32_t id,
                      uint32_t flat[DRAW_MAX_VARYINGS][4]);
int draw_shade_triangle(draw_state *d, const tv_vm_frag_vertex *fv[3], const float *win[3],
                        uint32_t id);
/* Antialiasing (pipe_draw_aa.c): whether SMOOTH (the rasterizer's point/line/polygon
 * smooth) applies to this draw; the coverage of pixel (X, Y) by d->aa (0..1); shading
 * every pixel d->aa meets, interpolating in triangle FV/WIN. */
bool draw_aa_active(const draw_state *d, bool smooth);
double draw_aa_coverage(const draw_state *d, int32_t x, int32_t y);
int draw_shade_aa(draw_state *d, const tv_vm_frag_vertex *fv[3], const float *win[3],
                  uint32_t id);
/* The fragment run of the triangle FV/WIN over d->rt's box (set up by the rasteriser or
 * draw_shade_aa) with the coverage and output-merger hooks. */
int draw_run_fragments(draw_state *d, const tv_vm_frag_vertex *fv[3], const float *win[3],
                       uint32_t id);
/* Runs the fragments a batch still holds (merged and counted as a run's: pass counts,
 * shaded fragments, work quota); 0, or -1 with the reason. draw_batch_end frees the batch
 * without running them (a failed draw). */
int draw_batch_flush(draw_state *d);
void draw_batch_end(draw_state *d);
/* Whether line stipple keeps pixel (X, Y) of the line being shaded. */
bool draw_line_stipple_keeps(const draw_state *d, int32_t x, int32_t y);
/* Sample SMP of pixel (X, Y) of colour buffer CB in the layer being drawn. */
static inline uint8_t *draw_cbuf_texel(const draw_state *d, const draw_cbuf *cb, int32_t x,
                                       int32_t y, unsigned smp)
{
    return cb->base + cb->layer_stride * d->layer + cb->stride * (size_t)y +
           (size_t)cb->t.bytes * ((size_t)x * d->samples + smp);
}
/* The output merger as the fragment stage's emit hook (user: the draw_state): one pixel
 * (or sample), the reference; and one tile's lanes at once (pipe_draw_om_warp.c), the same
 * bytes, faster where it can batch the work (else lane by lane through draw_om_emit). */
void draw_om_emit(void *user, const tv_vm_frag_output *out);
void draw_om_emit_warp(void *user, const tv_vm_frag_warp_output *out);
/* Depth and stencil of sample SMP of fragment O (its position, and the depth and stencil
 * reference it exported), tested against the buffer and updated; whether it passed. */
bool draw_om_depth_stencil(const draw_state *d, const tv_vm_frag_output *o, unsigned smp);
/* When the draw tests depth and stencil (pipe_draw_om.c): before the fragment shader when
 * FS asks for it (FS_EARLY_DEPTH_STENCIL) or when nothing FS does could tell the
 * difference (no depth, stencil or sample-mask output, no kill or demote, no stores or
 * atomics; no alpha test or alpha-to-coverage; not the plain interpreter), else after. */
void draw_om_choose_zs(draw_state *d, const tv_tgsi_program *fs);
/* The early tests of the COV samples of pixel (X, Y) (coverage hook): depth and stencil
 * tested and written, occlusion counted; returns the samples that passed. Each pixel is
 * tested once per triangle however often the engine asks (once per sample pass). */
uint32_t draw_om_early(draw_state *d, int32_t x, int32_t y, uint32_t cov);
/* The same for the lanes of a tile in INSIDE whose cov[l] is not 0 (cov[l] becomes the
 * answer), when the draw is single-sampled and tests depth alone (no stencil test): the
 * tests of draw_om_early without its per-pixel calls and memo (a single-sampled run asks
 * for each pixel once). False, with nothing done, for any other draw. */
bool draw_om_early_lanes(draw_state *d, const int32_t x[32], const int32_t y[32],
                         uint32_t inside, uint32_t cov[32]);
/* The quads of the triangle set up in d->rt over box [box[0], box[2]) x [box[1], box[3])
 * that keep a lane after its coverage and draw_om_early_lanes' tests, the passes counted:
 * both in one pass (pipe_box_early.h) where draw_om_early_lanes computes the depths by
 * value on a 4-byte target and the machine has AVX-512F. *N gets the engine's
 * coverage_quads answer (the quads, or -1 when the box is not a small one); false, with
 * nothing done, where this does not serve. */
bool draw_om_early_box(draw_state *d, const int32_t box[4], int32_t qx[16], int32_t qy[16],
                       uint32_t cov[64], int *n);

#endif
