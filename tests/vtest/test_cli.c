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
#include <unistd.h>

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

static void run_server(const char *mode)
{
    const char *bin = getenv("TEXVM_BIN");
    if (!bin)
        skip();
    char dir[] = "/tmp/texvm-vtest-XXXXXX", sock[64], log[96];
    assert_non_null(mkdtemp(dir));
    snprintf(sock, sizeof sock, "%s/s", dir);
    snprintf(log, sizeof log, "%s/log", dir);
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        dup2(fd, 2);
        if (mode)
            execl(bin, bin, "vtest", "--socket-path", sock, mode, (char *)NULL);
        else
            execl(bin, bin, "vtest", "--socket-path", sock, (char *)NULL);
        _exit(127);
    }
    int s = connect_to(sock);
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
    usleep(200000);
    kill(pid, SIGTERM);
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 0);
    struct stat sb;
    assert_int_not_equal(stat(sock, &sb), 0); /* socket removed */
    char text[4096] = {0};
    FILE *f = fopen(log, "r");
    assert_non_null(f);
    size_t got = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[got] = '\0';
    assert_non_null(strstr(text, "listening on"));
    assert_non_null(strstr(text, mode ? "connected (thread)" : "connected (process)"));
    assert_non_null(strstr(text, "client 1: client \"cli-test\""));
    assert_non_null(strstr(text, "disconnected (clean)"));
    unlink(log);
    rmdir(dir);
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
 * docs/vtest.md) holds them — 3 (flushed denormals, fine derivatives) by default, 0 with
 * --ieee-denormals --coarse-derivatives, 1 with --coarse-derivatives alone. */
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
    snprintf(cmd, sizeof cmd, "%s vtest --max-memory 0 2>/dev/null", bin);
    st = system(cmd);
    assert_int_equal(WEXITSTATUS(st), 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_threads), cmocka_unit_test(test_processes),
        cmocka_unit_test(test_usage), cmocka_unit_test(test_shader_rules),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
