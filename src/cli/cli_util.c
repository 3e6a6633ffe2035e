/* Small helpers shared by the subcommands. */
#include "cli.h"
#include "texvm/tgsi.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Read all of `f` into a NUL-terminated buffer; NULL when memory runs out. */
static char *read_stream(FILE *f, size_t *len)
{
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        if (n + 1 >= cap) {
            char *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                return NULL;
            }
            buf = nb;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (got == 0)
            break;
    }
    if (!buf)
        return NULL;
    buf[n] = '\0';
    *len = n;
    return buf;
}

char *cli_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "%s: cannot open: %s\n", path, strerror(errno));
        return NULL;
    }
    size_t n = 0;
    char *buf = read_stream(f, &n);
    if (!buf || ferror(f)) {
        fprintf(stderr, "%s: cannot read\n", path);
        free(buf);
        fclose(f);
        return NULL;
    }
    fclose(f);
    if (len)
        *len = n;
    return buf;
}

char *cli_read_input(const char *path, size_t *len)
{
    if (strcmp(path, "-"))
        return cli_read_file(path, len);
    char *buf = read_stream(stdin, len);
    if (!buf)
        fprintf(stderr, "-: out of memory\n");
    return buf;
}

int cli_parse_tgsi_input(const char *path, tv_tgsi_mode mode, tv_tgsi_program **progs,
                         size_t *count)
{
    size_t len;
    char *text = cli_read_input(path, &len);
    if (!text)
        return CLI_EXIT_IO;
    tv_error err;
    tv_status st = tv_tgsi_parse(text, len, path, mode, progs, count, &err);
    free(text);
    if (st != TV_OK) {
        cli_print_error(&err);
        return CLI_EXIT_INVALID;
    }
    return CLI_EXIT_OK;
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
            return CLI_EXIT_OK;
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
            return CLI_EXIT_USAGE;
        }
        *f->set = true;
    }
    if (!nfiles) {
        usage(stderr);
        return CLI_EXIT_USAGE;
    }
    return -1;
}

void cli_print_error(const tv_error *err)
{
    char buf[1024];
    tv_error_format(err, buf, sizeof buf);
    fprintf(stderr, "%s\n", buf);
    if (err->text[0])
        fprintf(stderr, "    near: %s\n", err->text);
}
