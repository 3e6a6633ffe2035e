/* texvm run end to end: spawn $TEXVM_BIN on small jobs and compare the outputs with values
 * computed here from the job's definition (pixel centres, thread ids), plus exit codes,
 * messages, checks, the trace and the short forms. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "helper_cli.h"
#include "image.h"
#include "common_file.h"
#include "texvm/vm.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

static char *slurp(const char *name, size_t *size)
{
    return tc_slurp(tcli_path(name), size);
}

static void contains(const char *file, const char *needle)
{
    char *s = slurp(file, NULL);
    assert_non_null(s);
    if (!strstr(s, needle)) {
        fprintf(stderr, "%s:\n%s\n", file, s);
        free(s);
        fail_msg("%s does not contain \"%s\"", file, needle);
    }
    free(s);
}

#define UV_FRAG "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\n" \
                "IMM[0] FLT32 {0.2500, 1.0000, 0.0000, 0.0000}\n" \
                "  0: MOV OUT[0].xy, IN[0].xyxx\n  1: MOV OUT[0].z, IMM[0].xxxx\n" \
                "  2: MOV OUT[0].w, IMM[0].yyyy\n  3: END\n"

/* The job uv.json: UV_FRAG (uv.tgsi) over an 8x4 target with corner uv (0,0)..(1,1), its
 * floats to uv.f32 and, where PNG, its picture to uv.png. */
static void write_uv_job(bool png)
{
    tcli_write("uv.tgsi", UV_FRAG, strlen(UV_FRAG));
    char json[512];
    snprintf(json, sizeof json,
             "{'texvm_job': 1, 'programs': [{'tgsi': 'uv.tgsi'}],"
             " 'frag': {'width': 8, 'height': 4, 'inputs': [{'index': 0, 'values':"
             "  [[0, 0, 0, 1], [1, 0, 0, 1], [0, 1, 0, 1], [1, 1, 0, 1]]}]},"
             " 'outputs': [{'target': 0, 'raw': 'uv.f32'}%s]}",
             png ? ", {'target': 0, 'png': 'uv.png'}" : "");
    tcli_json("uv.json", json);
}

/* IN[0] over a full-target rect with corner uv (0,0)..(1,1): at pixel centres the value is
 * ((x + 0.5) / W, (y + 0.5) / H) exactly for these power-of-two sizes. */
static void frag_interpolation(void **state)
{
    (void)state;
    write_uv_job(true);
    assert_int_equal(tcli_run("uv.json --threads 2"), 0);
    size_t size;
    char *raw = slurp("uv.f32", &size);
    assert_non_null(raw);
    assert_int_equal(size, 8 * 4 * 16);
    const float *f = (const float *)raw;
    for (int y = 0; y < 4; y++)
        for (int x = 0; x < 8; x++) {
            const float *p = f + 4 * (y * 8 + x);
            assert_true(p[0] == (x + 0.5f) / 8);
            assert_true(p[1] == (y + 0.5f) / 4);
            assert_true(p[2] == 0.25f);
            assert_true(p[3] == 1.0f);
        }
    free(raw);
    image img;
    char msg[512];
    assert_int_equal(image_png_read(tcli_path("uv.png"), &img, msg, sizeof msg), 0);
    assert_int_equal(img.channels, 4);
    /* pixel (3, 1): u = 0.4375 -> 111.5625 -> 112; v = 0.375 -> 95.625 -> 96; 0.25 -> 64 */
    const uint16_t *p = img.px + 4 * (1 * 8 + 3);
    assert_int_equal(p[0], 112);
    assert_int_equal(p[1], 96);
    assert_int_equal(p[2], 64);
    assert_int_equal(p[3], 255);
    image_free(&img);
}

/* The output of `texvm --version --verbose` into OUT (at most SIZE - 1 bytes, 0-ended);
 * asserts it exited with 0. */
static void version_verbose_text(char *out, size_t size)
{
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "'%s' --version --verbose", tcli_bin());
    FILE *f = popen(cmd, "r");
    assert_non_null(f);
    size_t n = fread(out, 1, size - 1, f);
    assert_int_equal(pclose(f), 0);
    out[n] = 0;
}

/* Without LLVM's library at run time (where the build loads it when the JIT first starts,
 * TEXVM_JIT_LAZY: docs/jit.md "Loading LLVM"): `--jit always` runs interpreted, to the same pixels,
 * saying why (TEXVM_JIT_VERBOSE), and --version names the reason; a file that is not LLVM
 * (libm: it lacks LLVM's functions) is refused the same way. */
static void jit_without_llvm(void **state)
{
    (void)state;
#if defined(TEXVM_JIT_LAZY)
    write_uv_job(false);
    size_t size, size_jit;
    assert_int_equal(tcli_run("uv.json --jit always"), 0);
    char *jit = slurp("uv.f32", &size_jit);
    assert_non_null(jit);
    setenv("TEXVM_LLVM_LIBRARY", "/nonexistent/libLLVM-15.so.1", 1);
    setenv("TEXVM_JIT_VERBOSE", "1", 1);
    assert_int_equal(tcli_run("uv.json --jit always"), 0);
    char *raw = slurp("uv.f32", &size);
    char *err = slurp("stderr.txt", NULL);
    assert_non_null(raw);
    assert_non_null(err);
    assert_int_equal(size, 8 * 4 * 16);
    assert_int_equal(size, size_jit);
    assert_memory_equal(raw, jit, size);
    assert_non_null(strstr(err, "texvm jit: program declined: the JIT could not start: cannot "
                                "load LLVM: /nonexistent/libLLVM-15.so.1: "));
    free(raw);
    free(err);
    free(jit);
    char out[2048];
    version_verbose_text(out, sizeof out);
    assert_non_null(strstr(out, ", jit llvm-15 (not loaded: cannot load LLVM: "
                                "/nonexistent/libLLVM-15.so.1: "));
    setenv("TEXVM_LLVM_LIBRARY", "libm.so.6", 1);
    version_verbose_text(out, sizeof out);
    assert_non_null(strstr(out, ", jit llvm-15 (not loaded: LLVM (libm.so.6) has no function "
                                "LLVMInitializeX86TargetInfo)"));
    unsetenv("TEXVM_LLVM_LIBRARY");
    unsetenv("TEXVM_JIT_VERBOSE");
#else
    skip();
#endif
}

/* Perspective: a rect whose right edge has w = 2 (all values given as v, interpolated as
 * v/w and 1/w): along a row the value at pixel centre x is (x/W)/w'... computed here. */
