/* Scene loader (docs/jobs-scenes.md): meshes, passes (framebuffers of the job's textures,
 * clears, viewports, draws; blits) and draws (mesh, programs, constants, textures,
 * buffers, state). Every name is resolved and every range checked here; the pipeline
 * checks again at the draw (it trusts nobody). */
#include "job_load_scene.h"
#include "job_limits.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *const prim_names[] = {
    "points", "lines", "line_loop", "line_strip", "triangles", "triangle_strip",
    "triangle_fan", "quads", "quad_strip", "polygon", "lines_adjacency",
    "line_strip_adjacency", "triangles_adjacency", "triangle_strip_adjacency", "patches", NULL};
enum { PRIM_TRIANGLES = 4, PRIM_PATCHES = 14 };

/* Binding stages: TGSI processors and Gallium's shader stages share numbers 0..4. */
static const char *const stage_names[] = {"VERT", "FRAG", "GEOM", "TESS_CTRL", "TESS_EVAL",
                                          NULL};

/* ---- meshes ----------------------------------------------------------------------------- */

static bool generated(jl *c, const cJSON *e, job_mesh *m)
{
    static const char *const gen_names[] = {"grid", "cube", "sphere", "torus", NULL};
    static const int gen_values[] = {JOB_MESH_GRID, JOB_MESH_CUBE, JOB_MESH_SPHERE,
                                     JOB_MESH_TORUS};
    int kind;
    if (!jl_get_enum(c, e, "generate", gen_names, gen_values, -1, &kind))
        return false;
    m->kind = kind;
    double size[3] = {1, 1, 1};
    uint32_t div[2] = {1, 1};
    static const char *const other[JOB_MESH_KINDS][4] = {
        [JOB_MESH_GRID] = {"radius", "radii", NULL},
        [JOB_MESH_CUBE] = {"radius", "radii", "divisions", NULL},
        [JOB_MESH_SPHERE] = {"size", "radii", NULL},
        [JOB_MESH_TORUS] = {"size", "radius", NULL}};
    for (int k = 0; other[kind][k]; k++)
        if (cJSON_GetObjectItemCaseSensitive(e, other[kind][k]))
            return jl_fail_at(c, other[kind][k], TV_JOB_ERR_INVALID, "a %s mesh has no \"%s\"",
                              gen_names[kind - JOB_MESH_GRID], other[kind][k]);
    const cJSON *sz = cJSON_GetObjectItemCaseSensitive(e, "size");
    unsigned nsize = kind == JOB_MESH_GRID ? 2 : 3;
    if (sz && cJSON_IsNumber(sz) && kind == JOB_MESH_CUBE) {
        if (!(sz->valuedouble > 0 && sz->valuedouble <= 1e9))
            return jl_fail_at(c, "size", TV_JOB_ERR_INVALID, "expected a size in (0, 1e9]");
        size[0] = size[1] = size[2] = sz->valuedouble;
    } else if (sz) {
        size_t mk = jl_push_key(c, "size");
        if (!cJSON_IsArray(sz) || (unsigned)cJSON_GetArraySize(sz) != nsize)
            return jl_fail(c, TV_JOB_ERR_INVALID, "expected %u sizes", nsize);
        unsigned k = 0;
        for (const cJSON *x = sz->child; x; x = x->next, k++) {
            if (!cJSON_IsNumber(x) || !(x->valuedouble > 0 && x->valuedouble <= 1e9))
                return jl_fail(c, TV_JOB_ERR_INVALID, "sizes are numbers in (0, 1e9]");
            size[k] = x->valuedouble;
        }
        jl_pop(c, mk);
    }
    if (kind == JOB_MESH_SPHERE) {
        size[0] = 0.5;
        div[0] = 32, div[1] = 16;
        if (!jl_get_double(c, e, "radius", false, 0.5, 1e-9, 1e9, &size[0]))
            return false;
    }
    if (kind == JOB_MESH_TORUS) {
        size[0] = 0.5, size[1] = 0.2;
        div[0] = 48, div[1] = 16;
        const cJSON *r = cJSON_GetObjectItemCaseSensitive(e, "radii");
        if (r) {
            if (!cJSON_IsArray(r) || cJSON_GetArraySize(r) != 2 || !cJSON_IsNumber(r->child) ||
                !cJSON_IsNumber(r->child->next) || !(r->child->valuedouble > 0) ||
                !(r->child->next->valuedouble > 0) || r->child->valuedouble > 1e9 ||
                r->child->next->valuedouble > 1e9)
                return jl_fail_at(c, "radii", TV_JOB_ERR_INVALID,
                                  "expected [ring radius, tube radius], both in (0, 1e9]");
            size[0] = r->child->valuedouble;
            size[1] = r->child->next->valuedouble;
        }
    }
    const cJSON *dv = cJSON_GetObjectItemCaseSensitive(e, "divisions");
    if (dv) {
        uint32_t lo0 = kind == JOB_MESH_GRID ? 1 : 3;
        uint32_t lo1 = kind == JOB_MESH_GRID ? 1 : kind == JOB_MESH_SPHERE ? 2 : 3;
        if (!cJSON_IsArray(dv) || cJSON_GetArraySize(dv) != 2 || !cJSON_IsNumber(dv->child) ||
            !cJSON_IsNumber(dv->child->next) ||
            !jl_is_uint_in(dv->child->valuedouble, 4096) ||
            !jl_is_uint_in(dv->child->next->valuedouble, 4096) ||
            dv->child->valuedouble < lo0 || dv->child->next->valuedouble < lo1)
            return jl_fail_at(c, "divisions", TV_JOB_ERR_INVALID,
                              "expected [a, b], integers in [%u, 4096] and [%u, 4096]", lo0, lo1);
        div[0] = (uint32_t)dv->child->valuedouble;
        div[1] = (uint32_t)dv->child->next->valuedouble;
    }
    /* counted before generating: at most 4097^2 vertices of 32 bytes and 6 * 4096^2 indices */
    uint64_t nv = kind == JOB_MESH_CUBE ? 24 : (uint64_t)(div[0] + 1) * (div[1] + 1);
    uint64_t ni = kind == JOB_MESH_CUBE ? 36 : (uint64_t)div[0] * div[1] * 6;
    if (!jl_reserve(c, nv * 32 + ni * 4))
        return false;
    uint32_t nvert, nidx;
    if (!job_mesh_generate(kind, size, div, &m->vertex_data, &nvert, &m->index_data, &nidx))
        return jl_fail(c, TV_JOB_ERR_INVALID, "out of memory");
    m->prim = PRIM_TRIANGLES;
    m->vertices = nvert;
    m->indices = nidx;
    m->index_size = 4;
    m->index_buffer = -1;
    static const uint32_t fmt[3][2] = {{30, 0}, {30, 12}, {29, 24}}; /* R32G32B32_FLOAT, RG32F */
    for (unsigned a = 0; a < 3; a++)
        m->attrs[a] = (job_mesh_attr){a, fmt[a][0], fmt[a][1], 32, 0, -1};
    m->num_attrs = 3;
    return true;
}

