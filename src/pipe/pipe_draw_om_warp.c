/* The output merger on one 8x4 tile of shaded pixels at once (the fragment stage's warp
 * emit hook, used unless the context runs the plain interpreter). It makes the steps of
 * draw_om_emit (pipe_draw_om.c) in the same order on each pixel — bounds, coverage, late
 * depth/stencil, then each colour buffer — but blends a tile's lanes channel by channel
 * across lanes (om_blend_lanes, the same arithmetic as om_blend_color). The lanes of one
 * pass are distinct pixels, so taking the tile's depth tests before its colour writes
 * changes nothing. It batches single-sampled draws without antialiasing, alpha test or
 * alpha-to-coverage whose shader exports no depth, stencil or sample mask; any other tile
 * goes through draw_om_emit lane by lane. tests/pipe/test_draw_om_warp.c compares both on
 * every factor, equation, format class, mask and logic op. */
#include "pipe_draw.h"
#include "pipe_om_lanes.h"

#include "util/bits.h"
#include "util/prefetch.h"
#include "util/tile_lanes.h"
#include "util/half.h"

#include <string.h>

static const uint32_t zero_lanes[OM_LANES];
/* 1.0 in every lane: the alpha row under alpha-to-one */
static const float ones_lanes[OM_LANES] = {
    1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f,
    1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f,
    1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f};
/* Lane by lane through the per-pixel merger, each lane's record as the engine's per-pixel
 * hook would have built it. */
static void by_lanes(draw_state *d, const tv_vm_frag_warp_output *w)
{
    tv_vm_frag_output o;
    memset(&o, 0, sizeof o);
    for (uint32_t m = w->live; m; m &= m - 1) {
        tv_vm_frag_warp_lane(w, (unsigned)__builtin_ctz(m), &o);
        draw_om_emit(d, &o);
    }
}

/* RGBA32 (raw32) targets, four lanes at a time where all four are in M: the four
 * texels transposed into the lanes' channel rows and back. The same words as the lane by
 * lane copies; what changes is that the channel rows are written (and read) as whole
 * vectors, which om_blend_lanes then loads without waiting for 16 separate word stores
 * to reach the cache (a load that spans several narrower stores is not forwarded from
 * them). Returns the lanes left for the lane by lane loop. */
#if defined(__SSE2__)
#include <emmintrin.h>

/* Where draw_cbuf_texel puts sample 0 of the target's pixels, as locals: the stores into
 * the target could alias the draw state's fields, which the compiler would then reload
 * after each one. */
typedef struct texel_at {
    uint8_t *base;
    size_t stride, pixel;
} texel_at;

static texel_at texel_at_init(const draw_state *d, const draw_cbuf *cb)
{
    texel_at t = {cb->base + cb->layer_stride * d->layer, cb->stride,
                  (size_t)cb->t.bytes * d->samples};
    return t;
}

static float *texel(const texel_at *t, int32_t x, int32_t y)
{
    return (float *)(void *)(t->base + t->stride * (size_t)y + t->pixel * (size_t)x);
}

/* The texels of quad Q's four lanes (TL, TR, BL, BR): the engine's quads are 2x2 pixels in
 * that order (tv_vm_frag_warp_output, docs/vm-fragments.md §1 "Fragment tiles"), so one
 * address and two steps serve all four (an address per lane, two 64-bit multiplies each,
 * cost the blend scene about 10 %). */
static void quad_texels(const texel_at *t, const int32_t *x, const int32_t *y, unsigned q,
                        float *p[4], bool pixels)
{
    if (pixels) {
        for (unsigned i = 0; i < 4; i++)
            p[i] = texel(t, x[q + i], y[q + i]);
        return;
    }
    p[0] = texel(t, x[q], y[q]);
    p[1] = (float *)(void *)((uint8_t *)p[0] + t->pixel);
    p[2] = (float *)(void *)((uint8_t *)p[0] + t->stride);
    p[3] = (float *)(void *)((uint8_t *)p[2] + t->pixel);
}

