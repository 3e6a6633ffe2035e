#version 330 core
// A classic plasma: sums of sines of position, distance and time, through a palette.
in vec2 v_uv;
out vec4 color;
uniform vec4 params; // (scale, time, palette shift, unused)
void main() {
    vec2 p = (v_uv - 0.5) * params.x;
    float t = params.y;
    float v = sin(p.x + t);
    v += sin((p.y + t) * 0.5);
    v += sin((p.x + p.y + t) * 0.5);
    vec2 c = p + 0.5 * vec2(sin(t / 3.0), cos(t / 2.0)) * params.x;
    v += sin(sqrt(dot(c, c) + 1.0) + t);
    v *= 0.5;
    vec3 col = vec3(sin(3.14159 * v), sin(3.14159 * v + 2.0944 + params.z), cos(3.14159 * v));
    color = vec4(col * 0.5 + 0.5, 1.0);
}
