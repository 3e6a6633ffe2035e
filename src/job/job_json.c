/* Job loader: JSON walking with key paths and typed getters. */
#include "job_internal.h"
#include "texvm/job.h"
#include "job_suggest.h"
#include "job_limits.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

size_t jl_push_key(jl *c, const char *key)
{
    size_t mark = c->path_len;
    int n = snprintf(c->path + c->path_len, sizeof c->path - c->path_len, "%s%s",
                     c->path_len ? "." : "", key);
    if (n > 0)
        c->path_len += (size_t)n < sizeof c->path - c->path_len ? (size_t)n
                                                                  : sizeof c->path - c->path_len - 1;
    return mark;
}

size_t jl_push_index(jl *c, size_t index)
{
    size_t mark = c->path_len;
    int n = snprintf(c->path + c->path_len, sizeof c->path - c->path_len, "[%zu]", index);
    if (n > 0)
        c->path_len += (size_t)n < sizeof c->path - c->path_len ? (size_t)n
                                                                  : sizeof c->path - c->path_len - 1;
    return mark;
}

void jl_pop(jl *c, size_t mark)
{
    c->path_len = mark;
    c->path[mark] = '\0';
}

static bool vfail(jl *c, tv_job_errclass cls, const char *fmt, va_list ap)
{
    char msg[512];
    vsnprintf(msg, sizeof msg, fmt, ap);
    if (c->err) {
        c->err->cls = cls;
        /* a long file name is shortened in the middle, so the reason always fits */
        char sb[TV_SHORT_PATH];
        const char *file = tv_short_path(c->file, sb);
        int n = c->path_len ? snprintf(c->err->message, sizeof c->err->message,
                                       "%s: at key \"%.300s\": ", file, c->path)
                            : snprintf(c->err->message, sizeof c->err->message, "%s: ", file);
        if (n > 0 && (size_t)n < sizeof c->err->message)
            snprintf(c->err->message + n, sizeof c->err->message - (size_t)n, "%s", msg);
    }
    return false;
}

bool jl_fail(jl *c, tv_job_errclass cls, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(c, cls, fmt, ap);
    va_end(ap);
    return false;
}

bool jl_fail_at(jl *c, const char *key, tv_job_errclass cls, const char *fmt, ...)
{
    size_t m = jl_push_key(c, key);
    va_list ap;
    va_start(ap, fmt);
    vfail(c, cls, fmt, ap);
    va_end(ap);
    jl_pop(c, m);
    return false;
}

const char *jl_kind(const cJSON *v)
{
    if (!v)
        return "nothing";
    if (cJSON_IsNumber(v))
        return "a number";
    if (cJSON_IsString(v))
        return "a string";
    if (cJSON_IsBool(v))
        return "a boolean";
    if (cJSON_IsNull(v))
        return "null";
    if (cJSON_IsArray(v))
        return "an array";
    if (cJSON_IsObject(v))
        return "an object";
    return "an invalid value";
}

bool jl_object(jl *c, const cJSON *obj, const char *const *allowed)
{
    if (!cJSON_IsObject(obj))
        return jl_fail(c, TV_JOB_ERR_INVALID, "expected an object, got %s", jl_kind(obj));
    for (const cJSON *k = obj->child; k; k = k->next) {
        bool ok = false;
        for (size_t i = 0; allowed[i]; i++)
            if (!strcmp(allowed[i], k->string))
                ok = true;
        if (!ok) {
            char list[400] = "";
            size_t n = 0;
            for (size_t i = 0; allowed[i] && n < sizeof list - 1; i++) {
                int w = snprintf(list + n, sizeof list - n, "%s%s", i ? ", " : "", allowed[i]);
                if (w < 0)
                    break;
                n += (size_t)w;
            }
            return jl_fail_at(c, k->string, TV_JOB_ERR_INVALID, "unknown key (allowed: %s)",
                              list);
        }
        for (const cJSON *d = obj->child; d != k; d = d->next)
            if (!strcmp(d->string, k->string))
                return jl_fail_at(c, k->string, TV_JOB_ERR_INVALID, "duplicate key");
    }
    return true;
}

