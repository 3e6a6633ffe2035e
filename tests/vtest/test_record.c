/* Record and replay (docs/vtest-replay.md): a protocol-2 client session recorded by the
 * server (an upload through shared memory, a compute launch that reads it, later changes to
 * the shared memory, a readback) replays from its record file alone to the same resource
 * bytes the live client read back, with the readback's recorded hash matched; the older
 * whole-memory chunks replay too; hostile record files fail with a logged reason. */
#define _GNU_SOURCE
#include "helper_client.h"
#include "texvm/pipe.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#define H(cmd, obj, len) VT_CMD(cmd, obj, len)
enum { RGBA8 = 67 };

/* A COMP shader of 4 threads: thread i stores BUFFER[0] word i + 4 (byte 16 + 4 i) = OP
 * applied to word i and IMM[0].z = K. */
#define CS_TEXT(K, OP)                                                                     \
    "COMP\n"                                                                               \
    "PROPERTY CS_FIXED_BLOCK_WIDTH 4\n"                                                    \
    "PROPERTY CS_FIXED_BLOCK_HEIGHT 1\n"                                                   \
    "PROPERTY CS_FIXED_BLOCK_DEPTH 1\n"                                                    \
    "DCL SV[0], THREAD_ID\n"                                                               \
    "DCL BUFFER[0]\n"                                                                      \
    "DCL TEMP[0..1]\n"                                                                     \
    "IMM[0] UINT32 {4, 16, " K ", 0}\n"                                                    \
    "  0: UMAD TEMP[0].x, SV[0].xxxx, IMM[0].xxxx, IMM[0].yyyy\n"                          \
    "  1: UMUL TEMP[1].x, SV[0].xxxx, IMM[0].xxxx\n"                                       \
    "  2: LOAD TEMP[1].x, BUFFER[0], TEMP[1].xxxx\n"                                       \
    "  3: " OP " TEMP[1].x, TEMP[1].xxxx, IMM[0].zzzz\n"                                   \
    "  4: STORE BUFFER[0].x, TEMP[0].xxxx, TEMP[1].xxxx\n"                                 \
    "  5: END\n"

/* word i + 4 = word i + 100 */
static const char cs_text[] = CS_TEXT("100", "UADD");
/* word i + 4 = word i as a float times 1.0: the word itself in IEEE arithmetic, 0 for a
 * denormal when denormals are flushed */
static const char cs_float_text[] = CS_TEXT("1065353216", "MUL");

static size_t compute_stream_of(uint32_t *buf, const char *text, size_t len)
{
    size_t n = 0, ndw = (len + 3) / 4;
    buf[n++] = H(1, 4, 5 + ndw);
    buf[n++] = 3, buf[n++] = 5, buf[n++] = (uint32_t)len, buf[n++] = 0, buf[n++] = 0;
    memset(&buf[n], 0, ndw * 4);
    memcpy(&buf[n], text, len);
    n += ndw;
    const uint32_t rest[] = {H(31, 0, 2), 3, 5,                      /* bind as compute */
                             H(34, 0, 5), 5, 0, 0, 64, 1,            /* SSBO 0: res 1 */
                             H(37, 0, 8), 4, 1, 1, 1, 1, 1, 0, 0};   /* 4 threads */
    memcpy(&buf[n], rest, sizeof rest);
    return n + sizeof rest / 4;
}


static size_t chunk_len(const uint8_t *rec, size_t at)
{
    return rec[at + 1] | rec[at + 2] << 8 | rec[at + 3] << 16 | (size_t)rec[at + 4] << 24;
}

/* The byte where the first chunk of TYPE at or after chunk START begins (fails if none). */
static size_t find_chunk(const uint8_t *rec, size_t size, char type, size_t start)
{
    size_t at = start ? start : 8;
    while (at + 5 <= size && rec[at] != (uint8_t)type)
        at += 5 + chunk_len(rec, at);
    assert_true(at + 5 <= size);
    return at;
}

static uint8_t after[64];   /* resource 1 after submit 1, as the replay saw it */
static int seen;

