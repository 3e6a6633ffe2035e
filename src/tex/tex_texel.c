/* tex_load_texel: one in-range texel, read through the view's layout and decoded by the
 * format machinery. Memory outside every mapping reads as zero bytes; nothing outside a
 * mapping is ever touched. */
#include "tex/tex_internal.h"
#include "tex/format.h"

#include <string.h>

/* Read `n` bytes of the texel/block at storage (x, y), slice z, layer into buf. */
static void read_block(tv_tex_unit *unit, const tex_view *v, unsigned level, unsigned x,
                       unsigned y, unsigned z, unsigned layer, uint8_t *buf)
{
    unsigned n = v->block_bytes;
    bool bl = v->mem_layout == TV_TIC_BLOCKLINEAR || v->mem_layout == TV_TIC_BLOCKLINEAR_COLOR_KEY;
    /* In block-linear memory a texel is contiguous when its size is a power of two (it
     * then never crosses a 16-byte GOB sector); 12-byte texels go 4 bytes at a time. */
    unsigned chunk = (bl && (n & (n - 1))) ? 4 : n;
    bool host_ok = v->host && v->host_generation == tex_memory_generation(unit->mem);
    for (unsigned b = 0; b < n; b += chunk) {
        uint64_t off = tex_texel_offset(v, level, x, y, z, layer, b);
        if (host_ok && off + chunk <= v->size_bytes)
            memcpy(buf + b, v->host + off, chunk);
        else
            tv_memory_read(unit->mem, v->tic.address + off, buf + b, chunk);
    }
}

/* A unorm8x4 view's texel (tex_layout.c classify_unorm8x4) without sRGB decode: the four
 * bytes through the decoder's own table (tex_unorm8) — what tex_decode gives for them,
 * without its generic field extraction. tests/tex/test_fastpath.c compares both. */
static void load_unorm8x4(tv_tex_unit *unit, const tex_view *v, unsigned level, unsigned x,
                          unsigned y, unsigned z, unsigned layer, uint32_t out[4])
{
    uint8_t buf[4];
    uint64_t off = tex_texel_offset(v, level, x, y, z, layer, 0);
    if (v->host && off + 4 <= v->size_bytes &&
        v->host_generation == tex_memory_generation(unit->mem))
        memcpy(buf, v->host + off, 4);
    else
        tv_memory_read(unit->mem, v->tic.address + off, buf, 4);
    for (unsigned c = 0; c < 4; c++)
        memcpy(&out[c], &tex_unorm8[buf[v->unorm8_byte[c]]], 4);
}

void tex_load_texel(tv_tex_unit *unit, const tex_view *v, unsigned level, unsigned x,
                    unsigned y, unsigned z, unsigned layer, unsigned sample, bool srgb,
                    uint32_t out[4])
{
    if (!v || !v->valid || !v->layout || level >= v->levels) {
        out[0] = out[1] = out[2] = out[3] = 0;
        return;
    }
    /* Defensive clamps: callers pass in-range coordinates, but a bad one must never
     * address memory outside the resource. */
    uint32_t w = tex_level_width(v, level), h = tex_level_height(v, level);
    uint32_t d = tex_level_depth(v, level);
    if (x >= w) x = w - 1;
    if (y >= h) y = h - 1;
    if (z >= d) z = d - 1;
    if (layer >= v->layers) layer = v->layers - 1;
    if (sample >= v->samples) sample = v->samples - 1;

    if (v->unorm8x4 && !(srgb && v->srgb) && !unit->no_fast_paths) {
        load_unorm8x4(unit, v, level, x, y, z, layer, out);
        return;
    }
    unsigned sx = 0, sy = 0;
    if (v->samples > 1)
        tex_sample_grid_pos(v, sample, &sx, &sy);
    unsigned px = x * v->sample_grid_w + sx, py = y * v->sample_grid_h + sy;

    uint8_t buf[16];
    read_block(unit, v, level, px, py, z, layer, buf);
    tex_decode(v->layout, v->tic.data_type, srgb && v->srgb, buf, px % v->block_w,
               py % v->block_h, out);
}
