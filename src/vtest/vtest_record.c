/* Recording and replaying a client (docs/vtest-replay.md). A record file is
 * "TVVTREC1" and then chunks { u8 type, u32 length (little-endian), bytes }:
 *   'R'  bytes the server read from the client, one chunk per read;
 *   'D'  the client's writes to a resource's shared memory, taken each time the server
 *        is about to read or write it (TRANSFER_PUT2/GET2, transfer3d, a query result):
 *        u32 handle, u32 size of the memory, then runs { u32 offset, u32 length, bytes }
 *        of the bytes that differ from what the server last saw there (its own writes
 *        included);
 *   'M'  u32 handle, then the whole shared memory (written by older recordings and when
 *        the comparison copy cannot be allocated; replayed as before);
 *   'C'  u32 handle, u64 FNV-1a hash of the resource's whole storage, at each readback
 *        (TRANSFER_GET, TRANSFER_GET2, transfer3d from the host);
 *   'S'  the first chunk: u32 shader rules the client ran with (bit 0 denormals flushed,
 *        bit 1 fine derivatives; tv_vtest_config). A recording without it (older) ran
 *        with IEEE denormals and coarse derivatives.
 * Replaying serves the same requests from the file (replies and memfds are discarded),
 * applies each 'D'/'M' at the point where it was taken, so every submit sees the bytes it
 * saw live, and compares each readback's hash with the recorded one: a replay is
 * bit-identical when every readback matches. A record file is untrusted input: every
 * chunk is bounds-checked. */
#define _GNU_SOURCE /* O_NOFOLLOW, O_CLOEXEC, fdopen */
#include "vtest_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define REC_MAGIC "TVVTREC1"
#define REC_FLUSH_DENORMALS 1u   /* 'S' chunk bits */
#define REC_FINE_DERIVATIVES 2u

static void put_u32(uint8_t *p, uint32_t v)
{
    for (int k = 0; k < 4; k++)
        p[k] = (uint8_t)(v >> (8 * k));
}

static uint32_t get_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* A write of the record file failed: say so once and record no more. */
static void rec_stop(vtest_conn *c)
{
    vtest_log(c, "record: write failed; recording stops");
    fclose(c->rec_out);
    c->rec_out = NULL;
}

/* A chunk's header and its first NA bytes; the caller writes the other LEN - NA. */
static void put_chunk_head(vtest_conn *c, char type, size_t len, const void *a, size_t na)
{
    uint8_t hdr[5] = {(uint8_t)type};
    put_u32(hdr + 1, (uint32_t)len);
    if (fwrite(hdr, 1, 5, c->rec_out) != 5 || (na && fwrite(a, 1, na, c->rec_out) != na))
        rec_stop(c);
}

static void put_chunk(vtest_conn *c, char type, const void *a, size_t na, const void *b,
                      size_t nb)
{
    put_chunk_head(c, type, na + nb, a, na);
    if (c->rec_out && nb && fwrite(b, 1, nb, c->rec_out) != nb)
        rec_stop(c);
}

void vtest_rec_read(vtest_conn *c, const void *buf, size_t n)
{
    if (c->rec_out && n)
        put_chunk(c, 'R', buf, n, NULL, 0);
}

/* The next chunk of the replay file: its type and bytes, or 0 at the end / when broken. */
static char next_chunk(vtest_conn *c, const uint8_t **data, size_t *len)
{
    if (c->rep_size - c->rep_pos < 5) {
        if (c->rep_size > c->rep_pos) {   /* a clean recording ends between chunks */
            vtest_log(c, "replay: chunk at byte %zu runs past the file", c->rep_pos);
            c->rep_pos = c->rep_size;
            c->rep_broken = true;
        }
        return 0;
    }
    const uint8_t *p = c->rep + c->rep_pos;
    size_t l = get_u32(p + 1);
    if (l > c->rep_size - c->rep_pos - 5) {
        vtest_log(c, "replay: chunk at byte %zu runs past the file", c->rep_pos);
        c->rep_pos = c->rep_size;
        c->rep_broken = true;
        return 0;
    }
    *data = p + 5;
    *len = l;
    c->rep_pos += 5 + l;
    return (char)p[0];
}

int vtest_rep_read(vtest_conn *c, void *buf, size_t n)
{
    const uint8_t *d;
    size_t l;
    size_t at = c->rep_pos;
    char t = next_chunk(c, &d, &l);
    if (t != 'R' || l != n) {
        if (t) {
            vtest_log(c, "replay: chunk at byte %zu is '%c' of %zu bytes where %zu bytes of "
                      "requests were expected", at, t, l, n);
            c->rep_broken = true;
        }
        c->eof = true;
        return -1;
    }
    memcpy(buf, d, n);
    return 0;
}

/* A gap of equal bytes shorter than this does not end a run (a run header is 8 bytes). */
#define RUN_GAP 16

/* The runs where NOW differs from WAS, written to OUT (NULL: only counted); returns the
 * bytes they take. */
