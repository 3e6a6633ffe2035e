/* Block-compressed formats: blocks built by hand from the BC1-BC7 specifications with
 * the expected texels worked out by hand (comments show the arithmetic), plus BC7
 * vectors decoded by an independent implementation (Pillow 9.4 BcnDecode) for every
 * mode. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "texvm/tex.h"
#include "tex/tex_internal.h"

static uint32_t fbits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static float bitsf(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }

/* Decode texel t of a block, after the format's view swizzle. */
static void texel(tv_format f, const uint8_t *blk, unsigned t, uint32_t out[4])
{
    tv_tic tic;
    tv_tic_from_format(&tic, f, NULL);
    tic.header_version = TV_TIC_PITCH;
    tic.texture_type = TV_TEX_2D;
    tex_view v;
    tex_view_init(&v, &tic);
    assert_true(v.valid);
    uint32_t raw[4];
    tv_format_unpack(f, blk, t % 4, t / 4, raw);
    tex_apply_swizzle(&v, raw, out);
}

static void expect_f(tv_format f, const uint8_t *blk, unsigned t, double r, double g, double b,
                     double a)
{
    uint32_t out[4];
    texel(f, blk, t, out);
    double want[4] = {r, g, b, a};
    for (int c = 0; c < 4; c++)
        if (out[c] != fbits((float)want[c]))
            fail_msg("%s texel %u component %d: got %.9g want %.9g", tv_format_get(f)->name, t,
                     c, bitsf(out[c]), want[c]);
}

/* LSB-first bit writer for building blocks. */
typedef struct bw { uint8_t b[16]; unsigned pos; } bw;
static void put(bw *w, unsigned bits, uint64_t v)
{
    for (unsigned i = 0; i < bits; i++, w->pos++)
        if ((v >> i) & 1)
            w->b[w->pos / 8] |= (uint8_t)(1u << (w->pos % 8));
}

static double srgb(double c) { return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4); }

static void bc1(void **state)
{
    (void)state;
    /* c0 = 0xf800 (red 31/31), c1 = 0x001f (blue): c0 > c1, four colours.
     * indices texel0..3 = 0,1,2,3 -> byte 4 = 0b11100100 */
    uint8_t b[8] = {0x00, 0xf8, 0x1f, 0x00, 0xe4, 0x00, 0x00, 0x00};
    expect_f(TV_FORMAT_BC1_RGBA_UNORM, b, 0, 1, 0, 0, 1);
    expect_f(TV_FORMAT_BC1_RGBA_UNORM, b, 1, 0, 0, 1, 1);
    expect_f(TV_FORMAT_BC1_RGBA_UNORM, b, 2, 2.0 / 3, 0, 1.0 / 3, 1);   /* (2c0 + c1)/3 */
    expect_f(TV_FORMAT_BC1_RGBA_UNORM, b, 3, 1.0 / 3, 0, 2.0 / 3, 1);   /* (c0 + 2c1)/3 */
    expect_f(TV_FORMAT_BC1_RGBA_UNORM, b, 4, 1, 0, 0, 1);
    /* sRGB: colours through the sRGB curve, alpha linear */
    expect_f(TV_FORMAT_BC1_RGBA_SRGB, b, 2, srgb(2.0 / 3), 0, srgb(1.0 / 3), 1);
    /* c0 = blue < c1 = red: three colours + transparent black */
    uint8_t c[8] = {0x1f, 0x00, 0x00, 0xf8, 0xe4, 0x00, 0x00, 0x00};
    expect_f(TV_FORMAT_BC1_RGBA_UNORM, c, 2, 0.5, 0, 0.5, 1);          /* (c0 + c1)/2 */
    expect_f(TV_FORMAT_BC1_RGBA_UNORM, c, 3, 0, 0, 0, 0);
    expect_f(TV_FORMAT_BC1_RGB_UNORM, c, 3, 0, 0, 0, 1);               /* RGB: A = 1 */
    /* 6-bit green: c0 = 0x07e0 (g = 63), c1 = 0x0020 (g = 1): idx 2 -> (2*63 + 1)/(3*63) */
    uint8_t g[8] = {0xe0, 0x07, 0x20, 0x00, 0x02, 0x00, 0x00, 0x00};
    expect_f(TV_FORMAT_BC1_RGBA_UNORM, g, 0, 0, 127.0 / 189.0, 0, 1);
    /* texel (3, 3) = index bits 30-31 */
    uint8_t h[8] = {0x00, 0xf8, 0x1f, 0x00, 0x00, 0x00, 0x00, 0x40};
    expect_f(TV_FORMAT_BC1_RGBA_UNORM, h, 15, 0, 0, 1, 1);
}

static void bc2(void **state)
{
    (void)state;
    /* explicit 4-bit alpha: texel0 = 0xf, texel1 = 0x8, texel 15 = 0x3;
     * colours: c0 = 0 <= c1 = 0xffff but BC2 always uses four colours */
    uint8_t b[16] = {0x8f, 0, 0, 0, 0, 0, 0, 0x30, 0x00, 0x00, 0xff, 0xff, 0xc0, 0, 0, 0};
    expect_f(TV_FORMAT_BC2_UNORM, b, 0, 0, 0, 0, 1);
    expect_f(TV_FORMAT_BC2_UNORM, b, 1, 0, 0, 0, 8.0 / 15);
    expect_f(TV_FORMAT_BC2_UNORM, b, 3, 2.0 / 3, 2.0 / 3, 2.0 / 3, 0);   /* idx 3: (c0+2c1)/3 */
    expect_f(TV_FORMAT_BC2_UNORM, b, 15, 0, 0, 0, 3.0 / 15);
    expect_f(TV_FORMAT_BC2_SRGB, b, 3, srgb(2.0 / 3), srgb(2.0 / 3), srgb(2.0 / 3), 0);
}

