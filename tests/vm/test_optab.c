/* The engine's lowering table (src/vm/vm_optab.c) holds no operand counts of its own: they
 * come from the TGSI opcode table. What the table must still agree with: every lowered
 * opcode is in the opcode table, and each row names a modifier type for every source its
 * class reads (CH, CHN, SC, DOT, V4 read all the opcode's sources; CF at most its first),
 * and a texture row's operand layout (src/vm/vm_ops_tex_table.c) names sources the opcode
 * has; and the coordinate components the texture micro-op reads are tgsi.rst's. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "texvm/tgsi.h"
#include "vm/vm_internal.h"  /* vm_opname */
#include "vm/vm_lower.h"
#include "vm/vm_ops_tex.h"    /* vm_tex_oprow_get */

#include <string.h>

static void test_rows_cover_sources(void **state)
{
    (void)state;
    unsigned rows = 0;
    for (unsigned op = 0; op < TV_TGSI_OP_LAST; op++) {
        const vm_optab_row *row = vm_optab_get(op);
        if (!row)
            continue;
        rows++;
        const tv_tgsi_opinfo *info = tv_tgsi_opinfo_get(op);
        if (!info)
            fail_msg("opcode %u has a lowering row but no opcode-table row", op);
        unsigned nsrc = vm_op_nsrc(op), ntypes = (unsigned)strlen(row->types);
        assert_int_equal(nsrc, info->num_src);
        assert_int_equal(vm_op_ndst(op), info->num_dst);
        switch (row->lclass) {
        case VM_L_CH: case VM_L_CHN: case VM_L_SC: case VM_L_DOT: case VM_L_V4:
            if (ntypes < nsrc)
                fail_msg("%s reads %u sources but its row names %u types", info->name, nsrc,
                         ntypes);
            break;
        case VM_L_CF:
            if (ntypes > 1 || ntypes > nsrc)
                fail_msg("%s: a CF row reads at most its first source (types \"%s\", %u "
                         "sources)", info->name, row->types, nsrc);
            break;
        default:
            break;
        }
    }
    assert_true(rows > 200);
}

static void test_texture_rows_within_sources(void **state)
{
    (void)state;
    unsigned rows = 0;
    for (unsigned op = 0; op < TV_TGSI_OP_LAST; op++) {
        const vm_optab_row *row = vm_optab_get(op);
        if (!row || row->lclass != VM_L_TEX)
            continue;
        rows++;
        const vm_tex_oprow *t = vm_tex_oprow_get(op);
        if (!t)
            fail_msg("%s is lowered as a texture op but has no operand layout", vm_opname(op));
        int nsrc = (int)vm_op_nsrc(op);
        const int8_t at[] = {t->coord, t->res, t->samp, t->extra, t->extra2};
        if (t->nsrc > nsrc)
            fail_msg("%s: the layout needs %u sources, the opcode has %d", vm_opname(op),
                     t->nsrc, nsrc);
        for (size_t i = 0; i < sizeof at; i++)
            if (at[i] >= nsrc)
                fail_msg("%s: operand %d of the layout is past its %d sources", vm_opname(op),
                         at[i], nsrc);
    }
    assert_true(rows > 20);
}

/* The coordinate components a texture micro-op reads (vm_tex_coord_reads: the lowering
 * reads only these of the source, and a fragment input's other channels are then never
 * interpolated), as tgsi.rst's opcode pages give them: the target's coordinates, the
 * array layer, the shadow reference where it is in the coordinate, the projection, bias
 * or LOD in .w, a fetch's level in .w or sample index, a size query's level in .x. */
