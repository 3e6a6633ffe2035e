/* FRAG stage: the target is cut into 8x4-pixel tiles, one warp each, lanes ordered so that
 * every aligned 2x2 quad is 4 consecutive lanes (TL, TR, BL, BR). A job is one row of
 * tiles. The primitive is one triangle or a rectangle (two triangles); pixels outside it
 * are helper lanes of their quad or absent. Inputs are interpolated per lane at the
 * pixel centre (or sample / centroid location) in window space: CONSTANT from the last
 * vertex of the triangle (GL's provoking vertex),
 * LINEAR with screen-space barycentrics, PERSPECTIVE/COLOR perspective-correct with the
 * vertices' 1/w. Outputs of live lanes land in the targets; killed pixels keep theirs. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "util/cpu_isa.h"
#include "util/bits.h"
#include "util/fpmode.h"
#include "util/nan_order.h"
#include "util/tile_lanes.h"
#include "vm/vm_ops.h"
#include "vm/vm_run.h"
#include "vm/vm_stage_frag.h"
#include "vm/vm_stage_frag_store.h"
#include "vm/vm_stage_frag_uniform.h"
#include "vm/vm_stage_frag_interp.h"

/* Which tiles of a row lie in one triangle, from the tile corners. A box is inside
 * triangle t when bary()'s inside test (every e_k / area >= 0) holds at its four corners,
 * and strictly outside edge k when b_k = e_k / area < 0 at all four: the edge values are
 * float expressions monotone in x and in y (a - b*x with exact-rounded steps), so the
 * corners bound every pixel centre and sample inside the box. The tests are evaluated
 * once per corner of a row of tiles (a corner is shared by up to four tiles), with
 * bary()'s operations, as bits; a tile's tests are the AND of its corners' bits. */
enum {
    CB_TRI = 6,           /* bits per triangle: in_0..2, neg_0..2 */
    CB_IN = 0x7u,         /* every e_k / area >= 0 (bits 0..2 of a triangle) */
    CB_NEG = 0x38u        /* e_k / area < 0 (bits 3..5) */
};
#define CB_CHUNK 64       /* tiles classified per pass (corner arrays on the stack) */

/* Corner bits of the n points (8 (x0 + i), y), i < n, for the run's triangles (built for
 * wider vectors too: the same IEEE operations, so the same bits). */
VM_WIDE_VECTORS static void corner_bits(const vm_run *R, uint32_t x0, uint32_t n, float y, uint16_t *bits)
{
    for (uint32_t i = 0; i < n; i++)
        bits[i] = 0;
    for (uint32_t t = 0; t < R->num_tris; t++) {
        const vm_frag_tri *T = &R->tris[t];
        uint16_t sh = (uint16_t)(CB_TRI * t);
        if (T->area == 0.0f) {
            /* bary() puts no point inside: never inside, outside every edge */
            for (uint32_t i = 0; i < n; i++)
                bits[i] |= (uint16_t)(CB_NEG << sh);
            continue;
        }
        for (uint32_t i = 0; i < n; i++) {
            float x = (float)(int32_t)((x0 + i) * 8u);   /* < 2^17: exact either way */
            /* (compared only: a NaN's bits do not matter here) */
            float q0 = vm_frag_edge_plain(T->x[1], T->y[1], T->x[2], T->y[2], x, y) / T->area;
            float q1 = vm_frag_edge_plain(T->x[2], T->y[2], T->x[0], T->y[0], x, y) / T->area;
            float q2 = vm_frag_edge_plain(T->x[0], T->y[0], T->x[1], T->y[1], x, y) / T->area;
            uint32_t b = (uint32_t)(q0 >= 0.0f) | (uint32_t)(q1 >= 0.0f) << 1 |
                         (uint32_t)(q2 >= 0.0f) << 2 | (uint32_t)(q0 < 0.0f) << 3 |
                         (uint32_t)(q1 < 0.0f) << 4 | (uint32_t)(q2 < 0.0f) << 5;
            bits[i] |= (uint16_t)(b << sh);
        }
    }
}

/* The triangle a tile lies in wholly (and strictly outside the earlier ones, which win
 * ties), from the AND of its four corners' bits; -1 when none. */
static int tile_whole(const vm_run *R, uint32_t m)
{
    for (uint32_t t = 0; t < R->num_tris; t++) {
        if (((m >> (CB_TRI * t)) & CB_IN) != CB_IN)
            continue;
        bool clear = true;
        for (uint32_t u = 0; u < t; u++)
            clear = clear && ((m >> (CB_TRI * u)) & CB_NEG) != 0;
        if (clear)
            return (int)t;
    }
    return -1;
}

static const vm_fs_input *find_input(const tv_vm_program *p, uint32_t reg)
{
    for (uint32_t i = 0; i < p->num_inputs; i++)
        if (p->inputs[i].reg == reg)
            return &p->inputs[i];
    return NULL;
}

void vm_frag_interp_lane(const vm_warp *w, uint32_t reg, unsigned lane, float dx, float dy,
                         bool at_sample, uint32_t sample, uint32_t out[4]);