static uint32_t raw_read_quads(const draw_state *d, const draw_cbuf *cb,
                               const tv_vm_frag_warp_output *w, uint32_t m, om_lanes *dst)
{
    uint32_t rest = m;
    const texel_at at = texel_at_init(d, cb);
    const int32_t *x = w->x, *y = w->y;   /* (locals: see texel_at) */
    for (unsigned q = 0; q < OM_LANES; q += 4) {
        if (((m >> q) & 0xfu) != 0xfu)
            continue;
        float *p[4];
        quad_texels(&at, x, y, q, p, w->pixels);
        __m128 t0 = _mm_loadu_ps(p[0]);
        __m128 t1 = _mm_loadu_ps(p[1]);
        __m128 t2 = _mm_loadu_ps(p[2]);
        __m128 t3 = _mm_loadu_ps(p[3]);
        _MM_TRANSPOSE4_PS(t0, t1, t2, t3);
        _mm_storeu_ps(&dst->c[0][q], t0);
        _mm_storeu_ps(&dst->c[1][q], t1);
        _mm_storeu_ps(&dst->c[2][q], t2);
        _mm_storeu_ps(&dst->c[3][q], t3);
        rest &= ~(0xfu << q);
    }
    return rest;
}

/* The lanes of M written from four channel rows ROW (R, G, B, A; 32 lanes each) into a
 * raw32 target, every channel (colour mask 0xf): the quads whole in M transposed into
 * their four texels, each other lane's texel built in a register (built in a local array
 * and copied, a texel's 16-byte load waited for the four word stores before it to reach
 * the cache: about two thirds of write_lanes' time in the mesh scene on an Intel core).
 * The words move by loads, shuffles and stores only (no arithmetic: any bits go through
 * as they are). Returns the lanes left: none. */
static uint32_t raw_write_rows(const draw_state *d, const draw_cbuf *cb,
                               const tv_vm_frag_warp_output *w, uint32_t m,
                               const float *const row[4])
{
    uint32_t rest = m;
    const texel_at at = texel_at_init(d, cb);
    const int32_t *x = w->x, *y = w->y;   /* (locals: see texel_at) */
    for (unsigned q = 0; q < OM_LANES; q += 4) {
        if (((m >> q) & 0xfu) != 0xfu)
            continue;
        __m128 t0 = _mm_loadu_ps(&row[0][q]);
        __m128 t1 = _mm_loadu_ps(&row[1][q]);
        __m128 t2 = _mm_loadu_ps(&row[2][q]);
        __m128 t3 = _mm_loadu_ps(&row[3][q]);
        _MM_TRANSPOSE4_PS(t0, t1, t2, t3);
        float *p[4];
        quad_texels(&at, x, y, q, p, w->pixels);
        _mm_storeu_ps(p[0], t0);
        _mm_storeu_ps(p[1], t1);
        _mm_storeu_ps(p[2], t2);
        _mm_storeu_ps(p[3], t3);
        rest &= ~(0xfu << q);
    }
    for (uint32_t k = rest; k; k &= k - 1) {
        unsigned l = (unsigned)__builtin_ctz(k);
        /* (word loads that may alias: a row can be the shader's integer words) */
        __m128i rg = _mm_unpacklo_epi32(_mm_loadu_si32(&row[0][l]), _mm_loadu_si32(&row[1][l]));
        __m128i ba = _mm_unpacklo_epi32(_mm_loadu_si32(&row[2][l]), _mm_loadu_si32(&row[3][l]));
        _mm_storeu_si128((__m128i *)(void *)texel(&at, x[l], y[l]), _mm_unpacklo_epi64(rg, ba));
    }
    return 0;
}
#else
static uint32_t raw_read_quads(const draw_state *d, const draw_cbuf *cb,
                               const tv_vm_frag_warp_output *w, uint32_t m, om_lanes *dst)
{
    (void)d, (void)cb, (void)w, (void)dst;
    return m;
}
static uint32_t raw_write_rows(const draw_state *d, const draw_cbuf *cb,
                               const tv_vm_frag_warp_output *w, uint32_t m,
                               const float *const row[4])
{
    (void)d, (void)cb, (void)w, (void)row;
    return m;
}
#endif

/* Whether W's lanes are one 8x4 tile in the engine's order (util/tile_lanes.h; the tile
 * walk's warps: a warp packed from small triangles' quads is not), every lane inside the
 * target (M all lanes) */
