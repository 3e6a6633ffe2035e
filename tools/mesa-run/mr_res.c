/* mesa-run: the job's textures, samplers, buffers and images as GL objects; bindings of
 * SVIEW/SAMP slots to GLSL sampler uniforms; read-back after the run. */
#include "mr.h"

#include <stdlib.h>
#include <string.h>

#ifndef GL_MIRROR_CLAMP_EXT
#define GL_MIRROR_CLAMP_EXT 0x8742
#define GL_MIRROR_CLAMP_TO_BORDER_EXT 0x8912
#endif

/* texvm texture types -> GL targets (single-sample / multisample). */
static const struct {
    int type;
    GLenum target, ms_target;
} k_types[] = {
    {TV_TEX_1D, GL_TEXTURE_1D, 0},
    {TV_TEX_2D, GL_TEXTURE_2D, GL_TEXTURE_2D_MULTISAMPLE},
    {TV_TEX_3D, GL_TEXTURE_3D, 0},
    {TV_TEX_CUBE, GL_TEXTURE_CUBE_MAP, 0},
    {TV_TEX_1D_ARRAY, GL_TEXTURE_1D_ARRAY, 0},
    {TV_TEX_2D_ARRAY, GL_TEXTURE_2D_ARRAY, GL_TEXTURE_2D_MULTISAMPLE_ARRAY},
    {TV_TEX_1D_BUFFER, GL_TEXTURE_BUFFER, 0},
    {TV_TEX_2D_NO_MIPMAP, GL_TEXTURE_RECTANGLE, 0},
    {TV_TEX_CUBE_ARRAY, GL_TEXTURE_CUBE_MAP_ARRAY, 0},
};

static GLenum gl_target(const job_texture *t)
{
    for (size_t i = 0; i < sizeof k_types / sizeof k_types[0]; i++)
        if (k_types[i].type == t->type)
            return t->samples > 1 ? k_types[i].ms_target : k_types[i].target;
    return 0;
}

static const GLenum k_wraps[8] = {
    [TV_WRAP_REPEAT] = GL_REPEAT,
    [TV_WRAP_MIRROR] = GL_MIRRORED_REPEAT,
    [TV_WRAP_CLAMP_TO_EDGE] = GL_CLAMP_TO_EDGE,
    [TV_WRAP_BORDER] = GL_CLAMP_TO_BORDER,
    [TV_WRAP_CLAMP_OGL] = 0, /* GL_CLAMP: not in core profiles */
    [TV_WRAP_MIRROR_ONCE_CLAMP_TO_EDGE] = GL_MIRROR_CLAMP_TO_EDGE,
    [TV_WRAP_MIRROR_ONCE_BORDER] = GL_MIRROR_CLAMP_TO_BORDER_EXT,
    [TV_WRAP_MIRROR_ONCE_CLAMP_OGL] = GL_MIRROR_CLAMP_EXT,
};

/* (min filter, mip filter) -> GL minification filter. */
static GLenum gl_min_filter(int min, int mip)
{
    bool lin = min != TV_MIN_POINT;
    if (mip == TV_MIP_POINT)
        return lin ? GL_LINEAR_MIPMAP_NEAREST : GL_NEAREST_MIPMAP_NEAREST;
    if (mip == TV_MIP_LINEAR)
        return lin ? GL_LINEAR_MIPMAP_LINEAR : GL_NEAREST_MIPMAP_LINEAR;
    return lin ? GL_LINEAR : GL_NEAREST;
}

static const GLint k_swz[6][2] = {{'r', GL_RED}, {'g', GL_GREEN}, {'b', GL_BLUE},
                                  {'a', GL_ALPHA}, {'0', GL_ZERO}, {'1', GL_ONE}};

static GLint gl_swizzle(char c)
{
    for (int i = 0; i < 6; i++)
        if (k_swz[i][0] == c)
            return k_swz[i][1];
    return 0;
}

/* MS data: texvm's raw order has samples innermost, glref's fill wants [layer][sample]
 * [row][texel]. */