void vm_frag_interp_lane(const vm_warp *w, uint32_t reg, unsigned lane, float dx, float dy,
                         bool at_sample, uint32_t sample, uint32_t out[4])
{
    const vm_run *R = w->run;
    const vm_fs_input *fi = find_input(w->prog, reg);
    memset(out, 0, 16);
    if (!fi)
        return;
    float sx = 0.5f + dx, sy = 0.5f + dy;
    if (at_sample)
        sample_xy(R, sample, &sx, &sy);
    interp_at(R, fi, &R->tris[w->lane_tri[lane]], (float)w->lane_x[lane] + sx,
              (float)w->lane_y[lane] + sy, out);
}

void vm_frag_fbfetch_lane(const vm_warp *w, uint32_t color, unsigned lane, uint32_t out[4]);
void vm_frag_fbfetch_lane(const vm_warp *w, uint32_t color, unsigned lane, uint32_t out[4])
{
    const tv_vm_frag_params *fp = w->run->fp;
    memset(out, 0, 16);
    if (color >= TV_VM_MAX_COLOR_TARGETS || w->lane_x[lane] < 0)
        return;
    const uint32_t *src = fp->fbfetch[color] ? fp->fbfetch[color] : fp->color[color].data;
    if (!src)
        return;
    uint64_t e = ((uint64_t)w->lane_y[lane] * fp->width + (uint64_t)w->lane_x[lane]) *
                 w->run->samples + w->sample;
    if ((uint32_t)w->lane_x[lane] < fp->width && (uint32_t)w->lane_y[lane] < fp->height)
        memcpy(out, src + e * 4, 16);
}

/* Every sample of the run's pixels, as a mask */
static uint32_t every_sample(const vm_run *R)
{
    return R->samples >= 32 ? VM_ALL_LANES : (1u << R->samples) - 1u;
}

/* `whole`: the triangle the tile lies in wholly (tile_whole), -1 none. */
static void frag_box_init(const vm_run *R, vm_frag_box *fb)
{
    const tv_vm_frag_params *fp = R->fp;
    fb->x0 = fp->scissor[2] ? fp->scissor[0] : 0;
    fb->y0 = fp->scissor[3] ? fp->scissor[1] : 0;
    fb->x1 = fp->scissor[2] ? fp->scissor[2] : fp->width;
    fb->y1 = fp->scissor[3] ? fp->scissor[3] : fp->height;
    if (fb->x1 > fp->width) fb->x1 = fp->width;
    if (fb->y1 > fp->height) fb->y1 = fp->height;
    fb->smask = fp->sample_mask ? fp->sample_mask : VM_ALL_LANES;
    fb->all_samples = every_sample(R) & fb->smask;
}

static TV_ALWAYS_INLINE void setup_inputs(vm_worker *wk, vm_warp *w, uint32_t inside,
                                          uint32_t live, uint32_t sample, bool per_sample,
                                          int whole, float bl[][3], bool uni);

/* The lanes of the tile at (TPX, TPY): positions in the engine's tile order, one triangle
 * and one coverage for all. Built for wide vectors (not for speed of its own: tile_bary and
 * interp_tile read lane_x and lane_y as 64-byte vectors right after, and a wide load is
 * forwarded only from a store of its own width — from the 16-byte stores of the baseline
 * build it waited for them to reach the cache, about a seventh of tile_bary's samples).
 * The vectors are as wide as the clone's registers: 64 bytes where AVX-512 runs (the
 * compiler's own choice for this loop was 32-byte stores), 32 elsewhere. GCC 12 lowers
 * a 64-byte vector on AVX2 through the stack, 4- and 8-byte pieces read back as 16-byte
 * vectors, which no core forwards (Zen 3: two thirds of this function's samples).
 * The lane values are the per-lane loop's: the vectors only group them. */
typedef int32_t tile_lanes16 __attribute__((vector_size(64)));
typedef int32_t tile_lanes8 __attribute__((vector_size(32)));

VM_WIDE_VECTORS static void tile_lanes(vm_warp *w, uint32_t tpx, uint32_t tpy, uint8_t tri,
                                       uint32_t cov)
{
    const bool w16 = tv_cpu_avx512f();
    if (w16) {
        for (unsigned h = 0; h < VM_LANES; h += 16) {
            tile_lanes16 ox, oy;
            memcpy(&ox, &tv_tile_lane_x[h], sizeof ox);
            memcpy(&oy, &tv_tile_lane_y[h], sizeof oy);
            tile_lanes16 x = ox + (int32_t)tpx, y = oy + (int32_t)tpy;
            memcpy(&w->lane_x[h], &x, sizeof x);
            memcpy(&w->lane_y[h], &y, sizeof y);
        }
    } else {
        for (unsigned h = 0; h < VM_LANES; h += 8) {
            tile_lanes8 ox, oy;
            memcpy(&ox, &tv_tile_lane_x[h], sizeof ox);
            memcpy(&oy, &tv_tile_lane_y[h], sizeof oy);
            tile_lanes8 x = ox + (int32_t)tpx, y = oy + (int32_t)tpy;
            memcpy(&w->lane_x[h], &x, sizeof x);
            memcpy(&w->lane_y[h], &y, sizeof y);
        }
    }
    for (unsigned l = 0; l < VM_LANES; l++) {
        w->lane_tri[l] = tri;
        w->lane_cov[l] = cov;
    }
}

/* setup_warp's WHOLE for a tile split_tile set up (values then takes split_inputs) */
enum { TILE_SPLIT = -2 };

