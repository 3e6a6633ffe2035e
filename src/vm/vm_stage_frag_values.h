/* The FRAG stage's input values of a warp (vm_stage_frag.c): the registers zeroed, the
 * choices of a tile's inputs' way (whether they need the lanes' barycentrics, whether the
 * one inputs' pass takes them: needs_barycentrics, tile_kernel_takes, tile_way, kept per
 * job), a split tile's inputs in its two triangles (split_inputs), and `values`: the
 * inputs interpolated per tile or per lane, and the system values. Included by
 * vm_stage_frag.c only, after the helpers it uses (tile_triangle, every_sample and the
 * interpolation of vm_stage_frag_interp.h): a header, not a translation unit of its own,
 * so that the tile walk's set-up inlines `values` as it did in one file with it (the
 * same machine code: scripts/same-code.py). */
#ifndef TEXVM_VM_STAGE_FRAG_VALUES_H
#define TEXVM_VM_STAGE_FRAG_VALUES_H

/* PASS: the inputs' pass writes the warp's inputs (vm_run.in_by_pass), which then
 * need no clearing: 512 bytes a warp for one input, about 3 % of the loop workload's frame
 * (docs/jit.md) */
static TV_ALWAYS_INLINE void zero_regs(const vm_run *R, vm_warp *w, bool pass)
{
    /* registers a program may read before writing start at 0 (scratch and switch
       selectors are always written first) */
    if (R->jit_fn && !R->tracing && R->prog->jit_zero_init) {
        if (!pass || !R->in_by_pass || !vm_zero_regs_compiled_past_in(w))
            vm_zero_regs_compiled(w);
    } else {
        vm_zero_regs(w);
    }
}

/* Whether input FI of a warp is interpolated at its sample (per-sample shading) */
static bool input_at_sample(const vm_run *R, const vm_fs_input *fi, bool per_sample)
{
    return per_sample && (fi->location == TV_LOC_SAMPLE || R->sample_interp ||
                          fi->semantic == TV_SEM_POSITION);
}

/* Whether input FI moves off the pixel centre per lane: a centroid input of a partly
 * covered multisampled pixel (WHOLE < 0: the tile lies in no one triangle) */
static bool input_moves(const vm_run *R, const vm_fs_input *fi, int whole)
{
    return whole < 0 && fi->location == TV_LOC_CENTROID && R->samples > 1;
}

/* Whether the inputs of a tile interpolated in triangle T read its lanes' barycentrics:
 * not when each takes interp_tile's way without them (flat or FACE, no attribute slot, or
 * the same at the vertices with weights bounded_weights proves finite) — a flat-coloured
 * large triangle's tiles then skip tile_bary's divisions. The plain interpreter always
 * computes them. The conditions mirror values' and interp_tile's choices. */
static bool needs_barycentrics(const vm_run *R, const vm_frag_tri *t, int whole,
                               bool per_sample)
{
    const tv_vm_frag_params *fp = R->fp;
    const tv_vm_program *p = R->prog;
    /* (not t->bounded as a whole: only the same-value inputs read it, weights_bounded
       below; a triangle whose every attribute differs at its vertices is never proven
       bounded, and its flat and FACE inputs need no weights) */
    if (R->plain || t->nan_in)
        return true;
    for (uint32_t k = 0; k < p->num_inputs; k++) {
        const vm_fs_input *fi = &p->inputs[k];
        if (input_at_sample(R, fi, per_sample) || input_moves(R, fi, whole) ||
            fi->semantic == TV_SEM_POSITION)
            return true;
        if (fi->semantic == TV_SEM_FACE || vm_frag_flat_input(fp, fi) ||
            fi->reg >= TV_VM_MAX_ATTRIBS)
            continue;
        if (!((t->same_attrs >> fi->reg) & 1u) || !weights_bounded(fi, t))
            return true;
    }
    return false;
}

/* Whether the inputs of a tile interpolated in triangle T take the one pass
 * (vm_frag_tile_inputs_avx512 or _avx2) instead of tile_bary and interp_tile: where the run allows
 * it, and interp_tile would take the tile formulas for every input the pass computes (no
 * NaN among the triangle's numbers or the input's attribute: the formulas' two forms, at
 * the head). No input of the warp takes the per-lane way (at its sample, or a centroid
 * that moves), which reads the barycentrics the pass does not store, nor is POSITION (run
 * set-up). */
