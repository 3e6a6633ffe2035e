/* Triangles the guard band holds whole skip the clip vertex (pipe_draw_tri.c,
 * direct_triangle): their pictures must be the plain interpreter's, which never takes
 * that path. Random triangles of every size and winding, some crossing the near or far
 * plane or behind the eye (clipped: draw_triangle's general way) among the others; a
 * fragment shader reading perspective, linear and flat inputs and the facing, summed into
 * an RGBA32F target whose bits show any difference; depth tested and written; under
 * culling, either winding as front, the first vertex as provoking, polygon offset, depth
 * clamping, and (the general path only) two-sided colours and back faces as lines; on
 * one and two workers. The vertex shader passes the position and one input through as
 * they are, which the draw reads in place from the vertex buffer (pipe_draw.c,
 * outputs_in_place), also from a start vertex, a buffer offset and elements after
 * padding; not while stream output writes that buffer. */
#include "helper_draw.h"

#include <stdlib.h>
#include <string.h>
#include "common_rng.h"

enum { DW = 96, DH = 64, NTRI = 3000 };

static const char vs_direct[] =
    "VERT\nDCL IN[0]\nDCL IN[1]\nDCL OUT[0], POSITION\nDCL OUT[1], GENERIC[0]\n"
    "DCL OUT[2], GENERIC[1]\nDCL OUT[3], GENERIC[2]\nDCL OUT[4], COLOR[0]\n"
    "DCL OUT[5], BCOLOR[0]\n"
    "MOV OUT[0], IN[0]\nMOV OUT[1], IN[1]\nMOV OUT[2], IN[1].wzyx\nMOV OUT[3], IN[1].yxwz\n"
    "MOV OUT[4], IN[1].zwxy\nMOV OUT[5], IN[1].xxyy\nEND\n";

static const char fs_direct[] =
    "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL IN[1], GENERIC[1], LINEAR\n"
    "DCL IN[2], GENERIC[2], CONSTANT\nDCL IN[3], COLOR[0], COLOR\nDCL IN[4], FACE, CONSTANT\n"
    "DCL OUT[0], COLOR\nDCL TEMP[0]\n"
    "ADD TEMP[0], IN[0], IN[1]\nADD TEMP[0], TEMP[0], IN[2]\nADD TEMP[0], TEMP[0], IN[3]\n"
    "ADD OUT[0], TEMP[0], IN[4].xxxx\nEND\n";

static float unit(uint32_t *s)
{
    return (float)(tc_rng_next(s) & 0xffffff) / (float)0x1000000;
}