bool jl_each(jl *c, const cJSON *root, const char *key, void **arr, size_t elem_size,
             size_t *count, jl_elem_fn fn)
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(root, key);
    if (!a)
        return true;
    size_t m0 = jl_push_key(c, key);
    if (!cJSON_IsArray(a))
        return jl_fail(c, TV_JOB_ERR_INVALID, "expected an array, got %s", jl_kind(a));
    size_t n = (size_t)cJSON_GetArraySize(a);
    *arr = calloc(n ? n : 1, elem_size);
    if (!*arr)
        return jl_fail(c, TV_JOB_ERR_INVALID, "out of memory");
    size_t i = 0;
    for (const cJSON *e = a->child; e; e = e->next, i++) {
        size_t m = jl_push_index(c, i);
        *count = i + 1;
        if (!fn(c, e, i))
            return false;
        jl_pop(c, m);
    }
    jl_pop(c, m0);
    return true;
}

static const cJSON *get(const cJSON *obj, const char *key)
{
    return cJSON_GetObjectItemCaseSensitive(obj, key);
}

static bool missing(jl *c, const char *key)
{
    return jl_fail_at(c, key, TV_JOB_ERR_INVALID, "required key is missing");
}

static bool number_of(jl *c, const char *key, const cJSON *v, double *d)
{
    if (!cJSON_IsNumber(v))
        return jl_fail_at(c, key, TV_JOB_ERR_INVALID, "expected a number, got %s", jl_kind(v));
    *d = v->valuedouble;
    return true;
}

static bool integral(jl *c, const char *key, double d, double min, double max)
{
    if (d != floor(d))
        return jl_fail_at(c, key, TV_JOB_ERR_INVALID, "expected an integer, got %.17g", d);
    if (d < min || d > max)
        return jl_fail_at(c, key, TV_JOB_ERR_INVALID, "value %.17g out of range [%.17g, %.17g]",
                          d, min, max);
    return true;
}

/* KEY as an integer in [min, max]. *found says whether the key is there; an absent key is
 * an error only when required. */
static bool get_integer(jl *c, const cJSON *obj, const char *key, bool required, double min,
                        double max, bool *found, double *d)
{
    const cJSON *v = get(obj, key);
    *found = v != NULL;
    if (!v)
        return required ? missing(c, key) : true;
    return number_of(c, key, v, d) && integral(c, key, *d, min, max);
}

bool jl_get_uint(jl *c, const cJSON *obj, const char *key, bool required, uint32_t def,
                 uint32_t min, uint32_t max, uint32_t *out)
{
    bool found;
    double d = 0;
    bool ok = get_integer(c, obj, key, required, min, max, &found, &d);
    if (!found)
        *out = def;
    else if (ok)
        *out = (uint32_t)d;
    return ok;
}

bool jl_get_int(jl *c, const cJSON *obj, const char *key, bool required, int32_t def,
                int32_t min, int32_t max, int32_t *out)
{
    bool found;
    double d = 0;
    bool ok = get_integer(c, obj, key, required, min, max, &found, &d);
    if (!found)
        *out = def;
    else if (ok)
        *out = (int32_t)d;
    return ok;
}

bool jl_get_u64(jl *c, const cJSON *obj, const char *key, bool required, uint64_t def,
                uint64_t *out)
{
    const cJSON *v = get(obj, key);
    if (!v) {
        *out = def;
        return required ? missing(c, key) : true;
    }
    if (cJSON_IsString(v)) {
        const char *s = v->valuestring;
        char *end;
        errno = 0;
        unsigned long long x = strtoull(s, &end, 0);
        if (!*s || *end || errno || s[0] == '-')
            return jl_fail_at(c, key, TV_JOB_ERR_INVALID, "expected an unsigned integer, got \"%s\"",
                              s);
        *out = x;
        return true;
    }
    double d = 0;
    if (!number_of(c, key, v, &d) || !integral(c, key, d, 0, 9007199254740992.0))
        return false;
    *out = (uint64_t)d;
    return true;
}