/* A tile in no one triangle (WHOLE < 0) of a run that allows it (split_tiles: one sample
 * per pixel, no coverage hook, triangles with an area and no NaN): setup_warp's per-lane
 * loop lane-parallel. A lane's triangle is the first whose bary() test holds at its
 * centre, triangle 0 when none does; it is covered (the one sample, under the sample mask)
 * when one does and it lies in the box. The tests read tile_bary's barycentrics (bary()'s
 * bits without a NaN input: the formulas' two forms, at the head), taken for the last
 * triangle first, so that triangle 0's are left in lane_b for split_inputs. The diagonal
 * tiles of a full-screen rectangle took the per-lane loop: about a tenth of the null
 * workload. */
VM_WIDE_VECTORS static void split_tile(vm_worker *wk, vm_warp *w, uint32_t tpx, uint32_t tpy,
                                       const vm_frag_box *fb, uint32_t *inside,
                                       uint32_t *live)
{
    const vm_run *R = wk->run;
    tile_lanes(w, tpx, tpy, 0, 0);
    uint32_t on[2] = {0, 0};
    for (uint32_t t = R->num_tris; t-- > 0;) {
        tile_bary(wk, w, &R->tris[t]);
        const float *b0 = wk->lane_b[0], *b1 = wk->lane_b[1], *b2 = wk->lane_b[2];
        uint32_t m = 0;
        for (unsigned l = 0; l < VM_LANES; l++)
            m |= ((uint32_t)(b0[l] >= 0.0f) & (uint32_t)(b1[l] >= 0.0f) &
                  (uint32_t)(b2[l] >= 0.0f)) << l;
        on[t] = m;
    }
    uint32_t box = 0;
    for (unsigned l = 0; l < VM_LANES; l++) {
        uint32_t px = (uint32_t)w->lane_x[l], py = (uint32_t)w->lane_y[l];
        box |= ((uint32_t)(px < fb->x1) & (uint32_t)(py < fb->y1) & (uint32_t)(px >= fb->x0) &
                (uint32_t)(py >= fb->y0)) << l;
    }
    const uint32_t covered = box & (on[0] | on[1]), tri1 = on[1] & ~on[0];
    const uint32_t cov = fb->smask & 1u;
    for (unsigned l = 0; l < VM_LANES; l++) {
        w->lane_tri[l] = (uint8_t)((tri1 >> l) & 1u);
        w->lane_cov[l] = cov & (0u - ((covered >> l) & 1u));
    }
    *inside = box;
    *live = cov ? covered : 0;
}

/* Whether the 8x4 tile whose top-left pixel is (TPX, TPY) lies wholly inside FB's box */
static TV_ALWAYS_INLINE bool tile_in_box(const vm_frag_box *fb, uint32_t tpx, uint32_t tpy)
{
    return tpx >= fb->x0 && tpy >= fb->y0 && tpx + 8 <= fb->x1 && tpy + 4 <= fb->y1;
}

/* UNI: the walk of a uniform program's run (frag_job_uniform), whose warps may reuse the
 * registers (setup_inputs); a constant of each walk's inlined copy */
