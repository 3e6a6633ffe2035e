/* The warp-wide path for anisotropic requests: a SAMPLE / SAMPLE_BIAS request with
 * implicit derivatives whose sampler filters anisotropically, decided once per request —
 * one handle for every active lane, a 2D / 2D array target, a unorm8x4 view (tex_layout.c)
 * with normalized coordinates mapped in host memory, no sRGB decode, compare or
 * reduction, REPEAT / MIRROR / CLAMP_TO_EDGE (offsets and projection allowed).
 *
 * What the general path (tex_execute.c sample_lane → tex_lod_compute → tex_filter_sample)
 * redoes per lane and per probe is hoisted per request: the tex_ctx copy, sampler state,
 * bias and clamps, every level's size and memory constants, the swizzle. The footprint
 * (λ, probe count and step, the QUERY_LOD extras) is a pure function of the four
 * derivatives, so lanes repeating the previous lane's derivative bits (quads of an affine
 * mapping) reuse it. Each probe's level footprints then read texels straight from host
 * memory.
 *
 * Bit-identity: per lane the same float operations in the same order as tex_lod.c
 * (footprint with anisotropy, bias, clamps, level selection), tex_filter.c (probe
 * position k = p/(n+1) - 0.5, st + k·step, the level blend w0·a + w1·b, the probe sum
 * from the first probe and the division by n) and tex_filter_level / tex_fast_linear.c (texel
 * coordinate st·size + offset, wrap, weights (1-a or a)·(1-b or b)). One rewrite is exact
 * because texel values are finite floats in [0, 1] and weights lie in [0, 1]: the four
 * taps are always summed in tap order (a skipped zero-weight tap adds +0 to a sum ≥ +0,
 * and 1·f = f). tests/tex/test_fastpath_aniso.c compares both paths word for word. */
#include <math.h>
#include <string.h>

#include "tex/format.h"
#include "tex/tex_sampling.h"
#include "tex/fast/tex_warp.h"
#include "tex/fast/tex_warp_aniso.h"
#include "util/half.h"

#define LANES TV_TEX_LANES
#define MAX_BIAS 15.99609375f /* as tex_lod.c */

typedef struct an_level { /* one view level, hoisted */
    float wf, hf;         /* size as floats (the coordinate scale) */
    uint32_t w, h;
    uint64_t base;        /* level_offset (layer 0) */
    unsigned abs;         /* absolute level */
    unsigned bh, shift;   /* block-linear: GOB block height (log2), shift of a block */
    uint32_t gobs_x;
} an_level;

typedef struct an_ctx {
    warp_ctx c;           /* the request-wide state (tex_warp_hoist; its lv[] unused) */
    bool pitch_layout;
    float maxa;
    an_level lv[TEX_MAX_LEVELS];
} an_ctx;

typedef struct an_foot {  /* tex_lod.c footprint() results for one derivative set */
    float lb, mu, mv, lr;
    unsigned probes;
    float ds, dt;
} an_foot;

/* tex_texel_offset's column and row parts for 4-byte texels (z = 0), the level's
 * constants hoisted (tex_formulas.h) */
static inline uint64_t col_off(const an_ctx *w, const an_level *L, uint32_t x)
{
    uint64_t xb = (uint64_t)x * 4u;
    return w->pitch_layout ? xb : tex_bl_col(xb, L->shift);
}

static inline uint64_t row_off(const an_ctx *w, const an_level *L, uint32_t y)
{
    return w->pitch_layout ? (uint64_t)y * w->c.v->pitch
                           : tex_bl_row(y, L->bh, L->gobs_x, L->shift);
}

/* The request-wide checks and the hoisted state (mirrors setup_ctx + tex_lod_scale). */
static bool an_setup(tv_tex_unit *unit, const tv_tex_request *req, an_ctx *w)
{
    if (!tex_fast_serves(unit) || !req->active)
        return false;
    if (req->op != TV_TEX_OP_SAMPLE && req->op != TV_TEX_OP_SAMPLE_BIAS)
        return false;
    if (req->target != TV_TEXTGT_2D && req->target != TV_TEXTGT_2D_ARRAY)
        return false;
    if (req->flags & ~(uint32_t)(TV_TEXF_OFFSETS | TV_TEXF_PROJECTIVE | TV_TEXF_VALUES_ONLY))
        return false;
    const tex_view *v = NULL;
    const tex_sampler *s = NULL;
    if (!tex_warp_common(unit, req, &v, &s)) /* tex_warp.h */
        return false;
    unsigned code = v->tic.use_header_opt_control ? v->tic.max_anisotropy : s->tsc.max_anisotropy;
    unsigned maxa = tv_tex_aniso_ratio[code & 7u];
    if (maxa <= 1 || (s->tsc.min_filter != TV_MIN_LINEAR && s->tsc.min_filter != TV_MIN_ANISO))
        return false; /* isotropic: tex_warp.c or the general path */
    w->maxa = (float)maxa;
    if (!tex_warp_hoist(unit, v, s, &w->c))
        return false;
    w->pitch_layout = w->c.pitch;
    for (uint32_t r = 0; r <= w->c.q; r++) {
        an_level *L = &w->lv[r];
        L->abs = w->c.base_level + r;
        L->w = tex_level_width(v, L->abs);
        L->h = tex_level_height(v, L->abs);
        L->wf = (float)L->w;
        L->hf = (float)L->h;
        L->base = v->level_offset[L->abs];
        L->gobs_x = v->level_gobs_x[L->abs];
        L->bh = v->gob_h_log2[L->abs];
        L->shift = 9 + L->bh + v->gob_d_log2[L->abs];
    }
    return true;
}

