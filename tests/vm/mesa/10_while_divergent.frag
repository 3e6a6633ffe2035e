#version 330 core
// target: UINT
out uvec4 o;
void main() {
   uvec2 p = uvec2(gl_FragCoord.xy);
   uint n = p.x * 31u + p.y * 17u + 1u, steps = 0u;
   while (n != 1u && steps < 200u) {      // Collatz
      n = (n & 1u) == 1u ? 3u * n + 1u : n >> 1;
      steps++;
   }
   uint m = p.x + 1u, g = p.y + 1u;        // gcd
   while (g != 0u) { uint t = m % g; m = g; g = t; }
   o = uvec4(steps, m, n, steps * m);
}
