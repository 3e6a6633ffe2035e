/* Fragment batches (tv_vm_frag_batch, src/vm/vm_stage_frag_pack.c): a draw's small
 * triangles packed into shared warps must give every pixel the fragments, in primitive
 * order, with the values, that one tv_vm_run_fragment per triangle on the plain
 * interpreter gives. The hooks here are a pipeline's: a coverage rule per triangle (pixel
 * centres inside or on its edges, so triangles sharing an edge both cover pixels on it and
 * the batch must run its pending warp first), and an emit hook that logs each pixel's
 * fragments in the order it gets them and checks that no call holds a pixel twice. The
 * shader reads what is per triangle: perspective, flat and position inputs, FACE, PRIMID,
 * and a derivative (lanes of a quad). Scenes: random overlapping triangles, a grid of
 * triangles sharing edges, large triangles (not packed: run by themselves, in order)
 * among small ones, and a change of hook data between triangles (and, field by field,
 * which changes of the parameters make a batch run its pending warp first); programs whose results
 * depend on the warp's other lanes (run in tiles, never packed), an undeclared input read
 * through ADDR (0, never the side register file's old memory), and a failing add (nothing
 * left pending); under flushed denormals, vertices whose w is a denormal (the triangle's
 * set-up must read it as the jobs do, 0, in a batch and in a run of its own alike). Each
 * scene also through a coverage_quads hook (the box's quads at once) that declines some
 * boxes, so a batch mixes it with row_span and coverage_warp. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "common_tex.h"
#include "helper_vm.h"
#include "vm/vm_stage_frag.h"
#include "vm/vm_stage_frag_store.h"
#include "common_rng.h"

enum { TW = 64, TH = 48, MAXLOG = 8 };

static const char fs_text[] =
    "FRAG\n"
    "DCL IN[0], GENERIC[0], PERSPECTIVE\n"
    "DCL IN[1], GENERIC[1], CONSTANT\n"
    "DCL IN[2], POSITION, LINEAR\n"
    "DCL SV[0], FACE\n"
    "DCL SV[1], PRIM_ID\n"
    "DCL OUT[0], COLOR\n"
    "DCL OUT[1], COLOR[1]\n"
    "DCL TEMP[0]\n"
    "  0: U2F TEMP[0].x, SV[1].xxxx\n"
    "  1: ADD OUT[0].x, IN[0].xxxx, TEMP[0].xxxx\n"
    "  2: MOV OUT[0].y, IN[1].yyyy\n"
    "  3: MOV OUT[0].z, SV[0].xxxx\n"
    "  4: DDX OUT[0].w, IN[0].yyyy\n"
    "  5: MOV OUT[1], IN[2]\n"
    "  6: END\n";

typedef struct tri {
    tv_vm_frag_vertex v[3];
    bool front;
    uint32_t id;
} tri;

/* The hooks' state: the triangle being added, and every pixel's log of fragments. */
typedef struct scene {
    const tri *cur;
    uint32_t count[TH][TW];
    uint32_t log[TH][TW][MAXLOG][8];
    uint64_t calls;
} scene;

static bool covers(const tri *t, int32_t x, int32_t y)
{
    float px = (float)x + 0.5f, py = (float)y + 0.5f, e[3];
    for (unsigned k = 0; k < 3; k++) {
        const tv_vm_frag_vertex *a = &t->v[k], *b = &t->v[(k + 1) % 3];
        e[k] = (b->x - a->x) * (py - a->y) - (b->y - a->y) * (px - a->x);
    }
    return (e[0] >= 0 && e[1] >= 0 && e[2] >= 0) || (e[0] <= 0 && e[1] <= 0 && e[2] <= 0);
}

static uint32_t cov_hook(void *user, int32_t x, int32_t y)
{
    const scene *s = user;
    return covers(s->cur, x, y) ? 1u : 0u;
}

static void cov_warp_hook(void *user, const int32_t x[32], const int32_t y[32], uint32_t inside,
                          uint32_t cov[32])
{
    for (unsigned l = 0; l < 32; l++)
        if ((inside >> l) & 1u)
            cov[l] = cov_hook(user, x[l], y[l]);
}

/* coverage_quads: the box's quads with a covered lane in row order, or -1 (declined, the
 * engine takes row_span and coverage_warp) for every third box and those past 4x4 quads,
 * so that a batch mixes both ways */
static uint64_t quads_served;
/* cov_quads_hook serves every box of TV_VM_COVERAGE_QUADS_MAX quads or fewer */
static bool quads_always;
/* bits cov_quads_hook adds to every lane's coverage word: samples the draw does not have,
   which no lane may take as covered. Where set, the draw has four samples, a covered
   pixel covers some of samples 1 and 2 too, and the lanes of the hook's quads outside the
   box cover samples 0 and 1 (the packer keeps to the box). */
static uint32_t cov_extra;

static int cov_quads_hook(void *user, const int32_t box[4], int32_t *qx, int32_t *qy,
                          uint32_t *cov)
{
    const int32_t qx0 = box[0] / 2, qy0 = box[1] / 2;
    const int32_t qw = (box[2] + 1) / 2 - qx0, qh = (box[3] + 1) / 2 - qy0;
    if (qw * qh > TV_VM_COVERAGE_QUADS_MAX ||
        (!quads_always && (qw > 4 || (box[0] + box[1]) % 3 == 0)))
        return -1;
    int n = 0;
    for (int32_t ry = 0; ry < qh; ry++)
        for (int32_t rx = 0; rx < qw; rx++) {
            uint32_t c[4], any = 0;
            for (unsigned j = 0; j < 4; j++) {
                int32_t x = 2 * (qx0 + rx) + (int32_t)(j & 1);
                int32_t y = 2 * (qy0 + ry) + (int32_t)(j >> 1);
                bool in = x >= box[0] && x < box[2] && y >= box[1] && y < box[3];
                c[j] = in ? cov_hook(user, x, y) : cov_extra ? 3u : 0u;
                if (cov_extra && in && c[j])   /* some of the other samples too */
                    c[j] |= (uint32_t)(x * 7 + y * 3) & 6u;
                c[j] |= cov_extra;
                any |= c[j];
            }
            if (!any)
                continue;
            qx[n] = 2 * (qx0 + rx);
            qy[n] = 2 * (qy0 + ry);
            memcpy(&cov[4 * n], c, sizeof c);
            n++;
        }
    quads_served++;
    return n;
}

/* coverage_quads covering every lane of the box's aligned quads, those outside the box
 * too (their coverage should be 0): the engine keeps to the box all the same */
static int whole_quads_hook(void *user, const int32_t box[4], int32_t *qx, int32_t *qy,
                            uint32_t *cov)
{
    (void)user;
    int n = 0;
    for (int32_t y = box[1] & ~1; y < box[3]; y += 2)
        for (int32_t x = box[0] & ~1; x < box[2]; x += 2) {
            qx[n] = x;
            qy[n] = y;
            for (unsigned j = 0; j < 4; j++)
                cov[4 * n + j] = 1;
            n++;
        }
    return n;
}

/* coverage_quads breaking its contract, one way per MODE: more quads than allowed, a quad
 * off the even grid, one outside the box, two out of row order */
static int bad_quads_mode;

