/* glref: textures of every target and samplers with full state. */
#include "glref_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void glref_texture_desc_init(glref_texture_desc *d)
{
    memset(d, 0, sizeof *d);
    d->target = GL_TEXTURE_2D;
    d->internal_format = GL_RGBA8;
    d->format = GL_RGBA;
    d->type = GL_UNSIGNED_BYTE;
    d->width = d->height = d->depth = 1;
    d->levels = 1;
    d->base_level = d->max_level = -1;
}

/* Integer internal formats (read through isampler/usampler, rendered as ivec4/uvec4). */
typedef struct {
    GLenum fmt;
    char kind; /* 'i' or 'u' */
} int_format;

static const int_format k_int_formats[] = {
    {GL_R8I, 'i'},     {GL_RG8I, 'i'},    {GL_RGB8I, 'i'},     {GL_RGBA8I, 'i'},
    {GL_R16I, 'i'},    {GL_RG16I, 'i'},   {GL_RGB16I, 'i'},    {GL_RGBA16I, 'i'},
    {GL_R32I, 'i'},    {GL_RG32I, 'i'},   {GL_RGB32I, 'i'},    {GL_RGBA32I, 'i'},
    {GL_R8UI, 'u'},    {GL_RG8UI, 'u'},   {GL_RGB8UI, 'u'},    {GL_RGBA8UI, 'u'},
    {GL_R16UI, 'u'},   {GL_RG16UI, 'u'},  {GL_RGB16UI, 'u'},   {GL_RGBA16UI, 'u'},
    {GL_R32UI, 'u'},   {GL_RG32UI, 'u'},  {GL_RGB32UI, 'u'},   {GL_RGBA32UI, 'u'},
    {GL_RGB10_A2UI, 'u'},
};

static char format_kind(GLenum fmt)
{
    for (size_t i = 0; i < sizeof k_int_formats / sizeof k_int_formats[0]; i++)
        if (k_int_formats[i].fmt == fmt)
            return k_int_formats[i].kind;
    return 'f';
}

static int level_dim(int size, int level) { return size >> level > 0 ? size >> level : 1; }

/* Upload one level of a non-MS, non-buffer texture. */
static void upload_level(const glref_texture_desc *d, int l)
{
    GLenum t = d->target;
    int w = level_dim(d->width, l);
    int h = t == GL_TEXTURE_1D_ARRAY ? d->height : level_dim(d->height, l);
    int dep = t == GL_TEXTURE_3D ? level_dim(d->depth, l) : d->depth;
    const void *p = d->data[l];
    GLsizei sz = (GLsizei)d->data_size[l];
    GLint ifmt = (GLint)d->internal_format;
    switch (t) {
    case GL_TEXTURE_1D:
        if (d->compressed)
            glCompressedTexImage1D(t, l, d->internal_format, w, 0, sz, p);
        else
            glTexImage1D(t, l, ifmt, w, 0, d->format, d->type, p);
        break;
    case GL_TEXTURE_2D:
    case GL_TEXTURE_RECTANGLE:
    case GL_TEXTURE_1D_ARRAY:
        if (d->compressed)
            glCompressedTexImage2D(t, l, d->internal_format, w, h, 0, sz, p);
        else
            glTexImage2D(t, l, ifmt, w, h, 0, d->format, d->type, p);
        break;
    case GL_TEXTURE_CUBE_MAP:
        /* 6 faces one after the other: face f starts f*h rows into the level data (row
         * skipping needs no knowledge of the texel size). */
        for (int f = 0; f < 6; f++) {
            GLenum face = GL_TEXTURE_CUBE_MAP_POSITIVE_X + (GLenum)f;
            if (d->compressed) {
                size_t face_bytes = d->data_size[l] / 6;
                const void *fp = p ? (const char *)p + face_bytes * (size_t)f : NULL;
                glCompressedTexImage2D(face, l, d->internal_format, w, h, 0,
                                       (GLsizei)face_bytes, fp);
            } else {
                glPixelStorei(GL_UNPACK_SKIP_ROWS, p ? f * h : 0);
                glTexImage2D(face, l, ifmt, w, h, 0, d->format, d->type, p);
                glPixelStorei(GL_UNPACK_SKIP_ROWS, 0);
            }
        }
        break;
    case GL_TEXTURE_3D:
    case GL_TEXTURE_2D_ARRAY:
    case GL_TEXTURE_CUBE_MAP_ARRAY:
        if (d->compressed)
            glCompressedTexImage3D(t, l, d->internal_format, w, h, dep, 0, sz, p);
        else
            glTexImage3D(t, l, ifmt, w, h, dep, 0, d->format, d->type, p);
        break;
    default:
        break;
    }
}

