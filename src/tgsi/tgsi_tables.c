/* TGSI name tables and the opcode table, all data (Mesa 22.3 spellings and numbering). */
#include "tgsi/tgsi_internal.h"

#include <ctype.h>
#include <string.h>

/* ---- opcode table ------------------------------------------------------------------- */
#define FIELD(f, shift, bits) ((int)(((f) >> (shift)) & ((1u << (bits)) - 1)))
#define TV_TGSI_OP(num, nm, ndst, nsrc, mode, fl)                                           \
    [num] = {.name = #nm, .opcode = num, .num_dst = ndst, .num_src = nsrc,                  \
             .outmode = TV_OUT_##mode, .flags = (fl),                                       \
             .category = (uint8_t)FIELD((fl), 17, 5),                                       \
             .stages = (uint8_t)(FIELD((fl), 22, 6) ? FIELD((fl), 22, 6) : TV_STAGE_ALL),   \
             .samp_src = (int8_t)(FIELD((fl), 8, 3) - 1),                                   \
             .sview_src = (int8_t)(FIELD((fl), 11, 3) - 1),                                 \
             .res_src = (int8_t)(FIELD((fl), 14, 3) - 1),                                   \
             .res_dst = ((fl) & TV_OPF_RESDST) != 0},
#define TV_TGSI_GAP(num)
static const tv_tgsi_opinfo opinfos[TV_TGSI_OP_LAST] = {
#include "texvm/tgsi_opcodes.def"
};
#undef TV_TGSI_OP
#undef TV_TGSI_GAP

const tv_tgsi_opinfo *tv_tgsi_opinfo_get(unsigned opcode)
{
    if (opcode >= TV_TGSI_OP_LAST || !opinfos[opcode].name)
        return NULL;
    return &opinfos[opcode];
}

static bool eq_nocase(const char *a, const char *b, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (toupper((unsigned char)a[i]) != (unsigned char)b[i])
            return false;
    return b[len] == '\0';
}

const tv_tgsi_opinfo *tv_tgsi_opinfo_find(const char *name, size_t len)
{
    if (!name)
        return NULL;
    for (unsigned i = 0; i < TV_TGSI_OP_LAST; i++)
        if (opinfos[i].name && eq_nocase(name, opinfos[i].name, len))
            return &opinfos[i];
    return NULL;
}

int tvt_lookup(const char *const *names, int count, const char *s, size_t len)
{
    for (int i = 0; i < count; i++)
        if (names[i] && eq_nocase(s, names[i], len))
            return i;
    return -1;
}

/* ---- names -------------------------------------------------------------------------- */
const char *const tvt_file_names[TV_FILE_COUNT] = {
    "NULL", "CONST", "IN", "OUT", "TEMP", "SAMP", "ADDR", "IMM", "SV", "IMAGE", "SVIEW",
    "BUFFER", "MEMORY", "CONSTBUF", "HWATOMIC"};

const char *const tvt_target_names[TV_TGT_COUNT] = {
    "BUFFER", "1D", "2D", "3D", "CUBE", "RECT", "SHADOW1D", "SHADOW2D", "SHADOWRECT",
    "1D_ARRAY", "2D_ARRAY", "SHADOW1D_ARRAY", "SHADOW2D_ARRAY", "SHADOWCUBE", "2D_MSAA",
    "2D_ARRAY_MSAA", "CUBEARRAY", "SHADOWCUBEARRAY", "UNKNOWN"};

