/* Job loader: textures (size, type, format, sources, mip chains, view and header state). */
#include "image.h"
#include "job_internal.h"

#include <stdlib.h>
#include <string.h>

static const char *const type_names[] = {"1D", "2D", "3D", "CUBE", "1D_ARRAY", "2D_ARRAY",
                                         "BUFFER", "2D_NO_MIPMAP", "CUBE_ARRAY", NULL};
static const int type_values[] = {TV_TEX_1D, TV_TEX_2D, TV_TEX_3D, TV_TEX_CUBE,
                                  TV_TEX_1D_ARRAY, TV_TEX_2D_ARRAY, TV_TEX_1D_BUFFER,
                                  TV_TEX_2D_NO_MIPMAP, TV_TEX_CUBE_ARRAY};

/* ---- patterns ------------------------------------------------------------------------ */

static const char *const pattern_names[] = {"fill", "checker", "gradient", "uv", "noise",
                                            "levels", "layers", "bricks", NULL};

static bool color_list(jl *c, const cJSON *o, const char *key, double out[][4], unsigned max,
                       unsigned *count)
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!a)
        return true;
    size_t m = jl_push_key(c, key);
    if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) < 1 || (unsigned)cJSON_GetArraySize(a) > max)
        return jl_fail(c, TV_JOB_ERR_INVALID, "expected 1 to %u colours [r, g, b, a]", max);
    unsigned n = 0;
    for (const cJSON *e = a->child; e; e = e->next, n++) {
        int k = 0;
        if (!cJSON_IsArray(e) || cJSON_GetArraySize(e) < 1 || cJSON_GetArraySize(e) > 4) {
            jl_push_index(c, n);
            return jl_fail(c, TV_JOB_ERR_INVALID, "expected a colour [r, g, b, a], got %s",
                           jl_kind(e));
        }
        double col[4] = {0, 0, 0, 1};
        for (const cJSON *x = e->child; x; x = x->next, k++) {
            if (!cJSON_IsNumber(x)) {
                jl_push_index(c, n);
                jl_push_index(c, (size_t)k);
                return jl_fail(c, TV_JOB_ERR_INVALID, "expected a number, got %s", jl_kind(x));
            }
            col[k] = x->valuedouble;
        }
        memcpy(out[n], col, sizeof col);
    }
    *count = n;
    jl_pop(c, m);
    return true;
}

static bool one_color(jl *c, const cJSON *o, const char *key, double out[4])
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!a)
        return true;
    if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) < 1 || cJSON_GetArraySize(a) > 4)
        return jl_fail_at(c, key, TV_JOB_ERR_INVALID, "expected a colour [r, g, b, a]");
    double col[4] = {0, 0, 0, 1};
    int k = 0;
    for (const cJSON *x = a->child; x; x = x->next, k++) {
        if (!cJSON_IsNumber(x))
            return jl_fail_at(c, key, TV_JOB_ERR_INVALID, "expected a colour of numbers");
        col[k] = x->valuedouble;
    }
    memcpy(out, col, sizeof col);
    return true;
}

static const double default_palette[8][4] = {
    {1, 0, 0, 1}, {0, 1, 0, 1}, {0, 0, 1, 1}, {1, 1, 0, 1},
    {1, 0, 1, 1}, {0, 1, 1, 1}, {1, 1, 1, 1}, {0.5, 0.5, 0.5, 1},
};

