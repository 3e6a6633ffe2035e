/* Scene loader: the "state" objects of passes and draws (docs/jobs-scenes.md §4) onto
 * Gallium's rasterizer, depth-stencil-alpha and blend states, and constant rows with
 * matrices (§5). The names are the job file's vocabulary; each table maps them to Gallium's
 * values (PIPE_FUNC_*, PIPE_STENCIL_OP_*, PIPE_BLEND_*, PIPE_BLENDFACTOR_*,
 * PIPE_LOGICOP_*). */
#include "job_internal.h"
#include "job_load_scene.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *const func_names[] = {"never", "less", "equal", "lequal", "greater",
                                         "notequal", "gequal", "always", NULL};
static const char *const depth_names[] = {"never", "less", "equal", "lequal", "greater",
                                          "notequal", "gequal", "always", "off", NULL};
static const char *const stencil_op_names[] = {"keep", "zero", "replace", "incr", "decr",
                                               "incr_wrap", "decr_wrap", "invert", NULL};
static const char *const equation_names[] = {"add", "subtract", "reverse_subtract", "min",
                                             "max", NULL};
static const char *const factor_names[] = {
    "one", "src_color", "src_alpha", "dst_alpha", "dst_color", "src_alpha_saturate",
    "const_color", "const_alpha", "src1_color", "src1_alpha", "zero", "inv_src_color",
    "inv_src_alpha", "inv_dst_alpha", "inv_dst_color", "inv_const_color", "inv_const_alpha",
    "inv_src1_color", "inv_src1_alpha", NULL};
static const int factor_values[] = {0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a,
                                    0x11, 0x12, 0x13, 0x14, 0x15, 0x17, 0x18, 0x19, 0x1a};
static const char *const logicop_names[] = {
    "clear", "nor", "and_inverted", "copy_inverted", "and_reverse", "invert", "xor", "nand",
    "and", "equiv", "noop", "or_inverted", "copy", "or_reverse", "or", "set", "off", NULL};
static const char *const face_names[] = {"none", "front", "back", "front_and_back", NULL};
static const char *const fill_names[] = {"fill", "line", "point", NULL};

enum { F_ONE = 0x01, F_SRC_ALPHA = 0x03, F_DST_COLOR = 0x05, F_ZERO = 0x11,
       F_INV_SRC_ALPHA = 0x13 };

/* Named blend presets: rgb and alpha (equation, source factor, destination factor). */
typedef struct blend_preset {
    const char *name;
    bool enable;
    uint8_t f[3], fa[3];
} blend_preset;

static const blend_preset presets[] = {
    {"off", false, {0, F_ONE, F_ZERO}, {0, F_ONE, F_ZERO}},
    {"alpha", true, {0, F_SRC_ALPHA, F_INV_SRC_ALPHA}, {0, F_ONE, F_INV_SRC_ALPHA}},
    {"premultiplied", true, {0, F_ONE, F_INV_SRC_ALPHA}, {0, F_ONE, F_INV_SRC_ALPHA}},
    {"additive", true, {0, F_ONE, F_ONE}, {0, F_ONE, F_ONE}},
    {"multiply", true, {0, F_DST_COLOR, F_ZERO}, {0, F_ONE, F_ZERO}},
};

void jl_scene_state_default(job_scene_state *s)
{
    memset(s, 0, sizeof *s);
    tv_pipe_rasterizer_default(&s->rast);
    s->rast.multisample = true;
    s->dsa.depth_writemask = true;
    s->dsa.depth_func = 1; /* less, as GL */
    for (int i = 0; i < 8; i++) {
        s->blend.rt[i].rgb_src_factor = s->blend.rt[i].alpha_src_factor = F_ONE;
        s->blend.rt[i].rgb_dst_factor = s->blend.rt[i].alpha_dst_factor = F_ZERO;
        s->blend.rt[i].colormask = 0xf;
    }
    for (int s2 = 0; s2 < 2; s2++) {
        s->dsa.stencil[s2].func = 7;
        s->dsa.stencil[s2].valuemask = s->dsa.stencil[s2].writemask = 0xff;
    }
    s->sample_mask = ~0u;
    s->min_samples = 1;
    for (int i = 0; i < 4; i++)
        s->tess_outer[i] = 1;
    s->tess_inner[0] = s->tess_inner[1] = 1;
}

