/* The capability structs GET_CAPS (virgl_caps_v1, 77 dwords) and GET_CAPS2 (virgl_caps_v2
 * as Mesa 22.3 reads it, 346 dwords) answer. Field positions as virgl_hw.h lays them out;
 * format masks come from the pipe layer (tv_pipe_format_caps); the rest is one table of
 * values with the reason for each.
 *
 * What Mesa's virgl driver does with them: the GL version and GLSL level it offers follow
 * these bits (a GLSL test needs at least GL 3.0); they describe GL 4.3 core — GLSL 4.30,
 * ARB_gpu_shader5's shader features, geometry shaders, multisampled textures and targets (4
 * samples), UBOs, texel buffers, instancing, primitive restart, and every GL 4.4 and 4.5
 * extension but ARB_buffer_storage, which Mesa 22.3 offers only when its winsys supports
 * coherent mappings: its vtest winsys never does (VIRGL_CAP_ARB_BUFFER_STORAGE would change
 * nothing), so GL 4.3 is as far as it goes. Every feature claimed is built (what a feature
 * does not cover yet is a named error, docs/vtest-protocol.md). */
#include "vtest_internal.h"

#include "texvm/tex.h"

#include <string.h>

enum {
    /* v1 */
    CAPS_MAX_VERSION = 0,
    CAPS_SAMPLER = 1,          /* format masks: 16 dwords, bit (f % 32) of dword f / 32 */
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
    CAPS_V1_DWORDS,
    /* v2 */
    CAPS_MIN_ALIASED_POINT_SIZE = CAPS_V1_DWORDS,
    CAPS_MAX_ALIASED_POINT_SIZE,
    CAPS_MIN_SMOOTH_POINT_SIZE,
    CAPS_MAX_SMOOTH_POINT_SIZE,
    CAPS_MIN_ALIASED_LINE_WIDTH,
    CAPS_MAX_ALIASED_LINE_WIDTH,
    CAPS_MIN_SMOOTH_LINE_WIDTH,
    CAPS_MAX_SMOOTH_LINE_WIDTH,
    CAPS_MAX_TEXTURE_LOD_BIAS,
    CAPS_MAX_GEOM_OUTPUT_VERTICES,
    CAPS_MAX_GEOM_TOTAL_OUTPUT_COMPONENTS,
    CAPS_MAX_VERTEX_OUTPUTS,
    CAPS_MAX_VERTEX_ATTRIBS,
    CAPS_MAX_SHADER_PATCH_VARYINGS,
    CAPS_MIN_TEXEL_OFFSET,
    CAPS_MAX_TEXEL_OFFSET,
    CAPS_MIN_TEXTURE_GATHER_OFFSET,
    CAPS_MAX_TEXTURE_GATHER_OFFSET,
    CAPS_TEXTURE_BUFFER_OFFSET_ALIGNMENT,
    CAPS_UNIFORM_BUFFER_OFFSET_ALIGNMENT,
    CAPS_SHADER_BUFFER_OFFSET_ALIGNMENT,
    CAPS_CAPABILITY_BITS,
    CAPS_SAMPLE_LOCATIONS,                   /* 8 dwords */
    CAPS_MAX_VERTEX_ATTRIB_STRIDE = CAPS_SAMPLE_LOCATIONS + 8,
    CAPS_MAX_SHADER_BUFFER_FRAG_COMPUTE,
    CAPS_MAX_SHADER_BUFFER_OTHER_STAGES,
    CAPS_MAX_SHADER_IMAGE_FRAG_COMPUTE,
    CAPS_MAX_SHADER_IMAGE_OTHER_STAGES,
    CAPS_MAX_IMAGE_SAMPLES,
    CAPS_MAX_COMPUTE_WORK_GROUP_INVOCATIONS,
    CAPS_MAX_COMPUTE_SHARED_MEMORY_SIZE,
    CAPS_MAX_COMPUTE_GRID_SIZE,              /* 3 dwords */
    CAPS_MAX_COMPUTE_BLOCK_SIZE = CAPS_MAX_COMPUTE_GRID_SIZE + 3,   /* 3 dwords */
    CAPS_MAX_TEXTURE_2D_SIZE = CAPS_MAX_COMPUTE_BLOCK_SIZE + 3,
    CAPS_MAX_TEXTURE_3D_SIZE,
    CAPS_MAX_TEXTURE_CUBE_SIZE,
    CAPS_MAX_COMBINED_SHADER_BUFFERS,
    CAPS_MAX_ATOMIC_COUNTERS,                /* 6 dwords */
    CAPS_MAX_ATOMIC_COUNTER_BUFFERS = CAPS_MAX_ATOMIC_COUNTERS + 6,   /* 6 dwords */
    CAPS_MAX_COMBINED_ATOMIC_COUNTERS = CAPS_MAX_ATOMIC_COUNTER_BUFFERS + 6,
    CAPS_MAX_COMBINED_ATOMIC_COUNTER_BUFFERS,
    CAPS_HOST_FEATURE_CHECK_VERSION,
    CAPS_READBACK_FORMATS,                   /* format mask */
    CAPS_SCANOUT_FORMATS = CAPS_READBACK_FORMATS + 16,
    CAPS_CAPABILITY_BITS_V2 = CAPS_SCANOUT_FORMATS + 16,
    CAPS_MAX_VIDEO_MEMORY,
    CAPS_RENDERER,                           /* 64 bytes */
    CAPS_MAX_ANISOTROPY = CAPS_RENDERER + 16,
    CAPS_MAX_TEXTURE_IMAGE_UNITS,
    CAPS_MULTISAMPLE_FORMATS,                /* format mask */
    CAPS_MAX_CONST_BUFFER_SIZE = CAPS_MULTISAMPLE_FORMATS + 16,       /* 6 dwords */
    CAPS_NUM_VIDEO_CAPS = CAPS_MAX_CONST_BUFFER_SIZE + 6,
    CAPS_VIDEO_CAPS,                         /* 32 x 4 dwords */
    CAPS_MAX_UNIFORM_BLOCK_SIZE = CAPS_VIDEO_CAPS + 128,
    CAPS_MAX_TCS_OUTPUTS,
    CAPS_MAX_TES_OUTPUTS,
    CAPS_V2_DWORDS
};

