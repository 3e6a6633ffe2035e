/* One vtest client: the request framing (VCMD_*), replies, resources with their shared
 * memory (protocol 2) or inline data (protocol 0), and SUBMIT_CMD into the decoder. */
#define _GNU_SOURCE /* memfd_create */
#include "vtest_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

enum {
    VCMD_GET_CAPS = 1, VCMD_RESOURCE_CREATE = 2, VCMD_RESOURCE_UNREF = 3,
    VCMD_TRANSFER_GET = 4, VCMD_TRANSFER_PUT = 5, VCMD_SUBMIT_CMD = 6,
    VCMD_RESOURCE_BUSY_WAIT = 7, VCMD_CREATE_RENDERER = 8, VCMD_GET_CAPS2 = 9,
    VCMD_PING_PROTOCOL_VERSION = 10, VCMD_PROTOCOL_VERSION = 11, VCMD_RESOURCE_CREATE2 = 12,
    VCMD_TRANSFER_GET2 = 13, VCMD_TRANSFER_PUT2 = 14,
};

#define MAX_SUBMIT_DWORDS (1u << 24) /* 64 MiB command buffer */

void vtest_log(vtest_conn *c, const char *fmt, ...)
{
    if (!c->cfg.log)
        return;
    char line[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    c->cfg.log(c->cfg.log_user, line);
}

void vtest_fail(vtest_conn *c, const char *fmt, ...)
{
    if (c->failed)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->error, sizeof c->error, fmt, ap);
    va_end(ap);
    c->failed = true;
    vtest_log(c, "context error: %s", c->error);
}

void vtest_conn_init(vtest_conn *c, const tv_vtest_config *cfg)
{
    memset(c, 0, sizeof *c);
    if (cfg)
        c->cfg = *cfg;
    c->pipe = tv_pipe_create(c->cfg.max_memory);
    if (c->pipe) {
        /* a count over 64 was refused by the front end; the pipe checks it again */
        if (c->cfg.threads > 1 && tv_pipe_set_threads(c->pipe, c->cfg.threads))
            vtest_log(c, "threads: %s (one worker)", tv_pipe_error(c->pipe));
        tv_pipe_set_shader_rules(c->pipe, !c->cfg.ieee_denormals, !c->cfg.coarse_derivatives);
        tv_pipe_set_compute_limit(c->pipe, c->cfg.max_instructions, c->cfg.max_work);
        tv_pipe_set_total_work(c->pipe, c->cfg.max_client_work ? c->cfg.max_client_work
                                                                : 1ull << 42);
    }
    c->in_fd = c->out_fd = -1;
}

static void shm_free(vtest_shm *m)
{
    if (m->ptr)
        munmap(m->ptr, m->size);
    free(m->rec_seen);
    free(m);
}

void vtest_conn_fini(vtest_conn *c)
{
    if (c->rec_out)
        fclose(c->rec_out);
    c->rec_out = NULL;
    for (size_t i = 0; i < c->shm.cap; i++) {
        vtest_shm *m = tv_handle_map_slot(&c->shm, i);
        if (m)
            shm_free(m);
    }
    tv_handle_map_free(&c->shm);
    free(c->pending.text);
    free(c->pending.so);
    vtest_queries_free(&c->sub);
    for (unsigned k = 0; k < c->nothers; k++)
        vtest_queries_free(&c->others[k]);
    free(c->others);
    for (unsigned i = 0; i < VTEST_NUM_CCMDS; i++)
        free(c->recorded[i]);
    tv_pipe_destroy(c->pipe);
    memset(c, 0, sizeof *c);
}

vtest_shm *vtest_shm_find(vtest_conn *c, uint32_t handle)
{
    return tv_handle_map_find(&c->shm, handle);
}

/* ---- I/O ---------------------------------------------------------------------------- */

static int read_full(vtest_conn *c, void *buf, size_t n)
{
    if (c->rep)
        return vtest_rep_read(c, buf, n);
    uint8_t *p = buf;
    size_t want = n;
    while (n) {
        ssize_t r = read(c->in_fd, p, n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            vtest_rec_read(c, buf, want - n);   /* a partial read replays as a disconnect */
            c->eof = true;
            return -1;
        }
        p += r, n -= (size_t)r;
    }
    vtest_rec_read(c, buf, want);
    return 0;
}

