/* Draw benchmarks (issue 16): texvm's pipeline (tv_pipe_draw_vbo) against llvmpipe through
 * GL (tools/glref) in the same run, median of 5 timed draws after a warm-up (and the fastest
 * of the 5, rows mesh-f and blend-f).
 *   mesh:  a 1024x1024 RGBA32F target (glref's format), a grid of 256x200 cells = 102400 small triangles (about 10
 *          pixels each: a cell is 4 x 5.12 pixels), depth test LESS, each pixel a bilinear lookup of a 64x64 RGBA8
 *          texture
 *   blend: 8 large triangles (two full-screen quads and four halves), alpha blending
 * llvmpipe runs with LP_NUM_THREADS=1 and 2 (separate processes: the variable is read at
 * start-up); texvm on 1 and 2 workers (tv_pipe_set_threads; the two pictures must be the
 * same bytes). Prints one table; the lit pixels of both drivers
 * are compared (same coverage rule: the counts must agree within the few pixels llvmpipe's
 * viewport clipping may move; docs/fidelity-pipeline.md §1).
 *   bench_draw            both drivers, llvmpipe at 1 and 2 threads
 *   bench_draw --llvmpipe N [mesh|blend]   (internal) llvmpipe only, N threads, both scenes
 *                                     or one, prints its times (seconds; 0 for a scene not
 *                                     run)
 *   bench_draw --texvm [mesh|blend [1|2]]   texvm only, both scenes or one, on both thread
 *                                     counts or one (for profiling: perf record bench_draw
 *                                     --texvm mesh 1)
 *   bench_draw --cpu K ...            the one-thread runs, texvm's and llvmpipe's, on CPU K
 *                                     alone (scripts/bench.sh: the two cores of this
 *                                     project's VMs can differ in speed for minutes,
 *                                     docs/performance.md §1.1)
 *   bench_draw [--cpu K] [--draws N] ...   N timed draws of each scene (1..5, default 5)
 *                                     after the warm-up: scripts/bench-insns.sh counts one
 *                                     draw's instructions as those of N = 2 less N = 1
 *   bench_draw [--cpu K] --profile FILE --texvm SCENE N
 *                                     also PROFILE_DRAWS more draws of that scene on N
 *                                     threads with their draw calls sampled (prof_sample.h,
 *                                     as bench_job --profile), the report written to FILE
 *                                     (through a temporary file, renamed) */
#define _GNU_SOURCE /* sched_setaffinity */
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_clock.h"
#include "prof_sample.h"
#include "texvm/pipe.h"
#include "texvm/vm.h"

#ifdef TEXVM_HAVE_GLREF
#include "glref.h"
#endif

enum { S = 1024, GX = 256, GY = 200, TEX = 64, RUNS = 5, PROFILE_DRAWS = 60 };

/* --profile: the draw calls of the profiled draws are sampled (texvm_draw) */
static bool profiling;
/* --draws N: the timed draws of each scene and engine (RUNS at most) */
static int runs = RUNS;
enum { RT = 1, ZS = 2, VB = 3, TX = 4, SURF = 10, ZSURF = 11, VSH = 20, FSH = 21, FSB = 22 };



/* The scenes' vertices: position and a vec4 (texture coordinate or colour), 32 bytes. */
static float *mesh_vertices(int *n)
{
    float *v = malloc((size_t)GX * GY * 6 * 8 * sizeof *v);
    int k = 0;
    for (int j = 0; j < GY; j++)
        for (int i = 0; i < GX; i++) {
            static const int corner[6][2] = {{0, 0}, {1, 0}, {0, 1}, {0, 1}, {1, 0}, {1, 1}};
            for (int c = 0; c < 6; c++) {
                int ci = i + corner[c][0], cj = j + corner[c][1];
                float x = (float)ci / GX * 2 - 1, y = (float)cj / GY * 2 - 1;
                float z = 0.5f * sinf((float)ci * 0.05f) * cosf((float)cj * 0.07f);
                float *o = v + 8 * k++;
                o[0] = x, o[1] = y, o[2] = z, o[3] = 1;
                o[4] = (float)ci / 32, o[5] = (float)cj / 32, o[6] = 0, o[7] = 1;
            }
        }
    *n = k;
    return v;
}

