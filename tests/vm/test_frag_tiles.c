/* Fragment coverage and interpolation of random primitives against a per-pixel model: the
 * stage classifies whole tiles from their corners (a tile wholly inside one triangle skips
 * the per-lane tests), and that shortcut must give exactly what testing every pixel centre
 * and sample gives. The model below is the rule of docs/vm-stages.md §2 "FRAG" written per
 * pixel, with the stage's float formulas (edge functions, barycentrics = edge / area,
 * perspective weights normalised by their sum, values v0 + w1 (v1 - v0) + w2 (v2 - v0)), so
 * the comparison is bit-exact:
 * triangles (0,1,2) and (2,1,3) of a rectangle, made counter-clockwise; a point is in a
 * triangle when its three barycentrics are >= 0; the first triangle containing the pixel
 * centre gives the values (triangle 0, extrapolated, when none does); a sample is covered
 * when some triangle contains it. Primitives: random vertices (fractional, at tile
 * corners, off the target, far away, infinite or NaN, degenerate, both orientations,
 * w = 0, w NaN, w tiny enough that the perspective weights pass 2^62 or 1/w is infinite, or
 * taken as 1 where denormals are flushed, w 1 at every vertex: interp_tile's shortcut
 * where the weights' normaliser is 1, w infinite at every vertex: a normaliser of 0,
 * taken as 1),
 * scissor boxes, 1 and 4
 * samples, targets wider than one 64-tile pass of the classifier, 1 and 2 threads;
 * attributes the same at every vertex (interp_tile's shortcut: -0, +0, a denormal, a
 * normal number), with denormals kept and flushed (the model then runs flushed too).
 * Every case runs three times: with the tile walk's AVX-512 pass for a tile's inputs
 * (vm_stage_frag_tile.c, where the CPU has AVX-512), with its AVX2 variant (the engine's
 * tile stores capped at AVX2) and with the C tile formulas (tile_bary and interp_tile: the
 * stores capped at SSE2). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "helper_vm.h"
#include "util/fpmode.h"
#include "vm/vm_stage_frag.h"
#include "vm/vm_stage_frag_store.h"
#include "common_rng.h"

#define CLEAR 0x7fc0dead  /* a NaN no interpolation produces: "not written" */

typedef struct {
    float x[3], y[3], iw[3], area;
    unsigned v[3], provoking;
} mtri;

static float m_edge(float ax, float ay, float bx, float by, float px, float py)
{
    return (bx - ax) * (py - ay) - (by - ay) * (px - ax);
}

static unsigned m_setup(const tv_vm_frag_params *fp, mtri t[2])
{
    static const unsigned idx[2][3] = {{0, 1, 2}, {2, 1, 3}};
    unsigned n = fp->prim == TV_VM_PRIM_RECT ? 2 : 1;
    for (unsigned k = 0; k < n; k++) {
        unsigned o[3] = {idx[k][0], idx[k][1], idx[k][2]};
        const tv_vm_frag_vertex *v = fp->vertices;
        float area = m_edge(v[o[0]].x, v[o[0]].y, v[o[1]].x, v[o[1]].y, v[o[2]].x, v[o[2]].y);
        if (area < 0.0f) {   /* counter-clockwise: swap the last two */
            unsigned s = o[1];
            o[1] = o[2];
            o[2] = s;
            area = -area;
        }
        for (unsigned j = 0; j < 3; j++) {
            t[k].x[j] = v[o[j]].x;
            t[k].y[j] = v[o[j]].y;
            t[k].iw[j] = v[o[j]].w != 0.0f ? 1.0f / v[o[j]].w : 1.0f;
            t[k].v[j] = o[j];
        }
        t[k].area = area;
        t[k].provoking = idx[k][2];
    }
    return n;
}

static bool m_bary(const mtri *t, float px, float py, float b[3])
{
    if (t->area == 0.0f) {
        b[0] = 1.0f;
        b[1] = b[2] = 0.0f;
        return false;
    }
    b[0] = m_edge(t->x[1], t->y[1], t->x[2], t->y[2], px, py) / t->area;
    b[1] = m_edge(t->x[2], t->y[2], t->x[0], t->y[0], px, py) / t->area;
    b[2] = m_edge(t->x[0], t->y[0], t->x[1], t->y[1], px, py) / t->area;
    return b[0] >= 0.0f && b[1] >= 0.0f && b[2] >= 0.0f;
}