static TV_ALWAYS_INLINE void setup_warp(vm_worker *wk, vm_warp *w, uint32_t tx, uint32_t ty,
                                        uint32_t sample, bool per_sample, int whole,
                                        const vm_frag_box *fb, bool uni)
{
    const vm_run *R = wk->run;
    const tv_vm_frag_params *fp = R->fp;
    const uint32_t x0 = fb->x0, y0 = fb->y0, x1 = fb->x1, y1 = fb->y1;
    const uint32_t smask = fb->smask, all_samples = fb->all_samples;
    uint32_t inside = 0, live = 0;
    float bl[VM_LANES][3];
    uint32_t tpx = tx * 8, tpy = ty * 4;
    w->tile_order = true;   /* (every branch below puts the lanes in tile order) */
    w->pixel_lanes = false;
    if (whole >= 0 && tile_in_box(fb, tpx, tpy)) {
        /* the common case (every tile of a full-screen rectangle but the diagonal ones):
           the tile lies in one triangle and inside the scissor box, so every lane is in
           with all samples: the per-lane loop below without its tests */
        tile_lanes(w, tpx, tpy, (uint8_t)whole, all_samples);
        inside = VM_ALL_LANES;
        bool cov = per_sample ? ((all_samples >> sample) & 1u) : all_samples != 0;
        live = cov ? VM_ALL_LANES : 0;
    } else if (fp->coverage && !R->plain) {
        /* the pipeline's rasteriser decides coverage; the one triangle interpolates, so
           the tile formulas below (tile_bary, interp_tile) serve every lane */
        tile_lanes(w, tpx, tpy, 0, 0);
        /* lanes inside the scissor box: all of a tile that lies in it (most), else each
           lane tested, without branches */
        if (tile_in_box(fb, tpx, tpy)) {
            inside = VM_ALL_LANES;
        } else {
            for (unsigned l = 0; l < VM_LANES; l++) {
                uint32_t px = (uint32_t)w->lane_x[l], py = (uint32_t)w->lane_y[l];
                inside |= (uint32_t)(px < x1 && py < y1 && px >= x0 && py >= y0) << l;
            }
        }
        if (fp->coverage_warp) {
            if (inside)
                fp->coverage_warp(fp->hook_user, w->lane_x, w->lane_y, inside, w->lane_cov);
        } else {
            for (uint32_t k = inside; k; k &= k - 1) {
                unsigned l = (unsigned)__builtin_ctz(k);
                w->lane_cov[l] = fp->coverage(fp->hook_user, w->lane_x[l], w->lane_y[l]);
            }
        }
        /* every lane inside with every sample (a tile inside the primitive, the common
           case): the pass below would leave the coverage as it is and make every lane
           live */
        uint32_t partial = 0, any = 0;
        for (unsigned l = 0; l < VM_LANES; l++) {
            partial |= w->lane_cov[l] ^ all_samples;
            any |= w->lane_cov[l];
        }
        if (inside == VM_ALL_LANES && !partial && all_samples) {
            live = !per_sample || ((all_samples >> sample) & 1u) ? VM_ALL_LANES : 0;
        } else if (!any) {
            live = 0;   /* nothing covered (a tile beside the primitive): every lane 0 */
        } else
        /* the hooks leave lanes outside at 0: every lane in one branch-free pass */
        for (unsigned l = 0; l < VM_LANES; l++) {
            uint32_t c = w->lane_cov[l] & all_samples & (0u - ((inside >> l) & 1u));
            w->lane_cov[l] = c;
            uint32_t cov = per_sample ? (c >> sample) & 1u : (uint32_t)(c != 0);
            live |= cov << l;
        }
    } else if (whole < 0 && R->split_tiles) {
        split_tile(wk, w, tpx, tpy, fb, &inside, &live);
        whole = TILE_SPLIT;
    } else for (unsigned l = 0; l < VM_LANES; l++) {
        int32_t px = (int32_t)(tpx + tv_tile_lane_x[l]);
        int32_t py = (int32_t)(tpy + tv_tile_lane_y[l]);
        w->lane_x[l] = px;
        w->lane_y[l] = py;
        w->lane_tri[l] = 0;
        w->lane_cov[l] = 0;
        bool in = (uint32_t)px < x1 && (uint32_t)py < y1 && (uint32_t)px >= x0 &&
                  (uint32_t)py >= y0;
        float *b = bl[l];
        if (whole >= 0) {
            w->lane_tri[l] = (uint8_t)whole;
            if (in)
                w->lane_cov[l] = all_samples;
        } else {
            /* the triangle of the pixel centre (extrapolated for pixels outside) */
            bool found = false;
            for (uint32_t t = 0; t < R->num_tris && !found; t++)
                if (bary(&R->tris[t], (float)px + 0.5f, (float)py + 0.5f, b)) {
                    w->lane_tri[l] = (uint8_t)t;
                    found = true;
                }
            if (!found)
                bary(&R->tris[0], (float)px + 0.5f, (float)py + 0.5f, b);
            if (in && fp->coverage)
                /* the pipeline's rasteriser decides which samples are covered */
                w->lane_cov[l] = fp->coverage(fp->hook_user, px, py) & all_samples;
            else if (in && R->samples == 1)
                /* the one sample is the pixel centre, just tested */
                w->lane_cov[l] = found ? (smask & 1u) : 0u;
            else if (in)
                for (uint32_t s = 0; s < R->samples; s++) {
                    if (!((smask >> s) & 1u)) continue;
                    float sx, sy, sb[3];
                    sample_xy(R, s, &sx, &sy);
                    for (uint32_t t = 0; t < R->num_tris; t++)
                        if (bary(&R->tris[t], (float)px + sx, (float)py + sy, sb)) {
                            w->lane_cov[l] |= 1u << s;
                            break;
                        }
                }
        }
        if (!in)
            continue;
        inside |= 1u << l;
        bool cov = per_sample ? ((w->lane_cov[l] >> sample) & 1u) : w->lane_cov[l] != 0;
        if (cov) live |= 1u << l;
    }
    setup_inputs(wk, w, inside, live, sample, per_sample, whole, bl, uni);
}

/* (inlined into the tile walk's set-up, where its arguments are often constants, and
   into the exported vm_frag_values) */
static TV_ALWAYS_INLINE void zero_regs(const vm_run *R, vm_warp *w, bool pass);
static TV_ALWAYS_INLINE void values(vm_worker *wk, vm_warp *w, vm_slot *regs,
                                    uint32_t sample, bool per_sample, int whole,
                                    float bl[][3], bool walk);

static TV_ALWAYS_INLINE void tile_way(vm_worker *wk, const vm_frag_tri *T, int tile_tri,
                                      int whole, bool per_sample, bool walk, bool *bary,
                                      bool *kernel);

/* The triangle every lane of a tile interpolates in with the tile formulas (WHOLE as
 * setup_warp's: the tile's one triangle, or the pipeline's one triangle where its coverage
 * hook decides), -1 where each lane takes its own (values; uniform_tri asks the same) */
static TV_ALWAYS_INLINE int tile_triangle(const vm_run *R, int whole)
{
    return whole >= 0 ? whole : R->fp->coverage && !R->plain ? 0 : -1;
}

/* The triangle whose tile's inputs are the same in every lane of a walk's warp (WHOLE as
 * setup_warp's), for a uniform program (vm_stage_frag_uniform.c): the triangle values
 * interpolates the tile in where each input takes interp_tile's same-value way (no
 * barycentrics needed); -1 where the warp may not reuse registers. */