static void frag_perspective(void **state)
{
    (void)state;
    tcli_write("uv.tgsi", UV_FRAG, strlen(UV_FRAG));
    tcli_json("persp.json",
              "{'texvm_job': 1, 'programs': [{'tgsi': 'uv.tgsi'}],"
              " 'frag': {'width': 4, 'height': 2, 'positions': [[0, 0, 0, 1], [4, 0, 0, 2],"
              "  [0, 2, 0, 1], [4, 2, 0, 2]], 'inputs': [{'index': 0, 'values':"
              "  [[0, 0, 0, 1], [1, 0, 0, 1], [0, 1, 0, 1], [1, 1, 0, 1]]}]},"
              " 'outputs': [{'target': 0, 'raw': 'persp.f32'}]}");
    assert_int_equal(tcli_run("persp.json"), 0);
    char *raw = slurp("persp.f32", NULL);
    assert_non_null(raw);
    const float *f = (const float *)raw; /* reassigned below */
    for (int x = 0; x < 4; x++) {
        double a = (x + 0.5) / 4;                  /* screen-space fraction */
        double want = (a / 2) / ((1 - a) + a / 2); /* u/w over 1/w */
        double got = f[4 * x];
        if (got < want - 1e-6 || got > want + 1e-6)
            fail_msg("pixel %d: u = %.9g, want %.9g", x, got, want);
    }
    free(raw);
    /* the job overrides the declaration: screen-linear, u = (x + 0.5) / 4 */
    tcli_json("lin.json",
              "{'texvm_job': 1, 'programs': [{'tgsi': 'uv.tgsi'}],"
              " 'frag': {'width': 4, 'height': 2, 'positions': [[0, 0, 0, 1], [4, 0, 0, 2],"
              "  [0, 2, 0, 1], [4, 2, 0, 2]], 'inputs': [{'index': 0, 'interpolate': 'linear',"
              "  'values': [[0, 0, 0, 1], [1, 0, 0, 1], [0, 1, 0, 1], [1, 1, 0, 1]]}]},"
              " 'outputs': [{'target': 0, 'raw': 'lin.f32'}]}");
    assert_int_equal(tcli_run("lin.json"), 0);
    raw = slurp("lin.f32", NULL);
    assert_non_null(raw);
    f = (const float *)raw;
    for (int x = 0; x < 4; x++)
        assert_true(f[4 * x] == (x + 0.5f) / 4);
    free(raw);
}

#define IDS_COMP "COMP\nPROPERTY CS_FIXED_BLOCK_WIDTH 4\nPROPERTY CS_FIXED_BLOCK_HEIGHT 2\n" \
                 "PROPERTY CS_FIXED_BLOCK_DEPTH 1\nDCL SV[0], BLOCK_ID\nDCL SV[1], THREAD_ID\n" \
                 "DCL BUFFER[0]\nDCL TEMP[0..1]\nIMM[0] UINT32 {4, 2, 8, 16}\n" \
                 "  0: UMAD TEMP[0].x, SV[0].xxxx, IMM[0].xxxx, SV[1].xxxx\n" \
                 "  1: UMAD TEMP[0].y, SV[0].yyyy, IMM[0].yyyy, SV[1].yyyy\n" \
                 "  2: UMAD TEMP[1].x, TEMP[0].yyyy, IMM[0].zzzz, TEMP[0].xxxx\n" \
                 "  3: SHL TEMP[1].x, TEMP[1].xxxx, IMM[0].yyyy\n" \
                 "  4: UMAD TEMP[0].z, TEMP[0].yyyy, IMM[0].wwww, TEMP[0].xxxx\n" \
                 "  5: STORE BUFFER[0].x, TEMP[1].xxxx, TEMP[0].zzzz\n  6: END\n"

/* Every thread of a 2x2 grid of 4x2 blocks stores y*16 + x at word y*8 + x. */
static void compute_buffer(void **state)
{
    (void)state;
    tcli_write("ids.tgsi", IDS_COMP, strlen(IDS_COMP));
    tcli_json("ids.json",
              "{'texvm_job': 1, 'programs': [{'tgsi': 'ids.tgsi'}], 'comp': {'grid': [2, 2]},"
              " 'buffers': [{'name': 'out', 'slot': 0, 'size': 128, 'fill': '0xdeadbeef'}],"
              " 'outputs': [{'buffer': 'out', 'raw': 'ids.bin'},"
              "  {'buffer': 'out', 'dump': 'ids.txt', 'columns': 8}],"
              " 'checks': [{'buffer': 'out', 'offset': 36, 'values': [17, 18]}]}");
    assert_int_equal(tcli_run("ids.json --threads 1"), 0);
    char *raw = slurp("ids.bin", NULL);
    assert_non_null(raw);
    const uint32_t *w = (const uint32_t *)raw;
    for (uint32_t y = 0; y < 4; y++)
        for (uint32_t x = 0; x < 8; x++)
            assert_int_equal(w[y * 8 + x], y * 16 + x);
    free(raw);
    contains("ids.txt", "0x0020: 16 17 18 19 20 21 22 23\n");
    contains("stderr.txt", "1 checks passed");
    /* the same job with 2 threads gives the same bytes */
    assert_int_equal(tcli_run("ids.json --threads 2 --quiet"), 0);
    char *again = slurp("ids.bin", NULL);
    assert_non_null(again);
    for (uint32_t i = 0; i < 32; i++)
        assert_int_equal(((const uint32_t *)again)[i], (i / 8) * 16 + i % 8);
    free(again);
    /* block size that disagrees with the program's properties */
    tcli_json("ids_bad.json",
              "{'texvm_job': 1, 'programs': [{'tgsi': 'ids.tgsi'}],"
              " 'comp': {'grid': [1], 'block': [8, 1, 1]}}");
    assert_int_equal(tcli_run("ids_bad.json"), 1);
    contains("stderr.txt",
             "texvm run: comp.block [8, 1, 1] disagrees with the program's CS_FIXED_BLOCK_* "
             "[4, 2, 1]");
}

#define DERIV_FRAG(DX, DY) "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\n" \
                "DCL TEMP[0]\nIMM[0] FLT32 {64.0, 1.0, 0.0, 0.0}\n" \
                "  0: MUL TEMP[0].x, IN[0].xxxx, IN[0].yyyy\n" \
                "  1: MUL TEMP[0].x, TEMP[0].xxxx, IMM[0].xxxx\n" \
                "  2: " DX " OUT[0].x, TEMP[0].xxxx\n  3: " DY " OUT[0].y, TEMP[0].xxxx\n" \
                "  4: MOV OUT[0].zw, IMM[0].zzzy\n  5: END\n"
