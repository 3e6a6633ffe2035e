/* Tables and bit reading shared by the BPTC decoders (BC6H, BC7): partitions and anchor
 * texels as the BC7 specification lists them (D3D11 functional spec §19.5.5, Khronos Data
 * Format spec "BPTC"). Cross-checked: the 2-subset table equals the well-known mask list
 * 0xcccc, 0x8888, 0xeeee … 0xee22, and every table was re-derived from an independent
 * decoder (Pillow's BcnDecode) by probing blocks — see docs/texture-unit-formats.md. */
#include "tex/format.h"

/* 2-subset partitions: subset of texel i in bits [2i+1:2i] */
const uint32_t tex_bptc_part2[64] = {
    0x50505050, 0x40404040, 0x54545454, 0x54505040, 0x50404000, 0x55545450, 0x55545040, 0x54504000,
    0x50400000, 0x55555450, 0x55544000, 0x54400000, 0x55555440, 0x55550000, 0x55555500, 0x55000000,
    0x55150100, 0x00004054, 0x15010000, 0x00405054, 0x00004050, 0x15050100, 0x05010000, 0x40505054,
    0x00404050, 0x05010100, 0x14141414, 0x05141450, 0x01155440, 0x00555500, 0x15014054, 0x05414150,
    0x44444444, 0x55005500, 0x11441144, 0x05055050, 0x05500550, 0x11114444, 0x41144114, 0x44111144,
    0x15055054, 0x01055040, 0x05041050, 0x05455150, 0x14414114, 0x50050550, 0x41411414, 0x00141400,
    0x00041504, 0x00105410, 0x10541000, 0x04150400, 0x50410514, 0x41051450, 0x05415014, 0x14054150,
    0x41050514, 0x41505014, 0x40011554, 0x54150140, 0x50505500, 0x00555050, 0x15151010, 0x54540404,
};
/* 3-subset partitions */
const uint32_t tex_bptc_part3[64] = {
    0xaa685050, 0x6a5a5040, 0x5a5a4200, 0x5450a0a8, 0xa5a50000, 0xa0a05050, 0x5555a0a0, 0x5a5a5050,
    0xaa550000, 0xaa555500, 0xaaaa5500, 0x90909090, 0x94949494, 0xa4a4a4a4, 0xa9a59450, 0x2a0a4250,
    0xa5945040, 0x0a425054, 0xa5a5a500, 0x55a0a0a0, 0xa8a85454, 0x6a6a4040, 0xa4a45000, 0x1a1a0500,
    0x0050a4a4, 0xaaa59090, 0x14696914, 0x69691400, 0xa08585a0, 0xaa821414, 0x50a4a450, 0x6a5a0200,
    0xa9a58000, 0x5090a0a8, 0xa8a09050, 0x24242424, 0x00aa5500, 0x24924924, 0x24499224, 0x50a50a50,
    0x500aa550, 0xaaaa4444, 0x66660000, 0xa5a0a5a0, 0x50a050a0, 0x69286928, 0x44aaaa44, 0x66666600,
    0xaa444444, 0x54a854a8, 0x95809580, 0x96969600, 0xa85454a8, 0x80959580, 0xaa141414, 0x96960000,
    0xaaaa1414, 0xa05050a0, 0xa0a5a5a0, 0x96000000, 0x40804080, 0xa9a8a9a8, 0xaaaaaa44, 0x2a4a5254,
};
/* anchor texel of subset 1 (2 subsets) */
const uint8_t tex_bptc_anchor2[64] = {
    15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15,
    15, 2, 8, 2, 2, 8, 8, 15, 2, 8, 2, 2, 8, 8, 2, 2,
    15, 15, 6, 8, 2, 8, 15, 15, 2, 8, 2, 2, 2, 15, 15, 6,
    6, 2, 6, 8, 15, 15, 2, 2, 15, 15, 15, 15, 15, 2, 2, 15,
};
/* anchor texels of subsets 1 and 2 (3 subsets) */
const uint8_t tex_bptc_anchor3[64][2] = {
    {3, 15}, {3, 8}, {15, 8}, {15, 3}, {8, 15}, {3, 15}, {15, 3}, {15, 8},
    {8, 15}, {8, 15}, {6, 15}, {6, 15}, {6, 15}, {5, 15}, {3, 15}, {3, 8},
    {3, 15}, {3, 8}, {8, 15}, {15, 3}, {3, 15}, {3, 8}, {6, 15}, {10, 8},
    {5, 3}, {8, 15}, {8, 6}, {6, 10}, {8, 15}, {5, 15}, {15, 10}, {15, 8},
    {8, 15}, {15, 3}, {3, 15}, {5, 10}, {6, 10}, {10, 8}, {8, 9}, {15, 10},
    {15, 6}, {3, 15}, {15, 8}, {5, 15}, {15, 3}, {15, 6}, {15, 6}, {15, 8},
    {3, 15}, {15, 3}, {5, 15}, {5, 15}, {5, 15}, {8, 15}, {5, 15}, {10, 15},
    {5, 15}, {10, 15}, {8, 15}, {13, 15}, {15, 3}, {12, 15}, {3, 15}, {3, 8},
};

const uint8_t tex_bptc_weights2[4] = {0, 21, 43, 64};
const uint8_t tex_bptc_weights3[8] = {0, 9, 18, 27, 37, 46, 55, 64};
const uint8_t tex_bptc_weights4[16] = {0, 4, 9, 13, 17, 21, 26, 30, 34, 38, 43, 47, 51, 55, 60, 64};

uint32_t tex_bptc_bits(const uint8_t *blk, unsigned pos, unsigned n)
{
    uint32_t v = 0;
    for (unsigned i = 0; i < n && pos + i < 128; i++)
        v |= (uint32_t)((blk[(pos + i) / 8] >> ((pos + i) % 8)) & 1) << i;
    return v;
}

/* Index of texel t in an index stream starting at `pos` with `bits` bits per index,
 * where the anchor texels (a list of `nanchors`) store one bit less. */
uint32_t tex_bptc_index(const uint8_t *blk, unsigned pos, unsigned bits, unsigned t,
                        const uint8_t *anchors, unsigned nanchors)
{
    for (unsigned i = 0; i < t; i++) {
        bool anchor = false;
        for (unsigned a = 0; a < nanchors; a++)
            anchor |= anchors[a] == i;
        pos += anchor ? bits - 1 : bits;
    }
    bool anchor = false;
    for (unsigned a = 0; a < nanchors; a++)
        anchor |= anchors[a] == t;
    return tex_bptc_bits(blk, pos, anchor ? bits - 1 : bits);
}
