#version 330 core
// target: UINT
// constants: [["u:3",0,0,0],["u:1",0,0,0],["u:4",0,0,0],["u:1",0,0,0],["u:5",0,0,0],["u:9",0,0,0],["u:2",0,0,0],["u:6",0,0,0],[-1,0,1,0]]
out uvec4 o;
const uint tab[8] = uint[8](3u, 1u, 4u, 1u, 5u, 9u, 2u, 6u);
void main() {
   uvec2 p = uvec2(gl_FragCoord.xy);
   uint i = (p.x * 3u + p.y) & 7u;
   o = uvec4(tab[i], tab[(i + 5u) & 7u] * 100u, tab[p.y & 7u] + tab[p.x & 7u], i);
}