static TV_ALWAYS_INLINE int uniform_tri(vm_worker *wk, int whole, bool per_sample)
{
    const vm_run *R = wk->run;
    if (per_sample)
        return -1;
    if (!R->prog->num_inputs)
        return 0;   /* no input: the same outputs in every triangle, split tiles too */
    const int tile_tri = tile_triangle(R, whole);   /* (0 or 1: one of the run's two) */
    if (tile_tri < 0)
        return -1;
    bool bary = false, kernel = false;
    tile_way(wk, &R->tris[tile_tri], tile_tri, whole, per_sample, true, &bary, &kernel);
    return bary ? -1 : tile_tri;
}

/* The rest of a warp's set-up once its lanes' positions and coverage are known (INSIDE:
 * the lanes inside the scissor box, LIVE: those that run): the warp's masks, then the
 * registers, inputs and system values. WHOLE as setup_warp's; BL: per-lane barycentrics
 * where no one triangle interpolates (unread otherwise). */
static TV_ALWAYS_INLINE void setup_inputs(vm_worker *wk, vm_warp *w, uint32_t inside,
                                          uint32_t live, uint32_t sample, bool per_sample,
                                          int whole, float bl[][3], bool uni)
{
    /* every lane of a quad with a pixel inside runs (outside ones as helpers), so
       derivatives at the target's edges see real neighbours */
    const uint32_t present = tv_quads_of(inside);
    vm_worker_warp(wk, 0, present, live);
    w->sample = sample;
    if (!live)
        return;   /* frag_job runs no lane of it: no inputs to set up */
    if (uni) {
        wk->uni_skip = false;
        wk->uni_next = (int8_t)uniform_tri(wk, whole, per_sample);
        if (wk->uni_armed && wk->uni_next >= 0 && wk->uni_next == wk->uni_tri) {
            wk->uni_skip = true;   /* the registers hold this warp's outputs already */
            return;
        }
    }
    values(wk, w, w->r, sample, per_sample, whole, bl, true);   /* (its registers zeroed there) */
}

void vm_frag_zero_regs(const vm_run *R, vm_warp *w)
{
    zero_regs(R, w, false);
}

void vm_frag_values(vm_worker *wk, vm_warp *w, vm_slot *regs, uint32_t sample,
                    bool per_sample, int whole, float bl[][3])
{
    values(wk, w, regs, sample, per_sample, whole, bl, false);
}

#include "vm/vm_stage_frag_values.h"   /* (here: it uses the helpers above) */

void tv_vm_frag_warp_lane(const tv_vm_frag_warp_output *w, unsigned l, tv_vm_frag_output *out)
{
    out->x = w->x[l];
    out->y = w->y[l];
    out->coverage = w->coverage[l];
    out->colors = w->colors;
    for (unsigned i = 0; i < TV_VM_MAX_COLOR_TARGETS; i++)
        if ((w->colors >> i) & 1u)
            for (unsigned c = 0; c < 4; c++)
                out->color[i][c] = w->color[i][c][l];
    out->has_depth = w->depth != NULL;
    out->has_stencil = w->stencil != NULL;
    out->has_sample_mask = w->sample_mask != NULL;
    if (w->depth)
        out->depth = w->depth[l];
    if (w->stencil)
        out->stencil = w->stencil[l];
    if (w->sample_mask)
        out->sample_mask = w->sample_mask[l];
}

#include "vm/vm_stage_frag_outputs.h"   /* (here: it uses the helpers above) */

static void frag_span(const vm_run *R, uint32_t y0, uint32_t y1, uint32_t bx0, uint32_t bx1,
                    uint32_t *u0, uint32_t *u1, uint32_t unit)
{
    const tv_vm_frag_params *fp = R->fp;
    if (!fp->row_span || !fp->coverage_warp || R->plain)
        return;
    int32_t x0 = 0, x1 = 0;
    fp->row_span(fp->hook_user, (int32_t)y0, (int32_t)y1, &x0, &x1);
    uint32_t a = x0 > (int32_t)bx0 ? (uint32_t)x0 : bx0;
    uint32_t b = x1 < (int32_t)bx1 ? (x1 > 0 ? (uint32_t)x1 : 0u) : bx1;
    if (a >= b) {
        *u0 = *u1 = 0;
        return;
    }
    /* (UNIT is 2 or 8: shifts, not the divisions by a variable the exported copy made) */
    const unsigned sh = (unsigned)__builtin_ctz(unit);
    *u0 = a >> sh;
    *u1 = (b + unit - 1) >> sh;
}

