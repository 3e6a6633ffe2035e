/* The format tables: COMPONENTS-code layouts (format_components.def) and texvm's format
 * rows (include/texvm/tex_formats.def), with the lookups built on them. */
#include "tex/format.h"
#include "util/error.h"

#include <string.h>

/* ---- COMPONENTS codes ------------------------------------------------------------------ */
#define NZ(b) ((b) != 0)
#define TV_COMP(name, code, bytes, bw, bh, dec, ro, rb, go, gb, bo, bb, ao, ab)          \
    [code] = {#name, code, bytes, bw, bh, TEX_DEC_##dec, {ro, go, bo, ao}, {rb, gb, bb, ab}, \
              NZ(rb) + NZ(gb) + NZ(bb) + NZ(ab)},
static const tex_comp_layout comp_layouts[128] = {
#include "tex/format_components.def"
};
#undef TV_COMP

const tex_comp_layout *tex_comp_layout_get(unsigned code)
{
    if (code >= 128 || comp_layouts[code].decoder == TEX_DEC_NONE)
        return NULL;
    return &comp_layouts[code];
}

const tex_comp_layout *tex_comp_layout_by_name(const char *name)
{
    for (unsigned i = 0; i < 128; i++)
        if (comp_layouts[i].name && strcmp(comp_layouts[i].name, name) == 0)
            return &comp_layouts[i];
    return NULL;
}

int tex_format_kind(const tex_comp_layout *l, const uint8_t types[4])
{
    if (l->decoder == TEX_DEC_DEPTH) {
        if (types[0] == TV_TIC_TYPE_UINT)
            return TV_FMT_KIND_UINT;          /* stencil view */
        if (types[0] == TV_TIC_TYPE_UNORM || types[0] == TV_TIC_TYPE_FLOAT)
            return TV_FMT_KIND_DEPTH;
        return -1;
    }
    int n_int = 0, n_sint = 0, n_present = 0;
    for (int c = 0; c < 4; c++) {
        if (!l->bits[c])
            continue;
        n_present++;
        if (types[c] == 0)
            return -1;
        if (tex_type_is_int(types[c]))
            n_int++;
        if (types[c] == TV_TIC_TYPE_SINT)
            n_sint++;
    }
    if (n_int == 0)
        return TV_FMT_KIND_FLOAT;
    if (n_int != n_present || l->decoder != TEX_DEC_PLAIN)
        return -1;                            /* mixed integer/float or integer BCn */
    if (n_sint == n_present)
        return TV_FMT_KIND_SINT;
    if (n_sint == 0)
        return TV_FMT_KIND_UINT;
    return -1;                                /* mixed signed/unsigned integers */
}

/* ---- texvm formats --------------------------------------------------------------------- */
/* Constants per COMPONENTS code for the format rows (constant expressions). */
#define TV_COMP(name, code, bytes, bw, bh, dec, ro, rb, go, gb, bo, bb, ao, ab)          \
    CC_##name = code, CB_##name = bytes, CW_##name = bw, CH_##name = bh,                  \
    CN_##name = NZ(rb) + NZ(gb) + NZ(bb) + NZ(ab), CD_##name = (int)TEX_DEC_##dec,             \
    CR_##name = rb, CG_##name = gb, CBB_##name = bb, CA_##name = ab,
enum {
#include "tex/format_components.def"
};
#undef TV_COMP

enum { DT_SNORM = 1, DT_UNORM = 2, DT_SINT = 3, DT_UINT = 4, DT_FLOAT = 7 };
enum { SRC_0 = 0, SRC_R = 2, SRC_G = 3, SRC_B = 4, SRC_A = 5, SRC_1I = 6, SRC_1F = 7 };

#define KIND(c, r) \
    (CD_##c == (int)TEX_DEC_DEPTH ? (DT_##r == DT_UINT ? TV_FMT_KIND_UINT : TV_FMT_KIND_DEPTH) \
     : DT_##r == DT_UINT ? TV_FMT_KIND_UINT : DT_##r == DT_SINT ? TV_FMT_KIND_SINT        \
     : TV_FMT_KIND_FLOAT)

