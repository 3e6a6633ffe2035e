/* Opcodes and stage features not covered elsewhere: ARR, NOP, unconditional KILL,
 * SAMP2HND, INTERP_SAMPLE, 64-bit source modifiers, SAMPLEMASK/STENCIL outputs, the
 * coverage sample mask, scissor, and instanced vertex attributes. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "helper_vm.h"

static void t_arr_nop_hnd(void **s)
{
    (void)s;
    uint32_t a[4] = {tv_f32_bits(2.5f), tv_f32_bits(3.5f), tv_f32_bits(-2.5f), tv_f32_bits(-0.6f)}, o[4];
    /* ARR rounds half to even, then the address selects TEMP[5 + ADDR] */
    hv_op1("IMM[1] UINT32 {100, 101, 102, 103}\n"
           "IMM[2] UINT32 {104, 105, 106, 107}\n"
           "MOV TEMP[5], IMM[1]\nMOV TEMP[6], IMM[2]\n"
           "ARR ADDR[0], TEMP[0]\nNOP\n"
           "MOV TEMP[3].x, ADDR[0].xxxx\nMOV TEMP[3].y, ADDR[0].yyyy\n"
           "MOV TEMP[3].z, ADDR[0].zzzz\nMOV TEMP[3].w, ADDR[0].wwww\n", a, NULL, NULL, o);
    assert_int_equal(o[0], 2);
    assert_int_equal(o[1], 4);
    assert_int_equal(o[2], (uint32_t)-2);
    assert_int_equal(o[3], (uint32_t)-1);
    uint32_t O[1][4];
    tv_error err;
    tv_status st = hv_op("DCL SAMP[3]\n", "SAMP2HND TEMP[3].xy, SAMP[3], 2D", 1, NULL, NULL, NULL, 7,
                         O, &err);
    if (st != TV_OK) fail_msg("%s", err.message);
    assert_int_equal(O[0][0], (3u << 20) | 3u);
    assert_int_equal(O[0][1], 0);
    assert_int_equal(O[0][2], 7);   /* not in the write mask */
}

static void t_i64_modifiers(void **s)
{
    (void)s;
    uint32_t a[4] = {5, 0, 0xfffffffdu, 0xffffffffu}, b[4] = {10, 0, 1, 0}, o[4];
    hv_op1("U64ADD TEMP[3], -TEMP[0], TEMP[1]", a, b, NULL, o);
    assert_int_equal(o[0], 5);                  /* -5 + 10 */
    assert_int_equal(o[1], 0);
    assert_int_equal(o[2], 4);                  /* -(-3) + 1 */
    assert_int_equal(o[3], 0);
    hv_op1("U64ADD TEMP[3], |TEMP[0]|, TEMP[1]", a, b, NULL, o);
    assert_int_equal(o[0], 15);
    assert_int_equal(o[2], 4);
}

static void t_kill_samplemask_stencil(void **s)
{
    (void)s;
    /* unconditional KILL inside a divergent IF; SAMPLEMASK and STENCIL outputs; the
       coverage mask drops sample 1 */
    const char *text =
        "FRAG\nDCL IN[0], POSITION, LINEAR\nDCL SV[0], SAMPLEMASK\n"
        "DCL OUT[0], COLOR\nDCL OUT[1], STENCIL\nDCL OUT[2], SAMPLEMASK\nDCL TEMP[0]\n"
        "IMM[0] FLT32 {5.0, 0.0, 0.0, 0.0}\nIMM[1] UINT32 {9, 77, 0, 0}\n"
        "FSLT TEMP[0].x, IN[0].xxxx, IMM[0].xxxx\n"
        "UIF TEMP[0].xxxx\n  KILL\nENDIF\n"
        "MOV OUT[0], IMM[1].xxxx\nMOV OUT[1].y, IMM[1].yyyy\n"
        "MOV OUT[2].x, SV[0].xxxx\nEND\n";
    enum { W = 8, H = 4, S = 4 };
    uint32_t color[W * H * S * 4], stencil[W * H * S], mask[W * H];
    memset(color, 0, sizeof color);
    memset(stencil, 0xff, sizeof stencil);
    memset(mask, 0xff, sizeof mask);
    tv_vm_frag_params fp;
    tv_vm_frag_params_fullscreen(&fp, W, H, TV_VM_PRIM_RECT);
    fp.samples = S;
    fp.sample_mask = 0xd;   /* samples 0, 2, 3 */
    fp.color[0].data = color;
    fp.stencil = stencil;
    fp.sample_mask_out = mask;
    tv_error err;
    if (hv_frag_p(text, &fp, NULL, &err) != TV_OK) fail_msg("%s", err.message);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            int pix = y * W + x;
            bool killed = x + 0.5f < 5.0f;
            for (int smp = 0; smp < S; smp++) {
                bool wr = !killed && ((0xdu >> smp) & 1u);
                assert_int_equal(color[(pix * S + smp) * 4], wr ? 9u : 0u);
                assert_int_equal(stencil[pix * S + smp], wr ? 77u : 0xffffffffu);
            }
            assert_int_equal(mask[pix], killed ? 0xffffffffu : 0xdu);
        }
}

