/* Lowering, part 1: read properties and declarations, size every register file, collect
 * directly addressed constants, and lay out the slot space. */
#include <stdlib.h>

#include "vm/vm_lower.h"

static void grow(int32_t *maxidx, int32_t idx)
{
    if (idx > *maxidx)
        *maxidx = idx;
}

static uint32_t gs_vertices_for_prim(uint32_t prim)
{
    switch (prim) {   /* PIPE_PRIM_* */
    case 0: return 1;                 /* POINTS */
    case 1: case 2: case 3: return 2; /* LINES, LINE_LOOP, LINE_STRIP */
    case 10: case 11: return 4;       /* LINES_ADJACENCY, LINE_STRIP_ADJACENCY */
    case 12: case 13: return 6;       /* TRIANGLES_ADJACENCY, TRIANGLE_STRIP_ADJACENCY */
    default: return 3;                /* triangles and friends */
    }
}

static tv_status add_cref(vm_lower *L, uint32_t dim, uint32_t index)
{
    for (uint32_t i = 0; i < L->num_crefs; i += 4)
        if (L->crefs[i].dim == dim && L->crefs[i].index == index)
            return TV_OK;
    if (L->num_crefs + 4 > L->cap_crefs) {
        uint32_t cap = L->cap_crefs ? L->cap_crefs * 2 : 64;
        vm_constref *n = realloc(L->crefs, cap * sizeof *n);
        if (!n)
            return vm_lower_fail(L, TV_ERR_NOMEM, "out of memory");
        L->crefs = n;
        L->cap_crefs = cap;
    }
    for (uint32_t c = 0; c < 4; c++)
        L->crefs[L->num_crefs++] = (vm_constref){0, dim, index, c};
    return TV_OK;
}

static void scan_reg(vm_lower *L, const tv_tgsi_reg *r, int32_t mx[TV_FILE_COUNT])
{
    if (r->file < TV_FILE_COUNT && !r->indirect)
        grow(&mx[r->file], r->index);
    if (r->file == TV_FILE_CONST && !r->indirect && !r->dim_indirect && r->index >= 0)
        add_cref(L, r->has_dim ? (uint32_t)r->dim : 0, (uint32_t)r->index);
    if (r->indirect && r->ind.file < TV_FILE_COUNT)
        grow(&mx[r->ind.file], r->ind.index);
    if (r->dim_indirect && r->dim_ind.file < TV_FILE_COUNT)
        grow(&mx[r->dim_ind.file], r->dim_ind.index);
}

