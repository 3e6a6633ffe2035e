/* Job loader: the file, the top level, programs and stage parameters. */
#include "job_internal.h"
#include "job_limits.h"
#include "job_load_scene.h"
#include "texvm/job.h"
#include <unistd.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Program stages (TESS_CTRL and TESS_EVAL programs run only in scenes' draws), and what
 * "run" can name. */
static const char *const stage_names[] = {"VERT", "FRAG", "GEOM", "COMP", "TESS_CTRL",
                                          "TESS_EVAL", NULL};
static const int stage_values[] = {TV_TGSI_VERT, TV_TGSI_FRAG, TV_TGSI_GEOM, TV_TGSI_COMP,
                                   TV_TGSI_TESS_CTRL, TV_TGSI_TESS_EVAL};
static const char *const run_names[] = {"VERT", "FRAG", "GEOM", "COMP", "SCENE", NULL};
static const int run_values[] = {TV_TGSI_VERT, TV_TGSI_FRAG, TV_TGSI_GEOM, TV_TGSI_COMP,
                                 JOB_RUN_SCENE};

const char *job_stage_name(int stage)
{
    for (size_t i = 0; stage_names[i]; i++)
        if (stage_values[i] == stage)
            return stage_names[i];
    return stage == JOB_RUN_SCENE ? "SCENE" : "?";
}

/* Whether the N characters at P are the word NAME (a processor name). */
static bool is_word(const char *p, size_t n, const char *name)
{
    return n == strlen(name) && !strncasecmp(p, name, n);
}

/* The processor named by the first word of TGSI text, -1 if none. */
static int text_stage(const char *text)
{
    while (*text == ' ' || *text == '\t' || *text == '\n' || *text == '\r')
        text++;
    size_t n = strcspn(text, " \t\r\n");
    for (size_t i = 0; stage_names[i]; i++)
        if (is_word(text, n, stage_names[i]))
            return stage_values[i];
    return -1;
}

static bool has_stage(const char *text, int stage)
{
    /* A file may hold several programs: a line that is just a processor name starts one. */
    const char *p = text;
    while (*p) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        while (n && (p[n - 1] == '\r' || p[n - 1] == ' ' || p[n - 1] == '\t'))
            n--;
        const char *q = p;
        while (n && (*q == ' ' || *q == '\t')) {
            q++;
            n--;
        }
        if (is_word(q, n, job_stage_name(stage)))
            return true;
        if (!e)
            break;
        p = e + 1;
    }
    return false;
}

