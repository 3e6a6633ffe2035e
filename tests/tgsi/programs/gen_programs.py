# Writes tests/tgsi/programs/*.tgsi in Mesa's tgsi_dump layout. Numbering and indentation
# follow tgsi_dump's rules (indent after IF/UIF/ELSE/BGNLOOP/BGNSUB, dedent before
# ELSE/ENDIF/ENDLOOP/ENDSUB), written here independently of texvm's printer.
import os
OUT = os.path.dirname(os.path.abspath(__file__))
IND = {'IF','UIF','ELSE','BGNLOOP','BGNSUB'}
DED = {'ELSE','ENDIF','ENDLOOP','ENDSUB'}
def prog(name, head, insns):
    lines = list(head)
    ind = 0
    for n, ins in enumerate(insns):
        op = ins.split()[0].split('_SAT')[0].split('_PRECISE')[0] if ins.split()[0] not in ('KILL_IF','TEX_LZ','TXF_LZ') else ins.split()[0]
        if op in DED: ind -= 1
        lines.append('%3d: %s%s' % (n, '  ' * max(ind, 0), ins))
        if op in IND: ind += 1
    open(os.path.join(OUT, name), 'w').write('\n'.join(lines) + '\n')

f = lambda *v: 'IMM[%d] FLT32 {' % f.n + ', '.join('%10.4f' % x for x in v) + '}'
def imm(i, t, vals):
    if t == 'FLT32': s = ', '.join('%10.4f' % x for x in vals)
    elif t == 'FLT64': s = ', '.join('%10.8f' % x for x in vals)
    else: s = ', '.join(str(x) for x in vals)
    return 'IMM[%d] %s {%s}' % (i, t, s)

alu_head = ['FRAG', 'PROPERTY FS_COORD_ORIGIN UPPER_LEFT', 'PROPERTY FS_COORD_PIXEL_CENTER HALF_INTEGER',
 'DCL IN[0], GENERIC[0], PERSPECTIVE', 'DCL IN[1].xy, GENERIC[1], LINEAR, CENTROID',
 'DCL IN[2], COLOR, COLOR, SAMPLE', 'DCL IN[3].x, FACE, CONSTANT', 'DCL SV[0], SAMPLEID', 'DCL OUT[0], COLOR',
 'DCL CONST[0][0..3]', 'DCL CONST[1][0..1]', 'DCL TEMP[0..7]', 'DCL TEMP[8..11], ARRAY(1)', 'DCL ADDR[0]',
 imm(0, 'FLT32', [0.5, 1.0, 2.0, -1.0]), imm(1, 'UINT32', [0, 1, 2, 3]), imm(2, 'INT32', [-1, 0, 7, -8]),
 'IMM[3] FLT32 {0x3dcccccd, 0x00000001, 0x7fc00000, 0x80000000}']
