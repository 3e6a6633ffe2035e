/* Small primitives under the pipeline's hooks: the quads of the scissor box (the
 * primitive's bounding box; of each row, those within row_span's bound), row by row, go
 * to the coverage hook eight at a time (or, where the pipeline's coverage_quads hook
 * serves the box, its covered quads come at once), and those with a covered lane are
 * packed into warps of eight quads. A primitive a few quads wide then takes one warp instead of one
 * per 8x4 tile it touches (two or three for a triangle of ten pixels). Each quad keeps its
 * four lanes in the tile's order (TL, TR, BL, BR) and its pixels, so derivatives and every
 * value are the tile walk's; the quads left out have no live lane, and no effect, there
 * either (helper lanes write nothing). The hooks see each pixel once, in row order.
 *
 * A batch (tv_vm_frag_batch, include/texvm/vm.h; vm_stage_frag_batch.c) keeps the warp
 * being filled from one primitive to the next, so a draw of triangles of ten pixels runs
 * about half as many warps, and sets the engine up once, not per triangle. The quads one
 * primitive adds to a warp are a group: its inputs and system values are computed when
 * the group is complete, while the primitive's parameters are at hand, for the whole warp
 * into a side register file, and the group's lanes copied into the warp (the first group
 * of a warp is computed in place). Groups whose inputs can wait (vm_stage_frag_defer.h)
 * only leave their triangle's numbers, and one pass computes them for the whole warp
 * before it runs. A quad that covers a pixel some pending lane of an earlier primitive
 * covers runs the pending warp first, so the emit hooks get no pixel twice in one call. */
#include <stdlib.h>

#if defined(__x86_64__)
#include <immintrin.h>
#define PACK_X86 1
#else
#define PACK_X86 0
#endif

#include "util/bits.h"
#include "util/fpmode.h"
#include "util/wide_vectors.h"
#include "vm/vm_jit.h"
#include "vm/vm_stage_frag.h"
#include "vm/vm_stage_frag_defer.h"
#include "vm/vm_stage_frag_pack.h"
#include "vm/vm_stage_frag_quads.h"
#include "vm/vm_stage_frag_store.h"

bool vm_frag_packs(const vm_run *R, const vm_frag_box *fb)
{
    const tv_vm_frag_params *fp = R->fp;
    if (!fp->coverage_warp || !(fp->emit_warp || fp->emit) || R->plain || R->per_sample ||
        R->prog->sees_warp)
        return false;
    uint64_t quads = (uint64_t)((fb->x1 + 1) / 2 - fb->x0 / 2) * ((fb->y1 + 1) / 2 - fb->y0 / 2);
    return quads <= VM_FRAG_PACK_MAX_QUADS;
}

/* The inputs and system values of the current group's lanes, for the run's primitive. */
static void close_group(vm_worker *wk, frag_pack *P)
{
    if (P->nl == P->group)
        return;
    const vm_run *R = wk->run;
    const tv_vm_program *p = R->prog;
    vm_warp *w = P->w;
    if (P->defer && vm_frag_defer_group(P->defer, P->plan, R, P->group, P->nl)) {
        /* its inputs wait for vm_frag_pack_run (the plan allows no system values to set now) */
        if (P->group == 0)
            vm_frag_zero_regs(R, w);
        P->group = P->nl;
        P->gk = P->nk;
        return;
    }
    /* the triangle's same_attrs and bounded, which its deferred groups never read */
    if (P->attrs_run)
        for (uint32_t t = 0; t < P->attrs_run->num_tris; t++)
            if (!P->attrs_run->tris[t].attrs_known)
                vm_frag_tri_attrs(P->attrs_run, &P->attrs_run->tris[t]);
    /* the masks so far: HELPER_INVOCATION reads them */
    vm_worker_warp(wk, (uint32_t)(w - wk->warps), tv_quads_of(P->inside), P->live);
    w->sample = 0;
    if (P->group == 0) {
        vm_frag_zero_regs(R, w);
        vm_frag_values(wk, w, w->r, 0, false, -1, NULL);
    } else {
        vm_frag_values(wk, w, P->side, 0, false, -1, NULL);
        const unsigned lo = P->group, bytes = 4 * (P->nl - lo);
        const vm_range *ranges[2] = {&p->in, &p->sv};
        for (unsigned k = 0; k < 2; k++)
            for (uint32_t s = ranges[k]->base;
                 s < ranges[k]->base + (uint32_t)ranges[k]->count * 4u; s++)
                memcpy(&w->r[s].u[lo], &P->side[s].u[lo], bytes);
    }
    P->group = P->nl;
    P->gk = P->nk;
}

/* Lanes up to NL of P's warp filled from one quad: the entry (KEY, KMASK: the quad's
 * pixels they hold) for the conflict check, INSIDE and LIVE their lanes' bits. */
static TV_ALWAYS_INLINE void pack_entry(frag_pack *P, uint32_t key, uint32_t kmask,
                                        uint32_t inside, uint32_t live, unsigned nl)
{
    P->key[P->nk] = key;
    P->kmask[P->nk++] = kmask;
    P->inside |= inside;
    P->live |= live;
    P->nl = nl;
}

/* Runs P's parked warps, if any (their lanes and inputs set up), oldest first. */
tv_status vm_frag_pack_run_parked(vm_worker *wk, frag_pack *P, tv_error *err)
{
    while (P->parked) {
        vm_warp *w = &P->ring[(P->cur + VM_PACK_WARPS - P->parked) % VM_PACK_WARPS];
        P->parked--;
        tv_status st = vm_frag_run_warp(wk, w, true, P->isa, err);
        if (st != TV_OK) {
            P->parked = 0;
            return st;
        }
    }
    return TV_OK;
}

