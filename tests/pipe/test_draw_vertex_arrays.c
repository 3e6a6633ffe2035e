/* Vertex buffers read by the engine itself (pipe_draw.c vertex_arrays_direct: non-indexed
 * draws of one instance whose elements are 32-bit channels in order and lie whole in
 * their buffers; vm_stage_vert.c fetch_block reads 16- and 32-byte strides as one
 * transposing copy) against the words put in the buffers, and against the plain
 * interpreter, which always takes the pipeline's fetched arrays: interleaved vec4s, a
 * three-channel UINT element (integer 1 for w), a stride of 0, an unbound buffer,
 * a buffer too short for the last vertices (the draw falls back to fetching, which
 * gives a partly outside element (0, 0, 0, 1)), a draw that starts inside the buffer,
 * and counts that leave a partial warp. The vertex shader's two outputs are captured
 * by stream output, word for word. */
#include "helper_draw.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { VB1 = 5, SOB = 40, TGT = 45, N = 70, WORDS = 8 };
enum { FMT_RGB32UI = 195, FMT_RG32I = 198 };

typedef struct layout {
    const char *name;
    uint32_t start, count;
    uint32_t col_format, col_stride, col_offset;
    uint32_t col_bytes;     /* the colour buffer's size (0: unbound) */
    bool interleaved;       /* colour in VB (after each position) instead of VB1 */
} layout;

static uint32_t word_at(const uint8_t *b, size_t at)
{
    uint32_t w;
    memcpy(&w, b + at, 4);
    return w;
}

/* The buffers: VB holds 128 vertices of 32 bytes (a position, then 16 bytes of words),
 * VB1 words counting up from 0x40000000. */
static void fill(uint8_t *vb, uint8_t *vb1, size_t vb1_bytes)
{
    for (unsigned i = 0; i < 128; i++) {
        float pos[4] = {(float)i * 0.01f - 0.5f, 0.25f - (float)i * 0.003f, 0.5f, 1.0f};
        memcpy(vb + 32 * i, pos, 16);
        for (unsigned c = 0; c < 4; c++) {
            uint32_t w = 0x3f000000u + i * 16 + c;
            memcpy(vb + 32 * i + 16 + 4 * c, &w, 4);
        }
    }
    for (size_t k = 0; k + 4 <= vb1_bytes; k += 4) {
        uint32_t w = 0x40000000u + (uint32_t)(k / 4);
        memcpy(vb1 + k, &w, 4);
    }
}

/* OUT[0] and OUT[1] of every vertex the draw shades, by stream output. */
static void capture(bool plain, const layout *L, uint32_t *out)
{
    tv_pipe_ctx *ctx = scene(fs_flat, false);
    assert_int_equal(tv_pipe_set_plain(ctx, plain), 0);
    static uint8_t vb[128 * 32], vb1[4096];
    fill(vb, vb1, sizeof vb1);
    upload(ctx, VB, vb, sizeof vb);
    if (L->col_bytes)
        upload(ctx, VB1, vb1, L->col_bytes);
    tv_pipe_vertex_buffer bufs[2] = {{32, 0, VB}, {L->col_stride, 0, L->col_bytes ? VB1 : 0}};
    assert_int_equal(tv_pipe_set_vertex_buffers(ctx, 0, 2, bufs), 0);
    tv_pipe_vertex_element ve[2] = {{0, 0, 0, FMT_RGBA32F},
                                    {L->col_offset, 0, L->interleaved ? 0 : 1, L->col_format}};
    assert_int_equal(tv_pipe_set_vertex_elements(ctx, 2, ve), 0);
    tv_pipe_stream_output_info so;
    memset(&so, 0, sizeof so);
    so.num_outputs = 2;
    so.stride[0] = WORDS;
    so.output[0] = (tv_pipe_stream_output){0, 0, 4, 0, 0, 0};
    so.output[1] = (tv_pipe_stream_output){1, 0, 4, 0, 0, 4};
    assert_int_equal(tv_pipe_shader_set_stream_output(ctx, VS, &so), 0);
    const uint32_t bytes = N * WORDS * 4;
    tv_pipe_resource_desc b = {0, FMT_R8, 16, bytes, 1, 1, 1, 0, 0};   /* (a buffer) */
    assert_int_equal(tv_pipe_resource_create(ctx, SOB, &b), 0);
    const uint32_t dw[3] = {SOB, 0, bytes};
    assert_int_equal(tv_pipe_object_create(ctx, TV_PIPE_OBJ_STREAMOUT_TARGET, TGT, dw, 3), 0);
    tv_pipe_so_target t = {SOB, 0, bytes, TGT};
    assert_int_equal(tv_pipe_set_stream_output_targets(ctx, 1, &t, 0), 0);
    rasterizer_discard(ctx, true);
    tv_pipe_draw_info info;
    memset(&info, 0, sizeof info);
    info.mode = PRIM_POINTS;
    info.start = L->start;
    info.count = L->count;
    info.instance_count = 1;
    if (tv_pipe_draw_vbo(ctx, &info))
        fail_msg("%s: %s", L->name, tv_pipe_error(ctx));
    memcpy(out, tv_pipe_resource_data(ctx, SOB), bytes);
    tv_pipe_destroy(ctx);
}