static float *blend_vertices(int *n)
{
    static const float quads[4][4] = {{-1, -1, 1, 1}, {-1, -1, 1, 1}, {-1, -1, 0, 1},
                                      {0, -1, 1, 1}};
    float *v = malloc(4 * 6 * 8 * sizeof *v);
    int k = 0;
    for (int q = 0; q < 4; q++) {
        const float *r = quads[q];
        const float px[6] = {r[0], r[2], r[0], r[0], r[2], r[2]};
        const float py[6] = {r[1], r[1], r[3], r[3], r[1], r[3]};
        for (int c = 0; c < 6; c++) {
            float *o = v + 8 * k++;
            o[0] = px[c], o[1] = py[c], o[2] = 0, o[3] = 1;
            o[4] = (float)(q & 1), o[5] = (float)((q >> 1) & 1), o[6] = 0.5f, o[7] = 0.5f;
        }
    }
    *n = k;
    return v;
}

static unsigned char texels[TEX * TEX * 4];

static void make_texture(void)
{
    for (int i = 0; i < TEX * TEX; i++) {
        unsigned h = (unsigned)i * 2654435761u;
        texels[4 * i] = (unsigned char)h;
        texels[4 * i + 1] = (unsigned char)(h >> 8);
        texels[4 * i + 2] = (unsigned char)(h >> 16);
        texels[4 * i + 3] = 255;
    }
}

/* ---- texvm ------------------------------------------------------------------------------ */

static const char vs_tgsi[] = "VERT\nDCL IN[0]\nDCL IN[1]\nDCL OUT[0], POSITION\n"
                              "DCL OUT[1], GENERIC[0]\n  0: MOV OUT[0], IN[0]\n"
                              "  1: MOV OUT[1], IN[1]\n  2: END\n";
static const char fs_tex_tgsi[] = "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\n"
                                  "DCL SAMP[0]\nDCL SVIEW[0], 2D, FLOAT\n"
                                  "  0: TEX OUT[0], IN[0], SAMP[0], 2D\n  1: END\n";
static const char fs_col_tgsi[] = "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\n"
                                  "  0: MOV OUT[0], IN[0]\n  1: END\n";

static int check(tv_pipe_ctx *ctx, int rc, const char *what)
{
    if (rc)
        fprintf(stderr, "bench_draw: %s: %s\n", what, tv_pipe_error(ctx));
    return rc;
}