/* tex_lod.c footprint() for two axes with anisotropy allowed. */
static void footprint(const an_ctx *w, const float dx[2], const float dy[2], an_foot *o)
{
    warp_axes a;
    tex_warp_axes(w->c.scale, dx[0], dx[1], dy[0], dy[1], &a);
    float rmax = a.rmax, rmin = a.rmin;
    const float *dm = a.x_major ? dx : dy;
    o->mu = a.mu;
    o->mv = a.mv;
    o->lr = a.lr;
    float eta = 1.0f;
    o->probes = 1;
    o->ds = o->dt = 0.0f;
    if (rmax > 0.0f) {
        eta = rmin > 0.0f ? fminf(rmax / rmin, w->maxa) : w->maxa;
        if (!(eta >= 1.0f))
            eta = 1.0f;
        o->probes = (unsigned)ceilf(eta);
        o->ds = dm[0];
        o->dt = dm[1];
    }
    o->lb = log2f(rmax / eta);
}

/* The four channels of texel (i, j) of level L, layer base `lbase`. */
static inline void texel(const an_ctx *w, const an_level *L, uint64_t lbase, uint64_t xo,
                         uint64_t yo, int32_t i, int32_t j, uint32_t layer, float f[4])
{
    const tex_view *v = w->c.v;
    uint64_t off = lbase + xo + yo;
    if (off + 4 <= v->size_bytes) {
        const uint8_t *p = v->host + off;
        for (unsigned k = 0; k < 4; k++)
            f[k] = tex_unorm8[p[v->unorm8_byte[k]]];
        return;
    }
    uint32_t raw[4]; /* never for a consistent header: the general loader's rules */
    tex_load_texel(w->c.unit, v, L->abs, (unsigned)i, (unsigned)j, 0, layer, 0, false, raw);
    for (unsigned k = 0; k < 4; k++)
        memcpy(&f[k], &raw[k], 4);
}

/* tex_filter_level for one lane at one level: u, v texel-space coordinates. */
static void level_sample(const an_ctx *w, const an_level *L, uint32_t layer, bool lin,
                         float u, float vv, float out[4])
{
    uint64_t lbase = (uint64_t)layer * w->c.v->layer_stride + L->base;
    if (!lin) {
        int32_t i = tex_wrap_nearest(w->c.wrap[0], u, L->w);
        int32_t j = tex_wrap_nearest(w->c.wrap[1], vv, L->h);
        texel(w, L, lbase, col_off(w, L, (uint32_t)i), row_off(w, L, (uint32_t)j), i, j, layer,
              out);
        return;
    }
    int32_t i0, i1, j0, j1;
    float a, b;
    tex_wrap_linear_common(w->c.wrap[0], u, L->w, false, &i0, &i1, &a);
    tex_wrap_linear_common(w->c.wrap[1], vv, L->h, false, &j0, &j1, &b);
    const float wx[2] = {1.0f - a, a}, wy[2] = {1.0f - b, b};
    const int32_t ix[2] = {i0, i1}, jy[2] = {j0, j1};
    const uint64_t xo[2] = {col_off(w, L, (uint32_t)i0), col_off(w, L, (uint32_t)i1)};
    const uint64_t yo[2] = {row_off(w, L, (uint32_t)j0), row_off(w, L, (uint32_t)j1)};
    for (unsigned t = 0; t < 4; t++) {
        float wt = wx[t & 1u] * wy[t >> 1];
        float f[4];
        texel(w, L, lbase, xo[t & 1u], yo[t >> 1], ix[t & 1u], jy[t >> 1], layer, f);
        for (unsigned k = 0; k < 4; k++)
            out[k] = t ? out[k] + wt * f[k] : wt * f[k];
    }
}

