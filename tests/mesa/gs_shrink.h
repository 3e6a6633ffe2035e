/* The geometry shader two differential tests share (test_draw_gs_llvmpipe.c,
 * test_so_llvmpipe.c): each input triangle emitted as it is (colour per vertex, alpha =
 * PRIM_ID / 512) and again shrunk towards its first vertex (inverted colours, alpha 1),
 * in TGSI for texvm and in GLSL 1.50 for llvmpipe. The shrunk vertices (v + v0) * 0.5 are
 * exact in float for positions on a fine binary grid. */
#ifndef TEXVM_TESTS_MESA_GS_SHRINK_H
#define TEXVM_TESTS_MESA_GS_SHRINK_H

static const char gs_tgsi[] =
    "GEOM\n"
    "PROPERTY GS_INPUT_PRIMITIVE TRIANGLES\n"
    "PROPERTY GS_OUTPUT_PRIMITIVE TRIANGLE_STRIP\n"
    "PROPERTY GS_MAX_OUTPUT_VERTICES 6\n"
    "PROPERTY GS_INVOCATIONS 1\n"
    "DCL IN[][0], POSITION\n"
    "DCL IN[][1], GENERIC[0]\n"
    "DCL SV[0], PRIM_ID\n"
    "DCL OUT[0], POSITION\n"
    "DCL OUT[1], GENERIC[0]\n"
    "DCL TEMP[0..1]\n"
    "IMM[0] FLT32 {0.001953125, 0.5, 1.0, 0.0}\n"
    "IMM[1] UINT32 {0, 0, 0, 0}\n"
    "U2F TEMP[0].x, SV[0].xxxx\n"
    "MUL TEMP[0].x, TEMP[0].xxxx, IMM[0].xxxx\n"
    "MOV OUT[0], IN[0][0]\nMOV OUT[1].xyz, IN[0][1]\nMOV OUT[1].w, TEMP[0].xxxx\n"
    "EMIT IMM[1].xxxx\n"
    "MOV OUT[0], IN[1][0]\nMOV OUT[1].xyz, IN[1][1]\nMOV OUT[1].w, TEMP[0].xxxx\n"
    "EMIT IMM[1].xxxx\n"
    "MOV OUT[0], IN[2][0]\nMOV OUT[1].xyz, IN[2][1]\nMOV OUT[1].w, TEMP[0].xxxx\n"
    "EMIT IMM[1].xxxx\n"
    "ENDPRIM IMM[1].xxxx\n"
    "ADD TEMP[1], IN[0][0], IN[0][0]\nMUL OUT[0], TEMP[1], IMM[0].yyyy\n"
    "ADD OUT[1].xyz, IMM[0].zzzz, -IN[0][1]\nMOV OUT[1].w, IMM[0].zzzz\n"
    "EMIT IMM[1].xxxx\n"
    "ADD TEMP[1], IN[1][0], IN[0][0]\nMUL OUT[0], TEMP[1], IMM[0].yyyy\n"
    "ADD OUT[1].xyz, IMM[0].zzzz, -IN[1][1]\nMOV OUT[1].w, IMM[0].zzzz\n"
    "EMIT IMM[1].xxxx\n"
    "ADD TEMP[1], IN[2][0], IN[0][0]\nMUL OUT[0], TEMP[1], IMM[0].yyyy\n"
    "ADD OUT[1].xyz, IMM[0].zzzz, -IN[2][1]\nMOV OUT[1].w, IMM[0].zzzz\n"
    "EMIT IMM[1].xxxx\n"
    "ENDPRIM IMM[1].xxxx\n"
    "END\n";

static const char gs_glsl[] =
    "layout(triangles) in;\nlayout(triangle_strip, max_vertices = 6) out;\n"
    "in vec4 vcol[];\nflat out vec4 col;\n"
    "void main() {\n"
    "  float a = float(gl_PrimitiveIDIn) * 0.001953125;\n"
    "  for (int i = 0; i < 3; i++) {\n"
    "    gl_Position = gl_in[i].gl_Position; col = vec4(vcol[i].rgb, a); EmitVertex();\n"
    "  }\n"
    "  EndPrimitive();\n"
    "  for (int i = 0; i < 3; i++) {\n"
    "    gl_Position = (gl_in[i].gl_Position + gl_in[0].gl_Position) * 0.5;\n"
    "    col = vec4(1.0 - vcol[i].rgb, 1.0); EmitVertex();\n"
    "  }\n"
    "  EndPrimitive();\n"
    "}\n";

#endif
