/* The virgl command table and the hostile-stream catalogue: every VIRGL_CCMD_* row is
 * implemented, recorded, or an error that names it; malformed streams put the context
 * in the error state with a logged reason and never crash the server. */
#include "helper_client.h"
#include "vtest/vtest_internal.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

/* virgl_protocol.h's command numbers (Mesa 22.3 and later), spelled out. */
static const char *const expected_names[] = {
    "nop", "create_object", "bind_object", "destroy_object", "set_viewport_state",
    "set_framebuffer_state", "set_vertex_buffers", "clear", "draw_vbo",
    "resource_inline_write", "set_sampler_views", "set_index_buffer", "set_constant_buffer",
    "set_stencil_ref", "set_blend_color", "set_scissor_state", "blit",
    "resource_copy_region", "bind_sampler_states", "begin_query", "end_query",
    "get_query_result", "set_polygon_stipple", "set_clip_state", "set_sample_mask",
    "set_streamout_targets", "set_render_condition", "set_uniform_buffer", "set_sub_ctx",
    "create_sub_ctx", "destroy_sub_ctx", "bind_shader", "set_tess_state", "set_min_samples",
    "set_shader_buffers", "set_shader_images", "memory_barrier", "launch_grid",
    "set_framebuffer_state_no_attach", "texture_barrier", "set_atomic_buffers",
    "set_debug_flags", "get_query_result_qbo", "transfer3d", "end_transfers",
    "copy_transfer3d", "set_tweaks", "clear_texture", "pipe_resource_create",
    "pipe_resource_set_type", "get_memory_info", "send_string_marker", "link_shader",
    "create_video_codec", "destroy_video_codec", "create_video_buffer",
    "destroy_video_buffer", "begin_frame", "decode_macroblock", "decode_bitstream",
    "encode_bitstream", "end_frame", "clear_surface", "get_pipe_resource_layout",
};

static void decode_err(const uint32_t *dw, size_t n, const char *needle)
{
    char err[320];
    assert_int_equal(tv_vtest_decode_buffer(dw, n, NULL, err, sizeof err), -1);
    if (!strstr(err, needle))
        fail_msg("error \"%s\" lacks \"%s\"", err, needle);
}

static void test_table_coverage(void **state)
{
    (void)state;
    unsigned n = tv_vtest_ccmd_count(), impl = 0, rec = 0, err = 0;
    assert_int_equal(n, sizeof expected_names / sizeof expected_names[0]);
    for (unsigned i = 0; i < n; i++) {
        const char *name = NULL;
        int st = tv_vtest_ccmd_info(i, &name);
        assert_non_null(name);
        assert_string_equal(name, expected_names[i]);
        if (st == 0) {
            /* an error row: a command of any length fails naming the command */
            uint32_t buf[4] = {(3u << 16) | i, 0, 0, 0};
            char want[96];
            snprintf(want, sizeof want, "%s: not implemented by texvm", name);
            decode_err(buf, 4, want);
            err++;
        } else {
            assert_true(st == 1 || st == 2);
            st == 1 ? impl++ : rec++;
        }
    }
    assert_int_equal(tv_vtest_ccmd_info(n, NULL), -1);
    decode_err((uint32_t[]){200}, 1, "unknown command 200");
    printf("virgl commands: %u implemented, %u recorded, %u errors\n", impl, rec, err);
}

/* docs/vtest-protocol.md's command table says what the code's table says: every row's
 * number(s), name(s) and status word (impl, rec or error), and the totals line. */
static void test_docs_table_matches(void **state)
{
    (void)state;
    FILE *f = fopen(TEXVM_SOURCE_DIR "/docs/vtest-protocol.md", "r");
    assert_non_null(f);
    char line[4096];
    unsigned seen = 0, counts[3] = {0, 0, 0};
    bool totals = false;
    while (fgets(line, sizeof line, f)) {
        unsigned a, b;
        int used = 0;
        if (sscanf(line, "| %u\xe2\x80\x93%u |%n", &a, &b, &used) == 2 && used) {
            /* a range a–b */
        } else if (sscanf(line, "| %u |%n", &a, &used) == 1 && used) {
            b = a;
        } else {
            unsigned impl, rec, err;
            if (sscanf(line, "Totals: %*u rows; %u implemented, %u recorded, %u errors", &impl,
                       &rec, &err) == 3) {
                totals = true;
                assert_int_equal(impl, counts[1]);
                assert_int_equal(rec, counts[2]);
                assert_int_equal(err, counts[0]);
            }
            continue;
        }
        const char *names = line + used, *bar = strchr(names, '|');
        assert_non_null(bar);
        const char *status = bar + 1;
        while (*status == ' ')
            status++;
        int want = !strncmp(status, "impl", 4) ? 1 : !strncmp(status, "rec", 3) ? 2
                   : !strncmp(status, "error", 5) ? 0 : -1;
        if (want < 0)
            fail_msg("docs/vtest-protocol.md row %u: status \"%.20s\"", a, status);
        for (unsigned k = a; k <= b; k++) {
            const char *name = NULL;
            int st = tv_vtest_ccmd_info(k, &name);
            if (st != want)
                fail_msg("docs/vtest-protocol.md row %u (%s): status %d, the code's %d", k,
                         name ? name : "?", want, st);
            const char *at = strstr(names, name);
            if (!at || at > bar)
                fail_msg("docs/vtest-protocol.md row %u: %s not named", k, name);
            counts[st]++;
            seen++;
        }
    }
    fclose(f);
    assert_int_equal(seen, tv_vtest_ccmd_count());
    assert_true(totals);
}

