#version 330 core
#extension GL_ARB_shading_language_420pack : require
#extension GL_ARB_texture_query_lod : require
#extension GL_ARB_texture_query_levels : require
#extension GL_ARB_texture_gather : require
#extension GL_ARB_gpu_shader5 : require
#extension GL_ARB_texture_cube_map_array : require
// compare inside a loop inside a branch
// units: d2d:cmp_point,c2d:point_clamp
// class: exact
in vec2 v_uv;
out vec4 o;
layout(binding = 0) uniform sampler2DShadow s0;
layout(binding = 1) uniform sampler2D s1;
void main() {
   vec2 q = v_uv * vec2(3.0, 2.0) / (0.35 + v_uv.y);
   float ref = 0.2 + 0.6 * v_uv.x;
   o = texture(s1, v_uv);
   if (o.x > 0.5) {
      for (int i = 0; i < 2; i++)
         o.y += texture(s0, vec3(v_uv, ref + 0.1 * float(i)));
   }
}
