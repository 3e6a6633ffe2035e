#version 330 core
#extension GL_ARB_derivative_control : require
// gl_FragCoord read and derivatives taken in the same shader (FS_COORD_ORIGIN /
// FS_COORD_PIXEL_CENTER with DDX/DDY, coarse and fine): lower-left origin, integer centres
// units:
// class: exact tol=1e-5
layout(pixel_center_integer) in vec4 gl_FragCoord;
in vec2 v_uv;
out vec4 o;
void main() {
   float a = v_uv.y * v_uv.y * 64.0 + v_uv.x * v_uv.x * 3.0;
   o = vec4(dFdyCoarse(a) + 0.5 * dFdxCoarse(a),
            dFdyFine(a) + 100.0 * dFdxFine(a),
            gl_FragCoord.y + 0.001 * gl_FragCoord.x,
            dFdyCoarse(gl_FragCoord.y) + 10.0 * dFdyFine(gl_FragCoord.y) + 100.0 * dFdx(gl_FragCoord.x));
}