static void test_shader_multi_packet(void **state)
{
    (void)state;
    const char *text = "FRAG\nDCL OUT[0], COLOR\nIMM[0] FLT32 { 1.0, 0.0, 0.0, 1.0 }\n"
                       "MOV OUT[0], IMM[0]\nEND\n";
    size_t len = strlen(text) + 1;
    /* First packet: 8 bytes of text; continuations carry the rest 8 bytes at a time. */
    uint32_t buf[256];
    size_t n = 0, off = 0;
    while (off < len) {
        size_t k = len - off < 8 ? len - off : 8;
        buf[n++] = (uint32_t)((5 + 2) << 16) | (4u << 8) | 1u;
        buf[n++] = 7;                                        /* handle */
        buf[n++] = 1;                                        /* fragment */
        buf[n++] = off ? (uint32_t)(0x80000000u | off) : (uint32_t)len;
        buf[n++] = 100;                                      /* num_tokens */
        buf[n++] = 0;                                        /* no stream output */
        buf[n] = buf[n + 1] = 0;
        memcpy(&buf[n], text + off, k);
        n += 2;
        off += k;
    }
    vtest_conn c;
    vtest_conn_init(&c, NULL);
    vtest_decode(&c, buf, n);
    assert_false(c.failed);
    assert_non_null(tv_pipe_shader_text(c.pipe, 7));
    assert_string_equal(tv_pipe_shader_text(c.pipe, 7), text);
    /* bind, destroy, then binding again is use-after-destroy */
    uint32_t more[] = {(2u << 16) | 31u, 7, 1, (1u << 16) | (4u << 8) | 3u, 7,
                       (2u << 16) | 31u, 7, 1};
    vtest_decode(&c, more, sizeof more / 4);
    assert_true(c.failed);
    assert_non_null(strstr(c.error, "bind_shader: no shader 7"));
    vtest_conn_fini(&c);
}

/* ---- the hostile-stream catalogue: (name, stream, expected reason) ---------------- */

#define H(cmd, obj, len) VT_CMD(cmd, obj, len)
/* resource 1: 4x4 RGBA8 2D, created through the context before each stream */
static void with_resource(vtest_conn *c)
{
    tv_pipe_resource_desc d = {2, 67, 2, 4, 4, 1, 1, 0, 0};
    assert_int_equal(tv_pipe_resource_create(c->pipe, 1, &d), 0);
}

typedef struct hostile {
    const char *name;
    uint32_t dw[32];
    size_t n;
    const char *reason;
} hostile;