_Static_assert(CAPS_V1_DWORDS * 4 == 308, "virgl_caps_v1 is 308 bytes");
_Static_assert(CAPS_V2_DWORDS * 4 == 1384, "virgl_caps_v2 is 1384 bytes");

/* virgl_caps_bool_set1 bits texvm claims. */
enum {
    BSET_INDEP_BLEND_ENABLE = 1u << 0, BSET_INDEP_BLEND_FUNC = 1u << 1,
    BSET_CUBE_MAP_ARRAY = 1u << 2, BSET_SHADER_STENCIL_EXPORT = 1u << 3,
    BSET_CONDITIONAL_RENDER = 1u << 4, BSET_START_INSTANCE = 1u << 5, BSET_PRIMITIVE_RESTART = 1u << 6,
    BSET_BLEND_EQ_SEP = 1u << 7, BSET_INSTANCEID = 1u << 8,
    BSET_VERTEX_ELEMENT_INSTANCE_DIVISOR = 1u << 9, BSET_SEAMLESS_CUBE_MAP = 1u << 10,
    BSET_OCCLUSION_QUERY = 1u << 11, BSET_STREAMOUT_PAUSE_RESUME = 1u << 13,
    BSET_TEXTURE_MULTISAMPLE = 1u << 14,
    BSET_FRAGMENT_COORD_CONVENTIONS = 1u << 15,
    BSET_DEPTH_CLIP_DISABLE = 1u << 16, BSET_UBO = 1u << 18, BSET_MIRROR_CLAMP = 1u << 21,
    BSET_TEXTURE_QUERY_LOD = 1u << 22, BSET_HAS_FP64 = 1u << 23,
    BSET_HAS_TESSELLATION_SHADERS = 1u << 24,
    BSET_HAS_INDIRECT_DRAW = 1u << 25, BSET_HAS_SAMPLE_SHADING = 1u << 26,
    BSET_HAS_CULL = 1u << 27, BSET_CONDITIONAL_RENDER_INVERTED = 1u << 28,
    BSET_DERIVATIVE_CONTROL = 1u << 29, BSET_POLYGON_OFFSET_CLAMP = 1u << 30
};

