#version 330 core
// A textured ground plane in perspective: mip-mapped, anisotropically filtered lookups.
in vec2 v_uv;
out vec4 color;
uniform sampler2D ground;
void main() {
    color = texture(ground, v_uv);
}
