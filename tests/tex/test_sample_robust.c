/* Robustness: random header/sampler words, random handles, NaN/Inf/huge coordinates, LODs,
 * gradients and offsets, every op x target. tv_tex_execute must return TV_OK (or TV_ERR_ARG
 * for a malformed request), never write inactive lanes, and give zeros on invalid lanes;
 * run under ASan/UBSan in the sanitizer build. */
#include "sample_fixture.h"
#include "common_rng.h"

static uint32_t rng = 0x2545f491u;
static uint32_t rnd(void)
{
    return tc_rng_next(&rng);
}

static float rnd_float(void)
{
    static const float specials[8] = {NAN, INFINITY, -INFINITY, 1e30f, -1e30f, 0.0f, -0.0f,
                                      1e-40f};
    uint32_t k = rnd() % 16;
    if (k < 8)
        return specials[k];
    return ((float)(rnd() % 20001) - 10000.0f) / 1000.0f;
}

static void test_random_requests(void **state)
{
    (void)state;
    fx F;
    fx_init(&F);
    /* a few real textures plus random descriptor words */
    fx_put_tex(&F, 0, tv_format_from_name("R8G8B8A8_UNORM"), TV_TEX_2D, 16, 16, 1, 5);
    fx_put_tex(&F, 1, tv_format_from_name("R32G32B32A32_FLOAT"), TV_TEX_CUBE_ARRAY, 8, 8, 2, 4);
    fx_put_tex(&F, 2, tv_format_from_name("Z16_UNORM"), TV_TEX_2D_ARRAY, 8, 8, 3, 2);
    fx_put_tex(&F, 3, tv_format_from_name("R32_UINT"), TV_TEX_3D, 4, 4, 4, 3);
    for (unsigned i = 4; i < 12; i++) {
        uint32_t raw[8];
        for (int k = 0; k < 8; k++)
            raw[k] = rnd();
        raw[1] = (uint32_t)(FX_DATA + 0x200000u * (i - 4)) & ~511u; /* mostly mapped */
        raw[2] = (raw[2] & ~0xffffu) | (uint32_t)(FX_DATA >> 32);
        assert_true(tv_memory_write(F.mem, FX_HDR_POOL + 32u * i, raw, 32));
    }
    for (unsigned i = 0; i < 12; i++) {
        uint32_t raw[8];
        for (int k = 0; k < 8; k++)
            raw[k] = rnd();
        assert_true(tv_memory_write(F.mem, FX_SMP_POOL + 32u * i, raw, 32));
    }
    tv_tex_invalidate(F.unit);
    unsigned ok = 0, arg = 0, valid_lanes = 0;
    for (unsigned iter = 0; iter < 3000; iter++) {
        tv_tex_set_precision(F.unit, iter & 1 ? TV_TEX_PRECISION_HARDWARE
                                              : TV_TEX_PRECISION_REFERENCE);
        tv_tex_set_header_binding(F.unit, (iter % 7) == 0);
        tv_tex_request r;
        memset(&r, 0, sizeof r);
        r.op = (uint8_t)(rnd() % (TV_TEX_OP_COUNT + 1));
        r.target = (uint8_t)(rnd() % (TV_TEXTGT_COUNT + 1));
        r.flags = rnd() & 0xff;
        r.active = rnd();
        r.present = rnd();
        r.component = (uint8_t)(rnd() % 5);
        uint32_t uniform = (iter & 2) ? tv_tex_handle(rnd() % 4, rnd() % 12) : 0;
        for (unsigned l = 0; l < 32; l++) {
            uint32_t h = rnd() % 14, s = rnd() % 14;
            r.handle[l] = uniform ? uniform : (rnd() % 64) ? tv_tex_handle(h, s) : rnd();
            for (int a = 0; a < 4; a++) {
                r.coord[a][l] = rnd_float();
                r.icoord[a][l] = (int32_t)(rnd() % 40) - 20;
            }
            r.q[l] = rnd_float();
            r.lod[l] = rnd_float();
            r.lod_i[l] = (int32_t)(rnd() % 20) - 5;
            r.sample[l] = (int32_t)(rnd() % 20) - 2;
            r.ref[l] = rnd_float();
            r.lod_clamp[l] = rnd_float();
            for (int a = 0; a < 3; a++) {
                r.ddx[a][l] = rnd_float();
                r.ddy[a][l] = rnd_float();
                r.offset[a][l] = (int8_t)rnd();
            }
            for (int n = 0; n < 4; n++) {
                r.offset4[n][0][l] = (int8_t)rnd();
                r.offset4[n][1][l] = (int8_t)rnd();
            }
        }
        tv_tex_result res;
        memset(&res, 0xcd, sizeof res);
        tv_error e;
        tv_status st = tv_tex_execute(F.unit, &r, &res, &e);
        assert_true(st == TV_OK || st == TV_ERR_ARG);
        if (st == TV_ERR_ARG) {
            assert_true(e.message[0] != 0);
            arg++;
            continue;
        }
        ok++;
        assert_int_equal(res.invalid & ~r.active, 0);
        for (unsigned l = 0; l < 32; l++) {
            if (!((r.active >> l) & 1u)) {
                assert_int_equal(res.v[0][l], 0xcdcdcdcdu);
            } else if ((res.invalid >> l) & 1u) {
                for (int c = 0; c < 4; c++)
                    assert_int_equal(res.v[c][l], 0);
            } else {
                valid_lanes++;
            }
        }
    }
    assert_true(ok > 600 && arg > 100);
    print_message("%u requests, %u rejected, %u lanes sampled\n", ok, arg, valid_lanes);
    assert_true(valid_lanes > 10000);
    fx_free(&F);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_requests),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
