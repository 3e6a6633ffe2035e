/* A draw through the wire: a client creates a render target and a vertex buffer, sends
 * TGSI shaders, the state objects (blend, rasterizer, dsa, vertex elements) as virgl
 * lays out their bits, a viewport and the vertex buffer, then draw_vbo; the pixels read
 * back through TRANSFER_GET2 are the ones worked out by hand (the top-left rule's 10
 * pixels of a triangle whose edges run through pixel centres, in the flat colour). */
#define _GNU_SOURCE
#include "helper_client.h"
#include "util/half.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>

#define RGBA8 67
#define R8 64

static const char vs[] = "VERT\nDCL IN[0]\nDCL IN[1]\nDCL OUT[0], POSITION\n"
                         "DCL OUT[1], GENERIC[0]\n  0: MOV OUT[0], IN[0]\n"
                         "  1: MOV OUT[1], IN[1]\n  2: END\n";
static const char fs[] = "FRAG\nDCL IN[0], GENERIC[0], CONSTANT\nDCL OUT[0], COLOR\n"
                         "  0: MOV OUT[0], IN[0]\n  1: END\n";

/* create_object shader HANDLE of TYPE from TEXT into OUT; returns dwords written */
static size_t shader(uint32_t *out, uint32_t handle, uint32_t type, const char *text)
{
    uint32_t len = (uint32_t)strlen(text) + 1, ndw = (len + 3) / 4;
    size_t n = 0;
    out[n++] = VT_CMD(1, 4, 5 + ndw);
    out[n++] = handle, out[n++] = type, out[n++] = len, out[n++] = 0, out[n++] = 0;
    memset(out + n, 0, ndw * 4);
    memcpy(out + n, text, len);
    return n + ndw;
}

/* Resources 1 (a 16x16 RGBA8 target, mapped) and 2 (the vertex buffer) of client C, and into
 * CMDS the stream that uploads a triangle through pixel centres (0.5, 0.5), (4.5, 0.5),
 * (0.5, 4.5) (red, green, blue; window = NDC * 8 + 8), makes surface 10 the framebuffer,
 * clears it, creates and binds the shaders and every state object and the viewport, up to
 * (not including) the draw. Returns the dwords written; *RT is the target's memory. */
static size_t triangle_stream(vt_client *c, uint32_t *cmds, uint8_t **rt)
{
    *rt = vt_create2(c, 1, RGBA8, 16, 16);
    vt_resource_create(c, 2, R8, 96, 1, 1, 96);     /* the vertex buffer */
    int vfd = vt_recv_fd(c);
    assert_true(vfd >= 0);
    close(vfd);
    const float v[3][8] = {
        {0.5f / 8 - 1, 0.5f / 8 - 1, 0, 1, 1, 0, 0, 1},
        {4.5f / 8 - 1, 0.5f / 8 - 1, 0, 1, 0, 1, 0, 1},
        {0.5f / 8 - 1, 4.5f / 8 - 1, 0, 1, 0, 0, 1, 1},
    };
    size_t n = 0;
    cmds[n++] = VT_CMD(9, 0, 11 + 24);             /* resource_inline_write */
    const uint32_t iw[11] = {2, 0, 0, 96, 96, 0, 0, 0, 96, 1, 1};
    memcpy(cmds + n, iw, sizeof iw);
    n += 11;
    memcpy(cmds + n, v, sizeof v);
    n += 24;
    const uint32_t setup[] = {
        VT_CMD(1, 8, 5), 10, 1, RGBA8, 0, 0,        /* surface 10 */
        VT_CMD(5, 0, 3), 1, 0, 10,                  /* framebuffer */
        VT_CMD(7, 0, 8), 0x4, 0, 0, 0, 0, 0, 0, 0,  /* clear colour 0 to zero */
    };
    memcpy(cmds + n, setup, sizeof setup);
    n += sizeof setup / 4;
    n += shader(cmds + n, 20, 0, vs);
    n += shader(cmds + n, 21, 1, fs);
    const uint32_t state_cmds[] = {
        VT_CMD(31, 0, 2), 20, 0, VT_CMD(31, 0, 2), 21, 1,
        /* vertex elements 30: two R32G32B32A32_FLOAT from buffer 0 at 0 and 16 */
        VT_CMD(1, 5, 9), 30, 0, 0, 0, 31, 16, 0, 0, 31, VT_CMD(2, 5, 1), 30,
        /* rasterizer 31: depth clip, front ccw, half-pixel centres */
        VT_CMD(1, 2, 9), 31, (1u << 1) | (1u << 15) | (1u << 29), tv_f32_bits(1), 0, 0, tv_f32_bits(1), 0,
        0, 0, VT_CMD(2, 2, 1), 31,
        /* blend 32: colour mask RGBA on every target */
        VT_CMD(1, 1, 11), 32, 0, 0, 0xfu << 27, 0xfu << 27, 0xfu << 27, 0xfu << 27,
        0xfu << 27, 0xfu << 27, 0xfu << 27, 0xfu << 27, VT_CMD(2, 1, 1), 32,
        VT_CMD(1, 3, 5), 33, 0, 0, 0, 0, VT_CMD(2, 3, 1), 33,    /* dsa 33: all off */
        VT_CMD(4, 0, 7), 0, tv_f32_bits(8), tv_f32_bits(8), tv_f32_bits(0.5f), tv_f32_bits(8), tv_f32_bits(8), tv_f32_bits(0.5f),
        VT_CMD(6, 0, 3), 32, 0, 2,                   /* vertex buffer 0: stride 32 */
    };
    memcpy(cmds + n, state_cmds, sizeof state_cmds);
    return n + sizeof state_cmds / 4;
}