/* An array of exactly n numbers (each within [lo, hi]). */
static bool numbers(jl *c, const cJSON *o, const char *key, size_t n, double lo, double hi,
                    double *out, bool *present)
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(o, key);
    if (present)
        *present = a != NULL;
    if (!a)
        return true;
    if (!cJSON_IsArray(a) || (size_t)cJSON_GetArraySize(a) != n)
        return jl_fail_at(c, key, TV_JOB_ERR_INVALID, "expected an array of %zu numbers", n);
    size_t k = 0;
    for (const cJSON *x = a->child; x; x = x->next, k++) {
        if (!cJSON_IsNumber(x) || !(x->valuedouble >= lo && x->valuedouble <= hi))
            return jl_fail_at(c, key, TV_JOB_ERR_INVALID, "element %zu: expected a number in "
                              "[%g, %g]", k, lo, hi);
        out[k] = x->valuedouble;
    }
    return true;
}

static bool stencil_side(jl *c, const cJSON *o, tv_pipe_stencil_state *s, uint8_t *ref)
{
    static const char *const keys[] = {"func", "ref", "mask", "write_mask", "fail",
                                       "depth_fail", "pass", NULL};
    int func, fail, zfail, pass;
    uint32_t r, m, wm;
    if (!jl_object(c, o, keys) ||
        !jl_get_enum(c, o, "func", func_names, NULL, 7, &func) ||
        !jl_get_uint(c, o, "ref", false, *ref, 0, 255, &r) ||
        !jl_get_uint(c, o, "mask", false, 255, 0, 255, &m) ||
        !jl_get_uint(c, o, "write_mask", false, 255, 0, 255, &wm) ||
        !jl_get_enum(c, o, "fail", stencil_op_names, NULL, 0, &fail) ||
        !jl_get_enum(c, o, "depth_fail", stencil_op_names, NULL, 0, &zfail) ||
        !jl_get_enum(c, o, "pass", stencil_op_names, NULL, 0, &pass))
        return false;
    s->enabled = true;
    s->func = (uint8_t)func;
    s->fail_op = (uint8_t)fail;
    s->zfail_op = (uint8_t)zfail;
    s->zpass_op = (uint8_t)pass;
    s->valuemask = (uint8_t)m;
    s->writemask = (uint8_t)wm;
    *ref = (uint8_t)r;
    return true;
}

/* One blend: a preset name or {"rgb": [eq, src, dst], "alpha": [eq, src, dst]}. */
static bool blend_one(jl *c, const cJSON *v, tv_pipe_rt_blend *rt)
{
    if (cJSON_IsString(v)) {
        for (size_t i = 0; i < sizeof presets / sizeof presets[0]; i++)
            if (!strcasecmp(v->valuestring, presets[i].name)) {
                rt->blend_enable = presets[i].enable;
                rt->rgb_func = presets[i].f[0];
                rt->rgb_src_factor = presets[i].f[1];
                rt->rgb_dst_factor = presets[i].f[2];
                rt->alpha_func = presets[i].fa[0];
                rt->alpha_src_factor = presets[i].fa[1];
                rt->alpha_dst_factor = presets[i].fa[2];
                return true;
            }
        return jl_fail(c, TV_JOB_ERR_INVALID, "unknown blend \"%s\" (off, alpha, premultiplied, "
                       "additive, multiply, or {\"rgb\": [equation, src, dst], \"alpha\": "
                       "[...]})", v->valuestring);
    }
    static const char *const keys[] = {"rgb", "alpha", NULL};
    if (!jl_object(c, v, keys))
        return false;
    uint8_t *dst[2][3] = {{&rt->rgb_func, &rt->rgb_src_factor, &rt->rgb_dst_factor},
                          {&rt->alpha_func, &rt->alpha_src_factor, &rt->alpha_dst_factor}};
    for (int k = 0; k < 2; k++) {
        const cJSON *a = cJSON_GetObjectItemCaseSensitive(v, keys[k]);
        if (!a) {
            if (k == 1) { /* alpha as rgb */
                rt->alpha_func = rt->rgb_func;
                rt->alpha_src_factor = rt->rgb_src_factor;
                rt->alpha_dst_factor = rt->rgb_dst_factor;
                continue;
            }
            return jl_fail_at(c, "rgb", TV_JOB_ERR_INVALID, "required key is missing");
        }
        size_t m = jl_push_key(c, keys[k]);
        if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) != 3)
            return jl_fail(c, TV_JOB_ERR_INVALID, "expected [equation, src_factor, dst_factor]");
        int val[3];
        const cJSON *x = a->child;
        for (int i = 0; i < 3; i++, x = x->next) {
            const char *const *names = i ? factor_names : equation_names;
            const int *values = i ? factor_values : NULL;
            int found = -1;
            for (int n = 0; cJSON_IsString(x) && names[n]; n++)
                if (!strcasecmp(x->valuestring, names[n]))
                    found = values ? values[n] : n;
            if (found < 0) {
                jl_push_index(c, (size_t)i);
                return jl_fail(c, TV_JOB_ERR_INVALID, "expected %s name",
                               i ? "a blend factor" : "a blend equation");
            }
            val[i] = found;
        }
        for (int i = 0; i < 3; i++)
            *dst[k][i] = (uint8_t)val[i];
        jl_pop(c, m);
    }
    rt->blend_enable = true;
    return true;
}

