/* launch_grid: a COMP shader from the command stream runs on a bound SSBO with inline
 * constants (set_shader_buffers, set_constant_buffer, bind_shader, launch_grid), and the
 * hostile cases: no shader, destroyed resource, range past the resource, indirect grids
 * outside their buffer or from a missing one; hardware atomic counters bound with
 * set_atomic_buffers. */
#include "helper_client.h"
#include "vtest/vtest_internal.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#define H(cmd, obj, len) VT_CMD(cmd, obj, len)

/* the shader's body: BUFFER[0] at 4 x THREAD_ID gets THREAD_ID + CONST[0][0] */
#define CS_BODY                                                                            \
    "DCL SV[0], THREAD_ID\n"                                                               \
    "DCL BUFFER[0]\n"                                                                      \
    "DCL CONST[0][0]\n"                                                                    \
    "DCL TEMP[0]\n"                                                                        \
    "IMM[0] UINT32 {4, 0, 0, 0}\n"                                                         \
    "  0: UMUL TEMP[0].x, SV[0].xxxx, IMM[0].xxxx\n"                                       \
    "  1: UADD TEMP[0].y, SV[0].xxxx, CONST[0][0].xxxx\n"                                  \
    "  2: STORE BUFFER[0].x, TEMP[0].xxxx, TEMP[0].yyyy\n"                                 \
    "  3: END\n"

static const char cs_text[] = "COMP\n" CS_BODY;

/* cs_text with a declared block of 8 threads */
static const char cs_fixed_text[] =
    "COMP\n"
    "PROPERTY CS_FIXED_BLOCK_WIDTH 8\n"
    "PROPERTY CS_FIXED_BLOCK_HEIGHT 1\n"
    "PROPERTY CS_FIXED_BLOCK_DEPTH 1\n"
    CS_BODY;

/* create shader 3 (COMPUTE) from TEXT, bind it; ssbo 0 = resource 1 bytes [0, SSBO_SIZE);
 * CONST[0] = 100 */
static size_t setup_text(uint32_t *buf, uint32_t ssbo_size, const char *text)
{
    size_t n = 0, len = strlen(text) + 1, ndw = (len + 3) / 4;
    buf[n++] = H(1, 4, 5 + ndw);
    buf[n++] = 3, buf[n++] = 5, buf[n++] = (uint32_t)len, buf[n++] = 0, buf[n++] = 0;
    memset(&buf[n], 0, ndw * 4);
    memcpy(&buf[n], text, len);
    n += ndw;
    const uint32_t rest[] = {H(31, 0, 2), 3, 5,
                             H(34, 0, 5), 5, 0, 0, ssbo_size, 1,
                             H(12, 0, 6), 5, 0, 100, 0, 0, 0};
    memcpy(&buf[n], rest, sizeof rest);
    return n + sizeof rest / 4;
}

static size_t setup(uint32_t *buf, uint32_t ssbo_size)
{
    return setup_text(buf, ssbo_size, cs_text);
}

static void with_buffer(vtest_conn *c)
{
    tv_pipe_resource_desc d = {0, 64 /* R8_UNORM */, 0, 64, 1, 1, 1, 0, 0};
    assert_int_equal(tv_pipe_resource_create(c->pipe, 1, &d), 0);
}

/* A new connection with the SSBO's resource (with_buffer) decodes N dwords of BUF; they
 * must succeed (decode_ok) or fail with an error containing REASON (decode_fails, which
 * closes the connection). */
static void decode_ok(vtest_conn *c, const uint32_t *buf, size_t n)
{
    vtest_conn_init(c, NULL);
    with_buffer(c);
    vtest_decode(c, buf, n);
    if (c->failed)
        fail_msg("%s", c->error);
}

static void decode_fails(const uint32_t *buf, size_t n, const char *reason)
{
    vtest_conn c;
    vtest_conn_init(&c, NULL);
    with_buffer(&c);
    vtest_decode(&c, buf, n);
    if (!c.failed || !strstr(c.error, reason))
        fail_msg("error \"%s\", expected \"%s\"", c.error, reason);
    vtest_conn_fini(&c);
}

/* Runs LAUNCH (block, grid) after set-up with TEXT; returns the first 16 dwords of the
 * SSBO's resource in OUT. */
