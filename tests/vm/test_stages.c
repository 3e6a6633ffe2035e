/* VERT and GEOM stages: corpus programs (vs/gs printed by Mesa 22.3 softpipe) and system
 * values; GS invocations, streams, vertex limits and primitives left open at END. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "helper_vm.h"

static void t_vs_corpus(void **s)
{
    (void)s;
    char *text = tc_slurp(TEXVM_SHARED_DIR "/corpus/tgsi/mesa-softpipe/vs_mesa22.3.6_softpipe.tgsi", NULL);
    if (!text) { skip(); return; }
    tv_vm *vm = tv_vm_create(NULL, NULL);
    tv_vm_program *p = hv_program_proc(vm, text, TV_TGSI_VERT);
    enum { N = 45 };
    float pos[N][2];
    for (int i = 0; i < N; i++) { pos[i][0] = (float)i * 0.1f - 2.0f; pos[i][1] = 1.0f / (i + 1); }
    uint32_t out0[N * 2][4], out1[N * 2][4];
    tv_vm_vertex_params vp;
    memset(&vp, 0, sizeof vp);
    vp.count = N;
    vp.instances = 2;
    vp.attribs[0] = (tv_vm_vertex_array){pos, sizeof pos, 0, 8, 2, false, 0};
    vp.out[0] = &out0[0][0];
    vp.out[1] = &out1[0][0];
    tv_error err;
    if (tv_vm_run_vertex(vm, p, NULL, &vp, NULL, &err) != TV_OK) fail_msg("%s", err.message);
    for (int j = 0; j < 2; j++)
        for (int i = 0; i < N; i++) {
            const uint32_t *a = out0[j * N + i], *b = out1[j * N + i];
            assert_true(tv_bits_f32(a[0]) == pos[i][0] && tv_bits_f32(a[1]) == pos[i][1]);
            assert_true(tv_bits_f32(a[2]) == 0.0f && tv_bits_f32(a[3]) == 1.0f);
            assert_true(tv_bits_f32(b[0]) == pos[i][0] * 0.5f + 0.5f);
            assert_true(tv_bits_f32(b[1]) == pos[i][1] * 0.5f + 0.5f);
        }
    tv_vm_program_destroy(p);
    tv_vm_destroy(vm);
    free(text);
}

static void t_vs_system_values(void **s)
{
    (void)s;
    /* the full-screen-triangle VS from simple.tgsi plus VERTEXID/INSTANCEID/BASEVERTEX */
    const char *text =
        "VERT\nDCL SV[0], VERTEXID\nDCL SV[1], INSTANCEID\nDCL SV[2], BASEVERTEX\n"
        "DCL SV[3], VERTEXID_NOBASE\nDCL OUT[0], POSITION\nDCL OUT[1], GENERIC[0]\n"
        "DCL TEMP[0..1]\n"
        "IMM[0] UINT32 {1, 2, 3212836864, 1065353216}\n"
        "SHL TEMP[0].x, SV[0].xxxx, IMM[0].xxxx\n"
        "AND TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy\n"
        "I2F TEMP[0].x, TEMP[0].xxxx\n"
        "AND TEMP[1].x, SV[0].xxxx, IMM[0].yyyy\n"
        "I2F TEMP[0].y, TEMP[1].xxxx\n"
        "LRP OUT[0].xy, TEMP[0].xyxx, IMM[0].wwww, IMM[0].zzzz\n"
        "MOV OUT[1].x, SV[0].xxxx\nMOV OUT[1].y, SV[1].xxxx\n"
        "MOV OUT[1].z, SV[2].xxxx\nMOV OUT[1].w, SV[3].xxxx\nEND\n";
    tv_vm *vm = tv_vm_create(NULL, NULL);
    tv_vm_program *p = hv_program(vm, text);
    uint32_t idx[5] = {2, 0, 1, 7, 3};
    uint32_t out0[10][4], out1[10][4];
    tv_vm_vertex_params vp;
    memset(&vp, 0, sizeof vp);
    vp.count = 5;
    vp.instances = 2;
    vp.base_vertex = 10;
    vp.indices = idx;
    vp.out[0] = &out0[0][0];
    vp.out[1] = &out1[0][0];
    tv_error err;
    if (tv_vm_run_vertex(vm, p, NULL, &vp, NULL, &err) != TV_OK) fail_msg("%s", err.message);
    for (int j = 0; j < 2; j++)
        for (int i = 0; i < 5; i++) {
            uint32_t id = idx[i] + 10;
            float tx = (float)((id << 1) & 2), ty = (float)(id & 2);
            const uint32_t *a = out0[j * 5 + i], *b = out1[j * 5 + i];
            assert_true(tv_bits_f32(a[0]) == tx * 1.0f + (1.0f - tx) * -1.0f);
            assert_true(tv_bits_f32(a[1]) == ty * 1.0f + (1.0f - ty) * -1.0f);
            assert_int_equal(b[0], id);
            assert_int_equal(b[1], (uint32_t)j);
            assert_int_equal(b[2], 10);
            assert_int_equal(b[3], idx[i]);
        }
    tv_vm_program_destroy(p);
    tv_vm_destroy(vm);
}