static void grab(void *user, unsigned index, struct tv_pipe_ctx *pipe)
{
    (void)user;
    if (index != 1)
        return;
    memcpy(after, tv_pipe_resource_data(pipe, 1), 64);
    seen++;
}

static char log_text[4096];
static void keep_log(void *user, const char *line)
{
    (void)user;
    size_t n = strlen(log_text);
    snprintf(log_text + n, sizeof log_text - n, "%s\n", line);
}

static uint8_t *read_all(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    static uint8_t buf[1 << 16];
    *size = fread(buf, 1, sizeof buf, f);
    fclose(f);
    return buf;
}

/* `texvm replay FILE --dump 1 1 OUT` writes resource 1 after submit 1: the live bytes; a
 * missing resource or submit is an error (exit 1). */
static void replay_cli(const char *rec, const uint8_t live[64])
{
    const char *bin = getenv("TEXVM_BIN");
    if (!bin)
        return;
    char out[] = "/tmp/texvm_vtdump_XXXXXX", cmd[512];
    int fd = mkstemp(out);
    assert_true(fd >= 0);
    close(fd);
    snprintf(cmd, sizeof cmd, "%s replay %s --dump 1 1 %s 2>/dev/null", bin, rec, out);
    assert_int_equal(WEXITSTATUS(system(cmd)), 0);
    uint8_t got[128];
    FILE *f = fopen(out, "rb");
    assert_non_null(f);
    size_t size = fread(got, 1, sizeof got, f);
    fclose(f);
    assert_int_equal(size, 64);
    assert_memory_equal(got, live, 64);
    /* on two engine workers: the same bytes; a worker count out of range is a usage error */
    snprintf(cmd, sizeof cmd, "%s replay %s --threads 2 --dump 1 1 %s 2>/dev/null", bin, rec,
             out);
    assert_int_equal(WEXITSTATUS(system(cmd)), 0);
    f = fopen(out, "rb");
    assert_non_null(f);
    size = fread(got, 1, sizeof got, f);
    fclose(f);
    assert_int_equal(size, 64);
    assert_memory_equal(got, live, 64);
    snprintf(cmd, sizeof cmd, "%s replay %s --threads 0 2>/dev/null", bin, rec);
    assert_int_equal(WEXITSTATUS(system(cmd)), 2);
    snprintf(cmd, sizeof cmd, "%s replay %s --dump 9 1 %s 2>/dev/null", bin, rec, out);
    assert_int_equal(WEXITSTATUS(system(cmd)), 1);
    snprintf(cmd, sizeof cmd, "%s replay %s --dump 1 7 %s 2>/dev/null", bin, rec, out);
    assert_int_equal(WEXITSTATUS(system(cmd)), 1);
    unlink(out);
}

/* Occurrences of NEEDLE in the text file PATH */
static int count_in_file(const char *path, const char *needle)
{
    static char text[(1 << 16) + 1];   /* (not read_all's buffer: callers hold that) */
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    size_t size = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[size] = 0;
    int n = 0;
    for (const char *p = text; (p = strstr(p, needle)); p += strlen(needle))
        n++;
    return n;
}

/* `texvm replay FILE...`: each file replayed by a server of its own, each followed by a
 * line "FILE: passed" or "FILE: FAILED", the log lines naming their file; one bad file
 * fails the run but not the files after it; --dump takes one file only. */
