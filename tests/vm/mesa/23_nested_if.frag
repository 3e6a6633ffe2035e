#version 330 core
// target: FLOAT 0
out vec4 o;
void main() {
   vec2 p = gl_FragCoord.xy - vec2(16.5, 8.5);
   vec4 r = vec4(0.0);
   if (p.x > 0.0) {
      if (p.y > 0.0) r.x = p.x * p.y; else r.y = p.x - p.y;
      if (p.x > 10.0) { r.z = 1.0; if (p.y < -4.0) r.w = 2.0; }
   } else if (p.y > 2.0) {
      r = vec4(p, -p);
   } else {
      r.w = abs(p.x) + 0.5;
   }
   o = r;
}
