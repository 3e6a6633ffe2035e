/* COMP stage: a grid of blocks; each block's threads are packed 32 to a warp (x fastest).
 * Blocks are jobs on the thread pool. BARRIER: every warp of the block runs until it
 * reaches the barrier (or ends), then all resume; shared memory is per block and zeroed
 * at block start. */
#include "vm/vm_ops.h"
#include "vm/vm_run.h"

/* Thread ids (x, y, z within the block) of the 32 lanes of the warp whose first thread
 * is `first`: thread t = first + l has x = t % bx, y = (t / bx) % by, z = t / (bx * by)
 * (lanes past the block's end included, as if the block went on). One division per
 * warp, then a mixed-radix count. */
static void warp_tids(const vm_run *R, uint32_t first, uint32_t tid[3][VM_LANES])
{
    uint32_t bx = R->block[0], by = R->block[1];
    uint32_t x = first % bx, y = (first / bx) % by, z = first / (bx * by);
    if (bx - x >= VM_LANES) {     /* the warp lies in one row (blocks 32·k wide) */
        for (unsigned l = 0; l < VM_LANES; l++) {
            tid[0][l] = x + l;
            tid[1][l] = y;
            tid[2][l] = z;
        }
        return;
    }
    for (unsigned l = 0; l < VM_LANES; l++) {
        tid[0][l] = x;
        tid[1][l] = y;
        tid[2][l] = z;
        if (++x == bx) {
            x = 0;
            if (++y == by) {
                y = 0;
                z++;
            }
        }
    }
}

static inline void fill(vm_slot *s, uint32_t v)
{
    for (unsigned l = 0; l < VM_LANES; l++)
        s->u[l] = v;
}

/* The system values of a warp: per declared value, its four slots written whole (a
 * lane loop per slot, no per-lane switch). `all` false: only BLOCK_ID, the one value that
 * differs between blocks (the others are still in the registers from the worker's
 * previous block: programs cannot write SV registers). lane_x/lane_y always. */
VM_WIDE_VECTORS static void set_sv(vm_warp *w, const vm_run *R, const uint32_t bid[3],
                                   uint32_t first, bool all)
{
    const tv_vm_program *p = w->prog;
    uint32_t tid[3][VM_LANES];
    warp_tids(R, first, tid);
    for (uint32_t k = 0; k < p->num_svs; k++) {
        const vm_sv *sv = &p->svs[k];
        vm_slot *s = &w->r[p->sv.base + sv->reg * 4];
        if (!all && sv->semantic != TV_SEM_BLOCK_ID)
            continue;
        switch (sv->semantic) {
        case TV_SEM_THREAD_ID:
            for (unsigned c = 0; c < 3; c++)
                memcpy(s[c].u, tid[c], sizeof tid[c]);
            fill(&s[3], 0);
            break;
        case TV_SEM_BLOCK_ID:
            for (unsigned c = 0; c < 3; c++)
                fill(&s[c], bid[c] + R->grid_offset[c]);
            fill(&s[3], 0);
            break;
        case TV_SEM_GRID_SIZE:
            for (unsigned c = 0; c < 3; c++)
                fill(&s[c], R->grid[c]);
            fill(&s[3], 0);
            break;
        case TV_SEM_BLOCK_SIZE:
            for (unsigned c = 0; c < 3; c++)
                fill(&s[c], R->block[c]);
            fill(&s[3], 0);
            break;
        case TV_SEM_WORK_DIM:
            for (unsigned c = 0; c < 4; c++)
                fill(&s[c], R->work_dim);
            break;
        case TV_SEM_SUBGROUP_SIZE:
            for (unsigned c = 0; c < 4; c++)
                fill(&s[c], VM_LANES);
            break;
        case TV_SEM_SUBGROUP_INVOCATION:
            for (unsigned c = 0; c < 4; c++)
                for (unsigned l = 0; l < VM_LANES; l++)
                    s[c].u[l] = l;
            break;
        case TV_SEM_SUBGROUP_EQ_MASK: case TV_SEM_SUBGROUP_GE_MASK:
        case TV_SEM_SUBGROUP_GT_MASK: case TV_SEM_SUBGROUP_LE_MASK:
        case TV_SEM_SUBGROUP_LT_MASK:
            for (unsigned l = 0; l < VM_LANES; l++) {
                uint32_t eq = 1u << l, le = eq | (eq - 1u);
                uint32_t v;
                switch (sv->semantic) {
                case TV_SEM_SUBGROUP_EQ_MASK: v = eq; break;
                case TV_SEM_SUBGROUP_GE_MASK: v = ~(eq - 1u); break;
                case TV_SEM_SUBGROUP_GT_MASK: v = ~le; break;
                case TV_SEM_SUBGROUP_LE_MASK: v = le; break;
                default: v = eq - 1u; break;   /* LT */
                }
                s[0].u[l] = v;
                s[1].u[l] = s[2].u[l] = s[3].u[l] = 0;
            }
            break;
        default:
            for (unsigned c = 0; c < 4; c++)
                fill(&s[c], 0);
            break;
        }
    }
    for (unsigned l = 0; l < VM_LANES; l++) {
        w->lane_x[l] = (int32_t)(bid[0] * R->block[0] + tid[0][l]);
        w->lane_y[l] = (int32_t)(bid[1] * R->block[1] + tid[1][l]);
    }
}