un_f = 'MOV LIT RCP RSQ EXP LOG FRC FLR ROUND EX2 LG2 COS SIN SSG CEIL TRUNC SQRT DDX DDY DDX_FINE DDY_FINE'.split()
bin_f = 'MUL ADD DP3 DP4 DST MIN MAX SLT SGE SEQ SGT SLE SNE DIV DP2 POW LDEXP FSEQ FSGE FSLT FSNE'.split()
tri_f = 'MAD LRP FMA CMP'.split()
un_i = 'NOT INEG IABS ISSG BREV POPC LSB IMSB UMSB F2I F2U I2F U2F'.split()
bin_i = 'SHL AND OR MOD XOR IDIV IMAX IMIN ISGE ISHR ISLT UADD UDIV UMAX UMIN UMOD UMUL USEQ USGE USHR USLT USNE IMUL_HI UMUL_HI'.split()
tri_i = 'UMAD UCMP IBFE UBFE'.split()
pack = 'PK2H PK2US PK4B PK4UB UP2H UP2US UP4B UP4UB'.split()
ins = []
for i, o in enumerate(un_f): ins.append('%s TEMP[%d], IN[0].xyzx' % (o, i % 8) if i % 3 else '%s TEMP[%d].xy, -IN[%d]' % (o, i % 8, i % 3))
for i, o in enumerate(bin_f): ins.append('%s TEMP[%d], TEMP[%d], |CONST[0][%d].wzyx|' % (o, i % 8, (i + 1) % 8, i % 4))
for o in tri_f: ins.append('%s_SAT TEMP[1].yzw, TEMP[2], -|IMM[0].xxyy|, CONST[1][1]' % o)
for i, o in enumerate(un_i): ins.append('%s TEMP[%d].x, IMM[%d].yyyy' % (o, i % 8, 1 + i % 2))
for i, o in enumerate(bin_i): ins.append('%s TEMP[%d].xz, TEMP[3], IMM[1].wzyx' % (o, i % 8))
for o in tri_i: ins.append('%s TEMP[4], TEMP[5], IMM[1].xxxx, IMM[2]' % o)
ins.append('BFI TEMP[0], TEMP[1], TEMP[2], IMM[1].zzzz, IMM[1].yyyy')
for o in pack: ins.append('%s TEMP[6], TEMP[7]' % o)
ins += ['ARL ADDR[0].x, TEMP[0].xxxx', 'ARR ADDR[0].x, TEMP[1].yyyy', 'UARL ADDR[0].x, IMM[1].zzzz',
 'MOV TEMP[0], CONST[0][ADDR[0].x+1]', 'MOV TEMP[1], TEMP[ADDR[0].x+8](1)', 'MOV TEMP[2], IMM[ADDR[0].x-1]',
 'MUL_PRECISE TEMP[3], TEMP[3], IMM[3]', 'ADD_SAT_PRECISE TEMP[3].w, TEMP[3], IN[3].xxxx',
 'KILL_IF -TEMP[0].xxxx', 'DEMOTE', 'READ_HELPER TEMP[0].x', 'FBFETCH TEMP[1], OUT[0]',
 'INTERP_CENTROID TEMP[2], IN[0]', 'INTERP_SAMPLE TEMP[2], IN[0], SV[0].xxxx', 'INTERP_OFFSET TEMP[2], IN[0], IMM[0].xxxx',
 'BALLOT TEMP[4].xy, TEMP[0].xxxx', 'VOTE_ANY TEMP[5].x, TEMP[0].xxxx', 'VOTE_ALL TEMP[5].y, TEMP[0].xxxx',
 'VOTE_EQ TEMP[5].z, TEMP[0].xxxx', 'READ_INVOC TEMP[6], TEMP[1], IMM[1].yyyy', 'READ_FIRST TEMP[6], TEMP[1]',
 'CLOCK TEMP[7].xy', 'KILL', 'MOV OUT[0], TEMP[0]', 'END']
prog('alu.tgsi', alu_head, ins)

dhead = ['COMP', 'PROPERTY CS_FIXED_BLOCK_WIDTH 4', 'PROPERTY CS_FIXED_BLOCK_HEIGHT 1', 'PROPERTY CS_FIXED_BLOCK_DEPTH 1',
 'DCL SV[0], THREAD_ID', 'DCL BUFFER[0]', 'DCL TEMP[0..3]',
 imm(0, 'FLT64', [1.5, -0.25]), imm(1, 'UINT64', [18446744073709551615, 7]), imm(2, 'INT64', [-3, 9]),
 'IMM[3] FLT64 {0x3ff0000000000001, 0x7ff8000000000000}', imm(4, 'UINT32', [0, 8, 16, 24])]
d1 = 'F2D D2F DABS DNEG DRCP DSQRT DFRAC D2I I2D D2U U2D DRSQ DTRUNC DCEIL DFLR DROUND DSSG'.split()
d2 = 'DADD DMUL DMAX DMIN DSLT DSGE DSEQ DSNE DLDEXP DDIV'.split()
d3 = 'DMAD DFMA'.split()
l1 = 'F2U64 F2I64 U2I64 I2I64 D2U64 D2I64 U642D U642F I642F I642D I64ABS I64SSG I64NEG'.split()
l2 = 'U64SEQ U64SNE I64SLT U64SLT I64SGE U64SGE I64MIN U64MIN I64MAX U64MAX U64ADD U64MUL U64SHL I64SHR U64SHR I64DIV U64DIV I64MOD U64MOD'.split()
ins = []
for o in d1: ins.append('%s TEMP[0].xy, IMM[0].xyxy' % o)
for o in d2: ins.append('%s TEMP[1], TEMP[0], IMM[0]' % o)
for o in d3: ins.append('%s TEMP[2].zw, TEMP[0].xyxy, TEMP[1], IMM[3].zwzw' % o)
ins.append('DFRACEXP TEMP[2].xy, TEMP[3].x, TEMP[1].xyxy')
for o in l1: ins.append('%s TEMP[0].zw, IMM[1].xyxy' % o)
for o in l2: ins.append('%s TEMP[3], IMM[1], IMM[2]' % o)
ins += ['UMUL TEMP[0].x, SV[0].xxxx, IMM[4].yyyy', 'STORE BUFFER[0].xy, TEMP[0].xxxx, TEMP[3].xyxy', 'END']
prog('double.tgsi', dhead, ins)