static void test_texture_coordinate_reads(void **state)
{
    (void)state;
    static const struct {
        unsigned opcode, target, mask;
    } cases[] = {
        {TV_TGSI_OP_TEX, TV_TGT_1D, 0x1},            {TV_TGSI_OP_TEX, TV_TGT_2D, 0x3},
        {TV_TGSI_OP_TEX, TV_TGT_RECT, 0x3},          {TV_TGSI_OP_TEX, TV_TGT_3D, 0x7},
        {TV_TGSI_OP_TEX, TV_TGT_CUBE, 0x7},          {TV_TGSI_OP_TEX, TV_TGT_1D_ARRAY, 0x3},
        {TV_TGSI_OP_TEX, TV_TGT_2D_ARRAY, 0x7},      {TV_TGSI_OP_TEX, TV_TGT_CUBE_ARRAY, 0xf},
        {TV_TGSI_OP_TEX, TV_TGT_SHADOW1D, 0x5},      {TV_TGSI_OP_TEX, TV_TGT_SHADOW2D, 0x7},
        {TV_TGSI_OP_TEX, TV_TGT_SHADOWRECT, 0x7},    {TV_TGSI_OP_TEX, TV_TGT_SHADOWCUBE, 0xf},
        {TV_TGSI_OP_TEX, TV_TGT_SHADOW1D_ARRAY, 0x7},
        {TV_TGSI_OP_TEX, TV_TGT_SHADOW2D_ARRAY, 0xf},
        {TV_TGSI_OP_TXP, TV_TGT_1D, 0x9},            {TV_TGSI_OP_TXP, TV_TGT_2D, 0xb},
        {TV_TGSI_OP_TXP, TV_TGT_3D, 0xf},            {TV_TGSI_OP_TXB, TV_TGT_2D, 0xb},
        {TV_TGSI_OP_TXL, TV_TGT_2D, 0xb},            {TV_TGSI_OP_TXL, TV_TGT_1D, 0x9},
        {TV_TGSI_OP_TEX_LZ, TV_TGT_2D, 0x3},         {TV_TGSI_OP_TXD, TV_TGT_2D, 0x3},
        {TV_TGSI_OP_TXB2, TV_TGT_CUBE_ARRAY, 0xf},
        {TV_TGSI_OP_TEX2, TV_TGT_SHADOWCUBE_ARRAY, 0xf},
        {TV_TGSI_OP_TXF, TV_TGT_2D, 0xb},            {TV_TGSI_OP_TXF, TV_TGT_1D, 0x9},
        {TV_TGSI_OP_TXF, TV_TGT_BUFFER, 0x1},        {TV_TGSI_OP_TXF, TV_TGT_2D_MSAA, 0xb},
        {TV_TGSI_OP_TXF, TV_TGT_2D_ARRAY_MSAA, 0xf}, {TV_TGSI_OP_TXF_LZ, TV_TGT_2D, 0xb},
        {TV_TGSI_OP_TXQ, TV_TGT_2D, 0x1},            {TV_TGSI_OP_TG4, TV_TGT_2D, 0x3},
        {TV_TGSI_OP_LODQ, TV_TGT_3D, 0x7},
        /* the D3D forms: the reference, bias, LOD and sample index in their own operands */
        {TV_TGSI_OP_SAMPLE, TV_TGT_2D, 0x3},         {TV_TGSI_OP_SAMPLE_C, TV_TGT_2D, 0x3},
        {TV_TGSI_OP_SAMPLE_B, TV_TGT_2D, 0x3},       {TV_TGSI_OP_SAMPLE_L, TV_TGT_2D_ARRAY, 0x7},
        {TV_TGSI_OP_SAMPLE_I, TV_TGT_2D, 0xb},       {TV_TGSI_OP_SAMPLE_I_MS, TV_TGT_2D_MSAA, 0x3},
        {TV_TGSI_OP_SVIEWINFO, TV_TGT_2D, 0x1},      {TV_TGSI_OP_GATHER4, TV_TGT_2D, 0x3},
        {TV_TGSI_OP_LOD, TV_TGT_CUBE, 0x7},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const vm_tex_oprow *row = vm_tex_oprow_get(cases[i].opcode);
        const vm_tex_tgtrow *tg = vm_tex_tgtrow_get(cases[i].target);
        assert_non_null(row);
        assert_non_null(tg);
        unsigned m = vm_tex_coord_reads(row, tg);
        if (m != cases[i].mask)
            fail_msg("%s on %s reads coordinate components 0x%x, not 0x%x",
                     vm_opname(cases[i].opcode), tv_tgsi_target_name(cases[i].target), m,
                     cases[i].mask);
    }
}

/* Counts and names as tgsi.rst gives them. */
static void test_counts_from_opcode_table(void **state)
{
    (void)state;
    assert_int_equal(vm_op_nsrc(TV_TGSI_OP_MAD), 3);
    assert_int_equal(vm_op_nsrc(TV_TGSI_OP_MOV), 1);
    assert_int_equal(vm_op_nsrc(TV_TGSI_OP_END), 0);
    assert_int_equal(vm_op_ndst(TV_TGSI_OP_MOV), 1);
    assert_int_equal(vm_op_ndst(TV_TGSI_OP_END), 0);
    assert_string_equal(vm_opname(TV_TGSI_OP_UMAD), "UMAD");
    assert_int_equal(vm_op_nsrc(TV_TGSI_OP_LAST), 0);
    assert_string_equal(vm_opname(TV_TGSI_OP_LAST), "?");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rows_cover_sources),
        cmocka_unit_test(test_texture_rows_within_sources),
        cmocka_unit_test(test_counts_from_opcode_table),
        cmocka_unit_test(test_texture_coordinate_reads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
