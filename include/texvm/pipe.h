/* texvm pipe: a small Gallium-shaped context on top of the texture unit's formats.
 *
 * It holds what a virgl/vtest client creates (resources with their memory, surfaces,
 * shader objects with their TGSI text, other state objects as recorded dwords, the
 * framebuffer state) and runs the operations that need no graphics pipeline: clear,
 * resource_copy_region and box transfers.
 *
 * Every input is untrusted: handles, levels, layers, boxes and strides are checked
 * before use. A failing call returns -1 and leaves the reason in tv_pipe_error(); the
 * context stays usable (the caller decides whether to stop). The library never prints.
 *
 * Formats and targets use Gallium's numbering (PIPE_FORMAT_* as virgl numbers them,
 * PIPE_BUFFER = 0 ... PIPE_TEXTURE_CUBE_ARRAY = 8). Memory layout of a resource: the
 * one Mesa's virgl driver gives its guest storage (levels one after another; a level is
 * depth-or-layers slices of height-in-blocks rows of width-in-blocks * block bytes). */
#ifndef TEXVM_PIPE_H
#define TEXVM_PIPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tv_pipe_ctx tv_pipe_ctx;

typedef struct tv_pipe_box {
    uint32_t x, y, z, w, h, d;
} tv_pipe_box;

/* Multisampled resources (nr_samples 2, 4, 8, 16; 2D and 2D-array targets, one level) store
 * the samples of a pixel adjacent: a row holds width x nr_samples texels, and transfers and
 * copies move every sample of each pixel. */
#define TV_PIPE_MAX_SAMPLES 16
typedef struct tv_pipe_resource_desc {
    uint32_t target, format, bind;
    uint32_t width, height, depth, array_size, last_level, nr_samples;
} tv_pipe_resource_desc;

/* Object kinds, numbered as virgl's VIRGL_OBJECT_*. */
enum {
    TV_PIPE_OBJ_BLEND = 1, TV_PIPE_OBJ_RASTERIZER, TV_PIPE_OBJ_DSA, TV_PIPE_OBJ_SHADER,
    TV_PIPE_OBJ_VERTEX_ELEMENTS, TV_PIPE_OBJ_SAMPLER_VIEW, TV_PIPE_OBJ_SAMPLER_STATE,
    TV_PIPE_OBJ_SURFACE, TV_PIPE_OBJ_QUERY, TV_PIPE_OBJ_STREAMOUT_TARGET,
    TV_PIPE_OBJ_MSAA_SURFACE, TV_PIPE_OBJ_COUNT
};

#define TV_PIPE_MAX_CBUFS 8
#define TV_PIPE_CLEAR_DEPTH 0x1u
#define TV_PIPE_CLEAR_STENCIL 0x2u
#define TV_PIPE_CLEAR_COLOR0 0x4u /* colour buffer i: TV_PIPE_CLEAR_COLOR0 << i */

/* The memory quota of a context created with max_memory 0. */
#define TV_PIPE_DEFAULT_MEMORY (256ull << 20)
/* A context whose resources may hold at most max_memory bytes (0: TV_PIPE_DEFAULT_MEMORY). */
tv_pipe_ctx *tv_pipe_create(uint64_t max_memory);
void tv_pipe_destroy(tv_pipe_ctx *ctx);
/* The reason of the last failure ("" when none). */
const char *tv_pipe_error(const tv_pipe_ctx *ctx);
uint64_t tv_pipe_memory_used(const tv_pipe_ctx *ctx);

/* Bytes per block and block size of a Gallium format texvm stores; 0 if unknown. */
unsigned tv_pipe_format_block(uint32_t format, unsigned *bw, unsigned *bh);
/* Gallium format name without PIPE_FORMAT_ ("B8G8R8A8_UNORM"), NULL if not in the table. */
const char *tv_pipe_format_name(uint32_t format);
/* The Gallium number of a format name (with or without PIPE_FORMAT_, any case); 0 if none. */
uint32_t tv_pipe_format_from_name(const char *name);
/* What the pipe layer can do with a Gallium format: bits of TV_PIPE_FORMAT_*. */
#define TV_PIPE_FORMAT_SAMPLER 0x1u        /* a texture-unit format (transfers, views) */
#define TV_PIPE_FORMAT_RENDER 0x2u         /* a colour render target of draws and clears */
#define TV_PIPE_FORMAT_DEPTH_STENCIL 0x4u  /* a depth/stencil target */
#define TV_PIPE_FORMAT_VERTEX 0x8u         /* a vertex element format */
unsigned tv_pipe_format_caps(uint32_t format);
/* Whether clear can encode this format (texvm's format encoders know it). */
int tv_pipe_format_clearable(uint32_t format);

