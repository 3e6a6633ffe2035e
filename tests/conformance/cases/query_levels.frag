#version 330 core
#extension GL_ARB_shading_language_420pack : require
#extension GL_ARB_texture_query_lod : require
#extension GL_ARB_texture_query_levels : require
#extension GL_ARB_texture_gather : require
#extension GL_ARB_gpu_shader5 : require
#extension GL_ARB_texture_cube_map_array : require
// TXQ .w (levels)
// units: c2d:tri_repeat,arr:tri_repeat,cube:tri_repeat,vol:lin_mirror
// class: exact
in vec2 v_uv;
out vec4 o;
layout(binding = 0) uniform sampler2D s0;
layout(binding = 1) uniform sampler2DArray s1;
layout(binding = 2) uniform samplerCube s2;
layout(binding = 3) uniform sampler3D s3;
void main() {
   vec2 q = v_uv * vec2(3.0, 2.0) / (0.35 + v_uv.y);
   float ref = 0.2 + 0.6 * v_uv.x;
   o = vec4(float(textureQueryLevels(s0)), float(textureQueryLevels(s1)), float(textureQueryLevels(s2)), float(textureQueryLevels(s3)));
}