static bool tile_kernel_takes(const vm_run *R, const vm_frag_tri *t, int whole, bool per_sample)
{
#if VM_FRAG_TILE_KERNEL
    const tv_vm_frag_params *fp = R->fp;
    const tv_vm_program *p = R->prog;
    if (!R->tile_kernel || R->tracing || t->nan_in)
        return false;
    for (uint32_t k = 0; k < p->num_inputs; k++) {
        const vm_fs_input *fi = &p->inputs[k];
        if (input_at_sample(R, fi, per_sample) || input_moves(R, fi, whole))
            return false;
        if (!vm_frag_tile_input(R, fi))
            continue;
        if (vm_frag_attr_nan(fp, t, fi->reg))
            return false;
    }
    return true;
#else
    (void)R;
    (void)t;
    (void)whole;
    (void)per_sample;
    return false;
#endif
}

/* The inputs of a tile split_tile set up: interp_tile in each triangle its lanes lie in,
 * each lane taking its own triangle's values (interp_tile is interp_b lane-parallel, so
 * these are the per-lane loop's values) in the channels interp_tile writes. lane_b holds
 * triangle 0's barycentrics from split_tile (nothing between them writes it). */
static void split_inputs(vm_worker *wk, vm_warp *w, vm_slot *regs)
{
    const vm_run *R = wk->run;
    const tv_vm_program *p = R->prog;
    uint32_t tri1 = 0;
    for (unsigned l = 0; l < VM_LANES; l++)
        tri1 |= (uint32_t)(w->lane_tri[l] != 0) << l;
    for (uint32_t k = 0; k < p->num_inputs; k++)
        interp_tile(wk, w, &p->inputs[k], &R->tris[0], &regs[p->in.base + p->inputs[k].reg * 4]);
    if (!tri1)
        return;
    tile_bary(wk, w, &R->tris[1]);
    for (uint32_t k = 0; k < p->num_inputs; k++) {
        const vm_fs_input *fi = &p->inputs[k];
        vm_slot *dst = &regs[p->in.base + fi->reg * 4], other[4];
        interp_tile(wk, w, fi, &R->tris[1], other);
        const unsigned chans = tile_chans(R, fi);
        for (unsigned c = 0; c < 4; c++)
            if ((chans >> c) & 1u)
                for (unsigned l = 0; l < VM_LANES; l++)
                    dst[c].u[l] = ((tri1 >> l) & 1u) ? other[c].u[l] : dst[c].u[l];
    }
}

/* The choices of a tile's inputs' way in triangle T (index TILE_TRI, WHOLE as setup_warp's):
 * whether they read the lanes' barycentrics (*BARY) and take the one pass (*KERNEL).
 * They depend on the run, the triangle and whether whole < 0 (and per_sample, the run's
 * own in the walk): taken once per job in the walk (WALK), kept in the worker. */
static TV_ALWAYS_INLINE void tile_way(vm_worker *wk, const vm_frag_tri *T, int tile_tri,
                                      int whole, bool per_sample, bool walk, bool *bary,
                                      bool *kernel)
{
    const vm_run *R = wk->run;
    const unsigned way = 2u * (unsigned)tile_tri + (whole < 0);
    if (walk && ((wk->tile_ways_known >> way) & 1u)) {
        *bary = (wk->tile_ways_bary >> way) & 1u;
        *kernel = (wk->tile_ways_pass >> way) & 1u;
        return;
    }
    *bary = needs_barycentrics(R, T, whole, per_sample);
    *kernel = *bary && tile_kernel_takes(R, T, whole, per_sample);
    if (walk) {
        wk->tile_ways_known |= (uint8_t)(1u << way);
        wk->tile_ways_bary |= (uint8_t)((unsigned)*bary << way);
        wk->tile_ways_pass |= (uint8_t)((unsigned)*kernel << way);
    }
}

/* WALK: a warp of the tile walk (frag_job), whose job keeps its choices and whose
 * registers are zeroed here (the others' by their callers: vm_frag_zero_regs) */