static void replay_cli_batch(const char *rec)
{
    const char *bin = getenv("TEXVM_BIN");
    if (!bin)
        return;
    char log[] = "/tmp/texvm_vtlog_XXXXXX", bad[] = "/tmp/texvm_vtbad_XXXXXX", cmd[1024],
         line[600];
    int fd = mkstemp(log);
    assert_true(fd >= 0);
    close(fd);
    fd = mkstemp(bad);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, "not a recording at all", 22), 22);
    close(fd);
    snprintf(cmd, sizeof cmd, "%s replay %s %s 2>%s", bin, rec, rec, log);
    assert_int_equal(WEXITSTATUS(system(cmd)), 0);
    snprintf(line, sizeof line, "texvm replay: %s: passed\n", rec);
    assert_int_equal(count_in_file(log, line), 2);
    snprintf(line, sizeof line, "texvm replay: %s: replay: 1 readbacks, 1 identical", rec);
    assert_int_equal(count_in_file(log, line), 2);
    snprintf(cmd, sizeof cmd, "%s replay %s %s %s 2>%s", bin, bad, rec, bad, log);
    assert_int_equal(WEXITSTATUS(system(cmd)), 1);
    snprintf(line, sizeof line, "texvm replay: %s: FAILED\n", bad);
    assert_int_equal(count_in_file(log, line), 2);
    snprintf(line, sizeof line, "texvm replay: %s: passed\n", rec);
    assert_int_equal(count_in_file(log, line), 1);
    snprintf(cmd, sizeof cmd, "%s replay %s %s --dump 1 1 %s 2>/dev/null", bin, rec, rec, bad);
    assert_int_equal(WEXITSTATUS(system(cmd)), 2);
    unlink(log);
    unlink(bad);
}

/* A recorded protocol-2 session: resource 1 (64 bytes of shared memory) holding FILL is
 * uploaded (submit 0) — then, with SCRIBBLE, the client's memory changes, which a replay
 * must not see —, the compute stream of TEXT runs (submit 1) and the resource is read
 * back. PATH (a mkstemp template) becomes the record file's name; LIVE gets the bytes the
 * client read back. */
static void recorded_session(char *path, const uint8_t fill[64], bool scribble,
                             const char *text, size_t len, uint8_t live[64])
{
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    vt_client *c = vt_start_recorded(0, path);
    assert_int_equal(vt_negotiate(c, 2), 2);
    uint8_t *m = vt_create2(c, 1, RGBA8, 16, 1);   /* 64 bytes */
    memcpy(m, fill, 64);
    uint32_t up[14] = {H(43, 0, 13), 1, 0, 0, 64, 64, 0, 0, 0, 16, 1, 1, 0, 1};
    vt_submit(c, up, 14);
    assert_int_equal(vt_busy_wait(c), 0);
    if (scribble)
        memset(m, 0xee, 64);
    uint32_t cs[256];
    size_t n = compute_stream_of(cs, text, len);
    vt_submit(c, cs, n);
    vt_transfer_get(c, 1, 16, 1);                  /* readback into the shared memory */
    assert_int_equal(vt_busy_wait(c), 0);
    memcpy(live, m, 64);
    munmap(m, 64);
    assert_int_equal(vt_finish(c), 0);
    if (strstr(c->log, "context error"))
        fail_msg("%s", c->log);
}

