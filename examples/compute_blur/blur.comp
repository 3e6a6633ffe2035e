#version 330 core
#extension GL_ARB_compute_shader : require
#extension GL_ARB_shader_image_load_store : require
#extension GL_ARB_shader_image_size : require
#extension GL_ARB_shading_language_420pack : require
// Image processing in compute: each 16x16 block loads a 20x20 tile (2-texel apron, edges
// clamped) into shared memory, waits at a barrier, then writes a 5x5 box blur darkened by
// a Sobel edge measure of the tile.
layout(local_size_x = 16, local_size_y = 16) in;
layout(rgba8, binding = 0) uniform readonly image2D src;
layout(rgba8, binding = 1) uniform writeonly image2D dst;
shared vec4 tile[400];
void main() {
    ivec2 size = imageSize(src);
    ivec2 base = ivec2(gl_WorkGroupID.xy) * 16 - 2;
    uint li = gl_LocalInvocationIndex;
    for (uint i = li; i < 400u; i += 256u) {
        ivec2 p = clamp(base + ivec2(int(i % 20u), int(i / 20u)), ivec2(0), size - 1);
        tile[i] = imageLoad(src, p);
    }
    barrier();
    ivec2 l = ivec2(gl_LocalInvocationID.xy) + 2;
    vec4 sum = vec4(0.0);
    for (int y = -2; y <= 2; y++)
        for (int x = -2; x <= 2; x++)
            sum += tile[(l.y + y) * 20 + l.x + x];
    float gx = 0.0, gy = 0.0;
    for (int k = -1; k <= 1; k++) {
        float w = k == 0 ? 2.0 : 1.0;
        gx += w * (dot(tile[(l.y + k) * 20 + l.x + 1].rgb, vec3(0.333)) -
                   dot(tile[(l.y + k) * 20 + l.x - 1].rgb, vec3(0.333)));
        gy += w * (dot(tile[(l.y + 1) * 20 + l.x + k].rgb, vec3(0.333)) -
                   dot(tile[(l.y - 1) * 20 + l.x + k].rgb, vec3(0.333)));
    }
    float edge = clamp(sqrt(gx * gx + gy * gy), 0.0, 1.0);
    vec4 c = sum / 25.0;
    imageStore(dst, ivec2(gl_GlobalInvocationID.xy), vec4(c.rgb * (1.0 - 0.8 * edge), 1.0));
}
