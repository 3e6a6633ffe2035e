/* Control-flow structure analysis for lowering: matches IF/ELSE/ENDIF, loops, switches and
 * subroutines by nesting (labels in the text are not trusted), finds the owner of each
 * BRK/CONT/CASE/DEFAULT, and the boundary instruction each instruction skips to when the
 * execution mask becomes empty (the next ELSE/ENDIF/ENDLOOP/CASE/DEFAULT/ENDSWITCH/ENDSUB/
 * END of its innermost construct). */
#include <stdlib.h>

#include "vm/vm_lower.h"

typedef struct {
    uint16_t op;
    uint32_t idx, rstart, elseidx;
} cfnode;

static void close_region(vm_lower *L, uint32_t from, uint32_t to)
{
    for (uint32_t i = from; i < to; i++)
        if (L->skip[i] == UINT32_MAX)
            L->skip[i] = to;
}

tv_status vm_lower_cf(vm_lower *L);
tv_status vm_lower_cf(vm_lower *L)
{
    const tv_tgsi_program *P = L->src;
    uint32_t n = P->num_insns;
    cfnode *st = calloc(n + 2, sizeof *st);
    if (!st)
        return vm_lower_fail(L, TV_ERR_NOMEM, "out of memory");
    uint32_t sp = 0, maxd = 0, main_start = 0;
    bool in_main = true;
    for (uint32_t i = 0; i < n; i++) {
        L->insn = i;
        L->in = &P->insns[i];
        uint16_t op = P->insns[i].opcode;
        switch (op) {
        case TV_TGSI_OP_IF: case TV_TGSI_OP_UIF: case TV_TGSI_OP_BGNLOOP:
        case TV_TGSI_OP_SWITCH:
            st[sp++] = (cfnode){op, i, i + 1, UINT32_MAX};
            if (sp > maxd) maxd = sp;
            break;
        case TV_TGSI_OP_BGNSUB:
            if (sp)
                goto bad_nest;
            st[sp++] = (cfnode){op, i, i + 1, UINT32_MAX};
            in_main = false;
            break;
        case TV_TGSI_OP_ELSE:
            if (!sp || (st[sp - 1].op != TV_TGSI_OP_IF && st[sp - 1].op != TV_TGSI_OP_UIF) ||
                st[sp - 1].elseidx != UINT32_MAX)
                goto bad_nest;
            close_region(L, st[sp - 1].rstart, i);
            L->match[st[sp - 1].idx] = i;
            st[sp - 1].elseidx = i;
            st[sp - 1].rstart = i + 1;
            break;
        case TV_TGSI_OP_ENDIF:
            if (!sp || (st[sp - 1].op != TV_TGSI_OP_IF && st[sp - 1].op != TV_TGSI_OP_UIF))
                goto bad_nest;
            close_region(L, st[sp - 1].rstart, i);
            if (st[sp - 1].elseidx == UINT32_MAX)
                L->match[st[sp - 1].idx] = i;
            else
                L->match[st[sp - 1].elseidx] = i;
            sp--;
            break;
        case TV_TGSI_OP_ENDLOOP:
            if (!sp || st[sp - 1].op != TV_TGSI_OP_BGNLOOP)
                goto bad_nest;
            close_region(L, st[sp - 1].rstart, i);
            L->match[st[sp - 1].idx] = i;
            L->match[i] = st[sp - 1].idx;
            sp--;
            break;
        case TV_TGSI_OP_CASE: case TV_TGSI_OP_DEFAULT:
            if (!sp || st[sp - 1].op != TV_TGSI_OP_SWITCH)
                goto bad_nest;
            close_region(L, st[sp - 1].rstart, i);
            st[sp - 1].rstart = i;   /* an empty CASE skips to the next label too */
            L->owner[i] = st[sp - 1].idx;
            break;
        case TV_TGSI_OP_ENDSWITCH:
            if (!sp || st[sp - 1].op != TV_TGSI_OP_SWITCH)
                goto bad_nest;
            close_region(L, st[sp - 1].rstart, i);
            L->match[st[sp - 1].idx] = i;
            L->owner[i] = st[sp - 1].idx;
            sp--;
            break;
        case TV_TGSI_OP_ENDSUB:
            if (sp != 1 || st[0].op != TV_TGSI_OP_BGNSUB)
                goto bad_nest;
            close_region(L, st[0].rstart, i);
            L->match[st[0].idx] = i;
            sp--;
            break;
        case TV_TGSI_OP_BRK: case TV_TGSI_OP_CONT: {
            uint32_t k = sp;
            while (k > 0 && st[k - 1].op != TV_TGSI_OP_BGNLOOP &&
                   (op == TV_TGSI_OP_CONT || st[k - 1].op != TV_TGSI_OP_SWITCH))
                k--;
            if (k == 0) {
                free(st);
                return vm_lower_fail(L, TV_ERR_INVALID, "%s outside of a %s",
                                     vm_opname(op), op == TV_TGSI_OP_BRK ? "loop or switch"
                                                                         : "loop");
            }
            L->owner[i] = st[k - 1].idx;
            break;
        }
        case TV_TGSI_OP_END:
            if (sp)
                goto bad_nest;
            if (in_main) {
                close_region(L, main_start, i);
                in_main = false;
            }
            break;
        default:
            break;
        }
    }
    if (sp) {
        L->insn = st[sp - 1].idx;
        L->in = &P->insns[L->insn];
        free(st);
        return vm_lower_fail(L, TV_ERR_INVALID, "%s is never closed",
                             vm_opname(P->insns[L->insn].opcode));
    }
    close_region(L, 0, n);
    L->p->max_nesting = maxd;
    free(st);
    return TV_OK;
bad_nest:
    free(st);
    return vm_lower_fail(L, TV_ERR_INVALID, "%s does not match the enclosing construct",
                         vm_opname(L->in->opcode));
}