static bool attribute(jl *c, const cJSON *e, job_mesh *m, size_t i)
{
    static const char *const keys[] = {"index", "buffer", "format", "offset", "stride",
                                       "divisor", NULL};
    job_mesh_attr *a = &m->attrs[i];
    const char *fname;
    if (!jl_object(c, e, keys) ||
        !jl_get_uint(c, e, "index", false, (uint32_t)i, 0, TV_PIPE_MAX_ATTRIBS - 1, &a->index) ||
        !jl_get_ref(c, e, "buffer", true, JL_REF_BUFFER, &a->buffer) ||
        !jl_get_string(c, e, "format", true, &fname) ||
        !jl_get_uint(c, e, "offset", false, 0, 0, 1u << 30, &a->offset) ||
        !jl_get_uint(c, e, "stride", false, 0, 0, 2048, &a->stride) ||
        !jl_get_uint(c, e, "divisor", false, 0, 0, UINT32_MAX, &a->divisor))
        return false;
    a->format = tv_pipe_format_from_name(fname);
    if (!a->format || !(tv_pipe_format_caps(a->format) & TV_PIPE_FORMAT_VERTEX))
        return jl_fail_at(c, "format", TV_JOB_ERR_INVALID, "\"%s\" is not a vertex format", fname);
    for (size_t k = 0; k < i; k++)
        if (m->attrs[k].index == a->index)
            return jl_fail_at(c, "index", TV_JOB_ERR_INVALID, "IN[%u] is given twice", a->index);
    return true;
}

