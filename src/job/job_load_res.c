/* Job loader: constant buffers, buffers, hardware atomics, memory, samplers, bindings,
 * images. (Textures are job_load_tex.c.) */
#include "job_internal.h"

#include <stdlib.h>
#include <math.h>
#include <string.h>

static bool dup_name(jl *c, const char *name, char **out)
{
    *out = NULL;
    if (!name)
        return true;
    if (!*name)
        return jl_fail_at(c, "name", TV_JOB_ERR_INVALID, "empty name");
    *out = strdup(name);
    return *out ? true : jl_fail(c, TV_JOB_ERR_INVALID, "out of memory");
}

/* ---- constants ------------------------------------------------------------------------- */

static bool constant(jl *c, const cJSON *e, size_t i)
{
    static const char *const keys[] = {"slot", "type", "values", "file", "size", "fill",
                                       "glsl_block", NULL};
    job_constbuf *cb = &c->job->constants[i];
    const char *block;
    if (!jl_object(c, e, keys) ||
        !jl_get_uint(c, e, "slot", true, 0, 0, 31, &cb->slot) ||
        !jl_get_string(c, e, "glsl_block", false, &block) ||
        !jl_payload(c, e, &cb->data, &cb->size, 16))
        return false;
    if (block && !(cb->glsl_block = strdup(block)))
        return jl_fail(c, TV_JOB_ERR_INVALID, "out of memory");
    for (size_t k = 0; k < i; k++)
        if (c->job->constants[k].slot == cb->slot)
            return jl_fail_at(c, "slot", TV_JOB_ERR_INVALID,
                              "constant buffer %u is given twice (constants[%zu])", cb->slot, k);
    return true;
}

bool jl_constants(jl *c, const cJSON *root)
{
    return jl_each(c, root, "constants", (void **)&c->job->constants, sizeof(job_constbuf),
                   &c->job->num_constants, constant);
}

/* ---- buffers, hwatomics, memory ------------------------------------------------------ */

static bool buffer(jl *c, const cJSON *e, size_t i)
{
    static const char *const keys[] = {"name", "slot", "type", "values", "file", "size", "fill",
                                       NULL};
    job_buffer *b = &c->job->buffers[i];
    const char *name;
    int32_t slot;
    if (!jl_object(c, e, keys) || !jl_get_string(c, e, "name", false, &name) ||
        !jl_get_int(c, e, "slot", false, -1, 0, 31, &slot))
        return false;
    b->slot = slot;
    if (name && job_buffer_find(c->job, name) >= 0)
        return jl_fail_at(c, "name", TV_JOB_ERR_INVALID, "duplicate buffer name \"%s\"", name);
    if (!dup_name(c, name, &b->name) || !jl_payload(c, e, &b->data, &b->size, 0))
        return false;
    for (size_t k = 0; k < i && b->slot >= 0; k++)
        if (c->job->buffers[k].slot == b->slot)
            return jl_fail_at(c, "slot", TV_JOB_ERR_INVALID, "BUFFER[%d] is bound twice", b->slot);
    return true;
}

static bool hwatomic(jl *c, const cJSON *e, size_t i)
{
    static const char *const keys[] = {"slot", "type", "values", "file", "size", "fill", NULL};
    job_hwatomic *h = &c->job->hwatomics[i];
    if (!jl_object(c, e, keys) || !jl_get_uint(c, e, "slot", true, 0, 0, 31, &h->slot) ||
        !jl_payload(c, e, &h->data, &h->size, 4))
        return false;
    for (size_t k = 0; k < i; k++)
        if (c->job->hwatomics[k].slot == h->slot)
            return jl_fail_at(c, "slot", TV_JOB_ERR_INVALID, "HWATOMIC[%u] is given twice", h->slot);
    return true;
}

static bool memory(jl *c, const cJSON *e, size_t i)
{
    static const char *const keys[] = {"address", "type", "values", "file", "size", "fill", NULL};
    job_memory *r = &c->job->memory[i];
    if (!jl_object(c, e, keys) || !jl_get_u64(c, e, "address", true, 0, &r->address) ||
        !jl_payload(c, e, &r->data, &r->size, 4))
        return false;
    if (r->address + r->size > ((uint64_t)1 << 32))
        return jl_fail_at(c, "address", TV_JOB_ERR_INVALID,
                          "the region ends past 4 GiB (global memory uses 32-bit addresses)");
    for (size_t k = 0; k < i; k++) {
        const job_memory *o = &c->job->memory[k];
        if (r->address < o->address + o->size && o->address < r->address + r->size)
            return jl_fail_at(c, "address", TV_JOB_ERR_INVALID, "overlaps memory[%zu]", k);
    }
    return true;
}