static tv_pipe_ctx *texvm_scene(const float *verts, int n, unsigned threads)
{
    tv_pipe_ctx *ctx = tv_pipe_create(1ull << 30);
    if (ctx && tv_pipe_set_threads(ctx, threads)) {
        tv_pipe_destroy(ctx);
        return NULL;
    }
    tv_pipe_resource_desc rt = {2, 31 /* R32G32B32A32_FLOAT, as glref's */, 2, S, S, 1, 1, 0, 0};
    tv_pipe_resource_desc zs = {2, 18, 1, S, S, 1, 1, 0, 0};
    tv_pipe_resource_desc vb = {0, 64, 16, (uint32_t)n * 32, 1, 1, 1, 0, 0};
    tv_pipe_resource_desc tx = {2, 67, 8, TEX, TEX, 1, 1, 0, 0};
    uint32_t cb = SURF;
    tv_pipe_box vbox = {0, 0, 0, (uint32_t)n * 32, 1, 1}, tbox = {0, 0, 0, TEX, TEX, 1};
    tv_pipe_viewport vp = {{S / 2.0f, S / 2.0f, 0.5f}, {S / 2.0f, S / 2.0f, 0.5f}};
    tv_pipe_vertex_element ve[2] = {{0, 0, 0, 31}, {16, 0, 0, 31}};
    tv_pipe_vertex_buffer vbuf = {32, 0, VB};
    tv_pipe_sampler_view view = {TX, 67, 0, 0, 0, 0, 0, 0, {0, 1, 2, 3}, 0};
    tv_pipe_sampler_state samp;
    memset(&samp, 0, sizeof samp);
    samp.min_img_filter = samp.mag_img_filter = 1;   /* LINEAR */
    samp.min_mip_filter = 2;                         /* NONE */
    samp.max_lod = 16;
    if (check(ctx, tv_pipe_resource_create(ctx, RT, &rt), "target") ||
        check(ctx, tv_pipe_resource_create(ctx, ZS, &zs), "depth") ||
        check(ctx, tv_pipe_resource_create(ctx, VB, &vb), "vertices") ||
        check(ctx, tv_pipe_resource_create(ctx, TX, &tx), "texture") ||
        check(ctx, tv_pipe_transfer_write(ctx, VB, 0, &vbox, verts, (size_t)n * 32, 0, 0, 0),
              "upload") ||
        check(ctx, tv_pipe_transfer_write(ctx, TX, 0, &tbox, texels, sizeof texels, 0, 0, 0),
              "texels") ||
        check(ctx, tv_pipe_surface_create(ctx, SURF, RT, 31, 0, 0, 0), "surface") ||
        check(ctx, tv_pipe_surface_create(ctx, ZSURF, ZS, 18, 0, 0, 0), "zsurface") ||
        check(ctx, tv_pipe_set_framebuffer(ctx, 1, &cb, ZSURF), "framebuffer") ||
        check(ctx, tv_pipe_shader_create(ctx, VSH, 0, vs_tgsi, sizeof vs_tgsi), "vs") ||
        check(ctx, tv_pipe_shader_create(ctx, FSH, 1, fs_tex_tgsi, sizeof fs_tex_tgsi), "fs") ||
        check(ctx, tv_pipe_shader_create(ctx, FSB, 1, fs_col_tgsi, sizeof fs_col_tgsi), "fsb") ||
        check(ctx, tv_pipe_bind_shader(ctx, 0, VSH), "bind") ||
        check(ctx, tv_pipe_set_viewports(ctx, 0, 1, &vp), "viewport") ||
        check(ctx, tv_pipe_set_vertex_elements(ctx, 2, ve), "elements") ||
        check(ctx, tv_pipe_set_vertex_buffers(ctx, 0, 1, &vbuf), "buffers") ||
        check(ctx, tv_pipe_set_sampler_views(ctx, 1, 0, 1, &view), "views") ||
        check(ctx, tv_pipe_set_sampler_states(ctx, 1, 0, 1, &samp), "samplers")) {
        tv_pipe_destroy(ctx);
        return NULL;
    }
    return ctx;
}

/* One timed texvm draw of the scene (after clearing); returns seconds, < 0 on failure. */
static double texvm_draw(tv_pipe_ctx *ctx, bool mesh, int n)
{
    const uint32_t zero[4] = {0, 0, 0, 0};
    tv_pipe_clear(ctx, TV_PIPE_CLEAR_COLOR0 | TV_PIPE_CLEAR_DEPTH, zero, 1.0, 0);
    tv_pipe_dsa_state dsa;
    memset(&dsa, 0, sizeof dsa);
    dsa.depth_enabled = mesh;
    dsa.depth_writemask = mesh;
    dsa.depth_func = 1; /* LESS */
    tv_pipe_blend_state blend;
    memset(&blend, 0, sizeof blend);
    blend.rt[0].colormask = 0xf;
    blend.rt[0].blend_enable = !mesh;
    blend.rt[0].rgb_src_factor = blend.rt[0].alpha_src_factor = 0x03;  /* SRC_ALPHA */
    blend.rt[0].rgb_dst_factor = blend.rt[0].alpha_dst_factor = 0x13;  /* INV_SRC_ALPHA */
    tv_pipe_set_dsa(ctx, &dsa);
    tv_pipe_set_blend(ctx, &blend);
    tv_pipe_bind_shader(ctx, 1, mesh ? FSH : FSB);
    tv_pipe_draw_info info;
    memset(&info, 0, sizeof info);
    info.mode = 4;
    info.count = (uint32_t)n;
    info.instance_count = 1;
    double t0 = bench_now();
    prof_on(profiling);
    int bad = check(ctx, tv_pipe_draw_vbo(ctx, &info), "draw");
    prof_on(false);
    if (bad)
        return -1;
    return bench_now() - t0;
}

