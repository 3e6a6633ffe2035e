/* The per-draw arrays a context keeps for its next draws (pipe_scratch.c): which blocks
 * are kept (at least PIPE_SCRATCH_MIN bytes, at most PIPE_SCRATCH_SLOTS blocks and
 * PIPE_SCRATCH_KEEP bytes, the smallest dropped first, within the memory quota), that a
 * request takes the smallest kept block that holds it, and that a kept block's old bytes
 * never reach a picture: a draw whose vertex shader leaves an output unwritten, made
 * after a draw that wrote that output into the same block, gives the bytes of the same
 * draw in a fresh context. */
#include "helper_draw.h"

#include "pipe/pipe_internal.h"

#include <stdlib.h>
#include <string.h>

enum { MIB = 1 << 20 };

static void test_kept_blocks(void **state)
{
    (void)state;
    tv_pipe_ctx *ctx = scene(fs_smooth, false);
    assert_non_null(ctx);
    /* a block is kept, and a smaller request takes it */
    uint8_t *a = pipe_scratch_get(ctx, MIB);
    assert_non_null(a);
    memset(a, 0x5a, MIB);
    pipe_scratch_put(ctx, a);
    assert_int_equal(ctx->nscratch, 1);
    assert_int_equal(ctx->scratch_bytes, MIB);
    uint8_t *b = pipe_scratch_get(ctx, 600 << 10);
    assert_ptr_equal(a, b);
    assert_int_equal(ctx->nscratch, 0);
    assert_int_equal(ctx->scratch_bytes, 0);
    /* the smallest kept block that holds a request */
    uint8_t *c = pipe_scratch_get(ctx, 3 * MIB);
    uint8_t *e = pipe_scratch_get(ctx, 2 * MIB);
    assert_true(c && e);
    pipe_scratch_put(ctx, c);
    pipe_scratch_put(ctx, b);
    pipe_scratch_put(ctx, e);
    pipe_scratch_put(ctx, NULL);
    assert_int_equal(ctx->nscratch, 3);
    assert_int_equal(ctx->scratch_bytes, 6 * MIB);
    assert_ptr_equal(pipe_scratch_get(ctx, MIB + 1), e);
    assert_ptr_equal(pipe_scratch_get(ctx, MIB), b);
    assert_int_equal(ctx->nscratch, 1);
    /* small blocks neither take kept ones nor are kept */
    void *s = pipe_scratch_get(ctx, 1000);
    assert_non_null(s);
    assert_int_equal(ctx->nscratch, 1);
    pipe_scratch_put(ctx, s);
    assert_int_equal(ctx->nscratch, 1);
    pipe_scratch_put(ctx, b);
    pipe_scratch_put(ctx, e);
    /* nor are blocks past the whole budget */
    void *big = pipe_scratch_get(ctx, PIPE_SCRATCH_KEEP + 1);
    assert_non_null(big);
    pipe_scratch_put(ctx, big);
    assert_int_equal(ctx->nscratch, 3);
    assert_int_equal(ctx->scratch_bytes, 6 * MIB);
    /* 40 blocks of 3 MiB (c among them) back: the budget holds 21, the 1 and 2 MiB blocks
       are dropped first */
    enum { MANY = 40 };
    void *m[MANY];
    for (int k = 0; k < MANY; k++) {
        m[k] = pipe_scratch_get(ctx, 3 * MIB);
        assert_non_null(m[k]);
    }
    assert_ptr_equal(m[0], c);
    for (int k = 0; k < MANY; k++)
        pipe_scratch_put(ctx, m[k]);
    assert_true(ctx->nscratch <= PIPE_SCRATCH_SLOTS);
    assert_int_equal(ctx->nscratch, PIPE_SCRATCH_KEEP / (3 * MIB));
    assert_int_equal(ctx->scratch_bytes, ctx->nscratch * 3 * MIB);
    for (unsigned k = 0; k < ctx->nscratch; k++)
        assert_int_equal(ctx->scratch[k]->cap, 3 * MIB);
    pipe_scratch_release(ctx);
    assert_int_equal(ctx->nscratch, 0);
    assert_int_equal(ctx->scratch_bytes, 0);
    tv_pipe_destroy(ctx);
}

/* Kept blocks stay within what the memory quota leaves beside the charged bytes, and a
 * charge that leaves less drops them. */
