/* The SASS tables: modifiers, instructions, TEXS/TLDS target codes, write-mask codes,
 * names, and the 64-bit encoding of every form. Sources: the SPA 5.0 pages
 * (spec/sass-*.txt) and reference/nvidia-texture.md §4. */
#include "sass/sass_internal.h"

#include <string.h>

/* ---- modifiers ------------------------------------------------------------------------- */
const sass_mod sass_mods[] = {
    {"F16", MK_F16, 1},
    {"R", MK_COMP, 0}, {"G", MK_COMP, 1}, {"B", MK_COMP, 2}, {"A", MK_COMP, 3},
    {"B", MK_B, 1},
    {"LZ", MK_LOD, TV_SASS_LOD_LZ}, {"LB", MK_LOD, TV_SASS_LOD_LB},
    {"LL", MK_LOD, TV_SASS_LOD_LL}, {"LBA", MK_LOD, TV_SASS_LOD_LBA},
    {"LLA", MK_LOD, TV_SASS_LOD_LLA},
    {"LOD", MK_LODQ, 1},
    {"LC", MK_LC, 1}, {"AOFFI", MK_AOFFI, 1}, {"PTP", MK_PTP, 1}, {"DC", MK_DC, 1},
    {"MS", MK_MS, 1}, {"CL", MK_CL, 1}, {"NDV", MK_NDV, 1}, {"NODEP", MK_NODEP, 1},
    {"T", MK_PHASE, 1}, {"P", MK_PHASE, 2},
};
const size_t sass_num_mods = sizeof sass_mods / sizeof sass_mods[0];

/* ---- instructions ---------------------------------------------------------------------- */
#define LODB(l) (1u << (l))
#define ALL_TYPES (0xffu & ~TB(TV_SASS_ARRAY_3D))

#define MODS_PHASE (MB(MK_NODEP) | MB(MK_PHASE))

const sass_op_info sass_ops[TV_SASS_OP_COUNT] = {
    [TV_SASS_TEX] = {.name = "TEX",
        .mods = MB(MK_B) | MB(MK_LOD) | MB(MK_LC) | MB(MK_AOFFI) | MB(MK_DC) | MB(MK_NDV) |
                MODS_PHASE,
        .lods = LODB(0) | LODB(1) | LODB(2) | LODB(3) | LODB(6) | LODB(7),
        .has_pd = 1, .has_rb = 1, .has_type = 1, .mask_kind = 1, .types = ALL_TYPES},
    [TV_SASS_TEXS] = {.name = "TEXS",
        .mods = MB(MK_F16) | MB(MK_LOD) | MB(MK_DC) | MODS_PHASE,
        .lods = LODB(0) | LODB(1) | LODB(3),
        .scalar = 1, .has_rb = 1, .has_type = 1, .mask_kind = 3, .types = ALL_TYPES},
    [TV_SASS_TLD] = {.name = "TLD",
        .mods = MB(MK_B) | MB(MK_LOD) | MB(MK_AOFFI) | MB(MK_MS) | MB(MK_CL) | MODS_PHASE,
        .lods = LODB(1) | LODB(3), .lod_required = 1,
        .has_pd = 1, .has_rb = 1, .has_type = 1, .mask_kind = 1,
        .types = TB(TV_SASS_1D) | TB(TV_SASS_ARRAY_1D) | TB(TV_SASS_2D) |
                 TB(TV_SASS_ARRAY_2D) | TB(TV_SASS_3D)},
    [TV_SASS_TLDS] = {.name = "TLDS",
        .mods = MB(MK_F16) | MB(MK_LOD) | MB(MK_AOFFI) | MB(MK_MS) | MODS_PHASE,
        .lods = LODB(1) | LODB(3), .lod_required = 1,
        .scalar = 1, .has_rb = 1, .has_type = 1, .mask_kind = 3, .types = ALL_TYPES},
    [TV_SASS_TLD4] = {.name = "TLD4",
        .mods = MB(MK_COMP) | MB(MK_B) | MB(MK_AOFFI) | MB(MK_PTP) | MB(MK_DC) | MB(MK_NDV) |
                MODS_PHASE,
        .comp_required = 1, .has_pd = 1, .has_rb = 1, .has_type = 1, .mask_kind = 1,
        .types = TB(TV_SASS_2D) | TB(TV_SASS_ARRAY_2D) | TB(TV_SASS_CUBE) |
                 TB(TV_SASS_ARRAY_CUBE)},
    [TV_SASS_TLD4S] = {.name = "TLD4S",
        .mods = MB(MK_F16) | MB(MK_COMP) | MB(MK_AOFFI) | MB(MK_DC) | MODS_PHASE,
        .comp_required = 1, .scalar = 1, .has_rb = 1, .types = TB(TV_SASS_2D)},
    [TV_SASS_TMML] = {.name = "TMML",
        .mods = MB(MK_B) | MB(MK_LODQ) | MB(MK_NDV) | MODS_PHASE,
        .lodq = 1, .has_rb = 1, .has_type = 1, .mask_kind = 2, .types = ALL_TYPES},
    [TV_SASS_TXQ] = {.name = "TXQ", .mods = MB(MK_B) | MODS_PHASE, .mask_kind = 2},
    [TV_SASS_TXD] = {.name = "TXD",
        .mods = MB(MK_B) | MB(MK_LC) | MB(MK_AOFFI) | MODS_PHASE,
        .has_pd = 1, .has_rb = 1, .has_type = 1, .mask_kind = 1,
        .types = TB(TV_SASS_1D) | TB(TV_SASS_ARRAY_1D) | TB(TV_SASS_2D) |
                 TB(TV_SASS_ARRAY_2D)},
};

