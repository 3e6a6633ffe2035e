#version 330 core
// A texture-array atlas: the view is a 4x2 grid of tiles, tile i shows layer i of a
// 2D-array texture (repeated twice), tinted by layer i of a second array.
in vec2 v_uv;
out vec4 color;
uniform sampler2DArray atlas;
uniform sampler2DArray tint;
void main() {
    vec2 g = v_uv * vec2(4.0, 2.0);
    vec2 tile = floor(g);
    vec2 local = g - tile;
    float layer = tile.y * 4.0 + tile.x;
    vec4 a = texture(atlas, vec3(local * 2.0, layer));
    vec4 t = texture(tint, vec3(local, layer));
    color = vec4(a.rgb * (0.4 + 0.6 * t.rgb), 1.0);
}
