/* tess-demo: issue 17's demo — a tessellated, displacement-mapped surface drawn by texvm's
 * pipe layer (include/texvm/pipe.h) and written as a PNG.
 *
 *   tess-demo OUT.png
 *
 * An 8 x 8 grid of quad patches over [-1, 1]^2 goes through a control shader (levels 15,
 * fractional odd), the tessellator and an evaluation shader that places each domain point
 * on the plane, lifts it by a height map sampled with TXL (the texture unit, in the
 * evaluation stage) and takes the normal from four neighbouring samples; a perspective
 * camera, depth test and a height-and-light colouring fragment shader finish it. Every
 * shader is TGSI text below. */
#include <math.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "texvm/pipe.h"

enum { W = 512, H = 384, GRID = 8, HM = 128 };
enum { RT = 1, ZS = 2, VB = 3, HMAP = 4, CB = 5, SURF = 10, ZSURF = 11 };
enum { VS = 20, TCS = 21, TES = 22, FS = 23 };
enum { FMT_RGBA8 = 67, FMT_Z32F = 18, FMT_RGBA32F = 31, FMT_R8 = 64, PRIM_PATCHES = 14 };

static const char vs_text[] =
    "VERT\n"
    "DCL IN[0]\n"
    "DCL OUT[0], GENERIC[0]\n"
    "MOV OUT[0], IN[0]\n"
    "END\n";

static const char tcs_text[] =
    "TESS_CTRL\n"
    "PROPERTY TCS_VERTICES_OUT 4\n"
    "DCL IN[][0], GENERIC[0]\n"
    "DCL SV[0], INVOCATIONID\n"
    "DCL OUT[][0], GENERIC[0]\n"
    "DCL OUT[1], TESSOUTER\n"
    "DCL OUT[2], TESSINNER\n"
    "DCL ADDR[0]\n"
    "IMM[0] FLT32 {15.0, 15.0, 15.0, 15.0}\n"
    "UARL ADDR[0].x, SV[0].xxxx\n"
    "MOV OUT[ADDR[0].x][0], IN[ADDR[0].x][0]\n"
    "MOV OUT[1], IMM[0]\n"
    "MOV OUT[2], IMM[0]\n"
    "END\n";

/* corners: 0 (u0, v0), 1 (u1, v0), 2 (u0, v1), 3 (u1, v1); texture coordinates are the
 * plane's (x, y) / 2 + 1/2; d = 1/128 in texture space is 1/32 in the plane */
static const char tes_text[] =
    "TESS_EVAL\n"
    "PROPERTY TES_PRIM_MODE 7\n"
    "PROPERTY TES_SPACING 0\n"
    "PROPERTY TES_VERTEX_ORDER_CW 0\n"
    "PROPERTY TES_POINT_MODE 0\n"
    "DCL IN[][0], GENERIC[0]\n"
    "DCL SV[0], TESSCOORD\n"
    "DCL SAMP[0]\n"
    "DCL SVIEW[0], 2D, FLOAT\n"
    "DCL CONST[0..3]\n"
    "DCL OUT[0], POSITION\n"
    "DCL OUT[1], GENERIC[0]\n"
    "DCL TEMP[0..7]\n"
    "IMM[0] FLT32 {0.5, 0.0, 0.0078125, 0.45}\n"
    "IMM[1] FLT32 {1.0, 0.0625, 0.0, 0.0}\n"
    "LRP TEMP[0], SV[0].xxxx, IN[1][0], IN[0][0]\n"
    "LRP TEMP[1], SV[0].xxxx, IN[3][0], IN[2][0]\n"
    "LRP TEMP[0], SV[0].yyyy, TEMP[1], TEMP[0]\n"
    "MAD TEMP[2].xy, TEMP[0].xyyy, IMM[0].xxxx, IMM[0].xxxx\n"
    "MOV TEMP[2].zw, IMM[0].yyyy\n"
    "TXL TEMP[3], TEMP[2], SAMP[0], 2D\n"
    "ADD TEMP[4], TEMP[2], IMM[0].zyyy\n"
    "TXL TEMP[4], TEMP[4], SAMP[0], 2D\n"
    "ADD TEMP[5], TEMP[2], -IMM[0].zyyy\n"
    "TXL TEMP[5], TEMP[5], SAMP[0], 2D\n"
    "ADD TEMP[6], TEMP[2], IMM[0].yzyy\n"
    "TXL TEMP[6], TEMP[6], SAMP[0], 2D\n"
    "ADD TEMP[7], TEMP[2], -IMM[0].yzyy\n"
    "TXL TEMP[7], TEMP[7], SAMP[0], 2D\n"
    "ADD TEMP[4].x, TEMP[4].xxxx, -TEMP[5].xxxx\n"
    "ADD TEMP[4].y, TEMP[6].xxxx, -TEMP[7].xxxx\n"
    "MUL TEMP[4].xy, TEMP[4].xyyy, -IMM[0].wwww\n"
    "MOV TEMP[4].z, IMM[1].yyyy\n"
    "DP3 TEMP[5].x, TEMP[4].xyzz, TEMP[4].xyzz\n"
    "RSQ TEMP[5].x, TEMP[5].xxxx\n"
    "MUL TEMP[4].xyz, TEMP[4].xyzz, TEMP[5].xxxx\n"
    "MUL TEMP[0].z, TEMP[3].xxxx, IMM[0].wwww\n"
    "MOV TEMP[0].w, IMM[1].xxxx\n"
    "DP4 OUT[0].x, CONST[0], TEMP[0]\n"
    "DP4 OUT[0].y, CONST[1], TEMP[0]\n"
    "DP4 OUT[0].z, CONST[2], TEMP[0]\n"
    "DP4 OUT[0].w, CONST[3], TEMP[0]\n"
    "MOV OUT[1].xyz, TEMP[4].xyzz\n"
    "MOV OUT[1].w, TEMP[3].xxxx\n"
    "END\n";