static bool from_buffers(jl *c, const cJSON *e, job_mesh *m)
{
    int prim;
    bool has_vertices = cJSON_GetObjectItemCaseSensitive(e, "vertices") != NULL;
    if (!jl_get_enum(c, e, "primitive", prim_names, NULL, PRIM_TRIANGLES, &prim) ||
        !jl_get_uint(c, e, "vertices", false, 0, 0, JOB_SCENE_MAX_MESH_VERTICES, &m->vertices) ||
        !jl_get_bool(c, e, "restart", false, &m->restart))
        return false;
    m->kind = JOB_MESH_BUFFERS;
    m->prim = (uint32_t)prim;
    m->index_buffer = -1;
    const cJSON *at = cJSON_GetObjectItemCaseSensitive(e, "attributes");
    size_t mk = jl_push_key(c, "attributes");
    if (!cJSON_IsArray(at) || cJSON_GetArraySize(at) < 1 ||
        cJSON_GetArraySize(at) > TV_PIPE_MAX_ATTRIBS)
        return jl_fail(c, TV_JOB_ERR_INVALID, "expected 1 to %d attributes",
                       TV_PIPE_MAX_ATTRIBS);
    size_t i = 0;
    for (const cJSON *x = at->child; x; x = x->next, i++) {
        size_t m2 = jl_push_index(c, i);
        m->num_attrs = (unsigned)i + 1;
        if (!attribute(c, x, m, i))
            return false;
        jl_pop(c, m2);
    }
    jl_pop(c, mk);
    const cJSON *ix = cJSON_GetObjectItemCaseSensitive(e, "indices");
    if (ix) {
        static const char *const keys[] = {"buffer", "size", "count", "offset", NULL};
        size_t m2 = jl_push_key(c, "indices");
        if (!jl_object(c, ix, keys) || !jl_get_ref(c, ix, "buffer", true, JL_REF_BUFFER,
                                                    &m->index_buffer) ||
            !jl_get_uint(c, ix, "size", false, 4, 1, 4, &m->index_size) ||
            !jl_get_uint(c, ix, "offset", false, 0, 0, UINT32_MAX, &m->index_offset))
            return false;
        if (m->index_size == 3)
            return jl_fail_at(c, "size", TV_JOB_ERR_INVALID, "index sizes are 1, 2 or 4 bytes");
        if (m->index_offset % m->index_size)
            return jl_fail_at(c, "offset", TV_JOB_ERR_INVALID,
                              "the offset is not a multiple of the index size");
        const job_buffer *b = &c->job->buffers[m->index_buffer];
        uint64_t avail = b->size > m->index_offset ? (b->size - m->index_offset) / m->index_size
                                                   : 0;
        if (!jl_get_uint(c, ix, "count", false, (uint32_t)(avail > UINT32_MAX ? UINT32_MAX : avail),
                         0, UINT32_MAX, &m->indices))
            return false;
        if (m->indices > avail)
            return jl_fail_at(c, "count", TV_JOB_ERR_INVALID,
                              "%u indices from byte %u pass the end of buffer \"%s\" (%zu bytes)",
                              m->indices, m->index_offset, b->name ? b->name : "", b->size);
        jl_pop(c, m2);
    } else if (!has_vertices) {
        return jl_fail_at(c, "vertices", TV_JOB_ERR_INVALID,
                          "required key is missing (the mesh has no \"indices\")");
    }
    if (m->restart && !ix)
        return jl_fail_at(c, "restart", TV_JOB_ERR_INVALID, "primitive restart needs \"indices\"");
    return true;
}

static bool mesh(jl *c, const cJSON *e, size_t i)
{
    static const char *const keys[] = {"name", "generate", "size", "radius", "radii",
                                       "divisions", "primitive", "vertices", "attributes",
                                       "indices", "restart", NULL};
    job_scene *s = c->job->scene;
    job_mesh *m = &s->meshes[i];
    const char *name;
    if (!jl_object(c, e, keys) || !jl_get_string(c, e, "name", true, &name))
        return false;
    for (size_t k = 0; k < i; k++)
        if (!strcmp(s->meshes[k].name, name))
            return jl_fail_at(c, "name", TV_JOB_ERR_INVALID, "duplicate mesh name \"%s\"", name);
    if (!(m->name = strdup(name)))
        return jl_fail(c, TV_JOB_ERR_INVALID, "out of memory");
    if (cJSON_GetObjectItemCaseSensitive(e, "generate")) {
        static const char *const buffer_keys[] = {"primitive", "vertices", "attributes",
                                                  "indices", "restart", NULL};
        for (int k = 0; buffer_keys[k]; k++)
            if (cJSON_GetObjectItemCaseSensitive(e, buffer_keys[k]))
                return jl_fail_at(c, buffer_keys[k], TV_JOB_ERR_INVALID,
                                  "a generated mesh has its own vertices (leave \"%s\" out)",
                                  buffer_keys[k]);
        return generated(c, e, m);
    }
    static const char *const gen_keys[] = {"size", "radius", "radii", "divisions", NULL};
    for (int k = 0; gen_keys[k]; k++)
        if (cJSON_GetObjectItemCaseSensitive(e, gen_keys[k]))
            return jl_fail_at(c, gen_keys[k], TV_JOB_ERR_INVALID,
                              "\"%s\" is for generated meshes (give \"generate\")", gen_keys[k]);
    return from_buffers(c, e, m);
}

/* ---- attachments, clears, viewports ---------------------------------------------------- */

/* "name" or {"texture": name, "level": L, "layer": N}; `depth` picks the format check. */
static bool attachment(jl *c, const cJSON *v, bool depth, job_scene_attach *a)
{
    static const char *const keys[] = {"texture", "level", "layer", NULL};
    if (cJSON_IsString(v)) { /* the short form: a texture name, level 0, layer 0 */
        a->texture = job_texture_find(c->job, v->valuestring);
        if (a->texture < 0)
            return jl_fail(c, TV_JOB_ERR_INVALID, "unknown texture \"%s\"", v->valuestring);
        a->level = a->layer = 0;
    } else if (!jl_object(c, v, keys) ||
               !jl_get_ref(c, v, "texture", true, JL_REF_TEXTURE, &a->texture) ||
               !jl_get_uint(c, v, "level", false, 0, 0, 15, &a->level) ||
               !jl_get_uint(c, v, "layer", false, 0, 0, 16383, &a->layer)) {
        return false;
    }
    const job_texture *t = &c->job->textures[a->texture];
    uint32_t f = tv_pipe_format_from_name(tv_format_get(t->format)->name);
    unsigned caps = tv_pipe_format_caps(f);
    if (!(caps & (depth ? TV_PIPE_FORMAT_DEPTH_STENCIL : TV_PIPE_FORMAT_RENDER)))
        return jl_fail(c, TV_JOB_ERR_INVALID, "texture \"%s\" (%s) is not a %s format",
                       t->name ? t->name : "", tv_format_get(t->format)->name,
                       depth ? "depth/stencil" : "colour render target");
    if (t->type == TV_TEX_1D_BUFFER || t->type == TV_TEX_2D_NO_MIPMAP)
        return jl_fail(c, TV_JOB_ERR_INVALID, "a %s texture cannot be drawn into",
                       t->type == TV_TEX_1D_BUFFER ? "BUFFER" : "2D_NO_MIPMAP");
    if (a->level >= t->levels)
        return jl_fail(c, TV_JOB_ERR_INVALID, "level %u, but texture \"%s\" has %u", a->level,
                       t->name ? t->name : "", t->levels);
    if (a->layer >= job_texture_layers(t, a->level))
        return jl_fail(c, TV_JOB_ERR_INVALID, "layer %u, but texture \"%s\" has %u at level %u",
                       a->layer, t->name ? t->name : "", job_texture_layers(t, a->level),
                       a->level);
    return true;
}

