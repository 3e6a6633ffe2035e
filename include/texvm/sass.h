/* texvm SASS texture instructions at register level (public API). See docs/sass.md.
 *
 * NVIDIA Maxwell (SPA 5.0) texture instructions TEX, TEXS, TLD, TLDS, TLD4, TLD4S, TMML,
 * TXQ and TXD: text (nvdisasm syntax) <-> decoded instruction <-> 64-bit encoding, the
 * legality and register rules of the instruction pages, and execution on a 32-lane warp
 * whose texture accesses go through texvm's texture unit (tex.h). */
#ifndef TEXVM_SASS_H
#define TEXVM_SASS_H

#include "texvm/tex.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TV_SASS_LANES 32
#define TV_SASS_RZ 255     /* register number of RZ (reads 0, writes dropped) */
#define TV_SASS_PT 7       /* predicate number of PT (always true) */
#define TV_SASS_NUM_REGS 255  /* R0..R254 */
#define TV_SASS_NUM_PREDS 7   /* P0..P6 */
#define TV_SASS_NUM_CBANKS 18 /* c[0x0]..c[0x11] */
#define TV_SASS_CBANK_SIZE 65536u

typedef enum tv_sass_op {
    TV_SASS_TEX, TV_SASS_TEXS, TV_SASS_TLD, TV_SASS_TLDS, TV_SASS_TLD4, TV_SASS_TLD4S,
    TV_SASS_TMML, TV_SASS_TXQ, TV_SASS_TXD, TV_SASS_OP_COUNT
} tv_sass_op;

/* LOD modes; the values are TEX's 3-bit encoding ([57:55]). */
typedef enum tv_sass_lod {
    TV_SASS_LOD_NONE = 0, TV_SASS_LOD_LZ = 1, TV_SASS_LOD_LB = 2, TV_SASS_LOD_LL = 3,
    TV_SASS_LOD_LBA = 6, TV_SASS_LOD_LLA = 7
} tv_sass_lod;

/* #paramA texture types; the values are the 3-bit encoding ([30:28]): bit 0 = array. */
typedef enum tv_sass_type {
    TV_SASS_1D = 0, TV_SASS_ARRAY_1D = 1, TV_SASS_2D = 2, TV_SASS_ARRAY_2D = 3,
    TV_SASS_3D = 4, TV_SASS_ARRAY_3D = 5, TV_SASS_CUBE = 6, TV_SASS_ARRAY_CUBE = 7
} tv_sass_type;

/* TXQ queries; the values are the 6-bit encoding ([27:22]). */
typedef enum tv_sass_query {
    TV_SASS_Q_DIMENSION = 0x01, TV_SASS_Q_TEXTURE_TYPE = 0x02, TV_SASS_Q_SAMPLER_POS = 0x05,
    TV_SASS_Q_SAMPLER_FILTER = 0x10, TV_SASS_Q_SAMPLER_LOD = 0x12,
    TV_SASS_Q_SAMPLER_WRAP = 0x14, TV_SASS_Q_SAMPLER_BORDER_COLOR = 0x16
} tv_sass_query;

/* One decoded instruction. Every member is a small number (see the enums); registers are
 * 0..254 or TV_SASS_RZ, predicates 0..6 or TV_SASS_PT. Members an instruction does not
 * have stay 0 (registers: RZ, Pd: PT). For TEXS/TLDS/TLD4S `rd2` is the register printed
 * first (the pages' Rd1) and `rd` the second (Rd0).
 * For TEXS/TLDS `wmask` is the 4-bit R,G,B,A mask that the instruction's wmsk code means
 * (e.g. 0xb for RGA) and `lod`/`dc`/`aoffi`/`ms`/`type` are the row of its target code. */
typedef struct tv_sass_insn {
    uint8_t op;         /* tv_sass_op */
    uint8_t bindless;   /* .B */
    uint8_t f16;        /* .F16 (TEXS, TLDS, TLD4S) */
    uint8_t lod;        /* tv_sass_lod (TEX, TEXS, TLD, TLDS) */
    uint8_t lc;         /* .LC (TEX, TXD) */
    uint8_t aoffi;      /* .AOFFI */
    uint8_t ptp;        /* .PTP (TLD4) */
    uint8_t dc;         /* .DC */
    uint8_t ms;         /* .MS (TLD, TLDS) */
    uint8_t cl;         /* .CL (TLD) */
    uint8_t ndv;        /* .NDV */
    uint8_t nodep;      /* .NODEP */
    uint8_t phase;      /* 0 none, 1 .T, 2 .P (control bits, not in the 64-bit word) */
    uint8_t component;  /* TLD4/TLD4S: 0..3 = .R .G .B .A */
    uint8_t type;       /* tv_sass_type */
    uint8_t wmask;      /* RGBA = bits 0..3 */
    uint8_t query;      /* tv_sass_query (TXQ) */
    uint8_t rd, rd2, ra, rb;
    /* TMML (not .B): the unused Rb field [27:20] as decoded, 0 or 0xff (RZ: what Mesa's
     * GM107 emitter writes); kept so that the word re-encodes unchanged. 0 when
     * assembled from text. */
    uint8_t unused_rb;
    uint8_t pd;         /* sparse-residency destination predicate (TEX, TLD, TLD4, TXD) */
    uint8_t pg, pg_neg; /* guard predicate @Pg / @!Pg (PT, 0 = always) */
    uint16_t tid;       /* #tsPtrIdxU13: constant-bank word index (0 for .B) */
    /* Text only (not in the encoding): legacy `#tidU08, #smpU05` spelling of tid, and the
     * scheduling annotations {&req_N} {&rdN} {&wrN} {?sched} (-1 / "" = absent). */
    uint8_t legacy_tid;
    int8_t ann_req, ann_rd, ann_wr;
    char ann_sched[24];
} tv_sass_insn;

