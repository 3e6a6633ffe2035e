/* Job loader: outputs, checks, options. */
#include "job_internal.h"
#include "job_limits.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The resource an output or check names: exactly one of these keys. */
static bool resource(jl *c, const cJSON *e, bool allow_vertices, int *res, int *index)
{
    static const char *const keys[] = {"target", "depth", "stencil", "texture", "buffer",
                                       "hwatomics", "vertices"};
    static const int kinds[] = {JOB_RES_TARGET, JOB_RES_DEPTH, JOB_RES_STENCIL, JOB_RES_TEXTURE,
                                JOB_RES_BUFFER, JOB_RES_HWATOMIC, JOB_RES_VERTICES};
    size_t nk = allow_vertices ? 7 : 6;
    int found = 0;
    for (size_t i = 0; i < nk; i++)
        if (cJSON_GetObjectItemCaseSensitive(e, keys[i])) {
            found++;
            *res = kinds[i];
        }
    if (found != 1)
        return jl_fail(c, TV_JOB_ERR_INVALID,
                       "name exactly one of \"target\", \"depth\", \"stencil\", \"texture\", "
                       "\"buffer\", \"hwatomics\"%s",
                       allow_vertices ? ", \"vertices\"" : "");
    job *j = c->job;
    uint32_t u;
    bool b;
    *index = 0;
    switch (*res) {
    case JOB_RES_TARGET:
        if (j->run != TV_TGSI_FRAG)
            return jl_fail_at(c, "target", TV_JOB_ERR_INVALID, "render targets exist only in FRAG jobs");
        if (!jl_get_uint(c, e, "target", true, 0, 0, JOB_MAX_TARGETS - 1, &u))
            return false;
        if (u >= j->frag.num_targets)
            return jl_fail_at(c, "target", TV_JOB_ERR_INVALID, "target %u, but frag has %u targets",
                              u, j->frag.num_targets);
        *index = (int)u;
        return true;
    case JOB_RES_DEPTH:
    case JOB_RES_STENCIL: {
        const char *k = *res == JOB_RES_DEPTH ? "depth" : "stencil";
        if (!jl_get_bool(c, e, k, false, &b))
            return false;
        if (!b)
            return jl_fail_at(c, k, TV_JOB_ERR_INVALID, "expected true");
        if (j->run != TV_TGSI_FRAG || (*res == JOB_RES_DEPTH ? !j->frag.has_depth
                                                              : !j->frag.has_stencil))
            return jl_fail_at(c, k, TV_JOB_ERR_INVALID, "the job has no frag.%s buffer", k);
        return true;
    }
    case JOB_RES_TEXTURE:
        return jl_get_ref(c, e, "texture", true, JL_REF_TEXTURE, index);
    case JOB_RES_BUFFER:
        return jl_get_ref(c, e, "buffer", true, JL_REF_BUFFER, index);
    case JOB_RES_HWATOMIC:
        if (!jl_get_uint(c, e, "hwatomics", true, 0, 0, 31, &u))
            return false;
        for (size_t i = 0; i < j->num_hwatomics; i++)
            if (j->hwatomics[i].slot == u) {
                *index = (int)i;
                return true;
            }
        return jl_fail_at(c, "hwatomics", TV_JOB_ERR_INVALID, "no hwatomics entry with slot %u", u);
    default:
        if (j->run != TV_TGSI_VERT && j->run != TV_TGSI_GEOM)
            return jl_fail_at(c, "vertices", TV_JOB_ERR_INVALID,
                              "vertex outputs exist only in VERT and GEOM jobs");
        return true;
    }
}

static bool level_layer(jl *c, const cJSON *e, const job_texture *t, int def, int *level,
                        int *layer)
{
    if (!jl_get_int(c, e, "level", false, def, 0, 15, level) ||
        !jl_get_int(c, e, "layer", false, def, 0, 65535, layer))
        return false;
    /* one of the two names one image: the other defaults to 0 (layer 0 of a level, or
       level 0 of a layer) */
    if (*level >= 0 && *layer < 0)
        *layer = 0;
    if (*layer >= 0 && *level < 0)
        *level = 0;
    if (*level >= 0 && (uint32_t)*level >= t->levels)
        return jl_fail_at(c, "level", TV_JOB_ERR_INVALID, "level %d, but the texture has %u levels",
                          *level, t->levels);
    if (*layer >= 0 && (uint32_t)*layer >= job_texture_layers(t, *level < 0 ? 0 : (uint32_t)*level))
        return jl_fail_at(c, "layer", TV_JOB_ERR_INVALID, "layer %d, but the texture has %u", *layer,
                          job_texture_layers(t, *level < 0 ? 0 : (uint32_t)*level));
    return true;
}

