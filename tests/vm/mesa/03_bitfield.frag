#version 330 core
#extension GL_ARB_gpu_shader5 : require
// target: UINT
out uvec4 o;
void main() {
   uvec2 p = uvec2(gl_FragCoord.xy);
   uint h = (p.x + 1u) * 0x01000193u ^ (p.y * 0x85ebca6bu);
   int off = int(p.x % 24u), bits = int(p.y % 9u);
   o = uvec4(bitfieldExtract(h, off, bits) ^ uint(bitfieldExtract(int(h), off, bits)),
             bitfieldInsert(h, ~h, off, bits),
             bitfieldReverse(h) + uint(bitCount(h)),
             uint(findLSB(h >> p.x)) + uint(findMSB(int(h) >> int(p.y))) * 256u);
}
