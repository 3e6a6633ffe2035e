/* texvm TGSI front end: text -> program object -> text, and validation.
 *
 * The program object is plain data that the VM reads directly; the parser fills it, the
 * validator checks it, the printer writes Mesa's tgsi_dump layout. Nothing here executes.
 * Enumerations follow Mesa's numbering (p_shader_tokens.h) so values can be compared with
 * Mesa's tokens. Names live in tables in src/tgsi/, never in switch statements. */
#ifndef TEXVM_TGSI_H
#define TEXVM_TGSI_H

#include "texvm/texvm.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- opcodes (X-macro table, one row per opcode) ------------------------------------ */
enum tv_tgsi_opflags {
    TV_OPF_TEX = 1u << 0,    /* takes a texture-target operand (is_tex) */
    TV_OPF_BRANCH = 1u << 1, /* accepts a ` :N` label */
    TV_OPF_STORE = 1u << 2,  /* writes memory (Mesa's is_store: STORE and the ATOM*s);
                                the resource operand is given by TV_OPF_RESDST/RES(i) */
    TV_OPF_INDENT = 1u << 3, /* printer indents after */
    TV_OPF_DEDENT = 1u << 4, /* printer dedents before */
    TV_OPF_OFFSETS = 1u << 5, /* accepts texel-offset operands (TEX family, SAMPLE*) */
    TV_OPF_MEMQ = 1u << 6,   /* accepts memory qualifiers, a target and a PIPE_FORMAT */
    TV_OPF_RESDST = 1u << 7  /* the destination is a resource (STORE) */
};
/* Operand-position and class fields packed in the flags column of tgsi_opcodes.def.
 * Decoded into tv_tgsi_opinfo (samp_src, sview_src, res_src, category, stages). */
#define TV_OPF_SAMP(i) ((uint32_t)((i) + 1) << 8)    /* bits 8-10: source i is SAMP */
#define TV_OPF_SVIEW(i) ((uint32_t)((i) + 1) << 11)  /* bits 11-13: source i is SVIEW */
#define TV_OPF_RES(i) ((uint32_t)((i) + 1) << 14)    /* bits 14-16: source i is a resource */
#define TV_OPF_CAT(c) ((uint32_t)(TV_OPC_##c) << 17) /* bits 17-21: category */
#define TV_OPF_STAGES(m) ((uint32_t)(m) << 22)       /* bits 22-27: allowed processors */
#define TV_OPF_DST64 (1u << 28) /* the first destination is 64-bit: channel pairs xy, zw */

/* Opcode categories (tv_tgsi_opcat_name gives the lower-case name). */
typedef enum tv_tgsi_opcat {
    TV_OPC_FLOAT, TV_OPC_INT, TV_OPC_CONVERT, TV_OPC_DOUBLE, TV_OPC_INT64, TV_OPC_PACK,
    TV_OPC_ADDRESS, TV_OPC_DERIV, TV_OPC_TEXTURE, TV_OPC_SAMPLE, TV_OPC_RESOURCE,
    TV_OPC_ATOMIC, TV_OPC_FLOW, TV_OPC_FRAGMENT, TV_OPC_GEOMETRY, TV_OPC_SYNC, TV_OPC_WAVE,
    TV_OPC_COUNT
} tv_tgsi_opcat;

/* Processor masks for stage restrictions (bit = tv_tgsi_processor). */
enum {
    TV_STAGE_VERT = 1u << 0, TV_STAGE_FRAG = 1u << 1, TV_STAGE_GEOM = 1u << 2,
    TV_STAGE_TESS_CTRL = 1u << 3, TV_STAGE_TESS_EVAL = 1u << 4, TV_STAGE_COMP = 1u << 5,
    TV_STAGE_ALL = 0x3f
};

