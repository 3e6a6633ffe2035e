/* A draw's triangles on several workers by bands of the target (docs/pipeline-threads.md).
 * The target's rows are cut into stripes (band_shift_for), dealt out to band jobs: stripe
 * s belongs to job s % J, and the W workers take the jobs as they finish the last (J = up
 * to DRAW_BAND_JOBS x W). Every job walks all the draw's primitives in order, sets each
 * triangle up and shades only the rows of its own stripes (draw_triangle: run_fragments),
 * so every pixel sees the triangles that cover it in primitive order, from one job — the
 * bytes are those of one worker walking them all. A job draws through its own copies of
 * the draw state and of the context (error text, primitive numbers for the row memos, work
 * quota) and the engine of the worker running it (worker 0: the context's); the copies are
 * merged after.
 *
 * Why: a draw of many small triangles shades each in a short engine run of its own,
 * which the per-row parallelism of one run (draw_run_fragments) cannot spread; bands
 * spread the triangles instead. More jobs than workers, because the workers' cores need
 * not be equally fast: on this project's VMs one core often runs 1.7x slower than the
 * other for minutes (docs/performance.md §1.1), and stripes fixed per worker then made
 * the fast one wait for the slow one's half. Only where the order of the workers cannot
 * show: no stream output, a fragment shader that touches no memory and samples no
 * attachment (draw_state.frag_parallel), filled, not antialiased triangles only, one
 * viewport. */
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
            draw_tri tmp;
            draw_tri_box(d, j, draw_assembly_prim(a, t, &tmp), box);
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
    if (a->list_k && a->list_k != 3)
        return false;
    for (size_t t = 0; !a->list_k && t < a->ntris; t++)
        if (a->tris[t].n != 3)
            return false;
    return (uint64_t)a->ntris * d->instances >= DRAW_BAND_MIN_PRIMS || large_prims(d, a);
}

/* The stripes' height (its log2) for W workers on a target of HEIGHT rows: four stripes a
 * worker at least (each job one of them, the workers sharing out a part of the target
 * busier than the rest), the tallest such of 32, 64 or 128 rows. Taller stripes cut fewer
 * small triangles, which every job owning one of their rows sets up (with 32 rows a sixth
 * of the mesh scene's: bench_draw's mesh on two workers 40.8 -> 38.6 ms with 128). */
static uint32_t band_shift_for(uint32_t w, int32_t height)
{
    uint32_t rows = DRAW_BAND_ROWS_MAX;
    while (rows > DRAW_BAND_ROWS && (uint64_t)rows * 4 * w > (uint64_t)(height > 0 ? height : 0))
        rows /= 2;
    return (uint32_t)__builtin_ctz(rows);
}

/* Jobs per worker at most: as many as the target has stripes, from W (a job then per
 * worker, as without jobs) to DRAW_BAND_JOBS x W, and 64 in all (a primitive's jobs are
 * the bits of a 64-bit mask, band_masks); W where the draw has no masks. */
#define DRAW_BAND_JOBS 4u
#define DRAW_BAND_MAX_JOBS 64u

/* The jobs' masks are made where the draw has at most this many primitives (8 bytes
 * each); beyond, a job per worker tests every primitive itself (draw_triangle's test). */
#define DRAW_BAND_MASK_PRIMS (1u << 22)

typedef struct band_worker {
    draw_state d;                  /* the job's copy of the draw */
    tv_pipe_ctx ctx;               /* ... and of the context */
    uint64_t fail_at;              /* instance x triangles + triangle that failed, or ~0 */
    uint32_t fail_stripe;          /* ... in the run of this stripe (0 before any run) */
    int rc;
} band_worker;

typedef struct band_job {
    const draw_state *d;           /* the draw (mask_run) */
    const draw_assembly *a;
    band_worker *w;
    uint32_t n, shift;             /* jobs, stripes' height (log2) */
    struct tv_vm *vm[64];          /* the engine of each worker (pipe_band_vm) */
    /* mask[j x ntris + t]: bit k set where job k may own a row of triangle t of instance
       j — the jobs' only test of it (band_masked): a superset would cost a set-up, not
       a pixel, as a job's runs shade its own stripes only (run_fragments); NULL: not
       made, draw_triangle tests each triangle (band_may_cover) */
    uint64_t *mask;
    uint64_t prims;
    bool rows16;                   /* mask_run may take 16 triangles at once (the draw's
                                      AVX-512 kernels, draw_state.avx512) */
} band_job;

/* The mask of a primitive whose rows are R0..R1: a triangle's rows meet stripes
 * R0 >> shift .. R1 >> shift, and stripe s is job draw_band_of_n(n, s): the jobs of
 * those stripes, every job from n stripes on. */
