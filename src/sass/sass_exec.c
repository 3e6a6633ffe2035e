/* Executing one instruction on the warp: checks (a fault reads and writes nothing), the
 * plan (sass_request.c), the texture unit, result post-processing (TMML fixed point,
 * TXQ rules of the page), write-back, and the sparse predicate. */
#include "sass/sass_internal.h"
#include "util/error.h"

#include <stdlib.h>
#include <string.h>

tv_status tv_sass_set_binding(tv_sass_warp *w, const tv_sass_binding *b, tv_error *err)
{
    if (!w || !b)
        return tv_error_set(err, TV_ERR_ARG, 0, 0, "tv_sass_set_binding: NULL argument");
    if (b->handle_bank >= TV_SASS_NUM_CBANKS)
        return tv_error_set(err, TV_ERR_ARG, 0, 0, "handle bank %u out of range (0..%u)",
                            b->handle_bank, TV_SASS_NUM_CBANKS - 1);
    w->binding = *b;
    tv_tex_set_header_pool(w->unit, b->header_pool, b->header_max);
    tv_tex_set_sampler_pool(w->unit, b->sampler_pool, b->sampler_max);
    tv_tex_set_header_binding(w->unit, b->header_binding);
    tv_tex_invalidate(w->unit);
    return TV_OK;
}

/* Features with no documented behaviour: explicit errors, checked before any access. */
static tv_status unsupported(const tv_sass_insn *in, tv_error *err)
{
    const char *what = NULL;
    if (in->op == TV_SASS_TLD && in->cl)
        what = "TLD.CL (LOD clamp packing undocumented)";
    else if (in->op == TV_SASS_TXD && in->lc)
        what = "TXD.LC (LOD clamp packing undocumented)";
    else if (in->op == TV_SASS_TEX && in->lc && (in->type & 1))
        what = "TEX.LC with an array type (packing with the layer undocumented)";
    if (what)
        return tv_error_set(err, TV_ERR_UNSUPPORTED, 0, 0, "%s: not implemented: %s",
                            sass_ops[in->op].name, what);
    return TV_OK;
}

/* The TXQ page's TEX_HEADER_DIMENSION table, B column, for the two types where it is not
 * what the unit's query returns: TWO_D zero/one, TWO_D_NO_MIPMAP zero/depth (zero for
 * MODE_1X1). A level past the last keeps B zero like the other sizes. */
static uint32_t txq_dim_b(const tv_tic *tic, uint32_t unit_b, uint32_t width)
{
    bool mode_1x1 = tic->multi_sample_count == 0;
    if (width == 0)
        return 0;
    if (tic->texture_type == TV_TEX_2D)
        return mode_1x1 ? 0 : 1;
    if (tic->texture_type == TV_TEX_2D_NO_MIPMAP)
        return mode_1x1 ? 0 : (uint32_t)tic->depth_minus_one + 1u;
    return unit_b;
}

static void post_txq(tv_sass_warp *w, const sass_plan *p, uint32_t v[4][TV_SASS_LANES])
{
    uint32_t last = 0;
    bool have = false, valid = false;
    tv_tic tic;
    for (unsigned lane = 0; lane < TV_SASS_LANES; lane++) {
        if (!((p->exec >> lane) & 1u))
            continue;
        if (!have || p->handle[lane] != last) {
            last = p->handle[lane];
            have = true;
            valid = tv_tex_lookup(w->unit, last, &tic, NULL);
        }
        if (p->kind == PLAN_TXQ_DIM) {
            if (valid)
                v[2][lane] = txq_dim_b(&tic, v[2][lane], v[0][lane]);
        } else if (p->kind == PLAN_TXQ_TYPE) {
            v[0][lane] = 0;   /* reserved for "type" (the page): 0 */
            v[1][lane] = v[3][lane] = 0;
        } else if (p->kind == PLAN_TXQ_SAMPLE_POS) {
            float x, y;
            int32_t idx = p->req[0].sample[lane];
            unsigned samples = valid ? sass_msaa_samples(tic.multi_sample_count) : 0;
            bool ok = valid && idx >= 0 && tv_tex_sample_position(samples, (unsigned)idx, &x, &y);
            v[0][lane] = ok ? sass_pack_sample_pos(x, y) : 0;
            v[1][lane] = v[2][lane] = v[3][lane] = 0;
        }
    }
}

