/* Pipeline statistics against llvmpipe (issue 17's differential): one instanced draw of
 * triangle patches through a control shader (levels 2, 3, 4 / 3, equal spacing), an
 * evaluation shader and a pass-through geometry shader into a 32x32 target — by llvmpipe
 * through GL (ARB_pipeline_statistics_query) and by texvm's pipe layer with the same program
 * in TGSI. The counters the API defines exactly must be equal: vertices and patches
 * submitted, vertex-shader invocations, control-shader patches, evaluation invocations,
 * geometry-shader invocations and emitted primitives, clipper input primitives and
 * PRIMITIVES_GENERATED. (Clipper output and fragment invocations are the implementation's:
 * printed, not compared.) */
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

enum { S = 32, NV = 6, INST = 2 };
enum { RT = 1, VB = 3, SURF = 10, VSH = 20, FSH = 21, GSH = 22, TCSH = 23, TESH = 24 };

static const char vs_tgsi[] = "VERT\nDCL IN[0]\nDCL OUT[0], POSITION\nMOV OUT[0], IN[0]\nEND\n";
static const char fs_tgsi[] = "FRAG\nDCL OUT[0], COLOR\nIMM[0] FLT32 {1.0, 1.0, 1.0, 1.0}\n"
                              "MOV OUT[0], IMM[0]\nEND\n";
static const char tcs_tgsi[] =
    "TESS_CTRL\nPROPERTY TCS_VERTICES_OUT 3\nDCL IN[][0], POSITION\nDCL SV[0], INVOCATIONID\n"
    "DCL OUT[][0], POSITION\nDCL OUT[1], TESSOUTER\nDCL OUT[2], TESSINNER\nDCL ADDR[0]\n"
    "IMM[0] FLT32 {2.0, 3.0, 4.0, 0.0}\n"
    "UARL ADDR[0].x, SV[0].xxxx\nMOV OUT[ADDR[0].x][0], IN[ADDR[0].x][0]\n"
    "MOV OUT[1], IMM[0]\nMOV OUT[2], IMM[0].yyyy\nEND\n";
static const char tes_tgsi[] =
    "TESS_EVAL\nPROPERTY TES_PRIM_MODE 4\nPROPERTY TES_SPACING 2\n"
    "PROPERTY TES_VERTEX_ORDER_CW 0\nPROPERTY TES_POINT_MODE 0\n"
    "DCL IN[][0], POSITION\nDCL SV[0], TESSCOORD\nDCL OUT[0], POSITION\nDCL TEMP[0..1]\n"
    "MUL TEMP[0], IN[1][0], SV[0].yyyy\nMAD TEMP[1], IN[0][0], SV[0].xxxx, TEMP[0]\n"
    "MAD OUT[0], IN[2][0], SV[0].zzzz, TEMP[1]\nEND\n";
static const char gs_tgsi[] =
    "GEOM\nPROPERTY GS_INPUT_PRIMITIVE TRIANGLES\nPROPERTY GS_OUTPUT_PRIMITIVE TRIANGLE_STRIP\n"
    "PROPERTY GS_MAX_OUTPUT_VERTICES 3\nPROPERTY GS_INVOCATIONS 1\nDCL IN[][0], POSITION\n"
    "DCL OUT[0], POSITION\nIMM[0] UINT32 {0, 0, 0, 0}\n"
    "MOV OUT[0], IN[0][0]\nEMIT IMM[0].xxxx\nMOV OUT[0], IN[1][0]\nEMIT IMM[0].xxxx\n"
    "MOV OUT[0], IN[2][0]\nEMIT IMM[0].xxxx\nENDPRIM IMM[0].xxxx\nEND\n";

static const char vs_glsl[] =
    "layout(location = 0) in vec4 p;\nvoid main() { gl_Position = p; }\n";
static const char tcs_glsl[] =
    "layout(vertices = 3) out;\n"
    "void main() {\n"
    "  gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;\n"
    "  gl_TessLevelOuter = float[4](2.0, 3.0, 4.0, 0.0);\n"
    "  gl_TessLevelInner = float[2](3.0, 3.0);\n}\n";
