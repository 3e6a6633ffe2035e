/* Internal interface of the SASS layer: the tables (sass_tables.c), operand layouts
 * (sass_operands.c), the warp (sass_warp.c), request building (sass_request.c) and result
 * write-back (sass_result.c). */
#ifndef TEXVM_SASS_INTERNAL_H
#define TEXVM_SASS_INTERNAL_H

#include "texvm/sass.h"

#include <stddef.h>

/* ---- modifiers (text) ------------------------------------------------------------------ */
/* Kinds in printing order (nvdisasm FORMAT strings; reference §4.5). */
typedef enum sass_mod_kind {
    MK_F16, MK_COMP, MK_B, MK_LOD, MK_LODQ, MK_LC, MK_AOFFI, MK_PTP, MK_DC, MK_MS, MK_CL,
    MK_NDV, MK_NODEP, MK_PHASE, MK_COUNT
} sass_mod_kind;

typedef struct sass_mod {
    const char *name;   /* without the dot */
    uint8_t kind;       /* sass_mod_kind */
    uint8_t value;      /* LOD mode, component, phase; 1 for flags */
} sass_mod;

extern const sass_mod sass_mods[];
extern const size_t sass_num_mods;

/* ---- instructions ---------------------------------------------------------------------- */
#define MB(k) (1u << (k))
#define TB(t) (1u << (t))

typedef struct sass_op_info {
    const char *name;
    uint32_t mods;        /* allowed MK_* (bits) */
    uint8_t lods;         /* allowed tv_sass_lod values (bits) when MK_LOD is allowed */
    uint8_t lod_required; /* TLD/TLDS: .LZ or .LL must be given */
    uint8_t comp_required;/* TLD4/TLD4S */
    uint8_t lodq;         /* TMML: .LOD always present */
    uint8_t scalar;       /* TEXS/TLDS/TLD4S: Rd2 (printed first) + Rd */
    uint8_t has_pd;       /* optional leading Pd operand */
    uint8_t has_rb;       /* Rb operand may appear (printed when not RZ) */
    uint8_t has_type;     /* TYPE operand */
    uint8_t mask_kind;    /* 0 none (TLD4S), 1 hex wmask, 2 optional hex (TMML/TXQ), 3 SWZ */
    uint8_t types;        /* allowed tv_sass_type (bits) */
} sass_op_info;

extern const sass_op_info sass_ops[TV_SASS_OP_COUNT];

/* Target codes of TEXS and TLDS (4 bits [56:53]). */
typedef struct sass_code_row {
    uint8_t code;
    uint8_t type, lod, dc, aoffi, ms;
} sass_code_row;

const sass_code_row *sass_code_lookup(uint8_t op, uint8_t code);
const sass_code_row *sass_code_find(const tv_sass_insn *insn);

/* wmsk2C / wmsk34C (3 bits [52:50]): names and masks for each code; Rd2 == RZ selects
 * the 2-component table. */
typedef struct sass_swz_row {
    const char *name;
    uint8_t code;
    uint8_t rd2_rz;     /* 1: wmsk2C (Rd2 must be RZ), 0: wmsk34C (Rd2 non-RZ) */
    uint8_t mask;       /* RGBA bits */
} sass_swz_row;

extern const sass_swz_row sass_swz[];
extern const size_t sass_num_swz;
const sass_swz_row *sass_swz_by_code(uint8_t rd2_rz, uint8_t code);
const sass_swz_row *sass_swz_by_mask(uint8_t rd2_rz, uint8_t mask);
const sass_swz_row *sass_swz_by_name(const char *name, size_t len);

typedef struct sass_name { const char *name; uint8_t value; } sass_name;
extern const sass_name sass_type_names[];     /* incl. aliases after the canonical ones */
extern const size_t sass_num_type_names;
extern const sass_name sass_query_names[];
extern const size_t sass_num_query_names;
const char *sass_type_name(uint8_t type);
const char *sass_query_name(uint8_t query);

/* ---- encodings ------------------------------------------------------------------------- */
typedef enum sass_field_kind {
    FK_U8,        /* uint8_t member */
    FK_TID,       /* the 13-bit tid */
    FK_TLD_LOD,   /* 1 bit: 0 LZ, 1 LL */
    FK_OFFMODE,   /* TLD4: 0 none, 1 AOFFI, 2 PTP */
    FK_CODE,      /* TEXS/TLDS target code */
    FK_SWZ,       /* TEXS/TLDS component-mask code */
    FK_UNUSED_RB, /* an unused Rb field: 0, or 0xff (RZ) as compilers write it */
    FK_ZERO       /* must be zero */
} sass_field_kind;

typedef struct sass_field {
    uint8_t lo, width, kind;
    uint8_t member;     /* offsetof(tv_sass_insn, member) for FK_U8 */
} sass_field;

#define SASS_MAX_FIELDS 18
typedef struct sass_form {
    const char *name;
    uint8_t op, bindless, f16;
    uint8_t opc_lo;     /* the opcode occupies bits [63:opc_lo] */
    uint16_t opc;
    uint8_t nfields;
    sass_field fields[SASS_MAX_FIELDS];
} sass_form;

