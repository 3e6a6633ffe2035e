/* A batch's packed groups whose inputs wait for one pass over the whole warp
 * (vm_stage_frag_defer.c): instead of interpolating all 32 lanes once per group, in the
 * group's triangle (a warp of ten-pixel triangles holds two to three groups), each group
 * leaves its triangle's numbers in small tables, and when the warp runs every lane takes
 * its own group's with the same formulas, once. */
#ifndef TEXVM_VM_STAGE_FRAG_DEFER_H
#define TEXVM_VM_STAGE_FRAG_DEFER_H

#include "vm/vm_run.h"

enum {
    VM_DEFER_CHANNELS = 16,   /* input channels read by a program that defers (4 vec4s) */
    VM_DEFER_GROUPS = 16      /* table entries (a warp holds at most 8 groups: one quad
                                 each at least; 16 fills one 64-byte vector) */
};

/* What a program's inputs ask of the pass, decided once per batch. */
typedef struct vm_frag_defer_plan {
    bool ok;                                 /* the program's inputs can wait (below) */
    bool any_persp;                          /* some channel is perspective-correct */
    bool has_color;                          /* COLOR inputs: flat under flatshade */
    bool has_centroid;                       /* centroid inputs: move with multisampling */
    uint8_t n;                               /* channels to compute */
    uint8_t reg[VM_DEFER_CHANNELS];          /* their attribute (IN index) */
    uint8_t chan[VM_DEFER_CHANNELS];         /* and channel */
    uint8_t persp[VM_DEFER_CHANNELS];        /* 1: PERSPECTIVE or COLOR, 0: LINEAR */
    uint32_t slot[VM_DEFER_CHANNELS];        /* the register slot it lands in */
} vm_frag_defer_plan;

/* The warp's deferred groups: per group, its triangle's positions, doubled area, 1/w and
 * per channel the attribute at vertex 0 and its differences to vertices 1 and 2. */
typedef struct vm_frag_defer {
    float x[3][VM_DEFER_GROUPS], y[3][VM_DEFER_GROUPS];
    float area[VM_DEFER_GROUPS], iw[3][VM_DEFER_GROUPS];
    float v0[VM_DEFER_CHANNELS][VM_DEFER_GROUPS];
    float d1[VM_DEFER_CHANNELS][VM_DEFER_GROUPS];
    float d2[VM_DEFER_CHANNELS][VM_DEFER_GROUPS];
    uint32_t lane_group[VM_LANES];           /* each deferred lane's group (words: a byte
                                                loop became a memset, whose masked store
                                                the next access to `lanes` waited for) */
    uint32_t lanes;                          /* the lanes whose inputs wait */
    uint32_t groups;                         /* groups recorded */
    uint64_t deferred;                       /* groups recorded since the start (tests) */
} vm_frag_defer;

/* Whether program P's inputs can wait: no system values, every input a GENERIC-like one
 * (not POSITION or FACE) with an attribute slot, LINEAR, PERSPECTIVE or COLOR, and at
 * most VM_DEFER_CHANNELS channels read. */
void vm_frag_defer_plan_init(vm_frag_defer_plan *pl, const tv_vm_program *p);

/* Records lanes [LO, HI) of the warp as a group of the run's current primitive (its one
 * triangle, R->tris[0]) when its inputs can wait: the plan's, no NaN among the triangle's
 * positions, depths, 1/w and the inputs' attributes (the tile formulas then give the
 * reference's bits), no flat COLOR, no moving centroid. Returns false (nothing recorded)
 * otherwise: the group is computed at once. */
bool vm_frag_defer_group(vm_frag_defer *D, const vm_frag_defer_plan *pl, const vm_run *R,
                         unsigned lo, unsigned hi);

/* The pass's variants (vm_frag_defer_run's KERNEL) */
enum { VM_DEFER_C, VM_DEFER_AVX2, VM_DEFER_AVX512 };

/* The deferred lanes' inputs into REGS (the warp's registers; other lanes untouched),
 * from the warp's lane positions; then D is empty. KERNEL: VM_DEFER_AVX512 or _AVX2, a
 * vector kernel (the caller has checked the CPU), VM_DEFER_C the plain loop (the kernels'
 * reference in the tests); all give the tile formulas' bits. */
void vm_frag_defer_run(vm_frag_defer *D, const vm_frag_defer_plan *pl, const vm_warp *w,
                       vm_slot *regs, unsigned kernel);

#endif