typedef struct an_lane {  /* one lane after λ: what its probes need */
    float s, t, offu, offv;
    uint32_t layer;
    bool lin, two;
    uint32_t l0, l1;
    float w0, w1;
    unsigned probes;      /* the footprint's probe count and step */
    float ds, dt;
} an_lane;

/* sample_levels: one or two levels and their blend. */
static void levels_sample(const an_ctx *w, const an_lane *ln, float s, float t, float out[4])
{
    const an_level *L = &w->lv[ln->l0];
    level_sample(w, L, ln->layer, ln->lin, s * L->wf + ln->offu, t * L->hf + ln->offv, out);
    if (!ln->two)
        return;
    float hi[4];
    const an_level *H = &w->lv[ln->l1];
    level_sample(w, H, ln->layer, ln->lin, s * H->wf + ln->offu, t * H->hf + ln->offv, hi);
    for (unsigned k = 0; k < 4; k++)
        out[k] = ln->w0 * out[k] + ln->w1 * hi[k];
}

/* tex_lod_compute after the footprint: bias, clamps, level selection for one lane. */
static void lane_lod(const an_ctx *w, const tv_tex_request *req, unsigned l, float lb,
                     an_lane *ln, float *accessed, float *lp_out)
{
    float shader_bias = req->op == TV_TEX_OP_SAMPLE_BIAS ? req->lod[l] : 0.0f;
    float bias = tex_clampf(w->c.sbias + shader_bias, -16.0f, MAX_BIAS);
    float lp = lb + bias;
    float lod_min = w->c.lod_min;
    if (req->lod_clamp[l] > lod_min)
        lod_min = req->lod_clamp[l];
    float lam = tex_clampf(lp, lod_min, w->c.lod_max);
    float qf = (float)w->c.q;
    float lc = tex_clampf(lam, 0.0f, qf);
    *accessed = w->c.mip == TV_MIP_NONE    ? 0.0f
                : w->c.mip == TV_MIP_POINT ? fmaxf(tex_nearest_level(lc), 0.0f)
                                         : lc;
    *lp_out = lp;
    bool magnify = !(lam > 0.0f);
    ln->l0 = ln->l1 = 0;
    ln->w0 = 1.0f;
    ln->w1 = 0.0f;
    ln->two = false;
    if (!magnify) {
        float dp = fminf(lam, qf);
        if (w->c.mip == TV_MIP_POINT) {
            ln->l0 = (uint32_t)fmaxf(tex_nearest_level(dp), 0.0f);
        } else if (w->c.mip == TV_MIP_LINEAR) {
            float h = floorf(dp);
            uint32_t hi = (uint32_t)h;
            uint32_t lo = hi + 1 <= w->c.q ? hi + 1 : w->c.q;
            float f = dp - h;
            ln->l0 = hi;
            if (lo != hi && f > 0.0f) {
                ln->two = true;
                ln->l1 = lo;
                ln->w0 = 1.0f - f;
                ln->w1 = f;
            }
        }
    }
    ln->lin = magnify ? w->c.mag_lin : w->c.min_lin;
}

/* Quad difference (tex_execute.c quad_dx / quad_dy with the partial-quad rule). */
static float quad_d(const float *val, uint32_t present, unsigned lane, bool y)
{
    unsigned base = lane & ~3u, row = (lane >> 1) & 1u, col = lane & 1u;
    for (unsigned k = 0; k < 2; k++) {
        unsigned l0, l1;
        if (y) {
            l0 = base + (k ? 1u - col : col);
            l1 = l0 + 2;
        } else {
            l0 = base + 2 * (k ? 1u - row : row);
            l1 = l0 + 1;
        }
        if (((present >> l0) & 1u) && ((present >> l1) & 1u))
            return val[l1] - val[l0];
    }
    return 0.0f;
}

/* Every active lane's probes as vector passes (tex_warp_vec_probes), when the lanes read
 * the same level slots with the same filter: their state in the kernel's arrays. */
static bool vector_probes(const an_ctx *w, const an_lane *lanes, uint32_t active,
                          tv_tex_result *res)
{
    warp_probes P;
    memset(&P, 0, sizeof P); /* the vector passes read every lane (inactive ones masked) */
    P.active = active;
    const an_lane *first = &lanes[__builtin_ctz(active)];
    P.l0 = first->l0;
    P.l1 = first->l1;
    P.two = first->two;
    P.lin = first->lin;
    for (unsigned l = 0; l < LANES; l++) {
        if (!((active >> l) & 1u))
            continue;
        const an_lane *ln = &lanes[l];
        P.s[l] = ln->s;
        P.t[l] = ln->t;
        P.offu[l] = ln->offu;
        P.offv[l] = ln->offv;
        P.layer[l] = ln->layer;
        P.n[l] = ln->probes;
        P.ds[l] = ln->ds;
        P.dt[l] = ln->dt;
        P.w0[l] = ln->w0;
        P.w1[l] = ln->w1;
    }
    return tex_warp_vec_probes(&w->c, &P, res->v); /* tex_warp_vec.c */
}