extern const sass_form sass_forms[];
extern const size_t sass_num_forms;
const sass_form *sass_form_for(const tv_sass_insn *insn);

/* ---- operand layouts ------------------------------------------------------------------- */
/* What one source register holds. */
typedef enum sass_slot {
    SL_HANDLE, SL_LAYER, SL_S, SL_T, SL_R, SL_LOD, SL_BIAS, SL_OFFSETS, SL_DREF, SL_SAMPLE,
    SL_LODCLAMP, SL_PTP0, SL_PTP1, SL_DSDX, SL_DSDY, SL_DTDX, SL_DTDY, SL_TXD_PACKED,
    SL_TXQ_PARAM, SL_COUNT
} sass_slot;

#define SASS_MAX_VEC 6
typedef struct sass_layout {
    uint8_t na, nb;                 /* registers in the A and B vectors */
    uint8_t a[SASS_MAX_VEC], b[SASS_MAX_VEC];  /* sass_slot per register */
    uint8_t int_coords;             /* s,t,r are integers (TLD, TLDS) */
    uint8_t nd, nd2;                /* destination registers written at Rd and Rd2 */
    uint8_t ncomp;                  /* components returned (after the mask) */
} sass_layout;

/* Fill the layout of a validated instruction. */
void sass_layout_of(const tv_sass_insn *insn, sass_layout *l);
/* Components in write order and how many go to Rd (the rest to Rd2). */
unsigned sass_result_components(const tv_sass_insn *insn, uint8_t comps[4], unsigned *to_rd);
const char *sass_slot_name(uint8_t slot);

/* ---- the warp -------------------------------------------------------------------------- */
struct tv_sass_warp {
    tv_tex_unit *unit;
    tv_sass_binding binding;
    uint32_t active;
    uint32_t regs[TV_SASS_NUM_REGS][TV_SASS_LANES];
    uint32_t preds[TV_SASS_NUM_PREDS];
    uint8_t *cbank[TV_SASS_NUM_CBANKS];   /* allocated on first write */
    uint64_t reads[4], writes[4];
    uint32_t pred_writes;
};

/* Register-file accesses of instructions (recorded). */
uint32_t sass_read_reg(tv_sass_warp *w, unsigned reg, unsigned lane);
void sass_write_reg(tv_sass_warp *w, unsigned reg, unsigned lane, uint32_t v);
void sass_note_read(tv_sass_warp *w, unsigned reg);
void sass_write_pred(tv_sass_warp *w, unsigned pred, uint32_t lanes, bool value);
uint32_t sass_cbank_word(const tv_sass_warp *w, unsigned bank, uint32_t byte_offset);
uint32_t sass_guard_mask(const tv_sass_warp *w, const tv_sass_insn *insn);
void sass_clear_access(tv_sass_warp *w);

/* ---- requests and results -------------------------------------------------------------- */
/* How the instruction is carried out. */
typedef enum sass_plan_kind {
    PLAN_TEX,          /* one or two tv_tex_execute requests (reqs[0], reqs[1]) */
    PLAN_TXQ_DIM,      /* TXQ TEX_HEADER_DIMENSION from the header (tv_tex_lookup) */
    PLAN_TXQ_TYPE,     /* TXQ TEX_HEADER_TEXTURE_TYPE from the header */
    PLAN_TXQ_SAMPLE_POS/* request QUERY_SAMPLE_POS, then {4.12, 4.12} packing */
} sass_plan_kind;

typedef struct sass_plan {
    uint8_t kind;
    uint8_t nreq;               /* PLAN_TEX / SAMPLE_POS: requests used */
    uint32_t exec;              /* lanes that execute */
    uint32_t handle[TV_SASS_LANES];
    int32_t level[TV_SASS_LANES];   /* PLAN_TXQ_DIM */
    tv_tex_request req[2];
} sass_plan;

/* Read the operands of `insn` (validated, registers checked) on lanes `exec` and build
 * the plan. Pure with respect to the texture unit: it only reads the warp. */
tv_status sass_build_plan(tv_sass_warp *w, const tv_sass_insn *insn, uint32_t exec,
                          sass_plan *plan, tv_error *err);

/* Per-lane 4-vectors (raw 32-bit) -> registers, through the instruction's mask, the
 * Rd/Rd2 split and FP16 packing. Writes only lanes in `exec`. */
void sass_write_results(tv_sass_warp *w, const tv_sass_insn *insn, uint32_t exec,
                        const uint32_t v[4][TV_SASS_LANES]);

/* TMML fixed-point outputs from a result's LOD extras. */
uint32_t sass_tmml_s8_8(float lod);
uint32_t sass_tmml_u8_8(float lod);
uint32_t sass_tmml_major(float u, float v);
uint32_t sass_tmml_s4_12(float log2_ratio);
/* TXQ sample position packing: dx in [15:0], dy in [31:16], unsigned 4.12 each. */
uint32_t sass_pack_sample_pos(float x, float y);
/* fp32 -> fp16 bits, round to nearest even (NaN stays NaN, overflow -> inf). */
uint16_t sass_f32_to_f16(uint32_t f32_bits);
/* Sample count of a MULTI_SAMPLE_COUNT code (0 for reserved codes). */
unsigned sass_msaa_samples(unsigned code);

#endif
