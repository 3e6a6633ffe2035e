#version 330 core
// target: FLOAT 0
out vec4 o;
void main() {
   vec2 p = gl_FragCoord.xy;
   float f = p.x * p.x * 0.5 + p.y * 3.0 + p.x * p.y;
   o = vec4(dFdx(p.x * 2.0), dFdy(p.y * 3.0), dFdx(p.y) + dFdy(p.x), fwidth(p.x + p.y * 2.0));
   o.x += 0.0 * f;
}
