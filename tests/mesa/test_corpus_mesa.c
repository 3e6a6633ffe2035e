/* The GLSL programs beside shared/corpus/tgsi/mesa-softpipe/ (the .tgsi files), run at test time on
 * Mesa through tools/mesa-run with the defined inputs of tests/mesa/corpus/<stem>.json:
 *  - softpipe's TGSI is captured again and must equal the corpus file (FRAG/COMP part);
 *  - softpipe and llvmpipe outputs are written under <build>/mesa-corpus/<stem>/ for the
 *    conformance comparison with texvm (tex_all once per u_op value);
 *  - integer programs are checked against expected values computed here in C (ctrl_int,
 *    cs_ssbo), bench_math against a float64 evaluation;
 *  - when texvm run can execute a job, its output is compared with softpipe's and the
 *    agreement is printed (reported, not asserted, while the engine grows).
 * Skips when mesa-run was not built (no EGL/GL) or no EGL display opens. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "common_file.h"

#define CORPUS TEXVM_SHARED_DIR "/corpus/tgsi/mesa-softpipe"
#define JOBS TEXVM_SOURCE_DIR "/tests/mesa/corpus"
#define WORK TEXVM_BINARY_DIR "/mesa-corpus"
#define MESA_RUN TEXVM_BINARY_DIR "/tools/mesa-run"

static bool g_skip;
static char g_skip_reason[256];

static bool spit(const char *path, const char *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return false;
    bool ok = fwrite(data, 1, n, f) == n;
    return fclose(f) == 0 && ok;
}

static void mkdirs(const char *path)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            mkdir(buf, 0755);
            *p = '/';
        }
    mkdir(buf, 0755);
}

/* The FRAG or COMP program of a TGSI file (from its header line to the end), else the
 * whole text (a VERT program); trailing blank lines are cut. */
static const char *main_program(char *text)
{
    size_t n = strlen(text);
    while (n > 1 && text[n - 1] == '\n' && text[n - 2] == '\n')
        text[--n] = '\0';
    const char *p = strstr(text, "\nFRAG\n");
    if (!p)
        p = strstr(text, "\nCOMP\n");
    if (p)
        return p + 1;
    return text;
}

/* Prepare <work>/<dir>/ with the job (text) and the GLSL source. */
static void stage_job(const char *dir, const char *stem, const char *glsl_name,
                      const char *job_text)
{
    char path[1024];
    mkdirs(dir);
    snprintf(path, sizeof path, "%s/%s.json", dir, stem);
    assert_true(spit(path, job_text, strlen(job_text)));
    char src[1024];
    snprintf(src, sizeof src, CORPUS "/%s", glsl_name);
    size_t n = 0;
    char *glsl = tc_slurp(src, &n);
    assert_non_null(glsl);
    snprintf(path, sizeof path, "%s/%s", dir, glsl_name);
    assert_true(spit(path, glsl, n));
    free(glsl);
}

/* Run mesa-run on <dir>/<stem>.json; returns its exit status. */
static int mesa_run(const char *dir, const char *stem, const char *driver, bool capture)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd,
             "cd '%s' && mkdir -p %s && '%s' --driver %s --quiet --out-dir %s %s%s%s '%s.json'",
             dir, driver, MESA_RUN, driver, driver, capture ? "--tgsi '" : "",
             capture ? stem : "", capture ? ".tgsi'" : "", stem);
    int rc = system(cmd);
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

static void check_tgsi(const char *dir, const char *stem, const char *corpus_tgsi)
{
    char a[1024], b[1024];
    snprintf(a, sizeof a, "%s/%s.tgsi", dir, stem);
    snprintf(b, sizeof b, CORPUS "/%s", corpus_tgsi);
    char *got = tc_slurp(a, NULL), *want = tc_slurp(b, NULL);
    assert_non_null(got);
    assert_non_null(want);
    const char *g = main_program(got), *w = main_program(want);
    assert_non_null(g);
    assert_non_null(w);
    if (strcmp(g, w) != 0)
        fail_msg("%s: softpipe's TGSI differs from %s", a, b);
    free(got);
    free(want);
}

