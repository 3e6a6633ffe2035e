/* The vtest server as Mesa 22.3's winsys drives it: handshake, caps, resources and
 * transfers in protocol 0 (inline data) and 2 (memfd), clear and read back. */
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

enum { RGBA8 = 67, BGRA8 = 1, TEX2D = 2 };

static void create_renderer(vt_client *c)
{
    const char name[] = "test_protocol";
    uint32_t hdr[2] = {sizeof name, 8};
    vt_write(c, hdr, 8);
    vt_write(c, name, sizeof name);
}

static void test_handshake(void **state)
{
    (void)state;
    vt_client *c = vt_start(0);
    create_renderer(c);
    /* Mesa: PING_PROTOCOL_VERSION and a dummy RESOURCE_BUSY_WAIT, then the version. */
    uint32_t ping[2] = {0, 10}, r[2];
    vt_write(c, ping, 8);
    uint32_t bw[2] = {0, 0};
    vt_cmd(c, 2, 7, bw, 2);
    assert_int_equal(vt_read(c, r, 8), 0);
    assert_int_equal(r[0], 0);
    assert_int_equal(r[1], 10);
    uint32_t busy[3];
    assert_int_equal(vt_read(c, busy, 12), 0);
    assert_int_equal(busy[0], 1);
    assert_int_equal(busy[1], 7);
    assert_int_equal(busy[2], 0);
    assert_int_equal(vt_negotiate(c, 2), 2);
    assert_int_equal(vt_negotiate(c, 7), 2); /* capped at texvm's highest */
    assert_int_equal(vt_negotiate(c, 1), 0); /* 1 is deprecated: Mesa treats it as 0 */
    assert_int_equal(vt_finish(c), 0);
    assert_true(vt_logged(c, "client \"test_protocol\""));
}

#define HAS(caps, mask_at, f) (((caps)[(mask_at) + (f) / 32] >> ((f) % 32)) & 1u)

static void test_caps(void **state)
{
    (void)state;
    vt_client *c = vt_start(0);
    uint32_t req[4] = {0, 9, 0, 1}; /* GET_CAPS2 then GET_CAPS, as Mesa sends them */
    vt_write(c, req, sizeof req);
    for (int v = 2; v >= 1; v--) {
        /* virgl_caps_v2 as Mesa 22.3 reads it: 1384 bytes; v1: 308 */
        uint32_t hdr[2], caps[346];
        size_t bytes = v == 2 ? 1384 : 308;
        assert_int_equal(vt_read(c, hdr, 8), 0);
        assert_int_equal(hdr[1], (uint32_t)v);      /* GET_CAPS2 answers with id 2 */
        assert_int_equal(hdr[0], bytes + 1);        /* length = bytes + 1 */
        assert_int_equal(vt_read(c, caps, bytes), 0);
        assert_int_equal(caps[0], (uint32_t)v);     /* max_version */
        assert_true(HAS(caps, 1, RGBA8));           /* sampler */
        assert_true(HAS(caps, 17, RGBA8));          /* render */
        assert_true(HAS(caps, 17, BGRA8));
        assert_true(HAS(caps, 33, 18));             /* Z32_FLOAT: depth, not colour */
        assert_false(HAS(caps, 17, 18));
        assert_true(HAS(caps, 49, 31));             /* vertex: R32G32B32A32_FLOAT */
        assert_true(HAS(caps, 49, 66));             /* R8G8B8_UNORM: vertex only */
        assert_false(HAS(caps, 1, 66));
        assert_false(HAS(caps, 49, 18));
        assert_int_equal(caps[66], 430);            /* glsl_level: GL 4.3 core */
        /* the block formats by virgl's numbers, sampler only: BPTC (255-258; Mesa offers
           ARB_texture_compression_bptc, so GL 4.2), S3TC (105-112), RGTC (113-116) */
        for (unsigned f = 255; f <= 258; f++) {
            assert_true(HAS(caps, 1, f));
            assert_false(HAS(caps, 17, f));
        }
        for (unsigned f = 105; f <= 116; f++) {
            assert_true(HAS(caps, 1, f));
            assert_false(HAS(caps, 17, f));
            assert_false(HAS(caps, 49, f));
        }
        assert_true(caps[65] & (1u << 29));         /* bset.derivative_control */
        assert_true(caps[65] & (1u << 28));         /* bset.conditional_render_inverted */
        assert_int_equal(caps[70], 8);              /* max_render_targets */
        assert_int_equal(caps[71], 4);              /* max_samples */
        assert_true(caps[65] & (1u << 14));         /* bset.texture_multisample */
        assert_int_equal(caps[72], 0x7c7fu);       /* prim_mask: points .. fans, adjacency, patches */
        if (v == 2) {
            assert_int_equal(caps[77 + 12], 16);    /* max_vertex_attribs */
            assert_true(caps[98] & (1u << 13));     /* VIRGL_CAP_TGSI_COMPONENTS */
            /* VIRGL_CAP_TEXTURE_VIEW (bit 1) and VIRGL_CAP_COPY_IMAGE (bit 3): virgl_hw.h */
            assert_true(caps[98] & (1u << 1));
            assert_true(caps[98] & (1u << 3));
            /* VIRGL_CAP_TXQS (bit 5: ARB_shader_texture_image_samples) and
               VIRGL_CAP_CLEAR_TEXTURE (bit 30: ARB_clear_texture); not
               VIRGL_CAP_ARB_BUFFER_STORAGE (bit 31: no coherent mappings over vtest) */
            assert_true(caps[98] & (1u << 5));
            assert_true(caps[98] & (1u << 30));
            assert_false(caps[98] & (1u << 31));
            /* sample_locations: D3D's standard patterns, x and y in 1/16 pixel as nibbles:
             * 2x (12,12) (4,4); 4x (6,2) (14,6) (2,10) (10,14) */
            assert_int_equal(caps[99], 0x44ccu);
            assert_int_equal(caps[100], 0xae2ae662u);
            assert_string_equal((const char *)(caps + 174), "texvm (software GPU)");
        }
    }
    assert_int_equal(vt_finish(c), 0);
}


