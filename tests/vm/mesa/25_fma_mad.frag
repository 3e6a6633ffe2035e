#version 330 core
#extension GL_ARB_gpu_shader5 : require
// target: FLOAT 1e-6
// softpipe evaluates LRP (mix) as a*(b-c)+c; texvm uses the spec formula a*b+(1-a)*c
out vec4 o;
void main() {
   vec2 p = gl_FragCoord.xy * 0.1;
   o = vec4(p.x * p.y + 0.3, fma(p.x, p.y, -0.7), mix(p.x, p.y, 0.3), clamp(p.x - p.y, -0.5, 0.5));
}