static const uint32_t draw_cmd[] = {VT_CMD(8, 0, 12), 0, 3, 4, 0, 1, 0, 0, 0, 0, 0, 2, 0};

/* Submits the N dwords of CMDS, reads the target RT back and checks it holds the triangle's
 * 10 pixels (x + y <= 3) in the provoking (last) vertex's blue and nothing else; then ends
 * the client, which must have had no context error. */
static void submit_expect_triangle(vt_client *c, const uint32_t *cmds, size_t n, uint8_t *rt)
{
    vt_submit(c, cmds, n);
    vt_transfer_get(c, 1, 16, 16);
    if (vt_busy_wait(c) != 0)
        fail_msg("busy wait failed; server log:\n%s", c->log);
    for (int y = 0; y < 16; y++)
        for (int x = 0; x < 16; x++) {
            uint8_t want[4] = {0, 0, 0, 0};
            if (x + y <= 3)
                want[2] = want[3] = 255;
            assert_memory_equal(rt + (y * 16 + x) * 4, want, 4);
        }
    munmap(rt, 16 * 16 * 4);
    assert_int_equal(vt_finish(c), 0);
    if (strstr(c->log, "context error"))
        fail_msg("%s", c->log);
}

static void test_triangle_over_the_wire(void **state)
{
    (void)state;
    vt_client *c = vt_start(0);
    assert_int_equal(vt_negotiate(c, 2), 2);
    static uint32_t cmds[1024];
    uint8_t *rt;
    size_t n = triangle_stream(c, cmds, &rt);
    memcpy(cmds + n, draw_cmd, sizeof draw_cmd);   /* triangles, 3 vertices */
    n += sizeof draw_cmd / 4;
    submit_expect_triangle(c, cmds, n, rt);
}

/* glDrawElements with indices that do not begin at the buffer's start: Mesa's virgl driver
 * sends set_index_buffer with offset = first index * index size and draw_vbo with that
 * first index as start, and virglrenderer draws from the offset alone (start is not added
 * again). Indices 3..5 of {9, 9, 9, 0, 1, 2, 9, 9, 9} (9: past the three vertices, a
 * robust (0, 0, 0, 1) position) are the triangle; counting start twice read 9, 9, 9 and
 * drew nothing. */