static const char k_ms_fill_fs[] =
    "uniform highp %csampler2DArray src;\n"
    "uniform int base;\n"
    "out %cvec4 o;\n"
    "void main() { o = texelFetch(src, ivec3(gl_FragCoord.xy, base + gl_SampleID), 0); }\n";

/* Fill a multisample texture by rendering each sample from a staging 2D array. */
static bool fill_multisample(glref *g, const glref_texture_desc *d, GLuint tex)
{
    bool arr = d->target == GL_TEXTURE_2D_MULTISAMPLE_ARRAY;
    int layers = arr ? d->depth : 1;
    char kind = format_kind(d->internal_format);
    char pre = kind == 'f' ? ' ' : kind;
    char fs[512];
    char body[400];
    snprintf(body, sizeof body, k_ms_fill_fs, pre, pre);
    snprintf(fs, sizeof fs, "%s\n%s", g->version_line, body);
    if (g->version < 40 && !glref_has_extension(g, "GL_ARB_sample_shading"))
        return glref_fail(g, "multisample fill needs sample shading (GL 4.0)");
    GLuint prog = glref_program(g, NULL, fs);
    if (!prog)
        return false;
    GLuint stage;
    glGenTextures(1, &stage);
    glBindTexture(GL_TEXTURE_2D_ARRAY, stage);
    glTexImage3D(GL_TEXTURE_2D_ARRAY, 0, (GLint)d->internal_format, d->width, d->height,
                 layers * d->samples, 0, d->format, d->type, d->data[0]);
    glTexParameteri(GL_TEXTURE_2D_ARRAY, GL_TEXTURE_MAX_LEVEL, 0);
    /* integer textures are incomplete with linear filters */
    glTexParameteri(GL_TEXTURE_2D_ARRAY, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D_ARRAY, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    GLint prev_fbo = 0;
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &prev_fbo);
    GLuint fbo;
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glUseProgram(prog);
    glActiveTexture(GL_TEXTURE0);
    glUniform1i(glGetUniformLocation(prog, "src"), 0);
    glViewport(0, 0, d->width, d->height);
    glEnable(GL_MULTISAMPLE);
    glEnable(GL_SAMPLE_SHADING);
    glMinSampleShading(1.0f);
    bool ok = true;
    for (int layer = 0; layer < layers && ok; layer++) {
        if (arr)
            glFramebufferTextureLayer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, tex, 0, layer);
        else
            glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0,
                                   GL_TEXTURE_2D_MULTISAMPLE, tex, 0);
        if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
            ok = glref_fail(g, "multisample texture of this format is not renderable");
            break;
        }
        glUniform1i(glGetUniformLocation(prog, "base"), layer * d->samples);
        glBindVertexArray(g->vao);
        glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    }
    glDisable(GL_SAMPLE_SHADING);
    glBindFramebuffer(GL_FRAMEBUFFER, (GLuint)prev_fbo);
    glDeleteFramebuffers(1, &fbo);
    glDeleteTextures(1, &stage);
    glDeleteProgram(prog);
    return ok && glref_gl_ok(g, "multisample fill");
}

