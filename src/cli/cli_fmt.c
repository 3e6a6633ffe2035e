/* texvm fmt: print TGSI files in canonical form (Mesa's tgsi_dump layout). */
#include "cli.h"
#include "texvm/job.h"
#include "texvm/tgsi.h"

#include <stdlib.h>
#include <string.h>

static void fmt_usage(FILE *f)
{
    fprintf(f,
            "usage: texvm fmt [--legacy] FILE...\n\n"
            "Parse each TGSI file (several programs per file are allowed) and print it in\n"
            "canonical form on stdout: Mesa's tgsi_dump layout (numbered, indented\n"
            "instructions, IMM[n] numbering) with exact immediates. `-` reads stdin.\n\n"
            "  --legacy   also accept the old graw spellings (docs/tgsi-text.md)\n"
            "  --help     show this help\n\n"
            "Programs are checked as `texvm check` does; one that fails is not printed.\n\n"
            "exit status: 0 printed, 1 a file did not parse or check, 2 usage, 3 a file could not be "
            "read\n");
}

int cli_fmt(int argc, char **argv)
{
    bool legacy = false;
    const cli_flag flags[] = {{"--legacy", NULL, &legacy}, {NULL, NULL, NULL}};
    int usage_rc = cli_parse_flags(argc, argv, "fmt", flags, fmt_usage);
    if (usage_rc >= 0)
        return usage_rc;
    tv_tgsi_mode mode = legacy ? TV_TGSI_MODE_LEGACY : TV_TGSI_MODE_DEFAULT;
    int rc = TV_EXIT_OK;
    for (int i = 1; i < argc; i++) {
        if (!cli_is_file_arg(argv[i]))
            continue;
        tv_tgsi_program *progs;
        size_t count;
        int prc = cli_parse_tgsi_input(argv[i], mode, &progs, &count);
        if (prc != TV_EXIT_OK) {
            if (prc == TV_EXIT_IO || rc == TV_EXIT_OK)
                rc = prc; /* an unreadable file outranks an invalid one */
            continue;
        }
        /* the checks of `texvm check` first (nesting depth, registers, labels): fmt prints
         * only programs check accepts, so its output stays bounded (docs/limits.md) */
        bool ok = true;
        for (size_t k = 0; k < count; k++) {
            tv_error err;
            if (tv_tgsi_validate(&progs[k], TV_TGSI_LENIENT, &err) != TV_OK) {
                char sb[TV_SHORT_PATH];
                snprintf(err.file, sizeof err.file, "%s", tv_short_path(argv[i], sb));
                tv_job_print_error(&err);
                ok = false;
            }
        }
        if (!ok) {
            if (rc == TV_EXIT_OK)
                rc = TV_EXIT_INVALID;
            tv_tgsi_programs_free(progs, count);
            continue;
        }
        for (size_t k = 0; k < count; k++) {
            char *s = tv_tgsi_print_alloc(&progs[k]);
            if (!s) {
                fprintf(stderr, "texvm fmt: out of memory\n");
                tv_tgsi_programs_free(progs, count);
                return TV_EXIT_INVALID;
            }
            fputs(s, stdout);
            free(s);
        }
        tv_tgsi_programs_free(progs, count);
    }
    return rc;
}
