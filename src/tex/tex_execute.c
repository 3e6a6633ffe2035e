/* tv_tex_execute: validate the request, resolve each lane's handle, check the request
 * target against the header type, and run the operation per lane (sampling, gather,
 * fetch, queries). Implicit derivatives come from the 2x2 quads of lanes (TL, TR, BL, BR):
 * per pixel by default, per quad with TV_TEXF_PER_QUAD_LOD (docs/texture-unit.md). */
#include <math.h>
#include <string.h>

#include "tex/tex_sampling.h"
#include "tex/fast/tex_fast.h"
#include "util/error.h"
#include "util/half.h"

static const char *const op_names[TV_TEX_OP_COUNT] = {
    "SAMPLE", "SAMPLE_BIAS", "SAMPLE_LOD", "SAMPLE_LZ", "SAMPLE_GRAD", "GATHER", "FETCH",
    "QUERY_LOD", "QUERY_DIM", "QUERY_SAMPLES", "QUERY_SAMPLE_POS", "QUERY_TYPE"};

static bool is_query(unsigned op)
{
    return op == TV_TEX_OP_QUERY_DIM || op == TV_TEX_OP_QUERY_SAMPLES ||
           op == TV_TEX_OP_QUERY_SAMPLE_POS || op == TV_TEX_OP_QUERY_TYPE;
}

static void clear_lane(tv_tex_result *res, unsigned lane)
{
    for (unsigned k = 0; k < 4; k++)
        res->v[k][lane] = 0;
    res->lod_clamped[lane] = res->lod_unclamped[lane] = 0.0f;
    res->major_u[lane] = res->major_v[lane] = res->log2_ratio[lane] = 0.0f;
}

/* Quad finite differences with the partial-quad rule: a lane's own row (column) pair when
 * both lanes are present, else the other row (column), else 0. */
static float quad_dx(const float *val, uint32_t present, unsigned lane)
{
    unsigned base = lane & ~3u, row = (lane >> 1) & 1u;
    for (unsigned k = 0; k < 2; k++) {
        unsigned r = k ? 1u - row : row, l0 = base + 2 * r, l1 = l0 + 1;
        if (((present >> l0) & 1u) && ((present >> l1) & 1u))
            return val[l1] - val[l0];
    }
    return 0.0f;
}

static float quad_dy(const float *val, uint32_t present, unsigned lane)
{
    unsigned base = lane & ~3u, col = lane & 1u;
    for (unsigned k = 0; k < 2; k++) {
        unsigned cc = k ? 1u - col : col, l0 = base + cc, l1 = l0 + 2;
        if (((present >> l0) & 1u) && ((present >> l1) & 1u))
            return val[l1] - val[l0];
    }
    return 0.0f;
}

typedef struct lane_coords {
    float c[4][TV_TEX_LANES]; /* projected s,t,r and the layer */
    float ref[TV_TEX_LANES];
} lane_coords;

static void project(const tv_tex_request *req, uint32_t lanes, lane_coords *lc)
{
    bool proj = (req->flags & TV_TEXF_PROJECTIVE) != 0;
    for (unsigned l = 0; l < TV_TEX_LANES; l++) {
        if (!((lanes >> l) & 1u))
            continue;
        float q = proj ? req->q[l] : 1.0f;
        for (unsigned a = 0; a < 3; a++)
            lc->c[a][l] = proj ? req->coord[a][l] / q : req->coord[a][l];
        lc->c[3][l] = req->coord[3][l];
        lc->ref[l] = proj ? req->ref[l] / q : req->ref[l];
    }
}

static bool type_ok(const tex_target_info *tgt, unsigned op, const tex_view *v)
{
    if (v->type > TV_TEX_CUBE_ARRAY || !(tgt->types & (1u << v->type)))
        return false;
    if (v->type == TV_TEX_1D_BUFFER && op != TV_TEX_OP_FETCH)
        return false;
    return true;
}

/* The part of a lane's context that depends only on (view, sampler, request)
 * (tex_sampling.h). */
