/* Colour render targets: API channels <-> texels of a texture-unit format, through the
 * format table's codec (tv_format_unpack / tv_format_pack) and its swizzle, with write
 * masks that change exactly the bits of the masked channels and logic ops on the encoded
 * bits. */
#include "pipe_om.h"
#include "util/half.h"

#include <string.h>

/* The texel bits memory component J occupies: encode several extreme values into J alone
 * and collect the bits that differ from an all-zero texel (1.0 sets every UNORM bit, ±1
 * every SNORM bit, all ones every integer bit; a float's exponent bits come from 0.5, 1.0
 * and a NaN, its mantissa bits from its largest finite value, every mantissa bit set:
 * ±65504 = (2 - 2^-10) * 2^15 for half floats, 65024 = (2 - 2^-6) * 2^15 for the 11-bit
 * floats of R11G11B10_FLOAT, 64512 = (2 - 2^-5) * 2^15 for its 10-bit blue). */
static void probe_bits(const om_target *t, unsigned j, uint32_t out[OM_TEXEL_WORDS])
{
    static const float fprobe[] = {1.0f, -1.0f, 0.5f, 65504.0f, -65504.0f, 65024.0f,
                                   64512.0f};
    static const uint32_t iprobe[] = {0xffffffffu, 0x7fffffffu, 0x80000000u, 1u};
    bool is_int = t->cls == OM_CLASS_SINT || t->cls == OM_CLASS_UINT;
    uint32_t zero_in[4] = {0, 0, 0, 0}, zero[OM_TEXEL_WORDS] = {0};
    tv_format_pack(t->format, zero_in, zero);
    memset(out, 0, OM_TEXEL_WORDS * sizeof out[0]);
    const unsigned nf = sizeof fprobe / sizeof fprobe[0];
    unsigned n = is_int ? sizeof iprobe / sizeof iprobe[0] : nf + 1;   /* + the NaN */
    for (unsigned p = 0; p < n; p++) {
        uint32_t in[4] = {0, 0, 0, 0}, texel[OM_TEXEL_WORDS] = {0};
        in[j] = is_int ? iprobe[p] : p < nf ? tv_f32_bits(fprobe[p]) : 0xffffffffu;
        tv_format_pack(t->format, in, texel);
        for (unsigned w = 0; w < OM_TEXEL_WORDS; w++)
            out[w] |= texel[w] ^ zero[w];
    }
}

/* Whether T's codec copies four 32-bit words unchanged, API channel i in word i: every
 * component a whole word, no swizzle, and probe values — NaNs with payloads, denormals,
 * signed zero, infinities, integers — through pack and unpack come back bit for bit. */
static bool probe_raw32(const om_target *t)
{
    if (t->bytes != 16)
        return false;
    for (unsigned i = 0; i < 4; i++) {
        if (t->mem_of_api[i] != (int8_t)i || t->fi->source[i] != TV_TIC_SOURCE_R + i)
            return false;
        for (unsigned w = 0; w < OM_TEXEL_WORDS; w++)
            if (t->comp_bits[i][w] != (w == i ? 0xffffffffu : 0u))
                return false;
    }
    static const uint32_t probes[] = {0x7fc00000u, 0x7fa12345u, 0xffc00001u, 0x00000001u,
                                      0x807fffffu, 0x80000000u, 0x7f800000u, 0xff800000u,
                                      0x3f800000u, 0x12345678u, 0xffffffffu, 0u};
    for (size_t k = 0; k < sizeof probes / sizeof probes[0]; k++) {
        uint32_t in[4], enc[OM_TEXEL_WORDS] = {0}, out[4];
        for (unsigned i = 0; i < 4; i++)
            in[i] = probes[(k + i) % (sizeof probes / sizeof probes[0])];
        tv_format_pack(t->format, in, enc);
        tv_format_unpack(t->format, enc, 0, 0, out);
        if (memcmp(enc, in, 16) || memcmp(out, in, 16))
            return false;
    }
    return true;
}

