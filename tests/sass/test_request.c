/* Request building (sass_build_plan), checked on the tv_tex_request itself: handles from
 * c[bank][tsPtrIdx*4] or from the .B register, op/target/flags per form, operands from
 * the packing tables (array index u16, fp32 s/t/r, integer TLDS coordinates, LOD, AOFFI
 * nibbles, TLD4 6-bit offsets, MS sample index), and the divergent-quad split. */
#include "sass_env.h"
#include "sass/sass_internal.h"

#include <stdio.h>
#include <stdlib.h>

static sass_plan *plan_of(senv *E, const char *text, uint32_t exec)
{
    static sass_plan p;
    tv_sass_insn in;
    tv_error err;
    parse_ok(text, &in);
    assert_int_equal(tv_sass_check_registers(&in, &err), TV_OK);
    assert_int_equal(sass_build_plan(E->w, &in, exec, &p, &err), TV_OK);
    return &p;
}

static void test_handles(void **state)
{
    senv *E = *state;
    senv_bind(E, 0x7, 0xabc00012u);
    senv_bind(E, 0x1234 & 0x1fff, 0x00300005u);
    sass_plan *p = plan_of(E, "TLDS.LZ R0, R4, R9, R11, 0x7, 2D, RGBA", ~0u);
    for (unsigned l = 0; l < 32; l++)
        assert_int_equal(p->req[0].handle[l], 0xabc00012u);
    /* the handle bank is part of the binding state */
    tv_sass_binding b;
    tv_sass_get_binding(E->w, &b);
    assert_int_equal(b.handle_bank, ENV_BANK);
    uint32_t word;
    assert_int_equal(tv_sass_cbank_read(E->w, ENV_BANK, 0x7 * 4, &word, 4, NULL), TV_OK);
    assert_int_equal(word, 0xabc00012u);
    /* legacy tid 0x34, smp 0x12 -> word 0x1234 */
    p = plan_of(E, "TMML.LOD R0, R4, 0x34, 0x12, 2D, 0xf", ~0u);
    assert_int_equal(p->req[0].handle[3], 0x00300005u);
    /* .B: per lane, from the first register of Rb (TEX) or Ra (TXQ, TXD) */
    for (unsigned l = 0; l < 32; l++)
        tv_sass_set_reg(E->w, 8, l, 0x100000u * l + l);
    p = plan_of(E, "TEX.B.LZ R0, R4, R8, 0x0, 2D, 0xf", ~0u);
    assert_int_equal(p->req[0].handle[5], 0x500005u);
    p = plan_of(E, "TXQ.B R0, R8, TEX_HEADER_DIMENSION, 0x0, 0xf", ~0u);
    assert_int_equal(p->req[0].handle[9], 0x900009u);
    assert_int_equal(p->req[0].lod_i[9], (int32_t)reg(E, 9, 9));
}