static size_t diff_runs(const uint8_t *now, const uint8_t *was, size_t n, FILE *out)
{
    size_t total = 0, i = 0;
    while (i < n) {
        while (i + 64 <= n && !memcmp(now + i, was + i, 64))
            i += 64;
        while (i < n && now[i] == was[i])
            i++;
        if (i == n)
            break;
        size_t end = i + 1;
        for (size_t j = end; j < n && j - end < RUN_GAP; j++)
            if (now[j] != was[j])
                end = j + 1;
        uint8_t hdr[8];
        put_u32(hdr, (uint32_t)i);
        put_u32(hdr + 4, (uint32_t)(end - i));
        if (out && (fwrite(hdr, 1, 8, out) != 8 || fwrite(now + i, 1, end - i, out) != end - i))
            return 0;
        total += 8 + end - i;
        i = end;
    }
    return total;
}

static int record_shm(vtest_conn *c, vtest_shm *m)
{
    uint32_t h = m->handle;
    if (!m->rec_seen && m->rec_counted)
        m->rec_seen = calloc(1, m->size ? m->size : 1);
    if (!m->rec_seen) { /* no room for the comparison copy: the whole memory */
        put_chunk(c, 'M', &h, 4, m->ptr, m->size);
        return 0;
    }
    size_t runs = diff_runs(m->ptr, m->rec_seen, m->size, NULL);
    uint8_t head[8];
    put_u32(head, h);
    put_u32(head + 4, (uint32_t)m->size);
    put_chunk_head(c, 'D', 8 + runs, head, 8);
    if (c->rec_out && runs && diff_runs(m->ptr, m->rec_seen, m->size, c->rec_out) != runs)
        rec_stop(c);
    memcpy(m->rec_seen, m->ptr, m->size);
    return 0;
}

/* Apply a 'D' chunk's runs to M; -1 when they do not fit. */
static int apply_runs(vtest_shm *m, const uint8_t *d, size_t l)
{
    for (size_t p = 8; p < l;) {
        if (l - p < 8)
            return -1;
        uint32_t off = get_u32(d + p), len = get_u32(d + p + 4);
        p += 8;
        if (len > l - p || off > m->size || len > m->size - off)
            return -1;
        memcpy(m->ptr + off, d + p, len);
        p += len;
    }
    return 0;
}

/* Recording compares (and copies) the whole shared memory and hashes the whole resource
 * at every transfer, readback and query result, whatever the box: a 14-dword transfer3d
 * of one texel scanned 256 MiB (about 50 ms), nothing charged, so a submit of them kept a
 * recording server busy for hours. That work is charged to the client's total quota, the
 * same amount when replaying (which scans less) so that a replay fails where the
 * recording did. */
static int rec_charge(vtest_conn *c, const char *what, uint64_t bytes)
{
    if (!tv_pipe_charge_bytes(c->pipe, what, bytes))
        return 0;
    vtest_fail(c, "%s", tv_pipe_error(c->pipe));
    return -1;
}

int vtest_rec_shm(vtest_conn *c, vtest_shm *m)
{
    if ((c->rec_out || c->rep) &&
        rec_charge(c, "record: shared memory comparison", 2 * (uint64_t)m->size))
        return -1;
    /* The recorder's comparison copy of the memory counts as shared memory where it fits
     * in the quota (else each transfer records the whole memory), charged with the
     * resource until it is freed; a replay, which keeps no copy, charges the same so that
     * it refuses what the recording refused. */
    if ((c->rec_out || c->rep) && !m->rec_counted && c->shm_used + m->size <= vtest_quota(c)) {
        m->rec_counted = true;
        m->charged += m->size;
        c->shm_used += m->size;
    }
    if (c->rec_out)
        return record_shm(c, m);
    if (!c->rep)
        return 0;
    const uint8_t *d;
    size_t l, at = c->rep_pos;
    char t = next_chunk(c, &d, &l);
    uint32_t h = l >= 4 ? get_u32(d) : 0;
    int ok = 0;
    if (t == 'M')
        ok = l == 4 + m->size && h == m->handle;
    else if (t == 'D')
        ok = l >= 8 && h == m->handle && get_u32(d + 4) == m->size && !apply_runs(m, d, l);
    if (!ok) {
        c->rep_broken = true;
        vtest_fail(c, "replay: chunk at byte %zu is not the contents of resource %u's %zu "
                   "bytes of shared memory", at, m->handle, m->size);
        return -1;
    }
    if (t == 'M')
        memcpy(m->ptr, d + 4, m->size);
    return 0;
}

void vtest_rec_server_wrote(vtest_conn *c, vtest_shm *m)
{
    if (c->rec_out && m->rec_seen)
        memcpy(m->rec_seen, m->ptr, m->size);
}

