/* The draw tests' scene (tests/pipe/helper_draw.h). */
#include "helper_draw.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* position (x, y, z, w) and a colour, as floats */
const char vs_text[] =
    "VERT\n"
    "DCL IN[0]\n"
    "DCL IN[1]\n"
    "DCL OUT[0], POSITION\n"
    "DCL OUT[1], GENERIC[0]\n"
    "  0: MOV OUT[0], IN[0]\n"
    "  1: MOV OUT[1], IN[1]\n"
    "  2: END\n";

const char fs_smooth[] =
    "FRAG\n"
    "DCL IN[0], GENERIC[0], PERSPECTIVE\n"
    "DCL OUT[0], COLOR\n"
    "  0: MOV OUT[0], IN[0]\n"
    "  1: END\n";

const char fs_flat[] =
    "FRAG\n"
    "DCL IN[0], GENERIC[0], CONSTANT\n"
    "DCL OUT[0], COLOR\n"
    "  0: MOV OUT[0], IN[0]\n"
    "  1: END\n";

/* red when front-facing, green when back-facing */
const char fs_face[] =
    "FRAG\n"
    "DCL IN[0], FACE, CONSTANT\n"
    "DCL OUT[0], COLOR\n"
    "DCL TEMP[0]\n"
    "IMM[0] FLT32 {1.0, 0.0, 0.0, 0.0}\n"
    "  0: FSLT TEMP[0].x, IMM[0].yyyy, IN[0].xxxx\n"
    "  1: UCMP OUT[0].x, TEMP[0].xxxx, IMM[0].xxxx, IMM[0].yyyy\n"
    "  2: UCMP OUT[0].y, TEMP[0].xxxx, IMM[0].yyyy, IMM[0].xxxx\n"
    "  3: MOV OUT[0].zw, IMM[0].yyyx\n"
    "  4: END\n";

tv_pipe_ctx *scene_sized(const char *fs, bool depth, uint32_t w, uint32_t h, uint32_t samples,
                         uint32_t threads)
{
    tv_pipe_ctx *ctx = tv_pipe_create(0);
    assert_non_null(ctx);
    assert_int_equal(tv_pipe_set_threads(ctx, threads), 0);
    uint32_t ns = samples > 1 ? samples : 0;
    tv_pipe_resource_desc rt = {2, FMT_RGBA8, 2, w, h, 1, 1, 0, ns};
    assert_int_equal(tv_pipe_resource_create(ctx, RT, &rt), 0);
    assert_int_equal(tv_pipe_surface_create(ctx, SURF, RT, FMT_RGBA8, 0, 0, 0), 0);
    uint32_t cb = SURF;
    if (depth) {
        tv_pipe_resource_desc zs = {2, FMT_Z32F, 1, w, h, 1, 1, 0, ns};
        assert_int_equal(tv_pipe_resource_create(ctx, ZS, &zs), 0);
        assert_int_equal(tv_pipe_surface_create(ctx, ZSURF, ZS, FMT_Z32F, 0, 0, 0), 0);
    }
    assert_int_equal(tv_pipe_set_framebuffer(ctx, 1, &cb, depth ? ZSURF : 0), 0);
    const uint32_t black[4] = {0, 0, 0, 0};
    assert_int_equal(tv_pipe_clear(ctx, TV_PIPE_CLEAR_COLOR0 | (depth ? TV_PIPE_CLEAR_DEPTH : 0),
                                   black, 1.0, 0), 0);
    bind_programs(ctx, vs_text, fs, w, h);
    return ctx;
}

void bind_programs(tv_pipe_ctx *ctx, const char *vs, const char *fs, uint32_t w, uint32_t h)
{
    assert_int_equal(tv_pipe_shader_create(ctx, VS, TV_PIPE_STAGE_VERTEX, vs, strlen(vs) + 1),
                     0);
    assert_int_equal(tv_pipe_shader_create(ctx, FS, TV_PIPE_STAGE_FRAGMENT, fs, strlen(fs) + 1),
                     0);
    assert_int_equal(tv_pipe_bind_shader(ctx, TV_PIPE_STAGE_VERTEX, VS), 0);
    assert_int_equal(tv_pipe_bind_shader(ctx, TV_PIPE_STAGE_FRAGMENT, FS), 0);
    /* window = NDC * size / 2 + size / 2, not flipped: NDC y = -1 is row 0 */
    tv_pipe_viewport vp = {{w / 2.0f, h / 2.0f, 0.5f}, {w / 2.0f, h / 2.0f, 0.5f}};
    assert_int_equal(tv_pipe_set_viewports(ctx, 0, 1, &vp), 0);
    tv_pipe_vertex_element ve[2] = {{0, 0, 0, FMT_RGBA32F}, {16, 0, 0, FMT_RGBA32F}};
    assert_int_equal(tv_pipe_set_vertex_elements(ctx, 2, ve), 0);
}

