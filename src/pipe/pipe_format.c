/* Gallium format numbers (as virgl's virgl_hw.h numbers them: the virgl column of
 * include/texvm/gallium_formats.def) -> names and texture-unit formats. Formats without a
 * row in include/texvm/tex_formats.def are vertex formats only: resources, views and
 * targets refuse them by name. */
#include "pipe_internal.h"
#include "pipe_om.h"
#include "pipe_vertex_fetch.h"

#include <stddef.h>
#include <string.h>
#include <strings.h>

typedef struct pipe_format_row {
    uint32_t num;     /* 0: a Gallium name the pipe layer does not take */
    const char *name; /* texvm / Gallium name without PIPE_FORMAT_ */
} pipe_format_row;

static const pipe_format_row rows[] = {
#define TV_GALLIUM_FORMAT(name, virgl, tgsi) {virgl, #name},
#include "texvm/gallium_formats.def"
#undef TV_GALLIUM_FORMAT
};

/* The row of a format number the pipe layer takes, NULL for any other (0 included). */
static const pipe_format_row *row_of(uint32_t format)
{
    for (size_t i = 0; format && i < sizeof rows / sizeof rows[0]; i++)
        if (rows[i].num == format)
            return &rows[i];
    return NULL;
}

tv_format pipe_format_lookup(uint32_t format)
{
    const pipe_format_row *r = row_of(format);
    return r ? tv_format_from_name(r->name) : TV_FORMAT_NONE;
}

const char *tv_pipe_format_name(uint32_t format)
{
    const pipe_format_row *r = row_of(format);
    return r ? r->name : NULL;
}

uint32_t tv_pipe_format_from_name(const char *name)
{
    if (!name)
        return 0;
    if (!strncmp(name, "PIPE_FORMAT_", 12))
        name += 12;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        if (!strcasecmp(rows[i].name, name))
            return rows[i].num;
    return 0;
}

unsigned tv_pipe_format_block(uint32_t format, unsigned *bw, unsigned *bh)
{
    tv_format f = pipe_format_lookup(format);
    const tv_format_info *fi = f == TV_FORMAT_NONE ? NULL : tv_format_get(f);
    if (!fi)
        return 0;
    if (bw)
        *bw = fi->block_w;
    if (bh)
        *bh = fi->block_h;
    return fi->block_bytes;
}

int tv_pipe_format_clearable(uint32_t format)
{
    tv_format f = pipe_format_lookup(format);
    uint8_t scratch[16];
    const uint32_t zero[4] = {0, 0, 0, 0};
    return f != TV_FORMAT_NONE && tv_format_pack(f, zero, scratch);
}

unsigned tv_pipe_format_caps(uint32_t format)
{
    unsigned caps = 0;
    tv_format f = pipe_format_lookup(format);
    if (f != TV_FORMAT_NONE) {
        om_target t;
        om_zs_target z;
        caps |= TV_PIPE_FORMAT_SAMPLER;
        if (om_target_init(&t, f))
            caps |= TV_PIPE_FORMAT_RENDER;
        if (om_zs_target_init(&z, f))
            caps |= TV_PIPE_FORMAT_DEPTH_STENCIL;
    }
    vf_format v;
    if (vf_format_get(format, &v))
        caps |= TV_PIPE_FORMAT_VERTEX;
    return caps;
}
