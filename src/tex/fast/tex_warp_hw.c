/* The hardware precision's whole-request path: a SAMPLE, SAMPLE_BIAS, SAMPLE_LOD or
 * SAMPLE_LZ request (offsets, projection and NO_DERIV allowed) on a 2D or 2D array target
 * with one handle for every active lane, whose context — built by the general path's own
 * tex_setup_ctx — passes the one gate, tex_fast_hw_takes (fast/tex_fast.h), for a LINEAR
 * footprint, with LINEAR magnification and LINEAR (or ANISO) minification and anisotropy 1:
 * then every lane's levels are what tex_fast_hw_levels would be handed. The request
 * checks here (tex_warp_common: one handle, a unorm8x4 view the target accepts, normalized
 * coordinates, current host memory) only decide whether the per-lane request machinery
 * may be skipped.
 *
 * Why it is faster than the per-lane path (tex_execute.c → tex_fast_hw.c): it builds the
 * context and the swizzle selection once, computes λ once for a run of lanes with the
 * same LOD input, and runs the lanes in passes — λ, levels and per level slot each lane's
 * weights and texel addresses, then the texel loads and sums — so the loads of many lanes
 * are in flight together instead of one footprint at a time behind the per-lane calls.
 *
 * Bit-identical to the per-lane path by construction: the same functions for what is not
 * integer arithmetic — tex_lod_compute on the same context and inputs (the quad
 * differences as tex_execute.c's quad_dx / quad_dy: tex_warp_quad_sources), the
 * coordinates as tex_level_coords computes them (s·size + offset), the per-lane path's own
 * footprint and sum (tex_hw_footprint_at, tex_hw_footprint_sum: tex_fast_hw.c) and
 * tex_hw_unorm16_sum. tests/tex/test_fastpath_hw.c compares both on random requests. */
#include <string.h>

#include "tex/fast/tex_fast_addr.h"
#include "tex/fast/tex_fast_hw.h"
#include "tex/fast/tex_warp.h"
#include "util/half.h"

#define LANES TV_TEX_LANES

static _Thread_local uint64_t taken_requests, taken_lanes;

void tex_warp_hw_counts(uint64_t *requests, uint64_t *lanes)
{
    *requests = taken_requests;
    *lanes = taken_lanes;
}

/* The request shapes this path takes (before its handle is resolved). */
static bool request_shape(const tv_tex_unit *unit, const tv_tex_request *req)
{
    unsigned op = req->op;
    if (unit->no_fast_paths || unit->precision != TV_TEX_PRECISION_HARDWARE || !req->active)
        return false;
    if (op != TV_TEX_OP_SAMPLE && op != TV_TEX_OP_SAMPLE_BIAS && op != TV_TEX_OP_SAMPLE_LOD &&
        op != TV_TEX_OP_SAMPLE_LZ)
        return false;
    if (req->target != TV_TEXTGT_2D && req->target != TV_TEXTGT_2D_ARRAY)
        return false;
    return !(req->flags & ~(uint32_t)(TV_TEXF_OFFSETS | TV_TEXF_PROJECTIVE | TV_TEXF_NO_DERIV |
                                      TV_TEXF_VALUES_ONLY));
}

/* The footprint of level `rel` (view-relative) for a lane at (s, t) with offsets (ou, ov)
 * and share m: tex_level_coords' coordinates (s·size + offset), then the shared
 * footprint. The host mapping is current here (tex_warp_common checked it). */
static void lane_level(const tex_ctx *c, uint32_t rel, float s, float t, float ou, float ov,
                       uint32_t layer, uint32_t m, tex_hw_footprint *F)
{
    const unsigned L = c->base_level + rel;
    const uint32_t size[2] = {tex_level_width(c->v, L), tex_level_height(c->v, L)};
    const float u[2] = {s * (float)size[0] + ou, t * (float)size[1] + ov};
    tex_hw_footprint_at(c, rel, u, size, layer, m, true, F);
}

/* Two LOD inputs with the same bytes (memcmp, word by word inline: a library call per
 * lane cost 9 % of a bilinear request). */
static inline bool same_bytes(const tex_lod_in *a, const tex_lod_in *b)
{
    enum { WORDS = (sizeof(tex_lod_in) + 3) / 4 };
    uint32_t x[WORDS] = {0}, y[WORDS] = {0}, d = 0;
    memcpy(x, a, sizeof *a);
    memcpy(y, b, sizeof *b);
    for (unsigned i = 0; i < WORDS; i++)
        d |= x[i] ^ y[i];
    return d == 0;
}