thead = ['FRAG', 'DCL IN[0], GENERIC[0], PERSPECTIVE', 'DCL OUT[0], COLOR', 'DCL SAMP[0]', 'DCL SAMP[1]', 'DCL SAMP[2]',
 'DCL SAMP[3]', 'DCL SAMP[4]', 'DCL SVIEW[0], 2D, FLOAT', 'DCL SVIEW[1], SHADOWCUBEARRAY, FLOAT',
 'DCL SVIEW[2], 2D_MSAA, UINT', 'DCL SVIEW[3], CUBEARRAY, FLOAT', 'DCL SVIEW[4], 2D_ARRAY, SINT, SINT, UINT, FLOAT',
 'DCL TEMP[0..3]', imm(0, 'INT32', [1, -1, 0, 2])]
ins = ['TEX TEMP[0], IN[0], SAMP[0], 2D', 'TEX TEMP[0], IN[0], SAMP[0], 2D, IMM[0].xyz', 'TXP TEMP[1], IN[0], SAMP[0], 2D',
 'TXB TEMP[1], IN[0], SAMP[0], 2D, IMM[0].yxz', 'TXL TEMP[1].xy, IN[0], SAMP[0], 2D', 'TXD TEMP[2], IN[0], TEMP[0], TEMP[1], SAMP[0], 2D, IMM[0].xxz',
 'TXF TEMP[2], IMM[0].zzzz, SAMP[2], 2D_MSAA', 'TXQ TEMP[3], IMM[0].zzzz, SAMP[3], CUBEARRAY', 'TXQS TEMP[3].x, SAMP[2], 2D_MSAA',
 'TEX2 TEMP[0], IN[0], TEMP[1].xxxx, SAMP[1], SHADOWCUBEARRAY', 'TXB2 TEMP[0], IN[0], TEMP[1].xxxx, SAMP[3], CUBEARRAY',
 'TXL2 TEMP[0], IN[0], TEMP[1].xyyy, SAMP[1], SHADOWCUBEARRAY', 'TG4 TEMP[1], IN[0], IMM[0].xxxx, SAMP[0], 2D, IMM[0].xyz',
 'LODQ TEMP[2].xy, IN[0], SAMP[0], 2D', 'TEX_LZ TEMP[3], IN[0], SAMP[4], 2D_ARRAY', 'TXF_LZ TEMP[3], IMM[0].zzzz, SAMP[4], 2D_ARRAY, IMM[0].xxx',
 'SAMP2HND TEMP[0].xy, SAMP[0], 2D', 'ADD OUT[0], TEMP[0], TEMP[1]', 'END']
prog('texture.tgsi', thead, ins)

shead = ['FRAG', 'DCL IN[0], GENERIC[0], PERSPECTIVE', 'DCL OUT[0], COLOR', 'DCL SAMP[0]', 'DCL SVIEW[0], 2D, FLOAT',
 'DCL SVIEW[1], 2D_MSAA, FLOAT', 'DCL TEMP[0..2]', imm(0, 'FLT32', [0.0, 0.25, 1.0, 3.0]), imm(1, 'INT32', [1, 0, -1, 0])]
ins = ['SAMPLE TEMP[0], IN[0], SVIEW[0], SAMP[0]', 'SAMPLE TEMP[0], IN[0], SVIEW[0].yxzw, SAMP[0], IMM[1].xyz',
 'SAMPLE_I TEMP[1], IMM[1].yyyy, SVIEW[0]', 'SAMPLE_I_MS TEMP[1], IMM[1].yyyy, SVIEW[1], IMM[1].xxxx',
 'SAMPLE_B TEMP[2], IN[0], SVIEW[0], SAMP[0], IMM[0].yyyy', 'SAMPLE_C TEMP[2], IN[0], SVIEW[0], SAMP[0], IMM[0].zzzz',
 'SAMPLE_C_LZ TEMP[2], IN[0], SVIEW[0], SAMP[0], IMM[0].zzzz', 'SAMPLE_D TEMP[2], IN[0], SVIEW[0], SAMP[0], TEMP[0], TEMP[1]',
 'SAMPLE_L TEMP[2], IN[0], SVIEW[0], SAMP[0], IMM[0].wwww', 'GATHER4 TEMP[2], IN[0], SVIEW[0], SAMP[0]',
 'SVIEWINFO TEMP[0], IMM[0].xxxx, SVIEW[0]', 'SAMPLE_POS TEMP[1], SVIEW[1], IMM[1].xxxx', 'SAMPLE_INFO TEMP[1], SVIEW[1], IMM[1].yyyy',
 'LOD TEMP[1], IN[0], SVIEW[0], SAMP[0]', 'ADD OUT[0], TEMP[0], TEMP[1]', 'END']