static void run_launch(const char *text, const uint32_t launch[9], uint32_t out[16])
{
    uint32_t buf[256];
    size_t n = setup_text(buf, 64, text);
    memcpy(&buf[n], launch, 9 * 4);
    n += 9;
    vtest_conn c;
    decode_ok(&c, buf, n);
    memcpy(out, tv_pipe_resource_data(c.pipe, 1), 16 * 4);
    vtest_conn_fini(&c);
}

/* A zero block dimension takes the shader's declared size (8 threads store 8 dwords); a
 * grid with a zero dimension runs nothing, as glDispatchCompute(0, ...) does. */
static void test_launch_grid_zero_dimensions(void **state)
{
    (void)state;
    uint32_t out[16];
    const uint32_t declared[] = {H(37, 0, 8), 0, 0, 0, 1, 1, 1, 0, 0};
    run_launch(cs_fixed_text, declared, out);
    for (uint32_t i = 0; i < 16; i++)
        assert_int_equal(out[i], i < 8 ? 100 + i : 0);
    const uint32_t empty[] = {H(37, 0, 8), 8, 1, 1, 4, 0, 1, 0, 0};
    run_launch(cs_text, empty, out);
    for (uint32_t i = 0; i < 16; i++)
        assert_int_equal(out[i], 0);
}

static void test_launch_grid(void **state)
{
    (void)state;
    uint32_t buf[256];
    size_t n = setup(buf, 32);
    const uint32_t launch[] = {H(37, 0, 8), 8, 1, 1, 1, 1, 1, 0, 0};
    memcpy(&buf[n], launch, sizeof launch);
    n += sizeof launch / 4;
    vtest_conn c;
    decode_ok(&c, buf, n);
    const uint32_t *out = (const uint32_t *)tv_pipe_resource_data(c.pipe, 1);
    for (uint32_t i = 0; i < 8; i++)
        assert_int_equal(out[i], 100 + i);  /* thread i stores i + CONST[0][0].x at 4 i */
    for (uint32_t i = 8; i < 16; i++)
        assert_int_equal(out[i], 0);
    vtest_conn_fini(&c);
}

/* set_atomic_buffers: 8 threads increment HWATOMIC[0][1], bound at byte 32 of the SSBO's
 * resource, and store what they read: the counter ends at 8, the values read are 0..7. */
static void test_atomic_buffers(void **state)
{
    (void)state;
    static const char text[] =
        "COMP\n"
        "DCL SV[0], THREAD_ID\n"
        "DCL BUFFER[0]\n"
        "DCL HWATOMIC[0][0..1]\n"
        "DCL TEMP[0]\n"
        "IMM[0] UINT32 {4, 1, 0, 0}\n"
        "  0: ATOMUADD TEMP[0].y, HWATOMIC[0][1], IMM[0].zzzz, IMM[0].yyyy\n"
        "  1: UMUL TEMP[0].x, SV[0].xxxx, IMM[0].xxxx\n"
        "  2: STORE BUFFER[0].x, TEMP[0].xxxx, TEMP[0].yyyy\n"
        "  3: END\n";
    uint32_t buf[256];
    size_t n = setup_text(buf, 32, text);
    const uint32_t tail[] = {H(40, 0, 4), 0, 32, 8, 1,          /* HWATOMIC[0]: bytes 32..40 */
                             H(37, 0, 8), 8, 1, 1, 1, 1, 1, 0, 0};
    memcpy(&buf[n], tail, sizeof tail);
    n += sizeof tail / 4;
    vtest_conn c;
    decode_ok(&c, buf, n);
    const uint32_t *out = (const uint32_t *)tv_pipe_resource_data(c.pipe, 1);
    assert_int_equal(out[8], 0);    /* counter 0 untouched */
    assert_int_equal(out[9], 8);    /* counter 1 */
    uint32_t seen = 0;
    for (uint32_t i = 0; i < 8; i++) {
        assert_true(out[i] < 8);
        seen |= 1u << out[i];
    }
    assert_int_equal(seen, 0xff);
    vtest_conn_fini(&c);
    /* hostile: not in threes, past the slots, a missing resource */
    const uint32_t bad[][5] = {{H(40, 0, 3), 0, 0, 8}, {H(40, 0, 4), 32, 0, 8, 1},
                               {H(40, 0, 4), 0, 0, 8, 9}};
    const char *why[] = {"set_atomic_buffers: 3 dwords are not 1 + 3 per buffer",
                         "set_hw_atomic_buffers: slots 32..32 past the 32 slots",
                         "set_hw_atomic_buffers: no resource 9"};
    for (int k = 0; k < 3; k++)
        decode_fails(bad[k], k == 0 ? 4 : 5, why[k]);
}