static snapshot draw_scene(bool plain, unsigned threads, unsigned variant)
{
    tv_pipe_ctx *ctx = tv_pipe_create(0);
    assert_non_null(ctx);
    assert_int_equal(tv_pipe_set_threads(ctx, threads), 0);
    assert_int_equal(tv_pipe_set_plain(ctx, plain), 0);
    tv_pipe_resource_desc rt = {2, FMT_RGBA32F, 2, DW, DH, 1, 1, 0, 0};
    tv_pipe_resource_desc zs = {2, FMT_Z32F, 1, DW, DH, 1, 1, 0, 0};
    assert_int_equal(tv_pipe_resource_create(ctx, RT, &rt), 0);
    assert_int_equal(tv_pipe_surface_create(ctx, SURF, RT, FMT_RGBA32F, 0, 0, 0), 0);
    assert_int_equal(tv_pipe_resource_create(ctx, ZS, &zs), 0);
    assert_int_equal(tv_pipe_surface_create(ctx, ZSURF, ZS, FMT_Z32F, 0, 0, 0), 0);
    const uint32_t cb = SURF, zero[4] = {0, 0, 0, 0};
    assert_int_equal(tv_pipe_set_framebuffer(ctx, 1, &cb, ZSURF), 0);
    assert_int_equal(tv_pipe_clear(ctx, TV_PIPE_CLEAR_COLOR0 | TV_PIPE_CLEAR_DEPTH, zero, 1.0, 0),
                     0);
    bind_programs(ctx, vs_direct, fs_direct, DW, DH);
    depth_less(ctx, true);
    tv_pipe_rasterizer_state rs;
    tv_pipe_rasterizer_default(&rs);
    switch (variant) {
    case 1: rs.cull_face = TV_PIPE_FACE_BACK; break;
    case 2: rs.front_ccw = !rs.front_ccw; rs.cull_face = TV_PIPE_FACE_FRONT; break;
    case 3: rs.flatshade_first = true; rs.flatshade = true; break;
    case 4: rs.offset_tri = true; rs.offset_units = 3; rs.offset_scale = 1.5f; break;
    case 5: rs.depth_clip_near = rs.depth_clip_far = false; rs.depth_clamp = true; break;
    case 6: rs.light_twoside = true; break;               /* general path: back colours */
    case 7: rs.fill_back = TV_PIPE_POLYGON_LINE; break;   /* general path: modes */
    default: break;
    }
    assert_int_equal(tv_pipe_set_rasterizer(ctx, &rs), 0);
    vert *v = malloc(NTRI * 3 * sizeof *v);
    assert_non_null(v);
    uint32_t seed = 0x2468ace1u + variant;
    for (unsigned t = 0; t < NTRI; t++) {
        const float cx = unit(&seed) * 2.4f - 1.2f, cy = unit(&seed) * 2.4f - 1.2f;
        const float size = t % 40 == 0 ? 1.5f : t % 3 == 0 ? 0.3f : 0.08f;
        const unsigned kind = tc_rng_next(&seed) % 16;   /* 0: near, 1: far, 2: behind the eye */
        for (unsigned k = 0; k < 3; k++) {
            float w = 0.5f + unit(&seed) * 1.5f, z = unit(&seed) * 1.8f - 0.9f;
            if (kind == 0 && k == 0)
                z = -1.6f;
            if (kind == 1 && k == 1)
                z = 1.7f;
            if (kind == 2 && k == 2)
                w = -0.4f;
            vert *o = &v[3 * t + k];
            o->pos[0] = (cx + (unit(&seed) - 0.5f) * size) * w;
            o->pos[1] = (cy + (unit(&seed) - 0.5f) * size) * w;
            o->pos[2] = z * w;
            o->pos[3] = w;
            for (unsigned c = 0; c < 4; c++)
                o->col[c] = unit(&seed) * 4 - 2;
        }
    }
    if (variant == 9) {
        /* stream output into the vertex buffer itself, over each triangle's positions
           before it is drawn (GL leaves it undefined): the positions must still be the
           ones the vertex stage read, as the plain run's copies keep them */
        tv_pipe_stream_output_info so;
        memset(&so, 0, sizeof so);
        so.num_outputs = 1;
        so.stride[0] = 8;
        so.output[0] = (tv_pipe_stream_output){2, 0, 4, 0, 0, 0};
        assert_int_equal(tv_pipe_shader_set_stream_output(ctx, VS, &so), 0);
        vertices(ctx, v, NTRI * 3);
        tv_pipe_so_target tg = {VB, 0, NTRI * 3 * (uint32_t)sizeof *v, 0};
        assert_int_equal(tv_pipe_set_stream_output_targets(ctx, 1, &tg, 0), 0);
        assert_int_equal(draw(ctx, PRIM_TRIANGLES, NTRI * 3), 0);
    } else if (variant != 8) {
        vertices(ctx, v, NTRI * 3);
        assert_int_equal(draw(ctx, PRIM_TRIANGLES, NTRI * 3), 0);
    } else {
        /* the vertices from the sixth on, 48 bytes apart, each after 16 bytes of padding,
           from a buffer offset: the outputs read in place start and step where the
           elements do */
        enum { SKIP = 2, START = 3, STRIDE = 12 };
        const unsigned total = SKIP + START + NTRI * 3;
        float *b = malloc((size_t)total * STRIDE * sizeof *b);
        assert_non_null(b);
        for (unsigned i = 0; i < total; i++)
            for (unsigned k = 0; k < STRIDE; k++)
                b[i * STRIDE + k] = i < SKIP + START ? 1e30f : k < 4 ? -7.0f
                                    : k < 8 ? v[i - SKIP - START].pos[k - 4]
                                            : v[i - SKIP - START].col[k - 8];
        upload(ctx, VB, b, total * STRIDE * (uint32_t)sizeof *b);
        free(b);
        tv_pipe_vertex_buffer vb = {STRIDE * 4, SKIP * STRIDE * 4, VB};
        assert_int_equal(tv_pipe_set_vertex_buffers(ctx, 0, 1, &vb), 0);
        tv_pipe_vertex_element ve8[2] = {{16, 0, 0, FMT_RGBA32F}, {32, 0, 0, FMT_RGBA32F}};
        assert_int_equal(tv_pipe_set_vertex_elements(ctx, 2, ve8), 0);
        tv_pipe_draw_info info;
        memset(&info, 0, sizeof info);
        info.mode = PRIM_TRIANGLES;
        info.start = START;
        info.count = NTRI * 3;
        info.instance_count = 1;
        assert_int_equal(tv_pipe_draw_vbo(ctx, &info), 0);
    }
    free(v);
    snapshot p = take_snapshot(ctx);
    tv_pipe_destroy(ctx);
    return p;
}

static void test_same_as_plain(void **state)
{
    (void)state;
    for (unsigned variant = 0; variant < 10; variant++) {
        snapshot ref = draw_scene(true, 1, variant);
        /* a picture: most pixels drawn */
        size_t lit = 0;
        for (size_t i = 0; i < ref.color_bytes; i += 16)
            lit += memcmp(ref.color + i, "\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0", 16) != 0;
        assert_true(lit > (size_t)DW * DH / 2);
        for (unsigned threads = 1; threads <= 2; threads++) {
            snapshot p = draw_scene(false, threads, variant);
            assert_int_equal(p.color_bytes, ref.color_bytes);
            if (memcmp(p.color, ref.color, ref.color_bytes))
                fail_msg("variant %u, %u worker(s): the colour bytes differ from the plain "
                         "run's", variant, threads);
            if (memcmp(p.depth, ref.depth, ref.depth_bytes))
                fail_msg("variant %u, %u worker(s): the depth bytes differ from the plain "
                         "run's", variant, threads);
            free(p.color);
            free(p.depth);
        }
        free(ref.color);
        free(ref.depth);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_as_plain),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
