/* Pass-through vertex programs as copies (vm_stage_vert_copy.h).
 *
 * A vertex shader of MOVs from inputs to outputs (blits, full-screen passes, the position
 * and a coordinate passed on: common in GL programs and piglit's tests) spends its warps
 * in the engine's transposes, not in its instructions: the inputs into the channel slots,
 * the registers cleared, the outputs back out, 32 vertices a warp (the mesh scene's
 * 307200 vertices took a tenth of its time). MOV copies bits, so such a warp's outputs are
 * its inputs' words, chosen by the swizzles, or 0 for the channels no MOV writes (the
 * engine clears OUT before a warp runs). Here those words go from the vertex arrays to the
 * outputs directly, when every input the program reads lies whole in its array for the
 * warp's vertices (fetch_block's condition, where fetch() reads the words as they are).
 *
 * The counts are the engine's: a warp of a program without control flow counts the same
 * instructions and micro-ops whatever its lanes, and a worker learns them from the first
 * warp it runs through the engine (so also the instruction budget: a warp over it fails
 * there, and the run with it). tests/vm/test_vert_copy.c compares outputs and counts with
 * the plain interpreter's over random copy programs and arrays. */
#include "vm/vm_stage_vert_copy.h"

#include <string.h>

/* A MOV from a direct IN register to a direct OUT register, both declared (below the
 * register counts) and below TV_VM_MAX_ATTRIBS, its bits unchanged. */
static bool copy_mov(const tv_vm_program *p, const tv_tgsi_instruction *in)
{
    if (in->opcode != TV_TGSI_OP_MOV || in->saturate || in->num_dst != 1 || in->num_src != 1)
        return false;
    const tv_tgsi_dst *d = &in->dst[0];
    const tv_tgsi_src *s = &in->src[0];
    return d->reg.file == TV_FILE_OUT && !d->reg.indirect && !d->reg.has_dim &&
           d->reg.index >= 0 && d->reg.index < p->out.count &&
           d->reg.index < TV_VM_MAX_ATTRIBS && s->reg.file == TV_FILE_IN &&
           !s->reg.indirect && !s->reg.has_dim && s->reg.index >= 0 &&
           s->reg.index < p->in.count && s->reg.index < TV_VM_MAX_ATTRIBS && !s->negate &&
           !s->absolute;
}

void vm_vert_copy_plan(tv_vm_program *p)
{
    p->vert_copy = false;
    memset(p->copy_src, 0, sizeof p->copy_src);
    const tv_tgsi_program *s = &p->src;
    if (p->proc != TV_TGSI_VERT || p->plain || !s->num_insns ||
        s->insns[s->num_insns - 1].opcode != TV_TGSI_OP_END)
        return;
    for (uint32_t i = 0; i + 1 < s->num_insns; i++)
        if (!copy_mov(p, &s->insns[i]))
            return;
    /* in program order: a later MOV to a channel replaces an earlier one's word, as the
       engine's stores do (the sources, inputs, never change) */
    for (uint32_t i = 0; i + 1 < s->num_insns; i++) {
        const tv_tgsi_instruction *in = &s->insns[i];
        const uint32_t r = (uint32_t)in->dst[0].reg.index, e = (uint32_t)in->src[0].reg.index;
        for (unsigned c = 0; c < 4; c++)
            if ((in->dst[0].writemask >> c) & 1u)
                p->copy_src[r][c] = (uint8_t)(4 * e + (in->src[0].swizzle[c] & 3u) + 1);
    }
    p->vert_copy = true;
}

void vm_vert_copy_learn(vm_worker *wk, const vm_warp *w)
{
    if (wk->copy_counted || !w->prog->vert_copy)
        return;
    wk->copy_insns = w->insns;
    wk->copy_uops = w->uops;
    wk->copy_counted = true;
}