/* What fetching gives vertex V's colour element: its words where it lies whole in its
 * buffer, (0, 0, 0, 1) otherwise, missing channels from (0, 0, 0, 1) (1 an integer for
 * UINT and SINT). */
static void expected_colour(const layout *L, uint32_t v, uint32_t want[4])
{
    static uint8_t vb[128 * 32], vb1[4096];
    fill(vb, vb1, sizeof vb1);
    unsigned nchan = L->col_format == FMT_RGBA32F ? 4 : L->col_format == FMT_RGB32UI ? 3 : 2;
    bool integer = L->col_format != FMT_RGBA32F;
    const uint32_t one = integer ? 1u : 0x3f800000u;
    want[0] = want[1] = want[2] = 0;
    want[3] = one;
    const uint8_t *b = L->interleaved ? vb : vb1;
    size_t size = L->interleaved ? sizeof vb : L->col_bytes;
    size_t stride = L->interleaved ? 32 : L->col_stride;
    size_t at = L->col_offset + (size_t)v * stride;
    if (!size || at + 4 * nchan > size)
        return;
    for (unsigned c = 0; c < nchan; c++)
        want[c] = word_at(b, at + 4 * c);
}

static void check(const layout *L)
{
    uint32_t *got = calloc(N * WORDS, 4), *ref = calloc(N * WORDS, 4);
    assert_true(got && ref);
    capture(true, L, ref);
    capture(false, L, got);
    static uint8_t vb[128 * 32], vb1[4096];
    fill(vb, vb1, sizeof vb1);
    for (uint32_t k = 0; k < L->count; k++) {
        uint32_t v = L->start + k, want[4];
        for (unsigned c = 0; c < 4; c++)
            if (got[k * WORDS + c] != word_at(vb, 32 * (size_t)v + 4 * c))
                fail_msg("%s: vertex %u: position word %u is %08x, the buffer's %08x", L->name,
                         v, c, got[k * WORDS + c], word_at(vb, 32 * (size_t)v + 4 * c));
        expected_colour(L, v, want);
        for (unsigned c = 0; c < 4; c++)
            if (got[k * WORDS + 4 + c] != want[c])
                fail_msg("%s: vertex %u: colour word %u is %08x, expected %08x", L->name, v, c,
                         got[k * WORDS + 4 + c], want[c]);
    }
    if (memcmp(got, ref, N * WORDS * 4))
        fail_msg("%s: the words differ from the plain interpreter's", L->name);
    free(got);
    free(ref);
}

static void test_interleaved_vec4s(void **state)
{
    (void)state;
    const layout L = {"interleaved", 3, N, FMT_RGBA32F, 32, 16, 0, true};
    check(&L);
}

static void test_three_uint_channels(void **state)
{
    (void)state;
    const layout L = {"RGB32_UINT", 0, 45, FMT_RGB32UI, 12, 4, 4096, false};
    check(&L);
}

static void test_stride_zero_and_unbound(void **state)
{
    (void)state;
    const layout zero = {"stride 0", 7, 33, FMT_RG32I, 0, 8, 4096, false};
    check(&zero);
    const layout unbound = {"unbound", 0, N, FMT_RGBA32F, 16, 0, 0, false};
    check(&unbound);
}

/* the colour buffer ends inside vertex 20's element: fetched, every vertex from 20 on
   (0, 0, 0, 1) */
static void test_buffer_too_short(void **state)
{
    (void)state;
    const layout L = {"too short", 2, 40, FMT_RGBA32F, 16, 0, 20 * 16 + 8, false};
    check(&L);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_interleaved_vec4s),
        cmocka_unit_test(test_three_uint_channels),
        cmocka_unit_test(test_stride_zero_and_unbound),
        cmocka_unit_test(test_buffer_too_short),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
