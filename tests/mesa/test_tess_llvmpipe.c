/* The tessellator against llvmpipe (issue 17's differential): one patch per case, its
 * levels from uniforms in a tessellation control shader, every evaluation invocation's
 * gl_TessCoord captured by transform feedback in primitive order — once through GL on
 * llvmpipe (which runs the D3D11 reference tessellator) and once from tv_tess_patch. The
 * coordinates, their order and every primitive must be identical, for triangles, quads and
 * isolines, the three spacings, both vertex orders and point mode, over hand-picked and
 * random levels (fractional, clamped, culled). */
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
#include "texvm/tess.h"

enum { MAX_VERTS = 1 << 16 };

static const char *const k_domain_glsl[3] = {"triangles", "quads", "isolines"};
static const char *const k_spacing_glsl[3] = {"equal_spacing", "fractional_odd_spacing",
                                              "fractional_even_spacing"};

typedef struct {
    glref *g;
    GLuint progs[3][3][2][2];  /* domain, spacing, cw, point mode */
    GLuint vao, xfb_buf, query;
} fixture;

static GLuint build(fixture *f, int d, int s, int cw, int pm)
{
    const char *ver = glref_glsl_version_line(f->g);
    char vs[256], tcs[1024], tes[1024];
    snprintf(vs, sizeof vs, "%s\nvoid main() { gl_Position = vec4(0.0); }\n", ver);
    snprintf(tcs, sizeof tcs,
             "%s\nlayout(vertices = 1) out;\nuniform float outer[4];\nuniform float inner[2];\n"
             "void main() {\n"
             "  for (int i = 0; i < 4; i++) gl_TessLevelOuter[i] = outer[i];\n"
             "  for (int i = 0; i < 2; i++) gl_TessLevelInner[i] = inner[i];\n"
             "  gl_out[gl_InvocationID].gl_Position = vec4(0.0);\n}\n",
             ver);
    snprintf(tes, sizeof tes,
             "%s\nlayout(%s, %s, %s%s) in;\nout vec3 tc;\n"
             "void main() { tc = gl_TessCoord; gl_Position = vec4(0.0); }\n",
             ver, k_domain_glsl[d], k_spacing_glsl[s], cw ? "cw" : "ccw",
             pm ? ", point_mode" : "");
    const char *vary[1] = {"tc"};
    GLuint p = glref_program_tess_xfb(f->g, vs, tcs, tes, vary, 1);
    if (!p)
        fail_msg("%s", glref_error(f->g));
    return p;
}

/* llvmpipe's coordinates for one patch: returns the vertex count */
static int gl_patch(fixture *f, int d, int s, int cw, int pm, const float outer[4],
                    const float inner[2], float *out)
{
    GLuint p = f->progs[d][s][cw][pm];
    if (!p)
        p = f->progs[d][s][cw][pm] = build(f, d, s, cw, pm);
    glUseProgram(p);
    assert_true(glref_uniform(f->g, p, "outer", (const uint32_t *)(const void *)outer, 4));
    assert_true(glref_uniform(f->g, p, "inner", (const uint32_t *)(const void *)inner, 2));
    GLenum prim = pm ? GL_POINTS : d == 2 ? GL_LINES : GL_TRIANGLES;
    int per = pm ? 1 : d == 2 ? 2 : 3;
    glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, f->xfb_buf);
    glEnable(GL_RASTERIZER_DISCARD);
    glBeginQuery(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, f->query);
    glBeginTransformFeedback(prim);
    glDrawArrays(GL_PATCHES, 0, 1);
    glEndTransformFeedback();
    glEndQuery(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN);
    glDisable(GL_RASTERIZER_DISCARD);
    GLuint prims = 0;
    glGetQueryObjectuiv(f->query, GL_QUERY_RESULT, &prims);
    int n = (int)prims * per;
    assert_true(n <= MAX_VERTS);
    glGetBufferSubData(GL_TRANSFORM_FEEDBACK_BUFFER, 0, (GLsizeiptr)n * 12, out);
    assert_int_equal(glGetError(), GL_NO_ERROR);
    return n;
}

static const tv_tess_domain k_dom[3] = {TV_TESS_TRIANGLES, TV_TESS_QUADS, TV_TESS_ISOLINES};
static const tv_tess_spacing k_sp[3] = {TV_TESS_EQUAL, TV_TESS_FRACTIONAL_ODD,
                                        TV_TESS_FRACTIONAL_EVEN};

