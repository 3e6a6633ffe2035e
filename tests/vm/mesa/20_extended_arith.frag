#version 330 core
#extension GL_ARB_gpu_shader5 : require
// target: UINT
out uvec4 o;
void main() {
   uvec2 p = uvec2(gl_FragCoord.xy);
   uint a = p.x * 0x9E3779B9u + 12345u, b = p.y * 0x85EBCA6Bu + 999u;
   uint hi, lo, carry, borrow;
   umulExtended(a, b, hi, lo);
   int ihi, ilo;
   imulExtended(int(a), int(b), ihi, ilo);
   uint s = uaddCarry(a, b, carry);
   uint d = usubBorrow(a, b, borrow);
   o = uvec4(hi ^ lo, uint(ihi) + carry, s ^ uint(ilo), d + borrow * 1000u);
}