/* P's warp (its first nl lanes filled) set up and run, P's warp then empty. A batch whose
 * ring has room parks it instead and fills the ring's next warp: the VM_PACK_WARPS warps run
 * back to back when the last is full (or at a flush), so that the code of a warp's run
 * (the shader, the texture kernel, the output merger) and of the triangles' set-up each
 * stay in the instruction cache for four warps' work — together they were about 40 KB,
 * more than the 32 KB of a core's level-1 instruction cache, and every warp fetched most
 * of both anew (docs/vm-fragments.md §4). The warps run in the order they were filled, so
 * every pixel's outputs reach the hooks in the primitives' order (the early depth test
 * was made at packing). */
tv_status vm_frag_pack_run(vm_worker *wk, frag_pack *P, tv_error *err)
{
    vm_warp *w = P->w;
    close_group(wk, P);
    w->tile_order = false;
    w->pixel_lanes = P->pixels;
    P->pixel_warps += P->pixels;
    for (unsigned l = P->nl; l < VM_LANES; l++) {
        /* lanes of no quad: absent, at quad 0's pixels */
        w->lane_x[l] = w->lane_x[l & 3];
        w->lane_y[l] = w->lane_y[l & 3];
        w->lane_tri[l] = 0;
        w->lane_cov[l] = 0;
    }
    vm_worker_warp(wk, (uint32_t)(w - wk->warps), tv_quads_of(P->inside), P->live);
    w->sample = 0;
    if (P->defer)
        vm_frag_defer_run(P->defer, P->plan, w, w->r,
                          P->isa == VM_STORE_AVX512 ? VM_DEFER_AVX512 : VM_DEFER_AVX2);
    pack_empty(P);
    if (P->ring && P->parked < VM_PACK_WARPS - 1) {
        P->parked++;
        P->cur = (P->cur + 1) % VM_PACK_WARPS;
        P->w = &P->ring[P->cur];
        return TV_OK;
    }
    tv_status st = vm_frag_pack_run_parked(wk, P, err);
    return st != TV_OK ? st : vm_frag_run_warp(wk, w, true, P->isa, err);
}

/* A quad's pixels (x, y) as one word: y 2^16 + x, each to 16 bits. Equal pixels give
 * equal keys; pixels of a target (below 65536) different keys, and others at worst a
 * key that matches where the pixels do not, which only runs a pending warp early. */
static inline uint32_t quad_key(int32_t x, int32_t y)
{
    return (uint32_t)y << 16 | ((uint32_t)x & 0xffffu);
}

/* Whether a quad of key KEY covering LIVE (its pixels' bits TL..BR) meets an entry of an
 * earlier group (a quad, or the pixels of one a pixel warp took) at the same pixels on a
 * covered one: sixteen keys compared at once. */
static TV_ALWAYS_INLINE bool meets_pending(const frag_pack *P, uint32_t key, uint32_t live)
{
    for (uint32_t e0 = 0; e0 < P->gk; e0 += 16) {
        uint32_t m = 0;
#if PACK_X86
        /* sixteen keys' comparisons packed into one byte mask */
        const __m128i k = _mm_set1_epi32((int32_t)key);
        const __m128i *kp = (const __m128i *)(const void *)&P->key[e0];
        const __m128i c01 = _mm_packs_epi32(_mm_cmpeq_epi32(_mm_loadu_si128(kp), k),
                                            _mm_cmpeq_epi32(_mm_loadu_si128(kp + 1), k));
        const __m128i c23 = _mm_packs_epi32(_mm_cmpeq_epi32(_mm_loadu_si128(kp + 2), k),
                                            _mm_cmpeq_epi32(_mm_loadu_si128(kp + 3), k));
        m = (uint32_t)_mm_movemask_epi8(_mm_packs_epi16(c01, c23));
#else
        for (unsigned q = 0; q < 16; q++)
            m |= (uint32_t)(P->key[e0 + q] == key) << q;
#endif
        if (P->gk - e0 < 16)
            m &= (1u << (P->gk - e0)) - 1u;
        for (; m; m &= m - 1)
            if (P->kmask[e0 + (uint32_t)__builtin_ctz(m)] & live)
                return true;
    }
    return false;
}

/* The lanes of the quad at pixels (PX, PY) .. (PX + 1, PY + 1) inside box FB: its rows'
 * (bits 0-1 and 2-3 of the quad) times its columns' (bits 0 and 1 of each row) */
static uint32_t quad_in_box(const vm_frag_box *fb, uint32_t px, uint32_t py)
{
    const uint32_t rows = (py >= fb->y0 && py < fb->y1 ? 0x3u : 0u) |
                          (py + 1 >= fb->y0 && py + 1 < fb->y1 ? 0xcu : 0u);
    const uint32_t cols = (px >= fb->x0 && px < fb->x1 ? 0x5u : 0u) |
                          (px + 1 >= fb->x0 && px + 1 < fb->x1 ? 0xau : 0u);
    return rows & cols;
}

/* quad_in_box for a quad the coverage_quads contract holds (vm_frag_quads_bad found it
 * fine): on the even grid within the box's aligned quads, so PX < x1, PX + 1 >= x0 and
 * the same of PY are true, and only a first column or row before the box (x0 odd) or a
 * last one past it (x1 odd) leaves lanes out. Four comparisons instead of eight, at four
 * quads a triangle: pack_box_quads 756.5 M -> 715.6 M instructions in bench_draw's mesh
 * process (callgrind, 0.5 % of it). */
static TV_ALWAYS_INLINE uint32_t box_quad_in_box(const vm_frag_box *fb, int32_t px, int32_t py)
{
    const uint32_t x = (uint32_t)px, y = (uint32_t)py;
    const uint32_t rows = (y >= fb->y0 ? 0x3u : 0u) | (y + 1 < fb->y1 ? 0xcu : 0u);
    const uint32_t cols = (x >= fb->x0 ? 0x5u : 0u) | (x + 1 < fb->x1 ? 0xau : 0u);
    return rows & cols;
}

/* For each set of a quad's lanes (bits TL, TR, BL, BR): how many (a table: the baseline
 * x86-64 has no popcnt), its lanes in order, and their offsets from the quad's top-left
 * pixel (the unused entries 0). */