static int bad_quads_hook(void *user, const int32_t box[4], int32_t *qx, int32_t *qy,
                          uint32_t *cov)
{
    (void)user;
    const int32_t x = box[0] & ~1, y = box[1] & ~1;
    for (int i = 0; i < 4 * TV_VM_COVERAGE_QUADS_MAX; i++)
        cov[i] = 1;
    qx[0] = qx[1] = x;
    qy[0] = y;
    qy[1] = y + 2;
    switch (bad_quads_mode) {
    case 0: return TV_VM_COVERAGE_QUADS_MAX + 1;
    case 1: qx[1] = x + 1; return 2;
    case 2: qy[1] = box[3] + 2; return 2;
    default: qy[1] = y; return 2;
    }
}

static void log_fragment(scene *s, int32_t x, int32_t y, const uint32_t c0[4],
                         const uint32_t c1[4])
{
    assert_true(x >= 0 && x < TW && y >= 0 && y < TH);
    uint32_t n = s->count[y][x]++;
    if (n < MAXLOG) {
        memcpy(s->log[y][x][n], c0, 16);
        memcpy(s->log[y][x][n] + 4, c1, 16);
    }
}

static void emit_hook(void *user, const tv_vm_frag_output *o)
{
    scene *s = user;
    s->calls++;
    log_fragment(s, o->x, o->y, o->color[0], o->color[1]);
}

/* emit_warp calls whose lanes were covered pixels, not quads (tv_vm_frag_warp_output) */
static uint64_t pixel_calls;

/* Where set, emit_warp_hook appends each call's layout: `pixels`, the live lanes, and
 * each live lane's pixel and coverage in lane order (LAYOUT_MAX words at most; layout_n
 * counts all). */
enum { LAYOUT_MAX = 1u << 20 };
static uint32_t *layout;
static size_t layout_n;

static void log_layout(uint32_t v)
{
    if (layout_n < LAYOUT_MAX)
        layout[layout_n] = v;
    layout_n++;
}

static void emit_warp_hook(void *user, const tv_vm_frag_warp_output *w)
{
    scene *s = user;
    s->calls++;
    pixel_calls += w->pixels;
    if (layout) {
        log_layout(w->pixels);
        log_layout(w->live);
        for (uint32_t m = w->live; m; m &= m - 1) {
            const unsigned l = (unsigned)__builtin_ctz(m);
            log_layout((uint32_t)w->y[l] << 16 | (uint32_t)w->x[l]);
            log_layout(w->coverage[l]);
        }
    }
    /* the layout the output promises: without `pixels`, each quad with a live lane is a
       2x2 quad (TL, TR, BL, BR) */
    for (unsigned q = 0; q < 32 && !w->pixels; q += 4)
        if ((w->live >> q) & 0xfu)
            for (unsigned j = 1; j < 4; j++)
                if (w->x[q + j] != w->x[q] + (int32_t)(j & 1) ||
                    w->y[q + j] != w->y[q] + (int32_t)(j >> 1))
                    fail_msg("lanes %u-%u are not a quad", q, q + 3);
    for (uint32_t m = w->live; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        for (uint32_t k = m & (m - 1); k; k &= k - 1) {
            unsigned j = (unsigned)__builtin_ctz(k);
            if (w->x[j] == w->x[l] && w->y[j] == w->y[l])
                fail_msg("one emit call holds pixel (%d,%d) twice (lanes %u, %u)", w->x[l],
                         w->y[l], l, j);
        }
        tv_vm_frag_output o;
        memset(&o, 0, sizeof o);
        tv_vm_frag_warp_lane(w, l, &o);
        log_fragment(s, o.x, o.y, o.color[0], o.color[1]);
    }
}

static float unit(uint32_t *s)
{
    return (float)(tc_rng_next(s) & 0xffffff) / (float)0x1000000;
}

static void make_vertex(tv_vm_frag_vertex *v, float x, float y, uint32_t *seed)
{
    memset(v, 0, sizeof *v);
    v->x = x;
    v->y = y;
    v->z = unit(seed);
    v->w = 0.5f + unit(seed) * 1.5f;
    for (unsigned r = 0; r < 3; r++)
        for (unsigned c = 0; c < 4; c++)
            v->attr[r][c] = tv_f32_bits(unit(seed) * 8.0f - 4.0f);
}

/* Scenes: 0 random small triangles (a few with a bounding box too large to pack), 1 a
 * grid of cells split into two triangles each, 2 scene 0 with a denormal w at one vertex
 * of every third triangle (5e-39: its reciprocal is a finite float, 0 is not), 3 scene 0
 * with NaNs: an attribute channel at one vertex of every fifth triangle, the depth of one
 * vertex of every seventh (such triangles take the reference's formulas; in a batch their
 * groups share warps with the others'), 4 triangles of seven and three pixels a side
 * piled on 24x16 pixels, 5 triangles of one pixel each, twenty on different quads of a
 * row, then the same twenty pixels in the reverse order (the first meets the pixel of a
 * warp's twentieth quad). */
static unsigned make_scene(unsigned kind, tri *t, unsigned max)
{
    uint32_t seed = 0x2545f491u + (kind == 2 || kind == 3 ? 0 : kind);
    unsigned n = 0;
    if (kind == 3) {
        n = make_scene(0, t, max);
        for (unsigned i = 0; i < n; i++) {
            if (i % 5 == 1)
                t[i].v[i % 3].attr[(i / 5) % 3][(i / 15) % 4] = 0x7fc00001u + i;
            if (i % 7 == 3)
                t[i].v[(i + 1) % 3].z = NAN;
        }
        return n;
    }
    if (kind == 2) {
        n = make_scene(0, t, max);
        for (unsigned i = 0; i < n; i += 3)
            t[i].v[i % 3].w = 5e-39f;
        return n;
    }
    if (kind == 5) {
        for (; n < max; n++) {
            const unsigned k = n % 40, row = (n / 40) % (TH / 2);
            const unsigned col = k < 20 ? k : 39 - k;
            const float px = (float)(2 * col + (row & 1)), py = (float)(2 * row);
            static const float d[3][2] = {{0.2f, 0.2f}, {0.9f, 0.3f}, {0.4f, 0.9f}};
            for (unsigned v = 0; v < 3; v++)
                make_vertex(&t[n].v[v], px + d[v][0], py + d[v][1], &seed);
            t[n].front = true;
            t[n].id = n;
        }
        return n;
    }
    if (kind == 0 || kind == 4) {
        for (; n < max; n++) {
            /* some too large to pack; kind 4: all small enough for coverage_quads (a box
               of 4x4 quads at most) */
            float size = kind == 4 ? (n & 1 ? 7.0f : 3.0f) : n % 37 == 5 ? 40.0f : 9.0f;
            /* (kind 4 within 24x16 pixels: each covered nine times or so) */
            float cx = kind == 4 ? 8 + unit(&seed) * 24 : unit(&seed) * (TW + 8) - 4;
            float cy = kind == 4 ? 8 + unit(&seed) * 16 : unit(&seed) * (TH + 8) - 4;
            for (unsigned k = 0; k < 3; k++)
                make_vertex(&t[n].v[k], cx + (unit(&seed) - 0.5f) * size,
                            cy + (unit(&seed) - 0.5f) * size, &seed);
            t[n].front = (tc_rng_next(&seed) & 1) != 0;
            t[n].id = n;
        }
        return n;
    }
    const unsigned gx = 24, gy = 16;
    for (unsigned j = 0; j < gy && n + 2 <= max; j++)
        for (unsigned i = 0; i < gx && n + 2 <= max; i++) {
            float x0 = (float)i * TW / gx, x1 = (float)(i + 1) * TW / gx;
            float y0 = (float)j * TH / gy, y1 = (float)(j + 1) * TH / gy;
            const float corner[6][2] = {{x0, y0}, {x1, y0}, {x0, y1},
                                        {x0, y1}, {x1, y0}, {x1, y1}};
            for (unsigned h = 0; h < 2; h++, n++) {
                for (unsigned k = 0; k < 3; k++)
                    make_vertex(&t[n].v[k], corner[3 * h + k][0], corner[3 * h + k][1], &seed);
                t[n].front = true;
                t[n].id = n;
            }
        }
    return n;
}

