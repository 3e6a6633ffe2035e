/* Differential test, GL side: one GLSL program per lookup form, one draw per batch on
 * llvmpipe, one pixel per case. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"

#ifdef TEXVM_HAVE_GLREF

typedef struct target_info {
    GLenum gl;
    const char *sampler;   /* GLSL sampler suffix */
    const char *coord;     /* coordinate expression (normalized / texel) */
    const char *qcoord;    /* coordinate for textureQueryLod */
    const char *deriv;     /* derivative swizzle */
    const char *icoord;    /* texelFetch coordinate */
    const char *ofs_type;  /* offset type ("" = no offsets) */
    int size_comps;        /* components of textureSize */
    bool has_lod;          /* textureLod / texelFetch level / textureSize level / levels */
} target_info;

static const target_info k_targets[] = {
    {GL_TEXTURE_1D, "1D", "c.x", "c.x", "x", "int(c.x)", "int", 1, true},
    {GL_TEXTURE_2D, "2D", "c.xy", "c.xy", "xy", "ivec2(c.xy)", "ivec2", 2, true},
    {GL_TEXTURE_3D, "3D", "c.xyz", "c.xyz", "xyz", "ivec3(c.xyz)", "ivec3", 3, true},
    {GL_TEXTURE_CUBE_MAP, "Cube", "c.xyz", "c.xyz", "xyz", "", "", 2, true},
    {GL_TEXTURE_1D_ARRAY, "1DArray", "c.xy", "c.x", "x", "ivec2(c.xy)", "int", 2, true},
    {GL_TEXTURE_2D_ARRAY, "2DArray", "c.xyz", "c.xy", "xy", "ivec3(c.xyz)", "ivec2", 3, true},
    {GL_TEXTURE_CUBE_MAP_ARRAY, "CubeArray", "c", "c.xyz", "xyz", "", "", 3, true},
    {GL_TEXTURE_RECTANGLE, "2DRect", "c.xy", "c.xy", "xy", "ivec2(c.xy)", "ivec2", 2, false},
    {GL_TEXTURE_BUFFER, "Buffer", "c.x", "", "", "int(c.x)", "", 1, false},
    {GL_TEXTURE_2D_MULTISAMPLE, "2DMS", "c.xy", "", "", "ivec2(c.xy)", "", 2, false},
    {GL_TEXTURE_2D_MULTISAMPLE_ARRAY, "2DMSArray", "c.xyz", "", "", "ivec3(c.xyz)", "", 3,
     false},
};

static const target_info *tinfo(GLenum t)
{
    for (size_t i = 0; i < sizeof k_targets / sizeof k_targets[0]; i++)
        if (k_targets[i].gl == t)
            return &k_targets[i];
    return NULL;
}

/* Shadow coordinate with the reference a.y. */
static void shadow_coord(GLenum t, char *out, size_t n)
{
    switch (t) {
    case GL_TEXTURE_1D: snprintf(out, n, "vec3(c.x, 0.0, a.y)"); break;
    case GL_TEXTURE_2D:
    case GL_TEXTURE_RECTANGLE:
    case GL_TEXTURE_1D_ARRAY: snprintf(out, n, "vec3(c.xy, a.y)"); break;
    case GL_TEXTURE_CUBE_MAP:
    case GL_TEXTURE_2D_ARRAY: snprintf(out, n, "vec4(c.xyz, a.y)"); break;
    default: snprintf(out, n, "c"); break; /* cube array: reference is a separate arg */
    }
}

static char result_kind(const diff_batch *b)
{
    if (b->op == DOP_QDIM || b->op == DOP_QSAMPLES)
        return 'i';
    if (b->op == DOP_QLOD || b->shadow)
        return 'f';
    switch (b->tex.fmt->kind) {
    case DK_UINT: return 'u';
    case DK_SINT: return 'i';
    default: return 'f';
    }
}

