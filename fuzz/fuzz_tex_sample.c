/* libFuzzer target for the texture unit's sampling half: a fuzzed TIC and TSC (header and
 * sampler 0, texel storage pointed into a mapped 256 KiB buffer) and a fuzzed request
 * (every field, including NaN/Inf floats and garbage op/target/flags). tv_tex_execute must
 * return TV_OK or TV_ERR_ARG, leave inactive lanes untouched and give zeros on invalid
 * lanes; ASan/UBSan watch everything else.
 * Input: [TIC 32][TSC 32][precision/binding 1][request bytes …]. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "texvm/tex.h"

#define BASE 0x10000000ull
#define DATA_SIZE (256u << 10)

static uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 65)
        return 0;
    static uint8_t pools[64];
    static uint8_t *texels;
    if (!texels)
        texels = malloc(DATA_SIZE);
    if (!texels)
        return 0;
    memset(texels, 0x5a, DATA_SIZE);
    uint32_t tw[8], sw[8];
    for (int i = 0; i < 8; i++) {
        tw[i] = rd32(data + 4 * i);
        sw[i] = rd32(data + 32 + 4 * i);
    }
    /* point the header's address into the texel buffer (low bits stay fuzzed) */
    tv_tic tic;
    tv_tic_decode(tw, &tic);
    tic.address = BASE + 0x1000 + (tic.address & 0xffffu);
    tv_tic_encode(&tic, tw);
    memcpy(pools, tw, 32);
    memcpy(pools + 32, sw, 32);

    tv_memory *mem = tv_memory_create();
    tv_error e;
    if (!mem || tv_memory_map(mem, 0x1000, pools, sizeof pools, &e) != TV_OK ||
        tv_memory_map(mem, BASE, texels, DATA_SIZE, &e) != TV_OK) {
        tv_memory_destroy(mem);
        return 0;
    }
    tv_tex_unit *unit = tv_tex_create(mem);
    if (!unit) {
        tv_memory_destroy(mem);
        return 0;
    }
    tv_tex_set_header_pool(unit, 0x1000, 0);
    tv_tex_set_sampler_pool(unit, 0x1020, 0);
    uint8_t mode = data[64];
    tv_tex_set_precision(unit, mode & 1 ? TV_TEX_PRECISION_HARDWARE
                                        : TV_TEX_PRECISION_REFERENCE);
    tv_tex_set_header_binding(unit, (mode & 2) != 0);

    static tv_tex_request req;
    static tv_tex_result res;
    memset(&req, 0, sizeof req);
    size_t n = size - 65 < sizeof req ? size - 65 : sizeof req;
    memcpy(&req, data + 65, n);
    if (!(mode & 4)) /* mostly valid handles: header 0, sampler 0 (or 1: invalid) */
        for (unsigned l = 0; l < TV_TEX_LANES; l++)
            req.handle[l] &= 0x00100000u;
    if (!(mode & 8)) { /* mostly meaningful op / target */
        req.op = (uint8_t)(req.op % TV_TEX_OP_COUNT);
        req.target = (uint8_t)(req.target % TV_TEXTGT_COUNT);
    }
    memset(&res, 0xcd, sizeof res);
    tv_status st = tv_tex_execute(unit, &req, &res, &e);
    if (st != TV_OK && st != TV_ERR_ARG)
        abort();
    if (st == TV_OK) {
        for (unsigned l = 0; l < TV_TEX_LANES; l++) {
            bool active = (req.active >> l) & 1u;
            if (!active && res.v[0][l] != 0xcdcdcdcdu)
                abort();
            if (active && ((res.invalid >> l) & 1u))
                for (int c = 0; c < 4; c++)
                    if (res.v[c][l] != 0)
                        abort();
        }
    }
    tv_tex_destroy(unit);
    tv_memory_destroy(mem);
    return 0;
}
