/* Small helpers shared by the subcommands. */
#include "cli.h"
#include "texvm/tgsi.h"
#include "texvm/job.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static char *read_text(const char *path, bool stdin_ok, size_t *len)
{
    uint8_t *data;
    size_t n;
    char why[160];
    int rc = tv_file_read(path, stdin_ok, TV_MAX_TEXT_INPUT, &data, &n, why, sizeof why);
    if (rc) {
        char sb[TV_SHORT_PATH];
        fprintf(stderr, "%s: %s%s\n", tv_short_path(path, sb),
                rc == TV_EXIT_IO ? "cannot read: " : "", why);
        cli_last_read_status = rc;
        return NULL;
    }
    if (len)
        *len = n;
    return (char *)data;
}

int cli_last_read_status = 0;

char *cli_read_file(const char *path, size_t *len)
{
    return read_text(path, false, len);
}

char *cli_read_input(const char *path, size_t *len)
{
    return read_text(path, true, len);
}

int cli_parse_tgsi_input(const char *path, tv_tgsi_mode mode, tv_tgsi_program **progs,
                         size_t *count)
{
    size_t len;
    char *text = cli_read_input(path, &len);
    if (!text)
        return cli_last_read_status;
    tv_error err;
    char sb[TV_SHORT_PATH];
    tv_status st = tv_tgsi_parse(text, len, tv_short_path(path, sb), mode, progs, count, &err);
    free(text);
    if (st != TV_OK) {
        tv_job_print_error(&err);
        return TV_EXIT_INVALID;
    }
    return TV_EXIT_OK;
}

bool cli_is_file_arg(const char *arg)
{
    return arg[0] != '-' || !arg[1];
}

int cli_parse_flags(int argc, char **argv, const char *cmd, const cli_flag *flags,
                    void (*usage)(FILE *))
{
    int nfiles = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return TV_EXIT_OK;
        }
        if (cli_is_file_arg(a)) {
            nfiles++;
            continue;
        }
        const cli_flag *f = flags;
        while (f->name && strcmp(a, f->name) && !(f->alias && !strcmp(a, f->alias)))
            f++;
        if (!f->name) {
            fprintf(stderr, "texvm %s: unknown option '%s'\n", cmd, a);
            usage(stderr);
            return TV_EXIT_USAGE;
        }
        *f->set = true;
    }
    if (!nfiles) {
        usage(stderr);
        return TV_EXIT_USAGE;
    }
    return -1;
}

const char *cli_cpu_model(char *buf, size_t size)
{
    snprintf(buf, size, "unknown");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return buf;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        const char *colon = strchr(line, ':');
        if (strncmp(line, "model name", 10) || !colon)
            continue;
        colon++;
        while (*colon == ' ' || *colon == '\t')
            colon++;
        snprintf(buf, size, "%.*s", (int)strcspn(colon, "\n"), colon);
        break;
    }
    fclose(f);
    return buf;
}

int cli_parse_threads(const char *cmd, const char *arg, uint32_t *out)
{
    char *end;
    unsigned long v = strtoul(arg, &end, 10);
    if (!*arg || *end || arg[0] == '-' || v < 1 || v > 64) {
        fprintf(stderr, "%s: --threads %s: expected 1..64\n", cmd, arg);
        return -1;
    }
    *out = (uint32_t)v;
    return 0;
}
