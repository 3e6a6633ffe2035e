/* The warp-wide sampling path: a whole request of the dominant shape, decided once —
 * one handle for every active lane, a 2D / 2D array target, a unorm8x4 view (tex_layout.c)
 * with normalized coordinates, no sRGB decode, compare, reduction or anisotropy, REPEAT /
 * MIRROR / CLAMP_TO_EDGE wraps, ops SAMPLE, SAMPLE_BIAS, SAMPLE_LOD, SAMPLE_LZ (offsets,
 * projection and NO_DERIV allowed). Everything per request is hoisted (sizes, bias and
 * clamps, swizzle). The vectorised kernel (tex_warp_vec.c) answers the request when its
 * own conditions hold (one level per slot, power-of-two sizes for REPEAT / MIRROR,
 * coordinates in the int32 range, ...); otherwise the lanes go through passes here:
 * coordinates, derivatives + λ + level selection, then per level slot texel-space
 * coordinates, wrap and weights, and last the texel loads and blends.
 *
 * Bit-identity with the general path (tex_execute.c → tex_lod.c → tex_filter.c /
 * tex_fast_linear.c): the same float operations in the same order per lane. Two rewrites are
 * exact because every texel value is a finite float in [0, 1] and every weight in [0, 1]:
 * the four taps are always summed, in tap order (a skipped zero-weight tap adds +0, and
 * 1·f = f), and NEAREST is the LINEAR footprint with weights (1, 0, 0, 0) at the nearest
 * texel. tests/tex/test_fastpath_warp.c compares both paths on random requests. */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "tex/format.h"
#include "tex/fast/tex_fast_addr.h"
#include "tex/fast/tex_warp.h"
#include "util/half.h"

#define TEX_MAX_BIAS TEX_WARP_MAX_BIAS
#define TEX_MIN_LOG2_RATIO TEX_WARP_MIN_LOG2_RATIO
#define LANES TV_TEX_LANES

/* tex_texel_offset's column and row parts for 4-byte texels (z = 0), the level's
 * constants hoisted (tex_formulas.h) */
static inline uint64_t col_off(const warp_level *L, uint32_t x)
{
    uint64_t xb = (uint64_t)x * 4u;
    return L->pitch_layout ? xb : tex_bl_col(xb, L->shift);
}

static inline uint64_t row_off(const warp_level *L, uint32_t y)
{
    return L->pitch_layout ? (uint64_t)y * L->pitch : tex_bl_row(y, L->bh, L->gobs_x, L->shift);
}

/* fminf / fmaxf / floorf without the library call (they are calls at the baseline ISA):
 * the strict orders decide inline; ties (±0) and NaNs go to libm, so the result is the
 * library's, bit for bit. */
static inline float min_x(float a, float b)
{
    return a < b ? a : b < a ? b : fminf(a, b);
}

static inline float max_x(float a, float b)
{
    return a > b ? a : b > a ? b : fmaxf(a, b);
}

static inline float clampf(float x, float lo, float hi)
{
    return max_x(lo, min_x(hi, x)); /* tex_clampf with the inline min / max */
}

/* floorf: integral values (and ±0, inf, NaN) are their own floor; else truncate and step
 * down for negatives. */
static inline float floor_x(float x)
{
    if (!(fabsf(x) < 8388608.0f))
        return x == x ? x : floorf(x);
    if (x == 0.0f)
        return x;
    float t = (float)(int32_t)x;
    return t > x ? t - 1.0f : t;
}

/* The one handle of the active lanes (at least one is active), false if they differ. */
static bool one_handle(const tv_tex_request *req, uint32_t *handle)
{
    unsigned first = 0;
    while (!((req->active >> first) & 1u))
        first++;
    uint32_t h = req->handle[first], diff = 0;
    for (unsigned l = 0; l < LANES; l++) /* every lane equal (vectorised): done */
        diff |= req->handle[l] ^ h;
    for (unsigned l = first + 1; diff && l < LANES; l++)
        if (((req->active >> l) & 1u) && req->handle[l] != h)
            return false;
    *handle = h;
    return true;
}