static const hostile catalogue[] = {
    {"length overruns the buffer", {H(7, 0, 8), 0, 0}, 3, "overruns the 3-dword buffer"},
    {"clear with a short payload", {H(7, 0, 2), 0, 0}, 3, "clear: payload of 2 dwords (8..8"},
    {"surface on a missing resource", {H(1, 8, 5), 10, 99, 67, 0, 0}, 6, "no resource 99"},
    {"surface level past last_level", {H(1, 8, 5), 10, 1, 67, 3, 0}, 6, "outside resource 1"},
    {"surface with a different texel size", {H(1, 8, 5), 10, 1, 64, 0, 0}, 6,
     "does not view resource 1"},
    {"clear after the surface was destroyed",
     {H(1, 8, 5), 10, 1, 67, 0, 0, H(5, 0, 3), 1, 0, 10, H(3, 8, 1), 10, H(7, 0, 8), 4, 0, 0,
      0, 0, 0, 0, 0},
     21, "clear: surface 10 was destroyed"},
    {"framebuffer with 9 colour buffers", {H(5, 0, 11), 9, 0}, 12, "set_framebuffer_state"},
    {"inline write outside the level",
     {H(9, 0, 12), 1, 0, 0, 16, 64, 3, 0, 0, 2, 1, 1, 0}, 13, "outside level 0 of resource 1"},
    {"inline write with less data than the box",
     {H(9, 0, 12), 1, 0, 0, 16, 64, 0, 0, 0, 4, 1, 1, 0}, 13, "16 bytes of client memory, 4"},
    {"inline write with a stride below a row",
     {H(9, 0, 14), 1, 0, 0, 4, 64, 0, 0, 0, 2, 2, 1, 0, 0, 0}, 15, "stride 4"},
    {"transfer3d without shared memory",
     {H(43, 0, 13), 1, 0, 0, 16, 64, 0, 0, 0, 4, 4, 1, 0, 1}, 14, "has no shared memory"},
    {"copy_region from a missing resource",
     {H(17, 0, 13), 1, 0, 0, 0, 0, 42, 0, 0, 0, 0, 1, 1, 1}, 14, "no resource 42"},
    {"copy_region box past the source",
     {H(17, 0, 13), 1, 0, 0, 0, 0, 1, 0, 3, 3, 0, 2, 2, 1}, 14, "outside level 0"},
    {"clear_texture of level 5", {H(47, 0, 12), 1, 5, 0, 0, 0, 1, 1, 1, 0, 0, 0, 0}, 13,
     "level 5 of resource 1"},
    {"shader continuation without a start", {H(1, 4, 6), 3, 1, 0x80000004u, 0, 0, 0}, 7,
     "does not follow a started text"},
    {"shader text length 0", {H(1, 4, 6), 3, 1, 0, 0, 0, 0}, 7, "text length 0 out of range"},
    {"shader text of 2 GiB", {H(1, 4, 6), 3, 1, 0x7fffffffu, 0, 0, 0}, 7, "out of range"},
    {"shader stream outputs past the packet", {H(1, 4, 6), 3, 0, 8, 0, 60, 0}, 7,
     "stream outputs do not fit"},
    {"object handle reused", {H(1, 1, 11), 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                              H(1, 1, 11), 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, 24,
     "handle 5 already in use"},
    {"blend object of the wrong size", {H(1, 1, 2), 5, 0}, 3,
     "create_object blend 5: 1 dwords after the handle (10..10"},
    {"vertex elements not in fours", {H(1, 5, 3), 5, 0, 0}, 4,
     "create_object vertex_elements 5: 2 dwords"},
    {"draw_vbo of 5 dwords", {H(8, 0, 5), 0, 3, 4, 0, 1}, 6,
     "draw_vbo: payload of 5 dwords (12..20 expected)"},
    {"draw_vbo of 13 dwords", {H(8, 0, 13), 0, 3, 4, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0}, 14,
     "draw_vbo: payload of 13 dwords (12, 14 or 20 expected)"},
    {"indexed draw without an index buffer", {H(8, 0, 12), 0, 3, 4, 1, 1, 0, 0, 0, 0, 0, 0, 0},
     13, "indexed draw with no index buffer set"},
    {"indirect draw", {H(8, 0, 20), 0, 3, 4, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 9, 0, 0, 0, 0, 0},
     21, "no indirect buffer 9"},
    {"draw without a framebuffer", {H(8, 0, 12), 0, 3, 4, 0, 1, 0, 0, 0, 0, 0, 0, 0}, 13,
     "draw_vbo: the framebuffer has no attachment"},
    {"draw of patches", {H(8, 0, 12), 0, 3, 14, 0, 1, 0, 0, 0, 0, 0, 0, 0}, 13,
     "draw_vbo: PATCHES without a tessellation evaluation shader"},
    {"vertex buffers not in threes", {H(6, 0, 4), 12, 0, 1, 0}, 5,
     "set_vertex_buffers: 4 dwords are not 3 per buffer"},
    {"index size 3", {H(11, 0, 3), 1, 3, 0}, 4, "set_index_buffer: index size 3"},
    {"blit of 3 dwords", {H(16, 0, 3), 0xf, 0, 0}, 4, "blit: payload of 3 dwords (21..21"},
    {"blit from a missing resource",
     {H(16, 0, 21), 0xf, 0, 0, 1, 0, 67, 0, 0, 0, 4, 4, 1, 9, 0, 67, 0, 0, 0, 4, 4, 1}, 22,
     "blit: no source resource 9"},
    {"render condition on a query never created", {H(26, 0, 3), 8, 1, 0}, 4,
     "set_render_condition: no query 8"},
    {"query of pipeline statistics", {H(1, 9, 4), 8, 10, 0, 0}, 5,
     "create_object query 8: its result at 0 in resource 0 does not fit"},
    {"begin of a query never created", {H(19, 0, 1), 8}, 2, "begin_query: no query 8"},
    {"stream output to a target never created", {H(25, 0, 2), 0, 7}, 3,
     "set_streamout_targets: no stream-output target 7"},
    {"five stream-output targets", {H(25, 0, 6), 0, 0, 0, 0, 0, 0}, 7,
     "set_streamout_targets: payload of 6 dwords (1..5 expected)"},
    {"result of a query never created", {H(21, 0, 2), 8, 0}, 3,
     "get_query_result: no query 8"},
    {"query result into a buffer past its end",
     {H(1, 9, 4), 8, 0, 0, 1, H(42, 0, 6), 8, 1, 0, 3, 60, 0}, 12,
     "get_query_result_qbo 8: 8 bytes at 60 outside resource 1"},
    {"query result of type 4", {H(1, 9, 4), 8, 0, 0, 1, H(42, 0, 6), 8, 1, 0, 4, 0, 0}, 12,
     "result type 4"},
    {"sampler view never created", {H(10, 0, 3), 1, 0, 44}, 4,
     "set_sampler_views: no sampler view 44"},
    {"sampler views past slot 32", {H(10, 0, 4), 1, 31, 0, 0}, 5,
     "set_sampler_views: slots 31..32 past the 32 slots"},
    {"sampler state of the wrong size", {H(1, 7, 2), 5, 0}, 3,
     "create_object sampler_state 5: 1 dwords after the handle (8..8"},
    {"viewport slot 16", {H(4, 0, 7), 16, 0, 0, 0, 0, 0, 0}, 8,
     "set_viewport_state: viewports 16..16 past the 16 viewports"},
    {"destroying an unknown object", {H(3, 1, 1), 77}, 2, "no object 77 of type 1"},
    {"object of unknown type 40", {H(1, 40, 1), 5}, 2, "unknown object type 40"},
    {"sampler view of a missing resource", {H(1, 6, 6), 5, 9, 67, 0, 0, 0}, 7,
     "sampler_view 5: no resource 9"},
    {"sub-context created twice", {H(29, 0, 1), 1, H(29, 0, 1), 1}, 4,
     "create_sub_ctx: sub-context 1 already exists"},
    {"sub-context 0 destroyed", {H(30, 0, 1), 0}, 2, "sub-context 0 is the context's own"},
    {"object of a sub-context used from another",
     {H(29, 0, 1), 1, H(28, 0, 1), 1, H(1, 1, 11), 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
      H(28, 0, 1), 0, H(2, 1, 1), 5}, 20, "bind_object: no object 5"},
    {"clear with a NaN depth", {H(7, 0, 8), 1, 0, 0, 0, 0, 0, 0x7ff80000u, 0}, 9,
     "depth is NaN"},
    {"draw_vbo of points without a framebuffer", {H(8, 0, 12)}, 13,
     "draw_vbo: the framebuffer has no attachment"},
    {"launch_grid without a compute shader", {H(37, 0, 8)}, 9,
     "launch_grid: no compute shader bound"},
    {"binding an object never created", {H(2, 1, 1), 55}, 2, "bind_object: no object 55"},
    {"destroying an object twice",
     {H(1, 1, 11), 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, H(3, 1, 1), 5, H(3, 1, 1), 5}, 16,
     "destroy_object: no object 5 of type 1"},
    {"object handle 0", {H(1, 1, 11), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, 12,
     "handle 0 is invalid"},
    {"surface layers past the resource", {H(1, 8, 5), 10, 1, 67, 0, (3u << 16) | 1u}, 6,
     "layers 1..3 outside resource 1"},
    {"surface layers reversed", {H(1, 8, 5), 10, 1, 67, 0, (1u << 16) | 3u}, 6,
     "layers 3..1 outside resource 1"},
    {"inline write to a missing resource",
     {H(9, 0, 12), 77, 0, 0, 16, 64, 0, 0, 0, 1, 1, 1, 0}, 13, "no resource 77"},
    {"inline write to level 3 of a 1-level resource",
     {H(9, 0, 12), 1, 3, 0, 16, 64, 0, 0, 0, 1, 1, 1, 0}, 13, "level 3 of resource 1"},
    {"inline write whose box end wraps 32 bits",
     {H(9, 0, 12), 1, 0, 0, 16, 64, 0xffffffffu, 0, 0, 2, 1, 1, 0}, 13,
     "box 4294967295,0,0 2x1x1 outside level 0"},
    {"clear_texture of a missing resource",
     {H(47, 0, 12), 9, 0, 0, 0, 0, 1, 1, 1, 0, 0, 0, 0}, 13, "clear_texture: no resource 9"},
    {"clear_texture box past the level",
     {H(47, 0, 12), 1, 0, 3, 0, 0, 2, 1, 1, 0, 0, 0, 0}, 13, "box 3,0,0 2x1x1 outside level 0"},
    {"copy_region into a missing resource",
     {H(17, 0, 13), 42, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 1, 1}, 14, "no resource 42"},
    {"copy_region box larger than the source",
     {H(17, 0, 13), 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 5, 5, 1}, 14, "box 0,0,0 5x5x1 outside"},
    {"set_sub_ctx to a sub-context never created", {H(28, 0, 1), 7}, 2, "no sub-context 7"},
    {"bind_shader of a missing shader", {H(31, 0, 2), 9, 5}, 3, "bind_shader: no shader 9"},
    {"bind_shader as another stage",
     {H(1, 4, 6), 3, 1, 4, 0, 0, 0x00414141u, H(31, 0, 2), 3, 5}, 10,
     "shader 3 has type 1, bound as 5"},
    {"shader of unknown type 9", {H(1, 4, 6), 3, 9, 4, 0, 0, 0x00414141u}, 7,
     "unknown shader type 9"},
    {"shader claiming 65 stream outputs", {H(1, 4, 6), 3, 0, 8, 0, 65, 0}, 7,
     "65 stream outputs do not fit"},
    {"shader text that is not TGSI, run", /* "AAA" then launch: the parse error, located */
     {H(1, 4, 6), 3, 5, 4, 0, 0, 0x00414141u, H(31, 0, 2), 3, 5, H(37, 0, 8), 0, 0, 0, 1, 1, 1,
      0, 0}, 19, "launch_grid: shader 3: 1:1: expected a program header"},
    {"launch_grid of 2^25 invocations", /* "COMP\nEND\n" */
     {H(1, 4, 9), 3, 5, 16, 0, 0, 0x504d4f43u, 0x444e450au, 0x0000000au, 0, H(31, 0, 2), 3, 5,
      H(37, 0, 8), 1024, 1, 1, 32768, 1, 1, 0, 0}, 22, "33554432 invocations (at most"},
    {"launch_grid of 2^62 blocks of 128 (the products wrap 64 bits)", /* found by fuzz_vtest */
     {H(1, 4, 9), 3, 5, 16, 0, 0, 0x504d4f43u, 0x444e450au, 0x0000000au, 0, H(31, 0, 2), 3, 5,
      H(37, 0, 8), 128, 1, 1, 0x80000000u, 0x80000000u, 1, 0, 0}, 22,
     "invocations (at most 16777216)"},
    {"launch_grid indirect from a missing buffer", {H(37, 0, 8), 0, 0, 0, 1, 1, 1, 7, 0}, 9,
     "no indirect buffer 7"},
    {"shader buffers past slot 31", {H(34, 0, 5), 5, 32, 0, 0, 1}, 6,
     "slots 32..32 past the 32 slots"},
    {"shader images past slot 31", {H(35, 0, 7), 5, 40, 67, 0, 0, 0, 1}, 8,
     "slots 40..40 past the 32 slots"},
    {"shader buffers with a partial triple", {H(34, 0, 4), 5, 0, 0, 0}, 5,
     "4 dwords are not 2 + 3 per buffer"},
    {"constant buffer of shader type 9", {H(12, 0, 3), 9, 0, 0}, 4, "unknown shader type 9"},
    {"uniform buffer of a missing resource", {H(27, 0, 5), 5, 0, 0, 16, 33}, 6,
     "set_uniform_buffer: no resource 33"},
    {"framebuffer naming a missing surface", {H(5, 0, 3), 1, 0, 12}, 4, "no surface 12"},
    {"framebuffer with 3 colour buffers in 1 dword", {H(5, 0, 3), 3, 0, 12}, 4,
     "3 colour buffers in 3 dwords"},
    {"command 64", {H(64, 0, 0)}, 1, "unknown command 64 at dword 0"},
    {"command 255", {H(255, 0, 0)}, 1, "unknown command 255"},
    {"nop longer than the buffer", {H(0, 0, 0xffff)}, 1, "length 65535 overruns"},
    {"clear without a payload", {H(7, 0, 0)}, 1, "clear: payload of 0 dwords"},
};

/* get_query_result_qbo: a timestamp (nanoseconds: past 32 bits) written into a resource
 * as U64, saturated as I32 and U32, and the availability (index -1) as 1. */
static void test_query_result_qbo(void **state)
{
    (void)state;
    vtest_conn c;
    vtest_conn_init(&c, NULL);
    with_resource(&c);
    const uint32_t cmds[] = {H(1, 9, 4), 8, 2, 0, 1,        /* query 8: TIMESTAMP, at 0 of 1 */
                             H(20, 0, 1), 8,
                             H(42, 0, 6), 8, 1, 0, 3, 16, 0,
                             H(42, 0, 6), 8, 1, 0, 0, 24, 0,
                             H(42, 0, 6), 8, 1, 0, 1, 28, 0,
                             H(42, 0, 6), 8, 1, 0, 1, 32, 0xffffffffu};
    vtest_decode(&c, cmds, sizeof cmds / 4);
    if (c.failed)
        fail_msg("%s", c.error);
    uint64_t ts = 0, stored;
    assert_int_equal(tv_pipe_query_result(c.pipe, 8, &ts), 0);
    assert_true(ts > UINT32_MAX);
    const uint8_t *r = tv_pipe_resource_data(c.pipe, 1);
    memcpy(&stored, r + 16, 8);
    assert_true(stored == ts);
    uint32_t i32, u32, avail;
    memcpy(&i32, r + 24, 4);
    memcpy(&u32, r + 28, 4);
    memcpy(&avail, r + 32, 4);
    assert_int_equal(i32, INT32_MAX);
    assert_int_equal(u32, UINT32_MAX);
    assert_int_equal(avail, 1);
    vtest_conn_fini(&c);
}

static void test_hostile_catalogue(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof catalogue / sizeof catalogue[0]; i++) {
        const hostile *h = &catalogue[i];
        vtest_conn c;
        vtest_conn_init(&c, NULL);
        with_resource(&c);
        vtest_decode(&c, h->dw, h->n);
        if (!c.failed || !strstr(c.error, h->reason))
            fail_msg("%s: error \"%s\", expected \"%s\"", h->name, c.error, h->reason);
        vtest_conn_fini(&c);
    }
    /* the acceptance of issue 18 asks for at least 40 hostile streams (with the
       protocol-level ones of test_hostile_protocol and test_quota_and_disconnect) */
    assert_true(sizeof catalogue / sizeof catalogue[0] >= 50);
}

/* RESOURCE_UNREF of a resource a framebuffer surface views: the next clear names it. */
static void test_resource_unref_under_surface(void **state)
{
    (void)state;
    vtest_conn c;
    vtest_conn_init(&c, NULL);
    with_resource(&c);
    const uint32_t setup[] = {H(1, 8, 5), 10, 1, 67, 0, 0, H(5, 0, 3), 1, 0, 10};
    vtest_decode(&c, setup, sizeof setup / 4);
    assert_false(c.failed);
    assert_int_equal(tv_pipe_resource_destroy(c.pipe, 1), 0);
    const uint32_t clear[] = {H(7, 0, 8), 4, 0, 0, 0, 0, 0, 0, 0};
    vtest_decode(&c, clear, sizeof clear / 4);
    assert_true(c.failed);
    assert_non_null(strstr(c.error, "clear: resource 1 of surface 10 was destroyed"));
    vtest_conn_fini(&c);
}

/* Over the socket: protocol-level garbage ends the connection with a logged reason;
 * a context error is logged once and later submits are refused by name. */
static void test_hostile_protocol(void **state)
{
    (void)state;
    vt_client *c = vt_start(0);
    uint32_t bad[2] = {0, 8}; /* CREATE_RENDERER with an empty name */
    vt_write(c, bad, 8);
    assert_int_equal(vt_finish(c), -1);
    assert_true(vt_logged(c, "create_renderer: name of 0 bytes"));

    c = vt_start(0);
    uint32_t unknown[2] = {0, 99};
    vt_write(c, unknown, 8);
    assert_int_equal(vt_finish(c), -1);
    assert_true(vt_logged(c, "unknown or unimplemented vtest command 99"));

    c = vt_start(0); /* RESOURCE_CREATE2 before negotiating protocol 2 */
    uint32_t rc2[11] = {1, 2, 67, 2, 4, 4, 1, 1, 0, 0, 64};
    vt_cmd(c, 11, 12, rc2, 11);
    assert_int_equal(vt_finish(c), -1);
    assert_true(vt_logged(c, "resource_create2 needs protocol 2"));

    c = vt_start(0); /* a submit that claims 2^24+1 dwords */
    uint32_t big[2] = {(1u << 24) + 1, 6};
    vt_write(c, big, 8);
    assert_int_equal(vt_finish(c), -1);
    assert_true(vt_logged(c, "submit_cmd: 16777217 dwords"));

    c = vt_start(0); /* a context error, then a refused submit */
    uint32_t draw[] = {H(45, 0, 0)}, nop[] = {H(0, 0, 0)};
    vt_submit(c, draw, 1);
    vt_submit(c, nop, 1);
    assert_int_equal(vt_busy_wait(c), 0);
    assert_int_equal(vt_finish(c), 0);
    assert_true(vt_logged(c, "context error: copy_transfer3d: not implemented by texvm"));
    assert_true(vt_logged(c, "refused: the context is in the error state"));
}

/* Handles are looked up in tables, not lists, and every object pays for itself: a stream
 * of 100000 blend objects (the kind virgl_test_server stores without limit) fills a
 * 1 MiB quota and is refused there by name, and the same stream under the default quota
 * creates all of them, and destroys them, giving the memory back. (A list made each
 * creation scan every object: 40000 took 58 s.) */
static void test_many_objects_within_quota(void **state)
{
    (void)state;
    enum { N = 100000, PER = 12 };
    uint32_t *dw = malloc((size_t)N * PER * 2 * sizeof *dw);
    assert_non_null(dw);
    for (uint32_t i = 0; i < N; i++) {
        uint32_t *o = dw + (size_t)i * PER;
        memset(o, 0, PER * sizeof *o);
        o[0] = H(1, 1, 11);
        o[1] = i + 1;
    }
    tv_vtest_config small = {.max_memory = 1u << 20};
    vtest_conn c;
    vtest_conn_init(&c, &small);
    vtest_decode(&c, dw, (size_t)N * PER);
    assert_true(c.failed);
    if (!strstr(c.error, "exceed the memory quota"))
        fail_msg("error \"%s\"", c.error);
    size_t made = tv_pipe_object_count(c.pipe, TV_PIPE_OBJ_BLEND);
    /* every object costs its record and dwords (44 bytes): fewer than 2^20 / 44 fit,
       and no record is over 1 KiB */
    assert_true(made < (1u << 20) / 44 && made > (1u << 20) / 1024);
    assert_true(tv_pipe_memory_used(c.pipe) <= (1u << 20));
    vtest_conn_fini(&c);

    for (uint32_t i = 0; i < N; i++) {   /* then destroy each */
        uint32_t *o = dw + (size_t)N * PER + (size_t)i * 2;
        o[0] = H(3, 1, 1);
        o[1] = i + 1;
    }
    vtest_conn_init(&c, NULL);
    vtest_decode(&c, dw, (size_t)N * PER);
    assert_false(c.failed);
    assert_int_equal(tv_pipe_object_count(c.pipe, TV_PIPE_OBJ_BLEND), N);
    assert_true(tv_pipe_memory_used(c.pipe) > (uint64_t)N * 44);
    vtest_decode(&c, dw + (size_t)N * PER, (size_t)N * 2);
    assert_false(c.failed);
    assert_int_equal(tv_pipe_object_count(c.pipe, TV_PIPE_OBJ_BLEND), 0);
    assert_int_equal(tv_pipe_memory_used(c.pipe), 0);
    vtest_conn_fini(&c);
    free(dw);
}

/* A shader's lowered program counts against the quota too: 2000 ADDs of text (62 KB)
 * fit a 256 KiB quota, their micro-ops and tables do not, and the launch that lowers
 * them is refused by name (the text alone still fits). */
static void test_lowered_shader_within_quota(void **state)
{
    (void)state;
    const char *head = "COMP\nPROPERTY CS_FIXED_BLOCK_WIDTH 1\nPROPERTY CS_FIXED_BLOCK_HEIGHT 1\n"
                       "PROPERTY CS_FIXED_BLOCK_DEPTH 1\nDCL TEMP[0]\n";
    const char *line = "ADD TEMP[0], TEMP[0], TEMP[0]\n";
    size_t len = strlen(head) + 2000 * strlen(line) + strlen("END\n") + 1;
    size_t text_dw = (len + 3) / 4, n = 0;
    uint32_t *dw = calloc(6 + text_dw + 3 + 9, sizeof *dw);
    assert_non_null(dw);
    dw[n++] = H(1, 4, 5 + text_dw), dw[n++] = 3, dw[n++] = 5, dw[n++] = (uint32_t)len;
    dw[n++] = 0, dw[n++] = 0;
    char *t = (char *)(dw + n);
    t[0] = '\0';
    strcat(t, head);
    for (int i = 0; i < 2000; i++)
        strcat(t, line);
    strcat(t, "END\n");
    n += text_dw;
    dw[n++] = H(31, 0, 2), dw[n++] = 3, dw[n++] = 5;
    uint32_t launch[] = {H(37, 0, 8), 1, 1, 1, 1, 1, 1, 0, 0};
    memcpy(dw + n, launch, sizeof launch);
    n += 9;
    tv_vtest_config q = {.max_memory = 256u << 10};
    vtest_conn c;
    vtest_conn_init(&c, &q);
    vtest_decode(&c, dw, n - 9);   /* the text is taken */
    assert_false(c.failed);
    vtest_decode(&c, dw + n - 9, 9);
    assert_true(c.failed);
    if (!strstr(c.error, "launch_grid: lowered shader 3: ") ||
        !strstr(c.error, "exceed the memory quota"))
        fail_msg("error \"%s\"", c.error);
    vtest_conn_fini(&c);

    vtest_conn_init(&c, NULL);     /* under the default quota it runs */
    vtest_decode(&c, dw, n);
    if (c.failed)
        fail_msg("error \"%s\"", c.error);
    vtest_conn_fini(&c);
    free(dw);
}

/* Inline constant data counts too: four 256 KiB slots fill a 1 MiB quota, the fifth is
 * refused by name; setting a slot again gives its old data's share back first. */
static void test_inline_constants_within_quota(void **state)
{
    (void)state;
    enum { NDW = 65536 };
    uint32_t *data = calloc(NDW, 4);
    assert_non_null(data);
    tv_pipe_ctx *ctx = tv_pipe_create((1u << 20) + 4096);
    assert_non_null(ctx);
    for (uint32_t i = 0; i < 4; i++)
        assert_int_equal(tv_pipe_set_constant_buffer(ctx, 1, i, 0, 0, 0, data, NDW), 0);
    for (int again = 0; again < 100; again++)   /* no growth when a slot is replaced */
        assert_int_equal(tv_pipe_set_constant_buffer(ctx, 1, 3, 0, 0, 0, data, NDW), 0);
    assert_int_equal(tv_pipe_memory_used(ctx), 4u * NDW * 4);
    assert_int_equal(tv_pipe_set_constant_buffer(ctx, 1, 4, 0, 0, 0, data, NDW), -1);
    assert_non_null(strstr(tv_pipe_error(ctx), "set_constant_buffer: inline data of slot 4: "
                                               "262144 bytes exceed the memory quota"));
    assert_int_equal(tv_pipe_set_constant_buffer(ctx, 1, 0, 0, 0, 0, NULL, 0), 0);
    assert_int_equal(tv_pipe_memory_used(ctx), 3u * NDW * 4);
    tv_pipe_destroy(ctx);
    free(data);
}

/* Clears, copies and transfers take from a client's total work quota as shaders do (one
 * warp instruction per 128 bytes and 64 per operation): with 10000, the 4x4 RGBA8
 * surface (64 bytes: 64 each) clears 156 times and the 157th is refused by name, and
 * copies run out the same way; without a total quota nothing is charged. */
static void test_byte_operations_work_quota(void **state)
{
    (void)state;
    const uint32_t setup[] = {H(1, 8, 5), 10, 1, 67, 0, 0, H(5, 0, 3), 1, 0, 10};
    const uint32_t clear[] = {H(7, 0, 8), 4, 0, 0, 0, 0, 0, 0, 0};
    const uint32_t copy[] = {H(17, 0, 13), 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 4, 4, 1};
    for (int kind = 0; kind < 2; kind++) {
        tv_vtest_config q = {.max_client_work = 10000};
        vtest_conn c;
        vtest_conn_init(&c, &q);
        with_resource(&c);
        vtest_decode(&c, setup, sizeof setup / 4);
        unsigned done = 0;
        while (!c.failed && done < 1000) {
            if (kind == 0)
                vtest_decode(&c, clear, sizeof clear / 4);
            else
                vtest_decode(&c, copy, sizeof copy / 4);
            done += !c.failed;
        }
        assert_int_equal(done, 10000 / 64);
        const char *want = kind == 0 ? "clear: the context used up its total work quota "
                                       "(10000 warp instructions)"
                                     : "resource_copy_region: the context used up its total "
                                       "work quota (10000 warp instructions)";
        if (!strstr(c.error, want))
            fail_msg("error \"%s\"", c.error);
        vtest_conn_fini(&c);
    }
    tv_pipe_ctx *ctx = tv_pipe_create(0);   /* a context without a total quota */
    tv_pipe_resource_desc d = {2, 67, 2, 4, 4, 1, 1, 0, 0};
    assert_int_equal(tv_pipe_resource_create(ctx, 1, &d), 0);
    tv_pipe_box box = {0, 0, 0, 4, 4, 1};
    uint8_t texel[16] = {1, 2, 3, 4};
    for (int i = 0; i < 1000; i++)
        assert_int_equal(tv_pipe_clear_texture(ctx, 1, 0, &box, texel), 0);
    tv_pipe_destroy(ctx);
}

/* An indirect draw_vbo is one 84-byte command whose buffer may hold 2^24 draws: empty ones
 * (count 0) cost the server their set-up (about 10 us each under ASan) and took nothing
 * from the quotas, so repeating the command kept the server busy without end. Each draw
 * of an indirect command is charged now: a 2^22 total runs out inside 65536 empty draws,
 * named; without a total they all run. */
static void test_indirect_empty_draws_charged(void **state)
{
    (void)state;
    static const char vs[] = "VERT\nDCL IN[0]\nDCL OUT[0], POSITION\n  0: MOV OUT[0], IN[0]\n"
                             "  1: END\n";
    static const char fs[] = "FRAG\nDCL OUT[0], COLOR\nIMM[0] FLT32 {1.0, 0.0, 0.0, 1.0}\n"
                             "  0: MOV OUT[0], IMM[0]\n  1: END\n";
    enum { N = 65536 };
    for (int quota = 0; quota < 2; quota++) {
        tv_vtest_config q = {.max_client_work = quota ? 1u << 22 : 0};
        vtest_conn c;
        vtest_conn_init(&c, &q);
        with_resource(&c);
        tv_pipe_resource_desc ib = {0, 64, 0, N * 16, 1, 1, 1, 0, 0};   /* N zero commands */
        assert_int_equal(tv_pipe_resource_create(c.pipe, 2, &ib), 0);
        uint32_t cmds[256];
        size_t n = 0;
        const uint32_t setup[] = {H(1, 8, 5), 10, 1, 67, 0, 0, H(5, 0, 3), 1, 0, 10,
                                  H(1, 5, 5), 30, 0, 0, 0, 31, H(2, 5, 1), 30};
        memcpy(cmds, setup, sizeof setup);
        n = sizeof setup / 4;
        const char *texts[2] = {vs, fs};
        for (uint32_t k = 0; k < 2; k++) {
            uint32_t len = (uint32_t)strlen(texts[k]) + 1, ndw = (len + 3) / 4;
            cmds[n++] = H(1, 4, 5 + ndw);
            cmds[n++] = 20 + k, cmds[n++] = k, cmds[n++] = len, cmds[n++] = 0, cmds[n++] = 0;
            memset(cmds + n, 0, ndw * 4);
            memcpy(cmds + n, texts[k], len);
            n += ndw;
            cmds[n++] = H(31, 0, 2), cmds[n++] = 20 + k, cmds[n++] = k;
        }
        /* draw_vbo, indirect: buffer 2, offset 0, stride 16, N draws */
        const uint32_t draw[21] = {H(8, 0, 20), 0, 3, 4, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                   2, 0, 16, N, 0, 0};
        memcpy(cmds + n, draw, sizeof draw);
        n += 21;
        vtest_decode(&c, cmds, n);
        if (!quota) {
            if (c.failed)
                fail_msg("%s", c.error);
        } else if (!c.failed || !strstr(c.error, "draw_vbo (indirect): the context used up "
                                                 "its total work quota")) {
            fail_msg("error \"%s\"", c.error);
        }
        vtest_conn_fini(&c);
    }
}

/* CREATE_RENDERER's name is the client's choice, and was logged as it came: a newline in
 * it forged a log line, terminal escapes reached whoever reads the log, a NUL hid the
 * rest. Now every byte outside printable ASCII (and the quote and the backslash) is
 * logged as \xNN, and a name past 64 bytes is cut, saying so. */
static void test_renderer_name_escaped(void **state)
{
    (void)state;
    vt_client *c = vt_start(0);
    static const char name[] = "evil\nclient 2: disconnected (clean)\x1b[2J\"\\\0hidden";
    uint32_t hdr[2] = {sizeof name - 1, 8};
    vt_write(c, hdr, 8);
    vt_write(c, name, sizeof name - 1);
    assert_int_equal(vt_busy_wait(c), 0);
    assert_int_equal(vt_finish(c), 0);
    assert_true(vt_logged(c, "client \"evil\\x0aclient 2: disconnected (clean)\\x1b[2J"
                             "\\x22\\x5c\\x00hidden\"\n"));
    assert_null(strchr(c->log, '\x1b'));
    assert_null(strstr(c->log, "\nclient 2:"));

    c = vt_start(0);
    char longname[200];
    memset(longname, 'a', sizeof longname);
    hdr[0] = sizeof longname;
    vt_write(c, hdr, 8);
    vt_write(c, longname, sizeof longname);
    assert_int_equal(vt_busy_wait(c), 0);
    assert_int_equal(vt_finish(c), 0);
    char want[96];
    snprintf(want, sizeof want, "client \"%.64s\" (cut)\n", longname);
    assert_true(vt_logged(c, want));
}

/* A draw adds to the queries begun and not ended, at most 64 of them per sub-context
 * (GL has about 40 targets): the 65th begin is refused by name; ending one or destroying
 * an active one makes room (a destroyed query left in the list would not). */
static void test_active_query_limit(void **state)
{
    (void)state;
    enum { NQ = 65 };
    uint32_t dw[NQ * 7 + 16];
    size_t n = 0;
    for (uint32_t q = 1; q <= NQ; q++) {   /* occlusion counters, results at 0 of res 1 */
        dw[n++] = H(1, 9, 4), dw[n++] = 100 + q, dw[n++] = 0, dw[n++] = 0, dw[n++] = 1;
    }
    for (uint32_t q = 1; q < NQ; q++)
        dw[n++] = H(19, 0, 1), dw[n++] = 100 + q;
    vtest_conn c;
    vtest_conn_init(&c, NULL);
    with_resource(&c);
    vtest_decode(&c, dw, n);
    assert_false(c.failed);
    uint32_t more[] = {H(19, 0, 1), 100 + NQ};
    vtest_decode(&c, more, 2);
    assert_true(c.failed);
    if (!strstr(c.error, "begin_query 165: 64 queries are counting already (at most 64"))
        fail_msg("error \"%s\"", c.error);
    vtest_conn_fini(&c);

    /* the same 64, then query 101 ended and 102 destroyed: two more may begin */
    vtest_conn_init(&c, NULL);
    with_resource(&c);
    vtest_decode(&c, dw, n);
    uint32_t room[] = {H(20, 0, 1), 101, H(3, 9, 1), 102, H(19, 0, 1), 165, H(19, 0, 1), 101,
                       H(19, 0, 1), 102};
    vtest_decode(&c, room, 8);
    assert_false(c.failed);
    vtest_decode(&c, room + 8, 2);     /* 102 is gone */
    assert_true(c.failed);
    assert_non_null(strstr(c.error, "begin_query: no query 102"));
    vtest_conn_fini(&c);
}

/* Resources pay for their records, shared memory for whole pages: 1-byte buffers fill a
 * 1 MiB quota long before 2^20 of them, and 4-byte RESOURCE_CREATE2 memfds a 64 KiB one
 * at 15 (not 16384). */
static void test_small_resources_pay_records(void **state)
{
    (void)state;
    tv_pipe_ctx *ctx = tv_pipe_create(1u << 20);
    assert_non_null(ctx);
    tv_pipe_resource_desc buf = {0, 64, 0, 1, 1, 1, 1, 0, 0};   /* a 1-byte R8 buffer */
    uint32_t made = 0;
    while (made < (1u << 20) && tv_pipe_resource_create(ctx, made + 1, &buf) == 0)
        made++;
    assert_true(made > 1000 && made < (1u << 20) / 64);
    assert_non_null(strstr(tv_pipe_error(ctx), "exceed the memory quota"));
    assert_true(tv_pipe_memory_used(ctx) <= (1u << 20));
    for (uint32_t h = 1; h <= made; h++)
        assert_int_equal(tv_pipe_resource_destroy(ctx, h), 0);
    assert_int_equal(tv_pipe_memory_used(ctx), 0);
    tv_pipe_destroy(ctx);

    vt_client *vc = vt_start(64u << 10);
    assert_int_equal(vt_negotiate(vc, 2), 2);
    for (uint32_t h = 1; h <= 20; h++) {
        vt_resource_create(vc, h, 67, 1, 1, 1, 4);
        int fd = vt_recv_fd(vc);
        assert_true(fd >= 0);
        close(fd);
    }
    assert_int_equal(vt_busy_wait(vc), 0);
    assert_int_equal(vt_finish(vc), 0);
    /* 4096 bytes and the record each: 15 fit in 64 KiB, the 16th does not */
    assert_true(vt_logged(vc, "resource_create2 16: 4 bytes of shared memory exceed the quota"));
    assert_false(vt_logged(vc, "resource_create2 15:"));
}

static void test_quota_and_disconnect(void **state)
{
    (void)state;
    vt_client *c = vt_start(4096); /* 4 KiB per client */
    uint32_t rc[10] = {1, 2, 67, 2, 64, 64, 1, 1, 0, 0}; /* 16 KiB */
    vt_cmd(c, 10, 2, rc, 10);
    assert_int_equal(vt_busy_wait(c), 0);
    assert_true(vt_logged(c, "exceed the memory quota"));
    assert_int_equal(vt_finish(c), 0);

    /* a disconnect in the middle of a submit and of a transfer_put: clean, no leak
     * (the ASan build checks the latter) */
    c = vt_start(0);
    uint32_t half[3] = {100, 6, 0};
    vt_write(c, half, 12);
    assert_int_equal(vt_finish(c), 0);
    assert_true(vt_logged(c, "disconnected in the middle of a command"));
    c = vt_start(0);
    uint32_t rc0[10] = {1, 2, 67, 2, 4, 4, 1, 1, 0, 0};
    vt_cmd(c, 10, 2, rc0, 10);
    uint32_t put[11] = {1, 0, 16, 64, 0, 0, 0, 4, 4, 1, 64};
    vt_cmd(c, 11 + 16, 5, put, 11);
    vt_write(c, put, 20); /* 20 of the 64 data bytes */
    assert_int_equal(vt_finish(c), 0);
    assert_true(vt_logged(c, "disconnected in the middle of a command"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table_coverage),
        cmocka_unit_test(test_docs_table_matches),
        cmocka_unit_test(test_query_result_qbo),
        cmocka_unit_test(test_shader_multi_packet),
        cmocka_unit_test(test_hostile_catalogue),
        cmocka_unit_test(test_resource_unref_under_surface),
        cmocka_unit_test(test_hostile_protocol),
        cmocka_unit_test(test_quota_and_disconnect),
        cmocka_unit_test(test_many_objects_within_quota),
        cmocka_unit_test(test_active_query_limit),
        cmocka_unit_test(test_byte_operations_work_quota),
        cmocka_unit_test(test_inline_constants_within_quota),
        cmocka_unit_test(test_lowered_shader_within_quota),
        cmocka_unit_test(test_small_resources_pay_records),
        cmocka_unit_test(test_indirect_empty_draws_charged),
        cmocka_unit_test(test_renderer_name_escaped),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