static void bc3_and_bc4(void **state)
{
    (void)state;
    /* alpha a0 = 255 > a1 = 0: eight values; texel0 idx 2 -> 6/7, texel1 idx 7 -> 1/7,
     * texel2 idx 6 -> 2/7: bits 010 111 110 = 0x1ba */
    uint8_t b[16] = {255, 0, 0xba, 0x01, 0, 0, 0, 0, 0xff, 0xff, 0, 0, 0, 0, 0, 0};
    expect_f(TV_FORMAT_BC3_UNORM, b, 0, 1, 1, 1, 6.0 / 7);
    expect_f(TV_FORMAT_BC3_UNORM, b, 1, 1, 1, 1, 1.0 / 7);
    expect_f(TV_FORMAT_BC3_UNORM, b, 2, 1, 1, 1, 2.0 / 7);
    expect_f(TV_FORMAT_BC3_UNORM, b, 3, 1, 1, 1, 1);
    expect_f(TV_FORMAT_BC4_UNORM, b, 0, 6.0 / 7, 0, 0, 1);
    /* a0 = 0 <= a1 = 255: six values + 0 and 1; idx 2 -> (4*0 + 1*255)/5/255 = 0.2,
     * idx 7 -> 1, idx 6 -> 0 */
    uint8_t c[8] = {0, 255, 0xba, 0x01, 0, 0, 0, 0};
    expect_f(TV_FORMAT_BC4_UNORM, c, 0, 0.2, 0, 0, 1);
    expect_f(TV_FORMAT_BC4_UNORM, c, 1, 1, 0, 0, 1);
    expect_f(TV_FORMAT_BC4_UNORM, c, 2, 0, 0, 0, 1);
    /* a0 = 200, a1 = 100, idx 3 -> (5*200 + 2*100)/7/255 */
    uint8_t d[8] = {200, 100, 3, 0, 0, 0, 0, 0};
    expect_f(TV_FORMAT_BC4_UNORM, d, 0, 1200.0 / 7 / 255, 0, 0, 1);
    /* SNORM: a0 = 127 > a1 = -128 (read as -127): idx0 = 1, idx1 = -1,
     * idx2 = (6*127 - 127)/7/127 = 5/7 */
    uint8_t s[8] = {0x7f, 0x80, 0x08 | (2 << 6), 0, 0, 0, 0, 0};   /* texels 0,1,2 = 0,1,2 */
    expect_f(TV_FORMAT_BC4_SNORM, s, 0, 1, 0, 0, 1);
    expect_f(TV_FORMAT_BC4_SNORM, s, 1, -1, 0, 0, 1);
    expect_f(TV_FORMAT_BC4_SNORM, s, 2, 5.0 / 7, 0, 0, 1);
    /* SNORM six-value mode: a0 = -127 <= a1 = 127: idx 6 = -1, idx 7 = 1,
     * idx 2 = (4*-127 + 127)/5/127 = -3/5 */
    uint8_t t[8] = {0x81, 0x7f, (0x02 | (6 << 3) | (7 << 6)) & 0xff, 0x01, 0, 0, 0, 0};
    expect_f(TV_FORMAT_BC4_SNORM, t, 0, -0.6, 0, 0, 1);
    expect_f(TV_FORMAT_BC4_SNORM, t, 1, -1, 0, 0, 1);
    expect_f(TV_FORMAT_BC4_SNORM, t, 2, 1, 0, 0, 1);
    /* BC5: R from the first half, G from the second */
    uint8_t r[16] = {200, 100, 3, 0, 0, 0, 0, 0, 0x7f, 0x80, 1, 0, 0, 0, 0, 0};
    expect_f(TV_FORMAT_BC5_UNORM, r, 0, 1200.0 / 7 / 255, 128.0 / 255, 0, 1);
    /* SNORM: 200 is -56 < 100: six-value mode, idx 3 -> (3*-56 + 2*100)/5/127; G idx 1 */
    expect_f(TV_FORMAT_BC5_SNORM, r, 0, (3.0 * -56 + 2 * 100) / 5 / 127, -1, 0, 1);
}

