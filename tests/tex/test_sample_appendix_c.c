/* sampling.md Appendix C sanity vectors for texel decode, seen through the whole unit
 * (fetch and point sampling): SNORM8 -128/-127/64, sRGB8 10/128/255, RGB9E5 0x999320c8,
 * UF11 1.0 and the largest finite UF11/UF10. (LOD, wrap, mip, layer, cube and gather
 * vectors are in test_lod, test_wrap, test_sample_targets, test_cube and test_gather.) */
#include "sample_fixture.h"

/* Put raw bytes in texel x of a 1-row 2D texture `idx`, then fetch and point-sample it. */
static void both_ways(fx *F, unsigned idx, unsigned x, const void *bytes, unsigned n,
                      tv_tex_result *fetch, tv_tex_result *sample)
{
    const tv_tic *t = &F->tic[idx];
    assert_true(tv_memory_write(F->mem, tv_tic_texel_address(t, 0, x, 0, 0, 0), bytes, n));
    tv_tex_request r;
    fx_req(&r, TV_TEX_OP_FETCH, TV_TEXTGT_2D, tv_tex_handle(idx, 0), 1);
    r.icoord[0][0] = (int32_t)x;
    fx_run(F, &r, fetch);
    fx_req(&r, TV_TEX_OP_SAMPLE_LZ, TV_TEXTGT_2D, tv_tex_handle(idx, 0), 1);
    r.coord[0][0] = (x + 0.5f) / (float)(t->width_minus_one + 1);
    r.coord[1][0] = 0.5f;
    fx_run(F, &r, sample);
    for (int c = 0; c < 4; c++)
        assert_int_equal(fetch->v[c][0], sample->v[c][0]);
}

static void test_appendix_c_decode(void **state)
{
    (void)state;
    fx F;
    fx_init(&F);
    static const char *fmts[4] = {"R8_SNORM", "R8G8B8A8_SRGB", "R9G9B9E5_FLOAT",
                                  "R11G11B10_FLOAT"};
    for (unsigned i = 0; i < 4; i++) {
        fx_put_tex(&F, i, tv_format_from_name(fmts[i]), TV_TEX_2D, 4, 1, 1, 1);
    }
    tv_tsc s;
    fx_tsc(&s, TV_MAG_POINT, TV_MIN_POINT, TV_MIP_NONE, TV_WRAP_CLAMP_TO_EDGE);
    fx_put_tsc(&F, 0, &s);
    tv_tex_result a, b;
    /* SNORM8: -128 -> -1.0, -127 -> -1.0, 64 -> 64/127 = 0.50394 */
    static const int8_t sn[3] = {-128, -127, 64};
    static const double sn_want[3] = {-1.0, -1.0, 64.0 / 127.0};
    for (unsigned k = 0; k < 3; k++) {
        both_ways(&F, 0, k, &sn[k], 1, &a, &b);
        double want[4] = {sn_want[k], 0, 0, 1};
        fx_expect_near(&a, 0, want, 1e-7);
        assert_true(fabs(fx_f(a.v[0][0]) - (k == 2 ? 0.50394 : -1.0)) < 1e-5);
    }
    /* sRGB8: 10 -> 0.0030353, 128 -> 0.2158605, 255 -> 1.0; alpha stays linear */
    uint8_t px[4] = {10, 128, 255, 128};
    both_ways(&F, 1, 0, px, 4, &a, &b);
    double srgb[4] = {0.0030353, 0.2158605, 1.0, 128.0 / 255.0};
    fx_expect_near(&a, 0, srgb, 1e-6);
    assert_true(fx_f(a.v[2][0]) == 1.0f);
    /* RGB9E5 0x999320c8 -> (6.25, 12.5, 3.125, 1.0) (D3D11 §19.3.2.1) */
    uint32_t e5 = 0x999320c8u;
    both_ways(&F, 2, 1, &e5, 4, &a, &b);
    double e5_want[4] = {6.25, 12.5, 3.125, 1.0};
    fx_expect_near(&a, 0, e5_want, 0.0);
    /* R11G11B10F: R = UF11 E=15,M=0 (1.0); G = largest finite UF11 E=30,M=63 (65024);
     * B = largest finite UF10 E=30,M=31 (64512) */
    uint32_t f11 = (15u << 6) | ((30u << 6 | 63u) << 11) | ((30u << 5 | 31u) << 22);
    both_ways(&F, 3, 2, &f11, 4, &a, &b);
    double f11_want[4] = {1.0, 65024.0, 64512.0, 1.0};
    fx_expect_near(&a, 0, f11_want, 0.0);
    fx_free(&F);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_appendix_c_decode),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
