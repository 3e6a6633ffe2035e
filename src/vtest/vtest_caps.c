/* The capability structs GET_CAPS / GET_CAPS2 answer (virgl_hw.h's virgl_caps_v1; caps
 * v2 is sent as its v1 prefix, so every v2-only field reads as zero on the client).
 * Computed from what texvm implements: no draws yet, so no sampling, vertex buffers,
 * primitives or GLSL level; formats are claimed for rendering / depth-stencil only
 * where clear can encode them. */
#include "vtest_internal.h"

#include <string.h>

enum {
    CAPS_MAX_VERSION = 0,
    CAPS_SAMPLER = 1,          /* 16 dwords each: bit (f % 32) of dword f / 32 */
    CAPS_RENDER = 17,
    CAPS_DEPTHSTENCIL = 33,
    CAPS_VERTEXBUFFER = 49,
    CAPS_BSET = 65,
    CAPS_GLSL_LEVEL,
    CAPS_MAX_TEXTURE_ARRAY_LAYERS,
    CAPS_MAX_STREAMOUT_BUFFERS,
    CAPS_MAX_DUAL_SOURCE_RENDER_TARGETS,
    CAPS_MAX_RENDER_TARGETS,
    CAPS_MAX_SAMPLES,
    CAPS_PRIM_MASK,
    CAPS_MAX_TBO_SIZE,
    CAPS_MAX_UNIFORM_BLOCKS,
    CAPS_MAX_VIEWPORTS,
    CAPS_MAX_TEXTURE_GATHER_COMPONENTS,
    CAPS_V1_DWORDS
};

size_t vtest_caps(uint32_t *out, size_t max, unsigned version)
{
    if (max < CAPS_V1_DWORDS)
        return 0;
    memset(out, 0, CAPS_V1_DWORDS * 4);
    out[CAPS_MAX_VERSION] = version;
    for (uint32_t f = 1; f < 16 * 32; f++) {
        if (!tv_pipe_format_clearable(f))
            continue;
        const char *name = tv_pipe_format_name(f);
        int depth = name && (name[0] == 'Z' || !strncmp(name, "S8", 2) ||
                             !strncmp(name, "X24S8", 5) || !strncmp(name, "X32_S8", 6));
        out[(depth ? CAPS_DEPTHSTENCIL : CAPS_RENDER) + f / 32] |= 1u << (f % 32);
    }
    out[CAPS_MAX_TEXTURE_ARRAY_LAYERS] = 2048;
    out[CAPS_MAX_RENDER_TARGETS] = TV_PIPE_MAX_CBUFS;
    return CAPS_V1_DWORDS;
}