bool jl_get_double(jl *c, const cJSON *obj, const char *key, bool required, double def,
                   double min, double max, double *out)
{
    const cJSON *v = get(obj, key);
    double d = 0;
    if (!v) {
        *out = def;
        return required ? missing(c, key) : true;
    }
    if (!number_of(c, key, v, &d))
        return false;
    if (d < min || d > max)
        return jl_fail_at(c, key, TV_JOB_ERR_INVALID, "value %.17g out of range [%.17g, %.17g]", d,
                          min, max);
    *out = d;
    return true;
}

bool jl_get_bool(jl *c, const cJSON *obj, const char *key, bool def, bool *out)
{
    const cJSON *v = get(obj, key);
    if (!v) {
        *out = def;
        return true;
    }
    if (!cJSON_IsBool(v))
        return jl_fail_at(c, key, TV_JOB_ERR_INVALID, "expected true or false, got %s", jl_kind(v));
    *out = cJSON_IsTrue(v);
    return true;
}

bool jl_get_string(jl *c, const cJSON *obj, const char *key, bool required, const char **out)
{
    const cJSON *v = get(obj, key);
    *out = NULL;
    if (!v)
        return required ? missing(c, key) : true;
    if (!cJSON_IsString(v))
        return jl_fail_at(c, key, TV_JOB_ERR_INVALID, "expected a string, got %s", jl_kind(v));
    *out = v->valuestring;
    return true;
}

bool jl_get_enum(jl *c, const cJSON *obj, const char *key, const char *const *names,
                 const int *values, int def, int *out)
{
    const char *s;
    *out = def;
    if (!jl_get_string(c, obj, key, false, &s))
        return false;
    if (!s)
        return true;
    for (size_t i = 0; names[i]; i++)
        if (!strcasecmp(names[i], s)) {
            *out = values ? values[i] : (int)i;
            return true;
        }
    char list[400] = "";
    size_t n = 0;
    for (size_t i = 0; names[i] && n < sizeof list - 1; i++) {
        int w = snprintf(list + n, sizeof list - n, "%s%s", i ? ", " : "", names[i]);
        if (w < 0)
            break;
        n += (size_t)w;
    }
    return jl_fail_at(c, key, TV_JOB_ERR_INVALID, "unknown value \"%s\" (expected one of: %s)", s,
                      list);
}

bool jl_get_format(jl *c, const cJSON *obj, const char *key, bool required, tv_format *out)
{
    const char *s;
    *out = TV_FORMAT_NONE;
    if (!jl_get_string(c, obj, key, required, &s))
        return false;
    if (!s)
        return true;
    tv_format f = tv_format_from_name(s);
    if (f == TV_FORMAT_NONE)
        f = tv_format_from_pipe_name(s);
    if (f == TV_FORMAT_NONE || !tv_format_get(f)) {
        char near[400];
        const char *sug = job_suggest_format(s, near, sizeof near);
        if (sug)
            return jl_fail_at(c, key, TV_JOB_ERR_INVALID, "unknown format \"%s\" (did you mean %s?)",
                              s, sug);
        return jl_fail_at(c, key, TV_JOB_ERR_INVALID, "unknown format \"%s\"", s);
    }
    *out = f;
    return true;
}

char *jl_resolve(const jl *c, const char *rel)
{
    size_t dl = c->dir ? strlen(c->dir) : 0;
    bool abs = rel[0] == '/' || dl == 0 || (dl == 1 && c->dir[0] == '.');
    size_t n = strlen(rel) + dl + 2;
    char *p = malloc(n);
    if (!p)
        return NULL;
    if (abs)
        snprintf(p, n, "%s", rel);
    else
        snprintf(p, n, "%s/%s", c->dir, rel);
    return p;
}

bool jl_get_path(jl *c, const cJSON *obj, const char *key, bool required, char **out)
{
    const char *s;
    *out = NULL;
    if (!jl_get_string(c, obj, key, required, &s))
        return false;
    if (!s)
        return true;
    if (!*s)
        return jl_fail_at(c, key, TV_JOB_ERR_INVALID, "empty file name");
    *out = jl_resolve(c, s);
    if (!*out)
        return jl_fail_at(c, key, TV_JOB_ERR_INVALID, "out of memory");
    return true;
}