/* Expected words of OUT[0] = IN[0] (LINEAR), OUT[1] = IN[1] (PERSPECTIVE), OUT[2] = IN[2]
 * (CONSTANT) at pixel (x, y), and the covered-sample mask. */
static uint32_t m_pixel(const tv_vm_frag_params *fp, const mtri *t, unsigned nt, unsigned x,
                        unsigned y, uint32_t out[3][4])
{
    float cx = (float)x + 0.5f, cy = (float)y + 0.5f, b[3];
    unsigned tri = 0;
    bool found = false;
    for (unsigned k = 0; k < nt && !found; k++)
        if (m_bary(&t[k], cx, cy, b)) {
            tri = k;
            found = true;
        }
    if (!found)
        m_bary(&t[0], cx, cy, b);
    uint32_t cov = 0;
    unsigned samples = fp->samples ? fp->samples : 1;
    for (unsigned s = 0; s < samples; s++) {
        float sx = 0.5f, sy = 0.5f, sb[3];
        if (samples > 1)
            tv_tex_sample_position(samples, s, &sx, &sy);
        for (unsigned k = 0; k < nt; k++)
            if (m_bary(&t[k], (float)x + sx, (float)y + sy, sb)) {
                cov |= 1u << s;
                break;
            }
    }
    const mtri *T = &t[tri];
    const uint32_t *a[3];
    for (unsigned c = 0; c < 4; c++) {
        float v[3];
        for (unsigned j = 0; j < 3; j++) {
            a[j] = fp->vertices[T->v[j]].attr[0];
            memcpy(&v[j], &a[j][c], 4);
        }
        out[0][c] = tv_f32_bits(v[0] + b[1] * (v[1] - v[0]) + b[2] * (v[2] - v[0]));
    }
    float w0 = b[0] * T->iw[0], w1 = b[1] * T->iw[1], w2 = b[2] * T->iw[2];
    float sum = w0 + w1 + w2;
    if (sum != 0.0f) {
        w0 /= sum;
        w1 /= sum;
        w2 /= sum;
    }
    for (unsigned c = 0; c < 4; c++) {
        float v[3];
        for (unsigned j = 0; j < 3; j++)
            memcpy(&v[j], &fp->vertices[T->v[j]].attr[1][c], 4);
        out[1][c] = tv_f32_bits(v[0] + w1 * (v[1] - v[0]) + w2 * (v[2] - v[0]));
        out[2][c] = fp->vertices[T->provoking].attr[2][c];
    }
    return cov;
}

static uint32_t rng = 12345u;
static uint32_t rnd(void)
{
    return tc_rng_next(&rng);
}
static float rnd_coord(float size)
{
    switch (rnd() % 4) {
    case 0: return (float)(rnd() % ((unsigned)size + 1));                 /* any integer */
    case 1: return (float)((rnd() % ((unsigned)size / 4 + 2)) * 4);       /* tile corner */
    case 2: return -size + (float)(rnd() % 3000) / 1000.0f * size;         /* off target */
    default: return (float)(rnd() % 100000) / 100000.0f * size;           /* fraction */
    }
}

/* Cases from here on are t_same_values' */
#define SAME_CASES 1000u

static const char *PROG =
    "FRAG\nDCL IN[0], GENERIC[0], LINEAR\nDCL IN[1], GENERIC[1], PERSPECTIVE\n"
    "DCL IN[2], GENERIC[2], CONSTANT\nDCL OUT[0], COLOR\nDCL OUT[1], COLOR[1]\n"
    "DCL OUT[2], COLOR[2]\nMOV OUT[0], IN[0]\nMOV OUT[1], IN[1]\nMOV OUT[2], IN[2]\nEND\n";

/* t_bounded_weights' variations: every vertex's w this value (0: as the case has it), and
 * a sliver (vertex 2 a hundredth of a pixel off the line of vertices 0 and 1) */
static float equal_w;
static bool sliver;
static bool flush_all;   /* every case under flushed denormals */

/* Each test starts with none of the variations (a test that fails leaves its own set:
   cmocka's setup, so the tests after it still run as written) */
