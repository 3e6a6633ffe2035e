#version 330 core
#extension GL_ARB_compute_shader : require
#extension GL_ARB_shader_storage_buffer_object : require
// grid: 2 1 1
// buffer: 1024
// target: UINT
layout(local_size_x = 128) in;
layout(std430, binding = 0) buffer Buf { uint o[]; };
void main() {
   uint t = gl_GlobalInvocationID.x;
   uint n = t * 7u + 3u, steps = 0u;
   while (n > 1u) {
      if ((n & 1u) == 0u) { n >>= 1; continue; }
      if (steps > 60u) break;
      n = n * 3u + 1u;
      steps++;
   }
   uint acc = 0u;
   for (uint k = 0u; k < (t & 15u); k++) {
      switch (k % 3u) {
      case 0u: acc += k; break;
      case 1u: acc ^= k << 4; break;
      default: acc = acc * 3u + 1u; break;
      }
   }
   o[t] = steps * 65536u + (acc & 0xffffu);
}
