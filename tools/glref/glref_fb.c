/* glref: buffers, render targets, drawing, compute dispatch. */
#include "glref_internal.h"

#include <stdio.h>
#include <string.h>

GLuint glref_buffer(glref *g, const void *data, size_t size)
{
    while (glGetError() != GL_NO_ERROR) {
    }
    GLuint b;
    glGenBuffers(1, &b);
    glBindBuffer(GL_ARRAY_BUFFER, b);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)size, data, GL_DYNAMIC_DRAW);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    if (!glref_gl_ok(g, "buffer creation")) {
        glDeleteBuffers(1, &b);
        return 0;
    }
    return b;
}

bool glref_bind_buffer(glref *g, GLenum target, unsigned index, GLuint buf)
{
    glBindBufferBase(target, index, buf);
    return glref_gl_ok(g, "buffer binding");
}

bool glref_buffer_read(glref *g, GLuint buf, size_t offset, size_t size, void *out)
{
    glBindBuffer(GL_COPY_READ_BUFFER, buf);
    glGetBufferSubData(GL_COPY_READ_BUFFER, (GLintptr)offset, (GLsizeiptr)size, out);
    glBindBuffer(GL_COPY_READ_BUFFER, 0);
    return glref_gl_ok(g, "buffer read-back");
}

bool glref_buffer_write(glref *g, GLuint buf, size_t offset, size_t size, const void *data)
{
    glBindBuffer(GL_COPY_WRITE_BUFFER, buf);
    glBufferSubData(GL_COPY_WRITE_BUFFER, (GLintptr)offset, (GLsizeiptr)size, data);
    glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
    return glref_gl_ok(g, "buffer write");
}

void glref_buffer_delete(glref *g, GLuint buf)
{
    (void)g;
    if (buf)
        glDeleteBuffers(1, &buf);
}

/* Target formats and how they are read back. */
typedef struct {
    GLenum internal, format, type;
} target_format;

static const target_format k_targets[] = {
    {GL_RGBA32F, GL_RGBA, GL_FLOAT},
    {GL_RGBA32UI, GL_RGBA_INTEGER, GL_UNSIGNED_INT},
    {GL_RGBA32I, GL_RGBA_INTEGER, GL_INT},
};

static const target_format *find_target(GLenum f)
{
    for (size_t i = 0; i < sizeof k_targets / sizeof k_targets[0]; i++)
        if (k_targets[i].internal == f)
            return &k_targets[i];
    return NULL;
}

bool glref_framebuffer(glref *g, int w, int h, int n, const GLenum *formats)
{
    return glref_framebuffer_ms(g, w, h, 1, n, formats);
}

