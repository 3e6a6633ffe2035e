/* glref: EGL surfaceless context on a chosen Gallium software driver. */
#include "glref_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

/* Send fd 2 to /dev/null (returns the saved fd, or -1) and back. With SOFTPIPE_DEBUG set,
 * Mesa prints its ~130 internal shaders when a context is made and destroyed. */
static int mute_stderr(void)
{
    fflush(stderr);
    int saved = dup(2);
    int null = open("/dev/null", O_WRONLY);
    if (saved < 0 || null < 0 || dup2(null, 2) < 0) {
        if (saved >= 0)
            close(saved);
        saved = -1;
    }
    if (null >= 0)
        close(null);
    return saved;
}

static void unmute_stderr(int saved)
{
    if (saved < 0)
        return;
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
}

bool glref_fail(glref *g, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g->err, sizeof g->err, fmt, ap);
    va_end(ap);
    return false;
}

bool glref_gl_ok(glref *g, const char *what)
{
    GLenum e = glGetError();
    if (e == GL_NO_ERROR)
        return true;
    while (glGetError() != GL_NO_ERROR) {
    }
    return glref_fail(g, "%s: GL error 0x%04x", what, (unsigned)e);
}

const char *glref_error(const glref *g) { return g ? g->err : "no context"; }
int glref_gl_version(const glref *g) { return g->version; }
const char *glref_renderer(const glref *g) { return g->renderer; }
const char *glref_glsl_version_line(const glref *g) { return g->version_line; }

bool glref_has_extension(const glref *g, const char *name)
{
    (void)g;
    GLint n = 0;
    glGetIntegerv(GL_NUM_EXTENSIONS, &n);
    for (GLint i = 0; i < n; i++) {
        const char *e = (const char *)glGetStringi(GL_EXTENSIONS, (GLuint)i);
        if (e && strcmp(e, name) == 0)
            return true;
    }
    return false;
}

static void set_err(char *err, size_t size, const char *msg, unsigned code)
{
    if (err && size)
        snprintf(err, size, "%s (EGL error 0x%04x)", msg, code);
}

/* Context versions tried, highest first. */
static const int k_versions[][2] = {{4, 6}, {4, 5}, {4, 3}, {4, 2}, {4, 1}, {4, 0},
                                    {3, 3}, {3, 2}, {3, 1}};

glref *glref_create(const char *driver, unsigned flags, char *err, size_t err_size)
{
    /* Mesa reads these when the display is initialised. */
    setenv("LIBGL_ALWAYS_SOFTWARE", "1", 1);
    setenv("EGL_PLATFORM", "surfaceless", 1);
    if (driver)
        setenv("GALLIUM_DRIVER", driver, 1);
    if (flags & GLREF_CAPTURE_TGSI)
        setenv("SOFTPIPE_DEBUG", "fs,vs,gs,cs", 1);

    int muted = (flags & GLREF_CAPTURE_TGSI) ? mute_stderr() : -1;
    glref *g = NULL;
    EGLDisplay dpy = EGL_NO_DISPLAY;
    EGLContext ctx = EGL_NO_CONTEXT;
    int version = 0;
    PFNEGLGETPLATFORMDISPLAYEXTPROC get_display =
        (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
    if (!get_display) {
        set_err(err, err_size, "eglGetPlatformDisplayEXT unavailable", eglGetError());
        goto out;
    }
    dpy = get_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    EGLint major = 0, minor = 0;
    if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, &major, &minor)) {
        set_err(err, err_size, "no EGL surfaceless display", eglGetError());
        goto out;
    }
    if (!eglBindAPI(EGL_OPENGL_API)) {
        set_err(err, err_size, "eglBindAPI(OpenGL) failed", eglGetError());
        eglTerminate(dpy);
        goto out;
    }
    for (size_t i = 0; i < sizeof k_versions / sizeof k_versions[0]; i++) {
        EGLint attrs[] = {EGL_CONTEXT_MAJOR_VERSION, k_versions[i][0],
                          EGL_CONTEXT_MINOR_VERSION, k_versions[i][1],
                          EGL_CONTEXT_OPENGL_PROFILE_MASK,
                          EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
        ctx = eglCreateContext(dpy, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, attrs);
        if (ctx != EGL_NO_CONTEXT) {
            version = k_versions[i][0] * 10 + k_versions[i][1];
            break;
        }
    }
    if (ctx == EGL_NO_CONTEXT) {
        set_err(err, err_size, "no desktop GL core context (3.1 or later)", eglGetError());
        eglTerminate(dpy);
        goto out;
    }
    if (!eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx)) {
        set_err(err, err_size, "eglMakeCurrent (surfaceless) failed", eglGetError());
        eglDestroyContext(dpy, ctx);
        eglTerminate(dpy);
        goto out;
    }
    g = calloc(1, sizeof *g);
    if (!g) {
        set_err(err, err_size, "out of memory", 0);
        eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
        eglDestroyContext(dpy, ctx);
        eglTerminate(dpy);
        goto out;
    }
    g->quiet_debug = (flags & GLREF_CAPTURE_TGSI) != 0;
    g->dpy = dpy;
    g->ctx = ctx;
    g->version = version;
    g->saved_stderr = -1;
    const char *r = (const char *)glGetString(GL_RENDERER);
    snprintf(g->renderer, sizeof g->renderer, "%s", r ? r : "?");
    /* GLSL 1.40 for 3.1, 1.50 for 3.2, then x.y0. */
    int glsl = version >= 33 ? version * 10 : (version == 32 ? 150 : 140);
    snprintf(g->version_line, sizeof g->version_line, "#version %d core", glsl);
    if (driver && strncmp(g->renderer, driver, strlen(driver)) != 0) {
        if (err && err_size)
            snprintf(err, err_size, "asked for driver %s, got renderer \"%s\"", driver,
                     g->renderer);
        glref_destroy(g);
        g = NULL;
        goto out;
    }
    glGenVertexArrays(1, &g->vao);
    glBindVertexArray(g->vao);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    if (!glref_gl_ok(g, "context set-up")) {
        if (err && err_size)
            snprintf(err, err_size, "%s", g->err);
        glref_destroy(g);
        g = NULL;
    }
out:
    unmute_stderr(muted);
    return g;
}

void glref_finish(glref *g)
{
    (void)g;
    glFinish();
}

void glref_destroy(glref *g)
{
    if (!g)
        return;
    if (g->saved_stderr >= 0)
        glref_capture_end(g);
    int muted = g->quiet_debug ? mute_stderr() : -1;
    if (g->fbo) {
        glDeleteFramebuffers(1, &g->fbo);
        glDeleteTextures(g->fb_n, g->fb_tex);
    }
    if (g->fb_depth)
        glDeleteTextures(1, &g->fb_depth);
    if (g->attrib_buf)
        glDeleteBuffers(1, &g->attrib_buf);
    if (g->mesh_buf)
        glDeleteBuffers(1, &g->mesh_buf);
    if (g->vao)
        glDeleteVertexArrays(1, &g->vao);
    eglMakeCurrent(g->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(g->dpy, g->ctx);
    eglTerminate(g->dpy);
    eglReleaseThread();
    free(g);
    unmute_stderr(muted);
}