typedef enum tv_tgsi_opcode {
#define TV_TGSI_OP(num, name, ndst, nsrc, mode, flags) TV_TGSI_OP_##name = num,
#define TV_TGSI_GAP(num)
#include "texvm/tgsi_opcodes.def"
#undef TV_TGSI_OP
#undef TV_TGSI_GAP
    TV_TGSI_OP_LAST = 252
} tv_tgsi_opcode;

typedef enum tv_tgsi_outmode {
    TV_OUT_COMP, TV_OUT_REPL, TV_OUT_CHAN, TV_OUT_OTHR, TV_OUT_NONE
} tv_tgsi_outmode;

/* Static facts about an opcode; NULL for a gap or an out-of-range number. */
typedef struct tv_tgsi_opinfo {
    const char *name;
    uint16_t opcode;
    uint8_t num_dst;
    uint8_t num_src;
    uint8_t outmode;   /* tv_tgsi_outmode */
    uint32_t flags;    /* tv_tgsi_opflags and more (see src/tgsi) */
    /* decoded from flags: */
    uint8_t category;  /* tv_tgsi_opcat */
    uint8_t stages;    /* TV_STAGE_* mask of processors that may use it (ALL = any) */
    int8_t samp_src;   /* source index that must be a SAMP, -1 = none */
    int8_t sview_src;  /* source index that must be an SVIEW, -1 = none */
    int8_t res_src;    /* source index that is a resource (BUFFER/IMAGE/MEMORY/…), -1 */
    bool res_dst;      /* the destination is the resource (STORE) */
} tv_tgsi_opinfo;

const tv_tgsi_opinfo *tv_tgsi_opinfo_get(unsigned opcode);
/* Case-insensitive lookup by name; returns NULL if unknown. */
const tv_tgsi_opinfo *tv_tgsi_opinfo_find(const char *name, size_t len);

/* ---- enumerations (Mesa numbering) ---------------------------------------------------- */
typedef enum tv_tgsi_processor {
    TV_TGSI_VERT, TV_TGSI_FRAG, TV_TGSI_GEOM, TV_TGSI_TESS_CTRL, TV_TGSI_TESS_EVAL,
    TV_TGSI_COMP, TV_TGSI_PROCESSOR_COUNT
} tv_tgsi_processor;

typedef enum tv_tgsi_file {
    TV_FILE_NULL, TV_FILE_CONST, TV_FILE_IN, TV_FILE_OUT, TV_FILE_TEMP, TV_FILE_SAMP,
    TV_FILE_ADDR, TV_FILE_IMM, TV_FILE_SV, TV_FILE_IMAGE, TV_FILE_SVIEW, TV_FILE_BUFFER,
    TV_FILE_MEMORY, TV_FILE_CONSTBUF, TV_FILE_HWATOMIC, TV_FILE_COUNT
} tv_tgsi_file;

/* Texture targets in Mesa's order (tgsi_texture_names[]). */
typedef enum tv_tgsi_target {
    TV_TGT_BUFFER, TV_TGT_1D, TV_TGT_2D, TV_TGT_3D, TV_TGT_CUBE, TV_TGT_RECT,
    TV_TGT_SHADOW1D, TV_TGT_SHADOW2D, TV_TGT_SHADOWRECT, TV_TGT_1D_ARRAY, TV_TGT_2D_ARRAY,
    TV_TGT_SHADOW1D_ARRAY, TV_TGT_SHADOW2D_ARRAY, TV_TGT_SHADOWCUBE, TV_TGT_2D_MSAA,
    TV_TGT_2D_ARRAY_MSAA, TV_TGT_CUBE_ARRAY, TV_TGT_SHADOWCUBE_ARRAY, TV_TGT_UNKNOWN,
    TV_TGT_COUNT
} tv_tgsi_target;

/* SVIEW return types in Mesa's order (UNORM, SNORM, SINT, UINT, FLOAT). */
typedef enum tv_tgsi_return_type {
    TV_RET_UNORM, TV_RET_SNORM, TV_RET_SINT, TV_RET_UINT, TV_RET_FLOAT, TV_RET_COUNT
} tv_tgsi_return_type;