bool glref_framebuffer_ms(glref *g, int w, int h, int samples, int n, const GLenum *formats)
{
    if (w < 1 || h < 1 || w > 16384 || h > 16384 || n < 1 || n > GLREF_MAX_TARGETS)
        return glref_fail(g, "framebuffer: bad size %dx%d or target count %d", w, h, n);
    if (samples != 1 && samples != 2 && samples != 4 && samples != 8 && samples != 16)
        return glref_fail(g, "framebuffer: %d samples (1, 2, 4, 8 or 16)", samples);
    for (int i = 0; i < n; i++)
        if (!find_target(formats[i]))
            return glref_fail(g, "framebuffer: target %d format 0x%x is not RGBA32F/UI/I", i,
                              (unsigned)formats[i]);
    if (g->fbo) {
        glDeleteFramebuffers(1, &g->fbo);
        glDeleteTextures(g->fb_n, g->fb_tex);
        g->fbo = 0;
    }
    if (g->fb_depth) {
        glDeleteTextures(1, &g->fb_depth);
        g->fb_depth = 0;
    }
    glDisable(GL_DEPTH_TEST);
    glDepthMask(GL_FALSE);
    while (glGetError() != GL_NO_ERROR) {
    }
    glGenFramebuffers(1, &g->fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, g->fbo);
    glGenTextures(n, g->fb_tex);
    GLenum bufs[GLREF_MAX_TARGETS];
    GLenum tt = samples > 1 ? GL_TEXTURE_2D_MULTISAMPLE : GL_TEXTURE_2D;
    for (int i = 0; i < n; i++) {
        glBindTexture(tt, g->fb_tex[i]);
        if (samples > 1) {
            glTexImage2DMultisample(tt, samples, formats[i], w, h, GL_TRUE);
        } else {
            glTexImage2D(tt, 0, (GLint)formats[i], w, h, 0, find_target(formats[i])->format,
                         find_target(formats[i])->type, NULL);
            glTexParameteri(tt, GL_TEXTURE_MAX_LEVEL, 0);
        }
        glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0 + (GLenum)i, tt,
                               g->fb_tex[i], 0);
        bufs[i] = GL_COLOR_ATTACHMENT0 + (GLenum)i;
        g->fb_fmt[i] = formats[i];
    }
    glBindTexture(tt, 0);
    glDrawBuffers(n, bufs);
    g->fb_w = w;
    g->fb_h = h;
    g->fb_n = n;
    g->fb_samples = samples;
    GLenum st = glCheckFramebufferStatus(GL_FRAMEBUFFER);
    if (st != GL_FRAMEBUFFER_COMPLETE)
        return glref_fail(g, "framebuffer incomplete (0x%x)", (unsigned)st);
    glViewport(0, 0, w, h);
    for (int i = 0; i < n; i++) {
        static const uint32_t zero[4] = {0, 0, 0, 0};
        if (!glref_clear(g, i, zero))
            return false;
    }
    return glref_gl_ok(g, "framebuffer creation");
}

bool glref_framebuffer_depth(glref *g, float clear, bool write)
{
    if (!g->fbo)
        return glref_fail(g, "depth: no framebuffer");
    if (g->fb_samples > 1)
        return glref_fail(g, "depth: not with multisample targets");
    glGenTextures(1, &g->fb_depth);
    glBindTexture(GL_TEXTURE_2D, g->fb_depth);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_DEPTH_COMPONENT32F, g->fb_w, g->fb_h, 0,
                 GL_DEPTH_COMPONENT, GL_FLOAT, NULL);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, 0);
    glBindTexture(GL_TEXTURE_2D, 0);
    glBindFramebuffer(GL_FRAMEBUFFER, g->fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, g->fb_depth, 0);
    GLenum st = glCheckFramebufferStatus(GL_FRAMEBUFFER);
    if (st != GL_FRAMEBUFFER_COMPLETE)
        return glref_fail(g, "framebuffer with depth incomplete (0x%x)", (unsigned)st);
    if (!glref_clear_depth(g, clear))
        return false;
    if (write) {
        glDepthMask(GL_TRUE); /* (the clear left the mask as it was) */
        glEnable(GL_DEPTH_TEST);
        glDepthFunc(GL_ALWAYS);
    } else {
        glDisable(GL_DEPTH_TEST);
        glDepthMask(GL_FALSE);
    }
    return glref_gl_ok(g, "depth attachment");
}

bool glref_clear_depth(glref *g, float clear)
{
    if (!g->fbo || !g->fb_depth)
        return glref_fail(g, "depth clear: no depth attachment");
    GLboolean mask = GL_TRUE;
    glGetBooleanv(GL_DEPTH_WRITEMASK, &mask);
    glBindFramebuffer(GL_FRAMEBUFFER, g->fbo);
    glDepthMask(GL_TRUE); /* (glClearBuffer honours the mask) */
    glClearBufferfv(GL_DEPTH, 0, &clear);
    glDepthMask(mask);
    return glref_gl_ok(g, "depth clear");
}

bool glref_read_depth(glref *g, float *out)
{
    if (!g->fb_depth)
        return glref_fail(g, "read: no depth attachment");
    glBindFramebuffer(GL_READ_FRAMEBUFFER, g->fbo);
    glReadPixels(0, 0, g->fb_w, g->fb_h, GL_DEPTH_COMPONENT, GL_FLOAT, out);
    return glref_gl_ok(g, "depth read-back");
}

