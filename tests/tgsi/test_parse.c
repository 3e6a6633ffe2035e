/* Parser: the program object for each construct of the grammar, checked field by field
 * against values worked out by hand from shared/reference/tgsi-text.md. */
#include "helper_tgsi.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static tv_tgsi_program *parse1(const char *text, tv_tgsi_mode mode)
{
    size_t count;
    tv_tgsi_program *p = th_parse_ok(text, mode, &count);
    assert_int_equal(count, 1);
    return p;
}

static uint64_t dbits(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}

static void test_declarations(void **state)
{
    (void)state;
    tv_tgsi_program *p = parse1(
        "FRAG\n"
        "DCL IN[1].xy, GENERIC[3], PERSPECTIVE, CENTROID, INVARIANT\n"
        "DCL CONST[1][0..6]\n"
        "DCL TEMP[0..3], ARRAY(2), LOCAL\n"
        "DCL SVIEW[2], CUBEARRAY, SINT\n"
        "DCL SVIEW[3], 2D, UNORM, SNORM, UINT, FLOAT\n"
        "DCL IMAGE[0], 2D, WR, PIPE_FORMAT_R32G32B32A32_FLOAT, RAW\n"
        "DCL BUFFER[1], ATOMIC\n"
        "DCL MEMORY[0], SHARED\n"
        "DCL SV[0], SAMPLEMASK\n"
        "DCL OUT[0].yw, COLOR[2]\n"
        "DCL SVIEW[4], 3D, UINT, SINT\n",
        0);
    assert_int_equal(p->processor, TV_TGSI_FRAG);
    assert_int_equal(p->num_decls, 11);
    const tv_tgsi_declaration *d = p->decls;
    assert_int_equal(d[0].file, TV_FILE_IN);
    assert_int_equal(d[0].first, 1);
    assert_int_equal(d[0].last, 1);
    assert_int_equal(d[0].usage_mask, 0x3);
    assert_true(d[0].has_semantic);
    assert_int_equal(d[0].semantic, TV_SEM_GENERIC);
    assert_int_equal(d[0].semantic_index, 3);
    assert_true(d[0].has_interp);
    assert_int_equal(d[0].interp, TV_INTERP_PERSPECTIVE);
    assert_int_equal(d[0].location, TV_LOC_CENTROID);
    assert_true(d[0].invariant);
    assert_false(d[0].has_dim);
    assert_int_equal(d[1].file, TV_FILE_CONST);
    assert_true(d[1].has_dim);
    assert_int_equal(d[1].dim, 1);
    assert_false(d[1].dim_implied);
    assert_int_equal(d[1].first, 0);
    assert_int_equal(d[1].last, 6);
    assert_int_equal(d[2].array_id, 2);
    assert_true(d[2].local);
    assert_int_equal(d[2].usage_mask, 0xf);
    assert_int_equal(d[3].sview_target, TV_TGT_CUBE_ARRAY);
    for (int i = 0; i < 4; i++) /* one return type is replicated */
        assert_int_equal(d[3].return_type[i], TV_RET_SINT);
    assert_int_equal(d[4].return_type[0], TV_RET_UNORM);
    assert_int_equal(d[4].return_type[1], TV_RET_SNORM);
    assert_int_equal(d[4].return_type[2], TV_RET_UINT);
    assert_int_equal(d[4].return_type[3], TV_RET_FLOAT);
    assert_int_equal(d[5].image_target, TV_TGT_2D);
    assert_string_equal(tv_tgsi_pipe_format_name(d[5].image_format),
                        "PIPE_FORMAT_R32G32B32A32_FLOAT");
    assert_true(d[5].writable);
    assert_true(d[5].raw);
    assert_true(d[6].atomic);
    assert_int_equal(d[7].memory_type, TV_MEM_SHARED);
    assert_int_equal(d[8].semantic, TV_SEM_SAMPLEMASK);
    assert_int_equal(d[9].usage_mask, 0xa);
    assert_int_equal(d[9].semantic_index, 2);
    for (int i = 0; i < 4; i++) /* fewer than four: the first applies to all (Mesa) */
        assert_int_equal(d[10].return_type[i], TV_RET_UINT);
    tv_tgsi_programs_free(p, 1);
}

