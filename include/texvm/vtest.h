/* texvm vtest: a virgl "vtest" protocol server (the protocol Mesa's virpipe driver
 * speaks over a unix socket) on top of the pipe context (texvm/pipe.h). docs/vtest.md
 * describes it and docs/vtest-protocol.md lists what is implemented. The library never
 * prints: log lines go to a callback. */
#ifndef TEXVM_VTEST_H
#define TEXVM_VTEST_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TV_VTEST_DEFAULT_SOCKET "/tmp/.virgl_test"
#define TV_VTEST_MAX_PROTOCOL 2
#define TV_VTEST_DEFAULT_CLIENTS 32
#define TV_VTEST_MAX_CLIENTS 4096

typedef void (*tv_vtest_log_fn)(void *user, const char *line);
struct tv_pipe_ctx;
/* Called by tv_vtest_replay after submit number INDEX (0-based) was decoded, with the
 * client's pipe context (resources can be read with tv_pipe_transfer_read). */
typedef void (*tv_vtest_submit_fn)(void *user, unsigned index, struct tv_pipe_ctx *pipe);

typedef struct tv_vtest_config {
    uint64_t max_memory;   /* per client (0: TV_PIPE_DEFAULT_MEMORY, 256 MiB) */
    uint64_t max_instructions; /* launch_grid: per warp (0: 10^8) */
    uint64_t max_work;     /* warps x per-warp budget of a launch or draw (0: 2^34) */
    uint64_t max_client_work; /* the same summed over a client's launches and draws (0: 2^42) */
    tv_vtest_log_fn log;   /* NULL: no logging */
    void *log_user;
    const char *record_dir;  /* tv_vtest_listen: record client N into DIR/client-N.vtrec */
    uint32_t max_clients;  /* tv_vtest_listen: clients served at once (0: 32, at most
                              TV_VTEST_MAX_CLIENTS); further connections wait in the
                              socket's queue until one disconnects */
    const char *record_path; /* tv_vtest_serve: record this client into PATH */
    uint32_t threads;      /* engine workers per client (tv_pipe_set_threads; 0: one, at
                              most 64): large primitives' fragments on several cores, the
                              same bytes */
    /* Shader rules GL leaves to the implementation (tv_pipe_set_shader_rules). By default
     * a client's shaders run as GPUs and Mesa's llvmpipe run them: float denormals flushed
     * to zero, and DDX/DDY fine (per row and column). ieee_denormals keeps denormals;
     * coarse_derivatives makes DDX/DDY one value per quad. A recording stores the rules its
     * client ran with and a replay takes them from it (these two are ignored there). */
    bool ieee_denormals;
    bool coarse_derivatives;
} tv_vtest_config;

/* Serve one client on fd (in and out may be the same socket) until it disconnects or
 * breaks the framing. Returns 0 on a clean disconnect, -1 after a protocol error (the
 * reason was logged). Does not close the fds. */
int tv_vtest_serve(int in_fd, int out_fd, const tv_vtest_config *cfg);

/* Decode one virgl command buffer (SUBMIT_CMD's payload) into a fresh context and
 * report the context's error ("" if none) in err. For tests and fuzzing. */
int tv_vtest_decode_buffer(const uint32_t *dw, size_t ndw, const tv_vtest_config *cfg,
                           char *err, size_t err_size);

/* Serve a recorded client again from the SIZE bytes of its record file
 * (docs/vtest-replay.md): the same requests, the same shared-memory contents at each
 * transfer, replies discarded; ON_SUBMIT (may be NULL) runs after each submit. Returns 0
 * when the recording ends cleanly, -1 on a protocol error or a record that does not
 * replay (the reason is logged). */
int tv_vtest_replay(const void *data, size_t size, const tv_vtest_config *cfg,
                    tv_vtest_submit_fn on_submit, void *user);

/* Name of a VIRGL_CCMD_* number and whether texvm implements it (1), records it (2) or
 * answers it with an error (0); -1 past the table. */
int tv_vtest_ccmd_info(unsigned cmd, const char **name);
unsigned tv_vtest_ccmd_count(void);

/* Listen on path and serve clients until *stop becomes non-zero (polled) or a signal
 * interrupts; each client in a forked process, or a thread with no_fork. */
int tv_vtest_listen(const char *path, int no_fork, const tv_vtest_config *cfg,
                    volatile int *stop);

#ifdef __cplusplus
}
#endif
#endif