#define DERIV_JOB(PROG, OUT, OPTS) \
    "{'texvm_job': 1, 'programs': [{'tgsi': '" PROG "'}]," \
    " 'frag': {'width': 8, 'height': 4, 'inputs': [{'index': 0, 'values':" \
    "  [[0, 0, 0, 1], [1, 0, 0, 1], [0, 1, 0, 1], [1, 1, 0, 1]]}]}," \
    " 'outputs': [{'target': 0, 'raw': '" OUT "'}]" OPTS "}"

/* options.derivatives "fine": DDX/DDY of 64xy (not linear: its x step changes from row to
 * row) give what DDX_FINE/DDY_FINE give, unlike the default coarse ones; options.denormals
 * "flush": a denormal operand reads as zero (the CPU's DAZ mode), "ieee" keeps it. */
static void shader_rules_options(void **state)
{
    (void)state;
    tcli_write("d.tgsi", DERIV_FRAG("DDX", "DDY"), strlen(DERIV_FRAG("DDX", "DDY")));
    tcli_write("df.tgsi", DERIV_FRAG("DDX_FINE", "DDY_FINE"),
               strlen(DERIV_FRAG("DDX_FINE", "DDY_FINE")));
    tcli_json("coarse.json", DERIV_JOB("d.tgsi", "coarse.f32", ""));
    tcli_json("fine.json", DERIV_JOB("d.tgsi", "fine.f32", ", 'options': {'derivatives': 'fine'}"));
    tcli_json("opfine.json", DERIV_JOB("df.tgsi", "opfine.f32", ""));
    assert_int_equal(tcli_run("coarse.json"), 0);
    assert_int_equal(tcli_run("fine.json"), 0);
    assert_int_equal(tcli_run("opfine.json"), 0);
    size_t n1, n2, n3;
    char *coarse = slurp("coarse.f32", &n1), *fine = slurp("fine.f32", &n2),
         *opfine = slurp("opfine.f32", &n3);
    assert_true(coarse && fine && opfine && n1 == 512 && n2 == 512 && n3 == 512);
    assert_memory_equal(fine, opfine, 512);
    assert_memory_not_equal(coarse, fine, 512);
    free(coarse), free(fine), free(opfine);

    /* ADD of the smallest denormal (bits 1) and 0 into a buffer, at one thread */
    const char *den = "COMP\nPROPERTY CS_FIXED_BLOCK_WIDTH 1\nPROPERTY CS_FIXED_BLOCK_HEIGHT 1\n"
                      "PROPERTY CS_FIXED_BLOCK_DEPTH 1\nDCL BUFFER[0]\nDCL TEMP[0]\n"
                      "IMM[0] UINT32 {1, 0, 0, 0}\n"
                      "  0: ADD TEMP[0].x, IMM[0].xxxx, IMM[0].yyyy\n"
                      "  1: STORE BUFFER[0].x, IMM[0].yyyy, TEMP[0].xxxx\n  2: END\n";
    tcli_write("den.tgsi", den, strlen(den));
#define DEN_JOB(OPTS) "{'texvm_job': 1, 'programs': [{'tgsi': 'den.tgsi'}], 'comp': {'grid': [1]}," \
                      " 'buffers': [{'name': 'o', 'slot': 0, 'size': 4, 'fill': '0xdeadbeef'}]," \
                      " 'outputs': [{'buffer': 'o', 'raw': 'den.bin'}]" OPTS "}"
    tcli_json("ieee.json", DEN_JOB(", 'options': {'denormals': 'ieee'}"));
    tcli_json("flush.json", DEN_JOB(", 'options': {'denormals': 'flush'}"));
    uint32_t w;
    assert_int_equal(tcli_run("ieee.json"), 0);
    char *b = slurp("den.bin", NULL);
    memcpy(&w, b, 4), free(b);
    assert_int_equal(w, 1);
    assert_int_equal(tcli_run("flush.json"), 0);
    b = slurp("den.bin", NULL);
    memcpy(&w, b, 4), free(b);
    assert_int_equal(w, 0);
    tcli_json("bad.json", DEN_JOB(", 'options': {'denormals': 'ftz'}"));
    assert_int_equal(tcli_run("bad.json"), 1);
    contains("stderr.txt", "at key \"options.denormals\": unknown value \"ftz\" (expected one "
                           "of: ieee, flush)");
}

static void failed_check_exit(void **state)
{
    (void)state;
    tcli_write("uv.tgsi", UV_FRAG, strlen(UV_FRAG));
    tcli_json("chk.json",
              "{'texvm_job': 1, 'programs': [{'tgsi': 'uv.tgsi'}], 'frag': {'size': [2, 2]},"
              " 'checks': [{'target': 0, 'pixel': [1, 0], 'values': [0.75, 0.25, 0.25, 1]},"
              "  {'target': 0, 'pixel': [0, 0], 'values': [0.5, 0.25, 0.25, 1]}]}");
    /* the default inputs are zero: u = v = 0 */
    assert_int_equal(tcli_run("chk.json"), 1);
    contains("stderr.txt", "texvm run: check 0 failed: target 0 pixel (1, 0): got 0 0 0.25 1, "
                           "expected 0.75 0.25 0.25 1\n");
    contains("stderr.txt", "texvm run: 2 of 2 checks failed");
}

static void exit_codes(void **state)
{
    (void)state;
    assert_int_equal(tcli_run(""), 2);
    assert_int_equal(tcli_run("--bogus x.json"), 2);
    contains("stderr.txt", "texvm run: unknown option '--bogus' (try texvm run --help)");
    assert_int_equal(tcli_run("missing.json"), 3);
    contains("stderr.txt", "missing.json: cannot read \"missing.json\": No such file or directory");
    tcli_json("bad.json", "{'texvm_job': 1, 'programs': [{'tgsi_text': 'FRAG\\n'}],"
                           " 'frag': {'width': 4, 'height': 4}, 'textures': "
                           "[{'format': 'RGBA9', 'width': 4}]}");
    assert_int_equal(tcli_run("bad.json"), 1);
    contains("stderr.txt",
             "bad.json: at key \"textures[0].format\": unknown format \"RGBA9\"");
    assert_int_equal(tcli_run("bad.json --size 4x4"), 2);
    assert_int_equal(tcli_run("--threads x bad.json"), 2);
    contains("stderr.txt", "texvm run: --threads x: expected 0..1024");
    assert_int_equal(tcli_run("--help"), 0);
    contains("stdout.txt", "usage: texvm run JOB.json [options]");
    /* a TGSI syntax error */
    tcli_write("broken.tgsi", "FRAG\n  0: MOV OUT[0], \n", 24);
    assert_int_equal(tcli_run("broken.tgsi"), 1);
    contains("stderr.txt", "broken.tgsi:3:1: ");
}