static void test_kept_within_quota(void **state)
{
    (void)state;
    tv_pipe_ctx *ctx = scene(fs_smooth, false);
    ctx->max_memory = ctx->used + 3 * MIB;
    void *a = pipe_scratch_get(ctx, 2 * MIB), *b = pipe_scratch_get(ctx, 2 * MIB);
    void *c = pipe_scratch_get(ctx, 4 * MIB);
    assert_true(a && b && c);
    pipe_scratch_put(ctx, c);          /* more than the quota leaves: freed */
    assert_int_equal(ctx->nscratch, 0);
    pipe_scratch_put(ctx, a);
    pipe_scratch_put(ctx, b);          /* 4 MiB would not fit: one of them kept */
    assert_int_equal(ctx->nscratch, 1);
    assert_int_equal(ctx->scratch_bytes, 2 * MIB);
    assert_int_equal(pipe_charge(ctx, MIB / 2, "test", 0), 0);   /* 2.5 of 3 MiB: kept */
    assert_int_equal(ctx->nscratch, 1);
    assert_int_equal(pipe_charge(ctx, MIB, "test", 0), 0);       /* 1.5 MiB left: dropped */
    assert_int_equal(ctx->nscratch, 0);
    assert_int_equal(ctx->scratch_bytes, 0);
    tv_pipe_destroy(ctx);
}

/* OUT[2] (GENERIC[1]) written by the first shader, declared and left unwritten by the
 * second; the fragment shader adds 0.5 to it */
static const char vs_writes[] =
    "VERT\nDCL IN[0]\nDCL IN[1]\nDCL OUT[0], POSITION\nDCL OUT[1], GENERIC[0]\n"
    "DCL OUT[2], GENERIC[1]\nIMM[0] FLT32 {0.25, 0.125, 0.375, 0.5}\n"
    "MOV OUT[0], IN[0]\nMOV OUT[1], IN[1]\nMOV OUT[2], IMM[0]\nEND\n";
static const char vs_leaves[] =
    "VERT\nDCL IN[0]\nDCL IN[1]\nDCL OUT[0], POSITION\nDCL OUT[1], GENERIC[0]\n"
    "DCL OUT[2], GENERIC[1]\nMOV OUT[0], IN[0]\nMOV OUT[1], IN[1]\nEND\n";
static const char fs_second[] =
    "FRAG\nDCL IN[0], GENERIC[1], PERSPECTIVE\nDCL OUT[0], COLOR\n"
    "IMM[0] FLT32 {0.5, 0.5, 0.5, 0.5}\nADD OUT[0], IN[0], IMM[0]\nEND\n";

enum { NV = 30000, VS_WRITES = 30, VS_LEAVES = 31 };

/* Two triangles over the target, then degenerate ones (culled, but their vertices are
 * shaded): NV vertices, so each output array is 480,000 bytes, a kept block. */
static void big_draw(tv_pipe_ctx *ctx, uint32_t vs)
{
    assert_int_equal(tv_pipe_bind_shader(ctx, TV_PIPE_STAGE_VERTEX, vs), 0);
    assert_int_equal(draw(ctx, PRIM_TRIANGLES, NV), 0);
}

static tv_pipe_ctx *second_scene(void)
{
    tv_pipe_ctx *ctx = scene(fs_second, false);
    assert_int_equal(tv_pipe_shader_create(ctx, VS_WRITES, TV_PIPE_STAGE_VERTEX, vs_writes,
                                           sizeof vs_writes), 0);
    assert_int_equal(tv_pipe_shader_create(ctx, VS_LEAVES, TV_PIPE_STAGE_VERTEX, vs_leaves,
                                           sizeof vs_leaves), 0);
    vert *v = calloc(NV, sizeof *v);
    assert_non_null(v);
    const float x0 = nx(0), x1 = nx(W), y0 = ny(0), y1 = ny(H);
    const float corner[6][2] = {{x0, y0}, {x1, y0}, {x0, y1}, {x1, y0}, {x1, y1}, {x0, y1}};
    for (int k = 0; k < 6; k++)
        v[k] = (vert){{corner[k][0], corner[k][1], 0, 1}, {1, 1, 1, 1}};
    vertices(ctx, v, NV);
    free(v);
    return ctx;
}

static void test_no_stale_outputs(void **state)
{
    (void)state;
    /* reference: the second draw alone */
    tv_pipe_ctx *fresh = second_scene();
    big_draw(fresh, VS_LEAVES);
    /* the first draw fills the kept blocks with OUT[2] = (0.25, 0.125, 0.375, 0.5) */
    tv_pipe_ctx *ctx = second_scene();
    big_draw(ctx, VS_WRITES);
    assert_true(ctx->nscratch >= 3);   /* two fetched elements, three outputs */
    const uint8_t *p = pixel(ctx, 5, 7);
    assert_int_equal(p[0], 191);       /* 0.75 */
    assert_int_equal(p[1], 159);       /* 0.625 */
    big_draw(ctx, VS_LEAVES);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            const uint8_t *got = pixel(ctx, x, y), *want = pixel(fresh, x, y);
            assert_memory_equal(got, want, 4);
            assert_int_equal(got[0], 128);   /* 0 + 0.5: the unwritten output is 0 */
            assert_int_equal(got[3], 128);
        }
    tv_pipe_destroy(ctx);
    tv_pipe_destroy(fresh);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kept_blocks),
        cmocka_unit_test(test_kept_within_quota),
        cmocka_unit_test(test_no_stale_outputs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