bool jl_buffers(jl *c, const cJSON *root)
{
    job *j = c->job;
    return jl_each(c, root, "buffers", (void **)&j->buffers, sizeof(job_buffer),
                   &j->num_buffers, buffer) &&
           jl_each(c, root, "hwatomics", (void **)&j->hwatomics, sizeof(job_hwatomic),
                   &j->num_hwatomics, hwatomic) &&
           jl_each(c, root, "memory", (void **)&j->memory, sizeof(job_memory),
                   &j->num_memory, memory);
}

/* ---- samplers ------------------------------------------------------------------------- */

static const char *const wrap_names[] = {"repeat", "mirror", "clamp_to_edge", "border", "clamp",
                                         "mirror_once_clamp_to_edge", "mirror_once_border",
                                         "mirror_once_clamp", NULL};

static bool sampler(jl *c, const cJSON *e, size_t i)
{
    static const char *const keys[] = {
        "name", "sampler_index", "filter", "min_filter", "mag_filter", "mip_filter", "wrap",
        "wrap_u", "wrap_v", "wrap_p", "border_color", "border_type", "lod_bias", "min_lod",
        "max_lod", "compare", "max_anisotropy", "seamless_cube", "unnormalized",
        "srgb_conversion", "reduction", NULL};
    static const char *const filter_names[] = {"point", "nearest", "linear", "trilinear", NULL};
    static const char *const min_names[] = {"point", "nearest", "linear", "anisotropic", NULL};
    static const int min_values[] = {TV_MIN_POINT, TV_MIN_POINT, TV_MIN_LINEAR, TV_MIN_ANISO};
    static const char *const mag_names[] = {"point", "nearest", "linear", NULL};
    static const int mag_values[] = {TV_MAG_POINT, TV_MAG_POINT, TV_MAG_LINEAR};
    static const char *const mip_names[] = {"none", "point", "nearest", "linear", NULL};
    static const int mip_values[] = {TV_MIP_NONE, TV_MIP_POINT, TV_MIP_POINT, TV_MIP_LINEAR};
    static const char *const cmp_names[] = {"none", "never", "less", "equal", "lequal", "greater",
                                            "notequal", "gequal", "always", NULL};
    static const int cmp_values[] = {-1, TV_CMP_NEVER, TV_CMP_LESS, TV_CMP_EQUAL, TV_CMP_LEQUAL,
                                     TV_CMP_GREATER, TV_CMP_NOTEQUAL, TV_CMP_GEQUAL,
                                     TV_CMP_ALWAYS};
    static const char *const red_names[] = {"average", "min", "max", NULL};
    job_sampler *s = &c->job->samplers[i];
    const char *name;
    int32_t idx;
    int filter, v, wrap, btype;
    double d;
    static const uint32_t zero[4] = {0, 0, 0, 0};
    if (!jl_object(c, e, keys) || !jl_get_string(c, e, "name", false, &name) ||
        !jl_get_int(c, e, "sampler_index", false, -1, 0, 4095, &idx))
        return false;
    if (name && job_sampler_find(c->job, name) >= 0)
        return jl_fail_at(c, "name", TV_JOB_ERR_INVALID, "duplicate sampler name \"%s\"", name);
    if (!dup_name(c, name, &s->name))
        return false;
    s->sampler_index = idx;
    s->min_filter = TV_MIN_POINT;
    s->mag_filter = TV_MAG_POINT;
    s->mip_filter = TV_MIP_NONE;
    if (!jl_get_enum(c, e, "filter", filter_names, NULL, -1, &filter))
        return false;
    if (filter >= 2) {
        s->min_filter = TV_MIN_LINEAR;
        s->mag_filter = TV_MAG_LINEAR;
        if (filter == 3)
            s->mip_filter = TV_MIP_LINEAR;
    }
    if (!jl_get_enum(c, e, "min_filter", min_names, min_values, s->min_filter, &v))
        return false;
    s->min_filter = (uint8_t)v;
    if (!jl_get_enum(c, e, "mag_filter", mag_names, mag_values, s->mag_filter, &v))
        return false;
    s->mag_filter = (uint8_t)v;
    if (!jl_get_enum(c, e, "mip_filter", mip_names, mip_values, s->mip_filter, &v))
        return false;
    s->mip_filter = (uint8_t)v;
    if (!jl_get_enum(c, e, "wrap", wrap_names, NULL, TV_WRAP_REPEAT, &wrap))
        return false;
    static const char *const wrap_keys[3] = {"wrap_u", "wrap_v", "wrap_p"};
    for (int k = 0; k < 3; k++) {
        if (!jl_get_enum(c, e, wrap_keys[k], wrap_names, NULL, wrap, &v))
            return false;
        s->wrap[k] = (uint8_t)v;
    }
    if (!jl_get_type(c, e, "border_type", JOB_TYPE_FLOAT, &btype) ||
        !jl_get_vec4(c, e, "border_color", btype, false, zero, s->border))
        return false;
    if (!jl_get_double(c, e, "lod_bias", false, 0.0, -16.0, 15.99609375, &d))
        return false;
    s->lod_bias = (float)d;
    /* any float, clamped to what the descriptor's u4.8 fields hold, as drivers do (Gallium
       sends max_lod 1000 for "no limit", GL min_lod -1000) */
    if (!jl_get_double(c, e, "min_lod", false, 0.0, -3.0e38, 3.0e38, &d))
        return false;
    s->min_lod = (float)fmin(fmax(d, 0.0), 15.99609375);
    if (!jl_get_double(c, e, "max_lod", false, 15.99609375, -3.0e38, 3.0e38, &d))
        return false;
    s->max_lod = (float)fmin(fmax(d, 0.0), 15.99609375);
    if (s->min_lod > s->max_lod)
        return jl_fail_at(c, "min_lod", TV_JOB_ERR_INVALID, "min_lod %g is above max_lod %g",
                          (double)s->min_lod, (double)s->max_lod);
    if (!jl_get_enum(c, e, "compare", cmp_names, cmp_values, -1, &s->compare))
        return false;
    if (!jl_get_uint(c, e, "max_anisotropy", false, 1, 1, 16, &s->max_anisotropy))
        return false;
    if (s->max_anisotropy != 1 && s->max_anisotropy % 2)
        return jl_fail_at(c, "max_anisotropy", TV_JOB_ERR_INVALID,
                          "max_anisotropy must be 1, 2, 4, 6, 8, 10, 12 or 16");
    if (s->max_anisotropy > 1 && s->min_filter == TV_MIN_LINEAR)
        s->min_filter = TV_MIN_ANISO;
    if (!jl_get_bool(c, e, "seamless_cube", true, &s->seamless_cube) ||
        !jl_get_bool(c, e, "unnormalized", false, &s->unnormalized) ||
        /* sRGB textures decode by default, as in GL (the TIC's sRGB bit comes from the
           format, the TSC bit from here); false is GL's SKIP_DECODE */
        !jl_get_bool(c, e, "srgb_conversion", true, &s->srgb_conversion) ||
        !jl_get_enum(c, e, "reduction", red_names, NULL, 0, &v))
        return false;
    s->reduction = (uint8_t)v;
    return true;
}

