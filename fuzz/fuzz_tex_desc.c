/* libFuzzer target for the texture unit's data half:
 *  - random 32-byte TIC and TSC entries: decode(encode(decode(x))) must be stable;
 *  - the same TIC, pointed at a small mapped buffer, must load texels at random in-range
 *    coordinates without touching memory outside the mapping (ASan watches the buffer,
 *    which is allocated at exactly its mapped size);
 *  - handles resolved through pools that hold the fuzzed entries;
 *  - tv_format_unpack / tv_format_pack on every format with fuzzed bytes.
 * Input: [TIC 32][TSC 32][buffer size 2][handle 4][coordinates …]. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "texvm/tex.h"
#include "tex/tex_internal.h"

static uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 70)
        return 0;
    uint32_t tw[8], sw[8], w2[8], w3[8];
    for (int i = 0; i < 8; i++) {
        tw[i] = rd32(data + 4 * i);
        sw[i] = rd32(data + 32 + 4 * i);
    }
    tv_tic tic, tic2;
    tv_tic_decode(tw, &tic);
    tv_tic_encode(&tic, w2);
    tv_tic_decode(w2, &tic2);
    tv_tic_encode(&tic2, w3);
    if (memcmp(w2, w3, sizeof w2) != 0)
        abort();
    tv_tsc tsc, tsc2;
    tv_tsc_decode(sw, &tsc);
    tv_tsc_encode(&tsc, w2);
    tv_tsc_decode(w2, &tsc2);
    tv_tsc_encode(&tsc2, w3);
    if (memcmp(w2, w3, sizeof w2) != 0)
        abort();
    (void)tv_tic_size_bytes(&tic);
    (void)tv_format_from_tic(&tic);

    /* a small texel buffer at the header's address (kept, so layouts are exercised) */
    size_t buf_size = 1 + (size_t)(data[64] | data[65] << 8) % 8192;
    uint32_t handle = rd32(data + 66);
    const uint8_t *coords = data + 70;
    size_t ncoords = size - 70;
    uint8_t *buf = malloc(buf_size);
    if (!buf)
        return 0;
    memcpy(buf, coords, ncoords < buf_size ? ncoords : buf_size);
    if (ncoords < buf_size)
        memset(buf + ncoords, 0xa5, buf_size - ncoords);

    tv_memory *mem = tv_memory_create();
    tv_tex_unit *unit = tv_tex_create(mem);
    uint64_t addr = tic.address;
    if (addr + buf_size < addr)
        addr = 0;
    tv_memory_map(mem, addr, buf, buf_size, NULL);

    tex_view v;
    tex_view_init(&v, &tic);
    if (v.valid) {
        /* host pointer as tex_resolve would set it */
        v.host_generation = tex_memory_generation(mem);
        v.host = v.size_bytes ? tv_memory_host(mem, tic.address, (size_t)v.size_bytes) : NULL;
        for (size_t k = 0; k + 8 <= ncoords && k < 8 * 64; k += 8) {
            const uint8_t *c = coords + k;
            unsigned level = c[0] % v.levels;
            unsigned x = (unsigned)(c[1] | c[2] << 8) % tex_level_width(&v, level);
            unsigned y = (unsigned)(c[3] | c[4] << 8) % tex_level_height(&v, level);
            unsigned z = c[5] % tex_level_depth(&v, level);
            unsigned layer = (unsigned)(c[6] | (c[7] & 0x3f) << 8) % v.layers;
            unsigned sample = (c[7] >> 6) % v.samples;
            uint32_t out[4], sw4[4];
            tex_load_texel(unit, &v, level, x, y, z, layer, sample, c[0] & 0x80, out);
            tex_apply_swizzle(&v, out, sw4);
        }
    }

    /* pools holding the fuzzed entries: header 0..1, sampler 0..1 */
    uint8_t pools[128];
    memcpy(pools, data, 64);
    memcpy(pools + 64, data, 64);
    uint64_t pool_base = 0xfff000000000ull;
    if (tv_memory_map(mem, pool_base, pools, sizeof pools, NULL) == TV_OK) {
        tv_tex_set_header_pool(unit, pool_base, 3);
        tv_tex_set_sampler_pool(unit, pool_base + 32, 2);
        tv_tex_set_header_binding(unit, handle & 1);
        const tex_view *rv;
        const tex_sampler *rs;
        uint32_t h = handle & 0x00300003u;
        if (tex_resolve(unit, h, &rv, &rs) && ncoords >= 4) {
            uint32_t out[4];
            tex_load_texel(unit, rv, coords[0] % rv->levels, 0, 0, 0, 0, 0, true, out);
        }
        tv_tex_lookup(unit, handle, NULL, NULL);
    }

    /* every format's decoders on fuzzed bytes */
    uint8_t texel[16] = {0};
    memcpy(texel, coords, ncoords < 16 ? ncoords : 16);
    for (unsigned f = 1; f < TV_FORMAT_COUNT; f++) {
        uint32_t out[4];
        tv_format_unpack((tv_format)f, texel, data[0] & 3, data[1] & 3, out);
        uint8_t again[16];
        tv_format_pack((tv_format)f, out, again);
    }

    tv_tex_destroy(unit);
    tv_memory_destroy(mem);
    free(buf);
    return 0;
}
