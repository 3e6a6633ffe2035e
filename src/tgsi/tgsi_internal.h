/* Private helpers shared by the TGSI parser, validator and printer. */
#ifndef TEXVM_TGSI_INTERNAL_H
#define TEXVM_TGSI_INTERNAL_H

#include "texvm/tgsi.h"

#include <stddef.h>

/* Name tables (upper case, Mesa spelling), indexed by the matching enum. */
extern const char *const tvt_file_names[TV_FILE_COUNT];
extern const char *const tvt_target_names[TV_TGT_COUNT];
extern const char *const tvt_semantic_names[TV_SEM_COUNT];
extern const char *const tvt_processor_names[TV_TGSI_PROCESSOR_COUNT];
extern const char *const tvt_return_type_names[TV_RET_COUNT];
extern const char *const tvt_interp_names[TV_INTERP_COUNT];
extern const char *const tvt_location_names[TV_LOC_COUNT];
extern const char *const tvt_memory_type_names[TV_MEM_COUNT];
extern const char *const tvt_memq_names[4];
extern const char *const tvt_imm_type_names[TV_IMM_COUNT];
extern const char *const tvt_property_names[TV_PROP_COUNT];
extern const char *const tvt_primitive_names[15];
extern const char *const tvt_origin_names[2];
extern const char *const tvt_center_names[2];
extern const char *const tvt_opcat_names[TV_OPC_COUNT];
extern const char *const tvt_pipe_format_names[];
extern const unsigned tvt_num_pipe_formats;
#define TVT_NUM_PRIMITIVES 15

/* Case-insensitive lookup of s[0..len) in names[0..count); -1 if absent. */
int tvt_lookup(const char *const *names, int count, const char *s, size_t len);
/* The names of property PROP's values (indexed by value) and their count; NULL (count 0)
 * for a property whose value is a plain number or an unknown property. */
const char *const *tvt_property_value_names(unsigned prop, int *count);
/* Index of a "PIPE_FORMAT_xxx" word, -1 if unknown. */
int tvt_pipe_format_lookup(const char *s, size_t len);

/* Swizzle letters. */
extern const char tvt_swizzle_chars[4];

/* Printing helpers used by the printer (exact float immediates). */
void tvt_format_flt32(uint32_t bits, bool hex, char *buf, size_t size);
void tvt_format_flt64(uint64_t bits, char *buf, size_t size);

/* Canonical text of one register reference / one instruction (no number, no indent). */
void tvt_format_reg(const tv_tgsi_reg *r, char *buf, size_t size);
void tvt_format_insn(const tv_tgsi_instruction *in, char *buf, size_t size);

/* True when the declaration's register file is per-vertex in this processor (GS inputs,
 * TCS inputs/outputs, TES inputs, except patch semantics): printed as `IN[][i]`. */
bool tvt_decl_is_per_vertex(unsigned processor, const tv_tgsi_declaration *d);

#endif