/* texvm run on the same job (report only). */
static void texvm_compare(const char *dir, const char *stem, const char *out_name)
{
    const char *bin = getenv("TEXVM_BIN");
    if (!bin)
        return;
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "cd '%s' && mkdir -p texvm && timeout 120 '%s' run --quiet "
             "--out-dir texvm '%s.json' >texvm/log.txt 2>&1", dir, bin, stem);
    int rc = system(cmd);
    int code = WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
    char a[1024], b[1024];
    snprintf(a, sizeof a, "%s/softpipe/%s", dir, out_name);
    snprintf(b, sizeof b, "%s/texvm/%s", dir, out_name);
    size_t na = 0, nb = 0;
    char *x = tc_slurp(a, &na), *y = code == 0 ? tc_slurp(b, &nb) : NULL;
    if (!x || !y || na != nb) {
        print_message("  texvm vs softpipe %-22s: texvm run exit %d (see %s/texvm/log.txt)\n",
                      out_name, code, dir);
    } else {
        size_t same = 0, words = na / 4;
        double maxd = 0;
        for (size_t i = 0; i < words; i++) {
            uint32_t u, v;
            memcpy(&u, x + 4 * i, 4);
            memcpy(&v, y + 4 * i, 4);
            float fu, fv;
            memcpy(&fu, &u, 4);
            memcpy(&fv, &v, 4);
            same += u == v;
            double d = fabs((double)fu - (double)fv);
            if (d > maxd && !isnan(d))
                maxd = d;
        }
        print_message("  texvm vs softpipe %-22s: %zu/%zu words identical, max |diff| %g\n",
                      out_name, same, words, maxd);
    }
    free(x);
    free(y);
}

static void run_corpus_job_tgsi(const char *stem, const char *glsl_name, const char *out_name,
                                const char *corpus_tgsi)
{
    if (g_skip) {
        print_message("SKIP: %s\n", g_skip_reason);
        skip();
    }
    char jpath[1024], dir[1024];
    snprintf(jpath, sizeof jpath, JOBS "/%s.json", stem);
    snprintf(dir, sizeof dir, WORK "/%s", stem);
    char *job = tc_slurp(jpath, NULL);
    assert_non_null(job);
    stage_job(dir, stem, glsl_name, job);
    free(job);
    assert_int_equal(mesa_run(dir, stem, "softpipe", true), 0);
    check_tgsi(dir, stem, corpus_tgsi);
    assert_int_equal(mesa_run(dir, stem, "llvmpipe", false), 0);
    texvm_compare(dir, stem, out_name);
}

static void run_corpus_job(const char *stem, const char *glsl_name, const char *out_name)
{
    char tgsi[256];
    snprintf(tgsi, sizeof tgsi, "%s.tgsi", stem);
    run_corpus_job_tgsi(stem, glsl_name, out_name, tgsi);
}

static uint32_t *load_words(const char *dir, const char *driver, const char *name, size_t *n)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s/%s", dir, driver, name);
    size_t bytes = 0;
    char *data = tc_slurp(path, &bytes);
    assert_non_null(data);
    *n = bytes / 4;
    return (uint32_t *)(void *)data;
}

/* ---- ctrl_int.frag in C (GLSL integer semantics: wrapping, truncating division) ------ */
static int32_t wrap_i(int64_t v) { return (int32_t)(uint32_t)(uint64_t)v; }

static int find_msb(int32_t v)
{
    uint32_t u = v < 0 ? ~(uint32_t)v : (uint32_t)v;
    int m = -1;
    for (int b = 0; b < 32; b++)
        if (u >> b & 1u)
            m = b;
    return m;
}

/* Returns the mask of word 0 that GLSL defines: `acc % 7` is undefined for a negative acc
 * (GLSL 3.30 §5.9), and Mesa then computes an unsigned remainder. */