/* Resources. Handle 0 is invalid; a handle in use is an error. */
int tv_pipe_resource_create(tv_pipe_ctx *ctx, uint32_t handle, const tv_pipe_resource_desc *d);
int tv_pipe_resource_destroy(tv_pipe_ctx *ctx, uint32_t handle);
/* Size of the whole resource in bytes (the guest backing size), 0 if no such handle. */
size_t tv_pipe_resource_size(const tv_pipe_ctx *ctx, uint32_t handle);
/* Level layout: row stride and slice stride in bytes, offset of the level. */
int tv_pipe_resource_level(const tv_pipe_ctx *ctx, uint32_t handle, uint32_t level,
                           size_t *offset, size_t *stride, size_t *layer_stride);
uint8_t *tv_pipe_resource_data(tv_pipe_ctx *ctx, uint32_t handle);

/* Box transfers between a resource level and client memory `mem` of mem_size bytes,
 * whose box rows start at mem + offset with the given strides (0: the level's own). */
int tv_pipe_transfer_write(tv_pipe_ctx *ctx, uint32_t handle, uint32_t level,
                           const tv_pipe_box *box, const void *mem, size_t mem_size,
                           size_t offset, size_t stride, size_t layer_stride);
int tv_pipe_transfer_read(tv_pipe_ctx *ctx, uint32_t handle, uint32_t level,
                          const tv_pipe_box *box, void *mem, size_t mem_size,
                          size_t offset, size_t stride, size_t layer_stride);
int tv_pipe_resource_copy_region(tv_pipe_ctx *ctx, uint32_t dst, uint32_t dst_level,
                                 uint32_t dx, uint32_t dy, uint32_t dz, uint32_t src,
                                 uint32_t src_level, const tv_pipe_box *box);

/* Fill a box of a level with one texel given as raw bytes in the resource's format
 * (Gallium's clear_texture after the driver packed the value). */
int tv_pipe_clear_texture(tv_pipe_ctx *ctx, uint32_t handle, uint32_t level,
                          const tv_pipe_box *box, const uint8_t texel[16]);

/* Objects: shaders hold their TGSI text, surfaces their view, the rest their dwords. */
int tv_pipe_object_create(tv_pipe_ctx *ctx, unsigned kind, uint32_t handle,
                          const uint32_t *dw, size_t ndw);
int tv_pipe_shader_create(tv_pipe_ctx *ctx, uint32_t handle, uint32_t stage,
                          const char *text, size_t len);
int tv_pipe_surface_create(tv_pipe_ctx *ctx, uint32_t handle, uint32_t res, uint32_t format,
                           uint32_t level, uint32_t first_layer, uint32_t last_layer);
int tv_pipe_object_bind(tv_pipe_ctx *ctx, unsigned kind, uint32_t handle);
int tv_pipe_object_destroy(tv_pipe_ctx *ctx, unsigned kind, uint32_t handle);
/* The dwords an object was created with (after its handle), NULL if no such object. */
const uint32_t *tv_pipe_object_dwords(const tv_pipe_ctx *ctx, unsigned kind, uint32_t handle,
                                      size_t *ndw);
/* The TGSI text of a shader object, NULL if none. */
const char *tv_pipe_shader_text(const tv_pipe_ctx *ctx, uint32_t handle);
size_t tv_pipe_object_count(const tv_pipe_ctx *ctx, unsigned kind);

/* Framebuffer: surface handles (0: none). */
int tv_pipe_set_framebuffer(tv_pipe_ctx *ctx, unsigned nr_cbufs, const uint32_t *cbufs,
                            uint32_t zsbuf);
