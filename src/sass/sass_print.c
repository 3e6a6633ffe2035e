/* Printing in nvdisasm syntax (reference §4.5/§6): modifiers in FORMAT order, Rd2 first
 * for TEXS/TLDS/TLD4S, Rb and Pd omitted when RZ/PT, immediates in hex. */
#include "sass/sass_internal.h"

#include <stdarg.h>
#include <stdio.h>

typedef struct outbuf {
    char *buf;
    size_t size, len;
} outbuf;

static void put(outbuf *o, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    size_t room = o->len < o->size ? o->size - o->len : 0;
    int n = vsnprintf(room ? o->buf + o->len : NULL, room, fmt, ap);
    va_end(ap);
    if (n > 0)
        o->len += (size_t)n;
}

static void put_reg(outbuf *o, uint8_t r)
{
    if (r == TV_SASS_RZ)
        put(o, "RZ");
    else
        put(o, "R%u", r);
}

static const char *mod_name(uint8_t kind, uint8_t value)
{
    for (size_t i = 0; i < sass_num_mods; i++)
        if (sass_mods[i].kind == kind && sass_mods[i].value == value)
            return sass_mods[i].name;
    return "?";
}

static void put_mods(outbuf *o, const tv_sass_insn *in, const sass_op_info *op)
{
    for (uint8_t k = 0; k < MK_COUNT; k++) {
        switch (k) {
        case MK_F16: if (in->f16) put(o, ".F16"); break;
        case MK_COMP:
            if (op->comp_required) put(o, ".%s", mod_name(MK_COMP, in->component));
            break;
        case MK_B: if (in->bindless) put(o, ".B"); break;
        case MK_LOD: if (in->lod) put(o, ".%s", mod_name(MK_LOD, in->lod)); break;
        case MK_LODQ: if (op->lodq) put(o, ".LOD"); break;
        case MK_LC: if (in->lc) put(o, ".LC"); break;
        case MK_AOFFI: if (in->aoffi) put(o, ".AOFFI"); break;
        case MK_PTP: if (in->ptp) put(o, ".PTP"); break;
        case MK_DC: if (in->dc) put(o, ".DC"); break;
        case MK_MS: if (in->ms) put(o, ".MS"); break;
        case MK_CL: if (in->cl) put(o, ".CL"); break;
        case MK_NDV: if (in->ndv) put(o, ".NDV"); break;
        case MK_NODEP: if (in->nodep) put(o, ".NODEP"); break;
        case MK_PHASE: if (in->phase) put(o, ".%s", mod_name(MK_PHASE, in->phase)); break;
        default: break;
        }
    }
}

int tv_sass_print(const tv_sass_insn *in, char *buf, size_t size)
{
    outbuf o = {buf, size, 0};
    if (size)
        buf[0] = '\0';
    if (in->op >= TV_SASS_OP_COUNT) {
        put(&o, "<invalid>");
        return (int)o.len;
    }
    const sass_op_info *op = &sass_ops[in->op];
    if (in->pg != TV_SASS_PT || in->pg_neg) {
        put(&o, "@%s", in->pg_neg ? "!" : "");
        if (in->pg == TV_SASS_PT)
            put(&o, "PT ");
        else
            put(&o, "P%u ", in->pg);
    }
    put(&o, "%s", op->name);
    put_mods(&o, in, op);
    put(&o, " ");
    if (op->has_pd && in->pd != TV_SASS_PT)
        put(&o, "P%u, ", in->pd);
    if (op->scalar) {
        put_reg(&o, in->rd2);
        put(&o, ", ");
    }
    put_reg(&o, in->rd);
    put(&o, ", ");
    put_reg(&o, in->ra);
    if (op->has_rb && in->rb != TV_SASS_RZ) {
        put(&o, ", ");
        put_reg(&o, in->rb);
    }
    if (in->op == TV_SASS_TXQ) {
        const char *q = sass_query_name(in->query);
        if (q)
            put(&o, ", %s", q);
        else
            put(&o, ", 0x%x", in->query);
    }
    if (in->legacy_tid)
        put(&o, ", 0x%x, 0x%x", in->tid & 0xffu, in->tid >> 8);
    else
        put(&o, ", 0x%x", in->tid);
    if (op->has_type)
        put(&o, ", %s", sass_type_name(in->type));
    if (op->mask_kind == 1 || op->mask_kind == 2)
        put(&o, ", 0x%x", in->wmask);
    if (op->mask_kind == 3) {
        const sass_swz_row *sw = sass_swz_by_mask(in->rd2 == TV_SASS_RZ, in->wmask);
        if (sw)
            put(&o, ", %s", sw->name);
        else
            put(&o, ", 0x%x", in->wmask);
    }
    if (in->ann_req >= 0)
        put(&o, " {&req_%d}", in->ann_req);
    if (in->ann_rd >= 0)
        put(&o, " {&rd%d}", in->ann_rd);
    if (in->ann_wr >= 0)
        put(&o, " {&wr%d}", in->ann_wr);
    if (in->ann_sched[0])
        put(&o, " {?%.23s}", in->ann_sched);
    return (int)o.len;
}
