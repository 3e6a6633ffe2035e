/* The fragment stage's parts shared by the tile walk (vm_stage_frag.c) and the packed
 * quads of small primitives (vm_stage_frag_pack.c: one primitive's run; and
 * vm_stage_frag_batch.c: batches of a draw's primitives, tv_vm_frag_batch). */
#ifndef TEXVM_VM_STAGE_FRAG_H
#define TEXVM_VM_STAGE_FRAG_H

#include "util/nan_order.h"
#include "util/wide_vectors.h"
#include "vm/vm_run.h"

#if defined(__GNUC__) && defined(__x86_64__)
#include <emmintrin.h>
#endif

/* The tile formulas' pieces shared by the tile walk and the deferred inputs of packed
 * groups (vm_stage_frag_defer.c), which must compute the same bits. */

/* Edge function (bx - ax)(py - ay) - (by - ay)(px - ax), the reference's: its products
 * as tv_mul_a, so where two NaNs meet the one that comes out is fixed (util/nan_order.h;
 * bary and the NaN inputs' tile lanes, vm_stage_frag_interp.h, and the triangles' areas at
 * set-up, vm_stage_frag_setup.c) */
static TV_ALWAYS_INLINE float vm_frag_edge(float ax, float ay, float bx, float by, float px,
                                           float py)
{
    return tv_mul_a(bx - ax, py - ay) - tv_mul_a(by - ay, px - ax);
}

/* Edge function (bx - ax)(py - ay) - (by - ay)(px - ax) in plain operations (the tile
 * paths and the corner tests; vm_frag_edge orders NaNs) */
static TV_ALWAYS_INLINE float vm_frag_edge_plain(float ax, float ay, float bx, float by,
                                                 float px, float py)
{
    return (bx - ax) * (py - ay) - (by - ay) * (px - ax);
}

/* Whether one of the N words at U is a float NaN (the tile paths then take the reference's
 * formulas) */
static TV_ALWAYS_INLINE bool vm_frag_any_nan_bits(const uint32_t *u, unsigned n)
{
    uint32_t nan = 0;
    for (unsigned i = 0; i < n; i++)
        nan |= (uint32_t)((u[i] & 0x7fffffffu) > 0x7f800000u);
    return nan != 0;
}

/* Whether one of the twelve words of rows A, B, C (an attribute at a triangle's three
 * vertices) is a float NaN, as vm_frag_any_nan_bits on each: each row one 16-byte load
 * where SSE2 is there (every x86-64). */
static TV_ALWAYS_INLINE bool vm_frag_any_nan_rows(const uint32_t a[4], const uint32_t b[4],
                                                  const uint32_t c[4])
{
#if defined(__GNUC__) && defined(__x86_64__)
    const __m128i m = _mm_set1_epi32(0x7fffffff), inf = _mm_set1_epi32(0x7f800000);
    const __m128i x = _mm_or_si128(
        _mm_or_si128(_mm_cmpgt_epi32(_mm_and_si128(_mm_loadu_si128((const void *)a), m), inf),
                     _mm_cmpgt_epi32(_mm_and_si128(_mm_loadu_si128((const void *)b), m), inf)),
        _mm_cmpgt_epi32(_mm_and_si128(_mm_loadu_si128((const void *)c), m), inf));
    return _mm_movemask_epi8(x) != 0;
#else
    return vm_frag_any_nan_bits(a, 4) || vm_frag_any_nan_bits(b, 4) || vm_frag_any_nan_bits(c, 4);
#endif
}

/* Whether input FI takes the provoking vertex's value: CONSTANT, or COLOR under flat
 * shading (the rasterizer state's flatshade, tv_vm_frag_params.flatshade). */
static TV_ALWAYS_INLINE bool vm_frag_flat_input(const tv_vm_frag_params *fp,
                                                const vm_fs_input *fi)
{
    return fi->interp == TV_INTERP_CONSTANT || (fp->flatshade && fi->interp == TV_INTERP_COLOR);
}

/* Whether attribute REG (< TV_VM_MAX_ATTRIBS) has a NaN among its twelve words at triangle
 * T's vertices (the tile formulas then take the reference's way): T's nan_attrs where
 * vm_frag_tri_attrs has taken them, else the words themselves. */
static TV_ALWAYS_INLINE bool vm_frag_attr_nan(const tv_vm_frag_params *fp, const vm_frag_tri *t,
                                              uint32_t reg)
{
    if (t->attrs_known)
        return ((t->nan_attrs >> reg) & 1u) != 0;
    return vm_frag_any_nan_rows(fp->vertices[t->v[0]].attr[reg],
                                fp->vertices[t->v[1]].attr[reg],
                                fp->vertices[t->v[2]].attr[reg]);
}

/* The interpolated inputs of a tile that lies in one triangle T, in one AVX-512 or AVX2
 * pass (vm_stage_frag_tile.c): into REGS (the warp's register layout), every input for
 * which vm_frag_tile_input holds, with the tile formulas' bits. The tile walk takes it
 * where the run allows it (vm_run.tile_kernel, the variant by vm_run.tile_kernel_avx512)
 * and interp_tile would take the formulas for each of those inputs (vm_stage_frag.c,
 * tile_kernel_takes). */