static int no_variations(void **s)
{
    (void)s;
    equal_w = 0.0f;
    sliver = false;
    flush_all = false;
    hv_store_cap = VM_STORE_AVX512;
    return 0;
}

/* The same, with the pass's AVX2 variant (the variant of the tile stores': avx2) */
static int avx2_pass(void **s)
{
    no_variations(s);
    hv_store_cap = VM_STORE_AVX2;
    return 0;
}

/* The same, with the C tile formulas instead of the pass (which runs only where the tile
   stores' variant is avx2 or avx512) */
static int c_formulas(void **s)
{
    no_variations(s);
    hv_store_cap = VM_STORE_SSE2;
    return 0;
}

static int restore_cap(void **s)
{
    (void)s;
    hv_store_cap = VM_STORE_AVX512;
    return 0;
}

static void check_case(unsigned W, unsigned H, unsigned samples, tv_vm_frag_prim prim,
                       bool scissor, unsigned threads, unsigned icase)
{
    tv_vm_frag_params *fp = calloc(1, sizeof *fp);
    assert_non_null(fp);
    tv_vm_frag_params_fullscreen(fp, W, H, prim);
    fp->samples = samples;
    unsigned nv = prim == TV_VM_PRIM_RECT ? 4 : 3;
    /* the bench's case: the tiles of two triangles (and every case of t_same_values) */
    bool fullscreen = icase % 5 == 0 || icase >= SAME_CASES;
    for (unsigned v = 0; v < nv; v++) {
        if (!fullscreen) {
            fp->vertices[v].x = rnd_coord((float)W);
            fp->vertices[v].y = rnd_coord((float)H);
        }
        fp->vertices[v].w = 0.5f + (float)(rnd() % 8);
        for (unsigned r = 0; r < 3; r++)
            for (unsigned c = 0; c < 4; c++)
                fp->vertices[v].attr[r][c] = tv_f32_bits((float)(rnd() % 2000) / 7.0f - 100.0f);
    }
    if (icase % 4 == 1 || icase >= SAME_CASES) {
        /* LINEAR and PERSPECTIVE inputs the same at every vertex, channel by channel one of
           the values whose sums with a zero are not themselves (-0; a denormal, where
           flushed) or are (+0, numbers) */
        static const uint32_t same[] = {0x00000000u, 0x3fc00000u, 0xff61b1e6u, 0x40e80000u,
                                        0x80000000u, 0x00000001u, 0x807fffffu};
        for (unsigned r = 0; r < 2; r++)
            for (unsigned c = 0; c < 4; c++) {
                /* every channel a value the shortcut takes (the first four) half the time */
                unsigned pick = rnd() % 2 ? 4 : sizeof same / sizeof same[0];
                uint32_t v = same[rnd() % pick];
                for (unsigned k = 0; k < nv; k++)
                    fp->vertices[k].attr[r][c] = v;
            }
    }
    unsigned same = icase >= SAME_CASES ? icase - SAME_CASES : 0;
    if (icase % 9 == 5 || same % 6 == 1)   /* 1/w past 2^62: weights past the shortcut's bound */
        fp->vertices[1].w = 1e-25f;
    if (icase % 10 == 7 || same % 6 == 2)  /* 1/w infinite: NaN weights, not the value */
        fp->vertices[2].w = 1e-42f;
    if (same % 6 == 3)   /* the same at two vertices only */
        for (unsigned r = 0; r < 2; r++)
            fp->vertices[nv - 1].attr[r][rnd() % 4] ^= 0x00400000u;
    if (icase % 7 == 3)   /* degenerate: a line */
        fp->vertices[2].x = fp->vertices[0].x, fp->vertices[2].y = fp->vertices[0].y;
    if (icase % 11 == 4) {   /* far away and w = 0 (1/w taken as 1) */
        fp->vertices[1].x = 1e20f;
        fp->vertices[0].w = 0.0f;
    }
    if (icase % 13 == 6)     /* infinite and NaN positions: the tests see NaN edges */
        fp->vertices[nv - 1].y = (icase & 1) ? INFINITY : NAN;
    if (icase % 17 == 9)     /* a NaN w alone: NaN weights from a finite position */
        fp->vertices[icase % nv].w = NAN;
    if (equal_w != 0.0f)
        for (unsigned v = 0; v < nv; v++)
            fp->vertices[v].w = equal_w;
    if (sliver) {
        fp->vertices[2].x = 0.5f * (fp->vertices[0].x + fp->vertices[1].x) + 0.01f;
        fp->vertices[2].y = 0.5f * (fp->vertices[0].y + fp->vertices[1].y);
    }
    if (scissor) {
        fp->scissor[0] = rnd() % W;
        fp->scissor[1] = rnd() % H;
        fp->scissor[2] = fp->scissor[0] + 1 + rnd() % (W - fp->scissor[0]);
        fp->scissor[3] = fp->scissor[1] + 1 + rnd() % (H - fp->scissor[1]);
    }
    size_t n = (size_t)W * H * samples * 4;
    uint32_t *col[3];
    for (unsigned k = 0; k < 3; k++) {
        col[k] = malloc(n * 4);
        assert_non_null(col[k]);
        for (size_t i = 0; i < n; i++)
            col[k][i] = CLEAR;
        fp->color[k].data = col[k];
    }
    hv_threads = threads;
    bool flush = icase % 8 == 5 || same % 6 == 4 || flush_all;
    hv_flush_denormals = flush;
    tv_error err;
    if (hv_frag_p(PROG, fp, NULL, &err) != TV_OK)
        fail_msg("case %u: %s", icase, err.message);
    hv_threads = 1;
    /* the model's set-up and per-pixel arithmetic under the engine's denormal mode (which
       holds for the triangle's set-up and the jobs: a denormal w is 0 there, so its 1/w
       is taken as 1) */
    unsigned fp_saved = flush ? tv_fp_flush_begin() : 0;
    hv_flush_denormals = false;
    mtri t[2];
    unsigned nt = m_setup(fp, t);
    uint32_t x0 = fp->scissor[2] ? fp->scissor[0] : 0, y0 = fp->scissor[3] ? fp->scissor[1] : 0;
    uint32_t x1 = fp->scissor[2] ? fp->scissor[2] : W, y1 = fp->scissor[3] ? fp->scissor[3] : H;
    for (unsigned y = 0; y < H; y++)
        for (unsigned x = 0; x < W; x++) {
            uint32_t want[3][4];
            uint32_t cov = m_pixel(fp, t, nt, x, y, want);
            bool in = x >= x0 && x < x1 && y >= y0 && y < y1;
            for (unsigned s = 0; s < samples; s++) {
                bool written = in && ((cov >> s) & 1u);
                for (unsigned k = 0; k < 3; k++)
                    for (unsigned c = 0; c < 4; c++) {
                        uint32_t got = col[k][(((size_t)y * W + x) * samples + s) * 4 + c];
                        uint32_t exp = written ? want[k][c] : CLEAR;
                        if (got != exp)
                            fail_msg("case %u (%ux%u, %u samples, %s%s, %u threads): pixel "
                                     "(%u,%u) sample %u OUT[%u].%c = 0x%08x, want 0x%08x",
                                     icase, W, H, samples,
                                     prim == TV_VM_PRIM_RECT ? "rect" : "triangle",
                                     scissor ? ", scissor" : "", threads, x, y, s, k,
                                     "xyzw"[c], got, exp);
                    }
            }
        }
    if (flush)
        tv_fp_flush_end(fp_saved);
    for (unsigned k = 0; k < 3; k++)
        free(col[k]);
    free(fp);
}

