/* 64-bit encode/decode, driven by the form table (sass_tables.c). The texture phase
 * (.T/.P) lives in the scheduling-control field, bits [18:17] (reference §4.1). */
#include "sass/sass_internal.h"
#include "util/error.h"

#include <string.h>

static uint64_t field_mask(unsigned width)
{
    return width >= 64 ? ~0ull : ((1ull << width) - 1);
}

tv_status tv_sass_encode(const tv_sass_insn *in, uint64_t *word, uint32_t *ctrl,
                         tv_error *err)
{
    tv_status s = tv_sass_validate(in, err);
    if (s)
        return s;
    const sass_form *f = sass_form_for(in);
    if (!f)
        return tv_error_set(err, TV_ERR_INVALID, 0, 0, "%s: no encoding for this form",
                            sass_ops[in->op].name);
    uint64_t w = (uint64_t)f->opc << f->opc_lo;
    const uint8_t *bytes = (const uint8_t *)in;
    for (unsigned i = 0; i < f->nfields; i++) {
        const sass_field *fd = &f->fields[i];
        uint64_t v = 0;
        switch (fd->kind) {
        case FK_U8: v = bytes[fd->member]; break;
        case FK_TID: v = in->tid; break;
        case FK_TLD_LOD: v = in->lod == TV_SASS_LOD_LL; break;
        case FK_OFFMODE: v = in->aoffi ? 1 : in->ptp ? 2 : 0; break;
        case FK_CODE: v = sass_code_find(in)->code; break;
        case FK_SWZ: v = sass_swz_by_mask(in->rd2 == TV_SASS_RZ, in->wmask)->code; break;
        case FK_UNUSED_RB: v = in->unused_rb; break;
        default: v = 0; break;
        }
        if (v & ~field_mask(fd->width))
            return tv_error_set(err, TV_ERR_INVALID, 0, 0,
                                "%s: value %llu does not fit bits [%u:%u]", f->name,
                                (unsigned long long)v, fd->lo + fd->width - 1u, fd->lo);
        w |= v << fd->lo;
    }
    *word = w;
    if (ctrl)
        *ctrl = (uint32_t)in->phase << 17;
    return TV_OK;
}

static const sass_form *find_form(uint64_t word)
{
    for (size_t i = 0; i < sass_num_forms; i++)
        if ((word >> sass_forms[i].opc_lo) == sass_forms[i].opc)
            return &sass_forms[i];
    return NULL;
}

tv_status tv_sass_decode(uint64_t word, uint32_t ctrl, tv_sass_insn *in, tv_error *err)
{
    const sass_form *f = find_form(word);
    if (!f)
        return tv_error_set(err, TV_ERR_INVALID, 0, 0,
                            "0x%016llx is not a texture instruction (TEX, TEXS, TLD, TLDS, "
                            "TLD4, TLD4S, TMML, TXQ, TXD)", (unsigned long long)word);
    tv_sass_insn_init(in, (tv_sass_op)f->op);
    in->bindless = f->bindless;
    in->f16 = f->f16;
    uint64_t covered = field_mask(64 - f->opc_lo) << f->opc_lo;
    uint8_t *bytes = (uint8_t *)in;
    unsigned code = 0, swz = 0;
    for (unsigned i = 0; i < f->nfields; i++) {
        const sass_field *fd = &f->fields[i];
        uint64_t v = (word >> fd->lo) & field_mask(fd->width);
        covered |= field_mask(fd->width) << fd->lo;
        switch (fd->kind) {
        case FK_U8: bytes[fd->member] = (uint8_t)v; break;
        case FK_TID: in->tid = (uint16_t)v; break;
        case FK_TLD_LOD: in->lod = v ? TV_SASS_LOD_LL : TV_SASS_LOD_LZ; break;
        case FK_OFFMODE:
            if (v == 3)
                return tv_error_set(err, TV_ERR_INVALID, 0, 0,
                                    "%s: offset mode 3 is invalid (bits [%u:%u])", f->name,
                                    fd->lo + 1u, fd->lo);
            in->aoffi = v == 1;
            in->ptp = v == 2;
            break;
        case FK_CODE: code = (unsigned)v; break;
        case FK_SWZ: swz = (unsigned)v; break;
        case FK_UNUSED_RB:
            if (v != 0 && v != 0xff)
                return tv_error_set(err, TV_ERR_INVALID, 0, 0,
                                    "%s: the unused Rb field, bits [%u:%u], must be 0 or RZ "
                                    "(0xff), not 0x%02x", f->name, fd->lo + fd->width - 1u,
                                    fd->lo, (unsigned)v);
            in->unused_rb = (uint8_t)v;
            break;
        default:
            if (v)
                return tv_error_set(err, TV_ERR_INVALID, 0, 0,
                                    "%s: bits [%u:%u] must be zero", f->name,
                                    fd->lo + fd->width - 1u, fd->lo);
            break;
        }
    }
    if (word & ~covered)
        return tv_error_set(err, TV_ERR_INVALID, 0, 0, "%s: undefined bits set (0x%016llx)",
                            f->name, (unsigned long long)(word & ~covered));
    if (in->op == TV_SASS_TEXS || in->op == TV_SASS_TLDS) {
        const sass_code_row *row = sass_code_lookup(in->op, (uint8_t)code);
        if (!row)
            return tv_error_set(err, TV_ERR_INVALID, 0, 0,
                                "%s: encoding %u is not in the legal-modifier table", f->name,
                                code);
        in->type = row->type;
        in->lod = row->lod;
        in->dc = row->dc;
        in->aoffi = row->aoffi;
        in->ms = row->ms;
        const sass_swz_row *sw = sass_swz_by_code(in->rd2 == TV_SASS_RZ, (uint8_t)swz);
        if (!sw)
            return tv_error_set(err, TV_ERR_INVALID, 0, 0,
                                "%s: write-mask code %u needs Rd1 (first destination) = RZ",
                                f->name, swz);
        in->wmask = sw->mask;
    }
    unsigned phase = (ctrl >> 17) & 3;
    if (phase == 3)
        return tv_error_set(err, TV_ERR_INVALID, 0, 0, "%s: texture phase 3 is invalid",
                            f->name);
    in->phase = (uint8_t)phase;
    return tv_sass_validate(in, err);
}