bool jl_programs(jl *c, const cJSON *root)
{
    static const char *const keys[] = {"name", "stage", "tgsi", "tgsi_text", "glsl", NULL};
    const cJSON *arr = cJSON_GetObjectItemCaseSensitive(root, "programs");
    /* a scene's draws pick programs by name: several of one stage may be given */
    const cJSON *run = cJSON_GetObjectItemCaseSensitive(root, "run");
    bool scene = cJSON_IsString(run) && !strcasecmp(run->valuestring, "SCENE");
    if (!arr)
        return jl_fail_at(c, "programs", TV_JOB_ERR_INVALID, "required key is missing");
    size_t m0 = jl_push_key(c, "programs");
    if (!cJSON_IsArray(arr) || cJSON_GetArraySize(arr) < 1) {
        bool r = jl_fail(c, TV_JOB_ERR_INVALID, "expected a non-empty array of programs");
        jl_pop(c, m0);
        return r;
    }
    size_t n = (size_t)cJSON_GetArraySize(arr);
    job *j = c->job;
    j->programs = calloc(n, sizeof *j->programs);
    if (!j->programs)
        return jl_fail(c, TV_JOB_ERR_INVALID, "out of memory");
    size_t i = 0;
    for (const cJSON *e = arr->child; e; e = e->next, i++) {
        size_t m = jl_push_index(c, i);
        job_program *p = &j->programs[i];
        j->num_programs = i + 1;
        const char *inline_text, *name;
        p->stage = -1;
        if (!jl_object(c, e, keys) || !jl_get_string(c, e, "name", false, &name) ||
            !jl_get_enum(c, e, "stage", stage_names, stage_values, -1, &p->stage) ||
            !jl_get_path(c, e, "tgsi", false, &p->tgsi_path) ||
            !jl_get_string(c, e, "tgsi_text", false, &inline_text) ||
            !jl_get_path(c, e, "glsl", false, &p->glsl_path))
            return false;
        if (name) {
            for (size_t k = 0; k < i; k++)
                if (j->programs[k].name && !strcmp(j->programs[k].name, name))
                    return jl_fail_at(c, "name", TV_JOB_ERR_INVALID, "duplicate program name \"%s\"",
                                      name);
            if (!(p->name = strdup(name)))
                return jl_fail(c, TV_JOB_ERR_INVALID, "out of memory");
        }
        if (!!p->tgsi_path == !!inline_text)
            return jl_fail(c, TV_JOB_ERR_INVALID, "give exactly one of \"tgsi\" and \"tgsi_text\"");
        if (p->tgsi_path) {
            uint8_t *data;
            size_t size;
            size_t mk = jl_push_key(c, "tgsi");
            bool ok = jl_read_file(c, p->tgsi_path, &data, &size);
            jl_pop(c, mk);
            if (!ok)
                return false;
            char *t = realloc(data, size + 1);
            if (!t) {
                free(data);
                return jl_fail(c, TV_JOB_ERR_INVALID, "out of memory");
            }
            t[size] = '\0';
            p->text = t;
            p->text_len = size;
        } else {
            p->text = strdup(inline_text);
            if (!p->text)
                return jl_fail(c, TV_JOB_ERR_INVALID, "out of memory");
            p->text_len = strlen(inline_text);
        }
        if (p->glsl_path) {
            int fd;
            char why[160];
            if (tv_file_open(p->glsl_path, UINT64_MAX, &fd, why, sizeof why))
                return jl_fail_at(c, "glsl", TV_JOB_ERR_IO, "cannot read \"%s\": %s", p->glsl_path,
                                  why);
            close(fd);
        }
        int ts = text_stage(p->text);
        if (p->stage < 0) {
            if (ts < 0)
                return jl_fail(c, TV_JOB_ERR_INVALID,
                               "the TGSI text does not start with VERT, FRAG, GEOM, COMP, "
                               "TESS_CTRL or TESS_EVAL; say \"stage\"");
            p->stage = ts;
        } else if (!has_stage(p->text, p->stage)) {
            return jl_fail(c, TV_JOB_ERR_INVALID, "the TGSI text holds no %s program",
                           job_stage_name(p->stage));
        }
        for (size_t k = 0; k < i && !scene; k++)
            if (j->programs[k].stage == p->stage)
                return jl_fail(c, TV_JOB_ERR_INVALID, "a second %s program (programs[%zu] is one)",
                               job_stage_name(p->stage), k);
        jl_pop(c, m);
    }
    jl_pop(c, m0);
    return true;
}

/* ---- FRAG ---------------------------------------------------------------------------- */

static bool frag_input(jl *c, const cJSON *e, size_t i)
{
    static const char *const keys[] = {"index", "values", "interpolate", "location", "glsl_name",
                                       "type", NULL};
    static const char *const interp_names[] = {"constant", "linear", "perspective", "color",
                                               NULL};
    static const char *const loc_names[] = {"center", "centroid", "sample", NULL};
    job_frag *f = &c->job->frag;
    job_frag_input *in = &f->inputs[i];
    unsigned nverts = f->prim == JOB_PRIM_RECT ? 4 : 3;
    int type;
    job_words w = {0};
    const char *gname;
    if (!jl_object(c, e, keys) ||
        !jl_get_uint(c, e, "index", true, 0, 0, JOB_MAX_ATTRIBS - 1, &in->index) ||
        !jl_get_type(c, e, "type", JOB_TYPE_FLOAT, &type) ||
        !jl_get_enum(c, e, "interpolate", interp_names, NULL, -1, &in->interpolate) ||
        !jl_get_enum(c, e, "location", loc_names, NULL, -1, &in->location) ||
        !jl_get_string(c, e, "glsl_name", false, &gname))
        return false;
    const cJSON *vals = cJSON_GetObjectItemCaseSensitive(e, "values");
    if (!vals)
        return jl_fail_at(c, "values", TV_JOB_ERR_INVALID, "required key is missing");
    if (!cJSON_IsArray(vals) || !vals->child || !cJSON_IsArray(vals->child))
        return jl_fail_at(c, "values", TV_JOB_ERR_INVALID,
                          "expected one vector per vertex ([[x,y,z,w], ...])");
    if (!jl_get_words(c, e, "values", true, type, JL_PAD_VEC4_ONE, &w))
        return false;
    if (w.count != nverts * 4) {
        free(w.w);
        return jl_fail_at(c, "values", TV_JOB_ERR_INVALID,
                          "the %s has %u vertices, this input gives %zu vectors",
                          f->prim == JOB_PRIM_RECT ? "rect" : "triangle", nverts,
                          w.count / 4);
    }
    memcpy(in->values, w.w, w.count * 4);
    free(w.w);
    if (gname && !(in->glsl_name = strdup(gname)))
        return jl_fail(c, TV_JOB_ERR_INVALID, "out of memory");
    for (size_t k = 0; k < i; k++)
        if (f->inputs[k].index == in->index)
            return jl_fail_at(c, "index", TV_JOB_ERR_INVALID, "IN[%u] is given twice",
                              in->index);
    return true;
}

