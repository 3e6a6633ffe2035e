/* Layered rendering against llvmpipe (issue 17's differential): 240 random triangles
 * (positions on the 1/256-pixel grid inside the target, colours multiples of 1/256) drawn
 * in one draw through a geometry shader that sends each triangle to layer PRIM_ID % 3 of a
 * 3-layer 48x48 RGBA32F 2D-array framebuffer (colour with the primitive ID in alpha) — by
 * llvmpipe through GL (GLSL 1.50, gl_Layer) and by texvm's pipe layer with the same program
 * in TGSI (the LAYER output). Every pixel of every layer must be identical. (A layer past
 * the framebuffer's is undefined in GL: llvmpipe draws into the last layer, texvm draws
 * nothing; tests/pipe/test_draw_gs.c checks texvm's.) */
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
#include "diff.h"
#include "glref.h"
#include "texvm/pipe.h"

enum { S = 48, LAYERS = 3, TRIS = 240 };
enum { ARR = 1, VB = 3, SURF = 10, VSH = 20, FSH = 21, GSH = 22 };

static const char vs_tgsi[] = "VERT\nDCL IN[0]\nDCL IN[1]\nDCL OUT[0], POSITION\n"
                              "DCL OUT[1], GENERIC[0]\nMOV OUT[0], IN[0]\nMOV OUT[1], IN[1]\n"
                              "END\n";
static const char fs_tgsi[] = "FRAG\nDCL IN[0], GENERIC[0], CONSTANT\nDCL OUT[0], COLOR\n"
                              "MOV OUT[0], IN[0]\nEND\n";
static const char gs_tgsi[] =
    "GEOM\n"
    "PROPERTY GS_INPUT_PRIMITIVE TRIANGLES\n"
    "PROPERTY GS_OUTPUT_PRIMITIVE TRIANGLE_STRIP\n"
    "PROPERTY GS_MAX_OUTPUT_VERTICES 3\n"
    "PROPERTY GS_INVOCATIONS 1\n"
    "DCL IN[][0], POSITION\n"
    "DCL IN[][1], GENERIC[0]\n"
    "DCL SV[0], PRIM_ID\n"
    "DCL OUT[0], POSITION\n"
    "DCL OUT[1], GENERIC[0]\n"
    "DCL OUT[2], LAYER\n"
    "DCL TEMP[0..1]\n"
    "IMM[0] FLT32 {0.001953125, 0.0, 0.0, 0.0}\n"
    "IMM[1] UINT32 {0, 3, 0, 0}\n"
    "U2F TEMP[0].x, SV[0].xxxx\n"
    "MUL TEMP[0].x, TEMP[0].xxxx, IMM[0].xxxx\n"
    "UMOD TEMP[1].x, SV[0].xxxx, IMM[1].yyyy\n"
    "MOV OUT[0], IN[0][0]\nMOV OUT[1].xyz, IN[0][1]\nMOV OUT[1].w, TEMP[0].xxxx\n"
    "MOV OUT[2].x, TEMP[1].xxxx\nEMIT IMM[1].xxxx\n"
    "MOV OUT[0], IN[1][0]\nMOV OUT[1].xyz, IN[1][1]\nMOV OUT[1].w, TEMP[0].xxxx\n"
    "MOV OUT[2].x, TEMP[1].xxxx\nEMIT IMM[1].xxxx\n"
    "MOV OUT[0], IN[2][0]\nMOV OUT[1].xyz, IN[2][1]\nMOV OUT[1].w, TEMP[0].xxxx\n"
    "MOV OUT[2].x, TEMP[1].xxxx\nEMIT IMM[1].xxxx\n"
    "ENDPRIM IMM[1].xxxx\n"
    "END\n";

static const char vs_glsl[] =
    "layout(location = 0) in vec4 p;\nlayout(location = 1) in vec4 c;\nout vec4 vcol;\n"
    "void main() { gl_Position = p; vcol = c; }\n";
static const char gs_glsl[] =
    "layout(triangles) in;\nlayout(triangle_strip, max_vertices = 3) out;\n"
    "in vec4 vcol[];\nflat out vec4 col;\n"
    "void main() {\n"
    "  float a = float(gl_PrimitiveIDIn) * 0.001953125;\n"
    "  for (int i = 0; i < 3; i++) {\n"
    "    gl_Position = gl_in[i].gl_Position; col = vec4(vcol[i].rgb, a);\n"
    "    gl_Layer = gl_PrimitiveIDIn % 3; EmitVertex();\n"
    "  }\n"
    "  EndPrimitive();\n"
    "}\n";