static void attach_size(const job *j, const job_scene_attach *a, uint32_t *w, uint32_t *h,
                        uint32_t *samples)
{
    const job_texture *t = &j->textures[a->texture];
    *w = job_level_size(t->width, a->level);
    *h = job_level_size(t->height, a->level);
    *samples = t->samples;
}

static bool framebuffer(jl *c, const cJSON *e, job_scene_pass *p)
{
    const cJSON *cols = cJSON_GetObjectItemCaseSensitive(e, "colors");
    p->zs.texture = -1;
    if (cols) {
        size_t m = jl_push_key(c, "colors");
        if (!cJSON_IsArray(cols) || cJSON_GetArraySize(cols) > TV_PIPE_MAX_CBUFS)
            return jl_fail(c, TV_JOB_ERR_INVALID, "expected up to %d colour attachments",
                           TV_PIPE_MAX_CBUFS);
        size_t i = 0;
        for (const cJSON *x = cols->child; x; x = x->next, i++) {
            size_t m2 = jl_push_index(c, i);
            if (!attachment(c, x, false, &p->colors[i]))
                return false;
            p->num_colors = (unsigned)i + 1;
            jl_pop(c, m2);
        }
        jl_pop(c, m);
    }
    const cJSON *zs = cJSON_GetObjectItemCaseSensitive(e, "depth");
    if (zs) {
        size_t m = jl_push_key(c, "depth");
        if (!attachment(c, zs, true, &p->zs))
            return false;
        jl_pop(c, m);
    }
    if (!p->num_colors && p->zs.texture < 0)
        return jl_fail(c, TV_JOB_ERR_INVALID, "a pass draws into \"colors\", a \"depth\" texture "
                       "or both; it has neither");
    uint32_t w0 = 0, h0 = 0, s0 = 0;
    for (unsigned i = 0; i <= p->num_colors; i++) {
        const job_scene_attach *a = i < p->num_colors ? &p->colors[i] : &p->zs;
        if (a->texture < 0)
            continue;
        uint32_t w, h, s;
        attach_size(c->job, a, &w, &h, &s);
        if (!w0) {
            w0 = w, h0 = h, s0 = s;
        } else if (w != w0 || h != h0 || s != s0) {
            return jl_fail(c, TV_JOB_ERR_INVALID, "the attachments differ in size or samples "
                           "(%ux%u x%u and %ux%u x%u)", w0, h0, s0, w, h, s);
        }
    }
    p->width = w0;
    p->height = h0;
    return true;
}

static bool clear(jl *c, const cJSON *e, job_scene_pass *p)
{
    static const char *const keys[] = {"color", "depth", "stencil", "type", NULL};
    const cJSON *cl = cJSON_GetObjectItemCaseSensitive(e, "clear");
    if (!cl)
        return true;
    size_t m = jl_push_key(c, "clear");
    int type;
    if (!jl_object(c, cl, keys) || !jl_get_type(c, cl, "type", JOB_TYPE_FLOAT, &type))
        return false;
    if (cJSON_GetObjectItemCaseSensitive(cl, "color")) {
        static const uint32_t zero[4] = {0, 0, 0, 0};
        if (!p->num_colors)
            return jl_fail_at(c, "color", TV_JOB_ERR_INVALID, "the pass has no colour attachment");
        if (!jl_get_vec4(c, cl, "color", type, true, zero, p->clear_color))
            return false;
        for (unsigned i = 0; i < p->num_colors; i++)
            p->clear |= TV_PIPE_CLEAR_COLOR0 << i;
    }
    bool has_d = cJSON_GetObjectItemCaseSensitive(cl, "depth") != NULL;
    bool has_s = cJSON_GetObjectItemCaseSensitive(cl, "stencil") != NULL;
    if ((has_d || has_s) && p->zs.texture < 0)
        return jl_fail_at(c, has_d ? "depth" : "stencil", TV_JOB_ERR_INVALID,
                          "the pass has no depth attachment");
    if (!jl_get_double(c, cl, "depth", false, 1.0, 0.0, 1.0, &p->clear_depth) ||
        !jl_get_uint(c, cl, "stencil", false, 0, 0, 255, &p->clear_stencil))
        return false;
    p->clear |= (has_d ? TV_PIPE_CLEAR_DEPTH : 0u) | (has_s ? TV_PIPE_CLEAR_STENCIL : 0u);
    jl_pop(c, m);
    return true;
}

