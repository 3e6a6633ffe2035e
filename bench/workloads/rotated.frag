#version 330 core
// bench workload "rotated": trilinear's lookup with the coordinates turned ~22 degrees
// (x' = x - 0.4 y, y' = 0.4 x + y, then x 2.5: LOD ~1.35, two levels) — a surface not
// aligned with the screen, as most textured surfaces of a 3-D scene are: neighbouring
// pixels' texels then seldom lie side by side in memory (docs/performance-amd.md §1.2)
in vec2 v_uv;
out vec4 o;
uniform sampler2D tex;
void main() {
   o = texture(tex, mat2(1.0, 0.4, -0.4, 1.0) * v_uv * 2.5);
}