/* The size of a framebuffer without attachments (Gallium's pipe_framebuffer_state width,
 * height, layers, samples; GL's ARB_framebuffer_no_attachments): draws with no surface
 * bound rasterise this area (up to 16384 x 16384 pixels, 2048 layers — 0 layers is one —
 * and 0, 1, 2, 4, 8 or 16 samples) and run the fragment shader for what it stores and for
 * queries. A zero width or height sets no area (such draws are then a named error). */
int tv_pipe_set_framebuffer_no_attach(tv_pipe_ctx *ctx, uint32_t width, uint32_t height,
                                      uint32_t layers, uint32_t samples);
/* Clear the framebuffer's buffers: colour given as four raw dwords (float bits, or
 * integers for integer formats), depth in [0,1], stencil. */
int tv_pipe_clear(tv_pipe_ctx *ctx, unsigned buffers, const uint32_t color[4], double depth,
                  uint32_t stencil);

/* ---- compute (launch_grid) -------------------------------------------------------------
 * Bindings per shader stage (0 VERTEX .. 5 COMPUTE, Gallium's numbering); launch_grid runs
 * the bound COMPUTE shader's TGSI with tv_vm_run_compute. Resources are looked up at the
 * launch, so a binding whose resource was destroyed is an error then. */
#define TV_PIPE_STAGES 6
#define TV_PIPE_STAGE_COMPUTE 5
#define TV_PIPE_MAX_SLOTS 32

typedef struct tv_pipe_buffer_binding {
    uint32_t res, offset, size;  /* res 0: unbound */
} tv_pipe_buffer_binding;

typedef struct tv_pipe_image_binding {
    uint32_t res, format;
    uint32_t level, first_layer, last_layer; /* texture resources */
    uint32_t buf_offset, buf_size;           /* buffer resources (bytes) */
} tv_pipe_image_binding;

int tv_pipe_bind_shader(tv_pipe_ctx *ctx, uint32_t stage, uint32_t handle);
int tv_pipe_set_shader_buffers(tv_pipe_ctx *ctx, uint32_t stage, uint32_t start, uint32_t n,
                               const tv_pipe_buffer_binding *b);
int tv_pipe_set_shader_images(tv_pipe_ctx *ctx, uint32_t stage, uint32_t start, uint32_t n,
                              const tv_pipe_image_binding *b);
/* Gallium's set_hw_atomic_buffers: the buffer of TGSI's HWATOMIC[i] (GL's atomic counter
 * binding i, 4-byte counters at the declared offsets) for every stage. */
int tv_pipe_set_hw_atomic_buffers(tv_pipe_ctx *ctx, uint32_t start, uint32_t n,
                                  const tv_pipe_buffer_binding *b);
/* CONST[index] from a resource range (a UBO) or, with res 0, from inline data. */
int tv_pipe_set_constant_buffer(tv_pipe_ctx *ctx, uint32_t stage, uint32_t index,
                                uint32_t res, uint32_t offset, uint32_t size,
                                const uint32_t *data, size_t ndw);
/* Instructions per warp before a launch faults (0: 10^8; also caps loop iterations), and
 * the work quota of one launch, warps x per-warp budget (0: 2^34): a launch of many warps
 * gets the smaller budget quota / warps (at least 4096), so no grid keeps the context
 * busy for long. */
void tv_pipe_set_compute_limit(tv_pipe_ctx *ctx, uint64_t max_instructions, uint64_t max_work);
/* A total over every launch and draw of the context (0: none): once used up, each further
 * engine run fails naming it (a vtest client's time quota). */
void tv_pipe_set_total_work(tv_pipe_ctx *ctx, uint64_t total);
/* Charge BYTES that a caller moves or scans for the context's client outside the pipe
 * layer (the vtest recorder's shared-memory comparisons and readback hashes) to the total
 * quota, as clears and transfers are charged; -1, nothing taken and the reason in
 * tv_pipe_error, when the quota is used up. */
int tv_pipe_charge_bytes(tv_pipe_ctx *ctx, const char *op, uint64_t bytes);
int tv_pipe_launch_grid(tv_pipe_ctx *ctx, const uint32_t block[3], const uint32_t grid[3]);


/* ---- graphics state (docs/pipeline.md) ---------------------------------------------------
 * Gallium's pipe_*_state objects, the fields texvm reads, with Gallium's enum values (which
 * are also the virgl wire values). The setters copy; draws read the state current then. */
