/* Geometry shaders against llvmpipe (issue 17's differential): 300 random triangles inside
 * the viewport, each with its own vertex colours, drawn in one draw through a geometry
 * shader that emits the triangle (colours per vertex, alpha = gl_PrimitiveIDIn / 512) and
 * then a second one shrunk towards its first vertex (inverted colours), both read flat by
 * the fragment shader — once by llvmpipe through GL (GLSL 1.50 shaders, tools/glref, a
 * 64x64 RGBA32F FBO) and once by texvm's pipe layer with the same program written in
 * TGSI. Every pixel must be identical: amplification, output order (later primitives
 * overwrite earlier ones), strip assembly, the provoking vertex (GL's last by default) and
 * the primitive ID. The shrunk vertices (v + v0) * 0.5 are exact in float for these
 * positions (multiples of 2^-13 in [-1, 1]), so both sides rasterise the same edges. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "llvmpipe_fixture.h"

#ifdef TEXVM_HAVE_GLREF
#include "glref.h"
#include "texvm/pipe.h"

#include "diff.h"
#include "gs_shrink.h"

enum { S = 64, TRIS = 300 };
enum { RT = 1, VB = 3, SURF = 10, VSH = 20, FSH = 21, GSH = 22 };

static const char vs_tgsi[] = "VERT\nDCL IN[0]\nDCL IN[1]\nDCL OUT[0], POSITION\n"
                              "DCL OUT[1], GENERIC[0]\nMOV OUT[0], IN[0]\nMOV OUT[1], IN[1]\n"
                              "END\n";
static const char fs_tgsi[] = "FRAG\nDCL IN[0], GENERIC[0], CONSTANT\nDCL OUT[0], COLOR\n"
                              "MOV OUT[0], IN[0]\nEND\n";

static const char vs_glsl[] =
    "layout(location = 0) in vec4 p;\nlayout(location = 1) in vec4 c;\nout vec4 vcol;\n"
    "void main() { gl_Position = p; vcol = c; }\n";
static const char fs_glsl[] = "flat in vec4 col;\nout vec4 o;\nvoid main() { o = col; }\n";

static void texvm_draw(const float *mesh, float *out)
{
    tv_pipe_ctx *ctx = tv_pipe_create(0);
    assert_non_null(ctx);
    lp_tv_rgba32f_target(ctx, RT, SURF, S, 1);
    static const lp_tv_shader sh[3] = {{VSH, TV_PIPE_STAGE_VERTEX, vs_tgsi},
                                       {GSH, TV_PIPE_STAGE_GEOMETRY, gs_tgsi},
                                       {FSH, TV_PIPE_STAGE_FRAGMENT, fs_tgsi}};
    lp_tv_shaders(ctx, 3, sh);
    lp_tv_viewport(ctx, S);
    lp_tv_vertices(ctx, VB, mesh, TRIS * 3, 2);
    const uint32_t zero[4] = {0, 0, 0, 0};
    assert_int_equal(tv_pipe_clear(ctx, TV_PIPE_CLEAR_COLOR0, zero, 1.0, 0), 0);
    lp_tv_draw(ctx, 4, TRIS * 3, 1, 0);
    memcpy(out, tv_pipe_resource_data(ctx, RT), (size_t)S * S * 16);
    tv_pipe_destroy(ctx);
}

static void test_geometry_shader_against_llvmpipe(void **state)
{
    (void)state;
    glref *g = lp_open_or_skip();
    GLenum fmt = GL_RGBA32F;
    assert_true(glref_framebuffer(g, S, S, 1, &fmt));
    char vs[512], gs[1024], fs[256];
    const char *ver = glref_glsl_version_line(g);
    snprintf(vs, sizeof vs, "%s\n%s", ver, vs_glsl);
    snprintf(gs, sizeof gs, "%s\n%s", ver, gs_glsl);
    snprintf(fs, sizeof fs, "%s\n%s", ver, fs_glsl);
    GLuint prog = glref_program_gs(g, vs, gs, fs);
    if (!prog)
        fail_msg("%s", glref_error(g));
    static float mesh[TRIS * 3 * 8];
    uint32_t rng = 4242;
    lp_random_mesh(&rng, mesh, TRIS * 3, S);
    const uint32_t zero[4] = {0, 0, 0, 0};
    assert_true(glref_clear(g, 0, zero));
    assert_true(glref_mesh(g, mesh, TRIS * 3));
    assert_true(glref_draw_mesh(g, prog, GL_TRIANGLES, TRIS * 3, 0, false));
    static float gl[S * S * 4], tv[S * S * 4];
    assert_true(glref_read(g, 0, gl));
    texvm_draw(mesh, tv);
    int lit = 0, shrunk = 0, differ = lp_rgba32f_differ(gl, tv, S, 1);
    for (int i = 0; i < S * S; i++) {
        lit += gl[4 * i + 3] != 0.0f;
        shrunk += gl[4 * i + 3] == 1.0f;
    }
    print_message("geometry shader: %d triangles -> %d, %d of %d pixels lit (%d by shrunk "
                  "copies), %d differ from llvmpipe\n", TRIS, 2 * TRIS, lit, S * S, shrunk,
                  differ);
    assert_true(lit > S * S / 2);
    assert_int_equal(differ, 0);
    glref_program_delete(g, prog);
    glref_destroy(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_geometry_shader_against_llvmpipe),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

#else

int main(void)
{
    return lp_main_without_glref();
}

#endif
