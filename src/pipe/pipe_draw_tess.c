/* Tessellation in draws (issue 17): the draw's patches, per instance, through the bound
 * TESS_CTRL program (tv_vm_run_tess_ctrl; without one the patch's vertices pass on as the
 * vertex shader left them and the levels are the state's), the tessellator
 * (include/texvm/tess.h) with the TESS_EVAL program's domain, spacing, vertex order and
 * point mode, and the TESS_EVAL program (tv_vm_run_tess_eval) over the domain points. The
 * evaluated points become the draw's vertices and the tessellator's triangles, lines or
 * points its primitives, their primitive ID the patch's. Inputs link by semantic:
 * control inputs to vertex outputs, evaluation inputs to control outputs (per vertex, or
 * per patch for PATCH, TESSOUTER and TESSINNER). docs/pipeline-geometry.md
 * §Tessellation. */
#include "pipe_draw.h"
#include "pipe_prim.h"

#include <stdlib.h>
#include <string.h>

#include "texvm/tess.h"

#define OP "draw_vbo"
/* evaluated points of one draw, and their memory (as for geometry shaders) */
#define MAX_TESS_POINTS (1u << 24)
#define MAX_TESS_BYTES (512ull << 20)

typedef struct tess_run {
    draw_state *d;
    const tv_tgsi_program *vs, *tcs, *tes;
    const uint32_t *patch_slots;
    size_t npatches;
    uint32_t pv;                   /* vertices of an input patch */
    uint32_t inst;
    tv_vm_tess_ctrl_output tco;    /* this instance's control outputs (none without a TCS) */
    uint32_t zeros[4];
    /* the draw so far: evaluated points of every instance, output register r at out[r] */
    uint32_t nout;
    uint32_t *out[TV_VM_MAX_ATTRIBS];
    uint64_t out_cap;              /* points the out[] arrays hold room for */
    uint64_t out_held;             /* their bytes, of the memory quota (draw_state out_held) */
    uint64_t npoints;
    draw_tri *tris;
    size_t ntris, cap;
} tess_run;

static uint32_t max_reg(const tv_tgsi_program *p, unsigned file)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < p->num_decls; i++)
        if (p->decls[i].file == file && (uint32_t)p->decls[i].last + 1 > n)
            n = (uint32_t)p->decls[i].last + 1;
    return n > TV_VM_MAX_ATTRIBS ? TV_VM_MAX_ATTRIBS : n;
}

/* The evaluation program's inputs read with a vertex index (bit r: IN[r]). The declaration
 * does not tell: Mesa's virgl driver declares per-vertex varyings past GENERIC[38] as
 * PATCH[n] (`DCL IN[1], PATCH[7]`, read as `IN[2][1]`), like true patch inputs. */
static uint64_t per_vertex_inputs(const tv_tgsi_program *p)
{
    uint64_t m = 0;
    for (uint32_t i = 0; i < p->num_insns; i++) {
        const tv_tgsi_instruction *in = &p->insns[i];
        for (unsigned k = 0; k < in->num_src && k < TV_TGSI_MAX_SRC; k++) {
            const tv_tgsi_reg *r = &in->src[k].reg;
            if (r->file != TV_FILE_IN || !r->has_dim)
                continue;
            if (!r->indirect) {
                if (r->index >= 0 && r->index < 64)
                    m |= 1ull << r->index;
                continue;
            }
            /* an indexed array: every register of its declaration */
            uint32_t aid = r->array_id ? r->array_id : r->ind.array_id;
            bool found = false;
            for (uint32_t d = 0; d < p->num_decls && aid; d++) {
                const tv_tgsi_declaration *dc = &p->decls[d];
                if (dc->file != TV_FILE_IN || dc->array_id != aid)
                    continue;
                for (int32_t x = dc->first; x <= dc->last && x < 64; x++)
                    m |= 1ull << x;
                found = true;
            }
            if (!found)
                m = ~0ull;
        }
    }
    return m;
}

/* What the evaluation stage reads as (SEM, INDEX) of vertex V of patch K (PATCH: a
 * per-patch input): the control shader's output; without one the vertex shader's output,
 * the state's levels for TESSOUTER/TESSINNER, zeros for patch varyings. */