bool om_target_init(om_target *t, tv_format f)
{
    memset(t, 0, sizeof *t);
    const tv_format_info *fi = tv_format_get(f);
    uint8_t scratch[OM_TEXEL_WORDS * 4];
    const uint32_t zero[4] = {0, 0, 0, 0};
    if (!fi || fi->kind == TV_FMT_KIND_DEPTH || fi->block_w != 1 || fi->block_h != 1 ||
        fi->block_bytes > sizeof scratch || !tv_format_pack(f, zero, scratch))
        return false;
    t->format = f;
    t->fi = fi;
    t->bytes = fi->block_bytes;
    if (fi->kind == TV_FMT_KIND_SINT)
        t->cls = OM_CLASS_SINT;
    else if (fi->kind == TV_FMT_KIND_UINT)
        t->cls = OM_CLASS_UINT;
    else
        t->cls = fi->data_type[0] == TV_TIC_TYPE_SNORM   ? OM_CLASS_SNORM
                 : fi->data_type[0] == TV_TIC_TYPE_FLOAT ? OM_CLASS_FLOAT
                                                         : OM_CLASS_UNORM;
    /* memory component j takes the first API channel whose swizzle reads it (B8G8R8A8:
       memory R <- blue; L8: memory R <- red; A8: memory R <- alpha) */
    memset(t->mem_of_api, -1, sizeof t->mem_of_api);
    int8_t api_of_mem[4] = {-1, -1, -1, -1};
    for (int j = 3; j >= 0; j--)
        for (int i = 3; i >= 0; i--)
            if (fi->source[i] == TV_TIC_SOURCE_R + j)
                api_of_mem[j] = (int8_t)i;
    for (int j = 0; j < 4; j++)
        if (api_of_mem[j] >= 0 && t->mem_of_api[api_of_mem[j]] < 0)
            t->mem_of_api[api_of_mem[j]] = (int8_t)j;
    uint32_t seen[OM_TEXEL_WORDS] = {0};
    for (unsigned j = 0; j < 4; j++) {
        if (!fi->bits[j])
            continue;
        probe_bits(t, j, t->comp_bits[j]);
        for (unsigned w = 0; w < OM_TEXEL_WORDS; w++) {
            if (seen[w] & t->comp_bits[j][w])
                return false;   /* channels share bits (a shared exponent): not renderable */
            seen[w] |= t->comp_bits[j][w];
        }
    }
    t->raw32 = probe_raw32(t);
    return true;
}

void om_target_read(const om_target *t, const void *texel, uint32_t api[4])
{
    if (t->raw32) {
        om_raw32_read(texel, api);
        return;
    }
    om_format_read(t->format, t->fi, texel, 0, 0, api);
}

void om_format_read(tv_format f, const tv_format_info *fi, const void *block, unsigned bx,
                    unsigned by, uint32_t api[4])
{
    uint32_t mem[4];
    tv_format_unpack(f, block, bx, by, mem);
    for (unsigned i = 0; i < 4; i++) {
        uint8_t src = fi->source[i];
        if (src >= TV_TIC_SOURCE_R && src <= TV_TIC_SOURCE_A)
            api[i] = mem[src - TV_TIC_SOURCE_R];
        else if (src == TV_TIC_SOURCE_ONE_FLOAT)
            api[i] = tv_f32_bits(1.0f);
        else if (src == TV_TIC_SOURCE_ONE_INT)
            api[i] = 1;
        else
            api[i] = 0;
    }
}

void om_target_write(const om_target *t, const uint32_t value[4], unsigned colormask,
                     int logicop, void *texel)
{
    if (t->raw32 && (logicop < 0 || t->cls == OM_CLASS_FLOAT)) {
        /* the codec copies words: the masked channels' words are the values */
        om_raw32_write(texel, value, colormask);
        return;
    }
    uint32_t mem[4] = {0, 0, 0, 0};
    bool write[4] = {false, false, false, false};
    for (unsigned i = 0; i < 4; i++) {
        int j = t->mem_of_api[i];
        if (j >= 0) {
            mem[j] = value[i];
            write[j] = (colormask >> i) & 1u;
        }
    }
    uint32_t enc[OM_TEXEL_WORDS] = {0}, old[OM_TEXEL_WORDS] = {0};
    tv_format_pack(t->format, mem, enc);
    memcpy(old, texel, t->bytes);
    if (logicop >= 0 && t->cls != OM_CLASS_FLOAT)
        for (unsigned w = 0; w < OM_TEXEL_WORDS; w++)
            enc[w] = om_logic_op((uint8_t)logicop, enc[w], old[w]);
    for (unsigned j = 0; j < 4; j++)
        if (write[j])
            for (unsigned w = 0; w < OM_TEXEL_WORDS; w++)
                old[w] = (old[w] & ~t->comp_bits[j][w]) | (enc[w] & t->comp_bits[j][w]);
    memcpy(texel, old, t->bytes);
}
