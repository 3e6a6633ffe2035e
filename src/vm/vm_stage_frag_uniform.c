/* Fragment programs whose lanes all compute the same outputs (vm_stage_frag_uniform.h).
 *
 * A large triangle of one colour — a vertex colour given once for a primitive, a constant,
 * a uniform — drawn by a program that only computes from its inputs and constants (a
 * blended full-screen fade, a rectangle of a user interface, most of piglit's probes)
 * gives every pixel the same outputs. The tile walk's per-warp set-up (inputs, registers)
 * and run were then most of such a draw after the blend itself (bench_draw's blend scene,
 * 8 large blended triangles: about half of its time). Where the program is such a one
 * (this file's plan) and the tile's inputs are the same in every lane — each takes
 * interp_tile's same-value way: flat, FACE, no attribute slot, or equal at the vertices
 * with weights proven finite (vm_stage_frag.c needs_barycentrics false) — every lane of
 * the warp computes the same values as every lane of the last such warp of the same
 * triangle: the same deterministic operations on the same bits. So once a warp of all 32
 * lanes live has run (no lane killed: the program cannot kill), the walk's later warps of
 * that triangle in the same job keep its registers and skip the set-up and the run
 * (vm_stage_frag.c: a run of such a program walks its tiles in frag_job_uniform, the
 * walk's copy whose setup_inputs and run_warp do this; the other runs' copy, frag_job,
 * has none of it): the outputs are those words, the counts those
 * of that warp (its instructions and micro-ops: the same control flow, taken alike by
 * every lane, whatever lanes are live), and its budget was not exceeded. Where every
 * output goes straight to a colour target (a job's run, no pipeline hook), such a tile
 * whole in its triangle is not set up as a warp at all: a copy of the outputs' tile
 * image (vm_stage_frag.c uniform_tile; counted apart, vm_frag_uniform_stored); where they go
 * to the pipeline's warp hook, such a tile is handed to it as the skipped warp's outputs
 * (uniform_hook_tile; vm_frag_uniform_hooked). Any other warp
 * run in between disarms it. Not for the plain interpreter (the reference), traced runs,
 * or per-sample shading.
 *
 * tests/vm/test_frag_uniform.c compares outputs and every count with the engine running
 * every warp (vm_frag_uniform_set(vm, false)) and with the plain interpreter, over random
 * such programs, control flow included. */
#include "vm/vm_stage_frag_uniform.h"

#include "texvm/tgsi.h"

static _Thread_local uint64_t reused;

uint64_t vm_frag_uniform_reused(void)
{
    return reused;
}

void vm_frag_uniform_count(void)
{
    reused++;
}

static _Thread_local uint64_t stored;

uint64_t vm_frag_uniform_stored(void)
{
    return stored;
}

void vm_frag_uniform_count_stored(void)
{
    stored++;
}

static _Thread_local uint64_t hooked;

uint64_t vm_frag_uniform_hooked(void)
{
    return hooked;
}

void vm_frag_uniform_count_hooked(void)
{
    hooked++;
}

void vm_frag_uniform_set(tv_vm *vm, bool on)
{
    vm->frag_uniform_off = !on;
}

/* whether system value SEMANTIC is one value for every lane of a run without per-sample
   shading */
static bool run_wide_sv(uint8_t semantic)
{
    return semantic == TV_SEM_FACE || semantic == TV_SEM_PRIMID ||
           semantic == TV_SEM_SUBGROUP_SIZE || semantic == TV_SEM_SAMPLEID;
}

/* the instruction categories that compute from their operands alone */
static bool pure_category(unsigned cat)
{
    switch (cat) {
    case TV_OPC_FLOAT: case TV_OPC_INT: case TV_OPC_CONVERT: case TV_OPC_DOUBLE:
    case TV_OPC_INT64: case TV_OPC_PACK: case TV_OPC_ADDRESS: case TV_OPC_FLOW:
        return true;
    default:
        return false;
    }
}

void vm_frag_uniform_plan(tv_vm_program *p)
{
    p->frag_uniform = false;
    const tv_tgsi_program *s = &p->src;
    if (p->proc != TV_TGSI_FRAG || p->plain)
        return;
    for (uint32_t i = 0; i < s->num_insns; i++) {
        const tv_tgsi_opinfo *oi = tv_tgsi_opinfo_get(s->insns[i].opcode);
        if (!oi || !pure_category(oi->category))
            return;
    }
    for (uint32_t k = 0; k < p->num_svs; k++)
        if (!run_wide_sv(p->svs[k].semantic))
            return;
    p->frag_uniform = true;
}