static const uint32_t *patch_value(tess_run *t, size_t k, uint32_t v, unsigned sem,
                                   uint32_t index, bool patch, uint32_t tmp[4])
{
    if (t->tcs) {
        int r = draw_output_reg(t->tcs, sem, index);
        if (r < 0 || (uint32_t)r >= t->tco.num_outputs)
            return t->zeros;
        size_t blk = patch ? 0 : v;
        return t->tco.data +
               (((size_t)k * t->tco.vertices_out + blk) * t->tco.num_outputs + (uint32_t)r) * 4;
    }
    if (sem == TV_SEM_TESSOUTER || sem == TV_SEM_TESSINNER) {
        const tv_pipe_ctx *ctx = t->d->ctx;
        float f[4] = {0, 0, 0, 0};
        memcpy(f, sem == TV_SEM_TESSOUTER ? ctx->sub.tess_outer : ctx->sub.tess_inner,
               sem == TV_SEM_TESSOUTER ? 16 : 8);
        memcpy(tmp, f, 16);
        return tmp;
    }
    if (patch || v >= t->pv)
        return t->zeros;
    int r = draw_output_reg(t->vs, sem, index);
    if (r < 0)
        return t->zeros;
    return draw_vs_out(t->d, r, t->inst, t->patch_slots[k * t->pv + v]);
}

static int run_control(tess_run *t)
{
    draw_state *d = t->d;
    tv_pipe_ctx *ctx = d->ctx;
    tv_vm_tess_ctrl_params tp;
    memset(&tp, 0, sizeof tp);
    tp.num_patches = (uint32_t)t->npatches;
    tp.vertices_in = t->pv;
    tp.num_vertices = d->slots;
    tp.indices = t->patch_slots;
    uint32_t *zeros = calloc((size_t)(d->slots ? d->slots : 1), 16);
    if (!zeros)
        return pipe_fail(ctx, OP ": out of memory");
    for (uint32_t i = 0; i < t->tcs->num_decls; i++) {
        const tv_tgsi_declaration *dc = &t->tcs->decls[i];
        if (dc->file != TV_FILE_IN || !dc->has_semantic)
            continue;
        for (int32_t r = dc->first; r <= dc->last && r < TV_VM_MAX_ATTRIBS; r++) {
            int o = draw_output_reg(t->vs, dc->semantic,
                                    dc->semantic_index + (uint32_t)(r - dc->first));
            tp.in[r] = o >= 0 ? draw_vs_out(d, o, t->inst, 0) : zeros;
        }
    }
    for (unsigned r = 0; r < TV_VM_MAX_ATTRIBS; r++)
        if (!tp.in[r])
            tp.in[r] = zeros;
    tv_vm_bindings b;
    tv_error err;
    tv_vm_stats st;
    memset(&err, 0, sizeof err);
    int rc = pipe_stage_bindings(ctx, TV_PIPE_STAGE_TESS_CTRL, OP, &b);
    b.tex = d->tex[TV_PIPE_STAGE_TESS_CTRL].unit;
    uint64_t warps = t->npatches;
    if (!rc)
        rc = pipe_work_begin(ctx, OP, warps, d->work_left);
    if (!rc && tv_vm_run_tess_ctrl(ctx->vm, d->tcs, &b, &tp, &t->tco, &st, &err) != TV_OK)
        rc = pipe_fail(ctx, OP ": tessellation control shader: %s", err.message);
    if (!rc) {
        pipe_work_end(ctx, &d->work_left, warps, &st);
        d->stat[TV_PIPE_STAT_HS_INVOCATIONS] += t->npatches;
    }
    free(zeros);
    return rc;
}