static void test_record_then_replay(void **state)
{
    (void)state;
    char path[] = "/tmp/texvm_vtrec_XXXXXX";
    uint8_t fill[64], live[64];
    for (int i = 0; i < 64; i++)
        fill[i] = (uint8_t)(i + 1);
    /* submit 1: words 4..7 = words 0..3 + 100; the live memory changes after the upload */
    recorded_session(path, fill, true, cs_text, sizeof cs_text, live);
    /* by hand: words 0..3 are bytes 1..16; word 4 + i = word i + 100 */
    uint32_t w[16];
    memcpy(w, live, 64);
    for (int i = 0; i < 4; i++) {
        uint32_t word = (uint32_t)(4 * i + 1) | (uint32_t)(4 * i + 2) << 8 |
                        (uint32_t)(4 * i + 3) << 16 | (uint32_t)(4 * i + 4) << 24;
        assert_int_equal(w[i], word);
        assert_int_equal(w[4 + i], word + 100);
    }
    /* replay from the file alone: the same bytes after submit 1 */
    size_t size;
    const uint8_t *rec = read_all(path, &size);
    assert_true(size > 8 && !memcmp(rec, "TVVTREC1", 8));
    tv_vtest_config cfg = {.log = keep_log};
    seen = 0;
    assert_int_equal(tv_vtest_replay(rec, size, &cfg, grab, NULL), 0);
    assert_int_equal(seen, 1);
    assert_memory_equal(after, live, 64);
    assert_null(strstr(log_text, "context error"));
    replay_cli(path, live);
    replay_cli_batch(path);
    /* hostile record files: a chunk running past the end; shared memory of another size */
    uint8_t bad[1 << 16];
    memcpy(bad, rec, size);
    log_text[0] = '\0';
    assert_int_equal(tv_vtest_replay(bad, 20, &cfg, NULL, NULL), -1);
    assert_non_null(strstr(log_text, "runs past the file"));
    /* the first 'D' chunk (the upload's bytes 1..64): its handle changed; a run past the
     * memory; the same bytes as an 'M' chunk (whole memory, as older recordings have) */
    size_t at = find_chunk(bad, size, 'D', 0);
    size_t dlen = chunk_len(bad, at);
    assert_int_equal(dlen, 8 + 8 + 64);
    bad[at + 5] = 2;
    log_text[0] = '\0';
    assert_int_equal(tv_vtest_replay(bad, size, &cfg, NULL, NULL), -1);
    assert_non_null(strstr(log_text, "is not the contents of resource 1's 64 bytes of shared memory"));
    memcpy(bad, rec, size);
    bad[at + 5 + 8] = 1;   /* the run starts at byte 1: 64 bytes no longer fit */
    log_text[0] = '\0';
    assert_int_equal(tv_vtest_replay(bad, size, &cfg, NULL, NULL), -1);
    assert_non_null(strstr(log_text, "is not the contents of resource 1's"));
    size_t msize = size - dlen + 4 + 64;
    uint8_t *old_format = malloc(msize);
    assert_non_null(old_format);
    memcpy(old_format, rec, at);
    const uint8_t mhead[9] = {'M', 68, 0, 0, 0, 1, 0, 0, 0};
    memcpy(old_format + at, mhead, 9);
    memcpy(old_format + at + 9, rec + at + 5 + 16, 64);
    memcpy(old_format + at + 9 + 64, rec + at + 5 + dlen, size - at - 5 - dlen);
    seen = 0;
    memset(after, 0, sizeof after);
    assert_int_equal(tv_vtest_replay(old_format, msize, &cfg, grab, NULL), 0);
    assert_memory_equal(after, live, 64);
    free(old_format);
    /* the readback's hash: one readback, identical; a changed hash is reported */
    assert_non_null(strstr(log_text, "replay: 1 readbacks, 1 identical to the recording, 0 differ"));
    memcpy(bad, rec, size);
    at = find_chunk(bad, size, 'C', 0);
    assert_int_equal(chunk_len(bad, at), 12);
    bad[at + 5 + 4] ^= 1;
    log_text[0] = '\0';
    assert_int_equal(tv_vtest_replay(bad, size, &cfg, NULL, NULL), -1);
    assert_non_null(strstr(log_text, "replay: readback 1 (resource 1, chunk at byte"));
    assert_non_null(strstr(log_text, "1 readbacks, 0 identical to the recording, 1 differ"));
    assert_int_equal(tv_vtest_replay("not a record", 12, &cfg, NULL, NULL), -1);
    unlink(path);
}

/* A recording keeps the shader rules its client ran with (the 'S' chunk;
 * docs/vtest-replay.md): a client served with the defaults (denormals flushed) replays
 * identically whatever the replaying configuration says; the same stream with the rules
 * changed to IEEE denormals, or without the chunk (an older recording: IEEE), computes
 * other bytes, which the readback's hash reports; unknown rule bits are refused. */
