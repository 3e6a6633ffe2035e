/* Recording and replaying a client (docs/vtest.md, "Record and replay"). A record file is
 * "TVVTREC1" and then chunks { u8 type, u32 length (little-endian), bytes }:
 *   'R'  bytes the server read from the client, one chunk per read;
 *   'M'  u32 resource handle, then the resource's whole shared memory, written each time
 *        the server reads shared memory (TRANSFER_PUT2, transfer3d to the host).
 * Replaying serves the same requests from the file (replies and memfds are discarded) and
 * restores each 'M' snapshot at the point where it was taken, so every submit sees the
 * bytes it saw live. A record file is untrusted input: every chunk is bounds-checked. */
#include "vtest_internal.h"

#include <stdio.h>
#include <string.h>

#define REC_MAGIC "TVVTREC1"

static void put_chunk(vtest_conn *c, char type, const void *a, size_t na, const void *b,
                      size_t nb)
{
    uint8_t hdr[5] = {(uint8_t)type};
    uint32_t len = (uint32_t)(na + nb);
    for (int k = 0; k < 4; k++)
        hdr[1 + k] = (uint8_t)(len >> (8 * k));
    if (fwrite(hdr, 1, 5, c->rec_out) != 5 || (na && fwrite(a, 1, na, c->rec_out) != na) ||
        (nb && fwrite(b, 1, nb, c->rec_out) != nb)) {
        vtest_log(c, "record: write failed; recording stops");
        fclose(c->rec_out);
        c->rec_out = NULL;
    }
}

void vtest_rec_read(vtest_conn *c, const void *buf, size_t n)
{
    if (c->rec_out && n)
        put_chunk(c, 'R', buf, n, NULL, 0);
}

/* The next chunk of the replay file: its type and bytes, or 0 at the end / when broken. */
static char next_chunk(vtest_conn *c, const uint8_t **data, size_t *len)
{
    if (c->rep_size - c->rep_pos < 5)
        return 0;
    const uint8_t *p = c->rep + c->rep_pos;
    size_t l = (size_t)p[1] | (size_t)p[2] << 8 | (size_t)p[3] << 16 | (size_t)p[4] << 24;
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

int vtest_rec_shm(vtest_conn *c, vtest_shm *m)
{
    if (c->rec_out) {
        uint32_t h = m->handle;
        put_chunk(c, 'M', &h, 4, m->ptr, m->size);
        return 0;
    }
    if (!c->rep)
        return 0;
    const uint8_t *d;
    size_t l, at = c->rep_pos;
    char t = next_chunk(c, &d, &l);
    uint32_t h = 0;
    if (t == 'M' && l >= 4)
        memcpy(&h, d, 4);
    if (t != 'M' || l != 4 + m->size || h != m->handle) {
        c->rep_broken = true;
        vtest_fail(c, "replay: chunk at byte %zu is not the %zu bytes of resource %u's shared "
                   "memory", at, m->size, m->handle);
        return -1;
    }
    memcpy(m->ptr, d + 4, m->size);
    return 0;
}

int vtest_rec_start(vtest_conn *c, const char *path)
{
    c->rec_out = fopen(path, "wb");
    if (!c->rec_out || fwrite(REC_MAGIC, 1, 8, c->rec_out) != 8) {
        vtest_log(c, "record: cannot write \"%s\"", path);
        if (c->rec_out)
            fclose(c->rec_out);
        c->rec_out = NULL;
        return -1;
    }
    vtest_log(c, "recording to \"%s\"", path);
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
        rc = vtest_serve_conn(&c);
        if (c.rep_broken)
            rc = -1;
    }
    vtest_conn_fini(&c);
    return rc;
}