/* texvm --version --verbose: the version line as --version prints it, then the processor
 * and one of the named variants of each kernel family. */
static void version_verbose(void **state)
{
    (void)state;
    char out[1024];
    version_verbose_text(out, sizeof out);
    char version[64];
    snprintf(version, sizeof version, "texvm %s\ncpu: ", tv_version());
    assert_true(!strncmp(out, version, strlen(version)));
    const char *k = strstr(out, "\nkernels: engine ");
    assert_non_null(k);
    /* one name of each family (NULL-terminated lists) */
    static const char *const families[3][5] = {
        {"engine avx512f,", "engine avx2,", "engine default,", NULL},
        {"tile stores avx512,", "tile stores avx2,", "tile stores sse2,", "tile stores generic,",
         NULL},
        {"texture avx512, ", "texture avx2, ", "texture generic, ", NULL}};
    for (int f = 0; f < 3; f++) {
        int found = 0;
        for (int i = 0; families[f][i]; i++)
            found += strstr(k, families[f][i]) != NULL;
        if (found != 1)
            fail_msg("kernel family %d: %d names found in \"%s\"", f, found, k);
    }
    /* what the JIT compiles for: LLVM and its name for the processor, or none */
    assert_non_null(strstr(k, tv_vm_jit_available() ? ", jit llvm-" : ", jit none\n"));
#if defined(__x86_64__) && defined(__linux__)
    /* the CPUID signature: the family and model the kernel computed from the same
       registers (/proc/cpuinfo's decimal "cpu family" and "model") */
    unsigned family = 0, model = 0;
    FILE *ci = fopen("/proc/cpuinfo", "r");
    assert_non_null(ci);
    char line[512];
    int got = 0;
    while (got < 2 && fgets(line, sizeof line, ci)) {
        got += sscanf(line, "cpu family : %u", &family) == 1;
        got += sscanf(line, "model : %u", &model) == 1;
    }
    fclose(ci);
    assert_int_equal(got, 2);
    char sig[64];
    snprintf(sig, sizeof sig, " family 0x%x model 0x%x stepping ", family, model);
    assert_non_null(strstr(out, sig));
    assert_true(strstr(out, sig) < k);
#endif
}

#define LOOP_FRAG "FRAG\nDCL OUT[0], COLOR\n  0: BGNLOOP :0\n  1: ENDLOOP :0\n  2: END\n"

static void runtime_fault(void **state)
{
    (void)state;
    tcli_write("loop.tgsi", LOOP_FRAG, strlen(LOOP_FRAG));
    assert_int_equal(tcli_run("loop.tgsi --size 2x2 --max-instructions 1000"), 1);
    contains("stderr.txt", "texvm run: loop.tgsi:");
    contains("stderr.txt", "instruction budget (1000) exceeded");
}

static void trace_and_short_forms(void **state)
{
    (void)state;
    tcli_write("uv.tgsi", UV_FRAG, strlen(UV_FRAG));
    assert_int_equal(tcli_run("uv.tgsi --size 4x4 --out short.png --save-job short.json --trace 1,2"),
                     0);
    /* pixel (1, 2) of 4x4: u = 0.375 (0x3ec00000), v = 0.625 (0x3f200000) */
    contains("stdout.txt", "   0: MOV OUT[0].xy, IN[0].xyxx");
    contains("stdout.txt", "x=0.375 (0x3ec00000) y=0.625 (0x3f200000)");
    contains("stdout.txt", "   3: END");
    contains("stderr.txt", "wrote the job to short.json");
    image img;
    char msg[512];
    assert_int_equal(image_png_read(tcli_path("short.png"), &img, msg, sizeof msg), 0);
    assert_int_equal(img.width, 4);
    /* pixel (1, 2): 0.375 * 255 = 95.625 -> 96, 0.625 * 255 = 159.375 -> 159 */
    assert_int_equal(img.px[4 * (2 * 4 + 1)], 96);
    assert_int_equal(img.px[4 * (2 * 4 + 1) + 1], 159);
    image_free(&img);
    /* the saved job runs as a job file and loads with the documented defaults */
    job *j = tv_job_load_file(tcli_path("short.json"), NULL);
    assert_non_null(j);
    assert_int_equal(j->frag.width, 4);
    assert_int_equal(j->frag.num_inputs, 1);
    assert_int_equal(j->frag.inputs[0].values[3][0], 0x3f800000u);
    tv_job_free(j);
    /* COMP short form with a dumped buffer */
    tcli_write("ids.tgsi", IDS_COMP, strlen(IDS_COMP));
    assert_int_equal(tcli_run("ids.tgsi --grid 2x2 --buffer 0=128"), 0);
    contains("buffer0.txt", "0x0000: 0 1 2 3\n");
    contains("buffer0.txt", "0x0070: 52 53 54 55\n"); /* y = 3, x = 4..7 */
    /* --out with a folder: the folder (created) holds the image */
    char args[700];
    snprintf(args, sizeof args, "uv.tgsi --size 2x2 --out '%s/sub/dir/o.png' --quiet",
             tcli_tmpdir());
    assert_int_equal(tcli_run(args), 0);
    assert_int_equal(image_png_read(tcli_path("sub/dir/o.png"), &img, msg, sizeof msg), 0);
    assert_int_equal(img.width, 2);
    image_free(&img);
    assert_int_equal(tcli_run("ids.tgsi --size 4x4"), 2);
    contains("stderr.txt", "ids.tgsi: --size and --out are for FRAG programs");
}

#define NOP_COMP "COMP\n  0: END\n"

/* Texel data placed through the header's layout (pitch, block-linear, arrays, mip chains)
 * and read back by a raw output is the data that went in. */