/* params_of gives the coverage_quads hook too */
static bool with_quads;
/* params_of's flatshade: every other triangle (by id) flat-shaded */
static bool flat_odd;

static void params_of(const tri *t, scene *s, tv_vm_frag_params *fp)
{
    memset(fp, 0, sizeof *fp);
    fp->width = TW;
    fp->height = TH;
    fp->samples = cov_extra ? 4 : 1;
    fp->prim = TV_VM_PRIM_TRIANGLE;
    memcpy(fp->vertices, t->v, sizeof t->v);
    fp->front_face = t->front;
    fp->primitive_id = t->id;
    fp->flatshade = flat_odd && (t->id & 1);
    /* the triangle's box, as a pipeline's rasteriser gives it */
    float x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY;
    for (unsigned k = 0; k < 3; k++) {
        x0 = fminf(x0, t->v[k].x);
        y0 = fminf(y0, t->v[k].y);
        x1 = fmaxf(x1, t->v[k].x);
        y1 = fmaxf(y1, t->v[k].y);
    }
    int32_t bx0 = (int32_t)floorf(x0), by0 = (int32_t)floorf(y0);
    int32_t bx1 = (int32_t)ceilf(x1) + 1, by1 = (int32_t)ceilf(y1) + 1;
    fp->scissor[0] = bx0 < 0 ? 0 : (uint32_t)bx0;
    fp->scissor[1] = by0 < 0 ? 0 : (uint32_t)by0;
    fp->scissor[2] = bx1 > TW ? TW : bx1 < 1 ? 1 : (uint32_t)bx1;
    fp->scissor[3] = by1 > TH ? TH : by1 < 1 ? 1 : (uint32_t)by1;
    fp->coverage = cov_hook;
    fp->coverage_warp = cov_warp_hook;
    if (with_quads)
        fp->coverage_quads = cov_quads_hook;
    fp->emit = emit_hook;
    fp->emit_warp = emit_warp_hook;
    fp->hook_user = s;
}

/* Batches on compiled code too (vm_frag_zero_regs clears a warp for the way it runs),
 * where the build has the JIT. */
static bool compiled;
/* tv_vm_config.flush_denormals of the engines draw() makes */
static bool flushed;
/* the widest kernels (vm_frag_store_limit_isa) of the engines draw() makes */
static unsigned store_cap = VM_STORE_AVX512;

static tv_vm *engine(bool plain)
{
    tv_vm_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.plain = plain;
    cfg.flush_denormals = flushed;
    cfg.jit = compiled && !plain ? TV_VM_JIT_ALWAYS : TV_VM_JIT_OFF;
    tv_error err;
    tv_vm *vm = tv_vm_create(&cfg, &err);
    if (!vm)
        fail_msg("tv_vm_create: %s", err.message);
    vm_frag_store_limit_isa(vm, store_cap);
    return vm;
}

/* The program draw() runs (fs_text but in test_warp_wide_in_tiles). */
static const char *fs_now = fs_text;
/* The groups draw()'s batches deferred to their warp's one pass (vm_stage_frag_defer.h) */
static uint64_t deferred_groups;
/* The warps draw()'s batches ran packed from pixels (vm_frag_batch_pixel_warps) */
static uint64_t pixel_warps;
/* The bindings draw() runs the program under (a texture unit; NULL: none) */
static const tv_vm_bindings *binds_now;

/* The scene's triangles one run each (BATCH false) or through a batch, into S (two
 * scenes when SPLIT: the hooks' user data changes halfway); the warps run. */
static uint64_t draw(bool plain, bool batch, const tri *t, unsigned n, scene *s, scene *s2)
{
    tv_vm *vm = engine(plain);
    tv_vm_program *p = hv_program(vm, fs_now);
    tv_error err;
    memset(&err, 0, sizeof err);
    tv_vm_frag_batch *B = batch ? tv_vm_frag_batch_begin(vm, p, binds_now, &err) : NULL;
    if (batch && !B)
        fail_msg("tv_vm_frag_batch_begin: %s", err.message);
    uint64_t warps = 0, lanes = 0;
    for (unsigned i = 0; i < n; i++) {
        scene *u = s2 && i >= n / 2 ? s2 : s;
        u->cur = &t[i];
        tv_vm_frag_params fp;
        params_of(&t[i], u, &fp);
        tv_vm_stats st;
        tv_status rc = batch ? tv_vm_frag_batch_add(B, &fp, &st, &err)
                             : tv_vm_run_fragment(vm, p, binds_now, &fp, &st, &err);
        if (rc != TV_OK)
            fail_msg("triangle %u: %s", i, err.message);
        warps += st.warps;
        lanes += st.invocations;
    }
    if (batch) {
        tv_vm_stats st;
        if (tv_vm_frag_batch_flush(B, &st, &err) != TV_OK)
            fail_msg("flush: %s", err.message);
        warps += st.warps;
        lanes += st.invocations;
        /* a second flush has nothing to run */
        assert_int_equal(tv_vm_frag_batch_flush(B, &st, &err), TV_OK);
        assert_int_equal(st.warps, 0);
        deferred_groups += vm_frag_batch_deferred(B);
        pixel_warps += vm_frag_batch_pixel_warps(B);
        tv_vm_frag_batch_end(B);
    }
    uint64_t logged = 0;
    for (unsigned y = 0; y < TH; y++)
        for (unsigned x = 0; x < TW; x++)
            logged += s->count[y][x] + (s2 ? s2->count[y][x] : 0);
    assert_int_equal(lanes, logged);   /* every shaded lane emitted once */
    tv_vm_program_destroy(p);
    tv_vm_destroy(vm);
    return warps;
}

static void same_logs(const scene *a, const scene *b, const char *what)
{
    for (unsigned y = 0; y < TH; y++)
        for (unsigned x = 0; x < TW; x++) {
            if (a->count[y][x] != b->count[y][x])
                fail_msg("%s: pixel (%u,%u): %u fragments, %u expected", what, x, y,
                         b->count[y][x], a->count[y][x]);
            unsigned n = a->count[y][x] < MAXLOG ? a->count[y][x] : MAXLOG;
            for (unsigned k = 0; k < n; k++)
                if (memcmp(a->log[y][x][k], b->log[y][x][k], sizeof a->log[y][x][k]))
                    fail_msg("%s: pixel (%u,%u), fragment %u: %08x %08x %08x %08x, "
                             "expected %08x %08x %08x %08x", what, x, y, k,
                             b->log[y][x][k][0], b->log[y][x][k][1], b->log[y][x][k][2],
                             b->log[y][x][k][3], a->log[y][x][k][0], a->log[y][x][k][1],
                             a->log[y][x][k][2], a->log[y][x][k][3]);
        }
}

/* The warps check_scene's batch ran (its first, coverage_warp only) */
static uint64_t batch_warps;