static void bc7_modes_by_hand(void **state)
{
    (void)state;
    /* mode 6: R 0/127, G 127/0, B 0/0, A 127/127 (7 bits), p-bits 1, 1 -> 8-bit endpoints
     * R 1/255, G 255/1, B 1/1, A 255/255. indices (4 bits, texel 0: 3 bits): t1 = 15,
     * t2 = 8 (weight 34): R = (30*1 + 34*255 + 32) >> 6 = 136, G = (30*255+34+32) >> 6 = 120 */
    bw w = {{0}, 0};
    put(&w, 7, 0x40);
    put(&w, 7, 0); put(&w, 7, 127);          /* R */
    put(&w, 7, 127); put(&w, 7, 0);          /* G */
    put(&w, 7, 0); put(&w, 7, 0);            /* B */
    put(&w, 7, 127); put(&w, 7, 127);        /* A */
    put(&w, 1, 1); put(&w, 1, 1);            /* p-bits */
    put(&w, 3, 0); put(&w, 4, 15); put(&w, 4, 8);
    expect_f(TV_FORMAT_BC7_UNORM, w.b, 0, 1 / 255.0, 1, 1 / 255.0, 1);
    expect_f(TV_FORMAT_BC7_UNORM, w.b, 1, 1, 1 / 255.0, 1 / 255.0, 1);
    expect_f(TV_FORMAT_BC7_UNORM, w.b, 2, 136 / 255.0, 120 / 255.0, 1 / 255.0, 1);
    uint32_t out[4];
    texel(TV_FORMAT_BC7_SRGB, w.b, 2, out);
    assert_int_equal(out[0], fbits((float)srgb(136 / 255.0)));
    assert_int_equal(out[3], fbits(1.0f));

    /* mode 1, partition 13 (texels 8-15 in subset 1, its anchor is texel 15):
     * subset 0: (0,0,0) .. (63,0,0), p = 0 -> 8-bit 0 .. 253; subset 1: (0,63,0) ..
     * (0,0,63), p = 1 -> 7-bit (1,127,1) .. (1,1,127) -> 8-bit (2,255,2) .. (2,2,255).
     * texel 0 (anchor, 2 bits) idx 3 = weight 27: R = (27*253 + 32) >> 6 = 107;
     * texel 8 idx 5 = weight 46: G = (18*255 + 46*2 + 32) >> 6 = 73,
     *   B = (18*2 + 46*255 + 32) >> 6 = 184, R = (18*2 + 46*2 + 32) >> 6 = 2;
     * texel 15 (anchor, 2 bits) idx 3: G = (37*255 + 27*2 + 32) >> 6 = 148,
     *   B = (37*2 + 27*255 + 32) >> 6 = 109. */
    bw m = {{0}, 0};
    put(&m, 2, 2);
    put(&m, 6, 13);
    put(&m, 6, 0); put(&m, 6, 63); put(&m, 6, 0); put(&m, 6, 0);     /* R s0e0 s0e1 s1e0 s1e1 */
    put(&m, 6, 0); put(&m, 6, 0); put(&m, 6, 63); put(&m, 6, 0);     /* G */
    put(&m, 6, 0); put(&m, 6, 0); put(&m, 6, 0); put(&m, 6, 63);     /* B */
    put(&m, 1, 0); put(&m, 1, 1);                                    /* shared p-bits */
    put(&m, 2, 3);                                                   /* texel 0 */
    for (int t = 1; t < 8; t++)
        put(&m, 3, 0);
    put(&m, 3, 5);                                                   /* texel 8 */
    for (int t = 9; t < 15; t++)
        put(&m, 3, 0);
    put(&m, 2, 3);                                                   /* texel 15 */
    assert_int_equal(m.pos, 128);
    expect_f(TV_FORMAT_BC7_UNORM, m.b, 0, 107 / 255.0, 0, 0, 1);
    expect_f(TV_FORMAT_BC7_UNORM, m.b, 7, 0, 0, 0, 1);
    expect_f(TV_FORMAT_BC7_UNORM, m.b, 8, 2 / 255.0, 73 / 255.0, 184 / 255.0, 1);
    expect_f(TV_FORMAT_BC7_UNORM, m.b, 9, 2 / 255.0, 1, 2 / 255.0, 1);
    expect_f(TV_FORMAT_BC7_UNORM, m.b, 15, 2 / 255.0, 148 / 255.0, 109 / 255.0, 1);

    /* mode 5, rotation 1 (swap R and A): colour R 127/0 -> 255/0, G 64/64 -> 129,
     * B 0; alpha 0/200. texel 0: colour idx 1 (1 bit) weight 21, alpha idx 1 weight 21:
     * R = (43*255 + 32) >> 6 = 171, A = (21*200 + 32) >> 6 = 66 -> swapped (66,129,0,171) */
    bw r = {{0}, 0};
    put(&r, 6, 0x20);
    put(&r, 2, 1);
    put(&r, 7, 127); put(&r, 7, 0);
    put(&r, 7, 64); put(&r, 7, 64);
    put(&r, 7, 0); put(&r, 7, 0);
    put(&r, 8, 0); put(&r, 8, 200);
    put(&r, 1, 1);                          /* colour indices: texel 0 */
    put(&r, 30, 0);
    put(&r, 1, 1);                          /* alpha indices: texel 0 */
    expect_f(TV_FORMAT_BC7_UNORM, r.b, 0, 66 / 255.0, 129 / 255.0, 0, 171 / 255.0);
    expect_f(TV_FORMAT_BC7_UNORM, r.b, 1, 0, 129 / 255.0, 0, 1);   /* idx 0 both, swapped */

    /* reserved mode: byte 0 = 0 -> all zero */
    uint8_t z[16] = {0, 0xff, 0xff, 0xff};
    expect_f(TV_FORMAT_BC7_UNORM, z, 5, 0, 0, 0, 0);
}

