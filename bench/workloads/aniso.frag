#version 330 core
// bench workload "aniso": 16x anisotropic trilinear lookup, footprint ~2x19 texels
// (coordinates x (2.5, 20))
in vec2 v_uv;
out vec4 o;
uniform sampler2D tex;
void main() {
   o = texture(tex, v_uv * vec2(2.5, 20.0));
}