static void texture_layout_round_trip(void **state)
{
    (void)state;
    tcli_write("nop.tgsi", NOP_COMP, strlen(NOP_COMP));
    /* 16x8 RGBA8, 2 layers, 4 levels: 16*8 + 8*4 + 4*2 + 2*1 = 170 texels per layer */
    size_t n = 170 * 2 * 4;
    uint8_t *data = malloc(n);
    assert_non_null(data);
    for (size_t i = 0; i < n; i++)
        data[i] = (uint8_t)(i * 31 + 7);
    tcli_write("tex.raw", data, n);
    tcli_json("layout.json",
              "{'texvm_job': 1, 'programs': [{'tgsi': 'nop.tgsi'}], 'comp': {'grid': [1]},"
              " 'textures': ["
              "  {'name': 'p', 'type': '2D_ARRAY', 'format': 'R8G8B8A8_UNORM', 'width': 16,"
              "   'height': 8, 'layers': 2, 'levels': 4, 'source': {'raw': 'tex.raw'}},"
              "  {'name': 'b', 'type': '2D_ARRAY', 'format': 'R8G8B8A8_UNORM', 'width': 16,"
              "   'height': 8, 'layers': 2, 'levels': 4, 'layout': 'block_linear',"
              "   'block': [0, 1, 0], 'source': {'raw': 'tex.raw'}},"
              "  {'name': 'q', 'type': '2D', 'format': 'R8G8B8A8_UNORM', 'width': 16,"
              "   'height': 8, 'pitch': 128, 'source': {'raw': 'tex.raw'}}],"
              " 'outputs': [{'texture': 'p', 'raw': 'p.raw'}, {'texture': 'b', 'raw': 'b.raw'},"
              "  {'texture': 'b', 'level': 1, 'layer': 1, 'raw': 'b11.raw'},"
              "  {'texture': 'q', 'raw': 'q.raw'}]}");
    assert_int_equal(tcli_run("layout.json"), 0);
    size_t size;
    char *p = slurp("p.raw", &size);
    assert_int_equal(size, n);
    assert_memory_equal(p, data, n);
    free(p);
    char *b = slurp("b.raw", &size);
    assert_int_equal(size, n);
    assert_memory_equal(b, data, n);
    free(b);
    /* level 1 of layer 1: after level 0 (2 layers) and level 1 of layer 0 */
    char *b11 = slurp("b11.raw", &size);
    assert_int_equal(size, 8 * 4 * 4);
    assert_memory_equal(b11, data + (16 * 8 * 2 + 8 * 4) * 4, 8 * 4 * 4);
    free(b11);
    char *q = slurp("q.raw", &size);
    assert_int_equal(size, 16 * 8 * 4);
    assert_memory_equal(q, data, 16 * 8 * 4);
    free(q);
    /* 3D block-linear with depth blocks, cube, buffer, 4x MSAA, BC1 blocks */
    tcli_json("layout2.json",
              "{'texvm_job': 1, 'programs': [{'tgsi': 'nop.tgsi'}], 'comp': {'grid': [1]},"
              " 'textures': ["
              "  {'name': 'v', 'type': '3D', 'format': 'R8G8B8A8_UNORM', 'width': 4, 'height': 4,"
              "   'depth': 4, 'levels': 2, 'layout': 'block_linear', 'block': [0, 1, 1],"
              "   'source': {'raw': 'tex.raw'}},"
              "  {'name': 'c', 'type': 'CUBE', 'format': 'R8G8B8A8_UNORM', 'width': 4,"
              "   'height': 4, 'levels': 2, 'source': {'raw': 'tex.raw'}},"
              "  {'name': 'b', 'type': 'BUFFER', 'format': 'R32_UINT', 'width': 100,"
              "   'source': {'raw': 'tex.raw'}},"
              "  {'name': 'm', 'format': 'R8G8B8A8_UNORM', 'width': 8, 'height': 4, 'samples': 4,"
              "   'source': {'raw': 'tex.raw'}},"
              "  {'name': 'bc', 'format': 'BC1_RGBA_UNORM', 'width': 16, 'height': 8, 'levels': 2,"
              "   'source': {'raw': 'tex.raw'}}],"
              " 'outputs': [{'texture': 'v', 'raw': 'v.raw'}, {'texture': 'c', 'raw': 'c.raw'},"
              "  {'texture': 'b', 'raw': 'b.raw'}, {'texture': 'm', 'raw': 'm.raw'},"
              "  {'texture': 'bc', 'raw': 'bc.raw'}]}");
    assert_int_equal(tcli_run("layout2.json"), 0);
    static const struct { const char *file; size_t size; } want[] = {
        {"v.raw", (4 * 4 * 4 + 2 * 2 * 2) * 4}, {"c.raw", (16 + 4) * 6 * 4},
        {"b.raw", 400}, {"m.raw", 8 * 4 * 4 * 4}, {"bc.raw", (4 * 2 + 2 * 1) * 8}};
    for (size_t k = 0; k < sizeof want / sizeof want[0]; k++) {
        char *r = slurp(want[k].file, &size);
        assert_non_null(r);
        assert_int_equal(size, want[k].size);
        assert_memory_equal(r, data, size);
        free(r);
    }
    free(data);
}

#define IMG_COMP "COMP\nPROPERTY CS_FIXED_BLOCK_WIDTH 4\nPROPERTY CS_FIXED_BLOCK_HEIGHT 4\n" \
                 "PROPERTY CS_FIXED_BLOCK_DEPTH 1\nDCL SV[0], THREAD_ID\n" \
                 "DCL IMAGE[0], 2D, PIPE_FORMAT_R32_UINT, WR\nDCL TEMP[0]\n" \
                 "IMM[0] UINT32 {100, 0, 0, 0}\n" \
                 "  0: UMAD TEMP[0].x, SV[0].yyyy, IMM[0].xxxx, SV[0].xxxx\n" \
                 "  1: STORE IMAGE[0], SV[0].xyyy, TEMP[0].xxxx, 2D, PIPE_FORMAT_R32_UINT\n" \
                 "  2: END\n"

/* A compute program stores y*100 + x into an image that is a view of a texture; the
 * texture's output and a check see the stores. */
static void image_stores(void **state)
{
    (void)state;
    tcli_write("img.tgsi", IMG_COMP, strlen(IMG_COMP));
    tcli_json("img.json",
              "{'texvm_job': 1, 'programs': [{'tgsi': 'img.tgsi'}], 'comp': {'grid': [1]},"
              " 'textures': [{'name': 't', 'format': 'R32_UINT', 'width': 4, 'height': 4,"
              "   'source': {'fill': [7]}}],"
              " 'images': [{'slot': 0, 'texture': 't'}],"
              " 'outputs': [{'texture': 't', 'raw': 'img.raw'}],"
              " 'checks': [{'texture': 't', 'pixel': [3, 2], 'values': [203]}]}");
    assert_int_equal(tcli_run("img.json"), 0);
    size_t size;
    char *raw = slurp("img.raw", &size);
    assert_int_equal(size, 64);
    for (uint32_t y = 0; y < 4; y++)
        for (uint32_t x = 0; x < 4; x++)
            assert_int_equal(((const uint32_t *)raw)[y * 4 + x], y * 100 + x);
    free(raw);
}