bool glref_clear(glref *g, int i, const uint32_t value[4])
{
    if (!g->fbo || i < 0 || i >= g->fb_n)
        return glref_fail(g, "clear: no target %d", i);
    glBindFramebuffer(GL_FRAMEBUFFER, g->fbo);
    switch (g->fb_fmt[i]) {
    case GL_RGBA32F: {
        float f[4];
        memcpy(f, value, sizeof f);
        glClearBufferfv(GL_COLOR, i, f);
        break;
    }
    case GL_RGBA32UI:
        glClearBufferuiv(GL_COLOR, i, value);
        break;
    default: {
        GLint v[4];
        memcpy(v, value, sizeof v);
        glClearBufferiv(GL_COLOR, i, v);
        break;
    }
    }
    return glref_gl_ok(g, "clear");
}

bool glref_set_attrib(glref *g, unsigned location, const float *corners16)
{
    if (location >= GLREF_MAX_ATTRIBS)
        return glref_fail(g, "attribute location %u out of range", location);
    memcpy(g->attrib[location], corners16, sizeof g->attrib[location]);
    g->attrib_set[location] = true;
    return true;
}

bool glref_draw(glref *g, GLuint prog)
{
    return glref_draw_prims(g, prog, GL_TRIANGLE_STRIP, 4);
}

bool glref_draw_prims(glref *g, GLuint prog, GLenum mode, int count)
{
    if (count < 1 || count > 4)
        return glref_fail(g, "draw: %d vertices (1 to 4)", count);
    if (!g->fbo)
        return glref_fail(g, "draw: no framebuffer");
    while (glGetError() != GL_NO_ERROR) {
    }
    glBindFramebuffer(GL_FRAMEBUFFER, g->fbo);
    glViewport(0, 0, g->fb_w, g->fb_h);
    glBindVertexArray(g->vao);
    bool any = false;
    for (int i = 0; i < GLREF_MAX_ATTRIBS; i++)
        any = any || g->attrib_set[i];
    if (any) {
        if (!g->attrib_buf)
            glGenBuffers(1, &g->attrib_buf);
        glBindBuffer(GL_ARRAY_BUFFER, g->attrib_buf);
        glBufferData(GL_ARRAY_BUFFER, sizeof g->attrib, g->attrib, GL_DYNAMIC_DRAW);
        for (unsigned i = 0; i < GLREF_MAX_ATTRIBS; i++) {
            if (!g->attrib_set[i]) {
                glDisableVertexAttribArray(i);
                continue;
            }
            glVertexAttribPointer(i, 4, GL_FLOAT, GL_FALSE, 16,
                                  (const void *)(uintptr_t)(i * sizeof g->attrib[0]));
            glEnableVertexAttribArray(i);
        }
        glBindBuffer(GL_ARRAY_BUFFER, 0);
    }
    glUseProgram(prog);
    glDrawArrays(mode, 0, count);
    return glref_gl_ok(g, "draw");
}

bool glref_mesh(glref *g, const float *verts, int nverts)
{
    if (nverts < 1)
        return glref_fail(g, "mesh: %d vertices", nverts);
    if (!g->mesh_buf)
        glGenBuffers(1, &g->mesh_buf);
    glBindBuffer(GL_ARRAY_BUFFER, g->mesh_buf);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)nverts * 32, verts, GL_STATIC_DRAW);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    return glref_gl_ok(g, "mesh");
}

bool glref_draw_mesh(glref *g, GLuint prog, GLenum mode, int nverts, GLenum depth_func,
                     bool blend)
{
    if (!g->fbo || !g->mesh_buf)
        return glref_fail(g, "draw_mesh: no framebuffer or mesh");
    while (glGetError() != GL_NO_ERROR) {
    }
    glBindFramebuffer(GL_FRAMEBUFFER, g->fbo);
    glViewport(0, 0, g->fb_w, g->fb_h);
    glBindVertexArray(g->vao);
    glBindBuffer(GL_ARRAY_BUFFER, g->mesh_buf);
    for (unsigned i = 0; i < GLREF_MAX_ATTRIBS; i++)
        glDisableVertexAttribArray(i);
    for (unsigned i = 0; i < 2; i++) {
        glVertexAttribPointer(i, 4, GL_FLOAT, GL_FALSE, 32, (const void *)(uintptr_t)(16 * i));
        glEnableVertexAttribArray(i);
    }
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    if (depth_func) {
        glEnable(GL_DEPTH_TEST);
        glDepthFunc(depth_func);
        glDepthMask(GL_TRUE);
    } else {
        glDisable(GL_DEPTH_TEST);
    }
    if (blend) {
        glEnable(GL_BLEND);
        glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    } else {
        glDisable(GL_BLEND);
    }
    glUseProgram(prog);
    glDrawArrays(mode, 0, nverts);
    glDisable(GL_BLEND);
    /* the attribute arrays go back to glref_set_attrib's */
    for (unsigned i = 0; i < 2; i++)
        glDisableVertexAttribArray(i);
    return glref_gl_ok(g, "draw_mesh");
}