static int write_full(vtest_conn *c, const void *buf, size_t n)
{
    if (c->rep)
        return 0;   /* replaying: nobody reads the replies */
    const uint8_t *p = buf;
    while (n) {
        /* MSG_NOSIGNAL: a client that went away must not kill the server with SIGPIPE */
        ssize_t r = send(c->out_fd, p, n, MSG_NOSIGNAL);
        if (r < 0 && errno == ENOTSOCK)
            r = write(c->out_fd, p, n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return -1;
        p += r, n -= (size_t)r;
    }
    return 0;
}

static int reply(vtest_conn *c, uint32_t len, uint32_t id, const void *payload, size_t bytes)
{
    uint32_t hdr[2] = {len, id};
    return write_full(c, hdr, 8) || (bytes && write_full(c, payload, bytes)) ? -1 : 0;
}

static int send_fd(vtest_conn *c, int fd)
{
    if (c->rep)
        return 0;
    char byte = 0;
    struct iovec iov = {&byte, 1};
    union {
        struct cmsghdr h;
        char buf[CMSG_SPACE(sizeof(int))];
    } u;
    memset(&u, 0, sizeof u);
    struct msghdr msg = {0};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = u.buf;
    msg.msg_controllen = sizeof u.buf;
    struct cmsghdr *cm = CMSG_FIRSTHDR(&msg);
    cm->cmsg_level = SOL_SOCKET;
    cm->cmsg_type = SCM_RIGHTS;
    cm->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(cm), &fd, sizeof fd);
    ssize_t r;
    do
        r = sendmsg(c->out_fd, &msg, MSG_NOSIGNAL);
    while (r < 0 && errno == EINTR);
    return r == 1 ? 0 : -1;
}

/* ---- commands ------------------------------------------------------------------------- */

/* The first NAME_SHOWN bytes of a client-chosen name for the log, in OUT (4 NAME_SHOWN + 1
 * bytes): printable ASCII as it is, any other byte, the quote and the backslash as \xNN. */
#define NAME_SHOWN 64
static void escape_name(const char *name, size_t len, char out[4 * NAME_SHOWN + 1])
{
    size_t k = 0;
    for (size_t i = 0; i < len && i < NAME_SHOWN; i++) {
        unsigned char ch = (unsigned char)name[i];
        if (ch >= 0x20 && ch < 0x7f && ch != '"' && ch != '\\')
            out[k++] = (char)ch;
        else
            k += (size_t)snprintf(out + k, 5, "\\x%02x", ch);
    }
    out[k] = '\0';
}

static int pipe_fail_log(vtest_conn *c, const char *what)
{
    vtest_fail(c, "%s: %s", what, tv_pipe_error(c->pipe));
    return 0; /* the connection goes on; the context is in the error state */
}

static int cmd_resource_create(vtest_conn *c, const uint32_t *p, int v2)
{
    tv_pipe_resource_desc d = {p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8], p[9]};
    uint32_t handle = p[0], data_size = v2 ? p[10] : 0;
    int ok = !tv_pipe_resource_create(c->pipe, handle, &d), created = ok;
    if (!ok)
        pipe_fail_log(c, v2 ? "resource_create2" : "resource_create");
    if (!v2 || data_size == 0)
        return 0;
    /* The client waits for an fd: it gets one even for a refused resource (an empty
     * memfd), so the framing holds; the context is already in the error state then. */
    size_t need = ok ? tv_pipe_resource_size(c->pipe, handle) : 0;
    if (ok && data_size < need) {
        vtest_fail(c, "resource_create2 %u: data_size %u below the resource's %zu bytes",
                   handle, data_size, need);
        ok = 0;
    }
    uint64_t quota = vtest_quota(c);
    /* a mapping takes whole pages, and its record: a client making millions of 1-byte
       resources pays for them */
    uint64_t charge = (((uint64_t)data_size + 4095u) & ~(uint64_t)4095u) + sizeof(vtest_shm) +
                      TV_HANDLE_MAP_ENTRY_BYTES;
    if (ok && c->shm_used + charge > quota) {
        vtest_fail(c, "resource_create2 %u: %u bytes of shared memory exceed the quota "
                   "(%llu of %llu used)", handle, data_size, (unsigned long long)c->shm_used,
                   (unsigned long long)quota);
        ok = 0;
    }
    if (!ok && created) {
        tv_pipe_resource_destroy(c->pipe, handle);
        created = 0;
    }
    int fd = memfd_create("texvm-vtest", MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (fd < 0)
        return -1;
    vtest_shm *m = NULL;
    /* Sealed against shrinking: a client that truncated the memfd would otherwise make
     * the server's accesses fault (SIGBUS). */
    if (ok && ftruncate(fd, data_size) == 0 &&
        fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) == 0 &&
        (m = calloc(1, sizeof *m))) {
        m->ptr = mmap(NULL, data_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        if (m->ptr == MAP_FAILED) {
            free(m);
            m = NULL;
        }
    }
    if (m) {
        m->handle = handle;
        m->size = data_size;
        m->charged = charge;
        if (tv_handle_map_put(&c->shm, handle, m)) {
            shm_free(m);
            m = NULL;
        } else {
            c->shm_used += charge;
        }
    }
    if (ok && !m) {
        vtest_fail(c, "resource_create2 %u: cannot map %u bytes of shared memory", handle,
                   data_size);
        tv_pipe_resource_destroy(c->pipe, handle);
    }
    int rc = send_fd(c, fd);
    close(fd);
    return rc;
}

