/* glref: GLSL programs and uniforms. */
#include "glref_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char k_fixed_vs_body[] =
    "out vec2 glref_uv;\n"
    "void main() {\n"
    "    vec2 p = vec2((gl_VertexID & 1) != 0 ? 1.0 : -1.0,\n"
    "                  (gl_VertexID & 2) != 0 ? 1.0 : -1.0);\n"
    "    glref_uv = p * 0.5 + 0.5;\n"
    "    gl_Position = vec4(p, 0.0, 1.0);\n"
    "}\n";

const char *glref_fixed_vs(const glref *g)
{
    static char buf[512];
    snprintf(buf, sizeof buf, "%s\n%s", g->version_line, k_fixed_vs_body);
    return buf;
}

static GLuint compile(glref *g, GLenum stage, const char *src, const char *what)
{
    GLuint sh = glCreateShader(stage);
    if (!sh) {
        glref_fail(g, "%s: glCreateShader failed", what);
        return 0;
    }
    glShaderSource(sh, 1, &src, NULL);
    glCompileShader(sh);
    GLint ok = 0;
    glGetShaderiv(sh, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[1536] = "";
        glGetShaderInfoLog(sh, sizeof log, NULL, log);
        glref_fail(g, "%s shader does not compile:\n%s", what, log);
        glDeleteShader(sh);
        return 0;
    }
    return sh;
}

static GLuint link_xfb(glref *g, GLuint *shaders, int n, const char *const *varyings,
                       int num_varyings)
{
    GLuint prog = glCreateProgram();
    for (int i = 0; i < n; i++)
        glAttachShader(prog, shaders[i]);
    if (num_varyings > 0)
        glTransformFeedbackVaryings(prog, num_varyings, varyings, GL_INTERLEAVED_ATTRIBS);
    glLinkProgram(prog);
    for (int i = 0; i < n; i++)
        glDeleteShader(shaders[i]);
    GLint ok = 0;
    glGetProgramiv(prog, GL_LINK_STATUS, &ok);
    if (!ok) {
        char log[1536] = "";
        glGetProgramInfoLog(prog, sizeof log, NULL, log);
        glref_fail(g, "program does not link:\n%s", log);
        glDeleteProgram(prog);
        return 0;
    }
    return prog;
}

static GLuint link(glref *g, GLuint *shaders, int n)
{
    return link_xfb(g, shaders, n, NULL, 0);
}

GLuint glref_shader(glref *g, GLenum stage, const char *body)
{
    size_t n = strlen(g->version_line) + strlen(body) + 2;
    char *src = malloc(n);
    if (!src) {
        glref_fail(g, "glref_shader: out of memory");
        return 0;
    }
    snprintf(src, n, "%s\n%s", g->version_line, body);
    GLuint sh = compile(g, stage, src, "the");
    free(src);
    return sh;
}

GLuint glref_link(glref *g, GLuint *shaders, int n, const char *const *varyings,
                  int num_varyings)
{
    return link_xfb(g, shaders, n, varyings, num_varyings);
}

GLuint glref_program_xfb(glref *g, const char *vs_src, const char *fs_src,
                         const char *const *varyings, int num_varyings)
{
    if (!vs_src) {
        glref_fail(g, "glref_program_xfb: no vertex shader");
        return 0;
    }
    GLuint sh[2];
    int n = 0;
    sh[n] = compile(g, GL_VERTEX_SHADER, vs_src, "vertex");
    if (!sh[n++])
        return 0;
    if (fs_src) {
        sh[n] = compile(g, GL_FRAGMENT_SHADER, fs_src, "fragment");
        if (!sh[n]) {
            glDeleteShader(sh[0]);
            return 0;
        }
        n++;
    }
    return link_xfb(g, sh, n, varyings, num_varyings);
}

GLuint glref_program(glref *g, const char *vs_src, const char *fs_src)
{
    if (!fs_src) {
        glref_fail(g, "glref_program: no fragment shader");
        return 0;
    }
    GLuint sh[2];
    sh[0] = compile(g, GL_VERTEX_SHADER, vs_src ? vs_src : glref_fixed_vs(g), "vertex");
    if (!sh[0])
        return 0;
    sh[1] = compile(g, GL_FRAGMENT_SHADER, fs_src, "fragment");
    if (!sh[1]) {
        glDeleteShader(sh[0]);
        return 0;
    }
    return link(g, sh, 2);
}