/* A default instruction of `op`: registers RZ, Pd PT, guard PT, wmask 0xf, annotations
 * absent. */
void tv_sass_insn_init(tv_sass_insn *insn, tv_sass_op op);

/* Parse one instruction (nvdisasm / page syntax; a trailing `;`, `// comment` and
 * `/ * … * /` comments are accepted). Errors: TV_ERR_PARSE (syntax, with column) or
 * TV_ERR_INVALID (a modifier combination or mask with no encoding). */
tv_status tv_sass_parse(const char *text, tv_sass_insn *insn, tv_error *err);
/* Print in nvdisasm syntax (no trailing `;`). Returns the length the text needs. */
int tv_sass_print(const tv_sass_insn *insn, char *buf, size_t size);

/* 64-bit instruction word plus its 21-bit scheduling-control field; only the texture
 * phase bits [18:17] of `ctrl` are used (.T = 1, .P = 2); `ctrl` may be NULL. */
tv_status tv_sass_encode(const tv_sass_insn *insn, uint64_t *word, uint32_t *ctrl,
                         tv_error *err);
tv_status tv_sass_decode(uint64_t word, uint32_t ctrl, tv_sass_insn *insn, tv_error *err);

/* Legality of modifiers/fields (what has an encoding): TV_ERR_INVALID. */
tv_status tv_sass_validate(const tv_sass_insn *insn, tv_error *err);
/* Register rules of the pages (alignment, RZ, Rd1 rules, vectors past R254): a violation
 * is a fault, TV_ERR_RUNTIME with a "misaligned register"-style message. */
tv_status tv_sass_check_registers(const tv_sass_insn *insn, tv_error *err);

/* ---- the warp -------------------------------------------------------------------------- */
typedef struct tv_sass_warp tv_sass_warp;

/* Texture binding state: pools (base, largest valid index), header-binding mode, and the
 * constant bank that holds bound handles (word tid of that bank). */
typedef struct tv_sass_binding {
    uint64_t header_pool;
    uint32_t header_max;
    uint64_t sampler_pool;
    uint32_t sampler_max;
    bool header_binding;   /* SetSamplerBinding.ViaHeaderBinding: sampler = header index */
    uint32_t handle_bank;  /* 0..17 */
} tv_sass_binding;

/* A warp on a texture unit (which stays owned by the caller). All lanes active, every
 * register, predicate and constant bank zero, handle bank 0. */
tv_sass_warp *tv_sass_warp_create(tv_tex_unit *unit, tv_error *err);
/* Free a warp (NULL is ignored); its texture unit is left alone. */
void tv_sass_warp_destroy(tv_sass_warp *w);
/* Set the pools, the header-binding mode and the handle bank, and configure the texture
 * unit to match. TV_ERR_ARG for a NULL argument or a handle bank past the last. */
tv_status tv_sass_set_binding(tv_sass_warp *w, const tv_sass_binding *b, tv_error *err);
/* The binding last set. */
void tv_sass_get_binding(const tv_sass_warp *w, tv_sass_binding *b);

/* Active lanes: bit l for lane l. */
void tv_sass_set_active(tv_sass_warp *w, uint32_t mask);
uint32_t tv_sass_get_active(const tv_sass_warp *w);
/* Registers: reg 0..254 (RZ reads 0; writes to it are dropped). Out-of-range arguments
 * are ignored / read 0. These calls are not recorded as instruction reads/writes. */
void tv_sass_set_reg(tv_sass_warp *w, unsigned reg, unsigned lane, uint32_t value);
void tv_sass_set_reg_all(tv_sass_warp *w, unsigned reg, uint32_t value);
uint32_t tv_sass_get_reg(const tv_sass_warp *w, unsigned reg, unsigned lane);
/* Predicates: lane masks; PT reads all ones. */
void tv_sass_set_pred(tv_sass_warp *w, unsigned pred, uint32_t lanes);
uint32_t tv_sass_get_pred(const tv_sass_warp *w, unsigned pred);
/* Constant banks: byte offsets, little-endian words. */
tv_status tv_sass_cbank_write(tv_sass_warp *w, unsigned bank, uint32_t offset,
                              const void *data, size_t size, tv_error *err);
tv_status tv_sass_cbank_read(const tv_sass_warp *w, unsigned bank, uint32_t offset,
                             void *data, size_t size, tv_error *err);

/* Execute one instruction on the active lanes whose guard predicate is true. Errors:
 * TV_ERR_PARSE/TV_ERR_INVALID (bad text or encoding), TV_ERR_RUNTIME (a fault: register
 * rules; nothing is read or written then), TV_ERR_UNSUPPORTED (named feature). */
tv_status tv_sass_exec(tv_sass_warp *w, const tv_sass_insn *insn, tv_error *err);
/* The same after tv_sass_parse of one line of text / tv_sass_decode of a word. */
tv_status tv_sass_exec_text(tv_sass_warp *w, const char *text, tv_error *err);
tv_status tv_sass_exec_word(tv_sass_warp *w, uint64_t word, uint32_t ctrl, tv_error *err);

/* What the last executed instruction read and wrote (register file accesses, RZ never
 * counted): bit r%64 of word r/64. Predicates written: bits 0..6. */
void tv_sass_last_access(const tv_sass_warp *w, uint64_t reads[4], uint64_t writes[4],
                         uint32_t *pred_writes);

#ifdef __cplusplus
}
#endif
#endif
