#version 330 core
#extension GL_ARB_shading_language_420pack : require
#extension GL_ARB_texture_query_lod : require
#extension GL_ARB_texture_query_levels : require
#extension GL_ARB_texture_gather : require
#extension GL_ARB_gpu_shader5 : require
#extension GL_ARB_texture_cube_map_array : require
// TXQ of array, cube, 3D, cube array (cubes)
// units: arr:tri_repeat,cube:tri_repeat,vol:lin_mirror,carr:tri_repeat
// class: exact
in vec2 v_uv;
out vec4 o;
layout(binding = 0) uniform sampler2DArray s0;
layout(binding = 1) uniform samplerCube s1;
layout(binding = 2) uniform sampler3D s2;
layout(binding = 3) uniform samplerCubeArray s3;
void main() {
   vec2 q = v_uv * vec2(3.0, 2.0) / (0.35 + v_uv.y);
   float ref = 0.2 + 0.6 * v_uv.x;
   o = vec4(vec3(textureSize(s0, 1)).xz, float(textureSize(s1, 2).x), float(textureSize(s2, 1).z)) + vec4(vec3(textureSize(s3, 0)), 0.0) * 100.0;
}
