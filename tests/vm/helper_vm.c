/* Test helper implementation (see helper_vm.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helper_vm.h"
#include "vm/vm_mem.h"
#include "vm/vm_stage_frag_store.h"

uint32_t hv_threads = 1;
bool hv_mem_warp_path = true;
unsigned hv_store_cap = VM_STORE_AVX512;
bool hv_flush_denormals = false;

static tv_vm *make_vm(void)
{
    tv_vm_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.threads = hv_threads;
    cfg.flush_denormals = hv_flush_denormals;
    /* the vm.*.plain copies of these tests (tests/CMakeLists.txt) run every helper program
       with the plain interpreter: the same hand-worked expectations hold both ways */
    cfg.plain = getenv("TEXVM_TEST_PLAIN") != NULL;
    tv_error err;
    tv_vm *vm = tv_vm_create(&cfg, &err);
    if (!vm)
        fail_msg("tv_vm_create: %s", err.message);
    vm_mem_set_warp_path(vm, hv_mem_warp_path);
    vm_frag_store_limit_isa(vm, hv_store_cap);
    return vm;
}

tv_vm_program *hv_program(tv_vm *vm, const char *text)
{
    tv_error err;
    memset(&err, 0, sizeof err);
    tv_vm_program *p = tv_vm_program_from_text(vm, text, strlen(text), "test", &err);
    if (!p)
        fail_msg("program: line %u: %s\n%s", err.line, err.message, text);
    return p;
}

tv_vm_program *hv_program_proc(tv_vm *vm, const char *text, tv_tgsi_processor proc)
{
    tv_error err;
    tv_tgsi_program *progs = NULL;
    size_t n = 0;
    if (tv_tgsi_parse(text, strlen(text), "test", TV_TGSI_MODE_DEFAULT, &progs, &n, &err) != TV_OK)
        fail_msg("parse: line %u: %s", err.line, err.message);
    tv_vm_program *p = NULL;
    for (size_t i = 0; i < n && !p; i++)
        if (progs[i].processor == proc) {
            p = tv_vm_program_create(vm, &progs[i], &err);
            if (!p)
                fail_msg("program: line %u: %s", err.line, err.message);
        }
    tv_tgsi_programs_free(progs, n);
    if (!p)
        fail_msg("no program of the requested stage");
    return p;
}

tv_status hv_try_program(const char *text, tv_error *err)
{
    tv_vm *vm = make_vm();
    memset(err, 0, sizeof *err);
    tv_vm_program *p = tv_vm_program_from_text(vm, text, strlen(text), "test", err);
    tv_status st = p ? TV_OK : err->code;
    tv_vm_program_destroy(p);
    tv_vm_destroy(vm);
    return st;
}

tv_status hv_op(const char *extra, const char *insns, unsigned n, const uint32_t (*a)[4],
                const uint32_t (*b)[4], const uint32_t (*c)[4], uint32_t init,
                uint32_t (*out)[4], tv_error *err)
{
    char text[8192];
    snprintf(text, sizeof text,
             "COMP\n%s"
             "DCL SV[0], THREAD_ID\n"
             "DCL BUFFER[0]\nDCL BUFFER[1]\nDCL BUFFER[2]\nDCL BUFFER[3]\n"
             "DCL TEMP[0..7]\n"
             "DCL ADDR[0..1]\n"
             "IMM[0] UINT32 {16, %u, 0, 0}\n"
             "UMUL TEMP[4].x, SV[0].xxxx, IMM[0].xxxx\n"
             "LOAD TEMP[0], BUFFER[0], TEMP[4].xxxx\n"
             "LOAD TEMP[1], BUFFER[1], TEMP[4].xxxx\n"
             "LOAD TEMP[2], BUFFER[2], TEMP[4].xxxx\n"
             "MOV TEMP[3], IMM[0].yyyy\n"
             "%s\n"
             "STORE BUFFER[3], TEMP[4].xxxx, TEMP[3]\n"
             "END\n",
             extra ? extra : "", init, insns);
    size_t bytes = (size_t)n * 16;
    uint32_t *bufs[4];
    for (int i = 0; i < 4; i++)
        bufs[i] = calloc(1, bytes);
    if (a) memcpy(bufs[0], a, bytes);
    if (b) memcpy(bufs[1], b, bytes);
    if (c) memcpy(bufs[2], c, bytes);
    tv_vm *vm = make_vm();
    memset(err, 0, sizeof *err);
    tv_status st = TV_OK;
    tv_vm_program *p = tv_vm_program_from_text(vm, text, strlen(text), "hv_op", err);
    if (!p) {
        st = err->code;
    } else {
        tv_vm_bindings bd;
        tv_vm_bindings_init(&bd);
        for (int i = 0; i < 4; i++)
            bd.buffers[i] = (tv_vm_buffer){bufs[i], bytes};
        tv_vm_compute_params cp;
        memset(&cp, 0, sizeof cp);
        cp.block[0] = n;
        st = tv_vm_run_compute(vm, p, &bd, &cp, NULL, err);
        if (out)
            memcpy(out, bufs[3], bytes);
    }
    tv_vm_program_destroy(p);
    tv_vm_destroy(vm);
    for (int i = 0; i < 4; i++)
        free(bufs[i]);
    return st;
}