void tex_setup_ctx(tv_tex_unit *unit, const tex_view *v, const tex_sampler *s,
                   const tex_target_info *tgt, const tv_tex_request *req, tex_ctx *c)
{
    memset(c, 0, sizeof *c);
    bool over = (req->flags & TV_TEXF_FETCH_OVERRIDES) != 0;
    c->unit = unit;
    c->v = v;
    c->s = s;
    c->tgt = tgt;
    c->hw = unit->precision == TV_TEX_PRECISION_HARDWARE;
    c->is_int = v->fi && (v->fi->kind == TV_FMT_KIND_SINT || v->fi->kind == TV_FMT_KIND_UINT);
    c->srgb = v->srgb && s->tsc.srgb_conversion;
    c->compare = (req->flags & TV_TEXF_COMPARE) && !over;
    c->cmp_func = s->tsc.depth_compare_func & 7u;
    c->normalized = v->normalized && !s->tsc.force_unnormalized_coords;
    c->seamless = s->tsc.cubemap_interface_filtering >= 2;
    c->wrap[0] = s->tsc.address_u & 7u;
    c->wrap[1] = s->tsc.address_v & 7u;
    c->wrap[2] = s->tsc.address_p & 7u;
    c->mag = over ? TV_MAG_POINT : s->tsc.mag_filter;
    c->min = over ? TV_MIN_POINT : s->tsc.min_filter;
    c->mip = over ? TV_MIP_POINT : s->tsc.mip_filter;
    if (c->is_int) { /* integer formats are never filtered */
        c->mag = TV_MAG_POINT;
        c->min = TV_MIN_POINT;
        if (c->mip == TV_MIP_LINEAR)
            c->mip = TV_MIP_POINT;
    }
    if (!c->normalized)
        c->mip = TV_MIP_NONE;
    if (c->mip < TV_MIP_NONE || c->mip > TV_MIP_LINEAR)
        c->mip = TV_MIP_NONE;
    unsigned code = v->tic.use_header_opt_control ? v->tic.max_anisotropy : s->tsc.max_anisotropy;
    c->max_aniso = over ? 1u : tv_tex_aniso_ratio[code & 7u];
    c->reduction = (over || s->tsc.reduction_filter > 2) ? 0 : s->tsc.reduction_filter;
    tex_border_color(v, s, c->srgb, over, c->border);
    uint32_t levels = v->levels ? v->levels : 1;
    c->base_level = v->base_level < levels ? v->base_level : levels - 1;
    uint32_t last = v->max_level < levels ? v->max_level : levels - 1;
    c->q = last >= c->base_level ? last - c->base_level : 0;
    if (v->type == TV_TEX_2D_NO_MIPMAP || v->type == TV_TEX_1D_BUFFER)
        c->q = 0;
    c->fast = v->unorm8x4 && !c->srgb && !c->compare && !c->is_int && !c->reduction &&
              tex_fast_serves(unit);
    tex_lod_scale(c, c->lod_scale);
}

/* Whether every sampling through context C gives the same values whatever its LOD (its
 * derivatives, bias and clamps): one level reachable (tex_lod_compute: the mip filter NONE
 * reads view level 0, and q = 0 leaves no other), magnification and minification the
 * same filter (tex_filter_sample picks by the LOD), and no anisotropic probes (whose
 * count and direction come from the derivatives). */
static bool ctx_lod_free(const tex_ctx *c)
{
    const bool one_level = c->mip == TV_MIP_NONE || c->q == 0;
    /* (an integer format's are both POINT: tex_setup_ctx) */
    const bool one_filter = tex_mode_linear(c->mag) == tex_mode_linear(c->min);
    return one_level && one_filter && c->max_aniso <= 1;
}

bool tv_tex_lod_free(tv_tex_unit *unit, uint32_t handle, tv_tex_target target)
{
    static const tv_tex_request plain;   /* no flags: no overrides (tex_setup_ctx) */
    const tex_target_info *tgt = tex_target_get(target);
    const tex_view *v = NULL;
    const tex_sampler *s = NULL;
    if (!unit || !tgt || !tex_resolve(unit, handle, &v, &s) || !v || !s)
        return false;
    tex_ctx c;
    tex_setup_ctx(unit, v, s, tgt, &plain, &c);
    return ctx_lod_free(&c);
}

/* The per-lane part: array layer, compare reference, texel offsets. */
static void setup_lane(const tv_tex_request *req, unsigned lane, const lane_coords *lc,
                       tex_ctx *c)
{
    const tex_view *v = c->v;
    const tex_target_info *tgt = c->tgt;
    c->layer = 0;
    if (tgt->array) {
        uint32_t n = tgt->cube ? v->layers / 6 : v->layers;
        uint32_t idx = tex_layer_index(lc->c[3][lane], n ? n : 1);
        c->layer = tgt->cube ? idx * 6 : idx;
    }
    float ref = lc->ref[lane];
    if (v->tic.data_type[0] == 2) /* UNORM depth: the reference is clamped to [0,1] */
        ref = fminf(fmaxf(ref, 0.0f), 1.0f);
    c->ref = ref;
    c->off[0] = c->off[1] = c->off[2] = 0;
    if ((req->flags & TV_TEXF_OFFSETS) && !tgt->cube)
        for (unsigned a = 0; a < tgt->dims; a++)
            c->off[a] = req->offset[a][lane];
}