static bool frag_targets(jl *c, const cJSON *arr, job_frag *f)
{
    static const char *const keys[] = {"format", "clear", "type", NULL};
    if (!cJSON_IsArray(arr) || cJSON_GetArraySize(arr) < 1 ||
        cJSON_GetArraySize(arr) > JOB_MAX_TARGETS)
        return jl_fail(c, TV_JOB_ERR_INVALID, "expected an array of 1 to %d targets",
                       JOB_MAX_TARGETS);
    size_t i = 0;
    for (const cJSON *e = arr->child; e; e = e->next, i++) {
        size_t m = jl_push_index(c, i);
        job_target *t = &f->targets[i];
        int type;
        static const uint32_t zero[4] = {0, 0, 0, 0};
        if (!jl_object(c, e, keys) || !jl_get_format(c, e, "format", false, &t->format))
            return false;
        if (t->format == TV_FORMAT_NONE)
            t->format = tv_format_from_name("R32G32B32A32_FLOAT");
        if (t->format == TV_FORMAT_NONE)
            return jl_fail(c, TV_JOB_ERR_UNSUPPORTED, "the format table has no R32G32B32A32_FLOAT");
        const tv_format_info *fi = tv_format_get(t->format);
        int deftype = fi && fi->kind == TV_FMT_KIND_SINT   ? JOB_TYPE_INT
                      : fi && fi->kind == TV_FMT_KIND_UINT ? JOB_TYPE_UINT
                                                           : JOB_TYPE_FLOAT;
        if (fi && (fi->kind == TV_FMT_KIND_DEPTH || fi->block_w > 1))
            return jl_fail_at(c, "format", TV_JOB_ERR_INVALID,
                              "%s cannot be a colour target", fi->name);
        if (!jl_get_type(c, e, "type", deftype, &type) ||
            !jl_get_vec4(c, e, "clear", type, false, zero, t->clear))
            return false;
        f->num_targets = (unsigned)i + 1;
        jl_pop(c, m);
    }
    return true;
}

