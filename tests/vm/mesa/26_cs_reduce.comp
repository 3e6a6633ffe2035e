#version 330 core
#extension GL_ARB_compute_shader : require
#extension GL_ARB_shader_storage_buffer_object : require
// grid: 4 2 1
// buffer: 2048
// target: UINT
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Buf { uint sums[8]; uint vals[]; };
shared uint sh[64];
void main() {
   uint li = gl_LocalInvocationIndex;
   uint gid = gl_WorkGroupID.y * 4u + gl_WorkGroupID.x;
   uint v = (gid * 64u + li) * 2654435761u;
   v ^= v >> 15;
   sh[li] = v & 0xffffu;
   barrier();
   for (uint s = 32u; s > 0u; s >>= 1) {
      if (li < s) sh[li] += sh[li + s];
      barrier();
   }
   if (li == 0u) sums[gid] = sh[0];
   vals[gid * 64u + li] = v;
}
