/* Writes whose inactive lanes are dead (vm_lower_copy.c mark_unmasked). A channel group
 * stores its results under the execution mask so that the lanes inactive where it runs
 * keep their old values. A lane is inactive because it waits somewhere in the program:
 * for the ELSE or the ENDIF of an IF whose branch it skips, past the ENDLOOP of a loop it
 * broke out of, at the ENDLOOP of a loop it continued (for the next iteration) — or it is
 * not in the warp at all and never runs. So a store may write every lane when its
 * destination is dead at every such waiting point of the constructs around it: no lane
 * waiting there reads the slot before writing it. The liveness is the lane-by-lane one,
 * over the micro-ops as a scalar program (a lane that reaches a write writes).
 *
 * The loop counter of `for (uint i = 0u; i < n; i++)` is such a slot: a lane that left
 * the loop never reads `i` again, so the counter is written in every lane, all lanes hold
 * the same value, and the JIT keeps it as one scalar (vm_jit_build.c, uniform slots).
 *
 * Only TEMP slots, and only those that no micro-op reading other lanes names (a
 * derivative, a texture's implicit derivatives, any handler but the lane-wise channel
 * groups and modifiers, a modifier feeding such a micro-op): those look at inactive lanes.
 * Programs with subroutines, switches or barriers are left as they are (their lanes also
 * wait at returns, case labels and barriers). */
#include <stdlib.h>
#include <string.h>

#include "vm/vm_handlers.h"
#include "vm/vm_lower.h"

/* The analysis is skipped (no store unmasked) above this many bit words of liveness. */
#define LANES_MAX_WORDS (1u << 20)

typedef struct lanes {
    const vm_lower *L;
    uint32_t n, lo, nt, words;
    uint64_t *live;        /* live-in TEMP slots per micro-op (n + 1 rows: past the end) */
    uint8_t *excl;         /* TEMP slots named by a micro-op that reads other lanes */
} lanes;

static bool temp_slot(const lanes *A, uint32_t s, uint32_t *x)
{
    *x = s - A->lo;
    return s >= A->lo && *x < A->nt;
}

/* The TEMP slots micro-op k reads (as a lane of the scalar program) into row `use`, the
 * ones it writes into `def`. */
static void use_def(const lanes *A, uint32_t k, uint64_t *use, uint64_t *def)
{
    const vm_uop *u = &A->L->uops[k];
    uint32_t f[VM_UOP_SLOT_FIELDS], x;
    unsigned nf;
    memset(use, 0, A->words * sizeof *use);
    memset(def, 0, A->words * sizeof *def);
    unsigned nw = vm_lower_lanewise_writes(u);
    if (nw) {
        for (unsigned i = 0; i < VM_MAX_USRC; i++)
            if (temp_slot(A, u->src[i], &x))
                use[x >> 6] |= 1ull << (x & 63);
        for (unsigned c = 0; c < nw && c < 4; c++)
            if (temp_slot(A, u->dst[c], &x))
                def[x >> 6] |= 1ull << (x & 63);
        return;
    }
    /* control flow reads src[] and aux; a handler may read any slot its fields name (and
       what it writes is not known lane by lane: no definition) */
    nf = vm_uop_slot_fields(u, f);
    for (unsigned i = 0; i < nf; i++)
        if (temp_slot(A, f[i], &x))
            use[x >> 6] |= 1ull << (x & 63);
}

/* Where a lane may go after micro-op k (more places than it can is safe: only more
 * slots live): the next one, and for control flow its jump and skip targets; none after
 * END (TEMP is dead once the run ends). */
static unsigned successors(const lanes *A, uint32_t k, uint32_t s[3])
{
    const vm_uop *u = &A->L->uops[k];
    unsigned m = 0;
    if (u->fn) {
        s[m++] = k + 1;
        return m;
    }
    if (u->kind == VM_K_END)
        return 0;
    s[m++] = k + 1;
    if (u->target < A->n)
        s[m++] = u->target;
    if (u->skip < A->n)
        s[m++] = u->skip;
    return m;
}

static bool liveness(lanes *A)
{
    uint64_t *use = malloc(2 * A->words * sizeof *use);
    if (!use)
        return false;
    uint64_t *def = use + A->words;
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t k = A->n; k-- > 0;) {
            uint32_t s[3];
            unsigned m = successors(A, k, s);
            use_def(A, k, use, def);
            uint64_t *row = &A->live[(size_t)k * A->words];
            for (uint32_t wd = 0; wd < A->words; wd++) {
                uint64_t out = 0;
                for (unsigned i = 0; i < m; i++)
                    out |= A->live[(size_t)(s[i] <= A->n ? s[i] : A->n) * A->words + wd];
                uint64_t in = (out & ~def[wd]) | use[wd];
                changed |= in != row[wd];
                row[wd] = in;
            }
        }
    }
    free(use);
    return true;
}

static void exclude(lanes *A)
{
    const vm_lower *L = A->L;
    for (uint32_t k = 0; k < A->n; k++) {
        const vm_uop *u = &L->uops[k];
        if (!u->fn)
            continue;   /* control flow reads its sources in the active lanes only */
        uint32_t f[VM_UOP_SLOT_FIELDS], x;
        bool other = !vm_lower_lanewise_writes(u) || (vm_op_is_mod(u->op) &&
                                             vm_lower_feeds_other_lanes(L, k));
        if (!other)
            continue;
        unsigned nf = vm_uop_slot_fields(u, f);
        for (unsigned i = 0; i < nf; i++)
            if (temp_slot(A, f[i], &x))
                A->excl[x] = 1;
    }
}