static bool output(jl *c, const cJSON *e, size_t i)
{
    job_output *o = &c->job->outputs[i];
    static const char *const keys[] = {"target", "depth", "stencil", "texture", "buffer",
                                       "hwatomics", "vertices", "png", "raw", "dump", "level",
                                       "layer", "channels", "bits", "type", "columns", NULL};
    static const char *const ch_names[] = {"rgba", "rgb", "gray", "ga", NULL};
    if (!jl_object(c, e, keys) || !resource(c, e, true, &o->res, &o->index))
        return false;
    const char *path = NULL;
    if (o->res == JOB_RES_VERTICES) {
        o->writer = JOB_OUT_TEXT;
        if (!jl_get_string(c, e, "vertices", true, &path))
            return false;
        if (cJSON_GetObjectItemCaseSensitive(e, "png") || cJSON_GetObjectItemCaseSensitive(e, "raw") ||
            cJSON_GetObjectItemCaseSensitive(e, "dump"))
            return jl_fail(c, TV_JOB_ERR_INVALID, "\"vertices\" names the file itself");
    } else {
        static const char *const writers[] = {"png", "raw", "dump"};
        int found = 0;
        for (int i = 0; i < 3; i++)
            if (cJSON_GetObjectItemCaseSensitive(e, writers[i])) {
                found++;
                o->writer = i;
                if (!jl_get_string(c, e, writers[i], true, &path))
                    return false;
            }
        if (found != 1)
            return jl_fail(c, TV_JOB_ERR_INVALID, "give exactly one of \"png\", \"raw\", \"dump\"");
        bool image_like = o->res == JOB_RES_TARGET || o->res == JOB_RES_TEXTURE ||
                          o->res == JOB_RES_DEPTH || o->res == JOB_RES_STENCIL;
        if (o->writer == JOB_OUT_PNG && !image_like)
            return jl_fail_at(c, "png", TV_JOB_ERR_INVALID,
                              "PNG output is for targets, depth, stencil and textures");
        if (o->writer == JOB_OUT_DUMP && image_like)
            return jl_fail_at(c, "dump", TV_JOB_ERR_INVALID,
                              "dump output is for buffers and hwatomics (use raw or png)");
    }
    if (!*path)
        return jl_fail(c, TV_JOB_ERR_INVALID, "empty file name");
    if (!job_output_path_ok(path)) /* a job writes only inside its output folder */
        return jl_fail(c, TV_JOB_ERR_INVALID,
                       "\"%s\" leaves the output folder (absolute, or a \"..\" part)", path);
    if (o->writer == JOB_OUT_PNG) { /* the name says what the file holds */
        size_t pl = strlen(path);
        if (pl < 4 || strcasecmp(path + pl - 4, ".png"))
            return jl_fail_at(c, "png", TV_JOB_ERR_INVALID,
                              "\"%s\" would hold a PNG image: name it FILE.png", path);
    }
    if (!(o->path = strdup(path)))
        return jl_fail(c, TV_JOB_ERR_INVALID, "out of memory");
    uint32_t bits;
    o->level = o->layer = 0;
    if (o->res == JOB_RES_TEXTURE) {
        if (!level_layer(c, e, &c->job->textures[o->index], o->writer == JOB_OUT_PNG ? 0 : -1,
                         &o->level, &o->layer))
            return false;
        if (o->writer == JOB_OUT_PNG && o->level < 0)
            return jl_fail_at(c, "level", TV_JOB_ERR_INVALID, "a PNG shows one level and layer");
    } else if (cJSON_GetObjectItemCaseSensitive(e, "level") ||
               cJSON_GetObjectItemCaseSensitive(e, "layer")) {
        return jl_fail(c, TV_JOB_ERR_INVALID, "\"level\" and \"layer\" are for texture outputs");
    }
    if (!jl_get_enum(c, e, "channels", ch_names, NULL, JOB_PNG_RGBA, &o->channels) ||
        !jl_get_uint(c, e, "bits", false, 8, 8, 16, &bits) ||
        !jl_get_type(c, e, "type", JOB_TYPE_UINT, &o->type) ||
        !jl_get_uint(c, e, "columns", false, 4, 1, 64, &o->columns))
        return false;
    if (bits != 8 && bits != 16)
        return jl_fail_at(c, "bits", TV_JOB_ERR_INVALID, "bits must be 8 or 16");
    o->bits = (int)bits;
    return true;
}