static void test_v0_round_trip(void **state)
{
    (void)state;
    vt_client *c = vt_start(0);
    vt_resource_create(c, 5, RGBA8, 4, 3, 0, 0);
    uint8_t data[48], back[16];
    for (int i = 0; i < 48; i++)
        data[i] = (uint8_t)(i * 7 + 1);
    /* PUT the whole 4x3 level; the length counts the data in dwords. */
    uint32_t put[11] = {5, 0, 16, 48, 0, 0, 0, 4, 3, 1, 48};
    vt_cmd(c, 11 + 12, 5, put, 11);
    vt_write(c, data, 48);
    /* GET the 2x2 box at (1,1) with a tight 8-byte stride. */
    uint32_t get[11] = {5, 0, 8, 16, 1, 1, 0, 2, 2, 1, 16};
    vt_cmd(c, 11, 4, get, 11);
    assert_int_equal(vt_read(c, back, 16), 0);
    for (int y = 0; y < 2; y++)
        assert_memory_equal(back + y * 8, data + (1 + y) * 16 + 4, 8);
    assert_int_equal(vt_busy_wait(c), 0);
    assert_int_equal(vt_finish(c), 0);
    assert_false(strstr(c->log, "context error"));
}

/* A protocol-0 transfer stages its data_size bytes in the server: they must fit in what
 * the resources leave of the memory quota (they came on top of it: a client holding a
 * full quota of resources made the server allocate another quota per transfer). With a
 * 1 MiB quota and a 768 KiB resource, a GET of 512 KiB ends the connection, named; one
 * of 64 KiB is answered. */
static void test_v0_staging_within_quota(void **state)
{
    (void)state;
    for (int big = 0; big < 2; big++) {
        vt_client *c = vt_start(1u << 20);
        vt_resource_create(c, 5, RGBA8, 512, 384, 0, 0);   /* 768 KiB */
        uint32_t n = big ? 512u << 10 : 64u << 10;
        uint32_t get[11] = {5, 0, 2048, 0, 0, 0, 0, 512, n / 2048, 1, n};
        vt_cmd(c, 11, 4, get, 11);
        static uint8_t back[512 << 10];
        int rc = vt_read(c, back, n);
        vt_finish(c);
        if (big) {
            assert_int_not_equal(rc, 0);
            if (!strstr(c->log, "transfer_get: data_size 524288 exceeds the memory "
                                   "quota (") || !strstr(c->log, " of 1048576 used)"))
                fail_msg("log:\n%s", c->log);
        } else {
            assert_int_equal(rc, 0);
            assert_null(strstr(c->log, "exceeds"));
        }
    }
}