static int compare(fixture *f, int d, int s, int cw, int pm, const float outer[4],
                   const float inner[2], float *ref)
{
    int n = gl_patch(f, d, s, cw, pm, outer, inner, ref);
    tv_tess_result r;
    assert_true(tv_tess_patch(k_dom[d], k_sp[s], cw, pm, outer, inner, &r));
    int bad = 0;
    if ((int)r.num_indices != n) {
        print_message("%s %s %s%s outer %g %g %g %g inner %g %g: %d vertices, llvmpipe %d\n",
                      k_domain_glsl[d], k_spacing_glsl[s], cw ? "cw" : "ccw",
                      pm ? " point_mode" : "", outer[0], outer[1], outer[2], outer[3],
                      inner[0], inner[1], r.num_indices, n);
        bad = 1;
    } else {
        for (int i = 0; i < n && !bad; i++) {
            assert_true(r.indices[i] < r.num_points);
            tv_tess_point pt = r.points[r.indices[i]];
            float w = d == 0 ? 1.0f - pt.u - pt.v : 0.0f;
            const float *g = ref + 3 * i;
            if (memcmp(&pt.u, &g[0], 4) || memcmp(&pt.v, &g[1], 4) || memcmp(&w, &g[2], 4)) {
                print_message("%s %s %s%s outer %g %g %g %g inner %g %g: vertex %d is "
                              "(%.9g %.9g %.9g), llvmpipe (%.9g %.9g %.9g)\n",
                              k_domain_glsl[d], k_spacing_glsl[s], cw ? "cw" : "ccw",
                              pm ? " point_mode" : "", outer[0], outer[1], outer[2],
                              outer[3], inner[0], inner[1], i, pt.u, pt.v, w, g[0], g[1],
                              g[2]);
                bad = 1;
            }
        }
    }
    tv_tess_result_free(&r);
    return bad;
}

static uint32_t rng = 1234567;

static const float k_levels[] = {0.5f, 1.0f, 1.25f, 1.5f, 2.0f, 2.2f, 3.0f, 3.7f, 4.0f,
                                 5.5f, 6.0f, 7.0f, 8.0f, 9.99f, 13.3f, 16.0f, 31.9f, 33.0f,
                                 47.25f, 63.5f, 64.0f, 80.0f};

static float random_level(void)
{
    uint32_t k = diff_rand(&rng) % 24;
    if (k < sizeof k_levels / sizeof k_levels[0])
        return k_levels[k];
    return 1.0f + (float)(diff_rand(&rng) % 4096) / 64.0f;  /* anything in [1, 65) on a 1/64 grid */
}

static void test_tessellator_against_llvmpipe(void **state)
{
    (void)state;
    fixture f;
    memset(&f, 0, sizeof f);
    f.g = lp_open_or_skip();
    if (glref_gl_version(f.g) < 40) {
        glref_destroy(f.g);
        print_message("skipped: llvmpipe offers no GL 4.0\n");
        skip();
    }
    GLenum fmt = GL_RGBA32F;
    assert_true(glref_framebuffer(f.g, 1, 1, 1, &fmt));  /* draws need a complete one */
    glGenVertexArrays(1, &f.vao);
    glBindVertexArray(f.vao);
    glGenBuffers(1, &f.xfb_buf);
    glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, f.xfb_buf);
    glBufferData(GL_TRANSFORM_FEEDBACK_BUFFER, (GLsizeiptr)MAX_VERTS * 12, NULL,
                 GL_STREAM_READ);
    glGenQueries(1, &f.query);
    glPatchParameteri(GL_PATCH_VERTICES, 1);
    float *ref = malloc((size_t)MAX_VERTS * 12);
    assert_non_null(ref);
    int cases = 0, bad = 0;
    static const float fixed[][6] = {
        {1, 1, 1, 1, 1, 1},       {2, 2, 2, 2, 2, 2},     {3, 3, 3, 3, 3, 3},
        {4, 1, 1, 1, 1, 1},       {1, 1, 1, 1, 4, 4},     {1, 1, 1, 1, 5, 2},
        {2, 3, 4, 5, 6, 7},       {7, 6, 5, 4, 3, 2},     {64, 64, 64, 64, 64, 64},
        {0, 1, 1, 1, 1, 1},       {1, 0, 1, 1, 1, 1},     {-1, 2, 2, 2, 2, 2},
        {NAN, 2, 2, 2, 2, 2},     {2, 2, 2, 2, NAN, NAN}, {100, 100, 100, 100, 0.1f, 0.1f},
        {1.5f, 2.5f, 3.5f, 4.5f, 5.5f, 6.5f},             {1, 1, 1, 1, 1.00001f, 1},
    };
    for (int d = 0; d < 3; d++)
        for (int s = 0; s < 3; s++)
            for (int cw = 0; cw < 2; cw++)
                for (int pm = 0; pm < 2; pm++) {
                    for (size_t k = 0; k < sizeof fixed / sizeof fixed[0]; k++) {
                        bad += compare(&f, d, s, cw, pm, fixed[k], fixed[k] + 4, ref);
                        cases++;
                    }
                    for (int k = 0; k < 12; k++) {
                        float o[4], in[2];
                        for (int j = 0; j < 4; j++)
                            o[j] = random_level();
                        for (int j = 0; j < 2; j++)
                            in[j] = random_level();
                        bad += compare(&f, d, s, cw, pm, o, in, ref);
                        cases++;
                    }
                }
    print_message("%d patches compared, %d differ\n", cases, bad);
    free(ref);
    glref_destroy(f.g);
    assert_int_equal(bad, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tessellator_against_llvmpipe),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
#else

int main(void)
{
    return lp_main_without_glref();
}

#endif
