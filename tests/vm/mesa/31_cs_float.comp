#version 330 core
#extension GL_ARB_compute_shader : require
#extension GL_ARB_shader_storage_buffer_object : require
// grid: 4 1 1
// buffer: 4096
// target: FLOAT 2e-6
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Buf { vec4 o[]; };
void main() {
   float t = float(gl_GlobalInvocationID.x) * 0.37 + 0.1;
   o[gl_GlobalInvocationID.x] = vec4(sqrt(t), inversesqrt(t) * fract(t * 3.3), exp2(t * 0.1) - log2(t),
                                     cos(t) * sin(t * 0.5));
}
