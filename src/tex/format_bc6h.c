/* BC6H (BPTC float) block decoding. */
#include "tex/format.h"

void tex_bc6h_texel(const uint8_t *blk, unsigned x, unsigned y, bool is_signed, float rgb[3])
{
    (void)blk; (void)x; (void)y; (void)is_signed;
    rgb[0] = rgb[1] = rgb[2] = 0.0f;             /* TODO(texdata): BC6H modes */
}