static uint8_t *ms_reorder(const job_texture *t, size_t bpp)
{
    size_t w = t->width, h = t->height, s = t->samples;
    size_t layers = t->type == TV_TEX_2D_ARRAY ? t->layers : 1;
    uint8_t *out = malloc(w * h * s * layers * bpp);
    if (!out)
        return NULL;
    for (size_t l = 0; l < layers; l++)
        for (size_t y = 0; y < h; y++)
            for (size_t x = 0; x < w; x++)
                for (size_t k = 0; k < s; k++)
                    memcpy(out + (((l * s + k) * h + y) * w + x) * bpp,
                           t->data + (((l * h + y) * w + x) * s + k) * bpp, bpp);
    return out;
}

static int make_texture(mr_state *s, size_t i)
{
    const job_texture *t = &s->j->textures[i];
    const mr_format *f = mr_format_for(t->format);
    const tv_format_info *fi = tv_format_get(t->format);
    GLenum target = gl_target(t);
    if (!f)
        return mr_fail(s, TV_EXIT_UNSUPPORTED, "textures[%zu]: format %s has no GL equivalent "
                       "in mesa-run", i, fi ? fi->name : "?");
    if (!target)
        return mr_fail(s, TV_EXIT_UNSUPPORTED, "textures[%zu]: this type/samples combination has "
                       "no GL target", i);
    if (!t->normalized && target != GL_TEXTURE_RECTANGLE)
        return mr_fail(s, TV_EXIT_UNSUPPORTED, "textures[%zu]: unnormalized coordinates exist in "
                       "GL only for rectangle textures (type 2D_NO_MIPMAP)", i);
    glref_texture_desc d;
    glref_texture_desc_init(&d);
    d.target = target;
    d.internal_format = f->ifmt;
    d.format = f->fmt;
    d.type = f->type;
    d.compressed = f->compressed;
    d.width = (int)t->width;
    d.height = t->type == TV_TEX_1D_ARRAY ? (int)t->layers : (int)t->height;
    d.depth = t->type == TV_TEX_3D ? (int)t->depth
              : (t->type == TV_TEX_2D_ARRAY || t->type == TV_TEX_CUBE_ARRAY) ? (int)t->layers
                                                                               : 1;
    d.levels = (int)t->levels;
    d.samples = (int)t->samples;
    if (t->srgb == 0 && fi && fi->srgb)
        d.srgb_decode_skip = true;
    if (t->srgb == 1 && fi && !fi->srgb) {
        if (t->format == TV_FORMAT_R8G8B8A8_UNORM)
            d.internal_format = GL_SRGB8_ALPHA8;
        else
            return mr_fail(s, TV_EXIT_UNSUPPORTED, "textures[%zu]: sRGB view of a non-sRGB "
                           "format other than R8G8B8A8_UNORM", i);
    }
    uint8_t *ms = NULL;
    if (t->samples > 1) {
        ms = ms_reorder(t, fi->block_bytes);
        if (!ms)
            return mr_fail(s, TV_EXIT_INVALID, "out of memory");
        d.data[0] = ms;
    } else {
        for (uint32_t l = 0; l < t->levels && l < GLREF_MAX_LEVELS; l++) {
            d.data[l] = t->data ? t->data + t->level_offset[l] : NULL;
            d.data_size[l] = t->level_size[l];
        }
    }
    d.base_level = (int)t->view_min_level;
    d.max_level = (int)t->view_max_level;
    for (int c = 0; c < 4; c++)
        d.swizzle[c] = gl_swizzle(t->swizzle[c]);
    s->tex[i] = glref_texture(s->g, &d);
    s->tex_target[i] = target;
    free(ms);
    if (!s->tex[i])
        return mr_fail(s, TV_EXIT_INVALID, "textures[%zu]: %s", i, glref_error(s->g));
    return 0;
}

