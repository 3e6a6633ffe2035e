/* Copy propagation and dead-MOV removal on the lowered micro-ops (after fixup).
 *
 * Compilers emit phi copies as MOVs (`MOV TEMP[5].xzw, TEMP[2]` … `UCMP TEMP[3], c,
 * TEMP[4], TEMP[5]`). Within a straight run of lane-wise micro-ops (channel groups and
 * source modifiers: same execution mask throughout, each lane computed from the same lane
 * only), a read of a MOV's destination becomes a read of its source while neither has been
 * written since. That is exact for every active lane, and inactive lanes' results are
 * never stored. Consumers that look at other lanes or at registers by range (derivatives,
 * texture, memory, indirect access, control flow) are left alone: they end a run.
 * Afterwards, a channel of a channel-group MOV whose TEMP destination no micro-op reads
 * any more is dropped, and a MOV with no channel left is removed; the instructions it
 * stood for are counted by the next micro-op (vm_lower.c count_runs), which is reached
 * only through it. Programs with indirect register access keep every MOV.
 *
 * The unoptimised micro-ops are kept for traces and the counting tests (vm_exec.c), so a
 * trace still shows every instruction. */
#include <stdlib.h>

#include "vm/vm_handlers.h"
#include "vm/vm_lower.h"

static bool is_group(const vm_uop *u)
{
    return vm_op_is_group(u->op);
}

static bool is_mod(const vm_uop *u)
{
    return vm_op_is_mod(u->op);
}

/* A source modifier writes its scratch slot in every lane. When a micro-op that reads other
 * lanes (a derivative, a texture's implicit derivatives, …) consumes that slot, the
 * modifier's inactive lanes are looked at: its reads then count as reads of every lane,
 * which neither a copy (equal in active lanes only) nor an unmasked write may change. */
bool vm_lower_feeds_other_lanes(const vm_lower *L, uint32_t k)
{
    const vm_uop *m = &L->uops[k];
    for (uint32_t j = k + 1; j < L->num_uops && L->uops[j].insn == m->insn; j++) {
        const vm_uop *q = &L->uops[j];
        bool reads = false;
        for (unsigned i = 0; i < VM_MAX_USRC; i++)
            reads |= q->src[i] == m->dst[0];
        if (!reads)
            continue;
        if (!(is_group(q) || is_mod(q)))
            return true;
    }
    return false;
}

unsigned vm_lower_lanewise_writes(const vm_uop *u)
{
    if (is_group(u))
        return u->aux2;
    if (is_mod(u))
        return 1;
    return 0;
}

typedef struct {
    uint32_t *copy_of;       /* per slot: the slot it is a copy of, or UINT32_MAX */
    uint32_t *active;        /* slots with a copy_of entry */
    uint32_t nactive;
} copies;

static void forget_all(copies *C)
{
    for (uint32_t i = 0; i < C->nactive; i++)
        C->copy_of[C->active[i]] = UINT32_MAX;
    C->nactive = 0;
}

/* Slot x is written: it is no longer a copy, and no longer the source of one. */
static void forget(copies *C, uint32_t x)
{
    uint32_t k = 0;
    for (uint32_t i = 0; i < C->nactive; i++) {
        uint32_t d = C->active[i];
        if (d == x || C->copy_of[d] == x)
            C->copy_of[d] = UINT32_MAX;
        else
            C->active[k++] = d;
    }
    C->nactive = k;
}

static void propagate(vm_lower *L, const uint8_t *leader, copies *C)
{
    for (uint32_t k = 0; k < L->num_uops; k++) {
        vm_uop *u = &L->uops[k];
        if (leader[k])
            forget_all(C);
        unsigned nw = vm_lower_lanewise_writes(u);
        if (!nw) {
            forget_all(C);
            continue;
        }
        /* a modifier feeding a consumer of other lanes must read the register itself
           (feeds_other_lanes) */
        bool keep = is_mod(u) && vm_lower_feeds_other_lanes(L, k);
        for (unsigned i = 0; i < VM_MAX_USRC && !keep; i++)
            if (u->src[i] && C->copy_of[u->src[i]] != UINT32_MAX)
                u->src[i] = C->copy_of[u->src[i]];
        for (unsigned c = 0; c < nw; c++)
            forget(C, u->dst[c]);
        if (u->op != VM_OP_mov_n || (u->flags & VM_UF_SAT))
            continue;
        for (unsigned c = 0; c < nw; c++) {
            bool self = false;   /* the source was written by this group (a swizzled MOV) */
            for (unsigned c2 = 0; c2 < nw; c2++)
                self |= u->src[c] == u->dst[c2];
            if (!self) {
                C->copy_of[u->dst[c]] = u->src[c];
                C->active[C->nactive++] = u->dst[c];
            }
        }
    }
}

