/* The view swizzle of the TIC (X/Y/Z/W_SOURCE), applied after filtering. */
#include "tex/tex_internal.h"

void tex_apply_swizzle(const tex_view *v, const uint32_t in[4], uint32_t out[4])
{
    uint32_t src[4] = {in[0], in[1], in[2], in[3]};
    for (int c = 0; c < 4; c++) {
        switch (v->tic.source[c]) {
        case TV_TIC_SOURCE_R: out[c] = src[0]; break;
        case TV_TIC_SOURCE_G: out[c] = src[1]; break;
        case TV_TIC_SOURCE_B: out[c] = src[2]; break;
        case TV_TIC_SOURCE_A: out[c] = src[3]; break;
        case TV_TIC_SOURCE_ONE_INT: out[c] = 1u; break;
        case TV_TIC_SOURCE_ONE_FLOAT: out[c] = 0x3f800000u; break;
        default: out[c] = 0; break;      /* ZERO and the undefined code 1 */
        }
    }
}