static bool viewport(jl *c, const cJSON *e, job_scene_pass *p)
{
    p->viewport[0] = p->viewport[1] = 0;
    p->viewport[2] = (float)p->width;
    p->viewport[3] = (float)p->height;
    p->viewport[4] = 0;
    p->viewport[5] = 1;
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(e, "viewport");
    if (!v)
        return true;
    size_t m = jl_push_key(c, "viewport");
    if (!cJSON_IsArray(v) || (cJSON_GetArraySize(v) != 4 && cJSON_GetArraySize(v) != 6))
        return jl_fail(c, TV_JOB_ERR_INVALID, "expected [x, y, width, height] or [x, y, width, "
                       "height, near, far]");
    int k = 0;
    for (const cJSON *x = v->child; x; x = x->next, k++) {
        double lo = k < 2 ? -32768 : k < 4 ? 1e-6 : 0, hi = k < 4 ? 32768 : 1;
        if (!cJSON_IsNumber(x) || !(x->valuedouble >= lo && x->valuedouble <= hi))
            return jl_fail(c, TV_JOB_ERR_INVALID, "element %d: expected a number in [%g, %g]", k,
                           lo, hi);
        p->viewport[k] = (float)x->valuedouble;
    }
    jl_pop(c, m);
    return true;
}

/* ---- draws -------------------------------------------------------------------------------- */

static bool stage_of(jl *c, const cJSON *o, uint32_t *stage)
{
    int v;
    if (!jl_get_enum(c, o, "stage", stage_names, NULL, -1, &v))
        return false;
    if (v < 0)
        return jl_fail_at(c, "stage", TV_JOB_ERR_INVALID, "required key is missing");
    *stage = (uint32_t)v;
    return true;
}

static bool draw_constant(jl *c, const cJSON *e, job_scene_const *k)
{
    static const char *const keys[] = {"stage", "slot", "values", "type", "file", "size",
                                       "fill", NULL};
    if (!jl_object(c, e, keys) || !stage_of(c, e, &k->stage) ||
        !jl_get_uint(c, e, "slot", false, 0, 0, 31, &k->slot))
        return false;
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(e, "values");
    bool rows = false;
    for (const cJSON *x = cJSON_IsArray(v) ? v->child : NULL; x; x = x->next)
        rows |= cJSON_IsObject(x) || cJSON_IsArray(x);
    if (rows) {
        static const char *const payload_only[] = {"type", "file", "size", "fill", NULL};
        for (int i = 0; payload_only[i]; i++)
            if (cJSON_GetObjectItemCaseSensitive(e, payload_only[i]))
                return jl_fail_at(c, payload_only[i], TV_JOB_ERR_INVALID,
                                  "rows of \"values\" are floats: leave \"%s\" out",
                                  payload_only[i]);
        size_t m = jl_push_key(c, "values");
        if (!jl_scene_rows(c, v, &k->words, &k->count))
            return false;
        jl_pop(c, m);
        return jl_reserve(c, k->count * 4);
    }
    uint8_t *data;
    size_t size;
    if (!jl_payload(c, e, &data, &size, 16))
        return false;
    k->words = (uint32_t *)data;
    k->count = size / 4;
    return true;
}

/* Run fn on each element of the optional array e[key], into *arr (count *n, at most max). */
typedef bool (*item_fn)(jl *c, const cJSON *e, void *item);
static bool items(jl *c, const cJSON *e, const char *key, size_t max, size_t size, void **arr,
                  size_t *n, item_fn fn)
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(e, key);
    if (!a)
        return true;
    size_t m = jl_push_key(c, key);
    if (!cJSON_IsArray(a) || (size_t)cJSON_GetArraySize(a) > max)
        return jl_fail(c, TV_JOB_ERR_INVALID, "expected an array of at most %zu items", max);
    size_t cnt = (size_t)cJSON_GetArraySize(a);
    *arr = calloc(cnt ? cnt : 1, size);
    if (!*arr)
        return jl_fail(c, TV_JOB_ERR_INVALID, "out of memory");
    size_t i = 0;
    for (const cJSON *x = a->child; x; x = x->next, i++) {
        size_t m2 = jl_push_index(c, i);
        *n = i + 1;
        if (!fn(c, x, (char *)*arr + i * size))
            return false;
        jl_pop(c, m2);
    }
    jl_pop(c, m);
    return true;
}

static bool const_item(jl *c, const cJSON *e, void *item)
{
    return draw_constant(c, e, item);
}