/* Mark TEMP slots some micro-op may read. Lane-wise micro-ops read exactly their src[];
 * for anything else every field that names a TEMP slot counts, as the whole register. */
static void mark_reads(const vm_lower *L, uint8_t *read)
{
    const vm_range *t = &L->p->temp;
    uint32_t lo = t->base, hi = t->base + (uint32_t)t->count * 4u;
    for (uint32_t k = 0; k < L->num_uops; k++) {
        const vm_uop *u = &L->uops[k];
        if (vm_lower_lanewise_writes(u) || u->op == VM_OP_mov) {
            for (unsigned i = 0; i < VM_MAX_USRC; i++)
                if (u->src[i] >= lo && u->src[i] < hi)
                    read[u->src[i] - lo] = 1;
            continue;
        }
        uint32_t f[VM_UOP_SLOT_FIELDS];
        unsigned n = vm_uop_slot_fields(u, f);
        for (unsigned i = 0; i < n; i++)
            if (f[i] >= lo && f[i] < hi) {
                uint32_t r = (f[i] - lo) & ~3u;
                read[r] = read[r + 1] = read[r + 2] = read[r + 3] = 1;
            }
    }
}

/* Drop dead channels of MOV groups; returns the number of MOVs left with no channel
 * (marked in gone[]). */
static uint32_t drop_dead(vm_lower *L, const uint8_t *read, uint8_t *gone)
{
    const vm_range *t = &L->p->temp;
    uint32_t lo = t->base, hi = t->base + (uint32_t)t->count * 4u, ngone = 0;
    for (uint32_t k = 0; k < L->num_uops; k++) {
        vm_uop *u = &L->uops[k];
        if (u->op != VM_OP_mov_n)
            continue;
        unsigned m = 0;
        for (unsigned c = 0; c < u->aux2; c++) {
            uint32_t d = u->dst[c];
            if (d >= lo && d < hi && !read[d - lo])
                continue;
            u->dst[m] = d;
            u->src[m] = u->src[c];
            m++;
        }
        for (unsigned c = m; c < u->aux2; c++)
            u->dst[c] = u->src[c] = 0;
        u->aux2 = m;
        if (!m) {
            gone[k] = 1;
            ngone++;
        }
    }
    return ngone;
}

/* Remove the micro-ops marked in gone[]; each one's instruction count moves to the next
 * kept micro-op (gone = 3: to the one before). Jump targets are remapped. */
static void compact(vm_lower *L, const uint8_t *gone)
{
    uint32_t n = L->num_uops;
    uint32_t *newidx = malloc((n + 1) * sizeof *newidx);
    if (!newidx) {
        vm_lower_fail(L, TV_ERR_NOMEM, "out of memory");
        return;
    }
    uint32_t m = 0, carry = 0;
    for (uint32_t k = 0; k < n; k++) {
        newidx[k] = m;
        if (gone[k] == 3) {       /* counted by the kept micro-op just before it */
            L->uops[m - 1].ninsns += L->uops[k].ninsns;
            continue;
        }
        if (gone[k]) {
            carry += L->uops[k].ninsns;
            continue;
        }
        L->uops[m] = L->uops[k];
        L->uops[m].ninsns += carry;
        carry = 0;
        m++;
    }
    newidx[n] = m;
    for (uint32_t k = 0; k < m; k++) {
        vm_uop *u = &L->uops[k];
        if (u->fn)
            continue;
        if (u->target != UINT32_MAX)
            u->target = newidx[u->target];
        u->skip = newidx[u->skip];
    }
    for (uint32_t i = 0; i <= L->src->num_insns; i++)
        L->p->insn_uop[i] = newidx[L->p->insn_uop[i]];
    L->num_uops = m;
    free(newidx);
}

