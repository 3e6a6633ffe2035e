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

#ifdef TEXVM_HAVE_GLREF
#include "glref.h"
#include "texvm/pipe.h"

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

static uint32_t rng = 4242;
static uint32_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 17;
    rng ^= rng << 5;
    return rng;
}

/* vertices: position (NDC from a window coordinate on the 1/256 grid inside the target)
 * and colour (multiples of 1/256) */
static void random_mesh(float *v)
{
    for (int i = 0; i < TRIS * 3; i++) {
        float *p = v + 8 * i;
        for (int k = 0; k < 2; k++)
            p[k] = (float)(next() % (S * 256 + 1)) / 256.0f / (S / 2.0f) - 1.0f;
        p[2] = 0.0f;
        p[3] = 1.0f;
        for (int k = 0; k < 3; k++)
            p[4 + k] = (float)(next() % 257) / 256.0f;
        p[7] = 1.0f;
    }
}

static void texvm_draw(const float *mesh, float *out)
{
    tv_pipe_ctx *ctx = tv_pipe_create(0);
    assert_non_null(ctx);
    tv_pipe_resource_desc rt = {2, 31 /* R32G32B32A32_FLOAT */, 2, S, S, 1, 1, 0, 0};
    assert_int_equal(tv_pipe_resource_create(ctx, RT, &rt), 0);
    assert_int_equal(tv_pipe_surface_create(ctx, SURF, RT, 31, 0, 0, 0), 0);
    uint32_t cb = SURF;
    assert_int_equal(tv_pipe_set_framebuffer(ctx, 1, &cb, 0), 0);
    assert_int_equal(tv_pipe_shader_create(ctx, VSH, TV_PIPE_STAGE_VERTEX, vs_tgsi,
                                           sizeof vs_tgsi), 0);
    assert_int_equal(tv_pipe_shader_create(ctx, GSH, TV_PIPE_STAGE_GEOMETRY, gs_tgsi,
                                           sizeof gs_tgsi), 0);
    assert_int_equal(tv_pipe_shader_create(ctx, FSH, TV_PIPE_STAGE_FRAGMENT, fs_tgsi,
                                           sizeof fs_tgsi), 0);
    assert_int_equal(tv_pipe_bind_shader(ctx, TV_PIPE_STAGE_VERTEX, VSH), 0);
    assert_int_equal(tv_pipe_bind_shader(ctx, TV_PIPE_STAGE_GEOMETRY, GSH), 0);
    assert_int_equal(tv_pipe_bind_shader(ctx, TV_PIPE_STAGE_FRAGMENT, FSH), 0);
    tv_pipe_viewport vp = {{S / 2.0f, S / 2.0f, 0.5f}, {S / 2.0f, S / 2.0f, 0.5f}};
    assert_int_equal(tv_pipe_set_viewports(ctx, 0, 1, &vp), 0);
    tv_pipe_vertex_element ve[2] = {{0, 0, 0, 31}, {16, 0, 0, 31}};
    assert_int_equal(tv_pipe_set_vertex_elements(ctx, 2, ve), 0);
    uint32_t bytes = TRIS * 3 * 32;
    tv_pipe_resource_desc b = {0, 64, 16, bytes, 1, 1, 1, 0, 0};
    assert_int_equal(tv_pipe_resource_create(ctx, VB, &b), 0);
    tv_pipe_box box = {0, 0, 0, bytes, 1, 1};
    assert_int_equal(tv_pipe_transfer_write(ctx, VB, 0, &box, mesh, bytes, 0, 0, 0), 0);
    tv_pipe_vertex_buffer vb = {32, 0, VB};
    assert_int_equal(tv_pipe_set_vertex_buffers(ctx, 0, 1, &vb), 0);
    const uint32_t zero[4] = {0, 0, 0, 0};
    assert_int_equal(tv_pipe_clear(ctx, TV_PIPE_CLEAR_COLOR0, zero, 1.0, 0), 0);
    tv_pipe_draw_info info;
    memset(&info, 0, sizeof info);
    info.mode = 4;
    info.count = TRIS * 3;
    info.instance_count = 1;
    if (tv_pipe_draw_vbo(ctx, &info))
        fail_msg("draw_vbo: %s", tv_pipe_error(ctx));
    memcpy(out, tv_pipe_resource_data(ctx, RT), (size_t)S * S * 16);
    tv_pipe_destroy(ctx);
}

static void test_geometry_shader_against_llvmpipe(void **state)
{
    (void)state;
    char err[256];
    glref *g = glref_create("llvmpipe", 0, err, sizeof err);
    if (!g) {
        print_message("skipped: %s\n", err);
        skip();
    }
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
    random_mesh(mesh);
    const uint32_t zero[4] = {0, 0, 0, 0};
    assert_true(glref_clear(g, 0, zero));
    assert_true(glref_mesh(g, mesh, TRIS * 3));
    assert_true(glref_draw_mesh(g, prog, GL_TRIANGLES, TRIS * 3, 0, false));
    static float gl[S * S * 4], tv[S * S * 4];
    assert_true(glref_read(g, 0, gl));
    texvm_draw(mesh, tv);
    int lit = 0, shrunk = 0, differ = 0;
    for (int i = 0; i < S * S; i++) {
        lit += gl[4 * i + 3] != 0.0f;
        shrunk += gl[4 * i + 3] == 1.0f;
        if (memcmp(gl + 4 * i, tv + 4 * i, 16)) {
            if (differ < 5)
                print_message("pixel (%d, %d): llvmpipe %g %g %g %g, texvm %g %g %g %g\n", i % S,
                              i / S, gl[4 * i], gl[4 * i + 1], gl[4 * i + 2], gl[4 * i + 3],
                              tv[4 * i], tv[4 * i + 1], tv[4 * i + 2], tv[4 * i + 3]);
            differ++;
        }
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

static void test_no_gl(void **state)
{
    (void)state;
    skip();
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_no_gl)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}

#endif
