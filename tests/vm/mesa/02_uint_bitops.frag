#version 330 core
// target: UINT
out uvec4 o;
void main() {
   uvec2 p = uvec2(gl_FragCoord.xy);
   uint h = p.x * 2654435761u ^ (p.y * 40503u + 0x9e3779b9u);
   uint s = p.y & 31u;
   o = uvec4(h << s, h >> s, ~h & (h | p.x), (h ^ (h >> 7)) | (p.y << 28));
}