static bool tex_item(jl *c, const cJSON *e, void *item)
{
    static const char *const keys[] = {"stage", "slot", "texture", "sampler", NULL};
    job_scene_tex *t = item;
    if (!jl_object(c, e, keys) || !stage_of(c, e, &t->stage) ||
        !jl_get_uint(c, e, "slot", false, 0, 0, TV_PIPE_MAX_SAMPLERS - 1, &t->slot) ||
        !jl_get_ref(c, e, "texture", true, JL_REF_TEXTURE, &t->texture) ||
        !jl_get_ref(c, e, "sampler", false, JL_REF_SAMPLER, &t->sampler))
        return false;
    const job_texture *tx = &c->job->textures[t->texture];
    if (tx->num_overrides || tx->type == TV_TEX_2D_NO_MIPMAP)
        return jl_fail_at(c, "texture", TV_JOB_ERR_UNSUPPORTED,
                          "texture \"%s\" has %s: scenes bind textures by Gallium views, which "
                          "have no such state", tx->name ? tx->name : "",
                          tx->num_overrides ? "\"header\" overrides" : "type 2D_NO_MIPMAP");
    if (t->sampler >= 0) {
        const job_sampler *s = &c->job->samplers[t->sampler];
        if (s->unnormalized || !s->srgb_conversion || s->reduction)
            return jl_fail_at(c, "sampler", TV_JOB_ERR_UNSUPPORTED,
                              "sampler \"%s\" uses %s, which Gallium's sampler state of a "
                              "scene cannot say", s->name ? s->name : "",
                              s->unnormalized ? "unnormalized coordinates"
                              : s->reduction  ? "a min/max reduction"
                                              : "srgb_conversion false");
    }
    return true;
}

static bool buf_item(jl *c, const cJSON *e, void *item)
{
    static const char *const keys[] = {"stage", "slot", "buffer", NULL};
    job_scene_buf *b = item;
    return jl_object(c, e, keys) && stage_of(c, e, &b->stage) &&
           jl_get_uint(c, e, "slot", false, 0, 0, TV_PIPE_MAX_SLOTS - 1, &b->slot) &&
           jl_get_ref(c, e, "buffer", true, JL_REF_BUFFER, &b->buffer);
}

static int program_find(const job *j, const char *name)
{
    for (size_t i = 0; i < j->num_programs; i++)
        if (j->programs[i].name && !strcmp(j->programs[i].name, name))
            return (int)i;
    return -1;
}

static bool draw_programs(jl *c, const cJSON *e, job_scene_draw *d)
{
    for (int s = 0; s < 5; s++)
        d->program[s] = -1;
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(e, "programs");
    if (!a)
        return jl_fail_at(c, "programs", TV_JOB_ERR_INVALID, "required key is missing");
    size_t m = jl_push_key(c, "programs");
    if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) < 2 || cJSON_GetArraySize(a) > 5)
        return jl_fail(c, TV_JOB_ERR_INVALID,
                       "expected 2 to 5 program names (a VERT and a FRAG program at least)");
    size_t i = 0;
    const job *j = c->job;
    for (const cJSON *x = a->child; x; x = x->next, i++) {
        int p = -1;
        if (cJSON_IsString(x))
            p = program_find(j, x->valuestring);
        else if (cJSON_IsNumber(x) && jl_is_uint_in(x->valuedouble, (double)j->num_programs - 1))
            p = (int)x->valuedouble;
        if (p < 0) {
            jl_push_index(c, i);
            return cJSON_IsString(x)
                       ? jl_fail(c, TV_JOB_ERR_INVALID, "unknown program \"%s\"", x->valuestring)
                       : jl_fail(c, TV_JOB_ERR_INVALID, "expected a program name or index");
        }
        int st = j->programs[p].stage;
        if (st < 0 || st > 4) {
            jl_push_index(c, i);
            return jl_fail(c, TV_JOB_ERR_INVALID, "a %s program does not draw",
                           job_stage_name(st));
        }
        if (d->program[st] >= 0) {
            jl_push_index(c, i);
            return jl_fail(c, TV_JOB_ERR_INVALID, "a second %s program", job_stage_name(st));
        }
        d->program[st] = p;
    }
    if (d->program[TV_PIPE_STAGE_VERTEX] < 0 || d->program[TV_PIPE_STAGE_FRAGMENT] < 0)
        return jl_fail(c, TV_JOB_ERR_INVALID, "a draw needs a VERT and a FRAG program");
    if (d->program[TV_PIPE_STAGE_TESS_CTRL] >= 0 && d->program[TV_PIPE_STAGE_TESS_EVAL] < 0)
        return jl_fail(c, TV_JOB_ERR_INVALID, "a TESS_CTRL program needs a TESS_EVAL program");
    jl_pop(c, m);
    return true;
}

