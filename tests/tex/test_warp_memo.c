/* The warp path's per-thread memo of the request-wide state (tex_warp.c warp_setup): a
 * request with the previous request's handle reuses the resolved descriptors, the checks
 * and the hoisted sampler / view state. Each test changes one thing the memo depends on
 * between two requests with the same handle — the header, the sampler, the memory
 * mapping, the precision, header-binding mode, the unit — and checks the answer follows.
 * The vectorised kernel keeps two memos under the context's generation (tex_warp_vec.c:
 * the request's plan, by op, target and flags; tex_warp_vec_level.h: the levels read):
 * request_shape changes the op and the flags between requests of one context.
 * Textures are constant per level (or per column) in 8-bit UNORM, sampled with point
 * filters, so the expected value of every lane is a byte / 255 (correctly rounded). The
 * warp path is called directly, so each test also checks the path takes the request. */
#include "../tex/sample_fixture.h"
#include "tex/tex_internal.h"
#include "tex/tex_sampling.h"
#include "tex/fast/tex_warp.h"

#define COL_A 0
#define COL_B 1
#define COL_C 2
static const uint8_t colour[3][4] = {{200, 10, 30, 255}, {5, 250, 60, 128}, {77, 0, 141, 9}};

static void put_rgba8(fx *F, unsigned idx, unsigned w, unsigned h, unsigned levels)
{
    tv_tic t;
    fx_tic(&t, tv_format_from_name("R8G8B8A8_UNORM"), TV_TEX_2D, w, h, 1, levels);
    fx_put_tic(F, idx, &t);
}

/* Texels of `level` of header idx: column 0 in colour c0, the others in c1. */
static void fill(fx *F, unsigned idx, unsigned level, unsigned c0, unsigned c1)
{
    const tv_tic *t = &F->tic[idx];
    unsigned w = fx_max(1, (t->width_minus_one + 1u) >> level);
    unsigned h = fx_max(1, (t->height_minus_one + 1u) >> level);
    for (unsigned y = 0; y < h; y++)
        for (unsigned x = 0; x < w; x++) {
            const uint8_t *c = colour[x ? c1 : c0];
            fx_write_float(F, idx, level, x, y, 0, c[0] / 255.0f, c[1] / 255.0f,
                           c[2] / 255.0f, c[3] / 255.0f);
        }
}

static void put_point(fx *F, unsigned idx, uint16_t min_lod_clamp, unsigned wrap)
{
    tv_tsc s;
    fx_tsc(&s, TV_MAG_POINT, TV_MIN_POINT, TV_MIP_POINT, wrap);
    s.srgb_conversion = false;
    s.min_lod_clamp = min_lod_clamp;
    fx_put_tsc(F, idx, &s);
}

/* Header 0 a 4x4 texture of two levels (level 0: column 0 colour c00, the others c0;
 * level 1: colour c1) with sampler 0 point-filtered, REPEAT: its handle. */
static uint32_t two_levels(fx *F, unsigned c00, unsigned c0, unsigned c1)
{
    put_rgba8(F, 0, 4, 4, 2);
    fill(F, 0, 0, c00, c0);
    fill(F, 0, 1, c1, c1);
    put_point(F, 0, 0, TV_WRAP_REPEAT);
    return tv_tex_handle(0, 0);
}

/* Every lane at (s, t): zero derivatives, so lambda is the sampler's minimum clamp. */
static void request(tv_tex_request *r, uint32_t handle, float s, float t)
{
    fx_req(r, TV_TEX_OP_SAMPLE, TV_TEXTGT_2D, handle, 0xffffffffu);
    r->flags = TV_TEXF_VALUES_ONLY;
    for (unsigned l = 0; l < TV_TEX_LANES; l++) {
        r->coord[0][l] = s;
        r->coord[1][l] = t;
    }
}

/* The warp path takes the request and every lane reads colour c; so does tv_tex_execute. */
static void expect_colour(fx *F, uint32_t handle, float s, float t, unsigned c,
                          const char *what)
{
    tv_tex_request r;
    tv_tex_result res;
    request(&r, handle, s, t);
    memset(&res, 0xcd, sizeof res);
    if (!tex_warp_sample(F->unit, &r, &res))
        fail_msg("%s: the warp path declined the request", what);
    for (int pass = 0; pass < 2; pass++) {
        for (unsigned l = 0; l < TV_TEX_LANES; l++)
            for (unsigned k = 0; k < 4; k++) {
                float want = (float)(colour[c][k] / 255.0);
                if (res.v[k][l] != fx_u(want))
                    fail_msg("%s (%s): lane %u comp %u = %.9g, want %.9g", what,
                             pass ? "tv_tex_execute" : "warp path", l, k, fx_f(res.v[k][l]),
                             (double)want);
            }
        fx_run(F, &r, &res);
    }
}