static TV_ALWAYS_INLINE tv_status run_warp(vm_worker *wk, vm_warp *w, bool trace_pass,
                                           unsigned isa, tv_error *err, bool uni)
{
    const vm_run *R = wk->run;
    const uint32_t *id = R->vm->trace.id;
    wk->trace_this = false;
    if (R->tracing && trace_pass)
        for (unsigned l = 0; l < VM_LANES; l++)
            if ((uint32_t)w->lane_x[l] == id[0] && (uint32_t)w->lane_y[l] == id[1] &&
                ((w->present >> l) & 1u)) {
                wk->trace_this = true;
                wk->trace_lane = l;
            }
    if (w->live) {
        uint32_t live0 = w->live;
        if (uni && wk->uni_skip) {
            /* a uniform program's outputs, in the registers since the warp that armed the
               reuse, with its counts (vm_stage_frag_uniform.c) */
            w->insns = wk->uni_insns;
            w->uops = wk->uni_uops;
            vm_frag_uniform_count();
        } else {
            tv_status st = vm_exec_warp(w, err);
            wk->trace_this = false;
            if (st != TV_OK)
                return st;
            /* (the counts read only where the warp may arm the reuse: loaded right after
               the run, as one 16-byte load of the two 8-byte counts it had just stored, they
               waited for the stores — the loop workload 7 % slower) */
            if (uni) {
                wk->uni_armed = false;
                if (wk->uni_next >= 0 && live0 == VM_ALL_LANES && w->live == live0) {
                    wk->uni_armed = true;
                    wk->uni_tri = wk->uni_next;
                    wk->uni_insns = w->insns;
                    wk->uni_uops = w->uops;
                }
            }
        }
        write_outputs(wk, w, R->per_sample, live0, isa);
    }
    vm_worker_count(wk, w);
    return TV_OK;
}

/* Whether a uniform program's warps whose set-up and run the walk would skip
 * (setup_inputs, run_warp: the registers hold their outputs) may go straight to the
 * stores (uniform_tile): every pixel a sample of its own and each output a colour target's
 * (write_outputs' tile store), one sample, not traced, no pipeline hooks, not the plain
 * interpreter; and FB's box covers a pixel's sample (a tile inside it is live). */
static bool uniform_direct(const vm_run *R, const vm_frag_box *fb)
{
    const tv_vm_frag_params *fp = R->fp;
    const tv_vm_program *p = R->prog;
    if (R->per_sample || R->tracing || R->plain || R->samples != 1 || fp->emit_warp ||
        fp->emit || !fb->all_samples || p->out.count <= 0 ||
        p->out.count > TV_VM_MAX_COLOR_TARGETS)
        return false;
    for (int32_t r = 0; r < p->out.count; r++)
        if (p->out_sem[r] != TV_SEM_COLOR || p->out_sem_index[r] >= TV_VM_MAX_COLOR_TARGETS ||
            !fp->color[p->out_sem_index[r]].data)
            return false;
    return true;
}

/* Whether a uniform program's warps whose set-up and run the walk would skip go straight
 * to the pipeline's warp hook instead (uniform_hook_tile): the same conditions but the
 * outputs' way — the pipeline's output merger (fp->emit_warp) takes them, whatever their
 * semantics, any sample count without per-sample shading. */
static bool uniform_direct_hook(const vm_run *R, const vm_frag_box *fb)
{
    return R->fp->emit_warp && !R->per_sample && !R->tracing && !R->plain &&
           fb->all_samples != 0;
}

/* The first part of a direct tile (uniform_tile, uniform_hook_tile) of a walk with the
 * reuse armed, in triangle WHOLE: whether the walk's warp there would skip its set-up and
 * run (the reuse armed by a warp of that triangle), and if so the state setup_inputs and
 * run_warp would leave and the counts setup_warp, run_warp and write_outputs would take
 * (test_frag_uniform.c compares both with every warp run). */
static TV_ALWAYS_INLINE bool direct_tile(vm_worker *wk, int whole)
{
    const int next = uniform_tri(wk, whole, false);
    if (next < 0 || next != wk->uni_tri)
        return false;
    wk->uni_skip = true;   /* (setup_inputs' state for the next warp's) */
    wk->uni_next = (int8_t)next;
    wk->trace_this = false;
    vm_frag_uniform_count();
    count_lanes(wk, VM_ALL_LANES, VM_ALL_LANES);   /* (write_outputs') */
    wk->stats.instructions += wk->uni_insns;   /* (vm_worker_count's of the skipped warp) */
    wk->stats.uops += wk->uni_uops;
    wk->stats.warps++;
    return true;
}

/* The tile at (TX, TY), inside the box and wholly in triangle WHOLE, of a walk of
 * uniform_direct with the reuse armed: where the walk's warp would skip its set-up and
 * run (direct_tile), its outputs stored; false otherwise, nothing done. The per-warp
 * set-up of such a tile (its lanes' positions, masks and the warp's state, all rewritten
 * by the next warp set up) was most of the time of a walk of constant outputs (`null`:
 * the same rate of pixels in L2 as in memory, docs/performance-amd-zen5.md). The outputs'
 * tile images IMG are made from the registers by the first such tile (*IMG_OK false; the
 * walk clears it whenever a warp is set up) and copied by the others: the same bytes as
 * the tile store's. */
static TV_ALWAYS_INLINE bool uniform_tile(vm_worker *wk, uint32_t tx, uint32_t ty, int whole,
                                          unsigned isa, vm_frag_tile_image *img, bool *img_ok)
{
    if (!direct_tile(wk, whole))
        return false;
    const vm_run *R = wk->run;
    const tv_vm_frag_params *fp = R->fp;
    const tv_vm_program *p = R->prog;
    const vm_warp *w = &wk->warps[0];
    vm_frag_uniform_count_stored();
    if (!*img_ok) {
        for (int32_t r = 0; r < p->out.count; r++)
            vm_frag_store_tile(isa, img[r][0], 32, &w->r[p->out.base + (uint32_t)r * 4],
                               false);
        *img_ok = true;
    }
    const uint32_t tpx = tx * 8, tpy = ty * 4;
    for (int32_t r = 0; r < p->out.count; r++)
        vm_frag_copy_tile(isa, fp->color[p->out_sem_index[r]].data +
                                   ((uint64_t)tpy * fp->width + tpx) * 4,
                          (size_t)fp->width * 4, (const uint32_t(*)[32])img[r],
                          tpx + 24 <= fp->width);
    return true;
}