static bool live_at(const lanes *A, uint32_t at, uint32_t x)
{
    if (at >= A->n)
        return false;
    return (A->live[(size_t)at * A->words + (x >> 6)] >> (x & 63)) & 1u;
}

/* Matches IF to its ELSE or ENDIF, ELSE to its ENDIF, BGNLOOP to its ENDLOOP and marks
 * the loops a CONT continues (has_cont, by ENDLOOP). false: not a shape this pass knows. */
static bool match_constructs(const lanes *A, uint32_t *match, uint8_t *has_cont,
                             uint32_t *stack)
{
    const vm_uop *U = A->L->uops;
    uint32_t sp = 0;
    for (uint32_t k = 0; k < A->n; k++) {
        switch (U[k].kind) {
        case VM_K_IF: case VM_K_UIF: case VM_K_BGNLOOP:
            stack[sp++] = k;
            break;
        case VM_K_ELSE:
            if (!sp || (U[stack[sp - 1]].kind != VM_K_IF && U[stack[sp - 1]].kind != VM_K_UIF))
                return false;
            match[stack[sp - 1]] = k;
            stack[sp - 1] = k;
            break;
        case VM_K_ENDIF:
            if (!sp || U[stack[sp - 1]].kind == VM_K_BGNLOOP)
                return false;
            match[stack[--sp]] = k;
            break;
        case VM_K_ENDLOOP:
            if (!sp || U[stack[sp - 1]].kind != VM_K_BGNLOOP)
                return false;
            match[stack[--sp]] = k;
            break;
        case VM_K_CONT: {
            uint32_t d = sp;
            while (d > 0 && U[stack[d - 1]].kind != VM_K_BGNLOOP)
                d--;
            if (!d)
                return false;
            has_cont[stack[d - 1]] = 1;
            break;
        }
        case VM_K_SWITCH: case VM_K_CASE: case VM_K_DEFAULT: case VM_K_ENDSWITCH:
        case VM_K_CAL: case VM_K_RET: case VM_K_BGNSUB: case VM_K_ENDSUB:
        case VM_K_BARRIER:
            return false;
        default:
            break;
        }
    }
    return sp == 0;
}

/* The destinations of channel group u (bit c: dst[c]) that are dead at each waiting point
 * of the constructs open there (stack[0..sp-1], their opening micro-ops). */
static uint8_t dead_where_waiting(const lanes *A, const vm_uop *u, const uint32_t *stack,
                                  uint32_t sp, const uint32_t *match, const uint8_t *has_cont)
{
    const vm_uop *U = A->L->uops;
    uint8_t bits = 0;
    for (unsigned c = 0; c < u->aux2 && c < 4; c++) {
        uint32_t x;
        if (!temp_slot(A, u->dst[c], &x) || A->excl[x])
            continue;
        bool dead = true;
        for (uint32_t d = 0; d < sp && dead; d++) {
            uint32_t open = stack[d], end = match[open];
            if (U[open].kind == VM_K_BGNLOOP)   /* broken: past ENDLOOP; continued: at it */
                dead = !live_at(A, end + 1, x) && !(has_cont[open] && live_at(A, end, x));
            else                                /* the ELSE (both ways on) or the ENDIF */
                dead = !live_at(A, end, x);
        }
        bits |= (uint8_t)(dead << c);
    }
    return bits;
}

uint8_t *vm_lower_dead_lane_writes(vm_lower *L)
{
    lanes A = {L, L->num_uops, L->p->temp.base, (uint32_t)L->p->temp.count * 4u, 0, NULL,
               NULL};
    A.words = (A.nt + 63) / 64;
    uint8_t *ok = calloc(A.n + 1, 1);   /* per micro-op: dead_where_waiting's bits */
    uint32_t *match = calloc(A.n + 1, sizeof *match);
    uint32_t *stack = malloc((A.n + 1) * sizeof *stack);
    uint8_t *has_cont = calloc(A.n + 1, 1);
    A.excl = calloc(A.nt + 1, 1);
    bool small = A.nt && (uint64_t)(A.n + 1) * A.words <= LANES_MAX_WORDS;
    A.live = small ? calloc((size_t)(A.n + 1) * A.words, sizeof *A.live) : NULL;
    if (!ok || !match || !stack || !has_cont || !A.excl || (small && !A.live)) {
        free(ok);
        ok = NULL;
        vm_lower_fail(L, TV_ERR_NOMEM, "out of memory");
        goto out;
    }
    if (!small || !match_constructs(&A, match, has_cont, stack))
        goto out;
    exclude(&A);
    if (!liveness(&A)) {
        free(ok);
        ok = NULL;
        vm_lower_fail(L, TV_ERR_NOMEM, "out of memory");
        goto out;
    }
    uint32_t sp = 0;
    for (uint32_t k = 0; k < A.n; k++) {
        const vm_uop *u = &L->uops[k];
        switch (u->kind) {
        case VM_K_IF: case VM_K_UIF: case VM_K_BGNLOOP:
            stack[sp++] = k;
            continue;
        case VM_K_ELSE:
            stack[sp - 1] = k;   /* now waiting for the ENDIF (match_constructs checked) */
            continue;
        case VM_K_ENDIF: case VM_K_ENDLOOP:
            sp--;
            continue;
        default:
            break;
        }
        if (u->fn && vm_op_is_group(u->op) && u->aux2)
            ok[k] = dead_where_waiting(&A, u, stack, sp, match, has_cont);
    }
out:
    free(match);
    free(stack);
    free(has_cont);
    free(A.excl);
    free(A.live);
    return ok;
}