static void check_scene(unsigned kind, unsigned max)
{
    tri *t = malloc(max * sizeof *t);
    scene *ref = calloc(1, sizeof *ref), *one = calloc(1, sizeof *one),
          *bat = calloc(1, sizeof *bat);
    assert_true(t && ref && one && bat);
    unsigned n = make_scene(kind, t, max);
    draw(true, false, t, n, ref, NULL);
    uint64_t per_tri = draw(false, false, t, n, one, NULL);
    uint64_t batched = draw(false, true, t, n, bat, NULL);
    batch_warps = batched;
    same_logs(ref, one, "one run per triangle");
    same_logs(ref, bat, "batch");
    /* the whole box's quads from coverage_quads (declined for some boxes): the same */
    scene *quads = calloc(1, sizeof *quads);
    assert_non_null(quads);
    with_quads = true;
    quads_served = 0;
    draw(false, true, t, n, quads, NULL);
    with_quads = false;
    same_logs(ref, quads, "batch, coverage_quads");
    assert_true(quads_served > n / 3);
    free(quads);
    if (tv_vm_jit_available()) {
        scene *jit = calloc(1, sizeof *jit);
        assert_non_null(jit);
        compiled = true;
        draw(false, true, t, n, jit, NULL);
        compiled = false;
        same_logs(ref, jit, "batch, compiled");
        free(jit);
    }
    /* the point of it: fewer warps than one packed run per triangle */
    if (batched * 10 > per_tri * 7)
        fail_msg("batch ran %llu warps, one run per triangle %llu",
                 (unsigned long long)batched, (unsigned long long)per_tri);
    /* what the scene tests: pixels covered twice (the pending warp runs first), quads
       shared by triangles that cover different pixels of them (one warp holds both) */
    uint64_t overlapped = 0, shared = 0;
    for (unsigned y = 0; y < TH; y++)
        for (unsigned x = 0; x < TW; x++)
            overlapped += ref->count[y][x] > 1;
    for (unsigned qy = 0; qy < TH / 2; qy++)
        for (unsigned qx = 0; qx < TW / 2; qx++) {
            unsigned by = 0;
            for (unsigned i = 0; i < n; i++)
                by += covers(&t[i], 2 * qx, 2 * qy) || covers(&t[i], 2 * qx + 1, 2 * qy) ||
                      covers(&t[i], 2 * qx, 2 * qy + 1) || covers(&t[i], 2 * qx + 1, 2 * qy + 1);
            shared += by > 1;
        }
    assert_true(kind != 1 ? overlapped > 100 : shared > 100);
    free(t);
    free(ref);
    free(one);
    free(bat);
}

static void test_random_overlapping(void **state)
{
    (void)state;
    check_scene(0, 600);
}

static void test_grid_shared_edges(void **state)
{
    (void)state;
    check_scene(1, 768);
}

/* Denormal w under flushed denormals: the set-up's 1/w is that of w = 0 (1) in every way
 * of running, as the jobs read the denormal (a run of its own once took 1/w unflushed). */
static void test_denormal_w_flushed(void **state)
{
    (void)state;
    flushed = true;
    check_scene(2, 600);
    flushed = false;
}

/* A program whose inputs wait for their warp's one pass in a batch (perspective, linear
 * and COLOR inputs, no system value; vm_stage_frag_defer.c): every way of running gives
 * the plain interpreter's fragments, with the derivatives across a quad, under flushed
 * denormals, and with triangles whose NaNs make their groups take the reference's way in
 * the same warps; on a CPU with AVX-512 or AVX2 the groups did wait — with each kernel
 * the CPU has (the tile stores capped at avx2 for the AVX2 one), and with neither (capped
 * at sse2) none did. */
static const char fs_defer[] =
    "FRAG\n"
    "DCL IN[0], GENERIC[0], PERSPECTIVE\n"
    "DCL IN[1], GENERIC[1], LINEAR\n"
    "DCL IN[2], COLOR[0], COLOR\n"
    "DCL OUT[0], COLOR\n"
    "DCL OUT[1], COLOR[1]\n"
    "  0: MOV OUT[0].xyz, IN[0].xyzz\n"
    "  1: ADD OUT[0].w, IN[1].xxxx, IN[2].wwww\n"
    "  2: DDX OUT[1].x, IN[0].wwww\n"
    "  3: DDY OUT[1].y, IN[1].yyyy\n"
    "  4: MOV OUT[1].zw, IN[2].xxxy\n"
    "  5: END\n";

static void test_deferred_inputs(void **state)
{
    (void)state;
    fs_now = fs_defer;
    static const unsigned caps[3] = {VM_STORE_AVX512, VM_STORE_AVX2, VM_STORE_SSE2};
    static const unsigned kinds[4] = {0, 1, 2, 3}, counts[4] = {600, 768, 600, 600};
    for (unsigned c = 0; c < 3; c++) {
        store_cap = caps[c];
        const unsigned isa = vm_frag_store_isa() < caps[c] ? vm_frag_store_isa() : caps[c];
        const bool waits = isa >= VM_STORE_AVX2;
        for (unsigned k = 0; k < 4; k++) {
            flushed = kinds[k] == 2;
            deferred_groups = 0;
            check_scene(kinds[k], counts[k]);
            if (waits ? deferred_groups < counts[k] : deferred_groups != 0)
                fail_msg("cap %u, scene %u: %llu groups deferred", caps[c], kinds[k],
                         (unsigned long long)deferred_groups);
        }
    }
    store_cap = VM_STORE_AVX512;
    flushed = false;
    fs_now = fs_text;
}

/* flatshade, which a batch's primitives need not share, changing from one triangle to the
 * next: a COLOR input flat (the provoking vertex's value) in every other triangle and
 * interpolated in the rest, in the same warps, as one run per triangle on the plain
 * interpreter gives it. (The set-up a batch keeps between adds, vm_frag_run_setup_shared,
 * depends on it through in_by_pass, which only tile jobs read: a batch that ignored the
 * change would still pass here. The batch redoes that set-up anyway, so that its run's
 * state is vm_frag_run_setup's.) */
static void test_flatshade_between_adds(void **state)
{
    (void)state;
    fs_now = fs_defer;
    flat_odd = true;
    check_scene(0, 600);
    check_scene(1, 768);
    flat_odd = false;
    fs_now = fs_text;
}

/* Programs whose results need no derivative (fs_text and fs_defer without DDX and DDY):
 * a batch packs their covered pixels, not quads (vm_stage_frag_pack.c, pixels_ok), and
 * every way of running still gives the plain interpreter's fragments, in every scene,
 * inputs computed at once or deferred; the batch runs fewer warps than with the
 * derivative, which keeps the quads (and no warp of those is packed from pixels). */
static const char fs_pixels[] =
    "FRAG\n"
    "DCL IN[0], GENERIC[0], PERSPECTIVE\n"
    "DCL IN[1], GENERIC[1], CONSTANT\n"
    "DCL IN[2], POSITION, LINEAR\n"
    "DCL SV[0], FACE\n"
    "DCL SV[1], PRIM_ID\n"
    "DCL OUT[0], COLOR\n"
    "DCL OUT[1], COLOR[1]\n"
    "DCL TEMP[0]\n"
    "  0: U2F TEMP[0].x, SV[1].xxxx\n"
    "  1: ADD OUT[0].x, IN[0].xxxx, TEMP[0].xxxx\n"
    "  2: MOV OUT[0].y, IN[1].yyyy\n"
    "  3: MOV OUT[0].z, SV[0].xxxx\n"
    "  4: MUL OUT[0].w, IN[0].yyyy, IN[2].xxxx\n"
    "  5: MOV OUT[1], IN[2]\n"
    "  6: END\n";