bool jl_get_ref(jl *c, const cJSON *obj, const char *key, bool required, int kind, int *out)
{
    static const char *const kinds[] = {"texture", "buffer", "sampler"};
    const cJSON *v = get(obj, key);
    const job *j = c->job;
    size_t count = kind == JL_REF_TEXTURE ? j->num_textures
                   : kind == JL_REF_BUFFER ? j->num_buffers
                                           : j->num_samplers;
    *out = -1;
    if (!v)
        return required ? missing(c, key) : true;
    if (cJSON_IsNumber(v)) {
        double d = v->valuedouble;
        if (d != floor(d) || d < 0 || d >= (double)count)
            return jl_fail_at(c, key, TV_JOB_ERR_INVALID, "no %s with index %.17g (the job has %zu)",
                              kinds[kind], d, count);
        *out = (int)d;
        return true;
    }
    if (!cJSON_IsString(v))
        return jl_fail_at(c, key, TV_JOB_ERR_INVALID, "expected a %s name or index, got %s",
                          kinds[kind], jl_kind(v));
    int i = kind == JL_REF_TEXTURE ? job_texture_find(j, v->valuestring)
            : kind == JL_REF_BUFFER ? job_buffer_find(j, v->valuestring)
                                    : job_sampler_find(j, v->valuestring);
    if (i < 0)
        return jl_fail_at(c, key, TV_JOB_ERR_INVALID, "unknown %s \"%s\"", kinds[kind],
                          v->valuestring);
    *out = i;
    return true;
}

bool jl_get_type(jl *c, const cJSON *obj, const char *key, int def, int *out)
{
    static const char *const names[] = {"float", "int", "uint", "hex", NULL};
    return jl_get_enum(c, obj, key, names, NULL, def, out);
}

bool jl_word(jl *c, const cJSON *v, int type, uint32_t *out)
{
    char msg[256];
    if (cJSON_IsString(v)) {
        if (!job_word_from_string(v->valuestring, -1, out, msg, sizeof msg))
            return jl_fail(c, TV_JOB_ERR_INVALID, "%s", msg);
        return true;
    }
    if (!cJSON_IsNumber(v))
        return jl_fail(c, TV_JOB_ERR_INVALID, "expected a number or a typed string, got %s",
                       jl_kind(v));
    double d = v->valuedouble;
    switch (type) {
    case JOB_TYPE_INT:
        if (d != floor(d) || d < -2147483648.0 || d > 2147483647.0)
            return jl_fail(c, TV_JOB_ERR_INVALID, "%.17g is not an int32", d);
        {
            int32_t i = (int32_t)d;
            memcpy(out, &i, 4);
        }
        return true;
    case JOB_TYPE_UINT:
    case JOB_TYPE_HEX:
        if (d != floor(d) || d < 0 || d > 4294967295.0)
            return jl_fail(c, TV_JOB_ERR_INVALID, "%.17g is not a uint32", d);
        *out = (uint32_t)d;
        return true;
    default: {
        float f = (float)d;
        memcpy(out, &f, 4);
        return true;
    }
    }
}

/* Append words of `v` (a number, a string or a vector) to a growing list. */
static bool push_words(jl *c, const cJSON *v, int type, int pad, uint32_t **w, size_t *n,
                       size_t *cap, bool vector)
{
    size_t need = *n + 4;
    if (need > *cap) {
        size_t nc = *cap ? *cap * 2 : 64;
        while (nc < need)
            nc *= 2;
        uint32_t *nw = realloc(*w, nc * sizeof **w);
        if (!nw)
            return jl_fail(c, TV_JOB_ERR_INVALID, "out of memory");
        *w = nw;
        *cap = nc;
    }
    if (!vector)
        return jl_word(c, v, type, &(*w)[(*n)++]);
    int len = cJSON_GetArraySize(v);
    if (len < 1 || len > 4)
        return jl_fail(c, TV_JOB_ERR_INVALID, "a vector has 1 to 4 elements, this one has %d", len);
    uint32_t one = 0;
    if (type == JOB_TYPE_FLOAT) {
        float f = 1.0f;
        memcpy(&one, &f, 4);
    } else {
        one = 1;
    }
    uint32_t vec[4] = {0, 0, 0, pad == JL_PAD_VEC4_ONE ? one : 0};
    int k = 0;
    for (const cJSON *e = v->child; e; e = e->next, k++) {
        size_t m = jl_push_index(c, (size_t)k);
        bool ok = jl_word(c, e, type, &vec[k]);
        jl_pop(c, m);
        if (!ok)
            return false;
    }
    memcpy(*w + *n, vec, sizeof vec);
    *n += 4;
    return true;
}

