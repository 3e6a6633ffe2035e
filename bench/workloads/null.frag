#version 330 core
// bench workload "null": write a constant colour
out vec4 o;
void main() {
   o = vec4(1.0, 0.5, 0.25, 1.0);
}