bool tex_warp_aniso_sample(tv_tex_unit *unit, const tv_tex_request *req, tv_tex_result *res)
{
    an_ctx w;
    if (!an_setup(unit, req, &w))
        return false;
    const tex_view *v = w.c.v;
    uint32_t active = req->active;
    uint32_t present = (req->present ? req->present : active) | active;
    bool proj = (req->flags & TV_TEXF_PROJECTIVE) != 0;
    bool offs = (req->flags & TV_TEXF_OFFSETS) != 0;
    bool array = req->target == TV_TEXTGT_2D_ARRAY;

    float cs[LANES], ct[LANES]; /* projected coordinates */
    tex_warp_project(req, proj, cs, ct);
    uint32_t memo_key[4] = {0, 0, 0, 0};
    an_foot fp = {0};
    bool have_memo = false;
    /* per lane: footprint, λ and levels (res's QUERY_LOD fields written here); then the
     * probes — as vector passes when every active lane reads the same level slots with
     * the same filter, else lane by lane */
    an_lane lanes[LANES];
    const an_lane *first = NULL; /* the first active lane: the others must match its slots */
    bool uniform = true;
    for (unsigned l = 0; l < LANES; l++) {
        if (!((active >> l) & 1u))
            continue;
        float dx[2] = {quad_d(cs, present, l, false), quad_d(ct, present, l, false)};
        float dy[2] = {quad_d(cs, present, l, true), quad_d(ct, present, l, true)};
        uint32_t key[4] = {tv_f32_bits(dx[0]), tv_f32_bits(dx[1]), tv_f32_bits(dy[0]), tv_f32_bits(dy[1])};
        if (!have_memo || memcmp(key, memo_key, sizeof key)) {
            footprint(&w, dx, dy, &fp);
            memcpy(memo_key, key, sizeof key);
            have_memo = true;
        }
        an_lane *ln = &lanes[l];
        float accessed, lp;
        lane_lod(&w, req, l, fp.lb, ln, &accessed, &lp);
        res->lod_clamped[l] = accessed;
        res->lod_unclamped[l] = lp;
        res->major_u[l] = fp.mu;
        res->major_v[l] = fp.mv;
        res->log2_ratio[l] = fp.lr;
        ln->s = cs[l];
        ln->t = ct[l];
        ln->offu = (float)(offs ? req->offset[0][l] : 0);
        ln->offv = (float)(offs ? req->offset[1][l] : 0);
        ln->layer = array ? tex_layer_index(req->coord[3][l], v->layers ? v->layers : 1) : 0;
        ln->probes = fp.probes;
        ln->ds = fp.ds;
        ln->dt = fp.dt;
        if (!first)
            first = ln;
        else if (ln->l0 != first->l0 || ln->two != first->two ||
                 (ln->two && ln->l1 != first->l1) || ln->lin != first->lin)
            uniform = false;
    }
    if (uniform && vector_probes(&w, lanes, active, res))
        return true;
    for (unsigned l = 0; l < LANES; l++) {
        if (!((active >> l) & 1u))
            continue;
        const an_lane *ln = &lanes[l];
        float val[4];
        unsigned n = ln->probes;
        if (n <= 1) {
            levels_sample(&w, ln, ln->s, ln->t, val);
        } else { /* tex_filter_sample's probe average */
            float sum[4] = {0, 0, 0, 0}; /* set by probe 1 */
            for (unsigned p = 1; p <= n; p++) {
                float k = (float)p / (float)(n + 1) - 0.5f;
                float pv[4];
                levels_sample(&w, ln, ln->s + k * ln->ds, ln->t + k * ln->dt, pv);
                for (unsigned ch = 0; ch < 4; ch++)
                    sum[ch] = p == 1 ? pv[ch] : sum[ch] + pv[ch];
            }
            for (unsigned ch = 0; ch < 4; ch++)
                val[ch] = sum[ch] / (float)n;
        }
        for (unsigned c = 0; c < 4; c++) {
            int src = w.c.swz[c];
            res->v[c][l] = src >= 0 ? tv_f32_bits(val[src]) : w.c.konst[c];
        }
    }
    return true;
}