/* Semantic names in Mesa's order (tgsi_semantic_names[]); TV_SEM_COUNT = none. */
typedef enum tv_tgsi_semantic {
    TV_SEM_POSITION, TV_SEM_COLOR, TV_SEM_BCOLOR, TV_SEM_FOG, TV_SEM_PSIZE, TV_SEM_GENERIC,
    TV_SEM_NORMAL, TV_SEM_FACE, TV_SEM_EDGEFLAG, TV_SEM_PRIMID, TV_SEM_INSTANCEID,
    TV_SEM_VERTEXID, TV_SEM_STENCIL, TV_SEM_CLIPDIST, TV_SEM_CLIPVERTEX, TV_SEM_GRID_SIZE,
    TV_SEM_BLOCK_ID, TV_SEM_BLOCK_SIZE, TV_SEM_THREAD_ID, TV_SEM_TEXCOORD, TV_SEM_PCOORD,
    TV_SEM_VIEWPORT_INDEX, TV_SEM_LAYER, TV_SEM_SAMPLEID, TV_SEM_SAMPLEPOS,
    TV_SEM_SAMPLEMASK, TV_SEM_INVOCATIONID, TV_SEM_VERTEXID_NOBASE, TV_SEM_BASEVERTEX,
    TV_SEM_PATCH, TV_SEM_TESSCOORD, TV_SEM_TESSOUTER, TV_SEM_TESSINNER, TV_SEM_VERTICESIN,
    TV_SEM_HELPER_INVOCATION, TV_SEM_BASEINSTANCE, TV_SEM_DRAWID, TV_SEM_WORK_DIM,
    TV_SEM_SUBGROUP_SIZE, TV_SEM_SUBGROUP_INVOCATION, TV_SEM_SUBGROUP_EQ_MASK,
    TV_SEM_SUBGROUP_GE_MASK, TV_SEM_SUBGROUP_GT_MASK, TV_SEM_SUBGROUP_LE_MASK,
    TV_SEM_SUBGROUP_LT_MASK, TV_SEM_CS_USER_DATA_AMD, TV_SEM_VIEWPORT_MASK,
    TV_SEM_TESS_DEFAULT_OUTER_LEVEL, TV_SEM_TESS_DEFAULT_INNER_LEVEL, TV_SEM_COUNT
} tv_tgsi_semantic;

typedef enum tv_tgsi_interp {
    TV_INTERP_CONSTANT, TV_INTERP_LINEAR, TV_INTERP_PERSPECTIVE, TV_INTERP_COLOR,
    TV_INTERP_COUNT
} tv_tgsi_interp;

typedef enum tv_tgsi_location {
    TV_LOC_CENTER, TV_LOC_CENTROID, TV_LOC_SAMPLE, TV_LOC_COUNT
} tv_tgsi_location;

typedef enum tv_tgsi_memory_type {
    TV_MEM_GLOBAL, TV_MEM_SHARED, TV_MEM_PRIVATE, TV_MEM_INPUT, TV_MEM_COUNT
} tv_tgsi_memory_type;

/* Memory qualifier bits (TGSI_MEMORY_*). */
enum {
    TV_MEMQ_COHERENT = 1u << 0, TV_MEMQ_RESTRICT = 1u << 1, TV_MEMQ_VOLATILE = 1u << 2,
    TV_MEMQ_STREAM_CACHE_POLICY = 1u << 3
};

typedef enum tv_tgsi_imm_type {
    TV_IMM_FLT32, TV_IMM_UINT32, TV_IMM_INT32, TV_IMM_FLT64, TV_IMM_UINT64, TV_IMM_INT64,
    TV_IMM_COUNT
} tv_tgsi_imm_type;