static const char fs_text[] =
    "FRAG\n"
    "DCL IN[0], GENERIC[0], PERSPECTIVE\n"
    "DCL OUT[0], COLOR\n"
    "DCL TEMP[0..2]\n"
    "IMM[0] FLT32 {0.4472136, 0.2236068, 0.8660254, 0.0}\n"
    "IMM[1] FLT32 {0.16, 0.40, 0.14, 1.0}\n"
    "IMM[2] FLT32 {0.95, 0.93, 0.90, 1.0}\n"
    "IMM[3] FLT32 {0.2, 0.8, 0.0, 1.0}\n"
    "DP3 TEMP[0].x, IN[0].xyzz, IMM[0].xyzz\n"
    "MAX TEMP[0].x, TEMP[0].xxxx, IMM[0].wwww\n"
    "MAD TEMP[0].x, TEMP[0].xxxx, IMM[3].yyyy, IMM[3].xxxx\n"
    "MUL TEMP[1].x, IN[0].wwww, IN[0].wwww\n"
    "MUL TEMP[1].x, TEMP[1].xxxx, TEMP[1].xxxx\n"
    "LRP TEMP[2], TEMP[1].xxxx, IMM[2], IMM[1]\n"
    "MUL OUT[0].xyz, TEMP[2].xyzz, TEMP[0].xxxx\n"
    "MOV OUT[0].w, IMM[1].wwww\n"
    "END\n";

static int check(tv_pipe_ctx *ctx, int rc, const char *what)
{
    if (rc)
        fprintf(stderr, "tess-demo: %s: %s\n", what, tv_pipe_error(ctx));
    return rc;
}

/* rows of the view-projection matrix: perspective (45 degrees, W/H) after a camera at
 * `eye` looking at `at` with z up */
static void camera(float m[16])
{
    const float eye[3] = {0.3f, -2.4f, 1.9f}, at[3] = {0.0f, 0.05f, 0.1f};
    float f[3] = {at[0] - eye[0], at[1] - eye[1], at[2] - eye[2]};
    float fl = sqrtf(f[0] * f[0] + f[1] * f[1] + f[2] * f[2]);
    for (int i = 0; i < 3; i++)
        f[i] /= fl;
    const float up[3] = {0, 0, 1};
    float s[3] = {f[1] * up[2] - f[2] * up[1], f[2] * up[0] - f[0] * up[2],
                  f[0] * up[1] - f[1] * up[0]};
    float sl = sqrtf(s[0] * s[0] + s[1] * s[1] + s[2] * s[2]);
    for (int i = 0; i < 3; i++)
        s[i] /= sl;
    float u[3] = {s[1] * f[2] - s[2] * f[1], s[2] * f[0] - s[0] * f[2],
                  s[0] * f[1] - s[1] * f[0]};
    float view[16] = {s[0], s[1], s[2], -(s[0] * eye[0] + s[1] * eye[1] + s[2] * eye[2]),
                      u[0], u[1], u[2], -(u[0] * eye[0] + u[1] * eye[1] + u[2] * eye[2]),
                      -f[0], -f[1], -f[2], f[0] * eye[0] + f[1] * eye[1] + f[2] * eye[2],
                      0, 0, 0, 1};
    float n = 0.1f, fa = 10.0f, t = 1.0f / tanf(22.5f * 3.14159265f / 180.0f);
    float proj[16] = {t * H / W, 0, 0, 0, 0, t, 0, 0, 0, 0, (fa + n) / (n - fa),
                      2 * fa * n / (n - fa), 0, 0, -1, 0};
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++) {
            float acc = 0;
            for (int k = 0; k < 4; k++)
                acc += proj[r * 4 + k] * view[k * 4 + c];
            m[r * 4 + c] = acc;
        }
}