static void test_geometry_declarations(void **state)
{
    (void)state;
    tv_tgsi_program *p = parse1("GEOM\n"
                                "PROPERTY GS_INPUT_PRIMITIVE TRIANGLES\n"
                                "PROPERTY GS_MAX_OUTPUT_VERTICES 3\n"
                                "DCL IN[][2], GENERIC[0]\n"
                                "DCL IN[3][4], COLOR\n"
                                "DCL OUT[1], GENERIC[0], STREAM(1, 0, 2, 3)\n",
                                0);
    assert_int_equal(p->num_props, 2);
    assert_int_equal(p->props[0].name, TV_PROP_GS_INPUT_PRIMITIVE);
    assert_int_equal(p->props[0].value, 4); /* TRIANGLES in PIPE_PRIM order */
    assert_int_equal(p->props[1].value, 3);
    const tv_tgsi_declaration *d = p->decls;
    assert_int_equal(d[0].first, 2);
    assert_true(d[0].has_dim && d[0].dim_implied);
    assert_int_equal(d[0].dim, 0);
    assert_int_equal(d[1].first, 4); /* the vertex bracket is dropped, as in Mesa */
    assert_true(d[1].dim_implied);
    assert_true(d[2].has_stream);
    assert_memory_equal(d[2].stream, ((uint8_t[]){1, 0, 2, 3}), 4);
    tv_tgsi_programs_free(p, 1);
}

static void test_operands(void **state)
{
    (void)state;
    tv_tgsi_program *p = parse1(
        "GEOM\n"
        "  0: MAD_SAT_PRECISE TEMP[0].xz, -|CONST[1][ADDR[0].y-2](3)|, IN[2][ADDR[1].w+1].wzyx, TEMP[4]\n"
        "  0: UIF TEMP[0].xxxx :5\n"
        "7:TXD TEMP[1], IN[0], TEMP[2], TEMP[3], SAMP[1], SHADOWCUBEARRAY, IMM[0].xyz, TEMP[1].zzx\n"
        "STORE BUFFER[0].x, TEMP[0].xxxx, TEMP[1], COHERENT, VOLATILE, 2D, PIPE_FORMAT_R8_UINT\n"
        "SAMPLE TEMP[0], IN[0], SVIEW[0], SAMP[0], IMM[1].xyz\n"
        "MOV TEMP[TEMP[3].z+1](1), TEMP[9]\n",
        0);
    assert_int_equal(p->num_insns, 6);
    const tv_tgsi_instruction *in = &p->insns[0];
    assert_int_equal(in->opcode, TV_TGSI_OP_MAD);
    assert_true(in->saturate && in->precise);
    assert_int_equal(in->num_dst, 1);
    assert_int_equal(in->num_src, 3);
    assert_int_equal(in->dst[0].reg.file, TV_FILE_TEMP);
    assert_int_equal(in->dst[0].writemask, 0x5);
    const tv_tgsi_src *s = &in->src[0];
    assert_true(s->negate && s->absolute);
    assert_int_equal(s->reg.file, TV_FILE_CONST);
    assert_true(s->reg.has_dim);
    assert_int_equal(s->reg.dim, 1);
    assert_false(s->reg.dim_indirect);
    assert_true(s->reg.indirect);
    assert_int_equal(s->reg.index, -2);
    assert_int_equal(s->reg.ind.file, TV_FILE_ADDR);
    assert_int_equal(s->reg.ind.index, 0);
    assert_int_equal(s->reg.ind.component, TV_SWZ_Y);
    assert_int_equal(s->reg.array_id, 3);
    assert_memory_equal(s->swizzle, ((uint8_t[]){0, 1, 2, 3}), 4);
    s = &in->src[1];
    assert_int_equal(s->reg.file, TV_FILE_IN);
    assert_int_equal(s->reg.dim, 2);
    assert_true(s->reg.indirect);
    assert_int_equal(s->reg.index, 1);
    assert_int_equal(s->reg.ind.index, 1);
    assert_int_equal(s->reg.ind.component, TV_SWZ_W);
    assert_memory_equal(s->swizzle, ((uint8_t[]){3, 2, 1, 0}), 4);
    assert_int_equal(in->line, 2);
    assert_int_equal(in->column, 6);

    in = &p->insns[1];
    assert_int_equal(in->opcode, TV_TGSI_OP_UIF);
    assert_true(in->has_label);
    assert_int_equal(in->label, 5);

    in = &p->insns[2];
    assert_int_equal(in->opcode, TV_TGSI_OP_TXD);
    assert_int_equal(in->num_src, 4);
    assert_true(in->has_texture);
    assert_int_equal(in->tex_target, TV_TGT_SHADOWCUBE_ARRAY);
    assert_int_equal(in->num_tex_offsets, 2);
    assert_int_equal(in->tex_offsets[1].file, TV_FILE_TEMP);
    assert_int_equal(in->tex_offsets[1].index, 1);
    assert_memory_equal(in->tex_offsets[1].swizzle, ((uint8_t[]){2, 2, 0}), 3);
    assert_int_equal(in->src[3].reg.file, TV_FILE_SAMP);

    in = &p->insns[3];
    assert_int_equal(in->opcode, TV_TGSI_OP_STORE);
    assert_int_equal(in->mem_qualifier, TV_MEMQ_COHERENT | TV_MEMQ_VOLATILE);
    assert_int_equal(in->mem_target, TV_TGT_2D);
    assert_string_equal(tv_tgsi_pipe_format_name(in->mem_format), "PIPE_FORMAT_R8_UINT");

    in = &p->insns[4];
    assert_true(in->has_texture); /* offsets on SAMPLE set the texture part */
    assert_int_equal(in->tex_target, TV_TGT_UNKNOWN);
    assert_int_equal(in->num_tex_offsets, 1);

    in = &p->insns[5];
    assert_true(in->dst[0].reg.indirect);
    assert_int_equal(in->dst[0].reg.ind.file, TV_FILE_TEMP);
    assert_int_equal(in->dst[0].reg.ind.index, 3);
    assert_int_equal(in->dst[0].reg.index, 1);
    assert_int_equal(in->dst[0].reg.ind.component, TV_SWZ_Z);
    assert_int_equal(in->dst[0].reg.array_id, 1);
    tv_tgsi_programs_free(p, 1);
}

