/* Depth and stencil of the output merger (src/pipe/pipe_om_zs.c): depth quantization
 * worked by hand, every compare function, write masks, every stencil op on the values
 * where they saturate or wrap, the order fail / zfail / zpass, value and write masks,
 * two-sided stencil, and the packed Z24S8 and Z32F_S8X24 layouts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "pipe/pipe_om.h"

#include <stdint.h>
#include <string.h>

static om_zs_target zs(const char *name)
{
    om_zs_target t;
    if (!om_zs_target_init(&t, tv_format_from_name(name)))
        fail_msg("%s is not a depth/stencil target", name);
    return t;
}

static void test_quantize(void **state)
{
    (void)state;
    om_zs_target z16 = zs("Z16_UNORM"), z24 = zs("Z24X8_UNORM"), z32 = zs("Z32_FLOAT");
    assert_true(z16.depth_bits == 16 && z16.stencil_bits == 0);
    assert_int_equal(om_depth_quantize(&z16, 0.0f), 0);
    assert_int_equal(om_depth_quantize(&z16, 1.0f), 65535);
    assert_int_equal(om_depth_quantize(&z16, 0.5f), 32768);   /* 32767.5, to even */
    assert_int_equal(om_depth_quantize(&z16, 0.25f), 16384);  /* 16383.75 */
    assert_int_equal(om_depth_quantize(&z24, 1.0f), 0xffffff);
    assert_int_equal(om_depth_quantize(&z24, 0.5f), 0x800000); /* 8388607.5, to even */
    assert_int_equal(om_depth_quantize(&z32, 0.3f), 0x3e99999a);
    om_zs_target ds = zs("Z24_UNORM_S8_UINT");
    assert_true(ds.depth_bits == 24 && ds.stencil_bits == 8);
    assert_int_equal(ds.depth_mask & ds.stencil_mask, 0);
    om_zs_target d32s8 = zs("Z32_FLOAT_S8X24_UINT");
    assert_true(d32s8.depth_float && d32s8.depth_bits == 32 && d32s8.stencil_bits == 8);
    om_zs_target no;
    assert_false(om_zs_target_init(&no, tv_format_from_name("R8G8B8A8_UNORM")));
}

/* UNORM depth quantised by its formula (om_zs_target.unorm_direct) against the format
 * encoder on every depth format: random bit patterns (NaNs, infinities, denormals,
 * negatives) and values in [0, 1], ties of the 16-bit grid included. */
static void test_quantize_formula_equals_encoder(void **state)
{
    (void)state;
    static const char *const names[] = {"Z16_UNORM", "Z24_UNORM_S8_UINT", "S8_UINT_Z24_UNORM",
                                        "Z24X8_UNORM"};
    uint32_t seed = 0x7f4a7c15u;
    for (unsigned i = 0; i < sizeof names / sizeof *names; i++) {
        om_zs_target t = zs(names[i]);
        assert_true(t.unorm_direct);
        om_zs_target encoder = t;
        encoder.unorm_direct = false;
        for (unsigned k = 0; k < 200000; k++) {
            seed = seed * 1664525u + 1013904223u;
            float z;
            if (k % 3 == 0) {
                uint32_t bits = seed;
                memcpy(&z, &bits, 4);
            } else if (k % 3 == 1) {
                z = (float)(seed >> 8) / 16777216.0f;
            } else {
                z = ((float)(seed % 65536u) + 0.5f) / 65535.0f;   /* near the ties */
            }
            uint32_t a = om_depth_quantize(&t, z), b = om_depth_quantize(&encoder, z);
            if (a != b)
                fail_msg("%s: z = %a: formula %u, encoder %u", names[i], (double)z, a, b);
        }
    }
}

static void test_depth_functions_and_writemask(void **state)
{
    (void)state;
    om_zs_target t = zs("Z16_UNORM");
    /* fragment 100 against stored 200, 100, 50: pass per function */
    static const bool want[8][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0},
                                    {0, 0, 1}, {1, 0, 1}, {0, 1, 1}, {1, 1, 1}};
    const uint16_t stored[3] = {200, 100, 50};
    for (uint8_t f = 0; f < 8; f++)
        for (unsigned k = 0; k < 3; k++) {
            om_dsa s;
            memset(&s, 0, sizeof s);
            s.depth_enabled = true;
            s.depth_writemask = true;
            s.depth_func = f;
            uint16_t px = stored[k];
            bool pass = om_depth_stencil(&s, &t, true, 0, 100, &px);
            assert_int_equal(pass, want[f][k]);
            assert_int_equal(px, pass ? 100 : stored[k]);
            s.depth_writemask = false;
            px = stored[k];
            om_depth_stencil(&s, &t, true, 0, 100, &px);
            assert_int_equal(px, stored[k]);
        }
    /* depth test off: everything passes and nothing is written */
    om_dsa off;
    memset(&off, 0, sizeof off);
    off.depth_writemask = true;
    uint16_t px = 7;
    assert_true(om_depth_stencil(&off, &t, true, 0, 100, &px));
    assert_int_equal(px, 7);
    /* Z32F compares floats: -0 equals +0 */
    om_zs_target f = zs("Z32_FLOAT");
    om_dsa eq;
    memset(&eq, 0, sizeof eq);
    eq.depth_enabled = true;
    eq.depth_func = OM_FUNC_EQUAL;
    uint32_t zf = 0x80000000u;   /* -0.0 stored */
    assert_true(om_depth_stencil(&eq, &f, true, 0, 0, &zf));
}