bool jl_pattern(jl *c, const cJSON *o, job_pattern *p)
{
    static const char *const dir_names[] = {"x", "y", "diagonal", "radial", NULL};
    memset(p, 0, sizeof *p);
    if (!jl_get_enum(c, o, "pattern", pattern_names, NULL, JOB_PAT_FILL, &p->kind))
        return false;
    switch (p->kind) {
    case JOB_PAT_FILL:
        p->num_colors = 1;
        p->colors[0][0] = p->colors[0][1] = p->colors[0][2] = p->colors[0][3] = 1;
        return one_color(c, o, "color", p->colors[0]);
    case JOB_PAT_CHECKER:
        p->num_colors = 2;
        p->colors[0][3] = 1;
        for (int k = 0; k < 4; k++)
            p->colors[1][k] = 1;
        return jl_get_uint(c, o, "cell", false, 8, 1, 65536, &p->cell) &&
               color_list(c, o, "colors", p->colors, JOB_PATTERN_MAX_COLORS, &p->num_colors) &&
               (p->num_colors == 2 ||
                jl_fail_at(c, "colors", TV_JOB_ERR_INVALID, "a checker has exactly 2 colours"));
    case JOB_PAT_GRADIENT:
        p->num_colors = 2;
        p->colors[0][3] = 1;
        for (int k = 0; k < 4; k++)
            p->colors[1][k] = 1;
        return one_color(c, o, "from", p->colors[0]) && one_color(c, o, "to", p->colors[1]) &&
               jl_get_enum(c, o, "direction", dir_names, NULL, JOB_GRAD_X, &p->direction);
    case JOB_PAT_UV:
        return true;
    case JOB_PAT_NOISE:
        if (!jl_get_uint(c, o, "seed", false, 0, 0, UINT32_MAX, &p->seed) ||
            !jl_get_double(c, o, "min", false, 0.0, -1e30, 1e30, &p->min) ||
            !jl_get_double(c, o, "max", false, 1.0, -1e30, 1e30, &p->max) ||
            !jl_get_bool(c, o, "gray", false, &p->gray) ||
            !jl_get_bool(c, o, "alpha_noise", false, &p->alpha_noise))
            return false;
        return true;
    case JOB_PAT_LEVELS:
    case JOB_PAT_LAYERS:
        p->num_colors = 8;
        memcpy(p->colors, default_palette, sizeof default_palette);
        return color_list(c, o, "colors", p->colors, JOB_PATTERN_MAX_COLORS, &p->num_colors);
    case JOB_PAT_BRICKS: {
        p->num_colors = 2;
        static const double bc[2][4] = {{0.6, 0.2, 0.1, 1}, {0.8, 0.8, 0.8, 1}};
        memcpy(p->colors, bc, sizeof bc);
        p->brick[0] = 16;
        p->brick[1] = 8;
        const cJSON *b = cJSON_GetObjectItemCaseSensitive(o, "brick");
        if (b) {
            if (!cJSON_IsArray(b) || cJSON_GetArraySize(b) != 2 || !cJSON_IsNumber(b->child) ||
                !cJSON_IsNumber(b->child->next) || b->child->valuedouble < 2 ||
                b->child->next->valuedouble < 2 || b->child->valuedouble > 65536 ||
                b->child->next->valuedouble > 65536 ||
                !jl_is_uint_in(b->child->valuedouble, 65536) ||
                !jl_is_uint_in(b->child->next->valuedouble, 65536))
                return jl_fail_at(c, "brick", TV_JOB_ERR_INVALID,
                                  "expected [width, height], integers in [2, 65536]");
            p->brick[0] = (uint32_t)b->child->valuedouble;
            p->brick[1] = (uint32_t)b->child->next->valuedouble;
        }
        return jl_get_uint(c, o, "mortar", false, 1, 0, 65536, &p->mortar) &&
               color_list(c, o, "colors", p->colors, JOB_PATTERN_MAX_COLORS, &p->num_colors) &&
               (p->num_colors == 2 ||
                jl_fail_at(c, "colors", TV_JOB_ERR_INVALID, "bricks have exactly 2 colours"));
    }
    default:
        return jl_fail(c, TV_JOB_ERR_INVALID, "unknown pattern");
    }
}

/* Keys a pattern may use, per pattern kind (everything else is an unknown key). */
static const char *const *pattern_keys(int kind)
{
    static const char *const fill[] = {"pattern", "color", NULL};
    static const char *const checker[] = {"pattern", "cell", "colors", NULL};
    static const char *const gradient[] = {"pattern", "from", "to", "direction", NULL};
    static const char *const uv[] = {"pattern", NULL};
    static const char *const noise[] = {"pattern", "seed", "min", "max", "gray", "alpha_noise",
                                        NULL};
    static const char *const levels[] = {"pattern", "colors", NULL};
    static const char *const bricks[] = {"pattern", "brick", "mortar", "colors", NULL};
    static const char *const *const table[JOB_PAT_COUNT] = {fill,   checker, gradient, uv,
                                                            noise,  levels,  levels,   bricks};
    return kind >= 0 && kind < JOB_PAT_COUNT ? table[kind] : uv;
}