bool jl_words(jl *c, const cJSON *v, int type, int pad, job_words *out)
{
    out->w = NULL;
    out->count = 0;
    if (!cJSON_IsArray(v))
        return jl_fail(c, TV_JOB_ERR_INVALID, "expected an array of values, got %s", jl_kind(v));
    size_t cap = 0, i = 0;
    bool nested = v->child && cJSON_IsArray(v->child);
    for (const cJSON *e = v->child; e; e = e->next, i++) {
        size_t m = jl_push_index(c, i);
        bool vec = cJSON_IsArray(e);
        bool ok;
        if (!nested && pad == JL_PAD_VEC4_ONE) {
            /* one scalar per item: [x] -> (x, 0, 0, 1) */
            cJSON one = *e;
            cJSON arr = {0};
            one.next = one.prev = NULL;
            arr.type = cJSON_Array;
            arr.child = &one;
            ok = push_words(c, &arr, type, pad, &out->w, &out->count, &cap, true);
        } else if (vec != nested)
            ok = jl_fail(c, TV_JOB_ERR_INVALID,
                         "mixes vectors and single values (use all [..] or none)");
        else
            ok = push_words(c, e, type, pad, &out->w, &out->count, &cap, vec);
        jl_pop(c, m);
        if (!ok) {
            free(out->w);
            out->w = NULL;
            out->count = 0;
            return false;
        }
    }
    /* Flat lists for vec4 consumers: pad to a whole vector. */
    if (!nested && pad != JL_PAD_FLAT && out->count % 4) {
        uint32_t one = 0;
        float f = 1.0f;
        memcpy(&one, &f, 4);
        size_t base = out->count - out->count % 4;
        uint32_t vec[4] = {0, 0, 0, pad == JL_PAD_VEC4_ONE ? (type == JOB_TYPE_FLOAT ? one : 1) : 0};
        for (size_t k = base; k < out->count; k++)
            vec[k - base] = out->w[k];
        if (base + 4 > cap) {
            uint32_t *nw = realloc(out->w, (base + 4) * sizeof *nw);
            if (!nw) {
                free(out->w);
                out->w = NULL;
                return jl_fail(c, TV_JOB_ERR_INVALID, "out of memory");
            }
            out->w = nw;
        }
        memcpy(out->w + base, vec, sizeof vec);
        out->count = base + 4;
    }
    return true;
}

bool jl_get_words(jl *c, const cJSON *obj, const char *key, bool required, int type, int pad,
                  job_words *out)
{
    const cJSON *v = get(obj, key);
    out->w = NULL;
    out->count = 0;
    if (!v)
        return required ? missing(c, key) : true;
    size_t m = jl_push_key(c, key);
    bool ok = jl_words(c, v, type, pad, out);
    jl_pop(c, m);
    return ok;
}

bool jl_get_vec4(jl *c, const cJSON *obj, const char *key, int type, bool pad_one,
                 const uint32_t def[4], uint32_t out[4])
{
    const cJSON *v = get(obj, key);
    memcpy(out, def, 4 * sizeof *out);
    if (!v)
        return true;
    size_t m = jl_push_key(c, key);
    bool ok = true;
    if (cJSON_IsNumber(v) || cJSON_IsString(v)) {
        ok = jl_word(c, v, type, &out[0]); /* a single value: replicated */
        out[1] = out[2] = out[3] = out[0];
    } else if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) < 1 || cJSON_GetArraySize(v) > 4) {
        ok = jl_fail(c, TV_JOB_ERR_INVALID, "expected a vector of 1 to 4 values, got %s",
                     jl_kind(v));
    } else {
        uint32_t one = 1;
        if (type == JOB_TYPE_FLOAT) {
            float f = 1.0f;
            memcpy(&one, &f, 4);
        }
        uint32_t vec[4] = {0, 0, 0, pad_one ? one : 0};
        int k = 0;
        for (const cJSON *e = v->child; e && ok; e = e->next, k++) {
            size_t m2 = jl_push_index(c, (size_t)k);
            ok = jl_word(c, e, type, &vec[k]);
            jl_pop(c, m2);
        }
        if (ok)
            memcpy(out, vec, sizeof vec);
    }
    jl_pop(c, m);
    return ok;
}

