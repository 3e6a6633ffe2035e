#version 330 core
// bench workload "loop": a loop whose trip count (0..7) varies per pixel, with a branch
// that alternates inside it (lanes of a warp diverge in both)
in vec2 v_uv;
out vec4 o;
void main() {
   uvec2 p = uvec2(v_uv * vec2(1920.0, 1080.0));
   uint n = (p.x ^ p.y) & 7u;
   vec4 acc = vec4(0.0);
   for (uint i = 0u; i < n; i++) {
      if ((i & 1u) != 0u)
         acc.x += 0.5;
      else
         acc.y = acc.y * 0.5 + 1.0;
      acc.z += float(i) * v_uv.x;
   }
   acc.w = float(n);
   o = acc;
}