static bool stage_frag(jl *c, const cJSON *o)
{
    static const char *const keys[] = {"width", "height", "size", "samples", "primitive",
                                       "positions", "front_face", "inputs", "targets", "depth",
                                       "stencil", NULL};
    static const char *const prim_names[] = {"triangle", "rect", NULL};
    job_frag *f = &c->job->frag;
    if (!jl_object(c, o, keys))
        return false;
    const cJSON *size = cJSON_GetObjectItemCaseSensitive(o, "size");
    if (size) {
        if (cJSON_GetObjectItemCaseSensitive(o, "width") ||
            cJSON_GetObjectItemCaseSensitive(o, "height"))
            return jl_fail_at(c, "size", TV_JOB_ERR_INVALID,
                              "give \"size\" or \"width\"/\"height\", not both");
        if (!cJSON_IsArray(size) || cJSON_GetArraySize(size) != 2 ||
            !cJSON_IsNumber(size->child) || !cJSON_IsNumber(size->child->next))
            return jl_fail_at(c, "size", TV_JOB_ERR_INVALID, "expected [width, height]");
        double w = size->child->valuedouble, h = size->child->next->valuedouble;
        if (!jl_is_uint_in(w, 16384) || !jl_is_uint_in(h, 16384) || w < 1 || h < 1)
            return jl_fail_at(c, "size", TV_JOB_ERR_INVALID,
                              "width and height must be integers in [1, 16384]");
        f->width = (uint32_t)w;
        f->height = (uint32_t)h;
    } else if (!jl_get_uint(c, o, "width", true, 0, 1, 16384, &f->width) ||
               !jl_get_uint(c, o, "height", true, 0, 1, 16384, &f->height)) {
        return false;
    }
    if (!jl_get_uint(c, o, "samples", false, 1, 1, 16, &f->samples) ||
        !jl_get_enum(c, o, "primitive", prim_names, NULL, JOB_PRIM_RECT, &f->prim) ||
        !jl_get_bool(c, o, "front_face", true, &f->front_face))
        return false;
    if (f->samples & (f->samples - 1))
        return jl_fail_at(c, "samples", TV_JOB_ERR_INVALID, "samples must be 1, 2, 4, 8 or 16");
    unsigned nverts = f->prim == JOB_PRIM_RECT ? 4 : 3;
    const cJSON *pos = cJSON_GetObjectItemCaseSensitive(o, "positions");
    if (pos) {
        job_words w;
        if (!jl_get_words(c, o, "positions", true, JOB_TYPE_FLOAT, JL_PAD_VEC4_ONE, &w))
            return false;
        if (!cJSON_IsArray(pos->child) || w.count != nverts * 4) {
            free(w.w);
            return jl_fail_at(c, "positions", TV_JOB_ERR_INVALID,
                              "expected %u vectors [x, y, z, w], one per vertex", nverts);
        }
        memcpy(f->positions, w.w, w.count * 4);
        free(w.w);
        f->has_positions = true;
        /* positions default z to 0 and w to 1 (JL_PAD_VEC4_ONE pads w only) */
    }
    if (!jl_each(c, o, "inputs", (void **)&f->inputs, sizeof *f->inputs, &f->num_inputs,
                 frag_input))
        return false;
    const cJSON *tg = cJSON_GetObjectItemCaseSensitive(o, "targets");
    if (tg) {
        size_t m = jl_push_key(c, "targets");
        if (!frag_targets(c, tg, f))
            return false;
        jl_pop(c, m);
    } else {
        f->num_targets = 1;
        f->targets[0].format = tv_format_from_name("R32G32B32A32_FLOAT");
    }
    static const char *const dkeys[] = {"clear", NULL};
    const cJSON *d = cJSON_GetObjectItemCaseSensitive(o, "depth");
    f->depth_clear = 1.0f;
    if (d) {
        double v;
        size_t m = jl_push_key(c, "depth");
        if (!jl_object(c, d, dkeys) || !jl_get_double(c, d, "clear", false, 1.0, -1e30, 1e30, &v))
            return false;
        jl_pop(c, m);
        f->has_depth = true;
        f->depth_clear = (float)v;
    }
    const cJSON *s = cJSON_GetObjectItemCaseSensitive(o, "stencil");
    if (s) {
        size_t m = jl_push_key(c, "stencil");
        if (!jl_object(c, s, dkeys) ||
            !jl_get_uint(c, s, "clear", false, 0, 0, UINT32_MAX, &f->stencil_clear))
            return false;
        jl_pop(c, m);
        f->has_stencil = true;
    }
    return true;
}

/* ---- COMP ---------------------------------------------------------------------------- */

static bool dims3(jl *c, const cJSON *o, const char *key, uint32_t out[3], bool required)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    out[0] = out[1] = out[2] = required ? 1 : 0;
    if (!v)
        return required ? jl_fail_at(c, key, TV_JOB_ERR_INVALID, "required key is missing") : true;
    if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) < 1 || cJSON_GetArraySize(v) > 3)
        return jl_fail_at(c, key, TV_JOB_ERR_INVALID, "expected [x], [x, y] or [x, y, z]");
    out[0] = out[1] = out[2] = 1;
    int k = 0;
    for (const cJSON *e = v->child; e; e = e->next, k++) {
        if (!cJSON_IsNumber(e) || !jl_is_uint_in(e->valuedouble, 65535) ||
            e->valuedouble < 1)
            return jl_fail_at(c, key, TV_JOB_ERR_INVALID,
                              "each size must be an integer in [1, 65535]");
        out[k] = (uint32_t)e->valuedouble;
    }
    return true;
}