prog('sample.tgsi', shead, ins)

chead = ['COMP', 'PROPERTY CS_FIXED_BLOCK_WIDTH 8', 'PROPERTY CS_FIXED_BLOCK_HEIGHT 8', 'PROPERTY CS_FIXED_BLOCK_DEPTH 1',
 'DCL SV[0], THREAD_ID', 'DCL SV[1], BLOCK_ID', 'DCL SV[2], BLOCK_SIZE', 'DCL SV[3], GRID_SIZE',
 'DCL IMAGE[0], 2D, PIPE_FORMAT_R32G32B32A32_FLOAT, WR', 'DCL IMAGE[1], 2D_ARRAY, PIPE_FORMAT_R32_UINT, WR, RAW',
 'DCL IMAGE[2], BUFFER, PIPE_FORMAT_R8G8B8A8_UNORM', 'DCL BUFFER[0]', 'DCL BUFFER[1], ATOMIC', 'DCL MEMORY[0], SHARED',
 'DCL MEMORY[1], GLOBAL', 'DCL MEMORY[2], PRIVATE', 'DCL MEMORY[3], INPUT', 'DCL HWATOMIC[0..1], ARRAY(1)',
 'DCL SAMP[0]', 'DCL SVIEW[0], 2D, FLOAT', 'DCL CONST[0][0..1]', 'DCL TEMP[0..4]', imm(0, 'UINT32', [0, 4, 1, 16])]
ins = ['UMAD TEMP[0].xy, SV[1].xyyy, SV[2].xyyy, SV[0].xyyy', 'LOAD TEMP[1], BUFFER[0], TEMP[0].xxxx',
 'LOAD TEMP[1], IMAGE[0], TEMP[0].xyyy, COHERENT, VOLATILE, 2D, PIPE_FORMAT_R32G32B32A32_FLOAT',
 'STORE IMAGE[0], TEMP[0].xyyy, TEMP[1], 2D, PIPE_FORMAT_R32G32B32A32_FLOAT', 'STORE MEMORY[0].x, TEMP[0].xxxx, TEMP[1].xxxx',
 'LOAD TEMP[2].x, MEMORY[0], TEMP[0].xxxx, RESTRICT', 'STORE BUFFER[0].xy, IMM[0].xxxx, TEMP[2].xyxy, STREAM_CACHE_POLICY',
 'RESQ TEMP[3], IMAGE[1]', 'RESQ TEMP[3].x, BUFFER[0]', 'IMG2HND TEMP[4].xy, IMAGE[0]',
 'ATOMFADD TEMP[2].x, MEMORY[0], IMM[0].xxxx, TEMP[1].xxxx']
for o in 'ATOMUADD ATOMXCHG ATOMAND ATOMOR ATOMXOR ATOMUMIN ATOMUMAX ATOMIMIN ATOMIMAX ATOMINC_WRAP ATOMDEC_WRAP'.split():
    ins.append('%s TEMP[2].x, BUFFER[0], IMM[0].yyyy, TEMP[1].xxxx' % o)
ins += ['ATOMCAS TEMP[2].x, IMAGE[1], TEMP[0].xyyy, TEMP[1].xxxx, IMM[0].zzzz, 2D_ARRAY, PIPE_FORMAT_R32_UINT',
 'ATOMUADD TEMP[2].x, HWATOMIC[1], IMM[0].xxxx, IMM[0].zzzz', 'LOAD TEMP[3], MEMORY[1], TEMP[0].xxxx',
 'LOAD TEMP[3], MEMORY[3], IMM[0].xxxx', 'STORE MEMORY[2].x, IMM[0].xxxx, TEMP[3].xxxx',
 'MEMBAR IMM[0].wwww', 'BARRIER', 'SAMP2HND TEMP[4].zw, SAMP[0], 2D', 'MOV TEMP[4], CONST[0][1]', 'END']
prog('compute.tgsi', chead, ins)

fhead = ['VERT', 'PROPERTY NEXT_SHADER FRAG', 'DCL IN[0]', 'DCL OUT[0], POSITION', 'DCL OUT[1], GENERIC[0], INVARIANT',
 'DCL CONST[0][0..1]', 'DCL TEMP[0..2], LOCAL', imm(0, 'INT32', [0, 1, 2, 10]), imm(1, 'FLT32', [0.0, 1.0, 0.5, 0.25])]
