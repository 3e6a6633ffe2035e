/* Program objects: deep copy of the source, validation, lowering, accessors. */
#include <stdlib.h>

#include "vm/vm_jit.h"
#include "vm/vm_stage_frag_uniform.h"
#include "vm/vm_stage_vert_copy.h"
#include "vm/vm_lower.h"
#include "vm/vm_run.h"

tv_status vm_lower_program(vm_lower *L);

#define DUP(dst, srcp, n)                                                                  \
    do {                                                                                   \
        (dst) = NULL;                                                                      \
        if ((n) > 0) {                                                                     \
            (dst) = malloc((size_t)(n) * sizeof *(dst));                                   \
            if (!(dst)) return false;                                                      \
            memcpy((dst), (srcp), (size_t)(n) * sizeof *(dst));                            \
        }                                                                                  \
    } while (0)

static bool copy_program(tv_tgsi_program *d, const tv_tgsi_program *s)
{
    *d = *s;
    d->props = NULL; d->decls = NULL; d->imms = NULL; d->insns = NULL; d->stmts = NULL;
    DUP(d->props, s->props, s->num_props);
    DUP(d->decls, s->decls, s->num_decls);
    DUP(d->imms, s->imms, s->num_imms);
    DUP(d->insns, s->insns, s->num_insns);
    DUP(d->stmts, s->stmts, s->num_stmts);
    return true;
}

void tv_vm_program_destroy(tv_vm_program *p)
{
    if (!p)
        return;
    vm_jit_release(p);
    free(p->src.props); free(p->src.decls); free(p->src.imms); free(p->src.insns);
    free(p->src.stmts);
    free(p->uops); free(p->uops_plain); free(p->insn_uop); free(p->uniform_init); free(p->constrefs);
    free(p->inputs); free(p->svs); free(p->out_sem); free(p->out_sem_index);
    free(p);
}

tv_vm_program *tv_vm_program_create(tv_vm *vm, const tv_tgsi_program *prog, tv_error *err)
{
    if (!prog) {
        tv_error_set(err, TV_ERR_ARG, 0, 0, "no program");
        return NULL;
    }
    switch (prog->processor) {
    case TV_TGSI_COMP: case TV_TGSI_FRAG: case TV_TGSI_VERT: case TV_TGSI_GEOM:
    case TV_TGSI_TESS_CTRL: case TV_TGSI_TESS_EVAL: break;
    default:
        tv_error_set(err, TV_ERR_UNSUPPORTED, prog->first_line, 0,
                     "the %s stage is not supported by the engine",
                     tv_tgsi_processor_name(prog->processor) ?
                         tv_tgsi_processor_name(prog->processor) : "?");
        return NULL;
    }
    if (tv_tgsi_validate(prog, TV_TGSI_LENIENT, err) != TV_OK)
        return NULL;
    tv_vm_program *p = calloc(1, sizeof *p);
    if (!p || !copy_program(&p->src, prog)) {
        tv_vm_program_destroy(p);
        tv_error_set(err, TV_ERR_NOMEM, 0, 0, "out of memory");
        return NULL;
    }
    p->plain = vm && vm->cfg.plain;   /* lowered without rewrites (tv_vm_config.plain) */
    p->fine_derivatives = vm && vm->cfg.fine_derivatives;
    vm_lower L;
    memset(&L, 0, sizeof L);
    L.p = p;
    L.src = &p->src;
    L.err = err;
    tv_status st = vm_lower_program(&L);
    free(L.uops); free(L.crefs); free(L.match); free(L.skip); free(L.owner);
    free(L.switch_slot);
    if (st != TV_OK) {
        tv_vm_program_destroy(p);
        return NULL;
    }
    vm_vert_copy_plan(p);
    vm_frag_uniform_plan(p);
    return p;
}

tv_vm_program *tv_vm_program_from_text(tv_vm *vm, const char *text, size_t len,
                                       const char *filename, tv_error *err)
{
    tv_tgsi_program *progs = NULL;
    size_t n = 0;
    if (tv_tgsi_parse(text, len, filename, TV_TGSI_MODE_DEFAULT, &progs, &n, err) != TV_OK)
        return NULL;
    if (n == 0) {
        tv_error_set(err, TV_ERR_PARSE, 0, 0, "no program in the text");
        return NULL;
    }
    tv_vm_program *p = tv_vm_program_create(vm, &progs[0], err);
    tv_tgsi_programs_free(progs, n);
    return p;
}

const tv_tgsi_program *tv_vm_program_source(const tv_vm_program *p) { return &p->src; }
tv_tgsi_processor tv_vm_program_processor(const tv_vm_program *p) { return p->proc; }
void tv_vm_program_block_size(const tv_vm_program *p, uint32_t block[3])
{
    memcpy(block, p->block, sizeof p->block);
}
uint32_t tv_vm_program_num_uops(const tv_vm_program *p) { return p->num_uops; }

size_t tv_vm_program_bytes(const tv_vm_program *p)
{
    const tv_tgsi_program *s = &p->src;
    return sizeof *p + (size_t)s->num_props * sizeof *s->props +
           (size_t)s->num_decls * sizeof *s->decls + (size_t)s->num_imms * sizeof *s->imms +
           (size_t)s->num_insns * sizeof *s->insns + (size_t)s->num_stmts * sizeof *s->stmts +
           ((size_t)p->num_uops + p->num_uops_plain) * sizeof(vm_uop) +
           ((size_t)s->num_insns + 1) * sizeof *p->insn_uop +
           (size_t)p->num_uniform * sizeof *p->uniform_init +
           (size_t)p->num_constrefs * sizeof *p->constrefs +
           ((size_t)p->in.count + 1) * sizeof *p->inputs +
           ((size_t)p->sv.count + 1) * sizeof *p->svs +
           ((size_t)p->out.count + 1) * (sizeof *p->out_sem + sizeof *p->out_sem_index);
}
