/* The texture opcodes' operand layouts and the TGSI targets' coordinate layouts, as data
 * (../shared/reference/tgsi-text.md §12, sampling.md §10; docs/vm-semantics.md §5 "Texture
 * opcodes"). */
#include "vm/vm_ops_tex.h"

#define OPB(x) (1u << TV_TEX_OP_##x)
#define S_OPS (OPB(SAMPLE) | OPB(SAMPLE_BIAS) | OPB(SAMPLE_LOD) | OPB(SAMPLE_LZ) | \
               OPB(SAMPLE_GRAD) | OPB(QUERY_LOD))
#define G_OPS OPB(GATHER)
#define F_OPS OPB(FETCH)
#define Q_OPS (OPB(QUERY_DIM) | OPB(QUERY_SAMPLES) | OPB(QUERY_SAMPLE_POS))

/*          tv target               dims layer ref sample shadow cube_array ops */
#define TG(t, d, l, r, s, sh, ca, ops) {TV_TEXTGT_##t, d, l, r, s, sh, ca, ops}
static const vm_tex_tgtrow tgtrows[TV_TGT_COUNT] = {
    [TV_TGT_BUFFER] = TG(1D_BUFFER, 1, -1, -1, -1, false, false, F_OPS | Q_OPS),
    [TV_TGT_1D] = TG(1D, 1, -1, -1, -1, false, false, S_OPS | F_OPS | Q_OPS),
    [TV_TGT_2D] = TG(2D, 2, -1, -1, -1, false, false, S_OPS | G_OPS | F_OPS | Q_OPS),
    [TV_TGT_3D] = TG(3D, 3, -1, -1, -1, false, false, S_OPS | F_OPS | Q_OPS),
    [TV_TGT_CUBE] = TG(CUBE, 3, -1, -1, -1, false, false, S_OPS | G_OPS | Q_OPS),
    [TV_TGT_RECT] = TG(2D_RECT, 2, -1, -1, -1, false, false, S_OPS | G_OPS | F_OPS | Q_OPS),
    [TV_TGT_SHADOW1D] = TG(1D, 1, -1, 2, -1, true, false, S_OPS | Q_OPS),
    [TV_TGT_SHADOW2D] = TG(2D, 2, -1, 2, -1, true, false, S_OPS | G_OPS | Q_OPS),
    [TV_TGT_SHADOWRECT] = TG(2D_RECT, 2, -1, 2, -1, true, false, S_OPS | G_OPS | Q_OPS),
    [TV_TGT_1D_ARRAY] = TG(1D_ARRAY, 1, 1, -1, -1, false, false, S_OPS | F_OPS | Q_OPS),
    [TV_TGT_2D_ARRAY] = TG(2D_ARRAY, 2, 2, -1, -1, false, false,
                           S_OPS | G_OPS | F_OPS | Q_OPS),
    [TV_TGT_SHADOW1D_ARRAY] = TG(1D_ARRAY, 1, 1, 2, -1, true, false, S_OPS | Q_OPS),
    [TV_TGT_SHADOW2D_ARRAY] = TG(2D_ARRAY, 2, 2, 3, -1, true, false, S_OPS | G_OPS | Q_OPS),
    [TV_TGT_SHADOWCUBE] = TG(CUBE, 3, -1, 3, -1, true, false, S_OPS | G_OPS | Q_OPS),
    /* sample index in .w for both MSAA targets: tgsi.rst, and what Mesa 22.3's
     * nir_to_tgsi emits (tgsi_util's layout would put it in .z for 2D_MSAA) */
    [TV_TGT_2D_MSAA] = TG(2D_MS, 2, -1, -1, 3, false, false, F_OPS | Q_OPS),
    [TV_TGT_2D_ARRAY_MSAA] = TG(2D_MS_ARRAY, 2, 2, -1, 3, false, false, F_OPS | Q_OPS),
    [TV_TGT_CUBE_ARRAY] = TG(CUBE_ARRAY, 3, 3, -1, -1, false, true, S_OPS | G_OPS | Q_OPS),
    [TV_TGT_SHADOWCUBE_ARRAY] = TG(CUBE_ARRAY, 3, 3, VM_TEX_REF_EXTRA, -1, true, true,
                                   S_OPS | G_OPS | Q_OPS),
};

/* opcode, tv op, d3d, nsrc, coord, res, samp, extra, extra2, arg, ref_extra, compare,
 * level0, replicate, res_swizzle */