/* Derivatives of the lane's (face) coordinates for LOD, per the op and flags. */
static void lane_derivs(const tv_tex_request *req, const tex_target_info *tgt,
                        const lane_coords *lc, uint32_t present, unsigned lane,
                        tex_lod_in *in)
{
    unsigned op = req->op;
    if (op == TV_TEX_OP_SAMPLE_GRAD) {
        in->have_deriv = true;
        for (unsigned a = 0; a < 3; a++) {
            in->dx[a] = req->ddx[a][lane];
            in->dy[a] = req->ddy[a][lane];
        }
    } else if (tv_tex_op_implicit_lod(op) && !(req->flags & TV_TEXF_NO_DERIV)) {
        unsigned src = lane;
        if (req->flags & TV_TEXF_PER_QUAD_LOD) {
            unsigned base = lane & ~3u;
            for (unsigned k = 0; k < 4; k++)
                if ((present >> (base + k)) & 1u) {
                    src = base + k;
                    break;
                }
        }
        in->have_deriv = true;
        for (unsigned a = 0; a < 3; a++) {
            in->dx[a] = quad_dx(lc->c[a], present, src);
            in->dy[a] = quad_dy(lc->c[a], present, src);
        }
        lane = src; /* cube transform at the lane the derivatives belong to */
    } else {
        return;
    }
    if (tgt->cube) {
        tex_cube_coord cc;
        tex_cube_select(lc->c[0][lane], lc->c[1][lane], lc->c[2][lane], &cc);
        float dsx, dtx, dsy, dty;
        tex_cube_deriv(&cc, in->dx, &dsx, &dtx);
        tex_cube_deriv(&cc, in->dy, &dsy, &dty);
        in->dx[0] = dsx;
        in->dx[1] = dtx;
        in->dy[0] = dsy;
        in->dy[1] = dty;
        in->dx[2] = in->dy[2] = 0.0f;
    }
}

static void sample_lane(const tex_ctx *base, const tv_tex_request *req, const lane_coords *lc,
                        uint32_t present, unsigned lane, tv_tex_result *res)
{
    tex_ctx c = *base;
    const tex_view *v = c.v;
    const tex_target_info *tgt = c.tgt;
    setup_lane(req, lane, lc, &c);
    float st[3] = {lc->c[0][lane], lc->c[1][lane], lc->c[2][lane]};
    unsigned face = 0;
    if (tgt->cube) {
        tex_cube_coord cc;
        tex_cube_select(st[0], st[1], st[2], &cc);
        face = cc.face;
        st[0] = cc.s;
        st[1] = cc.t;
        st[2] = 0.0f;
    }
    if (req->op == TV_TEX_OP_GATHER) {
        uint32_t g[4];
        tex_gather_lane(&c, req, lane, st, face, g);
        for (unsigned k = 0; k < 4; k++)
            res->v[k][lane] = g[k];
        return;
    }
    tex_lod_in in;
    memset(&in, 0, sizeof in);
    in.lod_clamp = req->lod_clamp[lane];
    switch (req->op) {
    case TV_TEX_OP_SAMPLE_BIAS: in.shader_bias = req->lod[lane]; break;
    case TV_TEX_OP_SAMPLE_LOD: in.explicit_lod = true; in.lod = req->lod[lane]; break;
    case TV_TEX_OP_SAMPLE_LZ: in.explicit_lod = true; in.lod = 0.0f; break;
    default: break;
    }
    lane_derivs(req, tgt, lc, present, lane, &in);
    tex_lod_out lod;
    tex_lod_compute(&c, &in, &lod);
    res->lod_clamped[lane] = lod.accessed;
    res->lod_unclamped[lane] = lod.lambda_prime;
    res->major_u[lane] = lod.major_u;
    res->major_v[lane] = lod.major_v;
    res->log2_ratio[lane] = lod.log2_ratio;
    if (req->op == TV_TEX_OP_QUERY_LOD) {
        res->v[0][lane] = tv_f32_bits(lod.accessed);
        res->v[1][lane] = tv_f32_bits(lod.lambda_prime);
        res->v[2][lane] = res->v[3][lane] = 0;
        return;
    }
    tex_val val;
    tex_filter_sample(&c, &lod, st, face, &val);
    uint32_t raw[4], out[4];
    if (c.compare) {
        raw[0] = raw[1] = raw[2] = tv_f32_bits(val.f[0]);
        raw[3] = tv_f32_bits(1.0f);
    } else {
        for (unsigned k = 0; k < 4; k++)
            raw[k] = c.is_int ? val.u[k] : tv_f32_bits(val.f[k]);
    }
    tex_apply_swizzle(v, raw, out);
    for (unsigned k = 0; k < 4; k++)
        res->v[k][lane] = out[k];
}

