/* What one draw makes the server hold beside a client's resources counts against the
 * context's memory quota (tv_pipe_create's, a vtest client's --max-memory): the sampler
 * views placed for each stage that samples, the primitive list, the fetched elements and
 * shaded outputs, and a geometry shader's emitted vertices. With a 64 MiB quota each of
 * these draws held several times the quota before (peak RSS of the test process, printed):
 * two stages each placed a 32-MiB view beside the 32-MiB texture, 2^21 points held 80 MiB
 * of primitives and 256 MiB of outputs, 2^14 points amplified 256 times held the emitted
 * vertices four times over. Each must now be refused, named, before the memory is taken;
 * the same draws on a smaller scale pass, and the quota is all given back after each. */
#include "helper_draw.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define QUOTA (64ull << 20)
enum { TEX = 30, GS = 22 };

/* the peak resident set of this process, KiB (VmHWM) */
static long peak_kib(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kib = -1;
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, "VmHWM:", 6))
            kib = strtol(line + 6, NULL, 10);
    if (f)
        fclose(f);
    return kib;
}

/* a 16x16 target within a context of QUOTA bytes, VS and FS bound */
static tv_pipe_ctx *quota_scene(const char *vs, const char *fs)
{
    tv_pipe_ctx *ctx = tv_pipe_create(QUOTA);
    assert_non_null(ctx);
    tv_pipe_resource_desc rt = {2, FMT_RGBA8, 2, W, H, 1, 1, 0, 0};
    assert_int_equal(tv_pipe_resource_create(ctx, RT, &rt), 0);
    assert_int_equal(tv_pipe_surface_create(ctx, SURF, RT, FMT_RGBA8, 0, 0, 0), 0);
    uint32_t cb = SURF;
    assert_int_equal(tv_pipe_set_framebuffer(ctx, 1, &cb, 0), 0);
    assert_int_equal(tv_pipe_shader_create(ctx, VS, TV_PIPE_STAGE_VERTEX, vs, strlen(vs) + 1),
                     0);
    assert_int_equal(tv_pipe_shader_create(ctx, FS, TV_PIPE_STAGE_FRAGMENT, fs, strlen(fs) + 1),
                     0);
    assert_int_equal(tv_pipe_bind_shader(ctx, TV_PIPE_STAGE_VERTEX, VS), 0);
    assert_int_equal(tv_pipe_bind_shader(ctx, TV_PIPE_STAGE_FRAGMENT, FS), 0);
    tv_pipe_viewport vp = {{W / 2.0f, H / 2.0f, 0.5f}, {W / 2.0f, H / 2.0f, 0.5f}};
    assert_int_equal(tv_pipe_set_viewports(ctx, 0, 1, &vp), 0);
    return ctx;
}

static int draw_n(tv_pipe_ctx *ctx, uint32_t mode, uint32_t count)
{
    tv_pipe_draw_info info;
    memset(&info, 0, sizeof info);
    info.mode = mode;
    info.count = count;
    info.instance_count = 1;
    return tv_pipe_draw_vbo(ctx, &info);
}

/* a draw that must be refused for the memory quota: NAMED in the error */
static void expect_quota(tv_pipe_ctx *ctx, int rc, const char *named, long before)
{
    fprintf(stderr, "  rc %d, peak RSS +%ld MiB (quota 64 MiB): %s\n", rc,
            (peak_kib() - before) >> 10, rc ? tv_pipe_error(ctx) : "drawn");
    assert_int_equal(rc, -1);
    const char *e = tv_pipe_error(ctx);
    if (!strstr(e, "memory quota") || !strstr(e, named))
        fail_msg("error \"%s\" does not name \"%s\" and the memory quota", e, named);
}

/* ---- sampler views placed per stage --------------------------------------------------- */

static const char vs_sample[] =
    "VERT\n"
    "DCL IN[0]\n"
    "DCL OUT[0], POSITION\n"
    "DCL OUT[1], GENERIC[0]\n"
    "DCL SAMP[0]\n"
    "DCL SVIEW[0], 2D, FLOAT\n"
    "DCL TEMP[0]\n"
    "IMM[0] FLT32 {0.5, 0.5, 0.0, 0.0}\n"
    "  0: TXL TEMP[0], IMM[0], SAMP[0], 2D\n"
    "  1: MOV OUT[0], IN[0]\n"
    "  2: MOV OUT[1], TEMP[0]\n"
    "  3: END\n";

