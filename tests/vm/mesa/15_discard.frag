#version 330 core
// target: UINT
out uvec4 o;
void main() {
   uvec2 p = uvec2(gl_FragCoord.xy);
   if ((p.x + 2u * p.y) % 3u == 0u) discard;
   uint v = p.x * p.y;
   if (v > 200u && (p.x & 1u) == 1u) discard;
   o = uvec4(v, p.x, p.y, 0xabcdu);
}