static bool stage_comp(jl *c, const cJSON *o)
{
    static const char *const keys[] = {"grid", "block", "shared_bytes", NULL};
    job_comp *p = &c->job->comp;
    return jl_object(c, o, keys) && dims3(c, o, "grid", p->grid, true) &&
           dims3(c, o, "block", p->block, false) &&
           jl_get_uint(c, o, "shared_bytes", false, 0, 0, 1u << 30, &p->shared_bytes);
}

/* ---- VERT ---------------------------------------------------------------------------- */

static bool vert_attrib(jl *c, const cJSON *e, size_t i)
{
    static const char *const keys[] = {"index", "values", "type", "buffer", "format", "offset",
                                       "stride", "divisor", "glsl_name", NULL};
    job_vert *v = &c->job->vert;
    job_attrib *a = &v->attribs[i];
    int type;
    const char *gname;
    uint64_t off;
    a->buffer = -1;
    if (!jl_object(c, e, keys) ||
        !jl_get_uint(c, e, "index", true, 0, 0, JOB_MAX_ATTRIBS - 1, &a->index) ||
        !jl_get_type(c, e, "type", JOB_TYPE_FLOAT, &type) ||
        !jl_get_words(c, e, "values", false, type, JL_PAD_VEC4_ONE, &a->values) ||
        !jl_get_ref(c, e, "buffer", false, JL_REF_BUFFER, &a->buffer) ||
        !jl_get_format(c, e, "format", false, &a->format) ||
        !jl_get_u64(c, e, "offset", false, 0, &off) ||
        !jl_get_uint(c, e, "stride", false, 0, 0, 1u << 20, &a->stride) ||
        !jl_get_uint(c, e, "divisor", false, 0, 0, UINT32_MAX, &a->divisor) ||
        !jl_get_string(c, e, "glsl_name", false, &gname))
        return false;
    a->offset = off;
    if (gname && !(a->glsl_name = strdup(gname)))
        return jl_fail(c, TV_JOB_ERR_INVALID, "out of memory");
    if (!!a->values.w == (a->buffer >= 0))
        return jl_fail(c, TV_JOB_ERR_INVALID, "give exactly one of \"values\" and \"buffer\"");
    if (a->buffer >= 0 && a->format == TV_FORMAT_NONE)
        return jl_fail_at(c, "format", TV_JOB_ERR_INVALID,
                          "required key is missing (an attribute read from a buffer needs "
                          "a format)");
    if (a->values.w && a->values.count / 4 < v->count)
        return jl_fail_at(c, "values", TV_JOB_ERR_INVALID,
                          "%zu vectors for %u vertices", a->values.count / 4, v->count);
    return true;
}

static bool stage_vert(jl *c, const cJSON *o)
{
    static const char *const keys[] = {"count", "instances", "base_vertex", "base_instance",
                                       "attributes", NULL};
    job_vert *v = &c->job->vert;
    if (!jl_object(c, o, keys) || !jl_get_uint(c, o, "count", true, 0, 1, 1u << 24, &v->count) ||
        !jl_get_uint(c, o, "instances", false, 1, 1, 1u << 16, &v->instances) ||
        !jl_get_int(c, o, "base_vertex", false, 0, INT32_MIN, INT32_MAX, &v->base_vertex) ||
        !jl_get_uint(c, o, "base_instance", false, 0, 0, UINT32_MAX, &v->base_instance))
        return false;
    return jl_each(c, o, "attributes", (void **)&v->attribs, sizeof *v->attribs,
                   &v->num_attribs, vert_attrib);
}

/* ---- GEOM ---------------------------------------------------------------------------- */

static unsigned geom_prim_vertices(int prim)
{
    static const unsigned n[JOB_GPRIM_COUNT] = {1, 2, 4, 3, 6};
    return prim >= 0 && prim < JOB_GPRIM_COUNT ? n[prim] : 0;
}