/* A direct tile's warp for the pipeline's hook (uniform_hook_tile): the outputs' record,
 * made by a walk's first such tile (ok), and the lanes' positions and coverage it points
 * to. The record holds what the program and the walk fix: which outputs, and where in
 * the warp's register file (the same file for every warp of the walk, whose registers a
 * warp run in between rewrites in place). */
typedef struct {
    tv_vm_frag_warp_output wo;
    bool ok;
    _Alignas(64) int32_t x[VM_LANES];
    _Alignas(64) int32_t y[VM_LANES];
    _Alignas(64) uint32_t cov[VM_LANES];
} vm_frag_hook_tile;

/* uniform_tile for a walk of uniform_direct_hook: the tile's outputs to the pipeline's warp
 * hook as write_outputs would hand over the skipped warp's (emit_outputs: the registers'
 * outputs, every lane live with all the box's samples, in tile order), without setting up
 * the warp (its lanes' positions, masks and state, and the record made again): the blend
 * scene's draw 6.50 -> 4.74 ms on one thread (docs/performance-draws.md §1). */
static TV_ALWAYS_INLINE bool uniform_hook_tile(vm_worker *wk, uint32_t tx, uint32_t ty,
                                               int whole, const vm_frag_box *fb,
                                               vm_frag_hook_tile *h)
{
    if (!direct_tile(wk, whole))
        return false;
    const tv_vm_frag_params *fp = wk->run->fp;
    vm_frag_uniform_count_hooked();
    if (!h->ok) {
        warp_outputs(wk->run, &wk->warps[0], false, &h->wo, NULL);
        for (unsigned l = 0; l < VM_LANES; l++)
            h->cov[l] = fb->all_samples;   /* (setup_warp's lanes of a tile inside) */
        h->wo.x = h->x;
        h->wo.y = h->y;
        h->wo.coverage = h->cov;
        h->wo.live = VM_ALL_LANES;
        h->wo.tile = true;
        h->wo.pixels = false;
        h->ok = true;
    }
    const int32_t tpx = (int32_t)(tx * 8), tpy = (int32_t)(ty * 4);
    for (unsigned l = 0; l < VM_LANES; l++) {
        h->x[l] = tpx + (int32_t)tv_tile_lane_x[l];
        h->y[l] = tpy + (int32_t)tv_tile_lane_y[l];
    }
    fp->emit_warp(fp->hook_user, &h->wo);
    return true;
}

/* The walk of row of tiles JOB (UNI: a uniform program's, frag_job_uniform) */
static TV_ALWAYS_INLINE tv_status frag_walk(vm_worker *wk, uint64_t job, tv_error *err, bool uni)
{
    const vm_run *R = wk->run;
    const tv_vm_frag_params *fp = R->fp;
    const uint32_t *id = R->vm->trace.id;
    uint16_t top[CB_CHUNK + 1], bot[CB_CHUNK + 1];
    const unsigned isa = vm_frag_store_isa_run(R);
    wk->tile_ways_known = wk->tile_ways_bary = wk->tile_ways_pass = 0;   /* (values) */
    wk->uni_armed = wk->uni_skip = false;   /* (setup_inputs, run_warp) */
    vm_frag_box fb;
    frag_box_init(R, &fb);
    const bool direct = uni && uniform_direct(R, &fb);
    const bool direct_hook = uni && !direct && uniform_direct_hook(R, &fb);
    _Alignas(64) vm_frag_tile_image img[TV_VM_MAX_COLOR_TARGETS];   /* (uniform_tile) */
    bool img_ok = false;
    vm_frag_hook_tile hook_tile;   /* (uniform_hook_tile) */
    hook_tile.ok = false;
    /* only the tiles that meet the scissor box (the others have no lane inside it) */
    uint32_t ty = fb.y0 / 4 + (uint32_t)job;
    uint32_t tx0 = fb.x0 / 8, ntx = (fb.x1 + 7) / 8;
    uint32_t passes = R->per_sample ? R->samples : 1;
    /* plain (translation validation) and the pipeline's coverage: every tile takes the
       per-lane set-up, so no tile is classified from its corners */
    const bool per_lane = R->plain || fp->coverage;
    /* the tiles of the row beside the primitive have no live lane (row_span): skipped */
    uint32_t txa = tx0;
    if (per_lane)
        frag_span(R, ty * 4, ty * 4 + 4, fb.x0, fb.x1, &txa, &ntx, 8);
    /* the tiles the pipeline covers whole (row_inner): as a tile inside the one triangle,
       without asking its coverage hook (every lane covered, as it would have said). Not
       under a sample mask that leaves samples out: a centroid input of such a lane moves
       on the per-lane path (values), which a tile inside the triangle does not take */
    uint32_t ina = 0, inb = 0;
    if (per_lane && fp->row_inner && fp->row_span && fp->coverage_warp && !R->plain &&
        fb.all_samples == every_sample(R)) {
        int32_t a = 0, b = 0;
        fp->row_inner(fp->hook_user, (int32_t)(ty * 4), (int32_t)(ty * 4 + 4), &a, &b);
        if (a < b && b > 0) {
            ina = a > 0 ? ((uint32_t)a + 7) / 8 : 0;   /* whole tiles inside [a, b) */
            inb = (uint32_t)b / 8;
        }
    }
    for (uint32_t tx = txa; tx < ntx; tx++) {
        uint32_t i = (tx - tx0) % CB_CHUNK;
        if (i == 0 && !per_lane) {
            uint32_t n = ntx - tx < CB_CHUNK ? ntx - tx : CB_CHUNK;
            corner_bits(R, tx, n + 1, (float)(ty * 4), top);
            corner_bits(R, tx, n + 1, (float)(ty * 4 + 4), bot);
        }
        int whole = per_lane ? (tx >= ina && tx < inb ? 0 : -1)
                  : tile_whole(R, (uint32_t)(top[i] & top[i + 1] & bot[i] & bot[i + 1]));
        if ((direct || direct_hook) && wk->uni_armed && whole >= 0 &&
            tile_in_box(&fb, tx * 8, ty * 4) &&
            (direct ? uniform_tile(wk, tx, ty, whole, isa, img, &img_ok)
                    : uniform_hook_tile(wk, tx, ty, whole, &fb, &hook_tile)))
            continue;
        img_ok = false;   /* (a warp set up below may change the registers) */
        for (uint32_t s = 0; s < passes; s++) {
            vm_warp *w = &wk->warps[0];
            setup_warp(wk, w, tx, ty, s, R->per_sample, whole, &fb, uni);
            if (!w->present)
                continue;
            tv_status st = run_warp(wk, w, !R->per_sample || s == id[2], isa, err, uni);
            if (st != TV_OK)
                return st;
        }
    }
    return TV_OK;
}