static int cmd_resource_unref(vtest_conn *c, uint32_t handle)
{
    vtest_shm *m = tv_handle_map_remove(&c->shm, handle);
    if (m) {
        c->shm_used -= m->charged;
        shm_free(m);
    }
    if (tv_pipe_resource_destroy(c->pipe, handle))
        pipe_fail_log(c, "resource_unref");
    return 0;
}

uint64_t vtest_quota(const vtest_conn *c)
{
    return c->cfg.max_memory ? c->cfg.max_memory : TV_PIPE_DEFAULT_MEMORY;
}

/* Protocol 0/1: data travels inline. PUT: data_size bytes follow; GET: we send them.
 * The staging buffer counts with what the context holds: it must fit in what is left
 * of the memory quota. */
static int cmd_transfer_v0(vtest_conn *c, const uint32_t *p, uint32_t len_dw, int put)
{
    const char *what = put ? "transfer_put" : "transfer_get";
    uint32_t data_size = p[10];
    uint64_t quota = vtest_quota(c), used = tv_pipe_memory_used(c->pipe);
    if (used > quota || data_size > quota - used) {
        vtest_log(c, "%s: data_size %u exceeds the memory quota (%llu of %llu used)", what,
                  data_size, (unsigned long long)used, (unsigned long long)quota);
        return -1; /* the framing cannot be trusted any more */
    }
    if (put && len_dw != 11 + (data_size + 3) / 4) {
        vtest_log(c, "%s: length %u does not match data_size %u", what, len_dw, data_size);
        return -1;
    }
    uint8_t *buf = calloc(1, data_size ? data_size : 1);
    if (!buf)
        return -1;
    tv_pipe_box b = {p[4], p[5], p[6], p[7], p[8], p[9]};
    int rc = 0;
    if (put) {
        rc = read_full(c, buf, data_size);
        if (!rc && !c->failed &&
            tv_pipe_transfer_write(c->pipe, p[0], p[1], &b, buf, data_size, 0, p[2], p[3]))
            pipe_fail_log(c, what);
    } else {
        if (!c->failed &&
            tv_pipe_transfer_read(c->pipe, p[0], p[1], &b, buf, data_size, 0, p[2], p[3]))
            pipe_fail_log(c, what);
        vtest_rec_readback(c, p[0]);
        rc = write_full(c, buf, data_size); /* the client reads data_size bytes regardless */
    }
    free(buf);
    return rc;
}

/* Protocol 2: the data is in the resource's shared memory at offset. */
static int cmd_transfer_v2(vtest_conn *c, const uint32_t *p, int put)
{
    const char *what = put ? "transfer_put2" : "transfer_get2";
    if (c->failed)
        return 0;
    vtest_shm *m = vtest_shm_find(c, p[0]);
    if (!m) {
        vtest_fail(c, "%s: resource %u has no shared memory", what, p[0]);
        return 0;
    }
    tv_pipe_box b = {p[2], p[3], p[4], p[5], p[6], p[7]};
    if (vtest_rec_shm(c, m)) /* the client's writes so far: recorded, or restored */
        return 0;
    int rc = put ? tv_pipe_transfer_write(c->pipe, p[0], p[1], &b, m->ptr, m->size, p[9], 0, 0)
                 : tv_pipe_transfer_read(c->pipe, p[0], p[1], &b, m->ptr, m->size, p[9], 0, 0);
    if (rc)
        pipe_fail_log(c, what);
    if (!put) {
        vtest_rec_server_wrote(c, m);
        vtest_rec_readback(c, p[0]);
    }
    return 0;
}