static unsigned lit_pixels(const void *rgba32f)
{
    const float *p = rgba32f;
    unsigned n = 0;
    for (int i = 0; i < S * S; i++)
        n += p[4 * i + 3] != 0.0f;
    return n;
}

/* ---- llvmpipe -------------------------------------------------------------------------- */

#ifdef TEXVM_HAVE_GLREF
static const char *gl_vs = "layout(location = 0) in vec4 p;\nlayout(location = 1) in vec4 a;\n"
                           "out vec4 v;\nvoid main() { gl_Position = p; v = a; }\n";
static const char *gl_fs_tex = "in vec4 v;\nuniform sampler2D t;\nout vec4 c;\n"
                               "void main() { c = texture(t, v.xy); }\n";
static const char *gl_fs_col = "in vec4 v;\nout vec4 c;\nvoid main() { c = v; }\n";

/* Times (seconds) of the two scenes (or scene `only` alone: the other's left as they were)
 * and their lit pixels, `runs` each; 0 on success. */
static int llvmpipe_run(double times[2][RUNS], unsigned lit[2], int only)
{
    char err[256], vs[512], fst[512], fsc[512];
    glref *g = glref_create("llvmpipe", 0, err, sizeof err);
    if (!g) {
        fprintf(stderr, "bench_draw: llvmpipe: %s\n", err);
        return -1;
    }
    snprintf(vs, sizeof vs, "%s\n%s", glref_glsl_version_line(g), gl_vs);
    snprintf(fst, sizeof fst, "%s\n%s", glref_glsl_version_line(g), gl_fs_tex);
    snprintf(fsc, sizeof fsc, "%s\n%s", glref_glsl_version_line(g), gl_fs_col);
    GLuint ptex = glref_program(g, vs, fst), pcol = glref_program(g, vs, fsc);
    GLenum fmt = GL_RGBA32F;
    glref_texture_desc td;
    glref_texture_desc_init(&td);
    td.target = GL_TEXTURE_2D;
    td.internal_format = GL_RGBA8;
    td.format = GL_RGBA;
    td.type = GL_UNSIGNED_BYTE;
    td.width = td.height = TEX;
    td.depth = td.levels = 1;
    td.data[0] = texels;
    glref_sampler_desc sd;
    glref_sampler_desc_init(&sd);
    sd.min_filter = sd.mag_filter = GL_LINEAR;
    GLuint tex = glref_texture(g, &td), smp = glref_sampler(g, &sd);
    if (!ptex || !pcol || !tex || !smp || !glref_framebuffer(g, S, S, 1, &fmt) ||
        !glref_framebuffer_depth(g, 1.0f, false) || !glref_bind_texture(g, 0, GL_TEXTURE_2D, tex, smp)) {
        fprintf(stderr, "bench_draw: llvmpipe set-up: %s\n", glref_error(g));
        glref_destroy(g);
        return -1;
    }
    static unsigned char pixels[S * S * 16];
    for (int scene = 0; scene < 2; scene++) {
        if (only >= 0 && scene != only)
            continue;
        int n;
        float *v = scene == 0 ? mesh_vertices(&n) : blend_vertices(&n);
        if (!glref_mesh(g, v, n)) {
            free(v);
            glref_destroy(g);
            return -1;
        }
        for (int r = -1; r < runs; r++) {
            const uint32_t zero[4] = {0, 0, 0, 0};
            glref_clear(g, 0, zero);
            /* (the attachment made at set-up, cleared again: a new one each run had
               leaked a depth texture per draw) */
            glref_clear_depth(g, 1.0f);
            glref_finish(g);
            double t0 = bench_now();
            if (!glref_draw_mesh(g, scene == 0 ? ptex : pcol, GL_TRIANGLES, n,
                                 scene == 0 ? GL_LESS : 0, scene == 1)) {
                fprintf(stderr, "bench_draw: llvmpipe draw: %s\n", glref_error(g));
                free(v);
                glref_destroy(g);
                return -1;
            }
            glref_finish(g);
            if (r >= 0)
                times[scene][r] = bench_now() - t0;
        }
        free(v);
        glref_read(g, 0, pixels);
        lit[scene] = lit_pixels(pixels);
    }
    glref_destroy(g);
    return 0;
}
#endif