/* VERT over an attribute array: uv = pos * 0.5 + 0.5 (the corpus program), written as text;
 * GEOM passes triangles through, collected per stream. */
static void vertex_and_geometry(void **state)
{
    (void)state;
    const char *vs = "VERT\nDCL IN[0]\nDCL OUT[0], POSITION\nDCL OUT[1].xy, GENERIC[0]\n"
                     "IMM[0] UINT32 {1056964608, 0, 1065353216, 0}\n"
                     "  0: MAD OUT[1].xy, IN[0].xyxx, IMM[0].xxxx, IMM[0].xxxx\n"
                     "  1: MOV OUT[0].xy, IN[0].xyyy\n  2: MOV OUT[0].zw, IMM[0].yzyz\n  3: END\n";
    tcli_write("vs.tgsi", vs, strlen(vs));
    tcli_json("vs.json",
              "{'texvm_job': 1, 'programs': [{'tgsi': 'vs.tgsi'}],"
              " 'vert': {'count': 3, 'instances': 2, 'attributes': [{'index': 0,"
              "  'values': [[-1, -1], [3, -1], [-1, 3]]}]},"
              " 'outputs': [{'vertices': 'vs.txt'}]}");
    assert_int_equal(tcli_run("vs.json"), 0);
    contains("vs.txt", "instance 1 vertex 1\n"
                       "  OUT[0] (3 -1 0 1) [40400000 bf800000 00000000 3f800000]\n"
                       "  OUT[1] (2 0 0 0) [40000000 00000000 00000000 00000000]\n");
    const char *gs = "GEOM\nPROPERTY GS_INPUT_PRIMITIVE TRIANGLES\n"
                     "PROPERTY GS_OUTPUT_PRIMITIVE TRIANGLE_STRIP\n"
                     "PROPERTY GS_MAX_OUTPUT_VERTICES 3\nPROPERTY GS_INVOCATIONS 1\n"
                     "DCL IN[][0], POSITION\nDCL OUT[0], POSITION\nIMM[0] UINT32 {0, 0, 0, 0}\n"
                     "  0: MOV OUT[0], IN[2][0]\n  1: EMIT IMM[0].xxxx\n"
                     "  2: MOV OUT[0], IN[0][0]\n  3: EMIT IMM[0].xxxx\n"
                     "  4: ENDPRIM IMM[0].xxxx\n  5: END\n";
    tcli_write("gs.tgsi", gs, strlen(gs));
    tcli_json("gs.json",
              "{'texvm_job': 1, 'programs': [{'tgsi': 'gs.tgsi'}],"
              " 'geom': {'primitive': 'triangles', 'count': 2, 'inputs': [{'index': 0,"
              "  'values': [[0], [1], [2], [3], [4], [5]]}]},"
              " 'outputs': [{'vertices': 'gs.txt'}]}");
    assert_int_equal(tcli_run("gs.json"), 0);
    /* primitive 1 emits its vertex 2 (value 5) then its vertex 0 (value 3) */
    contains("gs.txt", "stream 0: 4 vertices, 2 primitives\n");
    tcli_json("gs_bad.json",
              "{'texvm_job': 1, 'programs': [{'tgsi': 'gs.tgsi'}],"
              " 'geom': {'primitive': 'points', 'count': 1}}");
    assert_int_equal(tcli_run("gs_bad.json"), 1);
    contains("stderr.txt", "texvm run: geom.primitive is points, but the program's "
                           "GS_INPUT_PRIMITIVE is triangles");
    contains("gs.txt", "primitive 1 (2 vertices)\n  vertex 2\n"
                       "    OUT[0] (5 0 0 1) [40a00000 00000000 00000000 3f800000]\n"
                       "  vertex 3\n    OUT[0] (3 0 0 1) [40400000 00000000 00000000 3f800000]\n");
}

#define TEX_FRAG "FRAG\nDCL IN[0].xy, GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\n" \
                 "DCL OUT[1], COLOR[1]\nDCL SAMP[0]\nDCL SAMP[1]\nDCL SVIEW[0], 2D, FLOAT\n" \
                 "DCL SVIEW[1], 2D, FLOAT\n" \
                 "  0: TEX OUT[0], IN[0].xyyy, SAMP[0], 2D\n" \
                 "  1: TEX OUT[1], IN[0].xyyy, SAMP[1], 2D\n  2: END\n"

/* Texture headers and samplers built from the job: point sampling at pixel centres returns
 * the texels as given (unit 0, a view swizzle on unit 1, repeat wrapping with uv 0..2, and
 * a texture bound to a slot other than its index). */
static void textures_end_to_end(void **state)
{
    (void)state;
    tcli_write("tex.tgsi", TEX_FRAG, strlen(TEX_FRAG));
    tcli_json("tex.json",
              "{'texvm_job': 1, 'programs': [{'tgsi': 'tex.tgsi'}],"
              " 'frag': {'width': 8, 'height': 8, 'inputs': [{'index': 0, 'values':"
              "  [[0, 0, 0, 1], [2, 0, 0, 1], [0, 2, 0, 1], [2, 2, 0, 1]]}],"
              "  'targets': [{'format': 'R32G32B32A32_FLOAT'}, {'format': 'R32G32B32A32_FLOAT'}]},"
              " 'textures': ["
              "  {'name': 'unused', 'format': 'R8_UNORM', 'width': 1, 'source': {'fill': [1]}},"
              "  {'name': 'grid', 'format': 'R32G32B32A32_FLOAT', 'width': 4, 'height': 4,"
              "   'source': {'pattern': 'uv'}},"
              "  {'name': 'swz', 'format': 'R8G8B8A8_UNORM', 'width': 4, 'height': 4,"
              "   'view': {'swizzle': 'bgr1'},"
              "   'source': {'fill': [0.2, 0.4, 0.6, 0.8]}}],"
              " 'samplers': [{'name': 'point', 'filter': 'point', 'wrap': 'repeat'}],"
              " 'bindings': {'units': [{'slot': 0, 'texture': 'grid', 'sampler': 'point'},"
              "   {'slot': 1, 'texture': 'swz', 'sampler': 'point'}]},"
              " 'outputs': [{'target': 0, 'raw': 't0.f32'}, {'target': 1, 'raw': 't1.f32'}]}");
    assert_int_equal(tcli_run("tex.json"), 0);
    char *t0 = slurp("t0.f32", NULL), *t1 = slurp("t1.f32", NULL);
    assert_non_null(t0);
    assert_non_null(t1);
    const float *a = (const float *)t0, *b = (const float *)t1;
    for (int y = 0; y < 8; y++)
        for (int x = 0; x < 8; x++) {
            /* uv = 2 * (x + 0.5) / 8 -> texel x mod 4; the uv pattern's value there */
            int tx = x % 4, ty = y % 4;
            const float *p = a + 4 * (y * 8 + x);
            assert_true(p[0] == (float)((tx + 0.5) / 4));
            assert_true(p[1] == (float)((ty + 0.5) / 4));
            assert_true(p[2] == 0.0f);
            assert_true(p[3] == 1.0f);
            /* RGBA8 (51, 102, 153, 204) swizzled bgr1 */
            const float *q = b + 4 * (y * 8 + x);
            assert_true(q[0] == 153 / 255.0f);
            assert_true(q[1] == 102 / 255.0f);
            assert_true(q[2] == 51 / 255.0f);
            assert_true(q[3] == 1.0f);
        }
    free(t0);
    free(t1);
}