/* Properties in Mesa's order (tgsi_property_names[]). */
typedef enum tv_tgsi_property {
    TV_PROP_GS_INPUT_PRIMITIVE, TV_PROP_GS_OUTPUT_PRIMITIVE, TV_PROP_GS_MAX_OUTPUT_VERTICES,
    TV_PROP_FS_COORD_ORIGIN, TV_PROP_FS_COORD_PIXEL_CENTER,
    TV_PROP_FS_COLOR0_WRITES_ALL_CBUFS, TV_PROP_FS_DEPTH_LAYOUT, TV_PROP_VS_PROHIBIT_UCPS,
    TV_PROP_GS_INVOCATIONS, TV_PROP_VS_WINDOW_SPACE_POSITION, TV_PROP_TCS_VERTICES_OUT,
    TV_PROP_TES_PRIM_MODE, TV_PROP_TES_SPACING, TV_PROP_TES_VERTEX_ORDER_CW,
    TV_PROP_TES_POINT_MODE, TV_PROP_NUM_CLIPDIST_ENABLED, TV_PROP_NUM_CULLDIST_ENABLED,
    TV_PROP_FS_EARLY_DEPTH_STENCIL, TV_PROP_FS_POST_DEPTH_COVERAGE, TV_PROP_NEXT_SHADER,
    TV_PROP_CS_FIXED_BLOCK_WIDTH, TV_PROP_CS_FIXED_BLOCK_HEIGHT,
    TV_PROP_CS_FIXED_BLOCK_DEPTH, TV_PROP_LEGACY_MATH_RULES, TV_PROP_VS_BLIT_SGPRS_AMD,
    TV_PROP_CS_USER_DATA_COMPONENTS_AMD, TV_PROP_LAYER_VIEWPORT_RELATIVE,
    TV_PROP_FS_BLEND_EQUATION_ADVANCED, TV_PROP_SEPARABLE_PROGRAM, TV_PROP_COUNT
} tv_tgsi_property;

/* Swizzle components. */
enum { TV_SWZ_X, TV_SWZ_Y, TV_SWZ_Z, TV_SWZ_W };

/* ---- program object ------------------------------------------------------------------- */

/* An indirect index: FILE[index].component (normally ADDR[n].x). */
typedef struct tv_tgsi_indirect {
    uint8_t file;        /* tv_tgsi_file */
    uint8_t component;   /* TV_SWZ_* */
    int32_t index;
    uint32_t array_id;   /* (n) after the bracket, 0 = none */
} tv_tgsi_indirect;

/* A register reference, one or two dimensions, each direct or indirect.
 * Effective index = (indirect ? value_of(ind) : 0) + index. */
typedef struct tv_tgsi_reg {
    uint8_t file;        /* tv_tgsi_file */
    bool indirect;
    bool has_dim;        /* a second bracket: CONST[dim][index], IN[vertex][index] */
    bool dim_indirect;
    int32_t index;
    int32_t dim;
    tv_tgsi_indirect ind;
    tv_tgsi_indirect dim_ind;
    uint32_t array_id;   /* (n) after the index bracket (the last one), 0 = none; for an
                            indirect index the same id is also in ind.array_id */
} tv_tgsi_reg;

typedef struct tv_tgsi_src {
    tv_tgsi_reg reg;
    uint8_t swizzle[4];  /* TV_SWZ_* per destination channel */
    bool negate;
    bool absolute;
} tv_tgsi_src;

typedef struct tv_tgsi_dst {
    tv_tgsi_reg reg;
    uint8_t writemask;   /* bit 0 = x … bit 3 = w */
} tv_tgsi_dst;

/* A texel offset operand: FILE[index].xyz (only 3-letter swizzles exist). */
typedef struct tv_tgsi_texoffset {
    uint8_t file;
    int32_t index;
    uint8_t swizzle[3];
} tv_tgsi_texoffset;