/* The checks every warp-wide path shares (tex_warp.h). */
bool tex_warp_common(tv_tex_unit *unit, const tv_tex_request *req, const tex_view **view,
                     const tex_sampler **sampler)
{
    uint32_t handle;
    if (!one_handle(req, &handle))
        return false;
    const tex_view *v = NULL;
    const tex_sampler *s = NULL;
    if (!tex_resolve(unit, handle, &v, &s) || !v || !s)
        return false;
    const tex_target_info *tgt = tex_target_get(req->target);
    if (v->type > TV_TEX_CUBE_ARRAY || !(tgt->types & (1u << v->type)))
        return false;
    if (!v->unorm8x4 || v->is_integer || !v->normalized || s->tsc.force_unnormalized_coords ||
        (v->srgb && s->tsc.srgb_conversion) ||
        (s->tsc.reduction_filter >= 1 && s->tsc.reduction_filter <= 2))
        return false;
    if (v->fi && (v->fi->kind == TV_FMT_KIND_SINT || v->fi->kind == TV_FMT_KIND_UINT))
        return false;
    if (!v->host || v->host_generation != tex_memory_generation(unit->mem))
        return false;
    *view = v;
    *sampler = s;
    return true;
}

/* The request-wide state every warp path hoists (tex_warp.h). */
bool tex_warp_hoist(tv_tex_unit *unit, const tex_view *v, const tex_sampler *s, warp_ctx *w)
{
    w->gen = 0;
    w->mag = s->tsc.mag_filter;
    w->min = s->tsc.min_filter;
    w->wrap[0] = s->tsc.address_u & 7u;
    w->wrap[1] = s->tsc.address_v & 7u;
    if (!tex_wrap_is_common(w->wrap[0]) || !tex_wrap_is_common(w->wrap[1]))
        return false;

    w->unit = unit;
    w->v = v;
    w->mip = s->tsc.mip_filter;
    if (w->mip < TV_MIP_NONE || w->mip > TV_MIP_LINEAR)
        w->mip = TV_MIP_NONE;
    uint32_t levels = v->levels ? v->levels : 1;
    w->base_level = v->base_level < levels ? v->base_level : levels - 1;
    uint32_t last = v->max_level < levels ? v->max_level : levels - 1;
    w->q = last >= w->base_level ? last - w->base_level : 0;
    if (v->type == TV_TEX_2D_NO_MIPMAP)
        w->q = 0;
    if (w->base_level + w->q >= TEX_MAX_LEVELS)
        return false;
    w->scale[0] = (float)tex_level_width(v, w->base_level);
    w->scale[1] = (float)tex_level_height(v, w->base_level);
    int16_t raw = v->tic.use_header_opt_control ? v->tic.mip_lod_bias : s->tsc.mip_lod_bias;
    w->sbias = raw / 256.0f;
    float lod_min = s->tsc.min_lod_clamp / 256.0f;
    float hdr_min = v->tic.min_lod_clamp / 256.0f - (float)w->base_level;
    w->lod_min = fmaxf(lod_min, hdr_min);
    w->lod_max = s->tsc.max_lod_clamp / 256.0f;
    tex_warp_swizzle_select(v, w->swz, w->konst);
    /* the vector kernel's channel shifts and their tap-sum shuffle controls, once per
       context instead of per request (or per level pass) */
    w->chan_mask = 0;
    for (unsigned c = 0; c < 4; c++) {
        w->shift[c] = w->swz[c] >= 0 ? 8 * (int)v->unorm8_byte[w->swz[c]] : -1;
        w->chan_mask |= (uint8_t)((w->shift[c] >= 0) << c);
        int sh = w->shift[c] < 0 ? 0 : w->shift[c];
        w->ctl3[c] = tex_warp_tap_ctl(sh, false);
        w->ctl4[c] = tex_warp_tap_ctl(sh, true);
    }
    w->pitch = tex_fast_pitch_layout(v);
    w->mag_lin = tex_mode_linear(w->mag);
    w->min_lin = tex_mode_linear(w->min);
    w->mag_ok = tex_warp_vec_mag_conditions(w);
    return true;
}