#define R(name, op, d3d, n, c, r, s, e, e2, arg, re, cmp, l0, rep, swz)                         \
    [TV_TGSI_OP_##name] = {TV_TGSI_OP_##name, TV_TEX_OP_##op, d3d, n, c, r, s, e, e2,           \
                           VM_TA_##arg, re, cmp, l0, rep, swz}
static const vm_tex_oprow oprows[TV_TGSI_OP_LAST + 1] = {
    /* TEX family: SAMP[n] names sampler n and view n; the target is an operand */
    R(TEX, SAMPLE, false, 2, 0, 1, -1, -1, -1, NONE, -1, false, false, false, false),
    R(TEX_LZ, SAMPLE_LZ, false, 2, 0, 1, -1, -1, -1, NONE, -1, false, false, false, false),
    R(TXB, SAMPLE_BIAS, false, 2, 0, 1, -1, -1, -1, BIAS_W, -1, false, false, false, false),
    R(TXL, SAMPLE_LOD, false, 2, 0, 1, -1, -1, -1, LOD_W, -1, false, false, false, false),
    R(TXP, SAMPLE, false, 2, 0, 1, -1, -1, -1, PROJ_W, -1, false, false, false, false),
    R(TEX2, SAMPLE, false, 3, 0, 2, -1, 1, -1, NONE, 0, false, false, false, false),
    R(TXB2, SAMPLE_BIAS, false, 3, 0, 2, -1, 1, -1, BIAS_X, 1, false, false, false, false),
    R(TXL2, SAMPLE_LOD, false, 3, 0, 2, -1, 1, -1, LOD_X, 1, false, false, false, false),
    R(TXD, SAMPLE_GRAD, false, 4, 0, 3, -1, 1, 2, GRAD, -1, false, false, false, false),
    R(TXF, FETCH, false, 2, 0, 1, -1, -1, -1, NONE, -1, false, false, false, false),
    R(TXF_LZ, FETCH, false, 2, 0, 1, -1, -1, -1, NONE, -1, false, true, false, false),
    R(TXQ, QUERY_DIM, false, 2, 0, 1, -1, -1, -1, LEVEL_X, -1, false, false, false, false),
    R(TXQS, QUERY_SAMPLES, false, 1, -1, 0, -1, -1, -1, NONE, -1, false, false, false, false),
    R(TG4, GATHER, false, 3, 0, 2, -1, 1, -1, COMP_X, 0, false, false, false, false),
    R(LODQ, QUERY_LOD, false, 2, 0, 1, -1, -1, -1, NONE, -1, false, false, false, false),
    /* D3D10 forms: target from DCL SVIEW, result swizzled by the SVIEW operand */
    R(SAMPLE, SAMPLE, true, 3, 0, 1, 2, -1, -1, NONE, -1, false, false, false, true),
    R(SAMPLE_I, FETCH, true, 2, 0, 1, -1, -1, -1, NONE, -1, false, false, false, true),
    R(SAMPLE_I_MS, FETCH, true, 3, 0, 1, -1, 2, -1, SAMPLE_X, -1, false, false, false, true),
    R(SAMPLE_B, SAMPLE_BIAS, true, 4, 0, 1, 2, 3, -1, BIAS_X, -1, false, false, false, true),
    R(SAMPLE_C, SAMPLE, true, 4, 0, 1, 2, 3, -1, REF_X, -1, true, false, true, true),
    R(SAMPLE_C_LZ, SAMPLE_LZ, true, 4, 0, 1, 2, 3, -1, REF_X, -1, true, false, true, true),
    R(SAMPLE_D, SAMPLE_GRAD, true, 5, 0, 1, 2, 3, 4, GRAD, -1, false, false, false, true),
    R(SAMPLE_L, SAMPLE_LOD, true, 4, 0, 1, 2, 3, -1, LOD_X, -1, false, false, false, true),
    R(GATHER4, GATHER, true, 3, 0, 1, 2, -1, -1, NONE, -1, false, false, false, true),
    R(SVIEWINFO, QUERY_DIM, true, 2, 0, 1, -1, -1, -1, LEVEL_X, -1, false, false, false, true),
    R(SAMPLE_POS, QUERY_SAMPLE_POS, true, 2, -1, 0, -1, 1, -1, SAMPLE_X, -1, false, false,
      false, false),
    R(SAMPLE_INFO, QUERY_SAMPLES, true, 1, -1, 0, -1, -1, -1, NONE, -1, false, false, false,
      false),
    R(LOD, QUERY_LOD, true, 3, 0, 1, 2, -1, -1, NONE, -1, false, false, false, true),
};

/* Indexed by opcode (the handler looks its row up per warp); absent opcodes are zero
 * rows, which have no sources. */
const vm_tex_oprow *vm_tex_oprow_get(unsigned opcode)
{
    if (opcode > TV_TGSI_OP_LAST || !oprows[opcode].nsrc)
        return NULL;
    return &oprows[opcode];
}

const vm_tex_tgtrow *vm_tex_tgtrow_get(unsigned tgsi_target)
{
    if (tgsi_target >= TV_TGT_COUNT || tgsi_target == TV_TGT_UNKNOWN)
        return NULL;
    return &tgtrows[tgsi_target];
}
