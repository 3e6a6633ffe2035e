/* The warp: 32 lanes with an active mask, R0-R254 (+ RZ), P0-P6 (+ PT), constant banks,
 * and a record of which registers the last instruction read and wrote. */
#include "sass/sass_internal.h"
#include "util/error.h"

#include <stdlib.h>
#include <string.h>

tv_sass_warp *tv_sass_warp_create(tv_tex_unit *unit, tv_error *err)
{
    if (!unit) {
        tv_error_set(err, TV_ERR_ARG, 0, 0, "tv_sass_warp_create: NULL texture unit");
        return NULL;
    }
    tv_sass_warp *w = calloc(1, sizeof *w);
    if (!w) {
        tv_error_set(err, TV_ERR_NOMEM, 0, 0, "tv_sass_warp_create: out of memory");
        return NULL;
    }
    w->unit = unit;
    w->active = 0xffffffffu;
    return w;
}

void tv_sass_warp_destroy(tv_sass_warp *w)
{
    if (!w)
        return;
    for (unsigned b = 0; b < TV_SASS_NUM_CBANKS; b++)
        free(w->cbank[b]);
    free(w);
}

void tv_sass_get_binding(const tv_sass_warp *w, tv_sass_binding *b)
{
    *b = w->binding;
}

void tv_sass_set_active(tv_sass_warp *w, uint32_t mask) { w->active = mask; }
uint32_t tv_sass_get_active(const tv_sass_warp *w) { return w->active; }

void tv_sass_set_reg(tv_sass_warp *w, unsigned reg, unsigned lane, uint32_t value)
{
    if (reg < TV_SASS_NUM_REGS && lane < TV_SASS_LANES)
        w->regs[reg][lane] = value;
}

void tv_sass_set_reg_all(tv_sass_warp *w, unsigned reg, uint32_t value)
{
    for (unsigned l = 0; l < TV_SASS_LANES; l++)
        tv_sass_set_reg(w, reg, l, value);
}

uint32_t tv_sass_get_reg(const tv_sass_warp *w, unsigned reg, unsigned lane)
{
    if (reg < TV_SASS_NUM_REGS && lane < TV_SASS_LANES)
        return w->regs[reg][lane];
    return 0;
}

void tv_sass_set_pred(tv_sass_warp *w, unsigned pred, uint32_t lanes)
{
    if (pred < TV_SASS_NUM_PREDS)
        w->preds[pred] = lanes;
}

uint32_t tv_sass_get_pred(const tv_sass_warp *w, unsigned pred)
{
    if (pred < TV_SASS_NUM_PREDS)
        return w->preds[pred];
    return pred == TV_SASS_PT ? 0xffffffffu : 0;
}

static tv_status cbank_range(unsigned bank, uint32_t offset, size_t size, tv_error *err)
{
    if (bank >= TV_SASS_NUM_CBANKS)
        return tv_error_set(err, TV_ERR_ARG, 0, 0, "constant bank %u out of range (0..%u)",
                            bank, TV_SASS_NUM_CBANKS - 1);
    if (offset > TV_SASS_CBANK_SIZE || size > TV_SASS_CBANK_SIZE - offset)
        return tv_error_set(err, TV_ERR_ARG, 0, 0,
                            "c[0x%x][0x%x]: %zu bytes run past the 64 KiB bank", bank,
                            offset, size);
    return TV_OK;
}

tv_status tv_sass_cbank_write(tv_sass_warp *w, unsigned bank, uint32_t offset,
                              const void *data, size_t size, tv_error *err)
{
    tv_status s = cbank_range(bank, offset, size, err);
    if (s)
        return s;
    if (!w->cbank[bank]) {
        w->cbank[bank] = calloc(1, TV_SASS_CBANK_SIZE);
        if (!w->cbank[bank])
            return tv_error_set(err, TV_ERR_NOMEM, 0, 0, "constant bank: out of memory");
    }
    if (size)
        memcpy(w->cbank[bank] + offset, data, size);
    return TV_OK;
}

tv_status tv_sass_cbank_read(const tv_sass_warp *w, unsigned bank, uint32_t offset,
                             void *data, size_t size, tv_error *err)
{
    tv_status s = cbank_range(bank, offset, size, err);
    if (s)
        return s;
    if (!size)
        return TV_OK;
    if (w->cbank[bank])
        memcpy(data, w->cbank[bank] + offset, size);
    else
        memset(data, 0, size);
    return TV_OK;
}

uint32_t sass_cbank_word(const tv_sass_warp *w, unsigned bank, uint32_t off)
{
    uint8_t b[4] = {0, 0, 0, 0};
    if (bank < TV_SASS_NUM_CBANKS && w->cbank[bank] && off <= TV_SASS_CBANK_SIZE - 4)
        memcpy(b, w->cbank[bank] + off, 4);
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

void sass_clear_access(tv_sass_warp *w)
{
    memset(w->reads, 0, sizeof w->reads);
    memset(w->writes, 0, sizeof w->writes);
    w->pred_writes = 0;
}

void sass_note_read(tv_sass_warp *w, unsigned reg)
{
    if (reg < TV_SASS_NUM_REGS)
        w->reads[reg / 64] |= 1ull << (reg % 64);
}

uint32_t sass_read_reg(tv_sass_warp *w, unsigned reg, unsigned lane)
{
    if (reg >= TV_SASS_NUM_REGS || lane >= TV_SASS_LANES)
        return 0;   /* RZ */
    sass_note_read(w, reg);
    return w->regs[reg][lane];
}

void sass_write_reg(tv_sass_warp *w, unsigned reg, unsigned lane, uint32_t v)
{
    if (reg >= TV_SASS_NUM_REGS || lane >= TV_SASS_LANES)
        return;     /* RZ: dropped */
    w->writes[reg / 64] |= 1ull << (reg % 64);
    w->regs[reg][lane] = v;
}

void sass_write_pred(tv_sass_warp *w, unsigned pred, uint32_t lanes, bool value)
{
    if (pred >= TV_SASS_NUM_PREDS)
        return;     /* PT: dropped */
    w->pred_writes |= 1u << pred;
    if (value)
        w->preds[pred] |= lanes;
    else
        w->preds[pred] &= ~lanes;
}

uint32_t sass_guard_mask(const tv_sass_warp *w, const tv_sass_insn *in)
{
    uint32_t p = tv_sass_get_pred(w, in->pg);
    return w->active & (in->pg_neg ? ~p : p);
}

void tv_sass_last_access(const tv_sass_warp *w, uint64_t reads[4], uint64_t writes[4],
                         uint32_t *pred_writes)
{
    if (reads)
        memcpy(reads, w->reads, sizeof w->reads);
    if (writes)
        memcpy(writes, w->writes, sizeof w->writes);
    if (pred_writes)
        *pred_writes = w->pred_writes;
}
