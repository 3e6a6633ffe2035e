/* libFuzzer target: the SASS decoder and execution. Input: 8 bytes instruction word,
 * 4 bytes control, then bytes that seed registers, predicates and the active mask. A word
 * that decodes must print, re-parse, and re-encode to the same word; then it runs on a
 * warp whose texture unit holds a few small textures (valid and invalid handles). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "texvm/sass.h"

#define BASE 0x10000ull
#define SIZE (1u << 20)

static tv_memory *mem;
static tv_tex_unit *unit;
static tv_sass_warp *warp;
static uint8_t *host;

static void put_texture(unsigned idx, tv_format f, unsigned type, unsigned w, unsigned h,
                        unsigned d, unsigned levels, unsigned ms, uint64_t addr)
{
    tv_tic t;
    memset(&t, 0, sizeof t);
    tv_tic_from_format(&t, f, NULL);
    t.header_version = TV_TIC_PITCH;
    t.texture_type = (uint8_t)type;
    t.width_minus_one = w - 1;
    t.height_minus_one = (uint16_t)(h - 1);
    t.depth_minus_one = (uint16_t)(d - 1);
    t.max_mip_level = (uint8_t)(levels - 1);
    t.res_view_max_mip_level = (uint8_t)(levels - 1);
    t.normalized_coords = true;
    t.multi_sample_count = (uint8_t)ms;
    t.pitch = 256;
    t.address = addr;
    uint32_t raw[8];
    tv_tic_encode(&t, raw);
    tv_memory_write(mem, BASE + 32u * idx, raw, 32);
}

static void setup(void)
{
    host = calloc(1, SIZE);
    mem = tv_memory_create();
    tv_memory_map(mem, BASE, host, SIZE, NULL);
    for (size_t i = 0x8000; i < SIZE; i++)
        host[i] = (uint8_t)(i * 2654435761u >> 13);
    unit = tv_tex_create(mem);
    warp = tv_sass_warp_create(unit, NULL);
    put_texture(0, TV_FORMAT_R8G8B8A8_UNORM, TV_TEX_2D, 8, 8, 1, 3, 0, BASE + 0x8000);
    put_texture(1, TV_FORMAT_R32G32B32A32_FLOAT, TV_TEX_2D_ARRAY, 4, 4, 3, 2, 0, BASE + 0x20000);
    put_texture(2, TV_FORMAT_R16G16_UINT, TV_TEX_3D, 4, 4, 4, 1, 0, BASE + 0x40000);
    put_texture(3, TV_FORMAT_R8G8B8A8_UNORM, TV_TEX_CUBE_ARRAY, 4, 4, 1, 2, 0, BASE + 0x60000);
    put_texture(4, TV_FORMAT_R32_FLOAT, TV_TEX_2D, 4, 4, 1, 1, 2, BASE + 0x80000);
    put_texture(5, TV_FORMAT_Z32_FLOAT, TV_TEX_1D_ARRAY, 16, 1, 2, 4, 0, BASE + 0xa0000);
    tv_tsc s;
    memset(&s, 0, sizeof s);
    s.mag_filter = TV_MAG_LINEAR;
    s.min_filter = TV_MIN_LINEAR;
    s.mip_filter = TV_MIP_LINEAR;
    s.max_lod_clamp = 0xfff;
    s.max_anisotropy = 4;
    s.depth_compare = true;
    uint32_t raw[8];
    tv_tsc_encode(&s, raw);
    tv_memory_write(mem, BASE + 0x1000, raw, 32);
    tv_sass_binding b = {BASE, 5, BASE + 0x1000, 0, false, 1};
    tv_sass_set_binding(warp, &b, NULL);
    for (uint32_t i = 0; i < 64; i++) {
        uint32_t h = tv_tex_handle(i % 7, i & 1);
        tv_sass_cbank_write(warp, 1, i * 4, &h, 4, NULL);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!warp)
        setup();
    if (size < 12)
        return 0;
    uint64_t word;
    uint32_t ctrl;
    memcpy(&word, data, 8);
    memcpy(&ctrl, data + 8, 4);
    ctrl &= 0x1fffff;
    tv_sass_insn a, b;
    tv_error err;
    if (tv_sass_decode(word, ctrl, &a, &err) != TV_OK)
        return 0;
    char buf[512];
    tv_sass_print(&a, buf, sizeof buf);
    if (tv_sass_parse(buf, &b, &err) != TV_OK)
        abort();
    b.unused_rb = a.unused_rb;   /* the one field the text does not carry (TMML's RZ Rb) */
    if (memcmp(&a, &b, sizeof a) != 0)
        abort();   /* decode -> print -> parse is the identity */
    uint64_t w2;
    uint32_t c2;
    if (tv_sass_encode(&a, &w2, &c2, &err) != TV_OK || w2 != word ||
        c2 != (ctrl & (3u << 17)))
        abort();   /* encode(decode(w)) == w */
    /* registers: a few small integers and floats from the input */
    const uint8_t *p = data + 12;
    size_t n = size - 12;
    tv_sass_set_active(warp, n >= 4 ? (uint32_t)p[0] | (uint32_t)p[1] << 8 |
                                          (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24
                                    : 0xffffffffu);
    for (unsigned r = 0; r < TV_SASS_NUM_REGS; r++) {
        for (unsigned l = 0; l < TV_SASS_LANES; l++) {
            uint8_t x = n ? p[(r * 7 + l) % n] : 0;
            uint32_t v;
            switch (x & 3) {
            case 0: v = x >> 2; break;                           /* small integer */
            case 1: { float f = (float)(x >> 2) / 16.0f - 1.0f; memcpy(&v, &f, 4); break; }
            case 2: v = tv_tex_handle(x >> 4, (x >> 2) & 3); break;
            default: v = (uint32_t)x * 0x01010101u; break;
            }
            tv_sass_set_reg(warp, r, l, v);
        }
    }
    for (unsigned q = 0; q < TV_SASS_NUM_PREDS; q++)
        tv_sass_set_pred(warp, q, n > 4 + q ? p[4 + q] * 0x01010101u : 0);
    tv_status st = tv_sass_exec(warp, &a, &err);
    if (st == TV_ERR_ARG || st == TV_ERR_INVALID || st == TV_ERR_PARSE)
        abort();   /* a decoded instruction must build well-formed requests */
    return 0;
}