static void t_random_primitives(void **s)
{
    (void)s;
    static const unsigned sizes[][2] = {{37, 23}, {64, 16}, {13, 7}, {530, 9}, {9, 41}};
    for (unsigned i = 0; i < 60; i++) {
        const unsigned *sz = sizes[(i / 3) % 5];
        check_case(sz[0], sz[1], 1, (i & 1) ? TV_VM_PRIM_TRIANGLE : TV_VM_PRIM_RECT,
                   i % 3 == 2, 1 + (i % 4 == 1), i);
    }
}

/* w 1 at every vertex (a 2D draw; the bench's full-screen rectangle) and attributes that
 * differ: the perspective weights' normalising sum d is then exactly 1 in most half warps,
 * where interp_tile takes b and c for b / d and c / d (not where denormals are flushed);
 * random and full-target triangles and rectangles, denormals kept and flushed, 1 and 2
 * threads. */
static void t_unit_w(void **s)
{
    (void)s;
    static const unsigned sizes[][2] = {{64, 16}, {530, 9}, {37, 23}};
    unsigned n = 0;
    for (unsigned i = 0; i < 80; i++) {
        if (i % 4 == 1)
            continue;   /* (the same-value cases: t_same_values, t_bounded_weights) */
        const unsigned *sz = sizes[n++ % 3];
        equal_w = 1.0f;
        flush_all = (i / 2) % 2 == 1;
        check_case(sz[0], sz[1], 1, (i & 2) ? TV_VM_PRIM_TRIANGLE : TV_VM_PRIM_RECT,
                   i % 7 == 2, 1 + (i % 3 == 1), i);
    }
}