static bool geom_input(jl *c, const cJSON *e, size_t i)
{
    static const char *const keys[] = {"index", "values", "type", NULL};
    job_geom *g = &c->job->geom;
    job_geom_input *in = &g->inputs[i];
    size_t need = (size_t)g->count * geom_prim_vertices(g->primitive);
    int type;
    if (!jl_object(c, e, keys) ||
        !jl_get_uint(c, e, "index", true, 0, 0, JOB_MAX_ATTRIBS - 1, &in->index) ||
        !jl_get_type(c, e, "type", JOB_TYPE_FLOAT, &type) ||
        !jl_get_words(c, e, "values", true, type, JL_PAD_VEC4_ONE, &in->values))
        return false;
    if (in->values.count / 4 != need)
        return jl_fail_at(c, "values", TV_JOB_ERR_INVALID,
                          "%zu vectors; %u primitives of %u vertices need %zu",
                          in->values.count / 4, g->count,
                          geom_prim_vertices(g->primitive), need);
    return true;
}

static bool stage_geom(jl *c, const cJSON *o)
{
    static const char *const keys[] = {"primitive", "count", "inputs", NULL};
    static const char *const prim_names[] = {"points", "lines", "lines_adjacency", "triangles",
                                             "triangles_adjacency", NULL};
    job_geom *g = &c->job->geom;
    if (!jl_object(c, o, keys) ||
        !jl_get_enum(c, o, "primitive", prim_names, NULL, JOB_GPRIM_TRIANGLES, &g->primitive) ||
        !jl_get_uint(c, o, "count", true, 0, 1, 1u << 20, &g->count))
        return false;
    return jl_each(c, o, "inputs", (void **)&g->inputs, sizeof *g->inputs, &g->num_inputs,
                   geom_input);
}

bool jl_stages(jl *c, const cJSON *root)
{
    static const char *const keys[] = {"vert", "frag", "geom", "comp"};
    static const int stages[] = {TV_TGSI_VERT, TV_TGSI_FRAG, TV_TGSI_GEOM, TV_TGSI_COMP};
    job *j = c->job;
    j->run = -1;
    if (!jl_get_enum(c, root, "run", run_names, run_values, -1, &j->run))
        return false;
    if (j->run == JOB_RUN_SCENE) { /* the "scene" section says what runs (jl_scene) */
        static const char *const stage_keys[] = {"vert", "frag", "geom", "comp", "constants",
                                                 "bindings", "images", "hwatomics", "memory",
                                                 NULL};
        for (size_t i = 0; stage_keys[i]; i++)
            if (cJSON_GetObjectItemCaseSensitive(root, stage_keys[i]))
                return jl_fail_at(c, stage_keys[i], TV_JOB_ERR_INVALID,
                                  "a scene job gives its draws' bindings in \"scene\" (leave "
                                  "\"%s\" out)", stage_keys[i]);
        return true;
    }
    if (j->run < 0) {
        if (j->num_programs != 1)
            return jl_fail_at(c, "run", TV_JOB_ERR_INVALID,
                              "required key is missing (the job has %zu programs)",
                              j->num_programs);
        j->run = j->programs[0].stage;
    }
    if (j->run == TV_TGSI_TESS_CTRL || j->run == TV_TGSI_TESS_EVAL)
        return jl_fail_at(c, "run", TV_JOB_ERR_INVALID, "%s programs run in a scene's draws "
                          "(\"run\": \"SCENE\", docs/jobs-scenes.md)",
                          job_stage_name(j->run));
    bool found = false;
    for (size_t i = 0; i < j->num_programs; i++)
        found |= j->programs[i].stage == j->run;
    if (!found)
        return jl_fail_at(c, "run", TV_JOB_ERR_INVALID, "no %s program in \"programs\"",
                          job_stage_name(j->run));
    for (size_t i = 0; i < 4; i++) {
        const cJSON *o = cJSON_GetObjectItemCaseSensitive(root, keys[i]);
        if (!o) {
            if (stages[i] == j->run && j->run != TV_TGSI_VERT)
                return jl_fail_at(c, keys[i], TV_JOB_ERR_INVALID,
                                  "required key is missing (the job runs %s)",
                                  job_stage_name(j->run));
            continue;
        }
        size_t m = jl_push_key(c, keys[i]);
        bool ok = stages[i] == TV_TGSI_FRAG   ? stage_frag(c, o)
                  : stages[i] == TV_TGSI_COMP ? stage_comp(c, o)
                  : stages[i] == TV_TGSI_VERT ? stage_vert(c, o)
                                              : stage_geom(c, o);
        if (!ok)
            return false;
        jl_pop(c, m);
    }
    if (j->run == TV_TGSI_VERT && !cJSON_GetObjectItemCaseSensitive(root, "vert"))
        return jl_fail_at(c, "vert", TV_JOB_ERR_INVALID, "required key is missing (the job runs VERT)");
    return true;
}

