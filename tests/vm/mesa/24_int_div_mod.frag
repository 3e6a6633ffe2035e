#version 330 core
// target: UINT
out uvec4 o;
void main() {
   uvec2 p = uvec2(gl_FragCoord.xy);
   uint a = p.x * 1237u + p.y * 77777u, b = p.y * 3u + 1u;
   int ia = int(p.x) * 37 - 600, ib = int(p.y) - 8;
   if (ib == 0) ib = 3;
   o = uvec4(a / b, a % b, uint(ia / ib), uint(ia - (ia / ib) * ib));
}