static const char fs_sample[] =
    "FRAG\n"
    "DCL IN[0], GENERIC[0], PERSPECTIVE\n"
    "DCL OUT[0], COLOR\n"
    "DCL SAMP[0]\n"
    "DCL SVIEW[0], 2D, FLOAT\n"
    "  0: TEX OUT[0], IN[0], SAMP[0], 2D\n"
    "  1: END\n";

/* a W x H RGBA8 texture sampled by the vertex and the fragment shader */
static tv_pipe_ctx *two_stage_sampling(uint32_t w, uint32_t h)
{
    tv_pipe_ctx *ctx = quota_scene(vs_sample, fs_sample);
    tv_pipe_resource_desc td = {2, FMT_RGBA8, 8, w, h, 1, 1, 0, 0};
    assert_int_equal(tv_pipe_resource_create(ctx, TEX, &td), 0);
    tv_pipe_sampler_view view = {TEX, FMT_RGBA8, 0, 0, 0, 0, 0, 0, {0, 1, 2, 3}, 0};
    tv_pipe_sampler_state samp;
    memset(&samp, 0, sizeof samp);
    samp.min_mip_filter = 2;
    for (uint32_t st = TV_PIPE_STAGE_VERTEX; st <= TV_PIPE_STAGE_FRAGMENT; st++) {
        assert_int_equal(tv_pipe_set_sampler_views(ctx, st, 0, 1, &view), 0);
        assert_int_equal(tv_pipe_set_sampler_states(ctx, st, 0, 1, &samp), 0);
    }
    tv_pipe_vertex_element ve = {0, 0, 0, FMT_RGBA32F};
    assert_int_equal(tv_pipe_set_vertex_elements(ctx, 1, &ve), 0);
    vert v[3] = {V(0, 0, 0, 0, 0, 0, 1), V(W, 0, 0, 0, 0, 0, 1), V(0, H, 0, 0, 0, 0, 1)};
    vertices(ctx, v, 3);
    return ctx;
}

static void test_sampler_views_count(void **state)
{
    (void)state;
    /* 4 MiB sampled twice: 12 MiB, inside */
    tv_pipe_ctx *ctx = two_stage_sampling(1024, 1024);
    if (draw_n(ctx, PRIM_TRIANGLES, 3))
        fail_msg("%s", tv_pipe_error(ctx));
    tv_pipe_destroy(ctx);
    /* 32 MiB sampled twice: 96 MiB with the texture */
    long before = peak_kib();
    ctx = two_stage_sampling(4096, 2048);
    expect_quota(ctx, draw_n(ctx, PRIM_TRIANGLES, 3), "sampler views", before);
    tv_pipe_destroy(ctx);
}

/* ---- the vertex stage's arrays and the primitive list ---------------------------------- */

/* no inputs, 8 outputs, every point outside the clip volume */
static const char vs_wide[] =
    "VERT\n"
    "DCL OUT[0], POSITION\n"
    "DCL OUT[1], GENERIC[0]\n"
    "DCL OUT[2], GENERIC[1]\n"
    "DCL OUT[3], GENERIC[2]\n"
    "DCL OUT[4], GENERIC[3]\n"
    "DCL OUT[5], GENERIC[4]\n"
    "DCL OUT[6], GENERIC[5]\n"
    "DCL OUT[7], GENERIC[6]\n"
    "IMM[0] FLT32 {2.0, 2.0, 0.0, 1.0}\n"
    "  0: MOV OUT[0], IMM[0]\n"
    "  1: MOV OUT[1], IMM[0]\n"
    "  2: MOV OUT[2], IMM[0]\n"
    "  3: MOV OUT[3], IMM[0]\n"
    "  4: MOV OUT[4], IMM[0]\n"
    "  5: MOV OUT[5], IMM[0]\n"
    "  6: MOV OUT[6], IMM[0]\n"
    "  7: MOV OUT[7], IMM[0]\n"
    "  8: END\n";