static TV_ALWAYS_INLINE void values(vm_worker *wk, vm_warp *w, vm_slot *regs,
                                    uint32_t sample, bool per_sample, int whole,
                                    float bl[][3], bool walk)
{
    const vm_run *R = wk->run;
    const tv_vm_frag_params *fp = R->fp;
    const tv_vm_program *p = R->prog;
    /* the triangle every lane interpolates in with the tile formulas, -1: per lane */
    int tile_tri = tile_triangle(R, whole);
    /* the inputs the one pass computed (the others below as before) */
    bool kernel = false, bary = false;
    const vm_frag_tri *T = tile_tri >= 0 ? &R->tris[tile_tri] : NULL;
    if (p->num_inputs && T)
        tile_way(wk, T, tile_tri, whole, per_sample, walk, &bary, &kernel);
    if (walk)
        zero_regs(R, w, kernel);
    if (bary) {   /* (only with inputs and a tile triangle) */
#if VM_FRAG_TILE_KERNEL
        if (kernel && R->tile_kernel_avx512)
            vm_frag_tile_inputs_avx512(R, w, T, regs);
        else if (kernel)
            vm_frag_tile_inputs_avx2(R, w, T, regs);
        else
#endif
            tile_bary(wk, w, T);
    } else if (p->num_inputs && !T) {
        if (whole == TILE_SPLIT) {
            split_inputs(wk, w, regs);
        } else {
            for (unsigned l = 0; l < VM_LANES; l++)
                for (unsigned k = 0; k < 3; k++)
                    wk->lane_b[k][l] = bl[l][k];
        }
    }
    /* inputs (a split tile's: above) */
    for (uint32_t k = 0; k < p->num_inputs && whole != TILE_SPLIT; k++) {
        const vm_fs_input *fi = &p->inputs[k];
#if VM_FRAG_TILE_KERNEL
        if (kernel && vm_frag_tile_input(R, fi))
            continue;
#endif
        vm_slot *dst = &regs[p->in.base + fi->reg * 4];
        bool at_sample = input_at_sample(R, fi, per_sample);
        if (tile_tri >= 0 && !at_sample && !input_moves(R, fi, whole)) {
            interp_tile(wk, w, fi, &R->tris[tile_tri], dst);
            continue;
        }
        for (unsigned l = 0; l < VM_LANES; l++) {
            float sx = 0.5f, sy = 0.5f;
            if (at_sample)
                sample_xy(R, sample, &sx, &sy);
            else if (fi->location == TV_LOC_CENTROID && w->lane_cov[l] &&
                     w->lane_cov[l] != every_sample(R)) {
                uint32_t s = 0;
                while (!((w->lane_cov[l] >> s) & 1u)) s++;
                sample_xy(R, s, &sx, &sy);
            }
            uint32_t v[4];
            const vm_frag_tri *tri = &R->tris[w->lane_tri[l]];
            if (sx == 0.5f && sy == 0.5f) {
                const float b[3] = {wk->lane_b[0][l], wk->lane_b[1][l], wk->lane_b[2][l]};
                interp_b(R, fi, tri, b, (float)w->lane_x[l] + sx, (float)w->lane_y[l] + sy, v);
            }
            else
                interp_at(R, fi, tri, (float)w->lane_x[l] + sx, (float)w->lane_y[l] + sy, v);
            for (unsigned c = 0; c < 4; c++) dst[c].u[l] = v[c];
        }
    }
    /* system values */
    for (uint32_t k = 0; k < p->num_svs; k++) {
        const vm_sv *sv = &p->svs[k];
        vm_slot *s = &regs[p->sv.base + sv->reg * 4];
        for (unsigned l = 0; l < VM_LANES; l++) {
            uint32_t v[4] = {0, 0, 0, 0};
            float sx, sy;
            switch (sv->semantic) {
            case TV_SEM_SAMPLEID: v[0] = v[1] = v[2] = v[3] = sample; break;
            case TV_SEM_SAMPLEPOS:
                sample_xy(R, per_sample ? sample : 0, &sx, &sy);
                if (!per_sample) sx = sy = 0.5f;
                v[0] = tv_f32_bits(sx); v[1] = tv_f32_bits(sy);
                break;
            case TV_SEM_SAMPLEMASK:
                v[0] = per_sample ? (w->lane_cov[l] & (1u << sample)) : w->lane_cov[l];
                break;
            case TV_SEM_FACE:
                v[0] = tv_f32_bits(fp->front_face ? 1.0f : -1.0f);
                break;
            case TV_SEM_HELPER_INVOCATION:
                v[0] = v[1] = v[2] = v[3] = ((w->helper >> l) & 1u) ? ~0u : 0u;
                break;
            case TV_SEM_PRIMID: v[0] = v[1] = v[2] = v[3] = fp->primitive_id; break;
            case TV_SEM_POSITION: {
                vm_fs_input fi = {0, TV_SEM_POSITION, 0, TV_INTERP_LINEAR, 0, 0xf, 0xf};
                interp_at(R, &fi, &R->tris[w->lane_tri[l]], (float)w->lane_x[l] + 0.5f,
                          (float)w->lane_y[l] + 0.5f, v);
                break;
            }
            case TV_SEM_SUBGROUP_SIZE: v[0] = VM_LANES; break;
            case TV_SEM_SUBGROUP_INVOCATION: v[0] = l; break;
            default: break;
            }
            for (unsigned c = 0; c < 4; c++)
                s[c].u[l] = v[c];
        }
    }
}

#endif
