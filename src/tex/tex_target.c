/* Request targets: coordinate layout, the header types each may address (the array /
 * non-array equivalences of the SASS pages) and the operations defined on it. */
#include "tex/tex_sampling.h"

#define T(x) (1u << TV_TEX_##x)
#define OP(x) (1u << TV_TEX_OP_##x)

/* Operations that take float coordinates and filter. */
#define OPS_SAMPLE (OP(SAMPLE) | OP(SAMPLE_BIAS) | OP(SAMPLE_LOD) | OP(SAMPLE_LZ) | \
                    OP(SAMPLE_GRAD) | OP(QUERY_LOD))
#define OPS_QUERY (OP(QUERY_DIM) | OP(QUERY_SAMPLES) | OP(QUERY_SAMPLE_POS) | OP(QUERY_TYPE))

static const tex_target_info targets[TV_TEXTGT_COUNT] = {
    [TV_TEXTGT_1D] = {"1D", 1, false, false, false,
                      T(1D) | T(1D_ARRAY) | T(1D_BUFFER), OPS_SAMPLE | OP(FETCH) | OPS_QUERY},
    [TV_TEXTGT_1D_BUFFER] = {"1D_BUFFER", 1, false, false, false, T(1D_BUFFER),
                             OP(FETCH) | OPS_QUERY},
    [TV_TEXTGT_2D] = {"2D", 2, false, false, false, T(2D) | T(2D_ARRAY) | T(2D_NO_MIPMAP),
                      OPS_SAMPLE | OP(GATHER) | OP(FETCH) | OPS_QUERY},
    [TV_TEXTGT_2D_RECT] = {"2D_RECT", 2, false, false, false,
                           T(2D) | T(2D_ARRAY) | T(2D_NO_MIPMAP),
                           OPS_SAMPLE | OP(GATHER) | OP(FETCH) | OPS_QUERY},
    [TV_TEXTGT_3D] = {"3D", 3, false, false, false, T(3D), OPS_SAMPLE | OP(FETCH) | OPS_QUERY},
    [TV_TEXTGT_CUBE] = {"CUBE", 2, false, true, false, T(CUBE) | T(CUBE_ARRAY),
                        OPS_SAMPLE | OP(GATHER) | OPS_QUERY},
    [TV_TEXTGT_1D_ARRAY] = {"1D_ARRAY", 1, true, false, false, T(1D) | T(1D_ARRAY),
                            OPS_SAMPLE | OP(FETCH) | OPS_QUERY},
    [TV_TEXTGT_2D_ARRAY] = {"2D_ARRAY", 2, true, false, false,
                            T(2D) | T(2D_ARRAY) | T(2D_NO_MIPMAP),
                            OPS_SAMPLE | OP(GATHER) | OP(FETCH) | OPS_QUERY},
    [TV_TEXTGT_CUBE_ARRAY] = {"CUBE_ARRAY", 2, true, true, false, T(CUBE) | T(CUBE_ARRAY),
                              OPS_SAMPLE | OP(GATHER) | OPS_QUERY},
    [TV_TEXTGT_2D_MS] = {"2D_MS", 2, false, false, true, T(2D) | T(2D_ARRAY) | T(2D_NO_MIPMAP),
                         OP(FETCH) | OPS_QUERY},
    [TV_TEXTGT_2D_MS_ARRAY] = {"2D_MS_ARRAY", 2, true, false, true,
                               T(2D) | T(2D_ARRAY) | T(2D_NO_MIPMAP), OP(FETCH) | OPS_QUERY},
};

const tex_target_info *tex_target_get(unsigned target)
{
    return target < TV_TEXTGT_COUNT ? &targets[target] : NULL;
}
