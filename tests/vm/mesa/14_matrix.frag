#version 330 core
// target: FLOAT 1e-6
out vec4 o;
void main() {
   vec2 p = gl_FragCoord.xy;
   mat3 m = mat3(1.0, p.x * 0.1, 0.5, -0.25, 2.0, p.y * 0.05, 0.3, 0.7, -1.0);
   vec3 v = vec3(p.y, 1.0, p.x * 0.5);
   vec3 r = m * v;
   mat4 t = transpose(mat4(vec4(r, 1.0), vec4(v, 0.0), vec4(1.0, 2.0, 3.0, 4.0), vec4(p, p)));
   o = t * vec4(0.5, -1.0, 0.25, 2.0);
}