#define TV_PIPE_MAX_ATTRIBS 32
#define TV_PIPE_MAX_VIEWPORTS 16
#define TV_PIPE_STAGE_VERTEX 0
#define TV_PIPE_STAGE_FRAGMENT 1
#define TV_PIPE_STAGE_GEOMETRY 2
#define TV_PIPE_STAGE_TESS_CTRL 3
#define TV_PIPE_STAGE_TESS_EVAL 4

typedef struct tv_pipe_rt_blend {
    bool blend_enable;
    uint8_t rgb_func, rgb_src_factor, rgb_dst_factor;     /* PIPE_BLEND_*, PIPE_BLENDFACTOR_* */
    uint8_t alpha_func, alpha_src_factor, alpha_dst_factor;
    uint8_t colormask;                                    /* bit 0 R .. bit 3 A */
} tv_pipe_rt_blend;

typedef struct tv_pipe_blend_state {
    bool independent_blend_enable;    /* else rt[0] holds for every target */
    bool logicop_enable;
    uint8_t logicop_func;             /* PIPE_LOGICOP_* */
    bool alpha_to_coverage, alpha_to_one;
    tv_pipe_rt_blend rt[8];
} tv_pipe_blend_state;

typedef struct tv_pipe_stencil_state {
    bool enabled;
    uint8_t func, fail_op, zpass_op, zfail_op;            /* PIPE_FUNC_*, PIPE_STENCIL_OP_* */
    uint8_t valuemask, writemask;
} tv_pipe_stencil_state;

typedef struct tv_pipe_dsa_state {
    bool depth_enabled, depth_writemask;
    uint8_t depth_func;
    tv_pipe_stencil_state stencil[2]; /* [0] front, [1] back (used when enabled) */
    bool alpha_enabled;
    uint8_t alpha_func;
    float alpha_ref;
} tv_pipe_dsa_state;

enum { TV_PIPE_FACE_NONE, TV_PIPE_FACE_FRONT, TV_PIPE_FACE_BACK, TV_PIPE_FACE_FRONT_AND_BACK };
enum { TV_PIPE_POLYGON_FILL, TV_PIPE_POLYGON_LINE, TV_PIPE_POLYGON_POINT };

typedef struct tv_pipe_rasterizer_state {
    bool flatshade, flatshade_first, light_twoside, front_ccw;
    uint8_t cull_face;                /* TV_PIPE_FACE_* */
    uint8_t fill_front, fill_back;    /* TV_PIPE_POLYGON_* */
    /* polygon offset (GL's POLYGON_OFFSET_FILL, _LINE, _POINT) of polygons drawn filled,
     * as lines, as points (polygon modes): never of line and point primitives */
    bool offset_tri, offset_line, offset_point;
    float offset_units, offset_scale, offset_clamp;
    bool scissor, multisample, half_pixel_center, bottom_edge_rule;
    bool depth_clip_near, depth_clip_far, depth_clamp, clip_halfz;
    bool rasterizer_discard;
    uint8_t clip_plane_enable;        /* bit i: clip distance / user plane i */
    bool poly_stipple_enable, poly_smooth;
    float point_size, line_width;
    bool point_size_per_vertex;       /* the vertex shader's PSIZE, else point_size */
    bool point_quad_rasterization;    /* points are sprites: sprite_coord_enable applies */
    bool sprite_coord_mode;           /* 0: t = 0 at the top (upper left), 1: at the bottom */
    uint16_t sprite_coord_enable;     /* bit i: TEXCOORD[i] reads the sprite coordinate */
    /* the enable bits name GENERIC[i] instead (Gallium without PIPE_CAP_TGSI_TEXCOORD, as
     * virgl: gl_TexCoord[i] and gl_PointCoord arrive as GENERIC inputs) */
    bool sprite_coord_generic;
    bool point_smooth, line_smooth, line_stipple_enable;
    uint16_t line_stipple_pattern;    /* bit b: fragments with counter / factor % 16 == b */
    uint8_t line_stipple_factor;      /* each bit repeats this many times plus one */
} tv_pipe_rasterizer_state;

/* Rasterizer state as a default GL context has it (fill, no culling, CCW front, half-pixel
 * centres, depth clipping on). */
