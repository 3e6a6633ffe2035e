#version 330 core
// target: UINT
out uvec4 o;
void main() {
   vec2 p = gl_FragCoord.xy;
   float a = p.x * 0.5 - 8.0, b = p.y - 8.5;
   uint m = (a < b ? 1u : 0u) | (a <= b ? 2u : 0u) | (a > b ? 4u : 0u) |
            (a >= b ? 8u : 0u) | (a == floor(b) ? 16u : 0u) | (a != b ? 32u : 0u);
   o = uvec4(m, uint(step(a, b) * 10.0), floatBitsToUint(mix(a, b, 0.25)),
             all(greaterThan(vec2(a, b), vec2(0.0))) ? 7u : 9u);
}