bool jl_read_file(jl *c, const char *path, uint8_t **data, size_t *size)
{
    /* only regular files, at most the job memory limit: a job naming /dev/zero or a FIFO
     * must not block or read forever (docs/limits.md; job_file.c) */
    char why[160], sb[TV_SHORT_PATH];
    int rc = tv_file_read(path, false, job_max_memory(), data, size, why, sizeof why);
    if (rc == TV_EXIT_IO)
        return jl_fail(c, TV_JOB_ERR_IO, "cannot read \"%s\": %s", tv_short_path(path, sb), why);
    if (rc)
        return jl_fail(c, TV_JOB_ERR_INVALID, "\"%s\" %s (--max-job-memory)",
                       tv_short_path(path, sb), why);
    return true;
}

bool jl_payload(jl *c, const cJSON *obj, uint8_t **data, size_t *size, size_t round_to)
{
    int type;
    char *path = NULL;
    job_words words = {0};
    uint64_t want = 0;
    uint32_t fill = 0;
    *data = NULL;
    *size = 0;
    /* the real limit of a payload (1 GiB), not the 2^53 of any JSON integer */
    const cJSON *sz = get(obj, "size");
    if (sz && cJSON_IsNumber(sz) && sz->valuedouble > (double)((uint64_t)1 << 30))
        return jl_fail_at(c, "size", TV_JOB_ERR_INVALID, "size %.17g is larger than 1 GiB",
                          sz->valuedouble);
    if (!jl_get_type(c, obj, "type", JOB_TYPE_FLOAT, &type) ||
        !jl_get_path(c, obj, "file", false, &path) ||
        !jl_get_words(c, obj, "values", false, type, JL_PAD_FLAT, &words) ||
        !jl_get_u64(c, obj, "size", false, 0, &want))
        goto fail;
    const cJSON *fv = get(obj, "fill");
    if (fv) {
        size_t m = jl_push_key(c, "fill");
        bool ok = jl_word(c, fv, type, &fill);
        jl_pop(c, m);
        if (!ok)
            goto fail;
    }
    if (path && words.w) {
        jl_fail(c, TV_JOB_ERR_INVALID, "give \"values\" or \"file\", not both");
        goto fail;
    }
    uint8_t *src = NULL;
    size_t n = 0;
    if (path) {
        if (!jl_read_file(c, path, &src, &n))
            goto fail;
    } else if (words.w) {
        src = (uint8_t *)words.w;
        n = words.count * 4;
        words.w = NULL;
    }
    size_t total = want ? (size_t)want : (round_to ? (n + round_to - 1) / round_to * round_to : n);
    if (want > ((uint64_t)1 << 30)) {
        free(src);
        jl_fail_at(c, "size", TV_JOB_ERR_INVALID, "size %llu is larger than 1 GiB",
                   (unsigned long long)want);
        goto fail;
    }
    if (!want && !path && !fv && !cJSON_GetObjectItemCaseSensitive(obj, "values")) {
        free(src);
        jl_fail(c, TV_JOB_ERR_INVALID, "give \"values\", \"file\" or \"size\"");
        goto fail;
    }
    if (total == 0)
        total = 4;
    if (!jl_reserve(c, total)) {
        free(src);
        goto fail;
    }
    uint8_t *buf = malloc(total);
    if (!buf) {
        free(src);
        jl_fail(c, TV_JOB_ERR_INVALID, "out of memory (%zu bytes)", total);
        goto fail;
    }
    for (size_t i = 0; i < total; i++)
        buf[i] = (uint8_t)(fill >> (8 * (i & 3)));
    if (src && n)
        memcpy(buf, src, n < total ? n : total);
    free(src);
    free(path);
    *data = buf;
    *size = total;
    return true;
fail:
    free(path);
    free(words.w);
    return false;
}
