/* Stream output and its queries against llvmpipe (issue 17's differential): a 9-vertex
 * triangle strip drawn in 3 instances through a geometry shader that emits each triangle
 * and a copy shrunk towards its first vertex (colour with PRIM_ID in alpha), the geometry
 * shader's position and colour captured by transform feedback into a buffer with room for
 * 40 of the 42 emitted triangles — once by llvmpipe through GL (GLSL 1.50), once by texvm's
 * pipe layer with the same program in TGSI. The captured bytes (the overflow stopping at a
 * whole primitive), PRIMITIVES_GENERATED and PRIMITIVES_EMITTED (and texvm's
 * stream-output statistics, the same two numbers) must be identical. */
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

#include "gs_shrink.h"

enum { NV = 9, INST = 3, ROOM = 40 * 3 };   /* vertices of room in the buffer */
enum { VB = 3, SOB = 4, VSH = 20, GSH = 22, TGT = 30 };
#define VERT_BYTES 32                        /* vec4 position, vec4 colour */

static const char vs_tgsi[] = "VERT\nDCL IN[0]\nDCL IN[1]\nDCL SV[0], INSTANCEID\n"
                              "DCL OUT[0], POSITION\nDCL OUT[1], GENERIC[0]\nDCL TEMP[0]\n"
                              "IMM[0] FLT32 {0.125, 0.0, 0.0, 0.0}\n"
                              "U2F TEMP[0].x, SV[0].xxxx\n"
                              "MAD OUT[0].x, TEMP[0].xxxx, IMM[0].xxxx, IN[0].xxxx\n"
                              "MOV OUT[0].yzw, IN[0]\nMOV OUT[1], IN[1]\nEND\n";

static const char vs_glsl[] =
    "layout(location = 0) in vec4 p;\nlayout(location = 1) in vec4 c;\nout vec4 vcol;\n"
    "void main() { gl_Position = vec4(float(gl_InstanceID) * 0.125 + p.x, p.yzw);\n"
    "  vcol = c; }\n";

/* the strip: positions on a 1/64 grid, colours multiples of 1/8 */
static void mesh(float *v)
{
    for (int i = 0; i < NV; i++) {
        float *p = v + 8 * i;
        p[0] = -1.0f + (float)i / 4.0f;
        p[1] = (i & 1) ? 0.5f : -0.25f - (float)i / 64.0f;
        p[2] = (float)i / 16.0f;
        p[3] = 1.0f;
        p[4] = (float)(i % 8) / 8.0f;
        p[5] = (float)((i * 3) % 8) / 8.0f;
        p[6] = (float)((i * 5) % 8) / 8.0f;
        p[7] = 1.0f;
    }
}

static void llvmpipe_capture(glref *g, const float *v, uint8_t *out, uint64_t q[2])
{
    static const GLenum types[2] = {GL_VERTEX_SHADER, GL_GEOMETRY_SHADER};
    const char *const texts[2] = {vs_glsl, gs_glsl};
    const char *const vary[2] = {"gl_Position", "col"};
    lp_gl_program(g, 2, types, texts, vary, 2);
    lp_gl_vertices(v, NV, 2);
    GLuint xfb, qs[2];
    glGenBuffers(1, &xfb);
    glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, xfb);
    static uint8_t zero[ROOM * VERT_BYTES];
    glBufferData(GL_TRANSFORM_FEEDBACK_BUFFER, sizeof zero, zero, GL_STREAM_READ);
    glGenQueries(2, qs);
    glEnable(GL_RASTERIZER_DISCARD);
    glBeginQuery(GL_PRIMITIVES_GENERATED, qs[0]);
    glBeginQuery(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, qs[1]);
    glBeginTransformFeedback(GL_TRIANGLES);
    glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, NV, INST);
    glEndTransformFeedback();
    glEndQuery(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN);
    glEndQuery(GL_PRIMITIVES_GENERATED);
    glDisable(GL_RASTERIZER_DISCARD);
    GLuint r = 0;
    glGetQueryObjectuiv(qs[0], GL_QUERY_RESULT, &r);
    q[0] = r;
    glGetQueryObjectuiv(qs[1], GL_QUERY_RESULT, &r);
    q[1] = r;
    glGetBufferSubData(GL_TRANSFORM_FEEDBACK_BUFFER, 0, sizeof zero, out);
    assert_int_equal(glGetError(), GL_NO_ERROR);
}