snapshot take_snapshot(tv_pipe_ctx *ctx)
{
    snapshot p;
    p.color_bytes = tv_pipe_resource_size(ctx, RT);
    p.depth_bytes = tv_pipe_resource_size(ctx, ZS);
    p.color = malloc(p.color_bytes);
    p.depth = malloc(p.depth_bytes);
    assert_true(p.color && p.depth);
    memcpy(p.color, tv_pipe_resource_data(ctx, RT), p.color_bytes);
    memcpy(p.depth, tv_pipe_resource_data(ctx, ZS), p.depth_bytes);
    return p;
}

tv_pipe_ctx *scene(const char *fs, bool depth)
{
    return scene_sized(fs, depth, W, H, 1, 1);
}

void upload(tv_pipe_ctx *ctx, uint32_t handle, const void *data, uint32_t bytes)
{
    tv_pipe_resource_desc b = {0, FMT_R8, 16, bytes, 1, 1, 1, 0, 0};
    tv_pipe_resource_destroy(ctx, handle);
    assert_int_equal(tv_pipe_resource_create(ctx, handle, &b), 0);
    tv_pipe_box box = {0, 0, 0, bytes, 1, 1};
    assert_int_equal(tv_pipe_transfer_write(ctx, handle, 0, &box, data, bytes, 0, 0, 0), 0);
}

void vertices(tv_pipe_ctx *ctx, const vert *v, unsigned n)
{
    upload(ctx, VB, v, n * (uint32_t)sizeof *v);
    tv_pipe_vertex_buffer vb = {sizeof(vert), 0, VB};
    assert_int_equal(tv_pipe_set_vertex_buffers(ctx, 0, 1, &vb), 0);
}

int draw(tv_pipe_ctx *ctx, uint32_t mode, uint32_t count)
{
    tv_pipe_draw_info info;
    memset(&info, 0, sizeof info);
    info.mode = mode;
    info.count = count;
    info.instance_count = 1;
    int rc = tv_pipe_draw_vbo(ctx, &info);
    if (rc)
        print_message("draw_vbo: %s\n", tv_pipe_error(ctx));
    return rc;
}

int draw_queried(tv_pipe_ctx *ctx, uint32_t mode, uint32_t count, unsigned n,
                 const uint32_t *q)
{
    for (unsigned i = 0; i < n; i++)
        assert_int_equal(tv_pipe_begin_query(ctx, q[i]), 0);
    int rc = draw(ctx, mode, count);
    for (unsigned i = 0; i < n; i++)
        assert_int_equal(tv_pipe_end_query(ctx, q[i]), 0);
    return rc;
}

void assert_query_result(tv_pipe_ctx *ctx, uint32_t q, uint64_t want)
{
    uint64_t r = ~want;
    assert_int_equal(tv_pipe_query_result(ctx, q, &r), 0);
    assert_int_equal(r, want);
}

const uint8_t *pixel(tv_pipe_ctx *ctx, int x, int y)
{
    return tv_pipe_resource_data(ctx, RT) + ((size_t)y * W + (size_t)x) * 4;
}

void rasterizer_discard(tv_pipe_ctx *ctx, bool discard)
{
    tv_pipe_rasterizer_state rs;
    tv_pipe_rasterizer_default(&rs);
    rs.rasterizer_discard = discard;
    assert_int_equal(tv_pipe_set_rasterizer(ctx, &rs), 0);
}

void depth_less(tv_pipe_ctx *ctx, bool depth)
{
    tv_pipe_dsa_state dsa;
    memset(&dsa, 0, sizeof dsa);
    dsa.depth_enabled = dsa.depth_writemask = depth;
    dsa.depth_func = 1; /* LESS */
    assert_int_equal(tv_pipe_set_dsa(ctx, &dsa), 0);
}

void depth_less_alpha_blend(tv_pipe_ctx *ctx, bool depth)
{
    depth_less(ctx, depth);
    tv_pipe_blend_state b;
    memset(&b, 0, sizeof b);
    b.rt[0].blend_enable = true;
    b.rt[0].rgb_src_factor = b.rt[0].alpha_src_factor = 0x03;  /* SRC_ALPHA */
    b.rt[0].rgb_dst_factor = b.rt[0].alpha_dst_factor = 0x13;  /* INV_SRC_ALPHA */
    b.rt[0].colormask = 0xf;
    assert_int_equal(tv_pipe_set_blend(ctx, &b), 0);
}

void assert_blank(tv_pipe_ctx *ctx)
{
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            assert_int_equal(pixel(ctx, x, y)[3], 0);
}

float depth_at(tv_pipe_ctx *ctx, int x, int y)
{
    float z;
    memcpy(&z, tv_pipe_resource_data(ctx, ZS) + ((size_t)y * W + (size_t)x) * 4, 4);
    return z;
}

/* window (x, y) to NDC for this viewport */
float nx(float x) { return x / (W / 2.0f) - 1.0f; }
float ny(float y) { return y / (H / 2.0f) - 1.0f; }

vert V(float wx, float wy, float z, float r, float g, float b, float a)
{
    vert v = {{nx(wx), ny(wy), z, 1.0f}, {r, g, b, a}};
    return v;
}