/* The lookup expression, assigned to `o`. */
static bool lookup_expr(const diff_batch *b, char *e, size_t n)
{
    const target_info *ti = tinfo(b->tex.gl_target);
    if (!ti)
        return false;
    char C[64], ofs[48] = "";
    if (b->shadow)
        shadow_coord(b->tex.gl_target, C, sizeof C);
    else
        snprintf(C, sizeof C, "%s", ti->coord);
    const char *cube_arr_ref =
        b->shadow && b->tex.gl_target == GL_TEXTURE_CUBE_MAP_ARRAY ? ", a.y" : "";
    if (b->offset) {
        if (!strcmp(ti->ofs_type, "int"))
            snprintf(ofs, sizeof ofs, ", %d", b->off[0]);
        else if (!strcmp(ti->ofs_type, "ivec2"))
            snprintf(ofs, sizeof ofs, ", ivec2(%d, %d)", b->off[0], b->off[1]);
        else if (!strcmp(ti->ofs_type, "ivec3"))
            snprintf(ofs, sizeof ofs, ", ivec3(%d, %d, %d)", b->off[0], b->off[1], b->off[2]);
        else
            return false;
    }
    const char *O = b->offset ? "Offset" : "";
    const char *sv = b->shadow ? "o = vec4(" : "o = ";
    const char *ev = b->shadow ? ", 0.0, 0.0, 1.0)" : "";
    switch (b->op) {
    case DOP_SAMPLE:
        snprintf(e, n, "%stexture%s(tex, %s%s%s)%s", sv, O, C, ofs, cube_arr_ref, ev);
        break;
    case DOP_BIAS:
        snprintf(e, n, "%stexture%s(tex, %s%s, a.x)%s", sv, O, C, ofs, ev);
        break;
    case DOP_LOD:
        snprintf(e, n, "%stextureLod%s(tex, %s, a.x%s)%s", sv, O, C, ofs, ev);
        break;
    case DOP_GRAD:
        snprintf(e, n, "%stextureGrad%s(tex, %s, dx.%s, dy.%s%s)%s", sv, O, C, ti->deriv,
                 ti->deriv, ofs, ev);
        break;
    case DOP_GATHER:
        if (b->shadow)
            snprintf(e, n, "o = textureGather%s(tex, %s, a.y%s)", O, ti->coord, ofs);
        else
            snprintf(e, n, "o = textureGather%s(tex, %s%s, %d)", O, C, ofs, b->gather_comp);
        break;
    case DOP_FETCH:
        if (!ti->has_lod) /* rect, buffer: no level; MS: sample */
            snprintf(e, n, "o = texelFetch%s(tex, %s%s%s)", O, ti->icoord,
                     b->tex.samples > 1 ? ", int(a.z)" : "", ofs);
        else
            snprintf(e, n, "o = texelFetch%s(tex, %s, int(a.z)%s)", O, ti->icoord, ofs);
        break;
    case DOP_QLOD:
        snprintf(e, n, "o = vec4(textureQueryLod(tex, %s), 0.0, 0.0)", ti->qcoord);
        break;
    case DOP_QDIM: {
        static const char *const pad[4] = {"", "0, 0, ", "0, ", ""};
        char sz[64];
        if (ti->has_lod)
            snprintf(sz, sizeof sz, "textureSize(tex, int(a.z))");
        else
            snprintf(sz, sizeof sz, "textureSize(tex)");
        if (ti->has_lod)
            snprintf(e, n, "o = ivec4(%s, %stextureQueryLevels(tex))", sz, pad[ti->size_comps]);
        else
            snprintf(e, n, "o = ivec4(%s, %s0)", sz, pad[ti->size_comps]);
        break;
    }
    case DOP_QSAMPLES:
        snprintf(e, n, "o = ivec4(textureSamples(tex), 0, 0, 0)");
        break;
    }
    return true;
}

static bool build_source(const diff_batch *b, char *src, size_t n)
{
    const target_info *ti = tinfo(b->tex.gl_target);
    char expr[256];
    if (!ti || !lookup_expr(b, expr, sizeof expr))
        return false;
    char k = result_kind(b);
    const char *prefix = "";
    if (!b->shadow && b->tex.fmt->kind == DK_UINT)
        prefix = "u";
    else if (!b->shadow && b->tex.fmt->kind == DK_SINT)
        prefix = "i";
    const char *otype = k == 'u' ? "uvec4" : k == 'i' ? "ivec4" : "vec4";
    snprintf(src, n,
             "#version 450 core\n"
             "uniform highp sampler2D params;\n"
             "uniform highp %ssampler%s%s tex;\n"
             "layout(location = 0) out %s o;\n"
             "void main() {\n"
             "    int px = int(gl_FragCoord.x), py = int(gl_FragCoord.y) * 4;\n"
             "    vec4 c = texelFetch(params, ivec2(px, py), 0);\n"
             "    vec4 a = texelFetch(params, ivec2(px, py + 1), 0);\n"
             "    vec4 dx = texelFetch(params, ivec2(px, py + 2), 0);\n"
             "    vec4 dy = texelFetch(params, ivec2(px, py + 3), 0);\n"
             "    %s;\n"
             "}\n",
             prefix, ti->sampler, b->shadow ? "Shadow" : "", otype, expr);
    return true;
}

/* Program cache: the same lookup form is compiled once. */
#define CACHE_MAX 256
static struct {
    char *src;
    GLuint prog;
} s_cache[CACHE_MAX];
static int s_ncache;

void diff_gl_cache_clear(glref *g)
{
    for (int i = 0; i < s_ncache; i++) {
        glref_program_delete(g, s_cache[i].prog);
        free(s_cache[i].src);
    }
    s_ncache = 0;
}