bool jl_samplers(jl *c, const cJSON *root)
{
    job *j = c->job;
    return jl_each(c, root, "samplers", (void **)&j->samplers, sizeof(job_sampler),
                   &j->num_samplers, sampler);
}

/* ---- bindings ------------------------------------------------------------------------- */

static bool bind_list(jl *c, const cJSON *o, const char *key, bool tex, bool samp)
{
    static const char *const ukeys[] = {"slot", "texture", "sampler", NULL};
    static const char *const vkeys[] = {"slot", "texture", NULL};
    static const char *const skeys[] = {"slot", "sampler", NULL};
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!a)
        return true;
    size_t m0 = jl_push_key(c, key);
    if (!cJSON_IsArray(a))
        return jl_fail(c, TV_JOB_ERR_INVALID, "expected an array, got %s", jl_kind(a));
    size_t i = 0;
    for (const cJSON *e = a->child; e; e = e->next, i++) {
        size_t m = jl_push_index(c, i);
        uint32_t slot;
        int t = -1, s = -1;
        if (!jl_object(c, e, tex && samp ? ukeys : tex ? vkeys : skeys) ||
            !jl_get_uint(c, e, "slot", true, 0, 0, JOB_MAX_SLOTS - 1, &slot) ||
            (tex && !jl_get_ref(c, e, "texture", true, JL_REF_TEXTURE, &t)) ||
            (samp && !jl_get_ref(c, e, "sampler", true, JL_REF_SAMPLER, &s)))
            return false;
        if (tex) {
            if (c->job->sview[slot] >= 0)
                return jl_fail_at(c, "slot", TV_JOB_ERR_INVALID, "SVIEW[%u] is bound twice", slot);
            c->job->sview[slot] = t;
        }
        if (samp) {
            if (c->job->samp[slot] >= 0)
                return jl_fail_at(c, "slot", TV_JOB_ERR_INVALID, "SAMP[%u] is bound twice", slot);
            c->job->samp[slot] = s;
        }
        jl_pop(c, m);
    }
    jl_pop(c, m0);
    return true;
}