static float height(float x, float y)
{
    float h = 0.45f + 0.22f * sinf(3.1f * x + 0.4f) * cosf(2.3f * y - 0.2f) +
              0.12f * sinf(7.3f * x + 4.1f * y) + 0.06f * cosf(13.0f * y - 5.0f * x) +
              0.25f * expf(-8.0f * ((x - 0.3f) * (x - 0.3f) + (y - 0.2f) * (y - 0.2f)));
    return h < 0 ? 0 : h > 1 ? 1 : h;
}

static int build(tv_pipe_ctx *ctx)
{
    tv_pipe_resource_desc rt = {2, FMT_RGBA8, 2, W, H, 1, 1, 0, 0};
    tv_pipe_resource_desc zs = {2, FMT_Z32F, 1, W, H, 1, 1, 0, 0};
    uint32_t cb = SURF;
    if (check(ctx, tv_pipe_resource_create(ctx, RT, &rt), "target") ||
        check(ctx, tv_pipe_surface_create(ctx, SURF, RT, FMT_RGBA8, 0, 0, 0), "surface") ||
        check(ctx, tv_pipe_resource_create(ctx, ZS, &zs), "depth") ||
        check(ctx, tv_pipe_surface_create(ctx, ZSURF, ZS, FMT_Z32F, 0, 0, 0), "depth surface") ||
        check(ctx, tv_pipe_set_framebuffer(ctx, 1, &cb, ZSURF), "framebuffer"))
        return -1;
    /* sky, depth 1 */
    float sky[4] = {0.55f, 0.72f, 0.92f, 1.0f};
    uint32_t skyw[4];
    memcpy(skyw, sky, 16);
    if (check(ctx, tv_pipe_clear(ctx, TV_PIPE_CLEAR_COLOR0 | TV_PIPE_CLEAR_DEPTH, skyw, 1.0, 0),
              "clear"))
        return -1;
    static const struct { uint32_t h, stage; const char *text; } sh[4] = {
        {VS, TV_PIPE_STAGE_VERTEX, vs_text}, {TCS, TV_PIPE_STAGE_TESS_CTRL, tcs_text},
        {TES, TV_PIPE_STAGE_TESS_EVAL, tes_text}, {FS, TV_PIPE_STAGE_FRAGMENT, fs_text}};
    for (int i = 0; i < 4; i++)
        if (check(ctx, tv_pipe_shader_create(ctx, sh[i].h, sh[i].stage, sh[i].text,
                                             strlen(sh[i].text) + 1), "shader") ||
            check(ctx, tv_pipe_bind_shader(ctx, sh[i].stage, sh[i].h), "bind"))
            return -1;
    /* the height map, sampled linearly in the evaluation stage */
    static float hm[HM * HM * 4];
    for (int y = 0; y < HM; y++)
        for (int x = 0; x < HM; x++) {
            float h = height((x + 0.5f) / HM * 2 - 1, (y + 0.5f) / HM * 2 - 1);
            float *p = hm + (y * HM + x) * 4;
            p[0] = p[1] = p[2] = h;
            p[3] = 1;
        }
    tv_pipe_resource_desc td = {2, FMT_RGBA32F, 8, HM, HM, 1, 1, 0, 0};
    tv_pipe_box tb = {0, 0, 0, HM, HM, 1};
    tv_pipe_sampler_view view = {HMAP, FMT_RGBA32F, 0, 0, 0, 0, 0, 0, {0, 1, 2, 3}, 0};
    tv_pipe_sampler_state samp;
    memset(&samp, 0, sizeof samp);
    samp.wrap_s = samp.wrap_t = samp.wrap_r = 2;          /* clamp to edge */
    samp.min_img_filter = samp.mag_img_filter = 1;       /* linear */
    samp.min_mip_filter = 2;                              /* none */
    samp.max_lod = 0;
    if (check(ctx, tv_pipe_resource_create(ctx, HMAP, &td), "height map") ||
        check(ctx, tv_pipe_transfer_write(ctx, HMAP, 0, &tb, hm, sizeof hm, 0, 0, 0),
              "height map data") ||
        check(ctx, tv_pipe_set_sampler_views(ctx, TV_PIPE_STAGE_TESS_EVAL, 0, 1, &view),
              "view") ||
        check(ctx, tv_pipe_set_sampler_states(ctx, TV_PIPE_STAGE_TESS_EVAL, 0, 1, &samp),
              "sampler"))
        return -1;
    float m[16];
    camera(m);
    uint32_t mw[16];
    memcpy(mw, m, sizeof mw);
    if (check(ctx, tv_pipe_set_constant_buffer(ctx, TV_PIPE_STAGE_TESS_EVAL, 0, 0, 0, 64, mw,
                                               16), "constants"))
        return -1;
    /* the patches' corners */
    static float verts[GRID * GRID * 4 * 4];
    int k = 0;
    for (int j = 0; j < GRID; j++)
        for (int i = 0; i < GRID; i++)
            for (int c = 0; c < 4; c++) {
                float *p = verts + k++ * 4;
                p[0] = (float)(i + (c & 1)) / GRID * 2 - 1;
                p[1] = (float)(j + (c >> 1)) / GRID * 2 - 1;
                p[2] = 0;
                p[3] = 1;
            }
    tv_pipe_resource_desc vb = {0, FMT_R8, 16, sizeof verts, 1, 1, 1, 0, 0};
    tv_pipe_box vbox = {0, 0, 0, sizeof verts, 1, 1};
    tv_pipe_vertex_element ve = {0, 0, 0, FMT_RGBA32F};
    tv_pipe_vertex_buffer vbuf = {16, 0, VB};
    tv_pipe_viewport vp = {{W / 2.0f, -H / 2.0f, 0.5f}, {W / 2.0f, H / 2.0f, 0.5f}};
    tv_pipe_dsa_state dsa;
    memset(&dsa, 0, sizeof dsa);
    dsa.depth_enabled = dsa.depth_writemask = true;
    dsa.depth_func = 1;                                   /* PIPE_FUNC_LESS */
    if (check(ctx, tv_pipe_resource_create(ctx, VB, &vb), "vertices") ||
        check(ctx, tv_pipe_transfer_write(ctx, VB, 0, &vbox, verts, sizeof verts, 0, 0, 0),
              "vertex data") ||
        check(ctx, tv_pipe_set_vertex_elements(ctx, 1, &ve), "vertex elements") ||
        check(ctx, tv_pipe_set_vertex_buffers(ctx, 0, 1, &vbuf), "vertex buffers") ||
        check(ctx, tv_pipe_set_viewports(ctx, 0, 1, &vp), "viewport") ||
        check(ctx, tv_pipe_set_dsa(ctx, &dsa), "depth"))
        return -1;
    tv_pipe_draw_info info;
    memset(&info, 0, sizeof info);
    info.mode = PRIM_PATCHES;
    info.count = GRID * GRID * 4;
    info.instance_count = 1;
    info.vertices_per_patch = 4;
    return check(ctx, tv_pipe_draw_vbo(ctx, &info), "draw");
}

