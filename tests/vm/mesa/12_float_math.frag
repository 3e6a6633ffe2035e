#version 330 core
// target: FLOAT 2e-6
out vec4 o;
void main() {
   vec2 p = gl_FragCoord.xy;
   float a = p.x / 33.0 + 0.1, b = p.y / 17.0 + 0.2;
   o = vec4(sqrt(a) + inversesqrt(b), exp2(a * 3.0) - log2(b),
            pow(a, b * 2.0), sin(a * 6.0) * cos(b * 5.0));
}