static int cmd_submit(vtest_conn *c, uint32_t ndw)
{
    if (ndw > MAX_SUBMIT_DWORDS) {
        vtest_log(c, "submit_cmd: %u dwords (at most %u)", ndw, MAX_SUBMIT_DWORDS);
        return -1;
    }
    uint32_t *buf = malloc((size_t)ndw * 4 + 4);
    if (!buf)
        return -1;
    int rc = read_full(c, buf, (size_t)ndw * 4);
    if (!rc) {
        if (c->failed)
            vtest_log(c, "submit_cmd: %u dwords refused: the context is in the error state (%s)",
                      ndw, c->error);
        else
            vtest_decode(c, buf, ndw);
        if (c->on_submit)
            c->on_submit(c->on_submit_user, c->submits, c->pipe);
        c->submits++;
    }
    free(buf);
    return rc;
}

/* Payload dwords each command must carry (exact), 0 when variable. */
static uint32_t fixed_len(uint32_t id)
{
    switch (id) {
    case VCMD_RESOURCE_CREATE: return 10;
    case VCMD_RESOURCE_CREATE2: return 11;
    case VCMD_RESOURCE_UNREF: return 1;
    case VCMD_TRANSFER_GET: return 11;
    case VCMD_RESOURCE_BUSY_WAIT: return 2;
    case VCMD_PROTOCOL_VERSION: return 1;
    case VCMD_PING_PROTOCOL_VERSION: case VCMD_GET_CAPS: case VCMD_GET_CAPS2: return 0;
    default: return 0;
    }
}

