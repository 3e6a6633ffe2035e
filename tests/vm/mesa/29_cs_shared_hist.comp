#version 330 core
#extension GL_ARB_compute_shader : require
#extension GL_ARB_shader_storage_buffer_object : require
// grid: 5 1 1
// buffer: 320
// target: UINT
layout(local_size_x = 96) in;
layout(std430, binding = 0) buffer Buf { uint hist[80]; };
shared uint bins[16];
void main() {
   uint li = gl_LocalInvocationIndex;
   if (li < 16u) bins[li] = 0u;
   barrier();
   uint h = (gl_GlobalInvocationID.x * 747796405u + 2891336453u);
   h = ((h >> ((h >> 28u) + 4u)) ^ h) * 277803737u;
   atomicAdd(bins[h & 15u], 1u + (h >> 30));
   barrier();
   if (li < 16u) hist[gl_WorkGroupID.x * 16u + li] = bins[li];
}