/* The tessellator's settings from the evaluation program's properties. */
static int domain_of(tess_run *t, tv_tess_domain *dom, tv_tess_spacing *sp)
{
    uint32_t mode = draw_prop(t->tes, TV_PROP_TES_PRIM_MODE);
    uint32_t spacing = draw_prop(t->tes, TV_PROP_TES_SPACING);
    if (mode == PRIM_TRIANGLES)
        *dom = TV_TESS_TRIANGLES;
    else if (mode == PRIM_QUADS)
        *dom = TV_TESS_QUADS;
    else if (mode == PRIM_LINES)
        *dom = TV_TESS_ISOLINES;
    else
        return pipe_fail(t->d->ctx, OP ": TES_PRIM_MODE %u (TRIANGLES, QUADS or LINES)", mode);
    /* Gallium's PIPE_TESS_SPACING_*: fractional odd, fractional even, equal */
    static const tv_tess_spacing k_spacing[3] = {TV_TESS_FRACTIONAL_ODD,
                                                 TV_TESS_FRACTIONAL_EVEN, TV_TESS_EQUAL};
    if (spacing > 2)
        return pipe_fail(t->d->ctx, OP ": TES_SPACING %u (0, 1 or 2)", spacing);
    *sp = k_spacing[spacing];
    return 0;
}

