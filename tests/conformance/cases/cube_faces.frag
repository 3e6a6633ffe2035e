#version 330 core
#extension GL_ARB_shading_language_420pack : require
#extension GL_ARB_texture_query_lod : require
#extension GL_ARB_texture_query_levels : require
#extension GL_ARB_texture_gather : require
#extension GL_ARB_gpu_shader5 : require
#extension GL_ARB_texture_cube_map_array : require
// cube face selection, every face
// units: cube:point_clamp
// class: exact
in vec2 v_uv;
out vec4 o;
layout(binding = 0) uniform samplerCube s0;
void main() {
   vec2 q = v_uv * vec2(3.0, 2.0) / (0.35 + v_uv.y);
   float ref = 0.2 + 0.6 * v_uv.x;
   vec2 c = v_uv * 2.0 - 1.0;
   int f = int(v_uv.x * 3.0) + 3 * int(v_uv.y * 2.0);
   vec3 d = f == 0 ? vec3(1.0, c.y, c.x * 0.9) : f == 1 ? vec3(-1.0, c.x * 0.8, c.y) : f == 2 ? vec3(c.x * 0.7, 1.0, c.y) : f == 3 ? vec3(c.y, -1.0, c.x * 0.6) : f == 4 ? vec3(c.x * 0.9, c.y * 0.8, 1.0) : vec3(c.y * 0.7, c.x, -1.0);
   o = textureLod(s0, d, 0.0);
}
