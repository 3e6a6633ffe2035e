/* The packing of small primitives' quads into warps (vm_stage_frag_pack.c), as batches
 * (vm_stage_frag_batch.c) fill and run them: the state of the warp being filled, its ring
 * of parked warps, and the calls that pack a primitive and run the warps. Private to the
 * two files. */
#ifndef TEXVM_VM_STAGE_FRAG_PACK_H
#define TEXVM_VM_STAGE_FRAG_PACK_H

#include "vm/vm_stage_frag.h"
#include "vm/vm_stage_frag_defer.h"

/* A batch's warps: up to VM_PACK_WARPS - 1 full ones wait to run with the next
 * (vm_frag_pack_run; eight were slower than four on the mesh scene). */
#define VM_PACK_WARPS 4

/* The candidate quads gathered for the coverage hook, and the warp they are packed into. */
typedef struct frag_pack {
    vm_warp *w;
    vm_warp *ring;                 /* a batch's VM_PACK_WARPS warps, w among them (NULL: w
                                      alone) */
    unsigned cur, parked;          /* w's index in the ring; the full warps set up and
                                      waiting to run before it, the ring's previous ones */
    int32_t cx[VM_LANES], cy[VM_LANES];
    uint32_t n, cin;               /* candidates gathered, their lanes in the box */
    uint32_t nl, inside, live;     /* lanes filled in w, setup_warp's masks */
    uint32_t group;                /* the first lane of the current primitive's group */
    uint32_t nk, gk;               /* quad entries (key, kmask), the group's first */
    bool pixels;                   /* pack covered pixels, not quads (pixels_ok,
                                      vm_stage_frag_batch.c) */
    uint64_t pixel_warps;          /* warps run so (tests) */
    unsigned isa;
    vm_frag_box fb;                /* the current primitive's */
    vm_slot *side;                 /* where later groups are computed (batches; NULL: a
                                      warp holds one group) */
    vm_frag_defer *defer;          /* groups whose inputs wait for the warp's one pass
                                      (batches on AVX-512; NULL: none wait) */
    const vm_frag_defer_plan *plan;
    uint32_t key[VM_LANES];        /* entry e's quad (quad_key) */
    uint32_t kmask[VM_LANES];      /* entry e's lanes of that quad packed (bits TL..BR) */
    vm_run *attrs_run;             /* a batch's run, whose triangles' attribute facts wait
                                      for a group computed at once (attrs_lazy); NULL:
                                      computed at set-up */
} frag_pack;

/* P's warp empty: no lane, entry or group. */
static inline void pack_empty(frag_pack *P)
{
    P->nl = P->inside = P->live = P->group = P->nk = P->gk = 0;
}

/* Whether P holds fragments still to run: parked warps, or lanes in the one being filled. */
static inline bool has_pending(const frag_pack *P)
{
    return P->nl || P->parked;
}

/* Runs P's parked warps, if any (their lanes and inputs set up), oldest first. */
tv_status vm_frag_pack_run_parked(vm_worker *wk, frag_pack *P, tv_error *err);

/* P's warp (its first nl lanes filled) set up and run, or parked where a batch's ring has
 * room; P's warp then empty (vm_stage_frag_pack.c says why the ring). */
tv_status vm_frag_pack_run(vm_worker *wk, frag_pack *P, tv_error *err);

/* The run's primitive, of box BOX (vm_frag_box_init), into P: its covered quads packed,
 * full warps run (or parked), its last group closed; P's warp may hold quads still to
 * run. */
tv_status vm_frag_pack_primitive(vm_worker *wk, frag_pack *P, const vm_frag_box *box,
                                 tv_error *err);

#endif