static tv_status frag_job(vm_worker *wk, uint64_t job, tv_error *err)
{
    return frag_walk(wk, job, err, false);
}

/* a uniform program's run (vm_stage_frag_uniform.c): its own copy of the walk, so that
   the others' keeps its code (the tests and stores in frag_job's copy cost the loop
   workload 1.5-2.7 %: history §51) */
static tv_status frag_job_uniform(vm_worker *wk, uint64_t job, tv_error *err)
{
    return frag_walk(wk, job, err, true);
}

/* The tile walk's helpers for the packed quads (vm_stage_frag_pack.c); static above so
 * that the walk keeps them inline (calls to the exported names cost the loop workload
 * 4-5 %). */
void vm_frag_box_init(const vm_run *R, vm_frag_box *fb)
{
    frag_box_init(R, fb);
}

void vm_frag_span(const vm_run *R, uint32_t y0, uint32_t y1, uint32_t bx0, uint32_t bx1,
                  uint32_t *u0, uint32_t *u1, uint32_t unit)
{
    frag_span(R, y0, y1, bx0, bx1, u0, u1, unit);
}

tv_status vm_frag_run_warp(vm_worker *wk, vm_warp *w, bool trace_pass, unsigned isa,
                           tv_error *err)
{
    return run_warp(wk, w, trace_pass, isa, err, false);
}

tv_status tv_vm_run_fragment(tv_vm *vm, const tv_vm_program *p, const tv_vm_bindings *b,
                             const tv_vm_frag_params *params, tv_vm_stats *stats,
                             tv_error *err)
{
    vm_run run;
    tv_status st = vm_run_begin(&run, vm, p, b, TV_TGSI_FRAG, err);
    if (st == TV_OK) {
        /* the set-up under the jobs' denormal mode, as a batch's add makes it: a denormal
           w is 0 there (1/w taken as 1), not a finite reciprocal */
        bool flush = vm->cfg.flush_denormals;
        unsigned fp_saved = flush ? tv_fp_flush_begin() : 0;
        st = vm_frag_run_setup(&run, params, err);
        if (flush)
            tv_fp_flush_end(fp_saved);
    }
    if (st != TV_OK)
        return st;
    /* the rows of tiles that meet the scissor box (frag_job numbers them from its top) */
    vm_frag_box fb;
    frag_box_init(&run, &fb);
    if (fb.x0 >= fb.x1 || fb.y0 >= fb.y1) {
        if (stats)
            memset(stats, 0, sizeof *stats);
        return TV_OK;
    }
    uint64_t njobs = (fb.y1 + 3) / 4 - fb.y0 / 4;
    /* one warp per 8x4 tile (per sample when shading per sample): the JIT's measure */
    run.expected_warps = njobs * (uint64_t)((fb.x1 + 7) / 8 - fb.x0 / 8) *
                         (run.per_sample ? run.samples : 1);
    if (vm_frag_packs(&run, &fb))
        return vm_run_jobs(&run, 1, 1, vm_frag_packed_job, stats, err);
    const bool uni = p->frag_uniform && !run.plain && !run.tracing && !vm->frag_uniform_off;
    return vm_run_jobs(&run, njobs, 1, uni ? frag_job_uniform : frag_job, stats, err);
}
