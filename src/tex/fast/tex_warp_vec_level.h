/* One texture level as the vectorised warp kernel reads it (tex_warp_vec_texel.h's
 * slot_pass): its constants (vec_level) computed once per view level and kept per thread
 * under the view's generation, and how the last slot pass of a request finishes it
 * (vec_fin; fin_lanes, the baseline's form). Included by tex_warp_vec_texel.h only: a
 * header, not a translation unit, for the reason given at the top of that file. */
#ifndef TEXVM_TEX_WARP_VEC_LEVEL_H
#define TEXVM_TEX_WARP_VEC_LEVEL_H

#include "tex/fast/tex_warp_vec_lanes.h"

/* ---- one level ----------------------------------------------------------------------- */
typedef struct vec_level {
    float wf, hf;
    uint32_t w, h;
    uint32_t base;               /* level_offset, bytes */
    bool pitch_layout;
    uint32_t pitch, gobs_x, bh, shift;
    uint32_t pitch_sh; /* pitch = 2^pitch_sh (a row's offset as a shift), or 32: not one */
} vec_level;

/* The last slot pass of a request finishes it as its tap sums come out (no second trip
 * through memory): where w0 is given (a two-level request), the mip blend — out[c][l]
 * holds the first level's value and, in the lanes with two[l] set, the value becomes
 * w0[l]·out + w1[l]·(this level's value): the products and the sum in tex_warp.c's
 * order, so the same bits —; then the result bits go to res[c][l] in the active lanes
 * (the others keep theirs). */
typedef struct vec_fin {
    const float *w0, *w1; /* w0 NULL: one level, no blend */
    const uint32_t *two, *act;
    uint32_t (*res)[N];
    /* (AVX2, taps8_avx2) every lane active: the blend that keeps the inactive lanes'
       results selects nothing then, and is left out */
    bool every_act;
} vec_fin;

/* the C form (baseline): v1 this level's values */
static inline void fin_lanes(const vec_fin *F, const int shift[4], float v1[4][N],
                             float out[4][N])
{
    for (unsigned c = 0; c < 4; c++) {
        if (shift[c] < 0)
            continue;
        for (unsigned l = 0; l < N; l++) {
            float v = v1[c][l];
            if (F->w0) {
                float m = F->w0[l] * out[c][l] + F->w1[l] * v;
                v = fsel(F->two[l], m, out[c][l]);
            }
            F->res[c][l] = isel(F->act[l], fb(v), F->res[c][l]);
        }
    }
}

static bool pow2(uint32_t n)
{
    return (n & (n - 1)) == 0;
}

/* The constants of view level `rel`, or false when the kernel cannot read it (a wrap
 * that needs a power-of-two size, or addresses past the resource or 2^31). */
static bool vec_level_compute(const warp_ctx *w, uint32_t rel, uint32_t max_layer,
                              vec_level *V)
{
    warp_level L;
    tex_warp_level(w, rel, &L);
    const tex_view *v = w->v;
    for (unsigned a = 0; a < 2; a++)
        if (w->wrap[a] != TV_WRAP_CLAMP_TO_EDGE && !pow2(a ? L.h : L.w))
            return false;
    if (L.w == 0 || L.h == 0 || (L.base & 3u))
        return false;
    /* the addresses grow with x and with y: the last texel of the last layer is the end */
    uint64_t xb = (uint64_t)(L.w - 1) * 4u, yy = L.h - 1, xo, yo;
    if (L.pitch_layout) {
        xo = xb;
        yo = yy * L.pitch;
    } else {
        xo = tex_bl_col(xb, L.shift);
        yo = tex_bl_row(yy, L.bh, L.gobs_x, L.shift);
    }
    uint64_t end = (uint64_t)max_layer * v->layer_stride + L.base + xo + yo + 4;
    if (end > v->size_bytes || end > 0x7fffffffu)
        return false;
    V->wf = L.wf;
    V->hf = L.hf;
    V->w = L.w;
    V->h = L.h;
    V->base = (uint32_t)L.base;
    V->pitch_layout = L.pitch_layout;
    V->pitch = L.pitch;
    V->pitch_sh = L.pitch && pow2(L.pitch) ? (uint32_t)__builtin_ctz(L.pitch) : 32u;
    V->gobs_x = L.gobs_x;
    V->bh = L.bh;
    V->shift = L.shift;
    return true;
}

/* vec_level_compute through a per-thread memo of the last answers (a request reads one
 * level or two, rel and rel + 1): a pure function of the context — the view and the
 * sampler's wraps, fixed while the setup memo keeps it (warp_ctx.gen) — and its two
 * arguments. */
typedef struct vec_level_memo {
    uint64_t gen;                  /* 0: empty */
    uint32_t rel, max_layer;
    bool ok;
    vec_level V;
} vec_level_memo;
static _Thread_local vec_level_memo level_memo[2];

/* the memo's miss: compute into the entry */
static __attribute__((noinline)) const vec_level *vec_level_fill(vec_level_memo *m,
                                                                 const warp_ctx *w,
                                                                 uint32_t rel,
                                                                 uint32_t max_layer)
{
    bool ok = vec_level_compute(w, rel, max_layer, &m->V);
    m->gen = w->gen;
    m->rel = rel;
    m->max_layer = max_layer;
    m->ok = ok;
    return ok ? &m->V : NULL;
}

/* The constants of level `rel` (NULL: the kernel cannot read it), in the memo entry of
 * rel's parity, valid until the next call for a level of that parity: a request's two
 * levels (rel, rel + 1) stay valid together. Returned in place and the hit inlined: a
 * copy of the constants out of a function called twice a warp was about 90 instructions
 * a trilinear warp. */
VEC_INLINE const vec_level *vec_level_get(const warp_ctx *w, uint32_t rel, uint32_t max_layer)
{
    vec_level_memo *m = &level_memo[rel & 1u];
    if (w->gen && m->gen == w->gen && m->rel == rel && m->max_layer == max_layer)
        return m->ok ? &m->V : NULL;
    return vec_level_fill(m, w, rel, max_layer);
}

#endif /* TEXVM_TEX_WARP_VEC_LEVEL_H */