static void t_interp_sample_scissor(void **s)
{
    (void)s;
    /* INTERP_SAMPLE of a window-position attribute returns pixel + sample position;
       the scissor limits the pixels run */
    const char *text =
        "FRAG\nDCL IN[0], GENERIC[0], LINEAR\nDCL OUT[0], COLOR\nDCL TEMP[0]\n"
        "IMM[0] UINT32 {3, 0, 0, 0}\n"
        "INTERP_SAMPLE TEMP[0], IN[0], IMM[0].xxxx\nMOV OUT[0], TEMP[0]\nEND\n";
    enum { W = 8, H = 8, S = 4 };
    uint32_t color[W * H * S * 4];
    memset(color, 0, sizeof color);
    tv_vm_frag_params fp;
    tv_vm_frag_params_fullscreen(&fp, W, H, TV_VM_PRIM_RECT);
    for (int v = 0; v < 4; v++) {
        fp.vertices[v].attr[0][0] = tv_f32_bits(fp.vertices[v].x);
        fp.vertices[v].attr[0][1] = tv_f32_bits(fp.vertices[v].y);
    }
    fp.samples = S;
    fp.scissor[0] = 2; fp.scissor[1] = 1; fp.scissor[2] = 6; fp.scissor[3] = 5;
    fp.color[0].data = color;
    tv_error err;
    if (hv_frag_p(text, &fp, NULL, &err) != TV_OK) fail_msg("%s", err.message);
    float sx, sy;
    assert_true(tv_tex_sample_position(S, 3, &sx, &sy));
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            const uint32_t *p = color + ((y * W + x) * S) * 4;
            bool in = x >= 2 && x < 6 && y >= 1 && y < 5;
            if (!in) { assert_int_equal(p[0], 0); continue; }
            assert_true(fabsf(tv_bits_f32(p[0]) - (x + sx)) < 1e-5f);
            assert_true(fabsf(tv_bits_f32(p[1]) - (y + sy)) < 1e-5f);
        }
}

static void t_vs_divisor(void **s)
{
    (void)s;
    const char *text =
        "VERT\nDCL IN[0]\nDCL IN[1]\nDCL OUT[0], GENERIC[0]\n"
        "ADD OUT[0], IN[0], IN[1]\nEND\n";
    tv_vm *vm = tv_vm_create(NULL, NULL);
    tv_vm_program *p = hv_program(vm, text);
    float per_vertex[3][4] = {{1, 2, 3, 4}, {10, 20, 30, 40}, {100, 200, 300, 400}};
    float per_inst[2][2] = {{0.5f, 0.25f}, {5, 6}};
    uint32_t out[3 * 4][4];
    tv_vm_vertex_params vp;
    memset(&vp, 0, sizeof vp);
    vp.count = 3;
    vp.instances = 4;
    vp.attribs[0] = (tv_vm_vertex_array){per_vertex, sizeof per_vertex, 0, 16, 4, false, 0};
    vp.attribs[1] = (tv_vm_vertex_array){per_inst, sizeof per_inst, 0, 8, 2, false, 2};
    vp.out[0] = &out[0][0];
    tv_error err;
    if (tv_vm_run_vertex(vm, p, NULL, &vp, NULL, &err) != TV_OK) fail_msg("%s", err.message);
    for (int j = 0; j < 4; j++)
        for (int i = 0; i < 3; i++) {
            const float *ia = per_inst[j / 2];
            const uint32_t *o = out[j * 3 + i];
            assert_true(tv_bits_f32(o[0]) == per_vertex[i][0] + ia[0]);
            assert_true(tv_bits_f32(o[1]) == per_vertex[i][1] + ia[1]);
            assert_true(tv_bits_f32(o[2]) == per_vertex[i][2] + 0.0f);   /* missing z = 0 */
            assert_true(tv_bits_f32(o[3]) == per_vertex[i][3] + 1.0f);   /* missing w = 1 */
        }
    tv_vm_program_destroy(p);
    tv_vm_destroy(vm);
}