/* A dead MOV's instruction count moves to the next kept micro-op when every path to that
 * one passes the MOV (no leader on the way), else to the ALU micro-op just before it when
 * the MOV is entered only from there (gone = 3); otherwise the MOV stays, as an empty
 * group. */
static void keep_unmovable(const vm_lower *L, const uint8_t *leader, uint8_t *gone)
{
    uint32_t n = L->num_uops;
    for (uint32_t k = 0; k < n; k++) {
        if (gone[k] != 1)
            continue;
        uint32_t v = k + 1;
        bool ok = true;
        while (v < n && gone[v]) {
            ok &= !leader[v];
            v++;
        }
        if (v < n && !leader[v] && ok)
            continue;
        if (k > 0 && !leader[k] && !gone[k - 1] && L->uops[k - 1].fn)
            gone[k] = 3;
        else
            gone[k] = 0;
    }
}

/* Consecutive channel groups of the same handler become one group (up to 4 channels) when
 * the second is reached only through the first and reads nothing the first writes (the
 * group reads all sources before it writes). MOV TEMP[2].xyw, TEMP[3] + MOV TEMP[2].z,
 * TEMP[4].xxxx: one micro-op. The merged micro-op counts both instructions. */
static void fuse_groups(vm_lower *L, const uint8_t *leader, uint8_t *gone)
{
    uint32_t n = L->num_uops, k = 0;
    while (k < n) {
        vm_uop *a = &L->uops[k];
        uint32_t j = k + 1;
        while (j < n && !gone[k] && is_group(a)) {
            vm_uop *b = &L->uops[j];
            unsigned na = a->aux2, nb = b->aux2;
            if (gone[j] || leader[j] || b->op != a->op || na + nb > 4 ||
                ((a->flags ^ b->flags) & VM_UF_SAT))
                break;
            bool reads_a = false;
            for (unsigned i = 0; i < VM_MAX_USRC; i++)
                for (unsigned c = 0; c < na; c++)
                    reads_a |= b->src[i] != 0 && b->src[i] == a->dst[c];
            if (reads_a)
                break;
            for (unsigned q = 0; q < 3; q++)
                for (unsigned c = 0; c < nb; c++)
                    a->src[q * 4 + na + c] = b->src[q * 4 + c];
            for (unsigned c = 0; c < nb; c++)
                a->dst[na + c] = b->dst[c];
            a->aux2 = na + nb;
            a->ninsns += b->ninsns;
            b->ninsns = 0;
            gone[j] = 1;
            j++;
        }
        k = j;
    }
}

/* UIF c / IF c; BRK; ENDIF (the usual loop exit test) becomes one VM_K_BRK_IF micro-op,
 * which counts the BRK and the ENDIF as the three would have on its path (the UIF counts
 * with its run). Only when nothing else enters the BRK or the ENDIF. */
static void fuse_brk_if(vm_lower *L, const uint8_t *leader, uint8_t *gone)
{
    uint32_t n = L->num_uops;
    uint32_t *entries = calloc(n + 1, sizeof *entries);
    if (!entries) {
        vm_lower_fail(L, TV_ERR_NOMEM, "out of memory");
        return;
    }
    for (uint32_t k = 0; k < n; k++) {
        const vm_uop *u = &L->uops[k];
        if (u->fn)
            continue;
        if (u->target < n) entries[u->target]++;
        if (u->skip < n) entries[u->skip]++;
    }
    (void)leader;
    for (uint32_t k = 0; k + 2 < n; k++) {
        vm_uop *a = &L->uops[k], *b = &L->uops[k + 1], *e = &L->uops[k + 2];
        if (a->fn || b->fn || e->fn || gone[k] || gone[k + 1] || gone[k + 2])
            continue;
        if ((a->kind != VM_K_UIF && a->kind != VM_K_IF) || b->kind != VM_K_BRK ||
            (b->flags & VM_UF_BRKSW) || e->kind != VM_K_ENDIF || a->target != k + 2)
            continue;
        /* the BRK is entered only from the IF; the ENDIF only by the IF's jump and the
           BRK's skip (when every lane broke but the loop goes on) */
        if (entries[k + 1] != 0 || entries[k + 2] != 2 || b->skip != k + 2)
            continue;
        a->aux = a->kind == VM_K_UIF ? 1u : 0u;
        a->kind = VM_K_BRK_IF;
        a->target = b->target;
        a->skip = e->skip;
        b->ninsns = e->ninsns = 0; /* the BRK and ENDIF: counted by the micro-op as it runs */
        gone[k + 1] = gone[k + 2] = 1;
        k += 2;
    }
    free(entries);
}