/* w infinite at every vertex: every 1/w is 0, so the perspective weights' normalising sum
 * is 0 in every lane and taken as 1 (interp_tile's persp_terms; the AVX-512 pass's blend,
 * vm_frag_persp_d16), and a PERSPECTIVE input is v0 + 0 (v1 - v0) + 0 (v2 - v0); random and
 * full-target triangles and rectangles, denormals kept and flushed. */
static void t_infinite_w(void **s)
{
    (void)s;
    static const unsigned sizes[][2] = {{64, 16}, {37, 23}};
    for (unsigned i = 0; i < 24; i++) {
        if (i % 4 == 1)
            continue;   /* (the same-value cases) */
        const unsigned *sz = sizes[i % 2];
        equal_w = INFINITY;
        flush_all = (i / 2) % 2 == 1;
        check_case(sz[0], sz[1], 1, (i & 2) ? TV_VM_PRIM_TRIANGLE : TV_VM_PRIM_RECT, false,
                   1, i);
    }
}

static void t_random_msaa(void **s)
{
    (void)s;
    for (unsigned i = 0; i < 16; i++)
        check_case(29, 14, 4, (i & 1) ? TV_VM_PRIM_TRIANGLE : TV_VM_PRIM_RECT, i % 3 == 2, 1,
                   100 + i);
}

/* Attributes the same at every vertex over whole tiles (interp_tile's shortcut): plain,
 * with 1/w past 2^62 and infinite, the same at two vertices only, under flushed
 * denormals; rectangles and triangles, 1 and 2 threads. */
static void t_same_values(void **s)
{
    (void)s;
    for (unsigned i = 0; i < 36; i++)
        check_case(64, 16, 1, (i & 1) ? TV_VM_PRIM_TRIANGLE : TV_VM_PRIM_RECT, false,
                   1 + (i % 4 == 1), SAME_CASES + i);
}

/* The same-value shortcut with weights proven finite per triangle (vm_stage_frag.c
 * bounded_weights: the tiles then compute no barycentrics): every vertex's w equal, at and
 * past the proof's bounds on 1/w (2^-61 and 2^46 in, 2^-62 and 2^47 out), 1/w inexact
 * (w = 3), w random over 2^-60 .. 2^70, with and without slivers (past the bound on
 * B^2 / area), random and full-target triangles and rectangles, under flushed denormals
 * too. */
static void t_bounded_weights(void **s)
{
    (void)s;
    static const float ws[] = {1.0f, 0.25f, 3.0f, 0x1p61f, 0x1p62f, 0x1p-46f, 0x1p-47f};
    /* random triangles with the same values (icase % 4 == 1, not % 5 == 0) and the
       full-target cases of t_same_values */
    static const unsigned cases[] = {1, 9, 13, 17, 21, 29, 33, 37,
                                     SAME_CASES, SAME_CASES + 4, SAME_CASES + 5};
    for (unsigned k = 0; k < sizeof ws / sizeof ws[0]; k++)
        for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
            equal_w = ws[k];
            sliver = i % 4 == 3;
            check_case(64, 16, 1, (i & 1) ? TV_VM_PRIM_TRIANGLE : TV_VM_PRIM_RECT, false,
                       1 + (i % 3 == 1), cases[i]);
        }
    /* w equal at the vertices, random over 2^-60 .. 2^70 (1/w inside and outside the
       bounds), random triangles and full-target ones */
    for (unsigned i = 0; i < 120; i++) {
        equal_w = ldexpf(1.0f + (float)(rnd() % 1024) / 1024.0f, (int)(rnd() % 131) - 60);
        sliver = i % 7 == 3;
        check_case(64, 16, 1, (i & 1) ? TV_VM_PRIM_TRIANGLE : TV_VM_PRIM_RECT, false, 1,
                   cases[i % (sizeof cases / sizeof cases[0])]);
    }
}