static void texvm_capture(const float *v, uint8_t *out, uint64_t q[4])
{
    tv_pipe_ctx *ctx = tv_pipe_create(0);
    assert_non_null(ctx);
    static const lp_tv_shader sh[2] = {{VSH, TV_PIPE_STAGE_VERTEX, vs_tgsi},
                                       {GSH, TV_PIPE_STAGE_GEOMETRY, gs_tgsi}};
    lp_tv_shaders(ctx, 2, sh);
    lp_tv_vertices(ctx, VB, v, NV, 2);
    tv_pipe_stream_output_info so;
    memset(&so, 0, sizeof so);
    so.num_outputs = 2;
    so.stride[0] = 8;
    so.output[0] = (tv_pipe_stream_output){0, 0, 4, 0, 0, 0};
    so.output[1] = (tv_pipe_stream_output){1, 0, 4, 0, 0, 4};
    assert_int_equal(tv_pipe_shader_set_stream_output(ctx, GSH, &so), 0);
    tv_pipe_resource_desc sb = {0, 64, 16, ROOM * VERT_BYTES, 1, 1, 1, 0, 0};
    assert_int_equal(tv_pipe_resource_create(ctx, SOB, &sb), 0);
    const uint32_t dw[3] = {SOB, 0, ROOM * VERT_BYTES};
    assert_int_equal(tv_pipe_object_create(ctx, TV_PIPE_OBJ_STREAMOUT_TARGET, TGT, dw, 3), 0);
    tv_pipe_so_target t = {SOB, 0, ROOM * VERT_BYTES, TGT};
    assert_int_equal(tv_pipe_set_stream_output_targets(ctx, 1, &t, 0), 0);
    tv_pipe_rasterizer_state rs;
    tv_pipe_rasterizer_default(&rs);
    rs.rasterizer_discard = true;
    assert_int_equal(tv_pipe_set_rasterizer(ctx, &rs), 0);
    assert_int_equal(tv_pipe_query_create(ctx, 70, TV_PIPE_QUERY_PRIMITIVES_GENERATED, 0), 0);
    assert_int_equal(tv_pipe_query_create(ctx, 71, TV_PIPE_QUERY_PRIMITIVES_EMITTED, 0), 0);
    assert_int_equal(tv_pipe_query_create(ctx, 72, TV_PIPE_QUERY_SO_STATISTICS, 0), 0);
    for (uint32_t h = 70; h <= 72; h++)
        assert_int_equal(tv_pipe_begin_query(ctx, h), 0);
    lp_tv_draw(ctx, 5 /* TRIANGLE_STRIP */, NV, INST, 0);
    for (uint32_t h = 70; h <= 72; h++)
        assert_int_equal(tv_pipe_end_query(ctx, h), 0);
    assert_int_equal(tv_pipe_query_result(ctx, 70, &q[0]), 0);
    assert_int_equal(tv_pipe_query_result(ctx, 71, &q[1]), 0);
    assert_int_equal(tv_pipe_query_result_so(ctx, 72, &q[2], &q[3]), 0);
    memcpy(out, tv_pipe_resource_data(ctx, SOB), ROOM * VERT_BYTES);
    tv_pipe_destroy(ctx);
}

static void test_stream_output_against_llvmpipe(void **state)
{
    (void)state;
    glref *g = lp_open_or_skip();
    GLenum fmt = GL_RGBA32F;
    assert_true(glref_framebuffer(g, 4, 4, 1, &fmt));
    float v[NV * 8];
    mesh(v);
    static uint8_t gl[ROOM * VERT_BYTES], tv[ROOM * VERT_BYTES];
    uint64_t gq[2], tq[4];
    llvmpipe_capture(g, v, gl, gq);
    texvm_capture(v, tv, tq);
    int differ = 0;
    for (int i = 0; i < ROOM; i++)
        if (memcmp(gl + i * VERT_BYTES, tv + i * VERT_BYTES, VERT_BYTES)) {
            const float *a = (const float *)(const void *)(gl + i * VERT_BYTES);
            const float *b = (const float *)(const void *)(tv + i * VERT_BYTES);
            if (differ < 4)
                print_message("vertex %d: llvmpipe (%g %g %g %g | %g %g %g %g), texvm (%g %g "
                              "%g %g | %g %g %g %g)\n", i, a[0], a[1], a[2], a[3], a[4], a[5],
                              a[6], a[7], b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]);
            differ++;
        }
    print_message("stream output: %d vertices captured, %d differ; generated %llu / %llu, "
                  "written %llu / %llu (llvmpipe / texvm); statistics %llu written of %llu\n",
                  ROOM, differ, (unsigned long long)gq[0], (unsigned long long)tq[0],
                  (unsigned long long)gq[1], (unsigned long long)tq[1],
                  (unsigned long long)tq[2], (unsigned long long)tq[3]);
    assert_int_equal(gq[0], 2 * INST * (NV - 2));   /* every emitted triangle */
    assert_int_equal(gq[1], ROOM / 3);              /* what fitted */
    assert_int_equal(tq[0], gq[0]);
    assert_int_equal(tq[1], gq[1]);
    assert_int_equal(tq[2], gq[1]);
    assert_int_equal(tq[3], gq[0]);
    assert_int_equal(differ, 0);
    glref_destroy(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stream_output_against_llvmpipe),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

#else

int main(void)
{
    return lp_main_without_glref();
}

#endif
