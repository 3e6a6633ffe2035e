/* The differential tests' shared set-up against llvmpipe (llvmpipe_fixture.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "diff.h"
#include "llvmpipe_fixture.h"

static void test_no_gl(void **state)
{
    (void)state;
    print_message("SKIP: texvm was configured without EGL/OpenGL (tools/glref not built)\n");
    skip();
}

int lp_main_without_glref(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_no_gl)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}

#ifdef TEXVM_HAVE_GLREF

glref *lp_open_or_skip(void)
{
    char err[256];
    glref *g = glref_create("llvmpipe", 0, err, sizeof err);
    if (!g) {
        print_message("skipped: %s\n", err);
        skip();
    }
    return g;
}

void lp_random_mesh(uint32_t *rng, float *v, int verts, int size)
{
    for (int i = 0; i < verts; i++) {
        float *p = v + 8 * i;
        for (int k = 0; k < 2; k++)
            p[k] = (float)(diff_rand(rng) % (uint32_t)(size * 256 + 1)) / 256.0f /
                       ((float)size / 2.0f) - 1.0f;
        p[2] = 0.0f;
        p[3] = 1.0f;
        for (int k = 0; k < 3; k++)
            p[4 + k] = (float)(diff_rand(rng) % 257) / 256.0f;
        p[7] = 1.0f;
    }
}

GLuint lp_gl_program(glref *g, int n, const GLenum *types, const char *const *texts,
                     const char *const *varyings, int nvary)
{
    GLuint sh[8];
    assert_true(n <= 8);
    for (int i = 0; i < n; i++) {
        sh[i] = glref_shader(g, types[i], texts[i]);
        if (!sh[i])
            fail_msg("%s", glref_error(g));
    }
    GLuint prog = glref_link(g, sh, n, varyings, nvary);
    if (!prog)
        fail_msg("%s", glref_error(g));
    glUseProgram(prog);
    return prog;
}

void lp_gl_vertices(const float *v, int verts, int attribs)
{
    GLuint vao, vbo;
    GLsizei stride = 16 * attribs;
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glGenBuffers(1, &vbo);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)verts * stride, v, GL_STATIC_DRAW);
    for (int a = 0; a < attribs; a++) {
        glVertexAttribPointer((GLuint)a, 4, GL_FLOAT, GL_FALSE, stride,
                              (void *)(uintptr_t)(16 * a));
        glEnableVertexAttribArray((GLuint)a);
    }
}

void lp_tv_rgba32f_target(tv_pipe_ctx *ctx, uint32_t res, uint32_t surf, int size, int layers)
{
    tv_pipe_resource_desc rt = {layers > 1 ? 7 /* 2D_ARRAY */ : 2 /* 2D */,
                                31 /* R32G32B32A32_FLOAT */, 2, (uint32_t)size, (uint32_t)size,
                                1, (uint32_t)layers, 0, 0};
    assert_int_equal(tv_pipe_resource_create(ctx, res, &rt), 0);
    assert_int_equal(tv_pipe_surface_create(ctx, surf, res, 31, 0, 0, (uint32_t)layers - 1), 0);
    uint32_t cb = surf;
    assert_int_equal(tv_pipe_set_framebuffer(ctx, 1, &cb, 0), 0);
}

void lp_tv_shaders(tv_pipe_ctx *ctx, int n, const lp_tv_shader *sh)
{
    for (int i = 0; i < n; i++) {
        if (tv_pipe_shader_create(ctx, sh[i].handle, sh[i].stage, sh[i].text,
                                  strlen(sh[i].text) + 1))
            fail_msg("%s", tv_pipe_error(ctx));
        assert_int_equal(tv_pipe_bind_shader(ctx, sh[i].stage, sh[i].handle), 0);
    }
}

void lp_tv_viewport(tv_pipe_ctx *ctx, int size)
{
    float h = (float)size / 2.0f;
    tv_pipe_viewport vp = {{h, h, 0.5f}, {h, h, 0.5f}};
    assert_int_equal(tv_pipe_set_viewports(ctx, 0, 1, &vp), 0);
}

void lp_tv_vertices(tv_pipe_ctx *ctx, uint32_t handle, const float *v, int verts, int attribs)
{
    tv_pipe_vertex_element ve[8];
    assert_true(attribs <= 8);
    for (int a = 0; a < attribs; a++)
        ve[a] = (tv_pipe_vertex_element){(uint32_t)(16 * a), 0, 0, 31};
    assert_int_equal(tv_pipe_set_vertex_elements(ctx, (uint32_t)attribs, ve), 0);
    uint32_t stride = 16u * (uint32_t)attribs, bytes = (uint32_t)verts * stride;
    tv_pipe_resource_desc b = {0, 64, 16, bytes, 1, 1, 1, 0, 0};
    assert_int_equal(tv_pipe_resource_create(ctx, handle, &b), 0);
    tv_pipe_box box = {0, 0, 0, bytes, 1, 1};
    assert_int_equal(tv_pipe_transfer_write(ctx, handle, 0, &box, v, bytes, 0, 0, 0), 0);
    tv_pipe_vertex_buffer vb = {stride, 0, handle};
    assert_int_equal(tv_pipe_set_vertex_buffers(ctx, 0, 1, &vb), 0);
}

void lp_tv_draw(tv_pipe_ctx *ctx, uint32_t mode, uint32_t count, uint32_t instances,
                uint32_t vertices_per_patch)
{
    tv_pipe_draw_info info;
    memset(&info, 0, sizeof info);
    info.mode = mode;
    info.count = count;
    info.instance_count = instances;
    info.vertices_per_patch = vertices_per_patch;
    if (tv_pipe_draw_vbo(ctx, &info))
        fail_msg("draw_vbo: %s", tv_pipe_error(ctx));
}

int lp_rgba32f_differ(const float *gl, const float *tv, int size, int layers)
{
    int differ = 0;
    for (int i = 0; i < layers * size * size; i++) {
        if (!memcmp(gl + 4 * i, tv + 4 * i, 16))
            continue;
        if (differ < 5)
            print_message("layer %d pixel (%d, %d): llvmpipe %g %g %g %g, texvm %g %g %g %g\n",
                          i / (size * size), i % size, (i / size) % size, gl[4 * i],
                          gl[4 * i + 1], gl[4 * i + 2], gl[4 * i + 3], tv[4 * i],
                          tv[4 * i + 1], tv[4 * i + 2], tv[4 * i + 3]);
        differ++;
    }
    return differ;
}

#endif /* TEXVM_HAVE_GLREF */