/* "color_mask": the channels every colour attachment writes. */
static bool color_mask(jl *c, const cJSON *o, tv_pipe_blend_state *b)
{
    const char *s;
    if (!jl_get_string(c, o, "color_mask", false, &s))
        return false;
    if (!s)
        return true;
    uint8_t m = 0;
    for (const char *p = s; *p; p++) {
        const char *at = strchr("rgba", *p);
        if (!at)
            return jl_fail_at(c, "color_mask", TV_JOB_ERR_INVALID,
                              "expected letters of \"rgba\", got \"%s\"", s);
        m |= (uint8_t)(1u << (at - "rgba"));
    }
    for (int i = 0; i < 8; i++)
        b->rt[i].colormask = m;
    return true;
}

bool jl_scene_state(jl *c, const cJSON *o, job_scene_state *s)
{
    static const char *const keys[] = {
        "depth", "depth_write", "depth_clamp", "cull", "front_face", "fill", "polygon_offset",
        "line_width", "point_size", "scissor", "multisample", "flatshade", "provoking",
        "blend", "color_mask", "blend_color", "alpha_to_coverage", "alpha_to_one", "logic_op",
        "stencil", "stencil_back", "alpha_test", "sample_mask", "min_samples", "clip_enable",
        "tess_levels", NULL};
    static const char *const ccw_names[] = {"ccw", "cw", NULL};
    static const char *const prov_names[] = {"last", "first", NULL};
    if (!jl_object(c, o, keys))
        return false;
    int v;
    /* depth */
    if (!jl_get_enum(c, o, "depth", depth_names, NULL, s->dsa.depth_enabled ? s->dsa.depth_func : 8,
                     &v))
        return false;
    s->dsa.depth_enabled = v != 8;
    if (v != 8)
        s->dsa.depth_func = (uint8_t)v;
    if (!jl_get_bool(c, o, "depth_write", s->dsa.depth_writemask, &s->dsa.depth_writemask) ||
        !jl_get_bool(c, o, "depth_clamp", s->rast.depth_clamp, &s->rast.depth_clamp))
        return false;
    s->rast.depth_clip_near = s->rast.depth_clip_far = !s->rast.depth_clamp;
    /* rasterizer */
    if (!jl_get_enum(c, o, "cull", face_names, NULL, s->rast.cull_face, &v))
        return false;
    s->rast.cull_face = (uint8_t)v;
    if (!jl_get_enum(c, o, "front_face", ccw_names, NULL, s->rast.front_ccw ? 0 : 1, &v))
        return false;
    s->rast.front_ccw = v == 0;
    if (!jl_get_enum(c, o, "fill", fill_names, NULL, s->rast.fill_front, &v))
        return false;
    s->rast.fill_front = s->rast.fill_back = (uint8_t)v;
    double po[2];
    bool has;
    if (!numbers(c, o, "polygon_offset", 2, -1e6, 1e6, po, &has))
        return false;
    if (has) {
        s->rast.offset_tri = po[0] != 0 || po[1] != 0;
        s->rast.offset_scale = (float)po[0];
        s->rast.offset_units = (float)po[1];
    }
    double d;
    if (!jl_get_double(c, o, "line_width", false, s->rast.line_width, 0.0, 1024.0, &d))
        return false;
    s->rast.line_width = (float)d;
    if (!jl_get_double(c, o, "point_size", false, s->rast.point_size, 0.0, 1024.0, &d))
        return false;
    s->rast.point_size = (float)d;
    double sc[4];
    if (!numbers(c, o, "scissor", 4, 0, 16384, sc, &has))
        return false;
    if (has) {
        s->has_scissor = true;
        for (int i = 0; i < 4; i++)
            s->scissor[i] = (uint32_t)sc[i];
    }
    if (!jl_get_bool(c, o, "multisample", s->rast.multisample, &s->rast.multisample) ||
        !jl_get_bool(c, o, "flatshade", s->rast.flatshade, &s->rast.flatshade) ||
        !jl_get_enum(c, o, "provoking", prov_names, NULL, s->rast.flatshade_first, &v))
        return false;
    s->rast.flatshade_first = v == 1;
    uint32_t u;
    if (!jl_get_uint(c, o, "clip_enable", false, s->rast.clip_plane_enable, 0, 255, &u))
        return false;
    s->rast.clip_plane_enable = (uint8_t)u;
    /* blend */
    const cJSON *b = cJSON_GetObjectItemCaseSensitive(o, "blend");
    if (b) {
        size_t m = jl_push_key(c, "blend");
        if (cJSON_IsArray(b)) {
            int n = cJSON_GetArraySize(b);
            if (n < 1 || n > 8)
                return jl_fail(c, TV_JOB_ERR_INVALID, "expected 1 to 8 blends, one per target");
            int i = 0;
            for (const cJSON *x = b->child; x; x = x->next, i++) {
                size_t m2 = jl_push_index(c, (size_t)i);
                if (!blend_one(c, x, &s->blend.rt[i]))
                    return false;
                jl_pop(c, m2);
            }
            s->blend.independent_blend_enable = true;
        } else {
            /* one blend for every target; each keeps its colour mask */
            tv_pipe_rt_blend one = s->blend.rt[0];
            if (!blend_one(c, b, &one))
                return false;
            for (int i = 0; i < 8; i++) {
                one.colormask = s->blend.rt[i].colormask;
                s->blend.rt[i] = one;
            }
        }
        jl_pop(c, m);
    }
    if (!color_mask(c, o, &s->blend))
        return false;
    double bc[4];
    if (!numbers(c, o, "blend_color", 4, -1e30, 1e30, bc, &has))
        return false;
    if (has)
        for (int i = 0; i < 4; i++)
            s->blend_color[i] = (float)bc[i];
    if (!jl_get_bool(c, o, "alpha_to_coverage", s->blend.alpha_to_coverage,
                     &s->blend.alpha_to_coverage) ||
        !jl_get_bool(c, o, "alpha_to_one", s->blend.alpha_to_one, &s->blend.alpha_to_one))
        return false;
    if (!jl_get_enum(c, o, "logic_op", logicop_names, NULL,
                     s->blend.logicop_enable ? s->blend.logicop_func : 16, &v))
        return false;
    s->blend.logicop_enable = v != 16; /* "off" */
    s->blend.logicop_func = (uint8_t)(v & 15);
    /* stencil (front, and back when given separately) */
    const cJSON *st = cJSON_GetObjectItemCaseSensitive(o, "stencil");
    if (st) {
        size_t m = jl_push_key(c, "stencil");
        if (cJSON_IsString(st) && !strcasecmp(st->valuestring, "off")) {
            s->dsa.stencil[0].enabled = s->dsa.stencil[1].enabled = false;
        } else {
            if (!stencil_side(c, st, &s->dsa.stencil[0], &s->stencil_ref[0]))
                return false;
            s->dsa.stencil[1] = s->dsa.stencil[0];
            s->stencil_ref[1] = s->stencil_ref[0];
        }
        jl_pop(c, m);
    }
    const cJSON *sb = cJSON_GetObjectItemCaseSensitive(o, "stencil_back");
    if (sb) {
        size_t m = jl_push_key(c, "stencil_back");
        if (!s->dsa.stencil[0].enabled)
            return jl_fail(c, TV_JOB_ERR_INVALID, "give \"stencil\" (the front faces') first");
        if (!stencil_side(c, sb, &s->dsa.stencil[1], &s->stencil_ref[1]))
            return false;
        jl_pop(c, m);
    }
    const cJSON *at = cJSON_GetObjectItemCaseSensitive(o, "alpha_test");
    if (at) {
        static const char *const akeys[] = {"func", "ref", NULL};
        size_t m = jl_push_key(c, "alpha_test");
        if (cJSON_IsString(at) && !strcasecmp(at->valuestring, "off")) {
            s->dsa.alpha_enabled = false;
        } else {
            if (!jl_object(c, at, akeys) ||
                !jl_get_enum(c, at, "func", func_names, NULL, 7, &v) ||
                !jl_get_double(c, at, "ref", false, 0.0, -1e30, 1e30, &d))
                return false;
            s->dsa.alpha_enabled = true;
            s->dsa.alpha_func = (uint8_t)v;
            s->dsa.alpha_ref = (float)d;
        }
        jl_pop(c, m);
    }
    if (!jl_get_uint(c, o, "sample_mask", false, s->sample_mask, 0, UINT32_MAX, &s->sample_mask) ||
        !jl_get_uint(c, o, "min_samples", false, s->min_samples, 1, 16, &s->min_samples))
        return false;
    const cJSON *tl = cJSON_GetObjectItemCaseSensitive(o, "tess_levels");
    if (tl) {
        static const char *const tkeys[] = {"outer", "inner", NULL};
        size_t m = jl_push_key(c, "tess_levels");
        double outer[4], inner[2];
        bool ho, hi;
        if (!jl_object(c, tl, tkeys) || !numbers(c, tl, "outer", 4, 0, 64, outer, &ho) ||
            !numbers(c, tl, "inner", 2, 0, 64, inner, &hi))
            return false;
        for (int i = 0; ho && i < 4; i++)
            s->tess_outer[i] = (float)outer[i];
        for (int i = 0; hi && i < 2; i++)
            s->tess_inner[i] = (float)inner[i];
        jl_pop(c, m);
    }
    return true;
}