static void t_kill_ends_loop(void **s)
{
    (void)s;
    /* lanes with x < 4 leave the loop only by KILL_IF; the loop must still end */
    const char *text =
        "FRAG\nDCL IN[0], POSITION, LINEAR\nDCL OUT[0], COLOR\nDCL TEMP[0..1]\n"
        "IMM[0] FLT32 {4.0, 1.0, 0.0, 0.0}\n"
        "MOV TEMP[1].x, IMM[0].zzzz\n"
        "BGNLOOP\n"
        "  ADD TEMP[1].x, TEMP[1].xxxx, IMM[0].yyyy\n"
        "  ADD TEMP[0].x, IN[0].xxxx, -IMM[0].xxxx\n"
        "  KILL_IF TEMP[0].xxxx\n"
        "  FSGE TEMP[0].y, TEMP[1].xxxx, IMM[0].xxxx\n"
        "  FSGE TEMP[0].z, IN[0].xxxx, IMM[0].xxxx\n"
        "  AND TEMP[0].y, TEMP[0].yyyy, TEMP[0].zzzz\n"
        "  UIF TEMP[0].yyyy\n"
        "    BRK\n"
        "  ENDIF\n"
        "ENDLOOP\n"
        "MOV OUT[0], TEMP[1].xxxx\nEND\n";
    enum { W = 8, H = 4 };
    uint32_t color[W * H * 4];
    memset(color, 0, sizeof color);
    tv_error err;
    if (hv_frag(text, W, H, NULL, color, &err) != TV_OK) fail_msg("%s", err.message);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            assert_true(tv_bits_f32(color[(y * W + x) * 4]) == (x < 4 ? 0.0f : 4.0f));
}

static void t_shared_zero_per_block(void **s)
{
    (void)s;
    /* every block first reads its shared word (must be 0), then writes it; blocks run
       one after another on the same worker */
    const char *text =
        "COMP\nDCL SV[0], THREAD_ID\nDCL SV[1], BLOCK_ID\nDCL BUFFER[0]\n"
        "DCL MEMORY[0], SHARED\nDCL TEMP[0..2]\nIMM[0] UINT32 {4, 16, 1000, 0}\n"
        "UMUL TEMP[0].x, SV[0].xxxx, IMM[0].yyyy\n"
        "LOAD TEMP[1].x, MEMORY[0], TEMP[0].xxxx\n"
        "UADD TEMP[2].x, SV[1].xxxx, IMM[0].zzzz\n"
        "ATOMUADD TEMP[2].y, MEMORY[0], TEMP[0].xxxx, TEMP[2].xxxx\n"
        "UMAD TEMP[0].y, SV[1].xxxx, IMM[0].yyyy, SV[0].xxxx\n"
        "UMUL TEMP[0].y, TEMP[0].yyyy, IMM[0].xxxx\n"
        "OR TEMP[1].x, TEMP[1].xxxx, TEMP[2].yyyy\n"
        "STORE BUFFER[0].x, TEMP[0].yyyy, TEMP[1].xxxx\nEND\n";
    uint32_t buf[5 * 16];
    memset(buf, 0xee, sizeof buf);
    uint32_t grid[3] = {5, 1, 1}, block[3] = {16, 1, 1};
    tv_error err;
    if (hv_compute(text, grid, block, buf, sizeof buf, &err) != TV_OK) fail_msg("%s", err.message);
    for (int i = 0; i < 5 * 16; i++) assert_int_equal(buf[i], 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_arr_nop_hnd), cmocka_unit_test(t_i64_modifiers),
        cmocka_unit_test(t_kill_samplemask_stencil), cmocka_unit_test(t_interp_sample_scissor),
        cmocka_unit_test(t_vs_divisor), cmocka_unit_test(t_kill_ends_loop),
        cmocka_unit_test(t_shared_zero_per_block),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
