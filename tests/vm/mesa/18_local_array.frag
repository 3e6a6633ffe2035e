#version 330 core
// target: UINT
// softpipe-deviation: indirect TEMP stores use the first lane's index for the whole quad (tgsi_exec); texvm is per lane and is checked against a C model instead
out uvec4 o;
void main() {
   uvec2 p = uvec2(gl_FragCoord.xy);
   uint a[12];
   for (uint i = 0u; i < 12u; i++) a[i] = i * i + p.x;
   a[p.y % 12u] = 777u;
   uint s = 0u;
   for (uint i = 0u; i < 12u; i += 1u + (p.x & 1u)) s += a[i];
   o = uvec4(s, a[(p.x + p.y) % 12u], a[p.x % 12u], a[11u - p.y % 12u]);
}