static void expect(const uint32_t *tail, size_t tn, uint32_t ssbo_size, const char *reason)
{
    uint32_t buf[256];
    size_t n = setup(buf, ssbo_size);
    memcpy(&buf[n], tail, tn * 4);
    decode_fails(buf, n + tn, reason);
}

static void test_launch_grid_hostile(void **state)
{
    (void)state;
    const uint32_t unbind[] = {H(31, 0, 2), 0, 5, H(37, 0, 8), 1, 1, 1, 1, 1, 1, 0, 0};
    expect(unbind, sizeof unbind / 4, 32, "launch_grid: no compute shader bound");
    const uint32_t destroyed[] = {H(3, 4, 1), 3, H(37, 0, 8), 1, 1, 1, 1, 1, 1, 0, 0};
    expect(destroyed, sizeof destroyed / 4, 32, "(it was destroyed)");
    const uint32_t launch[] = {H(37, 0, 8), 8, 1, 1, 1, 1, 1, 0, 0};
    expect(launch, sizeof launch / 4, 65, "range 0+65 outside resource 1");
    const uint32_t indirect[] = {H(37, 0, 8), 1, 1, 1, 1, 1, 1, 1, 56};   /* 56 + 12 > 64 */
    expect(indirect, sizeof indirect / 4, 32, "3 words at byte 56 outside indirect buffer 1");
    const uint32_t no_buffer[] = {H(37, 0, 8), 1, 1, 1, 1, 1, 1, 7, 0};
    expect(no_buffer, sizeof no_buffer / 4, 32, "no indirect buffer 7");
    const uint32_t huge[] = {H(37, 0, 8), 1024, 1024, 1, 1024, 1, 1, 0, 0};
    expect(huge, sizeof huge / 4, 32, "1073741824 invocations");
    /* 2^24 one-thread blocks are 2^24 warps: each would get 1024 of the 2^34 warp
     * instructions of the launch quota, under the 4096 minimum */
    const uint32_t warps[] = {H(37, 0, 8), 1, 1, 1, 4096, 4096, 1, 0, 0};
    expect(warps, sizeof warps / 4, 32,
           "launch_grid: 16777216 warps exceed the work quota (17179869184");
    /* the same with block 0: the shader's declared size (none: 1) counts, not 0 */
    const uint32_t warps0[] = {H(37, 0, 8), 0, 0, 0, 4096, 4096, 1, 0, 0};
    expect(warps0, sizeof warps0 / 4, 32, "16777216 warps exceed the work quota");
    const uint32_t bad_stage[] = {H(31, 0, 2), 3, 1};
    expect(bad_stage, sizeof bad_stage / 4, 32, "shader 3 has type 5, bound as 1");
    const uint32_t slots[] = {H(34, 0, 5), 5, 32, 0, 4, 1};
    expect(slots, sizeof slots / 4, 32, "set_shader_buffers: slots 32..32");
    const uint32_t gone[] = {H(37, 0, 8), 8, 1, 1, 1, 1, 1, 0, 0};
    /* resource 1 destroyed after binding: caught at the launch */
    uint32_t buf[256];
    size_t n = setup(buf, 32);
    vtest_conn c;
    vtest_conn_init(&c, NULL);
    with_buffer(&c);
    vtest_decode(&c, buf, n);
    assert_false(c.failed);
    assert_int_equal(tv_pipe_resource_destroy(c.pipe, 1), 0);
    vtest_decode(&c, gone, sizeof gone / 4);
    assert_true(c.failed);
    assert_non_null(strstr(c.error, "shader buffer 0: resource 1 was destroyed"));
    vtest_conn_fini(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_launch_grid),
        cmocka_unit_test(test_atomic_buffers),
        cmocka_unit_test(test_launch_grid_hostile),
        cmocka_unit_test(test_launch_grid_zero_dimensions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