static bool whole_tile(const tv_vm_frag_warp_output *w, uint32_t m)
{
    if (m != UINT32_MAX)
        return false;
    if (w->tile)
        return true;
    uint32_t diff = 0;
    const int32_t x0 = w->x[0], y0 = w->y[0];
    for (unsigned l = 0; l < OM_LANES; l++)
        diff |= (uint32_t)(w->x[l] - x0 - tv_tile_lane_x[l]) |
                (uint32_t)(w->y[l] - y0 - tv_tile_lane_y[l]);
    return diff == 0;
}

/* Colour buffer I for the lanes in M (write_color of pipe_draw_om.c on each). */
static void write_lanes(const draw_state *d, unsigned i, const tv_vm_frag_warp_output *w,
                        uint32_t m)
{
    const tv_pipe_blend_state *b = &d->ctx->sub.blend;
    const om_rt_blend *rt = &b->rt[b->independent_blend_enable ? i : 0];
    const draw_cbuf *cb = &d->cb[i];
    unsigned src = d->color0_all ? 0 : i;
    if (!((w->colors >> src) & 1u) || !rt->colormask)
        return;
    const uint32_t *const *col = w->color[src];
    bool integer = cb->t.cls == OM_CLASS_SINT || cb->t.cls == OM_CLASS_UINT;
    bool to_one = b->alpha_to_one && !integer;    /* alpha-to-one */
    int logicop = b->logicop_enable ? b->logicop_func : -1;
    bool raw = cb->t.raw32 && (logicop < 0 || cb->t.cls == OM_CLASS_FLOAT);
    if (!rt->blend_enable || integer) {
        uint32_t rest = m;
        if (raw && rt->colormask == 0xfu) {
            /* the shader's words as rows of floats that raw_write_rows moves unchanged */
            const float *const row[4] = {
                (const float *)(const void *)col[0], (const float *)(const void *)col[1],
                (const float *)(const void *)col[2],
                to_one ? ones_lanes : (const float *)(const void *)col[3]};
            rest = raw_write_rows(d, cb, w, m, row);
        }
        for (uint32_t k = rest; k; k &= k - 1) {
            unsigned l = (unsigned)__builtin_ctz(k);
            uint32_t value[4] = {col[0][l], col[1][l], col[2][l],
                                 to_one ? 0x3f800000u : col[3][l]};
            uint8_t *texel = draw_cbuf_texel(d, cb, w->x[l], w->y[l], 0);
            if (raw)
                om_raw32_write(texel, value, rt->colormask);
            else
                om_target_write(&cb->t, value, rt->colormask, logicop, texel);
        }
        return;
    }
    if (cb->tile.ok && whole_tile(w, m)) {
        /* a whole tile of an RGBA32 float target, blended in the target's own order */
        const uint32_t *t1[4];
        for (unsigned c = 0; c < 4; c++)
            t1[c] = ((w->colors >> 1) & 1u) ? w->color[1][c] : zero_lanes;
        if (om_tile_blend_run(&cb->tile, col, t1, to_one, d->ctx->sub.blend_color,
                              draw_cbuf_texel(d, cb, w->x[0], w->y[0], 0), cb->stride))
            return;
    }
    om_lanes s0, s1, dst, out;
    bool src1 = om_blend_uses_src1(rt);
    for (unsigned c = 0; c < 4; c++) {
        /* the shader's words as floats (whole rows: a lane loop of bit casts stayed a
           scalar copy) */
        if (c == 3 && to_one)
            for (unsigned l = 0; l < OM_LANES; l++)
                s0.c[c][l] = 1.0f;
        else
            memcpy(s0.c[c], col[c], sizeof s0.c[c]);
        /* dual source: COLOR[1], zero when the shader did not write it */
        const uint32_t *c1 = ((w->colors >> 1) & 1u) ? w->color[1][c] : zero_lanes;
        if (src1)
            memcpy(s1.c[c], c1, sizeof s1.c[c]);
        if (m != UINT32_MAX)
            for (unsigned l = 0; l < OM_LANES; l++)
                dst.c[c][l] = 0.0f;   /* lanes not merged blend zeros, unused */
    }
    uint32_t rest = m;
    if (raw) {
        /* the target's lines two tiles to the right, which the tile after next reads:
           the rows of a tile are a target row apart, too far for the prefetcher to
           follow all four in time (a hint: it neither faults nor changes a byte) */
        for (int32_t r = 0; r < 4; r++) {
            const uint8_t *ahead = draw_cbuf_texel(d, cb, w->x[0] + 16, w->y[0] + r, 0);
            TV_PREFETCH_W(ahead);
            TV_PREFETCH_W(ahead + 64);
        }
        rest = raw_read_quads(d, cb, w, m, &dst);
    }
    for (uint32_t k = rest; k; k &= k - 1) {
        unsigned l = (unsigned)__builtin_ctz(k);
        uint32_t bits[4];
        const uint8_t *texel = draw_cbuf_texel(d, cb, w->x[l], w->y[l], 0);
        if (raw)
            om_raw32_read(texel, bits);
        else
            om_target_read(&cb->t, texel, bits);
        for (unsigned c = 0; c < 4; c++)
            dst.c[c][l] = tv_bits_f32(bits[c]);
    }
    om_blend_lanes(rt, cb->t.cls, &s0, src1 ? &s1 : &s0, &dst, d->ctx->sub.blend_color, &out);
    rest = m;
    if (raw && rt->colormask == 0xfu) {
        const float *const row[4] = {out.c[0], out.c[1], out.c[2], out.c[3]};
        rest = raw_write_rows(d, cb, w, m, row);
    }
    for (uint32_t k = rest; k; k &= k - 1) {
        unsigned l = (unsigned)__builtin_ctz(k);
        uint32_t value[4];
        for (unsigned c = 0; c < 4; c++)
            value[c] = tv_f32_bits(out.c[c][l]);
        uint8_t *texel = draw_cbuf_texel(d, cb, w->x[l], w->y[l], 0);
        if (raw)
            om_raw32_write(texel, value, rt->colormask);
        else
            om_target_write(&cb->t, value, rt->colormask, logicop, texel);
    }
}