void tex_warp_swizzle_select(const tex_view *v, int swz[4], uint32_t konst[4])
{
    /* markers 10..13 come back where a channel is read */
    uint32_t mark[4] = {10, 11, 12, 13}, out[4];
    tex_apply_swizzle(v, mark, out);
    for (unsigned c = 0; c < 4; c++) {
        bool chan = out[c] >= 10 && out[c] <= 13;
        swz[c] = chan ? (int)out[c] - 10 : -1;
        konst[c] = chan ? 0 : out[c];
    }
}

/* The handle-dependent part of warp_setup (tex_warp_common's descriptor checks, the
 * anisotropy test and tex_warp_hoist) depends only on what the key below holds: the unit
 * (its cache id), the descriptors the handle resolves to (valid while the cache epoch and
 * the memory generation are unchanged: tex_pool.c), the request target and the
 * header-binding mode (the warp paths serve the reference precision only). Each thread
 * keeps the last answer, so a request with the previous request's handle skips the
 * resolve, the checks and the hoist. */
typedef struct setup_memo {
    uint64_t id, epoch, mem_gen;   /* id 0: empty (unit ids start at 1) */
    uint32_t handle;
    uint8_t target;
    bool binding;
    bool ok;                       /* false: the fast path declines this handle */
    warp_ctx w;                    /* when ok: everything before lv */
} setup_memo;

static _Thread_local setup_memo smemo;

/* The request-wide checks and the hoisted state (mirrors setup_ctx + tex_lod_scale): the
 * thread's memo context (lv not filled; valid until the next call), NULL when the fast
 * path declines the request. Handed out in place: copying it per request (rep movs) cost
 * more than the lookup. */
static const warp_ctx *warp_setup(tv_tex_unit *unit, const tv_tex_request *req)
{
    unsigned op = req->op;
    if (!tex_fast_serves(unit) || !req->active)
        return NULL;
    if (op != TV_TEX_OP_SAMPLE && op != TV_TEX_OP_SAMPLE_BIAS && op != TV_TEX_OP_SAMPLE_LOD &&
        op != TV_TEX_OP_SAMPLE_LZ)
        return NULL;
    if (req->target != TV_TEXTGT_2D && req->target != TV_TEXTGT_2D_ARRAY)
        return NULL;
    if (req->flags & ~(uint32_t)(TV_TEXF_OFFSETS | TV_TEXF_PROJECTIVE | TV_TEXF_NO_DERIV |
                                TV_TEXF_VALUES_ONLY))
        return NULL;
    uint32_t handle;
    if (!one_handle(req, &handle))
        return NULL;
    /* the stamps are read before the resolve: a clear after them only makes a later
       lookup miss */
    uint64_t id, epoch, mem_gen = tex_memory_generation(unit->mem);
    tex_cache_stamp(unit, &id, &epoch);
    setup_memo *m = &smemo;
    if (m->id == id && m->epoch == epoch && m->mem_gen == mem_gen && m->handle == handle &&
        m->target == req->target && m->binding == unit->header_binding)
        return m->ok ? &m->w : NULL;
    const tex_view *v = NULL;
    const tex_sampler *s = NULL;
    bool ok = tex_warp_common(unit, req, &v, &s);
    if (ok) {
        unsigned code = v->tic.use_header_opt_control ? v->tic.max_anisotropy
                                                      : s->tsc.max_anisotropy;
        /* anisotropic footprint: tex_warp_aniso.c or the general path */
        ok = !((code & 7u) &&
               (s->tsc.min_filter == TV_MIN_LINEAR || s->tsc.min_filter == TV_MIN_ANISO)) &&
             tex_warp_hoist(unit, v, s, &m->w);
    }
    static _Thread_local uint64_t gens;
    m->w.gen = ok ? ++gens : 0;
    m->id = id;
    m->epoch = epoch;
    m->mem_gen = mem_gen;
    m->handle = handle;
    m->target = req->target;
    m->binding = unit->header_binding;
    m->ok = ok;
    return ok ? &m->w : NULL;
}