bool glref_read(glref *g, int i, void *out)
{
    if (!g->fbo || i < 0 || i >= g->fb_n)
        return glref_fail(g, "read: no target %d", i);
    const target_format *t = find_target(g->fb_fmt[i]);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, g->fbo);
    glReadBuffer(GL_COLOR_ATTACHMENT0 + (GLenum)i);
    glReadPixels(0, 0, g->fb_w, g->fb_h, t->format, t->type, out);
    return glref_gl_ok(g, "read-back");
}

static const char k_resolve_fs[] =
    "uniform highp %csampler2DMS src;\n"
    "uniform int samples;\n"
    "out %cvec4 o;\n"
    "void main() { ivec2 p = ivec2(gl_FragCoord.xy);\n"
    "  o = texelFetch(src, ivec2(p.x / samples, p.y), p.x %% samples); }\n";

bool glref_read_samples(glref *g, int i, void *out)
{
    if (!g->fbo || i < 0 || i >= g->fb_n)
        return glref_fail(g, "read: no target %d", i);
    if (g->fb_samples == 1)
        return glref_read(g, i, out);
    /* spread the samples of each pixel over a (w*samples) x h single-sample texture */
    GLenum fmt = g->fb_fmt[i];
    char kind = fmt == GL_RGBA32UI ? 'u' : fmt == GL_RGBA32I ? 'i' : ' ';
    char body[400], fs[512];
    snprintf(body, sizeof body, k_resolve_fs, kind, kind);
    snprintf(fs, sizeof fs, "%s\n%s", g->version_line, body);
    GLuint prog = glref_program(g, NULL, fs);
    if (!prog)
        return false;
    int w = g->fb_w * g->fb_samples, h = g->fb_h;
    const target_format *t = find_target(fmt);
    GLuint tex, fbo;
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glTexImage2D(GL_TEXTURE_2D, 0, (GLint)fmt, w, h, 0, t->format, t->type, NULL);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, 0);
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D_MULTISAMPLE, g->fb_tex[i]);
    glBindSampler(0, 0);
    glUseProgram(prog);
    glUniform1i(glGetUniformLocation(prog, "src"), 0);
    glUniform1i(glGetUniformLocation(prog, "samples"), g->fb_samples);
    glViewport(0, 0, w, h);
    glBindVertexArray(g->vao);
    glDisable(GL_DEPTH_TEST);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    glReadPixels(0, 0, w, h, t->format, t->type, out);
    bool ok = glref_gl_ok(g, "sample read-back");
    glBindTexture(GL_TEXTURE_2D_MULTISAMPLE, 0);
    glBindFramebuffer(GL_FRAMEBUFFER, g->fbo);
    glViewport(0, 0, g->fb_w, g->fb_h);
    glDeleteFramebuffers(1, &fbo);
    glDeleteTextures(1, &tex);
    glDeleteProgram(prog);
    return ok;
}

bool glref_dispatch(glref *g, GLuint prog, unsigned gx, unsigned gy, unsigned gz)
{
    while (glGetError() != GL_NO_ERROR) {
    }
    glUseProgram(prog);
    glDispatchCompute(gx, gy, gz);
    glMemoryBarrier(GL_ALL_BARRIER_BITS);
    return glref_gl_ok(g, "dispatch");
}