static const uint8_t pixel_n[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};
/* (one list of the lanes, TL 0 .. BR 3, whose offsets are bit 0 and bit 1 of each) */
#define PIXEL_ROWS(R)                                                                    \
    R(0, 0, 0, 0) R(0, 0, 0, 0) R(1, 0, 0, 0) R(0, 1, 0, 0) R(2, 0, 0, 0) R(0, 2, 0, 0) \
    R(1, 2, 0, 0) R(0, 1, 2, 0) R(3, 0, 0, 0) R(0, 3, 0, 0) R(1, 3, 0, 0) R(0, 1, 3, 0) \
    R(2, 3, 0, 0) R(0, 2, 3, 0) R(1, 2, 3, 0) R(0, 1, 2, 3)
#define PIXEL_J(a, b, c, d) {a, b, c, d},
#define PIXEL_DX(a, b, c, d) {(a) & 1, (b) & 1, (c) & 1, (d) & 1},
#define PIXEL_DY(a, b, c, d) {(a) >> 1, (b) >> 1, (c) >> 1, (d) >> 1},
static const uint8_t pixel_j[16][4] = {PIXEL_ROWS(PIXEL_J)};
static const int32_t pixel_dx[16][4] = {PIXEL_ROWS(PIXEL_DX)};
static const int32_t pixel_dy[16][4] = {PIXEL_ROWS(PIXEL_DY)};
#undef PIXEL_J
#undef PIXEL_DX
#undef PIXEL_DY
#undef PIXEL_ROWS

/* pack_pixels where the warp has less than four lanes left: pixel by pixel, running the
 * warp when it is full (the next warp's first pixels its own entry). */
static __attribute__((noinline)) tv_status pack_pixels_last(vm_worker *wk, frag_pack *P,
                                                            int32_t px, int32_t py,
                                                            uint32_t key, uint32_t qlive,
                                                            const uint32_t cov[4],
                                                            tv_error *err)
{
    uint32_t rest = qlive;
    while (rest) {
        vm_warp *w = P->w;   /* (a run may park the warp and give P the other) */
        uint32_t take = 0;
        const unsigned first = P->nl;
        unsigned l = first;
        for (; rest && l < VM_LANES; l++) {
            const unsigned j = (unsigned)__builtin_ctz(rest);
            rest &= rest - 1;
            take |= 1u << j;
            w->lane_x[l] = px + (int32_t)(j & 1);
            w->lane_y[l] = py + (int32_t)(j >> 1);
            w->lane_tri[l] = 0;
            w->lane_cov[l] = cov[j];
        }
        const uint32_t lanes = (uint32_t)((1ull << l) - (1ull << first));
        pack_entry(P, key, take, lanes, lanes, l);
        if (P->nl == VM_LANES) {
            tv_status st = vm_frag_pack_run(wk, P, err);
            if (st != TV_OK)
                return st;
        }
    }
    return TV_OK;
}

/* The covered pixels QLIVE (bits TL, TR, BL, BR; COV their coverage) of the quad at
 * (PX, PY), key KEY, each into the next lane of P's warp (pixels_ok's packing), the warp
 * run each time it is full. With room for four lanes they go at once: four lanes
 * written from the tables, the lanes past the pixels left for the next
 * (vm_frag_pack_run resets those no pixel takes). */
static TV_ALWAYS_INLINE tv_status pack_pixels(vm_worker *wk, frag_pack *P, int32_t px,
                                              int32_t py, uint32_t key, uint32_t qlive,
                                              const uint32_t cov[4], tv_error *err)
{
    vm_warp *w = P->w;
    const unsigned l0 = P->nl;
    if (l0 + 4 <= VM_LANES) {
        const uint8_t *j = pixel_j[qlive];
#if PACK_X86
        _mm_storeu_si128((void *)&w->lane_x[l0],
                         _mm_add_epi32(_mm_set1_epi32(px),
                                       _mm_loadu_si128((const void *)pixel_dx[qlive])));
        _mm_storeu_si128((void *)&w->lane_y[l0],
                         _mm_add_epi32(_mm_set1_epi32(py),
                                       _mm_loadu_si128((const void *)pixel_dy[qlive])));
#else
        for (unsigned k = 0; k < 4; k++) {
            w->lane_x[l0 + k] = px + pixel_dx[qlive][k];
            w->lane_y[l0 + k] = py + pixel_dy[qlive][k];
        }
#endif
        for (unsigned k = 0; k < 4; k++)
            w->lane_cov[l0 + k] = cov[j[k]];
        memset(&w->lane_tri[l0], 0, 4);
        const unsigned n = pixel_n[qlive];
        const uint32_t lanes = ((1u << n) - 1u) << l0;
        pack_entry(P, key, qlive, lanes, lanes, l0 + n);
        return P->nl == VM_LANES ? vm_frag_pack_run(wk, P, err) : TV_OK;
    }
    return pack_pixels_last(wk, P, px, py, key, qlive, cov, err);
}

/* The quad at pixels (PX, PY) .. (PX + 1, PY + 1), its lanes QIN (bits j: TL, TR, BL, BR)
 * in the box and their coverage COV from the hooks, into P's warp when a lane is live
 * (running the pending warp first when a live lane's pixel is pending, and the warp once
 * it is full). */
