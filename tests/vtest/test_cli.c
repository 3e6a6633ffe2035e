/* `texvm vtest` as a program: listens on --socket-path, serves a client (thread and
 * process modes), logs one line per event on stderr, exits 0 on SIGTERM and removes
 * its socket. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include "helper_client.h"

static int connect_to(const char *path)
{
    for (int tries = 0; tries < 200; tries++) {
        int s = socket(AF_UNIX, SOCK_STREAM, 0);
        struct sockaddr_un un = {0};
        un.sun_family = AF_UNIX;
        snprintf(un.sun_path, sizeof un.sun_path, "%s", path);
        if (connect(s, (struct sockaddr *)&un, sizeof un) == 0)
            return s;
        close(s);
        usleep(20000);
    }
    return -1;
}

static int read_full(int fd, void *p, size_t n)
{
    uint8_t *b = p;
    while (n) {
        ssize_t r = read(fd, b, n);
        if (r <= 0)
            return -1;
        b += r, n -= (size_t)r;
    }
    return 0;
}

/* A server: `texvm vtest --socket-path DIR/s` and the NULL-terminated ARGS (at most 4),
 * its stderr in DIR/log; DIR is made from TEMPLATE. */
typedef struct server {
    pid_t pid;
    char dir[64], sock[80], log[80];
} server;

static void server_start(server *sv, const char *template, const char *const *args)
{
    const char *bin = getenv("TEXVM_BIN");
    if (!bin)
        skip();
    snprintf(sv->dir, sizeof sv->dir, "%s", template);
    assert_non_null(mkdtemp(sv->dir));
    snprintf(sv->sock, sizeof sv->sock, "%s/s", sv->dir);
    snprintf(sv->log, sizeof sv->log, "%s/log", sv->dir);
    sv->pid = fork();
    if (sv->pid == 0) {
        int fd = open(sv->log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        dup2(fd, 2);
        const char *argv[9] = {bin, "vtest", "--socket-path", sv->sock};
        for (unsigned k = 0; k < 4 && args && args[k]; k++)
            argv[4 + k] = args[k];
        execv(bin, (char *const *)argv);
        _exit(127);
    }
}

/* SIGTERM to the server, which must exit 0; its log into TEXT (N bytes), the files gone. */
static void server_stop(server *sv, char *text, size_t n)
{
    usleep(200000);
    kill(sv->pid, SIGTERM);
    int st;
    assert_int_equal(waitpid(sv->pid, &st, 0), sv->pid);
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 0);
    struct stat sb;
    assert_int_not_equal(stat(sv->sock, &sb), 0); /* socket removed */
    FILE *f = fopen(sv->log, "r");
    assert_non_null(f);
    size_t got = fread(text, 1, n - 1, f);
    fclose(f);
    text[got] = '\0';
    unlink(sv->log);
    rmdir(sv->dir);
}

static void run_server(const char *mode)
{
    server sv;
    const char *args[] = {mode, NULL};
    server_start(&sv, "/tmp/texvm-vtest-XXXXXX", args);
    int s = connect_to(sv.sock);
    assert_true(s >= 0);
    const char name[] = "cli-test";
    uint32_t hdr[2] = {sizeof name, 8}, ver[3] = {1, 11, 2}, r[3];
    assert_int_equal(write(s, hdr, 8), 8);
    assert_int_equal(write(s, name, sizeof name), (ssize_t)sizeof name);
    assert_int_equal(write(s, ver, 12), 12);
    assert_int_equal(read_full(s, r, 12), 0);
    assert_int_equal(r[1], 11);
    assert_int_equal(r[2], 2);
    close(s);
    char text[4096];
    server_stop(&sv, text, sizeof text);
    assert_non_null(strstr(text, "listening on"));
    assert_non_null(strstr(text, mode ? "connected (thread)" : "connected (process)"));
    assert_non_null(strstr(text, "client 1: client \"cli-test\""));
    assert_non_null(strstr(text, "disconnected (clean)"));
}

/* The handshake of run_server on S: CREATE_RENDERER, then PROTOCOL_VERSION, whose answer
 * is read only when WAIT_MS is negative; else whether an answer arrives within WAIT_MS. */
static bool handshake(int s, int wait_ms)
{
    const char name[] = "cap-test";
    uint32_t hdr[2] = {sizeof name, 8}, ver[3] = {1, 11, 2};
    assert_int_equal(write(s, hdr, 8), 8);
    assert_int_equal(write(s, name, sizeof name), (ssize_t)sizeof name);
    assert_int_equal(write(s, ver, 12), 12);
    if (wait_ms >= 0) {
        struct pollfd pf = {s, POLLIN, 0};
        return poll(&pf, 1, wait_ms) > 0;
    }
    return true;
}

static bool answered(int s)
{
    uint32_t r[3];
    return read_full(s, r, 12) == 0 && r[1] == 11 && r[2] == 2;
}

/* --max-clients 1: a second client is not served while the first is connected (its
 * handshake unanswered for 0.6 s), and is served once the first disconnects; the server
 * says why once. */