void draw_om_emit_warp(void *user, const tv_vm_frag_warp_output *w)
{
    draw_state *d = user;
    const tv_pipe_blend_state *b = &d->ctx->sub.blend;
    if (d->samples > 1 || d->aa.kind != DRAW_AA_NONE || b->alpha_to_coverage ||
        d->ctx->sub.dsa.alpha_enabled || w->depth || w->stencil || w->sample_mask) {
        by_lanes(d, w);
        return;
    }
    /* in the target, sample 0 covered (draw_om_emit's n = 1) */
    uint32_t m;
    const int32_t W = d->width, H = d->height;
    /* a tile in the target: the coverage only (the bounds' tests were a tenth of the blend
       scene, bench_draw) */
    const om_isa isa = d->avx512 ? OM_ISA_AVX512 : d->avx2 ? OM_ISA_AVX2 : OM_ISA_C;
    if (w->tile && w->x[0] >= 0 && w->y[0] >= 0 && w->x[0] <= W - 8 && w->y[0] <= H - 4)
        m = om_lanes_covered(w->coverage, isa);
    else
        m = om_lanes_in_target(w->x, w->y, w->coverage, W, H, isa);
    m &= w->live;
    if (!m)
        return;
    const tv_pipe_dsa_state *s = &d->ctx->sub.dsa;
    if (d->zs_early == DRAW_ZS_LATE && (!d->has_zs || (!s->depth_enabled &&
                                                       !s->stencil[0].enabled))) {
        /* nothing to test: every sample passes (the lanes share a row of tiles) */
        d->ctx->rows[w->y[0] >> 2].passed += (uint64_t)tv_popcount32(m);
    } else if (d->zs_early == DRAW_ZS_LATE) {
        tv_vm_frag_output o;
        memset(&o, 0, sizeof o);   /* no shader depth or stencil (else by_lanes) */
        for (uint32_t k = m; k; k &= k - 1) {
            unsigned l = (unsigned)__builtin_ctz(k);
            o.x = w->x[l];
            o.y = w->y[l];
            if (draw_om_depth_stencil(d, &o, 0))
                d->ctx->rows[o.y >> 2].passed++;   /* occlusion queries count samples */
            else
                m &= ~(1u << l);
        }
    }
    if (!m)
        return;
    for (unsigned i = 0; i < d->nr_cbufs; i++)
        if (d->cb_bound[i])
            write_lanes(d, i, w, m);
}