GLuint glref_texture(glref *g, const glref_texture_desc *d)
{
    if (d->levels < 1 || d->levels > GLREF_MAX_LEVELS || d->width < 1 || d->height < 1 ||
        d->depth < 1) {
        glref_fail(g, "texture: bad size %dx%dx%d or level count %d", d->width, d->height,
                   d->depth, d->levels);
        return 0;
    }
    while (glGetError() != GL_NO_ERROR) {
    }
    GLuint tex;
    glGenTextures(1, &tex);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(d->target, tex);
    switch (d->target) {
    case GL_TEXTURE_BUFFER: {
        GLuint buf = glref_buffer(g, d->data[0], d->data_size[0]);
        if (!buf) {
            glDeleteTextures(1, &tex);
            return 0;
        }
        glBindTexture(GL_TEXTURE_BUFFER, tex);
        glTexBuffer(GL_TEXTURE_BUFFER, d->internal_format, buf);
        /* The texture keeps the buffer alive; drop our name for it. */
        glDeleteBuffers(1, &buf);
        break;
    }
    case GL_TEXTURE_2D_MULTISAMPLE:
        glTexImage2DMultisample(d->target, d->samples, d->internal_format, d->width,
                                d->height, GL_TRUE);
        if (d->data[0] && !fill_multisample(g, d, tex)) {
            glDeleteTextures(1, &tex);
            return 0;
        }
        break;
    case GL_TEXTURE_2D_MULTISAMPLE_ARRAY:
        glTexImage3DMultisample(d->target, d->samples, d->internal_format, d->width,
                                d->height, d->depth, GL_TRUE);
        if (d->data[0] && !fill_multisample(g, d, tex)) {
            glDeleteTextures(1, &tex);
            return 0;
        }
        break;
    default:
        for (int l = 0; l < d->levels; l++)
            upload_level(d, l);
        glTexParameteri(d->target, GL_TEXTURE_BASE_LEVEL, d->base_level >= 0 ? d->base_level : 0);
        glTexParameteri(d->target, GL_TEXTURE_MAX_LEVEL,
                        d->max_level >= 0 ? d->max_level : d->levels - 1);
        break;
    }
    glBindTexture(d->target, tex);
    bool sw = d->swizzle[0] || d->swizzle[1] || d->swizzle[2] || d->swizzle[3];
    if (sw && d->target != GL_TEXTURE_BUFFER) {
        static const GLint ident[4] = {GL_RED, GL_GREEN, GL_BLUE, GL_ALPHA};
        GLint s[4];
        for (int i = 0; i < 4; i++)
            s[i] = d->swizzle[i] ? d->swizzle[i] : ident[i];
        glTexParameteriv(d->target, GL_TEXTURE_SWIZZLE_RGBA, s);
    }
    if (d->depth_stencil_mode)
        glTexParameteri(d->target, GL_DEPTH_STENCIL_TEXTURE_MODE, (GLint)d->depth_stencil_mode);
    if (d->srgb_decode_skip)
        glTexParameteri(d->target, 0x8A48 /* GL_TEXTURE_SRGB_DECODE_EXT */,
                        0x8A4A /* GL_SKIP_DECODE_EXT */);
    if (!glref_gl_ok(g, "texture creation")) {
        glDeleteTextures(1, &tex);
        return 0;
    }
    return tex;
}

void glref_texture_delete(glref *g, GLuint tex)
{
    (void)g;
    if (tex)
        glDeleteTextures(1, &tex);
}

void glref_sampler_desc_init(glref_sampler_desc *d)
{
    memset(d, 0, sizeof *d);
    d->min_filter = GL_NEAREST_MIPMAP_LINEAR;
    d->mag_filter = GL_LINEAR;
    d->wrap_s = d->wrap_t = d->wrap_r = GL_REPEAT;
    d->border_kind = GLREF_BORDER_FLOAT;
    d->min_lod = -1000.0f;
    d->max_lod = 1000.0f;
    d->compare_mode = GL_NONE;
    d->compare_func = GL_LEQUAL;
    d->max_anisotropy = 1.0f;
    d->srgb_decode = true;
    d->seamless_cube = true;
}