static inline uint64_t rows_mask(const band_job *job, int32_t r0, int32_t r1)
{
    const uint32_t n = job->n;
    const int32_t s0 = r0 >> job->shift, s1 = r1 >> job->shift;
    if (r0 > r1)
        return 0;                                /* no rows: nobody's */
    if (r0 < 0 || s1 - s0 >= (int32_t)n - 1)
        return n == 64 ? ~0ull : (1ull << n) - 1;   /* (rows above the target: not made) */
    uint64_t m = 0;
    for (int32_t st = s0; st <= s1; st++)
        m |= 1ull << draw_band_of_n(n, (uint32_t)st);
    return m;
}

/* The masks of primitives k x 4096 ... (a first run of the pool: draw_tri_rows reads the
 * vertex outputs and the draw's constants only). */
static void mask_run(void *user, uint32_t thread, uint64_t k)
{
    (void)thread;
    band_job *job = user;
    const draw_state *d = job->d;
    const size_t ntris = job->a->ntris;
    const uint64_t end = job->prims < (k + 1) * 4096 ? job->prims : (k + 1) * 4096;
    for (uint64_t p = k * 4096; p < end;) {
        const uint32_t inst = (uint32_t)(p / ntris);
        const size_t t = p % ntris;
#if defined(__GNUC__) && defined(__x86_64__)
        /* sixteen of one instance at once, as draw_tri_rows gives them (draw_tri_rows16) */
        if (job->rows16 && p + 16 <= end && t + 16 <= ntris) {
            int32_t lo[16], hi[16];
            draw_tri_rows16(d, inst, job->a, t, lo, hi);
            for (unsigned l = 0; l < 16; l++)
                job->mask[p + l] = rows_mask(job, lo[l], hi[l]);
            p += 16;
            continue;
        }
#endif
        int32_t rows[2];
        draw_tri tmp;
        draw_tri_rows(d, inst, draw_assembly_prim(job->a, t, &tmp), rows);
        job->mask[p] = rows_mask(job, rows[0], rows[1]);
        p++;
    }
}

/* Job k: every primitive in order, the rows of stripes k, k + J, ... */
static void band_run(void *user, uint32_t thread, uint64_t k)
{
    band_job *job = user;
    band_worker *w = &job->w[k];
    draw_state *d = &w->d;
    const draw_assembly *a = job->a;
    w->ctx.vm = job->vm[thread];
    /* A primitive no stripe of this job's meets, by the masks, is passed over having done
       what draw_primitive does with it (band_masks: one layer, one viewport, triangles):
       its clip invocation counted by job 0 (when the framebuffer has a layer, layer 0),
       the stripe of the run made 0, nothing else */
    const uint64_t *mask = job->mask;
    const uint64_t bit = 1ull << k;
    const bool counts = k == 0 && d->layers > 0;
    /* the outcome in a local, stored once at the end: written at every primitive, w->rc
       shared a cache line with the head of worker k + 1's draw_state (its hooks read it
       at every warp) whenever calloc's address put them together — bench_draw's mesh on
       two workers took 39–41 ms instead of 35 then */
    int rc = 0;
    uint64_t passed = 0;           /* primitives passed over */
    for (uint32_t j = 0; j < d->instances && !rc; j++)
        for (size_t t = 0; t < a->ntris && !rc; t++) {
            d->band_stripe = 0;
            if (mask) {
                /* to the next primitive of this job's in a loop of loads and tests alone
                   (each job walks every mask: with a store or two at each, this loop was
                   2.3 % of bench_draw's mesh process, its one- and two-thread draws) */
                const uint64_t *m = mask + (size_t)j * a->ntris;
                size_t u = t;
                while (u < a->ntris && !(m[u] & bit))
                    u++;
                passed += u - t;
                if ((t = u) == a->ntris)
                    break;
            }
            draw_tri tmp;
            rc = draw_primitive(d, j, draw_assembly_prim(a, t, &tmp), false, false);
            if (rc) {
                w->fail_at = (uint64_t)j * a->ntris + t;
                w->fail_stripe = d->band_stripe;
            }
        }
    d->stat[TV_PIPE_STAT_C_INVOCATIONS] += counts ? passed : 0;
    /* the quads its batch still holds, as after the last primitive */
    if (!rc && (rc = draw_batch_flush(d)) != 0) {
        w->fail_at = (uint64_t)d->instances * a->ntris;
        w->fail_stripe = d->band_stripe;
    }
    draw_batch_end(d);
    w->rc = rc;
}

