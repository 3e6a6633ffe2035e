#version 330 core
// target: UINT
out uvec4 o;
void main() {
   uvec2 p = uvec2(gl_FragCoord.xy);
   uint acc = 0u, cnt = 0u;
   for (uint i = 0u; i < p.x % 9u; i++) {
      for (uint j = 0u; j < 12u; j++) {
         if (j > i + p.y % 4u) break;
         if (((i * 7u + j) & 3u) == 1u) continue;
         acc += i * 16u + j;
         cnt++;
      }
      if (acc > 300u + p.y) break;
   }
   o = uvec4(acc, cnt, acc ^ cnt, p.x * 100u + p.y);
}