/* VIRGL_CAP_* bits texvm claims. */
enum {
    CAP_TGSI_INVARIANT = 1u << 0, CAP_TEXTURE_VIEW = 1u << 1, CAP_SET_MIN_SAMPLES = 1u << 2,
    CAP_COPY_IMAGE = 1u << 3, CAP_TGSI_PRECISE = 1u << 4, CAP_TXQS = 1u << 5,
    CAP_MEMORY_BARRIER = 1u << 6, CAP_FB_NO_ATTACH = 1u << 8,
    CAP_COMPUTE_SHADER = 1u << 7, CAP_ROBUST_BUFFER_ACCESS = 1u << 9,
    CAP_TEXTURE_BARRIER = 1u << 12, CAP_TGSI_COMPONENTS = 1u << 13, CAP_QBO = 1u << 16,
    CAP_FBO_MIXED_COLOR_FORMATS = 1u << 18,
    CAP_MULTI_DRAW_INDIRECT = 1u << 21, CAP_INDIRECT_PARAMS = 1u << 22,
    CAP_CLIP_HALFZ = 1u << 27, CAP_CLEAR_TEXTURE = 1u << 30
};

typedef struct caps_value {
    uint16_t at;
    uint32_t value;
    const char *why;
} caps_value;

/* float bits of the constants below */
#define F1 0x3f800000u   /* 1.0f */
#define F16 0x41800000u  /* 16.0f */
#define F255 0x437f0000u /* 255.0f */

