#version 330 core
#extension GL_ARB_compute_shader : require
#extension GL_ARB_shader_storage_buffer_object : require
// grid: 2 3 2
// buffer: 6144
// target: UINT
layout(local_size_x = 4, local_size_y = 2, local_size_z = 2) in;
layout(std430, binding = 0) buffer Buf { uvec4 o[]; };
void main() {
   uvec3 g = gl_GlobalInvocationID;
   uint i = (g.z * 6u + g.y) * 8u + g.x;
   o[i * 2u] = uvec4(gl_LocalInvocationID, gl_LocalInvocationIndex);
   o[i * 2u + 1u] = uvec4(gl_WorkGroupID, gl_NumWorkGroups.x * 100u + gl_NumWorkGroups.y * 10u +
                          gl_NumWorkGroups.z);
}