static tv_status run_plan(tv_sass_warp *w, const tv_sass_insn *in, const sass_plan *p,
                          uint32_t v[4][TV_SASS_LANES], tv_error *err)
{
    memset(v, 0, 4 * TV_SASS_LANES * sizeof(uint32_t));
    if (p->kind == PLAN_TXQ_SAMPLE_POS) {
        post_txq(w, p, v);
        return TV_OK;
    }
    tv_tex_result *res = malloc(sizeof *res);
    if (!res)
        return tv_error_set(err, TV_ERR_NOMEM, 0, 0, "SASS: out of memory");
    tv_status s = TV_OK;
    for (unsigned k = 0; k < p->nreq && !s; k++) {
        const tv_tex_request *r = &p->req[k];
        memset(res, 0, sizeof *res);
        s = tv_tex_execute(w->unit, r, res, err);
        for (unsigned lane = 0; lane < TV_SASS_LANES && !s; lane++) {
            if (!((r->active >> lane) & 1u) || ((res->invalid >> lane) & 1u))
                continue;   /* invalid texture or target mismatch: zeros */
            if (in->op == TV_SASS_TMML) {
                v[0][lane] = sass_tmml_s8_8(res->lod_unclamped[lane]);
                v[1][lane] = sass_tmml_u8_8(res->lod_clamped[lane]);
                v[2][lane] = sass_tmml_major(res->major_u[lane], res->major_v[lane]);
                v[3][lane] = sass_tmml_s4_12(res->log2_ratio[lane]);
            } else {
                for (unsigned c = 0; c < 4; c++)
                    v[c][lane] = res->v[c][lane];
            }
        }
    }
    free(res);
    if (!s && (p->kind == PLAN_TXQ_DIM || p->kind == PLAN_TXQ_TYPE))
        post_txq(w, p, v);
    return s;
}

tv_status tv_sass_exec(tv_sass_warp *w, const tv_sass_insn *in, tv_error *err)
{
    if (!w || !in)
        return tv_error_set(err, TV_ERR_ARG, 0, 0, "tv_sass_exec: NULL argument");
    sass_clear_access(w);
    tv_status s = tv_sass_check_registers(in, err);
    if (!s)
        s = unsupported(in, err);
    if (s)
        return s;
    uint32_t exec = sass_guard_mask(w, in);
    if (!exec)
        return TV_OK;
    sass_plan *p = malloc(sizeof *p);
    uint32_t (*v)[TV_SASS_LANES] = malloc(4 * sizeof *v);
    if (!p || !v) {
        free(p);
        free(v);
        return tv_error_set(err, TV_ERR_NOMEM, 0, 0, "SASS: out of memory");
    }
    s = sass_build_plan(w, in, exec, p, err);
    if (!s)
        s = run_plan(w, in, p, v, err);
    if (!s) {
        sass_write_results(w, in, exec, (const uint32_t(*)[TV_SASS_LANES])v);
        /* texvm has no sparse textures: every access is resident, Pd = false */
        if (sass_ops[in->op].has_pd && in->pd != TV_SASS_PT)
            sass_write_pred(w, in->pd, exec, false);
    }
    free(p);
    free(v);
    return s;
}

tv_status tv_sass_exec_text(tv_sass_warp *w, const char *text, tv_error *err)
{
    tv_sass_insn in;
    tv_status s = tv_sass_parse(text, &in, err);
    if (s)
        return s;
    return tv_sass_exec(w, &in, err);
}

tv_status tv_sass_exec_word(tv_sass_warp *w, uint64_t word, uint32_t ctrl, tv_error *err)
{
    tv_sass_insn in;
    tv_status s = tv_sass_decode(word, ctrl, &in, err);
    if (s)
        return s;
    return tv_sass_exec(w, &in, err);
}