/* The proof that the pass ran where the cases above expect it: a full-target rectangle's
 * tiles with differing attributes (icase 0) take it once each on a CPU with AVX2, with the
 * tile stores capped at AVX-512 and at AVX2 (its two variants), and never with them capped
 * at SSE2, nor with a NaN position (icase 19: the reference formulas) or under the plain
 * interpreter. */
static void t_pass_taken(void **s)
{
    (void)s;
    /* (the vm.*.plain copy runs every program with the plain interpreter) */
    const bool plain = getenv("TEXVM_TEST_PLAIN") != NULL;
    static const unsigned caps[2] = {VM_STORE_AVX512, VM_STORE_AVX2};
    for (unsigned k = 0; k < 2; k++) {
        hv_store_cap = caps[k];
        uint64_t before = vm_frag_tile_passes();
        check_case(64, 16, 1, TV_VM_PRIM_RECT, false, 1, 0);
        uint64_t passes = vm_frag_tile_passes() - before;
        /* 8 x 4 tiles; the diagonal x = 64 - 4 y crosses tiles 6-7, 4-5, 2-3 and 0-1 of
           rows 0 to 3 (x from 64 - 16 row - 16 to 64 - 16 row), and the tile right of
           those in rows 1 to 3 meets it at its top-left corner, where triangle 0's test is
           not strictly outside (tile_whole): 11 tiles take the per-lane set-up, 21 the
           pass */
        if (vm_frag_store_isa() >= VM_STORE_AVX2 && !plain)
            assert_int_equal(passes, 21);
        else
            assert_int_equal(passes, 0);
        before = vm_frag_tile_passes();
        check_case(64, 16, 1, TV_VM_PRIM_RECT, false, 1, 19);
        assert_int_equal(vm_frag_tile_passes() - before, 0);
    }
    hv_store_cap = VM_STORE_SSE2;
    uint64_t before = vm_frag_tile_passes();
    check_case(64, 16, 1, TV_VM_PRIM_RECT, false, 1, 0);
    assert_int_equal(vm_frag_tile_passes() - before, 0);
    hv_store_cap = VM_STORE_AVX512;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(t_random_primitives, no_variations),
        cmocka_unit_test_setup(t_same_values, no_variations),
        cmocka_unit_test_setup(t_bounded_weights, no_variations),
        cmocka_unit_test_setup(t_unit_w, no_variations),
        cmocka_unit_test_setup(t_random_msaa, no_variations),
        cmocka_unit_test_setup(t_pass_taken, no_variations),
        /* (after t_pass_taken, whose cases' random vertices its counts were taken from) */
        cmocka_unit_test_setup(t_infinite_w, no_variations),
        cmocka_unit_test_setup_teardown(t_random_primitives, avx2_pass, restore_cap),
        cmocka_unit_test_setup_teardown(t_same_values, avx2_pass, restore_cap),
        cmocka_unit_test_setup_teardown(t_bounded_weights, avx2_pass, restore_cap),
        cmocka_unit_test_setup_teardown(t_unit_w, avx2_pass, restore_cap),
        cmocka_unit_test_setup_teardown(t_infinite_w, avx2_pass, restore_cap),
        cmocka_unit_test_setup_teardown(t_random_msaa, avx2_pass, restore_cap),
        cmocka_unit_test_setup_teardown(t_random_primitives, c_formulas, restore_cap),
        cmocka_unit_test_setup_teardown(t_same_values, c_formulas, restore_cap),
        cmocka_unit_test_setup_teardown(t_bounded_weights, c_formulas, restore_cap),
        cmocka_unit_test_setup_teardown(t_unit_w, c_formulas, restore_cap),
        cmocka_unit_test_setup_teardown(t_infinite_w, c_formulas, restore_cap),
        cmocka_unit_test_setup_teardown(t_random_msaa, c_formulas, restore_cap),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
