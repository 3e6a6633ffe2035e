#version 330 core
#extension GL_ARB_shading_language_packing : require
// target: UINT
out uvec4 o;
void main() {
   vec2 p = gl_FragCoord.xy;
   vec4 c = vec4(p.x / 33.0, p.y / 17.0, (p.x - p.y) / 20.0, -0.3);
   uint h = packHalf2x16(c.xy * 300.0 - 1.5);
   vec2 back = unpackHalf2x16(h);
   o = uvec4(h, packUnorm4x8(c), packSnorm4x8(c) ^ packUnorm2x16(c.xy),
             floatBitsToUint(back.x + back.y) ^ packSnorm2x16(c.zw));
}