void tv_pipe_rasterizer_default(tv_pipe_rasterizer_state *r);

typedef struct tv_pipe_vertex_element {
    uint32_t src_offset, instance_divisor, vertex_buffer_index, src_format;
} tv_pipe_vertex_element;

typedef struct tv_pipe_vertex_buffer {
    uint32_t stride, buffer_offset, res;  /* res 0: unbound (reads (0, 0, 0, 1)) */
} tv_pipe_vertex_buffer;

typedef struct tv_pipe_viewport {
    float scale[3], translate[3];
} tv_pipe_viewport;

/* Until set, every scissor is empty (all zero), as in Gallium's drivers: with the
 * rasterizer's scissor on, nothing is drawn. */
typedef struct tv_pipe_scissor {
    uint32_t minx, miny, maxx, maxy;  /* max exclusive */
} tv_pipe_scissor;

typedef struct tv_pipe_draw_info {
    uint32_t mode;                    /* PIPE_PRIM_* */
    uint32_t start, count;
    uint32_t start_instance, instance_count;  /* instance_count 0 draws nothing */
    uint32_t index_size;              /* 0: not indexed; 1, 2, 4 bytes from the index buffer */
    int32_t index_bias;               /* base vertex */
    bool primitive_restart;
    uint32_t restart_index;
    uint32_t drawid, vertices_per_patch;
    /* DRAW_AUTO (Gallium's count_from_stream_output): a stream-output target object; the
     * draw is of its filled bytes / its vertex stride vertices from 0, not indexed */
    uint32_t count_from_so;
} tv_pipe_draw_info;

int tv_pipe_set_blend(tv_pipe_ctx *ctx, const tv_pipe_blend_state *s);
int tv_pipe_set_dsa(tv_pipe_ctx *ctx, const tv_pipe_dsa_state *s);
int tv_pipe_set_rasterizer(tv_pipe_ctx *ctx, const tv_pipe_rasterizer_state *s);
int tv_pipe_set_vertex_elements(tv_pipe_ctx *ctx, unsigned n, const tv_pipe_vertex_element *e);
int tv_pipe_set_vertex_buffers(tv_pipe_ctx *ctx, unsigned start, unsigned n,
                               const tv_pipe_vertex_buffer *b);
int tv_pipe_set_index_buffer(tv_pipe_ctx *ctx, uint32_t res, uint32_t offset);
int tv_pipe_set_viewports(tv_pipe_ctx *ctx, unsigned start, unsigned n,
                          const tv_pipe_viewport *v);
int tv_pipe_set_scissors(tv_pipe_ctx *ctx, unsigned start, unsigned n,
                         const tv_pipe_scissor *s);
void tv_pipe_set_stencil_ref(tv_pipe_ctx *ctx, uint8_t front, uint8_t back);
void tv_pipe_set_blend_color(tv_pipe_ctx *ctx, const float color[4]);
void tv_pipe_set_sample_mask(tv_pipe_ctx *ctx, uint32_t mask);
/* Sample shading (Gallium's set_min_samples): above 1, fragment shaders on multisampled
 * targets run once per covered sample (at least MIN_SAMPLES of them, as GL allows). */
void tv_pipe_set_min_samples(tv_pipe_ctx *ctx, uint32_t min_samples);
/* Tessellation levels (Gallium's set_tess_state) for draws with a TESS_EVAL shader and no
 * TESS_CTRL shader: outer[4], inner[2]; the patch's vertices go to the evaluation shader
 * as they leave the vertex shader. */
void tv_pipe_set_tess_state(tv_pipe_ctx *ctx, const float outer[4], const float inner[2]);
/* Legacy user clip planes (used with a vertex shader writing CLIPVERTEX or POSITION and
 * no CLIPDIST). */
void tv_pipe_set_clip_planes(tv_pipe_ctx *ctx, const float ucp[8][4]);
/* The polygon stipple pattern (Gallium's pipe_poly_stipple): with the rasterizer's
 * poly_stipple_enable, a filled polygon's pixel (x, y) (y counted down the stored rows) is
 * drawn only when bit 31 - x % 32 of pattern[y % 32] is set. */
void tv_pipe_set_polygon_stipple(tv_pipe_ctx *ctx, const uint32_t pattern[32]);