GLuint glref_sampler(glref *g, const glref_sampler_desc *d)
{
    while (glGetError() != GL_NO_ERROR) {
    }
    GLuint s;
    glGenSamplers(1, &s);
    glSamplerParameteri(s, GL_TEXTURE_MIN_FILTER, (GLint)d->min_filter);
    glSamplerParameteri(s, GL_TEXTURE_MAG_FILTER, (GLint)d->mag_filter);
    glSamplerParameteri(s, GL_TEXTURE_WRAP_S, (GLint)d->wrap_s);
    glSamplerParameteri(s, GL_TEXTURE_WRAP_T, (GLint)d->wrap_t);
    glSamplerParameteri(s, GL_TEXTURE_WRAP_R, (GLint)d->wrap_r);
    switch (d->border_kind) {
    case GLREF_BORDER_FLOAT: {
        float f[4];
        memcpy(f, d->border, sizeof f);
        glSamplerParameterfv(s, GL_TEXTURE_BORDER_COLOR, f);
        break;
    }
    case GLREF_BORDER_INT: {
        GLint v[4];
        memcpy(v, d->border, sizeof v);
        glSamplerParameterIiv(s, GL_TEXTURE_BORDER_COLOR, v);
        break;
    }
    case GLREF_BORDER_UINT:
        glSamplerParameterIuiv(s, GL_TEXTURE_BORDER_COLOR, d->border);
        break;
    }
    glSamplerParameterf(s, GL_TEXTURE_LOD_BIAS, d->lod_bias);
    glSamplerParameterf(s, GL_TEXTURE_MIN_LOD, d->min_lod);
    glSamplerParameterf(s, GL_TEXTURE_MAX_LOD, d->max_lod);
    glSamplerParameteri(s, GL_TEXTURE_COMPARE_MODE, (GLint)d->compare_mode);
    glSamplerParameteri(s, GL_TEXTURE_COMPARE_FUNC, (GLint)d->compare_func);
    glSamplerParameterf(s, GL_TEXTURE_MAX_ANISOTROPY, d->max_anisotropy);
    if (d->reduction) {
        if (!glref_has_extension(g, "GL_ARB_texture_filter_minmax")) {
            glDeleteSamplers(1, &s);
            glref_fail(g, "min/max reduction needs ARB_texture_filter_minmax");
            return 0;
        }
        glSamplerParameteri(s, 0x9366 /* GL_TEXTURE_REDUCTION_MODE_ARB */, (GLint)d->reduction);
    }
    if (!d->srgb_decode) {
        if (!glref_has_extension(g, "GL_EXT_texture_sRGB_decode")) {
            glDeleteSamplers(1, &s);
            glref_fail(g, "sampler without sRGB decode needs EXT_texture_sRGB_decode");
            return 0;
        }
        glSamplerParameteri(s, 0x8A48 /* GL_TEXTURE_SRGB_DECODE_EXT */,
                            0x8A4A /* GL_SKIP_DECODE_EXT */);
    }
    if (glref_has_extension(g, "GL_AMD_seamless_cubemap_per_texture") ||
        glref_has_extension(g, "GL_ARB_seamless_cubemap_per_texture"))
        glSamplerParameteri(s, GL_TEXTURE_CUBE_MAP_SEAMLESS, d->seamless_cube ? 1 : 0);
    if (!glref_gl_ok(g, "sampler state")) {
        glDeleteSamplers(1, &s);
        return 0;
    }
    /* Remember the seamless choice on the sampler object for glref_bind_texture. */
    return s;
}

void glref_sampler_delete(glref *g, GLuint smp)
{
    (void)g;
    if (smp)
        glDeleteSamplers(1, &smp);
}

bool glref_set_seamless(glref *g, bool on)
{
    if (on)
        glEnable(GL_TEXTURE_CUBE_MAP_SEAMLESS);
    else
        glDisable(GL_TEXTURE_CUBE_MAP_SEAMLESS);
    return glref_gl_ok(g, "seamless cube map");
}

bool glref_bind_texture(glref *g, unsigned unit, GLenum target, GLuint tex, GLuint smp)
{
    glActiveTexture(GL_TEXTURE0 + unit);
    glBindTexture(target, tex);
    glBindSampler(unit, smp);
    glActiveTexture(GL_TEXTURE0);
    return glref_gl_ok(g, "texture binding");
}

bool glref_bind_image(glref *g, unsigned unit, GLuint tex, int level, bool layered, int layer,
                      GLenum access, GLenum format)
{
    if (g->version < 42 && !glref_has_extension(g, "GL_ARB_shader_image_load_store"))
        return glref_fail(g, "images need GL 4.2 (%s offers %d.%d)", g->renderer,
                          g->version / 10, g->version % 10);
    glBindImageTexture(unit, tex, level, layered ? GL_TRUE : GL_FALSE, layer, access, format);
    return glref_gl_ok(g, "image binding");
}