static uint32_t ctrl_int_ref(uint32_t px, uint32_t py, uint32_t out[4])
{
    uint32_t h = px * 73856093u ^ py * 19349663u;
    int32_t acc = (int32_t)px - (int32_t)py;
    uint32_t bits = 0;
    for (int i = 0; i < 17; i++) {
        h ^= h << 13;
        h ^= h >> 17;
        h ^= h << 5;
        if ((h & 7u) == 3u)
            continue;
        if (acc > 100000)
            break;
        acc = wrap_i((int64_t)acc + (int32_t)(h % 97u) - 48);
        int32_t three = wrap_i((int64_t)acc * 3);
        acc = wrap_i((int64_t)(three / 2) - (acc >> 2));
        bits |= 1u << (i & 31);
        if (i == 9 && (px & 1u) == 1u)
            acc = wrap_i(-(int64_t)acc);
    }
    int32_t q = acc / 7, m = acc % 7;
    uint32_t bitcount = 0, rev = 0;
    for (int b = 0; b < 32; b++) {
        bitcount += h >> b & 1u;
        rev |= (h >> b & 1u) << (31 - b);
    }
    uint32_t r2 = ((h >> 3) & 0x1ffu) + bitcount * 1000u;
    int msb = find_msb(acc);
    int lsb = -1;
    for (int b = 31; b >= 0; b--)
        if (h >> b & 1u)
            lsb = b;
    uint64_t wide = (uint64_t)h * 2654435761u;
    out[0] = (uint32_t)q ^ ((uint32_t)m << 24);
    out[1] = r2 + (uint32_t)msb * 65536u + (uint32_t)lsb;
    out[2] = rev ^ bits;
    out[3] = (uint32_t)(wide >> 32) + (h < 0x80000000u ? 1u : 0u);
    if (px == py) {
        int32_t mx = acc > -5 ? acc : -5;
        int32_t mn = (int32_t)h < 3 ? (int32_t)h : 3;
        uint32_t ab = acc < 0 ? (uint32_t)0 - (uint32_t)acc : (uint32_t)acc;
        out[3] = (uint32_t)mx + (uint32_t)mn + ab;
    }
    return acc < 0 ? 0x00ffffffu : 0xffffffffu;
}

static void test_ctrl_int(void **state)
{
    (void)state;
    run_corpus_job("ctrl_int", "ctrl_int.frag", "ctrl_int.rgba32ui");
    const char *drivers[] = {"softpipe", "llvmpipe"};
    for (int d = 0; d < 2; d++) {
        size_t n = 0;
        uint32_t *w = load_words(WORK "/ctrl_int", drivers[d], "ctrl_int.rgba32ui", &n);
        assert_int_equal(n, 32 * 32 * 4);
        int bad = 0;
        for (uint32_t y = 0; y < 32; y++)
            for (uint32_t x = 0; x < 32; x++) {
                uint32_t want[4];
                /* texvm/job row y is GL window row 31 - y (gl_FragCoord.y = 31 - y + 0.5) */
                uint32_t m0 = ctrl_int_ref(x, 31 - y, want);
                const uint32_t *got = w + (y * 32 + x) * 4;
                bool same = ((got[0] ^ want[0]) & m0) == 0 && !memcmp(got + 1, want + 1, 12);
                if (!same && bad++ < 3)
                    print_message("%s pixel (%u,%u): got %08x %08x %08x %08x want %08x %08x "
                                  "%08x %08x\n", drivers[d], x, y, w[(y * 32 + x) * 4],
                                  w[(y * 32 + x) * 4 + 1], w[(y * 32 + x) * 4 + 2],
                                  w[(y * 32 + x) * 4 + 3], want[0], want[1], want[2], want[3]);
            }
        free(w);
        assert_int_equal(bad, 0);
    }
}

/* ---- cs_ssbo.comp in C ----------------------------------------------------------------- */
static uint32_t cs_v(uint32_t gx, uint32_t gy) { return gx * 2654435761u ^ (gy + 0x9e3779b9u); }