/* ---- sub-contexts (pipe_sub.c) -------------------------------------------------------
 * virgl's sub-contexts: the Gallium contexts of one client (each GL context it makes),
 * sharing the context's resources, each with its own objects (handles) and bound state —
 * everything the set_* and bind calls above and below set. Sub-context 0 exists from
 * creation and is current; at most 64 in all. Destroying the current one makes 0 current;
 * 0 itself cannot be destroyed. */
uint32_t tv_pipe_sub_current(const tv_pipe_ctx *ctx);
int tv_pipe_sub_create(tv_pipe_ctx *ctx, uint32_t id);
int tv_pipe_sub_set(tv_pipe_ctx *ctx, uint32_t id);
int tv_pipe_sub_destroy(tv_pipe_ctx *ctx, uint32_t id);

/* ---- textures of draws and launches (pipe_sampler.c) ---------------------------------
 * Gallium's pipe_sampler_view and pipe_sampler_state: views of resources and samplers per
 * shader stage, slots 0..TV_PIPE_MAX_SAMPLERS-1 (TGSI SVIEW[i] / SAMP[i]; a TEX opcode's
 * SAMP[i] reads view i with sampler i). Resources are looked up at the draw. */
#define TV_PIPE_MAX_SAMPLERS 32

typedef struct tv_pipe_sampler_view {
    uint32_t res, format;              /* res 0: unbound */
    uint32_t first_level, last_level;  /* textures */
    uint32_t first_layer, last_layer;
    uint32_t first_element, last_element; /* buffers (texels) */
    uint8_t swizzle[4];                /* PIPE_SWIZZLE_X..W = 0..3, 0 = 4, 1 = 5 */
    uint32_t target;                   /* PIPE_TEXTURE_* the view reads its resource as
                                          (ARB_texture_view), 0: the resource's own */
} tv_pipe_sampler_view;

typedef struct tv_pipe_sampler_state {
    uint8_t wrap_s, wrap_t, wrap_r;    /* PIPE_TEX_WRAP_* */
    uint8_t min_img_filter, mag_img_filter;   /* PIPE_TEX_FILTER_NEAREST 0, LINEAR 1 */
    uint8_t min_mip_filter;            /* PIPE_TEX_MIPFILTER_NEAREST 0, LINEAR 1, NONE 2 */
    bool compare_mode;                 /* compare R to the texture */
    uint8_t compare_func;              /* PIPE_FUNC_* */
    bool seamless_cube_map;
    uint8_t max_anisotropy;            /* 0 or 1: none */
    float lod_bias, min_lod, max_lod;
    uint32_t border_color[4];          /* float bits, or integers for integer formats */
} tv_pipe_sampler_state;

int tv_pipe_set_sampler_views(tv_pipe_ctx *ctx, uint32_t stage, uint32_t start, uint32_t n,
                              const tv_pipe_sampler_view *v);
int tv_pipe_set_sampler_states(tv_pipe_ctx *ctx, uint32_t stage, uint32_t start, uint32_t n,
                               const tv_pipe_sampler_state *s);

/* ---- blits (pipe_blit.c) ------------------------------------------------------------
 * Gallium's pipe_blit_info: a box of a resource level scaled into a box of another
 * (negative extents mirror), nearest or linear, colour converted through the format table,
 * depth/stencil copied between equal formats. */
typedef struct tv_pipe_blit_side {
    uint32_t res, level, format;
    int32_t x, y, z, w, h, d;
} tv_pipe_blit_side;

typedef struct tv_pipe_blit_info {
    tv_pipe_blit_side dst, src;
    uint32_t mask;                     /* PIPE_MASK_R..A = 1..8, Z = 0x10, S = 0x20 */
    uint8_t filter;                    /* 0 nearest, 1 linear */
    bool scissor_enable, render_condition_enable, alpha_blend;
    tv_pipe_scissor scissor;
} tv_pipe_blit_info;

int tv_pipe_blit(tv_pipe_ctx *ctx, const tv_pipe_blit_info *b);

/* ---- stream output (pipe_so.c) ---------------------------------------------------------
 * Gallium's pipe_stream_output_info of a shader: which components of which outputs go to
 * which buffer at which dword offset, and each buffer's vertex stride in dwords. The last
 * vertex stage's info applies; stream 0 only. */
