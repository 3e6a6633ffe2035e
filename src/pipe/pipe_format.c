/* Gallium format numbers (as virgl's virgl_hw.h numbers them) -> texvm format rows.
 * Only formats with a row in include/texvm/tex_formats.def appear: the rest are
 * unknown to the pipe layer and refused by name. */
#include "pipe_internal.h"

#include <stddef.h>

typedef struct pipe_format_row {
    uint32_t num;
    const char *name; /* texvm / Gallium name without PIPE_FORMAT_ */
} pipe_format_row;

static const pipe_format_row rows[] = {
    {1, "B8G8R8A8_UNORM"},     {2, "B8G8R8X8_UNORM"},     {5, "B5G5R5A1_UNORM"},
    {6, "B4G4R4A4_UNORM"},     {7, "B5G6R5_UNORM"},       {8, "R10G10B10A2_UNORM"},
    {9, "L8_UNORM"},           {10, "A8_UNORM"},          {11, "I8_UNORM"},
    {12, "L8A8_UNORM"},        {16, "Z16_UNORM"},         {18, "Z32_FLOAT"},
    {19, "Z24_UNORM_S8_UINT"}, {20, "S8_UINT_Z24_UNORM"}, {21, "Z24X8_UNORM"},
    {28, "R32_FLOAT"},         {29, "R32G32_FLOAT"},      {30, "R32G32B32_FLOAT"},
    {31, "R32G32B32A32_FLOAT"}, {48, "R16_UNORM"},        {49, "R16G16_UNORM"},
    {51, "R16G16B16A16_UNORM"}, {56, "R16_SNORM"},        {57, "R16G16_SNORM"},
    {59, "R16G16B16A16_SNORM"}, {64, "R8_UNORM"},         {65, "R8G8_UNORM"},
    {67, "R8G8B8A8_UNORM"},    {74, "R8_SNORM"},          {75, "R8G8_SNORM"},
    {77, "R8G8B8A8_SNORM"},    {91, "R16_FLOAT"},         {92, "R16G16_FLOAT"},
    {94, "R16G16B16A16_FLOAT"}, {95, "L8_SRGB"},          {96, "L8A8_SRGB"},
    {100, "B8G8R8A8_SRGB"},    {104, "R8G8B8A8_SRGB"},    {124, "R11G11B10_FLOAT"},
    {125, "R9G9B9E5_FLOAT"},   {126, "Z32_FLOAT_S8X24_UINT"}, {131, "B10G10R10A2_UNORM"},
    {134, "R8G8B8X8_UNORM"},   {136, "X24S8_UINT"},       {137, "S8X24_UINT"},
    {138, "X32_S8X24_UINT"},   {177, "R8_UINT"},          {178, "R8G8_UINT"},
    {180, "R8G8B8A8_UINT"},    {181, "R8_SINT"},          {182, "R8G8_SINT"},
    {184, "R8G8B8A8_SINT"},    {185, "R16_UINT"},         {186, "R16G16_UINT"},
    {188, "R16G16B16A16_UINT"}, {189, "R16_SINT"},        {190, "R16G16_SINT"},
    {192, "R16G16B16A16_SINT"}, {193, "R32_UINT"},        {194, "R32G32_UINT"},
    {195, "R32G32B32_UINT"},   {196, "R32G32B32A32_UINT"}, {197, "R32_SINT"},
    {198, "R32G32_SINT"},      {199, "R32G32B32_SINT"},   {200, "R32G32B32A32_SINT"},
    {253, "R10G10B10A2_UINT"}, {312, "R8_SRGB"},
};

tv_format pipe_format_lookup(uint32_t format)
{
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        if (rows[i].num == format)
            return tv_format_from_name(rows[i].name);
    return TV_FORMAT_NONE;
}

const char *tv_pipe_format_name(uint32_t format)
{
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        if (rows[i].num == format)
            return rows[i].name;
    return NULL;
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
