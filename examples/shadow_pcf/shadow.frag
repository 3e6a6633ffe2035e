#version 330 core
// Shadow-map lookups with percentage-closer filtering: a receiver at depth `params.x` in
// light space compares against a depth map of occluders; each sample is a 2x2 hardware
// PCF (compare per texel, then bilinear), nine offset samples are averaged.
in vec2 v_uv;
out vec4 color;
uniform sampler2DShadow shadow_map;
uniform sampler2D albedo;
uniform vec4 params; // receiver depth, rotation (radians), scale, ambient
void main() {
    float c = cos(params.y), s = sin(params.y);
    vec2 q = (v_uv - 0.5) * params.z;
    vec2 lc = vec2(c * q.x - s * q.y, s * q.x + c * q.y) + 0.5;
    vec3 r = vec3(lc, params.x);
    float lit = textureOffset(shadow_map, r, ivec2(-1, -1)) +
                textureOffset(shadow_map, r, ivec2(0, -1)) +
                textureOffset(shadow_map, r, ivec2(1, -1)) +
                textureOffset(shadow_map, r, ivec2(-1, 0)) +
                texture(shadow_map, r) +
                textureOffset(shadow_map, r, ivec2(1, 0)) +
                textureOffset(shadow_map, r, ivec2(-1, 1)) +
                textureOffset(shadow_map, r, ivec2(0, 1)) +
                textureOffset(shadow_map, r, ivec2(1, 1));
    lit /= 9.0;
    vec3 base = texture(albedo, v_uv * 4.0).rgb;
    color = vec4(base * (params.w + (1.0 - params.w) * lit), 1.0);
}
