/* TIC/TSC encode/decode: every field set alone to distinctive values must change exactly
 * the bits nvidia-texture.md §1.2 / §2 documents (positions written here by hand from the
 * reference, independently of src/tex/tex_desc.c), and decode must give it back. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>

#include "texvm/tex.h"

enum { BUF = 0, PCK = 1, PITCH = 2, BL = 3, BLCK = 4 };

typedef struct field_case {
    const char *name;
    int version;
    void (*set)(void *, uint64_t);
    uint64_t (*get)(const void *);
    int dw, lo, width;
    bool is_signed;
} field_case;

#define TIC_F(id, member, ver, dw, lo, w, sgn)                                          \
    static void set_tic_##id(void *p, uint64_t v) { ((tv_tic *)p)->member = v; }         \
    static uint64_t get_tic_##id(const void *p) { return (uint64_t)((const tv_tic *)p)->member; }
#define TSC_F(id, member, dw, lo, w, sgn)                                               \
    static void set_tsc_##id(void *p, uint64_t v) { ((tv_tsc *)p)->member = v; }         \
    static uint64_t get_tsc_##id(const void *p) { return (uint64_t)((const tv_tsc *)p)->member; }

/* name, member, header version used, dword, low bit, width, signed */
#define TIC_FIELDS(X)                                                            \
    X(components, components, BL, 0, 0, 7, 0)                                   \
    X(r_type, data_type[0], BL, 0, 7, 3, 0)                                      \
    X(g_type, data_type[1], BL, 0, 10, 3, 0)                                     \
    X(b_type, data_type[2], BL, 0, 13, 3, 0)                                     \
    X(a_type, data_type[3], BL, 0, 16, 3, 0)                                     \
    X(x_src, source[0], BL, 0, 19, 3, 0)                                         \
    X(y_src, source[1], BL, 0, 22, 3, 0)                                         \
    X(z_src, source[2], BL, 0, 25, 3, 0)                                         \
    X(w_src, source[3], BL, 0, 28, 3, 0)                                         \
    X(pack, pack_components, BL, 0, 31, 1, 0)                                    \
    X(comps_buf, components, BUF, 0, 0, 7, 0)                                    \
    X(gob_depth_offset, gob_depth_offset, BL, 1, 5, 2, 0)                        \
    X(coherency, coherency_hash, BL, 2, 25, 4, 0)                                \
    X(gobs_w, gobs_per_block_width, BL, 3, 0, 3, 0)                              \
    X(gobs_h, gobs_per_block_height, BL, 3, 3, 3, 0)                             \
    X(gobs_d, gobs_per_block_depth, BL, 3, 6, 3, 0)                              \
    X(sparse, sparse_enable, BL, 3, 9, 1, 0)                                     \
    X(tile_w, tile_width_in_gobs, BLCK, 3, 10, 3, 0)                             \
    X(gob3d, gob3d, BL, 3, 13, 1, 0)                                             \
    X(array_tile, use_array_tile_alignment, BL, 3, 14, 1, 0)                     \
    X(aq2, lod_aniso_quality2, BL, 3, 16, 1, 0)                                  \
    X(aq, lod_aniso_quality, PITCH, 3, 17, 1, 0)                                 \
    X(iq, lod_iso_quality, BL, 3, 18, 1, 0)                                      \
    X(coarse_mod, aniso_coarse_spread_modifier, BL, 3, 19, 2, 0)                 \
    X(spread_scale, aniso_spread_scale, BL, 3, 21, 5, 0)                         \
    X(hdr_opt, use_header_opt_control, BL, 3, 26, 1, 0)                         \
    X(depth_tex, depth_texture, PITCH, 3, 27, 1, 0)                              \
    X(max_mip, max_mip_level, BL, 3, 28, 4, 0)                                   \
    X(width, width_minus_one, BL, 4, 0, 16, 0)                                   \
    X(spread_max, aniso_spread_max_log2, BL, 4, 19, 3, 0)                        \
    X(srgb, srgb, BL, 4, 22, 1, 0)                                               \
    X(srgb_buf, srgb, BUF, 4, 22, 1, 0)                                          \
    X(type, texture_type, BL, 4, 23, 4, 0)                                       \
    X(type_buf, texture_type, BUF, 4, 23, 4, 0)                                  \
    X(sector, sector_promotion, BL, 4, 27, 2, 0)                                 \
    X(sector_buf, sector_promotion, BUF, 4, 27, 2, 0)                            \
    X(border_size, border_size, BL, 4, 29, 3, 0)                                 \
    X(height, height_minus_one, BL, 5, 0, 16, 0)                                 \
    X(depth, depth_minus_one, PCK, 5, 16, 14, 0)                                 \
    X(normalized, normalized_coords, BL, 5, 31, 1, 0)                            \
    X(color_key_op, color_key_op, PCK, 6, 0, 1, 0)                               \
    X(trilin, trilin_opt, BL, 6, 1, 5, 0)                                        \
    X(lod_bias, mip_lod_bias, BL, 6, 6, 13, 1)                                   \
    X(aniso_bias, aniso_bias, BL, 6, 19, 4, 0)                                   \
    X(fine_func, aniso_fine_spread_func, BL, 6, 23, 2, 0)                        \
    X(coarse_func, aniso_coarse_spread_func, BL, 6, 25, 2, 0)                    \
    X(max_aniso, max_anisotropy, BL, 6, 27, 3, 0)                                \
    X(fine_mod, aniso_fine_spread_modifier, BL, 6, 30, 2, 0)                     \
    X(view_min, res_view_min_mip_level, BL, 7, 0, 4, 0)                         \
    X(view_max, res_view_max_mip_level, PITCH, 7, 4, 4, 0)                      \
    X(msaa, multi_sample_count, BL, 7, 8, 4, 0)                                  \
    X(min_lod_clamp, min_lod_clamp, BL, 7, 12, 12, 0)                            \
    X(color_key, color_key_value, BLCK, 7, 0, 32, 0)