static void test_indexed_draw_from_index_offset(void **state)
{
    (void)state;
    vt_client *c = vt_start(0);
    assert_int_equal(vt_negotiate(c, 2), 2);
    static uint32_t cmds[1024];
    uint8_t *rt;
    size_t n = triangle_stream(c, cmds, &rt);
    vt_resource_create(c, 3, R8, 20, 1, 1, 20);     /* the index buffer */
    int ifd = vt_recv_fd(c);
    assert_true(ifd >= 0);
    close(ifd);
    const uint16_t idx[10] = {9, 9, 9, 0, 1, 2, 9, 9, 9, 9};
    cmds[n++] = VT_CMD(9, 0, 11 + 5);               /* resource_inline_write */
    const uint32_t iw[11] = {3, 0, 0, 20, 20, 0, 0, 0, 20, 1, 1};
    memcpy(cmds + n, iw, sizeof iw);
    n += 11;
    memcpy(cmds + n, idx, sizeof idx);
    n += 5;
    const uint32_t draw[] = {
        VT_CMD(11, 0, 3), 3, 2, 3 * 2,              /* 16-bit indices from index 3 */
        VT_CMD(8, 0, 12), 3, 3, 4, 1, 1, 0, 0, 0, 0, 0, 2, 0,   /* start 3, indexed */
    };
    memcpy(cmds + n, draw, sizeof draw);
    n += sizeof draw / 4;
    submit_expect_triangle(c, cmds, n, rt);
}

/* An occlusion query over the wire: the triangle's 10 pixels counted, the result written
 * where Mesa's driver polls for it (a DONE virgl_host_query_state in the query buffer's
 * shared memory); conditional rendering on it skips or runs a clear. */
static void test_occlusion_query_and_condition(void **state)
{
    (void)state;
    vt_client *c = vt_start(0);
    assert_int_equal(vt_negotiate(c, 2), 2);
    static uint32_t cmds[1024];
    uint8_t *rt;
    size_t n = triangle_stream(c, cmds, &rt);
    uint8_t *qbuf = vt_create2(c, 3, RGBA8, 4, 1);   /* 16 bytes for the query state */
    memset(qbuf, 0, 16);
    const uint32_t rest[] = {
        VT_CMD(1, 9, 4), 40, 0 /* OCCLUSION_COUNTER */, 0, 3,     /* query 40 */
        VT_CMD(19, 0, 1), 40,
        VT_CMD(8, 0, 12), 0, 3, 4, 0, 1, 0, 0, 0, 0, 0, 2, 0,
        VT_CMD(20, 0, 1), 40,
        VT_CMD(21, 0, 2), 40, 0,
        /* inverted condition on a non-zero count: this clear to white is skipped */
        VT_CMD(26, 0, 3), 40, 1, 0,
        VT_CMD(7, 0, 8), 0x4, tv_f32_bits(1), tv_f32_bits(1), tv_f32_bits(1), tv_f32_bits(1), 0, 0, 0,
        /* plain condition: this clear of the green channel runs */
        VT_CMD(26, 0, 3), 40, 0, 0,
        VT_CMD(7, 0, 8), 0x4, 0, tv_f32_bits(1), 0, 0, 0, 0, 0,
        VT_CMD(26, 0, 3), 0, 0, 0,
    };
    memcpy(cmds + n, rest, sizeof rest);
    n += sizeof rest / 4;
    vt_submit(c, cmds, n);
    vt_transfer_get(c, 1, 16, 16);
    if (vt_busy_wait(c) != 0)
        fail_msg("busy wait failed; server log:\n%s", c->log);
    uint32_t st[4];
    memcpy(st, qbuf, 16);
    assert_int_equal(st[0], 1);      /* VIRGL_QUERY_STATE_DONE */
    assert_int_equal(st[2], 10);     /* the top-left rule's 10 pixels */
    assert_int_equal(st[3], 0);
    for (int i = 0; i < 256; i++) {
        const uint8_t want[4] = {0, 255, 0, 0};   /* the second clear only */
        assert_memory_equal(rt + 4 * i, want, 4);
    }
    munmap(rt, 16 * 16 * 4);
    munmap(qbuf, 16);
    assert_int_equal(vt_finish(c), 0);
    if (strstr(c->log, "context error"))
        fail_msg("%s", c->log);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_triangle_over_the_wire),
        cmocka_unit_test(test_occlusion_query_and_condition),
        cmocka_unit_test(test_indexed_draw_from_index_offset),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
