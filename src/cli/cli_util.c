/* Small helpers shared by the subcommands. */
#include "cli.h"
#include "texvm/tgsi.h"
#include "texvm/job.h"

#include <errno.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif
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

/* The processor's identification as CPUID gives it: a virtual machine's model name is
 * often only "AMD EPYC", which does not tell Zen 3 from Zen 5, while the family, model and
 * stepping do (issue 19: the suite's ratios move with the core). */
static void cpu_signature(char *buf, size_t size)
{
    buf[0] = 0;
#if defined(__x86_64__) || defined(__i386__)
    unsigned a, b, c, d;
    if (!__get_cpuid(0, &a, &b, &c, &d))
        return;
    char vendor[13];
    memcpy(vendor, &b, 4);
    memcpy(vendor + 4, &d, 4);
    memcpy(vendor + 8, &c, 4);
    vendor[12] = 0;
    if (!__get_cpuid(1, &a, &b, &c, &d))
        return;
    /* the displayed family and model: the extended fields count where the base family is
       15 (the family) or 6 or 15 (the model), as both vendors' manuals define them */
    unsigned family = (a >> 8) & 0xfu, model = (a >> 4) & 0xfu, stepping = a & 0xfu;
    if (family == 15)
        family += (a >> 20) & 0xffu;
    if (family == 6 || family >= 15)
        model |= ((a >> 16) & 0xfu) << 4;
    snprintf(buf, size, "%s family 0x%x model 0x%x stepping %u", vendor, family, model,
             stepping);
#else
    (void)size;
#endif
}

const char *cli_cpu_model(char *buf, size_t size)
{
    char name[160] = "unknown", sig[96];
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (f) {
        char line[512];
        while (fgets(line, sizeof line, f)) {
            const char *colon = strchr(line, ':');
            if (strncmp(line, "model name", 10) || !colon)
                continue;
            colon++;
            while (*colon == ' ' || *colon == '\t')
                colon++;
            snprintf(name, sizeof name, "%.*s", (int)strcspn(colon, "\n"), colon);
            break;
        }
        fclose(f);
    }
    cpu_signature(sig, sizeof sig);
    if (sig[0])
        snprintf(buf, size, "%s (%s)", name, sig);
    else
        snprintf(buf, size, "%s", name);
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
