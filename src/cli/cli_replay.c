/* texvm replay FILE...: serve recorded vtest clients again (docs/vtest-replay.md),
 * deterministically, without the program; --dump writes a resource's level 0 after a
 * given submit, raw, for comparison or inspection. Several files are replayed one after
 * another in one process, each by a server of its own: a list of recordings (scripts/
 * piglit.sh replays about 1300) then pays the program's start once, not once a file. */
#include "cli.h"
#include "texvm/job.h"

#include "texvm/pipe.h"
#include "texvm/vtest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct dump_req {
    uint32_t handle;
    unsigned submit;
    const char *path;
    int done;        /* 1 written, -1 failed */
} dump_req;

/* USER: the file's name. Every line names it, so that the logs of processes replaying
 * lists side by side into one file still say which line is whose (scripts/piglit.sh). */
static void log_line(void *user, const char *line)
{
    fprintf(stderr, "texvm replay: %s: %s\n", (const char *)user, line);
}

/* After submit D->submit: level 0 of resource D->handle, as the resource stores it. */
static void on_submit(void *user, unsigned index, struct tv_pipe_ctx *pipe)
{
    dump_req *d = user;
    if (index != d->submit || d->done)
        return;
    size_t offset, stride, layer_stride, size = tv_pipe_resource_size(pipe, d->handle);
    const uint8_t *data = tv_pipe_resource_data(pipe, d->handle);
    if (!size || !data ||
        tv_pipe_resource_level(pipe, d->handle, 0, &offset, &stride, &layer_stride)) {
        fprintf(stderr, "texvm replay: after submit %u there is no resource %u\n", index,
                d->handle);
        d->done = -1;
        return;
    }
    (void)stride;
    /* the file goes through a temporary file in its folder, renamed into place */
    char root[4096], why[512] = "";
    const char *slash = strrchr(d->path, '/');
    snprintf(root, sizeof root, "%.*s", slash ? (int)(slash - d->path) : 1,
             slash ? d->path : ".");
    if (slash && slash == d->path)
        snprintf(root, sizeof root, "/");
    tv_out o;
    size_t level_bytes = size - offset;   /* level 0 and what follows: the whole chain */
    int bad = tv_out_open(&o, root, slash ? slash + 1 : d->path, why, sizeof why);
    if (!bad && fwrite(data + offset, 1, level_bytes, o.f) != level_bytes) {
        tv_out_abort(&o);
        snprintf(why, sizeof why, "write failed");
        bad = 1;
    } else if (!bad) {
        bad = tv_out_commit(&o, why, sizeof why);
    }
    if (bad) {
        fprintf(stderr, "texvm replay: cannot write \"%s\": %s\n", d->path, why);
        d->done = -1;
        return;
    }
    fprintf(stderr, "texvm replay: wrote %s (resource %u after submit %u, %zu bytes)\n",
            d->path, d->handle, index, level_bytes);
    d->done = 1;
}

static void usage(FILE *f)
{
    fprintf(f, "usage: texvm replay FILE... [--dump HANDLE SUBMIT OUT] [--threads N]\n\n"
               "Serve a client recorded by `texvm vtest --record DIR` again from\n"
               "DIR/client-N.vtrec: the same requests and shared-memory contents, replies\n"
               "discarded; prints the server's log lines. --dump writes resource HANDLE's\n"
               "storage from level 0 on, after submit number SUBMIT (0-based), to OUT\n"
               "(one FILE only). --threads N: N engine workers (1..64, default 1; the same\n"
               "bytes). Several FILEs are replayed in turn, each by a server of its own.\n"
               "Each log line names its FILE; after each file a line says \"FILE: passed\"\n"
               "or \"FILE: FAILED\"; the exit status is the first failure's.\n");
}

/* One recording: TV_EXIT_OK when it replayed with every readback identical. */
static int replay_one(const char *file, uint32_t threads, dump_req *d)
{
    /* a regular file (never a FIFO or a device), at most 4 GiB */
    uint8_t *data;
    size_t size;
    char why[512];
    int st = tv_file_read(file, false, (uint64_t)4 << 30, &data, &size, why, sizeof why);
    if (st) {
        fprintf(stderr, "%s: cannot read: %s\n", file, why);
        return st;
    }
    tv_vtest_config cfg = {.log = log_line, .log_user = (void *)file, .threads = threads};
    int rc = tv_vtest_replay(data, size, &cfg, d->path ? on_submit : NULL, d);
    free(data);
    if (d->path && !d->done) {
        fprintf(stderr, "texvm replay: the recording has no submit %u\n", d->submit);
        return TV_EXIT_INVALID;
    }
    return rc || d->done < 0 ? TV_EXIT_INVALID : TV_EXIT_OK;
}

int cli_replay(int argc, char **argv)
{
    dump_req d = {0, 0, NULL, 0};
    uint32_t threads = 0;
    int files = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return TV_EXIT_OK;
        } else if (!strcmp(argv[i], "--dump") && i + 3 < argc) {
            char *e1, *e2;
            unsigned long h = strtoul(argv[i + 1], &e1, 0), s = strtoul(argv[i + 2], &e2, 0);
            if (*e1 || *e2 || !h || h > UINT32_MAX || s > UINT32_MAX) {
                fprintf(stderr, "texvm replay: --dump HANDLE SUBMIT OUT: bad number\n");
                return TV_EXIT_USAGE;
            }
            d.handle = (uint32_t)h;
            d.submit = (unsigned)s;
            d.path = argv[i + 3];
            i += 3;
        } else if (!strcmp(argv[i], "--threads") && i + 1 < argc) {
            if (cli_parse_threads("texvm replay", argv[++i], &threads))
                return TV_EXIT_USAGE;
        } else if (argv[i][0] == '-') {
            fprintf(stderr, "texvm replay: unexpected argument '%s' (try --help)\n", argv[i]);
            return TV_EXIT_USAGE;
        } else {
            argv[++files] = argv[i];   /* the files gather at argv[1..files] */
        }
    }
    if (!files) {
        usage(stderr);
        return TV_EXIT_USAGE;
    }
    if (d.path && files > 1) {
        fprintf(stderr, "texvm replay: --dump takes one FILE (%d given)\n", files);
        return TV_EXIT_USAGE;
    }
    int first_bad = TV_EXIT_OK;
    for (int f = 1; f <= files; f++) {
        int rc = replay_one(argv[f], threads, &d);
        fprintf(stderr, "texvm replay: %s: %s\n", argv[f], rc ? "FAILED" : "passed");
        if (rc && first_bad == TV_EXIT_OK)
            first_bad = rc;
    }
    return first_bad;
}
