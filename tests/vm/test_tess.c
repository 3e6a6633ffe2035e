/* TESS_CTRL and TESS_EVAL stages: programs as Mesa 22.3's virgl driver sends them (captured
 * from piglit's arb_tessellation_shader tests), run on hand-made patches. */
#include <math.h>
#include <stdlib.h>

#include "helper_vm.h"

/* piglit barrier.shader_test's control shader: every invocation writes its index into its
 * own vertex's GENERIC[0].x, then after the BARRIER reads every other invocation's (indirect
 * vertex index) and turns the patch output red on a mismatch. Only merged outputs pass. */
static const char k_barrier_tcs[] =
    "TESS_CTRL\n"
    "PROPERTY TCS_VERTICES_OUT 6\n"
    "DCL IN[][0], POSITION\n"
    "DCL SV[0], INVOCATIONID\n"
    "DCL OUT[][0], POSITION\n"
    "DCL OUT[1], TESSOUTER\n"
    "DCL OUT[2].xy, TESSINNER\n"
    "DCL OUT[][3].x, GENERIC[0]\n"
    "DCL OUT[4], PATCH\n"
    "DCL TEMP[0..7]\n"
    "DCL ADDR[0..1]\n"
    "IMM[0] UINT32 {6, 0, 1065353216, 1}\n"
    "UARL ADDR[1].x, SV[0].xxxx\n"
    "MOV TEMP[1], IN[ADDR[1].x][0]\n"
    "UARL ADDR[1].x, SV[0].xxxx\n"
    "MOV OUT[ADDR[1].x][0], TEMP[1]\n"
    "ISLT TEMP[2].x, SV[0].xxxx, IMM[0].xxxx\n"
    "UIF TEMP[2].xxxx\n"
    "UARL ADDR[1].x, SV[0].xxxx\n"
    "MOV OUT[ADDR[1].x][3].x, SV[0].xxxx\n"
    "ENDIF\n"
    "MOV OUT[4], IMM[0].yzyz\n"
    "BARRIER\n"
    "MOV TEMP[0].x, IMM[0].yyyy\n"
    "BGNLOOP\n"
    "ISGE TEMP[3].x, TEMP[0].xxxx, IMM[0].xxxx\n"
    "UIF TEMP[3].xxxx\n"
    "BRK\n"
    "ENDIF\n"
    "UADD TEMP[4].x, TEMP[0].xxxx, SV[0].xxxx\n"
    "UMOD TEMP[5].x, TEMP[4].xxxx, IMM[0].xxxx\n"
    "UARL ADDR[1].x, TEMP[5].xxxx\n"
    "MOV TEMP[6].x, OUT[ADDR[1].x][3].xxxx\n"
    "USNE TEMP[7].x, TEMP[6].xxxx, TEMP[5].xxxx\n"
    "UIF TEMP[7].xxxx\n"
    "MOV OUT[4], IMM[0].zyyz\n"
    "ENDIF\n"
    "UADD TEMP[0].x, TEMP[0].xxxx, IMM[0].wwww\n"
    "ENDLOOP\n"
    "MOV OUT[1].x, IMM[0].zzzz\n"
    "MOV OUT[1].y, IMM[0].zzzz\n"
    "MOV OUT[1].z, IMM[0].zzzz\n"
    "MOV OUT[1].w, IMM[0].yyyy\n"
    "MOV OUT[2].x, IMM[0].yyyy\n"
    "MOV OUT[2].y, IMM[0].yyyy\n"
    "END\n";

