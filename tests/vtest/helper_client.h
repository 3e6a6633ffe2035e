#ifndef TEXVM_TEST_VTEST_HELPER_CLIENT_H
#define TEXVM_TEST_VTEST_HELPER_CLIENT_H

#include "texvm/vtest.h"

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct vt_client {
    int fd, sfd;
    pthread_t thread;
    pthread_mutex_t lock;
    tv_vtest_config cfg;
    int server_rc;
    char log[16384];
} vt_client;

/* virgl command header: (len << 16) | (obj << 8) | cmd */
#define VT_CMD(cmd, obj, len) (((uint32_t)(len) << 16) | ((uint32_t)(obj) << 8) | (cmd))

vt_client *vt_start(uint64_t max_memory);
/* vt_start with the server recording the session into PATH. */
vt_client *vt_start_recorded(uint64_t max_memory, const char *path);
/* vt_start_recorded (PATH may be NULL) with a total work quota MAX_CLIENT_WORK (0: the
 * default). */
vt_client *vt_start_quota(uint64_t max_memory, const char *path, uint64_t max_client_work);
int vt_finish(vt_client *c); /* closes the client end, joins, returns the server's rc */
bool vt_logged(vt_client *c, const char *needle);
void vt_write(vt_client *c, const void *p, size_t n);
int vt_read(vt_client *c, void *p, size_t n);
void vt_cmd(vt_client *c, uint32_t len, uint32_t id, const uint32_t *p, size_t ndw);
uint32_t vt_busy_wait(vt_client *c);          /* a sync point: every earlier request done */
uint32_t vt_negotiate(vt_client *c, uint32_t version);
int vt_recv_fd(vt_client *c);
void vt_submit(vt_client *c, const uint32_t *dw, size_t ndw);
/* TRANSFER_GET2 of the whole W x H (one level, one layer) of resource HANDLE into its
 * shared memory; a vt_busy_wait afterwards says when it is there. */
void vt_transfer_get(vt_client *c, uint32_t handle, uint32_t w, uint32_t h);
/* RESOURCE_CREATE (v0) or RESOURCE_CREATE2 (v2, DATA_SIZE bytes of shared memory) of a 2D
 * render-target resource W x H of virgl FORMAT. */
void vt_resource_create(vt_client *c, uint32_t handle, uint32_t format, uint32_t w, uint32_t h,
                        int v2, uint32_t data_size);
/* RESOURCE_CREATE2 of a W x H 4-byte-texel resource, its memfd mapped (W * H * 4 bytes). */
uint8_t *vt_create2(vt_client *c, uint32_t handle, uint32_t format, uint32_t w, uint32_t h);

#endif