/* Zero the registers a program may read before writing (vm_zero_regs: TEMP to ADDR)
 * except the SV registers, which keep the system values of the worker's previous block.
 * False (nothing done) when the SV registers do not lie inside that range. */
static bool zero_regs_but_sv(vm_warp *w)
{
    const tv_vm_program *p = w->prog;
    size_t t0 = p->temp.base, s0 = p->sv.base, s1 = s0 + (size_t)p->sv.count * 4;
    size_t end = (size_t)p->addr.base + (size_t)p->addr.count * 4;
    if (p->sv.count <= 0 || s0 < t0 || s1 > end)
        return false;
    memset(&w->r[t0], 0, (s0 - t0) * sizeof(vm_slot));
    memset(&w->r[s1], 0, (end - s1) * sizeof(vm_slot));
    return true;
}

static tv_status comp_job(vm_worker *wk, uint64_t job, tv_error *err)
{
    const vm_run *R = wk->run;
    uint32_t bid[3] = {(uint32_t)(job % R->grid[0]),
                       (uint32_t)((job / R->grid[0]) % R->grid[1]),
                       (uint32_t)(job / ((uint64_t)R->grid[0] * R->grid[1]))};
    uint32_t nthreads = R->block[0] * R->block[1] * R->block[2];
    uint32_t nwarps = (nthreads + VM_LANES - 1) / VM_LANES;
    /* shared memory starts at zero in every block: clear what the last block wrote */
    if (wk->shared && wk->shared_hw) {
        memset(wk->shared, 0, wk->shared_hw);
        wk->shared_hw = 0;
    }
    wk->trace_warp = -1;
    for (uint32_t i = 0; i < nwarps; i++) {
        uint32_t first = i * VM_LANES;
        uint32_t n = nthreads - first < VM_LANES ? nthreads - first : VM_LANES;
        uint32_t present = n == 32 ? VM_ALL_LANES : (1u << n) - 1u;
        vm_warp *w = vm_worker_warp(wk, i, present, present);
        /* zero the registers so results never depend on earlier warps; after the
           worker's first block, the system values other than BLOCK_ID stay */
        bool keep = wk->comp_sv_ready && zero_regs_but_sv(w);
        if (!keep)
            vm_zero_regs(w);
        set_sv(w, R, bid, first, !keep);
        if (R->tracing) {
            const uint32_t *id = R->vm->trace.id;
            for (unsigned l = 0; l < n; l++) {
                uint32_t t = first + l;
                uint32_t g[3] = {bid[0] * R->block[0] + t % R->block[0],
                                 bid[1] * R->block[1] + (t / R->block[0]) % R->block[1],
                                 bid[2] * R->block[2] + t / (R->block[0] * R->block[1])};
                if (g[0] == id[0] && g[1] == id[1] && g[2] == id[2]) {
                    wk->trace_warp = (int32_t)i;
                    wk->trace_lane = l;
                }
            }
        }
        w->at_barrier = false;
        w->done = false;
        wk->stats.invocations += n;
    }
    wk->comp_sv_ready = true;    /* every warp of a block (the same count in every block) */
    /* run every warp to its next barrier, repeat until all are done */
    for (;;) {
        bool any = false;
        for (uint32_t i = 0; i < nwarps; i++) {
            vm_warp *w = &wk->warps[i];
            if (w->done)
                continue;
            wk->trace_this = wk->trace_warp == (int32_t)i;
            tv_status st = vm_exec_warp(w, err);
            wk->trace_this = false;
            if (st != TV_OK)
                return st;
            if (!w->done)
                any = true;
        }
        if (!any)
            break;
    }
    for (uint32_t i = 0; i < nwarps; i++)
        vm_worker_count(wk, &wk->warps[i]);
    return TV_OK;
}

tv_status tv_vm_run_compute(tv_vm *vm, const tv_vm_program *p, const tv_vm_bindings *b,
                            const tv_vm_compute_params *params, tv_vm_stats *stats,
                            tv_error *err)
{
    vm_run run;
    tv_status st = vm_run_begin(&run, vm, p, b, TV_TGSI_COMP, err);
    if (st != TV_OK)
        return st;
    tv_vm_compute_params def;
    memset(&def, 0, sizeof def);
    if (!params)
        params = &def;
    for (unsigned k = 0; k < 3; k++) {
        run.grid[k] = params->grid[k] ? params->grid[k] : 1;
        run.block[k] = params->block[k] ? params->block[k] : (p->block[k] ? p->block[k] : 1);
        run.grid_offset[k] = params->grid_offset[k];
    }
    uint64_t threads = (uint64_t)run.block[0] * run.block[1] * run.block[2];
    if (threads > 65536)
        return tv_error_set(err, TV_ERR_ARG, 0, 0, "block of %llu threads is too large",
                            (unsigned long long)threads);
    run.work_dim = params->work_dim;
    if (!run.work_dim) {
        run.work_dim = 1;
        for (unsigned k = 1; k < 3; k++)
            if (run.grid[k] * run.block[k] > 1)
                run.work_dim = k + 1;
    }
    uint32_t nwarps = (uint32_t)((threads + VM_LANES - 1) / VM_LANES);
    uint64_t njobs = (uint64_t)run.grid[0] * run.grid[1] * run.grid[2];
    return vm_run_jobs(&run, njobs, nwarps, comp_job, stats, err);
}