/* FNV-1a over a picture's bytes: A/B runs of two builds compare their pictures by it */
static uint64_t picture_hash(const uint8_t *p, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

#ifdef TEXVM_HAVE_GLREF
/* One row of the table: a scene's texvm and llvmpipe seconds at 1 and 2 threads, in ms,
 * and llvmpipe's time over texvm's at each */
static void scene_row(const char *name, double tv1, double tv2, double lp1, double lp2,
                      const char *tail)
{
    printf("%-8s %10.2f %10.2f %14.2f %14.2f %9.2fx %9.2fx%s\n", name, tv1 * 1e3, tv2 * 1e3,
           lp1 * 1e3, lp2 * 1e3, lp1 / tv1, lp2 / tv2, tail);
}
#endif

/* --profile: PROFILE_DRAWS more draws sampled, the report to path (prof_write) */
static int profile_draws(tv_pipe_ctx *ctx, bool mesh, int n, unsigned threads, const char *path)
{
    double sum = 0;
    profiling = true;
    for (int r = 0; r < PROFILE_DRAWS; r++) {
        double t = texvm_draw(ctx, mesh, n);
        if (t < 0)
            return 1;
        sum += t;
    }
    profiling = false;
    char head[128], err[8400];
    snprintf(head, sizeof head, "%s, %u thread(s): %d draws sampled, %.3f ms each on average\n",
             mesh ? "mesh" : "blend", threads, PROFILE_DRAWS, sum / PROFILE_DRAWS * 1e3);
    if (prof_write(path, head, err, sizeof err) == 0)
        return 0;
    fprintf(stderr, "bench_draw: --profile: %s\n", err);
    return 1;
}

/* (sorts T: T[0] is then the fastest draw) */
static double median(double *t)
{
    qsort(t, (size_t)runs, sizeof *t, bench_cmpd);
    return t[runs / 2];
}

/* --cpu K: the process on CPU K alone while its one-thread runs go (a child started then,
 * the llvmpipe one, inherits it), on every CPU it had otherwise */
static int pin_cpu = -1;
static cpu_set_t all_cpus;

static bool pin(bool on)
{
    if (pin_cpu < 0)
        return true;
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(pin_cpu, &one);
    if (sched_setaffinity(0, sizeof one, on ? &one : &all_cpus) == 0)
        return true;
    fprintf(stderr, "bench_draw: --cpu %d: cannot run on that CPU\n", pin_cpu);
    return false;
}

/* S as a whole decimal number from LO to HI in *K (nothing else in S) */
static bool whole_number(const char *s, long lo, long hi, long *k)
{
    char *end;
    *k = strtol(s, &end, 10);
    return end != s && !*end && *k >= lo && *k <= hi;
}

/* The option at argv[1] and its value at argv[2] taken off the front, argv[0] kept. */
static void drop_option(int *argc, char ***argv)
{
    (*argv)[2] = (*argv)[0];
    *argv += 2;
    *argc -= 2;
}

int main(int argc, char **argv)
{
    long k;
    if (argc >= 3 && !strcmp(argv[1], "--cpu")) {
        if (!whole_number(argv[2], 0, CPU_SETSIZE - 1, &k) ||
            sched_getaffinity(0, sizeof all_cpus, &all_cpus) || !CPU_ISSET(k, &all_cpus)) {
            fprintf(stderr, "bench_draw: --cpu %s: not a CPU this process may run on\n",
                    argv[2]);
            return 2;
        }
        pin_cpu = (int)k;
        drop_option(&argc, &argv);
    }
    if (argc >= 3 && !strcmp(argv[1], "--draws")) {
        if (!whole_number(argv[2], 1, RUNS, &k)) {
            fprintf(stderr, "bench_draw: --draws %s: not a count from 1 to %d\n", argv[2], RUNS);
            return 2;
        }
        runs = (int)k;
        drop_option(&argc, &argv);
    }
    const char *profile = NULL;
    if (argc >= 3 && !strcmp(argv[1], "--profile")) {
        profile = argv[2];
        drop_option(&argc, &argv);
        char err[256];
        if (argc != 4 || strcmp(argv[1], "--texvm")) {
            fprintf(stderr, "bench_draw: --profile FILE needs --texvm SCENE THREADS after it\n");
            return 2;
        }
        if (prof_begin(1000, err, sizeof err) != 0) {
            fprintf(stderr, "bench_draw: --profile: %s\n", err);
            return 2;
        }
    }
    make_texture();
#ifdef TEXVM_HAVE_GLREF
    if ((argc == 3 || argc == 4) && !strcmp(argv[1], "--llvmpipe")) {
        /* a child: LP_NUM_THREADS was set by the parent (or scripts/bench-insns.sh) */
        int only = argc == 3                   ? -1
                   : !strcmp(argv[3], "mesh")  ? 0
                   : !strcmp(argv[3], "blend") ? 1
                                               : 2;
        if (only == 2) {
            fprintf(stderr, "bench_draw: --llvmpipe N [mesh|blend]: no scene %s\n", argv[3]);
            return 2;
        }
        double t[2][RUNS] = {{0}};
        unsigned lit[2] = {0, 0};
        if (llvmpipe_run(t, lit, only))
            return 1;
        const double m0 = median(t[0]), m1 = median(t[1]);   /* (sorted: then the fastest) */
        printf("%.6f %.6f %.6f %.6f %u %u\n", m0, m1, t[0][0], t[1][0], lit[0], lit[1]);
        return 0;
    }
#endif
    /* texvm on 1 and 2 workers; the two runs' pictures must be the same bytes */
    double tv[2][2][RUNS];
    unsigned tv_lit[2];
    uint64_t tv_hash[2] = {0, 0};
    int count[2];
    bool texvm_only = argc >= 2 && !strcmp(argv[1], "--texvm");
    int only = -1;   /* --texvm SCENE: that scene alone (2: not a scene) */
    if (texvm_only && argc >= 3)
        only = !strcmp(argv[2], "mesh") ? 0 : !strcmp(argv[2], "blend") ? 1 : 2;
    unsigned th_only = 0;   /* --texvm SCENE N: N threads alone (3: not a count) */
    if (texvm_only && argc == 4)
        th_only = !strcmp(argv[3], "1") ? 1 : !strcmp(argv[3], "2") ? 2 : 3;
    if (only == 2 || th_only == 3 || argc > 4 || (argc >= 3 && !texvm_only)) {
        fprintf(stderr, "usage: bench_draw [--cpu K] [--draws N] [--texvm [mesh|blend [1|2]]]\n");
        return 2;
    }
    memset(tv, 0, sizeof tv);
    memset(tv_lit, 0, sizeof tv_lit);
    memset(count, 0, sizeof count);
    for (int scene = 0; scene < 2; scene++) {
        if (only >= 0 && scene != only)
            continue;
        float *v = scene == 0 ? mesh_vertices(&count[scene]) : blend_vertices(&count[scene]);
        uint8_t *first = NULL;
        for (unsigned th = 1; th <= 2; th++) {
            if (th_only && th != th_only)
                continue;
            /* (the workers of the two-thread context are created unpinned) */
            if (!pin(th == 1))
                return 1;
            tv_pipe_ctx *ctx = texvm_scene(v, count[scene], th);
            if (!ctx)
                return 1;
            for (int r = -1; r < runs; r++) {
                double t = texvm_draw(ctx, scene == 0, count[scene]);
                if (t < 0)
                    return 1;
                if (r >= 0)
                    tv[th - 1][scene][r] = t;
            }
            if (profile && profile_draws(ctx, scene == 0, count[scene], th, profile))
                return 1;
            const uint8_t *px = tv_pipe_resource_data(ctx, RT);
            size_t bytes = tv_pipe_resource_size(ctx, RT);
            if (!first) {
                tv_lit[scene] = lit_pixels(px);
                tv_hash[scene] = picture_hash(px, bytes);
                first = malloc(bytes);
                if (!first)
                    return 1;
                memcpy(first, px, bytes);
            } else if (memcmp(first, px, bytes)) {
                fprintf(stderr, "bench_draw: %s: the picture differs between 1 and 2 threads\n",
                        scene == 0 ? "mesh" : "blend");
                return 1;
            }
            tv_pipe_destroy(ctx);
        }
        free(first);
        free(v);
    }
    double tvm[2][2] = {{median(tv[0][0]), median(tv[0][1])}, {median(tv[1][0]), median(tv[1][1])}};
    printf("bench_draw: kernels: %s\n", tv_vm_kernels());
    printf("bench_draw: %dx%d target; mesh = %d triangles (depth LESS, bilinear texture), "
           "blend = %d large blended triangles; median of %d; texvm's pictures on 1 and 2 "
           "threads are the same bytes\n", S, S, count[0] / 3, count[1] / 3, runs);
    if (texvm_only) {
        /* (median() sorted the runs: [0] is the fastest, which A/B runs of two builds on
           a noisy host compare) */
        printf("texvm-1: mesh %9.2f ms, blend %9.2f ms; texvm-2: mesh %9.2f ms, blend %9.2f ms; "
               "lit pixels %u and %u; pictures fnv1a %016llx %016llx; fastest texvm-1 draws "
               "%.2f and %.2f ms\n", tvm[0][0] * 1e3,
               tvm[0][1] * 1e3, tvm[1][0] * 1e3, tvm[1][1] * 1e3, tv_lit[0], tv_lit[1],
               (unsigned long long)tv_hash[0], (unsigned long long)tv_hash[1],
               tv[0][0][0] * 1e3, tv[0][1][0] * 1e3);
        return 0;
    }
#ifdef TEXVM_HAVE_GLREF
    double lp[2][2] = {{0, 0}, {0, 0}}, lp_fast[2][2] = {{0, 0}, {0, 0}};
    unsigned lp_lit[2] = {0, 0};
    for (int th = 1; th <= 2; th++) {
        char cmd[4096];
        snprintf(cmd, sizeof cmd, "LP_NUM_THREADS=%d '%s' --draws %d --llvmpipe %d", th, argv[0],
                 runs, th);
        if (!pin(th == 1))
            return 1;
        FILE *f = popen(cmd, "r");
        if (!f || fscanf(f, "%lf %lf %lf %lf %u %u", &lp[th - 1][0], &lp[th - 1][1],
                         &lp_fast[th - 1][0], &lp_fast[th - 1][1], &lp_lit[0], &lp_lit[1]) != 6) {
            fprintf(stderr, "bench_draw: the llvmpipe run failed\n");
            if (f)
                pclose(f);
            return 1;
        }
        pclose(f);
    }
    static const char *names[2] = {"mesh", "blend"};
    printf("%-8s %10s %10s %14s %14s %10s %10s\n", "scene", "texvm-1 ms", "texvm-2 ms",
           "llvmpipe-1 ms", "llvmpipe-2 ms", "1 thread", "2 threads");
    for (int s = 0; s < 2; s++)
        scene_row(names[s], tvm[0][s], tvm[1][s], lp[0][s], lp[1][s], "");
    /* the fastest draw of each (tv[][][0] after median's sort): a host whose speed moves
       within a process (docs/performance.md §1.1) */
    for (int s = 0; s < 2; s++)
        scene_row(s ? "blend-f" : "mesh-f", tv[0][s][0], tv[1][s][0], lp_fast[0][s],
                  lp_fast[1][s], "  (fastest draws)");
    printf("lit pixels: mesh texvm %u llvmpipe %u; blend texvm %u llvmpipe %u\n", tv_lit[0],
           lp_lit[0], tv_lit[1], lp_lit[1]);
    if (tv_lit[0] != lp_lit[0] || tv_lit[1] != lp_lit[1]) {
        fprintf(stderr, "bench_draw: the drivers lit different pixel counts\n");
        return 1;
    }
#else
    printf("texvm-1: mesh %9.2f ms, blend %9.2f ms; texvm-2: mesh %9.2f ms, blend %9.2f ms; "
           "lit pixels %u and %u (llvmpipe not built: no EGL/GL)\n", tvm[0][0] * 1e3,
           tvm[0][1] * 1e3, tvm[1][0] * 1e3, tvm[1][1] * 1e3, tv_lit[0], tv_lit[1]);
#endif
    return 0;
}