/* Job K of N: its copies of the draw and of the context. (A function of its own, not the
 * body of draw_bands' loop: GCC 12 distributed that loop, once it held no call, into a
 * loop per field and moved the store of band_shift before the copy of the draw_state it
 * follows — every job had stripes of one row, and set every triangle up.) */
static __attribute__((noinline)) void band_worker_init(band_worker *w, const draw_state *d,
                                                       uint32_t k, uint32_t n, uint32_t shift,
                                                       bool masked)
{
    const tv_pipe_ctx *ctx = d->ctx;
    w->ctx = *ctx;
    /* not known for the engine it runs on: pipe_work_begin gives that its limits */
    w->ctx.vm_warp_limit = 0;
    /* each job's share of what is left of the quotas (pipe_work.c) */
    w->ctx.total_left = ctx->total_left / n;
    /* primitive numbers k + 1, k + 1 + n, ...: unique among the jobs */
    w->ctx.tri_gen = ctx->tri_gen + k + 1 - n;
    w->d = *d;
    w->d.ctx = &w->ctx;
    /* the fragment parameters made again, hooked to this copy (run_prepared) */
    memset(w->d.fp_made_of, 0, sizeof w->d.fp_made_of);
    w->d.work_left = d->work_left / n;
    w->d.frag_parallel = false;   /* one worker per run: the bands are the split */
    w->d.band_n = n;
    w->d.band_k = k;
    w->d.band_shift = shift;
    w->d.gen_step = n;
    w->d.band_masked = masked;
    w->fail_at = UINT64_MAX;
}

/* Whether the draw's masks may be made: not where there are too many primitives, the
 * memory quota has no room, or a primitive may go to another layer (draw_primitive then
 * does more with a primitive than decide it is not the job's) */
static bool band_masks_fit(const draw_state *d, uint64_t prims)
{
    return prims <= DRAW_BAND_MASK_PRIMS && !(d->layer_out >= 0 && d->layers > 1) &&
           pipe_charge_fits(d->ctx, prims * sizeof(uint64_t));
}

/* The jobs' masks of every primitive, in JOB->mask (left NULL where the memory is not
 * there: the jobs then test every primitive themselves) */
static void band_masks(draw_state *d, band_job *job, tv_threadpool *pool, uint32_t threads)
{
    const uint64_t bytes = job->prims * sizeof *job->mask;
    job->mask = malloc(bytes);
    if (!job->mask || draw_charge(d, bytes, "the band masks")) {
        free(job->mask);
        job->mask = NULL;
        return;
    }
    job->rows16 = d->avx512 && d->tri_clip[3] > INT32_MIN;
    tv_threadpool_run(pool, (job->prims + 4095) / 4096, threads, mask_run, job);
}

int draw_bands(draw_state *d, const draw_assembly *a)
{
    tv_pipe_ctx *ctx = d->ctx;
    const uint32_t threads = ctx->threads;
    const uint32_t shift = band_shift_for(threads, d->height);
    const uint64_t prims = (uint64_t)a->ntris * d->instances;
    /* jobs: one per stripe, W to DRAW_BAND_JOBS x W; W where there are no masks (each job
       would walk every primitive through draw_triangle's own row test) */
    const bool masks = band_masks_fit(d, prims);
    const uint64_t stripes = d->height > 0 ? (((uint64_t)d->height - 1) >> shift) + 1 : 1;
    uint64_t cap = masks ? (uint64_t)DRAW_BAND_JOBS * threads : threads;
    cap = cap < DRAW_BAND_MAX_JOBS ? cap : DRAW_BAND_MAX_JOBS;
    const uint32_t n = (uint32_t)(stripes < threads ? threads : stripes > cap ? cap : stripes);
    tv_threadpool *pool = pipe_band_pool(ctx, "draw_vbo");
    if (!pool)
        return -1;
    band_job job = {d, a, NULL, n, shift, {NULL}, NULL, prims, false};
    for (uint32_t k = 0; k < threads; k++)
        if (!(job.vm[k] = pipe_band_vm(ctx, k, "draw_vbo")))
            return -1;
    band_worker *w = calloc(n, sizeof *w);
    if (!w)
        return pipe_fail(ctx, "draw_vbo: out of memory");
    job.w = w;
    /* (before the copies: theirs then hold its charge) */
    if (masks)
        band_masks(d, &job, pool, threads);
    for (uint32_t k = 0; k < n; k++)
        band_worker_init(&w[k], d, k, n, shift, job.mask != NULL);
    tv_threadpool_run(pool, n, threads, band_run, &job);
    free(job.mask);
    /* the context's engine ran some jobs, each giving it its own limits: not known */
    ctx->vm_warp_limit = 0;
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