tv_status vm_lower_decls(vm_lower *L);
tv_status vm_lower_decls(vm_lower *L)
{
    tv_vm_program *p = L->p;
    const tv_tgsi_program *P = L->src;
    p->proc = (tv_tgsi_processor)P->processor;
    p->gs_in_vertices = 1;
    p->gs_invocations = 1;
    p->out_vertices = P->processor == TV_TGSI_TESS_CTRL ? 0 : 1;
    bool tess = P->processor == TV_TGSI_TESS_CTRL || P->processor == TV_TGSI_TESS_EVAL;
    if (tess)
        p->gs_in_vertices = TV_VM_MAX_PATCH_VERTICES;
    for (uint32_t i = 0; i < P->num_props; i++) {
        const tv_tgsi_prop *pr = &P->props[i];
        switch (pr->name) {
        case TV_PROP_CS_FIXED_BLOCK_WIDTH: p->block[0] = pr->value; break;
        case TV_PROP_CS_FIXED_BLOCK_HEIGHT: p->block[1] = pr->value; break;
        case TV_PROP_CS_FIXED_BLOCK_DEPTH: p->block[2] = pr->value; break;
        case TV_PROP_LEGACY_MATH_RULES: p->legacy_math = pr->value != 0; break;
        case TV_PROP_FS_COORD_ORIGIN: p->origin_lower_left = pr->value != 0; break;
        case TV_PROP_FS_COORD_PIXEL_CENTER: p->center_integer = pr->value != 0; break;
        case TV_PROP_GS_INPUT_PRIMITIVE: p->gs_in_vertices = gs_vertices_for_prim(pr->value); break;
        case TV_PROP_GS_OUTPUT_PRIMITIVE: p->gs_out_prim = pr->value; break;
        case TV_PROP_GS_MAX_OUTPUT_VERTICES: p->gs_max_vertices = pr->value; break;
        case TV_PROP_GS_INVOCATIONS: p->gs_invocations = pr->value ? pr->value : 1; break;
        case TV_PROP_TCS_VERTICES_OUT: p->out_vertices = pr->value; break;
        case TV_PROP_TES_PRIM_MODE: p->tes_prim_mode = pr->value; break;
        default: break;
        }
    }
    int32_t mx[TV_FILE_COUNT];
    for (unsigned f = 0; f < TV_FILE_COUNT; f++)
        mx[f] = -1;
    for (uint32_t i = 0; i < P->num_decls; i++) {
        const tv_tgsi_declaration *d = &P->decls[i];
        if (d->file >= TV_FILE_COUNT || d->first < 0 || d->last < d->first)
            continue;
        grow(&mx[d->file], d->last);
        if (d->file == TV_FILE_OUT && d->dim_implied)
            for (int32_t r = d->first; r <= d->last && r < 64; r++)
                p->out_vertex_regs |= 1ull << r;
        if (d->array_id && L->num_arrays < 64 &&
            (d->file == TV_FILE_TEMP || d->file == TV_FILE_IN || d->file == TV_FILE_OUT)) {
            L->arrays[L->num_arrays].file = d->file;
            L->arrays[L->num_arrays].id = d->array_id;
            L->arrays[L->num_arrays].first = d->first;
            L->arrays[L->num_arrays].last = d->last;
            L->num_arrays++;
        }
        if (d->file == TV_FILE_IMAGE && d->first < TV_VM_MAX_IMAGES) {
            for (int32_t k = d->first; k <= d->last && k < TV_VM_MAX_IMAGES; k++) {
                const char *fname = tv_tgsi_pipe_format_name(d->image_format);
                p->image_format[k] = fname ? (uint8_t)tv_format_from_pipe_name(fname) : 0;
                p->image_target[k] = d->image_target;
                p->image_raw[k] = d->raw;
            }
        }
        if (d->file == TV_FILE_MEMORY)
            for (int32_t k = d->first; k <= d->last && k < TV_VM_MAX_MEMORY; k++)
                p->memory[k] = (vm_memdecl){true, d->memory_type};
    }
    uint32_t nswitch = 0;
    for (uint32_t i = 0; i < P->num_insns; i++) {
        const tv_tgsi_instruction *in = &P->insns[i];
        for (unsigned k = 0; k < in->num_dst && k < TV_TGSI_MAX_DST; k++)
            scan_reg(L, &in->dst[k].reg, mx);
        for (unsigned k = 0; k < in->num_src && k < TV_TGSI_MAX_SRC; k++)
            scan_reg(L, &in->src[k].reg, mx);
        if (in->opcode == TV_TGSI_OP_SWITCH)
            nswitch++;
        if (L->status != TV_OK)
            return L->status;
    }
    if (mx[TV_FILE_ADDR] < 0)
        mx[TV_FILE_ADDR] = 0;
    if (p->proc == TV_TGSI_TESS_CTRL && p->out_vertices == 0)
        return vm_lower_fail(L, TV_ERR_INVALID,
                             "a TESS_CTRL program needs the TCS_VERTICES_OUT property");
    if (p->proc == TV_TGSI_TESS_CTRL &&
        (p->out_vertices < 1 || p->out_vertices > TV_VM_MAX_PATCH_VERTICES))
        return vm_lower_fail(L, TV_ERR_UNSUPPORTED,
                             "TCS_VERTICES_OUT %u is outside [1, %u]", p->out_vertices,
                             TV_VM_MAX_PATCH_VERTICES);
    /* slot layout */
    uint32_t slot = 1 + P->num_imms * 4;   /* slot 0 = zero */
    L->cref_base = slot;
    for (uint32_t i = 0; i < L->num_crefs; i++)
        L->crefs[i].slot = slot++;
    p->num_uniform = slot;
    vm_range *rgs[5] = {&p->temp, &p->in, &p->out, &p->sv, &p->addr};
    unsigned files[5] = {TV_FILE_TEMP, TV_FILE_IN, TV_FILE_OUT, TV_FILE_SV, TV_FILE_ADDR};
    for (unsigned k = 0; k < 5; k++) {
        int32_t count = mx[files[k]] + 1;
        if (count > 65536)
            return vm_lower_fail(L, TV_ERR_UNSUPPORTED, "too many %s registers (%d)",
                                 tv_tgsi_file_name(files[k]), count);
        rgs[k]->base = slot;
        rgs[k]->first = 0;
        rgs[k]->count = count;
        uint32_t regs = (uint32_t)count;
        if (tess && (files[k] == TV_FILE_IN || files[k] == TV_FILE_OUT) &&
            count > TV_VM_MAX_ATTRIBS)
            return vm_lower_fail(L, TV_ERR_UNSUPPORTED, "too many %s registers (%d) for a "
                                 "tessellation stage (at most %d)",
                                 tv_tgsi_file_name(files[k]), count, TV_VM_MAX_ATTRIBS);
        if (files[k] == TV_FILE_IN && (p->proc == TV_TGSI_GEOM || tess)) {
            p->in_per_vertex = (uint32_t)count;
            regs = (uint32_t)count * p->gs_in_vertices;
        }
        if (files[k] == TV_FILE_OUT && p->proc == TV_TGSI_TESS_CTRL) {
            /* every invocation keeps a copy of the whole patch's outputs (vm_stage_tess.c) */
            p->out_per_vertex = (uint32_t)count;
            regs = (uint32_t)count * p->out_vertices;
        }
        slot += regs * 4;
    }
    L->switch_sel_base = slot;
    for (uint32_t i = 0, s = 0; i < P->num_insns; i++)
        if (P->insns[i].opcode == TV_TGSI_OP_SWITCH)
            L->switch_slot[i] = slot + s++;
    slot += nswitch;
    if (p->proc == TV_TGSI_TESS_CTRL)
        p->invocation_slot = slot++;
    p->scratch_base = slot;
    p->num_slots = slot + VM_SCRATCH_SLOTS;
    /* uniform initial values */
    p->uniform_init = calloc(p->num_uniform, sizeof *p->uniform_init);
    if (!p->uniform_init)
        return vm_lower_fail(L, TV_ERR_NOMEM, "out of memory");
    for (uint32_t i = 0; i < P->num_imms; i++)
        for (unsigned c = 0; c < 4; c++)
            p->uniform_init[1 + i * 4 + c] = P->imms[i].u[c];
    p->constrefs = L->crefs;
    p->num_constrefs = L->num_crefs;
    L->crefs = NULL;
    L->cap_crefs = 0;
    /* inputs, system values, outputs */
    p->out_sem = malloc(((size_t)p->out.count + 1) * sizeof *p->out_sem);
    p->out_sem_index = calloc((size_t)p->out.count + 1, sizeof *p->out_sem_index);
    p->inputs = calloc((size_t)p->in.count + 1, sizeof *p->inputs);
    p->svs = calloc((size_t)p->sv.count + 1, sizeof *p->svs);
    if (!p->out_sem || !p->out_sem_index || !p->inputs || !p->svs)
        return vm_lower_fail(L, TV_ERR_NOMEM, "out of memory");
    memset(p->out_sem, TV_SEM_COUNT, (size_t)p->out.count + 1);
    /* record of each IN / SV register (index + 1, 0 = none): finding a register declared
     * twice is O(1), not a search (65536 declared inputs took seconds) */
    uint32_t *in_rec = calloc((size_t)p->in.count + 1, sizeof *in_rec);
    uint32_t *sv_rec = calloc((size_t)p->sv.count + 1, sizeof *sv_rec);
    if (!in_rec || !sv_rec) {
        free(in_rec);
        free(sv_rec);
        return vm_lower_fail(L, TV_ERR_NOMEM, "out of memory");
    }
    for (uint32_t i = 0; i < P->num_decls; i++) {
        const tv_tgsi_declaration *d = &P->decls[i];
        if (d->first < 0)
            continue;
        for (int32_t r = d->first; r <= d->last; r++) {
            uint32_t sidx = d->semantic_index + (uint32_t)(r - d->first);
            if (d->file == TV_FILE_OUT && r < p->out.count) {
                p->out_sem[r] = d->has_semantic ? d->semantic : TV_SEM_COUNT;
                p->out_sem_index[r] = sidx;
            } else if (d->file == TV_FILE_IN && r < p->in.count) {
                /* a register declared twice keeps its last declaration */
                if (!in_rec[r])
                    in_rec[r] = ++p->num_inputs;
                vm_fs_input *fi = &p->inputs[in_rec[r] - 1];
                fi->reg = (uint32_t)r;
                fi->semantic = d->has_semantic ? d->semantic : TV_SEM_COUNT;
                fi->semantic_index = sidx;
                fi->interp = d->has_interp ? d->interp : TV_INTERP_PERSPECTIVE;
                fi->location = d->location;
                fi->usage = d->usage_mask;
                if (d->location == TV_LOC_SAMPLE)
                    p->uses_sample_shading = true;
            } else if (d->file == TV_FILE_SV && r < p->sv.count) {
                if (!sv_rec[r])
                    sv_rec[r] = ++p->num_svs;
                vm_sv *sv = &p->svs[sv_rec[r] - 1];
                sv->reg = (uint32_t)r;
                sv->semantic = d->semantic;
                if (d->semantic == TV_SEM_SAMPLEID || d->semantic == TV_SEM_SAMPLEPOS)
                    p->uses_sample_shading = true;
                if (d->semantic == TV_SEM_SUBGROUP_INVOCATION)
                    p->sees_warp = true;   /* (a lane's index in its warp) */
            }
        }
    }
    free(in_rec);
    free(sv_rec);
    return TV_OK;
}