/* The compare functions against C's operators, NaNs and signed zeros included. */
static void test_compare_functions(void **state)
{
    (void)state;
    const float v[] = {-1.0f, -0.0f, 0.0f, 0.5f, 1.0f, __builtin_nanf(""), __builtin_inff()};
    const uint32_t u[] = {0, 1, 2, 0x7fffffffu, 0x80000000u, 0xffffffffu};
    for (unsigned i = 0; i < 7; i++)
        for (unsigned j = 0; j < 7; j++) {
            float a = v[i], b = v[j];
            const bool want[8] = {false, a < b, a == b, a <= b, a > b, a != b, a >= b, true};
            for (uint8_t f = 0; f < 8; f++)
                assert_int_equal(om_compare_f(f, a, b), want[f]);
        }
    for (unsigned i = 0; i < 6; i++)
        for (unsigned j = 0; j < 6; j++) {
            uint32_t a = u[i], b = u[j];
            const bool want[8] = {false, a < b, a == b, a <= b, a > b, a != b, a >= b, true};
            for (uint8_t f = 0; f < 8; f++)
                assert_int_equal(om_compare_u(f, a, b), want[f]);
        }
}

/* om_depth_test32 (the early tests' fixed-size path) against om_depth_stencil on every
 * 4-byte depth format with no stencil test: every function, write mask on and off,
 * random stored texels (the stencil byte must survive) and fragment depths (float bit
 * patterns with NaNs and both zeros on Z32F, values with bits past a UNORM field). */
static void test_depth_test32_equals_general(void **state)
{
    (void)state;
    static const char *const names[] = {"Z32_FLOAT", "Z24_UNORM_S8_UINT", "S8_UINT_Z24_UNORM",
                                        "Z24X8_UNORM", "X8Z24_UNORM"};
    uint32_t seed = 0x2545f491u;
    unsigned checked = 0;
    for (unsigned i = 0; i < sizeof names / sizeof *names; i++) {
        om_zs_target t;
        if (!om_zs_target_init(&t, tv_format_from_name(names[i])))
            continue;   /* not a depth format of the table */
        assert_int_equal(t.bytes, 4);
        for (unsigned k = 0; k < 20000; k++) {
            seed = seed * 1664525u + 1013904223u;
            uint32_t texel = seed;
            seed = seed * 1664525u + 1013904223u;
            uint32_t zfrag = t.depth_float ? seed : (seed >> 8) & (uint32_t)(t.depth_mask >> t.depth_shift);
            if (t.depth_float && k % 7 == 0)
                zfrag = k % 2 ? 0x80000000u : 0x7fc00000u;   /* -0, NaN */
            if (k % 5 == 0)   /* equal depths */
                zfrag = (uint32_t)((texel & t.depth_mask) >> t.depth_shift);
            if (k % 11 == 0)  /* bits past the field: neither may write them */
                zfrag = seed;
            om_dsa s;
            memset(&s, 0, sizeof s);
            s.depth_enabled = true;
            s.depth_func = (uint8_t)(k % 8);
            s.depth_writemask = (k / 8) % 2;
            uint32_t a = texel, b = texel;
            bool pa = om_depth_test32(&s, &t, zfrag, &a);
            bool pb = om_depth_stencil(&s, &t, (k / 16) % 2, (uint8_t)k, zfrag, &b);
            if (pa != pb || a != b)
                fail_msg("%s: func %u mask %u, texel %08x z %08x: %u %08x against %u %08x",
                         names[i], s.depth_func, s.depth_writemask, texel, zfrag, pa, a, pb, b);
            checked++;
        }
    }
    assert_true(checked >= 3 * 20000);
}

