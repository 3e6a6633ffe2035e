#version 330 core
#extension GL_ARB_shading_language_420pack : require
#extension GL_ARB_texture_query_lod : require
#extension GL_ARB_texture_query_levels : require
#extension GL_ARB_texture_gather : require
#extension GL_ARB_gpu_shader5 : require
#extension GL_ARB_texture_cube_map_array : require
// gathers and queries in a switch
// units: c2d:tri_repeat
// class: exact
in vec2 v_uv;
out vec4 o;
layout(binding = 0) uniform sampler2D s0;
void main() {
   vec2 q = v_uv * vec2(3.0, 2.0) / (0.35 + v_uv.y);
   float ref = 0.2 + 0.6 * v_uv.x;
   switch (int(v_uv.x * 4.0)) {
   case 0: o = textureGather(s0, q, 0); break;
   case 1: o = textureGather(s0, q, 1); break;
   case 2: o = textureGatherOffset(s0, q, ivec2(1, 1), 2); break;
   default: o = vec4(textureSize(s0, 1), textureQueryLevels(s0), 0.0); break;
   }
}
