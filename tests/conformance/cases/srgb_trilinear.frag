#version 330 core
#extension GL_ARB_shading_language_420pack : require
#extension GL_ARB_texture_query_lod : require
#extension GL_ARB_texture_query_levels : require
#extension GL_ARB_texture_gather : require
#extension GL_ARB_gpu_shader5 : require
#extension GL_ARB_texture_cube_map_array : require
// sRGB texture, decode before filtering
// units: s8:tri_srgb
// class: implicit
in vec2 v_uv;
out vec4 o;
layout(binding = 0) uniform sampler2D s0;
void main() {
   vec2 q = v_uv * vec2(3.0, 2.0) / (0.35 + v_uv.y);
   float ref = 0.2 + 0.6 * v_uv.x;
   o = texture(s0, q);
}