static void run_capped(const char *mode)
{
    server sv;
    const char *args[] = {"--max-clients", "1", mode, NULL};
    server_start(&sv, "/tmp/texvm-vtcap-XXXXXX", args);
    int a = connect_to(sv.sock), b;
    assert_true(a >= 0);
    handshake(a, -1);
    assert_true(answered(a));
    b = connect_to(sv.sock);   /* queued by the kernel, not accepted */
    assert_true(b >= 0);
    assert_false(handshake(b, 600));
    close(a);
    struct pollfd pf = {b, POLLIN, 0};
    assert_int_equal(poll(&pf, 1, 10000), 1);
    assert_true(answered(b));
    close(b);
    char text[4096];
    server_stop(&sv, text, sizeof text);
    assert_non_null(strstr(text, "1 clients connected, the most at once (max_clients): "
                                 "further connections wait"));
    assert_non_null(strstr(text, "client 2: client \"cap-test\""));
}

static void test_client_cap(void **state)
{
    (void)state;
    run_capped("--no-fork");
    run_capped(NULL);
}

static void test_threads(void **state)
{
    (void)state;
    run_server("--no-fork");
}

static void test_processes(void **state)
{
    (void)state;
    run_server(NULL);
}

/* The shader-rule options reach the client's context: its recording's first chunk ('S',
 * docs/vtest-replay.md) holds them — 3 (flushed denormals, fine derivatives) by default, 0
 * with --ieee-denormals --coarse-derivatives, 1 with --coarse-derivatives alone. */
static void record_rules(const char *opt1, const char *opt2, uint8_t want)
{
    const char *bin = getenv("TEXVM_BIN");
    if (!bin)
        skip();
    char dir[] = "/tmp/texvm-vtrules-XXXXXX", sock[64], rec[96], file[128];
    assert_non_null(mkdtemp(dir));
    snprintf(sock, sizeof sock, "%s/s", dir);
    snprintf(rec, sizeof rec, "%s/rec", dir);
    snprintf(file, sizeof file, "%s/client-1.vtrec", rec);
    assert_int_equal(mkdir(rec, 0700), 0);
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open("/dev/null", O_WRONLY);
        dup2(fd, 2);
        const char *argv[10] = {bin, "vtest", "--no-fork", "--socket-path", sock, "--record", rec};
        int n = 7;
        if (opt1)
            argv[n++] = opt1;
        if (opt2)
            argv[n++] = opt2;
        argv[n] = NULL;
        execv(bin, (char *const *)argv);
        _exit(127);
    }
    int s = connect_to(sock);
    assert_true(s >= 0);
    const char name[] = "rules";
    uint32_t hdr[2] = {sizeof name, 8};
    assert_int_equal(write(s, hdr, 8), 8);
    assert_int_equal(write(s, name, sizeof name), (ssize_t)sizeof name);
    close(s);
    usleep(200000);
    kill(pid, SIGTERM);
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_int_equal(WEXITSTATUS(st), 0);
    uint8_t head[17];
    FILE *f = fopen(file, "rb");
    assert_non_null(f);
    assert_int_equal(fread(head, 1, 17, f), 17);
    fclose(f);
    const uint8_t want_head[17] = {'T', 'V', 'V', 'T', 'R', 'E', 'C', '1', 'S', 4, 0, 0, 0,
                                   want, 0, 0, 0};
    assert_memory_equal(head, want_head, 17);
    unlink(file);
    rmdir(rec);
    rmdir(dir);
}

static void test_shader_rules(void **state)
{
    (void)state;
    record_rules(NULL, NULL, 3);
    record_rules("--ieee-denormals", "--coarse-derivatives", 0);
    record_rules("--coarse-derivatives", NULL, 1);
}

static void test_usage(void **state)
{
    (void)state;
    const char *bin = getenv("TEXVM_BIN");
    if (!bin)
        skip();
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s vtest --bogus 2>/dev/null", bin);
    int st = system(cmd);
    assert_int_equal(WEXITSTATUS(st), 2);
    const char *bad[] = {"--max-memory 0", "--max-work 0", "--max-client-work -1",
                         "--max-client-work 99999999999999999999", "--max-work 12x",
                         "--max-clients 0", "--max-clients 4097", "--max-clients -3"};
    for (unsigned k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        snprintf(cmd, sizeof cmd, "%s vtest %s 2>/dev/null", bin, bad[k]);
        st = system(cmd);
        assert_int_equal(WEXITSTATUS(st), 2);
    }
}

/* Serves one client with `texvm vtest --no-fork` and OPT VALUE (none: OPT NULL): it
 * creates resource 1 with the RESOURCE_CREATE parameters RES, submits the NDW dwords DW
 * and waits for them; the server's log is then checked for WHY (present when REFUSED;
 * otherwise absent, with no error at all). */