/* The pipe column names a row of the one Gallium list: an unknown name is an undeclared
 * GALLIUM_ constant. */
enum {
#define TV_GALLIUM_FORMAT(name, virgl, tgsi) GALLIUM_##name,
#include "texvm/gallium_formats.def"
#undef TV_GALLIUM_FORMAT
};

#define TV_FORMAT(name, pipe, c, r, g, b, a, x, y, z, w, srgb)                            \
    [TV_FORMAT_##name] = {#name, GALLIUM_##pipe != GALLIUM_NONE ? "PIPE_FORMAT_" #pipe : NULL, \
                          KIND(c, r),                                                     \
                          CW_##c, CH_##c, CB_##c, CN_##c, srgb, CC_##c,                   \
                          {DT_##r, DT_##g, DT_##b, DT_##a},                               \
                          {SRC_##x, SRC_##y, SRC_##z, SRC_##w},                           \
                          {CR_##c, CG_##c, CBB_##c, CA_##c}},
static const tv_format_info format_infos[TV_FORMAT_COUNT] = {
    [TV_FORMAT_NONE] = {"NONE", NULL, TV_FMT_KIND_FLOAT, 1, 1, 0, 0, false, 0, {0}, {0}, {0}},
#include "texvm/tex_formats.def"
};
#undef TV_FORMAT

const tv_format_info *tv_format_get(tv_format f)
{
    if ((unsigned)f >= TV_FORMAT_COUNT)
        return &format_infos[TV_FORMAT_NONE];
    return &format_infos[f];
}

tv_format tv_format_from_name(const char *name)
{
    if (!name)
        return TV_FORMAT_NONE;
    for (unsigned f = 1; f < TV_FORMAT_COUNT; f++)
        if (strcmp(format_infos[f].name, name) == 0)
            return (tv_format)f;
    return TV_FORMAT_NONE;
}

tv_format tv_format_from_pipe_name(const char *name)
{
    if (!name)
        return TV_FORMAT_NONE;
    for (unsigned f = 1; f < TV_FORMAT_COUNT; f++)
        if (format_infos[f].pipe_name && strcmp(format_infos[f].pipe_name, name) == 0)
            return (tv_format)f;
    return TV_FORMAT_NONE;
}

tv_status tv_tic_from_format(tv_tic *tic, tv_format format, tv_error *err)
{
    if (!tic)
        return tv_error_set(err, TV_ERR_ARG, 0, 0, "tv_tic_from_format: no header given");
    if (format <= TV_FORMAT_NONE || format >= TV_FORMAT_COUNT)
        return tv_error_set(err, TV_ERR_ARG, 0, 0, "tv_tic_from_format: unknown format %d",
                            (int)format);
    const tv_format_info *fi = &format_infos[format];
    memset(tic, 0, sizeof *tic);
    tic->components = fi->components;
    memcpy(tic->data_type, fi->data_type, 4);
    memcpy(tic->source, fi->source, 4);
    tic->srgb = fi->srgb;
    tic->depth_texture = fi->kind == TV_FMT_KIND_DEPTH;
    return TV_OK;
}

/* Present components of the layout must have the row's data types. */
static bool types_match(const tv_format_info *fi, const tv_tic *tic)
{
    for (int c = 0; c < 4; c++)
        if (fi->bits[c] && fi->data_type[c] != tic->data_type[c])
            return false;
    return true;
}

tv_format tv_format_from_tic(const tv_tic *tic)
{
    /* Best match: same code and types (required), then same sRGB bit, then same swizzle. */
    tv_format best = TV_FORMAT_NONE;
    int best_score = -1;
    for (unsigned f = 1; f < TV_FORMAT_COUNT; f++) {
        const tv_format_info *fi = &format_infos[f];
        if (fi->components != tic->components || !types_match(fi, tic))
            continue;
        int score = (fi->srgb == tic->srgb ? 2 : 0) +
                    (memcmp(fi->source, tic->source, 4) == 0 ? 1 : 0);
        if (score > best_score) {
            best_score = score;
            best = (tv_format)f;
        }
    }
    return best;
}
