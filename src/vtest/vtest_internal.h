/* Internal state of one vtest client connection. */
#ifndef TEXVM_VTEST_INTERNAL_H
#define TEXVM_VTEST_INTERNAL_H

#include "texvm/pipe.h"
#include "texvm/vtest.h"
#include "util/handle_map.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define VTEST_NUM_CCMDS 64

/* A resource's shared memory (protocol 2: the memfd the client maps). */
typedef struct vtest_shm {
    uint32_t handle;
    uint8_t *ptr;
    size_t size;
    uint8_t *rec_seen;   /* recording: the memory as the server last saw it (NULL: none yet) */
    bool rec_counted;    /* recording or replaying: that copy's size is in `charged` */
    uint64_t charged;    /* of the shared-memory quota: whole pages and this record */
} vtest_shm;

/* Where a query's result goes: a struct virgl_host_query_state at OFFSET of resource RES
 * (its storage and its shared memory). */
typedef struct vtest_query {
    uint32_t handle, res, offset;
} vtest_query;

/* A shader whose text arrives in several CREATE_OBJECT packets. */
typedef struct vtest_pending_shader {
    uint32_t handle, stage, total, have;
    char *text;
    tv_pipe_stream_output_info *so;   /* from the first packet, NULL: none */
} vtest_pending_shader;

/* What the decoder keeps per sub-context (the pipe layer keeps the rest): the bound index
 * buffer's index size, the target DRAW_AUTO counts from, query result locations. */
typedef struct vtest_sub {
    uint32_t id;
    uint32_t index_size;         /* of the bound index buffer (set_index_buffer), 0: none */
    uint32_t last_so_target;     /* target 0 of the last set_streamout_targets that bound
                                    any: what a DRAW_AUTO draw counts from */
    tv_handle_map queries;       /* handle -> vtest_query: result locations
                                    (vtest_query.c) */
} vtest_sub;

typedef struct vtest_conn {
    tv_vtest_config cfg;
    tv_pipe_ctx *pipe;
    int in_fd, out_fd;
    uint32_t version;
    bool eof;                    /* the client went away (maybe mid-command) */
    bool failed;                 /* the context is in the error state */
    char error[320];             /* the first failure's reason */
    vtest_sub sub;               /* the current sub-context's (vtest_ccmd.c) */
    vtest_sub *others;           /* the others' */
    unsigned nothers;
    tv_handle_map shm;           /* resource handle -> vtest_shm */
    uint64_t shm_used;           /* bytes of shared memory handed out (whole pages), and
                                    the recorder's comparison copies of it */
    vtest_pending_shader pending;
    uint32_t *recorded[VTEST_NUM_CCMDS]; /* last payload of each recorded state command */
    size_t recorded_len[VTEST_NUM_CCMDS];
    /* record and replay (vtest_record.c) */
    FILE *rec_out;               /* recording: the record file */
    const uint8_t *rep;          /* replaying: the record file's bytes */
    size_t rep_size, rep_pos;
    bool rep_broken;             /* the record file ended inside a chunk or disagreed */
    unsigned rep_readbacks, rep_differ; /* replaying: readbacks compared, how many differ */
    tv_vtest_submit_fn on_submit;  /* after each SUBMIT_CMD (replay) */
    void *on_submit_user;
    unsigned submits;
} vtest_conn;