static void test_immediates(void **state)
{
    (void)state;
    tv_tgsi_program *p = parse1("COMP\n"
                                "IMM[0] FLT32 {0.5, -2.5, 0x3f800000, 1e-3}\n"
                                "IMM FLT32 {0x00000000, 0x80000000, 0x7fc00000, 0x3F800000}\n"
                                "IMM[2] UINT32 {4294967295, 0x10, 0, 7}\n"
                                "IMM[3] INT32 {-2147483648, 2147483647, -1, +5}\n"
                                "IMM[4] FLT64 {1.5, -0.25}\n"
                                "IMM[5] UINT64 {18446744073709551615, 0x123456789abcdef0}\n"
                                "IMM[6] INT64 {-3, 9}\n"
                                "IMM[7] FLT32 {.5, 5., 1E2, -0}\n",
                                0);
    assert_int_equal(p->num_imms, 8);
    const tv_tgsi_immediate *m = p->imms;
    assert_int_equal(m[0].type, TV_IMM_FLT32);
    assert_int_equal(m[0].u[0], 0x3f000000u);
    assert_int_equal(m[0].u[1], 0xc0200000u);
    assert_int_equal(m[0].u[2], 0x3f800000u);
    assert_int_equal(m[0].u[3], tv_f32_bits(1e-3f));
    assert_false(m[0].hex);
    assert_true(m[1].hex);
    assert_int_equal(m[1].u[1], 0x80000000u);
    assert_int_equal(m[1].u[2], 0x7fc00000u);
    assert_int_equal(m[2].u[0], 0xffffffffu);
    assert_int_equal(m[2].u[1], 16);
    assert_int_equal(m[3].u[0], 0x80000000u);
    assert_int_equal(m[3].u[1], 0x7fffffffu);
    assert_int_equal(m[3].u[2], 0xffffffffu);
    assert_int_equal(m[3].u[3], 5);
    uint64_t a = dbits(1.5), b = dbits(-0.25);
    assert_int_equal(m[4].u[0], (uint32_t)a);
    assert_int_equal(m[4].u[1], (uint32_t)(a >> 32));
    assert_int_equal(m[4].u[2], (uint32_t)b);
    assert_int_equal(m[4].u[3], (uint32_t)(b >> 32));
    assert_int_equal(m[5].u[0], 0xffffffffu);
    assert_int_equal(m[5].u[1], 0xffffffffu);
    assert_int_equal(m[5].u[2], 0x9abcdef0u);
    assert_int_equal(m[5].u[3], 0x12345678u);
    assert_int_equal(m[6].u[0], 0xfffffffdu);
    assert_int_equal(m[6].u[1], 0xffffffffu);
    assert_int_equal(m[6].u[2], 9);
    assert_int_equal(m[7].u[0], 0x3f000000u);
    assert_int_equal(m[7].u[1], 0x40a00000u);
    assert_int_equal(m[7].u[2], 0x42c80000u);
    assert_int_equal(m[7].u[3], 0x80000000u);
    tv_tgsi_programs_free(p, 1);
}

