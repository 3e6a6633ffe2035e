/* Engine micro-benchmarks (no texture): fragment programs at 1920x1080 into an RGBA32
 * target and a compute kernel, 1 and 2 threads, median of 5 runs after a warm-up.
 *   bench_vm [SHARED_DIR [WORKLOAD]]  (default ../shared: uses corpus/tgsi/mesa-softpipe;
 *   WORKLOAD = null, math, loop or compute runs that one only, e.g. under perf) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "texvm/vm.h"
#include "bench_clock.h"



static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (!s || fread(s, 1, (size_t)n, f) != (size_t)n) { fclose(f); free(s); return NULL; }
    s[n] = 0;
    fclose(f);
    return s;
}

static tv_vm_program *load(tv_vm *vm, const char *text, tv_tgsi_processor proc)
{
    tv_error err;
    tv_tgsi_program *progs = NULL;
    size_t n = 0;
    if (tv_tgsi_parse(text, strlen(text), "bench", TV_TGSI_MODE_DEFAULT, &progs, &n, &err)) {
        fprintf(stderr, "parse: %s\n", err.message);
        return NULL;
    }
    tv_vm_program *p = NULL;
    for (size_t i = 0; i < n && !p; i++)
        if (progs[i].processor == proc)
            p = tv_vm_program_create(vm, &progs[i], &err);
    tv_tgsi_programs_free(progs, n);
    if (!p) fprintf(stderr, "program: %s\n", err.message);
    return p;
}

static const char *null_fs =
    "FRAG\nDCL OUT[0], COLOR\nIMM[0] FLT32 {1.0, 0.5, 0.25, 1.0}\nMOV OUT[0], IMM[0]\nEND\n";
static const char *loop_fs =
    "FRAG\nDCL IN[0], POSITION, LINEAR\nDCL OUT[0], COLOR\nDCL TEMP[0..2]\n"
    "IMM[0] UINT32 {0, 1, 7, 3}\nIMM[1] FLT32 {0.5, 1.0, 0.0, 0.0}\n"
    "F2U TEMP[0].xy, IN[0].xyyy\nMOV TEMP[1], IMM[1].zzzz\nMOV TEMP[2].x, IMM[0].xxxx\n"
    "XOR TEMP[0].z, TEMP[0].xxxx, TEMP[0].yyyy\nAND TEMP[0].z, TEMP[0].zzzz, IMM[0].zzzz\n"
    "BGNLOOP\n  USGE TEMP[2].y, TEMP[2].xxxx, TEMP[0].zzzz\n  UIF TEMP[2].yyyy\n    BRK\n"
    "  ENDIF\n  AND TEMP[2].z, TEMP[2].xxxx, IMM[0].yyyy\n  UIF TEMP[2].zzzz\n"
    "    ADD TEMP[1].x, TEMP[1].xxxx, IMM[1].xxxx\n  ELSE\n"
    "    MAD TEMP[1].y, TEMP[1].yyyy, IMM[1].xxxx, IMM[1].yyyy\n  ENDIF\n"
    "  UADD TEMP[2].x, TEMP[2].xxxx, IMM[0].yyyy\nENDLOOP\nMOV OUT[0], TEMP[1]\nEND\n";
static const char *comp_cs =
    "COMP\nPROPERTY CS_FIXED_BLOCK_WIDTH 64\nPROPERTY CS_FIXED_BLOCK_HEIGHT 1\n"
    "PROPERTY CS_FIXED_BLOCK_DEPTH 1\nDCL SV[0], THREAD_ID\nDCL SV[1], BLOCK_ID\n"
    "DCL BUFFER[0]\nDCL MEMORY[0], SHARED\nDCL TEMP[0..3]\n"
    "IMM[0] UINT32 {64, 2654435761, 4, 13}\nIMM[1] UINT32 {17, 5, 0, 1}\n"
    "UMAD TEMP[0].x, SV[1].xxxx, IMM[0].xxxx, SV[0].xxxx\n"
    "UMUL TEMP[1].x, TEMP[0].xxxx, IMM[0].yyyy\n"
    "SHL TEMP[2].x, TEMP[1].xxxx, IMM[0].wwww\nXOR TEMP[1].x, TEMP[1].xxxx, TEMP[2].xxxx\n"
    "USHR TEMP[2].x, TEMP[1].xxxx, IMM[1].xxxx\nXOR TEMP[1].x, TEMP[1].xxxx, TEMP[2].xxxx\n"
    "UMUL TEMP[3].x, SV[0].xxxx, IMM[0].zzzz\n"
    "STORE MEMORY[0].x, TEMP[3].xxxx, TEMP[1].xxxx\nBARRIER\n"
    "ATOMUADD TEMP[2].x, MEMORY[0], IMM[1].zzzz, TEMP[1].xxxx\n"
    "UMUL TEMP[3].x, TEMP[0].xxxx, IMM[0].zzzz\n"
    "STORE BUFFER[0].x, TEMP[3].xxxx, TEMP[2].xxxx\nEND\n";

static double run_frag(tv_vm *vm, tv_vm_program *p, uint32_t *color)
{
    static tv_vm_frag_params fp;
    tv_vm_frag_params_fullscreen(&fp, 1920, 1080, TV_VM_PRIM_RECT);
    for (int v = 0; v < 4; v++) {
        float x = fp.vertices[v].x / 1920.0f, y = fp.vertices[v].y / 1080.0f;
        memcpy(&fp.vertices[v].attr[0][0], &x, 4);
        memcpy(&fp.vertices[v].attr[0][1], &y, 4);
    }
    fp.color[0].data = color;
    static float cb[4] = {1, 0, 1, 0};
    tv_vm_bindings b;
    tv_vm_bindings_init(&b);
    b.constbufs[0] = (tv_vm_buffer){cb, sizeof cb};
    tv_error err;
    double t = bench_now();
    if (tv_vm_run_fragment(vm, p, &b, &fp, NULL, &err) != TV_OK) {
        fprintf(stderr, "%s\n", err.message);
        return -1;
    }
    return bench_now() - t;
}

int main(int argc, char **argv)
{
    const char *shared = argc > 1 ? argv[1] : "../shared";
    char path[1024];
    snprintf(path, sizeof path, "%s/corpus/tgsi/mesa-softpipe/bench_math.tgsi", shared);
    char *math = slurp(path);
    uint32_t *color = calloc((size_t)1920 * 1080 * 4, 4);
    uint32_t *buf = calloc((size_t)64 * 4096, 4);
    printf("%-12s %10s %10s\n", "workload", "1 thread", "2 threads");
    const char *names[4] = {"null", "math", "loop", "compute"};
    const char *texts[4] = {null_fs, math, loop_fs, comp_cs};
    for (int k = 0; k < 4; k++) {
        if (argc > 2 && strcmp(argv[2], names[k]) != 0)
            continue;
        if (!texts[k]) { printf("%-12s (missing %s)\n", names[k], path); continue; }
        double mp[2] = {0, 0};
        for (uint32_t th = 1; th <= 2; th++) {
            tv_vm *vm = tv_vm_create(&(tv_vm_config){.threads = th}, NULL);
            tv_vm_program *p = load(vm, texts[k], k == 3 ? TV_TGSI_COMP : TV_TGSI_FRAG);
            if (!p) return 1;
            double t[6];
            for (int r = 0; r < 6; r++) {
                if (k == 3) {
                    tv_vm_bindings b;
                    tv_vm_bindings_init(&b);
                    b.buffers[0] = (tv_vm_buffer){buf, (size_t)64 * 4096 * 4};
                    tv_vm_compute_params cp = {.grid = {4096, 1, 1}};
                    tv_error err;
                    double t0 = bench_now();
                    tv_vm_run_compute(vm, p, &b, &cp, NULL, &err);
                    t[r] = bench_now() - t0;
                } else {
                    t[r] = run_frag(vm, p, color);
                }
            }
            qsort(t + 1, 5, sizeof t[0], bench_cmpd);
            double px = k == 3 ? 64.0 * 4096 : 1920.0 * 1080;
            mp[th - 1] = px / t[3] / 1e6;
            tv_vm_program_destroy(p);
            tv_vm_destroy(vm);
        }
        printf("%-12s %7.2f M/s %7.2f M/s\n", names[k], mp[0], mp[1]);
    }
    free(math);
    free(color);
    free(buf);
    return 0;
}
