/* API-semantics border colours: the sRGB border bytes from the float border, and the
 * border pre-swizzled for one header (see tv_tsc_srgb_border, tv_tsc_border_for_header in
 * tex.h). */
#include "texvm/tex.h"

#include <math.h>
#include <string.h>

void tv_tsc_srgb_border(tv_tsc *tsc)
{
    for (int k = 0; k < 3; k++) {
        float f;
        memcpy(&f, &tsc->border_color[k], 4);
        double c = isnan(f) ? 0.0 : f < 0 ? 0.0 : f > 1 ? 1.0 : f;
        c = c <= 0.0031308 ? c * 12.92 : 1.055 * pow(c, 1 / 2.4) - 0.055;
        tsc->srgb_border_color[k] = (uint8_t)nearbyint(c * 255.0);
    }
}

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
