/* PNG and raw I/O: round trips at 8 and 16 bits for every channel count, errors, and PNG
 * texture sources (bytes unchanged into UNORM and sRGB formats, size from the file). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "helper_cli.h"
#include "image.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void round_trip(int channels, int bits)
{
    image img = {5, 3, channels, bits, NULL};
    size_t n = 5 * 3 * (size_t)channels;
    img.px = malloc(n * sizeof *img.px);
    assert_non_null(img.px);
    unsigned maxv = bits == 16 ? 65535u : 255u;
    for (size_t i = 0; i < n; i++)
        img.px[i] = (uint16_t)((i * 7919u + 13u) % (maxv + 1u));
    char name[64], msg[512];
    snprintf(name, sizeof name, "rt_%d_%d.png", channels, bits);
    const char *path = tcli_path(name);
    assert_int_equal(image_png_write(path, &img, msg, sizeof msg), 0);
    image_info info;
    assert_int_equal(image_png_info(path, &info, msg, sizeof msg), 0);
    assert_int_equal(info.width, 5);
    assert_int_equal(info.height, 3);
    assert_int_equal(info.channels, channels);
    assert_int_equal(info.bits, bits);
    image back;
    assert_int_equal(image_png_read(path, &back, msg, sizeof msg), 0);
    assert_int_equal(back.width, 5);
    assert_int_equal(back.height, 3);
    assert_int_equal(back.channels, channels);
    assert_int_equal(back.bits, bits);
    assert_memory_equal(back.px, img.px, n * sizeof *img.px);
    image_free(&back);
    image_free(&img);
}

static void round_trips(void **state)
{
    (void)state;
    for (int c = 1; c <= 4; c++) {
        round_trip(c, 8);
        round_trip(c, 16);
    }
}

static void errors(void **state)
{
    (void)state;
    char msg[512], want[700];
    image img;
    const char *bad = tcli_write("bad.png", "not a png at all", 16);
    assert_int_equal(image_png_read(bad, &img, msg, sizeof msg), 1);
    snprintf(want, sizeof want, "\"%s\" is not a PNG file", bad);
    assert_string_equal(msg, want);
    const char *missing = tcli_path("missing.png");
    assert_int_equal(image_png_read(missing, &img, msg, sizeof msg), 3);
    snprintf(want, sizeof want, "cannot read \"%s\": No such file or directory", missing);
    assert_string_equal(msg, want);
    /* a truncated PNG: signature and part of the header */
    image ok = {2, 2, 3, 8, NULL};
    uint16_t px[12] = {0};
    ok.px = px;
    const char *full = tcli_path("full.png");
    assert_int_equal(image_png_write(full, &ok, msg, sizeof msg), 0);
    FILE *f = fopen(full, "rb");
    assert_non_null(f);
    unsigned char head[20];
    assert_int_equal(fread(head, 1, sizeof head, f), sizeof head);
    fclose(f);
    const char *trunc = tcli_write("trunc.png", head, sizeof head);
    assert_int_equal(image_png_read(trunc, &img, msg, sizeof msg), 1);
    snprintf(want, sizeof want, "\"%s\": bad PNG: ", trunc);
    assert_memory_equal(msg, want, strlen(want));
    /* writing into a missing folder */
    snprintf(want, sizeof want, "%s/no/such/dir/x.png", tcli_tmpdir());
    assert_int_equal(image_png_write(want, &ok, msg, sizeof msg), 3);
    assert_int_equal(image_raw_write(want, "x", 1, msg, sizeof msg), 3);
}

static void png_textures(void **state)
{
    (void)state;
    /* 2x2 RGB: bytes go to RGBA8 unchanged, alpha 255 */
    image rgb = {2, 2, 3, 8, NULL};
    uint16_t px[12] = {0, 1, 2, 50, 100, 150, 200, 201, 202, 255, 128, 7};
    rgb.px = px;
    char msg[512];
    assert_int_equal(image_png_write(tcli_path("rgb.png"), &rgb, msg, sizeof msg), 0);
    /* 16-bit gray+alpha, 1x3 */
    image ga = {1, 3, 2, 16, NULL};
    uint16_t gpx[6] = {0, 65535, 12345, 54321, 65535, 1};
    ga.px = gpx;
    assert_int_equal(image_png_write(tcli_path("ga16.png"), &ga, msg, sizeof msg), 0);
    job *j = tcli_load_ok(
        "{'texvm_job': 1, 'programs': [{'tgsi_text': 'FRAG\\n'}], 'frag': {'size': [1, 1]},"
        " 'textures': [{'format': 'R8G8B8A8_UNORM', 'source': {'png': 'rgb.png'}},"
        "  {'format': 'R8G8B8A8_SRGB', 'source': {'png': 'rgb.png'}},"
        "  {'format': 'R16G16B16A16_UNORM', 'source': {'png': 'ga16.png'}},"
        "  {'format': 'R8G8B8A8_UINT', 'source': {'png': 'rgb.png'}},"
        "  {'type': '2D_ARRAY', 'layers': 3, 'format': 'R16_UNORM', 'source': {'png': 'ga16.png'}}]}");
    for (int t = 0; t < 2; t++) {
        const job_texture *tx = &j->textures[t];
        assert_int_equal(tx->width, 2);
        assert_int_equal(tx->height, 2);
        for (int p = 0; p < 4; p++) {
            for (int c = 0; c < 3; c++)
                assert_int_equal(tx->data[4 * p + c], px[3 * p + c]);
            assert_int_equal(tx->data[4 * p + 3], 255);
        }
    }
    const uint16_t *g = (const uint16_t *)j->textures[2].data;
    assert_int_equal(j->textures[2].width, 1);
    assert_int_equal(j->textures[2].height, 3);
    /* gray -> R=G=B, alpha from the PNG; texel 1 = (12345, 12345, 12345, 54321) */
    assert_int_equal(g[4], 12345);
    assert_int_equal(g[5], 12345);
    assert_int_equal(g[6], 12345);
    assert_int_equal(g[7], 54321);
    /* UINT formats take the integer value */
    assert_int_equal(j->textures[3].data[4], 50);
    /* stacked layers: 3 rows = 3 layers of height 1 */
    assert_int_equal(j->textures[4].height, 1);
    assert_int_equal(((const uint16_t *)j->textures[4].data)[2], 65535);
    tv_job_free(j);
    /* wrong size for the stated dimensions */
    char want[700];
    snprintf(want, sizeof want,
             "at key \"textures[0].source\": \"%s\" is 2x2, level 0 needs 4x4",
             tcli_path("rgb.png"));
    tcli_load_fail("{'texvm_job': 1, 'programs': [{'tgsi_text': 'FRAG\\n'}], 'frag': {'size': [1, 1]},"
                   " 'textures': [{'format': 'R8G8B8A8_UNORM', 'width': 4, 'height': 4,"
                   " 'source': {'png': 'rgb.png'}}]}",
                   TV_JOB_ERR_INVALID, want);
}