#define TV_TGSI_MAX_INDEX 65535 /* largest register index / declaration bound (validator) */
#define TV_TGSI_MAX_DST 2
#define TV_TGSI_MAX_SRC 5
#define TV_TGSI_MAX_TEXOFFSETS 4

typedef struct tv_tgsi_instruction {
    uint16_t opcode;     /* tv_tgsi_opcode */
    bool saturate;
    bool precise;
    uint8_t num_dst;
    uint8_t num_src;
    tv_tgsi_dst dst[TV_TGSI_MAX_DST];
    tv_tgsi_src src[TV_TGSI_MAX_SRC];
    /* texture instructions */
    bool has_texture;    /* a target operand was written (or offsets on SAMPLE*) */
    uint8_t tex_target;  /* tv_tgsi_target */
    uint8_t num_tex_offsets;
    tv_tgsi_texoffset tex_offsets[TV_TGSI_MAX_TEXOFFSETS];
    /* memory instructions */
    uint8_t mem_qualifier;  /* TV_MEMQ_* */
    uint8_t mem_target;     /* tv_tgsi_target, TV_TGT_UNKNOWN if none */
    uint16_t mem_format;    /* index into the PIPE_FORMAT name table, 0 = none */
    /* branches */
    bool has_label;
    uint32_t label;      /* instruction index counted from 0 */
    /* source position */
    uint32_t line, column; /* of the opcode (after any `N:` prefix), 1-based */
} tv_tgsi_instruction;

typedef struct tv_tgsi_declaration {
    uint8_t file;        /* tv_tgsi_file */
    int32_t first, last; /* register range */
    bool has_dim;
    int32_t dim;         /* CONST[dim][…]; also set (to 0) for IN[][i] forms */
    bool dim_implied;    /* a per-vertex declaration (GEOM inputs, TESS_CTRL inputs and
                            outputs, TESS_EVAL inputs, except patch semantics): the vertex
                            bracket is dropped as in Mesa (`IN[][i]` and `IN[3][i]` alike),
                            has_dim = true, dim = 0; printed back as `IN[][i]` */
    uint8_t usage_mask;  /* bit 0 = x …; 0xf when absent */
    uint32_t array_id;   /* ARRAY(n), 0 = none */
    bool local;
    bool has_semantic;
    uint8_t semantic;    /* tv_tgsi_semantic */
    uint32_t semantic_index;
    bool has_interp;
    uint8_t interp;      /* tv_tgsi_interp */
    uint8_t location;    /* tv_tgsi_location */
    bool invariant;
    bool has_stream;
    uint8_t stream[4];
    /* SVIEW */
    uint8_t sview_target;       /* tv_tgsi_target */
    uint8_t return_type[4];     /* tv_tgsi_return_type */
    /* IMAGE */
    uint8_t image_target;       /* tv_tgsi_target */
    uint16_t image_format;      /* index into the PIPE_FORMAT name table, 0 = none */
    bool raw, writable;
    /* BUFFER */
    bool atomic;
    /* MEMORY */
    uint8_t memory_type;        /* tv_tgsi_memory_type */
    uint32_t line;
} tv_tgsi_declaration;

typedef struct tv_tgsi_immediate {
    uint8_t type;        /* tv_tgsi_imm_type */
    uint32_t u[4];       /* raw bits; 64-bit types fill two dwords each (lo, hi) */
    bool hex;            /* FLT32 with all four values written as 0x bit patterns: printed
                            back that way (otherwise each value prints as %10.4f when that
                            is exact, else as 0x%08x) */
    uint32_t line;
} tv_tgsi_immediate;

typedef struct tv_tgsi_prop {
    uint8_t name;        /* tv_tgsi_property */
    uint32_t value;      /* enum value for primitive/origin/center/processor names */
    uint32_t line;
} tv_tgsi_prop;

