#version 330 core
// target: UINT
out uvec4 o;
void main() {
   vec2 p = gl_FragCoord.xy;
   float f = (p.x - 16.0) * 13.7 + p.y * 0.3;
   int i = int(f);
   uint u = uint(abs(f) * 1000.0);
   o = uvec4(uint(i), u, floatBitsToUint(float(i * 3 - 7)), floatBitsToUint(float(u) * 0.5));
}