/* Mesa has no text names for the last two; texvm spells them out (an extension). */
const char *const tvt_semantic_names[TV_SEM_COUNT] = {
    "POSITION", "COLOR", "BCOLOR", "FOG", "PSIZE", "GENERIC", "NORMAL", "FACE", "EDGEFLAG",
    "PRIM_ID", "INSTANCEID", "VERTEXID", "STENCIL", "CLIPDIST", "CLIPVERTEX", "GRID_SIZE",
    "BLOCK_ID", "BLOCK_SIZE", "THREAD_ID", "TEXCOORD", "PCOORD", "VIEWPORT_INDEX", "LAYER",
    "SAMPLEID", "SAMPLEPOS", "SAMPLEMASK", "INVOCATIONID", "VERTEXID_NOBASE", "BASEVERTEX",
    "PATCH", "TESSCOORD", "TESSOUTER", "TESSINNER", "VERTICESIN", "HELPER_INVOCATION",
    "BASEINSTANCE", "DRAWID", "WORK_DIM", "SUBGROUP_SIZE", "SUBGROUP_INVOCATION",
    "SUBGROUP_EQ_MASK", "SUBGROUP_GE_MASK", "SUBGROUP_GT_MASK", "SUBGROUP_LE_MASK",
    "SUBGROUP_LT_MASK", "CS_USER_DATA_AMD", "VIEWPORT_MASK", "TESS_DEFAULT_OUTER_LEVEL",
    "TESS_DEFAULT_INNER_LEVEL"};

const char *const tvt_processor_names[TV_TGSI_PROCESSOR_COUNT] = {
    "VERT", "FRAG", "GEOM", "TESS_CTRL", "TESS_EVAL", "COMP"};

const char *const tvt_return_type_names[TV_RET_COUNT] = {"UNORM", "SNORM", "SINT", "UINT",
                                                         "FLOAT"};
const char *const tvt_interp_names[TV_INTERP_COUNT] = {"CONSTANT", "LINEAR", "PERSPECTIVE",
                                                       "COLOR"};
const char *const tvt_location_names[TV_LOC_COUNT] = {"CENTER", "CENTROID", "SAMPLE"};
const char *const tvt_memory_type_names[TV_MEM_COUNT] = {"GLOBAL", "SHARED", "PRIVATE",
                                                         "INPUT"};
const char *const tvt_memq_names[4] = {"COHERENT", "RESTRICT", "VOLATILE",
                                       "STREAM_CACHE_POLICY"};
const char *const tvt_imm_type_names[TV_IMM_COUNT] = {"FLT32", "UINT32", "INT32",
                                                      "FLT64", "UINT64", "INT64"};

const char *const tvt_property_names[TV_PROP_COUNT] = {
    "GS_INPUT_PRIMITIVE", "GS_OUTPUT_PRIMITIVE", "GS_MAX_OUTPUT_VERTICES", "FS_COORD_ORIGIN",
    "FS_COORD_PIXEL_CENTER", "FS_COLOR0_WRITES_ALL_CBUFS", "FS_DEPTH_LAYOUT",
    "VS_PROHIBIT_UCPS", "GS_INVOCATIONS", "VS_WINDOW_SPACE_POSITION", "TCS_VERTICES_OUT",
    "TES_PRIM_MODE", "TES_SPACING", "TES_VERTEX_ORDER_CW", "TES_POINT_MODE",
    "NUM_CLIPDIST_ENABLED", "NUM_CULLDIST_ENABLED", "FS_EARLY_DEPTH_STENCIL",
    "FS_POST_DEPTH_COVERAGE", "NEXT_SHADER", "CS_FIXED_BLOCK_WIDTH", "CS_FIXED_BLOCK_HEIGHT",
    "CS_FIXED_BLOCK_DEPTH", "LEGACY_MATH_RULES", "VS_BLIT_SGPRS_AMD",
    "CS_USER_DATA_COMPONENTS_AMD", "LAYER_VIEWPORT_RELATIVE", "FS_BLEND_EQUATION_ADVANCED",
    "SEPARABLE_PROGRAM"};

const char *const tvt_primitive_names[TVT_NUM_PRIMITIVES] = {
    "POINTS", "LINES", "LINE_LOOP", "LINE_STRIP", "TRIANGLES", "TRIANGLE_STRIP",
    "TRIANGLE_FAN", "QUADS", "QUAD_STRIP", "POLYGON", "LINES_ADJACENCY",
    "LINE_STRIP_ADJACENCY", "TRIANGLES_ADJACENCY", "TRIANGLE_STRIP_ADJACENCY", "PATCHES"};
const char *const tvt_origin_names[2] = {"UPPER_LEFT", "LOWER_LEFT"};
const char *const tvt_center_names[2] = {"HALF_INTEGER", "INTEGER"};