/* Tessellate every patch of this instance and evaluate its points. */
static int tessellate_instance(tess_run *t)
{
    draw_state *d = t->d;
    tv_pipe_ctx *ctx = d->ctx;
    tv_tess_domain dom = TV_TESS_TRIANGLES;
    tv_tess_spacing sp = TV_TESS_EQUAL;
    if (domain_of(t, &dom, &sp))
        return -1;
    bool cw = draw_prop(t->tes, TV_PROP_TES_VERTEX_ORDER_CW) != 0;
    bool points = draw_prop(t->tes, TV_PROP_TES_POINT_MODE) != 0;
    bool last = !ctx->sub.rast.flatshade_first;
    float *coords = NULL;
    uint32_t *patch_of = NULL;
    /* this instance's arrays, of the memory quota until it ends */
    uint64_t held = 0;
    if (pipe_charge_temp(ctx, &held, (uint64_t)(t->npatches ? t->npatches : 1) * 24, OP,
                         "the tessellation levels"))
        return -1;
    float *levels = malloc((t->npatches ? t->npatches : 1) * 6 * sizeof(float));
    if (!levels) {
        pipe_uncharge(ctx, held);
        return pipe_fail(ctx, OP ": out of memory");
    }
    size_t n = 0, cap = 0;
    uint64_t first_point = t->npoints;
    int rc = 0;
    for (size_t k = 0; k < t->npatches && !rc; k++) {
        uint32_t tmp[2][4];
        float outer[4], inner[2];
        memcpy(outer, patch_value(t, k, 0, TV_SEM_TESSOUTER, 0, true, tmp[0]), 16);
        memcpy(inner, patch_value(t, k, 0, TV_SEM_TESSINNER, 0, true, tmp[1]), 8);
        memcpy(levels + k * 6, outer, 16);
        memcpy(levels + k * 6 + 4, inner, 8);
        tv_tess_result r;
        if (!tv_tess_patch(dom, sp, cw, points, outer, inner, &r)) {
            rc = pipe_fail(ctx, OP ": out of memory");
            break;
        }
        if (first_point + n + r.num_points > MAX_TESS_POINTS) {
            tv_tess_result_free(&r);
            rc = pipe_fail(ctx, OP ": tessellation makes more than %u points", MAX_TESS_POINTS);
            break;
        }
        /* every point is an evaluation shader invocation: stop making them (and the
           memory they take) as soon as their run could not fit the work quota */
        if (!pipe_work_fits(ctx, (n + r.num_points + 31) / 32, d->work_left)) {
            size_t points = n + r.num_points;
            tv_tess_result_free(&r);
            rc = pipe_fail(ctx, OP ": tessellation makes more points (%zu by patch %zu) than "
                           "the work quota lets the evaluation shader run (%llu warp "
                           "instructions left, at least %llu per warp)",
                           points, k, (unsigned long long)d->work_left,
                           PIPE_MIN_WARP_INSTRUCTIONS);
            break;
        }
        if (n + r.num_points > cap) {
            size_t c = cap ? cap : 1024;
            while (c < n + r.num_points)
                c *= 2;
            if (pipe_charge_temp(ctx, &held, (uint64_t)(c - cap) * 12, OP,
                                 "the tessellated points")) {
                tv_tess_result_free(&r);
                rc = -1;
                break;
            }
            float *nc = realloc(coords, c * 8);
            if (nc)
                coords = nc;
            uint32_t *np = realloc(patch_of, c * 4);
            if (np)
                patch_of = np;
            if (!nc || !np) {
                tv_tess_result_free(&r);
                rc = pipe_fail(ctx, OP ": out of memory");
                break;
            }
            cap = c;
        }
        uint32_t base = (uint32_t)(first_point + n);
        for (uint32_t i = 0; i < r.num_points; i++) {
            coords[2 * (n + i)] = r.points[i].u;
            coords[2 * (n + i) + 1] = r.points[i].v;
            patch_of[n + i] = (uint32_t)k;
        }
        for (uint32_t i = 0; i + r.verts_per_prim <= r.num_indices && !rc;
             i += r.verts_per_prim) {
            draw_tri *p = draw_tri_push(d, &t->tris, &t->ntris, &t->cap);
            if (!p) {
                rc = d->quota_failed ? -1 : pipe_fail(ctx, OP ": out of memory");
                break;
            }
            p->n = (uint8_t)r.verts_per_prim;
            for (uint32_t j = 0; j < r.verts_per_prim; j++)
                p->v[j] = base + r.indices[i + j];
            p->provoking = last ? p->v[p->n - 1] : p->v[0];
            p->id = (uint32_t)k;
            /* an isoline continues while a segment starts where the last one ended */
            p->first = i == 0 || r.indices[i] != r.indices[i - 1];
        }
        n += r.num_points;
        tv_tess_result_free(&r);
    }
    /* the evaluation inputs: per patch, a block per control-output vertex */
    uint32_t blocks = t->tcs ? t->tco.vertices_out : t->pv;
    uint32_t regs = max_reg(t->tes, TV_FILE_IN);
    uint32_t *data = NULL;
    uint64_t words = (uint64_t)t->npatches * blocks * (regs ? regs : 1) * 4;
    if (!rc && words * 4 > MAX_TESS_BYTES)
        rc = pipe_fail(ctx, OP ": %zu patches of %u vertices x %u inputs are too large",
                       t->npatches, blocks, regs);
    if (!rc && pipe_charge_temp(ctx, &held, (words ? words : 1) * 4, OP,
                                "the evaluation inputs"))
        rc = -1;
    if (!rc && !(data = calloc(words ? words : 1, 4)))
        rc = pipe_fail(ctx, OP ": out of memory");
    uint64_t per_vertex = per_vertex_inputs(t->tes);
    for (uint32_t i = 0; i < t->tes->num_decls && !rc; i++) {
        const tv_tgsi_declaration *dc = &t->tes->decls[i];
        if (dc->file != TV_FILE_IN || !dc->has_semantic)
            continue;
        for (int32_t r = dc->first; r <= dc->last && (uint32_t)r < regs; r++) {
            bool patch = !dc->dim_implied && !((per_vertex >> r) & 1u);
            uint32_t index = dc->semantic_index + (uint32_t)(r - dc->first);
            for (size_t k = 0; k < t->npatches; k++)
                for (uint32_t v = 0; v < (patch ? 1 : blocks); v++) {
                    uint32_t tmp[4];
                    const uint32_t *src = patch_value(t, k, v, dc->semantic, index, patch, tmp);
                    memcpy(data + ((k * blocks + v) * regs + (uint32_t)r) * 4, src, 16);
                }
        }
    }
    /* evaluate, appending the points' outputs to the draw's; the arrays grow by doubling
       (instance after instance appends: growing them by each instance's points copied
       them over and over) */
    uint64_t need = first_point + n + 1;
    if (!rc && need * 16 * t->nout > MAX_TESS_BYTES)
        rc = pipe_fail(ctx, OP ": %llu evaluated points of %u outputs take more than %llu "
                       "bytes", (unsigned long long)(first_point + n), t->nout,
                       (unsigned long long)MAX_TESS_BYTES);
    if (!rc && need > t->out_cap) {
        uint64_t cap = t->out_cap ? t->out_cap : 1024;
        while (cap < need)
            cap *= 2;
        uint64_t most = t->nout ? MAX_TESS_BYTES / (16u * t->nout) : need;
        if (cap > most)
            cap = most > need ? most : need;
        if (pipe_charge_temp(ctx, &t->out_held, (cap - t->out_cap) * 16 * t->nout, OP,
                             "the evaluated points"))
            rc = -1;
        for (uint32_t r = 0; r < t->nout && !rc; r++) {
            uint32_t *o = realloc(t->out[r], (size_t)cap * 16);
            if (!o)
                rc = pipe_fail(ctx, OP ": out of memory");
            else
                t->out[r] = o;
        }
        if (!rc)
            t->out_cap = cap;
    }
    if (!rc && n) {
        tv_vm_tess_eval_params ep;
        memset(&ep, 0, sizeof ep);
        ep.num_points = (uint32_t)n;
        ep.coords = coords;
        ep.patch_of = patch_of;
        ep.num_patches = (uint32_t)t->npatches;
        ep.vertices_in = blocks;
        ep.patch_regs = regs;
        ep.patch_data = data;
        ep.patch_levels = levels;
        for (uint32_t r = 0; r < t->nout; r++)
            ep.out[r] = t->out[r] + first_point * 4;
        tv_vm_bindings b;
        tv_error err;
        tv_vm_stats st;
        memset(&err, 0, sizeof err);
        uint64_t warps = (n + 31) / 32;
        rc = pipe_stage_bindings(ctx, TV_PIPE_STAGE_TESS_EVAL, OP, &b);
        b.tex = d->tex[TV_PIPE_STAGE_TESS_EVAL].unit;
        if (!rc)
            rc = pipe_work_begin(ctx, OP, warps, d->work_left);
        if (!rc && tv_vm_run_tess_eval(ctx->vm, d->tes, &b, &ep, &st, &err) != TV_OK)
            rc = pipe_fail(ctx, OP ": tessellation evaluation shader: %s", err.message);
        if (!rc) {
            pipe_work_end(ctx, &d->work_left, warps, &st);
            d->stat[TV_PIPE_STAT_DS_INVOCATIONS] += n;
        }
    }
    t->npoints = first_point + n;
    free(coords);
    free(patch_of);
    free(data);
    free(levels);
    pipe_uncharge(ctx, held);
    return rc;
}