static const char fs_glsl[] = "flat in vec4 col;\nout vec4 o;\nvoid main() { o = col; }\n";

/* llvmpipe into its own layered framebuffer; OUT gets the layers one after the other */
static void gl_draw(glref *g, const float *mesh, float *out)
{
    static const GLenum types[3] = {GL_VERTEX_SHADER, GL_GEOMETRY_SHADER, GL_FRAGMENT_SHADER};
    const char *const texts[3] = {vs_glsl, gs_glsl, fs_glsl};
    lp_gl_program(g, 3, types, texts, NULL, 0);
    GLuint tex, fbo, rfbo;
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D_ARRAY, tex);
    glTexStorage3D(GL_TEXTURE_2D_ARRAY, 1, GL_RGBA32F, S, S, LAYERS);
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferTexture(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, tex, 0);
    assert_int_equal(glCheckFramebufferStatus(GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);
    glViewport(0, 0, S, S);
    const float zero[4] = {0, 0, 0, 0};
    glClearBufferfv(GL_COLOR, 0, zero);
    lp_gl_vertices(mesh, TRIS * 3, 2);
    glDrawArrays(GL_TRIANGLES, 0, TRIS * 3);
    glGenFramebuffers(1, &rfbo);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, rfbo);
    for (int l = 0; l < LAYERS; l++) {
        glFramebufferTextureLayer(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, tex, 0, l);
        glReadPixels(0, 0, S, S, GL_RGBA, GL_FLOAT, out + (size_t)l * S * S * 4);
    }
    assert_int_equal(glGetError(), GL_NO_ERROR);
}

static void texvm_draw(const float *mesh, float *out)
{
    tv_pipe_ctx *ctx = tv_pipe_create(0);
    assert_non_null(ctx);
    lp_tv_rgba32f_target(ctx, ARR, SURF, S, LAYERS);
    static const lp_tv_shader sh[3] = {{VSH, TV_PIPE_STAGE_VERTEX, vs_tgsi},
                                       {GSH, TV_PIPE_STAGE_GEOMETRY, gs_tgsi},
                                       {FSH, TV_PIPE_STAGE_FRAGMENT, fs_tgsi}};
    lp_tv_shaders(ctx, 3, sh);
    lp_tv_viewport(ctx, S);
    lp_tv_vertices(ctx, VB, mesh, TRIS * 3, 2);
    const uint32_t zero[4] = {0, 0, 0, 0};
    assert_int_equal(tv_pipe_clear(ctx, TV_PIPE_CLEAR_COLOR0, zero, 1.0, 0), 0);
    lp_tv_draw(ctx, 4, TRIS * 3, 1, 0);
    memcpy(out, tv_pipe_resource_data(ctx, ARR), (size_t)LAYERS * S * S * 16);
    tv_pipe_destroy(ctx);
}

static void test_layers_against_llvmpipe(void **state)
{
    (void)state;
    glref *g = lp_open_or_skip();
    GLenum fmt = GL_RGBA32F;
    assert_true(glref_framebuffer(g, 4, 4, 1, &fmt));
    static float mesh[TRIS * 3 * 8];
    uint32_t rng = 909;
    lp_random_mesh(&rng, mesh, TRIS * 3, S);
    static float gl[LAYERS * S * S * 4], tv[LAYERS * S * S * 4];
    gl_draw(g, mesh, gl);
    texvm_draw(mesh, tv);
    int lit[LAYERS] = {0}, differ = lp_rgba32f_differ(gl, tv, S, LAYERS);
    for (int i = 0; i < LAYERS * S * S; i++)
        lit[i / (S * S)] += gl[4 * i + 3] != 0.0f || gl[4 * i] != 0.0f;
    print_message("layered rendering: %d triangles over %d layers, %d / %d / %d of %d pixels "
                  "lit, %d differ from llvmpipe\n", TRIS, LAYERS, lit[0], lit[1], lit[2],
                  S * S, differ);
    for (int l = 0; l < LAYERS; l++)
        assert_true(lit[l] > S * S / 3);
    assert_int_equal(differ, 0);
    glref_destroy(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_layers_against_llvmpipe),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

#else

int main(void)
{
    return lp_main_without_glref();
}

#endif