bool jl_outputs(jl *c, const cJSON *root)
{
    job *j = c->job;
    return jl_each(c, root, "outputs", (void **)&j->outputs, sizeof *j->outputs,
                   &j->num_outputs, output);
}

static bool check(jl *c, const cJSON *e, size_t i)
{
    job_check *k = &c->job->checks[i];
    static const char *const keys[] = {"target", "depth", "stencil", "texture", "buffer",
                                       "hwatomics", "pixel", "level", "layer", "offset", "type",
                                       "values", "tolerance", "reference", NULL};
    if (!jl_object(c, e, keys) || !resource(c, e, false, &k->res, &k->index))
        return false;
    if (cJSON_GetObjectItemCaseSensitive(e, "reference")) {
        /* a whole image against a PNG: tolerance in PNG steps */
        uint32_t level, layer;
        if (k->res == JOB_RES_BUFFER || k->res == JOB_RES_HWATOMIC)
            return jl_fail_at(c, "reference", TV_JOB_ERR_INVALID,
                              "a reference image is for targets, depth, stencil and textures");
        if (cJSON_GetObjectItemCaseSensitive(e, "values") ||
            cJSON_GetObjectItemCaseSensitive(e, "pixel"))
            return jl_fail_at(c, "reference", TV_JOB_ERR_INVALID,
                              "give \"reference\" or \"pixel\" and \"values\", not both");
        if (!jl_get_path(c, e, "reference", true, &k->reference) ||
            !jl_get_double(c, e, "tolerance", false, 0.0, 0.0, 65535.0, &k->tolerance) ||
            !jl_get_uint(c, e, "level", false, 0, 0, 15, &level) ||
            !jl_get_uint(c, e, "layer", false, 0, 0, 65535, &layer))
            return false;
        k->level = level;
        k->layer = layer;
        if (k->res == JOB_RES_TEXTURE) {
            const job_texture *t = &c->job->textures[k->index];
            if (level >= t->levels)
                return jl_fail_at(c, "level", TV_JOB_ERR_INVALID,
                                  "level %u, but the texture has %u levels", level, t->levels);
            if (layer >= job_texture_layers(t, level))
                return jl_fail_at(c, "layer", TV_JOB_ERR_INVALID, "layer %u, but the texture has %u",
                                  layer, job_texture_layers(t, level));
        }
        return true;
    }
    job *j = c->job;
    bool image_like = k->res == JOB_RES_TARGET || k->res == JOB_RES_TEXTURE ||
                      k->res == JOB_RES_DEPTH || k->res == JOB_RES_STENCIL;
    int deftype = JOB_TYPE_FLOAT;
    if (k->res == JOB_RES_BUFFER || k->res == JOB_RES_HWATOMIC || k->res == JOB_RES_STENCIL)
        deftype = JOB_TYPE_UINT;
    else if (k->res == JOB_RES_TARGET || k->res == JOB_RES_TEXTURE) {
        tv_format f = k->res == JOB_RES_TARGET ? j->frag.targets[k->index].format
                                               : j->textures[k->index].format;
        const tv_format_info *fi = tv_format_get(f);
        if (fi && fi->kind == TV_FMT_KIND_UINT)
            deftype = JOB_TYPE_UINT;
        if (fi && fi->kind == TV_FMT_KIND_SINT)
            deftype = JOB_TYPE_INT;
    }
    if (!jl_get_type(c, e, "type", deftype, &k->type) ||
        !jl_get_words(c, e, "values", true, k->type, JL_PAD_FLAT, &k->values) ||
        !jl_get_double(c, e, "tolerance", false, 0.0, 0.0, 1e30, &k->tolerance) ||
        !jl_get_u64(c, e, "offset", false, 0, &k->offset) ||
        !jl_get_uint(c, e, "level", false, 0, 0, 15, &k->level) ||
        !jl_get_uint(c, e, "layer", false, 0, 0, 65535, &k->layer))
        return false;
    if (k->values.count == 0)
        return jl_fail_at(c, "values", TV_JOB_ERR_INVALID, "no values to check");
    if (image_like) {
        const cJSON *p = cJSON_GetObjectItemCaseSensitive(e, "pixel");
        if (!p)
            return jl_fail_at(c, "pixel", TV_JOB_ERR_INVALID, "required key is missing");
        if (!cJSON_IsArray(p) || cJSON_GetArraySize(p) != 2 || !cJSON_IsNumber(p->child) ||
            !cJSON_IsNumber(p->child->next) ||
            !jl_is_uint_in(p->child->valuedouble, 4294967295.0) ||
            !jl_is_uint_in(p->child->next->valuedouble, 4294967295.0))
            return jl_fail_at(c, "pixel", TV_JOB_ERR_INVALID, "expected [x, y]");
        k->pixel[0] = (uint32_t)p->child->valuedouble;
        k->pixel[1] = (uint32_t)p->child->next->valuedouble;
        uint32_t w = j->frag.width, h = j->frag.height;
        if (k->res == JOB_RES_TEXTURE) {
            const job_texture *t = &j->textures[k->index];
            if (k->level >= t->levels)
                return jl_fail_at(c, "level", TV_JOB_ERR_INVALID,
                                  "level %u, but the texture has %u levels", k->level, t->levels);
            if (k->layer >= job_texture_layers(t, k->level))
                return jl_fail_at(c, "layer", TV_JOB_ERR_INVALID, "layer %u, but the texture has %u",
                                  k->layer, job_texture_layers(t, k->level));
            w = job_level_size(t->width, k->level);
            h = job_level_size(t->height, k->level);
        }
        if (k->pixel[0] >= w || k->pixel[1] >= h)
            return jl_fail_at(c, "pixel", TV_JOB_ERR_INVALID, "pixel (%u, %u) is outside %ux%u",
                              k->pixel[0], k->pixel[1], w, h);
        if (k->values.count > 4)
            return jl_fail_at(c, "values", TV_JOB_ERR_INVALID, "a pixel has at most 4 values");
    } else {
        if (cJSON_GetObjectItemCaseSensitive(e, "pixel"))
            return jl_fail_at(c, "pixel", TV_JOB_ERR_INVALID, "\"pixel\" is for targets and textures");
        size_t size = k->res == JOB_RES_BUFFER ? j->buffers[k->index].size
                                               : j->hwatomics[k->index].size;
        if (k->offset % 4 || k->offset + k->values.count * 4 > size)
            return jl_fail_at(c, "offset", TV_JOB_ERR_INVALID,
                              "%zu words at byte %llu do not fit the %zu bytes (or the offset "
                              "is not a multiple of 4)",
                              k->values.count, (unsigned long long)k->offset, size);
    }
    return true;
}