static void test_several_programs_and_order(void **state)
{
    (void)state;
    size_t count;
    tv_error err;
    tv_tgsi_program *p = th_parse("VERT\nDCL IN[0]\nDCL OUT[0], POSITION\nMOV OUT[0], IN[0]\nEND\n"
                                  "\nFRAG\nPROPERTY FS_COLOR0_WRITES_ALL_CBUFS 1\n"
                                  "IMM FLT32 {1.0, 0.0, 0.0, 1.0}\nDCL OUT[0], COLOR\n"
                                  "MOV OUT[0], IMM[0]\nEND\nIMM FLT32 {2.0, 0.0, 0.0, 1.0}\n",
                                  0, &count, &err);
    assert_non_null(p);
    assert_int_equal(count, 2);
    assert_int_equal(p[0].processor, TV_TGSI_VERT);
    assert_int_equal(p[0].first_line, 1);
    assert_int_equal(p[1].processor, TV_TGSI_FRAG);
    assert_int_equal(p[1].first_line, 7);
    /* statements in written order: property, imm, decl, insn, insn, imm (after END) */
    const uint8_t kinds[] = {TV_STMT_PROPERTY, TV_STMT_IMM, TV_STMT_DECL,
                             TV_STMT_INSN, TV_STMT_INSN, TV_STMT_IMM};
    assert_int_equal(p[1].num_stmts, 6);
    for (int i = 0; i < 6; i++)
        assert_int_equal(p[1].stmts[i].kind, kinds[i]);
    assert_int_equal(p[1].stmts[5].index, 1);
    assert_int_equal(p[1].insns[1].opcode, TV_TGSI_OP_END);
    assert_int_equal(p[1].insns[1].line, 12);
    tv_tgsi_programs_free(p, count);
}

static void test_lexical_extensions(void **state)
{
    (void)state;
    /* CRLF and lone CR, comments, lower case, a byte-order mark, instruction numbers */
    tv_tgsi_program *p = parse1("\xef\xbb\xbf; a comment line\r\n"
                                "frag // the header\r\n"
                                "dcl out[0], color ; trailing comment\r"
                                "dcl temp[0..1]\n"
                                "0:mov_sat out[0].XY, -temp[1].WZYX\n"
                                "0:  end\n",
                                0);
    assert_int_equal(p->processor, TV_TGSI_FRAG);
    assert_int_equal(p->num_decls, 2);
    assert_int_equal(p->decls[0].semantic, TV_SEM_COLOR);
    assert_int_equal(p->num_insns, 2);
    assert_true(p->insns[0].saturate);
    assert_int_equal(p->insns[0].dst[0].writemask, 0x3);
    assert_memory_equal(p->insns[0].src[0].swizzle, ((uint8_t[]){3, 2, 1, 0}), 4);
    assert_int_equal(p->insns[1].line, 6);
    tv_tgsi_programs_free(p, 1);
}

static void test_legacy_mode(void **state)
{
    (void)state;
    const char *text = "GEOM\nDCL IN[][0], POSITION\nDCL OUT[0], POSITION\nDCL TEMP[0..2]\n"
                       "DCL ADDR[0]\nIMM FLT32 {1.0, 2.0, 3.0, 4.0}\n"
                       "SUB TEMP[0], IN[0][0], -TEMP[1]\n"
                       "ABS TEMP[1], -TEMP[2].yyyy\n"
                       "KIL TEMP[0]\n"
                       "MOV TEMP[2], IMM[ADDR[0].x + 3]\n"
                       "EMIT\nENDPRIM\nEND\n";
    size_t count;
    tv_error err;
    assert_null(th_parse(text, TV_TGSI_MODE_DEFAULT, &count, &err));
    tv_tgsi_program *p = parse1(text, TV_TGSI_MODE_LEGACY);
    const tv_tgsi_instruction *in = p->insns;
    assert_int_equal(in[0].opcode, TV_TGSI_OP_ADD);
    assert_false(in[0].src[1].negate); /* SUB a, -b = ADD a, b */
    assert_int_equal(in[1].opcode, TV_TGSI_OP_MOV);
    assert_true(in[1].src[0].absolute);
    assert_false(in[1].src[0].negate);
    assert_int_equal(in[2].opcode, TV_TGSI_OP_KILL_IF);
    assert_true(in[3].src[0].reg.indirect);
    assert_int_equal(in[3].src[0].reg.index, 3);
    /* operand-less EMIT/ENDPRIM read stream 0 (.x) of a synthesized immediate */
    assert_int_equal(in[4].opcode, TV_TGSI_OP_EMIT);
    assert_int_equal(in[4].num_src, 1);
    assert_int_equal(in[4].src[0].reg.file, TV_FILE_IMM);
    assert_int_equal(in[4].src[0].reg.index, 1);
    assert_memory_equal(in[4].src[0].swizzle, ((uint8_t[]){0, 0, 0, 0}), 4);
    assert_int_equal(p->num_imms, 2);
    assert_int_equal(p->imms[1].type, TV_IMM_UINT32);
    assert_int_equal(p->imms[1].u[0], 0);
    assert_int_equal(in[5].src[0].reg.index, 1);
    /* KILL_IF (from KIL) is a FRAG-only opcode */
    assert_int_equal(tv_tgsi_validate(p, TV_TGSI_LENIENT, &err), TV_ERR_INVALID);
    assert_string_equal(err.message, "`KILL_IF` is only allowed in FRAG programs, not in GEOM");
    assert_int_equal(err.line, 9);
    tv_tgsi_programs_free(p, 1);
}