static TV_ALWAYS_INLINE tv_status pack_quad(vm_worker *wk, frag_pack *P, int32_t px,
                                            int32_t py, uint32_t qin, const uint32_t cov[4],
                                            tv_error *err)
{
    /* the four lanes at once (SSE2): coverage inside the box and of the samples, the
       live lanes, the lanes' pixels */
#if PACK_X86
    const __m128i bit = _mm_setr_epi32(1, 2, 4, 8);
    const __m128i c = _mm_and_si128(
        _mm_and_si128(_mm_loadu_si128((const void *)cov),
                      _mm_set1_epi32((int32_t)P->fb.all_samples)),
        _mm_cmpeq_epi32(_mm_and_si128(_mm_set1_epi32((int32_t)qin), bit), bit));
    const uint32_t qlive = 0xfu & ~(uint32_t)_mm_movemask_ps(
                                      _mm_castsi128_ps(_mm_cmpeq_epi32(c, _mm_setzero_si128())));
#else
    uint32_t c[4], qlive = 0;
    for (unsigned j = 0; j < 4; j++) {
        c[j] = cov[j] & P->fb.all_samples & (0u - ((qin >> j) & 1u));
        qlive |= (uint32_t)(c[j] != 0) << j;
    }
#endif
    if (!qlive)
        return TV_OK;
    const uint32_t key = quad_key(px, py);
    if (P->group && meets_pending(P, key, qlive)) {
        tv_status st = vm_frag_pack_run(wk, P, err);
        if (st != TV_OK)
            return st;
    }
    vm_warp *w = P->w;
    if (P->pixels) {
        uint32_t cj[4];
#if PACK_X86
        _mm_storeu_si128((void *)cj, c);
#else
        memcpy(cj, c, sizeof cj);
#endif
        return pack_pixels(wk, P, px, py, key, qlive, cj, err);
    }
    const unsigned l0 = P->nl;
#if PACK_X86
    _mm_storeu_si128((void *)&w->lane_x[l0],
                     _mm_add_epi32(_mm_set1_epi32(px), _mm_setr_epi32(0, 1, 0, 1)));
    _mm_storeu_si128((void *)&w->lane_y[l0],
                     _mm_add_epi32(_mm_set1_epi32(py), _mm_setr_epi32(0, 0, 1, 1)));
    _mm_storeu_si128((void *)&w->lane_cov[l0], c);
    memset(&w->lane_tri[l0], 0, 4);
#else
    for (unsigned j = 0; j < 4; j++) {
        w->lane_x[l0 + j] = px + (int32_t)(j & 1);
        w->lane_y[l0 + j] = py + (int32_t)(j >> 1);
        w->lane_tri[l0 + j] = 0;
        w->lane_cov[l0 + j] = c[j];
    }
#endif
    pack_entry(P, key, qlive, qin << l0, qlive << l0, l0 + 4);
    if (P->nl == VM_LANES)
        return vm_frag_pack_run(wk, P, err);
    return TV_OK;
}

/* Quads LO .. HI - 1 of a coverage_quads answer (QX, QY; COV their coverage, checked by
 * vm_frag_quads_bad) through pack_quad, each masked to P's box. */
static TV_ALWAYS_INLINE tv_status pack_box_range(vm_worker *wk, frag_pack *P, const int32_t *qx,
                                                 const int32_t *qy, const uint32_t *cov,
                                                 int lo, int hi, tv_error *err)
{
    for (int q = lo; q < hi; q++) {
        tv_status st = pack_quad(wk, P, qx[q], qy[q], box_quad_in_box(&P->fb, qx[q], qy[q]),
                                 &cov[4 * q], err);
        if (st != TV_OK)
            return st;
    }
    return TV_OK;
}

#if PACK_X86
#define PACK_AVX512 __attribute__((target("avx512f,popcnt,bmi2")))

/* pack_box_range out of line, for pack_box_pixels_avx512's rare quads that meet a pending
 * pixel: inlined there, its code took registers from the loop around it (spills). */
static __attribute__((noinline, cold)) tv_status pack_box_range_apart(
    vm_worker *wk, frag_pack *P, const int32_t *qx, const int32_t *qy, const uint32_t *cov,
    int lo, int hi, tv_error *err)
{
    return pack_box_range(wk, P, qx, qy, cov, lo, hi, err);
}

/* Whether a quad of the four in KEYS (lanes 0-3, quad_key) meets an entry of an earlier
 * group of P's warp at a pixel of LIVE (bits 4 k + j: quad k's pixel j): meets_pending
 * for the four at once, without a branch on the data. */
PACK_AVX512 static inline bool meets_pending4(const frag_pack *P, __m512i keys, uint32_t live)
{
    const __mmask16 g0 = (__mmask16)(P->gk >= 16 ? 0xffffu : (1u << P->gk) - 1u);
    const __mmask16 g1 = (__mmask16)(P->gk >= 32 ? 0xffffu
                                     : P->gk > 16 ? (1u << (P->gk - 16)) - 1u : 0u);
    const __m512i k0 = _mm512_loadu_si512(&P->key[0]), k1 = _mm512_loadu_si512(&P->key[16]);
    const __m512i m0 = _mm512_loadu_si512(&P->kmask[0]), m1 = _mm512_loadu_si512(&P->kmask[16]);
    __mmask16 hit = 0;
    for (int k = 0; k < 4; k++) {
        const __m512i sel = _mm512_set1_epi32(k);
        const __m512i key = _mm512_permutexvar_epi32(sel, keys);
        const __m512i nib = _mm512_set1_epi32((int32_t)((live >> (4 * k)) & 0xfu));
        hit |= _mm512_mask_test_epi32_mask(_mm512_mask_cmpeq_epi32_mask(g0, k0, key), m0, nib) |
               _mm512_mask_test_epi32_mask(_mm512_mask_cmpeq_epi32_mask(g1, k1, key), m1, nib);
    }
    return hit != 0;
}

/* The pixels PART (bits 4 k + j: quad k's pixel j) of the four quads of KEYS (lanes 0-3,
 * quad_key) into the next lanes of P's warp, room for them: their pixels and coverage
 * (the first N = popcount(PART) lanes of VX, VY, VC), the quads' entries with the bits
 * of their pixels PART holds, the lanes inside and live. */