tv_status tv_tex_execute(tv_tex_unit *unit, const tv_tex_request *req, tv_tex_result *res,
                         tv_error *err)
{
    if (!unit || !req || !res)
        return tv_error_set(err, TV_ERR_ARG, 0, 0, "tv_tex_execute: NULL argument");
    if (req->op >= TV_TEX_OP_COUNT)
        return tv_error_set(err, TV_ERR_ARG, 0, 0, "texture request: unknown op %u",
                            (unsigned)req->op);
    const tex_target_info *tgt = tex_target_get(req->target);
    if (!tgt)
        return tv_error_set(err, TV_ERR_ARG, 0, 0, "texture request: unknown target %u",
                            (unsigned)req->target);
    if (!(tgt->ops & (1u << req->op)))
        return tv_error_set(err, TV_ERR_ARG, 0, 0,
                            "texture request: %s is not defined for target %s",
                            op_names[req->op], tgt->name);
    if (req->op == TV_TEX_OP_GATHER && req->component > 3)
        return tv_error_set(err, TV_ERR_ARG, 0, 0,
                            "texture request: gather component %u (must be 0..3)",
                            (unsigned)req->component);

    uint32_t active = req->active;
    uint32_t present = (req->present ? req->present : active) | active;
    res->invalid = 0;
    if (tex_fast_sample(unit, req, res)) /* whole requests of the common shapes (fast/) */
        return TV_OK;
    lane_coords *lc = NULL, lc_storage;
    if (!is_query(req->op) && req->op != TV_TEX_OP_FETCH) {
        lc = &lc_storage;
        project(req, present, lc);
    }
    /* Consecutive lanes with the same handle share the resolved descriptors and the
     * per-handle part of the context (descriptors cannot change within a request). */
    bool have_last = false, last_ok = false, ctx_ok = false;
    uint32_t last_handle = 0;
    const tex_view *v = NULL;
    const tex_sampler *s = NULL;
    tex_ctx base;
    for (unsigned lane = 0; lane < TV_TEX_LANES; lane++) {
        if (!((active >> lane) & 1u))
            continue;
        clear_lane(res, lane);
        uint32_t handle = req->handle[lane];
        bool fetch = req->op == TV_TEX_OP_FETCH;
        if (fetch)
            handle &= 0xfffffu; /* a fetch reads only the header (TLDS: "only headerPtr") */
        if (!have_last || handle != last_handle) {
            have_last = true;
            last_handle = handle;
            v = NULL;
            s = NULL;
            last_ok = fetch ? tex_resolve_header(unit, handle, &v) && v
                            : tex_resolve(unit, handle, &v, &s) && v && s;
            ctx_ok = false;
        }
        if (!last_ok) {
            res->invalid |= 1u << lane;
            continue;
        }
        if (is_query(req->op)) {
            uint32_t q[4];
            tex_query_lane(v, req, lane, q);
            for (unsigned k = 0; k < 4; k++)
                res->v[k][lane] = q[k];
            continue;
        }
        if (!type_ok(tgt, req->op, v)) {
            res->invalid |= 1u << lane;
            continue;
        }
        if (req->op == TV_TEX_OP_FETCH) {
            uint32_t raw[4], out[4];
            tex_fetch_lane(unit, v, tgt, req, lane, raw);
            tex_apply_swizzle(v, raw, out);
            for (unsigned k = 0; k < 4; k++)
                res->v[k][lane] = out[k];
            continue;
        }
        if (!ctx_ok) {
            tex_setup_ctx(unit, v, s, tgt, req, &base);
            ctx_ok = true;
        }
        sample_lane(&base, req, lc, present, lane, res);
    }
    return TV_OK;
}