#if defined(__GNUC__) && defined(__x86_64__)
#define VM_FRAG_TILE_KERNEL 1
bool vm_frag_tile_input(const vm_run *R, const vm_fs_input *fi);
void vm_frag_tile_inputs_avx512(const vm_run *R, const vm_warp *w, const vm_frag_tri *T,
                                vm_slot *regs);
void vm_frag_tile_inputs_avx2(const vm_run *R, const vm_warp *w, const vm_frag_tri *T,
                              vm_slot *regs);
#else
#define VM_FRAG_TILE_KERNEL 0
#endif
/* The passes both variants of the pass made on this thread (tests: the proof it ran). */
uint64_t vm_frag_tile_passes(void);

/* Per-run constants of the coverage tests (computed once per job, not per tile). */
typedef struct vm_frag_box {
    uint32_t x0, y0, x1, y1;   /* scissor box clipped to the target */
    uint32_t smask;            /* sample mask */
    uint32_t all_samples;      /* the samples a pixel inside every test covers */
} vm_frag_box;

void vm_frag_box_init(const vm_run *R, vm_frag_box *fb);

/* The pipeline's bound on the columns rows [y0, y1) may cover (tv_vm_frag_params.row_span),
 * within [bx0, bx1), as units of UNIT pixels (a power of two; tiles: 8, quads: 2):
 * [*u0, *u1), every unit that meets the bound, so never before bx0's unit (empty: both 0).
 * Nothing set when there is no bound to use (the units from the box stand). */
void vm_frag_span(const vm_run *R, uint32_t y0, uint32_t y1, uint32_t bx0, uint32_t bx1,
                  uint32_t *u0, uint32_t *u1, uint32_t unit);

/* The registers a warp's program may read before writing, cleared for the way it will run
 * (compiled code clears its own TEMP and ADDR). */
void vm_frag_zero_regs(const vm_run *R, vm_warp *w);

/* The inputs and system values of warp W's lanes (positions, coverage, triangles and the
 * helper mask set) for the run's current primitive, into REGS (the warp's registers, or a
 * register file of the same layout to copy lanes from). SAMPLE, PER_SAMPLE, WHOLE and BL
 * as the tile walk's: for packed quads 0, false, -1 and NULL. */
void vm_frag_values(vm_worker *wk, vm_warp *w, vm_slot *regs, uint32_t sample,
                    bool per_sample, int whole, float bl[][3]);

/* A set-up warp: traced when TRACE_PASS and the traced pixel is one of its present lanes,
 * run when a lane is live, its outputs written or emitted, counted; ISA: the tile store
 * variant (vm_frag_store_isa). */
tv_status vm_frag_run_warp(vm_worker *wk, vm_warp *w, bool trace_pass, unsigned isa,
                           tv_error *err);

/* The run's primitive from PARAMS: fp, samples, sample shading and the triangles (checked:
 * target size, sample count, a coverage hook only with a TRIANGLE). */
tv_status vm_frag_run_setup(vm_run *run, const tv_vm_frag_params *params, tv_error *err);
/* vm_frag_run_setup in two parts: what depends on the program, the engine and of PARAMS only
 * the fields vm_frag_same_common compares and flatshade (the checks of the target size and
 * samples, the sample positions, the tile kernel's choice), then the primitive's
 * triangles. A batch runs the first only where those change. */
tv_status vm_frag_run_setup_shared(vm_run *run, const tv_vm_frag_params *params, tv_error *err);
tv_status vm_frag_run_setup_primitive(vm_run *run, const tv_vm_frag_params *params,
                                      tv_error *err);
/* Triangle TR's same_attrs and bounded, for RUN's parameters (run->attrs_lazy: its batch
 * calls it before a group of TR is computed at once). */
void vm_frag_tri_attrs(const vm_run *run, vm_frag_tri *tr);

/* Whether the run's primitive, of box FB, is shaded as packed quads
 * (vm_stage_frag_pack.c): the pipeline's hooks, not plain, not per sample, a bounding box
 * of at most VM_FRAG_PACK_MAX_QUADS quads. */
enum { VM_FRAG_PACK_MAX_QUADS = 64 };   /* bounding boxes up to 8 tiles' worth of quads */
bool vm_frag_packs(const vm_run *R, const vm_frag_box *fb);

/* Whether parameters A and B agree on every field the warps of a batch read after the
 * adds (a batch runs its pending warp before an add that changes one): the target size,
 * samples, sample mask and shading, the depth, stencil and sample-mask buffers, the
 * hooks and their user pointer, and each colour target's data and FBFETCH source. */
bool vm_frag_same_common(const tv_vm_frag_params *a, const tv_vm_frag_params *b);

/* The groups of batch B whose inputs waited for their warp's one pass
 * (vm_stage_frag_defer.h), since it began: the tests' proof that the pass ran. */
uint64_t vm_frag_batch_deferred(const tv_vm_frag_batch *B);
/* The warps batch B ran packed from covered pixels instead of quads (tests). */
uint64_t vm_frag_batch_pixel_warps(const tv_vm_frag_batch *B);

/* The one job of a packed run: the primitive's covered quads in warps of eight. */
tv_status vm_frag_packed_job(vm_worker *wk, uint64_t job, tv_error *err);

#endif