static bool draw(jl *c, const cJSON *e, job_scene_draw *d)
{
    static const char *const keys[] = {"mesh", "programs", "start", "count", "instances",
                                       "patch_vertices", "state", "constants", "textures",
                                       "buffers", NULL};
    const job_scene *s = c->job->scene;
    const char *mname;
    if (!jl_object(c, e, keys) || !jl_get_string(c, e, "mesh", true, &mname))
        return false;
    d->mesh = -1;
    for (size_t i = 0; i < s->num_meshes; i++)
        if (!strcmp(s->meshes[i].name, mname))
            d->mesh = (int)i;
    if (d->mesh < 0)
        return jl_fail_at(c, "mesh", TV_JOB_ERR_INVALID, "unknown mesh \"%s\"", mname);
    const job_mesh *m = &s->meshes[d->mesh];
    uint32_t total = m->index_size ? m->indices : m->vertices;
    if (!draw_programs(c, e, d) ||
        !jl_get_uint(c, e, "start", false, 0, 0, total, &d->start) ||
        !jl_get_uint(c, e, "count", false, total - d->start, 0, total - d->start, &d->count) ||
        !jl_get_uint(c, e, "instances", false, 1, 0, 1u << 24, &d->instances) ||
        !jl_get_uint(c, e, "patch_vertices", false, 0, 0, 32, &d->patch_vertices))
        return false;
    bool tess = d->program[TV_PIPE_STAGE_TESS_EVAL] >= 0;
    if (tess != (m->prim == PRIM_PATCHES))
        return jl_fail_at(c, "mesh", TV_JOB_ERR_INVALID, tess
                          ? "tessellation draws PATCHES meshes; mesh \"%s\" is not one"
                          : "mesh \"%s\" is of PATCHES: the draw needs a TESS_EVAL program",
                          mname);
    if (tess && !d->patch_vertices)
        return jl_fail_at(c, "patch_vertices", TV_JOB_ERR_INVALID,
                          "required key is missing (a PATCHES draw)");
    if (!items(c, e, "constants", JOB_SCENE_MAX_BINDINGS, sizeof(job_scene_const),
               (void **)&d->consts, &d->num_consts, const_item) ||
        !items(c, e, "textures", JOB_SCENE_MAX_BINDINGS, sizeof(job_scene_tex),
               (void **)&d->texs, &d->num_texs, tex_item) ||
        !items(c, e, "buffers", JOB_SCENE_MAX_BINDINGS, sizeof(job_scene_buf),
               (void **)&d->bufs, &d->num_bufs, buf_item))
        return false;
    return true;
}

/* ---- passes -------------------------------------------------------------------------------- */

static bool blit_pass(jl *c, const cJSON *e, job_scene_pass *p)
{
    static const char *const keys[] = {"from", "to", "from_level", "to_level", "filter",
                                       "mask", NULL};
    static const char *const filter_names[] = {"nearest", "linear", NULL};
    static const char *const mask_names[] = {"color", "depth", "stencil", "depth_stencil", NULL};
    static const int mask_values[] = {0xf, 0x10, 0x20, 0x30};
    int filter, mask;
    p->kind = JOB_PASS_BLIT;
    size_t m = jl_push_key(c, "blit");
    if (!jl_object(c, e, keys) || !jl_get_ref(c, e, "from", true, JL_REF_TEXTURE, &p->from) ||
        !jl_get_ref(c, e, "to", true, JL_REF_TEXTURE, &p->to) ||
        !jl_get_uint(c, e, "from_level", false, 0, 0, 15, &p->from_level) ||
        !jl_get_uint(c, e, "to_level", false, 0, 0, 15, &p->to_level) ||
        !jl_get_enum(c, e, "filter", filter_names, NULL, 0, &filter) ||
        !jl_get_enum(c, e, "mask", mask_names, mask_values, 0xf, &mask))
        return false;
    const job_texture *a = &c->job->textures[p->from], *b = &c->job->textures[p->to];
    if (p->from_level >= a->levels || p->to_level >= b->levels)
        return jl_fail(c, TV_JOB_ERR_INVALID, "level %u of a texture of %u levels",
                       p->from_level >= a->levels ? p->from_level : p->to_level,
                       p->from_level >= a->levels ? a->levels : b->levels);
    if (p->from == p->to)
        return jl_fail_at(c, "to", TV_JOB_ERR_INVALID, "a blit within one texture");
    p->filter = (uint8_t)filter;
    p->blit_mask = (uint32_t)mask;
    jl_pop(c, m);
    return true;
}