/* RGBA8 rows, top first, to PATH through a temporary file renamed at the end */
static int write_png(const char *path, const uint8_t *px)
{
    char tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp) {
        fprintf(stderr, "tess-demo: %s: path too long\n", path);
        return -1;
    }
    FILE *f = fopen(tmp, "wb");
    if (!f) {
        perror(tmp);
        return -1;
    }
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!png || !info || setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        fclose(f);
        remove(tmp);
        fprintf(stderr, "tess-demo: %s: cannot write the PNG\n", path);
        return -1;
    }
    png_init_io(png, f);
    png_set_IHDR(png, info, W, H, 8, PNG_COLOR_TYPE_RGBA, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    for (int y = 0; y < H; y++)
        png_write_row(png, (png_const_bytep)(px + (size_t)y * W * 4));
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    if (fclose(f) != 0 || rename(tmp, path) != 0) {
        perror(path);
        remove(tmp);
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: tess-demo OUT.png\n");
        return 2;
    }
    tv_pipe_ctx *ctx = tv_pipe_create(0);
    if (!ctx) {
        fprintf(stderr, "tess-demo: out of memory\n");
        return 1;
    }
    int rc = build(ctx);
    /* the viewport's negative y scale puts NDC +y at row 0: the picture's top */
    if (!rc)
        rc = write_png(argv[1], tv_pipe_resource_data(ctx, RT));
    tv_pipe_destroy(ctx);
    if (!rc)
        printf("tess-demo: wrote %s (%dx%d)\n", argv[1], W, H);
    return rc ? 1 : 0;
}