/* ---- sources ------------------------------------------------------------------------- */

static bool source(jl *c, const cJSON *o, job_source *s, int deftype)
{
    memset(s, 0, sizeof *s);
    if (!cJSON_IsObject(o))
        return jl_fail(c, TV_JOB_ERR_INVALID, "expected a source object, got %s", jl_kind(o));
    static const char *const kinds[] = {"png", "raw", "values", "pattern", "fill"};
    static const int kv[] = {JOB_SRC_PNG, JOB_SRC_RAW, JOB_SRC_VALUES, JOB_SRC_PATTERN,
                             JOB_SRC_FILL};
    int found = 0;
    for (int i = 0; i < 5; i++)
        if (cJSON_GetObjectItemCaseSensitive(o, kinds[i])) {
            found++;
            s->kind = kv[i];
        }
    if (found != 1)
        return jl_fail(c, TV_JOB_ERR_INVALID,
                       "a source has exactly one of \"png\", \"raw\", \"values\", \"pattern\", "
                       "\"fill\"");
    int type;
    switch (s->kind) {
    case JOB_SRC_PNG: {
        static const char *const keys[] = {"png", NULL};
        return jl_object(c, o, keys) && jl_get_path(c, o, "png", true, &s->path);
    }
    case JOB_SRC_RAW: {
        static const char *const keys[] = {"raw", "offset", NULL};
        return jl_object(c, o, keys) && jl_get_path(c, o, "raw", true, &s->path) &&
               jl_get_u64(c, o, "offset", false, 0, &s->offset);
    }
    case JOB_SRC_VALUES: {
        static const char *const keys[] = {"values", "type", NULL};
        return jl_object(c, o, keys) && jl_get_type(c, o, "type", deftype, &type) &&
               jl_get_words(c, o, "values", true, type, JL_PAD_VEC4_ONE, &s->values);
    }
    case JOB_SRC_FILL: {
        static const char *const keys[] = {"fill", "type", NULL};
        static const uint32_t zero[4] = {0, 0, 0, 0};
        s->values.w = calloc(4, sizeof *s->values.w);
        if (!s->values.w)
            return jl_fail(c, TV_JOB_ERR_INVALID, "out of memory");
        s->values.count = 4;
        return jl_object(c, o, keys) && jl_get_type(c, o, "type", deftype, &type) &&
               jl_get_vec4(c, o, "fill", type, true, zero, s->values.w);
    }
    default:
        if (!jl_pattern(c, o, &s->pattern))
            return false;
        return jl_object(c, o, pattern_keys(s->pattern.kind));
    }
}

/* ---- textures ------------------------------------------------------------------------ */

static bool levels_key(jl *c, const cJSON *o, uint32_t *levels, bool *all)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, "levels");
    *levels = 0;
    *all = false;
    if (!v)
        return true;
    if (cJSON_IsString(v) && !strcmp(v->valuestring, "all")) {
        *all = true;
        return true;
    }
    if (!cJSON_IsNumber(v) || !jl_is_uint_in(v->valuedouble, 16) || v->valuedouble < 1)
        return jl_fail_at(c, "levels", TV_JOB_ERR_INVALID,
                          "expected a number of levels in [1, 16] or \"all\"");
    *levels = (uint32_t)v->valuedouble;
    return true;
}

