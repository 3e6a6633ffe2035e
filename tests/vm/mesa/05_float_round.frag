#version 330 core
// target: FLOAT 0
out vec4 o;
void main() {
   vec2 p = gl_FragCoord.xy;
   float v = (p.x - 16.0) * 0.37 + (p.y - 8.0) * 0.11;
   o = vec4(floor(v) + ceil(-v) * 10.0, trunc(v * 3.0) + fract(v), roundEven(v * 2.0),
            mod(v, 1.75) + sign(v));
}
