/* Draws against llvmpipe (issue 16's acceptance): random triangles — vertices on the
 * 1/256-pixel grid, many exactly on pixel centres and sharing edges, so fill-rule ties are
 * common — drawn by llvmpipe through GL (tools/glref, a 64x64 FBO) and by texvm's pipe
 * layer (tv_pipe_draw_vbo) with the same clip-space positions and viewport. Which pixels
 * each triangle inside the viewport lights must be identical (llvmpipe clips triangles
 * reaching outside at the viewport, moving their edges by rounding; texvm rasterises them
 * whole inside its guard band, the D3D10 rule: counted apart); stored depths are compared
 * and counted (exact, within 1 ulp, further), the figures printed. GL's FBO rows run y up and texvm's
 * viewport here does not flip, so a row index is the same window y in both. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "llvmpipe_fixture.h"

#ifdef TEXVM_HAVE_GLREF
#include "diff.h"
#include "glref.h"
#include "texvm/pipe.h"

enum { S = 64, TRIS = 400 };
enum { RT = 1, ZS = 2, VB = 3, SURF = 10, ZSURF = 11, VSH = 20, FSH = 21 };

static const char vs_tgsi[] = "VERT\nDCL IN[0]\nDCL OUT[0], POSITION\n  0: MOV OUT[0], IN[0]\n"
                              "  1: END\n";
static const char fs_tgsi[] = "FRAG\nDCL OUT[0], COLOR\nIMM[0] FLT32 {1.0, 1.0, 1.0, 1.0}\n"
                              "  0: MOV OUT[0], IMM[0]\n  1: END\n";

static uint32_t rng = 12345;

/* A window coordinate: a pixel centre, a pixel corner, or any 1/256 step. */
static float coord(void)
{
    int base = (int)(diff_rand(&rng) % (S + 8)) - 4;
    switch (diff_rand(&rng) % 3) {
    case 0: return (float)base + 0.5f;
    case 1: return (float)base;
    default: return (float)base + (float)(diff_rand(&rng) % 256) / 256.0f;
    }
}

static tv_pipe_ctx *texvm_scene(void)
{
    tv_pipe_ctx *ctx = tv_pipe_create(0);
    tv_pipe_resource_desc rt = {2, 31 /* R32G32B32A32_FLOAT */, 2, S, S, 1, 1, 0, 0};
    tv_pipe_resource_desc zs = {2, 18 /* Z32_FLOAT */, 1, S, S, 1, 1, 0, 0};
    assert_int_equal(tv_pipe_resource_create(ctx, RT, &rt), 0);
    assert_int_equal(tv_pipe_resource_create(ctx, ZS, &zs), 0);
    assert_int_equal(tv_pipe_surface_create(ctx, SURF, RT, 31, 0, 0, 0), 0);
    assert_int_equal(tv_pipe_surface_create(ctx, ZSURF, ZS, 18, 0, 0, 0), 0);
    uint32_t cb = SURF;
    assert_int_equal(tv_pipe_set_framebuffer(ctx, 1, &cb, ZSURF), 0);
    static const lp_tv_shader sh[2] = {{VSH, TV_PIPE_STAGE_VERTEX, vs_tgsi},
                                       {FSH, TV_PIPE_STAGE_FRAGMENT, fs_tgsi}};
    lp_tv_shaders(ctx, 2, sh);
    lp_tv_viewport(ctx, S);
    tv_pipe_dsa_state dsa;
    memset(&dsa, 0, sizeof dsa);
    dsa.depth_enabled = dsa.depth_writemask = true;
    dsa.depth_func = 7; /* ALWAYS: every fragment stores its depth, as glref's does */
    assert_int_equal(tv_pipe_set_dsa(ctx, &dsa), 0);
    return ctx;
}

/* the draw's occlusion count (samples passing the depth test: every one, test ALWAYS) */
static uint64_t texvm_samples;

