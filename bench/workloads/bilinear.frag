#version 330 core
// bench workload "bilinear": one lookup of a 1024x1024 RGBA8 mip-mapped texture, magnified
// (1920x1080 pixels over the whole texture: LOD < 0, bilinear on level 0)
in vec2 v_uv;
out vec4 o;
uniform sampler2D tex;
void main() {
   o = texture(tex, v_uv);
}