/* Vertex arrays read whole (vm_stage_vert.c fetch_block: consecutive in-bounds vec4
 * elements) and lane by lane (any other layout), against the fetch rule written out here:
 * component c of element e is the word at offset + e * stride + 4c when those 4 bytes lie
 * within the array's size, else (0, 0, 0, 1). Arrays: a vec4 array the warps read whole;
 * the same cut half-way through the second warp's last element, and inside the first
 * warp (whole warps refused); an instance divisor; a 20-byte stride; 3 components;
 * and every array again with a negative base vertex (the first lanes wrap past 2^32). */
enum { VA_N = 45, VA_INST = 3, VA_ELEMS = 64, VA_ARRAYS = 6 };
static uint32_t va_words[VA_ARRAYS][VA_ELEMS * 5 + 8];

static uint32_t va_expected(const tv_vm_vertex_array *a, uint32_t e, unsigned c)
{
    uint64_t o = a->offset + (uint64_t)e * a->stride + 4u * c;
    if (c < a->components && o + 4 <= a->size) {
        uint32_t v;
        memcpy(&v, (const uint8_t *)a->data + o, 4);
        return v;
    }
    return c == 3 ? tv_f32_bits(1.0f) : 0u;
}

static void t_vs_vec4_arrays(void **s)
{
    (void)s;
    const char *text = "VERT\nDCL IN[0..5]\nDCL OUT[0..5], GENERIC[0]\n"
                       "MOV OUT[0], IN[0]\nMOV OUT[1], IN[1]\nMOV OUT[2], IN[2]\n"
                       "MOV OUT[3], IN[3]\nMOV OUT[4], IN[4]\nMOV OUT[5], IN[5]\nEND\n";
    tv_vm *vm = tv_vm_create(NULL, NULL);
    tv_vm_program *p = hv_program(vm, text);
    for (unsigned k = 0; k < VA_ARRAYS; k++)
        for (unsigned i = 0; i < sizeof va_words[k] / 4; i++)
            va_words[k][i] = 0x10000u * (k + 1) + i;
    const tv_vm_vertex_array arrays[VA_ARRAYS] = {
        {va_words[0], sizeof va_words[0], 16, 16, 4, false, 0},
        {va_words[1], 16 + 47 * 16 + 8, 16, 16, 4, false, 0},
        {va_words[2], 16 + 20 * 16 - 4, 16, 16, 4, false, 0},
        {va_words[3], sizeof va_words[3], 0, 16, 4, false, 2},
        {va_words[4], sizeof va_words[4], 4, 20, 4, false, 0},
        {va_words[5], sizeof va_words[5], 0, 16, 3, false, 0},
    };
    static uint32_t out[VA_ARRAYS][VA_N * VA_INST][4];
    const int32_t bases[2] = {3, -5};
    for (unsigned b = 0; b < 2; b++) {
        tv_vm_vertex_params vp;
        memset(&vp, 0, sizeof vp);
        vp.count = VA_N;
        vp.instances = VA_INST;
        vp.base_vertex = bases[b];
        vp.base_instance = 1;
        for (unsigned k = 0; k < VA_ARRAYS; k++) {
            vp.attribs[k] = arrays[k];
            vp.out[k] = &out[k][0][0];
        }
        memset(out, 0xee, sizeof out);
        tv_error err;
        if (tv_vm_run_vertex(vm, p, NULL, &vp, NULL, &err) != TV_OK)
            fail_msg("%s", err.message);
        for (unsigned k = 0; k < VA_ARRAYS; k++)
            for (uint32_t j = 0; j < VA_INST; j++)
                for (uint32_t i = 0; i < VA_N; i++) {
                    const tv_vm_vertex_array *a = &arrays[k];
                    uint32_t e = a->instance_divisor ? 1u + j / a->instance_divisor
                                                     : (uint32_t)((int64_t)i + bases[b]);
                    for (unsigned c = 0; c < 4; c++)
                        if (out[k][j * VA_N + i][c] != va_expected(a, e, c))
                            fail_msg("base %d, array %u, instance %u, vertex %u, component "
                                     "%u: 0x%08x, want 0x%08x", bases[b], k, j, i, c,
                                     out[k][j * VA_N + i][c], va_expected(a, e, c));
                }
    }
    tv_vm_program_destroy(p);
    tv_vm_destroy(vm);
}