/* ---- constants: rows of vec4s and matrices ------------------------------------------------ */

/* One matrix: a list of operations multiplied left to right (the first is outermost, as
 * in P * V * M). */
static bool matrix_ops(jl *c, const cJSON *a, double m[16])
{
    static const char *const keys[] = {"perspective", "ortho", "look_at", "translate",
                                       "rotate", "scale", "rows", NULL};
    if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) < 1)
        return jl_fail(c, TV_JOB_ERR_INVALID, "expected a non-empty array of operations");
    job_mat_identity(m);
    size_t i = 0;
    for (const cJSON *op = a->child; op; op = op->next, i++) {
        size_t mk = jl_push_index(c, i);
        if (!jl_object(c, op, keys))
            return false;
        if (!op->child || op->child->next)
            return jl_fail(c, TV_JOB_ERR_INVALID, "expected one operation per object");
        const char *name = op->child->string;
        double t[16], v[16];
        bool ok = true;
        if (!strcmp(name, "perspective")) {
            static const char *const pk[] = {"fovy", "aspect", "near", "far", NULL};
            size_t m2 = jl_push_key(c, name);
            double f, asp, n, fa;
            if (!jl_object(c, op->child, pk) ||
                !jl_get_double(c, op->child, "fovy", true, 0, 1e-3, 179.999, &f) ||
                !jl_get_double(c, op->child, "aspect", true, 0, 1e-6, 1e6, &asp) ||
                !jl_get_double(c, op->child, "near", true, 0, 1e-9, 1e9, &n) ||
                !jl_get_double(c, op->child, "far", true, 0, 1e-9, 1e9, &fa))
                return false;
            if (!(fa > n))
                return jl_fail_at(c, "far", TV_JOB_ERR_INVALID, "far must be beyond near");
            job_mat_perspective(f, asp, n, fa, t);
            jl_pop(c, m2);
        } else if (!strcmp(name, "ortho")) {
            if (!numbers(c, op, "ortho", 6, -1e9, 1e9, v, NULL))
                return false;
            if (v[0] == v[1] || v[2] == v[3] || v[4] == v[5])
                return jl_fail_at(c, "ortho", TV_JOB_ERR_INVALID,
                                  "[left, right, bottom, top, near, far] with no empty range");
            job_mat_ortho(v, t);
        } else if (!strcmp(name, "look_at")) {
            static const char *const lk[] = {"eye", "at", "up", NULL};
            size_t m2 = jl_push_key(c, name);
            double eye[3], at[3], up[3] = {0, 1, 0};
            if (!jl_object(c, op->child, lk) || !numbers(c, op->child, "eye", 3, -1e9, 1e9, eye, NULL) ||
                !numbers(c, op->child, "at", 3, -1e9, 1e9, at, NULL) ||
                !numbers(c, op->child, "up", 3, -1e9, 1e9, up, NULL))
                return false;
            if (!cJSON_GetObjectItemCaseSensitive(op->child, "eye") ||
                !cJSON_GetObjectItemCaseSensitive(op->child, "at"))
                return jl_fail(c, TV_JOB_ERR_INVALID, "give \"eye\" and \"at\"");
            ok = job_mat_look_at(eye, at, up, t);
            if (!ok)
                return jl_fail(c, TV_JOB_ERR_INVALID,
                               "eye equals at, or up is parallel to the view direction");
            jl_pop(c, m2);
        } else if (!strcmp(name, "translate") || !strcmp(name, "scale")) {
            if (!numbers(c, op, name, 3, -1e9, 1e9, v, NULL))
                return false;
            if (name[0] == 't')
                job_mat_translate(v, t);
            else
                job_mat_scale(v, t);
        } else if (!strcmp(name, "rotate")) {
            if (!numbers(c, op, name, 4, -1e9, 1e9, v, NULL))
                return false;
            if (!job_mat_rotate(v[0], v + 1, t))
                return jl_fail_at(c, "rotate", TV_JOB_ERR_INVALID,
                                  "[degrees, x, y, z] with a non-zero axis");
        } else { /* rows */
            if (!numbers(c, op, "rows", 16, -1e30, 1e30, t, NULL))
                return false;
        }
        job_mat_mul(m, t, m);
        jl_pop(c, mk);
    }
    return true;
}