/* tex_lod.c footprint()'s axes for two dimensions (tex_warp.h). */
void tex_warp_axes(const float scale[2], float dx0, float dx1, float dy0, float dy1,
                   warp_axes *a)
{
    float px0 = dx0 * scale[0], py0 = dy0 * scale[0];
    float px1 = dx1 * scale[1], py1 = dy1 * scale[1];
    float lx = 0.0f, ly = 0.0f;
    lx += px0 * px0;
    ly += py0 * py0;
    lx += px1 * px1;
    ly += py1 * py1;
    lx = sqrtf(lx);
    ly = sqrtf(ly);
    a->x_major = !(ly > lx);
    a->rmax = a->x_major ? lx : ly;
    a->rmin = a->x_major ? ly : lx;
    float pm0 = a->x_major ? px0 : py0, pm1 = a->x_major ? px1 : py1;
    a->mu = a->mv = a->lr = 0.0f;
    if (a->rmax > 0.0f && isfinite(a->rmax)) {
        a->mu = pm0 / a->rmax;
        a->mv = pm1 / a->rmax;
        a->lr = a->rmin > 0.0f ? max_x(log2f(a->rmin / a->rmax), TEX_MIN_LOG2_RATIO)
                               : TEX_MIN_LOG2_RATIO;
    }
}

/* tex_lod.c footprint() for two axes without anisotropy; writes the QUERY_LOD extras. */
static float footprint(const warp_ctx *w, float dx0, float dx1, float dy0, float dy1,
                       float *mu, float *mv, float *lr)
{
    warp_axes a;
    tex_warp_axes(w->scale, dx0, dx1, dy0, dy1, &a);
    *mu = a.mu;
    *mv = a.mv;
    *lr = a.lr;
    return log2f(a.rmax / 1.0f);
}

/* Quad difference sources per lane (quad_dx / quad_dy of tex_execute.c): value =
 * c[hi] - c[lo] when ok, else 0. */
void tex_warp_quad_sources(uint32_t present, uint8_t xlo[LANES], uint8_t xhi[LANES],
                           bool xok[LANES], uint8_t ylo[LANES], uint8_t yhi[LANES],
                           bool yok[LANES])
{
    for (unsigned lane = 0; lane < LANES; lane++) {
        unsigned base = lane & ~3u, row = (lane >> 1) & 1u, col = lane & 1u;
        if (((present >> base) & 0xfu) == 0xfu) { /* full quad: the lane's own pairs */
            xok[lane] = yok[lane] = true;
            xlo[lane] = (uint8_t)(base + 2 * row);
            xhi[lane] = (uint8_t)(base + 2 * row + 1);
            ylo[lane] = (uint8_t)(base + col);
            yhi[lane] = (uint8_t)(base + col + 2);
            continue;
        }
        xok[lane] = yok[lane] = false;
        xlo[lane] = xhi[lane] = ylo[lane] = yhi[lane] = (uint8_t)lane;
        for (unsigned k = 0; k < 2 && !xok[lane]; k++) {
            unsigned r = k ? 1u - row : row, l0 = base + 2 * r, l1 = l0 + 1;
            if (((present >> l0) & 1u) && ((present >> l1) & 1u)) {
                xok[lane] = true;
                xlo[lane] = (uint8_t)l0;
                xhi[lane] = (uint8_t)l1;
            }
        }
        for (unsigned k = 0; k < 2 && !yok[lane]; k++) {
            unsigned cc = k ? 1u - col : col, l0 = base + cc, l1 = l0 + 2;
            if (((present >> l0) & 1u) && ((present >> l1) & 1u)) {
                yok[lane] = true;
                ylo[lane] = (uint8_t)l0;
                yhi[lane] = (uint8_t)l1;
            }
        }
    }
}

/* One axis of every lane of a level slot: texel-space coordinate → wrapped indices and
 * weight (tex_wrap_nearest / tex_wrap_linear with tex_select_linear; NEAREST: i1 = i0,
 * weight 0). */