static void texvm_draw(tv_pipe_ctx *ctx, const float pos[3][4], bool bottom_rule,
                       uint8_t *cov, float *depth)
{
    const uint32_t zero[4] = {0, 0, 0, 0};
    assert_int_equal(tv_pipe_clear(ctx, TV_PIPE_CLEAR_COLOR0 | TV_PIPE_CLEAR_DEPTH, zero, 1.0, 0),
                     0);
    tv_pipe_resource_destroy(ctx, VB);
    lp_tv_vertices(ctx, VB, pos[0], 3, 1);
    tv_pipe_rasterizer_state r;
    tv_pipe_rasterizer_default(&r);
    r.bottom_edge_rule = bottom_rule;
    assert_int_equal(tv_pipe_set_rasterizer(ctx, &r), 0);
    tv_pipe_object_destroy(ctx, TV_PIPE_OBJ_QUERY, 90);
    assert_int_equal(tv_pipe_query_create(ctx, 90, TV_PIPE_QUERY_OCCLUSION_COUNTER, 0), 0);
    assert_int_equal(tv_pipe_begin_query(ctx, 90), 0);
    lp_tv_draw(ctx, 4, 3, 1, 0);
    assert_int_equal(tv_pipe_end_query(ctx, 90), 0);
    assert_int_equal(tv_pipe_query_result(ctx, 90, &texvm_samples), 0);
    const float *c = (const float *)(const void *)tv_pipe_resource_data(ctx, RT);
    const float *z = (const float *)(const void *)tv_pipe_resource_data(ctx, ZS);
    for (int i = 0; i < S * S; i++) {
        cov[i] = c[4 * i] == 1.0f;
        depth[i] = z[i];
    }
}

/* A random triangle (window -> NDC exactly: powers of two; z on a 1/1024 grid) into POS,
 * drawn by llvmpipe into a cleared target and depth buffer, read back into RGBA / DEPTH. */
static GLuint gl_samples;           /* the draw's GL_SAMPLES_PASSED */

static void gl_random_triangle(glref *g, GLuint prog, float pos[3][4], float *rgba,
                               float *depth)
{
    float corners[16] = {0};
    for (int v = 0; v < 3; v++) {
        pos[v][0] = coord() / (S / 2.0f) - 1.0f;
        pos[v][1] = coord() / (S / 2.0f) - 1.0f;
        pos[v][2] = (float)((int)(diff_rand(&rng) % 2049) - 1024) / 1024.0f;
        pos[v][3] = 1.0f;
        memcpy(corners + 4 * v, pos[v], 16);
    }
    const uint32_t zero[4] = {0, 0, 0, 0};
    assert_true(glref_clear(g, 0, zero));
    assert_true(glref_framebuffer_depth(g, 1.0f, true));
    assert_true(glref_set_attrib(g, 0, corners));
    GLuint q;
    glGenQueries(1, &q);
    glBeginQuery(GL_SAMPLES_PASSED, q);
    assert_true(glref_draw_prims(g, prog, GL_TRIANGLES, 3));
    glEndQuery(GL_SAMPLES_PASSED);
    glGetQueryObjectuiv(q, GL_QUERY_RESULT, &gl_samples);
    glDeleteQueries(1, &q);
    assert_true(glref_read(g, 0, rgba));
    assert_true(glref_read_depth(g, depth));
}

static unsigned ulps(float a, float b)
{
    int32_t ia, ib;
    memcpy(&ia, &a, 4);
    memcpy(&ib, &b, 4);
    return (unsigned)abs(ia - ib);
}