static void declined(fx *F, uint32_t handle, const char *what)
{
    tv_tex_request r;
    tv_tex_result res;
    request(&r, handle, 0.5f, 0.5f);
    if (tex_warp_sample(F->unit, &r, &res))
        fail_msg("%s: the warp path took the request", what);
}

/* A rewritten header (another texture's storage) after tv_tex_invalidate. */
static void header_rewrite(void **state)
{
    (void)state;
    fx F;
    fx_init(&F);
    put_rgba8(&F, 0, 4, 4, 1);
    fill(&F, 0, 0, COL_A, COL_A);
    put_rgba8(&F, 1, 4, 4, 1);
    fill(&F, 1, 0, COL_B, COL_B);
    put_point(&F, 0, 0, TV_WRAP_REPEAT);
    uint32_t h = tv_tex_handle(0, 0);
    expect_colour(&F, h, 0.5f, 0.5f, COL_A, "header 0");
    expect_colour(&F, h, 0.5f, 0.5f, COL_A, "header 0 again");
    fx_update_tic(&F, 0, &F.tic[1]);   /* header 0 now describes texture 1's storage */
    expect_colour(&F, h, 0.5f, 0.5f, COL_B, "header 0 rewritten");
    fx_free(&F);
}

/* A rewritten sampler: the minimum LOD clamp moves lambda to level 1 (colour B); a BORDER
 * wrap makes the warp path decline, and REPEAT makes it take the request again. */
static void sampler_rewrite(void **state)
{
    (void)state;
    fx F;
    fx_init(&F);
    uint32_t h = two_levels(&F, COL_A, COL_A, COL_B);
    expect_colour(&F, h, 0.5f, 0.5f, COL_A, "level 0");
    put_point(&F, 0, 256, TV_WRAP_REPEAT);
    expect_colour(&F, h, 0.5f, 0.5f, COL_B, "min LOD clamp 1: level 1");
    put_point(&F, 0, 0, TV_WRAP_BORDER);
    declined(&F, h, "BORDER wrap");
    declined(&F, h, "BORDER wrap again");
    put_point(&F, 0, 0, TV_WRAP_CLAMP_TO_EDGE);
    expect_colour(&F, h, 0.5f, 0.5f, COL_A, "CLAMP_TO_EDGE after BORDER");
    fx_free(&F);
}

/* The memory mapping changes (no invalidate): the view's texels come from the new host
 * buffer. */
static void memory_remap(void **state)
{
    (void)state;
    fx F;
    fx_init(&F);
    put_rgba8(&F, 0, 4, 4, 1);
    fill(&F, 0, 0, COL_A, COL_A);
    put_point(&F, 0, 0, TV_WRAP_REPEAT);
    uint32_t h = tv_tex_handle(0, 0);
    expect_colour(&F, h, 0.5f, 0.5f, COL_A, "first mapping");
    uint8_t *host2 = malloc(FX_SIZE);
    assert_non_null(host2);
    memcpy(host2, F.host, FX_SIZE);     /* same pools, same texels */
    tv_error e;
    assert_int_equal(tv_memory_unmap(F.mem, FX_BASE), TV_OK);
    assert_int_equal(tv_memory_map(F.mem, FX_BASE, host2, FX_SIZE, &e), TV_OK);
    fill(&F, 0, 0, COL_C, COL_C);       /* written to host2 only */
    expect_colour(&F, h, 0.5f, 0.5f, COL_C, "second mapping");
    fx_free(&F);
    free(host2);
}

/* Reference vs hardware precision: the warp path serves the reference precision only
 * (the hardware's arithmetic is tex_hw_filter.c's), so the handle it just took is declined
 * in hardware precision — the memo's answer does not outlive the precision — and taken
 * again after the switch back. */
static void precision_change(void **state)
{
    (void)state;
    fx F;
    fx_init(&F);
    put_rgba8(&F, 0, 4, 4, 1);
    fill(&F, 0, 0, COL_A, COL_B);
    put_point(&F, 0, 0, TV_WRAP_REPEAT);
    uint32_t h = tv_tex_handle(0, 0);
    expect_colour(&F, h, 0.1f, 0.5f, COL_A, "reference precision");
    tv_tex_set_precision(F.unit, TV_TEX_PRECISION_HARDWARE);
    declined(&F, h, "hardware precision");
    tv_tex_set_precision(F.unit, TV_TEX_PRECISION_REFERENCE);
    expect_colour(&F, h, 0.1f, 0.5f, COL_A, "reference precision again");
    fx_free(&F);
}