static void wrap_pass(const warp_ctx *w, unsigned axis, unsigned n, const float *u,
                      const bool *lin, const uint32_t *size, int32_t *i0, int32_t *i1,
                      float *al)
{
    unsigned mode = w->wrap[axis];
    for (unsigned i = 0; i < n; i++) {
        float x = u[i] - (lin[i] ? 0.5f : 0.0f); /* x - (+0) = x for every x */
        float fl = floor_x(x);
        int64_t a0 = !(x == x) ? 0 : x <= -TEX_I64_LIMIT ? -(int64_t)TEX_I64_LIMIT
                   : x >= TEX_I64_LIMIT ? (int64_t)TEX_I64_LIMIT : (int64_t)fl; /* floor_i64 */
        float a = x - fl;
        al[i] = lin[i] && a == a && a >= 0.0f && a < 1.0f ? a : 0.0f;
        int64_t sz = size[i];
        i0[i] = (int32_t)tex_wrap_int_common(mode, a0, sz);
        i1[i] = (int32_t)tex_wrap_int_common(mode, a0 + (lin[i] ? 1 : 0), sz);
    }
}

typedef struct warp_lanes {       /* SoA state of the active lanes (compact index) */
    unsigned n;
    uint8_t lane[LANES];
    float s[LANES], t[LANES];
    float offu[LANES], offv[LANES];
    uint32_t layer[LANES];
    bool lin[LANES];
    uint32_t lvl[2][LANES];
    float wl0[LANES], wl1[LANES];
    bool two[LANES];
} warp_lanes;

void tex_warp_level(const warp_ctx *w, uint32_t rel, warp_level *L)
{
    const tex_view *v = w->v;
    L->abs = w->base_level + rel;
    L->w = tex_level_width(v, L->abs);
    L->h = tex_level_height(v, L->abs);
    L->wf = (float)L->w;
    L->hf = (float)L->h;
    L->base = v->level_offset[L->abs];
    L->pitch_layout = w->pitch;
    L->pitch = v->pitch;
    L->gobs_x = v->level_gobs_x[L->abs];
    L->bh = v->gob_h_log2[L->abs];
    L->shift = 9 + L->bh + v->gob_d_log2[L->abs];
}

/* One level slot for every lane: the filtered (pre-swizzle) value in out[k][i]. */
static void slot_pass(const warp_ctx *w, const warp_lanes *wl, unsigned slot,
                      float out[4][LANES])
{
    const tex_view *v = w->v;
    unsigned n = wl->n;
    float u[LANES] = {0}, vv[LANES] = {0}, a[LANES], b[LANES];
    uint32_t sw[LANES] = {0}, sh[LANES] = {0};
    int32_t i0[LANES], i1[LANES], j0[LANES], j1[LANES];
    for (unsigned i = 0; i < n; i++) {
        const warp_level *L = &w->lv[wl->lvl[slot][i]];
        float su = wl->s[i] * L->wf, sv = wl->t[i] * L->hf;
        u[i] = su + wl->offu[i];
        vv[i] = sv + wl->offv[i];
        sw[i] = L->w;
        sh[i] = L->h;
    }
    wrap_pass(w, 0, n, u, wl->lin, sw, i0, i1, a);
    wrap_pass(w, 1, n, vv, wl->lin, sh, j0, j1, b);
    const uint8_t *host = v->host;
    uint64_t limit = v->size_bytes;
    const uint8_t *bytes = v->unorm8_byte;
    for (unsigned i = 0; i < n; i++) {
        const warp_level *L = &w->lv[wl->lvl[slot][i]];
        unsigned abs = L->abs;
        uint64_t base = (uint64_t)wl->layer[i] * v->layer_stride + L->base;
        uint64_t xo[2] = {col_off(L, (uint32_t)i0[i]), col_off(L, (uint32_t)i1[i])};
        uint64_t yo[2] = {base + row_off(L, (uint32_t)j0[i]), base + row_off(L, (uint32_t)j1[i])};
        int32_t ix[2] = {i0[i], i1[i]}, jy[2] = {j0[i], j1[i]};
        float wx[2] = {1.0f - a[i], a[i]}, wy[2] = {1.0f - b[i], b[i]};
        float acc[4] = {0, 0, 0, 0};
        for (unsigned tap = 0; tap < 4; tap++) {
            float wt = wx[tap & 1u] * wy[tap >> 1];
            uint64_t off = xo[tap & 1u] + yo[tap >> 1];
            float f[4];
            if (off + 4 <= limit) {
                const uint8_t *p = host + off;
                for (unsigned k = 0; k < 4; k++)
                    f[k] = tex_unorm8[p[bytes[k]]];
            } else { /* never for a consistent header: the general loader's rules */
                uint32_t raw[4];
                tex_load_texel(w->unit, v, abs, (unsigned)ix[tap & 1u], (unsigned)jy[tap >> 1],
                               0, wl->layer[i], 0, false, raw);
                for (unsigned k = 0; k < 4; k++)
                    memcpy(&f[k], &raw[k], 4);
            }
            for (unsigned k = 0; k < 4; k++)
                acc[k] = tap ? acc[k] + wt * f[k] : wt * f[k];
        }
        for (unsigned k = 0; k < 4; k++)
            out[k][i] = acc[k];
    }
}

