/* Geometry shaders in draws (issue 17): the assembled primitives of every instance, with
 * their adjacent vertices, go to the bound GEOM program (tv_vm_run_geometry) with its
 * inputs linked by semantic to the vertex shader's outputs; what it emits on stream 0
 * becomes the draw's vertices and primitives: point lists, line strips and triangle strips
 * assembled with the same rules (and provoking vertex) as a draw of that topology.
 * docs/pipeline-geometry.md §Geometry shaders. */
#include "pipe_draw.h"
#include "pipe_prim.h"

#include <stdlib.h>
#include <string.h>

#define OP "draw_vbo"
/* Emitted vertices of one draw, and their memory (as for the vertex stage). */
#define MAX_GS_VERTICES (1u << 24)
#define MAX_GS_BYTES (512ull << 20)

/* The GS_INPUT_PRIMITIVE a draw's topology feeds (PIPE_PRIM_*), -1 for none (quads,
 * polygons, patches), and its vertex count. */
static int gs_input_of(unsigned mode, unsigned *nverts)
{
    static const struct { int8_t prim; uint8_t n; } table[PRIM_COUNT] = {
        [PRIM_POINTS] = {PRIM_POINTS, 1},
        [PRIM_LINES] = {PRIM_LINES, 2}, [PRIM_LINE_LOOP] = {PRIM_LINES, 2},
        [PRIM_LINE_STRIP] = {PRIM_LINES, 2},
        [PRIM_TRIANGLES] = {PRIM_TRIANGLES, 3}, [PRIM_TRIANGLE_STRIP] = {PRIM_TRIANGLES, 3},
        [PRIM_TRIANGLE_FAN] = {PRIM_TRIANGLES, 3},
        [PRIM_QUADS] = {-1, 0}, [PRIM_QUAD_STRIP] = {-1, 0}, [PRIM_POLYGON] = {-1, 0},
        [PRIM_LINES_ADJACENCY] = {PRIM_LINES_ADJACENCY, 4},
        [PRIM_LINE_STRIP_ADJACENCY] = {PRIM_LINES_ADJACENCY, 4},
        [PRIM_TRIANGLES_ADJACENCY] = {PRIM_TRIANGLES_ADJACENCY, 6},
        [PRIM_TRIANGLE_STRIP_ADJACENCY] = {PRIM_TRIANGLES_ADJACENCY, 6},
        [PRIM_PATCHES] = {-1, 0},
    };
    if (mode >= PRIM_COUNT)
        return -1;
    *nverts = table[mode].n;
    return table[mode].prim;
}

typedef struct gs_emit {
    draw_state *d;
    draw_tri *tris;
    size_t ntris, cap;
    uint32_t base;                 /* first vertex of the strip being assembled */
    int primid_out;                /* the GS's PRIMID output register in d->out, -1 */
    bool failed;
} gs_emit;

static bool emit_prim(void *user, const prim_out *p)
{
    gs_emit *e = user;
    size_t number = e->ntris;
    draw_tri *t = draw_tri_push(e->d, &e->tris, &e->ntris, &e->cap);
    if (!t) {
        e->failed = true;
        return false;
    }
    t->n = p->n;
    for (int i = 0; i < p->n; i++)
        t->v[i] = e->base + p->v[i];
    t->provoking = e->base + p->provoking;
    t->first = p->first;
    /* the fragment shader's PRIMID: what the GS wrote for the provoking vertex (GL leaves
     * it undefined when the GS writes none: the emitted primitive's number then) */
    t->id = e->primid_out >= 0 ? e->d->out[e->primid_out][(size_t)t->provoking * 4]
                               : (uint32_t)number;
    return true;
}

/* The NPRIMS strips of LENS (vertex counts, in emission order) as primitives of OUT_PRIM,
 * the draw's provoking-vertex convention applied; -1 (named) when out of memory. */
static int assemble_strips(gs_emit *e, uint32_t out_prim, const uint32_t *lens,
                           uint64_t nprims)
{
    bool last = !e->d->ctx->sub.rast.flatshade_first;
    for (uint64_t p = 0; p < nprims && !e->failed; p++) {
        prim_assemble(out_prim, lens[p], 0, last, 0, emit_prim, e);
        e->base += lens[p];
    }
    return e->failed ? (e->d->quota_failed ? -1 : pipe_fail(e->d->ctx, OP ": out of memory"))
                     : 0;
}

