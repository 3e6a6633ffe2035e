/* A vtest client for the tests: a server thread on one end of a socketpair, request
 * helpers on the other, and the server's log lines captured for assertions. */
#define _GNU_SOURCE
#include "helper_client.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

static void capture(void *user, const char *line)
{
    vt_client *c = user;
    pthread_mutex_lock(&c->lock);
    size_t have = strlen(c->log), n = strlen(line);
    if (have + n + 2 < sizeof c->log) {
        memcpy(c->log + have, line, n);
        c->log[have + n] = '\n';
        c->log[have + n + 1] = '\0';
    }
    pthread_mutex_unlock(&c->lock);
}

static void *server(void *p)
{
    vt_client *c = p;
    c->server_rc = tv_vtest_serve(c->sfd, c->sfd, &c->cfg);
    close(c->sfd);
    return NULL;
}

vt_client *vt_start(uint64_t max_memory)
{
    return vt_start_recorded(max_memory, NULL);
}

vt_client *vt_start_recorded(uint64_t max_memory, const char *path)
{
    return vt_start_quota(max_memory, path, 0);
}

vt_client *vt_start_quota(uint64_t max_memory, const char *path, uint64_t max_client_work)
{
    vt_client *c = calloc(1, sizeof *c);
    int sv[2];
    if (!c || socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
        abort();
    pthread_mutex_init(&c->lock, NULL);
    c->fd = sv[0];
    c->sfd = sv[1];
    c->cfg.max_memory = max_memory;
    c->cfg.log = capture;
    c->cfg.log_user = c;
    c->cfg.record_path = path;
    c->cfg.max_client_work = max_client_work;
    pthread_create(&c->thread, NULL, server, c);
    return c;
}

/* A finished client stays readable (vt_logged) until the next one finishes; the last
 * is freed at exit. */
static vt_client *finished;

static void free_finished(void)
{
    free(finished);
    finished = NULL;
}

int vt_finish(vt_client *c)
{
    static int registered;
    if (!registered) {
        atexit(free_finished);
        registered = 1;
    }
    free_finished();
    finished = c;
    shutdown(c->fd, SHUT_RDWR);
    close(c->fd);
    pthread_join(c->thread, NULL);
    int rc = c->server_rc;
    pthread_mutex_destroy(&c->lock);
    return rc;
}

bool vt_logged(vt_client *c, const char *needle)
{
    pthread_mutex_lock(&c->lock);
    bool found = strstr(c->log, needle) != NULL;
    pthread_mutex_unlock(&c->lock);
    if (!found)
        fprintf(stderr, "log lacks \"%s\"; log:\n%s", needle, c->log);
    return found;
}

void vt_write(vt_client *c, const void *p, size_t n)
{
    const uint8_t *b = p;
    while (n) {
        ssize_t r = write(c->fd, b, n);
        if (r <= 0)
            return;
        b += r, n -= (size_t)r;
    }
}

int vt_read(vt_client *c, void *p, size_t n)
{
    uint8_t *b = p;
    while (n) {
        ssize_t r = read(c->fd, b, n);
        if (r <= 0)
            return -1;
        b += r, n -= (size_t)r;
    }
    return 0;
}

void vt_cmd(vt_client *c, uint32_t len, uint32_t id, const uint32_t *p, size_t ndw)
{
    uint32_t hdr[2] = {len, id};
    vt_write(c, hdr, 8);
    vt_write(c, p, ndw * 4);
}

void vt_transfer_get(vt_client *c, uint32_t handle, uint32_t w, uint32_t h)
{
    /* handle, level, x, y, z, width, height, depth, data size, offset */
    const uint32_t get[10] = {handle, 0, 0, 0, 0, w, h, 1, 0, 0};
    vt_cmd(c, 10, 13, get, 10);
}

uint32_t vt_busy_wait(vt_client *c)
{
    uint32_t p[2] = {0, 1}, r[3] = {0, 0, 0xdead};
    vt_cmd(c, 2, 7, p, 2);
    if (vt_read(c, r, 12) || r[0] != 1 || r[1] != 7)
        return 0xffffffffu;
    return r[2];
}

uint32_t vt_negotiate(vt_client *c, uint32_t version)
{
    uint32_t r[3], v = version;
    vt_cmd(c, 1, 11, &v, 1);
    if (vt_read(c, r, 12) || r[0] != 1 || r[1] != 11)
        return 0xffffffffu;
    return r[2];
}

int vt_recv_fd(vt_client *c)
{
    char byte;
    struct iovec iov = {&byte, 1};
    union {
        struct cmsghdr h;
        char buf[CMSG_SPACE(sizeof(int))];
    } u;
    struct msghdr msg = {0};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = u.buf;
    msg.msg_controllen = sizeof u.buf;
    if (recvmsg(c->fd, &msg, 0) != 1)
        return -1;
    struct cmsghdr *cm = CMSG_FIRSTHDR(&msg);
    if (!cm || cm->cmsg_type != SCM_RIGHTS)
        return -1;
    int fd;
    memcpy(&fd, CMSG_DATA(cm), sizeof fd);
    return fd;
}

void vt_submit(vt_client *c, const uint32_t *dw, size_t ndw)
{
    vt_cmd(c, (uint32_t)ndw, 6, dw, ndw);
}

void vt_resource_create(vt_client *c, uint32_t handle, uint32_t format, uint32_t w, uint32_t h,
                        int v2, uint32_t data_size)
{
    uint32_t p[11] = {handle, 2 /* 2D */, format, 2 /* render target */, w, h, 1, 1, 0, 0,
                      data_size};
    vt_cmd(c, v2 ? 11 : 10, v2 ? 12 : 2, p, v2 ? 11 : 10);
}

uint8_t *vt_create2(vt_client *c, uint32_t handle, uint32_t format, uint32_t w, uint32_t h)
{
    vt_resource_create(c, handle, format, w, h, 1, w * h * 4);
    int fd = vt_recv_fd(c);
    if (fd < 0)
        abort();
    /* sealed: the client cannot shrink the memory under the server (SIGBUS) */
    if (ftruncate(fd, 0) == 0)
        abort();
    uint8_t *m = mmap(NULL, w * h * 4, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (m == MAP_FAILED)
        abort();
    return m;
}
