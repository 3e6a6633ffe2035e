/* A draw's triangles on several workers by bands of the target (docs/pipeline.md
 * §Threads). The target's rows are cut into stripes (band_shift_for); stripe s belongs to
 * worker s % W. Every worker walks all the draw's primitives in order, sets each triangle
 * up and shades only the rows of its own stripes (draw_triangle: run_fragments), so every
 * pixel sees the triangles that cover it in primitive order, from one worker — the bytes
 * are those of one worker walking them all. A worker draws through its own copies of the
 * draw state and of the context (error text, primitive numbers for the row memos, work
 * quota) and its own engine (the context's for worker 0); the copies are merged after.
 *
 * Why: a draw of many small triangles shades each in a short engine run of its own,
 * which the per-row parallelism of one run (draw_run_fragments) cannot spread; bands
 * spread the triangles instead. Only where the order of the workers cannot show: no
 * stream output, a fragment shader that touches no memory and samples no attachment
 * (draw_state.frag_parallel), filled, not antialiased triangles only, one viewport. */
#include "pipe_draw.h"

#include "util/threadpool.h"

#include <stdlib.h>
#include <string.h>

/* Draws of fewer primitives (triangles x instances) keep one worker walking them (a large
 * triangle's rows still go to several workers inside its run), unless their boxes hold
 * DRAW_BAND_LARGE_PIXELS each on average: then each worker sets every primitive up (a
 * microsecond or so) and draws its own stripes of all of them without waiting for the
 * others, where the rows of one primitive's run end in a wait for its slowest worker, at
 * each primitive (the blend scene of bench_draw, 8 triangles: 5.6 -> 5.0 ms on 2 workers). */
#define DRAW_BAND_MIN_PRIMS 16u
#define DRAW_BAND_LARGE_PIXELS 4096u

/* Whether the draw's few primitives are large: their boxes' pixels DRAW_BAND_LARGE_PIXELS
 * each on average. */
static bool large_prims(const draw_state *d, const draw_assembly *a)
{
    uint64_t pixels = 0, prims = (uint64_t)a->ntris * d->instances;
    for (uint32_t j = 0; j < d->instances; j++)
        for (size_t t = 0; t < a->ntris; t++) {
            int32_t box[4];
            draw_tri_box(d, j, &a->tris[t], box);
            if (box[0] <= box[2] && box[1] <= box[3])
                pixels += (uint64_t)(box[2] - box[0] + 1) * (uint64_t)(box[3] - box[1] + 1);
        }
    return pixels >= prims * DRAW_BAND_LARGE_PIXELS;
}

bool draw_bands_usable(const draw_state *d, const draw_assembly *a, bool so, bool discard)
{
    const tv_pipe_ctx *ctx = d->ctx;
    const tv_pipe_rasterizer_state *r = &ctx->sub.rast;
    if (ctx->threads < 2 || ctx->plain || so || discard || !d->frag_parallel ||
        d->vp_out >= 0 || r->fill_front != TV_PIPE_POLYGON_FILL ||
        r->fill_back != TV_PIPE_POLYGON_FILL || draw_aa_active(d, r->poly_smooth) ||
        !a->ntris)
        return false;
    for (size_t t = 0; t < a->ntris; t++)
        if (a->tris[t].n != 3)
            return false;
    return (uint64_t)a->ntris * d->instances >= DRAW_BAND_MIN_PRIMS || large_prims(d, a);
}

/* The stripes' height (its log2) for W workers on a target of HEIGHT rows: four stripes a
 * worker at least (so that a part of the target busier than the rest is shared out), the
 * tallest such of 32, 64 or 128 rows. Taller stripes cut fewer small triangles, which
 * every worker owning one of their rows sets up (with 32 rows a sixth of the mesh
 * scene's: bench_draw's mesh on two workers 40.8 -> 38.6 ms with 128). */
static uint32_t band_shift_for(uint32_t w, int32_t height)
{
    uint32_t rows = DRAW_BAND_ROWS_MAX;
    while (rows > DRAW_BAND_ROWS && (uint64_t)rows * 4 * w > (uint64_t)(height > 0 ? height : 0))
        rows /= 2;
    return (uint32_t)__builtin_ctz(rows);
}

typedef struct band_worker {
    draw_state d;                  /* the worker's copy of the draw */
    tv_pipe_ctx ctx;               /* ... and of the context */
    uint64_t fail_at;              /* instance x triangles + triangle that failed, or ~0 */
    uint32_t fail_stripe;          /* ... in the run of this stripe (0 before any run) */
    int rc;
} band_worker;

typedef struct band_job {
    const draw_assembly *a;
    band_worker *w;
} band_job;

