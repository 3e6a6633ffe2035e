#version 330 core
#extension GL_ARB_shading_language_420pack : require
#extension GL_ARB_texture_query_lod : require
#extension GL_ARB_texture_query_levels : require
#extension GL_ARB_texture_gather : require
#extension GL_ARB_gpu_shader5 : require
#extension GL_ARB_texture_cube_map_array : require
// TEX, affine coordinates: lambda = 1 exactly in every pixel (per-quad = per-pixel, log2 exact)
// units: c2d:tri_repeat
// class: filtered
in vec2 v_uv;
out vec4 o;
layout(binding = 0) uniform sampler2D s0;
void main() {
   o = texture(s0, v_uv * 2.0 + vec2(0.03, 0.07));
}
