/* API-semantics border colours: pre-swizzle a sampler's border for one header
 * (see tv_tsc_border_for_header in tex.h). */
#include "texvm/tex.h"

enum { SRC_R = 2, SRC_A = 5 };

void tv_tsc_border_for_header(tv_tsc *tsc, const tv_tic *tic)
{
    uint32_t border[4], srgb[4];
    for (unsigned c = 0; c < 4; c++) {
        border[c] = tsc->border_color[c];
        srgb[c] = c < 3 ? tsc->srgb_border_color[c] : 0;
    }
    uint32_t out[4], out_srgb[4];
    for (unsigned c = 0; c < 4; c++) {
        out[c] = border[c];
        out_srgb[c] = srgb[c];
    }
    /* Highest channel first, so the lowest channel reading a component wins. */
    for (int c = 3; c >= 0; c--) {
        unsigned src = tic->source[c];
        if (src >= SRC_R && src <= SRC_A) {
            out[src - SRC_R] = border[c];
            out_srgb[src - SRC_R] = srgb[c];
        }
    }
    for (unsigned c = 0; c < 4; c++)
        tsc->border_color[c] = out[c];
    for (unsigned c = 0; c < 3; c++)
        tsc->srgb_border_color[c] = (uint8_t)out_srgb[c];
}