bool tex_warp_hw_sample(tv_tex_unit *unit, const tv_tex_request *req, tv_tex_result *res)
{
    if (!request_shape(unit, req))
        return false;
    const tex_view *v = NULL;
    const tex_sampler *s = NULL;
    if (!tex_warp_common(unit, req, &v, &s))
        return false;
    tex_ctx c;
    tex_setup_ctx(unit, v, s, tex_target_get(req->target), req, &c);
    /* every lane's footprint LINEAR, magnified or not, with one probe */
    if (c.mag != TV_MAG_LINEAR || (c.min != TV_MIN_LINEAR && c.min != TV_MIN_ANISO) ||
        c.max_aniso != 1 || !tex_fast_hw_takes(&c, TEX_FILTER_LINEAR))
        return false;

    unsigned op = req->op;
    uint32_t active = req->active;
    uint32_t present = (req->present ? req->present : active) | active;
    bool proj = (req->flags & TV_TEXF_PROJECTIVE) != 0;
    bool offs = (req->flags & TV_TEXF_OFFSETS) != 0;
    bool deriv = (op == TV_TEX_OP_SAMPLE || op == TV_TEX_OP_SAMPLE_BIAS) &&
                 !(req->flags & TV_TEXF_NO_DERIV);
    bool array = c.tgt->array;

    int swz[4];
    uint32_t konst[4];
    tex_warp_swizzle_select(v, swz, konst);

    /* pass 1: projected coordinates of every lane */
    float cs[LANES], ct[LANES];
    tex_warp_project(req, proj, cs, ct);
    uint8_t xlo[LANES], xhi[LANES], ylo[LANES], yhi[LANES];
    bool xok[LANES], yok[LANES];
    if (deriv)
        tex_warp_quad_sources(present, xlo, xhi, xok, ylo, yhi, yok);

    /* pass 2: λ and levels per lane (tex_lod_compute), the footprints per level slot */
    unsigned n = 0;
    uint8_t lane_of[LANES], nlev[LANES];
    uint32_t layer[LANES], levels_of[2][LANES];
    tex_hw_footprint F[2][LANES];
    tex_lod_in last_in;
    tex_lod_out lod;
    bool have_lod = false;
    for (unsigned l = 0; l < LANES; l++) {
        if (!((active >> l) & 1u))
            continue;
        tex_lod_in in;
        memset(&in, 0, sizeof in);
        in.lod_clamp = req->lod_clamp[l];
        if (op == TV_TEX_OP_SAMPLE_BIAS) {
            in.shader_bias = req->lod[l];
        } else if (op == TV_TEX_OP_SAMPLE_LOD) {
            in.explicit_lod = true;
            in.lod = req->lod[l];
        } else if (op == TV_TEX_OP_SAMPLE_LZ) {
            in.explicit_lod = true;
        }
        if (deriv) { /* tex_execute.c lane_derivs (the third axis is not read in 2D) */
            in.have_deriv = true;
            in.dx[0] = xok[l] ? cs[xhi[l]] - cs[xlo[l]] : 0.0f;
            in.dx[1] = xok[l] ? ct[xhi[l]] - ct[xlo[l]] : 0.0f;
            in.dy[0] = yok[l] ? cs[yhi[l]] - cs[ylo[l]] : 0.0f;
            in.dy[1] = yok[l] ? ct[yhi[l]] - ct[ylo[l]] : 0.0f;
        }
        /* tex_lod_compute is a pure function of the context and its input: a lane whose
         * input has the previous lane's bits (SAMPLE_LZ, uniform LODs and biases, the
         * quads of an affine mapping) reuses its output */
        if (!have_lod || !same_bytes(&in, &last_in)) {
            tex_lod_compute(&c, &in, &lod);
            memcpy(&last_in, &in, sizeof in); /* with its padding: memset above */
            have_lod = true;
        }
        res->lod_clamped[l] = lod.accessed;
        res->lod_unclamped[l] = lod.lambda_prime;
        res->major_u[l] = lod.major_u;
        res->major_v[l] = lod.major_v;
        res->log2_ratio[l] = lod.log2_ratio;
        /* tex_execute.c setup_lane: the layer and the offsets */
        layer[n] = array ? tex_layer_index(req->coord[3][l], v->layers ? v->layers : 1) : 0;
        float ou = (float)(offs ? req->offset[0][l] : 0);
        float ov = (float)(offs ? req->offset[1][l] : 0);
        /* tex_fast_hw_levels' shares */
        bool two = lod.nlevels >= 2;
        lane_level(&c, lod.level[0], cs[l], ct[l], ou, ov, layer[n],
                   two ? 256u - lod.hw_f256 : 256u, &F[0][n]);
        if (two)
            lane_level(&c, lod.level[1], cs[l], ct[l], ou, ov, layer[n], lod.hw_f256,
                       &F[1][n]);
        nlev[n] = two ? 2 : 1;
        lane_of[n] = (uint8_t)l;
        levels_of[0][n] = lod.level[0];
        levels_of[1][n] = lod.level[1];
        n++;
    }

    /* pass 3: the loads, the sums, the swizzle */
    for (unsigned i = 0; i < n; i++) {
        uint32_t k[4] = {0, 0, 0, 0};
        for (unsigned sl = 0; sl < nlev[i]; sl++)
            tex_hw_footprint_sum(&c, levels_of[sl][i], layer[i], &F[sl][i], k, NULL, NULL);
        uint32_t raw[4];
        for (unsigned ch = 0; ch < 4; ch++)
            raw[ch] = tv_f32_bits(tex_hw_unorm16_sum(k[ch]));
        unsigned l = lane_of[i];
        for (unsigned ch = 0; ch < 4; ch++)
            res->v[ch][l] = swz[ch] >= 0 ? raw[swz[ch]] : konst[ch];
    }
    taken_requests++;
    taken_lanes += n;
    return true;
}