/* run_local[x] for TEMP slot x (index from temp.base): every read of it anywhere in the
 * program is by a lane-wise micro-op or an IF/UIF/BRK_IF test (which look at active lanes
 * only) in the same run after a write of it in that run — so under the same execution
 * mask. The lanes outside the mask are then never looked at, and a value written in a run
 * is never read outside it. run_id[k] numbers the runs (counted runs: leaders, control
 * flow). Returns NULL (and fails L) without memory. */
static uint8_t *find_run_local(vm_lower *L, const uint8_t *leader, uint32_t *run_id)
{
    const vm_range *t = &L->p->temp;
    uint32_t lo = t->base, nt = (uint32_t)t->count * 4u, n = L->num_uops;
    uint32_t *def_run = malloc((nt + 1) * sizeof *def_run);
    uint8_t *unsafe = calloc(nt + 1, 1);
    if (!def_run || !unsafe) {
        free(def_run); free(unsafe);
        vm_lower_fail(L, TV_ERR_NOMEM, "out of memory");
        return NULL;
    }
    for (uint32_t i = 0; i < nt; i++)
        def_run[i] = UINT32_MAX;
    uint32_t run = 0;
    for (uint32_t k = 0; k < n; k++) {
        const vm_uop *u = &L->uops[k];
        if (leader[k] && k)
            run++;
        run_id[k] = run;
        unsigned nw = vm_lower_lanewise_writes(u);
        bool test = !u->fn && (u->kind == VM_K_IF || u->kind == VM_K_UIF ||
                               u->kind == VM_K_BRK_IF);
        if (nw && is_mod(u) && vm_lower_feeds_other_lanes(L, k))
            nw = 0;   /* its reads look at every lane: handled as below */
        if (nw || test) {
            unsigned nr = test ? 1 : VM_MAX_USRC;
            for (unsigned i = 0; i < nr; i++) {
                uint32_t x = u->src[i] - lo;
                if (u->src[i] >= lo && x < nt && def_run[x] != run)
                    unsafe[x] = 1;
            }
            for (unsigned c = 0; c < nw; c++) {
                uint32_t x = u->dst[c] - lo;
                if (u->dst[c] >= lo && x < nt)
                    def_run[x] = run;
            }
        } else {
            /* anything else may read or write any TEMP slot its fields name, any lane */
            uint32_t f[VM_UOP_SLOT_FIELDS];
            unsigned m = vm_uop_slot_fields(u, f);
            for (unsigned i = 0; i < m; i++)
                if (f[i] >= lo && f[i] - lo < nt) {
                    uint32_t r = (f[i] - lo) & ~3u;
                    unsafe[r] = unsafe[r + 1] = unsafe[r + 2] = unsafe[r + 3] = 1;
                }
        }
        if (!u->fn)
            run++;
    }
    free(def_run);
    for (uint32_t i = 0; i < nt; i++)
        unsafe[i] = !unsafe[i];
    return unsafe;   /* now: run-local */
}

static bool reads_slot(const vm_uop *u, uint32_t x)
{
    for (unsigned i = 0; i < VM_MAX_USRC; i++)
        if (u->src[i] == x)
            return true;
    return false;
}

static bool writes_slot(const vm_uop *u, uint32_t x)
{
    unsigned nw = vm_lower_lanewise_writes(u);
    for (unsigned c = 0; c < nw; c++)
        if (u->dst[c] == x)
            return true;
    return false;
}

/* Copy coalescing: MOV d <- s where s is run-local and written by a channel group P
 * earlier in the same run becomes P writing d itself, when between P and the MOV only
 * lane-wise micro-ops run and none reads s or reads or writes d, P writes d in no other
 * channel, the MOV's other channels do not read d or s, and s is not read again in the run
 * before it is rewritten. The loop-carried phi copy `MOV TEMP[2].xyw, TEMP[3]` goes:
 * the UCMP writes TEMP[2].xyw. Returns the number of MOVs left empty (marked in gone[]). */
