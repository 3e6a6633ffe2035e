#version 330 core
#extension GL_ARB_gpu_shader5 : require
// target: UINT
out uvec4 o;
void main() {
   vec2 p = gl_FragCoord.xy;
   float f = (p.x - 16.0) * 3.3 + p.y * 0.125;
   int e;
   float m = frexp(f, e);
   o = uvec4(floatBitsToUint(m), uint(e), floatBitsToUint(ldexp(m, e + int(p.y) - 8)),
             floatBitsToUint(ldexp(1.5, int(p.x) - 16)));
}
