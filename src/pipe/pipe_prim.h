/* Primitive assembly (issue 16): a draw's vertex sequence into primitives for every
 * Gallium topology (PIPE_PRIM_*: points, lines, loops, strips, fans, quads, polygons,
 * adjacency, patches), with GL's provoking vertex (GL 4.6 table 13.2, both conventions)
 * and primitive IDs; index buffers of 8, 16 and 32 bits with base vertex and primitive
 * restart. docs/pipeline-stages.md §Primitive assembly. */
#ifndef TEXVM_PIPE_PRIM_H
#define TEXVM_PIPE_PRIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* PIPE_PRIM_* values (also the virgl wire values). */
enum {
    PRIM_POINTS, PRIM_LINES, PRIM_LINE_LOOP, PRIM_LINE_STRIP, PRIM_TRIANGLES,
    PRIM_TRIANGLE_STRIP, PRIM_TRIANGLE_FAN, PRIM_QUADS, PRIM_QUAD_STRIP, PRIM_POLYGON,
    PRIM_LINES_ADJACENCY, PRIM_LINE_STRIP_ADJACENCY, PRIM_TRIANGLES_ADJACENCY,
    PRIM_TRIANGLE_STRIP_ADJACENCY, PRIM_PATCHES, PRIM_COUNT
};

#define PRIM_MAX_VERTICES 32   /* PIPE_MAX_PATCH_VERTICES */

/* One assembled primitive: positions in the draw's vertex sequence (0-based). */
typedef struct prim_out {
    uint32_t v[PRIM_MAX_VERTICES];  /* in the order a geometry shader receives them: for
                                       adjacency, triangle/line vertices and their
                                       neighbours interleaved as GL defines */
    uint8_t n;                      /* 1, 2, 3, 4, 6 or the patch size */
    uint32_t provoking;             /* sequence position of the provoking vertex */
    uint32_t id;                    /* primitive ID: the topology's primitive number in
                                       the draw (both triangles of a quad share it) */
    bool first;                     /* the first of its strip or loop, or of a list
                                       topology (line stipple restarts there) */
} prim_out;

/* Called for each primitive; return false to stop. */
typedef bool (*prim_fn)(void *user, const prim_out *p);

/* Rows of the topology table: name and what one primitive is made of. */
typedef struct prim_info {
    const char *name;               /* "TRIANGLE_STRIP" */
    uint8_t kind;                   /* 1 point, 2 line, 3 triangle, 0 patch */
    bool adjacency;
} prim_info;
const prim_info *prim_get(unsigned topology);

/* Assemble COUNT vertices of TOPOLOGY starting at primitive number FIRST_ID (primitive
 * restart keeps counting). Quads and polygons are split into triangles (quads: (0, 1, 3)
 * and (1, 2, 3); polygons: a fan from vertex 0). PATCH_VERTICES is the patch size for
 * PRIM_PATCHES. Incomplete primitives at the end are dropped, as GL does. Returns the
 * number of primitives of the topology (next FIRST_ID - FIRST_ID), or -1 when TOPOLOGY or
 * PATCH_VERTICES is invalid. */
long prim_assemble(unsigned topology, uint32_t count, unsigned patch_vertices,
                   bool last_provoking, uint32_t first_id, prim_fn fn, void *user);

/* A plain list topology without adjacency (points, lines, triangles: primitive p is
 * vertices K p .. K p + K - 1) as prim_assemble makes it: true with K and the provoking
 * vertex MUL p + ADD of the convention; false for other topologies. */
bool prim_list_form(unsigned topology, bool last_provoking, unsigned *k, uint32_t *mul,
                    uint32_t *add);

/* The rasterised part of a primitive (adjacency neighbours dropped: lines with adjacency
 * draw v[1]-v[2], triangles with adjacency v[0], v[2], v[4]). */
void prim_rasterised(const prim_out *p, prim_out *out);

/* Index fetch: INDEX_SIZE 1, 2 or 4 bytes from BUF (SIZE bytes) at element START + I.
 * Reads past the buffer give index 0 (robust access). */
uint32_t prim_index(const void *buf, size_t size, unsigned index_size, uint64_t element);

/* Indexed draw: split START..START+COUNT of the index buffer at RESTART_INDEX (when
 * RESTART), assemble each run, and give FN primitives whose v[] are vertex IDs
 * (index + BASE_VERTEX, wrapping as 32-bit integers do). Returns primitives emitted or -1. */
long prim_assemble_indexed(unsigned topology, const void *buf, size_t size,
                           unsigned index_size, uint32_t start, uint32_t count,
                           int32_t base_vertex, bool restart, uint32_t restart_index,
                           unsigned patch_vertices, bool last_provoking, prim_fn fn,
                           void *user);

#endif