/* ---- TEXS / TLDS target codes (reference §4.3; TLDS: the page's legal-modifier table) -- */
#define NO TV_SASS_LOD_NONE
#define LZ TV_SASS_LOD_LZ
#define LL TV_SASS_LOD_LL
static const sass_code_row texs_codes[] = {
    {0, TV_SASS_1D, LZ, 0, 0, 0},        {1, TV_SASS_2D, NO, 0, 0, 0},
    {2, TV_SASS_2D, LZ, 0, 0, 0},        {3, TV_SASS_2D, LL, 0, 0, 0},
    {4, TV_SASS_2D, NO, 1, 0, 0},        {5, TV_SASS_2D, LL, 1, 0, 0},
    {6, TV_SASS_2D, LZ, 1, 0, 0},        {7, TV_SASS_ARRAY_2D, NO, 0, 0, 0},
    {8, TV_SASS_ARRAY_2D, LZ, 0, 0, 0},  {9, TV_SASS_ARRAY_2D, LZ, 1, 0, 0},
    {10, TV_SASS_3D, NO, 0, 0, 0},       {11, TV_SASS_3D, LZ, 0, 0, 0},
    {12, TV_SASS_CUBE, NO, 0, 0, 0},     {13, TV_SASS_CUBE, LL, 0, 0, 0},
};
static const sass_code_row tlds_codes[] = {
    {0, TV_SASS_1D, LZ, 0, 0, 0},        {1, TV_SASS_1D, LL, 0, 0, 0},
    {2, TV_SASS_2D, LZ, 0, 0, 0},        {4, TV_SASS_2D, LZ, 0, 1, 0},
    {5, TV_SASS_2D, LL, 0, 0, 0},        {6, TV_SASS_2D, LZ, 0, 0, 1},
    {7, TV_SASS_3D, LZ, 0, 0, 0},        {8, TV_SASS_ARRAY_2D, LZ, 0, 0, 0},
    {12, TV_SASS_2D, LL, 0, 1, 0},
};
#undef NO
#undef LZ
#undef LL

static const sass_code_row *code_table(uint8_t op, size_t *n)
{
    if (op == TV_SASS_TEXS) {
        *n = sizeof texs_codes / sizeof texs_codes[0];
        return texs_codes;
    }
    if (op == TV_SASS_TLDS) {
        *n = sizeof tlds_codes / sizeof tlds_codes[0];
        return tlds_codes;
    }
    *n = 0;
    return NULL;
}

const sass_code_row *sass_code_lookup(uint8_t op, uint8_t code)
{
    size_t n;
    const sass_code_row *t = code_table(op, &n);
    for (size_t i = 0; i < n; i++)
        if (t[i].code == code)
            return &t[i];
    return NULL;
}