static void test_ops_and_operands(void **state)
{
    senv *E = *state;
    /* TLDS: fetch with the overrides; .LZ forces level 0 */
    set_all(E, 2, 0x10003);
    set_all(E, 4, 5);
    set_all(E, 5, 6);
    sass_plan *p = plan_of(E, "TLDS.LZ RZ, R0, R2, R4, 0x5, ARRAY_2D, R", ~0u);
    tv_tex_request *r = &p->req[0];
    assert_int_equal(r->op, TV_TEX_OP_FETCH);
    assert_int_equal(r->target, TV_TEXTGT_2D_ARRAY);
    assert_int_equal(r->flags, TV_TEXF_FETCH_OVERRIDES | TV_TEXF_FORCE_LEVEL0);
    assert_int_equal(r->icoord[3][0], 3);   /* array index: u16 */
    assert_int_equal(r->icoord[0][0], 5);
    assert_int_equal(r->icoord[1][0], 6);
    /* .MS: the multisample target and the sample index from Rb */
    set_all(E, 2, 1);
    set_all(E, 3, 2);
    set_all(E, 4, 3);
    p = plan_of(E, "TLDS.LZ.MS RZ, R0, R2, R4, 0x5, 2D, R", ~0u);
    assert_int_equal(p->req[0].target, TV_TEXTGT_2D_MS);
    assert_int_equal(p->req[0].sample[7], 3);
    /* .LL .AOFFI: integer LOD, offsets ((w & 0xf) << 8) | ((v & 0xf) << 4) | (u & 0xf) */
    set_all(E, 4, 2);
    set_all(E, 5, 0x3e1);   /* u = 1, v = -2, w = 3 */
    p = plan_of(E, "TLDS.LL.AOFFI RZ, R0, R2, R4, 0x5, 2D, R", ~0u);
    r = &p->req[0];
    assert_int_equal(r->flags, TV_TEXF_FETCH_OVERRIDES | TV_TEXF_OFFSETS);
    assert_int_equal(r->lod_i[0], 2);
    assert_int_equal(r->offset[0][0], 1);
    assert_int_equal(r->offset[1][0], -2);
    assert_int_equal(r->offset[2][0], 3);
    /* TEX.LB: float coordinates and bias; TEX.DC: reference */
    set_allf(E, 4, 0.25f);
    set_allf(E, 5, 0.75f);
    set_allf(E, 6, -1.5f);
    set_allf(E, 7, 0.125f);
    p = plan_of(E, "TEX.LB.DC R0, R4, R6, 0x5, 2D, 0xf", ~0u);
    r = &p->req[0];
    assert_int_equal(r->op, TV_TEX_OP_SAMPLE_BIAS);
    assert_int_equal(r->flags, TV_TEXF_COMPARE);
    assert_true(r->coord[0][1] == 0.25f && r->coord[1][1] == 0.75f);
    assert_true(r->lod[1] == -1.5f && r->ref[1] == 0.125f);
    /* TLD4: 6-bit offsets in byte lanes, component, gather */
    set_all(E, 6, 0x3f1f);   /* u = 31, v = -1 */
    p = plan_of(E, "TLD4.B.AOFFI R0, R4, R6, 0x5, 2D, 0xf", ~0u);
    r = &p->req[0];
    assert_int_equal(r->op, TV_TEX_OP_GATHER);
    assert_int_equal(r->component, 2);
    assert_int_equal(r->offset[0][0], 31);
    assert_int_equal(r->offset[1][0], -1);
    /* TXD: derivatives interleaved per axis */
    for (unsigned k = 0; k < 4; k++)
        set_allf(E, 8 + k, (float)(k + 1));
    p = plan_of(E, "TXD R0, R4, R8, 0x5, 2D, 0xf", ~0u);
    r = &p->req[0];
    assert_int_equal(r->op, TV_TEX_OP_SAMPLE_GRAD);
    assert_true(r->ddx[0][0] == 1.0f && r->ddy[0][0] == 2.0f);
    assert_true(r->ddx[1][0] == 3.0f && r->ddy[1][0] == 4.0f);
    /* TMML: an LOD query on the 3D target */
    p = plan_of(E, "TMML.LOD R0, R4, 0x5, 3D, 0xf", ~0u);
    assert_int_equal(p->req[0].op, TV_TEX_OP_QUERY_LOD);
    assert_int_equal(p->req[0].target, TV_TEXTGT_3D);
}

static void test_quad_split(void **state)
{
    senv *E = *state;
    /* implicit derivatives: full quads in one request, partial quads without derivatives */
    sass_plan *p = plan_of(E, "TEX R0, R4, 0x5, 2D, 0xf", 0xfffffff7u);
    assert_int_equal(p->nreq, 2);
    assert_int_equal(p->req[0].active, 0xfffffff0u);
    assert_int_equal(p->req[0].present, 0xfffffff0u);
    assert_int_equal(p->req[0].flags & TV_TEXF_NO_DERIV, 0);
    assert_int_equal(p->req[1].active, 0x7u);
    assert_int_equal(p->req[1].flags & TV_TEXF_NO_DERIV, TV_TEXF_NO_DERIV);
    /* .NDV: one request, the inactive lane present (read, not written) */
    p = plan_of(E, "TEX.NDV R0, R4, 0x5, 2D, 0xf", 0xfffffff7u);
    assert_int_equal(p->nreq, 1);
    assert_int_equal(p->req[0].active, 0xfffffff7u);
    assert_int_equal(p->req[0].present, 0xffffffffu);
    /* only partial quads */
    p = plan_of(E, "TEX R0, R4, 0x5, 2D, 0xf", 0x11u);
    assert_int_equal(p->nreq, 1);
    assert_int_equal(p->req[0].active, 0x11u);
    assert_int_equal(p->req[0].flags & TV_TEXF_NO_DERIV, TV_TEXF_NO_DERIV);
    /* explicit LOD needs no derivatives: no split */
    p = plan_of(E, "TEX.LZ R0, R4, 0x5, 2D, 0xf", 0x11u);
    assert_int_equal(p->nreq, 1);
    assert_int_equal(p->req[0].flags & TV_TEXF_NO_DERIV, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_handles),
        cmocka_unit_test(test_ops_and_operands),
        cmocka_unit_test(test_quad_split),
    };
    return cmocka_run_group_tests(tests, senv_setup, senv_teardown);
}