/* The sampler for binding slot `slot` (its border colour type follows the texture). */
static int make_sampler(mr_state *s, size_t i, const job_texture *with)
{
    const job_sampler *p = &s->j->samplers[i];
    glref_sampler_desc d;
    glref_sampler_desc_init(&d);
    d.min_filter = gl_min_filter(p->min_filter, p->mip_filter);
    d.mag_filter = p->mag_filter == TV_MAG_POINT ? GL_NEAREST : GL_LINEAR;
    GLenum *w[3] = {&d.wrap_s, &d.wrap_t, &d.wrap_r};
    for (int k = 0; k < 3; k++) {
        *w[k] = k_wraps[p->wrap[k] & 7];
        if (!*w[k])
            return mr_fail(s, TV_EXIT_UNSUPPORTED, "samplers[%zu]: wrap mode clamp (GL_CLAMP) "
                           "does not exist in core GL", i);
    }
    const mr_format *f = with ? mr_format_for(with->format) : NULL;
    d.border_kind = f && f->kind == 'u'   ? GLREF_BORDER_UINT
                    : f && f->kind == 'i' ? GLREF_BORDER_INT
                                          : GLREF_BORDER_FLOAT;
    memcpy(d.border, p->border, sizeof d.border);
    d.lod_bias = p->lod_bias;
    d.min_lod = p->min_lod;
    d.max_lod = p->max_lod;
    if (p->compare >= 0) {
        d.compare_mode = GL_COMPARE_REF_TO_TEXTURE;
        d.compare_func = GL_NEVER + (GLenum)p->compare;
    }
    d.max_anisotropy = (float)p->max_anisotropy;
    d.seamless_cube = p->seamless_cube;
    /* texvm decodes sRGB only when the sampler's SRGB_CONVERSION is set
       (jobs-resources.md §3) */
    d.srgb_decode = p->srgb_conversion;
    if (p->reduction == 1)
        d.reduction = GL_MIN;
    else if (p->reduction == 2)
        d.reduction = GL_MAX;
    s->smp[i] = glref_sampler(s->g, &d);
    if (!s->smp[i])
        return mr_fail(s, TV_EXIT_INVALID, "samplers[%zu]: %s", i, glref_error(s->g));
    glref_set_seamless(s->g, p->seamless_cube);
    return 0;
}

int mr_resources(mr_state *s)
{
    const job *j = s->j;
    s->tex = calloc(j->num_textures + 1, sizeof *s->tex);
    s->tex_target = calloc(j->num_textures + 1, sizeof *s->tex_target);
    s->smp = calloc(j->num_samplers + 1, sizeof *s->smp);
    s->buf = calloc(j->num_buffers + 1, sizeof *s->buf);
    s->tex_readback = calloc(j->num_textures + 1, sizeof *s->tex_readback);
    s->tex_readback_size = calloc(j->num_textures + 1, sizeof *s->tex_readback_size);
    if (!s->tex || !s->tex_target || !s->smp || !s->buf || !s->tex_readback ||
        !s->tex_readback_size)
        return mr_fail(s, TV_EXIT_INVALID, "out of memory");
    for (size_t i = 0; i < j->num_textures; i++) {
        int rc = make_texture(s, i);
        if (rc)
            return rc;
    }
    for (size_t i = 0; i < j->num_samplers; i++) {
        /* the texture it is used with decides the border colour type */
        const job_texture *with = NULL;
        for (int slot = 0; slot < JOB_MAX_SLOTS && !with; slot++)
            if (j->samp[slot] == (int)i && j->sview[slot] >= 0)
                with = &j->textures[j->sview[slot]];
        int rc = make_sampler(s, i, with);
        if (rc)
            return rc;
    }
    for (size_t i = 0; i < j->num_buffers; i++) {
        s->buf[i] = glref_buffer(s->g, j->buffers[i].data, j->buffers[i].size);
        if (!s->buf[i])
            return mr_fail(s, TV_EXIT_INVALID, "buffers[%zu]: %s", i, glref_error(s->g));
    }
    if (j->num_hwatomics || j->num_memory)
        return mr_fail(s, TV_EXIT_UNSUPPORTED, "hwatomics/memory regions have no GLSL form in "
                       "mesa-run");
    return 0;
}