PACK_AVX512 static inline void place_pixels4(frag_pack *P, __m512i vx, __m512i vy, __m512i vc,
                                             unsigned n, __m512i keys, uint32_t part)
{
    vm_warp *w = P->w;
    const unsigned l0 = P->nl;
    const __mmask16 first = (__mmask16)((1u << n) - 1u);
    _mm512_mask_storeu_epi32(&w->lane_x[l0], first, vx);
    _mm512_mask_storeu_epi32(&w->lane_y[l0], first, vy);
    _mm512_mask_storeu_epi32(&w->lane_cov[l0], first, vc);
    /* (the packer's lanes all have triangle 0: the 16 lanes from l0, or the last 16,
       cover the new ones, and the others stay 0) */
    _mm_storeu_si128((void *)&w->lane_tri[l0 <= VM_LANES - 16 ? l0 : VM_LANES - 16],
                     _mm_setzero_si128());
    const __m512i nibs = _mm512_maskz_and_epi32(
        0xf, _mm512_srlv_epi32(_mm512_set1_epi32((int32_t)part),
                               _mm512_setr_epi32(0, 4, 8, 12, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)),
        _mm512_set1_epi32(0xf));
    const __mmask16 has = _mm512_test_epi32_mask(nibs, nibs);
    const unsigned e = (unsigned)_mm_popcnt_u32(has);
    _mm512_mask_storeu_epi32(&P->key[P->nk], (__mmask16)((1u << e) - 1u),
                             _mm512_maskz_compress_epi32(has, keys));
    _mm512_mask_storeu_epi32(&P->kmask[P->nk], (__mmask16)((1u << e) - 1u),
                             _mm512_maskz_compress_epi32(has, nibs));
    P->nk += e;
    const uint32_t lanes = (uint32_t)((1ull << (l0 + n)) - (1ull << l0));
    P->inside |= lanes;
    P->live |= lanes;
    P->nl = l0 + n;
}

/* pack_quad's pixel packing of the N quads QX, QY (COV their coverage) of a coverage_quads
 * answer, four quads (16 lanes) at a time with AVX-512: each lane's coverage inside the
 * box and of the samples (quad_in_box per lane: the contract makes the one-sided tests of
 * box_quad_in_box the two-sided ones), and where no quad of the four meets a pending
 * pixel, their covered pixels compressed into the next lanes at once, and their entries
 * — the warp run where it is full and the rest into the next. pack_quad places the same
 * pixels in the same lanes, with the same entries (a quad split between two warps an
 * entry in each, of the pixels in each), and runs the warp at the same pixel; where a
 * quad meets a pending pixel the four go through pack_quad (which checks no quad after a
 * warp's run: then no pixel is pending). Few branches depend on the data: a triangle of
 * bench_draw's mesh takes one step of four quads, where pack_quad's per-quad tests
 * mispredict. The AVX-512 placement and pack_quad's give the same warps
 * (tests/vm/test_frag_batch_pixels.c compares their layouts). */
PACK_AVX512 static tv_status pack_box_pixels_avx512(vm_worker *wk, frag_pack *P,
                                                    const int32_t *qx, const int32_t *qy,
                                                    const uint32_t *cov, int n, tv_error *err)
{
    const vm_frag_box *fb = &P->fb;
    /* lane 4 k + j: quad k's pixel j (TL, TR, BL, BR) */
    const __m512i spread = _mm512_setr_epi32(0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3);
    const __m512i dx = _mm512_setr_epi32(0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1);
    const __m512i dy = _mm512_setr_epi32(0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1);
    const __m512i x0 = _mm512_set1_epi32((int32_t)fb->x0), x1 = _mm512_set1_epi32((int32_t)fb->x1);
    const __m512i y0 = _mm512_set1_epi32((int32_t)fb->y0), y1 = _mm512_set1_epi32((int32_t)fb->y1);
    const __m512i all = _mm512_set1_epi32((int32_t)fb->all_samples);
    for (int i = 0; i < n; i += 4) {
        const unsigned m = n - i < 4 ? (unsigned)(n - i) : 4u;
        const __mmask16 qk = (__mmask16)((1u << m) - 1u), lk = (__mmask16)((1u << (4 * m)) - 1u);
        const __m512i qxv = _mm512_maskz_loadu_epi32(qk, qx + i);
        const __m512i qyv = _mm512_maskz_loadu_epi32(qk, qy + i);
        const __m512i x = _mm512_add_epi32(_mm512_permutexvar_epi32(spread, qxv), dx);
        const __m512i y = _mm512_add_epi32(_mm512_permutexvar_epi32(spread, qyv), dy);
        const __m512i c = _mm512_and_si512(_mm512_maskz_loadu_epi32(lk, cov + 4 * i), all);
        /* (unsigned, as box_quad_in_box compares) */
        const __mmask16 live = _mm512_mask_test_epi32_mask(lk, c, c) &
                               _mm512_cmpge_epu32_mask(x, x0) & _mm512_cmplt_epu32_mask(x, x1) &
                               _mm512_cmpge_epu32_mask(y, y0) & _mm512_cmplt_epu32_mask(y, y1);
        if (!live)
            continue;
        /* the four quads' keys (quad_key), lanes 0-3 */
        const __m512i keys = _mm512_or_si512(_mm512_slli_epi32(qyv, 16),
                                             _mm512_and_si512(qxv, _mm512_set1_epi32(0xffff)));
        if (P->group && meets_pending4(P, keys, live)) {
            tv_status st = pack_box_range_apart(wk, P, qx, qy, cov, i, i + (int)m, err);
            if (st != TV_OK)
                return st;
            continue;
        }
        const __m512i vx = _mm512_maskz_compress_epi32(live, x);
        const __m512i vy = _mm512_maskz_compress_epi32(live, y);
        const __m512i vc = _mm512_maskz_compress_epi32(live, c);
        const unsigned cnt = (unsigned)_mm_popcnt_u32(live), room = VM_LANES - P->nl;
        if (cnt < room) {
            place_pixels4(P, vx, vy, vc, cnt, keys, live);
            continue;
        }
        /* the warp fills: the first pixels to its last lanes, the run, the rest (the
           pixels of LIVE past the first ROOM) from lane 0 of the next */
        const uint32_t part = (uint32_t)_pdep_u32((1u << room) - 1u, live);
        place_pixels4(P, vx, vy, vc, room, keys, part);
        tv_status st = vm_frag_pack_run(wk, P, err);
        if (st != TV_OK)
            return st;
        if (cnt > room) {
            const __mmask16 rest = (__mmask16)(((1u << cnt) - 1u) & ~((1u << room) - 1u));
            place_pixels4(P, _mm512_maskz_compress_epi32(rest, vx),
                          _mm512_maskz_compress_epi32(rest, vy),
                          _mm512_maskz_compress_epi32(rest, vc), cnt - room, keys, live & ~part);
        }
    }
    return TV_OK;
}