static void test_v2_round_trip(void **state)
{
    (void)state;
    vt_client *c = vt_start(0);
    assert_int_equal(vt_negotiate(c, 2), 2);
    uint8_t *m = vt_create2(c, 9, RGBA8, 4, 4), copy[64];
    for (int i = 0; i < 64; i++)
        m[i] = copy[i] = (uint8_t)(255 - i);
    /* upload: TRANSFER3D to host inside the command stream */
    uint32_t up[14] = {VT_CMD(43, 0, 13), 9, 0, 0, 16, 64, 0, 0, 0, 4, 4, 1, 0, 1};
    vt_submit(c, up, 14);
    assert_int_equal(vt_busy_wait(c), 0); /* the upload has read the memory */
    memset(m, 0, 64);
    /* readback: TRANSFER_GET2 of rows 1..2 at their own offset, then a busy wait */
    uint32_t get[10] = {9, 0, 0, 1, 0, 4, 2, 1, 0, 16};
    vt_cmd(c, 10, 13, get, 10);
    assert_int_equal(vt_busy_wait(c), 0);
    assert_memory_equal(m + 16, copy + 16, 32);
    assert_int_equal(m[0], 0);
    assert_int_equal(m[48], 0);
    munmap(m, 64);
    assert_int_equal(vt_finish(c), 0);
    assert_false(strstr(c->log, "context error"));
}

static void test_clear_read_back(void **state)
{
    (void)state;
    vt_client *c = vt_start(0);
    assert_int_equal(vt_negotiate(c, 2), 2);
    uint8_t *a = vt_create2(c, 1, RGBA8, 4, 2), *b = vt_create2(c, 2, BGRA8, 4, 2);
    uint32_t cmds[] = {
        VT_CMD(29, 0, 1), 1, VT_CMD(28, 0, 1), 1,                 /* sub-context 1 */
        VT_CMD(1, 8, 5), 10, 1, RGBA8, 0, 0,                        /* surface 10 on res 1 */
        VT_CMD(1, 8, 5), 11, 2, BGRA8, 0, 0,                        /* surface 11 on res 2 */
        VT_CMD(5, 0, 4), 2, 0, 10, 11,                              /* two colour buffers */
        VT_CMD(7, 0, 8), 0x4 | 0x8, tv_f32_bits(1.0f), tv_f32_bits(0.0f), tv_f32_bits(0.25f), tv_f32_bits(1.0f), 0, 0,
        0,
    };
    vt_submit(c, cmds, sizeof cmds / 4);
    vt_transfer_get(c, 1, 4, 2);
    vt_transfer_get(c, 2, 4, 2);
    assert_int_equal(vt_busy_wait(c), 0);
    /* UNORM8 of 0.25: round(63.75) = 64 (Gallium's float -> unorm rule) */
    for (int i = 0; i < 8; i++) {
        const uint8_t rgba[4] = {255, 0, 64, 255}, bgra[4] = {64, 0, 255, 255};
        assert_memory_equal(a + 4 * i, rgba, 4);
        assert_memory_equal(b + 4 * i, bgra, 4);
    }
    assert_int_equal(vt_finish(c), 0);
    assert_false(strstr(c->log, "context error"));
}


/* Two sub-contexts (two GL contexts of one client): the same surface handle in each names
 * its own surface, each keeps its own framebuffer across switches, and destroying one
 * leaves the other drawing. */
static void test_sub_contexts(void **state)
{
    (void)state;
    vt_client *c = vt_start(0);
    assert_int_equal(vt_negotiate(c, 2), 2);
    uint8_t *a = vt_create2(c, 1, RGBA8, 4, 2), *b = vt_create2(c, 2, RGBA8, 4, 2);
    uint32_t cmds[] = {
        VT_CMD(29, 0, 1), 1, VT_CMD(28, 0, 1), 1,                 /* sub-context 1 */
        VT_CMD(1, 8, 5), 10, 1, RGBA8, 0, 0,                        /* its surface 10: res 1 */
        VT_CMD(5, 0, 3), 1, 0, 10,
        VT_CMD(29, 0, 1), 2, VT_CMD(28, 0, 1), 2,                 /* sub-context 2 */
        VT_CMD(1, 8, 5), 10, 2, RGBA8, 0, 0,                        /* its surface 10: res 2 */
        VT_CMD(5, 0, 3), 1, 0, 10,
        VT_CMD(7, 0, 8), 0x4, tv_f32_bits(0.0f), tv_f32_bits(0.0f), tv_f32_bits(1.0f), tv_f32_bits(1.0f), 0, 0, 0,
        VT_CMD(28, 0, 1), 1,                                        /* back to 1 */
        VT_CMD(30, 0, 1), 2,                                        /* 2 goes */
        VT_CMD(7, 0, 8), 0x4, tv_f32_bits(0.0f), tv_f32_bits(1.0f), tv_f32_bits(0.0f), tv_f32_bits(1.0f), 0, 0, 0,
    };
    vt_submit(c, cmds, sizeof cmds / 4);
    vt_transfer_get(c, 1, 4, 2);
    vt_transfer_get(c, 2, 4, 2);
    assert_int_equal(vt_busy_wait(c), 0);
    for (int i = 0; i < 8; i++) {
        const uint8_t green[4] = {0, 255, 0, 255}, blue[4] = {0, 0, 255, 255};
        assert_memory_equal(a + 4 * i, green, 4);
        assert_memory_equal(b + 4 * i, blue, 4);
    }
    assert_int_equal(vt_finish(c), 0);
}

