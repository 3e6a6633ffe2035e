/* Vertex fetch (issue 16): vertex formats decoded from their Gallium names — the channels
 * in memory order with their bit widths (packed formats from the least significant bit,
 * array formats from the lowest address: one rule, little-endian) and the data type — so
 * every UNORM, SNORM, USCALED, SSCALED, UINT, SINT, FLOAT (16, 32, 64 bits) and FIXED
 * vertex format the pipe layer numbers (include/texvm/gallium_formats.def) is one parse,
 * not a table of its own. Formats whose channels need the texture unit's decoders
 * (R11G11B10_FLOAT) go through the format table.
 * docs/pipeline-stages.md §Vertex fetch. */
#ifndef TEXVM_PIPE_VERTEX_FETCH_H
#define TEXVM_PIPE_VERTEX_FETCH_H

#include "texvm/tex.h"

#include <stdbool.h>
#include <stdint.h>

enum { VF_UNORM, VF_SNORM, VF_USCALED, VF_SSCALED, VF_UINT, VF_SINT, VF_FLOAT, VF_FIXED };

typedef struct vf_format {
    uint8_t nchan;           /* channels in memory, X (padding) included */
    uint8_t bits[4];
    int8_t dest[4];          /* API component (0 R .. 3 A) of memory channel i; -1 for X */
    uint8_t type;            /* VF_* */
    uint8_t bytes;           /* bytes per vertex */
    tv_format tex;           /* decoded by the format table instead (NONE: by the fields) */
    bool words;              /* 32-bit channels R, G, B, A in order whose words are the
                                values (FLOAT, UINT, SINT): copied as they are */
} vf_format;

/* Describe Gallium format number FORMAT as a vertex format; false when it is none. */
bool vf_format_get(uint32_t format, vf_format *out);
/* Decode one element at SRC (f->bytes readable) into API channels: floats as bits, or
 * integers; absent channels (0, 0, 0, 1), the 1 an integer for UINT/SINT. */
void vf_fetch(const vf_format *f, const uint8_t *src, uint32_t out[4]);
/* Whether the fetched values are integers (UINT, SINT). */
bool vf_is_integer(const vf_format *f);

#endif