static const char fs_defer_pixels[] =
    "FRAG\n"
    "DCL IN[0], GENERIC[0], PERSPECTIVE\n"
    "DCL IN[1], GENERIC[1], LINEAR\n"
    "DCL IN[2], COLOR[0], COLOR\n"
    "DCL OUT[0], COLOR\n"
    "DCL OUT[1], COLOR[1]\n"
    "  0: MOV OUT[0].xyz, IN[0].xyzz\n"
    "  1: ADD OUT[0].w, IN[1].xxxx, IN[2].wwww\n"
    "  2: MOV OUT[1].xy, IN[0].wyww\n"
    "  3: MOV OUT[1].zw, IN[2].xxxy\n"
    "  4: END\n";

static void test_pixels_without_derivatives(void **state)
{
    (void)state;
    static const unsigned counts[4] = {600, 768, 600, 600};
    for (unsigned k = 0; k < 4; k++) {
        flushed = k == 2;
        fs_now = k == 1 ? fs_text : fs_defer;
        pixel_warps = pixel_calls = 0;
        check_scene(k, counts[k]);
        const uint64_t quad_warps = batch_warps;
        assert_int_equal(pixel_warps, 0);
        assert_int_equal(pixel_calls, 0);
        fs_now = k == 1 ? fs_pixels : fs_defer_pixels;
        check_scene(k, counts[k]);
        if (pixel_warps == 0 || pixel_calls == 0 || batch_warps * 10 > quad_warps * 8)
            fail_msg("scene %u: %llu warps from pixels (%llu emit calls), %llu warps in all, "
                     "%llu with quads", k, (unsigned long long)pixel_warps,
                     (unsigned long long)pixel_calls, (unsigned long long)batch_warps,
                     (unsigned long long)quad_warps);
    }
    flushed = false;
    fs_now = fs_text;
}

/* The pixels of a coverage_quads answer are placed four quads at a time on AVX-512
 * (pack_box_pixels_avx512) and quad by quad elsewhere (pack_quad): both must give the
 * same warps — every emit call's live lanes holding the same pixels in the same lanes —
 * and the plain interpreter's fragments, in every scene (coverage_quads serving every box
 * it can, and small overlapping triangles that it serves all of); with coverage words carrying
 * samples the draw does not have, which no lane may take. The scenes must fill warps in
 * the middle of a triangle's quads (a quad's pixels in two warps) and run pending warps
 * early (a covered pixel pending). */
static void test_pixel_placement_isas(void **state)
{
    (void)state;
    const bool avx512 = vm_frag_store_isa() == VM_STORE_AVX512;
    uint32_t *logs[2];
    size_t counts[2];
    uint64_t split = 0, early = 0;
    quads_always = true;
    for (unsigned kind = 0; kind < 6; kind++)
        for (unsigned extra = 0; extra < 2; extra++) {
            tri *t = malloc(600 * sizeof *t);
            scene *ref = calloc(1, sizeof *ref);
            assert_true(t && ref);
            const unsigned n = make_scene(kind, t, 600);
            flushed = kind == 2;
            fs_now = fs_pixels;
            cov_extra = extra ? 0x30u : 0u;
            draw(true, false, t, n, ref, NULL);
            with_quads = true;
            for (unsigned v = 0; v < 2; v++) {
                scene *s = calloc(1, sizeof *s);
                logs[v] = layout = malloc(LAYOUT_MAX * sizeof *layout);
                assert_true(s && layout);
                layout_n = 0;
                store_cap = v ? VM_STORE_AVX512 : VM_STORE_AVX2;
                pixel_warps = 0;
                draw(false, true, t, n, s, NULL);
                assert_true(layout_n <= LAYOUT_MAX && pixel_warps > 0);
                counts[v] = layout_n;
                same_logs(ref, s, v ? "pixels placed with AVX-512" : "pixels placed by quads");
                free(s);
            }
            layout = NULL;
            store_cap = VM_STORE_AVX512;
            with_quads = false;
            cov_extra = 0;
            if (avx512 && (counts[0] != counts[1] ||
                           memcmp(logs[0], logs[1], counts[0] * sizeof *logs[0])))
                fail_msg("scene %u%s: the warps differ (%zu and %zu words)", kind,
                         extra ? " (extra coverage bits)" : "", counts[0], counts[1]);
            /* what the scene exercised: a full warp's last pixel and the next warp's first
               in one quad (the same primitive's: its emit calls follow), and warps run
               with lanes to spare before the flush */
            for (size_t k = 0; k < counts[0];) {
                const uint32_t live = logs[0][k + 1];
                const unsigned nl = (unsigned)__builtin_popcount(live);
                const size_t next = k + 2 + 2 * (size_t)nl;
                if (live == 0xffffffffu && next + 2 < counts[0] && logs[0][next + 1]) {
                    const uint32_t a = logs[0][k + 2 + 2 * 31], b = logs[0][next + 2];
                    split += (a & 0xfffefffeu) == (b & 0xfffefffeu);
                }
                early += nl < 32 && next < counts[0];
                k = next;
            }
            free(logs[0]);
            free(logs[1]);
            free(ref);
            free(t);
        }
    quads_always = false;
    flushed = false;
    fs_now = fs_text;
    if (split < 50 || early < 50)
        fail_msg("quads split between warps %llu, warps run early %llu",
                 (unsigned long long)split, (unsigned long long)early);
}

/* Textures: TEX and TXB (bias from IN[1].w) through SAMP[0] of a 16x16 RGBA32F texture
 * of five levels of different random texels. A sampler whose values need no LOD
 * (tv_tex_lod_free: the mip filter NONE, one filter) lets the batch pack pixels; one whose
 * levels or anisotropic probes follow the derivatives keeps the quads — where pixels
 * packed instead, the lanes' neighbours would be other pixels and the plain
 * interpreter's values would not come out. */
static const char fs_tex[] =
    "FRAG\n"
    "DCL IN[0], GENERIC[0], PERSPECTIVE\n"
    "DCL IN[1], GENERIC[1], LINEAR\n"
    "DCL OUT[0], COLOR\n"
    "DCL OUT[1], COLOR[1]\n"
    "DCL SAMP[0]\n"
    "DCL SVIEW[0], 2D, FLOAT\n"
    "  0: TEX OUT[0], IN[0], SAMP[0], 2D\n"
    "  1: TXB OUT[1], IN[1], SAMP[0], 2D\n"
    "  2: END\n";

enum { TEX_BASE = 0x10000, TEX_SIZE = 1 << 20, TEX_HDR = TEX_BASE, TEX_SMP = TEX_BASE + 256,
       TEX_DATA = TEX_BASE + 4096 };