#define TV_PIPE_MAX_SO_BUFFERS 4
#define TV_PIPE_MAX_STREAMS 4       /* vertex streams of a geometry shader */
#define TV_PIPE_MAX_SO_OUTPUTS 64

typedef struct tv_pipe_stream_output {
    uint8_t register_index, start_component, num_components, output_buffer, stream;
    uint16_t dst_offset;               /* dwords */
} tv_pipe_stream_output;

typedef struct tv_pipe_stream_output_info {
    unsigned num_outputs;
    uint16_t stride[TV_PIPE_MAX_SO_BUFFERS];   /* dwords a vertex */
    tv_pipe_stream_output output[TV_PIPE_MAX_SO_OUTPUTS];
} tv_pipe_stream_output_info;

typedef struct tv_pipe_so_target {
    uint32_t res, offset, size;        /* bytes of the buffer resource */
    /* a stream-output target object (TV_PIPE_OBJ_STREAMOUT_TARGET) that keeps this
     * binding's fill level and vertex stride across bindings, for appending after a
     * rebind and for DRAW_AUTO; 0: none (the slot keeps the level) */
    uint32_t handle;
} tv_pipe_so_target;

int tv_pipe_shader_set_stream_output(tv_pipe_ctx *ctx, uint32_t shader,
                                     const tv_pipe_stream_output_info *info);
/* Bind N targets (the rest unbound); bit i of APPEND_MASK keeps target i's fill level
 * (it continues where the last draw stopped: the target object's, else the slot's), else
 * writing starts at its offset (and the object's level restarts at 0). */
int tv_pipe_set_stream_output_targets(tv_pipe_ctx *ctx, unsigned n, const tv_pipe_so_target *t,
                                      uint32_t append_mask);

/* ---- queries and conditional rendering (pipe_query.c) --------------------------------
 * Gallium's PIPE_QUERY_* types (also the order virgl maps from). Counted: occlusion
 * counters and predicates (samples that pass the depth and stencil tests, exactly),
 * timestamps and elapsed time (CLOCK_MONOTONIC nanoseconds), primitives generated (as
 * assembled, every instance), primitives emitted (written by stream output), GPU finished
 * (always 1: every operation completes when called), stream-output overflow predicates,
 * stream-output statistics (two results: primitives written and primitives that would
 * have been written, of the query's vertex stream) and pipeline statistics. */
enum {
    TV_PIPE_QUERY_OCCLUSION_COUNTER, TV_PIPE_QUERY_OCCLUSION_PREDICATE,
    TV_PIPE_QUERY_OCCLUSION_PREDICATE_CONSERVATIVE, TV_PIPE_QUERY_TIMESTAMP,
    TV_PIPE_QUERY_TIMESTAMP_DISJOINT, TV_PIPE_QUERY_TIME_ELAPSED,
    TV_PIPE_QUERY_PRIMITIVES_GENERATED, TV_PIPE_QUERY_PRIMITIVES_EMITTED,
    TV_PIPE_QUERY_SO_STATISTICS, TV_PIPE_QUERY_SO_OVERFLOW_PREDICATE,
    TV_PIPE_QUERY_SO_OVERFLOW_ANY_PREDICATE, TV_PIPE_QUERY_GPU_FINISHED,
    TV_PIPE_QUERY_PIPELINE_STATISTICS, TV_PIPE_QUERY_TYPES
};
/* PIPELINE_STATISTICS queries count one counter, the query's index (Gallium's
 * PIPE_STAT_QUERY_* order, as PIPE_QUERY_PIPELINE_STATISTICS_SINGLE). */
enum {
    TV_PIPE_STAT_IA_VERTICES, TV_PIPE_STAT_IA_PRIMITIVES, TV_PIPE_STAT_VS_INVOCATIONS,
    TV_PIPE_STAT_GS_INVOCATIONS, TV_PIPE_STAT_GS_PRIMITIVES, TV_PIPE_STAT_C_INVOCATIONS,
    TV_PIPE_STAT_C_PRIMITIVES, TV_PIPE_STAT_PS_INVOCATIONS, TV_PIPE_STAT_HS_INVOCATIONS,
    TV_PIPE_STAT_DS_INVOCATIONS, TV_PIPE_STAT_CS_INVOCATIONS, TV_PIPE_STATS
};
int tv_pipe_query_create(tv_pipe_ctx *ctx, uint32_t handle, uint32_t type, uint32_t index);
int tv_pipe_begin_query(tv_pipe_ctx *ctx, uint32_t handle);
int tv_pipe_end_query(tv_pipe_ctx *ctx, uint32_t handle);
/* The result as of the query's last end (predicates: 0 or 1; stream-output statistics:
 * the primitives written, its first value). */