static const char tes_glsl[] =
    "layout(triangles, equal_spacing, ccw) in;\n"
    "void main() { gl_Position = gl_in[0].gl_Position * gl_TessCoord.x +\n"
    "  gl_in[1].gl_Position * gl_TessCoord.y + gl_in[2].gl_Position * gl_TessCoord.z; }\n";
static const char gs_glsl[] =
    "layout(triangles) in;\nlayout(triangle_strip, max_vertices = 3) out;\n"
    "void main() { for (int i = 0; i < 3; i++) { gl_Position = gl_in[i].gl_Position;\n"
    "  EmitVertex(); } EndPrimitive(); }\n";
static const char fs_glsl[] = "out vec4 o;\nvoid main() { o = vec4(1.0); }\n";

/* the counters compared, in TV_PIPE_STAT order where they exist */
typedef struct {
    const char *name;
    GLenum gl;
    int tv;              /* TV_PIPE_STAT_*, -1: PRIMITIVES_GENERATED */
    bool exact;          /* defined by the API: compared */
} counter;

static const counter k_counters[] = {
    {"vertices submitted", GL_VERTICES_SUBMITTED, TV_PIPE_STAT_IA_VERTICES, true},
    {"primitives submitted", GL_PRIMITIVES_SUBMITTED, TV_PIPE_STAT_IA_PRIMITIVES, true},
    {"vertex shader invocations", GL_VERTEX_SHADER_INVOCATIONS, TV_PIPE_STAT_VS_INVOCATIONS,
     true},
    {"control shader patches", GL_TESS_CONTROL_SHADER_PATCHES, TV_PIPE_STAT_HS_INVOCATIONS,
     true},
    {"evaluation shader invocations", GL_TESS_EVALUATION_SHADER_INVOCATIONS,
     TV_PIPE_STAT_DS_INVOCATIONS, true},
    {"geometry shader invocations", GL_GEOMETRY_SHADER_INVOCATIONS,
     TV_PIPE_STAT_GS_INVOCATIONS, true},
    {"geometry shader primitives", GL_GEOMETRY_SHADER_PRIMITIVES_EMITTED,
     TV_PIPE_STAT_GS_PRIMITIVES, true},
    {"clipping input primitives", GL_CLIPPING_INPUT_PRIMITIVES, TV_PIPE_STAT_C_INVOCATIONS,
     true},
    {"clipping output primitives", GL_CLIPPING_OUTPUT_PRIMITIVES, TV_PIPE_STAT_C_PRIMITIVES,
     false},
    {"fragment shader invocations", GL_FRAGMENT_SHADER_INVOCATIONS,
     TV_PIPE_STAT_PS_INVOCATIONS, false},
    {"primitives generated", GL_PRIMITIVES_GENERATED, -1, true},
};
enum { NC = sizeof k_counters / sizeof k_counters[0] };

static void mesh(float *v)
{
    static const float xy[NV][2] = {{-0.75f, -0.75f}, {0.5f, -0.625f}, {-0.5f, 0.75f},
                                    {0.75f, -0.25f}, {0.625f, 0.875f}, {-0.125f, 0.25f}};
    for (int i = 0; i < NV; i++) {
        v[4 * i] = xy[i][0];
        v[4 * i + 1] = xy[i][1];
        v[4 * i + 2] = 0.0f;
        v[4 * i + 3] = 1.0f;
    }
}