bool jl_bindings(jl *c, const cJSON *root)
{
    static const char *const keys[] = {"units", "sviews", "samplers", NULL};
    job *j = c->job;
    const cJSON *b = cJSON_GetObjectItemCaseSensitive(root, "bindings");
    if (!b) {
        for (size_t i = 0; i < j->num_textures && i < JOB_MAX_SLOTS; i++)
            j->sview[i] = (int)i;
        for (size_t i = 0; i < j->num_samplers && i < JOB_MAX_SLOTS; i++)
            j->samp[i] = (int)i;
        return true;
    }
    size_t m = jl_push_key(c, "bindings");
    if (!jl_object(c, b, keys) || !bind_list(c, b, "units", true, true) ||
        !bind_list(c, b, "sviews", true, false) || !bind_list(c, b, "samplers", false, true))
        return false;
    jl_pop(c, m);
    return true;
}

/* ---- images --------------------------------------------------------------------------- */

static bool image(jl *c, const cJSON *e, size_t i)
{
    static const char *const keys[] = {"slot", "texture", "level", "layer", "format", NULL};
    job_image *im = &c->job->images[i];
    if (!jl_object(c, e, keys) || !jl_get_uint(c, e, "slot", true, 0, 0, 31, &im->slot) ||
        !jl_get_ref(c, e, "texture", true, JL_REF_TEXTURE, &im->texture) ||
        !jl_get_uint(c, e, "level", false, 0, 0, 15, &im->level) ||
        !jl_get_int(c, e, "layer", false, -1, -1, 65535, &im->layer) ||
        !jl_get_format(c, e, "format", false, &im->format))
        return false;
    const job_texture *t = &c->job->textures[im->texture];
    if (im->level >= t->levels)
        return jl_fail_at(c, "level", TV_JOB_ERR_INVALID, "level %u, but the texture has %u levels",
                          im->level, t->levels);
    if (im->layer >= 0 && (uint32_t)im->layer >= job_texture_layers(t, im->level))
        return jl_fail_at(c, "layer", TV_JOB_ERR_INVALID, "layer %d, but the texture has %u",
                          im->layer, job_texture_layers(t, im->level));
    if (im->format != TV_FORMAT_NONE) {
        const tv_format_info *a = tv_format_get(im->format), *b = tv_format_get(t->format);
        if (a && b && a->block_bytes != b->block_bytes)
            return jl_fail_at(c, "format", TV_JOB_ERR_INVALID,
                              "%s has %u bytes per texel, the texture's %s has %u", a->name,
                              a->block_bytes, b->name, b->block_bytes);
    }
    for (size_t k = 0; k < i; k++)
        if (c->job->images[k].slot == im->slot)
            return jl_fail_at(c, "slot", TV_JOB_ERR_INVALID, "IMAGE[%u] is bound twice", im->slot);
    return true;
}

bool jl_images(jl *c, const cJSON *root)
{
    job *j = c->job;
    return jl_each(c, root, "images", (void **)&j->images, sizeof(job_image), &j->num_images,
                   image);
}