static GLuint program_for(glref *g, const char *src)
{
    for (int i = 0; i < s_ncache; i++)
        if (!strcmp(s_cache[i].src, src))
            return s_cache[i].prog;
    GLuint p = glref_program(g, NULL, src);
    if (!p)
        return 0;
    if (s_ncache < CACHE_MAX) {
        s_cache[s_ncache].src = malloc(strlen(src) + 1);
        if (s_cache[s_ncache].src) {
            strcpy(s_cache[s_ncache].src, src);
            s_cache[s_ncache++].prog = p;
        }
    }
    return p;
}

bool diff_gl_run(glref *g, diff_batch *b, char *err, size_t err_size)
{
    char src[2048];
    if (!build_source(b, src, sizeof src)) {
        snprintf(err, err_size, "no GLSL form for this batch");
        return false;
    }
    GLuint prog = program_for(g, src);
    if (!prog) {
        snprintf(err, err_size, "%s\n%s", glref_error(g), src);
        return false;
    }
    const diff_texture *t = &b->tex;
    glref_texture_desc td;
    glref_texture_desc_init(&td);
    td.target = t->gl_target;
    td.internal_format = t->fmt->ifmt;
    td.format = t->fmt->fmt;
    td.type = t->fmt->type;
    td.width = t->w;
    td.height = t->gl_target == GL_TEXTURE_1D_ARRAY ? t->layers : diff_level_h(t, 0);
    td.depth = t->gl_target == GL_TEXTURE_3D ? t->d
               : (t->gl_target == GL_TEXTURE_2D_ARRAY || t->gl_target == GL_TEXTURE_CUBE_MAP_ARRAY ||
                  t->gl_target == GL_TEXTURE_2D_MULTISAMPLE_ARRAY)
                   ? t->layers
                   : 1;
    td.levels = t->levels;
    td.samples = t->samples;
    for (int l = 0; l < t->levels; l++) {
        td.data[l] = t->data + t->level_off[l];
        td.data_size[l] = t->level_size[l];
    }
    td.base_level = t->base;
    td.max_level = t->max;
    GLuint tex = glref_texture(g, &td);
    if (!tex) {
        snprintf(err, err_size, "texture: %s", glref_error(g));
        return false;
    }
    GLuint smp = 0;
    bool has_sampler = t->gl_target != GL_TEXTURE_BUFFER &&
                       t->gl_target != GL_TEXTURE_2D_MULTISAMPLE &&
                       t->gl_target != GL_TEXTURE_2D_MULTISAMPLE_ARRAY;
    if (has_sampler) {
        smp = glref_sampler(g, &b->smp);
        if (!smp) {
            glref_texture_delete(g, tex);
            snprintf(err, err_size, "sampler: %s", glref_error(g));
            return false;
        }
    }
    glref_set_seamless(g, b->smp.seamless_cube);
    /* Per-pixel parameters: 4 texels per pixel, rows py*4 + k. */
    static float params[DIFF_H * 4][DIFF_W][4];
    for (int i = 0; i < DIFF_PIX; i++) {
        int x = i % DIFF_W, y = i / DIFF_W;
        memcpy(params[y * 4 + 0][x], b->p[i].c, 16);
        memcpy(params[y * 4 + 1][x], b->p[i].a, 16);
        memcpy(params[y * 4 + 2][x], b->p[i].dx, 16);
        memcpy(params[y * 4 + 3][x], b->p[i].dy, 16);
    }
    glref_texture_desc pd;
    glref_texture_desc_init(&pd);
    pd.internal_format = GL_RGBA32F;
    pd.type = GL_FLOAT;
    pd.width = DIFF_W;
    pd.height = DIFF_H * 4;
    pd.data[0] = params;
    GLuint ptex = glref_texture(g, &pd);
    char k = result_kind(b);
    GLenum fmt = k == 'u' ? GL_RGBA32UI : k == 'i' ? GL_RGBA32I : GL_RGBA32F;
    bool ok = ptex && glref_framebuffer(g, DIFF_W, DIFF_H, 1, &fmt) &&
              glref_bind_texture(g, 0, t->gl_target, tex, smp) &&
              glref_bind_texture(g, 1, GL_TEXTURE_2D, ptex, 0) &&
              glref_uniform_int(g, prog, "tex", 0) &&
              (glGetUniformLocation(prog, "params") < 0 ||
               glref_uniform_int(g, prog, "params", 1)) &&
              glref_draw(g, prog) && glref_read(g, 0, b->gl);
    if (!ok)
        snprintf(err, err_size, "%s", glref_error(g));
    glref_bind_texture(g, 0, t->gl_target, 0, 0);
    glref_bind_texture(g, 1, GL_TEXTURE_2D, 0, 0);
    glref_texture_delete(g, ptex);
    glref_texture_delete(g, tex);
    glref_sampler_delete(g, smp);
    return ok;
}

#endif /* TEXVM_HAVE_GLREF */