static bool is_sampler_type(GLenum t)
{
    static const GLenum k[] = {
        GL_SAMPLER_1D, GL_SAMPLER_2D, GL_SAMPLER_3D, GL_SAMPLER_CUBE, GL_SAMPLER_1D_SHADOW,
        GL_SAMPLER_2D_SHADOW, GL_SAMPLER_1D_ARRAY, GL_SAMPLER_2D_ARRAY,
        GL_SAMPLER_1D_ARRAY_SHADOW, GL_SAMPLER_2D_ARRAY_SHADOW, GL_SAMPLER_2D_MULTISAMPLE,
        GL_SAMPLER_2D_MULTISAMPLE_ARRAY, GL_SAMPLER_CUBE_SHADOW, GL_SAMPLER_BUFFER,
        GL_SAMPLER_2D_RECT, GL_SAMPLER_2D_RECT_SHADOW, GL_SAMPLER_CUBE_MAP_ARRAY,
        GL_SAMPLER_CUBE_MAP_ARRAY_SHADOW, GL_INT_SAMPLER_1D, GL_INT_SAMPLER_2D,
        GL_INT_SAMPLER_3D, GL_INT_SAMPLER_CUBE, GL_INT_SAMPLER_1D_ARRAY,
        GL_INT_SAMPLER_2D_ARRAY, GL_INT_SAMPLER_2D_MULTISAMPLE,
        GL_INT_SAMPLER_2D_MULTISAMPLE_ARRAY, GL_INT_SAMPLER_BUFFER, GL_INT_SAMPLER_2D_RECT,
        GL_INT_SAMPLER_CUBE_MAP_ARRAY, GL_UNSIGNED_INT_SAMPLER_1D, GL_UNSIGNED_INT_SAMPLER_2D,
        GL_UNSIGNED_INT_SAMPLER_3D, GL_UNSIGNED_INT_SAMPLER_CUBE,
        GL_UNSIGNED_INT_SAMPLER_1D_ARRAY, GL_UNSIGNED_INT_SAMPLER_2D_ARRAY,
        GL_UNSIGNED_INT_SAMPLER_2D_MULTISAMPLE, GL_UNSIGNED_INT_SAMPLER_2D_MULTISAMPLE_ARRAY,
        GL_UNSIGNED_INT_SAMPLER_BUFFER, GL_UNSIGNED_INT_SAMPLER_2D_RECT,
        GL_UNSIGNED_INT_SAMPLER_CUBE_MAP_ARRAY};
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++)
        if (k[i] == t)
            return true;
    return false;
}

/* Sampler uniforms in location order are SAMP[0], SAMP[1], … of the TGSI (softpipe
 * numbers samplers in declaration order); unit k gets SVIEW[k] + SAMP[k]. */
int mr_bind(mr_state *s)
{
    const job *j = s->j;
    GLuint prog = s->prog;
    GLint n = 0;
    glGetProgramiv(prog, GL_ACTIVE_UNIFORMS, &n);
    typedef struct {
        GLint loc, size;
        char name[128];
    } su;
    su list[JOB_MAX_SLOTS];
    int count = 0;
    for (GLint i = 0; i < n && count < JOB_MAX_SLOTS; i++) {
        GLint size;
        GLenum type;
        char name[128];
        glGetActiveUniform(prog, (GLuint)i, sizeof name, NULL, &size, &type, name);
        if (!is_sampler_type(type))
            continue;
        su e = {glGetUniformLocation(prog, name), size, ""};
        snprintf(e.name, sizeof e.name, "%s", name);
        int k = count++;
        while (k > 0 && list[k - 1].loc > e.loc) {
            list[k] = list[k - 1];
            k--;
        }
        list[k] = e;
    }
    int unit = 0;
    glUseProgram(prog);
    for (int k = 0; k < count; k++)
        for (GLint e = 0; e < list[k].size; e++, unit++) {
            glUniform1i(list[k].loc + e, unit);
            int ti = unit < JOB_MAX_SLOTS ? j->sview[unit] : -1;
            int si = unit < JOB_MAX_SLOTS ? j->samp[unit] : -1;
            if (ti < 0)
                continue;
            if (!glref_bind_texture(s->g, (unsigned)unit, s->tex_target[ti], s->tex[ti],
                                    si >= 0 ? s->smp[si] : 0))
                return mr_fail(s, TV_EXIT_INVALID, "binding unit %d: %s", unit,
                               glref_error(s->g));
            if (si >= 0)
                glref_set_seamless(s->g, j->samplers[si].seamless_cube);
        }
    for (size_t i = 0; i < j->num_buffers; i++)
        if (j->buffers[i].slot >= 0 &&
            !glref_bind_buffer(s->g, GL_SHADER_STORAGE_BUFFER, (unsigned)j->buffers[i].slot,
                               s->buf[i]))
            return mr_fail(s, TV_EXIT_INVALID, "buffers[%zu]: %s", i, glref_error(s->g));
    for (size_t i = 0; i < j->num_images; i++) {
        const job_image *im = &j->images[i];
        tv_format f = im->format != TV_FORMAT_NONE ? im->format : j->textures[im->texture].format;
        const mr_format *mf = mr_format_for(f);
        if (!mf)
            return mr_fail(s, TV_EXIT_UNSUPPORTED, "images[%zu]: format not usable in GL", i);
        if (!glref_bind_image(s->g, im->slot, s->tex[im->texture], (int)im->level,
                              im->layer < 0, im->layer < 0 ? 0 : im->layer, GL_READ_WRITE,
                              mf->ifmt))
            return mr_fail(s, TV_EXIT_INVALID, "images[%zu]: %s", i, glref_error(s->g));
    }
    return 0;
}