static void test_record_shader_rules(void **state)
{
    (void)state;
    char path[] = "/tmp/texvm_vtrules_XXXXXX";
    const uint32_t in[4] = {0x00000001u, 0x3f800000u, 0x00400000u, 0x40000000u};
    uint8_t fill[64], live[64];
    memset(fill, 0, 64);
    memcpy(fill, in, 16);
    recorded_session(path, fill, false, cs_float_text, sizeof cs_float_text, live);
    uint32_t w[16];
    memcpy(w, live, 64);
    /* flushed: the two denormal inputs became 0, the normal ones stay */
    const uint32_t want[4] = {0u, 0x3f800000u, 0u, 0x40000000u};
    for (int i = 0; i < 4; i++)
        assert_int_equal(w[4 + i], want[i]);
    size_t size;
    const uint8_t *rec = read_all(path, &size);
    /* the first chunk: 'S', 4 bytes, flush (1) | fine derivatives (2) */
    const uint8_t rules[9] = {'S', 4, 0, 0, 0, 3, 0, 0, 0};
    assert_true(size > 17);
    assert_memory_equal(rec + 8, rules, 9);
    tv_vtest_config cfg = {.log = keep_log, .ieee_denormals = true};
    log_text[0] = '\0';
    assert_int_equal(tv_vtest_replay(rec, size, &cfg, NULL, NULL), 0);
    assert_non_null(strstr(log_text, "1 readbacks, 1 identical to the recording, 0 differ"));
    static uint8_t bad[1 << 16];
    memcpy(bad, rec, size);
    bad[8 + 5] = 2;   /* IEEE denormals: words 4 and 6 keep the inputs' bits */
    log_text[0] = '\0';
    assert_int_equal(tv_vtest_replay(bad, size, &cfg, NULL, NULL), -1);
    assert_non_null(strstr(log_text, "1 readbacks, 0 identical to the recording, 1 differ"));
    /* without the chunk: an older recording, IEEE denormals */
    memcpy(bad, rec, 8);
    memcpy(bad + 8, rec + 17, size - 17);
    log_text[0] = '\0';
    assert_int_equal(tv_vtest_replay(bad, size - 9, &cfg, NULL, NULL), -1);
    assert_non_null(strstr(log_text, "1 readbacks, 0 identical to the recording, 1 differ"));
    memcpy(bad, rec, size);
    bad[8 + 5] = 7;
    log_text[0] = '\0';
    assert_int_equal(tv_vtest_replay(bad, size, &cfg, NULL, NULL), -1);
    assert_non_null(strstr(log_text, "replay: chunk at byte 8: shader rules with unknown bits"));
    bad[8 + 1] = 3;   /* a 3-byte 'S' chunk */
    log_text[0] = '\0';
    assert_int_equal(tv_vtest_replay(bad, size, &cfg, NULL, NULL), -1);
    assert_non_null(strstr(log_text, "shader rules not 4 bytes"));
    unlink(path);
}

/* Recording compared and copied the whole shared memory at every transfer (and hashed the
 * whole resource at every readback), whatever the box, and charged nothing: a 14-dword
 * transfer3d of one texel on a 64 MiB mapping cost 12.7 ms of the server (ASan; ~50 ms
 * at 256 MiB), so one 64 MiB submit of them kept a recording server busy for hours. The
 * scans are charged to the total work quota now: with 2^24 warp instructions, 200 such
 * transfers on a 16 MiB mapping run out, named, while recording; all run when not. */
static void test_record_scans_charged(void **state)
{
    (void)state;
    char path[] = "/tmp/texvm_vtscan_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    enum { K = 200, W = 2048 };
    uint32_t *cmds = malloc(K * 14 * sizeof *cmds);
    assert_non_null(cmds);
    for (unsigned i = 0; i < K; i++) {
        const uint32_t t[14] = {H(43, 0, 13), 1, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 0, 1};
        memcpy(cmds + 14 * i, t, sizeof t);
    }
    for (int rec = 0; rec < 2; rec++) {
        vt_client *c = vt_start_quota(0, rec ? path : NULL, 1u << 24);
        assert_int_equal(vt_negotiate(c, 2), 2);
        uint8_t *m = vt_create2(c, 1, RGBA8, W, W);   /* 16 MiB */
        vt_submit(c, cmds, K * 14);
        assert_int_equal(vt_busy_wait(c), 0);
        munmap(m, (size_t)W * W * 4);
        assert_int_equal(vt_finish(c), 0);
        bool out = strstr(c->log, "context error: record: shared memory comparison: the "
                                  "context used up its total work quota") != NULL;
        if (out != (rec == 1))
            fail_msg("recording %d: log:\n%s", rec, c->log);
    }
    free(cmds);
    unlink(path);
}