ins = ['MOV TEMP[0], IMM[1].xxxx', 'MOV TEMP[1].x, IMM[0].xxxx', 'BGNLOOP :0', 'ISGE TEMP[2].x, TEMP[1].xxxx, IMM[0].wwww',
 'UIF TEMP[2].xxxx :6', 'BRK', 'ENDIF', 'SWITCH TEMP[1].xxxx', 'CASE IMM[0].xxxx', 'ADD TEMP[0], TEMP[0], IMM[1].yyyy', 'BRK',
 'CASE IMM[0].yyyy', 'DEFAULT', 'ADD TEMP[0], TEMP[0], IMM[1].zzzz', 'BRK', 'ENDSWITCH', 'UADD TEMP[1].x, TEMP[1].xxxx, IMM[0].yyyy',
 'IF TEMP[0].xxxx :19', 'CONT', 'ELSE :22', 'NOP', 'CAL :26', 'ENDIF', 'ENDLOOP :0', 'MOV OUT[1], TEMP[0]', 'END',
 'BGNSUB', 'MOV OUT[0], IN[0]', 'IF CONST[0][1].xxxx :30', 'RET', 'ENDIF', 'MOV OUT[0].w, IMM[1].yyyy', 'RET', 'ENDSUB']
prog('flow.tgsi', fhead, ins)

ghead = ['GEOM', 'PROPERTY GS_INPUT_PRIMITIVE TRIANGLES', 'PROPERTY GS_OUTPUT_PRIMITIVE TRIANGLE_STRIP',
 'PROPERTY GS_MAX_OUTPUT_VERTICES 6', 'PROPERTY GS_INVOCATIONS 2', 'DCL IN[][0], POSITION', 'DCL IN[][1], GENERIC[0]',
 'DCL SV[0], INVOCATIONID', 'DCL SV[1], PRIM_ID', 'DCL OUT[0], POSITION', 'DCL OUT[1].xy, GENERIC[0], STREAM(1, 1, 0, 0)',
 'DCL OUT[2], LAYER', 'DCL TEMP[0]', 'DCL ADDR[0..1]', imm(0, 'UINT32', [0, 1, 2, 0])]
ins = ['UARL ADDR[1].x, IMM[0].zzzz', 'MOV OUT[0], IN[0][0]', 'MOV OUT[1].xy, IN[1][1].xyxx', 'MOV OUT[2].x, SV[1].xxxx',
 'EMIT IMM[0].xxxx', 'MOV OUT[0], IN[ADDR[1].x][0]', 'MOV TEMP[0], IN[2][ADDR[1].y+1]', 'EMIT IMM[0].yyyy',
 'ENDPRIM IMM[0].xxxx', 'END']
prog('geom.tgsi', ghead, ins)

tcs = ['TESS_CTRL', 'PROPERTY TCS_VERTICES_OUT 3', 'DCL IN[][0], POSITION', 'DCL OUT[][0], POSITION', 'DCL OUT[3], PATCH',
 'DCL OUT[4], TESSOUTER', 'DCL OUT[5], TESSINNER', 'DCL SV[0], INVOCATIONID', 'DCL TEMP[0]', 'DCL ADDR[0]',
 imm(0, 'FLT32', [1.0, 2.0, 0.0, 0.0])]
ins = ['UARL ADDR[0].x, SV[0].xxxx', 'MOV OUT[ADDR[0].x][0], IN[ADDR[0].x][0]', 'BARRIER', 'MOV TEMP[0], OUT[0][0]',
 'MOV OUT[4], IMM[0].yyyy', 'MOV OUT[5].xy, IMM[0].xxxx', 'MOV OUT[3], TEMP[0]', 'END']
prog('tess_ctrl.tgsi', tcs, ins)
tes = ['TESS_EVAL', 'PROPERTY TES_PRIM_MODE 4', 'PROPERTY TES_SPACING 0', 'PROPERTY TES_VERTEX_ORDER_CW 0',
 'PROPERTY TES_POINT_MODE 0', 'DCL IN[][0], POSITION', 'DCL IN[3], PATCH', 'DCL SV[0], TESSCOORD', 'DCL OUT[0], POSITION',
 'DCL TEMP[0..1]']
ins = ['MUL TEMP[0], IN[0][0], SV[0].xxxx', 'MAD TEMP[0], IN[1][0], SV[0].yyyy, TEMP[0]', 'MAD TEMP[1], IN[2][0], SV[0].zzzz, TEMP[0]',
 'ADD OUT[0], TEMP[1], IN[3]', 'END']
prog('tess_eval.tgsi', tes, ins)