/* A cube map from six PNG faces (layer_sources), one of them a pattern, with a generated
 * chain: each face holds its own image. */
static void cube_from_faces(void **state)
{
    (void)state;
    char msg[512];
    for (int f = 0; f < 5; f++) {
        image img = {2, 2, 3, 8, NULL};
        uint16_t px[12];
        for (int i = 0; i < 12; i++)
            px[i] = (uint16_t)(f * 40 + 2 * i);
        img.px = px;
        char name[32];
        snprintf(name, sizeof name, "face%d.png", f);
        assert_int_equal(image_png_write(tcli_path(name), &img, msg, sizeof msg), 0);
    }
    job *j = tcli_load_ok(
        "{'texvm_job': 1, 'programs': [{'tgsi_text': 'FRAG\\n'}], 'frag': {'size': [1, 1]},"
        " 'textures': [{'type': 'CUBE', 'format': 'R8G8B8A8_UNORM', 'mipmaps': 'generate',"
        "  'layer_sources': [{'png': 'face0.png'}, {'png': 'face1.png'}, {'png': 'face2.png'},"
        "   {'png': 'face3.png'}, {'png': 'face4.png'}, {'pattern': 'layers'}]}]}");
    const job_texture *t = &j->textures[0];
    assert_int_equal(t->width, 2);
    assert_int_equal(t->height, 2);
    assert_int_equal(t->levels, 2);
    for (int f = 0; f < 5; f++)
        for (int p = 0; p < 4; p++) {
            for (int c = 0; c < 3; c++)
                assert_int_equal(t->data[(f * 4 + p) * 4 + c], f * 40 + 2 * (p * 3 + c));
            assert_int_equal(t->data[(f * 4 + p) * 4 + 3], 255);
        }
    /* face 5: the layers pattern's colour 5 (cyan) */
    assert_int_equal(t->data[(5 * 4) * 4 + 0], 0);
    assert_int_equal(t->data[(5 * 4) * 4 + 1], 255);
    assert_int_equal(t->data[(5 * 4) * 4 + 2], 255);
    /* level 1 of face 2: the mean of its four texels, red 80, 86, 92, 98 -> 89 */
    const uint8_t *l1 = t->data + t->level_offset[1];
    assert_int_equal(l1[2 * 4 + 0], 89);
    tv_job_free(j);
    tcli_load_fail("{'texvm_job': 1, 'programs': [{'tgsi_text': 'FRAG\\n'}], 'frag': {'size': [1, 1]},"
                   " 'textures': [{'type': 'CUBE', 'format': 'R8G8B8A8_UNORM', 'width': 2,"
                   "  'height': 2, 'layer_sources': [{'png': 'face0.png'}]}]}",
                   TV_JOB_ERR_INVALID, "at key \"textures[0].layer_sources\": 1 sources for 6 layers");
    tcli_load_fail("{'texvm_job': 1, 'programs': [{'tgsi_text': 'FRAG\\n'}], 'frag': {'size': [1, 1]},"
                   " 'textures': [{'type': '2D_ARRAY', 'layers': 2, 'levels': 2, 'format': 'R8_UNORM',"
                   "  'width': 2, 'height': 2, 'layer_sources': [{'fill': [1]}, {'fill': [0]}]}]}",
                   TV_JOB_ERR_INVALID,
                   "at key \"textures[0].layer_sources\": level 1 has no data: set \"mipmaps\": "
                   "\"generate\"");
    tcli_load_fail("{'texvm_job': 1, 'programs': [{'tgsi_text': 'FRAG\\n'}], 'frag': {'size': [1, 1]},"
                   " 'textures': [{'format': 'R8_UNORM', 'width': 2, 'source': {'fill': [1]},"
                   "  'layer_sources': [{'fill': [0]}]}]}",
                   TV_JOB_ERR_INVALID,
                   "at key \"textures[0].layer_sources\": give one of \"source\", "
                   "\"level_sources\" and \"layer_sources\"");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(round_trips),
        cmocka_unit_test(errors),
        cmocka_unit_test(png_textures),
        cmocka_unit_test(cube_from_faces),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