static bool pass(jl *c, const cJSON *e, size_t i)
{
    static const char *const keys[] = {"name", "colors", "depth", "clear", "viewport",
                                       "state", "draws", "blit", NULL};
    job_scene_pass *p = &c->job->scene->passes[i];
    const char *name;
    if (!jl_object(c, e, keys) || !jl_get_string(c, e, "name", false, &name))
        return false;
    if (name && !(p->name = strdup(name)))
        return jl_fail(c, TV_JOB_ERR_INVALID, "out of memory");
    const cJSON *b = cJSON_GetObjectItemCaseSensitive(e, "blit");
    if (b) {
        static const char *const draw_keys[] = {"colors", "depth", "clear", "viewport",
                                                "state", "draws", NULL};
        for (int k = 0; draw_keys[k]; k++)
            if (cJSON_GetObjectItemCaseSensitive(e, draw_keys[k]))
                return jl_fail_at(c, draw_keys[k], TV_JOB_ERR_INVALID,
                                  "a blit pass has only \"name\" and \"blit\"");
        return blit_pass(c, b, p);
    }
    p->kind = JOB_PASS_DRAW;
    if (!framebuffer(c, e, p) || !clear(c, e, p) || !viewport(c, e, p))
        return false;
    const cJSON *st = cJSON_GetObjectItemCaseSensitive(e, "state");
    job_scene_state base;
    jl_scene_state_default(&base);
    if (st) {
        size_t m = jl_push_key(c, "state");
        if (!jl_scene_state(c, st, &base))
            return false;
        jl_pop(c, m);
    }
    const cJSON *ds = cJSON_GetObjectItemCaseSensitive(e, "draws");
    if (!ds)
        return true; /* a clear-only pass */
    size_t m = jl_push_key(c, "draws");
    if (!cJSON_IsArray(ds) || cJSON_GetArraySize(ds) > JOB_SCENE_MAX_DRAWS)
        return jl_fail(c, TV_JOB_ERR_INVALID, "expected an array of at most %d draws",
                       JOB_SCENE_MAX_DRAWS);
    size_t n = (size_t)cJSON_GetArraySize(ds);
    p->draws = calloc(n ? n : 1, sizeof *p->draws);
    if (!p->draws)
        return jl_fail(c, TV_JOB_ERR_INVALID, "out of memory");
    size_t k = 0;
    for (const cJSON *x = ds->child; x; x = x->next, k++) {
        size_t m2 = jl_push_index(c, k);
        job_scene_draw *d = &p->draws[k];
        p->num_draws = k + 1;
        if (!draw(c, x, d))
            return false;
        d->state = base;
        const cJSON *dst = cJSON_GetObjectItemCaseSensitive(x, "state");
        if (dst) {
            size_t m3 = jl_push_key(c, "state");
            if (!jl_scene_state(c, dst, &d->state))
                return false;
            jl_pop(c, m3);
        }
        if (d->state.has_scissor &&
            ((uint64_t)d->state.scissor[0] + d->state.scissor[2] > p->width ||
             (uint64_t)d->state.scissor[1] + d->state.scissor[3] > p->height))
            return jl_fail(c, TV_JOB_ERR_INVALID, "the scissor rectangle passes the %ux%u "
                           "framebuffer", p->width, p->height);
        jl_pop(c, m2);
    }
    jl_pop(c, m);
    return true;
}

bool jl_scene(jl *c, const cJSON *root)
{
    static const char *const keys[] = {"meshes", "passes", NULL};
    job *j = c->job;
    const cJSON *s = cJSON_GetObjectItemCaseSensitive(root, "scene");
    if (j->run != JOB_RUN_SCENE) {
        if (s)
            return jl_fail_at(c, "scene", TV_JOB_ERR_INVALID, "a scene runs with \"run\": \"SCENE\"");
        return true;
    }
    if (!s)
        return jl_fail_at(c, "scene", TV_JOB_ERR_INVALID, "required key is missing (the job runs "
                          "SCENE)");
    for (size_t i = 0; i < j->num_buffers; i++)
        if (j->buffers[i].slot >= 0) {
            jl_push_key(c, "buffers");
            jl_push_index(c, i);
            return jl_fail_at(c, "slot", TV_JOB_ERR_INVALID, "a scene's draws bind buffers "
                              "(draws[].buffers); leave \"slot\" out");
        }
    if (!(j->scene = calloc(1, sizeof *j->scene)))
        return jl_fail(c, TV_JOB_ERR_INVALID, "out of memory");
    size_t m = jl_push_key(c, "scene");
    if (!jl_object(c, s, keys))
        return false;
    const cJSON *ms = cJSON_GetObjectItemCaseSensitive(s, "meshes");
    if (ms && cJSON_IsArray(ms) && cJSON_GetArraySize(ms) > JOB_SCENE_MAX_MESHES)
        return jl_fail_at(c, "meshes", TV_JOB_ERR_INVALID, "at most %d meshes",
                          JOB_SCENE_MAX_MESHES);
    const cJSON *ps = cJSON_GetObjectItemCaseSensitive(s, "passes");
    if (!ps)
        return jl_fail_at(c, "passes", TV_JOB_ERR_INVALID, "required key is missing");
    if (cJSON_IsArray(ps) && cJSON_GetArraySize(ps) > JOB_SCENE_MAX_PASSES)
        return jl_fail_at(c, "passes", TV_JOB_ERR_INVALID, "at most %d passes",
                          JOB_SCENE_MAX_PASSES);
    if (!jl_each(c, s, "meshes", (void **)&j->scene->meshes, sizeof(job_mesh),
                 &j->scene->num_meshes, mesh) ||
        !jl_each(c, s, "passes", (void **)&j->scene->passes, sizeof(job_scene_pass),
                 &j->scene->num_passes, pass))
        return false;
    jl_pop(c, m);
    return true;
}

void job_scene_free(job_scene *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->num_meshes; i++) {
        free(s->meshes[i].name);
        free(s->meshes[i].vertex_data);
        free(s->meshes[i].index_data);
    }
    free(s->meshes);
    for (size_t i = 0; i < s->num_passes; i++) {
        job_scene_pass *p = &s->passes[i];
        for (size_t k = 0; k < p->num_draws; k++) {
            job_scene_draw *d = &p->draws[k];
            for (size_t n = 0; n < d->num_consts; n++)
                free(d->consts[n].words);
            free(d->consts);
            free(d->texs);
            free(d->bufs);
        }
        free(p->draws);
        free(p->name);
    }
    free(s->passes);
    free(s);
}