/* (AVX2 alone: the engine asks for nothing else of the processor, so no popcnt or pdep) */
#define PACK_AVX2 __attribute__((target("avx2")))

/* For each set of eight lanes' bits, those lanes in order as bytes (the rest 0): AVX2 has
 * no compress, so a lookup gives the permute that moves the set lanes to the front. */
#define LEFT_PACK_1(m, k) (((m) >> (k)) & 1u)
static const uint64_t left_pack[256] = {
#define LP_B(m, k) ((uint64_t)(k) << (8 * (LP_RANK(m, k))))
#define LP_RANK(m, k) (__builtin_popcount((unsigned)(m) & ((1u << (k)) - 1u)))
#define LP(m) (LEFT_PACK_1(m, 0) * LP_B(m, 0) | LEFT_PACK_1(m, 1) * LP_B(m, 1) | \
               LEFT_PACK_1(m, 2) * LP_B(m, 2) | LEFT_PACK_1(m, 3) * LP_B(m, 3) | \
               LEFT_PACK_1(m, 4) * LP_B(m, 4) | LEFT_PACK_1(m, 5) * LP_B(m, 5) | \
               LEFT_PACK_1(m, 6) * LP_B(m, 6) | LEFT_PACK_1(m, 7) * LP_B(m, 7))
#define LP4(m) LP(m), LP((m) + 1), LP((m) + 2), LP((m) + 3)
#define LP16(m) LP4(m), LP4((m) + 4), LP4((m) + 8), LP4((m) + 12)
#define LP64(m) LP16(m), LP16((m) + 16), LP16((m) + 32), LP16((m) + 48)
    LP64(0), LP64(64), LP64(128), LP64(192)
#undef LP64
#undef LP16
#undef LP4
#undef LP
#undef LP_RANK
#undef LP_B
};
#undef LEFT_PACK_1

/* The lanes of V set in M (eight bits), in order, in the first lanes (the rest undefined) */
PACK_AVX2 static inline __m256i left_pack8(__m256i v, uint32_t m)
{
    return _mm256_permutevar8x32_epi32(
        v, _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(const void *)&left_pack[m])));
}

/* Whether quad KEY0 meets an entry of an earlier group of P's warp at a pixel of LIVE's
 * bits 0-3, or quad KEY1 at one of its bits 4-7: meets_pending for both at once, eight
 * entries a step with no branch on the data (the two calls' sixteen-key compares and
 * their bit loops had been a fifth of this packer's instructions in the mesh scene). */
PACK_AVX2 static inline bool meets_pending2(const frag_pack *P, uint32_t key0, uint32_t key1,
                                            uint32_t live)
{
    const __m256i k0 = _mm256_set1_epi32((int32_t)key0), k1 = _mm256_set1_epi32((int32_t)key1);
    const __m256i n0 = _mm256_set1_epi32((int32_t)(live & 0xfu));
    const __m256i n1 = _mm256_set1_epi32((int32_t)(live >> 4));
    const __m256i zero = _mm256_setzero_si256(), idx = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    __m256i hit = zero;
    _Static_assert(VM_LANES % 8 == 0, "entries read eight at a time");
    for (uint32_t e0 = 0; e0 < P->gk; e0 += 8) {
        const __m256i key = _mm256_loadu_si256((const __m256i *)(const void *)&P->key[e0]);
        const __m256i km = _mm256_loadu_si256((const __m256i *)(const void *)&P->kmask[e0]);
        const __m256i h0 = _mm256_andnot_si256(_mm256_cmpeq_epi32(_mm256_and_si256(km, n0), zero),
                                               _mm256_cmpeq_epi32(key, k0));
        const __m256i h1 = _mm256_andnot_si256(_mm256_cmpeq_epi32(_mm256_and_si256(km, n1), zero),
                                               _mm256_cmpeq_epi32(key, k1));
        /* (the entries from gk on are this group's) */
        const __m256i in = _mm256_cmpgt_epi32(_mm256_set1_epi32((int32_t)(P->gk - e0)), idx);
        hit = _mm256_or_si256(hit, _mm256_and_si256(in, _mm256_or_si256(h0, h1)));
    }
    return !_mm256_testz_si256(hit, hit);
}

/* place_pixels4 for two quads (KEY0, KEY1) and eight lanes: the first N lanes of VX, VY,
 * VC into the next lanes of P's warp, room for them, and the entries of the quads whose
 * pixels PART (bits 4 k + j) holds. */