static uint64_t fnv1a(const uint8_t *p, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

void vtest_rec_readback(vtest_conn *c, uint32_t handle)
{
    if (!c->rec_out && !c->rep)
        return;
    size_t size = tv_pipe_resource_size(c->pipe, handle);
    uint8_t *data = tv_pipe_resource_data(c->pipe, handle);
    if (rec_charge(c, "record: readback hash", size))
        return;   /* (replaying: no 'C' chunk is read; the recording wrote none either) */
    uint64_t hash = size && data ? fnv1a(data, size) : 0;
    uint8_t rec[12];
    put_u32(rec, handle);
    put_u32(rec + 4, (uint32_t)hash);
    put_u32(rec + 8, (uint32_t)(hash >> 32));
    if (c->rec_out) {
        put_chunk(c, 'C', rec, 12, NULL, 0);
        return;
    }
    /* replaying: a recording without 'C' chunks (older) has nothing to compare */
    if (c->rep_size - c->rep_pos < 5 || c->rep[c->rep_pos] != 'C')
        return;
    const uint8_t *d;
    size_t l, at = c->rep_pos;
    next_chunk(c, &d, &l);
    c->rep_readbacks++;
    if (l != 12 || memcmp(d, rec, 12)) {
        c->rep_differ++;
        vtest_log(c, "replay: readback %u (resource %u, chunk at byte %zu) differs from the "
                  "recording", c->rep_readbacks, handle, at);
    }
}

/* The record file, created afresh: a name already there (a recording of an earlier run,
 * or a link someone else planted in a shared --record folder, client numbers being
 * predictable) is removed first, and the file is created exclusively, without following
 * a link, readable by the server's user only (it holds everything the client sent).
 * fopen(path, "wb") followed a symlink client-N.vtrec and truncated its target. */
static FILE *rec_create(const char *path)
{
    if (unlink(path) && errno != ENOENT)
        return NULL;
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0)
        return NULL;
    FILE *f = fdopen(fd, "wb");
    if (!f)
        close(fd);
    return f;
}

int vtest_rec_start(vtest_conn *c, const char *path)
{
    c->rec_out = rec_create(path);
    if (!c->rec_out || fwrite(REC_MAGIC, 1, 8, c->rec_out) != 8) {
        vtest_log(c, "record: cannot write \"%s\"", path);
        if (c->rec_out)
            fclose(c->rec_out);
        c->rec_out = NULL;
        return -1;
    }
    uint8_t rules[4];
    put_u32(rules, (c->cfg.ieee_denormals ? 0u : REC_FLUSH_DENORMALS) |
                   (c->cfg.coarse_derivatives ? 0u : REC_FINE_DERIVATIVES));
    put_chunk(c, 'S', rules, 4, NULL, 0);
    if (!c->rec_out)
        return -1;
    vtest_log(c, "recording to \"%s\"", path);
    return 0;
}

/* The shader rules a recording ran with: its 'S' chunk, or an older recording's (IEEE
 * denormals, coarse derivatives); -1 for an 'S' chunk texvm cannot honour. */
static int replay_rules(vtest_conn *c)
{
    bool flush = false, fine = false;
    if (c->rep_size - c->rep_pos >= 5 && c->rep[c->rep_pos] == 'S') {
        const uint8_t *d;
        size_t l, at = c->rep_pos;
        next_chunk(c, &d, &l);
        uint32_t r = l == 4 ? get_u32(d) : ~0u;
        if (r & ~(REC_FLUSH_DENORMALS | REC_FINE_DERIVATIVES)) {
            vtest_log(c, "replay: chunk at byte %zu: shader rules %s", at,
                      l == 4 ? "with unknown bits" : "not 4 bytes");
            return -1;
        }
        flush = (r & REC_FLUSH_DENORMALS) != 0;
        fine = (r & REC_FINE_DERIVATIVES) != 0;
    }
    if (tv_pipe_set_shader_rules(c->pipe, flush, fine)) {
        vtest_log(c, "replay: %s", tv_pipe_error(c->pipe));
        return -1;
    }
    return 0;
}

int tv_vtest_replay(const void *data, size_t size, const tv_vtest_config *cfg,
                    tv_vtest_submit_fn on_submit, void *user)
{
    vtest_conn c;
    vtest_conn_init(&c, cfg);
    if (!c.pipe)
        return -1;
    int rc = -1;
    if (!data || size < 8 || memcmp(data, REC_MAGIC, 8))
        vtest_log(&c, "replay: not a record file (no %s header)", REC_MAGIC);
    else {
        c.rep = data;
        c.rep_size = size;
        c.rep_pos = 8;
        c.on_submit = on_submit;
        c.on_submit_user = user;
        rc = replay_rules(&c) ? -1 : vtest_serve_conn(&c);
        if (c.rep_readbacks)
            vtest_log(&c, "replay: %u readbacks, %u identical to the recording, %u differ",
                      c.rep_readbacks, c.rep_readbacks - c.rep_differ, c.rep_differ);
        if (c.rep_broken || c.rep_differ)
            rc = -1;
    }
    vtest_conn_fini(&c);
    return rc;
}