/* Worker k: every primitive in order, the rows of stripes k, k + W, ... */
static void band_run(void *user, uint32_t thread, uint64_t k)
{
    (void)thread;
    band_job *job = user;
    band_worker *w = &job->w[k];
    draw_state *d = &w->d;
    const draw_assembly *a = job->a;
    /* the outcome in a local, stored once at the end: written at every primitive, w->rc
       shared a cache line with the head of worker k + 1's draw_state (its hooks read it
       at every warp) whenever calloc's address put them together — bench_draw's mesh on
       two workers took 39–41 ms instead of 35 then */
    int rc = 0;
    for (uint32_t j = 0; j < d->instances && !rc; j++)
        for (size_t t = 0; t < a->ntris && !rc; t++) {
            d->band_stripe = 0;
            rc = draw_primitive(d, j, &a->tris[t], false, false);
            if (rc) {
                w->fail_at = (uint64_t)j * a->ntris + t;
                w->fail_stripe = d->band_stripe;
            }
        }
    /* the quads its batch still holds, as after the last primitive */
    if (!rc && (rc = draw_batch_flush(d)) != 0) {
        w->fail_at = (uint64_t)d->instances * a->ntris;
        w->fail_stripe = d->band_stripe;
    }
    draw_batch_end(d);
    w->rc = rc;
}

int draw_bands(draw_state *d, const draw_assembly *a)
{
    tv_pipe_ctx *ctx = d->ctx;
    uint32_t n = ctx->threads;
    const uint32_t shift = band_shift_for(n, d->height);
    tv_threadpool *pool = pipe_band_pool(ctx, "draw_vbo");
    band_worker *w = pool ? calloc(n, sizeof *w) : NULL;
    if (!pool)
        return -1;
    if (!w)
        return pipe_fail(ctx, "draw_vbo: out of memory");
    for (uint32_t k = 0; k < n; k++) {
        w[k].ctx = *ctx;
        w[k].ctx.vm = pipe_band_vm(ctx, k, "draw_vbo");
        /* not known for that engine: pipe_work_begin gives it its limits */
        w[k].ctx.vm_warp_limit = 0;
        if (!w[k].ctx.vm) {
            free(w);
            return -1;
        }
        /* each worker's share of what is left of the quotas (pipe_work.c) */
        w[k].ctx.total_left = ctx->total_left / n;
        /* primitive numbers k + 1, k + 1 + n, ...: unique among the workers */
        w[k].ctx.tri_gen = ctx->tri_gen + k + 1 - n;
        w[k].d = *d;
        w[k].d.ctx = &w[k].ctx;
        w[k].d.work_left = d->work_left / n;
        w[k].d.frag_parallel = false;   /* one worker per run: the bands are the split */
        w[k].d.band_n = n;
        w[k].d.band_k = k;
        w[k].d.band_shift = shift;
        w[k].d.gen_step = n;
        w[k].fail_at = UINT64_MAX;
    }
    band_job job = {a, w};
    tv_threadpool_run(pool, n, n, band_run, &job);
    /* worker 0 gave the context's engine limits through its copy of the context */
    ctx->vm_warp_limit = w[0].ctx.vm_warp_limit;
    /* merge: counts are sums (each primitive counted by one worker, each pixel shaded by
       one), quotas what the workers left, the first failure in primitive order */
    const band_worker *bad = NULL;
    uint64_t work_left = d->work_left % n, total_left = ctx->total_left % n, most = 0;
    uint64_t stat0[TV_PIPE_STATS], fragments0 = d->fragments, passed0 = d->samples_passed;
    memcpy(stat0, d->stat, sizeof stat0);
    for (uint32_t k = 0; k < n; k++) {
        const draw_state *wd = &w[k].d;
        for (unsigned s = 0; s < TV_PIPE_STATS; s++)
            d->stat[s] += wd->stat[s] - stat0[s];
        d->fragments += wd->fragments - fragments0;
        d->samples_passed += wd->samples_passed - passed0;
        work_left += wd->work_left;
        total_left += w[k].ctx.total_left;
        /* the primitive numbers it used (modulo 2^64, as they were handed out) */
        uint64_t used = (w[k].ctx.tri_gen - (ctx->tri_gen + k + 1 - n)) / n;
        most = used > most ? used : most;
        /* one worker walking them all stops at the first failing primitive, in its first
           failing row of tiles: the lowest stripe failing there */
        if (w[k].rc && (!bad || w[k].fail_at < bad->fail_at ||
                        (w[k].fail_at == bad->fail_at && w[k].fail_stripe < bad->fail_stripe)))
            bad = &w[k];
    }
    d->work_left = work_left;
    if (ctx->total_work)
        ctx->total_left = total_left;
    ctx->tri_gen += most * n;   /* past every number a worker used */
    int rc = 0;
    if (bad) {
        memcpy(ctx->error, bad->ctx.error, sizeof ctx->error);
        rc = -1;
    }
    free(w);
    return rc;
}