/* One request; -1 ends the connection (disconnect or broken framing). */
static int serve_one(vtest_conn *c)
{
    uint32_t hdr[2];
    if (read_full(c, hdr, 8))
        return 1; /* disconnect (a partial header too) */
    uint32_t len = hdr[0], id = hdr[1];
    uint32_t p[11];
    switch (id) {
    case VCMD_CREATE_RENDERER: {
        if (len == 0 || len > 4096) {
            vtest_log(c, "create_renderer: name of %u bytes (1..4096)", len);
            return -1;
        }
        char name[4096], shown[4 * NAME_SHOWN + 1];
        if (read_full(c, name, len))
            return -1;
        /* the client picks these bytes: a newline in them forged log lines, terminal
           escapes reached whoever reads the log, a NUL hid the rest */
        while (len && name[len - 1] == '\0')   /* Mesa sends the terminating NUL */
            len--;
        escape_name(name, len, shown);
        vtest_log(c, "client \"%s\"%s", shown, len > NAME_SHOWN ? " (cut)" : "");
        return 0;
    }
    case VCMD_PING_PROTOCOL_VERSION:
    case VCMD_GET_CAPS:
    case VCMD_GET_CAPS2:
    case VCMD_RESOURCE_CREATE:
    case VCMD_RESOURCE_CREATE2:
    case VCMD_RESOURCE_UNREF:
    case VCMD_RESOURCE_BUSY_WAIT:
    case VCMD_PROTOCOL_VERSION:
        if (len != fixed_len(id)) {
            vtest_log(c, "command %u: length %u, %u expected", id, len, fixed_len(id));
            return -1;
        }
        if (len && read_full(c, p, (size_t)len * 4))
            return -1;
        break;
    case VCMD_TRANSFER_GET:
    case VCMD_TRANSFER_PUT:
    case VCMD_TRANSFER_GET2:
    case VCMD_TRANSFER_PUT2: {
        uint32_t n = id <= VCMD_TRANSFER_PUT ? 11 : 10;
        /* GET/GET2: exact; PUT/PUT2: the length also counts the data (PUT2: not sent). */
        if (len < n || ((id == VCMD_TRANSFER_GET || id == VCMD_TRANSFER_GET2) && len != n)) {
            vtest_log(c, "transfer command %u: length %u", id, len);
            return -1;
        }
        if (c->version < 2 && id >= VCMD_TRANSFER_GET2) {
            vtest_log(c, "transfer command %u needs protocol 2 (negotiated %u)", id, c->version);
            return -1;
        }
        if (read_full(c, p, (size_t)n * 4))
            return -1;
        if (id == VCMD_TRANSFER_PUT2 && len != 10 + (p[8] + 3) / 4) {
            vtest_log(c, "transfer_put2: length %u does not match data_size %u", len, p[8]);
            return -1;
        }
        return id <= VCMD_TRANSFER_PUT ? cmd_transfer_v0(c, p, len, id == VCMD_TRANSFER_PUT)
                                       : cmd_transfer_v2(c, p, id == VCMD_TRANSFER_PUT2);
    }
    case VCMD_SUBMIT_CMD:
        return cmd_submit(c, len);
    default:
        vtest_log(c, "unknown or unimplemented vtest command %u (length %u)", id, len);
        return -1;
    }
    switch (id) {
    case VCMD_PING_PROTOCOL_VERSION:
        return reply(c, 0, VCMD_PING_PROTOCOL_VERSION, NULL, 0);
    case VCMD_PROTOCOL_VERSION: {
        c->version = p[0] < TV_VTEST_MAX_PROTOCOL ? p[0] : TV_VTEST_MAX_PROTOCOL;
        if (c->version == 1) /* Mesa treats 1 as 0; so does texvm */
            c->version = 0;
        return reply(c, 1, VCMD_PROTOCOL_VERSION, &c->version, 4);
    }
    case VCMD_GET_CAPS:
    case VCMD_GET_CAPS2: {
        uint32_t caps[512];
        size_t n = vtest_caps(caps, 512, id == VCMD_GET_CAPS2 ? 2 : 1);
        return reply(c, (uint32_t)(n * 4 + 1), id == VCMD_GET_CAPS2 ? 2 : 1, caps, n * 4);
    }
    case VCMD_RESOURCE_CREATE:
        if (c->version >= 2) {
            vtest_log(c, "resource_create under protocol %u (resource_create2 expected)",
                      c->version);
            return -1;
        }
        return cmd_resource_create(c, p, 0);
    case VCMD_RESOURCE_CREATE2:
        if (c->version < 2) {
            vtest_log(c, "resource_create2 needs protocol 2 (negotiated %u)", c->version);
            return -1;
        }
        return cmd_resource_create(c, p, 1);
    case VCMD_RESOURCE_UNREF:
        return cmd_resource_unref(c, p[0]);
    case VCMD_RESOURCE_BUSY_WAIT: {
        uint32_t busy = 0; /* every operation completes before its command returns */
        return reply(c, 1, VCMD_RESOURCE_BUSY_WAIT, &busy, 4);
    }
    }
    return -1;
}

int vtest_serve_conn(vtest_conn *c)
{
    int rc;
    while ((rc = serve_one(c)) == 0)
        ;
    if (rc < 0 && c->eof) {
        vtest_log(c, "disconnected in the middle of a command");
        rc = 1;
    } else if (rc < 0) {
        vtest_log(c, "connection closed after a protocol error");
    }
    return rc < 0 ? -1 : 0;
}

int tv_vtest_serve(int in_fd, int out_fd, const tv_vtest_config *cfg)
{
    vtest_conn c;
    vtest_conn_init(&c, cfg);
    if (!c.pipe)
        return -1;
    c.in_fd = in_fd;
    c.out_fd = out_fd;
    if (c.cfg.record_path)
        vtest_rec_start(&c, c.cfg.record_path);   /* a failure is logged; serving goes on */
    int rc = vtest_serve_conn(&c);
    vtest_conn_fini(&c);
    return rc;
}

int tv_vtest_decode_buffer(const uint32_t *dw, size_t ndw, const tv_vtest_config *cfg,
                           char *err, size_t err_size)
{
    vtest_conn c;
    vtest_conn_init(&c, cfg);
    if (!c.pipe)
        return -1;
    vtest_decode(&c, dw, ndw);
    if (err && err_size)
        snprintf(err, err_size, "%s", c.error);
    int rc = c.failed ? -1 : 0;
    vtest_conn_fini(&c);
    return rc;
}
