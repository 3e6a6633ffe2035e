#version 330 core
// target: FLOAT 1e-6
out vec4 o;
void main() {
   vec2 p = gl_FragCoord.xy;
   vec3 a = vec3(p.x - 16.0, p.y - 8.0, 3.0), b = vec3(1.5, -p.x * 0.25, p.y);
   vec3 c = cross(a, b);
   o = vec4(dot(a, b), length(c) * 0.01, distance(a, b), normalize(a + 0.5).y + c.z * 0.001);
}