static const caps_value values[] = {
    {CAPS_BSET,
     BSET_INDEP_BLEND_ENABLE | BSET_INDEP_BLEND_FUNC | BSET_CUBE_MAP_ARRAY |
         BSET_SHADER_STENCIL_EXPORT | BSET_CONDITIONAL_RENDER | BSET_START_INSTANCE | BSET_PRIMITIVE_RESTART |
         BSET_BLEND_EQ_SEP | BSET_INSTANCEID | BSET_VERTEX_ELEMENT_INSTANCE_DIVISOR |
         BSET_SEAMLESS_CUBE_MAP | BSET_OCCLUSION_QUERY | BSET_STREAMOUT_PAUSE_RESUME |
         BSET_TEXTURE_MULTISAMPLE |
         BSET_FRAGMENT_COORD_CONVENTIONS |
         BSET_DEPTH_CLIP_DISABLE | BSET_UBO | BSET_MIRROR_CLAMP | BSET_TEXTURE_QUERY_LOD |
         BSET_HAS_FP64 | BSET_HAS_TESSELLATION_SHADERS | BSET_HAS_INDIRECT_DRAW |
         BSET_HAS_SAMPLE_SHADING |
         BSET_HAS_CULL | BSET_POLYGON_OFFSET_CLAMP | BSET_DERIVATIVE_CONTROL |
         BSET_CONDITIONAL_RENDER_INVERTED,
     "the pipeline's and the texture unit's features, multisampled resources, doubles (the "
     "engine's 64-bit operations), tessellation (the engine's TESS_CTRL/TESS_EVAL stages and "
     "the pipe layer's tessellator), occlusion queries and conditional rendering, inverted "
     "too (pipe_query.c: set_render_condition's condition dword; "
     "ARB_conditional_render_inverted), derivative control (DDX_FINE/DDY_FINE; DDX/DDY coarse unless the "
     "server's fine_derivatives rule makes them fine, which coarse derivatives allow)"},
    {CAPS_GLSL_LEVEL, 430, "GLSL 4.30: the engine runs every TGSI instruction ARB_gpu_shader5 "
                           "needs, geometry shaders (instanced, 4 vertex streams) run in "
                           "draws, tessellation, transform feedback 2 (pause/resume, DRAW_AUTO), "
                           "64-bit vertex attributes, 16 viewports, its float operations "
                           "meet ARB_shader_precision (piglit's 318 tests of it pass), images "
                           "and atomic counters, compute shaders and shader buffers; with the "
                           "BPTC formats in the sampler mask (GL 4.2) and texture views and "
                           "copy_image (the capability bits below) Mesa offers GL 4.3 core "
                           "(its version rule wants GLSL 430 beside GL 4.3's extensions, which "
                           "it offered already)"},
    {CAPS_MAX_TEXTURE_ARRAY_LAYERS, 2048, "the texture unit's limit"},
    {CAPS_MAX_STREAMOUT_BUFFERS, 4, "stream output (pipe_so.c): 4 buffers, stream 0"},
    {CAPS_MAX_DUAL_SOURCE_RENDER_TARGETS, 1, "SRC1 factors on target 0"},
    {CAPS_MAX_RENDER_TARGETS, TV_PIPE_MAX_CBUFS, "the framebuffer's colour buffers"},
    {CAPS_MAX_SAMPLES, 4, "multisampled targets and textures at the standard positions "
                          "(the rasteriser and texture unit do 2 to 16; GL 3.0 asks 4)"},
    {CAPS_PRIM_MASK, 0x7c7fu,
     "points to triangle fans, the adjacency topologies and patches reach the server (quads, "
     "quad strips and polygons Mesa splits itself): without them Mesa 22.3's virgl driver "
     "crashes converting points (and recurses forever converting patches)"},
    {CAPS_MAX_TBO_SIZE, 1u << 27, "texel buffers of the texture unit"},
    {CAPS_MAX_UNIFORM_BLOCKS, TV_PIPE_MAX_SLOTS / 2, "constant buffer slots"},
    {CAPS_MAX_VIEWPORTS, TV_PIPE_MAX_VIEWPORTS, "viewport arrays: the last vertex stage's "
                                              "VIEWPORT_INDEX picks viewport and scissor"},
    {CAPS_MAX_TEXTURE_GATHER_COMPONENTS, 4, "TG4 of the texture unit"},
    {CAPS_MIN_ALIASED_POINT_SIZE, F1, "GL minimum"},
    {CAPS_MAX_ALIASED_POINT_SIZE, F255, "as a host GPU says"},
    {CAPS_MIN_SMOOTH_POINT_SIZE, F1, "GL minimum"},
    {CAPS_MAX_SMOOTH_POINT_SIZE, F255, "as a host GPU says"},
    {CAPS_MIN_ALIASED_LINE_WIDTH, F1, "GL minimum"},
    {CAPS_MAX_ALIASED_LINE_WIDTH, F255, "as a host GPU says"},
    {CAPS_MIN_SMOOTH_LINE_WIDTH, F1, "GL minimum"},
    {CAPS_MAX_SMOOTH_LINE_WIDTH, F255, "as a host GPU says"},
    {CAPS_MAX_TEXTURE_LOD_BIAS, F16, "the sampler's LOD bias range"},
    {CAPS_MAX_GEOM_OUTPUT_VERTICES, 1024, "GL minimum"},
    {CAPS_MAX_GEOM_TOTAL_OUTPUT_COMPONENTS, 1024, "GL minimum"},
    {CAPS_MAX_VERTEX_OUTPUTS, 32, "32 varyings (the engine has 64 output registers)"},
    {CAPS_MAX_VERTEX_ATTRIBS, 16, "GL 3.0's 16 vertex attributes"},
    {CAPS_MAX_SHADER_PATCH_VARYINGS, 32, "engine registers"},
    {CAPS_MIN_TEXEL_OFFSET, (uint32_t)-8, "texel offsets of the texture unit"},
    {CAPS_MAX_TEXEL_OFFSET, 7, "texel offsets of the texture unit"},
    {CAPS_MIN_TEXTURE_GATHER_OFFSET, (uint32_t)-32, "TG4 offsets"},
    {CAPS_MAX_TEXTURE_GATHER_OFFSET, 31, "TG4 offsets"},
    {CAPS_TEXTURE_BUFFER_OFFSET_ALIGNMENT, 16, "any 16-byte offset"},
    {CAPS_UNIFORM_BUFFER_OFFSET_ALIGNMENT, 16, "any 16-byte offset"},
    {CAPS_SHADER_BUFFER_OFFSET_ALIGNMENT, 16, "any 16-byte offset"},
    {CAPS_CAPABILITY_BITS,
     CAP_TGSI_INVARIANT | CAP_SET_MIN_SAMPLES | CAP_TGSI_PRECISE | CAP_MEMORY_BARRIER |
         CAP_COMPUTE_SHADER |
         CAP_ROBUST_BUFFER_ACCESS | CAP_TEXTURE_BARRIER | CAP_FBO_MIXED_COLOR_FORMATS |
         CAP_MULTI_DRAW_INDIRECT | CAP_INDIRECT_PARAMS | CAP_CLIP_HALFZ | CAP_FB_NO_ATTACH |
         CAP_QBO | CAP_TGSI_COMPONENTS | CAP_TEXTURE_VIEW | CAP_COPY_IMAGE | CAP_TXQS |
         CAP_CLEAR_TEXTURE,
     "TGSI texvm parses (declarations of some components of a register: ARB_enhanced_layouts' "
     "component qualifiers), sample shading (set_min_samples), compute, robust fetch, mixed "
     "targets, framebuffers without attachments, query results into buffers, indirect multi-draws with "
     "count buffers (pipe_indirect.c), half-z clipping; texture views (Mesa then sends each "
     "sampler view's target in the format dword's top byte, PIPE_CAP_SAMPLER_VIEW_TARGET: "
     "pipe_sampler.c reads a resource as any target ARB_texture_view allows, in any format of "
     "its block size, levels and layers checked inside it) and copies between block-compressed "
     "and plain formats of one block size (PIPE_CAP_COPY_BETWEEN_COMPRESSED_AND_PLAIN_FORMATS, "
     "resource_copy_region: ARB_copy_image); TXQS, the texture unit's sample count of a view "
     "(ARB_shader_texture_image_samples' textureSamples; imageSamples is RESQ's w); "
     "clear_texture, a box of a level filled with the raw texel Mesa packed "
     "(tv_pipe_clear_texture: every sample, any uncompressed format; ARB_clear_texture)"},
    {CAPS_MAX_VERTEX_ATTRIB_STRIDE, 2048, "GL minimum"},
    {CAPS_MAX_SHADER_BUFFER_FRAG_COMPUTE, 16, "SSBO slots"},
    {CAPS_MAX_SHADER_BUFFER_OTHER_STAGES, 16, "SSBO slots"},
    {CAPS_MAX_SHADER_IMAGE_FRAG_COMPUTE, 16, "image slots"},
    {CAPS_MAX_SHADER_IMAGE_OTHER_STAGES, 16, "image slots"},
    {CAPS_MAX_COMPUTE_WORK_GROUP_INVOCATIONS, 1024, "GL minimum"},
    {CAPS_MAX_COMPUTE_SHARED_MEMORY_SIZE, 32768, "GL minimum"},
    {CAPS_MAX_COMPUTE_GRID_SIZE + 0, 65535, "GL minimum"},
    {CAPS_MAX_COMPUTE_GRID_SIZE + 1, 65535, "GL minimum"},
    {CAPS_MAX_COMPUTE_GRID_SIZE + 2, 65535, "GL minimum"},
    {CAPS_MAX_COMPUTE_BLOCK_SIZE + 0, 1024, "GL minimum"},
    {CAPS_MAX_COMPUTE_BLOCK_SIZE + 1, 1024, "GL minimum"},
    {CAPS_MAX_COMPUTE_BLOCK_SIZE + 2, 64, "GL minimum"},
    {CAPS_MAX_TEXTURE_2D_SIZE, 16384, "the texture unit's limit"},
    {CAPS_MAX_TEXTURE_3D_SIZE, 2048, "the texture unit's limit"},
    {CAPS_MAX_TEXTURE_CUBE_SIZE, 16384, "the texture unit's limit"},
    {CAPS_MAX_COMBINED_SHADER_BUFFERS, 32, "SSBO slots"},
#define ATOMICS(stage)                                                                    \
    {CAPS_MAX_ATOMIC_COUNTERS + (stage), 4096, "HWATOMIC counters (4-byte, any buffer size)"}, \
    {CAPS_MAX_ATOMIC_COUNTER_BUFFERS + (stage), 8, "HWATOMIC buffers (set_atomic_buffers)"}
    ATOMICS(0), ATOMICS(1), ATOMICS(2), ATOMICS(3), ATOMICS(4), ATOMICS(5),
#undef ATOMICS
    {CAPS_MAX_COMBINED_ATOMIC_COUNTERS, 4096, "HWATOMIC counters"},
    {CAPS_MAX_COMBINED_ATOMIC_COUNTER_BUFFERS, 8, "HWATOMIC buffers: shared by every stage"},
    {CAPS_HOST_FEATURE_CHECK_VERSION, 0, "no host feature checks"},
    {CAPS_MAX_ANISOTROPY, F16, "the sampler's anisotropy"},
    {CAPS_MAX_TEXTURE_IMAGE_UNITS, 16, "sampler view slots per stage"},
    {CAPS_MAX_CONST_BUFFER_SIZE + 0, 65536, "GL minimum"},
    {CAPS_MAX_CONST_BUFFER_SIZE + 1, 65536, "GL minimum"},
    {CAPS_MAX_CONST_BUFFER_SIZE + 2, 65536, "GL minimum"},
    {CAPS_MAX_CONST_BUFFER_SIZE + 3, 65536, "GL minimum"},
    {CAPS_MAX_CONST_BUFFER_SIZE + 4, 65536, "GL minimum"},
    {CAPS_MAX_CONST_BUFFER_SIZE + 5, 65536, "GL minimum"},
    {CAPS_MAX_UNIFORM_BLOCK_SIZE, 65536, "GL minimum"},
    {CAPS_MAX_TCS_OUTPUTS, 32, "varyings of a control shader (engine: 64 registers)"},
    {CAPS_MAX_TES_OUTPUTS, 32, "varyings of an evaluation shader"},
};