static void test_tcs_barrier_merges_outputs(void **state)
{
    (void)state;
    tv_vm *vm = tv_vm_create(NULL, NULL);
    tv_vm_program *p = hv_program(vm, k_barrier_tcs);
    enum { PATCHES = 3, NV = 4 };
    uint32_t pos[PATCHES * NV * 4];
    for (uint32_t i = 0; i < PATCHES * NV * 4; i++)
        pos[i] = tv_f32_bits((float)i);
    tv_vm_tess_ctrl_params tp;
    memset(&tp, 0, sizeof tp);
    tp.num_patches = PATCHES;
    tp.vertices_in = NV;
    tp.in[0] = pos;
    tp.num_vertices = PATCHES * NV;
    tv_vm_tess_ctrl_output out;
    tv_error err;
    if (tv_vm_run_tess_ctrl(vm, p, NULL, &tp, &out, NULL, &err) != TV_OK)
        fail_msg("%s", err.message);
    assert_int_equal(out.vertices_out, 6);
    assert_int_equal(out.num_outputs, 5);
    for (uint32_t k = 0; k < PATCHES; k++) {
        const uint32_t *blk = out.data + (size_t)k * 6 * 5 * 4;
        for (uint32_t v = 0; v < 6; v++) {
            const uint32_t *vb = blk + v * 5 * 4;
            /* position: the input vertex of the same index (none past the 4 inputs: 0) */
            for (unsigned c = 0; c < 4; c++)
                assert_int_equal(vb[c], v < NV ? pos[(k * NV + v) * 4 + c] : 0);
            assert_int_equal(vb[3 * 4], v);  /* GENERIC[0].x = invocation */
        }
        /* the patch output stayed green: every invocation saw every other's write */
        assert_int_equal(blk[4 * 4 + 0], 0);
        assert_int_equal(blk[4 * 4 + 1], tv_f32_bits(1.0f));
        assert_int_equal(blk[4 * 4 + 2], 0);
        assert_int_equal(blk[4 * 4 + 3], tv_f32_bits(1.0f));
        assert_int_equal(blk[1 * 4 + 0], tv_f32_bits(1.0f));  /* TESSOUTER */
        assert_int_equal(blk[1 * 4 + 3], 0);
    }
    tv_vm_tess_ctrl_output_free(&out);
    tv_vm_program_destroy(p);
    tv_vm_destroy(vm);
}

/* an indirect vertex index outside the patch faults (and names the lane's patch) */
static void test_tcs_vertex_index_out_of_range(void **state)
{
    (void)state;
    tv_vm *vm = tv_vm_create(NULL, NULL);
    tv_vm_program *p = hv_program(vm,
                                  "TESS_CTRL\nPROPERTY TCS_VERTICES_OUT 2\n"
                                  "DCL IN[][0], GENERIC[0]\nDCL SV[0], INVOCATIONID\n"
                                  "DCL OUT[][0], GENERIC[0]\nDCL ADDR[0..1]\nDCL TEMP[0]\n"
                                  "IMM[0] UINT32 {40, 0, 0, 0}\n"
                                  "UARL ADDR[0].x, IMM[0].xxxx\n"
                                  "UARL ADDR[1].x, SV[0].xxxx\n"
                                  "MOV TEMP[0], IN[ADDR[0].x][0]\n"
                                  "MOV OUT[ADDR[1].x][0], TEMP[0]\nEND\n");
    uint32_t in[4 * 4] = {0};
    tv_vm_tess_ctrl_params tp;
    memset(&tp, 0, sizeof tp);
    tp.num_patches = 1;
    tp.vertices_in = 3;
    tp.in[0] = in;
    tp.num_vertices = 3;
    tv_vm_tess_ctrl_output out;
    tv_error err;
    assert_int_equal(tv_vm_run_tess_ctrl(vm, p, NULL, &tp, &out, NULL, &err), TV_ERR_RUNTIME);
    assert_non_null(strstr(err.message, "out of the declared range"));
    tv_vm_program_destroy(p);
    tv_vm_destroy(vm);
}

/* a per-vertex output named without a vertex index is the invocation's own vertex (Mesa
 * writes gl_out[gl_InvocationID].gl_ClipDistance as `MOV OUT[0], …`); a patch output so
 * named is the patch's */
static void test_tcs_own_vertex_output(void **state)
{
    (void)state;
    tv_vm *vm = tv_vm_create(NULL, NULL);
    tv_vm_program *p = hv_program(vm,
                                  "TESS_CTRL\nPROPERTY TCS_VERTICES_OUT 3\n"
                                  "DCL SV[0], INVOCATIONID\nDCL OUT[][0], CLIPDIST\n"
                                  "DCL OUT[1], TESSOUTER\nDCL TEMP[0]\n"
                                  "IMM[0] UINT32 {7, 0, 0, 0}\n"
                                  "UADD TEMP[0], SV[0].xxxx, IMM[0].xxxx\n"
                                  "MOV OUT[0], TEMP[0]\nMOV OUT[1], IMM[0]\nEND\n");
    uint32_t in[4] = {0};
    tv_vm_tess_ctrl_params tp;
    memset(&tp, 0, sizeof tp);
    tp.num_patches = 2;
    tp.vertices_in = 1;
    tp.in[0] = in;
    tp.num_vertices = 1;
    tv_vm_tess_ctrl_output out;
    tv_error err;
    if (tv_vm_run_tess_ctrl(vm, p, NULL, &tp, &out, NULL, &err) != TV_OK)
        fail_msg("%s", err.message);
    for (uint32_t k = 0; k < 2; k++)
        for (uint32_t v = 0; v < 3; v++) {
            const uint32_t *b = out.data + ((size_t)k * 3 + v) * 2 * 4;
            assert_int_equal(b[0], 7 + v);
            assert_int_equal(b[4], v == 0 ? 7 : 0);  /* TESSOUTER in block 0 only */
        }
    tv_vm_tess_ctrl_output_free(&out);
    tv_vm_program_destroy(p);
    tv_vm_destroy(vm);
}

