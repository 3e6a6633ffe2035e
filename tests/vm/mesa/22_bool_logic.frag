#version 330 core
// target: UINT
out uvec4 o;
void main() {
   uvec2 p = uvec2(gl_FragCoord.xy);
   bool a = (p.x & 1u) == 1u, b = p.y > 8u, c = p.x * p.y > 100u;
   bool x = (a && !b) || (c ^^ a);
   bvec4 v = bvec4(a, b, c, x);
   o = uvec4(any(v) ? 1u : 0u, all(v) ? 1u : 0u, uvec2(not(v.xy))) + uvec4(x ? 10u : 20u);
}
