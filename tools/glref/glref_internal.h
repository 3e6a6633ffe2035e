/* glref internals shared by its files. */
#ifndef GLREF_INTERNAL_H
#define GLREF_INTERNAL_H

#include "glref.h"

#include <EGL/egl.h>
#include <EGL/eglext.h>

struct glref {
    EGLDisplay dpy;
    EGLContext ctx;
    int version;              /* major*10 + minor */
    char renderer[128];
    char version_line[32];
    char err[2048];
    GLuint vao;
    GLuint fbo;
    int fb_w, fb_h, fb_n;
    GLuint fb_tex[GLREF_MAX_TARGETS];
    GLenum fb_fmt[GLREF_MAX_TARGETS];
    GLuint fb_depth;          /* optional DEPTH_COMPONENT32F attachment */
    int fb_samples;           /* 1, or the sample count of multisample targets */
    bool attrib_set[GLREF_MAX_ATTRIBS];
    float attrib[GLREF_MAX_ATTRIBS][4][4];
    GLuint attrib_buf;
    GLuint mesh_buf;          /* glref_mesh's vertices */
    int saved_stderr;         /* -1 when not capturing */
    bool quiet_debug;         /* SOFTPIPE_DEBUG is on: silence Mesa's own prints */
};

/* Printf-style error into g->err; always returns false. */
bool glref_fail(glref *g, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Check glGetError; on error records "what: GL error 0x…" and returns false. */
bool glref_gl_ok(glref *g, const char *what);

#endif