static void test_legacy_xpd(void **state)
{
    (void)state;
    /* XPD d, a, b = (a.y*b.z - a.z*b.y, a.z*b.x - a.x*b.z, a.x*b.y - a.y*b.x, 1) */
    tv_tgsi_program *p = parse1("VERT\nDCL IN[0..1]\nDCL OUT[0]\nDCL TEMP[0..4]\n"
                                "BGNLOOP :0\nXPD OUT[0], IN[0].wzyx, IN[1]\nBRK\nENDLOOP :0\n"
                                "IF IN[0].xxxx :6\nXPD_SAT OUT[0].xw, IN[0], IN[1]\nENDIF\nEND\n",
                                TV_TGSI_MODE_LEGACY);
    assert_int_equal(p->num_insns, 12);
    const tv_tgsi_instruction *in = p->insns;
    assert_int_equal(in[1].opcode, TV_TGSI_OP_MUL);
    assert_int_equal(in[1].dst[0].reg.file, TV_FILE_TEMP);
    assert_int_equal(in[1].dst[0].reg.index, 5); /* after the last declared TEMP */
    assert_int_equal(in[1].dst[0].writemask, 0x7);
    /* a = IN[0].wzyx: a.z a.x a.y -> y w z; b.y b.z b.x */
    assert_memory_equal(in[1].src[0].swizzle, ((uint8_t[]){1, 3, 2, 0}), 4);
    assert_memory_equal(in[1].src[1].swizzle, ((uint8_t[]){1, 2, 0, 3}), 4);
    assert_int_equal(in[2].opcode, TV_TGSI_OP_MAD);
    assert_memory_equal(in[2].src[0].swizzle, ((uint8_t[]){2, 1, 3, 0}), 4);
    assert_memory_equal(in[2].src[1].swizzle, ((uint8_t[]){2, 0, 1, 3}), 4);
    assert_true(in[2].src[2].negate);
    assert_int_equal(in[2].src[2].reg.index, 5);
    assert_int_equal(in[3].opcode, TV_TGSI_OP_MOV);
    assert_int_equal(in[3].dst[0].writemask, 0x8);
    assert_int_equal(in[3].src[0].reg.file, TV_FILE_IMM);
    assert_int_equal(p->imms[in[3].src[0].reg.index].u[in[3].src[0].swizzle[0]], 0x3f800000u);
    /* the IF label (written as 6 = the ENDIF) moves past the two added instructions */
    assert_int_equal(in[6].opcode, TV_TGSI_OP_IF);
    assert_int_equal(in[6].label, 10);
    assert_int_equal(in[10].opcode, TV_TGSI_OP_ENDIF);
    assert_true(in[8].saturate);
    assert_int_equal(in[8].dst[0].writemask, 0x1);
    tv_error err;
    assert_int_equal(tv_tgsi_validate(p, TV_TGSI_STRICT, &err), TV_OK);
    tv_tgsi_programs_free(p, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_declarations),
        cmocka_unit_test(test_geometry_declarations),
        cmocka_unit_test(test_operands),
        cmocka_unit_test(test_immediates),
        cmocka_unit_test(test_several_programs_and_order),
        cmocka_unit_test(test_lexical_extensions),
        cmocka_unit_test(test_legacy_mode),
        cmocka_unit_test(test_legacy_xpd),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