static void set_format(uint32_t *out, unsigned mask_at, uint32_t f)
{
    out[mask_at + f / 32] |= 1u << (f % 32);
}

size_t vtest_caps(uint32_t *out, size_t max, unsigned version)
{
    size_t n = version >= 2 ? CAPS_V2_DWORDS : CAPS_V1_DWORDS;
    if (max < n)
        return 0;
    memset(out, 0, n * 4);
    out[CAPS_MAX_VERSION] = version;
    for (uint32_t f = 1; f < 16 * 32; f++) {
        unsigned caps = tv_pipe_format_caps(f);
        if (caps & TV_PIPE_FORMAT_SAMPLER)
            set_format(out, CAPS_SAMPLER, f);
        if (caps & TV_PIPE_FORMAT_RENDER)
            set_format(out, CAPS_RENDER, f);
        if (caps & TV_PIPE_FORMAT_DEPTH_STENCIL)
            set_format(out, CAPS_DEPTHSTENCIL, f);
        if (caps & TV_PIPE_FORMAT_VERTEX)
            set_format(out, CAPS_VERTEXBUFFER, f);
        if (version >= 2 && (caps & TV_PIPE_FORMAT_SAMPLER))
            set_format(out, CAPS_READBACK_FORMATS, f);   /* transfers copy any of them */
    }
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++)
        if (values[i].at < n)
            out[values[i].at] = values[i].value;
    if (version >= 2) {
        /* sample positions, a byte each (x, y in 1/16 pixel as high, low nibble): 2 samples
         * in dword 0, 4 in dword 1, 8 in dwords 2-3, 16 in dwords 4-7 (virgl_hw.h) */
        static const struct { unsigned n, at; } groups[] = {{2, 0}, {4, 1}, {8, 2}, {16, 4}};
        for (size_t g = 0; g < 4; g++)
            for (unsigned i = 0; i < groups[g].n; i++) {
                float x = 0.5f, y = 0.5f;
                tv_tex_sample_position(groups[g].n, i, &x, &y);
                uint32_t b = ((uint32_t)(x * 16.0f) & 15u) << 4 | ((uint32_t)(y * 16.0f) & 15u);
                out[CAPS_SAMPLE_LOCATIONS + groups[g].at + i / 4] |= b << (8 * (i % 4));
            }
        static const char renderer[] = "texvm (software GPU)";
        memcpy(out + CAPS_RENDERER, renderer, sizeof renderer);
    }
    return n;
}