static void t_gs_corpus(void **s)
{
    (void)s;
    char *text = tc_slurp(TEXVM_SHARED_DIR "/corpus/tgsi/mesa-softpipe/gs_mesa22.3.6_softpipe.tgsi", NULL);
    if (!text) { skip(); return; }
    tv_vm *vm = tv_vm_create(NULL, NULL);
    tv_vm_program *p = hv_program_proc(vm, text, TV_TGSI_GEOM);
    enum { P = 37 };
    static uint32_t pos[P * 3][4], uv[P * 3][4];
    for (int i = 0; i < P * 3; i++)
        for (int c = 0; c < 4; c++) {
            pos[i][c] = tv_f32_bits((float)(i * 4 + c));
            uv[i][c] = tv_f32_bits((float)(1000 + i * 4 + c));
        }
    tv_vm_geometry_params gp;
    memset(&gp, 0, sizeof gp);
    gp.num_prims = P;
    gp.in[0] = &pos[0][0];
    gp.in[1] = &uv[0][0];
    gp.num_vertices = P * 3;
    tv_vm_geometry_output out;
    tv_error err;
    if (tv_vm_run_geometry(vm, p, NULL, &gp, &out, NULL, &err) != TV_OK) fail_msg("%s", err.message);
    assert_int_equal(out.num_outputs, 2);
    assert_int_equal(out.streams[0].num_vertices, P * 3);
    assert_int_equal(out.streams[0].num_prims, P);
    for (int k = 0; k < P; k++) assert_int_equal(out.streams[0].prim_lengths[k], 3);
    for (int i = 0; i < P * 3; i++) {
        const uint32_t *v = out.streams[0].vertices + i * 8;
        assert_memory_equal(v, pos[i], 16);
        assert_memory_equal(v + 4, uv[i], 8);
    }
    assert_int_equal(out.streams[1].num_vertices, 0);
    tv_vm_geometry_output_free(&out);
    tv_vm_program_destroy(p);
    tv_vm_destroy(vm);
    free(text);
}

static void t_gs_invocations_streams(void **s)
{
    (void)s;
    /* invocation i of primitive k emits i+2 vertices on stream (i & 1), ENDPRIM after the
       first two, then leaves the rest open; the vertex limit is 3 */
    const char *text =
        "GEOM\nPROPERTY GS_INPUT_PRIMITIVE POINTS\nPROPERTY GS_OUTPUT_PRIMITIVE LINE_STRIP\n"
        "PROPERTY GS_MAX_OUTPUT_VERTICES 3\nPROPERTY GS_INVOCATIONS 3\n"
        "DCL IN[][0], GENERIC[0]\nDCL SV[0], INVOCATIONID\nDCL SV[1], PRIM_ID\n"
        "DCL OUT[0], GENERIC[0]\nDCL TEMP[0..2]\n"
        "IMM[0] UINT32 {0, 1, 2, 0}\n"
        "AND TEMP[1].x, SV[0].xxxx, IMM[0].yyyy\n"
        "UADD TEMP[2].x, SV[0].xxxx, IMM[0].zzzz\n"
        "MOV TEMP[0].x, IMM[0].xxxx\n"
        "BGNLOOP\n"
        "  USGE TEMP[0].w, TEMP[0].xxxx, TEMP[2].xxxx\n"
        "  UIF TEMP[0].wwww\n"
        "    BRK\n"
        "  ENDIF\n"
        "  MOV OUT[0].x, IN[0][0].xxxx\n"
        "  MOV OUT[0].y, SV[0].xxxx\n"
        "  MOV OUT[0].z, TEMP[0].xxxx\n"
        "  MOV OUT[0].w, SV[1].xxxx\n"
        "  EMIT TEMP[1].xxxx\n"
        "  USEQ TEMP[0].w, TEMP[0].xxxx, IMM[0].yyyy\n"
        "  UIF TEMP[0].wwww\n"
        "    ENDPRIM TEMP[1].xxxx\n"
        "  ENDIF\n"
        "  UADD TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy\n"
        "ENDLOOP\n"
        "END\n";
    tv_vm *vm = tv_vm_create(NULL, NULL);
    tv_vm_program *p = hv_program(vm, text);
    enum { P = 15 };
    uint32_t in[P][4];
    for (int i = 0; i < P; i++) in[i][0] = 500 + (uint32_t)i;
    tv_vm_geometry_params gp;
    memset(&gp, 0, sizeof gp);
    gp.num_prims = P;
    gp.in[0] = &in[0][0];
    gp.num_vertices = P;
    gp.primitive_id_base = 100;
    tv_vm_geometry_output out;
    tv_error err;
    if (tv_vm_run_geometry(vm, p, NULL, &gp, &out, NULL, &err) != TV_OK) fail_msg("%s", err.message);
    /* model */
    uint32_t nv[2] = {0, 0}, np[2] = {0, 0};
    for (uint32_t k = 0; k < P; k++)
        for (uint32_t inv = 0; inv < 3; inv++) {
            uint32_t st = inv & 1, emitted = 0, open = 0;
            for (uint32_t v = 0; v < inv + 2; v++) {
                if (emitted < 3) {
                    const uint32_t *o = out.streams[st].vertices + (size_t)nv[st] * 4;
                    assert_int_equal(o[0], 500 + k);
                    assert_int_equal(o[1], inv);
                    assert_int_equal(o[2], v);
                    assert_int_equal(o[3], 100 + k);
                    nv[st]++;
                    emitted++;
                    open++;
                }
                if (v == 1) {
                    assert_int_equal(out.streams[st].prim_lengths[np[st]], open);
                    np[st]++;
                    open = 0;
                }
            }
            if (open) {
                assert_int_equal(out.streams[st].prim_lengths[np[st]], open);
                np[st]++;
            }
        }
    assert_int_equal(out.streams[0].num_vertices, nv[0]);
    assert_int_equal(out.streams[1].num_vertices, nv[1]);
    assert_int_equal(out.streams[0].num_prims, np[0]);
    assert_int_equal(out.streams[1].num_prims, np[1]);
    tv_vm_geometry_output_free(&out);
    tv_vm_program_destroy(p);
    tv_vm_destroy(vm);
}

