#version 330 core
// target: UINT
out uvec4 o;
void main() {
   ivec2 p = ivec2(gl_FragCoord.xy);
   int a = p.x * 37 - p.y * 101 - 500, b = p.y - 7;
   int d = b == 0 ? 1 : b;
   o = uvec4(uint(a / d), uint(a * b), uint(a - b), uint(-a));
}