static void test_pixels_lod_free_textures(void **state)
{
    (void)state;
    uint8_t *host;
    tv_memory *mem;
    tv_tex_unit *tu;
    tc_tex_open(TEX_BASE, TEX_SIZE, &host, &mem, &tu);
    tv_tex_set_header_pool(tu, TEX_HDR, 3);
    tv_tex_set_sampler_pool(tu, TEX_SMP, 3);
    const tv_format f = tv_format_from_name("R32G32B32A32_FLOAT");
    tv_tic tic;
    tc_tic_blocklinear(&tic, f, TV_TEX_2D, 16, 16, 1, 5);
    tic.address = TEX_DATA;
    uint32_t raw[8];
    tv_tic_encode(&tic, raw);
    assert_true(tv_memory_write(mem, TEX_HDR, raw, sizeof raw));
    uint32_t seed = 0x7e57ab1eu;
    for (unsigned L = 0; L < 5; L++)
        for (unsigned y = 0; y < (16u >> L); y++)
            for (unsigned x = 0; x < (16u >> L); x++) {
                uint32_t v[4];
                uint8_t texel[16];
                for (unsigned c = 0; c < 4; c++)
                    v[c] = tv_f32_bits(unit(&seed));
                assert_true(tv_format_pack(f, v, texel));
                assert_true(tv_memory_write(mem, tv_tic_texel_address(&tic, L, x, y, 0, 0),
                                            texel, sizeof texel));
            }
    tv_vm_bindings b;
    tv_vm_bindings_init(&b);
    b.tex = tu;
    binds_now = &b;
    fs_now = fs_tex;
    static const struct {
        uint8_t mag, min, mip, aniso;
        bool pixels;
    } samplers[4] = {
        {TV_MAG_LINEAR, TV_MIN_LINEAR, TV_MIP_NONE, 0, true},
        {TV_MAG_POINT, TV_MIN_POINT, TV_MIP_NONE, 0, true},
        {TV_MAG_LINEAR, TV_MIN_LINEAR, TV_MIP_LINEAR, 0, false},
        {TV_MAG_LINEAR, TV_MIN_LINEAR, TV_MIP_NONE, 7, false},
    };
    for (unsigned k = 0; k < 4; k++) {
        tv_tsc s;
        memset(&s, 0, sizeof s);
        s.mag_filter = samplers[k].mag;
        s.min_filter = samplers[k].min;
        s.mip_filter = samplers[k].mip;
        s.max_anisotropy = samplers[k].aniso;
        s.max_lod_clamp = 0xfff;
        tv_tsc_encode(&s, raw);
        assert_true(tv_memory_write(mem, TEX_SMP, raw, sizeof raw));
        tv_tex_invalidate(tu);
        pixel_warps = 0;
        check_scene(0, 600);
        if ((pixel_warps != 0) != samplers[k].pixels)
            fail_msg("sampler %u: %llu warps packed from pixels", k,
                     (unsigned long long)pixel_warps);
    }
    binds_now = NULL;
    fs_now = fs_text;
    tc_tex_close(host, mem, tu);
}

/* A texturing program under no bindings (NULL: the engine's empty ones, no texture unit):
 * the batch starts, packs no pixels (nothing can say its samplings are LOD-free), and
 * the texture opcodes fault at the add, as in a run of its own. */
static void test_pixels_without_bindings(void **state)
{
    (void)state;
    tv_vm *vm = engine(false);
    tv_vm_program *p = hv_program(vm, fs_tex);
    tv_error err;
    memset(&err, 0, sizeof err);
    tv_vm_frag_batch *B = tv_vm_frag_batch_begin(vm, p, NULL, &err);
    assert_non_null(B);
    tri t[8];
    const unsigned n = make_scene(0, t, 8);
    scene *s = calloc(1, sizeof *s);
    assert_non_null(s);
    s->cur = &t[0];
    tv_vm_frag_params fp;
    params_of(&t[0], s, &fp);
    tv_vm_stats st;
    const tv_status one = tv_vm_run_fragment(vm, p, NULL, &fp, &st, &err);
    assert_int_not_equal(one, TV_OK);
    tv_status rc = TV_OK;
    for (unsigned i = 0; i < n && rc == TV_OK; i++) {
        s->cur = &t[i];
        params_of(&t[i], s, &fp);
        rc = tv_vm_frag_batch_add(B, &fp, &st, &err);
        if (rc == TV_OK)
            rc = tv_vm_frag_batch_flush(B, &st, &err);
    }
    assert_int_equal(rc, one);
    assert_int_equal(vm_frag_batch_pixel_warps(B), 0);
    tv_vm_frag_batch_end(B);
    free(s);
    tv_vm_program_destroy(p);
    tv_vm_destroy(vm);
}

/* Hook data that changes between triangles runs the pending warp under the old one. */
static void test_changed_hooks(void **state)
{
    (void)state;
    enum { N = 300 };
    tri *t = malloc(N * sizeof *t);
    scene *ref = calloc(1, sizeof *ref), *ref2 = calloc(1, sizeof *ref2);
    scene *bat = calloc(1, sizeof *bat), *bat2 = calloc(1, sizeof *bat2);
    assert_true(t && ref && ref2 && bat && bat2);
    unsigned n = make_scene(0, t, N);
    draw(true, false, t, n, ref, ref2);
    draw(false, true, t, n, bat, bat2);
    same_logs(ref, bat, "first hooks");
    same_logs(ref2, bat2, "second hooks");
    free(t);
    free(ref);
    free(ref2);
    free(bat);
    free(bat2);
}

static void noop_span(void *user, int32_t y0, int32_t y1, int32_t *x0, int32_t *x1)
{
    (void)user, (void)y0, (void)y1, (void)x0, (void)x1;
}

/* The fields whose change makes a batch run its pending warp first: each one changed alone
 * (a pointer, a hook, a number) makes vm_frag_same_common false, a change of any other
 * field (the vertices, facing, primitive ID, scissor) leaves it true. */
static void test_same_common_fields(void **state)
{
    (void)state;
    static uint32_t words[4];
    static float zs[1];
    tv_vm_frag_params a;
    memset(&a, 0, sizeof a);
    a.width = 64;
    a.height = 48;
    tv_vm_frag_params b = a;
    assert_true(vm_frag_same_common(&a, &b));
    b.vertices[1].x = 3.0f;
    b.front_face = true;
    b.primitive_id = 9;
    b.scissor[2] = 5;
    b.prim = 1;
    assert_true(vm_frag_same_common(&a, &b));
    enum { FIELDS = 15 + 2 * TV_VM_MAX_COLOR_TARGETS };
    for (unsigned f = 0; f < FIELDS; f++) {
        b = a;
        switch (f) {
        case 0: b.width++; break;
        case 1: b.height++; break;
        case 2: b.samples = 4; break;
        case 3: b.sample_mask = 1; break;
        case 4: b.sample_shading = true; break;
        case 5: b.depth = zs; break;
        case 6: b.stencil = words; break;
        case 7: b.sample_mask_out = words; break;
        case 8: b.coverage = cov_hook; break;
        case 9: b.coverage_warp = cov_warp_hook; break;
        case 10: b.row_span = noop_span; break;
        case 11: b.coverage_quads = cov_quads_hook; break;
        case 12: b.emit = emit_hook; break;
        case 13: b.emit_warp = emit_warp_hook; break;
        case 14: b.hook_user = words; break;
        default: {
            const unsigned i = (f - 15) / 2;
            if ((f - 15) % 2 == 0)
                b.color[i].data = words;
            else
                b.fbfetch[i] = words;
        }
        }
        if (vm_frag_same_common(&a, &b))
            fail_msg("field %u changed, but the parameters compare the same", f);
    }
}

/* A program that interpolates while it runs (INTERP_*) is not packed across triangles:
 * every triangle runs by itself, the same fragments as one run each. */