/* BC7 blocks (8 per mode) decoded by Pillow 9.4's independent BC7 decoder. */
static const struct { const char *block, *rgba; } bc7_vectors[] = {
    {"3b7272fd5e9345d45689c00aec72e9ab",
     "107321ff8798abffc39889ffbcaf97ff107321ff53a680ffd94f5effca807bff238634ff9494b5ffc39889ffc39889ff94f7a5ff5fa28affd94f5effc39889ff"},
    {"9e8c639949e0fe1eed1db113e3551adb",
     "32267aff73d651ff3a06d3ff7ee043ff58b978ff3519a0ff7ee043ff3a06d3ff6acc5eff380fbaff7ee043ff390bc6ff32267aff73d651ff3519a0ff73d651ff"},
    {"bcfeeee900d6a493564995441ba1aade",
     "f46668fff46668ffff6352fff46668ffef9452ff807e4dffe9687effe9687eff399410ff269f2effb9894fffe9687eff13aa4dff00b56bffb9894fffde6b94ff"},
    {"384f8020d0cfd26a96cd08599c259386",
     "4464cbff802cccff277fcbff802cccff6347ccff405a10ff4464cbff6347ccff406f2cff405a10ff406f2cff6347ccff6347ccff406f2cff277fcbff6347ccff"},
    {"108b8ba946dec6b07f188c732b027041",
     "883e3fd95a1052e0b96e2bbd883e3fe05a1052b6b96e2bbd883e3fd9e79c18e0e79c18d9e79c18e7e79c18e75a1052e75a1052b6e79c18d95a1052e75a1052d9"},
    {"20a8906216602dcff37abe108964e28f",
     "501402cb474b3ce6426658cb4b2f1ee64b2f1ecb426658d8426658e6501402d8426658e6426658cb4b2f1ee64b2f1ef3501402f3474b3cf3501402cb474b3ce6"},
    {"c0514e30fc18fd2c1f8dd5950801f978",
     "5b4163b0490c43f26d7582705e4a68a5552f58c76d758270552f58c761526d9b5e4a68a546043efc490c43f246043efc61526d9b73878d595e4a68a55b4163b0"},
    {"80e143a544d3022bb21ecde7a47f621f",
     "6b70526f7d8e653c6b70526f45342cd72808aa9a2808aa9a2808aa9a286992e36b70526f7d8e653c45342cd757523fa42808aa9a2808aa9a286992e3286992e3"},
    {"a7a97fd1676c66715796ada3a08c5bad",
     "c1cdaeff983791ffa43463ffb53121ff6c6492ffd6e7b5ff9d367bffa9334dff574b8bffd6e7b5ffff6bbdfffa64bdffacb4a7fff65dbdfff65dbdffe747bdff"},
    {"8a9a810d9cce0de2d25f49e694d5ee82",
     "549471ff2f369dff3cb855ff5462dfff0c0c5cff3cb855ff4854caff3cb855ff31c948ff4854caff48a564ff0c0c5cff181a72ff31c948ff6070f5ff3cb855ff"},
    {"b46f26ad49b4a97dafe8e7d5eb6503dc",
     "c37562ff53b0ceff6bb5f7ffc37562ffc37562ff21a57bff6bb5f7ffc8ab9dffc37562ff21a57bff21a57bffbd4229ff877b6eff947b7bff877b6eff787b5fff"},
    {"487d5b84a37a28235314eb48444d6d28",
     "9ebb22ffbfd529ff0864d6ff34859bff9ebb22ff5a8614ffbfd529ff34859bff9ebb22ff5a8614ff7ba01bff9ebb22ffbfd529ff7ba01bff7ba01bffbfd529ff"},
    {"f08e9771912a1676fec512561862edaa",
     "8327a0ac9424959a7329aabda422aa89c61d8a65732995bdd71a8a537329aabd94248a9ab61f8a76c61d8a65d71a8a53d71a9553c61daa659424959ac61da065"},
    {"a0be339d21a4de1b9a4b76a9906e8aae",
     "7cf785e9cff7a9187cd285e9cfaba91897ab91a4978691a4b4ab9d5d7cd285e9cfaba918b4ab9d5dcff7a918b4ab9d5d7cab85e9978691a497ab91a497ab91a4"},
    {"c0c9600a0233e95924e12a6d7fbe5cc8",
     "2298bae02298bae024a0bee508469bb51161a5c42298bae00b4e9eba197db0d2064098b21776adcf08469bb50f5ba3c00d55a0bd1c85b3d61570abcb0d55a0bd"},
    {"80adcb0fd3fba76a784010540fa347af",
     "91ad5c5a91ad5c5a7dffc70cafbe543d95df8f247dffc70c91ad5c5acbba6900c79e1c557dffc70cafb3622cafb3622ccbba690091ad5c5a95df8f2495df8f24"},
    {"df8407209ddd11ca17ed942da890e8ed",
     "58b31fff45cc37ff5de0c5ffb8d2e7ff01da80ff6b9c08ff3cd843ffa2d5dfff00e784ff02cd7dff58b31fff45cc37ff07996fff03c179ff03c179ff29ef5aff"},
    {"7e4f31487f0ee3b28cca53ea34d9dbc4",
     "3effcbff21eecbff0ec3a3ff39dac0ff42dfc5ff38fccbff21eecbff16c8a9ff16c8a9ff2df5cbff16e7cbff39dac0ff39dac0ff16c8a9ff38fccbff1ceacbff"},
    {"ecdddc743fc4e69462baaaa23709df45",
     "73429cff7b10f7ffde948cffbe69afffb89c70ffde948cffde948cff7b10f7ff9c6373ffbe69afff7b10f7ffbe69afffcb9c8fffde948cff9b3bd4ffde948cff"},
    {"68a0fd4079634a6d372405033ea387f9",
     "de481dfffca624ffde481dffc4ca0cffde481dffd01a1affa1b90bffe5db0dfffca624ff80a80aff80a80affe5db0dff80a80affe5db0dffe5db0dffa1b90bff"},
    {"307b67806511717a5902bf44338f697e",
     "29cec6de4544a4de220094de22cec6de308ab6de3e0094de300094de1b44a4de45cec6de1b0094de3e44a4de30cec6de3e8ab6de30cec6de45cec6de2944a4de"},
    {"e072c688b36a74c20b839f28a3ec4549",
     "e546b856a2419d42e546d5565b3dd52ea2419d42e546f056e546d5561838f01a1838b81a1838b81ae5469d56a241b842e546b856a241d542a2419d425b3db82e"},
    {"c0b5ef645659c6d553292ccb10cf5392",
     "d15753c5b97848bea29a3db6ca614fc38fb335b1ca614fc395ac38b28fb335b1d74f55c7d15753c57dcd2dab8fb335b1c5694dc1b97848beca614fc3a29a3db6"},
    {"80595f212e6c725edae0c4c9f99bd148",
     "ef5dcfc75dc75d4d5dc75d4d5dc75d4d3566a0a65dc75d4def5dcfc75dc75d4d0c34d7e7ef5dcfc7bf80aa9f5dc75d4d0c34d7e761996761ef5dcfc7bf80aa9f"},
    {"1ffecdfc7efb0f9ae3857b2353f2b4c2",
     "68ab5aff68ab5affc1cb81ffffbdceff7cebe0ff68ab5aff45983cffeac2b4ff7cebe0ffd68740ff68ab5aff45983cff9fc4a1ffc49a5fff6bffffffd4e4b8ff"},
    {"aac773cf79a15b5f3582ec7602afc324",
     "2a8d6bff38315affdbd58bffd6ac88ff3c1454ff2f6c65ffdde98dff1ce57cff3c1454ffd28184ff38315aff21c876ffd49586ffdbd58bff21c876ff21c876ff"},
    {"acbe7e24e53a3d11b8d1934f7d8ea950",
     "f2a77effd69ca5fff2a77eff7bf739ffd69ca5fff2a77effffad6bff2121ceff4a1039ffa38a87ffa38a87ff3f679dff4a1039ff4a1039ff754c5fff5db16aff"},
    {"c8a195ab831346bba4ebba1abc4ead33",
     "bc88daff9460eaffbc88daff3e5571ff9460eaff3e5571ff26416dff26416dff566874ff0e2e6aff26416dffa874e2ff0e2e6affd09cd2ff9460eaffd09cd2ff"},
    {"1061a991f6000475726b6ba1a308d74f",
     "233f7b0a08524a0308524a033f2bad0c3f2bad093f2bad005a18de0c08524a03233f7b0c3f2bad0a5a18de053f2bad07233f7b03233f7b005a18de073f2bad09"},
    {"e078f72d1dd6a1aa2e4d7c602d4cacfc",
     "ea8fa8a9ea8faaa9ea8fa9a9e4b2a88ee4b2a88eea8faaa9e4b2a88ef16ea9c3e4b2a88eddd3aa74ddd3a974f16ea9c3f16ea8c3f16eaac3ddd3aa74e4b2aa8e"},
    {"4066e499a97024b4c99dc32c25b62601",
     "7a822f373b49365b3442375f535f334d81892e333b49365b3b49365b88902d2f727c303b88902d2f69733141425035576973314188902d2f92982c29999f2b25"},
    {"80036cd97edb88ddaf16962eaa2ce763",
     "82fbb2287ae3bf3b7ae3bf3bc4528a6f71cace4e7ae3bf3bc4528a6fbd3b9d9869b2db6182fbb228b624aebeb624aebe7ae3bf3bcb697949b624aebecb697949"},
    {"ff75a01856d4c9ae04ea8edb8a5e45b1",
     "f3216dffd07174ff215d42ff215d42ffbe614effe83b70fff3216dff294c4aff8ba92bff8ba92bffc48a77ffe83b70ff9d9037ff7bc11fff9d9037ffc48a77ff"},
    {"e61fa49d89fa2ce4f755176cd0eac120",
     "763990ff713c78ff6a3e7eff655e8aff655e8aff7e2693ff793a73ff80376dff538684ff4a9881ff80376dff6a3e7eff98305cff7e2693ff5b7387ff6a3e7eff"},
    {"c4c713bca721fd3aca5bb5d1ca4df5dc",
     "3841e1ff10f752ffe75adeff3841e1ff7b94b5ff10f752ffa08eb0ff5b6bcbff804a52ff804a52ff4a525affb9414aff804a52ff4a525aff804a52ffb9414aff"},
    {"38cc8884f8d6171ee5c70e810a6bb997",
     "66b6f2ff71a3e4ff66b6f2ff9b6f0dff71a3e4ff71a3e4ffe34705ff9b6f0dff66b6f2ff897dc7ff509a14ffe34705ff897dc7ff9b6f0dff08c21cff509a14ff"},
    {"5066878622cf0522b310c7bae4304504",
     "6abc5a2831f3420831bc4208319642086abc5a2831e142086ae15a28a571744b6af35a28a583744b6aa85a286ace5a2831a84208a5f3744b31e14208a5f3744b"},
    {"e0708494a8d989ddb14a3e0dac8d5bb8",
     "e1a56234559277609c9c704a9c9c704a9c9c694a9c9c774a55926260e1a5703410897776108970769c9c694a55926960559262609c9c704ae1a57734e1a57034"},
    {"40f9b74eadee95a261ba5725a3f7725f",
     "e5ebab95d6d0ca75cbbfde5fc9bbe35ad3cccf70d9d5c47bd9d5c47be0e2b68adddeba85cbbfde5fd3cccf70bfa9f745e0e2b68ad3cccf70bfa9f745d9d5c47b"},
    {"80466ccbc4903eb5965fb28ff3749cdf",
     "8a8aa2ba7735af556d0cb6245087c6aa7735af557735af5534ffe73c5d4db6df7735af5534ffe73c5d4db6df34ffe73c34ffe73c34ffe73c41c5d7715087c6aa"},
    {"a7bb002728053fb4bd685c73abfbe21a",
     "de2d57ff6fa750ff64b84fff6fa750ffde2d57ffde2d57ff4edc4cff44ee4bffde3c83ffde4aadff1741e2ff5294d6ffde4aadff3b74dbff2f63ddff5294d6ff"},
    {"0259ebb2bb03305ca93e6d5133fe23d8",
     "88a382ffac5392ffb70e8affb41c6aff7dbc7cff88a382ffb2294bffb900a9ffb73a97ffb73a97ffb1303cffb900a9ff71d677ff66ef72ffb6147bffb6147bff"},
    {"cc12f45fb50698e99d4aa9bbb3047637",
     "4a6ba5ff840094fffc41c0ff52efefff5d489fff4a6ba5fff76394ff63ef9cfffa53aafffc41c0ff6bef73ff63ef9cff6bef73ff63ef9cff5aefc6ff52efefff"},
    {"3827551e3179fece9da8be44c3fd61b8",
     "93c94fff93c94fff69dc8bff54e6a8ff69dc8bffc57313ff54e6a8ff54e6a8ff3ddf7dff3ddf7dff989636ff7ed36cff93c94fff989636ff54e6a8ff69dc8bff"},
    {"f0b4cf412f7cd71212f158fb9649c196",
     "a59ccca5c464d6afda3dd6b6da3dccb6ef18ccbdda3dd6b6da3dc3b6d050c3b3af89cca8af89d6a8da3dc3b6a59cd6a5d050c3b3da3dd6b6da3ddfb6d050ccb3"},
    {"20e7f129312724619e4e05f855f2e949",
     "cc3a9e49c7120863cf4ee763cc3a9e63c712087ecc3a9e49ca265198ca265198ca265163cf4ee77ecf4ee77ecf4ee798cf4ee763c712087ec7120849c7120863"},
    {"c02bcfc4b39887613bb3ea4a02af07d4",
     "9d5b619aa3554d92a3554d92876da2b38a6a98af7c76c3bf8a6a98afa0585796a752438fae4c2c867979cdc38a6a98af956177a3ae4c2c86a05857968073b6ba"},
    {"80dda088085f08a5942c6d2fde6b7e07",
     "455aa281a2f3a2d375a9a2aba2f3a2d3372779b6372779b6242424be4128a2b2372779b6242424be242424be372779b6a2f3a2d3455aa2811810a2591810a259"},
    {"639f9348ffd26876f60eed56dd6a131f",
     "beb144fff7f7b5ffeeeba2ffba7f58ffc8bc56ffe4e090ffb4846cffb4846cff435f74ff485179ffa89096ffc07945ff435f74ff494e7aff4a4a7bffc67331ff"},
    {"bec464cdd08a395ba9fc157d2a5bd26a",
     "1a5174ff1a5174ff23617aff4eaf97ff2b707fff795564ff685a46ff1a5174ff2b707fff894f82ff685a46ff1a5174ff3d908bff3d908bff23617aff2b707fff"},
    {"6c5a157165130bc3f022979db18e9c44",
     "6b31bdff8c63ceffa89a47ffa89a47ffad8c42ff102973ff5ac673ff80b05dff976e6aff8c63ceff5ac673ff80b05dff976e6aff102973ffa89a47ff5ac673ff"},
    {"386271bd5f2c821397f0e3e13feab46e",
     "9c4e81ff7123f1ff7c8db2ff7b71c7ff9c4e81ff9c4e81ff7fc587ff7c8db2ff7b71c7ff7c8db2ff7123f1ff8638bbff7ea99cff7fc587ff8638bbff9c4e81ff"},
    {"90d31018f633c9ef7c70ed6533597451",
     "7e3d443c4f68a2423184de477e3d444d4076c04d4076c0425e5a844d8d2f26428d2f26476f4b624d8d2f264d7e3d443c3184de3c7e3d44475e5a844d7e3d4447"},
    {"60a8a73b97cab5afddfdd21e34903f89",
     "edba5d6ac272729f6b956885ed72729fed956885ed72729fc272729f96ba5d6a6bba5d6a6b9568856b956885edba5d6ac272729f9672729feddd525096dd5250"},
    {"4071173f3f844d8d5bff4f1edd887aee",
     "c2ee4a3dc2ee4a3dbbe7c31bbbe7c31bbbe7c31bc2ee3f40bce8b81ec4f01a4abce8aa22bce8aa22c0ec6f32c0ec6f32beea882bc0ec6336bce8b81ebce8b81e"},
    {"80be3dab6a42c5e2cf214f03d3e965e1",
     "b2d35941605bb6b95da67da63820e3f38a98867b605bb6b99344783f3820e3f378767a7378767a739344783f8a98867b78767a735da67da69344783f3820e3f3"},
    {"efd5545fb0a8b17462b96aeb627d4af5",
     "f23665ffd94f7aff835028ff95491cffd94f7afff23665ff9d4516ff7b532dffccb8c1fff784c6ff8d4c21ff7b532dffc2c5c0ffe29dc3ff9d4516ff835028ff"},
    {"8edf1a0d9bf0e623fba27e1ecae0f4cb",
     "91429cffad08b1ff26d6afff0ee7a3ff7c6c8dff8a5097ff3ec5bbff2ed0b3ff46bfbfff26d6afff91429cff8a5097ff0ee7a3ff0ee7a3ff8a5097ffa616acff"},
    {"eced3366b01d2066e259466910e8dbdd",
     "b5de7bff314871ff1863a5ff1863a5ff31b08fff4a2b3cff631008ff631008ff8e4ea2ff314871ff631008ff314871ff319a79ff631008ff4a2b3cff314871ff"},
    {"48bd3b7bfcbeeac6b618a325f556e2ab",
     "a8dd44ff70c32efff5ce61fff0b096ff70c32effa8dd44ffa8dd44fff5ce61ff70c32effdef65aff70c32eff3aaa18ff3aaa18ff70c32eff70c32eff70c32eff"},
    {"b06467f2abf62dbe354052b05236f911",
     "70b6f33c709de85670b6f33c69ceff217d85dc717d52c4a9706ad08e7d9de8567639b9c37639b9c3706ad08e696ad08e6921adde6985dc71766ad08e69ceff21"},
    {"e0aa89afffbe5c87570b8f1173c0ccc4",
     "45a6daa535d1d76835d1e16835d1da6845a6d7a545a6d7a5547cd7df35d1e16826fbd72e45a6e1a5547cd7df26fbe12e547cd7df35d1da68547cd7df35d1e168"},
    {"c0d92a6bbf527170c050c2afefe14c17",
     "66b2ae7059e0a9c966b2ae7061c5ac9564baad8059e0a9c956eca8e05bd9aabb56eca8e057e8a8d965b6ae7757e8a8d959e0a9c962c1ac8e5fcdaba565b6ae77"},
    {"800b811e916584a59f9aefcf811d419d",
     "2424b6342424b6342424b634865da6ff664aabbc865da6ff2424b634664aabbc2424b6342424b634664aabbc7d1cc177664aabbc4110a238f734fff7bb28e0b8"},
};