/* The recorder keeps a copy of each shared memory it compares: it counts as shared memory
 * (it doubled what a client's mappings held, uncounted). Under a 3 MiB quota, after a
 * transfer on a 1 MiB mapping, a second mapping of 1 MiB is refused while recording —
 * and by the replay, which keeps no copy but charges the same — and made when not. */
static void test_record_copy_charged(void **state)
{
    (void)state;
    char path[] = "/tmp/texvm_vtcopy_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    const char *why = "resource_create2 2: 1048576 bytes of shared memory exceed the quota";
    const uint32_t t[14] = {H(43, 0, 13), 1, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 0, 1};
    for (int rec = 0; rec < 2; rec++) {
        vt_client *c = vt_start_quota(3u << 20, rec ? path : NULL, 0);
        assert_int_equal(vt_negotiate(c, 2), 2);
        uint8_t *m = vt_create2(c, 1, RGBA8, 512, 512);   /* 1 MiB */
        vt_submit(c, t, 14);                             /* one texel from it */
        assert_int_equal(vt_busy_wait(c), 0);
        vt_resource_create(c, 2, RGBA8, 512, 512, 1, 512 * 512 * 4);
        int fd2 = vt_recv_fd(c);
        assert_true(fd2 >= 0);
        close(fd2);
        vt_busy_wait(c);
        munmap(m, 512 * 512 * 4);
        assert_int_equal(vt_finish(c), 0);
        if ((strstr(c->log, why) != NULL) != (rec == 1))
            fail_msg("recording %d: log:\n%s", rec, c->log);
    }
    size_t size;
    const uint8_t *rec = read_all(path, &size);
    tv_vtest_config cfg = {.log = keep_log, .max_memory = 3u << 20};
    log_text[0] = '\0';
    tv_vtest_replay(rec, size, &cfg, NULL, NULL);
    if (!strstr(log_text, why))
        fail_msg("replay: log:\n%s", log_text);
    unlink(path);
}

/* The record file is created afresh, never through a link: a symlink planted at the
 * record path (client-N.vtrec: client numbers are predictable, and a --record folder may
 * be shared) made the server truncate and overwrite the link's target. The target stays
 * as it was, and the recording is a regular file only the server's user can read. */
static void test_record_not_through_symlink(void **state)
{
    (void)state;
    char victim[] = "/tmp/texvm_vtvictim_XXXXXX", link[] = "/tmp/texvm_vtlink_XXXXXX";
    int fd = mkstemp(victim);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, "precious\n", 9), 9);
    close(fd);
    fd = mkstemp(link);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(unlink(link), 0);
    assert_int_equal(symlink(victim, link), 0);
    vt_client *c = vt_start_recorded(0, link);
    assert_int_equal(vt_negotiate(c, 2), 2);
    assert_int_equal(vt_finish(c), 0);
    size_t size;
    const uint8_t *v = read_all(victim, &size);
    assert_int_equal(size, 9);
    assert_memory_equal(v, "precious\n", 9);
    struct stat st;
    assert_int_equal(lstat(link, &st), 0);
    assert_true(S_ISREG(st.st_mode));
    assert_int_equal(st.st_mode & 077, 0);
    const uint8_t *rec = read_all(link, &size);
    assert_true(size > 8 && !memcmp(rec, "TVVTREC1", 8));
    unlink(link);
    unlink(victim);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_record_then_replay),
        cmocka_unit_test(test_record_shader_rules),
        cmocka_unit_test(test_record_scans_charged),
        cmocka_unit_test(test_record_not_through_symlink),
        cmocka_unit_test(test_record_copy_charged),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