#define TSC_FIELDS(X)                                                            \
    X(address_u, address_u, 0, 0, 3, 0)                                          \
    X(address_v, address_v, 0, 3, 3, 0)                                          \
    X(address_p, address_p, 0, 6, 3, 0)                                          \
    X(depth_compare, depth_compare, 0, 9, 1, 0)                                  \
    X(compare_func, depth_compare_func, 0, 10, 3, 0)                             \
    X(srgb, srgb_conversion, 0, 13, 1, 0)                                        \
    X(font_w, font_filter_width, 0, 14, 3, 0)                                    \
    X(font_h, font_filter_height, 0, 17, 3, 0)                                   \
    X(max_aniso, max_anisotropy, 0, 20, 3, 0)                                    \
    X(mag, mag_filter, 1, 0, 3, 0)                                               \
    X(min_lod_int, min_lod_clamp_integer_only, 1, 3, 1, 0)                      \
    X(min, min_filter, 1, 4, 2, 0)                                               \
    X(mip, mip_filter, 1, 6, 2, 0)                                               \
    X(cube, cubemap_interface_filtering, 1, 8, 2, 0)                             \
    X(reduction, reduction_filter, 1, 10, 2, 0)                                  \
    X(lod_bias, mip_lod_bias, 1, 12, 13, 1)                                      \
    X(unnorm, force_unnormalized_coords, 1, 25, 1, 0)                            \
    X(trilin, trilin_opt, 1, 26, 5, 0)                                           \
    X(min_lod, min_lod_clamp, 2, 0, 12, 0)                                       \
    X(max_lod, max_lod_clamp, 2, 12, 12, 0)                                      \
    X(srgb_r, srgb_border_color[0], 2, 24, 8, 0)                                 \
    X(srgb_g, srgb_border_color[1], 3, 12, 8, 0)                                 \
    X(srgb_b, srgb_border_color[2], 3, 20, 8, 0)                                 \
    X(border_r, border_color[0], 4, 0, 32, 0)                                    \
    X(border_g, border_color[1], 5, 0, 32, 0)                                    \
    X(border_b, border_color[2], 6, 0, 32, 0)                                    \
    X(border_a, border_color[3], 7, 0, 32, 0)

TIC_FIELDS(TIC_F)
TSC_FIELDS(TSC_F)