static void serve_one(const char *opt, const char *value, const uint32_t res[10],
                      const uint32_t *dw, size_t ndw, const char *why, bool refused)
{
    server sv;
    const char *args[] = {"--no-fork", opt, value, NULL};
    server_start(&sv, "/tmp/texvm-vtquota-XXXXXX", args);
    vt_client c;
    memset(&c, 0, sizeof c);
    c.fd = connect_to(sv.sock);
    assert_true(c.fd >= 0);
    const char name[] = "quota";
    uint32_t hdr[2] = {sizeof name, 8};
    vt_write(&c, hdr, 8);
    vt_write(&c, name, sizeof name);
    vt_cmd(&c, 10, 2 /* RESOURCE_CREATE */, res, 10);
    vt_submit(&c, dw, ndw);
    assert_int_not_equal(vt_busy_wait(&c), 0xffffffffu);   /* every request answered */
    close(c.fd);
    char text[8192];
    server_stop(&sv, text, sizeof text);
    if ((strstr(text, why) != NULL) != refused)
        fail_msg("log %s \"%s\":\n%s", refused ? "lacks" : "has", why, text);
    if (!refused && strstr(text, "context error"))
        fail_msg("the stream failed:\n%s", text);
    assert_non_null(strstr(text, "disconnected"));
}

/* --max-client-work reaches the client's context: with 10000 warp instructions, clears of
 * a 4x4 RGBA8 surface (64 each, docs/vtest-security.md) run out at the 157th, which the
 * server logs by name; with the default quota the same 200 clears all run. */
static void test_client_quota(void **state)
{
    (void)state;
    /* a 4x4 R8G8B8A8_UNORM render target; surface 10 of it as the framebuffer, 200 clears */
    const uint32_t res[10] = {1, 2 /* 2D */, 67, 2 /* render target */, 4, 4, 1, 1, 0, 0};
    enum { NCLEAR = 200 };
    static uint32_t dw[10 + 9 * NCLEAR];
    const uint32_t setup[] = {VT_CMD(1, 8, 5), 10, 1, 67, 0, 0, VT_CMD(5, 0, 3), 1, 0, 10};
    const uint32_t clear[] = {VT_CMD(7, 0, 8), 4, 0, 0, 0, 0, 0, 0, 0};
    memcpy(dw, setup, sizeof setup);
    for (unsigned k = 0; k < NCLEAR; k++)
        memcpy(&dw[10 + 9 * k], clear, sizeof clear);
    const char *why = "clear: the context used up its total work quota (10000 warp instructions)";
    serve_one("--max-client-work", "10000", res, dw, sizeof dw / 4, why, true);
    serve_one(NULL, NULL, res, dw, sizeof dw / 4, why, false);
}

/* --max-work bounds each launch: a launch of one warp cannot have the 4096 warp
 * instructions a warp must at least get from a quota of 1000, and runs by default. */
static void test_launch_quota(void **state)
{
    (void)state;
    static const char text[] = "COMP\n"
                               "PROPERTY CS_FIXED_BLOCK_WIDTH 8\n"
                               "DCL SV[0], THREAD_ID\n"
                               "DCL BUFFER[0]\n"
                               "DCL TEMP[0]\n"
                               "IMM[0] UINT32 {4, 0, 0, 0}\n"
                               "  0: UMUL TEMP[0].x, SV[0].xxxx, IMM[0].xxxx\n"
                               "  1: STORE BUFFER[0].x, TEMP[0].xxxx, SV[0].xxxx\n"
                               "  2: END\n";
    /* a 64-byte buffer (target 0, R8_UNORM) */
    const uint32_t res[10] = {1, 0, 64, 0, 64, 1, 1, 1, 0, 0};
    uint32_t dw[128];
    size_t n = 0, len = sizeof text, ndw = (len + 3) / 4;
    dw[n++] = VT_CMD(1, 4, 5 + ndw);   /* create shader 3: COMPUTE, the text */
    dw[n++] = 3, dw[n++] = 5, dw[n++] = (uint32_t)len, dw[n++] = 0, dw[n++] = 0;
    memset(&dw[n], 0, ndw * 4);
    memcpy(&dw[n], text, len);
    n += ndw;
    const uint32_t rest[] = {VT_CMD(31, 0, 2), 3, 5,                /* bind shader 3 */
                             VT_CMD(34, 0, 5), 5, 0, 0, 32, 1,      /* SSBO 0: bytes 0..32 */
                             VT_CMD(37, 0, 8), 8, 1, 1, 1, 1, 1, 0, 0};   /* one block */
    memcpy(&dw[n], rest, sizeof rest);
    n += sizeof rest / 4;
    const char *why = "launch_grid: 1 warps exceed the work quota (1000 warp instructions";
    serve_one("--max-work", "1000", res, dw, n, why, true);
    serve_one(NULL, NULL, res, dw, n, why, false);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_threads), cmocka_unit_test(test_processes),
        cmocka_unit_test(test_usage), cmocka_unit_test(test_shader_rules),
        cmocka_unit_test(test_client_quota), cmocka_unit_test(test_launch_quota),
        cmocka_unit_test(test_client_cap),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