static void put_float(uint32_t *w, double d)
{
    float f = (float)d;
    memcpy(w, &f, 4);
}

/* "values": a list whose items are vec4s (1 to 4 numbers, padded with 0) or
 * {"matrix": [...]} (4 rows), {"normal_matrix": [...]} (the inverse transpose: 4 rows). */
bool jl_scene_rows(jl *c, const cJSON *a, uint32_t **words, size_t *count)
{
    if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) < 1 || cJSON_GetArraySize(a) > 4096)
        return jl_fail(c, TV_JOB_ERR_INVALID, "expected 1 to 4096 rows");
    size_t rows = 0;
    for (const cJSON *x = a->child; x; x = x->next)
        rows += cJSON_IsObject(x) ? 4 : 1;
    uint32_t *w = calloc(rows * 4, sizeof *w);
    if (!w)
        return jl_fail(c, TV_JOB_ERR_INVALID, "out of memory");
    *words = w;
    *count = rows * 4;
    size_t i = 0;
    for (const cJSON *x = a->child; x; x = x->next, i++) {
        size_t m = jl_push_index(c, i);
        if (cJSON_IsObject(x)) {
            static const char *const keys[] = {"matrix", "normal_matrix", NULL};
            if (!jl_object(c, x, keys))
                return false;
            if (!x->child || x->child->next)
                return jl_fail(c, TV_JOB_ERR_INVALID, "give one of \"matrix\" and \"normal_matrix\"");
            double mat[16];
            size_t m2 = jl_push_key(c, x->child->string);
            if (!matrix_ops(c, x->child, mat))
                return false;
            jl_pop(c, m2);
            if (!strcmp(x->child->string, "normal_matrix")) {
                double inv[16], tr[16];
                if (!job_mat_inverse(mat, inv))
                    return jl_fail_at(c, "normal_matrix", TV_JOB_ERR_INVALID,
                                      "the matrix is singular");
                for (int r = 0; r < 4; r++)
                    for (int k = 0; k < 4; k++)
                        tr[r * 4 + k] = inv[k * 4 + r];
                memcpy(mat, tr, sizeof mat);
            }
            for (int k = 0; k < 16; k++)
                put_float(w + k, mat[k]);
            w += 16;
        } else if (cJSON_IsArray(x) && cJSON_GetArraySize(x) >= 1 && cJSON_GetArraySize(x) <= 4) {
            int k = 0;
            for (const cJSON *y = x->child; y; y = y->next, k++) {
                if (!cJSON_IsNumber(y))
                    return jl_fail(c, TV_JOB_ERR_INVALID, "expected numbers");
                put_float(w + k, y->valuedouble);
            }
            w += 4;
        } else {
            return jl_fail(c, TV_JOB_ERR_INVALID, "expected a row [x, y, z, w] or {\"matrix\": "
                           "[...]}, got %s", jl_kind(x));
        }
        jl_pop(c, m);
    }
    return true;
}