static uint32_t coalesce(vm_lower *L, const uint8_t *run_local, const uint32_t *run_id,
                         uint8_t *gone)
{
    const vm_range *t = &L->p->temp;
    uint32_t lo = t->base, nt = (uint32_t)t->count * 4u, n = L->num_uops, ngone = 0;
    for (uint32_t m = 0; m < n; m++) {
        vm_uop *M = &L->uops[m];
        if (M->op != VM_OP_mov_n || (M->flags & VM_UF_SAT) || gone[m])
            continue;
        for (unsigned c = 0; c < M->aux2;) {
            uint32_t d = M->dst[c], s = M->src[c];
            bool ok = s >= lo && s - lo < nt && run_local[s - lo] && s != d;
            /* the MOV's other channels neither read nor write d, nor read s: once P writes
               d instead of s, nothing may read s before it is written again, and that
               includes this MOV (MOV OUT[0].xy, TEMP[0].xxxx reads s twice) */
            for (unsigned c2 = 0; ok && c2 < M->aux2; c2++)
                ok = (c2 == c || (M->src[c2] != d && M->dst[c2] != d && M->src[c2] != s));
            /* the writer of s in this run, with only lane-wise micro-ops in between */
            uint32_t p = m;
            while (ok && p > 0 && run_id[p - 1] == run_id[m]) {
                p--;
                const vm_uop *q = &L->uops[p];
                if (!vm_lower_lanewise_writes(q) || gone[p]) { ok = false; break; }
                if (writes_slot(q, s)) break;
                if (reads_slot(q, s) || reads_slot(q, d) || writes_slot(q, d)) ok = false;
            }
            vm_uop *P = &L->uops[p];
            ok = ok && p < m && is_group(P) && writes_slot(P, s) &&
                 !writes_slot(P, d);
            /* s not read again in the run before it is rewritten */
            for (uint32_t k = m + 1; ok && k < n && run_id[k] == run_id[m]; k++) {
                const vm_uop *q = &L->uops[k];
                bool lw = vm_lower_lanewise_writes(q) || (!q->fn && (q->kind == VM_K_IF ||
                          q->kind == VM_K_UIF || q->kind == VM_K_BRK_IF));
                if (!lw || reads_slot(q, s)) ok = false;
                if (writes_slot(q, s)) break;
            }
            if (!ok) {
                c++;
                continue;
            }
            for (unsigned j = 0; j < P->aux2; j++)
                if (P->dst[j] == s)
                    P->dst[j] = d;
            for (unsigned c2 = c; c2 + 1 < M->aux2; c2++) {
                M->dst[c2] = M->dst[c2 + 1];
                M->src[c2] = M->src[c2 + 1];
            }
            M->aux2--;
            M->dst[M->aux2] = M->src[M->aux2] = 0;
        }
        if (!M->aux2) {
            gone[m] = 1;
            ngone++;
        }
    }
    return ngone;
}

/* A channel group may write every lane (VM_UF_NOMASK, no blend) when all its
 * destinations are run-local TEMP slots (find_run_local), as for `USGE TEMP[3].x …;
 * BRK_IF TEMP[3].x`, or when no lane inactive there reads them again (vm_lower_lanes.c),
 * as for a loop counter; the channels of which that holds are in dead_lanes (the JIT
 * stores those unmasked one by one: a fused group may mix them with others). */
static void mark_unmasked(vm_lower *L, const uint8_t *run_local)
{
    const vm_range *t = &L->p->temp;
    uint32_t lo = t->base, nt = (uint32_t)t->count * 4u, n = L->num_uops;
    uint8_t *dead = vm_lower_dead_lane_writes(L);
    if (!dead)
        return;
    for (uint32_t k = 0; k < n; k++) {
        vm_uop *u = &L->uops[k];
        if (!is_group(u) || !u->aux2)
            continue;
        bool ok = true;
        for (unsigned c = 0; c < u->aux2; c++) {
            uint32_t x = u->dst[c] - lo;
            ok &= u->dst[c] >= lo && x < nt && run_local[x];
        }
        u->dead_lanes = dead[k];
        if (ok || dead[k] == (1u << u->aux2) - 1u)
            u->flags |= VM_UF_NOMASK;
    }
    free(dead);
}