static void gl_counts(glref *g, const float *v, uint64_t out[NC])
{
    static const GLenum types[5] = {GL_VERTEX_SHADER, GL_TESS_CONTROL_SHADER,
                                    GL_TESS_EVALUATION_SHADER, GL_GEOMETRY_SHADER,
                                    GL_FRAGMENT_SHADER};
    const char *const texts[5] = {vs_glsl, tcs_glsl, tes_glsl, gs_glsl, fs_glsl};
    lp_gl_program(g, 5, types, texts, NULL, 0);
    lp_gl_vertices(v, NV, 1);
    GLuint q[NC];
    glPatchParameteri(GL_PATCH_VERTICES, 3);
    glGenQueries(NC, q);
    for (int i = 0; i < NC; i++)
        glBeginQuery(k_counters[i].gl, q[i]);
    glDrawArraysInstanced(GL_PATCHES, 0, NV, INST);
    for (int i = 0; i < NC; i++)
        glEndQuery(k_counters[i].gl);
    for (int i = 0; i < NC; i++) {
        GLuint r = 0;
        glGetQueryObjectuiv(q[i], GL_QUERY_RESULT, &r);
        out[i] = r;
    }
    assert_int_equal(glGetError(), GL_NO_ERROR);
}

static void texvm_counts(const float *v, uint64_t out[NC])
{
    tv_pipe_ctx *ctx = tv_pipe_create(0);
    assert_non_null(ctx);
    lp_tv_rgba32f_target(ctx, RT, SURF, S, 1);
    static const lp_tv_shader sh[5] = {
        {VSH, TV_PIPE_STAGE_VERTEX, vs_tgsi}, {FSH, TV_PIPE_STAGE_FRAGMENT, fs_tgsi},
        {GSH, TV_PIPE_STAGE_GEOMETRY, gs_tgsi}, {TCSH, TV_PIPE_STAGE_TESS_CTRL, tcs_tgsi},
        {TESH, TV_PIPE_STAGE_TESS_EVAL, tes_tgsi}};
    lp_tv_shaders(ctx, 5, sh);
    lp_tv_viewport(ctx, S);
    lp_tv_vertices(ctx, VB, v, NV, 1);
    for (int i = 0; i < NC; i++) {
        int t = k_counters[i].tv;
        assert_int_equal(tv_pipe_query_create(ctx, 100 + (uint32_t)i,
                                              t < 0 ? TV_PIPE_QUERY_PRIMITIVES_GENERATED
                                                    : TV_PIPE_QUERY_PIPELINE_STATISTICS,
                                              t < 0 ? 0 : (uint32_t)t), 0);
        assert_int_equal(tv_pipe_begin_query(ctx, 100 + (uint32_t)i), 0);
    }
    lp_tv_draw(ctx, 14 /* PATCHES */, NV, INST, 3);
    for (int i = 0; i < NC; i++) {
        assert_int_equal(tv_pipe_end_query(ctx, 100 + (uint32_t)i), 0);
        assert_int_equal(tv_pipe_query_result(ctx, 100 + (uint32_t)i, &out[i]), 0);
    }
    tv_pipe_destroy(ctx);
}

static void test_statistics_against_llvmpipe(void **state)
{
    (void)state;
    glref *g = lp_open_or_skip();
    if (glref_gl_version(g) < 46 && !glref_has_extension(g, "GL_ARB_pipeline_statistics_query")) {
        glref_destroy(g);
        print_message("skipped: no pipeline statistics queries\n");
        skip();
    }
    GLenum fmt = GL_RGBA32F;
    assert_true(glref_framebuffer(g, S, S, 1, &fmt));
    float v[NV * 4];
    mesh(v);
    uint64_t gl[NC], tv[NC];
    gl_counts(g, v, gl);
    texvm_counts(v, tv);
    int differ = 0;
    for (int i = 0; i < NC; i++) {
        print_message("%-30s llvmpipe %6llu texvm %6llu%s\n", k_counters[i].name,
                      (unsigned long long)gl[i], (unsigned long long)tv[i],
                      k_counters[i].exact ? "" : " (the implementation's)");
        if (k_counters[i].exact && gl[i] != tv[i])
            differ++;
    }
    assert_int_equal(gl[0], NV * INST);
    assert_true(gl[4] > gl[3]);   /* tessellation ran */
    assert_int_equal(differ, 0);
    glref_destroy(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_statistics_against_llvmpipe),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

#else

int main(void)
{
    return lp_main_without_glref();
}

#endif
