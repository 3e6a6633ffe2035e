#version 330 core
#extension GL_ARB_compute_shader : require
#extension GL_ARB_shader_storage_buffer_object : require
// bench workload "compute": integer hashing, a shared-memory tree reduction per block of
// 64 threads, a shared atomicAdd and a global atomicMax (idempotent: Mesa runs the
// dispatch several times into the same buffer)
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Buf { uint total; uint sums[]; };
shared uint sh[64];
shared uint odd;
uint hash(uint x) {
   x ^= x >> 16; x *= 0x7feb352du;
   x ^= x >> 15; x *= 0x846ca68bu;
   x ^= x >> 16;
   return x;
}
void main() {
   uint li = gl_LocalInvocationIndex;
   uint block = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
   uint gid = block * 64u + li;
   uint h = hash(hash(gid) ^ 0x9e3779b9u);
   if (li == 0u)
      odd = 0u;
   sh[li] = h & 0xffffu;
   barrier();
   atomicAdd(odd, h & 1u);
   for (uint s = 32u; s > 0u; s >>= 1u) {
      if (li < s)
         sh[li] += sh[li + s];
      barrier();
   }
   if (li == 0u) {
      sums[block] = sh[0] ^ (odd << 24);
      atomicMax(total, odd);
   }
}