static void test_cs_ssbo(void **state)
{
    (void)state;
    run_corpus_job("cs_ssbo", "cs_ssbo.comp", "cs_ssbo.bin");
    uint32_t want[16452 / 4];
    memset(want, 0, sizeof want);
    for (uint32_t gy = 0; gy < 64; gy++)
        for (uint32_t gx = 0; gx < 64; gx++) {
            uint32_t li = (gx & 7u) + 8u * (gy & 7u), nli = (li + 1u) & 63u;
            uint32_t nx = (gx & ~7u) + (nli & 7u), ny = (gy & ~7u) + (nli >> 3);
            uint32_t v = cs_v(gx, gy), nb = cs_v(nx, ny);
            want[0]++;
            want[1 + (nb & 15u)]++;
            want[17 + gy * 64 + gx] = v ^ nb;
        }
    const char *drivers[] = {"softpipe", "llvmpipe"};
    for (int d = 0; d < 2; d++) {
        size_t n = 0;
        uint32_t *w = load_words(WORK "/cs_ssbo", drivers[d], "cs_ssbo.bin", &n);
        assert_int_equal(n, 16452 / 4);
        for (size_t i = 0; i < n; i++)
            if (w[i] != want[i])
                fail_msg("%s: cs_ssbo word %zu = %u, want %u", drivers[d], i, w[i], want[i]);
        free(w);
        float *img = (float *)(void *)load_words(WORK "/cs_ssbo", drivers[d],
                                                 "cs_ssbo_img.rgba32f", &n);
        assert_int_equal(n, 64 * 64 * 4);
        for (uint32_t gy = 0; gy < 64; gy++)
            for (uint32_t gx = 0; gx < 64; gx++) {
                uint32_t li = (gx & 7u) + 8u * (gy & 7u), nli = (li + 1u) & 63u;
                uint32_t nb = cs_v((gx & ~7u) + (nli & 7u), (gy & ~7u) + (nli >> 3));
                const float *p = img + (gy * 64 + gx) * 4; /* image row gy = texel row gy */
                double idx = gy * 64.0 + gx;
                assert_true(fabs(p[0] - (cs_v(gx, gy) & 255u) / 255.0) < 1e-6);
                assert_true(fabs(p[1] - (nb & 255u) / 255.0) < 1e-6);
                assert_true(fabs(p[2] - sin(idx * 0.01)) < 2e-3);
                assert_true(p[3] == (float)li);
            }
        free(img);
    }
}

/* ---- bench_math.frag in double ----------------------------------------------------------- */
static void test_bench_math(void **state)
{
    (void)state;
    run_corpus_job("bench_math", "bench_math.frag", "bench_math.rgba32f");
    static const double s[4] = {1.0001, 0.9999, 1.0002, 0.9998};
    const char *drivers[] = {"softpipe", "llvmpipe"};
    for (int d = 0; d < 2; d++) {
        size_t n = 0;
        float *o = (float *)(void *)load_words(WORK "/bench_math", drivers[d],
                                               "bench_math.rgba32f", &n);
        assert_int_equal(n, 32 * 32 * 4);
        double worst = 0;
        for (int y = 0; y < 32; y++)
            for (int x = 0; x < 32; x++) {
                /* v_uv: (0,0) at the top-left corner, (1,1) bottom-right; pixel centres */
                double u = (x + 0.5) / 32.0, v = (y + 0.5) / 32.0;
                double r[4] = {u, v, v * 0.5, u * 0.5};
                for (int k = 1; k <= 25; k++)
                    for (int c = 0; c < 4; c++)
                        r[c] = sin(r[c] * s[c] + 0.01 * k);
                for (int c = 0; c < 4; c++) {
                    double e = fabs(o[(y * 32 + x) * 4 + c] - r[c]);
                    worst = e > worst ? e : worst;
                }
            }
        print_message("  bench_math %s: max |diff| from float64 = %g\n", drivers[d], worst);
        assert_true(worst < 1e-4);
        free(o);
    }
}

/* vs.glsl: the vertex stage through transform feedback; uv = pos * 0.5 + 0.5. */
static void test_vs(void **state)
{
    (void)state;
    run_corpus_job_tgsi("vs", "vs.glsl", "verts.txt", "vs_mesa22.3.6_softpipe.tgsi");
    const char *drivers[] = {"softpipe", "llvmpipe"};
    for (int d = 0; d < 2; d++) {
        char path[1024];
        snprintf(path, sizeof path, WORK "/vs/%s/verts.txt", drivers[d]);
        char *text = tc_slurp(path, NULL);
        assert_non_null(text);
        assert_non_null(strstr(text, "instance 1 vertex 2\n  OUT[0] (-1 3 0 1)"));
        assert_non_null(strstr(text, "instance 0 vertex 1\n  OUT[0] (3 -1 0 1) [40400000 "
                                     "bf800000 00000000 3f800000]\n  OUT[1] (2 0 0 0)"));
        free(text);
    }
}

static void test_fs(void **state)
{
    (void)state;
    run_corpus_job_tgsi("fs", "fs.glsl", "fs.rgba32f", "fs_mesa22.3.6_softpipe.tgsi");
}

