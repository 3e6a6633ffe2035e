/* Internal state of the pipe context (include/texvm/pipe.h). */
#ifndef TEXVM_PIPE_INTERNAL_H
#define TEXVM_PIPE_INTERNAL_H

#include "texvm/pipe.h"
#include "texvm/tex.h"

#include <stdarg.h>
#include <stdbool.h>

#define PIPE_MAX_LEVELS 16

typedef struct pipe_resource {
    uint32_t handle;
    tv_pipe_resource_desc desc;
    tv_format format;
    unsigned bw, bh, bytes;            /* block width/height, bytes per block */
    size_t level_offset[PIPE_MAX_LEVELS], stride[PIPE_MAX_LEVELS],
        layer_stride[PIPE_MAX_LEVELS];
    uint32_t lw[PIPE_MAX_LEVELS], lh[PIPE_MAX_LEVELS], ld[PIPE_MAX_LEVELS]; /* texels; ld: depth or layers */
    size_t size;
    uint8_t *data;
    struct pipe_resource *next;
} pipe_resource;

typedef struct pipe_object {
    unsigned kind;
    uint32_t handle;
    uint32_t *dw;
    size_t ndw;
    char *text;                        /* shaders */
    uint32_t stage;                    /* shaders */
    struct tv_vm_program *prog;        /* shaders: lowered at the first launch */
    uint32_t res, format, level, first_layer, last_layer; /* surfaces */
    struct pipe_object *next;
} pipe_object;

typedef struct pipe_const {
    tv_pipe_buffer_binding ubo;        /* res 0: inline data */
    uint32_t *data;
    size_t ndw;
} pipe_const;

struct tv_pipe_ctx {
    uint32_t shader[TV_PIPE_STAGES];   /* bound shader handles */
    tv_pipe_buffer_binding ssbo[TV_PIPE_STAGES][TV_PIPE_MAX_SLOTS];
    tv_pipe_image_binding image[TV_PIPE_STAGES][TV_PIPE_MAX_SLOTS];
    pipe_const consts[TV_PIPE_STAGES][TV_PIPE_MAX_SLOTS];
    struct tv_vm *vm;                  /* created at the first launch_grid */
    uint64_t max_instructions;         /* per warp, 0: MAX_WARP_INSTRUCTIONS */
    uint64_t max_work;                 /* warps x per-warp budget of a launch, 0: default */
    uint64_t max_memory, used;
    pipe_resource *resources;
    pipe_object *objects;
    uint32_t bound[TV_PIPE_OBJ_COUNT];
    unsigned nr_cbufs;
    uint32_t cbufs[TV_PIPE_MAX_CBUFS], zsbuf;
    char error[256];
};

int pipe_fail(tv_pipe_ctx *ctx, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
pipe_resource *pipe_resource_find(const tv_pipe_ctx *ctx, uint32_t handle);
pipe_object *pipe_object_find(const tv_pipe_ctx *ctx, unsigned kind, uint32_t handle);
tv_format pipe_format_lookup(uint32_t format);
/* Check a box against a level; 0 if inside. */
int pipe_box_check(tv_pipe_ctx *ctx, const pipe_resource *r, uint32_t level,
                   const tv_pipe_box *box, const char *what);

#endif