static bool view(jl *c, const cJSON *o, job_texture *t)
{
    static const char *const keys[] = {"min_level", "max_level", "swizzle", "srgb",
                                       "normalized", NULL};
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, "view");
    t->view_min_level = 0;
    t->view_max_level = t->levels - 1;
    memcpy(t->swizzle, "rgba", 4);
    t->srgb = -1;
    t->normalized = true;
    if (!v)
        return true;
    size_t m = jl_push_key(c, "view");
    const char *swz;
    if (!jl_object(c, v, keys) ||
        !jl_get_uint(c, v, "min_level", false, 0, 0, t->levels - 1, &t->view_min_level) ||
        !jl_get_uint(c, v, "max_level", false, t->levels - 1, 0, t->levels - 1,
                     &t->view_max_level) ||
        !jl_get_string(c, v, "swizzle", false, &swz) ||
        !jl_get_bool(c, v, "normalized", true, &t->normalized))
        return false;
    if (t->view_min_level > t->view_max_level)
        return jl_fail_at(c, "min_level", TV_JOB_ERR_INVALID, "min_level %u is above max_level %u",
                          t->view_min_level, t->view_max_level);
    if (swz) {
        if (strlen(swz) != 4 || strspn(swz, "rgba01") != 4)
            return jl_fail_at(c, "swizzle", TV_JOB_ERR_INVALID,
                              "bad swizzle \"%s\" (4 letters of r, g, b, a, 0, 1)", swz);
        memcpy(t->swizzle, swz, 4);
    }
    const cJSON *s = cJSON_GetObjectItemCaseSensitive(v, "srgb");
    if (s) {
        bool b;
        if (!jl_get_bool(c, v, "srgb", false, &b))
            return false;
        t->srgb = b;
    }
    jl_pop(c, m);
    return true;
}

static bool header_overrides(jl *c, const cJSON *o, job_texture *t)
{
    const cJSON *h = cJSON_GetObjectItemCaseSensitive(o, "header");
    if (!h)
        return true;
    size_t m = jl_push_key(c, "header");
    if (!cJSON_IsObject(h))
        return jl_fail(c, TV_JOB_ERR_INVALID, "expected an object, got %s", jl_kind(h));
    size_t n = (size_t)cJSON_GetArraySize(h);
    t->overrides = calloc(n ? n : 1, sizeof *t->overrides);
    if (!t->overrides)
        return jl_fail(c, TV_JOB_ERR_INVALID, "out of memory");
    for (const cJSON *e = h->child; e; e = e->next) {
        int f = job_tic_field_find(e->string);
        if (f < 0)
            return jl_fail_at(c, e->string, TV_JOB_ERR_INVALID, "unknown texture header field");
        if (!cJSON_IsNumber(e) && !cJSON_IsBool(e))
            return jl_fail_at(c, e->string, TV_JOB_ERR_INVALID, "expected a number, got %s",
                              jl_kind(e));
        t->overrides[t->num_overrides].field = f;
        t->overrides[t->num_overrides].value =
            cJSON_IsBool(e) ? (cJSON_IsTrue(e) ? 1.0 : 0.0) : e->valuedouble;
        t->num_overrides++;
    }
    jl_pop(c, m);
    return true;
}

/* Width/height of a PNG source for textures that do not state their size. */
static bool size_from_png(jl *c, job_texture *t, bool has_w, bool has_h)
{
    const job_source *s = &t->source;
    if (s->kind != JOB_SRC_PNG) {
        if (!has_w)
            return jl_fail_at(c, "width", TV_JOB_ERR_INVALID,
                              "required key is missing (no PNG source to take it from)");
        return true;
    }
    image_info info;
    char msg[512];
    int cls = image_png_info(s->path, &info, msg, sizeof msg);
    if (cls) {
        size_t m = jl_push_key(c, "source");
        jl_fail(c, cls == 3 ? TV_JOB_ERR_IO : TV_JOB_ERR_INVALID, "%s", msg);
        jl_pop(c, m);
        return false;
    }
    uint32_t stack = t->type == TV_TEX_3D ? t->depth : t->layers;
    if (!has_w)
        t->width = info.width;
    if (!has_h) {
        if (stack == 0 || info.height % stack)
            return jl_fail_at(c, "source", TV_JOB_ERR_INVALID,
                              "the PNG's %u rows are not %u stacked layers", info.height, stack);
        t->height = info.height / stack;
    }
    return true;
}