const sass_code_row *sass_code_find(const tv_sass_insn *in)
{
    size_t n;
    const sass_code_row *t = code_table(in->op, &n);
    for (size_t i = 0; i < n; i++)
        if (t[i].type == in->type && t[i].lod == in->lod && t[i].dc == in->dc &&
            t[i].aoffi == in->aoffi && t[i].ms == in->ms)
            return &t[i];
    return NULL;
}

/* ---- component-mask codes (the TLDS page's Rd1/Rd0/wmsk tables) ------------------------ */
const sass_swz_row sass_swz[] = {
    {"R", 0, 1, 0x1},   {"G", 1, 1, 0x2},   {"B", 2, 1, 0x4},   {"A", 3, 1, 0x8},
    {"RG", 4, 1, 0x3},  {"RA", 5, 1, 0x9},  {"GA", 6, 1, 0xa},  {"BA", 7, 1, 0xc},
    {"RGB", 0, 0, 0x7}, {"RGA", 1, 0, 0xb}, {"RBA", 2, 0, 0xd}, {"GBA", 3, 0, 0xe},
    {"RGBA", 4, 0, 0xf},
};
const size_t sass_num_swz = sizeof sass_swz / sizeof sass_swz[0];

const sass_swz_row *sass_swz_by_code(uint8_t rd2_rz, uint8_t code)
{
    for (size_t i = 0; i < sass_num_swz; i++)
        if (sass_swz[i].rd2_rz == rd2_rz && sass_swz[i].code == code)
            return &sass_swz[i];
    return NULL;
}

const sass_swz_row *sass_swz_by_mask(uint8_t rd2_rz, uint8_t mask)
{
    for (size_t i = 0; i < sass_num_swz; i++)
        if (sass_swz[i].rd2_rz == rd2_rz && sass_swz[i].mask == mask)
            return &sass_swz[i];
    return NULL;
}

const sass_swz_row *sass_swz_by_name(const char *name, size_t len)
{
    for (size_t i = 0; i < sass_num_swz; i++)
        if (strlen(sass_swz[i].name) == len && !memcmp(sass_swz[i].name, name, len))
            return &sass_swz[i];
    return NULL;
}

/* ---- names ----------------------------------------------------------------------------- */
const sass_name sass_type_names[] = {
    {"1D", TV_SASS_1D}, {"ARRAY_1D", TV_SASS_ARRAY_1D}, {"2D", TV_SASS_2D},
    {"ARRAY_2D", TV_SASS_ARRAY_2D}, {"3D", TV_SASS_3D}, {"ARRAY_3D", TV_SASS_ARRAY_3D},
    {"CUBE", TV_SASS_CUBE}, {"ARRAY_CUBE", TV_SASS_ARRAY_CUBE},
    /* aliases (NV-MD), never printed */
    {"RECT", TV_SASS_2D}, {"CUBEARRAY", TV_SASS_ARRAY_CUBE},
};
const size_t sass_num_type_names = sizeof sass_type_names / sizeof sass_type_names[0];

const sass_name sass_query_names[] = {
    {"TEX_HEADER_DIMENSION", TV_SASS_Q_DIMENSION},
    {"TEX_HEADER_TEXTURE_TYPE", TV_SASS_Q_TEXTURE_TYPE},
    {"TEX_HEADER_SAMPLER_POS", TV_SASS_Q_SAMPLER_POS},
    {"TEX_SAMPLER_FILTER", TV_SASS_Q_SAMPLER_FILTER},
    {"TEX_SAMPLER_LOD", TV_SASS_Q_SAMPLER_LOD},
    {"TEX_SAMPLER_WRAP", TV_SASS_Q_SAMPLER_WRAP},
    {"TEX_SAMPLER_BORDER_COLOR", TV_SASS_Q_SAMPLER_BORDER_COLOR},
};
const size_t sass_num_query_names = sizeof sass_query_names / sizeof sass_query_names[0];

const char *sass_type_name(uint8_t type)
{
    for (size_t i = 0; i < 8; i++)
        if (sass_type_names[i].value == type)
            return sass_type_names[i].name;
    return "?";
}