void vtest_conn_init(vtest_conn *c, const tv_vtest_config *cfg);
void vtest_conn_fini(vtest_conn *c);
void vtest_log(vtest_conn *c, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Put the context in the error state (the first reason is kept and logged). */
void vtest_fail(vtest_conn *c, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
vtest_shm *vtest_shm_find(vtest_conn *c, uint32_t handle);
/* Put the context in the error state with the pipe layer's reason, prefixed with CMD
 * unless the reason already names it; returns -1. */
int vtest_pipe_fail(vtest_conn *c, const char *cmd);

/* Graphics state and draws (vtest_state.c): the length rule of a state object's dwords
 * (checked at create), its decode into the pipe layer's state when bound, and the
 * handlers of the set_* commands and draw_vbo (rows of the command table). */
int vtest_state_object_check(vtest_conn *c, unsigned kind, uint32_t handle, uint32_t ndw);
int vtest_state_object_bind(vtest_conn *c, unsigned kind, uint32_t handle);
int vtest_h_set_viewport_state(vtest_conn *c, unsigned obj, const uint32_t *p, uint32_t len);
int vtest_h_set_scissor_state(vtest_conn *c, unsigned obj, const uint32_t *p, uint32_t len);
int vtest_h_set_vertex_buffers(vtest_conn *c, unsigned obj, const uint32_t *p, uint32_t len);
int vtest_h_set_index_buffer(vtest_conn *c, unsigned obj, const uint32_t *p, uint32_t len);
int vtest_h_set_stencil_ref(vtest_conn *c, unsigned obj, const uint32_t *p, uint32_t len);
int vtest_h_set_blend_color(vtest_conn *c, unsigned obj, const uint32_t *p, uint32_t len);
int vtest_h_set_sample_mask(vtest_conn *c, unsigned obj, const uint32_t *p, uint32_t len);
int vtest_h_set_clip_state(vtest_conn *c, unsigned obj, const uint32_t *p, uint32_t len);
int vtest_h_set_sampler_views(vtest_conn *c, unsigned obj, const uint32_t *p, uint32_t len);
int vtest_h_bind_sampler_states(vtest_conn *c, unsigned obj, const uint32_t *p, uint32_t len);
int vtest_h_set_render_condition(vtest_conn *c, unsigned obj, const uint32_t *p, uint32_t len);
/* Queries (vtest_query.c): create_object query, destroy, and the query commands. */
int vtest_query_create(vtest_conn *c, const uint32_t *p, uint32_t len);
void vtest_query_forget(vtest_conn *c, uint32_t handle);
void vtest_queries_free(vtest_sub *s);
int vtest_h_begin_query(vtest_conn *c, unsigned obj, const uint32_t *p, uint32_t len);
int vtest_h_end_query(vtest_conn *c, unsigned obj, const uint32_t *p, uint32_t len);
int vtest_h_get_query_result(vtest_conn *c, unsigned obj, const uint32_t *p, uint32_t len);
int vtest_h_get_query_result_qbo(vtest_conn *c, unsigned obj, const uint32_t *p, uint32_t len);
int vtest_h_set_streamout_targets(vtest_conn *c, unsigned obj, const uint32_t *p,
                                  uint32_t len);
int vtest_h_blit(vtest_conn *c, unsigned obj, const uint32_t *p, uint32_t len);
int vtest_h_draw_vbo(vtest_conn *c, unsigned obj, const uint32_t *p, uint32_t len);

/* Decode a command buffer; stops at the first failing command. */
void vtest_decode(vtest_conn *c, const uint32_t *dw, size_t ndw);
/* Serve requests until the client goes away (tv_vtest_serve, tv_vtest_replay). */
int vtest_serve_conn(vtest_conn *c);
/* Record and replay (vtest_record.c): start recording into PATH; note bytes read from the
 * client; replay's read; the shared memory a transfer is about to read (recorded, or
 * restored from the replay file: -1 and the context in the error state on a mismatch). */
int vtest_rec_start(vtest_conn *c, const char *path);
void vtest_rec_read(vtest_conn *c, const void *buf, size_t n);
int vtest_rep_read(vtest_conn *c, void *buf, size_t n);
/* The server is about to read or write M's shared memory: recording, the client's changes
 * since the server last saw it are saved; replaying, they are restored (-1: the record
 * disagrees; the context failed). */
int vtest_rec_shm(vtest_conn *c, vtest_shm *m);
/* The server wrote M's shared memory (a readback, a query result). */
void vtest_rec_server_wrote(vtest_conn *c, vtest_shm *m);
/* The client reads resource HANDLE back: its hash is recorded, or compared when replaying. */
void vtest_rec_readback(vtest_conn *c, uint32_t handle);
/* The caps structs (v1 / v2 prefix), n dwords. */
size_t vtest_caps(uint32_t *out, size_t max, unsigned version);

/* The client's memory quota (cfg.max_memory, 0: TV_PIPE_DEFAULT_MEMORY, 256 MiB): for what the pipe context
 * holds and, separately, for shared memory */
uint64_t vtest_quota(const vtest_conn *c);

#endif
