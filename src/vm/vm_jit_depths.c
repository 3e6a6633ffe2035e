/* The JIT's static nesting depths (vm_jit_depths.h). */
#ifdef TEXVM_JIT
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vm/vm_jit_depths.h"

bool vm_jit_decline(char *why, size_t n, const char *fmt, ...)
{
    if (why && n) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(why, n, fmt, ap);
        va_end(ap);
    }
    return false;
}

bool vm_jit_depths_alloc(vm_jit_depths *D, uint32_t n)
{
    memset(D, 0, sizeof *D);
    D->cd = malloc((n + 1) * sizeof *D->cd);
    D->ld = malloc((n + 1) * sizeof *D->ld);
    D->sd = malloc((n + 1) * sizeof *D->sd);
    D->region = calloc(n + 1, sizeof *D->region);
    return D->cd && D->ld && D->sd && D->region;
}

void vm_jit_depths_free(vm_jit_depths *D)
{
    free(D->cd);
    free(D->ld);
    free(D->sd);
    free(D->region);
    memset(D, 0, sizeof *D);
}

static bool want(vm_jit_depths *D, uint32_t from, uint32_t at, uint32_t c, uint32_t l, uint32_t s,
                 uint32_t n)
{
    if (at >= n || D->region[at] != D->region[from])
        return false;
    if (D->cd[at] == UINT32_MAX) {
        D->cd[at] = c;
        D->ld[at] = l;
        D->sd[at] = s;
        return true;
    }
    return D->cd[at] == c && D->ld[at] == l && D->sd[at] == s;
}

/* One region's micro-ops [first, last]: depths from the bases up. */
static bool analyse_region(const vm_uop *code, uint32_t n, uint32_t first, uint32_t last,
                           vm_jit_depths *D, uint32_t *lc, uint32_t *ls, char *why, size_t wn)
{
    const uint32_t c0 = D->max_c, l0 = D->max_l, s0 = D->max_s;
    uint32_t c = c0, l = l0, s = s0;
    for (uint32_t i = first; i <= last; i++) {
        const vm_uop *u = &code[i];
        if (!want(D, i, i, c, l, s, n))
            return vm_jit_decline(why, wn, "micro-op %u: nesting depths disagree (%u)", i, c);
        if (u->fn)
            continue;
        bool ok = true;
        switch (u->kind) {
        case VM_K_IF: case VM_K_UIF:
            c++;
            ok = want(D, i, u->target, c, l, s, n);
            break;
        case VM_K_ELSE:
            ok = c > c0 && want(D, i, u->target, c, l, s, n);
            break;
        case VM_K_ENDIF:
            ok = c > c0;
            c--;
            break;
        case VM_K_BGNLOOP:
            lc[l] = c;
            ls[l] = s;
            ok = want(D, i, u->target, c, l, s, n);
            l++;
            break;
        case VM_K_ENDLOOP:
            ok = l > l0 && lc[l - 1] == c && ls[l - 1] == s &&
                 want(D, i, u->target, c, l, s, n);
            l--;
            break;
        case VM_K_BRK:
            if (u->flags & VM_UF_BRKSW) {
                ok = s > s0 && want(D, i, u->skip, c, l, s, n);
                break;
            }
            /* fall through */
        case VM_K_BRK_IF: case VM_K_CONT:
            ok = l > l0;
            if (!ok)
                break;
            if (u->kind == VM_K_CONT)
                ok = want(D, i, u->target, lc[l - 1], l, ls[l - 1], n) &&
                     want(D, i, u->skip, c, l, s, n);
            else
                ok = want(D, i, u->target, lc[l - 1], l - 1, ls[l - 1], n) &&
                     (u->kind == VM_K_BRK_IF || want(D, i, u->skip, c, l, s, n));
            break;
        case VM_K_SWITCH:
            s++;
            break;
        case VM_K_CASE: case VM_K_DEFAULT:
            ok = s > s0 && want(D, i, u->skip, c, l, s, n);
            break;
        case VM_K_ENDSWITCH:
            ok = s > s0;
            s--;
            break;
        case VM_K_RET:
            ok = want(D, i, u->skip, c, l, s, n);
            break;
        case VM_K_CAL:
            /* into another region: its entry is checked by that region's scan */
            ok = u->target >= 1 && u->target < n && code[u->target - 1].kind == VM_K_BGNSUB &&
                 D->region[u->target] != 0;
            break;
        case VM_K_ALU: case VM_K_NOP: case VM_K_KILL: case VM_K_KILL_IF: case VM_K_DEMOTE:
        case VM_K_END: case VM_K_BGNSUB: case VM_K_ENDSUB:
            break;
        default:
            return vm_jit_decline(why, wn, "micro-op %u: control flow of kind %u is not "
                                  "compiled", i, u->kind);
        }
        if (!ok)
            return vm_jit_decline(why, wn,
                                  "micro-op %u: a jump lands at another nesting depth", i);
        if (c > D->max_c) D->max_c = c;
        if (l > D->max_l) D->max_l = l;
        if (s > D->max_s) D->max_s = s;
    }
    return true;
}