/* piglit barrier.shader_test's evaluation shader: a barycentric blend of the three control
 * points' positions by TESSCOORD, and the patch input passed on */
static const char k_tri_tes[] =
    "TESS_EVAL\n"
    "PROPERTY TES_PRIM_MODE 4\n"
    "PROPERTY TES_SPACING 2\n"
    "PROPERTY TES_VERTEX_ORDER_CW 0\n"
    "PROPERTY TES_POINT_MODE 0\n"
    "DCL IN[][0], POSITION\n"
    "DCL IN[1], PATCH\n"
    "DCL SV[0], TESSCOORD\n"
    "DCL OUT[0], POSITION\n"
    "DCL OUT[1], GENERIC[0]\n"
    "DCL TEMP[0..2]\n"
    "MUL TEMP[0], IN[1][0], SV[0].yyyy\n"
    "MAD TEMP[1], IN[0][0], SV[0].xxxx, TEMP[0]\n"
    "MAD TEMP[2], IN[2][0], SV[0].zzzz, TEMP[1]\n"
    "MOV OUT[0], TEMP[2]\n"
    "MOV OUT[1], IN[1]\n"
    "END\n";

static void test_tes_tesscoord_and_patch_inputs(void **state)
{
    (void)state;
    tv_vm *vm = tv_vm_create(NULL, NULL);
    tv_vm_program *p = hv_program(vm, k_tri_tes);
    enum { PATCHES = 2, NV = 3, REGS = 2, POINTS = 40 };
    uint32_t data[PATCHES * NV * REGS * 4];
    memset(data, 0, sizeof data);
    for (uint32_t k = 0; k < PATCHES; k++)
        for (uint32_t v = 0; v < NV; v++) {
            uint32_t *b = data + ((k * NV + v) * REGS) * 4;
            for (unsigned c = 0; c < 4; c++)
                b[c] = tv_f32_bits((float)(k * 100 + v * 10 + c));
            if (v == 0)
                for (unsigned c = 0; c < 4; c++)
                    b[4 + c] = 1000 + k * 4 + c;  /* IN[1], the patch input */
        }
    float coords[POINTS * 2];
    uint32_t patch_of[POINTS];
    for (uint32_t i = 0; i < POINTS; i++) {
        coords[2 * i] = (float)(i % 5) / 8.0f;
        coords[2 * i + 1] = (float)(i % 3) / 4.0f;
        patch_of[i] = i % PATCHES;
    }
    static uint32_t o0[POINTS * 4], o1[POINTS * 4];
    tv_vm_tess_eval_params ep;
    memset(&ep, 0, sizeof ep);
    ep.num_points = POINTS;
    ep.coords = coords;
    ep.patch_of = patch_of;
    ep.num_patches = PATCHES;
    ep.vertices_in = NV;
    ep.patch_regs = REGS;
    ep.patch_data = data;
    ep.out[0] = o0;
    ep.out[1] = o1;
    tv_error err;
    if (tv_vm_run_tess_eval(vm, p, NULL, &ep, NULL, &err) != TV_OK)
        fail_msg("%s", err.message);
    for (uint32_t i = 0; i < POINTS; i++) {
        uint32_t k = patch_of[i];
        float u = coords[2 * i], v = coords[2 * i + 1], w = 1.0f - u - v;
        for (unsigned c = 0; c < 4; c++) {
            float p0 = (float)(k * 100 + c), p1 = (float)(k * 100 + 10 + c),
                  p2 = (float)(k * 100 + 20 + c);
            float e = p2 * w + (p0 * u + p1 * v);
            float got;
            memcpy(&got, &o0[i * 4 + c], 4);
            assert_true(fabsf(got - e) <= 1e-4f * fabsf(e) + 1e-6f);
            assert_int_equal(o1[i * 4 + c], 1000 + k * 4 + c);
        }
    }
    tv_vm_program_destroy(p);
    tv_vm_destroy(vm);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tcs_barrier_merges_outputs),
        cmocka_unit_test(test_tcs_vertex_index_out_of_range),
        cmocka_unit_test(test_tcs_own_vertex_output),
        cmocka_unit_test(test_tes_tesscoord_and_patch_inputs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