/* Order of statements as written, so the printer reproduces Mesa's order. */
typedef enum tv_tgsi_stmt_kind {
    TV_STMT_PROPERTY, TV_STMT_DECL, TV_STMT_IMM, TV_STMT_INSN
} tv_tgsi_stmt_kind;

typedef struct tv_tgsi_stmt {
    uint8_t kind;        /* tv_tgsi_stmt_kind */
    uint32_t index;      /* into the matching array */
} tv_tgsi_stmt;

typedef struct tv_tgsi_program {
    uint8_t processor;   /* tv_tgsi_processor */
    uint32_t num_props, num_decls, num_imms, num_insns, num_stmts;
    tv_tgsi_prop *props;
    tv_tgsi_declaration *decls;
    tv_tgsi_immediate *imms;
    tv_tgsi_instruction *insns;
    tv_tgsi_stmt *stmts;
    uint32_t first_line; /* line of the header in its file */
} tv_tgsi_program;

/* ---- API ------------------------------------------------------------------------------ */

typedef enum tv_tgsi_mode {
    TV_TGSI_MODE_DEFAULT = 0, /* Mesa 22.3's grammar plus documented extensions */
    TV_TGSI_MODE_LEGACY = 1   /* also the old graw spellings (docs/tgsi-text.md) */
} tv_tgsi_mode;

/* Parse every program in `text` (a file may hold several, one after another).
 * On success *out holds `*count` programs (free with tv_tgsi_programs_free).
 * `filename` is used only in error records (may be NULL). */
tv_status tv_tgsi_parse(const char *text, size_t len, const char *filename, tv_tgsi_mode mode,
                        tv_tgsi_program **out, size_t *count, tv_error *err);
/* Free the programs tv_tgsi_parse returned (NULL is ignored). */
void tv_tgsi_programs_free(tv_tgsi_program *progs, size_t count);
/* Free one program's arrays and zero it; the tv_tgsi_program itself stays the caller's. */
void tv_tgsi_program_free(tv_tgsi_program *prog);

typedef enum tv_tgsi_strictness {
    TV_TGSI_LENIENT = 0, /* accepts everything Mesa itself emits */
    TV_TGSI_STRICT = 1
} tv_tgsi_strictness;

/* Check a program (docs/tgsi-text.md, "Validation"). LENIENT accepts everything Mesa
 * emits; STRICT adds tidiness rules. On failure (TV_ERR_INVALID) the error has the line
 * and column of the instruction (declarations: column 1), the reason, and the instruction
 * in canonical text in err->text; err->file is left empty for the caller to fill. */
tv_status tv_tgsi_validate(const tv_tgsi_program *prog, tv_tgsi_strictness strictness,
                           tv_error *err);

/* Print in Mesa's tgsi_dump layout. Returns the length the full text needs (like
 * snprintf); writes at most `size` bytes including the terminating NUL. */
size_t tv_tgsi_print(const tv_tgsi_program *prog, char *buf, size_t size);
/* Convenience: a malloc'ed string (NULL on allocation failure). */
char *tv_tgsi_print_alloc(const tv_tgsi_program *prog);

/* Name tables (NULL when out of range). */
const char *tv_tgsi_file_name(unsigned file);
const char *tv_tgsi_target_name(unsigned target);
const char *tv_tgsi_semantic_name(unsigned sem);
const char *tv_tgsi_processor_name(unsigned proc);
/* PIPE_FORMAT_* names as the parser knows them: the rows of texvm/gallium_formats.def
 * whose tgsi column is 1, in order; index 0 is "PIPE_FORMAT_NONE". The VM maps a name to
 * a texture-unit format with tv_format_from_pipe_name() (tex.h). */
const char *tv_tgsi_pipe_format_name(unsigned index);
const char *tv_tgsi_property_name(unsigned prop);
const char *tv_tgsi_return_type_name(unsigned type);
const char *tv_tgsi_opcat_name(unsigned category); /* "float", "texture", "flow", … */

#ifdef __cplusplus
}
#endif
#endif
