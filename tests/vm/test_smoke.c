/* Smoke: a compute program writes thread ids, plus the simplest ALU op. */
#include "helper_vm.h"

static void test_thread_ids(void **state)
{
    (void)state;
    const char *text =
        "COMP\n"
        "DCL SV[0], THREAD_ID\n"
        "DCL BUFFER[0]\n"
        "DCL TEMP[0..1]\n"
        "IMM[0] UINT32 {4, 100, 0, 0}\n"
        "  0: UMUL TEMP[0].x, SV[0].xxxx, IMM[0].xxxx\n"
        "  1: UADD TEMP[1].x, SV[0].xxxx, IMM[0].yyyy\n"
        "  2: STORE BUFFER[0].x, TEMP[0].xxxx, TEMP[1].xxxx\n"
        "  3: END\n";
    uint32_t buf[40] = {0};
    uint32_t block[3] = {40, 1, 1};
    tv_error err;
    tv_status st = hv_compute(text, NULL, block, buf, sizeof buf, &err);
    if (st != TV_OK) fail_msg("%s", err.message);
    for (uint32_t i = 0; i < 40; i++)
        assert_int_equal(buf[i], 100 + i);
}

static void test_add(void **state)
{
    (void)state;
    uint32_t a[4] = {tv_f32_bits(1.5f), tv_f32_bits(-2.0f), tv_f32_bits(3.0f), tv_f32_bits(0.25f)};
    uint32_t b[4] = {tv_f32_bits(2.0f), tv_f32_bits(2.0f), tv_f32_bits(-1.0f), tv_f32_bits(0.25f)};
    uint32_t o[4];
    hv_op1("ADD TEMP[3], TEMP[0], TEMP[1]", a, b, NULL, o);
    assert_true(tv_bits_f32(o[0]) == 3.5f);
    assert_true(tv_bits_f32(o[1]) == 0.0f);
    assert_true(tv_bits_f32(o[2]) == 2.0f);
    assert_true(tv_bits_f32(o[3]) == 0.5f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_thread_ids),
        cmocka_unit_test(test_add),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