/* Short forms with textures: --tex N=pattern:fill and --tex N=FILE.png bound to units 0 and
 * 1 with the default sampler; uniform textures give their colour whatever the filter. */
static void short_form_textures(void **state)
{
    (void)state;
    tcli_write("tex.tgsi", TEX_FRAG, strlen(TEX_FRAG));
    image png = {3, 2, 3, 8, NULL};
    uint16_t px[18];
    for (int i = 0; i < 6; i++) {
        px[3 * i] = 10;
        px[3 * i + 1] = 200;
        px[3 * i + 2] = 77;
    }
    png.px = px;
    char msg[512];
    assert_int_equal(image_png_write(tcli_path("flat.png"), &png, msg, sizeof msg), 0);
    assert_int_equal(tcli_run("tex.tgsi --size 8x4 --tex 0=pattern:fill:16 --tex 1=flat.png "
                           "--out st.png --save-job st.json"),
                     0);
    image img;
    assert_int_equal(image_png_read(tcli_path("st.png"), &img, msg, sizeof msg), 0);
    for (int i = 0; i < 8 * 4; i++)
        for (int c = 0; c < 4; c++)
            assert_int_equal(img.px[4 * i + c], 255); /* target 0: the white fill */
    image_free(&img);
    job *j = tv_job_load_file(tcli_path("st.json"), NULL);
    assert_non_null(j);
    assert_int_equal(j->num_textures, 2);
    assert_int_equal(j->textures[1].width, 3);
    assert_int_equal(j->textures[1].levels, 2); /* 3x2 -> 1x1 */
    assert_int_equal(j->samplers[1].min_filter, TV_MIN_ANISO);
    assert_int_equal(j->samplers[1].max_anisotropy, 16);
    assert_int_equal(j->sview[1], 1);
    assert_int_equal(j->samp[1], 1);
    /* the PNG's texels, as stored */
    assert_int_equal(j->textures[1].data[0], 10);
    assert_int_equal(j->textures[1].data[1], 200);
    assert_int_equal(j->textures[1].data[2], 77);
    assert_int_equal(j->textures[1].data[3], 255);
    tv_job_free(j);
    assert_int_equal(tcli_run("tex.tgsi --tex 0=pattern:nothing"), 1);
    contains("stderr.txt",
             "<command line>: at key \"textures[0].source.pattern\": unknown value \"nothing\"");
    assert_int_equal(tcli_run("tex.tgsi --tex x"), 2);
    contains("stderr.txt", "--tex x: expected N=FILE.png or N=pattern:NAME[:SIZE]");
    assert_int_equal(tcli_run("tex.tgsi --max-loop-iterations 0"), 2);
    /* a file with VERT then FRAG (as Mesa prints them): the short form runs the FRAG one */
    const char *two = "VERT\nDCL IN[0]\nDCL OUT[0], POSITION\n  0: MOV OUT[0], IN[0]\n"
                      "  1: END\n" UV_FRAG;
    tcli_write("two.tgsi", two, strlen(two));
    assert_int_equal(tcli_run("two.tgsi --size 2x2 --out two.png"), 0);
    assert_int_equal(image_png_read(tcli_path("two.png"), &img, msg, sizeof msg), 0);
    assert_int_equal(img.px[2], 64); /* the FRAG program's z = 0.25 */
    image_free(&img);
}

#define WHITE_FRAG "FRAG\nDCL OUT[0], COLOR\nIMM[0] FLT32 {1.0000, 1.0000, 1.0000, 1.0000}\n" \
                   "  0: MOV OUT[0], IMM[0]\n  1: END\n"

/* 4 samples, a rect covering x < 2.5: in pixel column 2 the standard 4x pattern's samples
 * at x offsets 0.375 and 0.125 are covered, 0.875 and 0.625 are not. Raw output keeps the
 * samples; the PNG resolves them (2 of 4 white over a black clear: 127.5 -> 128). */
static void multisample_resolve(void **state)
{
    (void)state;
    tcli_write("white.tgsi", WHITE_FRAG, strlen(WHITE_FRAG));
    tcli_json("ms.json",
              "{'texvm_job': 1, 'programs': [{'tgsi': 'white.tgsi'}],"
              " 'frag': {'width': 4, 'height': 4, 'samples': 4,"
              "  'positions': [[0, 0], [2.5, 0], [0, 4], [2.5, 4]]},"
              " 'outputs': [{'target': 0, 'raw': 'ms.f32'}, {'target': 0, 'png': 'ms.png'}]}");
    assert_int_equal(tcli_run("ms.json"), 0);
    size_t size;
    char *raw = slurp("ms.f32", &size);
    assert_int_equal(size, 4 * 4 * 4 * 16);
    const float *f = (const float *)raw;
    /* pixel (2, 1), samples 0..3 */
    const float *p = f + 4 * 4 * (1 * 4 + 2);
    assert_true(p[0] == 1.0f && p[4] == 0.0f && p[8] == 1.0f && p[12] == 0.0f);
    free(raw);
    image img;
    char msg[512];
    assert_int_equal(image_png_read(tcli_path("ms.png"), &img, msg, sizeof msg), 0);
    assert_int_equal(img.px[4 * (1 * 4 + 1)], 255); /* fully covered */
    assert_int_equal(img.px[4 * (1 * 4 + 2)], 128); /* half covered */
    assert_int_equal(img.px[4 * (1 * 4 + 3)], 0);   /* not covered */
    image_free(&img);
}

#define DEPTH_FRAG "FRAG\nDCL IN[0].xy, GENERIC[0], PERSPECTIVE\nDCL OUT[0], POSITION\n" \
                   "DCL OUT[1], STENCIL\nDCL OUT[2], COLOR\nIMM[0] UINT32 {7, 0, 0, 0}\n" \
                   "  0: MOV OUT[0].z, IN[0].xxxx\n  1: MOV OUT[1].y, IMM[0].xxxx\n" \
                   "  2: MOV OUT[2], IN[0].xyxx\n  3: END\n"

