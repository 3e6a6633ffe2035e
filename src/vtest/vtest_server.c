/* The listening side: a unix socket, one forked process (or thread) per client, at most
 * max_clients of them at once (each has its own memory and work quotas, so the cap bounds
 * what connecting clients can make the server hold). */
#include "vtest_internal.h"

#include <errno.h>
#include <stdatomic.h>
#include <poll.h>
#include <stdarg.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct client_arg {
    int fd;
    tv_vtest_config cfg;
    unsigned id;
    atomic_uint *live;   /* the server's count of client threads (--no-fork) */
} client_arg;

static void client_log(const tv_vtest_config *cfg, unsigned id, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void client_log(const tv_vtest_config *cfg, unsigned id, const char *fmt, ...)
{
    if (!cfg->log)
        return;
    char line[300], full[320];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    snprintf(full, sizeof full, "client %u: %s", id, line);
    cfg->log(cfg->log_user, full);
}

/* The connection's own log lines, prefixed with the client number. */
static void prefixed_log(void *user, const char *line)
{
    const client_arg *a = user;
    client_log(&a->cfg, a->id, "%s", line);
}

static int serve_client(client_arg *a)
{
    tv_vtest_config cfg = a->cfg;
    cfg.log = a->cfg.log ? prefixed_log : NULL;
    cfg.log_user = a;
    char path[4096];
    if (a->cfg.record_dir) {
        snprintf(path, sizeof path, "%s/client-%u.vtrec", a->cfg.record_dir, a->id);
        cfg.record_path = path;
    }
    return tv_vtest_serve(a->fd, a->fd, &cfg);
}

static void *client_thread(void *p)
{
    client_arg *a = p;
    int rc = serve_client(a);
    client_log(&a->cfg, a->id, "disconnected (%s)", rc ? "protocol error" : "clean");
    close(a->fd);
    atomic_fetch_sub(a->live, 1);
    free(a);
    return NULL;
}

/* The configured client cap (0: the default; past the maximum: the maximum). */
static unsigned client_cap(const tv_vtest_config *cfg)
{
    if (!cfg->max_clients)
        return TV_VTEST_DEFAULT_CLIENTS;
    return cfg->max_clients < TV_VTEST_MAX_CLIENTS ? cfg->max_clients : TV_VTEST_MAX_CLIENTS;
}

int tv_vtest_listen(const char *path, int no_fork, const tv_vtest_config *cfg,
                    volatile int *stop)
{
    struct sockaddr_un un;
    memset(&un, 0, sizeof un);
    un.sun_family = AF_UNIX;
    if (strlen(path) >= sizeof un.sun_path)
        return -1;
    strcpy(un.sun_path, path);
    int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (s < 0)
        return -1;
    unlink(path);
    if (bind(s, (struct sockaddr *)&un, sizeof un) < 0 || listen(s, 16) < 0) {
        close(s);
        return -1;
    }
    unsigned next_id = 1, cap = client_cap(cfg), children = 0;
    /* (static: a detached client thread may outlive this call) */
    static atomic_uint threads;
    bool capped = false;   /* the cap's log line written, not since repeated */
    while (!*stop) {
        if (!no_fork)
            while (waitpid(-1, NULL, WNOHANG) > 0)
                children--;
        unsigned live = no_fork ? atomic_load(&threads) : children;
        if (live >= cap) {
            /* at the cap: leave connections in the socket's queue (a client then waits
               for its CREATE_RENDERER's answer) until a client leaves */
            if (!capped && cfg->log) {
                char line[160];
                snprintf(line, sizeof line, "%u clients connected, the most at once "
                         "(max_clients): further connections wait", live);
                cfg->log(cfg->log_user, line);
            }
            capped = true;
            poll(NULL, 0, 50);
            continue;
        }
        capped = false;
        struct pollfd pf = {s, POLLIN, 0};
        int r = poll(&pf, 1, 200);
        if (r <= 0)
            continue;
        int fd = accept(s, NULL, NULL);
        if (fd < 0)
            continue;
        unsigned id = next_id++;
        client_log(cfg, id, "connected (%s)", no_fork ? "thread" : "process");
        if (no_fork) {
            client_arg *a = malloc(sizeof *a);
            pthread_t t;
            if (!a) {
                close(fd);
                continue;
            }
            a->fd = fd, a->cfg = *cfg, a->id = id, a->live = &threads;
            atomic_fetch_add(&threads, 1);
            if (pthread_create(&t, NULL, client_thread, a)) {
                atomic_fetch_sub(&threads, 1);
                close(fd);
                free(a);
                continue;
            }
            pthread_detach(t);
            continue;
        }
        pid_t pid = fork();
        if (pid == 0) {
            close(s);
            signal(SIGINT, SIG_DFL);
            signal(SIGTERM, SIG_DFL);
            client_arg a = {fd, *cfg, id, NULL};
            int rc = serve_client(&a);
            client_log(cfg, id, "disconnected (%s)", rc ? "protocol error" : "clean");
            _exit(rc ? 1 : 0);
        }
        if (pid > 0)
            children++;
        close(fd);
    }
    close(s);
    unlink(path);
    return 0;
}