/* A channel group whose channels may each be stored as soon as computed (VM_UF_DIRECT,
 * vm_ops.h): TGSI reads every source before writing, so channel c's destination must not
 * be a source of a channel after it. Unused source entries are slot 0, a uniform slot no
 * program writes. */
static void mark_direct(vm_lower *L)
{
    for (uint32_t k = 0; k < L->num_uops; k++) {
        vm_uop *u = &L->uops[k];
        if (!is_group(u) || !u->aux2)
            continue;
        bool ok = true;
        for (unsigned c = 0; c < u->aux2; c++)
            for (unsigned later = c + 1; later < u->aux2; later++)
                for (unsigned s = 0; s < 3; s++)
                    ok &= u->dst[c] != u->src[s * 4u + later];
        if (ok)
            u->flags |= VM_UF_DIRECT;
    }
}

/* Coalescing, then unmasked stores, on the compacted micro-ops. */
static void coalesce_and_unmask(vm_lower *L)
{
    for (int pass = 0; pass < 2 && L->status == TV_OK; pass++) {
        uint32_t n = L->num_uops;
        uint8_t *lead = vm_lower_leaders(L);
        uint32_t *run_id = malloc((n + 1) * sizeof *run_id);
        uint8_t *gone = calloc(n + 1, 1);
        uint8_t *local = lead && run_id && gone ? find_run_local(L, lead, run_id) : NULL;
        if (!local) {
            free(lead); free(run_id); free(gone);
            vm_lower_fail(L, TV_ERR_NOMEM, "out of memory");
            return;
        }
        if (pass == 0) {
            if (coalesce(L, local, run_id, gone)) {
                keep_unmovable(L, lead, gone);
                compact(L, gone);
            }
        } else {
            mark_unmasked(L, local);
        }
        free(lead); free(run_id); free(gone); free(local);
    }
}

static bool has_indirect(const vm_lower *L)
{
    for (uint32_t k = 0; k < L->num_uops; k++)
        if (L->uops[k].op == VM_OP_gather || L->uops[k].op == VM_OP_scatter)
            return true;
    return false;
}

/* ninsns of every micro-op holds the instructions it stands for (its VM_UF_FIRST) on
 * entry; removed MOVs add theirs to the next kept micro-op. */
tv_status vm_lower_copies(vm_lower *L, const uint8_t *leader)
{
    tv_vm_program *p = L->p;
    uint32_t n = L->num_uops;
    copies C = {calloc(p->num_slots, sizeof *C.copy_of), calloc(p->num_slots, sizeof *C.active), 0};
    uint8_t *read = calloc((size_t)p->temp.count * 4u + 1u, 1);
    uint8_t *gone = calloc(n + 1, 1);
    if (!C.copy_of || !C.active || !read || !gone) {
        free(C.copy_of); free(C.active); free(read); free(gone);
        return vm_lower_fail(L, TV_ERR_NOMEM, "out of memory");
    }
    for (uint32_t s = 0; s < p->num_slots; s++)
        C.copy_of[s] = UINT32_MAX;
    if (!has_indirect(L)) {
        propagate(L, leader, &C);
        mark_reads(L, read);
        if (drop_dead(L, read, gone))
            keep_unmovable(L, leader, gone);
    }
    /* empty groups still kept are not fused (they keep their place for the count) */
    for (uint32_t k = 0; k < n; k++)
        if (!gone[k] && L->uops[k].op == VM_OP_mov_n && !L->uops[k].aux2)
            gone[k] = 2;
    fuse_groups(L, leader, gone);
    fuse_brk_if(L, leader, gone);
    for (uint32_t k = 0; k < n; k++)
        if (gone[k] == 2)
            gone[k] = 0;
    compact(L, gone);
    if (L->status == TV_OK && !has_indirect(L))
        coalesce_and_unmask(L);
    if (L->status == TV_OK)
        mark_direct(L);
    free(C.copy_of); free(C.active); free(read); free(gone);
    return L->status;
}