static void hex(const char *s, uint8_t *out, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned v;
        sscanf(s + 2 * i, "%2x", &v);
        out[i] = (uint8_t)v;
    }
}

static void bc7_independent_vectors(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof bc7_vectors / sizeof bc7_vectors[0]; i++) {
        uint8_t blk[16], px[64];
        hex(bc7_vectors[i].block, blk, 16);
        hex(bc7_vectors[i].rgba, px, 64);
        for (unsigned t = 0; t < 16; t++)
            expect_f(TV_FORMAT_BC7_UNORM, blk, t, px[4 * t] / 255.0, px[4 * t + 1] / 255.0,
                     px[4 * t + 2] / 255.0, px[4 * t + 3] / 255.0);
    }
}

/* half bits -> float, by hand */
static double half(unsigned h)
{
    unsigned e = (h >> 10) & 31, m = h & 1023;
    double v = e ? ldexp(1.0 + m / 1024.0, (int)e - 15) : ldexp((double)m, -24);
    return (h & 0x8000) ? -v : v;
}

static void bc6h_by_hand(void **state)
{
    (void)state;
    /* mode 11 (0x03): one region, 10-bit endpoints, not transformed.
     * e0 = (0,0,0), e1 = (1023, 512, 1). Unsigned unquantise: 0 -> 0, 1023 (max) -> 0xffff,
     * 512 -> 64*512 + 32 = 32800, 1 -> 96. idx 15 (weight 64) -> e1; finish (v*31) >> 6:
     * 0xffff -> 0x7bff (65504), 32800 -> 15887 = 0x3e0f, 96 -> 46 = 0x002e (denormal).
     * idx 8 (weight 34): R = (34*65535 + 32) >> 6 = 34815 -> *31 >> 6 = 16863 = 0x41df. */
    bw w = {{0}, 0};
    put(&w, 5, 0x03);
    put(&w, 10, 0); put(&w, 10, 0); put(&w, 10, 0);
    put(&w, 10, 1023); put(&w, 10, 512); put(&w, 10, 1);
    put(&w, 3, 0);                         /* texel 0 (anchor) */
    put(&w, 4, 15);                        /* texel 1 */
    put(&w, 4, 8);                         /* texel 2 */
    expect_f(TV_FORMAT_BC6H_UFLOAT, w.b, 0, 0, 0, 0, 1);
    expect_f(TV_FORMAT_BC6H_UFLOAT, w.b, 1, half(0x7bff), half(0x3e0f), half(0x002e), 1);
    expect_f(TV_FORMAT_BC6H_UFLOAT, w.b, 2, half(0x41df), half(15887 * 0 + ((34 * 32800 + 32) >> 6) * 31 / 64),
             half(((34 * 96 + 32) >> 6) * 31 / 64), 1);
    /* signed: 512 is -512 (10-bit), |v| >= 511 -> -0x7fff -> -(0x7fff*31 >> 5) = -0x7bff;
     * 1023 = -1 -> -(((1 << 15) + 0x4000) >> 9) = -96 -> -(96*31 >> 5) = -93 */
    expect_f(TV_FORMAT_BC6H_SFLOAT, w.b, 1, half(0x8000 | 93), half(0xfbff), half((((1u << 15) + 0x4000) >> 9) * 31 >> 5), 1);

    /* mode 14 (0x0f): 16-bit base + 4-bit deltas; base bits 15..10 come reversed.
     * r0 = 0x3c00: bits [9:0] = 0, stream then carries bits 15,14,13,12,11,10 =
     * 0,0,1,1,1,1. r1 = r0 + (-1) = 0x3bff. finish: 0x3c00*31 >> 6 = 7440 = 0x1d10,
     * 0x3bff*31 >> 6 = 7439 = 0x1d0f. */
    bw f = {{0}, 0};
    put(&f, 5, 0x0f);
    put(&f, 10, 0); put(&f, 10, 0); put(&f, 10, 0);        /* r0, g0, b0 [9:0] */
    put(&f, 4, 0xf);                                        /* r1 delta = -1 */
    put(&f, 1, 0); put(&f, 1, 0); put(&f, 1, 1); put(&f, 1, 1); put(&f, 1, 1); put(&f, 1, 1);
    put(&f, 4, 0); put(&f, 6, 0);                           /* g1 delta, g0[15:10] */
    put(&f, 4, 0); put(&f, 6, 0);                           /* b1 delta, b0[15:10] */
    assert_int_equal(f.pos, 65);
    put(&f, 3, 0);
    put(&f, 4, 15);
    expect_f(TV_FORMAT_BC6H_UFLOAT, f.b, 0, half(0x1d10), 0, 0, 1);
    expect_f(TV_FORMAT_BC6H_UFLOAT, f.b, 1, half(0x1d0f), 0, 0, 1);

    /* mode 1 (0x00): two regions, 10-bit base, 5-bit deltas, partition 13 (texels 8-15
     * in region 1, anchor texel 15). r0 = g0 = b0 = 100; r1 = 100 + 5; r2 = 100 - 3,
     * g2 = 100 + 1 (g2[4] at bit 2 = 0, g2[3:0] at bits 41-44 = 1); r3 = 100 + 2.
     * unquantise 10-bit: 64v + 32 -> 100: 6432, 105: 6752, 97: 6240, 101: 6496, 102: 6560.
     * texel 0 (anchor, 2 bits) idx 3 weight 27: R = (37*6432 + 27*6752 + 32) >> 6 = 6567
     *   -> 6567*31 >> 6 = 3180 = 0x0c6c; G = B = 6432 -> 3115 = 0x0c2b.
     * texel 15 (anchor, 2 bits) idx 2 weight 18: R = (46*6240 + 18*6560 + 32) >> 6 = 6330
     *   -> 3066 = 0x0bfa; G = (46*6496 + 18*6432 + 32) >> 6 = 6478 -> 3137 = 0x0c41. */
    bw t = {{0}, 0};
    put(&t, 2, 0);
    put(&t, 3, 0);                          /* g2[4], b2[4], b3[4] */
    put(&t, 10, 100); put(&t, 10, 100); put(&t, 10, 100);
    put(&t, 5, 5);                          /* r1 (delta) */
    put(&t, 1, 0);                          /* g3[4] */
    put(&t, 4, 1);                          /* g2[3:0] */
    put(&t, 5, 0);                          /* g1 */
    put(&t, 1, 0);                          /* b3[0] */
    put(&t, 4, 0);                          /* g3[3:0] */
    put(&t, 5, 0);                          /* b1 */
    put(&t, 1, 0);                          /* b3[1] */
    put(&t, 4, 0);                          /* b2[3:0] */
    put(&t, 5, 0x1d);                       /* r2 = -3 */
    put(&t, 1, 0);                          /* b3[2] */
    put(&t, 5, 2);                          /* r3 */
    put(&t, 1, 0);                          /* b3[3] */
    put(&t, 5, 13);                         /* partition */
    assert_int_equal(t.pos, 82);
    put(&t, 2, 3);                          /* texel 0 */
    put(&t, 42, 0);                         /* texels 1-14 */
    put(&t, 2, 2);                          /* texel 15 */
    assert_int_equal(t.pos, 128);
    expect_f(TV_FORMAT_BC6H_UFLOAT, t.b, 0, half(0x0c6c), half(0x0c2b), half(0x0c2b), 1);
    expect_f(TV_FORMAT_BC6H_UFLOAT, t.b, 15, half(0x0bfa), half(0x0c41), half(0x0c2b), 1);
    /* texel 8: region 1, idx 0 -> e2 = (97, 101, 100) -> 6240*31>>6 = 3022 = 0x0bce */
    expect_f(TV_FORMAT_BC6H_UFLOAT, t.b, 8, half(0x0bce), half(6496 * 31 >> 6), half(0x0c2b), 1);

    /* reserved modes (0x13, 0x17, 0x1b, 0x1f) decode to zero */
    uint8_t z[16] = {0x13, 0xff, 0xff};
    expect_f(TV_FORMAT_BC6H_UFLOAT, z, 0, 0, 0, 0, 1);
}