/* Properties whose values have names; the others are plain numbers. */
static const struct {
    const char *const *names;
    int count;
} property_values[TV_PROP_COUNT] = {
    [TV_PROP_GS_INPUT_PRIMITIVE] = {tvt_primitive_names, TVT_NUM_PRIMITIVES},
    [TV_PROP_GS_OUTPUT_PRIMITIVE] = {tvt_primitive_names, TVT_NUM_PRIMITIVES},
    [TV_PROP_FS_COORD_ORIGIN] = {tvt_origin_names, 2},
    [TV_PROP_FS_COORD_PIXEL_CENTER] = {tvt_center_names, 2},
    [TV_PROP_NEXT_SHADER] = {tvt_processor_names, TV_TGSI_PROCESSOR_COUNT},
};

const char *const *tvt_property_value_names(unsigned prop, int *count)
{
    if (prop >= TV_PROP_COUNT || !property_values[prop].names) {
        *count = 0;
        return NULL;
    }
    *count = property_values[prop].count;
    return property_values[prop].names;
}

const char *const tvt_opcat_names[TV_OPC_COUNT] = {
    "float", "int", "convert", "double", "int64", "pack", "address", "derivative", "texture",
    "sample", "resource", "atomic", "flow", "fragment", "geometry", "sync", "wave"};

const char tvt_swizzle_chars[4] = {'x', 'y', 'z', 'w'};

/* The Gallium names whose tgsi column is 1, in the list's order (NONE first). */
#define TVT_TGSI_FORMAT_1(n) "PIPE_FORMAT_" #n,
#define TVT_TGSI_FORMAT_0(n)
#define TV_GALLIUM_FORMAT(n, virgl, tgsi) TVT_TGSI_FORMAT_##tgsi(n)
const char *const tvt_pipe_format_names[] = {
#include "texvm/gallium_formats.def"
};
#undef TV_GALLIUM_FORMAT
#undef TVT_TGSI_FORMAT_0
#undef TVT_TGSI_FORMAT_1
const unsigned tvt_num_pipe_formats =
    sizeof tvt_pipe_format_names / sizeof tvt_pipe_format_names[0];

int tvt_pipe_format_lookup(const char *s, size_t len)
{
    return tvt_lookup(tvt_pipe_format_names, (int)tvt_num_pipe_formats, s, len);
}

/* ---- public name getters ------------------------------------------------------------ */
#define GETTER(fn, table, count)                                                            \
    const char *fn(unsigned i) { return i < (unsigned)(count) ? table[i] : NULL; }
GETTER(tv_tgsi_file_name, tvt_file_names, TV_FILE_COUNT)
GETTER(tv_tgsi_target_name, tvt_target_names, TV_TGT_COUNT)
GETTER(tv_tgsi_semantic_name, tvt_semantic_names, TV_SEM_COUNT)
GETTER(tv_tgsi_processor_name, tvt_processor_names, TV_TGSI_PROCESSOR_COUNT)
GETTER(tv_tgsi_pipe_format_name, tvt_pipe_format_names, tvt_num_pipe_formats)
GETTER(tv_tgsi_property_name, tvt_property_names, TV_PROP_COUNT)
GETTER(tv_tgsi_return_type_name, tvt_return_type_names, TV_RET_COUNT)
GETTER(tv_tgsi_opcat_name, tvt_opcat_names, TV_OPC_COUNT)

bool tvt_decl_is_per_vertex(unsigned processor, const tv_tgsi_declaration *d)
{
    bool patch = d->has_semantic &&
                 (d->semantic == TV_SEM_PATCH || d->semantic == TV_SEM_TESSINNER ||
                  d->semantic == TV_SEM_TESSOUTER || d->semantic == TV_SEM_PRIMID);
    if (d->file == TV_FILE_IN)
        return processor == TV_TGSI_GEOM ||
               (!patch && (processor == TV_TGSI_TESS_CTRL || processor == TV_TGSI_TESS_EVAL));
    if (d->file == TV_FILE_OUT)
        return !patch && processor == TV_TGSI_TESS_CTRL;
    return false;
}