/* Whether an output's channel codes (copy_src) are input *E's x, y, z, w in order. */
static bool whole_input(const uint8_t code[4], unsigned *e)
{
    if (!code[0])
        return false;
    *e = (code[0] - 1u) / 4;
    for (unsigned c = 0; c < 4; c++)
        if (code[c] != 4 * *e + c + 1)
            return false;
    return true;
}

/* OUT[r] of lanes 0 .. N - 1, one output's channels at a time: from the inputs' blocks
 * SRC (stride STRIDE), or zero. */
static void copy_output(uint32_t *o, const uint8_t code[4], const uint8_t *const src[],
                        const uint32_t stride[], unsigned n)
{
    unsigned e;
    if (whole_input(code, &e)) {
        /* OUT[r] = IN[e], the common case: 16 bytes a vertex */
        const uint8_t *s = src[e];
        const size_t st = stride[e];
        for (unsigned l = 0; l < n; l++)
            memcpy(o + 4 * l, s + st * l, 16);
        return;
    }
    for (unsigned l = 0; l < n; l++)
        for (unsigned c = 0; c < 4; c++) {
            uint32_t v = 0;
            if (code[c]) {
                const unsigned k = code[c] - 1u;
                memcpy(&v, src[k / 4] + (size_t)stride[k / 4] * l + 4 * (k % 4), 4);
            }
            o[4 * l + c] = v;
        }
}

bool vm_vert_copy_warp(vm_worker *wk, uint32_t inst, uint32_t first, uint32_t n,
                       const int64_t e0[TV_VM_MAX_ATTRIBS])
{
    const vm_run *R = wk->run;
    const tv_vm_program *p = R->prog;
    if (!p->vert_copy || !wk->copy_counted || R->plain || R->tracing || R->vm->vert_copy_off)
        return false;
    const tv_vm_vertex_params *P = R->vp;
    const int32_t nout = p->out.count < TV_VM_MAX_ATTRIBS ? p->out.count : TV_VM_MAX_ATTRIBS;
    const uint8_t *src[TV_VM_MAX_ATTRIBS];
    uint32_t stride[TV_VM_MAX_ATTRIBS];
    uint64_t need = 0;   /* bit e: IN[e] read by a collected output */
    for (int32_t r = 0; r < nout; r++)
        if (P->out[r])
            for (unsigned c = 0; c < 4; c++)
                if (p->copy_src[r][c])
                    need |= 1ull << ((p->copy_src[r][c] - 1u) / 4);
    for (uint64_t m = need; m; m &= m - 1) {
        const unsigned e = (unsigned)__builtin_ctzll(m);
        if (e0[e] < 0)
            return false;
        src[e] = vm_vert_block_source(&P->attribs[e], (uint64_t)e0[e], n);
        if (!src[e])
            return false;
        stride[e] = P->attribs[e].stride;
    }
    const uint64_t at = (uint64_t)inst * P->count + first;
    for (int32_t r = 0; r < nout; r++)
        if (P->out[r])
            copy_output(P->out[r] + at * 4, p->copy_src[r], src, stride, n);
    wk->stats.invocations += n;
    wk->stats.instructions += wk->copy_insns;
    wk->stats.uops += wk->copy_uops;
    wk->stats.warps++;
    atomic_fetch_add_explicit(&R->vm->vert_copied, 1, memory_order_relaxed);
    return true;
}

void vm_vert_copy_set(tv_vm *vm, bool on)
{
    vm->vert_copy_off = !on;
}

uint64_t vm_vert_copied(tv_vm *vm)
{
    return atomic_load(&vm->vert_copied);
}

bool tv_vm_vertex_output_copies_input(const tv_vm_program *p, uint32_t r, uint32_t *e)
{
    unsigned in;
    if (!p || !p->vert_copy || r >= TV_VM_MAX_ATTRIBS || (int64_t)r >= p->out.count ||
        !whole_input(p->copy_src[r], &in))
        return false;
    *e = in;
    return true;
}