/* Whether region r reaches itself through CALs (recursion: declined). */
static bool recursive(const vm_uop *code, uint32_t n, const vm_jit_depths *D, uint32_t r,
                      uint8_t *state)
{
    if (state[r] == 1)
        return true;
    if (state[r] == 2)
        return false;
    state[r] = 1;
    for (uint32_t i = 0; i < n; i++)
        if (D->region[i] == r && !code[i].fn && code[i].kind == VM_K_CAL &&
            recursive(code, n, D, D->region[code[i].target], state))
            return true;
    state[r] = 2;
    return false;
}

bool vm_jit_depths_analyse(const vm_uop *code, uint32_t n, vm_jit_depths *D, char *why, size_t wn)
{
    for (uint32_t i = 0; i < n; i++)
        D->cd[i] = D->ld[i] = D->sd[i] = UINT32_MAX;
    /* the regions: main up to its END, then BGNSUB..ENDSUB blocks (a last END may follow) */
    uint32_t end = 0;
    while (end < n && (code[end].fn || code[end].kind != VM_K_END)) {
        if (!code[end].fn && (code[end].kind == VM_K_BGNSUB || code[end].kind == VM_K_ENDSUB))
            return vm_jit_decline(why, wn, "micro-op %u: a subroutine before the main END",
                                  end);
        D->region[end++] = 0;
    }
    if (end >= n)
        return vm_jit_decline(why, wn, "no END");
    D->region[end] = 0;
    uint32_t r = 0;
    for (uint32_t i = end + 1; i < n; i++) {
        if (!code[i].fn && code[i].kind == VM_K_BGNSUB) {
            r++;
            uint32_t k = i;
            while (k < n && (code[k].fn || code[k].kind != VM_K_ENDSUB))
                D->region[k++] = r;
            if (k >= n)
                return vm_jit_decline(why, wn, "micro-op %u: BGNSUB without ENDSUB", i);
            D->region[k] = r;
            i = k;
        } else if (code[i].fn || (code[i].kind != VM_K_END && code[i].kind != VM_K_NOP)) {
            return vm_jit_decline(why, wn, "micro-op %u: code outside the main program and its "
                                  "subroutines", i);
        } else {
            D->region[i] = 0;   /* unreachable END after the subroutines */
        }
    }
    D->nregions = r + 1;
    uint32_t *lc = calloc(n + 1, sizeof *lc), *ls = calloc(n + 1, sizeof *ls);
    uint8_t *state = calloc(D->nregions, 1);
    bool ok = lc && ls && state;
    if (!ok)
        vm_jit_decline(why, wn, "out of memory");
    ok = ok && analyse_region(code, n, 0, end, D, lc, ls, why, wn);
    for (uint32_t i = end + 1; ok && i < n; i++)
        if (!code[i].fn && code[i].kind == VM_K_BGNSUB) {
            uint32_t k = i;
            while (code[k].fn || code[k].kind != VM_K_ENDSUB)
                k++;
            ok = analyse_region(code, n, i, k, D, lc, ls, why, wn);
            i = k;
        }
    if (ok && recursive(code, n, D, 0, state))
        ok = vm_jit_decline(why, wn, "recursive subroutines");
    free(lc);
    free(ls);
    free(state);
    return ok;
}
#endif