/* Depth and stencil outputs: depth = u at the pixel centre, stencil = 7; raw outputs are
 * float32 / 32-bit words per pixel, the depth PNG is gray. */
static void depth_stencil(void **state)
{
    (void)state;
    tcli_write("depth.tgsi", DEPTH_FRAG, strlen(DEPTH_FRAG));
    tcli_json("depth.json",
              "{'texvm_job': 1, 'programs': [{'tgsi': 'depth.tgsi'}],"
              " 'frag': {'width': 4, 'height': 2, 'inputs': [{'index': 0, 'values':"
              "  [[0, 0, 0, 1], [1, 0, 0, 1], [0, 1, 0, 1], [1, 1, 0, 1]]}],"
              "  'depth': {'clear': 1}, 'stencil': {'clear': 0}},"
              " 'outputs': [{'depth': true, 'raw': 'd.f32'}, {'stencil': true, 'raw': 's.u32'},"
              "  {'depth': true, 'png': 'd.png', 'channels': 'gray'}],"
              " 'checks': [{'depth': true, 'pixel': [3, 1], 'values': [0.875]},"
              "  {'stencil': true, 'pixel': [0, 0], 'values': [7]}]}");
    assert_int_equal(tcli_run("depth.json"), 0);
    size_t size;
    char *d = slurp("d.f32", &size);
    assert_int_equal(size, 4 * 2 * 4);
    for (int y = 0; y < 2; y++)
        for (int x = 0; x < 4; x++)
            assert_true(((const float *)d)[y * 4 + x] == (x + 0.5f) / 4);
    free(d);
    char *st = slurp("s.u32", &size);
    assert_int_equal(size, 4 * 2 * 4);
    for (int i = 0; i < 8; i++)
        assert_int_equal(((const uint32_t *)st)[i], 7);
    free(st);
    image img;
    char msg[512];
    assert_int_equal(image_png_read(tcli_path("d.png"), &img, msg, sizeof msg), 0);
    assert_int_equal(img.channels, 1);
    assert_int_equal(img.px[1], 96); /* 0.375 * 255 = 95.625 */
    image_free(&img);
}

#define CONST_FRAG "FRAG\nDCL OUT[0], COLOR\nDCL CONST[0]\n  0: MOV OUT[0], CONST[0]\n  1: END\n"

/* --const on a job file replaces that constant buffer. */
static void const_override(void **state)
{
    (void)state;
    tcli_write("const.tgsi", CONST_FRAG, strlen(CONST_FRAG));
    tcli_json("const.json",
              "{'texvm_job': 1, 'programs': [{'tgsi': 'const.tgsi'}], 'frag': {'size': [2, 2]},"
              " 'constants': [{'slot': 0, 'values': [1, 1, 1, 1]}],"
              " 'checks': [{'target': 0, 'pixel': [1, 1], 'values': [1, 1, 1, 1]}]}");
    assert_int_equal(tcli_run("const.json"), 0);
    assert_int_equal(tcli_run("const.json --const 0=0.5,0.25,0,1"), 1);
    contains("stderr.txt", "got 0.5 0.25 0 1, expected 1 1 1 1");
    assert_int_equal(tcli_run("const.json --const 0=f:1.0,0x3f800000,1,1"), 0);
    assert_int_equal(tcli_run("const.json --const x"), 2);
    contains("stderr.txt", "texvm run: --const x: expected N=v,v,...");
}

/* Whole-image checks against a reference PNG (made here from the formula of the uv
 * program: u, v at pixel centres, 0.25, 1), with a tolerance in PNG steps. */
static void reference_image_check(void **state)
{
    (void)state;
    tcli_write("uv.tgsi", UV_FRAG, strlen(UV_FRAG));
    image ref = {4, 4, 4, 8, NULL};
    uint16_t px[64];
    for (int y = 0; y < 4; y++)
        for (int x = 0; x < 4; x++) {
            uint16_t *p = px + 4 * (y * 4 + x);
            p[0] = (uint16_t)nearbyint((x + 0.5) / 4 * 255);
            p[1] = (uint16_t)nearbyint((y + 0.5) / 4 * 255);
            p[2] = 64;
            p[3] = 255;
        }
    ref.px = px;
    char msg[512];
    assert_int_equal(image_png_write(tcli_path("ref.png"), &ref, msg, sizeof msg), 0);
    const char *job = "{'texvm_job': 1, 'programs': [{'tgsi': 'uv.tgsi'}],"
                      " 'frag': {'width': 4, 'height': 4, 'inputs': [{'index': 0, 'values':"
                      "  [[0, 0, 0, 1], [1, 0, 0, 1], [0, 1, 0, 1], [1, 1, 0, 1]]}],"
                      "  'targets': [{'format': 'R8G8B8A8_UNORM'}]},"
                      " 'checks': [{'target': 0, 'reference': 'ref.png', 'tolerance': 2}]}";
    tcli_json("ref.json", job);
    assert_int_equal(tcli_run("ref.json"), 0);
    contains("stderr.txt", "1 checks passed");
    px[4 * (2 * 4 + 1) + 1] += 3; /* pixel (1, 2), green */
    assert_int_equal(image_png_write(tcli_path("ref.png"), &ref, msg, sizeof msg), 0);
    assert_int_equal(tcli_run("ref.json"), 1);
    contains("stderr.txt", "ref.png\" by more than 2 (largest 3 at (1, 2))");
    contains("stderr.txt", "check 0 failed: 1 of 16 pixels differ from \"");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(frag_interpolation),
        cmocka_unit_test(frag_perspective),
        cmocka_unit_test(compute_buffer),
        cmocka_unit_test(shader_rules_options),
        cmocka_unit_test(failed_check_exit),
        cmocka_unit_test(exit_codes),
        cmocka_unit_test(version_verbose),
        cmocka_unit_test(runtime_fault),
        cmocka_unit_test(trace_and_short_forms),
        cmocka_unit_test(texture_layout_round_trip),
        cmocka_unit_test(image_stores),
        cmocka_unit_test(vertex_and_geometry),
        cmocka_unit_test(textures_end_to_end),
        cmocka_unit_test(short_form_textures),
        cmocka_unit_test(multisample_resolve),
        cmocka_unit_test(depth_stencil),
        cmocka_unit_test(const_override),
        cmocka_unit_test(reference_image_check),
        cmocka_unit_test(jit_without_llvm),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
