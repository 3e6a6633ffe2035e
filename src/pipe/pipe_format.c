/* Gallium format numbers (as virgl's virgl_hw.h numbers them: the virgl column of
 * include/texvm/gallium_formats.def) -> names and texture-unit formats. Formats without a
 * row in include/texvm/tex_formats.def are vertex formats only: resources, views and
 * targets refuse them by name. */
#include "pipe_internal.h"
#include "pipe_om.h"
#include "pipe_vertex_fetch.h"

#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
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

/* Every format number the pipe layer takes, below this: number -> row, texture-unit format
 * and caps as one table, filled once per process (rows_fill, caps_fill) from the rows and the
 * computations below — every connection's caps and every resource, view and draw asks by
 * number, and the searches by name were a quarter of a fuzzed connection's time. */
#define NUMBERS 512
#define TV_GALLIUM_FORMAT(name, virgl, tgsi)                                                 \
    _Static_assert((virgl) < NUMBERS, "the virgl number of " #name " is past NUMBERS");
#include "texvm/gallium_formats.def"
#undef TV_GALLIUM_FORMAT

typedef struct number_entry {
    const pipe_format_row *row; /* NULL: a number the pipe layer does not take */
    tv_format tex;              /* TV_FORMAT_NONE: not a texture-unit format */
    unsigned caps;              /* TV_PIPE_FORMAT_* */
} number_entry;

static number_entry by_number[NUMBERS];
/* two steps, each once: the rows and formats, then the caps — whose computation reads
 * names through tv_pipe_format_name (vf_format_get), i.e. the first step */
static pthread_once_t rows_once = PTHREAD_ONCE_INIT, caps_once = PTHREAD_ONCE_INIT;

/* The caps of a number whose texture-unit format is known (tv_pipe_format_caps) */
static unsigned compute_caps(uint32_t format, tv_format f)
{
    unsigned caps = 0;
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

/* The texture-unit format whose pipe column (include/texvm/tex_formats.def) is Gallium's
 * NAME: by that column, not the unit's own name, which differs for the block formats
 * (DXT1_RGB is BC1_RGB_UNORM, BPTC_RGBA_UNORM is BC7_UNORM). */
static tv_format tex_of_gallium(const char *name)
{
    char full[64];
    int n = snprintf(full, sizeof full, "PIPE_FORMAT_%s", name);
    return n > 0 && (size_t)n < sizeof full ? tv_format_from_pipe_name(full) : TV_FORMAT_NONE;
}

static void rows_fill(void)
{
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        if (rows[i].num) {
            by_number[rows[i].num].row = &rows[i];
            by_number[rows[i].num].tex = tex_of_gallium(rows[i].name);
        }
}

static void caps_fill(void)
{
    pthread_once(&rows_once, rows_fill);
    for (uint32_t n = 1; n < NUMBERS; n++)
        if (by_number[n].row)
            by_number[n].caps = compute_caps(n, by_number[n].tex);
}

/* The entry of a format number the pipe layer takes, NULL for any other (0 included). */
static const number_entry *entry_of(uint32_t format)
{
    pthread_once(&rows_once, rows_fill);
    return format && format < NUMBERS && by_number[format].row ? &by_number[format] : NULL;
}

tv_format pipe_format_lookup(uint32_t format)
{
    const number_entry *e = entry_of(format);
    return e ? e->tex : TV_FORMAT_NONE;
}

const char *tv_pipe_format_name(uint32_t format)
{
    const number_entry *e = entry_of(format);
    return e ? e->row->name : NULL;
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
    pthread_once(&caps_once, caps_fill);
    const number_entry *e = entry_of(format);
    return e ? e->caps : 0;
}