static void test_interp_runs_alone(void **state)
{
    (void)state;
    static const char fs_interp[] = "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\n"
                                    "DCL OUT[0], COLOR\nIMM[0] FLT32 {0.25, -0.25, 0, 0}\n"
                                    "  0: INTERP_OFFSET OUT[0], IN[0], IMM[0].xyyy\n"
                                    "  1: END\n";
    enum { N = 120 };
    tri *t = malloc(N * sizeof *t);
    scene *a = calloc(1, sizeof *a), *b = calloc(1, sizeof *b);
    assert_true(t && a && b);
    unsigned n = make_scene(0, t, N);
    tv_vm *vm = engine(false);
    tv_vm_program *p = hv_program(vm, fs_interp);
    tv_error err;
    uint64_t warps[2] = {0, 0};
    for (int batch = 0; batch < 2; batch++) {
        scene *s = batch ? b : a;
        tv_vm_frag_batch *B = batch ? tv_vm_frag_batch_begin(vm, p, NULL, &err) : NULL;
        for (unsigned i = 0; i < n; i++) {
            s->cur = &t[i];
            tv_vm_frag_params fp;
            params_of(&t[i], s, &fp);
            tv_vm_stats st;
            tv_status rc = batch ? tv_vm_frag_batch_add(B, &fp, &st, &err)
                                 : tv_vm_run_fragment(vm, p, NULL, &fp, &st, &err);
            assert_int_equal(rc, TV_OK);
            warps[batch] += st.warps;
        }
        if (batch) {
            tv_vm_stats st;
            assert_int_equal(tv_vm_frag_batch_flush(B, &st, &err), TV_OK);
            assert_int_equal(st.warps, 0);   /* nothing was left pending */
            tv_vm_frag_batch_end(B);
        }
    }
    assert_int_equal(warps[0], warps[1]);
    same_logs(a, b, "INTERP_OFFSET");
    tv_vm_program_destroy(p);
    tv_vm_destroy(vm);
    free(t);
    free(a);
    free(b);
}

/* Programs whose results depend on which pixels share a warp — the warp-wide ops and a
 * lane's index — run in the tile walk's warps, as on the plain interpreter: neither
 * packed from a triangle's quads nor batched with other triangles' (a READ_FIRST of
 * PRIMID returned another triangle's id in a shared warp). */
static void test_warp_wide_in_tiles(void **state)
{
    (void)state;
    static const char *const programs[] = {
        "FRAG\nDCL SV[0], PRIM_ID\nDCL OUT[0], COLOR\nDCL OUT[1], COLOR[1]\nDCL TEMP[0]\n"
        "  0: READ_FIRST TEMP[0].x, SV[0].xxxx\n"
        "  1: MOV OUT[0].x, TEMP[0].xxxx\n"
        "  2: MOV OUT[0].y, SV[0].xxxx\n"
        "  3: END\n",
        "FRAG\nDCL IN[0], POSITION, LINEAR\nDCL OUT[0], COLOR\nDCL OUT[1], COLOR[1]\n"
        "DCL TEMP[0..1]\nIMM[0] UINT32 {1, 3, 0, 0}\n"
        "  0: F2U TEMP[0].xy, IN[0].xyyy\n"
        "  1: AND TEMP[0].xy, TEMP[0].xyyy, IMM[0].xyyy\n"
        "  2: VOTE_ANY TEMP[1].x, TEMP[0].xxxx\n"
        "  3: VOTE_ALL TEMP[1].y, TEMP[0].yyyy\n"
        "  4: VOTE_EQ TEMP[1].z, TEMP[0].yyyy\n"
        "  5: READ_INVOC TEMP[1].w, TEMP[0].yyyy, IMM[0].yyyy\n"
        "  6: MOV OUT[0], TEMP[1]\n"
        "  7: BALLOT OUT[1].xy, TEMP[0].xxxx\n"
        "  8: END\n",
        "FRAG\nDCL SV[0], SUBGROUP_INVOCATION\nDCL OUT[0], COLOR\nDCL OUT[1], COLOR[1]\n"
        "  0: MOV OUT[0].x, SV[0].xxxx\n"
        "  1: END\n",
    };
    enum { N = 200 };
    tri *t = malloc(N * sizeof *t);
    scene *ref = calloc(1, sizeof *ref), *one = calloc(1, sizeof *one),
          *bat = calloc(1, sizeof *bat);
    assert_true(t && ref && one && bat);
    unsigned n = make_scene(0, t, N);
    for (unsigned k = 0; k < sizeof programs / sizeof programs[0]; k++) {
        fs_now = programs[k];
        memset(ref, 0, sizeof *ref);
        memset(one, 0, sizeof *one);
        memset(bat, 0, sizeof *bat);
        draw(true, false, t, n, ref, NULL);
        draw(false, false, t, n, one, NULL);
        draw(false, true, t, n, bat, NULL);
        char what[64];
        snprintf(what, sizeof what, "program %u, one run per triangle", k);
        same_logs(ref, one, what);
        snprintf(what, sizeof what, "program %u, batch", k);
        same_logs(ref, bat, what);
    }
    fs_now = fs_text;
    free(t);
    free(ref);
    free(one);
    free(bat);
}

/* Registers inside the inputs' range that no declaration names read 0 in every warp of
 * a batch, as in one run per triangle — also where the side register file's memory held
 * something before (an indirect IN[ADDR] reaches them). */
static void test_undeclared_inputs_zero(void **state)
{
    (void)state;
    /* freed heap blocks of many sizes full of a pattern, each kept from merging with its
       neighbours by a small block: the batch's allocations are likely given one */
    enum { NJ = 96 };
    void *junk[NJ], *guard[NJ];
    for (int i = 0; i < NJ; i++) {
        size_t size = 512 + 512 * (size_t)i;
        junk[i] = malloc(size);
        guard[i] = malloc(16);
        assert_true(junk[i] && guard[i]);
        memset(junk[i], 0x5a, size);
    }
    for (int i = 0; i < NJ; i++)
        free(junk[i]);
    fs_now = "FRAG\nDCL IN[0], GENERIC[0], CONSTANT\nDCL IN[2], GENERIC[2], CONSTANT\n"
             "DCL OUT[0], COLOR\nDCL OUT[1], COLOR[1]\nDCL ADDR[0]\n"
             "IMM[0] INT32 {1, 0, 0, 0}\n"
             "  0: UARL ADDR[0].x, IMM[0].xxxx\n"
             "  1: MOV OUT[0], IN[ADDR[0].x]\n"
             "  2: MOV OUT[1], IN[0]\n"
             "  3: END\n";
    enum { N = 200 };
    tri *t = malloc(N * sizeof *t);
    scene *one = calloc(1, sizeof *one), *bat = calloc(1, sizeof *bat);
    assert_true(t && one && bat);
    unsigned n = make_scene(0, t, N);
    draw(false, false, t, n, one, NULL);
    draw(false, true, t, n, bat, NULL);
    fs_now = fs_text;
    same_logs(one, bat, "IN[1] through ADDR");
    for (int i = 0; i < NJ; i++)
        free(guard[i]);
    free(t);
    free(one);
    free(bat);
}

/* A coverage_quads hook that breaks its contract fails the add with an error naming it,
 * and leaves nothing pending */
/* A batch of P on VM for one triangle T at window positions XY (three x, y pairs;
 * attributes from SEED), front facing, primitive 0: its scene *S (calloc'd, T current)
 * and parameters FP */
static tv_vm_frag_batch *one_triangle(tv_vm *vm, tv_vm_program *p, uint32_t seed,
                                      const float xy[6], tri *t, scene **s,
                                      tv_vm_frag_params *fp)
{
    tv_error err;
    memset(&err, 0, sizeof err);
    tv_vm_frag_batch *B = tv_vm_frag_batch_begin(vm, p, NULL, &err);
    if (!B)
        fail_msg("tv_vm_frag_batch_begin: %s", err.message);
    *s = calloc(1, sizeof **s);
    assert_non_null(*s);
    for (unsigned k = 0; k < 3; k++)
        make_vertex(&t->v[k], xy[2 * k], xy[2 * k + 1], &seed);
    t->front = true;
    t->id = 0;
    (*s)->cur = t;
    params_of(t, *s, fp);
    return B;
}

/* A coverage_quads hook that covers the lanes of its quads outside the box (boxes with odd
 * and even edges): no pixel outside the box is shaded, every one inside is, once — the
 * packer masks each quad's lanes with the box (pack_box_quads), which no hook that keeps
 * the contract shows. */
