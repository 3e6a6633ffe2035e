#version 330 core
// bench workload "trilinear": the 1024x1024 RGBA8 texture minified (coordinates x 2.5:
// LOD ~1.25), linear between two mip levels
in vec2 v_uv;
out vec4 o;
uniform sampler2D tex;
void main() {
   o = texture(tex, v_uv * 2.5);
}
