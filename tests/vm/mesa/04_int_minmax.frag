#version 330 core
// target: UINT
out uvec4 o;
void main() {
   ivec2 p = ivec2(gl_FragCoord.xy);
   int a = p.x * 3 - 40, b = 20 - p.y * 2;
   o = uvec4(uint(min(a, b)), uint(max(a, b)), uint(abs(a) + sign(b)),
             uint(clamp(a * b, -100, 100)) ^ uint(min(uint(p.x * 7), uint(p.y * 9))));
}
