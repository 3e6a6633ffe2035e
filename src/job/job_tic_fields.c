/* The texture-header fields a job's "header": {...} may set, by tv_tic field name (data). */
#include "job_internal.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

enum { F_RAW, F_BOOL, F_ANISO, F_S58, F_U48 };

typedef struct tic_field {
    const char *name;
    size_t offset;
    uint8_t size;
    uint8_t kind;
} tic_field;

#define FIELD(name, kind) {#name, offsetof(tv_tic, name), sizeof(((tv_tic *)0)->name), kind}

static const tic_field fields[] = {
    FIELD(coherency_hash, F_RAW),
    FIELD(gob_depth_offset, F_RAW),
    FIELD(tile_width_in_gobs, F_RAW),
    FIELD(gob3d, F_BOOL),
    FIELD(sparse_enable, F_BOOL),
    FIELD(use_array_tile_alignment, F_BOOL),
    FIELD(lod_aniso_quality2, F_BOOL),
    FIELD(lod_aniso_quality, F_BOOL),
    FIELD(lod_iso_quality, F_BOOL),
    FIELD(aniso_coarse_spread_modifier, F_RAW),
    FIELD(aniso_spread_scale, F_RAW),
    FIELD(use_header_opt_control, F_BOOL),
    FIELD(depth_texture, F_BOOL),
    FIELD(aniso_spread_max_log2, F_RAW),
    FIELD(sector_promotion, F_RAW),
    FIELD(border_size, F_RAW),
    FIELD(color_key_op, F_BOOL),
    FIELD(trilin_opt, F_RAW),
    FIELD(mip_lod_bias, F_S58),
    FIELD(aniso_bias, F_RAW),
    FIELD(aniso_fine_spread_func, F_RAW),
    FIELD(aniso_coarse_spread_func, F_RAW),
    FIELD(max_anisotropy, F_ANISO),
    FIELD(aniso_fine_spread_modifier, F_RAW),
    FIELD(multi_sample_count, F_RAW),
    FIELD(min_lod_clamp, F_U48),
    FIELD(color_key_value, F_RAW),
};
#define NUM_FIELDS (sizeof fields / sizeof fields[0])

int job_tic_field_find(const char *name)
{
    for (size_t i = 0; i < NUM_FIELDS; i++)
        if (!strcmp(fields[i].name, name))
            return (int)i;
    return -1;
}

const char *job_tic_field_name(int field)
{
    return field >= 0 && (size_t)field < NUM_FIELDS ? fields[field].name : NULL;
}

void job_tic_apply(tv_tic *tic, const job_tic_override *o)
{
    if (o->field < 0 || (size_t)o->field >= NUM_FIELDS)
        return;
    const tic_field *f = &fields[o->field];
    uint8_t *p = (uint8_t *)tic + f->offset;
    double v = o->value;
    switch (f->kind) {
    case F_BOOL: {
        bool b = v != 0.0;
        memcpy(p, &b, sizeof b);
        return;
    }
    case F_S58: {
        int16_t s = tv_float_to_fixed_s5_8((float)v);
        memcpy(p, &s, sizeof s);
        return;
    }
    case F_U48: {
        uint16_t u = tv_float_to_fixed_u4_8((float)v);
        memcpy(p, &u, sizeof u);
        return;
    }
    case F_ANISO: {
        uint8_t code = tv_tex_aniso_code(v);
        memcpy(p, &code, 1);
        return;
    }
    default: {
        double c = v < 0 ? 0 : v > 4294967295.0 ? 4294967295.0 : floor(v);
        uint32_t u = (uint32_t)c;
        if (f->size == 1) {
            uint8_t b = (uint8_t)u;
            memcpy(p, &b, 1);
        } else if (f->size == 2) {
            uint16_t h = (uint16_t)u;
            memcpy(p, &h, 2);
        } else {
            memcpy(p, &u, 4);
        }
        return;
    }
    }
}
