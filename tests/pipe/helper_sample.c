/* pipe_test_sample (helper_sample.h) */
#include "helper_sample.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

static const char cs_text[] = "COMP\n"
                              "PROPERTY CS_FIXED_BLOCK_WIDTH 1\n"
                              "PROPERTY CS_FIXED_BLOCK_HEIGHT 1\n"
                              "PROPERTY CS_FIXED_BLOCK_DEPTH 1\n"
                              "DCL SAMP[0]\n"
                              "DCL SVIEW[0], %s, FLOAT\n"
                              "DCL BUFFER[0]\n"
                              "DCL CONST[0][0]\n"
                              "DCL TEMP[0]\n"
                              "IMM[0] UINT32 {0, 0, 0, 0}\n"
                              "%s TEMP[0], CONST[0][0], SAMP[0], %s\n"
                              "STORE BUFFER[0].xyzw, IMM[0].xxxx, TEMP[0]\n"
                              "END\n";

int pipe_test_sample(tv_pipe_ctx *ctx, const tv_pipe_sampler_view *view,
                     const tv_pipe_sampler_state *samp, const char *tt, const char *op,
                     const uint32_t coord[4], uint32_t out[4])
{
    enum { BUF = PIPE_TEST_SAMPLE_BUFFER };
    static uint32_t cs = 100;    /* a new shader object each time */
    cs++;
    char text[sizeof cs_text + 64];
    snprintf(text, sizeof text, cs_text, tt, op, tt);
    assert_int_equal(tv_pipe_shader_create(ctx, cs, TV_PIPE_STAGE_COMPUTE, text,
                                           strlen(text) + 1), 0);
    assert_int_equal(tv_pipe_bind_shader(ctx, TV_PIPE_STAGE_COMPUTE, cs), 0);
    if (!tv_pipe_resource_data(ctx, BUF)) {
        tv_pipe_resource_desc b = {0 /* BUFFER */, 64 /* R8_UNORM */, 0, 16, 1, 1, 1, 0, 0};
        assert_int_equal(tv_pipe_resource_create(ctx, BUF, &b), 0);
    }
    memset(tv_pipe_resource_data(ctx, BUF), 0, 16);
    tv_pipe_buffer_binding bb = {BUF, 0, 16};
    assert_int_equal(tv_pipe_set_shader_buffers(ctx, TV_PIPE_STAGE_COMPUTE, 0, 1, &bb), 0);
    assert_int_equal(tv_pipe_set_constant_buffer(ctx, TV_PIPE_STAGE_COMPUTE, 0, 0, 0, 0, coord,
                                                 4), 0);
    assert_int_equal(tv_pipe_set_sampler_views(ctx, TV_PIPE_STAGE_COMPUTE, 0, 1, view), 0);
    assert_int_equal(tv_pipe_set_sampler_states(ctx, TV_PIPE_STAGE_COMPUTE, 0, 1, samp), 0);
    const uint32_t one[3] = {1, 1, 1};
    int rc = tv_pipe_launch_grid(ctx, one, one);
    memcpy(out, tv_pipe_resource_data(ctx, BUF), 16);
    return rc;
}