/* An input declared PRIM_ID (as Mesa's GLSL compiler declares gl_PrimitiveIDIn) holds the
 * primitive ID, read with a vertex index or without one. */
static void t_gs_primid_input(void **s)
{
    (void)s;
    static const char text[] =
        "GEOM\nPROPERTY GS_INPUT_PRIMITIVE LINES\nPROPERTY GS_OUTPUT_PRIMITIVE POINTS\n"
        "PROPERTY GS_MAX_OUTPUT_VERTICES 1\nPROPERTY GS_INVOCATIONS 1\n"
        "DCL IN[][0], GENERIC[0]\nDCL IN[][1], PRIM_ID\nDCL OUT[0], GENERIC[0]\n"
        "IMM[0] UINT32 {0, 0, 0, 0}\n"
        "MOV OUT[0].x, IN[1][0].xxxx\nMOV OUT[0].y, IN[1].xxxx\nMOV OUT[0].z, IN[1][1].xxxx\n"
        "MOV OUT[0].w, IN[0][1].xxxx\nEMIT IMM[0].xxxx\nEND\n";
    tv_vm *vm = tv_vm_create(NULL, NULL);
    tv_vm_program *p = hv_program(vm, text);
    enum { P = 5 };
    uint32_t in[2 * P][4];
    for (int i = 0; i < 2 * P; i++) in[i][0] = 7000 + (uint32_t)i;
    tv_vm_geometry_params gp;
    memset(&gp, 0, sizeof gp);
    gp.num_prims = P;
    gp.in[0] = &in[0][0];
    gp.num_vertices = 2 * P;
    gp.primitive_id_base = 40;
    tv_vm_geometry_output out;
    tv_error err;
    if (tv_vm_run_geometry(vm, p, NULL, &gp, &out, NULL, &err) != TV_OK) fail_msg("%s", err.message);
    assert_int_equal(out.streams[0].num_vertices, P);
    for (uint32_t k = 0; k < P; k++) {
        const uint32_t *v = out.streams[0].vertices + k * 4;
        assert_int_equal(v[0], 7000 + 2 * k + 1);   /* IN[1][0]: the second vertex */
        assert_int_equal(v[1], 40 + k);             /* IN[1] without a vertex index */
        assert_int_equal(v[2], 40 + k);             /* IN[1][1] */
        assert_int_equal(v[3], 40 + k);             /* IN[0][1] */
    }
    tv_vm_geometry_output_free(&out);
    tv_vm_program_destroy(p);
    tv_vm_destroy(vm);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_vs_corpus), cmocka_unit_test(t_vs_system_values),
        cmocka_unit_test(t_vs_vec4_arrays),
        cmocka_unit_test(t_gs_corpus), cmocka_unit_test(t_gs_invocations_streams),
        cmocka_unit_test(t_gs_primid_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