GLuint glref_program_gs(glref *g, const char *vs_src, const char *gs_src, const char *fs_src)
{
    if (!vs_src || !gs_src || !fs_src) {
        glref_fail(g, "glref_program_gs: needs vertex, geometry and fragment shaders");
        return 0;
    }
    if (g->version < 32) {
        glref_fail(g, "geometry shaders need GL 3.2 (%s offers %d.%d)", g->renderer,
                   g->version / 10, g->version % 10);
        return 0;
    }
    static const GLenum types[3] = {GL_VERTEX_SHADER, GL_GEOMETRY_SHADER, GL_FRAGMENT_SHADER};
    static const char *const names[3] = {"vertex", "geometry", "fragment"};
    const char *src[3] = {vs_src, gs_src, fs_src};
    GLuint sh[3];
    for (int i = 0; i < 3; i++) {
        sh[i] = compile(g, types[i], src[i], names[i]);
        if (!sh[i]) {
            while (i--)
                glDeleteShader(sh[i]);
            return 0;
        }
    }
    return link(g, sh, 3);
}

GLuint glref_program_tess_xfb(glref *g, const char *vs_src, const char *tcs_src,
                              const char *tes_src, const char *const *varyings,
                              int num_varyings)
{
    if (!vs_src || !tes_src) {
        glref_fail(g, "glref_program_tess_xfb: needs vertex and evaluation shaders");
        return 0;
    }
    if (g->version < 40) {
        glref_fail(g, "tessellation needs GL 4.0 (%s offers %d.%d)", g->renderer,
                   g->version / 10, g->version % 10);
        return 0;
    }
    static const GLenum types[3] = {GL_VERTEX_SHADER, GL_TESS_EVALUATION_SHADER,
                                    GL_TESS_CONTROL_SHADER};
    static const char *const names[3] = {"vertex", "tessellation evaluation",
                                         "tessellation control"};
    const char *src[3] = {vs_src, tes_src, tcs_src};
    GLuint sh[3];
    int n = tcs_src ? 3 : 2;
    for (int i = 0; i < n; i++) {
        sh[i] = compile(g, types[i], src[i], names[i]);
        if (!sh[i]) {
            while (i--)
                glDeleteShader(sh[i]);
            return 0;
        }
    }
    return link_xfb(g, sh, n, varyings, num_varyings);
}

GLuint glref_program_compute(glref *g, const char *cs_src)
{
    if (g->version < 43 && !glref_has_extension(g, "GL_ARB_compute_shader")) {
        glref_fail(g, "compute shaders need GL 4.3 (%s offers %d.%d)", g->renderer,
                   g->version / 10, g->version % 10);
        return 0;
    }
    GLuint sh = compile(g, GL_COMPUTE_SHADER, cs_src, "compute");
    if (!sh)
        return 0;
    return link(g, &sh, 1);
}

void glref_program_delete(glref *g, GLuint prog)
{
    (void)g;
    if (prog)
        glDeleteProgram(prog);
}

/* Uniform types: base kind and component count (matrices: columns * rows). */
typedef enum { UK_FLOAT, UK_INT, UK_UINT, UK_BOOL, UK_UNIT } ukind;
typedef struct {
    GLenum type;
    ukind kind;
    int cols, rows;
} utype;

static const utype k_utypes[] = {
    {GL_FLOAT, UK_FLOAT, 1, 1},        {GL_FLOAT_VEC2, UK_FLOAT, 1, 2},
    {GL_FLOAT_VEC3, UK_FLOAT, 1, 3},   {GL_FLOAT_VEC4, UK_FLOAT, 1, 4},
    {GL_INT, UK_INT, 1, 1},            {GL_INT_VEC2, UK_INT, 1, 2},
    {GL_INT_VEC3, UK_INT, 1, 3},       {GL_INT_VEC4, UK_INT, 1, 4},
    {GL_UNSIGNED_INT, UK_UINT, 1, 1},  {GL_UNSIGNED_INT_VEC2, UK_UINT, 1, 2},
    {GL_UNSIGNED_INT_VEC3, UK_UINT, 1, 3}, {GL_UNSIGNED_INT_VEC4, UK_UINT, 1, 4},
    {GL_BOOL, UK_BOOL, 1, 1},          {GL_BOOL_VEC2, UK_BOOL, 1, 2},
    {GL_BOOL_VEC3, UK_BOOL, 1, 3},     {GL_BOOL_VEC4, UK_BOOL, 1, 4},
    {GL_FLOAT_MAT2, UK_FLOAT, 2, 2},   {GL_FLOAT_MAT3, UK_FLOAT, 3, 3},
    {GL_FLOAT_MAT4, UK_FLOAT, 4, 4},   {GL_FLOAT_MAT2x3, UK_FLOAT, 2, 3},
    {GL_FLOAT_MAT2x4, UK_FLOAT, 2, 4}, {GL_FLOAT_MAT3x2, UK_FLOAT, 3, 2},
    {GL_FLOAT_MAT3x4, UK_FLOAT, 3, 4}, {GL_FLOAT_MAT4x2, UK_FLOAT, 4, 2},
    {GL_FLOAT_MAT4x3, UK_FLOAT, 4, 3},
};

