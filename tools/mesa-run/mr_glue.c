/* mesa-run: what src/job/job_run_out.c (compiled in for identical outputs) needs from
 * texvm run beyond that file, implemented over mesa-run's state; and mr_fail. */
#include "mr.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

int mr_fail(mr_state *s, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    code = run_vfail(&s->rs, code, fmt, ap);
    va_end(ap);
    return code;
}

/* Texel bytes in the job's raw order (level, layer, row, texel, sample innermost), from the
 * read-back copy when the texture was read back, else the job's own data. */
const uint8_t *run_texel_ptr(const run_state *rs, size_t tex, unsigned level, unsigned x,
                             unsigned y, unsigned layer, unsigned sample)
{
    const mr_state *s = (const mr_state *)(const void *)rs;
    const job_texture *t = &rs->j->textures[tex];
    const tv_format_info *fi = tv_format_get(t->format);
    size_t bpp = fi ? fi->block_bytes : 4;
    uint32_t w = job_level_size(t->width, level);
    uint32_t h = t->type == TV_TEX_1D || t->type == TV_TEX_1D_ARRAY || t->type == TV_TEX_1D_BUFFER
                     ? 1
                     : job_level_size(t->height, level);
    size_t samples = t->samples ? t->samples : 1;
    size_t off = t->level_offset[level] +
                 ((((size_t)layer * h + y) * w + x) * samples + sample) * bpp;
    const uint8_t *base = s->tex_readback && s->tex_readback[tex] ? s->tex_readback[tex] : t->data;
    static const uint8_t zero[16];
    return base && off + bpp <= t->data_size ? base + off : zero;
}