bool tex_warp_sample(tv_tex_unit *unit, const tv_tex_request *req, tv_tex_result *res)
{
    const warp_ctx *ctx = warp_setup(unit, req);
    if (!ctx)
        return false;
    if (tex_warp_vec(ctx, req, res))
        return true;
    warp_ctx w;
    memcpy(&w, ctx, offsetof(warp_ctx, lv));
    for (uint32_t r = 0; r <= w.q; r++)
        tex_warp_level(&w, r, &w.lv[r]);
    const tex_view *v = w.v;
    unsigned op = req->op;
    uint32_t active = req->active;
    uint32_t present = (req->present ? req->present : active) | active;
    bool proj = (req->flags & TV_TEXF_PROJECTIVE) != 0;
    bool offs = (req->flags & TV_TEXF_OFFSETS) != 0;
    bool deriv = (op == TV_TEX_OP_SAMPLE || op == TV_TEX_OP_SAMPLE_BIAS) &&
                 !(req->flags & TV_TEXF_NO_DERIV);
    bool array = req->target == TV_TEXTGT_2D_ARRAY;

    /* pass 1: projected coordinates of every lane */
    float cs[LANES], ct[LANES];
    tex_warp_project(req, proj, cs, ct);
    warp_lanes wl;
    wl.n = 0;
    for (unsigned l = 0; l < LANES; l++)
        if ((active >> l) & 1u)
            wl.lane[wl.n++] = (uint8_t)l;
    unsigned n = wl.n;

    /* pass 2: derivatives, λ, level selection (tex_lod_compute) */
    float dx0[LANES], dx1[LANES], dy0[LANES], dy1[LANES];
    if (deriv) {
        uint8_t xlo[LANES], xhi[LANES], ylo[LANES], yhi[LANES];
        bool xok[LANES], yok[LANES];
        tex_warp_quad_sources(present, xlo, xhi, xok, ylo, yhi, yok);
        for (unsigned i = 0; i < n; i++) {
            unsigned l = wl.lane[i];
            dx0[i] = xok[l] ? cs[xhi[l]] - cs[xlo[l]] : 0.0f;
            dx1[i] = xok[l] ? ct[xhi[l]] - ct[xlo[l]] : 0.0f;
            dy0[i] = yok[l] ? cs[yhi[l]] - cs[ylo[l]] : 0.0f;
            dy1[i] = yok[l] ? ct[yhi[l]] - ct[ylo[l]] : 0.0f;
        }
    }
    float qf = (float)w.q;
    bool any_two = false;
    /* the footprint is a pure function of the four derivatives: lanes repeating the
     * previous lane's bits (quads of an affine mapping) reuse its results */
    uint32_t memo_key[4] = {0, 0, 0, 0};
    float memo[4] = {0, 0, 0, 0};
    bool have_memo = false;
    for (unsigned i = 0; i < n; i++) {
        unsigned l = wl.lane[i];
        float mu = 0.0f, mv = 0.0f, lr = 0.0f, lb;
        if (op == TV_TEX_OP_SAMPLE_LOD) {
            lb = req->lod[l];
        } else if (op == TV_TEX_OP_SAMPLE_LZ) {
            lb = 0.0f;
        } else if (deriv) {
            uint32_t key[4] = {tv_f32_bits(dx0[i]), tv_f32_bits(dx1[i]), tv_f32_bits(dy0[i]), tv_f32_bits(dy1[i])};
            if (!have_memo || memcmp(key, memo_key, sizeof key)) {
                memo[0] = footprint(&w, dx0[i], dx1[i], dy0[i], dy1[i], &memo[1], &memo[2],
                                    &memo[3]);
                memcpy(memo_key, key, sizeof key);
                have_memo = true;
            }
            lb = memo[0];
            mu = memo[1];
            mv = memo[2];
            lr = memo[3];
        } else {
            lb = -INFINITY;
        }
        float shader_bias = op == TV_TEX_OP_SAMPLE_BIAS ? req->lod[l] : 0.0f;
        float bias = clampf(w.sbias + shader_bias, -16.0f, TEX_MAX_BIAS);
        float lp = lb + bias;
        float lod_min = w.lod_min;
        if (req->lod_clamp[l] > lod_min)
            lod_min = req->lod_clamp[l];
        float lam = clampf(lp, lod_min, w.lod_max);
        float lc = clampf(lam, 0.0f, qf);
        float accessed = w.mip == TV_MIP_NONE    ? 0.0f
                         : w.mip == TV_MIP_POINT ? max_x(tex_nearest_level(lc), 0.0f)
                                                 : lc;
        bool magnify = !(lam > 0.0f);
        uint32_t l0 = 0, l1 = 0;
        float w0 = 1.0f, w1 = 0.0f;
        bool two = false;
        if (!magnify) {
            float dp = min_x(lam, qf);
            if (w.mip == TV_MIP_POINT) {
                l0 = (uint32_t)max_x(tex_nearest_level(dp), 0.0f);
            } else if (w.mip == TV_MIP_LINEAR) {
                float h = floor_x(dp);
                uint32_t hi = (uint32_t)h;
                uint32_t lo = hi + 1 <= w.q ? hi + 1 : w.q;
                float f = dp - h;
                l0 = hi;
                if (lo != hi && f > 0.0f) {
                    two = true;
                    l1 = lo;
                    w0 = 1.0f - f;
                    w1 = f;
                }
            }
        }
        wl.lin[i] = magnify ? w.mag_lin : w.min_lin;
        wl.lvl[0][i] = l0;
        wl.lvl[1][i] = two ? l1 : l0;
        wl.wl0[i] = w0;
        wl.wl1[i] = w1;
        wl.two[i] = two;
        any_two |= two;
        res->lod_clamped[l] = accessed;
        res->lod_unclamped[l] = lp;
        res->major_u[l] = mu;
        res->major_v[l] = mv;
        res->log2_ratio[l] = lr;
    }

    /* pass 3: per-lane coordinates, offsets and layers */
    for (unsigned i = 0; i < n; i++) {
        unsigned l = wl.lane[i];
        wl.s[i] = cs[l];
        wl.t[i] = ct[l];
        wl.offu[i] = (float)(offs ? req->offset[0][l] : 0);
        wl.offv[i] = (float)(offs ? req->offset[1][l] : 0);
        wl.layer[i] = array ? tex_layer_index(req->coord[3][l], v->layers ? v->layers : 1) : 0;
    }

    /* pass 4: the level slots, the mip blend, the swizzle */
    float val[4][LANES], hi[4][LANES];
    slot_pass(&w, &wl, 0, val);
    if (any_two) {
        slot_pass(&w, &wl, 1, hi);
        for (unsigned k = 0; k < 4; k++)
            for (unsigned i = 0; i < n; i++)
                if (wl.two[i])
                    val[k][i] = wl.wl0[i] * val[k][i] + wl.wl1[i] * hi[k][i];
    }
    for (unsigned c = 0; c < 4; c++) {
        int src = w.swz[c];
        for (unsigned i = 0; i < n; i++)
            res->v[c][wl.lane[i]] = src >= 0 ? tv_f32_bits(val[src][i]) : w.konst[c];
    }
    return true;
}
