/* BC7 (BPTC UNORM) block decoding. */
#include "tex/format.h"

void tex_bc7_texel(const uint8_t *blk, unsigned x, unsigned y, uint8_t rgba[4])
{
    (void)blk; (void)x; (void)y;
    rgba[0] = rgba[1] = rgba[2] = rgba[3] = 0;   /* TODO(texdata): BC7 modes */
}