/* Emitted vertices (NOUT vec4 registers each, NV of them) as one array per register:
 * register r of vertex v at out[r][4 v]; -1 (named) when out of memory. */
static int per_register(tv_pipe_ctx *ctx, const uint32_t *verts, uint64_t nv, uint32_t nout,
                        uint32_t *out[TV_VM_MAX_ATTRIBS])
{
    for (uint32_t r = 0; r < nout; r++) {
        out[r] = malloc((size_t)(nv ? nv : 1) * 16);
        if (!out[r])
            return pipe_fail(ctx, OP ": out of memory");
        for (uint64_t v = 0; v < nv; v++)
            memcpy(out[r] + v * 4, verts + (v * nout + r) * 4, 16);
    }
    return 0;
}

/* Inputs of the GS: IN[r] from the VS output of the same semantic (zeros when none). */
static void link_inputs(const draw_state *d, const tv_tgsi_program *gs, int vs_reg[TV_VM_MAX_ATTRIBS])
{
    const tv_tgsi_program *vs = tv_vm_program_source(d->tes ? d->tes : d->vs);
    for (unsigned r = 0; r < TV_VM_MAX_ATTRIBS; r++)
        vs_reg[r] = -1;
    for (uint32_t i = 0; i < gs->num_decls; i++) {
        const tv_tgsi_declaration *dc = &gs->decls[i];
        if (dc->file != TV_FILE_IN || !dc->has_semantic)
            continue;
        for (int32_t r = dc->first; r <= dc->last && r < TV_VM_MAX_ATTRIBS; r++)
            vs_reg[r] = draw_output_reg(vs, dc->semantic,
                                        dc->semantic_index + (uint32_t)(r - dc->first));
    }
}

/* Vertex stream S (1..3) of one instance's run: not rasterised; its primitives count for
 * that stream's queries and go to the stream-output buffers of that stream's outputs. */
static int other_stream(draw_state *d, unsigned s, const tv_vm_geometry_stream *gs,
                        uint32_t nout, uint32_t out_prim)
{
    tv_pipe_ctx *ctx = d->ctx;
    uint32_t *saved[TV_VM_MAX_ATTRIBS], *pool[TV_VM_MAX_ATTRIBS] = {0};
    uint32_t slots = d->slots, instances = d->instances;
    gs_emit e = {.d = d, .primid_out = -1};
    int rc = per_register(ctx, gs->vertices, gs->num_vertices, nout, pool);
    if (!rc)
        rc = assemble_strips(&e, out_prim, gs->prim_lengths, gs->num_prims);
    if (!rc) {
        /* the draw's vertices are this stream's for the writes, then back */
        memcpy(saved, d->out, sizeof saved);
        memcpy(d->out, pool, sizeof pool);
        d->slots = gs->num_vertices;
        d->instances = 1;
        for (size_t t = 0; t < e.ntris && !rc && pipe_so_active(ctx, d->so); t++)
            rc = draw_stream_output(d, s, 0, &e.tris[t]);
        memcpy(d->out, saved, sizeof saved);
        d->slots = slots;
        d->instances = instances;
        pipe_queries_count_stream(ctx, s, e.ntris, 0);
        d->stat[TV_PIPE_STAT_GS_PRIMITIVES] += e.ntris;
    }
    for (uint32_t r = 0; r < nout; r++)
        free(pool[r]);
    free(e.tris);
    return rc;
}

