/* mesa-run: the VERT stage. The job's attribute values feed the GLSL vertex shader's `in`
 * variables by `glsl_name`; the outputs are captured with transform feedback (rasterizer
 * discarded) in TGSI order — OUT[0] = gl_Position, then the shader's `out` variables in
 * declaration order, each one 4-component register (unwritten components 0) — and written
 * by texvm's "vertices" writer. */
#include "mr.h"

#include <stdlib.h>
#include <string.h>

/* Components of a GLSL output type (float/int/uint scalars and vectors). */
static int type_comps(const char *t)
{
    size_t n = strlen(t);
    if (!strcmp(t, "float") || !strcmp(t, "int") || !strcmp(t, "uint"))
        return 1;
    if (n >= 4 && !strncmp(t + n - 4, "vec", 3) && t[n - 1] >= '2' && t[n - 1] <= '4')
        return t[n - 1] - '0';
    return 0;
}

static const job_attrib *attrib_named(const job_vert *v, const char *name, int nin)
{
    for (size_t i = 0; i < v->num_attribs; i++)
        if (v->attribs[i].glsl_name && !strcmp(v->attribs[i].glsl_name, name))
            return &v->attribs[i];
    if (nin == 1 && v->num_attribs == 1 && !v->attribs[0].glsl_name)
        return &v->attribs[0];
    return NULL;
}

int mr_vert(mr_state *s, const char *vs_src)
{
    const job_vert *v = &s->j->vert;
    if (v->base_vertex < 0)
        return mr_fail(s, TV_EXIT_UNSUPPORTED, "vert.base_vertex < 0 has no glDrawArrays form");
    mr_decl in[16], out[31];
    int nin = mr_scan_decls(vs_src, "in", in, 16);
    int nout = mr_scan_decls(vs_src, "out", out, 31);
    const char *names[32];
    int comps[32];
    names[0] = "gl_Position";
    comps[0] = 4;
    for (int k = 0; k < nout; k++) {
        names[1 + k] = out[k].name;
        comps[1 + k] = type_comps(out[k].type);
        if (!comps[1 + k])
            return mr_fail(s, TV_EXIT_UNSUPPORTED, "vertex output %s of type %s: mesa-run "
                           "captures float/int/uint scalars and vectors", out[k].name, out[k].type);
    }
    int nv = 1 + nout, stride = 0;
    for (int r = 0; r < nv; r++)
        stride += comps[r];
    s->prog = glref_program_xfb(s->g, vs_src, NULL, names, nv);
    if (!s->prog)
        return mr_fail(s, TV_EXIT_INVALID, "GLSL: %s", glref_error(s->g));
    int rc = mr_bind(s);
    if (!rc)
        rc = mr_uniforms(s);
    if (rc)
        return rc;
    /* attributes: one vec4 of raw words per vertex, element base_vertex + i = value i */
    size_t first = (size_t)v->base_vertex, total = first + v->count;
    GLuint vao, bufs[16] = {0};
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    for (int k = 0; k < nin; k++) {
        const job_attrib *a = attrib_named(v, in[k].name, nin);
        if (a && a->buffer >= 0) {
            glDeleteVertexArrays(1, &vao);
            return mr_fail(s, TV_EXIT_UNSUPPORTED, "vert.attributes: the buffer form is not "
                           "supported by mesa-run (give values)");
        }
        GLint loc = glGetAttribLocation(s->prog, in[k].name);
        if (loc < 0 || !a)
            continue; /* unused by the program, or not given: reads (0, 0, 0, 1) */
        uint32_t *data = calloc(total * 4, 4);
        if (!data) {
            glDeleteVertexArrays(1, &vao);
            return mr_fail(s, TV_EXIT_INVALID, "out of memory");
        }
        for (size_t i = 0; i < v->count && 4 * i + 3 < a->values.count; i++)
            memcpy(data + 4 * (first + i), a->values.w + 4 * i, 16);
        glGenBuffers(1, &bufs[k]);
        glBindBuffer(GL_ARRAY_BUFFER, bufs[k]);
        glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(total * 16), data, GL_STATIC_DRAW);
        free(data);
        bool ints = in[k].type[0] == 'i' || in[k].type[0] == 'u';
        if (ints)
            glVertexAttribIPointer((GLuint)loc, 4, in[k].type[0] == 'i' ? GL_INT : GL_UNSIGNED_INT,
                                   16, NULL);
        else
            glVertexAttribPointer((GLuint)loc, 4, GL_FLOAT, GL_FALSE, 16, NULL);
        glEnableVertexAttribArray((GLuint)loc);
    }
    size_t n = (size_t)v->count * v->instances;
    GLuint xfb;
    glGenBuffers(1, &xfb);
    glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, xfb);
    glBufferData(GL_TRANSFORM_FEEDBACK_BUFFER, (GLsizeiptr)(n * (size_t)stride * 4 + 16), NULL,
                 GL_STATIC_READ);
    glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, xfb);
    /* a surfaceless context has no default framebuffer: draw into a 1x1 one */
    GLenum fmt = GL_RGBA32F;
    if (!glref_framebuffer(s->g, 1, 1, 1, &fmt)) {
        glDeleteBuffers(1, &xfb);
        glDeleteBuffers(16, bufs);
        glDeleteVertexArrays(1, &vao);
        return mr_fail(s, TV_EXIT_INVALID, "%s", glref_error(s->g));
    }
    glBindVertexArray(vao);
    while (glGetError() != GL_NO_ERROR) {
    }
    glUseProgram(s->prog);
    glEnable(GL_RASTERIZER_DISCARD);
    glBeginTransformFeedback(GL_POINTS);
    if (v->base_instance) /* GL 4.2 */
        glDrawArraysInstancedBaseInstance(GL_POINTS, (GLint)first, (GLsizei)v->count,
                                          (GLsizei)v->instances, v->base_instance);
    else
        glDrawArraysInstanced(GL_POINTS, (GLint)first, (GLsizei)v->count, (GLsizei)v->instances);
    glEndTransformFeedback();
    glDisable(GL_RASTERIZER_DISCARD);
    glFinish();
    GLenum gl_err = glGetError();
    uint32_t *cap = malloc(n * (size_t)stride * 4 + 16);
    bool ok = cap && gl_err == GL_NO_ERROR &&
              glref_buffer_read(s->g, xfb, 0, n * (size_t)stride * 4, cap);
    for (int r = 0; ok && r < nv; r++) {
        s->rs.vert_out[r] = calloc(n * 4 + 4, 4);
        ok = s->rs.vert_out[r] != NULL;
    }
    if (ok) {
        s->rs.num_vert_outputs = (uint32_t)nv;
        for (size_t e = 0; e < n; e++) {
            int off = 0;
            for (int r = 0; r < nv; r++) {
                memcpy(s->rs.vert_out[r] + 4 * e, cap + e * (size_t)stride + off,
                       (size_t)comps[r] * 4);
                off += comps[r];
            }
        }
    }
    free(cap);
    glDeleteBuffers(1, &xfb);
    glDeleteBuffers(16, bufs);
    glDeleteVertexArrays(1, &vao);
    if (!ok)
        return mr_fail(s, TV_EXIT_INVALID, "transform feedback capture failed (GL error 0x%x)",
                       (unsigned)gl_err);
    return mr_readback(s);
}