static void test_fs3(void **state)
{
    (void)state;
    run_corpus_job_tgsi("fs3", "fs3.glsl", "fs3.rgba32f", "fs3_loop_mesa22.3.6_softpipe.tgsi");
}

static void test_simple(void **state)
{
    (void)state;
    run_corpus_job("simple", "simple.frag", "simple.rgba32f");
}

static void test_es31_tex(void **state)
{
    (void)state;
    run_corpus_job("es31_tex", "es31_tex.frag", "es31_tex.rgba32f");
}

/* tex_all: one job per u_op value (CONST[0][0].x), outputs under tex_all/u_op_<n>/. */
static void test_tex_all(void **state)
{
    (void)state;
    if (g_skip) {
        print_message("SKIP: %s\n", g_skip_reason);
        skip();
    }
    char *job = tc_slurp(JOBS "/tex_all.json", NULL);
    assert_non_null(job);
    char *mark = strstr(job, "\"i:0\"");
    assert_non_null(mark);
    for (int op = 0; op <= 23; op++) {
        char dir[1024];
        snprintf(dir, sizeof dir, WORK "/tex_all/u_op_%02d", op);
        size_t cap = strlen(job) + 16;
        char *text = malloc(cap);
        assert_non_null(text);
        snprintf(text, cap, "%.*s\"i:%d\"%s", (int)(mark - job), job, op, mark + 5);
        stage_job(dir, "tex_all", "tex_all.frag", text);
        free(text);
        if (op > 0) {
            /* later jobs read the TGSI captured with u_op = 0 (the program is the same) */
            char from[1100], to[1100];
            snprintf(from, sizeof from, WORK "/tex_all/u_op_00/tex_all.tgsi");
            snprintf(to, sizeof to, "%s/tex_all.tgsi", dir);
            size_t n = 0;
            char *t = tc_slurp(from, &n);
            assert_non_null(t);
            assert_true(spit(to, t, n));
            free(t);
        }
        assert_int_equal(mesa_run(dir, "tex_all", "softpipe", op == 0), 0);
        if (op == 0)
            check_tgsi(dir, "tex_all", "tex_all.tgsi");
        assert_int_equal(mesa_run(dir, "tex_all", "llvmpipe", false), 0);
        texvm_compare(dir, "tex_all", "tex_all.rgba32f");
    }
    free(job);
}

static int setup(void **state)
{
    (void)state;
    struct stat st;
    if (stat(MESA_RUN, &st) != 0) {
        g_skip = true;
        snprintf(g_skip_reason, sizeof g_skip_reason, "tools/mesa-run was not built");
        return 0;
    }
    if (stat(CORPUS, &st) != 0) {
        g_skip = true;
        snprintf(g_skip_reason, sizeof g_skip_reason, "no corpus at %s", CORPUS);
        return 0;
    }
    /* An EGL display must open: try the cheapest job. */
    mkdirs(WORK "/probe");
    const char *probe = "{ \"texvm_job\": 1, \"programs\": [ { \"stage\": \"FRAG\", "
                        "\"tgsi_text\": \"FRAG\\n  0: END\\n\", \"glsl\": \"p.frag\" } ], "
                        "\"frag\": { \"width\": 1, \"height\": 1 } }";
    const char *fs = "#version 330 core\nout vec4 o;\nvoid main() { o = vec4(1.0); }\n";
    spit(WORK "/probe/probe.json", probe, strlen(probe));
    spit(WORK "/probe/p.frag", fs, strlen(fs));
    int rc = mesa_run(WORK "/probe", "probe", "llvmpipe", false);
    if (rc != 0) {
        g_skip = true;
        snprintf(g_skip_reason, sizeof g_skip_reason,
                 "mesa-run cannot open an llvmpipe EGL context here (exit %d)", rc);
    }
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ctrl_int), cmocka_unit_test(test_cs_ssbo),
        cmocka_unit_test(test_bench_math), cmocka_unit_test(test_vs), cmocka_unit_test(test_fs),
        cmocka_unit_test(test_fs3), cmocka_unit_test(test_simple),
        cmocka_unit_test(test_es31_tex), cmocka_unit_test(test_tex_all),
    };
    return cmocka_run_group_tests_name("corpus_mesa", tests, setup, NULL);
}
