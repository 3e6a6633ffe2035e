/* The default instruction of an opcode. */
#include "sass/sass_internal.h"

#include <string.h>

void tv_sass_insn_init(tv_sass_insn *in, tv_sass_op op)
{
    memset(in, 0, sizeof *in);
    in->op = (uint8_t)op;
    in->rd = in->rd2 = in->ra = in->rb = TV_SASS_RZ;
    in->pd = TV_SASS_PT;
    in->pg = TV_SASS_PT;
    in->wmask = 0xf;
    in->type = op == TV_SASS_TLD4S ? TV_SASS_2D : TV_SASS_1D;
    in->ann_req = in->ann_rd = in->ann_wr = -1;
}
