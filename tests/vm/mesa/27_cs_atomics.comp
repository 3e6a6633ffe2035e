#version 330 core
#extension GL_ARB_compute_shader : require
#extension GL_ARB_shader_storage_buffer_object : require
// grid: 3 1 1
// buffer: 64
// target: UINT
layout(local_size_x = 50) in;
layout(std430, binding = 0) buffer Buf { uint add; uint mn; uint mx; uint a; uint o; uint x; int imn; int imx; };
void main() {
   uint t = gl_GlobalInvocationID.x;
   uint h = (t + 7u) * 2246822519u;
   atomicAdd(add, h >> 8);
   atomicMin(mn, h | 1u);
   atomicMax(mx, h >> 1);
   atomicAnd(a, ~(1u << (t & 31u)) | (t & 1u));
   atomicOr(o, 1u << (h & 31u));
   atomicXor(x, h);
   atomicMin(imn, int(h));
   atomicMax(imx, int(h));
}