PACK_AVX2 static inline void place_pixels2(frag_pack *P, __m256i vx, __m256i vy, __m256i vc,
                                           unsigned n, uint32_t key0, uint32_t key1,
                                           uint32_t part)
{
    vm_warp *w = P->w;
    const unsigned l0 = P->nl;
    if (l0 + 8 <= VM_LANES) {
        /* (the lanes past the N are the next pixels' or reset by vm_frag_pack_run) */
        _mm256_storeu_si256((__m256i *)(void *)&w->lane_x[l0], vx);
        _mm256_storeu_si256((__m256i *)(void *)&w->lane_y[l0], vy);
        _mm256_storeu_si256((__m256i *)(void *)&w->lane_cov[l0], vc);
    } else {
        const __m256i first = _mm256_cmpgt_epi32(_mm256_set1_epi32((int32_t)n),
                                                 _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
        _mm256_maskstore_epi32((int *)(void *)&w->lane_x[l0], first, vx);
        _mm256_maskstore_epi32((int *)(void *)&w->lane_y[l0], first, vy);
        _mm256_maskstore_epi32((int *)(void *)&w->lane_cov[l0], first, vc);
    }
    /* (the packer's lanes all have triangle 0) */
    memset(&w->lane_tri[l0 <= VM_LANES - 8 ? l0 : VM_LANES - 8], 0, 8);
    if (part & 0xfu) {
        P->key[P->nk] = key0;
        P->kmask[P->nk++] = part & 0xfu;
    }
    if (part >> 4) {
        P->key[P->nk] = key1;
        P->kmask[P->nk++] = part >> 4;
    }
    const uint32_t lanes = (uint32_t)((1ull << (l0 + n)) - (1ull << l0));
    P->inside |= lanes;
    P->live |= lanes;
    P->nl = l0 + n;
}

/* pack_box_pixels_avx512 with AVX2: two quads (eight lanes) a step, the same tests, the
 * same placement and entries, the warp run at the same pixel (tests/vm/test_frag_batch_pixels.c
 * compares the layouts with pack_quad's); a quad of the two that meets a pending pixel
 * sends both through pack_quad. The quad-by-quad packing took 16 % of the mesh scene's
 * time under the AVX2 ceiling, its per-quad tests' branches on the data mispredicting. */
PACK_AVX2 static tv_status pack_box_pixels_avx2(vm_worker *wk, frag_pack *P, const int32_t *qx,
                                                const int32_t *qy, const uint32_t *cov, int n,
                                                tv_error *err)
{
    const vm_frag_box *fb = &P->fb;
    const __m256i dx = _mm256_setr_epi32(0, 1, 0, 1, 0, 1, 0, 1);
    const __m256i dy = _mm256_setr_epi32(0, 0, 1, 1, 0, 0, 1, 1);
    /* unsigned bounds as box_quad_in_box's: x >= x0 as max(x, x0) == x, x < x1 as
       min(x, x1 - 1) == x (the box is not empty: x1 >= 1) */
    const __m256i x0 = _mm256_set1_epi32((int32_t)fb->x0), y0 = _mm256_set1_epi32((int32_t)fb->y0);
    const __m256i x1 = _mm256_set1_epi32((int32_t)(fb->x1 - 1));
    const __m256i y1 = _mm256_set1_epi32((int32_t)(fb->y1 - 1));
    const __m256i all = _mm256_set1_epi32((int32_t)fb->all_samples);
    const __m256i zero = _mm256_setzero_si256();
    for (int i = 0; i < n; i += 2) {
        const bool two = n - i >= 2;
        const int32_t ax = qx[i], ay = qy[i], bx = two ? qx[i + 1] : ax, by = two ? qy[i + 1] : ay;
        const __m256i x = _mm256_add_epi32(
            _mm256_set_m128i(_mm_set1_epi32(bx), _mm_set1_epi32(ax)), dx);
        const __m256i y = _mm256_add_epi32(
            _mm256_set_m128i(_mm_set1_epi32(by), _mm_set1_epi32(ay)), dy);
        const __m128i c0 = _mm_loadu_si128((const __m128i *)(const void *)&cov[4 * i]);
        const __m128i c1 = two ? _mm_loadu_si128((const __m128i *)(const void *)&cov[4 * i + 4])
                               : _mm_setzero_si128();
        const __m256i c = _mm256_and_si256(_mm256_set_m128i(c1, c0), all);
        const __m256i in = _mm256_andnot_si256(
            _mm256_cmpeq_epi32(c, zero),
            _mm256_and_si256(
                _mm256_and_si256(_mm256_cmpeq_epi32(_mm256_max_epu32(x, x0), x),
                                 _mm256_cmpeq_epi32(_mm256_min_epu32(x, x1), x)),
                _mm256_and_si256(_mm256_cmpeq_epi32(_mm256_max_epu32(y, y0), y),
                                 _mm256_cmpeq_epi32(_mm256_min_epu32(y, y1), y))));
        const uint32_t live = (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(in));
        if (!live)
            continue;
        const uint32_t key0 = quad_key(ax, ay), key1 = quad_key(bx, by);
        if (P->group && meets_pending2(P, key0, key1, live)) {
            tv_status st = pack_box_range_apart(wk, P, qx, qy, cov, i, two ? i + 2 : i + 1, err);
            if (st != TV_OK)
                return st;
            continue;
        }
        const unsigned cnt = pixel_n[live & 0xfu] + pixel_n[live >> 4], room = VM_LANES - P->nl;
        if (cnt < room) {
            place_pixels2(P, left_pack8(x, live), left_pack8(y, live), left_pack8(c, live), cnt,
                          key0, key1, live);
            continue;
        }
        /* the warp fills: its last lanes take the first ROOM pixels of LIVE, the run, the
           rest from lane 0 of the next */
        uint32_t part = 0, left = live;
        for (unsigned k = 0; k < room; k++) {
            part |= left & (0u - left);
            left &= left - 1;
        }
        place_pixels2(P, left_pack8(x, part), left_pack8(y, part), left_pack8(c, part), room,
                      key0, key1, part);
        tv_status st = vm_frag_pack_run(wk, P, err);
        if (st != TV_OK)
            return st;
        if (left)
            place_pixels2(P, left_pack8(x, left), left_pack8(y, left), left_pack8(c, left),
                          cnt - room, key0, key1, left);
    }
    return TV_OK;
}
#endif

/* Offers P's candidate quads to the coverage hook and packs those with a covered lane into
 * P's warp, running it each time it is full. */
static tv_status pack_candidates(vm_worker *wk, frag_pack *P, tv_error *err)
{
    const tv_vm_frag_params *fp = wk->run->fp;
    uint32_t ccov[VM_LANES];
    for (unsigned l = 0; l < VM_LANES; l++)
        ccov[l] = 0;
    if (P->cin)
        fp->coverage_warp(fp->hook_user, P->cx, P->cy, P->cin, ccov);
    for (unsigned k = 0; k < P->n; k++) {
        tv_status st = pack_quad(wk, P, P->cx[4 * k], P->cy[4 * k], (P->cin >> (4 * k)) & 0xfu,
                                 &ccov[4 * k], err);
        if (st != TV_OK)
            return st;
    }
    P->n = P->cin = 0;
    return TV_OK;
}

/* The box's quads from the coverage_quads hook (-1: it does not serve the box, nothing
 * done) into P's warp, as pack_candidates would have packed them. */
static int pack_box_quads(vm_worker *wk, frag_pack *P, tv_status *st, tv_error *err)
{
    const tv_vm_frag_params *fp = wk->run->fp;
    const vm_frag_box *fb = &P->fb;
    const int32_t box[4] = {(int32_t)fb->x0, (int32_t)fb->y0, (int32_t)fb->x1, (int32_t)fb->y1};
    int32_t qx[TV_VM_COVERAGE_QUADS_MAX], qy[TV_VM_COVERAGE_QUADS_MAX];
    uint32_t cov[4 * TV_VM_COVERAGE_QUADS_MAX];
    int n = fp->coverage_quads(fp->hook_user, box, qx, qy, cov);
    if (n < 0)
        return -1;
    /* the contract the packing relies on (distinct pixels, the box's lanes) */
    const uint32_t bad = vm_frag_quads_bad(box, qx, qy,
                                           n < TV_VM_COVERAGE_QUADS_MAX ? n
                                                                        : TV_VM_COVERAGE_QUADS_MAX,
                                           P->isa);
    if (bad || n > TV_VM_COVERAGE_QUADS_MAX) {
        const int i = bad ? __builtin_ctz(bad) : 0;
        *st = n > TV_VM_COVERAGE_QUADS_MAX
                  ? tv_error_set(err, TV_ERR_ARG, 0, 0,
                                 "coverage_quads returned %d quads (at most %d)", n,
                                 TV_VM_COVERAGE_QUADS_MAX)
                  : tv_error_set(err, TV_ERR_ARG, 0, 0,
                                 "coverage_quads: quad %d at (%d, %d) is not an aligned quad "
                                 "of the box (%d, %d)-(%d, %d) in row order", i, qx[i], qy[i],
                                 box[0], box[1], box[2], box[3]);
        return 0;
    }
#if PACK_X86
    if (P->pixels && P->isa == VM_STORE_AVX512) {
        *st = pack_box_pixels_avx512(wk, P, qx, qy, cov, n, err);
        return 0;
    }
    if (P->pixels && P->isa == VM_STORE_AVX2) {
        *st = pack_box_pixels_avx2(wk, P, qx, qy, cov, n, err);
        return 0;
    }
#endif
    *st = pack_box_range(wk, P, qx, qy, cov, 0, n, err);
    return 0;
}

/* The run's primitive, of box FB (vm_frag_box_init), into P: the box's covered quads at
 * once from the coverage_quads hook where it serves the box, else its quads row by row,
 * those of each row the primitive may cover (row_span), eight at a time to the coverage
 * hook; its last group closed (P's warp may hold quads still to run). */
tv_status vm_frag_pack_primitive(vm_worker *wk, frag_pack *P, const vm_frag_box *box,
                                tv_error *err)
{
    const vm_run *R = wk->run;
    P->fb = *box;
    const vm_frag_box *fb = &P->fb;
    P->n = P->cin = 0;
    if (R->fp->coverage_quads && !R->plain) {
        tv_status st;
        if (pack_box_quads(wk, P, &st, err) == 0) {
            if (st == TV_OK)
                close_group(wk, P);
            return st;
        }
    }
    for (uint32_t qy = fb->y0 / 2; qy < (fb->y1 + 1) / 2; qy++) {
        uint32_t qx0 = fb->x0 / 2, qx1 = (fb->x1 + 1) / 2;
        vm_frag_span(R, 2 * qy, 2 * qy + 2, fb->x0, fb->x1, &qx0, &qx1, 2);
        const uint32_t py = 2 * qy;
        for (uint32_t qx = qx0; qx < qx1; qx++) {
            const uint32_t px = 2 * qx;
            for (unsigned j = 0; j < 4; j++) {
                unsigned l = 4 * P->n + j;
                P->cx[l] = (int32_t)(px + (j & 1));
                P->cy[l] = (int32_t)(py + (j >> 1));
            }
            P->cin |= quad_in_box(fb, px, py) << (4 * P->n);
            if (++P->n == VM_LANES / 4) {
                tv_status st = pack_candidates(wk, P, err);
                if (st != TV_OK)
                    return st;
            }
        }
    }
    if (P->n) {
        for (unsigned l = 4 * P->n; l < VM_LANES; l++) {   /* no candidate: unused lanes */
            P->cx[l] = P->cx[0];
            P->cy[l] = P->cy[0];
        }
        tv_status st = pack_candidates(wk, P, err);
        if (st != TV_OK)
            return st;
    }
    close_group(wk, P);
    return TV_OK;
}

tv_status vm_frag_packed_job(vm_worker *wk, uint64_t job, tv_error *err)
{
    (void)job;   /* the one job */
    frag_pack P;
    memset(&P, 0, sizeof P);
    P.w = &wk->warps[0];
    P.isa = vm_frag_store_isa_run(wk->run);
    vm_frag_box fb;
    vm_frag_box_init(wk->run, &fb);
    tv_status st = vm_frag_pack_primitive(wk, &P, &fb, err);
    return st == TV_OK && P.nl ? vm_frag_pack_run(wk, &P, err) : st;
}
