#version 330 core
// target: UINT
out uvec4 o;
void main() {
   ivec4 v = ivec4(gl_FragCoord.xyxy) * ivec4(1, 3, -2, 5) + ivec4(7, -1, 4, 2);
   ivec4 w = v.wzyx * v.yyxz - v.zxwy;
   o = uvec4(w) ^ uvec4(v.xxyy << ivec4(1, 2, 3, 4));
}