void hv_op1(const char *insns, const uint32_t a[4], const uint32_t b[4], const uint32_t c[4],
            uint32_t out[4])
{
    uint32_t A[1][4] = {{0}}, B[1][4] = {{0}}, C[1][4] = {{0}}, O[1][4];
    if (a) memcpy(A[0], a, 16);
    if (b) memcpy(B[0], b, 16);
    if (c) memcpy(C[0], c, 16);
    tv_error err;
    tv_status st = hv_op(NULL, insns, 1, (const uint32_t(*)[4])A, (const uint32_t(*)[4])B,
                         (const uint32_t(*)[4])C, 0, O, &err);
    if (st != TV_OK)
        fail_msg("%s: %s", insns, err.message);
    memcpy(out, O[0], 16);
}

tv_status hv_compute_b(const char *text, uint32_t grid[3], uint32_t block[3],
                       tv_vm_bindings *b, tv_error *err)
{
    tv_vm *vm = make_vm();
    memset(err, 0, sizeof *err);
    tv_status st;
    tv_vm_program *p = tv_vm_program_from_text(vm, text, strlen(text), "hv_compute", err);
    if (!p) {
        st = err->code;
    } else {
        tv_vm_compute_params cp;
        memset(&cp, 0, sizeof cp);
        for (int k = 0; k < 3; k++) {
            cp.grid[k] = grid ? grid[k] : 1;
            cp.block[k] = block ? block[k] : 0;
        }
        st = tv_vm_run_compute(vm, p, b, &cp, NULL, err);
    }
    tv_vm_program_destroy(p);
    tv_vm_destroy(vm);
    return st;
}

tv_status hv_run_group(tv_vm *vm, tv_vm_program *p, uint32_t lanes, void *buf, size_t bytes,
                       tv_vm_stats *stats, tv_error *err)
{
    tv_vm_bindings b;
    tv_vm_bindings_init(&b);
    b.buffers[0] = (tv_vm_buffer){buf, bytes};
    tv_vm_compute_params cp;
    memset(&cp, 0, sizeof cp);
    cp.grid[0] = cp.grid[1] = cp.grid[2] = 1;
    cp.block[0] = lanes;
    cp.block[1] = cp.block[2] = 1;
    return tv_vm_run_compute(vm, p, &b, &cp, stats, err);
}

tv_status hv_compute(const char *text, uint32_t grid[3], uint32_t block[3], void *buf,
                     size_t bytes, tv_error *err)
{
    tv_vm_bindings b;
    tv_vm_bindings_init(&b);
    b.buffers[0] = (tv_vm_buffer){buf, bytes};
    return hv_compute_b(text, grid, block, &b, err);
}

tv_status hv_frag_p(const char *text, tv_vm_frag_params *fp, tv_vm_bindings *b, tv_error *err)
{
    tv_vm *vm = make_vm();
    memset(err, 0, sizeof *err);
    tv_status st;
    tv_vm_program *p = tv_vm_program_from_text(vm, text, strlen(text), "hv_frag", err);
    if (!p)
        st = err->code;
    else
        st = tv_vm_run_fragment(vm, p, b, fp, NULL, err);
    tv_vm_program_destroy(p);
    tv_vm_destroy(vm);
    return st;
}

tv_status hv_frag(const char *text, uint32_t w, uint32_t h,
                  const float attr[4][TV_VM_MAX_ATTRIBS][4], uint32_t *color, tv_error *err)
{
    tv_vm_frag_params *fp = calloc(1, sizeof *fp);
    tv_vm_frag_params_fullscreen(fp, w, h, TV_VM_PRIM_RECT);
    if (attr)
        for (int v = 0; v < 4; v++)
            for (int r = 0; r < TV_VM_MAX_ATTRIBS; r++)
                for (int c = 0; c < 4; c++)
                    fp->vertices[v].attr[r][c] = tv_f32_bits(attr[v][r][c]);
    fp->color[0].data = color;
    tv_status st = hv_frag_p(text, fp, NULL, err);
    free(fp);
    return st;
}