#define TIC_CASE(id, member, ver, dw, lo, w, sgn) {#id, ver, set_tic_##id, get_tic_##id, dw, lo, w, sgn},
#define TSC_CASE(id, member, dw, lo, w, sgn) {#id, 0, set_tsc_##id, get_tsc_##id, dw, lo, w, sgn},
static const field_case tic_cases[] = {TIC_FIELDS(TIC_CASE)};
static const field_case tsc_cases[] = {TSC_FIELDS(TSC_CASE)};

static uint32_t mask_of(int width) { return width >= 32 ? 0xffffffffu : (1u << width) - 1; }

/* The value a member holds after decoding `raw` bits of a field. */
static uint64_t expect_member(const field_case *fc, uint32_t raw, size_t member_bytes)
{
    uint64_t v = raw;
    if (fc->is_signed && (raw >> (fc->width - 1)) & 1)
        v = (uint64_t)(int64_t)(int32_t)(raw | ~mask_of(fc->width));
    if (member_bytes < 8)
        v &= (1ull << (8 * member_bytes)) - 1;
    return v;
}

static void check_field(const field_case *fc, bool is_tic)
{
    static const uint32_t patterns[] = {0x55555555u, 0xaaaaaaaau, 0xffffffffu, 0x00000001u,
                                        0x12345679u};
    for (size_t p = 0; p < sizeof patterns / sizeof patterns[0]; p++) {
        uint32_t raw = patterns[p] & mask_of(fc->width);
        tv_tic tic;
        tv_tsc tsc;
        uint32_t base[8], words[8];
        memset(&tic, 0, sizeof tic);
        memset(&tsc, 0, sizeof tsc);
        tic.header_version = (uint8_t)fc->version;
        if (is_tic)
            tv_tic_encode(&tic, base);
        else
            tv_tsc_encode(&tsc, base);
        uint64_t member_value = raw;
        if (fc->is_signed && (raw >> (fc->width - 1)) & 1)
            member_value = (uint64_t)(int64_t)(int32_t)(raw | ~mask_of(fc->width));
        fc->set(is_tic ? (void *)&tic : (void *)&tsc, member_value);
        if (is_tic)
            tv_tic_encode(&tic, words);
        else
            tv_tsc_encode(&tsc, words);
        for (int d = 0; d < 8; d++) {
            uint32_t expect = d == fc->dw ? (uint32_t)((uint64_t)raw << fc->lo) : 0;
            if ((words[d] ^ base[d]) != expect)
                fail_msg("%s field %s pattern %08x: dword %d changed %08x, expected %08x",
                         is_tic ? "TIC" : "TSC", fc->name, patterns[p], d, words[d] ^ base[d],
                         expect);
        }
        /* decode gives the value back */
        tv_tic dt;
        tv_tsc ds;
        if (is_tic)
            tv_tic_decode(words, &dt);
        else
            tv_tsc_decode(words, &ds);
        uint64_t got = fc->get(is_tic ? (const void *)&dt : (const void *)&ds);
        uint64_t member_bytes = fc->width <= 8 ? 1 : fc->width <= 16 ? 2 : 4;
        if (fc->width == 1)
            member_bytes = 1;
        uint64_t want = expect_member(fc, raw, (size_t)member_bytes);
        if (fc->is_signed)
            want &= 0xffff, got &= 0xffff;   /* int16 members */
        if (got != want)
            fail_msg("%s field %s: decoded %llx, expected %llx", is_tic ? "TIC" : "TSC",
                     fc->name, (unsigned long long)got, (unsigned long long)want);
        if (is_tic)
            assert_int_equal(dt.header_version, fc->version);
    }
}

static void tic_every_field(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof tic_cases / sizeof tic_cases[0]; i++)
        check_field(&tic_cases[i], true);
}

static void tsc_every_field(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof tsc_cases / sizeof tsc_cases[0]; i++)
        check_field(&tsc_cases[i], false);
}