int draw_geometry(draw_state *d, draw_tri **tris, size_t *ntris)
{
    tv_pipe_ctx *ctx = d->ctx;
    const tv_tgsi_program *gs = tv_vm_program_source(d->gs);
    unsigned nin;
    int want = gs_input_of(d->mode, &nin);
    const prim_info *pi = prim_get(d->mode);
    uint32_t in_prim = draw_prop(gs, TV_PROP_GS_INPUT_PRIMITIVE);
    uint32_t out_prim = draw_prop(gs, TV_PROP_GS_OUTPUT_PRIMITIVE);
    if (want < 0 || (uint32_t)want != in_prim)
        return pipe_fail(ctx, OP ": the geometry shader takes %s, the draw gives %s",
                         prim_get(in_prim) ? prim_get(in_prim)->name : "an unknown primitive",
                         pi ? pi->name : "an unknown primitive");
    if (out_prim != PRIM_POINTS && out_prim != PRIM_LINE_STRIP && out_prim != PRIM_TRIANGLE_STRIP)
        return pipe_fail(ctx, OP ": geometry shader output primitive %u (POINTS, LINE_STRIP or "
                         "TRIANGLE_STRIP)", out_prim);
    uint64_t invocations = draw_prop(gs, TV_PROP_GS_INVOCATIONS);
    uint64_t max_out = draw_prop(gs, TV_PROP_GS_MAX_OUTPUT_VERTICES);
    uint32_t nout = 0;
    for (uint32_t i = 0; i < gs->num_decls; i++)
        if (gs->decls[i].file == TV_FILE_OUT && (uint32_t)gs->decls[i].last + 1 > nout)
            nout = (uint32_t)gs->decls[i].last + 1;
    nout = nout > TV_VM_MAX_ATTRIBS ? TV_VM_MAX_ATTRIBS : nout;
    uint64_t most = (uint64_t)*ntris * d->instances * (invocations ? invocations : 1) * max_out;
    if (most > MAX_GS_VERTICES || most * 16 * (nout ? nout : 1) > MAX_GS_BYTES)
        return pipe_fail(ctx, OP ": the geometry shader may emit %llu vertices (%zu primitives x "
                         "%u instances x %llu invocations x %llu; at most %u vertices, %llu MiB)",
                         (unsigned long long)most, *ntris, d->instances,
                         (unsigned long long)(invocations ? invocations : 1),
                         (unsigned long long)max_out, MAX_GS_VERTICES, MAX_GS_BYTES >> 20);

    int vs_reg[TV_VM_MAX_ATTRIBS];
    link_inputs(d, gs, vs_reg);
    tv_vm_bindings b;
    if (pipe_stage_bindings(ctx, TV_PIPE_STAGE_GEOMETRY, OP, &b))
        return -1;
    b.tex = d->tex[TV_PIPE_STAGE_GEOMETRY].unit;
    /* the arrays of the geometry stage, of the memory quota until it ends (the emitted
       vertices held up to four times: the engine's, its output, POOL, the per-register
       arrays) */
    uint64_t held = 0;
    if (pipe_charge_temp(ctx, &held, (uint64_t)(*ntris ? *ntris : 1) * (nin + 1) * 4 +
                                         (uint64_t)(d->slots ? d->slots : 1) * 16, OP,
                         "the geometry shader's inputs"))
        return -1;
    uint32_t *indices = malloc((*ntris ? *ntris : 1) * nin * 4);
    /* after tessellation a primitive's ID is its patch's */
    uint32_t *ids = d->tes ? malloc((*ntris ? *ntris : 1) * 4) : NULL;
    uint32_t *zeros = calloc((size_t)(d->slots ? d->slots : 1), 16);
    uint32_t *pool = NULL;         /* emitted vertices of all instances, GS register order */
    uint32_t *lens = NULL;         /* strip lengths of all instances */
    uint64_t npool = 0, nlens = 0;
    int rc = 0;
    if (!indices || !zeros || (d->tes && !ids))
        rc = pipe_fail(ctx, OP ": out of memory");
    for (size_t t = 0; t < *ntris && !rc; t++) {
        for (unsigned v = 0; v < nin; v++)
            indices[t * nin + v] = (*tris)[t].v[v];
        if (ids)
            ids[t] = (*tris)[t].id;
    }
    for (uint32_t j = 0; j < d->instances && !rc; j++) {
        tv_vm_geometry_params gp;
        memset(&gp, 0, sizeof gp);
        gp.num_prims = (uint32_t)*ntris;
        gp.num_vertices = d->slots;
        gp.indices = indices;
        gp.primitive_ids = ids;
        for (unsigned r = 0; r < TV_VM_MAX_ATTRIBS; r++)
            gp.in[r] = vs_reg[r] >= 0 ? draw_vs_out(d, vs_reg[r], j, 0) : zeros;
        tv_vm_geometry_output go;
        tv_error err;
        tv_vm_stats st;
        memset(&err, 0, sizeof err);
        uint64_t lanes = (uint64_t)gp.num_prims * (invocations ? invocations : 1);
        if (pipe_work_begin(ctx, OP, (lanes + 31) / 32, d->work_left)) {
            rc = -1;
            break;
        }
        d->stat[TV_PIPE_STAT_GS_INVOCATIONS] += lanes;
        if (tv_vm_run_geometry(ctx->vm, d->gs, &b, &gp, &go, &st, &err) != TV_OK) {
            rc = pipe_fail(ctx, OP ": geometry shader: %s", err.message);
            break;
        }
        pipe_work_end(ctx, &d->work_left, (lanes + 31) / 32, &st);
        /* what the run emitted (held by the engine's output until it is freed), and
           stream 0's copy appended to POOL and LENS */
        uint64_t emitted = 0;
        for (unsigned sn = 0; sn < TV_PIPE_MAX_STREAMS; sn++)
            emitted += (uint64_t)go.streams[sn].num_vertices * (nout ? nout : 1) * 16 +
                       (uint64_t)go.streams[sn].num_prims * 4;
        uint64_t run_held = 0;
        if (pipe_charge_temp(ctx, &run_held, emitted, OP, "the geometry shader's emitted "
                             "vertices") ||
            pipe_charge_temp(ctx, &held, (uint64_t)go.streams[0].num_vertices * nout * 16 +
                                             (uint64_t)go.streams[0].num_prims * 4,
                             OP, "the geometry shader's emitted vertices")) {
            pipe_uncharge(ctx, run_held);
            tv_vm_geometry_output_free(&go);
            rc = -1;
            break;
        }
        for (unsigned sn = 1; sn < TV_PIPE_MAX_STREAMS && !rc; sn++)
            if (go.streams[sn].num_prims)
                rc = other_stream(d, sn, &go.streams[sn], nout, out_prim);
        const tv_vm_geometry_stream *s0 = &go.streams[0];
        uint32_t *np = realloc(pool, (size_t)(npool + s0->num_vertices) * nout * 16 + 16);
        if (np)
            pool = np;
        uint32_t *nl = realloc(lens, (size_t)(nlens + s0->num_prims) * 4 + 4);
        if (nl)
            lens = nl;
        if (!np || !nl)
            rc = pipe_fail(ctx, OP ": out of memory");
        else {
            if (nout && s0->num_vertices)
                memcpy(pool + npool * nout * 4, s0->vertices,
                       (size_t)s0->num_vertices * nout * 16);
            memcpy(lens + nlens, s0->prim_lengths, (size_t)s0->num_prims * 4);
            npool += s0->num_vertices;
            nlens += s0->num_prims;
        }
        tv_vm_geometry_output_free(&go);
        pipe_uncharge(ctx, run_held);
    }
    free(indices);
    free(ids);
    free(zeros);
    /* the emitted vertices become the draw's: output r of vertex v at out[r][4 v] */
    draw_out_release(d);
    if (!rc && pipe_charge_temp(ctx, &d->out_held, (npool ? npool : 1) * nout * 16, OP,
                                "the geometry shader's outputs"))
        rc = -1;
    if (!rc)
        rc = per_register(ctx, pool, npool, nout, d->out);
    free(pool);
    d->slots = (uint32_t)npool;
    d->instances = 1;
    gs_emit e = {.d = d, .primid_out = draw_output_reg(gs, TV_SEM_PRIMID, 0)};
    if (!rc)
        rc = assemble_strips(&e, out_prim, lens, nlens);
    free(lens);
    pipe_uncharge(ctx, held);
    d->stat[TV_PIPE_STAT_GS_PRIMITIVES] += e.ntris;
    free(*tris);
    *tris = e.tris;
    *ntris = rc ? 0 : e.ntris;
    return rc;
}