/* A BC1 texture in memory: tex_load_texel picks the block from (x/4, y/4) and the texel
 * inside it from (x%4, y%4). 8x8 texels = 2x2 blocks, pitch 16 bytes. Block (bx, by) has
 * c0 = red, c1 = blue and only texel (1, 2) (index bits 18-19) set to index 1 (blue). */
static void bc1_texture(void **state)
{
    (void)state;
    uint8_t mem[32];
    for (int b = 0; b < 4; b++) {
        uint8_t *p = mem + 8 * b;
        uint8_t blk[8] = {0x00, 0xf8, 0x1f, 0x00, 0x00, 0x00, 0x04, 0x00};
        memcpy(p, blk, 8);
    }
    tv_memory *m = tv_memory_create();
    tv_memory_map(m, 0x4000, mem, sizeof mem, NULL);
    tv_tex_unit *u = tv_tex_create(m);
    tv_tic tic;
    tv_tic_from_format(&tic, TV_FORMAT_BC1_RGBA_UNORM, NULL);
    tic.header_version = TV_TIC_PITCH;
    tic.texture_type = TV_TEX_2D;
    tic.address = 0x4000;
    tic.pitch = 16;
    tic.width_minus_one = 7;
    tic.height_minus_one = 7;
    tex_view v;
    tex_view_init(&v, &tic);
    assert_true(v.valid);
    for (unsigned y = 0; y < 8; y++)
        for (unsigned x = 0; x < 8; x++) {
            uint32_t out[4];
            tex_load_texel(u, &v, 0, x, y, 0, 0, 0, false, out);
            bool blue = (x % 4) == 1 && (y % 4) == 2;
            assert_int_equal(out[0], fbits(blue ? 0.0f : 1.0f));
            assert_int_equal(out[2], fbits(blue ? 1.0f : 0.0f));
        }
    tv_tex_destroy(u);
    tv_memory_destroy(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bc1),
        cmocka_unit_test(bc2),
        cmocka_unit_test(bc3_and_bc4),
        cmocka_unit_test(bc7_modes_by_hand),
        cmocka_unit_test(bc7_independent_vectors),
        cmocka_unit_test(bc6h_by_hand),
        cmocka_unit_test(bc1_texture),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