static bool texture(jl *c, const cJSON *e, size_t i)
{
    static const char *const keys[] = {"name", "header_index", "type", "format", "width",
                                       "height", "depth", "layers", "levels", "samples",
                                       "source", "mipmaps", "level_sources", "layer_sources",
                                       "view", "layout",
                                       "pitch", "block", "header", NULL};
    static const char *const mip_names[] = {"none", "generate", "pattern", NULL};
    static const char *const layout_names[] = {"pitch", "block_linear", NULL};
    static const int layout_values[] = {TV_TIC_PITCH, TV_TIC_BLOCKLINEAR};
    job_texture *t = &c->job->textures[i];
    const char *name;
    int32_t hidx;
    bool all;
    if (!jl_object(c, e, keys) || !jl_get_string(c, e, "name", false, &name) ||
        !jl_get_int(c, e, "header_index", false, -1, 0, (1 << 20) - 1, &hidx))
        return false;
    if (name && job_texture_find(c->job, name) >= 0)
        return jl_fail_at(c, "name", TV_JOB_ERR_INVALID, "duplicate texture name \"%s\"", name);
    if (name && !(t->name = strdup(name)))
        return jl_fail(c, TV_JOB_ERR_INVALID, "out of memory");
    t->header_index = hidx;
    if (!jl_get_enum(c, e, "type", type_names, type_values, TV_TEX_2D, &t->type) ||
        !jl_get_format(c, e, "format", true, &t->format))
        return false;
    bool cube = t->type == TV_TEX_CUBE || t->type == TV_TEX_CUBE_ARRAY;
    bool array = t->type == TV_TEX_1D_ARRAY || t->type == TV_TEX_2D_ARRAY || cube;
    bool one_d = t->type == TV_TEX_1D || t->type == TV_TEX_1D_ARRAY ||
                 t->type == TV_TEX_1D_BUFFER;
    bool has_w = cJSON_GetObjectItemCaseSensitive(e, "width") != NULL;
    bool has_h = cJSON_GetObjectItemCaseSensitive(e, "height") != NULL;
    uint32_t maxw = t->type == TV_TEX_1D_BUFFER ? (1u << 27) : 16384;
    if (!jl_get_uint(c, e, "width", false, 0, 1, maxw, &t->width) ||
        !jl_get_uint(c, e, "height", false, 1, 1, 16384, &t->height) ||
        !jl_get_uint(c, e, "depth", false, 1, 1, 2048, &t->depth) ||
        !jl_get_uint(c, e, "layers", false, t->type == TV_TEX_CUBE ? 6 : 1, 1, 16384,
                     &t->layers) ||
        !jl_get_uint(c, e, "samples", false, 1, 1, 16, &t->samples) || !levels_key(c, e, &t->levels, &all))
        return false;
    if (one_d && has_h && t->height != 1)
        return jl_fail_at(c, "height", TV_JOB_ERR_INVALID, "a %s texture has height 1",
                          type_names[t->type == TV_TEX_1D ? 0 : t->type == TV_TEX_1D_ARRAY ? 4 : 6]);
    if (!array && t->layers != 1)
        return jl_fail_at(c, "layers", TV_JOB_ERR_INVALID, "only array and cube textures have layers");
    if (t->type == TV_TEX_CUBE && t->layers != 6)
        return jl_fail_at(c, "layers", TV_JOB_ERR_INVALID, "a cube has 6 layers (faces)");
    if (t->type == TV_TEX_CUBE_ARRAY && t->layers % 6)
        return jl_fail_at(c, "layers", TV_JOB_ERR_INVALID,
                          "a cube array has 6 layers per cube, %u is not a multiple of 6",
                          t->layers);
    if (t->type != TV_TEX_3D && t->depth != 1)
        return jl_fail_at(c, "depth", TV_JOB_ERR_INVALID, "only 3D textures have depth");
    if (t->samples & (t->samples - 1))
        return jl_fail_at(c, "samples", TV_JOB_ERR_INVALID, "samples must be 1, 2, 4, 8 or 16");
    if (t->samples > 1 && t->type != TV_TEX_2D && t->type != TV_TEX_2D_ARRAY)
        return jl_fail_at(c, "samples", TV_JOB_ERR_INVALID,
                          "only 2D and 2D_ARRAY textures are multisampled");
    /* Sources; values default to the format's kind (integers for UINT/SINT formats). */
    const tv_format_info *kfi = tv_format_get(t->format);
    int deftype = kfi && kfi->kind == TV_FMT_KIND_UINT   ? JOB_TYPE_UINT
                  : kfi && kfi->kind == TV_FMT_KIND_SINT ? JOB_TYPE_INT
                                                         : JOB_TYPE_FLOAT;
    const cJSON *src = cJSON_GetObjectItemCaseSensitive(e, "source");
    const cJSON *lsrc = cJSON_GetObjectItemCaseSensitive(e, "level_sources");
    const cJSON *ysrc = cJSON_GetObjectItemCaseSensitive(e, "layer_sources");
    if (!jl_get_enum(c, e, "mipmaps", mip_names, NULL, JOB_MIP_NONE, &t->mipmaps))
        return false;
    if (!!src + !!lsrc + !!ysrc > 1)
        return jl_fail_at(c, ysrc ? "layer_sources" : "level_sources", TV_JOB_ERR_INVALID,
                          "give one of \"source\", \"level_sources\" and \"layer_sources\"");
    if (ysrc && t->mipmaps == JOB_MIP_PATTERN)
        return jl_fail_at(c, "mipmaps", TV_JOB_ERR_INVALID,
                          "\"pattern\" mip maps need one pattern \"source\"");
    if (lsrc && t->mipmaps != JOB_MIP_NONE)
        return jl_fail_at(c, "mipmaps", TV_JOB_ERR_INVALID,
                          "\"level_sources\" gives every level; leave \"mipmaps\" out");
    if (src) {
        size_t m = jl_push_key(c, "source");
        if (!source(c, src, &t->source, deftype))
            return false;
        jl_pop(c, m);
    } else if (lsrc) {
        size_t m = jl_push_key(c, "level_sources");
        if (!cJSON_IsArray(lsrc) || cJSON_GetArraySize(lsrc) < 1 || cJSON_GetArraySize(lsrc) > 16)
            return jl_fail(c, TV_JOB_ERR_INVALID, "expected an array of 1 to 16 sources");
        size_t n = (size_t)cJSON_GetArraySize(lsrc);
        t->level_sources = calloc(n, sizeof *t->level_sources);
        if (!t->level_sources)
            return jl_fail(c, TV_JOB_ERR_INVALID, "out of memory");
        size_t k = 0;
        for (const cJSON *x = lsrc->child; x; x = x->next, k++) {
            size_t m2 = jl_push_index(c, k);
            t->num_level_sources = k + 1;
            if (!source(c, x, &t->level_sources[k], deftype))
                return false;
            jl_pop(c, m2);
        }
        t->source = t->level_sources[0];
        t->source.path = NULL; /* level 0 keeps ownership in level_sources */
        t->source.values.w = NULL;
        t->source.kind = t->level_sources[0].kind;
        jl_pop(c, m);
    } else if (ysrc) {
        size_t m = jl_push_key(c, "layer_sources");
        if (!cJSON_IsArray(ysrc) || cJSON_GetArraySize(ysrc) < 1)
            return jl_fail(c, TV_JOB_ERR_INVALID, "expected an array of sources, one per layer");
        size_t n = (size_t)cJSON_GetArraySize(ysrc);
        t->layer_sources = calloc(n, sizeof *t->layer_sources);
        if (!t->layer_sources)
            return jl_fail(c, TV_JOB_ERR_INVALID, "out of memory");
        size_t k = 0;
        for (const cJSON *x = ysrc->child; x; x = x->next, k++) {
            size_t m2 = jl_push_index(c, k);
            t->num_layer_sources = k + 1;
            if (!source(c, x, &t->layer_sources[k], deftype))
                return false;
            jl_pop(c, m2);
        }
        t->source = t->layer_sources[0];
        t->source.path = NULL; /* owned by layer_sources[0] */
        t->source.values.w = NULL;
        jl_pop(c, m);
    } else {
        t->source.kind = JOB_SRC_NONE;
    }
    if (t->mipmaps == JOB_MIP_PATTERN && t->source.kind != JOB_SRC_PATTERN)
        return jl_fail_at(c, "mipmaps", TV_JOB_ERR_INVALID,
                          "\"pattern\" mip maps need a pattern source");
    if (t->mipmaps != JOB_MIP_NONE && t->source.kind == JOB_SRC_NONE)
        return jl_fail_at(c, "mipmaps", TV_JOB_ERR_INVALID, "mip maps need a source");
    /* Size (perhaps from the PNG of level 0). */
    if (!has_w || (!has_h && !one_d)) {
        job_source keep = t->source;
        if (lsrc) /* level 0's path lives in level_sources[0] */
            t->source.path = t->level_sources[0].path;
        if (ysrc) /* one layer per image: nothing stacked */
            t->source.path = t->layer_sources[0].path;
        uint32_t keep_layers = t->layers, keep_depth = t->depth;
        if (ysrc)
            t->layers = t->depth = 1;
        bool ok = size_from_png(c, t, has_w, has_h || one_d);
        t->layers = keep_layers;
        t->depth = keep_depth;
        t->source = keep;
        if (!ok)
            return false;
    }
    if (cube && t->width != t->height)
        return jl_fail_at(c, "height", TV_JOB_ERR_INVALID, "cube faces are square, not %ux%u",
                          t->width, t->height);
    /* Levels. */
    uint32_t full = job_full_levels(t->width, t->height, t->type == TV_TEX_3D ? t->depth : 1);
    if (all)
        t->levels = full;
    if (!t->levels)
        t->levels = lsrc ? (uint32_t)t->num_level_sources
                    : t->mipmaps != JOB_MIP_NONE ? full
                                                 : 1;
    if (t->levels > full)
        return jl_fail_at(c, "levels", TV_JOB_ERR_INVALID, "%u levels, but a %ux%ux%u texture has %u",
                          t->levels, t->width, t->height, t->depth, full);
    if (ysrc && t->num_layer_sources != job_texture_layers(t, 0))
        return jl_fail_at(c, "layer_sources", TV_JOB_ERR_INVALID, "%zu sources for %u layers",
                          t->num_layer_sources, job_texture_layers(t, 0));
    if (lsrc && t->num_level_sources != t->levels)
        return jl_fail_at(c, "level_sources", TV_JOB_ERR_INVALID, "%zu sources for %u levels",
                          t->num_level_sources, t->levels);
    if ((t->type == TV_TEX_1D_BUFFER || t->type == TV_TEX_2D_NO_MIPMAP || t->samples > 1) &&
        t->levels != 1)
        return jl_fail_at(c, "levels", TV_JOB_ERR_INVALID, "this texture type has one level");
    if (!view(c, e, t) || !header_overrides(c, e, t))
        return false;
    /* Layout. */
    int layout;
    if (!jl_get_enum(c, e, "layout", layout_names, layout_values, TV_TIC_PITCH, &layout) ||
        !jl_get_uint(c, e, "pitch", false, 0, 0, 1u << 30, &t->pitch))
        return false;
    t->layout = layout;
    if (t->type == TV_TEX_1D_BUFFER)
        t->layout = TV_TIC_ONE_D_BUFFER;
    if (t->pitch && t->pitch % 32)
        return jl_fail_at(c, "pitch", TV_JOB_ERR_INVALID, "the pitch must be a multiple of 32");
    const tv_format_info *fi = tv_format_get(t->format);
    if (t->pitch && fi &&
        t->pitch < (uint64_t)(t->width + fi->block_w - 1) / fi->block_w * fi->block_bytes)
        return jl_fail_at(c, "pitch", TV_JOB_ERR_INVALID, "pitch %u is less than a row (%u bytes)",
                          t->pitch,
                          (t->width + fi->block_w - 1) / fi->block_w * fi->block_bytes);
    t->block[0] = 0;
    t->block[1] = 4;
    t->block[2] = 0;
    const cJSON *b = cJSON_GetObjectItemCaseSensitive(e, "block");
    if (b) {
        if (!cJSON_IsArray(b) || cJSON_GetArraySize(b) != 3)
            return jl_fail_at(c, "block", TV_JOB_ERR_INVALID,
                              "expected [x, y, z] (log2 GOBs per block, each 0..5)");
        int k = 0;
        for (const cJSON *x = b->child; x; x = x->next, k++) {
            if (!cJSON_IsNumber(x) || !jl_is_uint_in(x->valuedouble, 5))
                return jl_fail_at(c, "block", TV_JOB_ERR_INVALID,
                                  "expected [x, y, z] (log2 GOBs per block, each 0..5)");
            t->block[k] = (uint8_t)x->valuedouble;
        }
    }
    return true;
}

bool jl_textures(jl *c, const cJSON *root)
{
    job *j = c->job;
    return jl_each(c, root, "textures", (void **)&j->textures, sizeof *j->textures,
                   &j->num_textures, texture);
}