/* After the run: buffers back into the job's data, image textures into texvm layout. */
int mr_readback(mr_state *s)
{
    job *j = s->j;
    for (size_t i = 0; i < j->num_buffers; i++)
        if (j->buffers[i].slot >= 0 && j->buffers[i].size &&
            !glref_buffer_read(s->g, s->buf[i], 0, j->buffers[i].size, j->buffers[i].data))
            return mr_fail(s, TV_EXIT_INVALID, "buffers[%zu] read-back: %s", i,
                           glref_error(s->g));
    for (size_t i = 0; i < j->num_textures; i++) {
        const job_texture *t = &j->textures[i];
        const mr_format *f = mr_format_for(t->format);
        GLenum target = s->tex_target[i];
        if (t->samples > 1 || f->compressed || target == GL_TEXTURE_BUFFER)
            continue; /* not writable from shaders here: the data is unchanged */
        s->tex_readback[i] = malloc(t->data_size ? t->data_size : 1);
        if (!s->tex_readback[i])
            return mr_fail(s, TV_EXIT_INVALID, "out of memory");
        s->tex_readback_size[i] = t->data_size;
        glBindTexture(target, s->tex[i]);
        for (uint32_t l = 0; l < t->levels; l++) {
            uint8_t *dst = s->tex_readback[i] + t->level_offset[l];
            if (target == GL_TEXTURE_CUBE_MAP) {
                size_t face = t->level_size[l] / 6;
                for (int fc = 0; fc < 6; fc++)
                    glGetTexImage(GL_TEXTURE_CUBE_MAP_POSITIVE_X + (GLenum)fc, (GLint)l, f->fmt,
                                  f->type, dst + face * (size_t)fc);
            } else {
                glGetTexImage(target, (GLint)l, f->fmt, f->type, dst);
            }
        }
        glBindTexture(target, 0);
        if (glGetError() != GL_NO_ERROR)
            return mr_fail(s, TV_EXIT_INVALID, "textures[%zu]: read-back failed", i);
    }
    return 0;
}

void mr_resources_free(mr_state *s)
{
    const job *j = s->j;
    if (s->tex)
        for (size_t i = 0; i < j->num_textures; i++)
            glref_texture_delete(s->g, s->tex[i]);
    if (s->smp)
        for (size_t i = 0; i < j->num_samplers; i++)
            glref_sampler_delete(s->g, s->smp[i]);
    if (s->buf)
        for (size_t i = 0; i < j->num_buffers; i++)
            glref_buffer_delete(s->g, s->buf[i]);
    if (s->tex_readback)
        for (size_t i = 0; i < j->num_textures; i++)
            free(s->tex_readback[i]);
    for (int i = 0; i < JOB_MAX_SLOTS; i++)
        glref_buffer_delete(s->g, s->ubo[i]);
    free(s->tex);
    free(s->tex_target);
    free(s->smp);
    free(s->buf);
    free(s->tex_readback);
    free(s->tex_readback_size);
}