static const utype *find_utype(GLenum type)
{
    for (size_t i = 0; i < sizeof k_utypes / sizeof k_utypes[0]; i++)
        if (k_utypes[i].type == type)
            return &k_utypes[i];
    /* Everything else a uniform can be here is an opaque sampler/image: a unit. */
    static const utype unit = {0, UK_UNIT, 1, 1};
    return &unit;
}

static void set_matrix(GLint loc, GLenum type, int count, const GLfloat *v)
{
    switch (type) {
    case GL_FLOAT_MAT2: glUniformMatrix2fv(loc, count, GL_FALSE, v); break;
    case GL_FLOAT_MAT3: glUniformMatrix3fv(loc, count, GL_FALSE, v); break;
    case GL_FLOAT_MAT4: glUniformMatrix4fv(loc, count, GL_FALSE, v); break;
    case GL_FLOAT_MAT2x3: glUniformMatrix2x3fv(loc, count, GL_FALSE, v); break;
    case GL_FLOAT_MAT2x4: glUniformMatrix2x4fv(loc, count, GL_FALSE, v); break;
    case GL_FLOAT_MAT3x2: glUniformMatrix3x2fv(loc, count, GL_FALSE, v); break;
    case GL_FLOAT_MAT3x4: glUniformMatrix3x4fv(loc, count, GL_FALSE, v); break;
    case GL_FLOAT_MAT4x2: glUniformMatrix4x2fv(loc, count, GL_FALSE, v); break;
    default: glUniformMatrix4x3fv(loc, count, GL_FALSE, v); break;
    }
}

bool glref_uniform(glref *g, GLuint prog, const char *name, const uint32_t *words, int count)
{
    GLint loc = glGetUniformLocation(prog, name);
    if (loc < 0)
        return glref_fail(g, "uniform \"%s\" is not an active uniform of the program", name);
    /* Find its type. */
    GLint n = 0;
    glGetProgramiv(prog, GL_ACTIVE_UNIFORMS, &n);
    GLenum type = 0;
    GLint size = 0;
    size_t nlen = strlen(name);
    for (GLint i = 0; i < n && !type; i++) {
        char uname[256];
        GLint usize;
        GLenum utype_;
        glGetActiveUniform(prog, (GLuint)i, sizeof uname, NULL, &usize, &utype_, uname);
        /* Arrays are reported as "name[0]". */
        if (strcmp(uname, name) == 0 ||
            (strncmp(uname, name, nlen) == 0 && strcmp(uname + nlen, "[0]") == 0)) {
            type = utype_;
            size = usize;
        }
    }
    if (!type)
        return glref_fail(g, "uniform \"%s\": type not found", name);
    if (count < 1 || count > size)
        return glref_fail(g, "uniform \"%s\": %d elements given, it has %d", name, count, size);
    const utype *t = find_utype(type);
    glUseProgram(prog);
    int comps = t->rows;
    switch (t->kind) {
    case UK_FLOAT:
        if (t->cols > 1)
            set_matrix(loc, type, count, (const GLfloat *)(const void *)words);
        else if (comps == 1) glUniform1fv(loc, count, (const GLfloat *)(const void *)words);
        else if (comps == 2) glUniform2fv(loc, count, (const GLfloat *)(const void *)words);
        else if (comps == 3) glUniform3fv(loc, count, (const GLfloat *)(const void *)words);
        else glUniform4fv(loc, count, (const GLfloat *)(const void *)words);
        break;
    case UK_INT:
    case UK_BOOL:
    case UK_UNIT:
        if (comps == 1) glUniform1iv(loc, count, (const GLint *)(const void *)words);
        else if (comps == 2) glUniform2iv(loc, count, (const GLint *)(const void *)words);
        else if (comps == 3) glUniform3iv(loc, count, (const GLint *)(const void *)words);
        else glUniform4iv(loc, count, (const GLint *)(const void *)words);
        break;
    case UK_UINT:
        if (comps == 1) glUniform1uiv(loc, count, words);
        else if (comps == 2) glUniform2uiv(loc, count, words);
        else if (comps == 3) glUniform3uiv(loc, count, words);
        else glUniform4uiv(loc, count, words);
        break;
    }
    return glref_gl_ok(g, name);
}

bool glref_uniform_int(glref *g, GLuint prog, const char *name, int value)
{
    uint32_t w = (uint32_t)value;
    return glref_uniform(g, prog, name, &w, 1);
}