int tv_pipe_query_result(tv_pipe_ctx *ctx, uint32_t handle, uint64_t *result);
/* Both values of a stream-output statistics query (Gallium's pipe_query_data_so_statistics:
 * num_primitives_written, primitives_storage_needed); other types give (result, 0). */
int tv_pipe_query_result_so(tv_pipe_ctx *ctx, uint32_t handle, uint64_t *written,
                            uint64_t *needed);
/* Draws and clears run only when the query's result is non-zero (condition false) or zero
 * (condition true); handle 0 ends conditional rendering. MODE (wait or not) does not
 * matter: results are always complete. */
int tv_pipe_set_render_condition(tv_pipe_ctx *ctx, uint32_t handle, bool condition);

/* Run every shader of this context on the engine's plain interpreter (tv_vm_config.plain:
 * no rewrites, no fast paths) — the reference optimised runs must equal bit for bit
 * (translation validation). Only before the context's first draw or launch. */
int tv_pipe_set_plain(tv_pipe_ctx *ctx, bool plain);

/* How shaders treat what GL leaves to the implementation (tv_vm_config.flush_denormals
 * and .fine_derivatives): FLUSH_DENORMALS runs every shader with float denormals flushed
 * to zero, as GPUs and Mesa's drivers do; FINE_DERIVATIVES makes DDX/DDY per row and
 * column (DDX_FINE/DDY_FINE) instead of per quad, as llvmpipe does. Both false by
 * default (IEEE denormals, coarse derivatives). Only before the context's first draw or
 * launch. */
int tv_pipe_set_shader_rules(tv_pipe_ctx *ctx, bool flush_denormals, bool fine_derivatives);

/* The engine's worker threads (0 or 1: the caller's thread only; at most 64), before the
 * context's first draw or launch. Draws then shade the rows of 8x4 tiles of a large
 * primitive on several workers when the fragment shader touches no memory (no
 * LOAD/STORE/ATOM) and samples no attachment of the framebuffer: every pixel is still
 * shaded and merged once, by one worker, in primitive order, so the bytes are the same
 * for any number of threads. Other stages and launches run on one thread. */
int tv_pipe_set_threads(tv_pipe_ctx *ctx, uint32_t threads);

/* Draw with the bound VERTEX (and GEOMETRY) and FRAGMENT shaders into the framebuffer
 * (docs/pipeline.md); what is not built yet fails naming the feature, with nothing drawn. */
int tv_pipe_draw_vbo(tv_pipe_ctx *ctx, const tv_pipe_draw_info *info);

/* Indirect draws (Gallium's pipe_draw_indirect_info): DRAW_COUNT commands read from buffer
 * RES at OFFSET, STRIDE bytes apart (0: tightly packed), each {count, instance_count,
 * first, base_instance} or, for indexed draws, {count, instance_count, first_index,
 * base_vertex, base_instance} (32-bit words); with COUNT_RES, the draw count is also at
 * most the word at COUNT_OFFSET of it. INFO gives the rest (mode, index size, restart);
 * DRAWID is the command's number. All draws share one work quota. */
typedef struct tv_pipe_draw_indirect {
    uint32_t res, offset, stride, draw_count;
    uint32_t count_res, count_offset;
} tv_pipe_draw_indirect;
int tv_pipe_draw_vbo_indirect(tv_pipe_ctx *ctx, const tv_pipe_draw_info *info,
                              const tv_pipe_draw_indirect *ind);
/* launch_grid with the grid (3 words) read from buffer RES at OFFSET. */
int tv_pipe_launch_grid_indirect(tv_pipe_ctx *ctx, const uint32_t block[3], uint32_t res,
                                 uint32_t offset);

#ifdef __cplusplus
}
#endif
#endif