static void tic_header_version_bits(void **state)
{
    (void)state;
    for (unsigned v = 0; v < 8; v++) {
        tv_tic tic;
        uint32_t w[8];
        memset(&tic, 0, sizeof tic);
        tic.header_version = (uint8_t)v;
        tv_tic_encode(&tic, w);
        assert_int_equal(w[2], v << 21);
        for (int d = 0; d < 8; d++)
            if (d != 2)
                assert_int_equal(w[d], 0);
        tv_tic dt;
        tv_tic_decode(w, &dt);
        assert_int_equal(dt.header_version, v);
    }
}

/* Address encodings per layout: 1D buffer byte exact, pitch 32-byte, block linear 512. */
static void tic_address(void **state)
{
    (void)state;
    struct { int version; uint64_t addr; uint32_t d1, d2; } cases[] = {
        {BUF, 0xabcd12345677ull, 0x12345677u, 0x0000abcdu | (BUF << 21)},
        {PITCH, 0xabcd12345660ull, 0x12345660u, 0x0000abcdu | (PITCH << 21)},
        {PCK, 0x0001ffffffe0ull, 0xffffffe0u, 0x00000001u | (PCK << 21)},
        {BL, 0xabcd12345600ull, 0x12345600u, 0x0000abcdu | (BL << 21)},
        {BLCK, 0xffff00000200ull, 0x00000200u, 0x0000ffffu | (BLCK << 21)},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tv_tic tic;
        uint32_t w[8];
        memset(&tic, 0, sizeof tic);
        tic.header_version = (uint8_t)cases[i].version;
        tic.address = cases[i].addr;
        tv_tic_encode(&tic, w);
        assert_int_equal(w[1], cases[i].d1);
        assert_int_equal(w[2], cases[i].d2);
        tv_tic dt;
        tv_tic_decode(w, &dt);
        assert_true(dt.address == cases[i].addr);
    }
    /* block linear: the GOB depth offset shares d1 with the address */
    tv_tic tic;
    uint32_t w[8];
    memset(&tic, 0, sizeof tic);
    tic.header_version = BL;
    tic.address = 0x200;
    tic.gob_depth_offset = 3;
    tv_tic_encode(&tic, w);
    assert_int_equal(w[1], 0x200u | (3u << 5));
    tv_tic dt;
    tv_tic_decode(w, &dt);
    assert_true(dt.address == 0x200 && dt.gob_depth_offset == 3);
}

static void tic_pitch_and_buffer_width(void **state)
{
    (void)state;
    tv_tic tic;
    uint32_t w[8];
    memset(&tic, 0, sizeof tic);
    tic.header_version = PITCH;
    tic.pitch = 0x1fffe0;          /* 21-bit pitch, 32-byte units: bits 20..5 in d3[15:0] */
    tv_tic_encode(&tic, w);
    assert_int_equal(w[3], 0xffffu);
    tv_tic dt;
    tv_tic_decode(w, &dt);
    assert_int_equal(dt.pitch, 0x1fffe0);

    memset(&tic, 0, sizeof tic);
    tic.header_version = BUF;
    tic.width_minus_one = 0x89abcdefu;   /* high half d3[15:0], low half d4[15:0] */
    tv_tic_encode(&tic, w);
    assert_int_equal(w[3], 0x89abu);
    assert_int_equal(w[4], 0xcdefu);
    tv_tic_decode(w, &dt);
    assert_int_equal(dt.width_minus_one, 0x89abcdefu);
}

/* Fields of other layouts are not encoded in a 1D buffer header (reserved there), and
 * colour-key headers carry COLOR_KEY_VALUE instead of the view/MSAA/min-LOD fields. */
static void tic_version_specific(void **state)
{
    (void)state;
    tv_tic tic;
    uint32_t w[8];
    memset(&tic, 0, sizeof tic);
    tic.header_version = BUF;
    tic.height_minus_one = 0xffff;
    tic.max_mip_level = 15;
    tic.normalized_coords = true;
    tic.res_view_max_mip_level = 15;
    tv_tic_encode(&tic, w);
    assert_int_equal(w[5], 0);
    assert_int_equal(w[7], 0);
    assert_int_equal(w[3], 0);

    memset(&tic, 0, sizeof tic);
    tic.header_version = PCK;
    tic.res_view_max_mip_level = 15;
    tic.color_key_value = 0xdeadbeef;
    tv_tic_encode(&tic, w);
    assert_int_equal(w[7], 0xdeadbeefu);

    memset(&tic, 0, sizeof tic);
    tic.header_version = BL;
    tic.color_key_value = 0xdeadbeef;
    tic.color_key_op = true;
    tv_tic_encode(&tic, w);
    assert_int_equal(w[7], 0);
    assert_int_equal(w[6], 0);
}