static void test_triangles_against_llvmpipe(void **state)
{
    (void)state;
    glref *g = lp_open_or_skip();
    GLenum fmt = GL_RGBA32F;
    assert_true(glref_framebuffer(g, S, S, 1, &fmt));
    assert_true(glref_framebuffer_depth(g, 1.0f, true));
    char vs[256], fs[256];
    snprintf(vs, sizeof vs, "%s\nlayout(location = 0) in vec4 p;\nvoid main() { gl_Position = p; }\n",
             glref_glsl_version_line(g));
    snprintf(fs, sizeof fs, "%s\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n",
             glref_glsl_version_line(g));
    GLuint prog = glref_program(g, vs, fs);
    assert_true(prog != 0);
    tv_pipe_ctx *ctx = texvm_scene();
    static float gl_rgba[S * S * 4], gl_depth[S * S], tv_depth[2][S * S];
    static uint8_t tv_cov[2][S * S];
    unsigned pixels = 0, rule_miss[2] = {0, 0}, exact = 0, one_ulp = 0, worse = 0;
    unsigned crossing = 0, cross_pixels = 0, cross_miss = 0, count_miss[2] = {0, 0};
    float worst = 0;
    for (int t = 0; t < TRIS; t++) {
        float pos[3][4];
        gl_random_triangle(g, prog, pos, gl_rgba, gl_depth);
        uint64_t samples[2];
        for (int rule = 0; rule < 2; rule++) {
            texvm_draw(ctx, (const float(*)[4])pos, rule == 1, tv_cov[rule], tv_depth[rule]);
            samples[rule] = texvm_samples;
        }
        /* llvmpipe clips at the viewport; texvm rasterises the whole triangle inside its
         * guard band (the D3D10 rule): triangles reaching outside are counted apart */
        bool inside = true;
        for (int v = 0; v < 3; v++)
            inside = inside && fabsf(pos[v][0]) <= 1.0f && fabsf(pos[v][1]) <= 1.0f;
        crossing += !inside;
        if (inside)
            for (int rule = 0; rule < 2; rule++)
                count_miss[rule] += samples[rule] != gl_samples;
        for (int i = 0; i < S * S; i++) {
            bool lit = gl_rgba[4 * i] == 1.0f;
            if (!inside) {
                cross_pixels += lit;
                cross_miss += lit != tv_cov[0][i];
                continue;
            }
            pixels += lit;
            for (int rule = 0; rule < 2; rule++)
                rule_miss[rule] += lit != tv_cov[rule][i];
            if (getenv("DRAW_DEBUG") && lit != tv_cov[0][i] && inside)
                printf("tri %d pixel (%d,%d) gl %d texvm %d: (%.8f %.8f) (%.8f %.8f) (%.8f %.8f)\n",
                       t, i % S, i / S, lit, tv_cov[0][i],
                       (pos[0][0] + 1) * 32, (pos[0][1] + 1) * 32, (pos[1][0] + 1) * 32,
                       (pos[1][1] + 1) * 32, (pos[2][0] + 1) * 32, (pos[2][1] + 1) * 32);
        }
    }
    /* the rule that matches: GL's FBO reaches the rasteriser as Gallium's top-left rows */
    unsigned rule = rule_miss[1] <= rule_miss[0] ? 1 : 0;
    /* depths of the matching rule, from a second pass over fresh triangles */
    rng = 777;
    for (int t = 0; t < TRIS / 4; t++) {
        float pos[3][4];
        gl_random_triangle(g, prog, pos, gl_rgba, gl_depth);
        texvm_draw(ctx, (const float(*)[4])pos, rule == 1, tv_cov[0], tv_depth[0]);
        bool inside = true;
        for (int v = 0; v < 3; v++)
            inside = inside && fabsf(pos[v][0]) <= 1.0f && fabsf(pos[v][1]) <= 1.0f;
        for (int i = 0; i < S * S && inside; i++) {
            if (gl_rgba[4 * i] != 1.0f || !tv_cov[0][i])
                continue;
            unsigned u = ulps(gl_depth[i], tv_depth[0][i]);
            exact += u == 0;
            one_ulp += u == 1;
            worse += u > 1;
            float d = fabsf(gl_depth[i] - tv_depth[0][i]);
            worst = d > worst ? d : worst;
        }
    }
    printf("draws vs llvmpipe: %d triangles inside the viewport, %u lit pixels; coverage "
           "mismatches: top-left rule %u, bottom-edge rule %u\n", TRIS - crossing, pixels,
           rule_miss[0], rule_miss[1]);
    printf("  %u triangles reaching outside the viewport (llvmpipe clips them there, texvm "
           "does not): %u of %u lit pixels differ\n", crossing, cross_miss, cross_pixels);
    printf("  depth of the inside triangles of %d more: %u exact, %u within 1 ulp, %u "
           "further (largest difference %g)\n", TRIS / 4, exact, one_ulp, worse,
           (double)worst);
    assert_true(pixels > 10000);
    /* coverage: identical under the rule GL's y-up window space gives */
    assert_int_equal(rule_miss[rule], 0);
    /* occlusion counts of the triangles inside: GL_SAMPLES_PASSED against texvm's counter */
    printf("  occlusion counts of the inside triangles differing from llvmpipe: %u\n",
           count_miss[rule]);
    assert_int_equal(count_miss[rule], 0);
    assert_true(rule_miss[1 - rule] > 0);   /* the ties did happen */
    /* depth: texvm evaluates the plane in float64 from the window vertices, llvmpipe in
     * float32 from its set-up: a few ulps apart (docs/fidelity-pipeline.md §1) */
    assert_true(worst <= 4e-6f);
    assert_true(exact > worse);
    tv_pipe_destroy(ctx);
    glref_program_delete(g, prog);
    glref_destroy(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_triangles_against_llvmpipe),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

#else

int main(void)
{
    return lp_main_without_glref();
}

#endif