static const char fs_const[] =
    "FRAG\n"
    "DCL OUT[0], COLOR\n"
    "IMM[0] FLT32 {1.0, 0.0, 0.0, 1.0}\n"
    "  0: MOV OUT[0], IMM[0]\n"
    "  1: END\n";

static void test_vertex_data_counts(void **state)
{
    (void)state;
    tv_pipe_ctx *ctx = quota_scene(vs_wide, fs_const);
    /* 2^16 points: 8 MiB of outputs and 2.5 MiB of points, inside */
    if (draw_n(ctx, PRIM_POINTS, 1u << 16))
        fail_msg("%s", tv_pipe_error(ctx));
    /* 2^21 points: 256 MiB of outputs, 80 MiB of points */
    long before = peak_kib();
    expect_quota(ctx, draw_n(ctx, PRIM_POINTS, 1u << 21), "memory quota", before);
    /* the refused draw gave back what it took: the small one still fits */
    if (draw_n(ctx, PRIM_POINTS, 1u << 16))
        fail_msg("%s", tv_pipe_error(ctx));
    tv_pipe_destroy(ctx);
}

/* ---- a geometry shader's emitted vertices --------------------------------------------- */

static const char vs_pos[] =
    "VERT\n"
    "DCL OUT[0], POSITION\n"
    "IMM[0] FLT32 {2.0, 2.0, 0.0, 1.0}\n"
    "  0: MOV OUT[0], IMM[0]\n"
    "  1: END\n";

/* each point emitted 256 times as points, with one more output */
static const char gs_amplify[] =
    "GEOM\n"
    "PROPERTY GS_INPUT_PRIMITIVE POINTS\n"
    "PROPERTY GS_OUTPUT_PRIMITIVE POINTS\n"
    "PROPERTY GS_MAX_OUTPUT_VERTICES 256\n"
    "PROPERTY GS_INVOCATIONS 1\n"
    "DCL IN[][0], POSITION\n"
    "DCL OUT[0], POSITION\n"
    "DCL OUT[1], GENERIC[0]\n"
    "DCL TEMP[0]\n"
    "IMM[0] INT32 {0, 1, 256, 0}\n"
    "  0: MOV TEMP[0].x, IMM[0].xxxx\n"
    "  1: BGNLOOP\n"
    "  2: ISGE TEMP[0].y, TEMP[0].xxxx, IMM[0].zzzz\n"
    "  3: IF TEMP[0].yyyy\n"
    "  4: BRK\n"
    "  5: ENDIF\n"
    "  6: MOV OUT[0], IN[0][0]\n"
    "  7: MOV OUT[1], IN[0][0]\n"
    "  8: EMIT IMM[0].xxxx\n"
    "  9: UADD TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy\n"
    " 10: ENDLOOP\n"
    " 11: END\n";

static void test_geometry_output_counts(void **state)
{
    (void)state;
    tv_pipe_ctx *ctx = quota_scene(vs_pos, fs_const);
    assert_int_equal(tv_pipe_shader_create(ctx, GS, TV_PIPE_STAGE_GEOMETRY, gs_amplify,
                                           sizeof gs_amplify), 0);
    assert_int_equal(tv_pipe_bind_shader(ctx, TV_PIPE_STAGE_GEOMETRY, GS), 0);
    /* 2^8 points: 2^16 vertices, 2 MiB a copy, inside */
    if (draw_n(ctx, PRIM_POINTS, 1u << 8))
        fail_msg("%s", tv_pipe_error(ctx));
    /* 2^14 points: 2^22 vertices, 128 MiB a copy */
    long before = peak_kib();
    expect_quota(ctx, draw_n(ctx, PRIM_POINTS, 1u << 14), "memory quota", before);
    if (draw_n(ctx, PRIM_POINTS, 1u << 8))
        fail_msg("%s", tv_pipe_error(ctx));
    tv_pipe_destroy(ctx);
}

int main(int argc, char **argv)
{
    if (argc > 1)              /* one test alone: its own peak RSS */
        cmocka_set_test_filter(argv[1]);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sampler_views_count),
        cmocka_unit_test(test_vertex_data_counts),
        cmocka_unit_test(test_geometry_output_counts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