/* decode(encode(decode(x))) == decode(x) for arbitrary words. */
static void roundtrip_random(void **state)
{
    (void)state;
    uint32_t seed = 12345;
    for (int it = 0; it < 20000; it++) {
        uint32_t w[8], w2[8], w3[8];
        for (int d = 0; d < 8; d++) {
            seed = seed * 1664525u + 1013904223u;
            w[d] = seed ^ (seed >> 13) * 0x9e3779b9u;
        }
        tv_tic a, b;
        tv_tic_decode(w, &a);
        tv_tic_encode(&a, w2);
        tv_tic_decode(w2, &b);
        tv_tic_encode(&b, w3);
        assert_memory_equal(w2, w3, sizeof w2);
        tv_tsc s, t;
        tv_tsc_decode(w, &s);
        tv_tsc_encode(&s, w2);
        tv_tsc_decode(w2, &t);
        tv_tsc_encode(&t, w3);
        assert_memory_equal(w2, w3, sizeof w2);
        /* every TSC bit is a field except d0[31:23] and d3[11:0] */
        uint32_t keep[8] = {0x007fffffu, 0x7fffffffu, 0xffffffffu, 0x0ffff000u,
                            0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu};
        for (int d = 0; d < 8; d++)
            assert_int_equal(w2[d], w[d] & keep[d]);
    }
}

static void fixed_point(void **state)
{
    (void)state;
    assert_true(tv_fixed_s5_8_to_float(0) == 0.0f);
    assert_true(tv_fixed_s5_8_to_float(256) == 1.0f);
    assert_true(tv_fixed_s5_8_to_float(-1) == -1.0f / 256.0f);
    assert_true(tv_fixed_s5_8_to_float(-4096) == -16.0f);
    assert_true(tv_fixed_s5_8_to_float(4095) == 4095.0f / 256.0f);
    assert_int_equal(tv_float_to_fixed_s5_8(1.5f), 384);
    assert_int_equal(tv_float_to_fixed_s5_8(-2.25f), -576);
    assert_int_equal(tv_float_to_fixed_s5_8(100.0f), 4095);
    assert_int_equal(tv_float_to_fixed_s5_8(-100.0f), -4096);
    assert_int_equal(tv_float_to_fixed_s5_8(NAN), 0);
    assert_true(tv_fixed_u4_8_to_float(0xfff) == 4095.0f / 256.0f);
    assert_true(tv_fixed_u4_8_to_float(0x180) == 1.5f);
    assert_int_equal(tv_float_to_fixed_u4_8(1.5f), 0x180);
    assert_int_equal(tv_float_to_fixed_u4_8(-3.0f), 0);
    assert_int_equal(tv_float_to_fixed_u4_8(16.0f), 0xfff);
    /* rounding to the nearest 1/256 */
    assert_int_equal(tv_float_to_fixed_u4_8(1.0f / 512.0f * 3.0f), 2);  /* 1.5 -> 2 (even) */
    assert_int_equal(tv_float_to_fixed_s5_8(1.0f / 512.0f), 0);           /* 0.5 -> 0 (even) */
    /* every raw value round-trips */
    for (int r = -4096; r < 4096; r++)
        assert_int_equal(tv_float_to_fixed_s5_8(tv_fixed_s5_8_to_float((int16_t)r)), r);
    for (int r = 0; r < 4096; r++)
        assert_int_equal(tv_float_to_fixed_u4_8(tv_fixed_u4_8_to_float((uint16_t)r)), r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(tic_every_field),
        cmocka_unit_test(tsc_every_field),
        cmocka_unit_test(tic_header_version_bits),
        cmocka_unit_test(tic_address),
        cmocka_unit_test(tic_pitch_and_buffer_width),
        cmocka_unit_test(tic_version_specific),
        cmocka_unit_test(roundtrip_random),
        cmocka_unit_test(fixed_point),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