bool jl_checks(jl *c, const cJSON *root)
{
    job *j = c->job;
    return jl_each(c, root, "checks", (void **)&j->checks, sizeof *j->checks,
                   &j->num_checks, check);
}

bool jl_options(jl *c, const cJSON *root)
{
    static const char *const keys[] = {"threads", "max_instructions", "max_loop_iterations",
                                       "max_call_depth", "max_memory", "precision",
                                       "robust_access", "denormals", "derivatives", NULL};
    static const char *const prec_names[] = {"reference", "hardware", NULL};
    static const char *const denormal_names[] = {"ieee", "flush", NULL};
    static const char *const derivative_names[] = {"coarse", "fine", NULL};
    const cJSON *o = cJSON_GetObjectItemCaseSensitive(root, "options");
    job_options *op = &c->job->options;
    if (!o)
        return true;
    size_t m = jl_push_key(c, "options");
    int32_t threads;
    bool b;
    if (!jl_object(c, o, keys) || !jl_get_int(c, o, "threads", false, -1, 0, 1024, &threads) ||
        !jl_get_u64(c, o, "max_instructions", false, 0, &op->max_instructions) ||
        !jl_get_u64(c, o, "max_loop_iterations", false, 0, &op->max_loop_iterations) ||
        !jl_get_uint(c, o, "max_call_depth", false, 0, 0, 1u << 20, &op->max_call_depth) ||
        !jl_get_u64(c, o, "max_memory", false, 0, &op->max_memory) ||
        !jl_get_enum(c, o, "precision", prec_names, NULL, -1, &op->precision) ||
        !jl_get_enum(c, o, "denormals", denormal_names, NULL, 0, &op->flush_denormals) ||
        !jl_get_enum(c, o, "derivatives", derivative_names, NULL, 0, &op->fine_derivatives))
        return false;
    op->threads = threads;
    if (cJSON_GetObjectItemCaseSensitive(o, "robust_access")) {
        if (!jl_get_bool(c, o, "robust_access", true, &b))
            return false;
        op->robust_access = b;
    }
    jl_pop(c, m);
    return true;
}