static void test_depth_clear(void **state)
{
    (void)state;
    vt_client *c = vt_start(0);
    assert_int_equal(vt_negotiate(c, 2), 2);
    uint8_t *z = vt_create2(c, 3, 18 /* Z32_FLOAT */, 2, 2);
    uint32_t cmds[] = {
        VT_CMD(1, 8, 5), 20, 3, 18, 0, 0,
        VT_CMD(5, 0, 2), 0, 20,
        VT_CMD(7, 0, 8), 0x1, 0, 0, 0, 0, 0, 0x3fe00000u /* 0.5 as a double */, 0,
    };
    vt_submit(c, cmds, sizeof cmds / 4);
    vt_transfer_get(c, 3, 2, 2);
    assert_int_equal(vt_busy_wait(c), 0);
    for (int i = 0; i < 4; i++) {
        float f;
        memcpy(&f, z + 4 * i, 4);
        assert_true(f == 0.5f);
    }
    assert_int_equal(vt_finish(c), 0);
    assert_false(strstr(c->log, "context error"));
}

/* clear_texture (ARB_clear_texture; the caps' VIRGL_CAP_CLEAR_TEXTURE): Mesa's driver sends
 * the texel its state tracker packed in the resource's format, raw in four dwords; the box
 * gets it byte for byte, every other texel keeps its bytes. A depth-stencil texel
 * (Z24_UNORM_S8_UINT: depth 0.5 -> 0x800000 in the low 24 bits, stencil 0x33 above) too. */
static void test_clear_texture(void **state)
{
    (void)state;
    vt_client *c = vt_start(0);
    assert_int_equal(vt_negotiate(c, 2), 2);
    uint8_t *a = vt_create2(c, 1, RGBA8, 4, 3), *z = vt_create2(c, 2, 19, 2, 2);
    const uint32_t cmds[] = {
        /* resource 1, level 0, box x 1, y 1, z 0, 2 x 2 x 1, texel bytes 1 2 3 4 */
        VT_CMD(47, 0, 12), 1, 0, 1, 1, 0, 2, 2, 1, 0x04030201u, 0xdddddddd, 0xdddddddd, 0xdddddddd,
        VT_CMD(47, 0, 12), 2, 0, 0, 0, 0, 2, 2, 1, 0x33800000u, 0, 0, 0,
    };
    vt_submit(c, cmds, sizeof cmds / 4);
    vt_transfer_get(c, 1, 4, 3);
    vt_transfer_get(c, 2, 2, 2);
    assert_int_equal(vt_busy_wait(c), 0);
    for (int y = 0; y < 3; y++)
        for (int x = 0; x < 4; x++) {
            bool in = x >= 1 && x < 3 && y >= 1;
            const uint8_t want[4] = {in ? 1 : 0, in ? 2 : 0, in ? 3 : 0, in ? 4 : 0};
            assert_memory_equal(a + 4 * (y * 4 + x), want, 4);
        }
    for (int i = 0; i < 4; i++) {
        uint32_t w;
        memcpy(&w, z + 4 * i, 4);
        assert_int_equal(w, 0x33800000u);
    }
    munmap(a, 48);
    munmap(z, 16);
    assert_int_equal(vt_finish(c), 0);
    assert_false(strstr(c->log, "context error"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_handshake),     cmocka_unit_test(test_caps),
        cmocka_unit_test(test_v0_round_trip), cmocka_unit_test(test_v0_staging_within_quota),
        cmocka_unit_test(test_v2_round_trip),
        cmocka_unit_test(test_clear_read_back),
        cmocka_unit_test(test_sub_contexts), cmocka_unit_test(test_depth_clear),
        cmocka_unit_test(test_clear_texture),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