/* ---- the file -------------------------------------------------------------------------- */

static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return strdup(".");
    if (slash == path)
        return strdup("/");
    size_t n = (size_t)(slash - path);
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, path, n);
        d[n] = '\0';
    }
    return d;
}

static void syntax_error(jl *c, const char *text, size_t len)
{
    const char *at = cJSON_GetErrorPtr();
    unsigned line = 1, col = 1;
    if (at && at >= text && at <= text + len) {
        for (const char *p = text; p < at; p++) {
            if (*p == '\n') {
                line++;
                col = 1;
            } else {
                col++;
            }
        }
        if (c->err) {
            c->err->cls = TV_JOB_ERR_INVALID;
            snprintf(c->err->message, sizeof c->err->message, "%s:%u:%u: JSON syntax error",
                     c->file, line, col);
        }
    } else {
        jl_fail(c, TV_JOB_ERR_INVALID, "JSON syntax error");
    }
}

job *tv_job_load_text(const char *text, size_t len, const char *path, tv_job_error *err)
{
    static const char *const keys[] = {"texvm_job", "description", "programs", "run", "frag",
                                       "comp", "vert", "geom", "constants", "textures",
                                       "samplers", "bindings", "buffers", "images", "hwatomics",
                                       "memory", "outputs", "checks", "options", "scene", NULL};
    tv_job_error dummy;
    if (!err)
        err = &dummy;
    err->cls = TV_JOB_ERR_NONE;
    err->message[0] = '\0';
    job *j = calloc(1, sizeof *j);
    if (!j) {
        err->cls = TV_JOB_ERR_INVALID;
        snprintf(err->message, sizeof err->message, "%s: out of memory", path);
        return NULL;
    }
    j->path = strdup(path);
    j->dir = dir_of(path);
    for (size_t i = 0; i < JOB_MAX_SLOTS; i++)
        j->sview[i] = j->samp[i] = -1;
    j->options.threads = -1;
    j->options.precision = j->options.robust_access = -1;
    jl c = {.job = j, .file = path, .dir = j->dir, .err = err};
    if (!j->path || !j->dir) {
        jl_fail(&c, TV_JOB_ERR_INVALID, "out of memory");
        tv_job_free(j);
        return NULL;
    }
    cJSON *root = cJSON_ParseWithLength(text, len);
    if (!root) {
        syntax_error(&c, text, len);
        tv_job_free(j);
        return NULL;
    }
    uint32_t version;
    const char *desc;
    bool ok = jl_object(&c, root, keys) &&
              jl_get_uint(&c, root, "texvm_job", true, 0, 1, 1, &version) &&
              jl_get_string(&c, root, "description", false, &desc) && jl_programs(&c, root) &&
              jl_constants(&c, root) && jl_buffers(&c, root) && jl_textures(&c, root) &&
              jl_samplers(&c, root) && jl_stages(&c, root) && jl_bindings(&c, root) && jl_scene(&c, root) &&
              jl_images(&c, root) && jl_outputs(&c, root) && jl_checks(&c, root) &&
              jl_options(&c, root);
    if (ok && desc && !(j->description = strdup(desc)))
        ok = jl_fail(&c, TV_JOB_ERR_INVALID, "out of memory");
    cJSON_Delete(root);
    char lim[256];
    if (ok && job_check_memory(j, c.reserved, lim, sizeof lim))
        ok = jl_fail(&c, TV_JOB_ERR_INVALID, "%s", lim);
    if (ok)
        ok = job_build_data(j, err);
    if (!ok) {
        tv_job_free(j);
        return NULL;
    }
    return j;
}

job *tv_job_load_file(const char *path, tv_job_error *err)
{
    jl c = {.file = path, .err = err};
    uint8_t *data;
    size_t size;
    if (!jl_read_file(&c, path, &data, &size))
        return NULL;
    job *j = tv_job_load_text((const char *)data, size, path, err);
    free(data);
    return j;
}
