/* Texture opcodes of the TGSI engine (issue 5): the operand layouts as data
 * (vm_ops_tex_table.c), the lowering to one texture micro-op (vm_lower_tex.c) and its
 * handler, which turns the warp's active lanes into tv_tex_request calls (vm_ops_tex.c).
 *
 * Lowering copies every per-lane operand the request needs into a fixed block of scratch
 * slots (all 32 lanes, not only the active ones, so quad neighbours that are present but
 * inactive still feed implicit derivatives). The texture micro-op then reads:
 *   src[0]  first slot of the operand block (layout VM_TB_*)
 *   src[1]  direct resource index (SAMP of the TEX family, SVIEW of the D3D forms)
 *   src[2]  direct sampler index (D3D forms; = src[1] for the TEX family)
 *   src[3]  result swizzle (2 bits per channel; identity 0xe4)
 *   src[4]  gather component (when not per lane)
 *   src[5]  number of block slots allocated (entries past it read as zeros)
 *   src[6..11] with VM_TXF_DIRECT (a block of at most VM_TB_DIRECT entries, the plain
 *           TEX/TXB/TXL/TXP/SAMPLE forms): no block; entry k is read from slot
 *           src[VM_TB_DIRECT_AT + k] in place (0, the zero slot, where unused)
 *   aux     TGSI opcode, aux2 VM_TXF_* flags, aux3 TGSI target
 *   dst[0..3] four result slots: the destination's own slots for the written channels
 *           of a direct destination without _SAT (scratch slots for the others), else
 *           scratch slots committed to the destination by writemask afterwards. */
#ifndef TEXVM_VM_OPS_TEX_H
#define TEXVM_VM_OPS_TEX_H

#include "vm/vm_internal.h"

/* Operand block layout (slot offsets from src[0]); the block is allocated up to its last
 * used entry, so a plain TEX takes 6 scratch slots. */
enum {
    VM_TB_RES = 0,      /* per-lane resource index, or bindless handle */
    VM_TB_SAMP = 1,     /* per-lane sampler index */
    VM_TB_COORD = 2,    /* src coordinates x, y, z, w */
    VM_TB_EXTRA = 6,    /* first extra vec4 source (TXD ddx, TEX2/TXB2/TXL2/TG4 src1, …) */
    VM_TB_EXTRA2 = 10,  /* second extra vec4 source (TXD / SAMPLE_D ddy) */
    VM_TB_OFF = 14,     /* texel offsets: offset k component c at 14 + 3k + c (k < 4) */
    VM_TB_SIZE = 26,
    VM_TB_DIRECT = 6,   /* blocks up to this size are read in place (VM_TXF_DIRECT) */
    VM_TB_DIRECT_AT = VM_UOP_TEX_SLOTS_AT /* ... from the slots in src[6 .. 6 + size)
                                             (vm_uop_slot_fields lists them) */
};

/* Flags of the texture micro-op (aux2). */
enum {
    VM_TXF_OFFSETS = 1u << 0,      /* one texel offset in VM_TB_OFF */
    VM_TXF_OFFSETS4 = 1u << 1,     /* four gather offsets */
    VM_TXF_RES_LANE = 1u << 2,     /* VM_TB_RES holds a per-lane index (indirect) */
    VM_TXF_BINDLESS = 1u << 3,     /* VM_TB_RES holds a per-lane handle */
    VM_TXF_SAMP_LANE = 1u << 4,    /* VM_TB_SAMP holds a per-lane sampler index */
    VM_TXF_COMP_LANE = 1u << 5,    /* gather component per lane in VM_TB_EXTRA.x */
    VM_TXF_RT = 1u << 6,           /* SAMPLE_POS / SAMPLE_INFO on the render target */
    VM_TXF_DIRECT = 1u << 7        /* operands in place: src[VM_TB_DIRECT_AT + k] */
};

/* What the extra operands hold. */
typedef enum vm_tex_arg {
    VM_TA_NONE,
    VM_TA_BIAS_W,       /* bias in coord.w (TXB) */
    VM_TA_LOD_W,        /* lod in coord.w (TXL) */
    VM_TA_PROJ_W,       /* projective divisor in coord.w (TXP) */
    VM_TA_BIAS_X,       /* bias in extra.x (TXB2, SAMPLE_B) */
    VM_TA_LOD_X,        /* lod in extra.x (TXL2, SAMPLE_L) */
    VM_TA_REF_X,        /* depth reference in extra.x (SAMPLE_C, SAMPLE_C_LZ) */
    VM_TA_GRAD,         /* ddx in extra, ddy in extra2 (TXD, SAMPLE_D) */
    VM_TA_COMP_X,       /* gather component in extra.x (TG4) */
    VM_TA_SAMPLE_X,     /* sample index in extra.x (SAMPLE_I_MS, SAMPLE_POS) */
    VM_TA_LEVEL_X       /* level in coord.x (TXQ, SVIEWINFO) */
} vm_tex_arg;

/* Operand layout of one texture opcode (tgsi-text.md §12, sampling.md §10). */
typedef struct vm_tex_oprow {
    uint16_t opcode;    /* TV_TGSI_OP_* */
    uint8_t op;         /* tv_tex_op */
    bool d3d;           /* target from DCL SVIEW, resource = SVIEW, separate SAMP */
    uint8_t nsrc;       /* source operands */
    int8_t coord;       /* coordinate source, -1 none */
    int8_t res;         /* resource source (SAMP / SVIEW / bindless handle) */
    int8_t samp;        /* sampler source of the D3D forms, -1 none */
    int8_t extra;       /* extra vec4 sources, -1 none */
    int8_t extra2;
    uint8_t arg;        /* vm_tex_arg */
    int8_t ref_extra;   /* SHADOWCUBE_ARRAY: component of `extra` holding the reference */
    bool compare;       /* always compares (SAMPLE_C*) */
    bool level0;        /* TXF_LZ */
    bool replicate;     /* result r replicated to xyzw (SAMPLE_C*) */
    bool res_swizzle;   /* the result is swizzled by the resource operand's swizzle */
} vm_tex_oprow;

/* Coordinate layout of one TGSI target. */
typedef struct vm_tex_tgtrow {
    uint8_t target;     /* tv_tex_target */
    uint8_t dims;       /* spatial coordinates (cube: 3, the direction) */
    int8_t layer;       /* component with the array layer, -1 none */
    int8_t ref;         /* component with the depth reference, -1 none, 4 = in `extra` */
    int8_t sample;      /* TXF: component with the sample index (MSAA), -1 none */
    bool shadow;
    bool cube_array;    /* size queries divide the layer count by 6 */
    uint16_t ops;       /* 1 << tv_tex_op allowed */
} vm_tex_tgtrow;

#define VM_TEX_REF_EXTRA 4

const vm_tex_oprow *vm_tex_oprow_get(unsigned opcode);
const vm_tex_tgtrow *vm_tex_tgtrow_get(unsigned tgsi_target);

/* The components of the coordinate operand (entry VM_TB_COORD + k: bit k) that the
 * handler reads for ROW on TG, found by its own plan of the copies (vm_ops_tex.c): the
 * lowering reads only these of the source register, so that no other channel of a
 * fragment input is interpolated for it (vm_fs_input.read). */
unsigned vm_tex_coord_reads(const vm_tex_oprow *row, const vm_tex_tgtrow *tg);

/* Handlers. */
void vm_h_tex(vm_warp *w, const vm_uop *u);
void vm_h_tex_copy(vm_warp *w, const vm_uop *u);   /* unmasked copy of src[k] to aux2 + k */

#endif
