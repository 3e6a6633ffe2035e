/* The harness of the fragment-batch tests (test_frag_batch.c, test_frag_batch_pixels.c):
 * the shaders, random scenes of triangles, the hooks that log every pixel's fragments in
 * the order they come, the draw of a scene by runs of their own on the plain interpreter
 * and by a batch on the engine, and the comparison of the two logs (check_scene). State
 * the tests set (the program, the store cap, flushed denormals, the coverage hooks' modes)
 * is in the statics below. Header-only (static functions), as test_tex_fixture.h. */
#ifndef TEXVM_TESTS_VM_TEST_FRAG_BATCH_FIXTURE_H
#define TEXVM_TESTS_VM_TEST_FRAG_BATCH_FIXTURE_H

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

static inline bool covers(const tri *t, int32_t x, int32_t y)
{
    float px = (float)x + 0.5f, py = (float)y + 0.5f, e[3];
    for (unsigned k = 0; k < 3; k++) {
        const tv_vm_frag_vertex *a = &t->v[k], *b = &t->v[(k + 1) % 3];
        e[k] = (b->x - a->x) * (py - a->y) - (b->y - a->y) * (px - a->x);
    }
    return (e[0] >= 0 && e[1] >= 0 && e[2] >= 0) || (e[0] <= 0 && e[1] <= 0 && e[2] <= 0);
}

static inline uint32_t cov_hook(void *user, int32_t x, int32_t y)
{
    const scene *s = user;
    return covers(s->cur, x, y) ? 1u : 0u;
}

static inline void cov_warp_hook(void *user, const int32_t x[32], const int32_t y[32], uint32_t inside,
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

static inline int cov_quads_hook(void *user, const int32_t box[4], int32_t *qx, int32_t *qy,
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
static inline int whole_quads_hook(void *user, const int32_t box[4], int32_t *qx, int32_t *qy,
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

static inline int bad_quads_hook(void *user, const int32_t box[4], int32_t *qx, int32_t *qy,
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

static inline void log_fragment(scene *s, int32_t x, int32_t y, const uint32_t c0[4],
                         const uint32_t c1[4])
{
    assert_true(x >= 0 && x < TW && y >= 0 && y < TH);
    uint32_t n = s->count[y][x]++;
    if (n < MAXLOG) {
        memcpy(s->log[y][x][n], c0, 16);
        memcpy(s->log[y][x][n] + 4, c1, 16);
    }
}

static inline void emit_hook(void *user, const tv_vm_frag_output *o)
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

static inline void log_layout(uint32_t v)
{
    if (layout_n < LAYOUT_MAX)
        layout[layout_n] = v;
    layout_n++;
}

static inline void emit_warp_hook(void *user, const tv_vm_frag_warp_output *w)
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

static inline float unit(uint32_t *s)
{
    return (float)(tc_rng_next(s) & 0xffffff) / (float)0x1000000;
}

static inline void make_vertex(tv_vm_frag_vertex *v, float x, float y, uint32_t *seed)
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
 * with NaNs: an attribute channel at one vertex of every fifth triangle, one channel at
 * two vertices of every eleventh (two NaNs that meet), the depth of one vertex of every
 * seventh (such triangles take the reference's formulas; in a batch their groups share
 * warps with the others'), 4 triangles of seven and three pixels a side
 * piled on 24x16 pixels, 5 triangles of one pixel each, twenty on different quads of a
 * row, then the same twenty pixels in the reverse order (the first meets the pixel of a
 * warp's twentieth quad). */
static inline unsigned make_scene(unsigned kind, tri *t, unsigned max)
{
    uint32_t seed = 0x2545f491u + (kind == 2 || kind == 3 ? 0 : kind);
    unsigned n = 0;
    if (kind == 3) {
        n = make_scene(0, t, max);
        for (unsigned i = 0; i < n; i++) {
            if (i % 5 == 1)
                t[i].v[i % 3].attr[(i / 5) % 3][(i / 15) % 4] = 0x7fc00001u + i;
            if (i % 11 == 4) {
                /* two NaNs in one channel, which come out in the order of the formula */
                t[i].v[1].attr[i % 3][(i / 11) % 4] = 0x7fc10000u + i;
                t[i].v[2].attr[i % 3][(i / 11) % 4] = 0xffc20000u + i;
            }
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

static inline void params_of(const tri *t, scene *s, tv_vm_frag_params *fp)
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

static inline tv_vm *engine(bool plain)
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
static inline uint64_t draw(bool plain, bool batch, const tri *t, unsigned n, scene *s, scene *s2)
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

static inline void same_logs(const scene *a, const scene *b, const char *what)
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

static inline void check_scene(unsigned kind, unsigned max)
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

#endif /* TEXVM_TESTS_VM_TEST_FRAG_BATCH_FIXTURE_H */
