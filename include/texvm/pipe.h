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

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tv_pipe_ctx tv_pipe_ctx;

typedef struct tv_pipe_box {
    uint32_t x, y, z, w, h, d;
} tv_pipe_box;

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

/* A context whose resources may hold at most max_memory bytes (0: 256 MiB). */
tv_pipe_ctx *tv_pipe_create(uint64_t max_memory);
void tv_pipe_destroy(tv_pipe_ctx *ctx);
/* The reason of the last failure ("" when none). */
const char *tv_pipe_error(const tv_pipe_ctx *ctx);
uint64_t tv_pipe_memory_used(const tv_pipe_ctx *ctx);

/* Bytes per block and block size of a Gallium format texvm stores; 0 if unknown. */
unsigned tv_pipe_format_block(uint32_t format, unsigned *bw, unsigned *bh);
/* Gallium format name without PIPE_FORMAT_ ("B8G8R8A8_UNORM"), NULL if not in the table. */
const char *tv_pipe_format_name(uint32_t format);
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
/* The TGSI text of a shader object, NULL if none. */
const char *tv_pipe_shader_text(const tv_pipe_ctx *ctx, uint32_t handle);
size_t tv_pipe_object_count(const tv_pipe_ctx *ctx, unsigned kind);

/* Framebuffer: surface handles (0: none). */
int tv_pipe_set_framebuffer(tv_pipe_ctx *ctx, unsigned nr_cbufs, const uint32_t *cbufs,
                            uint32_t zsbuf);
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
/* CONST[index] from a resource range (a UBO) or, with res 0, from inline data. */
int tv_pipe_set_constant_buffer(tv_pipe_ctx *ctx, uint32_t stage, uint32_t index,
                                uint32_t res, uint32_t offset, uint32_t size,
                                const uint32_t *data, size_t ndw);
/* Instructions per warp before a launch faults (0: 10^8; also caps loop iterations), and
 * the work quota of one launch, warps x per-warp budget (0: 2^34): a launch of many warps
 * gets the smaller budget quota / warps (at least 4096), so no grid keeps the context
 * busy for long. */
void tv_pipe_set_compute_limit(tv_pipe_ctx *ctx, uint64_t max_instructions, uint64_t max_work);
int tv_pipe_launch_grid(tv_pipe_ctx *ctx, const uint32_t block[3], const uint32_t grid[3]);

#ifdef __cplusplus
}
#endif
#endif
