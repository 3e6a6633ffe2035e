/* texvm vtest: serve Mesa's virgl vtest protocol on a unix socket (docs/vtest.md). */
#include "cli.h"

#include "texvm/vtest.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static volatile int stop_flag;

static void on_signal(int sig)
{
    (void)sig;
    stop_flag = 1;
}

static void log_line(void *user, const char *line)
{
    (void)user;
    fprintf(stderr, "texvm vtest[%ld]: %s\n", (long)getpid(), line);
}

/* The options that take a positive count — the memory quota and the two work quotas —
 * and the field of CFG each sets; NULL for any other argument. */
static uint64_t *quota_field(tv_vtest_config *cfg, const char *a)
{
    return !strcmp(a, "--max-memory")      ? &cfg->max_memory
           : !strcmp(a, "--max-work")        ? &cfg->max_work
           : !strcmp(a, "--max-client-work") ? &cfg->max_client_work
                                             : NULL;
}

int cli_vtest(int argc, char **argv)
{
    const char *path = TV_VTEST_DEFAULT_SOCKET;
    int no_fork = 0;
    tv_vtest_config cfg = {.log = log_line};
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--socket-path") && i + 1 < argc)
            path = argv[++i];
        else if (!strcmp(argv[i], "--no-fork"))
            no_fork = 1;
        else if (!strcmp(argv[i], "--ieee-denormals"))
            cfg.ieee_denormals = true;
        else if (!strcmp(argv[i], "--coarse-derivatives"))
            cfg.coarse_derivatives = true;
        else if (!strcmp(argv[i], "--record") && i + 1 < argc) {
            cfg.record_dir = argv[++i];
            struct stat st;
            if (mkdir(cfg.record_dir, 0777) && errno != EEXIST) {
                fprintf(stderr, "texvm vtest: --record %s: %s\n", cfg.record_dir,
                        strerror(errno));
                return TV_EXIT_IO;
            }
            if (stat(cfg.record_dir, &st) || !S_ISDIR(st.st_mode)) {
                fprintf(stderr, "texvm vtest: --record %s: not a folder\n", cfg.record_dir);
                return TV_EXIT_IO;
            }
        }
        else if (!strcmp(argv[i], "--max-clients") && i + 1 < argc) {
            char *end;
            errno = 0;
            unsigned long v = strtoul(argv[++i], &end, 10);
            if (*end || v == 0 || v > TV_VTEST_MAX_CLIENTS || errno || argv[i][0] == '-' ||
                argv[i][0] == '\0') {
                fprintf(stderr, "texvm vtest: --max-clients takes a count from 1 to %u\n",
                        TV_VTEST_MAX_CLIENTS);
                return TV_EXIT_USAGE;
            }
            cfg.max_clients = (uint32_t)v;
        }
        else if (!strcmp(argv[i], "--threads") && i + 1 < argc) {
            if (cli_parse_threads("texvm vtest", argv[++i], &cfg.threads))
                return TV_EXIT_USAGE;
        }
        else if (quota_field(&cfg, argv[i]) && i + 1 < argc) {
            const char *opt = argv[i];
            char *end;
            errno = 0;
            unsigned long long v = strtoull(argv[++i], &end, 10);
            if (*end || v == 0 || errno || argv[i][0] == '-' || argv[i][0] == '\0') {
                fprintf(stderr, "texvm vtest: %s takes a positive count\n", opt);
                return TV_EXIT_USAGE;
            }
            *quota_field(&cfg, opt) = v;
        } else if (!strcmp(argv[i], "--help")) {
            printf("usage: texvm vtest [--socket-path P] [--no-fork] [--max-memory BYTES]\n"
                   "                   [--max-work N] [--max-client-work N] [--record DIR]\n"
                   "                   [--max-clients N] [--threads N] [--ieee-denormals]\n"
                   "                   [--coarse-derivatives]\n\n"
                   "Serve Mesa's virgl vtest protocol (GALLIUM_DRIVER=virpipe) on a unix\n"
                   "socket (default %s), one process per client (a thread with\n"
                   "--no-fork), at most BYTES of resources per client (default 256 MiB).\n"
                   "Work quotas in warp instructions: N per draw or launch (--max-work,\n"
                   "default 2^34) and N in all for a client, its clears, copies and\n"
                   "transfers too (--max-client-work, default 2^42).\n"
                   "At most N clients at once (--max-clients, default %u): further\n"
                   "connections wait until one disconnects.\n"
                   "--record DIR saves client N's stream as DIR/client-N.vtrec for\n"
                   "`texvm replay`. --threads N gives each client N engine workers (1..64,\n"
                   "default 1): a large primitive's fragments on several cores, the same\n"
                   "bytes. Shaders run as GPUs and llvmpipe run GL's: float denormals\n"
                   "read as zero, DDX/DDY fine (per row/column); --ieee-denormals keeps\n"
                   "denormals, --coarse-derivatives takes one derivative per quad (texvm's\n"
                   "engine defaults). Runs until SIGINT/SIGTERM. docs/vtest-protocol.md\n"
                   "lists what is implemented.\n",
                   TV_VTEST_DEFAULT_SOCKET, TV_VTEST_DEFAULT_CLIENTS);
            return TV_EXIT_OK;
        } else {
            fprintf(stderr, "texvm vtest: unknown argument '%s' (try --help)\n", argv[i]);
            return TV_EXIT_USAGE;
        }
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    fprintf(stderr, "texvm vtest: listening on %s\n", path);
    if (tv_vtest_listen(path, no_fork, &cfg, &stop_flag)) {
        perror("texvm vtest: cannot listen");
        return TV_EXIT_IO;
    }
    return TV_EXIT_OK;
}
