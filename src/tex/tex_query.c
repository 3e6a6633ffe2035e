/* Header queries (sampling.md §8.4–8.5, nvidia-texture.md §5.4): dimensions of a view level
 * by header type, level count, sample count, standard sample positions, texture type.
 * Queries answer from the header whatever the request target says. */
#include <string.h>

#include "tex/tex_sampling.h"
#include "util/half.h"

/* D3D standard pattern in 1/16 pixel from the centre (x right, y down). */
static const int8_t pos1[1][2] = {{0, 0}};
static const int8_t pos2[2][2] = {{4, 4}, {-4, -4}};
static const int8_t pos4[4][2] = {{-2, -6}, {6, -2}, {-6, 2}, {2, 6}};
static const int8_t pos8[8][2] = {{1, -3}, {-1, 3}, {5, 1}, {-3, -5},
                                  {-5, 5}, {-7, -1}, {3, 7}, {7, -7}};
static const int8_t pos16[16][2] = {{1, 1}, {-1, -3}, {-3, 2}, {4, -1}, {-5, -2}, {2, 5},
                                    {5, 3}, {3, -5}, {-2, 6}, {0, -7}, {-4, -6}, {-6, 4},
                                    {-8, 0}, {7, -4}, {6, 7}, {-7, -8}};

bool tv_tex_sample_position(unsigned samples, unsigned index, float *x, float *y)
{
    const int8_t(*tab)[2];
    switch (samples) {
    case 1: tab = pos1; break;
    case 2: tab = pos2; break;
    case 4: tab = pos4; break;
    case 8: tab = pos8; break;
    case 16: tab = pos16; break;
    default: return false;
    }
    if (index >= samples)
        return false;
    if (x)
        *x = 0.5f + tab[index][0] / 16.0f;
    if (y)
        *y = 0.5f + tab[index][1] / 16.0f;
    return true;
}

/* Which size goes in y and z for each header type (0 none, 1 height, 2 depth, 3 layers). */
enum { Q_NONE, Q_H, Q_D, Q_LAYERS };
static const struct {
    uint8_t y, z;
    bool mipmapped;
} dim_rules[9] = {
    [TV_TEX_1D] = {Q_NONE, Q_NONE, true},
    [TV_TEX_2D] = {Q_H, Q_NONE, true},
    [TV_TEX_3D] = {Q_H, Q_D, true},
    [TV_TEX_CUBE] = {Q_H, Q_NONE, true},
    [TV_TEX_1D_ARRAY] = {Q_LAYERS, Q_NONE, true},
    [TV_TEX_2D_ARRAY] = {Q_H, Q_LAYERS, true},
    [TV_TEX_1D_BUFFER] = {Q_NONE, Q_NONE, false},
    [TV_TEX_2D_NO_MIPMAP] = {Q_H, Q_NONE, false},
    [TV_TEX_CUBE_ARRAY] = {Q_H, Q_LAYERS, true},
};

static void query_dim(const tex_view *v, int32_t lod, uint32_t out[4])
{
    unsigned type = v->type < 9 ? v->type : TV_TEX_2D;
    uint32_t base = v->base_level < v->levels ? v->base_level : v->levels - 1;
    uint32_t last = v->max_level < v->levels ? v->max_level : v->levels - 1;
    uint32_t levels = dim_rules[type].mipmapped ? (last >= base ? last - base + 1 : 1) : 1;
    out[3] = levels;
    if (lod < 0 || (uint32_t)lod >= levels)
        return;
    uint32_t abs = base + (uint32_t)lod;
    uint32_t vals[4] = {0, tex_level_height(v, abs), tex_level_depth(v, abs), v->layers};
    out[0] = type == TV_TEX_1D_BUFFER ? v->width : tex_level_width(v, abs);
    out[1] = vals[dim_rules[type].y];
    out[2] = vals[dim_rules[type].z];
}

void tex_query_lane(const tex_view *v, const tv_tex_request *req, unsigned lane,
                    uint32_t out[4])
{
    memset(out, 0, 4 * sizeof(uint32_t));
    switch (req->op) {
    case TV_TEX_OP_QUERY_DIM:
        query_dim(v, req->lod_i[lane], out);
        break;
    case TV_TEX_OP_QUERY_SAMPLES:
        out[0] = v->samples;
        break;
    case TV_TEX_OP_QUERY_SAMPLE_POS: {
        float x, y;
        int32_t idx = req->sample[lane];
        if (idx >= 0 && tv_tex_sample_position(v->samples, (unsigned)idx, &x, &y)) {
            out[0] = tv_f32_bits(x);
            out[1] = tv_f32_bits(y);
        }
        break;
    }
    case TV_TEX_OP_QUERY_TYPE:
        out[0] = v->type;
        out[2] = v->samples;
        break;
    default:
        break;
    }
}