int draw_tessellation(draw_state *d, const uint32_t *patch_slots, size_t npatches,
                      draw_tri **tris, size_t *ntris)
{
    tess_run t;
    memset(&t, 0, sizeof t);
    t.d = d;
    t.vs = tv_vm_program_source(d->vs);
    t.tcs = d->tcs ? tv_vm_program_source(d->tcs) : NULL;
    t.tes = tv_vm_program_source(d->tes);
    t.patch_slots = patch_slots;
    t.npatches = npatches;
    t.pv = d->info->vertices_per_patch;
    t.nout = max_reg(t.tes, TV_FILE_OUT);
    int rc = 0;
    for (uint32_t j = 0; j < d->instances && !rc; j++) {
        t.inst = j;
        if (t.tcs)
            rc = run_control(&t);
        if (!rc)
            rc = tessellate_instance(&t);
        tv_vm_tess_ctrl_output_free(&t.tco);
    }
    /* the evaluated points become the draw's vertices */
    draw_out_release(d);
    for (unsigned r = 0; r < TV_VM_MAX_ATTRIBS; r++)
        d->out[r] = r < t.nout ? t.out[r] : NULL;
    d->out_held = t.out_held;
    d->slots = (uint32_t)t.npoints;
    d->instances = 1;
    uint32_t mode = draw_prop(t.tes, TV_PROP_TES_PRIM_MODE);
    d->mode = draw_prop(t.tes, TV_PROP_TES_POINT_MODE) ? PRIM_POINTS
              : mode == PRIM_LINES                      ? PRIM_LINES
                                                        : PRIM_TRIANGLES;
    free(*tris);
    *tris = t.tris;
    *ntris = rc ? 0 : t.ntris;
    return rc;
}
