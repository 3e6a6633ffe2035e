/* Internal helpers of the job loader: a JSON walking context that knows the key path of
 * the value it looks at, so every message can say `file: at key "a.b[2].c": ...`. */
#ifndef TEXVM_SRC_JOB_JOB_INTERNAL_H
#define TEXVM_SRC_JOB_JOB_INTERNAL_H

#include "job.h"

#include <cJSON.h>

typedef struct jl {
    job *job;
    const char *file;        /* for messages */
    const char *dir;         /* base of relative paths */
    tv_job_error *err;
    char path[512];
    size_t path_len;
    uint64_t reserved;       /* bytes counted against the job memory limit (job_limits.h) */
} jl;

#if defined(__GNUC__)
#define JL_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define JL_PRINTF(a, b)
#endif

/* Path stack: push returns a mark to pop back to. */
size_t jl_push_key(jl *c, const char *key);
size_t jl_push_index(jl *c, size_t index);
void jl_pop(jl *c, size_t mark);

/* Record an error at the current path; always returns false. */
bool jl_fail(jl *c, tv_job_errclass cls, const char *fmt, ...) JL_PRINTF(3, 4);
/* Same at path + "." + key (for a key of the current object). */
bool jl_fail_at(jl *c, const char *key, tv_job_errclass cls, const char *fmt, ...) JL_PRINTF(4, 5);

/* Check that `obj` is an object whose keys are all in the NULL-terminated `allowed`. */
bool jl_object(jl *c, const cJSON *obj, const char *const *allowed);
/* What a JSON value is, for messages ("a string", "an array", …). */
const char *jl_kind(const cJSON *v);
/* The optional array root[key]: allocate *arr (one zeroed element of elem_size per array
 * element), then run fn on each element with the path set. *count is the number of elements
 * reached, the failing one included, so that tv_job_free frees what was loaded. */
typedef bool (*jl_elem_fn)(jl *c, const cJSON *e, size_t i);
bool jl_each(jl *c, const cJSON *root, const char *key, void **arr, size_t elem_size,
             size_t *count, jl_elem_fn fn);

/* d is an integer in [0, max] (max <= 2^32 - 1): range first, so no out-of-range
 * float-to-integer conversion (undefined behaviour) can happen; NaN fails. */
bool jl_is_uint_in(double d, double max);

/* Getters of key `key` of object `obj`. Absent keys leave *out at the default given in
 * `def` and return true unless `required`. */
bool jl_get_uint(jl *c, const cJSON *obj, const char *key, bool required, uint32_t def,
                 uint32_t min, uint32_t max, uint32_t *out);
bool jl_get_int(jl *c, const cJSON *obj, const char *key, bool required, int32_t def,
                int32_t min, int32_t max, int32_t *out);
bool jl_get_u64(jl *c, const cJSON *obj, const char *key, bool required, uint64_t def,
                uint64_t *out);  /* number or "0x…" string */
bool jl_get_double(jl *c, const cJSON *obj, const char *key, bool required, double def,
                   double min, double max, double *out);
bool jl_get_bool(jl *c, const cJSON *obj, const char *key, bool def, bool *out);
/* String (borrowed from the JSON tree), NULL when absent and not required. */
bool jl_get_string(jl *c, const cJSON *obj, const char *key, bool required, const char **out);
/* Enumerated string, case-insensitive; names[i] maps to values[i] (names NULL-terminated). */
bool jl_get_enum(jl *c, const cJSON *obj, const char *key, const char *const *names,
                 const int *values, int def, int *out);
/* A format name (texvm or PIPE_FORMAT_ name). */
bool jl_get_format(jl *c, const cJSON *obj, const char *key, bool required, tv_format *out);
/* A path key resolved against the job's directory (malloc'ed; NULL when absent). */
bool jl_get_path(jl *c, const cJSON *obj, const char *key, bool required, char **out);
char *jl_resolve(const jl *c, const char *rel);
/* "name or index" reference to a texture/buffer/sampler. */
bool jl_get_ref(jl *c, const cJSON *obj, const char *key, bool required, int kind, int *out);
enum { JL_REF_TEXTURE, JL_REF_BUFFER, JL_REF_SAMPLER };

/* Word type names ("float", "int", "uint", "hex"). */
bool jl_get_type(jl *c, const cJSON *obj, const char *key, int def, int *out);

/* Typed value lists (§5). `v` is the array. FLAT: words as given (vectors padded to 4 with
 * 0s); VEC4: a flat list is cut into vectors of 4, padded with 0s; VEC4_ONE: one vector per
 * item padded with (0,0,0,1), and a flat list gives one scalar item per element. */
enum { JL_PAD_FLAT, JL_PAD_VEC4, JL_PAD_VEC4_ONE };
bool jl_words(jl *c, const cJSON *v, int type, int pad, job_words *out);
bool jl_get_words(jl *c, const cJSON *obj, const char *key, bool required, int type, int pad,
                  job_words *out);
/* Exactly one vector of up to 4 elements, padded (0,0,0,1) or 0s. */
bool jl_get_vec4(jl *c, const cJSON *obj, const char *key, int type, bool pad_one,
                 const uint32_t def[4], uint32_t out[4]);
/* One element (number or typed string) to a word. */
bool jl_word(jl *c, const cJSON *v, int type, uint32_t *out);

/* Bytes of a file (malloc'ed); IO error on failure. */
bool jl_read_file(jl *c, const char *path, uint8_t **data, size_t *size);

/* Byte payload of a constants/buffer/hwatomic/memory entry: "values" + "type", or
 * "file", then "size" and "fill". */
bool jl_payload(jl *c, const cJSON *obj, uint8_t **data, size_t *size, size_t round_to);

/* Sections (job_load_*.c). */
bool jl_programs(jl *c, const cJSON *root);
bool jl_stages(jl *c, const cJSON *root);
bool jl_constants(jl *c, const cJSON *root);
bool jl_textures(jl *c, const cJSON *root);
bool jl_samplers(jl *c, const cJSON *root);
bool jl_bindings(jl *c, const cJSON *root);
bool jl_buffers(jl *c, const cJSON *root);
bool jl_images(jl *c, const cJSON *root);
bool jl_outputs(jl *c, const cJSON *root);
bool jl_checks(jl *c, const cJSON *root);
bool jl_options(jl *c, const cJSON *root);
bool jl_pattern(jl *c, const cJSON *obj, job_pattern *p);

/* TIC field table for "header" overrides (job_tic_fields.c). */
int job_tic_field_find(const char *name);
const char *job_tic_field_name(int field);

/* Free helpers. */
void job_source_free(job_source *s);

#endif