const char *sass_query_name(uint8_t query)
{
    for (size_t i = 0; i < sass_num_query_names; i++)
        if (sass_query_names[i].value == query)
            return sass_query_names[i].name;
    return NULL;
}

/* ---- encodings (reference §4.1/§4.2) --------------------------------------------------- */
#define FU(lo, w, m) {lo, w, FK_U8, (uint8_t)offsetof(tv_sass_insn, m)}
#define FZ(lo, w) {lo, w, FK_ZERO, 0}
#define FX(lo, w, k) {lo, w, k, 0}
#define COMMON FU(0, 8, rd), FU(8, 8, ra), FU(16, 3, pg), FU(19, 1, pg_neg)
#define TYPEMASK FU(28, 3, type), FU(31, 4, wmask)
#define NF(...) (uint8_t)(sizeof((sass_field[]){__VA_ARGS__}) / sizeof(sass_field)), {__VA_ARGS__}

const sass_form sass_forms[] = {
    {"TEX", TV_SASS_TEX, 0, 0, 59, 0x18,
     NF(COMMON, FU(20, 8, rb), TYPEMASK, FU(35, 1, ndv), FX(36, 13, FK_TID),
        FU(49, 1, nodep), FU(50, 1, dc), FU(51, 3, pd), FU(54, 1, aoffi), FU(55, 3, lod),
        FU(58, 1, lc))},
    {"TEX.B", TV_SASS_TEX, 1, 0, 54, 0x37a,
     NF(COMMON, FU(20, 8, rb), TYPEMASK, FU(35, 1, ndv), FU(36, 1, aoffi), FU(37, 3, lod),
        FU(40, 1, lc), FZ(41, 8), FU(49, 1, nodep), FU(50, 1, dc), FU(51, 3, pd))},
    {"TEXS", TV_SASS_TEXS, 0, 0, 57, 0x6c,
     NF(COMMON, FU(20, 8, rb), FU(28, 8, rd2), FX(36, 13, FK_TID), FU(49, 1, nodep),
        FX(50, 3, FK_SWZ), FX(53, 4, FK_CODE))},
    {"TEXS.F16", TV_SASS_TEXS, 0, 1, 57, 0x68,
     NF(COMMON, FU(20, 8, rb), FU(28, 8, rd2), FX(36, 13, FK_TID), FU(49, 1, nodep),
        FX(50, 3, FK_SWZ), FX(53, 4, FK_CODE))},
    {"TLDS", TV_SASS_TLDS, 0, 0, 57, 0x6d,
     NF(COMMON, FU(20, 8, rb), FU(28, 8, rd2), FX(36, 13, FK_TID), FU(49, 1, nodep),
        FX(50, 3, FK_SWZ), FX(53, 4, FK_CODE))},
    {"TLDS.F16", TV_SASS_TLDS, 0, 1, 57, 0x69,
     NF(COMMON, FU(20, 8, rb), FU(28, 8, rd2), FX(36, 13, FK_TID), FU(49, 1, nodep),
        FX(50, 3, FK_SWZ), FX(53, 4, FK_CODE))},
    {"TLD", TV_SASS_TLD, 0, 0, 56, 0xdc,
     NF(COMMON, FU(20, 8, rb), TYPEMASK, FU(35, 1, aoffi), FX(36, 13, FK_TID),
        FU(49, 1, nodep), FU(50, 1, ms), FU(51, 3, pd), FU(54, 1, cl), FX(55, 1, FK_TLD_LOD))},
    {"TLD.B", TV_SASS_TLD, 1, 0, 56, 0xdd,
     NF(COMMON, FU(20, 8, rb), TYPEMASK, FU(35, 1, aoffi), FZ(36, 13),
        FU(49, 1, nodep), FU(50, 1, ms), FU(51, 3, pd), FU(54, 1, cl), FX(55, 1, FK_TLD_LOD))},
    {"TLD4", TV_SASS_TLD4, 0, 0, 59, 0x19,
     NF(COMMON, FU(20, 8, rb), TYPEMASK, FU(35, 1, ndv), FX(36, 13, FK_TID),
        FU(49, 1, nodep), FU(50, 1, dc), FU(51, 3, pd), FX(54, 2, FK_OFFMODE),
        FU(56, 2, component), FZ(58, 1))},
    {"TLD4.B", TV_SASS_TLD4, 1, 0, 54, 0x37b,
     NF(COMMON, FU(20, 8, rb), TYPEMASK, FU(35, 1, ndv), FX(36, 2, FK_OFFMODE),
        FU(38, 2, component), FZ(40, 1), FZ(41, 8), FU(49, 1, nodep), FU(50, 1, dc),
        FU(51, 3, pd))},
    {"TLD4S", TV_SASS_TLD4S, 0, 0, 54, 0x37c,
     NF(COMMON, FU(20, 8, rb), FU(28, 8, rd2), FX(36, 13, FK_TID), FU(49, 1, nodep),
        FU(50, 1, dc), FU(51, 1, aoffi), FU(52, 2, component))},
    {"TLD4S.F16", TV_SASS_TLD4S, 0, 1, 54, 0x37e,
     NF(COMMON, FU(20, 8, rb), FU(28, 8, rd2), FX(36, 13, FK_TID), FU(49, 1, nodep),
        FU(50, 1, dc), FU(51, 1, aoffi), FU(52, 2, component))},
    {"TMML", TV_SASS_TMML, 0, 0, 51, 0x1beb,
     NF(COMMON, FX(20, 8, FK_UNUSED_RB), TYPEMASK, FU(35, 1, ndv), FX(36, 13, FK_TID), FU(49, 1, nodep),
        FZ(50, 1))},
    {"TMML.B", TV_SASS_TMML, 1, 0, 51, 0x1bec,
     NF(COMMON, FU(20, 8, rb), TYPEMASK, FU(35, 1, ndv), FZ(36, 13), FU(49, 1, nodep),
        FZ(50, 1))},
    {"TXQ", TV_SASS_TXQ, 0, 0, 51, 0x1be9,
     NF(COMMON, FZ(20, 2), FU(22, 6, query), FZ(28, 3), FU(31, 4, wmask), FZ(35, 1),
        FX(36, 13, FK_TID), FU(49, 1, nodep), FZ(50, 1))},
    {"TXQ.B", TV_SASS_TXQ, 1, 0, 51, 0x1bea,
     NF(COMMON, FZ(20, 2), FU(22, 6, query), FZ(28, 3), FU(31, 4, wmask), FZ(35, 1),
        FZ(36, 13), FU(49, 1, nodep), FZ(50, 1))},
    {"TXD", TV_SASS_TXD, 0, 0, 54, 0x378,
     NF(COMMON, FU(20, 8, rb), TYPEMASK, FU(35, 1, aoffi), FX(36, 13, FK_TID),
        FU(49, 1, nodep), FU(50, 1, lc), FU(51, 3, pd))},
    {"TXD.B", TV_SASS_TXD, 1, 0, 54, 0x379,
     NF(COMMON, FU(20, 8, rb), TYPEMASK, FU(35, 1, aoffi), FZ(36, 13),
        FU(49, 1, nodep), FU(50, 1, lc), FU(51, 3, pd))},
};
const size_t sass_num_forms = sizeof sass_forms / sizeof sass_forms[0];

const sass_form *sass_form_for(const tv_sass_insn *in)
{
    for (size_t i = 0; i < sass_num_forms; i++)
        if (sass_forms[i].op == in->op && sass_forms[i].bindless == !!in->bindless &&
            sass_forms[i].f16 == !!in->f16)
            return &sass_forms[i];
    return NULL;
}

/* MULTI_SAMPLE_COUNT code -> samples (reference §1.2: 1X1, 2X1, 2X2, 4X2, 4X2_D3D,
 * 2X1_D3D, 4X4, -, 2X2_VC_4, 2X2_VC_12, 4X2_VC_8, 4X2_VC_24, 2X1_CENTER, 2X2_CENTER,
 * 4X2_CENTER, 4X4_REGULAR). */
unsigned sass_msaa_samples(unsigned code)
{
    static const uint8_t samples[16] = {1, 2, 4, 8, 8, 2, 16, 0, 4, 4, 8, 8, 2, 4, 8, 16};
    return code < 16 ? samples[code] : 0;
}