static void test_stencil_ops(void **state)
{
    (void)state;
    /* op(stored) with ref 7 for stored 0, 1, 255 */
    static const uint8_t want[8][3] = {
        {0, 1, 255},        /* KEEP */
        {0, 0, 0},          /* ZERO */
        {7, 7, 7},          /* REPLACE */
        {1, 2, 255},        /* INCR (saturates) */
        {0, 0, 254},        /* DECR (saturates) */
        {1, 2, 0},          /* INCR_WRAP */
        {255, 0, 254},      /* DECR_WRAP */
        {255, 254, 0},      /* INVERT */
    };
    const uint8_t stored[3] = {0, 1, 255};
    for (uint8_t op = 0; op < 8; op++)
        for (unsigned k = 0; k < 3; k++)
            assert_int_equal(om_stencil_op(op, stored[k], 7), want[op][k]);
}

/* Z24S8 texel with depth D and stencil S, through the target's masks. */
static uint32_t ds_texel(const om_zs_target *t, uint32_t d, uint8_t s)
{
    return (uint32_t)(((uint64_t)d << t->depth_shift) | ((uint64_t)s << t->stencil_shift));
}

static void test_stencil_test_order_and_masks(void **state)
{
    (void)state;
    om_zs_target t = zs("Z24_UNORM_S8_UINT");
    om_dsa s;
    memset(&s, 0, sizeof s);
    s.depth_enabled = true;
    s.depth_writemask = true;
    s.depth_func = OM_FUNC_LESS;
    s.stencil[0] = (om_stencil){true, OM_FUNC_EQUAL, OM_STENCIL_INVERT, OM_STENCIL_INCR,
                                OM_STENCIL_ZERO, 0xff, 0xff};
    /* stencil fails (ref 3 != 5): fail op INVERT, depth untouched even though it would pass */
    uint32_t px = ds_texel(&t, 1000, 5);
    assert_false(om_depth_stencil(&s, &t, true, 3, 10, &px));
    assert_int_equal(px, ds_texel(&t, 1000, (uint8_t)~5));
    /* stencil passes, depth fails (20 < 10 is false): zfail op ZERO */
    px = ds_texel(&t, 10, 3);
    assert_false(om_depth_stencil(&s, &t, true, 3, 20, &px));
    assert_int_equal(px, ds_texel(&t, 10, 0));
    /* both pass: zpass op INCR, depth written */
    px = ds_texel(&t, 1000, 3);
    assert_true(om_depth_stencil(&s, &t, true, 3, 20, &px));
    assert_int_equal(px, ds_texel(&t, 20, 4));
    /* value mask: only the low nibble is compared (0x13 & 0x0f == 0x23 & 0x0f) */
    s.stencil[0].valuemask = 0x0f;
    s.stencil[0].zpass_op = OM_STENCIL_REPLACE;
    s.stencil[0].writemask = 0xf0;   /* only the high nibble of REPLACE's 0x13 lands */
    px = ds_texel(&t, 1000, 0x23);
    assert_true(om_depth_stencil(&s, &t, true, 0x13, 20, &px));
    assert_int_equal(px, ds_texel(&t, 20, 0x13));
    px = ds_texel(&t, 1000, 0x2b);
    s.stencil[0].zpass_op = OM_STENCIL_ZERO;
    s.stencil[0].func = OM_FUNC_ALWAYS;
    assert_true(om_depth_stencil(&s, &t, true, 0, 20, &px));
    assert_int_equal(px, ds_texel(&t, 20, 0x0b));   /* ZERO in the high nibble only */
}

static void test_two_sided(void **state)
{
    (void)state;
    om_zs_target t = zs("Z24_UNORM_S8_UINT");
    om_dsa s;
    memset(&s, 0, sizeof s);
    s.stencil[0] = (om_stencil){true, OM_FUNC_ALWAYS, OM_STENCIL_KEEP, OM_STENCIL_INCR,
                                OM_STENCIL_KEEP, 0xff, 0xff};
    uint32_t px = ds_texel(&t, 0, 10);
    /* back face without its own state uses the front state */
    om_depth_stencil(&s, &t, false, 0, 0, &px);
    assert_int_equal(px, ds_texel(&t, 0, 11));
    s.stencil[1] = (om_stencil){true, OM_FUNC_ALWAYS, OM_STENCIL_KEEP, OM_STENCIL_DECR,
                                OM_STENCIL_KEEP, 0xff, 0xff};
    om_depth_stencil(&s, &t, false, 0, 0, &px);
    assert_int_equal(px, ds_texel(&t, 0, 10));
    om_depth_stencil(&s, &t, true, 0, 0, &px);
    assert_int_equal(px, ds_texel(&t, 0, 11));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_quantize),
        cmocka_unit_test(test_quantize_formula_equals_encoder),
        cmocka_unit_test(test_depth_functions_and_writemask),
        cmocka_unit_test(test_compare_functions),
        cmocka_unit_test(test_depth_test32_equals_general),
        cmocka_unit_test(test_stencil_ops),
        cmocka_unit_test(test_stencil_test_order_and_masks),
        cmocka_unit_test(test_two_sided),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