/* Header-binding mode: handle (sampler 1, header 0) uses sampler 1 (min LOD 1: level 1,
 * colour B) normally and sampler 0 (level 0, colour A) with the header binding. */
static void header_binding(void **state)
{
    (void)state;
    fx F;
    fx_init(&F);
    put_rgba8(&F, 0, 4, 4, 2);
    fill(&F, 0, 0, COL_A, COL_A);
    fill(&F, 0, 1, COL_B, COL_B);
    put_point(&F, 0, 0, TV_WRAP_REPEAT);
    put_point(&F, 1, 256, TV_WRAP_REPEAT);
    uint32_t h = tv_tex_handle(0, 1);
    for (int k = 0; k < 2; k++) {
        tv_tex_set_header_binding(F.unit, false);
        expect_colour(&F, h, 0.5f, 0.5f, COL_B, "sampler 1");
        tv_tex_set_header_binding(F.unit, true);
        expect_colour(&F, h, 0.5f, 0.5f, COL_A, "header binding: sampler 0");
    }
    fx_free(&F);
}

/* Two units with the same handle and different textures, alternately. */
static void two_units(void **state)
{
    (void)state;
    fx F, G;
    fx_init(&F);
    fx_init(&G);
    put_rgba8(&F, 0, 4, 4, 1);
    fill(&F, 0, 0, COL_A, COL_A);
    put_point(&F, 0, 0, TV_WRAP_REPEAT);
    put_rgba8(&G, 0, 4, 4, 1);
    fill(&G, 0, 0, COL_C, COL_C);
    put_point(&G, 0, 0, TV_WRAP_REPEAT);
    uint32_t h = tv_tex_handle(0, 0);
    for (int k = 0; k < 2; k++) {
        expect_colour(&F, h, 0.5f, 0.5f, COL_A, "unit F");
        expect_colour(&G, h, 0.5f, 0.5f, COL_C, "unit G");
    }
    fx_free(&G);
    fx_free(&F);
}

/* The warp path takes request R and every lane's red is colour c's. */
static void red_is(fx *F, const tv_tex_request *r, unsigned c)
{
    tv_tex_result res;
    assert_true(tex_warp_sample(F->unit, r, &res));
    for (unsigned l = 0; l < TV_TEX_LANES; l++)
        assert_int_equal(res.v[0][l], fx_u((float)(colour[c][0] / 255.0)));
}

/* One context (handle, header and sampler unchanged), requests of different shapes in
 * turn: each must be answered for its own op and flags, not the previous request's plan.
 * A 4x4 texture of two levels: level 0 column 0 colour A, the other columns B; level 1
 * colour C. Every request goes through the vectorised kernel. */
static void request_shape(void **state)
{
    (void)state;
    fx F;
    fx_init(&F);
    uint32_t h = two_levels(&F, COL_A, COL_B, COL_C);
    uint64_t vec0 = tex_warp_vec_count();
    unsigned n = 0;
    for (int k = 0; k < 2; k++) {
        expect_colour(&F, h, 0.1f, 0.5f, COL_A, "SAMPLE at s 0.1: level 0, column 0");
        /* projective: s / q = 0.1 / 0.25 = 0.4, column 1 */
        tv_tex_request r;
        request(&r, h, 0.1f, 0.5f);
        r.flags |= TV_TEXF_PROJECTIVE;
        for (unsigned l = 0; l < TV_TEX_LANES; l++)
            r.q[l] = 0.25f;
        red_is(&F, &r, COL_B);
        /* SAMPLE_LOD 1: level 1, colour C */
        request(&r, h, 0.1f, 0.5f);
        r.op = TV_TEX_OP_SAMPLE_LOD;
        for (unsigned l = 0; l < TV_TEX_LANES; l++)
            r.lod[l] = 1.0f;
        red_is(&F, &r, COL_C);
        n += 5;   /* (expect_colour: one warp-path request, two through tv_tex_execute) */
    }
    assert_int_equal(tex_warp_vec_count() - vec0, n);
    fx_free(&F);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(header_rewrite),  cmocka_unit_test(sampler_rewrite),
        cmocka_unit_test(memory_remap),    cmocka_unit_test(precision_change),
        cmocka_unit_test(header_binding),  cmocka_unit_test(two_units),
        cmocka_unit_test(request_shape),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
