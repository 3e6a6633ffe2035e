#version 330 core
// target: UINT
out uvec4 o;
void main() {
   uvec2 p = uvec2(gl_FragCoord.xy);
   uint x = 0u;
   for (uint k = 0u; k < 3u; k++) {
      switch ((p.x + p.y * 3u + k) % 7u) {
      case 0u: x += 1u;
      case 1u: x += 10u; break;
      case 3u: x += 100u;
      default: x += 1000u; break;
      case 5u: x *= 3u; break;
      }
   }
   o = uvec4(x, x * 3u, p.x, p.y);
}