static void test_quads_kept_to_box(void **state)
{
    (void)state;
    tv_vm *vm = engine(false);
    tv_vm_program *p = hv_program(vm, fs_text);
    tv_error err;
    memset(&err, 0, sizeof err);
    unsigned outside_lanes = 0;
    for (uint32_t k = 0; k < 16; k++) {
        tri t;
        scene *s;
        tv_vm_frag_params fp;
        static const float xy[6] = {4.0f, 4.0f, 30.0f, 5.0f, 6.0f, 30.0f};
        tv_vm_frag_batch *B = one_triangle(vm, p, 0x77u + k, xy, &t, &s, &fp);
        /* boxes of 1 to 5 pixels a side from odd and even corners */
        const uint32_t x0 = 10 + (k & 1), y0 = 12 + ((k >> 1) & 1);
        const uint32_t x1 = x0 + 1 + (k % 5), y1 = y0 + 1 + ((k / 3) % 5);
        fp.scissor[0] = x0;
        fp.scissor[1] = y0;
        fp.scissor[2] = x1;
        fp.scissor[3] = y1;
        fp.coverage_quads = whole_quads_hook;
        tv_vm_stats st;
        if (tv_vm_frag_batch_add(B, &fp, &st, &err) != TV_OK ||
            tv_vm_frag_batch_flush(B, &st, &err) != TV_OK)
            fail_msg("box %u: %s", k, err.message);
        for (uint32_t y = 0; y < TH; y++)
            for (uint32_t x = 0; x < TW; x++) {
                const bool in = x >= x0 && x < x1 && y >= y0 && y < y1;
                if (s->count[y][x] != (in ? 1u : 0u))
                    fail_msg("box %u (%u, %u)-(%u, %u): pixel (%u, %u) shaded %u times", k,
                             x0, y0, x1, y1, x, y, s->count[y][x]);
                outside_lanes += !in && x >= (x0 & ~1u) && x < ((x1 + 1) & ~1u) &&
                                 y >= (y0 & ~1u) && y < ((y1 + 1) & ~1u);
            }
        tv_vm_frag_batch_end(B);
        free(s);
    }
    assert_true(outside_lanes > 40);   /* the hook did cover lanes outside the boxes */
    tv_vm_program_destroy(p);
    tv_vm_destroy(vm);
}

static void test_bad_coverage_quads(void **state)
{
    (void)state;
    static const char *const want[] = {"at most", "not an aligned quad", "not an aligned quad",
                                       "not an aligned quad"};
    for (int mode = 0; mode < 4; mode++) {
        tv_vm *vm = engine(false);
        tv_vm_program *p = hv_program(vm, fs_text);
        tv_error err;
        memset(&err, 0, sizeof err);
        tri t;
        scene *s;
        tv_vm_frag_params fp;
        static const float xy[6] = {10.0f, 10.0f, 14.0f, 10.5f, 10.5f, 15.0f};
        tv_vm_frag_batch *B = one_triangle(vm, p, 0x51u + (uint32_t)mode, xy, &t, &s, &fp);
        fp.coverage_quads = bad_quads_hook;
        bad_quads_mode = mode;
        tv_vm_stats st;
        assert_int_equal(tv_vm_frag_batch_add(B, &fp, &st, &err), TV_ERR_ARG);
        if (!strstr(err.message, want[mode]))
            fail_msg("mode %d: %s", mode, err.message);
        assert_int_equal(tv_vm_frag_batch_flush(B, &st, &err), TV_OK);
        assert_int_equal(st.warps, 0);   /* nothing was left pending */
        tv_vm_frag_batch_end(B);
        free(s);
        tv_vm_program_destroy(p);
        tv_vm_destroy(vm);
    }
}

static void test_bad_arguments(void **state)
{
    (void)state;
    tv_error err;
    memset(&err, 0, sizeof err);
    assert_int_equal(tv_vm_frag_batch_add(NULL, NULL, NULL, &err), TV_ERR_ARG);
    assert_int_equal(tv_vm_frag_batch_flush(NULL, NULL, &err), TV_ERR_ARG);
    tv_vm_frag_batch_end(NULL);
    tv_vm *vm = engine(false);
    tv_vm_program *p = hv_program(vm, fs_text);
    tv_vm_frag_batch *B = tv_vm_frag_batch_begin(vm, p, NULL, &err);
    assert_non_null(B);
    tv_vm_frag_params fp;
    memset(&fp, 0, sizeof fp);   /* no target size */
    assert_int_equal(tv_vm_frag_batch_add(B, &fp, NULL, &err), TV_ERR_ARG);
    assert_non_null(strstr(err.message, "target size"));
    /* a failing add leaves nothing pending: a small triangle's quads wait in a warp, then
       an add with the same hooks and target fails its set-up (a RECT under a coverage
       hook); the flush after it has nothing to run */
    scene *s = calloc(1, sizeof *s);
    assert_non_null(s);
    tri t[1];
    uint32_t seed = 7;
    for (unsigned k = 0; k < 3; k++)
        make_vertex(&t[0].v[k], 10.0f + (k == 1 ? 4.0f : 0.0f), 10.0f + (k == 2 ? 4.0f : 0.0f),
                    &seed);
    t[0].front = true;
    t[0].id = 0;
    s->cur = &t[0];
    params_of(&t[0], s, &fp);
    tv_vm_stats st;
    assert_int_equal(tv_vm_frag_batch_add(B, &fp, &st, &err), TV_OK);
    assert_int_equal(st.warps, 0);   /* (its quads are pending) */
    fp.prim = TV_VM_PRIM_RECT;
    assert_int_equal(tv_vm_frag_batch_add(B, &fp, NULL, &err), TV_ERR_ARG);
    assert_int_equal(tv_vm_frag_batch_flush(B, &st, &err), TV_OK);
    assert_int_equal(st.warps, 0);
    uint64_t logged = 0;
    for (unsigned y = 0; y < TH; y++)
        for (unsigned x = 0; x < TW; x++)
            logged += s->count[y][x];
    assert_int_equal(logged, 0);
    free(s);
    tv_vm_frag_batch_end(B);
    /* a program of another stage */
    tv_vm_program *v = hv_program(vm, "VERT\nDCL OUT[0], POSITION\n  0: END\n");
    assert_null(tv_vm_frag_batch_begin(vm, v, NULL, &err));
    assert_non_null(strstr(err.message, "not FRAG"));
    tv_vm_program_destroy(v);
    tv_vm_program_destroy(p);
    tv_vm_destroy(vm);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_overlapping),
        cmocka_unit_test(test_grid_shared_edges),
        cmocka_unit_test(test_denormal_w_flushed),
        cmocka_unit_test(test_deferred_inputs),
        cmocka_unit_test(test_flatshade_between_adds),
        cmocka_unit_test(test_pixels_without_derivatives),
        cmocka_unit_test(test_pixel_placement_isas),
        cmocka_unit_test(test_pixels_lod_free_textures),
        cmocka_unit_test(test_pixels_without_bindings),
        cmocka_unit_test(test_changed_hooks),
        cmocka_unit_test(test_same_common_fields),
        cmocka_unit_test(test_interp_runs_alone),
        cmocka_unit_test(test_warp_wide_in_tiles),
        cmocka_unit_test(test_undeclared_inputs_zero),
        cmocka_unit_test(test_quads_kept_to_box),
        cmocka_unit_test(test_bad_coverage_quads),
        cmocka_unit_test(test_bad_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
